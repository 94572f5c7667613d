//! The keeper's event loop: commands connect to its socket as to a
//! server; each is given a connection the keeper already holds (or a new
//! one) for as long as it stays, and the connection is reset and kept
//! when the command leaves it idle, closed otherwise.

use std::collections::VecDeque;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{UnixListener, UnixStream};
use tokio::signal::unix::{SignalKind, signal};

use super::upstream::{self, Refused, Upstream};
use super::wire::{self, Framer, Walk};
use crate::session::store::postgres::url::PgUrl;

/// Idle connections kept for the next commands; more are closed as their
/// commands leave (a burst of parallel writers does not hold a server
/// connection each for the keeper's life).
const IDLE_KEPT: usize = 4;

/// How long a stop waits for the commands still connected.
const STOP_GRACE: Duration = Duration::from_secs(10);

/// Why the keeper stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stopped {
    /// SIGINT or SIGTERM.
    Signal,
    /// No command connected for the `--idle` time.
    Idle,
    /// Its socket was removed or replaced (its directory deleted, another
    /// keeper started in its place).
    SocketGone,
}

impl Stopped {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Stopped::Signal => "signal",
            Stopped::Idle => "idle",
            Stopped::SocketGone => "socket removed",
        }
    }
}

pub(super) struct Keeper {
    url: PgUrl,
    /// Handed out oldest first, so each stays in use (and its caches
    /// warm) and none waits long enough to be dropped by the server.
    idle: Mutex<VecDeque<Upstream>>,
    /// The user whose commands may connect (the socket directory's owner).
    owner: u32,
    user: String,
    database: String,
    active: AtomicUsize,
    served: AtomicU64,
    last_left: Mutex<Instant>,
}

impl Keeper {
    pub(super) fn new(url: PgUrl, owner: u32, first: Upstream) -> Keeper {
        let user = upstream::user_name(&url).unwrap_or_default();
        let database = url
            .config
            .get_dbname()
            .map_or_else(|| user.clone(), str::to_string);
        Keeper {
            url,
            idle: Mutex::new(VecDeque::from([first])),
            owner,
            user,
            database,
            active: AtomicUsize::new(0),
            served: AtomicU64::new(0),
            last_left: Mutex::new(Instant::now()),
        }
    }

    pub(super) fn served(&self) -> u64 {
        self.served.load(Ordering::Relaxed)
    }

    /// An idle connection that is still sound, else a new one.
    async fn take(&self) -> Result<Upstream, Refused> {
        loop {
            let candidate = self
                .idle
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .pop_front();
            let Some(mut upstream) = candidate else {
                return upstream::open(&self.url).await;
            };
            if upstream.is_quiet().await {
                return Ok(upstream);
            }
        }
    }

    async fn give_back(&self, mut upstream: Upstream) {
        if !upstream.reset().await {
            return;
        }
        let surplus = {
            let mut idle = self.idle.lock().unwrap_or_else(PoisonError::into_inner);
            if idle.len() < IDLE_KEPT {
                idle.push_back(upstream);
                None
            } else {
                Some(upstream)
            }
        };
        if let Some(upstream) = surplus {
            upstream.close().await;
        }
    }

    async fn close_idle(&self) {
        let idle = std::mem::take(&mut *self.idle.lock().unwrap_or_else(PoisonError::into_inner));
        for upstream in idle {
            upstream.close().await;
        }
    }

    /// One command, from its startup message to its goodbye.
    async fn serve(self: Arc<Self>, mut client: UnixStream) {
        let allowed = client
            .peer_cred()
            .is_ok_and(|peer| peer.uid() == self.owner);
        if allowed && let Some(startup) = read_startup(&mut client).await {
            self.served.fetch_add(1, Ordering::Relaxed);
            if let Err(refusal) = self.check(&startup) {
                let _ = client.write_all(&refusal).await;
            } else {
                self.pass(client).await;
            }
        }
        *self
            .last_left
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = Instant::now();
        self.active.fetch_sub(1, Ordering::SeqCst);
    }

