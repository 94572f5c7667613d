"""The programs' JSON, typed: each TypedDict mirrors what a program prints
(field names as in the spec's JSON, camelCase). A result is the parsed JSON
itself, so nothing is copied or converted on the way."""

from __future__ import annotations

from typing import Any, Literal, TypedDict, Union


class TextPart(TypedDict):
    type: Literal["text"]
    text: str


class _MessageBase(TypedDict):
    role: str
    parts: list[TextPart]


class Message(_MessageBase, total=False):
    """A message of the spec's session format (`role`: user, assistant, system)."""

    timestamp: str


class ToolResult(TypedDict, total=False):
    llmContent: str
    returnDisplay: str


class _ToolCallBase(TypedDict):
    name: str
    args: dict[str, Any]
    result: ToolResult


class ToolCall(_ToolCallBase, total=False):
    id: str
    timestamp: str


Record = Union[Message, ToolCall]


class Created(TypedDict):
    sessionId: str


class _RecordAckBase(TypedDict):
    sessionId: str
    recorded: str
    index: int
    lastActivity: str
    tokenCount: int
    redacted: int


class RecordAck(_RecordAckBase, total=False):
    """One record on disk: `recorded` is "message" or "toolCall";
    `withheld`, only when a text was past redaction's limit: the bytes not
    stored."""

    withheld: int


class _SessionSummaryBase(TypedDict):
    sessionId: str
    startTime: str
    lastActivity: str
    model: str
    messageCount: int
    tokenCount: int


class SessionSummary(_SessionSummaryBase, total=False):
    provider: str
    title: str
    toolCallCount: int
    compressionCount: int
    workspace: str


class SessionMetadata(TypedDict, total=False):
    tokenCount: int
    compressionCount: int


class _SessionDocBase(TypedDict):
    sessionId: str
    startTime: str
    lastActivity: str
    model: str
    messages: list[Message]
    toolCalls: list[ToolCall]
    metadata: SessionMetadata


class SessionDoc(_SessionDocBase, total=False):
    """A whole session as `ollm-session get` prints it."""

    provider: str
    title: str
    workspace: str
    parentSessionId: str
    branchPoint: int
    createdBy: str


class SearchHit(TypedDict):
    sessionId: str
    messageIndex: int
    role: str
    timestamp: str
    snippet: str


class Renamed(TypedDict):
    sessionId: str
    previousTitle: str | None
    title: str | None


class Deleted(TypedDict):
    deleted: list[str]


class MessageCount(TypedDict):
    index: int
    role: str
    tokens: int


class TokenCount(TypedDict, total=False):
    tokenizer: str
    tokenizerError: str | None
    total: int
    messageOverhead: int
    messages: list[MessageCount]
    toolCalls: list[dict[str, Any]]


class CompressionCheck(TypedDict, total=False):
    """`needed` and the numbers behind it."""

    needed: bool
    trigger: str
    tokenCount: int
    limit: int
    threshold: float
    systemPromptTokens: int
    summaryTokens: int
    available: int
    comparedTokens: int
    triggerAt: float
    tokenizer: str
    tokenizerError: str | None


class CompressionResult(TypedDict, total=False):
    """`status`: compressed, not-needed, disabled, fallback-truncate or
    rejected-not-smaller."""

    status: str
    strategy: str
    appliedStrategy: str | None
    reason: str | None
    originalTokenCount: int
    compressedTokenCount: int
    targetTokens: int
    withinTarget: bool
    preservedRecentTokens: int
    removedCount: int
    summaryTokens: int
    summarizer: str | None
    summarizerError: str | None
    tokenizer: str
    tokenizerError: str | None
    check: CompressionCheck
    compressedMessages: list[Message]
    compressedToolCalls: list[ToolCall]


class LoopPattern(TypedDict):
    """`type`: repeated-tool, repeated-output, turn-limit, tool-cycle or
    repeated-content."""

    type: str
    details: str
    count: int


class Verdict(TypedDict):
    """`level` is "warn" at the first report since the user spoke, "stop" after."""

    loop: bool
    level: Literal["warn", "stop"] | None
    pattern: LoopPattern | None
    event: int
    turn: int


class TurnEvent(TypedDict):
    type: Literal["turn"]


class UserEvent(TypedDict):
    type: Literal["user"]
    text: str


class ToolEvent(TypedDict):
    type: Literal["tool"]
    name: str
    args: dict[str, Any]


class OutputEvent(TypedDict):
    type: Literal["output"]
    text: str


class ResetEvent(TypedDict):
    type: Literal["reset"]


Event = Union[TurnEvent, UserEvent, ToolEvent, OutputEvent, ResetEvent]


class ContextEntry(TypedDict, total=False):
    key: str
    content: str
    priority: int
    source: str
    timestamp: str
    expiresAt: str


class ContextAdded(TypedDict):
    added: str
    replaced: bool
    store: str


class ContextRemoved(TypedDict):
    removed: int
    keys: list[str]
    store: str


class _FileEntryBase(TypedDict):
    path: str
    relativePath: str
    type: Literal["file", "directory", "symlink"]


class FileEntry(_FileEntryBase, total=False):
    """A name that is not UTF-8 has its exact bytes in `pathBytes`."""

    size: int
    modified: str
    pathBytes: list[int]
    relativePathBytes: list[int]


class WatchEvent(TypedDict, total=False):
    """`event`: add, change or unlink (and "ready" once, with `ready=True`)."""

    event: str
    path: str
    relativePath: str
    type: str


class EnvDecision(TypedDict, total=False):
    name: str
    rule: str
    why: str
    pattern: str


class EnvReport(TypedDict):
    kept: list[EnvDecision]
    removed: list[EnvDecision]
    set: list[Any]


class EnvExplanation(TypedDict, total=False):
    name: str
    present: bool
    kept: bool
    rule: str
    pattern: str
    why: str
    howToAllow: str
