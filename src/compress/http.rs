//! The small HTTP client the summarizer and the server tokenizer share:
//! plain HTTP (the targets are local model servers), one overall timeout per
//! request, bounded reply size, errors as one line.

use std::time::Duration;

use serde_json::Value;

/// The largest reply body read from a model server.
const MAX_REPLY_BYTES: u64 = 16 * 1024 * 1024;

/// An agent whose every request gives up after `timeout` in total.
pub fn agent(timeout: Duration) -> ureq::Agent {
    ureq::Agent::config_builder()
        .timeout_global(Some(timeout))
        .http_status_as_error(false)
        .build()
        .into()
}

/// Why a request failed, as one line; `timed_out` tells a timeout apart.
#[derive(Debug, Clone)]
pub struct HttpError {
    pub message: String,
    pub timed_out: bool,
}

impl std::fmt::Display for HttpError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl From<ureq::Error> for HttpError {
    fn from(err: ureq::Error) -> HttpError {
        let timed_out = matches!(err, ureq::Error::Timeout(_))
            || matches!(&err, ureq::Error::Io(e) if e.kind() == std::io::ErrorKind::TimedOut);
        let message = match &err {
            ureq::Error::Timeout(_) => "timed out".to_string(),
            ureq::Error::Io(e) if unreachable(e.kind()) => {
                format!("no server answers ({})", crate::error::describe_io(e))
            }
            ureq::Error::HostNotFound | ureq::Error::ConnectionFailed => {
                format!("no server answers ({err})")
            }
            ureq::Error::Io(e) => crate::error::describe_io(e),
            ureq::Error::BadUri(uri) => format!("invalid URL {uri:?}"),
            other => other.to_string(),
        };
        HttpError {
            message: crate::text::one_line(&message),
            timed_out,
        }
    }
}

/// Errors that mean nothing listens at the URL (as opposed to a server
/// that answered badly).
fn unreachable(kind: std::io::ErrorKind) -> bool {
    use std::io::ErrorKind::*;
    matches!(
        kind,
        ConnectionRefused
            | ConnectionReset
            | HostUnreachable
            | NetworkUnreachable
            | AddrNotAvailable
    )
}

/// POSTs a JSON body and parses the JSON reply; a non-2xx status is an
/// error carrying the start of the reply (servers explain themselves there).
pub fn post_json(agent: &ureq::Agent, url: &str, body: &str) -> Result<Value, HttpError> {
    if url.starts_with("https://") {
        return Err(HttpError {
            message: "https is not supported (this build speaks plain HTTP to local model servers)"
                .into(),
            timed_out: false,
        });
    }
    let mut reply = agent
        .post(url)
        .header("content-type", "application/json")
        .send(body)?;
    let status = reply.status().as_u16();
    let text = reply
        .body_mut()
        .with_config()
        .limit(MAX_REPLY_BYTES)
        .read_to_string()?;
    if !(200..300).contains(&status) {
        let excerpt: String = text.chars().take(200).collect();
        return Err(HttpError {
            message: crate::text::one_line(&format!("HTTP {status}: {excerpt}")),
            timed_out: false,
        });
    }
    serde_json::from_str(&text).map_err(|e| HttpError {
        message: format!("reply is not JSON ({e})"),
        timed_out: false,
    })
}
