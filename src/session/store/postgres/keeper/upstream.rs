//! A connection to the server that the keeper owns: made as the store's
//! own client makes it (the URL's hosts in turn, TLS as `sslmode` says,
//! password, MD5 or SCRAM), then held as a byte stream the keeper passes
//! commands' messages over.

use std::collections::BTreeMap;
use std::time::Duration;

use bytes::BytesMut;
use postgres::config::{ChannelBinding, Host, SslMode, TargetSessionAttrs};
use postgres::tls::{MakeTlsConnect, TlsConnect};
use postgres_protocol::authentication::{md5_hash, sasl};
use postgres_protocol::message::frontend;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::{TcpStream, UnixStream};

use super::wire;
use crate::session::store::postgres::hosts::{Attempt, Turns, addresses_in_turn};
use crate::session::store::postgres::tls;
use crate::session::store::postgres::url::PgUrl;

pub(super) trait Stream: AsyncRead + AsyncWrite + Unpin + Send {}
impl<T: AsyncRead + AsyncWrite + Unpin + Send> Stream for T {}

/// An authenticated connection, ready for a query.
pub(super) struct Upstream {
    pub stream: Box<dyn Stream>,
    /// The server's `ParameterStatus` messages, whole, by name: what each
    /// command is told when it connects.
    pub parameters: BTreeMap<Vec<u8>, Vec<u8>>,
    /// The server's `BackendKeyData` message, whole.
    pub key_data: Vec<u8>,
}

/// Why a connection could not be made: the server's own error (its
/// SQLSTATE and message) or the network's.
#[derive(Debug)]
pub(super) enum Refused {
    Server { code: String, message: String },
    Other(String),
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refused::Server { message, .. } | Refused::Other(message) => f.write_str(message),
        }
    }
}

fn other(err: impl std::fmt::Display) -> Refused {
    Refused::Other(err.to_string())
}

/// What the keeper cannot do as the store's client would; checked before
/// it starts, so such a URL is refused rather than connected otherwise.
pub(super) fn unsupported(url: &PgUrl) -> Option<&'static str> {
    if url.config.get_channel_binding() == ChannelBinding::Require {
        return Some("channel_binding=require");
    }
    if url.config.get_target_session_attrs() != TargetSessionAttrs::Any {
        return Some("target_session_attrs");
    }
    None
}

/// The user the URL connects as: its own, else the login name (as the
/// postgres client does).
pub(super) fn user_name(url: &PgUrl) -> Option<String> {
    match url.config.get_user() {
        Some(user) => Some(user.to_string()),
        None => whoami::username().ok(),
    }
}

/// A new connection to the first of the URL's hosts that takes one, tried
/// as [`Turns`] says (as the store's own client tries them).
pub(super) async fn open(url: &PgUrl) -> Result<Upstream, Refused> {
    let mut turns = Turns::new(url).map_err(Refused::Other)?;
    let mut last = Refused::Other("the URL names no host".into());
    loop {
        let refused_with = match &last {
            Refused::Server { code, .. } => Some(code.as_str()),
            Refused::Other(_) => None,
        };
        let Some(attempt) = turns.next(refused_with) else {
            return Err(last);
        };
        let outcome = match url.config.get_connect_timeout() {
            Some(limit) => tokio::time::timeout(*limit, open_one(url, &attempt))
                .await
                .unwrap_or_else(|_| Err(Refused::Other("timed out connecting".into()))),
            None => open_one(url, &attempt).await,
        };
        match outcome {
            Ok(upstream) => return Ok(upstream),
            Err(err) => last = err,
        }
    }
}

