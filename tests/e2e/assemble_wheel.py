#!/usr/bin/env python3
"""The wheel `maturin build` would make, from binaries already built.

maturin compiles the programs itself, with the root package's features
alone; a test run (`cargo test --workspace`) builds them with the features
of the whole workspace and the dev-dependencies, so maturin would rebuild
most of the dependency graph and swap the binaries the other tests run.
This makes the same wheel from the test run's own binaries instead: the
metadata and tag are maturin's (`maturin pep517 write-dist-info`), the
layout is maturin's for `bindings = "bin"` (the programs in
`<name>.data/scripts/`, the package from `python-source`).

usage: assemble_wheel.py DIST_INFO_DIR PACKAGE_DIR BIN_DIR OUT_DIR PROGRAM...
Prints the wheel's path.
"""

from __future__ import annotations

import base64
import hashlib
import os
import sys
import zipfile


def digest(path: str) -> tuple[str, int]:
    h = hashlib.sha256()
    size = 0
    with open(path, "rb") as f:
        while chunk := f.read(1 << 20):
            h.update(chunk)
            size += len(chunk)
    return "sha256=" + base64.urlsafe_b64encode(h.digest()).rstrip(b"=").decode(), size


def main(dist_info: str, package: str, bin_dir: str, out: str, programs: list[str]) -> str:
    info_name = os.path.basename(os.path.normpath(dist_info))
    dist = info_name.removesuffix(".dist-info")
    with open(os.path.join(dist_info, "WHEEL")) as f:
        tags = [line.split(":", 1)[1].strip() for line in f if line.startswith("Tag:")]
    wheel = os.path.join(out, f"{dist}-{tags[0]}.whl")
    files: list[tuple[str, str]] = []
    for program in programs:
        files.append((os.path.join(bin_dir, program), f"{dist}.data/scripts/{program}"))
    package_name = os.path.basename(os.path.normpath(package))
    for name in sorted(os.listdir(package)):
        if name.endswith(".py") or name == "py.typed":
            files.append((os.path.join(package, name), f"{package_name}/{name}"))
    for name in sorted(os.listdir(dist_info)):
        files.append((os.path.join(dist_info, name), f"{info_name}/{name}"))
    os.makedirs(out, exist_ok=True)
    record = []
    # Stored, not deflated: a debug build's programs are over a gigabyte.
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_STORED) as z:
        for source, arcname in files:
            z.write(source, arcname)
            sha, size = digest(source)
            record.append(f"{arcname},{sha},{size}\n")
        record.append(f"{info_name}/RECORD,,\n")
        z.writestr(f"{info_name}/RECORD", "".join(record))
    return wheel


if __name__ == "__main__":
    if len(sys.argv) < 6:
        sys.exit(__doc__)
    print(main(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]))
