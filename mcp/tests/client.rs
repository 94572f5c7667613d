//! The server driven by rmcp's own client over a child process, in both
//! protocol generations: the 2025-11-25 handshake and the 2026-07-28
//! `server/discover` with per-request `_meta`. The store is made with the
//! library in a temporary `OLLM_HOME`.

// A panic is how a test and its helpers fail.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

use ollm::session::store::StoreOptions;
use ollm::session::{NewSession, Store, ingest};
use rmcp::model::{CallToolRequestParams, ProtocolVersion, ReadResourceRequestParams};
use rmcp::service::{ClientLifecycleMode, ClientServiceExt, RoleClient, RunningService};
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use serde_json::{Value, json};

struct Home {
    _dir: tempfile::TempDir,
    home: PathBuf,
    work: PathBuf,
}

impl Home {
    /// A home with one long session ("long", 30 messages) and a short one.
    fn with_sessions() -> (Home, String) {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path().join("home");
        let work = dir.path().join("work");
        std::fs::create_dir_all(&work).unwrap();
        let store = Store::new(home.join(".ollm/sessions"), StoreOptions::default());
        let new = |title: &str| NewSession {
            model: "m".into(),
            provider: "p".into(),
            title: Some(title.into()),
            workspace: None,
        };
        let long = store.create(&new("long")).unwrap().session_id;
        for i in 0..30 {
            let text = format!(
                "message {i}: {}",
                "the retry loop backs off again ".repeat(8)
            );
            store
                .record(&long, &ingest::text_message("user", &text), None)
                .unwrap();
        }
        let short = store.create(&new("short")).unwrap().session_id;
        store
            .record(
                &short,
                &ingest::text_message("assistant", "use exponential backoff"),
                None,
            )
            .unwrap();
        (
            Home {
                _dir: dir,
                home,
                work,
            },
            long,
        )
    }

    async fn connect(&self, lifecycle: ClientLifecycleMode) -> RunningService<RoleClient, ()> {
        let home: &Path = &self.home;
        let command = tokio::process::Command::new(env!("CARGO_BIN_EXE_ollm-mcp")).configure(|c| {
            c.env_clear()
                .env("PATH", "/usr/bin:/bin")
                .env("HOME", home)
                .env("OLLM_HOME", home.join(".ollm"))
                .env("LANG", "C.UTF-8")
                .current_dir(&self.work);
        });
        let transport = TokioChildProcess::new(command).unwrap();
        ().serve_with_lifecycle(transport, lifecycle).await.unwrap()
    }
}

async fn call(
    client: &RunningService<RoleClient, ()>,
    tool: &'static str,
    args: Value,
) -> (bool, Value, String) {
    let Value::Object(args) = args else {
        panic!("arguments are an object")
    };
    let result = client
        .call_tool(CallToolRequestParams::new(tool).with_arguments(args))
        .await
        .unwrap_or_else(|e| panic!("{tool}: {e}"));
    let text = serde_json::to_value(&result.content).unwrap()[0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    (
        result.is_error == Some(true),
        result.structured_content.unwrap_or(Value::Null),
        text,
    )
}

async fn everything(lifecycle: ClientLifecycleMode, spoken: ProtocolVersion) {
    let (home, long) = Home::with_sessions();
    let client = home.connect(lifecycle).await;
    let peer = client.peer_info().expect("the server described itself");
    assert_eq!(peer.protocol_version, spoken);
    let tools: Vec<String> = client
        .list_all_tools()
        .await
        .unwrap()
        .into_iter()
        .map(|t| {
            assert!(t.output_schema.is_some(), "{}", t.name);
            t.name.to_string()
        })
        .collect();
    assert_eq!(
        tools,
        [
            "list_sessions",
            "search_sessions",
            "get_session",
            "get_context",
            "discover_files"
        ]
    );

    let (failed, listed, _) = call(&client, "list_sessions", json!({})).await;
    assert!(!failed);
    assert_eq!(listed["count"], 2, "{listed}");
    let (_, found, _) = call(&client, "search_sessions", json!({"query": "exponential"})).await;
    assert_eq!(found["hits"][0]["role"], "assistant", "{found}");
    let (_, context, _) = call(&client, "get_context", json!({})).await;
    assert_eq!(context["entries"], json!([]), "{context}");
    let (_, files, _) = call(&client, "discover_files", json!({})).await;
    assert_eq!(files["count"], 0, "{files}");

    let mut seen = Vec::new();
    let (_, mut page, _) = call(
        &client,
        "get_session",
        json!({"session": "long", "maxTokens": 250}),
    )
    .await;
    loop {
        assert!(page["tokens"].as_u64().unwrap() <= 250, "{page}");
        seen.extend(
            page["messages"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m["index"].as_u64().unwrap()),
        );
        let Some(cursor) = page["nextCursor"].as_str().map(str::to_string) else {
            break;
        };
        page = call(
            &client,
            "get_session",
            json!({"cursor": cursor, "maxTokens": 250}),
        )
        .await
        .1;
    }
    assert_eq!(seen, (0..30).collect::<Vec<u64>>());

    let read = client
        .read_resource(ReadResourceRequestParams::new(format!(
            "ollm://session/{long}"
        )))
        .await
        .unwrap();
    let markdown = serde_json::to_value(&read.contents).unwrap()[0]["text"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(markdown.starts_with("# long"), "{markdown}");

    let (failed, _, message) =
        call(&client, "get_session", json!({"session": "../etc/passwd"})).await;
    assert!(failed && !message.is_empty(), "{message}");
    let (failed, _, message) = call(
        &client,
        "get_session",
        json!({"latest": true, "maxTokens": "lots"}),
    )
    .await;
    assert!(failed && message.contains("maxTokens"), "{message}");
    let (failed, listed, _) = call(&client, "list_sessions", json!({"limit": 1})).await;
    assert!(!failed && listed["count"] == 1, "the server still answers");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn the_2025_11_25_handshake_with_rmcps_client() {
    everything(
        ClientLifecycleMode::Initialize,
        ProtocolVersion::V_2025_11_25,
    )
    .await;
}

#[tokio::test]
async fn server_discover_of_2026_07_28_with_rmcps_client() {
    everything(
        ClientLifecycleMode::Discover {
            preferred_versions: vec![ProtocolVersion::V_2026_07_28],
        },
        ProtocolVersion::V_2026_07_28,
    )
    .await;
}
