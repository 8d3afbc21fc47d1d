//! The interface between the readers and the rest: a `Source` yields events
//! in time order and, when done, the per-file facts `inventory` shows.

use crate::event::{Event, Format, Ts};
use chrono::{FixedOffset, NaiveDate};
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
}

impl ProblemCode {
    /// Whether a problem of this code and severity is a reading note: the
    /// file was read, and this says how (an offset assumed, a copy read
    /// once, a last record without its closing line). Notes go to the
    /// reports' "Reading notes", not to findings.
    pub fn is_reading_note(self, severity: Severity) -> bool {
        match self {
            ProblemCode::AssumedUtc | ProblemCode::DuplicateFile => true,
            ProblemCode::CutFile => severity == Severity::Info,
            _ => false,
        }
    }

    /// Every code, for tests and documentation.
    pub const ALL: &'static [ProblemCode] = &[
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
    /// Lines that could not be used, over all problems.
    #[serde(skip)]
    pub lines_skipped: u64,
    /// The most severe problem seen.
    #[serde(skip)]
    pub worst: Option<Severity>,
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
            lines_skipped: 0,
            worst: None,
        }
    }

    /// Record a problem; details are kept for the first few only.
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
        // The merge leaves out what it cannot order (before 1970, after
        // 2262): it does not widen the file's time range either.
        if ts.timestamp_nanos_opt().is_none_or(|n| n < 0) {
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

/// What the consumer will look at. Readers may skip building events for
/// anything else: `analyze` needs only a small share of trace lines, and
/// the cheapest event is the one never made. Headers and log records are
/// always kept.
#[derive(Debug, Clone)]
pub struct Interest {
    functions: std::collections::HashSet<String, rustc_hash::FxBuildHasher>,
    function_prefixes: Vec<String>,
    text: Option<regex::Regex>,
    /// Any of the names, prefixes or keywords anywhere in a raw line: the
    /// byte check that lets readers skip a line without parsing it.
    any: Option<Candidates>,
    /// SMF CSV columns read by name. Rows keep only these of their cells
    /// (and every attribute the reader derives): a WQ row has ~300 cells,
    /// the passes read a dozen names.
    smf_columns: std::collections::HashSet<String, rustc_hash::FxBuildHasher>,
    /// Whether SMF rows need more than their times and line numbers.
    smf_detail: bool,
}

impl Interest {
    /// Interest in no trace line at all (headers and log records are still
    /// read): `inventory` needs only each file's counts, times and problems.
    pub fn nothing() -> Self {
        Interest {
            smf_detail: false,
            ..Interest::new(&[], &[], &[])
        }
    }
}

impl Interest {
    /// `functions`: exact function names whose entries and exits matter;
    /// `function_prefixes`: name prefixes (`gsk_`); `text_keywords`: literal
    /// substrings that make a text line matter (`QTime(`).
    pub fn new(functions: &[&str], function_prefixes: &[&str], text_keywords: &[&str]) -> Self {
        let text = if text_keywords.is_empty() {
            None
        } else {
            let alts: Vec<String> = text_keywords.iter().map(|k| regex::escape(k)).collect();
            // Literal alternations compile to a fast multi-substring search.
            regex::Regex::new(&alts.join("|")).ok()
        };
        let all: Vec<&str> = functions
            .iter()
            .chain(function_prefixes)
            .chain(text_keywords)
            .copied()
            .filter(|k| !k.is_empty())
            .collect();
        // A line that contains a pattern contains every pattern inside it
        // (`zstMQGET` contains `MQGET`): keep only the innermost, so that
        // the search stays few-pattern SIMD (Teddy) instead of falling back
        // to an automaton several times slower when names multiply.
        let all: Vec<&str> = all
            .iter()
            .enumerate()
            .filter(|(i, k)| {
                !all.iter()
                    .enumerate()
                    .any(|(j, o)| j != *i && k.contains(o) && (o.len() < k.len() || j < *i))
            })
            .map(|(_, k)| *k)
            .collect();
        let any = if all.is_empty() {
            None
        } else {
            Candidates::new(&all)
        };
        Interest {
            any,
            functions: functions.iter().map(|s| s.to_string()).collect(),
            function_prefixes: function_prefixes.iter().map(|s| s.to_string()).collect(),
            text,
            smf_columns: Default::default(),
            smf_detail: true,
        }
    }

    /// Also keep these SMF columns (or attributes of that name) on rows.
    pub fn with_smf_columns<'a>(mut self, names: impl IntoIterator<Item = &'a str>) -> Self {
        self.smf_columns
            .extend(names.into_iter().map(str::to_string));
        self
    }

    /// Whether an SMF row must carry the cell of this column.
    pub fn smf_column(&self, name: &str) -> bool {
        self.smf_columns.contains(name)
    }

    /// False when SMF rows are only counted and timed (no text, no
    /// attributes).
    pub fn smf_detail(&self) -> bool {
        self.smf_detail
    }

    pub fn function(&self, f: &str) -> bool {
        self.functions.contains(f)
            || self
                .function_prefixes
                .iter()
                .any(|p| f.starts_with(p.as_str()))
    }

    /// Could this raw line be of interest? False when it names none of the
    /// functions, prefixes or keywords (always false for `nothing`).
    pub fn candidate(&self, line: &[u8]) -> bool {
        self.any.as_ref().is_some_and(|c| c.is_match(line))
    }

    /// Where in a block of lines the first candidate begins, if any.
    pub fn first_candidate(&self, block: &[u8]) -> Option<usize> {
        self.any.as_ref().and_then(|c| c.find(block))
    }

    pub fn text(&self, t: &str) -> bool {
        self.text.as_ref().is_some_and(|r| r.is_match(t))
    }
}

