#!/usr/bin/env bash
# Benchmarks ollm-session and prints ratios (not a timed test):
#   1. recording into a 10,000-message session vs into a new one, and the
#      spec's whole-file atomic rewrite of the same session as the baseline;
#   2. listing 10,000 sessions (summaries) vs 10,000 plain spec files;
#   3. searching 10,000 sessions vs ripgrep over the same files;
#   4. redaction's cost on record, and scan's throughput; 4b. recording 1 MB
#      and 10 MB of output shaped to defeat the scrubber vs a build log;
#   5. importing Claude Code sessions vs cat, its memory, and listing
#      10,000 imported sessions; then one large Claude Code session and
#      one large gemini-cli chat alone, their memory.
# Environment: RECORDS (records per measurement, 300), SESSIONS (10000),
# IMPORT_MB (megabytes of Claude Code sessions to import, 1000),
# LARGE_TURNS (turns of the one large session, 12000: about 300 MB),
# GEMINI_TURNS (turns of the one large gemini-cli chat, 11000: about 175 MB),
# MESSAGES (messages per listed session, 20), BENCH_DIR (where the data
# goes; a real disk, since fsync is what recording pays for).
set -euo pipefail
cd "$(dirname "$0")/.."

RECORDS=${RECORDS:-300}
SESSIONS=${SESSIONS:-10000}
MESSAGES=${MESSAGES:-20}
IMPORT_MB=${IMPORT_MB:-1000}
LARGE_TURNS=${LARGE_TURNS:-12000}
GEMINI_TURNS=${GEMINI_TURNS:-11000}

command -v rg >/dev/null || { echo "bench: ripgrep is missing (apt-get install -y ripgrep)" >&2; exit 1; }
cargo build --release --quiet --bin ollm-session --example session_rewrite
BIN=$PWD/target/$(rustc --print host-tuple)/release/ollm-session
REWRITE=$PWD/target/$(rustc --print host-tuple)/release/examples/session_rewrite
GEN=$PWD/bench/gen_sessions.py

