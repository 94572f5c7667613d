
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'ollm-loopcheck' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'ollm-loopcheck'
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
        'ollm-loopcheck' {
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
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ollm-loopcheck;config' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--show-origin', '--show-origin', [CompletionResultType]::ParameterName, 'Show every key with its value and where it came from (default, a file, an environment variable or a flag), like `git config --show-origin`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm-loopcheck;help' {
            [CompletionResult]::new('config', 'config', [CompletionResultType]::ParameterValue, 'Print the effective configuration (JSON), or every key with its origin')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ollm-loopcheck;help;config' {
            break
        }
        'ollm-loopcheck;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
