#!/usr/bin/env bash
# Wall time of `ollm-discover --paths --no-cache` against `rg --files` and `fd` on a
# generated tree of 200,000+ files with nested ignore files, and on a real
# large source tree. Prints each tool's file count (to show they list the
# same tree) and the ratios of their mean times, measured in this one run,
# then the time of a cache hit (the same listing replayed, Req 6.6).
#
#   bash bench/discover.sh                    # generated tree + a real tree
#   REAL_TREE=/path/to/src bash bench/discover.sh
#   BENCH_DIR=/tmp/x FILES_PER_DIR=100 bash bench/discover.sh
set -euo pipefail
cd "$(dirname "$0")/.."

say() { echo "bench: $*" >&2; }

need() {
  command -v "$1" >/dev/null && return
  say "installing $2"
  (apt-get update -qq && apt-get install -y -qq "$2") >/dev/null
}
need rg ripgrep
need fdfind fd-find
need hyperfine hyperfine
need python3 python3

say "building ollm-discover (release)"
cargo build --release --quiet --bin ollm-discover
OURS="$PWD/target/$(rustc --print host-tuple)/release/ollm-discover"
# The cache lives here, not in the user's ~/.ollm.
export OLLM_HOME="${BENCH_DIR:-/tmp/ollm-discover-bench}/ollm-home"

BENCH_DIR=${BENCH_DIR:-/tmp/ollm-discover-bench}
GEN="$BENCH_DIR/generated"
TOP_DIRS=${TOP_DIRS:-200}
SUB_DIRS=${SUB_DIRS:-10}
FILES_PER_DIR=${FILES_PER_DIR:-110}

generate() {
  say "generating $GEN ($TOP_DIRS x $SUB_DIRS x $FILES_PER_DIR files)"
  rm -rf "$GEN" && mkdir -p "$GEN"
  git -C "$GEN" init -q .
  python3 - "$GEN" "$TOP_DIRS" "$SUB_DIRS" "$FILES_PER_DIR" <<'PY'
import os, sys
root, tops, subs, per = sys.argv[1], *map(int, sys.argv[2:])
with open(os.path.join(root, ".gitignore"), "w") as f:
    f.write("*.log\n/top-7/\nnode_modules/\n!keep.log\n")
for t in range(tops):
    top = os.path.join(root, f"top-{t}")
    os.makedirs(top)
    with open(os.path.join(top, ".gitignore"), "w") as f:
        f.write(f"sub-{t % subs}/\n*.tmp\n!important.tmp\n")
    if t % 10 == 0:
        with open(os.path.join(top, ".ollmignore"), "w") as f:
            f.write("*.md\n")
    for s in range(subs):
        sub = os.path.join(top, f"sub-{s}", "src" if s % 2 else "lib")
        os.makedirs(sub)
        for i in range(per):
            ext = ("rs", "md", "log", "tmp", "txt")[i % 5]
            open(os.path.join(sub, f"file-{i}.{ext}"), "w").close()
PY
  echo done > "$GEN/.complete"
}
[ -f "$GEN/.complete" ] || generate

REAL=${REAL_TREE:-}
if [ -z "$REAL" ]; then
  for candidate in "$(rustc --print sysroot 2>/dev/null)/lib/rustlib/src/rust" \
      "$HOME/.pyenv/versions" "$HOME/.cargo/registry/src"; do
    if [ -d "$candidate" ]; then REAL=$candidate; break; fi
  done
fi

bench_tree() {
  local name=$1 tree=$2
  local total
  total=$(find "$tree" -type f | wc -l)
  say "$name: $tree ($total files on disk)"
  # Same question to each tool: every non-ignored file, hidden ones
  # included, .git excluded, .gitignore honoured inside or outside git.
  local ours="$OURS --paths --no-cache --max-depth unlimited $tree"
  local cached="$OURS --paths --max-depth unlimited $tree"
  local rg="rg --files --hidden --no-require-git --glob !.git $tree"
  local fd="fdfind --type f --hidden --exclude .git . $tree"
  printf '  files listed: ollm-discover %s, rg %s, fd %s\n' \
    "$($ours | wc -l)" "$($rg | wc -l)" "$($fd | wc -l)"
  local json="$BENCH_DIR/$name.json"
  hyperfine --style none --warmup 2 --runs "${RUNS:-10}" --export-json "$json" \
    -n ollm-discover "$ours" -n "rg --files" "$rg" -n fd "$fd" \
    -n "ollm-discover (cache hit)" "$cached" >/dev/null
  python3 - "$json" "$name" <<'PY'
import json, sys
results = {r["command"]: r for r in json.load(open(sys.argv[1]))["results"]}
ours = results["ollm-discover"]["mean"]
print(f"  {sys.argv[2]}: ollm-discover {ours*1000:.1f} ms (±{results['ollm-discover']['stddev']*1000:.1f})")
for other in ("rg --files", "fd"):
    t = results[other]["mean"]
    print(f"    {other}: {t*1000:.1f} ms; ollm-discover time / {other} time = {ours/t:.2f}")
hit = results["ollm-discover (cache hit)"]["mean"]
print(f"    cache hit: {hit*1000:.1f} ms; walk time / cache-hit time = {ours/hit:.2f}"
      " (0 hits if the tree changed in the 2 s before the run)")
PY
}

echo "ollm-discover benchmark ($(nproc) cores)"
bench_tree generated "$GEN"
if [ -n "$REAL" ]; then bench_tree real "$REAL"; fi
