//! SMF 115/116 data as IBM's `mqsmfcsv` writes it: one CSV file per MQ
//! structure (`SMF-QCST.csv`, `SMF-WQ.csv`, ...), a header row naming the
//! columns. See `shared/formats/smf.md` for the layouts.
//!
//! Columns are found by name, never by position; old spellings go through
//! the alias table in `columns` and come out under today's names. Each
//! data row becomes one `smf-record` event whose attributes are its cells
//! under those names, placeholders dropped, plus the shared names of the
//! `event` table. Columns the reader does not know are kept as they are
//! (newer formatters add columns): not a problem. Nor is a missing `QSG`
//! column (formatters before 5.6): the inventory's variant says so.
//!
//! Time: `Date`/`Time` are the LPAR's local time (to 1/100 s), STCK columns
//! are UTC rendered in the formatter's zone (UTC, or `--smf-stck-tz`). The
//! offset between the two is estimated from the data (`clock`; decided
//! and said once per file in `lpar`); STCK-derived row times are moved onto the LPAR clock
//! (`clock_offset_s` says by how much, raw STCK cells stay as written).
//! The LPAR clock's UTC offset is `--tz`, else the STCK zone minus that
//! estimate when the two differ (or the STCK zone was given), learned from
//! the file itself or, before any row is read, from the other files of its
//! queue manager (`survey`); else UTC, said once per LPAR. Rows are shown
//! in their LPAR's offset at their true instant. Rows are placed at the start of
//! the interval their counts cover (`timing`; `ts_from` names the source),
//! which is not the file order, so the raw rows (not events) wait in a
//! buffer (`hold`) bounded by time (`HORIZON`) and size (`hold_budget_for`).

mod clock;
mod columns;
mod csvline;
mod derive;
mod hold;
mod lpar;
mod row;
mod survey;
mod tasks;
mod timing;
mod value;

pub(crate) use survey::survey;

use super::Reader;
use crate::input::Input;
use crate::lines::{LineMeta, LineReader, MAX_LINE};
use crate::source::{Interest, ReadOptions, Source};
use chrono::{Duration, FixedOffset, NaiveDateTime, TimeZone};
use columns::Layout;
use csvline::Field;
use mqdiag_model::event::{Attrs, Event, Format, Kind, Origin};
use mqdiag_model::fileinfo::FileInfo;
use mqdiag_model::problem::{ProblemCode, Severity};
use row::Row;
use std::cmp::Reverse;
use std::collections::{BTreeSet, BinaryHeap, HashMap, VecDeque};
use std::io::Read;
use std::sync::Arc;
use survey::{LparClock, LparClocks};
use timing::{Placed, Timer, Timing};

/// Rows are held back until they are this much older than the newest
/// record time read (long-running tasks report intervals that began hours
/// before the record)...
const HORIZON: Duration = Duration::hours(24);
/// ... or until the rows held take the file's budget (then the earliest
/// go, and a row placed before them reaches the timeline late). A file
/// read alone keeps the 16 MB it always had.
const BUDGET: usize = 16 << 20;
/// The files of one run share this much, so that 20 record types of a
/// case do not hold 20 × 16 MB...
const TOTAL_BUDGET: usize = 32 << 20;
/// ... but each keeps at least this much.
const MIN_BUDGET: usize = 2 << 20;
/// What a held row costs besides its bytes: the heap entry and the
/// allocator's header.
const HELD_OVERHEAD: usize = std::mem::size_of::<Held>() + 16;

/// The hold budget of each of `n` SMF files read in one run.
pub(crate) fn hold_budget_for(n: usize) -> usize {
    (TOTAL_BUDGET / n.max(1)).clamp(MIN_BUDGET, BUDGET)
}
/// Rows read before the clock offset is decided, at most.
const ESTIMATE_ROWS: usize = 2000;
/// Anchor votes that are enough to decide it.
const ESTIMATE_VOTES: u32 = 64;
/// Offset changes reported in detail.
const MAX_CHANGE_REPORTS: u32 = 5;
/// Distinct queue managers, LPARs, versions listed in the inventory.
const MAX_LISTED: usize = 8;

pub(crate) struct SmfCsvReader;

/// SMF records as `mqsmfcsv` CSV. Its facts for the rest of the program.
pub static FORMAT: Format = Format::of(&mqdiag_model::event::FormatInfo {
    name: "smf-csv",
    family: mqdiag_model::event::FormatFamily::Smf,
    states_local_time: false,
    dataset: "ibmmq.smf",
    host_is_writer: false,
});

