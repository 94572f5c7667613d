#!/usr/bin/env bash
# Benchmarks for ollm-compress, printed as ratios measured in this one run:
#  1. token counting throughput: `ollm-compress count` vs Python's tiktoken
#     (cl100k_base, the same text, both reading the same JSON file); the two
#     totals must agree exactly, or the script fails.
#  2. planning time on a 10,000-message history: truncate, and hybrid with a
#     command summarizer that answers at once (so the model's speed is not
#     measured), against counting alone.
#  3. tokenizer accuracy: cl100k, o200k and the chars/4 estimate against the
#     served model's own count (llama.cpp /tokenize) on tests/fixtures'
#     realistic chat, when a llama.cpp server answers (OLLM_TEST_LLM_URL,
#     default http://127.0.0.1:8089).
#
# Python's tiktoken downloads its BPE file at run time; the network is not
# reachable here, so its cache (TIKTOKEN_CACHE_DIR) is filled with the very
# cl100k_base.tiktoken file the tiktoken-rs crate embeds (same SHA-256 that
# tiktoken checks).
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_BUILD_JOBS=${CARGO_BUILD_JOBS:-1}
cargo build --release --quiet --bin ollm-compress
bin=target/$(rustc --print host-tuple)/release/ollm-compress
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 -c 'import tiktoken' 2>/dev/null || python3 -m pip install --quiet tiktoken
asset=$(ls -d "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/tiktoken-rs-*/assets/cl100k_base.tiktoken | tail -1)
export TIKTOKEN_CACHE_DIR=$work/tiktoken
mkdir -p "$TIKTOKEN_CACHE_DIR"
# tiktoken caches a file under the SHA-1 of its URL.
cp "$asset" "$TIKTOKEN_CACHE_DIR/$(printf %s https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken | sha1sum | cut -d' ' -f1)"

# A 10,000-message history built from the fixture's messages.
python3 - "$work/big.json" <<'PY'
import json, sys
s = json.load(open("tests/fixtures/compress/session.json"))
base = s["messages"]
out = [base[0]]
i = 0
while len(out) < 10000:
    m = dict(base[1 + i % (len(base) - 1)])
    m["parts"] = [{"type": "text", "text": f"({i}) " + base[1 + i % (len(base) - 1)]["parts"][0]["text"]}]
    m["timestamp"] = "2026-01-27T10:00:00Z"
    out.append(m)
    i += 1
json.dump(out, open(sys.argv[1], "w"))
PY
echo "history: 10000 messages, $(du -h "$work/big.json" | cut -f1)"

cat >"$work/count.py" <<'PY'
import json, sys, tiktoken
enc = tiktoken.get_encoding("cl100k_base")
msgs = json.load(open(sys.argv[1]))
total = 0
for m in msgs:
    text = "\n".join(p["text"] if p.get("type") == "text" else json.dumps(p) for p in m["parts"])
    total += len(enc.encode_ordinary(text)) + 4
print(total)
PY

# best of N wall-clock seconds of a command
best() {
  local n=$1; shift
  local best=""
  for _ in $(seq "$n"); do
    local t0 t1
    t0=$(date +%s%N); "$@" >/dev/null; t1=$(date +%s%N)
    local d=$(( (t1 - t0) / 1000 ))
    if [[ -z $best || $d -lt $best ]]; then best=$d; fi
  done
  echo "$best"
}
ratio() { python3 -c "print(f'{$1/$2:.2f}')"; }
ms() { python3 -c "print(f'{$1/1000:.1f} ms')"; }

ours_total=$("$bin" count "$work/big.json" | python3 -c 'import json,sys; print(json.load(sys.stdin)["total"])')
py_total=$(python3 "$work/count.py" "$work/big.json")
if [[ $ours_total != "$py_total" ]]; then
  echo "MISMATCH: ollm-compress counted $ours_total tokens, tiktoken $py_total" >&2; exit 1
fi
echo "both count $ours_total tokens (cl100k_base)"

t_ours=$(best 3 "$bin" count "$work/big.json")
t_py=$(best 3 python3 "$work/count.py" "$work/big.json")
echo
echo "== token counting, 10,000 messages (best of 3, whole process incl. JSON parsing)"
echo "ollm-compress count:   $(ms "$t_ours")"
echo "python tiktoken:       $(ms "$t_py")"
echo "ratio tiktoken/ollm:   $(ratio "$t_py" "$t_ours")x"

limit=$(( ours_total / 2 ))
t_trunc=$(best 3 "$bin" --strategy truncate --token-limit "$limit" --preserve-recent 4096 "$work/big.json")
t_hyb=$(best 3 "$bin" --strategy hybrid --token-limit "$limit" --preserve-recent 4096 \
  --summarizer-cmd 'cat >/dev/null; echo "Goal: import CSV files fast and correctly"' "$work/big.json")
echo
echo "== planning on 10,000 messages (limit $limit tokens; best of 3, incl. counting and output)"
echo "count only:            $(ms "$t_ours")"
echo "truncate:              $(ms "$t_trunc")   ratio to counting: $(ratio "$t_trunc" "$t_ours")x"
echo "hybrid (instant cmd):  $(ms "$t_hyb")   ratio to counting: $(ratio "$t_hyb" "$t_ours")x"

url=${OLLM_TEST_LLM_URL:-http://127.0.0.1:8089}
echo
if curl -fsS -m 3 "$url/health" >/dev/null 2>&1; then
  echo "== tokenizer accuracy vs the served model's own count ($url/tokenize), tests/fixtures/compress/session.json"
  fixture=tests/fixtures/compress/session.json
  "$bin" count --tokenizer server --tokenizer-url "$url" "$fixture" >"$work/server.json"
  for tk in cl100k o200k estimate; do
    "$bin" count --tokenizer "$tk" "$fixture" >"$work/$tk.json"
    python3 - "$work/server.json" "$work/$tk.json" "$tk" <<'PY'
import json, sys
exact, other, name = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3]
def rows(d): return [r["tokens"] - 4 for r in d["messages"] + d.get("toolCalls", [])]
e, o = rows(exact), rows(other)
errs = [abs(a - b) / b for a, b in zip(o, e) if b]
te, to = sum(e), sum(o)
print(f"{name:9} total {to:5} vs {te:5} ({(to - te) / te * 100:+.1f}%), "
      f"mean per-message error {sum(errs) / len(errs) * 100:.1f}%, worst {max(errs) * 100:.1f}%")
PY
  done
else
  echo "SKIPPED: tokenizer accuracy (no llama.cpp server answers $url/health)"
fi

# A model's tokenizer.json (SmolLM2's) on 20 messages: the first use, which
# prepares it into $OLLM_HOME/cache/tokenizers, and every later use, which
# reads the prepared form, against the same count with the estimate.
export OLLM_HOME=$work/home
python3 -c 'import json,sys; json.dump(json.load(open(sys.argv[1]))[:20], open(sys.argv[2], "w"))' \
  "$work/big.json" "$work/twenty.json"
tj=tests/fixtures/compress/smollm2-tokenizer.json
first=""
for _ in 1 2 3; do
  rm -rf "$OLLM_HOME/cache/tokenizers"
  t=$(best 1 "$bin" count --tokenizer "$tj" "$work/twenty.json")
  if [[ -z $first || $t -lt $first ]]; then first=$t; fi
done
t_cached=$(best 10 "$bin" count --tokenizer "$tj" "$work/twenty.json")
t_est=$(best 10 "$bin" count --tokenizer estimate "$work/twenty.json")
echo
echo "== tokenizer.json (SmolLM2), count of 20 messages (best of 10; first use best of 3)"
echo "first use (prepares):  $(ms "$first")"
echo "cached:                $(ms "$t_cached")   ratio to estimate: $(ratio "$t_cached" "$t_est")x"
echo "--tokenizer estimate:  $(ms "$t_est")"
