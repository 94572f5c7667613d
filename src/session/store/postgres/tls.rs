//! TLS for the PostgreSQL store, as libpq users expect it.
//!
//! | `sslmode`     | encrypted                     | the server's certificate checked |
//! |---------------|-------------------------------|----------------------------------|
//! | `disable`     | never                         | -                                |
//! | `allow`       | only if the server insists    | chain, if a root certificate is known |
//! | `prefer`      | when the server offers it (the default) | chain, if a root certificate is known |
//! | `require`     | always                        | chain, if a root certificate is known |
//! | `verify-ca`   | always                        | chain (a root certificate is needed) |
//! | `verify-full` | always                        | chain and host name              |
//!
//! The root certificate is `sslrootcert=FILE`, `sslrootcert=system` (the
//! operating system's store; implies `verify-full`, as in libpq 16), else
//! `~/.postgresql/root.crt` when it exists. `sslcert`/`sslkey` (default
//! `~/.postgresql/postgresql.{crt,key}` when both exist) are sent when the
//! server asks for a client certificate. Each falls back to its libpq
//! variable (`PGSSLMODE`, `PGSSLROOTCERT`, `PGSSLCERT`, `PGSSLKEY`). A Unix
//! socket is never encrypted, whatever the mode (as in libpq).
//!
//! rustls with the `ring` provider: no C library to link or install, and
//! no cmake.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use postgres::Client;
use postgres::config::{Host, SslMode};
use postgres::error::SqlState;
use rustls::client::WebPkiServerVerifier;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::WebPkiSupportedAlgorithms;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName, UnixTime};
use rustls::{
    CertificateError, ClientConfig, DigitallySignedStruct, RootCertStore, SignatureScheme,
};
use tokio_postgres_rustls::MakeRustlsConnect;

use super::hosts::{self, Turns};
use super::url::PgUrl;
use crate::error::{Error, Result};

/// `sslmode`, as libpq names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Disable,
    Allow,
    Prefer,
    Require,
    VerifyCa,
    VerifyFull,
}

impl Mode {
    fn parse(text: &str) -> Option<Mode> {
        Some(match text {
            "disable" => Mode::Disable,
            "allow" => Mode::Allow,
            "prefer" => Mode::Prefer,
            "require" => Mode::Require,
            "verify-ca" => Mode::VerifyCa,
            "verify-full" => Mode::VerifyFull,
            _ => return None,
        })
    }
}

/// Where trusted roots come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Roots {
    File(PathBuf),
    System,
}

/// A URL's TLS settings.
#[derive(Clone, Debug)]
pub struct Tls {
    pub mode: Mode,
    /// Named (URL or `PGSSLROOTCERT`), else `~/.postgresql/root.crt` if it
    /// exists; `None`: the chain is not checked (below `verify-ca`).
    pub(crate) roots: Option<Roots>,
    /// Whether `roots` was named rather than found in the default place.
    roots_named: bool,
    pub client_cert: Option<(PathBuf, PathBuf)>,
}

/// The TLS parameters of a URL (its query), before the rest is parsed.
pub(crate) struct Params {
    pub sslmode: Option<String>,
    pub sslrootcert: Option<String>,
    pub sslcert: Option<String>,
    pub sslkey: Option<String>,
}

