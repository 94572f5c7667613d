//! The shapes of a Claude Code transcript line, deserialized without
//! building a `serde_json::Value`: strings borrow from the line where they
//! can, what is not needed is skipped by serde without being kept, and a
//! field of an unexpected JSON type reads as absent instead of making the
//! whole line unreadable (the format has changed many times).

use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

use serde::Deserialize;
use serde::de::value::{MapAccessDeserializer, SeqAccessDeserializer};
use serde::de::{Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

/// Visitor methods for JSON values a lenient field does not take: the
/// value is consumed and the field reads as absent.
macro_rules! numbers_and_null_are_none {
    () => {
        fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
            Ok(Default::default())
        }
        fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
            Ok(Default::default())
        }
        fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
            Ok(Default::default())
        }
        fn visit_unit<E>(self) -> Result<Self::Value, E> {
            Ok(Default::default())
        }
        fn visit_none<E>(self) -> Result<Self::Value, E> {
            Ok(Default::default())
        }
    };
}

macro_rules! bools_are_none {
    () => {
        fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
            Ok(Default::default())
        }
    };
}

macro_rules! containers_are_none {
    () => {
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            while seq.next_element::<IgnoredAny>()?.is_some() {}
            Ok(Default::default())
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
            Ok(Default::default())
        }
    };
}

/// A string field; anything else (null, a number, an object) is `None`.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Text<'a>(pub Option<Cow<'a, str>>);

impl<'a> Text<'a> {
    pub fn as_str(&self) -> Option<&str> {
        self.0.as_deref()
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Text<'a> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct V<'a>(PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for V<'a> {
            type Value = Text<'a>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(Text(Some(Cow::Borrowed(v))))
            }
            fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
                Ok(Text(Some(Cow::Owned(v.to_owned()))))
            }
            fn visit_string<E>(self, v: String) -> Result<Self::Value, E> {
                Ok(Text(Some(Cow::Owned(v))))
            }
            numbers_and_null_are_none!();
            bools_are_none!();
            containers_are_none!();
        }
        deserializer.deserialize_any(V(PhantomData))
    }
}

/// A boolean field; anything else is `false`.
#[derive(Debug, Default, Clone, Copy, PartialEq)]
pub struct Flag(pub bool);

impl<'de> Deserialize<'de> for Flag {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Flag;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_bool<E>(self, v: bool) -> Result<Self::Value, E> {
                Ok(Flag(v))
            }
            fn visit_borrowed_str<E>(self, _: &'de str) -> Result<Self::Value, E> {
                Ok(Flag(false))
            }
            fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
                Ok(Flag(false))
            }
            numbers_and_null_are_none!();
            containers_are_none!();
        }
        deserializer.deserialize_any(V)
    }
}

/// An object field read as `T`; anything else is `None`.
#[derive(Debug, Clone, PartialEq)]
pub struct Obj<T>(pub Option<T>);

impl<T> Default for Obj<T> {
    fn default() -> Self {
        Obj(None)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Obj<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct V<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = Obj<T>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
                T::deserialize(MapAccessDeserializer::new(map)).map(|v| Obj(Some(v)))
            }
            fn visit_borrowed_str<E>(self, _: &'de str) -> Result<Self::Value, E> {
                Ok(Obj(None))
            }
            fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
                Ok(Obj(None))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Obj(None))
            }
            numbers_and_null_are_none!();
            bools_are_none!();
        }
        deserializer.deserialize_any(V(PhantomData))
    }
}

/// A field that is a string or a list of `T` (message content, a tool
/// result's content); anything else is [`Content::Other`].
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Content<'a, T> {
    Text(Cow<'a, str>),
    List(Vec<T>),
    #[default]
    Other,
}

