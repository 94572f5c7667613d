
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
            [CompletionResult]::new('--list', '--list', [CompletionResultType]::ParameterName, 'List the tools found (name and path); JSON when piped')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Show help for ollm, or for one tool (`ollm help session`)')
            [CompletionResult]::new('config', 'config', [CompletionResultType]::ParameterValue, 'Print the effective shared configuration, or every key with its origin')
            [CompletionResult]::new('env', 'env', [CompletionResultType]::ParameterValue, 'Run a tool with secrets stripped from its environment')
            [CompletionResult]::new('loopcheck', 'loopcheck', [CompletionResultType]::ParameterValue, 'Detect runaway loops in an agent''s events')
            [CompletionResult]::new('context', 'context', [CompletionResultType]::ParameterValue, 'Keep prioritized context entries and render them as system-prompt additions')
            break
        }
        'ollm;help' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
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
        'ollm;env' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('run', 'run', [CompletionResultType]::ParameterValue, 'Run CMD with the sanitized environment; its exit code passes through (128+N if it dies of signal N; 127 if CMD is not found)')
            [CompletionResult]::new('report', 'report', [CompletionResultType]::ParameterValue, 'Print, as JSON, every variable name kept and removed with the rule that decided it. Values are never printed')
            [CompletionResult]::new('explain', 'explain', [CompletionResultType]::ParameterValue, 'Explain the decision for one variable name, as JSON')
            [CompletionResult]::new('config', 'config', [CompletionResultType]::ParameterValue, 'Print the effective configuration (JSON), or every key with its origin')
            break
        }
        'ollm;env;run' {
            [CompletionResult]::new('--allow', '--allow', [CompletionResultType]::ParameterName, 'Also keep this variable (exact name, or a glob such as ''MYAPP_*''). An exact name is kept even when its value looks like a credential')
            [CompletionResult]::new('--deny', '--deny', [CompletionResultType]::ParameterName, 'Also remove variables matching this glob (case-insensitive)')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'Set NAME=VALUE in the tool''s environment (after sanitizing)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--replace-defaults', '--replace-defaults', [CompletionResultType]::ParameterName, 'Use only the configured and given lists, not the spec''s defaults')
            [CompletionResult]::new('--no-scan-values', '--no-scan-values', [CompletionResultType]::ParameterName, 'Do not remove variables because of what their value looks like')
            [CompletionResult]::new('--redact-output', '--redact-output', [CompletionResultType]::ParameterName, 'Replace removed secret values and credential-shaped text in the tool''s stdout and stderr with [REDACTED]')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm;env;report' {
            [CompletionResult]::new('--allow', '--allow', [CompletionResultType]::ParameterName, 'Also keep this variable (exact name, or a glob such as ''MYAPP_*''). An exact name is kept even when its value looks like a credential')
            [CompletionResult]::new('--deny', '--deny', [CompletionResultType]::ParameterName, 'Also remove variables matching this glob (case-insensitive)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--replace-defaults', '--replace-defaults', [CompletionResultType]::ParameterName, 'Use only the configured and given lists, not the spec''s defaults')
            [CompletionResult]::new('--no-scan-values', '--no-scan-values', [CompletionResultType]::ParameterName, 'Do not remove variables because of what their value looks like')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm;env;explain' {
            [CompletionResult]::new('--allow', '--allow', [CompletionResultType]::ParameterName, 'Also keep this variable (exact name, or a glob such as ''MYAPP_*''). An exact name is kept even when its value looks like a credential')
            [CompletionResult]::new('--deny', '--deny', [CompletionResultType]::ParameterName, 'Also remove variables matching this glob (case-insensitive)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--replace-defaults', '--replace-defaults', [CompletionResultType]::ParameterName, 'Use only the configured and given lists, not the spec''s defaults')
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
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'The input format')
            [CompletionResult]::new('--max-turns', '--max-turns', [CompletionResultType]::ParameterName, 'Report a loop on the first turn beyond N (services.loopDetection.maxTurns)')
            [CompletionResult]::new('--repeat-threshold', '--repeat-threshold', [CompletionResultType]::ParameterName, 'Repeats that make a loop (services.loopDetection.repeatThreshold)')
            [CompletionResult]::new('--similarity-threshold', '--similarity-threshold', [CompletionResultType]::ParameterName, 'Output similarity ratio, in (0, 1], at which outputs count as repeats (services.loopDetection.similarityThreshold)')
            [CompletionResult]::new('--stream', '--stream', [CompletionResultType]::ParameterName, 'Read NDJSON events as they come and print a verdict line (flushed) as soon as a loop is found, then keep reading; at the end of input, print the quiet verdict if nothing was found')
            [CompletionResult]::new('--warn-only', '--warn-only', [CompletionResultType]::ParameterName, 'Print the verdict but exit 0 even when a loop is found, for callers that nudge the model rather than stop it')
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
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Add an entry, or replace the entry with this key (it keeps its place in insertion order). Content comes from CONTENT, `-` (stdin), or --from-file')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Remove an entry (exit 3 when there is none, unless --missing-ok)')
            [CompletionResult]::new('clear', 'clear', [CompletionResultType]::ParameterValue, 'Remove every entry, or only those of one source. Prints how many went')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'Print the live entries as a JSON array, in insertion order')
            [CompletionResult]::new('get', 'get', [CompletionResultType]::ParameterValue, 'Print one entry as JSON (exit 3 when missing or expired)')
            [CompletionResult]::new('prompt', 'prompt', [CompletionResultType]::ParameterValue, 'Print the system-prompt additions: one markdown section (`## KEY`, blank line, content) per live entry, highest priority first, ties in insertion order. Nothing when the store is empty')
            [CompletionResult]::new('config', 'config', [CompletionResultType]::ParameterValue, 'Print the effective configuration (JSON), or every key with its origin')
            break
        }
        'ollm;context;add' {
            [CompletionResult]::new('--from-file', '--from-file', [CompletionResultType]::ParameterName, 'Read the content from this file')
            [CompletionResult]::new('--priority', '--priority', [CompletionResultType]::ParameterName, 'Higher priorities come first in the prompt')
            [CompletionResult]::new('--source', '--source', [CompletionResultType]::ParameterName, 'source')
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
            [CompletionResult]::new('--source', '--source', [CompletionResultType]::ParameterName, 'source')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Use the per-session store of this session (a UUID)')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Use this store file')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm;context;list' {
            [CompletionResult]::new('--source', '--source', [CompletionResultType]::ParameterName, 'source')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Use the per-session store of this session (a UUID)')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Use this store file')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm;context;get' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Use the per-session store of this session (a UUID)')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Use this store file')
            [CompletionResult]::new('--content', '--content', [CompletionResultType]::ParameterName, 'Print only the content, as is')
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
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
