"""`ollm-session`: durable session history."""

from __future__ import annotations

import builtins

import os
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, cast

from ._program import Program, Stream, StrPath, dumps, flags

if TYPE_CHECKING:
    from .types import (
        CleanupResult,
        Created,
        Deleted,
        Message,
        Record,
        RecordAck,
        Renamed,
        Role,
        SearchHit,
        SessionDocument,
        SessionSummary,
    )



def text_message(role: Role, text: str) -> Message:
    """A plain text message of the spec's format."""
    return {"role": role, "parts": [{"type": "text", "text": text}]}


class Session(Program):
    """Create, record, read, search and delete sessions.

    Wherever an id is taken, a unique prefix (4+ characters) or the title
    works too."""

    name = "ollm-session"

    def __init__(
        self,
        *,
        store: str | None = None,
        data_dir: StrPath | None = None,
        no_redact: bool = False,
        cwd: StrPath | None = None,
        env: Mapping[str, str] | None = None,
        config: StrPath | None = None,
        bin_dir: StrPath | None = None,
        timeout: float | None = None,
    ) -> None:
        """`store`: `file` (the data directory) or a postgres:// URL;
        `data_dir`: the file store's directory; `no_redact`: store
        credentials as they are instead of `[REDACTED:<kind>]`."""
        super().__init__(cwd=cwd, env=env, config=config, bin_dir=bin_dir, timeout=timeout)
        self._store = flags(
            ("--store", store),
            ("--data-dir", None if data_dir is None else os.fspath(data_dir)),
            ("--no-redact", no_redact),
        )

    def _global_flags(self) -> builtins.list[str]:
        return [*super()._global_flags(), *self._store]

    def create(
        self,
        model: str,
        provider: str,
        *,
        title: str | None = None,
        max_sessions: int | None = None,
    ) -> str:
        """A new session's id. With `max_sessions`, the oldest sessions past
        that many are deleted."""
        argv = ["create", "--model", model, "--provider", provider]
        argv += flags(("--title", title), ("--max-sessions", max_sessions))
        created = cast("Created", self._json(argv))
        return created["sessionId"]

    def record(self, session_id: str, record: Record) -> RecordAck:
        """Records one message or tool call (sent on stdin, any size)."""
        return cast("RecordAck", self._json(["record", session_id, "-"], dumps(record)))

    def record_message(self, session_id: str, role: Role, text: str) -> RecordAck:
        return self.record(session_id, text_message(role, text))

    def record_tool_call(
        self,
        session_id: str,
        name: str,
        args: dict[str, object],
        result: str | None = None,
        *,
        result_file: StrPath | None = None,
        display: str | None = None,
        call_id: str | None = None,
    ) -> RecordAck:
        """Records a tool call; its result comes from `result` (through stdin)
        or from `result_file`, never from the command line."""
        argv = ["record", session_id, "--tool", name, "--args=" + dumps(args)]
        if display is not None:
            argv.append("--display=" + display)
        if call_id is not None:
            argv += ["--call-id", call_id]
        if result_file is not None:
            argv += ["--result-file", os.fspath(result_file)]
            return cast("RecordAck", self._json(argv))
        argv += ["--result", "-"]
        return cast("RecordAck", self._json(argv, result or ""))

    def record_stream(self, session_id: str, records: Iterable[Record]) -> Stream[RecordAck]:
        """Records each of `records` as it comes (NDJSON on one process),
        yielding each acknowledgement once that record is on disk."""
        return cast("Stream[RecordAck]", self._stream(["record", session_id, "-"], records))

    def get(self, session_id: str | None = None, *, here: bool = False) -> SessionDocument:
        """A whole session; without an id the latest one (with `here`, the
        latest made in this workspace)."""
        return cast("SessionDocument", self._json(["get", *_which(session_id, here), "--format", "json"]))

    def messages(self, session_id: str | None = None, *, here: bool = False) -> builtins.list[Message]:
        """The session's messages only (`get --messages`)."""
        argv = ["get", *_which(session_id, here), "--messages", "--format", "json"]
        return cast("builtins.list[Message]", self._json(argv))

    def list(
        self,
        *,
        limit: int | None = None,
        offset: int | None = None,
        model: str | None = None,
        since: str | None = None,
        here: bool = False,
    ) -> builtins.list[SessionSummary]:
        """Sessions, newest first: with `here`, only those made in this
        workspace; `since` is a duration back (2h, 3d) or a date."""
        argv = ["list", "--format", "json"]
        argv += flags(("--limit", limit), ("--offset", offset), ("--model", model), ("--since", since), ("--here", here))
        return cast("builtins.list[SessionSummary]", self._json(argv))

    def search(
        self,
        query: str,
        *,
        regex: bool = False,
        ignore_case: bool = False,
        role: Role | None = None,
        limit: int | None = None,
    ) -> builtins.list[SearchHit]:
        """Every session's titles, messages and tool calls searched for `query`."""
        argv = ["search", "--format", "json"]
        argv += flags(("--regex", regex), ("--ignore-case", ignore_case), ("--role", role), ("--limit", limit))
        return cast("builtins.list[SearchHit]", self._json([*argv, "--", query]))

    def export(self, session_id: str, format: str = "markdown") -> str:
        """The session as `json` or a `markdown` transcript."""
        return self._text(["export", session_id, "--format", format])

    def rename(self, session_id: str, title: str | None) -> Renamed:
        """Gives the session a title (None removes it)."""
        if title is None:
            return cast("Renamed", self._json(["rename", session_id, "--clear"]))
        return cast("Renamed", self._json(["rename", session_id, "--", title]))

    def branch(self, session_id: str, at: int, *, title: str | None = None) -> str:
        """A new session keeping the first `at` messages; its id."""
        argv = ["branch", session_id, "--at", str(at), *flags(("--title", title))]
        created = cast("Created", self._json(argv))
        return created["sessionId"]

    def delete(self, session_id: str) -> builtins.list[str]:
        """Deletes a session with its snapshots; the ids deleted."""
        return cast("Deleted", self._json(["delete", session_id]))["deleted"]

    def cleanup(self, keep: int, *, dry_run: bool = False) -> CleanupResult:
        """Keeps the `keep` most recently active sessions and deletes the rest."""
        argv = ["cleanup", "--keep", str(keep), *flags(("--dry-run", dry_run))]
        return cast("CleanupResult", self._json(argv))


def _which(session_id: str | None, here: bool) -> builtins.list[str]:
    if session_id is not None:
        return [session_id, "--here"] if here else [session_id]
    return ["--last", "--here"] if here else ["--last"]
