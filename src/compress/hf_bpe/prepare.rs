//! A `tokenizer.json` prepared into the compact form [`super::Prepared`]
//! reads in place: its options checked against those reproduced exactly,
//! its vocabulary and merges turned into the tables of the layout.

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::{Digits, EMPTY, MAGIC, pair_hash};

/// The prepared form of `tokenizer_json`, or None when its configuration
/// is not one reproduced exactly here (or the file is not valid: the
/// `tokenizers` crate then says what is wrong).
pub fn prepare(tokenizer_json: &[u8]) -> Option<Vec<u8>> {
    let root: Value = serde_json::from_slice(tokenizer_json).ok()?;
    let root = root.as_object()?;
    only_keys(
        root,
        &[
            "version",
            "truncation",
            "padding",
            "added_tokens",
            "normalizer",
            "pre_tokenizer",
            "post_processor",
            "decoder",
            "model",
        ],
    )?;
    for absent in ["truncation", "padding", "normalizer"] {
        is_null(root.get(absent))?;
    }
    if !is_null_or_type(root.get("post_processor"), "ByteLevel")
        || !is_null_or_type(root.get("decoder"), "ByteLevel")
    {
        return None;
    }
    let digits = pre_tokenizer(root.get("pre_tokenizer")?)?;
    let model = root.get("model")?.as_object()?;
    let (byte_id, merges) = model_tables(model)?;
    let added = added_tokens(root.get("added_tokens"))?;
    Some(write(digits, &byte_id, &merges, &added))
}

fn only_keys(object: &Map<String, Value>, known: &[&str]) -> Option<()> {
    object
        .keys()
        .all(|key| known.contains(&key.as_str()))
        .then_some(())
}

fn is_null(value: Option<&Value>) -> Option<()> {
    value.is_none_or(Value::is_null).then_some(())
}

fn is_null_or_type(value: Option<&Value>, kind: &str) -> bool {
    match value {
        None | Some(Value::Null) => true,
        Some(value) => value.get("type").and_then(Value::as_str) == Some(kind),
    }
}

/// `ByteLevel`, or `Sequence[Digits, ByteLevel]` (SmolLM2's), with the
/// ByteLevel expression on and no prefix space.
fn pre_tokenizer(value: &Value) -> Option<Digits> {
    let object = value.as_object()?;
    match object.get("type")?.as_str()? {
        "ByteLevel" => byte_level(object).then_some(Digits::None),
        "Sequence" => {
            only_keys(object, &["type", "pretokenizers"])?;
            match object.get("pretokenizers")?.as_array()?.as_slice() {
                [only] => pre_tokenizer(only).filter(|d| *d == Digits::None),
                [digits, level] => {
                    let digits = digits.as_object()?;
                    only_keys(digits, &["type", "individual_digits"])?;
                    (digits.get("type")?.as_str()? == "Digits").then_some(())?;
                    let split = match digits.get("individual_digits") {
                        Some(Value::Bool(true)) => Digits::Individual,
                        Some(Value::Bool(false)) | None => Digits::Contiguous,
                        Some(_) => return None,
                    };
                    byte_level(level.as_object()?).then_some(split)
                }
                _ => None,
            }
        }
        _ => None,
    }
}

fn byte_level(object: &Map<String, Value>) -> bool {
    let flag = |key: &str, default: bool| match object.get(key) {
        None => Some(default),
        Some(value) => value.as_bool(),
    };
    only_keys(
        object,
        &["type", "add_prefix_space", "trim_offsets", "use_regex"],
    )
    .is_some()
        && object.get("type").and_then(Value::as_str) == Some("ByteLevel")
        && flag("add_prefix_space", true) == Some(false)
        && flag("use_regex", true) == Some(true)
        && flag("trim_offsets", true).is_some()
}

/// A merge: (left id, right id) → (rank, id of the merged token).
type Merges = HashMap<(u32, u32), (u32, u32)>;

