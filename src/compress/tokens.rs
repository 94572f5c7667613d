//! Token counting: a BPE tokenizer embedded in the binary (cl100k_base or
//! o200k_base, tables prepared at build time from `tiktoken-rs`'s, nothing
//! built or downloaded at run time: see `bpe`), a model's
//! own Hugging Face `tokenizer.json`, the model server's own `/tokenize`
//! endpoint (llama.cpp), or the characters ÷ 4 estimate when asked for.

use std::path::Path;
use std::time::Duration;

use serde_json::{Value, json};

use super::bpe::Encoding;
use super::hf_bpe::Prepared;
use super::hf_cache;
use super::history::Item;
use crate::diag;
use crate::error::{Error, Result};

/// Tokens a chat template adds around each message (role marker, start and
/// end tokens: `<|im_start|>role\n … <|im_end|>\n` is 4–5 in ChatML).
pub const MESSAGE_OVERHEAD: u64 = 4;

/// The tokenizer names accepted by `services.compression.tokenizer`.
pub(crate) const TOKENIZER_NAMES: &str =
    "cl100k, o200k, server, estimate, or a path to a tokenizer.json";

pub enum Tokenizer {
    Cl100k,
    O200k,
    /// POST `{url}/tokenize` `{"content": …}` → `{"tokens": […]}`.
    Server {
        url: String,
        agent: ureq::Agent,
    },
    Estimate,
    /// A model's own `tokenizer.json` (Hugging Face `tokenizers` format).
    File {
        path: String,
        counter: FileCounter,
    },
}

/// How a `tokenizer.json` is counted: prepared and cached (byte-level BPE,
/// see `hf_bpe`), or by the `tokenizers` crate for any other configuration.
pub enum FileCounter {
    Prepared(Box<Prepared>),
    Crate(Box<tokenizers::Tokenizer>),
}

impl FileCounter {
    /// The counter of the tokenizer.json at `path`, prepared into (or read
    /// from) the cache in `cache_dir`.
    fn load(path: &Path, cache_dir: &Path) -> Result<FileCounter> {
        let cannot_load = |e: &dyn std::fmt::Display| {
            Error::Config(format!(
                "services.compression.tokenizer: cannot load {}: {}",
                path.display(),
                crate::text::one_line(&e.to_string())
            ))
        };
        let hash = hf_cache::file_hash(path).map_err(|e| cannot_load(&e))?;
        if let Some(prepared) = hf_cache::cached(cache_dir, hash) {
            return Ok(FileCounter::Prepared(Box::new(prepared)));
        }
        // Read whole (and hashed again) only when the cache cannot serve.
        let json = std::fs::read(path).map_err(|e| cannot_load(&e))?;
        if let Some(prepared) = hf_cache::load(cache_dir, &json) {
            return Ok(FileCounter::Prepared(Box::new(prepared)));
        }
        let tokenizer = tokenizers::Tokenizer::from_bytes(&json).map_err(|e| cannot_load(&e))?;
        Ok(FileCounter::Crate(Box::new(tokenizer)))
    }

    fn count(&self, path: &str, text: &str) -> Result<u64> {
        Ok(match self {
            FileCounter::Prepared(prepared) => prepared.count(text),
            FileCounter::Crate(tokenizer) => tokenizer
                .encode_fast(text, false)
                .map_err(|e| Error::input(format!("{path}: cannot tokenize: {e}")))?
                .len() as u64,
        })
    }
}

impl Tokenizer {
    /// The tokenizer named in configuration; `server_url` is used by `server`.
    pub(crate) fn from_name(name: &str, server_url: &str, timeout: Duration) -> Result<Tokenizer> {
        match name {
            "cl100k" | "cl100k_base" => Ok(Tokenizer::Cl100k),
            "o200k" | "o200k_base" => Ok(Tokenizer::O200k),
            "estimate" | "chars" => Ok(Tokenizer::Estimate),
            "server" => Ok(Tokenizer::Server {
                url: server_url.trim_end_matches('/').to_string(),
                agent: super::http::agent(timeout),
            }),
            path if path.ends_with(".json") => {
                Tokenizer::tokenizer_json(&crate::paths::expand(path), &hf_cache::default_dir())
            }
            other => Err(Error::Config(format!(
                "services.compression.tokenizer: unknown tokenizer {other:?} (expected one of {TOKENIZER_NAMES})"
            ))),
        }
    }

    /// The model's `tokenizer.json` at `path`, prepared once into `cache_dir`
    /// when its configuration allows (see `hf_bpe`).
    pub fn tokenizer_json(path: &Path, cache_dir: &Path) -> Result<Tokenizer> {
        Ok(Tokenizer::File {
            counter: FileCounter::load(path, cache_dir)?,
            path: path.display().to_string(),
        })
    }

