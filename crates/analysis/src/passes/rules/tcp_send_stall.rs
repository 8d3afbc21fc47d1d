//! `tcp-send-stall`: a TCP send that returned EAGAIN/EWOULDBLOCK (the
//! socket send buffer was full) and the wait until a send on the same
//! thread succeeded again. Seed 002: waits of ~200 ms are the receiver's
//! delayed-ACK timer.

use crate::passes::name_memo::NameMemo;
use mqdiag_model::findings::Part;
use crate::passes::builder::FindingBuilder;
use crate::passes::patterns::{self, Os, RcCode};
use crate::passes::stats::Distribution;
use crate::passes::{Pass, RuleInfo, Settings, ThreadKey, Threshold, thread_key};
use mqdiag_model::event::{Event, Kind, Ts};
use mqdiag_model::fileinfo::FileInfo;
use mqdiag_model::findings::{
    Chart, Evidence, Finding, Metric, RefLine, Series, SeriesBuf, Style, Unit, human_ms,
};
use mqdiag_model::problem::Severity;
use mqdiag_readers::catalog::functions::{self, Family};
use std::collections::HashMap;
use std::sync::Arc;

pub(crate) static RULE: RuleInfo = RuleInfo {
    id: "tcp-send-stall",
    severity: Severity::Warning,
    summary: "TCP sends that found the socket send buffer full (EAGAIN/EWOULDBLOCK) and had to wait",
    trigger: "In a formatted trace, an exit of a socket send call (`send`, `sendmsg`, `WSASend`) \
        whose rc is the platform's would-block errno: 11 (EAGAIN) on Linux, AIX and Solaris, \
        11 or 246 (EWOULDBLOCK) on HP-UX, 35 on macOS/BSD, 10035 (WSAEWOULDBLOCK) on Windows; \
        `rc=Unknown(B)` is hexadecimal B = 11. The platform comes from the trace header \
        (`Header.v02:...`, `Operating System :`); when it is unknown, 11 and 10035 are accepted. \
        The stall starts at that exit and ends at the next exit of a send call on the same \
        thread that returns OK (retries that block again belong to the same stall); its wait is \
        the time between the two. The longest wait call (`select`, `poll`, ...) in between is \
        shown as evidence. A stall not ended within `max_wait_s` is counted as unresolved. \
        Stalls are grouped per thread and trace ident (one channel or connection); a group is \
        reported when its longest wait is at least `min_wait_ms` or its waits add up to \
        `min_total_wait_ms`. The waits cluster at the delayed-ACK timer when at least \
        `delack_share` of them lie between `delack_low_ms` and `delack_high_ms`.",
    thresholds: &[
        Threshold::new(
            "min_wait_ms",
            50.0,
            "ms",
            "report a connection whose longest stall waited at least this long",
        ),
        Threshold::new(
            "min_total_wait_ms",
            1000.0,
            "ms",
            "... or whose stalls waited this long in total",
        ),
        Threshold::new(
            "delack_low_ms",
            150.0,
            "ms",
            "lower edge of the delayed-ACK window",
        ),
        Threshold::new(
            "delack_high_ms",
            250.0,
            "ms",
            "upper edge of the delayed-ACK window",
        ),
        Threshold::new(
            "delack_share",
            0.5,
            "fraction",
            "share of waits in the window that counts as a cluster",
        )
        .range(0.0, 1.0),
        Threshold::new(
            "max_wait_s",
            300.0,
            "s",
            "a stall still open after this long is counted as unresolved",
        ),
    ],
    advice: "Waits near 200 ms are the delayed-ACK timer of the receiving host: set `NoDelayAck=Y` in \
        the `TCP:` stanza of qm.ini (mqclient.ini for clients) or the environment variable \
        `MQ_SET_NODELAYACK=Y`, on both ends of the channel. Other waits mean the send buffer is \
        too small for the bandwidth-delay product or the receiver is slow: check the final socket \
        send buffer size (`SndBuffSize`, `RcvSndBuffSize`, `ClntSndBuffSize`; 0 = the operating \
        system's default) and the network.",
    fingerprint: &[Part::Host, Part::Program, Part::Key("errno")],
    metrics: &["stalls", "max_wait_ms", "total_wait_ms", "p95_wait_ms"],
    functions: &[Family::Send, Family::SendWrapper, Family::Wait],
    keywords: &[],
    smf_columns: &[],
    make: |s| Box::new(TcpSendStall::new(s)),
    ..RuleInfo::BASE
};

