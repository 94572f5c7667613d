#!/usr/bin/env bash
# Benchmark of ollm-loopcheck, measured in one run:
#   1. streaming throughput in events per second (a realistic mix of turns,
#      tool calls with nested arguments and outputs; no loop, so every event
#      is checked against every rule);
#   2. the per-turn cost of the incremental mode (--state) at turn 5 and at
#      turn 5,000, as a ratio (the state is bounded, so it should be ~1);
#   3. for contrast, the per-turn cost of re-checking the whole history
#      one-shot at turn 5 and at turn 5,000.
# Usage: bash bench/loopcheck.sh [EVENTS] [CALLS]
set -euo pipefail
cd "$(dirname "$0")/.."

events=${1:-300000}
calls=${2:-200}
export CARGO_BUILD_JOBS=${CARGO_BUILD_JOBS:-1}
cargo build --release --locked --quiet --bin ollm-loopcheck
bin=$PWD/target/$(rustc --print host-tuple)/release/ollm-loopcheck

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OLLM_HOME=$work/home HOME=$work/home
mkdir -p "$OLLM_HOME"
cd "$work"

# Turns of: a turn, a read of a different file, an edit with nested
# arguments, and an output describing it.
gen_turns() { # FIRST COUNT
  awk -v first="$1" -v n="$2" 'BEGIN {
    for (i = first; i < first + n; i++) {
      print "{\"type\":\"turn\"}"
      printf "{\"type\":\"tool\",\"name\":\"read_file\",\"args\":{\"path\":\"src/mod_%d.rs\",\"range\":{\"start\":%d,\"end\":%d}}}\n", i, i % 40, i % 40 + 60
      printf "{\"type\":\"tool\",\"name\":\"edit_file\",\"args\":{\"path\":\"src/mod_%d.rs\",\"edits\":[{\"old\":\"fn old_%d\",\"new\":\"fn new_%d\"}]}}\n", i, i, i
      printf "{\"type\":\"output\",\"text\":\"Renamed old_%d to new_%d in src/mod_%d.rs; %d call sites updated, tests for module %d next.\"}\n", i, i, i, i % 17, i
    }
  }'
}

now_ns() { date +%s%N; }

# 1. Streaming throughput.
gen_turns 0 $((events / 4)) > stream.ndjson
total=$(wc -l < stream.ndjson)
start=$(now_ns)
"$bin" --stream --max-turns 100000000 < stream.ndjson > stream.out
end=$(now_ns)
stream_ns=$((end - start))
grep -q '"loop":false' stream.out || { echo "unexpected loop in the benchmark stream" >&2; exit 1; }

# 1b. Streaming outputs only, each compared with the previous by diff ratio.
awk -v n=$((events / 4)) 'BEGIN {
  for (i = 0; i < n; i++)
    printf "{\"type\":\"output\",\"text\":\"Step %d: looked at module %d, found %d issues in %s; moving on to the %s part next.\"}\n", i, i * 7 % 101, i % 13, (i % 3 ? "parsing" : "rendering"), (i % 2 ? "storage" : "network")
}' > outputs.ndjson
outputs_total=$(wc -l < outputs.ndjson)
start=$(now_ns)
"$bin" --stream --warn-only < outputs.ndjson > /dev/null
end=$(now_ns)
outputs_ns=$((end - start))

# 2. Incremental per-turn cost at turn 5 and at turn 5,000.
per_turn_state() { # TURNS -> average ns per call
  local turns=$1 state="state-$1.json"
  gen_turns 0 "$turns" | "$bin" --state "$state" --max-turns 100000000 > /dev/null
  for i in $(seq 0 $((calls - 1))); do gen_turns $((turns + i)) 1 > "turn-$turns-$i.ndjson"; done
  local t0 t1
  t0=$(now_ns)
  for i in $(seq 0 $((calls - 1))); do
    "$bin" --state "$state" --max-turns 100000000 "turn-$turns-$i.ndjson" > /dev/null
  done
  t1=$(now_ns)
  echo $(((t1 - t0) / calls))
}
inc5=$(per_turn_state 5)
inc5000=$(per_turn_state 5000)

# 3. One-shot over the whole history at turn 5 and at turn 5,000.
per_turn_oneshot() { # TURNS -> average ns per call
  gen_turns 0 "$1" > "history-$1.ndjson"
  local t0 t1
  t0=$(now_ns)
  for _ in $(seq 1 "$calls"); do "$bin" --max-turns 100000000 "history-$1.ndjson" > /dev/null; done
  t1=$(now_ns)
  echo $(((t1 - t0) / calls))
}
one5=$(per_turn_oneshot 5)
one5000=$(per_turn_oneshot 5000)

awk -v n="$total" -v ns="$stream_ns" -v on="$outputs_total" -v ons="$outputs_ns" -v i5="$inc5" -v i5k="$inc5000" -v o5="$one5" -v o5k="$one5000" 'BEGIN {
  printf "streaming: %d events in %.3f s = %.0f events/s\n", n, ns / 1e9, n / (ns / 1e9)
  printf "streaming outputs only (diff ratio per output): %d events in %.3f s = %.0f events/s\n", on, ons / 1e9, on / (ons / 1e9)
  printf "incremental (--state) per turn: turn 5 %.2f ms, turn 5,000 %.2f ms, ratio 5,000/5 = %.2f\n", i5 / 1e6, i5k / 1e6, i5k / i5
  printf "one-shot over the whole history per turn: turn 5 %.2f ms, turn 5,000 %.2f ms, ratio 5,000/5 = %.2f\n", o5 / 1e6, o5k / 1e6, o5k / o5
  printf "at turn 5,000 the incremental mode is %.1fx cheaper per turn than re-checking the history\n", o5k / i5k
}'
