//! Cell values as `mqsmfcsv` writes them: padded strings, placeholders for
//! "absent", dates with a comma before the microseconds, durations split
//! into seconds and microseconds.

use chrono::{NaiveDate, NaiveDateTime, NaiveTime};
use mqdiag_model::text::trim;

/// A cleaned cell: trimmed; `None` for the formatter's "no value" forms
/// (empty, blank `="    "`, all dots: binary zeros or a field missing from
/// an older record version). `-1` is left to the caller, which knows the
/// column.
pub(crate) fn clean(s: &str) -> Option<&str> {
    let t = trim(s);
    if t.is_empty() || t.bytes().all(|b| b == b'.') {
        None
    } else {
        Some(t)
    }
}

/// `2016/02/27` (CSV) or `2016-02-27` (SQL mode).
pub(crate) fn date(s: &str) -> Option<NaiveDate> {
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b[7] || !(b[4] == b'/' || b[4] == b'-') {
        return None;
    }
    let n = |r: std::ops::Range<usize>| -> Option<u32> {
        let p = &s[r];
        p.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| p.parse().ok())?
    };
    NaiveDate::from_ymd_opt(n(0..4)? as i32, n(5..7)?, n(8..10)?)
}

/// `18:03:46,890000` (CSV) or `18:03:46.890000`.
pub(crate) fn time(s: &str) -> Option<NaiveTime> {
    let b = s.as_bytes();
    if b.len() > 8 && b[8] == b',' {
        // The comma made a point, on the stack (every row has times).
        let mut buf = [0u8; 32];
        if b.len() > buf.len() {
            return mqdiag_model::timefmt::parse_time_of_day(
                format!("{}.{}", &s[..8], &s[9..]).as_bytes(),
            );
        }
        buf[..b.len()].copy_from_slice(b);
        buf[8] = b'.';
        return mqdiag_model::timefmt::parse_time_of_day(&buf[..b.len()]);
    }
    mqdiag_model::timefmt::parse_time_of_day(b)
}

/// A `(DATE)` and `(TIME)` pair. `Ok(None)`: no value (empty, or the
/// formatter's 1970-01-01 placeholder for a zero or nonsensical STCK).
pub(crate) fn date_time(d: Option<&str>, t: Option<&str>) -> Result<Option<NaiveDateTime>, ()> {
    match (d, t) {
        (None, None) => Ok(None),
        (Some(d), Some(t)) => {
            if is_epoch(d, t) {
                return Ok(None);
            }
            match (date(d), time(t)) {
                (Some(d), Some(t)) => Ok(Some(d.and_time(t))),
                _ => Err(()),
            }
        }
        _ => Err(()),
    }
}

/// `1970/01/01`,`00:00:00,000000`: "no timestamp".
pub(crate) fn is_epoch(d: &str, t: &str) -> bool {
    (d == "1970/01/01" || d == "1970-01-01")
        && t.len() >= 8
        && t.starts_with("00:00:00")
        && t[8..].bytes().all(|b| b == b'0' || b == b',' || b == b'.')
}

/// A plain decimal integer.
pub(crate) fn int(s: &str) -> Option<i64> {
    trim(s).parse().ok()
}

/// Seconds and microseconds of a split duration, in microseconds. The
/// `-1` dummies of absent fields give `None`.
pub(crate) fn duration_us(s: Option<&str>, us: Option<&str>) -> Option<i64> {
    let s = int(s?)?;
    let us = int(us?)?;
    if s < 0 || us < 0 {
        return None;
    }
    s.checked_mul(1_000_000)?.checked_add(us)
}

/// `800` → `8.0.0`, `935` → `9.3.5`, `100000` → `10.0.0`.
pub(crate) fn mq_version(v: &str) -> Option<String> {
    if !v.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    match v.len() {
        3 => {
            let b = v.as_bytes();
            Some(format!("{}.{}.{}", b[0] - b'0', b[1] - b'0', b[2] - b'0'))
        }
        6 => {
            let n = |r: std::ops::Range<usize>| v[r].parse::<u32>().ok();
            Some(format!("{}.{}.{}", n(0..2)?, n(2..4)?, n(4..6)?))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_none() {
        assert_eq!(clean("ELKINSC.TEST   "), Some("ELKINSC.TEST"));
        assert_eq!(clean(" 88 "), Some("88"));
        assert_eq!(clean("...................."), None);
        assert_eq!(clean("...."), None);
        assert_eq!(clean("    "), None);
        assert_eq!(clean(""), None);
        assert_eq!(clean("....XX**.+.."), Some("....XX**.+.."));
    }

    #[test]
    fn dates_and_times() {
        let dt = date_time(Some("2016/02/27"), Some("22:03:19,279249"))
            .unwrap()
            .unwrap();
        assert_eq!(dt.to_string(), "2016-02-27 22:03:19.279249");
        let dt = date_time(Some("2016-02-27"), Some("22:03:19.5"))
            .unwrap()
            .unwrap();
        assert_eq!(dt.to_string(), "2016-02-27 22:03:19.500");
        assert_eq!(date_time(None, None), Ok(None));
        assert_eq!(
            date_time(Some("1970/01/01"), Some("00:00:00,000000")),
            Ok(None)
        );
        assert_eq!(date_time(Some("2016/02/30"), Some("22:03:19,0")), Err(()));
        assert_eq!(date_time(Some("2016/02/27"), None), Err(()));
        assert_eq!(date_time(Some("27/02/2016"), Some("22:03:19,0")), Err(()));
    }

    #[test]
    fn durations_and_versions() {
        assert_eq!(duration_us(Some("13"), Some(" 751955 ")), Some(13_751_955));
        assert_eq!(duration_us(Some("-1"), Some("-1")), None);
        assert_eq!(duration_us(Some("0"), None), None);
        assert_eq!(mq_version("800").as_deref(), Some("8.0.0"));
        assert_eq!(mq_version("100000").as_deref(), Some("10.0.0"));
        assert_eq!(mq_version("9x5"), None);
    }
}
