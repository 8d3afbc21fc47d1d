//! `slow-dns`: host-name look-ups that take seconds. Sources: AMQ9788W in
//! error logs; resolver calls (and the MQCONN around them) in traces; SMF
//! QCTDNS and QCST DNS times. An AMQ9788W and a slow look-up or MQCONN in
//! a trace of the same process at the same time are one incident, and one
//! finding cites both (seed 000: every ~50th MQCONN took 5 s).

use mqdiag_model::findings::Part;
use crate::passes::builder::FindingBuilder;
use crate::passes::{ChartKind, Pass, RuleInfo, Settings, Threshold};
use mqdiag_model::event::Key;
use mqdiag_model::event::{Event, Kind, Ts};
use mqdiag_model::fileinfo::FileInfo;
use mqdiag_model::findings::{
    Chart, Evidence, EvidenceSet, Finding, Metric, Series, SeriesBuf, Style, Unit, human_ms,
};
use mqdiag_model::problem::Severity;
use mqdiag_readers::catalog::functions::{self, Family};
use mqdiag_readers::catalog::{self, Family as MsgFamily, is_ip};
use std::collections::{BTreeMap, BTreeSet, VecDeque};

pub(crate) static RULE: RuleInfo = RuleInfo {
    id: "slow-dns",
    severity: Severity::Warning,
    summary: "Host-name look-ups (DNS) taking seconds: AMQ9788W, slow resolver calls in traces, SMF DNS times",
    trigger: "Every AMQ9788W error-log record (MQ's own slow look-up warning; its address, \
        function and seconds are taken from the message). In formatted traces, an exit of a \
        resolver call (`getaddrinfo`, `getnameinfo`, `gethostbyname[_r]`, `gethostbyaddr[_r]`, \
        or an MQ wrapper named `<prefix>GetAddrInfo`, `...GetNameInfo`, `...GetHostByName`, \
        `...GetHostByAddr`) that took at least `min_ms`. An exit of MQCONN/MQCONNX that took at \
        least `min_ms` is cited only when it overlaps one of the above in the same process. \
        Trace calls of one process that overlap in time (a resolver call inside the MQCONN \
        that made it) are one incident; an AMQ9788W joins the closest such incident of its \
        process (PID) whose span overlaps the record's [time - seconds, time] within \
        `correlate_s`, so one incident cites both sources. Incidents are grouped by looked-up \
        address \
        (else by process and function). SMF: a QCTDNS row whose `dns_max_us` (longest DNS \
        request of the interval) is at least `min_ms`, per queue manager; a QCST row whose \
        `dns_us` (DNS resolution time of a channel) is at least `min_ms`, per channel and \
        connection name.",
    thresholds: &[
        Threshold::new(
            "min_ms",
            1000.0,
            "ms",
            "a trace or SMF look-up at least this long is slow",
        ),
        Threshold::new(
            "correlate_s",
            5.0,
            "s",
            "slack when matching an error-log record to trace calls",
        ),
    ],
    advice: "Put dotted IP addresses in CONNAME (or MQSERVER / the CCDT) so no name is resolved per \
        connect; fix the resolver (name servers, timeouts, search domains, IPv6 AAAA look-ups, \
        /etc/hosts order); for reverse look-ups `ALTER QMGR REVDNS(DISABLED)` stops them, but \
        CHLAUTH rules that match host names then stop matching: rewrite them with IP addresses \
        first.",
    fingerprint: &[Part::Qmgr, Part::Channel, Part::Host, Part::Address, Part::Program, Part::Key("function")],
    metrics: &["address", "function", "max_seconds", "occurrences"],
    functions: &[Family::Dns, Family::Connect],
    keywords: &[],
    smf_columns: &[
        "record",
        "dns_max_us",
        "dns_us",
        "qmgr",
        "channel",
        "conname",
    ],
    make: |s| Box::new(SlowDns::new(s)),
    chart: ChartKind::Merged,
    ..RuleInfo::BASE
};

