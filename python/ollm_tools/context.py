"""`ollm-context`: prioritized context entries for the system prompt."""

from __future__ import annotations

import builtins

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, cast

from ._program import Program, StrPath, flags

if TYPE_CHECKING:
    from .types import ContextAdded, ContextEntry, ContextRemoved, ContextSource



class Context(Program):
    """The workspace's context entries (the store of `cwd`), or with
    `session` a session's own, or with `file` the store in that file."""

    name = "ollm-context"

    def __init__(
        self,
        *,
        session: str | None = None,
        file: StrPath | None = None,
        cwd: StrPath | None = None,
        env: Mapping[str, str] | None = None,
        config: StrPath | None = None,
        bin_dir: StrPath | None = None,
        timeout: float | None = None,
    ) -> None:
        super().__init__(cwd=cwd, env=env, config=config, bin_dir=bin_dir, timeout=timeout)
        self._store: list[str] = []
        if session is not None:
            self._store = ["--session", session]
        elif file is not None:
            self._store = ["--file", os.fspath(file)]

    def add(
        self,
        key: str,
        content: str | None = None,
        *,
        from_file: StrPath | None = None,
        priority: int | None = None,
        source: ContextSource | None = None,
        ttl: str | None = None,
    ) -> ContextAdded:
        """Adds (or replaces) an entry; `content` goes through stdin, or the
        program reads `from_file`. `ttl`: 30s, 10m, 2h, 1d…"""
        argv = ["add", *self._store, key]
        stdin = None
        if from_file is not None:
            argv += ["--from-file", os.fspath(from_file)]
        else:
            argv.append("-")
            stdin = content or ""
        argv += flags(("--priority", priority), ("--source", source), ("--ttl", ttl))
        return cast("ContextAdded", self._json(argv, stdin))

    def remove(self, key: str, *, missing_ok: bool = False) -> ContextRemoved:
        """Removes an entry (NotFound when there is none, unless missing_ok)."""
        argv = ["remove", *self._store, key, *flags(("--missing-ok", missing_ok))]
        return cast("ContextRemoved", self._json(argv))

    def clear(self, *, source: ContextSource | None = None) -> ContextRemoved:
        argv = ["clear", *self._store, *flags(("--source", source))]
        return cast("ContextRemoved", self._json(argv))

    def list(self) -> builtins.list[ContextEntry]:
        """The live entries in insertion order."""
        return cast("builtins.list[ContextEntry]", self._json(["list", *self._store]))

    def get(self, key: str) -> ContextEntry:
        return cast("ContextEntry", self._json(["get", *self._store, key]))

    def prompt(self) -> str:
        """The system-prompt additions (markdown), "" when there are none."""
        return self._text(["prompt", *self._store])
