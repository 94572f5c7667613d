#!/usr/bin/env python3
"""A small but real agent loop built on the ollm programs, through the typed client of
`pip install ./python` from the checkout, or `pip install ollm-tools` (the `ollm_tools` package;
the rest is the standard library).

Every turn:
  1. system prompt  = a base prompt + Context().prompt() (the workspace's context entries)
  2. the user's message is recorded with Session().record_message()
  3. Compress().check(session_id=ID, token_limit=N) and, when `needed`,
     Compress().compress(session_id=ID, ...): the model is sent the compressed history,
     while the session store keeps every message
  4. steps, at most --max-steps: call the model, whose reply is constrained to
     {"tool": "list_files"|"read_file"|"run"|"answer", "arg": "..."};
     run the tool (list_files: Discover().paths(); read_file: bounded, inside the
     workspace only; run: Env().run(["sh", "-c", CMD]), secrets stripped, with a timeout),
     record the call and its result with Session().record_tool_call(), record the answer
     as the assistant's message, and ask LoopCheck().check(..., state=FILE) before the
     next step.

The reply format is enforced by the server (OpenAI-compatible `response_format` of type
`json_schema`, or Ollama's `format`), so even a tiny model always produces a usable
step. Two rules shape each turn, by changing which tools the schema offers:
  --look-first   the first step of a turn cannot answer: the model must look at the
                 workspace (a tool call) before it answers. This is what makes the tool
                 path certain with any model, so the tests use it.
  last step      the last allowed step (--max-steps) can only answer: the budget is spent,
                 so the model answers with what it has and the turn always ends with an
                 assistant message.
  a loop         `ollm loopcheck` gives a level: at `warn` (the first detection) the model
                 is told it is repeating itself and the next step can only answer; a `stop`
                 (the pattern persisted after the warning, so only when even that forced
                 answer loops) ends the program with exit 1, the answer already recorded.

Usage:
  agent.py "What does this project do?"                       # one turn per argument
  agent.py                                                   # interactive: one turn per stdin line
  agent.py --resume "And the tests?"                         # continue this workspace's latest session
  agent.py --resume 3f2b8c1e-9d4a-4e7b-a1c2-5d6e7f809a1b "And the tests?"
  agent.py --model-url http://127.0.0.1:8080 --model any "hi"  # llama.cpp's llama-server
  agent.py --api ollama --model-url http://127.0.0.1:11434 --model llama3.2:3b "hi"

The model: by default Ollama on this machine (http://127.0.0.1:11434, llama3.2:3b,
through its OpenAI-compatible /v1 API): `ollama serve` and `ollama pull llama3.2:3b`.
docs/agents.md's "Your model" shows llama-server, vLLM and LM Studio too. The server is
checked before a session is created, so an unreachable one leaves nothing behind.

Each call runs one program (no shell); a failure is an ollm_tools exception carrying the
program's one-line message.

Exit codes: 0 done; 1 a loop persisted after a warning (the details are printed); 2 usage error;
3 the session to resume does not exist; 4 the model server or an ollm program failed, or the
ollm_tools client is missing.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from typing import Any, NoReturn

try:
    from ollm_tools import (
        Compress,
        Context,
        Discover,
        Env,
        LoopCheck,
        NotFound,
        OllmError,
        ProgramNotFound,
        Session,
        text_message,
    )
    from ollm_tools.types import LoopEvent, LoopPattern, Message, ToolCall
except ModuleNotFoundError as missing:
    if missing.name is None or not missing.name.startswith("ollm_tools"):
        raise
    print(
        "agent.py: the ollm_tools client is missing: pip install ./python "
        "(from the checkout, for the programs cargo install put on PATH) or pip install ollm-tools",
        file=sys.stderr,
    )
    sys.exit(4)

TOOLS = ["list_files", "read_file", "run"]
UUID_RE = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")

BASE_PROMPT = """You are a coding assistant working in a project directory.
Reply with one JSON object {"tool": TOOL, "arg": ARG} and nothing else.
Tools:
- list_files: list the project's files; arg: a subdirectory, or "" for all
- read_file: read a file; arg: its path relative to the project
- run: run a shell command in the project; arg: the command
- answer: give your final answer to the user; arg: the answer
Use tools to look before you answer. Tool results come back as messages starting with "Result of"."""

NUDGE = ("You are repeating yourself: calling the tool again will not tell you anything new. "
         "Do not call a tool; answer the user now with what you have found.")

Chat = list[dict[str, str]]


class AgentError(Exception):
    """A failure that ends the program with a message and an exit code."""

    def __init__(self, message: str, code: int = 4) -> None:
        super().__init__(message)
        self.code = code


def say(message: str) -> None:
    print(f"agent: {message}", file=sys.stderr, flush=True)


DEFAULT_URL = "http://127.0.0.1:11434"
DEFAULT_MODEL = "llama3.2:3b"


def start_hint(url: str) -> str:
    """What to start when nothing answers at URL."""
    return (
        f"no model server answers at {url}. Start one: `ollama serve` and "
        f"`ollama pull {DEFAULT_MODEL}` (the default, {DEFAULT_URL}), or give --model-url "
        "and --model of a running llama-server, vLLM or LM Studio (docs/agents.md: \"Your model\")"
    )


class Model:
    """One chat request per step, the reply constrained to the step schema."""

    def __init__(self, api: str, url: str, model: str, max_tokens: int, temperature: float, timeout: float) -> None:
        self.api = api
        self.url = url.rstrip("/")
        self.model = model
        self.max_tokens = max_tokens
        self.temperature = temperature
        self.timeout = timeout

    def schema(self, tools: list[str]) -> dict[str, Any]:
        # The arg's length is bounded so that the whole JSON reply fits in max_tokens
        # (about 3-4 characters a token, some left for the braces and keys): a reply cut
        # short by the token budget would not be valid JSON.
        arg_max = max(20, min(2000, (self.max_tokens - 30) * 2))
        return {
            "type": "object",
            "properties": {
                "tool": {"type": "string", "enum": tools},
                "arg": {"type": "string", "minLength": 1, "maxLength": arg_max},
            },
            "required": ["tool", "arg"],
            "additionalProperties": False,
        }

    def check_reachable(self) -> None:
        """Raises AgentError saying what to start when no server answers at the URL.

        Any HTTP answer (even 401 or 404) means a server is there."""
        probe = f"{self.url}/api/tags" if self.api == "ollama" else f"{self.url}/v1/models"
        request = urllib.request.Request(probe)
        key = os.environ.get("OPENAI_API_KEY")
        if key and self.api == "openai":
            request.add_header("Authorization", f"Bearer {key}")
        try:
            with urllib.request.urlopen(request, timeout=min(self.timeout, 10)):
                pass
        except urllib.error.HTTPError:
            pass
        except (urllib.error.URLError, OSError) as e:
            reason = getattr(e, "reason", e)
            raise AgentError(f"{start_hint(self.url)} ({reason})")

    def ask(self, messages: Chat, tools: list[str]) -> str:
        schema = self.schema(tools)
        body: dict[str, Any]
        if self.api == "ollama":
            endpoint = f"{self.url}/api/chat"
            body = {
                "model": self.model,
                "messages": messages,
                "stream": False,
                "format": schema,
                "options": {"num_predict": self.max_tokens, "temperature": self.temperature},
            }
        else:
            endpoint = f"{self.url}/v1/chat/completions"
            body = {
                "model": self.model,
                "messages": messages,
                "max_tokens": self.max_tokens,
                "temperature": self.temperature,
                # OpenAI's structured-output form, which llama.cpp, vLLM, LM Studio
                # and Ollama's /v1 endpoint accept too.
                "response_format": {
                    "type": "json_schema",
                    "json_schema": {"name": "step", "schema": schema},
                },
            }
        request = urllib.request.Request(
            endpoint,
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
        )
        key = os.environ.get("OPENAI_API_KEY")
        if key and self.api == "openai":
            request.add_header("Authorization", f"Bearer {key}")
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                reply = json.load(response)
        except urllib.error.HTTPError as e:
            # The server explains itself in the body ("model 'x' not found, try pulling it first").
            detail = e.read(300).decode("utf-8", errors="replace").strip()
            raise AgentError(f"model server {endpoint}: HTTP {e.code}: {detail}")
        except urllib.error.URLError as e:
            raise AgentError(f"model server {endpoint}: {e.reason}; {start_hint(self.url)}")
        except (OSError, json.JSONDecodeError) as e:
            raise AgentError(f"model server {endpoint}: {e}")
        try:
            if self.api == "ollama":
                content = reply["message"]["content"]
            else:
                content = reply["choices"][0]["message"]["content"]
        except (KeyError, IndexError, TypeError):
            content = None
        if not isinstance(content, str):
            raise AgentError(f"model server {endpoint}: unexpected reply {json.dumps(reply)[:200]}")
        return content


def parse_step(text: str, tools: list[str]) -> tuple[str, str]:
    """The model's step as (tool, arg); a reply that is not the schema's JSON is an answer."""
    try:
        step = json.loads(text)
        tool, arg = step["tool"], step["arg"]
        if tool in tools and isinstance(arg, str):
            return tool, arg
    except (json.JSONDecodeError, KeyError, TypeError):
        pass
    say(f"the reply is not a valid step, taking it as the answer: {text[:120]!r}")
    return "answer", text


# What a tool call gives: (args recorded, llmContent, returnDisplay).
ToolOutcome = tuple[dict[str, object], str, str]


class Tools:
    def __init__(self, programs: Programs, workspace: str, read_limit: int, output_limit: int,
                 run_timeout: float) -> None:
        self.programs = programs
        self.workspace = os.path.realpath(workspace)
        self.read_limit = read_limit
        self.output_limit = output_limit
        self.run_timeout = run_timeout

    def inside(self, arg: str) -> str | None:
        """The real path of ARG when it is inside the workspace, else None."""
        try:
            path = os.path.realpath(os.path.join(self.workspace, arg.strip()))
        except ValueError:  # a NUL byte
            return None
        if path == self.workspace or path.startswith(self.workspace + os.sep):
            return path
        return None

    def call(self, tool: str, arg: str) -> ToolOutcome:
        if tool == "list_files":
            return self.list_files(arg)
        if tool == "read_file":
            return self.read_file(arg)
        return self.run(arg)

    def list_files(self, arg: str) -> ToolOutcome:
        args: dict[str, object] = {"path": arg}
        root = self.inside(arg) if arg.strip() else self.workspace
        note = ""
        if root is None or not os.path.isdir(root):
            note = f"{arg!r} is not a directory in the project; listing the whole project.\n"
            root = self.workspace
        # .ollm/ holds this agent's own state (loopcheck), not the project's files.
        listed = self.programs.discover.paths(root)
        rel = os.path.relpath(root, self.workspace)
        paths = [p if rel == "." else os.path.join(rel, p) for p in listed]
        shown = paths[:200]
        more = f"\n... and {len(paths) - len(shown)} more" if len(paths) > len(shown) else ""
        text = note + ("\n".join(shown) if shown else "(no files)") + more
        return args, text, f"Listed {len(paths)} files"

    def read_file(self, arg: str) -> ToolOutcome:
        args: dict[str, object] = {"path": arg}
        path = self.inside(arg)
        if path is None:
            return args, f"Refused: {arg!r} is outside the project.", "Refused: outside the project"
        try:
            with open(path, "rb") as f:
                data = f.read(self.read_limit + 1)
        except OSError as e:
            return args, f"Cannot read {arg!r}: {e.strerror}", f"Error: {e.strerror}"
        cut = len(data) > self.read_limit
        text = data[: self.read_limit].decode("utf-8", errors="replace")
        if cut:
            text += f"\n... (cut at {self.read_limit} bytes)"
        return args, text or "(empty file)", f"Read {min(len(data), self.read_limit)} bytes from {arg}"

    def run(self, command: str) -> ToolOutcome:
        args: dict[str, object] = {"command": command}
        # Its own process group, so a timeout kills everything the command started.
        try:
            done = self.programs.env.run(["sh", "-c", command], stderr_to_stdout=True, timeout=self.run_timeout)
            out, status = done.stdout, f"exit code {done.returncode}"
        except subprocess.TimeoutExpired as e:
            out, status = e.output or b"", f"killed after {self.run_timeout:g} s"
        except OllmError as e:
            return args, f"Cannot run the command: {e}", "Error: cannot run"
        text = out.decode("utf-8", errors="replace")
        if len(text) > self.output_limit:
            text = text[: self.output_limit] + f"\n... (cut at {self.output_limit} characters)"
        return args, f"{text}\n[{status}]", f"Ran `{command}`: {status}"


def text_of(message: Message) -> str:
    return "".join(p.get("text", "") for p in message.get("parts", []) if isinstance(p, dict))


def step_json(tool: str, arg: str) -> str:
    return json.dumps({"tool": tool, "arg": arg})


def tool_arg(record: ToolCall) -> str:
    args = record.get("args") or {}
    for key in ("path", "command"):
        value = args.get(key)
        if isinstance(value, str):
            return value
    return json.dumps(args)


def chat_history(messages: list[Message], tool_calls: list[ToolCall]) -> tuple[Chat, list[str]]:
    """Stored messages and tool-call records, merged by timestamp, as chat messages.

    A tool call becomes the assistant's step followed by its result as a user message
    (the constrained protocol has no native tool role). Summaries that compression put
    in the history (system messages) are returned separately, for the system prompt.
    """
    items: list[tuple[str, int, int, Message | ToolCall]] = [
        (m.get("timestamp", ""), 0, i, m) for i, m in enumerate(messages)
    ]
    items += [(t.get("timestamp", ""), 1, i, t) for i, t in enumerate(tool_calls)]
    chat: Chat = []
    summaries: list[str] = []
    for _, kind, _, item in sorted(items, key=lambda x: x[:3]):
        if kind == 1:
            call: ToolCall = item  # type: ignore[assignment]
            chat.append({"role": "assistant", "content": step_json(call["name"], tool_arg(call))})
            result = (call.get("result") or {}).get("llmContent", "")
            chat.append({"role": "user", "content": f"Result of {call['name']}:\n{result}"})
            continue
        message: Message = item  # type: ignore[assignment]
        if message.get("role") == "system":
            summaries.append(text_of(message))
        else:
            role = "assistant" if message.get("role") == "assistant" else "user"
            content = text_of(message)
            if role == "assistant":
                content = step_json("answer", content)
            chat.append({"role": role, "content": content})
    return chat, summaries


class Programs:
    """One client per program, all run in the workspace."""

    def __init__(self, workspace: str, bin_dir: str | None) -> None:
        settings: dict[str, Any] = {"cwd": workspace, "bin_dir": bin_dir}
        self.session = Session(**settings)
        self.compress = Compress(**settings)
        self.loopcheck = LoopCheck(**settings)
        self.context = Context(**settings)
        self.discover = Discover(**settings)
        self.env = Env(**settings)


def fail(e: OllmError) -> NoReturn:
    """An ollm program's failure as the agent's: 3 when a thing was not found, else 4."""
    raise AgentError(f"{e.program} failed: {e.message}", 3 if isinstance(e, NotFound) else 4) from e


class Agent:
    def __init__(self, opts: argparse.Namespace) -> None:
        self.opts = opts
        self.workspace = os.path.realpath(opts.workspace)
        self.programs = Programs(self.workspace, bin_dir_of(opts.ollm))
        self.model = Model(
            opts.api, opts.model_url, opts.model, opts.max_tokens, opts.temperature, opts.timeout
        )
        self.tools = Tools(self.programs, self.workspace, opts.read_limit, opts.output_limit, opts.run_timeout)
        self.session_id: str | None = None
        self.loop_state = ""

    # -- session
    def open_session(self) -> None:
        """The session to resume (exit 3 when there is none) once the model server
        answers; a new session is made by the first turn, so a failed start or an
        interactive run left at once leaves no empty session."""
        session = None
        if self.opts.resume:
            # Without an id: the latest session of this workspace, not another project's.
            resume = None if self.opts.resume == "last" else self.opts.resume
            session = self.programs.session.get(resume, here=resume is None)
        self.model.check_reachable()
        if session is not None:
            self.use_session(session["sessionId"])
            say(f"resuming session {self.session_id} ({len(session['messages'])} messages)")

    def use_session(self, session_id: str) -> None:
        self.session_id = session_id
        state_dir = os.path.join(self.workspace, ".ollm")
        os.makedirs(state_dir, exist_ok=True)
        self.loop_state = os.path.join(state_dir, f"loop-{self.session_id}.json")

    @property
    def sid(self) -> str:
        assert self.session_id is not None, "open_session() first"
        return self.session_id

    def history(self) -> tuple[Chat, list[str]]:
        """What the model is sent: the stored history, compressed when it no longer fits."""
        limit = self.opts.context_limit
        compress = self.programs.compress
        verdict = compress.check(session_id=self.sid, token_limit=limit)
        if not verdict["needed"]:
            session = self.programs.session.get(self.sid)
            return chat_history(session["messages"], session["toolCalls"])
        say(f"compressing: {verdict['tokenCount']} tokens over {verdict['triggerAt']:.0f} (limit {limit})")
        result = compress.compress(
            session_id=self.sid, token_limit=limit, strategy=self.opts.compress_strategy,
            summarizer_api=self.opts.api, summarizer_url=self.opts.model_url,
            summarizer_model=self.opts.model,
        )
        say(f"compressed: {result['status']}, {result['originalTokenCount']} -> {result['compressedTokenCount']} tokens")
        return chat_history(result["compressedMessages"], result.get("compressedToolCalls", []))

    def system_prompt(self, summaries: list[str]) -> str:
        context = self.programs.context.prompt()
        parts = [BASE_PROMPT]
        if context.strip():
            parts.append("# Project context\n\n" + context.strip())
        if summaries:
            parts.append("# Summary of the earlier conversation\n\n" + "\n\n".join(summaries))
        return "\n\n".join(parts)

    def loopcheck(self, events: list[LoopEvent]) -> LoopPattern | None:
        """The pattern of a `warn` verdict, None when quiet; a `stop` ends the program."""
        verdict = self.programs.loopcheck.check(events, state=self.loop_state)
        pattern = verdict["pattern"]
        kind, count = (pattern["type"], pattern["count"]) if pattern else (None, None)
        if verdict["level"] == "stop":
            details = pattern["details"] if pattern else None
            raise AgentError(
                f"loop detected ({kind}, count {count}, turn {verdict['turn']}): {details}", 1
            )
        if verdict["loop"]:
            say(f"loop warning ({kind}, count {count}): the next step must answer")
            return pattern
        return None

    # -- one turn
    def turn(self, prompt: str) -> None:
        if self.session_id is None:
            self.use_session(self.programs.session.create(self.opts.model, self.opts.api))
            say(f"new session {self.session_id}")
        sessions = self.programs.session
        sessions.record_message(self.sid, "user", prompt)
        chat, summaries = self.history()
        messages: Chat = [{"role": "system", "content": self.system_prompt(summaries)}] + chat
        events: list[LoopEvent] = [{"type": "user", "text": prompt}]
        warned = None
        for step in range(1, self.opts.max_steps + 1):
            if warned is not None or step == self.opts.max_steps:
                offered = ["answer"]
            elif step == 1 and self.opts.look_first:
                offered = TOOLS
            else:
                offered = TOOLS + ["answer"]
            reply = self.model.ask(messages, offered)
            tool, arg = parse_step(reply, offered)
            events.append({"type": "turn"})
            if tool == "answer":
                sessions.record(self.sid, text_message("assistant", arg))
                events.append({"type": "output", "text": arg})
                print(arg, flush=True)
                # The answer is recorded and printed; a loop in it is still reported.
                self.loopcheck(events)
                return
            args, content, display = self.tools.call(tool, arg)
            say(f"step {step}: {tool} {arg!r}: {display}")
            # The result goes through stdin: a tool's output has no size limit.
            sessions.record_tool_call(
                self.sid, tool, args, content, display=display, call_id=f"call_{uuid.uuid4().hex[:12]}"
            )
            events.append({"type": "tool", "name": tool, "args": args})
            warned = self.loopcheck(events)
            events = []
            messages.append({"role": "assistant", "content": step_json(tool, arg)})
            messages.append({"role": "user", "content": f"Result of {tool}:\n{content}"})
            if warned is not None:
                messages.append({"role": "user", "content": NUDGE})


def bin_dir_of(ollm: str | None) -> str | None:
    """The directory of the programs named by --ollm (None: where the wheel put them)."""
    if ollm is None:
        return None
    found = shutil.which(ollm)
    if found is None:
        raise AgentError(f"{ollm}: not found (--ollm names the ollm dispatcher; the other programs are looked for beside it)")
    return os.path.dirname(os.path.realpath(found))


def prompts(opts: argparse.Namespace) -> Iterator[str]:
    if opts.prompts:
        yield from opts.prompts
        return
    at_terminal = sys.stdin.isatty()
    if at_terminal:
        say("type a message; an empty line or end of input (ctrl-d) stops")
    while True:
        if at_terminal:
            sys.stderr.write("> ")
            sys.stderr.flush()
        line = sys.stdin.readline().strip()
        if not line:
            return
        yield line


def env_int(name: str, default: int) -> int:
    """A whole number from the environment (the default of an option), or exit 2."""
    value = os.environ.get(name)
    if value is None:
        return default
    try:
        return int(value)
    except ValueError:
        print(f"agent: {name} must be a whole number, not {value!r}", file=sys.stderr)
        sys.exit(2)


def parse_args(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        description="A reference agent loop on the ollm programs.",
        epilog="See the module docstring (head examples/agent.py) for the per-turn pipe.",
    )
    p.add_argument("prompts", nargs="*", help="one turn per argument (default: read lines from stdin)")
    p.add_argument("--api", choices=["openai", "ollama"], default="openai",
                   help="openai: POST URL/v1/chat/completions (llama.cpp, vLLM, LM Studio, Ollama); ollama: POST URL/api/chat")
    p.add_argument("--model-url", default=os.environ.get("AGENT_MODEL_URL", DEFAULT_URL),
                   help=f"the model server (env AGENT_MODEL_URL; default {DEFAULT_URL}, Ollama's)")
    p.add_argument("--model", default=os.environ.get("AGENT_MODEL", DEFAULT_MODEL),
                   help=f"the model's name (env AGENT_MODEL; default {DEFAULT_MODEL})")
    p.add_argument("--resume", nargs="?", const="last", metavar="ID",
                   help="continue a stored session (without ID: the most recent one)")
    p.add_argument("--max-steps", type=int, default=env_int("AGENT_MAX_STEPS", 6),
                   help="model calls per turn; the last one must answer (env AGENT_MAX_STEPS)")
    p.add_argument("--look-first", action="store_true", default=os.environ.get("AGENT_LOOK_FIRST") == "1",
                   help="the first step of a turn must call a tool before the model may answer (env AGENT_LOOK_FIRST=1)")
    p.add_argument("--max-tokens", type=int, default=env_int("AGENT_MAX_TOKENS", 200),
                   help="the model's reply budget per step (env AGENT_MAX_TOKENS)")
    p.add_argument("--temperature", type=float, default=0.0)
    p.add_argument("--timeout", type=float, default=300, help="seconds to wait for the model")
    p.add_argument("--context-limit", type=int, default=8192, help="tokens of history sent; compressed above 80%%")
    p.add_argument("--compress-strategy", choices=["hybrid", "summarize", "truncate"], default="hybrid")
    p.add_argument("--read-limit", type=int, default=8000, help="bytes read_file returns")
    p.add_argument("--output-limit", type=int, default=4000, help="characters of a command's output kept")
    p.add_argument("--run-timeout", type=float, default=30, help="seconds before a `run` command is killed")
    p.add_argument("--workspace", default=".", help="the project directory the tools work in")
    p.add_argument("--ollm", default=None,
                   help="the ollm dispatcher (a name on PATH or a path); the other programs are used from "
                        "its directory (default: where `pip install ollm-tools` put them)")
    opts = p.parse_args(argv)
    # `--resume "a prompt"`: argparse took the prompt as the ID.
    if opts.resume not in (None, "last") and not UUID_RE.match(opts.resume):
        opts.prompts.insert(0, opts.resume)
        opts.resume = "last"
    if opts.max_steps < 1 or (opts.look_first and opts.max_steps < 2):
        p.error("--max-steps must be at least 1 (2 with --look-first)")
    return opts


def main(argv: list[str]) -> int:
    opts = parse_args(argv)
    agent = None
    try:
        agent = Agent(opts)
        try:
            agent.open_session()
            for prompt in prompts(opts):
                agent.turn(prompt)
        except OllmError as e:
            fail(e)
        except ProgramNotFound as e:
            raise AgentError(str(e)) from e
    except AgentError as e:
        say(str(e))
        return e.code
    except KeyboardInterrupt:
        return 130
    finally:
        if agent is not None and agent.session_id:
            say(f"session {agent.session_id}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
