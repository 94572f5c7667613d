//! Files git tracks although an ignore rule matches them: git lists them
//! (`--cached`), so we list them too, unless the built-ins, `.ollmignore`,
//! the depth limit or the command line's filters remove them.

use std::collections::{HashMap, HashSet};
use std::fs::Metadata;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use ignore::gitignore::{Gitignore, GitignoreBuilder};

use super::entry::EntryType;
use super::git_index::{find_work_tree, tracked_paths};
use super::options::{DEFAULT_OLLMIGNORE, Options};

pub struct Tracked {
    /// Tracked paths below the root, relative to it.
    paths: HashSet<Vec<u8>>,
}

impl Tracked {
    /// The tracked paths below the root; `None` outside a git work tree or
    /// when nothing below the root is tracked. An unreadable index is a
    /// warning (the listing then shows what the ignore rules allow).
    pub fn load(opts: &Options) -> Option<Tracked> {
        let (top, git_dir) = find_work_tree(&opts.root)?;
        let all = match tracked_paths(&git_dir) {
            Ok(all) => all,
            Err(err) => {
                super::warn(format!(
                    "{}: {err}; tracked files matching ignore rules are not listed",
                    git_dir.display()
                ));
                return None;
            }
        };
        let prefix = opts
            .root
            .strip_prefix(&top)
            .ok()?
            .as_os_str()
            .as_bytes()
            .to_vec();
        let paths: HashSet<Vec<u8>> = all
            .into_iter()
            .filter_map(|path| {
                if prefix.is_empty() {
                    return Some(path);
                }
                let rest = path.strip_prefix(prefix.as_slice())?.strip_prefix(b"/")?;
                Some(rest.to_vec())
            })
            .collect();
        (!paths.is_empty()).then_some(Tracked { paths })
    }

    pub fn contains(&self, relative: &Path) -> bool {
        self.paths.contains(relative.as_os_str().as_bytes())
    }

    /// Tracked paths the walk did not list that the listing must show:
    /// present on disk and hidden only by git's ignore rules.
    pub fn missing(
        &self,
        seen: &HashSet<Vec<u8>>,
        opts: &Options,
    ) -> Vec<(PathBuf, EntryType, Metadata)> {
        let mut rules = OllmRules::new(&opts.root);
        let mut found = Vec::new();
        for bytes in self.paths.difference(seen) {
            let relative = PathBuf::from(std::ffi::OsStr::from_bytes(bytes));
            let full = opts.root.join(&relative);
            let meta = if opts.follow_symlinks {
                std::fs::metadata(&full)
            } else {
                std::fs::symlink_metadata(&full)
            };
            let Ok(meta) = meta else { continue };
            let Some(kind) = EntryType::of(meta.file_type()) else {
                continue;
            };
            if kind == EntryType::Directory || !opts.reports(&relative, kind) {
                continue;
            }
            if admitted(opts, &relative, &mut rules) {
                found.push((relative, kind, meta));
            }
        }
        found
    }
}

/// Whether everything but git's ignore rules lets `relative` through.
fn admitted(opts: &Options, relative: &Path, rules: &mut OllmRules) -> bool {
    let levels = relative.components().count();
    if opts
        .max_depth
        .is_some_and(|max| levels > max.saturating_add(1))
    {
        return false;
    }
    let mut prefix = PathBuf::new();
    for (i, component) in relative.components().enumerate() {
        prefix.push(component);
        let is_dir = i + 1 < levels;
        let hidden = component.as_os_str().as_bytes().starts_with(b".");
        if (hidden && !opts.include_hidden)
            || !opts.keep(&prefix, is_dir)
            || rules.ignores(&prefix, is_dir)
        {
            return false;
        }
    }
    true
}

/// `.ollmignore` files below the root, loaded once per directory.
struct OllmRules {
    root: PathBuf,
    by_dir: HashMap<PathBuf, Option<Gitignore>>,
}

impl OllmRules {
    fn new(root: &Path) -> OllmRules {
        OllmRules {
            root: root.to_path_buf(),
            by_dir: HashMap::new(),
        }
    }

    /// The closest `.ollmignore` with a matching rule decides, as in the walk.
    fn ignores(&mut self, relative: &Path, is_dir: bool) -> bool {
        let full = self.root.join(relative);
        for dir in relative.ancestors().skip(1) {
            if let Some(matcher) = self.matcher(dir) {
                let matched = matcher.matched(&full, is_dir);
                if !matched.is_none() {
                    return matched.is_ignore();
                }
            }
        }
        false
    }

    fn matcher(&mut self, dir: &Path) -> Option<&Gitignore> {
        let root = &self.root;
        self.by_dir
            .entry(dir.to_path_buf())
            .or_insert_with(|| {
                let base = root.join(dir);
                let file = base.join(DEFAULT_OLLMIGNORE);
                if !file.is_file() {
                    return None;
                }
                let mut builder = GitignoreBuilder::new(&base);
                if let Some(err) = builder.add(&file) {
                    super::warn(format!("{}: {err}", file.display()));
                }
                builder.build().ok()
            })
            .as_ref()
    }
}
