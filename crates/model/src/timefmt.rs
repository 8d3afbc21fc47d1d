//! Formatting and parsing of timestamps and UTC offsets.

use crate::event::Ts;
use chrono::{FixedOffset, NaiveTime};

/// RFC 3339 with microseconds and the source's own offset:
/// `2016-05-15T12:06:32.904335+01:00`.
///
/// ```
/// let t = chrono::DateTime::parse_from_rfc3339("2016-05-15T12:06:32.9043+01:00").unwrap();
/// assert_eq!(mqdiag_model::timefmt::rfc3339(&t), "2016-05-15T12:06:32.904300+01:00");
/// ```
pub fn rfc3339(t: &Ts) -> String {
    let mut b = [0u8; 32];
    let n = rfc3339_into(t, &mut b);
    String::from_utf8_lossy(&b[..n]).into_owned()
}

/// The same, written into a buffer without allocating (the timeline writes
/// one per row); returns the length used.
pub fn rfc3339_into(t: &Ts, out: &mut [u8; 32]) -> usize {
    use chrono::{Datelike, Timelike};
    let l = t.naive_local();
    let y = l.year();
    if !(0..=9999).contains(&y) {
        let s = t.format("%Y-%m-%dT%H:%M:%S%.6f%:z").to_string();
        let n = s.len().min(32);
        out[..n].copy_from_slice(&s.as_bytes()[..n]);
        return n;
    }
    fn put(out: &mut [u8; 32], at: usize, v: u32, width: usize) {
        let mut d = v;
        for k in (0..width).rev() {
            out[at + k] = b'0' + (d % 10) as u8;
            d /= 10;
        }
    }
    // A leap second shows as 60.
    let nanos = l.nanosecond();
    let (sec, frac) = if nanos >= 1_000_000_000 {
        (l.second() + 1, nanos - 1_000_000_000)
    } else {
        (l.second(), nanos)
    };
    let off = t.offset().local_minus_utc();
    let a = off.unsigned_abs();
    put(out, 0, y as u32, 4);
    put(out, 5, l.month(), 2);
    put(out, 8, l.day(), 2);
    put(out, 11, l.hour(), 2);
    put(out, 14, l.minute(), 2);
    put(out, 17, sec, 2);
    put(out, 20, frac / 1000, 6);
    put(out, 27, a / 3600, 2);
    put(out, 30, a % 3600 / 60, 2);
    for (at, c) in [
        (4, b'-'),
        (7, b'-'),
        (10, b'T'),
        (13, b':'),
        (16, b':'),
        (19, b'.'),
        (29, b':'),
    ] {
        out[at] = c;
    }
    out[26] = if off < 0 { b'-' } else { b'+' };
    32
}

/// `+01:00`, `-04:00`, `+00:00`.
pub fn offset_str(off: FixedOffset) -> String {
    let secs = off.local_minus_utc();
    let sign = if secs < 0 { '-' } else { '+' };
    let a = secs.unsigned_abs();
    format!("{}{:02}:{:02}", sign, a / 3600, (a % 3600) / 60)
}

/// Formats many timestamps of (mostly) one day and offset: the date and
/// offset text is kept and only the time of day is written per call.
#[derive(Default)]
pub(crate) struct TsWriter {
    day: Option<(chrono::NaiveDate, i32)>,
    buf: [u8; 32],
}

impl TsWriter {
    /// The RFC 3339 text of `t`, as `rfc3339` writes it.
    pub(crate) fn write(&mut self, t: &Ts) -> &[u8] {
        use chrono::Timelike;
        let l = t.naive_local();
        let key = (l.date(), t.offset().local_minus_utc());
        if self.day != Some(key) {
            rfc3339_into(t, &mut self.buf);
            self.day = Some(key);
            return &self.buf;
        }
        let nanos = l.nanosecond();
        let (sec, frac) = if nanos >= 1_000_000_000 {
            (l.second() + 1, nanos - 1_000_000_000)
        } else {
            (l.second(), nanos)
        };
        let b = &mut self.buf;
        let two = |b: &mut [u8; 32], at: usize, v: u32| {
            b[at] = b'0' + (v / 10) as u8;
            b[at + 1] = b'0' + (v % 10) as u8;
        };
        two(b, 11, l.hour());
        two(b, 14, l.minute());
        two(b, 17, sec);
        let mut f = frac / 1000;
        for k in (20..26).rev() {
            b[k] = b'0' + (f % 10) as u8;
            f /= 10;
        }
        &self.buf
    }
}

