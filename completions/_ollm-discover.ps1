
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'ollm-discover' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'ollm-discover'
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
        'ollm-discover' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--max-depth', '--max-depth', [CompletionResultType]::ParameterName, 'Directory levels entered below the root (0: only the root''s own entries), or `unlimited` [config: services.fileDiscovery.maxDepth, default 10]')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Report only entries matching this glob (repeatable). Without `/` it matches a name at any depth; with `/`, the path below the root')
            [CompletionResult]::new('--include', '--include', [CompletionResultType]::ParameterName, 'Report only entries matching this glob (repeatable). Without `/` it matches a name at any depth; with `/`, the path below the root')
            [CompletionResult]::new('-E', '-E ', [CompletionResultType]::ParameterName, 'Skip entries matching this glob (repeatable); a matching directory is not entered')
            [CompletionResult]::new('--exclude', '--exclude', [CompletionResultType]::ParameterName, 'Skip entries matching this glob (repeatable); a matching directory is not entered')
            [CompletionResult]::new('-t', '-t', [CompletionResultType]::ParameterName, 'Report only this type (repeatable) [default: file and symlink]')
            [CompletionResult]::new('--type', '--type', [CompletionResultType]::ParameterName, 'Report only this type (repeatable) [default: file and symlink]')
            [CompletionResult]::new('-L', '-L ', [CompletionResultType]::ParameterName, 'Follow symbolic links (a link back to an ancestor is reported, not followed)')
            [CompletionResult]::new('--follow', '--follow', [CompletionResultType]::ParameterName, 'Follow symbolic links (a link back to an ancestor is reported, not followed)')
            [CompletionResult]::new('--no-hidden', '--no-hidden', [CompletionResultType]::ParameterName, 'Skip names starting with a dot')
            [CompletionResult]::new('--hidden', '--hidden', [CompletionResultType]::ParameterName, 'List names starting with a dot (the default)')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'Print relative paths, one a line, instead of NDJSON entries')
            [CompletionResult]::new('--paths', '--paths', [CompletionResultType]::ParameterName, 'Print relative paths, one a line, instead of NDJSON entries')
            [CompletionResult]::new('-0', '-0', [CompletionResultType]::ParameterName, 'End each path with NUL instead of a newline (with --paths)')
            [CompletionResult]::new('--null', '--null', [CompletionResultType]::ParameterName, 'End each path with NUL instead of a newline (with --paths)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'Sort by relative path, byte by byte (git''s order)')
            [CompletionResult]::new('--sort', '--sort', [CompletionResultType]::ParameterName, 'Sort by relative path, byte by byte (git''s order)')
            [CompletionResult]::new('--no-cache', '--no-cache', [CompletionResultType]::ParameterName, 'Walk the tree even if a cached listing of it is still valid [config: services.fileDiscovery.cache, default true]')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('watch', 'watch', [CompletionResultType]::ParameterValue, 'Watch the tree and print NDJSON events `{event, path, relativePath, type}` (event: add, change, unlink) for paths the listing would show')
            [CompletionResult]::new('config', 'config', [CompletionResultType]::ParameterValue, 'Print the effective configuration (JSON), or every key with its origin')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ollm-discover;watch' {
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
        'ollm-discover;config' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--show-origin', '--show-origin', [CompletionResultType]::ParameterName, 'Show every key with its value and where it came from (default, a file, an environment variable or a flag), like `git config --show-origin`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm-discover;help' {
            [CompletionResult]::new('watch', 'watch', [CompletionResultType]::ParameterValue, 'Watch the tree and print NDJSON events `{event, path, relativePath, type}` (event: add, change, unlink) for paths the listing would show')
            [CompletionResult]::new('config', 'config', [CompletionResultType]::ParameterValue, 'Print the effective configuration (JSON), or every key with its origin')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ollm-discover;help;watch' {
            break
        }
        'ollm-discover;help;config' {
            break
        }
        'ollm-discover;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
