//! Time of day to instants: the file's date, midnight roll-over, and the
//! clock the source keeps.

use super::*;

/// `HH:MM:SS.ffffff` within one day, as nanoseconds since midnight; `None`
/// for anything else (which `parse_time_of_day` judges). Read a word at a
/// time: it runs for every line `analyze` skips.
/// The last day a date may have (RFC 3339 years have four digits).
const LAST_DAY: NaiveDate = NaiveDate::from_ymd_opt(9999, 12, 31).expect("a valid date");

#[inline]
pub(super) fn plain_tod(t: &[u8]) -> Option<i64> {
    let (a, b) = tod_words(t)?;
    let d = |x: u64, i: u32| ((x >> (8 * i)) & 0xFF) as i64;
    let (h, m, sec) = (
        d(a, 0) * 10 + d(a, 1),
        d(a, 3) * 10 + d(a, 4),
        d(a, 6) * 10 + d(a, 7),
    );
    if h > 23 || m > 59 || sec > 59 {
        return None;
    }
    let micros =
        ((d(b, 2) * 10 + d(b, 3)) * 100 + d(b, 4) * 10 + d(b, 5)) * 100 + d(b, 6) * 10 + d(b, 7);
    Some(((h * 60 + m) * 60 + sec) * 1_000_000_000 + micros * 1000)
}

/// `HH:MM:SS.ffffff` as two words, `HH:MM:SS` and `S.ffffff` (little
/// endian), each byte minus '0', when every digit is one and every
/// separator in place.
#[inline]
pub(super) fn tod_words(t: &[u8]) -> Option<(u64, u64)> {
    let t: &[u8; 15] = t.try_into().ok()?;
    if t[2] != b':' || t[5] != b':' || t[8] != b'.' {
        return None;
    }
    let word = |at: usize| {
        let mut w = [0u8; 8];
        w.copy_from_slice(&t[at..at + 8]);
        u64::from_le_bytes(w) ^ 0x3030_3030_3030_3030
    };
    // A byte is a digit when, minus '0', it is below 10: adding 0x76
    // leaves its top bit clear.
    let (a, b) = (word(0), word(7));
    let not_digit = |x: u64, digits: u64| {
        ((x.wrapping_add(0x7676_7676_7676_7676) | x) & 0x8080_8080_8080_8080 & digits) != 0
    };
    if not_digit(a, 0xFFFF_00FF_FF00_FFFF) || not_digit(b, 0xFFFF_FFFF_FFFF_0000) {
        return None;
    }
    Some((a, b))
}

/// The hour of a time of day in nanoseconds, as the low two bytes of
/// `tod_words`' first word.
pub(super) fn hour_word(tod: i64) -> u64 {
    let h = (tod / 3_600_000_000_000).clamp(0, 99) as u64;
    (h / 10) | (h % 10) << 8
}

/// A line at or after this time of day may be the last before midnight...
const LATE_EVENING: i64 = 20 * 3_600_000_000_000;
/// ... and one before this the first after it.
const EARLY_MORNING: i64 = 4 * 3_600_000_000_000;

/// Whether midnight may lie between a line at `last` and the next at `tod`
/// (times of day in nanoseconds).
fn midnight_between(last: i64, tod: i64) -> bool {
    last >= LATE_EVENING && tod < EARLY_MORNING
}

/// Nanoseconds since midnight.
pub(super) fn tod_nanos(t: NaiveTime) -> i64 {
    i64::from(t.num_seconds_from_midnight()) * 1_000_000_000 + i64::from(t.nanosecond())
}

/// One local day at one offset: its first instant and its timestamp text
/// (the date and offset parts are copied into every row of the day).
pub(super) struct Day {
    pub(super) date: NaiveDate,
    pub(super) offset: FixedOffset,
    pub(super) base: i64,
    pub(super) text: [u8; 32],
}

impl Day {
    pub(super) fn new(date: NaiveDate, offset: FixedOffset) -> Option<Day> {
        let t = offset
            .from_local_datetime(&date.and_time(NaiveTime::MIN))
            .single()?;
        let mut text = [0u8; 32];
        (mqdiag_model::timefmt::rfc3339_into(&t, &mut text) == 32).then_some(())?;
        Some(Day {
            date,
            offset,
            base: t.timestamp_nanos_opt()?,
            text,
        })
    }
}

