//! The `ollm-session` command line.

use std::io::{BufRead, IsTerminal};
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};
use serde_json::Value;

use super::export;
use super::model::{Entry, Message, SessionSummary, check_id};
use super::search::{self, Query};
use super::snapshot::Snapshots;
use super::store::{NewSession, Problem, Store};
use crate::cli::{GlobalOpts, footer};
use crate::config::{self, ConfigArgs, FlagOverride, LoadOptions};
use crate::error::{Error, ExitCode, Result};
use crate::{diag, io_util, timestamp};

const EXAMPLES: &str = "  id=$(ollm-session create --model llama3.2:3b --provider ollama | jq -r .sessionId)
  ollm-session record \"$id\" --role user --text 'Hello'
  echo '{\"role\":\"assistant\",\"parts\":[{\"type\":\"text\",\"text\":\"Hi!\"}]}' | ollm-session record \"$id\"
  ollm-session list
  ollm-session get --last --messages | ollm-compress
  ollm-session search 'keyword'
  ollm-session export \"$id\" --format markdown --output chat.md
  ollm-session branch \"$id\" --at 4
  ollm sessions cleanup --keep 10";

/// Durable, searchable, branchable session history (the spec's session
/// format), with snapshots.
///
/// Sessions live in services.session.dataDir ($OLLM_HOME/session-data), one
/// directory per session holding an append-only journal; `get` and `export`
/// print the spec's JSON. Output is JSON when piped and a readable table or
/// transcript on a terminal. The command lines of the sessions document
/// work as written: `ollm sessions list|view|export|search|delete|clear
/// --all|cleanup --keep N`.
#[derive(Debug, Parser)]
#[command(name = "ollm-session", version, after_help = footer(EXAMPLES))]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalOpts,
    /// The session data directory (services.session.dataDir).
    #[arg(long, global = true, value_name = "DIR")]
    pub data_dir: Option<PathBuf>,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum Format {
    Json,
    Markdown,
}

