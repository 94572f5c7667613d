"""`ollm-env`: tools run with secrets stripped from their environment."""

from __future__ import annotations

import os
import signal
import subprocess
from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

from ._find import ProgramNotFound
from ._program import Program, flags
from .errors import error_for

if TYPE_CHECKING:
    from .types import EnvExplanation, EnvReport


_OWN_CODES = (2, 3, 4, 5, 6, 70)


class Env(Program):
    """Run a tool with a sanitized environment; see what is kept and why.

    The environment sanitized is the client's `env` (default: this
    process's)."""

    name = "ollm-env"

    def run(
        self,
        command: Sequence[str],
        *,
        input: str | bytes | None = None,
        allow: Sequence[str] = (),
        deny: Sequence[str] = (),
        replace_defaults: bool = False,
        scan_values: bool = True,
        set: Sequence[str] = (),
        redact_output: bool = False,
        stderr_to_stdout: bool = False,
        timeout: float | None = None,
    ) -> subprocess.CompletedProcess[bytes]:
        """Runs `command` (an argv list: no shell) and returns its result
        whatever its exit code (128+N or -N when it died of signal N, 127
        when not found); only ollm-env's own failures raise. The tool runs
        in a process group of its own: after `timeout` seconds the whole
        group is killed and subprocess.TimeoutExpired raised, with the
        output so far."""
        argv = ["run", *_policy(allow, deny, replace_defaults, scan_values)]
        argv += flags(("--set", tuple(set)), ("--redact-output", redact_output))
        argv = self._argv([*argv, "--", *command])
        data = input.encode() if isinstance(input, str) else input
        try:
            proc = subprocess.Popen(
                argv,
                stdin=subprocess.DEVNULL if data is None else subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT if stderr_to_stdout else subprocess.PIPE,
                cwd=self.cwd,
                env=self.env,
                start_new_session=True,
            )
        except FileNotFoundError as e:
            raise ProgramNotFound(self.name, [os.path.dirname(argv[0])]) from e
        try:
            out, err = proc.communicate(data, timeout=timeout if timeout is not None else self.timeout)
        except subprocess.TimeoutExpired as e:
            os.killpg(proc.pid, signal.SIGKILL)
            out, err = proc.communicate()
            raise subprocess.TimeoutExpired(argv, e.timeout, out, err) from None
        err = err or b""
        # ollm-env replaces itself with the tool, so any exit code may be the
        # tool's own; ours are told apart by the `ollm-env: ` line.
        said = out if stderr_to_stdout else err
        if proc.returncode in _OWN_CODES and said.startswith(b"ollm-env: "):
            raise error_for(self.name, argv, proc.returncode, said)
        return subprocess.CompletedProcess(argv, proc.returncode, out, err)

    def report(
        self,
        *,
        allow: Sequence[str] = (),
        deny: Sequence[str] = (),
        replace_defaults: bool = False,
        scan_values: bool = True,
    ) -> EnvReport:
        """Every variable name kept and removed, with the rule that decided.
        `allow` and `deny` extend the built-in lists (`replace_defaults`:
        only they and the configured ones count); `scan_values=False` keeps
        variables whose value merely looks like a credential."""
        argv = ["report", *_policy(allow, deny, replace_defaults, scan_values)]
        return cast("EnvReport", self._json(argv))

    def explain(
        self,
        variable: str,
        *,
        allow: Sequence[str] = (),
        deny: Sequence[str] = (),
        replace_defaults: bool = False,
        scan_values: bool = True,
    ) -> EnvExplanation:
        """The decision for one variable, and for a removed one how to pass it anyway."""
        argv = ["explain", *_policy(allow, deny, replace_defaults, scan_values), "--", variable]
        return cast("EnvExplanation", self._json(argv))


def _policy(allow: Sequence[str], deny: Sequence[str], replace_defaults: bool, scan_values: bool) -> list[str]:
    return flags(
        ("--allow", tuple(allow)),
        ("--deny", tuple(deny)),
        ("--replace-defaults", replace_defaults),
        ("--no-scan-values", not scan_values),
    )