impl TraceSource {
    /// Decide date and offset when the header is complete (or absent):
    /// from this file's header, else from the previous file of the group
    /// (a `.TRS` before its `.FMT`), else from the options.
    pub(super) fn settle_clock(&mut self, first_tod: Option<NaiveTime>) {
        self.hazard();
        self.clock_settled = true;
        let seg = self.seg.as_mut().expect("segment");
        if self.header.win_utc.is_some() || self.header.win_local.is_some() {
            let (wu, wl) = (self.header.win_utc.take(), self.header.win_local.take());
            let (u, l) = windows_dates(
                wu.as_ref().map(|(_, s)| s.as_str()),
                wl.as_ref().map(|(_, s)| s.as_str()),
            );
            for (line, got) in [(wu, u), (wl, l)] {
                if let Some((no, text)) = line
                    && got.is_none()
                {
                    seg.info.problem(
                        ProblemCode::BadTime,
                        Some(no),
                        Severity::Warning,
                        0,
                        format!("header date `{}` cannot be read", text.trim()),
                    );
                }
            }
            self.header.utc = self.header.utc.or(u);
            self.header.local = self.header.local.or(l);
        }
        if let (Some(l), Some(u)) = (self.header.local, self.header.utc) {
            let secs = (l - u).num_seconds();
            // Round to the minute: the two header lines are written a few
            // microseconds apart.
            // Lines years apart (a damaged header) make no offset: the
            // product is taken in i64 and must fit the offset's range.
            let mins = ((secs as f64) / 60.0).round() as i64;
            let off = i32::try_from(mins * 60)
                .ok()
                .and_then(FixedOffset::east_opt);
            if let Some(off) = off {
                self.offset = Some(off);
                seg.info.set_offset(off, "header");
            }
        }
        match self.offset {
            None => self.offset = Some(self.opts.fallback_offset(&mut seg.info)),
            Some(off) if seg.info.utc_offset.is_none() => {
                seg.info.set_offset(off, "previous file of the wrap group")
            }
            Some(_) => {}
        }
        let off = self.offset.expect("offset");
        // A header cut after its UTC line still dates the file.
        let from_utc = self
            .header
            .utc
            .map(|u| u + chrono::Duration::seconds(off.local_minus_utc() as i64));
        if let Some(s) = self.header.local.or(self.header.plain).or(from_utc) {
            self.date = Some(s.date());
            self.last_tod = Some(tod_nanos(s.time()));
        }
        if self.date.is_some() {
            return;
        }
        let (date, how) = match self.opts.date {
            Some(d) => (d, "--date"),
            None => {
                let m = seg
                    .input
                    .mtime
                    .map(|t| DateTime::<chrono::Utc>::from(t).with_timezone(&off));
                match m {
                    Some(m) => {
                        // The trace was written before it was formatted: a
                        // first line later in the day than the file's
                        // modification belongs to an earlier day.
                        let mut d = m.date_naive();
                        if first_tod.is_some_and(|t| t > m.time()) {
                            d = d.pred_opt().unwrap_or(d);
                        }
                        (d, "the file's modification time")
                    }
                    None => (
                        NaiveDate::from_ymd_opt(1970, 1, 1).expect("date"),
                        "nowhere (1970-01-01 used)",
                    ),
                }
            }
        };
        seg.info.problem( ProblemCode::NoDate,
            None,
            Severity::Info,
            0,
            if self.opts.date.is_some() {
                format!("no date in the file: date {date} taken from {how}")
            } else {
                format!(
                    "no date in the file (formatted with `dspmqtrc -h`?): date {date} taken from {how}; give --date to set it"
                )
            },
        );
        self.date = Some(date);
    }

    /// The instant of a record at line `no` with this time of day; a step
    /// back that cannot be midnight is reported there.
    pub(super) fn timestamp(&mut self, tod: NaiveTime, no: u64) -> Ts {
        self.timestamp_at(tod, no).0
    }

