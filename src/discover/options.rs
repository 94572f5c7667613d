//! The validated options of one discovery: built once from configuration and
//! flags, before any directory is read.

use std::collections::HashSet;
use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use globset::{Glob, GlobBuilder, GlobSet, GlobSetBuilder};
use ignore::gitignore::{Gitignore, GitignoreBuilder};

use crate::config::FileDiscoveryConfig;
use crate::diag;
use crate::error::{Error, Result};

/// The name of our own ignore files (gitignore syntax, any directory).
pub const DEFAULT_OLLMIGNORE: &str = ".ollmignore";

/// Which kinds of entries are reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TypeSet {
    pub file: bool,
    pub directory: bool,
    pub symlink: bool,
}

impl Default for TypeSet {
    /// Files and symbolic links: what git lists.
    fn default() -> Self {
        TypeSet {
            file: true,
            directory: false,
            symlink: true,
        }
    }
}

/// Include or exclude globs. A glob without `/` matches a name at any depth;
/// one with `/` matches the whole relative path; `*` never crosses `/`,
/// `**` does.
#[derive(Debug, Clone)]
pub struct PathGlobs {
    names: GlobSet,
    paths: GlobSet,
}

impl PathGlobs {
    pub fn new(globs: &[String]) -> Result<Option<PathGlobs>> {
        if globs.is_empty() {
            return Ok(None);
        }
        let mut names = GlobSetBuilder::new();
        let mut paths = GlobSetBuilder::new();
        for text in globs {
            let pattern = text.strip_prefix('/').unwrap_or(text);
            let glob = compile(pattern)
                .map_err(|e| Error::usage(format!("invalid glob {text:?}: {e}")))?;
            if text.contains('/') {
                paths.add(glob);
            } else {
                names.add(glob);
            }
        }
        let build = |b: GlobSetBuilder| {
            b.build()
                .map_err(|e| Error::usage(format!("invalid glob: {e}")))
        };
        Ok(Some(PathGlobs {
            names: build(names)?,
            paths: build(paths)?,
        }))
    }

    /// Whether `relative` (a path below the root) matches.
    pub fn is_match(&self, relative: &Path) -> bool {
        if self.paths.is_match(relative) {
            return true;
        }
        relative
            .file_name()
            .is_some_and(|name| self.names.is_match(Path::new(name)))
    }
}

fn compile(pattern: &str) -> std::result::Result<Glob, globset::Error> {
    GlobBuilder::new(pattern)
        .literal_separator(true)
        .backslash_escape(true)
        .build()
}

/// Everything that decides what one discovery reports.
#[derive(Debug, Clone)]
pub struct Options {
    /// The root, made absolute (symbolic links in it are kept as given).
    pub root: PathBuf,
    /// Directory levels below the root that are entered; `None` is unlimited.
    pub max_depth: Option<usize>,
    pub follow_symlinks: bool,
    pub include_hidden: bool,
    /// The built-in ignores as a gitignore matcher; empty when
    /// `builtin_names` stands for them.
    pub builtin: Gitignore,
    /// The built-ins when they are all plain names (the default): a set
    /// lookup per entry instead of a glob match.
    pub builtin_names: Option<HashSet<OsString>>,
    /// The built-in patterns as configured (the listing cache's key).
    pub builtin_patterns: Vec<String>,
    pub include: Option<PathGlobs>,
    pub exclude: Option<PathGlobs>,
    /// The globs as given (the listing cache's key).
    pub include_source: Vec<String>,
    pub exclude_source: Vec<String>,
    pub types: TypeSet,
    /// Worker threads; 0 lets the walker choose.
    pub threads: usize,
}

/// The `--max-depth` value meaning "no limit".
pub const UNLIMITED_DEPTH: u64 = u64::MAX;

