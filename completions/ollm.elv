
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
            cand trust 'Trust a workspace''s .ollm/ as it is now (its configuration may then weaken safety, its context entries reach the prompt), list trusted workspaces, or revoke trust. An edit of .ollm/config.yaml revokes it'
            cand env 'Run a tool with secrets stripped from its environment'
            cand loopcheck 'Detect runaway loops in an agent''s events'
            cand context 'Keep prioritized context entries and render them as system-prompt additions'
            cand compress 'Count tokens of a conversation and compress it to fit a context window'
            cand session 'Durable, searchable, branchable session history (the spec''s session format), with snapshots'
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
        &'ollm;trust'= {
            cand --revoke 'Revoke trust in this workspace (exit 3 when it was not trusted)'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --list 'List the trusted workspaces, as JSON; `current` says whether the configuration is still the one trusted'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm;env'= {
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand run 'Run CMD with the sanitized environment; its exit code passes through (128+N if it dies of signal N; 127 if CMD is not found, 126 if it cannot be executed)'
            cand report 'Print, as JSON, every variable name kept and removed with the rule that decided it. Values are never printed'
            cand explain 'Explain the decision for one variable name, as JSON, and for a removed one how to pass it anyway'
            cand config 'Print the effective configuration (JSON), or every key with its origin'
        }
        &'ollm;env;run'= {
            cand --allow 'Also keep this variable (exact name, or a glob such as ''MYAPP_*''). An exact name is kept even when its value looks like a credential'
            cand --deny 'Also remove variables matching this glob (case-insensitive)'
            cand --env-file 'Set variables from this file in the tool''s environment (after sanitizing): the dotenv format of docker and compose (NAME=VALUE lines, # comments, quotes). For values that must not appear on a command line. `-` reads stdin'
            cand --set 'Set NAME=VALUE in the tool''s environment (after sanitizing; after --env-file). The value is on ollm-env''s command line, which every local user can read (ps): use --env-file for a secret'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --replace-defaults 'Use only the configured and given lists: every built-in list (the spec''s allow and deny lists, the extended and the connection-string deny lists) is dropped. Values are still checked unless --no-scan-values'
            cand --no-scan-values 'Do not remove variables because of what their value looks like'
            cand --redact-output 'Replace removed secret values and credential-shaped text in the tool''s stdout and stderr with [REDACTED]. Encoded forms (base64, hex) are not recognised'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm;env;report'= {
            cand --allow 'Also keep this variable (exact name, or a glob such as ''MYAPP_*''). An exact name is kept even when its value looks like a credential'
            cand --deny 'Also remove variables matching this glob (case-insensitive)'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --replace-defaults 'Use only the configured and given lists: every built-in list (the spec''s allow and deny lists, the extended and the connection-string deny lists) is dropped. Values are still checked unless --no-scan-values'
            cand --no-scan-values 'Do not remove variables because of what their value looks like'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm;env;explain'= {
            cand --allow 'Also keep this variable (exact name, or a glob such as ''MYAPP_*''). An exact name is kept even when its value looks like a credential'
            cand --deny 'Also remove variables matching this glob (case-insensitive)'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --replace-defaults 'Use only the configured and given lists: every built-in list (the spec''s allow and deny lists, the extended and the connection-string deny lists) is dropped. Values are still checked unless --no-scan-values'
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
            cand --session 'Read this stored session (ollm-session) instead of INPUT: its id, a unique prefix of it (4+ characters) or its title'
            cand --max-turns 'Report a loop on the first turn beyond N (services.loopDetection.maxTurns)'
            cand --repeat-threshold 'Repeats that make a loop (services.loopDetection.repeatThreshold)'
            cand --similarity-threshold 'Output similarity ratio, in (0, 1], at which outputs count as repeats (services.loopDetection.similarityThreshold)'
            cand --content-chunk-size 'Characters per hashed window when looking for a passage repeated within one output (services.loopDetection.contentChunkSize, 10 to 500)'
            cand --content-repeat-threshold 'Close occurrences of one window that make a repeated-content loop; below 2 turns it off (services.loopDetection.contentRepeatThreshold)'
            cand --stream 'Read NDJSON events as they come and print a verdict line (flushed) as soon as a loop is found, then keep reading; at the end of input, print the quiet verdict if nothing was found'
            cand --warn-only 'Print the verdict but exit 0 even when a loop is found, for callers that nudge the model rather than stop it'
            cand --last 'Read the most recently active stored session instead of INPUT'
            cand --here 'With --session or --last, only sessions made in this workspace (the git top level, else the current directory); alone, the latest of them'
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
        &'ollm;compress'= {
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --tokenizer 'How to count tokens: cl100k, o200k (built in), a path to the model''s own tokenizer.json, server (the model server''s /tokenize), estimate (characters / 4)'
            cand --tokenizer-url 'The server for `--tokenizer server` (default: the summarizer URL)'
            cand --session 'Read this stored session (ollm-session) instead of INPUT: its id, a unique prefix of it (4+ characters) or its title'
            cand --limit 'The context size in tokens (default: services.compression.tokenLimit)'
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
        }
        &'ollm;compress;compress'= {
            cand --tokenizer 'How to count tokens: cl100k, o200k (built in), a path to the model''s own tokenizer.json, server (the model server''s /tokenize), estimate (characters / 4)'
            cand --tokenizer-url 'The server for `--tokenizer server` (default: the summarizer URL)'
            cand --session 'Read this stored session (ollm-session) instead of INPUT: its id, a unique prefix of it (4+ characters) or its title'
            cand --limit 'The context size in tokens (default: services.compression.tokenLimit)'
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
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --last 'Read the most recently active stored session instead of INPUT'
            cand --here 'With --session or --last, only sessions made in this workspace (the git top level, else the current directory); alone, the latest of them'
            cand --no-keep-user-messages 'Let user messages be summarized or dropped like the others'
            cand --force 'Compress even when the history is below the trigger (or compression is disabled)'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm;compress;count'= {
            cand --tokenizer 'How to count tokens: cl100k, o200k (built in), a path to the model''s own tokenizer.json, server (the model server''s /tokenize), estimate (characters / 4)'
            cand --tokenizer-url 'The server for `--tokenizer server` (default: the summarizer URL)'
            cand --session 'Read this stored session (ollm-session) instead of INPUT: its id, a unique prefix of it (4+ characters) or its title'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --last 'Read the most recently active stored session instead of INPUT'
            cand --here 'With --session or --last, only sessions made in this workspace (the git top level, else the current directory); alone, the latest of them'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm;compress;check'= {
            cand --tokenizer 'How to count tokens: cl100k, o200k (built in), a path to the model''s own tokenizer.json, server (the model server''s /tokenize), estimate (characters / 4)'
            cand --tokenizer-url 'The server for `--tokenizer server` (default: the summarizer URL)'
            cand --session 'Read this stored session (ollm-session) instead of INPUT: its id, a unique prefix of it (4+ characters) or its title'
            cand --limit 'The context size in tokens (default: services.compression.tokenLimit)'
            cand --threshold 'Fraction of the limit above which compression is needed (default 0.8)'
            cand --trigger 'static: tokens > threshold × limit (default). dynamic: the history after the system prompt and earlier summaries > threshold × what the limit leaves for it'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --last 'Read the most recently active stored session instead of INPUT'
            cand --here 'With --session or --last, only sessions made in this workspace (the git top level, else the current directory); alone, the latest of them'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm;compress;config'= {
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --show-origin 'Show every key with its value and where it came from (default, a file, an environment variable or a flag), like `git config --show-origin`'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm;session'= {
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand create 'Create a session; prints {"sessionId": …}. Records the workspace it was made in (the git top level, else the current directory) for --here. Deletes the oldest sessions beyond maxSessions (never a locked one)'
            cand record 'Record a message or a tool call with its result; one JSON document, or NDJSON (one record a line, each acknowledged on stdout once it is on disk). An object with `role` is a message, one with `name` and `result` a tool call; a missing `timestamp` is now. Large texts come from a file or stdin (`--result-file FILE`, `--result -`), never from the command line''s size limit. With --last, a single positional argument is INPUT'
            cand get 'Print a whole session as the spec''s JSON (a transcript on a terminal)'
            cand view 'Print a whole session as the spec''s JSON (a transcript on a terminal)'
            cand resume 'Choose a session to carry on with and print its id (or start --exec on it). At a terminal with no ID, a picker shows the sessions newest first (arrow keys, type to filter); --continue takes the latest session of this workspace, as `claude --continue` does. Off a terminal, an ID, --continue or --last is required (exit 2)'
            cand list 'List sessions newest first: sessionId, startTime, lastActivity, model, messageCount, tokenCount, title, workspace (JSON when piped, a table on a terminal)'
            cand ls 'List sessions newest first: sessionId, startTime, lastActivity, model, messageCount, tokenCount, title, workspace (JSON when piped, a table on a terminal)'
            cand search 'Search every session''s title, messages and tool calls; each hit gives the session id, message index, role, timestamp and a snippet'
            cand export 'Export a session as the spec''s JSON or a Markdown transcript'
            cand rename 'Give a session a title (or remove it with --clear); commands then take the title in place of the id. Prints what changed'
            cand delete 'Delete a session with its snapshots and any copies of it set aside as corrupt, as one operation. Prints {"deleted": [ID]}'
            cand rm 'Delete a session with its snapshots and any copies of it set aside as corrupt, as one operation. Prints {"deleted": [ID]}'
            cand remove 'Delete a session with its snapshots and any copies of it set aside as corrupt, as one operation. Prints {"deleted": [ID]}'
            cand cleanup 'Keep the N most recently active sessions, delete the rest (skipping any being written). Prints what was deleted and kept'
            cand clear 'Delete every session. Asks for confirmation on a terminal; elsewhere --yes is required'
            cand branch 'Start a new session that keeps the first N messages (with the tool calls made among them); records parentSessionId and branchPoint'
            cand branches 'List the sessions branched from a session'
            cand snapshot 'Context snapshots: create, list, show, restore, delete'
            cand snapshots 'Context snapshots: create, list, show, restore, delete'
            cand config 'Print the effective configuration (JSON), or every key with its origin'
        }
        &'ollm;session;create'= {
            cand --model 'The model the session talks to (the spec''s `model`)'
            cand --provider 'The model''s provider, e.g. ollama or openai (the spec''s `provider`)'
            cand --title 'A name for the session (additive field `title`); commands then take it in place of the id'
            cand --max-sessions 'Sessions to keep (services.session.maxSessions; 0: no limit)'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm;session;record'= {
            cand --role 'Shorthand: a plain text message with this role'
            cand --text 'Shorthand: the message''s text (`-` reads it from stdin)'
            cand --text-file 'Shorthand: the message''s text, read from FILE'
            cand --tool 'Shorthand: a tool call with this tool name'
            cand --args 'The tool call''s arguments, a JSON object (`-` reads it from stdin; default {})'
            cand --args-file 'The tool call''s arguments, read from FILE'
            cand --result 'The tool''s result for the model (llmContent; `-` reads it from stdin)'
            cand --result-file 'The tool''s result for the model, read from FILE'
            cand --display 'The tool''s result for display (returnDisplay)'
            cand --call-id 'The tool call''s id (default: a new one)'
            cand --tokens 'The record''s token count from a real tokenizer, instead of the estimate (characters ÷ 4). Only with a single record'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand --last 'The most recently active session'
            cand --here 'Only sessions made in this workspace (the git top level, else the current directory); without ID, the latest of them'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm;session;get'= {
            cand --format 'json (default when piped) or markdown (default on a terminal)'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand --last 'The most recently active session'
            cand --here 'Only sessions made in this workspace (the git top level, else the current directory); without ID, the latest of them'
            cand --messages 'Only the messages (as a JSON array, or without the header and tool calls in markdown)'
            cand --full 'Show long tool results whole (at a terminal they are folded to their first 10 lines)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'ollm;session;view'= {
            cand --format 'json (default when piped) or markdown (default on a terminal)'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand --last 'The most recently active session'
            cand --here 'Only sessions made in this workspace (the git top level, else the current directory); without ID, the latest of them'
            cand --messages 'Only the messages (as a JSON array, or without the header and tool calls in markdown)'
            cand --full 'Show long tool results whole (at a terminal they are folded to their first 10 lines)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'ollm;session;resume'= {
            cand --exec 'Run CMD (with sh -c) with the chosen id as its last argument and in OLLM_SESSION_ID, instead of printing the id'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand -c 'The latest session made in this workspace (the git top level, else the current directory)'
            cand --continue 'The latest session made in this workspace (the git top level, else the current directory)'
            cand --last 'The most recently active session anywhere'
            cand --here 'Only sessions made in this workspace (in the picker too)'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm;session;list'= {
            cand --limit 'Show at most N sessions'
            cand --offset 'Skip the N newest sessions first (with --limit: pages)'
            cand --format 'json (default when piped), table (default on a terminal), ndjson or text'
            cand --model 'Only sessions with this model'
            cand --since 'Only sessions active since WHEN: a duration back from now (2h, 3d, 1week) or a date (2026-01-15)'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand --corrupt 'List the sessions set aside as corrupt instead: sessionId, path and format (`journal` or `plain`). `delete ID` removes them'
            cand --here 'Only sessions made in this workspace (the git top level, else the current directory)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'ollm;session;ls'= {
            cand --limit 'Show at most N sessions'
            cand --offset 'Skip the N newest sessions first (with --limit: pages)'
            cand --format 'json (default when piped), table (default on a terminal), ndjson or text'
            cand --model 'Only sessions with this model'
            cand --since 'Only sessions active since WHEN: a duration back from now (2h, 3d, 1week) or a date (2026-01-15)'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand --corrupt 'List the sessions set aside as corrupt instead: sessionId, path and format (`journal` or `plain`). `delete ID` removes them'
            cand --here 'Only sessions made in this workspace (the git top level, else the current directory)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'ollm;session;search'= {
            cand --role 'Only messages of this role (`tool` also matches tool calls, `title` only titles)'
            cand --limit 'Show at most N hits, the newest'
            cand --format 'json (default when piped), table (default on a terminal), ndjson or text'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand -e 'PATTERN is a regular expression (Rust regex syntax)'
            cand --regex 'PATTERN is a regular expression (Rust regex syntax)'
            cand -i 'Match regardless of case'
            cand --ignore-case 'Match regardless of case'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'ollm;session;export'= {
            cand --format 'json, or markdown (default: markdown when --output ends in .md or .markdown, else json)'
            cand -o 'Write here (atomically, owner-only 0600) instead of stdout. An existing file is replaced only with --force; anything that is not a regular file is refused (`-` and /dev/stdout are stdout)'
            cand --output 'Write here (atomically, owner-only 0600) instead of stdout. An existing file is replaced only with --force; anything that is not a regular file is refused (`-` and /dev/stdout are stdout)'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand --last 'The most recently active session'
            cand --here 'Only sessions made in this workspace (the git top level, else the current directory); without ID, the latest of them'
            cand -f 'Replace an existing output file'
            cand --force 'Replace an existing output file'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'ollm;session;rename'= {
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand --last 'The most recently active session'
            cand --here 'Only sessions made in this workspace (the git top level, else the current directory); without ID, the latest of them'
            cand --clear 'Remove the title instead'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm;session;delete'= {
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand --last 'The most recently active session'
            cand --here 'Only sessions made in this workspace (the git top level, else the current directory); without ID, the latest of them'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm;session;rm'= {
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand --last 'The most recently active session'
            cand --here 'Only sessions made in this workspace (the git top level, else the current directory); without ID, the latest of them'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm;session;remove'= {
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand --last 'The most recently active session'
            cand --here 'Only sessions made in this workspace (the git top level, else the current directory); without ID, the latest of them'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm;session;cleanup'= {
            cand --keep 'How many sessions to keep, the most recently active'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand --dry-run 'Show what would be deleted'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm;session;clear'= {
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand --all 'Required: delete all sessions'
            cand -y 'Do not ask; required when stdin or stderr is not a terminal'
            cand --yes 'Do not ask; required when stdin or stderr is not a terminal'
            cand --dry-run 'Show what would be deleted'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm;session;branch'= {
            cand --at 'How many messages the branch keeps: the first N (0 to the message count; `--at 1` keeps only message 0)'
            cand --title 'A title for the branch (default: the parent''s)'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand --last 'The most recently active session'
            cand --here 'Only sessions made in this workspace (the git top level, else the current directory); without ID, the latest of them'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm;session;branches'= {
            cand --format 'json (default when piped), table (default on a terminal), ndjson or text'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand --last 'The most recently active session'
            cand --here 'Only sessions made in this workspace (the git top level, else the current directory); without ID, the latest of them'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'ollm;session;snapshot'= {
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand create 'Snapshot a session (or the message list on stdin with --stdin); deletes the oldest beyond snapshots.maxCount'
            cand list 'A session''s snapshots, newest first'
            cand show 'Print a whole snapshot'
            cand restore 'Print the snapshot''s context as a message list in its original order, or re-create it as a new session'
            cand delete 'Delete a snapshot. Prints {"deleted": [SNAPSHOT_ID]}'
            cand rm 'Delete a snapshot. Prints {"deleted": [SNAPSHOT_ID]}'
            cand remove 'Delete a snapshot. Prints {"deleted": [SNAPSHOT_ID]}'
        }
        &'ollm;session;snapshots'= {
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand create 'Snapshot a session (or the message list on stdin with --stdin); deletes the oldest beyond snapshots.maxCount'
            cand list 'A session''s snapshots, newest first'
            cand show 'Print a whole snapshot'
            cand restore 'Print the snapshot''s context as a message list in its original order, or re-create it as a new session'
            cand delete 'Delete a snapshot. Prints {"deleted": [SNAPSHOT_ID]}'
            cand rm 'Delete a snapshot. Prints {"deleted": [SNAPSHOT_ID]}'
            cand remove 'Delete a snapshot. Prints {"deleted": [SNAPSHOT_ID]}'
        }
        &'ollm;session;snapshot;create'= {
            cand --summary 'What the snapshot holds, in a few words'
            cand --max-count 'Snapshots kept per session (snapshots.maxCount; 0: no limit)'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand --last 'The most recently active session'
            cand --here 'Only sessions made in this workspace (the git top level, else the current directory); without ID, the latest of them'
            cand --stdin 'Read the context to snapshot (a JSON array of messages) from stdin'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm;session;snapshots;create'= {
            cand --summary 'What the snapshot holds, in a few words'
            cand --max-count 'Snapshots kept per session (snapshots.maxCount; 0: no limit)'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand --last 'The most recently active session'
            cand --here 'Only sessions made in this workspace (the git top level, else the current directory); without ID, the latest of them'
            cand --stdin 'Read the context to snapshot (a JSON array of messages) from stdin'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm;session;snapshot;list'= {
            cand --format 'json (default when piped), table (default on a terminal), ndjson or text'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand --last 'The most recently active session'
            cand --here 'Only sessions made in this workspace (the git top level, else the current directory); without ID, the latest of them'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'ollm;session;snapshots;list'= {
            cand --format 'json (default when piped), table (default on a terminal), ndjson or text'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand --last 'The most recently active session'
            cand --here 'Only sessions made in this workspace (the git top level, else the current directory); without ID, the latest of them'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'ollm;session;snapshot;show'= {
            cand --session 'The session the snapshot belongs to (an id, prefix or title; found by searching every session''s snapshots when not given)'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm;session;snapshots;show'= {
            cand --session 'The session the snapshot belongs to (an id, prefix or title; found by searching every session''s snapshots when not given)'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm;session;snapshot;restore'= {
            cand --session 'The session the snapshot belongs to (an id, prefix or title; found by searching every session''s snapshots when not given)'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand --as-session 'Create a new session holding the context; prints its id'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm;session;snapshots;restore'= {
            cand --session 'The session the snapshot belongs to (an id, prefix or title; found by searching every session''s snapshots when not given)'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand --as-session 'Create a new session holding the context; prints its id'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm;session;snapshot;delete'= {
            cand --session 'The session the snapshot belongs to (an id, prefix or title; found by searching every session''s snapshots when not given)'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm;session;snapshot;rm'= {
            cand --session 'The session the snapshot belongs to (an id, prefix or title; found by searching every session''s snapshots when not given)'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm;session;snapshot;remove'= {
            cand --session 'The session the snapshot belongs to (an id, prefix or title; found by searching every session''s snapshots when not given)'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm;session;snapshots;delete'= {
            cand --session 'The session the snapshot belongs to (an id, prefix or title; found by searching every session''s snapshots when not given)'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm;session;snapshots;rm'= {
            cand --session 'The session the snapshot belongs to (an id, prefix or title; found by searching every session''s snapshots when not given)'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm;session;snapshots;remove'= {
            cand --session 'The session the snapshot belongs to (an id, prefix or title; found by searching every session''s snapshots when not given)'
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'ollm;session;config'= {
            cand --config 'Read this YAML configuration file after the user''s, the workspace''s and the environment''s settings (flags still win)'
            cand --data-dir 'The session data directory (services.session.dataDir)'
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
