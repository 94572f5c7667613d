//! What a command checks before it talks to a keeper's socket: that only
//! this user could have put it there, and that this user's process
//! listens on it. A socket someone else controls would be sent the
//! command's startup packet and its statements.

use std::fs::Metadata;
use std::os::fd::AsRawFd;
use std::os::unix::fs::{FileTypeExt, MetadataExt, PermissionsExt};
use std::os::unix::net::UnixStream;
use std::path::Path;

/// Why a place is not trusted, for a one-line warning.
pub(super) type Distrust = String;

fn euid() -> u32 {
    // SAFETY: geteuid cannot fail and touches no memory.
    unsafe { libc::geteuid() }
}

fn lstat(path: &Path) -> Result<Metadata, Distrust> {
    std::fs::symlink_metadata(path).map_err(|e| format!("cannot look at {}: {e}", path.display()))
}

fn owned(path: &Path, meta: &Metadata) -> Result<(), Distrust> {
    if meta.uid() == euid() {
        Ok(())
    } else {
        Err(format!(
            "{} belongs to uid {}, not to this user",
            path.display(),
            meta.uid()
        ))
    }
}

/// A directory (not a link to one) of this user that no one else may
/// enter or write.
pub(super) fn private_dir(path: &Path) -> Result<(), Distrust> {
    let meta = lstat(path)?;
    if meta.file_type().is_symlink() {
        return Err(format!("{} is a symbolic link", path.display()));
    }
    if !meta.is_dir() {
        return Err(format!("{} is not a directory", path.display()));
    }
    owned(path, &meta)?;
    let mode = meta.permissions().mode() & 0o777;
    if mode & 0o077 != 0 {
        return Err(format!(
            "{} is open to others (mode {mode:04o}, not 0700)",
            path.display()
        ));
    }
    Ok(())
}

/// A socket of this user.
pub(super) fn own_socket(path: &Path) -> Result<(), Distrust> {
    let meta = lstat(path)?;
    if !meta.file_type().is_socket() {
        return Err(format!("{} is not a socket", path.display()));
    }
    owned(path, &meta)
}

/// Connects without sending anything and asks the kernel who listens:
/// this user's process (its pid), or the socket is not used.
pub(super) fn listener_is_ours(path: &Path) -> Result<i32, Distrust> {
    let probe = UnixStream::connect(path)
        .map_err(|e| format!("cannot connect to {}: {e}", path.display()))?;
    let mut cred = libc::ucred {
        pid: 0,
        uid: u32::MAX,
        gid: u32::MAX,
    };
    let mut len = libc::socklen_t::try_from(size_of::<libc::ucred>()).unwrap_or(0);
    // SAFETY: `cred` is a ucred of `len` bytes that outlives the call, and
    // the descriptor is the connected socket held by `probe`.
    let asked = unsafe {
        libc::getsockopt(
            probe.as_raw_fd(),
            libc::SOL_SOCKET,
            libc::SO_PEERCRED,
            (&raw mut cred).cast(),
            &raw mut len,
        )
    };
    if asked != 0 {
        return Err(format!(
            "cannot ask who listens on {}: {}",
            path.display(),
            std::io::Error::last_os_error()
        ));
    }
    if cred.uid == euid() {
        Ok(cred.pid)
    } else {
        Err(format!(
            "process {} of uid {} listens on {}, not this user's",
            cred.pid,
            cred.uid,
            path.display()
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_private_directory_of_this_user_is_trusted() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("run");
        std::fs::create_dir(&dir).unwrap();
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)).unwrap();
        assert_eq!(private_dir(&dir), Ok(()));
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o777)).unwrap();
        assert!(private_dir(&dir).unwrap_err().contains("mode 0777"));
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o750)).unwrap();
        assert!(private_dir(&dir).unwrap_err().contains("open to others"));
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)).unwrap();
        let link = tmp.path().join("link");
        std::os::unix::fs::symlink(&dir, &link).unwrap();
        assert!(private_dir(&link).unwrap_err().contains("symbolic link"));
        let file = tmp.path().join("file");
        std::fs::write(&file, "").unwrap();
        assert!(private_dir(&file).unwrap_err().contains("not a directory"));
        assert!(own_socket(&file).unwrap_err().contains("not a socket"));
    }

    #[test]
    fn a_socket_this_process_listens_on_is_ours() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("s");
        let _listener = std::os::unix::net::UnixListener::bind(&path).unwrap();
        assert_eq!(own_socket(&path), Ok(()));
        assert_eq!(
            listener_is_ours(&path),
            Ok(std::process::id().cast_signed())
        );
        assert!(listener_is_ours(&tmp.path().join("none")).is_err());
    }
}
