//! The optional file-system watcher (Linux): a background process per work
//! tree ([`daemon`]) that a snapshot asks over a unix socket for the paths
//! changed since its session's last snapshot, so it re-stats only those
//! instead of scanning the whole tree. Any doubt is a full scan: no watcher
//! (it is then started for the next snapshot), a restarted one (a new token
//! epoch), a lost event, an ignore file changed, a slow or broken answer.
//!
//! Files: the socket, its lock and the holder's pid in
//! `<store>/watch/<key>.{sock,lock,pid}` (the store is private, 0700), and
//! each session's last token in its work tree's directory of the store.

#[cfg(target_os = "linux")]
mod daemon;

use std::fmt::Write as _;
use std::io::{BufRead, BufReader, Write};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::store::Store;
use super::tree::{from_hex, to_hex};
use crate::config::Config;
use crate::error::Result;
use crate::fs::Durability;
use crate::fs::lock::Lock;

/// How long a watcher runs without a query before it exits.
pub(crate) const IDLE: Duration = Duration::from_secs(15 * 60);
/// How long a snapshot waits for an answer before it scans in full.
const TIMEOUT: Duration = Duration::from_millis(500);
/// The longest socket path a `sockaddr_un` holds.
const MAX_SOCKET_PATH: usize = 100;

/// A point in a watcher's log: its epoch (one per watcher process) and the
/// query that was answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Token {
    pub epoch: u64,
    pub seq: u64,
}

impl Token {
    fn parse(text: &str) -> Option<Token> {
        let (epoch, seq) = text.trim().split_once(' ')?;
        Some(Token {
            epoch: epoch.parse().ok()?,
            seq: seq.parse().ok()?,
        })
    }

    fn encode(self) -> String {
        format!("{} {}", self.epoch, self.seq)
    }
}

/// A watcher's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Answer {
    /// The log cannot say: scan the whole tree (and keep the token).
    Full(Token),
    /// Relative paths changed since the token asked about, and directories
    /// created, moved or removed (everything below them may have changed).
    Changed {
        token: Token,
        paths: Vec<Vec<u8>>,
        trees: Vec<Vec<u8>>,
    },
}

impl Answer {
    pub fn token(&self) -> Token {
        match self {
            Answer::Full(token) | Answer::Changed { token, .. } => *token,
        }
    }

    fn encode(&self) -> Vec<u8> {
        let mut out = String::new();
        match self {
            Answer::Full(token) => {
                let _ = writeln!(out, "full {}", token.encode());
            }
            Answer::Changed {
                token,
                paths,
                trees,
            } => {
                let _ = writeln!(out, "changed {}", token.encode());
                for path in paths {
                    let _ = writeln!(out, "p {}", to_hex(path));
                }
                for tree in trees {
                    let _ = writeln!(out, "t {}", to_hex(tree));
                }
            }
        }
        out.push_str("end\n");
        out.into_bytes()
    }

    /// An answer as sent; `None` unless whole (ends with `end`).
    fn decode(reader: impl BufRead) -> Option<Answer> {
        let mut lines = reader.lines();
        let head = lines.next()?.ok()?;
        let (kind, token) = head.split_once(' ')?;
        let token = Token::parse(token)?;
        let (mut paths, mut trees) = (Vec::new(), Vec::new());
        for line in lines {
            let line = line.ok()?;
            if line == "end" {
                return match kind {
                    "full" => Some(Answer::Full(token)),
                    "changed" => Some(Answer::Changed {
                        token,
                        paths,
                        trees,
                    }),
                    _ => None,
                };
            }
            match line.split_once(' ')? {
                ("p", hex) => paths.push(from_hex(hex)?),
                ("t", hex) => trees.push(from_hex(hex)?),
                _ => return None,
            }
        }
        None
    }
}

/// Whether snapshots use a watcher: `services.checkpoint.watch` (or
/// `OLLM_CHECKPOINT_WATCH`, as every key has its variable); never off Linux.
pub(crate) fn enabled(config: &Config) -> bool {
    cfg!(target_os = "linux") && config.services.checkpoint.watch
}

/// The socket of the watcher of `root`; `None` when its path would be too
/// long for a unix socket.
pub(crate) fn socket_path(store: &Store, root: &Path) -> Option<PathBuf> {
    let key = xxhash_rust::xxh3::xxh3_64(root.as_os_str().as_bytes());
    let path = store.root.join("watch").join(format!("{key:016x}.sock"));
    (path.as_os_str().len() <= MAX_SOCKET_PATH).then_some(path)
}

