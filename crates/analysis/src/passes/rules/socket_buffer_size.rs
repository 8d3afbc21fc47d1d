//! `socket-buffer-size`: the socket buffers a channel process ended up
//! with (`Final socket ... buffer size`) against what the operating system
//! offered (`Current socket ... buffer size`), on the direction that
//! carries the data (seed 004: 2 KB / 32 KB buffers over a 40 ms link).

use mqdiag_model::findings::Part;
use crate::passes::builder::FindingBuilder;
use crate::passes::patterns::{self, Stage};
use crate::passes::{Pass, RuleInfo, Settings, Threshold};
use mqdiag_model::event::{Event, Kind, Ts};
use mqdiag_model::fileinfo::FileInfo;
use mqdiag_model::findings::{
    Evidence, EvidenceSet, Finding, Metric, human_bytes, human_rate, thousands,
};
use mqdiag_model::problem::Severity;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

pub(crate) static RULE: RuleInfo = RuleInfo {
    id: "socket-buffer-size",
    severity: Severity::Warning,
    summary: "Channel sockets whose final buffer on the data-carrying side is smaller than the operating system offered",
    trigger: "In a formatted trace, the lines `Current socket send|receive buffer size: N` (what \
        the operating system gave the new socket), `Socket send|receive buffer size: N` (what MQ \
        asked for) and `Final socket send|receive buffer size: N` (what the socket has after MQ \
        set it), collected per thread and trace ident; a new `Current` line after a `Final` one \
        starts the next connection. The side is taken from the request: a larger send than \
        receive request is a sender (data flows out: the send buffer matters), a larger receive \
        request a receiver (the receive buffer matters); with equal or missing requests both \
        directions are checked. A connection is reported when the final size (or, without a \
        `Final` line, the requested one) of a data-carrying direction is below `max_ratio` times \
        the current size. Identical results of one process are reported once with a count.",
    thresholds: &[
        Threshold::new(
            "max_ratio",
            0.5,
            "fraction",
            "report when final < max_ratio x what the operating system offered",
        )
        .range(0.0, 1.0),
        Threshold::new(
            "rtt_ms",
            10.0,
            "ms",
            "round-trip time for the `ceiling_bytes_per_s` metric",
        )
        .range(0.001, 100_000.0),
    ],
    advice: "TCP sends at most one buffer per round trip, so a small buffer caps the channel at \
        buffer / RTT whatever the bandwidth. Set the buffers in the `TCP:` stanza of qm.ini: \
        `SndBuffSize` and `RcvBuffSize` for the sending end of channels, `RcvSndBuffSize` and \
        `RcvRcvBuffSize` for the receiving end; `ClntSndBuffSize` and `ClntRcvBuffSize` in \
        mqclient.ini for clients; 0 lets the operating system choose (and auto-tune).",
    fingerprint: &[Part::Host, Part::Program, Part::Key("side and direction")],
    metrics: &[
        "send_current",
        "send_requested",
        "send_final",
        "recv_current",
        "recv_requested",
        "recv_final",
    ],
    functions: &[],
    keywords: &["buffer size"],
    smf_columns: &[],
    make: |s| Box::new(SocketBufferSize::new(s)),
    explain: Some(crate::explain::socket_buffer_size::explain),
    ..RuleInfo::BASE
};

/// The RTTs the ceiling is shown for.
const SHOWN_RTTS_MS: [f64; 4] = [1.0, 10.0, 40.0, 100.0];

#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Sizes {
    send_current: Option<u64>,
    send_requested: Option<u64>,
    send_final: Option<u64>,
    recv_current: Option<u64>,
    recv_requested: Option<u64>,
    recv_final: Option<u64>,
}

impl Sizes {
    fn has_final(&self) -> bool {
        self.send_final.is_some() || self.recv_final.is_some()
    }
}

#[derive(Default)]
struct Open {
    sizes: Sizes,
    first: Option<Ts>,
    last: Option<Ts>,
    evidence: EvidenceSet,
}

struct Done {
    count: u64,
    first: Option<Ts>,
    last: Option<Ts>,
    tid: u32,
    ident: Option<String>,
    evidence: Vec<Evidence>,
}

type ConnKey = (Arc<str>, u32, u32, Option<String>);
/// One finding per process and result.
type DoneKey = (Arc<str>, u32, Sizes);

/// Distinct results kept per run; beyond this only counts grow.
const MAX_RESULTS: usize = 1000;

