//! What is known about one input file: its `inventory` row.

use crate::event::{Format, Ts};
use crate::problem::{MAX_PROBLEMS_KEPT, Problem, ProblemCode, Severity};
use chrono::FixedOffset;
use serde::Serialize;

/// What is known about one input file: one `inventory` row.
#[derive(Debug, Clone, Serialize)]
pub struct FileInfo {
    pub path: String,
    pub format: Format,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mq_version: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub platform: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub host: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pid: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub process: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub qmgr: Option<String>,
    /// The UTC offset used for this file's timestamps.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub utc_offset: Option<String>,
    /// Where the offset came from: `header`, `data`, `--tz`, `assumed-utc`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub utc_offset_source: Option<String>,
    #[serde(serialize_with = "ser_opt_ts", skip_serializing_if = "Option::is_none")]
    pub first: Option<Ts>,
    #[serde(serialize_with = "ser_opt_ts", skip_serializing_if = "Option::is_none")]
    pub last: Option<Ts>,
    pub bytes: u64,
    pub lines: u64,
    pub events: u64,
    /// The character set the file was read in (text inputs only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub encoding: Option<crate::encoding::EncodingNote>,
    pub problems: Vec<Problem>,
    pub problem_count: u64,
    /// What the reader decided or estimated that is worth knowing but is
    /// not wrong with the input (an estimated clock offset).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// Events of records that state no time (`event::undated`), counted
    /// in `events` but not in `first`/`last`.
    #[serde(skip)]
    pub undated: u64,
    /// Lines that could not be used, over all problems.
    #[serde(skip)]
    pub lines_skipped: u64,
    /// The most severe problem seen.
    #[serde(skip)]
    pub worst: Option<Severity>,
    /// The configuration the file holds (qm.ini, an MQSC dump): shown by
    /// `mqdiag config`, cited by findings.
    #[serde(skip)]
    pub config: Option<std::sync::Arc<crate::config::ConfigFile>>,
}

fn ser_opt_ts<S: serde::Serializer>(v: &Option<Ts>, s: S) -> Result<S::Ok, S::Error> {
    match v {
        Some(t) => s.serialize_str(&crate::timefmt::rfc3339(t)),
        None => s.serialize_none(),
    }
}

impl FileInfo {
    pub fn new(path: &str, format: Format, bytes: u64) -> FileInfo {
        FileInfo {
            path: path.to_string(),
            format,
            variant: None,
            mq_version: None,
            platform: None,
            host: None,
            pid: None,
            process: None,
            qmgr: None,
            utc_offset: None,
            utc_offset_source: None,
            first: None,
            last: None,
            bytes,
            lines: 0,
            events: 0,
            encoding: None,
            problems: Vec::new(),
            problem_count: 0,
            notes: Vec::new(),
            undated: 0,
            lines_skipped: 0,
            worst: None,
            config: None,
        }
    }

    /// Record a problem; details are kept for the first few only.
    /// The `line-too-long` warning of a line `full_len` bytes long of
    /// which the first `kept` were read (the readers' shared wording).
    pub fn line_cut(&mut self, line: u64, full_len: usize, kept: usize) {
        self.problem(
            ProblemCode::LineTooLong,
            Some(line),
            Severity::Warning,
            0,
            format!("line of {full_len} bytes cut to the first {kept} bytes"),
        );
    }

    pub fn problem(
        &mut self,
        code: ProblemCode,
        line: Option<u64>,
        severity: Severity,
        lines_skipped: u64,
        message: impl Into<String>,
    ) {
        if code.is_reading_note(severity) {
            let m = message.into();
            self.notes.push(match line {
                Some(l) if !m.contains(&format!("line {l}")) => format!("line {l}: {m}"),
                _ => m,
            });
            return;
        }
        self.problem_count += 1;
        self.lines_skipped += lines_skipped;
        self.worst = self.worst.max(Some(severity));
        if self.problems.len() < MAX_PROBLEMS_KEPT {
            self.problems.push(Problem {
                line,
                code,
                message: message.into(),
                severity,
                lines_skipped,
            });
        }
    }

