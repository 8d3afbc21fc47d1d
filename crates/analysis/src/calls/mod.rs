//! MQI calls in traces: every API call counted, timed and its outcome
//! decoded, per process and verb (or thread, connection, verb alone).
//!
//! The aggregator reads the same events as the passes (entries, exits and
//! the text lines that state a completion or reason code) and keeps, per
//! thread, only the MQI calls still open; per row, counts, a reason map
//! and a bounded latency sketch. Memory is flat in the number of calls.
//!
//! # What is one call
//!
//! A trace shows one application call at several layers on the same
//! thread: `MQGET` (the stub), `zstMQGET` (the API layer), `trmzstMQGET` /
//! `tmzstMQGET` (client thread manager), nested inside each other. All
//! fold into the verb `MQGET`, and only the *outermost* one on the thread
//! counts: an MQI entry while another MQI call is open on the same thread
//! is an inner layer (or a call an exit makes) and is not counted again.
//! Helpers such as `zstMQCRTMH_CheckParms` are not verbs.
//!
//! When a trace starts inside a call, the inner layer can be seen whole
//! and the outer one only by its exit; that exit then turns the inner call
//! just counted into one `open` call (its true duration is unknown).
//!
//! # Outcomes
//!
//! The outermost exit's `rc=` decides (`mqrc::decode_rc`). A trace text
//! line on the thread that states `Reason=` (optionally with `CompCode=`)
//! inside the call, or after its exit before the thread's next MQI call,
//! supplies the reason when the exit said `OK` or nothing. `calls` =
//! `ok` + `warnings` + `failed` + `open`; an `open` call (entry or exit
//! outside the trace) has no outcome and no duration.

mod keys;
mod outcome;
mod sketch;

use crate::passes::name_memo::{NameIds, NameMemo};
use keys::*;
use mqdiag_model::event::{Event, Kind, Ts};
use mqdiag_model::fileinfo::FileInfo;
use mqdiag_model::findings::Evidence;
use mqdiag_model::mqrc::{self, Class, Outcome};
use mqdiag_model::runhash::RunMap;
use sketch::Sketch;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// The MQI verbs counted.
pub const VERBS: &[&str] = &[
    "MQCONN", "MQCONNX", "MQDISC", "MQOPEN", "MQCLOSE", "MQPUT", "MQPUT1", "MQGET", "MQINQ",
    "MQSET", "MQCMIT", "MQBACK", "MQBEGIN", "MQSUB", "MQSUBRQ", "MQCB", "MQCTL", "MQSTAT",
    "MQCRTMH", "MQDLTMH", "MQSETMP", "MQINQMP", "MQDLTMP", "MQBUFMH", "MQMHBUF",
];

/// Layer prefixes of the same call in traces (see `formats/trace-fmt.md`
/// §3.1): the API layer `zst`, the client thread-manager stubs `tmzst` and
/// `trmzst`, and `MQI:` as some levels are expected to write it.
const PREFIXES: &[&str] = &["", "zst", "tmzst", "trmzst", "MQI:"];

/// The verb a traced function stands for, if any.
pub(crate) fn verb_of(function: &str) -> Option<&'static str> {
    let b = function.as_bytes();
    for p in PREFIXES.iter().rev() {
        // Every verb starts `MQ`: most names are refused by two bytes.
        if b.len() > p.len() + 2
            && b[p.len()..].starts_with(b"MQ")
            && b[..p.len()].eq_ignore_ascii_case(p.as_bytes())
            && let Some(v) = VERBS.iter().find(|v| v.as_bytes() == &b[p.len()..])
        {
            return Some(v);
        }
    }
    None
}

/// Whether the readers must deliver this function: a verb under one of
/// `PREFIXES` as the notes write it.
pub(crate) fn traced_name(function: &str) -> bool {
    let b = function.as_bytes();
    PREFIXES.iter().any(|p| {
        b.len() > p.len() + 2
            && b[p.len()..].starts_with(b"MQ")
            && b.starts_with(p.as_bytes())
            && VERBS.iter().any(|v| v.as_bytes() == &b[p.len()..])
    })
}

/// What every traced name (a prefix and a verb) contains: the readers
/// look for it (one search) rather than for each name.
pub(crate) const ANCHOR: &str = "MQ";

/// Text a trace line must contain to possibly state a call's reason.
pub(crate) const KEYWORDS: &[&str] = &["Reason", "CompCode"];

/// The interest for reading only what `calls` needs.
pub fn interest() -> mqdiag_readers::source::Interest {
    mqdiag_readers::source::Interest::new(&[], &[], KEYWORDS)
        .with_function_anchor(ANCHOR, traced_name)
}

