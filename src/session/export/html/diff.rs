//! An edit a tool call made, as a unified line diff: what the agents'
//! importers store for Claude Code's `Edit`, `MultiEdit` and `Write`,
//! gemini-cli's `replace` and `write_file`, opencode's `edit` (camelCase
//! keys), and Codex's `apply_patch` (already a patch).

use serde_json::Value;
use similar::TextDiff;

/// Lines of context around each change.
const CONTEXT: usize = 3;

/// The diff of the edit `args` describe, if they describe one.
pub(super) fn of(name: &str, args: &Value) -> Option<String> {
    let text = |keys: &[&str]| keys.iter().find_map(|k| args.get(*k)?.as_str());
    let path = text(&["file_path", "filePath", "path"]).unwrap_or("(no path)");
    if let (Some(old), Some(new)) = (
        text(&["old_string", "oldString"]),
        text(&["new_string", "newString"]),
    ) {
        return Some(unified(path, old, new));
    }
    if let Some(edits) = args.get("edits").and_then(Value::as_array) {
        let hunks: Vec<String> = edits
            .iter()
            .filter_map(|edit| {
                let old = edit.get("old_string").or_else(|| edit.get("oldString"))?;
                let new = edit.get("new_string").or_else(|| edit.get("newString"))?;
                Some(unified(path, old.as_str()?, new.as_str()?))
            })
            .collect();
        return (!hunks.is_empty()).then(|| hunks.concat());
    }
    if let Some(content) = text(&["content"])
        && (name.eq_ignore_ascii_case("write") || name == "write_file")
    {
        return Some(unified(path, "", content));
    }
    let patch = text(&["input", "patch"])?;
    patch
        .trim_start()
        .starts_with("*** Begin Patch")
        .then(|| patch.to_string())
}

fn unified(path: &str, old: &str, new: &str) -> String {
    let mut out = TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(CONTEXT)
        .header(path, path)
        .to_string();
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_edit_is_a_unified_diff_of_its_strings() {
        let d = of(
            "Edit",
            &json!({"file_path": "a.rs", "old_string": "one\ntwo\n", "new_string": "one\n2\n"}),
        )
        .unwrap();
        assert!(
            d.starts_with("--- a.rs\n+++ a.rs\n@@ -1,2 +1,2 @@\n"),
            "{d}"
        );
        assert!(d.contains("\n-two\n+2\n"), "{d}");
    }

    #[test]
    fn multi_edit_write_and_apply_patch_are_diffs_too() {
        let multi = of(
            "MultiEdit",
            &json!({"file_path": "m", "edits": [
                {"old_string": "a", "new_string": "b"}, {"old_string": "c", "new_string": "d"}]}),
        )
        .unwrap();
        assert_eq!(multi.matches("@@").count(), 4, "{multi}");
        let write = of("Write", &json!({"file_path": "w", "content": "x\ny"})).unwrap();
        assert!(write.contains("+x\n+y"), "{write}");
        let patch = "*** Begin Patch\n*** Update File: f\n-a\n+b\n*** End Patch";
        assert_eq!(
            of("apply_patch", &json!({"input": patch})).as_deref(),
            Some(patch)
        );
        assert_eq!(of("Bash", &json!({"command": "ls", "content": "x"})), None);
    }
}