async fn open_one(url: &PgUrl, attempt: &Attempt) -> Result<Upstream, Refused> {
    let Attempt { target, mode } = attempt;
    let stream: Box<dyn Stream> = match (&target.host, target.hostaddr) {
        (Some(Host::Unix(dir)), None) => {
            tls::over_socket(*mode).map_err(other)?;
            Box::new(
                UnixStream::connect(dir.join(format!(".s.PGSQL.{}", target.port)))
                    .await
                    .map_err(other)?,
            )
        }
        (host, address) => {
            let mut tcp = match (address, host) {
                (Some(ip), _) => TcpStream::connect((ip, target.port)).await.map_err(other)?,
                (None, Some(Host::Tcp(name))) => connect_by_name(url, name, target.port).await?,
                _ => return Err(Refused::Other("the URL names no host".into())),
            };
            tcp.set_nodelay(true).map_err(other)?;
            if *mode == SslMode::Disable {
                Box::new(tcp)
            } else if !server_offers_tls(&mut tcp).await? {
                if *mode == SslMode::Require {
                    return Err(Refused::Other("server does not support TLS".into()));
                }
                Box::new(tcp)
            } else {
                let name = target
                    .server_name()
                    .ok_or_else(|| Refused::Other("no host name for TLS".into()))?;
                let mut maker = url
                    .tls
                    .connector()
                    .map_err(|e| Refused::Other(e.to_string()))?;
                let connect = MakeTlsConnect::<TcpStream>::make_tls_connect(&mut maker, &name)
                    .map_err(other)?;
                Box::new(connect.connect(tcp).await.map_err(other)?)
            }
        }
    };
    start(url, stream).await
}

/// A TCP connection to the first address `name` resolves to that takes
/// one, in the order [`addresses_in_turn`] gives them.
async fn connect_by_name(url: &PgUrl, name: &str, port: u16) -> Result<TcpStream, Refused> {
    let resolved = tokio::net::lookup_host((name, port)).await.map_err(other)?;
    let mut last = Refused::Other(format!("{name}: the name resolved to no address"));
    for address in addresses_in_turn(url, resolved.collect()) {
        match TcpStream::connect(address).await {
            Ok(tcp) => return Ok(tcp),
            Err(err) => last = other(err),
        }
    }
    Err(last)
}

async fn server_offers_tls(tcp: &mut TcpStream) -> Result<bool, Refused> {
    let mut request = BytesMut::new();
    frontend::ssl_request(&mut request);
    tcp.write_all(&request).await.map_err(other)?;
    let mut answer = [0u8];
    tcp.read_exact(&mut answer).await.map_err(other)?;
    Ok(answer[0] == b'S')
}

/// The startup message, authentication, and the server's parameters.
async fn start(url: &PgUrl, mut stream: Box<dyn Stream>) -> Result<Upstream, Refused> {
    let config = &url.config;
    let user = user_name(url).ok_or_else(|| Refused::Other("no user name".into()))?;
    let mut params = vec![("client_encoding", "UTF8"), ("user", user.as_str())];
    if let Some(dbname) = config.get_dbname() {
        params.push(("database", dbname));
    }
    if let Some(options) = config.get_options() {
        params.push(("options", options));
    }
    if let Some(name) = config.get_application_name() {
        params.push(("application_name", name));
    }
    let mut out = BytesMut::new();
    frontend::startup_message(params, &mut out).map_err(other)?;
    stream.write_all(&out).await.map_err(other)?;
    authenticate(url, &user, &mut stream).await?;
    let mut upstream = Upstream {
        stream,
        parameters: BTreeMap::new(),
        key_data: Vec::new(),
    };
    loop {
        let (tag, body) = read_message(&mut upstream.stream).await?;
        match tag {
            b'S' => {
                let name = wire::parameter_name(&body).to_vec();
                upstream.parameters.insert(name, wire::message(b'S', &body));
            }
            b'K' => upstream.key_data = wire::message(b'K', &body),
            b'Z' => return Ok(upstream),
            b'E' => return Err(server_error(&body)),
            // Notices before the first query are not anyone's to read.
            b'N' => {}
            other => return Err(unexpected(other)),
        }
    }
}