/// A multi-substring search: SIMD (Teddy) when the patterns allow it, an
/// Aho-Corasick automaton otherwise. Neither keeps a shared match cache (as
/// `regex` does), so many threads can use one cheaply.
#[derive(Debug, Clone)]
enum Candidates {
    Packed(aho_corasick::packed::Searcher),
    Automaton(aho_corasick::AhoCorasick),
}

impl Candidates {
    fn new(patterns: &[&str]) -> Option<Candidates> {
        aho_corasick::packed::Searcher::new(patterns.iter())
            .map(Candidates::Packed)
            .or_else(|| {
                aho_corasick::AhoCorasick::new(patterns)
                    .ok()
                    .map(Candidates::Automaton)
            })
    }

    fn is_match(&self, hay: &[u8]) -> bool {
        self.find(hay).is_some()
    }

    fn find(&self, hay: &[u8]) -> Option<usize> {
        match self {
            Candidates::Packed(s) => s.find(hay).map(|m| m.start()),
            Candidates::Automaton(a) => a.find(hay).map(|m| m.start()),
        }
    }
}

/// Options every reader may need.
#[derive(Debug, Clone, Default)]
pub struct ReadOptions {
    /// What the consumer needs; `None`: every event.
    pub interest: Option<std::sync::Arc<Interest>>,
    /// `--tz`: the offset for files that state none.
    pub tz: Option<FixedOffset>,
    /// `--date`: the date for trace files that state none (formatted with
    /// `dspmqtrc -h`). Without it, the file's modification date is used.
    pub date: Option<NaiveDate>,
    /// Read buffer of each open trace file, in bytes (0: the line reader's
    /// default). `open_all` sets it from the number of files.
    pub read_buffer: usize,
    /// Bytes of rows each SMF CSV file may hold back to put them in time
    /// order (0: the reader's default). `open_all` shares one budget
    /// among the SMF files of a run.
    pub hold_budget: usize,
    /// Worker threads of the run (`-j`; 0 counts as 1).
    pub jobs: usize,
    /// How one large trace file is spread over more cores (`open_all`
    /// sets it when there are fewer large files than workers).
    pub parallel: Parallel,
    /// `--encoding`: the character set of every text input (`None`: each
    /// file's is decided from its first bytes).
    pub encoding: Option<crate::encoding::TextEncoding>,
    /// `--smf-stck-tz`: the zone `mqsmfcsv` rendered STCK columns in
    /// (`None`: UTC, as with `-g yes` or on a UTC host).
    pub smf_stck_tz: Option<FixedOffset>,
    /// What the SMF files of the run say about their LPARs' clocks, learned
    /// before any row is read (`open_all` sets it).
    pub smf_clocks: Option<std::sync::Arc<LparClocks>>,
    /// The UTC offsets the text error logs of a run state (`Time()` against
    /// the header's local time), for the JSON error logs beside them, whose
    /// `ibm_datetime` is UTC only (`open_all` sets it).
    pub errlog_clocks: Option<std::sync::Arc<ErrlogClocks>>,
}

