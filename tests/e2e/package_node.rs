//! The npm package (`npm/`): `npm/pack.mjs` packs `ollm-tools` and the
//! package of programs for this platform from the binaries this test run
//! built (never building them again), npm installs both tarballs offline
//! into a scratch project, and there Node's test runner runs the client's
//! tests (`npm/ollm-tools/test/*.test.mjs`) against the real programs and
//! `tsc --strict` compiles a user's code against the shipped declarations.
//! A second project, installed without the optional platform package, gets
//! the missing-program errors. Needs node, npm and the pinned TypeScript
//! that `.ci/run` installs into `target/npm-tools`; without them the test
//! says SKIPPED, and fails under `CI=true`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Instant;

use crate::support::bin_path;

const NPM_TOOLS: &str = "typescript@5.9.3 @types/node@20.19.9 esbuild@0.28.2";

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The directory holding node and npm, and the project with the pinned
/// TypeScript and esbuild; `None` (SKIPPED) when one is missing.
fn toolchain() -> Option<(PathBuf, PathBuf)> {
    let npm_tools = repo().join("target/npm-tools");
    let node_dir = std::env::var_os("PATH").and_then(|path| {
        std::env::split_paths(&path)
            .find(|dir| dir.join("node").is_file() && dir.join("npm").is_file())
    });
    let why = match &node_dir {
        None => "no node and npm on PATH".to_string(),
        Some(_)
            if !npm_tools.join("node_modules/typescript/bin/tsc").is_file()
                || !npm_tools.join("node_modules/esbuild/bin/esbuild").is_file() =>
        {
            format!(
                "no pinned TypeScript and esbuild in {} (mkdir -p target/npm-tools && cd target/npm-tools && npm init -y && npm install --save-exact {NPM_TOOLS})",
                npm_tools.display()
            )
        }
        Some(dir) => return Some((dir.clone(), npm_tools)),
    };
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "CI=true and {why}"
    );
    eprintln!("SKIPPED: {why}");
    None
}

/// The directory of the binaries this test run uses, and its cargo profile
/// (`debug` is the `dev` profile's directory; others are named after theirs).
fn built_programs() -> (PathBuf, String) {
    let dir = bin_path("ollm")
        .parent()
        .expect("the binaries' directory")
        .to_path_buf();
    let name = dir.file_name().unwrap().to_string_lossy().into_owned();
    let profile = if name == "debug" { "dev".into() } else { name };
    (dir, profile)
}

/// A command in a cleared environment: node's directory and the system's
/// on PATH (not our binaries': the packages must bring them), `home` as HOME.
fn command(program: &str, node_dir: &Path, home: &Path, cwd: &Path) -> Command {
    let mut cmd = Command::new(node_dir.join(program));
    cmd.env_clear()
        .env(
            "PATH",
            format!("{}:/usr/local/bin:/usr/bin:/bin", node_dir.display()),
        )
        .env("HOME", home)
        .env("LANG", "C.UTF-8")
        .env("npm_config_update_notifier", "false")
        .current_dir(cwd);
    cmd
}

