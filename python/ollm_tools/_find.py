"""Where the programs are: the wheel puts them in the environment's scripts
directory, which need not be on PATH (a virtual environment that was never
activated, `pip install --user`, `pip install --target`)."""

from __future__ import annotations

import os
import sys
import sysconfig

PROGRAMS = (
    "ollm",
    "ollm-session",
    "ollm-compress",
    "ollm-loopcheck",
    "ollm-context",
    "ollm-discover",
    "ollm-env",
    "ollm-checkpoint",
)

_found: dict[str, str] = {}


class ProgramNotFound(FileNotFoundError):
    """An ollm program is in none of the places a wheel or cargo puts it."""

    def __init__(self, name: str, searched: list[str], on_path: bool = False) -> None:
        self.program = name
        self.searched = searched
        places = ", ".join(searched) + (", then on PATH" if on_path else "")
        super().__init__(
            f"{name}: program not found (looked in {places}). "
            "Install it with `pip install ollm-tools` in this environment, "
            "or from a checkout with `cargo install --locked --path .` and put ~/.cargo/bin on PATH"
        )


def _user_scheme() -> str:
    if sys.version_info >= (3, 10):
        return sysconfig.get_preferred_scheme("user")
    return "nt_user" if os.name == "nt" else "posix_user"


def _candidate_dirs() -> list[str]:
    package_dir = os.path.dirname(os.path.abspath(__file__))
    site_dir = os.path.dirname(package_dir)
    dirs = [
        # This interpreter's environment (a venv, or the system's).
        sysconfig.get_path("scripts"),
        # The interpreter a venv was made from.
        sysconfig.get_path("scripts", vars={"base": sys.base_prefix}),
        # `pip install --user`: ~/.local/bin.
        sysconfig.get_path("scripts", scheme=_user_scheme()),
        # `pip install --target DIR`: DIR/bin beside the package.
        os.path.join(site_dir, "bin"),
    ]
    # `pip install --prefix P`: the package is in P/lib/pythonX.Y/site-packages.
    lib_dir = os.path.dirname(site_dir)
    if os.path.basename(site_dir) == "site-packages" and os.path.basename(lib_dir).startswith("python"):
        dirs.append(os.path.join(os.path.dirname(os.path.dirname(lib_dir)), "bin"))
    unique: list[str] = []
    for d in dirs:
        if d not in unique:
            unique.append(d)
    return unique


def find_bin(name: str, bin_dir: str | os.PathLike[str] | None = None) -> str:
    """The path of the ollm program `name` (`ollm`, `ollm-session`, …).

    With `bin_dir`, only that directory is searched. Otherwise: this
    environment's scripts directory, its base interpreter's, the user
    scheme's, a `bin` beside the package (`pip install --target`) or above it
    (`--prefix`), then PATH. Raises ProgramNotFound (a FileNotFoundError)
    saying where it looked and how to install the programs."""
    exe = name + (sysconfig.get_config_var("EXE") or "")
    if bin_dir is not None:
        # Absolute: the program may be started in another directory (cwd=).
        path = os.path.abspath(os.path.join(os.fspath(bin_dir), exe))
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
        raise ProgramNotFound(name, [os.path.dirname(path)])
    cached = _found.get(name)
    if cached is not None and os.path.isfile(cached):
        return cached
    searched = _candidate_dirs()
    for d in searched:
        path = os.path.join(d, exe)
        if os.path.isfile(path) and os.access(path, os.X_OK):
            _found[name] = path
            return path
    # Not shutil.which: importing shutil would double the package's import time.
    for d in os.environ.get("PATH", os.defpath).split(os.pathsep):
        path = os.path.join(d or os.curdir, exe)
        if os.path.isfile(path) and os.access(path, os.X_OK):
            _found[name] = path
            return path
    raise ProgramNotFound(name, searched, on_path=True)