impl Reader for SmfCsvReader {
    fn format(&self) -> Format {
        FORMAT
    }

    /// A header that starts with `mqsmfcsv`'s common block decides; a known
    /// structure signature or a matching `SMF-<STRUCT>.csv` name only adds
    /// certainty. Data rows without a header, and empty files, are claimed
    /// weakly when the name is the formatter's, so the inventory can say
    /// what is wrong with them.
    /// 90, 5 more for known columns, 1 for the name.
    fn sniff_ceiling(&self) -> u8 {
        96
    }

    fn sniff(&self, name: &str, head: &[u8]) -> u8 {
        let by_name = columns::structure_from_name(name).is_some();
        if head.is_empty() {
            return if by_name { 5 } else { 0 };
        }
        let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
        let first = head.split(|&b| b == b'\n').next().unwrap_or(head);
        let first = first.strip_suffix(b"\r").unwrap_or(first);
        let Ok(text) = std::str::from_utf8(first) else {
            return 0;
        };
        if columns::common_block(text.split(',')).is_some() {
            let known = columns::identify(text.split(',')).is_some();
            return 90 + if known { 5 } else { 0 } + u8::from(by_name);
        }
        if by_name && looks_like_data_row(first) {
            return 40;
        }
        0
    }

    /// Every SMF file needs its LPAR's offset before its first row is
    /// placed, and a file without STCK columns can only learn it from its
    /// siblings: a short pass over their first rows (`survey`), before any
    /// is read. The files also share one hold budget.
    fn prepare(&self, siblings: &super::Siblings, opts: &ReadOptions) -> super::Prepared {
        let own = siblings.of(FORMAT);
        let stck_tz = opts
            .format_options
            .get::<SmfOptions>()
            .and_then(|o| o.stck_tz);
        Some(Arc::new(SmfRun {
            clocks: Some(Arc::new(survey(&own, stck_tz.is_some()))),
            hold_budget: hold_budget_for(own.len()),
        }))
    }

    fn open_with(
        &self,
        inputs: Vec<Input>,
        opts: &ReadOptions,
        prepared: super::Prepared,
    ) -> Box<dyn Source> {
        let run = prepared
            .and_then(|p| p.downcast::<SmfRun>().ok())
            .unwrap_or_default();
        Box::new(SmfSource {
            opts: opts.clone(),
            run,
            pending: inputs.into(),
            file: None,
            done: Vec::new(),
            no_attrs: false,
        })
    }

    /// The reader takes the structure from the file name when the header
    /// does not say: the names `mqsmfcsv` writes, and one it does not.
    fn fuzz(&self) -> Option<super::Fuzz> {
        Some(super::Fuzz {
            target: "smf_csv",
            names: &[
                "SMF-WTAS.csv",
                "SMF-WQ.csv",
                "SMF-QMST.csv",
                "SMF-QCST.csv",
                "SMF-QCCT.csv",
                "SMF-WTID.csv",
                "SMF-QPST.csv",
                "SMF-QQST.csv",
                "SMF-QCTDNS.csv",
                "SMF-QCTSSL.csv",
                "SMF-QMAC.csv",
                "data.csv",
            ],
        })
    }
}

/// `"2016/02/27","18:03:47,...`: a row of a file written without header.
fn looks_like_data_row(line: &[u8]) -> bool {
    let mut f = Vec::new();
    if csvline::split(line, &mut f).is_err() || f.len() < 6 {
        return false;
    }
    let s = |i: usize| std::str::from_utf8(f[i].bytes(line)).unwrap_or("");
    value::date(s(0)).is_some() && value::time(s(1)).is_some()
}

/// A row waiting for the clock estimate.
struct Pending {
    line_no: u64,
    /// The byte offset of the row's line.
    at: u64,
    bytes: Vec<u8>,
    cells: Option<csvline::Kept>,
    layout: Arc<Layout>,
    record: NaiveDateTime,
    /// What its clock anchor says (`anchor`), read once.
    anchor: Option<(bool, i32)>,
}

