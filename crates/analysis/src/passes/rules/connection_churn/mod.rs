//! `connection-churn`: applications that connect and disconnect over and
//! over instead of staying connected (seeds 000, 001, 003). Sources:
//! MQCONN/MQDISC cycles in traces, channel start/stop message pairs in
//! error logs and z/OS job logs (CSQX511I/CSQX512I), short channel
//! instances (SMF QCST) and short tasks per connection name (SMF WTID).

use mqdiag_model::runhash::RunMap;
use mqdiag_model::findings::Part;
use crate::passes::builder::FindingBuilder;
use crate::passes::stats::Moments;
use crate::passes::{Pass, RuleInfo, Settings, Threshold};
use chrono::{Datelike, NaiveDate, NaiveDateTime, NaiveTime};
use mqdiag_model::event::Key;
use mqdiag_model::event::{Event, Kind, Ts};
use mqdiag_model::fileinfo::FileInfo;
use mqdiag_model::findings::{
    ClockCounts, Evidence, EvidenceSet, Finding, Metric, human_ms, thousands,
};
use mqdiag_model::problem::Severity;
use mqdiag_readers::catalog::Role;
use mqdiag_readers::catalog::functions::{self, Family};
use std::collections::hash_map::Entry;
use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

pub(crate) static RULE: RuleInfo = RuleInfo {
    id: "connection-churn",
    severity: Severity::Warning,
    summary: "Many short connect/disconnect cycles from one process, channel or connection name",
    trigger: "Traces: per file and process, each outermost entry of MQCONN/MQCONNX (or \
        zstMQCONN/zstMQCONNX) on a thread is a connect; the next outermost MQDISC exit on that \
        thread ends the connection and gives its lifetime. Error logs and z/OS job logs: a \
        channel start message (AMQ9002I, CSQX511I) is a connect and the next stop message \
        (AMQ9001I, CSQX512I) of the same channel and connection name ends it. SMF: each \
        distinct QCST channel instance (channel, connection name, start time; lifetime from its \
        Start and Stop columns) and each distinct WTID task of a channel connection name \
        (lifetime from the task's WTAS row when present). A group is reported when it has at \
        least `min_connects` connects, their rate over the span from first to last connect is \
        at least `min_per_second`, and the mean lifetime of the connections that ended is at \
        most `max_mean_ms` (groups where no connection ended are not reported).",
    thresholds: &[
        Threshold::new(
            "min_connects",
            10.0,
            "connects",
            "fewest connects for churn",
        ),
        Threshold::new(
            "min_per_second",
            0.5,
            "per s",
            "least connect rate over the span",
        ),
        Threshold::new(
            "max_mean_ms",
            5000.0,
            "ms",
            "longest mean connection lifetime that is still churn",
        ),
    ],
    advice: "Keep connections open: connect once per thread (or use a connection pool) and \
        reuse the connection for many messages; frameworks that connect per message need \
        their pooling/caching options turned on. Each connect costs a channel start, a TLS \
        handshake where TLS is used, a DNS look-up for host-name CONNAMEs, CHLAUTH and \
        authentication checks, and on z/OS CSQX511I/CSQX512I messages \
        (`SET SYSTEM EXCLMSG(X511,X512)` removes those).",
    fingerprint: &[Part::Qmgr, Part::Channel, Part::Address, Part::Host, Part::Program, Part::Key("source")],
    metrics: &["connects", "per_second", "mean_connection_ms"],
    functions: &[Family::Connect, Family::Disconnect],
    keywords: &[],
    smf_columns: &[
        "record",
        "task",
        "qmgr",
        "channel",
        "Chl_Name",
        "conname",
        "Connection_Name",
        "Start (DATE)",
        "Start (TIME)",
        "Stop (DATE)",
        "Stop (TIME)",
        "Start_Time (DATE)",
        "Start_Time (TIME)",
        "WTAS_Interval_End (DATE)",
        "WTAS_Interval_End (TIME)",
        "Channel_Name",
        "Channel_Connection_Name",
    ],
    make: |s| Box::new(ConnectionChurn::new(s)),
    explain: Some(crate::explain::channel_settings::explain_churn),
    ..RuleInfo::BASE
};

