import assert from "node:assert/strict";
import { test } from "node:test";

import { LoopCheck } from "ollm-tools";

import { sandbox } from "./sandbox.mjs";

const call = { type: "tool", name: "read_file", args: { path: "a.txt" } };

test("a batch of repeated calls is a stop verdict, returned rather than thrown", async (t) => {
  const loopcheck = new LoopCheck(sandbox(t).options);
  const verdict = await loopcheck.check([{ type: "turn" }, call, call, call, call]);
  assert.equal(verdict.loop, true);
  assert.equal(verdict.level, "stop");
  assert.equal(verdict.pattern?.type, "repeated-tool");
  const quiet = await loopcheck.check([{ type: "turn" }, call]);
  assert.deepEqual([quiet.loop, quiet.level, quiet.pattern], [false, null, null]);
});

test("streamed events get a verdict as soon as the loop shows, before the input ends", { timeout: 20_000 }, async (t) => {
  const loopcheck = new LoopCheck(sandbox(t).options);
  let sent = 0;
  let warned = false;
  async function* events() {
    for (;;) {
      // Past the third call the detector has warned; the generator waits
      // for that verdict to arrive, so only a streaming client gets here.
      if (sent === 3) while (!warned) await new Promise((resolve) => setTimeout(resolve, 5));
      if (sent === 4) return;
      sent += 1;
      yield call;
    }
  }
  const verdicts = [];
  for await (const verdict of loopcheck.stream(events())) {
    if (verdict.level === "warn") {
      assert.equal(sent, 3, "the warning came after the third call, while the input was still open");
      warned = true;
    }
    verdicts.push(verdict.level);
  }
  assert.deepEqual(verdicts, ["warn", "stop"]);
});

test("leaving a stream early ends the program", { timeout: 20_000 }, async (t) => {
  const loopcheck = new LoopCheck(sandbox(t).options);
  async function* forever() {
    for (;;) {
      yield call;
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
  }
  for await (const verdict of loopcheck.stream(forever())) {
    assert.equal(verdict.level, "warn");
    break;
  }
});