/// The outcome a text line states: `CompCode=2 Reason=2035`,
/// `Reason(MQRC_NOT_AUTHORIZED)`, `Reason: 2033`.
pub(crate) fn text_outcome(text: &str) -> Option<Outcome> {
    outcome::stated(text)
}

/// How rows are grouped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum By {
    #[default]
    Process,
    Thread,
    Connection,
    Verb,
}

/// A row's identity. A process is a host and a pid: while reading, the
/// trace file (its wrap group) stands for the host; `rows` puts the host
/// the file's header names in its place (files of one host and pid fold
/// into one row), and keeps the file when the host is unknown.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Key {
    pub(crate) place: Option<Arc<str>>,
    pub pid: Option<u32>,
    pub tid: Option<u32>,
    pub ident: Option<String>,
    pub verb: &'static str,
}

impl Key {
    /// A row of a verb alone (no process, thread or connection).
    fn of_verb(verb: &'static str) -> Key {
        Key {
            place: None,
            pid: None,
            tid: None,
            ident: None,
            verb,
        }
    }
}

/// One reason code's tally in a row.
#[derive(Debug, Clone, Default)]
pub struct ReasonStat {
    pub count: u64,
    pub(crate) class: Option<Class>,
    pub(crate) first: Option<Ts>,
    pub(crate) last: Option<Ts>,
    /// The first few lines that stated it.
    pub(crate) evidence: Vec<Evidence>,
}

/// Evidence lines kept per reason.
const REASON_EVIDENCE: usize = 3;

impl Stats {
    /// Add another row's tallies (two files of one process).
    pub(crate) fn merge(&mut self, o: Stats) {
        self.calls += o.calls;
        self.ok += o.ok;
        self.warnings += o.warnings;
        self.failed += o.failed;
        self.open += o.open;
        self.total_us = self.total_us.saturating_add(o.total_us);
        self.timing = self.timing.or(o.timing);
        if o.max_us.is_some_and(|m| self.max_us.is_none_or(|s| m > s)) {
            self.max_us = o.max_us;
            self.max_at = o.max_at;
        }
        self.sketch.merge(o.sketch);
        for (k, r) in o.reasons {
            let m = self.reasons.entry(k).or_default();
            m.count += r.count;
            m.class = m.class.or(r.class);
            m.first = match (m.first, r.first) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            m.last = match (m.last, r.last) {
                (Some(a), Some(b)) => Some(a.max(b)),
                (a, b) => a.or(b),
            };
            for e in r.evidence {
                if m.evidence.len() < REASON_EVIDENCE {
                    m.evidence.push(e);
                }
            }
        }
    }
}

/// One row's tallies.
#[derive(Debug, Clone, Default)]
pub struct Stats {
    pub calls: u64,
    pub ok: u64,
    pub warnings: u64,
    pub failed: u64,
    pub open: u64,
    pub total_us: u64,
    pub max_us: Option<u64>,
    pub max_at: Option<(Arc<str>, u64)>,
    pub(crate) sketch: Sketch,
    /// Keyed by the reason as the JSON shows it: the decimal code, or the
    /// return code as written when it is not an MQ reason.
    pub reasons: BTreeMap<String, ReasonStat>,
    /// Where the durations come from when not from a formatted trace's
    /// entries and exits (`TIMED_BY_QMGR`: an activity trace).
    pub timing: Option<&'static str>,
}

/// `Stats::timing` of calls an activity trace timed: the queue manager's
/// own duration of each call, not the application's.
pub const TIMED_BY_QMGR: &str = "activity trace: the queue manager's time in the call";

/// A call on a thread, from its outermost entry.
#[derive(Debug)]
struct OpenCall {
    verb: &'static str,
    /// Its traced name (`Calls::name_ids`).
    function: u32,
    ident: Option<Arc<str>>,
    start: Ts,
    /// A reason stated by a text line inside the call; whether the call's
    /// row held that reason's lines already (`quoted`: it will not need
    /// asking again when the exit states the same reason). In place:
    /// a waiting call takes as much room, and a failing call has one.
    stated: Option<(Outcome, Quote, Ts, bool)>,
}

/// A call's evidence line, `None` when it goes unquoted (`unquoted`).
/// Boxed: most calls' lines go unquoted, and a thread's waiting call is
/// kept with it for as long as the thread is.
type Quote = Option<Box<Evidence>>;

/// An event's line as a call's evidence.
fn quote_of(e: &Event) -> Quote {
    Some(Box::new(Evidence::from_event(e)))
}

/// A finished call waiting for a reason stated just after its exit.
#[derive(Debug)]
struct Done {
    verb: &'static str,
    function: u32,
    ident: Option<Arc<str>>,
    pid: u32,
    tid: u32,
    /// Its thread's wrap group (`Calls::places`).
    place: u32,
    path: Arc<str>,
    line: u64,
    ts: Ts,
    outcome: Option<Outcome>,
    evidence: Quote,
    elapsed: Option<u64>,
}

