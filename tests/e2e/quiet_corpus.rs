//! Every loop rule on real text no one here wrote, read where it
//! stands on every machine (see `tests/data/loops/README.md`): the
//! CHANGELOG, CHANGES and README of every crate in the local cargo
//! registry, Debian's changelogs, man pages, and the docstrings of
//! Python's standard library. Each document is cut into outputs of at most
//! 4 KB, as an agent asked for release notes or a reference would write
//! them, and each output is streamed in chunks of 20 to 200 characters:
//! not one `warn`, not one `stop`.

use std::path::{Path, PathBuf};
use std::process::Command;

use ollm::loopcheck::{Detector, Event, Settings};
use serde_json::Value;

use crate::repeated_content::{assert_stream_is_quiet, events, streamed};

/// The longest output a document is cut into, in bytes.
const OUTPUT_BYTES: usize = 4096;

/// Of a long document (a Debian changelog, a man page), the first bytes
/// read: its newest entries, its synopsis and options.
const DOCUMENT_BYTES: usize = 16 * 1024;

/// One document: where it comes from and its text.
pub struct Document {
    pub source: String,
    pub text: String,
}

fn sorted_glob(dir: &Path, keep: impl Fn(&Path) -> bool) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| keep(p))
                .collect()
        })
        .unwrap_or_default();
    found.sort();
    found
}

fn cargo_home() -> PathBuf {
    std::env::var_os("CARGO_HOME").map_or_else(
        || PathBuf::from(std::env::var_os("HOME").unwrap()).join(".cargo"),
        PathBuf::from,
    )
}

/// `CHANGELOG.md`, `CHANGES.md` and `README.md` of every crate the
/// registry holds (the project's dependencies, after `cargo fetch`).
fn registry_documents() -> Vec<Document> {
    let mut out = Vec::new();
    for index in sorted_glob(&cargo_home().join("registry/src"), Path::is_dir) {
        for krate in sorted_glob(&index, Path::is_dir) {
            for name in ["CHANGELOG.md", "CHANGES.md", "README.md"] {
                let path = krate.join(name);
                if let Ok(text) = std::fs::read_to_string(&path) {
                    out.push(Document {
                        source: path.display().to_string(),
                        text,
                    });
                }
            }
        }
    }
    out
}

/// The first [`DOCUMENT_BYTES`] of a gzip file, decompressed by `zcat`.
fn gunzip_head(path: &Path) -> Option<String> {
    let out = Command::new("zcat").arg(path).output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    Some(head(&text, DOCUMENT_BYTES).to_string())
}

/// The longest prefix of `text` of at most `bytes` bytes ending at a line end.
fn head(text: &str, bytes: usize) -> &str {
    if text.len() <= bytes {
        return text;
    }
    let mut cut = bytes;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    text[..cut]
        .rfind('\n')
        .map_or(&text[..cut], |end| &text[..=end])
}

/// Every `step`-th of Debian's changelogs of the installed packages: the
/// maintainers' and upstream authors' own logs.
fn debian_changelogs(step: usize) -> Vec<Document> {
    let packages = sorted_glob(Path::new("/usr/share/doc"), Path::is_dir);
    let mut out = Vec::new();
    for package in packages.iter().step_by(step) {
        for name in ["changelog.Debian.gz", "changelog.gz"] {
            let path = package.join(name);
            if let Some(text) = path.is_file().then(|| gunzip_head(&path)).flatten() {
                out.push(Document {
                    source: path.display().to_string(),
                    text,
                });
            }
        }
    }
    out
}

/// Every `step`-th man page of section 1, its roff source read as text.
fn man_pages(step: usize) -> Vec<Document> {
    let pages = sorted_glob(Path::new("/usr/share/man/man1"), |p| {
        p.extension().is_some_and(|e| e == "gz")
    });
    pages
        .iter()
        .step_by(step)
        .filter_map(|path| {
            let roff = gunzip_head(path)?;
            Some(Document {
                source: path.display().to_string(),
                text: roff_to_text(&roff),
            })
        })
        .collect()
}