impl Tls {
    /// The settings from `params`, each falling back to its libpq
    /// variable; `bad` makes a configuration error of a reason.
    pub(crate) fn from_params(params: Params, bad: &dyn Fn(String) -> Error) -> Result<Tls> {
        let env = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
        let home_file = |name: &str| {
            std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".postgresql").join(name))
        };
        let rootcert = params.sslrootcert.or_else(|| env("PGSSLROOTCERT"));
        let named_mode = params.sslmode.or_else(|| env("PGSSLMODE"));
        let mode = match &named_mode {
            None if rootcert.as_deref() == Some("system") => Mode::VerifyFull,
            None => Mode::Prefer,
            Some(text) => Mode::parse(text).ok_or_else(|| {
                bad(format!(
                    "sslmode={text:?} is not one of disable, allow, prefer, require, verify-ca, verify-full"
                ))
            })?,
        };
        let (roots, roots_named) = match rootcert {
            Some(text) if text == "system" => (Some(Roots::System), true),
            Some(text) => (Some(Roots::File(PathBuf::from(text))), true),
            None => (
                home_file("root.crt")
                    .filter(|p| p.exists())
                    .map(Roots::File),
                false,
            ),
        };
        if roots == Some(Roots::System) && mode != Mode::VerifyFull && mode != Mode::Disable {
            // libpq 16: the system's roots vouch for any public name, so
            // only a host name check makes them mean something.
            return Err(bad(format!(
                "sslrootcert=system needs sslmode=verify-full (not {})",
                named_mode.unwrap_or_default()
            )));
        }
        if matches!(mode, Mode::VerifyCa | Mode::VerifyFull) && roots.is_none() {
            return Err(bad(format!(
                "sslmode={} needs a root certificate to check the server's against: \
                 sslrootcert=FILE, sslrootcert=system, or ~/.postgresql/root.crt",
                named_mode.unwrap_or_default()
            )));
        }
        let cert = params
            .sslcert
            .or_else(|| env("PGSSLCERT"))
            .map(PathBuf::from);
        let key = params.sslkey.or_else(|| env("PGSSLKEY")).map(PathBuf::from);
        let client_cert = match (cert, key) {
            (Some(cert), Some(key)) => Some((cert, key)),
            (Some(_), None) | (None, Some(_)) => {
                return Err(bad("sslcert and sslkey go together: name both".into()));
            }
            (None, None) => match (home_file("postgresql.crt"), home_file("postgresql.key")) {
                (Some(cert), Some(key)) if cert.exists() && key.exists() => Some((cert, key)),
                _ => None,
            },
        };
        Ok(Tls {
            mode,
            roots,
            roots_named,
            client_cert,
        })
    }

    /// What the client library is told (it knows three modes; the
    /// certificate checks are the connector's).
    pub(crate) fn client_mode(&self, hosts: &[Host]) -> SslMode {
        let all_sockets = !hosts.is_empty() && hosts.iter().all(|h| matches!(h, Host::Unix(_)));
        match self.mode {
            _ if all_sockets => SslMode::Disable,
            Mode::Disable | Mode::Allow => SslMode::Disable,
            Mode::Prefer => SslMode::Prefer,
            Mode::Require | Mode::VerifyCa | Mode::VerifyFull => SslMode::Require,
        }
    }

    /// The connector checking the server's certificate as the mode asks.
    /// A root or client certificate that cannot be read is a
    /// configuration error naming the file.
    pub(crate) fn connector(&self) -> Result<MakeRustlsConnect> {
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let verifier: Arc<dyn ServerCertVerifier> = match &self.roots {
            None => Arc::new(Unchecked(provider.signature_verification_algorithms)),
            Some(roots) => {
                let roots = Arc::new(self.root_store(roots)?);
                let chain = WebPkiServerVerifier::builder_with_provider(roots, provider.clone())
                    .build()
                    .map_err(|e| Error::Config(format!("TLS roots: {e}")))?;
                if self.mode == Mode::VerifyFull {
                    chain
                } else {
                    Arc::new(ChainOnly(chain))
                }
            }
        };
        let builder = ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(|e| Error::Config(format!("TLS: {e}")))?
            .dangerous()
            .with_custom_certificate_verifier(verifier);
        let config = match &self.client_cert {
            None => builder.with_no_client_auth(),
            Some((cert, key)) => {
                let chain = read_certs(cert, "sslcert")?;
                let key =
                    PrivateKeyDer::from_pem_file(key).map_err(|e| unreadable("sslkey", key, &e))?;
                builder
                    .with_client_auth_cert(chain, key)
                    .map_err(|e| Error::Config(format!("sslcert/sslkey: {e}")))?
            }
        };
        Ok(MakeRustlsConnect::new(config))
    }

    fn root_store(&self, roots: &Roots) -> Result<RootCertStore> {
        let mut store = RootCertStore::empty();
        match roots {
            Roots::System => {
                let found = rustls_native_certs::load_native_certs();
                store.add_parsable_certificates(found.certs);
                if store.is_empty() {
                    return Err(Error::Config(
                        "sslrootcert=system: the system has no trusted root certificates \
                         (install ca-certificates)"
                            .into(),
                    ));
                }
            }
            Roots::File(path) => {
                let what = if self.roots_named {
                    "sslrootcert"
                } else {
                    "~/.postgresql/root.crt"
                };
                for cert in read_certs(path, what)? {
                    store
                        .add(cert)
                        .map_err(|e| Error::Config(format!("{what} {}: {e}", path.display())))?;
                }
            }
        }
        Ok(store)
    }
}

