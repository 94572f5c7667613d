//! `ollm-session keep`: the store's server connections kept open between
//! commands.
//!
//! Every command of a PostgreSQL store otherwise starts a server process
//! (a connection: fork, authentication, and a catalog cache built again
//! for its first statements), which is most of a short command's time.
//! The keeper holds authenticated connections and serves them on a Unix
//! socket in the PostgreSQL protocol, so a command connects to it as to
//! the server and finds a connection whose caches are warm. When the
//! command leaves, the connection is reset (`DISCARD ALL`) and kept, or
//! closed when the command left it busy, in a transaction or mid-message
//! (a command killed mid-write: the server rolls its transaction back,
//! as when it connects directly).
//!
//! The socket is `$OLLM_HOME/run/pg-<key>/.s.PGSQL.5432`, the key a hash
//! of the store's URL (and its password), so a command finds the keeper
//! of its own store only. The directory is private (0700) and the keeper
//! serves only its own user (the peer's credentials). A command finds no
//! socket, or one nobody answers, and connects directly as before.
//!
//! A command trusts the socket only as far as it can check it: `run/` and
//! `pg-<key>/` must be directories (not links) of this user that no one
//! else may enter, the socket this user's, and the process listening on
//! it this user's (its peer credentials, asked before anything is sent).
//! Anything else is someone else's socket: a warning, and the command
//! connects directly. `keep` refuses to serve from such a directory.

mod serve;
mod trust;
mod upstream;
mod watchdog;
mod wire;

use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use sha2::{Digest, Sha256};

pub(crate) use serve::Stopped;
pub(crate) use watchdog::stalled;

use super::url::PgUrl;
use crate::error::{Error, Result};
use crate::fs as sfs;

/// The name the client library gives the socket in a directory (port 5432).
const SOCKET_FILE: &str = ".s.PGSQL.5432";
const SOCKET_PORT: u16 = 5432;
/// How long a command waits for the keeper's greeting before it connects
/// to the server itself (the greeting takes well under a millisecond).
const KEEPER_DEADLINE: Duration = Duration::from_secs(1);
/// The longest path a Unix socket may have (`sun_path`, less its NUL).
const SOCKET_PATH_MAX: usize = 107;

/// The directory of the keeper of `url`'s store under `run_dir`.
pub(crate) fn socket_dir(run_dir: &Path, url: &PgUrl) -> PathBuf {
    let mut hash = Sha256::new();
    hash.update(url.identity());
    let digest = hash.finalize();
    let key: String = digest[..8].iter().map(|b| format!("{b:02x}")).collect();
    run_dir.join(format!("pg-{key}"))
}

/// A connection through the keeper of `url`'s store, when one is running.
pub(crate) fn connect_kept(run_dir: &Path, url: &PgUrl) -> Option<postgres::Client> {
    let dir = socket_dir(run_dir, url);
    let socket = dir.join(SOCKET_FILE);
    if std::fs::symlink_metadata(&socket).is_err() {
        return None;
    }
    if let Err(why) = trust::private_dir(run_dir)
        .and_then(|()| trust::private_dir(&dir))
        .and_then(|()| trust::own_socket(&socket))
    {
        crate::diag::warn(format!(
            "not using the keeper socket {}: {why}; connecting directly",
            socket.display()
        ));
        return None;
    }
    let mut config = postgres::Config::new();
    config
        .host_path(&dir)
        .port(SOCKET_PORT)
        .ssl_mode(postgres::config::SslMode::Disable);
    if let Some(user) = url.config.get_user() {
        config.user(user);
    }
    if let Some(dbname) = url.config.get_dbname() {
        config.dbname(dbname);
    }
    // A keeper that accepts but does not answer (stopped: SIGSTOP) must not
    // hold the command: past the deadline it connects directly, and the
    // waiting thread ends with the process. One stopped later is given up
    // by the watchdog.
    let (sender, answer) = std::sync::mpsc::channel();
    let watched = socket.clone();
    std::thread::spawn(move || {
        let _ = sender.send(match trust::listener_is_ours(&socket) {
            Ok(pid) => Ok((pid, config.connect(postgres::NoTls))),
            Err(why) => Err(why),
        });
    });
    match answer.recv_timeout(KEEPER_DEADLINE).ok()? {
        Ok((pid, connected)) => {
            let client = connected.ok()?;
            watchdog::watch(pid, watched);
            Some(client)
        }
        Err(why) => {
            crate::diag::warn(format!(
                "not using the keeper socket {}: {why}; connecting directly",
                dir.join(SOCKET_FILE).display()
            ));
            None
        }
    }
}

