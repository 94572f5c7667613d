
use builtin;
use str;

set edit:completion:arg-completer[ollm-session] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'ollm-session'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'ollm-session'= {
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand --store 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)'
            cand --no-redact 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand create 'Create a session; prints {"sessionId": …}. Records the workspace it was made in (the git top level, else the current directory) for --here. Deletes the oldest sessions beyond maxSessions (never a locked one)'
            cand record 'Record a message or a tool call with its result; one JSON document, or NDJSON (one record a line, each acknowledged on stdout once it is on disk). An object with `role` is a message, one with `name` and `result` a tool call; a missing `timestamp` is now. Large texts come from a file or stdin (`--result-file FILE`, `--result -`), never from the command line''s size limit. With --last, a single positional argument is INPUT'
            cand get 'Print a whole session as the spec''s JSON (a transcript on a terminal)'
            cand view 'Print a whole session as the spec''s JSON (a transcript on a terminal)'
            cand resume 'Choose a session to carry on with and print its id (or start --exec on it). At a terminal with no ID, a picker shows the sessions newest first (arrow keys, type to filter); --continue takes the latest session of this workspace, as `claude --continue` does. Off a terminal, an ID, --continue or --last is required (exit 2)'
            cand list 'List sessions newest first: sessionId, startTime, lastActivity, model, messageCount, tokenCount, title, workspace (JSON when piped, a table on a terminal)'
            cand ls 'List sessions newest first: sessionId, startTime, lastActivity, model, messageCount, tokenCount, title, workspace (JSON when piped, a table on a terminal)'
            cand search 'Search every session''s title, messages and tool calls; each hit gives the session id, message index, role, timestamp and a snippet'
            cand export 'Export a session as the spec''s JSON, a Markdown transcript or a self-contained HTML page; or every session as an HTML archive'
            cand rename 'Give a session a title (or remove it with --clear); commands then take the title in place of the id. Prints what changed'
            cand delete 'Delete a session with its snapshots, its file checkpoints and any copies of it set aside as corrupt, as one operation. Prints {"deleted": [ID]}'
            cand rm 'Delete a session with its snapshots, its file checkpoints and any copies of it set aside as corrupt, as one operation. Prints {"deleted": [ID]}'
            cand remove 'Delete a session with its snapshots, its file checkpoints and any copies of it set aside as corrupt, as one operation. Prints {"deleted": [ID]}'
            cand cleanup 'Keep the N most recently active sessions, delete the rest (skipping any being written). Prints what was deleted and kept'
            cand clear 'Delete every session. Asks for confirmation on a terminal; elsewhere --yes is required'
            cand branch 'Start a new session that keeps the first N messages (with the tool calls made among them); records parentSessionId and branchPoint'
            cand branches 'List the sessions branched from a session'
            cand rewind 'Go back to point N: branch the conversation at N messages (`branch --at N`) and restore the files to checkpoint turn N (`ollm checkpoint restore --turn N`), or only one of them. A runtime that snapshots with `--turn` set to the session''s message count makes one N name both. The files go first: at a conflict (a file changed since the session''s last checkpoint) nothing changes, the conversation is not branched, and the exit code is 1; --force restores anyway. Prints {"branch":{…}|null,"code":{…}|null}'
            cand scan 'Find credentials already stored (records, titles, snapshots; every format the store holds): one NDJSON finding a line (session, record, field, kind, a masked preview; never the credential), a table at a terminal. Exits 1 when anything is found, 0 when clean (as gitleaks does). `ollm-session redact` removes what it finds'
            cand redact 'Replace credentials already stored with `[REDACTED:<kind>]`, in place: each session (and each snapshot) is replaced whole in one step, so a crash leaves it as it was or fully scrubbed. Prints {"sessionId", "redacted"} a session; --dry-run prints what `scan` finds instead and changes nothing'
            cand import 'Import sessions of Claude Code, Codex, gemini-cli, opencode and goose: one session per source session, with every message, every tool call paired with its result, the working directory as its workspace (so `--here` and `resume --continue` find it in that project), the title, model and times, and where it came from in `metadata.importedFrom`; stored as journals whatever services.session.format says. The sources are only read (a database through a private copy, so a live one and its write-ahead log are never written). Importing again adds only what a source gained since. Prints one NDJSON line per session ({"tool", "source", "sourceId", "sessionId", "status", "messages", "toolCalls", "added", "skipped"}) and a last {"summary": …} line; a table at a terminal. Exits 4 when a source could not be read (the others are imported)'
            cand reindex 'Rebuild the file store''s index from the sessions'' files. The index is what `list`, `--last`, `--here`, prefixes and titles read; it is kept up to date by every command and rebuilt on its own when it is missing or damaged, so this is only needed after sessions were changed by an older ollm or restored by hand into a session directory that already existed. Prints how many sessions it holds. On PostgreSQL, which keeps its indexes itself, it only counts them'
            cand keep 'Keep the PostgreSQL store''s connections open between commands: a short command then takes about half the time'
            cand snapshot 'Context snapshots: create, list, show, restore, delete'
            cand snapshots 'Context snapshots: create, list, show, restore, delete'
            cand copy 'Copy sessions between stores (`file`, a directory, or a postgres:// URL), with their branch links; a session already there is kept'
            cand config 'Print the effective configuration (JSON), or every key with its origin'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ollm-session;create'= {
            cand --model 'The model the session talks to (the spec''s `model`)'
            cand --provider 'The model''s provider, e.g. ollama or openai (the spec''s `provider`)'
            cand --title 'A name for the session (additive field `title`); commands then take it in place of the id'
            cand --max-sessions 'Sessions to keep (services.session.maxSessions; 0: no limit)'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand --store 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)'
            cand -q 'Print only the new session''s id (a line of text, as `docker create` does), for `id=$(…)` without a JSON tool'
            cand --quiet 'Print only the new session''s id (a line of text, as `docker create` does), for `id=$(…)` without a JSON tool'
            cand --no-redact 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm-session;record'= {
            cand --role 'Shorthand: a plain text message with this role'
            cand --text 'Shorthand: the message''s text (`-` reads it from stdin)'
            cand --text-file 'Shorthand: the message''s text, read from FILE'
            cand --tool 'Shorthand: a tool call with this tool name'
            cand --args 'The tool call''s arguments, a JSON object (`-` reads it from stdin; default {})'
            cand --args-file 'The tool call''s arguments, read from FILE'
            cand --result 'The tool''s result for the model (llmContent; `-` reads it from stdin)'
            cand --result-file 'The tool''s result for the model, read from FILE'
            cand --display 'The tool''s result for display (returnDisplay)'
            cand --call-id 'The tool call''s id (default: a new one)'
            cand --tokens 'The record''s token count from a real tokenizer, instead of the estimate (characters ÷ 4). Only with a single record'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand --store 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)'
            cand --last 'The most recently active session'
            cand --here 'Only sessions made in this workspace (the git top level, else the current directory); without ID, the latest of them'
            cand --no-redact 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm-session;get'= {
            cand --format 'json (default when piped) or markdown (default on a terminal)'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand --store 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)'
            cand --last 'The most recently active session'
            cand --here 'Only sessions made in this workspace (the git top level, else the current directory); without ID, the latest of them'
            cand --messages 'Only the messages (as a JSON array, or without the header and tool calls in markdown)'
            cand --full 'Show long tool results whole (at a terminal they are folded to their first 10 lines)'
            cand --no-redact 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'ollm-session;view'= {
            cand --format 'json (default when piped) or markdown (default on a terminal)'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand --store 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)'
            cand --last 'The most recently active session'
            cand --here 'Only sessions made in this workspace (the git top level, else the current directory); without ID, the latest of them'
            cand --messages 'Only the messages (as a JSON array, or without the header and tool calls in markdown)'
            cand --full 'Show long tool results whole (at a terminal they are folded to their first 10 lines)'
            cand --no-redact 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'ollm-session;resume'= {
            cand --exec 'Run CMD (with sh -c) with the chosen id as its last argument and in OLLM_SESSION_ID, instead of printing the id'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand --store 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)'
            cand -c 'The latest session made in this workspace (the git top level, else the current directory)'
            cand --continue 'The latest session made in this workspace (the git top level, else the current directory)'
            cand --last 'The most recently active session anywhere'
            cand --here 'Only sessions made in this workspace (in the picker too)'
            cand --no-redact 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm-session;list'= {
            cand --limit 'Show at most N sessions'
            cand --offset 'Skip the N newest sessions first (with --limit: pages)'
            cand --format 'json (default when piped), table (default on a terminal), ndjson or text'
            cand --model 'Only sessions with this model'
            cand --since 'Only sessions active since WHEN: a duration back from now (2h, 3d, 1week) or a date (2026-01-15)'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand --store 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)'
            cand --corrupt 'List the sessions set aside as corrupt instead: sessionId, path and format (`journal` or `plain`). `delete ID` removes them'
            cand --here 'Only sessions made in this workspace (the git top level, else the current directory)'
            cand --no-redact 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'ollm-session;ls'= {
            cand --limit 'Show at most N sessions'
            cand --offset 'Skip the N newest sessions first (with --limit: pages)'
            cand --format 'json (default when piped), table (default on a terminal), ndjson or text'
            cand --model 'Only sessions with this model'
            cand --since 'Only sessions active since WHEN: a duration back from now (2h, 3d, 1week) or a date (2026-01-15)'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand --store 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)'
            cand --corrupt 'List the sessions set aside as corrupt instead: sessionId, path and format (`journal` or `plain`). `delete ID` removes them'
            cand --here 'Only sessions made in this workspace (the git top level, else the current directory)'
            cand --no-redact 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'ollm-session;search'= {
            cand --role 'Only messages of this role (`tool` also matches tool calls, `title` only titles)'
            cand --limit 'Show at most N hits, the newest'
            cand --format 'json (default when piped), table (default on a terminal), ndjson or text'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand --store 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)'
            cand -e 'PATTERN is a regular expression (Rust regex syntax)'
            cand --regex 'PATTERN is a regular expression (Rust regex syntax)'
            cand -i 'Match regardless of case'
            cand --ignore-case 'Match regardless of case'
            cand --no-redact 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'ollm-session;export'= {
            cand --format 'json, markdown or html (default: from the --output extension, .md or .markdown, .html or .htm; else json; html with --all)'
            cand -o 'Write here (atomically, owner-only 0600) instead of stdout. An existing file is replaced only with --force; anything that is not a regular file is refused (`-` and /dev/stdout are stdout). With --all, the archive''s directory'
            cand --output 'Write here (atomically, owner-only 0600) instead of stdout. An existing file is replaced only with --force; anything that is not a regular file is refused (`-` and /dev/stdout are stdout). With --all, the archive''s directory'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand --store 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)'
            cand --last 'The most recently active session'
            cand --here 'Only sessions made in this workspace (the git top level, else the current directory); without ID, the latest of them'
            cand --all 'Every session, as an HTML archive in the directory --output names: index.html (sessions by project and date, a search across all of them) and <id>.html a session'
            cand -f 'Replace an existing output file (with --all, existing pages)'
            cand --force 'Replace an existing output file (with --all, existing pages)'
            cand --no-redact 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'ollm-session;rename'= {
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand --store 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)'
            cand --last 'The most recently active session'
            cand --here 'Only sessions made in this workspace (the git top level, else the current directory); without ID, the latest of them'
            cand --clear 'Remove the title instead'
            cand --no-redact 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm-session;delete'= {
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand --store 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)'
            cand --last 'The most recently active session'
            cand --here 'Only sessions made in this workspace (the git top level, else the current directory); without ID, the latest of them'
            cand --no-redact 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm-session;rm'= {
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand --store 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)'
            cand --last 'The most recently active session'
            cand --here 'Only sessions made in this workspace (the git top level, else the current directory); without ID, the latest of them'
            cand --no-redact 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm-session;remove'= {
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand --store 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)'
            cand --last 'The most recently active session'
            cand --here 'Only sessions made in this workspace (the git top level, else the current directory); without ID, the latest of them'
            cand --no-redact 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm-session;cleanup'= {
            cand --keep 'How many sessions to keep, the most recently active'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand --store 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)'
            cand --dry-run 'Show what would be deleted'
            cand --no-redact 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm-session;clear'= {
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand --store 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)'
            cand --all 'Required: delete all sessions'
            cand -y 'Do not ask; required when stdin or stderr is not a terminal'
            cand --yes 'Do not ask; required when stdin or stderr is not a terminal'
            cand --dry-run 'Show what would be deleted'
            cand --no-redact 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm-session;branch'= {
            cand --at 'How many messages the branch keeps: the first N (0 to the message count; `--at 1` keeps only message 0)'
            cand --title 'A title for the branch (default: the parent''s with "(branch)" added, numbered when that is taken, so the title names one session)'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand --store 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)'
            cand --last 'The most recently active session'
            cand --here 'Only sessions made in this workspace (the git top level, else the current directory); without ID, the latest of them'
            cand --no-redact 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm-session;branches'= {
            cand --format 'json (default when piped), table (default on a terminal), ndjson or text'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand --store 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)'
            cand --last 'The most recently active session'
            cand --here 'Only sessions made in this workspace (the git top level, else the current directory); without ID, the latest of them'
            cand --no-redact 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'ollm-session;rewind'= {
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand --store 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)'
            cand --code 'Restore the files (alone, unless --conversation too)'
            cand --conversation 'Branch the conversation (alone, unless --code too)'
            cand --force 'Restore files changed since the last checkpoint too (undoable: see the report''s `undoTurn`)'
            cand --no-redact 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm-session;scan'= {
            cand --format 'ndjson (default when piped), table (default on a terminal), json or text'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand --store 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)'
            cand --last 'The most recently active session'
            cand --here 'The latest session made in this workspace (with ID: only its sessions)'
            cand --all 'Every session in the store'
            cand --no-redact 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'ollm-session;redact'= {
            cand --format 'ndjson (default when piped), table (default on a terminal), json or text'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand --store 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)'
            cand --last 'The most recently active session'
            cand --here 'The latest session made in this workspace (with ID: only its sessions)'
            cand --all 'Every session in the store'
            cand --dry-run 'Show what would be replaced (as `scan` does); change nothing'
            cand --no-redact 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'ollm-session;import'= {
            cand --from 'The tool the sessions are from (repeatable: `--from claude --from codex`); `auto` reads every tool''s (its default locations, or each path as whichever tool''s it is)'
            cand --format 'ndjson (default when piped), table (default on a terminal), json or text'
            cand --hook 'Import the one transcript that TOOL''s hook names on standard input (the hook JSON of Claude Code or gemini-cli: `transcript_path`), reading it only if it changed. Prints nothing and always exits 0, so a hook never breaks the agent: a reason it could not import goes to stderr and to $OLLM_HOME/logs/import-hook.log'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand --store 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)'
            cand --dry-run 'Say what would be imported; write nothing'
            cand --watch 'Keep importing as the sources are written, until SIGINT, SIGTERM or the end of standard input when it is a pipe: a catch-up of what changed since the last import, then each change within a second or two. One NDJSON line per session touched (a status line at a terminal) and the summary when stopped. One watcher per store'
            cand --no-redact 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'ollm-session;reindex'= {
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand --store 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)'
            cand --no-redact 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm-session;keep'= {
            cand --idle 'Stop after this long without a command (e.g. `30m`, `2h`)'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand --store 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)'
            cand --no-redact 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'ollm-session;snapshot'= {
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand --store 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)'
            cand --no-redact 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand create 'Snapshot a session (or the message list on stdin with --stdin); deletes the oldest beyond snapshots.maxCount'
            cand list 'A session''s snapshots, newest first'
            cand show 'Print a whole snapshot'
            cand restore 'Print the snapshot''s context as a message list in its original order, or re-create it as a new session'
            cand delete 'Delete a snapshot. Prints {"deleted": [SNAPSHOT_ID]}'
            cand rm 'Delete a snapshot. Prints {"deleted": [SNAPSHOT_ID]}'
            cand remove 'Delete a snapshot. Prints {"deleted": [SNAPSHOT_ID]}'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ollm-session;snapshots'= {
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand --store 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)'
            cand --no-redact 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand create 'Snapshot a session (or the message list on stdin with --stdin); deletes the oldest beyond snapshots.maxCount'
            cand list 'A session''s snapshots, newest first'
            cand show 'Print a whole snapshot'
            cand restore 'Print the snapshot''s context as a message list in its original order, or re-create it as a new session'
            cand delete 'Delete a snapshot. Prints {"deleted": [SNAPSHOT_ID]}'
            cand rm 'Delete a snapshot. Prints {"deleted": [SNAPSHOT_ID]}'
            cand remove 'Delete a snapshot. Prints {"deleted": [SNAPSHOT_ID]}'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ollm-session;snapshot;create'= {
            cand --summary 'What the snapshot holds, in a few words'
            cand --max-count 'Snapshots kept per session (snapshots.maxCount; 0: no limit)'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand --store 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)'
            cand --last 'The most recently active session'
            cand --here 'Only sessions made in this workspace (the git top level, else the current directory); without ID, the latest of them'
            cand --stdin 'Read the context to snapshot (a JSON array of messages) from stdin'
            cand --no-redact 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm-session;snapshots;create'= {
            cand --summary 'What the snapshot holds, in a few words'
            cand --max-count 'Snapshots kept per session (snapshots.maxCount; 0: no limit)'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand --store 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)'
            cand --last 'The most recently active session'
            cand --here 'Only sessions made in this workspace (the git top level, else the current directory); without ID, the latest of them'
            cand --stdin 'Read the context to snapshot (a JSON array of messages) from stdin'
            cand --no-redact 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm-session;snapshot;list'= {
            cand --format 'json (default when piped), table (default on a terminal), ndjson or text'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand --store 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)'
            cand --last 'The most recently active session'
            cand --here 'Only sessions made in this workspace (the git top level, else the current directory); without ID, the latest of them'
            cand --no-redact 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'ollm-session;snapshots;list'= {
            cand --format 'json (default when piped), table (default on a terminal), ndjson or text'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand --store 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)'
            cand --last 'The most recently active session'
            cand --here 'Only sessions made in this workspace (the git top level, else the current directory); without ID, the latest of them'
            cand --no-redact 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'ollm-session;snapshot;show'= {
            cand --session 'The session the snapshot belongs to (an id, prefix or title; found by searching every session''s snapshots when not given)'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand --store 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)'
            cand --no-redact 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm-session;snapshots;show'= {
            cand --session 'The session the snapshot belongs to (an id, prefix or title; found by searching every session''s snapshots when not given)'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand --store 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)'
            cand --no-redact 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm-session;snapshot;restore'= {
            cand --session 'The session the snapshot belongs to (an id, prefix or title; found by searching every session''s snapshots when not given)'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand --store 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)'
            cand --as-session 'Create a new session holding the context; prints its id'
            cand --no-redact 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm-session;snapshots;restore'= {
            cand --session 'The session the snapshot belongs to (an id, prefix or title; found by searching every session''s snapshots when not given)'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand --store 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)'
            cand --as-session 'Create a new session holding the context; prints its id'
            cand --no-redact 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm-session;snapshot;delete'= {
            cand --session 'The session the snapshot belongs to (an id, prefix or title; found by searching every session''s snapshots when not given)'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand --store 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)'
            cand --no-redact 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm-session;snapshot;rm'= {
            cand --session 'The session the snapshot belongs to (an id, prefix or title; found by searching every session''s snapshots when not given)'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand --store 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)'
            cand --no-redact 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm-session;snapshot;remove'= {
            cand --session 'The session the snapshot belongs to (an id, prefix or title; found by searching every session''s snapshots when not given)'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand --store 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)'
            cand --no-redact 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm-session;snapshots;delete'= {
            cand --session 'The session the snapshot belongs to (an id, prefix or title; found by searching every session''s snapshots when not given)'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand --store 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)'
            cand --no-redact 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm-session;snapshots;rm'= {
            cand --session 'The session the snapshot belongs to (an id, prefix or title; found by searching every session''s snapshots when not given)'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand --store 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)'
            cand --no-redact 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm-session;snapshots;remove'= {
            cand --session 'The session the snapshot belongs to (an id, prefix or title; found by searching every session''s snapshots when not given)'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand --store 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)'
            cand --no-redact 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm-session;snapshot;help'= {
            cand create 'Snapshot a session (or the message list on stdin with --stdin); deletes the oldest beyond snapshots.maxCount'
            cand list 'A session''s snapshots, newest first'
            cand show 'Print a whole snapshot'
            cand restore 'Print the snapshot''s context as a message list in its original order, or re-create it as a new session'
            cand delete 'Delete a snapshot. Prints {"deleted": [SNAPSHOT_ID]}'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ollm-session;snapshot;help;create'= {
        }
        &'ollm-session;snapshot;help;list'= {
        }
        &'ollm-session;snapshot;help;show'= {
        }
        &'ollm-session;snapshot;help;restore'= {
        }
        &'ollm-session;snapshot;help;delete'= {
        }
        &'ollm-session;snapshot;help;help'= {
        }
        &'ollm-session;snapshots;help'= {
            cand create 'Snapshot a session (or the message list on stdin with --stdin); deletes the oldest beyond snapshots.maxCount'
            cand list 'A session''s snapshots, newest first'
            cand show 'Print a whole snapshot'
            cand restore 'Print the snapshot''s context as a message list in its original order, or re-create it as a new session'
            cand delete 'Delete a snapshot. Prints {"deleted": [SNAPSHOT_ID]}'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ollm-session;snapshots;help;create'= {
        }
        &'ollm-session;snapshots;help;list'= {
        }
        &'ollm-session;snapshots;help;show'= {
        }
        &'ollm-session;snapshots;help;restore'= {
        }
        &'ollm-session;snapshots;help;delete'= {
        }
        &'ollm-session;snapshots;help;help'= {
        }
        &'ollm-session;copy'= {
            cand --from 'Where to copy from: `file` (the data directory), a directory of sessions (journals or plain <id>.json files), or a postgres:// URL'
            cand --to 'Where to copy to (as --from)'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand --store 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)'
            cand --all 'Copy every session of --from'
            cand --no-redact 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm-session;config'= {
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand --store 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)'
            cand --show-origin 'Show every key with its value and where it came from (default, a file, an environment variable or a flag), like `git config --show-origin`'
            cand --no-redact 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm-session;help'= {
            cand create 'Create a session; prints {"sessionId": …}. Records the workspace it was made in (the git top level, else the current directory) for --here. Deletes the oldest sessions beyond maxSessions (never a locked one)'
            cand record 'Record a message or a tool call with its result; one JSON document, or NDJSON (one record a line, each acknowledged on stdout once it is on disk). An object with `role` is a message, one with `name` and `result` a tool call; a missing `timestamp` is now. Large texts come from a file or stdin (`--result-file FILE`, `--result -`), never from the command line''s size limit. With --last, a single positional argument is INPUT'
            cand get 'Print a whole session as the spec''s JSON (a transcript on a terminal)'
            cand resume 'Choose a session to carry on with and print its id (or start --exec on it). At a terminal with no ID, a picker shows the sessions newest first (arrow keys, type to filter); --continue takes the latest session of this workspace, as `claude --continue` does. Off a terminal, an ID, --continue or --last is required (exit 2)'
            cand list 'List sessions newest first: sessionId, startTime, lastActivity, model, messageCount, tokenCount, title, workspace (JSON when piped, a table on a terminal)'
            cand search 'Search every session''s title, messages and tool calls; each hit gives the session id, message index, role, timestamp and a snippet'
            cand export 'Export a session as the spec''s JSON, a Markdown transcript or a self-contained HTML page; or every session as an HTML archive'
            cand rename 'Give a session a title (or remove it with --clear); commands then take the title in place of the id. Prints what changed'
            cand delete 'Delete a session with its snapshots, its file checkpoints and any copies of it set aside as corrupt, as one operation. Prints {"deleted": [ID]}'
            cand cleanup 'Keep the N most recently active sessions, delete the rest (skipping any being written). Prints what was deleted and kept'
            cand clear 'Delete every session. Asks for confirmation on a terminal; elsewhere --yes is required'
            cand branch 'Start a new session that keeps the first N messages (with the tool calls made among them); records parentSessionId and branchPoint'
            cand branches 'List the sessions branched from a session'
            cand rewind 'Go back to point N: branch the conversation at N messages (`branch --at N`) and restore the files to checkpoint turn N (`ollm checkpoint restore --turn N`), or only one of them. A runtime that snapshots with `--turn` set to the session''s message count makes one N name both. The files go first: at a conflict (a file changed since the session''s last checkpoint) nothing changes, the conversation is not branched, and the exit code is 1; --force restores anyway. Prints {"branch":{…}|null,"code":{…}|null}'
            cand scan 'Find credentials already stored (records, titles, snapshots; every format the store holds): one NDJSON finding a line (session, record, field, kind, a masked preview; never the credential), a table at a terminal. Exits 1 when anything is found, 0 when clean (as gitleaks does). `ollm-session redact` removes what it finds'
            cand redact 'Replace credentials already stored with `[REDACTED:<kind>]`, in place: each session (and each snapshot) is replaced whole in one step, so a crash leaves it as it was or fully scrubbed. Prints {"sessionId", "redacted"} a session; --dry-run prints what `scan` finds instead and changes nothing'
            cand import 'Import sessions of Claude Code, Codex, gemini-cli, opencode and goose: one session per source session, with every message, every tool call paired with its result, the working directory as its workspace (so `--here` and `resume --continue` find it in that project), the title, model and times, and where it came from in `metadata.importedFrom`; stored as journals whatever services.session.format says. The sources are only read (a database through a private copy, so a live one and its write-ahead log are never written). Importing again adds only what a source gained since. Prints one NDJSON line per session ({"tool", "source", "sourceId", "sessionId", "status", "messages", "toolCalls", "added", "skipped"}) and a last {"summary": …} line; a table at a terminal. Exits 4 when a source could not be read (the others are imported)'
            cand reindex 'Rebuild the file store''s index from the sessions'' files. The index is what `list`, `--last`, `--here`, prefixes and titles read; it is kept up to date by every command and rebuilt on its own when it is missing or damaged, so this is only needed after sessions were changed by an older ollm or restored by hand into a session directory that already existed. Prints how many sessions it holds. On PostgreSQL, which keeps its indexes itself, it only counts them'
            cand keep 'Keep the PostgreSQL store''s connections open between commands: a short command then takes about half the time'
            cand snapshot 'Context snapshots: create, list, show, restore, delete'
            cand copy 'Copy sessions between stores (`file`, a directory, or a postgres:// URL), with their branch links; a session already there is kept'
            cand config 'Print the effective configuration (JSON), or every key with its origin'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ollm-session;help;create'= {
        }
        &'ollm-session;help;record'= {
        }
        &'ollm-session;help;get'= {
        }
        &'ollm-session;help;resume'= {
        }
        &'ollm-session;help;list'= {
        }
        &'ollm-session;help;search'= {
        }
        &'ollm-session;help;export'= {
        }
        &'ollm-session;help;rename'= {
        }
        &'ollm-session;help;delete'= {
        }
        &'ollm-session;help;cleanup'= {
        }
        &'ollm-session;help;clear'= {
        }
        &'ollm-session;help;branch'= {
        }
        &'ollm-session;help;branches'= {
        }
        &'ollm-session;help;rewind'= {
        }
        &'ollm-session;help;scan'= {
        }
        &'ollm-session;help;redact'= {
        }
        &'ollm-session;help;import'= {
        }
        &'ollm-session;help;reindex'= {
        }
        &'ollm-session;help;keep'= {
        }
        &'ollm-session;help;snapshot'= {
            cand create 'Snapshot a session (or the message list on stdin with --stdin); deletes the oldest beyond snapshots.maxCount'
            cand list 'A session''s snapshots, newest first'
            cand show 'Print a whole snapshot'
            cand restore 'Print the snapshot''s context as a message list in its original order, or re-create it as a new session'
            cand delete 'Delete a snapshot. Prints {"deleted": [SNAPSHOT_ID]}'
        }
        &'ollm-session;help;snapshot;create'= {
        }
        &'ollm-session;help;snapshot;list'= {
        }
        &'ollm-session;help;snapshot;show'= {
        }
        &'ollm-session;help;snapshot;restore'= {
        }
        &'ollm-session;help;snapshot;delete'= {
        }
        &'ollm-session;help;copy'= {
        }
        &'ollm-session;help;config'= {
        }
        &'ollm-session;help;help'= {
        }
    ]
    $completions[$command]
}