    /// Record a note (not a problem).
    pub fn note(&mut self, message: impl Into<String>) {
        self.notes.push(message.into());
    }

    /// Account for one emitted event.
    pub fn saw_event(&mut self, ts: &Ts) {
        self.events += 1;
        // The instant of the latest event again (records in time order,
        // several to a stamp): it is in range, and nothing else changes.
        if self.last.is_some_and(|l| l == *ts) {
            return;
        }
        // The merge leaves out what it cannot order (before 1970, after
        // 2262): it does not widen the file's time range either. Nor does
        // a record without a time (it has no nanosecond count either).
        if ts.timestamp_nanos_opt().is_none_or(|n| n < 0) {
            if crate::event::is_undated(ts) {
                self.undated += 1;
            }
            return;
        }
        if self.first.is_none_or(|f| *ts < f) {
            self.first = Some(*ts);
        }
        if self.last.is_none_or(|l| *ts > l) {
            self.last = Some(*ts);
        }
    }

    /// `saw_event` for a caller that has the event's nanosecond count
    /// already (`nanos`: `ts.timestamp_nanos_opt()`, `i64::MAX` for none):
    /// a count in range is not worked out again.
    pub fn saw_event_at(&mut self, ts: &Ts, nanos: i64) {
        debug_assert!(nanos == i64::MAX || ts.timestamp_nanos_opt() == Some(nanos));
        // `i64::MAX` is also what an instant without a count is given, and
        // one before 1970 is left out: `saw_event` judges both.
        if !(0..i64::MAX).contains(&nanos) {
            return self.saw_event(ts);
        }
        self.events += 1;
        if self.last.is_some_and(|l| l == *ts) {
            return;
        }
        if self.first.is_none_or(|f| *ts < f) {
            self.first = Some(*ts);
        }
        if self.last.is_none_or(|l| *ts > l) {
            self.last = Some(*ts);
        }
    }

    pub fn set_offset(&mut self, off: FixedOffset, source: &str) {
        self.utc_offset = Some(crate::timefmt::offset_str(off));
        self.utc_offset_source = Some(source.to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::{Format, undated};
    use chrono::{DateTime, TimeZone};

    /// Given the nanosecond count, the file's count, first and last are
    /// those `saw_event` keeps: times before 1970 and at the edge of what
    /// has a count, the undated marker, one instant at two offsets.
    #[test]
    fn saw_event_at_keeps_what_saw_event_keeps() {
        let east = FixedOffset::east_opt(3600).unwrap();
        let west = FixedOffset::west_opt(5 * 3600).unwrap();
        let edge = DateTime::from_timestamp_nanos(i64::MAX).with_timezone(&east);
        let early = east.with_ymd_and_hms(1969, 12, 31, 23, 0, 0).unwrap();
        let mut times = vec![
            edge,
            early,
            undated(),
            edge - chrono::Duration::nanoseconds(1),
        ];
        let mut rng = crate::testrng::Rng::new(3);
        for _ in 0..2000 {
            // 2024, within a few hours; some instants repeat.
            let n = 1_710_000_000_000_000_000 + (rng.next() % 8_000) as i64 * 1_000_000_000;
            let off = if rng.below(2) == 0 { east } else { west };
            times.push(DateTime::from_timestamp_nanos(n).with_timezone(&off));
        }
        let mut plain = FileInfo::new("f", Format::UNKNOWN, 0);
        let mut given = FileInfo::new("f", Format::UNKNOWN, 0);
        for t in &times {
            plain.saw_event(t);
            given.saw_event_at(t, t.timestamp_nanos_opt().unwrap_or(i64::MAX));
            assert_eq!(
                (given.events, given.undated, given.first, given.last),
                (plain.events, plain.undated, plain.first, plain.last)
            );
            // The same instant at the other offset keeps the first seen.
            let offs = |i: &FileInfo| (i.first.map(|f| *f.offset()), i.last.map(|l| *l.offset()));
            assert_eq!(offs(&given), offs(&plain));
        }
        assert_eq!(plain.undated, 1);
    }
}
