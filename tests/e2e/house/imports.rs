//! Which file of a crate imports which, read from the paths in its code:
//! `crate::a::b`, `super::x`, `self::y`, a child module's name, and the
//! groups of a `use` (`use super::{help, trust}`). A path is the file of
//! the longest module prefix it names, and an item a folder's `mod.rs`
//! only re-exports (`pub use scrub::Scrubber`) is the file it comes from.
//!
//! A module reaching into its own files (`mod.rs` into its folder, as
//! `lib.rs` into the crate) declares them and is no edge; every other
//! reference is one, so two sibling files that use each other are a circle.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path as FilePath;

use super::source::code_files;

/// Node → the nodes it imports, each with the first place it does.
pub(super) type Graph = BTreeMap<String, BTreeMap<String, String>>;

/// The imports between the files of the crate at `src`, each file named by
/// its path under `src` (`config/keys.rs`).
pub(super) fn file_graph(src: &FilePath) -> Graph {
    let files: Vec<(String, Vec<String>, String)> = code_files(src)
        .into_iter()
        .map(|(file, code)| {
            let relative = file.strip_prefix(src).unwrap_or(&file);
            let name = relative
                .components()
                .map(|c| c.as_os_str().to_string_lossy())
                .collect::<Vec<_>>()
                .join("/");
            (name.clone(), module_path(&name), code)
        })
        .collect();
    let mut by_module: BTreeMap<Vec<String>, usize> = BTreeMap::new();
    for (index, (_, module, _)) in files.iter().enumerate() {
        by_module.entry(module.clone()).or_insert(index);
    }
    let is_module = |path: &[String]| by_module.contains_key(path);
    let references: Vec<Vec<Reference>> = files
        .iter()
        .map(|(_, module, code)| references(code, module, &is_module))
        .collect();
    let imported: Vec<BTreeMap<String, Vec<String>>> = references
        .iter()
        .map(|found| {
            found
                .iter()
                .filter(|r| r.in_use)
                .filter_map(|r| Some((r.path.last()?.clone(), r.path.clone())))
                .collect()
        })
        .collect();
    let mut graph: Graph = files
        .iter()
        .map(|(name, _, _)| (name.clone(), BTreeMap::new()))
        .collect();
    for (index, (name, module, _)) in files.iter().enumerate() {
        for reference in &references[index] {
            let Some(to) = resolve(&reference.path, &by_module, &imported, 0) else {
                continue;
            };
            let target = &files[to].1;
            if to == index || target.starts_with(module) {
                continue;
            }
            graph
                .entry(name.clone())
                .or_default()
                .entry(files[to].0.clone())
                .or_insert_with(|| format!("{name}:{}", reference.line));
        }
    }
    graph
}

/// The imports between the top-level modules of `files` (a file graph):
/// an edge between two files is one between the top-level modules they
/// are in, unless that is the same one; the crate root is none.
pub(super) fn top_level(files: &Graph) -> Graph {
    let top = |file: &str| module_path(file).first().cloned();
    let mut graph: Graph = files
        .keys()
        .filter_map(|file| Some((top(file)?, BTreeMap::new())))
        .collect();
    for (from, edges) in files {
        let Some(from) = top(from) else { continue };
        for (to, place) in edges {
            match top(to) {
                Some(to) if to != from => {
                    graph
                        .entry(from.clone())
                        .or_default()
                        .entry(to)
                        .or_insert_with(|| place.clone());
                }
                _ => {}
            }
        }
    }
    graph
}

/// `config/keys.rs` is `config::keys`; `config/mod.rs` is `config`;
/// `lib.rs` and `main.rs` are the crate root.
fn module_path(file: &str) -> Vec<String> {
    let mut path: Vec<String> = file
        .trim_end_matches(".rs")
        .split('/')
        .map(str::to_string)
        .collect();
    if path
        .last()
        .is_some_and(|last| matches!(last.as_str(), "mod" | "lib" | "main"))
    {
        path.pop();
    }
    path
}

/// A module path named in code, made absolute, and where.
struct Reference {
    path: Vec<String>,
    line: usize,
    /// Named by a `use`, so its last name is an item of the file.
    in_use: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Token<'a> {
    Word(&'a str),
    /// `::`
    Separator,
    Open,
    Close,
    Comma,
    Semicolon,
    Other,
}

/// The tokens of `code`, each with its line number.
fn tokens(code: &str) -> Vec<(Token<'_>, usize)> {
    let mut tokens = Vec::new();
    let mut line = 1;
    let mut chars = code.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        let token = match c {
            '\n' => {
                line += 1;
                continue;
            }
            c if c.is_whitespace() => continue,
            c if c.is_alphanumeric() || c == '_' => {
                let mut end = at + c.len_utf8();
                while let Some(&(i, next)) = chars.peek() {
                    if !(next.is_alphanumeric() || next == '_') {
                        break;
                    }
                    end = i + next.len_utf8();
                    chars.next();
                }
                Token::Word(&code[at..end])
            }
            ':' if chars.peek().is_some_and(|&(_, next)| next == ':') => {
                chars.next();
                Token::Separator
            }
            '{' => Token::Open,
            '}' => Token::Close,
            ',' => Token::Comma,
            ';' => Token::Semicolon,
            _ => Token::Other,
        };
        tokens.push((token, line));
    }
    tokens
}

