//! The few pieces of PostgreSQL's wire protocol the keeper reads: where
//! each message of a byte stream starts and ends (bytes are passed on as
//! they come; only the small messages the keeper acts on are kept), and
//! the messages it writes itself.

/// Walks a stream of messages (a tag byte, a 4-byte length counting
/// itself, the body) chunk by chunk, whatever the chunks' sizes.
#[derive(Default)]
pub(super) struct Framer {
    head: [u8; 5],
    head_len: usize,
    body_left: usize,
    body: Vec<u8>,
    keeping: bool,
}

/// A message that ended in a chunk: its tag, its body (when the tag is one
/// of those asked to be kept, else empty), and the offset in the chunk
/// just past it.
pub(super) struct Ended<'a> {
    pub tag: u8,
    pub body: &'a [u8],
    pub end: usize,
}

/// The longest body the keeper keeps (a `ParameterStatus`, a
/// `ReadyForQuery`): anything longer that claims such a tag is refused.
const KEPT_BODY_MAX: usize = 64 * 1024;

impl Framer {
    /// Calls `ended` for each message that ends in `chunk` (the bodies of
    /// tags for which `keep` says so are given whole). An impossible
    /// length is an error: the stream cannot be followed further.
    pub fn walk(
        &mut self,
        chunk: &[u8],
        keep: impl Fn(u8) -> bool,
        mut ended: impl FnMut(Ended<'_>) -> Walk,
    ) -> Result<(), String> {
        let mut at = 0;
        while at < chunk.len() {
            if self.head_len < 5 {
                let take = (5 - self.head_len).min(chunk.len() - at);
                self.head[self.head_len..self.head_len + take]
                    .copy_from_slice(&chunk[at..at + take]);
                self.head_len += take;
                at += take;
                if self.head_len < 5 {
                    break;
                }
                let length =
                    u32::from_be_bytes([self.head[1], self.head[2], self.head[3], self.head[4]])
                        as usize;
                if length < 4 {
                    return Err(format!("a message claims {length} bytes"));
                }
                self.body_left = length - 4;
                self.keeping = keep(self.head[0]);
                if self.keeping && self.body_left > KEPT_BODY_MAX {
                    return Err(format!(
                        "a {:?} message of {} bytes",
                        self.head[0] as char, self.body_left
                    ));
                }
                self.body.clear();
            }
            let take = self.body_left.min(chunk.len() - at);
            if self.keeping {
                self.body.extend_from_slice(&chunk[at..at + take]);
            }
            self.body_left -= take;
            at += take;
            if self.body_left == 0 {
                self.head_len = 0;
                let body = if self.keeping { &self.body[..] } else { &[] };
                if let Walk::Stop = ended(Ended {
                    tag: self.head[0],
                    body,
                    end: at,
                }) {
                    return Ok(());
                }
            }
        }
        Ok(())
    }

    /// Whether the stream stands between two messages.
    pub fn between_messages(&self) -> bool {
        self.head_len == 0 && self.body_left == 0
    }
}

/// Whether to go on walking a chunk.
pub(super) enum Walk {
    On,
    Stop,
}

/// A message: `tag`, its length, `body`.
pub(super) fn message(tag: u8, body: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(body.len() + 5);
    out.push(tag);
    out.extend_from_slice(&((body.len() + 4) as u32).to_be_bytes());
    out.extend_from_slice(body);
    out
}

/// A simple query (`Query`).
pub(super) fn query(sql: &str) -> Vec<u8> {
    let mut body = sql.as_bytes().to_vec();
    body.push(0);
    message(b'Q', &body)
}

/// `AuthenticationOk`.
pub(super) fn authentication_ok() -> Vec<u8> {
    message(b'R', &0u32.to_be_bytes())
}

/// `ReadyForQuery`, outside a transaction.
pub(super) fn ready_for_query() -> Vec<u8> {
    message(b'Z', b"I")
}

/// A fatal `ErrorResponse` with `code` (SQLSTATE) and `text`.
pub(super) fn fatal(code: &str, text: &str) -> Vec<u8> {
    let mut body = Vec::new();
    for (field, value) in [(b'S', "FATAL"), (b'V', "FATAL"), (b'C', code), (b'M', text)] {
        body.push(field);
        body.extend_from_slice(value.replace('\0', " ").as_bytes());
        body.push(0);
    }
    body.push(0);
    message(b'E', &body)
}

/// The SQLSTATE and the message of an `ErrorResponse` body.
pub(super) fn error_fields(body: &[u8]) -> (String, String) {
    let (mut code, mut text) = (String::new(), String::new());
    let mut rest = body;
    while let Some((&field, after)) = rest.split_first() {
        if field == 0 {
            break;
        }
        let end = after.iter().position(|&b| b == 0).unwrap_or(after.len());
        let value = String::from_utf8_lossy(&after[..end]).into_owned();
        match field {
            b'C' => code = value,
            b'M' => text = value,
            _ => {}
        }
        rest = after.get(end + 1..).unwrap_or_default();
    }
    (code, text)
}

/// The name a `ParameterStatus` body sets.
pub(super) fn parameter_name(body: &[u8]) -> &[u8] {
    let end = body.iter().position(|&b| b == 0).unwrap_or(body.len());
    &body[..end]
}

/// The codes of startup packets that ask for encryption (answered "no";
/// a cancel request, 80877102, is not served).
pub(super) const SSL_REQUEST: u32 = 80_877_103;
pub(super) const GSSENC_REQUEST: u32 = 80_877_104;
/// Protocol 3.0.
pub(super) const PROTOCOL_3: u32 = 196_608;

/// The `key`/`value` pairs of a startup packet's body (after its code).
pub(super) fn startup_parameters(body: &[u8]) -> Vec<(String, String)> {
    let mut fields = body
        .split(|&b| b == 0)
        .map(|field| String::from_utf8_lossy(field).into_owned());
    let mut pairs = Vec::new();
    while let (Some(key), Some(value)) = (fields.next(), fields.next()) {
        if key.is_empty() {
            break;
        }
        pairs.push((key, value));
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn walk_all(framer: &mut Framer, chunks: &[&[u8]], keep: u8) -> Vec<(u8, Vec<u8>)> {
        let mut seen = Vec::new();
        for chunk in chunks {
            framer
                .walk(
                    chunk,
                    |tag| tag == keep,
                    |m| {
                        seen.push((m.tag, m.body.to_vec()));
                        Walk::On
                    },
                )
                .unwrap();
        }
        seen
    }

    #[test]
    fn messages_are_found_however_the_stream_is_cut() {
        let mut stream = message(b'D', b"a row of data");
        stream.extend(message(b'Z', b"T"));
        stream.extend(message(b'C', b""));
        for cut in 0..=stream.len() {
            for second in cut..=stream.len() {
                let mut framer = Framer::default();
                let seen = walk_all(
                    &mut framer,
                    &[&stream[..cut], &stream[cut..second], &stream[second..]],
                    b'Z',
                );
                assert_eq!(
                    seen,
                    vec![(b'D', vec![]), (b'Z', b"T".to_vec()), (b'C', vec![])],
                    "cut at {cut} and {second}"
                );
                assert!(framer.between_messages());
            }
        }
    }

    #[test]
    fn a_walk_stops_where_asked_and_says_where() {
        let mut stream = message(b'P', b"parse");
        stream.extend(message(b'X', b""));
        let mut framer = Framer::default();
        let mut stop_at = None;
        framer
            .walk(
                &stream,
                |_| false,
                |m| {
                    if m.tag == b'X' {
                        stop_at = Some(m.end - 5);
                        return Walk::Stop;
                    }
                    Walk::On
                },
            )
            .unwrap();
        assert_eq!(stop_at, Some(10));
    }

    #[test]
    fn a_half_message_is_not_between_messages() {
        let stream = message(b'D', b"row");
        let mut framer = Framer::default();
        walk_all(&mut framer, &[&stream[..3]], 0);
        assert!(!framer.between_messages());
        walk_all(&mut framer, &[&stream[3..6]], 0);
        assert!(!framer.between_messages());
    }

    #[test]
    fn impossible_lengths_are_refused() {
        let mut framer = Framer::default();
        let err = framer.walk(&[b'D', 0, 0, 0, 3], |_| false, |_| Walk::On);
        assert!(err.is_err());
        let mut framer = Framer::default();
        let err = framer.walk(&[b'S', 0x10, 0, 0, 0], |tag| tag == b'S', |_| Walk::On);
        assert!(err.is_err(), "a kept body of 256 MiB");
        // A long setting (a search_path of many schemas) is kept whole.
        let long = message(b'S', &[b'x'; 8_000]);
        let mut framer = Framer::default();
        assert_eq!(
            walk_all(&mut framer, &[&long], b'S'),
            vec![(b'S', vec![b'x'; 8_000])]
        );
    }

    #[test]
    fn error_fields_and_startup_parameters_are_read() {
        let error = fatal("28000", "no such role");
        let (code, text) = error_fields(&error[5..]);
        assert_eq!((code.as_str(), text.as_str()), ("28000", "no such role"));
        let body = b"user\0ann\0database\0db\0\0";
        assert_eq!(
            startup_parameters(body),
            vec![
                ("user".to_string(), "ann".to_string()),
                ("database".to_string(), "db".to_string())
            ]
        );
        assert_eq!(parameter_name(b"TimeZone\0UTC\0"), b"TimeZone");
        assert_eq!(query("DISCARD ALL"), {
            let mut q = vec![b'Q', 0, 0, 0, 16];
            q.extend_from_slice(b"DISCARD ALL\0");
            q
        });
    }
}