impl Options {
    /// Options from the effective configuration, with the root checked.
    pub fn new(root: &Path, config: &FileDiscoveryConfig) -> Result<Options> {
        let root = std::path::absolute(root).map_err(|e| Error::io(root, &e))?;
        match std::fs::metadata(&root) {
            Ok(meta) if meta.is_dir() => {}
            Ok(_) => {
                return Err(Error::usage(format!("{}: not a directory", root.display())));
            }
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
                return Err(Error::NotFound(format!(
                    "{}: no such directory",
                    root.display()
                )));
            }
            Err(err) => return Err(Error::io(&root, &err)),
        }
        let max_depth = match config.max_depth {
            UNLIMITED_DEPTH => None,
            depth => Some(usize::try_from(depth).unwrap_or(usize::MAX)),
        };
        // The matcher is built only when a name set cannot stand for it:
        // compiling its globs is most of a cached listing's own work.
        let builtin_names = plain_names(&config.builtin_ignores);
        let builtin = match builtin_names {
            Some(_) => Gitignore::empty(),
            None => builtin_matcher(&root, &config.builtin_ignores),
        };
        Ok(Options {
            builtin,
            builtin_names,
            builtin_patterns: config.builtin_ignores.clone(),
            include_source: Vec::new(),
            exclude_source: Vec::new(),
            root,
            max_depth,
            follow_symlinks: config.follow_symlinks,
            include_hidden: config.include_hidden,
            include: None,
            exclude: None,
            types: TypeSet::default(),
            threads: 0,
        })
    }

    /// Whether a path below the root survives the built-ins and `--exclude`.
    /// A directory that does not is not entered.
    pub fn keep(&self, relative: &Path, is_dir: bool) -> bool {
        let builtin = match &self.builtin_names {
            Some(names) => relative.file_name().is_some_and(|n| names.contains(n)),
            None => self.builtin.matched(relative, is_dir).is_ignore(),
        };
        if builtin {
            return false;
        }
        !self.exclude.as_ref().is_some_and(|g| g.is_match(relative))
    }

    /// Whether an entry of this kind and path is reported (directories are
    /// entered either way).
    pub fn reports(&self, relative: &Path, kind: crate::discover::EntryType) -> bool {
        use crate::discover::EntryType;
        let wanted = match kind {
            EntryType::File => self.types.file,
            EntryType::Directory => self.types.directory,
            EntryType::Symlink => self.types.symlink,
        };
        wanted && self.include.as_ref().is_none_or(|g| g.is_match(relative))
    }

    /// `path` (the root joined with more) below the root. A byte slice, not
    /// a component-wise strip: it runs for every entry of the walk.
    pub fn relative<'a>(&self, path: &'a Path) -> &'a Path {
        let root = self.root.as_os_str().as_bytes();
        let bytes = path.as_os_str().as_bytes();
        match bytes.strip_prefix(root) {
            Some(rest) if root.ends_with(b"/") => Path::new(OsStr::from_bytes(rest)),
            Some([b'/', rest @ ..]) => Path::new(OsStr::from_bytes(rest)),
            Some([]) => Path::new(""),
            _ => path.strip_prefix(&self.root).unwrap_or(path),
        }
    }

    /// The deepest walker depth (the root is 0) whose entries are reported.
    pub fn walker_depth_limit(&self) -> Option<usize> {
        self.max_depth.map(|d| d.saturating_add(1))
    }
}

/// The patterns as a set of names, when each is a plain name that matches
/// itself at any depth (no glob, no slash, no negation or escape).
fn plain_names(patterns: &[String]) -> Option<HashSet<OsString>> {
    let special = |c: char| "/*?[]{}\\!#".contains(c) || c.is_whitespace();
    patterns
        .iter()
        .map(|p| (!p.is_empty() && !p.contains(special)).then(|| OsString::from(p)))
        .collect()
}