/// The would-block codes on any platform, for the check before the
/// platform is known.
const ANY_WOULD_BLOCK: &[u32] = &[11, 35, 246, 10035];

struct Open {
    start: Ts,
    code: Option<u32>,
    eagain: Evidence,
    ident: Option<String>,
    longest_wait_call: Option<(u64, Evidence)>,
}

#[derive(Default)]
struct Group {
    waits: Distribution,
    unresolved: u64,
    first: Option<Ts>,
    last: Option<Ts>,
    first_eagain: Option<Evidence>,
    worst: Option<(u64, Vec<Evidence>)>,
    /// Each wait at the time the send succeeded, for the report's chart.
    chart: SeriesBuf,
}

/// A group: one thread and ident, one errno value.
type GroupKey = (ThreadKey, Option<String>, Option<u32>);

pub(crate) struct TcpSendStall {
    min_wait_us: u64,
    min_total_us: u64,
    delack_lo_us: u64,
    delack_hi_us: u64,
    delack_share: f64,
    max_wait_us: i64,
    platforms: HashMap<Arc<str>, Os>,
    open: HashMap<ThreadKey, Open>,
    groups: HashMap<GroupKey, Group>,
    /// The family of each traced function name, remembered (asked of
    /// every exit).
    families: NameMemo<Option<Family>>,
}

impl TcpSendStall {
    pub(crate) fn new(s: &Settings) -> Self {
        let us = |k| (s.get(k) * 1000.0) as u64;
        TcpSendStall {
            min_wait_us: us("min_wait_ms"),
            min_total_us: us("min_total_wait_ms"),
            delack_lo_us: us("delack_low_ms"),
            delack_hi_us: us("delack_high_ms"),
            delack_share: s.get("delack_share"),
            max_wait_us: (s.get("max_wait_s") * 1e6) as i64,
            platforms: HashMap::new(),
            open: HashMap::new(),
            groups: HashMap::new(),
            families: NameMemo::default(),
        }
    }

    fn header(&mut self, e: &Event) {
        let p = if let Some(rest) = e.text.strip_prefix("Header.v02:") {
            rest.split(':').nth(1)
        } else if e.text.starts_with("Operating System") {
            e.text.split_once(':').map(|(_, v)| v.trim())
        } else {
            None
        };
        if let Some(os) = p.and_then(Os::from_platform) {
            self.platforms.insert(e.origin.path.clone(), os);
        }
    }

    fn close(&mut self, key: &ThreadKey, end: Option<(&Ts, Evidence)>) {
        let Some(open) = self.open.remove(key) else {
            return;
        };
        let g = self
            .groups
            .entry((key.clone(), open.ident.clone(), open.code))
            .or_default();
        if g.first.is_none_or(|f| open.start < f) {
            g.first = Some(open.start);
        }
        if g.first_eagain.is_none() {
            g.first_eagain = Some(open.eagain.clone());
        }
        let Some((end_ts, end_ev)) = end else {
            g.unresolved += 1;
            return;
        };
        let wait = (*end_ts - open.start)
            .num_microseconds()
            .unwrap_or(0)
            .max(0) as u64;
        if g.last.is_none_or(|l| *end_ts > l) {
            g.last = Some(*end_ts);
        }
        g.waits.push(wait);
        g.chart.push(*end_ts, wait as f64);
        if g.worst.as_ref().is_none_or(|(w, _)| wait > *w) {
            let mut ev = vec![open.eagain];
            if let Some((_, w)) = open.longest_wait_call {
                ev.push(w);
            }
            ev.push(end_ev);
            g.worst = Some((wait, ev));
        }
    }