/// A thread's calls: its outermost call open, or the last one finished
/// and waiting for a reason stated after its exit, never both (a new
/// outermost call counts the one waiting first). One allocation of about
/// 150 bytes: a trim reads thousands of threads' states, and a trace of a
/// million processes makes one per process.
#[derive(Debug, Default)]
enum Thread {
    #[default]
    Idle,
    /// The outermost call, and the traced names (`Calls::name_ids`) of
    /// the layers open inside it, innermost last: tracked to keep the
    /// nesting straight, never counted.
    Open(OpenCall, Vec<u32>),
    Waiting(Done),
}

impl Thread {
    /// Where in the open calls, outermost 0, the innermost layer named
    /// `name` is.
    fn position(&self, name: u32) -> Option<usize> {
        match self {
            Thread::Open(call, inner) => inner
                .iter()
                .rposition(|f| *f == name)
                .map(|i| i + 1)
                .or_else(|| (call.function == name).then_some(0)),
            _ => None,
        }
    }
}

/// The thread a trace event belongs to: the file's wrap group (`AMQ5555.0`
/// for `AMQ5555.0.TRS` and `AMQ5555.0.FMT`, one process's trace written in
/// two files, whose calls may open in one and close in the other; its
/// index in `Calls::places`), PID and TID. Integers: hashed once each,
/// never a path per event.
type ThreadKey = (u32, u32, u32);

fn group_of(p: &Arc<str>) -> Arc<str> {
    match p.rsplit_once('.') {
        Some((stem, ext))
            if ["TRS", "FMT", "TRC"]
                .iter()
                .any(|x| x.eq_ignore_ascii_case(ext)) =>
        {
            Arc::from(stem)
        }
        _ => p.clone(),
    }
}

/// Evidence for a call whose line is never quoted (it ended OK or open).
fn unquoted() -> Evidence {
    Evidence {
        path: String::new(),
        line: 0,
        text: String::new(),
        offset: None,
    }
}

/// A row's key for a call of `verb` on a thread of `place` (a trace file
/// or wrap group's index), grouped by `by`.
fn key_of(
    by: By,
    place: u32,
    verb: &'static str,
    pid: u32,
    tid: u32,
    ident: Option<&str>,
) -> RowKey {
    let place = if by == By::Verb { NO_PLACE } else { place };
    let (pid, tid, ident) = match by {
        By::Process => (Some(pid), None, None),
        By::Thread => (Some(pid), Some(tid), None),
        By::Connection => (
            Some(pid),
            None,
            Some(
                ident
                    .map(str::to_string)
                    .unwrap_or_else(|| format!("{pid}.{tid}")),
            ),
        ),
        By::Verb => (None, None, None),
    };
    RowKey {
        place,
        pid,
        tid,
        ident,
        verb,
    }
}

/// Whether a failed call of row `k` goes unquoted: its verb is not
/// counted, or the row's reason already holds its evidence lines. A row
/// not kept apart once the table is full never will be: its calls go to
/// the verb's "other" row (`finish_call`), whose quotes count.
fn quoted(
    verbs: &Option<Vec<String>>,
    rows: &RunMap<RowKey, Stats>,
    others: &BTreeMap<&'static str, Others>,
    k: &RowKey,
    o: &Outcome,
) -> bool {
    let mut digits = [0u8; 10];
    let rk = reason_key(o, &mut digits).unwrap_or_default();
    let full = |s: &Stats| {
        s.reasons
            .get(rk)
            .is_some_and(|r| r.evidence.len() >= REASON_EVIDENCE)
    };
    !wanted(verbs, k.verb)
        || match rows.get(k) {
            Some(s) => full(s),
            None if rows.len() >= MAX_ROWS => others.get(k.verb).is_some_and(|o| full(&o.stats)),
            None => false,
        }
}

/// Whether `verbs` (none: every verb) counts `verb`.
fn wanted(verbs: &Option<Vec<String>>, verb: &str) -> bool {
    verbs.as_ref().is_none_or(|v| v.iter().any(|w| w == verb))
}

/// Closed threads' boxes kept for new threads (`Calls::spare`): a trim's
/// worth, about 600 KB.
const SPARE_THREADS: usize = mqdiag_model::budget::MAX_THREADS / 4;

/// Most MQI calls kept open per thread; deeper nesting drops the innermost
/// (only the outermost is ever counted).
const MAX_NEST: usize = 64;

