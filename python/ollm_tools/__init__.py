"""Typed Python client for the ollm programs (the `ollm-tools` wheel puts
them in this environment's bin directory).

    from ollm_tools import Session, LoopCheck
    sessions = Session()
    sid = sessions.create(model="llama3.2:3b", provider="ollama")
    sessions.record_message(sid, "user", "What does this project do?")

One class per program; each call runs the program once (no shell), sends
large inputs on stdin, parses its JSON, and turns a failure's exit code into
an exception (`errors`) carrying the program's one-line message."""

from __future__ import annotations

# Not typing.TYPE_CHECKING: importing typing alone costs more than the rest
# of this module (mypy reads the name the same way).
TYPE_CHECKING = False

from ._find import PROGRAMS, ProgramNotFound, find_bin
from .errors import (
    ConfigError,
    CorruptData,
    InternalError,
    NegativeVerdict,
    NotFound,
    OllmError,
    ProgramFailed,
    StorageError,
    UsageError,
)

if TYPE_CHECKING:
    from typing import Any

    from ._program import Program, Stream
    from .compress import Compress
    from .context import Context
    from .discover import Discover
    from .env import Env
    from .loopcheck import LoopCheck
    from .session import Session, text_message

# The clients load on first use (PEP 562): subprocess and json are most of
# the import time, and a program that only calls find_bin needs neither.
_LAZY = {
    "Program": "._program",
    "Stream": "._program",
    "Compress": ".compress",
    "Context": ".context",
    "Discover": ".discover",
    "Env": ".env",
    "LoopCheck": ".loopcheck",
    "Session": ".session",
    "text_message": ".session",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(module, __name__), name)
    globals()[name] = value
    return value


__all__ = [
    "PROGRAMS",
    "Compress",
    "ConfigError",
    "Context",
    "CorruptData",
    "Discover",
    "Env",
    "InternalError",
    "LoopCheck",
    "NegativeVerdict",
    "NotFound",
    "OllmError",
    "Program",
    "ProgramFailed",
    "ProgramNotFound",
    "Session",
    "StorageError",
    "Stream",
    "UsageError",
    "find_bin",
    "text_message",
]