    fn would_block(&self, path: &Arc<str>, rc: &str) -> Option<Option<u32>> {
        match patterns::rc_errno(rc)? {
            RcCode::Named => Some(None),
            RcCode::Errno(n) => {
                let ok = match self.platforms.get(path) {
                    Some(os) => patterns::would_block_codes(Some(*os)).contains(&n),
                    None => ANY_WOULD_BLOCK.contains(&n),
                };
                ok.then_some(Some(n))
            }
        }
    }
}

impl Pass for TcpSendStall {
    fn kinds(&self) -> crate::passes::Kinds {
        crate::passes::Kinds::of(&[Kind::Header, Kind::Exit, Kind::ErrorExit])
    }

    fn observe(&mut self, e: &Event) {
        match e.kind {
            Kind::Header => {
                self.header(e);
                return;
            }
            Kind::Exit | Kind::ErrorExit => {}
            _ => return,
        }
        let Some(f) = &e.function else {
            return;
        };
        let Some(fam) = self.families.get(f, functions::family) else {
            return;
        };
        let Some(key) = thread_key(e) else {
            return;
        };
        // A stall open too long is over, whatever comes next.
        if let Some(o) = self.open.get(&key)
            && (e.ts - o.start).num_microseconds().unwrap_or(i64::MAX) > self.max_wait_us
        {
            self.close(&key, None);
        }
        match fam {
            Family::Send => {
                let rc = e.rc.as_deref().unwrap_or("OK");
                if rc == "OK" || (e.kind == Kind::Exit && rc == "0") {
                    self.close(&key, Some((&e.ts, Evidence::from_event(e))));
                } else if let Some(code) = self.would_block(&e.origin.path, rc) {
                    // A retry that blocks again stays in the open stall.
                    self.open.entry(key).or_insert_with(|| Open {
                        start: e.ts,
                        code,
                        eagain: Evidence::from_event(e),
                        ident: e.ident.as_deref().map(String::from),
                        longest_wait_call: None,
                    });
                }
            }
            Family::Wait => {
                if let (Some(o), Some(us)) = (self.open.get_mut(&key), e.elapsed_us)
                    && o.longest_wait_call.as_ref().is_none_or(|(w, _)| us > *w)
                {
                    o.longest_wait_call = Some((us, Evidence::from_event(e)));
                }
            }
            Family::SendWrapper if e.kind == Kind::ErrorExit => {
                // The wrapper gave up (connection broken): the stall never
                // ended with a successful send.
                if let Some(o) = self.open.get(&key)
                    && e.ts > o.start
                {
                    self.close(&key, None);
                }
            }
            _ => {}
        }
    }

    fn finish(&mut self, inputs: &[FileInfo]) -> Vec<Finding> {
        let keys: Vec<ThreadKey> = self.open.keys().cloned().collect();
        for k in keys {
            self.close(&k, None);
        }
        let info_os: HashMap<&str, Os> = inputs
            .iter()
            .filter_map(|i| Some((i.path.as_str(), Os::from_platform(i.platform.as_deref()?)?)))
            .collect();
        let mut out = Vec::new();
        let mut groups: Vec<_> = self.groups.drain().collect();
        groups.sort_by(|a, b| (&a.0.0, &a.0.1, a.0.2).cmp(&(&b.0.0, &b.0.1, b.0.2)));
        for ((tkey, ident, code), g) in groups {
            let os = self
                .platforms
                .get(&tkey.0)
                .copied()
                .or_else(|| info_os.get(&*tkey.0).copied());
            if let Some(n) = code
                && !patterns::would_block_codes(os).contains(&n)
            {
                continue;
            }
            let Some(w) = self.waits(&g, code) else {
                continue;
            };
            let first_eagain = g.first_eagain.into_iter();
            let worst = g.worst.into_iter().flat_map(|(_, w)| w);
            let f = FindingBuilder::new(&RULE, RULE.severity, w.title())
                .span(g.first, g.last.or(g.first), w.stalls)
                .subject(|s| {
                    s.pid = Some(tkey.1);
                    s.tid = Some(tkey.2);
                    s.ident = ident.clone();
                })
                .key(format!(
                    "errno {}",
                    code.map(|c| c.to_string()).unwrap_or_default()
                ))
                .metrics(w.metrics(g.unresolved, os))
                .evidence(first_eagain.chain(worst))
                .chart(Some(chart(g.chart)))
                .advice(self.advice(&w));
            out.push(f.build());
        }
        out
    }
}

