"""`ollm-compress`: token counting and history compression."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Union, cast

from ._program import Program, StrPath, dumps

if TYPE_CHECKING:
    from .types import CompressionCheck, CompressionResult, Message, SessionDocument, TokenCount
    # What a history is: messages, a whole session document, a file holding
    # either, or a stored session (`session_id=`).
    History = Union[Sequence[Message], SessionDocument, StrPath, None]




class Compress(Program):
    """Count a history's tokens and compress it to fit a context window.

    Each method takes the history as `history` (messages or a session
    document, sent on stdin; or a path, read by the program) or as a stored
    session (`session_id`)."""

    name = "ollm-compress"

    def _history(
        self, argv: list[str], history: History, session_id: str | None
    ) -> tuple[list[str], str | None]:
        if session_id is not None:
            return argv + ["--session", session_id], None
        if isinstance(history, (str, os.PathLike)):
            return argv + [os.fspath(history)], None
        if history is None:
            raise TypeError("a history or a session_id is needed")
        return argv + ["-"], dumps(history if isinstance(history, dict) else list(history))

    def count(self, history: History = None, *, session_id: str | None = None) -> TokenCount:
        argv, stdin = self._history(["count"], history, session_id)
        return cast("TokenCount", self._json(argv, stdin))

    def check(
        self,
        history: History = None,
        *,
        session_id: str | None = None,
        token_limit: int | None = None,
    ) -> CompressionCheck:
        """Whether compression is needed (`needed`) and the numbers behind it."""
        argv, stdin = self._history(["check", *_limit(token_limit)], history, session_id)
        return cast("CompressionCheck", self._json(argv, stdin, ok=(0, 1)))

    def compress(
        self,
        history: History = None,
        *,
        session_id: str | None = None,
        token_limit: int | None = None,
        strategy: str | None = None,
        force: bool = False,
        summarizer_api: str | None = None,
        summarizer_url: str | None = None,
        summarizer_model: str | None = None,
    ) -> CompressionResult:
        """The compressed history (`compressedMessages`); `status` says what
        happened. A summarizer that fails falls back to truncation."""
        argv = ["compress", *_limit(token_limit)]
        for flag, value in (
            ("--strategy", strategy),
            ("--summarizer-api", summarizer_api),
            ("--summarizer-url", summarizer_url),
            ("--summarizer-model", summarizer_model),
        ):
            if value is not None:
                argv += [flag, value]
        if force:
            argv.append("--force")
        argv, stdin = self._history(argv, history, session_id)
        return cast("CompressionResult", self._json(argv, stdin))


def _limit(token_limit: int | None) -> list[str]:
    return [] if token_limit is None else ["--token-limit", str(token_limit)]
