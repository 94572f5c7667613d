//! Canonical JSON for comparing tool arguments: object keys sorted at every
//! depth, so key order never matters and any nested difference always does.

use serde_json::Value;

/// `value` as compact JSON with object keys sorted recursively.
pub fn canonical(value: &Value) -> String {
    let mut out = String::with_capacity(128);
    write_canonical(value, &mut out);
    out
}

/// Objects with at most this many keys are sorted without an allocation.
const SMALL_OBJECT: usize = 16;

fn write_canonical(value: &Value, out: &mut String) {
    match value {
        Value::Object(map) if map.len() <= SMALL_OBJECT => {
            let mut entries: [Option<(&String, &Value)>; SMALL_OBJECT] = [None; SMALL_OBJECT];
            for (slot, entry) in entries.iter_mut().zip(map.iter()) {
                *slot = Some(entry);
            }
            let entries = &mut entries[..map.len()];
            entries.sort_unstable_by(|a, b| a.map(|e| e.0).cmp(&b.map(|e| e.0)));
            write_object(entries.iter().flatten().copied(), out);
        }
        Value::Object(map) => {
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            entries.sort_unstable_by(|a, b| a.0.cmp(b.0));
            write_object(entries.into_iter(), out);
        }
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_canonical(item, out);
            }
            out.push(']');
        }
        Value::String(text) => write_string(text, out),
        Value::Null => out.push_str("null"),
        Value::Bool(true) => out.push_str("true"),
        Value::Bool(false) => out.push_str("false"),
        Value::Number(n) => {
            use std::fmt::Write;
            let _ = write!(out, "{n}");
        }
    }
}

/// An object's entries, already in key order.
fn write_object<'a>(entries: impl Iterator<Item = (&'a String, &'a Value)>, out: &mut String) {
    out.push('{');
    for (i, (key, child)) in entries.enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_string(key, out);
        out.push(':');
        write_canonical(child, out);
    }
    out.push('}');
}

/// A JSON string as serde_json writes it: most strings need no escape and
/// are copied as they are.
fn write_string(text: &str, out: &mut String) {
    if text.bytes().any(|b| b < 0x20 || b == b'"' || b == b'\\') {
        out.push_str(&Value::String(text.to_string()).to_string());
    } else {
        out.push('"');
        out.push_str(text);
        out.push('"');
    }
}

/// A stable 128-bit hash (xxh3) as 32 hex digits. Stable across runs and
/// versions, so it can live in a state file.
pub fn hash_hex(parts: &[&str]) -> String {
    // One buffer hashed at once: xxh3's streaming state costs more than
    // the copy for inputs this small.
    let mut input = Vec::with_capacity(parts.iter().map(|p| 8 + p.len()).sum());
    for part in parts {
        input.extend_from_slice(&(part.len() as u64).to_le_bytes());
        input.extend_from_slice(part.as_bytes());
    }
    let digest = xxhash_rust::xxh3::xxh3_128(&input);
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut hex = [0u8; 32];
    for (i, byte) in digest.to_be_bytes().into_iter().enumerate() {
        hex[2 * i] = DIGITS[usize::from(byte >> 4)];
        hex[2 * i + 1] = DIGITS[usize::from(byte & 0xf)];
    }
    String::from_utf8(hex.to_vec()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn key_order_does_not_matter_at_any_depth() {
        let a = json!({"b": 1, "a": {"y": [1, {"q": 1, "p": 2}], "x": null}});
        let b = json!({"a": {"x": null, "y": [1, {"p": 2, "q": 1}]}, "b": 1});
        assert_eq!(canonical(&a), canonical(&b));
    }

    #[test]
    fn nested_differences_always_matter() {
        let a = json!({"path": "x", "opts": {"line": 1}});
        let b = json!({"path": "x", "opts": {"line": 2}});
        assert_ne!(canonical(&a), canonical(&b));
        assert_ne!(canonical(&json!([1, 2])), canonical(&json!([2, 1])));
    }

    #[test]
    fn name_and_args_cannot_run_together() {
        assert_ne!(hash_hex(&["ab", "c"]), hash_hex(&["a", "bc"]));
    }

    #[test]
    fn canonical_strings_and_numbers_are_written_as_serde_json_writes_them() {
        for value in [
            json!("plain"),
            json!("quote \" and \\ and \n and \u{1} and \u{7f} and é"),
            json!(-12),
            json!(18446744073709551615u64),
            json!(1.5e300),
            json!(0.1),
            json!(null),
            json!([true, false]),
        ] {
            assert_eq!(canonical(&value), value.to_string());
        }
        let keyed = json!({"b\n": 1, "a\"": 2});
        assert_eq!(canonical(&keyed), r#"{"a\"":2,"b\n":1}"#);
        let many: serde_json::Map<String, Value> = (0..40)
            .rev()
            .map(|i| (format!("k{i:02}"), json!(i)))
            .collect();
        let written = canonical(&Value::Object(many));
        assert!(written.starts_with(r#"{"k00":0,"k01":1,"#), "{written}");
        assert!(written.ends_with(r#""k39":39}"#), "{written}");
    }

    #[test]
    fn hashes_are_32_lowercase_hex_digits_of_the_xxh3_digest() {
        let mut hasher = xxhash_rust::xxh3::Xxh3::new();
        hasher.update(&2u64.to_le_bytes());
        hasher.update(b"ab");
        assert_eq!(hash_hex(&["ab"]), format!("{:032x}", hasher.digest128()));
    }
}