/// The words of a man page's roff source: requests dropped, the text of
/// font macros (`.B word`) and section headings kept, escapes read.
fn roff_to_text(roff: &str) -> String {
    let mut out = String::new();
    for line in roff.lines() {
        let text = if let Some(request) = line.strip_prefix(['.', '\'']) {
            let (name, args) = request
                .trim_start()
                .split_once(' ')
                .unwrap_or((request, ""));
            match name {
                "SH" | "SS" => format!("\n{}\n", args.replace('"', "")),
                "B" | "I" | "BR" | "IR" | "RB" | "BI" | "IB" | "RI" | "SM" | "SB" => {
                    args.replace('"', "")
                }
                "PP" | "LP" | "P" | "TP" | "IP" | "sp" | "br" => {
                    out.push('\n');
                    args.trim_matches('"').to_string()
                }
                _ => continue,
            }
        } else {
            line.to_string()
        };
        out.push_str(&roff_escapes(&text));
        out.push('\n');
    }
    out
}

/// `\fB`, `\-`, `\(em`, `\*(R` … read as the characters they print.
fn roff_escapes(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('f') => {
                if chars.next() == Some('(') {
                    chars.next();
                    chars.next();
                }
            }
            Some('(') => {
                let name: String = chars.by_ref().take(2).collect();
                out.push_str(match name.as_str() {
                    "em" | "en" => "-",
                    "aq" => "'",
                    "lq" | "rq" => "\"",
                    "bu" => "*",
                    _ => " ",
                });
            }
            Some('*') => {
                if chars.next() == Some('(') {
                    chars.next();
                    chars.next();
                }
            }
            Some('s') => {
                if chars.peek().is_some_and(|c| *c == '-' || *c == '+') {
                    chars.next();
                }
                chars.next();
            }
            Some('e') => out.push('\\'),
            Some('-') => out.push('-'),
            Some('^' | '|' | '&' | '%' | ':') | None => {}
            Some(' ' | '~') => out.push(' '),
            Some(other) => out.push(other),
        }
    }
    out
}

/// What prints the docstrings of every public module of Python's standard
/// library (its tests, its IDE and installed packages aside), one document per module, read from the sources with `ast`
/// (nothing is imported or run).
const DOCSTRINGS: &str = r#"
import ast, json, pathlib, sysconfig
root = pathlib.Path(sysconfig.get_paths()["stdlib"])
for path in sorted(root.rglob("*.py")):
    parts = path.relative_to(root).parts
    if any(p.startswith("_") or p in ("test", "tests", "site-packages", "idlelib") for p in parts):
        continue
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (SyntaxError, UnicodeDecodeError):
        continue
    module = ".".join(path.relative_to(root).with_suffix("").parts)
    nodes = [(module, tree)] + [(f"{module}.{n.name}", n) for n in ast.walk(tree)
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
            and not n.name.startswith("_")]
    docs = [(name, ast.get_docstring(n)) for name, n in nodes]
    text = "\n\n".join(f"{name}\n\n{doc}" for name, doc in docs if doc)
    if text:
        print(json.dumps({"source": str(path), "text": text}))
"#;

/// The docstrings of Python's standard library, as `inspect.cleandoc`
/// gives them (the text `help()` and pydoc show), each after the name it
/// documents.
fn python_docstrings() -> Vec<Document> {
    let out = Command::new("python3")
        .args(["-c", DOCSTRINGS])
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|line| {
            let doc: Value = serde_json::from_str(line).unwrap();
            Document {
                source: doc["source"].as_str().unwrap().to_string(),
                text: doc["text"].as_str().unwrap().to_string(),
            }
        })
        .collect()
}

/// `git log --stat` of each repository named in `OLLM_QUIET_GIT_REPOS`
/// (colon-separated git directories), for measuring on real projects'
/// histories where a developer has them; no machine has them by default.
fn git_logs() -> Vec<Document> {
    let Some(repos) = std::env::var_os("OLLM_QUIET_GIT_REPOS") else {
        return Vec::new();
    };
    std::env::split_paths(&repos)
        .map(|repo| {
            let out = Command::new("git")
                .arg("--git-dir")
                .arg(&repo)
                .args(["log", "-n", "2000", "--stat"])
                .output()
                .expect("git runs");
            Document {
                source: format!("git log of {}", repo.display()),
                text: String::from_utf8_lossy(&out.stdout).into_owned(),
            }
        })
        .collect()
}

