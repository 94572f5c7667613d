// Run in a project where npm installed ollm-tools without its optional
// dependency (npm install --omit=optional): no programs for this platform.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { test } from "node:test";

import { BinaryNotFoundError, Session } from "ollm-tools";

const expected =
  /^ollm-session: the package ollm-tools-linux-x64, which holds the programs for linux-x64, is not installed .*`npm install ollm-tools-linux-x64@0\.1\.0`/;

test("the client names the missing program and how to install it", async () => {
  const error = await new Session().list().catch((e) => e);
  assert.ok(error instanceof BinaryNotFoundError, String(error));
  assert.equal(error.program, "ollm-session");
  assert.match(error.message, expected);
});

test("a launcher says the same in one line and exits 127", () => {
  const launcher = fileURLToPath(new URL("../../node_modules/.bin/ollm-session", import.meta.url));
  const out = spawnSync(launcher, ["list"], { encoding: "utf8" });
  assert.equal(out.status, 127);
  assert.match(out.stderr, expected);
  assert.equal(out.stderr.split("\n").length, 2, out.stderr);
});
