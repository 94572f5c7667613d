//! What a session page shows, as the data its script renders: the facts of
//! the session and its turns (a prompt and everything until the next one),
//! each record with its text made safe to show (terminal escapes as
//! visible marks) and its tool calls digested to one line.

use serde::Serialize;
use serde_json::Value;

use super::compressions::{self, Compression};
use super::diff;
use super::related::Child;
use super::title::shown_title;
use crate::output::{escape_line, escape_text};
use crate::session::model::{IMPORTED_FROM, Loaded, Message, Place, ToolCall, image};

/// The longest argument digest on a tool call's line, in characters.
const DIGEST_CHARS: usize = 100;

/// The most image bytes (decoded) a page carries: the images after it are
/// named, not shown, so a session of many screenshots stays a page a
/// browser opens (each image is at most [`image::MAX_IMAGE_BYTES`]).
pub(super) const PAGE_IMAGE_BYTES: usize = 24 << 20;

/// The page's data: serialized into its `<script type="application/json">`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Page {
    pub(super) id: String,
    pub(super) title: String,
    pub(super) model: String,
    pub(super) provider: String,
    pub(super) started: String,
    pub(super) last: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) workspace: Option<String>,
    /// The agent it was imported from (`claude`, `codex`, …).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) source: Option<String>,
    pub(super) tokens: u64,
    pub(super) messages: usize,
    pub(super) calls: usize,
    /// The session this one was branched from, and before which message.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) branched: Option<Branch>,
    /// The source session a sub-agent ran in (`importedFrom`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) subagent_of: Option<String>,
    /// The page of the session a sub-agent ran in, at where it started.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) subagent_href: Option<String>,
    /// The sessions started from this one: branches and sub-agents' runs.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(super) children: Vec<Child>,
    /// The compressions noted in the session, where each happened.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(super) compressions: Vec<Compression>,
    /// Links to other pages of an archive (none for a single page).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(super) links: Vec<Link>,
    pub(super) turns: Vec<Turn>,
}

#[derive(Debug, Serialize)]
pub(super) struct Branch {
    pub(super) parent: String,
    pub(super) before: u64,
    /// The parent's page in the same archive.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) href: Option<String>,
}

/// A labelled link to another page of an archive.
#[derive(Debug, Serialize)]
pub(super) struct Link {
    pub(super) label: String,
    pub(super) href: String,
}

/// A prompt and what followed it until the next one.
#[derive(Debug, Default, Serialize)]
pub(super) struct Turn {
    /// The tokens its records were counted at, where the store knows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) tokens: Option<u64>,
    pub(super) items: Vec<Item>,
}

/// One record of a turn.
#[derive(Debug, Serialize)]
#[serde(tag = "k")]
pub(super) enum Item {
    /// A message; `n` is its index in the session (`#msg-<n>`).
    #[serde(rename = "m")]
    Message {
        n: usize,
        role: String,
        at: String,
        text: String,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        images: Vec<Picture>,
    },
    /// A tool call; `n` is its index among the session's tool calls.
    #[serde(rename = "t")]
    Tool {
        n: usize,
        name: String,
        at: String,
        digest: String,
        status: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        ms: Option<u64>,
        size: usize,
        args: String,
        result: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        diff: Option<String>,
    },
}

/// An image of a message: shown from its base64 `data` (an image checked
/// to be of its `mime` type), or only named by `note`.
#[derive(Debug, Serialize)]
pub(super) struct Picture {
    pub(super) mime: String,
    pub(super) bytes: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) data: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) note: Option<String>,
}

impl Picture {
    fn of(part: &Value) -> Picture {
        match image::decoded(part) {
            Some((mime, bytes)) => Picture {
                mime: mime.to_string(),
                bytes,
                data: part.get("data").and_then(Value::as_str).map(str::to_string),
                note: None,
            },
            None => Picture {
                mime: String::new(),
                bytes: 0,
                data: None,
                note: Some("[image: not a valid image, not shown]".to_string()),
            },
        }
    }
}