/// Incidents held back for matching; past this the oldest are committed.
const MAX_PENDING: usize = 256;
/// Groups kept; past this new addresses are counted in an overflow group.
const MAX_GROUPS: usize = 1000;

#[derive(Debug, Clone)]
struct Incident {
    pid: Option<u32>,
    start: Ts,
    end: Ts,
    /// The span covered by error-log records / by trace calls.
    log_span: Option<(Ts, Ts)>,
    trace_span: Option<(Ts, Ts)>,
    address: Option<String>,
    function: Option<String>,
    /// The function came from a wrapper, not the resolver itself.
    wrapper_function: bool,
    seconds: Option<f64>,
    /// Seen in a source that is about DNS itself (not only a slow MQCONN).
    strong: bool,
    sources: BTreeSet<&'static str>,
    host: Option<String>,
    program: Option<String>,
    evidence: Vec<Evidence>,
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum GroupKey {
    Address(String),
    Process(String, u32, String),
    SmfQmgr(String, String),
    SmfChannel(String, String),
    Overflow,
}

#[derive(Default)]
struct Group {
    occurrences: u64,
    corroborated: u64,
    max_seconds: Option<f64>,
    first: Option<Ts>,
    last: Option<Ts>,
    address: Option<String>,
    function: Option<String>,
    sources: BTreeSet<&'static str>,
    pids: BTreeSet<u32>,
    host: Option<String>,
    program: Option<String>,
    qmgr: Option<String>,
    channel: Option<String>,
    evidence: EvidenceSet,
    /// Each look-up's duration (µs) at its start, for the chart.
    chart: SeriesBuf,
}

pub(crate) struct SlowDns {
    min_us: u64,
    correlate: chrono::Duration,
    pending: VecDeque<Incident>,
    groups: BTreeMap<GroupKey, Group>,
}

fn overlaps(a: (Ts, Ts), b: (Ts, Ts), slack: chrono::Duration) -> bool {
    a.0 <= b.1 + slack && b.0 <= a.1 + slack
}

fn union(a: Option<(Ts, Ts)>, b: Option<(Ts, Ts)>) -> Option<(Ts, Ts)> {
    match (a, b) {
        (Some(x), Some(y)) => Some((x.0.min(y.0), x.1.max(y.1))),
        (x, y) => x.or(y),
    }
}

/// Whether observation `o` belongs to pending incident `p`. Trace calls
/// belong together only when they really overlap (a resolver call inside
/// the MQCONN that made it); an error-log record, whose time is coarse,
/// joins trace calls of its process within the slack; two log records are
/// two incidents. Returns how far apart they are, for the closest match.
fn distance(p: &Incident, o: &Incident, slack: chrono::Duration) -> Option<chrono::Duration> {
    if p.pid.is_none() || p.pid != o.pid {
        return None;
    }
    let tol = chrono::Duration::milliseconds(1);
    let ok = match (o.trace_span, o.log_span) {
        (Some(ot), _) => match (p.trace_span, p.log_span) {
            (Some(pt), _) => overlaps(pt, ot, tol),
            (None, Some(pl)) => overlaps(pl, ot, slack),
            (None, None) => false,
        },
        (None, Some(ol)) => {
            p.log_span.is_none() && p.trace_span.is_some_and(|pt| overlaps(pt, ol, slack))
        }
        (None, None) => false,
    };
    ok.then(|| (p.end - o.end).abs())
}

impl SlowDns {
    pub(crate) fn new(s: &Settings) -> Self {
        SlowDns {
            min_us: (s.get("min_ms") * 1000.0) as u64,
            correlate: chrono::Duration::milliseconds((s.get("correlate_s") * 1000.0) as i64),
            pending: VecDeque::new(),
            groups: BTreeMap::new(),
        }
    }

