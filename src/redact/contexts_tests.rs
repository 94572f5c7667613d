//! The credentials-in-context corpus (`tests/data/credential-contexts.txt`)
//! through the store's redaction, and the table of docs/security.md made
//! from it: the test fails when the page says other than what redaction
//! does.

use std::collections::BTreeMap;

use serde_json::Value;

use super::Scrubber;

#[path = "../../tests/support/credential_contexts.rs"]
mod corpus;

use corpus::{Entry, Form};

/// `entry` as the store keeps it: a text redacted, arguments redacted as
/// a record's are.
fn stored(entry: &Entry) -> String {
    let scrubber = Scrubber::default();
    match entry.form {
        Form::Text => scrubber
            .redact(&entry.body)
            .map_or_else(|| entry.body.clone(), |(text, _)| text),
        Form::Args => {
            let mut args: Value = serde_json::from_str(&entry.body).unwrap();
            scrubber.redact_json(&mut args);
            args.to_string()
        }
    }
}

/// What a look-alike's arguments are unredacted, in the same encoding.
fn as_written(entry: &Entry) -> String {
    match entry.form {
        Form::Text => entry.body.clone(),
        Form::Args => serde_json::from_str::<Value>(&entry.body)
            .unwrap()
            .to_string(),
    }
}

/// Per context: credentials, credentials withheld, look-alikes, look-alikes
/// stored unchanged; and the misses, named.
fn coverage() -> (String, Vec<String>) {
    let mut rows: BTreeMap<String, [usize; 4]> = BTreeMap::new();
    let mut misses = Vec::new();
    for entry in corpus::entries() {
        let row = rows.entry(entry.context.clone()).or_default();
        let kept = stored(&entry);
        if entry.is_look_alike() {
            row[2] += 1;
            if kept == as_written(&entry) {
                row[3] += 1;
            } else {
                misses.push(format!("{}: changed to {kept}", entry.source));
            }
            continue;
        }
        for secret in &entry.secrets {
            row[0] += 1;
            if kept.contains(secret.as_str()) {
                misses.push(format!("{}: {secret} kept in {kept}", entry.source));
            } else {
                row[1] += 1;
            }
        }
    }
    let mut table = String::from(
        "| context | credentials withheld | look-alikes stored unchanged |\n|---|---|---|\n",
    );
    let mut all = [0; 4];
    for (context, counts) in &rows {
        table.push_str(&format!(
            "| {context} | {} of {} | {} of {} |\n",
            counts[1], counts[0], counts[3], counts[2]
        ));
        for (total, count) in all.iter_mut().zip(counts) {
            *total += count;
        }
    }
    table.push_str(&format!(
        "| **all** | **{} of {}** | **{} of {}** |\n",
        all[1], all[0], all[3], all[2]
    ));
    (table, misses)
}

#[test]
fn every_credential_in_context_is_withheld_every_look_alike_kept_and_the_docs_say_so() {
    let (table, misses) = coverage();
    assert!(misses.is_empty(), "{misses:#?}");
    let page = include_str!("../../docs/security.md");
    let open = "<!-- redaction-contexts -->\n";
    let start = page
        .find(open)
        .map(|at| at + open.len())
        .expect("docs/security.md has no <!-- redaction-contexts --> table");
    let end = start + page[start..].find("<!-- /redaction-contexts -->").unwrap();
    assert_eq!(
        &page[start..end],
        table,
        "docs/security.md's table of contexts is out of date; it should be:\n{table}"
    );
}
