#!/usr/bin/env bash
# How the cost of finding a session grows with the store (issues 31 and
# 48): at each size in SCALES, in each store format of FORMATS (the
# default store, sessions in the OLLM CLI's format, `<id>.json`; and
# ollm's journals), sessions of MESSAGES messages are generated
# (bench/gen_sessions.py: one in 100 holds the word "zanzibar"), then
# each command is timed (the best of RUNS runs, warm cache):
#   list --limit 20, get --last, record --last, get <6-character prefix>,
#   get <title>, get --here, list of all as NDJSON (and until its first
#   row comes), search of a rare word,
#   a --regex with a literal and a common word (each beside rg over the
#   same files, the index left out), a search right after a record (it
#   reads what the record added), `get --last` and `list --limit 20`
#   right after a record, a create and a delete (ollm's own writes, which
#   cost the next read no pass over the data directory), record into a
#   session by its id, and
#   the first command on the unindexed store (`list --limit 1`, which
#   builds the index) and the rebuild of the index with search's bits
#   (reindex), each in MB of session files per second. The two formats of
#   one size run one after the other, and a table of both side by side
#   ends the run, with `record --last` of the default store over the
#   journal's at each size (issue 48's goal: at most 2).
# Environment: SCALES ("100 10000 100000"; SIZES is the same),
# FORMATS ("cli journal"), ROWS (optional: the labels of the rows to time,
# separated by commas, e.g. "get --last,list --limit 20"; the others are
# skipped, so a run of the goal rows takes minutes; the store is still
# made and indexed first), MESSAGES (20), RUNS (5), BIN (an ollm-session binary; default: a
# release build), BASE_BIN (an older ollm-session to compare `record`
# with, optional), BENCH_DIR, SCALE_CACHE (optional: a directory where
# the generated sessions are kept, as s<N>-<format> made in its
# project/, and copied from by later runs rather than made again: making
# 100,000 sessions takes 10–20 minutes here, copying them one or two).
set -euo pipefail
cd "$(dirname "$0")/.."

SCALES=${SCALES:-${SIZES:-"100 10000 100000"}}
ROWS=${ROWS:-}
FORMATS=${FORMATS:-"cli journal"}
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
project_dir=${SCALE_CACHE:+$SCALE_CACHE/project}
project_dir=${project_dir:-$WORK/project}
mkdir -p "$HOME" "$project_dir/.git"
project=$(cd "$project_dir" && pwd -P)

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
# best_after WRITE READ...: the fastest of RUNS runs of READ, each right
# after one run of the command WRITE (not timed).
best_after() {
  local write=$1; shift
  local best=""
  for _ in $(seq "$RUNS"); do
    "$write" >/dev/null
    local t; t=$(best_ms 1 "$@")
    if [ -z "$best" ] || python3 -c "import sys; sys.exit(0 if float('$t') < float('$best') else 1)"; then best=$t; fi
  done
  echo "$best"
}
ratio() { python3 -c "import sys; a,b=float(sys.argv[1]),float(sys.argv[2]); print(f'{a/b:.2f}' if b else 'inf')" "$1" "$2"; }
message='{"role":"user","parts":[{"type":"text","text":"one more turn of ordinary chat text"}]}'

# wanted LABEL: whether ROWS asks for the row LABEL (every row without ROWS).
wanted() {
  # Matched whole between commas, so a label's own comma (the listing's) keeps.
  [[ -z $ROWS || ",$ROWS," == *",$1,"* ]]
}
# timed FORMAT N LABEL COMMAND...: the row LABEL, the best of RUNS runs
# of COMMAND, when it is wanted.
timed() {
  local fmt=$1 n=$2 label=$3; shift 3
  wanted "$label" || return 0
  row "$fmt" "$n" "$label" "$(best_ms "$RUNS" "$@")"
}
# timed_after FORMAT N LABEL WRITE READ...: the row LABEL from best_after.
timed_after() {
  local fmt=$1 n=$2 label=$3; shift 3
  wanted "$label" || return 0
  row "$fmt" "$n" "$label" "$(best_after "$@")"
}

# row FORMAT N LABEL MS [REST]: one row of the block, kept for the table.
declare -A TABLE
row() {
  printf '   %-40s %10s ms%s\n' "$3" "$4" "${5:+   $5}"
  TABLE["$3|$1|$2"]=$4
}

