
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'ollm-env' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'ollm-env'
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
        'ollm-env' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('run', 'run', [CompletionResultType]::ParameterValue, 'Run CMD with the sanitized environment; its exit code passes through (128+N if it dies of signal N; 127 if CMD is not found, 126 if it cannot be executed, or if the --redact-output supervisor cannot make itself unreadable to it)')
            [CompletionResult]::new('report', 'report', [CompletionResultType]::ParameterValue, 'Print every variable name kept and removed with the rule that decided it: a table at a terminal, JSON `{kept, removed, set}` when piped. Values are never printed')
            [CompletionResult]::new('explain', 'explain', [CompletionResultType]::ParameterValue, 'Explain the decision for one variable name, as JSON, and for a removed one how to pass it anyway')
            [CompletionResult]::new('config', 'config', [CompletionResultType]::ParameterValue, 'Print the effective configuration (JSON), or every key with its origin')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ollm-env;run' {
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
        'ollm-env;report' {
            [CompletionResult]::new('--allow', '--allow', [CompletionResultType]::ParameterName, 'Also keep this variable (exact name, or a glob such as ''MYAPP_*''). An exact name is kept even when its value looks like a credential')
            [CompletionResult]::new('--deny', '--deny', [CompletionResultType]::ParameterName, 'Also remove variables matching this glob (case-insensitive)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--replace-defaults', '--replace-defaults', [CompletionResultType]::ParameterName, 'Use only the configured and given lists: every built-in list (the spec''s allow and deny lists, the extended and the connection-string deny lists) is dropped. Values are still checked unless --no-scan-values')
            [CompletionResult]::new('--no-scan-values', '--no-scan-values', [CompletionResultType]::ParameterName, 'Do not remove variables because of what their value looks like')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm-env;explain' {
            [CompletionResult]::new('--allow', '--allow', [CompletionResultType]::ParameterName, 'Also keep this variable (exact name, or a glob such as ''MYAPP_*''). An exact name is kept even when its value looks like a credential')
            [CompletionResult]::new('--deny', '--deny', [CompletionResultType]::ParameterName, 'Also remove variables matching this glob (case-insensitive)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--replace-defaults', '--replace-defaults', [CompletionResultType]::ParameterName, 'Use only the configured and given lists: every built-in list (the spec''s allow and deny lists, the extended and the connection-string deny lists) is dropped. Values are still checked unless --no-scan-values')
            [CompletionResult]::new('--no-scan-values', '--no-scan-values', [CompletionResultType]::ParameterName, 'Do not remove variables because of what their value looks like')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm-env;config' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--show-origin', '--show-origin', [CompletionResultType]::ParameterName, 'Show every key with its value and where it came from (default, a file, an environment variable or a flag), like `git config --show-origin`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm-env;help' {
            [CompletionResult]::new('run', 'run', [CompletionResultType]::ParameterValue, 'Run CMD with the sanitized environment; its exit code passes through (128+N if it dies of signal N; 127 if CMD is not found, 126 if it cannot be executed, or if the --redact-output supervisor cannot make itself unreadable to it)')
            [CompletionResult]::new('report', 'report', [CompletionResultType]::ParameterValue, 'Print every variable name kept and removed with the rule that decided it: a table at a terminal, JSON `{kept, removed, set}` when piped. Values are never printed')
            [CompletionResult]::new('explain', 'explain', [CompletionResultType]::ParameterValue, 'Explain the decision for one variable name, as JSON, and for a removed one how to pass it anyway')
            [CompletionResult]::new('config', 'config', [CompletionResultType]::ParameterValue, 'Print the effective configuration (JSON), or every key with its origin')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ollm-env;help;run' {
            break
        }
        'ollm-env;help;report' {
            break
        }
        'ollm-env;help;explain' {
            break
        }
        'ollm-env;help;config' {
            break
        }
        'ollm-env;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
