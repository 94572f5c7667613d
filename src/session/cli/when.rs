//! Times as a person reads them in a table: how long ago, and the local
//! date and time (stored times are UTC).

use jiff::Timestamp;
use jiff::tz::TimeZone;

use crate::timestamp::{self, Millis};

/// `just now`, `5 min ago`, `3 h ago`, `2 days ago`, `4 months ago`; an
/// unreadable time is shown as stored.
pub(crate) fn ago(stored: &str, now: Millis) -> String {
    let Some(then) = timestamp::parse(stored) else {
        return stored.to_string();
    };
    let seconds = (now - then) / 1000;
    if seconds < 0 {
        return "in the future".into();
    }
    let (value, unit) = match seconds {
        0..60 => return "just now".into(),
        60..3_600 => (seconds / 60, "min"),
        3_600..86_400 => (seconds / 3_600, "h"),
        86_400..2_592_000 => (seconds / 86_400, "day"),
        2_592_000..31_536_000 => (seconds / 2_592_000, "month"),
        _ => (seconds / 31_536_000, "year"),
    };
    let plural = if value != 1 && matches!(unit, "day" | "month" | "year") {
        "s"
    } else {
        ""
    };
    format!("{value} {unit}{plural} ago")
}

/// `2026-01-15 11:30` in the local time zone; an unreadable time as stored.
pub(crate) fn local(stored: &str) -> String {
    local_in(stored, &TimeZone::system())
}

fn local_in(stored: &str, zone: &TimeZone) -> String {
    timestamp::parse(stored)
        .and_then(|ms| Timestamp::from_millisecond(ms).ok())
        .map_or_else(
            || stored.to_string(),
            |t| {
                t.to_zoned(zone.clone())
                    .strftime("%Y-%m-%d %H:%M")
                    .to_string()
            },
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn how_long_ago_reads_like_speech() {
        let now = timestamp::parse("2026-01-15T12:00:00Z").unwrap();
        let ago = |t: &str| ago(t, now);
        assert_eq!(ago("2026-01-15T11:59:30Z"), "just now");
        assert_eq!(ago("2026-01-15T11:55:00Z"), "5 min ago");
        assert_eq!(ago("2026-01-15T09:00:00Z"), "3 h ago");
        assert_eq!(ago("2026-01-14T12:00:00Z"), "1 day ago");
        assert_eq!(ago("2026-01-10T12:00:00Z"), "5 days ago");
        assert_eq!(ago("2025-10-15T12:00:00Z"), "3 months ago");
        assert_eq!(ago("2024-01-15T12:00:00Z"), "2 years ago");
        assert_eq!(ago("2026-01-16T12:00:00Z"), "in the future");
        assert_eq!(ago("garbage"), "garbage");
    }

    #[test]
    fn local_time_is_in_the_zone_without_seconds() {
        let zone = TimeZone::fixed(jiff::tz::offset(2));
        assert_eq!(
            local_in("2026-01-15T10:30:59.123Z", &zone),
            "2026-01-15 12:30"
        );
        assert_eq!(local_in("x", &zone), "x");
    }
}