/// The certificates of a PEM file, at least one.
fn read_certs(path: &Path, what: &str) -> Result<Vec<CertificateDer<'static>>> {
    let certs = CertificateDer::pem_file_iter(path)
        .and_then(Iterator::collect::<std::result::Result<Vec<_>, _>>)
        .map_err(|e| unreadable(what, path, &e))?;
    if certs.is_empty() {
        return Err(Error::Config(format!(
            "{what} {}: no PEM certificate in it",
            path.display()
        )));
    }
    Ok(certs)
}

fn unreadable(what: &str, path: &Path, err: &dyn std::fmt::Display) -> Error {
    Error::Config(format!(
        "{what} {} cannot be read: {}",
        path.display(),
        crate::text::one_line(&err.to_string())
    ))
}

/// The SQLSTATE of a server refusing a connection by its `pg_hba.conf`
/// rules (`invalid_authorization_specification`), as `hostssl` lines do.
const REFUSED_BY_RULES: &str = "28000";

impl Tls {
    /// Whether a connection made with `first` (the client's mode) and
    /// refused with `sqlstate` is made again, encrypted: only under
    /// `allow`, whose first try is in the clear, and only when the server
    /// refused the clear connection by its rules (libpq's `allow`).
    /// [`Turns`] asks it for the store's client and the keeper alike.
    pub(crate) fn retries_encrypted(&self, first: SslMode, sqlstate: &str) -> bool {
        self.mode == Mode::Allow && first == SslMode::Disable && sqlstate == REFUSED_BY_RULES
    }
}

/// The mode of an attempt over a Unix socket, which is never encrypted
/// (as in libpq; [`Tls::client_mode`] applies the same rule to a URL of
/// sockets only): in the clear, or refused when the mode requires TLS.
pub(crate) fn over_socket(mode: SslMode) -> std::result::Result<SslMode, &'static str> {
    match mode {
        SslMode::Require => Err("server does not support TLS"),
        _ => Ok(SslMode::Disable),
    }
}

/// Connects to the first of the URL's hosts that takes the connection,
/// trying them as [`Turns`] says. The outer error is ours (a certificate
/// file, hosts and ports that do not add up); the inner one the server's
/// or the network's, from the last attempt.
pub fn connect(url: &PgUrl) -> Result<std::result::Result<Client, postgres::Error>> {
    let mut turns = Turns::new(url)
        .map_err(|why| Error::Config(format!("session store {}: {why}", url.shown())))?;
    // Made before the first attempt, so that a certificate file that
    // cannot be read is said even when a clear connection would do.
    let connector = if url.config.get_ssl_mode() != SslMode::Disable || url.tls.mode == Mode::Allow
    {
        Some(url.tls.connector()?)
    } else {
        None
    };
    let mut last: Option<postgres::Error> = None;
    loop {
        let refused_with = last.as_ref().and_then(postgres::Error::code);
        let Some(attempt) = turns.next(refused_with.map(SqlState::code)) else {
            break;
        };
        let config = hosts::config_for(url, &attempt.target, attempt.mode);
        let outcome = match &connector {
            Some(connector) if attempt.mode != SslMode::Disable => {
                config.connect(connector.clone())
            }
            _ => config.connect(postgres::NoTls),
        };
        match outcome {
            Ok(client) => return Ok(Ok(client)),
            Err(err) => last = Some(err),
        }
    }
    match last {
        Some(err) => Ok(Err(err)),
        None => Err(Error::Config(format!(
            "session store {}: the URL names no host",
            url.shown()
        ))),
    }
}

/// `require` without a root certificate: encrypted, the server not
/// authenticated (libpq's behaviour; the handshake's signatures are still
/// checked).
#[derive(Debug)]
struct Unchecked(WebPkiSupportedAlgorithms);