    /// A command asking for another user or database than the keeper's
    /// is refused, as the server would refuse it.
    fn check(&self, startup: &[(String, String)]) -> Result<(), Vec<u8>> {
        for (key, value) in startup {
            match key.as_str() {
                "user" if *value != self.user => {
                    return Err(wire::fatal(
                        "28000",
                        &format!("this keeper connects as {:?}, not {value:?}", self.user),
                    ));
                }
                "database" if *value != self.database => {
                    return Err(wire::fatal(
                        "3D000",
                        &format!(
                            "this keeper serves database {:?}, not {value:?}",
                            self.database
                        ),
                    ));
                }
                _ => {}
            }
        }
        Ok(())
    }

    async fn pass(&self, mut client: UnixStream) {
        let mut upstream = match self.take().await {
            Ok(upstream) => upstream,
            Err(refused) => {
                let code = match &refused {
                    Refused::Server { code, .. } => code.as_str(),
                    Refused::Other(_) => "08006",
                };
                let _ = client
                    .write_all(&wire::fatal(code, &refused.to_string()))
                    .await;
                return;
            }
        };
        let mut greeting = wire::authentication_ok();
        for parameter in upstream.parameters.values() {
            greeting.extend_from_slice(parameter);
        }
        greeting.extend_from_slice(&upstream.key_data);
        greeting.extend_from_slice(&wire::ready_for_query());
        if client.write_all(&greeting).await.is_err() {
            self.give_back(upstream).await;
            return;
        }
        if relay(client, &mut upstream).await {
            self.give_back(upstream).await;
        }
    }
}