WORK=$(mktemp -d "${BENCH_DIR:-${TMPDIR:-/tmp}}/ollm-session-bench.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
export HOME=$WORK/home OLLM_HOME=$WORK/home
mkdir -p "$HOME"

now_ns() { date +%s%N; }
# best_ms RUNS CMD...: the fastest of RUNS runs, in milliseconds.
best_ms() {
  local runs=$1; shift
  local best=""
  for _ in $(seq "$runs"); do
    local t0 t1
    t0=$(now_ns); "$@" >/dev/null; t1=$(now_ns)
    local ms=$(( (t1 - t0) / 1000 ))
    if [ -z "$best" ] || [ "$ms" -lt "$best" ]; then best=$ms; fi
  done
  python3 -c "print(f'{$best/1000:.1f}')"
}
# mean_ms RUNS CMD...: the mean of RUNS runs, in milliseconds.
mean_ms() {
  local runs=$1; shift
  local t0 t1
  t0=$(now_ns)
  for _ in $(seq "$runs"); do "$@" >/dev/null; done
  t1=$(now_ns)
  python3 -c "print(f'{($t1-$t0)/1e6/$runs:.1f}')"
}
ratio() { python3 -c "import sys; a,b=float(sys.argv[1]),float(sys.argv[2]); print(f'{a/b:.2f}' if b else 'inf')" "$1" "$2"; }
ndjson() { python3 -c "
import json, sys
for i in range(int(sys.argv[1])):
    print(json.dumps({'role': 'user', 'parts': [{'type': 'text', 'text': f'bench record {i} with a line of ordinary chat text'}]}))
" "$1"; }

echo "ollm-session benchmark — $(nproc) cores, $(date -u +%Y-%m-%d), data in ${BENCH_DIR:-${TMPDIR:-/tmp}}"
echo

# 1. Recording -------------------------------------------------------------
REC=$WORK/record
BIG=0b1e5e55-0000-4000-8000-000000010000
python3 "$GEN" "$REC" 1 10000 --id "$BIG" --keyword-every 0
python3 "$GEN" "$WORK/rewrite" 1 10000 --id "$BIG" --plain --keyword-every 0
NEW=$(OLLM_SESSION_FORMAT=journal "$BIN" --data-dir "$REC" create --model bench --provider bench | python3 -c 'import json,sys; print(json.load(sys.stdin)["sessionId"])')
record_stream() { ndjson "$RECORDS" | "$BIN" --data-dir "$REC" record "$1"; }
big_ms=$(best_ms 1 record_stream "$BIG")
new_ms=$(best_ms 1 record_stream "$NEW")
per_big=$(python3 -c "print(f'{$big_ms/$RECORDS:.3f}')")
per_new=$(python3 -c "print(f'{$new_ms/$RECORDS:.3f}')")
per_rewrite=$("$REWRITE" "$WORK/rewrite/$BIG.json" "$RECORDS")
one_big=$(mean_ms 30 "$BIN" --data-dir "$REC" record "$BIG" --role user --text "one more")
one_new=$(mean_ms 30 "$BIN" --data-dir "$REC" record "$NEW" --role user --text "one more")
big_size=$(du -h "$REC/$BIG/journal.ndjson" | cut -f1)

echo "1. record (fsync per record; $RECORDS records streamed as NDJSON)"
printf '   %-48s %10s ms/record\n' "into a 10,000-message session ($big_size)" "$per_big"
printf '   %-48s %10s ms/record\n' "into a new session" "$per_new"
printf '   %-48s %10s ms/record\n' "baseline: whole-file atomic rewrite (10,000 msgs)" "$per_rewrite"
printf '   %-48s %10s ms\n' "one 'record' process (mean of 30), long session" "$one_big"
printf '   %-48s %10s ms\n' "one 'record' process (mean of 30), new session" "$one_new"
echo "   ratio long/new session: $(ratio "$per_big" "$per_new")x   rewrite/append: $(ratio "$per_rewrite" "$per_big")x"
echo

# 1b. A session in the OLLM CLI's format stays in it: each record re-reads
# and rewrites the whole document. Against the CLI's own way (Node, the
# session parsed once and kept in memory, then rewritten per record).
if command -v node >/dev/null; then
  CLI=$WORK/cli
  python3 "$GEN" "$CLI" 1 10000 --id "$BIG" --plain --keyword-every 0
  cp "$CLI/$BIG.json" "$WORK/cli-node.json"
  # A session the CLI is not writing now: a file not ollm's (0644) changed
  # within 2 s is taken for one the CLI is writing, which ollm reads whole
  # and watches after each write (docs/ollm-cli.md).
  touch -d '-1 min' "$CLI/$BIG.json"
  cli_records=$(( RECORDS < 100 ? RECORDS : 100 ))
  cli_stream() { ndjson "$cli_records" | "$BIN" --data-dir "$CLI" record "$1"; }
  cli_ms=$(best_ms 1 cli_stream "$BIG")
  per_cli=$(python3 -c "print(f'{$cli_ms/$cli_records:.3f}')")
  per_node=$(node bench/cli_rewrite.js "$WORK/cli-node.json" "$cli_records")
  # The floor of any whole-file rewrite: copying the file and fsyncing it.
  copy_file() { dd if="$CLI/$BIG.json" of="$WORK/cli-copy.json" bs=1M conv=fsync status=none; }
  copy_ms=$(best_ms 20 copy_file)
  cli_size=$(du -h "$CLI/$BIG.json" | cut -f1)
  echo "1b. record into the OLLM CLI's format ($cli_records records, 10,000-message session, $cli_size)"
  printf '   %-48s %10s ms/record\n' "ollm-session record (splices the record in)" "$per_cli"
  printf '   %-48s %10s ms/record\n' "the CLI's way (Node, cached, rewrites whole)" "$per_node"
  printf '   %-48s %10s ms\n' "copying the file with fsync (dd conv=fsync)" "$copy_ms"
  echo "   ratio ollm/CLI: $(ratio "$per_cli" "$per_node")x   ollm/copy: $(ratio "$per_cli" "$copy_ms")x   CLI format/journal: $(ratio "$per_cli" "$per_big")x"
else
  echo "1b. record into the OLLM CLI's format: not measured (no node)"
fi
echo

# 2. Listing ---------------------------------------------------------------
LIST=$WORK/list
PLAIN=$WORK/plain
python3 "$GEN" "$LIST" "$SESSIONS" "$MESSAGES"
python3 "$GEN" "$PLAIN" "$SESSIONS" "$MESSAGES" --plain
list_ms=$(best_ms 3 "$BIN" --data-dir "$LIST" list --format json)
plain_ms=$(best_ms 3 "$BIN" --data-dir "$PLAIN" list --format json)
count=$("$BIN" --data-dir "$LIST" list --format json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')
echo "2. list ($count sessions of $MESSAGES messages)"
printf '   %-48s %10s ms\n' "journal sessions (reads summaries only)" "$list_ms"
printf '   %-48s %10s ms\n' "plain spec files (parses every message)" "$plain_ms"
echo "   ratio plain/summaries: $(ratio "$plain_ms" "$list_ms")x"
echo

# 3. Searching -------------------------------------------------------------
search_ms=$(best_ms 3 "$BIN" --data-dir "$LIST" search zanzibar --format json)
search_i_ms=$(best_ms 3 "$BIN" --data-dir "$LIST" search -i ZANZIBAR --format json)
rg_ms=$(best_ms 3 rg -F -uu zanzibar "$LIST")
rg_i_ms=$(best_ms 3 rg -F -i -uu ZANZIBAR "$LIST")
regex_ms=$(best_ms 3 "$BIN" --data-dir "$LIST" search --regex 'zanzi[a-z]+' --format json)
rg_regex_ms=$(best_ms 3 rg -uu 'zanzi[a-z]+' "$LIST")
hits=$("$BIN" --data-dir "$LIST" search zanzibar --format json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')
echo "3. search ($count sessions; the word is in $hits of them)"
printf '   %-48s %10s ms   rg: %8s ms   ratio %sx\n' "substring" "$search_ms" "$rg_ms" "$(ratio "$search_ms" "$rg_ms")"
printf '   %-48s %10s ms   rg: %8s ms   ratio %sx\n' "substring, ignoring case" "$search_i_ms" "$rg_i_ms" "$(ratio "$search_i_ms" "$rg_i_ms")"
printf '   %-48s %10s ms   rg: %8s ms   ratio %sx\n' "regular expression (prefiltered by its literals)" "$regex_ms" "$rg_regex_ms" "$(ratio "$regex_ms" "$rg_regex_ms")"

# 4. Redaction --------------------------------------------------------------
# One 'record' of a 6 kB tool result (a build log) with redaction on vs off,
# the two interleaved so that the disk's drift hits both alike: ordinary
# output, and the same with a .env dump in it (whose credentials' shapes
# are then compiled in the process). Then scan over the sessions of 2.
RED=$WORK/redact
CLEAN=$WORK/tool-output.txt
SECRETS=$WORK/tool-output-secrets.txt
python3 - "$CLEAN" "$SECRETS" <<'PY'
import sys
lines = [f"   Compiling crate{i} v0.{i}.0 (/home/u/src/crate{i}): warning: unused variable `x{i}` at src/lib.rs:{i}:9" for i in range(60)]
open(sys.argv[1], "w").write("\n".join(lines) + "\n")
lines[30:30] = ["$ cat .env", "DB_HOST=localhost", "DB_PASSWORD=hunter2hunter2", "OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwx1234"]
open(sys.argv[2], "w").write("\n".join(lines) + "\n")
PY
RID=$(OLLM_SESSION_FORMAT=journal "$BIN" --data-dir "$RED" create --model bench --provider bench | python3 -c 'import json,sys; print(json.load(sys.stdin)["sessionId"])')
# on_off FILE RUNS: mean ms of 'record' with redaction on, then off.
on_off() {
  local on=0 off=0 t0 t1
  for _ in $(seq "$2"); do
    t0=$(now_ns); "$BIN" --data-dir "$RED" record "$RID" --tool run --args '{"cmd":"cargo build"}' --result-file "$1" >/dev/null; t1=$(now_ns)
    on=$((on + t1 - t0))
    t0=$(now_ns); "$BIN" --data-dir "$RED" --no-redact record "$RID" --tool run --args '{"cmd":"cargo build"}' --result-file "$1" >/dev/null; t1=$(now_ns)
    off=$((off + t1 - t0))
  done
  python3 -c "print(f'{$on/1e6/$2:.2f} {$off/1e6/$2:.2f}')"
}
read -r clean_on clean_off < <(on_off "$CLEAN" 100)
read -r sec_on sec_off < <(on_off "$SECRETS" 100)
# scan exits 1 when it finds something: a finding, not a failure here.
scan_all() { "$BIN" --data-dir "$LIST" scan --all --format json || [ $? -eq 1 ]; }
scan_ms=$(best_ms 3 scan_all)
scan_bytes=$(du -sb "$LIST" | cut -f1)
scan_mbs=$(python3 -c "print(f'{$scan_bytes/1e6/($scan_ms/1000):.0f}')")
# 4b. Output shaped to defeat the scrubber (issue 54): one 'record' of 1 MB
# and 10 MB of each family that once made its cost quadratic, against the
# same size of ordinary build log, in one run.
hostile_rows=()
for mb in 1 10; do
  python3 - "$WORK/hostile" "$mb" <<'PY'
import os, sys
out, mb = sys.argv[1], int(sys.argv[2])
size = mb * 1_000_000
os.makedirs(out, exist_ok=True)
lines = [f"   Compiling crate{i} v0.{i}.0 (/home/u/src/crate{i}): warning: unused variable `x{i}` at src/lib.rs:{i}:9" for i in range(60)]
log = "\n".join(lines) + "\n"
families = {"build-log": log, "ghp_": "ghp_", "key-": " key-", "BEGIN": "-----BEGIN ", "password=": "password="}
for name, unit in families.items():
    open(os.path.join(out, name), "w").write((unit * (size // len(unit) + 1))[:size])
PY
  base_ms=$(best_ms 3 "$BIN" --data-dir "$RED" record "$RID" --tool t --args '{}' --result-file "$WORK/hostile/build-log")
  for family in ghp_ key- BEGIN password=; do
    ms=$(best_ms 3 "$BIN" --data-dir "$RED" record "$RID" --tool t --args '{}' --result-file "$WORK/hostile/$family")
    hostile_rows+=("$(printf '   %-48s %10s ms   build log: %6s ms   ratio %sx' "record, $mb MB of '$family' repeated" "$ms" "$base_ms" "$(ratio "$ms" "$base_ms")")")
  done
done
rm -rf "$WORK/hostile"
echo "4. redaction ($(wc -c < "$CLEAN")-byte tool result, 100 interleaved runs; scan of the $count sessions of 2, $((scan_bytes / 1000000)) MB)"
printf '   %-48s %10s ms   off: %6s ms   ratio %sx\n' "record, ordinary output" "$clean_on" "$clean_off" "$(ratio "$clean_on" "$clean_off")"
printf '   %-48s %10s ms   off: %6s ms   ratio %sx\n' "record, output holding credentials" "$sec_on" "$sec_off" "$(ratio "$sec_on" "$sec_off")"
printf '   %-48s %10s ms   %s MB/s\n' "scan --all" "$scan_ms" "$scan_mbs"
printf '%s\n' "${hostile_rows[@]}"
echo

# 5. Importing ----------------------------------------------------------------
# IMPORT_MB of Claude Code projects (bench/gen_claude.py: progress lines,
# responses over several lines, tool results) imported into an empty store,
# against `cat` reading the same files (both from the page cache), and the
# import's peak memory; then $SESSIONS small imported sessions, listed.
CLAUDE=$WORK/claude
python3 bench/gen_claude.py "$CLAUDE" "$IMPORT_MB" 2>/dev/null
claude_bytes=$(du -sb "$CLAUDE" | cut -f1)
cat_claude() { find "$CLAUDE" -name '*.jsonl' -exec cat {} + >/dev/null; }
cat_ms=$(best_ms 3 cat_claude)
import_ms=""
for run in 1 2; do
  rm -rf "$WORK/imported"
  sync
  t0=$(now_ns)
  /usr/bin/time -f '%M' -o "$WORK/import.rss" "$BIN" --data-dir "$WORK/imported" import --from claude "$CLAUDE" >/dev/null
  t1=$(now_ns)
  ms=$(( (t1 - t0) / 1000000 ))
  if [ -z "$import_ms" ] || [ "$ms" -lt "$import_ms" ]; then import_ms=$ms; rss_kb=$(tail -1 "$WORK/import.rss"); fi
done
imported_count=$("$BIN" --data-dir "$WORK/imported" list --format json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')
rm -rf "$WORK/imported" "$CLAUDE"
mbs() { python3 -c "print(f'{$claude_bytes/1e6/($1/1000):.0f}')"; }
MANY=$WORK/claude-many
python3 bench/gen_claude.py "$MANY" 0 --sessions "$SESSIONS" 2>/dev/null
"$BIN" --data-dir "$WORK/many" import --from claude "$MANY" >/dev/null
many_ms=$(best_ms 3 "$BIN" --data-dir "$WORK/many" list --format json)
many=$("$BIN" --data-dir "$WORK/many" list --format json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')
echo "5. import ($((claude_bytes / 1000000)) MB of Claude Code sessions, $imported_count sessions)"
printf '   %-48s %10s ms   %s MB/s   cat: %s ms, %s MB/s\n' "import --from claude" "$import_ms" "$(mbs "$import_ms")" "$cat_ms" "$(mbs "$cat_ms")"
printf '   %-48s %10s MB\n' "peak memory of the import" "$((rss_kb / 1024))"
printf '   %-48s %10s ms\n' "list of $many imported sessions" "$many_ms"

# One Claude Code session of LARGE_TURNS turns (about 300 MB), imported
# alone: its peak memory is bounded by the session's tree index and one
# part, not by its size.
LARGE=$WORK/claude-large
python3 bench/gen_claude.py "$LARGE" 1 --turns "$LARGE_TURNS" 2>/dev/null
large_bytes=$(du -sb "$LARGE" | cut -f1)
t0=$(now_ns)
/usr/bin/time -f '%M' -o "$WORK/large.rss" "$BIN" --data-dir "$WORK/large" import --from claude "$LARGE" >/dev/null
t1=$(now_ns)
large_ms=$(( (t1 - t0) / 1000000 ))
large_rss_kb=$(tail -1 "$WORK/large.rss")
rm -rf "$WORK/large" "$LARGE"
printf '   %-48s %10s ms   %s MB/s   peak memory: %s MB\n' "import of one $((large_bytes / 1000000)) MB session" "$large_ms" \
  "$(python3 -c "print(f'{$large_bytes/1e6/($large_ms/1000):.0f}')")" "$((large_rss_kb / 1024))"

# One gemini-cli chat of GEMINI_TURNS turns (about 175 MB; bench/gen_gemini.py:
# messages written again under their id, a checkpoint, rewinds), imported
# alone: read in two passes, its peak memory is an index of its messages.
GEMINI=$WORK/gemini-large
python3 bench/gen_gemini.py "$GEMINI" "$GEMINI_TURNS" 2>/dev/null
gemini_bytes=$(du -sb "$GEMINI/.gemini/tmp" | cut -f1)
t0=$(now_ns)
/usr/bin/time -f '%M' -o "$WORK/gemini.rss" "$BIN" --data-dir "$WORK/gemini" import --from gemini "$GEMINI/.gemini/tmp" >/dev/null
t1=$(now_ns)
gemini_ms=$(( (t1 - t0) / 1000000 ))
gemini_rss_kb=$(tail -1 "$WORK/gemini.rss")
rm -rf "$WORK/gemini" "$GEMINI"
printf '   %-48s %10s ms   %s MB/s   peak memory: %s MB\n' "import of one $((gemini_bytes / 1000000)) MB gemini-cli chat" "$gemini_ms" \
  "$(python3 -c "print(f'{$gemini_bytes/1e6/($gemini_ms/1000):.0f}')")" "$((gemini_rss_kb / 1024))"
