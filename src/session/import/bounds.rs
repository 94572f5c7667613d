//! The longest a field an import stores about a session (besides its
//! records) may be: a source's title, working directory, model or
//! provider is cut there, with [`MARKER`] at the end, and counted in
//! `skipped.cutFields`. Every listing and search shows these fields, so
//! one hostile row (an opencode session titled with 100 MB) would
//! otherwise make every later command slow; records are not cut.

use super::Transcript;

/// What ends a field that was cut.
pub const MARKER: &str = " …[cut]";
/// A title: a line of a listing, generously.
pub const TITLE_BYTES: usize = 1024;
/// A working directory: Linux's `PATH_MAX`.
pub const PATH_BYTES: usize = 4096;
/// A model's or a provider's name.
pub const NAME_BYTES: usize = 256;

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
/// counts each cut in its `skipped`.
pub fn bound(transcript: &mut Transcript) {
    let mut cuts = 0;
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
    fn each_field_cut_is_counted_once() {
        let mut transcript = Transcript {
            title: Some("t".repeat(TITLE_BYTES + 1)),
            model: Some("m".repeat(NAME_BYTES)),
            provider: Some("p".repeat(NAME_BYTES * 2)),
            cwd: Some(format!("/{}", "d".repeat(PATH_BYTES)).into()),
            ..Transcript::default()
        };
        bound(&mut transcript);
        assert_eq!(transcript.skipped.cut_fields, 3);
        assert_eq!(transcript.model.as_deref().map(str::len), Some(NAME_BYTES));
        assert!(transcript.title.unwrap().ends_with(MARKER));
        assert!(transcript.cwd.unwrap().to_string_lossy().ends_with(MARKER));
    }
}
