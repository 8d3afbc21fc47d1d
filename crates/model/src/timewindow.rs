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
pub(crate) enum End {
    Since,
    Until,
}

/// What a window text was: an instant (RFC 3339, with its offset), a
/// local date or date and time (no offset), or a time of day alone (which
/// may wrap past midnight).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    Instant,
    Absolute,
    TimeOfDay,
}

impl Form {
    /// Whether the text stated no offset: a wall-clock time, which each
    /// file's own clock reads (see `WindowSpec::resolve`).
    pub fn is_local(self) -> bool {
        self != Form::Instant
    }
}

/// Why a window text could not be read, or the window is empty.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WindowError {
    /// A local time the offset skips or repeats (or out of its range).
    NotInOffset { text: String, offset: FixedOffset },
    /// None of the accepted forms.
    NotATime(String),
    /// `--since` after `--until`; `times_of_day` when both were one,
    /// which the message says needs dates to cross midnight.
    Reversed {
        since: String,
        until: String,
        times_of_day: bool,
    },
}

impl std::fmt::Display for WindowError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WindowError::NotInOffset { text, offset } => {
                write!(f, "`{text}` is not a time in {offset}")
            }
            WindowError::NotATime(s) => write!(
                f,
                "`{s}` is not a time: use RFC 3339, YYYY-MM-DD[ HH:MM[:SS]] or HH:MM[:SS]"
            ),
            WindowError::Reversed {
                since,
                until,
                times_of_day,
            } => {
                write!(f, "--since {since} is after --until {until}")?;
                if *times_of_day {
                    f.write_str(" (a window across midnight needs dates: --since 'YYYY-MM-DD 23:00' --until 'YYYY-MM-DD 01:00')")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for WindowError {}

fn time_of_day(s: &str) -> Option<NaiveTime> {
    NaiveTime::parse_from_str(s, "%H:%M:%S%.f")
        .or_else(|_| NaiveTime::parse_from_str(s, "%H:%M"))
        .ok()
}

fn local(off: FixedOffset, t: NaiveDateTime, s: &str) -> Result<Ts, WindowError> {
    off.from_local_datetime(&t)
        .single()
        .ok_or_else(|| WindowError::NotInOffset {
            text: s.to_string(),
            offset: off,
        })
}

/// The instant `s` names, in `off` on `day` where it states neither.
pub(crate) fn parse(
    s: &str,
    end: End,
    off: FixedOffset,
    day: NaiveDate,
) -> Result<(Ts, Form), WindowError> {
    let s = s.trim();
    if let Ok(t) = DateTime::parse_from_rfc3339(s) {
        return Ok((t, Form::Instant));
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
    Err(WindowError::NotATime(s.to_string()))
}

/// Both ends; `since` after `until` is an error whatever the forms (a
/// time of day is not moved to the next day: `--since 06:23 --until 06:22`
/// is more likely a typo than a window of 24 hours less a minute).
pub fn resolve(
    since: Option<&str>,
    until: Option<&str>,
    off: FixedOffset,
    day: NaiveDate,
) -> Result<(Option<Ts>, Option<Ts>), WindowError> {
    let (s, u) = resolve_forms(since, until, off, day)?;
    Ok((s.map(|x| x.0), u.map(|x| x.0)))
}

/// Both ends, with the form each was written in.
pub type Ends = (Option<(Ts, Form)>, Option<(Ts, Form)>);

/// As `resolve`, with each end's form.
pub fn resolve_forms(
    since: Option<&str>,
    until: Option<&str>,
    off: FixedOffset,
    day: NaiveDate,
) -> Result<Ends, WindowError> {
    let s = since.map(|x| parse(x, End::Since, off, day)).transpose()?;
    let u = until.map(|x| parse(x, End::Until, off, day)).transpose()?;
    if let (Some((st, sf)), Some((ut, uf))) = (s, u)
        && ut < st
    {
        return Err(WindowError::Reversed {
            since: since.unwrap_or_default().to_string(),
            until: until.unwrap_or_default().to_string(),
            times_of_day: sf == Form::TimeOfDay && uf == Form::TimeOfDay,
        });
    }
    Ok((s, u))
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
        let e = resolve(Some("06:23"), Some("06:22"), off(0), day())
            .unwrap_err()
            .to_string();
        assert!(e.contains("is after") && e.contains("needs dates"), "{e}");
        let (s, u) = resolve(
            Some("2012-05-04 23:00"),
            Some("2012-05-05 01:00"),
            off(0),
            day(),
        )
        .unwrap();
        assert_eq!(u.unwrap() - s.unwrap(), chrono::Duration::hours(2));
        let e = resolve(Some("2012-05-05"), Some("2012-05-04"), off(0), day())
            .unwrap_err()
            .to_string();
        assert!(e.contains("is after"), "{e}");
        // A whole day as both ends.
        let (s, u) = resolve(Some("2012-05-04"), Some("2012-05-04"), off(0), day()).unwrap();
        assert!(s.unwrap() < u.unwrap());
        assert_eq!(resolve(None, None, off(0), day()).unwrap(), (None, None));
    }

    #[test]
    fn messages() {
        let e = |s: Option<&str>, u: Option<&str>| {
            resolve(s, u, off(0), day()).unwrap_err().to_string()
        };
        assert_eq!(
            e(Some(" yesterday "), None),
            "`yesterday` is not a time: use RFC 3339, YYYY-MM-DD[ HH:MM[:SS]] or HH:MM[:SS]"
        );
        assert_eq!(
            e(Some("06:23"), Some("06:22")),
            "--since 06:23 is after --until 06:22 (a window across midnight needs dates: \
             --since 'YYYY-MM-DD 23:00' --until 'YYYY-MM-DD 01:00')"
        );
        assert_eq!(
            e(Some("2012-05-05"), Some("06:22")),
            "--since 2012-05-05 is after --until 06:22"
        );
        let not_in = WindowError::NotInOffset {
            text: "x".into(),
            offset: off(-4),
        };
        assert_eq!(not_in.to_string(), "`x` is not a time in -04:00");
    }
}
