use serde_json::json;

use super::*;
use crate::session::Store;
use crate::session::import::{Role, session_id_for};
use crate::session::store::{NewFormat, StoreOptions};

fn store_in(dir: &Path, format: NewFormat) -> Store {
    Store::new(
        dir.join("data"),
        StoreOptions {
            format,
            ..StoreOptions::default()
        },
    )
}

fn say(key: &str, at: Option<&str>, role: Role, text: &str) -> Item {
    Item {
        key: key.into(),
        timestamp: at.map(str::to_string),
        body: Body::Message {
            role,
            text: text.into(),
            images: Vec::new(),
        },
    }
}

fn call(key: &str, at: &str, outcome: Outcome) -> Item {
    Item {
        key: key.into(),
        timestamp: Some(at.into()),
        body: Body::ToolCall(Call {
            call_id: format!("call-{key}"),
            name: "Bash".into(),
            args: json!({"command": "ls"}),
            outcome,
        }),
    }
}

/// The importer `name` of the table.
fn tool(name: &str) -> Tool {
    crate::session::import::named(name).unwrap()
}

/// `items` imported as one transcript of importer `name` into `store`.
fn import(store: &Store, name: &str, items: Vec<Item>, dry_run: bool) -> Imported {
    store_transcript(store, tool(name), &transcript(items), dry_run).unwrap()
}

fn transcript(items: Vec<Item>) -> Transcript {
    Transcript {
        source_id: "source-1".into(),
        source: "/tmp/x.jsonl".into(),
        title: Some("Fix the retry logic".into()),
        model: Some("claude-sonnet-4-5".into()),
        provider: Some("anthropic".into()),
        cwd: Some("/nonexistent/project".into()),
        items,
        ..Transcript::default()
    }
}

/// The records of a stored session in the one order every program reads.
fn order_of(store: &Store, id: &str) -> Vec<String> {
    let loaded = store.load(id).unwrap();
    let on_disk = Loaded::from_session(loaded.session.clone());
    on_disk
        .entries()
        .into_iter()
        .map(|(entry, _)| match entry {
            Entry::Message(m) => m.as_map()[SOURCE_KEY].as_str().unwrap().to_string(),
            Entry::ToolCall(c) => c.as_map()[SOURCE_KEY].as_str().unwrap().to_string(),
        })
        .collect()
}

#[test]
fn records_keep_the_conversation_order_even_when_stamps_tie_or_go_back() {
    let dir = tempfile::tempdir().unwrap();
    let store = store_in(dir.path(), NewFormat::Cli);
    let t = "2026-03-01T10:00:00.000Z";
    let items = vec![
        say("u1", Some(t), Role::User, "list the files"),
        say("a1", Some(t), Role::Assistant, "Listing."),
        call("c1", t, Outcome::Done("a.txt".into())),
        say(
            "a2",
            Some("2026-03-01T09:00:00Z"),
            Role::Assistant,
            "One file.",
        ),
        say("u2", None, Role::User, "thanks"),
    ];
    let report = import(&store, "claude", items, false);
    assert_eq!(report.status, Status::Imported);
    assert_eq!(
        (report.messages, report.tool_calls, report.added),
        (4, 1, 5)
    );
    assert_eq!(
        order_of(&store, &report.session_id),
        ["u1", "a1", "c1", "a2", "u2"]
    );
    let session = store.get(&report.session_id).unwrap();
    assert_eq!(session.start_time, "2026-03-01T10:00:00.000Z");
    assert_eq!(session.title.as_deref(), Some("Fix the retry logic"));
    assert_eq!(session.workspace.as_deref(), Some("/nonexistent/project"));
    assert_eq!(
        session.metadata.extra["importedFrom"]["sourceSessionId"],
        json!("source-1")
    );
}

#[test]
fn a_second_import_adds_nothing_and_a_grown_source_adds_only_what_is_new() {
    for format in [NewFormat::Cli, NewFormat::Journal] {
        let dir = tempfile::tempdir().unwrap();
        let store = store_in(dir.path(), format);
        let mut items = vec![
            say("u1", Some("2026-03-01T10:00:00Z"), Role::User, "hi"),
            say("a1", Some("2026-03-01T10:00:01Z"), Role::Assistant, "hello"),
        ];
        let first = import(&store, "codex", items.clone(), false);
        let again = import(&store, "codex", items.clone(), false);
        assert_eq!(again.status, Status::Unchanged);
        assert_eq!(again.added, 0);
        assert_eq!(again.session_id, first.session_id);

        items.push(call(
            "c1",
            "2026-03-01T10:00:02Z",
            Outcome::Failed("exit 1".into()),
        ));
        items.push(say("u2", Some("2026-03-01T10:00:03Z"), Role::User, "again"));
        let dry = import(&store, "codex", items.clone(), true);
        assert_eq!((dry.status, dry.added), (Status::WouldUpdate, 2));
        assert_eq!(order_of(&store, &first.session_id), ["u1", "a1"]);

        let grown = import(&store, "codex", items.clone(), false);
        assert_eq!((grown.status, grown.added), (Status::Updated, 2));
        assert_eq!(
            order_of(&store, &first.session_id),
            ["u1", "a1", "c1", "u2"]
        );
        let session = store.get(&first.session_id).unwrap();
        assert_eq!(session.tool_calls[0].as_map()["status"], json!("error"));
        assert_eq!(session.tool_calls[0].llm_content(), "exit 1");
        assert_eq!(store.list().unwrap().sessions.len(), 1);
    }
}

