
use builtin;
use str;

set edit:completion:arg-completer[ollm-loopcheck] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'ollm-loopcheck'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'ollm-loopcheck'= {
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --state 'Incremental mode: continue from the detector state in FILE (created when missing), apply this call''s events, save the state. The verdict is the first loop this call''s events report'
            cand --input-format 'The input format: NDJSON events, a session document, or auto (decided by the input itself)'
            cand --format 'Deprecated spelling of --input-format (`--format` names the output format in every other program)'
            cand --session 'Read this stored session (ollm-session) instead of INPUT: its id, a unique prefix of it (4+ characters) or its title'
            cand --max-turns 'Report a loop on the first turn beyond N (services.loopDetection.maxTurns)'
            cand --repeat-threshold 'Repeats that make a loop, at least 2 (services.loopDetection.repeatThreshold)'
            cand --similarity-threshold 'Output similarity ratio, in (0, 1], at which outputs count as repeats (services.loopDetection.similarityThreshold)'
            cand --content-chunk-size 'The fewest characters, 10 to 500, that the occurrences of a passage repeated within one output cover together for it to count (services.loopDetection.contentChunkSize)'
            cand --content-repeat-threshold 'Occurrences in a row of one passage, numbers aside, that make a repeated-content loop, 0 to 50; below 2 turns it off (services.loopDetection.contentRepeatThreshold)'
            cand --warnings-before-stop 'Reports given as `warn` since the user last spoke before the next is a `stop`, 0 to 100; 0 makes every report a stop (services.loopDetection.warningsBeforeStop)'
            cand --stream 'Read NDJSON events as they come and print a verdict line (flushed) as soon as a loop is found, then keep reading; at the end of input, print the quiet verdict if nothing was found'
            cand --warn-only 'Print the verdict but exit 0 even at a `stop`, for callers that only nudge the model (a `warn` exits 0 anyway)'
            cand --last 'Read the most recently active stored session instead of INPUT'
            cand --here 'With --session or --last, only sessions made in this workspace (the git top level, else the current directory); alone, the latest of them'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand config 'Print the effective configuration (JSON), or every key with its origin'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ollm-loopcheck;config'= {
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --show-origin 'Show every key with its value and where it came from (default, a file, an environment variable or a flag), like `git config --show-origin`'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm-loopcheck;help'= {
            cand config 'Print the effective configuration (JSON), or every key with its origin'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ollm-loopcheck;help;config'= {
        }
        &'ollm-loopcheck;help;help'= {
        }
    ]
    $completions[$command]
}
