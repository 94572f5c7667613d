#!/usr/bin/env python3
"""What the Python client (`ollm_tools`, python/) adds to a call, and what
importing it costs.

Per call: the same command through the client and through a bare
subprocess.run (capture_output, and json.loads where the command prints
JSON), interleaved in rounds so both see the same machine; the difference of
the medians is what the client adds. Import: `import ollm_tools` in a new
interpreter (bytecode already cached), timed inside it, median of many.

usage: bench/python_client.py BIN_DIR [CALLS]
  (OLLM_HOME and HOME from the environment, a scratch workspace made here).
Prints lines bench/run reads:
  python client: CMD: client X ms, subprocess.run Y ms, added Z ms
  python client: import ollm_tools: X ms
  python client: import the six clients: X ms
The clients load on first use: the second import adds json and subprocess,
which an agent has usually imported already.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE_ROOT = os.path.join(os.path.dirname(HERE), "python")
sys.path.insert(0, PACKAGE_ROOT)

from ollm_tools import Context, LoopCheck  # noqa: E402


def timed(fn, n):
    out = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t) * 1000)
    return out


def compare(name, client, direct, calls):
    ours, theirs = [], []
    for _ in range(10):  # rounds, alternating which goes first
        ours += timed(client, calls // 20)
        theirs += timed(direct, calls // 20)
        theirs += timed(direct, calls // 20)
        ours += timed(client, calls // 20)
    a, b = statistics.median(ours), statistics.median(theirs)
    print(f"python client: {name}: client {a:.3f} ms, subprocess.run {b:.3f} ms, added {a - b:.3f} ms", flush=True)


def import_ms(statement, runs=40):
    code = f"import time; t = time.perf_counter(); {statement}; print((time.perf_counter() - t) * 1000)"
    env = dict(os.environ, PYTHONPATH=PACKAGE_ROOT)
    subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True)  # bytecode
    times = [float(subprocess.run([sys.executable, "-c", code], env=env, check=True,
                                  capture_output=True, text=True).stdout) for _ in range(runs)]
    return statistics.median(times)


def main():
    bin_dir = os.path.abspath(sys.argv[1])
    calls = int(sys.argv[2]) if len(sys.argv) > 2 else 400
    work = tempfile.mkdtemp(prefix="ollm-bench-python-")
    context = Context(cwd=work, bin_dir=bin_dir)
    context.add("rules", "Use tabs, never spaces.", priority=80)
    prompt = [os.path.join(bin_dir, "ollm-context"), "prompt"]
    compare("ollm-context prompt", context.prompt,
            lambda: subprocess.run(prompt, capture_output=True, cwd=work, check=True).stdout.decode(), calls)

    loopcheck = LoopCheck(cwd=work, bin_dir=bin_dir)
    events = [{"type": "turn"}, {"type": "tool", "name": "ls", "args": {"dir": "."}}]
    lines = "".join(json.dumps(e) + "\n" for e in events).encode()
    argv = [os.path.join(bin_dir, "ollm-loopcheck")]
    compare("ollm-loopcheck (2 events)", lambda: loopcheck.check(events),
            lambda: json.loads(subprocess.run(argv, input=lines, capture_output=True, cwd=work).stdout), calls)
    print(f"python client: import ollm_tools: {import_ms('import ollm_tools'):.2f} ms", flush=True)
    every = "from ollm_tools import Session, Compress, LoopCheck, Context, Discover, Env"
    print(f"python client: import the six clients: {import_ms(every):.2f} ms", flush=True)


if __name__ == "__main__":
    main()
