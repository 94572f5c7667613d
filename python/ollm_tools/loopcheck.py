"""`ollm-loopcheck`: runaway-loop detection."""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import TYPE_CHECKING, cast

from ._program import Program, Stream, StrPath, dumps

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
    ) -> LoopVerdict:
        """The verdict on `events` (or on an events or session file). With
        `state`, the detector continues from that file and saves it: one
        call per step of a turn."""
        argv = _options(state, warnings_before_stop)
        if isinstance(events, (str, os.PathLike)):
            return cast("LoopVerdict", self._json([*argv, os.fspath(events)], ok=(0, 1)))
        lines = "".join(dumps(e) + "\n" for e in events)
        return cast("LoopVerdict", self._json(argv, lines, ok=(0, 1)))

    def stream(
        self,
        events: Iterable[LoopEvent],
        *,
        warnings_before_stop: int | None = None,
    ) -> Stream[LoopVerdict]:
        """A verdict as soon as a loop is found in `events` (which may be a
        generator fed as the agent runs), then the quiet verdict at the end
        when nothing was found."""
        argv = ["--stream", *_options(None, warnings_before_stop)]
        return cast("Stream[LoopVerdict]", self._stream(argv, events, ok=(0, 1)))


def _options(state: StrPath | None, warnings_before_stop: int | None) -> list[str]:
    argv: list[str] = []
    if state is not None:
        argv += ["--state", os.fspath(state)]
    if warnings_before_stop is not None:
        argv += ["--warnings-before-stop", str(warnings_before_stop)]
    return argv
