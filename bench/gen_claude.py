#!/usr/bin/env python3
"""Generates a Claude Code projects directory to import (bench/session.sh).

    gen_claude.py DIR MEGABYTES [--sessions N]

Writes DIR/<project>/<session uuid>.jsonl files shaped as Claude Code writes
them: a `parentUuid` chain of user prompts, assistant responses spread over
several lines sharing `message.id` (text, then a `tool_use`), `progress`
lines while the tool runs (often most of a real file), a user line holding
the `tool_result` with `toolUseResult`, and a `summary` line. With
--sessions N it writes N sessions of a few turns each (MEGABYTES is then
ignored); otherwise sessions of ~2 MB until MEGABYTES are written. With
--turns N, each session has N turns (~25 kB each): one session of 300 MB
is `gen_claude.py DIR 1 --turns 12000`.
"""
import json
import os
import random
import sys
import uuid
from datetime import datetime, timedelta, timezone

rng = random.Random(7)
WORDS = ("the retry logic backs off exponentially but the jitter is computed before "
         "the clamp so long outages overflow the timer; parse_args reads --verbose twice "
         "and the cache key ignores the locale which explains the flaky test").split()


def words(n):
    return " ".join(rng.choice(WORDS) for _ in range(n))


def build_log(lines):
    return "\n".join(
        f"   Compiling crate{i} v0.{i}.0 (/home/u/src/crate{i}) warning: unused `x{i}` {words(6)}"
        for i in range(lines))


def session_lines(cwd, session_id, turns, started):
    now = started
    parent = None
    out = []

    def line(kind, extra):
        nonlocal parent, now
        now += timedelta(milliseconds=rng.randint(200, 4000))
        me = str(uuid.UUID(int=rng.getrandbits(128)))
        record = {"parentUuid": parent, "isSidechain": False, "userType": "external",
                  "cwd": cwd, "sessionId": session_id, "version": "2.0.14",
                  "gitBranch": "main", "type": kind, "uuid": me,
                  "timestamp": now.isoformat(timespec="milliseconds").replace("+00:00", "Z")}
        record.update(extra)
        out.append(json.dumps(record, separators=(",", ":")))
        parent = me

    for turn in range(turns):
        line("user", {"message": {"role": "user", "content": f"turn {turn}: {words(25)}"}})
        msg = "msg_" + uuid.UUID(int=rng.getrandbits(128)).hex[:24]
        usage = {"input_tokens": 4, "cache_read_input_tokens": 21000, "output_tokens": 310}
        line("assistant", {"requestId": "req_" + msg[4:], "message": {
            "id": msg, "type": "message", "role": "assistant", "model": "claude-sonnet-4-5-20250929",
            "content": [{"type": "text", "text": words(60)}], "stop_reason": None, "usage": usage}})
        tool = "toolu_" + uuid.UUID(int=rng.getrandbits(128)).hex[:24]
        command = f"cargo test -p crate{turn % 9} -- --nocapture"
        line("assistant", {"requestId": "req_" + msg[4:], "message": {
            "id": msg, "type": "message", "role": "assistant", "model": "claude-sonnet-4-5-20250929",
            "content": [{"type": "tool_use", "id": tool, "name": "Bash",
                         "input": {"command": command, "description": "Run the tests"}}],
            "stop_reason": "tool_use", "usage": usage}})
        for p in range(rng.randint(4, 12)):
            line("progress", {"toolUseID": tool, "parentToolUseID": tool, "data": {
                "type": "bash_progress", "output": build_log(3), "elapsedTimeSeconds": p}})
        output = build_log(rng.randint(20, 120))
        line("user", {"message": {"role": "user", "content": [
            {"tool_use_id": tool, "type": "tool_result", "content": output, "is_error": False}]},
            "toolUseResult": {"stdout": output, "stderr": "", "interrupted": False}})
        msg = "msg_" + uuid.UUID(int=rng.getrandbits(128)).hex[:24]
        line("assistant", {"requestId": "req_" + msg[4:], "message": {
            "id": msg, "type": "message", "role": "assistant", "model": "claude-sonnet-4-5-20250929",
            "content": [{"type": "text", "text": words(80)}], "stop_reason": "end_turn", "usage": usage}})
    out.append(json.dumps({"type": "summary", "summary": f"Fix {words(3)}", "leafUuid": parent}))
    return out


def main():
    root, megabytes = sys.argv[1], float(sys.argv[2])
    sessions = int(sys.argv[sys.argv.index("--sessions") + 1]) if "--sessions" in sys.argv else 0
    turns_given = int(sys.argv[sys.argv.index("--turns") + 1]) if "--turns" in sys.argv else 0
    started = datetime(2026, 1, 5, 9, 0, tzinfo=timezone.utc)
    written, n = 0, 0
    while (sessions and n < sessions) or (not sessions and written < megabytes * 1e6):
        project = f"/home/u/src/project{n % 40}"
        folder = f"{root}/{project.replace('/', '-')}"
        session_id = str(uuid.UUID(int=rng.getrandbits(128)))
        turns = turns_given or (2 if sessions else 60)
        text = "\n".join(session_lines(project, session_id, turns, started + timedelta(hours=n))) + "\n"
        os.makedirs(folder, exist_ok=True)
        with open(f"{folder}/{session_id}.jsonl", "w") as f:
            f.write(text)
        written += len(text)
        n += 1
    print(f"{n} sessions, {written / 1e6:.0f} MB", file=sys.stderr)


if __name__ == "__main__":
    main()
