//! Each way stored or imported text reaches the scrubber does work linear
//! in the text (issue 54): `scan`, `redact`, `record` through the store,
//! and an import from a Claude Code file, each fed one pathological family
//! at two sizes, the bytes the scrubber read compared
//! ([`crate::redact::work`]). The MCP server cleans its output with the
//! scrubber `scan` uses (`for_bulk`), counted in `redact::work`'s tests.

use std::sync::Arc;

use serde_json::json;

use super::import::claude::Claude;
use super::import::write::store_transcript;
use super::import::{Importer, Source, Tool};
use super::model::{Entry, Message};
use super::secrets::{scan, scrub};
use super::snapshot::Snapshots;
use super::store::{NewSession, Store, StoreOptions};
use crate::redact::Scrubber;
use crate::redact::policy::Redaction;
use crate::redact::work::counted;

const FAMILIES: [&str; 4] = ["ghp_", " key-", "-----BEGIN ", "password="];

fn store_in(dir: &std::path::Path, redact: bool) -> Store {
    Store::new(
        dir.join("data"),
        StoreOptions {
            redaction: redact.then(|| Arc::new(Redaction::default().for_bulk())),
            ..StoreOptions::default()
        },
    )
}

/// The bytes read by each entry point on `text`: scan, redact, record,
/// import.
fn work(text: &str) -> [u64; 4] {
    let dir = tempfile::tempdir().unwrap();
    let stored = store_in(dir.path(), false);
    let snapshots = Snapshots::new(dir.path().join("snaps"), 5);
    let id = stored.create(&NewSession::default()).unwrap().session_id;
    let entry = Entry::Message(Message::text("user", text, "2026-01-01T00:00:00.000Z"));
    stored.record(&id, &entry, None).unwrap();
    let scrubber = Scrubber::default().for_bulk();
    let scanned = counted(|| drop(scan(&stored, &snapshots, &scrubber, &id).unwrap()));
    let scrubbed = counted(|| {
        scrub(&stored, &snapshots, &scrubber, &id).unwrap();
    });

    let redacting = store_in(&dir.path().join("redacting"), true);
    let id = redacting.create(&NewSession::default()).unwrap().session_id;
    let recorded = counted(|| drop(redacting.record(&id, &entry, None).unwrap()));

    let file = dir
        .path()
        .join("6f1c0a52-0d3c-4b7e-9d57-1b2c3d4e5f60.jsonl");
    let line = json!({
        "parentUuid": null, "isSidechain": false, "userType": "external",
        "cwd": "/work/project", "sessionId": "6f1c0a52-0d3c-4b7e-9d57-1b2c3d4e5f60",
        "version": "2.1.3", "type": "user", "uuid": "0b7c7a52-0d3c-4b7e-9d57-1b2c3d4e5f61",
        "timestamp": "2026-03-01T10:00:00.000Z",
        "message": {"role": "user", "content": text},
    });
    std::fs::write(&file, format!("{line}\n")).unwrap();
    let source = Source {
        tool: Tool::new(&Claude),
        path: file,
        kind: "session",
        bytes: 0,
    };
    let importing = store_in(&dir.path().join("importing"), true);
    let imported = counted(|| {
        Claude
            .read(&source, &mut |transcript| {
                store_transcript(&importing, Tool::new(&Claude), &transcript, false).map(drop)
            })
            .unwrap();
    });
    [scanned, scrubbed, recorded, imported]
}

#[test]
fn every_entry_point_reads_work_linear_in_a_pathological_text() {
    for unit in FAMILIES {
        let text = |size: usize| unit.repeat(size / unit.len());
        let (small, large) = (work(&text(64 << 10)), work(&text(128 << 10)));
        for (which, (small, large)) in ["scan", "redact", "record", "import"]
            .iter()
            .zip(small.iter().zip(large))
        {
            assert!(*small > 0, "{unit:?}, {which}: the scrubber read nothing");
            assert!(
                large * 10 <= small * 22,
                "{unit:?} repeated, {which}: {small} bytes read for 64 KiB, {large} for 128 KiB"
            );
        }
    }
}
