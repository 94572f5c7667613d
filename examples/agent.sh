#!/bin/sh
# agent.sh: the per-turn pipe of the ollm programs as a small POSIX shell agent (sh, curl, jq).
#
# Every turn: system prompt = base prompt + `ollm context prompt`; the user's message is
# recorded with `ollm session record`; `ollm compress check` decides whether the model is
# sent the stored history or `ollm compress`'s shorter version of it (the store keeps
# everything); then up to --max-steps model calls, each reply constrained by a JSON schema to
# {"tool": list_files|read_file|run|answer, "arg": "..."}. Tools: list_files is
# `ollm discover --paths`, read_file reads at most 8000 bytes of a file inside the workspace,
# run is `ollm env run -- sh -c CMD` (secrets stripped) under `timeout`. Every tool call and
# its result is recorded, the answer is recorded as the assistant's message, and
# `ollm loopcheck --state` is asked after each step. At a `warn` (the first detection) the
# model is told it is repeating itself and the next step can only answer; a `stop` (the
# loop persisted after the warning: even the forced answer loops) ends the agent (exit 1).
#
# --look-first removes `answer` from the first step's choices (look before you answer);
# the last step (--max-steps) offers only `answer`, so every turn ends with an answer.
#
# usage: agent.sh [--api openai|ollama] [--model-url URL] [--model NAME] [--max-steps N]
#                 [--look-first] [--max-tokens N] [--context-limit N] [--run-timeout S]
#                 [--compress-strategy hybrid|summarize|truncate] [--resume [ID]] [PROMPT...]
# Without PROMPTs, each line of stdin is a turn. Exit codes: 0 done, 1 a loop persisted after a warning,
# 2 usage, 3 session not found, 4 a program or the model server failed.
#
# The model: by default Ollama on this machine (http://127.0.0.1:11434, llama3.2:3b, through
# its OpenAI-compatible /v1 API): `ollama serve` and `ollama pull llama3.2:3b`. docs/agents.md's
# "Your model" shows llama-server, vLLM and LM Studio too (--model-url, --model, or
# AGENT_MODEL_URL, AGENT_MODEL). The server is checked before a session is created.
# AGENT_MAX_STEPS, AGENT_LOOK_FIRST (1) and AGENT_MAX_TOKENS set the defaults of those options.
set -u

api=openai
default_url=http://127.0.0.1:11434
default_model=llama3.2:3b
model_url=${AGENT_MODEL_URL:-$default_url}
model=${AGENT_MODEL:-$default_model}
max_steps=${AGENT_MAX_STEPS:-6}
look_first=${AGENT_LOOK_FIRST:-0}
max_tokens=${AGENT_MAX_TOKENS:-200}
context_limit=8192
run_timeout=30
strategy=hybrid
read_limit=8000
resume=
ws=$(pwd -P)

die() { code=$1; shift; echo "agent.sh: $*" >&2; exit "$code"; }
say() { echo "agent.sh: $*" >&2; }
is_uuid() { printf '%s' "$1" | grep -Eq '^[0-9a-fA-F]{8}-([0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}$'; }
need() { [ "$1" -ge 2 ] || die 2 "$2 needs a value"; }
is_count() { case $1 in '' | *[!0-9]*) return 1 ;; esac; }

while [ $# -gt 0 ]; do
  case $1 in
    --api) need $# "$1"; api=$2; shift 2 ;;
    --model-url) need $# "$1"; model_url=$2; shift 2 ;;
    --model) need $# "$1"; model=$2; shift 2 ;;
    --max-steps) need $# "$1"; max_steps=$2; shift 2 ;;
    --max-tokens) need $# "$1"; max_tokens=$2; shift 2 ;;
    --context-limit) need $# "$1"; context_limit=$2; shift 2 ;;
    --run-timeout) need $# "$1"; run_timeout=$2; shift 2 ;;
    --compress-strategy) need $# "$1"; strategy=$2; shift 2 ;;
    --look-first) look_first=1; shift ;;
    --resume)
      shift
      if [ $# -gt 0 ] && is_uuid "$1"; then resume=$1; shift; else resume=last; fi ;;
    -h | --help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    --) shift; break ;;
    -*) die 2 "unknown option $1 (see --help)" ;;
    *) break ;;
  esac