impl<'de: 'a, 'a, T: Deserialize<'de>> Deserialize<'de> for Content<'a, T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct V<'a, T>(PhantomData<(&'a (), T)>);
        impl<'de: 'a, 'a, T: Deserialize<'de>> Visitor<'de> for V<'a, T> {
            type Value = Content<'a, T>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(Content::Text(Cow::Borrowed(v)))
            }
            fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
                Ok(Content::Text(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E>(self, v: String) -> Result<Self::Value, E> {
                Ok(Content::Text(Cow::Owned(v)))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
                Vec::<T>::deserialize(SeqAccessDeserializer::new(seq)).map(Content::List)
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(Content::Other)
            }
            numbers_and_null_are_none!();
            bools_are_none!();
        }
        deserializer.deserialize_any(V(PhantomData))
    }
}

/// What the first pass keeps of a line: enough to place it in the
/// `parentUuid` tree and to find the session's title.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Head<'a> {
    #[serde(rename = "type", borrow)]
    pub kind: Text<'a>,
    #[serde(borrow)]
    pub uuid: Text<'a>,
    #[serde(borrow)]
    pub parent_uuid: Text<'a>,
    #[serde(borrow)]
    pub logical_parent_uuid: Text<'a>,
    pub is_sidechain: Flag,
    #[serde(borrow)]
    pub session_id: Text<'a>,
    #[serde(borrow)]
    pub agent_id: Text<'a>,
    #[serde(borrow)]
    pub timestamp: Text<'a>,
    #[serde(borrow)]
    pub subtype: Text<'a>,
    #[serde(borrow)]
    pub message: Obj<HeadMessage<'a>>,
    /// `custom-title` lines.
    #[serde(borrow)]
    pub custom_title: Text<'a>,
    /// `ai-title` lines (newer versions name a session themselves).
    #[serde(borrow)]
    pub ai_title: Text<'a>,
    /// `summary` lines.
    #[serde(borrow)]
    pub summary: Text<'a>,
    #[serde(borrow)]
    pub leaf_uuid: Text<'a>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct HeadMessage<'a> {
    #[serde(borrow)]
    pub id: Text<'a>,
    #[serde(borrow)]
    pub content: Content<'a, Obj<HeadBlock<'a>>>,
}

/// A content block as the first pass sees it: which tool calls and results
/// a line holds.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct HeadBlock<'a> {
    #[serde(rename = "type", borrow)]
    pub kind: Text<'a>,
    #[serde(borrow)]
    pub id: Text<'a>,
    #[serde(borrow)]
    pub tool_use_id: Text<'a>,
}

/// A line on the conversation's path, read again in full.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Entry<'a> {
    #[serde(rename = "type", borrow)]
    pub kind: Text<'a>,
    #[serde(borrow)]
    pub uuid: Text<'a>,
    #[serde(borrow)]
    pub timestamp: Text<'a>,
    #[serde(borrow)]
    pub cwd: Text<'a>,
    #[serde(borrow)]
    pub subtype: Text<'a>,
    /// A `system` line's text (`local_command` output).
    #[serde(borrow)]
    pub content: Text<'a>,
    pub is_meta: Flag,
    pub is_compact_summary: Flag,
    #[serde(borrow)]
    pub message: Obj<Message<'a>>,
    /// The tool's own record of a result; only a plain string is used (when
    /// the `tool_result` block has no text).
    #[serde(borrow)]
    pub tool_use_result: Text<'a>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Message<'a> {
    #[serde(borrow)]
    pub id: Text<'a>,
    #[serde(borrow)]
    pub model: Text<'a>,
    #[serde(borrow)]
    pub content: Content<'a, Obj<Block<'a>>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Block<'a> {
    #[serde(rename = "type", borrow)]
    pub kind: Text<'a>,
    #[serde(borrow)]
    pub text: Text<'a>,
    #[serde(borrow)]
    pub id: Text<'a>,
    #[serde(borrow)]
    pub name: Text<'a>,
    pub input: Option<Value>,
    #[serde(borrow)]
    pub tool_use_id: Text<'a>,
    #[serde(borrow)]
    pub content: Content<'a, Obj<Part<'a>>>,
    pub is_error: Flag,
    /// An image block's `{type: "base64", media_type, data}` or
    /// `{type: "url", url}`.
    pub source: Option<Value>,
}