    pub fn name(&self) -> String {
        match self {
            Tokenizer::Cl100k => "cl100k_base".into(),
            Tokenizer::O200k => "o200k_base".into(),
            Tokenizer::Server { url, .. } => format!("server:{url}/tokenize"),
            Tokenizer::Estimate => "estimate (characters / 4)".into(),
            Tokenizer::File { path, .. } => format!("file:{path}"),
        }
    }

    /// Whether counting runs in this process (not on a server, whose
    /// requests are kept one at a time).
    fn counts_in_process(&self) -> bool {
        !matches!(self, Tokenizer::Server { .. })
    }

    /// Tokens in `text` (no message overhead).
    pub fn count(&self, text: &str) -> Result<u64> {
        Ok(match self {
            Tokenizer::Cl100k => Encoding::cl100k()?.count(text),
            Tokenizer::O200k => Encoding::o200k()?.count(text),
            Tokenizer::Estimate => estimate(text),
            Tokenizer::Server { url, agent } => server_count(agent, url, text)?,
            Tokenizer::File { path, counter } => counter.count(path, text)?,
        })
    }

    /// The longest prefix of `text` (cut at a char boundary) of at most `max` tokens.
    pub fn truncate(&self, text: &str, max: u64) -> Result<String> {
        let mut cut = text.len();
        let mut tokens = self.count(text)?;
        while tokens > max && cut > 0 {
            let ratio = max as f64 / tokens as f64 * 0.95;
            cut = ((cut as f64 * ratio) as usize).min(cut - 1);
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            tokens = self.count(&text[..cut])?;
        }
        Ok(text[..cut].to_string())
    }
}

/// The characters ÷ 4 estimate, rounded up.
pub fn estimate(text: &str) -> u64 {
    (text.chars().count() as u64).div_ceil(4)
}

fn server_count(agent: &ureq::Agent, url: &str, text: &str) -> Result<u64> {
    let endpoint = format!("{url}/tokenize");
    let body = json!({ "content": text }).to_string();
    let reply: Value = super::http::post_json(agent, &endpoint, &body).map_err(|e| Error::Io {
        path: format!("tokenizer server {endpoint}").into(),
        message: e.to_string(),
    })?;
    reply
        .get("tokens")
        .and_then(Value::as_array)
        .map(|tokens| tokens.len() as u64)
        .ok_or_else(|| Error::Io {
            path: format!("tokenizer server {endpoint}").into(),
            message: "reply has no `tokens` array".into(),
        })
}

/// Token counts of a timeline, per item and in total.
#[derive(Debug, Clone)]
pub struct Counts {
    pub per_item: Vec<u64>,
    pub total: u64,
    /// The tokenizer that produced the counts.
    pub tokenizer: String,
    /// Why the configured tokenizer was not used (its server failed).
    pub tokenizer_error: Option<String>,
}

impl Counts {
    pub fn of(&self, range: std::ops::Range<usize>) -> u64 {
        self.per_item[range].iter().sum()
    }
}

/// Counts every item (text plus [`MESSAGE_OVERHEAD`]). When the server
/// tokenizer fails, warns and counts with cl100k_base instead, so a turn is
/// never lost to an unreachable tokenizer; `Counts::tokenizer` says which.
pub fn count_items(tokenizer: &Tokenizer, items: &[Item]) -> Result<Counts> {
    match count_with(tokenizer, items) {
        Ok(counts) => Ok(counts),
        Err(err) if matches!(tokenizer, Tokenizer::Server { .. }) => {
            diag::warn(format!("{err}; counting with cl100k_base instead"));
            let mut counts = count_with(&Tokenizer::Cl100k, items)?;
            counts.tokenizer_error = Some(err.to_string());
            Ok(counts)
        }
        Err(err) => Err(err),
    }
}

fn count_with(tokenizer: &Tokenizer, items: &[Item]) -> Result<Counts> {
    let per_item = if tokenizer.counts_in_process() {
        count_on_every_core(tokenizer, items)?
    } else {
        count_each(tokenizer, items)?
    };
    Ok(Counts {
        total: per_item.iter().sum(),
        per_item,
        tokenizer: tokenizer.name(),
        tokenizer_error: None,
    })
}

/// Items per thread below which starting another thread costs more than it
/// saves (a thread's start is tens of microseconds; a message's count, one
/// or two).
const ITEMS_PER_THREAD: usize = 200;

fn count_each(tokenizer: &Tokenizer, items: &[Item]) -> Result<Vec<u64>> {
    items
        .iter()
        .map(|item| Ok(tokenizer.count(&item.text())? + MESSAGE_OVERHEAD))
        .collect()
}

/// `count_each` on contiguous chunks, one per worker thread (messages are counted
/// independently), joined back in order.
fn count_on_every_core(tokenizer: &Tokenizer, items: &[Item]) -> Result<Vec<u64>> {
    let threads = crate::threads::worker_threads();
    count_in_threads(
        tokenizer,
        items,
        threads.min(items.len() / ITEMS_PER_THREAD),
    )
}

