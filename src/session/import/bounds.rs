//! The longest a field an import stores about a session (besides its
//! records) may be: a source's title, working directory, model or
//! provider is cut there, with [`MARKER`] at the end, and counted in
//! `skipped.cutFields` (as is a start or update time that is not one,
//! dropped). Every listing and search shows these fields, so
//! one hostile row (an opencode session titled with 100 MB) would
//! otherwise make every later command slow; records are not cut.
//!
//! Ids (the source session's and its parent's, each record's key, a tool
//! call's id) identify: a later import finds a session by its source id
//! and skips the records whose keys it holds. Cut with a marker, two ids
//! sharing a head would become one, and a second hostile session would be
//! merged into the first; refused, the whole conversation would be lost
//! for one bad field. So an id past [`ID_BYTES`] is stored as its head and
//! the SHA-256 of the whole ([`id`]): bounded, still one per id, and the
//! same on every import.

use std::borrow::Cow;

use super::{Body, Transcript};

/// What ends a field that was cut.
pub const MARKER: &str = " …[cut]";
/// A title: a line of a listing, generously.
pub const TITLE_BYTES: usize = 1024;
/// A working directory: Linux's `PATH_MAX`.
pub const PATH_BYTES: usize = 4096;
/// A model's or a provider's name.
pub const NAME_BYTES: usize = 256;

/// An id: far longer than any tool's own (UUIDs, `ses_…` row ids, rollout
/// ids, `message:call` keys).
pub const ID_BYTES: usize = 256;

/// `id` as it is stored: itself within [`ID_BYTES`], else its head, then
/// `…[sha256:HEX]` of the whole, [`ID_BYTES`] in all. Applied twice it
/// changes nothing.
pub fn id(id: &str) -> Cow<'_, str> {
    if id.len() <= ID_BYTES {
        return Cow::Borrowed(id);
    }
    let digest = format!("…[{}]", crate::config::trust::fingerprint(Some(id)));
    let mut end = ID_BYTES - digest.len();
    while !id.is_char_boundary(end) {
        end -= 1;
    }
    Cow::Owned(format!("{}{digest}", &id[..end]))
}

/// [`id`] in place; returns whether `text` changed.
fn bound_id(text: &mut String) -> bool {
    match id(text) {
        Cow::Borrowed(_) => false,
        Cow::Owned(bounded) => {
            *text = bounded;
            true
        }
    }
}

