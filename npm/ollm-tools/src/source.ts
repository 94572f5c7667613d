// What compress and loopcheck read: data passed on stdin, or a stored session.
import type { Message, SessionDocument, ToolCall } from "./types.js";

/** A history to count or compress: messages, or a session's messages and tool calls. */
export type History = Message[] | { messages: Message[]; toolCalls?: ToolCall[]; [field: string]: unknown };

/** A stored session instead of data: by id (prefix, title) or the latest one. */
export type StoredSession = { session: string; here?: boolean } | { last: true; here?: boolean };

/** The arguments and the stdin for reading `source`. */
export function sourceArgs(source: History | SessionDocument | StoredSession | string): { args: string[]; input?: string } {
  if (typeof source === "string") return { args: ["-"], input: source };
  if (!Array.isArray(source)) {
    const here = "here" in source && source.here === true ? ["--here"] : [];
    if ("session" in source && typeof source.session === "string") return { args: ["--session", source.session, ...here] };
    if ("last" in source && source.last === true) return { args: ["--last", ...here] };
  }
  return { args: ["-"], input: JSON.stringify(source) };
}
