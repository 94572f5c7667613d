# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_ollm_env_global_optspecs
    string join \n config= h/help V/version
end

function __fish_ollm_env_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_ollm_env_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_ollm_env_using_subcommand
    set -l cmd (__fish_ollm_env_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c ollm-env -n "__fish_ollm_env_needs_command" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-env -n "__fish_ollm_env_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ollm-env -n "__fish_ollm_env_needs_command" -s V -l version -d 'Print version'
complete -c ollm-env -n "__fish_ollm_env_needs_command" -f -a "run" -d 'Run CMD with the sanitized environment; its exit code passes through (128+N if it dies of signal N; 127 if CMD is not found, 126 if it cannot be executed, or if the --redact-output supervisor cannot make itself unreadable to it)'
complete -c ollm-env -n "__fish_ollm_env_needs_command" -f -a "report" -d 'Print every variable name kept and removed with the rule that decided it: a table at a terminal, JSON `{kept, removed, set}` when piped. Values are never printed'
complete -c ollm-env -n "__fish_ollm_env_needs_command" -f -a "explain" -d 'Explain the decision for one variable name, as JSON, and for a removed one how to pass it anyway'
complete -c ollm-env -n "__fish_ollm_env_needs_command" -f -a "config" -d 'Print the effective configuration (JSON), or every key with its origin'
complete -c ollm-env -n "__fish_ollm_env_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ollm-env -n "__fish_ollm_env_using_subcommand run" -l allow -d 'Also keep this variable (exact name, or a glob such as \'MYAPP_*\'). An exact name is kept even when its value looks like a credential' -r
complete -c ollm-env -n "__fish_ollm_env_using_subcommand run" -l deny -d 'Also remove variables matching this glob (case-insensitive)' -r
complete -c ollm-env -n "__fish_ollm_env_using_subcommand run" -l env-file -d 'Set variables from this file in the tool\'s environment (after sanitizing): the dotenv format of docker and compose (NAME=VALUE lines, # comments, quotes). For values that must not appear on a command line. `-` reads stdin' -r
complete -c ollm-env -n "__fish_ollm_env_using_subcommand run" -l set -d 'Set NAME=VALUE in the tool\'s environment (after sanitizing; after --env-file). The value is on ollm-env\'s command line, which every local user can read (ps): use --env-file for a secret' -r
complete -c ollm-env -n "__fish_ollm_env_using_subcommand run" -l checkpoint -d 'Snapshot the current directory\'s files before and after the tool runs, as turns of this session\'s checkpoints (`ollm checkpoint`): what the tool changed can then be diffed and restored. The session: its id, a unique prefix of it or its title' -r
complete -c ollm-env -n "__fish_ollm_env_using_subcommand run" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-env -n "__fish_ollm_env_using_subcommand run" -l replace-defaults -d 'Use only the configured and given lists: every built-in list (the spec\'s allow and deny lists, the extended and the connection-string deny lists) is dropped. Values are still checked unless --no-scan-values'
complete -c ollm-env -n "__fish_ollm_env_using_subcommand run" -l no-scan-values -d 'Do not remove variables because of what their value looks like'
complete -c ollm-env -n "__fish_ollm_env_using_subcommand run" -l redact-output -d 'Replace removed secret values and credential-shaped text in the tool\'s stdout and stderr with [REDACTED]. Encoded forms (base64, hex) are not recognised'
complete -c ollm-env -n "__fish_ollm_env_using_subcommand run" -s h -l help -d 'Print help'
complete -c ollm-env -n "__fish_ollm_env_using_subcommand report" -l allow -d 'Also keep this variable (exact name, or a glob such as \'MYAPP_*\'). An exact name is kept even when its value looks like a credential' -r
complete -c ollm-env -n "__fish_ollm_env_using_subcommand report" -l deny -d 'Also remove variables matching this glob (case-insensitive)' -r
complete -c ollm-env -n "__fish_ollm_env_using_subcommand report" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-env -n "__fish_ollm_env_using_subcommand report" -l replace-defaults -d 'Use only the configured and given lists: every built-in list (the spec\'s allow and deny lists, the extended and the connection-string deny lists) is dropped. Values are still checked unless --no-scan-values'
complete -c ollm-env -n "__fish_ollm_env_using_subcommand report" -l no-scan-values -d 'Do not remove variables because of what their value looks like'
complete -c ollm-env -n "__fish_ollm_env_using_subcommand report" -s h -l help -d 'Print help'
complete -c ollm-env -n "__fish_ollm_env_using_subcommand explain" -l allow -d 'Also keep this variable (exact name, or a glob such as \'MYAPP_*\'). An exact name is kept even when its value looks like a credential' -r
complete -c ollm-env -n "__fish_ollm_env_using_subcommand explain" -l deny -d 'Also remove variables matching this glob (case-insensitive)' -r
complete -c ollm-env -n "__fish_ollm_env_using_subcommand explain" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-env -n "__fish_ollm_env_using_subcommand explain" -l replace-defaults -d 'Use only the configured and given lists: every built-in list (the spec\'s allow and deny lists, the extended and the connection-string deny lists) is dropped. Values are still checked unless --no-scan-values'
complete -c ollm-env -n "__fish_ollm_env_using_subcommand explain" -l no-scan-values -d 'Do not remove variables because of what their value looks like'
complete -c ollm-env -n "__fish_ollm_env_using_subcommand explain" -s h -l help -d 'Print help'
complete -c ollm-env -n "__fish_ollm_env_using_subcommand config" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-env -n "__fish_ollm_env_using_subcommand config" -l show-origin -d 'Show every key with its value and where it came from (default, a file, an environment variable or a flag), like `git config --show-origin`'
complete -c ollm-env -n "__fish_ollm_env_using_subcommand config" -s h -l help -d 'Print help'
complete -c ollm-env -n "__fish_ollm_env_using_subcommand help; and not __fish_seen_subcommand_from run report explain config help" -f -a "run" -d 'Run CMD with the sanitized environment; its exit code passes through (128+N if it dies of signal N; 127 if CMD is not found, 126 if it cannot be executed, or if the --redact-output supervisor cannot make itself unreadable to it)'
complete -c ollm-env -n "__fish_ollm_env_using_subcommand help; and not __fish_seen_subcommand_from run report explain config help" -f -a "report" -d 'Print every variable name kept and removed with the rule that decided it: a table at a terminal, JSON `{kept, removed, set}` when piped. Values are never printed'
complete -c ollm-env -n "__fish_ollm_env_using_subcommand help; and not __fish_seen_subcommand_from run report explain config help" -f -a "explain" -d 'Explain the decision for one variable name, as JSON, and for a removed one how to pass it anyway'
complete -c ollm-env -n "__fish_ollm_env_using_subcommand help; and not __fish_seen_subcommand_from run report explain config help" -f -a "config" -d 'Print the effective configuration (JSON), or every key with its origin'
complete -c ollm-env -n "__fish_ollm_env_using_subcommand help; and not __fish_seen_subcommand_from run report explain config help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
