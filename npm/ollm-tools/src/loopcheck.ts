import { flags } from "./args.js";
import { commonArgs, runJson, streamJson, type ClientOptions } from "./process.js";
import { sourceArgs, type StoredSession } from "./source.js";
import type { LoopEvent, LoopVerdict, SessionDocument } from "./types.js";

export interface LoopCheckOptions {
  maxTurns?: number;
  repeatThreshold?: number;
  similarityThreshold?: number;
  contentChunkSize?: number;
  contentRepeatThreshold?: number;
  warningsBeforeStop?: number;
  /** Incremental mode: continue from the detector state in this file, and save it. */
  state?: string;
}

/** `ollm-loopcheck`: runaway-loop detection. A `stop` is a verdict, not an error. */
export class LoopCheck {
  constructor(private readonly options: ClientOptions = {}) {}

  /** The verdict on a batch of events, a session document or a stored session. */
  async check(source: LoopEvent[] | SessionDocument | StoredSession, options: LoopCheckOptions = {}): Promise<LoopVerdict> {
    const { args, input } = Array.isArray(source)
      ? { args: ["-"], input: source.map((event) => `${JSON.stringify(event)}\n`).join("") }
      : sourceArgs(source);
    const run = input === undefined ? { ...this.options, okCodes: [1] } : { ...this.options, okCodes: [1], input };
    return runJson<LoopVerdict>("ollm-loopcheck", [...this.flags(options), ...args], run);
  }

  /**
   * Feeds events as they come and yields a verdict as soon as a loop is
   * found; at the end of the events, the quiet verdict if nothing was.
   */
  stream(events: Iterable<LoopEvent> | AsyncIterable<LoopEvent>, options: LoopCheckOptions = {}): AsyncGenerator<LoopVerdict, void, undefined> {
    return streamJson<LoopVerdict>("ollm-loopcheck", ["--stream", ...this.flags(options), "-"], {
      ...this.options,
      okCodes: [1],
      input: lines(events),
    });
  }

  private flags(options: LoopCheckOptions): string[] {
    return [
      ...commonArgs(this.options),
      ...flags({
        "--max-turns": options.maxTurns,
        "--repeat-threshold": options.repeatThreshold,
        "--similarity-threshold": options.similarityThreshold,
        "--content-chunk-size": options.contentChunkSize,
        "--content-repeat-threshold": options.contentRepeatThreshold,
        "--warnings-before-stop": options.warningsBeforeStop,
        "--state": options.state,
      }),
    ];
  }
}

async function* lines(events: Iterable<LoopEvent> | AsyncIterable<LoopEvent>): AsyncGenerator<string> {
  for await (const event of events) yield `${JSON.stringify(event)}\n`;
}