async fn authenticate(
    url: &PgUrl,
    user: &str,
    stream: &mut Box<dyn Stream>,
) -> Result<(), Refused> {
    let password = || {
        url.config
            .get_password()
            .ok_or_else(|| Refused::Other("password missing".into()))
    };
    let mut scram: Option<sasl::ScramSha256> = None;
    loop {
        let (tag, body) = read_message(stream).await?;
        match tag {
            b'E' => return Err(server_error(&body)),
            b'R' => {}
            other => return Err(unexpected(other)),
        }
        let code = body
            .get(..4)
            .map(|b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
            .ok_or_else(|| Refused::Other("a short authentication message".into()))?;
        let data = &body[4..];
        let mut out = BytesMut::new();
        match code {
            0 => return Ok(()),
            3 => frontend::password_message(password()?, &mut out).map_err(other)?,
            5 => {
                let salt: [u8; 4] = data
                    .get(..4)
                    .and_then(|s| s.try_into().ok())
                    .ok_or_else(|| Refused::Other("an MD5 request without salt".into()))?;
                let hash = md5_hash(user.as_bytes(), password()?, salt);
                frontend::password_message(hash.as_bytes(), &mut out).map_err(other)?;
            }
            10 => {
                let offered = data
                    .split(|&b| b == 0)
                    .any(|m| m == sasl::SCRAM_SHA_256.as_bytes());
                if !offered {
                    return Err(Refused::Other("unsupported SASL mechanism".into()));
                }
                // No channel binding: the keeper's TLS stream does not
                // give the certificate's hash (`channel_binding=require`
                // is refused before it starts).
                let start =
                    sasl::ScramSha256::new(password()?, sasl::ChannelBinding::unsupported());
                frontend::sasl_initial_response(sasl::SCRAM_SHA_256, start.message(), &mut out)
                    .map_err(other)?;
                scram = Some(start);
            }
            11 | 12 => {
                let state = scram
                    .as_mut()
                    .ok_or_else(|| Refused::Other("a SASL message out of turn".into()))?;
                if code == 11 {
                    state.update(data).map_err(other)?;
                    frontend::sasl_response(state.message(), &mut out).map_err(other)?;
                } else {
                    state.finish(data).map_err(other)?;
                    continue;
                }
            }
            _ => return Err(Refused::Other("unsupported authentication method".into())),
        }
        stream.write_all(&out).await.map_err(other)?;
    }
}

/// One whole message (for the startup exchange and resets, whose messages
/// are small).
pub(super) async fn read_message(stream: &mut Box<dyn Stream>) -> Result<(u8, Vec<u8>), Refused> {
    let mut head = [0u8; 5];
    stream.read_exact(&mut head).await.map_err(other)?;
    let length = u32::from_be_bytes([head[1], head[2], head[3], head[4]]) as usize;
    if !(4..=1 << 20).contains(&length) {
        return Err(Refused::Other(format!(
            "a {:?} message of {length} bytes",
            head[0] as char
        )));
    }
    let mut body = vec![0u8; length - 4];
    stream.read_exact(&mut body).await.map_err(other)?;
    Ok((head[0], body))
}

fn server_error(body: &[u8]) -> Refused {
    let (code, message) = wire::error_fields(body);
    Refused::Server { code, message }
}

fn unexpected(tag: u8) -> Refused {
    Refused::Other(format!(
        "unexpected message {:?} from the server",
        tag as char
    ))
}

impl Upstream {
    /// Whether the server has said nothing since the connection was last
    /// idle: one that sent something (a shutdown's error) or closed is
    /// not handed to a command.
    pub async fn is_quiet(&mut self) -> bool {
        let mut byte = [0u8];
        tokio::time::timeout(Duration::ZERO, self.stream.read(&mut byte))
            .await
            .is_err()
    }

    /// Brings the connection back to the state it started in (`DISCARD
    /// ALL`: settings, prepared statements, temporary tables, advisory
    /// locks, `LISTEN`s). False when that failed: the connection is then
    /// closed rather than kept.
    pub async fn reset(&mut self) -> bool {
        let outcome = tokio::time::timeout(Duration::from_secs(5), async {
            self.stream
                .write_all(&wire::query("DISCARD ALL"))
                .await
                .ok()?;
            let mut clean = true;
            loop {
                let (tag, body) = read_message(&mut self.stream).await.ok()?;
                match tag {
                    b'E' => clean = false,
                    b'S' => {
                        let name = wire::parameter_name(&body).to_vec();
                        self.parameters.insert(name, wire::message(b'S', &body));
                    }
                    b'Z' => return Some(clean && body.first() == Some(&b'I')),
                    _ => {}
                }
            }
        })
        .await;
        matches!(outcome, Ok(Some(true)))
    }

    /// Says goodbye to the server (`Terminate`) before the stream closes.
    pub async fn close(mut self) {
        let goodbye = wire::message(b'X', &[]);
        let _ = tokio::time::timeout(Duration::from_secs(1), self.stream.write_all(&goodbye)).await;
    }
}
