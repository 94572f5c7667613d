#!/usr/bin/env bash
# Benchmarks live imports (`ollm-session import --hook`, `--watch`) and
# prints figures against their goals (not a timed test):
#   1. a hook call on an unchanged transcript, in a store of SESSIONS
#      imported sessions (goal: 20 ms), and one that imports one new line
#      (goal: 30 ms): median and p99 over CALLS calls each;
#   2. a line appended to a watched transcript until `search` finds it,
#      p99 over APPENDS appends (goal: 1 s; the figure includes the
#      polling of `search`, every 20 ms);
#   3. the watcher idle over those SESSIONS transcripts: its CPU over
#      IDLE_SECONDS, its resident memory and its open descriptors.
# Environment: SESSIONS (10000), CALLS (50), APPENDS (200), IDLE_SECONDS
# (30), BIN (the ollm-session binary, as bench/run passes it: default the
# release build, made here), BENCH_DIR (where the data goes). bench/run
# runs it as its `live_import` rows.
set -euo pipefail
cd "$(dirname "$0")/.."

SESSIONS=${SESSIONS:-10000}
CALLS=${CALLS:-50}
APPENDS=${APPENDS:-200}
IDLE_SECONDS=${IDLE_SECONDS:-30}
if [[ -z ${BIN:-} ]]; then
  cargo build --release --quiet --bin ollm-session
  BIN=$PWD/target/$(rustc --print host-tuple)/release/ollm-session
fi
session=$BIN

work=$(mktemp -d "${BENCH_DIR:-${TMPDIR:-/tmp}}/ollm-bench-live.XXXXXX")
# (Not `kill "${watcher:-0}"`: `kill 0` is the whole process group,
# bench/run and whatever started it among them.)
trap 'if [[ -n ${watcher:-} ]]; then kill "$watcher" 2>/dev/null || true; fi; rm -rf "$work"' EXIT
export HOME=$work/home OLLM_HOME=$work/home/.ollm
mkdir -p "$OLLM_HOME"
projects=$HOME/.claude/projects
python3 bench/gen_claude.py "$projects" 1 --sessions "$SESSIONS" >/dev/null
"$session" import --from claude >/dev/null 2>&1
# -quit, not `| head -1`: with pipefail, find killed by SIGPIPE once head
# has its line fails the script.
transcript=$(find "$projects" -name '*.jsonl' -print -quit)

now_ns() { date +%s%N; }
# percentile P of the numbers on stdin (nearest rank)
percentile() { sort -n | awk -v p="$1" '{v[NR]=$1} END {i=int((p*NR+99)/100); if (i<1) i=1; print v[i]}'; }
# a new user line continuing $transcript, holding the word $1
new_line() {
  python3 - "$transcript" "$1" <<'PY'
import json, sys, uuid
path, word = sys.argv[1], sys.argv[2]
last = json.loads(open(path).read().splitlines()[-1])
line = {"parentUuid": last.get("uuid"), "isSidechain": False, "userType": "external",
        "cwd": last.get("cwd", "/tmp"), "sessionId": last.get("sessionId"), "version": "2.1.38",
        "type": "user", "uuid": str(uuid.uuid4()), "timestamp": "2026-11-29T12:00:00.000Z",
        "message": {"role": "user", "content": "benchmark line " + word}}
print(json.dumps(line))
PY
}
hook() { printf '{"session_id":"s","transcript_path":"%s","cwd":"/tmp","hook_event_name":"Stop"}' "$transcript" | "$session" import --hook claude 2>/dev/null; }

unchanged=() added=()
for _ in $(seq "$CALLS"); do
  t0=$(now_ns); hook; unchanged+=($(( ($(now_ns) - t0) / 1000 )))
done
for i in $(seq "$CALLS"); do
  new_line "hookword$i" >>"$transcript"
  t0=$(now_ns); hook; added+=($(( ($(now_ns) - t0) / 1000 )))
done
printf '%s\n' "${unchanged[@]}" >"$work/unchanged"
printf '%s\n' "${added[@]}" >"$work/added"
echo "hook, unchanged transcript, $SESSIONS sessions: median $(percentile 50 <"$work/unchanged") µs, p99 $(percentile 99 <"$work/unchanged") µs (goal 20000)"
echo "hook, one new line, $SESSIONS sessions: median $(percentile 50 <"$work/added") µs, p99 $(percentile 99 <"$work/added") µs (goal 30000)"

# Its stdin a pipe that this script holds open (fd 3): the watcher runs
# until the script ends, then sees its stdin closed and stops, leaving
# nothing behind. $! is the watcher itself, not another one on the machine.
mkfifo "$work/stdin"
"$session" import --watch --from claude <"$work/stdin" >"$work/watch.out" 2>"$work/watch.err" &
watcher=$!
exec 3>"$work/stdin"
# The catch-up is over when the watcher's CPU time stops growing.
cpu_ticks() { awk '{print $14+$15}' "/proc/$watcher/stat"; }
before=-1
while [[ $(cpu_ticks) != "$before" ]]; do before=$(cpu_ticks); sleep 2; done
latencies=()
for i in $(seq "$APPENDS"); do
  word="watchword$i$RANDOM"
  line=$(new_line "$word")
  t0=$(now_ns)
  echo "$line" >>"$transcript"
  until "$session" search "$word" --format json 2>/dev/null | grep -q "$word"; do sleep 0.02; done
  latencies+=($(( ($(now_ns) - t0) / 1000 )))
done
printf '%s\n' "${latencies[@]}" >"$work/latency"
echo "append -> searchable, watched: median $(percentile 50 <"$work/latency") µs, p99 $(percentile 99 <"$work/latency") µs over $APPENDS appends (goal 1000000)"

tck=$(getconf CLK_TCK)
t0=$(awk '{print $14+$15}' "/proc/$watcher/stat"); s0=$(now_ns)
sleep "$IDLE_SECONDS"
t1=$(awk '{print $14+$15}' "/proc/$watcher/stat"); s1=$(now_ns)
cpu=$(echo "scale=3; ($t1 - $t0) * 100 / $tck / (($s1 - $s0) / 1000000000)" | bc)
rss=$(awk '/VmRSS/ {print $2}' "/proc/$watcher/status")
fds=$(find "/proc/$watcher/fd" -mindepth 1 | wc -l)
echo "watcher idle over $SESSIONS transcripts: ${cpu}% of a core over ${IDLE_SECONDS} s, ${rss} kB resident, $fds descriptors"