echo "scale: sessions of $MESSAGES messages; the best of $RUNS runs each"
for n in $SCALES; do
 for fmt in $FORMATS; do
  data=$WORK/s$n-$fmt
  plain=(); [[ $fmt == cli ]] && plain=(--plain)
  # One in 100 made in the project (what --here finds).
  if [[ -n ${SCALE_CACHE:-} ]]; then
    cached=$SCALE_CACHE/s$n-$fmt
    [[ -d $cached ]] || python3 "$GEN" "$cached" "$n" "$MESSAGES" --workspace "$project" "${plain[@]}" >/dev/null
    cp -a "$cached" "$data"
  else
    python3 "$GEN" "$data" "$n" "$MESSAGES" --workspace "$project" "${plain[@]}" >/dev/null
  fi
  chmod -R go-rwx "$data"
  mb=$(du -sm --exclude=.index --exclude=.locks "$data" | cut -f1)
  s=(env -C "$WORK" "$BIN" --data-dir "$data")
  sync
  # The first command on a store with no index builds it.
  first_ms=$(best_ms 1 "${s[@]}" list --limit 1 --format json)
  # A titled session in the middle.
  mid=$("${s[@]}" list --format ndjson --offset $((n / 2)) --limit 1 | python3 -c 'import json,sys; print(json.loads(sys.stdin.readline())["sessionId"])')
  "${s[@]}" rename "$mid" "retry logic" >/dev/null
  reindex_ms=$(best_ms 1 "${s[@]}" reindex)
  sleep 2.1 # past the index's racy window for the data directory's change time
  echo "== $n sessions, $fmt format ($mb MB)"
  mbs() { python3 -c "print(round($mb / max($1, 0.1) * 1000))"; }
  wanted "first command, no index" && row "$fmt" "$n" "first command, no index" "$first_ms" "$(mbs "$first_ms") MB/s"
  wanted reindex && row "$fmt" "$n" "reindex" "$reindex_ms" "$(mbs "$reindex_ms") MB/s"
  timed "$fmt" "$n" "list --limit 20" "${s[@]}" list --limit 20 --format json
  timed "$fmt" "$n" "get --last" "${s[@]}" get --last --format json
  timed "$fmt" "$n" "record --last" sh -c "echo '$message' | \"\$@\" record --last" sh "${s[@]}"
  timed "$fmt" "$n" "get <6-character prefix>" "${s[@]}" get "${mid:0:6}" --format json
  timed "$fmt" "$n" "get <title>" "${s[@]}" get "retry logic" --format json
  timed "$fmt" "$n" "get --here" env -C "$project" "$BIN" --data-dir "$data" get --here --format json
  timed "$fmt" "$n" "list (all, ndjson)" "${s[@]}" list --format ndjson
  # Until a reader has the first row (and the listing, writing its second
  # page into a closed pipe, stops): what a picker's first screen waits for.
  timed "$fmt" "$n" "list (all, ndjson), first row" sh -c '"$@" list --format ndjson | head -n 1' sh "${s[@]}"
  timed "$fmt" "$n" "record <id>" sh -c "echo '$message' | \"\$@\" record $mid" sh "${s[@]}"
  if [[ -n ${BASE_BIN:-} ]]; then
    timed "$fmt" "$n" "record <id>, BASE_BIN" sh -c "echo '$message' | \"\$@\" record $mid" sh env -C "$WORK" "$BASE_BIN" --data-dir "$data"
  fi
  for q in "rare:zanzibar" "regex:zanzi[a-z]+" "common:patch"; do
    kind=${q%%:*} word=${q#*:}
    wanted "search ($kind) $word" || continue
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
    TABLE["search ($kind) $word|$fmt|$n"]="$ours (rg $theirs)"
  done
  record_mid() { echo "$message" | "${s[@]}" record "$mid"; }
  record_last() { echo "$message" | "${s[@]}" record --last; }
  create_one() { OLLM_SESSION_FORMAT=$fmt "${s[@]}" create --model m --provider p; }
  delete_one() {
    local id
    id=$(create_one | python3 -c 'import json,sys; print(json.load(sys.stdin)["sessionId"])')
    "${s[@]}" delete "$id"
  }
  # A search right after a record pays for the bits of what it added.
  timed_after "$fmt" "$n" "search after a record" record_mid "${s[@]}" search zanzibar --format json
  # Reads right after ollm's own writes: in the CLI format each renamed
  # an entry of the data directory, which the index is told of (no pass
  # over the entries).
  timed_after "$fmt" "$n" "get --last after a record" record_mid "${s[@]}" get --last --format json
  timed_after "$fmt" "$n" "list --limit 20 after a record" record_last "${s[@]}" list --limit 20 --format json
  for what in create delete; do
    timed_after "$fmt" "$n" "get --last after a $what" "${what}_one" "${s[@]}" get --last --format json
    timed_after "$fmt" "$n" "list --limit 20 after a $what" "${what}_one" "${s[@]}" list --limit 20 --format json
  done
  rm -rf "$data"
 done
done

# Both formats side by side, in ms (rg's time over the same files beside
# each search).
labels=("first command, no index" "reindex" "list --limit 20" "get --last" "record --last"
  "get <6-character prefix>" "get <title>" "get --here" "list (all, ndjson)"
  "list (all, ndjson), first row" "record <id>" "search (rare) zanzibar"
  "search (regex) zanzi[a-z]+" "search (common) patch" "search after a record"
  "get --last after a record" "list --limit 20 after a record"
  "get --last after a create" "list --limit 20 after a create"
  "get --last after a delete" "list --limit 20 after a delete")
echo "== side by side (ms)"
header="   | command |"
for n in $SCALES; do for fmt in $FORMATS; do header+=" $fmt $n |"; done; done
echo "$header"
for label in "${labels[@]}"; do
  wanted "$label" || continue
  line="   | $label |"
  for n in $SCALES; do for fmt in $FORMATS; do line+=" ${TABLE["$label|$fmt|$n"]:-} |"; done; done
  echo "$line"
done
# The default store's record --last over the journal's, at each size.
if [[ " $FORMATS " == *" cli "* && " $FORMATS " == *" journal "* ]]; then
  for n in $SCALES; do
    cli=${TABLE["record --last|cli|$n"]:-} journal=${TABLE["record --last|journal|$n"]:-}
    [[ -n $cli && -n $journal ]] && echo "   record --last at $n sessions: CLI format / journal = $(ratio "$cli" "$journal")"
  done
fi
# Each row at the largest size over the smallest, per format (issue 48's
# goal for --last, a prefix, a title, --here and list --limit 20: at most 1.5).
read -r -a sizes <<<"$SCALES"
if (( ${#sizes[@]} > 1 )); then
  small=${sizes[0]} large=${sizes[-1]}
  for fmt in $FORMATS; do
    for label in "${labels[@]}"; do
      a=${TABLE["$label|$fmt|$large"]:-} b=${TABLE["$label|$fmt|$small"]:-}
      [[ $a =~ ^[0-9.]+$ && $b =~ ^[0-9.]+$ ]] || continue
      echo "   $label, $fmt format: $large sessions / $small = $(ratio "$a" "$b")"
    done
  done
fi
