//! What an importer is: one agent CLI whose sessions can be read
//! ([`Importer`]), and the handle by which sources, reports and ids name
//! the one they came from ([`Tool`]). Which importers exist is the table
//! in [`super`] (`IMPORTERS`): a new one is its folder plus one line there.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

use serde::{Serialize, Serializer};

#[cfg(test)]
use super::Transcript;
use super::cursor::{Anchor, Tail};
use super::{Homes, Part, Source};
use crate::error::Result;

/// What [`Importer::read_tail`] did.
#[derive(Debug)]
pub enum TailRead {
    /// The new lines were read; a later tail continues from the anchor
    /// (none: the next read is whole).
    Read(Option<Anchor>),
    /// The new lines need the earlier ones: nothing was handed over, the
    /// whole source is to be read.
    Whole,
}

/// One agent CLI whose sessions can be imported: where it keeps them,
/// which files are its, and how one of them is read.
pub trait Importer: Sync {
    /// Its name on the command line (`--from NAME`), in the `TOOL` column,
    /// in `metadata.importedFrom.tool`, and in the ids it imports under:
    /// never to change.
    fn name(&self) -> &'static str;

    /// How people call it ("Claude Code"), for help texts and docs.
    fn title(&self) -> &'static str;

    /// The environment variables that move its default locations (read
    /// into [`Homes`] beside `HOME`).
    fn variables(&self) -> &'static [&'static str];

    /// Where it keeps its sessions when no path is given.
    fn default_roots(&self, homes: &Homes) -> Vec<PathBuf>;

    /// Its sources under `path` (a file or a directory); none when the
    /// path holds nothing of its.
    fn sources(&self, path: &Path) -> Result<Vec<Source>>;

    /// Whether `import --hook NAME` reads this tool's hook input (Claude
    /// Code's: `transcript_path` on standard input).
    fn hook(&self) -> bool {
        false
    }

    /// A warning to give about `source` before it is read (a database
    /// whose schema is newer than this version knows).
    fn notice(&self, _source: &Source) -> Option<String> {
        None
    }

    /// Reads `source`, handing over each session it holds in [`Part`]s of
    /// at most `max_items` items as it is read.
    fn read_parts(
        &self,
        source: &Source,
        max_items: usize,
        each: &mut dyn FnMut(Part) -> Result<()>,
    ) -> Result<()>;

    /// [`Importer::read_parts`], and where its conversation then stands,
    /// for a later [`Importer::read_tail`] (none: the next read is whole).
    fn read_anchored(
        &self,
        source: &Source,
        max_items: usize,
        each: &mut dyn FnMut(Part) -> Result<()>,
    ) -> Result<Option<Anchor>> {
        self.read_parts(source, max_items, each)?;
        Ok(None)
    }

    /// Reads only the lines `tail` names of an append-only file that grew,
    /// handing over what they add to the conversation they continue: the
    /// same items a whole read would add, or [`TailRead::Whole`] (before
    /// handing anything over) when they cannot be known without the
    /// earlier lines.
    fn read_tail(
        &self,
        _source: &Source,
        _tail: &Tail,
        _max_items: usize,
        _each: &mut dyn FnMut(Part) -> Result<()>,
    ) -> Result<TailRead> {
        Ok(TailRead::Whole)
    }

    /// Reads `source` with [`Importer::read_parts`] and hands over each
    /// session it holds whole, as soon as its last part is read: a
    /// database's sessions are held one at a time.
    #[cfg(test)]
    fn read(&self, source: &Source, each: &mut dyn FnMut(Transcript) -> Result<()>) -> Result<()> {
        let mut parts = Vec::new();
        self.read_parts(source, usize::MAX, &mut |part| {
            let last = part.last;
            parts.push(part);
            if last {
                for transcript in super::parts::whole(std::mem::take(&mut parts)) {
                    each(transcript)?;
                }
            }
            Ok(())
        })?;
        for transcript in super::parts::whole(parts) {
            each(transcript)?;
        }
        Ok(())
    }
}

/// An importer as what was read names it: compared, hashed, printed and
/// serialized as its [`Importer::name`].
#[derive(Clone, Copy)]
pub struct Tool(&'static dyn Importer);

impl Tool {
    pub const fn new(importer: &'static dyn Importer) -> Tool {
        Tool(importer)
    }
}

impl std::ops::Deref for Tool {
    type Target = dyn Importer;

    fn deref(&self) -> &Self::Target {
        self.0
    }
}

impl PartialEq for Tool {
    fn eq(&self, other: &Tool) -> bool {
        self.name() == other.name()
    }
}

impl Eq for Tool {}

impl Hash for Tool {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.name().hash(state);
    }
}

impl fmt::Debug for Tool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Serialize for Tool {
    fn serialize<S: Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}
