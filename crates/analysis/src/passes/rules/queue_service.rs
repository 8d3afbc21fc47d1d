//! `queue-service`: queues whose messages were not got within the queue's
//! service interval (QSVCINT), as the queue manager announced it with
//! Queue Service Interval High (2226) and OK (2227) event messages (IBM MQ
//! documentation, "Queue Service Interval High", "Queue Service Interval
//! OK"). One story per queue manager and queue: how many High events, the
//! last state, and the queue's counts at the last High event. A queue that
//! `qtime-growth` also reports is the same queue in its subject, so the two
//! stand side by side.

use crate::passes::builder::FindingBuilder;
use crate::passes::{Pass, RuleInfo, Settings, Threshold};
use mqdiag_model::event::{Event, Key, Kind, Ts};
use mqdiag_model::fileinfo::FileInfo;
use mqdiag_model::findings::Part;
use mqdiag_model::findings::{Evidence, EvidenceSet, Finding, Metric};
use mqdiag_model::problem::Severity;
use std::collections::BTreeMap;

pub(crate) static RULE: RuleInfo = RuleInfo {
    id: "queue-service",
    severity: Severity::Warning,
    summary: "Queues not serviced within their service interval (Queue Service Interval High events)",
    trigger: "Every event message of Queue Service Interval High (2226) and Queue Service \
        Interval OK (2227), grouped by queue manager and queue. A queue with at least \
        `min_events` High events is a finding: warning while the last event of the queue is \
        High (nothing said it recovered), info when an OK event came after the last High.",
    thresholds: &[Threshold::new(
        "min_events",
        1.0,
        "events",
        "fewest Queue Service Interval High events of one queue to report",
    )
    .range(1.0, crate::passes::THRESHOLD_MAX)],
    advice: "A message stayed on the queue longer than its QSVCINT without a get: the \
        consumer stopped, is too slow or gets with a selector that skips it.",
    metrics: &["queue", "high_events", "ok_events", "last_state"],
    functions: &[],
    keywords: &[],
    mqi_calls: false,
    smf_columns: &[],
    make: |s| Box::new(QueueService::new(s)),
    fingerprint: &[Part::Qmgr, Part::Queue, Part::Key("queue and its queue manager, as one name")],
    ..RuleInfo::BASE
};

/// Queues kept; further queues are counted in none.
const MAX_QUEUES: usize = 2000;

#[derive(Default)]
struct Queue {
    high: u64,
    ok: u64,
    first: Option<Ts>,
    last: Option<Ts>,
    /// Whether the last event was High.
    open: bool,
    /// The last High event's counts: time since reset, high depth,
    /// enqueued, dequeued.
    counts: [Option<String>; 4],
    evidence: EvidenceSet,
    last_evidence: Option<Evidence>,
}

pub(crate) struct QueueService {
    min_events: u64,
    queues: BTreeMap<(String, String), Queue>,
}

impl QueueService {
    fn new(s: &Settings) -> Self {
        QueueService {
            min_events: s.get("min_events").max(1.0) as u64,
            queues: BTreeMap::new(),
        }
    }
}

impl Pass for QueueService {
    fn kinds(&self) -> crate::passes::Kinds {
        crate::passes::Kinds::of(&[Kind::MqEvent])
    }

    fn observe(&mut self, e: &Event) {
        if e.kind != Kind::MqEvent {
            return;
        }
        let high = match e.get(Key::Reason) {
            Some("2226") => true,
            Some("2227") => false,
            _ => return,
        };
        let Some(queue) = e.get(Key::Queue).or(e.get(Key::Object)) else {
            return;
        };
        let key = (
            e.get(Key::Qmgr).unwrap_or("").to_string(),
            queue.to_string(),
        );
        if !self.queues.contains_key(&key) && self.queues.len() >= MAX_QUEUES {
            return;
        }
        let q = self.queues.entry(key).or_default();
        q.first = Some(q.first.map_or(e.ts, |f| f.min(e.ts)));
        q.last = Some(q.last.map_or(e.ts, |l| l.max(e.ts)));
        q.open = high;
        if high {
            q.high += 1;
            for (slot, names) in q.counts.iter_mut().zip([
                ["timesincereset", "timesincereset"],
                ["highqueuedepth", "highqdepth"],
                ["msgenqcount", "msgenqcount"],
                ["msgdeqcount", "msgdeqcount"],
            ]) {
                *slot = e.attr(names[0]).or(e.attr(names[1])).map(str::to_string);
            }
        } else {
            q.ok += 1;
        }
        let ev = Evidence::from_event(e);
        if q.evidence.is_full() {
            q.last_evidence = Some(ev);
        } else {
            q.evidence.push(ev);
        }
    }

