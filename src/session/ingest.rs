//! Turning what a recorder hands over into stored records: the `record`
//! shorthands (a text message, a tool call) and a stream of JSON records
//! (one document, or NDJSON with one record a line), each acknowledged once
//! it is on disk.

use std::io::BufRead;

use serde_json::Value;

use super::model::{Entry, Message, new_id};
use super::store::{Ack, Store};
use crate::error::{Error, Result};
use crate::{input, timestamp};

/// A tool call given piece by piece (`record --tool NAME --args … --result …`).
#[derive(Debug, Clone, Default)]
pub(crate) struct ToolCallInput {
    pub name: String,
    /// The arguments as JSON text (an object).
    pub args: String,
    /// What the tool returned for the model (llmContent).
    pub result: String,
    /// What the tool returned for display (returnDisplay).
    pub display: Option<String>,
    /// The call's id; a new one when absent.
    pub call_id: Option<String>,
}

/// A plain text message with `role`, stamped now.
pub fn text_message(role: &str, text: &str) -> Entry {
    Entry::Message(Message::text(role, text, &timestamp::now_iso()))
}

/// The tool call `input` describes, stamped now; `args_name` names where the
/// arguments came from in an error (`--args`, a file).
pub(crate) fn tool_call(input: &ToolCallInput, args_name: &str) -> Result<Entry> {
    let now = timestamp::now_iso();
    let parsed: Value = input::parse_json(&input.args, args_name)?;
    let mut result = serde_json::Map::new();
    result.insert("llmContent".into(), input.result.clone().into());
    if let Some(display) = &input.display {
        result.insert("returnDisplay".into(), display.clone().into());
    }
    let id = input
        .call_id
        .clone()
        .unwrap_or_else(|| format!("call_{}", new_id().replace('-', "")));
    let call = serde_json::json!({
        "id": id,
        "name": input.name,
        "args": parsed,
        "result": result,
        "timestamp": now,
    });
    Entry::from_input(call, &now)
}

