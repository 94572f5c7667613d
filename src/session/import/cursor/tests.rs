use std::io::Write;

use super::*;

fn append(path: &Path, bytes: &[u8]) {
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .unwrap();
    file.write_all(bytes).unwrap();
}

fn checked(old: Option<&Cursor>, path: &Path) -> (Change, Cursor) {
    check(old, path).unwrap()
}

#[test]
fn a_file_without_a_cursor_is_new_and_one_untouched_is_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a.jsonl");
    append(&path, b"{\"n\":1}\n{\"n\":2}\n");
    let (change, cursor) = checked(None, &path);
    assert_eq!(change, Change::New);
    assert_eq!(
        cursor.shape,
        Shape::Lines {
            offset: 16,
            line_start: 8,
            line_hash: xxh3_64(b"{\"n\":2}\n")
        }
    );
    assert_eq!(checked(Some(&cursor), &path).0, Change::Unchanged);
}

#[test]
fn appended_lines_grow_from_the_offset_and_a_torn_line_is_held_back() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a.jsonl");
    append(&path, b"{\"n\":1}\n");
    let (_, first) = checked(None, &path);
    append(&path, b"{\"n\":");
    let (change, torn) = checked(Some(&first), &path);
    assert_eq!(change, Change::Unchanged, "half a line is not read yet");
    assert!(
        matches!(torn.shape, Shape::Lines { offset: 8, .. }),
        "{torn:?}"
    );
    append(&path, b"2}\n");
    let (change, grown) = checked(Some(&torn), &path);
    assert_eq!(change, Change::Grew { from: 8 });
    assert!(matches!(
        grown.shape,
        Shape::Lines {
            offset: 16,
            line_start: 8,
            ..
        }
    ));
}

#[test]
fn a_file_that_shrank_is_read_again_from_the_start() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a.jsonl");
    append(&path, b"{\"n\":1}\n{\"n\":2}\n");
    let (_, cursor) = checked(None, &path);
    let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    file.set_len(8).unwrap();
    assert_eq!(checked(Some(&cursor), &path).0, Change::Shrank);
}

#[test]
fn a_file_replaced_by_another_inode_is_read_again_even_when_alike() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a.jsonl");
    append(&path, b"{\"n\":1}\n");
    let (_, cursor) = checked(None, &path);
    let other = dir.path().join("b.jsonl");
    append(&other, b"{\"n\":1}\n");
    let _keep_inode_in_use = File::open(&path).unwrap();
    std::fs::rename(&other, &path).unwrap();
    assert_eq!(checked(Some(&cursor), &path).0, Change::Replaced);
}

#[test]
fn a_changed_last_line_of_the_same_size_is_a_rewrite_and_a_touch_is_not() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a.jsonl");
    append(&path, b"{\"n\":1}\n{\"n\":2}\n");
    let (_, cursor) = checked(None, &path);
    // Same bytes written again: the times move, the content does not.
    std::thread::sleep(std::time::Duration::from_millis(20));
    let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    file.write_all_at(b"{\"n\":2}\n", 8).unwrap();
    let (change, touched) = checked(Some(&cursor), &path);
    assert_eq!(change, Change::Unchanged);
    assert_ne!(touched.stat, cursor.stat, "the new times are kept");
    file.write_all_at(b"{\"n\":3}\n", 8).unwrap();
    assert_eq!(checked(Some(&touched), &path).0, Change::Rewritten);
}

#[test]
fn a_document_or_database_is_checked_by_its_content_and_its_log() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a.db");
    append(&path, b"pages");
    let (change, cursor) = checked(None, &path);
    assert_eq!(change, Change::New);
    append(&wal_of(&path), b"frames");
    let (change, with_log) = checked(Some(&cursor), &path);
    assert_eq!(change, Change::Rewritten, "the log changed");
    assert_eq!(checked(Some(&with_log), &path).0, Change::Unchanged);
}

#[test]
fn a_lost_corrupt_or_foreign_cursor_counts_as_none() {
    let dir = tempfile::tempdir().unwrap();
    let cursors = Cursors::at(dir.path().join("cursors"));
    let path = dir.path().join("a.jsonl");
    append(&path, b"{}\n");
    assert_eq!(cursors.load(&path), None);
    let (_, cursor) = checked(None, &path);
    cursors.save(&cursor).unwrap();
    assert_eq!(cursors.load(&path), Some(cursor.clone()));
    std::fs::write(cursors.file_of(&path), b"{not json").unwrap();
    assert_eq!(cursors.load(&path), None);
    let foreign = Cursor {
        path: dir.path().join("other.jsonl"),
        ..cursor
    };
    std::fs::write(
        cursors.file_of(&path),
        serde_json::to_vec(&foreign).unwrap(),
    )
    .unwrap();
    assert_eq!(cursors.load(&path), None);
    cursors.save(&checked(None, &path).1).unwrap();
    cursors.forget(&path);
    assert_eq!(cursors.load(&path), None);
}