/// What a group's waits add up to.
struct Waits {
    n: u64,
    max: u64,
    total: u64,
    p95: u64,
    /// Waits within the delayed-ACK window, and their share.
    in_window: u64,
    share: f64,
    delack: bool,
    /// The errno's name.
    name: String,
    /// Waits and sends never seen to succeed.
    stalls: u64,
}

impl Waits {
    fn title(&self) -> String {
        format!(
            "{} TCP send stall{} ({}), waits up to {}, {}",
            self.stalls,
            if self.stalls == 1 { "" } else { "s" },
            self.name.split(' ').next().unwrap_or(""),
            human_ms(self.max as f64 / 1000.0),
            if self.delack {
                "at the delayed-ACK timer".to_string()
            } else {
                format!("{} in total", human_ms(self.total as f64 / 1000.0))
            }
        )
    }

    fn metrics(&self, unresolved: u64, os: Option<Os>) -> Vec<(&'static str, Metric)> {
        let ms = |us: u64| Metric::num(us as f64 / 1000.0);
        vec![
            ("stalls", Metric::int(self.stalls)),
            ("max_wait_ms", ms(self.max)),
            ("total_wait_ms", ms(self.total)),
            ("p95_wait_ms", ms(self.p95)),
            ("unresolved", Metric::int(unresolved)),
            ("delayed_ack_share", Metric::num(self.share)),
            ("errno", Metric::Str(self.name.clone())),
            ("platform", Metric::opt_str(os.map(Os::name))),
        ]
    }
}

/// Every wait, against the receiver's delayed-ACK timer: waits lined up
/// on it are the signature of seed 002.
fn chart(points: SeriesBuf) -> Chart {
    Chart {
        title: "Send waits after a full socket buffer".to_string(),
        y_label: "wait".to_string(),
        unit: Unit::Micros,
        style: Style::Points,
        series: vec![Series {
            name: "wait until the next send succeeded".to_string(),
            points: points.into_points(),
        }],
        refs: vec![RefLine {
            value: 200_000.0,
            label: "delayed-ACK timer 200 ms".to_string(),
        }],
        fit: None,
        bucket_s: 0,
    }
}

impl TcpSendStall {
    /// The group's waits; `None` when too few or too short to report.
    fn waits(&self, g: &Group, code: Option<u32>) -> Option<Waits> {
        let n = g.waits.count();
        let max = g.waits.max();
        let total = g.waits.sum() as u64;
        if n == 0 || (max < self.min_wait_us && total < self.min_total_us) {
            return None;
        }
        let in_window = g.waits.count_between(self.delack_lo_us, self.delack_hi_us);
        let share = in_window as f64 / n as f64;
        Some(Waits {
            n,
            max,
            total,
            p95: g.waits.quantile(0.95).unwrap_or(0),
            in_window,
            share,
            delack: n >= 2 && share >= self.delack_share,
            name: match code {
                None => "EWOULDBLOCK".to_string(),
                Some(10035) => "WSAEWOULDBLOCK (10035)".to_string(),
                Some(246) => "EWOULDBLOCK (246)".to_string(),
                Some(c) => format!("EAGAIN ({c})"),
            },
            stalls: n + g.unresolved,
        })
    }

