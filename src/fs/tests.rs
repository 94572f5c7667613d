use super::*;
use std::os::unix::fs::MetadataExt;

#[test]
fn atomic_writes_replace_the_whole_file_privately() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("new/a.json");
    write_atomic(&path, b"first", Durability::Synced).unwrap();
    write_atomic(&path, b"second", Durability::Cache).unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), b"second");
    assert_eq!(std::fs::metadata(&path).unwrap().mode() & 0o777, FILE_MODE);
    let parent = std::fs::metadata(path.parent().unwrap()).unwrap();
    assert_eq!(parent.mode() & 0o777, DIR_MODE);
    assert_eq!(
        std::fs::read_dir(path.parent().unwrap()).unwrap().count(),
        1
    );
}

#[test]
fn special_kind_names_what_is_neither_file_nor_directory_through_links() {
    let dir = tempfile::tempdir().unwrap();
    let socket = dir.path().join("s");
    let _listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
    let link = dir.path().join("link");
    std::os::unix::fs::symlink(&socket, &link).unwrap();
    std::fs::write(dir.path().join("f"), "x").unwrap();
    assert_eq!(special_kind(&socket), Some("a socket"));
    assert_eq!(special_kind(&link), Some("a socket"));
    assert_eq!(special_kind(&dir.path().join("f")), None);
    assert_eq!(special_kind(dir.path()), None);
    assert_eq!(special_kind(&dir.path().join("missing")), None);
}

#[test]
fn a_link_at_the_target_is_refused_not_followed() {
    let dir = tempfile::tempdir().unwrap();
    let victim = dir.path().join("victim");
    std::fs::write(&victim, "keep").unwrap();
    let path = dir.path().join("a.json");
    std::os::unix::fs::symlink(&victim, &path).unwrap();
    assert!(write_atomic(&path, b"x", Durability::Synced).is_err());
    assert!(read_regular(&path).is_err());
    assert_eq!(std::fs::read(&victim).unwrap(), b"keep");
    assert!(
        std::fs::symlink_metadata(&path)
            .unwrap()
            .file_type()
            .is_symlink()
    );
}

#[test]
fn a_dangling_lock_link_creates_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("made-by-link");
    let lock = dir.path().join("x.lock");
    std::os::unix::fs::symlink(&target, &lock).unwrap();
    assert!(open_lock_file(&lock).is_err());
    assert!(!target.exists());
}

#[test]
fn sweeping_removes_only_the_targets_temp_files() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("c.json");
    for name in [
        ".c.json.ollm-tmp-abc",
        ".c.json.tmp-123",
        ".d.json.ollm-tmp-x",
        "c.json",
        "c.json.tmp",
    ] {
        std::fs::write(dir.path().join(name), "").unwrap();
    }
    sweep_temps(&target);
    let mut left: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(left, vec![".d.json.ollm-tmp-x", "c.json", "c.json.tmp"]);
}

#[test]
fn export_targets() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("out.json");
    assert_eq!(
        export_target(Path::new("-"), false).unwrap(),
        Target::Stdout
    );
    assert_eq!(
        export_target(Path::new("/dev/stdout"), false).unwrap(),
        Target::Stdout
    );
    assert!(matches!(
        export_target(&file, false).unwrap(),
        Target::File(_)
    ));
    std::fs::write(&file, "old").unwrap();
    assert!(export_target(&file, false).is_err());
    assert!(export_target(&file, true).is_ok());
    assert!(export_target(Path::new("/dev/null"), true).is_err());
}