    fn offer(&mut self, inc: Incident) {
        // Commit what can no longer match anything that comes later.
        while let Some(front) = self.pending.front() {
            if front.end + self.correlate * 2 < inc.start || self.pending.len() >= MAX_PENDING {
                let old = self.pending.pop_front().expect("front");
                self.commit(old);
            } else {
                break;
            }
        }
        let best = self
            .pending
            .iter()
            .enumerate()
            .filter_map(|(i, p)| distance(p, &inc, self.correlate).map(|d| (d, i)))
            .min();
        if let Some((_, i)) = best {
            merge(&mut self.pending[i], inc);
        } else {
            self.pending.push_back(inc);
        }
    }

    fn commit(&mut self, inc: Incident) {
        if !inc.strong {
            return;
        }
        let key = match (&inc.address, inc.pid) {
            (Some(a), _) => GroupKey::Address(a.to_ascii_lowercase()),
            (None, Some(pid)) => GroupKey::Process(
                inc.evidence
                    .first()
                    .map(|e| e.path.clone())
                    .unwrap_or_default(),
                pid,
                inc.function.clone().unwrap_or_default(),
            ),
            (None, None) => GroupKey::Overflow,
        };
        let key = if !self.groups.contains_key(&key) && self.groups.len() >= MAX_GROUPS {
            GroupKey::Overflow
        } else {
            key
        };
        let g = self.groups.entry(key).or_default();
        g.occurrences += 1;
        if inc.sources.len() > 1 {
            g.corroborated += 1;
        }
        if let Some(s) = inc.seconds {
            g.max_seconds = Some(g.max_seconds.map_or(s, |m| m.max(s)));
            g.chart.push(inc.start, s * 1e6);
        }
        if g.first.is_none_or(|f| inc.start < f) {
            g.first = Some(inc.start);
        }
        if g.last.is_none_or(|l| inc.end > l) {
            g.last = Some(inc.end);
        }
        if g.address.is_none() {
            g.address = inc.address.clone();
        }
        if g.function.is_none() || (!inc.wrapper_function && inc.function.is_some()) {
            g.function = inc.function.clone().or(g.function.take());
        }
        g.sources.extend(inc.sources.iter().copied());
        if let Some(p) = inc.pid
            && g.pids.len() < 16
        {
            g.pids.insert(p);
        }
        if g.host.is_none() {
            g.host = inc.host.clone();
        }
        if g.program.is_none() {
            g.program = inc.program.clone();
        }
        // Keep whole incidents, corroborated ones first come first kept.
        if !g.evidence.is_full()
            && (inc.sources.len() > 1 || g.evidence.lines.len() + inc.evidence.len() <= 3)
        {
            for ev in inc.evidence {
                g.evidence.push(ev);
            }
        }
    }

    fn smf(&mut self, key: GroupKey, e: &Event, us: u64) {
        let g = self.groups.entry(key).or_default();
        g.occurrences += 1;
        let s = us as f64 / 1e6;
        g.max_seconds = Some(g.max_seconds.map_or(s, |m| m.max(s)));
        g.chart.push(e.ts, us as f64);
        g.saw(&e.ts);
        g.sources.insert("SMF");
        g.evidence.push(Evidence::from_event(e));
    }
}

impl Group {
    fn saw(&mut self, t: &Ts) {
        if self.first.is_none_or(|f| *t < f) {
            self.first = Some(*t);
        }
        if self.last.is_none_or(|l| *t > l) {
            self.last = Some(*t);
        }
    }
}

fn merge(into: &mut Incident, o: Incident) {
    into.start = into.start.min(o.start);
    into.end = into.end.max(o.end);
    into.log_span = union(into.log_span, o.log_span);
    into.trace_span = union(into.trace_span, o.trace_span);
    if into.address.is_none() {
        into.address = o.address;
    }
    // The resolver's own name beats a wrapper's or an MQCONN's.
    if o.function.is_some()
        && (into.function.is_none() || (into.wrapper_function && !o.wrapper_function))
    {
        into.function = o.function;
        into.wrapper_function = o.wrapper_function;
    }
    into.seconds = match (into.seconds, o.seconds) {
        (Some(a), Some(b)) => Some(a.max(b)),
        (a, b) => a.or(b),
    };
    into.strong |= o.strong;
    into.sources.extend(o.sources);
    if into.host.is_none() {
        into.host = o.host;
    }
    if into.program.is_none() {
        into.program = o.program;
    }
    for ev in o.evidence {
        if into.evidence.len() < 4 && !into.evidence.contains(&ev) {
            into.evidence.push(ev);
        }
    }
}

impl Pass for SlowDns {
    fn kinds(&self) -> crate::passes::Kinds {
        crate::passes::Kinds::of(&[Kind::LogRecord, Kind::Exit, Kind::ErrorExit, Kind::SmfRecord])
    }

