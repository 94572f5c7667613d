//! PostgreSQL connection URLs as libpq users write them:
//! `postgres://user:password@host:port/db?sslmode=…&connect_timeout=…`
//! (or `postgresql://`, or `host=/var/run/postgresql` for a socket), with
//! the password from the URL, `PGPASSWORD` or `~/.pgpass` (`PGPASSFILE`).
//! `statement_timeout` (milliseconds) is ollm's own parameter; the TLS
//! parameters (`sslmode`'s six values, `sslrootcert`, `sslcert`, `sslkey`)
//! are read here and applied by [`super::pgtls`].

use std::path::PathBuf;
use std::time::Duration;

use postgres::config::Host;

use super::pgtls::{Params, Tls};
use crate::error::{Error, Result};

/// How long to wait for a connection unless the URL says
/// (`connect_timeout`, seconds).
pub(crate) const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// How long one statement may run unless the URL says
/// (`statement_timeout`, milliseconds).
pub(crate) const DEFAULT_STATEMENT_TIMEOUT_MS: u64 = 30_000;

/// A parsed URL: the client configuration and ollm's own settings.
#[derive(Clone)]
pub struct PgUrl {
    pub config: postgres::Config,
    pub statement_timeout_ms: u64,
    pub tls: Tls,
    /// The URL as given (with its password: never shown).
    given: String,
    /// [`PgUrl::shown`], made when first needed: redacting compiles every
    /// credential pattern, which a command that fails in no way never needs.
    shown: std::sync::OnceLock<String>,
}

impl PgUrl {
    /// The URL with its credentials replaced (for every message).
    pub fn shown(&self) -> &str {
        self.shown.get_or_init(|| redact(&self.given))
    }

    /// What tells this store's connections from another's: the URL as
    /// given, what the environment added (user, password, TLS files), and
    /// the password (never shown; hashed by the caller).
    pub(crate) fn identity(&self) -> Vec<u8> {
        let mut identity =
            format!("{}\0{:?}\0{:?}\0", self.given, self.config, self.tls).into_bytes();
        identity.extend_from_slice(self.config.get_password().unwrap_or_default());
        identity
    }
}

/// `url` as it may be shown: its credentials replaced the one way every
/// message and `config` hide them ([`crate::redact::redact_values`]).
pub fn redact(url: &str) -> String {
    crate::redact::redact_values(url)
}

/// Parses `url`; a bad one is a configuration error naming it (redacted).
pub fn parse(url: &str) -> Result<PgUrl> {
    let bad = |why: String| Error::Config(format!("session store {}: {why}", redact(url)));
    let (base, statement_timeout_ms) = take_param(url, "statement_timeout");
    let statement_timeout_ms = match statement_timeout_ms {
        None => DEFAULT_STATEMENT_TIMEOUT_MS,
        Some(ms) => ms.parse().map_err(|_| {
            bad(format!(
                "statement_timeout={ms:?} is not a whole number of milliseconds"
            ))
        })?,
    };
    // The client library knows three of libpq's six modes and no
    // certificate files: these are ours.
    let (base, sslmode) = take_param(&base, "sslmode");
    let (base, sslrootcert) = take_param(&base, "sslrootcert");
    let (base, sslcert) = take_param(&base, "sslcert");
    let (base, sslkey) = take_param(&base, "sslkey");
    let tls = Tls::from_params(
        Params {
            sslmode,
            sslrootcert,
            sslcert,
            sslkey,
        },
        &bad,
    )?;
    let mut config: postgres::Config = base
        .parse()
        .map_err(|e: postgres::Error| bad(crate::text::one_line(&e.to_string())))?;
    if config.get_hosts().is_empty() {
        config.host_path("/var/run/postgresql");
    }
    config.ssl_mode(tls.client_mode(config.get_hosts()));
    if config.get_connect_timeout().is_none() {
        config.connect_timeout(DEFAULT_CONNECT_TIMEOUT);
    }
    if config.get_password().is_none()
        && let Some(password) = password_from_environment(&config)
    {
        config.password(password);
    }
    config.application_name("ollm");
    // Set at connection start-up, not by a statement of its own.
    let options = match config.get_options() {
        Some(given) => format!("{given} -c statement_timeout={statement_timeout_ms}"),
        None => format!("-c statement_timeout={statement_timeout_ms}"),
    };
    config.options(&options);
    Ok(PgUrl {
        config,
        statement_timeout_ms,
        tls,
        given: url.to_string(),
        shown: std::sync::OnceLock::new(),
    })
}

