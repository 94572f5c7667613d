//! The `ollm-discover` command line: the program's options here, one file
//! per subcommand (the listing, `watch`) with its arguments and `run`.

mod list;
mod watch;

use std::path::PathBuf;

use clap::{Args, Parser, ValueEnum};

use super::options::{Options, PathGlobs, TypeSet, UNLIMITED_DEPTH};
use crate::cli::{Ctx, GlobalOpts, footer};
use crate::config::{ConfigArgs, FlagKey, Loaded};
use crate::error::{ExitCode, Result};

const EXAMPLES: &str = "  ollm-discover --paths                   # what git tracks or could add, minus built-ins and .ollmignore
  ollm-discover src --include '*.rs' --sort
  ollm-discover --paths --null | xargs -0 wc -l
  ollm-discover --type directory --max-depth 1
  ollm-discover watch --ready             # NDJSON add/change/unlink events
  ollm-discover config --show-origin";

/// List a project's files the way git sees them: a table at a terminal, NDJSON or paths when piped.
///
/// Ignore rules follow git exactly: `.gitignore` in every directory (and in
/// parent directories up to the work tree's top), `.git/info/exclude` and
/// the global excludes file (`core.excludesFile`, else
/// `$XDG_CONFIG_HOME/git/ignore`). `.ollmignore` files (same syntax, any
/// directory) take precedence over them, and the built-in ignores
/// (`services.fileDiscovery.builtinIgnores`, gitignore syntax) cannot be
/// re-included. `.gitignore` files apply outside a git work tree too.
///
/// Each entry is `{path, relativePath, type, size, modified}`; `type` is
/// file, directory or symlink (a link that is not followed). A name that is
/// not valid UTF-8 gets `pathBytes` and `relativePathBytes`: its exact bytes
/// as numbers. Depth: entries directly in the root are at level 0;
/// `--max-depth N` enters N levels of subdirectories. Hidden names are
/// listed (as git does) unless `--no-hidden`.
#[derive(Debug, Parser)]
#[command(
    name = "ollm-discover",
    version,
    after_help = footer(EXAMPLES),
    args_conflicts_with_subcommands = true
)]
pub(crate) struct Cli {
    #[command(flatten)]
    pub global: GlobalOpts,
    #[command(flatten)]
    pub list: list::ListArgs,
    #[command(subcommand)]
    pub command: Option<Command>,
}

crate::subcommands! {
#[derive(Debug)]
pub(crate) enum Command {
    /// Watch the tree and print NDJSON events `{event, path, relativePath,
    /// type}` (event: add, change, unlink) for paths the listing would show.
    ///
    /// Changes are debounced (an editor's save is one event), directories
    /// created later are watched too, edits of ignore files take effect, and
    /// a kernel queue overflow triggers a rescan. Ends on SIGINT, SIGTERM or
    /// when standard input (a pipe or socket) is closed.
    #[command(after_help = footer("  ollm-discover watch --ready
  ollm-discover watch src --include '*.rs' --debounce-ms 50"))]
    Watch(watch::WatchArgs),
    /// Print the effective configuration (JSON), or every key with its origin.
    #[command(after_help = footer("  ollm-discover config
  ollm-discover config --show-origin"))]
    Config(ConfigArgs),
}
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum TypeArg {
    #[value(alias = "f")]
    File,
    #[value(alias = "d", alias = "dir")]
    Directory,
    #[value(alias = "l", alias = "link")]
    Symlink,
}

#[derive(Debug, Clone, Args)]
pub(crate) struct FilterArgs {
    /// The directory to list (default: the current directory).
    #[arg(value_name = "ROOT")]
    pub root: Option<PathBuf>,
    /// Directory levels entered below the root (0: only the root's own
    /// entries), or `unlimited` [config: services.fileDiscovery.maxDepth, default 10].
    #[arg(long, value_name = "N", value_parser = parse_depth)]
    pub max_depth: Option<u64>,
    /// Report only entries matching this glob (repeatable). Without `/` it
    /// matches a name at any depth; with `/`, the path below the root.
    #[arg(long, short = 'g', value_name = "GLOB")]
    pub include: Vec<String>,
    /// Skip entries matching this glob (repeatable); a matching directory is
    /// not entered.
    #[arg(long, short = 'E', value_name = "GLOB")]
    pub exclude: Vec<String>,
    /// Follow symbolic links (a link back to an ancestor is reported, not followed).
    #[arg(long, short = 'L')]
    pub follow: bool,
    /// Report only this type (repeatable) [default: file and symlink].
    #[arg(long = "type", short = 't', value_name = "TYPE")]
    pub types: Vec<TypeArg>,
    /// Skip names starting with a dot.
    #[arg(long, conflicts_with = "hidden")]
    pub no_hidden: bool,
    /// List names starting with a dot (the default).
    #[arg(long)]
    pub hidden: bool,
}

fn parse_depth(text: &str) -> std::result::Result<u64, String> {
    if text.eq_ignore_ascii_case("unlimited") {
        return Ok(UNLIMITED_DEPTH);
    }
    text.parse::<u64>()
        .map_err(|_| "expected a whole number or `unlimited`".to_string())
}

impl FilterArgs {
    fn options(&self, loaded: &Loaded) -> Result<Options> {
        let root = self.root.clone().unwrap_or_else(|| PathBuf::from("."));
        let mut opts = Options::new(&root, &loaded.config.services.file_discovery)?;
        opts.include = PathGlobs::new(&self.include)?;
        opts.exclude = PathGlobs::new(&self.exclude)?;
        opts.include_source.clone_from(&self.include);
        opts.exclude_source.clone_from(&self.exclude);
        if !self.types.is_empty() {
            opts.types = TypeSet {
                file: self.types.contains(&TypeArg::File),
                directory: self.types.contains(&TypeArg::Directory),
                symlink: self.types.contains(&TypeArg::Symlink),
            };
        }
        Ok(opts)
    }
}

/// Every flag of `ollm-discover` that sets a configuration key.
pub const FLAGS: &[FlagKey] = &[
    FlagKey::parsed(
        "max_depth",
        "--max-depth",
        "services.fileDiscovery.maxDepth",
    ),
    FlagKey::switch(
        "follow",
        "--follow",
        "services.fileDiscovery.followSymlinks",
        true,
    ),
    FlagKey::switch(
        "no_hidden",
        "--no-hidden",
        "services.fileDiscovery.includeHidden",
        false,
    ),
    FlagKey::switch(
        "hidden",
        "--hidden",
        "services.fileDiscovery.includeHidden",
        true,
    ),
    FlagKey::switch(
        "no_cache",
        "--no-cache",
        "services.fileDiscovery.cache",
        false,
    ),
    FlagKey::value(
        "debounce_ms",
        "--debounce-ms",
        "services.fileDiscovery.debounceMs",
    ),
];

/// The `ollm-discover` program.
pub fn main() -> Result<ExitCode> {
    let (cli, matches): (Cli, _) = crate::cli::parse_matches()?;
    let ctx = Ctx::new(cli.global).with_flags(crate::config::overrides(FLAGS, &matches)?);
    match cli.command {
        None => list::run(&ctx, &cli.list),
        Some(Command::Watch(args)) => watch::run(&ctx, &args),
        Some(Command::Config(args)) => crate::cli::show_config(&ctx, &args),
    }
}
