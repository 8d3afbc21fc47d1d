//! The one event model every stage shares: readers produce `Event`s, the
//! timeline orders them, passes consume them.
//!
//! # Attribute names
//!
//! `Event::attrs` carries what a format knows beyond the common fields.
//! Readers and passes share these names; a value is always a string
//! (numbers in plain decimal, durations in the unit their name says).
//! The fixed names are typed keys (`Key`, `Event::get`/`Event::set`);
//! `Event::attr` and `Event::set_attr` take a name and map a fixed one to
//! its key.
//!
//! | name | set by | meaning |
//! |---|---|---|
//! | `flag` | trace | `*` in the flag column |
//! | `unmatched` | trace | `true` on an exit with no entry seen |
//! | `dump_of` | trace | line of the record a dump row belongs to |
//! | `stamped` | trace | the time as written, on a record stamped up to 1 s before its thread's latest (the event is placed at that latest time) |
//! | `msgid` | error log, CSQX, JSON log | `AMQ9788W`, `CSQX209E` (with severity letter) |
//! | `severity` | error log | `I`, `W`, `E`, `S`, `T` |
//! | `channel`, `host`, `address`, `port`, `qmgr`, `program`, `user` | error log, CSQX, SMF (`channel`, `qmgr`, `user` = WTID `MVS_UserId`) | as the names say; `address` is an IP or CONNAME |
//! | `seconds` | error log | a duration in seconds the message states (AMQ9788W) |
//! | `function` | error log | the function a message names (`getaddrinfo`) |
//! | `reason` | error log, CSQX | return / reason code the message states |
//! | `scope` | error log | `qmgr`, `system` or `client`, from the path |
//! | `probe`, `component`, `major_rc`, `minor_rc` | FDC | the boxed header fields |
//! | `family` | error log, CSQX, JSON log | catalogue family: `dns`, `channel`, `tls`, `security`, `internal`, `info` |
//! | `reason_hex` | error log, CSQX | the return code in hexadecimal as written (`68`, `00000468`) |
//! | `reverse` | error log | AMQ9788W: `true` when the slow look-up was a reverse one (getnameinfo, or an IP address) |
//! | `peer` | error log | TLS messages: the certificate or distinguished name of the peer |
//! | `task`, `limit` | error log, CSQX | queue-manager task name (AMQ5051I); instance limit (CSQX489E) |
//! | `local_host`, `installation`, `vrmf` | error log, JSON log, SYSLOG | the writing machine (`Host()`, not a peer), installation, MQ level |
//! | `local_time` | error log, FDC | the local date and time as the file wrote it |
//! | `source` | error log, JSON log, FDC | MQ source file and line (`amqccita.c:4214`) |
//! | `explanation`, `action` | error log | the message's sections, wrapped lines joined, paragraphs on new lines |
//! | `arith_insert1`, `arith_insert2`, `comment_insert1`..`3`, `remote_host` | error log, JSON log | the message inserts as written |
//! | `truncated`, `reassembled`, `catalog_missing` | error log | `true`: record cut by the end of the file; rejoined after interleaved writes; written without its message catalogue |
//! | `loglevel`, `sequence` | JSON log, FDC | `loglevel`; `ibm_sequence` / `FDCSequenceNumber` |
//! | `cpf`, `csect`, `job`, `trptype` | CSQX | command prefix (or subsystem) token, issuing csect, z/OS job id, transport type |
//! | `description`, `probe_type`, `probe_severity`, `arith1`, `arith2`, `comment1`..`3` | FDC | further boxed header fields; FDC `host` is the machine that wrote it |
//! | `record` | SMF | structure: `WQ`, `WTAS`, `WTID`, `QMAC`, `QCST`, `QQST`, `QCTDNS`, `QCTSSL`, `QPST`, `QMST`, ... (`unknown` if neither header nor file name says) |
//! | `task` | SMF WQ, WTAS, WTID | (not the error-log `task` above: check `record`) `LPAR/QMgr/correlator`: the same for every record of one task (a long-running task writes one per interval); rows of one SMF record also share `Date` and `Time` |
//! | `queue` | SMF WQ, QQST | WQ: `Base_Name` (the opened name may be an alias or remote queue), QQST: `Queue` |
//! | `conname` | SMF QCST, WTID | channel connection name as written (`10.1.1.1`, `host(1414)`) |
//! | `qtime_avg_us`, `qtime_max_us` | SMF WQ, QQST | time on queue. WQ getter rows only (`Total_Valid_Gets` > 0): `Total_Time_On_Queue` / `Total_Valid_Gets` and `Max_Time_On_Queue`. QQST: avg = `QTime_Short` (IBM's short-term moving average at the interval end); QQST has no max |
//! | `qtime_long_us` | SMF QQST | `QTime_Long`, the long-term moving average |
//! | `oldest_msg_age_us` | SMF QQST | `Max_Age` (age of the oldest message on the queue) in µs; absent in partial records |
//! | `dns_max_us`, `dns_avg_us` | SMF QCTDNS | longest DNS request; task elapsed time / requests |
//! | `dns_us` | SMF QCST | `DNS_Resolution_Time` of the channel instance |
//! | `tls_max_us`, `tls_avg_us` | SMF QCTSSL | longest TLS request; task elapsed time / requests |
//! | `ts_from` | SMF | what the row's `ts` is: `Interval_Start`, `WTAS_Interval_Start`, `Open`, `Start`, `previous record` (a task's counts restart at each record), `previous collection` (QCST), `Collection_Time`, `Stop`, or `Date/Time` (the record time) |
//! | `event_type`, `reason`, `reason_name`, `qualifier` | event messages | the event's type (`Perfm Event`), its reason code and `MQRC_` name, and its `MQRQ_` reason qualifier |
//! | `qmgr`, `object`, `object_type`, `channel`, `address`, `user`, `client_user`, `appl`, `queue` | event messages | the event data's queue manager, object, channel, connection name, user id and application |
//! | `correl_id`, `object_state`, `error_id` | event messages | config events' correlation id and `Before Change`/`After Change`; Channel Stopped's `ErrorIdentifier` (the AMQ message) |
//! | `verb`, `options`, `duration_us` | activity trace | the MQI verb (`MQPUT`), its options field decoded (`MQPMO_SYNCPOINT+...`), the queue manager's `QMgr Operation Duration` in µs |
//! | `clock_offset_s` | SMF WQ, WTAS, QCST | STCK columns minus LPAR-local time (estimated from the data); the row's `ts`/`end` are already on the LPAR clock, its STCK columns are as written |
//!
//! SMF rows also carry their CSV columns under their current `mqsmfcsv`
//! header names (old spellings renamed, see `formats::smf`), trimmed, with
//! the formatter's placeholders (empty, dots, `-1` dummies, 1970 dates)
//! dropped. Durations stay split in `X(S)`/`X(US)` as written.

