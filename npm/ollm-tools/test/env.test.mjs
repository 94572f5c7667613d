import assert from "node:assert/strict";
import { test } from "node:test";

import { Env } from "ollm-tools";

import { sandbox } from "./sandbox.mjs";

test("a tool runs without the secrets of the environment, and its exit code comes back", async (t) => {
  const box = sandbox(t);
  const env = new Env({ ...box.options, env: { ...box.env, GITHUB_TOKEN: "ghp_not_a_real_one", PROJECT_NAME: "demo" } });
  const run = await env.run(["sh", "-c", 'echo "${GITHUB_TOKEN:-gone} $PROJECT_NAME"; cat; exit 7'], { input: "from stdin\n" });
  assert.deepEqual(run, { exitCode: 7, stdout: "gone demo\nfrom stdin\n", stderr: "" });

  const report = await env.report();
  assert.ok(report.removed.some((v) => v.name === "GITHUB_TOKEN"));
  assert.ok(report.kept.some((v) => v.name === "PROJECT_NAME"));
  assert.ok(!JSON.stringify(report).includes("ghp_not_a_real_one"));
  const why = await env.explain("GITHUB_TOKEN");
  assert.equal(why.kept, false);
  assert.match(why.howToAllow ?? "", /--allow GITHUB_TOKEN/);
  const allowed = await env.run(["sh", "-c", 'printf %s "$GITHUB_TOKEN"'], { allow: ["GITHUB_TOKEN"] });
  assert.equal(allowed.stdout, "ghp_not_a_real_one");
});
