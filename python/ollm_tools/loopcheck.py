"""`ollm-loopcheck`: runaway-loop detection."""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import TYPE_CHECKING, cast

from ._program import Program, Stream, StrPath, dumps, flags

if TYPE_CHECKING:
    from .types import LoopEvent, LoopVerdict



class LoopCheck(Program):
    """Detect runaway loops in an agent's events.

    A verdict with `level` "warn" means: nudge the model; "stop" means: end
    the turn. Neither raises."""

    name = "ollm-loopcheck"

    def check(
        self,
        events: Iterable[LoopEvent] | StrPath,
        *,
        state: StrPath | None = None,
        warnings_before_stop: int | None = None,
        max_turns: int | None = None,
        repeat_threshold: int | None = None,
        similarity_threshold: float | None = None,
        content_chunk_size: int | None = None,
        content_repeat_threshold: int | None = None,
    ) -> LoopVerdict:
        """The verdict on `events` (or on an events or session file). With
        `state`, the detector continues from that file and saves it: one
        call per step of a turn. The other options override the configured
        detector's settings."""
        argv = _detector_flags(
            state,
            warnings_before_stop,
            max_turns,
            repeat_threshold,
            similarity_threshold,
            content_chunk_size,
            content_repeat_threshold,
        )
        if isinstance(events, (str, os.PathLike)):
            return cast("LoopVerdict", self._json([*argv, os.fspath(events)], ok=(0, 1)))
        lines = "".join(dumps(e) + "\n" for e in events)
        return cast("LoopVerdict", self._json(argv, lines, ok=(0, 1)))

    def stream(
        self,
        events: Iterable[LoopEvent],
        *,
        state: StrPath | None = None,
        warnings_before_stop: int | None = None,
        max_turns: int | None = None,
        repeat_threshold: int | None = None,
        similarity_threshold: float | None = None,
        content_chunk_size: int | None = None,
        content_repeat_threshold: int | None = None,
    ) -> Stream[LoopVerdict]:
        """A verdict as soon as a loop is found in `events` (which may be a
        generator fed as the agent runs), then the quiet verdict at the end
        when nothing was found."""
        argv = [
            "--stream",
            *_detector_flags(
                state,
                warnings_before_stop,
                max_turns,
                repeat_threshold,
                similarity_threshold,
                content_chunk_size,
                content_repeat_threshold,
            ),
        ]
        return cast("Stream[LoopVerdict]", self._stream(argv, events, ok=(0, 1)))


def _detector_flags(
    state: StrPath | None,
    warnings_before_stop: int | None,
    max_turns: int | None,
    repeat_threshold: int | None,
    similarity_threshold: float | None,
    content_chunk_size: int | None,
    content_repeat_threshold: int | None,
) -> list[str]:
    return flags(
        ("--state", None if state is None else os.fspath(state)),
        ("--warnings-before-stop", warnings_before_stop),
        ("--max-turns", max_turns),
        ("--repeat-threshold", repeat_threshold),
        ("--similarity-threshold", similarity_threshold),
        ("--content-chunk-size", content_chunk_size),
        ("--content-repeat-threshold", content_repeat_threshold),
    )