pub use crate::attr_key::Key;
use chrono::{DateTime, FixedOffset};
use serde::Serialize;
use std::cell::RefCell;
use std::sync::Arc;

/// A full timestamp with the source's own UTC offset.
pub type Ts = DateTime<FixedOffset>;

/// The `ts` of a record that states no time (message text pasted without
/// its date): chrono's last instant, +262142-12-31T23:59:59.999999999Z, which
/// no reader can read from a file (years have four digits) and which sorts
/// after every time. A marker, never a time: every consumer asks
/// `is_undated` first. It has no nanosecond count (`timestamp_nanos_opt` is
/// `None`), so the merge's key for it is `i64::MAX`, after every dated
/// row; `FileInfo::saw_event` leaves it out of a file's first and last;
/// a time window never contains it; rows show no time for it (`ts` null in
/// JSON lines, an empty cell in CSV, `(time unknown)` in text).
pub fn undated() -> Ts {
    chrono::NaiveDateTime::MAX.and_utc().fixed_offset()
}

/// Whether `t` is the `undated` marker.
#[inline]
pub fn is_undated(t: &Ts) -> bool {
    // By its date as stored (one comparison: asked of every event): no
    // other time is on chrono's last day (`is_undated` of every time of
    // it would need a year of six digits, which no reader reads).
    t.naive_utc().date() == chrono::NaiveDate::MAX
}

/// What the rest of the program knows about an input format: data only.
/// Each reader declares its own (`formats::<format>::FORMAT` in the readers
/// crate, reached through its `READERS` line); the model knows none of them
/// but `Format::UNKNOWN`.
#[derive(Debug)]
pub struct FormatInfo {
    /// The contract's `format` value: what reports and the inventory show.
    pub name: &'static str,
    /// The kind of input (trace, error log): the overview chart's lane
    /// colour and legend.
    pub family: FormatFamily,
    /// Whether the format states the local time people read off it
    /// (traces and error logs): a time of day the user types (`--since
    /// 06:22`) is meant in its offset.
    pub states_local_time: bool,
    /// The exports' `event.dataset` (`ibmmq.errorlog`).
    pub dataset: &'static str,
    /// Whether its `host` attribute is the machine that wrote the file
    /// (FDC), not a peer: exports take it when `local_host` is absent.
    pub host_is_writer: bool,
}

/// The kinds of input, as the overview chart tells its lanes apart. A
/// type, not words, so that a format cannot name one the chart has no
/// colour for. (Not the catalogue's message families.)
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FormatFamily {
    Trace,
    ErrorLog,
    Smf,
    JobLog,
    Fdc,
    /// Configuration (qm.ini, MQSC definitions): facts, no events, so no
    /// lane of its own.
    Config,
    Other,
}

impl FormatFamily {
    /// The words the legend shows.
    pub const fn as_str(self) -> &'static str {
        match self {
            FormatFamily::Trace => "trace",
            FormatFamily::ErrorLog => "error log",
            FormatFamily::Smf => "SMF",
            FormatFamily::JobLog => "job log",
            FormatFamily::Fdc => "FDC",
            FormatFamily::Config => "configuration",
            FormatFamily::Other => "other",
        }
    }
}

/// An input format: a handle on its `FormatInfo`. Equal when the facts
/// are one and the same declaration.
#[derive(Clone, Copy)]
pub struct Format(&'static FormatInfo);

/// The facts of files no reader took.
static UNKNOWN: FormatInfo = FormatInfo {
    name: "unknown",
    family: FormatFamily::Other,
    states_local_time: false,
    dataset: "ibmmq.other",
    host_is_writer: false,
};

impl Format {
    /// A file no reader took.
    pub const UNKNOWN: Format = Format(&UNKNOWN);

    /// The format these facts declare.
    pub const fn of(info: &'static FormatInfo) -> Format {
        Format(info)
    }

    pub fn info(self) -> &'static FormatInfo {
        self.0
    }

    /// See `FormatInfo::states_local_time`.
    pub fn states_local_time(self) -> bool {
        self.0.states_local_time
    }

    pub fn as_str(self) -> &'static str {
        self.0.name
    }

    /// See `FormatInfo::family`.
    pub fn family(self) -> FormatFamily {
        self.0.family
    }

    /// See `FormatInfo::dataset`.
    pub fn dataset(self) -> &'static str {
        self.0.dataset
    }
}

