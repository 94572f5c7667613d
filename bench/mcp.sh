#!/usr/bin/env bash
# Benchmarks ollm-mcp and prints ratios (not a timed test):
#   1. the first response: from starting the server to its answer to
#      `initialize` (the goal: 20 ms), best of 30;
#   2. list_sessions and search_sessions over 10,000 sessions, asked of a
#      running server, against `ollm-session list` and `search` asking the
#      same (best of 5 each).
# Environment: SESSIONS (10000), MESSAGES (messages per session, 20),
# PROFILE (release; `PROFILE=debug` only checks that the script runs),
# BENCH_DIR (where the data goes).
set -euo pipefail
cd "$(dirname "$0")/.."

SESSIONS=${SESSIONS:-10000}
MESSAGES=${MESSAGES:-20}
PROFILE=${PROFILE:-release}
LIMIT=1000

flag=--release
[ "$PROFILE" = release ] || flag=
cargo build $flag --quiet --bin ollm-session
cargo build $flag --quiet -p ollm-mcp --bin ollm-mcp
DIR=$PWD/target/$(rustc --print host-tuple)/$PROFILE
GEN=$PWD/bench/gen_sessions.py

WORK=$(mktemp -d "${BENCH_DIR:-${TMPDIR:-/tmp}}/ollm-mcp-bench.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
export HOME=$WORK/home OLLM_HOME=$WORK/home
mkdir -p "$HOME"
DATA=$WORK/sessions
python3 "$GEN" "$DATA" "$SESSIONS" "$MESSAGES"
export OLLM_SESSION_DATA_DIR=$DATA
# The index is built by the first listing; neither side pays for it below.
"$DIR/ollm-session" list --limit 1 >/dev/null

echo "ollm-mcp benchmark — $(nproc) cores, $(date -u +%Y-%m-%d), $PROFILE build"
echo
python3 - "$DIR" "$LIMIT" <<'PY'
import json, subprocess, sys, time

bin_dir, limit = sys.argv[1], int(sys.argv[2])
INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-11-25", "capabilities": {},
    "clientInfo": {"name": "bench", "version": "1"}}}

def start():
    return subprocess.Popen([bin_dir + "/ollm-mcp"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, bufsize=1)

def send(server, message):
    server.stdin.write(json.dumps(message) + "\n")
    server.stdin.flush()

def first_response():
    t0 = time.perf_counter()
    server = start()
    send(server, INIT)
    line = server.stdout.readline()
    took = time.perf_counter() - t0
    server.stdin.close()
    server.wait()
    assert json.loads(line)["result"]["serverInfo"]["name"] == "ollm-mcp", line
    return took * 1000

def best(runs, f):
    return min(f() for _ in range(runs))

def cli_ms(*args):
    def once():
        t0 = time.perf_counter()
        subprocess.run([bin_dir + "/ollm-session", *args], stdout=subprocess.DEVNULL, check=True)
        return (time.perf_counter() - t0) * 1000
    return best(5, once)

server = start()
send(server, INIT)
server.stdout.readline()
send(server, {"jsonrpc": "2.0", "method": "notifications/initialized"})
next_id = [1]
def call(tool, arguments):
    def once():
        next_id[0] += 1
        t0 = time.perf_counter()
        send(server, {"jsonrpc": "2.0", "id": next_id[0], "method": "tools/call",
                      "params": {"name": tool, "arguments": arguments}})
        reply = json.loads(server.stdout.readline())
        took = (time.perf_counter() - t0) * 1000
        assert not reply["result"].get("isError"), reply
        return took
    return best(5, once)

print(f"   {'first response (initialize, from spawn)':<52} {best(30, first_response):10.1f} ms")
listed = call("list_sessions", {"limit": limit})
print(f"   {f'list_sessions, limit {limit}':<52} {listed:10.1f} ms   "
      f"ollm-session list --limit {limit}: {cli_ms('list', '--limit', str(limit), '--format', 'json'):8.1f} ms")
found = call("search_sessions", {"query": "zanzibar", "limit": 500})
print(f"   {'search_sessions, substring':<52} {found:10.1f} ms   "
      f"ollm-session search: {cli_ms('search', 'zanzibar', '--format', 'json'):8.1f} ms")
server.stdin.close()
server.wait()
PY
echo "   ($SESSIONS sessions of $MESSAGES messages)"
