//! The events loop detection sees, read as NDJSON or derived from a session.
//!
//! NDJSON, one object a line:
//! `{"type":"turn"}` a turn started; `{"type":"user","text":"…"}` the user
//! spoke (resets tool and output tracking); `{"type":"tool","name":"…","args":{…}}`
//! a tool call (`args` defaults to `{}`); `{"type":"output","text":"…"}` a
//! model output; `{"type":"reset"}` a new conversation (also resets the turn
//! count). Unknown fields are ignored; an unknown `type` is an error.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::{Error, Result};
use crate::session::model::{Place, Records};
use crate::{input, timestamp};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(rename = "LoopEvent")]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum Event {
    Turn,
    User {
        #[serde(default)]
        text: String,
    },
    Tool {
        name: String,
        #[serde(default = "empty_object")]
        args: Value,
    },
    Output {
        text: String,
    },
    Reset,
}

fn empty_object() -> Value {
    Value::Object(serde_json::Map::new())
}

/// An event line in its usual shape, read without building a map of it.
#[derive(Deserialize)]
struct Usual<'a> {
    #[serde(rename = "type", borrow)]
    kind: std::borrow::Cow<'a, str>,
    #[serde(default, deserialize_with = "present")]
    text: Option<String>,
    #[serde(default, deserialize_with = "present")]
    name: Option<String>,
    #[serde(default, deserialize_with = "present")]
    args: Option<Value>,
}

/// A field that is there: `null` is a value (for `args`) or a wrong type
/// (for a string), never the same as a missing field.
fn present<'de, D, T>(d: D) -> std::result::Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    T::deserialize(d).map(Some)
}

/// Parses one NDJSON line; `name` and `line` locate errors. A line in the
/// usual shape is read directly; any other (an error, a field of an
/// unexpected type, a repeated key) goes through [`parse_line_checked`],
/// which decides and names what is wrong.
pub fn parse_line(text: &str, name: &str, line: usize) -> Result<Event> {
    if input::check_integers(text, "").is_ok()
        && let Ok(usual) = serde_json::from_str::<Usual<'_>>(text)
    {
        let event = match (usual.kind.as_ref(), usual.text, usual.name) {
            ("turn", ..) => Some(Event::Turn),
            ("reset", ..) => Some(Event::Reset),
            ("user", text, _) => Some(Event::User {
                text: text.unwrap_or_default(),
            }),
            ("output", Some(text), _) => Some(Event::Output { text }),
            ("tool", _, Some(name)) => Some(Event::Tool {
                name,
                args: usual.args.unwrap_or_else(empty_object),
            }),
            _ => None,
        };
        if let Some(event) = event {
            return Ok(event);
        }
    }
    parse_line_checked(text, name, line)
}

/// Parses one NDJSON line by hand (not serde's tagged enums), so a wrong
/// field is named in the message.
fn parse_line_checked(text: &str, name: &str, line: usize) -> Result<Event> {
    let at = format!("{name} line {line}");
    let value: Value = input::parse_json(text, &at)?;
    let Value::Object(mut map) = value else {
        return Err(Error::input(format!(
            "{at}: expected an object such as {{\"type\":\"turn\"}}"
        )));
    };
    let kind = match map.get("type") {
        Some(Value::String(kind)) => kind.clone(),
        Some(_) => return Err(Error::input(format!("{at} at `type`: expected a string"))),
        None => return Err(Error::input(format!("{at}: missing field `type`"))),
    };
    let mut text_field = |field: &str, required: bool| -> Result<String> {
        match map.remove(field) {
            Some(Value::String(text)) => Ok(text),
            None if !required => Ok(String::new()),
            None => Err(Error::input(format!("{at}: missing field `{field}`"))),
            Some(_) => Err(Error::input(format!(
                "{at} at `{field}`: expected a string"
            ))),
        }
    };
    Ok(match kind.as_str() {
        "turn" => Event::Turn,
        "reset" => Event::Reset,
        "user" => Event::User {
            text: text_field("text", false)?,
        },
        "output" => Event::Output {
            text: text_field("text", true)?,
        },
        "tool" => {
            let name = text_field("name", true)?;
            let args = map.remove("args").unwrap_or_else(empty_object);
            Event::Tool { name, args }
        }
        other => {
            return Err(Error::input(format!(
                "{at} at `type`: unknown event type {:?} (expected turn, user, tool, output or reset)",
                crate::text::shorten(other, 40)
            )));
        }
    })
}

