"""Each program through the client, against the real programs."""

from __future__ import annotations

import subprocess
import sysconfig
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import Sandbox

from ollm_tools import (
    PROGRAMS,
    Compress,
    Context,
    Discover,
    Env,
    LoopCheck,
    Session,
    UsageError,
    find_bin,
    text_message,
)
from ollm_tools.types import LoopEvent, Record


def test_find_bin_finds_every_program_in_the_environment_not_on_path() -> None:
    scripts = sysconfig.get_path("scripts")
    for name in PROGRAMS:
        assert find_bin(name) == f"{scripts}/{name}"


def test_session_lifecycle(sb: Sandbox) -> None:
    s = Session(cwd=sb.work, env=sb.env)
    sid = s.create("m1", "ollama")
    ack = s.record_message(sid, "user", "Which files hold the retry loop?")
    assert (ack["sessionId"], ack["recorded"], ack["index"]) == (sid, "message", 0)
    ack = s.record_tool_call(sid, "read_file", {"path": "a.py"}, "def retry(): ...", display="Read a.py", call_id="c1")
    assert ack["recorded"] == "toolCall"
    s.record(sid, text_message("assistant", "a.py holds it."))

    doc = s.get(sid)
    assert [m["role"] for m in doc["messages"]] == ["user", "assistant"]
    assert doc["messages"][1]["parts"][0]["text"] == "a.py holds it."
    call = doc["toolCalls"][0]
    assert (call["id"], call["name"], call["args"]) == ("c1", "read_file", {"path": "a.py"})
    assert call["result"] == {"llmContent": "def retry(): ...", "returnDisplay": "Read a.py"}
    assert s.get(here=True)["sessionId"] == sid
    assert s.messages(sid) == doc["messages"] == s.messages(here=True)

    [summary] = s.list()
    assert (summary["sessionId"], summary["model"], summary["messageCount"]) == (sid, "m1", 2)
    [hit] = s.search("retry loop")
    assert (hit["sessionId"], hit["messageIndex"], hit["role"]) == (sid, 0, "user")

    assert s.rename(sid, "retries")["title"] == "retries"
    assert "a.py holds it." in s.export("retries")
    branch = s.branch(sid, 1)
    assert [m["role"] for m in s.get(branch)["messages"]] == ["user"]
    assert s.delete(branch) == [branch]
    assert [x["sessionId"] for x in s.list()] == [sid]


def test_session_methods_take_the_flags_the_node_client_takes(sb: Sandbox) -> None:
    s = Session(cwd=sb.work, env=sb.env)
    first = s.create("m1", "ollama", title="first")
    s.record_message(first, "user", "Where is the Retry loop?")
    s.record_message(first, "assistant", "In a.py.")
    s.create("m2", "ollama", max_sessions=5)
    assert s.get(first)["title"] == "first"

    assert [x["sessionId"] for x in s.list(model="m1")] == [first]
    assert [x["sessionId"] for x in s.list(limit=1, offset=1)] == [first]
    assert [h["role"] for h in s.search("retry", ignore_case=True)] == ["user"]
    assert s.search("retry") == []
    assert [h["messageIndex"] for h in s.search("a\\.py", regex=True, role="assistant")] == [1]

    branch = s.branch(first, 1, title="just the question")
    summary = next(x for x in s.list() if x["sessionId"] == branch)
    assert (summary.get("title"), summary.get("parentSessionId"), summary.get("branchPoint")) == (
        "just the question",
        first,
        1,
    )
    assert s.rename(branch, None) == {"sessionId": branch, "previousTitle": "just the question", "title": None}

    dry = s.cleanup(1, dry_run=True)
    assert dry["dryRun"] and len(dry["deleted"]) == 2 and dry["kept"] == 1
    assert len(s.list()) == 3
    assert len(s.cleanup(1)["deleted"]) == 2
    assert len(s.list()) == 1


def test_session_takes_the_store_options_the_node_client_takes(sb: Sandbox) -> None:
    store = sb.work / "elsewhere"
    token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0" * 2
    s = Session(cwd=sb.work, env=sb.env, store="file", data_dir=store)
    sid = s.create("m1", "ollama")
    assert any(sid in p.name for p in store.rglob("*")), "the session is in data_dir"
    assert Session(cwd=sb.work, env=sb.env).list() == []
    assert s.record_message(sid, "user", f"my token is {token[:40]}")["redacted"] == 1
    raw = Session(cwd=sb.work, env=sb.env, data_dir=store, no_redact=True)
    assert raw.record_message(sid, "user", f"again {token[:40]}")["redacted"] == 0
    texts = [m["parts"][0].get("text", "") for m in raw.get(sid)["messages"]]
    assert token[:40] not in texts[0] and token[:40] in texts[1]