#[derive(Debug, Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum ListFormat {
    Json,
    Table,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Create a session; prints {"sessionId": …}. Deletes the oldest
    /// sessions beyond maxSessions (never a locked one).
    #[command(after_help = footer("  ollm-session create --model llama3.1:8b --provider ollama
  ollm-session create --model gpt-4o --provider openai --title 'refactor'"))]
    Create {
        #[arg(long)]
        model: String,
        #[arg(long)]
        provider: String,
        /// A name for the session (additive field `title`).
        #[arg(long)]
        title: Option<String>,
        /// Sessions to keep (services.session.maxSessions; 0: no limit).
        #[arg(long, value_name = "N")]
        max_sessions: Option<u64>,
    },
    /// Record a message or a tool call with its result; one JSON document,
    /// or NDJSON (one record a line, each acknowledged on stdout once it is
    /// on disk). An object with `role` is a message, one with `name` and
    /// `result` a tool call; a missing `timestamp` is now.
    #[command(after_help = footer("  ollm-session record ID --role user --text 'Hello'
  ollm-session record ID --tool read_file --args '{\"path\":\"a.txt\"}' --result 'contents'
  ollm-session record ID < message.json
  ollm-session get OTHER_ID | jq -c '.messages[]' > events.ndjson   # one record a line
  tail -f events.ndjson | ollm-session record ID"))]
    Record(RecordArgs),
    /// Print a whole session as the spec's JSON (a transcript on a terminal).
    #[command(
        visible_aliases = ["view", "resume"],
        after_help = footer("  ollm-session get ID
  ollm-session get --last --messages | ollm-compress
  ollm sessions view ID")
    )]
    Get {
        /// The session id (or --last).
        #[arg(required_unless_present = "last")]
        id: Option<String>,
        /// The most recently active session.
        #[arg(long, conflicts_with = "id")]
        last: bool,
        /// Only the messages (as a JSON array, or without the header and
        /// tool calls in markdown).
        #[arg(long)]
        messages: bool,
        /// json (default when piped) or markdown (default on a terminal).
        #[arg(long, value_enum)]
        format: Option<Format>,
    },
    /// List sessions newest first: sessionId, startTime, lastActivity, model,
    /// messageCount, tokenCount (JSON when piped, a table on a terminal).
    #[command(
        visible_alias = "ls",
        after_help = footer("  ollm-session list --limit 20
  ollm-session list | jq -r '.[].sessionId'")
    )]
    List {
        #[arg(long, value_name = "N")]
        limit: Option<usize>,
        #[arg(long, value_name = "N", default_value_t = 0)]
        offset: usize,
        #[arg(long, value_enum)]
        format: Option<ListFormat>,
        /// List the sessions set aside as corrupt instead: sessionId, path
        /// and format (`journal` or `plain`). `delete ID` removes them.
        #[arg(long, conflicts_with_all = ["limit", "offset"])]
        corrupt: bool,
    },
    /// Search every session's messages and tool calls; each hit gives the
    /// session id, message index, role, timestamp and a snippet.
    #[command(after_help = footer("  ollm-session search 'keyword'
  ollm-session search --regex 'err(or)?s?' --role assistant
  ollm sessions search \"keyword\""))]
    Search {
        pattern: String,
        /// PATTERN is a regular expression (Rust regex syntax).
        #[arg(long, short = 'e')]
        regex: bool,
        #[arg(long, short = 'i')]
        ignore_case: bool,
        /// Only messages of this role (`tool` also matches tool calls).
        #[arg(long)]
        role: Option<String>,
        #[arg(long, value_name = "N")]
        limit: Option<usize>,
        #[arg(long, value_enum)]
        format: Option<ListFormat>,
    },
    /// Export a session as the spec's JSON or a Markdown transcript.
    #[command(after_help = footer("  ollm-session export ID --output chat-history.json
  ollm-session export ID --output chat.md          # Markdown, from the extension
  ollm-session export ID --format markdown > chat.md"))]
    Export {
        id: String,
        /// json, or markdown (default: markdown when --output ends in .md
        /// or .markdown, else json).
        #[arg(long, value_enum)]
        format: Option<Format>,
        /// Write here (atomically, owner-only 0600) instead of stdout. An
        /// existing file is replaced only with --force; anything that is
        /// not a regular file is refused (`-` and /dev/stdout are stdout).
        #[arg(long, short = 'o', value_name = "FILE")]
        output: Option<PathBuf>,
        /// Replace an existing output file.
        #[arg(long, short = 'f', requires = "output")]
        force: bool,
    },
    /// Delete a session with its snapshots and any copies of it set aside
    /// as corrupt, as one operation.
    #[command(visible_alias = "rm", after_help = footer("  ollm-session delete ID"))]
    Delete { id: String },
    /// Keep the N most recently active sessions, delete the rest (skipping
    /// any being written).
    #[command(after_help = footer("  ollm-session cleanup --keep 10 --dry-run
  ollm sessions cleanup --keep 10"))]
    Cleanup {
        #[arg(long, value_name = "N")]
        keep: u64,
        /// Show what would be deleted.
        #[arg(long)]
        dry_run: bool,
    },
    /// Delete every session. Asks for confirmation on a terminal; elsewhere
    /// --yes is required.
    #[command(after_help = footer("  ollm sessions clear --all          # asks: Delete all N sessions? [y/N]
  ollm-session clear --all --yes    # in scripts"))]
    Clear {
        /// Required: delete all sessions.
        #[arg(long)]
        all: bool,
        /// Do not ask; required when stdin or stderr is not a terminal.
        #[arg(long, short = 'y')]
        yes: bool,
        #[arg(long)]
        dry_run: bool,
    },
    /// Start a new session that keeps the first N messages (with the tool
    /// calls made among them); records parentSessionId and branchPoint.
    #[command(after_help = footer("  ollm-session branch ID --at 4 --title 'try another fix'"))]
    Branch {
        id: String,
        /// How many messages the branch keeps: the first N (0 to the
        /// message count; `--at 1` keeps only message 0).
        #[arg(long, value_name = "N")]
        at: u64,
        #[arg(long)]
        title: Option<String>,
    },
    /// List the sessions branched from a session.
    #[command(after_help = footer("  ollm-session branches ID"))]
    Branches {
        id: String,
        #[arg(long, value_enum)]
        format: Option<ListFormat>,
    },
    /// Context snapshots: create, list, show, restore, delete.
    #[command(
        subcommand,
        visible_alias = "snapshots",
        after_help = footer("  ollm-session snapshot create ID
  ollm-session snapshots list ID
  ollm-session snapshot restore SNAPSHOT_ID --as-session")
    )]
    Snapshot(SnapshotCommand),
    /// Print the effective configuration (JSON), or every key with its origin.
    #[command(after_help = footer("  ollm-session config --show-origin"))]
    Config(ConfigArgs),
}

