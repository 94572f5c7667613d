//! The last check before a page is written: the credential scan of
//! `ollm-session scan` over everything the page would carry. A session
//! stored with `--no-redact` (or before a rule knew a format) can hold a
//! secret; a page is made to be shared, so the export refuses to write it
//! rather than publish it. The error names where it is, never the value.

use serde_json::Value;

use super::data::{Item, Page};
use crate::error::{Error, Result};
use crate::redact::Scrubber;
use crate::redact::structure::{field_spans, for_each_credential};

/// Fails naming the first record of a session page's data that holds a
/// credential. The page's strings are read where they are, not in the
/// page's JSON read back: the rules a scan of that JSON applies are the
/// rules of each of its strings under its key ([`field_spans`]), and the
/// records, independent, are read on every core.
pub(super) fn check_page(scrubber: &Scrubber, page: &Page) -> Result<()> {
    if let Some((key, kind)) = first_credential(scrubber, &page.strings()) {
        return Err(refused(&page.id, key, &kind));
    }
    let items: Vec<&Item> = page.turns.iter().flat_map(|t| &t.items).collect();
    let found = crate::threads::parallel_map(&items, |item| {
        first_credential(scrubber, &item.strings()).map(|(_, kind)| kind)
    });
    match items
        .iter()
        .zip(found)
        .find_map(|(item, kind)| Some((item, kind?)))
    {
        None => Ok(()),
        Some((item, kind)) => Err(refused(&page.id, &item.place(), &kind)),
    }
}