    /// `timestamp`, and its instant (`instant`).
    pub(super) fn timestamp_at(&mut self, tod: NaiveTime, no: u64) -> (Ts, i64) {
        if let (Some(date), Some(off)) = (self.date, self.offset)
            && self.last_tod == Some(tod_nanos(tod))
        {
            // The clock's own time again (lines of one call): no step
            // back, no midnight; the date stays (`roll` would say so).
            if let Some(a) = self.ahead.as_mut() {
                a.first_tod.get_or_insert(tod_nanos(tod));
            }
            return self.stamps.get(date, tod, off);
        }
        let last_day = self.at_last_day();
        if self.implausible_jump(tod_nanos(tod))
            && let (Some(last), Some(seg)) = (self.last_tod, self.seg.as_mut())
        {
            let hms = |n: i64| {
                let s = n / 1_000_000_000;
                format!("{:02}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
            };
            let why = if last_day {
                "a new day after 9999-12-31".to_string()
            } else {
                "more than an hour, and not across midnight (that needs the line before at or after 20:00 and this one before 04:00)".to_string()
            };
            seg.info.problem(
                ProblemCode::ClockJump,
                Some(no),
                Severity::Warning,
                0,
                format!(
                    "time of day steps back from {} to {}: {why}: the date is kept, and these events come before the earlier ones in the timeline",
                    hms(last),
                    hms(tod_nanos(tod))
                ),
            );
        }
        let date = self.roll(tod);
        let off = self.offset.expect("offset settled");
        self.stamps.get(date, tod, off)
    }

    /// The date of a line with this time of day, rolling the day over at
    /// midnight. Calling it twice for one line changes nothing.
    pub(super) fn roll(&mut self, tod: NaiveTime) -> NaiveDate {
        self.roll_nanos(tod_nanos(tod))
    }

    /// Whether a line with this time of day steps back more than an hour
    /// where the day cannot have ended: midnight is taken only from a line
    /// at or after 20:00 to one before 04:00 (a gap of at most 8 hours;
    /// traces are not written across longer silences, and a step back of
    /// hours in mid-day is a clock set back or lines from elsewhere, not a
    /// new day). Such a line keeps the date; the fast paths leave it to the
    /// full way, which reports it (`timestamp`).
    pub(super) fn implausible_jump(&self, tod: i64) -> bool {
        self.last_tod.is_some_and(|last| {
            (last - tod) / 1_000_000_000 > ROLLOVER_SECS
                && (!midnight_between(last, tod) || self.at_last_day())
        })
    }

    /// Dates end with 9999-12-31: no day follows it (a file whose times
    /// of day swing across midnight millions of times would otherwise be
    /// dated in year 12426).
    fn at_last_day(&self) -> bool {
        self.date.is_some_and(|d| d >= LAST_DAY)
    }

    /// `roll` for a time of day in nanoseconds since midnight.
    pub(super) fn roll_nanos(&mut self, tod: i64) -> NaiveDate {
        if let Some(a) = self.ahead.as_mut() {
            a.first_tod.get_or_insert(tod);
        }
        let mut date = self.date.expect("date settled");
        if let Some(last) = self.last_tod {
            // Whole seconds back, as a duration's seconds (towards zero).
            let back = (last - tod) / 1_000_000_000;
            if back > ROLLOVER_SECS && (!midnight_between(last, tod) || date >= LAST_DAY) {
                // Back in the day, not across midnight: the date is kept.
                self.last_tod = Some(tod);
            } else if back > ROLLOVER_SECS {
                // Forward across midnight.
                date = date.succ_opt().unwrap_or(date);
                self.date = Some(date);
                self.last_tod = Some(tod);
            } else if back < -(86_400 - ROLLOVER_SECS) {
                // A line from just before midnight after the day rolled
                // (threads interleave): it belongs to the previous day.
                date = date.pred_opt().unwrap_or(date);
            } else {
                self.last_tod = Some(tod);
            }
        } else {
            self.last_tod = Some(tod);
        }
        date
    }
}
