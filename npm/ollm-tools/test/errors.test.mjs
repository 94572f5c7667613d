// Each exit code of the programs' table arrives as its own error class,
// carrying the program's one-line message.
import assert from "node:assert/strict";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

import {
  CommandNotFoundError,
  ConfigError,
  CorruptDataError,
  InternalError,
  NotExecutableError,
  NotFoundError,
  OllmError,
  Session,
  SignalError,
  StorageError,
  UsageError,
  VerdictError,
  findBinary,
  run,
} from "ollm-tools";

import { sandbox } from "./sandbox.mjs";

async function failure(promise) {
  const error = await promise.then(
    () => assert.fail("expected a failure"),
    (e) => e,
  );
  assert.ok(error instanceof OllmError, String(error));
  return error;
}

function oneLine(error, program) {
  assert.ok(error.message.startsWith(`${program}: `), error.message);
  assert.ok(!error.message.includes("\n"), error.message);
}

test("1: a negative verdict, where the caller did not ask for it as an answer", async (t) => {
  const history = JSON.stringify([{ role: "user", parts: [{ type: "text", text: "word ".repeat(200) }] }]);
  const error = await failure(run("ollm-compress", ["check", "--token-limit", "50", "-"], { ...sandbox(t).options, input: history }));
  assert.ok(error instanceof VerdictError);
  assert.equal(error.exitCode, 1);
  assert.equal(error.message, "ollm-compress: negative verdict (exit code 1)");
});

test("2: invalid input", async (t) => {
  const sessions = new Session(sandbox(t).options);
  const { sessionId } = await sessions.create({ model: "m", provider: "p" });
  const error = await failure(sessions.record(sessionId, { role: "user" }));
  assert.ok(error instanceof UsageError);
  assert.equal(error.exitCode, 2);
  oneLine(error, "ollm-session");
});

test("3: not found", async (t) => {
  const error = await failure(new Session(sandbox(t).options).get("no-such-session"));
  assert.ok(error instanceof NotFoundError);
  assert.equal(error.message, 'ollm-session: no session has the id prefix or title "no-such-session"');
});

test("4: a storage failure", async (t) => {
  const box = sandbox(t);
  writeFileSync(join(box.root, "a-file"), "");
  const sessions = new Session({ ...box.options, dataDir: join(box.root, "a-file", "sessions") });
  const error = await failure(sessions.create({ model: "m", provider: "p" }));
  assert.ok(error instanceof StorageError);
  assert.equal(error.exitCode, 4);
  assert.match(error.message, /^ollm-session: .*a-file\/sessions: not a directory$/);
});

test("5: invalid configuration names the key and the file", async (t) => {
  const box = sandbox(t);
  const config = join(box.root, "bad.yaml");
  writeFileSync(config, "services:\n  session:\n    maxSessions: lots\n");
  const error = await failure(new Session({ ...box.options, config }).list());
  assert.ok(error instanceof ConfigError);
  assert.equal(error.exitCode, 5);
  assert.ok(error.message.startsWith(`ollm-session: ${config}: \`services.session.maxSessions\``), error.message);
});

test("6: corrupt stored data is reported", async (t) => {
  const box = sandbox(t);
  const id = "11111111-2222-4333-8444-555555555555";
  mkdirSync(join(box.ollmHome, "sessions"), { recursive: true });
  writeFileSync(join(box.ollmHome, "sessions", `${id}.json`), "{not json");
  const error = await failure(new Session(box.options).get(id));
  assert.ok(error instanceof CorruptDataError);
  assert.equal(error.exitCode, 6);
  assert.match(error.message, /^ollm-session: session 1111.* cannot be read .* is left as it is$/);
});

test("70: an internal error (no input makes a correct program fail so: a stand-in program exits 70)", async (t) => {
  const box = sandbox(t);
  const bin = join(box.root, "bin");
  mkdirSync(bin);
  const standIn = join(bin, "ollm-session");
  writeFileSync(standIn, "#!/bin/sh\necho 'ollm-session: warning: first' >&2\necho 'ollm-session: internal error: x' >&2\nexit 70\n");
  chmodSync(standIn, 0o755);
  const error = await failure(new Session({ ...box.options, binDir: bin }).list());
  assert.ok(error instanceof InternalError);
  assert.equal(error.message, "ollm-session: internal error: x");
  assert.match(error.stderr, /warning: first/);
});

test("126: a command that is not executable", async (t) => {
  const box = sandbox(t);
  writeFileSync(join(box.work, "script"), "echo hi\n");
  const error = await failure(run("ollm-env", ["run", "--", "./script"], box.options));
  assert.ok(error instanceof NotExecutableError);
  assert.equal(error.exitCode, 126);
  oneLine(error, "ollm-env");
});

test("127: a command that is not found", async (t) => {
  const error = await failure(run("ollm", ["no-such-tool"], sandbox(t).options));
  assert.ok(error instanceof CommandNotFoundError);
  assert.equal(error.message, "ollm: 'no-such-tool' is not an ollm tool (see 'ollm --list')");
});

test("128+N: a tool that died of a signal", async (t) => {
  const error = await failure(
    run("ollm-env", ["run", "--redact-output", "--", "sh", "-c", "kill -TERM $$"], sandbox(t).options),
  );
  assert.ok(error instanceof SignalError);
  assert.deepEqual([error.exitCode, error.signal], [143, 15]);
});

test("the programs come from the platform package", () => {
  assert.match(findBinary("ollm-session"), /node_modules\/ollm-tools-linux-x64\/bin\/ollm-session$/);
});
