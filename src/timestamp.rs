//! ISO 8601 timestamps without a date library: the UTC form JavaScript's
//! `Date.toISOString()` writes (`2024-01-15T10:30:00.000Z`), and a parser for
//! the RFC 3339 profile of ISO 8601 other tools write (`…Z`, `…+02:00`,
//! optional fraction), so timestamps from any writer compare correctly.

use std::time::{SystemTime, UNIX_EPOCH};

/// Milliseconds since the Unix epoch, UTC.
pub type Millis = i64;

/// The current time in milliseconds since the epoch.
pub fn now_millis() -> Millis {
    system_time_millis(SystemTime::now())
}

/// A `SystemTime` in milliseconds since the epoch (negative before 1970).
pub fn system_time_millis(time: SystemTime) -> Millis {
    match time.duration_since(UNIX_EPOCH) {
        Ok(d) => d.as_millis().min(i64::MAX as u128) as i64,
        Err(e) => -(e.duration().as_millis().min(i64::MAX as u128) as i64),
    }
}

/// The current time as `YYYY-MM-DDTHH:MM:SS.mmmZ`.
pub fn now_iso() -> String {
    format_millis(now_millis())
}

/// Formats milliseconds since the epoch as `YYYY-MM-DDTHH:MM:SS.mmmZ`.
pub fn format_millis(ms: Millis) -> String {
    let days = ms.div_euclid(86_400_000);
    let in_day = ms.rem_euclid(86_400_000);
    let (y, m, d) = civil_from_days(days);
    let (h, min, s, milli) = (
        in_day / 3_600_000,
        in_day / 60_000 % 60,
        in_day / 1000 % 60,
        in_day % 1000,
    );
    format!("{y:04}-{m:02}-{d:02}T{h:02}:{min:02}:{s:02}.{milli:03}Z")
}

/// Parses an ISO 8601 date-time (`YYYY-MM-DDTHH:MM[:SS[.fff]](Z|±HH:MM|±HHMM)`,
/// `T` or a space between date and time; no zone means UTC) or a plain date
/// (`YYYY-MM-DD`, midnight UTC). Returns milliseconds since the epoch.
pub fn parse(text: &str) -> Option<Millis> {
    let b = text.as_bytes();
    let num = |range: std::ops::Range<usize>| -> Option<i64> {
        let part = b.get(range)?;
        if part.is_empty() || !part.iter().all(u8::is_ascii_digit) {
            return None;
        }
        std::str::from_utf8(part).ok()?.parse().ok()
    };
    if b.len() < 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let (year, month, day) = (num(0..4)?, num(5..7)?, num(8..10)?);
    if !(1..=12).contains(&month) || day < 1 || day > days_in_month(year, month) {
        return None;
    }
    let days = days_from_civil(year, month, day);
    if b.len() == 10 {
        return Some(days * 86_400_000);
    }
    if !matches!(b[10], b'T' | b't' | b' ') || b.len() < 16 || b[13] != b':' {
        return None;
    }
    let (hour, minute) = (num(11..13)?, num(14..16)?);
    let mut i = 16;
    let mut second = 0;
    let mut millis = 0;
    if b.get(i) == Some(&b':') {
        second = num(i + 1..i + 3)?;
        i += 3;
        if matches!(b.get(i), Some(b'.') | Some(b',')) {
            let start = i + 1;
            let mut end = start;
            while end < b.len() && b[end].is_ascii_digit() {
                end += 1;
            }
            if end == start {
                return None;
            }
            let digits = &text[start..end.min(start + 3)];
            millis = digits.parse::<i64>().ok()? * 10_i64.pow(3 - digits.len() as u32);
            i = end;
        }
    }
    if hour > 23 || minute > 59 || second > 60 {
        return None;
    }
    let offset_minutes = match &b[i..] {
        [] | [b'Z'] | [b'z'] => 0,
        [sign @ (b'+' | b'-'), rest @ ..] => {
            let (oh, om) = match rest {
                [h1, h2, b':', m1, m2] | [h1, h2, m1, m2] => {
                    let digits = [*h1, *h2, *m1, *m2];
                    if !digits.iter().all(u8::is_ascii_digit) {
                        return None;
                    }
                    let v = |a: u8, b: u8| i64::from(a - b'0') * 10 + i64::from(b - b'0');
                    (v(*h1, *h2), v(*m1, *m2))
                }
                [h1, h2] if h1.is_ascii_digit() && h2.is_ascii_digit() => {
                    (i64::from(h1 - b'0') * 10 + i64::from(h2 - b'0'), 0)
                }
                _ => return None,
            };
            if oh > 23 || om > 59 {
                return None;
            }
            let total = oh * 60 + om;
            if *sign == b'+' { total } else { -total }
        }
        _ => return None,
    };
    let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset_minutes * 60;
    Some(seconds * 1000 + millis)
}

/// Whether `text` is a valid ISO 8601 timestamp as [`parse`] reads it.
pub fn is_valid(text: &str) -> bool {
    parse(text).is_some()
}

fn is_leap(year: i64) -> bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
}

fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if is_leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (if m <= 2 { y + 1 } else { y }, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn formatting_round_trips() {
        for ms in [0, 1, 951_782_400_000, 4_102_444_799_999, -86_400_001] {
            assert_eq!(parse(&format_millis(ms)), Some(ms), "{ms}");
        }
    }
}
