import { flags } from "./args.js";
import { commonArgs, run, runJson, type ClientOptions, type Input } from "./process.js";
import type { EnvExplanation, EnvReport } from "./types.js";

/** A tool run by `ollm-env run`: its exit code is the tool's own. */
export interface EnvRunResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** What is kept: lists that extend the built-in ones (or replace them). */
export interface EnvPolicy {
  /** Also keep these variables (exact names, or globs such as `MYAPP_*`). */
  allow?: readonly string[];
  /** Also remove variables matching these globs. */
  deny?: readonly string[];
  /** Use only the given and configured lists. */
  replaceDefaults?: boolean;
  /** `false`: do not remove variables because their value looks like a credential. */
  scanValues?: boolean;
}

/** `ollm-env`: tools run with the secrets stripped from their environment. */
export class Env {
  constructor(private readonly options: ClientOptions = {}) {}

  /**
   * Runs `command` (program and arguments, no shell) with the sanitized
   * environment. Its exit code is the tool's own (128+N when it died of
   * signal N, 127 when it was not found), so it is returned, not thrown.
   */
  async run(
    command: readonly string[],
    how: EnvPolicy & { input?: Input; redactOutput?: boolean; set?: readonly string[] } = {},
  ): Promise<EnvRunResult> {
    const args = ["run", ...this.flags(how), ...flags({ "--set": how.set, "--redact-output": how.redactOutput }), "--", ...command];
    const options = how.input === undefined ? this.options : { ...this.options, input: how.input };
    const { exitCode, stdout, stderr } = await run("ollm-env", args, { ...options, okCodes: ANY_CODE });
    return { exitCode, stdout, stderr };
  }

  /** Every variable name kept and removed, with the rule that decided it (never a value). */
  async report(policy: EnvPolicy = {}): Promise<EnvReport> {
    return runJson<EnvReport>("ollm-env", ["report", ...this.flags(policy)], this.options);
  }

  /** The decision for one variable name, and for a removed one how to pass it anyway. */
  async explain(name: string, policy: EnvPolicy = {}): Promise<EnvExplanation> {
    return runJson<EnvExplanation>("ollm-env", ["explain", ...this.flags(policy), "--", name], this.options);
  }

  private flags(policy: EnvPolicy): string[] {
    return [
      ...commonArgs(this.options),
      ...flags({
        "--allow": policy.allow,
        "--deny": policy.deny,
        "--replace-defaults": policy.replaceDefaults,
        "--no-scan-values": policy.scanValues === false,
      }),
    ];
  }
}

const ANY_CODE: readonly number[] = Array.from({ length: 256 }, (_, code) => code);
