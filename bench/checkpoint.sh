#!/usr/bin/env bash
# `ollm-checkpoint snapshot` against opencode's way of snapshotting a turn
# (`git add -A && git write-tree` into a separate git directory over the
# same tree), in one run, on real files (crates from ~/.cargo/registry/src,
# copied into a temporary directory; nothing of them is kept):
#
#   1. a ~15,000-file tree: an unchanged snapshot, and one with one edited
#      file (means of RUNS runs each, wall clock and CPU time), scanning the tree and with the
#      watcher (services.checkpoint.watch, Linux) saying what changed;
#   2. a large tree (LARGE_MB, default 1024: the issue's 1 GB; more real
#      files from /usr/lib and /usr/share when the registry runs out):
#      100 turns, each rewriting one 100 KB file with new text; how much
#      each store grew against the bytes changed, and against the tree.
#
#   bash bench/checkpoint.sh
#   BENCH_DIR=/tmp/x FILES=15000 LARGE_MB=256 TURNS=100 RUNS=20 bash bench/checkpoint.sh
#   BIN=path/to/ollm-checkpoint bash bench/checkpoint.sh    # no build
set -euo pipefail
cd "$(dirname "$0")/.."

say() { echo "bench: $*" >&2; }
command -v hyperfine >/dev/null || { say "hyperfine is needed (apt-get install hyperfine)"; exit 1; }
command -v git >/dev/null || { say "git is needed"; exit 1; }

FILES=${FILES:-15000}
LARGE_MB=${LARGE_MB:-1024}
TURNS=${TURNS:-100}
RUNS=${RUNS:-20}
EDIT_KB=100
if [ -z "${BIN:-}" ]; then
  say "building ollm-checkpoint (release)"
  cargo build --release --quiet --bin ollm-checkpoint
fi
OURS=${BIN:-"$PWD/target/$(rustc --print host-tuple)/release/ollm-checkpoint"}

registries=(~/.cargo/registry/src/*/) # before HOME moves below
work=$(mktemp -d "${BENCH_DIR:-${TMPDIR:-/tmp}}/ollm-checkpoint-bench.XXXXXX")
# The watcher a snapshot started exits when its tree goes; killed first anyway.
stop_watchers() {
  local pid
  for pid in "$work"/home/checkpoints/watch/*.pid; do
    [ -f "$pid" ] && kill "$(cat "$pid")" 2>/dev/null || true
  done
}
trap 'stop_watchers; rm -rf "$work"' EXIT
export OLLM_HOME=$work/home HOME=$work/home
mkdir -m 700 -p "$HOME"
export GIT_CONFIG_NOSYSTEM=1 GIT_AUTHOR_NAME=b GIT_AUTHOR_EMAIL=b@example.com
SESSION=7e1d3c2a-5b4f-4a6e-8c9d-0a1b2c3d4e5f
WATCHED=5a4b3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d

# copy_until DEST FILES MB SOURCE_DIR...: copies the source directories'
# subdirectories (one crate, one package's folder) into DEST until it
# holds FILES files or MB megabytes, whichever comes last.
copy_until() {
  local dest=$1 files=$2 mb=$3
  shift 3
  mkdir -p "$dest"
  local n=0 bytes=0 i=0 dir
  for source in "$@"; do
    for dir in "$source"/*/; do
      [ -d "$dir" ] || continue
      if ((n >= files && bytes >= mb * 1024 * 1024)); then return; fi
      i=$((i + 1))
      cp -r --no-preserve=ownership "$dir" "$dest/$i-$(basename "$dir")" 2>/dev/null || true
      n=$(find "$dest" -type f | wc -l)
      bytes=$(du -sb "$dest" | cut -f1)
    done
  done
}

# git_snapshot TREE GIT_DIR: opencode's per-turn snapshot.
git_snapshot() {
  GIT_DIR=$2 GIT_WORK_TREE=$1 git add -A . >/dev/null 2>&1
  GIT_DIR=$2 GIT_WORK_TREE=$1 git write-tree >/dev/null
}
export -f git_snapshot

small=$work/small
say "copying real crates into $small ($FILES files)"
copy_until "$small" "$FILES" 0 "${registries[@]}"
edited=$(find "$small" -type f -name '*.rs' -print -quit)
git init -q --bare "$work/small.git"
git_snapshot "$small" "$work/small.git"
"$OURS" snapshot --session "$SESSION" --dir "$small" --allow-large >/dev/null
# What each lists: files in our snapshot, entries in git's index.
ours_files=$("$OURS" snapshot --session "$SESSION" --dir "$small" --allow-large |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["files"])')
git_files=$(GIT_DIR=$work/small.git GIT_WORK_TREE=$small git ls-files | wc -l)
bytes=$(du -sb "$small" | cut -f1)
echo "ollm-checkpoint benchmark ($(nproc) cores)"
echo "1. a tree of real files: $(find "$small" -type f | wc -l) files on disk, $((bytes / 1048576)) MB"
echo "   in the snapshot: ollm-checkpoint $ours_files files, git's index $git_files"
sleep 1 # past the racy-timestamp window of the copy
json=$work/small.json
snap="$OURS snapshot --session $SESSION --dir $small --allow-large"
watched="OLLM_CHECKPOINT_WATCH=1 $OURS snapshot --session $WATCHED --dir $small --allow-large"
# The first watched snapshot starts the watcher, the next one it answers
# gets the session's token; from then on it says what changed.
eval "$watched" >/dev/null
for _ in $(seq 50); do
  [ -S "$(ls "$OLLM_HOME"/checkpoints/watch/*.sock 2>/dev/null | head -1)" ] && break
  sleep 0.1