fn count_in_threads(tokenizer: &Tokenizer, items: &[Item], threads: usize) -> Result<Vec<u64>> {
    if threads <= 1 {
        return count_each(tokenizer, items);
    }
    let chunk = items.len().div_ceil(threads);
    std::thread::scope(|scope| {
        let others: Vec<_> = items[chunk..]
            .chunks(chunk)
            .map(|part| scope.spawn(move || count_each(tokenizer, part)))
            .collect();
        let mut per_item = count_each(tokenizer, &items[..chunk])?;
        for other in others {
            let counts = other
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic))?;
            per_item.extend(counts);
        }
        Ok(per_item)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bpe_counts_are_real_token_counts() {
        // Reference values from OpenAI's tiktoken for cl100k_base / o200k_base.
        assert_eq!(Tokenizer::Cl100k.count("hello world").unwrap(), 2);
        assert_eq!(Tokenizer::Cl100k.count("").unwrap(), 0);
        assert_eq!(Tokenizer::Cl100k.count("tiktoken is great!").unwrap(), 6);
        assert_eq!(Tokenizer::O200k.count("hello world").unwrap(), 2);
    }

    #[test]
    fn bpe_counts_equal_tiktoken_on_the_fixture_chat() {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/compress/session.json"
        ))
        .unwrap();
        let cl100k = tiktoken_rs::cl100k_base_singleton();
        let o200k = tiktoken_rs::o200k_base_singleton();
        // Whole JSON text and every line: code, prose, escapes, spaces.
        for piece in std::iter::once(text.as_str()).chain(text.lines()) {
            let want = cl100k.encode_ordinary(piece).len() as u64;
            assert_eq!(Tokenizer::Cl100k.count(piece).unwrap(), want, "{piece}");
            let want = o200k.encode_ordinary(piece).len() as u64;
            assert_eq!(Tokenizer::O200k.count(piece).unwrap(), want, "{piece}");
        }
    }

    proptest::proptest! {
        #[test]
        fn bpe_counts_equal_tiktoken_on_random_text(text in "(?s)[a-zA-Z0-9 \\n\\t'.,;:!?/(){}<>\"_=+-]{0,80}|\\PC{0,40}") {
            let cl100k = tiktoken_rs::cl100k_base_singleton();
            let o200k = tiktoken_rs::o200k_base_singleton();
            proptest::prop_assert_eq!(
                Tokenizer::Cl100k.count(&text).unwrap(),
                cl100k.encode_ordinary(&text).len() as u64
            );
            proptest::prop_assert_eq!(
                Tokenizer::O200k.count(&text).unwrap(),
                o200k.encode_ordinary(&text).len() as u64
            );
        }
    }

    #[test]
    fn long_pieces_merge_as_tiktoken_does() {
        // Pieces of 100 bytes and more take tiktoken's heap merge.
        let cl100k = tiktoken_rs::cl100k_base_singleton();
        for text in [
            "x".repeat(150),
            "abcdefghij".repeat(30),
            format!("a{}b", " ".repeat(300)),
            "=-".repeat(120),
            "東京".repeat(60),
        ] {
            let want = cl100k.encode_ordinary(&text).len() as u64;
            assert_eq!(Tokenizer::Cl100k.count(&text).unwrap(), want, "{text}");
        }
    }

    #[test]
    fn counting_in_threads_gives_each_items_count_in_order() {
        let messages: Vec<Value> = (0..1003)
            .map(|i| {
                let text = format!("message {i}: {}", "word ".repeat(i % 37));
                json!({"role": "user", "parts": [{"type": "text", "text": text}]})
            })
            .collect();
        let history = super::super::history::History::from_json(Value::Array(messages)).unwrap();
        let items = &history.items;
        for tokenizer in [Tokenizer::Cl100k, Tokenizer::Estimate] {
            let one_by_one = count_each(&tokenizer, items).unwrap();
            for threads in [2, 3, 7] {
                assert_eq!(
                    count_in_threads(&tokenizer, items, threads).unwrap(),
                    one_by_one
                );
            }
            let counts = count_items(&tokenizer, items).unwrap();
            assert_eq!(counts.per_item, one_by_one);
            assert_eq!(counts.total, one_by_one.iter().sum::<u64>());
        }
    }

    #[test]
    fn the_estimate_is_chars_over_four_rounded_up() {
        assert_eq!(estimate(""), 0);
        assert_eq!(estimate("abcde"), 2);
        assert_eq!(estimate("ééééé"), 2);
    }

    #[test]
    fn truncate_respects_the_budget_and_char_boundaries() {
        let text = "Schöne Grüße aus Köln — ".repeat(50);
        for tokenizer in [Tokenizer::Cl100k, Tokenizer::Estimate] {
            let cut = tokenizer.truncate(&text, 40).unwrap();
            assert!(tokenizer.count(&cut).unwrap() <= 40);
            assert!(text.starts_with(&cut));
            assert!(cut.len() > 20);
        }
    }

    #[test]
    fn long_whitespace_runs_do_not_break_the_bpe() {
        let text = format!("a{}b", " ".repeat(200_000));
        assert!(Tokenizer::Cl100k.count(&text).unwrap() > 0);
    }

    const SMOLLM2: &str = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/compress/smollm2-tokenizer.json"
    );

    fn smollm2() -> Tokenizer {
        let cache = tempfile::tempdir().unwrap();
        Tokenizer::tokenizer_json(Path::new(SMOLLM2), cache.path()).unwrap()
    }

    #[test]
    fn a_models_tokenizer_json_counts_exactly_as_its_server() {
        // Token ids llama.cpp's /tokenize gave for SmolLM2-135M-Instruct, the
        // model the fixture was converted from (bench/gguf_tokenizer_json.py).
        let tokenizer = smollm2();
        assert_eq!(tokenizer.count("hello world").unwrap(), 2);
        let digits = "The year 2026 has 365 days; call read_file(\"src/main.rs\") now!";
        assert_eq!(tokenizer.count(digits).unwrap(), 27);
        assert_eq!(tokenizer.count("Ünïcödé — 東京 🚀").unwrap(), 17);
        assert!(tokenizer.name().starts_with("file:"));
    }

    #[test]
    fn a_tokenizer_json_of_another_configuration_counts_with_the_tokenizers_crate() {
        // A normalizer is not reproduced by the prepared form: the same
        // file with one is counted by the `tokenizers` crate, exactly.
        let dir = tempfile::tempdir().unwrap();
        let mut json: Value =
            serde_json::from_str(&std::fs::read_to_string(SMOLLM2).unwrap()).unwrap();
        json["normalizer"] = json!({"type": "Lowercase"});
        let path = dir.path().join("tokenizer.json");
        std::fs::write(&path, json.to_string()).unwrap();
        let cache = dir.path().join("cache");
        let tokenizer = Tokenizer::tokenizer_json(&path, &cache).unwrap();
        assert!(matches!(
            tokenizer,
            Tokenizer::File {
                counter: FileCounter::Crate(_),
                ..
            }
        ));
        assert!(!cache.exists(), "nothing prepared");
        let reference = tokenizers::Tokenizer::from_file(&path).unwrap();
        for text in ["HELLO World", "<|im_start|>Ünïcödé 2026"] {
            let want = reference.encode_fast(text, false).unwrap().len() as u64;
            assert_eq!(tokenizer.count(text).unwrap(), want, "{text}");
        }
        assert_eq!(
            tokenizer.count("HELLO").unwrap(),
            smollm2().count("hello").unwrap()
        );
    }

    #[test]
    fn smollm2s_tokenizer_json_is_prepared_and_cached() {
        let cache = tempfile::tempdir().unwrap();
        let tokenizer = Tokenizer::tokenizer_json(Path::new(SMOLLM2), cache.path()).unwrap();
        assert!(matches!(
            tokenizer,
            Tokenizer::File {
                counter: FileCounter::Prepared(_),
                ..
            }
        ));
        let json = std::fs::read(SMOLLM2).unwrap();
        let entry = hf_cache::entry(cache.path(), xxhash_rust::xxh3::xxh3_128(&json));
        assert!(entry.is_file());
        assert_eq!(
            hf_cache::file_hash(Path::new(SMOLLM2)).unwrap(),
            xxhash_rust::xxh3::xxh3_128(&json)
        );
    }

    #[test]
    fn a_missing_or_broken_tokenizer_json_is_a_config_error() {
        let err = Tokenizer::from_name("/nonexistent/tokenizer.json", "", Duration::from_secs(1))
            .err()
            .unwrap();
        assert_eq!(err.exit_code(), crate::ExitCode::Config);
        assert!(
            err.to_string().contains("/nonexistent/tokenizer.json"),
            "{err}"
        );
        let dir = tempfile::tempdir().unwrap();
        let broken = dir.path().join("tokenizer.json");
        std::fs::write(&broken, "{\"model\": 3}").unwrap();
        let err = Tokenizer::from_name(broken.to_str().unwrap(), "", Duration::from_secs(1))
            .err()
            .unwrap();
        assert!(!err.to_string().contains('\n'));
    }

    #[test]
    fn unknown_tokenizer_names_are_config_errors() {
        let err = Tokenizer::from_name("gpt2", "", Duration::from_secs(1))
            .err()
            .unwrap();
        assert!(err.to_string().contains("gpt2"));
    }
}