/// The module paths `code` names, absolute, for a file of module `module`;
/// `is_module` tells the crate's file modules (a path starting with
/// another name is a crate's or a type's, not this crate's).
fn references(
    code: &str,
    module: &[String],
    is_module: &dyn Fn(&[String]) -> bool,
) -> Vec<Reference> {
    let tokens = tokens(code);
    let kinds: Vec<Token> = tokens.iter().map(|(token, _)| *token).collect();
    let mut found = Vec::new();
    // The inline modules (`mod millis { … }`) the scan is in, with the
    // brace depth inside each.
    let mut inline: Vec<(&str, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut in_use = false;
    let mut i = 0;
    while i < kinds.len() {
        match kinds[i] {
            Token::Open => depth += 1,
            Token::Close => {
                depth = depth.saturating_sub(1);
                if inline.last().is_some_and(|&(_, inside)| inside > depth) {
                    inline.pop();
                }
            }
            Token::Semicolon => in_use = false,
            Token::Word("use") => in_use = true,
            Token::Word("mod") => {
                if let (Some(Token::Word(name)), Some(Token::Open)) =
                    (kinds.get(i + 1), kinds.get(i + 2))
                {
                    depth += 1;
                    inline.push((name, depth));
                    i += 3;
                    continue;
                }
            }
            Token::Word(_)
                if kinds.get(i + 1) == Some(&Token::Separator)
                    && (i == 0 || kinds[i - 1] != Token::Separator) =>
            {
                let mut here = module.to_vec();
                here.extend(inline.iter().map(|(name, _)| (*name).to_string()));
                let (paths, next) = path_tree(&kinds, i);
                found.extend(paths.iter().filter_map(|(path, last)| {
                    Some(Reference {
                        path: absolute(&here, path, is_module)?,
                        line: tokens[*last].1,
                        in_use,
                    })
                }));
                i = next;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    found
}

/// A path and the index of its last word.
type Path<'a> = (Vec<&'a str>, usize);

/// The paths of the path tree at `i` (`a::b`, `a::{b, c::{d, e}}`) and
/// the index after it.
fn path_tree<'a>(tokens: &[Token<'a>], mut i: usize) -> (Vec<Path<'a>>, usize) {
    let mut prefix = Vec::new();
    let mut last = i;
    while let Some(Token::Word(word)) = tokens.get(i) {
        prefix.push(*word);
        last = i;
        i += 1;
        if tokens.get(i) != Some(&Token::Separator) {
            return (vec![(prefix, last)], i);
        }
        i += 1;
    }
    if tokens.get(i) != Some(&Token::Open) {
        return (vec![(prefix, last)], i);
    }
    i += 1;
    let mut paths = Vec::new();
    let mut item_start = true;
    while let Some(token) = tokens.get(i) {
        match token {
            Token::Close => {
                i += 1;
                break;
            }
            Token::Comma => {
                item_start = true;
                i += 1;
            }
            Token::Word(_) if item_start => {
                let (inner, next) = path_tree(tokens, i);
                paths.extend(
                    inner
                        .into_iter()
                        .map(|(tail, at)| ([prefix.clone(), tail].concat(), at)),
                );
                item_start = false;
                i = next;
            }
            _ => i += 1,
        }
    }
    if paths.is_empty() {
        paths.push((prefix, last));
    }
    (paths, i)
}

/// `path` as written in module `here`, made absolute; `None` when it
/// names no module of this crate.
fn absolute(
    here: &[String],
    path: &[&str],
    is_module: &dyn Fn(&[String]) -> bool,
) -> Option<Vec<String>> {
    let (mut base, rest) = match path.first()? {
        &"crate" => (Vec::new(), &path[1..]),
        &"super" | &"self" => (here.to_vec(), path),
        child => {
            let mut inside = here.to_vec();
            inside.push((*child).to_string());
            if !is_module(&inside) {
                return None;
            }
            (here.to_vec(), path)
        }
    };
    let mut rest = rest.iter().peekable();
    while let Some(&&word) = rest.peek() {
        match word {
            "super" => {
                base.pop();
            }
            "self" => {}
            _ => break,
        }
        rest.next();
    }
    base.extend(rest.filter(|w| **w != "self").map(|w| (*w).to_string()));
    Some(base)
}

/// The file (an index) that `path` leads to: the longest module prefix
/// of it, or, when that file only imports the next name, where that
/// comes from.
fn resolve(
    path: &[String],
    by_module: &BTreeMap<Vec<String>, usize>,
    imported: &[BTreeMap<String, Vec<String>>],
    hops: usize,
) -> Option<usize> {
    let length = (0..=path.len())
        .rev()
        .find(|&length| by_module.contains_key(&path[..length]))?;
    let file = by_module[&path[..length]];
    if let Some(name) = path.get(length)
        && hops < 8
        && let Some(origin) = imported[file].get(name)
        && origin.as_slice() != path
    {
        let onward = [origin.as_slice(), &path[length + 1..]].concat();
        return resolve(&onward, by_module, imported, hops + 1);
    }
    Some(file)
}

/// A cycle of `graph` as the nodes along it (the first again at the end),
/// or `None`.
pub(super) fn find_cycle(graph: &Graph) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &Graph,
        done: &mut BTreeSet<String>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|n| n == node) {
            let mut cycle = path[at..].to_vec();
            cycle.push(node.to_string());
            return Some(cycle);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_string());
        for next in graph.get(node).into_iter().flat_map(BTreeMap::keys) {
            if let Some(cycle) = visit(next, graph, done, path) {
                return Some(cycle);
            }
        }
        path.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|node| visit(node, graph, &mut done, &mut Vec::new()))
}

/// `base -> top (base.rs:1), top -> base (top.rs:1)`.
pub(super) fn describe(graph: &Graph, cycle: &[String]) -> String {
    cycle
        .windows(2)
        .map(|pair| {
            let place = graph
                .get(&pair[0])
                .and_then(|edges| edges.get(&pair[1]))
                .map_or("?", String::as_str);
            format!("{} -> {} ({place})", pair[0], pair[1])
        })
        .collect::<Vec<_>>()
        .join(", ")
}