/// The outputs `text` is cut into, as an agent would write it in parts:
/// at most [`OUTPUT_BYTES`] each, cut at the last paragraph's end outside
/// a fenced code block (or at a line's end if there is none).
fn outputs(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while !rest.trim().is_empty() {
        let mut in_code = false;
        let (mut paragraph_end, mut line_end) = (None, None);
        let mut at = 0;
        for line in rest.split_inclusive('\n') {
            if at + line.len() > OUTPUT_BYTES && line_end.is_some() {
                break;
            }
            at += line.len();
            let trimmed = line.trim_start();
            if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
                in_code = !in_code;
            }
            line_end = Some(at);
            if !in_code && trimmed.is_empty() {
                paragraph_end = Some(at);
            }
        }
        let cut = paragraph_end.or(line_end).unwrap_or(rest.len());
        out.push(&rest[..cut]);
        rest = &rest[cut..];
    }
    out
}

/// The whole quiet corpus, by source: (name, documents).
fn corpus() -> Vec<(&'static str, Vec<Document>)> {
    vec![
        ("cargo registry", registry_documents()),
        ("Debian changelogs", debian_changelogs(3)),
        ("man pages", man_pages(40)),
        ("Python docstrings", python_docstrings()),
        ("git logs", git_logs()),
    ]
}

/// Every report the detector gives on one output streamed in chunks.
fn reports(detector: &mut Detector, settings: &Settings, output: &str, seed: u64) -> Vec<Value> {
    detector.push(&Event::Reset, settings);
    detector.push(
        &Event::User {
            text: "Please write it.".into(),
        },
        settings,
    );
    detector.push(&Event::Turn, settings);
    streamed(output, seed)
        .into_iter()
        .filter_map(|text| detector.push(&Event::Output { text }, settings))
        .map(|v| serde_json::to_value(v).unwrap())
        .collect()
}

#[test]
fn real_documents_taken_as_model_outputs_give_no_warn_or_stop_of_any_rule() {
    let settings = Settings::default();
    let mut detector = Detector::new();
    let mut summary = Vec::new();
    let mut total = 0;
    let mut chunks = 0;
    let mut reported = Vec::new();
    let mut counts = Vec::new();
    for (name, documents) in corpus() {
        let mut count = 0;
        for doc in &documents {
            for (k, output) in outputs(&doc.text).into_iter().enumerate() {
                count += 1;
                chunks += streamed(output, k as u64).len();
                for verdict in reports(&mut detector, &settings, output, k as u64) {
                    reported.push(format!("{} (output {k}): {verdict}", doc.source));
                }
            }
        }
        summary.push(format!(
            "{name}: {} documents, {count} outputs",
            documents.len()
        ));
        total += count;
        counts.push((name, count));
    }
    eprintln!(
        "quiet corpus: {}; {total} outputs, {chunks} chunks",
        summary.join("; ")
    );
    for (name, count) in counts {
        assert!(
            name == "git logs" || count >= 300,
            "{name}: only {count} outputs"
        );
    }
    assert!(total >= 3000, "{total} outputs");
    assert!(
        reported.is_empty(),
        "{} reports (warn or stop, any rule) on real text:\n{}",
        reported.len(),
        reported.join("\n")
    );
}

/// A sample of the same outputs through the program as a runtime runs it:
/// `ollm-loopcheck --stream`, one conversation per output.
#[test]
fn a_sample_of_real_documents_through_ollm_loopcheck_stream_stays_quiet() {
    let mut input = String::new();
    let mut sampled = 0;
    for (_, documents) in corpus() {
        for doc in documents.iter().step_by(10) {
            for (k, output) in outputs(&doc.text).into_iter().enumerate().take(2) {
                input.push_str("{\"type\":\"reset\"}\n");
                input.push_str(&events(&streamed(output, k as u64)));
                sampled += 1;
            }
        }
    }
    assert!(sampled >= 100, "{sampled} outputs");
    assert_stream_is_quiet(input);
}
