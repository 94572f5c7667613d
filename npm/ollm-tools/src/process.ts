// Running one program: arguments as an array (no shell), input on stdin,
// output collected (or read line by line for NDJSON streams), and the exit
// code turned into a value or an error.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { constants } from "node:os";

import { findBinary } from "./binary.js";
import { errorFor } from "./errors.js";

/** Where and how the programs run; every client class takes these. */
export interface ClientOptions {
  /** A directory holding the programs (default: `$OLLM_TOOLS_BIN_DIR`, else the platform package). */
  binDir?: string;
  /** The programs' environment (default: `process.env`); `OLLM_HOME` here moves every store. */
  env?: NodeJS.ProcessEnv;
  /** Their working directory (default: `process.cwd()`): the workspace of `.ollm/`, `--here` and discovery. */
  cwd?: string;
  /** A YAML configuration file read after the user's and the workspace's (`--config`). */
  config?: string;
}

/** What a finished program left. */
export interface Completed {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** Input for a program's stdin: text or bytes, or lines written as they come. */
export type Input = string | Uint8Array | Iterable<string> | AsyncIterable<string>;

export interface RunOptions extends ClientOptions {
  /** Written to the program's stdin, which is then closed (default: nothing). */
  input?: Input;
  /** Exit codes that are answers rather than failures (0 always is). */
  okCodes?: readonly number[];
  /**
   * Without `input`, keep stdin open until the stream is left: a program that
   * stops at the end of a piped stdin (`discover watch`, so that it ends with
   * its caller) runs until then.
   */
  holdStdin?: boolean;
}

/**
 * Runs `program` with `args` and resolves with its output once it exits.
 * An exit code outside `okCodes` rejects with the error class of that code.
 */
export async function run(program: string, args: readonly string[], options: RunOptions = {}): Promise<Completed> {
  const child = start(program, args, options);
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
  child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
  const [exitCode] = await Promise.all([exited(child), feed(child, options.input)]);
  const result = {
    stdout: Buffer.concat(stdout).toString("utf8"),
    stderr: Buffer.concat(stderr).toString("utf8"),
    exitCode,
  };
  check(program, result, options.okCodes);
  return result;
}

/** Runs `program` and parses its stdout as one JSON document. */
export async function runJson<T>(program: string, args: readonly string[], options: RunOptions = {}): Promise<T> {
  const { stdout } = await run(program, args, options);
  return JSON.parse(stdout) as T;
}

/**
 * Runs `program` and yields each line of its stdout parsed as JSON as soon as
 * it is printed, while `input` is still being written. Leaving the loop early
 * ends the program (SIGTERM); an exit code outside `okCodes` throws after the
 * last line.
 */
export async function* streamJson<T>(
  program: string,
  args: readonly string[],
  options: RunOptions = {},
): AsyncGenerator<T, void, undefined> {
  const child = start(program, args, options);
  const stderr: Buffer[] = [];
  child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
  const done = exited(child);
  const fed = options.holdStdin === true && options.input === undefined ? Promise.resolve() : feed(child, options.input);
  let finished = false;
  try {
    let pending = "";
    for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
      pending += chunk.toString("utf8");
      let newline: number;
      while ((newline = pending.indexOf("\n")) >= 0) {
        const line = pending.slice(0, newline);
        pending = pending.slice(newline + 1);
        if (line.trim() !== "") yield JSON.parse(line) as T;
      }
    }
    if (pending.trim() !== "") yield JSON.parse(pending) as T;
    const exitCode = await done;
    await fed;
    finished = true;
    check(program, { stdout: "", stderr: Buffer.concat(stderr).toString("utf8"), exitCode }, options.okCodes);
  } finally {
    child.stdin.end();
    if (!finished) {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await done.catch(() => undefined);
    }
  }
}

/** The arguments every program takes from the client options. */
export function commonArgs(options: ClientOptions): string[] {
  return options.config === undefined ? [] : ["--config", options.config];
}

function start(program: string, args: readonly string[], options: RunOptions): ChildProcessWithoutNullStreams {
  const path = findBinary(program, options.binDir);
  const child = spawn(path, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ["pipe", "pipe", "pipe"],
    windowsHide: true,
  });
  // A program that exits without reading all its input closes the pipe: that
  // is for its exit code to explain, not an error of ours.
  child.stdin.on("error", () => undefined);
  return child;
}

function exited(child: ChildProcessWithoutNullStreams): Promise<number> {
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code, signal) => {
      if (code !== null) resolve(code);
      else resolve(128 + (signal === null ? 0 : (constants.signals[signal] ?? 0)));
    });
  });
}

async function feed(child: ChildProcessWithoutNullStreams, input: Input | undefined): Promise<void> {
  const stdin = child.stdin;
  if (input === undefined) {
    stdin.end();
    return;
  }
  if (typeof input === "string" || input instanceof Uint8Array) {
    stdin.end(input);
    return;
  }
  try {
    for await (const line of input) {
      if (stdin.destroyed) break;
      if (!stdin.write(line)) {
        await new Promise<void>((resolve) => {
          stdin.once("drain", resolve);
          stdin.once("close", resolve);
        });
      }
    }
  } finally {
    stdin.end();
  }
}

function check(program: string, result: Completed, okCodes: readonly number[] | undefined): void {
  if (result.exitCode === 0 || okCodes?.includes(result.exitCode) === true) return;
  throw errorFor(program, result.exitCode, result.stderr);
}
