//! Importing gemini-cli chats: a `~/.gemini` written by the test as
//! gemini-cli writes it (a slug project with an operation log holding every
//! trap and a sub-agent's chat; an older hash-named project with a legacy
//! one-document chat; a legacy chat resumed into a second file), imported
//! through the built binary.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use super::get;
use crate::support::{self, Sandbox};

const A: &str = "5c3e8f2a-1b4d-4e6f-9a0b-00000000000a";
const B: &str = "5c3e8f2a-1b4d-4e6f-9a0b-00000000000b";
const C: &str = "5c3e8f2a-1b4d-4e6f-9a0b-00000000000c";
const SUB: &str = "5c3e8f2a-1b4d-4e6f-9a0b-0000000000aa";

pub(super) fn hash(path: &Path) -> String {
    Sha256::digest(path.as_os_str().as_encoded_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

pub(super) fn header(id: &str, project: &Path) -> Value {
    json!({"sessionId": id, "projectHash": hash(project),
           "startTime": "2026-05-01T09:00:00.000Z", "lastUpdated": "2026-05-01T09:00:00.000Z"})
}

pub(super) fn user(id: &str, at: &str, text: &str) -> Value {
    json!({"id": id, "timestamp": at, "type": "user", "content": [{"text": text}]})
}

pub(super) fn gemini(id: &str, at: &str, text: &str, calls: Value) -> Value {
    json!({"id": id, "timestamp": at, "type": "gemini", "content": [{"text": text}],
           "model": "gemini-2.5-pro", "toolCalls": calls,
           "thoughts": [{"subject": "Plan", "description": "private musing", "timestamp": at}],
           "tokens": {"input": 1, "output": 1, "cached": 0, "total": 2}})
}

fn call(id: &str, at: &str, status: &str, output: Option<&str>) -> Value {
    let result = output.map_or(Value::Null, |out| {
        json!([{"functionResponse": {"id": id, "name": "run_shell_command", "response": {"output": out}}}])
    });
    json!({"id": id, "name": "run_shell_command", "args": {"command": "make"}, "result": result,
           "status": status, "timestamp": at, "resultDisplay": "shown in the UI"})
}

pub(super) fn lines(records: &[Value]) -> String {
    records.iter().map(|r| format!("{r}\n")).collect()
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn set_mtime(path: &Path, secs: u64) {
    let file = std::fs::File::options().write(true).open(path).unwrap();
    file.set_modified(std::time::UNIX_EPOCH + std::time::Duration::from_secs(secs))
        .unwrap();
}

struct Fixture {
    gemini_dir: PathBuf,
    a: PathBuf,
    root: PathBuf,
    old_project: PathBuf,
}

/// Session A (4 messages, 3 tool calls after replay), its sub-agent (1
/// message), B (legacy, hash directory: 2 messages, 1 call), C (legacy
/// resumed into a `.jsonl`: 3 messages).
fn fixture(sb: &Sandbox) -> Fixture {
    let root = sb.work.join("shop");
    std::fs::create_dir_all(root.join(".git")).unwrap();
    let root = root.canonicalize().unwrap();
    let gemini_dir = sb.home.join(".gemini");
    let slug = gemini_dir.join("tmp/shop");
    write(&slug.join(".project_root"), &root.display().to_string());
    write(
        &gemini_dir.join("projects.json"),
        &json!({"projects": {root.display().to_string(): "shop"}}).to_string(),
    );
    let a = slug.join("chats/session-2026-05-01T09-00-5c3e8f2a.jsonl");
    let t = |s: u32| format!("2026-05-01T09:{:02}:{:02}.000Z", s / 60, s % 60);
    write(
        &a,
        &lines(&[
            header(A, &root),
            user("u0", &t(1), "/model"),
            json!({"id": "i0", "timestamp": t(2), "type": "info", "content": "Model is gemini-2.5-pro"}),
            user("u1", &t(3), "build the shop"),
            gemini(
                "g1",
                &t(4),
                "",
                json!([call("c1", &t(5), "executing", None)]),
            ),
            // g1 again once its call finished: it replaces the first, in place.
            gemini(
                "g1",
                &t(4),
                "Building.",
                json!([call(
                    "c1",
                    &t(5),
                    "success",
                    Some("ld: quince-pangolin not found")
                )]),
            ),
            user("u2", &t(6), "a question taken back"),
            gemini("g2", &t(7), "an answer taken back", json!([])),
            json!({"$rewindTo": "u2"}),
            user("u3", &t(8), "link it statically"),
            gemini(
                "g3",
                &t(9),
                "Linking.",
                json!([
                    call("c2", &t(10), "error", Some("permission denied")),
                    call("c3", &t(11), "cancelled", None),
                ]),
            ),
            json!({"$set": {"summary": "Shop build", "lastUpdated": t(12)}}),
        ]),
    );
    write(
        &slug.join(format!("chats/{A}/{SUB}.jsonl")),
        &lines(&[
            json!({"sessionId": SUB, "projectHash": hash(&root), "kind": "subagent",
                   "startTime": t(5), "lastUpdated": t(5), "directories": [root]}),
            user("s1", &t(5), "investigate the linker"),
        ]),
    );

    // An older project: a hash directory, a legacy document.
    let old_project = sb.home.join("code").join("api");
    std::fs::create_dir_all(&old_project).unwrap();
    let hashed = gemini_dir
        .join("tmp")
        .join(hash(&old_project))
        .join("chats");
    let mut doc = header(B, &old_project);
    doc["summary"] = json!("Old API chat");
    doc["messages"] = json!([
        user("b1", "2025-11-02T08:00:01.000Z", "list endpoints"),
        gemini(
            "b2",
            "2025-11-02T08:00:02.000Z",
            "Two endpoints.",
            json!([call(
                "bc1",
                "2025-11-02T08:00:03.000Z",
                "success",
                Some("GET /a\nGET /b")
            )])
        ),
    ]);
    write(
        &hashed.join("session-2025-11-02T08-00-5c3e8f2a.json"),
        &serde_json::to_string_pretty(&doc).unwrap(),
    );

    // C: a legacy chat, and the `.jsonl` resuming it wrote beside it.
    let mut doc = header(C, &old_project);
    doc["messages"] = json!([user("c1", "2025-12-01T10:00:01.000Z", "resume me")]);
    let json_path = hashed.join("session-2025-12-01T10-00-5c3e8f2a.json");
    write(&json_path, &serde_json::to_string_pretty(&doc).unwrap());
    let jsonl_path = hashed.join("session-2025-12-01T10-00-5c3e8f2a.jsonl");
    write(
        &jsonl_path,
        &lines(&[
            header(C, &old_project),
            user("c1", "2025-12-01T10:00:01.000Z", "resume me"),
            json!({"$set": {"sessionId": C}}),
            user("c2", "2026-01-05T10:00:00.000Z", "resumed"),
            gemini("c3", "2026-01-05T10:00:01.000Z", "Welcome back.", json!([])),
        ]),
    );
    set_mtime(&json_path, 1_700_000_000);
    set_mtime(&jsonl_path, 1_700_000_100);
    Fixture {
        gemini_dir,
        a,
        root,
        old_project,
    }
}

fn import(sb: &Sandbox, args: &[&str]) -> (Vec<Value>, Value) {
    super::import_with(
        sb.cmd("ollm-session")
            .args(["import", "--from", "gemini"])
            .args(args),
    )
}

fn texts(session: &Value) -> Vec<String> {
    session["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["parts"][0]["text"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn a_gemini_home_is_imported_with_every_trap_once_and_left_as_it_was() {
    let sb = Sandbox::new();
    let fx = fixture(&sb);
    let before = support::tree(&fx.gemini_dir);

    // A dry run says what it would do and writes nothing.
    let home_before = support::tree(&sb.home);
    let (dry, _) = import(&sb, &["--dry-run"]);
    assert!(dry.iter().all(|s| s["status"] == "wouldImport"), "{dry:?}");
    assert_eq!(support::tree(&sb.home), home_before);

    let (sessions, summary) = import(&sb, &[]);
    let ids: Vec<&str> = sessions
        .iter()
        .map(|s| s["sourceId"].as_str().unwrap())
        .collect();
    assert_eq!(ids, [A, B, C, SUB], "{sessions:?}");
    assert_eq!(summary["imported"], 4, "{summary}");
    let counts: Vec<(i64, i64)> = sessions
        .iter()
        .map(|s| {
            (
                s["messages"].as_i64().unwrap(),
                s["toolCalls"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(counts, [(4, 3), (2, 1), (3, 0), (1, 0)]);

    // A: the log replayed, calls paired, thoughts and UI messages left out.
    let a = get(&sb, sessions[0]["sessionId"].as_str().unwrap());
    assert_eq!(
        texts(&a),
        [
            "build the shop",
            "Building.",
            "link it statically",
            "Linking."
        ]
    );
    assert_eq!(
        a["messages"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["role"].as_str().unwrap())
            .collect::<Vec<_>>(),
        ["user", "assistant", "user", "assistant"]
    );
    let calls = a["toolCalls"].as_array().unwrap();
    let summary_of = |c: &Value| {
        (
            c["id"].as_str().unwrap().to_string(),
            c["result"]["llmContent"].as_str().unwrap().to_string(),
            c["status"].as_str().map(str::to_string),
        )
    };
    assert_eq!(
        calls.iter().map(summary_of).collect::<Vec<_>>(),
        [
            ("c1".into(), "ld: quince-pangolin not found".into(), None),
            (
                "c2".into(),
                "permission denied".into(),
                Some("error".into())
            ),
            ("c3".into(), String::new(), Some("cancelled".into())),
        ]
    );
    assert_eq!(calls[0]["args"], json!({"command": "make"}));
    let at = |v: &Value| v["timestamp"].as_str().unwrap().to_string();
    let msgs = a["messages"].as_array().unwrap();
    assert!(at(&msgs[1]) < at(&calls[0]) && at(&calls[0]) < at(&msgs[2]));
    assert_eq!(a["workspace"], json!(fx.root.display().to_string()));
    assert_eq!(a["title"], "Shop build");
    assert_eq!(a["model"], "gemini-2.5-pro");
    assert_eq!(a["provider"], "google");
    let from = &a["metadata"]["importedFrom"];
    assert_eq!(from["tool"], "gemini");
    assert_eq!(from["source"], json!(fx.a.display().to_string()));
    assert_eq!(from["sourceSessionId"], A);
    assert!(!a.to_string().contains("private musing"));
    assert!(!a.to_string().contains("taken back"));

    // The sub-agent: a session of its own, under its parent.
    let sub = get(&sb, sessions[3]["sessionId"].as_str().unwrap());
    assert_eq!(sub["metadata"]["importedFrom"]["parentSourceSessionId"], A);
    assert_eq!(sub["workspace"], json!(fx.root.display().to_string()));

    // B: legacy, its directory recovered from the hash.
    let b = get(&sb, sessions[1]["sessionId"].as_str().unwrap());
    assert_eq!(b["title"], "Old API chat");
    assert_eq!(
        b["workspace"],
        json!(fx.old_project.canonicalize().unwrap().display().to_string())
    );
    assert_eq!(b["toolCalls"][0]["result"]["llmContent"], "GET /a\nGET /b");

    // C: once, from the file resuming wrote.
    assert!(sessions[2]["source"].as_str().unwrap().ends_with(".jsonl"));
    let c = get(&sb, sessions[2]["sessionId"].as_str().unwrap());
    assert_eq!(texts(&c), ["resume me", "resumed", "Welcome back."]);

    // Found by what only a tool's result said.
    let out = sb
        .cmd("ollm-session")
        .args(["search", "quince-pangolin", "--format", "json"])
        .output()
        .unwrap();
    let hits = support::json(&out);
    assert_eq!(hits[0]["sessionId"], sessions[0]["sessionId"], "{hits}");

    let (again, summary) = import(&sb, &[]);
    assert!(
        again
            .iter()
            .all(|s| s["status"] == "unchanged" && s["added"] == 0),
        "{again:?}"
    );
    assert_eq!(summary["added"], 0);
    assert_eq!(support::tree(&fx.gemini_dir), before);
}

#[test]
fn a_chat_log_that_grew_adds_only_its_new_messages() {
    let sb = Sandbox::new();
    let fx = fixture(&sb);
    let path = fx.a.display().to_string();
    let (first, _) = import(&sb, &[&path]);
    assert_eq!(first.len(), 1);
    assert_eq!(first[0]["added"], 7);

    let mut log = std::fs::read_to_string(&fx.a).unwrap();
    log.push_str(&lines(&[
        user("u4", "2026-05-01T10:00:00.000Z", "ship it"),
        gemini(
            "g4",
            "2026-05-01T10:00:01.000Z",
            "Shipped.",
            json!([call(
                "c4",
                "2026-05-01T10:00:02.000Z",
                "success",
                Some("deployed")
            )]),
        ),
        json!({"$set": {"lastUpdated": "2026-05-01T10:00:03.000Z"}}),
    ]));
    std::fs::write(&fx.a, &log).unwrap();
    let before = support::tree(&fx.gemini_dir);

    let (second, _) = import(&sb, &[&path]);
    assert_eq!(second[0]["status"], "updated");
    assert_eq!(second[0]["added"], 3);
    let a = get(&sb, second[0]["sessionId"].as_str().unwrap());
    assert_eq!(texts(&a).len(), 6);
    assert_eq!(texts(&a)[5], "Shipped.");
    assert_eq!(a["toolCalls"].as_array().unwrap().len(), 4);

    let (third, _) = import(&sb, &[&path]);
    assert_eq!(
        (third[0]["status"].clone(), third[0]["added"].clone()),
        (json!("unchanged"), json!(0))
    );
    assert_eq!(support::tree(&fx.gemini_dir), before);
}

/// A chat log whose session id is 16 KB and message and call ids 1 MB is
/// stored with every id bounded, and importing it again adds nothing.
#[test]
fn hostile_ids_are_stored_bounded_and_found_again() {
    let sb = Sandbox::new();
    let root = sb.work.canonicalize().unwrap();
    let slug = sb.home.join(".gemini/tmp/work");
    write(&slug.join(".project_root"), &root.display().to_string());
    let t = |s: u32| format!("2026-05-01T09:00:{s:02}.000Z");
    let call_id = super::hostile_id("c", "");
    let chat = slug.join("chats/session-2026-05-01T09-00-5c3e8f2a.jsonl");
    write(
        &chat,
        &lines(&[
            // 16 KB: a first line longer than gemini's peek (64 KB) is not
            // taken for a chat at all.
            header(&format!("5c3e8f2a-{}", "i".repeat(16 << 10)), &root),
            user(&super::hostile_id("u", ""), &t(1), "build the shop"),
            gemini(
                &super::hostile_id("g", ""),
                &t(2),
                "Building.",
                json!([call(&call_id, &t(3), "success", Some("built"))]),
            ),
        ]),
    );
    let args = [chat.to_str().unwrap()];
    let (found, summary) = import(&sb, &args);
    assert_eq!(summary["imported"], 1, "{summary}");
    super::assert_ids_bounded(&sb, &found[0], 4, || import(&sb, &args).0[0].clone());
}
