#!/usr/bin/env bash
# Benchmarks the PostgreSQL session store beside the file store (ratios,
# not a timed test):
#   1. recording into a 10,000-message session vs a new one, and vs the
#      file store (goal: <= 3x the file store, independent of length);
#   2. listing 10,000 sessions (goal: <= 100 ms);
#   3. searching 10,000 sessions vs ripgrep over the file store (goal: <= 1x);
#   4. 8 concurrent writers into one session: records per second;
#   5. finding sessions among SESSIONS (issue 31): list --limit 20, --last,
#      a 6-character prefix, a title, --here, the whole listing as NDJSON,
#      and search (a rare word, a regex with a literal) against ripgrep.
# The sessions are made as journals (bench/gen_sessions.py; one in 100 made
# in one workspace) and moved into the database with `ollm-session copy`;
# `time: …` lines say how long making and copying them took.
# Environment: PG_URL (a server URL; default OLLM_TEST_PG_URL, else the
# local socket), RECORDS (300), SESSIONS (10000), MESSAGES (20), WRITERS (8),
# EACH (records per writer, 100), BIN (an ollm-session binary; default: a
# release build), BENCH_DIR.
set -euo pipefail
cd "$(dirname "$0")/.."

RECORDS=${RECORDS:-300}
SESSIONS=${SESSIONS:-10000}
MESSAGES=${MESSAGES:-20}
WRITERS=${WRITERS:-8}
EACH=${EACH:-100}
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
trap 'psql -qc "DROP DATABASE IF EXISTS $DB WITH (FORCE)" "$SERVER" >/dev/null; rm -rf "$WORK"' EXIT
export HOME=$WORK/home OLLM_HOME=$WORK/home
mkdir -p "$HOME"
# The server URL with the bench database in place of its own.
URL=$(python3 -c "
import sys
url = sys.argv[1]; base, _, query = url.partition('?')
scheme, _, rest = base.partition('://'); authority = rest.split('/', 1)[0]
print(f'{scheme}://{authority}/{sys.argv[2]}' + (f'?{query}' if query else ''))" "$SERVER" "$DB")

now_ns() { date +%s%N; }
best_ms() { # RUNS CMD...: the fastest of RUNS runs, in milliseconds.
  local runs=$1; shift
  local best=""
  for _ in $(seq "$runs"); do
    local t0 t1
    t0=$(now_ns); "$@" >/dev/null; t1=$(now_ns)
    local us=$(( (t1 - t0) / 1000 ))
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

# 1. Recording -------------------------------------------------------------
REC=$WORK/record
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

# 2. Listing and 3. searching ----------------------------------------------
LIST=$WORK/list
WS=$WORK/workspace
mkdir -p "$WS"
WS=$(cd "$WS" && pwd -P)
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

# 4. Concurrent writers ----------------------------------------------------
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

# 5. Finding sessions ------------------------------------------------------
# What the sessions look like now: a title on one in the middle, and the
# id of another whose first 6 characters are unique.
ids=$WORK/ids
ses "$URL" list --format ndjson | python3 -c '
import json, sys
for line in sys.stdin:
    print(json.loads(line)["sessionId"])' >"$ids"
mid=$(sed -n "$(( $(wc -l <"$ids") / 2 ))p" "$ids")
ses "$URL" rename "$mid" "bench title" >/dev/null
prefix=$(python3 -c '
import collections, sys
ids = open(sys.argv[1]).read().split()
count = collections.Counter(i[:6] for i in ids)
print(next(i[:6] for i in ids[len(ids) // 3:] if count[i[:6]] == 1))' "$ids")
here_count=$(cd "$WS" && ses "$URL" list --here --format ndjson | wc -l)
# The rows: the fastest of 5 runs; the whole listing is what a store that
# cannot cut reads for each of them (the trait's default).
all_ms=$(best_ms 5 ses "$URL" list --format ndjson)
find_row() { # LABEL MS
  printf '   %-56s %10s ms   whole listing: %8s ms   ratio %sx\n' "$1" "$2" "$all_ms" "$(ratio "$2" "$all_ms")"
}
here() { (cd "$WS" && ses "$URL" "$@"); }
echo "5. finding sessions ($(wc -l <"$ids") in the database, $here_count made in one workspace)"
find_row "list --limit 20" "$(best_ms 5 ses "$URL" list --limit 20 --format json)"
find_row "resume --last (prints the id)" "$(best_ms 5 ses "$URL" resume --last)"
find_row "get --last (the whole session)" "$(best_ms 5 ses "$URL" get --last --format json)"
find_row "record --last" "$(best_ms 5 ses "$URL" record --last --role user --text bench)"
find_row "resume PREFIX (6 characters)" "$(best_ms 5 ses "$URL" resume "$prefix")"
find_row "resume TITLE" "$(best_ms 5 ses "$URL" resume "bench title")"
find_row "resume --continue (--here: the latest of a workspace)" "$(best_ms 5 here resume --continue)"
find_row "list --here --limit 20" "$(best_ms 5 here list --here --limit 20 --format json)"
printf '   %-56s %10s ms\n' "list, all, as NDJSON" "$all_ms"
rare_ms=$(best_ms 5 ses "$URL" search zanzibar --format json)
rg_rare_ms=$(best_ms 3 rg -F -uu zanzibar "$LIST")
regex_ms=$(best_ms 5 ses "$URL" search --regex 'zanzi[a-z]+' --format json)
rg_regex_ms=$(best_ms 3 rg -uu 'zanzi[a-z]+' "$LIST")
printf '   %-56s %10s ms   rg: %8s ms   ratio %sx\n' "search a rare word ($hits sessions)" "$rare_ms" "$rg_rare_ms" "$(ratio "$rare_ms" "$rg_rare_ms")"
printf '   %-56s %10s ms   rg: %8s ms   ratio %sx\n' "search --regex with a literal" "$regex_ms" "$rg_regex_ms" "$(ratio "$regex_ms" "$rg_regex_ms")"