/// `url` without query parameter `name`, and its value (percent-decoded).
fn take_param(url: &str, name: &str) -> (String, Option<String>) {
    let Some((base, query)) = url.split_once('?') else {
        return (url.to_string(), None);
    };
    let mut value = None;
    let kept: Vec<&str> = query
        .split('&')
        .filter(|pair| match pair.split_once('=') {
            Some((key, v)) if key == name => {
                value = Some(
                    percent_encoding::percent_decode_str(v)
                        .decode_utf8_lossy()
                        .into_owned(),
                );
                false
            }
            _ => true,
        })
        .collect();
    if kept.is_empty() {
        (base.to_string(), value)
    } else {
        (format!("{base}?{}", kept.join("&")), value)
    }
}

/// `PGPASSWORD`, else the first matching line of the password file.
fn password_from_environment(config: &postgres::Config) -> Option<String> {
    if let Some(password) = std::env::var_os("PGPASSWORD") {
        return Some(password.to_string_lossy().into_owned());
    }
    let path = match std::env::var_os("PGPASSFILE") {
        Some(path) => PathBuf::from(path),
        None => PathBuf::from(std::env::var_os("HOME")?).join(".pgpass"),
    };
    let text = std::fs::read_to_string(path).ok()?;
    let host = match config.get_hosts().first() {
        Some(Host::Tcp(host)) => host.clone(),
        // libpq: a socket in the default directory matches `localhost`.
        Some(Host::Unix(_)) | None => "localhost".to_string(),
    };
    let port = config
        .get_ports()
        .first()
        .copied()
        .unwrap_or(5432)
        .to_string();
    let user = config
        .get_user()
        .map(str::to_string)
        .or_else(|| std::env::var("USER").ok())
        .unwrap_or_default();
    let db = config
        .get_dbname()
        .map_or_else(|| user.clone(), str::to_string);
    pgpass_lookup(&text, [&host, &port, &db, &user])
}

/// The password of the first `host:port:database:user:password` line
/// whose fields match (`*` matches anything; `\:` and `\\` are escapes).
fn pgpass_lookup(text: &str, want: [&str; 4]) -> Option<String> {
    for line in text.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let fields = split_pgpass(line);
        if fields.len() < 5 {
            continue;
        }
        let matches = fields[..4]
            .iter()
            .zip(want)
            .all(|(field, want)| field == "*" || field == want);
        if matches {
            return Some(fields[4..].join(":"));
        }
    }
    None
}

fn split_pgpass(line: &str) -> Vec<String> {
    let mut fields = Vec::new();
    let mut field = String::new();
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => field.extend(chars.next()),
            ':' => fields.push(std::mem::take(&mut field)),
            c => field.push(c),
        }
    }
    fields.push(field);
    fields
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_are_redacted_in_the_authority_and_the_query() {
        assert_eq!(
            redact("postgres://alice:s3cret@db.example:5432/ollm?sslmode=disable"),
            "postgres://[REDACTED]@db.example:5432/ollm?sslmode=disable"
        );
        assert_eq!(
            redact("postgresql:///ollm?host=/var/run/postgresql&password=hunter2&x=1"),
            "postgresql:///ollm?host=/var/run/postgresql&password=[REDACTED]&x=1"
        );
        assert_eq!(
            redact("postgres://bob@h/db"),
            "postgres://bob@h/db",
            "no password, nothing changed"
        );
    }

    #[test]
    fn pgpass_matches_fields_with_wildcards_and_escapes() {
        let text = "# comment\nother:5432:*:*:no\nlocalhost:*:ollm:alice:pa\\:ss:word\n";
        assert_eq!(
            pgpass_lookup(text, ["localhost", "5432", "ollm", "alice"]).as_deref(),
            Some("pa:ss:word")
        );
        assert_eq!(
            pgpass_lookup(text, ["localhost", "5432", "x", "alice"]),
            None
        );
    }

    #[test]
    fn statement_timeout_is_ollms_own_parameter() {
        let url = parse("postgresql:///db?host=/tmp&statement_timeout=250").unwrap();
        assert_eq!(url.statement_timeout_ms, 250);
        assert_eq!(url.config.get_dbname(), Some("db"));
        assert!(parse("postgres:///db?statement_timeout=soon").is_err());
        let err = parse("postgres://u:pw@h/db?sslmode=strict").err().unwrap();
        assert!(!err.to_string().contains("pw@"), "{err}");
    }

    #[test]
    fn tls_parameters_are_taken_out_and_decoded() {
        let url = parse(
            "postgres://u@db.example/ollm?sslmode=verify-ca&sslrootcert=/etc/my%20ca.pem&connect_timeout=3",
        )
        .unwrap();
        assert_eq!(url.tls.mode, super::super::pgtls::Mode::VerifyCa);
        assert_eq!(
            url.tls.roots,
            Some(super::super::pgtls::Roots::File("/etc/my ca.pem".into()))
        );
        assert_eq!(
            url.config.get_ssl_mode(),
            postgres::config::SslMode::Require
        );
        assert_eq!(
            url.config.get_connect_timeout(),
            Some(&Duration::from_secs(3))
        );
    }
}
