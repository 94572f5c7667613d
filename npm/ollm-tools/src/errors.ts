// One error class per exit code of the programs' shared table (DESIGN.md,
// every program's --help), each carrying the program's one-line message.

/** A program exited with a code that means failure. */
export class OllmError extends Error {
  /** The program that failed, e.g. `ollm-session`. */
  readonly program: string;
  /** Its exit code. */
  readonly exitCode: number;
  /** Everything it wrote to stderr (warnings included); `message` is its last line. */
  readonly stderr: string;

  constructor(program: string, exitCode: number, stderr: string, fallback: string) {
    super(lastLine(stderr) ?? `${program}: ${fallback} (exit code ${exitCode})`);
    this.name = new.target.name;
    this.program = program;
    this.exitCode = exitCode;
    this.stderr = stderr;
  }
}

/** 1: a negative verdict (a loop detected, compression needed, credentials found). */
export class VerdictError extends OllmError {}
/** 2: a usage error or invalid input (malformed JSON, a flag value out of range). */
export class UsageError extends OllmError {}
/** 3: not found (session, snapshot, context key, input file). */
export class NotFoundError extends OllmError {}
/** 4: a storage or I/O failure. */
export class StorageError extends OllmError {}
/** 5: invalid configuration; the message names the key and the file. */
export class ConfigError extends OllmError {}
/** 6: stored data is corrupt (reported, never overwritten). */
export class CorruptDataError extends OllmError {}
/** 70: an internal error (a bug in the program: please report it). */
export class InternalError extends OllmError {}
/** 126: a command was found but is not executable. */
export class NotExecutableError extends OllmError {}
/** 127: a command was not found (`ollm NAME` with no `ollm-NAME`). */
export class CommandNotFoundError extends OllmError {}

/** 128+N: the program, or the tool it ran, died of signal N. */
export class SignalError extends OllmError {
  /** The signal's number. */
  readonly signal: number;
  constructor(program: string, exitCode: number, stderr: string, fallback: string) {
    super(program, exitCode, stderr, fallback);
    this.signal = exitCode - 128;
  }
}

/** A program is not installed where the client looks for it; the message says how to install it. */
export class BinaryNotFoundError extends Error {
  readonly program: string;
  constructor(program: string, message: string) {
    super(message);
    this.name = "BinaryNotFoundError";
    this.program = program;
  }
}

type ErrorClass = new (program: string, exitCode: number, stderr: string, fallback: string) => OllmError;

const BY_CODE: ReadonlyMap<number, [ErrorClass, string]> = new Map<number, [ErrorClass, string]>([
  [1, [VerdictError, "negative verdict"]],
  [2, [UsageError, "usage error or invalid input"]],
  [3, [NotFoundError, "not found"]],
  [4, [StorageError, "storage or I/O failure"]],
  [5, [ConfigError, "invalid configuration"]],
  [6, [CorruptDataError, "stored data is corrupt"]],
  [70, [InternalError, "internal error"]],
  [126, [NotExecutableError, "command found but not executable"]],
  [127, [CommandNotFoundError, "command not found"]],
]);

/** The error for `program` exiting with `exitCode` after writing `stderr`. */
export function errorFor(program: string, exitCode: number, stderr: string): OllmError {
  if (exitCode > 128 && exitCode < 256) {
    return new SignalError(program, exitCode, stderr, `died of signal ${exitCode - 128}`);
  }
  const known = BY_CODE.get(exitCode);
  if (known === undefined) return new OllmError(program, exitCode, stderr, "failed");
  const [Class, meaning] = known;
  return new Class(program, exitCode, stderr, meaning);
}

function lastLine(text: string): string | undefined {
  const lines = text.split("\n").filter((line) => line.trim() !== "");
  return lines[lines.length - 1];
}
