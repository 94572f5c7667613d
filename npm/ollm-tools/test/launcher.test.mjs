// The `bin` entries npm links into node_modules/.bin.
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { test } from "node:test";

import { sandbox } from "./sandbox.mjs";

const bin = (name) => fileURLToPath(new URL(`../node_modules/.bin/${name}`, import.meta.url));

test("a launcher passes arguments, stdin, stdout and the exit code through", (t) => {
  const box = sandbox(t);
  const run = (name, args, input) => spawnSync(bin(name), args, { env: box.env, cwd: box.work, input, encoding: "utf8" });
  const created = run("ollm-session", ["create", "--model", "m", "--provider", "p"]);
  assert.equal(created.status, 0, created.stderr);
  const { sessionId } = JSON.parse(created.stdout);
  const recorded = run("ollm-session", ["record", sessionId, "-"], '{"role":"user","parts":[{"type":"text","text":"hi"}]}');
  assert.equal(JSON.parse(recorded.stdout).index, 0);
  const missing = run("ollm-session", ["get", "nope"]);
  assert.equal(missing.status, 3);
  assert.equal(
    missing.stderr,
    'ollm-session: no session has the id prefix or title "nope"; to find it by what was said in it: ollm session search "nope"\n',
  );
  // The dispatcher finds its tools beside itself in the platform package.
  const listed = run("ollm", ["session", "list"]);
  assert.equal(JSON.parse(listed.stdout)[0].sessionId, sessionId);
  const version = run("ollm-mcp", ["--version"]);
  assert.equal(version.status, 0, version.stderr);
});

test("a signal sent to the launcher reaches the program, and the launcher ends as it does", { timeout: 20_000 }, async (t) => {
  const box = sandbox(t);
  // ollm-discover watch ends cleanly (exit 0) at SIGTERM; a launcher that
  // did not pass the signal on would die of it instead, leaving the program
  // running with our pipes open (no "close").
  const child = spawn(bin("ollm-discover"), ["watch", "--ready"], { env: box.env, cwd: box.work, stdio: ["pipe", "pipe", "inherit"] });
  await new Promise((resolve) => child.stdout.once("data", resolve));
  child.kill("SIGTERM");
  const [code, signal] = await new Promise((resolve) => child.on("close", (c, s) => resolve([c, s])));
  assert.deepEqual([code, signal], [0, null]);
});
