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
    NaiveDate::from_ymd_opt(y, m, d)
}

/// Header facts gathered from either header style.
#[derive(Debug, Default, Clone)]
pub(super) struct Header {
    pub(super) local: Option<NaiveDateTime>,
    pub(super) utc: Option<NaiveDateTime>,
    /// `Date : .. Time : ..` of the Windows free-text header.
    pub(super) plain: Option<NaiveDateTime>,
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