impl PartialEq for Format {
    fn eq(&self, other: &Format) -> bool {
        // Names are unique (tests in `formats` hold every reader to it);
        // the pointer is the common, cheap case.
        std::ptr::eq(self.0, other.0) || self.0.name == other.0.name
    }
}

impl Eq for Format {}

impl std::hash::Hash for Format {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.0.name.hash(h)
    }
}

impl PartialOrd for Format {
    fn partial_cmp(&self, other: &Format) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Format {
    fn cmp(&self, other: &Format) -> std::cmp::Ordering {
        self.0.name.cmp(other.0.name)
    }
}

impl std::fmt::Debug for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0.name)
    }
}

impl Serialize for Format {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.0.name)
    }
}

/// What an event is. Serialised as the contract's `kind` strings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// Function entry (`{`).
    Entry,
    /// Function exit (`}`).
    Exit,
    /// Function error exit (`}!`).
    ErrorExit,
    /// Free trace text.
    Text,
    /// Hex-dump row (attached to the record before it).
    Dump,
    /// A trace header record.
    Header,
    /// One error-log record (text or JSON) or one z/OS console message.
    LogRecord,
    /// One FDC report.
    Fdc,
    /// One SMF-derived row.
    SmfRecord,
    /// One event message a queue manager put on an event queue (as
    /// `amqsevt` or `amqsevtg` formatted it).
    MqEvent,
    /// One MQI call of an application activity trace (`amqsact`).
    MqiCall,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Entry => "entry",
            Kind::Exit => "exit",
            Kind::ErrorExit => "error-exit",
            Kind::Text => "text",
            Kind::Dump => "dump",
            Kind::Header => "header",
            Kind::LogRecord => "log-record",
            Kind::Fdc => "fdc",
            Kind::SmfRecord => "smf-record",
            Kind::MqEvent => "mq-event",
            Kind::MqiCall => "mqi-call",
        }
    }
}

/// Where an event came from. Shared by all events of one file.
///
/// Aligned to a cache line so that in an `Arc` its fields do not share
/// the line of the reference counts: a reader counts a reference for
/// every event it makes while the rules, on another core, read the path
/// of every event; sharing one line made each of those reads a miss.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[repr(align(64))]
pub struct Origin {
    /// Display path: as given on the command line joined with the path
    /// inside a directory or archive.
    pub path: Arc<str>,
    pub format: Format,
}

impl Origin {
    /// The origin shared by every event of one file (`Input::origin` for
    /// an input: the model does not know how inputs are found).
    pub fn new(path: Arc<str>, format: Format) -> Arc<Origin> {
        Arc::new(Origin { path, format })
    }
}

/// One event on the timeline.
#[derive(Debug, Clone)]
pub struct Event {
    pub ts: Ts,
    /// End of the interval for events that cover one (SMF rows).
    pub end: Option<Ts>,
    pub origin: Arc<Origin>,
    /// 1-based line number of the event's first line in its file.
    pub line: u64,
    /// Byte offset of the event's first line in its file (see
    /// `Event::NO_OFFSET`): in the file's own bytes (an archive member's
    /// decompressed bytes, a UTF-16 file's UTF-16 bytes), the first line at
    /// 0. The exports' `log.offset`.
    pub offset: u64,
    pub kind: Kind,
    pub pid: Option<u32>,
    pub tid: Option<u32>,
    /// Shared (`Arc`): one value serves every event of a session or call.
    pub ident: Option<Arc<str>>,
    pub function: Option<Arc<str>>,
    /// The event's text: for traces the data column (`!! - ` stripped), for
    /// log records the message line.
    pub text: String,
    /// Return code as written (`OK`, `Unknown(B)`, `xecE_E_...`).
    pub rc: Option<String>,
    /// Call depth relative to the thread (0 = outermost seen).
    pub depth: Option<u32>,
    /// For exits: time since the matching entry, in microseconds.
    pub elapsed_us: Option<u64>,
    /// `FunctionTime=` as written by the tracer.
    pub function_time: Option<u64>,
    /// Typed values, named; small and ordered. Readers and passes agree on
    /// these names (see the module docs of `event` for the list).
    pub attrs: Attrs,
    /// The message catalogue's row of a log record, as its reader looked
    /// it up (see `CatalogRow`).
    pub catalog: CatalogRow,
}

/// A log record's row in the message catalogue, looked up once by the
/// reader that read the record and carried with it: the passes and the
/// charts read it instead of looking the `msgid` up again (a job log's
/// record was looked up five times). The model knows no catalogue: the
/// readers' `catalog::entry_of` reads the number, and looks the `msgid`
/// up itself when the reader did not (`CatalogRow::ASK`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CatalogRow(u16);

impl CatalogRow {
    /// Not looked up: ask the catalogue by the event's `msgid`.
    pub const ASK: CatalogRow = CatalogRow(0);
    /// Looked up, and not in the catalogue.
    pub const NONE: CatalogRow = CatalogRow(1);

