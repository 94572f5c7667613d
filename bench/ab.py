#!/usr/bin/env python3
"""Two builds of the programs, turn by turn: is one slower than the other?

Each build gets a home and a workspace of its own, set up as bench/run sets
up its per-turn pipeline (two context entries, a session of 40 records, a
200-file tree older than the listing cache's racy window). Then the turns
alternate: a turn of build A's six programs, a turn of build B's, the order
swapped every turn, so that what the machine's load does to one it does to
the other. Each program's time is the median over the turns (a loaded
machine's outliers move a mean); the ratio is B's over A's, with the spread
of the per-turn ratios (the middle 80%), which says whether a difference is
more than the noise of this machine.

usage: bench/ab.py BIN_DIR_A BIN_DIR_B [TURNS]   (100 turns)
  Built alike, e.g. CARGO_PROFILE_RELEASE_LTO=false cargo build --release
  --bins in each checkout. Prints a table, and JSON on the last line.
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from turn import steps  # noqa: E402  (the six programs as bench/turn.py runs them)


def environment(home):
    return dict(os.environ, OLLM_HOME=home, HOME=home)


def prepare(bin_dir, root):
    """A home and workspace for `bin_dir`'s programs; the session id."""
    home, ws = os.path.join(root, "home"), os.path.join(root, "ws")
    tree = os.path.join(ws, "tree")
    os.makedirs(home)
    with open(os.path.join(os.makedirs(tree) or tree, ".gitignore"), "w") as f:
        f.write("target/\n*.log\n")
    for d in range(10):
        sub = os.path.join(tree, f"src/mod{d}")
        os.makedirs(sub)
        for n in range(20):
            ext = ("rs", "md", "log", "toml")[n % 4]
            with open(os.path.join(sub, f"file{n}.{ext}"), "w") as f:
                f.write("fn main() {}\n" * 5)
    env = environment(home)

    def run(*argv):
        return subprocess.run([f"{bin_dir}/{argv[0]}", *argv[1:]], cwd=ws, env=env,
                              capture_output=True, check=True, text=True).stdout

    run("ollm-context", "add", "project-rules", "Use tabs. Run the tests before you answer.",
        "--priority", "80")
    run("ollm-context", "add", "repo-summary", "A Rust workspace with six command-line programs.")
    session = json.loads(run("ollm-session", "create", "--model", "bench", "--provider", "bench"))
    sid = session["sessionId"]
    for i in range(1, 41):
        run("ollm-session", "record", sid, "--role", "user", "--text",
            f"earlier turn {i}: please look at src/mod{i % 10}/file{i}.rs")
    return env, ws, sid


def one_turn(bin_dir, env, ws, sid, n):
    took = {}
    for name, argv, stdin, ok in steps(bin_dir, sid, n):
        started = time.perf_counter()
        done = subprocess.run(argv, input=stdin.encode(), capture_output=True, cwd=ws, env=env)
        took[name] = time.perf_counter() - started
        if done.returncode not in ok:
            err = done.stderr.decode(errors="replace").strip().splitlines()
            sys.exit(f"ab.py: {argv[0]} exited {done.returncode}: {err[-1] if err else ''}")
    return took


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    a, b = (os.path.abspath(d) for d in sys.argv[1:3])
    turns = int(sys.argv[3]) if len(sys.argv) > 3 else 100
    with tempfile.TemporaryDirectory(prefix="ollm-ab.") as work:
        builds = {label: (d, *prepare(d, os.path.join(work, label))) for label, d in (("A", a), ("B", b))}
        # The listing cache trusts a tree older than its 2-second racy window.
        time.sleep(3)
        times = {"A": [], "B": []}
        for n in range(-10, turns):
            order = ("A", "B") if n % 2 == 0 else ("B", "A")
            for label in order:
                bin_dir, env, ws, sid = builds[label]
                took = one_turn(bin_dir, env, ws, sid, n + 1000)
                if n >= 0:
                    times[label].append(took)
    names = list(times["A"][0])
    rows = {}
    for name in names + ["turn"]:
        pick = (lambda t: sum(t.values())) if name == "turn" else (lambda t, k=name: t[k])
        a_ms = [pick(t) * 1000 for t in times["A"]]
        b_ms = [pick(t) * 1000 for t in times["B"]]
        ratios = sorted(y / x for x, y in zip(a_ms, b_ms))
        lo, hi = ratios[len(ratios) // 10], ratios[len(ratios) * 9 // 10]
        a_med, b_med = statistics.median(a_ms), statistics.median(b_ms)
        rows[name] = {"a_ms": a_med, "b_ms": b_med, "ratio": b_med / a_med,
                      "ratio_p10": lo, "ratio_p90": hi}
    print(f"A = {a}\nB = {b}\n{turns} turns each, alternating; medians; ratio = B / A\n")
    print(f"{'program':<10} {'A ms':>8} {'B ms':>8} {'ratio':>7}   per-turn ratios, middle 80%")
    for name, r in rows.items():
        print(f"{name:<10} {r['a_ms']:8.2f} {r['b_ms']:8.2f} {r['ratio']:7.2f}   {r['ratio_p10']:.2f}–{r['ratio_p90']:.2f}")
    print(json.dumps(rows))


if __name__ == "__main__":
    main()
