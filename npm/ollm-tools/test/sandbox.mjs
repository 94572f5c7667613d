// A temporary OLLM_HOME, HOME and workspace for each test, with the client
// options that point the programs at them.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export function sandbox(t) {
  const root = mkdtempSync(join(tmpdir(), "ollm-node-"));
  const home = join(root, "home");
  const ollmHome = join(home, ".ollm");
  const work = join(root, "work");
  for (const dir of [ollmHome, work]) mkdirSync(dir, { recursive: true });
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, OLLM_HOME: ollmHome, LANG: "C.UTF-8" };
  return { root, home, ollmHome, work, env, options: { env, cwd: work } };
}
