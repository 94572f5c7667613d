import { flags } from "./args.js";
import { commonArgs, run, streamJson, type ClientOptions } from "./process.js";
import type { EntryType, FileEntry, WatchEvent } from "./types.js";

export interface DiscoverOptions {
  /** Levels of subdirectories entered (entries directly in the root are level 0). */
  maxDepth?: number;
  /** Only paths matching these globs. */
  include?: readonly string[];
  /** Not paths matching these globs. */
  exclude?: readonly string[];
  /** Follow symbolic links. */
  follow?: boolean;
  /** Only entries of these types (default file and symlink). */
  type?: EntryType | readonly EntryType[];
  /** `false`: leave out hidden names (listed by default, as git does). */
  hidden?: boolean;
}

/** `ollm-discover`: a project's files the way git sees them, and their changes. */
export class Discover {
  constructor(private readonly options: ClientOptions = {}) {}

  /** The files under `root` (default: the working directory), sorted by path. */
  async list(root?: string, options: DiscoverOptions = {}): Promise<FileEntry[]> {
    const { stdout } = await run(
      "ollm-discover",
      [...this.flags(options), "--format", "ndjson", "--sort", ...rootArg(root)],
      this.options,
    );
    return stdout
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as FileEntry);
  }

  /**
   * Changes under `root` as they happen: first a `ready` event once the
   * watch is in place, then `add`, `change` and `unlink`. Leaving the loop
   * (or aborting `signal`) stops the watcher.
   */
  async *watch(
    root?: string,
    options: DiscoverOptions & { debounceMs?: number; signal?: AbortSignal } = {},
  ): AsyncGenerator<WatchEvent, void, undefined> {
    const events = streamJson<WatchEvent>(
      "ollm-discover",
      ["watch", ...this.flags(options), ...flags({ "--debounce-ms": options.debounceMs, "--ready": true }), ...rootArg(root)],
      { ...this.options, holdStdin: true },
    );
    const { signal } = options;
    const stop = (): void => void events.return(undefined);
    signal?.addEventListener("abort", stop, { once: true });
    try {
      if (signal?.aborted === true) return;
      yield* events;
    } finally {
      signal?.removeEventListener("abort", stop);
      await events.return(undefined);
    }
  }

  private flags(options: DiscoverOptions): string[] {
    return [
      ...commonArgs(this.options),
      ...flags({
        "--max-depth": options.maxDepth,
        "--include": options.include,
        "--exclude": options.exclude,
        "--follow": options.follow,
        "--type": options.type,
        "--no-hidden": options.hidden === false,
      }),
    ];
  }
}

function rootArg(root: string | undefined): string[] {
  return root === undefined ? [] : ["--", root];
}