/// Parses a whole NDJSON document.
pub(crate) fn parse_ndjson(text: &str, name: &str) -> Result<Vec<Event>> {
    let mut events = Vec::new();
    input::for_each_line(text.as_bytes(), name, |line, text| {
        events.push(parse_line(text, name, line)?);
        Ok(())
    })?;
    Ok(events)
}

/// Whether a whole document looks like a session (an object with
/// `messages` or `toolCalls`) rather than NDJSON events.
pub(crate) fn looks_like_session(text: &str) -> bool {
    // The first value, then only whitespace: not `serde_json::from_str`,
    // whose error on NDJSON's second line (the usual input) locates itself
    // with memchr, and memchr's first call asks the CPU for its features
    // (see `crate::bytes`).
    let mut values = serde_json::Deserializer::from_str(text).into_iter::<Value>();
    let Some(Ok(Value::Object(map))) = values.next() else {
        return false;
    };
    let rest = &text.as_bytes()[values.byte_offset()..];
    rest.iter()
        .all(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
        && (map.contains_key("messages") || map.contains_key("toolCalls"))
}

/// The events of a session (Requirement 2's format), read through
/// [`session::model::Records`] in the order [`session::model::timeline`]
/// gives, the order every program sees a session in.
///
/// Each assistant message starts a turn and is an output (the text of its
/// `text` parts); each user message is a user event; system and tool
/// messages are ignored (a tool's result is in its tool call).
pub(crate) fn session_events(text: &str, name: &str) -> Result<Vec<Event>> {
    let records: Records = input::parse_json(text, name)?;
    for (i, message) in records.messages.iter().enumerate() {
        check_timestamp(message.timestamp(), name, &format!("messages[{i}]"))?;
        if !matches!(message.role(), "user" | "assistant" | "system" | "tool") {
            return Err(Error::input(format!(
                "{name} at `messages[{i}].role`: unknown role {:?} (expected user, assistant, system or tool)",
                crate::text::shorten(message.role(), 40)
            )));
        }
    }
    for (i, call) in records.tool_calls.iter().enumerate() {
        check_timestamp(call.timestamp(), name, &format!("toolCalls[{i}]"))?;
    }
    let mut events = Vec::new();
    for place in records.timeline() {
        match place {
            Place::Message(i) => {
                let message = &records.messages[i];
                let text = || {
                    message
                        .parts()
                        .iter()
                        .filter_map(|p| p.get("text").and_then(Value::as_str))
                        .collect::<Vec<_>>()
                        .join("\n")
                };
                match message.role() {
                    "user" => events.push(Event::User { text: text() }),
                    "assistant" => {
                        events.push(Event::Turn);
                        events.push(Event::Output { text: text() });
                    }
                    _ => {}
                }
            }
            Place::ToolCall(i) => {
                let call = &records.tool_calls[i];
                events.push(Event::Tool {
                    name: call.name().to_string(),
                    args: call.args().clone(),
                });
            }
        }
    }
    Ok(events)
}

fn check_timestamp(text: &str, name: &str, field: &str) -> Result<()> {
    if timestamp::is_valid(text) {
        Ok(())
    } else {
        Err(Error::input(format!(
            "{name} at `{field}.timestamp`: {:?} is not an ISO 8601 timestamp",
            crate::text::shorten(text, 40)
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn ndjson_events_parse_with_defaults() {
        let events = parse_ndjson(
            "{\"type\":\"turn\"}\n{\"type\":\"tool\",\"name\":\"ls\"}\n\n{\"type\":\"output\",\"text\":\"x\",\"extra\":1}\n",
            "in",
        )
        .unwrap();
        assert_eq!(
            events,
            vec![
                Event::Turn,
                Event::Tool {
                    name: "ls".into(),
                    args: json!({})
                },
                Event::Output { text: "x".into() }
            ]
        );
    }

    #[test]
    fn the_usual_shape_reads_as_the_checked_parse_reads_it() {
        for line in [
            r#"{"type":"turn"}"#,
            r#"{"type":"turn","text":5,"extra":[1]}"#,
            r#"{"type":"reset","name":null}"#,
            r#"{"type":"user"}"#,
            r#"{"type":"user","text":"hi"}"#,
            r#"{"type":"user","text":null}"#,
            r#"{"type":"user","text":"a","text":"b"}"#,
            r#"{"type":"output","text":"x"}"#,
            r#"{"type":"output"}"#,
            r#"{"type":"output","text":["x"]}"#,
            r#"{"type":"tool","name":"ls"}"#,
            r#"{"type":"tool","name":"ls","args":null}"#,
            r#"{"type":"tool","name":"ls","args":{"b":[1,{"c":2.5}],"a":"q"}}"#,
            r#"{"type":"tool","name":3}"#,
            r#"{"type":"tool","args":{}}"#,
            r#"{"type":"tool","name":"x","args":{"n":123456789012345678901234}}"#,
            r#"{"type":"dance"}"#,
            r#"{"type":7}"#,
            r#"{"text":"no type"}"#,
            r#"["type","turn"]"#,
            r#"{"type":"turn"} trailing"#,
            r#"{"type":"output","text":"\ud800"}"#,
        ] {
            let fast = parse_line(line, "in", 4).map_err(|e| e.to_string());
            let checked = parse_line_checked(line, "in", 4).map_err(|e| e.to_string());
            assert_eq!(fast, checked, "{line}");
        }
    }

    #[test]
    fn bad_lines_are_named() {
        let err = parse_ndjson("{\"type\":\"turn\"}\n{\"type\":\"dance\"}\n", "in").unwrap_err();
        assert!(err.to_string().contains("line 2"), "{err}");
        let err = parse_ndjson("{\"type\":\"tool\",\"name\":3}\n", "in").unwrap_err();
        assert!(err.to_string().contains("name"), "{err}");
    }

    #[test]
    fn sessions_merge_messages_and_calls_by_time() {
        let doc = json!({
            "sessionId": "x",
            "messages": [
                {"role": "user", "parts": [{"type": "text", "text": "hi"}], "timestamp": "2026-01-01T00:00:00Z"},
                {"role": "assistant", "parts": [{"type": "text", "text": "a"}], "timestamp": "2026-01-01T00:00:02Z"},
                {"role": "system", "parts": [], "timestamp": "2026-01-01T00:00:03Z"}
            ],
            "toolCalls": [
                {"id": "1", "name": "ls", "args": {}, "result": {"llmContent": ""}, "timestamp": "2026-01-01T01:00:01+01:00"},
                {"id": "2", "name": "cat", "args": {"p": 1}, "result": {"llmContent": ""}, "timestamp": "2026-01-01T00:00:02Z"}
            ]
        });
        let text = doc.to_string();
        assert!(looks_like_session(&text));
        let events = session_events(&text, "s").unwrap();
        let kinds: Vec<String> = events
            .iter()
            .map(|e| match e {
                Event::Tool { name, .. } => name.clone(),
                other => serde_json::to_value(other).unwrap()["type"]
                    .as_str()
                    .unwrap()
                    .to_string(),
            })
            .collect();
        assert_eq!(kinds, ["user", "ls", "turn", "output", "cat"]);
    }

    #[test]
    fn only_one_whole_object_with_messages_or_tool_calls_is_a_session() {
        for session in [
            "{\"messages\": []}",
            " \n{\"toolCalls\": []}\r\n\t ",
            "{\"sessionId\": \"x\", \"messages\": [], \"toolCalls\": []}\n",
        ] {
            assert!(looks_like_session(session), "{session:?}");
        }
        for events in [
            "",
            "{\"type\": \"turn\"}",
            "{\"messages\": []}\n{\"type\": \"turn\"}\n",
            "{\"messages\": []} x",
            "{\"messages\": []}\u{a0}",
            "[{\"messages\": []}]",
            "{\"messages\": [}",
            "{\"type\": \"tool\", \"name\": \"ls\", \"args\": {\"messages\": 1}}",
        ] {
            assert!(!looks_like_session(events), "{events:?}");
        }
    }

    #[test]
    fn bad_session_timestamps_are_named() {
        let doc = json!({"messages": [{"role": "user", "parts": [], "timestamp": "yesterday"}]});
        let err = session_events(&doc.to_string(), "s").unwrap_err();
        assert!(err.to_string().contains("messages[0].timestamp"), "{err}");
    }
}
