//! Any bytes as ignore rules: the first part as the root's `.gitignore`,
//! the rest as a subdirectory's `.ollmignore`, and every line as a built-in
//! ignore pattern. The walk never panics and lists only files that exist
//! below the root; a file that the rules drop is never listed.
#![no_main]
use std::path::Path;
use std::sync::{Arc, Mutex, OnceLock};

use libfuzzer_sys::fuzz_target;
use ollm::config::FileDiscoveryConfig;
use ollm::discover::{EntryType, Options, walk_dir};

const FILES: &[&str] = &[
    "a.rs",
    "b/c.txt",
    "b/d/e.log",
    "b/d/f g.md",
    ".hidden",
    "x/y/z",
];

fn tree() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = tempfile::tempdir().expect("temp dir");
        for file in FILES {
            let path = dir.path().join(file);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "x").unwrap();
        }
        dir
    })
    .path()
}

fuzz_target!(|data: &[u8]| {
    let root = tree();
    let split = data.iter().position(|&b| b == 0).unwrap_or(data.len());
    let (git, ollm) = (&data[..split], data.get(split + 1..).unwrap_or_default());
    std::fs::write(root.join(".gitignore"), git).unwrap();
    std::fs::write(root.join("b/.ollmignore"), ollm).unwrap();
    let config = FileDiscoveryConfig {
        builtin_ignores: String::from_utf8_lossy(ollm)
            .lines()
            .take(20)
            .map(String::from)
            .collect(),
        include_hidden: true,
        ..FileDiscoveryConfig::default()
    };
    let mut options = Options::new(root, &config).expect("the root exists");
    options.threads = 1;
    let options = Arc::new(options);
    let listed = Mutex::new(Vec::new());
    walk_dir(&options, root, || {
        |found| {
            if found.reported && found.kind == EntryType::File {
                listed.lock().unwrap().push(found.relative.to_path_buf());
            }
            true
        }
    });
    for path in listed.into_inner().unwrap() {
        assert!(path.is_relative(), "{path:?}");
        assert!(root.join(&path).exists(), "{path:?} does not exist");
        assert!(
            options.keep(&path, false),
            "{path:?} listed although a built-in ignore drops it"
        );
    }
});
