//! The line of a YAML configuration file that sets each key, for `config
//! --show-origin` (`~/.ollm/config.yaml:12`). The files are block-style
//! mappings as a person writes them; a key this reading cannot place (a
//! flow mapping, a key spread over lines) simply has no line, which only
//! leaves the number out of the origin.

use serde_json::{Map, Value};

use super::{keys, tree};

/// Dotted key (as the schema spells it, aliases resolved) → 1-based line.
pub fn key_lines(text: &str) -> std::collections::BTreeMap<String, usize> {
    let mut lines = Value::Object(Map::new());
    let mut parents: Vec<(usize, String)> = Vec::new();
    let mut block_scalar_below: Option<usize> = None;
    for (index, line) in text.lines().enumerate() {
        let body = line.trim_start_matches(' ');
        let indent = line.len() - body.len();
        if let Some(owner) = block_scalar_below {
            if body.trim().is_empty() || indent > owner {
                continue;
            }
            block_scalar_below = None;
        }
        if body.trim().is_empty() || body.starts_with('#') || body.starts_with("---") {
            continue;
        }
        let Some((key, value)) = split_key(body) else {
            continue;
        };
        while parents.last().is_some_and(|(at, _)| *at >= indent) {
            parents.pop();
        }
        let mut path: Vec<&str> = parents.iter().map(|(_, k)| k.as_str()).collect();
        path.push(&key);
        insert_line(&mut lines, &path, index + 1);
        if value.starts_with('|') || value.starts_with('>') {
            block_scalar_below = Some(indent);
        }
        parents.push((indent, key));
    }
    keys::resolve_aliases(&mut lines);
    tree::leaves(&lines)
        .filter_map(|(key, line)| Some((key, usize::try_from(line.as_u64()?).ok()?)))
        .collect()
}

/// `key: value` (or `"key": value`) → the key and what follows its colon,
/// a comment left out; `None` for any other line (a list item, a flow
/// mapping, text).
fn split_key(body: &str) -> Option<(String, &str)> {
    let (key, rest) = if let Some(quote) = body.chars().next().filter(|c| matches!(c, '"' | '\'')) {
        let end = body[1..].find(quote)? + 1;
        (body[1..end].to_string(), body[end + 1..].strip_prefix(':')?)
    } else {
        if body.starts_with(['-', '[', '{', '?', '&', '*', '!', '|', '>']) {
            return None;
        }
        let colon = body
            .match_indices(':')
            .map(|(at, _)| at)
            .find(|&at| body[at + 1..].is_empty() || body[at + 1..].starts_with([' ', '\t']))?;
        (body[..colon].trim_end().to_string(), &body[colon + 1..])
    };
    if key.is_empty() {
        return None;
    }
    let value = rest.trim();
    let value = if value.starts_with('#') { "" } else { value };
    Some((key, value))
}

/// Sets the leaf at `path` to `line`, making the mappings on the way (a
/// parent first seen as a leaf becomes a mapping when a child appears).
fn insert_line(root: &mut Value, path: &[&str], line: usize) {
    let mut node = root;
    for (i, segment) in path.iter().enumerate() {
        if !node.is_object() {
            *node = Value::Object(Map::new());
        }
        let Value::Object(map) = node else { return };
        let last = i + 1 == path.len();
        let slot = map.entry((*segment).to_string()).or_insert(Value::Null);
        if last {
            if !slot.is_object() {
                *slot = Value::from(line);
            }
            return;
        }
        node = slot;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_leaf_key_has_the_line_that_sets_it() {
        let text = "\
# my settings
services:
  session:
    maxSessions: 20   # enough
    \"redact\": true

  compression:
    summarizer:
      url: http://127.0.0.1:8080
      model: 'gemma: small'
  environment:
    allowList:
      - GITHUB_TOKEN
      - 'A: B'
    denyList: [X, Y]
  context:
    note: |
      maxTurns: 9 is text here
      url: not a key
  loopDetection:
    maxTurns: 5
";
        let lines = key_lines(text);
        let at = |key: &str| lines.get(key).copied();
        assert_eq!(at("services.session.maxSessions"), Some(4));
        assert_eq!(at("services.session.redact"), Some(5));
        assert_eq!(at("services.compression.summarizer.url"), Some(9));
        assert_eq!(at("services.compression.summarizer.model"), Some(10));
        assert_eq!(at("services.environment.allowList"), Some(12));
        assert_eq!(at("services.environment.denyList"), Some(15));
        assert_eq!(at("services.context.note"), Some(17));
        assert_eq!(at("services.loopDetection.maxTurns"), Some(21));
        assert_eq!(lines.len(), 8, "{lines:?}");
    }

    #[test]
    fn a_flow_mapping_or_text_gives_no_line_and_no_panic() {
        assert!(key_lines("{services: {session: {maxSessions: 3}}}").is_empty());
        assert!(key_lines("- a\n- b: c\n").is_empty());
        assert!(key_lines("\"unterminated: x\n:\n  : y\n").is_empty());
    }
}
