//! `ollm-compress count`: the tokens of a history, in total and per item.

use clap::Args;
use serde::Serialize;
use serde_json::Value;

use super::input::{self, InputArgs};
use crate::cli::Ctx;
use crate::compress::history::ItemKind;
use crate::compress::tokens::{MESSAGE_OVERHEAD, count_items};
use crate::error::{ExitCode, Result};

#[derive(Debug, Clone, Default, Args)]
pub(crate) struct CountArgs {
    #[command(flatten)]
    pub input: InputArgs,
}

/// The counts `count` prints.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[schemars(transform = crate::schema::skipped_when_none)]
#[schemars(rename = "TokenCount")]
#[serde(rename_all = "camelCase")]
pub(crate) struct CountReport<'a> {
    pub tokenizer: &'a str,
    pub tokenizer_error: Option<&'a str>,
    pub total: u64,
    pub message_overhead: u64,
    pub messages: Vec<MessageCount<'a>>,
    /// Only when the input has tool calls.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_calls: Option<Vec<ToolCallCount<'a>>>,
}

#[derive(Debug, Serialize, schemars::JsonSchema)]
pub(crate) struct MessageCount<'a> {
    pub index: usize,
    pub role: &'a str,
    pub tokens: u64,
}

#[derive(Debug, Serialize, schemars::JsonSchema)]
pub(crate) struct ToolCallCount<'a> {
    pub index: usize,
    pub id: Option<&'a Value>,
    pub name: Option<&'a Value>,
    pub tokens: u64,
}

pub(crate) fn run(ctx: &Ctx, args: &CountArgs) -> Result<ExitCode> {
    let tokenizer = input::tokenizer(ctx)?;
    let history = input::read_history(ctx, &args.input, "count")?;
    let counts = count_items(&tokenizer, &history.items)?;
    let mut messages = Vec::new();
    let mut calls = Vec::new();
    for (item, tokens) in history.items.iter().zip(&counts.per_item) {
        match &item.kind {
            ItemKind::Message { index, role } => messages.push(MessageCount {
                index: *index,
                role,
                tokens: *tokens,
            }),
            ItemKind::ToolCall { index } => calls.push(ToolCallCount {
                index: *index,
                id: item.value.get("id"),
                name: item.value.get("name"),
                tokens: *tokens,
            }),
        }
    }
    ctx.printer.object(&CountReport {
        tokenizer: &counts.tokenizer,
        tokenizer_error: counts.tokenizer_error.as_deref(),
        total: counts.total,
        message_overhead: MESSAGE_OVERHEAD,
        messages,
        tool_calls: history.has_tool_calls.then_some(calls),
    })?;
    Ok(ExitCode::Success)
}
