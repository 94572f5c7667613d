#!/usr/bin/env python3
"""A small but real agent loop built on the ollm programs (standard library only).

Every turn:
  1. system prompt  = a base prompt + `ollm context prompt` (the workspace's context entries)
  2. the user's message is recorded with `ollm session record`
  3. `ollm compress check --session ID --token-limit N` (exit 1: needed) and, when needed,
     `ollm compress --session ID --token-limit N`: the model is sent the compressed history,
     while the session store keeps every message
  4. steps, at most --max-steps: call the model, whose reply is constrained to
     {"tool": "list_files"|"read_file"|"run"|"answer", "arg": "..."};
     run the tool (list_files: `ollm discover --paths`; read_file: bounded, inside the
     workspace only; run: `ollm env run -- sh -c CMD`, secrets stripped, with a timeout),
     record the call and its result with `ollm session record`, record the answer as the
     assistant's message, and ask `ollm loopcheck --state` before the next step.

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
The README's "Your model" shows llama-server, vLLM and LM Studio too. The server is
checked before a session is created, so an unreachable one leaves nothing behind.

Exit codes: 0 done; 1 a loop persisted after a warning (the details are printed); 2 usage error;
3 the session to resume does not exist; 4 the model server or an ollm program failed.
"""

import argparse
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import urllib.error
import urllib.request
import uuid

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


class AgentError(Exception):
    """A failure that ends the program with a message and an exit code."""

    def __init__(self, message, code=4):
        super().__init__(message)
        self.code = code


def say(message):
    print(f"agent: {message}", file=sys.stderr, flush=True)


class Ollm:
    """Runs the ollm programs as subprocesses, in the workspace."""

    def __init__(self, command, workspace):
        self.command = shlex.split(command)
        self.workspace = workspace

    def run(self, *args, stdin=None, ok=(0,), timeout=None):
        try:
            done = subprocess.run(
                self.command + list(args),
                input=stdin,
                stdin=None if stdin is not None else subprocess.DEVNULL,
                capture_output=True,
                text=True,
                cwd=self.workspace,
                timeout=timeout,
            )
        except FileNotFoundError:
            raise AgentError(f"{self.command[0]}: not found (put the ollm programs on PATH)", 4)
        if done.returncode not in ok:
            err = done.stderr.strip().splitlines()
            detail = err[-1] if err else f"exit code {done.returncode}"
            raise AgentError(f"ollm {args[0]} failed: {detail}", 3 if done.returncode == 3 else 4)
        return done

    def json(self, *args, stdin=None, ok=(0,)):
        done = self.run(*args, stdin=stdin, ok=ok)
        try:
            return json.loads(done.stdout), done.returncode
        except json.JSONDecodeError as e:
            raise AgentError(f"ollm {args[0]} printed something that is not JSON: {e}")


DEFAULT_URL = "http://127.0.0.1:11434"
DEFAULT_MODEL = "llama3.2:3b"


def start_hint(url):
    """What to start when nothing answers at URL."""
    return (
        f"no model server answers at {url}. Start one: `ollama serve` and "
        f"`ollama pull {DEFAULT_MODEL}` (the default, {DEFAULT_URL}), or give --model-url "
        "and --model of a running llama-server, vLLM or LM Studio (README: \"Your model\")"
    )


class Model:
    """One chat request per step, the reply constrained to the step schema."""

    def __init__(self, api, url, model, max_tokens, temperature, timeout):
        self.api = api
        self.url = url.rstrip("/")
        self.model = model
        self.max_tokens = max_tokens
        self.temperature = temperature
        self.timeout = timeout

    def schema(self, tools):
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

    def check_reachable(self):
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

    def ask(self, messages, tools):
        schema = self.schema(tools)
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
            body = e.read(300).decode("utf-8", errors="replace").strip()
            raise AgentError(f"model server {endpoint}: HTTP {e.code}: {body}")
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


def parse_step(text, tools):
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


