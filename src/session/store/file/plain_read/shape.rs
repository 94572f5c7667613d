//! The records of a CLI-format document checked as the full read checks
//! them ([`Message`] and [`ToolCall`]'s `TryFrom` of a JSON object), by
//! visitors that build no map: a first index build checks every message
//! of every session, and a search every message of each session it reads,
//! and building each message's map was most of that work.
//!
//! Each visitor refuses at least what the full read refuses: a value that
//! is not an object, a required field missing or of another type, a number
//! `serde_json::Value` cannot hold ([`AnyValue`]). It also refuses a field
//! given twice (the full read lets the last one win): the caller then
//! reads the document in full, which decides.
//!
//! [`Message`]: crate::session::model::Message
//! [`ToolCall`]: crate::session::model::ToolCall

use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

/// Any JSON value, parsed as `serde_json::Value` parses it and not kept.
/// (`serde::de::IgnoredAny` lets through a number out of an `f64`'s range,
/// which `Value` refuses.)
pub(super) struct AnyValue;

impl<'de> Deserialize<'de> for AnyValue {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(AnyVisitor)
    }
}

struct AnyVisitor;

impl<'de> Visitor<'de> for AnyVisitor {
    type Value = AnyValue;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<AnyValue, E> {
        Ok(AnyValue)
    }

    fn visit_i64<E>(self, _: i64) -> Result<AnyValue, E> {
        Ok(AnyValue)
    }

    fn visit_u64<E>(self, _: u64) -> Result<AnyValue, E> {
        Ok(AnyValue)
    }

    fn visit_f64<E>(self, _: f64) -> Result<AnyValue, E> {
        Ok(AnyValue)
    }

    fn visit_str<E>(self, _: &str) -> Result<AnyValue, E> {
        Ok(AnyValue)
    }

    fn visit_unit<E>(self) -> Result<AnyValue, E> {
        Ok(AnyValue)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<AnyValue, A::Error> {
        while seq.next_element::<AnyValue>()?.is_some() {}
        Ok(AnyValue)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<AnyValue, A::Error> {
        while map.next_key::<AnyValue>()?.is_some() {
            map.next_value::<AnyValue>()?;
        }
        Ok(AnyValue)
    }
}

/// The fields of an object other than those named, each any JSON value
/// (a document's fields the spec does not name).
#[derive(Default)]
pub(super) struct AnyFields;

impl<'de> Deserialize<'de> for AnyFields {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(AnyVisitor).map(|_| AnyFields)
    }
}

/// A JSON string, borrowed from the text when it holds no escape.
pub(super) struct Text<'de>(pub Cow<'de, str>);

impl<'de> Deserialize<'de> for Text<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_str(TextVisitor)
    }
}

struct TextVisitor;

impl<'de> Visitor<'de> for TextVisitor {
    type Value = Text<'de>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a string")
    }

    fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Text<'de>, E> {
        Ok(Text(Cow::Borrowed(s)))
    }

    fn visit_str<E>(self, s: &str) -> Result<Text<'de>, E> {
        Ok(Text(Cow::Owned(s.to_string())))
    }
}

/// A JSON array of any values.
struct AnyArray;

impl<'de> Deserialize<'de> for AnyArray {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_seq(AnyVisitor).map(|_| AnyArray)
    }
}

/// How many elements a JSON array holds, each checked as `T`.
pub(super) struct Count<T>(pub u64, PhantomData<T>);

impl<T> Default for Count<T> {
    fn default() -> Self {
        Count(0, PhantomData)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Count<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct CountVisitor<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for CountVisitor<T> {
            type Value = Count<T>;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an array")
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Count<T>, A::Error> {
                let mut n = 0;
                while seq.next_element::<T>()?.is_some() {
                    n += 1;
                }
                Ok(Count(n, PhantomData))
            }
        }
        d.deserialize_seq(CountVisitor(PhantomData))
    }
}

