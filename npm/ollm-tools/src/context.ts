import { flags } from "./args.js";
import { commonArgs, run, runJson, type ClientOptions } from "./process.js";
import type { ContextAdded, ContextEntry, ContextRemoved, ContextSource } from "./types.js";

export interface ContextOptions extends ClientOptions {
  /** The per-session store of this session (a UUID) instead of the workspace's `.ollm/context.json`. */
  session?: string;
  /** This store file instead. */
  file?: string;
}

/** `ollm-context`: prioritized context entries rendered as system-prompt additions. */
export class Context {
  constructor(private readonly options: ContextOptions = {}) {}

  /**
   * Adds an entry, or replaces the one with this key: its content on stdin,
   * or read by the program from `{ fromFile }`.
   */
  async add(
    key: string,
    content: string | { fromFile: string },
    how: { priority?: number; source?: ContextSource; ttl?: string | number } = {},
  ): Promise<ContextAdded> {
    const options = { "--priority": how.priority, "--source": how.source, "--ttl": how.ttl };
    if (typeof content !== "string") {
      return runJson<ContextAdded>("ollm-context", this.args("add", { ...options, "--from-file": content.fromFile, "--": [key] }), this.options);
    }
    return runJson<ContextAdded>("ollm-context", this.args("add", { ...options, "--": [key, "-"] }), { ...this.options, input: content });
  }

  /** Removes an entry; a missing one is a {@link NotFoundError} unless `missingOk`. */
  async remove(key: string, missingOk = false): Promise<ContextRemoved> {
    return runJson<ContextRemoved>("ollm-context", this.args("remove", { "--missing-ok": missingOk, "--": [key] }), this.options);
  }

  /** Removes every entry, or those of one source. */
  async clear(source?: ContextSource): Promise<ContextRemoved> {
    return runJson<ContextRemoved>("ollm-context", this.args("clear", { "--source": source }), this.options);
  }

  /** The live entries in insertion order. */
  async list(): Promise<ContextEntry[]> {
    return runJson<ContextEntry[]>("ollm-context", this.args("list", {}), this.options);
  }

  /** One entry; a missing or expired one is a {@link NotFoundError}. */
  async get(key: string): Promise<ContextEntry> {
    return runJson<ContextEntry>("ollm-context", this.args("get", { "--": [key] }), this.options);
  }

  /** The system-prompt additions (markdown, highest priority first); empty when there are none. */
  async prompt(): Promise<string> {
    const { stdout } = await run("ollm-context", this.args("prompt", {}), this.options);
    return stdout;
  }

  private args(command: string, spec: Parameters<typeof flags>[0]): string[] {
    return [
      command,
      ...commonArgs(this.options),
      ...flags({ "--session": this.options.session, "--file": this.options.file }),
      ...flags(spec),
    ];
  }
}