/// The command's startup message's parameters; `None` for a cancel
/// request or anything that is not protocol 3.0. Encryption is declined:
/// the socket is private to its user.
async fn read_startup(client: &mut UnixStream) -> Option<Vec<(String, String)>> {
    let exchange = async {
        loop {
            let mut length = [0u8; 4];
            client.read_exact(&mut length).await.ok()?;
            let length = u32::from_be_bytes(length) as usize;
            if !(8..=10_000).contains(&length) {
                return None;
            }
            let mut body = vec![0u8; length - 4];
            client.read_exact(&mut body).await.ok()?;
            let code = u32::from_be_bytes([body[0], body[1], body[2], body[3]]);
            match code {
                wire::SSL_REQUEST | wire::GSSENC_REQUEST => client.write_all(b"N").await.ok()?,
                wire::PROTOCOL_3 => return Some(wire::startup_parameters(&body[4..])),
                _ => return None,
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(10), exchange)
        .await
        .ok()
        .flatten()
}

/// Passes bytes both ways until the command leaves; true when it left the
/// connection as it found it: every request answered, no transaction
/// open, no message half sent.
async fn relay(client: UnixStream, upstream: &mut Upstream) -> bool {
    let (mut from_client, mut to_client) = client.into_split();
    let Upstream {
        stream, parameters, ..
    } = upstream;
    let (mut from_server, mut to_server) = tokio::io::split(stream);
    let (mut requests, mut answers) = (0u64, 0u64);
    let mut status = b'I';
    let mut last_request = b'S';
    let mut client_frames = Framer::default();

    let upward = async {
        let mut buf = vec![0u8; 64 * 1024];
        loop {
            let n = match from_client.read(&mut buf).await {
                Ok(0) | Err(_) => return Leaving::Gone,
                Ok(n) => n,
            };
            let (mut cut, mut goodbye) = (n, false);
            let walked = client_frames.walk(
                &buf[..n],
                |_| false,
                |m| {
                    if m.tag == b'X' {
                        (cut, goodbye) = (m.end - 5, true);
                        return Walk::Stop;
                    }
                    if matches!(m.tag, b'Q' | b'S' | b'F') {
                        requests += 1;
                    }
                    last_request = m.tag;
                    Walk::On
                },
            );
            if walked.is_err() || to_server.write_all(&buf[..cut]).await.is_err() {
                return Leaving::Broken;
            }
            if goodbye {
                return Leaving::Goodbye;
            }
        }
    };
    let downward = async {
        let mut buf = vec![0u8; 64 * 1024];
        let mut frames = Framer::default();
        loop {
            let n = match from_server.read(&mut buf).await {
                Ok(0) | Err(_) => return Leaving::Broken,
                Ok(n) => n,
            };
            let walked = frames.walk(
                &buf[..n],
                |tag| matches!(tag, b'Z' | b'S'),
                |m| {
                    match m.tag {
                        b'Z' => {
                            answers += 1;
                            status = m.body.first().copied().unwrap_or(b'E');
                        }
                        b'S' => {
                            let name = wire::parameter_name(m.body).to_vec();
                            parameters.insert(name, wire::message(b'S', m.body));
                        }
                        _ => {}
                    }
                    Walk::On
                },
            );
            if walked.is_err() || to_client.write_all(&buf[..n]).await.is_err() {
                return Leaving::Broken;
            }
        }
    };
    let leaving = tokio::select! {
        leaving = upward => leaving,
        leaving = downward => leaving,
    };
    leaving != Leaving::Broken
        && requests == answers
        && status == b'I'
        && matches!(last_request, b'Q' | b'S')
        && client_frames.between_messages()
}

#[derive(PartialEq, Eq)]
enum Leaving {
    /// The command said goodbye (`Terminate`).
    Goodbye,
    /// The command closed its end (a process that exited or was killed).
    Gone,
    /// A stream failed or could not be followed.
    Broken,
}

/// The socket file's identity, to notice it removed or replaced.
fn identity(socket: &Path) -> Option<(u64, u64)> {
    std::fs::symlink_metadata(socket)
        .ok()
        .map(|m| (m.dev(), m.ino()))
}

/// SIGTERM and SIGINT, caught from before the keeper says it is ready:
/// one sent right after `ready` stops it as any other does (its `stopped`
/// event given, its socket removed), rather than killing it.
pub(super) struct Signals {
    terminate: tokio::signal::unix::Signal,
    interrupt: tokio::signal::unix::Signal,
}

impl Signals {
    /// Installs the handlers (within the runtime).
    pub(super) fn catch() -> std::io::Result<Signals> {
        Ok(Signals {
            terminate: signal(SignalKind::terminate())?,
            interrupt: signal(SignalKind::interrupt())?,
        })
    }
}

/// Accepts commands until a signal, the idle time, or the socket's
/// removal; then lets the commands still connected finish.
pub(super) async fn run(
    keeper: Arc<Keeper>,
    listener: UnixListener,
    socket: PathBuf,
    idle: Option<Duration>,
    signals: Signals,
) -> std::io::Result<Stopped> {
    let ours = identity(&socket);
    let Signals {
        mut terminate,
        mut interrupt,
    } = signals;
    let mut tick = tokio::time::interval(Duration::from_millis(500));
    let stopped = loop {
        tokio::select! {
            accepted = listener.accept() => {
                if let Ok((client, _)) = accepted {
                    keeper.active.fetch_add(1, Ordering::SeqCst);
                    tokio::spawn(Arc::clone(&keeper).serve(client));
                }
            }
            _ = terminate.recv() => break Stopped::Signal,
            _ = interrupt.recv() => break Stopped::Signal,
            _ = tick.tick() => {
                if identity(&socket) != ours {
                    break Stopped::SocketGone;
                }
                let quiet_for = keeper.last_left.lock().unwrap_or_else(PoisonError::into_inner).elapsed();
                if let Some(idle) = idle
                    && keeper.active.load(Ordering::SeqCst) == 0
                    && quiet_for >= idle
                {
                    break Stopped::Idle;
                }
            }
        }
    };
    // New commands connect directly from here on.
    if identity(&socket) == ours {
        let _ = std::fs::remove_file(&socket);
    }
    drop(listener);
    let deadline = Instant::now() + STOP_GRACE;
    while keeper.active.load(Ordering::SeqCst) > 0 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    keeper.close_idle().await;
    Ok(stopped)
}
