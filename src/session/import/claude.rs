//! (being written)

use std::path::{Path, PathBuf};

use super::{Homes, Source, Transcript};
use crate::error::Result;

pub fn default_roots(_homes: &Homes) -> Vec<PathBuf> {
    Vec::new()
}

pub fn sources(_path: &Path) -> Result<Vec<Source>> {
    Ok(Vec::new())
}

pub fn read(_source: &Source, _each: &mut dyn FnMut(Transcript) -> Result<()>) -> Result<()> {
    Ok(())
}
