
use builtin;
use str;

set edit:completion:arg-completer[ollm-env] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'ollm-env'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'ollm-env'= {
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand run 'Run CMD with the sanitized environment; its exit code passes through (128+N if it dies of signal N; 127 if CMD is not found, 126 if it cannot be executed, or if the --redact-output supervisor cannot make itself unreadable to it)'
            cand report 'Print every variable name kept and removed with the rule that decided it: a table at a terminal, JSON `{kept, removed, set}` when piped. Values are never printed'
            cand explain 'Explain the decision for one variable name, as JSON, and for a removed one how to pass it anyway'
            cand config 'Print the effective configuration (JSON), or every key with its origin'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ollm-env;run'= {
            cand --allow 'Also keep this variable (exact name, or a glob such as ''MYAPP_*''). An exact name is kept even when its value looks like a credential'
            cand --deny 'Also remove variables matching this glob (case-insensitive)'
            cand --env-file 'Set variables from this file in the tool''s environment (after sanitizing): the dotenv format of docker and compose (NAME=VALUE lines, # comments, quotes). For values that must not appear on a command line. `-` reads stdin'
            cand --set 'Set NAME=VALUE in the tool''s environment (after sanitizing; after --env-file). The value is on ollm-env''s command line, which every local user can read (ps): use --env-file for a secret'
            cand --checkpoint 'Snapshot the current directory''s files before and after the tool runs, as turns of this session''s checkpoints (`ollm checkpoint`): what the tool changed can then be diffed and restored. The session: its id, a unique prefix of it or its title'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --replace-defaults 'Use only the configured and given lists: every built-in list (the spec''s allow and deny lists, the extended and the connection-string deny lists) is dropped. Values are still checked unless --no-scan-values'
            cand --no-scan-values 'Do not remove variables because of what their value looks like'
            cand --redact-output 'Replace removed secret values and credential-shaped text in the tool''s stdout and stderr with [REDACTED]. Encoded forms (base64, hex) are not recognised'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm-env;report'= {
            cand --allow 'Also keep this variable (exact name, or a glob such as ''MYAPP_*''). An exact name is kept even when its value looks like a credential'
            cand --deny 'Also remove variables matching this glob (case-insensitive)'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --replace-defaults 'Use only the configured and given lists: every built-in list (the spec''s allow and deny lists, the extended and the connection-string deny lists) is dropped. Values are still checked unless --no-scan-values'
            cand --no-scan-values 'Do not remove variables because of what their value looks like'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm-env;explain'= {
            cand --allow 'Also keep this variable (exact name, or a glob such as ''MYAPP_*''). An exact name is kept even when its value looks like a credential'
            cand --deny 'Also remove variables matching this glob (case-insensitive)'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --replace-defaults 'Use only the configured and given lists: every built-in list (the spec''s allow and deny lists, the extended and the connection-string deny lists) is dropped. Values are still checked unless --no-scan-values'
            cand --no-scan-values 'Do not remove variables because of what their value looks like'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm-env;config'= {
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --show-origin 'Show every key with its value and where it came from (default, a file, an environment variable or a flag), like `git config --show-origin`'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm-env;help'= {
            cand run 'Run CMD with the sanitized environment; its exit code passes through (128+N if it dies of signal N; 127 if CMD is not found, 126 if it cannot be executed, or if the --redact-output supervisor cannot make itself unreadable to it)'
            cand report 'Print every variable name kept and removed with the rule that decided it: a table at a terminal, JSON `{kept, removed, set}` when piped. Values are never printed'
            cand explain 'Explain the decision for one variable name, as JSON, and for a removed one how to pass it anyway'
            cand config 'Print the effective configuration (JSON), or every key with its origin'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ollm-env;help;run'= {
        }
        &'ollm-env;help;report'= {
        }
        &'ollm-env;help;explain'= {
        }
        &'ollm-env;help;config'= {
        }
        &'ollm-env;help;help'= {
        }
    ]
    $completions[$command]
}