    /// Row `i` of the catalogue (`ASK` past what the number holds).
    pub fn row(i: usize) -> CatalogRow {
        u16::try_from(i + 2).map_or(CatalogRow::ASK, CatalogRow)
    }

    /// `None`: not looked up; `Some(None)`: not in the catalogue;
    /// `Some(Some(i))`: row `i`.
    pub fn get(self) -> Option<Option<usize>> {
        match self.0 {
            0 => None,
            1 => Some(None),
            n => Some(Some(usize::from(n) - 2)),
        }
    }
}

/// An attribute's name: the readers' fixed names are borrowed (most events
/// carry a dozen, and allocating each name cost a tenth of reading a log);
/// names read from the input (SMF columns, error-log header keys) are owned.
pub type AttrName = std::borrow::Cow<'static, str>;

impl Event {
    /// `offset` of an event no reader read from a file (made by a test or
    /// a pass): exports leave `log.offset` out. Every reader sets it.
    pub const NO_OFFSET: u64 = u64::MAX;

    pub fn new(ts: Ts, origin: Arc<Origin>, line: u64, kind: Kind, text: String) -> Event {
        Event {
            ts,
            end: None,
            origin,
            line,
            offset: Event::NO_OFFSET,
            kind,
            pid: None,
            tid: None,
            ident: None,
            function: None,
            text,
            rc: None,
            depth: None,
            elapsed_us: None,
            function_time: None,
            attrs: Attrs::default(),
            catalog: CatalogRow::ASK,
        }
    }

    /// An event of a record that states no time (see `undated`).
    pub fn undated(origin: Arc<Origin>, line: u64, kind: Kind, text: String) -> Event {
        Event::new(undated(), origin, line, kind, text)
    }

    /// Whether the event's record stated no time (see `undated`).
    #[inline]
    pub fn is_undated(&self) -> bool {
        is_undated(&self.ts)
    }

    /// Rough heap and inline size, for buffers that must stay bounded in
    /// bytes (an SMF WQ row carries ~500 attributes; a trace line none).
    pub fn approx_bytes(&self) -> usize {
        std::mem::size_of::<Event>() + self.text.len() + self.attrs.approx_bytes()
    }

    pub fn path(&self) -> &str {
        &self.origin.path
    }

    pub fn format(&self) -> Format {
        self.origin.format
    }

    /// The first attribute with this key.
    #[inline]
    pub fn get(&self, key: Key) -> Option<&str> {
        self.attrs.key(key)
    }

    /// The first attribute with this name (`get` for a fixed name).
    pub fn attr(&self, name: &str) -> Option<&str> {
        self.attrs.get(name)
    }

    pub fn set(&mut self, key: Key, value: impl AsRef<str>) {
        self.attrs.push_key(key, value.as_ref());
    }

    /// `set` by name (a fixed name is stored as its key).
    pub fn set_attr(&mut self, name: &'static str, value: impl AsRef<str>) {
        self.attrs.push(AttrName::Borrowed(name), value.as_ref());
    }

    /// `set_attr` for a name read from the input.
    pub fn set_attr_named(&mut self, name: String, value: impl AsRef<str>) {
        self.attrs.push(AttrName::Owned(name), value.as_ref());
    }
}

/// Buffers of events the merge is done with, kept by the thread that
/// emptied them for the next events its readers build. Event-dense inputs
/// (job logs, container consoles) make an event every 160-240 bytes, and
/// allocating and freeing its text and attributes was a tenth of
/// `analyze`. Bounded in count and bytes, so memory stays flat.
struct Spare {
    texts: Vec<String>,
    attrs: Vec<Attrs>,
    /// Capacity held in `texts`, and in `attrs`: each within
    /// `SPARE_BYTES`, so long texts cannot crowd out attributes.
    text_bytes: usize,
    attr_bytes: usize,
}

thread_local! {
    static SPARE: RefCell<Spare> = const {
        RefCell::new(Spare {
            texts: Vec::new(),
            attrs: Vec::new(),
            text_bytes: 0,
            attr_bytes: 0,
        })
    };
}

/// At most this many buffers of each kind per thread (a batch of the
/// merge holds at most 4,096 events)...
const SPARE_MAX: usize = 4096;
/// ... of at most this many bytes of each kind ...
const SPARE_BYTES: usize = 512 << 10;
/// ... none larger than this (a 1 MB line's buffer is freed).
const SPARE_ONE: usize = 4 << 10;

/// An empty string with room for `n` bytes, from the thread's spare
/// buffers when it has one.
pub fn spare_text(n: usize) -> String {
    let got = with_spare(|s| {
        let t = s.texts.pop()?;
        s.text_bytes -= t.capacity();
        Some(t)
    });
    match got {
        Some(mut t) => {
            t.reserve(n);
            t
        }
        None => String::with_capacity(n),
    }
}

/// Whether a list holding `count` buffers of `held` bytes keeps one more
/// of `size` bytes.
fn keeps(count: usize, held: usize, size: usize) -> bool {
    size > 0 && size <= SPARE_ONE && count < SPARE_MAX && held + size <= SPARE_BYTES
}

/// What `take` gets from this thread's spare list. `try_with`: a thread
/// being torn down has none.
fn with_spare<T>(take: impl FnOnce(&mut Spare) -> Option<T>) -> Option<T> {
    SPARE.try_with(|s| take(&mut s.borrow_mut())).ok().flatten()
}

