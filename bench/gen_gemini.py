#!/usr/bin/env python3
"""Generates one gemini-cli chat to import (bench/session.sh).

    gen_gemini.py DIR TURNS

Writes DIR/.gemini/tmp/project/chats/session-<time>-<id8>.jsonl, an operation
log shaped as gemini-cli's chatRecordingService writes it: a metadata line,
then per turn a `user` message, a `gemini` message written first with its
tool call `executing` and again under the same id once the call is done
(result and `resultDisplay`), `$set` updates of `lastUpdated`, one
`$set.messages` checkpoint (after 200 turns) holding the conversation so far
on one line, and a `$rewindTo` now and then taking the last turn back. About 16 kB a turn: 11000 turns is about 175 MB.
"""
import json
import os
import random
import sys
import uuid
from datetime import datetime, timedelta, timezone

rng = random.Random(11)
WORDS = ("the retry logic backs off exponentially but the jitter is computed before "
         "the clamp so long outages overflow the timer; parse_args reads --verbose twice "
         "and the cache key ignores the locale which explains the flaky test").split()


def words(n):
    return " ".join(rng.choice(WORDS) for _ in range(n))


def build_log(lines):
    return "\n".join(
        f"   Compiling crate{i} v0.{i}.0 (/home/u/src/crate{i}) warning: unused `x{i}` {words(6)}"
        for i in range(lines))


def new_id():
    return str(uuid.UUID(int=rng.getrandbits(128)))


def main():
    root, turns = sys.argv[1], int(sys.argv[2])
    session_id = new_id()
    chats = f"{root}/.gemini/tmp/project/chats"
    os.makedirs(chats, exist_ok=True)
    with open(f"{root}/.gemini/tmp/project/.project_root", "w") as f:
        f.write("/home/u/src/project")
    now = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)

    def stamp():
        nonlocal now
        now += timedelta(milliseconds=rng.randint(200, 4000))
        return now.isoformat(timespec="milliseconds").replace("+00:00", "Z")

    path = f"{chats}/session-2026-03-02T09-00-{session_id[:8]}.jsonl"
    conversation = []  # what the checkpoint lists
    checkpoint_at = min(200, turns // 2)
    written = 0
    with open(path, "w") as out:
        def put(record):
            nonlocal written
            text = json.dumps(record, separators=(",", ":")) + "\n"
            out.write(text)
            written += len(text)

        put({"sessionId": session_id, "projectHash": "0" * 64, "startTime": stamp(),
             "lastUpdated": stamp(), "kind": "main"})
        for turn in range(turns):
            user = {"id": new_id(), "timestamp": stamp(), "type": "user",
                    "content": [{"text": f"turn {turn}: {words(25)}"}]}
            put(user)
            call_id = f"run_shell_command-{turn}-{rng.getrandbits(32)}"
            command = f"cargo test -p crate{turn % 9} -- --nocapture"
            reply = {"id": new_id(), "timestamp": stamp(), "type": "gemini",
                     "content": words(60), "model": "gemini-2.5-pro",
                     "thoughts": [{"subject": "Plan", "description": words(20), "timestamp": stamp()}],
                     "tokens": {"input": 21000, "output": 310, "cached": 0, "total": 21310}}
            call = {"id": call_id, "name": "run_shell_command", "args": {"command": command},
                    "status": "executing", "timestamp": stamp()}
            put(dict(reply, toolCalls=[call]))
            output = build_log(rng.randint(20, 100))
            done = dict(call, status="success", result=[{"functionResponse": {
                "id": call_id, "name": "run_shell_command", "response": {"output": output}}}],
                resultDisplay=output)
            reply = dict(reply, toolCalls=[done])
            put(reply)
            put({"$set": {"lastUpdated": stamp()}})
            conversation += [user, reply]
            if turn % 97 == 96:
                put({"$rewindTo": user["id"]})
                conversation = conversation[:-2]
            if turn == checkpoint_at:
                put({"$set": {"messages": conversation}})
        put({"$set": {"summary": f"Fix {words(3)}", "lastUpdated": stamp()}})
    print(f"1 session, {turns} turns, {written / 1e6:.0f} MB", file=sys.stderr)


if __name__ == "__main__":
    main()