/// Takes the watcher lock beside `socket`, noting this process as its
/// holder; `None` (after saying who holds it) when another watcher does.
fn take_lock(socket: &Path) -> Result<Option<Lock>> {
    if let Some(dir) = socket.parent() {
        crate::fs::create_private_dir_all(dir)?;
    }
    let pid_file = socket.with_extension("pid");
    let Some(lock) = Lock::try_exclusive(&socket.with_extension("lock"))? else {
        let holder = std::fs::read_to_string(&pid_file).unwrap_or_default();
        crate::diag::warn(format!(
            "a watcher of this tree is running already (pid {})",
            holder.trim()
        ));
        return Ok(None);
    };
    crate::fs::write_atomic(
        &pid_file,
        std::process::id().to_string().as_bytes(),
        Durability::Cache,
    )?;
    Ok(Some(lock))
}

/// Runs the watcher of `root` in this process until it is idle.
pub(crate) fn run(config: &Config, root: &Path) -> Result<()> {
    let store = Store::configured(config);
    let Some(socket) = socket_path(&store, root) else {
        return Err(crate::error::Error::usage(format!(
            "{}: the store's path is too long for the watcher's socket",
            store.root.display()
        )));
    };
    #[cfg(target_os = "linux")]
    {
        daemon::run(root, &socket, IDLE)
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = socket;
        Err(crate::error::Error::usage(
            "the watcher needs Linux's inotify",
        ))
    }
}

/// Asks the watcher of `root` what changed since `since`. `None` when no
/// watcher answered in time: then one is started (for the next snapshot)
/// and this one scans in full.
pub(crate) fn ask(store: &Store, root: &Path, since: Option<Token>) -> Option<Answer> {
    let socket = socket_path(store, root)?;
    match query(&socket, since) {
        Some(answer) => Some(answer),
        None => {
            start(&socket, root);
            None
        }
    }
}

fn query(socket: &Path, since: Option<Token>) -> Option<Answer> {
    let mut stream = UnixStream::connect(socket).ok()?;
    stream.set_read_timeout(Some(TIMEOUT)).ok()?;
    stream.set_write_timeout(Some(TIMEOUT)).ok()?;
    let line = match since {
        Some(token) => format!("since {}\n", token.encode()),
        None => "since -\n".to_string(),
    };
    stream.write_all(line.as_bytes()).ok()?;
    Answer::decode(BufReader::new(stream))
}

/// Starts a watcher of `root` in the background: `ollm-checkpoint watch`
/// beside this program, detached, its output discarded. A second one
/// started meanwhile finds the lock held and exits.
fn start(socket: &Path, root: &Path) {
    use std::os::unix::process::CommandExt;
    let Some(program) = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(|dir| dir.join("ollm-checkpoint")))
        .filter(|p| p.is_file())
    else {
        return;
    };
    if let Some(dir) = socket.parent()
        && crate::fs::create_private_dir_all(dir).is_err()
    {
        return;
    }
    let mut command = std::process::Command::new(program);
    command
        .arg("watch")
        .arg("--dir")
        .arg(root)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .process_group(0);
    if let Ok(child) = command.spawn() {
        // Not waited for: it outlives this process (and is reparented).
        drop(child);
    }
}

fn token_file(store: &Store, root: &Path, session: &str) -> PathBuf {
    store
        .workspace_dir(root)
        .join(format!("watch-token-{session}"))
}

/// The token the session's snapshot `turn` of `root` kept, if it kept one
/// (a token kept with another turn says nothing about this one).
pub(crate) fn last_token(store: &Store, root: &Path, session: &str, turn: u64) -> Option<Token> {
    let bytes = crate::fs::read_regular(&token_file(store, root, session))
        .ok()
        .flatten()?;
    let text = std::str::from_utf8(&bytes).ok()?;
    let (token, kept_with) = text.trim().rsplit_once(' ')?;
    (kept_with.parse() == Ok(turn))
        .then(|| Token::parse(token))
        .flatten()
}

/// Keeps the token of the snapshot just written, with its turn (or drops
/// the old one).
pub(crate) fn save_token(store: &Store, root: &Path, session: &str, token: Option<(Token, u64)>) {
    let path = token_file(store, root, session);
    match token {
        Some((token, turn)) => {
            let text = format!("{} {turn}", token.encode());
            let _ = crate::fs::write_atomic(&path, text.as_bytes(), Durability::Cache);
        }
        None => {
            let _ = std::fs::remove_file(path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_reads_back_as_sent_and_a_cut_one_not_at_all() {
        let token = Token { epoch: 7, seq: 3 };
        let answer = Answer::Changed {
            token,
            paths: vec![b"a/b".to_vec(), b"\xff name".to_vec()],
            trees: vec![b"new dir".to_vec()],
        };
        let sent = answer.encode();
        assert_eq!(Answer::decode(sent.as_slice()), Some(answer));
        let cut = &sent[..sent.len() - 4];
        assert_eq!(Answer::decode(cut), None);
        let full = Answer::Full(token).encode();
        assert_eq!(Answer::decode(full.as_slice()), Some(Answer::Full(token)));
    }
}