/// Rows (processes, threads or connections by verb) kept apart; the
/// calls of the rest are counted in one row per verb, which says how many
/// it holds. A row takes a few hundred bytes (its latency sketch, reasons
/// and evidence): this keeps the table within a few MB of the run budget
/// however many processes a trace brings.
pub const MAX_ROWS: usize = 20_000;

/// Distinct entities an "other" row counts exactly (8 bytes each); past
/// this it says "at least".
const MAX_OTHER_KEYS: usize = 2_000_000;

/// The calls of the entities past `MAX_ROWS`, for one verb.
#[derive(Debug, Default)]
struct Others {
    stats: Stats,
    /// Hashes of the entities (place, pid, tid, connection) counted
    /// (`entity`: keyed, as the entities come from the input), so the set
    /// takes them as they are.
    keys: Distinct,
}

impl Others {
    /// What stands for `key`'s entity in `keys`: its hash keyed per run
    /// (`RunKeyed`, 2-independent: two entities share one with
    /// probability about 2^-64, whatever the input), as an unkeyed one
    /// lets a crafted entity pass for another and go uncounted. SipHash
    /// did the same at twice the cost, asked of every call past the rows.
    fn entity(&self, key: &RowKey) -> u64 {
        use std::hash::BuildHasher;
        mqdiag_model::runhash::RunKeyed.hash_one(key)
    }
}

/// The aggregator: feed events in time order, then `rows`.
#[derive(Debug, Default)]
pub(crate) struct Calls {
    by: By,
    verbs: Option<Vec<String>>,
    /// Keyed by numbers from the input: the std keyed hasher, here and in
    /// every map below, so no crafted input can make them collide.
    /// Boxed: trimming leaves tombstones that can make the table double
    /// (hashbrown resizes when more than half is full); a table of
    /// pointers doubles by a few hundred KB, one of whole threads by 9 MB.
    /// With each thread, when it was last seen (`clock`), to close those
    /// seen least recently when there are too many: beside the box, as a
    /// trim reads every thread's and a box apiece was a cache miss apiece.
    threads: RunMap<ThreadKey, (u64, Box<Thread>)>,
    /// Boxes of threads a trim closed, for new threads to take (at most
    /// `SPARE_THREADS`): a trace of a new process on every few lines
    /// otherwise freed and allocated one per process, and the allocator
    /// returned the pages a trim emptied only to fault them in again.
    /// (The boxes themselves are what is kept, hence a vector of them.)
    #[allow(clippy::vec_box)]
    spare: Vec<Box<Thread>>,
    /// Each path's wrap group (an index into `places`), worked out once
    /// per file; the last path asked, to spare the look-up.
    groups: HashMap<Arc<str>, u32>,
    last_path: Option<(Arc<str>, u32)>,
    places: Vec<Arc<str>>,
    place_ids: HashMap<Arc<str>, u32>,
    rows: RunMap<RowKey, Stats>,
    /// Per verb, the calls of processes (threads, connections) past the
    /// rows' budget (`MAX_ROWS`): one "other" row each.
    others: BTreeMap<&'static str, Others>,
    /// Events observed on threads so far.
    clock: u64,
    /// The program activity trace names for each process (by wrap group
    /// and pid): one file can hold several applications, and the file's
    /// facts name only the first.
    programs: HashMap<(Arc<str>, u32), Arc<str>>,
    /// The verb of each traced function name and the name's number in
    /// `name_ids`, remembered.
    verb_memo: NameMemo<Option<(&'static str, u32)>>,
    /// A number for each traced name of a verb: threads' stacks hold
    /// these, not the readers' shared `Arc`s, whose counts the reader
    /// thread updates for every event (a clone or drop here made it move
    /// between cores). Bounded: `verb_of` takes a verb under one of a few
    /// prefixes, whatever their case (fewer than 3,000 names).
    name_ids: NameIds,
}

impl Calls {
    /// Group by `by`; only these verbs when given.
    pub(crate) fn new(by: By, verbs: Option<Vec<String>>) -> Calls {
        Calls {
            by,
            verbs: verbs.map(|v| v.into_iter().map(|s| s.to_ascii_uppercase()).collect()),
            ..Default::default()
        }
    }

    /// A call's session ident, kept only where rows are by connection
    /// (the other groupings never read it, and each clone of the reader's
    /// `Arc` is an atomic operation on a line the reader writes).
    fn ident_of(by: By, ident: Option<&Arc<str>>) -> Option<Arc<str>> {
        match by {
            By::Connection => ident.cloned(),
            _ => None,
        }
    }

    fn thread_key(&mut self, e: &Event, pid: u32, tid: u32) -> ThreadKey {
        (self.place_of(&e.origin.path), pid, tid)
    }

