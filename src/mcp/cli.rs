//! The `ollm-mcp` command line.

use clap::Parser;

use crate::cli::{GlobalOpts, footer};
use crate::config::ConfigArgs;

const EXAMPLES: &str =
    "  ollm-mcp                                 # serve MCP on stdin/stdout (an agent starts it)
  ollm-mcp --allow-write                   # also offer record_message and add_context
  claude mcp add ollm -- ollm mcp
  codex mcp add ollm -- ollm mcp
  ollm-mcp config --show-origin";

/// Serve session history, context and file discovery to an agent over the
/// Model Context Protocol (stdio: one JSON-RPC message a line).
///
/// Tools: list_sessions, search_sessions, get_session (paged under a token
/// budget), get_context, discover_files; record_message and add_context
/// only with --allow-write. Resources: ollm://session/<id>, a session as
/// Markdown. Both protocol generations are spoken: the 2025-11-25
/// `initialize` handshake and the 2026-07-28 revision (`server/discover`,
/// per-request `_meta`). Everything returned is redacted and its control
/// characters made visible; an error is a tool error with one line, and
/// the server goes on. It ends when stdin closes or on SIGTERM.
#[derive(Debug, Parser)]
#[command(
    name = "ollm-mcp",
    version,
    after_help = footer(EXAMPLES),
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalOpts,
    /// Offer the writing tools too: record_message (into a session) and
    /// add_context (into the workspace's context).
    #[arg(long)]
    pub allow_write: bool,
    #[command(subcommand)]
    pub command: Option<Command>,
}

crate::subcommands! {
#[derive(Debug)]
pub enum Command {
    /// Print the effective configuration (JSON), or every key with its origin.
    #[command(after_help = footer("  ollm-mcp config
  ollm-mcp config --show-origin"))]
    Config(ConfigArgs),
}
}