pub(crate) struct SocketBufferSize {
    max_ratio: f64,
    rtt_ms: f64,
    open: HashMap<ConnKey, Open>,
    done: BTreeMap<DoneKey, Done>,
}

impl SocketBufferSize {
    pub(crate) fn new(s: &Settings) -> Self {
        SocketBufferSize {
            max_ratio: s.get("max_ratio"),
            rtt_ms: s.get("rtt_ms"),
            open: HashMap::new(),
            done: BTreeMap::new(),
        }
    }

    fn complete(&mut self, key: ConnKey, o: Open) {
        let (path, pid, tid, ident) = key;
        let k = (path, pid, o.sizes);
        if !self.done.contains_key(&k) && self.done.len() >= MAX_RESULTS {
            return;
        }
        let d = self.done.entry(k).or_insert_with(|| Done {
            count: 0,
            first: o.first,
            last: o.last,
            tid,
            ident,
            evidence: o.evidence.into_sorted(),
        });
        d.count += 1;
        if o.last > d.last {
            d.last = o.last;
        }
    }
}

/// Which directions carry the data, from what MQ asked for.
fn data_directions(s: &Sizes) -> (&'static str, Vec<bool>) {
    match (s.send_requested, s.recv_requested) {
        (Some(a), Some(b)) if a > b => ("sender", vec![true]),
        (Some(a), Some(b)) if b > a => ("receiver", vec![false]),
        _ => ("unknown", vec![true, false]),
    }
}

impl Pass for SocketBufferSize {
    fn kinds(&self) -> crate::passes::Kinds {
        crate::passes::Kinds::of(&[Kind::Text])
    }

    fn observe(&mut self, e: &Event) {
        if e.kind != Kind::Text {
            return;
        }
        let Some(b) = patterns::socket_buffer(&e.text) else {
            return;
        };
        let (Some(pid), Some(tid)) = (e.pid, e.tid) else {
            return;
        };
        let key: ConnKey = (
            e.origin.path.clone(),
            pid,
            tid,
            e.ident.as_deref().map(String::from),
        );
        if b.stage == Stage::Current
            && self.open.get(&key).is_some_and(|o| o.sizes.has_final())
            && let Some(o) = self.open.remove(&key)
        {
            self.complete(key.clone(), o);
        }
        let o = self.open.entry(key).or_default();
        let slot = match (b.stage, b.send) {
            (Stage::Current, true) => &mut o.sizes.send_current,
            (Stage::Requested, true) => &mut o.sizes.send_requested,
            (Stage::Final, true) => &mut o.sizes.send_final,
            (Stage::Current, false) => &mut o.sizes.recv_current,
            (Stage::Requested, false) => &mut o.sizes.recv_requested,
            (Stage::Final, false) => &mut o.sizes.recv_final,
        };
        *slot = Some(b.bytes);
        if o.first.is_none() {
            o.first = Some(e.ts);
        }
        o.last = Some(e.ts);
        o.evidence.push(Evidence::from_event(e));
    }

    fn finish(&mut self, inputs: &[FileInfo]) -> Vec<Finding> {
        let open: Vec<(ConnKey, Open)> = self.open.drain().collect();
        for (k, o) in open {
            self.complete(k, o);
        }
        let process: HashMap<&str, &str> = inputs
            .iter()
            .filter_map(|i| Some((i.path.as_str(), i.process.as_deref()?)))
            .collect();
        let mut out = Vec::new();
        for ((path, pid, s), d) in std::mem::take(&mut self.done) {
            let (side, dirs) = data_directions(&s);
            let Some(h) = self.worst(&s, dirs) else {
                continue;
            };
            let f = FindingBuilder::new(&RULE, RULE.severity, self.title(&h, side))
                .span(d.first, d.last, d.count)
                .subject(|sub| {
                    sub.pid = Some(pid);
                    sub.tid = Some(d.tid);
                    sub.ident = d.ident.clone();
                    sub.program = process.get(&*path).map(|p| p.to_string());
                })
                .key(format!("{side}/{}", h.dir()))
                .metrics(self.metrics(&s, side, &h))
                .kept_evidence(d.evidence)
                .advice(self.advice(&h, side));
            out.push(f.build());
        }
        out
    }
}

/// The direction a finding is about: its final (or requested) buffer
/// against what the operating system offered.
struct Hit {
    send: bool,
    fin: u64,
    cur: u64,
    had_final: bool,
}

