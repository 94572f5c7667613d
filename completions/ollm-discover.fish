# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_ollm_discover_global_optspecs
    string join \n config= max-depth= g/include= E/exclude= L/follow t/type= no-hidden hidden p/paths 0/null s/sort no-cache h/help V/version
end

function __fish_ollm_discover_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_ollm_discover_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_ollm_discover_using_subcommand
    set -l cmd (__fish_ollm_discover_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c ollm-discover -n "__fish_ollm_discover_needs_command" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-discover -n "__fish_ollm_discover_needs_command" -l max-depth -d 'Directory levels entered below the root (0: only the root\'s own entries), or `unlimited` [config: services.fileDiscovery.maxDepth, default 10]' -r
complete -c ollm-discover -n "__fish_ollm_discover_needs_command" -s g -l include -d 'Report only entries matching this glob (repeatable). Without `/` it matches a name at any depth; with `/`, the path below the root' -r
complete -c ollm-discover -n "__fish_ollm_discover_needs_command" -s E -l exclude -d 'Skip entries matching this glob (repeatable); a matching directory is not entered' -r
complete -c ollm-discover -n "__fish_ollm_discover_needs_command" -s t -l type -d 'Report only this type (repeatable) [default: file and symlink]' -r -f -a "file\t''
directory\t''
symlink\t''"
complete -c ollm-discover -n "__fish_ollm_discover_needs_command" -s L -l follow -d 'Follow symbolic links (a link back to an ancestor is reported, not followed)'
complete -c ollm-discover -n "__fish_ollm_discover_needs_command" -l no-hidden -d 'Skip names starting with a dot'
complete -c ollm-discover -n "__fish_ollm_discover_needs_command" -l hidden -d 'List names starting with a dot (the default)'
complete -c ollm-discover -n "__fish_ollm_discover_needs_command" -s p -l paths -d 'Print relative paths, one a line, instead of NDJSON entries'
complete -c ollm-discover -n "__fish_ollm_discover_needs_command" -s 0 -l null -d 'End each path with NUL instead of a newline (with --paths)'
complete -c ollm-discover -n "__fish_ollm_discover_needs_command" -s s -l sort -d 'Sort by relative path, byte by byte (git\'s order)'
complete -c ollm-discover -n "__fish_ollm_discover_needs_command" -l no-cache -d 'Walk the tree even if a cached listing of it is still valid [config: services.fileDiscovery.cache, default true]'
complete -c ollm-discover -n "__fish_ollm_discover_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ollm-discover -n "__fish_ollm_discover_needs_command" -s V -l version -d 'Print version'
complete -c ollm-discover -n "__fish_ollm_discover_needs_command" -a "watch" -d 'Watch the tree and print NDJSON events `{event, path, relativePath, type}` (event: add, change, unlink) for paths the listing would show'
complete -c ollm-discover -n "__fish_ollm_discover_needs_command" -a "config" -d 'Print the effective configuration (JSON), or every key with its origin'
complete -c ollm-discover -n "__fish_ollm_discover_needs_command" -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ollm-discover -n "__fish_ollm_discover_using_subcommand watch" -l max-depth -d 'Directory levels entered below the root (0: only the root\'s own entries), or `unlimited` [config: services.fileDiscovery.maxDepth, default 10]' -r
complete -c ollm-discover -n "__fish_ollm_discover_using_subcommand watch" -s g -l include -d 'Report only entries matching this glob (repeatable). Without `/` it matches a name at any depth; with `/`, the path below the root' -r
complete -c ollm-discover -n "__fish_ollm_discover_using_subcommand watch" -s E -l exclude -d 'Skip entries matching this glob (repeatable); a matching directory is not entered' -r
complete -c ollm-discover -n "__fish_ollm_discover_using_subcommand watch" -s t -l type -d 'Report only this type (repeatable) [default: file and symlink]' -r -f -a "file\t''
directory\t''
symlink\t''"
complete -c ollm-discover -n "__fish_ollm_discover_using_subcommand watch" -l debounce-ms -d 'Quiet time before a burst of changes is reported [config: services.fileDiscovery.debounceMs, default 100]' -r
complete -c ollm-discover -n "__fish_ollm_discover_using_subcommand watch" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-discover -n "__fish_ollm_discover_using_subcommand watch" -s L -l follow -d 'Follow symbolic links (a link back to an ancestor is reported, not followed)'
complete -c ollm-discover -n "__fish_ollm_discover_using_subcommand watch" -l no-hidden -d 'Skip names starting with a dot'
complete -c ollm-discover -n "__fish_ollm_discover_using_subcommand watch" -l hidden -d 'List names starting with a dot (the default)'
complete -c ollm-discover -n "__fish_ollm_discover_using_subcommand watch" -l ready -d 'Print `{"event":"ready",…}` once the watch is in place'
complete -c ollm-discover -n "__fish_ollm_discover_using_subcommand watch" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ollm-discover -n "__fish_ollm_discover_using_subcommand config" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-discover -n "__fish_ollm_discover_using_subcommand config" -l show-origin -d 'Show every key with its value and where it came from (default, a file, an environment variable or a flag), like `git config --show-origin`'
complete -c ollm-discover -n "__fish_ollm_discover_using_subcommand config" -s h -l help -d 'Print help'
complete -c ollm-discover -n "__fish_ollm_discover_using_subcommand help; and not __fish_seen_subcommand_from watch config help" -f -a "watch" -d 'Watch the tree and print NDJSON events `{event, path, relativePath, type}` (event: add, change, unlink) for paths the listing would show'
complete -c ollm-discover -n "__fish_ollm_discover_using_subcommand help; and not __fish_seen_subcommand_from watch config help" -f -a "config" -d 'Print the effective configuration (JSON), or every key with its origin'
complete -c ollm-discover -n "__fish_ollm_discover_using_subcommand help; and not __fish_seen_subcommand_from watch config help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
