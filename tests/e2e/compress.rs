//! `ollm-compress` end to end: the built binary on real input, a real model
//! (llama.cpp serving SmolLM2-135M-Instruct) when it is up, and a local HTTP
//! server speaking Ollama's `/api/chat` for that protocol.

use std::net::TcpListener;
use std::time::Duration;

use serde_json::{Value, json};

use crate::on_each_store;
use crate::support::{
    Sandbox, SessionStore, assert_one_line_error, json, real_model, serve, stderr,
};

on_each_store!(
    session_compression_counts_snapshots_and_never_rewrites_the_session,
    the_snapshot_before_compression_holds_the_tool_calls_and_restores_equal,
);

const FIXTURE: &str = include_str!("../fixtures/compress/session.json");

fn msg(role: &str, text: &str, n: u32) -> Value {
    json!({"role": role, "parts": [{"type": "text", "text": text}],
           "timestamp": format!("2026-01-27T10:{:02}:{:02}Z", n / 60, n % 60)})
}

/// A conversation of `turns` user/assistant exchanges after a system prompt.
fn conversation(turns: u32, words: usize) -> Value {
    let mut out = vec![msg("system", "You are a helpful coding assistant.", 0)];
    for t in 0..turns {
        out.push(msg(
            "user",
            &format!("Question {t}: how do I fix bug {t} in module m{t}?"),
            2 * t + 1,
        ));
        let answer = format!(
            "Answer {t}: {}",
            "edit the parser and rerun the tests ".repeat(words)
        );
        out.push(msg("assistant", &answer, 2 * t + 2));
    }
    Value::Array(out)
}

fn run(sandbox: &Sandbox, args: &[&str], input: &Value) -> std::process::Output {
    sandbox
        .cmd("ollm-compress")
        .args(args)
        .write_stdin(input.to_string())
        .output()
        .expect("run ollm-compress")
}

fn texts(out: &Value) -> Vec<String> {
    out["compressedMessages"]
        .as_array()
        .expect("compressedMessages")
        .iter()
        .map(|m| m["parts"][0]["text"].as_str().unwrap_or("").to_string())
        .collect()
}

// ---------------------------------------------------------------- counting

#[test]
fn count_reports_real_bpe_counts_per_message_and_in_total() {
    let sandbox = Sandbox::new();
    let input = json!([
        msg("user", "hello world", 1),
        msg("assistant", "tiktoken is great!", 2)
    ]);
    let out = run(&sandbox, &["count"], &input);
    assert!(out.status.success(), "{}", stderr(&out));
    let v = json(&out);
    assert_eq!(v["tokenizer"], "cl100k_base");
    // tiktoken cl100k_base: 2 and 6 tokens, plus 4 per message.
    assert_eq!(v["messages"][0]["tokens"], 6);
    assert_eq!(v["messages"][1]["tokens"], 10);
    assert_eq!(v["total"], 16);
}

