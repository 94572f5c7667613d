// Run in a project where npm installed ollm-tools alone (no package of
// programs), with the programs `cargo install` built on PATH, behind the
// project's own launchers in node_modules/.bin.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";

import { Session } from "ollm-tools";

const env = { ...process.env, OLLM_HOME: mkdtempSync(join(tmpdir(), "ollm-home-")) };

test("the client runs the programs it finds on PATH", async () => {
  const sessions = new Session({ env });
  const { sessionId } = await sessions.create({ model: "m", provider: "p" });
  const listed = await sessions.list();
  assert.deepEqual(
    listed.map((s) => s.sessionId),
    [sessionId],
  );
});

test("a launcher on PATH runs the program on PATH, not itself again", () => {
  const out = spawnSync("ollm-session", ["--version"], { encoding: "utf8", env, timeout: 20000 });
  assert.equal(out.status, 0, out.stderr);
  assert.match(out.stdout, /^ollm-session \d+\.\d+\.\d+/);
});
