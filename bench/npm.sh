#!/usr/bin/env bash
# The npm package's client (issue 28): how long `import("ollm-tools")` takes
# in a fresh Node process, and what a client call adds over starting the
# program directly with child_process.spawn (input on stdin, stdout parsed
# as JSON), interleaved in one process so that both see the same machine.
# usage: BIN_DIR=target/<host>/release bench/npm.sh [CALLS]   (default 300)
# The client is the one the package ships (npm/pack.mjs --main-only, with
# the pinned tools of target/npm-tools that .ci/run installs); the programs
# are those of BIN_DIR.
set -euo pipefail
cd "$(dirname "$0")/.."
calls=${1:-300}
bin=${BIN_DIR:-$PWD/target/$(rustc --print host-tuple)/release}
[[ -x $bin/ollm-loopcheck ]] || { echo "npm.sh: no $bin/ollm-loopcheck (set BIN_DIR)" >&2; exit 1; }

work=$(mktemp -d "${BENCH_DIR:-${TMPDIR:-/tmp}}/ollm-bench-npm.XXXXXX")
trap 'rm -rf "$work"' EXIT
pkg=$work/node_modules/ollm-tools
mkdir -p "$pkg"
tarball=$(node npm/pack.mjs --main-only --out "$work/pack" | python3 -c 'import json, sys; print(json.load(sys.stdin)["main"])')
tar xzf "$tarball" -C "$pkg" --strip-components=1
echo '{"private": true, "type": "module"}' >"$work/package.json"
export OLLM_TOOLS_BIN_DIR=$bin OLLM_HOME=$work/home HOME=$work/home
cd "$work"

# In a fresh process whose main module is a file (as an application's is),
# after the ES module loader's own start-up (an empty module: what any ESM
# program pays before its first line), the package's import.
cat >import.mjs <<'JS'
const t0 = performance.now();
await import("data:text/javascript,");
const t1 = performance.now();
await import("ollm-tools");
console.log((t1 - t0).toFixed(3), (performance.now() - t1).toFixed(3));
JS
loader=() imports=()
for _ in $(seq 1 21); do
  read -r l i < <(node import.mjs)
  loader+=("$l") imports+=("$i")
done
median() { printf '%s\n' "$@" | sort -g | sed -n "$((($# + 1) / 2))p"; }
echo "import ollm-tools: $(median "${imports[@]}") ms (median of 21 fresh node processes; the ES module loader's start-up before it: $(median "${loader[@]}") ms)"

cat >calls.mjs <<'JS'
import { spawn } from "node:child_process";
import { LoopCheck } from "ollm-tools";

const calls = Number(process.argv[2]);
const events = [{ type: "turn" }, { type: "tool", name: "read_file", args: { path: "a.txt" } }];
const input = events.map((e) => `${JSON.stringify(e)}\n`).join("");
const program = `${process.env.OLLM_TOOLS_BIN_DIR}/ollm-loopcheck`;
const direct = () =>
  new Promise((resolve, reject) => {
    const child = spawn(program, ["-"], { stdio: ["pipe", "pipe", "pipe"] });
    const out = [];
    child.stdout.on("data", (chunk) => out.push(chunk));
    child.on("error", reject);
    child.on("close", () => resolve(JSON.parse(Buffer.concat(out).toString("utf8"))));
    child.stdin.end(input);
  });
const loopcheck = new LoopCheck();
const client = () => loopcheck.check(events);
const time = async (f) => {
  const t = performance.now();
  const verdict = await f();
  if (verdict.loop !== false) throw new Error("unexpected verdict");
  return performance.now() - t;
};
for (let i = 0; i < 20; i++) await time(i % 2 ? direct : client);
const spent = { direct: 0, client: 0 };
for (let i = 0; i < calls; i++) {
  // Alternate which goes first, so neither always follows the other.
  for (const [name, f] of i % 2 ? [["direct", direct], ["client", client]] : [["client", client], ["direct", direct]]) {
    spent[name] += await time(f);
  }
}
const [d, c] = [spent.direct / calls, spent.client / calls];
console.log(
  `per call (ollm-loopcheck, ${calls} each, interleaved): child_process ${d.toFixed(3)} ms, client ${c.toFixed(3)} ms, overhead ${(c - d).toFixed(3)} ms`,
);
JS
node calls.mjs "$calls"