#[test]
fn a_dry_run_of_a_new_session_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let store = store_in(dir.path(), NewFormat::Cli);
    let items = vec![say("u1", None, Role::User, "hi")];
    let report = import(&store, "gemini", items, true);
    assert_eq!((report.status, report.added), (Status::WouldImport, 1));
    assert!(store.list().unwrap().sessions.is_empty());
}

#[test]
fn empty_messages_are_left_out_and_arguments_are_always_an_object() {
    let dir = tempfile::tempdir().unwrap();
    let store = store_in(dir.path(), NewFormat::Journal);
    let mut patch = call(
        "c1",
        "2026-03-01T10:00:02Z",
        Outcome::NoResult("interrupted"),
    );
    if let Body::ToolCall(c) = &mut patch.body {
        c.args = json!("*** Begin Patch");
    }
    let items = vec![say("a0", None, Role::Assistant, "  \n"), patch];
    let report = import(&store, "codex", items, false);
    assert_eq!((report.messages, report.tool_calls), (0, 1));
    let session = store.get(&report.session_id).unwrap();
    assert_eq!(
        session.tool_calls[0].args(),
        &json!({"input": "*** Begin Patch"})
    );
    assert_eq!(
        session.tool_calls[0].as_map()["status"],
        json!("interrupted")
    );
}

#[test]
fn what_is_imported_is_redacted() {
    let dir = tempfile::tempdir().unwrap();
    let store = store_in(dir.path(), NewFormat::Cli);
    let secret = "ghp_R8x2mQ4vT7yL1nB5cK9sW3eJ6hF0dA2pZ7uX";
    let items = vec![
        say("u1", None, Role::User, &format!("token {secret}")),
        call(
            "c1",
            "2026-03-01T10:00:02Z",
            Outcome::Done(format!("GITHUB_TOKEN={secret}")),
        ),
    ];
    let report = import(&store, "claude", items, false);
    let stored = serde_json::to_string(&store.get(&report.session_id).unwrap()).unwrap();
    assert!(!stored.contains(secret), "{stored}");
    assert!(stored.contains("[REDACTED:"));
}

#[test]
fn a_call_imported_while_it_ran_gets_its_result_added_once_it_has_one() {
    let dir = tempfile::tempdir().unwrap();
    let store = store_in(dir.path(), NewFormat::Journal);
    let mut items = vec![
        say("u1", Some("2026-03-01T10:00:00Z"), Role::User, "build it"),
        call("c1", "2026-03-01T10:00:01Z", Outcome::NoResult("running")),
    ];
    let first = import(&store, "opencode", items.clone(), false);
    let again = import(&store, "opencode", items.clone(), false);
    assert_eq!(again.status, Status::Unchanged);

    items[1] = call("c1", "2026-03-01T10:00:01Z", Outcome::Done("built".into()));
    let done = import(&store, "opencode", items.clone(), false);
    assert_eq!((done.status, done.added), (Status::Updated, 1));
    let session = store.get(&first.session_id).unwrap();
    let calls: Vec<(&str, &str)> = session
        .tool_calls
        .iter()
        .map(|c| {
            (
                c.llm_content(),
                c.as_map()
                    .get("status")
                    .and_then(Value::as_str)
                    .unwrap_or("done"),
            )
        })
        .collect();
    assert_eq!(calls, [("", "running"), ("built", "done")]);
    let last = import(&store, "opencode", items, false);
    assert_eq!(last.status, Status::Unchanged);
}

/// Seven items a second apart, the model changing in the last part.
fn seven() -> Vec<Item> {
    (0..7)
        .map(|n| {
            let at = format!("2026-03-01T10:00:0{n}Z");
            if n % 3 == 2 {
                call(&format!("k{n}"), &at, Outcome::Done(format!("out {n}")))
            } else {
                say(
                    &format!("k{n}"),
                    Some(&at),
                    Role::User,
                    &format!("text {n}"),
                )
            }
        })
        .collect()
}

