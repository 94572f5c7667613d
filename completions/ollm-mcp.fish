# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_ollm_mcp_global_optspecs
    string join \n config= allow-write h/help V/version
end

function __fish_ollm_mcp_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_ollm_mcp_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_ollm_mcp_using_subcommand
    set -l cmd (__fish_ollm_mcp_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c ollm-mcp -n "__fish_ollm_mcp_needs_command" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-mcp -n "__fish_ollm_mcp_needs_command" -l allow-write -d 'Offer the writing tools too: record_message (into a session) and add_context (into the workspace\'s context)'
complete -c ollm-mcp -n "__fish_ollm_mcp_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ollm-mcp -n "__fish_ollm_mcp_needs_command" -s V -l version -d 'Print version'
complete -c ollm-mcp -n "__fish_ollm_mcp_needs_command" -f -a "config" -d 'Print the effective configuration (JSON), or every key with its origin'
complete -c ollm-mcp -n "__fish_ollm_mcp_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ollm-mcp -n "__fish_ollm_mcp_using_subcommand config" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-mcp -n "__fish_ollm_mcp_using_subcommand config" -l show-origin -d 'Show every key with its value and where it came from (default, a file, an environment variable or a flag), like `git config --show-origin`'
complete -c ollm-mcp -n "__fish_ollm_mcp_using_subcommand config" -s h -l help -d 'Print help'
complete -c ollm-mcp -n "__fish_ollm_mcp_using_subcommand help; and not __fish_seen_subcommand_from config help" -f -a "config" -d 'Print the effective configuration (JSON), or every key with its origin'
complete -c ollm-mcp -n "__fish_ollm_mcp_using_subcommand help; and not __fish_seen_subcommand_from config help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