    /// The index in `places` of a path's wrap group.
    fn place_of(&mut self, path: &Arc<str>) -> u32 {
        if let Some((p, id)) = &self.last_path
            && Arc::ptr_eq(p, path)
        {
            return *id;
        }
        let id = match self.groups.get(path) {
            Some(id) => *id,
            None => {
                let g = group_of(path);
                let id = match self.place_ids.get(&g) {
                    Some(id) => *id,
                    None => {
                        let id = self.places.len() as u32;
                        self.places.push(g.clone());
                        self.place_ids.insert(g, id);
                        id
                    }
                };
                self.groups.insert(path.clone(), id);
                id
            }
        };
        self.last_path = Some((path.clone(), id));
        id
    }

    pub(crate) fn observe(&mut self, e: &Event) {
        let (Some(pid), Some(tid)) = (e.pid, e.tid) else {
            return;
        };
        match e.kind {
            Kind::Entry | Kind::Exit | Kind::ErrorExit => {}
            Kind::Text => return self.text(e, pid, tid),
            Kind::MqiCall => return self.activity(e, pid, tid),
            _ => return,
        }
        let Some(function) = e.function.as_ref() else {
            return;
        };
        let ids = &mut self.name_ids;
        let Some((verb, name)) = self
            .verb_memo
            .get(function, |f| verb_of(f).map(|v| (v, ids.of(f))))
        else {
            return;
        };
        if self.threads.len() > mqdiag_model::budget::MAX_THREADS {
            self.trim_threads();
        }
        let key = self.thread_key(e, pid, tid);
        self.clock += 1;
        let spare = &mut self.spare;
        let (seen, th) = self
            .threads
            .entry(key)
            .or_insert_with(|| (0, spare.pop().unwrap_or_default()));
        *seen = self.clock;
        if e.kind == Kind::Entry {
            match &mut **th {
                Thread::Open(_, inner) => {
                    if inner.len() + 1 < MAX_NEST {
                        // An inner layer of the open call.
                        inner.push(name);
                    }
                }
                _ => {
                    // A new outermost call: the previous one can take no
                    // more stated reasons.
                    let th = match std::mem::take(&mut **th) {
                        Thread::Waiting(d) => {
                            self.finish_call(d);
                            &mut self.threads.get_mut(&key).expect("thread").1
                        }
                        _ => th,
                    };
                    let ident = Self::ident_of(self.by, e.ident.as_ref());
                    **th = Thread::Open(
                        OpenCall {
                            verb,
                            function: name,
                            ident,
                            start: e.ts,
                            stated: None,
                        },
                        Vec::new(),
                    );
                }
            }
            return;
        }
        // An exit.
        let pos = th.position(name);
        let rc_outcome = e.rc.as_deref().map(mqrc::decode_rc).or_else(|| {
            (e.kind == Kind::ErrorExit).then(|| Outcome::Other("error-exit".to_string()))
        });
        match pos {
            Some(0) => {
                let Thread::Open(call, _) = std::mem::take(&mut **th) else {
                    unreachable!("a position is only found in open calls");
                };
                let elapsed = e.elapsed_us.or(e.function_time).or_else(|| {
                    (e.ts - call.start)
                        .num_microseconds()
                        .map(|v| v.max(0) as u64)
                });
                let (outcome, evidence) = match (rc_outcome, call.stated) {
                    (Some(o), stated) if o != Outcome::Ok => {
                        // A reason keeps its first few lines: once its row
                        // holds them, later calls' lines are not quoted.
                        // Rows only fill: a row full when the line inside
                        // the call stated this reason still is.
                        let ident = call.ident.as_deref().or(e.ident.as_deref());
                        let full = stated.is_some_and(|s| s.3 && s.0 == o) || {
                            let k = key_of(self.by, key.0, verb, pid, tid, ident);
                            quoted(&self.verbs, &self.rows, &self.others, &k, &o)
                        };
                        let ev = if full { None } else { quote_of(e) };
                        (Some(o), ev)
                    }
                    (_, Some((o, ev, _, _))) => (Some(o), ev),
                    // OK (or nothing said): the line is never quoted, and
                    // quoting every call's line cost more than the rest.
                    (o, None) => (o, None),
                };
                **th = Thread::Waiting(Done {
                    verb: call.verb,
                    function: call.function,
                    // A connect's session ident appears during the call:
                    // the exit names the connection the entry could not.
                    // (The entry's is kept only by connection.)
                    ident: call
                        .ident
                        .or_else(|| Self::ident_of(self.by, e.ident.as_ref())),
                    pid,
                    tid,
                    place: key.0,
                    path: e.origin.path.clone(),
                    line: e.line,
                    ts: e.ts,
                    outcome,
                    evidence,
                    elapsed,
                });
            }
            Some(p) => {
                if let Thread::Open(_, inner) = &mut **th {
                    inner.truncate(p - 1);
                }
            }
            None if !matches!(**th, Thread::Open(..)) => {
                // The trace began inside this call. If the call just
                // finished on this thread was an inner layer of it, that
                // one becomes this call, open.
                match std::mem::take(&mut **th) {
                    Thread::Waiting(mut d)
                        if d.verb == verb && d.function != name && d.elapsed.is_some() =>
                    {
                        d.elapsed = None;
                        d.function = name;
                        **th = Thread::Waiting(d);
                    }
                    other => {
                        if let Thread::Waiting(d) = other {
                            self.finish_call(d);
                        }
                        let d = Done {
                            verb,
                            function: name,
                            ident: Self::ident_of(self.by, e.ident.as_ref()),
                            pid,
                            tid,
                            place: key.0,
                            path: e.origin.path.clone(),
                            line: e.line,
                            ts: e.ts,
                            outcome: None,
                            evidence: None,
                            elapsed: None,
                        };
                        *self.threads.get_mut(&key).expect("thread").1 = Thread::Waiting(d);
                    }
                }
            }
            // An exit of an inner layer whose entry was not seen.
            None => {}
        }
    }

