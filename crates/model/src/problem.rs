//! Problems with inputs: how bad (`Severity`), what kind (`ProblemCode`,
//! the stable names scripts key on) and where (`Problem`).

use serde::Serialize;

/// How bad an input problem is (the `unreadable-input` finding's severity).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Info,
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// The kind of an input problem: a stable name that scripts and the
/// `unreadable-input` rule key on (messages are for people and may change).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ProblemCode {
    /// The file could not be opened, listed or read.
    UnreadableFile,
    /// No reader knows the file's format.
    UnknownFormat,
    /// An archive member refused or cut (too deep, too large, encrypted...).
    ArchiveMember,
    EmptyFile,
    /// The file has its format's shape but no record of it.
    NoRecords,
    /// A binary trace that `dspmqtrc` has not formatted.
    BinaryTrace,
    /// A binary GSKit trace (no formatter exists outside IBM).
    BinaryGskitTrace,
    /// A line longer than the reader keeps: cut, or skipped.
    LineTooLong,
    /// A record longer than the reader keeps: the rest of its text dropped.
    RecordTooLong,
    NulBytes,
    /// Control characters where text was expected.
    BinaryData,
    /// A line that is not a record of the file's format.
    BadLine,
    /// An attribute that cannot be read as `Name(value)`.
    BadAttribute,
    /// A time or date that cannot be read.
    BadTime,
    /// A record or message without a time.
    MissingTime,
    /// A record cut short: what it lacks could not be used.
    CutRecord,
    /// The file ends inside a record or header (cut, or still being written).
    CutFile,
    /// Two writers' records interleaved in the file.
    InterleavedRecords,
    /// A record without its separator line.
    MissingSeparator,
    /// Day and month cannot be told apart in the file's dates.
    UndecidableDateOrder,
    /// Writers disagree on the date order.
    MixedDateOrder,
    /// The UTC offset changes within the file.
    OffsetChange,
    /// The file states no date: it was taken from elsewhere.
    NoDate,
    /// The file states no UTC offset and no `--tz` was given.
    AssumedUtc,
    /// The trace counter jumped or went back: records were lost.
    CounterGap,
    /// Records go back in time by more than the reorder window.
    OutOfOrder,
    /// A header row repeated mid-file (files joined).
    RepeatedHeader,
    /// An SMF header or structure not as expected.
    SmfLayout,
    /// The same SMF row written twice.
    DuplicateRow,
    /// A CSV cell that had to be repaired.
    MalformedCell,
    /// Text not in the expected encoding.
    Encoding,
    /// The SMF clock families disagree or cannot be compared.
    ClockOffset,
    /// The same content as another input: read once, under the other name.
    DuplicateFile,
    /// The time of day steps back by more than an hour where no midnight
    /// can be: the date is kept.
    ClockJump,
    /// A reader failed internally (a bug, not the input's fault): the rest
    /// of the file was not read, and the run exits 2.
    ReaderPanic,
    /// A symbolic link leading out of the paths named: not followed.
    LinkNotFollowed,
}

impl ProblemCode {
    /// Whether a problem of this code and severity is a reading note: the
    /// file was read, and this says how (an offset assumed, a copy read
    /// once, a last record without its closing line). Notes go to the
    /// reports' "Reading notes", not to findings.
    pub(crate) fn is_reading_note(self, severity: Severity) -> bool {
        match self {
            ProblemCode::AssumedUtc | ProblemCode::DuplicateFile => true,
            ProblemCode::CutFile => severity == Severity::Info,
            _ => false,
        }
    }