#[derive(Debug, Subcommand)]
pub enum SnapshotCommand {
    /// Snapshot a session (or the message list on stdin with --stdin);
    /// deletes the oldest beyond snapshots.maxCount.
    #[command(after_help = footer("  ollm-session snapshot create ID --summary 'before refactor'
  jq .messages active.json | ollm-session snapshot create ID --stdin"))]
    Create {
        session: String,
        #[arg(long)]
        summary: Option<String>,
        /// Read the context to snapshot (a JSON array of messages) from stdin.
        #[arg(long)]
        stdin: bool,
        /// Snapshots kept per session (snapshots.maxCount; 0: no limit).
        #[arg(long, value_name = "N")]
        max_count: Option<u64>,
    },
    /// A session's snapshots, newest first.
    #[command(after_help = footer("  ollm-session snapshot list ID"))]
    List {
        session: String,
        #[arg(long, value_enum)]
        format: Option<ListFormat>,
    },
    /// Print a whole snapshot.
    #[command(after_help = footer("  ollm-session snapshot show SNAPSHOT_ID"))]
    Show {
        snapshot: String,
        #[arg(long)]
        session: Option<String>,
    },
    /// Print the snapshot's context as a message list in its original
    /// order, or re-create it as a new session.
    #[command(after_help = footer("  ollm-session snapshot restore SNAPSHOT_ID > context.json
  ollm-session snapshot restore SNAPSHOT_ID --as-session"))]
    Restore {
        snapshot: String,
        #[arg(long)]
        session: Option<String>,
        /// Create a new session holding the context; prints its id.
        #[arg(long)]
        as_session: bool,
    },
    /// Delete a snapshot.
    #[command(after_help = footer("  ollm-session snapshot delete SNAPSHOT_ID"))]
    Delete {
        snapshot: String,
        #[arg(long)]
        session: Option<String>,
    },
}

#[derive(Debug, Args)]
pub struct RecordArgs {
    pub id: String,
    /// Records to read: a file, or - for stdin (the default without
    /// --text/--tool).
    #[arg(value_name = "INPUT")]
    pub input: Option<String>,
    /// Shorthand: a plain text message with this role.
    #[arg(long, requires = "text", value_parser = ["user", "assistant", "system", "tool"])]
    pub role: Option<String>,
    /// Shorthand: the message's text (`-` reads it from stdin).
    #[arg(long, requires = "role", conflicts_with_all = ["input", "tool"])]
    pub text: Option<String>,
    /// Shorthand: a tool call with this tool name.
    #[arg(long, requires = "result", conflicts_with = "input")]
    pub tool: Option<String>,
    /// The tool call's arguments (a JSON object).
    #[arg(long, requires = "tool", value_name = "JSON", default_value = "{}")]
    pub args: String,
    /// The tool's result for the model (llmContent).
    #[arg(long, requires = "tool", value_name = "TEXT")]
    pub result: Option<String>,
    /// The tool's result for display (returnDisplay).
    #[arg(long, requires = "tool", value_name = "TEXT")]
    pub display: Option<String>,
    /// The tool call's id (default: a new one).
    #[arg(long, requires = "tool", value_name = "ID")]
    pub call_id: Option<String>,
    /// The record's token count from a real tokenizer, instead of the
    /// estimate (characters ÷ 4). Only with a single record.
    #[arg(long, value_name = "N")]
    pub tokens: Option<u64>,
}

struct Context {
    global: GlobalOpts,
    data_dir: Option<PathBuf>,
}

