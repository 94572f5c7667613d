//! Issue 47: the credentials-in-context corpus
//! (`tests/data/credential-contexts.txt`) through every write path of
//! `ollm-session` and `ollm-mcp`, in both file formats: none is stored or
//! shown, the look-alikes are stored unchanged, and in a store written
//! with `--no-redact`, `scan` finds every session holding one and
//! `redact` leaves none. The same on the PostgreSQL store, whose rows
//! are read whole for what is stored.
//! (`ollm-compress` stores no text of its own: its note holds counts, ids
//! and the strategy; the importers are `import::contexts`.)

use std::path::Path;

use serde_json::{Value, json};

use crate::credential_contexts::{self as corpus, Entry, Form};
use crate::mcp::Mcp;
use crate::support::{Sandbox, SessionStore, json, stderr, stdout};

/// A token in the directory a session is made in (its workspace).
const IN_CWD: &str = "ghp_WsQ8nX2tB7wK5rL9cJ3hF6sA1pZ0eYw4Cwd";

fn args_of(entry: &Entry) -> Value {
    match entry.form {
        Form::Args => serde_json::from_str(&entry.body).unwrap(),
        Form::Text => json!({"command": entry.body}),
    }
}

/// `ollm-session ARGS` in `cwd`, which must succeed; `format` is the
/// file store's (`postgres` for the PostgreSQL store, which has one).
fn ok(sb: &Sandbox, format: &str, cwd: &Path, args: &[&str]) -> Value {
    let mut cmd = sb.cmd("ollm-session");
    if format != "postgres" {
        cmd.env("OLLM_SESSION_FORMAT", format);
    }
    let out = cmd.current_dir(cwd).args(args).output().unwrap();
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    json(&out)
}

/// Records every entry in a session of its own (created in a directory
/// holding a token, titled with the entry's text): as a message, as a tool
/// call's arguments, result and display. Returns the sessions' ids.
fn record_corpus(sb: &Sandbox, format: &str, no_redact: bool) -> Vec<String> {
    let cwd = sb.work.join(format!("srv/{IN_CWD}/app"));
    std::fs::create_dir_all(&cwd).unwrap();
    let flag: &[&str] = if no_redact { &["--no-redact"] } else { &[] };
    let with = |args: &[&str]| -> Vec<String> {
        flag.iter()
            .chain(args)
            .map(ToString::to_string)
            .collect::<Vec<_>>()
    };
    let mut ids = Vec::new();
    for entry in corpus::entries() {
        let created = ok(
            sb,
            format,
            &cwd,
            &refs(&with(&[
                "create",
                "--model",
                "m",
                "--provider",
                "p",
                "--title",
                &entry.body,
            ])),
        );
        let id = created["sessionId"].as_str().unwrap().to_string();
        ok(
            sb,
            format,
            &cwd,
            &refs(&with(&[
                "record",
                &id,
                "--role",
                "user",
                "--text",
                &entry.body,
            ])),
        );
        let args = args_of(&entry).to_string();
        ok(
            sb,
            format,
            &cwd,
            &refs(&with(&[
                "record",
                &id,
                "--tool",
                "run",
                "--args",
                &args,
                "--result",
                &entry.body,
                "--display",
                &entry.body,
            ])),
        );
        ids.push(id);
    }
    ids
}

fn refs(args: &[String]) -> Vec<&str> {
    args.iter().map(String::as_str).collect()
}