/// A duration in microseconds for people: `35 µs`, `3.2 ms`, `17.906 s`.
pub fn human_us(us: u64) -> String {
    let mut b = Vec::with_capacity(16);
    push_human_us(&mut b, us);
    String::from_utf8(b).expect("ASCII and µ")
}

/// `human_us` appended to a buffer, with no allocation (timeline rows).
pub(crate) fn push_human_us(b: &mut Vec<u8>, us: u64) {
    if us < 1_000 {
        b.extend_from_slice(itoa::Buffer::new().format(us).as_bytes());
        b.extend_from_slice(" µs".as_bytes());
    } else if us < 1_000_000 {
        push_fixed(b, us, 1_000, 1);
        b.extend_from_slice(b" ms");
    } else {
        push_fixed(b, us, 1_000_000, 3);
        b.extend_from_slice(b" s");
    }
}

/// `us / unit` with `places` decimals, exactly as `{:.places$}` writes the
/// f64 quotient, in integer arithmetic (formatting floats was a tenth of
/// the time spent on a timeline row). The float is consulted only on a
/// decimal tie, where its rounding error decides; an exact tie rounds to
/// even, as the float formatting does. `unit` is 10^k with k > places.
fn push_fixed(b: &mut Vec<u8>, us: u64, unit: u64, places: u32) {
    let scale = 10u64.pow(places);
    let step = unit / scale;
    let (mut q, r) = (us / step, us % step);
    let half = step / 2;
    let up = match r.cmp(&half) {
        std::cmp::Ordering::Greater => true,
        std::cmp::Ordering::Less => false,
        std::cmp::Ordering::Equal => {
            let v = us as f64 / unit as f64;
            let above = v.mul_add(unit as f64, -(us as f64));
            if above == 0.0 {
                q % 2 == 1
            } else {
                above > 0.0
            }
        }
    };
    q += u64::from(up);
    let mut n = itoa::Buffer::new();
    b.extend_from_slice(n.format(q / scale).as_bytes());
    b.push(b'.');
    let frac = n.format(q % scale).as_bytes();
    b.extend(std::iter::repeat_n(b'0', places as usize - frac.len()));
    b.extend_from_slice(frac);
}

/// Parse `±HH:MM`, `±HHMM`, `±HH` or `Z`.
///
/// ```
/// use mqdiag_model::timefmt::{offset_str, parse_offset};
/// assert_eq!(offset_str(parse_offset("-0330").unwrap()), "-03:30");
/// assert_eq!(offset_str(parse_offset("Z").unwrap()), "+00:00");
/// assert!(parse_offset("01:00").is_none());
/// ```
pub fn parse_offset(s: &str) -> Option<FixedOffset> {
    let s = s.trim();
    if s == "Z" || s == "z" {
        return FixedOffset::east_opt(0);
    }
    let (sign, rest) = match s.as_bytes().first()? {
        b'+' => (1, &s[1..]),
        b'-' => (-1, &s[1..]),
        _ => return None,
    };
    let digits: String = rest.chars().filter(|c| *c != ':').collect();
    if !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let (h, m) = match digits.len() {
        2 => (digits.parse::<i32>().ok()?, 0),
        4 => (
            digits[..2].parse::<i32>().ok()?,
            digits[2..].parse::<i32>().ok()?,
        ),
        _ => return None,
    };
    if h > 14 || m > 59 {
        return None;
    }
    FixedOffset::east_opt(sign * (h * 3600 + m * 60))
}

/// Parse `HH:MM:SS[.ffffff]` (1 to 9 fraction digits) quickly, without a
/// regex: this runs on every trace line.
pub fn parse_time_of_day(s: &[u8]) -> Option<NaiveTime> {
    if s.len() < 8 || s[2] != b':' || s[5] != b':' {
        return None;
    }
    let d2 = |i: usize| -> Option<u32> {
        let a = s[i].wrapping_sub(b'0');
        let b = s[i + 1].wrapping_sub(b'0');
        (a < 10 && b < 10).then(|| u32::from(a * 10 + b))
    };
    let (h, m, sec) = (d2(0)?, d2(3)?, d2(6)?);
    let mut nanos = 0u32;
    if s.len() > 8 {
        if s[8] != b'.' || s.len() == 9 || s.len() > 18 {
            return None;
        }
        let frac = &s[9..];
        let mut v = 0u32;
        for &c in frac {
            let d = c.wrapping_sub(b'0');
            if d >= 10 {
                return None;
            }
            v = v * 10 + d as u32;
        }
        nanos = v * 10u32.pow(9 - frac.len() as u32);
    }
    NaiveTime::from_hms_nano_opt(h, m, sec, nanos)
}

