# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_ollm_compress_global_optspecs
    string join \n config= tokenizer= tokenizer-url= session= last here token-limit= limit= threshold= trigger= strategy= target= preserve-recent= summary-max-tokens= no-keep-user-messages force summarizer-cmd= summarizer-api= summarizer-url= summarizer-model= timeout= format= h/help V/version
end

function __fish_ollm_compress_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_ollm_compress_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_ollm_compress_using_subcommand
    set -l cmd (__fish_ollm_compress_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c ollm-compress -n "__fish_ollm_compress_needs_command" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-compress -n "__fish_ollm_compress_needs_command" -l tokenizer -d 'How to count tokens: cl100k, o200k (built in), a path to the model\'s own tokenizer.json, server (the model server\'s /tokenize), estimate (characters / 4)' -r
complete -c ollm-compress -n "__fish_ollm_compress_needs_command" -l tokenizer-url -d 'The server for `--tokenizer server` (default: the summarizer URL)' -r
complete -c ollm-compress -n "__fish_ollm_compress_needs_command" -l session -d 'Read this stored session (ollm-session) instead of INPUT: its id, a unique prefix of it (4+ characters) or its title' -r
complete -c ollm-compress -n "__fish_ollm_compress_needs_command" -l token-limit -d 'The context size in tokens (default: services.compression.tokenLimit)' -r
complete -c ollm-compress -n "__fish_ollm_compress_needs_command" -l limit -d 'Deprecated spelling of --token-limit (`--limit` counts rows elsewhere)' -r
complete -c ollm-compress -n "__fish_ollm_compress_needs_command" -l threshold -d 'Fraction of the limit above which compression is needed (default 0.8)' -r
complete -c ollm-compress -n "__fish_ollm_compress_needs_command" -l trigger -d 'static: tokens > threshold × limit (default). dynamic: the history after the system prompt and earlier summaries > threshold × what the limit leaves for it' -r -f -a "static\t''
dynamic\t''"
complete -c ollm-compress -n "__fish_ollm_compress_needs_command" -l strategy -d 'hybrid (default): summarize the old part, keep the recent `preserveRecent` tokens. summarize: summarize all but the system prompt and user messages. truncate: drop the oldest until within target' -r -f -a "summarize\t''
truncate\t''
hybrid\t''"
complete -c ollm-compress -n "__fish_ollm_compress_needs_command" -l target -d 'Size to compress to (default: threshold × limit)' -r
complete -c ollm-compress -n "__fish_ollm_compress_needs_command" -l preserve-recent -d 'Tokens of the most recent history kept verbatim (default 4096)' -r
complete -c ollm-compress -n "__fish_ollm_compress_needs_command" -l summary-max-tokens -d 'The summary\'s token budget (default 1024)' -r
complete -c ollm-compress -n "__fish_ollm_compress_needs_command" -l summarizer-cmd -d 'Summarize with this shell command instead of a model server: the prompt on its stdin, the summary on its stdout' -r
complete -c ollm-compress -n "__fish_ollm_compress_needs_command" -l summarizer-api -d 'openai (/v1/chat/completions, the default; Ollama serves it too) or ollama (/api/chat)' -r -f -a "openai\t''
ollama\t''"
complete -c ollm-compress -n "__fish_ollm_compress_needs_command" -l summarizer-url -d 'The model server\'s base URL (default http://127.0.0.1:11434, Ollama\'s)' -r
complete -c ollm-compress -n "__fish_ollm_compress_needs_command" -l summarizer-model -d 'The model to ask for the summary (default llama3.2:3b)' -r
complete -c ollm-compress -n "__fish_ollm_compress_needs_command" -l timeout -d 'Seconds to wait for the summarizer before truncating instead' -r
complete -c ollm-compress -n "__fish_ollm_compress_needs_command" -l format -d 'json (the default when piped), text (the default at a terminal: a few lines saying what was done, not the whole history) or messages (the compressed messages alone, a JSON array: what a model is given)' -r -f -a "json\t''
text\t''
messages\t'`compressedMessages` alone, so a script needs no JSON tool to take it'"
complete -c ollm-compress -n "__fish_ollm_compress_needs_command" -l last -d 'Read the most recently active stored session instead of INPUT'
complete -c ollm-compress -n "__fish_ollm_compress_needs_command" -l here -d 'With --session or --last, only sessions made in this workspace (the git top level, else the current directory); alone, the latest of them'
complete -c ollm-compress -n "__fish_ollm_compress_needs_command" -l no-keep-user-messages -d 'Let user messages be summarized or dropped like the others'
complete -c ollm-compress -n "__fish_ollm_compress_needs_command" -l force -d 'Compress even when the history is below the trigger (or compression is disabled)'
complete -c ollm-compress -n "__fish_ollm_compress_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ollm-compress -n "__fish_ollm_compress_needs_command" -s V -l version -d 'Print version'
complete -c ollm-compress -n "__fish_ollm_compress_needs_command" -a "compress" -d 'Compress the history and print the result as JSON (`compressedMessages`, `originalTokenCount`, `compressedTokenCount`, `strategy`, `status`, …). Exit code 0 whenever a result is printed; `status` tells what happened: compressed, not-needed, disabled, fallback-truncate, rejected-not-smaller'
complete -c ollm-compress -n "__fish_ollm_compress_needs_command" -a "count" -d 'Count tokens: the total and each message\'s and tool call\'s'
complete -c ollm-compress -n "__fish_ollm_compress_needs_command" -a "check" -d 'Say whether compression is needed (exit code 1 when it is, 0 when not), with the numbers behind the verdict as JSON'
complete -c ollm-compress -n "__fish_ollm_compress_needs_command" -a "config" -d 'Print the effective configuration (JSON), or every key with its origin'
complete -c ollm-compress -n "__fish_ollm_compress_needs_command" -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ollm-compress -n "__fish_ollm_compress_using_subcommand compress" -l tokenizer -d 'How to count tokens: cl100k, o200k (built in), a path to the model\'s own tokenizer.json, server (the model server\'s /tokenize), estimate (characters / 4)' -r
complete -c ollm-compress -n "__fish_ollm_compress_using_subcommand compress" -l tokenizer-url -d 'The server for `--tokenizer server` (default: the summarizer URL)' -r
complete -c ollm-compress -n "__fish_ollm_compress_using_subcommand compress" -l session -d 'Read this stored session (ollm-session) instead of INPUT: its id, a unique prefix of it (4+ characters) or its title' -r
complete -c ollm-compress -n "__fish_ollm_compress_using_subcommand compress" -l token-limit -d 'The context size in tokens (default: services.compression.tokenLimit)' -r
complete -c ollm-compress -n "__fish_ollm_compress_using_subcommand compress" -l limit -d 'Deprecated spelling of --token-limit (`--limit` counts rows elsewhere)' -r
complete -c ollm-compress -n "__fish_ollm_compress_using_subcommand compress" -l threshold -d 'Fraction of the limit above which compression is needed (default 0.8)' -r
complete -c ollm-compress -n "__fish_ollm_compress_using_subcommand compress" -l trigger -d 'static: tokens > threshold × limit (default). dynamic: the history after the system prompt and earlier summaries > threshold × what the limit leaves for it' -r -f -a "static\t''
dynamic\t''"
complete -c ollm-compress -n "__fish_ollm_compress_using_subcommand compress" -l strategy -d 'hybrid (default): summarize the old part, keep the recent `preserveRecent` tokens. summarize: summarize all but the system prompt and user messages. truncate: drop the oldest until within target' -r -f -a "summarize\t''
truncate\t''
hybrid\t''"
complete -c ollm-compress -n "__fish_ollm_compress_using_subcommand compress" -l target -d 'Size to compress to (default: threshold × limit)' -r
complete -c ollm-compress -n "__fish_ollm_compress_using_subcommand compress" -l preserve-recent -d 'Tokens of the most recent history kept verbatim (default 4096)' -r
complete -c ollm-compress -n "__fish_ollm_compress_using_subcommand compress" -l summary-max-tokens -d 'The summary\'s token budget (default 1024)' -r
complete -c ollm-compress -n "__fish_ollm_compress_using_subcommand compress" -l summarizer-cmd -d 'Summarize with this shell command instead of a model server: the prompt on its stdin, the summary on its stdout' -r
complete -c ollm-compress -n "__fish_ollm_compress_using_subcommand compress" -l summarizer-api -d 'openai (/v1/chat/completions, the default; Ollama serves it too) or ollama (/api/chat)' -r -f -a "openai\t''
ollama\t''"
complete -c ollm-compress -n "__fish_ollm_compress_using_subcommand compress" -l summarizer-url -d 'The model server\'s base URL (default http://127.0.0.1:11434, Ollama\'s)' -r
complete -c ollm-compress -n "__fish_ollm_compress_using_subcommand compress" -l summarizer-model -d 'The model to ask for the summary (default llama3.2:3b)' -r
complete -c ollm-compress -n "__fish_ollm_compress_using_subcommand compress" -l timeout -d 'Seconds to wait for the summarizer before truncating instead' -r
complete -c ollm-compress -n "__fish_ollm_compress_using_subcommand compress" -l format -d 'json (the default when piped), text (the default at a terminal: a few lines saying what was done, not the whole history) or messages (the compressed messages alone, a JSON array: what a model is given)' -r -f -a "json\t''
text\t''
messages\t'`compressedMessages` alone, so a script needs no JSON tool to take it'"
complete -c ollm-compress -n "__fish_ollm_compress_using_subcommand compress" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-compress -n "__fish_ollm_compress_using_subcommand compress" -l last -d 'Read the most recently active stored session instead of INPUT'
complete -c ollm-compress -n "__fish_ollm_compress_using_subcommand compress" -l here -d 'With --session or --last, only sessions made in this workspace (the git top level, else the current directory); alone, the latest of them'
complete -c ollm-compress -n "__fish_ollm_compress_using_subcommand compress" -l no-keep-user-messages -d 'Let user messages be summarized or dropped like the others'
complete -c ollm-compress -n "__fish_ollm_compress_using_subcommand compress" -l force -d 'Compress even when the history is below the trigger (or compression is disabled)'
complete -c ollm-compress -n "__fish_ollm_compress_using_subcommand compress" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ollm-compress -n "__fish_ollm_compress_using_subcommand count" -l tokenizer -d 'How to count tokens: cl100k, o200k (built in), a path to the model\'s own tokenizer.json, server (the model server\'s /tokenize), estimate (characters / 4)' -r
complete -c ollm-compress -n "__fish_ollm_compress_using_subcommand count" -l tokenizer-url -d 'The server for `--tokenizer server` (default: the summarizer URL)' -r
complete -c ollm-compress -n "__fish_ollm_compress_using_subcommand count" -l session -d 'Read this stored session (ollm-session) instead of INPUT: its id, a unique prefix of it (4+ characters) or its title' -r
complete -c ollm-compress -n "__fish_ollm_compress_using_subcommand count" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-compress -n "__fish_ollm_compress_using_subcommand count" -l last -d 'Read the most recently active stored session instead of INPUT'
complete -c ollm-compress -n "__fish_ollm_compress_using_subcommand count" -l here -d 'With --session or --last, only sessions made in this workspace (the git top level, else the current directory); alone, the latest of them'
complete -c ollm-compress -n "__fish_ollm_compress_using_subcommand count" -s h -l help -d 'Print help'
complete -c ollm-compress -n "__fish_ollm_compress_using_subcommand check" -l tokenizer -d 'How to count tokens: cl100k, o200k (built in), a path to the model\'s own tokenizer.json, server (the model server\'s /tokenize), estimate (characters / 4)' -r
complete -c ollm-compress -n "__fish_ollm_compress_using_subcommand check" -l tokenizer-url -d 'The server for `--tokenizer server` (default: the summarizer URL)' -r
complete -c ollm-compress -n "__fish_ollm_compress_using_subcommand check" -l session -d 'Read this stored session (ollm-session) instead of INPUT: its id, a unique prefix of it (4+ characters) or its title' -r
complete -c ollm-compress -n "__fish_ollm_compress_using_subcommand check" -l token-limit -d 'The context size in tokens (default: services.compression.tokenLimit)' -r
complete -c ollm-compress -n "__fish_ollm_compress_using_subcommand check" -l limit -d 'Deprecated spelling of --token-limit (`--limit` counts rows elsewhere)' -r
complete -c ollm-compress -n "__fish_ollm_compress_using_subcommand check" -l threshold -d 'Fraction of the limit above which compression is needed (default 0.8)' -r
complete -c ollm-compress -n "__fish_ollm_compress_using_subcommand check" -l trigger -d 'static: tokens > threshold × limit (default). dynamic: the history after the system prompt and earlier summaries > threshold × what the limit leaves for it' -r -f -a "static\t''
dynamic\t''"
complete -c ollm-compress -n "__fish_ollm_compress_using_subcommand check" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-compress -n "__fish_ollm_compress_using_subcommand check" -l last -d 'Read the most recently active stored session instead of INPUT'
complete -c ollm-compress -n "__fish_ollm_compress_using_subcommand check" -l here -d 'With --session or --last, only sessions made in this workspace (the git top level, else the current directory); alone, the latest of them'
complete -c ollm-compress -n "__fish_ollm_compress_using_subcommand check" -s h -l help -d 'Print help'
complete -c ollm-compress -n "__fish_ollm_compress_using_subcommand config" -l config -d 'Read this YAML configuration file after the user\'s, the workspace\'s and the environment\'s settings (flags still win)' -r -F
complete -c ollm-compress -n "__fish_ollm_compress_using_subcommand config" -l show-origin -d 'Show every key with its value and where it came from (default, a file, an environment variable or a flag), like `git config --show-origin`'
complete -c ollm-compress -n "__fish_ollm_compress_using_subcommand config" -s h -l help -d 'Print help'
complete -c ollm-compress -n "__fish_ollm_compress_using_subcommand help; and not __fish_seen_subcommand_from compress count check config help" -f -a "compress" -d 'Compress the history and print the result as JSON (`compressedMessages`, `originalTokenCount`, `compressedTokenCount`, `strategy`, `status`, …). Exit code 0 whenever a result is printed; `status` tells what happened: compressed, not-needed, disabled, fallback-truncate, rejected-not-smaller'
complete -c ollm-compress -n "__fish_ollm_compress_using_subcommand help; and not __fish_seen_subcommand_from compress count check config help" -f -a "count" -d 'Count tokens: the total and each message\'s and tool call\'s'
complete -c ollm-compress -n "__fish_ollm_compress_using_subcommand help; and not __fish_seen_subcommand_from compress count check config help" -f -a "check" -d 'Say whether compression is needed (exit code 1 when it is, 0 when not), with the numbers behind the verdict as JSON'
complete -c ollm-compress -n "__fish_ollm_compress_using_subcommand help; and not __fish_seen_subcommand_from compress count check config help" -f -a "config" -d 'Print the effective configuration (JSON), or every key with its origin'
complete -c ollm-compress -n "__fish_ollm_compress_using_subcommand help; and not __fish_seen_subcommand_from compress count check config help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
