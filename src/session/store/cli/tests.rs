use std::path::Path;

use serde_json::{Map, Value};

use super::rewrite::displaced_records;
use super::{owed, read, rewrite};
use crate::error::Error;
use crate::fs::replace::{Replaced, Stamp};
use crate::lossless;
use crate::session::model::{Entry, Message};

const CLI_FILE: &str = r#"{
  "sessionId": "550e8400-e29b-41d4-a716-446655440000",
  "startTime": "2026-01-27T10:00:00.000Z",
  "lastActivity": "2026-01-27T10:00:05.000Z",
  "model": "llama3.2:3b",
  "provider": "ollama",
  "messages": [
    {
      "role": "user",
      "parts": [
        {
          "type": "text",
          "text": "cut \ud83d"
        }
      ],
      "timestamp": "2026-01-27T10:00:05.000Z"
    }
  ],
  "toolCalls": [],
  "metadata": {
    "tokenCount": 0,
    "compressionCount": 0,
    "modeHistory": []
  },
  "futureField": {
    "x": 1
  }
}"#;
const ID: &str = "550e8400-e29b-41d4-a716-446655440000";

fn write_cli_file(dir: &Path) -> std::path::PathBuf {
    let path = dir.join(format!("{ID}.json"));
    std::fs::write(&path, CLI_FILE).unwrap();
    path
}

#[test]
fn a_document_read_and_written_unchanged_is_byte_identical() {
    let dir = tempfile::tempdir().unwrap();
    let path = write_cli_file(dir.path());
    let document = read(ID, &path).unwrap().unwrap();
    assert_eq!(document.to_bytes().unwrap(), CLI_FILE.as_bytes());
}

