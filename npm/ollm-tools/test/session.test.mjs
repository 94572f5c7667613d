import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { test } from "node:test";

import { NotFoundError, Session, textMessage } from "ollm-tools";

import { sandbox } from "./sandbox.mjs";

test("a session is created, recorded into, read, listed, searched, exported and deleted", async (t) => {
  const sessions = new Session(sandbox(t).options);
  const { sessionId } = await sessions.create({ model: "m1", provider: "ollama", title: "first" });
  assert.match(sessionId, /^[0-9a-f-]{36}$/);

  const ack = await sessions.record(sessionId, textMessage("user", "how do I retry with backoff?"));
  assert.deepEqual([ack.sessionId, ack.recorded, ack.index], [sessionId, "message", 0]);
  const call = await sessions.record("first", { name: "run", args: { cmd: "ls" }, result: { llmContent: "a.txt b.txt" } });
  assert.equal(call.recorded, "toolCall");

  const doc = await sessions.get(sessionId);
  assert.equal(doc.model, "m1");
  assert.equal(doc.messages[0].parts[0].text, "how do I retry with backoff?");
  assert.equal(doc.toolCalls[0].name, "run");
  assert.match(doc.toolCalls[0].id, /^call_[0-9a-f]{32}$/);
  assert.equal(doc.toolCalls[0].result.llmContent, "a.txt b.txt");
  assert.deepEqual(await sessions.messages({ last: true }), doc.messages);

  const [summary] = await sessions.list();
  assert.deepEqual([summary.sessionId, summary.messageCount, summary.title], [sessionId, 1, "first"]);
  const hits = await sessions.search("BACKOFF", { ignoreCase: true });
  assert.deepEqual(hits.map((hit) => [hit.sessionId, hit.messageIndex, hit.role]), [[sessionId, 0, "user"]]);
  assert.match(await sessions.markdown(sessionId), /how do I retry with backoff\?/);

  const branch = await sessions.branch(sessionId, { at: 1, title: "fork" });
  assert.deepEqual([branch.parentSessionId, branch.branchPoint], [sessionId, 1]);
  assert.equal((await sessions.rename(branch.sessionId, "renamed")).title, "renamed");
  assert.deepEqual(await sessions.delete("renamed"), { deleted: [branch.sessionId] });
  await assert.rejects(sessions.get(branch.sessionId), NotFoundError);
});

test("records streamed in are each acknowledged as they reach the disk", { timeout: 20_000 }, async (t) => {
  const sessions = new Session(sandbox(t).options);
  const { sessionId } = await sessions.create({ model: "m", provider: "p" });
  // The second record is only produced after the first one's acknowledgement
  // came back: the stream is read while it is still being written.
  let acknowledged = 0;
  async function* records() {
    yield textMessage("user", "one");
    while (acknowledged < 1) await new Promise((resolve) => setTimeout(resolve, 5));
    yield textMessage("assistant", "two");
  }
  const acks = [];
  for await (const ack of sessions.recordStream(sessionId, records())) {
    acks.push(ack);
    acknowledged += 1;
  }
  assert.deepEqual(acks.map((ack) => ack.index), [0, 1]);
  assert.deepEqual((await sessions.messages(sessionId)).map((m) => m.parts[0].text), ["one", "two"]);
});

test("a 10 MB tool result goes in through stdin and comes back whole", async (t) => {
  const sessions = new Session(sandbox(t).options);
  const { sessionId } = await sessions.create({ model: "m", provider: "p" });
  const line = "the build log says nothing new here\n";
  const big = line.repeat(Math.ceil((10 * 1024 * 1024) / line.length));
  assert.ok(big.length >= 10 * 1024 * 1024);
  const ack = await sessions.record(sessionId, { name: "run", args: { cmd: "make" }, result: { llmContent: big } });
  assert.equal(ack.recorded, "toolCall");
  const doc = await sessions.get(sessionId);
  assert.equal(doc.toolCalls[0].result.llmContent.length, big.length);
  assert.equal(doc.toolCalls[0].result.llmContent, big);
});

test("a tool call is recorded from flags, its result on stdin or from a file", async (t) => {
  const box = sandbox(t);
  const sessions = new Session(box.options);
  const { sessionId } = await sessions.create({ model: "m1", provider: "ollama" });
  await sessions.recordToolCall(sessionId, { name: "grep", args: { q: "retry" }, result: "--not a flag\n", display: "1 match", callId: "c1" });
  const file = `${box.work}/out.txt`;
  writeFileSync(file, "from a file");
  await sessions.recordToolCall(sessionId, { name: "cat", args: {}, resultFile: file });
  const calls = (await sessions.get(sessionId)).toolCalls;
  assert.deepEqual(
    calls.map((c) => [c.name, c.args, c.result.llmContent, c.result.returnDisplay]),
    [
      ["grep", { q: "retry" }, "--not a flag\n", "1 match"],
      ["cat", {}, "from a file", undefined],
    ],
  );
  assert.equal(calls[0].id, "c1");
});