/// What the keeper tells its caller as it starts.
pub(crate) struct Ready<'a> {
    pub socket: &'a Path,
    pub pid: u32,
}

/// Keeps `url`'s connections on a socket under `run_dir` until a signal,
/// `idle` without a command, or the socket's removal. `ready` is called
/// once the socket accepts commands. Returns why it stopped and how many
/// commands it served.
pub(crate) fn keep(
    url: &PgUrl,
    run_dir: &Path,
    idle: Option<Duration>,
    ready: impl FnOnce(Ready<'_>) -> Result<()>,
) -> Result<(Stopped, u64)> {
    if let Some(what) = upstream::unsupported(url) {
        return Err(Error::Config(format!(
            "keep: {what} in the store URL is not kept; commands connect directly"
        )));
    }
    let dir = socket_dir(run_dir, url);
    let socket = dir.join(SOCKET_FILE);
    if socket.as_os_str().len() > SOCKET_PATH_MAX {
        return Err(Error::Config(format!(
            "keep: the socket path {} is longer than a Unix socket's {SOCKET_PATH_MAX} bytes \
             (a shorter OLLM_HOME)",
            socket.display()
        )));
    }
    sfs::create_private_dir_all(&dir)?;
    for private in [run_dir, dir.as_path()] {
        trust::private_dir(private).map_err(|why| Error::Io {
            path: private.to_path_buf(),
            message: format!("keep: will not serve from here: {why}"),
        })?;
    }
    let io = |err: std::io::Error| Error::Io {
        path: socket.clone(),
        message: crate::text::one_line(&err.to_string()),
    };
    let owner = std::fs::metadata(&dir).map_err(io)?.uid();
    if std::os::unix::net::UnixStream::connect(&socket).is_ok() {
        return Err(Error::Usage(format!(
            "keep: a keeper already serves this store ({})",
            socket.display()
        )));
    }
    // Ctrl-Z at its terminal would stop it with its socket open: the
    // commands would each wait out the deadline above. It keeps running.
    // SAFETY: setting a signal's disposition to "ignore" has no handler
    // to run and touches no memory of ours.
    unsafe {
        libc::signal(libc::SIGTSTP, libc::SIG_IGN);
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(io)?;
    runtime.block_on(async {
        let first = upstream::open(url).await.map_err(|refused| Error::Io {
            path: PathBuf::from(url.shown()),
            message: crate::redact::scrub_message(&crate::text::one_line(&format!(
                "cannot reach the database: {refused}"
            ))),
        })?;
        // A socket nobody answers is a keeper's that was killed.
        match std::fs::remove_file(&socket) {
            Ok(()) => {}
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => {}
            Err(err) => return Err(io(err)),
        }
        let listener = tokio::net::UnixListener::bind(&socket).map_err(io)?;
        std::fs::set_permissions(&socket, std::fs::Permissions::from_mode(0o600)).map_err(io)?;
        let signals = serve::Signals::catch().map_err(io)?;
        ready(Ready {
            socket: &socket,
            pid: std::process::id(),
        })?;
        let keeper = Arc::new(serve::Keeper::new(url.clone(), owner, first));
        let stopped = serve::run(Arc::clone(&keeper), listener, socket.clone(), idle, signals)
            .await
            .map_err(io)?;
        Ok((stopped, keeper.served()))
    })
}
