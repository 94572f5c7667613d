import { flags } from "./args.js";
import { commonArgs, runJson, type ClientOptions } from "./process.js";
import { sourceArgs, type History, type StoredSession } from "./source.js";
import type { CompressionCheck, CompressionResult, CompressionStrategy, SessionDocument, TokenCount, TriggerMode } from "./types.js";

/** What to count or compress: messages, a session document, its JSON text, or a stored session. */
export type CompressSource = History | SessionDocument | StoredSession | string;

export interface TokenizerOptions {
  /** cl100k, o200k, a tokenizer.json path, server, or estimate. */
  tokenizer?: string;
  /** The server for `tokenizer: "server"`. */
  tokenizerUrl?: string;
}

export interface CheckOptions extends TokenizerOptions {
  tokenLimit?: number;
  threshold?: number;
  trigger?: TriggerMode;
}

export interface CompressOptions extends CheckOptions {
  strategy?: CompressionStrategy;
  target?: number;
  preserveRecent?: number;
  summaryMaxTokens?: number;
  /** `false` lets user messages be summarized or dropped like the others. */
  keepUserMessages?: boolean;
  /** Compress even below the trigger. */
  force?: boolean;
  summarizerApi?: "openai" | "ollama";
  summarizerUrl?: string;
  summarizerModel?: string;
  /** A shell command that summarizes (the prompt on its stdin); the program runs it, with `sh -c`. */
  summarizerCmd?: string;
  /** Seconds to wait for the summarizer before truncating instead. */
  timeout?: number;
}

/** `ollm-compress`: token counting and compression of a history to fit a context window. */
export class Compress {
  constructor(private readonly options: ClientOptions = {}) {}

  /** The tokens of the history: the total and each message's and tool call's. */
  async count(source: CompressSource, options: TokenizerOptions = {}): Promise<TokenCount> {
    return this.json("count", source, tokenizerFlags(options));
  }

  /** Whether compression is needed (`needed`), with the numbers behind the verdict. */
  async check(source: CompressSource, options: CheckOptions = {}): Promise<CompressionCheck> {
    return this.json("check", source, checkFlags(options), [1]);
  }

  /** The compressed history; `status` says what happened (a failing summarizer falls back to truncation). */
  async compress(source: CompressSource, options: CompressOptions = {}): Promise<CompressionResult> {
    return this.json("compress", source, [
      ...checkFlags(options),
      ...flags({
        "--strategy": options.strategy,
        "--target": options.target,
        "--preserve-recent": options.preserveRecent,
        "--summary-max-tokens": options.summaryMaxTokens,
        "--no-keep-user-messages": options.keepUserMessages === false,
        "--force": options.force,
        "--summarizer-api": options.summarizerApi,
        "--summarizer-url": options.summarizerUrl,
        "--summarizer-model": options.summarizerModel,
        "--summarizer-cmd": options.summarizerCmd,
        "--timeout": options.timeout,
      }),
    ]);
  }

  private json<T>(command: string, source: CompressSource, extra: string[], okCodes: number[] = []): Promise<T> {
    const { args, input } = sourceArgs(source);
    const options = input === undefined ? { ...this.options, okCodes } : { ...this.options, okCodes, input };
    return runJson<T>("ollm-compress", [command, ...commonArgs(this.options), ...extra, ...args], options);
  }
}

function tokenizerFlags(options: TokenizerOptions): string[] {
  return flags({ "--tokenizer": options.tokenizer, "--tokenizer-url": options.tokenizerUrl });
}

function checkFlags(options: CheckOptions): string[] {
  return [
    ...tokenizerFlags(options),
    ...flags({ "--token-limit": options.tokenLimit, "--threshold": options.threshold, "--trigger": options.trigger }),
  ];
}
