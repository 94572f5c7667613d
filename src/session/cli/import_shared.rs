//! What `import`, `import --watch` and `import --hook` share: the store
//! they import into, the tools `--from` names, and how results are shown.

use std::path::PathBuf;
use std::sync::Arc;

use clap::builder::PossibleValuesParser;
use serde::Serialize;

use super::{Context, ListFormat};
use crate::config::SessionFormat;
use crate::diag;
use crate::error::Result;
use crate::output::Tabular;
use crate::redact::policy::Redaction;
use crate::session::Store;
use crate::session::import::batch::{Failure, Summary};
use crate::session::import::write::{Imported, Status};
use crate::session::import::{self, Tool};
use crate::text::plural;

/// `--from`'s value for every tool.
pub(super) const AUTO: &str = "auto";

/// What `--from` takes: each importer's name, or `auto`.
pub(super) fn from_values() -> PossibleValuesParser {
    PossibleValuesParser::new(import::tools().map(|tool| tool.name()).chain([AUTO]))
}

/// The tools the `--from`s name, each once, in the importers' order
/// (every one when one is `auto`).
pub(super) fn tools_from(from: &[String]) -> Vec<Tool> {
    import::tools()
        .filter(|tool| from.iter().any(|name| name == AUTO || name == tool.name()))
        .collect()
}

pub(super) fn print_result(
    ctx: &Context,
    format: ListFormat,
    streaming: bool,
    sessions: &[Imported],
    failures: &[Failure],
    summary: &Summary,
) -> Result<()> {
    #[derive(Serialize)]
    struct Last<'a> {
        summary: &'a Summary,
    }
    #[derive(Serialize)]
    struct Whole<'a> {
        sessions: &'a [Imported],
        #[serde(skip_serializing_if = "<[Failure]>::is_empty")]
        failed: &'a [Failure],
        summary: &'a Summary,
    }
    if streaming {
        return ctx.printer().record(&Last { summary });
    }
    match format {
        ListFormat::Json => ctx.printer().object(&Whole {
            sessions,
            failed: failures,
            summary,
        }),
        ListFormat::Ndjson => ctx.printer().record(&Last { summary }),
        ListFormat::Table | ListFormat::Text => {
            let changed: Vec<Imported> = sessions
                .iter()
                .filter(|s| s.status != Status::Unchanged)
                .cloned()
                .collect();
            if !changed.is_empty() {
                ctx.printer().list_as(Some(format), &changed)?;
            }
            ctx.printer().text(&format!("{}\n", sentence(summary)))
        }
    }
}

impl Tabular for Imported {
    fn headers() -> &'static [&'static str] {
        &[
            "TOOL",
            "SESSION",
            "STATUS",
            "MESSAGES",
            "TOOL CALLS",
            "ADDED",
            "TITLE",
        ]
    }

    fn cells(&self) -> Vec<String> {
        vec![
            self.tool.name().to_string(),
            self.session_id.clone(),
            self.status.as_str().to_string(),
            self.messages.to_string(),
            self.tool_calls.to_string(),
            self.added.to_string(),
            self.title.clone().unwrap_or_default(),
        ]
    }

    fn numeric() -> &'static [usize] {
        &[3, 4, 5]
    }
}

/// The store imports go to. Imported sessions are journals whatever
/// services.session.format says: they are often megabytes, which the OLLM
/// CLI's format rewrites whole for every record and `list` parses whole,
/// and the OLLM CLI has no use for them. Redaction is made for bulk text.
pub(super) fn import_store(ctx: &Context) -> Result<Store> {
    let mut config = ctx.load()?.config.clone();
    config.services.session.format = SessionFormat::Journal;
    let config = &config;
    let mut options = Store::options_from(config);
    if options.redaction.is_some() {
        let redaction = Redaction::for_environment(&config.services.environment, |message| {
            diag::warn(message);
        })
        .for_bulk();
        options.redaction = Some(Arc::new(redaction));
    }
    Store::open(
        &config.services.session.store,
        crate::config::session_data_dir(config),
        options,
    )
}

