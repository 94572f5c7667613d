// What each `bin` entry runs: the platform package's program with this
// process's arguments, stdio and environment, exiting as it exits.
import { spawn } from "node:child_process";

import { findBinary } from "./binary.js";
import { BinaryNotFoundError } from "./errors.js";

/** Runs `program` in place of this process (as far as Node allows). */
export function launch(program: string): void {
  let path: string;
  try {
    path = findBinary(program);
  } catch (error) {
    if (!(error instanceof BinaryNotFoundError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(127);
  }
  const child = spawn(path, process.argv.slice(2), { stdio: "inherit" });
  // A signal sent to this process alone (a supervisor's SIGTERM) goes on to
  // the program; a terminal's ^C reaches both, and the program decides.
  const forward = (signal: NodeJS.Signals): void => {
    child.kill(signal);
  };
  const signals: NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT"];
  for (const signal of signals) process.on(signal, forward);
  child.on("error", (error) => {
    process.stderr.write(`${program}: cannot run ${path}: ${error.message}\n`);
    process.exit(126);
  });
  child.on("exit", (code, signal) => {
    for (const s of signals) process.off(s, forward);
    if (signal !== null) {
      // Die of the same signal, so our caller sees what the shell would.
      process.kill(process.pid, signal);
      return;
    }
    process.exit(code ?? 1);
  });
}