/// Sets `slot` to `value`, refusing a field given twice.
fn once<T, E: de::Error>(slot: &mut Option<T>, value: T, name: &'static str) -> Result<(), E> {
    if slot.is_some() {
        return Err(E::duplicate_field(name));
    }
    *slot = Some(value);
    Ok(())
}

fn required<T, E: de::Error>(slot: Option<T>, name: &'static str) -> Result<T, E> {
    slot.ok_or_else(|| E::missing_field(name))
}

/// A message's `role`, `parts` (read as `P`) and `timestamp`, its other
/// fields any values.
fn message_fields<'de, A: MapAccess<'de>, P: Deserialize<'de>>(
    mut map: A,
) -> Result<(Text<'de>, P, Text<'de>), A::Error> {
    let (mut role, mut parts, mut timestamp) = (None, None, None);
    while let Some(key) = map.next_key::<Text<'de>>()? {
        match key.0.as_ref() {
            "role" => once(&mut role, map.next_value()?, "role")?,
            "parts" => once(&mut parts, map.next_value()?, "parts")?,
            "timestamp" => once(&mut timestamp, map.next_value()?, "timestamp")?,
            _ => {
                map.next_value::<AnyValue>()?;
            }
        }
    }
    Ok((
        required(role, "role")?,
        required(parts, "parts")?,
        required(timestamp, "timestamp")?,
    ))
}

/// A message checked, not kept (what a summary counts).
pub(super) struct MessageCheck;

impl<'de> Deserialize<'de> for MessageCheck {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = MessageCheck;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a message")
            }

            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<MessageCheck, A::Error> {
                message_fields::<A, AnyArray>(map).map(|_| MessageCheck)
            }
        }
        d.deserialize_map(V)
    }
}

/// What a search checks in a message: its role, time and the text it is
/// searched in when that is one part's `text` (or nothing, for no part);
/// `text` is `None` for any other message, which the caller reads whole.
pub(crate) struct MessageView<'de> {
    pub role: Cow<'de, str>,
    pub timestamp: Cow<'de, str>,
    pub text: Option<Cow<'de, str>>,
}

impl<'de> Deserialize<'de> for MessageView<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = MessageView<'de>;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a message")
            }

            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<MessageView<'de>, A::Error> {
                let (role, parts, timestamp) = message_fields::<A, PartsText<'de>>(map)?;
                Ok(MessageView {
                    role: role.0,
                    timestamp: timestamp.0,
                    text: parts.0,
                })
            }
        }
        d.deserialize_map(V)
    }
}

/// The text of a message's parts as a search takes it, when that is
/// simple: `""` for no part, the string `text` of a single part.
struct PartsText<'de>(Option<Cow<'de, str>>);

impl<'de> Deserialize<'de> for PartsText<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = PartsText<'de>;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an array")
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<PartsText<'de>, A::Error> {
                let Some(first) = seq.next_element::<PartText<'de>>()? else {
                    return Ok(PartsText(Some(Cow::Borrowed(""))));
                };
                if seq.next_element::<AnyValue>()?.is_none() {
                    return Ok(PartsText(first.0));
                }
                while seq.next_element::<AnyValue>()?.is_some() {}
                Ok(PartsText(None))
            }
        }
        d.deserialize_seq(V)
    }
}

/// A part: its `text` when it is an object whose one `text` field is a
/// string; any other JSON value gives `None`.
struct PartText<'de>(Option<Cow<'de, str>>);

impl<'de> Deserialize<'de> for PartText<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(PartVisitor { field: false })
    }
}

/// [`PartText`]'s visitor (`field`: of the `text` field in a part, whose
/// string is kept; a part that is itself a string is not a text part).
struct PartVisitor {
    field: bool,
}