impl Page {
    /// The page data of a whole session.
    pub(crate) fn of(loaded: &Loaded) -> Page {
        let s = &loaded.session;
        let imported = s.metadata.extra.get(IMPORTED_FROM);
        let field = |name: &str| {
            imported
                .and_then(|from| from.get(name))
                .and_then(Value::as_str)
                .map(|text| shown_line(text).to_string())
        };
        Page {
            id: s.session_id.clone(),
            title: shown_title(loaded),
            model: shown_line(&s.model).into_owned(),
            provider: shown_line(&s.provider).into_owned(),
            started: shown_line(&s.start_time).into_owned(),
            last: shown_line(&s.last_activity).into_owned(),
            workspace: s.workspace.as_deref().map(|w| shown_line(w).into_owned()),
            source: field("tool"),
            tokens: s.metadata.token_count,
            messages: s.messages.len(),
            calls: s.tool_calls.len(),
            branched: s.parent_session_id.as_ref().map(|parent| Branch {
                parent: shown_line(parent).into_owned(),
                before: s.branch_point.unwrap_or_default(),
                href: None,
            }),
            subagent_of: field("parentSourceSessionId"),
            subagent_href: None,
            children: Vec::new(),
            compressions: compressions::of(loaded),
            links: Vec::new(),
            turns: turns(loaded),
        }
    }
}

impl Page {
    /// The strings of the page outside its turns, each under its key.
    pub(super) fn strings(&self) -> Vec<(&'static str, &str)> {
        let mut strings = vec![
            ("id", self.id.as_str()),
            ("title", &self.title),
            ("model", &self.model),
            ("provider", &self.provider),
            ("started", &self.started),
            ("last", &self.last),
        ];
        let optional = [("workspace", &self.workspace), ("source", &self.source)];
        strings.extend(
            optional
                .into_iter()
                .filter_map(|(key, text)| Some((key, text.as_deref()?))),
        );
        if let Some(branch) = &self.branched {
            strings.push(("parent", &branch.parent));
            strings.extend(branch.href.as_deref().map(|href| ("href", href)));
        }
        strings.extend(self.subagent_of.as_deref().map(|id| ("subagentOf", id)));
        strings.extend(
            self.subagent_href
                .as_deref()
                .map(|href| ("subagentHref", href)),
        );
        for child in &self.children {
            strings.extend([
                ("kind", child.kind.name()),
                ("id", &child.id),
                ("title", &child.title),
                ("started", &child.started),
            ]);
            strings.extend(child.after.map(|after| ("k", after.k)));
            strings.extend(child.href.as_deref().map(|href| ("href", href)));
        }
        for compression in &self.compressions {
            strings.extend(compression.strings());
        }
        for link in &self.links {
            strings.push(("label", &link.label));
            strings.push(("href", &link.href));
        }
        strings
    }
}

impl Item {
    /// The item's strings, each under its key.
    pub(super) fn strings(&self) -> Vec<(&'static str, &str)> {
        match self {
            Item::Message {
                role,
                at,
                text,
                images,
                ..
            } => {
                // An image's data is not text; what is said of it is.
                let mut strings = vec![("role", role.as_str()), ("at", at), ("text", text)];
                strings.extend(
                    images
                        .iter()
                        .filter_map(|p| Some(("note", p.note.as_deref()?))),
                );
                strings
            }
            Item::Tool {
                name,
                at,
                digest,
                status,
                args,
                result,
                diff,
                ..
            } => {
                let mut strings = vec![
                    ("name", name.as_str()),
                    ("at", at),
                    ("digest", digest),
                    ("status", status),
                    ("args", args),
                    ("result", result),
                ];
                strings.extend(diff.as_deref().map(|diff| ("diff", diff)));
                strings
            }
        }
    }