/// Open connections remembered per group (start times not yet matched).
const MAX_OPEN: usize = 1024;
/// Open connections remembered in all groups: past this, a group's oldest
/// start makes room for its new one. Starts that never meet a stop (a
/// channel that ended abnormally) otherwise pile up in every group, and
/// memory grew with the length of the log (reached on a 64 MB job log of
/// 8,000 channel instances, so that 1 GB of it holds no more).
const MAX_OPEN_TOTAL: usize = 50_000;
/// Distinct SMF instance/task keys remembered per group for de-duplication.
const SEEN_RING: usize = 256;
/// Groups kept.
const MAX_GROUPS: usize = 10_000;
/// WTAS lifetimes waiting for their WTID row.
const MAX_TASKS: usize = 4096;

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum GroupKey {
    /// (file, pid)
    Process(Arc<str>, u32),
    /// (source, qmgr, channel, connection name)
    Channel(&'static str, String, String, String),
}

/// What an SMF row was counted by: its channel instance's start, that
/// instance's stop, or its task. Kept typed: QCST rows repeat every
/// collection, and formatting their times to compare them cost more than
/// the rest of the pass.
#[derive(PartialEq, Eq)]
enum Seen {
    Start(NaiveDateTime),
    Stop(NaiveDateTime),
    Task(String),
}

#[derive(Default)]
struct Group {
    connects: u64,
    first_connect: Option<Ts>,
    last_connect: Option<Ts>,
    last: Option<Ts>,
    lifetimes: Moments,
    open: VecDeque<Ts>,
    seen: VecDeque<Seen>,
    evidence: EvidenceSet,
    program: Option<String>,
    host: Option<String>,
    /// Connects per clock bucket, for the report's chart.
    per_bucket: Option<ClockCounts>,
}

/// Chart buckets a group keeps (memory: up to `MAX_GROUPS` groups).
const CHART_BUCKETS: usize = 160;
/// Chart buckets all groups hold together (12 bytes each, ~2 MB): past
/// it every group's charts keep fewer, wider buckets (`chart_cap`), so
/// memory does not grow with the length of the log. 10,000 groups of 160
/// buckets each took 25 MB more on a 1 GB job log than on 64 MB; twice
/// this budget still took 8 MB more (a 64 MB log of 8,000 channel
/// instances had not reached it).
const CHART_BUDGET: usize = 160_000;
/// Fewest buckets a group's chart is cut to.
const MIN_CHART_BUCKETS: usize = 8;

impl Group {
    /// A connect at `at`, written by `e` (quoted only while evidence is
    /// wanted: a busy log has millions); its chart keeps at most `cap`
    /// buckets. The change in the chart's buckets.
    fn connect(&mut self, at: Ts, e: &Event, cap: usize) -> isize {
        self.connects += 1;
        let pb = self
            .per_bucket
            .get_or_insert_with(|| ClockCounts::with_cap(1, CHART_BUCKETS));
        let before = pb.buckets();
        if cap < CHART_BUCKETS {
            pb.limit(cap);
        }
        pb.add_static(&at, "connects");
        let delta = pb.buckets() as isize - before as isize;
        if self.first_connect.is_none_or(|f| at < f) {
            self.first_connect = Some(at);
        }
        if self.last_connect.is_none_or(|l| at > l) {
            self.last_connect = Some(at);
        }
        if self.last.is_none_or(|l| at > l) {
            self.last = Some(at);
        }
        // The first cycle and the next connect show the pattern.
        if self.evidence.lines.len() < 3 {
            self.evidence.push(Evidence::from_event(e));
        }
        delta
    }

    fn lifetime(&mut self, us: i64, end: Ts, ev: Option<&Event>) {
        self.lifetimes.push(us.max(0) as u64);
        if self.last.is_none_or(|l| end > l) {
            self.last = Some(end);
        }
        if let Some(e) = ev
            && self.evidence.lines.len() < 2
        {
            self.evidence.push(Evidence::from_event(e));
        }
    }

    /// Whether this SMF key was counted already (bounded memory).
    fn seen_before(&mut self, key: Seen) -> bool {
        if self.seen.contains(&key) {
            return true;
        }
        if self.seen.len() >= SEEN_RING {
            self.seen.pop_front();
        }
        self.seen.push_back(key);
        false
    }
}

/// A thread inside an outermost connect call, or connected.
#[derive(Default)]
struct ThreadConn {
    /// (function, depth) of the outermost connect call in progress, the
    /// function by its number (`ConnectionChurn::name_ids`): not the
    /// reader's shared `Arc`, whose counts the reader thread updates for
    /// every event (a clone here made that line move between cores).
    in_connect: Option<(u32, u32)>,
    /// When the current connection started.
    connected_at: Option<Ts>,
    in_disc: Option<(u32, u32)>,
    /// When it was last seen (`ConnectionChurn::clock`).
    seen: u64,
}

impl ThreadConn {
    /// Whether the thread holds nothing to remember.
    fn is_idle(&self) -> bool {
        self.in_connect.is_none() && self.connected_at.is_none() && self.in_disc.is_none()
    }

    /// Apply a connect or disconnect call's entry or exit: whether it
    /// connected, and the lifetime (µs) of the connection it ended;
    /// `None` for a nested layer of a connect in progress.
    fn step(
        &mut self,
        fam: Family,
        e: &Event,
        func: u32,
        depth: u32,
    ) -> Option<(bool, Option<i64>)> {
        let mut connected = false;
        let mut ended: Option<i64> = None;
        match (fam, e.kind) {
            (Family::Connect, Kind::Entry) => {
                if self.in_connect.as_ref().is_some_and(|(_, d)| *d < depth) {
                    return None; // a nested layer of the same connect
                }
                self.in_connect = Some((func, depth));
                self.connected_at = Some(e.ts);
                connected = true;
            }
            (Family::Connect, Kind::Exit | Kind::ErrorExit)
                if self.in_connect
                    .as_ref()
                    .is_some_and(|(f, d)| *f == func && *d == depth) =>
            {
                self.in_connect = None;
                if e.kind == Kind::ErrorExit {
                    // A failed connect has no connection to end.
                    self.connected_at = None;
                }
            }
            (Family::Disconnect, Kind::Entry) if self.in_disc.is_none() => {
                self.in_disc = Some((func, depth));
            }
            (Family::Disconnect, Kind::Exit | Kind::ErrorExit)
                if self.in_disc
                    .as_ref()
                    .is_some_and(|(f, d)| *f == func && *d == depth) =>
            {
                self.in_disc = None;
                if let Some(start) = self.connected_at.take() {
                    ended = Some((e.ts - start).num_microseconds().unwrap_or(0));
                }
            }
            _ => {}
        }
        Some((connected, ended))
    }
}

/// A thread by its file (`ConnectionChurn::file_id`), process and thread
/// ids: three numbers to hash rather than the file's path.
type ThreadId = (u32, u32, u32);

pub(crate) struct ConnectionChurn {
    min_connects: u64,
    min_rate: f64,
    max_mean_us: f64,
    threads: RunMap<ThreadId, ThreadConn>,
    /// Trace files by path, numbered as first met, and the last one met
    /// (a file's events share its path: one pointer comparison).
    file_ids: HashMap<Arc<str>, u32>,
    last_file: Option<(Arc<str>, u32)>,
    /// Each traced name's family and number in `name_ids`: a trace
    /// repeats a few names, each shared by its events. More than the last
    /// one: a reader may share two allocations of one name (an entry's
    /// and an exit's), and a one-name memo then compared their text on
    /// every event.
    families: crate::passes::name_memo::NameMemo<(Option<Family>, u32)>,
    /// A number for each name of a connect or disconnect function (a few
    /// exact names: `functions::family`).
    name_ids: crate::passes::name_memo::NameIds,
    /// Trace events of the connect and disconnect families met so far.
    clock: u64,
    /// In first-seen order; sorted by key at the end. Looked up through
    /// the indexes below, the channel one by its parts so that a record
    /// of a known group allocates nothing.
    groups: Vec<(GroupKey, Group)>,
    by_process: RunMap<(u32, u32), usize>,
    by_channel: crate::passes::parts_index::PartsIndex,
    /// Whether a log's channel start named no host (MQ 8.0+ AMQ9002I):
    /// only then may a stop that names one end it.
    hostless_starts: bool,
    tasks: HashMap<String, i64>,
    task_order: VecDeque<String>,
    /// Start times held in the groups' `open` queues.
    open_total: usize,
    /// Chart buckets held by all groups, and the most one group may keep.
    chart_buckets: usize,
    chart_cap: usize,
}

/// A connect rate for people: `20.4/s`, `3.1/min`, `2.0/h`.
fn human_rate_of(per_s: f64) -> String {
    if per_s >= 1.0 {
        format!("{per_s:.1}/s")
    } else if per_s * 60.0 >= 1.0 {
        format!("{:.1}/min", per_s * 60.0)
    } else {
        format!("{:.1}/h", per_s * 3600.0)
    }
}

/// `2016/02/27` + `22:03:17,888000` (mq-smf-csv) as a naive local time.
fn smf_time(date: Option<&str>, time: Option<&str>) -> Option<NaiveDateTime> {
    let d = date?.trim();
    let t = time?.trim();
    if d.is_empty() || t.is_empty() {
        return None;
    }
    // Every SMF row has these: the formatter's exact shape is read by hand
    // (chrono's parser is general and slow); anything else goes to chrono.
    let d = match exact_date(d) {
        Some(x) => x,
        None => NaiveDate::parse_from_str(d, "%Y/%m/%d")
            .or_else(|_| NaiveDate::parse_from_str(d, "%Y-%m-%d"))
            .ok()?,
    };
    if d.year() <= 1970 {
        return None;
    }
    let t = match exact_time(t) {
        Some(x) => x,
        None => NaiveTime::parse_from_str(&t.replace(',', "."), "%H:%M:%S%.f").ok()?,
    };
    Some(d.and_time(t))
}

/// Digits as a number, if all are digits.
fn digits(b: &[u8]) -> Option<u32> {
    b.iter().try_fold(0u32, |v, c| {
        c.is_ascii_digit().then(|| v * 10 + u32::from(c - b'0'))
    })
}

/// `2016/02/27` or `2016-02-27` exactly; `None` for any other shape. An
/// impossible date is `None` by either way, so it needs no second look.
fn exact_date(s: &str) -> Option<NaiveDate> {
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b[7] || !(b[4] == b'/' || b[4] == b'-') {
        return None;
    }
    NaiveDate::from_ymd_opt(digits(&b[..4])? as i32, digits(&b[5..7])?, digits(&b[8..])?)
}

/// `22:03:17,888000` (or with a point) exactly, within the plain ranges;
/// `None` for anything chrono must decide (a leap second...).
fn exact_time(s: &str) -> Option<NaiveTime> {
    let b = s.as_bytes();
    if b.len() != 15 || b[2] != b':' || b[5] != b':' || !(b[8] == b',' || b[8] == b'.') {
        return None;
    }
    let (h, m, sec) = (digits(&b[..2])?, digits(&b[3..5])?, digits(&b[6..8])?);
    if h > 23 || m > 59 || sec > 59 {
        return None;
    }
    NaiveTime::from_hms_micro_opt(h, m, sec, digits(&b[9..])?)
}

impl ConnectionChurn {
    pub(crate) fn new(s: &Settings) -> Self {
        ConnectionChurn {
            min_connects: s.get("min_connects") as u64,
            min_rate: s.get("min_per_second"),
            max_mean_us: s.get("max_mean_ms") * 1000.0,
            threads: RunMap::default(),
            file_ids: HashMap::new(),
            last_file: None,
            families: Default::default(),
            name_ids: Default::default(),
            clock: 0,
            groups: Vec::new(),
            by_process: HashMap::default(),
            by_channel: Default::default(),
            hostless_starts: false,
            tasks: HashMap::new(),
            task_order: VecDeque::new(),
            open_total: 0,
            chart_buckets: 0,
            chart_cap: CHART_BUCKETS,
        }
    }

    /// A group's chart changed by `delta` buckets: past the budget, every
    /// group keeps fewer.
    fn charted(&mut self, delta: isize) {
        self.chart_buckets = self.chart_buckets.saturating_add_signed(delta);
        while self.chart_buckets > CHART_BUDGET && self.chart_cap > MIN_CHART_BUCKETS {
            self.chart_cap = (self.chart_cap * 3 / 4).max(MIN_CHART_BUCKETS);
            let mut total = 0;
            for (_, g) in &mut self.groups {
                if let Some(pb) = &mut g.per_bucket {
                    pb.limit(self.chart_cap);
                    total += pb.buckets();
                }
            }
            self.chart_buckets = total;
        }
    }

    /// The index of a process's group (`file` is `path`'s number);
    /// `None` past `MAX_GROUPS` groups.
    fn process_group(&mut self, path: &Arc<str>, file: u32, pid: u32) -> Option<usize> {
        match self.by_process.get(&(file, pid)) {
            Some(&i) => Some(i),
            None => {
                let i = self.new_group(GroupKey::Process(path.clone(), pid))?;
                self.by_process.insert((file, pid), i);
                Some(i)
            }
        }
    }

    /// The number of a trace file's path.
    fn file_id(&mut self, path: &Arc<str>) -> u32 {
        if let Some((p, id)) = &self.last_file
            && Arc::ptr_eq(p, path)
        {
            return *id;
        }
        let n = self.file_ids.len() as u32;
        let id = *self.file_ids.entry(path.clone()).or_insert(n);
        self.last_file = Some((path.clone(), id));
        id
    }

    /// The family of a traced name, and the name's number when the
    /// family is kept (`name_ids`), remembered by the name's allocation.
    fn family(&mut self, f: &Arc<str>) -> (Option<Family>, u32) {
        let ids = &mut self.name_ids;
        self.families.get(f, |f| {
            let fam = functions::family(f);
            let id = match fam {
                Some(Family::Connect | Family::Disconnect) => ids.of(f),
                _ => u32::MAX,
            };
            (fam, id)
        })
    }

    /// The group of a channel instance as `src` names it (values trimmed);
    /// `None` past `MAX_GROUPS` groups.
    fn channel_group(
        &mut self,
        src: &'static str,
        qmgr: &str,
        channel: &str,
        conname: &str,
    ) -> Option<&mut Group> {
        let (h, found) = self.find_channel(src, qmgr, channel, conname);
        let i = match found {
            Some(i) => i,
            None => {
                let (qmgr, channel, conname) = (qmgr.trim(), channel.trim(), conname.trim());
                let key = GroupKey::Channel(src, qmgr.into(), channel.into(), conname.into());
                let i = self.new_group(key)?;
                self.by_channel.insert(h, i);
                i
            }
        };
        Some(&mut self.groups[i].1)
    }

    /// The group of a channel instance if there is one (none is made).
    fn existing_channel_group(
        &mut self,
        src: &'static str,
        qmgr: &str,
        channel: &str,
        conname: &str,
    ) -> Option<&mut Group> {
        let i = self.find_channel(src, qmgr, channel, conname).1?;
        Some(&mut self.groups[i].1)
    }

    /// The hash of a channel instance's key and its group's index, if any.
    fn find_channel(&self, src: &'static str, qmgr: &str, channel: &str, conname: &str) -> (u64, Option<usize>) {
        let (qmgr, channel, conname) = (qmgr.trim(), channel.trim(), conname.trim());
        let h = crate::passes::parts_index::hash(&[src, qmgr, channel, conname]);
        let groups = &self.groups;
        let found = self.by_channel.find(h, |i| {
            matches!(&groups[i].0, GroupKey::Channel(s, q, c, n)
                if *s == src && **n == *conname && **c == *channel && **q == *qmgr)
        });
        (h, found)
    }

    fn new_group(&mut self, key: GroupKey) -> Option<usize> {
        if self.groups.len() >= MAX_GROUPS {
            return None;
        }
        self.groups.push((key, Group::default()));
        Some(self.groups.len() - 1)
    }

    fn trace(&mut self, e: &Event, fam: Family, func: u32) {
        let (Some(pid), Some(tid), Some(depth)) = (e.pid, e.tid, e.depth) else {
            return;
        };
        let file = self.file_id(&e.origin.path);
        mqdiag_model::budget::forget_oldest_threads(&mut self.threads, |t| t.seen);
        self.clock += 1;
        let seen = self.clock;
        // A thread neither connecting, connected nor disconnecting says
        // nothing more than one never met: it is not kept (a million
        // processes that each fail one connect leave an empty table).
        let step = match self.threads.entry((file, pid, tid)) {
            Entry::Occupied(mut o) => {
                let t = o.get_mut();
                t.seen = seen;
                let step = t.step(fam, e, func, depth);
                if t.is_idle() {
                    o.remove();
                }
                step
            }
            Entry::Vacant(v) => {
                let mut t = ThreadConn {
                    seen,
                    ..ThreadConn::default()
                };
                let step = t.step(fam, e, func, depth);
                if !t.is_idle() {
                    v.insert(t);
                }
                step
            }
        };
        // What this event means for the group.
        let Some((connected, ended)) = step else {
            return; // a nested layer of the same connect
        };
        if !connected && ended.is_none() {
            return;
        }
        let group = self.process_group(&e.origin.path, file, pid);
        let cap = self.chart_cap;
        let mut delta = 0;
        if let Some(g) = group.map(|i| &mut self.groups[i].1) {
            if connected {
                delta = g.connect(e.ts, e, cap);
            } else if let Some(us) = ended {
                g.lifetime(us, e.ts, Some(e));
            }
        }
        self.charted(delta);
    }

    fn log(&mut self, e: &Event) {
        let role = mqdiag_readers::catalog::role_of(e);
        let start = role == Role::ChannelStart;
        let stop = role == Role::ChannelStop;
        if !start && !stop {
            return;
        }
        let channel = e.get(Key::Channel).unwrap_or("");
        let conname = e
            .get(Key::Conname)
            .or_else(|| e.get(Key::Address))
            .or_else(|| e.get(Key::Host))
            .unwrap_or("");
        let qmgr = e.get(Key::Qmgr).unwrap_or("");
        let mut held = self.open_total;
        let spent = held >= MAX_OPEN_TOTAL;
        let cap = self.chart_cap;
        let mut delta = 0;
        self.hostless_starts |= start && conname.trim().is_empty();
        let hostless = self.hostless_starts;
        let Some(g) = self.channel_group("log", qmgr, channel, conname) else {
            return;
        };
        if start {
            delta = g.connect(e.ts, e, cap);
            if g.open.len() >= MAX_OPEN || (spent && !g.open.is_empty()) {
                g.open.pop_front();
            } else {
                held += 1;
            }
            g.open.push_back(e.ts);
        } else if let Some(s) = g.open.pop_front() {
            held = held.saturating_sub(1);
            let us = (e.ts - s).num_microseconds().unwrap_or(0);
            g.lifetime(us, e.ts, Some(e));
        } else if hostless
            && !conname.trim().is_empty()
            // From MQ 8.0 the stop (AMQ9001I) names the host and the start
            // (AMQ9002I) does not: the stop ends the open start of the same
            // channel that named none.
            && let Some(g) = self.existing_channel_group("log", qmgr, channel, "")
            && let Some(s) = g.open.pop_front()
        {
            held = held.saturating_sub(1);
            let us = (e.ts - s).num_microseconds().unwrap_or(0);
            g.lifetime(us, e.ts, Some(e));
        }
        self.open_total = held;
        self.charted(delta);
    }

    fn smf(&mut self, e: &Event, rec: &str) {
        match rec {
            "QCST" => {
                let channel = e
                    .get(Key::Channel)
                    .or_else(|| e.attr("Chl_Name"))
                    .unwrap_or("");
                let conname = e
                    .get(Key::Conname)
                    .or_else(|| e.attr("Connection_Name"))
                    .unwrap_or("");
                let start = smf_time(e.attr("Start (DATE)"), e.attr("Start (TIME)"));
                let stop = smf_time(e.attr("Stop (DATE)"), e.attr("Stop (TIME)"));
                let Some(start) = start else {
                    return;
                };
                let qmgr = e.get(Key::Qmgr).unwrap_or("");
                // The instance start is in the formatter's zone; place it on
                // the timeline by its distance from the row's own time.
                let ts = e.ts;
                let cap = self.chart_cap;
                let Some(g) = self.channel_group("SMF QCST", qmgr, channel, conname) else {
                    return;
                };
                if g.seen_before(Seen::Start(start)) {
                    // A running instance reported again: its stop may be new.
                    if let Some(stop) = stop
                        && !g.seen_before(Seen::Stop(start))
                    {
                        g.lifetime((stop - start).num_microseconds().unwrap_or(0), ts, None);
                    }
                    return;
                }
                let start_ts = stop
                    .map(|s| ts - (s - start).max(chrono::Duration::zero()))
                    .unwrap_or(ts);
                let delta = g.connect(start_ts, e, cap);
                if let Some(stop) = stop {
                    g.seen_before(Seen::Stop(start));
                    g.lifetime((stop - start).num_microseconds().unwrap_or(0), ts, None);
                }
                self.charted(delta);
            }
            "WTAS" => {
                let (Some(task), Some(start), Some(end)) = (
                    e.get(Key::Task),
                    smf_time(e.attr("Start_Time (DATE)"), e.attr("Start_Time (TIME)")),
                    smf_time(
                        e.attr("WTAS_Interval_End (DATE)"),
                        e.attr("WTAS_Interval_End (TIME)"),
                    ),
                ) else {
                    return;
                };
                if self.tasks.len() >= MAX_TASKS
                    && let Some(old) = self.task_order.pop_front()
                {
                    self.tasks.remove(&old);
                }
                let us = (end - start).num_microseconds().unwrap_or(0);
                if self.tasks.insert(task.to_string(), us).is_none() {
                    self.task_order.push_back(task.to_string());
                }
            }
            "WTID" => {
                let channel = e
                    .get(Key::Channel)
                    .or_else(|| e.attr("Channel_Name"))
                    .unwrap_or("")
                    .trim();
                if channel.is_empty() {
                    return; // not a channel task (batch, CICS, IMS)
                }
                let conname = e
                    .get(Key::Conname)
                    .or_else(|| e.attr("Channel_Connection_Name"))
                    .unwrap_or("");
                let Some(task) = e.get(Key::Task).map(str::to_string) else {
                    return;
                };
                let life = self.tasks.get(&task).copied();
                let qmgr = e.get(Key::Qmgr).unwrap_or("");
                let ts = e.ts;
                let cap = self.chart_cap;
                let Some(g) = self.channel_group("SMF WTID", qmgr, channel, conname) else {
                    return;
                };
                if g.seen_before(Seen::Task(task)) {
                    return;
                }
                let start_ts = life
                    .map(|us| ts - chrono::Duration::microseconds(us))
                    .unwrap_or(ts);
                let delta = g.connect(start_ts, e, cap);
                if let Some(us) = life {
                    g.lifetime(us, ts, None);
                }
                self.charted(delta);
            }
            _ => {}
        }
    }
}

impl Pass for ConnectionChurn {
    fn kinds(&self) -> crate::passes::Kinds {
        crate::passes::Kinds::of(&[Kind::Entry, Kind::Exit, Kind::ErrorExit, Kind::LogRecord, Kind::SmfRecord])
    }

    fn observe(&mut self, e: &Event) {
        match e.kind {
            Kind::Entry | Kind::Exit | Kind::ErrorExit => {
                let Some(f) = &e.function else {
                    return;
                };
                if let (Some(fam @ (Family::Connect | Family::Disconnect)), id) = self.family(f) {
                    self.trace(e, fam, id);
                }
            }
            Kind::LogRecord if e.get(Key::Msgid).is_some() => self.log(e),
            Kind::SmfRecord => {
                if let Some(r) = e.get(Key::Record) {
                    self.smf(e, r);
                }
            }
            _ => {}
        }
    }

    fn finish(&mut self, inputs: &[FileInfo]) -> Vec<Finding> {
        let process: HashMap<&str, &str> = inputs
            .iter()
            .filter_map(|i| Some((i.path.as_str(), i.process.as_deref()?)))
            .collect();
        let host: HashMap<&str, &str> = inputs
            .iter()
            .filter_map(|i| Some((i.path.as_str(), i.host.as_deref()?)))
            .collect();
        // Only the groups reported are put in order: most never churn
        // (a job log's channel instances are thousands of groups).
        let groups: Vec<(GroupKey, (Group, Churn))> = std::mem::take(&mut self.groups)
            .into_iter()
            .filter_map(|(key, g)| {
                let c = self.churn(&g)?;
                Some((key, (g, c)))
            })
            .collect();
        let mut out = Vec::new();
        for (key, (mut g, c)) in crate::passes::by_key(groups) {
            if let GroupKey::Process(path, _) = &key {
                g.program = process.get(&**path).map(|s| s.to_string());
                g.host = host.get(&**path).map(|s| s.to_string());
            }
            let who = who(&key, &g);
            let chart = g
                .per_bucket
                .take()
                .and_then(|c| c.chart("Connects over time", "connects", "connects"));
            let f = FindingBuilder::new(&RULE, RULE.severity, title(&key, &g, &who, &c))
                .span(Some(c.first), g.last.or(Some(c.last)), g.connects)
                .with(|f| subject(f, &key, &g))
                .metrics([
                    ("connects", Metric::int(g.connects)),
                    ("per_second", Metric::num(c.rate)),
                    ("mean_connection_ms", Metric::num(c.mean_ms)),
                    ("disconnects", Metric::int(g.lifetimes.count())),
                    (
                        "max_connection_ms",
                        Metric::num(g.lifetimes.max() as f64 / 1000.0),
                    ),
                    ("span_s", Metric::num(c.span_s)),
                ])
                .chart(chart)
                .kept_evidence(std::mem::take(&mut g.evidence).into_sorted())
                .advice(advice(&key, &g, &who, &c));
            out.push(f.build());
        }
        out
    }
}

/// How fast a group connects, and for how long.
struct Churn {
    first: Ts,
    last: Ts,
    span_s: f64,
    /// Connects per second.
    rate: f64,
    mean_ms: f64,
}

impl ConnectionChurn {
    /// The group's churn when it is frequent and short enough to report.
    fn churn(&self, g: &Group) -> Option<Churn> {
        let (Some(first), Some(last)) = (g.first_connect, g.last_connect) else {
            return None;
        };
        let span_s = (last - first).num_microseconds().unwrap_or(0) as f64 / 1e6;
        let rate = if g.connects >= 2 && span_s > 0.0 {
            (g.connects - 1) as f64 / span_s
        } else {
            0.0
        };
        let mean_us = g.lifetimes.mean()?;
        if g.connects < self.min_connects || rate < self.min_rate || mean_us > self.max_mean_us {
            return None;
        }
        Some(Churn {
            first,
            last,
            span_s,
            rate,
            mean_ms: mean_us / 1000.0,
        })
    }
}

/// Who connects, in words.
fn who(key: &GroupKey, g: &Group) -> String {
    match key {
        GroupKey::Process(_, pid) => match &g.program {
            Some(p) => format!("{p} ({pid})"),
            None => format!("process {pid}"),
        },
        GroupKey::Channel(_, _, ch, cn) => match (ch.is_empty(), cn.is_empty()) {
            (false, false) => format!("channel {ch} from {cn}"),
            (false, true) => format!("channel {ch}"),
            (true, false) => format!("connection {cn}"),
            (true, true) => "unnamed channel".to_string(),
        },
    }
}

fn title(key: &GroupKey, g: &Group, who: &str, c: &Churn) -> String {
    let noun = match key {
        GroupKey::Process(..) => "connects",
        GroupKey::Channel("SMF WTID", ..) => "tasks",
        GroupKey::Channel("SMF QCST", ..) => "channel instances",
        GroupKey::Channel(..) => "channel starts",
    };
    let noun = if g.connects == 1 {
        noun.trim_end_matches('s')
    } else {
        noun
    };
    format!(
        "{who}: {} {noun} at {}, {} each on average",
        thousands(g.connects),
        human_rate_of(c.rate),
        human_ms(c.mean_ms)
    )
}

fn subject(f: &mut Finding, key: &GroupKey, g: &Group) {
    match key {
        GroupKey::Process(_, pid) => {
            f.subject.pid = Some(*pid);
            f.subject.program = g.program.clone();
            f.subject.host = g.host.clone();
        }
        GroupKey::Channel(src, qm, ch, cn) => {
            f.key = src.to_string();
            if !qm.is_empty() {
                f.subject.qmgr = Some(qm.clone());
            }
            if !ch.is_empty() {
                f.subject.channel = Some(ch.clone());
            }
            if !cn.is_empty() {
                f.subject.address = Some(cn.clone());
            }
        }
    }
}

fn advice(key: &GroupKey, g: &Group, who: &str, c: &Churn) -> String {
    format!(
        "{} connected {} times in {:.1} s and each connection lasted {} on average. \
         A connect can cost more than all the other MQI calls of a short task together: \
         it starts a channel instance, does a TLS handshake when TLS is used, resolves \
         the CONNAME when it is a host name, and runs CHLAUTH and authentication checks \
         (IBM measured 510 to 1350 CPU µs per MQCONNX+MQDISC on z/OS, plus about 380 \
         with TLS). Connect once per thread or use a connection \
         pool and keep the connection for many messages; in frameworks (JMS, Spring, \
         .NET) turn on connection caching/pooling.{}",
        who,
        thousands(g.connects),
        c.span_s,
        human_ms(c.mean_ms),
        if matches!(key, GroupKey::Channel("log", ..)) {
            " On z/OS `SET SYSTEM EXCLMSG(X511,X512)` also stops the CSQX511I/CSQX512I \
             message pair for each instance."
        } else {
            ""
        }
    )
}

#[cfg(test)]
mod tests;
