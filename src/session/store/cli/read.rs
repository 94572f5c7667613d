//! A session document read from its file: whole, or for a change that
//! only adds records, with the records already there kept as bytes.

use std::path::Path;

use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::{Map, Value};

use super::{Document, in_flight, splice};
use crate::error::{Error, Result};
use crate::fs::replace::Stamp;
use crate::fs::{self as sfs};
use crate::lossless;
use crate::session::model::Session;

/// Why the document at `path` cannot be used: one line, exit 6, naming the
/// file and saying that it was left where it is.
fn unreadable(id: &str, path: &Path, why: &str) -> Error {
    Error::Corrupt(format!(
        "session {id} cannot be read ({why}); {} is left as it is",
        path.display()
    ))
}

/// Reads and parses the document of session `id` at `path` (`None`: no
/// such file). A document that does not parse, or holds another session,
/// is an [`Error::Corrupt`] naming the file; a document nested deeper than
/// serde_json follows is an [`Error::Io`] (not corrupt: valid JSON we
/// cannot read). Nothing is changed either way.
pub fn read(id: &str, path: &Path) -> Result<Option<Document>> {
    Ok(read_with_session(id, path)?.map(|(document, _)| document))
}

/// [`read`], and the document as the spec's session: what checking it
/// built, so a reader parses the file once.
pub fn read_with_session(id: &str, path: &Path) -> Result<Option<(Document, Session)>> {
    let Some((bytes, meta)) = read_bytes(path)? else {
        return Ok(None);
    };
    let decoded = lossless::decode(&bytes);
    let fields = parse::<Map<String, Value>>(id, path, &decoded.text)?;
    let exact = decoded.exact;
    drop(decoded);
    let document = Document {
        fields,
        exact,
        stamp: Some(Stamp::of(&meta)),
        cli_active: in_flight::another_is_writing(&meta),
        kept: None,
        theirs: in_flight::is_theirs(&meta),
        read_bytes: bytes,
    };
    let session = document.checked(id, path)?;
    Ok(Some((document, session)))
}

/// Reads the document of session `id` for a change that only adds records
/// and changes the head: in the CLI's layout, the records already there
/// are checked as JSON and kept as bytes ([`splice`]), the head is parsed
/// and checked as the spec's session. A file in another layout is read
/// whole ([`read`]).
pub(super) fn read_for_adding(id: &str, path: &Path) -> Result<Option<Document>> {
    let Some(file) = sfs::open_regular(path)? else {
        return Ok(None);
    };
    let meta = file.metadata().map_err(|e| Error::io(path, &e))?;
    let bytes = match splice::recall(path, Stamp::of(&meta)) {
        Some(written) => written,
        None => {
            let bytes = read_all(&file, &meta, path)?;
            parse::<IgnoredAny>(id, path, &lossless::decode(&bytes).text)?;
            bytes
        }
    };
    let Some((head, kept)) = splice::elide(bytes) else {
        return read(id, path);
    };
    let decoded = lossless::decode(&head);
    let fields = parse::<Map<String, Value>>(id, path, &decoded.text)?;
    let document = Document {
        fields,
        exact: decoded.exact,
        stamp: Some(Stamp::of(&meta)),
        cli_active: in_flight::another_is_writing(&meta),
        kept: None,
        theirs: in_flight::is_theirs(&meta),
        read_bytes: Vec::new(),
    };
    // A file another program is writing now is read whole: what a race
    // with it dropped is told from its records.
    if document.cli_active {
        return read(id, path);
    }
    document.checked(id, path)?;
    // A head laid out other than as it is written (by hand) is read whole,
    // so that the file comes out as a whole rewrite would write it.
    if document.to_bytes()? != head {
        return read(id, path);
    }
    Ok(Some(Document {
        kept: Some(kept),
        ..document
    }))
}

/// The bytes of the regular file at `path` and its metadata (`None`: no
/// such file).
fn read_bytes(path: &Path) -> Result<Option<(Vec<u8>, std::fs::Metadata)>> {
    let Some(file) = sfs::open_regular(path)? else {
        return Ok(None);
    };
    let meta = file.metadata().map_err(|e| Error::io(path, &e))?;
    let bytes = read_all(&file, &meta, path)?;
    Ok(Some((bytes, meta)))
}

fn read_all(file: &std::fs::File, meta: &std::fs::Metadata, path: &Path) -> Result<Vec<u8>> {
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    std::io::Read::read_to_end(&mut &*file, &mut bytes).map_err(|e| Error::io(path, &e))?;
    Ok(bytes)
}

/// `text` (a session file's, decoded) parsed as `T`.
fn parse<'a, T: Deserialize<'a>>(id: &str, path: &Path, text: &'a [u8]) -> Result<T> {
    serde_json::from_slice(text).map_err(|err| {
        if err.to_string().contains("recursion limit exceeded") {
            Error::Io {
                path: path.to_path_buf(),
                message: "nests deeper than the 128 levels ollm reads; left in place".into(),
            }
        } else {
            unreadable(id, path, &crate::text::one_line(&err.to_string()))
        }
    })
}

impl Document {
    /// The document checked as the spec's session of `id` (with the path
    /// of a field in error).
    fn checked(&self, id: &str, path: &Path) -> Result<Session> {
        let session = self.session().map_err(|why| unreadable(id, path, &why))?;
        if session.session_id != id {
            let why = format!("the file holds session {:?}", session.session_id);
            return Err(unreadable(id, path, &why));
        }
        Ok(session)
    }
}