    fn observe(&mut self, e: &Event) {
        match e.kind {
            Kind::LogRecord => {
                // The catalogue's DNS family (AMQ9788).
                let dns = catalog::entry_of(e);
                if !dns.is_some_and(|m| m.family == MsgFamily::Dns) {
                    return;
                }
                let seconds = e
                    .get(Key::Seconds)
                    .and_then(|s| s.trim().parse::<f64>().ok());
                let dur = chrono::Duration::milliseconds((seconds.unwrap_or(0.0) * 1000.0) as i64);
                let function = e.get(Key::Function).map(str::to_string);
                let inc = Incident {
                    pid: e.pid,
                    start: e.ts - dur,
                    end: e.ts,
                    log_span: Some((e.ts - dur, e.ts)),
                    trace_span: None,
                    address: e
                        .get(Key::Address)
                        .map(str::to_string)
                        .filter(|a| !a.is_empty()),
                    wrapper_function: false,
                    function,
                    seconds,
                    strong: true,
                    sources: ["error log"].into(),
                    host: e.get(Key::Host).map(str::to_string),
                    program: e.get(Key::Program).map(str::to_string),
                    evidence: vec![Evidence::from_event(e)],
                };
                self.offer(inc);
            }
            Kind::Exit | Kind::ErrorExit => {
                let (Some(func), Some(us)) = (e.function.as_deref(), e.elapsed_us) else {
                    return;
                };
                if us < self.min_us {
                    return;
                }
                let fam = functions::family(func);
                let strong = match fam {
                    Some(Family::Dns) => true,
                    Some(Family::Connect) => false,
                    _ => return,
                };
                let is_wrapper = !strong || func.bytes().any(|b| b.is_ascii_uppercase());
                let inc = Incident {
                    pid: e.pid,
                    start: e.ts - chrono::Duration::microseconds(us as i64),
                    end: e.ts,
                    log_span: None,
                    trace_span: Some((e.ts - chrono::Duration::microseconds(us as i64), e.ts)),
                    address: None,
                    function: Some(func.to_string()),
                    wrapper_function: is_wrapper,
                    seconds: strong.then_some(us as f64 / 1e6),
                    strong,
                    sources: ["trace"].into(),
                    host: None,
                    program: None,
                    evidence: vec![Evidence::from_event(e)],
                };
                self.offer(inc);
            }
            Kind::SmfRecord => match e.get(Key::Record) {
                Some("QCTDNS") => {
                    let Some(us) = e
                        .get(Key::DnsMaxUs)
                        .and_then(|v| v.trim().parse::<f64>().ok())
                    else {
                        return;
                    };
                    if us >= self.min_us as f64 {
                        let qm = e.get(Key::Qmgr).unwrap_or("").trim().to_string();
                        self.smf(
                            GroupKey::SmfQmgr(e.path().to_string(), qm.clone()),
                            e,
                            us as u64,
                        );
                        if let Some(g) = self
                            .groups
                            .get_mut(&GroupKey::SmfQmgr(e.path().to_string(), qm.clone()))
                        {
                            g.qmgr = (!qm.is_empty()).then_some(qm);
                        }
                    }
                }
                Some("QCST") => {
                    let Some(us) = e.get(Key::DnsUs).and_then(|v| v.trim().parse::<f64>().ok())
                    else {
                        return;
                    };
                    if us >= self.min_us as f64 {
                        let ch = e.get(Key::Channel).unwrap_or("").trim().to_string();
                        let cn = e.get(Key::Conname).unwrap_or("").trim().to_string();
                        let key = GroupKey::SmfChannel(ch.clone(), cn.clone());
                        self.smf(key.clone(), e, us as u64);
                        if let Some(g) = self.groups.get_mut(&key) {
                            g.channel = (!ch.is_empty()).then_some(ch);
                            g.address = (!cn.is_empty()).then_some(cn);
                            g.qmgr = e.get(Key::Qmgr).map(|q| q.trim().to_string());
                        }
                    }
                }
                _ => {}
            },
            _ => {}
        }
    }