/// A block of a tool result's content (text; images are not imported).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Part<'a> {
    #[serde(rename = "type", borrow)]
    pub kind: Text<'a>,
    #[serde(borrow)]
    pub text: Text<'a>,
}

/// Enough of a line to tell whether it is Claude Code's.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Sniff<'a> {
    #[serde(rename = "type", borrow)]
    kind: Text<'a>,
    #[serde(borrow)]
    uuid: Text<'a>,
    #[serde(borrow)]
    session_id: Text<'a>,
    #[serde(borrow)]
    leaf_uuid: Text<'a>,
    #[serde(borrow)]
    message_id: Text<'a>,
}

impl Sniff<'_> {
    pub fn is_claude(&self) -> bool {
        let has = |t: &Text<'_>| t.as_str().is_some_and(|s| !s.is_empty());
        match self.kind.as_str() {
            Some("user" | "assistant" | "system" | "attachment" | "progress") => {
                has(&self.uuid) && has(&self.session_id)
            }
            Some("summary") => has(&self.leaf_uuid),
            Some("file-history-snapshot") => has(&self.message_id),
            Some(
                "custom-title" | "ai-title" | "queue-operation" | "last-prompt" | "tag"
                | "agent-name" | "mode" | "worktree-state" | "pr-link",
            ) => has(&self.session_id),
            _ => false,
        }
    }
}

/// The uuid and parent of a `progress` line, read without parsing it: a
/// progress line is mostly its `data` (a tool's output so far, a
/// subagent's whole messages), and all the tree needs is two ids. Claude
/// Code writes `parentUuid` first and `type` before `data`; a line shaped
/// otherwise (or not a progress line) gives `None` and is parsed in full.
pub fn progress_link(bytes: &[u8]) -> Option<(&str, Option<&str>)> {
    const PARENT: &[u8] = b"{\"parentUuid\":";
    const KIND: &[u8] = b"\"type\":\"progress\"";
    const UUID: &[u8] = b"\"uuid\":\"";
    let rest = bytes.strip_prefix(PARENT)?;
    if bytes.last() != Some(&b'}') {
        return None;
    }
    // `"type":"…"` can only be a key (a quote inside a string is escaped);
    // with no object or array opened before it, it is the line's own.
    let kind = memchr::memmem::find(bytes, b"\"type\":\"")?;
    if !bytes[kind..].starts_with(KIND) || memchr::memchr2(b'{', b'[', &bytes[1..kind]).is_some() {
        return None;
    }
    let parent = if rest.starts_with(b"null") {
        None
    } else {
        Some(plain_string(rest.strip_prefix(b"\"")?)?)
    };
    // The first `"uuid":"` with nothing opened before it, or the last with
    // nothing nested after it, is the line's own.
    let first = memchr::memmem::find(bytes, UUID)?;
    if memchr::memchr2(b'{', b'[', &bytes[1..first]).is_none() {
        return Some((plain_string(&bytes[first + UUID.len()..])?, parent));
    }
    let at = memchr::memmem::rfind(bytes, UUID)? + UUID.len();
    let uuid = plain_string(&bytes[at..])?;
    let after = &bytes[at + uuid.len()..bytes.len() - 1];
    if memchr::memchr3(b'{', b'}', b'[', after).is_some() || memchr::memchr(b']', after).is_some() {
        return None;
    }
    Some((uuid, parent))
}

/// The string up to the next quote, when it holds no escape.
fn plain_string(bytes: &[u8]) -> Option<&str> {
    let end = memchr::memchr2(b'"', b'\\', bytes)?;
    if bytes[end] != b'"' {
        return None;
    }
    std::str::from_utf8(&bytes[..end]).ok()
}