def test_record_stream_acknowledges_each_record_before_the_next_is_sent(sb: Sandbox) -> None:
    s = Session(cwd=sb.work, env=sb.env)
    sid = s.create("m1", "ollama")
    acks: list[int] = []

    def records() -> Iterator[Record]:
        for i in range(3):
            # Each record is acknowledged while the stream is still open.
            deadline = time.monotonic() + 10
            while len(acks) < i and time.monotonic() < deadline:
                time.sleep(0.01)
            assert len(acks) == i
            yield text_message("user", f"message {i}")

    with s.record_stream(sid, records()) as stream:
        for ack in stream:
            acks.append(ack["index"])
    assert acks == [0, 1, 2]
    assert len(s.get(sid)["messages"]) == 3


def test_a_ten_megabyte_tool_result_goes_through_stdin(sb: Sandbox) -> None:
    s = Session(cwd=sb.work, env=sb.env)
    sid = s.create("m1", "ollama")
    big = "".join(f"line {i}: {'x' * 90}\n" for i in range(110_000))
    assert len(big) > 10_000_000
    s.record_tool_call(sid, "run", {"command": "cat big.log"}, big)
    assert s.get(sid)["toolCalls"][0]["result"]["llmContent"] == big
    counted = Compress(cwd=sb.work, env=sb.env).count([text_message("user", big)])
    assert counted["total"] > 1_000_000


def test_compress_counts_checks_and_compresses(sb: Sandbox) -> None:
    c = Compress(cwd=sb.work, env=sb.env)
    history = [text_message("user", "hello there how are you")]
    counted = c.count(history)
    assert counted["total"] == counted["messages"][0]["tokens"] > 0
    assert c.check(history, token_limit=10)["needed"] is True
    assert c.check(history, token_limit=100_000)["needed"] is False

    s = Session(cwd=sb.work, env=sb.env)
    sid = s.create("m1", "ollama")
    for i in range(30):
        s.record_message(sid, "user" if i % 2 == 0 else "assistant", f"turn {i}: " + "words " * 40)
    result = c.compress(session_id=sid, token_limit=400, strategy="truncate")
    assert result["status"] == "compressed"
    assert result["compressedTokenCount"] < result["originalTokenCount"]
    assert len(result["compressedMessages"]) < 30


def repeated_calls(n: int) -> list[LoopEvent]:
    events: list[LoopEvent] = [{"type": "turn"}]
    events += [{"type": "tool", "name": "ls", "args": {"dir": "."}} for _ in range(n)]
    return events


def test_loopcheck_gives_warn_then_stop_verdicts(sb: Sandbox) -> None:
    lc = LoopCheck(cwd=sb.work, env=sb.env)
    assert lc.check([{"type": "user", "text": "hi"}])["loop"] is False
    stop = lc.check(repeated_calls(4))
    assert stop["level"] == "stop"
    assert stop["pattern"] is not None and stop["pattern"]["type"] == "repeated-tool"

    # One call per step, the detector's state kept in a file between them.
    state = sb.work / "loop.json"
    levels = [lc.check(repeated_calls(1), state=state)["level"]]
    levels += [lc.check(repeated_calls(1)[1:], state=state)["level"] for _ in range(3)]
    assert levels == [None, None, "warn", "stop"]


def test_loopcheck_stream_reports_a_loop_while_the_events_still_come(sb: Sandbox) -> None:
    lc = LoopCheck(cwd=sb.work, env=sb.env)
    seen: list[str | None] = []
    done = threading.Event()

    def events() -> Iterator[LoopEvent]:
        yield from repeated_calls(3)
        # The warning for the third call arrives before any more input.
        deadline = time.monotonic() + 10
        while not seen and time.monotonic() < deadline:
            time.sleep(0.01)
        assert seen == ["warn"]
        done.set()
        yield {"type": "tool", "name": "ls", "args": {"dir": "."}}

    with lc.stream(events()) as verdicts:
        for v in verdicts:
            seen.append(v["level"])
    assert done.is_set()
    assert seen == ["warn", "stop"]


def test_compress_and_loopcheck_take_the_flags_the_node_client_takes(sb: Sandbox) -> None:
    c = Compress(cwd=sb.work, env=sb.env)
    history = [text_message("user", "hello there how are you " * 20)]
    assert c.count(history, tokenizer="estimate")["tokenizer"] != c.count(history)["tokenizer"]
    check = c.check(history, token_limit=1000, threshold=0.25, trigger="dynamic")
    assert (check["trigger"], check["threshold"], check["limit"]) == ("dynamic", 0.25, 1000)
    result = c.compress(history, token_limit=1000, threshold=0.25, strategy="truncate", preserve_recent=10, force=True)
    assert (result["strategy"], result["check"]["threshold"]) == ("truncate", 0.25)

    lc = LoopCheck(cwd=sb.work, env=sb.env)
    assert lc.check(repeated_calls(4))["loop"] is True
    assert lc.check(repeated_calls(4), repeat_threshold=10)["loop"] is False
    turns: list[LoopEvent] = [{"type": "turn"}] * 3
    over = lc.check(turns, max_turns=2)
    assert over["pattern"] is not None and over["pattern"]["type"] == "turn-limit"