done
case $api in openai | ollama) ;; *) die 2 "--api must be openai or ollama" ;; esac
case $look_first in 0 | 1) ;; *) die 2 "AGENT_LOOK_FIRST must be 0 or 1" ;; esac
case $strategy in hybrid | summarize | truncate) ;; *) die 2 "--compress-strategy must be hybrid, summarize or truncate" ;; esac
for n in "$max_steps" "$max_tokens" "$context_limit" "$run_timeout"; do
  is_count "$n" || die 2 "not a whole number: '$n'"
done
[ "$max_steps" -ge $((1 + look_first)) ] || die 2 "--max-steps must be at least 1 (2 with --look-first)"
for tool in ollm curl jq timeout; do
  command -v "$tool" >/dev/null 2>&1 || die 4 "$tool: not found"
done

tmp=$(mktemp -d) || die 4 "cannot create a temporary directory"
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

start_hint() {
  echo "no model server answers at $model_url. Start one: \`ollama serve\` and \`ollama pull $default_model\`" \
    "(the default, $default_url), or give --model-url and --model of a running llama-server, vLLM or" \
    "LM Studio (docs/agents.md: \"Your model\")"
}

# Any HTTP answer (even 401 or 404) means a server is there; curl fails only when none is.
check_model() {
  if [ "$api" = ollama ]; then probe=$model_url/api/tags; else probe=$model_url/v1/models; fi
  curl -sS -o /dev/null -m 10 "$probe" 2>"$tmp/probe.err" ||
    die 4 "$(start_hint) ($(head -n 1 "$tmp/probe.err"))"
}

# ---- the session: the one to resume (exit 3 when there is none), or a new one, created
# only at the first message, once the model server answers, so a failed start or an
# interactive run left at once leaves no empty session.
sid=
if [ -n "$resume" ]; then
  if [ "$resume" = last ]; then ollm session get --last --here --format json >"$tmp/session.json"
  else ollm session get "$resume" --format json >"$tmp/session.json"; fi
  rc=$?
  [ $rc -eq 0 ] || die "$([ $rc -eq 3 ] && echo 3 || echo 4)" "no session to resume"
  check_model
  sid=$(jq -r .sessionId "$tmp/session.json")
  say "resuming session $sid"
else
  check_model
fi
mkdir -p "$ws/.ollm" || die 4 "cannot create $ws/.ollm"

open_session() {
  [ -n "$sid" ] && return 0
  sid=$(ollm session create -q --model "$model" --provider "$api")
  is_uuid "$sid" || die 4 "cannot create a session"
  say "new session $sid"
}

