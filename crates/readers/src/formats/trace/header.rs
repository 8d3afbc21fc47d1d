//! The trace file header: titles, `Key : value` lines, dates.

use super::*;

pub(super) fn is_title(line: &str) -> bool {
    (line.contains("TimeStamp") || line.contains("Timestamp"))
        && (line.contains("Process.Thread") || line.contains("PID.TID"))
}

/// Date order in a header date.
pub(super) fn parse_header_date(s: &str, four_digit_is_dmy: bool) -> Option<NaiveDate> {
    let parts: Vec<&str> = s.trim().split(['/', '.', '-']).collect();
    if parts.len() != 3 {
        return None;
    }
    let a: u32 = parts[0].parse().ok()?;
    let b: u32 = parts[1].parse().ok()?;
    let mut y: i32 = parts[2].parse().ok()?;
    if parts[2].len() <= 2 {
        y += if y < 70 { 2000 } else { 1900 };
    }
    let dmy = if a > 12 {
        true
    } else if b > 12 {
        false
    } else {
        // Both fit a month: the native writers use MM/DD/YY, the .NET client
        // writes dd/MM/yyyy (four-digit year).
        four_digit_is_dmy && parts[2].len() == 4
    };
    let (m, d) = if dmy { (b, a) } else { (a, b) };
    // A year no event can be ordered in (`01/01/10000`, `1900`) is a
    // misread or damaged header: no date, rather than events in year 10000.
    NaiveDate::from_ymd_opt(y, m, d).filter(|d| mqdiag_model::timefmt::orderable_date(*d))
}

/// Header facts gathered from either header style.
#[derive(Debug, Default, Clone)]
pub(super) struct Header {
    pub(super) local: Option<NaiveDateTime>,
    pub(super) utc: Option<NaiveDateTime>,
    /// `Date : .. Time : ..` of the Windows free-text header.
    pub(super) plain: Option<NaiveDateTime>,
    /// `UTC Date : ..` and `Local Date : ..` lines of the Windows layout
    /// (line, text after the key), read once both may be there: their
    /// date order is decided together.
    pub(super) win_utc: Option<(u64, String)>,
    pub(super) win_local: Option<(u64, String)>,
}

/// A header date in one order (`true`: day first); `None` when it is not a
/// valid date that way.
pub(super) fn header_date_as(s: &str, dmy: bool) -> Option<NaiveDate> {
    let parts: Vec<&str> = s.trim().split(['/', '.', '-']).collect();
    if parts.len() != 3 {
        return None;
    }
    let a: u32 = parts[0].parse().ok()?;
    let b: u32 = parts[1].parse().ok()?;
    let mut y: i32 = parts[2].parse().ok()?;
    if parts[2].len() <= 2 {
        y += if y < 70 { 2000 } else { 1900 };
    }
    let (m, d) = if dmy { (b, a) } else { (a, b) };
    // A year no event can be ordered in (`01/01/10000`, `1900`) is a
    // misread or damaged header: no date, rather than events in year 10000.
    NaiveDate::from_ymd_opt(y, m, d).filter(|d| mqdiag_model::timefmt::orderable_date(*d))
}

pub(super) fn date_time_as(s: &str, dmy: bool) -> Option<NaiveDateTime> {
    let d = header_date_as(first_word(field(s, "Date")?), dmy)?;
    let t = parse_time_of_day(first_word(field(s, "Time")?).as_bytes())?;
    Some(d.and_time(t))
}

/// The UTC and local date lines of a Windows header read in the one date
/// order that fits both (a day above 12 rules an order out, and the two
/// must lie within 14 hours of each other); where both orders fit, a
/// four-digit year is day first (the .NET client's dd/MM/yyyy), a
/// two-digit one month first (the native MM/DD/YY).
pub(super) fn windows_dates(
    utc: Option<&str>,
    local: Option<&str>,
) -> (Option<NaiveDateTime>, Option<NaiveDateTime>) {
    let read = |dmy: bool| {
        (
            utc.and_then(|s| date_time_as(s, dmy)),
            local.and_then(|s| date_time_as(s, dmy)),
        )
    };
    let fits = |(u, l): (Option<NaiveDateTime>, Option<NaiveDateTime>)| {
        utc.is_some() == u.is_some()
            && local.is_some() == l.is_some()
            && match (u, l) {
                (Some(u), Some(l)) => (l - u).num_seconds().abs() <= 14 * 3600,
                _ => true,
            }
    };
    let (dmy, mdy) = (read(true), read(false));
    match (fits(dmy), fits(mdy)) {
        (true, false) => dmy,
        (false, true) => mdy,
        (true, true) => {
            let four = utc
                .or(local)
                .and_then(|s| field(s, "Date"))
                .map(first_word)
                .and_then(|d| d.rsplit(['/', '.', '-']).next())
                .is_some_and(|y| y.len() == 4);
            if four { dmy } else { mdy }
        }
        // Neither fits both: take what each line gives on its own.
        (false, false) => (
            utc.and_then(|s| date_time(s, true)),
            local.and_then(|s| date_time(s, true)),
        ),
    }
}

/// Value after `Key :` in `... Key : value  Other : x`.
pub(super) fn field<'a>(s: &'a str, key: &str) -> Option<&'a str> {
    let i = s.find(key)?;
    let rest = s[i + key.len()..].trim_start();
    let rest = rest.strip_prefix(':')?.trim_start();
    Some(rest)
}

pub(super) fn first_word(s: &str) -> &str {
    s.split_whitespace().next().unwrap_or("")
}

/// `Date : 05/15/16  Time : 11:06:32.904302`
pub(super) fn date_time(s: &str, four_digit_is_dmy: bool) -> Option<NaiveDateTime> {
    let d = parse_header_date(first_word(field(s, "Date")?), four_digit_is_dmy)?;
    let t = parse_time_of_day(first_word(field(s, "Time")?).as_bytes())?;
    Some(d.and_time(t))
}

/// Data of the UNIX header records (everything up to the dash rule).
pub(super) fn is_header_data(d: &str) -> bool {
    const KEYS: [&str; 9] = [
        "Header.v",
        "Version",
        "UTC",
        "Local Date",
        "PID",
        "Host",
        "Operating System",
        "Product Long Name",
        "--------------------------------",
    ];
    // Unknown header keys still have the `Key : value` shape.
    KEYS.iter().any(|k| d.starts_with(k)) || d.contains(" : ")
}

pub(super) fn is_blank_ident(line: &str) -> bool {
    // `  8.1           :  data` — a lone colon after PID.TID.
    line.split_whitespace().any(|w| w == ":")
}
