//! The exactness bar: inside a git work tree the listing equals
//! `git ls-files --cached --others --exclude-standard`, minus what the
//! built-ins and `.ollmignore` remove.

use super::*;
use crate::support::Sandbox;

const ROOT_GITIGNORE: &str = r"# a comment line, then a blank one

*.log
!keep.log
/anchored.txt
build-out/
doc/**/*.tmp
**/cache-dir
a/**/z.txt
\#hash.txt
\!bang.txt
trailing.txt\ 
spaces\ in\ name.txt
*.o
!important.o
dironly/
foo/*
!foo/keep/
[abc].dat
?.q
nested/**
!nested/inner/
deep/*/
ends-with-space.txt   
*.[Bb][Aa][Kk]
!/sub/negated-at-root.log
";

const SUB_GITIGNORE: &str = "*.txt
!important.txt
/local-only
sub-dir-only/
!*.log
";

const DEEPER_GITIGNORE: &str = "!*.txt
secret.txt
";

/// A tree full of the patterns git users write.
fn tricky_tree(root: &Path) {
    touch(root, b".gitignore", ROOT_GITIGNORE);
    touch(root, b"sub/.gitignore", SUB_GITIGNORE);
    touch(root, b"sub/deeper/.gitignore", DEEPER_GITIGNORE);
    let files: &[&[u8]] = &[
        b"a.log",
        b"keep.log",
        b"sub/keep.log",
        b"sub/x.log",
        b"sub/negated-at-root.log",
        b"anchored.txt",
        b"sub/anchored.txt",
        b"build-out/x.c",
        b"sub/build-out/y.c",
        b"build-out.c",
        b"doc/a.tmp",
        b"doc/x/y/b.tmp",
        b"doc/b.md",
        b"other/c.tmp",
        b"cache-dir/a",
        b"x/y/cache-dir/b",
        b"cache-dir.txt",
        b"a/z.txt",
        b"a/b/z.txt",
        b"a/b/c/z.txt",
        b"b/a/z.txt",
        b"#hash.txt",
        b"!bang.txt",
        b"#other.txt",
        b"trailing.txt ",
        b"trailing.txt",
        b"spaces in name.txt",
        b"ends-with-space.txt",
        b"m.o",
        b"important.o",
        b"sub/important.o",
        b"dironly/f",
        b"sub/dironly/g",
        b"notdir/dironly",
        b"foo/a",
        b"foo/keep/b",
        b"foo/keep/c/d",
        b"foo/other/e",
        b"a.dat",
        b"d.dat",
        b"ab.dat",
        b"x.q",
        b"xy.q",
        b"nested/a",
        b"nested/inner/b",
        b"nested/inner/deep/c",
        b"deep/one/f",
        b"deep/f2",
        b"deep/one/two/g",
        b"old.bak",
        b"OLD.BAK",
        b"old.Bak",
        b"old.bak2",
        b"sub/a.txt",
        b"sub/important.txt",
        b"sub/local-only",
        b"sub/inner/local-only",
        b"sub/sub-dir-only/h",
        b"sub/deeper/back.txt",
        b"sub/deeper/secret.txt",
        b"sub/deeper/more/t.txt",
        b"sub/deeper/more/secret.txt",
        b".hidden",
        b".config/settings.json",
        b"src/.env",
        b"plain.rs",
        b"src/lib.rs",
        b"src/bin/main.rs",
        b"name\xffnot-utf8.txt",
        b"dir\xfe/inside.rs",
        b"line\nbreak.rs",
        b"tab\there.rs",
        b"unicode-\xc3\xa9.rs",
    ];
    for name in files {
        touch(root, name, "x");
    }
    std::fs::create_dir_all(root.join("empty/dir")).expect("empty dir");
    std::os::unix::fs::symlink("plain.rs", root.join("link-to-file")).expect("symlink");
    std::os::unix::fs::symlink("src", root.join("link-to-dir")).expect("symlink");
    std::os::unix::fs::symlink("nowhere", root.join("dangling")).expect("symlink");
}

#[test]
fn tricky_patterns_list_exactly_what_git_lists() {
    let sandbox = Sandbox::new();
    let root = &sandbox.work;
    git_init(&sandbox, root);
    tricky_tree(root);
    let (ours, stderr) = discover_paths(&sandbox, root, &[]);
    assert_same(&ours, &git_files(&sandbox, root));
    assert!(stderr.is_empty(), "unexpected warnings: {stderr}");
}