/// `s` in a string from the thread's spare buffers.
pub fn spare_copy(s: &str) -> String {
    let mut t = spare_text(s.len());
    t.push_str(s);
    t
}

impl Event {
    /// Gives back the room its text and attributes were built with (a
    /// reader reserves for the largest record): for an event that waits
    /// long, as the last events of each of 100,000 small files do in a
    /// merge.
    pub fn shrink_to_fit(&mut self) {
        self.text.shrink_to_fit();
        self.attrs.keys.shrink_to_fit();
        self.attrs.values.shrink_to_fit();
    }

    /// Hands the event's text, return code and attribute buffers to this
    /// thread's spare buffers (`spare_text`, `Attrs::spare`); the rest is
    /// dropped.
    pub fn recycle(self) {
        with_spare(|s| {
            self.give(s);
            None::<()>
        });
    }

    /// `recycle` of every event, the thread's spare buffers looked up once
    /// for all (a batch of events is emptied at a time).
    pub fn recycle_all(events: impl IntoIterator<Item = Event>) {
        let mut events = events.into_iter();
        with_spare(|s| {
            for e in &mut events {
                e.give(s);
            }
            None::<()>
        });
        // A thread being torn down keeps no spares: the rest are dropped.
        events.for_each(drop);
    }

    fn give(self, s: &mut Spare) {
        let Event {
            text,
            rc,
            mut attrs,
            ..
        } = self;
        for mut text in std::iter::once(text).chain(rc) {
            let t = text.capacity();
            if keeps(s.texts.len(), s.text_bytes, t) {
                text.clear();
                s.text_bytes += t;
                s.texts.push(text);
            }
        }
        let a = attrs.capacity_bytes();
        if keeps(s.attrs.len(), s.attr_bytes, a) {
            attrs.clear();
            s.attr_bytes += a;
            s.attrs.push(attrs);
        }
    }
}

/// An event's attributes, in the order they were set. The values live in
/// one string: a log record carries 10 to 30 of them, and a `String` each
/// made allocation the larger part of reading event-dense inputs (job logs,
/// container consoles).
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Attrs {
    /// Each name with the end of its value in `values` (the start is the
    /// previous entry's end) and, for a name that is not a `Key`, its
    /// `tag` (for a key, its name's length).
    keys: Vec<(Slot, u32, u32)>,
    values: String,
    /// A bit per name present: `Key::bit` for a key, `bit` of its tag
    /// for another name. Passes ask every event for a dozen names it
    /// mostly does not have, and a miss is then decided without scanning.
    present: u64,
}

/// An attribute's name as stored: a fixed name by its key.
#[derive(Clone, PartialEq, Eq)]
enum Slot {
    Key(Key),
    Name(AttrName),
}

impl Slot {
    #[inline]
    fn as_str(&self) -> &str {
        match self {
            Slot::Key(k) => k.as_str(),
            Slot::Name(n) => n,
        }
    }
}

/// A name's length and first and last bytes: look-ups compare these
/// before the names (passes ask for a dozen attributes of every event, and
/// most names of an event have the length of another).
#[inline]
fn tag(name: &str) -> u32 {
    let b = name.as_bytes();
    match (b.first(), b.last()) {
        (Some(&f), Some(&l)) => (b.len().min(0xffff) as u32) | (f as u32) << 16 | (l as u32) << 24,
        _ => 0,
    }
}

/// The bit of `present` a name with this tag sets.
#[inline]
fn bit(tag: u32) -> u64 {
    1 << (tag.wrapping_mul(0x9E37_79B1) >> 26)
}

impl Attrs {
    /// Empty attributes with room for `n` of `bytes` bytes in all, from
    /// the thread's spare buffers when it has some.
    pub fn spare(n: usize, bytes: usize) -> Attrs {
        let got = with_spare(|s| {
            let a = s.attrs.pop()?;
            s.attr_bytes -= a.capacity_bytes();
            Some(a)
        });
        let mut a = got.unwrap_or_default();
        a.reserve(n, bytes);
        a
    }

    /// Heap bytes held, used or not.
    fn capacity_bytes(&self) -> usize {
        self.keys.capacity() * std::mem::size_of::<(Slot, u32, u32)>() + self.values.capacity()
    }

