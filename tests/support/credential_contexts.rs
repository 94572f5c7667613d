//! The credentials-in-context corpus, `tests/data/credential-contexts.txt`
//! (its header says the format): read by the redaction unit tests (the
//! coverage table of docs/security.md) and by the end-to-end tests (every
//! write path and every importer).

/// How an entry is recorded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// A tool's output: text.
    Text,
    /// A tool call's arguments: a JSON object.
    Args,
}

/// One entry of the corpus.
#[derive(Debug, Clone)]
pub struct Entry {
    /// The row of the coverage table (`JSON output`, `object keys`, …).
    pub context: String,
    /// What printed it.
    pub source: String,
    /// What must not be stored; empty for a look-alike.
    pub secrets: Vec<String>,
    pub form: Form,
    pub body: String,
}

impl Entry {
    pub fn is_look_alike(&self) -> bool {
        self.secrets.is_empty()
    }
}

/// The corpus's text.
pub const CORPUS: &str = include_str!("../data/credential-contexts.txt");

/// Every entry of [`CORPUS`], in order.
pub fn entries() -> Vec<Entry> {
    parse(CORPUS)
}

fn parse(text: &str) -> Vec<Entry> {
    let mut entries: Vec<Entry> = Vec::new();
    let mut in_body = false;
    for line in text.lines() {
        if let Some(title) = line.strip_prefix("=== ") {
            let (context, source) = title.split_once(" | ").unwrap_or((title, ""));
            entries.push(Entry {
                context: context.trim().to_string(),
                source: source.trim().to_string(),
                secrets: Vec::new(),
                form: Form::Text,
                body: String::new(),
            });
            in_body = false;
            continue;
        }
        let Some(entry) = entries.last_mut() else {
            continue;
        };
        if in_body {
            entry.body.push_str(line);
            entry.body.push('\n');
        } else if let Some(secret) = line.strip_prefix("secret ") {
            entry.secrets.push(secret.to_string());
        } else if let Some(form) = line.strip_prefix("--- ") {
            entry.form = match form.trim() {
                "args" => Form::Args,
                "text" => Form::Text,
                other => panic!("unknown form {other:?} in the corpus"),
            };
            in_body = true;
        }
    }
    for entry in &mut entries {
        let trimmed = entry.body.trim_end_matches('\n').to_string();
        entry.body = trimmed;
        assert!(
            !entry.body.is_empty(),
            "{}: {}: no body",
            entry.context,
            entry.source
        );
        for secret in &entry.secrets {
            assert!(
                entry.body.contains(secret.as_str()),
                "{}: {secret} is not in its body",
                entry.source
            );
        }
        if entry.form == Form::Args {
            let parsed: Result<serde_json::Value, _> = serde_json::from_str(&entry.body);
            assert!(
                parsed.is_ok_and(|v| v.is_object()),
                "{}: args must be a JSON object",
                entry.source
            );
        }
    }
    entries
}
