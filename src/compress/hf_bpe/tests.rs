use std::sync::OnceLock;

use proptest::prelude::*;
use serde_json::{Map, Value, json};

use super::prepare::byte_chars;
use super::*;

const SMOLLM2: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/compress/smollm2-tokenizer.json"
);

fn smollm2_json() -> &'static [u8] {
    static JSON: OnceLock<Vec<u8>> = OnceLock::new();
    JSON.get_or_init(|| std::fs::read(SMOLLM2).unwrap())
}

fn smollm2() -> &'static (Prepared, tokenizers::Tokenizer) {
    static BOTH: OnceLock<(Prepared, tokenizers::Tokenizer)> = OnceLock::new();
    BOTH.get_or_init(|| {
        let prepared = Prepared::parse(prepare(smollm2_json()).unwrap()).unwrap();
        let reference = tokenizers::Tokenizer::from_bytes(smollm2_json()).unwrap();
        (prepared, reference)
    })
}

fn reference_count(tokenizer: &tokenizers::Tokenizer, text: &str) -> u64 {
    tokenizer.encode_fast(text, false).unwrap().len() as u64
}

/// Text that exercises every rule: the model's special tokens (whole,
/// cut, adjacent), whitespace runs of several kinds, digits of several
/// scripts, contractions in both cases, emoji, marks, CJK, code.
fn tricky_text() -> impl Strategy<Value = String> {
    let fragments = prop::sample::select(vec![
        "<|im_start|>",
        "<|im_end|>",
        "<|endoftext|>",
        "<|im_",
        "<repo_name>",
        "<reponame>",
        "<file_sep>",
        "<|",
        ">",
        " ",
        "  ",
        "   ",
        "\t",
        "\n",
        "\n\n",
        "\r\n",
        "\u{a0}",
        "\u{3000}",
        "0",
        "42",
        "2026",
        "٣",
        "½",
        "Ⅻ",
        "'s",
        "'S",
        "'ll",
        "'re",
        "don't",
        "hello",
        " world",
        "Schöne",
        "Grüße",
        "東京",
        "🚀",
        "👩‍💻",
        "e\u{301}",
        "fn main() {",
        "src/main.rs",
        "!!",
        "...",
        "->",
        "ſ",
        "\u{200b}",
        "\u{feff}",
        "\u{4}",
        "\u{1d}",
        "!\u{6}!",
    ]);
    prop_oneof![
        prop::collection::vec(fragments, 0..24).prop_map(|parts| parts.concat()),
        "\\PC{0,40}",
        any::<String>(),
    ]
}

proptest! {
    /// A model's tokenizer.json counts exactly as the `tokenizers`
    /// crate counts it (`encode(text, add_special_tokens = false)`).
    #[test]
    fn prepared_tokenizer_json_counts_equal_the_tokenizers_crate(text in tricky_text()) {
        let (prepared, reference) = smollm2();
        prop_assert_eq!(prepared.count(&text), reference_count(reference, &text));
    }
}

#[test]
fn prepared_counts_equal_the_tokenizers_crate_on_the_fixture_chat() {
    let (prepared, reference) = smollm2();
    let text = include_str!("../../../tests/fixtures/compress/session.json");
    let long_runs = [" ".repeat(300), "ab".repeat(200), "1".repeat(50)];
    for piece in std::iter::once(text)
        .chain(text.lines())
        .chain(long_runs.iter().map(String::as_str))
    {
        assert_eq!(
            prepared.count(piece),
            reference_count(reference, piece),
            "{piece}"
        );
    }
}

#[test]
fn preparing_is_deterministic() {
    assert_eq!(prepare(smollm2_json()), prepare(smollm2_json()));
}

/// A tokenizer.json with every byte's token and the given extra vocabulary and merges.
fn tiny(extra: &[&str], merges: &[&str]) -> Value {
    let mut vocab = Map::new();
    for c in byte_chars() {
        vocab.insert(c.to_string(), json!(vocab.len()));
    }
    for token in extra {
        vocab.insert(token.to_string(), json!(vocab.len()));
    }
    json!({
        "version": "1.0", "truncation": null, "padding": null,
        "added_tokens": [{"id": 0, "content": "<s>", "single_word": false, "lstrip": false,
                          "rstrip": false, "normalized": false, "special": true}],
        "normalizer": null,
        "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": false, "trim_offsets": true, "use_regex": true},
        "post_processor": null, "decoder": null,
        "model": {"type": "BPE", "dropout": null, "unk_token": null, "continuing_subword_prefix": null,
                  "end_of_word_suffix": null, "fuse_unk": false, "byte_fallback": false,
                  "vocab": vocab, "merges": merges},
    })
}

