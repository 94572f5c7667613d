#!/usr/bin/env bash
# Benchmarks the PostgreSQL session store beside the file store (ratios,
# not a timed test):
#   1. recording into a 10,000-message session vs a new one, and vs the
#      file store (goal: <= 3x the file store, independent of length);
#   2. listing 10,000 sessions (goal: <= 100 ms);
#   3. searching 10,000 sessions vs ripgrep over the file store (goal: <= 1x);
#   4. 8 concurrent writers into one session: records per second;
#   5. finding sessions as the database grows (issue 31): at each size in
#      SCALES, in a database of its own, the rows of bench/scale.sh in its
#      format: list --limit 20, get --last, record --last, get <6-character
#      prefix>, get <title>, get --here, the whole listing as NDJSON, record
#      into a session by its id, and search (a rare word, a --regex with a
#      literal) beside rg over the same journals. Every size's database is
#      made first, then each row is timed at each size in turn, run after
#      run (a change of the machine's load between sizes does not show as
#      growth), beside BIN through `ollm-session keep` (kept:), and beside
#      BASE_BIN when it is set.
# The sessions are made as journals (bench/gen_sessions.py; one in 100 made
# in one workspace) and moved into the database with `ollm-session copy`;
# `time: …` lines say how long making and copying them took.
# Environment: PG_URL (a server URL; default OLLM_TEST_PG_URL, else the
# local socket), RECORDS (300), SESSIONS (10000), MESSAGES (20), WRITERS (8),
# EACH (records per writer, 100), SECTIONS (the sections to run, "1 2 3 4 5";
# SECTIONS=5 SCALES=100000 times only the finding rows at 100,000), SCALES
# (section 5's sizes, "100 $SESSIONS"; the size of sections 2-3 reuses their
# database), RUNS (5), BIN (an ollm-session binary; default: a release
# build), BASE_BIN (another ollm-session timed beside BIN in 5., optional),
# BENCH_DIR.
set -euo pipefail
cd "$(dirname "$0")/.."