/// Runs of one UTC offset in the text error logs of a directory or host:
/// `(first, last, offset)`, UTC seconds and offset seconds, by `first`.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct OffsetRuns {
    pub runs: Vec<(i64, i64, i32)>,
    /// The text log that stated them (the first, by path).
    pub path: String,
}

impl OffsetRuns {
    /// The offset in force at `utc`: the run holding it, else the nearer
    /// of the runs before and after (a change between two runs happened
    /// somewhere in the gap; the nearer side is the better guess).
    pub fn at(&self, utc: i64) -> Option<i32> {
        let i = self.runs.partition_point(|r| r.0 <= utc);
        let before = i.checked_sub(1).map(|j| self.runs[j]);
        let after = self.runs.get(i).copied();
        match (before, after) {
            (Some(b), _) if utc <= b.1 => Some(b.2),
            (Some(b), Some(a)) => Some(if utc - b.1 <= a.0 - utc { b.2 } else { a.2 }),
            (Some(b), None) => Some(b.2),
            (None, Some(a)) => Some(a.2),
            (None, None) => None,
        }
    }
}

/// The offsets the text error logs of a run state, per directory (the JSON
/// log beside a text log is written by the same queue manager at the same
/// moments) and per writing host (`Host()`).
#[derive(Debug, Default, Clone)]
pub struct ErrlogClocks {
    pub by_dir: std::collections::BTreeMap<String, OffsetRuns>,
    pub by_host: std::collections::BTreeMap<String, OffsetRuns>,
}

impl ErrlogClocks {
    /// The offset for a record at `utc` of a JSON log in `dir` written by
    /// `host`, and the text log it comes from.
    pub fn at(&self, dir: &str, host: Option<&str>, utc: i64) -> Option<(i32, &str)> {
        let runs = self
            .by_dir
            .get(dir)
            .or_else(|| host.and_then(|h| self.by_host.get(&h.to_ascii_lowercase())))?;
        Some((runs.at(utc)?, runs.path.as_str()))
    }
}

/// The directory part of a display path (`case.zip/QM1/errors`), the key
/// the text and JSON logs of one queue manager share.
pub fn display_dir(display: &str) -> &str {
    display.rsplit_once(['/', '\\']).map_or("", |(d, _)| d)
}

/// One queue manager's clock evidence from the SMF files of a run: how far
/// STCK columns read from the LPAR-local `Date`/`Time` (seconds, STCK minus
/// local), from how many agreeing rows of which file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LparClock {
    pub stck_minus_local: i32,
    pub rows: u32,
    pub path: String,
}

/// The clock evidence of a run per (LPAR, queue manager), and for each LPAR
/// the file that says once that its zone is unknown.
#[derive(Debug, Default, Clone)]
pub struct LparClocks {
    pub by_qmgr: std::collections::BTreeMap<(String, String), LparClock>,
    /// LPAR → the first file (by path) expected to find its zone unknown.
    /// A file that finds it unknown against this expectation says so
    /// itself.
    pub first_file: std::collections::BTreeMap<String, String>,
}