impl Hit {
    fn dir(&self) -> &'static str {
        if self.send { "send" } else { "receive" }
    }

    /// The most one buffer per round trip carries.
    fn ceiling(&self, rtt_ms: f64) -> f64 {
        self.fin as f64 / (rtt_ms / 1000.0)
    }
}

impl SocketBufferSize {
    /// The worst data-carrying direction below the ratio.
    fn worst(&self, s: &Sizes, dirs: Vec<bool>) -> Option<Hit> {
        let mut hit: Option<Hit> = None;
        for send in dirs {
            let (cur, req, fin) = if send {
                (s.send_current, s.send_requested, s.send_final)
            } else {
                (s.recv_current, s.recv_requested, s.recv_final)
            };
            let (Some(cur), Some(fin)) = (cur, fin.or(req)) else {
                continue;
            };
            if (fin as f64) < cur as f64 * self.max_ratio
                && hit
                    .as_ref()
                    .is_none_or(|h| (fin as f64 / cur as f64) < h.fin as f64 / h.cur as f64)
            {
                hit = Some(Hit {
                    send,
                    fin,
                    cur,
                    had_final: s.has_final(),
                });
            }
        }
        hit
    }

    fn title(&self, h: &Hit, side: &str) -> String {
        format!(
            "{} buffer {} of {} offered{}: at most {} at {} ms RTT",
            if h.send { "Send" } else { "Receive" },
            human_bytes(h.fin),
            human_bytes(h.cur),
            match side {
                "sender" => " (sender)",
                "receiver" => " (receiver)",
                _ => "",
            },
            human_rate(h.ceiling(self.rtt_ms)),
            self.rtt_ms
        )
    }

    fn metrics(&self, s: &Sizes, side: &str, h: &Hit) -> Vec<(&'static str, Metric)> {
        let m = Metric::opt_int;
        vec![
            ("send_current", m(s.send_current)),
            ("send_requested", m(s.send_requested)),
            ("send_final", m(s.send_final)),
            ("recv_current", m(s.recv_current)),
            ("recv_requested", m(s.recv_requested)),
            ("recv_final", m(s.recv_final)),
            ("side", Metric::Str(side.to_string())),
            ("data_direction", Metric::Str(h.dir().to_string())),
            ("rtt_ms", Metric::num(self.rtt_ms)),
            (
                "ceiling_bytes_per_s",
                Metric::num(h.ceiling(self.rtt_ms).round()),
            ),
        ]
    }

    fn advice(&self, h: &Hit, side: &str) -> String {
        let mut rtts: Vec<f64> = SHOWN_RTTS_MS.to_vec();
        if !rtts.contains(&self.rtt_ms) {
            rtts.push(self.rtt_ms);
            rtts.sort_by(|a, b| a.total_cmp(b));
        }
        let ceilings: Vec<String> = rtts
            .iter()
            .map(|r| format!("{} at {r} ms", human_rate(h.ceiling(*r))))
            .collect();
        let keys = match (side, h.send) {
            ("sender", _) => {
                "This end sends the data (it asked for a larger send than receive buffer, as a \
                 sending channel does). Raise `SndBuffSize` in the `TCP:` stanza of its qm.ini \
                 (mqclient.ini `ClntSndBuffSize` for a client), and `RcvRcvBuffSize` on the \
                 receiving queue manager so its window does not become the next limit"
            }
            ("receiver", _) => {
                "This end receives the data (it asked for a larger receive than send buffer, \
                 as a receiving channel does). Raise `RcvRcvBuffSize` in the `TCP:` stanza of \
                 its qm.ini (mqclient.ini `ClntRcvBuffSize` for a client), and `SndBuffSize` on \
                 the sending queue manager"
            }
            (_, true) => {
                "Raise the send buffer of this end: `SndBuffSize` (sending channels) or \
                 `RcvSndBuffSize` (receiving channels) in the `TCP:` stanza of qm.ini, \
                 `ClntSndBuffSize` in mqclient.ini for clients"
            }
            (_, false) => {
                "Raise the receive buffer of this end: `RcvBuffSize` (sending channels) or \
                 `RcvRcvBuffSize` (receiving channels) in the `TCP:` stanza of qm.ini, \
                 `ClntRcvBuffSize` in mqclient.ini for clients"
            }
        };
        format!(
            "The final {} buffer of {} bytes is {:.0} % of the {} bytes the operating system \
             offered{}. TCP moves at most one buffer per round trip, so this connection cannot \
             exceed {}. {keys}; 0 lets the operating system choose and auto-tune, otherwise size \
             it to at least bandwidth x RTT. Restart the channel afterwards and check the new \
             `Final socket ... buffer size` line in a trace.",
            h.dir(),
            thousands(h.fin),
            h.fin as f64 * 100.0 / h.cur as f64,
            thousands(h.cur),
            if h.had_final {
                ""
            } else {
                " (no `Final` line: the requested size is shown)"
            },
            ceilings.join(", ")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::passes::testutil::*;

    fn lines(path: &str, tid: u32, v: [u64; 6]) -> Vec<Event> {
        let texts = [
            format!("Current socket receive buffer size: {}", v[0]),
            format!("Current socket send buffer size: {}", v[1]),
            format!("Socket send buffer size: {}", v[2]),
            format!("Socket receive buffer size: {}", v[3]),
            format!("Final socket receive buffer size: {}", v[4]),
            format!("Final socket send buffer size: {}", v[5]),
        ];
        texts
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let mut e = trace(
                    path,
                    20 + i as u64,
                    &format!("11:42:20.{:06}", 100 + i),
                    7,
                    tid,
                    Kind::Text,
                    t,
                );
                e.ident = Some("RSESS:000011".into());
                e
            })
            .collect()
    }

