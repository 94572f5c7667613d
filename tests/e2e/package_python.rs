//! The Python distribution (`pyproject.toml`, `python/`): a wheel with
//! maturin's metadata and layout around the binaries this test run built
//! (`assemble_wheel.py`), installed into a fresh virtual environment, where `mypy --strict` checks the installed client
//! and pytest (`python/tests/`) drives the real programs through it.
//!
//! The pinned tools come from `target/py-tools` (made by `.ci/run`:
//! maturin, mypy, pip, and pytest's wheels in `target/py-tools/wheels`, so
//! the fresh environment is filled offline). Without them every test here
//! says SKIPPED, and fails under `CI=true`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;
use std::time::Instant;

use crate::program_lists::wheel_programs;
use crate::support::{bin_path, stderr, stdout};

const PYTEST: &str = "pytest==9.2.0";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

pub fn tools() -> PathBuf {
    root().join("target/py-tools")
}

/// The cargo profile that built the binaries under test: their directory's
/// name (`debug` is the `dev` profile's).
fn cargo_profile() -> String {
    let dir = bin_path("ollm");
    let name = dir
        .parent()
        .and_then(Path::file_name)
        .and_then(|n| n.to_str())
        .expect("the binaries' directory");
    if name == "debug" { "dev" } else { name }.to_string()
}

/// The built wheel and the fresh environment it is installed in.
pub struct Installed {
    pub wheel: PathBuf,
    pub venv: PathBuf,
}

impl Installed {
    pub fn python(&self) -> PathBuf {
        self.venv.join("bin/python")
    }
}

pub fn run(what: &str, cmd: &mut Command) -> Output {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("{what}: cannot start: {e}"));
    assert!(
        out.status.success(),
        "{what}: {}\n{}\n{}",
        out.status,
        stdout(&out),
        stderr(&out)
    );
    out
}

/// Builds the wheel and installs it into a new virtual environment, once per
/// test run (the Python example tests use it too); `None`, saying SKIPPED,
/// when the pinned tools are missing.
pub fn installed() -> Option<&'static Installed> {
    static INSTALLED: OnceLock<Option<Installed>> = OnceLock::new();
    INSTALLED.get_or_init(build_and_install).as_ref()
}

fn build_and_install() -> Option<Installed> {
    let tools = tools();
    let maturin = tools.join("bin/maturin");
    if !maturin.is_file() || !tools.join("wheels").is_dir() {
        let why = format!(
            "no pinned Python tools at {} (bash .ci/run makes them: python3 -m venv target/py-tools, then pip install maturin, mypy and pytest's wheels)",
            tools.display()
        );
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "CI=true and {why}"
        );
        eprintln!("SKIPPED: {why}");
        return None;
    }
    let profile = cargo_profile();
    let dir = root().join("target/py-package").join(&profile);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("target/py-package");

    let started = Instant::now();
    // maturin writes the metadata and the platform tag (it compiles
    // nothing for that); assemble_wheel.py lays the wheel out as `maturin
    // build` does, around the binaries this test run built (its header says
    // why maturin does not build them here).
    let dist_info = dir.join("dist-info");
    run(
        "maturin pep517 write-dist-info",
        Command::new(&maturin)
            .args(["pep517", "write-dist-info", "--metadata-directory"])
            .arg(&dist_info)
            .current_dir(root()),
    );
    let info = std::fs::read_dir(&dist_info)
        .expect("maturin's metadata directory")
        .map(|e| e.expect("a directory entry").path())
        .find(|p| p.extension().is_some_and(|e| e == "dist-info"))
        .expect("maturin wrote a .dist-info");
    let bin_dir = bin_path("ollm");
    let out = run(
        "assemble_wheel.py",
        Command::new(tools.join("bin/python"))
            .arg(root().join("tests/e2e/assemble_wheel.py"))
            .arg(&info)
            .arg(root().join("python/ollm_tools"))
            .arg(bin_dir.parent().expect("the binaries' directory"))
            .arg(dir.join("dist"))
            .args(wheel_programs()),
    );
    let wheel = PathBuf::from(stdout(&out).trim());
    let built = started.elapsed();

    let venv = dir.join("venv");
    run(
        "python3 -m venv",
        Command::new("python3")
            .args(["-m", "venv", "--without-pip"])
            .arg(&venv),
    );
    run(
        "pip install",
        Command::new(tools.join("bin/pip"))
            .arg("--python")
            .arg(venv.join("bin/python"))
            .args(["install", "--quiet", "--no-index", "--find-links"])
            .arg(tools.join("wheels"))
            .arg(&wheel)
            .arg(PYTEST),
    );
    eprintln!(
        "package_python: the wheel took {:.1} s to build, {:.1} s with the installation",
        built.as_secs_f64(),
        started.elapsed().as_secs_f64()
    );
    Some(Installed { wheel, venv })
}

#[test]
fn the_wheel_carries_every_program_for_any_python_3() {
    let Some(installed) = installed() else { return };
    let name = installed
        .wheel
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap();
    let version = env!("CARGO_PKG_VERSION");
    assert!(
        name.starts_with(&format!("ollm_tools-{version}-py3-none-")),
        "one wheel per platform, not per Python version: {name}"
    );
    for program in &wheel_programs() {
        let path = installed.venv.join("bin").join(program);
        let out = run(program, Command::new(&path).arg("--version"));
        let size = |p: &Path| std::fs::metadata(p).unwrap().len();
        assert_eq!(
            size(&path),
            size(&bin_path(program)),
            "{program}: the wheel carries the binary this test run built"
        );
        assert!(
            stdout(&out).contains(version),
            "{program}: {}",
            stdout(&out)
        );
    }
    let typed = installed
        .venv
        .join("lib")
        .read_dir()
        .unwrap()
        .map(|e| e.unwrap().path().join("site-packages/ollm_tools/py.typed"))
        .any(|p| p.is_file());
    assert!(typed, "py.typed is installed, so mypy reads the hints");
}

#[test]
fn the_installed_client_passes_mypy_strict() {
    let Some(installed) = installed() else { return };
    let package = installed
        .venv
        .join("lib")
        .read_dir()
        .unwrap()
        .map(|e| e.unwrap().path().join("site-packages/ollm_tools"))
        .find(|p| p.is_dir())
        .expect("ollm_tools in the environment");
    let cache = root().join("target/py-package").join(cargo_profile());
    run(
        "mypy --strict",
        Command::new(tools().join("bin/mypy"))
            .args(["--strict", "--python-executable"])
            .arg(installed.python())
            .arg("--cache-dir")
            .arg(cache.join("mypy-cache"))
            .arg(&package)
            .arg(root().join("python/tests"))
            .arg(root().join("examples/agent.py")),
    );
}

#[test]
fn the_python_client_tests_pass_against_the_real_programs() {
    let Some(installed) = installed() else { return };
    let out = Command::new(installed.python())
        .args(["-m", "pytest", "-q", "-p", "no:cacheprovider"])
        .arg(root().join("python/tests"))
        .env_clear()
        // The programs are not on PATH: find_bin finds them in the venv.
        .env("PATH", "/usr/local/bin:/usr/bin:/bin")
        .env("LANG", "C.UTF-8")
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .env("TMPDIR", std::env::temp_dir())
        .current_dir(root().join("python/tests"))
        .output()
        .expect("run pytest");
    assert!(
        out.status.success(),
        "pytest failed:\n{}\n{}",
        stdout(&out),
        stderr(&out)
    );
    let summary = stdout(&out);
    assert!(
        summary.contains(" passed") && !summary.contains("skipped"),
        "{summary}"
    );
}