    /// Emptied, keeping the buffers.
    fn clear(&mut self) {
        self.keys.clear();
        self.values.clear();
        self.present = 0;
    }

    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Public beside `len` (clippy's `len_without_is_empty`).
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// Room for `n` more attributes of `bytes` bytes of values in all.
    pub(crate) fn reserve(&mut self, n: usize, bytes: usize) {
        self.keys.reserve(n);
        self.values.reserve(bytes);
    }

    /// Add a value by name (a fixed name is stored as its key).
    pub fn push(&mut self, name: AttrName, value: &str) {
        match Key::from_name(&name) {
            Some(k) => self.push_key(k, value),
            None => self.push_slot(Slot::Name(name), value),
        }
    }

    /// Add a value under a key.
    #[inline]
    pub fn push_key(&mut self, key: Key, value: &str) {
        self.push_slot(Slot::Key(key), value);
    }

    /// Add a value under a name the caller found is not a key's
    /// (`Key::from_name` gave `None`), without looking again: readers that
    /// name many attributes from a header look each name up once.
    pub fn push_name(&mut self, name: AttrName, value: &str) {
        debug_assert!(Key::from_name(&name).is_none(), "{name} is a key");
        self.push_slot(Slot::Name(name), value);
    }

    fn push_slot(&mut self, slot: Slot, value: &str) {
        // Values past 4 GB in one event cannot be stored; such a value is
        // cut (no reader keeps lines that long).
        let room = (u32::MAX as usize).saturating_sub(self.values.len());
        let mut cut = value.len().min(room);
        while !value.is_char_boundary(cut) {
            cut -= 1;
        }
        self.values.push_str(&value[..cut]);
        let t = match &slot {
            // The name's length, for `approx_bytes`.
            Slot::Key(k) => {
                self.present |= k.bit();
                k.as_str().len() as u32
            }
            Slot::Name(name) => {
                let t = tag(name);
                self.present |= bit(t);
                t
            }
        };
        self.keys.push((slot, self.values.len() as u32, t));
    }

    /// The first value with this key.
    #[inline]
    pub fn key(&self, key: Key) -> Option<&str> {
        if self.present & key.bit() == 0 {
            return None;
        }
        let mut start = 0;
        for (k, end, _) in &self.keys {
            if *k == Slot::Key(key) {
                return Some(&self.values[start..*end as usize]);
            }
            start = *end as usize;
        }
        None
    }

    /// The first value with this name (`key` for a fixed name).
    #[inline]
    pub(crate) fn get(&self, name: &str) -> Option<&str> {
        if let Some(k) = Key::from_name(name) {
            return self.key(k);
        }
        let want = tag(name);
        if self.present & bit(want) == 0 {
            return None;
        }
        let mut start = 0;
        for (k, end, t) in &self.keys {
            if let Slot::Name(k) = k
                && *t == want
                && crate::attr_key::same_name(k.as_bytes(), name.as_bytes())
            {
                return Some(&self.values[start..*end as usize]);
            }
            start = *end as usize;
        }
        None
    }

    pub fn iter(&self) -> AttrIter<'_> {
        AttrIter {
            attrs: self,
            i: 0,
            start: 0,
        }
    }

    /// Keep the attributes `keep` says yes to, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(&str, &str) -> bool) {
        if self.iter().all(|(k, v)| keep(k, v)) {
            return;
        }
        let old = std::mem::take(self);
        self.reserve(old.len(), old.values.len());
        let mut start = 0;
        for (k, end, _) in old.keys {
            let v = &old.values[start..end as usize];
            start = end as usize;
            if keep(k.as_str(), v) {
                self.push_slot(k, v);
            }
        }
    }

    /// Replace every value by what `f` makes of it (name, value).
    pub(crate) fn map_values(&mut self, mut f: impl FnMut(&str, &str) -> String) {
        let old = std::mem::take(self);
        self.reserve(old.len(), old.values.len());
        let mut start = 0;
        for (k, end, _) in old.keys {
            let v = f(k.as_str(), &old.values[start..end as usize]);
            start = end as usize;
            self.push_slot(k, &v);
        }
    }

    /// Rough heap size with a share of the event's inline size per entry.
    pub(crate) fn approx_bytes(&self) -> usize {
        self.values.len()
            + self
                .keys
                .iter()
                .map(|(_, _, t)| (t & 0xffff) as usize + 48)
                .sum::<usize>()
    }
}

impl std::fmt::Debug for Attrs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<N: Into<AttrName>, V: AsRef<str>> FromIterator<(N, V)> for Attrs {
    fn from_iter<I: IntoIterator<Item = (N, V)>>(iter: I) -> Self {
        let mut a = Attrs::default();
        for (k, v) in iter {
            a.push(k.into(), v.as_ref());
        }
        a
    }
}

impl<'a> IntoIterator for &'a Attrs {
    type Item = (&'a str, &'a str);
    type IntoIter = AttrIter<'a>;
    fn into_iter(self) -> AttrIter<'a> {
        self.iter()
    }
}

/// The attributes as (name, value), in order.
pub struct AttrIter<'a> {
    attrs: &'a Attrs,
    i: usize,
    start: usize,
}

impl<'a> Iterator for AttrIter<'a> {
    type Item = (&'a str, &'a str);
    fn next(&mut self) -> Option<Self::Item> {
        let (k, end, _) = self.attrs.keys.get(self.i)?;
        let v = &self.attrs.values[self.start..*end as usize];
        self.i += 1;
        self.start = *end as usize;
        Some((k.as_str(), v))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.attrs.keys.len() - self.i;
        (n, Some(n))
    }
}

impl ExactSizeIterator for AttrIter<'_> {}

/// The attributes whose values `--redact` learns as names (hosts, users,
/// queue managers). Here, below readers and reports both, because the SMF
/// reader keeps only the columns that are read, and these are among them.
pub const NAME_ATTRS: [&str; 10] = [
    "host",
    "address",
    "conname",
    "Connection_Name",
    "Channel_Connection_Name",
    "user",
    "MVS_UserId",
    "Operator_ID",
    "qmgr",
    "QMgr",
];

