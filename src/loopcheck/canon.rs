//! Canonical JSON for comparing tool arguments: object keys sorted at every
//! depth, so key order never matters and any nested difference always does.

use serde_json::Value;

/// `value` as compact JSON with object keys sorted recursively.
pub fn canonical(value: &Value) -> String {
    let mut out = String::new();
    write_canonical(value, &mut out);
    out
}

fn write_canonical(value: &Value, out: &mut String) {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            out.push('{');
            for (i, key) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(key.clone()).to_string());
                out.push(':');
                write_canonical(&map[key], out);
            }
            out.push('}');
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
        scalar => out.push_str(&scalar.to_string()),
    }
}

/// A stable 128-bit hash (xxh3) as 32 hex digits. Stable across runs and
/// versions, so it can live in a state file.
pub fn hash_hex(parts: &[&str]) -> String {
    let mut hasher = xxhash_rust::xxh3::Xxh3::new();
    for part in parts {
        hasher.update(&(part.len() as u64).to_le_bytes());
        hasher.update(part.as_bytes());
    }
    format!("{:032x}", hasher.digest128())
}

/// The identity of a tool call: its name and canonical arguments (the
/// detector hashes the same two parts).
pub fn call_hash(name: &str, args: &Value) -> String {
    hash_hex(&[name, &canonical(args)])
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
        assert_eq!(call_hash("t", &a), call_hash("t", &b));
    }

    #[test]
    fn nested_differences_always_matter() {
        let a = json!({"path": "x", "opts": {"line": 1}});
        let b = json!({"path": "x", "opts": {"line": 2}});
        assert_ne!(call_hash("read", &a), call_hash("read", &b));
        assert_ne!(
            call_hash("read", &json!([1, 2])),
            call_hash("read", &json!([2, 1]))
        );
    }

    #[test]
    fn name_and_args_cannot_run_together() {
        assert_ne!(hash_hex(&["ab", "c"]), hash_hex(&["a", "bc"]));
    }
}
