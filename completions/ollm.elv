
use builtin;
use str;

set edit:completion:arg-completer[ollm] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'ollm'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'ollm'= {
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --list 'List the tools found (name and path); JSON when piped'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand help 'Show help for ollm, or for one tool (`ollm help session`)'
            cand config 'Print the effective shared configuration, or every key with its origin'
            cand env 'Run a tool with secrets stripped from its environment'
            cand loopcheck 'Detect runaway loops in an agent''s events'
            cand context 'Keep prioritized context entries and render them as system-prompt additions'
        }
        &'ollm;help'= {
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm;config'= {
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --show-origin 'Show every key with its value and where it came from (default, a file, an environment variable or a flag), like `git config --show-origin`'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm;env'= {
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand run 'Run CMD with the sanitized environment; its exit code passes through (128+N if it dies of signal N; 127 if CMD is not found)'
            cand report 'Print, as JSON, every variable name kept and removed with the rule that decided it. Values are never printed'
            cand explain 'Explain the decision for one variable name, as JSON'
            cand config 'Print the effective configuration (JSON), or every key with its origin'
        }
        &'ollm;env;run'= {
            cand --allow 'Also keep this variable (exact name, or a glob such as ''MYAPP_*''). An exact name is kept even when its value looks like a credential'
            cand --deny 'Also remove variables matching this glob (case-insensitive)'
            cand --set 'Set NAME=VALUE in the tool''s environment (after sanitizing)'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --replace-defaults 'Use only the configured and given lists, not the spec''s defaults'
            cand --no-scan-values 'Do not remove variables because of what their value looks like'
            cand --redact-output 'Replace removed secret values and credential-shaped text in the tool''s stdout and stderr with [REDACTED]'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm;env;report'= {
            cand --allow 'Also keep this variable (exact name, or a glob such as ''MYAPP_*''). An exact name is kept even when its value looks like a credential'
            cand --deny 'Also remove variables matching this glob (case-insensitive)'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --replace-defaults 'Use only the configured and given lists, not the spec''s defaults'
            cand --no-scan-values 'Do not remove variables because of what their value looks like'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm;env;explain'= {
            cand --allow 'Also keep this variable (exact name, or a glob such as ''MYAPP_*''). An exact name is kept even when its value looks like a credential'
            cand --deny 'Also remove variables matching this glob (case-insensitive)'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --replace-defaults 'Use only the configured and given lists, not the spec''s defaults'
            cand --no-scan-values 'Do not remove variables because of what their value looks like'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm;env;config'= {
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --show-origin 'Show every key with its value and where it came from (default, a file, an environment variable or a flag), like `git config --show-origin`'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm;loopcheck'= {
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --state 'Incremental mode: continue from the detector state in FILE (created when missing), apply this call''s events, save the state. The verdict is the first loop this call''s events report'
            cand --format 'The input format'
            cand --max-turns 'Report a loop on the first turn beyond N (services.loopDetection.maxTurns)'
            cand --repeat-threshold 'Repeats that make a loop (services.loopDetection.repeatThreshold)'
            cand --similarity-threshold 'Output similarity ratio, in (0, 1], at which outputs count as repeats (services.loopDetection.similarityThreshold)'
            cand --stream 'Read NDJSON events as they come and print a verdict line (flushed) as soon as a loop is found, then keep reading; at the end of input, print the quiet verdict if nothing was found'
            cand --warn-only 'Print the verdict but exit 0 even when a loop is found, for callers that nudge the model rather than stop it'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand config 'Print the effective configuration (JSON), or every key with its origin'
        }
        &'ollm;loopcheck;config'= {
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --show-origin 'Show every key with its value and where it came from (default, a file, an environment variable or a flag), like `git config --show-origin`'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm;context'= {
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --session 'Use the per-session store of this session (a UUID)'
            cand --file 'Use this store file'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand add 'Add an entry, or replace the entry with this key (it keeps its place in insertion order). Content comes from CONTENT, `-` (stdin), or --from-file'
            cand remove 'Remove an entry (exit 3 when there is none, unless --missing-ok)'
            cand clear 'Remove every entry, or only those of one source. Prints how many went'
            cand list 'Print the live entries as a JSON array, in insertion order'
            cand get 'Print one entry as JSON (exit 3 when missing or expired)'
            cand prompt 'Print the system-prompt additions: one markdown section (`## KEY`, blank line, content) per live entry, highest priority first, ties in insertion order. Nothing when the store is empty'
            cand config 'Print the effective configuration (JSON), or every key with its origin'
        }
        &'ollm;context;add'= {
            cand --from-file 'Read the content from this file'
            cand --priority 'Higher priorities come first in the prompt'
            cand --source 'source'
            cand --ttl 'Drop the entry after this long: 30s, 10m, 2h, 1d, 1h30m, or seconds'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --session 'Use the per-session store of this session (a UUID)'
            cand --file 'Use this store file'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm;context;remove'= {
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --session 'Use the per-session store of this session (a UUID)'
            cand --file 'Use this store file'
            cand --missing-ok 'Exit 0 even when the key is not in the store'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm;context;clear'= {
            cand --source 'source'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --session 'Use the per-session store of this session (a UUID)'
            cand --file 'Use this store file'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm;context;list'= {
            cand --source 'source'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --session 'Use the per-session store of this session (a UUID)'
            cand --file 'Use this store file'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm;context;get'= {
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --session 'Use the per-session store of this session (a UUID)'
            cand --file 'Use this store file'
            cand --content 'Print only the content, as is'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm;context;prompt'= {
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --session 'Use the per-session store of this session (a UUID)'
            cand --file 'Use this store file'
            cand --json 'Print the entries in prompt order as a JSON array instead'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm;context;config'= {
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --session 'Use the per-session store of this session (a UUID)'
            cand --file 'Use this store file'
            cand --show-origin 'Show every key with its value and where it came from (default, a file, an environment variable or a flag), like `git config --show-origin`'
            cand -h 'Print help'
            cand --help 'Print help'
        }
    ]
    $completions[$command]
}
