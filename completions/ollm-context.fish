# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_ollm_context_global_optspecs
    string join \n config= session= file= h/help V/version
end

function __fish_ollm_context_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_ollm_context_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_ollm_context_using_subcommand
    set -l cmd (__fish_ollm_context_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c ollm-context -n "__fish_ollm_context_needs_command" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-context -n "__fish_ollm_context_needs_command" -l session -d 'Use the per-session store of this session (a UUID)' -r
complete -c ollm-context -n "__fish_ollm_context_needs_command" -l file -d 'Use this store file' -r -F
complete -c ollm-context -n "__fish_ollm_context_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ollm-context -n "__fish_ollm_context_needs_command" -s V -l version -d 'Print version'
complete -c ollm-context -n "__fish_ollm_context_needs_command" -f -a "add" -d 'Add an entry, or replace the entry with this key (it keeps its place in insertion order). Content comes from CONTENT, `-` (stdin), or --from-file. Prints `{"added":KEY,"replaced":BOOL,"store":PATH}`'
complete -c ollm-context -n "__fish_ollm_context_needs_command" -f -a "remove" -d 'Remove an entry (alias: delete); exit 3 when there is none, unless --missing-ok. Prints `{"removed":N,"keys":[…],"store":PATH}`'
complete -c ollm-context -n "__fish_ollm_context_needs_command" -f -a "clear" -d 'Remove every entry, or only those of one source. Prints `{"removed":N,"keys":[…],"store":PATH}`'
complete -c ollm-context -n "__fish_ollm_context_needs_command" -f -a "list" -d 'List the live entries in insertion order: a table at a terminal, a JSON array when piped'
complete -c ollm-context -n "__fish_ollm_context_needs_command" -f -a "get" -d 'Print one entry as JSON (exit 3 when missing or expired)'
complete -c ollm-context -n "__fish_ollm_context_needs_command" -f -a "prompt" -d 'Print the system-prompt additions: one markdown section (`## KEY`, blank line, content) per live entry, highest priority first, ties in insertion order. Nothing when the store is empty'
complete -c ollm-context -n "__fish_ollm_context_needs_command" -f -a "config" -d 'Print the effective configuration (JSON), or every key with its origin'
complete -c ollm-context -n "__fish_ollm_context_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ollm-context -n "__fish_ollm_context_using_subcommand add" -l from-file -d 'Read the content from this file' -r
complete -c ollm-context -n "__fish_ollm_context_using_subcommand add" -l priority -d 'Higher priorities come first in the prompt' -r
complete -c ollm-context -n "__fish_ollm_context_using_subcommand add" -l source -d 'Who added the entry (`clear --source` removes one source\'s entries)' -r -f -a "hook\t''
extension\t''
user\t''
system\t''"
complete -c ollm-context -n "__fish_ollm_context_using_subcommand add" -l ttl -d 'Drop the entry after this long: 30s, 10m, 2h, 1d, 1h30m, or seconds' -r
complete -c ollm-context -n "__fish_ollm_context_using_subcommand add" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-context -n "__fish_ollm_context_using_subcommand add" -l session -d 'Use the per-session store of this session (a UUID)' -r
complete -c ollm-context -n "__fish_ollm_context_using_subcommand add" -l file -d 'Use this store file' -r -F
complete -c ollm-context -n "__fish_ollm_context_using_subcommand add" -s h -l help -d 'Print help'
complete -c ollm-context -n "__fish_ollm_context_using_subcommand remove" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-context -n "__fish_ollm_context_using_subcommand remove" -l session -d 'Use the per-session store of this session (a UUID)' -r
complete -c ollm-context -n "__fish_ollm_context_using_subcommand remove" -l file -d 'Use this store file' -r -F
complete -c ollm-context -n "__fish_ollm_context_using_subcommand remove" -l missing-ok -d 'Exit 0 even when the key is not in the store'
complete -c ollm-context -n "__fish_ollm_context_using_subcommand remove" -s h -l help -d 'Print help'
complete -c ollm-context -n "__fish_ollm_context_using_subcommand clear" -l source -d 'Remove only the entries of this source' -r -f -a "hook\t''
extension\t''
user\t''
system\t''"
complete -c ollm-context -n "__fish_ollm_context_using_subcommand clear" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-context -n "__fish_ollm_context_using_subcommand clear" -l session -d 'Use the per-session store of this session (a UUID)' -r
complete -c ollm-context -n "__fish_ollm_context_using_subcommand clear" -l file -d 'Use this store file' -r -F
complete -c ollm-context -n "__fish_ollm_context_using_subcommand clear" -s h -l help -d 'Print help'
complete -c ollm-context -n "__fish_ollm_context_using_subcommand list" -l source -d 'List only the entries of this source' -r -f -a "hook\t''
extension\t''
user\t''
system\t''"
complete -c ollm-context -n "__fish_ollm_context_using_subcommand list" -l format -d 'The output format [default: table at a terminal, json when piped]' -r -f -a "json\t'One pretty JSON document'
ndjson\t'One compact JSON object a line'
table\t'Aligned columns under a header row, fitted to the terminal'
text\t'Tab-separated cells, one item a line, no header'"
complete -c ollm-context -n "__fish_ollm_context_using_subcommand list" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-context -n "__fish_ollm_context_using_subcommand list" -l session -d 'Use the per-session store of this session (a UUID)' -r
complete -c ollm-context -n "__fish_ollm_context_using_subcommand list" -l file -d 'Use this store file' -r -F
complete -c ollm-context -n "__fish_ollm_context_using_subcommand list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ollm-context -n "__fish_ollm_context_using_subcommand get" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-context -n "__fish_ollm_context_using_subcommand get" -l session -d 'Use the per-session store of this session (a UUID)' -r
complete -c ollm-context -n "__fish_ollm_context_using_subcommand get" -l file -d 'Use this store file' -r -F
complete -c ollm-context -n "__fish_ollm_context_using_subcommand get" -l content -d 'Print only the content, ending in a newline (one is added when the content has none)'
complete -c ollm-context -n "__fish_ollm_context_using_subcommand get" -s h -l help -d 'Print help'
complete -c ollm-context -n "__fish_ollm_context_using_subcommand prompt" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-context -n "__fish_ollm_context_using_subcommand prompt" -l session -d 'Use the per-session store of this session (a UUID)' -r
complete -c ollm-context -n "__fish_ollm_context_using_subcommand prompt" -l file -d 'Use this store file' -r -F
complete -c ollm-context -n "__fish_ollm_context_using_subcommand prompt" -l json -d 'Print the entries in prompt order as a JSON array instead'
complete -c ollm-context -n "__fish_ollm_context_using_subcommand prompt" -s h -l help -d 'Print help'
complete -c ollm-context -n "__fish_ollm_context_using_subcommand config" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-context -n "__fish_ollm_context_using_subcommand config" -l session -d 'Use the per-session store of this session (a UUID)' -r
complete -c ollm-context -n "__fish_ollm_context_using_subcommand config" -l file -d 'Use this store file' -r -F
complete -c ollm-context -n "__fish_ollm_context_using_subcommand config" -l show-origin -d 'Show every key with its value and where it came from (default, a file, an environment variable or a flag), like `git config --show-origin`'
complete -c ollm-context -n "__fish_ollm_context_using_subcommand config" -s h -l help -d 'Print help'
complete -c ollm-context -n "__fish_ollm_context_using_subcommand help; and not __fish_seen_subcommand_from add remove clear list get prompt config help" -f -a "add" -d 'Add an entry, or replace the entry with this key (it keeps its place in insertion order). Content comes from CONTENT, `-` (stdin), or --from-file. Prints `{"added":KEY,"replaced":BOOL,"store":PATH}`'
complete -c ollm-context -n "__fish_ollm_context_using_subcommand help; and not __fish_seen_subcommand_from add remove clear list get prompt config help" -f -a "remove" -d 'Remove an entry (alias: delete); exit 3 when there is none, unless --missing-ok. Prints `{"removed":N,"keys":[…],"store":PATH}`'
complete -c ollm-context -n "__fish_ollm_context_using_subcommand help; and not __fish_seen_subcommand_from add remove clear list get prompt config help" -f -a "clear" -d 'Remove every entry, or only those of one source. Prints `{"removed":N,"keys":[…],"store":PATH}`'
complete -c ollm-context -n "__fish_ollm_context_using_subcommand help; and not __fish_seen_subcommand_from add remove clear list get prompt config help" -f -a "list" -d 'List the live entries in insertion order: a table at a terminal, a JSON array when piped'
complete -c ollm-context -n "__fish_ollm_context_using_subcommand help; and not __fish_seen_subcommand_from add remove clear list get prompt config help" -f -a "get" -d 'Print one entry as JSON (exit 3 when missing or expired)'
complete -c ollm-context -n "__fish_ollm_context_using_subcommand help; and not __fish_seen_subcommand_from add remove clear list get prompt config help" -f -a "prompt" -d 'Print the system-prompt additions: one markdown section (`## KEY`, blank line, content) per live entry, highest priority first, ties in insertion order. Nothing when the store is empty'
complete -c ollm-context -n "__fish_ollm_context_using_subcommand help; and not __fish_seen_subcommand_from add remove clear list get prompt config help" -f -a "config" -d 'Print the effective configuration (JSON), or every key with its origin'
complete -c ollm-context -n "__fish_ollm_context_using_subcommand help; and not __fish_seen_subcommand_from add remove clear list get prompt config help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
