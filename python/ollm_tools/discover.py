"""`ollm-discover`: ignore-aware file listing and change watching."""

from __future__ import annotations

import builtins

import json
import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

from ._program import Program, Stream, StrPath, flags

if TYPE_CHECKING:
    from .types import EntryType, FileEntry, WatchEvent



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
        types: Sequence[EntryType] = (),
        hidden: bool = True,
        follow: bool = False,
    ) -> builtins.list[FileEntry]:
        """Every entry below `root` (default: cwd); `types` of file,
        directory, symlink (default file and symlink); with `follow`,
        symbolic links to directories are entered."""
        argv = _filters(root, max_depth, include, exclude, types, hidden, follow)
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
        max_depth: int | None = None,
        types: Sequence[EntryType] = (),
        hidden: bool = True,
        follow: bool = False,
    ) -> Stream[WatchEvent]:
        """Change events (add, change, unlink) as they happen, until the
        stream is closed; with `ready`, the first event is "ready", once the
        watch is in place."""
        argv = ["watch", *flags(("--debounce-ms", debounce_ms), ("--ready", ready))]
        argv += _filters(root, max_depth, include, exclude, types, hidden, follow)
        return cast("Stream[WatchEvent]", self._stream(argv, None))


def _root(root: StrPath | None) -> builtins.list[str]:
    return [] if root is None else [os.fspath(root)]


def _filters(
    root: StrPath | None,
    max_depth: int | None,
    include: Sequence[str],
    exclude: Sequence[str],
    types: Sequence[EntryType],
    hidden: bool,
    follow: bool,
) -> builtins.list[str]:
    argv = flags(
        ("--max-depth", max_depth),
        ("--include", tuple(include)),
        ("--exclude", tuple(exclude)),
        ("--follow", follow),
        ("--type", tuple(types)),
        ("--no-hidden", not hidden),
    )
    return argv + _root(root)
