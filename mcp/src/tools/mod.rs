//! The tools: their definitions for `tools/list` and the call of each.
//! A tool is a plain (blocking) function of its arguments and the effective
//! configuration, over the library's services; what it returns or fails
//! with goes through [`crate::safe`].

#[cfg(test)]
mod answer_schemas;
mod sessions;
mod workspace;
mod write;

pub use sessions::session_uri;

use std::borrow::Cow;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use ollm::config::{LoadOptions, Loaded};
use ollm::error::{Error, Result};
use rmcp::handler::server::tool::{schema_for_input, schema_for_output};
use rmcp::model::{CallToolResult, JsonObject, Tool, ToolAnnotations};
use schemars::JsonSchema;
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::safe::{self, Cleaner};
use crate::schema::{
    AddContextArgs, ContextAdded, ContextResult, DiscoverFilesArgs, FileList, GetContextArgs,
    GetSessionArgs, ListSessionsArgs, RecordMessageArgs, Recorded, SearchResult,
    SearchSessionsArgs, SessionList, SessionPage,
};

/// What every call needs: `--config`, read again on each call so that an
/// edited configuration applies without a restart.
#[derive(Debug, Clone)]
pub struct Env {
    pub config_file: Option<PathBuf>,
}

impl Env {
    pub fn config(&self) -> Result<Loaded> {
        ollm::config::load(&LoadOptions {
            config_file: self.config_file.clone(),
            ..LoadOptions::default()
        })
    }
}

/// The tools offered: the reading ones always, the writing ones with
/// `--allow-write`.
pub fn definitions(allow_write: bool) -> Vec<Tool> {
    let mut tools = vec![
        read::<ListSessionsArgs, SessionList>(
            "list_sessions",
            format!(
                "List recorded sessions (this agent's and those imported from {}), newest first: id, title, times, model, counts, workspace. Filter by workspace, since and model.",
                ollm::session::import::listed()
            ),
        ),
        read::<SearchSessionsArgs, SearchResult>(
            "search_sessions",
            "Search every session's titles, messages and tool calls for text or a regular expression; each hit gives the session id, message index, role, time and a snippet. Use get_session to read around a hit.",
        ),
        read::<GetSessionArgs, SessionPage>(
            "get_session",
            "Read a session (by id, id prefix, title, or the latest) as messages, or with toolCalls as its tool calls (a search hit's toolCallIndex), optionally a range of them, in pages that fit a token budget; pass nextCursor back as cursor for the next page.",
        ),
        read::<GetContextArgs, ContextResult>(
            "get_context",
            "The prioritized context of this workspace (rules, notes, status) as `ollm context prompt` renders it for a system prompt, and its entries.",
        ),
        read::<DiscoverFilesArgs, FileList>(
            "discover_files",
            "List the project's files as git sees them (.gitignore, .ollmignore and built-in ignores applied), filtered by globs and depth, sorted by path.",
        ),
    ];
    if allow_write {
        tools.push(
            tool::<RecordMessageArgs, Recorded>(
                "record_message",
                "Record a message (user, assistant or system) into a session; credentials in it are redacted before it is stored.",
            )
            .annotate(ToolAnnotations::new().read_only(false).destructive(false)),
        );
        tools.push(
            tool::<AddContextArgs, ContextAdded>(
                "add_context",
                "Add (or replace) an entry of this workspace's context, with a priority and an optional time to live.",
            )
            .annotate(ToolAnnotations::new().read_only(false).destructive(false)),
        );
    }
    tools
}

fn tool<A: JsonSchema + 'static, R: JsonSchema + 'static>(
    name: &'static str,
    description: impl Into<Cow<'static, str>>,
) -> Tool {
    let input: Arc<JsonObject> = schema_for_input::<A>().unwrap_or_default();
    Tool::new(name, description, input).with_raw_output_schema(schema_for_output::<R>())
}

fn read<A: JsonSchema + 'static, R: JsonSchema + 'static>(
    name: &'static str,
    description: impl Into<Cow<'static, str>>,
) -> Tool {
    tool::<A, R>(name, description).annotate(ToolAnnotations::new().read_only(true))
}

static CLEANER: OnceLock<Cleaner> = OnceLock::new();

/// Runs the tool `name`; every failure is a tool error (`isError`), never a
/// protocol error, so the model reads what went wrong.
pub fn call(env: &Env, allow_write: bool, name: &str, args: Option<JsonObject>) -> CallToolResult {
    let args = serde_json::Value::Object(args.unwrap_or_default());
    let loaded = match env.config() {
        Ok(loaded) => loaded,
        Err(err) => return safe::failure(&err),
    };
    let cleaner = CLEANER.get_or_init(|| Cleaner::new(&loaded.config));
    let config = &loaded;
    let result = match name {
        "list_sessions" => run(cleaner, name, args, |a| sessions::list(config, a)),
        "search_sessions" => run(cleaner, name, args, |a| sessions::search(config, a)),
        "get_session" => run(cleaner, name, args, |a| sessions::get(config, cleaner, a)),
        "get_context" => run(cleaner, name, args, |a: GetContextArgs| {
            workspace::context(&a)
        }),
        "discover_files" => run(cleaner, name, args, |a| workspace::discover(config, a)),
        "record_message" | "add_context" if !allow_write => Err(Error::usage(format!(
            "{name} writes: the server was started without --allow-write"
        ))),
        "record_message" => run(cleaner, name, args, |a| write::record_message(config, a)),
        "add_context" => run(cleaner, name, args, write::add_context),
        _ => Err(Error::usage(format!("no tool named '{name}'"))),
    };
    result.unwrap_or_else(|err| safe::failure(&err))
}

/// Parses the arguments (naming the field that is wrong), runs `body` and
/// cleans what it returns.
fn run<A: DeserializeOwned, R: Serialize>(
    cleaner: &Cleaner,
    name: &str,
    args: serde_json::Value,
    body: impl FnOnce(A) -> Result<R>,
) -> Result<CallToolResult> {
    let args: A = serde_path_to_error::deserialize(args).map_err(|err| {
        let path = err.path().to_string();
        let at = if path == "." {
            String::new()
        } else {
            format!(" at {path}")
        };
        Error::input(format!("{name}: bad arguments{at}: {}", err.inner()))
    })?;
    Ok(cleaner.structured(body(args)?))
}
