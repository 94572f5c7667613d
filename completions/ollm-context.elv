
use builtin;
use str;

set edit:completion:arg-completer[ollm-context] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'ollm-context'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'ollm-context'= {
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --session 'Use the per-session store of this session (a UUID)'
            cand --file 'Use this store file'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand add 'Add an entry, or replace the entry with this key (it keeps its place in insertion order). Content comes from CONTENT, `-` (stdin), or --from-file. Prints `{"added":KEY,"replaced":BOOL,"store":PATH}`'
            cand remove 'Remove an entry (alias: delete); exit 3 when there is none, unless --missing-ok. Prints `{"removed":N,"keys":[…],"store":PATH}`'
            cand clear 'Remove every entry, or only those of one source. Prints `{"removed":N,"keys":[…],"store":PATH}`'
            cand list 'List the live entries in insertion order: a table at a terminal, a JSON array when piped'
            cand get 'Print one entry as JSON (exit 3 when missing or expired)'
            cand prompt 'Print the system-prompt additions: one markdown section (`## KEY`, blank line, content) per live entry, highest priority first, ties in insertion order. Nothing when the store is empty'
            cand config 'Print the effective configuration (JSON), or every key with its origin'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ollm-context;add'= {
            cand --from-file 'Read the content from this file'
            cand --priority 'Higher priorities come first in the prompt'
            cand --source 'Who added the entry (`clear --source` removes one source''s entries)'
            cand --ttl 'Drop the entry after this long: 30s, 10m, 2h, 1d, 1h30m, or seconds'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --session 'Use the per-session store of this session (a UUID)'
            cand --file 'Use this store file'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm-context;remove'= {
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --session 'Use the per-session store of this session (a UUID)'
            cand --file 'Use this store file'
            cand --missing-ok 'Exit 0 even when the key is not in the store'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm-context;clear'= {
            cand --source 'Remove only the entries of this source'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --session 'Use the per-session store of this session (a UUID)'
            cand --file 'Use this store file'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm-context;list'= {
            cand --source 'List only the entries of this source'
            cand --format 'The output format [default: table at a terminal, json when piped]'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --session 'Use the per-session store of this session (a UUID)'
            cand --file 'Use this store file'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'ollm-context;get'= {
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --session 'Use the per-session store of this session (a UUID)'
            cand --file 'Use this store file'
            cand --content 'Print only the content, ending in a newline (one is added when the content has none)'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm-context;prompt'= {
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --session 'Use the per-session store of this session (a UUID)'
            cand --file 'Use this store file'
            cand --json 'Print the entries in prompt order as a JSON array instead'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm-context;config'= {
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --session 'Use the per-session store of this session (a UUID)'
            cand --file 'Use this store file'
            cand --show-origin 'Show every key with its value and where it came from (default, a file, an environment variable or a flag), like `git config --show-origin`'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm-context;help'= {
            cand add 'Add an entry, or replace the entry with this key (it keeps its place in insertion order). Content comes from CONTENT, `-` (stdin), or --from-file. Prints `{"added":KEY,"replaced":BOOL,"store":PATH}`'
            cand remove 'Remove an entry (alias: delete); exit 3 when there is none, unless --missing-ok. Prints `{"removed":N,"keys":[…],"store":PATH}`'
            cand clear 'Remove every entry, or only those of one source. Prints `{"removed":N,"keys":[…],"store":PATH}`'
            cand list 'List the live entries in insertion order: a table at a terminal, a JSON array when piped'
            cand get 'Print one entry as JSON (exit 3 when missing or expired)'
            cand prompt 'Print the system-prompt additions: one markdown section (`## KEY`, blank line, content) per live entry, highest priority first, ties in insertion order. Nothing when the store is empty'
            cand config 'Print the effective configuration (JSON), or every key with its origin'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ollm-context;help;add'= {
        }
        &'ollm-context;help;remove'= {
        }
        &'ollm-context;help;clear'= {
        }
        &'ollm-context;help;list'= {
        }
        &'ollm-context;help;get'= {
        }
        &'ollm-context;help;prompt'= {
        }
        &'ollm-context;help;config'= {
        }
        &'ollm-context;help;help'= {
        }
    ]
    $completions[$command]
}