/// Instants the merge can order: 1970-01-01 to 2262-04-11 (nanoseconds
/// since the epoch in an i64). A time outside them is a misread date (a
/// two-digit year taken in the wrong century, a clock gone astray), and an
/// RFC 3339 timestamp has four-digit years: such an event is left out and
/// reported, never printed.
pub fn orderable(key: i64) -> bool {
    (0..i64::MAX).contains(&key)
}

/// Whether every instant of day `d` (in any offset) is `orderable`:
/// 1970-01-02 to 2262-04-10.
pub fn orderable_date(d: chrono::NaiveDate) -> bool {
    let lo = chrono::NaiveDate::from_ymd_opt(1970, 1, 2).expect("date");
    let hi = chrono::NaiveDate::from_ymd_opt(2262, 4, 10).expect("date");
    (lo..=hi).contains(&d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_round_trip() {
        for s in ["+01:00", "-04:00", "+00:00", "+05:30"] {
            assert_eq!(offset_str(parse_offset(s).unwrap()), s);
        }
        assert_eq!(offset_str(parse_offset("-0330").unwrap()), "-03:30");
        assert_eq!(offset_str(parse_offset("Z").unwrap()), "+00:00");
        assert!(parse_offset("01:00").is_none());
        assert!(parse_offset("+25:00").is_none());
    }

    #[test]
    fn rfc3339_matches_chrono() {
        for s in [
            "2016-05-15T12:06:32.904335+01:00",
            "2022-12-31T23:59:59.000001-05:00",
            "0999-01-02T03:04:05.000000+00:00",
            "2023-09-12T09:00:00.990000-03:30",
        ] {
            let t = chrono::DateTime::parse_from_rfc3339(s).unwrap();
            assert_eq!(rfc3339(&t), s);
            assert_eq!(
                rfc3339(&t),
                t.format("%Y-%m-%dT%H:%M:%S%.6f%:z").to_string()
            );
        }
    }

    #[test]
    fn ts_writer_matches_rfc3339_across_days_and_offsets() {
        let mut w = TsWriter::default();
        for s in [
            "2016-05-15T12:06:32.904335+01:00",
            "2016-05-15T12:06:33.000001+01:00",
            "2016-05-15T23:59:59.999999+01:00",
            "2016-05-16T00:00:00.000000+01:00",
            "2016-05-16T00:00:00.000000-04:00",
            "2016-05-16T07:08:09.010203-04:00",
        ] {
            let t = chrono::DateTime::parse_from_rfc3339(s).unwrap();
            assert_eq!(std::str::from_utf8(w.write(&t)).unwrap(), s);
        }
    }

    #[test]
    fn durations_are_written_as_the_float_formatting_writes_them() {
        let float = |us: u64| {
            if us < 1_000 {
                format!("{us} µs")
            } else if us < 1_000_000 {
                format!("{:.1} ms", us as f64 / 1_000.0)
            } else {
                format!("{:.3} s", us as f64 / 1_000_000.0)
            }
        };
        // Every value below 2 s (every millisecond tie), then a sample.
        let mut x: u64 = 0x9E37_79B9;
        let large = (0..100_000).map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            2_000_000 + x % 100_000_000_000
        });
        for us in (0..2_000_000).chain(large) {
            assert_eq!(human_us(us), float(us), "{us}");
        }
    }

    #[test]
    fn time_of_day() {
        let t = parse_time_of_day(b"12:06:32.904335").unwrap();
        assert_eq!(t.format("%H:%M:%S%.6f").to_string(), "12:06:32.904335");
        let t = parse_time_of_day(b"16:35:47").unwrap();
        assert_eq!(t.format("%H:%M:%S%.6f").to_string(), "16:35:47.000000");
        assert!(parse_time_of_day(b"25:00:00.0").is_none());
        assert!(parse_time_of_day(b"12:06:32.").is_none());
        assert!(parse_time_of_day(b"12:06:3x.1").is_none());
    }
}
