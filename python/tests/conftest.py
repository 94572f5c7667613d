"""Every test runs the installed programs in a temporary OLLM_HOME, HOME and
workspace, with a PATH that does not hold them (find_bin must find them)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pytest


@dataclass
class Sandbox:
    home: Path
    work: Path
    env: dict[str, str]

    def settings(self) -> dict[str, object]:
        return {"cwd": self.work, "env": self.env}


@pytest.fixture
def sb(tmp_path: Path) -> Sandbox:
    home = tmp_path / "home"
    work = tmp_path / "work"
    for d in (home / ".ollm", work):
        d.mkdir(parents=True)
    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": str(home),
        "OLLM_HOME": str(home / ".ollm"),
        "LANG": "C.UTF-8",
    }
    return Sandbox(home, work, env)


def pytest_configure(config: pytest.Config) -> None:
    # The programs must not be reachable through PATH, or find_bin's own
    # search would go untested.
    for d in os.environ.get("PATH", "").split(os.pathsep):
        if d and os.path.isfile(os.path.join(d, "ollm-session")):
            raise pytest.UsageError(f"ollm-session is on PATH ({d}); run the tests without it")