/// A placed row waiting for its turn. Its times are UTC (naive), so rows
/// of LPARs in different zones, or either side of a daylight saving change,
/// come out in instant order.
struct Held {
    key: (NaiveDateTime, u64),
    end: Option<NaiveDateTime>,
    /// The LPAR's UTC offset (seconds) the row is shown in.
    lpar: i32,
    offset: Option<i32>,
    from: &'static str,
    line_no: u64,
    /// The byte offset of the row's line.
    at: u64,
    bytes: Vec<u8>,
    cells: Option<csvline::Kept>,
    layout: Arc<Layout>,
}

impl PartialEq for Held {
    fn eq(&self, o: &Self) -> bool {
        self.key == o.key
    }
}
impl Eq for Held {}
impl PartialOrd for Held {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Held {
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        self.key.cmp(&o.key)
    }
}

/// A row of the current record, for `duplicate`: its line and line number.
type FirstRow = (Box<[u8]>, u64);

/// Reading state of one file.
struct FileState {
    info: FileInfo,
    origin: Arc<Origin>,
    lines: Option<LineReader<Box<dyn Read + Send>>>,
    name_struct: Option<String>,
    layout: Option<Arc<Layout>>,
    /// The file has rows but no header: nothing can be named.
    headless: bool,
    path: String,
    /// `--tz`: the LPAR's offset, whatever the clocks say.
    tz: Option<FixedOffset>,
    /// `--smf-stck-tz`: the zone STCK columns are in (UTC when absent).
    stck_tz: Option<FixedOffset>,
    /// The run's clock evidence per LPAR and queue manager.
    clocks: Option<Arc<LparClocks>>,
    /// The file's STCK offset came from another file of its queue manager.
    borrowed: Option<LparClock>,
    /// The last row's LPAR and queue manager, and their evidence.
    looked_up: Option<(String, String, Option<LparClock>)>,
    /// The first LPAR offset taken from another file, for the note.
    sibling: Option<(i32, LparClock)>,
    /// LPARs whose zone is unknown (UTC assumed), once each.
    unknown: BTreeSet<String>,
    /// The inventory's `utc_offset` is set (from the first row).
    offset_set: bool,
    votes: clock::Votes,
    settled: bool,
    /// All lines read.
    eof: bool,
    /// The offset the file begins with, once decided.
    start: Option<i32>,
    current: Option<i32>,
    changes: u32,
    pending: Vec<Pending>,
    pending_bytes: usize,
    heap: BinaryHeap<Reverse<Held>>,
    held_bytes: usize,
    /// Bytes of rows that may be held (pending rows: half of it).
    budget: usize,
    seq: u64,
    newest: Option<NaiveDateTime>,
    timer: Timer,
    /// Keys of the current record's rows, for `duplicate`.
    /// The line itself, not its hash: a row whose hash equals the first's
    /// (public SipHash keys) would have passed for its copy.
    seen: (Option<NaiveDateTime>, HashMap<String, FirstRow>),
    fields: Vec<Field>,
    /// The columns the consumer reads (`None`: all of them).
    wanted: Option<Arc<Interest>>,
    /// Events carry only their times: no text, no attributes.
    bare: bool,
    /// Events carry their text but no attributes (text `timeline` rows).
    no_attrs: bool,
    rows: u64,
    qmgrs: BTreeSet<String>,
    lpars: BTreeSet<String>,
    versions: BTreeSet<String>,
    /// The byte offset of the line being read.
    line_at: u64,
}

/// `--smf-stck-tz`, the SMF reader's own option
/// (`ReadOptions::format_options`).
#[derive(Debug, Clone, Copy, Default)]
pub struct SmfOptions {
    /// The zone `mqsmfcsv` rendered STCK columns in (`None`: UTC, as with
    /// `-g yes` or on a UTC host).
    pub stck_tz: Option<FixedOffset>,
}

/// What the SMF files of a run share, learned before any row is read
/// (`SmfCsvReader::prepare`).
#[derive(Debug, Default)]
pub(crate) struct SmfRun {
    /// What the files say about their LPARs' clocks.
    pub(crate) clocks: Option<Arc<LparClocks>>,
    /// Bytes of rows each file may hold back to put them in time order
    /// (0: `BUDGET`, as for a file read alone).
    pub(crate) hold_budget: usize,
}

pub(crate) struct SmfSource {
    opts: ReadOptions,
    run: Arc<SmfRun>,
    pending: VecDeque<Input>,
    file: Option<FileState>,
    done: Vec<FileInfo>,
    /// Events are rendered as rows that do not show attributes.
    no_attrs: bool,
}