class Tools:
    def __init__(self, ollm, workspace, read_limit, output_limit, run_timeout):
        self.ollm = ollm
        self.workspace = os.path.realpath(workspace)
        self.read_limit = read_limit
        self.output_limit = output_limit
        self.run_timeout = run_timeout

    def inside(self, arg):
        """The real path of ARG when it is inside the workspace, else None."""
        try:
            path = os.path.realpath(os.path.join(self.workspace, arg.strip()))
        except ValueError:  # a NUL byte
            return None
        if path == self.workspace or path.startswith(self.workspace + os.sep):
            return path
        return None

    def call(self, tool, arg):
        """Runs a tool; returns (args recorded, llmContent, returnDisplay)."""
        if tool == "list_files":
            return self.list_files(arg)
        if tool == "read_file":
            return self.read_file(arg)
        return self.run(arg)

    def list_files(self, arg):
        args = {"path": arg}
        root = self.inside(arg) if arg.strip() else self.workspace
        note = ""
        if root is None or not os.path.isdir(root):
            note = f"{arg!r} is not a directory in the project; listing the whole project.\n"
            root = self.workspace
        # .ollm/ holds this agent's own state (loopcheck), not the project's files.
        done = self.ollm.run("discover", "--paths", "--sort", root)
        rel = os.path.relpath(root, self.workspace)
        paths = [p if rel == "." else os.path.join(rel, p) for p in done.stdout.splitlines()]
        shown = paths[:200]
        more = f"\n... and {len(paths) - len(shown)} more" if len(paths) > len(shown) else ""
        text = note + ("\n".join(shown) if shown else "(no files)") + more
        return args, text, f"Listed {len(paths)} files"

    def read_file(self, arg):
        args = {"path": arg}
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

    def run(self, command):
        args = {"command": command}
        argv = self.ollm.command + ["env", "run", "--", "sh", "-c", command]
        # A session of its own, so a timeout kills the command's whole process group.
        try:
            child = subprocess.Popen(
                argv,
                cwd=self.workspace,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        except (OSError, ValueError) as e:
            return args, f"Cannot run the command: {e}", "Error: cannot run"
        try:
            out, _ = child.communicate(timeout=self.run_timeout)
            status = f"exit code {child.returncode}"
        except subprocess.TimeoutExpired:
            os.killpg(child.pid, signal.SIGKILL)
            out, _ = child.communicate()
            status = f"killed after {self.run_timeout} s"
        text = out.decode("utf-8", errors="replace")
        if len(text) > self.output_limit:
            text = text[: self.output_limit] + f"\n... (cut at {self.output_limit} characters)"
        return args, f"{text}\n[{status}]", f"Ran `{command}`: {status}"


def text_of(message):
    return "".join(p.get("text", "") for p in message.get("parts", []) if isinstance(p, dict))


def step_json(tool, arg):
    return json.dumps({"tool": tool, "arg": arg})


def tool_arg(record):
    args = record.get("args") or {}
    for key in ("path", "command"):
        if isinstance(args.get(key), str):
            return args[key]
    return json.dumps(args)


def chat_history(messages, tool_calls):
    """Stored messages and tool-call records, merged by timestamp, as chat messages.

    A tool call becomes the assistant's step followed by its result as a user message
    (the constrained protocol has no native tool role). Summaries that compression put
    in the history (system messages) are returned separately, for the system prompt.
    """
    items = [(m.get("timestamp", ""), 0, i, "message", m) for i, m in enumerate(messages)]
    items += [(t.get("timestamp", ""), 1, i, "tool", t) for i, t in enumerate(tool_calls)]
    chat, summaries = [], []
    for _, _, _, kind, item in sorted(items, key=lambda x: x[:3]):
        if kind == "tool":
            chat.append({"role": "assistant", "content": step_json(item["name"], tool_arg(item))})
            result = (item.get("result") or {}).get("llmContent", "")
            chat.append({"role": "user", "content": f"Result of {item['name']}:\n{result}"})
        elif item.get("role") == "system":
            summaries.append(text_of(item))
        else:
            role = "assistant" if item.get("role") == "assistant" else "user"
            content = text_of(item)
            if role == "assistant":
                content = step_json("answer", content)
            chat.append({"role": role, "content": content})
    return chat, summaries


class Agent:
    def __init__(self, opts):
        self.opts = opts
        self.workspace = os.path.realpath(opts.workspace)
        self.ollm = Ollm(opts.ollm, self.workspace)
        self.model = Model(
            opts.api, opts.model_url, opts.model, opts.max_tokens, opts.temperature, opts.timeout
        )
        self.tools = Tools(self.ollm, self.workspace, opts.read_limit, opts.output_limit, opts.run_timeout)
        self.session_id = None

    # -- session
    def open_session(self):
        """The session to resume (exit 3 when there is none), or a new one, created only
        once the model server answers, so a failed start leaves no empty session."""
        session = None
        if self.opts.resume:
            if self.opts.resume == "last":
                # The latest session of this workspace, not another project's.
                session, _ = self.ollm.json("session", "get", "--last", "--here", "--format", "json")
            else:
                session, _ = self.ollm.json("session", "get", self.opts.resume, "--format", "json")
        self.model.check_reachable()
        if session is not None:
            self.session_id = session["sessionId"]
            say(f"resuming session {self.session_id} ({len(session['messages'])} messages)")
        else:
            created, _ = self.ollm.json("session", "create", "--model", self.opts.model, "--provider", self.opts.api)
            self.session_id = created["sessionId"]
            say(f"new session {self.session_id}")
        state_dir = os.path.join(self.workspace, ".ollm")
        os.makedirs(state_dir, exist_ok=True)
        self.loop_state = os.path.join(state_dir, f"loop-{self.session_id}.json")

    def record(self, record):
        self.ollm.run("session", "record", self.session_id, "-", stdin=json.dumps(record))

    def history(self):
        """What the model is sent: the stored history, compressed when it no longer fits."""
        limit = str(self.opts.context_limit)
        verdict, code = self.ollm.json("compress", "check", "--session", self.session_id, "--token-limit", limit, ok=(0, 1))
        if code == 0:
            session, _ = self.ollm.json("session", "get", self.session_id, "--format", "json")
            return chat_history(session["messages"], session["toolCalls"])
        say(f"compressing: {verdict['tokenCount']} tokens over {verdict['triggerAt']:.0f} (limit {limit})")
        result, _ = self.ollm.json(
            "compress", "--session", self.session_id, "--token-limit", limit,
            "--strategy", self.opts.compress_strategy,
            "--summarizer-api", self.opts.api, "--summarizer-url", self.opts.model_url,
            "--summarizer-model", self.opts.model,
        )
        say(f"compressed: {result['status']}, {result['originalTokenCount']} -> {result['compressedTokenCount']} tokens")
        return chat_history(result["compressedMessages"], result.get("compressedToolCalls", []))

    def system_prompt(self, summaries):
        done = self.ollm.run("context", "prompt")
        parts = [BASE_PROMPT]
        if done.stdout.strip():
            parts.append("# Project context\n\n" + done.stdout.strip())
        if summaries:
            parts.append("# Summary of the earlier conversation\n\n" + "\n\n".join(summaries))
        return "\n\n".join(parts)

    def loopcheck(self, events):
        """The pattern of a `warn` verdict, None when quiet; a `stop` ends the program."""
        lines = "".join(json.dumps(e) + "\n" for e in events)
        verdict, code = self.ollm.json("loopcheck", "--state", self.loop_state, stdin=lines, ok=(0, 1))
        pattern = verdict.get("pattern") or {}
        if code == 1 or verdict.get("level") == "stop":
            raise AgentError(
                f"loop detected ({pattern.get('type')}, count {pattern.get('count')}, "
                f"turn {verdict.get('turn')}): {pattern.get('details')}",
                1,
            )
        if verdict.get("loop"):
            say(f"loop warning ({pattern.get('type')}, count {pattern.get('count')}): the next step must answer")
            return pattern
        return None

    # -- one turn
    def turn(self, prompt):
        self.record({"role": "user", "parts": [{"type": "text", "text": prompt}]})
        chat, summaries = self.history()
        messages = [{"role": "system", "content": self.system_prompt(summaries)}] + chat
        events = [{"type": "user", "text": prompt}]
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
                self.record({"role": "assistant", "parts": [{"type": "text", "text": arg}]})
                events.append({"type": "output", "text": arg})
                print(arg, flush=True)
                # The answer is recorded and printed; a loop in it is still reported.
                self.loopcheck(events)
                return
            args, content, display = self.tools.call(tool, arg)
            say(f"step {step}: {tool} {arg!r}: {display}")
            # The result goes through stdin: a tool's output has no size limit.
            self.ollm.run(
                "session", "record", self.session_id, "--tool", tool,
                "--args=" + json.dumps(args), "--display=" + display,
                "--call-id", f"call_{uuid.uuid4().hex[:12]}", "--result", "-",
                stdin=content,
            )
            events.append({"type": "tool", "name": tool, "args": args})
            warned = self.loopcheck(events)
            events = []
            messages.append({"role": "assistant", "content": step_json(tool, arg)})
            messages.append({"role": "user", "content": f"Result of {tool}:\n{content}"})
            if warned is not None:
                messages.append({"role": "user", "content": NUDGE})


def prompts(opts):
    if opts.prompts:
        yield from opts.prompts
        return
    if sys.stdin.isatty():
        print("Type a message; an empty line or end of input stops.", file=sys.stderr)
    for line in sys.stdin:
        line = line.strip()
        if not line:
            return
        yield line


def env_int(name, default):
    """A whole number from the environment (the default of an option), or exit 2."""
    value = os.environ.get(name)
    if value is None:
        return default
    try:
        return int(value)
    except ValueError:
        print(f"agent: {name} must be a whole number, not {value!r}", file=sys.stderr)
        sys.exit(2)


def parse_args(argv):
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
    p.add_argument("--ollm", default="ollm", help="the ollm dispatcher to run")
    opts = p.parse_args(argv)
    # `--resume "a prompt"`: argparse took the prompt as the ID.
    if opts.resume not in (None, "last") and not UUID_RE.match(opts.resume):
        opts.prompts.insert(0, opts.resume)
        opts.resume = "last"
    if opts.max_steps < 1 or (opts.look_first and opts.max_steps < 2):
        p.error("--max-steps must be at least 1 (2 with --look-first)")
    return opts


def main(argv):
    opts = parse_args(argv)
    agent = Agent(opts)
    try:
        agent.open_session()
        for prompt in prompts(opts):
            agent.turn(prompt)
    except AgentError as e:
        say(str(e))
        return e.code
    except KeyboardInterrupt:
        return 130
    finally:
        if agent.session_id:
            say(f"session {agent.session_id}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