/// Cuts `text` to at most `max` bytes (the marker included), at a
/// character's boundary; returns whether it was cut.
pub fn cut(text: &mut String, max: usize) -> bool {
    if text.len() <= max {
        return false;
    }
    let mut end = max.saturating_sub(MARKER.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text.truncate(end);
    text.push_str(MARKER);
    true
}

/// Cuts the fields of `transcript` that are longer than their bound, and
/// counts each cut in its `skipped`. Bounds its records' ids too, and
/// returns how many: a session comes in parts, each with the session's
/// fields again but records of its own, so those the caller adds up.
pub fn bound(transcript: &mut Transcript) -> u64 {
    let mut cuts = u64::from(cut(&mut transcript.source, PATH_BYTES + ID_BYTES));
    cuts += u64::from(bound_id(&mut transcript.source_id));
    if let Some(parent) = transcript.parent_source_id.as_mut() {
        cuts += u64::from(bound_id(parent));
    }
    // A time is shown by every listing too; one that is not a time (a
    // 1 MB string) is dropped, and the records' times are used instead.
    for time in [&mut transcript.started, &mut transcript.updated] {
        if time
            .as_deref()
            .is_some_and(|t| crate::timestamp::parse(t).is_none())
        {
            *time = None;
            cuts += 1;
        }
    }
    let mut ids = 0;
    for item in &mut transcript.items {
        ids += u64::from(bound_id(&mut item.key));
        if let Body::ToolCall(call) = &mut item.body {
            ids += u64::from(bound_id(&mut call.call_id));
        }
    }
    for (field, max) in [
        (&mut transcript.title, TITLE_BYTES),
        (&mut transcript.model, NAME_BYTES),
        (&mut transcript.provider, NAME_BYTES),
    ] {
        if let Some(text) = field.as_mut() {
            cuts += u64::from(cut(text, max));
        }
    }
    if let Some(cwd) = transcript.cwd.take() {
        let mut text = cwd.to_string_lossy().into_owned();
        if cut(&mut text, PATH_BYTES) {
            cuts += 1;
            transcript.cwd = Some(text.into());
        } else {
            transcript.cwd = Some(cwd);
        }
    }
    transcript.skipped.cut_fields += cuts;
    ids
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_field_past_its_bound_is_cut_at_a_character_with_the_marker() {
        let mut short = "fits".to_string();
        assert!(!cut(&mut short, 8));
        assert_eq!(short, "fits");
        // "é" is two bytes: the cut never splits one.
        let mut long = "é".repeat(100);
        assert!(cut(&mut long, 20));
        assert!(long.len() <= 20 && long.ends_with(MARKER), "{long}");
        assert!(long.trim_end_matches(MARKER).chars().all(|c| c == 'é'));
    }

    #[test]
    fn a_long_id_is_bounded_one_per_id_and_the_same_each_time() {
        assert_eq!(id("ses_0123"), "ses_0123");
        let one = format!("{}1", "é".repeat(ID_BYTES));
        let two = format!("{}2", "é".repeat(ID_BYTES));
        let (a, b) = (id(&one), id(&two));
        assert!(a.len() <= ID_BYTES && a.len() > ID_BYTES - 2, "{a}");
        assert!(a.starts_with('é') && a.ends_with(']'), "{a}");
        assert_ne!(a, b, "ids sharing a head stay apart");
        assert_eq!(a, id(&one));
        assert_eq!(id(&a), a, "a bounded id is left as it is");
    }

    #[test]
    fn every_id_of_a_transcript_is_bounded_and_counted() {
        use crate::session::import::{Call, Item, Outcome};
        let long = "i".repeat(ID_BYTES + 1);
        let item = |key: &str, call_id: &str| Item {
            key: key.to_string(),
            timestamp: None,
            body: Body::ToolCall(Call {
                call_id: call_id.to_string(),
                name: "run".into(),
                args: serde_json::Value::Null,
                outcome: Outcome::Done(String::new()),
            }),
        };
        let mut transcript = Transcript {
            source_id: long.clone(),
            parent_source_id: Some(long.clone()),
            source: format!("/db#session/{long}"),
            items: vec![item(&long, "call_1"), item("k2", &long)],
            ..Transcript::default()
        };
        assert_eq!(bound(&mut transcript), 2, "the records' ids");
        assert_eq!(transcript.skipped.cut_fields, 2, "the session's ids");
        assert_eq!(transcript.source_id, id(&long));
        assert_eq!(transcript.parent_source_id.as_deref(), Some(&*id(&long)));
        assert_eq!(transcript.items[0].key, id(&long));
        let Body::ToolCall(call) = &transcript.items[1].body else {
            panic!("a call")
        };
        assert_eq!(call.call_id, id(&long));
    }

    #[test]
    fn a_start_or_update_that_is_not_a_time_is_dropped_and_counted() {
        let mut transcript = Transcript {
            started: Some("2025-10-01T10:00:00.123456Z".into()),
            updated: Some("x".repeat(1 << 20)),
            ..Transcript::default()
        };
        bound(&mut transcript);
        assert_eq!(
            transcript.started.as_deref(),
            Some("2025-10-01T10:00:00.123456Z")
        );
        assert_eq!(transcript.updated, None);
        assert_eq!(transcript.skipped.cut_fields, 1);
    }

    #[test]
    fn each_field_cut_is_counted_once() {
        let mut transcript = Transcript {
            title: Some("t".repeat(TITLE_BYTES + 1)),
            model: Some("m".repeat(NAME_BYTES)),
            provider: Some("p".repeat(NAME_BYTES * 2)),
            cwd: Some(format!("/{}", "d".repeat(PATH_BYTES)).into()),
            ..Transcript::default()
        };
        assert_eq!(bound(&mut transcript), 0);
        assert_eq!(transcript.skipped.cut_fields, 3);
        assert_eq!(transcript.model.as_deref().map(str::len), Some(NAME_BYTES));
        assert!(transcript.title.unwrap().ends_with(MARKER));
        assert!(transcript.cwd.unwrap().to_string_lossy().ends_with(MARKER));
    }
}
