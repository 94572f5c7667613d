//! The JSON Schemas of [`Message`], [`ToolCall`] and a record ([`Entry`]):
//! written by hand because they are kept as the JSON objects they were
//! given, so serde's derive cannot describe them. The schemas state what
//! the `TryFrom` checks above and `Entry::from_input` demand; other fields
//! are allowed (and kept).

use std::borrow::Cow;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};

use super::{Entry, Message, ROLES, ToolCall};

/// The roles `record` accepts ([`ROLES`]).
struct Role;

impl JsonSchema for Role {
    fn schema_name() -> Cow<'static, str> {
        "Role".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "The roles `record` accepts.",
            "type": "string",
            "enum": ROLES,
        })
    }
}

/// One part of a message's `parts`: `{type: "text", text}` is the common
/// one; `{type: "image", mimeType, data}` an image ([`super::image`]).
struct MessagePart;

impl JsonSchema for MessagePart {
    fn schema_name() -> Cow<'static, str> {
        "MessagePart".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "A part of a message; `{type: \"text\", text}` is the common one, `{type: \"image\", mimeType, data}` an image (PNG, JPEG, GIF or WebP, base64).",
            "type": "object",
            "properties": {
                "type": {"type": "string"},
                "text": {"type": "string"},
                "mimeType": {"type": "string"},
                "data": {"type": "string"},
            },
            "additionalProperties": true,
        })
    }
}

/// A tool call's `result`.
struct ToolResult;

impl JsonSchema for ToolResult {
    fn schema_name() -> Cow<'static, str> {
        "ToolResult".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "object",
            "properties": {
                "llmContent": {"description": "What the model is shown.", "type": "string"},
                "returnDisplay": {
                    "description": "What a person is shown, when different.",
                    "type": ["string", "null"],
                },
            },
            "required": ["llmContent"],
            "additionalProperties": true,
        })
    }
}

impl JsonSchema for Message {
    fn schema_name() -> Cow<'static, str> {
        "Message".into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let role = generator.subschema_for::<Role>();
        let part = generator.subschema_for::<MessagePart>();
        json_schema!({
            "description": "A message of the session format; `record` fills a missing `timestamp`.",
            "type": "object",
            "properties": {
                "role": role,
                "parts": {"type": "array", "items": part},
                "timestamp": {"type": "string"},
            },
            "required": ["role", "parts"],
            "additionalProperties": true,
        })
    }
}

impl JsonSchema for ToolCall {
    fn schema_name() -> Cow<'static, str> {
        "ToolCall".into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let result = generator.subschema_for::<ToolResult>();
        json_schema!({
            "description": "A tool call with its result; `record` fills a missing `timestamp`.",
            "type": "object",
            "properties": {
                "id": {"type": "string"},
                "name": {"type": "string"},
                "args": {"type": "object", "additionalProperties": true},
                "result": result,
                "timestamp": {"type": "string"},
            },
            "required": ["id", "name", "args", "result"],
            "additionalProperties": true,
        })
    }
}

impl JsonSchema for Entry {
    fn schema_name() -> Cow<'static, str> {
        "Record".into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let message = generator.subschema_for::<Message>();
        let call = generator.subschema_for::<ToolCall>();
        json_schema!({
            "description": "What `record` stores: a message or a tool call.",
            "anyOf": [message, call],
        })
    }
}