impl ServerCertVerifier for Unchecked {
    fn verify_server_cert(
        &self,
        _end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> std::result::Result<ServerCertVerified, rustls::Error> {
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> std::result::Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(message, cert, dss, &self.0)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> std::result::Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(message, cert, dss, &self.0)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.supported_schemes()
    }
}

/// `verify-ca`: the chain must lead to a trusted root; the name in the
/// certificate need not be the host's.
#[derive(Debug)]
struct ChainOnly(Arc<WebPkiServerVerifier>);

impl ServerCertVerifier for ChainOnly {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> std::result::Result<ServerCertVerified, rustls::Error> {
        // The chain is checked before the name, so a name mismatch means
        // the chain passed.
        match self
            .0
            .verify_server_cert(end_entity, intermediates, server_name, ocsp_response, now)
        {
            Err(rustls::Error::InvalidCertificate(
                CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. },
            )) => Ok(ServerCertVerified::assertion()),
            other => other,
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> std::result::Result<HandshakeSignatureValid, rustls::Error> {
        self.0.verify_tls12_signature(message, cert, dss)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> std::result::Result<HandshakeSignatureValid, rustls::Error> {
        self.0.verify_tls13_signature(message, cert, dss)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.supported_verify_schemes()
    }
}

/// A hint for a failed handshake's message, if one helps.
pub fn hint(message: &str) -> Option<&'static str> {
    if message.contains("UnknownIssuer") || message.contains("BadSignature") {
        Some("the server's certificate is not signed by the sslrootcert given")
    } else if message.contains("not valid for name") {
        Some("the server's certificate does not name the URL's host, as verify-full needs")
    } else if message.contains("does not support TLS") {
        Some("the server has TLS off; sslmode=prefer or disable connects in the clear")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(mode: Option<&str>, root: Option<&str>) -> Params {
        Params {
            sslmode: mode.map(str::to_string),
            sslrootcert: root.map(str::to_string),
            sslcert: None,
            sslkey: None,
        }
    }

    fn bad(why: String) -> Error {
        Error::Config(why)
    }

    #[test]
    fn libpq_modes_map_onto_the_clients_three() {
        let tcp = [Host::Tcp("db.example".into())];
        for (mode, want) in [
            ("disable", SslMode::Disable),
            ("allow", SslMode::Disable),
            ("prefer", SslMode::Prefer),
            ("require", SslMode::Require),
        ] {
            let tls = Tls::from_params(params(Some(mode), None), &bad).unwrap();
            assert_eq!(tls.client_mode(&tcp), want, "{mode}");
            let socket = [Host::Unix("/run/postgresql".into())];
            assert_eq!(
                tls.client_mode(&socket),
                SslMode::Disable,
                "{mode} on a socket"
            );
        }
        let tls = Tls::from_params(params(Some("verify-ca"), Some("/x.pem")), &bad).unwrap();
        assert_eq!(tls.client_mode(&tcp), SslMode::Require);
    }

    #[test]
    fn only_allow_tries_again_encrypted_and_only_when_its_clear_try_is_refused_by_rules() {
        let allow = Tls::from_params(params(Some("allow"), None), &bad).unwrap();
        assert!(allow.retries_encrypted(SslMode::Disable, "28000"));
        assert!(
            !allow.retries_encrypted(SslMode::Disable, "28P01"),
            "a wrong password is not a reason to encrypt"
        );
        assert!(!allow.retries_encrypted(SslMode::Require, "28000"));
        for mode in ["disable", "prefer", "require"] {
            let tls = Tls::from_params(params(Some(mode), None), &bad).unwrap();
            assert!(!tls.retries_encrypted(SslMode::Disable, "28000"), "{mode}");
        }
    }

    #[test]
    fn a_socket_is_never_encrypted_and_refuses_a_mode_that_requires_it() {
        assert_eq!(over_socket(SslMode::Disable), Ok(SslMode::Disable));
        assert_eq!(over_socket(SslMode::Prefer), Ok(SslMode::Disable));
        assert!(over_socket(SslMode::Require).is_err());
    }

    #[test]
    fn verification_without_a_root_certificate_is_a_config_error() {
        for mode in ["verify-ca", "verify-full"] {
            let err = Tls::from_params(params(Some(mode), None), &bad)
                .err()
                .unwrap();
            assert!(err.to_string().contains("sslrootcert"), "{err}");
        }
        assert!(Tls::from_params(params(Some("strict"), None), &bad).is_err());
    }

    #[test]
    fn the_system_store_implies_and_needs_verify_full() {
        let tls = Tls::from_params(params(None, Some("system")), &bad).unwrap();
        assert_eq!(tls.mode, Mode::VerifyFull);
        assert!(Tls::from_params(params(Some("require"), Some("system")), &bad).is_err());
    }

    #[test]
    fn an_unreadable_root_certificate_is_a_config_error_naming_it() {
        let tls =
            Tls::from_params(params(Some("require"), Some("/nonexistent/root.pem")), &bad).unwrap();
        let Err(err) = tls.connector() else {
            panic!("a missing root certificate was accepted")
        };
        assert!(matches!(err, Error::Config(_)), "{err}");
        assert!(err.to_string().contains("/nonexistent/root.pem"), "{err}");
    }
}