#[test]
fn a_record_is_added_at_the_end_and_everything_else_kept() {
    let dir = tempfile::tempdir().unwrap();
    let path = write_cli_file(dir.path());
    let entry = Entry::Message(Message::text("assistant", "hi", "2026-01-27T10:00:06.000Z"));
    rewrite(ID, &path, |d| {
        d.push_entry(&entry, 3);
        d.touch("2026-01-27T10:00:06.000Z");
        Ok(())
    })
    .unwrap()
    .unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains(r#""text": "cut \ud83d""#), "{text}");
    assert!(text.contains(r#""futureField": {"#), "{text}");
    assert!(!text.ends_with('\n'));
    let session = read(ID, &path).unwrap().unwrap().session().unwrap();
    assert_eq!(session.messages.len(), 2);
    assert_eq!(session.messages[1].role(), "assistant");
    assert_eq!(session.metadata.token_count, 3);
    assert_eq!(session.last_activity, "2026-01-27T10:00:06.000Z");
    assert!(session.metadata.extra.contains_key("modeHistory"));
}

#[test]
fn a_file_changed_after_it_was_read_is_not_overwritten() {
    let dir = tempfile::tempdir().unwrap();
    let path = write_cli_file(dir.path());
    let document = read(ID, &path).unwrap().unwrap();
    std::fs::write(&path, CLI_FILE.replace("llama3.2:3b", "qwen3:8b")).unwrap();
    assert_eq!(document.write(ID, &path).unwrap(), Replaced::Changed);
    assert!(std::fs::read_to_string(&path).unwrap().contains("qwen3"));
}

#[test]
fn an_unparsable_file_is_reported_and_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(format!("{ID}.json"));
    std::fs::write(&path, "{\"sessionId\": ").unwrap();
    let err = read(ID, &path).unwrap_err();
    assert!(matches!(err, Error::Corrupt(_)), "{err}");
    assert!(err.to_string().contains("left as it is"), "{err}");
    assert_eq!(std::fs::read(&path).unwrap(), b"{\"sessionId\": ");
    std::fs::write(
        &path,
        CLI_FILE.replace(ID, "660e8400-e29b-41d4-a716-446655440000"),
    )
    .unwrap();
    assert!(
        read(ID, &path)
            .unwrap_err()
            .to_string()
            .contains("holds session")
    );
}

#[test]
fn a_patch_sets_and_removes_fields_but_never_the_records() {
    let dir = tempfile::tempdir().unwrap();
    let path = write_cli_file(dir.path());
    let mut document = read(ID, &path).unwrap().unwrap();
    let patch = serde_json::json!({"title": "t", "futureField": null, "messages": []});
    document.apply_patch(patch.as_object().unwrap()).unwrap();
    assert_eq!(document.fields["title"], "t");
    assert!(!document.fields.contains_key("futureField"));
    assert_eq!(document.session().unwrap().messages.len(), 1);
    let bad = serde_json::json!({"model": 3});
    assert!(document.apply_patch(bad.as_object().unwrap()).is_err());
    assert_eq!(document.fields["model"], "llama3.2:3b");
}

/// The texts of the file's messages after the CLI file's first.
fn texts_at(path: &Path) -> Vec<String> {
    let document = read(ID, path).unwrap().unwrap();
    document.fields["messages"].as_array().unwrap()[1..]
        .iter()
        .map(|m| m["parts"][0]["text"].as_str().unwrap().to_string())
        .collect()
}

/// What the CLI writes: `fields` as its own file (0644), renamed in.
fn cli_writes(path: &Path, fields: &Map<String, Value>) {
    use std::os::unix::fs::PermissionsExt;
    let temp = path.with_extension("json.tmp");
    std::fs::write(&temp, lossless::to_vec_pretty(fields).unwrap()).unwrap();
    std::fs::set_permissions(&temp, std::fs::Permissions::from_mode(0o644)).unwrap();
    std::fs::rename(&temp, path).unwrap();
}

fn record(path: &Path, text: &str, at: &str) {
    let entry = Entry::Message(Message::text("assistant", text, at));
    rewrite(ID, path, |d| {
        d.push_entry(&entry, 1);
        Ok(())
    })
    .unwrap()
    .unwrap();
}

#[test]
fn a_record_lost_to_a_cli_version_from_an_earlier_read_is_put_back_by_the_next_write() {
    let dir = tempfile::tempdir().unwrap();
    let path = write_cli_file(dir.path());
    cli_writes(&path, &read(ID, &path).unwrap().unwrap().fields);
    // The CLI reads, then is slow: ours goes in and its watch ends.
    let mut cli = read(ID, &path).unwrap().unwrap().fields;
    record(&path, "ours 1", "2026-01-27T10:00:06.000Z");
    let message = Message::text("user", "TS", "2026-01-27T10:00:07.000Z");
    if let Some(Value::Array(messages)) = cli.get_mut("messages") {
        messages.push(Value::Object(message.as_map().clone()));
    }
    cli_writes(&path, &cli);
    assert_eq!(texts_at(&path), ["TS"]);
    record(&path, "ours 2", "2026-01-27T10:00:08.000Z");
    assert_eq!(texts_at(&path), ["ours 1", "TS", "ours 2"]);
}

#[test]
fn what_a_version_swapped_out_by_mistake_added_to_the_read_is_owed() {
    let dir = tempfile::tempdir().unwrap();
    let path = write_cli_file(dir.path());
    let document = read(ID, &path).unwrap().unwrap();
    let mut newer = document.fields.clone();
    let message = Message::text("user", "M", "2026-01-27T10:00:07.000Z");
    if let Some(Value::Array(messages)) = newer.get_mut("messages") {
        messages.push(Value::Object(message.as_map().clone()));
    }
    cli_writes(&path, &newer);
    let stamp = Stamp::at(&path).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    let owed = displaced_records(&document, &[(stamp, bytes), (stamp, b"{".to_vec())]);
    let mut without = document.fields.clone();
    assert_eq!(owed::restore(&mut without, &owed), 1);
    assert_eq!(without, newer);
}
