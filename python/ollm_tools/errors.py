"""One exception class per documented exit code (`ollm-session --help`, the
table at its end), each carrying the program's one-line error message."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence


class OllmError(Exception):
    """An ollm program ended with an exit code its caller did not expect.

    `message` is the program's last line on stderr (our one-line error, for
    example `ollm-session: no session has the id prefix or title "x"`);
    `stderr` is all of it (warnings come before the error)."""

    exit_code: int = -1

    def __init__(self, program: str, argv: Sequence[str], exit_code: int, stderr: str) -> None:
        lines = [line for line in stderr.splitlines() if line.strip()]
        self.program = program
        self.argv = list(argv)
        self.exit_code = exit_code
        self.stderr = stderr
        self.message = lines[-1] if lines else f"{program}: exit code {exit_code}"
        super().__init__(self.message)


class NegativeVerdict(OllmError):
    """Exit code 1: a negative verdict (loop detected, compression needed,
    credentials found) where the call did not ask for one."""


class UsageError(OllmError):
    """Exit code 2: usage error or invalid input (a flag value out of range too)."""


class NotFound(OllmError):
    """Exit code 3: not found (session, snapshot, key, input file)."""


class StorageError(OllmError):
    """Exit code 4: storage or I/O failure."""


class ConfigError(OllmError):
    """Exit code 5: invalid configuration."""


class CorruptData(OllmError):
    """Exit code 6: stored data is corrupt (reported, never overwritten)."""


class InternalError(OllmError):
    """Exit code 70: internal error (a bug in the program: please report it)."""


class ProgramFailed(OllmError):
    """Any other exit code, or the program died of a signal (exit_code -N)."""


BY_EXIT_CODE: dict[int, type[OllmError]] = {
    1: NegativeVerdict,
    2: UsageError,
    3: NotFound,
    4: StorageError,
    5: ConfigError,
    6: CorruptData,
    70: InternalError,
}


def error_for(program: str, argv: Sequence[str], exit_code: int, stderr: bytes) -> OllmError:
    cls = BY_EXIT_CODE.get(exit_code, ProgramFailed)
    return cls(program, argv, exit_code, stderr.decode("utf-8", errors="replace"))
