"""Each documented exit code's exception, with the program's one-line message."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import Sandbox

from ollm_tools import (
    ConfigError,
    CorruptData,
    InternalError,
    LoopCheck,
    NegativeVerdict,
    NotFound,
    OllmError,
    ProgramFailed,
    ProgramNotFound,
    Session,
    StorageError,
    UsageError,
    find_bin,
)


def test_exit_2_is_usage_error(sb: Sandbox) -> None:
    with pytest.raises(UsageError) as e:
        LoopCheck(cwd=sb.work, env=sb.env).check([], warnings_before_stop=1000)
    assert e.value.exit_code == 2
    assert e.value.message.startswith("ollm-loopcheck: flag --warnings-before-stop: ")
    assert "from 0 to 100" in e.value.message


def test_exit_3_is_not_found(sb: Sandbox) -> None:
    with pytest.raises(NotFound) as e:
        Session(cwd=sb.work, env=sb.env).get("nope")
    assert e.value.exit_code == 3
    assert str(e.value) == 'ollm-session: no session has the id prefix or title "nope"'


def test_exit_4_is_storage_error(sb: Sandbox) -> None:
    with pytest.raises(StorageError) as e:
        LoopCheck(cwd=sb.work, env=sb.env).check([], state=sb.work)
    assert e.value.exit_code == 4
    assert e.value.message == f"ollm-loopcheck: {sb.work}: is a directory, not a regular file; it is left alone"


def test_exit_5_is_config_error(sb: Sandbox) -> None:
    bad = sb.work / "bad.yaml"
    bad.write_text("services:\n  session:\n    maxSessions: -3\n")
    with pytest.raises(ConfigError) as e:
        Session(cwd=sb.work, env=sb.env, config=bad).list()
    assert e.value.exit_code == 5
    assert "services.session.maxSessions" in e.value.message


def test_exit_6_is_corrupt_data(sb: Sandbox) -> None:
    s = Session(cwd=sb.work, env=sb.env)
    sid = s.create("m1", "ollama")
    stored = sb.home / ".ollm" / "sessions" / f"{sid}.json"
    stored.write_text("{garbage")
    with pytest.raises(CorruptData) as e:
        s.get(sid)
    assert e.value.exit_code == 6
    assert e.value.message.startswith(f"ollm-session: session {sid} cannot be read")
    assert stored.read_text() == "{garbage", "left as it is"


def stub(tmp_path: Path, code: int, line: str) -> Path:
    """A stand-in ollm-session that fails with `code`: no input makes the
    real programs exit 1 where no verdict is asked for, or 70 (a bug)."""
    bin_dir = tmp_path / "stub-bin"
    bin_dir.mkdir(exist_ok=True)
    script = bin_dir / "ollm-session"
    script.write_text(f"#!/bin/sh\necho 'ollm-session: a warning' >&2\necho '{line}' >&2\nexit {code}\n")
    os.chmod(script, 0o755)
    return bin_dir


@pytest.mark.parametrize(
    "code,cls",
    [(1, NegativeVerdict), (70, InternalError), (9, ProgramFailed)],
)
def test_other_exit_codes_map_to_their_class(tmp_path: Path, code: int, cls: type[OllmError]) -> None:
    line = f"ollm-session: failure {code}"
    with pytest.raises(cls) as e:
        Session(bin_dir=stub(tmp_path, code, line)).list()
    assert (e.value.exit_code, e.value.message, e.value.program) == (code, line, "ollm-session")
    assert "a warning" in e.value.stderr
    assert isinstance(e.value, OllmError)


def test_a_missing_program_names_it_and_how_to_install_it(tmp_path: Path) -> None:
    with pytest.raises(ProgramNotFound) as e:
        Session(bin_dir=tmp_path).list()
    message = str(e.value)
    assert message.startswith(f"ollm-session: program not found (looked in {tmp_path}). ")
    assert "pip install ollm-tools" in message
    assert isinstance(e.value, FileNotFoundError)


def test_a_program_removed_after_it_was_found_is_not_found_when_run_or_streamed(tmp_path: Path) -> None:
    bin_dir = stub(tmp_path, 0, "unused")
    session = Session(bin_dir=bin_dir)
    assert session.path == str(bin_dir / "ollm-session")
    (bin_dir / "ollm-session").unlink()
    looked = f"ollm-session: program not found (looked in {bin_dir}). "
    with pytest.raises(ProgramNotFound) as e:
        session.list()
    assert str(e.value).startswith(looked)
    with pytest.raises(ProgramNotFound) as e:
        session.record_stream("id", [])
    assert str(e.value).startswith(looked)


def test_a_relative_bin_dir_holds_when_the_program_runs_elsewhere(sb: Sandbox) -> None:
    real = os.path.dirname(find_bin("ollm-session"))
    relative = os.path.relpath(real)
    assert Session(bin_dir=relative, cwd=sb.work, env=sb.env).list() == []