/// How a data row fits its header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fit {
    Exact,
    /// A 115 row without the three interval columns (a record without
    /// interval header): fitted by leaving them empty.
    NoInterval,
    /// A `",` inside this column's string split it; rejoined.
    Rejoined(usize),
}

/// Why a data row is skipped. `Display` gives the row's problem as the
/// inventory says it.
#[derive(Debug, Clone, PartialEq, Eq)]
enum RowError {
    /// A quote left open in this column (0-based) of that name.
    UnbalancedQuote {
        column: usize,
        name: String,
    },
    TooWide {
        n: usize,
        width: usize,
    },
    /// Fewer columns than the header's; `last`: the name of the last.
    Short {
        n: usize,
        width: usize,
        last: String,
    },
    /// `Short` on the last line of a file that ends without a line end.
    EndsMidRow {
        n: usize,
        width: usize,
        last: String,
    },
    /// The record's `Date` and `Time` cells, which do not read as one.
    BadTime {
        date: String,
        time: String,
    },
}

impl RowError {
    /// This error on a line the file ends in, unterminated.
    fn on_last_line(self) -> RowError {
        match self {
            RowError::Short { n, width, last } => RowError::EndsMidRow { n, width, last },
            other => other,
        }
    }
}

impl std::fmt::Display for RowError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RowError::UnbalancedQuote { column, name } => write!(
                f,
                "unbalanced quote in column {} `{name}`: row skipped",
                column + 1
            ),
            RowError::TooWide { n, width } => {
                write!(f, "row has {n} columns, the header {width}: row skipped")
            }
            RowError::Short { n, width, last } => write!(
                f,
                "short row: {n} of {width} columns (ends at `{last}`): row skipped"
            ),
            RowError::EndsMidRow { n, width, last } => write!(
                f,
                "file ends mid-row: {n} of {width} columns (ends at `{last}`): row skipped"
            ),
            RowError::BadTime { date, time } => write!(
                f,
                "record time `{date}`,`{time}` is not a date and time: row skipped"
            ),
        }
    }
}

impl std::error::Error for RowError {}

/// The fields of a row fitted when it was read: its kept offsets, else
/// split and fitted again.
fn refit(layout: &Layout, line: &[u8], cells: Option<&csvline::Kept>, f: &mut Vec<Field>) -> bool {
    match cells {
        Some(k) => {
            k.fields(f);
            true
        }
        None => fit(layout, line, f).is_ok(),
    }
}

/// `fit`, splitting only the columns the layout's limit names when the
/// rest of the line holds no quote and the row is as wide as its header
/// (nearly every row: a WQ row has ~500 cells and rules read ~40). The
/// fields are then those first columns; any other row is split whole.
fn fit_prefix(layout: &Layout, line: &[u8], fields: &mut Vec<Field>) -> Result<Fit, RowError> {
    let limit = layout.split_limit();
    if limit >= layout.width() {
        return fit(layout, line, fields);
    }
    let split = match csvline::split_prefix(line, fields, limit) {
        Ok(Some(rest)) => {
            if let Some(more) = csvline::plain_rest(&line[rest..]) {
                // The formatter's trailing comma is not a column (`fit`).
                let trailing = usize::from(line.last() == Some(&b','));
                if limit + more - trailing == layout.width() {
                    return Ok(Fit::Exact);
                }
            }
            csvline::split_rest(line, fields, rest)
        }
        Ok(None) => Ok(()),
        Err(u) => Err(u),
    };
    fit_split(layout, line, fields, split)
}

/// Split a data row and fit it to the header; the problem when it cannot.
fn fit(layout: &Layout, line: &[u8], fields: &mut Vec<Field>) -> Result<Fit, RowError> {
    let split = csvline::split(line, fields);
    fit_split(layout, line, fields, split)
}