/// What retention does with imported sessions, said at the end of every
/// import that brought some in: they keep their original dates, so a
/// person would otherwise expect the next `create` to delete them first.
pub(super) fn retention_note(max: u64) -> String {
    let limit = match max {
        0 => "no limit".to_string(),
        n => format!("{n}"),
    };
    format!(
        "imported sessions are outside services.session.maxSessions ({limit}): `create` never deletes them; only `delete`, `cleanup` and `clear` do"
    )
}

/// The summary as a person reads it.
fn sentence(s: &Summary) -> String {
    let verb = if s.dry_run {
        "would import"
    } else {
        "imported"
    };
    let mut text = format!(
        "{verb} {} and {} {}updated ({}) from {}; {} unchanged",
        plural(s.imported, "new session", "new sessions"),
        s.updated,
        if s.dry_run { "to be " } else { "" },
        plural(s.added, "record", "records"),
        plural(s.sources, "source", "sources"),
        s.unchanged,
    );
    let unread = s.skipped.unread();
    if unread > 0 {
        text.push_str(&format!(
            "; {} skipped",
            plural(
                unread,
                "unreadable or unknown line",
                "unreadable or unknown lines"
            )
        ));
    }
    let left_out = s.skipped.left_out();
    if left_out > 0 {
        text.push_str(&format!(
            "; {} left out (other branches, copies, text not typed, commands)",
            plural(left_out, "record", "records")
        ));
    }
    if s.skipped.invalid_utf8 > 0 {
        text.push_str(&format!(
            "; {} with invalid UTF-8 read with U+FFFD",
            plural(s.skipped.invalid_utf8, "line", "lines")
        ));
    }
    if s.skipped.cut_fields > 0 {
        text.push_str(&format!(
            "; {} stored cut",
            plural(
                s.skipped.cut_fields,
                "overlong title, directory or model name",
                "overlong title, directory or model names"
            )
        ));
    }
    if s.failed > 0 {
        text.push_str(&format!("; {} failed", s.failed));
    }
    text
}

pub(super) fn names(tools: &[Tool]) -> String {
    tools
        .iter()
        .map(|t| t.name())
        .collect::<Vec<_>>()
        .join(", ")
}

pub(super) fn shown(paths: &[PathBuf]) -> String {
    paths
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::import::Skipped;

    fn summary(count: u64, dry_run: bool) -> Summary {
        Summary {
            dry_run,
            sources: count,
            imported: count,
            updated: count,
            unchanged: count,
            failed: count,
            added: count,
            skipped: Skipped {
                unreadable: count,
                copies: count,
                invalid_utf8: count,
                cut_fields: count,
                ..Skipped::default()
            },
            ..Summary::default()
        }
    }

    #[test]
    fn the_summary_sentence_counts_each_noun_in_its_number() {
        assert_eq!(
            sentence(&summary(1, false)),
            "imported 1 new session and 1 updated (1 record) from 1 source; 1 unchanged; \
             1 unreadable or unknown line skipped; 1 record left out (other branches, \
             copies, text not typed, commands); 1 line with invalid UTF-8 read with \
             U+FFFD; 1 overlong title, directory or model name stored cut; 1 failed"
        );
        assert_eq!(
            sentence(&summary(2, true)),
            "would import 2 new sessions and 2 to be updated (2 records) from 2 sources; \
             2 unchanged; 2 unreadable or unknown lines skipped; 2 records left out \
             (other branches, copies, text not typed, commands); 2 lines with invalid \
             UTF-8 read with U+FFFD; 2 overlong title, directory or model names stored \
             cut; 2 failed"
        );
        assert_eq!(
            sentence(&summary(0, false)),
            "imported 0 new sessions and 0 updated (0 records) from 0 sources; 0 unchanged"
        );
    }
}