#[test]
fn listing_from_a_subdirectory_applies_parent_ignore_files_like_git() {
    let sandbox = Sandbox::new();
    let root = &sandbox.work;
    git_init(&sandbox, root);
    tricky_tree(root);
    let sub = root.join("sub");
    let (ours, _) = discover_paths(&sandbox, &sub, &[]);
    assert_same(&ours, &git_files(&sandbox, &sub));
}

#[test]
fn info_exclude_and_the_global_excludes_file_apply_like_git() {
    let sandbox = Sandbox::new();
    let root = &sandbox.work;
    git_init(&sandbox, root);
    std::fs::write(
        root.join(".git/info/exclude"),
        "# local excludes\nexcluded-by-info/\n*.info\n!keep.info\n",
    )
    .expect("write exclude");
    std::fs::write(
        sandbox.home.join(".gitconfig"),
        "[core]\n\texcludesFile = ~/global-ignore\n",
    )
    .expect("write gitconfig");
    std::fs::write(
        sandbox.home.join("global-ignore"),
        "*.global\n!wanted.global\n.DS_Store\n",
    )
    .expect("write global ignore");
    for name in [
        "excluded-by-info/a",
        "a.info",
        "keep.info",
        "x/b.info",
        "c.global",
        "wanted.global",
        "d/.DS_Store",
        "plain.txt",
        "d/plain.txt",
    ] {
        touch(root, name.as_bytes(), "x");
    }
    // A .gitignore negation overrides info/exclude and the global file.
    touch(root, b"d/.gitignore", "!*.global\n");
    touch(root, b"d/e.global", "x");
    let (ours, _) = discover_paths(&sandbox, root, &[]);
    let expected = git_files(&sandbox, root);
    assert!(
        !show(&expected).contains(&"c.global".to_string()),
        "setup: git ignores c.global"
    );
    assert_same(&ours, &expected);
}

#[test]
fn the_default_global_excludes_file_under_xdg_config_home_applies_like_git() {
    let sandbox = Sandbox::new();
    let root = &sandbox.work;
    git_init(&sandbox, root);
    touch(&sandbox.home, b".config/git/ignore", "*.swp\n");
    for name in ["a.swp", "sub/b.swp", "c.txt"] {
        touch(root, name.as_bytes(), "x");
    }
    let (ours, _) = discover_paths(&sandbox, root, &[]);
    assert_same(&ours, &git_files(&sandbox, root));
    assert_eq!(show(&ours), vec!["c.txt"]);
}

#[test]
fn committed_files_are_listed_like_git() {
    let sandbox = Sandbox::new();
    let root = &sandbox.work;
    git_init(&sandbox, root);
    tricky_tree(root);
    git(&sandbox, root, &["add", "-A"]);
    git(
        &sandbox,
        root,
        &[
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "commit",
            "-qm",
            "x",
        ],
    );
    touch(root, b"after-commit.rs", "x");
    touch(root, b"after-commit.log", "x");
    std::fs::remove_file(root.join("plain.rs")).expect("remove");
    let (ours, _) = discover_paths(&sandbox, root, &[]);
    // git still lists the deleted plain.rs from its index; a listing of the
    // disk cannot, which docs/ollm-discover.md states.
    let mut expected = git_files(&sandbox, root);
    expected.retain(|p| p != b"plain.rs");
    assert_same(&ours, &expected);
}

#[test]
fn builtins_and_ollmignore_remove_from_what_git_lists() {
    let sandbox = Sandbox::new();
    let root = &sandbox.work;
    git_init(&sandbox, root);
    touch(root, b".gitignore", "*.log\n!node_modules/\n");
    touch(root, b".ollmignore", "secrets/\n*.pem\n!special.log\n");
    touch(root, b"sub/.ollmignore", "/local.txt\n");
    for name in [
        "node_modules/pkg/index.js",
        "web/node_modules/x.js",
        "dist/app.js",
        "build/out.o",
        "sub/build/y",
        ".next/cache",
        ".cache/z",
        "builder/ok.rs",
        "secrets/key",
        "a/secrets/key2",
        "cert.pem",
        "a/b/cert.pem",
        "special.log",
        "other.log",
        "sub/local.txt",
        "local.txt",
        "src/main.rs",
    ] {
        touch(root, name.as_bytes(), "x");
    }
    let (ours, _) = discover_paths(&sandbox, root, &[]);
    let builtin = [
        "node_modules",
        ".git",
        "dist",
        "build",
        ".next",
        ".cache",
        ".ollm",
    ];
    let mut expected: Vec<Vec<u8>> = git_files(&sandbox, root)
        .into_iter()
        .filter(|p| {
            let text = String::from_utf8_lossy(p);
            let parts: Vec<&str> = text.split('/').collect();
            !parts.iter().any(|c| builtin.contains(c) || *c == "secrets")
                && !text.ends_with(".pem")
                && text != "sub/local.txt"
        })
        .collect();
    // `.ollmignore` takes precedence over `.gitignore`: it re-includes this.
    expected.push(b"special.log".to_vec());
    expected.sort();
    assert_same(&ours, &expected);
}