/// `fit` on the row split (`split`: what splitting it said).
fn fit_split(
    layout: &Layout,
    line: &[u8],
    fields: &mut Vec<Field>,
    split: Result<(), csvline::Unbalanced>,
) -> Result<Fit, RowError> {
    let name = |i: usize| layout.names.get(i).map_or("?", String::as_str).to_string();
    if let Err(u) = split {
        return Err(RowError::UnbalancedQuote {
            column: u.field,
            name: name(u.field),
        });
    }
    // The formatter ends every line with a comma: a last empty unquoted
    // field is that comma, never a value (strings are quoted, numbers are
    // never empty).
    if fields.last().is_some_and(|f| f.is_empty() && !f.quoted) && fields.len() > 1 {
        fields.pop();
    }
    let width = layout.width();
    let n = fields.len();
    if n == width {
        return Ok(Fit::Exact);
    }
    if n > width {
        if let Some(i) = csvline::rejoin(line, fields, width) {
            return Ok(Fit::Rejoined(i));
        }
        return Err(RowError::TooWide { n, width });
    }
    // A quote inside a quoted cell that swallowed the separators after it.
    if let Some(i) = fields
        .iter()
        .position(|f| f.quoted && memchr::memchr(b'"', f.bytes(line)).is_some())
    {
        return Err(RowError::UnbalancedQuote {
            column: i,
            name: name(i),
        });
    }
    if let Some(at) = layout.interval_at
        && n + 3 == width
    {
        fields.splice(at..at, [Field::EMPTY; 3]);
        return Ok(Fit::NoInterval);
    }
    Err(RowError::Short {
        n,
        width,
        last: name(n.saturating_sub(1)),
    })
}

impl FileState {
    fn new(input: &Input, opts: &ReadOptions, run: &SmfRun) -> FileState {
        let mut info = FileInfo::new(&input.display, FORMAT, input.bytes);
        info.platform = Some("z/OS".to_string());
        let lines = crate::formats::open_lines(input, &mut info);
        if input.bytes == 0 {
            info.problem(
                ProblemCode::EmptyFile,
                None,
                Severity::Warning,
                0,
                "empty file",
            );
        }
        FileState {
            origin: input.origin(FORMAT),
            info,
            lines,
            name_struct: columns::structure_from_name(&input.name),
            layout: None,
            headless: false,
            path: input.display.to_string(),
            tz: opts.tz,
            stck_tz: opts
                .format_options
                .get::<SmfOptions>()
                .and_then(|o| o.stck_tz),
            clocks: run.clocks.clone(),
            borrowed: None,
            looked_up: None,
            sibling: None,
            unknown: BTreeSet::new(),
            offset_set: false,
            votes: clock::Votes::default(),
            settled: false,
            eof: false,
            start: None,
            current: None,
            changes: 0,
            pending: Vec::new(),
            pending_bytes: 0,
            heap: BinaryHeap::new(),
            held_bytes: 0,
            budget: if run.hold_budget > 0 {
                run.hold_budget
            } else {
                BUDGET
            },
            seq: 0,
            newest: None,
            timer: Timer::with_tasks(run.clocks.clone()),
            seen: (None, HashMap::new()),
            fields: Vec::new(),
            wanted: opts.interest.clone(),
            bare: opts.interest.as_ref().is_some_and(|i| !i.smf_detail()),
            no_attrs: false,
            rows: 0,
            qmgrs: BTreeSet::new(),
            lpars: BTreeSet::new(),
            versions: BTreeSet::new(),
            line_at: 0,
        }
    }

    fn timing(&self) -> Timing {
        self.layout.as_deref().map_or(Timing::Point, Timing::of)
    }

