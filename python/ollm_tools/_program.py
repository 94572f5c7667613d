"""Running one program: argv in, bytes or JSON out, exit codes as
exceptions. No shell is involved; inputs of any size go through stdin."""

from __future__ import annotations

import json
import os
import subprocess
import threading
from collections.abc import Callable, Container, Iterable, Iterator, Mapping, Sequence
from types import TracebackType
from typing import IO, Any, Generic, TypeVar

from ._find import ProgramNotFound, find_bin
from .errors import error_for

T = TypeVar("T")
StrPath = str | os.PathLike[str]
Input = str | bytes | None


def dumps(value: object) -> str:
    return json.dumps(value, separators=(",", ":"))


def flags(*pairs: tuple[str, object]) -> list[str]:
    """The command-line flags of the options given: `True` is the flag
    alone, `None` and `False` leave it out, a list or tuple repeats the flag
    for each of its values, anything else is its value."""
    argv: list[str] = []
    for flag, value in pairs:
        if value is True:
            argv.append(flag)
        elif isinstance(value, (list, tuple)):
            for item in value:
                argv += [flag, str(item)]
        elif value is not None and value is not False:
            argv += [flag, str(value)]
    return argv


class Program:
    """Settings shared by every call of one program.

    cwd: the working directory (the workspace: `.ollm/`, `--here`);
    env: the whole environment (default: this process's), e.g. with OLLM_HOME;
    config: a YAML file read after the user's and workspace's (`--config`);
    bin_dir: the directory holding the programs (default: `find_bin`);
    timeout: seconds before a call is killed (subprocess.TimeoutExpired)."""

    name = ""

    def __init__(
        self,
        *,
        cwd: StrPath | None = None,
        env: Mapping[str, str] | None = None,
        config: StrPath | None = None,
        bin_dir: StrPath | None = None,
        timeout: float | None = None,
    ) -> None:
        self.cwd = cwd
        self.env = dict(env) if env is not None else None
        self.config = config
        self.bin_dir = bin_dir
        self.timeout = timeout
        self._path: str | None = None

    @property
    def path(self) -> str:
        """The program's path (ProgramNotFound when it is nowhere)."""
        if self._path is None:
            self._path = find_bin(self.name, self.bin_dir)
        return self._path

    def _global_flags(self) -> list[str]:
        """The options every call of this program takes."""
        return flags(("--config", None if self.config is None else os.fspath(self.config)))

    def _argv(self, args: Sequence[str]) -> list[str]:
        argv = [self.path, *args]
        # Global options: after the subcommand, before any `--`.
        at = argv.index("--") if "--" in argv else len(argv)
        argv[at:at] = self._global_flags()
        return argv

    def _start(self, argv: list[str], start: Callable[[], T]) -> T:
        """`start()`, which starts `argv`; ProgramNotFound if its program
        (found earlier) is gone, as when it was removed since."""
        try:
            return start()
        except FileNotFoundError as e:
            if e.filename == argv[0]:
                raise ProgramNotFound(self.name, [os.path.dirname(argv[0])]) from e
            raise

    def _run(
        self, args: Sequence[str], input: Input = None, ok: Container[int] | None = (0,)
    ) -> subprocess.CompletedProcess[bytes]:
        """Runs the program with `args`, `input` on its stdin; raises the
        exception of its exit code unless that code is in `ok` (None: any)."""
        argv = self._argv(args)
        data = input.encode() if isinstance(input, str) else input
        done = self._start(
            argv,
            lambda: subprocess.run(
                argv,
                input=data,
                stdin=subprocess.DEVNULL if data is None else None,
                capture_output=True,
                cwd=self.cwd,
                env=self.env,
                timeout=self.timeout,
            ),
        )
        if ok is not None and done.returncode not in ok:
            raise error_for(self.name, argv, done.returncode, done.stderr)
        return done

    def _json(self, args: Sequence[str], input: Input = None, ok: Sequence[int] = (0,)) -> Any:
        return json.loads(self._run(args, input, ok).stdout)

    def _text(self, args: Sequence[str], input: Input = None) -> str:
        return self._run(args, input).stdout.decode("utf-8", errors="replace")

    def _stream(
        self,
        args: Sequence[str],
        lines: Iterable[object] | None,
        ok: Sequence[int] = (0,),
    ) -> Stream[Any]:
        """The program's NDJSON output, one parsed object per line as it
        comes. `lines` (JSON values) are written to its stdin, one a line, by
        a thread, so the program answers while the caller still produces;
        None keeps stdin open until the stream is closed."""
        argv = self._argv(args)
        proc = self._start(
            argv,
            lambda: subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=self.cwd,
                env=self.env,
            ),
        )
        return Stream(self.name, argv, proc, lines, ok, json.loads)


def _write_lines(pipe: IO[bytes], lines: Iterable[object]) -> None:
    try:
        for value in lines:
            pipe.write(dumps(value).encode() + b"\n")
            pipe.flush()
    except (BrokenPipeError, ValueError):
        pass  # the program ended (or the stream was closed) first
    finally:
        try:
            pipe.close()
        except BrokenPipeError:
            pass


class Stream(Generic[T]):
    """An iterator over a running program's output lines; use it in a `with`
    block (or call close()) to stop the program when you stop reading.
    At the end of the output an unexpected exit code raises its exception."""

    def __init__(
        self,
        program: str,
        argv: list[str],
        proc: subprocess.Popen[bytes],
        lines: Iterable[object] | None,
        ok: Sequence[int],
        parse: Callable[[bytes], T],
    ) -> None:
        self._program = program
        self._argv = argv
        self._proc = proc
        self._ok = ok
        self._parse = parse
        self._stderr: list[bytes] = []
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        self._stdout = proc.stdout
        err = proc.stderr
        self._err_reader = threading.Thread(target=lambda: self._stderr.append(err.read()), daemon=True)
        self._err_reader.start()
        self._writer: threading.Thread | None = None
        if lines is not None:
            self._writer = threading.Thread(target=_write_lines, args=(proc.stdin, lines), daemon=True)
            self._writer.start()

    def __iter__(self) -> Iterator[T]:
        return self

    def __next__(self) -> T:
        for raw in self._stdout:
            if raw.strip():
                return self._parse(raw)
        self._finish()
        raise StopIteration

    def _finish(self) -> None:
        code = self._proc.wait()
        self._err_reader.join()
        if code not in self._ok:
            raise error_for(self._program, self._argv, code, b"".join(self._stderr))

    def close(self) -> None:
        """Stops the program (its stdin is closed, then SIGTERM if needed)."""
        if self._proc.poll() is None:
            stdin = self._proc.stdin
            if self._writer is None and stdin is not None:
                # `discover watch` ends cleanly when its stdin closes.
                try:
                    stdin.close()
                except BrokenPipeError:
                    pass
                try:
                    self._proc.wait(timeout=2)
                except subprocess.TimeoutExpired:
                    pass
            if self._proc.poll() is None:
                self._proc.terminate()
            self._proc.wait()
        self._stdout.close()

    def __enter__(self) -> Stream[T]:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()
