#!/usr/bin/env python3
"""Writes COUNT sessions of MESSAGES messages each into DIR, as ollm-session
journals (the documented layout) or, with --plain, as spec-format <id>.json
files. One session in every --keyword-every carries the word KEYWORD once;
with --workspace DIR, one in every --workspace-every was made in DIR (for
--here). Used by bench/session.sh and bench/session_pg.sh; no fsync, this
only makes test data."""
import argparse, json, os, random, uuid

WORDS = ("the model reads the file and writes a patch for the failing test "
         "then runs the suite again to check the build passes on every target").split()

def text(rng, n):
    return " ".join(rng.choices(WORDS, k=n))

def stamp(ms):
    import datetime
    t = datetime.datetime.fromtimestamp(ms / 1000, datetime.timezone.utc)
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{ms % 1000:03d}Z"

def pretty(value, indent=""):
    """json.dumps(value, indent=2), as fast as the C encoder: Python's
    indenting encoder took 4 minutes for 100,000 sessions."""
    inner = indent + "  "
    if isinstance(value, dict):
        if not value:
            return "{}"
        items = (f"{inner}{json.dumps(k)}: {pretty(v, inner)}" for k, v in value.items())
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    if isinstance(value, list):
        if not value:
            return "[]"
        return "[\n" + ",\n".join(inner + pretty(v, inner) for v in value) + "\n" + indent + "]"
    return json.dumps(value)

def main():
    p = argparse.ArgumentParser()
    p.add_argument("dir"); p.add_argument("count", type=int); p.add_argument("messages", type=int)
    p.add_argument("--plain", action="store_true")
    p.add_argument("--keyword", default="zanzibar"); p.add_argument("--keyword-every", type=int, default=100)
    p.add_argument("--id")
    p.add_argument("--workspace"); p.add_argument("--workspace-every", type=int, default=100)
    a = p.parse_args()
    rng = random.Random(42)
    os.makedirs(a.dir, exist_ok=True)
    base = 1_700_000_000_000
    for s in range(a.count):
        sid = a.id or str(uuid.UUID(int=rng.getrandbits(128), version=4))
        start = base + s * 60_000
        msgs = []
        for m in range(a.messages):
            words = text(rng, 30)
            if a.keyword_every and s % a.keyword_every == 0 and m == a.messages // 2:
                words += " " + a.keyword
            msgs.append({"role": "user" if m % 2 == 0 else "assistant",
                         "parts": [{"type": "text", "text": words}],
                         "timestamp": stamp(start + m * 1000)})
        last = stamp(start + max(a.messages - 1, 0) * 1000)
        # Only when asked: without --workspace the output is as before.
        place = {"workspace": a.workspace} if a.workspace and s % a.workspace_every == 0 else {}
        tokens = [ (len(m["parts"][0]["text"]) + 3) // 4 for m in msgs ]
        if a.plain:
            doc = {"sessionId": sid, "startTime": stamp(start), "lastActivity": last,
                   "model": "llama3.2:3b", "provider": "ollama", **place, "messages": msgs, "toolCalls": [],
                   "metadata": {"tokenCount": sum(tokens), "compressionCount": 0}}
            with open(os.path.join(a.dir, sid + ".json"), "w") as f:
                f.write(pretty(doc))
            continue
        d = os.path.join(a.dir, sid)
        os.makedirs(d, exist_ok=True)
        head = {"type": "session", "format": 1, "session": {"sessionId": sid, "startTime": stamp(start),
                "lastActivity": stamp(start), "model": "llama3.2:3b", "provider": "ollama", **place,
                "metadata": {"tokenCount": 0, "compressionCount": 0}}}
        lines = [json.dumps(head, separators=(",", ":"))]
        for m, t in zip(msgs, tokens):
            lines.append(json.dumps({"type": "message", "at": m["timestamp"], "tokens": t, "message": m},
                                    separators=(",", ":"), ensure_ascii=False))
        body = ("\n".join(lines) + "\n").encode()
        with open(os.path.join(d, "journal.ndjson"), "wb") as f:
            f.write(body)
        summary = {"format": 1, "journalBytes": len(body), "sessionId": sid, "startTime": stamp(start),
                   "lastActivity": last, "model": "llama3.2:3b", "messageCount": len(msgs),
                   "tokenCount": sum(tokens), "provider": "ollama", "toolCallCount": 0, "compressionCount": 0,
                   **place}
        with open(os.path.join(d, "summary.json"), "w") as f:
            json.dump(summary, f, indent=2)

if __name__ == "__main__":
    main()