impl Context {
    fn load(&self, mut flags: Vec<FlagOverride>) -> Result<config::Loaded> {
        if let Some(dir) = &self.data_dir {
            flags.push(FlagOverride {
                key: "services.session.dataDir",
                value: Value::String(dir.display().to_string()),
                flag: "--data-dir",
            });
        }
        config::load(&LoadOptions {
            config_file: self.global.config.clone(),
            flags,
            ..LoadOptions::default()
        })
    }

    /// The store, for a command that reads it: a data directory named by a
    /// flag, a variable or a configuration file must exist (a typo is not an
    /// empty store), while the default one not existing yet is empty.
    fn store(&self, flags: Vec<FlagOverride>) -> Result<(Store, config::Config)> {
        let loaded = self.load(flags)?;
        let key = "services.session.dataDir";
        let named = loaded.origin_of(key);
        let store = Store::from_config(&loaded.config);
        if named != config::Origin::Default && !store.dir().exists() {
            return Err(Error::NotFound(format!(
                "{}: no such session data directory (from {named}; `ollm-session create` makes it)",
                store.dir().display()
            )));
        }
        Ok((store, loaded.config))
    }

    /// The store for `create`, which makes its directory when missing.
    fn store_to_create(&self, flags: Vec<FlagOverride>) -> Result<(Store, config::Config)> {
        let loaded = self.load(flags)?;
        Ok((Store::from_config(&loaded.config), loaded.config))
    }
}