    fn handle(&mut self, meta: LineMeta, line: &[u8]) {
        let no = meta.no;
        self.line_at = meta.offset;
        let line = if no == 1 {
            line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line)
        } else {
            line
        };
        if self.headless {
            self.info.lines_skipped += 1;
            return;
        }
        if meta.truncated {
            self.info.problem(
                ProblemCode::LineTooLong,
                Some(no),
                Severity::Warning,
                1,
                format!(
                    "line of {} bytes is longer than the {} KiB limit: row skipped",
                    meta.full_len,
                    MAX_LINE / 1024
                ),
            );
            return;
        }
        if line.iter().all(|b| b.is_ascii_whitespace()) {
            return;
        }
        let Some(layout) = self.layout.clone() else {
            self.header(no, line, true);
            return;
        };
        if line.starts_with(b"Date,Time,") && self.header(no, line, false) {
            self.info.problem(
                ProblemCode::RepeatedHeader,
                Some(no),
                Severity::Info,
                0,
                "header row repeated (files joined?): columns named again from here",
            );
            return;
        }
        let mut fields = std::mem::take(&mut self.fields);
        self.data_row(no, meta.unterminated, line, &layout, &mut fields);
        self.fields = fields;
    }

    /// A header row; on the first line, the news that there is none.
    /// Whether the line was a header.
    fn header(&mut self, no: u64, line: &[u8], first: bool) -> bool {
        let text = mqdiag_model::text::decode_lossy(line);
        let mut cells: Vec<&str> = text.split(',').collect();
        if cells.len() > 1 && cells.last().is_some_and(|c| c.trim().is_empty()) {
            cells.pop();
        }
        if columns::common_block(cells.iter().copied()).is_none() {
            if !first {
                return false;
            }
            let what = if looks_like_data_row(line) {
                "no header row (formatted with `-h no`, or appended to with `-a`): columns cannot be named"
            } else {
                "first line is not an mqsmfcsv header (`Date,Time,LPAR,QMgr,...`)"
            };
            self.info.problem(
                ProblemCode::SmfLayout,
                Some(no),
                Severity::Error,
                1,
                format!("{what}: file not read"),
            );
            self.headless = true;
            return false;
        }
        let mut layout = Layout::new(&cells, self.name_struct.as_deref());
        if let Some(w) = &self.wanted {
            layout.keep_only(|n| {
                w.smf_column_name(n)
                    .or_else(|| derive::NAMES.iter().find(|d| **d == n).copied())
            });
        }
        if !layout.by_header {
            let msg = match &self.name_struct {
                Some(s) => format!(
                    "header not recognised as a known structure: rows read as {s} (from the file name) with their columns only"
                ),
                None => {
                    "header not recognised as a known structure: rows read with their columns only"
                        .to_string()
                }
            };
            self.info
                .problem(ProblemCode::SmfLayout, Some(no), Severity::Info, 0, msg);
        } else if let Some(s) = &self.name_struct
            && *s != layout.structure
        {
            self.info.problem(
                ProblemCode::SmfLayout,
                Some(no),
                Severity::Info,
                0,
                format!(
                    "file name says {s} but the header is {}'s: read as {}",
                    layout.structure, layout.structure
                ),
            );
        }
        let mut variant = layout.structure.clone();
        if layout.renamed > 0 {
            variant.push_str(", old column names");
        }
        if !layout.has_qsg {
            variant.push_str(", no QSG column (mqsmfcsv before 5.6)");
        }
        self.info.variant = Some(variant);
        let timing = Timing::of(&layout);
        if self.layout.is_none() && !timing.needs_offset() {
            // Nothing to estimate: rows go straight to the buffer.
            self.settled = true;
        }
        self.layout = Some(Arc::new(layout));
        true
    }

    #[allow(clippy::too_many_arguments)]
    fn data_row(
        &mut self,
        no: u64,
        unterminated: bool,
        line: &[u8],
        layout: &Arc<Layout>,
        fields: &mut Vec<Field>,
    ) {
        let fitted = match fit_prefix(layout, line, fields) {
            Ok(v) => v,
            Err(err) => {
                let err = if unterminated {
                    err.on_last_line()
                } else {
                    err
                };
                self.info.problem(
                    ProblemCode::BadLine,
                    Some(no),
                    Severity::Warning,
                    1,
                    err.to_string(),
                );
                return;
            }
        };
        let row = Row::new(layout, line, fields);
        let record = match row.datetime_of("Date", "Time") {
            Ok(t) => t,
            Err(err) => {
                self.info.problem(
                    ProblemCode::BadTime,
                    Some(no),
                    Severity::Warning,
                    1,
                    err.to_string(),
                );
                return;
            }
        };
        if let Some(first) = self.duplicate(&row, record, line, no) {
            self.info.problem( ProblemCode::DuplicateRow,
                Some(no),
                Severity::Info,
                0,
                format!(
                    "same {} row as line {first} (statistics written for two SMF 115 subtypes): skipped",
                    layout.structure
                ),
            );
            return;
        }
        if let Fit::Rejoined(i) = fitted {
            self.info.problem( ProblemCode::MalformedCell,
                Some(no),
                Severity::Info,
                0,
                format!(
                    "column {} `{}` holds a quote and a comma (not escaped by the formatter): cell rejoined",
                    i + 1,
                    layout.names[i]
                ),
            );
        }
        if fitted == Fit::NoInterval {
            self.info.problem( ProblemCode::SmfLayout,
                Some(no),
                Severity::Info,
                0,
                "row lacks the 3 Interval_Start/Interval_Duration columns (115 record without interval header): read without them, placed at its record time",
            );
        }
        if row.text.is_none() {
            // Every cell, when only the first were split.
            let mut all = Vec::new();
            let all = if fields.len() < layout.width() && fit(layout, line, &mut all).is_ok() {
                &all
            } else {
                &*fields
            };
            let col = all
                .iter()
                .position(|f| std::str::from_utf8(f.bytes(line)).is_err())
                .unwrap_or(0);
            self.info.problem(
                ProblemCode::Encoding,
                Some(no),
                Severity::Info,
                0,
                format!(
                    "column {} `{}` is not UTF-8: read as Latin-1",
                    col + 1,
                    layout.names[col]
                ),
            );
        }
        for (set, col) in [
            (&mut self.qmgrs, "QMgr"),
            (&mut self.lpars, "LPAR"),
            (&mut self.versions, "MQ_Version"),
        ] {
            if set.len() <= MAX_LISTED
                && let Some(v) = row.get(col)
                && !set.contains(v.as_ref())
            {
                set.insert(v.into_owned());
            }
        }
        self.rows += 1;
        let timing = Timing::of(layout);
        let anchored = anchor(timing, &row, record);
        if let Some((strong, c)) = anchored {
            self.votes.add(strong, c);
        }
        if !self.settled {
            self.pending_bytes += line.len();
            self.pending.push(Pending {
                line_no: no,
                at: self.line_at,
                bytes: line.to_vec(),
                cells: csvline::Kept::of(line, fields),
                layout: layout.clone(),
                record,
                anchor: anchored,
            });
            if self.pending.len() >= ESTIMATE_ROWS
                || self.votes.count() >= ESTIMATE_VOTES
                || self.pending_bytes >= self.budget / 2
            {
                self.settle();
            }
        } else {
            let placed = self.place(timing, &row, no, record, anchored);
            let lpar = self.lpar_offset(&row, no);
            let cells = csvline::Kept::of(line, fields);
            self.hold(
                placed,
                lpar,
                record,
                (no, self.line_at),
                line.to_vec(),
                cells,
                layout.clone(),
            );
        }
    }

    /// The line of an identical earlier row of the same record and key, for
    /// structures that can be written twice (QPST comes with both 115
    /// subtype 2 and 215). Rows of one record are adjacent, so only the
    /// current record's keys are kept.
    fn duplicate(&mut self, row: &Row, record: NaiveDateTime, line: &[u8], no: u64) -> Option<u64> {
        let cols = columns::dedup_key(&row.layout.structure)?;
        let mut key = String::new();
        for c in cols {
            key.push_str(row.get(c).as_deref().unwrap_or(""));
            key.push('/');
        }
        if self.seen.0 != Some(record) {
            self.seen = (Some(record), HashMap::new());
        }
        match self.seen.1.get(&key) {
            Some((first_line, first)) if **first_line == *line => Some(*first),
            Some(_) => None,
            None => {
                self.seen.1.insert(key, (line.into(), no));
                None
            }
        }
    }

    /// The inventory row's last facts. Rows still held (the reader of the
    /// stream stopped early) are dropped.
    fn finish(&mut self) {
        if !self.settled {
            self.settle();
        }
        self.clock_summary();
        if let Some(l) = &self.lines {
            self.info.bytes = self.info.bytes.max(l.bytes_read());
        }
        if self.layout.is_some() && self.rows == 0 && self.info.problem_count == 0 {
            self.info.problem(
                ProblemCode::NoRecords,
                None,
                Severity::Info,
                0,
                "header only: no data rows",
            );
        }
        let list = |s: &BTreeSet<String>, f: &dyn Fn(&str) -> String| -> Option<String> {
            if s.is_empty() {
                return None;
            }
            let mut v: Vec<String> = s.iter().take(MAX_LISTED).map(|x| f(x)).collect();
            if s.len() > MAX_LISTED {
                v.push("...".to_string());
            }
            Some(v.join(", "))
        };
        self.info.qmgr = list(&self.qmgrs, &|s| s.to_string());
        self.info.host = list(&self.lpars, &|s| s.to_string());
        self.info.mq_version = list(&self.versions, &|s| {
            value::mq_version(s).unwrap_or_else(|| s.to_string())
        });
    }
}