    /// One MQI operation of an application activity trace: a whole call,
    /// timed by the queue manager (`QMgr Operation Duration`); without
    /// that duration it is counted as `open` (no timing to give).
    fn activity(&mut self, e: &Event, pid: u32, tid: u32) {
        use mqdiag_model::event::Key;
        let Some(verb) = e
            .get(Key::Verb)
            .and_then(|v| VERBS.iter().find(|x| **x == v))
        else {
            return;
        };
        let outcome = e.get(Key::Reason).map(mqrc::decode_rc);
        let evidence = match &outcome {
            Some(o) if *o != Outcome::Ok => quote_of(e),
            _ => None,
        };
        if let Some(p) = e.get(Key::Program)
            && self.programs.len() < mqdiag_model::budget::MAX_THREADS
        {
            let place = self.thread_key(e, pid, tid).0;
            let place = self.places[place as usize].clone();
            if self
                .programs
                .get(&(place.clone(), pid))
                .is_none_or(|n| **n != *p)
            {
                self.programs.insert((place, pid), Arc::from(p));
            }
        }
        let place = self.thread_key(e, pid, tid).0;
        if e.elapsed_us.is_some() && self.wanted(verb) {
            let ident = e.ident.as_deref();
            let k = key_of(self.by, place, verb, pid, tid, ident);
            self.rows.entry(k).or_default().timing = Some(TIMED_BY_QMGR);
        }
        self.finish_call(Done {
            verb,
            // Counted at once: no stack matches it by name.
            function: u32::MAX,
            ident: Self::ident_of(self.by, e.ident.as_ref()),
            pid,
            tid,
            place,
            path: e.origin.path.clone(),
            line: e.line,
            ts: e.ts,
            outcome,
            evidence,
            elapsed: e.elapsed_us,
        });
    }

    fn text(&mut self, e: &Event, pid: u32, tid: u32) {
        // Most text lines state no outcome (one substring search says so):
        // asked first, before the thread is looked up.
        let Some(o) = text_outcome(&e.text) else {
            return;
        };
        let key = self.thread_key(e, pid, tid);
        let Some((seen, th)) = self.threads.get_mut(&key) else {
            return;
        };
        self.clock += 1;
        *seen = self.clock;
        if matches!(**th, Thread::Idle) {
            return;
        }
        // The line is quoted only if its row can still take it: once the
        // row (or the "other" row it folds into) holds its lines, making
        // the evidence cost more than the rest of the call. A connection's
        // row is known only once the call names its connection.
        let place = key.0;
        let (by, verbs, rows, others) = (self.by, &self.verbs, &self.rows, &self.others);
        // The evidence, and whether the row is known to be full.
        let quote = |verb, ident: Option<&str>| {
            let unknown = by == By::Connection && ident.is_none();
            if o == Outcome::Ok {
                (None, false)
            } else if !unknown
                && quoted(
                    verbs,
                    rows,
                    others,
                    &key_of(by, place, verb, pid, tid, ident),
                    &o,
                )
            {
                (None, true)
            } else {
                (quote_of(e), false)
            }
        };
        if let Thread::Open(call, _) = &mut **th {
            if call.stated.is_none() || o != Outcome::Ok {
                // An OK call's line is never quoted.
                let (ev, full) = quote(call.verb, call.ident.as_deref());
                call.stated = Some((o, ev, e.ts, full));
            }
        } else if let Thread::Waiting(d) = &mut **th
            && d.elapsed.is_some()
            && matches!(d.outcome, None | Some(Outcome::Ok))
            && o != Outcome::Ok
        {
            d.evidence = quote(d.verb, d.ident.as_deref()).0;
            d.outcome = Some(o);
        }
    }

