
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'ollm-session' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'ollm-session'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'ollm-session' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'The session data directory (services.session.dataDir)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)')
            [CompletionResult]::new('--no-redact', '--no-redact', [CompletionResultType]::ParameterName, 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Create a session; prints {"sessionId": …}. Records the workspace it was made in (the git top level, else the current directory) for --here. Deletes the oldest sessions beyond maxSessions (never a locked one)')
            [CompletionResult]::new('record', 'record', [CompletionResultType]::ParameterValue, 'Record a message or a tool call with its result; one JSON document, or NDJSON (one record a line, each acknowledged on stdout once it is on disk). An object with `role` is a message, one with `name` and `result` a tool call; a missing `timestamp` is now. Large texts come from a file or stdin (`--result-file FILE`, `--result -`), never from the command line''s size limit. With --last, a single positional argument is INPUT')
            [CompletionResult]::new('get', 'get', [CompletionResultType]::ParameterValue, 'Print a whole session as the spec''s JSON (a transcript on a terminal)')
            [CompletionResult]::new('view', 'view', [CompletionResultType]::ParameterValue, 'Print a whole session as the spec''s JSON (a transcript on a terminal)')
            [CompletionResult]::new('resume', 'resume', [CompletionResultType]::ParameterValue, 'Choose a session to carry on with and print its id (or start --exec on it). At a terminal with no ID, a picker shows the sessions newest first (arrow keys, type to filter); --continue takes the latest session of this workspace, as `claude --continue` does. Off a terminal, an ID, --continue or --last is required (exit 2)')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List sessions newest first: sessionId, startTime, lastActivity, model, messageCount, tokenCount, title, workspace (JSON when piped, a table on a terminal)')
            [CompletionResult]::new('ls', 'ls', [CompletionResultType]::ParameterValue, 'List sessions newest first: sessionId, startTime, lastActivity, model, messageCount, tokenCount, title, workspace (JSON when piped, a table on a terminal)')
            [CompletionResult]::new('search', 'search', [CompletionResultType]::ParameterValue, 'Search every session''s title, messages and tool calls; each hit gives the session id, message index, role, timestamp and a snippet')
            [CompletionResult]::new('export', 'export', [CompletionResultType]::ParameterValue, 'Export a session as the spec''s JSON, a Markdown transcript or a self-contained HTML page; or every session as an HTML archive')
            [CompletionResult]::new('rename', 'rename', [CompletionResultType]::ParameterValue, 'Give a session a title (or remove it with --clear); commands then take the title in place of the id. Prints what changed')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Delete a session with its snapshots, its file checkpoints and any copies of it set aside as corrupt, as one operation. Prints {"deleted": [ID]}')
            [CompletionResult]::new('rm', 'rm', [CompletionResultType]::ParameterValue, 'Delete a session with its snapshots, its file checkpoints and any copies of it set aside as corrupt, as one operation. Prints {"deleted": [ID]}')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Delete a session with its snapshots, its file checkpoints and any copies of it set aside as corrupt, as one operation. Prints {"deleted": [ID]}')
            [CompletionResult]::new('cleanup', 'cleanup', [CompletionResultType]::ParameterValue, 'Keep the N most recently active sessions, delete the rest (skipping any being written). Prints what was deleted and kept')
            [CompletionResult]::new('clear', 'clear', [CompletionResultType]::ParameterValue, 'Delete every session. Asks for confirmation on a terminal; elsewhere --yes is required')
            [CompletionResult]::new('branch', 'branch', [CompletionResultType]::ParameterValue, 'Start a new session that keeps the first N messages (with the tool calls made among them); records parentSessionId and branchPoint')
            [CompletionResult]::new('branches', 'branches', [CompletionResultType]::ParameterValue, 'List the sessions branched from a session')
            [CompletionResult]::new('rewind', 'rewind', [CompletionResultType]::ParameterValue, 'Go back to point N: branch the conversation at N messages (`branch --at N`) and restore the files to checkpoint turn N (`ollm checkpoint restore --turn N`), or only one of them. A runtime that snapshots with `--turn` set to the session''s message count makes one N name both. The files go first: at a conflict (a file changed since the session''s last checkpoint) nothing changes, the conversation is not branched, and the exit code is 1; --force restores anyway. Prints {"branch":{…}|null,"code":{…}|null}')
            [CompletionResult]::new('scan', 'scan', [CompletionResultType]::ParameterValue, 'Find credentials already stored (records, titles, snapshots; every format the store holds): one NDJSON finding a line (session, record, field, kind, a masked preview; never the credential), a table at a terminal. Exits 1 when anything is found, 0 when clean (as gitleaks does). `ollm-session redact` removes what it finds')
            [CompletionResult]::new('redact', 'redact', [CompletionResultType]::ParameterValue, 'Replace credentials already stored with `[REDACTED:<kind>]`, in place: each session (and each snapshot) is replaced whole in one step, so a crash leaves it as it was or fully scrubbed. Prints {"sessionId", "redacted"} a session; --dry-run prints what `scan` finds instead and changes nothing')
            [CompletionResult]::new('import', 'import', [CompletionResultType]::ParameterValue, 'Import sessions of Claude Code, Codex, gemini-cli, opencode and goose: one session per source session, with every message, every tool call paired with its result, the working directory as its workspace (so `--here` and `resume --continue` find it in that project), the title, model and times, and where it came from in `metadata.importedFrom`; stored as journals whatever services.session.format says. The sources are only read (a database through a private copy, so a live one and its write-ahead log are never written). Importing again adds only what a source gained since. Prints one NDJSON line per session ({"tool", "source", "sourceId", "sessionId", "status", "messages", "toolCalls", "added", "skipped"}) and a last {"summary": …} line; a table at a terminal. Exits 4 when a source could not be read (the others are imported)')
            [CompletionResult]::new('reindex', 'reindex', [CompletionResultType]::ParameterValue, 'Rebuild the file store''s index from the sessions'' files. The index is what `list`, `--last`, `--here`, prefixes and titles read; it is kept up to date by every command and rebuilt on its own when it is missing or damaged, so this is only needed after sessions were changed by an older ollm or restored by hand into a session directory that already existed. Prints how many sessions it holds. On PostgreSQL, which keeps its indexes itself, it only counts them')
            [CompletionResult]::new('keep', 'keep', [CompletionResultType]::ParameterValue, 'Keep the PostgreSQL store''s connections open between commands: a short command then takes about half the time')
            [CompletionResult]::new('snapshot', 'snapshot', [CompletionResultType]::ParameterValue, 'Context snapshots: create, list, show, restore, delete')
            [CompletionResult]::new('snapshots', 'snapshots', [CompletionResultType]::ParameterValue, 'Context snapshots: create, list, show, restore, delete')
            [CompletionResult]::new('copy', 'copy', [CompletionResultType]::ParameterValue, 'Copy sessions between stores (`file`, a directory, or a postgres:// URL), with their branch links; a session already there is kept')
            [CompletionResult]::new('config', 'config', [CompletionResultType]::ParameterValue, 'Print the effective configuration (JSON), or every key with its origin')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ollm-session;create' {
            [CompletionResult]::new('--model', '--model', [CompletionResultType]::ParameterName, 'The model the session talks to (the spec''s `model`)')
            [CompletionResult]::new('--provider', '--provider', [CompletionResultType]::ParameterName, 'The model''s provider, e.g. ollama or openai (the spec''s `provider`)')
            [CompletionResult]::new('--title', '--title', [CompletionResultType]::ParameterName, 'A name for the session (additive field `title`); commands then take it in place of the id')
            [CompletionResult]::new('--max-sessions', '--max-sessions', [CompletionResultType]::ParameterName, 'Sessions to keep (services.session.maxSessions; 0: no limit)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'The session data directory (services.session.dataDir)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only the new session''s id (a line of text, as `docker create` does), for `id=$(…)` without a JSON tool')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only the new session''s id (a line of text, as `docker create` does), for `id=$(…)` without a JSON tool')
            [CompletionResult]::new('--no-redact', '--no-redact', [CompletionResultType]::ParameterName, 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm-session;record' {
            [CompletionResult]::new('--role', '--role', [CompletionResultType]::ParameterName, 'Shorthand: a plain text message with this role')
            [CompletionResult]::new('--text', '--text', [CompletionResultType]::ParameterName, 'Shorthand: the message''s text (`-` reads it from stdin)')
            [CompletionResult]::new('--text-file', '--text-file', [CompletionResultType]::ParameterName, 'Shorthand: the message''s text, read from FILE')
            [CompletionResult]::new('--tool', '--tool', [CompletionResultType]::ParameterName, 'Shorthand: a tool call with this tool name')
            [CompletionResult]::new('--args', '--args', [CompletionResultType]::ParameterName, 'The tool call''s arguments, a JSON object (`-` reads it from stdin; default {})')
            [CompletionResult]::new('--args-file', '--args-file', [CompletionResultType]::ParameterName, 'The tool call''s arguments, read from FILE')
            [CompletionResult]::new('--result', '--result', [CompletionResultType]::ParameterName, 'The tool''s result for the model (llmContent; `-` reads it from stdin)')
            [CompletionResult]::new('--result-file', '--result-file', [CompletionResultType]::ParameterName, 'The tool''s result for the model, read from FILE')
            [CompletionResult]::new('--display', '--display', [CompletionResultType]::ParameterName, 'The tool''s result for display (returnDisplay)')
            [CompletionResult]::new('--call-id', '--call-id', [CompletionResultType]::ParameterName, 'The tool call''s id (default: a new one)')
            [CompletionResult]::new('--tokens', '--tokens', [CompletionResultType]::ParameterName, 'The record''s token count from a real tokenizer, instead of the estimate (characters ÷ 4). Only with a single record')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'The session data directory (services.session.dataDir)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)')
            [CompletionResult]::new('--last', '--last', [CompletionResultType]::ParameterName, 'The most recently active session')
            [CompletionResult]::new('--here', '--here', [CompletionResultType]::ParameterName, 'Only sessions made in this workspace (the git top level, else the current directory); without ID, the latest of them')
            [CompletionResult]::new('--no-redact', '--no-redact', [CompletionResultType]::ParameterName, 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm-session;get' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'json (default when piped) or markdown (default on a terminal)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'The session data directory (services.session.dataDir)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)')
            [CompletionResult]::new('--last', '--last', [CompletionResultType]::ParameterName, 'The most recently active session')
            [CompletionResult]::new('--here', '--here', [CompletionResultType]::ParameterName, 'Only sessions made in this workspace (the git top level, else the current directory); without ID, the latest of them')
            [CompletionResult]::new('--messages', '--messages', [CompletionResultType]::ParameterName, 'Only the messages (as a JSON array, or without the header and tool calls in markdown)')
            [CompletionResult]::new('--full', '--full', [CompletionResultType]::ParameterName, 'Show long tool results whole (at a terminal they are folded to their first 10 lines)')
            [CompletionResult]::new('--no-redact', '--no-redact', [CompletionResultType]::ParameterName, 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'ollm-session;view' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'json (default when piped) or markdown (default on a terminal)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'The session data directory (services.session.dataDir)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)')
            [CompletionResult]::new('--last', '--last', [CompletionResultType]::ParameterName, 'The most recently active session')
            [CompletionResult]::new('--here', '--here', [CompletionResultType]::ParameterName, 'Only sessions made in this workspace (the git top level, else the current directory); without ID, the latest of them')
            [CompletionResult]::new('--messages', '--messages', [CompletionResultType]::ParameterName, 'Only the messages (as a JSON array, or without the header and tool calls in markdown)')
            [CompletionResult]::new('--full', '--full', [CompletionResultType]::ParameterName, 'Show long tool results whole (at a terminal they are folded to their first 10 lines)')
            [CompletionResult]::new('--no-redact', '--no-redact', [CompletionResultType]::ParameterName, 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'ollm-session;resume' {
            [CompletionResult]::new('--exec', '--exec', [CompletionResultType]::ParameterName, 'Run CMD (with sh -c) with the chosen id as its last argument and in OLLM_SESSION_ID, instead of printing the id')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'The session data directory (services.session.dataDir)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'The latest session made in this workspace (the git top level, else the current directory)')
            [CompletionResult]::new('--continue', '--continue', [CompletionResultType]::ParameterName, 'The latest session made in this workspace (the git top level, else the current directory)')
            [CompletionResult]::new('--last', '--last', [CompletionResultType]::ParameterName, 'The most recently active session anywhere')
            [CompletionResult]::new('--here', '--here', [CompletionResultType]::ParameterName, 'Only sessions made in this workspace (in the picker too)')
            [CompletionResult]::new('--no-redact', '--no-redact', [CompletionResultType]::ParameterName, 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm-session;list' {
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Show at most N sessions')
            [CompletionResult]::new('--offset', '--offset', [CompletionResultType]::ParameterName, 'Skip the N newest sessions first (with --limit: pages)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'json (default when piped), table (default on a terminal), ndjson or text')
            [CompletionResult]::new('--model', '--model', [CompletionResultType]::ParameterName, 'Only sessions with this model')
            [CompletionResult]::new('--since', '--since', [CompletionResultType]::ParameterName, 'Only sessions active since WHEN: a duration back from now (2h, 3d, 1week) or a date (2026-01-15)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'The session data directory (services.session.dataDir)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)')
            [CompletionResult]::new('--corrupt', '--corrupt', [CompletionResultType]::ParameterName, 'List the sessions set aside as corrupt instead: sessionId, path and format (`journal` or `plain`). `delete ID` removes them')
            [CompletionResult]::new('--here', '--here', [CompletionResultType]::ParameterName, 'Only sessions made in this workspace (the git top level, else the current directory)')
            [CompletionResult]::new('--no-redact', '--no-redact', [CompletionResultType]::ParameterName, 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'ollm-session;ls' {
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Show at most N sessions')
            [CompletionResult]::new('--offset', '--offset', [CompletionResultType]::ParameterName, 'Skip the N newest sessions first (with --limit: pages)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'json (default when piped), table (default on a terminal), ndjson or text')
            [CompletionResult]::new('--model', '--model', [CompletionResultType]::ParameterName, 'Only sessions with this model')
            [CompletionResult]::new('--since', '--since', [CompletionResultType]::ParameterName, 'Only sessions active since WHEN: a duration back from now (2h, 3d, 1week) or a date (2026-01-15)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'The session data directory (services.session.dataDir)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)')
            [CompletionResult]::new('--corrupt', '--corrupt', [CompletionResultType]::ParameterName, 'List the sessions set aside as corrupt instead: sessionId, path and format (`journal` or `plain`). `delete ID` removes them')
            [CompletionResult]::new('--here', '--here', [CompletionResultType]::ParameterName, 'Only sessions made in this workspace (the git top level, else the current directory)')
            [CompletionResult]::new('--no-redact', '--no-redact', [CompletionResultType]::ParameterName, 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'ollm-session;search' {
            [CompletionResult]::new('--role', '--role', [CompletionResultType]::ParameterName, 'Only messages of this role (`tool` also matches tool calls, `title` only titles)')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Show at most N hits, the newest')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'json (default when piped), table (default on a terminal), ndjson or text')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'The session data directory (services.session.dataDir)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)')
            [CompletionResult]::new('-e', '-e', [CompletionResultType]::ParameterName, 'PATTERN is a regular expression (Rust regex syntax)')
            [CompletionResult]::new('--regex', '--regex', [CompletionResultType]::ParameterName, 'PATTERN is a regular expression (Rust regex syntax)')
            [CompletionResult]::new('-i', '-i', [CompletionResultType]::ParameterName, 'Match regardless of case')
            [CompletionResult]::new('--ignore-case', '--ignore-case', [CompletionResultType]::ParameterName, 'Match regardless of case')
            [CompletionResult]::new('--no-redact', '--no-redact', [CompletionResultType]::ParameterName, 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'ollm-session;export' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'json, markdown or html (default: from the --output extension, .md or .markdown, .html or .htm; else json; html with --all)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Write here (atomically, owner-only 0600) instead of stdout. An existing file is replaced only with --force; anything that is not a regular file is refused (`-` and /dev/stdout are stdout). With --all, the archive''s directory')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Write here (atomically, owner-only 0600) instead of stdout. An existing file is replaced only with --force; anything that is not a regular file is refused (`-` and /dev/stdout are stdout). With --all, the archive''s directory')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'The session data directory (services.session.dataDir)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)')
            [CompletionResult]::new('--last', '--last', [CompletionResultType]::ParameterName, 'The most recently active session')
            [CompletionResult]::new('--here', '--here', [CompletionResultType]::ParameterName, 'Only sessions made in this workspace (the git top level, else the current directory); without ID, the latest of them')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Every session, as an HTML archive in the directory --output names: index.html (sessions by project and date, a search across all of them) and <id>.html a session')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Replace an existing output file (with --all, existing pages)')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Replace an existing output file (with --all, existing pages)')
            [CompletionResult]::new('--no-redact', '--no-redact', [CompletionResultType]::ParameterName, 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'ollm-session;rename' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'The session data directory (services.session.dataDir)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)')
            [CompletionResult]::new('--last', '--last', [CompletionResultType]::ParameterName, 'The most recently active session')
            [CompletionResult]::new('--here', '--here', [CompletionResultType]::ParameterName, 'Only sessions made in this workspace (the git top level, else the current directory); without ID, the latest of them')
            [CompletionResult]::new('--clear', '--clear', [CompletionResultType]::ParameterName, 'Remove the title instead')
            [CompletionResult]::new('--no-redact', '--no-redact', [CompletionResultType]::ParameterName, 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm-session;delete' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'The session data directory (services.session.dataDir)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)')
            [CompletionResult]::new('--last', '--last', [CompletionResultType]::ParameterName, 'The most recently active session')
            [CompletionResult]::new('--here', '--here', [CompletionResultType]::ParameterName, 'Only sessions made in this workspace (the git top level, else the current directory); without ID, the latest of them')
            [CompletionResult]::new('--no-redact', '--no-redact', [CompletionResultType]::ParameterName, 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm-session;rm' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'The session data directory (services.session.dataDir)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)')
            [CompletionResult]::new('--last', '--last', [CompletionResultType]::ParameterName, 'The most recently active session')
            [CompletionResult]::new('--here', '--here', [CompletionResultType]::ParameterName, 'Only sessions made in this workspace (the git top level, else the current directory); without ID, the latest of them')
            [CompletionResult]::new('--no-redact', '--no-redact', [CompletionResultType]::ParameterName, 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm-session;remove' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'The session data directory (services.session.dataDir)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)')
            [CompletionResult]::new('--last', '--last', [CompletionResultType]::ParameterName, 'The most recently active session')
            [CompletionResult]::new('--here', '--here', [CompletionResultType]::ParameterName, 'Only sessions made in this workspace (the git top level, else the current directory); without ID, the latest of them')
            [CompletionResult]::new('--no-redact', '--no-redact', [CompletionResultType]::ParameterName, 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm-session;cleanup' {
            [CompletionResult]::new('--keep', '--keep', [CompletionResultType]::ParameterName, 'How many sessions to keep, the most recently active')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'The session data directory (services.session.dataDir)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Show what would be deleted')
            [CompletionResult]::new('--no-redact', '--no-redact', [CompletionResultType]::ParameterName, 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm-session;clear' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'The session data directory (services.session.dataDir)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Required: delete all sessions')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask; required when stdin or stderr is not a terminal')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask; required when stdin or stderr is not a terminal')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Show what would be deleted')
            [CompletionResult]::new('--no-redact', '--no-redact', [CompletionResultType]::ParameterName, 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm-session;branch' {
            [CompletionResult]::new('--at', '--at', [CompletionResultType]::ParameterName, 'How many messages the branch keeps: the first N (0 to the message count; `--at 1` keeps only message 0)')
            [CompletionResult]::new('--title', '--title', [CompletionResultType]::ParameterName, 'A title for the branch (default: the parent''s with "(branch)" added, numbered when that is taken, so the title names one session)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'The session data directory (services.session.dataDir)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)')
            [CompletionResult]::new('--last', '--last', [CompletionResultType]::ParameterName, 'The most recently active session')
            [CompletionResult]::new('--here', '--here', [CompletionResultType]::ParameterName, 'Only sessions made in this workspace (the git top level, else the current directory); without ID, the latest of them')
            [CompletionResult]::new('--no-redact', '--no-redact', [CompletionResultType]::ParameterName, 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm-session;branches' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'json (default when piped), table (default on a terminal), ndjson or text')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'The session data directory (services.session.dataDir)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)')
            [CompletionResult]::new('--last', '--last', [CompletionResultType]::ParameterName, 'The most recently active session')
            [CompletionResult]::new('--here', '--here', [CompletionResultType]::ParameterName, 'Only sessions made in this workspace (the git top level, else the current directory); without ID, the latest of them')
            [CompletionResult]::new('--no-redact', '--no-redact', [CompletionResultType]::ParameterName, 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'ollm-session;rewind' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'The session data directory (services.session.dataDir)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)')
            [CompletionResult]::new('--code', '--code', [CompletionResultType]::ParameterName, 'Restore the files (alone, unless --conversation too)')
            [CompletionResult]::new('--conversation', '--conversation', [CompletionResultType]::ParameterName, 'Branch the conversation (alone, unless --code too)')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Restore files changed since the last checkpoint too (undoable: see the report''s `undoTurn`)')
            [CompletionResult]::new('--no-redact', '--no-redact', [CompletionResultType]::ParameterName, 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm-session;scan' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'ndjson (default when piped), table (default on a terminal), json or text')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'The session data directory (services.session.dataDir)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)')
            [CompletionResult]::new('--last', '--last', [CompletionResultType]::ParameterName, 'The most recently active session')
            [CompletionResult]::new('--here', '--here', [CompletionResultType]::ParameterName, 'The latest session made in this workspace (with ID: only its sessions)')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Every session in the store')
            [CompletionResult]::new('--no-redact', '--no-redact', [CompletionResultType]::ParameterName, 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'ollm-session;redact' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'ndjson (default when piped), table (default on a terminal), json or text')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'The session data directory (services.session.dataDir)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)')
            [CompletionResult]::new('--last', '--last', [CompletionResultType]::ParameterName, 'The most recently active session')
            [CompletionResult]::new('--here', '--here', [CompletionResultType]::ParameterName, 'The latest session made in this workspace (with ID: only its sessions)')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Every session in the store')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Show what would be replaced (as `scan` does); change nothing')
            [CompletionResult]::new('--no-redact', '--no-redact', [CompletionResultType]::ParameterName, 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'ollm-session;import' {
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'The tool the sessions are from (repeatable: `--from claude --from codex`); `auto` reads every tool''s (its default locations, or each path as whichever tool''s it is)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'ndjson (default when piped), table (default on a terminal), json or text')
            [CompletionResult]::new('--hook', '--hook', [CompletionResultType]::ParameterName, 'Import the one transcript that TOOL''s hook names on standard input (the hook JSON of Claude Code or gemini-cli: `transcript_path`), reading it only if it changed. Prints nothing and always exits 0, so a hook never breaks the agent: a reason it could not import goes to stderr and to $OLLM_HOME/logs/import-hook.log')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'The session data directory (services.session.dataDir)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Say what would be imported; write nothing')
            [CompletionResult]::new('--watch', '--watch', [CompletionResultType]::ParameterName, 'Keep importing as the sources are written, until SIGINT, SIGTERM or the end of standard input when it is a pipe: a catch-up of what changed since the last import, then each change within a second or two. One NDJSON line per session touched (a status line at a terminal) and the summary when stopped. One watcher per store')
            [CompletionResult]::new('--no-redact', '--no-redact', [CompletionResultType]::ParameterName, 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'ollm-session;reindex' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'The session data directory (services.session.dataDir)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)')
            [CompletionResult]::new('--no-redact', '--no-redact', [CompletionResultType]::ParameterName, 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm-session;keep' {
            [CompletionResult]::new('--idle', '--idle', [CompletionResultType]::ParameterName, 'Stop after this long without a command (e.g. `30m`, `2h`)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'The session data directory (services.session.dataDir)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)')
            [CompletionResult]::new('--no-redact', '--no-redact', [CompletionResultType]::ParameterName, 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'ollm-session;snapshot' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'The session data directory (services.session.dataDir)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)')
            [CompletionResult]::new('--no-redact', '--no-redact', [CompletionResultType]::ParameterName, 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Snapshot a session (or the message list on stdin with --stdin); deletes the oldest beyond snapshots.maxCount')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'A session''s snapshots, newest first')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Print a whole snapshot')
            [CompletionResult]::new('restore', 'restore', [CompletionResultType]::ParameterValue, 'Print the snapshot''s context as a message list in its original order, or re-create it as a new session')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Delete a snapshot. Prints {"deleted": [SNAPSHOT_ID]}')
            [CompletionResult]::new('rm', 'rm', [CompletionResultType]::ParameterValue, 'Delete a snapshot. Prints {"deleted": [SNAPSHOT_ID]}')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Delete a snapshot. Prints {"deleted": [SNAPSHOT_ID]}')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ollm-session;snapshots' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'The session data directory (services.session.dataDir)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)')
            [CompletionResult]::new('--no-redact', '--no-redact', [CompletionResultType]::ParameterName, 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Snapshot a session (or the message list on stdin with --stdin); deletes the oldest beyond snapshots.maxCount')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'A session''s snapshots, newest first')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Print a whole snapshot')
            [CompletionResult]::new('restore', 'restore', [CompletionResultType]::ParameterValue, 'Print the snapshot''s context as a message list in its original order, or re-create it as a new session')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Delete a snapshot. Prints {"deleted": [SNAPSHOT_ID]}')
            [CompletionResult]::new('rm', 'rm', [CompletionResultType]::ParameterValue, 'Delete a snapshot. Prints {"deleted": [SNAPSHOT_ID]}')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Delete a snapshot. Prints {"deleted": [SNAPSHOT_ID]}')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ollm-session;snapshot;create' {
            [CompletionResult]::new('--summary', '--summary', [CompletionResultType]::ParameterName, 'What the snapshot holds, in a few words')
            [CompletionResult]::new('--max-count', '--max-count', [CompletionResultType]::ParameterName, 'Snapshots kept per session (snapshots.maxCount; 0: no limit)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'The session data directory (services.session.dataDir)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)')
            [CompletionResult]::new('--last', '--last', [CompletionResultType]::ParameterName, 'The most recently active session')
            [CompletionResult]::new('--here', '--here', [CompletionResultType]::ParameterName, 'Only sessions made in this workspace (the git top level, else the current directory); without ID, the latest of them')
            [CompletionResult]::new('--stdin', '--stdin', [CompletionResultType]::ParameterName, 'Read the context to snapshot (a JSON array of messages) from stdin')
            [CompletionResult]::new('--no-redact', '--no-redact', [CompletionResultType]::ParameterName, 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm-session;snapshots;create' {
            [CompletionResult]::new('--summary', '--summary', [CompletionResultType]::ParameterName, 'What the snapshot holds, in a few words')
            [CompletionResult]::new('--max-count', '--max-count', [CompletionResultType]::ParameterName, 'Snapshots kept per session (snapshots.maxCount; 0: no limit)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'The session data directory (services.session.dataDir)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)')
            [CompletionResult]::new('--last', '--last', [CompletionResultType]::ParameterName, 'The most recently active session')
            [CompletionResult]::new('--here', '--here', [CompletionResultType]::ParameterName, 'Only sessions made in this workspace (the git top level, else the current directory); without ID, the latest of them')
            [CompletionResult]::new('--stdin', '--stdin', [CompletionResultType]::ParameterName, 'Read the context to snapshot (a JSON array of messages) from stdin')
            [CompletionResult]::new('--no-redact', '--no-redact', [CompletionResultType]::ParameterName, 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm-session;snapshot;list' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'json (default when piped), table (default on a terminal), ndjson or text')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'The session data directory (services.session.dataDir)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)')
            [CompletionResult]::new('--last', '--last', [CompletionResultType]::ParameterName, 'The most recently active session')
            [CompletionResult]::new('--here', '--here', [CompletionResultType]::ParameterName, 'Only sessions made in this workspace (the git top level, else the current directory); without ID, the latest of them')
            [CompletionResult]::new('--no-redact', '--no-redact', [CompletionResultType]::ParameterName, 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'ollm-session;snapshots;list' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'json (default when piped), table (default on a terminal), ndjson or text')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'The session data directory (services.session.dataDir)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)')
            [CompletionResult]::new('--last', '--last', [CompletionResultType]::ParameterName, 'The most recently active session')
            [CompletionResult]::new('--here', '--here', [CompletionResultType]::ParameterName, 'Only sessions made in this workspace (the git top level, else the current directory); without ID, the latest of them')
            [CompletionResult]::new('--no-redact', '--no-redact', [CompletionResultType]::ParameterName, 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'ollm-session;snapshot;show' {
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session the snapshot belongs to (an id, prefix or title; found by searching every session''s snapshots when not given)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'The session data directory (services.session.dataDir)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)')
            [CompletionResult]::new('--no-redact', '--no-redact', [CompletionResultType]::ParameterName, 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm-session;snapshots;show' {
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session the snapshot belongs to (an id, prefix or title; found by searching every session''s snapshots when not given)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'The session data directory (services.session.dataDir)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)')
            [CompletionResult]::new('--no-redact', '--no-redact', [CompletionResultType]::ParameterName, 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm-session;snapshot;restore' {
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session the snapshot belongs to (an id, prefix or title; found by searching every session''s snapshots when not given)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'The session data directory (services.session.dataDir)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)')
            [CompletionResult]::new('--as-session', '--as-session', [CompletionResultType]::ParameterName, 'Create a new session holding the context; prints its id')
            [CompletionResult]::new('--no-redact', '--no-redact', [CompletionResultType]::ParameterName, 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm-session;snapshots;restore' {
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session the snapshot belongs to (an id, prefix or title; found by searching every session''s snapshots when not given)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'The session data directory (services.session.dataDir)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)')
            [CompletionResult]::new('--as-session', '--as-session', [CompletionResultType]::ParameterName, 'Create a new session holding the context; prints its id')
            [CompletionResult]::new('--no-redact', '--no-redact', [CompletionResultType]::ParameterName, 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm-session;snapshot;delete' {
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session the snapshot belongs to (an id, prefix or title; found by searching every session''s snapshots when not given)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'The session data directory (services.session.dataDir)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)')
            [CompletionResult]::new('--no-redact', '--no-redact', [CompletionResultType]::ParameterName, 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm-session;snapshot;rm' {
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session the snapshot belongs to (an id, prefix or title; found by searching every session''s snapshots when not given)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'The session data directory (services.session.dataDir)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)')
            [CompletionResult]::new('--no-redact', '--no-redact', [CompletionResultType]::ParameterName, 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm-session;snapshot;remove' {
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session the snapshot belongs to (an id, prefix or title; found by searching every session''s snapshots when not given)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'The session data directory (services.session.dataDir)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)')
            [CompletionResult]::new('--no-redact', '--no-redact', [CompletionResultType]::ParameterName, 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm-session;snapshots;delete' {
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session the snapshot belongs to (an id, prefix or title; found by searching every session''s snapshots when not given)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'The session data directory (services.session.dataDir)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)')
            [CompletionResult]::new('--no-redact', '--no-redact', [CompletionResultType]::ParameterName, 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm-session;snapshots;rm' {
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session the snapshot belongs to (an id, prefix or title; found by searching every session''s snapshots when not given)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'The session data directory (services.session.dataDir)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)')
            [CompletionResult]::new('--no-redact', '--no-redact', [CompletionResultType]::ParameterName, 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm-session;snapshots;remove' {
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session the snapshot belongs to (an id, prefix or title; found by searching every session''s snapshots when not given)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'The session data directory (services.session.dataDir)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)')
            [CompletionResult]::new('--no-redact', '--no-redact', [CompletionResultType]::ParameterName, 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm-session;snapshot;help' {
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Snapshot a session (or the message list on stdin with --stdin); deletes the oldest beyond snapshots.maxCount')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'A session''s snapshots, newest first')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Print a whole snapshot')
            [CompletionResult]::new('restore', 'restore', [CompletionResultType]::ParameterValue, 'Print the snapshot''s context as a message list in its original order, or re-create it as a new session')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Delete a snapshot. Prints {"deleted": [SNAPSHOT_ID]}')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ollm-session;snapshot;help;create' {
            break
        }
        'ollm-session;snapshot;help;list' {
            break
        }
        'ollm-session;snapshot;help;show' {
            break
        }
        'ollm-session;snapshot;help;restore' {
            break
        }
        'ollm-session;snapshot;help;delete' {
            break
        }
        'ollm-session;snapshot;help;help' {
            break
        }
        'ollm-session;snapshots;help' {
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Snapshot a session (or the message list on stdin with --stdin); deletes the oldest beyond snapshots.maxCount')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'A session''s snapshots, newest first')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Print a whole snapshot')
            [CompletionResult]::new('restore', 'restore', [CompletionResultType]::ParameterValue, 'Print the snapshot''s context as a message list in its original order, or re-create it as a new session')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Delete a snapshot. Prints {"deleted": [SNAPSHOT_ID]}')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ollm-session;snapshots;help;create' {
            break
        }
        'ollm-session;snapshots;help;list' {
            break
        }
        'ollm-session;snapshots;help;show' {
            break
        }
        'ollm-session;snapshots;help;restore' {
            break
        }
        'ollm-session;snapshots;help;delete' {
            break
        }
        'ollm-session;snapshots;help;help' {
            break
        }
        'ollm-session;copy' {
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'Where to copy from: `file` (the data directory), a directory of sessions (journals or plain <id>.json files), or a postgres:// URL')
            [CompletionResult]::new('--to', '--to', [CompletionResultType]::ParameterName, 'Where to copy to (as --from)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'The session data directory (services.session.dataDir)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Copy every session of --from')
            [CompletionResult]::new('--no-redact', '--no-redact', [CompletionResultType]::ParameterName, 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm-session;config' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'The session data directory (services.session.dataDir)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)')
            [CompletionResult]::new('--show-origin', '--show-origin', [CompletionResultType]::ParameterName, 'Show every key with its value and where it came from (default, a file, an environment variable or a flag), like `git config --show-origin`')
            [CompletionResult]::new('--no-redact', '--no-redact', [CompletionResultType]::ParameterName, 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm-session;help' {
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Create a session; prints {"sessionId": …}. Records the workspace it was made in (the git top level, else the current directory) for --here. Deletes the oldest sessions beyond maxSessions (never a locked one)')
            [CompletionResult]::new('record', 'record', [CompletionResultType]::ParameterValue, 'Record a message or a tool call with its result; one JSON document, or NDJSON (one record a line, each acknowledged on stdout once it is on disk). An object with `role` is a message, one with `name` and `result` a tool call; a missing `timestamp` is now. Large texts come from a file or stdin (`--result-file FILE`, `--result -`), never from the command line''s size limit. With --last, a single positional argument is INPUT')
            [CompletionResult]::new('get', 'get', [CompletionResultType]::ParameterValue, 'Print a whole session as the spec''s JSON (a transcript on a terminal)')
            [CompletionResult]::new('resume', 'resume', [CompletionResultType]::ParameterValue, 'Choose a session to carry on with and print its id (or start --exec on it). At a terminal with no ID, a picker shows the sessions newest first (arrow keys, type to filter); --continue takes the latest session of this workspace, as `claude --continue` does. Off a terminal, an ID, --continue or --last is required (exit 2)')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List sessions newest first: sessionId, startTime, lastActivity, model, messageCount, tokenCount, title, workspace (JSON when piped, a table on a terminal)')
            [CompletionResult]::new('search', 'search', [CompletionResultType]::ParameterValue, 'Search every session''s title, messages and tool calls; each hit gives the session id, message index, role, timestamp and a snippet')
            [CompletionResult]::new('export', 'export', [CompletionResultType]::ParameterValue, 'Export a session as the spec''s JSON, a Markdown transcript or a self-contained HTML page; or every session as an HTML archive')
            [CompletionResult]::new('rename', 'rename', [CompletionResultType]::ParameterValue, 'Give a session a title (or remove it with --clear); commands then take the title in place of the id. Prints what changed')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Delete a session with its snapshots, its file checkpoints and any copies of it set aside as corrupt, as one operation. Prints {"deleted": [ID]}')
            [CompletionResult]::new('cleanup', 'cleanup', [CompletionResultType]::ParameterValue, 'Keep the N most recently active sessions, delete the rest (skipping any being written). Prints what was deleted and kept')
            [CompletionResult]::new('clear', 'clear', [CompletionResultType]::ParameterValue, 'Delete every session. Asks for confirmation on a terminal; elsewhere --yes is required')
            [CompletionResult]::new('branch', 'branch', [CompletionResultType]::ParameterValue, 'Start a new session that keeps the first N messages (with the tool calls made among them); records parentSessionId and branchPoint')
            [CompletionResult]::new('branches', 'branches', [CompletionResultType]::ParameterValue, 'List the sessions branched from a session')
            [CompletionResult]::new('rewind', 'rewind', [CompletionResultType]::ParameterValue, 'Go back to point N: branch the conversation at N messages (`branch --at N`) and restore the files to checkpoint turn N (`ollm checkpoint restore --turn N`), or only one of them. A runtime that snapshots with `--turn` set to the session''s message count makes one N name both. The files go first: at a conflict (a file changed since the session''s last checkpoint) nothing changes, the conversation is not branched, and the exit code is 1; --force restores anyway. Prints {"branch":{…}|null,"code":{…}|null}')
            [CompletionResult]::new('scan', 'scan', [CompletionResultType]::ParameterValue, 'Find credentials already stored (records, titles, snapshots; every format the store holds): one NDJSON finding a line (session, record, field, kind, a masked preview; never the credential), a table at a terminal. Exits 1 when anything is found, 0 when clean (as gitleaks does). `ollm-session redact` removes what it finds')
            [CompletionResult]::new('redact', 'redact', [CompletionResultType]::ParameterValue, 'Replace credentials already stored with `[REDACTED:<kind>]`, in place: each session (and each snapshot) is replaced whole in one step, so a crash leaves it as it was or fully scrubbed. Prints {"sessionId", "redacted"} a session; --dry-run prints what `scan` finds instead and changes nothing')
            [CompletionResult]::new('import', 'import', [CompletionResultType]::ParameterValue, 'Import sessions of Claude Code, Codex, gemini-cli, opencode and goose: one session per source session, with every message, every tool call paired with its result, the working directory as its workspace (so `--here` and `resume --continue` find it in that project), the title, model and times, and where it came from in `metadata.importedFrom`; stored as journals whatever services.session.format says. The sources are only read (a database through a private copy, so a live one and its write-ahead log are never written). Importing again adds only what a source gained since. Prints one NDJSON line per session ({"tool", "source", "sourceId", "sessionId", "status", "messages", "toolCalls", "added", "skipped"}) and a last {"summary": …} line; a table at a terminal. Exits 4 when a source could not be read (the others are imported)')
            [CompletionResult]::new('reindex', 'reindex', [CompletionResultType]::ParameterValue, 'Rebuild the file store''s index from the sessions'' files. The index is what `list`, `--last`, `--here`, prefixes and titles read; it is kept up to date by every command and rebuilt on its own when it is missing or damaged, so this is only needed after sessions were changed by an older ollm or restored by hand into a session directory that already existed. Prints how many sessions it holds. On PostgreSQL, which keeps its indexes itself, it only counts them')
            [CompletionResult]::new('keep', 'keep', [CompletionResultType]::ParameterValue, 'Keep the PostgreSQL store''s connections open between commands: a short command then takes about half the time')
            [CompletionResult]::new('snapshot', 'snapshot', [CompletionResultType]::ParameterValue, 'Context snapshots: create, list, show, restore, delete')
            [CompletionResult]::new('copy', 'copy', [CompletionResultType]::ParameterValue, 'Copy sessions between stores (`file`, a directory, or a postgres:// URL), with their branch links; a session already there is kept')
            [CompletionResult]::new('config', 'config', [CompletionResultType]::ParameterValue, 'Print the effective configuration (JSON), or every key with its origin')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ollm-session;help;create' {
            break
        }
        'ollm-session;help;record' {
            break
        }
        'ollm-session;help;get' {
            break
        }
        'ollm-session;help;resume' {
            break
        }
        'ollm-session;help;list' {
            break
        }
        'ollm-session;help;search' {
            break
        }
        'ollm-session;help;export' {
            break
        }
        'ollm-session;help;rename' {
            break
        }
        'ollm-session;help;delete' {
            break
        }
        'ollm-session;help;cleanup' {
            break
        }
        'ollm-session;help;clear' {
            break
        }
        'ollm-session;help;branch' {
            break
        }
        'ollm-session;help;branches' {
            break
        }
        'ollm-session;help;rewind' {
            break
        }
        'ollm-session;help;scan' {
            break
        }
        'ollm-session;help;redact' {
            break
        }
        'ollm-session;help;import' {
            break
        }
        'ollm-session;help;reindex' {
            break
        }
        'ollm-session;help;keep' {
            break
        }
        'ollm-session;help;snapshot' {
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Snapshot a session (or the message list on stdin with --stdin); deletes the oldest beyond snapshots.maxCount')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'A session''s snapshots, newest first')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Print a whole snapshot')
            [CompletionResult]::new('restore', 'restore', [CompletionResultType]::ParameterValue, 'Print the snapshot''s context as a message list in its original order, or re-create it as a new session')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Delete a snapshot. Prints {"deleted": [SNAPSHOT_ID]}')
            break
        }
        'ollm-session;help;snapshot;create' {
            break
        }
        'ollm-session;help;snapshot;list' {
            break
        }
        'ollm-session;help;snapshot;show' {
            break
        }
        'ollm-session;help;snapshot;restore' {
            break
        }
        'ollm-session;help;snapshot;delete' {
            break
        }
        'ollm-session;help;copy' {
            break
        }
        'ollm-session;help;config' {
            break
        }
        'ollm-session;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
