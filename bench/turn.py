#!/usr/bin/env python3
"""One agent turn of all six programs, timed as a runtime calls them.

The runtime (this Python process) is already running. Each turn it starts the
six programs one after another, with no shell in between, writing their
stdin and reading their stdout and stderr through pipes, as a Python or Node
orchestrator does with subprocess.run or child_process.spawnSync.

Every turn is followed by the same six starts with /bin/true in place of each
program: the floor, process start-up alone, which no program can go under.

usage: bench/turn.py BIN_DIR WORKSPACE SESSION_ID [TURNS]
  (OLLM_HOME and HOME from the environment). Prints JSON:
  {"turns": N, "turn_ms": mean, "floor_ms": mean, "steps_ms": {program: mean}}
"""
import json
import subprocess
import sys
import time


def steps(bin_dir, session_id, n):
    """(name, argv, stdin, exit codes that are answers) of turn n."""
    events = (
        '{"type":"turn"}\n'
        f'{{"type":"tool","name":"list_files","args":{{"turn":{n}}}}}\n'
        f'{{"type":"output","text":"turn {n} done"}}\n'
    )
    return [
        ("context", [f"{bin_dir}/ollm-context", "prompt"], "", {0}),
        ("session", [f"{bin_dir}/ollm-session", "record", session_id, "--role", "user",
                     "--text", f"turn {n}: list the files and run the tests"], "", {0}),
        # 1 is a verdict (over the limit), not a failure.
        ("compress", [f"{bin_dir}/ollm-compress", "check", "--token-limit", "8192",
                      "--session", session_id], "", {0, 1}),
        ("loopcheck", [f"{bin_dir}/ollm-loopcheck", "--state", ".ollm/loop-state.json",
                       "--max-turns", "1000000"], events, {0}),
        ("discover", [f"{bin_dir}/ollm-discover", "--paths", "tree"], "", {0}),
        ("env", [f"{bin_dir}/ollm-env", "run", "--", "true"], "", {0}),
    ]


def run(argv, stdin, workspace):
    started = time.perf_counter()
    try:
        done = subprocess.run(argv, input=stdin.encode(), capture_output=True, cwd=workspace)
    except OSError as err:
        sys.exit(f"turn.py: cannot run {argv[0]}: {err.strerror}")
    return time.perf_counter() - started, done


def main():
    bin_dir, workspace, session_id = sys.argv[1:4]
    turns = int(sys.argv[4]) if len(sys.argv) > 4 else 30
    turn_total = floor_total = 0.0
    per_step = {}
    # Ten warm-up turns, then the measured ones: the page cache, the listing
    # cache, and the dev machine's slow first ~50 ms of fsyncs after a pause
    # (bench/run waits 3 s before the turns). Each turn's tool call differs,
    # so loopcheck sees no loop.
    for n in range(-10, turns):
        turn = floor = 0.0
        for name, argv, stdin, ok in steps(bin_dir, session_id, n + 1000):
            took, done = run(argv, stdin, workspace)
            if done.returncode not in ok:
                err = done.stderr.decode(errors="replace").strip().splitlines()
                sys.exit(f"turn.py: {name} exited {done.returncode}: {err[-1] if err else ''}")
            turn += took
            if n >= 0:
                per_step[name] = per_step.get(name, 0.0) + took
            floor += run(["/bin/true"] + argv[1:], stdin, workspace)[0]
        if n >= 0:
            turn_total += turn
            floor_total += floor
    print(json.dumps({
        "turns": turns,
        "turn_ms": turn_total / turns * 1000,
        "floor_ms": floor_total / turns * 1000,
        "steps_ms": {name: t / turns * 1000 for name, t in per_step.items()},
    }))


if __name__ == "__main__":
    main()
