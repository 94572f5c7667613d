# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_ollm_global_optspecs
    string join \n config= list h/help V/version
end

function __fish_ollm_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_ollm_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_ollm_using_subcommand
    set -l cmd (__fish_ollm_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c ollm -n "__fish_ollm_needs_command" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_needs_command" -l list -d 'List the tools found (name and path): a table at a terminal, JSON when piped'
complete -c ollm -n "__fish_ollm_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ollm -n "__fish_ollm_needs_command" -s V -l version -d 'Print version'
complete -c ollm -n "__fish_ollm_needs_command" -f -a "help" -d 'Show help for ollm, for one of its own commands (`ollm help config`), or for a tool and its subcommands (`ollm help session list`)'
complete -c ollm -n "__fish_ollm_needs_command" -f -a "completions" -d 'Print a shell completion script (bash, zsh, fish, powershell, elvish), for installing when ollm came from `cargo install`'
complete -c ollm -n "__fish_ollm_needs_command" -f -a "man" -d 'Print a man page: shown by `man` at a terminal, roff when piped (for installing)'
complete -c ollm -n "__fish_ollm_needs_command" -f -a "config" -d 'Print the effective shared configuration, or every key with its origin'
complete -c ollm -n "__fish_ollm_needs_command" -f -a "trust" -d 'Trust a workspace\'s .ollm/ as it is now (its configuration may then weaken safety, its context entries reach the prompt), list trusted workspaces, or revoke trust. An edit of .ollm/config.yaml revokes it'
complete -c ollm -n "__fish_ollm_needs_command" -f -a "env" -d 'Run a tool with secrets stripped from its environment'
complete -c ollm -n "__fish_ollm_needs_command" -f -a "loopcheck" -d 'Detect runaway loops in an agent\'s events'
complete -c ollm -n "__fish_ollm_needs_command" -f -a "context" -d 'Keep prioritized context entries and render them as system-prompt additions'
complete -c ollm -n "__fish_ollm_needs_command" -f -a "compress" -d 'Count tokens of a conversation and compress it to fit a context window'
complete -c ollm -n "__fish_ollm_needs_command" -f -a "session" -d 'Durable, searchable, branchable session history (the spec\'s session format), with snapshots'
complete -c ollm -n "__fish_ollm_needs_command" -f -a "discover" -d 'List a project\'s files the way git sees them: a table at a terminal, NDJSON or paths when piped'
complete -c ollm -n "__fish_ollm_needs_command" -f -a "mcp" -d 'Serve session history, context and file discovery to an agent over the Model Context Protocol (stdio: one JSON-RPC message a line)'
complete -c ollm -n "__fish_ollm_needs_command" -f -a "checkpoint" -d 'Snapshot the files an agent may change at each turn, and rewind them to any turn without git and without deleting the user\'s work'
complete -c ollm -n "__fish_ollm_using_subcommand help" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand help" -s h -l help -d 'Print help'
complete -c ollm -n "__fish_ollm_using_subcommand completions" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand completions" -s h -l help -d 'Print help'
complete -c ollm -n "__fish_ollm_using_subcommand man" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand man" -l list -d 'Print the name of every page, one a line'
complete -c ollm -n "__fish_ollm_using_subcommand man" -s h -l help -d 'Print help'
complete -c ollm -n "__fish_ollm_using_subcommand config" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand config" -l show-origin -d 'Show every key with its value and where it came from (default, a file, an environment variable or a flag), like `git config --show-origin`'
complete -c ollm -n "__fish_ollm_using_subcommand config" -s h -l help -d 'Print help'
complete -c ollm -n "__fish_ollm_using_subcommand trust" -l revoke -d 'Revoke trust in this workspace (exit 3 when it was not trusted)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand trust" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand trust" -l list -d 'List the trusted workspaces: a table at a terminal, JSON when piped; `current` says whether the configuration is still the one trusted'
complete -c ollm -n "__fish_ollm_using_subcommand trust" -s h -l help -d 'Print help'
complete -c ollm -n "__fish_ollm_using_subcommand env; and not __fish_seen_subcommand_from run report explain config" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand env; and not __fish_seen_subcommand_from run report explain config" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ollm -n "__fish_ollm_using_subcommand env; and not __fish_seen_subcommand_from run report explain config" -s V -l version -d 'Print version'
complete -c ollm -n "__fish_ollm_using_subcommand env; and not __fish_seen_subcommand_from run report explain config" -f -a "run" -d 'Run CMD with the sanitized environment; its exit code passes through (128+N if it dies of signal N; 127 if CMD is not found, 126 if it cannot be executed, or if the --redact-output supervisor cannot make itself unreadable to it)'
complete -c ollm -n "__fish_ollm_using_subcommand env; and not __fish_seen_subcommand_from run report explain config" -f -a "report" -d 'Print every variable name kept and removed with the rule that decided it: a table at a terminal, JSON `{kept, removed, set}` when piped. Values are never printed'
complete -c ollm -n "__fish_ollm_using_subcommand env; and not __fish_seen_subcommand_from run report explain config" -f -a "explain" -d 'Explain the decision for one variable name, as JSON, and for a removed one how to pass it anyway'
complete -c ollm -n "__fish_ollm_using_subcommand env; and not __fish_seen_subcommand_from run report explain config" -f -a "config" -d 'Print the effective configuration (JSON), or every key with its origin'
complete -c ollm -n "__fish_ollm_using_subcommand env; and __fish_seen_subcommand_from run" -l allow -d 'Also keep this variable (exact name, or a glob such as \'MYAPP_*\'). An exact name is kept even when its value looks like a credential' -r
complete -c ollm -n "__fish_ollm_using_subcommand env; and __fish_seen_subcommand_from run" -l deny -d 'Also remove variables matching this glob (case-insensitive)' -r
complete -c ollm -n "__fish_ollm_using_subcommand env; and __fish_seen_subcommand_from run" -l env-file -d 'Set variables from this file in the tool\'s environment (after sanitizing): the dotenv format of docker and compose (NAME=VALUE lines, # comments, quotes). For values that must not appear on a command line. `-` reads stdin' -r
complete -c ollm -n "__fish_ollm_using_subcommand env; and __fish_seen_subcommand_from run" -l set -d 'Set NAME=VALUE in the tool\'s environment (after sanitizing; after --env-file). The value is on ollm-env\'s command line, which every local user can read (ps): use --env-file for a secret' -r
complete -c ollm -n "__fish_ollm_using_subcommand env; and __fish_seen_subcommand_from run" -l checkpoint -d 'Snapshot the current directory\'s files before and after the tool runs, as turns of this session\'s checkpoints (`ollm checkpoint`): what the tool changed can then be diffed and restored. The session: its id, a unique prefix of it or its title' -r
complete -c ollm -n "__fish_ollm_using_subcommand env; and __fish_seen_subcommand_from run" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand env; and __fish_seen_subcommand_from run" -l replace-defaults -d 'Use only the configured and given lists: every built-in list (the spec\'s allow and deny lists, the extended and the connection-string deny lists) is dropped. Values are still checked unless --no-scan-values'
complete -c ollm -n "__fish_ollm_using_subcommand env; and __fish_seen_subcommand_from run" -l no-scan-values -d 'Do not remove variables because of what their value looks like'
complete -c ollm -n "__fish_ollm_using_subcommand env; and __fish_seen_subcommand_from run" -l redact-output -d 'Replace removed secret values and credential-shaped text in the tool\'s stdout and stderr with [REDACTED]. Encoded forms (base64, hex) are not recognised'
complete -c ollm -n "__fish_ollm_using_subcommand env; and __fish_seen_subcommand_from run" -s h -l help -d 'Print help'
complete -c ollm -n "__fish_ollm_using_subcommand env; and __fish_seen_subcommand_from report" -l allow -d 'Also keep this variable (exact name, or a glob such as \'MYAPP_*\'). An exact name is kept even when its value looks like a credential' -r
complete -c ollm -n "__fish_ollm_using_subcommand env; and __fish_seen_subcommand_from report" -l deny -d 'Also remove variables matching this glob (case-insensitive)' -r
complete -c ollm -n "__fish_ollm_using_subcommand env; and __fish_seen_subcommand_from report" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand env; and __fish_seen_subcommand_from report" -l replace-defaults -d 'Use only the configured and given lists: every built-in list (the spec\'s allow and deny lists, the extended and the connection-string deny lists) is dropped. Values are still checked unless --no-scan-values'
complete -c ollm -n "__fish_ollm_using_subcommand env; and __fish_seen_subcommand_from report" -l no-scan-values -d 'Do not remove variables because of what their value looks like'
complete -c ollm -n "__fish_ollm_using_subcommand env; and __fish_seen_subcommand_from report" -s h -l help -d 'Print help'
complete -c ollm -n "__fish_ollm_using_subcommand env; and __fish_seen_subcommand_from explain" -l allow -d 'Also keep this variable (exact name, or a glob such as \'MYAPP_*\'). An exact name is kept even when its value looks like a credential' -r
complete -c ollm -n "__fish_ollm_using_subcommand env; and __fish_seen_subcommand_from explain" -l deny -d 'Also remove variables matching this glob (case-insensitive)' -r
complete -c ollm -n "__fish_ollm_using_subcommand env; and __fish_seen_subcommand_from explain" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand env; and __fish_seen_subcommand_from explain" -l replace-defaults -d 'Use only the configured and given lists: every built-in list (the spec\'s allow and deny lists, the extended and the connection-string deny lists) is dropped. Values are still checked unless --no-scan-values'
complete -c ollm -n "__fish_ollm_using_subcommand env; and __fish_seen_subcommand_from explain" -l no-scan-values -d 'Do not remove variables because of what their value looks like'
complete -c ollm -n "__fish_ollm_using_subcommand env; and __fish_seen_subcommand_from explain" -s h -l help -d 'Print help'
complete -c ollm -n "__fish_ollm_using_subcommand env; and __fish_seen_subcommand_from config" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand env; and __fish_seen_subcommand_from config" -l show-origin -d 'Show every key with its value and where it came from (default, a file, an environment variable or a flag), like `git config --show-origin`'
complete -c ollm -n "__fish_ollm_using_subcommand env; and __fish_seen_subcommand_from config" -s h -l help -d 'Print help'
complete -c ollm -n "__fish_ollm_using_subcommand loopcheck; and not __fish_seen_subcommand_from config" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand loopcheck; and not __fish_seen_subcommand_from config" -l state -d 'Incremental mode: continue from the detector state in FILE (created when missing), apply this call\'s events, save the state. The verdict is the first loop this call\'s events report' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand loopcheck; and not __fish_seen_subcommand_from config" -l input-format -d 'The input format: NDJSON events, a session document, or auto (decided by the input itself)' -r -f -a "auto\t'A session document when the input is one JSON object with `messages` or `toolCalls`, NDJSON events otherwise'
events\t'NDJSON events, one object a line'
session\t'One session document, as `ollm-session get` prints it'"
complete -c ollm -n "__fish_ollm_using_subcommand loopcheck; and not __fish_seen_subcommand_from config" -l format -d 'Deprecated spelling of --input-format (`--format` names the output format in every other program)' -r -f -a "auto\t'A session document when the input is one JSON object with `messages` or `toolCalls`, NDJSON events otherwise'
events\t'NDJSON events, one object a line'
session\t'One session document, as `ollm-session get` prints it'"
complete -c ollm -n "__fish_ollm_using_subcommand loopcheck; and not __fish_seen_subcommand_from config" -l session -d 'Read this stored session (ollm-session) instead of INPUT: its id, a unique prefix of it (4+ characters) or its title' -r
complete -c ollm -n "__fish_ollm_using_subcommand loopcheck; and not __fish_seen_subcommand_from config" -l max-turns -d 'Report a loop on the first turn beyond N (services.loopDetection.maxTurns)' -r
complete -c ollm -n "__fish_ollm_using_subcommand loopcheck; and not __fish_seen_subcommand_from config" -l repeat-threshold -d 'Repeats that make a loop, at least 2 (services.loopDetection.repeatThreshold)' -r
complete -c ollm -n "__fish_ollm_using_subcommand loopcheck; and not __fish_seen_subcommand_from config" -l similarity-threshold -d 'Output similarity ratio, in (0, 1], at which outputs count as repeats (services.loopDetection.similarityThreshold)' -r
complete -c ollm -n "__fish_ollm_using_subcommand loopcheck; and not __fish_seen_subcommand_from config" -l content-chunk-size -d 'The fewest characters, 10 to 500, that the occurrences of a passage repeated within one output cover together for it to count (services.loopDetection.contentChunkSize)' -r
complete -c ollm -n "__fish_ollm_using_subcommand loopcheck; and not __fish_seen_subcommand_from config" -l content-repeat-threshold -d 'Occurrences in a row of one passage, numbers aside, that make a repeated-content loop, 0 to 50; below 2 turns it off (services.loopDetection.contentRepeatThreshold)' -r
complete -c ollm -n "__fish_ollm_using_subcommand loopcheck; and not __fish_seen_subcommand_from config" -l warnings-before-stop -d 'Reports given as `warn` since the user last spoke before the next is a `stop`, 0 to 100; 0 makes every report a stop (services.loopDetection.warningsBeforeStop)' -r
complete -c ollm -n "__fish_ollm_using_subcommand loopcheck; and not __fish_seen_subcommand_from config" -l stream -d 'Read NDJSON events as they come and print a verdict line (flushed) as soon as a loop is found, then keep reading; at the end of input, print the quiet verdict if nothing was found'
complete -c ollm -n "__fish_ollm_using_subcommand loopcheck; and not __fish_seen_subcommand_from config" -l warn-only -d 'Print the verdict but exit 0 even at a `stop`, for callers that only nudge the model (a `warn` exits 0 anyway)'
complete -c ollm -n "__fish_ollm_using_subcommand loopcheck; and not __fish_seen_subcommand_from config" -l last -d 'Read the most recently active stored session instead of INPUT'
complete -c ollm -n "__fish_ollm_using_subcommand loopcheck; and not __fish_seen_subcommand_from config" -l here -d 'With --session or --last, only sessions made in this workspace (the git top level, else the current directory); alone, the latest of them'
complete -c ollm -n "__fish_ollm_using_subcommand loopcheck; and not __fish_seen_subcommand_from config" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ollm -n "__fish_ollm_using_subcommand loopcheck; and not __fish_seen_subcommand_from config" -s V -l version -d 'Print version'
complete -c ollm -n "__fish_ollm_using_subcommand loopcheck; and not __fish_seen_subcommand_from config" -a "config" -d 'Print the effective configuration (JSON), or every key with its origin'
complete -c ollm -n "__fish_ollm_using_subcommand loopcheck; and __fish_seen_subcommand_from config" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand loopcheck; and __fish_seen_subcommand_from config" -l show-origin -d 'Show every key with its value and where it came from (default, a file, an environment variable or a flag), like `git config --show-origin`'
complete -c ollm -n "__fish_ollm_using_subcommand loopcheck; and __fish_seen_subcommand_from config" -s h -l help -d 'Print help'
complete -c ollm -n "__fish_ollm_using_subcommand context; and not __fish_seen_subcommand_from add remove clear list get prompt config" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand context; and not __fish_seen_subcommand_from add remove clear list get prompt config" -l session -d 'Use the per-session store of this session (a UUID)' -r
complete -c ollm -n "__fish_ollm_using_subcommand context; and not __fish_seen_subcommand_from add remove clear list get prompt config" -l file -d 'Use this store file' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand context; and not __fish_seen_subcommand_from add remove clear list get prompt config" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ollm -n "__fish_ollm_using_subcommand context; and not __fish_seen_subcommand_from add remove clear list get prompt config" -s V -l version -d 'Print version'
complete -c ollm -n "__fish_ollm_using_subcommand context; and not __fish_seen_subcommand_from add remove clear list get prompt config" -f -a "add" -d 'Add an entry, or replace the entry with this key (it keeps its place in insertion order). Content comes from CONTENT, `-` (stdin), or --from-file. Prints `{"added":KEY,"replaced":BOOL,"store":PATH}`'
complete -c ollm -n "__fish_ollm_using_subcommand context; and not __fish_seen_subcommand_from add remove clear list get prompt config" -f -a "remove" -d 'Remove an entry (alias: delete); exit 3 when there is none, unless --missing-ok. Prints `{"removed":N,"keys":[…],"store":PATH}`'
complete -c ollm -n "__fish_ollm_using_subcommand context; and not __fish_seen_subcommand_from add remove clear list get prompt config" -f -a "clear" -d 'Remove every entry, or only those of one source. Prints `{"removed":N,"keys":[…],"store":PATH}`'
complete -c ollm -n "__fish_ollm_using_subcommand context; and not __fish_seen_subcommand_from add remove clear list get prompt config" -f -a "list" -d 'List the live entries in insertion order: a table at a terminal, a JSON array when piped'
complete -c ollm -n "__fish_ollm_using_subcommand context; and not __fish_seen_subcommand_from add remove clear list get prompt config" -f -a "get" -d 'Print one entry as JSON (exit 3 when missing or expired)'
complete -c ollm -n "__fish_ollm_using_subcommand context; and not __fish_seen_subcommand_from add remove clear list get prompt config" -f -a "prompt" -d 'Print the system-prompt additions: one markdown section (`## KEY`, blank line, content) per live entry, highest priority first, ties in insertion order. Nothing when the store is empty'
complete -c ollm -n "__fish_ollm_using_subcommand context; and not __fish_seen_subcommand_from add remove clear list get prompt config" -f -a "config" -d 'Print the effective configuration (JSON), or every key with its origin'
complete -c ollm -n "__fish_ollm_using_subcommand context; and __fish_seen_subcommand_from add" -l from-file -d 'Read the content from this file' -r
complete -c ollm -n "__fish_ollm_using_subcommand context; and __fish_seen_subcommand_from add" -l priority -d 'Higher priorities come first in the prompt' -r
complete -c ollm -n "__fish_ollm_using_subcommand context; and __fish_seen_subcommand_from add" -l source -d 'Who added the entry (`clear --source` removes one source\'s entries)' -r -f -a "hook\t''
extension\t''
user\t''
system\t''"
complete -c ollm -n "__fish_ollm_using_subcommand context; and __fish_seen_subcommand_from add" -l ttl -d 'Drop the entry after this long: 30s, 10m, 2h, 1d, 1h30m, or seconds' -r
complete -c ollm -n "__fish_ollm_using_subcommand context; and __fish_seen_subcommand_from add" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand context; and __fish_seen_subcommand_from add" -l session -d 'Use the per-session store of this session (a UUID)' -r
complete -c ollm -n "__fish_ollm_using_subcommand context; and __fish_seen_subcommand_from add" -l file -d 'Use this store file' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand context; and __fish_seen_subcommand_from add" -s h -l help -d 'Print help'
complete -c ollm -n "__fish_ollm_using_subcommand context; and __fish_seen_subcommand_from remove" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand context; and __fish_seen_subcommand_from remove" -l session -d 'Use the per-session store of this session (a UUID)' -r
complete -c ollm -n "__fish_ollm_using_subcommand context; and __fish_seen_subcommand_from remove" -l file -d 'Use this store file' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand context; and __fish_seen_subcommand_from remove" -l missing-ok -d 'Exit 0 even when the key is not in the store'
complete -c ollm -n "__fish_ollm_using_subcommand context; and __fish_seen_subcommand_from remove" -s h -l help -d 'Print help'
complete -c ollm -n "__fish_ollm_using_subcommand context; and __fish_seen_subcommand_from clear" -l source -d 'Remove only the entries of this source' -r -f -a "hook\t''
extension\t''
user\t''
system\t''"
complete -c ollm -n "__fish_ollm_using_subcommand context; and __fish_seen_subcommand_from clear" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand context; and __fish_seen_subcommand_from clear" -l session -d 'Use the per-session store of this session (a UUID)' -r
complete -c ollm -n "__fish_ollm_using_subcommand context; and __fish_seen_subcommand_from clear" -l file -d 'Use this store file' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand context; and __fish_seen_subcommand_from clear" -s h -l help -d 'Print help'
complete -c ollm -n "__fish_ollm_using_subcommand context; and __fish_seen_subcommand_from list" -l source -d 'List only the entries of this source' -r -f -a "hook\t''
extension\t''
user\t''
system\t''"
complete -c ollm -n "__fish_ollm_using_subcommand context; and __fish_seen_subcommand_from list" -l format -d 'The output format [default: table at a terminal, json when piped]' -r -f -a "json\t'One pretty JSON document'
ndjson\t'One compact JSON object a line'
table\t'Aligned columns under a header row, fitted to the terminal'
text\t'Tab-separated cells, one item a line, no header'"
complete -c ollm -n "__fish_ollm_using_subcommand context; and __fish_seen_subcommand_from list" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand context; and __fish_seen_subcommand_from list" -l session -d 'Use the per-session store of this session (a UUID)' -r
complete -c ollm -n "__fish_ollm_using_subcommand context; and __fish_seen_subcommand_from list" -l file -d 'Use this store file' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand context; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ollm -n "__fish_ollm_using_subcommand context; and __fish_seen_subcommand_from get" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand context; and __fish_seen_subcommand_from get" -l session -d 'Use the per-session store of this session (a UUID)' -r
complete -c ollm -n "__fish_ollm_using_subcommand context; and __fish_seen_subcommand_from get" -l file -d 'Use this store file' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand context; and __fish_seen_subcommand_from get" -l content -d 'Print only the content, ending in a newline (one is added when the content has none)'
complete -c ollm -n "__fish_ollm_using_subcommand context; and __fish_seen_subcommand_from get" -s h -l help -d 'Print help'
complete -c ollm -n "__fish_ollm_using_subcommand context; and __fish_seen_subcommand_from prompt" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand context; and __fish_seen_subcommand_from prompt" -l session -d 'Use the per-session store of this session (a UUID)' -r
complete -c ollm -n "__fish_ollm_using_subcommand context; and __fish_seen_subcommand_from prompt" -l file -d 'Use this store file' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand context; and __fish_seen_subcommand_from prompt" -l json -d 'Print the entries in prompt order as a JSON array instead'
complete -c ollm -n "__fish_ollm_using_subcommand context; and __fish_seen_subcommand_from prompt" -s h -l help -d 'Print help'
complete -c ollm -n "__fish_ollm_using_subcommand context; and __fish_seen_subcommand_from config" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand context; and __fish_seen_subcommand_from config" -l session -d 'Use the per-session store of this session (a UUID)' -r
complete -c ollm -n "__fish_ollm_using_subcommand context; and __fish_seen_subcommand_from config" -l file -d 'Use this store file' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand context; and __fish_seen_subcommand_from config" -l show-origin -d 'Show every key with its value and where it came from (default, a file, an environment variable or a flag), like `git config --show-origin`'
complete -c ollm -n "__fish_ollm_using_subcommand context; and __fish_seen_subcommand_from config" -s h -l help -d 'Print help'
complete -c ollm -n "__fish_ollm_using_subcommand compress; and not __fish_seen_subcommand_from compress count check config" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand compress; and not __fish_seen_subcommand_from compress count check config" -l tokenizer -d 'How to count tokens: cl100k, o200k (built in), a path to the model\'s own tokenizer.json, server (the model server\'s /tokenize), estimate (characters / 4)' -r
complete -c ollm -n "__fish_ollm_using_subcommand compress; and not __fish_seen_subcommand_from compress count check config" -l tokenizer-url -d 'The server for `--tokenizer server` (default: the summarizer URL)' -r
complete -c ollm -n "__fish_ollm_using_subcommand compress; and not __fish_seen_subcommand_from compress count check config" -l session -d 'Read this stored session (ollm-session) instead of INPUT: its id, a unique prefix of it (4+ characters) or its title' -r
complete -c ollm -n "__fish_ollm_using_subcommand compress; and not __fish_seen_subcommand_from compress count check config" -l token-limit -d 'The context size in tokens (default: services.compression.tokenLimit)' -r
complete -c ollm -n "__fish_ollm_using_subcommand compress; and not __fish_seen_subcommand_from compress count check config" -l limit -d 'Deprecated spelling of --token-limit (`--limit` counts rows elsewhere)' -r
complete -c ollm -n "__fish_ollm_using_subcommand compress; and not __fish_seen_subcommand_from compress count check config" -l threshold -d 'Fraction of the limit above which compression is needed (default 0.8)' -r
complete -c ollm -n "__fish_ollm_using_subcommand compress; and not __fish_seen_subcommand_from compress count check config" -l trigger -d 'static: tokens > threshold × limit (default). dynamic: the history after the system prompt and earlier summaries > threshold × what the limit leaves for it' -r -f -a "static\t''
dynamic\t''"
complete -c ollm -n "__fish_ollm_using_subcommand compress; and not __fish_seen_subcommand_from compress count check config" -l strategy -d 'hybrid (default): summarize the old part, keep the recent `preserveRecent` tokens. summarize: summarize all but the system prompt and user messages. truncate: drop the oldest until within target' -r -f -a "summarize\t''
truncate\t''
hybrid\t''"
complete -c ollm -n "__fish_ollm_using_subcommand compress; and not __fish_seen_subcommand_from compress count check config" -l target -d 'Size to compress to (default: threshold × limit)' -r
complete -c ollm -n "__fish_ollm_using_subcommand compress; and not __fish_seen_subcommand_from compress count check config" -l preserve-recent -d 'Tokens of the most recent history kept verbatim (default 4096)' -r
complete -c ollm -n "__fish_ollm_using_subcommand compress; and not __fish_seen_subcommand_from compress count check config" -l summary-max-tokens -d 'The summary\'s token budget (default 1024)' -r
complete -c ollm -n "__fish_ollm_using_subcommand compress; and not __fish_seen_subcommand_from compress count check config" -l summarizer-cmd -d 'Summarize with this shell command instead of a model server: the prompt on its stdin, the summary on its stdout' -r
complete -c ollm -n "__fish_ollm_using_subcommand compress; and not __fish_seen_subcommand_from compress count check config" -l summarizer-api -d 'openai (/v1/chat/completions, the default; Ollama serves it too) or ollama (/api/chat)' -r -f -a "openai\t''
ollama\t''"
complete -c ollm -n "__fish_ollm_using_subcommand compress; and not __fish_seen_subcommand_from compress count check config" -l summarizer-url -d 'The model server\'s base URL (default http://127.0.0.1:11434, Ollama\'s)' -r
complete -c ollm -n "__fish_ollm_using_subcommand compress; and not __fish_seen_subcommand_from compress count check config" -l summarizer-model -d 'The model to ask for the summary (default llama3.2:3b)' -r
complete -c ollm -n "__fish_ollm_using_subcommand compress; and not __fish_seen_subcommand_from compress count check config" -l timeout -d 'Seconds to wait for the summarizer before truncating instead' -r
complete -c ollm -n "__fish_ollm_using_subcommand compress; and not __fish_seen_subcommand_from compress count check config" -l format -d 'json (the default when piped), text (the default at a terminal: a few lines saying what was done, not the whole history) or messages (the compressed messages alone, a JSON array: what a model is given)' -r -f -a "json\t''
text\t''
messages\t'`compressedMessages` alone, so a script needs no JSON tool to take it'"
complete -c ollm -n "__fish_ollm_using_subcommand compress; and not __fish_seen_subcommand_from compress count check config" -l last -d 'Read the most recently active stored session instead of INPUT'
complete -c ollm -n "__fish_ollm_using_subcommand compress; and not __fish_seen_subcommand_from compress count check config" -l here -d 'With --session or --last, only sessions made in this workspace (the git top level, else the current directory); alone, the latest of them'
complete -c ollm -n "__fish_ollm_using_subcommand compress; and not __fish_seen_subcommand_from compress count check config" -l no-keep-user-messages -d 'Let user messages be summarized or dropped like the others'
complete -c ollm -n "__fish_ollm_using_subcommand compress; and not __fish_seen_subcommand_from compress count check config" -l force -d 'Compress even when the history is below the trigger (or compression is disabled)'
complete -c ollm -n "__fish_ollm_using_subcommand compress; and not __fish_seen_subcommand_from compress count check config" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ollm -n "__fish_ollm_using_subcommand compress; and not __fish_seen_subcommand_from compress count check config" -s V -l version -d 'Print version'
complete -c ollm -n "__fish_ollm_using_subcommand compress; and not __fish_seen_subcommand_from compress count check config" -a "compress" -d 'Compress the history and print the result as JSON (`compressedMessages`, `originalTokenCount`, `compressedTokenCount`, `strategy`, `status`, …). Exit code 0 whenever a result is printed; `status` tells what happened: compressed, not-needed, disabled, fallback-truncate, rejected-not-smaller'
complete -c ollm -n "__fish_ollm_using_subcommand compress; and not __fish_seen_subcommand_from compress count check config" -a "count" -d 'Count tokens: the total and each message\'s and tool call\'s'
complete -c ollm -n "__fish_ollm_using_subcommand compress; and not __fish_seen_subcommand_from compress count check config" -a "check" -d 'Say whether compression is needed (exit code 1 when it is, 0 when not), with the numbers behind the verdict as JSON'
complete -c ollm -n "__fish_ollm_using_subcommand compress; and not __fish_seen_subcommand_from compress count check config" -a "config" -d 'Print the effective configuration (JSON), or every key with its origin'
complete -c ollm -n "__fish_ollm_using_subcommand compress; and __fish_seen_subcommand_from compress" -l tokenizer -d 'How to count tokens: cl100k, o200k (built in), a path to the model\'s own tokenizer.json, server (the model server\'s /tokenize), estimate (characters / 4)' -r
complete -c ollm -n "__fish_ollm_using_subcommand compress; and __fish_seen_subcommand_from compress" -l tokenizer-url -d 'The server for `--tokenizer server` (default: the summarizer URL)' -r
complete -c ollm -n "__fish_ollm_using_subcommand compress; and __fish_seen_subcommand_from compress" -l session -d 'Read this stored session (ollm-session) instead of INPUT: its id, a unique prefix of it (4+ characters) or its title' -r
complete -c ollm -n "__fish_ollm_using_subcommand compress; and __fish_seen_subcommand_from compress" -l token-limit -d 'The context size in tokens (default: services.compression.tokenLimit)' -r
complete -c ollm -n "__fish_ollm_using_subcommand compress; and __fish_seen_subcommand_from compress" -l limit -d 'Deprecated spelling of --token-limit (`--limit` counts rows elsewhere)' -r
complete -c ollm -n "__fish_ollm_using_subcommand compress; and __fish_seen_subcommand_from compress" -l threshold -d 'Fraction of the limit above which compression is needed (default 0.8)' -r
complete -c ollm -n "__fish_ollm_using_subcommand compress; and __fish_seen_subcommand_from compress" -l trigger -d 'static: tokens > threshold × limit (default). dynamic: the history after the system prompt and earlier summaries > threshold × what the limit leaves for it' -r -f -a "static\t''
dynamic\t''"
complete -c ollm -n "__fish_ollm_using_subcommand compress; and __fish_seen_subcommand_from compress" -l strategy -d 'hybrid (default): summarize the old part, keep the recent `preserveRecent` tokens. summarize: summarize all but the system prompt and user messages. truncate: drop the oldest until within target' -r -f -a "summarize\t''
truncate\t''
hybrid\t''"
complete -c ollm -n "__fish_ollm_using_subcommand compress; and __fish_seen_subcommand_from compress" -l target -d 'Size to compress to (default: threshold × limit)' -r
complete -c ollm -n "__fish_ollm_using_subcommand compress; and __fish_seen_subcommand_from compress" -l preserve-recent -d 'Tokens of the most recent history kept verbatim (default 4096)' -r
complete -c ollm -n "__fish_ollm_using_subcommand compress; and __fish_seen_subcommand_from compress" -l summary-max-tokens -d 'The summary\'s token budget (default 1024)' -r
complete -c ollm -n "__fish_ollm_using_subcommand compress; and __fish_seen_subcommand_from compress" -l summarizer-cmd -d 'Summarize with this shell command instead of a model server: the prompt on its stdin, the summary on its stdout' -r
complete -c ollm -n "__fish_ollm_using_subcommand compress; and __fish_seen_subcommand_from compress" -l summarizer-api -d 'openai (/v1/chat/completions, the default; Ollama serves it too) or ollama (/api/chat)' -r -f -a "openai\t''
ollama\t''"
complete -c ollm -n "__fish_ollm_using_subcommand compress; and __fish_seen_subcommand_from compress" -l summarizer-url -d 'The model server\'s base URL (default http://127.0.0.1:11434, Ollama\'s)' -r
complete -c ollm -n "__fish_ollm_using_subcommand compress; and __fish_seen_subcommand_from compress" -l summarizer-model -d 'The model to ask for the summary (default llama3.2:3b)' -r
complete -c ollm -n "__fish_ollm_using_subcommand compress; and __fish_seen_subcommand_from compress" -l timeout -d 'Seconds to wait for the summarizer before truncating instead' -r
complete -c ollm -n "__fish_ollm_using_subcommand compress; and __fish_seen_subcommand_from compress" -l format -d 'json (the default when piped), text (the default at a terminal: a few lines saying what was done, not the whole history) or messages (the compressed messages alone, a JSON array: what a model is given)' -r -f -a "json\t''
text\t''
messages\t'`compressedMessages` alone, so a script needs no JSON tool to take it'"
complete -c ollm -n "__fish_ollm_using_subcommand compress; and __fish_seen_subcommand_from compress" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand compress; and __fish_seen_subcommand_from compress" -l last -d 'Read the most recently active stored session instead of INPUT'
complete -c ollm -n "__fish_ollm_using_subcommand compress; and __fish_seen_subcommand_from compress" -l here -d 'With --session or --last, only sessions made in this workspace (the git top level, else the current directory); alone, the latest of them'
complete -c ollm -n "__fish_ollm_using_subcommand compress; and __fish_seen_subcommand_from compress" -l no-keep-user-messages -d 'Let user messages be summarized or dropped like the others'
complete -c ollm -n "__fish_ollm_using_subcommand compress; and __fish_seen_subcommand_from compress" -l force -d 'Compress even when the history is below the trigger (or compression is disabled)'
complete -c ollm -n "__fish_ollm_using_subcommand compress; and __fish_seen_subcommand_from compress" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ollm -n "__fish_ollm_using_subcommand compress; and __fish_seen_subcommand_from count" -l tokenizer -d 'How to count tokens: cl100k, o200k (built in), a path to the model\'s own tokenizer.json, server (the model server\'s /tokenize), estimate (characters / 4)' -r
complete -c ollm -n "__fish_ollm_using_subcommand compress; and __fish_seen_subcommand_from count" -l tokenizer-url -d 'The server for `--tokenizer server` (default: the summarizer URL)' -r
complete -c ollm -n "__fish_ollm_using_subcommand compress; and __fish_seen_subcommand_from count" -l session -d 'Read this stored session (ollm-session) instead of INPUT: its id, a unique prefix of it (4+ characters) or its title' -r
complete -c ollm -n "__fish_ollm_using_subcommand compress; and __fish_seen_subcommand_from count" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand compress; and __fish_seen_subcommand_from count" -l last -d 'Read the most recently active stored session instead of INPUT'
complete -c ollm -n "__fish_ollm_using_subcommand compress; and __fish_seen_subcommand_from count" -l here -d 'With --session or --last, only sessions made in this workspace (the git top level, else the current directory); alone, the latest of them'
complete -c ollm -n "__fish_ollm_using_subcommand compress; and __fish_seen_subcommand_from count" -s h -l help -d 'Print help'
complete -c ollm -n "__fish_ollm_using_subcommand compress; and __fish_seen_subcommand_from check" -l tokenizer -d 'How to count tokens: cl100k, o200k (built in), a path to the model\'s own tokenizer.json, server (the model server\'s /tokenize), estimate (characters / 4)' -r
complete -c ollm -n "__fish_ollm_using_subcommand compress; and __fish_seen_subcommand_from check" -l tokenizer-url -d 'The server for `--tokenizer server` (default: the summarizer URL)' -r
complete -c ollm -n "__fish_ollm_using_subcommand compress; and __fish_seen_subcommand_from check" -l session -d 'Read this stored session (ollm-session) instead of INPUT: its id, a unique prefix of it (4+ characters) or its title' -r
complete -c ollm -n "__fish_ollm_using_subcommand compress; and __fish_seen_subcommand_from check" -l token-limit -d 'The context size in tokens (default: services.compression.tokenLimit)' -r
complete -c ollm -n "__fish_ollm_using_subcommand compress; and __fish_seen_subcommand_from check" -l limit -d 'Deprecated spelling of --token-limit (`--limit` counts rows elsewhere)' -r
complete -c ollm -n "__fish_ollm_using_subcommand compress; and __fish_seen_subcommand_from check" -l threshold -d 'Fraction of the limit above which compression is needed (default 0.8)' -r
complete -c ollm -n "__fish_ollm_using_subcommand compress; and __fish_seen_subcommand_from check" -l trigger -d 'static: tokens > threshold × limit (default). dynamic: the history after the system prompt and earlier summaries > threshold × what the limit leaves for it' -r -f -a "static\t''
dynamic\t''"
complete -c ollm -n "__fish_ollm_using_subcommand compress; and __fish_seen_subcommand_from check" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand compress; and __fish_seen_subcommand_from check" -l last -d 'Read the most recently active stored session instead of INPUT'
complete -c ollm -n "__fish_ollm_using_subcommand compress; and __fish_seen_subcommand_from check" -l here -d 'With --session or --last, only sessions made in this workspace (the git top level, else the current directory); alone, the latest of them'
complete -c ollm -n "__fish_ollm_using_subcommand compress; and __fish_seen_subcommand_from check" -s h -l help -d 'Print help'
complete -c ollm -n "__fish_ollm_using_subcommand compress; and __fish_seen_subcommand_from config" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand compress; and __fish_seen_subcommand_from config" -l show-origin -d 'Show every key with its value and where it came from (default, a file, an environment variable or a flag), like `git config --show-origin`'
complete -c ollm -n "__fish_ollm_using_subcommand compress; and __fish_seen_subcommand_from config" -s h -l help -d 'Print help'
complete -c ollm -n "__fish_ollm_using_subcommand session; and not __fish_seen_subcommand_from create record get view resume list ls search export rename delete rm remove cleanup clear branch branches rewind scan redact import reindex keep snapshot snapshots copy config" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand session; and not __fish_seen_subcommand_from create record get view resume list ls search export rename delete rm remove cleanup clear branch branches rewind scan redact import reindex keep snapshot snapshots copy config" -l data-dir -d 'The session data directory (services.session.dataDir)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand session; and not __fish_seen_subcommand_from create record get view resume list ls search export rename delete rm remove cleanup clear branch branches rewind scan redact import reindex keep snapshot snapshots copy config" -l store -d 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)' -r
complete -c ollm -n "__fish_ollm_using_subcommand session; and not __fish_seen_subcommand_from create record get view resume list ls search export rename delete rm remove cleanup clear branch branches rewind scan redact import reindex keep snapshot snapshots copy config" -l no-redact -d 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
complete -c ollm -n "__fish_ollm_using_subcommand session; and not __fish_seen_subcommand_from create record get view resume list ls search export rename delete rm remove cleanup clear branch branches rewind scan redact import reindex keep snapshot snapshots copy config" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ollm -n "__fish_ollm_using_subcommand session; and not __fish_seen_subcommand_from create record get view resume list ls search export rename delete rm remove cleanup clear branch branches rewind scan redact import reindex keep snapshot snapshots copy config" -s V -l version -d 'Print version'
complete -c ollm -n "__fish_ollm_using_subcommand session; and not __fish_seen_subcommand_from create record get view resume list ls search export rename delete rm remove cleanup clear branch branches rewind scan redact import reindex keep snapshot snapshots copy config" -f -a "create" -d 'Create a session; prints {"sessionId": …}. Records the workspace it was made in (the git top level, else the current directory) for --here. Deletes the oldest sessions beyond maxSessions (never a locked one)'
complete -c ollm -n "__fish_ollm_using_subcommand session; and not __fish_seen_subcommand_from create record get view resume list ls search export rename delete rm remove cleanup clear branch branches rewind scan redact import reindex keep snapshot snapshots copy config" -f -a "record" -d 'Record a message or a tool call with its result; one JSON document, or NDJSON (one record a line, each acknowledged on stdout once it is on disk). An object with `role` is a message, one with `name` and `result` a tool call; a missing `timestamp` is now. Large texts come from a file or stdin (`--result-file FILE`, `--result -`), never from the command line\'s size limit. With --last, a single positional argument is INPUT'
complete -c ollm -n "__fish_ollm_using_subcommand session; and not __fish_seen_subcommand_from create record get view resume list ls search export rename delete rm remove cleanup clear branch branches rewind scan redact import reindex keep snapshot snapshots copy config" -f -a "get" -d 'Print a whole session as the spec\'s JSON (a transcript on a terminal)'
complete -c ollm -n "__fish_ollm_using_subcommand session; and not __fish_seen_subcommand_from create record get view resume list ls search export rename delete rm remove cleanup clear branch branches rewind scan redact import reindex keep snapshot snapshots copy config" -f -a "view" -d 'Print a whole session as the spec\'s JSON (a transcript on a terminal)'
complete -c ollm -n "__fish_ollm_using_subcommand session; and not __fish_seen_subcommand_from create record get view resume list ls search export rename delete rm remove cleanup clear branch branches rewind scan redact import reindex keep snapshot snapshots copy config" -f -a "resume" -d 'Choose a session to carry on with and print its id (or start --exec on it). At a terminal with no ID, a picker shows the sessions newest first (arrow keys, type to filter); --continue takes the latest session of this workspace, as `claude --continue` does. Off a terminal, an ID, --continue or --last is required (exit 2)'
complete -c ollm -n "__fish_ollm_using_subcommand session; and not __fish_seen_subcommand_from create record get view resume list ls search export rename delete rm remove cleanup clear branch branches rewind scan redact import reindex keep snapshot snapshots copy config" -f -a "list" -d 'List sessions newest first: sessionId, startTime, lastActivity, model, messageCount, tokenCount, title, workspace (JSON when piped, a table on a terminal)'
complete -c ollm -n "__fish_ollm_using_subcommand session; and not __fish_seen_subcommand_from create record get view resume list ls search export rename delete rm remove cleanup clear branch branches rewind scan redact import reindex keep snapshot snapshots copy config" -f -a "ls" -d 'List sessions newest first: sessionId, startTime, lastActivity, model, messageCount, tokenCount, title, workspace (JSON when piped, a table on a terminal)'
complete -c ollm -n "__fish_ollm_using_subcommand session; and not __fish_seen_subcommand_from create record get view resume list ls search export rename delete rm remove cleanup clear branch branches rewind scan redact import reindex keep snapshot snapshots copy config" -f -a "search" -d 'Search every session\'s title, messages and tool calls; each hit gives the session id, message index, role, timestamp and a snippet'
complete -c ollm -n "__fish_ollm_using_subcommand session; and not __fish_seen_subcommand_from create record get view resume list ls search export rename delete rm remove cleanup clear branch branches rewind scan redact import reindex keep snapshot snapshots copy config" -f -a "export" -d 'Export a session as the spec\'s JSON, a Markdown transcript or a self-contained HTML page; or every session as an HTML archive'
complete -c ollm -n "__fish_ollm_using_subcommand session; and not __fish_seen_subcommand_from create record get view resume list ls search export rename delete rm remove cleanup clear branch branches rewind scan redact import reindex keep snapshot snapshots copy config" -f -a "rename" -d 'Give a session a title (or remove it with --clear); commands then take the title in place of the id. Prints what changed'
complete -c ollm -n "__fish_ollm_using_subcommand session; and not __fish_seen_subcommand_from create record get view resume list ls search export rename delete rm remove cleanup clear branch branches rewind scan redact import reindex keep snapshot snapshots copy config" -f -a "delete" -d 'Delete a session with its snapshots, its file checkpoints and any copies of it set aside as corrupt, as one operation. Prints {"deleted": [ID]}'
complete -c ollm -n "__fish_ollm_using_subcommand session; and not __fish_seen_subcommand_from create record get view resume list ls search export rename delete rm remove cleanup clear branch branches rewind scan redact import reindex keep snapshot snapshots copy config" -f -a "rm" -d 'Delete a session with its snapshots, its file checkpoints and any copies of it set aside as corrupt, as one operation. Prints {"deleted": [ID]}'
complete -c ollm -n "__fish_ollm_using_subcommand session; and not __fish_seen_subcommand_from create record get view resume list ls search export rename delete rm remove cleanup clear branch branches rewind scan redact import reindex keep snapshot snapshots copy config" -f -a "remove" -d 'Delete a session with its snapshots, its file checkpoints and any copies of it set aside as corrupt, as one operation. Prints {"deleted": [ID]}'
complete -c ollm -n "__fish_ollm_using_subcommand session; and not __fish_seen_subcommand_from create record get view resume list ls search export rename delete rm remove cleanup clear branch branches rewind scan redact import reindex keep snapshot snapshots copy config" -f -a "cleanup" -d 'Keep the N most recently active sessions, delete the rest (skipping any being written). Prints what was deleted and kept'
complete -c ollm -n "__fish_ollm_using_subcommand session; and not __fish_seen_subcommand_from create record get view resume list ls search export rename delete rm remove cleanup clear branch branches rewind scan redact import reindex keep snapshot snapshots copy config" -f -a "clear" -d 'Delete every session. Asks for confirmation on a terminal; elsewhere --yes is required'
complete -c ollm -n "__fish_ollm_using_subcommand session; and not __fish_seen_subcommand_from create record get view resume list ls search export rename delete rm remove cleanup clear branch branches rewind scan redact import reindex keep snapshot snapshots copy config" -f -a "branch" -d 'Start a new session that keeps the first N messages (with the tool calls made among them); records parentSessionId and branchPoint'
complete -c ollm -n "__fish_ollm_using_subcommand session; and not __fish_seen_subcommand_from create record get view resume list ls search export rename delete rm remove cleanup clear branch branches rewind scan redact import reindex keep snapshot snapshots copy config" -f -a "branches" -d 'List the sessions branched from a session'
complete -c ollm -n "__fish_ollm_using_subcommand session; and not __fish_seen_subcommand_from create record get view resume list ls search export rename delete rm remove cleanup clear branch branches rewind scan redact import reindex keep snapshot snapshots copy config" -f -a "rewind" -d 'Go back to point N: branch the conversation at N messages (`branch --at N`) and restore the files to checkpoint turn N (`ollm checkpoint restore --turn N`), or only one of them. A runtime that snapshots with `--turn` set to the session\'s message count makes one N name both. The files go first: at a conflict (a file changed since the session\'s last checkpoint) nothing changes, the conversation is not branched, and the exit code is 1; --force restores anyway. Prints {"branch":{…}|null,"code":{…}|null}'
complete -c ollm -n "__fish_ollm_using_subcommand session; and not __fish_seen_subcommand_from create record get view resume list ls search export rename delete rm remove cleanup clear branch branches rewind scan redact import reindex keep snapshot snapshots copy config" -f -a "scan" -d 'Find credentials already stored (records, titles, snapshots; every format the store holds): one NDJSON finding a line (session, record, field, kind, a masked preview; never the credential), a table at a terminal. Exits 1 when anything is found, 0 when clean (as gitleaks does). `ollm-session redact` removes what it finds'
complete -c ollm -n "__fish_ollm_using_subcommand session; and not __fish_seen_subcommand_from create record get view resume list ls search export rename delete rm remove cleanup clear branch branches rewind scan redact import reindex keep snapshot snapshots copy config" -f -a "redact" -d 'Replace credentials already stored with `[REDACTED:<kind>]`, in place: each session (and each snapshot) is replaced whole in one step, so a crash leaves it as it was or fully scrubbed. Prints {"sessionId", "redacted"} a session; --dry-run prints what `scan` finds instead and changes nothing'
complete -c ollm -n "__fish_ollm_using_subcommand session; and not __fish_seen_subcommand_from create record get view resume list ls search export rename delete rm remove cleanup clear branch branches rewind scan redact import reindex keep snapshot snapshots copy config" -f -a "import" -d 'Import sessions of Claude Code, Codex, gemini-cli, opencode and goose: one session per source session, with every message, every tool call paired with its result, the working directory as its workspace (so `--here` and `resume --continue` find it in that project), the title, model and times, and where it came from in `metadata.importedFrom`; stored as journals whatever services.session.format says. The sources are only read (a database through a private copy, so a live one and its write-ahead log are never written). Importing again adds only what a source gained since. Prints one NDJSON line per session ({"tool", "source", "sourceId", "sessionId", "status", "messages", "toolCalls", "added", "skipped"}) and a last {"summary": …} line; a table at a terminal. Exits 4 when a source could not be read (the others are imported)'
complete -c ollm -n "__fish_ollm_using_subcommand session; and not __fish_seen_subcommand_from create record get view resume list ls search export rename delete rm remove cleanup clear branch branches rewind scan redact import reindex keep snapshot snapshots copy config" -f -a "reindex" -d 'Rebuild the file store\'s index from the sessions\' files. The index is what `list`, `--last`, `--here`, prefixes and titles read; it is kept up to date by every command and rebuilt on its own when it is missing or damaged, so this is only needed after sessions were changed by an older ollm or restored by hand into a session directory that already existed. Prints how many sessions it holds. On PostgreSQL, which keeps its indexes itself, it only counts them'
complete -c ollm -n "__fish_ollm_using_subcommand session; and not __fish_seen_subcommand_from create record get view resume list ls search export rename delete rm remove cleanup clear branch branches rewind scan redact import reindex keep snapshot snapshots copy config" -f -a "keep" -d 'Keep the PostgreSQL store\'s connections open between commands: a short command then takes about half the time'
complete -c ollm -n "__fish_ollm_using_subcommand session; and not __fish_seen_subcommand_from create record get view resume list ls search export rename delete rm remove cleanup clear branch branches rewind scan redact import reindex keep snapshot snapshots copy config" -f -a "snapshot" -d 'Context snapshots: create, list, show, restore, delete'
complete -c ollm -n "__fish_ollm_using_subcommand session; and not __fish_seen_subcommand_from create record get view resume list ls search export rename delete rm remove cleanup clear branch branches rewind scan redact import reindex keep snapshot snapshots copy config" -f -a "snapshots" -d 'Context snapshots: create, list, show, restore, delete'
complete -c ollm -n "__fish_ollm_using_subcommand session; and not __fish_seen_subcommand_from create record get view resume list ls search export rename delete rm remove cleanup clear branch branches rewind scan redact import reindex keep snapshot snapshots copy config" -f -a "copy" -d 'Copy sessions between stores (`file`, a directory, or a postgres:// URL), with their branch links; a session already there is kept'
complete -c ollm -n "__fish_ollm_using_subcommand session; and not __fish_seen_subcommand_from create record get view resume list ls search export rename delete rm remove cleanup clear branch branches rewind scan redact import reindex keep snapshot snapshots copy config" -f -a "config" -d 'Print the effective configuration (JSON), or every key with its origin'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from create" -l model -d 'The model the session talks to (the spec\'s `model`)' -r
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from create" -l provider -d 'The model\'s provider, e.g. ollama or openai (the spec\'s `provider`)' -r
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from create" -l title -d 'A name for the session (additive field `title`); commands then take it in place of the id' -r
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from create" -l max-sessions -d 'Sessions to keep (services.session.maxSessions; 0: no limit)' -r
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from create" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from create" -l data-dir -d 'The session data directory (services.session.dataDir)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from create" -l store -d 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)' -r
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from create" -s q -l quiet -d 'Print only the new session\'s id (a line of text, as `docker create` does), for `id=$(…)` without a JSON tool'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from create" -l no-redact -d 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from create" -s h -l help -d 'Print help'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from record" -l role -d 'Shorthand: a plain text message with this role' -r -f -a "user\t''
assistant\t''
system\t''
tool\t''"
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from record" -l text -d 'Shorthand: the message\'s text (`-` reads it from stdin)' -r
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from record" -l text-file -d 'Shorthand: the message\'s text, read from FILE' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from record" -l tool -d 'Shorthand: a tool call with this tool name' -r
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from record" -l args -d 'The tool call\'s arguments, a JSON object (`-` reads it from stdin; default {})' -r
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from record" -l args-file -d 'The tool call\'s arguments, read from FILE' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from record" -l result -d 'The tool\'s result for the model (llmContent; `-` reads it from stdin)' -r
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from record" -l result-file -d 'The tool\'s result for the model, read from FILE' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from record" -l display -d 'The tool\'s result for display (returnDisplay)' -r
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from record" -l call-id -d 'The tool call\'s id (default: a new one)' -r
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from record" -l tokens -d 'The record\'s token count from a real tokenizer, instead of the estimate (characters ÷ 4). Only with a single record' -r
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from record" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from record" -l data-dir -d 'The session data directory (services.session.dataDir)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from record" -l store -d 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)' -r
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from record" -l last -d 'The most recently active session'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from record" -l here -d 'Only sessions made in this workspace (the git top level, else the current directory); without ID, the latest of them'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from record" -l no-redact -d 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from record" -s h -l help -d 'Print help'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from get" -l format -d 'json (default when piped) or markdown (default on a terminal)' -r -f -a "json\t'The spec\'s JSON'
markdown\t'A readable transcript'"
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from get" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from get" -l data-dir -d 'The session data directory (services.session.dataDir)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from get" -l store -d 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)' -r
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from get" -l last -d 'The most recently active session'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from get" -l here -d 'Only sessions made in this workspace (the git top level, else the current directory); without ID, the latest of them'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from get" -l messages -d 'Only the messages (as a JSON array, or without the header and tool calls in markdown)'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from get" -l full -d 'Show long tool results whole (at a terminal they are folded to their first 10 lines)'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from get" -l no-redact -d 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from get" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from view" -l format -d 'json (default when piped) or markdown (default on a terminal)' -r -f -a "json\t'The spec\'s JSON'
markdown\t'A readable transcript'"
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from view" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from view" -l data-dir -d 'The session data directory (services.session.dataDir)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from view" -l store -d 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)' -r
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from view" -l last -d 'The most recently active session'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from view" -l here -d 'Only sessions made in this workspace (the git top level, else the current directory); without ID, the latest of them'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from view" -l messages -d 'Only the messages (as a JSON array, or without the header and tool calls in markdown)'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from view" -l full -d 'Show long tool results whole (at a terminal they are folded to their first 10 lines)'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from view" -l no-redact -d 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from view" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from resume" -l exec -d 'Run CMD (with sh -c) with the chosen id as its last argument and in OLLM_SESSION_ID, instead of printing the id' -r
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from resume" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from resume" -l data-dir -d 'The session data directory (services.session.dataDir)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from resume" -l store -d 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)' -r
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from resume" -s c -l continue -d 'The latest session made in this workspace (the git top level, else the current directory)'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from resume" -l last -d 'The most recently active session anywhere'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from resume" -l here -d 'Only sessions made in this workspace (in the picker too)'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from resume" -l no-redact -d 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from resume" -s h -l help -d 'Print help'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from list" -l limit -d 'Show at most N sessions' -r
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from list" -l offset -d 'Skip the N newest sessions first (with --limit: pages)' -r
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from list" -l format -d 'json (default when piped), table (default on a terminal), ndjson or text' -r -f -a "json\t'One pretty JSON document'
ndjson\t'One compact JSON object a line'
table\t'Aligned columns under a header row, fitted to the terminal'
text\t'Tab-separated cells, one item a line, no header'"
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from list" -l model -d 'Only sessions with this model' -r
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from list" -l since -d 'Only sessions active since WHEN: a duration back from now (2h, 3d, 1week) or a date (2026-01-15)' -r
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from list" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from list" -l data-dir -d 'The session data directory (services.session.dataDir)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from list" -l store -d 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)' -r
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from list" -l corrupt -d 'List the sessions set aside as corrupt instead: sessionId, path and format (`journal` or `plain`). `delete ID` removes them'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from list" -l here -d 'Only sessions made in this workspace (the git top level, else the current directory)'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from list" -l no-redact -d 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from ls" -l limit -d 'Show at most N sessions' -r
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from ls" -l offset -d 'Skip the N newest sessions first (with --limit: pages)' -r
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from ls" -l format -d 'json (default when piped), table (default on a terminal), ndjson or text' -r -f -a "json\t'One pretty JSON document'
ndjson\t'One compact JSON object a line'
table\t'Aligned columns under a header row, fitted to the terminal'
text\t'Tab-separated cells, one item a line, no header'"
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from ls" -l model -d 'Only sessions with this model' -r
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from ls" -l since -d 'Only sessions active since WHEN: a duration back from now (2h, 3d, 1week) or a date (2026-01-15)' -r
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from ls" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from ls" -l data-dir -d 'The session data directory (services.session.dataDir)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from ls" -l store -d 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)' -r
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from ls" -l corrupt -d 'List the sessions set aside as corrupt instead: sessionId, path and format (`journal` or `plain`). `delete ID` removes them'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from ls" -l here -d 'Only sessions made in this workspace (the git top level, else the current directory)'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from ls" -l no-redact -d 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from ls" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from search" -l role -d 'Only messages of this role (`tool` also matches tool calls, `title` only titles)' -r
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from search" -l limit -d 'Show at most N hits, the newest' -r
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from search" -l format -d 'json (default when piped), table (default on a terminal), ndjson or text' -r -f -a "json\t'One pretty JSON document'
ndjson\t'One compact JSON object a line'
table\t'Aligned columns under a header row, fitted to the terminal'
text\t'Tab-separated cells, one item a line, no header'"
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from search" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from search" -l data-dir -d 'The session data directory (services.session.dataDir)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from search" -l store -d 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)' -r
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from search" -s e -l regex -d 'PATTERN is a regular expression (Rust regex syntax)'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from search" -s i -l ignore-case -d 'Match regardless of case'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from search" -l no-redact -d 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from search" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from export" -l format -d 'json, markdown or html (default: from the --output extension, .md or .markdown, .html or .htm; else json; html with --all)' -r -f -a "json\t'The spec\'s JSON'
markdown\t'A readable transcript'
html\t'A self-contained page (inline style and script, no network)'"
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from export" -s o -l output -d 'Write here (atomically, owner-only 0600) instead of stdout. An existing file is replaced only with --force; anything that is not a regular file is refused (`-` and /dev/stdout are stdout). With --all, the archive\'s directory' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from export" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from export" -l data-dir -d 'The session data directory (services.session.dataDir)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from export" -l store -d 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)' -r
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from export" -l last -d 'The most recently active session'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from export" -l here -d 'Only sessions made in this workspace (the git top level, else the current directory); without ID, the latest of them'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from export" -l all -d 'Every session, as an HTML archive in the directory --output names: index.html (sessions by project and date, a search across all of them) and <id>.html a session'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from export" -s f -l force -d 'Replace an existing output file (with --all, existing pages)'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from export" -l no-redact -d 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from export" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from rename" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from rename" -l data-dir -d 'The session data directory (services.session.dataDir)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from rename" -l store -d 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)' -r
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from rename" -l last -d 'The most recently active session'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from rename" -l here -d 'Only sessions made in this workspace (the git top level, else the current directory); without ID, the latest of them'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from rename" -l clear -d 'Remove the title instead'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from rename" -l no-redact -d 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from rename" -s h -l help -d 'Print help'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from delete" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from delete" -l data-dir -d 'The session data directory (services.session.dataDir)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from delete" -l store -d 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)' -r
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from delete" -l last -d 'The most recently active session'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from delete" -l here -d 'Only sessions made in this workspace (the git top level, else the current directory); without ID, the latest of them'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from delete" -l no-redact -d 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from delete" -s h -l help -d 'Print help'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from rm" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from rm" -l data-dir -d 'The session data directory (services.session.dataDir)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from rm" -l store -d 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)' -r
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from rm" -l last -d 'The most recently active session'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from rm" -l here -d 'Only sessions made in this workspace (the git top level, else the current directory); without ID, the latest of them'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from rm" -l no-redact -d 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from rm" -s h -l help -d 'Print help'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from remove" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from remove" -l data-dir -d 'The session data directory (services.session.dataDir)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from remove" -l store -d 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)' -r
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from remove" -l last -d 'The most recently active session'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from remove" -l here -d 'Only sessions made in this workspace (the git top level, else the current directory); without ID, the latest of them'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from remove" -l no-redact -d 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from remove" -s h -l help -d 'Print help'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from cleanup" -l keep -d 'How many sessions to keep, the most recently active' -r
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from cleanup" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from cleanup" -l data-dir -d 'The session data directory (services.session.dataDir)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from cleanup" -l store -d 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)' -r
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from cleanup" -l dry-run -d 'Show what would be deleted'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from cleanup" -l no-redact -d 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from cleanup" -s h -l help -d 'Print help'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from clear" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from clear" -l data-dir -d 'The session data directory (services.session.dataDir)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from clear" -l store -d 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)' -r
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from clear" -l all -d 'Required: delete all sessions'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from clear" -s y -l yes -d 'Do not ask; required when stdin or stderr is not a terminal'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from clear" -l dry-run -d 'Show what would be deleted'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from clear" -l no-redact -d 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from clear" -s h -l help -d 'Print help'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from branch" -l at -d 'How many messages the branch keeps: the first N (0 to the message count; `--at 1` keeps only message 0)' -r
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from branch" -l title -d 'A title for the branch (default: the parent\'s with "(branch)" added, numbered when that is taken, so the title names one session)' -r
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from branch" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from branch" -l data-dir -d 'The session data directory (services.session.dataDir)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from branch" -l store -d 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)' -r
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from branch" -l last -d 'The most recently active session'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from branch" -l here -d 'Only sessions made in this workspace (the git top level, else the current directory); without ID, the latest of them'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from branch" -l no-redact -d 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from branch" -s h -l help -d 'Print help'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from branches" -l format -d 'json (default when piped), table (default on a terminal), ndjson or text' -r -f -a "json\t'One pretty JSON document'
ndjson\t'One compact JSON object a line'
table\t'Aligned columns under a header row, fitted to the terminal'
text\t'Tab-separated cells, one item a line, no header'"
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from branches" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from branches" -l data-dir -d 'The session data directory (services.session.dataDir)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from branches" -l store -d 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)' -r
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from branches" -l last -d 'The most recently active session'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from branches" -l here -d 'Only sessions made in this workspace (the git top level, else the current directory); without ID, the latest of them'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from branches" -l no-redact -d 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from branches" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from rewind" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from rewind" -l data-dir -d 'The session data directory (services.session.dataDir)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from rewind" -l store -d 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)' -r
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from rewind" -l code -d 'Restore the files (alone, unless --conversation too)'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from rewind" -l conversation -d 'Branch the conversation (alone, unless --code too)'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from rewind" -l force -d 'Restore files changed since the last checkpoint too (undoable: see the report\'s `undoTurn`)'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from rewind" -l no-redact -d 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from rewind" -s h -l help -d 'Print help'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from scan" -l format -d 'ndjson (default when piped), table (default on a terminal), json or text' -r -f -a "json\t'One pretty JSON document'
ndjson\t'One compact JSON object a line'
table\t'Aligned columns under a header row, fitted to the terminal'
text\t'Tab-separated cells, one item a line, no header'"
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from scan" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from scan" -l data-dir -d 'The session data directory (services.session.dataDir)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from scan" -l store -d 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)' -r
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from scan" -l last -d 'The most recently active session'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from scan" -l here -d 'The latest session made in this workspace (with ID: only its sessions)'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from scan" -l all -d 'Every session in the store'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from scan" -l no-redact -d 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from scan" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from redact" -l format -d 'ndjson (default when piped), table (default on a terminal), json or text' -r -f -a "json\t'One pretty JSON document'
ndjson\t'One compact JSON object a line'
table\t'Aligned columns under a header row, fitted to the terminal'
text\t'Tab-separated cells, one item a line, no header'"
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from redact" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from redact" -l data-dir -d 'The session data directory (services.session.dataDir)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from redact" -l store -d 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)' -r
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from redact" -l last -d 'The most recently active session'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from redact" -l here -d 'The latest session made in this workspace (with ID: only its sessions)'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from redact" -l all -d 'Every session in the store'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from redact" -l dry-run -d 'Show what would be replaced (as `scan` does); change nothing'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from redact" -l no-redact -d 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from redact" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from import" -l from -d 'The tool the sessions are from (repeatable: `--from claude --from codex`); `auto` reads every tool\'s (its default locations, or each path as whichever tool\'s it is)' -r -f -a "claude\t''
codex\t''
gemini\t''
opencode\t''
goose\t''
auto\t''"
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from import" -l format -d 'ndjson (default when piped), table (default on a terminal), json or text' -r -f -a "json\t'One pretty JSON document'
ndjson\t'One compact JSON object a line'
table\t'Aligned columns under a header row, fitted to the terminal'
text\t'Tab-separated cells, one item a line, no header'"
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from import" -l hook -d 'Import the one transcript that TOOL\'s hook names on standard input (the hook JSON of Claude Code or gemini-cli: `transcript_path`), reading it only if it changed. Prints nothing and always exits 0, so a hook never breaks the agent: a reason it could not import goes to stderr and to $OLLM_HOME/logs/import-hook.log' -r -f -a "claude\t''
gemini\t''"
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from import" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from import" -l data-dir -d 'The session data directory (services.session.dataDir)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from import" -l store -d 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)' -r
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from import" -l dry-run -d 'Say what would be imported; write nothing'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from import" -l watch -d 'Keep importing as the sources are written, until SIGINT, SIGTERM or the end of standard input when it is a pipe: a catch-up of what changed since the last import, then each change within a second or two. One NDJSON line per session touched (a status line at a terminal) and the summary when stopped. One watcher per store'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from import" -l no-redact -d 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from import" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from reindex" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from reindex" -l data-dir -d 'The session data directory (services.session.dataDir)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from reindex" -l store -d 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)' -r
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from reindex" -l no-redact -d 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from reindex" -s h -l help -d 'Print help'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from keep" -l idle -d 'Stop after this long without a command (e.g. `30m`, `2h`)' -r
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from keep" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from keep" -l data-dir -d 'The session data directory (services.session.dataDir)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from keep" -l store -d 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)' -r
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from keep" -l no-redact -d 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from keep" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from snapshot" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from snapshot" -l data-dir -d 'The session data directory (services.session.dataDir)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from snapshot" -l store -d 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)' -r
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from snapshot" -l no-redact -d 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from snapshot" -s h -l help -d 'Print help'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from snapshot" -f -a "create" -d 'Snapshot a session (or the message list on stdin with --stdin); deletes the oldest beyond snapshots.maxCount'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from snapshot" -f -a "list" -d 'A session\'s snapshots, newest first'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from snapshot" -f -a "show" -d 'Print a whole snapshot'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from snapshot" -f -a "restore" -d 'Print the snapshot\'s context as a message list in its original order, or re-create it as a new session'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from snapshot" -f -a "delete" -d 'Delete a snapshot. Prints {"deleted": [SNAPSHOT_ID]}'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from snapshot" -f -a "rm" -d 'Delete a snapshot. Prints {"deleted": [SNAPSHOT_ID]}'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from snapshot" -f -a "remove" -d 'Delete a snapshot. Prints {"deleted": [SNAPSHOT_ID]}'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from snapshots" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from snapshots" -l data-dir -d 'The session data directory (services.session.dataDir)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from snapshots" -l store -d 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)' -r
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from snapshots" -l no-redact -d 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from snapshots" -s h -l help -d 'Print help'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from snapshots" -f -a "create" -d 'Snapshot a session (or the message list on stdin with --stdin); deletes the oldest beyond snapshots.maxCount'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from snapshots" -f -a "list" -d 'A session\'s snapshots, newest first'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from snapshots" -f -a "show" -d 'Print a whole snapshot'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from snapshots" -f -a "restore" -d 'Print the snapshot\'s context as a message list in its original order, or re-create it as a new session'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from snapshots" -f -a "delete" -d 'Delete a snapshot. Prints {"deleted": [SNAPSHOT_ID]}'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from snapshots" -f -a "rm" -d 'Delete a snapshot. Prints {"deleted": [SNAPSHOT_ID]}'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from snapshots" -f -a "remove" -d 'Delete a snapshot. Prints {"deleted": [SNAPSHOT_ID]}'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from copy" -l from -d 'Where to copy from: `file` (the data directory), a directory of sessions (journals or plain <id>.json files), or a postgres:// URL' -r
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from copy" -l to -d 'Where to copy to (as --from)' -r
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from copy" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from copy" -l data-dir -d 'The session data directory (services.session.dataDir)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from copy" -l store -d 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)' -r
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from copy" -l all -d 'Copy every session of --from'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from copy" -l no-redact -d 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from copy" -s h -l help -d 'Print help'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from config" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from config" -l data-dir -d 'The session data directory (services.session.dataDir)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from config" -l store -d 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)' -r
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from config" -l show-origin -d 'Show every key with its value and where it came from (default, a file, an environment variable or a flag), like `git config --show-origin`'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from config" -l no-redact -d 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)'
complete -c ollm -n "__fish_ollm_using_subcommand session; and __fish_seen_subcommand_from config" -s h -l help -d 'Print help'
complete -c ollm -n "__fish_ollm_using_subcommand discover; and not __fish_seen_subcommand_from watch config" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand discover; and not __fish_seen_subcommand_from watch config" -l max-depth -d 'Directory levels entered below the root (0: only the root\'s own entries), or `unlimited` [config: services.fileDiscovery.maxDepth, default 10]' -r
complete -c ollm -n "__fish_ollm_using_subcommand discover; and not __fish_seen_subcommand_from watch config" -s g -l include -d 'Report only entries matching this glob (repeatable). Without `/` it matches a name at any depth; with `/`, the path below the root' -r
complete -c ollm -n "__fish_ollm_using_subcommand discover; and not __fish_seen_subcommand_from watch config" -s E -l exclude -d 'Skip entries matching this glob (repeatable); a matching directory is not entered' -r
complete -c ollm -n "__fish_ollm_using_subcommand discover; and not __fish_seen_subcommand_from watch config" -s t -l type -d 'Report only this type (repeatable) [default: file and symlink]' -r -f -a "file\t''
directory\t''
symlink\t''"
complete -c ollm -n "__fish_ollm_using_subcommand discover; and not __fish_seen_subcommand_from watch config" -l format -d 'ndjson: one entry a line, streamed (the default when piped); table: type, size, modified time and path, sorted (the default at a terminal); json: one sorted array; text: relative paths, as --paths' -r -f -a "json\t'One pretty JSON document'
ndjson\t'One compact JSON object a line'
table\t'Aligned columns under a header row, fitted to the terminal'
text\t'Tab-separated cells, one item a line, no header'"
complete -c ollm -n "__fish_ollm_using_subcommand discover; and not __fish_seen_subcommand_from watch config" -s L -l follow -d 'Follow symbolic links (a link back to an ancestor is reported, not followed)'
complete -c ollm -n "__fish_ollm_using_subcommand discover; and not __fish_seen_subcommand_from watch config" -l no-hidden -d 'Skip names starting with a dot'
complete -c ollm -n "__fish_ollm_using_subcommand discover; and not __fish_seen_subcommand_from watch config" -l hidden -d 'List names starting with a dot (the default)'
complete -c ollm -n "__fish_ollm_using_subcommand discover; and not __fish_seen_subcommand_from watch config" -s p -l paths -d 'Print relative paths, one a line (raw bytes when piped, for xargs; control characters made visible at a terminal); as `--format text`'
complete -c ollm -n "__fish_ollm_using_subcommand discover; and not __fish_seen_subcommand_from watch config" -s 0 -l null -d 'End each path with NUL instead of a newline (with --paths)'
complete -c ollm -n "__fish_ollm_using_subcommand discover; and not __fish_seen_subcommand_from watch config" -s s -l sort -d 'Sort by relative path, byte by byte (git\'s order). Tables and JSON arrays are always sorted'
complete -c ollm -n "__fish_ollm_using_subcommand discover; and not __fish_seen_subcommand_from watch config" -l no-cache -d 'Walk the tree even if a cached listing of it is still valid [config: services.fileDiscovery.cache, default true]'
complete -c ollm -n "__fish_ollm_using_subcommand discover; and not __fish_seen_subcommand_from watch config" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ollm -n "__fish_ollm_using_subcommand discover; and not __fish_seen_subcommand_from watch config" -s V -l version -d 'Print version'
complete -c ollm -n "__fish_ollm_using_subcommand discover; and not __fish_seen_subcommand_from watch config" -a "watch" -d 'Watch the tree and print NDJSON events `{event, path, relativePath, type}` (event: add, change, unlink) for paths the listing would show'
complete -c ollm -n "__fish_ollm_using_subcommand discover; and not __fish_seen_subcommand_from watch config" -a "config" -d 'Print the effective configuration (JSON), or every key with its origin'
complete -c ollm -n "__fish_ollm_using_subcommand discover; and __fish_seen_subcommand_from watch" -l max-depth -d 'Directory levels entered below the root (0: only the root\'s own entries), or `unlimited` [config: services.fileDiscovery.maxDepth, default 10]' -r
complete -c ollm -n "__fish_ollm_using_subcommand discover; and __fish_seen_subcommand_from watch" -s g -l include -d 'Report only entries matching this glob (repeatable). Without `/` it matches a name at any depth; with `/`, the path below the root' -r
complete -c ollm -n "__fish_ollm_using_subcommand discover; and __fish_seen_subcommand_from watch" -s E -l exclude -d 'Skip entries matching this glob (repeatable); a matching directory is not entered' -r
complete -c ollm -n "__fish_ollm_using_subcommand discover; and __fish_seen_subcommand_from watch" -s t -l type -d 'Report only this type (repeatable) [default: file and symlink]' -r -f -a "file\t''
directory\t''
symlink\t''"
complete -c ollm -n "__fish_ollm_using_subcommand discover; and __fish_seen_subcommand_from watch" -l debounce-ms -d 'Quiet time before a burst of changes is reported [config: services.fileDiscovery.debounceMs, default 100]' -r
complete -c ollm -n "__fish_ollm_using_subcommand discover; and __fish_seen_subcommand_from watch" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand discover; and __fish_seen_subcommand_from watch" -s L -l follow -d 'Follow symbolic links (a link back to an ancestor is reported, not followed)'
complete -c ollm -n "__fish_ollm_using_subcommand discover; and __fish_seen_subcommand_from watch" -l no-hidden -d 'Skip names starting with a dot'
complete -c ollm -n "__fish_ollm_using_subcommand discover; and __fish_seen_subcommand_from watch" -l hidden -d 'List names starting with a dot (the default)'
complete -c ollm -n "__fish_ollm_using_subcommand discover; and __fish_seen_subcommand_from watch" -l ready -d 'Print `{"event":"ready",…}` once the watch is in place'
complete -c ollm -n "__fish_ollm_using_subcommand discover; and __fish_seen_subcommand_from watch" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ollm -n "__fish_ollm_using_subcommand discover; and __fish_seen_subcommand_from config" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand discover; and __fish_seen_subcommand_from config" -l show-origin -d 'Show every key with its value and where it came from (default, a file, an environment variable or a flag), like `git config --show-origin`'
complete -c ollm -n "__fish_ollm_using_subcommand discover; and __fish_seen_subcommand_from config" -s h -l help -d 'Print help'
complete -c ollm -n "__fish_ollm_using_subcommand mcp; and not __fish_seen_subcommand_from config" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand mcp; and not __fish_seen_subcommand_from config" -l allow-write -d 'Offer the writing tools too: record_message (into a session) and add_context (into the workspace\'s context)'
complete -c ollm -n "__fish_ollm_using_subcommand mcp; and not __fish_seen_subcommand_from config" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ollm -n "__fish_ollm_using_subcommand mcp; and not __fish_seen_subcommand_from config" -s V -l version -d 'Print version'
complete -c ollm -n "__fish_ollm_using_subcommand mcp; and not __fish_seen_subcommand_from config" -f -a "config" -d 'Print the effective configuration (JSON), or every key with its origin'
complete -c ollm -n "__fish_ollm_using_subcommand mcp; and __fish_seen_subcommand_from config" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand mcp; and __fish_seen_subcommand_from config" -l show-origin -d 'Show every key with its value and where it came from (default, a file, an environment variable or a flag), like `git config --show-origin`'
complete -c ollm -n "__fish_ollm_using_subcommand mcp; and __fish_seen_subcommand_from config" -s h -l help -d 'Print help'
complete -c ollm -n "__fish_ollm_using_subcommand checkpoint; and not __fish_seen_subcommand_from snapshot restore diff list gc config watch" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand checkpoint; and not __fish_seen_subcommand_from snapshot restore diff list gc config watch" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ollm -n "__fish_ollm_using_subcommand checkpoint; and not __fish_seen_subcommand_from snapshot restore diff list gc config watch" -s V -l version -d 'Print version'
complete -c ollm -n "__fish_ollm_using_subcommand checkpoint; and not __fish_seen_subcommand_from snapshot restore diff list gc config watch" -f -a "snapshot" -d 'Snapshot the work tree as the session\'s next turn (or --turn N). Prints {"sessionId","turn","root","files","changed","bytesStored", "notRestorable","watched","elapsedMs"}'
complete -c ollm -n "__fish_ollm_using_subcommand checkpoint; and not __fish_seen_subcommand_from snapshot restore diff list gc config watch" -f -a "restore" -d 'Restore the session\'s files to turn N (three-way: conflicts are listed and nothing changes without --force). Exit 1 at a conflict'
complete -c ollm -n "__fish_ollm_using_subcommand checkpoint; and not __fish_seen_subcommand_from snapshot restore diff list gc config watch" -f -a "diff" -d 'Show what changed in turn N (against the snapshot before it) as unified diffs: JSON, or --patch for the diff text'
complete -c ollm -n "__fish_ollm_using_subcommand checkpoint; and not __fish_seen_subcommand_from snapshot restore diff list gc config watch" -f -a "list" -d 'List the session\'s checkpoints: a table at a terminal, JSON piped'
complete -c ollm -n "__fish_ollm_using_subcommand checkpoint; and not __fish_seen_subcommand_from snapshot restore diff list gc config watch" -f -a "gc" -d 'Apply the disk budget now: drop the oldest turns while the store is over services.checkpoint.budgetBytes, and remove unnamed objects'
complete -c ollm -n "__fish_ollm_using_subcommand checkpoint; and not __fish_seen_subcommand_from snapshot restore diff list gc config watch" -f -a "config" -d 'Print the effective configuration (JSON), or every key with its origin'
complete -c ollm -n "__fish_ollm_using_subcommand checkpoint; and not __fish_seen_subcommand_from snapshot restore diff list gc config watch" -f -a "watch" -d 'Run the watcher of a work tree (Linux) that snapshots ask what changed when services.checkpoint.watch is on. A snapshot starts it in the background; it exits after 15 minutes without a question'
complete -c ollm -n "__fish_ollm_using_subcommand checkpoint; and __fish_seen_subcommand_from snapshot" -l session -d 'The session: its id, a unique prefix of it (4+ characters) or its title. A whole id need not be in the session store (a runtime may checkpoint before it records)' -r
complete -c ollm -n "__fish_ollm_using_subcommand checkpoint; and __fish_seen_subcommand_from snapshot" -l turn -d 'The turn number (default: one after the session\'s last checkpoint)' -r
complete -c ollm -n "__fish_ollm_using_subcommand checkpoint; and __fish_seen_subcommand_from snapshot" -l dir -d 'The work tree (default: the current directory)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand checkpoint; and __fish_seen_subcommand_from snapshot" -l path -d 'Also cover this path (relative to the work tree), even if ignored (those the session\'s recorded tool calls named are covered without it). Repeatable' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand checkpoint; and __fish_seen_subcommand_from snapshot" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand checkpoint; and __fish_seen_subcommand_from snapshot" -l last -d 'The most recently active session'
complete -c ollm -n "__fish_ollm_using_subcommand checkpoint; and __fish_seen_subcommand_from snapshot" -l allow-large -d 'Take $HOME, / or a tree over services.checkpoint.maxTreeBytes anyway'
complete -c ollm -n "__fish_ollm_using_subcommand checkpoint; and __fish_seen_subcommand_from snapshot" -s h -l help -d 'Print help'
complete -c ollm -n "__fish_ollm_using_subcommand checkpoint; and __fish_seen_subcommand_from restore" -l session -d 'The session: its id, a unique prefix of it (4+ characters) or its title. A whole id need not be in the session store (a runtime may checkpoint before it records)' -r
complete -c ollm -n "__fish_ollm_using_subcommand checkpoint; and __fish_seen_subcommand_from restore" -l turn -d 'The turn to go back to' -r
complete -c ollm -n "__fish_ollm_using_subcommand checkpoint; and __fish_seen_subcommand_from restore" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand checkpoint; and __fish_seen_subcommand_from restore" -l last -d 'The most recently active session'
complete -c ollm -n "__fish_ollm_using_subcommand checkpoint; and __fish_seen_subcommand_from restore" -l dry-run -d 'Print the plan (what would be written, deleted, left alone, and the conflicts) and change nothing'
complete -c ollm -n "__fish_ollm_using_subcommand checkpoint; and __fish_seen_subcommand_from restore" -l force -d 'Restore the conflicting paths too (the snapshot taken first keeps what they held: `undoTurn`)'
complete -c ollm -n "__fish_ollm_using_subcommand checkpoint; and __fish_seen_subcommand_from restore" -s h -l help -d 'Print help'
complete -c ollm -n "__fish_ollm_using_subcommand checkpoint; and __fish_seen_subcommand_from diff" -l session -d 'The session: its id, a unique prefix of it (4+ characters) or its title. A whole id need not be in the session store (a runtime may checkpoint before it records)' -r
complete -c ollm -n "__fish_ollm_using_subcommand checkpoint; and __fish_seen_subcommand_from diff" -l turn -d 'The turn whose changes to show' -r
complete -c ollm -n "__fish_ollm_using_subcommand checkpoint; and __fish_seen_subcommand_from diff" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand checkpoint; and __fish_seen_subcommand_from diff" -l last -d 'The most recently active session'
complete -c ollm -n "__fish_ollm_using_subcommand checkpoint; and __fish_seen_subcommand_from diff" -l patch -d 'Print the unified diff text instead of JSON'
complete -c ollm -n "__fish_ollm_using_subcommand checkpoint; and __fish_seen_subcommand_from diff" -s h -l help -d 'Print help'
complete -c ollm -n "__fish_ollm_using_subcommand checkpoint; and __fish_seen_subcommand_from list" -l session -d 'The session: its id, a unique prefix of it (4+ characters) or its title. A whole id need not be in the session store (a runtime may checkpoint before it records)' -r
complete -c ollm -n "__fish_ollm_using_subcommand checkpoint; and __fish_seen_subcommand_from list" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand checkpoint; and __fish_seen_subcommand_from list" -l last -d 'The most recently active session'
complete -c ollm -n "__fish_ollm_using_subcommand checkpoint; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c ollm -n "__fish_ollm_using_subcommand checkpoint; and __fish_seen_subcommand_from gc" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand checkpoint; and __fish_seen_subcommand_from gc" -s h -l help -d 'Print help'
complete -c ollm -n "__fish_ollm_using_subcommand checkpoint; and __fish_seen_subcommand_from config" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand checkpoint; and __fish_seen_subcommand_from config" -l show-origin -d 'Show every key with its value and where it came from (default, a file, an environment variable or a flag), like `git config --show-origin`'
complete -c ollm -n "__fish_ollm_using_subcommand checkpoint; and __fish_seen_subcommand_from config" -s h -l help -d 'Print help'
complete -c ollm -n "__fish_ollm_using_subcommand checkpoint; and __fish_seen_subcommand_from watch" -l dir -d 'The work tree to watch' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand checkpoint; and __fish_seen_subcommand_from watch" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand checkpoint; and __fish_seen_subcommand_from watch" -s h -l help -d 'Print help'