/// The id of each byte's ByteLevel character and the merges, as the
/// `tokenizers` BPE builder makes them (a repeated pair keeps its last rank).
fn model_tables(model: &Map<String, Value>) -> Option<([u32; 256], Merges)> {
    only_keys(
        model,
        &[
            "type",
            "dropout",
            "unk_token",
            "continuing_subword_prefix",
            "end_of_word_suffix",
            "fuse_unk",
            "byte_fallback",
            "ignore_merges",
            "vocab",
            "merges",
        ],
    )?;
    (model.get("type")?.as_str()? == "BPE").then_some(())?;
    for absent in ["dropout", "continuing_subword_prefix", "end_of_word_suffix"] {
        is_null(model.get(absent))?;
    }
    match model.get("ignore_merges") {
        None | Some(Value::Null) | Some(Value::Bool(false)) => {}
        Some(_) => return None,
    }
    for flag in ["fuse_unk", "byte_fallback"] {
        match model.get(flag) {
            None | Some(Value::Null) | Some(Value::Bool(_)) => {}
            Some(_) => return None,
        }
    }
    // Without an unknown token or byte fallback, a byte without a token is
    // left out of its word (SmolLM2 has none for a few control characters);
    // with either, every byte must have its token, so neither rule applies.
    let drops_unknown = match model.get("unk_token") {
        None | Some(Value::Null) => model.get("byte_fallback") != Some(&Value::Bool(true)),
        Some(Value::String(_)) => false,
        Some(_) => return None,
    };
    let vocab: HashMap<&str, u32> = model
        .get("vocab")?
        .as_object()?
        .iter()
        .map(|(token, id)| Some((token.as_str(), u32::try_from(id.as_u64()?).ok()?)))
        .collect::<Option<_>>()?;
    let mut byte_id = [EMPTY; 256];
    for (id, c) in byte_id.iter_mut().zip(byte_chars()) {
        match vocab.get(c.encode_utf8(&mut [0; 4]) as &str) {
            Some(&token) => *id = token,
            None if drops_unknown => {}
            None => return None,
        }
    }
    let pairs: Vec<(String, String)> = match model.get("merges")?.as_array()?.first() {
        Some(Value::Array(_)) => model
            .get("merges")?
            .as_array()?
            .iter()
            .map(|pair| match pair.as_array()?.as_slice() {
                [a, b] => Some((a.as_str()?.to_string(), b.as_str()?.to_string())),
                _ => None,
            })
            .collect::<Option<_>>()?,
        _ => model
            .get("merges")?
            .as_array()?
            .iter()
            .map(|line| line.as_str())
            .collect::<Option<Vec<&str>>>()?
            .into_iter()
            .filter(|line| !line.starts_with("#version"))
            .map(
                |line| match line.split(' ').collect::<Vec<_>>().as_slice() {
                    [a, b] => Some((a.to_string(), b.to_string())),
                    _ => None,
                },
            )
            .collect::<Option<_>>()?,
    };
    let mut merges = Merges::with_capacity(pairs.len());
    for (rank, (a, b)) in pairs.iter().enumerate() {
        let new_id = *vocab.get(format!("{a}{b}").as_str())?;
        merges.insert(
            (*vocab.get(a.as_str())?, *vocab.get(b.as_str())?),
            (u32::try_from(rank).ok()?, new_id),
        );
    }
    Some((byte_id, merges))
}

/// GPT-2's `bytes_to_unicode`: the character ByteLevel writes for each byte.
pub(super) fn byte_chars() -> [char; 256] {
    let mut chars = ['\0'; 256];
    let mut next = 256u32;
    for (b, c) in chars.iter_mut().enumerate() {
        let printable = matches!(b, 33..=126 | 161..=172 | 174..=255);
        let code = if printable {
            b as u32
        } else {
            next += 1;
            next - 1
        };
        *c = char::from_u32(code).unwrap_or('\0');
    }
    chars
}

/// The added tokens' contents, when each is matched as it is written
/// (no stripping, no single-word rule, all matched in the same pass).
fn added_tokens(value: Option<&Value>) -> Option<Vec<String>> {
    let Some(tokens) = value.filter(|v| !v.is_null()) else {
        return Some(Vec::new());
    };
    let mut contents = Vec::new();
    let mut normalized = None;
    for token in tokens.as_array()? {
        let token = token.as_object()?;
        only_keys(
            token,
            &[
                "id",
                "content",
                "single_word",
                "lstrip",
                "rstrip",
                "normalized",
                "special",
            ],
        )?;
        token.get("id")?.as_u64()?;
        for off in ["single_word", "lstrip", "rstrip"] {
            (!token.get(off)?.as_bool()?).then_some(())?;
        }
        token.get("special")?.as_bool()?;
        let this = token.get("normalized")?.as_bool()?;
        (*normalized.get_or_insert(this) == this).then_some(())?;
        let content = token.get("content")?.as_str()?;
        if content.is_empty() || contents.iter().any(|c| c == content) {
            return None;
        }
        contents.push(content.to_string());
    }
    Some(contents)
}

fn write(digits: Digits, byte_id: &[u32; 256], merges: &Merges, added: &[String]) -> Vec<u8> {
    let slots = (merges.len() * 2).next_power_of_two().max(2);
    let mut slot = vec![[0, 0, EMPTY, 0]; slots];
    // Sorted, so that the same file always prepares to the same bytes.
    let mut entries: Vec<_> = merges.iter().collect();
    entries.sort_unstable();
    for (&(left, right), &(rank, new_id)) in entries {
        let mut i = pair_hash(left, right) & (slots - 1);
        while slot[i][2] != EMPTY {
            i = (i + 1) & (slots - 1);
        }
        slot[i] = [left, right, rank, new_id];
    }
    let pool_len: usize = added.iter().map(String::len).sum();
    let mut body = Vec::new();
    let digits = match digits {
        Digits::None => 0u32,
        Digits::Contiguous => 1,
        Digits::Individual => 2,
    };
    for n in [digits, slots as u32, added.len() as u32, pool_len as u32] {
        body.extend_from_slice(&n.to_le_bytes());
    }
    for n in byte_id.iter().chain(slot.iter().flatten()) {
        body.extend_from_slice(&n.to_le_bytes());
    }
    let mut start = 0u32;
    for token in added {
        body.extend_from_slice(&start.to_le_bytes());
        start += token.len() as u32;
    }
    body.extend_from_slice(&start.to_le_bytes());
    for token in added {
        body.extend_from_slice(token.as_bytes());
    }
    let mut out = MAGIC.to_vec();
    out.extend_from_slice(&xxhash_rust::xxh3::xxh3_64(&body).to_le_bytes());
    out.extend_from_slice(&body);
    out
}
