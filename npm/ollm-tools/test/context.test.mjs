import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { test } from "node:test";

import { Context, NotFoundError } from "ollm-tools";

import { sandbox } from "./sandbox.mjs";

test("entries are added, listed, rendered by priority and removed", async (t) => {
  const box = sandbox(t);
  const context = new Context(box.options);
  const added = await context.add("style", "Use tabs.\n--not a flag", { priority: 10 });
  assert.deepEqual([added.added, added.replaced], ["style", false]);
  assert.equal(added.store, `${box.work}/.ollm/context.json`);
  await context.add("goal", "Fix the flaky test.", { priority: 90, source: "hook", ttl: "1h" });

  assert.deepEqual((await context.list()).map((e) => [e.key, e.priority, e.source]), [
    ["style", 10, "user"],
    ["goal", 90, "hook"],
  ]);
  assert.equal((await context.get("style")).content, "Use tabs.\n--not a flag");
  assert.equal(await context.prompt(), "## goal\n\nFix the flaky test.\n\n## style\n\nUse tabs.\n--not a flag\n");

  assert.deepEqual((await context.remove("style")).keys, ["style"]);
  await assert.rejects(context.remove("style"), NotFoundError);
  assert.equal((await context.remove("style", true)).removed, 0);
  assert.deepEqual((await context.clear("hook")).keys, ["goal"]);
  assert.equal(await context.prompt(), "");
});

test("an entry's content may come from a file the program reads", async (t) => {
  const box = sandbox(t);
  const context = new Context(box.options);
  const file = `${box.work}/notes.md`;
  writeFileSync(file, "Run the tests before pushing.\n");
  assert.equal((await context.add("notes", { fromFile: file }, { priority: 5 })).added, "notes");
  const entry = await context.get("notes");
  assert.deepEqual([entry.content.trim(), entry.priority], ["Run the tests before pushing.", 5]);
});