#[test]
fn count_reads_whole_sessions_with_tool_calls() {
    let sandbox = Sandbox::new();
    let path = sandbox.write("session.json", FIXTURE);
    let out = sandbox
        .cmd("ollm-compress")
        .args(["count", path.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let v = json(&out);
    let per: u64 = v["messages"]
        .as_array()
        .unwrap()
        .iter()
        .chain(v["toolCalls"].as_array().unwrap())
        .map(|m| m["tokens"].as_u64().unwrap())
        .sum();
    assert_eq!(per, v["total"].as_u64().unwrap());
    assert_eq!(v["toolCalls"].as_array().unwrap().len(), 8);
    let estimate = run(
        &sandbox,
        &["count", "--tokenizer", "estimate"],
        &serde_json::from_str(FIXTURE).unwrap(),
    );
    assert_ne!(
        json(&estimate)["total"],
        v["total"],
        "the estimate is not the BPE count"
    );
}

// ---------------------------------------------------------------- check

#[test]
fn check_exits_1_when_compression_is_needed_and_0_when_not() {
    let sandbox = Sandbox::new();
    let input = conversation(10, 5);
    let count = json(&run(&sandbox, &["count"], &input))["total"]
        .as_u64()
        .unwrap();

    let needed = run(
        &sandbox,
        &["check", "--token-limit", &(count).to_string()],
        &input,
    );
    assert_eq!(needed.status.code(), Some(1), "{}", stderr(&needed));
    let v = json(&needed);
    assert_eq!(v["needed"], true);
    assert_eq!(v["tokenCount"], count);
    assert_eq!(v["trigger"], "static");

    // threshold × limit == count exactly: not above, so not needed.
    let fits = run(
        &sandbox,
        &[
            "check",
            "--token-limit",
            &(count * 2).to_string(),
            "--threshold",
            "0.5",
        ],
        &input,
    );
    assert_eq!(fits.status.code(), Some(0), "{}", stderr(&fits));
    assert_eq!(json(&fits)["needed"], false);
}

#[test]
fn the_dynamic_trigger_leaves_out_the_system_prompt_and_earlier_summaries() {
    let sandbox = Sandbox::new();
    let mut input = conversation(4, 3);
    let summary = json!({"role": "system", "parts": [{"type": "text", "text": "Goal: x ".repeat(200)}],
                         "compressionSummary": {"replacedCount": 9}});
    input.as_array_mut().unwrap().insert(1, summary);
    let out = run(
        &sandbox,
        &["check", "--token-limit", "1000", "--trigger", "dynamic"],
        &input,
    );
    let v = json(&out);
    let fixed = v["systemPromptTokens"].as_u64().unwrap() + v["summaryTokens"].as_u64().unwrap();
    assert!(v["summaryTokens"].as_u64().unwrap() > 300);
    assert_eq!(v["available"].as_u64().unwrap(), 1000 - fixed);
    assert_eq!(
        v["comparedTokens"].as_u64().unwrap(),
        v["tokenCount"].as_u64().unwrap() - fixed
    );
    assert_eq!(out.status.code(), Some(i32::from(v["needed"] == true)));
    // The same history under the static trigger counts everything.
    let stat = json(&run(&sandbox, &["check", "--token-limit", "1000"], &input));
    assert_eq!(stat["comparedTokens"], stat["tokenCount"]);
}

// ---------------------------------------------------------------- bad input

#[test]
fn bad_input_is_one_line_and_exit_2() {
    let sandbox = Sandbox::new();
    for (input, needle) in [
        ("{not json", "standard input"),
        ("[{\"role\": \"user\", \"parts\": 3}]", "messages[0].parts"),
        ("[{\"parts\": []}]", "role"),
        ("42", "a number"),
        ("", "empty"),
    ] {
        let out = sandbox
            .cmd("ollm-compress")
            .arg("count")
            .write_stdin(input)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{input}: {}", stderr(&out));
        assert_one_line_error(&out, "ollm-compress");
        assert!(stderr(&out).contains(needle), "{input}: {}", stderr(&out));
    }
    let out = sandbox
        .cmd("ollm-compress")
        .write_stdin(vec![b'[', 0xff, b']'])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("UTF-8"));
    let out = sandbox
        .cmd("ollm-compress")
        .args(["check", "missing.json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert_one_line_error(&out, "ollm-compress");
    let out = run(
        &sandbox,
        &["count", "--tokenizer", "gpt7"],
        &conversation(1, 1),
    );
    assert_eq!(out.status.code(), Some(2));
    assert_one_line_error(&out, "ollm-compress");
    let out = run(
        &sandbox,
        &["check", "--threshold", "1.5"],
        &conversation(1, 1),
    );
    assert_eq!(out.status.code(), Some(2));
    assert_one_line_error(&out, "ollm-compress");
}

// ---------------------------------------------------------------- truncate

#[test]
fn truncate_keeps_the_system_prompt_user_messages_recent_turns_and_whole_tool_calls() {
    let sandbox = Sandbox::new();
    let session: Value = serde_json::from_str(FIXTURE).unwrap();
    let out = run(
        &sandbox,
        &[
            "--strategy",
            "truncate",
            "--token-limit",
            "1500",
            "--preserve-recent",
            "300",
        ],
        &session,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let v = json(&out);
    assert_eq!(v["status"], "compressed");
    assert_eq!(v["strategy"], "truncate");
    assert!(v["compressedTokenCount"].as_u64() < v["originalTokenCount"].as_u64());
    assert_eq!(v["withinTarget"], true);
    assert_eq!(v["targetTokens"], 1200);
    let messages = v["compressedMessages"].as_array().unwrap();
    let originals = session["messages"].as_array().unwrap();
    assert_eq!(messages[0], originals[0], "system prompt kept verbatim");
    for user in originals.iter().filter(|m| m["role"] == "user") {
        assert!(messages.contains(user), "user message dropped: {user}");
    }
    assert_eq!(messages.last(), originals.last());
    // Every kept tool-call record is whole (call and result are one record).
    let originals_calls = session["toolCalls"].as_array().unwrap();
    for call in v["compressedToolCalls"].as_array().unwrap() {
        assert!(originals_calls.contains(call));
    }
    assert!(v["compressedToolCalls"].as_array().unwrap().len() < originals_calls.len());
}

#[test]
fn below_the_trigger_nothing_changes_unless_forced() {
    let sandbox = Sandbox::new();
    let input = conversation(3, 2);
    let v = json(&run(&sandbox, &["--strategy", "truncate"], &input));
    assert_eq!(v["status"], "not-needed");
    assert_eq!(v["compressedMessages"], input);
    assert_eq!(v["compressedTokenCount"], v["originalTokenCount"]);
    // Forced, with nothing older than the recent region: rejected, input returned.
    let v = json(&run(
        &sandbox,
        &["--strategy", "truncate", "--force"],
        &input,
    ));
    assert_eq!(v["status"], "rejected-not-smaller");
    assert_eq!(v["compressedMessages"], input);
    assert!(v["reason"].as_str().unwrap().contains("recent"));
}

fn hybrid_args(url: &str) -> Vec<String> {
    [
        "--token-limit",
        "600",
        "--preserve-recent",
        "150",
        "--summary-max-tokens",
        "100",
        "--summarizer-url",
        url,
        "--summarizer-model",
        "m",
    ]
    .iter()
    .map(std::string::ToString::to_string)
    .collect()
}

#[test]
fn ollama_api_chat_protocol() {
    let sandbox = Sandbox::new();
    let summary = "Goal: fix bugs 0-9.\nDecisions: edit the parser.\nFiles and artifacts: m0-m9.\nOpen tasks: none.";
    let (url, seen) = serve(
        json!({"model": "m", "created_at": "2026-01-27T10:00:00Z",
               "message": {"role": "assistant", "content": summary}, "done": true}),
        Duration::ZERO,
        1,
    );
    let input = conversation(10, 5);
    let mut args = hybrid_args(&url);
    args.extend(["--summarizer-api".into(), "ollama".into()]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = run(&sandbox, &args, &input);
    assert!(out.status.success(), "{}", stderr(&out));
    let v = json(&out);
    assert_eq!(v["status"], "compressed", "{v}");
    assert_eq!(v["appliedStrategy"], "hybrid");

    let seen = seen.lock().unwrap();
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0].0, "POST /api/chat HTTP/1.1");
    let body: Value = serde_json::from_str(&seen[0].1).unwrap();
    assert_eq!(body["model"], "m");
    assert_eq!(body["stream"], false);
    assert!(body["options"]["num_predict"].as_u64().unwrap() <= 100);
    assert_eq!(body["messages"][0]["role"], "system");
    assert_eq!(body["messages"][1]["role"], "user");
    let prompt = body["messages"][1]["content"].as_str().unwrap();
    assert!(prompt.contains("Goal:") && prompt.contains("Open tasks:"));
    assert!(
        prompt.contains("Answer 0:"),
        "the old turns are in the prompt"
    );

    let messages = v["compressedMessages"].as_array().unwrap();
    assert_eq!(messages[0], input[0]);
    let summary_msg = messages
        .iter()
        .find(|m| m.get("compressionSummary").is_some())
        .unwrap();
    assert!(
        summary_msg["parts"][0]["text"]
            .as_str()
            .unwrap()
            .contains("Goal: fix bugs 0-9.")
    );
    for user in input
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["role"] == "user")
    {
        assert!(messages.contains(user));
    }
    assert_eq!(messages.last(), input.as_array().unwrap().last());
}

#[test]
fn an_unreachable_summarizer_falls_back_to_truncate_with_a_warning() {
    let sandbox = Sandbox::new();
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("http://127.0.0.1:{port}");
    let args = hybrid_args(&url);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = run(&sandbox, &args, &conversation(10, 5));
    assert_eq!(out.status.code(), Some(0), "never fails the turn");
    let v = json(&out);
    assert_eq!(v["status"], "fallback-truncate");
    assert_eq!(v["appliedStrategy"], "truncate");
    assert!(v["reason"].as_str().unwrap().contains("summarizer"));
    assert!(v["compressedTokenCount"].as_u64() < v["originalTokenCount"].as_u64());
    let err = stderr(&out);
    assert!(
        err.starts_with("ollm-compress: warning: ") && err.contains("falling back to truncate"),
        "{err}"
    );
}

#[test]
fn a_summarizer_timeout_falls_back_to_truncate() {
    let sandbox = Sandbox::new();
    let (url, _) = serve(json!({}), Duration::from_secs(5), 1);
    let mut args = hybrid_args(&url);
    args.extend(["--timeout".into(), "0.5".into()]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = run(&sandbox, &args, &conversation(10, 5));
    let v = json(&out);
    assert_eq!(v["status"], "fallback-truncate");
    assert!(v["reason"].as_str().unwrap().contains("timed out"), "{v}");
}

#[test]
fn an_empty_summary_falls_back_to_truncate() {
    let sandbox = Sandbox::new();
    let (url, _) = serve(
        json!({"choices": [{"message": {"role": "assistant", "content": "  \n"}}]}),
        Duration::ZERO,
        1,
    );
    let args = hybrid_args(&url);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let v = json(&run(&sandbox, &args, &conversation(10, 5)));
    assert_eq!(v["status"], "fallback-truncate");
    assert!(v["reason"].as_str().unwrap().contains("empty"), "{v}");
}

// ---------------------------------------------------------------- command summarizer

#[test]
fn a_summarizer_command_gets_the_prompt_on_stdin() {
    let sandbox = Sandbox::new();
    let input = conversation(10, 5);
    let cmd = "cat > prompt.txt; printf 'Goal: fix every bug\\nOpen tasks: none\\n'";
    let out = run(
        &sandbox,
        &[
            "--token-limit",
            "600",
            "--preserve-recent",
            "150",
            "--summarizer-cmd",
            cmd,
        ],
        &input,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let v = json(&out);
    assert_eq!(v["status"], "compressed");
    assert_eq!(v["summarizer"], format!("command:{cmd}"));
    assert!(texts(&v).iter().any(|t| t.contains("Goal: fix every bug")));
    let prompt = std::fs::read_to_string(sandbox.work.join("prompt.txt")).unwrap();
    assert!(prompt.contains("Answer 0:") && prompt.contains("Decisions:"));

    let out = run(
        &sandbox,
        &[
            "--token-limit",
            "600",
            "--summarizer-cmd",
            "echo broken >&2; exit 3",
        ],
        &input,
    );
    let v = json(&out);
    assert_eq!(v["status"], "fallback-truncate");
    assert!(v["reason"].as_str().unwrap().contains("exit"), "{v}");
}

// ---------------------------------------------------------------- summary check

/// `text` as one model output gives no loop report.
fn assert_quiet_output(sandbox: &Sandbox, text: &str) {
    let events = format!(
        "{}\n{}\n",
        json!({"type": "turn"}),
        json!({"type": "output", "text": text})
    );
    let out = sandbox
        .cmd("ollm-loopcheck")
        .write_stdin(events)
        .output()
        .unwrap();
    assert_eq!(json(&out)["loop"], false, "{text}");
}

/// A degenerate summary, as SmolLM2 wrote one: one paragraph over and over.
const LOOPING: &str = "Goal: fix the bugs. The assistant edits the parser and reruns the tests, and the tests fail again. ";

#[test]
fn a_summary_that_loops_twice_is_refused_and_truncation_says_why() {
    let sandbox = Sandbox::new();
    let (url, seen) = serve(
        json!({"choices": [{"message": {"role": "assistant", "content": LOOPING.repeat(8)}}]}),
        Duration::ZERO,
        2,
    );
    let args = hybrid_args(&url);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = run(&sandbox, &args, &conversation(10, 5));
    assert!(out.status.success(), "{}", stderr(&out));
    let v = json(&out);
    assert_eq!(v["status"], "fallback-truncate", "{v}");
    let why = v["summarizerError"].as_str().unwrap();
    assert!(
        why.starts_with("summary refused: the summary repeats itself")
            && why.contains("refused again after a retry with a stricter prompt at temperature 0"),
        "{why}"
    );
    assert!(
        !texts(&v)
            .iter()
            .any(|t| t.contains("reruns the tests, and")),
        "{v}"
    );
    // Asked twice, the second time stricter and colder.
    let requests = seen.lock().unwrap();
    assert_eq!(requests.len(), 2);
    let second: Value = serde_json::from_str(&requests[1].1).unwrap();
    assert_eq!(second["temperature"], 0.0);
    assert!(
        second["messages"][1]["content"]
            .as_str()
            .unwrap()
            .contains("was refused")
    );
}

#[test]
fn a_refused_summary_is_asked_for_once_more_and_the_retry_used() {
    let sandbox = Sandbox::new();
    // The first call writes a loop, the second a proper summary.
    let cmd = format!(
        "cat > prompt-$(ls prompt-* 2>/dev/null | wc -l).txt; if [ -e tried ]; then printf 'Goal: fix every bug\\nOpen tasks: none\\n'; else touch tried; printf '{}'; fi",
        LOOPING.repeat(8)
    );
    let out = run(
        &sandbox,
        &[
            "--token-limit",
            "600",
            "--preserve-recent",
            "150",
            "--summarizer-cmd",
            &cmd,
        ],
        &conversation(10, 5),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let v = json(&out);
    assert_eq!(v["status"], "compressed", "{v}");
    assert!(
        texts(&v).iter().any(|t| t.contains("Goal: fix every bug")),
        "{v}"
    );
    assert!(
        stderr(&out).contains("first summary refused"),
        "{}",
        stderr(&out)
    );
    let retry = std::fs::read_to_string(sandbox.work.join("prompt-1.txt")).unwrap();
    assert!(
        retry.contains("never repeat") && retry.contains("repeats itself"),
        "{retry}"
    );
}

// ---------------------------------------------------------------- real model

#[test]
fn hybrid_with_a_real_model_over_the_openai_api() {
    let Some(url) = real_model() else { return };
    let sandbox = Sandbox::new();
    // Small, so the 135M model on two busy cores answers in well under the timeout.
    let input = conversation(6, 3);
    let out = run(
        &sandbox,
        &[
            "--token-limit",
            "300",
            "--preserve-recent",
            "60",
            "--summary-max-tokens",
            "120",
            "--summarizer-url",
            &url,
            "--summarizer-model",
            "smollm2",
            "--timeout",
            "600",
        ],
        &input,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let v = json(&out);
    assert!(v["compressedTokenCount"].as_u64() < v["originalTokenCount"].as_u64());
    let messages = v["compressedMessages"].as_array().unwrap();
    assert_eq!(messages[0], input[0]);
    // The 135M model may write a summary that loops: then it is refused,
    // asked for once more, and truncation is used, saying why.
    if v["status"] == "fallback-truncate" {
        let why = v["summarizerError"].as_str().unwrap();
        assert!(why.starts_with("summary refused: "), "{v}");
        assert!(
            why.contains("repeats itself") || why.contains("not shorter"),
            "{v}"
        );
        eprintln!("the real model's summary was refused: {why}");
        return;
    }
    assert_eq!(v["status"], "compressed", "{v}");
    assert_eq!(v["appliedStrategy"], "hybrid");
    let summary = messages
        .iter()
        .find(|m| m.get("compressionSummary").is_some())
        .expect("a summary");
    let text = summary["parts"][0]["text"].as_str().unwrap();
    let body = text.split_once('\n').map_or("", |(_, b)| b);
    assert!(
        body.trim().len() > 10,
        "the model wrote a summary: {text:?}"
    );
    assert!(v["summaryTokens"].as_u64().unwrap() <= 120 + 4);
    // An accepted summary passes the repetition check and is shorter than what it replaced.
    assert_quiet_output(&sandbox, body);
    assert!(
        v["summaryTokens"].as_u64() < summary["compressionSummary"]["replacedTokens"].as_u64(),
        "{v}"
    );
    for user in input
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["role"] == "user")
    {
        assert!(messages.contains(user));
    }
    assert_eq!(messages.last(), input.as_array().unwrap().last());
}

#[test]
fn a_models_tokenizer_json_counts_exactly_what_its_server_counts() {
    let Some(url) = real_model() else { return };
    let sandbox = Sandbox::new();
    let fixture = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/compress/");
    let chat: Value =
        serde_json::from_str(&std::fs::read_to_string(format!("{fixture}session.json")).unwrap())
            .unwrap();
    let tokenizer_json = format!("{fixture}smollm2-tokenizer.json");
    let offline = json(&run(
        &sandbox,
        &["count", "--tokenizer", &tokenizer_json],
        &chat,
    ));
    let served = json(&run(
        &sandbox,
        &["count", "--tokenizer", "server", "--tokenizer-url", &url],
        &chat,
    ));
    assert!(offline["tokenizer"].as_str().unwrap().starts_with("file:"));
    assert_eq!(served["tokenizer"], format!("server:{url}/tokenize"));
    assert_eq!(offline["messages"].as_array().unwrap().len(), 18);
    assert_eq!(offline["messages"], served["messages"]);
    assert_eq!(offline["toolCalls"], served["toolCalls"]);
    assert_eq!(offline["total"], served["total"]);
}

/// SmolLM2's tokenizer.json (tests/fixtures, converted from the served model).
const SMOLLM2_JSON: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/compress/smollm2-tokenizer.json"
);

/// Texts that exercise the tokenizer's rules: special tokens, whitespace
/// runs, digits, contractions, emoji, marks, CJK, code.
const TRICKY_TEXTS: &[&str] = &[
    "hello world",
    "<|im_start|>user\nWhat's 12345 + 678?<|im_end|>\n<|im_start|>assistant\n",
    "    indented\tcode();\n\n\n   trailing   ",
    "The year 2026 has 365 days; call read_file(\"src/main.rs\") now!",
    "Ünïcödé — 東京 🚀 👩‍💻 e\u{301} ½ Ⅻ ٣",
    "DON'T they'll WE'RE it's   \u{a0}\u{3000} x",
    "<|im_",
];

/// The per-message token counts (without the message overhead) `count`
/// prints for `texts` with `tokenizer`.
fn counts(sandbox: &Sandbox, tokenizer: &[&str], texts: &[&str]) -> Vec<u64> {
    let input = Value::Array(
        texts
            .iter()
            .enumerate()
            .map(|(i, text)| msg("user", text, i as u32))
            .collect(),
    );
    let mut args = vec!["count", "--tokenizer"];
    args.extend_from_slice(tokenizer);
    let out = run(sandbox, &args, &input);
    assert!(out.status.success(), "{}", stderr(&out));
    json(&out)["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["tokens"].as_u64().unwrap() - 4)
        .collect()
}

/// The prepared tokenizers in the sandbox's cache.
fn cached_tokenizers(sandbox: &Sandbox) -> Vec<std::path::PathBuf> {
    let dir = sandbox.ollm_home.join("cache/tokenizers");
    match std::fs::read_dir(&dir) {
        Ok(entries) => entries.map(|e| e.unwrap().path()).collect(),
        Err(_) => Vec::new(),
    }
}

#[test]
fn a_tokenizer_json_counts_exactly_as_llama_cpp_tokenize_prepared_and_cached() {
    let Some(url) = real_model() else { return };
    let sandbox = Sandbox::new();
    let exact: Vec<u64> = TRICKY_TEXTS
        .iter()
        .map(|text| {
            let mut reply = ureq::post(format!("{url}/tokenize"))
                .header("content-type", "application/json")
                .send(json!({"content": text}).to_string())
                .unwrap();
            let reply: Value =
                serde_json::from_str(&reply.body_mut().read_to_string().unwrap()).unwrap();
            reply["tokens"].as_array().unwrap().len() as u64
        })
        .collect();
    // Prepared on the first run, read from the cache on the second.
    assert_eq!(counts(&sandbox, &[SMOLLM2_JSON], TRICKY_TEXTS), exact);
    assert_eq!(cached_tokenizers(&sandbox).len(), 1);
    assert_eq!(counts(&sandbox, &[SMOLLM2_JSON], TRICKY_TEXTS), exact);
}

#[test]
fn a_prepared_tokenizer_json_is_reused_not_rebuilt() {
    use std::os::unix::fs::MetadataExt;
    let sandbox = Sandbox::new();
    let first = counts(&sandbox, &[SMOLLM2_JSON], TRICKY_TEXTS);
    let cached = cached_tokenizers(&sandbox);
    assert_eq!(cached.len(), 1, "{cached:?}");
    let before = std::fs::metadata(&cached[0]).unwrap();
    std::thread::sleep(Duration::from_millis(20));
    assert_eq!(counts(&sandbox, &[SMOLLM2_JSON], TRICKY_TEXTS), first);
    let after = std::fs::metadata(&cached[0]).unwrap();
    assert_eq!(
        (after.ino(), after.mtime(), after.mtime_nsec()),
        (before.ino(), before.mtime(), before.mtime_nsec())
    );
    assert_eq!(before.mode() & 0o777, 0o600);
    // The same file at another path is the same entry.
    let copy = sandbox.write(
        "copy/tokenizer.json",
        &std::fs::read_to_string(SMOLLM2_JSON).unwrap(),
    );
    assert_eq!(
        counts(&sandbox, &[copy.to_str().unwrap()], TRICKY_TEXTS),
        first
    );
    assert_eq!(cached_tokenizers(&sandbox), cached);
}

#[test]
fn a_damaged_tokenizer_cache_is_detected_and_rebuilt() {
    let sandbox = Sandbox::new();
    let first = counts(&sandbox, &[SMOLLM2_JSON], TRICKY_TEXTS);
    let entry = cached_tokenizers(&sandbox).remove(0);
    let good = std::fs::read(&entry).unwrap();
    let mut flipped = good.clone();
    let middle = flipped.len() / 2;
    flipped[middle] ^= 0x01;
    for damaged in [flipped, good[..good.len() / 3].to_vec(), Vec::new()] {
        std::fs::write(&entry, &damaged).unwrap();
        assert_eq!(counts(&sandbox, &[SMOLLM2_JSON], TRICKY_TEXTS), first);
        assert_eq!(
            std::fs::read(&entry).unwrap(),
            good,
            "the entry is prepared again"
        );
    }
}

#[test]
fn a_tokenizer_json_counts_the_same_when_the_cache_cannot_be_written() {
    let sandbox = Sandbox::new();
    let first = counts(&sandbox, &[SMOLLM2_JSON], TRICKY_TEXTS);
    let blocked = Sandbox::new();
    // A file where the cache directory would be.
    std::fs::write(blocked.ollm_home.join("cache"), "not a directory").unwrap();
    assert_eq!(counts(&blocked, &[SMOLLM2_JSON], TRICKY_TEXTS), first);
    assert_eq!(counts(&blocked, &[SMOLLM2_JSON], TRICKY_TEXTS), first);
}

#[test]
fn the_server_tokenizer_matches_llama_cpp_tokenize() {
    let Some(url) = real_model() else { return };
    let sandbox = Sandbox::new();
    let text = "Schöne Grüße: the importer's BOM fix landed in src/import/csv.rs.";
    let input = json!([msg("user", text, 1)]);
    let v = json(&run(
        &sandbox,
        &["count", "--tokenizer", "server", "--tokenizer-url", &url],
        &input,
    ));
    assert_eq!(v["tokenizer"], format!("server:{url}/tokenize"));
    let mut reply = ureq::post(format!("{url}/tokenize"))
        .header("content-type", "application/json")
        .send(json!({"content": text}).to_string())
        .unwrap();
    let reply: Value = serde_json::from_str(&reply.body_mut().read_to_string().unwrap()).unwrap();
    let exact = reply["tokens"].as_array().unwrap().len() as u64;
    assert_eq!(v["messages"][0]["tokens"].as_u64().unwrap(), exact + 4);
}

#[test]
fn an_unreachable_tokenizer_server_warns_and_counts_with_cl100k() {
    let sandbox = Sandbox::new();
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let out = run(
        &sandbox,
        &[
            "count",
            "--tokenizer",
            "server",
            "--tokenizer-url",
            &format!("http://127.0.0.1:{port}"),
        ],
        &conversation(1, 1),
    );
    assert!(out.status.success());
    assert_eq!(json(&out)["tokenizer"], "cl100k_base");
    assert!(stderr(&out).contains("warning"));
}

#[test]
fn config_shows_the_compression_keys() {
    let sandbox = Sandbox::new();
    let out = sandbox.cmd("ollm-compress").arg("config").output().unwrap();
    let v = json(&out);
    let c = &v["services"]["compression"];
    assert_eq!(c["tokenizer"], "cl100k");
    assert_eq!(c["trigger"], "static");
    assert_eq!(c["keepUserMessages"], true);
    assert_eq!(c["preserveRecent"], 4096);
}

// ---------------------------------------------------------------- --session

/// A stored session holding the fixture's messages and tool calls.
pub(crate) fn stored_session(sandbox: &Sandbox) -> (String, Value) {
    let out = sandbox
        .cmd("ollm-session")
        .args(["create", "--model", "smollm2", "--provider", "llama.cpp"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let id = json(&out)["sessionId"].as_str().unwrap().to_string();
    let session: Value = serde_json::from_str(FIXTURE).unwrap();
    let mut records: Vec<&Value> = session["messages"].as_array().unwrap().iter().collect();
    records.extend(session["toolCalls"].as_array().unwrap());
    records.sort_by_key(|r| r["timestamp"].as_str().unwrap().to_string());
    let ndjson: String = records.iter().map(|r| format!("{r}\n")).collect();
    let out = sandbox
        .cmd("ollm-session")
        .args(["record", &id])
        .write_stdin(ndjson)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    (id, session)
}

/// `ollm-compress --session id` with a truncation that compresses
/// [`stored_session`]'s history.
pub(crate) fn compress_stored_session(sandbox: &Sandbox, id: &str) -> std::process::Output {
    sandbox
        .cmd("ollm-compress")
        .args(["--session", id, "--strategy", "truncate"])
        .args(["--token-limit", "1700", "--preserve-recent", "300"])
        .output()
        .unwrap()
}

fn get_session(sandbox: &Sandbox, id: &str) -> Value {
    json(
        &sandbox
            .cmd("ollm-session")
            .args(["get", id])
            .output()
            .unwrap(),
    )
}

fn session_compression_counts_snapshots_and_never_rewrites_the_session(store: SessionStore) {
    let Some(sandbox) = Sandbox::on(store) else {
        return;
    };
    let (id, fixture) = stored_session(&sandbox);
    let before = get_session(&sandbox, &id);
    assert_eq!(before["messages"], fixture["messages"]);

    // 1590 tokens of a 1700 limit: 94% usage, above the 0.85 snapshot threshold.
    let args = [
        "--session",
        &id,
        "--strategy",
        "truncate",
        "--token-limit",
        "1700",
        "--preserve-recent",
        "300",
    ];
    let out = sandbox.cmd("ollm-compress").args(args).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let v = json(&out);
    assert_eq!(v["status"], "compressed");
    assert_eq!(v["sessionId"], id.as_str());
    assert_eq!(v["compressionCount"], 1);
    let snapshot = v["snapshotId"]
        .as_str()
        .expect("a snapshot before compressing")
        .to_string();

    let after = get_session(&sandbox, &id);
    assert_eq!(
        after["messages"], before["messages"],
        "messages never rewritten"
    );
    assert_eq!(after["toolCalls"], before["toolCalls"]);
    assert_eq!(after["metadata"]["compressionCount"], 1);
    let history = after["metadata"]["compressionHistory"].as_array().unwrap();
    assert_eq!(history.len(), 1);
    assert_eq!(history[0]["strategy"], "truncate");
    assert_eq!(history[0]["snapshotId"], snapshot.as_str());

    let list = json(
        &sandbox
            .cmd("ollm-session")
            .args(["snapshot", "list", &id])
            .output()
            .unwrap(),
    );
    assert!(list.to_string().contains(&snapshot), "{list}");

    // A run that changes nothing does not count.
    let out = sandbox
        .cmd("ollm-compress")
        .args(["--session", &id, "--token-limit", "100000"])
        .output()
        .unwrap();
    assert_eq!(json(&out)["status"], "not-needed");
    assert_eq!(json(&out)["compressionCount"], 1);
    // Below the snapshot threshold, a forced compression takes no snapshot.
    let out = sandbox
        .cmd("ollm-compress")
        .args([
            "--session",
            &id,
            "--strategy",
            "truncate",
            "--token-limit",
            "4000",
            "--target",
            "1200",
            "--force",
        ])
        .output()
        .unwrap();
    let v = json(&out);
    assert_eq!(v["status"], "compressed", "{v}");
    assert_eq!(v["compressionCount"], 2);
    assert_eq!(v["snapshotId"], Value::Null);
    assert_eq!(
        get_session(&sandbox, &id)["metadata"]["compressionCount"],
        2
    );
}

#[test]
fn session_errors_are_one_line_with_the_documented_codes() {
    let sandbox = Sandbox::new();
    let out = sandbox
        .cmd("ollm-compress")
        .args(["--session", "6f1c2a4e-0000-4000-8000-000000000000"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert_one_line_error(&out, "ollm-compress");
    let out = sandbox
        .cmd("ollm-compress")
        .args(["--session", "../etc/passwd"])
        .output()
        .unwrap();
    // Not a whole id: looked up as a prefix or title, never as a path.
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert_one_line_error(&out, "ollm-compress");
    let (id, _) = stored_session(&sandbox);
    let out = sandbox
        .cmd("ollm-compress")
        .args(["count", "--session", &id, "x.json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_one_line_error(&out, "ollm-compress");
    let out = sandbox
        .cmd("ollm-compress")
        .args(["count", "--session", &id])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(json(&out)["toolCalls"].as_array().unwrap().len(), 8);
}

fn the_snapshot_before_compression_holds_the_tool_calls_and_restores_equal(store: SessionStore) {
    let Some(sandbox) = Sandbox::on(store) else {
        return;
    };
    let (id, _) = stored_session(&sandbox);
    let before = get_session(&sandbox, &id);
    assert!(!before["toolCalls"].as_array().unwrap().is_empty());
    let out = compress_stored_session(&sandbox, &id);
    assert!(out.status.success(), "{}", stderr(&out));
    let snapshot = json(&out)["snapshotId"].as_str().unwrap().to_string();
    let out = sandbox
        .cmd("ollm-session")
        .args(["snapshot", "restore", &snapshot, "--as-session"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let restored = get_session(&sandbox, json(&out)["sessionId"].as_str().unwrap());
    assert_eq!(restored["messages"], before["messages"]);
    assert_eq!(restored["toolCalls"], before["toolCalls"]);
}

#[test]
fn an_unwritable_snapshot_is_a_warning_not_a_failed_turn() {
    let sandbox = Sandbox::new();
    let (id, _) = stored_session(&sandbox);
    // The snapshot directory cannot be made: a file holds its place.
    let blocked = sandbox.work.join("not-a-directory");
    std::fs::write(&blocked, "x").unwrap();
    let out = sandbox
        .cmd("ollm-compress")
        .env("OLLM_SNAPSHOTS_DIR", &blocked)
        .args(["--session", &id, "--strategy", "truncate"])
        .args(["--token-limit", "1700", "--preserve-recent", "300"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let v = json(&out);
    assert_eq!(v["status"], "compressed");
    assert_eq!(v["snapshotId"], Value::Null);
    let warning = v["snapshotWarning"].as_str().expect("a snapshotWarning");
    assert!(warning.contains("not-a-directory"), "{warning}");
    assert_eq!(v["compressionCount"], 1);
}
