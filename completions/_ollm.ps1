
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'ollm' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'ollm'
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
        'ollm' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--list', '--list', [CompletionResultType]::ParameterName, 'List the tools found (name and path): a table at a terminal, JSON when piped')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Show help for ollm, for one of its own commands (`ollm help config`), or for a tool and its subcommands (`ollm help session list`)')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script (bash, zsh, fish, powershell, elvish), for installing when ollm came from `cargo install`')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Print a man page: shown by `man` at a terminal, roff when piped (for installing)')
            [CompletionResult]::new('config', 'config', [CompletionResultType]::ParameterValue, 'Print the effective shared configuration, or every key with its origin')
            [CompletionResult]::new('trust', 'trust', [CompletionResultType]::ParameterValue, 'Trust a workspace''s .ollm/ as it is now (its configuration may then weaken safety, its context entries reach the prompt), list trusted workspaces, or revoke trust. An edit of .ollm/config.yaml revokes it')
            [CompletionResult]::new('env', 'env', [CompletionResultType]::ParameterValue, 'Run a tool with secrets stripped from its environment')
            [CompletionResult]::new('loopcheck', 'loopcheck', [CompletionResultType]::ParameterValue, 'Detect runaway loops in an agent''s events')
            [CompletionResult]::new('context', 'context', [CompletionResultType]::ParameterValue, 'Keep prioritized context entries and render them as system-prompt additions')
            [CompletionResult]::new('compress', 'compress', [CompletionResultType]::ParameterValue, 'Count tokens of a conversation and compress it to fit a context window')
            [CompletionResult]::new('session', 'session', [CompletionResultType]::ParameterValue, 'Durable, searchable, branchable session history (the spec''s session format), with snapshots')
            [CompletionResult]::new('discover', 'discover', [CompletionResultType]::ParameterValue, 'List a project''s files the way git sees them: a table at a terminal, NDJSON or paths when piped')
            [CompletionResult]::new('mcp', 'mcp', [CompletionResultType]::ParameterValue, 'Serve session history, context and file discovery to an agent over the Model Context Protocol (stdio: one JSON-RPC message a line)')
            [CompletionResult]::new('checkpoint', 'checkpoint', [CompletionResultType]::ParameterValue, 'Snapshot the files an agent may change at each turn, and rewind them to any turn without git and without deleting the user''s work')
            break
        }
        'ollm;help' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm;completions' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm;man' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--list', '--list', [CompletionResultType]::ParameterName, 'Print the name of every page, one a line')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm;config' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--show-origin', '--show-origin', [CompletionResultType]::ParameterName, 'Show every key with its value and where it came from (default, a file, an environment variable or a flag), like `git config --show-origin`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm;trust' {
            [CompletionResult]::new('--revoke', '--revoke', [CompletionResultType]::ParameterName, 'Revoke trust in this workspace (exit 3 when it was not trusted)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--list', '--list', [CompletionResultType]::ParameterName, 'List the trusted workspaces: a table at a terminal, JSON when piped; `current` says whether the configuration is still the one trusted')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm;env' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('run', 'run', [CompletionResultType]::ParameterValue, 'Run CMD with the sanitized environment; its exit code passes through (128+N if it dies of signal N; 127 if CMD is not found, 126 if it cannot be executed, or if the --redact-output supervisor cannot make itself unreadable to it)')
            [CompletionResult]::new('report', 'report', [CompletionResultType]::ParameterValue, 'Print every variable name kept and removed with the rule that decided it: a table at a terminal, JSON `{kept, removed, set}` when piped. Values are never printed')
            [CompletionResult]::new('explain', 'explain', [CompletionResultType]::ParameterValue, 'Explain the decision for one variable name, as JSON, and for a removed one how to pass it anyway')
            [CompletionResult]::new('config', 'config', [CompletionResultType]::ParameterValue, 'Print the effective configuration (JSON), or every key with its origin')
            break
        }
        'ollm;env;run' {
            [CompletionResult]::new('--allow', '--allow', [CompletionResultType]::ParameterName, 'Also keep this variable (exact name, or a glob such as ''MYAPP_*''). An exact name is kept even when its value looks like a credential')
            [CompletionResult]::new('--deny', '--deny', [CompletionResultType]::ParameterName, 'Also remove variables matching this glob (case-insensitive)')
            [CompletionResult]::new('--env-file', '--env-file', [CompletionResultType]::ParameterName, 'Set variables from this file in the tool''s environment (after sanitizing): the dotenv format of docker and compose (NAME=VALUE lines, # comments, quotes). For values that must not appear on a command line. `-` reads stdin')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'Set NAME=VALUE in the tool''s environment (after sanitizing; after --env-file). The value is on ollm-env''s command line, which every local user can read (ps): use --env-file for a secret')
            [CompletionResult]::new('--checkpoint', '--checkpoint', [CompletionResultType]::ParameterName, 'Snapshot the current directory''s files before and after the tool runs, as turns of this session''s checkpoints (`ollm checkpoint`): what the tool changed can then be diffed and restored. The session: its id, a unique prefix of it or its title')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--replace-defaults', '--replace-defaults', [CompletionResultType]::ParameterName, 'Use only the configured and given lists: every built-in list (the spec''s allow and deny lists, the extended and the connection-string deny lists) is dropped. Values are still checked unless --no-scan-values')
            [CompletionResult]::new('--no-scan-values', '--no-scan-values', [CompletionResultType]::ParameterName, 'Do not remove variables because of what their value looks like')
            [CompletionResult]::new('--redact-output', '--redact-output', [CompletionResultType]::ParameterName, 'Replace removed secret values and credential-shaped text in the tool''s stdout and stderr with [REDACTED]. Encoded forms (base64, hex) are not recognised')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm;env;report' {
            [CompletionResult]::new('--allow', '--allow', [CompletionResultType]::ParameterName, 'Also keep this variable (exact name, or a glob such as ''MYAPP_*''). An exact name is kept even when its value looks like a credential')
            [CompletionResult]::new('--deny', '--deny', [CompletionResultType]::ParameterName, 'Also remove variables matching this glob (case-insensitive)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--replace-defaults', '--replace-defaults', [CompletionResultType]::ParameterName, 'Use only the configured and given lists: every built-in list (the spec''s allow and deny lists, the extended and the connection-string deny lists) is dropped. Values are still checked unless --no-scan-values')
            [CompletionResult]::new('--no-scan-values', '--no-scan-values', [CompletionResultType]::ParameterName, 'Do not remove variables because of what their value looks like')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm;env;explain' {
            [CompletionResult]::new('--allow', '--allow', [CompletionResultType]::ParameterName, 'Also keep this variable (exact name, or a glob such as ''MYAPP_*''). An exact name is kept even when its value looks like a credential')
            [CompletionResult]::new('--deny', '--deny', [CompletionResultType]::ParameterName, 'Also remove variables matching this glob (case-insensitive)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--replace-defaults', '--replace-defaults', [CompletionResultType]::ParameterName, 'Use only the configured and given lists: every built-in list (the spec''s allow and deny lists, the extended and the connection-string deny lists) is dropped. Values are still checked unless --no-scan-values')
            [CompletionResult]::new('--no-scan-values', '--no-scan-values', [CompletionResultType]::ParameterName, 'Do not remove variables because of what their value looks like')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm;env;config' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--show-origin', '--show-origin', [CompletionResultType]::ParameterName, 'Show every key with its value and where it came from (default, a file, an environment variable or a flag), like `git config --show-origin`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm;loopcheck' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--state', '--state', [CompletionResultType]::ParameterName, 'Incremental mode: continue from the detector state in FILE (created when missing), apply this call''s events, save the state. The verdict is the first loop this call''s events report')
            [CompletionResult]::new('--input-format', '--input-format', [CompletionResultType]::ParameterName, 'The input format: NDJSON events, a session document, or auto (decided by the input itself)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Deprecated spelling of --input-format (`--format` names the output format in every other program)')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Read this stored session (ollm-session) instead of INPUT: its id, a unique prefix of it (4+ characters) or its title')
            [CompletionResult]::new('--max-turns', '--max-turns', [CompletionResultType]::ParameterName, 'Report a loop on the first turn beyond N (services.loopDetection.maxTurns)')
            [CompletionResult]::new('--repeat-threshold', '--repeat-threshold', [CompletionResultType]::ParameterName, 'Repeats that make a loop, at least 2 (services.loopDetection.repeatThreshold)')
            [CompletionResult]::new('--similarity-threshold', '--similarity-threshold', [CompletionResultType]::ParameterName, 'Output similarity ratio, in (0, 1], at which outputs count as repeats (services.loopDetection.similarityThreshold)')
            [CompletionResult]::new('--content-chunk-size', '--content-chunk-size', [CompletionResultType]::ParameterName, 'The fewest characters, 10 to 500, that the occurrences of a passage repeated within one output cover together for it to count (services.loopDetection.contentChunkSize)')
            [CompletionResult]::new('--content-repeat-threshold', '--content-repeat-threshold', [CompletionResultType]::ParameterName, 'Occurrences in a row of one passage, numbers aside, that make a repeated-content loop, 0 to 50; below 2 turns it off (services.loopDetection.contentRepeatThreshold)')
            [CompletionResult]::new('--warnings-before-stop', '--warnings-before-stop', [CompletionResultType]::ParameterName, 'Reports given as `warn` since the user last spoke before the next is a `stop`, 0 to 100; 0 makes every report a stop (services.loopDetection.warningsBeforeStop)')
            [CompletionResult]::new('--stream', '--stream', [CompletionResultType]::ParameterName, 'Read NDJSON events as they come and print a verdict line (flushed) as soon as a loop is found, then keep reading; at the end of input, print the quiet verdict if nothing was found')
            [CompletionResult]::new('--warn-only', '--warn-only', [CompletionResultType]::ParameterName, 'Print the verdict but exit 0 even at a `stop`, for callers that only nudge the model (a `warn` exits 0 anyway)')
            [CompletionResult]::new('--last', '--last', [CompletionResultType]::ParameterName, 'Read the most recently active stored session instead of INPUT')
            [CompletionResult]::new('--here', '--here', [CompletionResultType]::ParameterName, 'With --session or --last, only sessions made in this workspace (the git top level, else the current directory); alone, the latest of them')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('config', 'config', [CompletionResultType]::ParameterValue, 'Print the effective configuration (JSON), or every key with its origin')
            break
        }
        'ollm;loopcheck;config' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--show-origin', '--show-origin', [CompletionResultType]::ParameterName, 'Show every key with its value and where it came from (default, a file, an environment variable or a flag), like `git config --show-origin`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm;context' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Use the per-session store of this session (a UUID)')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Use this store file')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Add an entry, or replace the entry with this key (it keeps its place in insertion order). Content comes from CONTENT, `-` (stdin), or --from-file. Prints `{"added":KEY,"replaced":BOOL,"store":PATH}`')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Remove an entry (alias: delete); exit 3 when there is none, unless --missing-ok. Prints `{"removed":N,"keys":[…],"store":PATH}`')
            [CompletionResult]::new('clear', 'clear', [CompletionResultType]::ParameterValue, 'Remove every entry, or only those of one source. Prints `{"removed":N,"keys":[…],"store":PATH}`')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the live entries in insertion order: a table at a terminal, a JSON array when piped')
            [CompletionResult]::new('get', 'get', [CompletionResultType]::ParameterValue, 'Print one entry as JSON (exit 3 when missing or expired)')
            [CompletionResult]::new('prompt', 'prompt', [CompletionResultType]::ParameterValue, 'Print the system-prompt additions: one markdown section (`## KEY`, blank line, content) per live entry, highest priority first, ties in insertion order. Nothing when the store is empty')
            [CompletionResult]::new('config', 'config', [CompletionResultType]::ParameterValue, 'Print the effective configuration (JSON), or every key with its origin')
            break
        }
        'ollm;context;add' {
            [CompletionResult]::new('--from-file', '--from-file', [CompletionResultType]::ParameterName, 'Read the content from this file')
            [CompletionResult]::new('--priority', '--priority', [CompletionResultType]::ParameterName, 'Higher priorities come first in the prompt')
            [CompletionResult]::new('--source', '--source', [CompletionResultType]::ParameterName, 'Who added the entry (`clear --source` removes one source''s entries)')
            [CompletionResult]::new('--ttl', '--ttl', [CompletionResultType]::ParameterName, 'Drop the entry after this long: 30s, 10m, 2h, 1d, 1h30m, or seconds')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Use the per-session store of this session (a UUID)')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Use this store file')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm;context;remove' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Use the per-session store of this session (a UUID)')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Use this store file')
            [CompletionResult]::new('--missing-ok', '--missing-ok', [CompletionResultType]::ParameterName, 'Exit 0 even when the key is not in the store')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm;context;clear' {
            [CompletionResult]::new('--source', '--source', [CompletionResultType]::ParameterName, 'Remove only the entries of this source')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Use the per-session store of this session (a UUID)')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Use this store file')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm;context;list' {
            [CompletionResult]::new('--source', '--source', [CompletionResultType]::ParameterName, 'List only the entries of this source')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'The output format [default: table at a terminal, json when piped]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Use the per-session store of this session (a UUID)')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Use this store file')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'ollm;context;get' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Use the per-session store of this session (a UUID)')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Use this store file')
            [CompletionResult]::new('--content', '--content', [CompletionResultType]::ParameterName, 'Print only the content, ending in a newline (one is added when the content has none)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm;context;prompt' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Use the per-session store of this session (a UUID)')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Use this store file')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the entries in prompt order as a JSON array instead')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm;context;config' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Use the per-session store of this session (a UUID)')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Use this store file')
            [CompletionResult]::new('--show-origin', '--show-origin', [CompletionResultType]::ParameterName, 'Show every key with its value and where it came from (default, a file, an environment variable or a flag), like `git config --show-origin`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm;compress' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--tokenizer', '--tokenizer', [CompletionResultType]::ParameterName, 'How to count tokens: cl100k, o200k (built in), a path to the model''s own tokenizer.json, server (the model server''s /tokenize), estimate (characters / 4)')
            [CompletionResult]::new('--tokenizer-url', '--tokenizer-url', [CompletionResultType]::ParameterName, 'The server for `--tokenizer server` (default: the summarizer URL)')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Read this stored session (ollm-session) instead of INPUT: its id, a unique prefix of it (4+ characters) or its title')
            [CompletionResult]::new('--token-limit', '--token-limit', [CompletionResultType]::ParameterName, 'The context size in tokens (default: services.compression.tokenLimit)')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Deprecated spelling of --token-limit (`--limit` counts rows elsewhere)')
            [CompletionResult]::new('--threshold', '--threshold', [CompletionResultType]::ParameterName, 'Fraction of the limit above which compression is needed (default 0.8)')
            [CompletionResult]::new('--trigger', '--trigger', [CompletionResultType]::ParameterName, 'static: tokens > threshold × limit (default). dynamic: the history after the system prompt and earlier summaries > threshold × what the limit leaves for it')
            [CompletionResult]::new('--strategy', '--strategy', [CompletionResultType]::ParameterName, 'hybrid (default): summarize the old part, keep the recent `preserveRecent` tokens. summarize: summarize all but the system prompt and user messages. truncate: drop the oldest until within target')
            [CompletionResult]::new('--target', '--target', [CompletionResultType]::ParameterName, 'Size to compress to (default: threshold × limit)')
            [CompletionResult]::new('--preserve-recent', '--preserve-recent', [CompletionResultType]::ParameterName, 'Tokens of the most recent history kept verbatim (default 4096)')
            [CompletionResult]::new('--summary-max-tokens', '--summary-max-tokens', [CompletionResultType]::ParameterName, 'The summary''s token budget (default 1024)')
            [CompletionResult]::new('--summarizer-cmd', '--summarizer-cmd', [CompletionResultType]::ParameterName, 'Summarize with this shell command instead of a model server: the prompt on its stdin, the summary on its stdout')
            [CompletionResult]::new('--summarizer-api', '--summarizer-api', [CompletionResultType]::ParameterName, 'openai (/v1/chat/completions, the default; Ollama serves it too) or ollama (/api/chat)')
            [CompletionResult]::new('--summarizer-url', '--summarizer-url', [CompletionResultType]::ParameterName, 'The model server''s base URL (default http://127.0.0.1:11434, Ollama''s)')
            [CompletionResult]::new('--summarizer-model', '--summarizer-model', [CompletionResultType]::ParameterName, 'The model to ask for the summary (default llama3.2:3b)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Seconds to wait for the summarizer before truncating instead')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'json (the default when piped), text (the default at a terminal: a few lines saying what was done, not the whole history) or messages (the compressed messages alone, a JSON array: what a model is given)')
            [CompletionResult]::new('--last', '--last', [CompletionResultType]::ParameterName, 'Read the most recently active stored session instead of INPUT')
            [CompletionResult]::new('--here', '--here', [CompletionResultType]::ParameterName, 'With --session or --last, only sessions made in this workspace (the git top level, else the current directory); alone, the latest of them')
            [CompletionResult]::new('--no-keep-user-messages', '--no-keep-user-messages', [CompletionResultType]::ParameterName, 'Let user messages be summarized or dropped like the others')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Compress even when the history is below the trigger (or compression is disabled)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('compress', 'compress', [CompletionResultType]::ParameterValue, 'Compress the history and print the result as JSON (`compressedMessages`, `originalTokenCount`, `compressedTokenCount`, `strategy`, `status`, …). Exit code 0 whenever a result is printed; `status` tells what happened: compressed, not-needed, disabled, fallback-truncate, rejected-not-smaller')
            [CompletionResult]::new('count', 'count', [CompletionResultType]::ParameterValue, 'Count tokens: the total and each message''s and tool call''s')
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Say whether compression is needed (exit code 1 when it is, 0 when not), with the numbers behind the verdict as JSON')
            [CompletionResult]::new('config', 'config', [CompletionResultType]::ParameterValue, 'Print the effective configuration (JSON), or every key with its origin')
            break
        }
        'ollm;compress;compress' {
            [CompletionResult]::new('--tokenizer', '--tokenizer', [CompletionResultType]::ParameterName, 'How to count tokens: cl100k, o200k (built in), a path to the model''s own tokenizer.json, server (the model server''s /tokenize), estimate (characters / 4)')
            [CompletionResult]::new('--tokenizer-url', '--tokenizer-url', [CompletionResultType]::ParameterName, 'The server for `--tokenizer server` (default: the summarizer URL)')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Read this stored session (ollm-session) instead of INPUT: its id, a unique prefix of it (4+ characters) or its title')
            [CompletionResult]::new('--token-limit', '--token-limit', [CompletionResultType]::ParameterName, 'The context size in tokens (default: services.compression.tokenLimit)')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Deprecated spelling of --token-limit (`--limit` counts rows elsewhere)')
            [CompletionResult]::new('--threshold', '--threshold', [CompletionResultType]::ParameterName, 'Fraction of the limit above which compression is needed (default 0.8)')
            [CompletionResult]::new('--trigger', '--trigger', [CompletionResultType]::ParameterName, 'static: tokens > threshold × limit (default). dynamic: the history after the system prompt and earlier summaries > threshold × what the limit leaves for it')
            [CompletionResult]::new('--strategy', '--strategy', [CompletionResultType]::ParameterName, 'hybrid (default): summarize the old part, keep the recent `preserveRecent` tokens. summarize: summarize all but the system prompt and user messages. truncate: drop the oldest until within target')
            [CompletionResult]::new('--target', '--target', [CompletionResultType]::ParameterName, 'Size to compress to (default: threshold × limit)')
            [CompletionResult]::new('--preserve-recent', '--preserve-recent', [CompletionResultType]::ParameterName, 'Tokens of the most recent history kept verbatim (default 4096)')
            [CompletionResult]::new('--summary-max-tokens', '--summary-max-tokens', [CompletionResultType]::ParameterName, 'The summary''s token budget (default 1024)')
            [CompletionResult]::new('--summarizer-cmd', '--summarizer-cmd', [CompletionResultType]::ParameterName, 'Summarize with this shell command instead of a model server: the prompt on its stdin, the summary on its stdout')
            [CompletionResult]::new('--summarizer-api', '--summarizer-api', [CompletionResultType]::ParameterName, 'openai (/v1/chat/completions, the default; Ollama serves it too) or ollama (/api/chat)')
            [CompletionResult]::new('--summarizer-url', '--summarizer-url', [CompletionResultType]::ParameterName, 'The model server''s base URL (default http://127.0.0.1:11434, Ollama''s)')
            [CompletionResult]::new('--summarizer-model', '--summarizer-model', [CompletionResultType]::ParameterName, 'The model to ask for the summary (default llama3.2:3b)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Seconds to wait for the summarizer before truncating instead')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'json (the default when piped), text (the default at a terminal: a few lines saying what was done, not the whole history) or messages (the compressed messages alone, a JSON array: what a model is given)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--last', '--last', [CompletionResultType]::ParameterName, 'Read the most recently active stored session instead of INPUT')
            [CompletionResult]::new('--here', '--here', [CompletionResultType]::ParameterName, 'With --session or --last, only sessions made in this workspace (the git top level, else the current directory); alone, the latest of them')
            [CompletionResult]::new('--no-keep-user-messages', '--no-keep-user-messages', [CompletionResultType]::ParameterName, 'Let user messages be summarized or dropped like the others')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Compress even when the history is below the trigger (or compression is disabled)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'ollm;compress;count' {
            [CompletionResult]::new('--tokenizer', '--tokenizer', [CompletionResultType]::ParameterName, 'How to count tokens: cl100k, o200k (built in), a path to the model''s own tokenizer.json, server (the model server''s /tokenize), estimate (characters / 4)')
            [CompletionResult]::new('--tokenizer-url', '--tokenizer-url', [CompletionResultType]::ParameterName, 'The server for `--tokenizer server` (default: the summarizer URL)')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Read this stored session (ollm-session) instead of INPUT: its id, a unique prefix of it (4+ characters) or its title')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--last', '--last', [CompletionResultType]::ParameterName, 'Read the most recently active stored session instead of INPUT')
            [CompletionResult]::new('--here', '--here', [CompletionResultType]::ParameterName, 'With --session or --last, only sessions made in this workspace (the git top level, else the current directory); alone, the latest of them')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm;compress;check' {
            [CompletionResult]::new('--tokenizer', '--tokenizer', [CompletionResultType]::ParameterName, 'How to count tokens: cl100k, o200k (built in), a path to the model''s own tokenizer.json, server (the model server''s /tokenize), estimate (characters / 4)')
            [CompletionResult]::new('--tokenizer-url', '--tokenizer-url', [CompletionResultType]::ParameterName, 'The server for `--tokenizer server` (default: the summarizer URL)')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Read this stored session (ollm-session) instead of INPUT: its id, a unique prefix of it (4+ characters) or its title')
            [CompletionResult]::new('--token-limit', '--token-limit', [CompletionResultType]::ParameterName, 'The context size in tokens (default: services.compression.tokenLimit)')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Deprecated spelling of --token-limit (`--limit` counts rows elsewhere)')
            [CompletionResult]::new('--threshold', '--threshold', [CompletionResultType]::ParameterName, 'Fraction of the limit above which compression is needed (default 0.8)')
            [CompletionResult]::new('--trigger', '--trigger', [CompletionResultType]::ParameterName, 'static: tokens > threshold × limit (default). dynamic: the history after the system prompt and earlier summaries > threshold × what the limit leaves for it')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--last', '--last', [CompletionResultType]::ParameterName, 'Read the most recently active stored session instead of INPUT')
            [CompletionResult]::new('--here', '--here', [CompletionResultType]::ParameterName, 'With --session or --last, only sessions made in this workspace (the git top level, else the current directory); alone, the latest of them')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm;compress;config' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--show-origin', '--show-origin', [CompletionResultType]::ParameterName, 'Show every key with its value and where it came from (default, a file, an environment variable or a flag), like `git config --show-origin`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm;session' {
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
            break
        }
        'ollm;session;create' {
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
        'ollm;session;record' {
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
        'ollm;session;get' {
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
        'ollm;session;view' {
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
        'ollm;session;resume' {
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
        'ollm;session;list' {
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
        'ollm;session;ls' {
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
        'ollm;session;search' {
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
        'ollm;session;export' {
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
        'ollm;session;rename' {
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
        'ollm;session;delete' {
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
        'ollm;session;rm' {
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
        'ollm;session;remove' {
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
        'ollm;session;cleanup' {
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
        'ollm;session;clear' {
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
        'ollm;session;branch' {
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
        'ollm;session;branches' {
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
        'ollm;session;rewind' {
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
        'ollm;session;scan' {
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
        'ollm;session;redact' {
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
        'ollm;session;import' {
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
        'ollm;session;reindex' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'The session data directory (services.session.dataDir)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)')
            [CompletionResult]::new('--no-redact', '--no-redact', [CompletionResultType]::ParameterName, 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm;session;keep' {
            [CompletionResult]::new('--idle', '--idle', [CompletionResultType]::ParameterName, 'Stop after this long without a command (e.g. `30m`, `2h`)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'The session data directory (services.session.dataDir)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)')
            [CompletionResult]::new('--no-redact', '--no-redact', [CompletionResultType]::ParameterName, 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'ollm;session;snapshot' {
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
            break
        }
        'ollm;session;snapshots' {
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
            break
        }
        'ollm;session;snapshot;create' {
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
        'ollm;session;snapshots;create' {
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
        'ollm;session;snapshot;list' {
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
        'ollm;session;snapshots;list' {
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
        'ollm;session;snapshot;show' {
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session the snapshot belongs to (an id, prefix or title; found by searching every session''s snapshots when not given)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'The session data directory (services.session.dataDir)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)')
            [CompletionResult]::new('--no-redact', '--no-redact', [CompletionResultType]::ParameterName, 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm;session;snapshots;show' {
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session the snapshot belongs to (an id, prefix or title; found by searching every session''s snapshots when not given)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'The session data directory (services.session.dataDir)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)')
            [CompletionResult]::new('--no-redact', '--no-redact', [CompletionResultType]::ParameterName, 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm;session;snapshot;restore' {
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
        'ollm;session;snapshots;restore' {
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
        'ollm;session;snapshot;delete' {
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session the snapshot belongs to (an id, prefix or title; found by searching every session''s snapshots when not given)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'The session data directory (services.session.dataDir)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)')
            [CompletionResult]::new('--no-redact', '--no-redact', [CompletionResultType]::ParameterName, 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm;session;snapshot;rm' {
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session the snapshot belongs to (an id, prefix or title; found by searching every session''s snapshots when not given)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'The session data directory (services.session.dataDir)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)')
            [CompletionResult]::new('--no-redact', '--no-redact', [CompletionResultType]::ParameterName, 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm;session;snapshot;remove' {
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session the snapshot belongs to (an id, prefix or title; found by searching every session''s snapshots when not given)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'The session data directory (services.session.dataDir)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)')
            [CompletionResult]::new('--no-redact', '--no-redact', [CompletionResultType]::ParameterName, 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm;session;snapshots;delete' {
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session the snapshot belongs to (an id, prefix or title; found by searching every session''s snapshots when not given)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'The session data directory (services.session.dataDir)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)')
            [CompletionResult]::new('--no-redact', '--no-redact', [CompletionResultType]::ParameterName, 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm;session;snapshots;rm' {
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session the snapshot belongs to (an id, prefix or title; found by searching every session''s snapshots when not given)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'The session data directory (services.session.dataDir)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)')
            [CompletionResult]::new('--no-redact', '--no-redact', [CompletionResultType]::ParameterName, 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm;session;snapshots;remove' {
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session the snapshot belongs to (an id, prefix or title; found by searching every session''s snapshots when not given)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'The session data directory (services.session.dataDir)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)')
            [CompletionResult]::new('--no-redact', '--no-redact', [CompletionResultType]::ParameterName, 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm;session;copy' {
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
        'ollm;session;config' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'The session data directory (services.session.dataDir)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The session store: `file` (the data directory) or a postgres:// URL (services.session.store)')
            [CompletionResult]::new('--show-origin', '--show-origin', [CompletionResultType]::ParameterName, 'Show every key with its value and where it came from (default, a file, an environment variable or a flag), like `git config --show-origin`')
            [CompletionResult]::new('--no-redact', '--no-redact', [CompletionResultType]::ParameterName, 'Store credentials as they are instead of `[REDACTED:<kind>]` (services.session.redact: false)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm;discover' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--max-depth', '--max-depth', [CompletionResultType]::ParameterName, 'Directory levels entered below the root (0: only the root''s own entries), or `unlimited` [config: services.fileDiscovery.maxDepth, default 10]')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Report only entries matching this glob (repeatable). Without `/` it matches a name at any depth; with `/`, the path below the root')
            [CompletionResult]::new('--include', '--include', [CompletionResultType]::ParameterName, 'Report only entries matching this glob (repeatable). Without `/` it matches a name at any depth; with `/`, the path below the root')
            [CompletionResult]::new('-E', '-E ', [CompletionResultType]::ParameterName, 'Skip entries matching this glob (repeatable); a matching directory is not entered')
            [CompletionResult]::new('--exclude', '--exclude', [CompletionResultType]::ParameterName, 'Skip entries matching this glob (repeatable); a matching directory is not entered')
            [CompletionResult]::new('-t', '-t', [CompletionResultType]::ParameterName, 'Report only this type (repeatable) [default: file and symlink]')
            [CompletionResult]::new('--type', '--type', [CompletionResultType]::ParameterName, 'Report only this type (repeatable) [default: file and symlink]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'ndjson: one entry a line, streamed (the default when piped); table: type, size, modified time and path, sorted (the default at a terminal); json: one sorted array; text: relative paths, as --paths')
            [CompletionResult]::new('-L', '-L ', [CompletionResultType]::ParameterName, 'Follow symbolic links (a link back to an ancestor is reported, not followed)')
            [CompletionResult]::new('--follow', '--follow', [CompletionResultType]::ParameterName, 'Follow symbolic links (a link back to an ancestor is reported, not followed)')
            [CompletionResult]::new('--no-hidden', '--no-hidden', [CompletionResultType]::ParameterName, 'Skip names starting with a dot')
            [CompletionResult]::new('--hidden', '--hidden', [CompletionResultType]::ParameterName, 'List names starting with a dot (the default)')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'Print relative paths, one a line (raw bytes when piped, for xargs; control characters made visible at a terminal); as `--format text`')
            [CompletionResult]::new('--paths', '--paths', [CompletionResultType]::ParameterName, 'Print relative paths, one a line (raw bytes when piped, for xargs; control characters made visible at a terminal); as `--format text`')
            [CompletionResult]::new('-0', '-0', [CompletionResultType]::ParameterName, 'End each path with NUL instead of a newline (with --paths)')
            [CompletionResult]::new('--null', '--null', [CompletionResultType]::ParameterName, 'End each path with NUL instead of a newline (with --paths)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'Sort by relative path, byte by byte (git''s order). Tables and JSON arrays are always sorted')
            [CompletionResult]::new('--sort', '--sort', [CompletionResultType]::ParameterName, 'Sort by relative path, byte by byte (git''s order). Tables and JSON arrays are always sorted')
            [CompletionResult]::new('--no-cache', '--no-cache', [CompletionResultType]::ParameterName, 'Walk the tree even if a cached listing of it is still valid [config: services.fileDiscovery.cache, default true]')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('watch', 'watch', [CompletionResultType]::ParameterValue, 'Watch the tree and print NDJSON events `{event, path, relativePath, type}` (event: add, change, unlink) for paths the listing would show')
            [CompletionResult]::new('config', 'config', [CompletionResultType]::ParameterValue, 'Print the effective configuration (JSON), or every key with its origin')
            break
        }
        'ollm;discover;watch' {
            [CompletionResult]::new('--max-depth', '--max-depth', [CompletionResultType]::ParameterName, 'Directory levels entered below the root (0: only the root''s own entries), or `unlimited` [config: services.fileDiscovery.maxDepth, default 10]')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Report only entries matching this glob (repeatable). Without `/` it matches a name at any depth; with `/`, the path below the root')
            [CompletionResult]::new('--include', '--include', [CompletionResultType]::ParameterName, 'Report only entries matching this glob (repeatable). Without `/` it matches a name at any depth; with `/`, the path below the root')
            [CompletionResult]::new('-E', '-E ', [CompletionResultType]::ParameterName, 'Skip entries matching this glob (repeatable); a matching directory is not entered')
            [CompletionResult]::new('--exclude', '--exclude', [CompletionResultType]::ParameterName, 'Skip entries matching this glob (repeatable); a matching directory is not entered')
            [CompletionResult]::new('-t', '-t', [CompletionResultType]::ParameterName, 'Report only this type (repeatable) [default: file and symlink]')
            [CompletionResult]::new('--type', '--type', [CompletionResultType]::ParameterName, 'Report only this type (repeatable) [default: file and symlink]')
            [CompletionResult]::new('--debounce-ms', '--debounce-ms', [CompletionResultType]::ParameterName, 'Quiet time before a burst of changes is reported [config: services.fileDiscovery.debounceMs, default 100]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('-L', '-L ', [CompletionResultType]::ParameterName, 'Follow symbolic links (a link back to an ancestor is reported, not followed)')
            [CompletionResult]::new('--follow', '--follow', [CompletionResultType]::ParameterName, 'Follow symbolic links (a link back to an ancestor is reported, not followed)')
            [CompletionResult]::new('--no-hidden', '--no-hidden', [CompletionResultType]::ParameterName, 'Skip names starting with a dot')
            [CompletionResult]::new('--hidden', '--hidden', [CompletionResultType]::ParameterName, 'List names starting with a dot (the default)')
            [CompletionResult]::new('--ready', '--ready', [CompletionResultType]::ParameterName, 'Print `{"event":"ready",…}` once the watch is in place')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'ollm;discover;config' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--show-origin', '--show-origin', [CompletionResultType]::ParameterName, 'Show every key with its value and where it came from (default, a file, an environment variable or a flag), like `git config --show-origin`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm;mcp' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--allow-write', '--allow-write', [CompletionResultType]::ParameterName, 'Offer the writing tools too: record_message (into a session) and add_context (into the workspace''s context)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('config', 'config', [CompletionResultType]::ParameterValue, 'Print the effective configuration (JSON), or every key with its origin')
            break
        }
        'ollm;mcp;config' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--show-origin', '--show-origin', [CompletionResultType]::ParameterName, 'Show every key with its value and where it came from (default, a file, an environment variable or a flag), like `git config --show-origin`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm;checkpoint' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('snapshot', 'snapshot', [CompletionResultType]::ParameterValue, 'Snapshot the work tree as the session''s next turn (or --turn N). Prints {"sessionId","turn","root","files","changed","bytesStored", "notRestorable","watched","elapsedMs"}')
            [CompletionResult]::new('restore', 'restore', [CompletionResultType]::ParameterValue, 'Restore the session''s files to turn N (three-way: conflicts are listed and nothing changes without --force). Exit 1 at a conflict')
            [CompletionResult]::new('diff', 'diff', [CompletionResultType]::ParameterValue, 'Show what changed in turn N (against the snapshot before it) as unified diffs: JSON, or --patch for the diff text')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the session''s checkpoints: a table at a terminal, JSON piped')
            [CompletionResult]::new('gc', 'gc', [CompletionResultType]::ParameterValue, 'Apply the disk budget now: drop the oldest turns while the store is over services.checkpoint.budgetBytes, and remove unnamed objects')
            [CompletionResult]::new('config', 'config', [CompletionResultType]::ParameterValue, 'Print the effective configuration (JSON), or every key with its origin')
            [CompletionResult]::new('watch', 'watch', [CompletionResultType]::ParameterValue, 'Run the watcher of a work tree (Linux) that snapshots ask what changed when services.checkpoint.watch is on. A snapshot starts it in the background; it exits after 15 minutes without a question')
            break
        }
        'ollm;checkpoint;snapshot' {
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session: its id, a unique prefix of it (4+ characters) or its title. A whole id need not be in the session store (a runtime may checkpoint before it records)')
            [CompletionResult]::new('--turn', '--turn', [CompletionResultType]::ParameterName, 'The turn number (default: one after the session''s last checkpoint)')
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'The work tree (default: the current directory)')
            [CompletionResult]::new('--path', '--path', [CompletionResultType]::ParameterName, 'Also cover this path (relative to the work tree), even if ignored (those the session''s recorded tool calls named are covered without it). Repeatable')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--last', '--last', [CompletionResultType]::ParameterName, 'The most recently active session')
            [CompletionResult]::new('--allow-large', '--allow-large', [CompletionResultType]::ParameterName, 'Take $HOME, / or a tree over services.checkpoint.maxTreeBytes anyway')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm;checkpoint;restore' {
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session: its id, a unique prefix of it (4+ characters) or its title. A whole id need not be in the session store (a runtime may checkpoint before it records)')
            [CompletionResult]::new('--turn', '--turn', [CompletionResultType]::ParameterName, 'The turn to go back to')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--last', '--last', [CompletionResultType]::ParameterName, 'The most recently active session')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print the plan (what would be written, deleted, left alone, and the conflicts) and change nothing')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Restore the conflicting paths too (the snapshot taken first keeps what they held: `undoTurn`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm;checkpoint;diff' {
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session: its id, a unique prefix of it (4+ characters) or its title. A whole id need not be in the session store (a runtime may checkpoint before it records)')
            [CompletionResult]::new('--turn', '--turn', [CompletionResultType]::ParameterName, 'The turn whose changes to show')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--last', '--last', [CompletionResultType]::ParameterName, 'The most recently active session')
            [CompletionResult]::new('--patch', '--patch', [CompletionResultType]::ParameterName, 'Print the unified diff text instead of JSON')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm;checkpoint;list' {
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session: its id, a unique prefix of it (4+ characters) or its title. A whole id need not be in the session store (a runtime may checkpoint before it records)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--last', '--last', [CompletionResultType]::ParameterName, 'The most recently active session')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm;checkpoint;gc' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm;checkpoint;config' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--show-origin', '--show-origin', [CompletionResultType]::ParameterName, 'Show every key with its value and where it came from (default, a file, an environment variable or a flag), like `git config --show-origin`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm;checkpoint;watch' {
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'The work tree to watch')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