/// `1 row`, `12 rows`.
fn rows_text(n: u32) -> String {
    format!("{n} row{}", if n == 1 { "" } else { "s" })
}

/// The offset one row's anchor suggests, and whether the anchor is strong.
fn anchor(timing: Timing, row: &Row, record: NaiveDateTime) -> Option<(bool, i32)> {
    timing.anchors().iter().find_map(|(col, strong)| {
        let t = row.datetime(col).ok()??;
        clock::candidate(t, record, *strong).map(|c| (*strong, c))
    })
}

/// Every cell with a value, under its current column name. A `(DATE)` and
/// `(TIME)` pair holding the formatter's 1970 placeholder is dropped whole.
fn cells(row: &Row, attrs: &mut Attrs) {
    let l = row.layout;
    let mut skip_time = None;
    // A cell not kept is not even read, unless it is a `(DATE)` that may
    // drop its `(TIME)` partner.
    for &i in &l.visit {
        if skip_time == Some(i) {
            continue;
        }
        let Some(v) = row.value(i) else { continue };
        if let Some(t) = l.time_of[i]
            && let Some(tv) = row.value(t)
            && value::is_epoch(&v, &tv)
        {
            skip_time = Some(t);
            continue;
        }
        if l.keep[i] {
            match l.key[i] {
                Some(k) => attrs.push_key(k, &v),
                None => attrs.push_name(l.attr[i].clone(), &v),
            }
        }
    }
}