/// `transcript` handed to one writer in parts of `size`, the first
/// `stop_after` of them only (a run cut short) when given.
fn write_in_parts(
    store: &Store,
    transcript: Transcript,
    size: usize,
    stop_after: Option<usize>,
) -> Option<Imported> {
    let mut parts = Vec::new();
    crate::session::import::split(transcript, size, &mut |part| {
        parts.push(part);
        Ok(())
    })
    .unwrap();
    let mut writer = SessionWriter::new(store, tool("claude"), false);
    let mut report = None;
    for part in parts.into_iter().take(stop_after.unwrap_or(usize::MAX)) {
        report = writer.part(part).unwrap();
    }
    report
}

#[test]
fn a_session_written_in_parts_is_stored_as_one_written_whole() {
    for format in [NewFormat::Cli, NewFormat::Journal] {
        let dir = tempfile::tempdir().unwrap();
        let (whole, parted) = (
            store_in(&dir.path().join("a"), format),
            store_in(&dir.path().join("b"), format),
        );
        let one = import(&whole, "claude", seven(), false);
        let mut source = transcript(seven());
        source.updated = Some("2026-03-01T10:00:30Z".into());
        let report = write_in_parts(&parted, source.clone(), 2, None).unwrap();
        assert_eq!(report.status, Status::Imported);
        assert_eq!(
            (report.messages, report.tool_calls, report.added),
            (5, 2, 7)
        );
        assert_eq!(
            order_of(&parted, &report.session_id),
            order_of(&whole, &one.session_id)
        );
        let (a, b) = (
            whole.get(&one.session_id).unwrap(),
            parted.get(&report.session_id).unwrap(),
        );
        assert_eq!(a.messages, b.messages);
        assert_eq!(a.tool_calls, b.tool_calls);
        assert_eq!(
            (a.title, a.model, a.workspace),
            (b.title, b.model, b.workspace)
        );
        // The last activity is the source's, not the time of the import.
        assert_eq!(b.last_activity, "2026-03-01T10:00:30.000Z");

        // Imported again in parts: nothing is added, nothing written.
        let again = write_in_parts(&parted, source, 3, None).unwrap();
        assert_eq!((again.status, again.added), (Status::Unchanged, 0));
    }
}

#[test]
fn a_write_cut_short_after_a_part_is_finished_by_the_next_without_duplicates() {
    let dir = tempfile::tempdir().unwrap();
    let store = store_in(dir.path(), NewFormat::Journal);
    let mut source = transcript(seven());
    source.model = Some("first-model".into());
    assert!(write_in_parts(&store, source.clone(), 2, Some(2)).is_none());
    let id = session_id_for(tool("claude"), "source-1");
    assert_eq!(order_of(&store, &id), ["k0", "k1", "k2", "k3"]);

    source.model = Some("last-model".into());
    let done = write_in_parts(&store, source, 2, None).unwrap();
    assert_eq!((done.status, done.added), (Status::Updated, 3));
    assert_eq!(
        order_of(&store, &id),
        ["k0", "k1", "k2", "k3", "k4", "k5", "k6"]
    );
    assert_eq!(store.get(&id).unwrap().model, "last-model");
}

/// A new session is its head and its records folded as every store folds
/// them: the records in order, `tokenCount` their estimates' sum, and the
/// last activity the later of the source's update time and its last
/// record's (an empty one: its start).
#[test]
fn a_new_session_is_its_records_folded_with_their_tokens_and_the_sources_last_activity() {
    let claude = tool("claude");
    for format in [NewFormat::Cli, NewFormat::Journal] {
        let dir = tempfile::tempdir().unwrap();
        let store = store_in(dir.path(), format);
        for (source_id, updated, items, last_activity) in [
            (
                "later",
                Some("2026-03-01T10:00:30Z"),
                seven(),
                "2026-03-01T10:00:30Z",
            ),
            (
                "earlier",
                Some("2026-03-01T09:00:00Z"),
                seven(),
                "2026-03-01T10:00:06.000Z",
            ),
            ("none", None, seven(), "2026-03-01T10:00:06.000Z"),
            (
                "empty",
                Some("2026-03-01T08:00:00Z"),
                Vec::new(),
                "2026-03-01T08:00:00Z",
            ),
        ] {
            let mut source = transcript(items);
            source.source_id = source_id.into();
            source.started = Some("2026-03-01T08:00:00Z".into());
            source.updated = updated.map(str::to_string);
            let report = store_transcript(&store, claude, &source, false).unwrap();
            let loaded = store.load(&report.session_id).unwrap();
            let session = &loaded.session;
            assert_eq!(session.last_activity, last_activity, "{source_id}");
            assert_eq!(session.start_time, "2026-03-01T08:00:00Z", "{source_id}");
            let estimated: u64 = loaded
                .entries()
                .into_iter()
                .map(|(entry, _)| entry.estimated_tokens())
                .sum();
            assert_eq!(session.metadata.token_count, estimated, "{source_id}");
            let expected: Vec<String> = source.items.iter().map(|i| i.key.clone()).collect();
            assert_eq!(
                order_of(&store, &report.session_id),
                expected,
                "{source_id}"
            );
        }
    }
}