done
eval "$watched" >/dev/null
[ "$(eval "$watched" | python3 -c 'import json,sys; print(json.load(sys.stdin)["watched"])')" = True ] ||
  say "the watcher did not answer; its rows are full scans"
hyperfine --shell bash --style none --warmup 3 --runs "$RUNS" --export-json "$work/unchanged.json" \
  -n "unchanged: ollm-checkpoint" "$snap" \
  -n "unchanged: ollm-checkpoint, watcher" "$watched" \
  -n "unchanged: git add -A && git write-tree" "git_snapshot $small $work/small.git" >/dev/null
hyperfine --shell bash --style none --warmup 3 --runs "$RUNS" --export-json "$work/edited.json" \
  --prepare "echo '// edited' >> $edited" \
  -n "one file edited: ollm-checkpoint" "$snap" \
  -n "one file edited: ollm-checkpoint, watcher" "$watched" \
  -n "one file edited: git add -A && git write-tree" "git_snapshot $small $work/small.git" >/dev/null
python3 -c 'import json,sys; print(json.dumps({"results": sum((json.load(open(p))["results"] for p in sys.argv[2:]), [])}), file=open(sys.argv[1], "w"))' \
  "$json" "$work/unchanged.json" "$work/edited.json"
python3 - "$json" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))["results"]
r = {x["command"]: x["mean"] * 1000 for x in results}
# CPU time (user + system of the command and its children): what a shared
# machine's load inflates less than the wall clock.
cpu = {x["command"]: (x["user"] + x["system"]) * 1000 for x in results}
for what in ("unchanged", "one file edited"):
    name_git = f"{what}: git add -A && git write-tree"
    git, git_cpu = r[name_git], cpu[name_git]
    for how, name in (("scan", "ollm-checkpoint"), ("watcher", "ollm-checkpoint, watcher")):
        ours, ours_cpu = r[f"{what}: {name}"], cpu[f"{what}: {name}"]
        print(f"   {what} snapshot ({how})   {ours:.1f} ms   git: {git:.1f} ms   ollm-checkpoint time / git time = {ours / git:.2f}"
              f"   CPU {ours_cpu:.1f} ms / {git_cpu:.1f} ms = {ours_cpu / git_cpu:.2f}")
PY

large=$work/large
say "copying real files into $large ($LARGE_MB MB)"
copy_until "$large" 0 "$LARGE_MB" "${registries[@]}" /usr/lib/x86_64-linux-gnu /usr/lib /usr/share
bytes=$(du -sb "$large" | cut -f1)
mkdir -p "$large/agent"
git init -q --bare "$work/large.git"
store=$OLLM_HOME/checkpoints
say "first snapshots of the large tree"
LARGE_SESSION=0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0
"$OURS" snapshot --session "$LARGE_SESSION" --dir "$large" --allow-large >/dev/null
git_snapshot "$large" "$work/large.git"
store_before=$(du -sb "$store" | cut -f1)
git_before=$(du -sb "$work/large.git" | cut -f1)
# One real text, TURNS × 100 KB long, cut into the turns' contents.
text=$work/text
find "${registries[0]}" -name '*.rs' -size +4k -print0 | xargs -0 cat 2>/dev/null |
  head -c $((TURNS * EDIT_KB * 1024 + 1024)) >"$text" || true # head closes the pipe
ours_ms=0
git_ms=0
for ((turn = 0; turn < TURNS; turn++)); do
  dd if="$text" of="$large/agent/file.rs" bs=1024 skip=$((turn * EDIT_KB)) count=$EDIT_KB status=none
  t0=$(date +%s%N)
  "$OURS" snapshot --session "$LARGE_SESSION" --dir "$large" --allow-large >/dev/null
  t1=$(date +%s%N)
  git_snapshot "$large" "$work/large.git"
  t2=$(date +%s%N)
  ours_ms=$((ours_ms + (t1 - t0) / 1000000))
  git_ms=$((git_ms + (t2 - t1) / 1000000))
done
store_after=$(du -sb "$store" | cut -f1)
git_after=$(du -sb "$work/large.git" | cut -f1)
python3 - "$bytes" "$TURNS" "$EDIT_KB" "$store_before" "$store_after" "$git_before" "$git_after" "$ours_ms" "$git_ms" <<'PY'
import sys
tree, turns, kb, s0, s1, g0, g1, ours_ms, git_ms = map(int, sys.argv[1:])
changed = turns * kb * 1024
print(f"2. {turns} turns, each rewriting one {kb} KB file, in a tree of {tree / 1048576:.0f} MB")
print(f"   store growth: ollm-checkpoint {(s1 - s0) / 1048576:.2f} MB   git: {(g1 - g0) / 1048576:.2f} MB"
      f"   bytes changed: {changed / 1048576:.2f} MB")
print(f"   growth / bytes changed: ollm-checkpoint {(s1 - s0) / changed:.2f}   git {(g1 - g0) / changed:.2f}")
print(f"   growth / tree size: ollm-checkpoint {(s1 - s0) / tree:.4f}   git {(g1 - g0) / tree:.4f}")
print(f"   per turn: ollm-checkpoint {ours_ms / turns:.1f} ms   git: {git_ms / turns:.1f} ms"
      f"   ollm-checkpoint time / git time = {ours_ms / git_ms:.2f}")
PY
