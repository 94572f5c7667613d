# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_ollm_checkpoint_global_optspecs
    string join \n config= h/help V/version
end

function __fish_ollm_checkpoint_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_ollm_checkpoint_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_ollm_checkpoint_using_subcommand
    set -l cmd (__fish_ollm_checkpoint_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c ollm-checkpoint -n "__fish_ollm_checkpoint_needs_command" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-checkpoint -n "__fish_ollm_checkpoint_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ollm-checkpoint -n "__fish_ollm_checkpoint_needs_command" -s V -l version -d 'Print version'
complete -c ollm-checkpoint -n "__fish_ollm_checkpoint_needs_command" -f -a "snapshot" -d 'Snapshot the work tree as the session\'s next turn (or --turn N). Prints {"sessionId","turn","root","files","changed","bytesStored", "notRestorable","watched","elapsedMs"}'
complete -c ollm-checkpoint -n "__fish_ollm_checkpoint_needs_command" -f -a "restore" -d 'Restore the session\'s files to turn N (three-way: conflicts are listed and nothing changes without --force). Exit 1 at a conflict'
complete -c ollm-checkpoint -n "__fish_ollm_checkpoint_needs_command" -f -a "diff" -d 'Show what changed in turn N (against the snapshot before it) as unified diffs: JSON, or --patch for the diff text'
complete -c ollm-checkpoint -n "__fish_ollm_checkpoint_needs_command" -f -a "list" -d 'List the session\'s checkpoints: a table at a terminal, JSON piped'
complete -c ollm-checkpoint -n "__fish_ollm_checkpoint_needs_command" -f -a "gc" -d 'Apply the disk budget now: drop the oldest turns while the store is over services.checkpoint.budgetBytes, and remove unnamed objects'
complete -c ollm-checkpoint -n "__fish_ollm_checkpoint_needs_command" -f -a "config" -d 'Print the effective configuration (JSON), or every key with its origin'
complete -c ollm-checkpoint -n "__fish_ollm_checkpoint_needs_command" -f -a "watch" -d 'Run the watcher of a work tree (Linux) that snapshots ask what changed when services.checkpoint.watch is on. A snapshot starts it in the background; it exits after 15 minutes without a question'
complete -c ollm-checkpoint -n "__fish_ollm_checkpoint_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ollm-checkpoint -n "__fish_ollm_checkpoint_using_subcommand snapshot" -l session -d 'The session: its id, a unique prefix of it (4+ characters) or its title. A whole id need not be in the session store (a runtime may checkpoint before it records)' -r
complete -c ollm-checkpoint -n "__fish_ollm_checkpoint_using_subcommand snapshot" -l turn -d 'The turn number (default: one after the session\'s last checkpoint)' -r
complete -c ollm-checkpoint -n "__fish_ollm_checkpoint_using_subcommand snapshot" -l dir -d 'The work tree (default: the current directory)' -r -F
complete -c ollm-checkpoint -n "__fish_ollm_checkpoint_using_subcommand snapshot" -l path -d 'Also cover this path (relative to the work tree), even if ignored (those the session\'s recorded tool calls named are covered without it). Repeatable' -r -F
complete -c ollm-checkpoint -n "__fish_ollm_checkpoint_using_subcommand snapshot" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-checkpoint -n "__fish_ollm_checkpoint_using_subcommand snapshot" -l last -d 'The most recently active session'
complete -c ollm-checkpoint -n "__fish_ollm_checkpoint_using_subcommand snapshot" -l allow-large -d 'Take $HOME, / or a tree over services.checkpoint.maxTreeBytes anyway'
complete -c ollm-checkpoint -n "__fish_ollm_checkpoint_using_subcommand snapshot" -s h -l help -d 'Print help'
complete -c ollm-checkpoint -n "__fish_ollm_checkpoint_using_subcommand restore" -l session -d 'The session: its id, a unique prefix of it (4+ characters) or its title. A whole id need not be in the session store (a runtime may checkpoint before it records)' -r
complete -c ollm-checkpoint -n "__fish_ollm_checkpoint_using_subcommand restore" -l turn -d 'The turn to go back to' -r
complete -c ollm-checkpoint -n "__fish_ollm_checkpoint_using_subcommand restore" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-checkpoint -n "__fish_ollm_checkpoint_using_subcommand restore" -l last -d 'The most recently active session'
complete -c ollm-checkpoint -n "__fish_ollm_checkpoint_using_subcommand restore" -l dry-run -d 'Print the plan (what would be written, deleted, left alone, and the conflicts) and change nothing'
complete -c ollm-checkpoint -n "__fish_ollm_checkpoint_using_subcommand restore" -l force -d 'Restore the conflicting paths too (the snapshot taken first keeps what they held: `undoTurn`)'
complete -c ollm-checkpoint -n "__fish_ollm_checkpoint_using_subcommand restore" -s h -l help -d 'Print help'
complete -c ollm-checkpoint -n "__fish_ollm_checkpoint_using_subcommand diff" -l session -d 'The session: its id, a unique prefix of it (4+ characters) or its title. A whole id need not be in the session store (a runtime may checkpoint before it records)' -r
complete -c ollm-checkpoint -n "__fish_ollm_checkpoint_using_subcommand diff" -l turn -d 'The turn whose changes to show' -r
complete -c ollm-checkpoint -n "__fish_ollm_checkpoint_using_subcommand diff" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-checkpoint -n "__fish_ollm_checkpoint_using_subcommand diff" -l last -d 'The most recently active session'
complete -c ollm-checkpoint -n "__fish_ollm_checkpoint_using_subcommand diff" -l patch -d 'Print the unified diff text instead of JSON'
complete -c ollm-checkpoint -n "__fish_ollm_checkpoint_using_subcommand diff" -s h -l help -d 'Print help'
complete -c ollm-checkpoint -n "__fish_ollm_checkpoint_using_subcommand list" -l session -d 'The session: its id, a unique prefix of it (4+ characters) or its title. A whole id need not be in the session store (a runtime may checkpoint before it records)' -r
complete -c ollm-checkpoint -n "__fish_ollm_checkpoint_using_subcommand list" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-checkpoint -n "__fish_ollm_checkpoint_using_subcommand list" -l last -d 'The most recently active session'
complete -c ollm-checkpoint -n "__fish_ollm_checkpoint_using_subcommand list" -s h -l help -d 'Print help'
complete -c ollm-checkpoint -n "__fish_ollm_checkpoint_using_subcommand gc" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-checkpoint -n "__fish_ollm_checkpoint_using_subcommand gc" -s h -l help -d 'Print help'
complete -c ollm-checkpoint -n "__fish_ollm_checkpoint_using_subcommand config" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-checkpoint -n "__fish_ollm_checkpoint_using_subcommand config" -l show-origin -d 'Show every key with its value and where it came from (default, a file, an environment variable or a flag), like `git config --show-origin`'
complete -c ollm-checkpoint -n "__fish_ollm_checkpoint_using_subcommand config" -s h -l help -d 'Print help'
complete -c ollm-checkpoint -n "__fish_ollm_checkpoint_using_subcommand watch" -l dir -d 'The work tree to watch' -r -F
complete -c ollm-checkpoint -n "__fish_ollm_checkpoint_using_subcommand watch" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-checkpoint -n "__fish_ollm_checkpoint_using_subcommand watch" -s h -l help -d 'Print help'
complete -c ollm-checkpoint -n "__fish_ollm_checkpoint_using_subcommand help; and not __fish_seen_subcommand_from snapshot restore diff list gc config watch help" -f -a "snapshot" -d 'Snapshot the work tree as the session\'s next turn (or --turn N). Prints {"sessionId","turn","root","files","changed","bytesStored", "notRestorable","watched","elapsedMs"}'
complete -c ollm-checkpoint -n "__fish_ollm_checkpoint_using_subcommand help; and not __fish_seen_subcommand_from snapshot restore diff list gc config watch help" -f -a "restore" -d 'Restore the session\'s files to turn N (three-way: conflicts are listed and nothing changes without --force). Exit 1 at a conflict'
complete -c ollm-checkpoint -n "__fish_ollm_checkpoint_using_subcommand help; and not __fish_seen_subcommand_from snapshot restore diff list gc config watch help" -f -a "diff" -d 'Show what changed in turn N (against the snapshot before it) as unified diffs: JSON, or --patch for the diff text'
complete -c ollm-checkpoint -n "__fish_ollm_checkpoint_using_subcommand help; and not __fish_seen_subcommand_from snapshot restore diff list gc config watch help" -f -a "list" -d 'List the session\'s checkpoints: a table at a terminal, JSON piped'
complete -c ollm-checkpoint -n "__fish_ollm_checkpoint_using_subcommand help; and not __fish_seen_subcommand_from snapshot restore diff list gc config watch help" -f -a "gc" -d 'Apply the disk budget now: drop the oldest turns while the store is over services.checkpoint.budgetBytes, and remove unnamed objects'
complete -c ollm-checkpoint -n "__fish_ollm_checkpoint_using_subcommand help; and not __fish_seen_subcommand_from snapshot restore diff list gc config watch help" -f -a "config" -d 'Print the effective configuration (JSON), or every key with its origin'
complete -c ollm-checkpoint -n "__fish_ollm_checkpoint_using_subcommand help; and not __fish_seen_subcommand_from snapshot restore diff list gc config watch help" -f -a "watch" -d 'Run the watcher of a work tree (Linux) that snapshots ask what changed when services.checkpoint.watch is on. A snapshot starts it in the background; it exits after 15 minutes without a question'
complete -c ollm-checkpoint -n "__fish_ollm_checkpoint_using_subcommand help; and not __fish_seen_subcommand_from snapshot restore diff list gc config watch help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
