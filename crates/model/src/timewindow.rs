//! `--since`/`--until` text to instants, as pure functions.
//!
//! Accepted: RFC 3339 (`2012-05-04T11:42:00-04:00`), a local date and time
//! (`2012-05-04 11:42[:00[.fff]]`, also with `T`), a bare date (the whole
//! day: `--since` is its 00:00, `--until` its last instant), and a time of
//! day (`11:42[:00[.fff]]`) on the reference day. Local forms are read in
//! the reference offset (`--tz`, else the offset of the first event of a
//! trace or error log, see `Merged::reference_ts`).

use crate::event::Ts;
use chrono::{DateTime, FixedOffset, NaiveDate, NaiveDateTime, NaiveTime, TimeZone};

/// Which end of the window a text names: a bare date means the start of
/// the day for `Since` and its end for `Until`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum End {
    Since,
    Until,
}

/// What a window text was: a time of day alone may wrap past midnight.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    Absolute,
    TimeOfDay,
}

fn time_of_day(s: &str) -> Option<NaiveTime> {
    NaiveTime::parse_from_str(s, "%H:%M:%S%.f")
        .or_else(|_| NaiveTime::parse_from_str(s, "%H:%M"))
        .ok()
}

fn local(off: FixedOffset, t: NaiveDateTime, s: &str) -> Result<Ts, String> {
    off.from_local_datetime(&t)
        .single()
        .ok_or_else(|| format!("`{s}` is not a time in {off}"))
}

/// The instant `s` names, in `off` on `day` where it states neither.
pub fn parse(s: &str, end: End, off: FixedOffset, day: NaiveDate) -> Result<(Ts, Form), String> {
    let s = s.trim();
    if let Ok(t) = DateTime::parse_from_rfc3339(s) {
        return Ok((t, Form::Absolute));
    }
    if let Ok(d) = NaiveDate::parse_from_str(s, "%Y-%m-%d") {
        let t = match end {
            End::Since => d.and_time(NaiveTime::MIN),
            End::Until => d.and_time(
                NaiveTime::from_hms_nano_opt(23, 59, 59, 999_999_999).expect("valid time"),
            ),
        };
        return Ok((local(off, t, s)?, Form::Absolute));
    }
    if let Some((d, t)) = s.split_once([' ', 'T'])
        && let (Ok(d), Some(t)) = (NaiveDate::parse_from_str(d, "%Y-%m-%d"), time_of_day(t))
    {
        return Ok((local(off, d.and_time(t), s)?, Form::Absolute));
    }
    if let Some(t) = time_of_day(s) {
        return Ok((local(off, day.and_time(t), s)?, Form::TimeOfDay));
    }
    Err(format!(
        "`{s}` is not a time: use RFC 3339, YYYY-MM-DD[ HH:MM[:SS]] or HH:MM[:SS]"
    ))
}

/// Both ends; `since` after `until` is an error whatever the forms (a
/// time of day is not moved to the next day: `--since 06:23 --until 06:22`
/// is more likely a typo than a window of 24 hours less a minute).
pub fn resolve(
    since: Option<&str>,
    until: Option<&str>,
    off: FixedOffset,
    day: NaiveDate,
) -> Result<(Option<Ts>, Option<Ts>), String> {
    let s = since.map(|x| parse(x, End::Since, off, day)).transpose()?;
    let u = until.map(|x| parse(x, End::Until, off, day)).transpose()?;
    if let (Some((st, sf)), Some((ut, uf))) = (s, u)
        && ut < st
    {
        let midnight = if sf == Form::TimeOfDay && uf == Form::TimeOfDay {
            " (a window across midnight needs dates: --since 'YYYY-MM-DD 23:00' --until 'YYYY-MM-DD 01:00')"
        } else {
            ""
        };
        return Err(format!(
            "--since {} is after --until {}{midnight}",
            since.unwrap_or_default(),
            until.unwrap_or_default()
        ));
    }
    Ok((s.map(|x| x.0), u.map(|x| x.0)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn off(h: i32) -> FixedOffset {
        FixedOffset::east_opt(h * 3600).unwrap()
    }
    fn day() -> NaiveDate {
        NaiveDate::from_ymd_opt(2012, 5, 4).unwrap()
    }
    fn p(s: &str, e: End) -> String {
        parse(s, e, off(-4), day()).unwrap().0.to_rfc3339()
    }

    #[test]
    fn forms() {
        assert_eq!(
            p("2012-05-04T06:22:44+01:00", End::Since),
            "2012-05-04T06:22:44+01:00"
        );
        assert_eq!(
            p("2012-05-04 06:22", End::Since),
            "2012-05-04T06:22:00-04:00"
        );
        assert_eq!(
            p("2012-05-04T06:22:44", End::Since),
            "2012-05-04T06:22:44-04:00"
        );
        assert_eq!(p("2012-05-05", End::Since), "2012-05-05T00:00:00-04:00");
        assert_eq!(
            p("2012-05-05", End::Until),
            "2012-05-05T23:59:59.999999999-04:00"
        );
        assert_eq!(p("07:00", End::Until), "2012-05-04T07:00:00-04:00");
        assert_eq!(p("07:00:01.5", End::Until), "2012-05-04T07:00:01.500-04:00");
        assert!(parse("yesterday", End::Since, off(0), day()).is_err());
        assert!(parse("25:00", End::Since, off(0), day()).is_err());
    }

    #[test]
    fn window_ends() {
        // Times of day are not moved to the next day.
        let e = resolve(Some("06:23"), Some("06:22"), off(0), day()).unwrap_err();
        assert!(e.contains("is after") && e.contains("needs dates"), "{e}");
        let (s, u) = resolve(
            Some("2012-05-04 23:00"),
            Some("2012-05-05 01:00"),
            off(0),
            day(),
        )
        .unwrap();
        assert_eq!(u.unwrap() - s.unwrap(), chrono::Duration::hours(2));
        let e = resolve(Some("2012-05-05"), Some("2012-05-04"), off(0), day()).unwrap_err();
        assert!(e.contains("is after"), "{e}");
        // A whole day as both ends.
        let (s, u) = resolve(Some("2012-05-04"), Some("2012-05-04"), off(0), day()).unwrap();
        assert!(s.unwrap() < u.unwrap());
        assert_eq!(resolve(None, None, off(0), day()).unwrap(), (None, None));
    }
}
