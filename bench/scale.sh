#!/usr/bin/env bash
# How the cost of finding a session grows with the store (issue 31): at
# each size in SCALES, sessions of MESSAGES messages are generated
# (bench/gen_sessions.py: one in 100 holds the word "zanzibar"), then
# each command is timed (the best of RUNS runs, warm cache):
#   list --limit 20, get --last, record --last, get <6-character prefix>,
#   get <title>, get --here, list of all as NDJSON (and until its first
#   row comes), search of a rare word,
#   a --regex with a literal and a common word (each beside rg over the
#   same files, the index left out), a search right after a record (it
#   reads what the record added), record into a session by its id, and
#   the rebuild of the index with search's bits (reindex) in MB of
#   journal per second.
# The sessions are journals (a session in the OLLM CLI's format is
# rewritten whole through a rename in the data directory, and the next
# read then compares the directory with the index: see docs/ollm-session.md).
# Environment: SCALES ("100 10000 100000"), MESSAGES (20), RUNS (5),
# BIN (an ollm-session binary; default: a release build), BASE_BIN (an
# older ollm-session to compare `record` with, optional), BENCH_DIR.
set -euo pipefail
cd "$(dirname "$0")/.."

SCALES=${SCALES:-"100 10000 100000"}
MESSAGES=${MESSAGES:-20}
RUNS=${RUNS:-5}

command -v rg >/dev/null || { echo "bench: ripgrep is missing (apt-get install -y ripgrep)" >&2; exit 1; }
if [[ -z ${BIN:-} ]]; then
  cargo build --release --quiet --bin ollm-session
  BIN=$PWD/target/$(rustc --print host-tuple)/release/ollm-session
fi
GEN=$PWD/bench/gen_sessions.py

WORK=$(mktemp -d "${BENCH_DIR:-${TMPDIR:-/tmp}}/ollm-scale-bench.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
# No session is deleted to keep within maxSessions when the bench creates one.
export HOME=$WORK/home OLLM_HOME=$WORK/home OLLM_SESSION_MAX_SESSIONS=0
mkdir -p "$HOME" "$WORK/project/.git"
project=$(cd "$WORK/project" && pwd -P)

now_ns() { date +%s%N; }
# best_ms RUNS CMD...: the fastest of RUNS runs, in milliseconds.
best_ms() {
  local runs=$1; shift
  local best=""
  for _ in $(seq "$runs"); do
    local t0 t1
    # Microseconds from bash's own clock: no process forked for it
    # inside the window (`date` added a millisecond or two to each row).
    t0=${EPOCHREALTIME/./}; "$@" >/dev/null; t1=${EPOCHREALTIME/./}
    local us=$(( t1 - t0 ))
    if [ -z "$best" ] || [ "$us" -lt "$best" ]; then best=$us; fi
  done
  python3 -c "print(f'{$best/1000:.1f}')"
}
ratio() { python3 -c "import sys; a,b=float(sys.argv[1]),float(sys.argv[2]); print(f'{a/b:.2f}' if b else 'inf')" "$1" "$2"; }
message='{"role":"user","parts":[{"type":"text","text":"one more turn of ordinary chat text"}]}'

echo "scale: sessions of $MESSAGES messages; the best of $RUNS runs each"
for n in $SCALES; do
  data=$WORK/s$n
  # One in 100 made in the project (what --here finds).
  python3 "$GEN" "$data" "$n" "$MESSAGES" --workspace "$project" >/dev/null
  chmod -R go-rwx "$data"
  s=(env -C "$WORK" "$BIN" --data-dir "$data")
  # A titled session in the middle.
  mid=$("${s[@]}" list --format ndjson --offset $((n / 2)) --limit 1 | python3 -c 'import json,sys; print(json.loads(sys.stdin.readline())["sessionId"])')
  "${s[@]}" rename "$mid" "retry logic" >/dev/null
  mb=$(du -sm --exclude=.index --exclude=.locks "$data" | cut -f1)
  sync
  reindex_ms=$(best_ms 1 "${s[@]}" reindex)
  sleep 2.1 # past the index's racy window for the data directory's change time
  echo "== $n sessions ($mb MB)"
  printf '   %-40s %10s ms   %s MB/s\n' "reindex" "$reindex_ms" "$(python3 -c "print(round($mb / max($reindex_ms, 0.1) * 1000))")"
  printf '   %-40s %10s ms\n' "list --limit 20" "$(best_ms "$RUNS" "${s[@]}" list --limit 20 --format json)"
  printf '   %-40s %10s ms\n' "get --last" "$(best_ms "$RUNS" "${s[@]}" get --last --format json)"
  printf '   %-40s %10s ms\n' "record --last" "$(best_ms "$RUNS" sh -c "echo '$message' | \"\$@\" record --last" sh "${s[@]}")"
  printf '   %-40s %10s ms\n' "get <6-character prefix>" "$(best_ms "$RUNS" "${s[@]}" get "${mid:0:6}" --format json)"
  printf '   %-40s %10s ms\n' "get <title>" "$(best_ms "$RUNS" "${s[@]}" get "retry logic" --format json)"
  printf '   %-40s %10s ms\n' "get --here" "$(best_ms "$RUNS" env -C "$WORK/project" "$BIN" --data-dir "$data" get --here --format json)"
  printf '   %-40s %10s ms\n' "list (all, ndjson)" "$(best_ms "$RUNS" "${s[@]}" list --format ndjson)"
  # Until a reader has the first row (and the listing, writing its second
  # page into a closed pipe, stops): what a picker's first screen waits for.
  printf '   %-40s %10s ms\n' "list (all, ndjson), first row" "$(best_ms "$RUNS" sh -c '"$@" list --format ndjson | head -n 1' sh "${s[@]}")"
  printf '   %-40s %10s ms\n' "record <id>" "$(best_ms "$RUNS" sh -c "echo '$message' | \"\$@\" record $mid" sh "${s[@]}")"
  if [[ -n ${BASE_BIN:-} ]]; then
    printf '   %-40s %10s ms\n' "record <id>, BASE_BIN" "$(best_ms "$RUNS" sh -c "echo '$message' | \"\$@\" record $mid" sh env -C "$WORK" "$BASE_BIN" --data-dir "$data")"
  fi
  for q in "rare:zanzibar" "regex:zanzi[a-z]+" "common:patch"; do
    kind=${q%%:*} word=${q#*:}
    # rg prints every matching line, as search prints every hit.
    if [[ $kind == regex ]]; then
      ours=$(best_ms "$RUNS" "${s[@]}" search --regex "$word" --format json)
      theirs=$(best_ms "$RUNS" rg -uu -g '!.index' "$word" "$data")
    else
      runs=$RUNS; [[ $kind == common ]] && runs=1
      ours=$(best_ms "$runs" "${s[@]}" search "$word" --format json)
      theirs=$(best_ms "$runs" rg -uu -g '!.index' -F "$word" "$data")
    fi
    printf '   %-40s %10s ms   rg: %8s ms   ratio %sx\n' "search ($kind) $word" "$ours" "$theirs" "$(ratio "$ours" "$theirs")"
  done
  # A search right after a record pays for the bits of what it added.
  best=""
  for _ in $(seq "$RUNS"); do
    echo "$message" | "${s[@]}" record "$mid" >/dev/null
    t=$(best_ms 1 "${s[@]}" search zanzibar --format json)
    if [ -z "$best" ] || python3 -c "import sys; sys.exit(0 if float('$t') < float('$best') else 1)"; then best=$t; fi
  done
  printf '   %-40s %10s ms\n' "search after a record" "$best"
  rm -rf "$data"
done
