// The programs' JSON, as they print it (camelCase, the spec's field names).
// Objects may carry more fields than listed: programs add fields, never
// remove them.

/** A part of a message; text is the common one. */
export interface MessagePart {
  type: string;
  text?: string;
  [field: string]: unknown;
}

export type Role = "user" | "assistant" | "system" | "tool";

export interface Message {
  role: Role;
  parts: MessagePart[];
  timestamp?: string;
  [field: string]: unknown;
}

export interface ToolResult {
  /** What the model is shown. */
  llmContent: string;
  /** What a person is shown, when different. */
  returnDisplay?: string;
  [field: string]: unknown;
}

export interface ToolCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
  result: ToolResult;
  timestamp?: string;
  [field: string]: unknown;
}

/** A whole session (`ollm-session get`). */
export interface SessionDocument {
  sessionId: string;
  startTime: string;
  lastActivity: string;
  model: string;
  provider?: string;
  title?: string;
  workspace?: string;
  parentSessionId?: string;
  branchPoint?: number;
  messages: Message[];
  toolCalls: ToolCall[];
  metadata: { tokenCount: number; compressionCount: number; [field: string]: unknown };
  [field: string]: unknown;
}

/** A history to count or compress: messages, or a session's messages and tool calls. */
export type History = Message[] | { messages: Message[]; toolCalls?: ToolCall[]; [field: string]: unknown };

/** One line of `ollm-session list`. */
export interface SessionSummary {
  sessionId: string;
  startTime: string;
  lastActivity: string;
  model: string;
  provider?: string;
  messageCount: number;
  toolCallCount?: number;
  tokenCount: number;
  compressionCount?: number;
  title?: string;
  workspace?: string;
  [field: string]: unknown;
}

/** What `ollm-session record` acknowledges once a record is on disk. */
export interface RecordAck {
  sessionId: string;
  recorded: "message" | "toolCall";
  index: number;
  lastActivity: string;
  tokenCount: number;
  /** Credentials replaced by `[REDACTED:<kind>]` before writing. */
  redacted: number;
  /** Only when a text was longer than redaction reads: the bytes not stored. */
  withheld?: number;
  [field: string]: unknown;
}

export interface SearchHit {
  sessionId: string;
  messageIndex: number;
  role: string;
  timestamp: string;
  snippet: string;
  [field: string]: unknown;
}

export interface BranchResult {
  sessionId: string;
  parentSessionId: string;
  branchPoint: number;
  [field: string]: unknown;
}

export interface CleanupResult {
  dryRun: boolean;
  deleted: string[];
  kept: number;
  [field: string]: unknown;
}

export interface RenameResult {
  sessionId: string;
  previousTitle: string | null;
  title: string | null;
  [field: string]: unknown;
}

/** `ollm-compress count`. */
export interface TokenCount {
  tokenizer: string;
  tokenizerError: string | null;
  total: number;
  messageOverhead: number;
  messages: { index: number; role: string; tokens: number }[];
  toolCalls?: { index: number; id: string; name: string; tokens: number }[];
  [field: string]: unknown;
}

/** `ollm-compress check`: whether compression is needed, and the numbers behind it. */
export interface CompressionCheck {
  needed: boolean;
  trigger: "static" | "dynamic";
  tokenCount: number;
  limit: number;
  threshold: number;
  systemPromptTokens: number;
  summaryTokens: number;
  available: number;
  comparedTokens: number;
  triggerAt: number;
  tokenizer?: string;
  tokenizerError?: string | null;
  [field: string]: unknown;
}

export type CompressionStatus =
  | "compressed"
  | "not-needed"
  | "disabled"
  | "fallback-truncate"
  | "rejected-not-smaller";

/** `ollm-compress`: the shorter history and how it was made. */
export interface CompressionResult {
  status: CompressionStatus;
  strategy: "summarize" | "truncate" | "hybrid";
  appliedStrategy: string | null;
  reason?: string;
  originalTokenCount: number;
  compressedTokenCount: number;
  targetTokens: number;
  withinTarget: boolean;
  removedCount: number;
  summaryTokens: number;
  summarizer: string | null;
  summarizerError: string | null;
  compressedMessages: Message[];
  compressedToolCalls?: ToolCall[];
  check: CompressionCheck;
  [field: string]: unknown;
}

/** One event for `ollm-loopcheck`. */
export type LoopEvent =
  | { type: "turn" }
  | { type: "user"; text: string }
  | { type: "tool"; name: string; args: Record<string, unknown> }
  | { type: "output"; text: string }
  | { type: "reset" };

export type LoopPatternType = "repeated-tool" | "repeated-output" | "turn-limit" | "tool-cycle" | "repeated-content";

/** `ollm-loopcheck`'s verdict. */
export interface LoopVerdict {
  loop: boolean;
  level: "warn" | "stop" | null;
  pattern: { type: LoopPatternType; details: string; count: number } | null;
  event: number;
  turn: number;
  [field: string]: unknown;
}

export type ContextSource = "hook" | "extension" | "user" | "system";

export interface ContextEntry {
  key: string;
  content: string;
  priority: number;
  source: ContextSource;
  timestamp: string;
  /** When the entry drops out (entries added with a TTL). */
  expiresAt?: string;
  [field: string]: unknown;
}

export interface ContextAdded {
  added: string;
  replaced: boolean;
  store: string;
  [field: string]: unknown;
}

export interface ContextRemoved {
  removed: number;
  keys: string[];
  store: string;
  [field: string]: unknown;
}

/** One file of `ollm-discover`. */
export interface FileEntry {
  path: string;
  relativePath: string;
  type: "file" | "directory" | "symlink";
  size: number;
  modified: string;
  /** The exact bytes of a path that is not valid UTF-8. */
  pathBytes?: number[];
  relativePathBytes?: number[];
  [field: string]: unknown;
}

/** One event of `ollm-discover watch`; `ready` comes first, once the watch is in place. */
export interface WatchEvent {
  event: "ready" | "add" | "change" | "unlink";
  path: string;
  relativePath: string;
  type: "file" | "directory" | "symlink";
  [field: string]: unknown;
}

export interface EnvDecision {
  name: string;
  rule: string;
  pattern?: string;
  why: string;
  [field: string]: unknown;
}

/** `ollm-env report`: every variable name kept and removed (never a value). */
export interface EnvReport {
  kept: EnvDecision[];
  removed: EnvDecision[];
  set: string[];
  [field: string]: unknown;
}

/** `ollm-env explain NAME`. */
export interface EnvExplanation {
  name: string;
  present: boolean;
  kept: boolean;
  rule: string;
  pattern?: string;
  why: string;
  howToAllow?: string;
  [field: string]: unknown;
}

/** A tool run by `ollm-env run`: its exit code is the tool's own. */
export interface EnvRunResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}