    fn wanted(&self, verb: &str) -> bool {
        wanted(&self.verbs, verb)
    }

    /// Count one call (open when it has no duration).
    fn finish_call(&mut self, d: Done) {
        if !self.wanted(d.verb) {
            return;
        }
        let key = key_of(self.by, d.place, d.verb, d.pid, d.tid, d.ident.as_deref());
        let s = match self.rows.len() < MAX_ROWS {
            true => self.rows.entry(key).or_default(),
            false => match self.rows.get_mut(&key) {
                Some(s) => s,
                None => {
                    let o = self.others.entry(d.verb).or_default();
                    if !o.keys.more {
                        let h = o.entity(&key);
                        o.keys.insert(h, MAX_OTHER_KEYS);
                    }
                    &mut o.stats
                }
            },
        };
        s.calls += 1;
        let Some(us) = d.elapsed else {
            s.open += 1;
            return;
        };
        let outcome = d.outcome.unwrap_or(Outcome::Ok);
        let class = mqrc::classify(d.verb, &outcome);
        match class {
            Class::Ok => s.ok += 1,
            Class::Warning => s.warnings += 1,
            Class::Failed => s.failed += 1,
        }
        s.total_us = s.total_us.saturating_add(us);
        s.sketch.add(us);
        if s.max_us.is_none_or(|m| us > m) {
            s.max_us = Some(us);
            s.max_at = Some((d.path.clone(), d.line));
        }
        let mut digits = [0u8; 10];
        let Some(rk) = reason_key(&outcome, &mut digits) else {
            return;
        };
        if !s.reasons.contains_key(rk) {
            s.reasons.insert(rk.to_string(), ReasonStat::default());
        }
        let r = s.reasons.get_mut(rk).expect("inserted");
        r.count += 1;
        r.class = Some(class);
        if r.first.is_none_or(|f| d.ts < f) {
            r.first = Some(d.ts);
        }
        if r.last.is_none_or(|l| d.ts > l) {
            r.last = Some(d.ts);
        }
        if r.evidence.len() < REASON_EVIDENCE {
            r.evidence.push(d.evidence.map_or_else(unquoted, |b| *b));
        }
    }

    /// A thread's calls as the end of the input leaves them: the one
    /// waiting is counted, and the one still open, as open.
    fn close_thread(&mut self, (place, pid, tid): ThreadKey, th: Thread) {
        match th {
            Thread::Idle => {}
            Thread::Waiting(d) => self.finish_call(d),
            Thread::Open(call, _) => self.finish_call(Done {
                verb: call.verb,
                function: call.function,
                ident: call.ident,
                pid,
                tid,
                place,
                path: self.places[place as usize].clone(),
                line: 0,
                ts: call.start,
                outcome: None,
                evidence: None,
                elapsed: None,
            }),
        }
    }

    /// Too many threads: those seen least recently are closed as the end
    /// of the input would close them (a trace with a new thread on every
    /// line must not keep them all).
    fn trim_threads(&mut self) {
        // Out of `self` while trimming, so that each thread is closed as
        // it is removed (no list of thousands of them grown and copied).
        let mut threads = std::mem::take(&mut self.threads);
        mqdiag_model::budget::trim_oldest(
            &mut threads,
            mqdiag_model::budget::MAX_THREADS,
            |t| t.0,
            |k, (_, mut t)| {
                self.close_thread(k, std::mem::take(&mut *t));
                if self.spare.len() < SPARE_THREADS {
                    self.spare.push(t);
                }
            },
        );
        self.threads = threads;
    }

