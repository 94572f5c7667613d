
use builtin;
use str;

set edit:completion:arg-completer[ollm-checkpoint] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'ollm-checkpoint'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'ollm-checkpoint'= {
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand snapshot 'Snapshot the work tree as the session''s next turn (or --turn N). Prints {"sessionId","turn","root","files","changed","bytesStored", "notRestorable","watched","elapsedMs"}'
            cand restore 'Restore the session''s files to turn N (three-way: conflicts are listed and nothing changes without --force). Exit 1 at a conflict'
            cand diff 'Show what changed in turn N (against the snapshot before it) as unified diffs: JSON, or --patch for the diff text'
            cand list 'List the session''s checkpoints: a table at a terminal, JSON piped'
            cand gc 'Apply the disk budget now: drop the oldest turns while the store is over services.checkpoint.budgetBytes, and remove unnamed objects'
            cand config 'Print the effective configuration (JSON), or every key with its origin'
            cand watch 'Run the watcher of a work tree (Linux) that snapshots ask what changed when services.checkpoint.watch is on. A snapshot starts it in the background; it exits after 15 minutes without a question'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ollm-checkpoint;snapshot'= {
            cand --session 'The session: its id, a unique prefix of it (4+ characters) or its title. A whole id need not be in the session store (a runtime may checkpoint before it records)'
            cand --turn 'The turn number (default: one after the session''s last checkpoint)'
            cand --dir 'The work tree (default: the current directory)'
            cand --path 'Also cover this path (relative to the work tree), even if ignored (those the session''s recorded tool calls named are covered without it). Repeatable'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --last 'The most recently active session'
            cand --allow-large 'Take $HOME, / or a tree over services.checkpoint.maxTreeBytes anyway'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm-checkpoint;restore'= {
            cand --session 'The session: its id, a unique prefix of it (4+ characters) or its title. A whole id need not be in the session store (a runtime may checkpoint before it records)'
            cand --turn 'The turn to go back to'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --last 'The most recently active session'
            cand --dry-run 'Print the plan (what would be written, deleted, left alone, and the conflicts) and change nothing'
            cand --force 'Restore the conflicting paths too (the snapshot taken first keeps what they held: `undoTurn`)'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm-checkpoint;diff'= {
            cand --session 'The session: its id, a unique prefix of it (4+ characters) or its title. A whole id need not be in the session store (a runtime may checkpoint before it records)'
            cand --turn 'The turn whose changes to show'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --last 'The most recently active session'
            cand --patch 'Print the unified diff text instead of JSON'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm-checkpoint;list'= {
            cand --session 'The session: its id, a unique prefix of it (4+ characters) or its title. A whole id need not be in the session store (a runtime may checkpoint before it records)'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --last 'The most recently active session'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm-checkpoint;gc'= {
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm-checkpoint;config'= {
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --show-origin 'Show every key with its value and where it came from (default, a file, an environment variable or a flag), like `git config --show-origin`'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm-checkpoint;watch'= {
            cand --dir 'The work tree to watch'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm-checkpoint;help'= {
            cand snapshot 'Snapshot the work tree as the session''s next turn (or --turn N). Prints {"sessionId","turn","root","files","changed","bytesStored", "notRestorable","watched","elapsedMs"}'
            cand restore 'Restore the session''s files to turn N (three-way: conflicts are listed and nothing changes without --force). Exit 1 at a conflict'
            cand diff 'Show what changed in turn N (against the snapshot before it) as unified diffs: JSON, or --patch for the diff text'
            cand list 'List the session''s checkpoints: a table at a terminal, JSON piped'
            cand gc 'Apply the disk budget now: drop the oldest turns while the store is over services.checkpoint.budgetBytes, and remove unnamed objects'
            cand config 'Print the effective configuration (JSON), or every key with its origin'
            cand watch 'Run the watcher of a work tree (Linux) that snapshots ask what changed when services.checkpoint.watch is on. A snapshot starts it in the background; it exits after 15 minutes without a question'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ollm-checkpoint;help;snapshot'= {
        }
        &'ollm-checkpoint;help;restore'= {
        }
        &'ollm-checkpoint;help;diff'= {
        }
        &'ollm-checkpoint;help;list'= {
        }
        &'ollm-checkpoint;help;gc'= {
        }
        &'ollm-checkpoint;help;config'= {
        }
        &'ollm-checkpoint;help;watch'= {
        }
        &'ollm-checkpoint;help;help'= {
        }
    ]
    $completions[$command]
}
