//! ISO 8601 timestamps: the UTC form JavaScript's `Date.toISOString()`
//! writes (`2024-01-15T10:30:00.000Z`), and a parser for the RFC 3339 profile
//! of ISO 8601 other tools write (`…Z`, `…+02:00`, optional fraction), so
//! timestamps from any writer compare correctly. Built on `jiff`.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use jiff::Timestamp;
use jiff::civil::DateTime;
use jiff::tz::TimeZone;

/// Milliseconds since the Unix epoch, UTC.
pub(crate) type Millis = i64;

/// The current time in milliseconds since the epoch.
pub fn now_millis() -> Millis {
    system_time_millis(SystemTime::now())
}

/// A `SystemTime` in milliseconds since the epoch (negative before 1970).
pub(crate) fn system_time_millis(time: SystemTime) -> Millis {
    match time.duration_since(UNIX_EPOCH) {
        Ok(d) => d.as_millis().min(i64::MAX as u128) as i64,
        Err(e) => -(e.duration().as_millis().min(i64::MAX as u128) as i64),
    }
}

/// The current time as `YYYY-MM-DDTHH:MM:SS.mmmZ`.
pub fn now_iso() -> String {
    format_millis(now_millis())
}

/// Formats milliseconds since the epoch as `YYYY-MM-DDTHH:MM:SS.mmmZ`
/// (clamped to the years -9999 to 9999).
pub fn format_millis(ms: Millis) -> String {
    let time = Timestamp::from_millisecond(ms).unwrap_or(if ms < 0 {
        Timestamp::MIN
    } else {
        Timestamp::MAX
    });
    time.strftime("%Y-%m-%dT%H:%M:%S%.3fZ").to_string()
}

/// Parses an ISO 8601 date-time (`YYYY-MM-DDTHH:MM[:SS[.fff]](Z|±HH:MM|±HHMM)`,
/// `T` or a space between date and time; no zone means UTC) or a plain date
/// (`YYYY-MM-DD`, midnight UTC). Returns milliseconds since the epoch.
pub fn parse(text: &str) -> Option<Millis> {
    if !text.is_ascii() {
        return None;
    }
    if let Ok(time) = text.parse::<Timestamp>() {
        return Some(time.as_millisecond());
    }
    let civil = text.parse::<DateTime>().ok()?;
    let time = civil.to_zoned(TimeZone::UTC).ok()?.timestamp();
    Some(time.as_millisecond())
}

/// The latest time [`parse`] gives: a later one is written in a form it
/// does not read (a five-digit year).
pub fn max_millis() -> Millis {
    Timestamp::MAX.as_millisecond()
}

/// Whether `text` is a valid ISO 8601 timestamp as [`parse`] reads it.
pub(crate) fn is_valid(text: &str) -> bool {
    parse(text).is_some()
}

/// Parses a duration as people write it (`30s`, `90m`, `2h`, `3d`,
/// `1week`, `1h 30m`: jiff's "friendly" format), a day being 24 hours, a
/// month 30.44 days and a year 365.25 days; `None` when it is not one or
/// is negative.
pub(crate) fn parse_duration(text: &str) -> Option<Duration> {
    let span: jiff::Span = months_spelt_jiffs_way(text.trim()).parse().ok()?;
    if span.is_negative() {
        return None;
    }
    let seconds = i128::from(span.get_years()) * 31_557_600
        + i128::from(span.get_months()) * 2_630_016
        + i128::from(span.get_weeks()) * 7 * 86_400
        + i128::from(span.get_days()) * 86_400
        + i128::from(span.get_hours()) * 3_600
        + i128::from(span.get_minutes()) * 60
        + i128::from(span.get_seconds());
    let nanos = i128::from(span.get_milliseconds()) * 1_000_000
        + i128::from(span.get_microseconds()) * 1_000
        + i128::from(span.get_nanoseconds());
    let total = u128::try_from(seconds * 1_000_000_000 + nanos).ok()?;
    let whole = u64::try_from(total / 1_000_000_000).ok()?;
    let fraction = u32::try_from(total % 1_000_000_000).ok()?;
    Some(Duration::new(whole, fraction))
}

/// `text` with humantime's unit `M` (months, which `--since 1M` meant
/// before jiff read durations) written `mo`, as jiff spells it; every
/// other `M` is left for jiff to refuse.
fn months_spelt_jiffs_way(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains('M') {
        return text.into();
    }
    let mut spelt = String::with_capacity(text.len() + 1);
    let mut after_number = false;
    for c in text.chars() {
        match c {
            'M' if after_number => {
                spelt.push_str("mo");
                after_number = false;
            }
            c if c.is_ascii_digit() || c == '.' => {
                spelt.push(c);
                after_number = true;
            }
            ' ' => spelt.push(c),
            c => {
                spelt.push(c);
                after_number = false;
            }
        }
    }
    spelt.into()
}