    fn finish(&mut self, _inputs: &[FileInfo]) -> Vec<Finding> {
        while let Some(p) = self.pending.pop_front() {
            self.commit(p);
        }
        let mut out = Vec::new();
        for (key, mut g) in std::mem::take(&mut self.groups) {
            let n = g.occurrences;
            let took = took(&g);
            let points = std::mem::take(&mut g.chart);
            let chart = chart(&g, points);
            let f = FindingBuilder::new(&RULE, RULE.severity, title(&key, &g, &took))
                .span(g.first, g.last, n)
                .subject(|s| {
                    s.address = g.address.clone();
                    s.host = g.host.clone();
                    s.program = g.program.clone();
                    s.qmgr = g.qmgr.clone();
                    s.channel = g.channel.clone();
                    if g.pids.len() == 1 {
                        s.pid = g.pids.iter().next().copied();
                    }
                })
                .key(g.function.clone().unwrap_or_default())
                .metrics([
                    ("address", Metric::opt_str(g.address.as_deref())),
                    ("function", Metric::opt_str(g.function.as_deref())),
                    (
                        "max_seconds",
                        g.max_seconds.map(Metric::num).unwrap_or(Metric::Null),
                    ),
                    ("occurrences", Metric::int(n)),
                    (
                        "sources",
                        Metric::Str(g.sources.iter().copied().collect::<Vec<_>>().join(", ")),
                    ),
                    ("corroborated", Metric::int(g.corroborated)),
                ])
                .chart(chart)
                .advice(advice(&g, &took));
            out.push(f.kept_evidence(g.evidence.into_sorted()).build());
        }
        out
    }
}

/// "took N" (the longest when there are several), or "was slow".
fn took(g: &Group) -> String {
    let n = g.occurrences;
    g.max_seconds
        .map(|s| {
            format!(
                "took {}{}",
                if n == 1 { "" } else { "up to " },
                human_ms(s * 1000.0)
            )
        })
        .unwrap_or_else(|| "was slow".to_string())
}

fn title(key: &GroupKey, g: &Group, took: &str) -> String {
    let n = g.occurrences;
    let times = if n > 1 {
        format!(", {n} times")
    } else {
        String::new()
    };
    let func = g
        .function
        .as_deref()
        .map(|f| format!(" ({f})"))
        .unwrap_or_default();
    match key {
        GroupKey::Address(_) => format!(
            "DNS lookup of '{}'{func} {took}{times}",
            g.address.as_deref().unwrap_or("")
        ),
        GroupKey::Process(_, pid, _) => format!(
            "{} {took} in process {pid}{times}",
            g.function.as_deref().unwrap_or("Host-name lookup")
        ),
        GroupKey::SmfQmgr(..) => format!(
            "Channel initiator DNS requests{} (QCTDNS) {took}{times}",
            g.qmgr
                .as_deref()
                .map(|q| format!(" of {q}"))
                .unwrap_or_default()
        ),
        GroupKey::SmfChannel(..) => format!(
            "DNS resolution for channel {} (QCST) {took}{times}",
            g.channel.as_deref().unwrap_or("?")
        ),
        GroupKey::Overflow => format!("DNS lookups of further addresses {took}{times}"),
    }
}

/// Every look-up's duration (none when no source gave one).
fn chart(g: &Group, points: SeriesBuf) -> Option<Chart> {
    let points = points.into_points();
    if points.is_empty() {
        return None;
    }
    Some(Chart {
        title: "DNS look-up durations".to_string(),
        y_label: "look-up time".to_string(),
        unit: Unit::Micros,
        style: Style::Points,
        series: vec![Series {
            name: match (&g.address, &g.channel, &g.qmgr) {
                (Some(a), _, _) => a.clone(),
                (None, Some(c), _) => format!("channel {c}"),
                (None, None, Some(q)) => format!("qmgr {q}"),
                _ => g.function.clone().unwrap_or_else(|| "look-ups".to_string()),
            },
            points,
        }],
        refs: Vec::new(),
        fit: None,
        bucket_s: 0,
    })
}

fn advice(g: &Group, took: &str) -> String {
    let n = g.occurrences;
    let reverse = g.function.as_deref().is_some_and(|f| {
        let l = f.to_ascii_lowercase();
        l.contains("nameinfo") || l.contains("byaddr")
    }) || g.address.as_deref().is_some_and(is_ip);
    let what = match &g.address {
        Some(a) if reverse => format!("The reverse look-up of '{a}'"),
        Some(a) => format!("Resolving '{a}'"),
        None => "Host-name resolution".to_string(),
    };
    let both = match (g.corroborated, n) {
        (0, _) => String::new(),
        (1, 1) => {
            " It was seen both in the error log and in a trace of the same process.".to_string()
        }
        (c, n) => format!(
            " {c} of these {n} were seen both in the error log and in a trace of the same \
             process."
        ),
    };
    let forward = "Use a dotted IP address in CONNAME (or MQSERVER / the CCDT) so that \
        no name has to be resolved at every connect, and keep clients connected instead \
        of connecting per message.";
    let resolver = "Check the resolver on this host: the name servers and timeouts in \
        /etc/resolv.conf, the order in /etc/nsswitch.conf and /etc/hosts, search domains, \
        and IPv6 (AAAA) look-ups that time out; time a look-up with `dig` or `nslookup`.";
    let revdns = "For reverse look-ups of peer addresses, `ALTER QMGR REVDNS(DISABLED)` \
        stops them, but CHLAUTH rules that match host names stop matching: rewrite them \
        with IP addresses first.";
    if reverse {
        format!("{what} {took}.{both} {revdns} {resolver}")
    } else {
        format!("{what} {took}.{both} {forward} {resolver} {revdns}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::passes::testutil::*;

    fn amq9788(line: u64, at: &str, pid: u32) -> Event {
        let mut e = log(
            "errors/AMQERR01.LOG",
            line,
            at,
            "AMQ9788W: Slow DNS lookup for address 'LOCALHOST'.",
            &[
                ("msgid", "AMQ9788W"),
                ("address", "LOCALHOST"),
                ("function", "getaddrinfo"),
                ("seconds", "5"),
                ("host", "colinpaice"),
                ("program", "connc"),
            ],
        );
        e.pid = Some(pid);
        e.tid = Some(1);
        e
    }

    #[test]
    fn error_log_and_trace_make_one_finding() {
        // Trace times are 2012-05-04 -04:00 in testutil.
        let ev = vec![
            entry("c/AMQ7703.0.FMT", 10, "16:39:01.000100", 7703, 1, "MQCONN"),
            exit(
                "c/AMQ7703.0.FMT",
                12,
                "16:39:06.004200",
                7703,
                1,
                "getaddrinfo",
                "OK",
                5_003_900,
            ),
            exit(
                "c/AMQ7703.0.FMT",
                14,
                "16:39:06.010000",
                7703,
                1,
                "MQCONN",
                "OK",
                5_009_900,
            ),
            amq9788(40, "2012-05-04T16:39:06-04:00", 7703),
        ];
        let out = run(&RULE, &[], &ev);
        assert_eq!(out.len(), 1, "{out:#?}");
        let f = &out[0];
        assert_eq!(metric(f, "address"), Metric::Str("LOCALHOST".into()));
        assert_eq!(metric(f, "function"), Metric::Str("getaddrinfo".into()));
        assert_eq!(metric(f, "max_seconds"), Metric::num(5.0039));
        let c = f.chart.as_ref().unwrap();
        assert_eq!(c.series[0].points.len(), 1);
        assert!((c.series[0].points[0].1 - 5_003_900.0).abs() < 1.0);
        assert_eq!(metric(f, "occurrences"), Metric::Int(1));
        assert_eq!(metric(f, "corroborated"), Metric::Int(1));
        assert_eq!(metric(f, "sources"), Metric::Str("error log, trace".into()));
        // Evidence from both files: the log record, getaddrinfo and MQCONN.
        assert_eq!(f.evidence.len(), 3);
        assert!(f.evidence.iter().any(|e| e.path == "errors/AMQERR01.LOG"));
        assert!(f.evidence.iter().any(|e| e.text.contains("getaddrinfo")));
        assert!(f.evidence.iter().any(|e| e.text.contains("MQCONN")));
        assert_eq!(f.subject.pid, Some(7703));
        assert_eq!(f.subject.host.as_deref(), Some("colinpaice"));
        assert!(f.advice.contains("dotted IP address") && f.advice.contains("REVDNS(DISABLED)"));
        assert!(f.advice.contains("CHLAUTH"));
        assert!(
            f.advice
                .contains("It was seen both in the error log and in a trace of the same process.")
        );
    }

    #[test]
    fn successive_lookups_are_separate_incidents() {
        // Two 2 s look-ups 3 s apart in one process, and one log record
        // that matches the second (closest) only.
        let ev = vec![
            exit(
                "c.FMT",
                10,
                "16:39:02.000000",
                7703,
                1,
                "getaddrinfo",
                "OK",
                2_000_000,
            ),
            exit(
                "c.FMT",
                20,
                "16:39:07.000000",
                7703,
                1,
                "getaddrinfo",
                "OK",
                2_000_000,
            ),
            amq9788(40, "2012-05-04T16:39:07-04:00", 7703),
        ];
        let out = run(&RULE, &[], &ev);
        let total: u64 = out.iter().map(|f| f.count).sum();
        assert_eq!(total, 2, "{out:#?}");
        let by_addr = out.iter().find(|f| f.subject.address.is_some()).unwrap();
        assert_eq!(metric(by_addr, "corroborated"), Metric::Int(1));
        assert_eq!(
            by_addr.evidence.iter().map(|e| e.line).collect::<Vec<_>>(),
            vec![20, 40]
        );
    }

    #[test]
    fn slow_mqconn_alone_is_not_dns() {
        let ev = vec![exit(
            "c.FMT",
            14,
            "16:39:06.010000",
            7703,
            1,
            "MQCONN",
            "OK",
            5_009_900,
        )];
        assert!(run(&RULE, &[], &ev).is_empty());
    }

    #[test]
    fn slow_mqconn_with_a_log_record_is_cited() {
        let ev = vec![
            exit(
                "c.FMT",
                14,
                "16:39:06.010000",
                7703,
                1,
                "MQCONN",
                "OK",
                5_009_900,
            ),
            amq9788(40, "2012-05-04T16:39:07-04:00", 7703),
        ];
        let out = run(&RULE, &[], &ev);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].evidence.len(), 2);
        // The log names the function; the MQCONN does not replace it.
        assert_eq!(
            metric(&out[0], "function"),
            Metric::Str("getaddrinfo".into())
        );
        // Another process at the same time is another incident (and not DNS).
        let ev = vec![
            exit(
                "c.FMT",
                14,
                "16:39:06.010000",
                9999,
                1,
                "MQCONN",
                "OK",
                5_009_900,
            ),
            amq9788(40, "2012-05-04T16:39:07-04:00", 7703),
        ];
        let out = run(&RULE, &[], &ev);
        assert_eq!(out[0].evidence.len(), 1);
        assert_eq!(metric(&out[0], "corroborated"), Metric::Int(0));
    }

    #[test]
    fn repeated_log_records_group_by_address() {
        let ev: Vec<Event> = (0..5)
            .map(|i| {
                amq9788(
                    10 + i,
                    &format!("2012-05-04T16:{:02}:06-04:00", 10 + i * 3),
                    7703,
                )
            })
            .collect();
        let out = run(&RULE, &[], &ev);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].count, 5);
        assert_eq!(metric(&out[0], "occurrences"), Metric::Int(5));
        assert_eq!(
            out[0].title,
            "DNS lookup of 'LOCALHOST' (getaddrinfo) took up to 5.0 s, 5 times"
        );
    }

    #[test]
    fn fast_lookup_is_not_a_finding_and_reverse_advice() {
        let ev = vec![exit(
            "c.FMT",
            3,
            "10:00:00.040000",
            5,
            1,
            "getaddrinfo",
            "OK",
            40_000,
        )];
        assert!(run(&RULE, &[], &ev).is_empty());
        let ev = vec![exit(
            "c.FMT",
            3,
            "10:00:09.000000",
            5,
            1,
            "getnameinfo",
            "OK",
            9_000_000,
        )];
        let out = run(&RULE, &[], &ev);
        assert_eq!(out.len(), 1);
        assert_eq!(metric(&out[0], "address"), Metric::Null);
        assert!(
            out[0]
                .advice
                .starts_with("Host-name resolution took 9.0 s.")
        );
        assert!(out[0].advice.find("REVDNS").unwrap() < out[0].advice.find("resolver").unwrap());
    }

    #[test]
    fn mq_resolver_wrapper_counts_as_a_lookup() {
        // The rule promises any `...GetAddrInfo` wrapper counts; before it
        // only exact names did, so a slow `cciTcpGetAddrInfo` was silent.
        let ev = vec![exit(
            "c.FMT",
            7,
            "10:00:06.000000",
            5,
            1,
            "cciTcpGetAddrInfo",
            "OK",
            6_000_000,
        )];
        let out = run(&RULE, &[], &ev);
        assert_eq!(out.len(), 1, "{out:#?}");
        assert_eq!(
            metric(&out[0], "function"),
            Metric::Str("cciTcpGetAddrInfo".into())
        );
        assert_eq!(metric(&out[0], "max_seconds"), Metric::num(6.0));
    }

    #[test]
    fn smf_dns_times() {
        let ev = vec![
            smf(
                "SMF-QCTDNS.csv",
                2,
                "2026-05-21T16:45:18+00:00",
                &[
                    ("record", "QCTDNS"),
                    ("qmgr", "MQ1A"),
                    ("dns_max_us", "7250000"),
                ],
            ),
            smf(
                "SMF-QCTDNS.csv",
                3,
                "2026-05-21T17:15:18+00:00",
                &[
                    ("record", "QCTDNS"),
                    ("qmgr", "MQ1A"),
                    ("dns_max_us", "1200"),
                ],
            ),
            smf(
                "SMF-QCST.csv",
                2,
                "2016-02-27T18:03:47+00:00",
                &[
                    ("record", "QCST"),
                    ("channel", "TO.QML4"),
                    ("conname", "mpx2(1420)"),
                    ("dns_us", "2500000"),
                ],
            ),
        ];
        let out = run(&RULE, &[], &ev);
        assert_eq!(out.len(), 2);
        let q = out
            .iter()
            .find(|f| f.subject.qmgr.as_deref() == Some("MQ1A"))
            .unwrap();
        assert_eq!(metric(q, "max_seconds"), Metric::num(7.25));
        assert_eq!(metric(q, "address"), Metric::Null);
        assert_eq!(metric(q, "function"), Metric::Null);
        assert_eq!(q.count, 1);
        let c = out.iter().find(|f| f.subject.channel.is_some()).unwrap();
        assert_eq!(metric(c, "address"), Metric::Str("mpx2(1420)".into()));
    }
}
