//! Every page of docs/ is reached from the README, and every relative link
//! of the README and the pages names a file that exists, and an anchor that
//! its page has.

use std::collections::BTreeSet;
use std::path::{Component, Path, PathBuf};

use super::{page_paths, read, root};

/// The link targets of a Markdown text, with their lines: `[text](target)`
/// and `![alt](target)` outside code blocks and code spans.
fn links(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut in_fence = false;
    for (index, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            continue;
        }
        let mut in_code = false;
        let chars: Vec<char> = line.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            match chars[i] {
                '`' => in_code = !in_code,
                ']' if !in_code && chars.get(i + 1) == Some(&'(') => {
                    let mut depth = 0;
                    let mut target = String::new();
                    for &c in &chars[i + 2..] {
                        match c {
                            '(' => depth += 1,
                            ')' if depth == 0 => break,
                            ')' => depth -= 1,
                            _ => {}
                        }
                        target.push(c);
                    }
                    i += 2 + target.chars().count();
                    out.push((index + 1, target));
                }
                _ => {}
            }
            i += 1;
        }
    }
    out
}

/// A heading's anchor as GitHub makes it: lower case, punctuation but `-`
/// and `_` dropped, spaces made `-`.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a page: its headings' (a repeated one numbered `-1`,
/// `-2`, as GitHub does) and the `<a id="…">` it holds.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut in_fence = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            continue;
        }
        let hashes = line.chars().take_while(|&c| c == '#').count();
        if (1..=6).contains(&hashes) && line[hashes..].starts_with(' ') {
            let base = slug(&line[hashes..]);
            let mut anchor = base.clone();
            let mut n = 0;
            while out.contains(&anchor) {
                n += 1;
                anchor = format!("{base}-{n}");
            }
            out.insert(anchor);
        }
        for (at, _) in line.match_indices("<a id=\"") {
            let rest = &line[at + "<a id=\"".len()..];
            if let Some(end) = rest.find('"') {
                out.insert(rest[..end].to_string());
            }
        }
    }
    out
}

/// `path` relative to the repository's root, `.` and `..` resolved.
fn normal(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// What a relative link of `page` points at, from the repository's root,
/// and its anchor; None for a link with a scheme (`https:`, `mailto:`).
fn resolve(page: &str, target: &str) -> Option<(PathBuf, Option<String>)> {
    let target = target.split_whitespace().next().unwrap_or("");
    if target.contains("://") || target.starts_with("mailto:") {
        return None;
    }
    let (path, anchor) = match target.split_once('#') {
        Some((path, anchor)) => (path, Some(anchor.to_string())),
        None => (target, None),
    };
    let page_dir = Path::new(page).parent().unwrap_or(Path::new(""));
    let file = if path.is_empty() {
        PathBuf::from(page)
    } else {
        normal(&page_dir.join(path))
    };
    Some((file, anchor))
}

/// The relative links of `page` (whose text is `text`) that name no file,
/// or an anchor their Markdown page does not have.
fn broken_links(page: &str, text: &str) -> Vec<String> {
    let mut broken = Vec::new();
    for (line, target) in links(text) {
        let Some((file, anchor)) = resolve(page, &target) else {
            continue;
        };
        let same_page = file == Path::new(page);
        if !same_page && (file.as_os_str().is_empty() || !root().join(&file).exists()) {
            broken.push(format!("{page}:{line}: ({target}): no such file"));
            continue;
        }
        let Some(anchor) = anchor else { continue };
        if file.extension().is_some_and(|e| e == "md") {
            let target_text = if same_page {
                text.to_string()
            } else {
                read(&file.to_string_lossy())
            };
            if !anchors(&target_text).contains(&anchor) {
                broken.push(format!(
                    "{page}:{line}: ({target}): {} has no heading or <a id> for #{anchor}",
                    file.display()
                ));
            }
        }
    }
    broken
}

#[test]
fn every_docs_page_is_linked_from_the_readme() {
    let linked: BTreeSet<PathBuf> = links(&read("README.md"))
        .into_iter()
        .filter_map(|(_, target)| resolve("README.md", &target))
        .map(|(file, _)| file)
        .collect();
    let missing: Vec<String> = page_paths()
        .into_iter()
        .filter(|page| page != "README.md" && !linked.contains(Path::new(page)))
        .collect();
    assert!(
        missing.is_empty(),
        "pages of docs/ that the README links to nowhere (a newcomer never finds them): {missing:?}"
    );
}

#[test]
fn every_relative_link_of_the_readme_and_the_docs_resolves() {
    let broken: Vec<String> = page_paths()
        .iter()
        .flat_map(|page| broken_links(page, &read(page)))
        .collect();
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn a_link_to_a_missing_file_or_anchor_is_found() {
    let text = "[ok](ollm.md#completion) [gone](nope.md) [`x`](ollm.md#no-such)\n\
                `[code](nope.md)`\n```sh\n[fence](nope.md)\n```\n[up](../README.md#install) \
                [web](https://example.com/x) [here](#a-b_c)\n## A b_c!\n";
    let broken = broken_links("docs/x.md", text);
    assert_eq!(broken.len(), 2, "{broken:#?}");
    assert!(
        broken[0].starts_with("docs/x.md:1: (nope.md)"),
        "{broken:?}"
    );
    assert!(broken[1].contains("#no-such"), "{broken:?}");
}

#[test]
fn anchors_are_made_as_github_makes_them() {
    let found = anchors(
        "# Python: pip install ollm-tools\n## --redact-output\n## Finding 100,000: the index\n\
         ## The examples' placeholders\n## Speed\n## Speed\n<a id=\"kept\"></a>\n```sh\n# not a heading\n```\n",
    );
    let expected = [
        "python-pip-install-ollm-tools",
        "--redact-output",
        "finding-100000-the-index",
        "the-examples-placeholders",
        "speed",
        "speed-1",
        "kept",
    ];
    assert_eq!(
        found,
        expected
            .iter()
            .map(ToString::to_string)
            .collect::<BTreeSet<_>>()
    );
}