#[test]
fn gitignore_applies_outside_a_git_work_tree() {
    let sandbox = Sandbox::new();
    let root = &sandbox.work;
    touch(root, b".gitignore", "*.log\n");
    touch(root, b"a.log", "x");
    touch(root, b"a.rs", "x");
    let (ours, _) = discover_paths(&sandbox, root, &[]);
    assert_eq!(show(&ours), vec![".gitignore", "a.rs"]);
}

fn commit_all(sandbox: &Sandbox, root: &Path) {
    git(sandbox, root, &["add", "-A"]);
    git(
        sandbox,
        root,
        &[
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "commit",
            "-qm",
            "x",
        ],
    );
}

#[test]
fn tracked_files_matching_ignore_rules_are_listed_like_git() {
    for index_version in ["2", "3", "4"] {
        let sandbox = Sandbox::new();
        let root = &sandbox.work;
        git_init(&sandbox, root);
        tricky_tree(root);
        commit_all(&sandbox, root);
        // Force-add files that ignore rules match, some in ignored directories.
        git(
            &sandbox,
            root,
            &[
                "add",
                "-f",
                "a.log",
                "build-out/x.c",
                "sub/a.txt",
                "nested/inner/b",
                "cache-dir/a",
            ],
        );
        git(
            &sandbox,
            root,
            &["update-index", "--index-version", index_version],
        );
        // A file tracked before its ignore rule was written.
        touch(root, b"late/tracked.gen", "x");
        git(&sandbox, root, &["add", "late/tracked.gen"]);
        touch(root, b"late/.gitignore", "*.gen\n");
        touch(root, b"late/untracked.gen", "x");
        let (ours, _) = discover_paths(&sandbox, root, &[]);
        let git_list = git_files(&sandbox, root);
        assert!(show(&git_list).contains(&"late/tracked.gen".to_string()));
        assert_same(&ours, &git_list);
        // From a subdirectory too.
        let sub = root.join("sub");
        let (ours, _) = discover_paths(&sandbox, &sub, &[]);
        assert_same(&ours, &git_files(&sandbox, &sub));
    }
}

#[test]
fn tracked_files_still_obey_builtins_ollmignore_and_filters() {
    let sandbox = Sandbox::new();
    let root = &sandbox.work;
    git_init(&sandbox, root);
    touch(root, b".gitignore", "*.log\n");
    touch(root, b".ollmignore", "secret.log\n");
    for name in [
        "a.log",
        "secret.log",
        "dist/b.log",
        "deep/er/c.log",
        ".h/d.log",
    ] {
        touch(root, name.as_bytes(), "x");
    }
    commit_all(&sandbox, root);
    git(
        &sandbox,
        root,
        &[
            "add",
            "-f",
            "a.log",
            "secret.log",
            "dist/b.log",
            "deep/er/c.log",
            ".h/d.log",
        ],
    );
    let (ours, _) = discover_paths(&sandbox, root, &[]);
    assert_eq!(
        show(&ours),
        vec![
            ".gitignore",
            ".h/d.log",
            ".ollmignore",
            "a.log",
            "deep/er/c.log"
        ]
    );
    let shallow = sandbox
        .cmd("ollm-discover")
        .args([
            "--paths",
            "--max-depth",
            "0",
            "--no-hidden",
            "--include",
            "*.log",
        ])
        .output()
        .expect("run");
    assert_eq!(crate::support::stdout(&shallow), "a.log\n");
}

#[test]
fn a_corrupt_index_is_a_warning_and_the_listing_goes_on() {
    let sandbox = Sandbox::new();
    let root = &sandbox.work;
    git_init(&sandbox, root);
    touch(root, b"a.rs", "x");
    std::fs::write(root.join(".git/index"), b"DIRC\0\0\0\x02\0\0\0\x09garbage")
        .expect("write index");
    let (ours, stderr) = discover_paths(&sandbox, root, &[]);
    assert_eq!(show(&ours), vec!["a.rs"]);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("index"), "{stderr}");
}
