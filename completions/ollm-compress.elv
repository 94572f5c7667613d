
use builtin;
use str;

set edit:completion:arg-completer[ollm-compress] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'ollm-compress'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'ollm-compress'= {
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --tokenizer 'How to count tokens: cl100k, o200k (built in), a path to the model''s own tokenizer.json, server (the model server''s /tokenize), estimate (characters / 4)'
            cand --tokenizer-url 'The server for `--tokenizer server` (default: the summarizer URL)'
            cand --session 'Read this stored session (ollm-session) instead of INPUT: its id, a unique prefix of it (4+ characters) or its title'
            cand --token-limit 'The context size in tokens (default: services.compression.tokenLimit)'
            cand --limit 'Deprecated spelling of --token-limit (`--limit` counts rows elsewhere)'
            cand --threshold 'Fraction of the limit above which compression is needed (default 0.8)'
            cand --trigger 'static: tokens > threshold × limit (default). dynamic: the history after the system prompt and earlier summaries > threshold × what the limit leaves for it'
            cand --strategy 'hybrid (default): summarize the old part, keep the recent `preserveRecent` tokens. summarize: summarize all but the system prompt and user messages. truncate: drop the oldest until within target'
            cand --target 'Size to compress to (default: threshold × limit)'
            cand --preserve-recent 'Tokens of the most recent history kept verbatim (default 4096)'
            cand --summary-max-tokens 'The summary''s token budget (default 1024)'
            cand --summarizer-cmd 'Summarize with this shell command instead of a model server: the prompt on its stdin, the summary on its stdout'
            cand --summarizer-api 'openai (/v1/chat/completions, the default; Ollama serves it too) or ollama (/api/chat)'
            cand --summarizer-url 'The model server''s base URL (default http://127.0.0.1:11434, Ollama''s)'
            cand --summarizer-model 'The model to ask for the summary (default llama3.2:3b)'
            cand --timeout 'Seconds to wait for the summarizer before truncating instead'
            cand --format 'json (the default when piped), text (the default at a terminal: a few lines saying what was done, not the whole history) or messages (the compressed messages alone, a JSON array: what a model is given)'
            cand --last 'Read the most recently active stored session instead of INPUT'
            cand --here 'With --session or --last, only sessions made in this workspace (the git top level, else the current directory); alone, the latest of them'
            cand --no-keep-user-messages 'Let user messages be summarized or dropped like the others'
            cand --force 'Compress even when the history is below the trigger (or compression is disabled)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand compress 'Compress the history and print the result as JSON (`compressedMessages`, `originalTokenCount`, `compressedTokenCount`, `strategy`, `status`, …). Exit code 0 whenever a result is printed; `status` tells what happened: compressed, not-needed, disabled, fallback-truncate, rejected-not-smaller'
            cand count 'Count tokens: the total and each message''s and tool call''s'
            cand check 'Say whether compression is needed (exit code 1 when it is, 0 when not), with the numbers behind the verdict as JSON'
            cand config 'Print the effective configuration (JSON), or every key with its origin'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ollm-compress;compress'= {
            cand --tokenizer 'How to count tokens: cl100k, o200k (built in), a path to the model''s own tokenizer.json, server (the model server''s /tokenize), estimate (characters / 4)'
            cand --tokenizer-url 'The server for `--tokenizer server` (default: the summarizer URL)'
            cand --session 'Read this stored session (ollm-session) instead of INPUT: its id, a unique prefix of it (4+ characters) or its title'
            cand --token-limit 'The context size in tokens (default: services.compression.tokenLimit)'
            cand --limit 'Deprecated spelling of --token-limit (`--limit` counts rows elsewhere)'
            cand --threshold 'Fraction of the limit above which compression is needed (default 0.8)'
            cand --trigger 'static: tokens > threshold × limit (default). dynamic: the history after the system prompt and earlier summaries > threshold × what the limit leaves for it'
            cand --strategy 'hybrid (default): summarize the old part, keep the recent `preserveRecent` tokens. summarize: summarize all but the system prompt and user messages. truncate: drop the oldest until within target'
            cand --target 'Size to compress to (default: threshold × limit)'
            cand --preserve-recent 'Tokens of the most recent history kept verbatim (default 4096)'
            cand --summary-max-tokens 'The summary''s token budget (default 1024)'
            cand --summarizer-cmd 'Summarize with this shell command instead of a model server: the prompt on its stdin, the summary on its stdout'
            cand --summarizer-api 'openai (/v1/chat/completions, the default; Ollama serves it too) or ollama (/api/chat)'
            cand --summarizer-url 'The model server''s base URL (default http://127.0.0.1:11434, Ollama''s)'
            cand --summarizer-model 'The model to ask for the summary (default llama3.2:3b)'
            cand --timeout 'Seconds to wait for the summarizer before truncating instead'
            cand --format 'json (the default when piped), text (the default at a terminal: a few lines saying what was done, not the whole history) or messages (the compressed messages alone, a JSON array: what a model is given)'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --last 'Read the most recently active stored session instead of INPUT'
            cand --here 'With --session or --last, only sessions made in this workspace (the git top level, else the current directory); alone, the latest of them'
            cand --no-keep-user-messages 'Let user messages be summarized or dropped like the others'
            cand --force 'Compress even when the history is below the trigger (or compression is disabled)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'ollm-compress;count'= {
            cand --tokenizer 'How to count tokens: cl100k, o200k (built in), a path to the model''s own tokenizer.json, server (the model server''s /tokenize), estimate (characters / 4)'
            cand --tokenizer-url 'The server for `--tokenizer server` (default: the summarizer URL)'
            cand --session 'Read this stored session (ollm-session) instead of INPUT: its id, a unique prefix of it (4+ characters) or its title'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --last 'Read the most recently active stored session instead of INPUT'
            cand --here 'With --session or --last, only sessions made in this workspace (the git top level, else the current directory); alone, the latest of them'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm-compress;check'= {
            cand --tokenizer 'How to count tokens: cl100k, o200k (built in), a path to the model''s own tokenizer.json, server (the model server''s /tokenize), estimate (characters / 4)'
            cand --tokenizer-url 'The server for `--tokenizer server` (default: the summarizer URL)'
            cand --session 'Read this stored session (ollm-session) instead of INPUT: its id, a unique prefix of it (4+ characters) or its title'
            cand --token-limit 'The context size in tokens (default: services.compression.tokenLimit)'
            cand --limit 'Deprecated spelling of --token-limit (`--limit` counts rows elsewhere)'
            cand --threshold 'Fraction of the limit above which compression is needed (default 0.8)'
            cand --trigger 'static: tokens > threshold × limit (default). dynamic: the history after the system prompt and earlier summaries > threshold × what the limit leaves for it'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --last 'Read the most recently active stored session instead of INPUT'
            cand --here 'With --session or --last, only sessions made in this workspace (the git top level, else the current directory); alone, the latest of them'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm-compress;config'= {
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --show-origin 'Show every key with its value and where it came from (default, a file, an environment variable or a flag), like `git config --show-origin`'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm-compress;help'= {
            cand compress 'Compress the history and print the result as JSON (`compressedMessages`, `originalTokenCount`, `compressedTokenCount`, `strategy`, `status`, …). Exit code 0 whenever a result is printed; `status` tells what happened: compressed, not-needed, disabled, fallback-truncate, rejected-not-smaller'
            cand count 'Count tokens: the total and each message''s and tool call''s'
            cand check 'Say whether compression is needed (exit code 1 when it is, 0 when not), with the numbers behind the verdict as JSON'
            cand config 'Print the effective configuration (JSON), or every key with its origin'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ollm-compress;help;compress'= {
        }
        &'ollm-compress;help;count'= {
        }
        &'ollm-compress;help;check'= {
        }
        &'ollm-compress;help;config'= {
        }
        &'ollm-compress;help;help'= {
        }
    ]
    $completions[$command]
}