    #[test]
    fn seed_004_sender_and_receiver_on_aix() {
        // Values from seed 004 (AIX): sender, then receiver.
        let mut ev = lines("sdr.FMT", 1, [262088, 262088, 32766, 2048, 2048, 32766]);
        ev.extend(lines(
            "rcvr.FMT",
            1,
            [262088, 262088, 2048, 32766, 32766, 2048],
        ));
        let out = run(&RULE, &[], &ev);
        assert_eq!(out.len(), 2);
        let sdr = out
            .iter()
            .find(|f| f.evidence[0].path == "sdr.FMT")
            .unwrap();
        assert_eq!(metric(sdr, "side"), Metric::Str("sender".into()));
        assert_eq!(metric(sdr, "data_direction"), Metric::Str("send".into()));
        assert_eq!(metric(sdr, "send_final"), Metric::Int(32766));
        assert_eq!(metric(sdr, "send_current"), Metric::Int(262088));
        assert_eq!(metric(sdr, "recv_final"), Metric::Int(2048));
        assert_eq!(metric(sdr, "ceiling_bytes_per_s"), Metric::num(3_276_600.0));
        assert!(sdr.advice.contains("SndBuffSize") && sdr.advice.contains("RcvRcvBuffSize"));
        assert!(sdr.advice.contains("819 KB/s at 40 ms"), "{}", sdr.advice);
        assert_eq!(sdr.evidence.len(), 6);
        let rcvr = out
            .iter()
            .find(|f| f.evidence[0].path == "rcvr.FMT")
            .unwrap();
        assert_eq!(metric(rcvr, "side"), Metric::Str("receiver".into()));
        assert_eq!(metric(rcvr, "recv_final"), Metric::Int(32766));
        assert_eq!(
            rcvr.title,
            "Receive buffer 32 KiB of 256 KiB offered (receiver): at most 3.3 MB/s at 10 ms RTT"
        );
    }

    #[test]
    fn hybrid_platform_receiver_keeps_the_offered_size() {
        // Seed 004, non-IBM receiver: final receive 263536 = current.
        let ev = lines("r.FMT", 1, [263536, 262144, 2048, 32766, 263536, 2048]);
        assert!(run(&RULE, &[], &ev).is_empty());
    }

    #[test]
    fn repeated_connections_are_counted_once() {
        let mut ev = lines("s.FMT", 1, [262088, 262088, 32766, 2048, 2048, 32766]);
        ev.extend(lines(
            "s.FMT",
            1,
            [262088, 262088, 32766, 2048, 2048, 32766],
        ));
        let out = run(&RULE, &[("rtt_ms", 40.0)], &ev);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].count, 2);
        assert_eq!(
            metric(&out[0], "ceiling_bytes_per_s"),
            Metric::num(819_150.0)
        );
        assert!(
            out[0].title.ends_with("at most 819 KB/s at 40 ms RTT"),
            "{}",
            out[0].title
        );
    }
}