    fn advice(&self, w: &Waits) -> String {
        let lo = self.delack_lo_us / 1000;
        let hi = self.delack_hi_us / 1000;
        if w.delack {
            format!(
                "{} of {} waits ({:.0} %) lasted {lo}-{hi} ms: the sender filled its socket \
             send buffer and then waited for an ACK that the receiving host delays (its \
             delayed-ACK timer, ~200 ms; IBM technote on APAR IZ28473). Set `NoDelayAck=Y` in \
             the `TCP:` stanza of qm.ini (mqclient.ini for a client) or the environment \
             variable `MQ_SET_NODELAYACK=Y` for the MQ processes, on BOTH ends of the channel, \
             and restart the channel. A larger send buffer also makes the sender stall less \
             often (see socket-buffer-size).",
                w.in_window,
                w.n,
                w.share * 100.0
            )
        } else {
            "The socket send buffer was full: the network or the receiver did not take the data \
         as fast as MQ wrote it. Compare the final socket send buffer size with the \
         bandwidth x round-trip time of the path (see socket-buffer-size findings) and raise \
         it in the `TCP:` stanza of qm.ini: `SndBuffSize` for sending channels, \
         `RcvSndBuffSize` for receiving channels, `ClntSndBuffSize` in mqclient.ini for \
         clients (0 = the operating system's default and auto-tuning). If the buffer is \
         already large, look at the receiver (slow MQGETs, full queues) and at \
         retransmissions on the network."
                .to_string()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::passes::testutil::*;

    const P: &str = "t/AMQ1.0.FMT";

    fn header(os: &str) -> Event {
        trace(
            P,
            1,
            "11:00:00.000000",
            1,
            1,
            Kind::Header,
            &format!("Header.v02:7.1:{os}:64:-1:1:EDT"),
        )
    }

    /// One stall: EAGAIN at `t0`, a select of `wait_ms`, then a good send.
    fn stall(line: u64, sec: u32, wait_ms: u64) -> Vec<Event> {
        let t0 = format!("11:42:{sec:02}.100000");
        let t1 = format!("11:42:{sec:02}.{:06}", 100_000 + 10 + wait_ms * 1000);
        let t2 = format!("11:42:{sec:02}.{:06}", 100_000 + 20 + wait_ms * 1000);
        let mut a = exit(P, line, &t0, 9, 433, "send", "Unknown(B)", 10);
        a.ident = Some("RSESS:00011e".into());
        let b = exit(P, line + 2, &t1, 9, 433, "select", "OK", wait_ms * 1000);
        let c = exit(P, line + 4, &t2, 9, 433, "send", "OK", 8);
        vec![a, b, c]
    }

    #[test]
    fn delayed_ack_cluster() {
        let mut ev = vec![header("AIX 7.1")];
        for (i, w) in [201u64, 198, 205, 199, 212, 40].iter().enumerate() {
            ev.extend(stall(10 + 10 * i as u64, 10 + i as u32, *w));
        }
        let out = run(&RULE, &[], &ev);
        assert_eq!(out.len(), 1);
        let f = &out[0];
        assert_eq!(f.count, 6);
        assert_eq!(metric(f, "stalls"), Metric::Int(6));
        // Each wait is measured EAGAIN exit -> good send exit: wait + 20 µs.
        assert_eq!(metric(f, "max_wait_ms"), Metric::num(212.02));
        assert_eq!(metric(f, "total_wait_ms"), Metric::num(1055.12));
        // Every wait is on the chart, in µs, with the delayed-ACK line.
        let c = f.chart.as_ref().unwrap();
        let waits: Vec<f64> = c.series[0].points.iter().map(|p| p.1).collect();
        assert_eq!(waits.len(), 6);
        assert_eq!(waits.iter().copied().fold(0.0, f64::max), 212_020.0);
        assert_eq!(c.refs[0].value, 200_000.0);
        assert_eq!(metric(f, "p95_wait_ms"), Metric::num(212.02));
        assert_eq!(metric(f, "errno"), Metric::Str("EAGAIN (11)".into()));
        assert_eq!(metric(f, "platform"), Metric::Str("AIX".into()));
        assert!(f.title.contains("delayed-ACK"), "{}", f.title);
        assert!(f.advice.contains("NoDelayAck=Y") && f.advice.contains("MQ_SET_NODELAYACK"));
        assert_eq!(f.subject.ident.as_deref(), Some("RSESS:00011e"));
        // First EAGAIN + the worst stall's three lines.
        assert_eq!(f.evidence.len(), 4);
        assert!(
            f.evidence
                .iter()
                .any(|e| e.text.contains("send rc=Unknown(B)"))
        );
    }

    #[test]
    fn single_short_stall_is_not_a_finding() {
        let mut ev = vec![header("Linux")];
        ev.extend(stall(10, 10, 1));
        assert!(run(&RULE, &[], &ev).is_empty());
        // ... unless the threshold says so.
        let out = run(&RULE, &[("min_wait_ms", 0.5)], &ev);
        assert_eq!(out.len(), 1);
        assert!(!out[0].title.contains("delayed-ACK"));
        assert!(out[0].advice.contains("SndBuffSize"));
    }

    #[test]
    fn errno_meaning_depends_on_platform() {
        // 35 is EAGAIN on macOS but EDEADLK on Linux.
        let mk = |os: &str| {
            let mut ev = vec![header(os)];
            let mut s = stall(10, 10, 300);
            s[0].rc = Some("Unknown(23)".into());
            ev.extend(s);
            run(&RULE, &[], &ev)
        };
        assert!(mk("Linux").is_empty());
        assert_eq!(mk("Darwin").len(), 1);
        // Windows code on a file whose platform comes from the inventory.
        let mut s = stall(10, 10, 300);
        s[0].rc = Some("Unknown(2733)".into());
        let mut fi = FileInfo::new(P, mqdiag_readers::formats::trace::FORMAT, 0);
        fi.platform = Some("Windows 10".into());
        let out = run_with(&RULE, &[], &s, &[fi]);
        assert_eq!(out.len(), 1);
        assert_eq!(
            metric(&out[0], "errno"),
            Metric::Str("WSAEWOULDBLOCK (10035)".into())
        );
    }

    #[test]
    fn retries_are_one_stall_and_broken_connections_unresolved() {
        let mut ev = vec![header("AIX 7.1")];
        ev.push(exit(
            P,
            10,
            "11:42:10.000000",
            9,
            1,
            "send",
            "Unknown(B)",
            5,
        ));
        ev.push(exit(
            P,
            11,
            "11:42:10.100000",
            9,
            1,
            "send",
            "Unknown(B)",
            5,
        ));
        ev.push(exit(P, 12, "11:42:10.300000", 9, 1, "send", "OK", 5));
        ev.push(exit(
            P,
            20,
            "11:42:11.000000",
            9,
            1,
            "send",
            "Unknown(B)",
            5,
        ));
        ev.push(exit(
            P,
            21,
            "11:42:11.500000",
            9,
            1,
            "cciTcpSend",
            "rrcE_CONNECTION_BROKEN",
            5,
        ));
        let out = run(&RULE, &[], &ev);
        assert_eq!(out.len(), 1);
        assert_eq!(metric(&out[0], "stalls"), Metric::Int(2));
        assert_eq!(metric(&out[0], "unresolved"), Metric::Int(1));
        assert_eq!(metric(&out[0], "max_wait_ms"), Metric::num(300.0));
    }

    #[test]
    fn other_errors_are_not_stalls() {
        let mut ev = vec![header("Linux")];
        ev.push(exit(
            P,
            10,
            "11:42:10.000000",
            9,
            1,
            "send",
            "Unknown(68)",
            5,
        )); // ECONNRESET
        ev.push(exit(P, 12, "11:42:12.000000", 9, 1, "send", "OK", 5));
        assert!(run(&RULE, &[], &ev).is_empty());
    }
}