impl<'de> de::DeserializeSeed<'de> for PartVisitor {
    type Value = PartText<'de>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<PartText<'de>, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for PartVisitor {
    type Value = PartText<'de>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<PartText<'de>, E> {
        Ok(PartText(None))
    }

    fn visit_i64<E>(self, _: i64) -> Result<PartText<'de>, E> {
        Ok(PartText(None))
    }

    fn visit_u64<E>(self, _: u64) -> Result<PartText<'de>, E> {
        Ok(PartText(None))
    }

    fn visit_f64<E>(self, _: f64) -> Result<PartText<'de>, E> {
        Ok(PartText(None))
    }

    fn visit_borrowed_str<E>(self, s: &'de str) -> Result<PartText<'de>, E> {
        Ok(PartText(self.field.then_some(Cow::Borrowed(s))))
    }

    fn visit_str<E>(self, s: &str) -> Result<PartText<'de>, E> {
        Ok(PartText(self.field.then(|| Cow::Owned(s.to_string()))))
    }

    fn visit_unit<E>(self) -> Result<PartText<'de>, E> {
        Ok(PartText(None))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<PartText<'de>, A::Error> {
        AnyVisitor.visit_seq(seq).map(|_| PartText(None))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<PartText<'de>, A::Error> {
        let mut text: Option<PartText<'de>> = None;
        let mut twice = false;
        while let Some(key) = map.next_key::<Text<'de>>()? {
            if key.0 == "text" && !self.field {
                twice |= text.is_some();
                text = Some(map.next_value_seed(PartVisitor { field: true })?);
            } else {
                map.next_value::<AnyValue>()?;
            }
        }
        Ok(PartText(if twice || self.field {
            None
        } else {
            text.and_then(|t| t.0)
        }))
    }
}

/// A tool call checked, not kept (what a summary counts).
pub(super) struct ToolCallCheck;

impl<'de> Deserialize<'de> for ToolCallCheck {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = ToolCallCheck;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a tool call")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ToolCallCheck, A::Error> {
                let (mut id, mut name, mut args, mut result, mut timestamp) =
                    (None, None, None, None, None);
                while let Some(key) = map.next_key::<Text<'de>>()? {
                    match key.0.as_ref() {
                        "id" => once(&mut id, map.next_value::<Text<'de>>()?, "id")?,
                        "name" => once(&mut name, map.next_value::<Text<'de>>()?, "name")?,
                        "args" => once(&mut args, map.next_value::<AnyValue>()?, "args")?,
                        "result" => once(&mut result, map.next_value::<ResultCheck>()?, "result")?,
                        "timestamp" => {
                            once(&mut timestamp, map.next_value::<Text<'de>>()?, "timestamp")?;
                        }
                        _ => {
                            map.next_value::<AnyValue>()?;
                        }
                    }
                }
                required(id, "id")?;
                required(name, "name")?;
                required(args, "args")?;
                required(result, "result")?;
                required(timestamp, "timestamp")?;
                Ok(ToolCallCheck)
            }
        }
        d.deserialize_map(V)
    }
}

/// A tool call's `result`: an object with a string `llmContent` and a
/// `returnDisplay`, when there is one, a string or null.
struct ResultCheck;

impl<'de> Deserialize<'de> for ResultCheck {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = ResultCheck;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a tool call's result")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ResultCheck, A::Error> {
                let (mut content, mut display) = (None, None);
                while let Some(key) = map.next_key::<Text<'de>>()? {
                    match key.0.as_ref() {
                        "llmContent" => {
                            once(&mut content, map.next_value::<Text<'de>>()?, "llmContent")?;
                        }
                        "returnDisplay" => once(
                            &mut display,
                            map.next_value::<Option<Text<'de>>>()?,
                            "returnDisplay",
                        )?,
                        _ => {
                            map.next_value::<AnyValue>()?;
                        }
                    }
                }
                required(content, "llmContent")?;
                Ok(ResultCheck)
            }
        }
        d.deserialize_map(V)
    }
}
