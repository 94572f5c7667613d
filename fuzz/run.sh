#!/usr/bin/env bash
# Runs every fuzz target for SECONDS each (default 20; CI runs it briefly,
# `fuzz/run.sh 600` runs longer). Uses cargo-fuzz on the stable toolchain
# (RUSTC_BOOTSTRAP lets it pass the nightly-only flags; no sanitizer).
# A target with a seeds/<target>/ directory starts from those inputs (real
# journals, session files, event streams) as well as its own corpus.
# OLLM_FUZZ_DEV=1 builds the targets unoptimized (--dev): fewer runs per
# second, but a cold build in a third of the time (what CI uses).
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-20}
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked --quiet
export RUSTC_BOOTSTRAP=1
build=()
[[ ${OLLM_FUZZ_DEV:-} == 1 ]] && build=(--dev)
targets=$(cargo fuzz list)
for target in $targets; do
  echo "fuzz: $target for ${seconds}s" >&2
  corpora=()
  if [[ -d seeds/$target ]]; then
    mkdir -p "corpus/$target"
    corpora=("corpus/$target" "seeds/$target")
  fi
  cargo fuzz run "${build[@]}" --sanitizer none "$target" "${corpora[@]}" -- -max_total_time="$seconds" -max_len=65536 2>fuzz-$target.log ||
    { tail -30 "fuzz-$target.log" >&2; echo "fuzz: $target FAILED" >&2; exit 1; }
  grep -aE '^Done|#[0-9]+.*DONE' "fuzz-$target.log" | tail -1 >&2 || true
done
echo "fuzz: $(echo $targets | wc -w) targets ran clean for ${seconds}s each" >&2