/// Records every record `reader` holds into session `id`, calling `ack` with
/// each acknowledgement once the record is on disk. The input is NDJSON when
/// its first non-blank line is a whole JSON value; otherwise it is one JSON
/// document (an object, or an array of records). `tokens` is the count of a
/// single record (an error when there are more). Returns how many records
/// were stored; input holding none is an error.
pub(crate) fn record_stream(
    store: &Store,
    id: &str,
    reader: impl BufRead,
    name: &str,
    tokens: Option<u64>,
    mut ack: impl FnMut(&Ack) -> Result<()>,
) -> Result<usize> {
    let mut document: Option<String> = None;
    let mut count = 0usize;
    let mut pending_tokens = tokens;
    let mut one = |value: Value, line: usize, count: &mut usize| -> Result<()> {
        let now = timestamp::now_iso();
        let records = match value {
            Value::Array(items) => items,
            other => vec![other],
        };
        for value in records {
            let entry = Entry::from_input(value, &now).map_err(|e| match e {
                Error::Input(msg) if line > 0 => Error::input(format!("{name} line {line}: {msg}")),
                other => other,
            })?;
            *count += 1;
            if *count > 1 && tokens.is_some() {
                return Err(Error::usage("--tokens applies to a single record only"));
            }
            ack(&store.record(id, &entry, pending_tokens.take())?)?;
        }
        Ok(())
    };
    input::for_each_line(reader, name, |number, line| {
        if let Some(doc) = document.as_mut() {
            doc.push_str(line);
            doc.push('\n');
            return Ok(());
        }
        input::check_integers(line, &format!("{name} line {number}"))?;
        match serde_json::from_str::<Value>(line) {
            Ok(value) => one(value, number, &mut count),
            Err(err) if err.is_eof() && count == 0 => {
                document = Some(format!("{line}\n"));
                Ok(())
            }
            Err(err) => Err(Error::input(format!(
                "{name} line {number}: {}",
                crate::text::one_line(&err.to_string())
            ))),
        }
    })?;
    if let Some(doc) = document {
        let value: Value = input::parse_json(&doc, name)?;
        one(value, 0, &mut count)?;
    }
    if count == 0 {
        return Err(Error::input(format!("{name} holds no records")));
    }
    Ok(count)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::store::{NewSession, StoreOptions};

    fn store() -> (tempfile::TempDir, Store, String) {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::new(dir.path().join("s"), StoreOptions::default());
        let id = store
            .create(&NewSession {
                model: "m".into(),
                provider: "p".into(),
                ..NewSession::default()
            })
            .unwrap()
            .session_id;
        (dir, store, id)
    }

    fn ingest(store: &Store, id: &str, input: &str) -> Result<Vec<Ack>> {
        let mut acks = Vec::new();
        record_stream(store, id, input.as_bytes(), "input", None, |a| {
            acks.push(a.clone());
            Ok(())
        })?;
        Ok(acks)
    }

    #[test]
    fn ndjson_records_are_stored_in_order_and_acknowledged_one_by_one() {
        let (_dir, store, id) = store();
        let input = concat!(
            r#"{"role":"user","parts":[{"type":"text","text":"a"}]}"#,
            "\n\n",
            r#"{"id":"c1","name":"run","args":{},"result":{"llmContent":"ok"}}"#,
            "\n",
            r#"{"role":"assistant","parts":[{"type":"text","text":"b"}]}"#,
            "\n"
        );
        let acks = ingest(&store, &id, input).unwrap();
        let kinds: Vec<(&str, u64)> = acks.iter().map(|a| (a.recorded, a.index)).collect();
        assert_eq!(
            kinds,
            [("message", 0), ("toolCall", 0), ("message", 1)],
            "{acks:?}"
        );
        let session = store.get(&id).unwrap();
        assert_eq!(session.messages[1].text_content(), "b");
    }

    #[test]
    fn a_pretty_printed_document_is_one_input_and_an_array_is_many_records() {
        let (_dir, store, id) = store();
        let input = "[\n {\"role\":\"user\",\"parts\":[{\"text\":\"x\"}]},\n {\"role\":\"user\",\"parts\":[{\"text\":\"y\"}]}\n]\n";
        assert_eq!(ingest(&store, &id, input).unwrap().len(), 2);
        assert_eq!(store.get(&id).unwrap().messages.len(), 2);
    }

    #[test]
    fn a_bad_line_names_its_line_and_keeps_the_records_before_it() {
        let (_dir, store, id) = store();
        let input = "{\"role\":\"user\",\"parts\":[]}\n{\"role\":7}\n";
        let err = ingest(&store, &id, input).unwrap_err().to_string();
        assert!(err.contains("input line 2"), "{err}");
        assert_eq!(store.get(&id).unwrap().messages.len(), 1);
    }

    #[test]
    fn empty_input_is_an_error_not_a_silent_success() {
        let (_dir, store, id) = store();
        let err = ingest(&store, &id, "\n  \n").unwrap_err().to_string();
        assert!(err.contains("holds no records"), "{err}");
    }

    #[test]
    fn tokens_apply_to_a_single_record_only() {
        let (_dir, store, id) = store();
        let input = "{\"role\":\"user\",\"parts\":[]}\n{\"role\":\"user\",\"parts\":[]}\n";
        let err = record_stream(&store, &id, input.as_bytes(), "in", Some(5), |_| Ok(()));
        assert!(matches!(err, Err(Error::Usage(_))), "{err:?}");
    }

    #[test]
    fn a_tool_call_keeps_its_result_and_parsed_arguments() {
        let entry = tool_call(
            &ToolCallInput {
                name: "read".into(),
                args: r#"{"path":"a.txt"}"#.into(),
                result: "contents".into(),
                display: Some("shown".into()),
                call_id: None,
            },
            "--args",
        )
        .unwrap();
        let Entry::ToolCall(call) = entry else {
            panic!("not a tool call")
        };
        assert_eq!(call.name(), "read");
        assert_eq!(call.args()["path"], "a.txt");
        assert_eq!(call.llm_content(), "contents");
        assert_eq!(call.return_display(), Some("shown"));
        assert!(call.id().starts_with("call_"));
    }

    #[test]
    fn tool_arguments_that_are_not_json_are_refused() {
        let input = ToolCallInput {
            name: "x".into(),
            args: "{oops".into(),
            ..ToolCallInput::default()
        };
        let err = tool_call(&input, "--args").unwrap_err().to_string();
        assert!(err.contains("--args"), "{err}");
    }
}