    /// A person's name for the record: `message 12`, `tool call 3 (Bash)`.
    pub(super) fn place(&self) -> String {
        match self {
            Item::Message { n, .. } => format!("message {n}"),
            Item::Tool { n, name, .. } => format!("tool call {n} ({name})"),
        }
    }
}

/// The records grouped into turns: a new turn at each user prompt. The
/// records, independent, are made on every core.
fn turns(loaded: &Loaded) -> Vec<Turn> {
    let s = &loaded.session;
    let items = crate::threads::parallel_map(&loaded.order, |place| match *place {
        Place::Message(n) => message(n, &s.messages[n]),
        Place::ToolCall(n) => tool(n, &s.tool_calls[n]),
    });
    let mut turns: Vec<Turn> = Vec::new();
    let mut image_bytes = 0;
    for ((place, tokens), mut item) in loaded.order.iter().zip(&loaded.tokens).zip(items) {
        if let Item::Message { images, .. } = &mut item {
            cap_images(images, &mut image_bytes);
        }
        let prompt = matches!(*place, Place::Message(n)
            if s.messages[n].role() == "user" && !s.messages[n].is_tool_result());
        if prompt || turns.is_empty() {
            turns.push(Turn::default());
        }
        if let Some(turn) = turns.last_mut() {
            if let Some(tokens) = tokens {
                turn.tokens = Some(turn.tokens.unwrap_or(0).saturating_add(*tokens));
            }
            turn.items.push(item);
        }
    }
    turns
}

/// Names, instead of showing, each image past the page's
/// [`PAGE_IMAGE_BYTES`] (`shown`: the bytes shown so far).
fn cap_images(images: &mut [Picture], shown: &mut usize) {
    for picture in images.iter_mut().filter(|p| p.data.is_some()) {
        if *shown + picture.bytes > PAGE_IMAGE_BYTES {
            picture.data = None;
            picture.note = Some(format!(
                "[image: {}, {} bytes, not shown: the page holds {} MB of images already]",
                picture.mime,
                picture.bytes,
                PAGE_IMAGE_BYTES >> 20
            ));
        } else {
            *shown += picture.bytes;
        }
    }
}

fn message(n: usize, m: &Message) -> Item {
    let mut text = String::new();
    let mut images = Vec::new();
    for part in m.parts() {
        if part.get("type").and_then(Value::as_str) == Some("image") && part.get("text").is_none() {
            images.push(Picture::of(part));
            continue;
        }
        if !text.is_empty() {
            text.push_str("\n\n");
        }
        match part.get("text").and_then(Value::as_str) {
            Some(part) => text.push_str(part.trim_end()),
            None => text.push_str(&pretty(part)),
        }
    }
    Item::Message {
        n,
        role: shown_line(m.role()).into_owned(),
        at: shown_line(m.timestamp()).into_owned(),
        text: shown(&text),
        images,
    }
}

fn tool(n: usize, call: &ToolCall) -> Item {
    let record = call.as_map();
    let result = call.llm_content();
    let mut shown_result = shown(result);
    if let Some(display) = call.return_display()
        && display != result
    {
        shown_result.push_str("\n\n");
        shown_result.push_str(&shown(display));
    }
    let status = match record.get("status").and_then(Value::as_str) {
        Some(status) => status.to_string(),
        None if record
            .get("result")
            .and_then(|r| r.get("error"))
            .is_some_and(|e| !e.is_null()) =>
        {
            "error".to_string()
        }
        None => "ok".to_string(),
    };
    let ms = ["durationMs", "duration_ms"].iter().find_map(|key| {
        record
            .get(*key)
            .or_else(|| record.get("result").and_then(|r| r.get(*key)))
            .and_then(Value::as_u64)
    });
    Item::Tool {
        n,
        name: shown_line(call.name()).into_owned(),
        at: shown_line(call.timestamp()).into_owned(),
        digest: digest(call.args()),
        status: shown_line(&status).into_owned(),
        ms,
        size: result.len(),
        args: shown(&pretty(call.args())),
        result: shown_result,
        diff: diff::of(call.name(), call.args()).map(|d| shown(&d)),
    }
}

