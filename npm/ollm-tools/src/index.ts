// ollm-tools: the ollm programs for Node, one class per program.
export { Session, textMessage, type SessionOptions, type SessionRecord, type ToolCallRecord } from "./session.js";
export { Compress, type CompressOptions, type CheckOptions, type TokenizerOptions, type CompressSource } from "./compress.js";
export { LoopCheck, type LoopCheckOptions } from "./loopcheck.js";
export { Context, type ContextOptions } from "./context.js";
export { Discover, type DiscoverOptions } from "./discover.js";
export { Env, type EnvPolicy, type EnvRunResult } from "./env.js";
export { run, runJson, streamJson, type ClientOptions, type Completed, type Input, type RunOptions } from "./process.js";
export { findBinary, PLATFORM_PACKAGES, PROGRAMS, VERSION, type Program } from "./binary.js";
export type { SessionRef } from "./args.js";
export type { History, StoredSession } from "./source.js";
export * from "./errors.js";
export type * from "./types.js";
