
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'ollm-compress' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'ollm-compress'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'ollm-compress' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--tokenizer', '--tokenizer', [CompletionResultType]::ParameterName, 'How to count tokens: cl100k, o200k (built in), a path to the model''s own tokenizer.json, server (the model server''s /tokenize), estimate (characters / 4)')
            [CompletionResult]::new('--tokenizer-url', '--tokenizer-url', [CompletionResultType]::ParameterName, 'The server for `--tokenizer server` (default: the summarizer URL)')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Read this stored session (ollm-session) instead of INPUT: its id, a unique prefix of it (4+ characters) or its title')
            [CompletionResult]::new('--token-limit', '--token-limit', [CompletionResultType]::ParameterName, 'The context size in tokens (default: services.compression.tokenLimit)')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Deprecated spelling of --token-limit (`--limit` counts rows elsewhere)')
            [CompletionResult]::new('--threshold', '--threshold', [CompletionResultType]::ParameterName, 'Fraction of the limit above which compression is needed (default 0.8)')
            [CompletionResult]::new('--trigger', '--trigger', [CompletionResultType]::ParameterName, 'static: tokens > threshold × limit (default). dynamic: the history after the system prompt and earlier summaries > threshold × what the limit leaves for it')
            [CompletionResult]::new('--strategy', '--strategy', [CompletionResultType]::ParameterName, 'hybrid (default): summarize the old part, keep the recent `preserveRecent` tokens. summarize: summarize all but the system prompt and user messages. truncate: drop the oldest until within target')
            [CompletionResult]::new('--target', '--target', [CompletionResultType]::ParameterName, 'Size to compress to (default: threshold × limit)')
            [CompletionResult]::new('--preserve-recent', '--preserve-recent', [CompletionResultType]::ParameterName, 'Tokens of the most recent history kept verbatim (default 4096)')
            [CompletionResult]::new('--summary-max-tokens', '--summary-max-tokens', [CompletionResultType]::ParameterName, 'The summary''s token budget (default 1024)')
            [CompletionResult]::new('--summarizer-cmd', '--summarizer-cmd', [CompletionResultType]::ParameterName, 'Summarize with this shell command instead of a model server: the prompt on its stdin, the summary on its stdout')
            [CompletionResult]::new('--summarizer-api', '--summarizer-api', [CompletionResultType]::ParameterName, 'openai (/v1/chat/completions, the default; Ollama serves it too) or ollama (/api/chat)')
            [CompletionResult]::new('--summarizer-url', '--summarizer-url', [CompletionResultType]::ParameterName, 'The model server''s base URL (default http://127.0.0.1:11434, Ollama''s)')
            [CompletionResult]::new('--summarizer-model', '--summarizer-model', [CompletionResultType]::ParameterName, 'The model to ask for the summary (default llama3.2:3b)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Seconds to wait for the summarizer before truncating instead')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'json (the default when piped), text (the default at a terminal: a few lines saying what was done, not the whole history) or messages (the compressed messages alone, a JSON array: what a model is given)')
            [CompletionResult]::new('--last', '--last', [CompletionResultType]::ParameterName, 'Read the most recently active stored session instead of INPUT')
            [CompletionResult]::new('--here', '--here', [CompletionResultType]::ParameterName, 'With --session or --last, only sessions made in this workspace (the git top level, else the current directory); alone, the latest of them')
            [CompletionResult]::new('--no-keep-user-messages', '--no-keep-user-messages', [CompletionResultType]::ParameterName, 'Let user messages be summarized or dropped like the others')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Compress even when the history is below the trigger (or compression is disabled)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('compress', 'compress', [CompletionResultType]::ParameterValue, 'Compress the history and print the result as JSON (`compressedMessages`, `originalTokenCount`, `compressedTokenCount`, `strategy`, `status`, …). Exit code 0 whenever a result is printed; `status` tells what happened: compressed, not-needed, disabled, fallback-truncate, rejected-not-smaller')
            [CompletionResult]::new('count', 'count', [CompletionResultType]::ParameterValue, 'Count tokens: the total and each message''s and tool call''s')
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Say whether compression is needed (exit code 1 when it is, 0 when not), with the numbers behind the verdict as JSON')
            [CompletionResult]::new('config', 'config', [CompletionResultType]::ParameterValue, 'Print the effective configuration (JSON), or every key with its origin')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ollm-compress;compress' {
            [CompletionResult]::new('--tokenizer', '--tokenizer', [CompletionResultType]::ParameterName, 'How to count tokens: cl100k, o200k (built in), a path to the model''s own tokenizer.json, server (the model server''s /tokenize), estimate (characters / 4)')
            [CompletionResult]::new('--tokenizer-url', '--tokenizer-url', [CompletionResultType]::ParameterName, 'The server for `--tokenizer server` (default: the summarizer URL)')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Read this stored session (ollm-session) instead of INPUT: its id, a unique prefix of it (4+ characters) or its title')
            [CompletionResult]::new('--token-limit', '--token-limit', [CompletionResultType]::ParameterName, 'The context size in tokens (default: services.compression.tokenLimit)')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Deprecated spelling of --token-limit (`--limit` counts rows elsewhere)')
            [CompletionResult]::new('--threshold', '--threshold', [CompletionResultType]::ParameterName, 'Fraction of the limit above which compression is needed (default 0.8)')
            [CompletionResult]::new('--trigger', '--trigger', [CompletionResultType]::ParameterName, 'static: tokens > threshold × limit (default). dynamic: the history after the system prompt and earlier summaries > threshold × what the limit leaves for it')
            [CompletionResult]::new('--strategy', '--strategy', [CompletionResultType]::ParameterName, 'hybrid (default): summarize the old part, keep the recent `preserveRecent` tokens. summarize: summarize all but the system prompt and user messages. truncate: drop the oldest until within target')
            [CompletionResult]::new('--target', '--target', [CompletionResultType]::ParameterName, 'Size to compress to (default: threshold × limit)')
            [CompletionResult]::new('--preserve-recent', '--preserve-recent', [CompletionResultType]::ParameterName, 'Tokens of the most recent history kept verbatim (default 4096)')
            [CompletionResult]::new('--summary-max-tokens', '--summary-max-tokens', [CompletionResultType]::ParameterName, 'The summary''s token budget (default 1024)')
            [CompletionResult]::new('--summarizer-cmd', '--summarizer-cmd', [CompletionResultType]::ParameterName, 'Summarize with this shell command instead of a model server: the prompt on its stdin, the summary on its stdout')
            [CompletionResult]::new('--summarizer-api', '--summarizer-api', [CompletionResultType]::ParameterName, 'openai (/v1/chat/completions, the default; Ollama serves it too) or ollama (/api/chat)')
            [CompletionResult]::new('--summarizer-url', '--summarizer-url', [CompletionResultType]::ParameterName, 'The model server''s base URL (default http://127.0.0.1:11434, Ollama''s)')
            [CompletionResult]::new('--summarizer-model', '--summarizer-model', [CompletionResultType]::ParameterName, 'The model to ask for the summary (default llama3.2:3b)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Seconds to wait for the summarizer before truncating instead')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'json (the default when piped), text (the default at a terminal: a few lines saying what was done, not the whole history) or messages (the compressed messages alone, a JSON array: what a model is given)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--last', '--last', [CompletionResultType]::ParameterName, 'Read the most recently active stored session instead of INPUT')
            [CompletionResult]::new('--here', '--here', [CompletionResultType]::ParameterName, 'With --session or --last, only sessions made in this workspace (the git top level, else the current directory); alone, the latest of them')
            [CompletionResult]::new('--no-keep-user-messages', '--no-keep-user-messages', [CompletionResultType]::ParameterName, 'Let user messages be summarized or dropped like the others')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Compress even when the history is below the trigger (or compression is disabled)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'ollm-compress;count' {
            [CompletionResult]::new('--tokenizer', '--tokenizer', [CompletionResultType]::ParameterName, 'How to count tokens: cl100k, o200k (built in), a path to the model''s own tokenizer.json, server (the model server''s /tokenize), estimate (characters / 4)')
            [CompletionResult]::new('--tokenizer-url', '--tokenizer-url', [CompletionResultType]::ParameterName, 'The server for `--tokenizer server` (default: the summarizer URL)')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Read this stored session (ollm-session) instead of INPUT: its id, a unique prefix of it (4+ characters) or its title')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--last', '--last', [CompletionResultType]::ParameterName, 'Read the most recently active stored session instead of INPUT')
            [CompletionResult]::new('--here', '--here', [CompletionResultType]::ParameterName, 'With --session or --last, only sessions made in this workspace (the git top level, else the current directory); alone, the latest of them')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm-compress;check' {
            [CompletionResult]::new('--tokenizer', '--tokenizer', [CompletionResultType]::ParameterName, 'How to count tokens: cl100k, o200k (built in), a path to the model''s own tokenizer.json, server (the model server''s /tokenize), estimate (characters / 4)')
            [CompletionResult]::new('--tokenizer-url', '--tokenizer-url', [CompletionResultType]::ParameterName, 'The server for `--tokenizer server` (default: the summarizer URL)')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Read this stored session (ollm-session) instead of INPUT: its id, a unique prefix of it (4+ characters) or its title')
            [CompletionResult]::new('--token-limit', '--token-limit', [CompletionResultType]::ParameterName, 'The context size in tokens (default: services.compression.tokenLimit)')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Deprecated spelling of --token-limit (`--limit` counts rows elsewhere)')
            [CompletionResult]::new('--threshold', '--threshold', [CompletionResultType]::ParameterName, 'Fraction of the limit above which compression is needed (default 0.8)')
            [CompletionResult]::new('--trigger', '--trigger', [CompletionResultType]::ParameterName, 'static: tokens > threshold × limit (default). dynamic: the history after the system prompt and earlier summaries > threshold × what the limit leaves for it')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--last', '--last', [CompletionResultType]::ParameterName, 'Read the most recently active stored session instead of INPUT')
            [CompletionResult]::new('--here', '--here', [CompletionResultType]::ParameterName, 'With --session or --last, only sessions made in this workspace (the git top level, else the current directory); alone, the latest of them')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm-compress;config' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)')
            [CompletionResult]::new('--show-origin', '--show-origin', [CompletionResultType]::ParameterName, 'Show every key with its value and where it came from (default, a file, an environment variable or a flag), like `git config --show-origin`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'ollm-compress;help' {
            [CompletionResult]::new('compress', 'compress', [CompletionResultType]::ParameterValue, 'Compress the history and print the result as JSON (`compressedMessages`, `originalTokenCount`, `compressedTokenCount`, `strategy`, `status`, …). Exit code 0 whenever a result is printed; `status` tells what happened: compressed, not-needed, disabled, fallback-truncate, rejected-not-smaller')
            [CompletionResult]::new('count', 'count', [CompletionResultType]::ParameterValue, 'Count tokens: the total and each message''s and tool call''s')
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Say whether compression is needed (exit code 1 when it is, 0 when not), with the numbers behind the verdict as JSON')
            [CompletionResult]::new('config', 'config', [CompletionResultType]::ParameterValue, 'Print the effective configuration (JSON), or every key with its origin')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ollm-compress;help;compress' {
            break
        }
        'ollm-compress;help;count' {
            break
        }
        'ollm-compress;help;check' {
            break
        }
        'ollm-compress;help;config' {
            break
        }
        'ollm-compress;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