/// The `ollm-session` program.
pub fn main() -> Result<ExitCode> {
    let cli: Cli = crate::cli::parse()?;
    let ctx = Context {
        global: cli.global,
        data_dir: cli.data_dir,
    };
    match cli.command {
        Command::Create {
            model,
            provider,
            title,
            max_sessions,
        } => {
            let mut flags = Vec::new();
            if let Some(max) = max_sessions {
                flags.push(FlagOverride {
                    key: "services.session.maxSessions",
                    value: max.into(),
                    flag: "--max-sessions",
                });
            }
            let (store, _) = ctx.store_to_create(flags)?;
            let created = store.create(&NewSession {
                model,
                provider,
                title,
            })?;
            io_util::print_json(&created)?;
        }
        Command::Record(args) => {
            let (store, _) = ctx.store(Vec::new())?;
            record(&store, args)?;
        }
        Command::Get {
            id,
            last,
            messages,
            format,
        } => {
            let (store, _) = ctx.store(Vec::new())?;
            let id = match (id, last) {
                (Some(id), _) => id,
                (None, _) => store.last()?,
            };
            let loaded = store.load(&id)?;
            let format = format.unwrap_or(if io_util::stdout_is_terminal() {
                Format::Markdown
            } else {
                Format::Json
            });
            match (format, messages) {
                (Format::Json, true) => io_util::print_json(&loaded.session.messages)?,
                (Format::Json, false) => io_util::print_json(&loaded.session)?,
                (Format::Markdown, true) => {
                    io_util::print_text(&export::messages_markdown(&loaded.session.messages))?;
                }
                (Format::Markdown, false) => io_util::print_text(&export::markdown(&loaded))?,
            }
        }
        Command::List {
            corrupt: true,
            format,
            ..
        } => {
            let (store, _) = ctx.store(Vec::new())?;
            let rows = store.corrupt()?;
            if table(format) {
                let mut text = String::new();
                for row in &rows {
                    text.push_str(&format!(
                        "{}  {:<7}  {}\n",
                        row.session_id,
                        row.format,
                        row.path.display()
                    ));
                }
                if rows.is_empty() {
                    text.push_str("(no sessions set aside)\n");
                }
                io_util::print_text(&text)?;
            } else {
                io_util::print_json(&rows)?;
            }
        }
        Command::List {
            limit,
            offset,
            format,
            ..
        } => {
            let (store, _) = ctx.store(Vec::new())?;
            let listing = store.list()?;
            report_problems(&listing.problems);
            let rows: Vec<SessionSummary> = listing
                .sessions
                .into_iter()
                .skip(offset)
                .take(limit.unwrap_or(usize::MAX))
                .collect();
            print_summaries(&rows, format)?;
        }
        Command::Search {
            pattern,
            regex,
            ignore_case,
            role,
            limit,
            format,
        } => {
            let (store, _) = ctx.store(Vec::new())?;
            let mut found = search::search(
                &store,
                &Query {
                    pattern,
                    regex,
                    ignore_case,
                    role,
                },
            )?;
            report_problems(&found.problems);
            if let Some(limit) = limit {
                found.hits.truncate(limit);
            }
            if table(format) {
                let mut text = String::new();
                for hit in &found.hits {
                    let index = match (hit.message_index, hit.tool_call_index) {
                        (Some(i), _) => format!("#{i}"),
                        (_, Some(i)) => format!("tool#{i}"),
                        _ => String::new(),
                    };
                    text.push_str(&format!(
                        "{}  {:<8} {:<9} {}  {}\n",
                        hit.session_id, index, hit.role, hit.timestamp, hit.snippet
                    ));
                }
                if found.hits.is_empty() {
                    text.push_str("no matches\n");
                }
                io_util::print_text(&text)?;
            } else {
                io_util::print_json(&found.hits)?;
            }
        }
        Command::Export {
            id,
            format,
            output,
            force,
        } => {
            let (store, _) = ctx.store(Vec::new())?;
            let target = match &output {
                Some(path) => crate::fs::export_target(path, force)?,
                None => crate::fs::Target::Stdout,
            };
            let format = format.unwrap_or(match &output {
                Some(path) if export::is_markdown_path(path) => Format::Markdown,
                _ => Format::Json,
            });
            let loaded = store.load(&id)?;
            let text = match format {
                Format::Json => {
                    let mut text = serde_json::to_string_pretty(&loaded.session)
                        .map_err(|e| Error::input(format!("cannot encode the session: {e}")))?;
                    text.push('\n');
                    text
                }
                Format::Markdown => export::markdown(&loaded),
            };
            match target {
                crate::fs::Target::File(path) => {
                    crate::fs::write_atomic(&path, text.as_bytes(), crate::fs::Durability::Synced)?;
                    io_util::print_json(&serde_json::json!({
                        "exported": id,
                        "output": path,
                        "bytes": text.len(),
                    }))?;
                }
                crate::fs::Target::Stdout => io_util::print_text(&text)?,
            }
        }
        Command::Delete { id } => {
            let (store, _) = ctx.store(Vec::new())?;
            store.delete(&id)?;
            io_util::print_json(&serde_json::json!({"deleted": [id]}))?;
        }
        Command::Cleanup { keep, dry_run } => {
            let (store, _) = ctx.store(Vec::new())?;
            let report = store.cleanup(keep, dry_run)?;
            io_util::print_json(&report)?;
        }
        Command::Clear { all, yes, dry_run } => {
            if !all {
                return Err(Error::usage(
                    "clear deletes every session: say so with --all (try --help)",
                ));
            }
            let (store, _) = ctx.store(Vec::new())?;
            if !dry_run && !yes {
                let count = store.ids()?.len() + store.corrupt()?.len();
                let sessions = io_util::plural(count as u64, "session", "sessions");
                if count > 0
                    && !confirm(&format!(
                        "Delete all {sessions} and their snapshots in {}? [y/N] ",
                        store.dir().display()
                    ))?
                {
                    return Err(Error::usage(format!(
                        "not confirmed: {sessions} kept (pass --yes to clear without asking)"
                    )));
                }
            }
            let report = store.cleanup(0, dry_run)?;
            io_util::print_json(&report)?;
        }
        Command::Branch { id, at, title } => {
            let (store, _) = ctx.store(Vec::new())?;
            let created = store.branch(&id, at, title)?;
            io_util::print_json(&created)?;
        }
        Command::Branches { id, format } => {
            let (store, _) = ctx.store(Vec::new())?;
            store.kind(&id)?;
            let rows = store.branches(&id)?;
            print_summaries(&rows, format)?;
        }
        Command::Snapshot(command) => snapshot(&ctx, command)?,
        Command::Config(args) => {
            let loaded = ctx.load(Vec::new())?;
            config::print_config(&loaded, &args)?;
        }
    }
    Ok(ExitCode::Success)
}