# ---- history as chat messages (stored or compressed), summaries aside
# shellcheck disable=SC2016 # jq programs: $names are jq's, not the shell's
to_chat='
  def text: [.parts[]? | .text? // empty] | join("");
  def step($t; $a): {tool: $t, arg: $a} | tojson;
  ([.messages // [] | to_entries[] | {ts: .value.timestamp, k: 0, i: .key, m: .value}]
   + [.toolCalls // [] | to_entries[] | {ts: .value.timestamp, k: 1, i: .key, t: .value}])
  | sort_by(.ts, .k, .i)
  | [.[] | if .k == 1 then
        (.t.args.path // .t.args.command // (.t.args | tojson)) as $a
        | {role: "assistant", content: step(.t.name; $a)},
          {role: "user", content: ("Result of \(.t.name):\n" + (.t.result.llmContent // ""))}
      elif .m.role == "system" then empty
      elif .m.role == "assistant" then {role: "assistant", content: step("answer"; .m | text)}
      else {role: "user", content: (.m | text)} end]'
summaries='[.messages // [] | .[] | select(.role == "system") | [.parts[]? | .text? // empty] | join("")] | join("\n\n")'

history() {
  ollm compress check --session "$sid" --token-limit "$context_limit" >"$tmp/check.json"
  case $? in
    0) ollm session get "$sid" --format json >"$tmp/history.json" || die 4 "cannot read session $sid" ;;
    1)
      say "compressing: $(jq -r '"\(.tokenCount) tokens over \(.triggerAt)"' "$tmp/check.json")"
      ollm compress --session "$sid" --token-limit "$context_limit" --strategy "$strategy" --summarizer-api "$api" \
        --summarizer-url "$model_url" --summarizer-model "$model" >"$tmp/compressed.json" ||
        die 4 "ollm compress failed"
      say "compressed: $(jq -r '"\(.status), \(.originalTokenCount) -> \(.compressedTokenCount) tokens"' "$tmp/compressed.json")"
      jq '{messages: .compressedMessages, toolCalls: (.compressedToolCalls // [])}' \
        "$tmp/compressed.json" >"$tmp/history.json" || die 4 "unexpected ollm compress output" ;;
    *) die 4 "ollm compress check failed" ;;
  esac
}

base_prompt='You are a coding assistant working in a project directory.
Reply with one JSON object {"tool": TOOL, "arg": ARG} and nothing else.
Tools:
- list_files: list the project'"'"'s files; arg: ""
- read_file: read a file; arg: its path relative to the project
- run: run a shell command in the project; arg: the command
- answer: give your final answer to the user; arg: the answer
Use tools to look before you answer. Tool results come back as messages starting with "Result of".'

system_prompt() {
  printf '%s' "$base_prompt"
  context=$(ollm context prompt) || die 4 "ollm context prompt failed"
  [ -n "$context" ] && printf '\n\n# Project context\n\n%s' "$context"
  earlier=$(jq -r "$summaries" "$tmp/history.json")
  [ -n "$earlier" ] && printf '\n\n# Summary of the earlier conversation\n\n%s' "$earlier"
  return 0
}

# ---- the model: one constrained step
ask() { # $1: the offered tools as a JSON array; the reply's content goes to $tmp/reply
  # arg is bounded so that the whole JSON reply fits in max_tokens (see agent.py).
  arg_max=$(((max_tokens - 30) * 2)); [ "$arg_max" -lt 20 ] && arg_max=20; [ "$arg_max" -gt 2000 ] && arg_max=2000
  jq -n --arg model "$model" --argjson tools "$1" --argjson max "$max_tokens" --argjson arg_max "$arg_max" \
    --slurpfile messages "$tmp/messages.json" --arg api "$api" '
    {type: "object", required: ["tool", "arg"], additionalProperties: false,
     properties: {tool: {type: "string", enum: $tools}, arg: {type: "string", minLength: 1, maxLength: $arg_max}}} as $schema
    | if $api == "ollama" then
        {model: $model, messages: $messages[0], stream: false, format: $schema,
         options: {num_predict: $max, temperature: 0}}
      else
        {model: $model, messages: $messages[0], max_tokens: $max, temperature: 0,
         response_format: {type: "json_schema", json_schema: {name: "step", schema: $schema}}}
      end' >"$tmp/request.json"
  if [ "$api" = ollama ]; then endpoint=$model_url/api/chat; pick='.message.content'
  else endpoint=$model_url/v1/chat/completions; pick='.choices[0].message.content'; fi
  # A hosted server's key goes in a header file, not on curl's command line (ps shows that).
  printf 'Content-Type: application/json\n' >"$tmp/headers"
  if [ "$api" = openai ] && [ -n "${OPENAI_API_KEY:-}" ]; then
    printf 'Authorization: Bearer %s\n' "$OPENAI_API_KEY" >>"$tmp/headers"
  fi
  status=$(curl -sS -m 300 -o "$tmp/response.json" -w '%{http_code}' -H "@$tmp/headers" \
    --data-binary "@$tmp/request.json" "$endpoint" 2>"$tmp/curl.err") ||
    die 4 "model server $endpoint: $(head -n 1 "$tmp/curl.err"); $(start_hint)"
  # The server explains itself in the body ("model 'x' not found, try pulling it first").
  case $status in 2??) ;; *) die 4 "model server $endpoint: HTTP $status: $(head -c 300 "$tmp/response.json")" ;; esac
  jq -er "$pick" "$tmp/response.json" >"$tmp/reply" || die 4 "unexpected reply from $endpoint"
}

add_message() { # role, content file
  jq --arg role "$1" --rawfile content "$2" '. + [{role: $role, content: $content}]' \
    "$tmp/messages.json" >"$tmp/messages.next" && mv "$tmp/messages.next" "$tmp/messages.json"
}

loopcheck() { # the events so far are in $tmp/events; sets $warned at a warn
  ollm loopcheck --state "$loop_state" <"$tmp/events" >"$tmp/verdict.json"
  case $? in
    0) : >"$tmp/events"
       if [ "$(jq -r .level "$tmp/verdict.json")" = warn ]; then
         warned=1
         say "loop warning ($(jq -r '"\(.pattern.type), count \(.pattern.count)"' "$tmp/verdict.json")): the next step must answer"
       fi ;;
    1) die 1 "loop detected: $(jq -r '"\(.pattern.type), count \(.pattern.count), turn \(.turn): \(.pattern.details)"' "$tmp/verdict.json")" ;;
    *) die 4 "ollm loopcheck failed" ;;
  esac
}