/// Every file under `dir`, as lossy text: `path: contents` a line.
fn everything_under(dir: &Path) -> String {
    crate::support::tree(dir)
        .into_iter()
        .filter_map(|(path, bytes)| {
            Some(format!(
                "{}: {}",
                path.display(),
                String::from_utf8_lossy(&bytes?)
            ))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Everything the sandbox's store holds: its files and, on PostgreSQL,
/// every row of every table of its schema, as text.
fn everything_stored(sb: &Sandbox) -> String {
    let mut stored = everything_under(&sb.ollm_home);
    if let Some(pg) = &sb.pg {
        let mut db = pg.client();
        let tables: Vec<String> = db
            .query(
                "SELECT table_name::text FROM information_schema.tables WHERE table_schema = $1",
                &[&pg.schema],
            )
            .unwrap()
            .iter()
            .map(|row| row.get(0))
            .collect();
        assert!(!tables.is_empty(), "no table in {}", pg.schema);
        for table in tables {
            let rows = db
                .query(&format!("SELECT t::text FROM {}.{table} t", pg.schema), &[])
                .unwrap();
            for row in rows {
                stored.push('\n');
                stored.push_str(&format!("{table}: {}", row.get::<_, String>(0)));
            }
        }
    }
    stored
}

/// The line of `stored` holding `secret`, for a failure's message.
fn where_is<'a>(stored: &'a str, secret: &str) -> &'a str {
    let line = stored
        .lines()
        .find(|l| l.contains(secret))
        .unwrap_or_default();
    &line[..line.floor_char_boundary(line.len().min(700))]
}

fn secrets() -> Vec<String> {
    corpus::entries()
        .into_iter()
        .flat_map(|e| e.secrets)
        .chain([IN_CWD.to_string()])
        .collect()
}

fn no_credential_in_context_reaches_the_store(sb: &Sandbox, format: &str) {
    let entries = corpus::entries();
    let ids = record_corpus(sb, format, false);
    let mut mcp = Mcp::start(sb, &["--allow-write"]);
    mcp.initialize();
    for (entry, id) in entries.iter().zip(&ids) {
        mcp.call_ok(
            "record_message",
            json!({"session": id, "role": "assistant", "text": entry.body}),
        );
    }
    drop(mcp);

    let mut shown = String::new();
    let mut mcp = Mcp::start(sb, &[]);
    mcp.initialize();
    for (entry, id) in entries.iter().zip(&ids) {
        let session = ok(sb, format, &sb.work, &["get", id]);
        shown.push_str(&session.to_string());
        shown.push_str(&stdout(
            &sb.cmd("ollm-session")
                .args(["export", id, "--format", "markdown"])
                .output()
                .unwrap(),
        ));
        shown.push_str(
            &mcp.call_ok("get_session", json!({"session": id}))
                .to_string(),
        );
        if entry.is_look_alike() {
            let messages = session["messages"].as_array().unwrap();
            assert_eq!(session["title"], entry.body.as_str(), "{}", entry.source);
            for message in messages {
                assert_eq!(
                    message["parts"][0]["text"],
                    entry.body.as_str(),
                    "{}",
                    entry.source
                );
            }
            let call = &session["toolCalls"][0];
            assert_eq!(call["args"], args_of(entry), "{}", entry.source);
            assert_eq!(
                call["result"]["llmContent"],
                entry.body.as_str(),
                "{}",
                entry.source
            );
        }
    }
    let stored = everything_stored(sb);
    for secret in secrets() {
        assert!(
            !stored.contains(&secret),
            "{format}: stored: {secret} in {}",
            where_is(&stored, &secret)
        );
        assert!(!shown.contains(&secret), "{format}: shown: {secret}");
        let found = sb.session(&["search", &secret]);
        assert!(!stdout(&found).contains(&secret), "search: {secret}");
        let hits = mcp.call_ok("search_sessions", json!({"query": secret}));
        assert!(!hits.to_string().contains(&secret), "MCP search: {secret}");
    }
    // Nothing is left for scan to find.
    let out = sb.session(&["scan", "--all"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
}

fn scan_finds_every_credential_in_context_and_redact_removes_it(sb: &Sandbox, format: &str) {
    let entries = corpus::entries();
    let ids = record_corpus(sb, format, true);
    assert!(everything_stored(sb).contains(IN_CWD));
    for (entry, id) in entries.iter().zip(&ids) {
        let out = sb.session(&["scan", id]);
        let findings: Vec<Value> = stdout(&out)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        if entry.is_look_alike() {
            // Only the workspace's token.
            assert!(
                findings.iter().all(|f| f["field"] == "workspace"),
                "{}: {findings:#?}",
                entry.source
            );
            continue;
        }
        assert_eq!(out.status.code(), Some(1), "{}", entry.source);
        for record in ["session", "messages[0]", "toolCalls[0]"] {
            assert!(
                findings
                    .iter()
                    .any(|f| f["record"] == record && f["field"] != "workspace"),
                "{}: nothing found in {record}: {findings:#?}",
                entry.source
            );
        }
        let text = stdout(&out);
        for secret in &entry.secrets {
            assert!(!text.contains(secret.as_str()), "scan shows {secret}");
        }
    }
    let out = sb.session(&["redact", "--all"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let stored = everything_stored(sb);
    for secret in secrets() {
        assert!(
            !stored.contains(&secret),
            "{format}: after redact: {secret} in {}",
            where_is(&stored, &secret)
        );
    }
    let out = sb.session(&["scan", "--all"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
}

#[test]
fn no_credential_in_context_reaches_a_cli_format_store() {
    no_credential_in_context_reaches_the_store(&Sandbox::new(), "cli");
}

#[test]
fn no_credential_in_context_reaches_a_journal() {
    no_credential_in_context_reaches_the_store(&Sandbox::new(), "journal");
}

#[test]
fn no_credential_in_context_reaches_a_postgres_store() {
    let Some(sb) = Sandbox::on(SessionStore::Postgres) else {
        return;
    };
    no_credential_in_context_reaches_the_store(&sb, "postgres");
}

#[test]
fn scan_and_redact_cover_every_credential_in_context_in_a_cli_format_store() {
    scan_finds_every_credential_in_context_and_redact_removes_it(&Sandbox::new(), "cli");
}

#[test]
fn scan_and_redact_cover_every_credential_in_context_in_a_journal() {
    scan_finds_every_credential_in_context_and_redact_removes_it(&Sandbox::new(), "journal");
}

#[test]
fn scan_and_redact_cover_every_credential_in_context_in_a_postgres_store() {
    let Some(sb) = Sandbox::on(SessionStore::Postgres) else {
        return;
    };
    scan_finds_every_credential_in_context_and_redact_removes_it(&sb, "postgres");
}