impl LparClocks {
    /// The evidence for a queue manager, else for its LPAR when every
    /// queue manager of the LPAR seen agrees (they share the LPAR's clock).
    pub fn get(&self, lpar: &str, qmgr: &str) -> Option<&LparClock> {
        if let Some(c) = self.by_qmgr.get(&(lpar.to_string(), qmgr.to_string())) {
            return Some(c);
        }
        let mut same = self
            .by_qmgr
            .range((lpar.to_string(), String::new())..)
            .take_while(|((l, _), _)| l == lpar)
            .map(|(_, c)| c);
        let first = same.next()?;
        same.all(|c| c.stck_minus_local == first.stck_minus_local)
            .then_some(first)
    }
}

/// Helper threads for the lines of one large trace file, and the size of
/// the blocks they take. The output is the same with or without them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Parallel {
    /// Threads rendering blocks ahead (0: none, the file is read alone).
    pub helpers: usize,
    /// Bytes of whole lines per block.
    pub block: usize,
    /// Files smaller than this are read alone.
    pub min_bytes: u64,
}

impl Default for Parallel {
    fn default() -> Self {
        Parallel {
            helpers: 0,
            // Large enough that a block's set-up is a small share of its
            // work, small enough that blocks in flight stay a few MB.
            block: 1 << 20,
            min_bytes: 64 << 20,
        }
    }
}

impl ReadOptions {
    /// The offset for a file that states none, and where it came from;
    /// records an info problem when UTC had to be assumed.
    pub fn fallback_offset(&self, info: &mut FileInfo) -> FixedOffset {
        match self.tz {
            Some(tz) => {
                info.set_offset(tz, "--tz");
                tz
            }
            None => {
                let utc = FixedOffset::east_opt(0).expect("zero offset");
                info.set_offset(utc, "assumed-utc");
                info.problem(
                    ProblemCode::AssumedUtc,
                    None,
                    Severity::Info,
                    0,
                    "no UTC offset in the file and no --tz given: UTC assumed",
                );
                utc
            }
        }
    }
}

/// A stream of events from one input (or one group of inputs read as one,
/// such as a `.TRS` wrap file and its `.FMT`, or rotated error logs).
///
/// Events come in non-decreasing time order; the reorder buffer in
/// `timeline` takes care of small local disorder.
pub trait Source: Send {
    fn next_event(&mut self) -> Option<Event>;
    /// The facts about each file read, available once `next_event` returned
    /// `None` (or earlier, partially).
    fn finish(self: Box<Self>) -> Vec<FileInfo>;
    /// The next wanted `timeline` rows, appended to `out`: up to `n`,
    /// stopping once `out` holds `limit` bytes; `row` is told of each with
    /// where it lies in `out`. Returns false when the source is done. A
    /// reader that can render rows straight from its input overrides this;
    /// the rest build each event and render it.
    fn next_rows(
        &mut self,
        sink: &mut crate::sink::RowSink,
        out: &mut Vec<u8>,
        n: usize,
        limit: usize,
        row: &mut dyn FnMut(crate::sink::RowMeta, usize, usize),
    ) -> bool {
        rows_of_events(self, sink, out, n, limit, row)
    }
    /// The file being read, for a reader that renders its own rows.
    fn current_origin(&self) -> Option<std::sync::Arc<crate::event::Origin>> {
        None
    }
}

/// The shape most readers share: their files are read one after another,
/// each `step` reads a little and queues events. Implementing this gives
/// the `Source` (the loop is written once, here).
pub trait FileByFile: Send {
    /// The next queued event, if any.
    fn queued(&mut self) -> Option<Event>;
    /// Whether a file is open.
    fn in_file(&self) -> bool;
    /// Open the next file; false when there is none.
    fn open_next(&mut self) -> bool;
    /// Read some of the open file; false at its end.
    fn step(&mut self) -> bool;
    /// Close the open file, keeping its facts.
    fn end_file(&mut self);
    /// The facts of every file read.
    fn take_done(&mut self) -> Vec<FileInfo>;
}

