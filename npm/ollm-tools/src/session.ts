import { flags, sessionArgs, type SessionRef } from "./args.js";
import { commonArgs, run, runJson, streamJson, type ClientOptions } from "./process.js";
import type {
  CleanupResult,
  Created,
  Deleted,
  Message,
  RecordAck,
  Renamed,
  Role,
  SearchHit,
  SessionDocument,
  SessionSummary,
  ToolCall,
  ToolResult,
} from "./types.js";

export interface SessionOptions extends ClientOptions {
  /** The session store: `file` (the data directory) or a postgres:// URL (`--store`). */
  store?: string;
  /** The data directory of the file store (`--data-dir`). */
  dataDir?: string;
  /** Store credentials as they are instead of `[REDACTED:<kind>]` (`--no-redact`). */
  noRedact?: boolean;
}

/** A tool call to record; a missing `id` gets a new one, a missing `timestamp` is now. */
export interface ToolCallRecord {
  id?: string;
  name: string;
  args: Record<string, unknown>;
  result: ToolResult;
  timestamp?: string;
}

/** What `record` takes: a message or a tool call with its result. */
export type SessionRecord = Message | ToolCallRecord;

/** A plain text message, for `record`. */
export function textMessage(role: Role, text: string): Message {
  return { role, parts: [{ type: "text", text }] };
}

/** `ollm-session`: durable, searchable, branchable session history. */
export class Session {
  constructor(private readonly options: SessionOptions = {}) {}

  /** Creates a session and returns its id. */
  async create(info: { model: string; provider: string; title?: string; maxSessions?: number }): Promise<{ sessionId: string }> {
    return this.json(["create"], { "--model": info.model, "--provider": info.provider, "--title": info.title, "--max-sessions": info.maxSessions });
  }

  /** Records one message or tool call (passed on stdin, whatever its size); resolves once it is on disk. */
  async record(ref: SessionRef, record: SessionRecord): Promise<RecordAck> {
    return this.json(["record", ...sessionArgs(ref), "-"], {}, JSON.stringify(await withId(record)));
  }

  /**
   * Records a tool call from flags: its result from `result` (on stdin) or
   * from `resultFile` (read by the program), never on the command line.
   */
  async recordToolCall(
    ref: SessionRef,
    call: { name: string; args: Record<string, unknown>; display?: string; callId?: string } & (
      | { result: string; resultFile?: never }
      | { resultFile: string; result?: never }
    ),
  ): Promise<RecordAck> {
    const spec = { "--tool": call.name, "--args": JSON.stringify(call.args), "--display": call.display, "--call-id": call.callId };
    if (call.resultFile !== undefined) {
      return this.json(["record", ...sessionArgs(ref)], { ...spec, "--result-file": call.resultFile });
    }
    return this.json(["record", ...sessionArgs(ref)], { ...spec, "--result": "-" }, call.result);
  }

  /**
   * Records each record of `records` as it comes (NDJSON on stdin) and yields
   * each acknowledgement as soon as that record is on disk.
   */
  recordStream(ref: SessionRef, records: Iterable<SessionRecord> | AsyncIterable<SessionRecord>): AsyncGenerator<RecordAck, void, undefined> {
    return streamJson<RecordAck>("ollm-session", [...this.args(["record", ...sessionArgs(ref), "-"])], {
      ...this.options,
      input: ndjson(records),
    });
  }

  /** The whole session (the spec's JSON). */
  async get(ref: SessionRef): Promise<SessionDocument> {
    return this.json(["get", ...sessionArgs(ref)], { "--format": "json" });
  }

  /** The session's messages only. */
  async messages(ref: SessionRef): Promise<Message[]> {
    return this.json(["get", ...sessionArgs(ref)], { "--messages": true, "--format": "json" });
  }

  /** The session as a Markdown transcript. */
  async markdown(ref: SessionRef): Promise<string> {
    const { stdout } = await run("ollm-session", this.args(["export", ...sessionArgs(ref), "--format", "markdown"]), this.options);
    return stdout;
  }

  /** Sessions, newest first. */
  async list(filter: { limit?: number; offset?: number; model?: string; since?: string; here?: boolean } = {}): Promise<SessionSummary[]> {
    return this.json(["list"], {
      "--format": "json",
      "--limit": filter.limit,
      "--offset": filter.offset,
      "--model": filter.model,
      "--since": filter.since,
      "--here": filter.here,
    });
  }

  /** Every session's titles, messages and tool calls searched for `pattern`. */
  async search(
    pattern: string,
    how: { regex?: boolean; ignoreCase?: boolean; role?: Role; limit?: number } = {},
  ): Promise<SearchHit[]> {
    return this.json(["search", "--format", "json"], {
      "--regex": how.regex,
      "--ignore-case": how.ignoreCase,
      "--role": how.role,
      "--limit": how.limit,
      "--": [pattern],
    });
  }

  /** Gives the session a title (`null` removes it). */
  async rename(ref: SessionRef, title: string | null): Promise<Renamed> {
    return title === null
      ? this.json(["rename", ...sessionArgs(ref), "--clear"])
      : this.json(["rename", ...sessionArgs(ref)], { "--": [title] });
  }

  /** A new session keeping the first `at` messages of this one. */
  async branch(ref: SessionRef, how: { at: number; title?: string }): Promise<Created> {
    return this.json(["branch", ...sessionArgs(ref)], { "--at": how.at, "--title": how.title });
  }

  /** Deletes the session with its snapshots. */
  async delete(ref: SessionRef): Promise<Deleted> {
    return this.json(["delete", ...sessionArgs(ref)]);
  }

  /** Keeps the `keep` most recently active sessions and deletes the rest. */
  async cleanup(keep: number, dryRun = false): Promise<CleanupResult> {
    return this.json(["cleanup"], { "--keep": keep, "--dry-run": dryRun });
  }

  private args(command: string[], spec: Parameters<typeof flags>[0] = {}): string[] {
    return [
      ...command,
      ...commonArgs(this.options),
      ...flags({ "--store": this.options.store, "--data-dir": this.options.dataDir, "--no-redact": this.options.noRedact }),
      ...flags(spec),
    ];
  }

  private json<T>(command: string[], spec: Parameters<typeof flags>[0] = {}, input?: string): Promise<T> {
    const options = input === undefined ? this.options : { ...this.options, input };
    return runJson<T>("ollm-session", this.args(command, spec), options);
  }
}

async function withId(record: SessionRecord): Promise<Message | ToolCall> {
  if ("role" in record || record.id !== undefined) return record as Message | ToolCall;
  // Loaded on first use, not at import: node:crypto (its ciphers) is slow to load.
  const { randomUUID } = await import("node:crypto");
  return { ...record, id: `call_${randomUUID().replaceAll("-", "")}` };
}

async function* ndjson(records: Iterable<SessionRecord> | AsyncIterable<SessionRecord>): AsyncGenerator<string> {
  for await (const record of records) yield `${JSON.stringify(await withId(record))}\n`;
}