/// One line saying what a call was asked to do: the argument a person
/// looks for first (a command, a path, a pattern), else the first text.
fn digest(args: &Value) -> String {
    const FIRST: [&str; 12] = [
        "command",
        "cmd",
        "file_path",
        "filePath",
        "path",
        "pattern",
        "url",
        "query",
        "description",
        "prompt",
        "skill",
        "input",
    ];
    let text = FIRST
        .iter()
        .find_map(|key| args.get(*key))
        .or_else(|| match args {
            Value::Object(map) => map.values().find(|v| v.is_string()),
            _ => None,
        })
        .map(|value| match value {
            Value::String(text) => text.clone(),
            Value::Array(items) => items
                .iter()
                .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string))
                .collect::<Vec<_>>()
                .join(" "),
            other => other.to_string(),
        })
        .unwrap_or_default();
    let one_line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut cut: String = one_line.chars().take(DIGEST_CHARS).collect();
    if cut.len() < one_line.len() {
        cut.push('…');
    }
    shown_line(&cut).into_owned()
}

fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default()
}

/// Text as a person is shown it: control characters, bidi controls and
/// lone surrogates' stand-ins made visible (as the terminal views do).
fn shown(text: &str) -> String {
    escape_text(text).into_owned()
}

fn shown_line(text: &str) -> std::borrow::Cow<'_, str> {
    escape_line(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn call(value: Value) -> ToolCall {
        serde_json::from_value(value).unwrap()
    }

    #[test]
    fn a_tool_line_digests_its_arguments_with_escapes_visible() {
        let c = call(json!({"id": "1", "name": "Bash", "timestamp": "t",
            "args": {"description": "d", "command": "echo \u{1b}]0;pwned\u{7}\n  hi"},
            "result": {"llmContent": "out\u{202e}put"}, "status": "error"}));
        let Item::Tool {
            digest,
            status,
            result,
            size,
            ..
        } = tool(0, &c)
        else {
            panic!("a tool item");
        };
        assert_eq!(digest, "echo \\x1b]0;pwned\\x07 hi");
        assert_eq!(status, "error");
        assert_eq!(result, "out\\u{202e}put");
        assert_eq!(size, "out\u{202e}put".len());
    }

    #[test]
    fn images_are_carried_checked_and_past_the_page_cap_only_named() {
        const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
        let m: Message = serde_json::from_value(json!({"role": "user", "timestamp": "t",
            "parts": [{"type": "text", "text": "see"},
                      {"type": "image", "mimeType": "image/png", "data": PNG},
                      {"type": "image", "mimeType": "image/gif", "data": PNG}]}))
        .unwrap();
        let Item::Message {
            text, mut images, ..
        } = message(0, &m)
        else {
            panic!("a message item");
        };
        assert_eq!(text, "see", "no image data in the text");
        assert_eq!(images[0].mime, "image/png");
        assert_eq!(images[0].data.as_deref(), Some(PNG));
        assert_eq!(images[1].data, None, "a PNG labelled GIF is not shown");
        assert!(images[1].note.is_some());
        let mut shown = PAGE_IMAGE_BYTES - images[0].bytes + 1;
        cap_images(&mut images, &mut shown);
        assert_eq!(images[0].data, None);
        assert!(
            images[0].note.as_deref().unwrap().contains("not shown"),
            "{:?}",
            images[0].note
        );
    }

    #[test]
    fn a_long_digest_is_cut_with_an_ellipsis() {
        let long = "x".repeat(300);
        let d = digest(&json!({"path": long}));
        assert_eq!(d.chars().count(), DIGEST_CHARS + 1);
        assert!(d.ends_with('…'));
    }
}
