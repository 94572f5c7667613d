
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'ollm-checkpoint' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'ollm-checkpoint'
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
        'ollm-checkpoint' {
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
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ollm-checkpoint;snapshot' {
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
        'ollm-checkpoint;restore' {
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
        'ollm-checkpoint;diff' {
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session: its id, a unique prefix of it (4+ characters) or its title. A whole id need not be in the session store (a runtime may checkpoint before it records)')
            [CompletionResult]::new('--turn', '--turn', [CompletionResultType]::ParameterName, 'The turn whose changes to show')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--last', '--last', [CompletionResultType]::ParameterName, 'The most recently active session')
            [CompletionResult]::new('--patch', '--patch', [CompletionResultType]::ParameterName, 'Print the unified diff text instead of JSON')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm-checkpoint;list' {
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session: its id, a unique prefix of it (4+ characters) or its title. A whole id need not be in the session store (a runtime may checkpoint before it records)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--last', '--last', [CompletionResultType]::ParameterName, 'The most recently active session')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm-checkpoint;gc' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm-checkpoint;config' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--show-origin', '--show-origin', [CompletionResultType]::ParameterName, 'Show every key with its value and where it came from (default, a file, an environment variable or a flag), like `git config --show-origin`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm-checkpoint;watch' {
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'The work tree to watch')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm-checkpoint;help' {
            [CompletionResult]::new('snapshot', 'snapshot', [CompletionResultType]::ParameterValue, 'Snapshot the work tree as the session''s next turn (or --turn N). Prints {"sessionId","turn","root","files","changed","bytesStored", "notRestorable","watched","elapsedMs"}')
            [CompletionResult]::new('restore', 'restore', [CompletionResultType]::ParameterValue, 'Restore the session''s files to turn N (three-way: conflicts are listed and nothing changes without --force). Exit 1 at a conflict')
            [CompletionResult]::new('diff', 'diff', [CompletionResultType]::ParameterValue, 'Show what changed in turn N (against the snapshot before it) as unified diffs: JSON, or --patch for the diff text')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the session''s checkpoints: a table at a terminal, JSON piped')
            [CompletionResult]::new('gc', 'gc', [CompletionResultType]::ParameterValue, 'Apply the disk budget now: drop the oldest turns while the store is over services.checkpoint.budgetBytes, and remove unnamed objects')
            [CompletionResult]::new('config', 'config', [CompletionResultType]::ParameterValue, 'Print the effective configuration (JSON), or every key with its origin')
            [CompletionResult]::new('watch', 'watch', [CompletionResultType]::ParameterValue, 'Run the watcher of a work tree (Linux) that snapshots ask what changed when services.checkpoint.watch is on. A snapshot starts it in the background; it exits after 15 minutes without a question')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ollm-checkpoint;help;snapshot' {
            break
        }
        'ollm-checkpoint;help;restore' {
            break
        }
        'ollm-checkpoint;help;diff' {
            break
        }
        'ollm-checkpoint;help;list' {
            break
        }
        'ollm-checkpoint;help;gc' {
            break
        }
        'ollm-checkpoint;help;config' {
            break
        }
        'ollm-checkpoint;help;watch' {
            break
        }
        'ollm-checkpoint;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
