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
complete -c ollm -n "__fish_ollm_needs_command" -l list -d 'List the tools found (name and path); JSON when piped'
complete -c ollm -n "__fish_ollm_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ollm -n "__fish_ollm_needs_command" -s V -l version -d 'Print version'
complete -c ollm -n "__fish_ollm_needs_command" -f -a "help" -d 'Show help for ollm, or for one tool (`ollm help session`)'
complete -c ollm -n "__fish_ollm_needs_command" -f -a "config" -d 'Print the effective shared configuration, or every key with its origin'
complete -c ollm -n "__fish_ollm_needs_command" -f -a "env" -d 'Run a tool with secrets stripped from its environment'
complete -c ollm -n "__fish_ollm_needs_command" -f -a "discover" -d 'List a project\'s files the way git sees them, fast, as NDJSON or paths'
complete -c ollm -n "__fish_ollm_using_subcommand help" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand help" -s h -l help -d 'Print help'
complete -c ollm -n "__fish_ollm_using_subcommand config" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand config" -l show-origin -d 'Show every key with its value and where it came from (default, a file, an environment variable or a flag), like `git config --show-origin`'
complete -c ollm -n "__fish_ollm_using_subcommand config" -s h -l help -d 'Print help'
complete -c ollm -n "__fish_ollm_using_subcommand env; and not __fish_seen_subcommand_from run report explain config" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand env; and not __fish_seen_subcommand_from run report explain config" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ollm -n "__fish_ollm_using_subcommand env; and not __fish_seen_subcommand_from run report explain config" -s V -l version -d 'Print version'
complete -c ollm -n "__fish_ollm_using_subcommand env; and not __fish_seen_subcommand_from run report explain config" -f -a "run" -d 'Run CMD with the sanitized environment; its exit code passes through (128+N if it dies of signal N; 127 if CMD is not found)'
complete -c ollm -n "__fish_ollm_using_subcommand env; and not __fish_seen_subcommand_from run report explain config" -f -a "report" -d 'Print, as JSON, every variable name kept and removed with the rule that decided it. Values are never printed'
complete -c ollm -n "__fish_ollm_using_subcommand env; and not __fish_seen_subcommand_from run report explain config" -f -a "explain" -d 'Explain the decision for one variable name, as JSON'
complete -c ollm -n "__fish_ollm_using_subcommand env; and not __fish_seen_subcommand_from run report explain config" -f -a "config" -d 'Print the effective configuration (JSON), or every key with its origin'
complete -c ollm -n "__fish_ollm_using_subcommand env; and __fish_seen_subcommand_from run" -l allow -d 'Also keep this variable (exact name, or a glob such as \'MYAPP_*\'). An exact name is kept even when its value looks like a credential' -r
complete -c ollm -n "__fish_ollm_using_subcommand env; and __fish_seen_subcommand_from run" -l deny -d 'Also remove variables matching this glob (case-insensitive)' -r
complete -c ollm -n "__fish_ollm_using_subcommand env; and __fish_seen_subcommand_from run" -l set -d 'Set NAME=VALUE in the tool\'s environment (after sanitizing)' -r
complete -c ollm -n "__fish_ollm_using_subcommand env; and __fish_seen_subcommand_from run" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand env; and __fish_seen_subcommand_from run" -l replace-defaults -d 'Use only the configured and given lists, not the spec\'s defaults'
complete -c ollm -n "__fish_ollm_using_subcommand env; and __fish_seen_subcommand_from run" -l no-scan-values -d 'Do not remove variables because of what their value looks like'
complete -c ollm -n "__fish_ollm_using_subcommand env; and __fish_seen_subcommand_from run" -l redact-output -d 'Replace removed secret values and credential-shaped text in the tool\'s stdout and stderr with [REDACTED]'
complete -c ollm -n "__fish_ollm_using_subcommand env; and __fish_seen_subcommand_from run" -s h -l help -d 'Print help'
complete -c ollm -n "__fish_ollm_using_subcommand env; and __fish_seen_subcommand_from report" -l allow -d 'Also keep this variable (exact name, or a glob such as \'MYAPP_*\'). An exact name is kept even when its value looks like a credential' -r
complete -c ollm -n "__fish_ollm_using_subcommand env; and __fish_seen_subcommand_from report" -l deny -d 'Also remove variables matching this glob (case-insensitive)' -r
complete -c ollm -n "__fish_ollm_using_subcommand env; and __fish_seen_subcommand_from report" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand env; and __fish_seen_subcommand_from report" -l replace-defaults -d 'Use only the configured and given lists, not the spec\'s defaults'
complete -c ollm -n "__fish_ollm_using_subcommand env; and __fish_seen_subcommand_from report" -l no-scan-values -d 'Do not remove variables because of what their value looks like'
complete -c ollm -n "__fish_ollm_using_subcommand env; and __fish_seen_subcommand_from report" -s h -l help -d 'Print help'
complete -c ollm -n "__fish_ollm_using_subcommand env; and __fish_seen_subcommand_from explain" -l allow -d 'Also keep this variable (exact name, or a glob such as \'MYAPP_*\'). An exact name is kept even when its value looks like a credential' -r
complete -c ollm -n "__fish_ollm_using_subcommand env; and __fish_seen_subcommand_from explain" -l deny -d 'Also remove variables matching this glob (case-insensitive)' -r
complete -c ollm -n "__fish_ollm_using_subcommand env; and __fish_seen_subcommand_from explain" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand env; and __fish_seen_subcommand_from explain" -l replace-defaults -d 'Use only the configured and given lists, not the spec\'s defaults'
complete -c ollm -n "__fish_ollm_using_subcommand env; and __fish_seen_subcommand_from explain" -l no-scan-values -d 'Do not remove variables because of what their value looks like'
complete -c ollm -n "__fish_ollm_using_subcommand env; and __fish_seen_subcommand_from explain" -s h -l help -d 'Print help'
complete -c ollm -n "__fish_ollm_using_subcommand env; and __fish_seen_subcommand_from config" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand env; and __fish_seen_subcommand_from config" -l show-origin -d 'Show every key with its value and where it came from (default, a file, an environment variable or a flag), like `git config --show-origin`'
complete -c ollm -n "__fish_ollm_using_subcommand env; and __fish_seen_subcommand_from config" -s h -l help -d 'Print help'
complete -c ollm -n "__fish_ollm_using_subcommand discover; and not __fish_seen_subcommand_from watch config" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm -n "__fish_ollm_using_subcommand discover; and not __fish_seen_subcommand_from watch config" -l max-depth -d 'Directory levels entered below the root (0: only the root\'s own entries), or `unlimited` [config: services.fileDiscovery.maxDepth, default 10]' -r
complete -c ollm -n "__fish_ollm_using_subcommand discover; and not __fish_seen_subcommand_from watch config" -s i -l include -d 'Report only entries matching this glob (repeatable). Without `/` it matches a name at any depth; with `/`, the path below the root' -r
complete -c ollm -n "__fish_ollm_using_subcommand discover; and not __fish_seen_subcommand_from watch config" -s e -l exclude -d 'Skip entries matching this glob (repeatable); a matching directory is not entered' -r
complete -c ollm -n "__fish_ollm_using_subcommand discover; and not __fish_seen_subcommand_from watch config" -s t -l type -d 'Report only this type (repeatable) [default: file and symlink]' -r -f -a "file\t''
directory\t''
symlink\t''"
complete -c ollm -n "__fish_ollm_using_subcommand discover; and not __fish_seen_subcommand_from watch config" -s L -l follow -d 'Follow symbolic links (a link back to an ancestor is reported, not followed)'
complete -c ollm -n "__fish_ollm_using_subcommand discover; and not __fish_seen_subcommand_from watch config" -l no-hidden -d 'Skip names starting with a dot'
complete -c ollm -n "__fish_ollm_using_subcommand discover; and not __fish_seen_subcommand_from watch config" -l hidden -d 'List names starting with a dot (the default)'
complete -c ollm -n "__fish_ollm_using_subcommand discover; and not __fish_seen_subcommand_from watch config" -s p -l paths -d 'Print relative paths, one a line, instead of NDJSON entries'
complete -c ollm -n "__fish_ollm_using_subcommand discover; and not __fish_seen_subcommand_from watch config" -s 0 -l null -d 'End each path with NUL instead of a newline (with --paths)'
complete -c ollm -n "__fish_ollm_using_subcommand discover; and not __fish_seen_subcommand_from watch config" -s s -l sort -d 'Sort by relative path, byte by byte (git\'s order)'
complete -c ollm -n "__fish_ollm_using_subcommand discover; and not __fish_seen_subcommand_from watch config" -l no-cache -d 'Walk the tree even if a cached listing of it is still valid [config: services.fileDiscovery.cache, default true]'
complete -c ollm -n "__fish_ollm_using_subcommand discover; and not __fish_seen_subcommand_from watch config" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ollm -n "__fish_ollm_using_subcommand discover; and not __fish_seen_subcommand_from watch config" -s V -l version -d 'Print version'
complete -c ollm -n "__fish_ollm_using_subcommand discover; and not __fish_seen_subcommand_from watch config" -a "watch" -d 'Watch the tree and print NDJSON events `{event, path, relativePath, type}` (event: add, change, unlink) for paths the listing would show'
complete -c ollm -n "__fish_ollm_using_subcommand discover; and not __fish_seen_subcommand_from watch config" -a "config" -d 'Print the effective configuration (JSON), or every key with its origin'
complete -c ollm -n "__fish_ollm_using_subcommand discover; and __fish_seen_subcommand_from watch" -l max-depth -d 'Directory levels entered below the root (0: only the root\'s own entries), or `unlimited` [config: services.fileDiscovery.maxDepth, default 10]' -r
complete -c ollm -n "__fish_ollm_using_subcommand discover; and __fish_seen_subcommand_from watch" -s i -l include -d 'Report only entries matching this glob (repeatable). Without `/` it matches a name at any depth; with `/`, the path below the root' -r
complete -c ollm -n "__fish_ollm_using_subcommand discover; and __fish_seen_subcommand_from watch" -s e -l exclude -d 'Skip entries matching this glob (repeatable); a matching directory is not entered' -r
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