/// `FileByFile` for a reader whose state has the usual fields (`out`: the
/// queued events, `run`: the open file, `done`: the finished rows) and
/// inherent `open_next`, `step` and `end_file` methods.
#[macro_export]
macro_rules! file_by_file {
    ($t:ty) => {
        impl $crate::source::FileByFile for $t {
            fn queued(&mut self) -> Option<$crate::event::Event> {
                self.out.pop_front()
            }
            fn in_file(&self) -> bool {
                self.run.is_some()
            }
            fn open_next(&mut self) -> bool {
                <$t>::open_next(self)
            }
            fn step(&mut self) -> bool {
                <$t>::step(self)
            }
            fn end_file(&mut self) {
                <$t>::end_file(self)
            }
            fn take_done(&mut self) -> Vec<$crate::source::FileInfo> {
                std::mem::take(&mut self.done)
            }
        }
    };
}

impl<T: FileByFile> Source for T {
    fn next_event(&mut self) -> Option<Event> {
        loop {
            if let Some(e) = self.queued() {
                return Some(e);
            }
            if !self.in_file() {
                if !self.open_next() {
                    return None;
                }
                continue;
            }
            if !self.step() {
                self.end_file();
            }
        }
    }

    fn finish(mut self: Box<Self>) -> Vec<FileInfo> {
        if self.in_file() {
            self.end_file();
        }
        self.take_done()
    }
}
/// The rows of the source's next wanted events: what `Source::next_rows`
/// does unless a reader renders rows itself. Up to `n` rows, stopping once
/// `out` holds `limit` bytes; `row` is told of each with where it lies in
/// `out`. Returns false when the source is done.
pub fn rows_of_events<S: Source + ?Sized>(
    src: &mut S,
    sink: &mut crate::sink::RowSink,
    out: &mut Vec<u8>,
    n: usize,
    limit: usize,
    row: &mut dyn FnMut(crate::sink::RowMeta, usize, usize),
) -> bool {
    for k in 0..n {
        if k > 0 && out.len() >= limit {
            return true;
        }
        let Some(e) = (loop {
            match src.next_event() {
                Some(e) if !sink.spec.wants(&e) => continue,
                other => break other,
            }
        }) else {
            return false;
        };
        let start = out.len();
        let m = sink.event_row(e, out);
        row(m, start, out.len());
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
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
            | ProblemCode::ClockJump => 1,
        };
        assert_eq!(
            ProblemCode::ALL.iter().map(|c| count(*c)).sum::<usize>(),
            34
        );
    }

    #[test]
    fn problems_serialise_their_code() {
        let mut fi = FileInfo::new("x", Format::FmtTrace, 0);
        fi.problem(ProblemCode::CutRecord, Some(3), Severity::Warning, 1, "cut");
        let v = serde_json::to_value(&fi.problems[0]).unwrap();
        assert_eq!(
            v,
            serde_json::json!({"line": 3, "code": "cut-record", "severity": "warning", "message": "cut"})
        );
    }
}

#[cfg(test)]
mod interest_tests {
    use super::*;

    /// Every rule's names plus the MQI calls still fit the SIMD search
    /// (an automaton made `analyze` several times slower on 1 GB).
    #[test]
    fn analyze_interest_stays_simd() {
        let i = crate::passes::Plan::new(&[], &[], &[]).unwrap().interest();
        assert!(matches!(i.any, Some(Candidates::Packed(_))), "{:?}", i.any);
        // Inner names still find the longer ones.
        assert!(i.candidate(b" 10:00:00.000000 1.1 : -{  trmzstMQCONNX"));
        assert!(i.candidate(b" 10:00:00.000000 1.1 : -{  zstMQGET"));
        assert!(!i.candidate(b" 10:00:00.000000 1.1 : -{  xcsGetMem"));
        assert!(i.function("zstMQGET") && i.function("MQPUT1"));
    }
}