/// The built-in ignores as one gitignore matcher rooted at the root. An
/// invalid pattern is skipped with a warning (Req 10.5).
fn builtin_matcher(root: &Path, patterns: &[String]) -> Gitignore {
    let mut builder = GitignoreBuilder::new(root);
    for pattern in patterns {
        if let Err(err) = builder.add_line(None, pattern) {
            diag::warn(format!(
                "services.fileDiscovery.builtinIgnores: invalid pattern {pattern:?} skipped ({err})"
            ));
        }
    }
    builder.build().unwrap_or_else(|err| {
        diag::warn(format!("built-in ignores unusable ({err}); none applied"));
        Gitignore::empty()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn globs(list: &[&str]) -> PathGlobs {
        PathGlobs::new(
            &list
                .iter()
                .map(std::string::ToString::to_string)
                .collect::<Vec<_>>(),
        )
        .unwrap()
        .unwrap()
    }

    #[test]
    fn a_glob_without_slash_matches_names_at_any_depth() {
        let g = globs(&["*.rs"]);
        assert!(g.is_match(Path::new("a.rs")));
        assert!(g.is_match(Path::new("src/deep/a.rs")));
        assert!(!g.is_match(Path::new("a.rsx")));
    }

    #[test]
    fn a_glob_with_slash_matches_the_relative_path() {
        let g = globs(&["src/*.rs", "docs/**/*.md"]);
        assert!(g.is_match(Path::new("src/a.rs")));
        assert!(!g.is_match(Path::new("src/x/a.rs")));
        assert!(g.is_match(Path::new("docs/a/b/c.md")));
        assert!(g.is_match(Path::new("docs/c.md")));
    }

    #[test]
    fn an_invalid_glob_is_a_usage_error() {
        let err = PathGlobs::new(&["a[".to_string()]).unwrap_err();
        assert!(err.to_string().contains("a["), "{err}");
    }

    #[test]
    fn relative_paths_are_sliced_off_the_root() {
        let mut opts = Options::new(Path::new("/"), &FileDiscoveryConfig::default()).unwrap();
        assert_eq!(opts.relative(Path::new("/etc/x")), Path::new("etc/x"));
        opts.root = PathBuf::from("/a/b");
        assert_eq!(opts.relative(Path::new("/a/b/c/d")), Path::new("c/d"));
        assert_eq!(opts.relative(Path::new("/a/b")), Path::new(""));
        assert_eq!(opts.relative(Path::new("/a/bc/d")), Path::new("/a/bc/d"));
    }

    #[test]
    fn plain_builtins_become_a_name_set() {
        let names = plain_names(&["node_modules".into(), ".git".into()]).unwrap();
        assert!(names.contains(&OsString::from(".git")));
        assert!(plain_names(&["*.tmp".into(), "dist".into()]).is_none());
        assert!(plain_names(&["/dist".into()]).is_none());
        assert!(plain_names(&["a b".into()]).is_none());
        // Braces are glob alternation, and an unclosed one is an invalid
        // pattern the matcher warns about.
        assert!(plain_names(&["{dist,build}".into()]).is_none());
        assert!(plain_names(&["a{b".into()]).is_none());
    }

    #[test]
    fn the_default_builtins_as_names_keep_what_their_matcher_keeps() {
        let config = FileDiscoveryConfig::default();
        let opts = Options::new(Path::new("/"), &config).unwrap();
        assert!(opts.builtin_names.is_some(), "the defaults are plain names");
        let matcher = builtin_matcher(&opts.root, &config.builtin_ignores);
        let mut paths: Vec<String> = config
            .builtin_ignores
            .iter()
            .flat_map(|name| [name.clone(), format!("a/{name}"), format!("{name}x")])
            .collect();
        paths.extend(["src/main.rs", "a/b", ".gitignore", "x.log"].map(String::from));
        for path in &paths {
            for is_dir in [false, true] {
                let path = Path::new(path);
                assert_eq!(
                    opts.keep(path, is_dir),
                    !matcher.matched(path, is_dir).is_ignore(),
                    "{} (directory: {is_dir})",
                    path.display()
                );
            }
        }
    }

    #[test]
    fn builtins_use_gitignore_syntax() {
        let root = Path::new("/r");
        let m = builtin_matcher(
            root,
            &["node_modules".into(), "/dist".into(), "*.tmp".into()],
        );
        assert!(m.matched(Path::new("a/node_modules"), true).is_ignore());
        assert!(m.matched(Path::new("dist"), true).is_ignore());
        assert!(!m.matched(Path::new("a/dist"), true).is_ignore());
        assert!(m.matched(Path::new("x/y.tmp"), false).is_ignore());
    }
}
