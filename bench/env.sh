#!/usr/bin/env bash
# ollm-env run -- true  vs  env -i PATH="$PATH" true: the cost of sanitizing
# a tool's environment, as a ratio measured in one run.
# usage: bench/env.sh [RUNS]   (default 500)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-500}
cargo build --release --quiet --bin ollm-env
bin=$PWD/target/$(rustc --print host-tuple)/release/ollm-env

# A realistic environment: ~60 ordinary variables and ~40 secret-looking ones.
for i in $(seq 1 60); do export "BENCH_PLAIN_$i=value-$i"; done
for i in $(seq 1 20); do export "BENCH_${i}_TOKEN=tok-$i-abcdefghij"; done
for i in $(seq 1 20); do export "BENCH_URL_$i=postgres://u:pw$i-secret@h/db"; done

time_loop() { # prints nanoseconds per run of "$@"
  local start end
  start=$(date +%s%N)
  for ((i = 0; i < runs; i++)); do "$@" >/dev/null; done
  end=$(date +%s%N)
  echo $(((end - start) / runs))
}

# Warm-up, unmeasured: the page cache, and this machine's slow first runs
# after a pause (whichever command comes first would pay them).
for ((i = 0; i < 50; i++)); do env -i PATH="$PATH" true; "$bin" run -- true; done
baseline=$(time_loop env -i PATH="$PATH" true)
ours=$(time_loop "$bin" run -- true)
redacting=$(time_loop "$bin" run --redact-output -- true)
printf '%-40s %10s\n' "command ($runs runs, $(nproc) cores)" "µs/run"
printf '%-40s %10.1f\n' 'env -i PATH="$PATH" true' "$(echo "$baseline / 1000" | bc -l)"
printf '%-40s %10.1f\n' "ollm-env run -- true" "$(echo "$ours / 1000" | bc -l)"
printf '%-40s %10.1f\n' "ollm-env run --redact-output -- true" "$(echo "$redacting / 1000" | bc -l)"
printf 'ratio ollm-env / env -i: %.2f (goal: at most 1.3, ollm-env execs the tool)\n' "$(echo "$ours / $baseline" | bc -l)"
printf 'ratio ollm-env --redact-output / env -i: %.2f\n' "$(echo "$redacting / $baseline" | bc -l)"