fn snapshot(ctx: &Context, command: SnapshotCommand) -> Result<()> {
    let mut flags = Vec::new();
    if let SnapshotCommand::Create {
        max_count: Some(max),
        ..
    } = &command
    {
        flags.push(FlagOverride {
            key: "snapshots.maxCount",
            value: (*max).into(),
            flag: "--max-count",
        });
    }
    let (store, config) = ctx.store(flags)?;
    let snapshots = Snapshots::from_config(&config);
    match command {
        SnapshotCommand::Create {
            session,
            summary,
            stdin,
            ..
        } => {
            let context = if stdin {
                let text = io_util::read_text("-")?;
                Some(io_util::parse_json::<Vec<Message>>(
                    &text,
                    "standard input",
                )?)
            } else {
                None
            };
            let created = snapshots.create(&store, &session, context, summary)?;
            io_util::print_json(&created)?;
        }
        SnapshotCommand::List { session, format } => {
            let mut rows = snapshots.list(&session)?;
            if !store.has_any(&session) {
                // Snapshots of a session whose delete is being finished
                // are gone already.
                rows.clear();
            }
            if rows.is_empty() {
                // No snapshots is an empty list for a session that exists,
                // and "not found" for an id that names nothing.
                store.kind(&session)?;
            }
            if table(format) {
                let mut text = String::new();
                for s in &rows {
                    text.push_str(&format!(
                        "{}  {}  {:>6} tok  {:>4} msg  {}\n",
                        s.id, s.timestamp, s.token_count, s.message_count, s.summary
                    ));
                }
                if rows.is_empty() {
                    text.push_str("no snapshots\n");
                }
                io_util::print_text(&text)?;
            } else {
                io_util::print_json(&rows)?;
            }
        }
        SnapshotCommand::Show { snapshot, session } => {
            io_util::print_json(&snapshots.show(&store, &snapshot, session.as_deref())?)?;
        }
        SnapshotCommand::Restore {
            snapshot,
            session,
            as_session,
        } => {
            if as_session {
                let created =
                    snapshots.restore_as_session(&store, &snapshot, session.as_deref())?;
                io_util::print_json(&created)?;
            } else {
                let shown = snapshots.show(&store, &snapshot, session.as_deref())?;
                io_util::print_json(&serde_json::json!({
                    "sessionId": shown.session_id,
                    "snapshotId": shown.id,
                    "timestamp": shown.timestamp,
                    "messages": shown.restored_messages(),
                }))?;
            }
        }
        SnapshotCommand::Delete { snapshot, session } => {
            snapshots.delete(&store, &snapshot, session.as_deref())?;
            io_util::print_json(&serde_json::json!({"deleted": [snapshot]}))?;
        }
    }
    Ok(())
}

fn table(format: Option<ListFormat>) -> bool {
    match format {
        Some(ListFormat::Table) => true,
        Some(ListFormat::Json) => false,
        None => io_util::stdout_is_terminal(),
    }
}

fn print_summaries(rows: &[SessionSummary], format: Option<ListFormat>) -> Result<()> {
    if !table(format) {
        return io_util::print_json(rows);
    }
    let mut text = format!(
        "{:<36}  {:<24}  {:<20}  {:>5}  {:>7}  {}\n",
        "SESSION", "LAST ACTIVITY", "MODEL", "MSGS", "TOKENS", "TITLE"
    );
    if rows.is_empty() {
        text.push_str("(no sessions)\n");
    }
    for s in rows {
        text.push_str(&format!(
            "{:<36}  {:<24}  {:<20}  {:>5}  {:>7}  {}\n",
            s.session_id,
            s.last_activity,
            s.model,
            s.message_count,
            s.token_count,
            s.title.as_deref().unwrap_or("")
        ));
    }
    io_util::print_text(&text)
}

fn report_problems(problems: &[Problem]) {
    for problem in problems {
        diag::warn(&problem.message);
    }
}