    fn finish(&mut self, _inputs: &[FileInfo]) -> Vec<Finding> {
        self.queues
            .iter()
            .filter(|(_, q)| q.high >= self.min_events)
            .map(|((qmgr, queue), q)| finding(qmgr, queue, q))
            .collect()
    }
}

fn finding(qmgr: &str, queue: &str, q: &Queue) -> Finding {
    let severity = if q.open {
        Severity::Warning
    } else {
        Severity::Info
    };
    let on = if qmgr.is_empty() {
        String::new()
    } else {
        format!(" on {qmgr}")
    };
    let state = if q.open {
        "no OK event after the last"
    } else {
        "serviced again (OK event) after the last"
    };
    let n = q.high;
    let title = format!(
        "Queue {queue}{on} not serviced within its service interval: {n} Queue Service Interval High event{}, {state}",
        if n == 1 { "" } else { "s" }
    );
    let [since, depth, enq, deq] = &q.counts;
    let mut ev = q.evidence.clone();
    if let Some(l) = &q.last_evidence {
        if ev.is_full() {
            ev.lines.pop();
        }
        ev.push(l.clone());
    }
    let qm = if qmgr.is_empty() { "<qmgr>" } else { qmgr };
    let num = |v: &Option<String>| Metric::opt_str(v.as_deref());
    FindingBuilder::new(&RULE, severity, title)
        .span(q.first, q.last, q.high)
        .subject(|s| {
            s.queue = Some(queue.to_string());
            s.qmgr = (!qmgr.is_empty()).then(|| qmgr.to_string());
        })
        .key(format!("{qmgr}/{queue}"))
        .metrics([
            ("queue", Metric::Str(queue.to_string())),
            ("high_events", Metric::int(q.high)),
            ("ok_events", Metric::int(q.ok)),
            (
                "last_state",
                Metric::Str(if q.open { "high" } else { "ok" }.to_string()),
            ),
            ("time_since_reset_s", num(since)),
            ("high_q_depth", num(depth)),
            ("msg_enq_count", num(enq)),
            ("msg_deq_count", num(deq)),
        ])
        .evidence(ev.into_sorted())
        .advice(format!(
            "No message was got from {queue} within its service interval. See whether \
             anything reads it and how old its oldest message is: `DISPLAY QSTATUS({queue}) \
             TYPE(QUEUE) IPPROCS CURDEPTH MSGAGE LGETDATE LGETTIME` on {qm}, and the interval \
             itself: `DISPLAY QLOCAL({queue}) QSVCINT QSVCIEV`. Start or speed up the consumer; \
             raise QSVCINT only if the delay is expected."
        ))
        .build()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::passes::testutil::*;

    fn svc(line: u64, at: &str, reason: &str, queue: &str) -> Event {
        let mut e = log(
            "QM1.events.txt",
            line,
            at,
            "event",
            &[
                ("reason", reason),
                ("qmgr", "QM1"),
                ("queue", queue),
                ("msgdeqcount", "0"),
            ],
        );
        e.kind = Kind::MqEvent;
        e
    }

    #[test]
    fn one_story_per_queue_told_by_its_last_state() {
        let ev = vec![
            svc(1, "2024-05-01T10:00:00+00:00", "2226", "ORDERS.IN"),
            svc(2, "2024-05-01T10:05:00+00:00", "2226", "ORDERS.IN"),
            svc(3, "2024-05-01T10:06:00+00:00", "2226", "BILLING.IN"),
            svc(4, "2024-05-01T10:07:00+00:00", "2227", "BILLING.IN"),
            // A queue only ever OK: nothing to say.
            svc(5, "2024-05-01T10:08:00+00:00", "2227", "OTHER.IN"),
        ];
        let out = run(&RULE, &[], &ev);
        assert_eq!(out.len(), 2, "{out:#?}");
        let billing = &out[0];
        assert_eq!(billing.subject.queue.as_deref(), Some("BILLING.IN"));
        assert_eq!(billing.severity, Severity::Info);
        assert_eq!(metric(billing, "last_state"), Metric::Str("ok".into()));
        let orders = &out[1];
        assert_eq!(orders.severity, Severity::Warning);
        assert_eq!(orders.count, 2);
        assert_eq!(metric(orders, "msg_deq_count"), Metric::Str("0".into()));
        assert!(orders.title.contains("2 Queue Service Interval High events"));
        assert_eq!(run(&RULE, &[("min_events", 3.0)], &ev).len(), 0);
    }
}
