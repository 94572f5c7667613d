"""Typed Python client for the ollm programs (the `ollm-tools` wheel puts
them in this environment's bin directory).

    from ollm_tools import Session, LoopCheck
    sessions = Session()
    sid = sessions.create(model="llama3.2:3b", provider="ollama")
    sessions.record_message(sid, "user", "What does this project do?")

One class per program; each call runs the program once (no shell), sends
large inputs on stdin, parses its JSON, and turns a failure's exit code into
an exception (`errors`) carrying the program's one-line message."""

from ._find import PROGRAMS, ProgramNotFound, find_bin
from ._program import Program, Stream
from .compress import Compress
from .context import Context
from .discover import Discover
from .env import Env
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
from .loopcheck import LoopCheck
from .session import Session, text_message

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
