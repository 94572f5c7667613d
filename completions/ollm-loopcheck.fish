# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_ollm_loopcheck_global_optspecs
    string join \n config= stream state= input-format= format= warn-only session= last here max-turns= repeat-threshold= similarity-threshold= content-chunk-size= content-repeat-threshold= warnings-before-stop= h/help V/version
end

function __fish_ollm_loopcheck_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_ollm_loopcheck_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_ollm_loopcheck_using_subcommand
    set -l cmd (__fish_ollm_loopcheck_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c ollm-loopcheck -n "__fish_ollm_loopcheck_needs_command" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-loopcheck -n "__fish_ollm_loopcheck_needs_command" -l state -d 'Incremental mode: continue from the detector state in FILE (created when missing), apply this call\'s events, save the state. The verdict is the first loop this call\'s events report' -r -F
complete -c ollm-loopcheck -n "__fish_ollm_loopcheck_needs_command" -l input-format -d 'The input format: NDJSON events, a session document, or auto (decided by the input itself)' -r -f -a "auto\t'A session document when the input is one JSON object with `messages` or `toolCalls`, NDJSON events otherwise'
events\t'NDJSON events, one object a line'
session\t'One session document, as `ollm-session get` prints it'"
complete -c ollm-loopcheck -n "__fish_ollm_loopcheck_needs_command" -l format -d 'Deprecated spelling of --input-format (`--format` names the output format in every other program)' -r -f -a "auto\t'A session document when the input is one JSON object with `messages` or `toolCalls`, NDJSON events otherwise'
events\t'NDJSON events, one object a line'
session\t'One session document, as `ollm-session get` prints it'"
complete -c ollm-loopcheck -n "__fish_ollm_loopcheck_needs_command" -l session -d 'Read this stored session (ollm-session) instead of INPUT: its id, a unique prefix of it (4+ characters) or its title' -r
complete -c ollm-loopcheck -n "__fish_ollm_loopcheck_needs_command" -l max-turns -d 'Report a loop on the first turn beyond N (services.loopDetection.maxTurns)' -r
complete -c ollm-loopcheck -n "__fish_ollm_loopcheck_needs_command" -l repeat-threshold -d 'Repeats that make a loop, at least 2 (services.loopDetection.repeatThreshold)' -r
complete -c ollm-loopcheck -n "__fish_ollm_loopcheck_needs_command" -l similarity-threshold -d 'Output similarity ratio, in (0, 1], at which outputs count as repeats (services.loopDetection.similarityThreshold)' -r
complete -c ollm-loopcheck -n "__fish_ollm_loopcheck_needs_command" -l content-chunk-size -d 'The fewest characters, 10 to 500, that the occurrences of a passage repeated within one output cover together for it to count (services.loopDetection.contentChunkSize)' -r
complete -c ollm-loopcheck -n "__fish_ollm_loopcheck_needs_command" -l content-repeat-threshold -d 'Occurrences in a row of one passage, numbers aside, that make a repeated-content loop, 0 to 50; below 2 turns it off (services.loopDetection.contentRepeatThreshold)' -r
complete -c ollm-loopcheck -n "__fish_ollm_loopcheck_needs_command" -l warnings-before-stop -d 'Reports given as `warn` since the user last spoke before the next is a `stop`, 0 to 100; 0 makes every report a stop (services.loopDetection.warningsBeforeStop)' -r
complete -c ollm-loopcheck -n "__fish_ollm_loopcheck_needs_command" -l stream -d 'Read NDJSON events as they come and print a verdict line (flushed) as soon as a loop is found, then keep reading; at the end of input, print the quiet verdict if nothing was found'
complete -c ollm-loopcheck -n "__fish_ollm_loopcheck_needs_command" -l warn-only -d 'Print the verdict but exit 0 even at a `stop`, for callers that only nudge the model (a `warn` exits 0 anyway)'
complete -c ollm-loopcheck -n "__fish_ollm_loopcheck_needs_command" -l last -d 'Read the most recently active stored session instead of INPUT'
complete -c ollm-loopcheck -n "__fish_ollm_loopcheck_needs_command" -l here -d 'With --session or --last, only sessions made in this workspace (the git top level, else the current directory); alone, the latest of them'
complete -c ollm-loopcheck -n "__fish_ollm_loopcheck_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ollm-loopcheck -n "__fish_ollm_loopcheck_needs_command" -s V -l version -d 'Print version'
complete -c ollm-loopcheck -n "__fish_ollm_loopcheck_needs_command" -a "config" -d 'Print the effective configuration (JSON), or every key with its origin'
complete -c ollm-loopcheck -n "__fish_ollm_loopcheck_needs_command" -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ollm-loopcheck -n "__fish_ollm_loopcheck_using_subcommand config" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-loopcheck -n "__fish_ollm_loopcheck_using_subcommand config" -l show-origin -d 'Show every key with its value and where it came from (default, a file, an environment variable or a flag), like `git config --show-origin`'
complete -c ollm-loopcheck -n "__fish_ollm_loopcheck_using_subcommand config" -s h -l help -d 'Print help'
complete -c ollm-loopcheck -n "__fish_ollm_loopcheck_using_subcommand help; and not __fish_seen_subcommand_from config help" -f -a "config" -d 'Print the effective configuration (JSON), or every key with its origin'
complete -c ollm-loopcheck -n "__fish_ollm_loopcheck_using_subcommand help; and not __fish_seen_subcommand_from config help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