/// The first of `strings` (key, text) that holds a credential, and its kind.
fn first_credential<'a>(
    scrubber: &Scrubber,
    strings: &[(&'a str, &str)],
) -> Option<(&'a str, String)> {
    strings.iter().find_map(|(key, text)| {
        let span = field_spans(scrubber, Some(key), text).into_iter().next()?;
        Some((*key, span.kind.into_owned()))
    })
}

fn refused(session_id: &str, place: &str, kind: &str) -> Error {
    Error::input(format!(
        "session {session_id}: {place} holds a credential ({kind}); nothing written \
         (`ollm-session redact {session_id}` removes it; an HTML export is never \
         written unredacted)"
    ))
}

/// Fails naming the first record of `data` (a page's JSON, `text` its
/// serialization) that holds a credential.
pub(super) fn check(scrubber: &Scrubber, session_id: &str, text: &str) -> Result<()> {
    if !scrubber.may_hold_credentials(text.as_bytes()) {
        return Ok(());
    }
    let data: Value = serde_json::from_str(text)
        .map_err(|e| Error::input(format!("cannot read back the page data: {e}")))?;
    let mut first: Option<(String, String)> = None;
    for_each_credential(scrubber, None, &data, "", &mut |field, _, span| {
        if first.is_none() {
            first = Some((place(&data, &field), span.kind.to_string()));
        }
    });
    match first {
        None => Ok(()),
        Some((place, kind)) => Err(refused(session_id, &place, &kind)),
    }
}

/// A person's name for the record a data path (`turns[2].items[5].text`)
/// is in: `message 12`, `tool call 3 (Bash)`, or the session's `title`.
fn place(data: &Value, field: &str) -> String {
    let index = |name: &str, from: &str| -> Option<usize> {
        let start = from.find(&format!("{name}["))? + name.len() + 1;
        from[start..].split(']').next()?.parse().ok()
    };
    let item = index("turns", field).and_then(|turn| {
        let item = index("items", field)?;
        data.get("turns")?.get(turn)?.get("items")?.get(item)
    });
    match item {
        Some(item) => {
            let n = item.get("n").and_then(Value::as_u64).unwrap_or_default();
            match item.get("name").and_then(Value::as_str) {
                Some(name) => format!("tool call {n} ({name})"),
                None => format!("message {n}"),
            }
        }
        None => field
            .trim_start_matches('.')
            .split(['.', '['])
            .next()
            .unwrap_or("the session")
            .to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_credential_is_refused_naming_its_record_not_its_value() {
        let token = ["ghp_", "aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5"].concat();
        let data = serde_json::json!({"title": "t", "turns": [{"items": [
            {"k": "m", "n": 0, "text": "hello"},
            {"k": "t", "n": 4, "name": "Bash", "result": format!("token {token}")}]}]});
        let text = data.to_string();
        let err = check(&Scrubber::default(), "s1", &text)
            .unwrap_err()
            .to_string();
        assert!(err.contains("tool call 4 (Bash)"), "{err}");
        assert!(err.contains("github"), "{err}");
        assert!(!err.contains(&token[4..]), "{err}");
        let clean = serde_json::json!({"turns": [{"items": [{"k": "m", "n": 0,
            "text": "[REDACTED:github-token]"}]}]});
        check(&Scrubber::default(), "s1", &clean.to_string()).unwrap();
    }

    fn page(items: Vec<Item>) -> Page {
        Page {
            id: "s1".into(),
            title: "title".into(),
            model: "model".into(),
            provider: "provider".into(),
            started: "started".into(),
            last: "last".into(),
            workspace: Some("workspace".into()),
            source: Some("source".into()),
            tokens: 3,
            messages: 1,
            calls: 1,
            branched: Some(super::super::data::Branch {
                parent: "parent".into(),
                before: 2,
                href: Some("parent.html".into()),
            }),
            subagent_of: Some("subagent of".into()),
            subagent_href: Some("up.html#from-s1".into()),
            children: vec![super::super::related::Child {
                kind: super::super::related::Kind::Subagent,
                id: "child".into(),
                title: "child title".into(),
                started: "child started".into(),
                after: Some(super::super::related::Anchor { k: "t", n: 4 }),
                href: Some("child.html".into()),
                before: None,
            }],
            compressions: vec![super::super::compressions::Compression {
                at: "compressed at".into(),
                strategy: "strategy".into(),
                tokens_before: Some(9),
                tokens_after: Some(3),
                removed: Some(2),
                snapshot: Some("snapshot".into()),
                after: Some(super::super::related::Anchor { k: "m", n: 0 }),
            }],
            links: vec![super::super::data::Link {
                label: "label".into(),
                href: "href.html".into(),
            }],
            turns: vec![super::super::data::Turn {
                tokens: Some(1),
                items,
            }],
        }
    }

    fn tool(result: &str) -> Item {
        Item::Tool {
            n: 4,
            name: "Bash".into(),
            at: "at".into(),
            digest: "digest".into(),
            status: "ok".into(),
            ms: Some(1),
            size: 2,
            args: "args".into(),
            result: result.into(),
            diff: Some("diff".into()),
        }
    }

    #[test]
    fn a_credential_on_a_page_is_refused_naming_its_record_not_its_value() {
        let token = ["ghp_", "aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5"].concat();
        let message = |n| Item::Message {
            n,
            role: "user".into(),
            at: "at".into(),
            text: "hello".into(),
            images: Vec::new(),
        };
        let held = page(vec![
            message(0),
            tool(&format!("token {token}")),
            message(1),
        ]);
        let err = check_page(&Scrubber::default(), &held)
            .unwrap_err()
            .to_string();
        assert!(err.contains("tool call 4 (Bash)"), "{err}");
        assert!(err.contains("github"), "{err}");
        assert!(!err.contains(&token[4..]), "{err}");
        let mut titled = page(vec![message(0)]);
        titled.title = format!("see {token}");
        let err = check_page(&Scrubber::default(), &titled)
            .unwrap_err()
            .to_string();
        assert!(err.contains("title holds"), "{err}");
        check_page(
            &Scrubber::default(),
            &page(vec![message(0), tool("[REDACTED:github-token]")]),
        )
        .unwrap();
    }

    /// Every string of the page's JSON, each once.
    fn json_strings(value: &Value, into: &mut Vec<String>) {
        match value {
            Value::String(text) => into.push(text.clone()),
            Value::Array(items) => items.iter().for_each(|v| json_strings(v, into)),
            Value::Object(map) => map.values().for_each(|v| json_strings(v, into)),
            _ => {}
        }
    }

    #[test]
    fn the_check_reads_every_string_the_page_carries() {
        let message = Item::Message {
            n: 0,
            role: "user".into(),
            at: "at0".into(),
            text: "text".into(),
            images: Vec::new(),
        };
        let data = page(vec![message, tool("result")]);
        let mut carried = Vec::new();
        json_strings(&serde_json::to_value(&data).unwrap(), &mut carried);
        let mut read: Vec<String> = data
            .strings()
            .into_iter()
            .chain(
                data.turns
                    .iter()
                    .flat_map(|t| &t.items)
                    .flat_map(Item::strings),
            )
            .map(|(_, text)| text.to_string())
            .collect();
        // The tags of records' kinds are the page's own letters.
        carried.retain(|text| !matches!(text.as_str(), "m" | "t"));
        read.retain(|text| !matches!(text.as_str(), "m" | "t"));
        carried.sort();
        read.sort();
        assert_eq!(carried, read);
    }
}