fn both(json: &Value, text: &str) -> (u64, u64) {
    let bytes = serde_json::to_vec(json).unwrap();
    let prepared = Prepared::parse(prepare(&bytes).expect("supported")).unwrap();
    let reference = tokenizers::Tokenizer::from_bytes(&bytes).unwrap();
    (prepared.count(text), reference_count(&reference, text))
}

#[test]
fn merges_go_by_the_pairs_rank_not_the_merged_tokens() {
    // "ab" has the lower id (tiktoken would merge it first and then
    // "ab c"), but the pair "b c" comes first in `merges`, and nothing
    // merges "a" with "bc": two tokens.
    let json = tiny(&["ab", "bc", "abc"], &["b c", "a b", "ab c"]);
    assert_eq!(both(&json, "abc"), (2, 2));
    assert_eq!(both(&json, "abc<s>ab"), (4, 4));
}

#[test]
fn a_byte_without_a_token_is_left_out_as_the_tokenizers_crate_does() {
    // No token for "!": "?!?" is one piece whose word is "??".
    let mut json = tiny(&["??"], &["? ?"]);
    json["model"]["vocab"].as_object_mut().unwrap().remove("!");
    assert_eq!(both(&json, "?!?"), (1, 1));
    assert_eq!(both(&json, "!!"), (0, 0));
    assert_eq!(both(&json, "x !!"), (2, 2));
}

#[test]
fn a_repeated_merge_keeps_its_last_rank_as_the_tokenizers_crate_does() {
    let json = tiny(&["ab", "bc", "abc"], &["a b", "b c", "ab c", "a b"]);
    assert_eq!(both(&json, "abc"), (2, 2));
}

#[test]
fn configurations_not_reproduced_exactly_are_left_to_the_tokenizers_crate() {
    let base = tiny(&["ab"], &["a b"]);
    let prepared = |edit: &dyn Fn(&mut Value)| {
        let mut json = base.clone();
        edit(&mut json);
        prepare(&serde_json::to_vec(&json).unwrap())
    };
    assert!(prepared(&|_| {}).is_some());
    let unsupported: [&dyn Fn(&mut Value); 9] = [
        &|j| j["normalizer"] = json!({"type": "NFC"}),
        &|j| j["pre_tokenizer"]["add_prefix_space"] = json!(true),
        &|j| j["pre_tokenizer"]["use_regex"] = json!(false),
        &|j| j["model"]["ignore_merges"] = json!(true),
        &|j| j["model"]["dropout"] = json!(0.1),
        &|j| j["added_tokens"][0]["lstrip"] = json!(true),
        &|j| j["post_processor"] = json!({"type": "TemplateProcessing"}),
        &|j| j["truncation"] = json!({"max_length": 8}),
        &|j| {
            j["model"]["unk_token"] = json!("a");
            j["model"]["vocab"].as_object_mut().unwrap().remove("Ġ");
        },
    ];
    for edit in unsupported {
        assert!(prepared(edit).is_none());
    }
    assert!(prepare(b"{\"model\": 3}").is_none());
}

#[test]
fn a_damaged_or_truncated_prepared_form_is_refused() {
    let bytes = prepare(smollm2_json()).unwrap();
    assert!(Prepared::parse(bytes.clone()).is_some());
    for cut in [0, 7, 16, bytes.len() / 2, bytes.len() - 1] {
        assert!(
            Prepared::parse(bytes[..cut].to_vec()).is_none(),
            "cut at {cut}"
        );
    }
    for at in [10, HEADER + 3, bytes.len() / 2, bytes.len() - 1] {
        let mut damaged = bytes.clone();
        damaged[at] ^= 0x40;
        assert!(Prepared::parse(damaged).is_none(), "flipped at {at}");
    }
}