def test_context_entries_and_prompt(sb: Sandbox) -> None:
    ctx = Context(cwd=sb.work, env=sb.env)
    added = ctx.add("rules", "Use tabs.", priority=80)
    assert added["added"] == "rules" and added["replaced"] is False
    notes = sb.work / "notes.md"
    notes.write_text("Run cargo test.")
    ctx.add("testing", from_file=notes, source="hook", ttl="10m")
    assert [e["key"] for e in ctx.list()] == ["rules", "testing"]
    assert ctx.get("testing")["content"] == "Run cargo test."
    assert ctx.prompt() == "## rules\n\nUse tabs.\n\n## testing\n\nRun cargo test.\n"
    assert ctx.remove("rules")["keys"] == ["rules"]
    assert ctx.clear(source="hook")["keys"] == ["testing"]
    assert ctx.prompt() == ""


def test_discover_lists_and_watches(sb: Sandbox) -> None:
    (sb.work / "src").mkdir()
    (sb.work / "src" / "main.rs").write_text("fn main() {}\n")
    (sb.work / "debug.log").write_text("noise\n")
    (sb.work / ".gitignore").write_text("*.log\n")
    d = Discover(cwd=sb.work, env=sb.env)
    assert d.paths() == [".gitignore", "src/main.rs"]
    [entry] = d.list(include=["*.rs"])
    assert (entry["relativePath"], entry["type"], entry.get("size")) == ("src/main.rs", "file", 13)

    with d.watch(debounce_ms=20) as events:
        ready = next(events)
        assert ready["event"] == "ready"
        (sb.work / "src" / "lib.rs").write_text("")
        (sb.work / "more.log").write_text("")
        change = next(events)
    assert (change["event"], change["relativePath"]) == ("add", "src/lib.rs")


def test_discover_and_env_take_the_flags_the_node_client_takes(sb: Sandbox) -> None:
    (sb.work / "src").mkdir()
    (sb.work / "src" / "main.rs").write_text("fn main() {}\n")
    (sb.work / "link").symlink_to("src")
    d = Discover(cwd=sb.work, env=sb.env)
    assert sorted(x["relativePath"] for x in d.list()) == ["link", "src/main.rs"]
    assert sorted(x["relativePath"] for x in d.list(follow=True)) == ["link/main.rs", "src/main.rs"]
    assert [x["relativePath"] for x in d.list(types=["directory"])] == ["src"]

    token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0" * 2
    e = Env(cwd=sb.work, env=dict(sb.env, BUILD_LABEL=token[:40]))
    assert "BUILD_LABEL" in [x["name"] for x in e.report()["removed"]]
    assert "BUILD_LABEL" in [x["name"] for x in e.report(scan_values=False)["kept"]]
    assert e.explain("BUILD_LABEL", allow=["BUILD_LABEL"])["kept"] is True
    assert e.run(["sh", "-c", "echo $X"], set=["X=1"]).stdout == b"1\n"


def test_env_runs_a_tool_without_secrets(sb: Sandbox) -> None:
    env = dict(sb.env, AWS_SECRET_ACCESS_KEY="wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", EDITOR="vi")
    e = Env(cwd=sb.work, env=env)
    done = e.run(["sh", "-c", 'echo "${AWS_SECRET_ACCESS_KEY:-none} $EDITOR"; exit 7'])
    assert (done.returncode, done.stdout) == (7, b"none vi\n")
    assert e.run(["sh", "-c", "kill -TERM $$"]).returncode in (-15, 143)
    started = time.monotonic()
    with pytest.raises(subprocess.TimeoutExpired) as timed_out:
        e.run(["sh", "-c", "echo started; sleep 30 & sleep 30"], timeout=0.5, stderr_to_stdout=True)
    assert time.monotonic() - started < 10, "the whole process group is killed"
    assert timed_out.value.output == b"started\n"
    with pytest.raises(UsageError) as bad:
        e.run(["true"], set=["NOT AN ASSIGNMENT"])
    assert bad.value.message.startswith("ollm-env: ")
    report = e.report()
    assert "AWS_SECRET_ACCESS_KEY" in [r["name"] for r in report["removed"]]
    assert "EDITOR" in [k["name"] for k in report["kept"]]
    assert e.explain("AWS_SECRET_ACCESS_KEY")["kept"] is False