impl Row<'_> {
    /// The record time from its two columns.
    fn datetime_of(&self, d: &str, t: &str) -> Result<NaiveDateTime, RowError> {
        let dv = self.get(d);
        let tv = self.get(t);
        match value::date_time(dv.as_deref(), tv.as_deref()) {
            Ok(Some(x)) => Ok(x),
            _ => Err(RowError::BadTime {
                date: dv.unwrap_or_default().into_owned(),
                time: tv.unwrap_or_default().into_owned(),
            }),
        }
    }
}

impl SmfSource {
    /// Read one line of the current file; false at its end.
    fn step(&mut self) -> bool {
        let Some(fs) = self.file.as_mut() else {
            return false;
        };
        let Some(mut reader) = fs.lines.take() else {
            return false;
        };
        let more = match crate::formats::read_line(&mut reader, &mut fs.info) {
            Some((meta, bytes)) => {
                fs.handle(meta, bytes);
                true
            }
            None => false,
        };
        fs.lines = Some(reader);
        more
    }

    fn end_file(&mut self) {
        if let Some(mut fs) = self.file.take() {
            fs.finish();
            self.done.push(fs.info);
        }
    }
}

impl Source for SmfSource {
    fn next_event(&mut self) -> Option<Event> {
        loop {
            let Some(fs) = self.file.as_mut() else {
                let next = self.pending.pop_front()?;
                let mut fs = FileState::new(&next, &self.opts, &self.run);
                fs.no_attrs = self.no_attrs;
                self.file = Some(fs);
                continue;
            };
            if let Some(e) = fs.next_ready() {
                return Some(e);
            }
            if !fs.eof {
                if !self.step()
                    && let Some(fs) = self.file.as_mut()
                {
                    fs.end_of_input();
                }
                continue;
            }
            if let Some(e) = fs.next_held() {
                return Some(e);
            }
            self.end_file();
        }
    }

    /// Rows as the default does, from events; their attributes are left
    /// out when the rows do not show them.
    fn next_rows(
        &mut self,
        sink: &mut mqdiag_model::sink::RowSink,
        out: &mut Vec<u8>,
        n: usize,
        limit: usize,
        row: &mut dyn FnMut(mqdiag_model::sink::RowMeta, usize, usize),
    ) -> bool {
        self.no_attrs = !sink.spec.format.shows_attrs();
        if let Some(fs) = self.file.as_mut() {
            fs.no_attrs = self.no_attrs;
        }
        crate::source::rows_of_events(self, sink, out, n, limit, row)
    }

    fn finish(mut self: Box<Self>) -> Vec<FileInfo> {
        if self.file.is_some() {
            self.end_file();
        }
        // Files never started (the caller stopped early) still get a row.
        while let Some(i) = self.pending.pop_front() {
            self.file = Some(FileState::new(&i, &self.opts, &self.run));
            self.end_file();
        }
        std::mem::take(&mut self.done)
    }
}

#[cfg(test)]
mod tests;
