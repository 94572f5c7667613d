import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

import { Discover } from "ollm-tools";

import { sandbox } from "./sandbox.mjs";

test("the listing leaves out what .gitignore ignores", async (t) => {
  const box = sandbox(t);
  mkdirSync(join(box.work, "src"));
  writeFileSync(join(box.work, ".gitignore"), "*.log\n");
  writeFileSync(join(box.work, "src", "main.rs"), "fn main() {}\n");
  writeFileSync(join(box.work, "debug.log"), "noise\n");
  const discover = new Discover(box.options);
  const files = await discover.list(undefined, { type: "file" });
  assert.deepEqual(files.map((f) => f.relativePath), [".gitignore", "src/main.rs"]);
  assert.equal(files[1].size, 13);
  assert.deepEqual((await discover.list(box.work, { include: ["*.rs"], type: "file" })).map((f) => f.relativePath), [
    "src/main.rs",
  ]);
});

test("watching yields ready, then the changes, and stops when the loop is left", { timeout: 20_000 }, async (t) => {
  const box = sandbox(t);
  const seen = [];
  for await (const event of new Discover(box.options).watch(box.work, { debounceMs: 20 })) {
    seen.push([event.event, event.relativePath]);
    if (event.event === "ready") writeFileSync(join(box.work, "new.txt"), "hello\n");
    if (event.event === "add") break;
  }
  assert.deepEqual(seen, [
    ["ready", ""],
    ["add", "new.txt"],
  ]);
});