#[cfg(test)]
mod tests {
    #[test]
    fn the_undated_marker_is_apart_from_every_readable_time() {
        use super::*;
        let u = undated();
        assert!(is_undated(&u));
        assert_eq!(u.timestamp(), 8_210_266_876_799);
        // No nanosecond count: the merge keys it after every dated row.
        assert!(u.timestamp_nanos_opt().is_none());
        // Past 2262 (left out by the merge as out of range) is not it.
        for t in [
            "2262-04-12T00:00:00Z",
            "9999-12-31T23:59:59.999999999+14:00",
        ] {
            let t = DateTime::parse_from_rfc3339(t).unwrap();
            assert!(!is_undated(&t) && t < u, "{t}");
        }
        let o = Origin::new(Arc::from("x"), Format::UNKNOWN);
        assert!(Event::undated(o.clone(), 1, Kind::LogRecord, String::new()).is_undated());
        assert!(
            !Event::new(
                DateTime::UNIX_EPOCH.fixed_offset(),
                o,
                1,
                Kind::Text,
                String::new()
            )
            .is_undated()
        );
    }

    #[test]
    fn formats_are_their_declarations() {
        use super::*;
        static A: FormatInfo = FormatInfo {
            name: "a-format",
            family: FormatFamily::Trace,
            states_local_time: true,
            dataset: "ibmmq.a",
            host_is_writer: false,
        };
        // Another declaration of the same name is the same format.
        static A2: FormatInfo = FormatInfo {
            name: "a-format",
            family: FormatFamily::Other,
            states_local_time: false,
            dataset: "ibmmq.b",
            host_is_writer: true,
        };
        let a = Format::of(&A);
        assert_eq!(a, Format::of(&A));
        assert_eq!(a, Format::of(&A2));
        assert_ne!(a, Format::UNKNOWN);
        assert!(a < Format::UNKNOWN);
        assert!(a.states_local_time() && !Format::UNKNOWN.states_local_time());
        assert_eq!((a.as_str(), a.family()), ("a-format", FormatFamily::Trace));
        assert_eq!(serde_json::to_string(&a).unwrap(), "\"a-format\"");
        assert_eq!(format!("{:?}", Format::UNKNOWN), "unknown");
    }

    #[test]
    fn event_stays_small() {
        // Events are moved through buffers and merges by the million.
        let n = std::mem::size_of::<super::Event>();
        assert!(n <= 256, "Event is {n} bytes");
        eprintln!("Event: {n} bytes");
    }

    /// What `Event::recycle` keeps on this thread: texts, attributes and
    /// the bytes of each.
    fn spare_held() -> (usize, usize, usize, usize) {
        super::SPARE.with(|s| {
            let s = s.borrow();
            (s.texts.len(), s.attrs.len(), s.text_bytes, s.attr_bytes)
        })
    }

    #[test]
    fn a_batch_recycled_keeps_what_each_recycled_keeps() {
        use super::*;
        let held = |batch: bool| {
            std::thread::spawn(move || {
                let origin = Origin::new("f".into(), Format::UNKNOWN);
                let ts = DateTime::parse_from_rfc3339("2024-03-05T10:00:00+00:00").unwrap();
                let events: Vec<Event> = (0..SPARE_MAX + 50)
                    .map(|i| {
                        let mut e =
                            Event::new(ts, origin.clone(), 1, Kind::Exit, "x".repeat(i % 300));
                        e.rc = (i % 3 == 0).then(|| spare_copy("2035"));
                        e.attrs = Attrs::spare(2, i % 40);
                        e
                    })
                    .collect();
                match batch {
                    true => Event::recycle_all(events),
                    false => events.into_iter().for_each(Event::recycle),
                }
                spare_held()
            })
            .join()
            .unwrap()
        };
        let got = held(true);
        assert_eq!(got, held(false));
        assert!(got.0 > 100 && got.1 > 100, "{got:?}");
    }

    #[test]
    fn recycled_buffers_come_back_empty_and_stay_bounded() {
        use super::*;
        // Tests run on threads of their own: this thread's spare list
        // starts empty.
        let origin = Origin::new("f".into(), Format::UNKNOWN);
        let ts = DateTime::parse_from_rfc3339("2024-03-05T10:00:00+00:00").unwrap();
        let event = |text: String| {
            let mut e = Event::new(ts, origin.clone(), 1, Kind::LogRecord, text);
            e.attrs = Attrs::spare(4, 32);
            e.set_attr("channel", "APP1.SVRCONN");
            e.set_attr("host", "10.1.1.1");
            e
        };
        event(spare_copy("AMQ9209E: Connection to host ...")).recycle();
        assert_eq!(spare_held().0, 1);
        assert_eq!(spare_held().1, 1);
        // What comes back holds nothing of the event it served.
        let t = spare_text(4);
        assert!(t.is_empty() && t.capacity() >= 32);
        let a = Attrs::spare(2, 8);
        assert!(a.is_empty() && a.get("channel").is_none() && a.get("host").is_none());
        assert_eq!(a.iter().count(), 0);
        assert_eq!(spare_held(), (0, 0, 0, 0));
        // A return code's buffer comes back beside the text's.
        let mut e = Event::new(ts, origin.clone(), 2, Kind::Exit, spare_copy("} MQGET"));
        e.rc = Some(spare_copy("2033"));
        e.recycle();
        assert_eq!(spare_held().0, 2);
        let (a, b) = (spare_text(1), spare_text(1));
        assert!(a.is_empty() && b.is_empty());
        assert_eq!(spare_held().0, 0);
        // A 1 MB line's buffer is not kept.
        event("x".repeat(SPARE_ONE + 1)).recycle();
        assert_eq!(spare_held().0, 0);
        // However many events are handed back, the list stays within its
        // count and bytes.
        for i in 0..SPARE_MAX + 100 {
            event(format!("{i:0>200}")).recycle();
        }
        let (texts, attrs, text_bytes, attr_bytes) = spare_held();
        assert!(texts <= SPARE_MAX && attrs <= SPARE_MAX, "{texts} {attrs}");
        assert!(text_bytes <= SPARE_BYTES && attr_bytes <= SPARE_BYTES);
        // Long texts filled their share; the attributes kept theirs.
        assert!(texts > 0 && attrs > 0, "{texts} {attrs}");
    }