RECORDS=${RECORDS:-300}
SESSIONS=${SESSIONS:-10000}
MESSAGES=${MESSAGES:-20}
WRITERS=${WRITERS:-8}
EACH=${EACH:-100}
SECTIONS=" ${SECTIONS:-1 2 3 4 5} "
SCALES=${SCALES:-"100 $SESSIONS"}
RUNS=${RUNS:-5}
SERVER=${PG_URL:-${OLLM_TEST_PG_URL:-postgresql:///postgres?host=/var/run/postgresql}}

command -v rg >/dev/null || { echo "bench: ripgrep is missing (apt-get install -y ripgrep)" >&2; exit 1; }
command -v psql >/dev/null || { echo "bench: psql is missing (apt-get install -y postgresql-client)" >&2; exit 1; }
psql -qtAc 'SELECT 1' "$SERVER" >/dev/null || { echo "bench: no PostgreSQL server at $SERVER" >&2; exit 1; }
if [[ -z ${BIN:-} ]]; then
  cargo build --release --quiet --bin ollm-session
  BIN=$PWD/target/$(rustc --print host-tuple)/release/ollm-session
fi
GEN=$PWD/bench/gen_sessions.py

WORK=$(mktemp -d "${BENCH_DIR:-${TMPDIR:-/tmp}}/ollm-session-pg-bench.XXXXXX")
DB=ollm_bench_$$
psql -qc "CREATE DATABASE $DB" "$SERVER"
# Every database of this run: $DB, and section 5's ${DB}_sN.
KEEPERS=()
drop_all() {
  for pid in "${KEEPERS[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  for db in $(psql -qtAc "SELECT datname FROM pg_database WHERE datname LIKE '${DB}%'" "$SERVER"); do
    psql -qc "DROP DATABASE IF EXISTS $db WITH (FORCE)" "$SERVER" >/dev/null
  done
  rm -rf "$WORK"
}
trap drop_all EXIT
export HOME=$WORK/home OLLM_HOME=$WORK/home
mkdir -p "$HOME"
# The server URL with database $1 in place of its own.
url_of() {
  python3 -c "
import sys
url = sys.argv[1]; base, _, query = url.partition('?')
scheme, _, rest = base.partition('://'); authority = rest.split('/', 1)[0]
print(f'{scheme}://{authority}/{sys.argv[2]}' + (f'?{query}' if query else ''))" "$SERVER" "$1"
}
URL=$(url_of "$DB")
section() { [[ $SECTIONS == *" $1 "* ]]; }

now_ns() { date +%s%N; }
best_ms() { # RUNS CMD...: the fastest of RUNS runs, in milliseconds.
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
ndjson() { python3 -c "
import json, sys
for i in range(int(sys.argv[1])):
    print(json.dumps({'role': 'user', 'parts': [{'type': 'text', 'text': f'bench record {i} {sys.argv[2]} with a line of ordinary chat text'}]}))
" "$1" "${2:-}"; }
ses() { "$BIN" --store "$1" "${@:2}"; }
file_ses() { "$BIN" --store file --data-dir "$1" "${@:2}"; }
new_id() { python3 -c 'import json,sys; print(json.load(sys.stdin)["sessionId"])'; }

echo "ollm-session PostgreSQL benchmark — $(nproc) cores, $(date -u +%Y-%m-%d), $(psql -qtAc 'SHOW server_version' "$SERVER")"
echo

REC=$WORK/record
LIST=$WORK/list
# One in 100 sessions made here (what --here finds).
WS=$WORK/workspace
mkdir -p "$WS"
WS=$(cd "$WS" && pwd -P)

# 1. Recording -------------------------------------------------------------
if section 1; then
  BIG=0b1e5e55-0000-4000-8000-000000010000
  python3 "$GEN" "$REC" 1 10000 --id "$BIG" --keyword-every 0
  chmod -R go-rwx "$WORK"
  file_ses "$REC" copy --from "$REC" --to "$URL" --all >/dev/null
  NEW=$(ses "$URL" create --model bench --provider bench --max-sessions 0 | new_id)
  # One record each first, so no figure pays for a cold cache.
  for s in "$BIG" "$NEW"; do ses "$URL" record "$s" --role user --text warm >/dev/null; done
  file_ses "$REC" record "$BIG" --role user --text warm >/dev/null
  stream() { ndjson "$RECORDS" | "$@"; }
  pg_big=$(best_ms 1 stream ses "$URL" record "$BIG")
  pg_new=$(best_ms 1 stream ses "$URL" record "$NEW")
  file_big=$(best_ms 1 stream file_ses "$REC" record "$BIG")
  per() { python3 -c "print(f'{$1/$RECORDS:.3f}')"; }
  echo "1. record ($RECORDS records streamed as NDJSON, each acknowledged once durable)"
  printf '   %-52s %10s ms/record\n' "postgres, into a 10,000-message session" "$(per "$pg_big")"
  printf '   %-52s %10s ms/record\n' "postgres, into a new session" "$(per "$pg_new")"
  printf '   %-52s %10s ms/record\n' "file store, into a 10,000-message session" "$(per "$file_big")"
  echo "   ratio postgres/file: $(ratio "$pg_big" "$file_big")x   long/new session: $(ratio "$pg_big" "$pg_new")x"
  echo
fi

# 2. Listing and 3. searching ----------------------------------------------
if section 2 || section 3; then
  t0=$(now_ns)
  python3 "$GEN" "$LIST" "$SESSIONS" "$MESSAGES" --workspace "$WS" --workspace-every 100
  chmod -R go-rwx "$WORK"
  t1=$(now_ns)
  file_ses "$LIST" copy --from "$LIST" --to "$URL" --all >/dev/null
  t2=$(now_ns)
  psql -qc "VACUUM ANALYZE" "$URL"
  echo "time: generating $SESSIONS sessions $(( (t1 - t0) / 1000000000 )) s, copying them into the database $(( (t2 - t1) / 1000000000 )) s"
  count=$(ses "$URL" list --format json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')
  list_ms=$(best_ms 3 ses "$URL" list --format json)
  echo "2. list ($count sessions in the database)"
  printf '   %-52s %10s ms\n' "postgres (the sessions table only)" "$list_ms"
  echo
  search_ms=$(best_ms 3 ses "$URL" search zanzibar --format json)
  search_i_ms=$(best_ms 3 ses "$URL" search -i ZANZIBAR --format json)
  rg_ms=$(best_ms 3 rg -F -uu zanzibar "$LIST")
  rg_i_ms=$(best_ms 3 rg -F -i -uu ZANZIBAR "$LIST")
  hits=$(ses "$URL" search zanzibar --format json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')
  echo "3. search ($count sessions; the word is in $hits of them)"
  printf '   %-52s %10s ms   rg: %8s ms   ratio %sx\n' "postgres substring" "$search_ms" "$rg_ms" "$(ratio "$search_ms" "$rg_ms")"
  printf '   %-52s %10s ms   rg: %8s ms   ratio %sx\n' "postgres substring, ignoring case" "$search_i_ms" "$rg_i_ms" "$(ratio "$search_i_ms" "$rg_i_ms")"
  echo
fi

# 4. Concurrent writers ----------------------------------------------------
if section 4; then
  writers() { # STORE-COMMAND...: WRITERS processes of EACH records into one new session
    local id
    # No maxSessions: the sessions of 5. stay in the database.
    id=$("$@" create --model bench --provider bench --max-sessions 0 | new_id)
    local t0 t1
    t0=$(now_ns)
    for w in $(seq "$WRITERS"); do ndjson "$EACH" "w$w" | "$@" record "$id" >/dev/null & done
    wait
    t1=$(now_ns)
    python3 -c "print(f'{$WRITERS*$EACH/(($t1-$t0)/1e9):.0f}')"
  }
  pg_rate=$(writers ses "$URL")
  file_rate=$(writers file_ses "$REC")
  echo "4. $WRITERS concurrent writers x $EACH records into one session"
  printf '   %-52s %10s records/s\n' "postgres" "$pg_rate"
  printf '   %-52s %10s records/s\n' "file store" "$file_rate"
  echo "   ratio file/postgres: $(ratio "$file_rate" "$pg_rate")x"
  echo
fi


# 5. Finding sessions as the database grows ----------------------------------
# Every size's database is made first; then each row is timed at every size
# in turn (and with BASE_BIN beside BIN), run after run, so that a change of
# the machine's load between sizes does not show as growth.
if section 5; then
  message='{"role":"user","parts":[{"type":"text","text":"one more turn of ordinary chat text"}]}'
  echo "5. finding sessions (issue 31): sessions of $MESSAGES messages; the best of $RUNS runs each, the sizes (and binaries) interleaved"
  declare -A DATA URLS MID PREFIX TOTAL MB BEST
  for n in $SCALES; do
    if [[ $n == "$SESSIONS" ]] && { section 2 || section 3; }; then
      # The database of 2. and 3. (with the sessions 1. and 4. made).
      data=$LIST url=$URL
    else
      data=$WORK/s$n url=$(url_of "${DB}_s$n")
      python3 "$GEN" "$data" "$n" "$MESSAGES" --workspace "$WS" --workspace-every 100
      chmod -R go-rwx "$data"
      psql -qc "CREATE DATABASE ${DB}_s$n" "$SERVER"
      t0=$(now_ns)
      file_ses "$data" copy --from "$data" --to "$url" --all >/dev/null
      t1=$(now_ns)
      psql -qc "VACUUM ANALYZE" "$url"
      echo "time: copying $n sessions into the database $(( (t1 - t0) / 1000000000 )) s"
    fi
    DATA[$n]=$data URLS[$n]=$url
    # A titled session in the middle, and its id's first 6 characters
    # (those of a later one when another id shares them).
    ids=$WORK/ids
    "$BIN" --store "$url" list --format ndjson | python3 -c '
import json, sys
for line in sys.stdin:
    print(json.loads(line)["sessionId"])' >"$ids"
    TOTAL[$n]=$(wc -l <"$ids")
    MID[$n]=$(sed -n "$(( TOTAL[$n] / 2 + 1 ))p" "$ids")
    "$BIN" --store "$url" rename "${MID[$n]}" "retry logic" >/dev/null
    PREFIX[$n]=$(python3 -c '
import collections, sys
ids = open(sys.argv[1]).read().split()
count = collections.Counter(i[:6] for i in ids)
print(next(i[:6] for i in ids[len(ids) // 2:] if count[i[:6]] == 1))' "$ids")
    MB[$n]=$(du -sm --exclude=.index --exclude=.locks "$data" | cut -f1)
  done
  # The copies' pages written out before any row is timed (a superuser's
  # CHECKPOINT; skipped without the right), not while the largest size's
  # rows run.
  psql -qc "CHECKPOINT" "$SERVER" 2>/dev/null || true
  sync
  # One run of row $1 with binary $2 at size $3, its output thrown away.
  run_row() {
    local s=("$2" --store "${URLS[$3]}")
    case $1 in
      limit) "${s[@]}" list --limit 20 --format json ;;
      last) "${s[@]}" get --last --format json ;;
      record-last) sh -c "echo '$message' | \"\$@\" record --last" sh "${s[@]}" ;;
      prefix) "${s[@]}" get "${PREFIX[$3]}" --format json ;;
      title) "${s[@]}" get "retry logic" --format json ;;
      here) env -C "$WS" "${s[@]}" get --here --format json ;;
      all) "${s[@]}" list --format ndjson ;;
      record-id) sh -c "echo '$message' | \"\$@\" record ${MID[$3]}" sh "${s[@]}" ;;
      rare) "${s[@]}" search zanzibar --format json ;;
      regex) "${s[@]}" search --regex 'zanzi[a-z]+' --format json ;;
      # rg prints every matching line, as search prints every hit.
      rg-rare) rg -uu -g '!.index' -F zanzibar "${DATA[$3]}" ;;
      rg-regex) rg -uu -g '!.index' 'zanzi[a-z]+' "${DATA[$3]}" ;;
    esac >/dev/null
  }
  # KEPT: BIN through `ollm-session keep`, one keeper a size, running in a
  # home of its own (BIN and BASE_BIN, in $OLLM_HOME, connect directly).
  KEPT=$BIN KEPT_HOME=$WORK/kept-home
  mkdir -p "$KEPT_HOME"
  for n in $SCALES; do
    OLLM_HOME=$KEPT_HOME "$BIN" --store "${URLS[$n]}" keep >"$WORK/keep-$n.out" &
    KEEPERS+=("$!")
    for _ in $(seq 100); do [[ -s $WORK/keep-$n.out ]] && break; sleep 0.1; done
    grep -q '"event":"ready"' "$WORK/keep-$n.out" || { echo "bench: keep did not start" >&2; exit 1; }
  done
  bins=(BIN KEPT) && [[ -n ${BASE_BIN:-} ]] && bins+=(BASE_BIN)
  rows="limit last record-last prefix title here all record-id rare regex rg-rare rg-regex"
  for row in $rows; do
    for _ in $(seq "$RUNS"); do
      for n in $SCALES; do
        for b in "${bins[@]}"; do
          [[ $row == rg-* && $b != BIN ]] && continue
          home=$OLLM_HOME && [[ $b == KEPT ]] && home=$KEPT_HOME
          t0=${EPOCHREALTIME/./}; OLLM_HOME=$home run_row "$row" "${!b}" "$n"; t1=${EPOCHREALTIME/./}
          us=$(( t1 - t0 )) key="$row $n $b"
          if [[ -z ${BEST[$key]:-} ]] || (( us < ${BEST[$key]} )); then BEST[$key]=$us; fi
        done
      done
    done
  done
  ms() { python3 -c "print(f'{$1/1000:.1f}')"; }
  first=${SCALES%% *}
  # A row's time at size $2, its ratio to the first size, through the
  # keeper (and its ratio), and BASE_BIN's.
  cell() {
    local out
    out="$(ms "${BEST[$1 $2 BIN]}") ms"
    if [[ $2 != "$first" ]]; then out+="   $(ratio "${BEST[$1 $2 BIN]}" "${BEST[$1 $first BIN]}")x of $first"; fi
    out+="   kept: $(ms "${BEST[$1 $2 KEPT]}") ms"
    if [[ $2 != "$first" ]]; then out+=" ($(ratio "${BEST[$1 $2 KEPT]}" "${BEST[$1 $first KEPT]}")x)"; fi
    if [[ -n ${BASE_BIN:-} ]]; then out+="   BASE_BIN: $(ms "${BEST[$1 $2 BASE_BIN]}") ms"; fi
    echo "$out"
  }
  for n in $SCALES; do
    echo "== ${TOTAL[$n]} sessions (${MB[$n]} MB)"
    row() { printf '   %-40s %10s\n' "$1" "$2"; }
    row "list --limit 20" "$(cell limit "$n")"
    row "get --last" "$(cell last "$n")"
    row "record --last" "$(cell record-last "$n")"
    row "get <6-character prefix>" "$(cell prefix "$n")"
    row "get <title>" "$(cell title "$n")"
    row "get --here" "$(cell here "$n")"
    row "list (all, ndjson)" "$(cell all "$n")"
    row "record <id>" "$(cell record-id "$n")"
    for kind in rare regex; do
      word=zanzibar && [[ $kind == regex ]] && word='zanzi[a-z]+'
      ours=${BEST[$kind $n BIN]} theirs=${BEST[rg-$kind $n BIN]}
      kept=${BEST[$kind $n KEPT]}
      line=$(printf '%s ms   rg: %8s ms   ratio %sx   kept: %s ms (%sx)' "$(ms "$ours")" "$(ms "$theirs")" "$(ratio "$ours" "$theirs")" "$(ms "$kept")" "$(ratio "$kept" "$theirs")")
      if [[ -n ${BASE_BIN:-} ]]; then line+="   BASE_BIN: $(ms "${BEST[$kind $n BASE_BIN]}") ms"; fi
      printf '   %-40s %10s\n' "search ($kind) $word" "$line"
    done
  done
fi
