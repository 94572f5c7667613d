
use builtin;
use str;

set edit:completion:arg-completer[ollm-discover] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'ollm-discover'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'ollm-discover'= {
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --max-depth 'Directory levels entered below the root (0: only the root''s own entries), or `unlimited` [config: services.fileDiscovery.maxDepth, default 10]'
            cand -g 'Report only entries matching this glob (repeatable). Without `/` it matches a name at any depth; with `/`, the path below the root'
            cand --include 'Report only entries matching this glob (repeatable). Without `/` it matches a name at any depth; with `/`, the path below the root'
            cand -E 'Skip entries matching this glob (repeatable); a matching directory is not entered'
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
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ollm-discover;watch'= {
            cand --max-depth 'Directory levels entered below the root (0: only the root''s own entries), or `unlimited` [config: services.fileDiscovery.maxDepth, default 10]'
            cand -g 'Report only entries matching this glob (repeatable). Without `/` it matches a name at any depth; with `/`, the path below the root'
            cand --include 'Report only entries matching this glob (repeatable). Without `/` it matches a name at any depth; with `/`, the path below the root'
            cand -E 'Skip entries matching this glob (repeatable); a matching directory is not entered'
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
        &'ollm-discover;config'= {
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --show-origin 'Show every key with its value and where it came from (default, a file, an environment variable or a flag), like `git config --show-origin`'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm-discover;help'= {
            cand watch 'Watch the tree and print NDJSON events `{event, path, relativePath, type}` (event: add, change, unlink) for paths the listing would show'
            cand config 'Print the effective configuration (JSON), or every key with its origin'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ollm-discover;help;watch'= {
        }
        &'ollm-discover;help;config'= {
        }
        &'ollm-discover;help;help'= {
        }
    ]
    $completions[$command]
}