/// Asks on stderr and reads the answer from stdin; refuses when either is
/// not a terminal.
fn confirm(question: &str) -> Result<bool> {
    if !std::io::stdin().is_terminal() || !std::io::stderr().is_terminal() {
        return Err(Error::usage(
            "refusing to delete every session without confirmation: pass --yes",
        ));
    }
    eprint!("{question}");
    let mut answer = String::new();
    std::io::stdin()
        .lock()
        .read_line(&mut answer)
        .map_err(|e| Error::io("standard input", &e))?;
    Ok(matches!(answer.trim(), "y" | "Y" | "yes" | "Yes" | "YES"))
}

/// Records what `args` names, acknowledging each record on stdout (one
/// JSON line) once it is on disk.
fn record(store: &Store, args: RecordArgs) -> Result<()> {
    check_id(&args.id, "session")?;
    store.kind(&args.id)?;
    let now = timestamp::now_iso();
    if let (Some(role), Some(text)) = (&args.role, &args.text) {
        let text = if text == "-" {
            io_util::read_text("-")?
        } else {
            text.clone()
        };
        let entry = Entry::Message(Message::text(role, &text, &now));
        let ack = store.record(&args.id, &entry, args.tokens)?;
        return io_util::print_json_line(&ack);
    }
    if let Some(tool) = &args.tool {
        let parsed: Value = io_util::parse_json(&args.args, "--args")?;
        let mut result = serde_json::Map::new();
        result.insert(
            "llmContent".into(),
            args.result.clone().unwrap_or_default().into(),
        );
        if let Some(display) = &args.display {
            result.insert("returnDisplay".into(), display.clone().into());
        }
        let call = serde_json::json!({
            "id": args.call_id.clone().unwrap_or_else(|| format!("call_{}", super::model::new_id().replace('-', ""))),
            "name": tool,
            "args": parsed,
            "result": result,
            "timestamp": now,
        });
        let entry = Entry::from_input(call, &now)?;
        let ack = store.record(&args.id, &entry, args.tokens)?;
        return io_util::print_json_line(&ack);
    }
    let source = args.input.clone().unwrap_or_else(|| "-".into());
    crate::cli::require_piped_stdin(
        &source,
        "record",
        "pipe JSON records in, or use --role/--text or --tool",
    )?;
    let name = if source == "-" {
        "standard input".to_string()
    } else {
        source.clone()
    };
    let reader: Box<dyn BufRead> = if source == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        let file = std::fs::File::open(&source).map_err(|e| Error::io(&source, &e))?;
        Box::new(std::io::BufReader::new(file))
    };
    record_stream(store, &args, reader, &name)
}

/// NDJSON when the first non-blank line is a whole JSON value; otherwise
/// the input is one JSON document (an object, or an array of records).
fn record_stream(store: &Store, args: &RecordArgs, reader: impl BufRead, name: &str) -> Result<()> {
    let mut document: Option<String> = None;
    let count = std::cell::Cell::new(0usize);
    let mut pending_tokens = args.tokens;
    let mut one = |value: Value, line: usize| -> Result<()> {
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
            count.set(count.get() + 1);
            if count.get() > 1 && args.tokens.is_some() {
                return Err(Error::usage("--tokens applies to a single record only"));
            }
            let ack = store.record(&args.id, &entry, pending_tokens.take())?;
            io_util::print_json_line(&ack)?;
        }
        Ok(())
    };
    io_util::for_each_line(reader, name, |number, line| {
        if let Some(doc) = document.as_mut() {
            doc.push_str(line);
            doc.push('\n');
            return Ok(());
        }
        io_util::check_integers(line, &format!("{name} line {number}"))?;
        match serde_json::from_str::<Value>(line) {
            Ok(value) => one(value, number),
            Err(err) if err.is_eof() && count.get() == 0 => {
                document = Some(format!("{line}\n"));
                Ok(())
            }
            Err(err) => Err(Error::input(format!(
                "{name} line {number}: {}",
                io_util::one_line(&err.to_string())
            ))),
        }
    })?;
    if let Some(doc) = document {
        let value: Value = io_util::parse_json(&doc, name)?;
        one(value, 0)?;
    }
    if count.get() == 0 {
        return Err(Error::input(format!("{name} holds no records")));
    }
    Ok(())
}
