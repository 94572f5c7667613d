# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_ollm_session_global_optspecs
    string join \n config= data-dir= store= no-redact h/help V/version
end

function __fish_ollm_session_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_ollm_session_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_ollm_session_using_subcommand
    set -l cmd (__fish_ollm_session_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c ollm-session -n "__fish_ollm_session_needs_command" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-session -n "__fish_ollm_session_needs_command" -l data-dir -d 'The session data directory (services.session.dataDir)' -r -F
complete -c ollm-session -n "__fish_ollm_session_needs_command" -l store -d 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)' -r
complete -c ollm-session -n "__fish_ollm_session_needs_command" -l no-redact -d 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
complete -c ollm-session -n "__fish_ollm_session_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ollm-session -n "__fish_ollm_session_needs_command" -s V -l version -d 'Print version'
complete -c ollm-session -n "__fish_ollm_session_needs_command" -f -a "create" -d 'Create a session; prints {"sessionId": …}. Records the workspace it was made in (the git top level, else the current directory) for --here. Deletes the oldest sessions beyond maxSessions (never a locked one)'
complete -c ollm-session -n "__fish_ollm_session_needs_command" -f -a "record" -d 'Record a message or a tool call with its result; one JSON document, or NDJSON (one record a line, each acknowledged on stdout once it is on disk). An object with `role` is a message, one with `name` and `result` a tool call; a missing `timestamp` is now. Large texts come from a file or stdin (`--result-file FILE`, `--result -`), never from the command line\'s size limit. With --last, a single positional argument is INPUT'
complete -c ollm-session -n "__fish_ollm_session_needs_command" -f -a "get" -d 'Print a whole session as the spec\'s JSON (a transcript on a terminal)'
complete -c ollm-session -n "__fish_ollm_session_needs_command" -f -a "view" -d 'Print a whole session as the spec\'s JSON (a transcript on a terminal)'
complete -c ollm-session -n "__fish_ollm_session_needs_command" -f -a "resume" -d 'Choose a session to carry on with and print its id (or start --exec on it). At a terminal with no ID, a picker shows the sessions newest first (arrow keys, type to filter); --continue takes the latest session of this workspace, as `claude --continue` does. Off a terminal, an ID, --continue or --last is required (exit 2)'
complete -c ollm-session -n "__fish_ollm_session_needs_command" -f -a "list" -d 'List sessions newest first: sessionId, startTime, lastActivity, model, messageCount, tokenCount, title, workspace (JSON when piped, a table on a terminal)'
complete -c ollm-session -n "__fish_ollm_session_needs_command" -f -a "ls" -d 'List sessions newest first: sessionId, startTime, lastActivity, model, messageCount, tokenCount, title, workspace (JSON when piped, a table on a terminal)'
complete -c ollm-session -n "__fish_ollm_session_needs_command" -f -a "search" -d 'Search every session\'s title, messages and tool calls; each hit gives the session id, message index, role, timestamp and a snippet'
complete -c ollm-session -n "__fish_ollm_session_needs_command" -f -a "export" -d 'Export a session as the spec\'s JSON, a Markdown transcript or a self-contained HTML page; or every session as an HTML archive'
complete -c ollm-session -n "__fish_ollm_session_needs_command" -f -a "rename" -d 'Give a session a title (or remove it with --clear); commands then take the title in place of the id. Prints what changed'
complete -c ollm-session -n "__fish_ollm_session_needs_command" -f -a "delete" -d 'Delete a session with its snapshots, its file checkpoints and any copies of it set aside as corrupt, as one operation. Prints {"deleted": [ID]}'
complete -c ollm-session -n "__fish_ollm_session_needs_command" -f -a "rm" -d 'Delete a session with its snapshots, its file checkpoints and any copies of it set aside as corrupt, as one operation. Prints {"deleted": [ID]}'
complete -c ollm-session -n "__fish_ollm_session_needs_command" -f -a "remove" -d 'Delete a session with its snapshots, its file checkpoints and any copies of it set aside as corrupt, as one operation. Prints {"deleted": [ID]}'
complete -c ollm-session -n "__fish_ollm_session_needs_command" -f -a "cleanup" -d 'Keep the N most recently active sessions, delete the rest (skipping any being written). Prints what was deleted and kept'
complete -c ollm-session -n "__fish_ollm_session_needs_command" -f -a "clear" -d 'Delete every session. Asks for confirmation on a terminal; elsewhere --yes is required'
complete -c ollm-session -n "__fish_ollm_session_needs_command" -f -a "branch" -d 'Start a new session that keeps the first N messages (with the tool calls made among them); records parentSessionId and branchPoint'
complete -c ollm-session -n "__fish_ollm_session_needs_command" -f -a "branches" -d 'List the sessions branched from a session'
complete -c ollm-session -n "__fish_ollm_session_needs_command" -f -a "rewind" -d 'Go back to point N: branch the conversation at N messages (`branch --at N`) and restore the files to checkpoint turn N (`ollm checkpoint restore --turn N`), or only one of them. A runtime that snapshots with `--turn` set to the session\'s message count makes one N name both. The files go first: at a conflict (a file changed since the session\'s last checkpoint) nothing changes, the conversation is not branched, and the exit code is 1; --force restores anyway. Prints {"branch":{…}|null,"code":{…}|null}'
complete -c ollm-session -n "__fish_ollm_session_needs_command" -f -a "scan" -d 'Find credentials already stored (records, titles, snapshots; every format the store holds): one NDJSON finding a line (session, record, field, kind, a masked preview; never the credential), a table at a terminal. Exits 1 when anything is found, 0 when clean (as gitleaks does). `ollm-session redact` removes what it finds'
complete -c ollm-session -n "__fish_ollm_session_needs_command" -f -a "redact" -d 'Replace credentials already stored with `[REDACTED:<kind>]`, in place: each session (and each snapshot) is replaced whole in one step, so a crash leaves it as it was or fully scrubbed. Prints {"sessionId", "redacted"} a session; --dry-run prints what `scan` finds instead and changes nothing'
complete -c ollm-session -n "__fish_ollm_session_needs_command" -f -a "import" -d 'Import sessions of Claude Code, Codex, gemini-cli, opencode and goose: one session per source session, with every message, every tool call paired with its result, the working directory as its workspace (so `--here` and `resume --continue` find it in that project), the title, model and times, and where it came from in `metadata.importedFrom`; stored as journals whatever services.session.format says. The sources are only read (a database through a private copy, so a live one and its write-ahead log are never written). Importing again adds only what a source gained since. Prints one NDJSON line per session ({"tool", "source", "sourceId", "sessionId", "status", "messages", "toolCalls", "added", "skipped"}) and a last {"summary": …} line; a table at a terminal. Exits 4 when a source could not be read (the others are imported)'
complete -c ollm-session -n "__fish_ollm_session_needs_command" -f -a "reindex" -d 'Rebuild the file store\'s index from the sessions\' files. The index is what `list`, `--last`, `--here`, prefixes and titles read; it is kept up to date by every command and rebuilt on its own when it is missing or damaged, so this is only needed after sessions were changed by an older ollm or restored by hand into a session directory that already existed. Prints how many sessions it holds. On PostgreSQL, which keeps its indexes itself, it only counts them'
complete -c ollm-session -n "__fish_ollm_session_needs_command" -f -a "keep" -d 'Keep the PostgreSQL store\'s connections open between commands: a short command then takes about half the time'
complete -c ollm-session -n "__fish_ollm_session_needs_command" -f -a "snapshot" -d 'Context snapshots: create, list, show, restore, delete'
complete -c ollm-session -n "__fish_ollm_session_needs_command" -f -a "snapshots" -d 'Context snapshots: create, list, show, restore, delete'
complete -c ollm-session -n "__fish_ollm_session_needs_command" -f -a "copy" -d 'Copy sessions between stores (`file`, a directory, or a postgres:// URL), with their branch links; a session already there is kept'
complete -c ollm-session -n "__fish_ollm_session_needs_command" -f -a "config" -d 'Print the effective configuration (JSON), or every key with its origin'
complete -c ollm-session -n "__fish_ollm_session_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand create" -l model -d 'The model the session talks to (the spec\'s `model`)' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand create" -l provider -d 'The model\'s provider, e.g. ollama or openai (the spec\'s `provider`)' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand create" -l title -d 'A name for the session (additive field `title`); commands then take it in place of the id' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand create" -l max-sessions -d 'Sessions to keep (services.session.maxSessions; 0: no limit)' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand create" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand create" -l data-dir -d 'The session data directory (services.session.dataDir)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand create" -l store -d 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand create" -s q -l quiet -d 'Print only the new session\'s id (a line of text, as `docker create` does), for `id=$(…)` without a JSON tool'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand create" -l no-redact -d 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand create" -s h -l help -d 'Print help'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand record" -l role -d 'Shorthand: a plain text message with this role' -r -f -a "user\t''
assistant\t''
system\t''
tool\t''"
complete -c ollm-session -n "__fish_ollm_session_using_subcommand record" -l text -d 'Shorthand: the message\'s text (`-` reads it from stdin)' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand record" -l text-file -d 'Shorthand: the message\'s text, read from FILE' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand record" -l tool -d 'Shorthand: a tool call with this tool name' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand record" -l args -d 'The tool call\'s arguments, a JSON object (`-` reads it from stdin; default {})' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand record" -l args-file -d 'The tool call\'s arguments, read from FILE' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand record" -l result -d 'The tool\'s result for the model (llmContent; `-` reads it from stdin)' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand record" -l result-file -d 'The tool\'s result for the model, read from FILE' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand record" -l display -d 'The tool\'s result for display (returnDisplay)' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand record" -l call-id -d 'The tool call\'s id (default: a new one)' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand record" -l tokens -d 'The record\'s token count from a real tokenizer, instead of the estimate (characters ÷ 4). Only with a single record' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand record" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand record" -l data-dir -d 'The session data directory (services.session.dataDir)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand record" -l store -d 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand record" -l last -d 'The most recently active session'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand record" -l here -d 'Only sessions made in this workspace (the git top level, else the current directory); without ID, the latest of them'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand record" -l no-redact -d 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand record" -s h -l help -d 'Print help'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand get" -l format -d 'json (default when piped) or markdown (default on a terminal)' -r -f -a "json\t'The spec\'s JSON'
markdown\t'A readable transcript'"
complete -c ollm-session -n "__fish_ollm_session_using_subcommand get" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand get" -l data-dir -d 'The session data directory (services.session.dataDir)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand get" -l store -d 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand get" -l last -d 'The most recently active session'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand get" -l here -d 'Only sessions made in this workspace (the git top level, else the current directory); without ID, the latest of them'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand get" -l messages -d 'Only the messages (as a JSON array, or without the header and tool calls in markdown)'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand get" -l full -d 'Show long tool results whole (at a terminal they are folded to their first 10 lines)'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand get" -l no-redact -d 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand get" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand view" -l format -d 'json (default when piped) or markdown (default on a terminal)' -r -f -a "json\t'The spec\'s JSON'
markdown\t'A readable transcript'"
complete -c ollm-session -n "__fish_ollm_session_using_subcommand view" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand view" -l data-dir -d 'The session data directory (services.session.dataDir)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand view" -l store -d 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand view" -l last -d 'The most recently active session'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand view" -l here -d 'Only sessions made in this workspace (the git top level, else the current directory); without ID, the latest of them'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand view" -l messages -d 'Only the messages (as a JSON array, or without the header and tool calls in markdown)'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand view" -l full -d 'Show long tool results whole (at a terminal they are folded to their first 10 lines)'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand view" -l no-redact -d 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand view" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand resume" -l exec -d 'Run CMD (with sh -c) with the chosen id as its last argument and in OLLM_SESSION_ID, instead of printing the id' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand resume" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand resume" -l data-dir -d 'The session data directory (services.session.dataDir)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand resume" -l store -d 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand resume" -s c -l continue -d 'The latest session made in this workspace (the git top level, else the current directory)'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand resume" -l last -d 'The most recently active session anywhere'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand resume" -l here -d 'Only sessions made in this workspace (in the picker too)'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand resume" -l no-redact -d 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand resume" -s h -l help -d 'Print help'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand list" -l limit -d 'Show at most N sessions' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand list" -l offset -d 'Skip the N newest sessions first (with --limit: pages)' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand list" -l format -d 'json (default when piped), table (default on a terminal), ndjson or text' -r -f -a "json\t'One pretty JSON document'
ndjson\t'One compact JSON object a line'
table\t'Aligned columns under a header row, fitted to the terminal'
text\t'Tab-separated cells, one item a line, no header'"
complete -c ollm-session -n "__fish_ollm_session_using_subcommand list" -l model -d 'Only sessions with this model' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand list" -l since -d 'Only sessions active since WHEN: a duration back from now (2h, 3d, 1week) or a date (2026-01-15)' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand list" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand list" -l data-dir -d 'The session data directory (services.session.dataDir)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand list" -l store -d 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand list" -l corrupt -d 'List the sessions set aside as corrupt instead: sessionId, path and format (`journal` or `plain`). `delete ID` removes them'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand list" -l here -d 'Only sessions made in this workspace (the git top level, else the current directory)'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand list" -l no-redact -d 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand ls" -l limit -d 'Show at most N sessions' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand ls" -l offset -d 'Skip the N newest sessions first (with --limit: pages)' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand ls" -l format -d 'json (default when piped), table (default on a terminal), ndjson or text' -r -f -a "json\t'One pretty JSON document'
ndjson\t'One compact JSON object a line'
table\t'Aligned columns under a header row, fitted to the terminal'
text\t'Tab-separated cells, one item a line, no header'"
complete -c ollm-session -n "__fish_ollm_session_using_subcommand ls" -l model -d 'Only sessions with this model' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand ls" -l since -d 'Only sessions active since WHEN: a duration back from now (2h, 3d, 1week) or a date (2026-01-15)' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand ls" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand ls" -l data-dir -d 'The session data directory (services.session.dataDir)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand ls" -l store -d 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand ls" -l corrupt -d 'List the sessions set aside as corrupt instead: sessionId, path and format (`journal` or `plain`). `delete ID` removes them'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand ls" -l here -d 'Only sessions made in this workspace (the git top level, else the current directory)'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand ls" -l no-redact -d 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand ls" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand search" -l role -d 'Only messages of this role (`tool` also matches tool calls, `title` only titles)' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand search" -l limit -d 'Show at most N hits, the newest' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand search" -l format -d 'json (default when piped), table (default on a terminal), ndjson or text' -r -f -a "json\t'One pretty JSON document'
ndjson\t'One compact JSON object a line'
table\t'Aligned columns under a header row, fitted to the terminal'
text\t'Tab-separated cells, one item a line, no header'"
complete -c ollm-session -n "__fish_ollm_session_using_subcommand search" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand search" -l data-dir -d 'The session data directory (services.session.dataDir)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand search" -l store -d 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand search" -s e -l regex -d 'PATTERN is a regular expression (Rust regex syntax)'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand search" -s i -l ignore-case -d 'Match regardless of case'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand search" -l no-redact -d 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand search" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand export" -l format -d 'json, markdown or html (default: from the --output extension, .md or .markdown, .html or .htm; else json; html with --all)' -r -f -a "json\t'The spec\'s JSON'
markdown\t'A readable transcript'
html\t'A self-contained page (inline style and script, no network)'"
complete -c ollm-session -n "__fish_ollm_session_using_subcommand export" -s o -l output -d 'Write here (atomically, owner-only 0600) instead of stdout. An existing file is replaced only with --force; anything that is not a regular file is refused (`-` and /dev/stdout are stdout). With --all, the archive\'s directory' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand export" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand export" -l data-dir -d 'The session data directory (services.session.dataDir)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand export" -l store -d 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand export" -l last -d 'The most recently active session'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand export" -l here -d 'Only sessions made in this workspace (the git top level, else the current directory); without ID, the latest of them'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand export" -l all -d 'Every session, as an HTML archive in the directory --output names: index.html (sessions by project and date, a search across all of them) and <id>.html a session'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand export" -s f -l force -d 'Replace an existing output file (with --all, existing pages)'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand export" -l no-redact -d 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand export" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand rename" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand rename" -l data-dir -d 'The session data directory (services.session.dataDir)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand rename" -l store -d 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand rename" -l last -d 'The most recently active session'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand rename" -l here -d 'Only sessions made in this workspace (the git top level, else the current directory); without ID, the latest of them'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand rename" -l clear -d 'Remove the title instead'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand rename" -l no-redact -d 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand rename" -s h -l help -d 'Print help'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand delete" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand delete" -l data-dir -d 'The session data directory (services.session.dataDir)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand delete" -l store -d 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand delete" -l last -d 'The most recently active session'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand delete" -l here -d 'Only sessions made in this workspace (the git top level, else the current directory); without ID, the latest of them'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand delete" -l no-redact -d 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand delete" -s h -l help -d 'Print help'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand rm" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand rm" -l data-dir -d 'The session data directory (services.session.dataDir)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand rm" -l store -d 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand rm" -l last -d 'The most recently active session'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand rm" -l here -d 'Only sessions made in this workspace (the git top level, else the current directory); without ID, the latest of them'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand rm" -l no-redact -d 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand rm" -s h -l help -d 'Print help'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand remove" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand remove" -l data-dir -d 'The session data directory (services.session.dataDir)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand remove" -l store -d 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand remove" -l last -d 'The most recently active session'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand remove" -l here -d 'Only sessions made in this workspace (the git top level, else the current directory); without ID, the latest of them'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand remove" -l no-redact -d 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand remove" -s h -l help -d 'Print help'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand cleanup" -l keep -d 'How many sessions to keep, the most recently active' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand cleanup" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand cleanup" -l data-dir -d 'The session data directory (services.session.dataDir)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand cleanup" -l store -d 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand cleanup" -l dry-run -d 'Show what would be deleted'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand cleanup" -l no-redact -d 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand cleanup" -s h -l help -d 'Print help'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand clear" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand clear" -l data-dir -d 'The session data directory (services.session.dataDir)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand clear" -l store -d 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand clear" -l all -d 'Required: delete all sessions'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand clear" -s y -l yes -d 'Do not ask; required when stdin or stderr is not a terminal'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand clear" -l dry-run -d 'Show what would be deleted'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand clear" -l no-redact -d 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand clear" -s h -l help -d 'Print help'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand branch" -l at -d 'How many messages the branch keeps: the first N (0 to the message count; `--at 1` keeps only message 0)' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand branch" -l title -d 'A title for the branch (default: the parent\'s with "(branch)" added, numbered when that is taken, so the title names one session)' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand branch" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand branch" -l data-dir -d 'The session data directory (services.session.dataDir)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand branch" -l store -d 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand branch" -l last -d 'The most recently active session'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand branch" -l here -d 'Only sessions made in this workspace (the git top level, else the current directory); without ID, the latest of them'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand branch" -l no-redact -d 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand branch" -s h -l help -d 'Print help'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand branches" -l format -d 'json (default when piped), table (default on a terminal), ndjson or text' -r -f -a "json\t'One pretty JSON document'
ndjson\t'One compact JSON object a line'
table\t'Aligned columns under a header row, fitted to the terminal'
text\t'Tab-separated cells, one item a line, no header'"
complete -c ollm-session -n "__fish_ollm_session_using_subcommand branches" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand branches" -l data-dir -d 'The session data directory (services.session.dataDir)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand branches" -l store -d 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand branches" -l last -d 'The most recently active session'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand branches" -l here -d 'Only sessions made in this workspace (the git top level, else the current directory); without ID, the latest of them'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand branches" -l no-redact -d 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand branches" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand rewind" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand rewind" -l data-dir -d 'The session data directory (services.session.dataDir)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand rewind" -l store -d 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand rewind" -l code -d 'Restore the files (alone, unless --conversation too)'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand rewind" -l conversation -d 'Branch the conversation (alone, unless --code too)'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand rewind" -l force -d 'Restore files changed since the last checkpoint too (undoable: see the report\'s `undoTurn`)'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand rewind" -l no-redact -d 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand rewind" -s h -l help -d 'Print help'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand scan" -l format -d 'ndjson (default when piped), table (default on a terminal), json or text' -r -f -a "json\t'One pretty JSON document'
ndjson\t'One compact JSON object a line'
table\t'Aligned columns under a header row, fitted to the terminal'
text\t'Tab-separated cells, one item a line, no header'"
complete -c ollm-session -n "__fish_ollm_session_using_subcommand scan" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand scan" -l data-dir -d 'The session data directory (services.session.dataDir)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand scan" -l store -d 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand scan" -l last -d 'The most recently active session'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand scan" -l here -d 'The latest session made in this workspace (with ID: only its sessions)'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand scan" -l all -d 'Every session in the store'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand scan" -l no-redact -d 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand scan" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand redact" -l format -d 'ndjson (default when piped), table (default on a terminal), json or text' -r -f -a "json\t'One pretty JSON document'
ndjson\t'One compact JSON object a line'
table\t'Aligned columns under a header row, fitted to the terminal'
text\t'Tab-separated cells, one item a line, no header'"
complete -c ollm-session -n "__fish_ollm_session_using_subcommand redact" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand redact" -l data-dir -d 'The session data directory (services.session.dataDir)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand redact" -l store -d 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand redact" -l last -d 'The most recently active session'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand redact" -l here -d 'The latest session made in this workspace (with ID: only its sessions)'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand redact" -l all -d 'Every session in the store'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand redact" -l dry-run -d 'Show what would be replaced (as `scan` does); change nothing'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand redact" -l no-redact -d 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand redact" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand import" -l from -d 'The tool the sessions are from (repeatable: `--from claude --from codex`); `auto` reads every tool\'s (its default locations, or each path as whichever tool\'s it is)' -r -f -a "claude\t''
codex\t''
gemini\t''
opencode\t''
goose\t''
auto\t''"
complete -c ollm-session -n "__fish_ollm_session_using_subcommand import" -l format -d 'ndjson (default when piped), table (default on a terminal), json or text' -r -f -a "json\t'One pretty JSON document'
ndjson\t'One compact JSON object a line'
table\t'Aligned columns under a header row, fitted to the terminal'
text\t'Tab-separated cells, one item a line, no header'"
complete -c ollm-session -n "__fish_ollm_session_using_subcommand import" -l hook -d 'Import the one transcript that TOOL\'s hook names on standard input (the hook JSON of Claude Code or gemini-cli: `transcript_path`), reading it only if it changed. Prints nothing and always exits 0, so a hook never breaks the agent: a reason it could not import goes to stderr and to $OLLM_HOME/logs/import-hook.log' -r -f -a "claude\t''
gemini\t''"
complete -c ollm-session -n "__fish_ollm_session_using_subcommand import" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand import" -l data-dir -d 'The session data directory (services.session.dataDir)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand import" -l store -d 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand import" -l dry-run -d 'Say what would be imported; write nothing'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand import" -l watch -d 'Keep importing as the sources are written, until SIGINT, SIGTERM or the end of standard input when it is a pipe: a catch-up of what changed since the last import, then each change within a second or two. One NDJSON line per session touched (a status line at a terminal) and the summary when stopped. One watcher per store'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand import" -l no-redact -d 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand import" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand reindex" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand reindex" -l data-dir -d 'The session data directory (services.session.dataDir)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand reindex" -l store -d 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand reindex" -l no-redact -d 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand reindex" -s h -l help -d 'Print help'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand keep" -l idle -d 'Stop after this long without a command (e.g. `30m`, `2h`)' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand keep" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand keep" -l data-dir -d 'The session data directory (services.session.dataDir)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand keep" -l store -d 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand keep" -l no-redact -d 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand keep" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshot; and not __fish_seen_subcommand_from create list show restore delete rm remove help" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshot; and not __fish_seen_subcommand_from create list show restore delete rm remove help" -l data-dir -d 'The session data directory (services.session.dataDir)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshot; and not __fish_seen_subcommand_from create list show restore delete rm remove help" -l store -d 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshot; and not __fish_seen_subcommand_from create list show restore delete rm remove help" -l no-redact -d 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshot; and not __fish_seen_subcommand_from create list show restore delete rm remove help" -s h -l help -d 'Print help'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshot; and not __fish_seen_subcommand_from create list show restore delete rm remove help" -f -a "create" -d 'Snapshot a session (or the message list on stdin with --stdin); deletes the oldest beyond snapshots.maxCount'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshot; and not __fish_seen_subcommand_from create list show restore delete rm remove help" -f -a "list" -d 'A session\'s snapshots, newest first'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshot; and not __fish_seen_subcommand_from create list show restore delete rm remove help" -f -a "show" -d 'Print a whole snapshot'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshot; and not __fish_seen_subcommand_from create list show restore delete rm remove help" -f -a "restore" -d 'Print the snapshot\'s context as a message list in its original order, or re-create it as a new session'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshot; and not __fish_seen_subcommand_from create list show restore delete rm remove help" -f -a "delete" -d 'Delete a snapshot. Prints {"deleted": [SNAPSHOT_ID]}'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshot; and not __fish_seen_subcommand_from create list show restore delete rm remove help" -f -a "rm" -d 'Delete a snapshot. Prints {"deleted": [SNAPSHOT_ID]}'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshot; and not __fish_seen_subcommand_from create list show restore delete rm remove help" -f -a "remove" -d 'Delete a snapshot. Prints {"deleted": [SNAPSHOT_ID]}'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshot; and not __fish_seen_subcommand_from create list show restore delete rm remove help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshot; and __fish_seen_subcommand_from create" -l summary -d 'What the snapshot holds, in a few words' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshot; and __fish_seen_subcommand_from create" -l max-count -d 'Snapshots kept per session (snapshots.maxCount; 0: no limit)' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshot; and __fish_seen_subcommand_from create" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshot; and __fish_seen_subcommand_from create" -l data-dir -d 'The session data directory (services.session.dataDir)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshot; and __fish_seen_subcommand_from create" -l store -d 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshot; and __fish_seen_subcommand_from create" -l last -d 'The most recently active session'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshot; and __fish_seen_subcommand_from create" -l here -d 'Only sessions made in this workspace (the git top level, else the current directory); without ID, the latest of them'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshot; and __fish_seen_subcommand_from create" -l stdin -d 'Read the context to snapshot (a JSON array of messages) from stdin'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshot; and __fish_seen_subcommand_from create" -l no-redact -d 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshot; and __fish_seen_subcommand_from create" -s h -l help -d 'Print help'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshot; and __fish_seen_subcommand_from list" -l format -d 'json (default when piped), table (default on a terminal), ndjson or text' -r -f -a "json\t'One pretty JSON document'
ndjson\t'One compact JSON object a line'
table\t'Aligned columns under a header row, fitted to the terminal'
text\t'Tab-separated cells, one item a line, no header'"
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshot; and __fish_seen_subcommand_from list" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshot; and __fish_seen_subcommand_from list" -l data-dir -d 'The session data directory (services.session.dataDir)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshot; and __fish_seen_subcommand_from list" -l store -d 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshot; and __fish_seen_subcommand_from list" -l last -d 'The most recently active session'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshot; and __fish_seen_subcommand_from list" -l here -d 'Only sessions made in this workspace (the git top level, else the current directory); without ID, the latest of them'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshot; and __fish_seen_subcommand_from list" -l no-redact -d 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshot; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshot; and __fish_seen_subcommand_from show" -l session -d 'The session the snapshot belongs to (an id, prefix or title; found by searching every session\'s snapshots when not given)' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshot; and __fish_seen_subcommand_from show" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshot; and __fish_seen_subcommand_from show" -l data-dir -d 'The session data directory (services.session.dataDir)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshot; and __fish_seen_subcommand_from show" -l store -d 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshot; and __fish_seen_subcommand_from show" -l no-redact -d 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshot; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshot; and __fish_seen_subcommand_from restore" -l session -d 'The session the snapshot belongs to (an id, prefix or title; found by searching every session\'s snapshots when not given)' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshot; and __fish_seen_subcommand_from restore" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshot; and __fish_seen_subcommand_from restore" -l data-dir -d 'The session data directory (services.session.dataDir)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshot; and __fish_seen_subcommand_from restore" -l store -d 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshot; and __fish_seen_subcommand_from restore" -l as-session -d 'Create a new session holding the context; prints its id'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshot; and __fish_seen_subcommand_from restore" -l no-redact -d 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshot; and __fish_seen_subcommand_from restore" -s h -l help -d 'Print help'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshot; and __fish_seen_subcommand_from delete" -l session -d 'The session the snapshot belongs to (an id, prefix or title; found by searching every session\'s snapshots when not given)' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshot; and __fish_seen_subcommand_from delete" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshot; and __fish_seen_subcommand_from delete" -l data-dir -d 'The session data directory (services.session.dataDir)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshot; and __fish_seen_subcommand_from delete" -l store -d 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshot; and __fish_seen_subcommand_from delete" -l no-redact -d 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshot; and __fish_seen_subcommand_from delete" -s h -l help -d 'Print help'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshot; and __fish_seen_subcommand_from rm" -l session -d 'The session the snapshot belongs to (an id, prefix or title; found by searching every session\'s snapshots when not given)' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshot; and __fish_seen_subcommand_from rm" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshot; and __fish_seen_subcommand_from rm" -l data-dir -d 'The session data directory (services.session.dataDir)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshot; and __fish_seen_subcommand_from rm" -l store -d 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshot; and __fish_seen_subcommand_from rm" -l no-redact -d 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshot; and __fish_seen_subcommand_from rm" -s h -l help -d 'Print help'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshot; and __fish_seen_subcommand_from remove" -l session -d 'The session the snapshot belongs to (an id, prefix or title; found by searching every session\'s snapshots when not given)' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshot; and __fish_seen_subcommand_from remove" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshot; and __fish_seen_subcommand_from remove" -l data-dir -d 'The session data directory (services.session.dataDir)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshot; and __fish_seen_subcommand_from remove" -l store -d 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshot; and __fish_seen_subcommand_from remove" -l no-redact -d 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshot; and __fish_seen_subcommand_from remove" -s h -l help -d 'Print help'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshot; and __fish_seen_subcommand_from help" -f -a "create" -d 'Snapshot a session (or the message list on stdin with --stdin); deletes the oldest beyond snapshots.maxCount'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshot; and __fish_seen_subcommand_from help" -f -a "list" -d 'A session\'s snapshots, newest first'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshot; and __fish_seen_subcommand_from help" -f -a "show" -d 'Print a whole snapshot'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshot; and __fish_seen_subcommand_from help" -f -a "restore" -d 'Print the snapshot\'s context as a message list in its original order, or re-create it as a new session'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshot; and __fish_seen_subcommand_from help" -f -a "delete" -d 'Delete a snapshot. Prints {"deleted": [SNAPSHOT_ID]}'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshot; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshots; and not __fish_seen_subcommand_from create list show restore delete rm remove help" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshots; and not __fish_seen_subcommand_from create list show restore delete rm remove help" -l data-dir -d 'The session data directory (services.session.dataDir)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshots; and not __fish_seen_subcommand_from create list show restore delete rm remove help" -l store -d 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshots; and not __fish_seen_subcommand_from create list show restore delete rm remove help" -l no-redact -d 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshots; and not __fish_seen_subcommand_from create list show restore delete rm remove help" -s h -l help -d 'Print help'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshots; and not __fish_seen_subcommand_from create list show restore delete rm remove help" -f -a "create" -d 'Snapshot a session (or the message list on stdin with --stdin); deletes the oldest beyond snapshots.maxCount'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshots; and not __fish_seen_subcommand_from create list show restore delete rm remove help" -f -a "list" -d 'A session\'s snapshots, newest first'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshots; and not __fish_seen_subcommand_from create list show restore delete rm remove help" -f -a "show" -d 'Print a whole snapshot'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshots; and not __fish_seen_subcommand_from create list show restore delete rm remove help" -f -a "restore" -d 'Print the snapshot\'s context as a message list in its original order, or re-create it as a new session'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshots; and not __fish_seen_subcommand_from create list show restore delete rm remove help" -f -a "delete" -d 'Delete a snapshot. Prints {"deleted": [SNAPSHOT_ID]}'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshots; and not __fish_seen_subcommand_from create list show restore delete rm remove help" -f -a "rm" -d 'Delete a snapshot. Prints {"deleted": [SNAPSHOT_ID]}'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshots; and not __fish_seen_subcommand_from create list show restore delete rm remove help" -f -a "remove" -d 'Delete a snapshot. Prints {"deleted": [SNAPSHOT_ID]}'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshots; and not __fish_seen_subcommand_from create list show restore delete rm remove help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshots; and __fish_seen_subcommand_from create" -l summary -d 'What the snapshot holds, in a few words' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshots; and __fish_seen_subcommand_from create" -l max-count -d 'Snapshots kept per session (snapshots.maxCount; 0: no limit)' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshots; and __fish_seen_subcommand_from create" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshots; and __fish_seen_subcommand_from create" -l data-dir -d 'The session data directory (services.session.dataDir)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshots; and __fish_seen_subcommand_from create" -l store -d 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshots; and __fish_seen_subcommand_from create" -l last -d 'The most recently active session'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshots; and __fish_seen_subcommand_from create" -l here -d 'Only sessions made in this workspace (the git top level, else the current directory); without ID, the latest of them'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshots; and __fish_seen_subcommand_from create" -l stdin -d 'Read the context to snapshot (a JSON array of messages) from stdin'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshots; and __fish_seen_subcommand_from create" -l no-redact -d 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshots; and __fish_seen_subcommand_from create" -s h -l help -d 'Print help'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshots; and __fish_seen_subcommand_from list" -l format -d 'json (default when piped), table (default on a terminal), ndjson or text' -r -f -a "json\t'One pretty JSON document'
ndjson\t'One compact JSON object a line'
table\t'Aligned columns under a header row, fitted to the terminal'
text\t'Tab-separated cells, one item a line, no header'"
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshots; and __fish_seen_subcommand_from list" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshots; and __fish_seen_subcommand_from list" -l data-dir -d 'The session data directory (services.session.dataDir)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshots; and __fish_seen_subcommand_from list" -l store -d 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshots; and __fish_seen_subcommand_from list" -l last -d 'The most recently active session'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshots; and __fish_seen_subcommand_from list" -l here -d 'Only sessions made in this workspace (the git top level, else the current directory); without ID, the latest of them'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshots; and __fish_seen_subcommand_from list" -l no-redact -d 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshots; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshots; and __fish_seen_subcommand_from show" -l session -d 'The session the snapshot belongs to (an id, prefix or title; found by searching every session\'s snapshots when not given)' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshots; and __fish_seen_subcommand_from show" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshots; and __fish_seen_subcommand_from show" -l data-dir -d 'The session data directory (services.session.dataDir)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshots; and __fish_seen_subcommand_from show" -l store -d 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshots; and __fish_seen_subcommand_from show" -l no-redact -d 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshots; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshots; and __fish_seen_subcommand_from restore" -l session -d 'The session the snapshot belongs to (an id, prefix or title; found by searching every session\'s snapshots when not given)' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshots; and __fish_seen_subcommand_from restore" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshots; and __fish_seen_subcommand_from restore" -l data-dir -d 'The session data directory (services.session.dataDir)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshots; and __fish_seen_subcommand_from restore" -l store -d 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshots; and __fish_seen_subcommand_from restore" -l as-session -d 'Create a new session holding the context; prints its id'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshots; and __fish_seen_subcommand_from restore" -l no-redact -d 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshots; and __fish_seen_subcommand_from restore" -s h -l help -d 'Print help'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshots; and __fish_seen_subcommand_from delete" -l session -d 'The session the snapshot belongs to (an id, prefix or title; found by searching every session\'s snapshots when not given)' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshots; and __fish_seen_subcommand_from delete" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshots; and __fish_seen_subcommand_from delete" -l data-dir -d 'The session data directory (services.session.dataDir)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshots; and __fish_seen_subcommand_from delete" -l store -d 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshots; and __fish_seen_subcommand_from delete" -l no-redact -d 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshots; and __fish_seen_subcommand_from delete" -s h -l help -d 'Print help'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshots; and __fish_seen_subcommand_from rm" -l session -d 'The session the snapshot belongs to (an id, prefix or title; found by searching every session\'s snapshots when not given)' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshots; and __fish_seen_subcommand_from rm" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshots; and __fish_seen_subcommand_from rm" -l data-dir -d 'The session data directory (services.session.dataDir)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshots; and __fish_seen_subcommand_from rm" -l store -d 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshots; and __fish_seen_subcommand_from rm" -l no-redact -d 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshots; and __fish_seen_subcommand_from rm" -s h -l help -d 'Print help'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshots; and __fish_seen_subcommand_from remove" -l session -d 'The session the snapshot belongs to (an id, prefix or title; found by searching every session\'s snapshots when not given)' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshots; and __fish_seen_subcommand_from remove" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshots; and __fish_seen_subcommand_from remove" -l data-dir -d 'The session data directory (services.session.dataDir)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshots; and __fish_seen_subcommand_from remove" -l store -d 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshots; and __fish_seen_subcommand_from remove" -l no-redact -d 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshots; and __fish_seen_subcommand_from remove" -s h -l help -d 'Print help'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshots; and __fish_seen_subcommand_from help" -f -a "create" -d 'Snapshot a session (or the message list on stdin with --stdin); deletes the oldest beyond snapshots.maxCount'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshots; and __fish_seen_subcommand_from help" -f -a "list" -d 'A session\'s snapshots, newest first'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshots; and __fish_seen_subcommand_from help" -f -a "show" -d 'Print a whole snapshot'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshots; and __fish_seen_subcommand_from help" -f -a "restore" -d 'Print the snapshot\'s context as a message list in its original order, or re-create it as a new session'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshots; and __fish_seen_subcommand_from help" -f -a "delete" -d 'Delete a snapshot. Prints {"deleted": [SNAPSHOT_ID]}'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand snapshots; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand copy" -l from -d 'Where to copy from: `file` (the data directory), a directory of sessions (journals or plain <id>.json files), or a postgres:// URL' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand copy" -l to -d 'Where to copy to (as --from)' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand copy" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand copy" -l data-dir -d 'The session data directory (services.session.dataDir)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand copy" -l store -d 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand copy" -l all -d 'Copy every session of --from'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand copy" -l no-redact -d 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand copy" -s h -l help -d 'Print help'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand config" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand config" -l data-dir -d 'The session data directory (services.session.dataDir)' -r -F
complete -c ollm-session -n "__fish_ollm_session_using_subcommand config" -l store -d 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)' -r
complete -c ollm-session -n "__fish_ollm_session_using_subcommand config" -l show-origin -d 'Show every key with its value and where it came from (default, a file, an environment variable or a flag), like `git config --show-origin`'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand config" -l no-redact -d 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand config" -s h -l help -d 'Print help'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand help; and not __fish_seen_subcommand_from create record get resume list search export rename delete cleanup clear branch branches rewind scan redact import reindex keep snapshot copy config help" -f -a "create" -d 'Create a session; prints {"sessionId": …}. Records the workspace it was made in (the git top level, else the current directory) for --here. Deletes the oldest sessions beyond maxSessions (never a locked one)'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand help; and not __fish_seen_subcommand_from create record get resume list search export rename delete cleanup clear branch branches rewind scan redact import reindex keep snapshot copy config help" -f -a "record" -d 'Record a message or a tool call with its result; one JSON document, or NDJSON (one record a line, each acknowledged on stdout once it is on disk). An object with `role` is a message, one with `name` and `result` a tool call; a missing `timestamp` is now. Large texts come from a file or stdin (`--result-file FILE`, `--result -`), never from the command line\'s size limit. With --last, a single positional argument is INPUT'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand help; and not __fish_seen_subcommand_from create record get resume list search export rename delete cleanup clear branch branches rewind scan redact import reindex keep snapshot copy config help" -f -a "get" -d 'Print a whole session as the spec\'s JSON (a transcript on a terminal)'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand help; and not __fish_seen_subcommand_from create record get resume list search export rename delete cleanup clear branch branches rewind scan redact import reindex keep snapshot copy config help" -f -a "resume" -d 'Choose a session to carry on with and print its id (or start --exec on it). At a terminal with no ID, a picker shows the sessions newest first (arrow keys, type to filter); --continue takes the latest session of this workspace, as `claude --continue` does. Off a terminal, an ID, --continue or --last is required (exit 2)'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand help; and not __fish_seen_subcommand_from create record get resume list search export rename delete cleanup clear branch branches rewind scan redact import reindex keep snapshot copy config help" -f -a "list" -d 'List sessions newest first: sessionId, startTime, lastActivity, model, messageCount, tokenCount, title, workspace (JSON when piped, a table on a terminal)'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand help; and not __fish_seen_subcommand_from create record get resume list search export rename delete cleanup clear branch branches rewind scan redact import reindex keep snapshot copy config help" -f -a "search" -d 'Search every session\'s title, messages and tool calls; each hit gives the session id, message index, role, timestamp and a snippet'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand help; and not __fish_seen_subcommand_from create record get resume list search export rename delete cleanup clear branch branches rewind scan redact import reindex keep snapshot copy config help" -f -a "export" -d 'Export a session as the spec\'s JSON, a Markdown transcript or a self-contained HTML page; or every session as an HTML archive'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand help; and not __fish_seen_subcommand_from create record get resume list search export rename delete cleanup clear branch branches rewind scan redact import reindex keep snapshot copy config help" -f -a "rename" -d 'Give a session a title (or remove it with --clear); commands then take the title in place of the id. Prints what changed'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand help; and not __fish_seen_subcommand_from create record get resume list search export rename delete cleanup clear branch branches rewind scan redact import reindex keep snapshot copy config help" -f -a "delete" -d 'Delete a session with its snapshots, its file checkpoints and any copies of it set aside as corrupt, as one operation. Prints {"deleted": [ID]}'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand help; and not __fish_seen_subcommand_from create record get resume list search export rename delete cleanup clear branch branches rewind scan redact import reindex keep snapshot copy config help" -f -a "cleanup" -d 'Keep the N most recently active sessions, delete the rest (skipping any being written). Prints what was deleted and kept'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand help; and not __fish_seen_subcommand_from create record get resume list search export rename delete cleanup clear branch branches rewind scan redact import reindex keep snapshot copy config help" -f -a "clear" -d 'Delete every session. Asks for confirmation on a terminal; elsewhere --yes is required'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand help; and not __fish_seen_subcommand_from create record get resume list search export rename delete cleanup clear branch branches rewind scan redact import reindex keep snapshot copy config help" -f -a "branch" -d 'Start a new session that keeps the first N messages (with the tool calls made among them); records parentSessionId and branchPoint'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand help; and not __fish_seen_subcommand_from create record get resume list search export rename delete cleanup clear branch branches rewind scan redact import reindex keep snapshot copy config help" -f -a "branches" -d 'List the sessions branched from a session'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand help; and not __fish_seen_subcommand_from create record get resume list search export rename delete cleanup clear branch branches rewind scan redact import reindex keep snapshot copy config help" -f -a "rewind" -d 'Go back to point N: branch the conversation at N messages (`branch --at N`) and restore the files to checkpoint turn N (`ollm checkpoint restore --turn N`), or only one of them. A runtime that snapshots with `--turn` set to the session\'s message count makes one N name both. The files go first: at a conflict (a file changed since the session\'s last checkpoint) nothing changes, the conversation is not branched, and the exit code is 1; --force restores anyway. Prints {"branch":{…}|null,"code":{…}|null}'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand help; and not __fish_seen_subcommand_from create record get resume list search export rename delete cleanup clear branch branches rewind scan redact import reindex keep snapshot copy config help" -f -a "scan" -d 'Find credentials already stored (records, titles, snapshots; every format the store holds): one NDJSON finding a line (session, record, field, kind, a masked preview; never the credential), a table at a terminal. Exits 1 when anything is found, 0 when clean (as gitleaks does). `ollm-session redact` removes what it finds'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand help; and not __fish_seen_subcommand_from create record get resume list search export rename delete cleanup clear branch branches rewind scan redact import reindex keep snapshot copy config help" -f -a "redact" -d 'Replace credentials already stored with `[REDACTED:<kind>]`, in place: each session (and each snapshot) is replaced whole in one step, so a crash leaves it as it was or fully scrubbed. Prints {"sessionId", "redacted"} a session; --dry-run prints what `scan` finds instead and changes nothing'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand help; and not __fish_seen_subcommand_from create record get resume list search export rename delete cleanup clear branch branches rewind scan redact import reindex keep snapshot copy config help" -f -a "import" -d 'Import sessions of Claude Code, Codex, gemini-cli, opencode and goose: one session per source session, with every message, every tool call paired with its result, the working directory as its workspace (so `--here` and `resume --continue` find it in that project), the title, model and times, and where it came from in `metadata.importedFrom`; stored as journals whatever services.session.format says. The sources are only read (a database through a private copy, so a live one and its write-ahead log are never written). Importing again adds only what a source gained since. Prints one NDJSON line per session ({"tool", "source", "sourceId", "sessionId", "status", "messages", "toolCalls", "added", "skipped"}) and a last {"summary": …} line; a table at a terminal. Exits 4 when a source could not be read (the others are imported)'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand help; and not __fish_seen_subcommand_from create record get resume list search export rename delete cleanup clear branch branches rewind scan redact import reindex keep snapshot copy config help" -f -a "reindex" -d 'Rebuild the file store\'s index from the sessions\' files. The index is what `list`, `--last`, `--here`, prefixes and titles read; it is kept up to date by every command and rebuilt on its own when it is missing or damaged, so this is only needed after sessions were changed by an older ollm or restored by hand into a session directory that already existed. Prints how many sessions it holds. On PostgreSQL, which keeps its indexes itself, it only counts them'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand help; and not __fish_seen_subcommand_from create record get resume list search export rename delete cleanup clear branch branches rewind scan redact import reindex keep snapshot copy config help" -f -a "keep" -d 'Keep the PostgreSQL store\'s connections open between commands: a short command then takes about half the time'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand help; and not __fish_seen_subcommand_from create record get resume list search export rename delete cleanup clear branch branches rewind scan redact import reindex keep snapshot copy config help" -f -a "snapshot" -d 'Context snapshots: create, list, show, restore, delete'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand help; and not __fish_seen_subcommand_from create record get resume list search export rename delete cleanup clear branch branches rewind scan redact import reindex keep snapshot copy config help" -f -a "copy" -d 'Copy sessions between stores (`file`, a directory, or a postgres:// URL), with their branch links; a session already there is kept'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand help; and not __fish_seen_subcommand_from create record get resume list search export rename delete cleanup clear branch branches rewind scan redact import reindex keep snapshot copy config help" -f -a "config" -d 'Print the effective configuration (JSON), or every key with its origin'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand help; and not __fish_seen_subcommand_from create record get resume list search export rename delete cleanup clear branch branches rewind scan redact import reindex keep snapshot copy config help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand help; and __fish_seen_subcommand_from snapshot" -f -a "create" -d 'Snapshot a session (or the message list on stdin with --stdin); deletes the oldest beyond snapshots.maxCount'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand help; and __fish_seen_subcommand_from snapshot" -f -a "list" -d 'A session\'s snapshots, newest first'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand help; and __fish_seen_subcommand_from snapshot" -f -a "show" -d 'Print a whole snapshot'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand help; and __fish_seen_subcommand_from snapshot" -f -a "restore" -d 'Print the snapshot\'s context as a message list in its original order, or re-create it as a new session'
complete -c ollm-session -n "__fish_ollm_session_using_subcommand help; and __fish_seen_subcommand_from snapshot" -f -a "delete" -d 'Delete a snapshot. Prints {"deleted": [SNAPSHOT_ID]}'
