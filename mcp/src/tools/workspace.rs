//! `get_context` and `discover_files`: the workspace's context and files,
//! as `ollm context prompt` and `ollm discover` give them.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use ollm::context::ops;
use ollm::context::store::render_prompt;
use ollm::discover::{Options, PathGlobs};
use ollm::error::{Error, Result};

use crate::schema::{ContextResult, DiscoverFilesArgs, FileList, GetContextArgs};
use crate::served::Served;
use ollm::config::Loaded;

const DEFAULT_FILES: usize = 500;
const MAX_FILES: usize = 10_000;

fn cwd() -> Result<PathBuf> {
    std::env::current_dir().map_err(|e| Error::io(".", &e))
}

/// The workspace's context entries in prompt order; an untrusted
/// workspace's are left out (and said so on stderr), as for the prompt.
pub fn context(_args: &GetContextArgs) -> Result<ContextResult> {
    let cwd = cwd()?;
    let located = ops::locate(None, None, &cwd)?;
    let trusted = match &located.workspace {
        Some(Some(workspace)) => workspace.trusted(),
        _ => true,
    };
    let entries = ops::prompt_entries(&located, jiff::Timestamp::now())?;
    let refs: Vec<_> = entries.iter().collect();
    let prompt = render_prompt(&refs);
    Ok(ContextResult {
        prompt,
        entries,
        trusted,
    })
}

/// The files below `root` (which must be inside the working directory: an
/// agent lists its project, not the machine).
pub fn discover(loaded: &Loaded, args: DiscoverFilesArgs) -> Result<FileList> {
    let cwd = cwd()?;
    let root = match &args.root {
        Some(root) => cwd.join(root),
        None => cwd.clone(),
    };
    let inside = root
        .canonicalize()
        .map_err(|e| Error::io(&root, &e))?
        .starts_with(cwd.canonicalize().map_err(|e| Error::io(&cwd, &e))?);
    if !inside {
        return Err(Error::usage(format!(
            "{}: outside the server's working directory",
            root.display()
        )));
    }
    let mut opts = Options::new(&root, &loaded.config.services.file_discovery)?;
    opts.include = PathGlobs::new(&args.include)?;
    opts.exclude = PathGlobs::new(&args.exclude)?;
    opts.include_source.clone_from(&args.include);
    opts.exclude_source.clone_from(&args.exclude);
    if let Some(depth) = args.max_depth {
        opts.max_depth = Some(usize::try_from(depth).unwrap_or(usize::MAX));
    }
    let opts = Arc::new(opts);
    let mut entries = ollm::discover::collect(&opts)?;
    let limit = args.limit.unwrap_or(DEFAULT_FILES).min(MAX_FILES);
    let truncated = entries.len() > limit;
    entries.truncate(limit);
    let files: Vec<Served<ollm::discover::Entry>> = entries.into_iter().map(Served).collect();
    Ok(FileList {
        root: display(&root),
        count: files.len(),
        files,
        truncated,
    })
}

fn display(path: &Path) -> String {
    path.display().to_string()
}