    #[test]
    fn attrs_keep_order_values_and_first_of_a_name() {
        let mut a = super::Attrs::default();
        assert!(a.is_empty() && a.get("x").is_none());
        a.push("x".into(), "1");
        a.push("é".into(), "");
        a.push("x".into(), "two");
        a.push(String::from("owned").into(), "ü3");
        assert_eq!(a.len(), 4);
        assert_eq!(a.get("x"), Some("1"));
        assert_eq!(a.get("é"), Some(""));
        assert_eq!(a.get("owned"), Some("ü3"));
        let all: Vec<_> = a.iter().collect();
        assert_eq!(all, [("x", "1"), ("é", ""), ("x", "two"), ("owned", "ü3")]);
        assert_eq!(a.iter().len(), 4);
        let mut b = a.clone();
        b.retain(|k, v| !(k == "x" && v == "1"));
        assert_eq!(b.get("x"), Some("two"));
        assert_eq!(b.len(), 3);
        b.map_values(|k, v| format!("{k}={v}"));
        let all: Vec<_> = b.iter().collect();
        assert_eq!(all, [("é", "é="), ("x", "x=two"), ("owned", "owned=ü3")]);
        let c: super::Attrs = [("a", "1"), ("b", "2")].into_iter().collect();
        assert_eq!(format!("{c:?}"), r#"[("a", "1"), ("b", "2")]"#);
    }

    /// A fixed name is found by its key and by its name however it was
    /// set; names that are not keys beside them keep their order.
    #[test]
    fn keys_and_names_agree() {
        use super::{AttrName, Attrs, Key};
        let mut a = Attrs::default();
        a.push(AttrName::Borrowed("channel"), "C1");
        a.push_key(Key::Host, "h1");
        a.push(AttrName::Owned("Channel_Name".into()), "CN");
        a.push(AttrName::Owned("host".into()), "h2");
        a.push_key(Key::Channel, "C2");
        assert_eq!(a.key(Key::Channel), Some("C1"));
        assert_eq!(a.get("channel"), Some("C1"));
        assert_eq!(a.key(Key::Host), Some("h1"));
        assert_eq!(a.get("host"), Some("h1"));
        assert_eq!(a.get("Channel_Name"), Some("CN"));
        assert_eq!(a.key(Key::Qmgr), None);
        assert_eq!(a.get("qmgr"), None);
        let all: Vec<_> = a.iter().collect();
        assert_eq!(
            all,
            [
                ("channel", "C1"),
                ("host", "h1"),
                ("Channel_Name", "CN"),
                ("host", "h2"),
                ("channel", "C2")
            ]
        );
        a.retain(|k, v| !(k == "channel" && v == "C1"));
        assert_eq!(a.key(Key::Channel), Some("C2"));
        a.map_values(|k, v| format!("{k}:{v}"));
        assert_eq!(a.key(Key::Host), Some("host:h1"));
        assert_eq!(a.get("Channel_Name"), Some("Channel_Name:CN"));
        a.clear();
        assert_eq!(a.key(Key::Host), None);
        assert!(a.get("Channel_Name").is_none());
    }

    /// Look-ups find what a plain scan finds, for names of every length
    /// around the compare's steps and names that share tags.
    #[test]
    fn attr_lookups_are_plain_scans() {
        let mut rng = crate::testrng::Rng::new(11);
        let alphabet = b"ab_";
        let name = |rng: &mut crate::testrng::Rng| -> String {
            let len = rng.below(19);
            (0..len).map(|_| alphabet[rng.below(3)] as char).collect()
        };
        for _ in 0..2000 {
            let mut a = super::Attrs::default();
            let mut plain: Vec<(String, String)> = Vec::new();
            for i in 0..rng.below(20) {
                let k = name(&mut rng);
                a.push(k.clone().into(), &i.to_string());
                plain.push((k, i.to_string()));
            }
            for _ in 0..20 {
                let k = name(&mut rng);
                let want = plain.iter().find(|(n, _)| *n == k).map(|(_, v)| v.as_str());
                assert_eq!(a.get(&k), want, "{k:?} in {plain:?}");
            }
            for (k, _) in &plain {
                let first = plain.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str());
                assert_eq!(a.get(k), first);
            }
        }
        assert!(crate::attr_key::same_name(
            b"comment_insert1",
            b"comment_insert1"
        ));
        assert!(!crate::attr_key::same_name(
            b"comment_insert1",
            b"comment_insert2"
        ));
        assert!(!crate::attr_key::same_name(
            b"comment_xnsert1",
            b"comment_insert1"
        ));
        assert!(!crate::attr_key::same_name(b"abcdeXgh", b"abcdefgh"));
        assert!(!crate::attr_key::same_name(b"abXde", b"abcde"));
    }
}