    /// Close the books: calls still open or waiting are counted, rows are
    /// named from the inputs' facts and sorted, widest impact (total time)
    /// first.
    pub(crate) fn rows(mut self, inputs: &[FileInfo]) -> Vec<Row> {
        let mut threads: Vec<_> = std::mem::take(&mut self.threads).into_iter().collect();
        // Deterministic order (the hash map's is not): by group, PID, TID.
        let places = &self.places;
        threads.sort_by(|(a, _), (b, _)| {
            (&places[a.0 as usize], a.1, a.2).cmp(&(&places[b.0 as usize], b.1, b.2))
        });
        for (key, (_, th)) in threads {
            self.close_thread(key, *th);
        }
        // Each trace file's host, and each process's name (by host and
        // pid, or file and pid when the file names no host).
        let mut host: HashMap<Arc<str>, Arc<str>> = HashMap::new();
        let mut process: HashMap<(Arc<str>, u32), &str> = HashMap::new();
        for i in inputs {
            let g = group_of(&Arc::from(i.path.as_str()));
            let place = match &i.host {
                Some(h) => {
                    let h: Arc<str> = Arc::from(h.as_str());
                    host.entry(g).or_insert_with(|| h.clone());
                    h
                }
                None => g,
            };
            if let (Some(p), Some(n)) = (i.pid, i.process.as_deref()) {
                process.entry((place, p)).or_insert(n);
            }
        }
        let by = self.by;
        // Room for every row at once: grown by doubling, the table of up
        // to 20,000 rows was copied at each step.
        let mut merged: HashMap<Key, (Stats, bool, Option<Arc<str>>)> =
            HashMap::with_capacity(self.rows.len());
        // Rows that fold into one (a process's files) merge in the order
        // of their keys: the map's order changes from run to run, and a
        // merge keeps the first of equal slowest calls and the first few
        // evidence lines.
        let mut counted: Vec<(RowKey, Stats)> = self.rows.into_iter().collect();
        counted.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        for (k, s) in counted {
            let mut k = Key {
                place: self.places.get(k.place as usize).cloned(),
                pid: k.pid,
                tid: k.tid,
                ident: k.ident,
                verb: k.verb,
            };
            let program = match (&k.place, k.pid) {
                (Some(g), Some(p)) => self.programs.get(&(g.clone(), p)).cloned(),
                _ => None,
            };
            let mut named = false;
            if let Some(h) = k.place.as_ref().and_then(|g| host.get(g)) {
                k.place = Some(h.clone());
                named = true;
            }
            match merged.entry(k) {
                std::collections::hash_map::Entry::Occupied(mut o) => {
                    let o = o.get_mut();
                    o.0.merge(s);
                    o.2 = o.2.take().or(program);
                }
                std::collections::hash_map::Entry::Vacant(v) => {
                    v.insert((s, named, program));
                }
            }
        }
        let mut rows: Vec<Row> = merged
            .into_iter()
            .map(|(k, (s, named, program))| Row {
                process: match (program, &k.place, k.pid) {
                    (Some(n), _, _) => Some(n.to_string()),
                    (None, Some(pl), Some(p)) => {
                        process.get(&(pl.clone(), p)).map(|n| n.to_string())
                    }
                    _ => None,
                },
                host: named
                    .then(|| k.place.as_deref().map(str::to_string))
                    .flatten(),
                trace: (!named)
                    .then(|| k.place.as_deref().map(str::to_string))
                    .flatten(),
                by,
                key: k,
                stats: s,
                others: 0,
            })
            .collect();
        // In place: the keys are distinct, so the order is total and the
        // same as a stable sort's, without its copy of the rows.
        rows.sort_unstable_by(Row::by_time_spent);
        let noun = match by {
            By::Thread => "threads",
            By::Connection => "connections",
            _ => "processes",
        };
        for (verb, mut o) in std::mem::take(&mut self.others) {
            let n = o.keys.len(MAX_OTHER_KEYS);
            let at_least = if o.keys.more { "at least " } else { "" };
            rows.push(Row {
                key: Key::of_verb(verb),
                by,
                process: Some(format!(
                    "({at_least}{} other {noun})",
                    mqdiag_model::findings::thousands(n)
                )),
                host: None,
                trace: None,
                stats: o.stats,
                others: n,
            });
        }
        rows
    }

    /// What the rows' budget folded, as reading notes.
    pub(crate) fn folded_notes(rows: &[Row]) -> Vec<String> {
        rows.iter()
            .filter(|r| r.others > 0)
            .map(|r| {
                format!(
                    "{} calls of {} folded into one row: the run budget keeps {} rows of MQI calls apart",
                    r.key.verb,
                    r.process.as_deref().unwrap_or_default().trim_matches(['(', ')']),
                    mqdiag_model::findings::thousands(MAX_ROWS as u64)
                )
            })
            .collect()
    }
}

/// The rows per verb alone, from the rows per process: the same as
/// counting by `By::Verb` in counts, durations and reasons (a sketch holds
/// the same values whichever way they are added). Which call a row's
/// slowest call and its reasons' evidence cite may differ between calls of
/// equal rank; the latency chart reads neither.
pub(crate) fn by_verb(rows: &[Row]) -> Vec<Row> {
    let mut merged: BTreeMap<&'static str, Stats> = BTreeMap::new();
    for r in rows {
        merged.entry(r.key.verb).or_default().merge(r.stats.clone());
    }
    let mut out: Vec<Row> = merged
        .into_iter()
        .map(|(verb, stats)| Row {
            key: Key::of_verb(verb),
            by: By::Verb,
            process: None,
            host: None,
            trace: None,
            stats,
            others: 0,
        })
        .collect();
    out.sort_by(Row::by_time_spent);
    out
}

mod row;
pub use row::*;

#[cfg(test)]
mod tests;