    /// Every code, for the tests.
    #[cfg(test)]
    pub(crate) const ALL: &'static [ProblemCode] = &[
        ProblemCode::UnreadableFile,
        ProblemCode::UnknownFormat,
        ProblemCode::ArchiveMember,
        ProblemCode::EmptyFile,
        ProblemCode::NoRecords,
        ProblemCode::BinaryTrace,
        ProblemCode::BinaryGskitTrace,
        ProblemCode::LineTooLong,
        ProblemCode::RecordTooLong,
        ProblemCode::NulBytes,
        ProblemCode::BinaryData,
        ProblemCode::BadLine,
        ProblemCode::BadAttribute,
        ProblemCode::BadTime,
        ProblemCode::MissingTime,
        ProblemCode::CutRecord,
        ProblemCode::CutFile,
        ProblemCode::InterleavedRecords,
        ProblemCode::MissingSeparator,
        ProblemCode::UndecidableDateOrder,
        ProblemCode::MixedDateOrder,
        ProblemCode::OffsetChange,
        ProblemCode::NoDate,
        ProblemCode::AssumedUtc,
        ProblemCode::CounterGap,
        ProblemCode::OutOfOrder,
        ProblemCode::RepeatedHeader,
        ProblemCode::SmfLayout,
        ProblemCode::DuplicateRow,
        ProblemCode::MalformedCell,
        ProblemCode::Encoding,
        ProblemCode::ClockOffset,
        ProblemCode::DuplicateFile,
        ProblemCode::ClockJump,
        ProblemCode::ReaderPanic,
        ProblemCode::LinkNotFollowed,
    ];

    /// The stable kebab-case name, as in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            ProblemCode::UnreadableFile => "unreadable-file",
            ProblemCode::UnknownFormat => "unknown-format",
            ProblemCode::ArchiveMember => "archive-member",
            ProblemCode::EmptyFile => "empty-file",
            ProblemCode::NoRecords => "no-records",
            ProblemCode::BinaryTrace => "binary-trace",
            ProblemCode::BinaryGskitTrace => "binary-gskit-trace",
            ProblemCode::LineTooLong => "line-too-long",
            ProblemCode::RecordTooLong => "record-too-long",
            ProblemCode::NulBytes => "nul-bytes",
            ProblemCode::BinaryData => "binary-data",
            ProblemCode::BadLine => "bad-line",
            ProblemCode::BadAttribute => "bad-attribute",
            ProblemCode::BadTime => "bad-time",
            ProblemCode::MissingTime => "missing-time",
            ProblemCode::CutRecord => "cut-record",
            ProblemCode::CutFile => "cut-file",
            ProblemCode::InterleavedRecords => "interleaved-records",
            ProblemCode::MissingSeparator => "missing-separator",
            ProblemCode::UndecidableDateOrder => "undecidable-date-order",
            ProblemCode::MixedDateOrder => "mixed-date-order",
            ProblemCode::OffsetChange => "offset-change",
            ProblemCode::NoDate => "no-date",
            ProblemCode::AssumedUtc => "assumed-utc",
            ProblemCode::CounterGap => "counter-gap",
            ProblemCode::OutOfOrder => "out-of-order",
            ProblemCode::RepeatedHeader => "repeated-header",
            ProblemCode::SmfLayout => "smf-layout",
            ProblemCode::DuplicateRow => "duplicate-row",
            ProblemCode::MalformedCell => "malformed-cell",
            ProblemCode::Encoding => "encoding",
            ProblemCode::ClockOffset => "clock-offset",
            ProblemCode::DuplicateFile => "duplicate-file",
            ProblemCode::ClockJump => "clock-jump",
            ProblemCode::ReaderPanic => "reader-panic",
            ProblemCode::LinkNotFollowed => "link-not-followed",
        }
    }
}

impl Serialize for ProblemCode {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// A located problem with one input.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Problem {
    /// 1-based line, absent when the problem concerns the whole file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u64>,
    pub code: ProblemCode,
    pub severity: Severity,
    pub message: String,
    /// Lines that could not be used because of this problem.
    #[serde(skip)]
    pub lines_skipped: u64,
}

/// How many problems a file keeps in detail; the rest are only counted.
pub const MAX_PROBLEMS_KEPT: usize = 50;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::Format;
    use crate::fileinfo::FileInfo;
    use std::collections::BTreeSet;

    #[test]
    fn problem_codes_have_distinct_kebab_case_names() {
        let mut seen = BTreeSet::new();
        for c in ProblemCode::ALL {
            let n = c.as_str();
            assert!(seen.insert(n), "two codes are named {n}");
            assert!(
                !n.is_empty()
                    && !n.starts_with('-')
                    && !n.ends_with('-')
                    && !n.contains("--")
                    && n.bytes()
                        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'),
                "{n} is not kebab-case"
            );
            assert_eq!(serde_json::to_value(c).unwrap(), serde_json::json!(n));
        }
    }

    #[test]
    fn every_code_is_listed() {
        // A new variant makes this match fail to compile until it is added
        // here, and then the count reminds to add it to ALL.
        let count = |c: ProblemCode| match c {
            ProblemCode::UnreadableFile
            | ProblemCode::UnknownFormat
            | ProblemCode::ArchiveMember
            | ProblemCode::EmptyFile
            | ProblemCode::NoRecords
            | ProblemCode::BinaryTrace
            | ProblemCode::BinaryGskitTrace
            | ProblemCode::LineTooLong
            | ProblemCode::RecordTooLong
            | ProblemCode::NulBytes
            | ProblemCode::BinaryData
            | ProblemCode::BadLine
            | ProblemCode::BadAttribute
            | ProblemCode::BadTime
            | ProblemCode::MissingTime
            | ProblemCode::CutRecord
            | ProblemCode::CutFile
            | ProblemCode::InterleavedRecords
            | ProblemCode::MissingSeparator
            | ProblemCode::UndecidableDateOrder
            | ProblemCode::MixedDateOrder
            | ProblemCode::OffsetChange
            | ProblemCode::NoDate
            | ProblemCode::AssumedUtc
            | ProblemCode::CounterGap
            | ProblemCode::OutOfOrder
            | ProblemCode::RepeatedHeader
            | ProblemCode::SmfLayout
            | ProblemCode::DuplicateRow
            | ProblemCode::MalformedCell
            | ProblemCode::Encoding
            | ProblemCode::ClockOffset
            | ProblemCode::DuplicateFile
            | ProblemCode::ClockJump
            | ProblemCode::ReaderPanic
            | ProblemCode::LinkNotFollowed => 1,
        };
        assert_eq!(
            ProblemCode::ALL.iter().map(|c| count(*c)).sum::<usize>(),
            36
        );
    }

    #[test]
    fn problems_serialise_their_code() {
        let mut fi = FileInfo::new("x", Format::UNKNOWN, 0);
        fi.problem(ProblemCode::CutRecord, Some(3), Severity::Warning, 1, "cut");
        let v = serde_json::to_value(&fi.problems[0]).unwrap();
        assert_eq!(
            v,
            serde_json::json!({"line": 3, "code": "cut-record", "severity": "warning", "message": "cut"})
        );
    }
}
