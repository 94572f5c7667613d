
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
            cand discover 'List a project''s files the way git sees them, fast, as NDJSON or paths'
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
        &'ollm;discover'= {
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --max-depth 'Directory levels entered below the root (0: only the root''s own entries), or `unlimited` [config: services.fileDiscovery.maxDepth, default 10]'
            cand -i 'Report only entries matching this glob (repeatable). Without `/` it matches a name at any depth; with `/`, the path below the root'
            cand --include 'Report only entries matching this glob (repeatable). Without `/` it matches a name at any depth; with `/`, the path below the root'
            cand -e 'Skip entries matching this glob (repeatable); a matching directory is not entered'
            cand --exclude 'Skip entries matching this glob (repeatable); a matching directory is not entered'
            cand -t 'Report only this type (repeatable) [default: file and symlink]'
            cand --type 'Report only this type (repeatable) [default: file and symlink]'
            cand -L 'Follow symbolic links (a link back to an ancestor is reported, not followed)'
            cand --follow 'Follow symbolic links (a link back to an ancestor is reported, not followed)'
            cand --no-hidden 'Skip names starting with a dot'
            cand --hidden 'List names starting with a dot (the default)'
            cand -p 'Print relative paths, one a line, instead of NDJSON entries'
            cand --paths 'Print relative paths, one a line, instead of NDJSON entries'
            cand -0 'End each path with NUL instead of a newline (with --paths)'
            cand --null 'End each path with NUL instead of a newline (with --paths)'
            cand -s 'Sort by relative path, byte by byte (git''s order)'
            cand --sort 'Sort by relative path, byte by byte (git''s order)'
            cand --no-cache 'Walk the tree even if a cached listing of it is still valid [config: services.fileDiscovery.cache, default true]'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand watch 'Watch the tree and print NDJSON events `{event, path, relativePath, type}` (event: add, change, unlink) for paths the listing would show'
            cand config 'Print the effective configuration (JSON), or every key with its origin'
        }
        &'ollm;discover;watch'= {
            cand --max-depth 'Directory levels entered below the root (0: only the root''s own entries), or `unlimited` [config: services.fileDiscovery.maxDepth, default 10]'
            cand -i 'Report only entries matching this glob (repeatable). Without `/` it matches a name at any depth; with `/`, the path below the root'
            cand --include 'Report only entries matching this glob (repeatable). Without `/` it matches a name at any depth; with `/`, the path below the root'
            cand -e 'Skip entries matching this glob (repeatable); a matching directory is not entered'
            cand --exclude 'Skip entries matching this glob (repeatable); a matching directory is not entered'
            cand -t 'Report only this type (repeatable) [default: file and symlink]'
            cand --type 'Report only this type (repeatable) [default: file and symlink]'
            cand --debounce-ms 'Quiet time before a burst of changes is reported [config: services.fileDiscovery.debounceMs, default 100]'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand -L 'Follow symbolic links (a link back to an ancestor is reported, not followed)'
            cand --follow 'Follow symbolic links (a link back to an ancestor is reported, not followed)'
            cand --no-hidden 'Skip names starting with a dot'
            cand --hidden 'List names starting with a dot (the default)'
            cand --ready 'Print `{"event":"ready",…}` once the watch is in place'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'ollm;discover;config'= {
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --show-origin 'Show every key with its value and where it came from (default, a file, an environment variable or a flag), like `git config --show-origin`'
            cand -h 'Print help'
            cand --help 'Print help'
        }
    ]
    $completions[$command]
}
