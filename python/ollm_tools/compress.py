"""`ollm-compress`: token counting and history compression."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Union, cast

from ._program import Program, StrPath, dumps, flags

if TYPE_CHECKING:
    from .types import (
        CompressionCheck,
        CompressionResult,
        CompressionStrategy,
        Message,
        SessionDocument,
        TokenCount,
        TriggerMode,
    )
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

    def count(
        self,
        history: History = None,
        *,
        session_id: str | None = None,
        tokenizer: str | None = None,
        tokenizer_url: str | None = None,
    ) -> TokenCount:
        """The tokens of the history: the total and each message's and tool
        call's. `tokenizer`: cl100k, o200k, a tokenizer.json path, server
        (at `tokenizer_url`) or estimate."""
        argv = ["count", *flags(("--tokenizer", tokenizer), ("--tokenizer-url", tokenizer_url))]
        argv, stdin = self._history(argv, history, session_id)
        return cast("TokenCount", self._json(argv, stdin))

    def check(
        self,
        history: History = None,
        *,
        session_id: str | None = None,
        token_limit: int | None = None,
        threshold: float | None = None,
        trigger: TriggerMode | None = None,
        tokenizer: str | None = None,
        tokenizer_url: str | None = None,
    ) -> CompressionCheck:
        """Whether compression is needed (`needed`) and the numbers behind it."""
        argv = ["check", *_check_flags(token_limit, threshold, trigger, tokenizer, tokenizer_url)]
        argv, stdin = self._history(argv, history, session_id)
        return cast("CompressionCheck", self._json(argv, stdin, ok=(0, 1)))

    def compress(
        self,
        history: History = None,
        *,
        session_id: str | None = None,
        token_limit: int | None = None,
        threshold: float | None = None,
        trigger: TriggerMode | None = None,
        tokenizer: str | None = None,
        tokenizer_url: str | None = None,
        strategy: CompressionStrategy | None = None,
        target: int | None = None,
        preserve_recent: int | None = None,
        summary_max_tokens: int | None = None,
        keep_user_messages: bool = True,
        force: bool = False,
        summarizer_api: str | None = None,
        summarizer_url: str | None = None,
        summarizer_model: str | None = None,
        summarizer_cmd: str | None = None,
        timeout: float | None = None,
    ) -> CompressionResult:
        """The compressed history (`compressedMessages`); `status` says what
        happened. A summarizer that fails (or takes more than `timeout`
        seconds) falls back to truncation; `summarizer_cmd` is a shell
        command given the prompt on its stdin. `keep_user_messages=False`
        lets user messages be summarized or dropped like the others."""
        argv = ["compress", *_check_flags(token_limit, threshold, trigger, tokenizer, tokenizer_url)]
        argv += flags(
            ("--strategy", strategy),
            ("--target", target),
            ("--preserve-recent", preserve_recent),
            ("--summary-max-tokens", summary_max_tokens),
            ("--no-keep-user-messages", not keep_user_messages),
            ("--force", force),
            ("--summarizer-api", summarizer_api),
            ("--summarizer-url", summarizer_url),
            ("--summarizer-model", summarizer_model),
            ("--summarizer-cmd", summarizer_cmd),
            ("--timeout", timeout),
        )
        argv, stdin = self._history(argv, history, session_id)
        return cast("CompressionResult", self._json(argv, stdin))


def _check_flags(
    token_limit: int | None,
    threshold: float | None,
    trigger: str | None,
    tokenizer: str | None,
    tokenizer_url: str | None,
) -> list[str]:
    return flags(
        ("--tokenizer", tokenizer),
        ("--tokenizer-url", tokenizer_url),
        ("--token-limit", token_limit),
        ("--threshold", threshold),
        ("--trigger", trigger),
    )