fn succeeded(what: &str, out: &Output) -> String {
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{what} failed ({}):\n{stdout}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// A scratch project with `tarballs` installed offline and the tests copied in.
fn project(dir: &Path, node_dir: &Path, home: &Path, tarballs: &[&str], npm_flags: &[&str]) {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(
        dir.join("package.json"),
        r#"{"name": "scratch", "private": true, "type": "module"}"#,
    )
    .unwrap();
    let out = command("npm", node_dir, home, dir)
        .args([
            "install",
            "--offline",
            "--no-audit",
            "--no-fund",
            "--loglevel=error",
        ])
        .args(npm_flags)
        .args(tarballs)
        .output()
        .expect("run npm install");
    succeeded("npm install", &out);
    copy_dir(&repo().join("npm/ollm-tools/test"), &dir.join("test"));
}

/// The TypeScript example of one turn on the Node page (the `ts` block of
/// docs/node.md), with `askModel`, the user's own model call, declared.
fn node_page_example() -> String {
    let page = std::fs::read_to_string(repo().join("docs/node.md")).unwrap();
    let block = page
        .split("```ts\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("a ts block in docs/node.md");
    format!(
        "{block}\ndeclare function askModel(system: string, history: import(\"ollm-tools\").Message[]): Promise<string>;\n"
    )
}

#[test]
fn the_npm_package_installs_from_its_tarballs_and_its_client_passes_its_tests() {
    let Some((node_dir, npm_tools)) = toolchain() else {
        return;
    };
    let (bin_dir, profile) = built_programs();
    let scratch = tempfile::tempdir().unwrap();
    let home = scratch.path().join("home");
    std::fs::create_dir_all(&home).unwrap();

    // Packed where a later run can reuse the platform tarball while the
    // binaries are unchanged (target/<triple>/<profile>/npm-pack).
    let out_dir = bin_dir.join("npm-pack");
    let started = Instant::now();
    let packed = command("node", &node_dir, &home, &repo())
        .arg(repo().join("npm/pack.mjs"))
        .arg("--bin-dir")
        .arg(&bin_dir)
        .arg("--out")
        .arg(&out_dir)
        .arg("--npm-tools")
        .arg(&npm_tools)
        .output()
        .expect("run node npm/pack.mjs");
    let packed: serde_json::Value =
        serde_json::from_str(&succeeded("npm/pack.mjs", &packed)).unwrap();
    eprintln!(
        "packed the {profile} profile's programs in {:.1}s: {packed}",
        started.elapsed().as_secs_f64()
    );
    let main = packed["main"].as_str().unwrap();
    let platform = packed["platform"].as_str().unwrap();

    let full = scratch.path().join("full");
    let bare = scratch.path().join("bare");
    std::thread::scope(|s| {
        let with_programs = s.spawn(|| {
            project(&full, &node_dir, &home, &[main, platform], &[]);
            let tests: Vec<PathBuf> = std::fs::read_dir(full.join("test"))
                .unwrap()
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.to_string_lossy().ends_with(".test.mjs"))
                .collect();
            assert!(tests.len() >= 8, "{tests:?}");
            let run = command("node", &node_dir, &home, &full)
                .args(["--test", "--test-reporter=spec"])
                .args(&tests)
                .output()
                .expect("run node --test");
            eprintln!("{}", succeeded("node --test", &run));
            std::fs::write(full.join("test/node_page_example.ts"), node_page_example()).unwrap();
            let typed = command("node", &node_dir, &home, &full)
                .arg(npm_tools.join("node_modules/typescript/bin/tsc"))
                .args([
                    "--strict",
                    "--noEmit",
                    "--skipLibCheck",
                    "--module",
                    "nodenext",
                ])
                .args([
                    "--moduleResolution",
                    "nodenext",
                    "--target",
                    "es2022",
                    "--types",
                    "node",
                ])
                .arg("--typeRoots")
                .arg(npm_tools.join("node_modules/@types"))
                .args(["test/typecheck.ts", "test/node_page_example.ts"])
                .output()
                .expect("run tsc");
            succeeded(
                "tsc --strict on test/typecheck.ts and docs/node.md's example",
                &typed,
            );
        });
        let without_programs = s.spawn(|| {
            project(&bare, &node_dir, &home, &[main], &["--omit=optional"]);
            assert!(!bare.join("node_modules/ollm-tools-linux-x64").exists());
            let run = command("node", &node_dir, &home, &bare)
                .args([
                    "--test",
                    "--test-reporter=spec",
                    "test/bare/missing.test.mjs",
                ])
                .output()
                .expect("run node --test");
            eprintln!("{}", succeeded("node --test test/bare", &run));
            // The programs `cargo install` put on PATH, behind the
            // project's launchers, as after `npm install ollm-tools` alone.
            let launchers = bare.join("node_modules/.bin");
            let run = command("node", &node_dir, &home, &bare)
                .env(
                    "PATH",
                    format!(
                        "{}:{}:{}:/usr/bin:/bin",
                        launchers.display(),
                        node_dir.display(),
                        bin_dir.display()
                    ),
                )
                .args([
                    "--test",
                    "--test-reporter=spec",
                    "test/bare/on-path.test.mjs",
                ])
                .output()
                .expect("run node --test");
            eprintln!("{}", succeeded("node --test test/bare/on-path", &run));
        });
        for handle in [with_programs, without_programs] {
            if let Err(panic) = handle.join() {
                std::panic::resume_unwind(panic);
            }
        }
    });
}
