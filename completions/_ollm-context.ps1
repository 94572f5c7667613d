
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'ollm-context' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'ollm-context'
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
        'ollm-context' {
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
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ollm-context;add' {
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
        'ollm-context;remove' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Use the per-session store of this session (a UUID)')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Use this store file')
            [CompletionResult]::new('--missing-ok', '--missing-ok', [CompletionResultType]::ParameterName, 'Exit 0 even when the key is not in the store')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm-context;clear' {
            [CompletionResult]::new('--source', '--source', [CompletionResultType]::ParameterName, 'Remove only the entries of this source')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Use the per-session store of this session (a UUID)')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Use this store file')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm-context;list' {
            [CompletionResult]::new('--source', '--source', [CompletionResultType]::ParameterName, 'List only the entries of this source')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'The output format [default: table at a terminal, json when piped]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Use the per-session store of this session (a UUID)')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Use this store file')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'ollm-context;get' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Use the per-session store of this session (a UUID)')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Use this store file')
            [CompletionResult]::new('--content', '--content', [CompletionResultType]::ParameterName, 'Print only the content, ending in a newline (one is added when the content has none)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm-context;prompt' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Use the per-session store of this session (a UUID)')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Use this store file')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the entries in prompt order as a JSON array instead')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm-context;config' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Use the per-session store of this session (a UUID)')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Use this store file')
            [CompletionResult]::new('--show-origin', '--show-origin', [CompletionResultType]::ParameterName, 'Show every key with its value and where it came from (default, a file, an environment variable or a flag), like `git config --show-origin`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm-context;help' {
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Add an entry, or replace the entry with this key (it keeps its place in insertion order). Content comes from CONTENT, `-` (stdin), or --from-file. Prints `{"added":KEY,"replaced":BOOL,"store":PATH}`')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Remove an entry (alias: delete); exit 3 when there is none, unless --missing-ok. Prints `{"removed":N,"keys":[…],"store":PATH}`')
            [CompletionResult]::new('clear', 'clear', [CompletionResultType]::ParameterValue, 'Remove every entry, or only those of one source. Prints `{"removed":N,"keys":[…],"store":PATH}`')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the live entries in insertion order: a table at a terminal, a JSON array when piped')
            [CompletionResult]::new('get', 'get', [CompletionResultType]::ParameterValue, 'Print one entry as JSON (exit 3 when missing or expired)')
            [CompletionResult]::new('prompt', 'prompt', [CompletionResultType]::ParameterValue, 'Print the system-prompt additions: one markdown section (`## KEY`, blank line, content) per live entry, highest priority first, ties in insertion order. Nothing when the store is empty')
            [CompletionResult]::new('config', 'config', [CompletionResultType]::ParameterValue, 'Print the effective configuration (JSON), or every key with its origin')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ollm-context;help;add' {
            break
        }
        'ollm-context;help;remove' {
            break
        }
        'ollm-context;help;clear' {
            break
        }
        'ollm-context;help;list' {
            break
        }
        'ollm-context;help;get' {
            break
        }
        'ollm-context;help;prompt' {
            break
        }
        'ollm-context;help;config' {
            break
        }
        'ollm-context;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