/// Serde for a [`Timestamp`] stored as [`format_millis`] writes it (three
/// fraction digits, so stored strings sort in time order) and read as
/// [`parse`] reads it. Use with `#[serde(with = "crate::timestamp::millis")]`.
pub(crate) mod millis {
    use jiff::Timestamp;
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    pub(crate) fn serialize<S: Serializer>(time: &Timestamp, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&super::format_millis(time.as_millisecond()))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Timestamp, D::Error> {
        let text = String::deserialize(d)?;
        super::parse(&text)
            .and_then(|ms| Timestamp::from_millisecond(ms).ok())
            .ok_or_else(|| D::Error::custom(format!("{text:?} is not an ISO 8601 timestamp")))
    }
}

/// [`millis`] for an optional timestamp (`null` or absent is `None`).
pub(crate) mod millis_option {
    use jiff::Timestamp;
    use serde::{Deserialize, Deserializer, Serializer};

    pub(crate) fn serialize<S: Serializer>(
        time: &Option<Timestamp>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        match time {
            Some(time) => super::millis::serialize(time, s),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Timestamp>, D::Error> {
        #[derive(Deserialize)]
        struct Wrapped(#[serde(with = "super::millis")] Timestamp);
        Ok(Option::<Wrapped>::deserialize(d)?.map(|Wrapped(time)| time))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_as_people_write_them() {
        let seconds = |text: &str| parse_duration(text).map(|d| d.as_secs_f64());
        assert_eq!(seconds("30s"), Some(30.0));
        assert_eq!(seconds("10m"), Some(600.0));
        assert_eq!(seconds("90m"), Some(5_400.0));
        assert_eq!(seconds(" 2h "), Some(7_200.0));
        assert_eq!(seconds("1h 30m"), Some(5_400.0));
        assert_eq!(seconds("1.5h"), Some(5_400.0));
        assert_eq!(seconds("3d"), Some(3.0 * 86_400.0));
        assert_eq!(seconds("2 days"), Some(2.0 * 86_400.0));
        assert_eq!(seconds("1week"), Some(7.0 * 86_400.0));
        assert_eq!(seconds("1month"), Some(2_630_016.0));
        // humantime's spelling, which `--since` took before.
        assert_eq!(seconds("1M"), Some(2_630_016.0));
        assert_eq!(seconds("2 M"), Some(2.0 * 2_630_016.0));
        assert_eq!(seconds("1M 2d"), Some(2_630_016.0 + 2.0 * 86_400.0));
        assert_eq!(seconds("1y"), Some(31_557_600.0));
        assert_eq!(seconds("250ms"), Some(0.25));
        for bad in ["soon", "", "2", "-2h", "2h ago", "h", "M", "2Mo"] {
            assert_eq!(parse_duration(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn formats_like_javascript() {
        assert_eq!(format_millis(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(format_millis(1_705_314_600_123), "2024-01-15T10:30:00.123Z");
    }

    #[test]
    fn parses_the_forms_other_tools_write() {
        let base = parse("2024-01-15T10:30:00Z").unwrap();
        assert_eq!(base, 1_705_314_600_000);
        assert_eq!(parse("2024-01-15T10:30:00.000Z"), Some(base));
        assert_eq!(parse("2024-01-15T12:30:00+02:00"), Some(base));
        assert_eq!(parse("2024-01-15T05:30:00-0500"), Some(base));
        assert_eq!(parse("2024-01-15 10:30:00"), Some(base));
        assert_eq!(parse("2024-01-15T10:30:00.5Z"), Some(base + 500));
        assert_eq!(parse("2024-01-15T10:30:00.123456789Z"), Some(base + 123));
        assert_eq!(parse("2024-01-15"), Some(base - 37_800_000));
    }

    #[test]
    fn refuses_what_is_not_a_timestamp() {
        for bad in [
            "",
            "yesterday",
            "2024-13-01T00:00:00Z",
            "2023-02-29T00:00:00Z",
            "2024-01-15T25:00:00Z",
            "2024-01-15T10:30:00+2",
            "2024-01-15T10:30:00Zjunk",
            "2024-01-15T10:30:00.Z",
            "１２３４-01-15",
        ] {
            assert_eq!(parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn serde_writes_three_fraction_digits_and_reads_any_offset() {
        #[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
        struct Row {
            #[serde(with = "millis")]
            at: Timestamp,
            #[serde(
                default,
                with = "millis_option",
                skip_serializing_if = "Option::is_none"
            )]
            until: Option<Timestamp>,
        }
        let row = Row {
            at: Timestamp::from_millisecond(1_705_314_627_690).unwrap(),
            until: Some(Timestamp::from_millisecond(1_705_314_655_300).unwrap()),
        };
        let text = serde_json::to_string(&row).unwrap();
        assert_eq!(
            text,
            r#"{"at":"2024-01-15T10:30:27.690Z","until":"2024-01-15T10:30:55.300Z"}"#
        );
        assert_eq!(serde_json::from_str::<Row>(&text).unwrap(), row);
        let other: Row = serde_json::from_str(r#"{"at":"2024-01-15T12:30:27.69+02:00"}"#).unwrap();
        assert_eq!(other.at, row.at);
        assert_eq!(other.until, None);
        assert!(serde_json::from_str::<Row>(r#"{"at":"noon"}"#).is_err());
    }

    #[test]
    fn formatting_round_trips() {
        for ms in [0, 1, 951_782_400_000, 4_102_444_799_999, -86_400_001] {
            assert_eq!(parse(&format_millis(ms)), Some(ms), "{ms}");
        }
    }
}