# ---- the tools; each writes the result for the model to $tmp/result and sets $display
list_files() {
  ollm discover --paths --sort >"$tmp/paths" || die 4 "ollm discover failed"
  count=$(wc -l <"$tmp/paths" | tr -d ' ')
  { head -n 200 "$tmp/paths"; [ "$count" -gt 200 ] && echo "... and $((count - 200)) more"; } >"$tmp/result"
  [ "$count" -eq 0 ] && echo "(no files)" >"$tmp/result"
  display="Listed $count files"
}

read_file() {
  # readlink -f resolves symbolic links (GNU coreutils, BusyBox, macOS 12.3+).
  real=$(readlink -f -- "$ws/$1" 2>/dev/null)
  if [ -z "$real" ]; then
    echo "Cannot read '$1': no such file" >"$tmp/result"; display="Error: no such file"; return
  fi
  case $real in
    "$ws"/*) ;;
    *) echo "Refused: '$1' is outside the project." >"$tmp/result"; display="Refused: outside the project"; return ;;
  esac
  if [ -f "$real" ] && [ -r "$real" ]; then
    head -c "$read_limit" "$real" >"$tmp/result"
    size=$(wc -c <"$real" | tr -d ' ')
    [ "$size" -gt "$read_limit" ] && printf '\n... (cut at %s bytes)\n' "$read_limit" >>"$tmp/result"
    [ "$size" -eq 0 ] && echo "(empty file)" >"$tmp/result"
    display="Read $size bytes from $1"
  else
    echo "Cannot read '$1': not a readable file" >"$tmp/result"; display="Error: not a readable file"
  fi
}

run_command() {
  # timeout signals its whole process group, so the command's children die with it.
  timeout -k 5 "$run_timeout" ollm env run -- sh -c "$1" </dev/null >"$tmp/out" 2>&1
  st=$?
  if [ $st -eq 124 ]; then status="killed after $run_timeout s"; else status="exit code $st"; fi
  { head -c 4000 "$tmp/out"; [ "$(wc -c <"$tmp/out")" -gt 4000 ] && printf '\n... (cut at 4000 bytes)'
    printf '\n[%s]\n' "$status"; } >"$tmp/result"
  display="Ran \`$1\`: $status"
}

# ---- one turn
turn() {
  prompt=$1
  open_session
  loop_state=$ws/.ollm/loop-$sid.json
  ollm session record "$sid" --role user --text "$prompt" >/dev/null || die 4 "cannot record in $sid"
  history
  system_prompt >"$tmp/system"
  jq -n --rawfile system "$tmp/system" --slurpfile h "$tmp/history.json" \
    "[{role: \"system\", content: \$system}] + (\$h[0] | $to_chat)" >"$tmp/messages.json" ||
    die 4 "cannot build the messages"
  jq -cn --arg text "$prompt" '{type: "user", text: $text}' >"$tmp/events"
  step=1
  warned=0
  while [ "$step" -le "$max_steps" ]; do
    if [ "$warned" -eq 1 ] || [ "$step" -eq "$max_steps" ]; then offered='["answer"]'
    elif [ "$step" -eq 1 ] && [ "$look_first" -eq 1 ]; then offered='["list_files","read_file","run"]'
    else offered='["list_files","read_file","run","answer"]'; fi
    ask "$offered"
    if jq -e --argjson offered "$offered" \
      '(.tool as $t | $offered | index([$t])) != null and (.arg | type) == "string"' \
      "$tmp/reply" >/dev/null 2>&1; then
      tool=$(jq -r .tool "$tmp/reply")
      jq -j .arg "$tmp/reply" >"$tmp/arg"
    else
      say "the reply is not a valid step, taking it as the answer"
      tool=answer
      cp "$tmp/reply" "$tmp/arg"
    fi
    arg=$(cat "$tmp/arg")
    echo '{"type":"turn"}' >>"$tmp/events"
    if [ "$tool" = answer ]; then
      jq -n --rawfile text "$tmp/arg" '{role: "assistant", parts: [{type: "text", text: $text}]}' |
        ollm session record "$sid" - >/dev/null || die 4 "cannot record in $sid"
      jq -cn --rawfile text "$tmp/arg" '{type: "output", text: $text}' >>"$tmp/events"
      printf '%s\n' "$arg"
      # The answer is recorded and printed; a loop in it is still reported.
      loopcheck
      return 0
    fi
    case $tool in
      list_files) list_files; args=$(jq -cn --arg p "$arg" '{path: $p}') ;;
      read_file) read_file "$arg"; args=$(jq -cn --arg p "$arg" '{path: $p}') ;;
      run) run_command "$arg"; args=$(jq -cn --arg c "$arg" '{command: $c}') ;;
    esac
    say "step $step: $tool '$arg': $display"
    # The result comes from a file: a tool's output has no size limit.
    ollm session record "$sid" --tool "$tool" --args="$args" --result-file "$tmp/result" \
      --display="$display" --call-id "call_$(date +%s)_$$_$step" >/dev/null ||
      die 4 "cannot record the tool call in $sid"
    jq -cn --arg name "$tool" --argjson args "$args" '{type: "tool", name: $name, args: $args}' >>"$tmp/events"
    loopcheck
    jq -cn --arg t "$tool" --arg a "$arg" '{tool: $t, arg: $a}' >"$tmp/step"
    add_message assistant "$tmp/step"
    { printf 'Result of %s:\n' "$tool"; cat "$tmp/result"; } >"$tmp/said"
    add_message user "$tmp/said"
    if [ "$warned" -eq 1 ]; then
      printf '%s' "You are repeating yourself: calling the tool again will not tell you anything new. Do not call a tool; answer the user now with what you have found." >"$tmp/said"
      add_message user "$tmp/said"
    fi
    step=$((step + 1))
  done
}

if [ $# -gt 0 ]; then
  for prompt in "$@"; do turn "$prompt"; done
else
  # At a terminal: what to type, and a prompt before each message.
  if [ -t 0 ]; then
    say "type a message; an empty line or end of input (ctrl-d) stops"
    ask() { printf '> ' >&2; }
  else
    ask() { :; }
  fi
  # The turns read nothing from stdin: it holds the prompts.
  while ask && IFS= read -r line <&3 && [ -n "$line" ]; do turn "$line" </dev/null; done 3<&0
fi
if [ -n "$sid" ]; then say "session $sid"; fi
