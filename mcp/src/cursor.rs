//! Page cursors: where the next page of a session (`get_session`) or of the
//! resource listing starts. A cursor is plain text (`<sessionId>@<index>`,
//! `<sessionId>@<index>..<end>` for a range, `@tool:<index>` over tool
//! calls, or a number of sessions to skip) so a person can read it, and is
//! checked like any other input.

use ollm::error::{Error, Result};
use ollm::session::model::check_id;

/// The next message of a session to return.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionCursor {
    pub session_id: String,
    pub index: u64,
    /// The end of the range asked for, if one was.
    pub end: Option<u64>,
    /// The pages are of tool calls, not messages.
    pub tool_calls: bool,
}

/// What marks a cursor over tool calls: `<sessionId>@tool:<index>`.
const TOOL_CALLS: &str = "tool:";

impl SessionCursor {
    pub fn encode(&self) -> String {
        let kind = if self.tool_calls { TOOL_CALLS } else { "" };
        match self.end {
            Some(end) => format!("{}@{kind}{}..{end}", self.session_id, self.index),
            None => format!("{}@{kind}{}", self.session_id, self.index),
        }
    }

    pub fn decode(text: &str) -> Result<SessionCursor> {
        let invalid = || {
            Error::usage(format!(
                "invalid cursor '{text}' (pass nextCursor as given)"
            ))
        };
        let (id, index) = text.rsplit_once('@').ok_or_else(invalid)?;
        check_id(id, "cursor").map_err(|_| invalid())?;
        let (index, tool_calls) = match index.strip_prefix(TOOL_CALLS) {
            Some(index) => (index, true),
            None => (index, false),
        };
        let (index, end) = match index.split_once("..") {
            Some((index, end)) => (index, Some(end.parse().map_err(|_| invalid())?)),
            None => (index, None),
        };
        Ok(SessionCursor {
            session_id: id.to_string(),
            index: index.parse().map_err(|_| invalid())?,
            end,
            tool_calls,
        })
    }
}

/// Sessions skipped before a page of the resource listing.
pub fn decode_offset(text: Option<&str>) -> Result<usize> {
    text.map_or(Ok(0), |text| {
        text.parse()
            .map_err(|_| Error::usage(format!("invalid cursor '{text}'")))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cursor_round_trips_and_a_forged_one_is_refused() {
        let cursor = SessionCursor {
            session_id: "3f2b8c1e-9d4a-4e7b-a1c2-5d6e7f809a1b".into(),
            index: 12,
            end: None,
            tool_calls: false,
        };
        assert_eq!(SessionCursor::decode(&cursor.encode()).unwrap(), cursor);
        let range = SessionCursor {
            end: Some(20),
            ..cursor.clone()
        };
        assert_eq!(
            range.encode(),
            "3f2b8c1e-9d4a-4e7b-a1c2-5d6e7f809a1b@12..20"
        );
        assert_eq!(SessionCursor::decode(&range.encode()).unwrap(), range);
        let tools = SessionCursor {
            tool_calls: true,
            ..range.clone()
        };
        assert_eq!(
            tools.encode(),
            "3f2b8c1e-9d4a-4e7b-a1c2-5d6e7f809a1b@tool:12..20"
        );
        assert_eq!(SessionCursor::decode(&tools.encode()).unwrap(), tools);
        for forged in [
            "3f2b8c1e-9d4a-4e7b-a1c2-5d6e7f809a1b@tools:1",
            "../../etc@1",
            "3f2b8c1e-9d4a-4e7b-a1c2-5d6e7f809a1b@x",
            "12",
            "",
        ] {
            assert!(SessionCursor::decode(forged).is_err(), "{forged}");
        }
        assert_eq!(decode_offset(Some("40")).unwrap(), 40);
        assert!(decode_offset(Some("-1")).is_err());
    }
}
