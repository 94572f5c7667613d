import assert from "node:assert/strict";
import { test } from "node:test";

import { Compress, Session, UsageError, textMessage } from "ollm-tools";

import { sandbox } from "./sandbox.mjs";

const history = [
  textMessage("system", "You are terse."),
  ...Array.from({ length: 12 }, (_, i) => textMessage(i % 2 ? "assistant" : "user", `turn ${i}: ${"words ".repeat(40)}`)),
];

test("tokens are counted, the need to compress is judged, and truncation shortens the history", async (t) => {
  const box = sandbox(t);
  const compress = new Compress(box.options);
  const count = await compress.count(history);
  assert.equal(count.messages.length, history.length);
  assert.ok(count.total > 400, `${count.total}`);

  const roomy = await compress.check(history, { tokenLimit: 100000 });
  assert.equal(roomy.needed, false);
  // Exit code 1 (needed) is the answer, not an error.
  const tight = await compress.check(history, { tokenLimit: 200 });
  assert.deepEqual([tight.needed, tight.tokenCount], [true, count.total]);

  const result = await compress.compress(history, {
    strategy: "truncate",
    tokenLimit: 200,
    preserveRecent: 50,
    keepUserMessages: false,
  });
  assert.equal(result.status, "compressed");
  assert.ok(result.compressedTokenCount < result.originalTokenCount);
  assert.equal(result.compressedMessages[0].parts[0].text, "You are terse.");

  // A stored session is read by the program itself.
  const sessions = new Session(box.options);
  const { sessionId } = await sessions.create({ model: "m", provider: "p" });
  await sessions.record(sessionId, textMessage("user", "hello there"));
  assert.equal((await compress.count({ session: sessionId })).messages.length, 1);
});

test("malformed JSON is a UsageError carrying the program's one-line message", async (t) => {
  const error = await new Compress(sandbox(t).options).count("{not json").catch((e) => e);
  assert.ok(error instanceof UsageError, String(error));
  assert.equal(error.exitCode, 2);
  assert.equal(error.program, "ollm-compress");
  assert.match(error.message, /^ollm-compress: invalid input: /);
  assert.ok(!error.message.includes("\n"));
});
