//! A test-only importer: a directory of `*.textlog` files, one session
//! each, a message a line (`user: …`, `assistant: …`, `system: …`). It is
//! here to show what a new importer takes: this file and one line in the
//! table (`IMPORTERS`), nothing else.

use std::path::{Path, PathBuf};

use super::{Body, Homes, Importer, Item, Part, Role, Source, Tool, Transcript, split};
use crate::error::{Error, Result};

/// Text logs, as the importers' table holds them.
pub struct TextLog;

impl Importer for TextLog {
    fn name(&self) -> &'static str {
        "textlog"
    }

    fn title(&self) -> &'static str {
        "text logs"
    }

    fn variables(&self) -> &'static [&'static str] {
        &["TEXTLOG_HOME"]
    }

    fn default_roots(&self, homes: &Homes) -> Vec<PathBuf> {
        homes
            .var("TEXTLOG_HOME")
            .map(Path::to_path_buf)
            .into_iter()
            .collect()
    }

    fn sources(&self, path: &Path) -> Result<Vec<Source>> {
        let files = if path.is_dir() {
            super::files_under(path, 0)?
        } else {
            vec![path.to_path_buf()]
        };
        let mut found: Vec<Source> = files
            .into_iter()
            .filter(|file| file.extension().is_some_and(|e| e == "textlog"))
            .map(|file| Source {
                tool: Tool::new(&TextLog),
                bytes: std::fs::metadata(&file).map_or(0, |m| m.len()),
                path: file,
                kind: "textlog",
            })
            .collect();
        found.sort_by(|a, b| a.path.cmp(&b.path));
        Ok(found)
    }

    fn read_parts(
        &self,
        source: &Source,
        max_items: usize,
        each: &mut dyn FnMut(Part) -> Result<()>,
    ) -> Result<()> {
        let path = &source.path;
        let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, &e))?;
        let mut transcript = Transcript {
            source_id: path
                .file_stem()
                .unwrap_or_default()
                .to_string_lossy()
                .into(),
            source: path.display().to_string(),
            ..Transcript::default()
        };
        for (number, line) in text.lines().enumerate() {
            let role = match line.split_once(": ") {
                Some(("user", _)) => Role::User,
                Some(("assistant", _)) => Role::Assistant,
                Some(("system", _)) => Role::System,
                _ => {
                    transcript.skipped.unreadable += 1;
                    continue;
                }
            };
            let said = line.split_once(": ").map_or("", |(_, said)| said);
            transcript.items.push(Item {
                key: number.to_string(),
                timestamp: Some(format!("2026-01-01T00:00:{:02}Z", number % 60)),
                body: Body::Message {
                    role,
                    text: said.to_string(),
                    images: Vec::new(),
                },
            });
        }
        split(transcript, max_items, each)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::Store;
    use crate::session::import::batch::{self, Event};
    use crate::session::import::write::Status;
    use crate::session::import::{named, tools};
    use crate::session::store::StoreOptions;

    #[test]
    fn a_text_log_is_imported_through_the_table_like_any_other_tool() {
        let dir = tempfile::tempdir().unwrap();
        let logs = dir.path().join("logs");
        std::fs::create_dir_all(&logs).unwrap();
        std::fs::write(
            logs.join("retry.textlog"),
            "user: why does the retry loop spin?\nnoise\nassistant: the backoff is never reset\n",
        )
        .unwrap();
        let store = Store::new(dir.path().join("data"), StoreOptions::default());
        let tool = named("textlog").expect("the table holds it");
        assert!(tools().any(|t| t == tool));

        let homes = Homes::at(None).with_var("TEXTLOG_HOME", &logs);
        let plan = batch::plan(&[tool], &[], &homes).unwrap();
        assert_eq!(plan.sources.len(), 1, "{plan:?}");
        let mut events = Vec::new();
        batch::run(&store, &plan, false, |event| events.push(event));
        let imported: Vec<_> = events
            .into_iter()
            .filter_map(|event| match event {
                Event::Session(done) => Some(done),
                Event::Failed(failure) => panic!("{failure:?}"),
                Event::SourceDone { .. } => None,
            })
            .collect();
        let [done] = imported.as_slice() else {
            panic!("{imported:?}")
        };
        assert_eq!((done.status, done.messages), (Status::Imported, 2));
        assert_eq!(done.skipped.unreadable, 1);

        let session = store.get(&done.session_id).unwrap();
        let said: Vec<(&str, String)> = session
            .messages
            .iter()
            .map(|m| (m.role(), m.text_content()))
            .collect();
        assert_eq!(
            said,
            [
                ("user", "why does the retry loop spin?".to_string()),
                ("assistant", "the backoff is never reset".to_string())
            ]
        );
        assert_eq!(
            session.metadata.extra["importedFrom"]["tool"],
            serde_json::json!("textlog")
        );

        // Imported again, nothing is added.
        let mut again = Vec::new();
        batch::run(&store, &plan, false, |event| again.push(event));
        assert!(again.iter().any(
            |event| matches!(event, Event::Session(done) if done.status == Status::Unchanged)
        ));
    }
}
