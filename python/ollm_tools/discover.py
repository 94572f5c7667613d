"""`ollm-discover`: ignore-aware file listing and change watching."""

from __future__ import annotations

import builtins

import json
import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

from ._program import Program, Stream, StrPath

if TYPE_CHECKING:
    from .types import FileEntry, WatchEvent



class Discover(Program):
    """A project's files as git sees them (.gitignore, .ollmignore, built-ins)."""

    name = "ollm-discover"

    def list(
        self,
        root: StrPath | None = None,
        *,
        max_depth: int | None = None,
        include: Sequence[str] = (),
        exclude: Sequence[str] = (),
        types: Sequence[str] = (),
        hidden: bool = True,
    ) -> builtins.list[FileEntry]:
        """Every entry below `root` (default: cwd); `types` of file,
        directory, symlink (default file and symlink)."""
        argv = _filters(root, max_depth, include, exclude, types, hidden)
        out = self._run(argv).stdout
        return [cast("FileEntry", json.loads(line)) for line in out.splitlines() if line.strip()]

    def paths(self, root: StrPath | None = None, *, sort: bool = True) -> builtins.list[str]:
        """The relative paths of `list`, sorted."""
        argv = ["--paths"] + (["--sort"] if sort else []) + _root(root)
        return self._run(argv).stdout.decode("utf-8", errors="surrogateescape").splitlines()

    def watch(
        self,
        root: StrPath | None = None,
        *,
        include: Sequence[str] = (),
        exclude: Sequence[str] = (),
        debounce_ms: int | None = None,
        ready: bool = True,
    ) -> Stream[WatchEvent]:
        """Change events (add, change, unlink) as they happen, until the
        stream is closed; with `ready`, the first event is "ready", once the
        watch is in place."""
        argv = ["watch", *_filters(root, None, include, exclude, (), True)]
        if debounce_ms is not None:
            argv += ["--debounce-ms", str(debounce_ms)]
        if ready:
            argv.append("--ready")
        return cast("Stream[WatchEvent]", self._stream(argv, None))


def _root(root: StrPath | None) -> builtins.list[str]:
    return [] if root is None else [os.fspath(root)]


def _filters(
    root: StrPath | None,
    max_depth: int | None,
    include: Sequence[str],
    exclude: Sequence[str],
    types: Sequence[str],
    hidden: bool,
) -> builtins.list[str]:
    argv: list[str] = []
    if max_depth is not None:
        argv += ["--max-depth", str(max_depth)]
    for glob in include:
        argv += ["--include", glob]
    for glob in exclude:
        argv += ["--exclude", glob]
    for kind in types:
        argv += ["--type", kind]
    if not hidden:
        argv.append("--no-hidden")
    return argv + _root(root)
