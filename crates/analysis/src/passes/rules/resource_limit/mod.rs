//! `resource-limit`: a limit the queue manager reached (its channel count,
//! a channel's instances, a dead-letter queue taking what a channel could
//! not deliver, a full recovery log), one story per limit and object,
//! naming the setting and, where the record states it, its value; and the
//! limits applications meet as MQI reason codes in traces (`calls`). The
//! messages, reasons and where their facts come from are data in
//! `mqdiag_readers::catalog::limits`.
//!
//! Event messages tell limits too: Queue Full and Queue Depth High per
//! queue, Channel Not Available by its qualifier (MaxActiveChannels,
//! MaxChannels, MAXINST, MAXINSTC) and Channel Not Activated; they join the
//! group of the same limit and object the error log's records make.

mod calls;

use mqdiag_model::findings::Part;
use crate::passes::builder::FindingBuilder;
use crate::passes::{Pass, RuleInfo, Settings, Threshold};
use mqdiag_readers::catalog::limits::{Limit, LimitMessage, event_limit_of, limit_of};

use mqdiag_model::event::{Event, Key, Kind, Ts};
use mqdiag_model::fileinfo::FileInfo;
use mqdiag_model::findings::{Evidence, EvidenceSet, Finding, Metric};
use mqdiag_model::problem::Severity;
use std::collections::{BTreeMap, BTreeSet};

pub(crate) static RULE: RuleInfo = RuleInfo {
    id: "resource-limit",
    severity: Severity::Error,
    summary: "Limits the queue manager reached: channels, channel instances, dead-letter puts, a full log, full queues, handles, connections, storage",
    trigger: "Every error-log, JSON-log, container-log or job-log record of AMQ9513 (maximum \
        number of channels reached), AMQ9544 (messages a channel could not put to their \
        destination went to a dead-letter queue), AMQ7463 (the queue manager's log is full), \
        CSQX489 (z/OS: maximum instance limit exceeded, MAXINST or MAXINSTC) or CSQX548 \
        (z/OS: messages sent to the local dead-letter queue, with the reason), and every \
        event message of Queue Full (2053), Queue Depth High (2224), Channel Not Activated \
        (2296) or Channel Not Available (2537) with reason qualifier MQRQ_MAX_ACTIVE_CHANNELS, \
        MQRQ_MAX_CHANNELS, MQRQ_SVRCONN_INST_LIMIT or MQRQ_CLIENT_INST_LIMIT. Records are \
        grouped by limit, queue manager and object (the channel where the record names one); \
        a group with at least `min_occurrences` records is a finding naming the limit, the \
        setting that governs it and its value where the record states it, the count, first \
        and last time, and the commands to look further. Also every MQI call in a trace \
        failing with 2053 MQRC_Q_FULL (MAXDEPTH), 2024 MQRC_SYNCPOINT_LIMIT_REACHED \
        (MAXUMSGS), 2025 MQRC_MAX_CONNS_LIMIT_REACHED, 2017 MQRC_HANDLE_NOT_AVAILABLE \
        (MAXHANDS), 2056 MQRC_Q_SPACE_NOT_AVAILABLE (disk), 2192 MQRC_STORAGE_MEDIUM_FULL \
        (z/OS page set or structure) or 2071 MQRC_STORAGE_NOT_AVAILABLE (memory), counted \
        once per call as in the calls table: one finding per limit and process with at least \
        `min_occurrences` failed calls.",
    thresholds: &[Threshold::new(
        "min_occurrences",
        1.0,
        "records",
        "fewest records of one limit and object to report",
    )
    .range(1.0, crate::passes::THRESHOLD_MAX)],
    advice: "Each finding names the setting that limits and the runmqsc commands, filled with \
        the queue manager and channel from the evidence, that show how close to it the queue \
        manager runs; look for the application that holds or floods the resource before \
        raising the limit.",
    fingerprint: &[Part::Qmgr, Part::Channel, Part::Queue, Part::Host, Part::Program, Part::Key("limit and object")],
    metrics: &["limit", "occurrences", "object"],
    functions: &[],
    keywords: &[],
    mqi_calls: true,
    smf_columns: &[],
    make: |s| Box::new(ResourceLimit::new(s)),
    explain: Some(crate::explain::resource_limit::explain),
    ..RuleInfo::BASE
};

/// Groups kept; records of further groups are counted in none.
const MAX_GROUPS: usize = 2000;

/// One limit reached on one object.
struct Group {
    message: &'static LimitMessage,
    qmgr: String,
    channel: Option<String>,
    /// The queue of a queue's limit (events name it).
    queue: Option<String>,
    occurrences: u64,
    first: Ts,
    last: Ts,
    ids: BTreeSet<String>,
    /// The limit's value as a record states it (`CSQX489E ... limit 20`).
    value: Option<String>,
    /// Where the dead-letter queue was: `1` (or `local`) local, `2` remote.
    locations: BTreeSet<String>,
    /// Reason codes the records state (z/OS dead-letter puts).
    reasons: BTreeSet<u32>,
    addresses: BTreeSet<String>,
    evidence: EvidenceSet,
}

pub(crate) struct ResourceLimit {
    min_occurrences: u64,
    groups: BTreeMap<(Limit, String, String), Group>,
    /// The stories of the run's MQI calls table (`calls_rows`).
    calls: Vec<calls::CallStory>,
}

impl ResourceLimit {
    fn new(s: &Settings) -> Self {
        ResourceLimit {
            min_occurrences: s.get("min_occurrences") as u64,
            groups: BTreeMap::new(),
            calls: Vec::new(),
        }
    }
}

fn non_empty(v: Option<&str>) -> Option<&str> {
    v.map(str::trim).filter(|v| !v.is_empty() && *v != "????")
}

impl Pass for ResourceLimit {
    fn kinds(&self) -> crate::passes::Kinds {
        crate::passes::Kinds::of(&[Kind::LogRecord, Kind::MqEvent])
    }

    fn observe(&mut self, e: &Event) {
        let m = match e.kind {
            Kind::LogRecord => limit_of(e),
            Kind::MqEvent => event_limit_of(e),
            _ => return,
        };
        let Some(m) = m else {
            return;
        };
        let qmgr = non_empty(e.get(Key::Qmgr)).unwrap_or("").to_string();
        // The queue manager's limits are about it alone; a channel's,
        // about the channel; a queue's, about the queue.
        let channel = match m.limit {
            Limit::DeadLetter | Limit::MaxInstances => non_empty(e.get(Key::Channel)),
            _ => None,
        };
        let queue = match m.limit {
            Limit::QueueFull | Limit::QueueDepthHigh => non_empty(e.get(Key::Queue)),
            _ => None,
        };
        let key = (
            m.limit,
            qmgr,
            channel.or(queue).unwrap_or("").to_string(),
        );
        if !self.groups.contains_key(&key) && self.groups.len() >= MAX_GROUPS {
            return;
        }
        let g = self.groups.entry(key).or_insert_with_key(|k| Group {
            message: m,
            qmgr: k.1.clone(),
            channel: channel.map(str::to_string),
            queue: queue.map(str::to_string),
            occurrences: 0,
            first: e.ts,
            last: e.ts,
            ids: BTreeSet::new(),
            value: None,
            locations: BTreeSet::new(),
            reasons: BTreeSet::new(),
            addresses: BTreeSet::new(),
            evidence: EvidenceSet::default(),
        });
        g.occurrences += 1;
        g.first = g.first.min(e.ts);
        g.last = g.last.max(e.ts);
        if g.ids.len() < 8 {
            g.ids.insert(e.get(Key::Msgid).unwrap_or(m.id).to_string());
        }
        if g.value.is_none() {
            g.value = non_empty(e.get(Key::Limit))
                .or_else(|| event_value(e, m.limit))
                .map(str::to_string);
        }
        if let Some(l) = non_empty(e.get(Key::DlqLocation))
            && g.locations.len() < 2
        {
            g.locations.insert(l.to_string());
        }
        if let Some(r) = non_empty(e.get(Key::Reason)).and_then(|r| r.parse().ok())
            && g.reasons.len() < 8
        {
            g.reasons.insert(r);
        }
        if let Some(a) = non_empty(e.get(Key::Address)).or(non_empty(e.get(Key::Host)))
            && g.addresses.len() < 16
        {
            g.addresses.insert(a.to_string());
        }
        g.evidence.push(Evidence::from_event(e));
    }

    /// MQI calls are counted once for the run; their reasons tell the
    /// limits applications meet.
    fn takes_calls_table(&mut self) -> bool {
        true
    }

    fn calls_rows(&mut self, rows: &[crate::calls::Row]) {
        self.calls = calls::stories(rows);
    }

    fn finish(&mut self, _inputs: &[FileInfo]) -> Vec<Finding> {
        let mut out: Vec<Finding> = self
            .groups
            .values()
            .filter(|g| g.occurrences >= self.min_occurrences)
            .map(finding)
            .collect();
        out.extend(
            self.calls
                .iter()
                .filter(|c| c.failures() >= self.min_occurrences)
                .map(calls::CallStory::finding),
        );
        out.sort_by(|a, b| a.first.cmp(&b.first).then(a.title.cmp(&b.title)));
        out
    }
}

/// The value an event message states of its limit: the queue's high
/// depth (its MAXDEPTH when full); for a channel limit, the first field
/// named `Maximum...` (the field's name is assumed from the event pages'
/// wording: no whole sample was found).
fn event_value(e: &Event, limit: Limit) -> Option<&str> {
    if e.kind != Kind::MqEvent {
        return None;
    }
    match limit {
        Limit::QueueFull | Limit::QueueDepthHigh => {
            non_empty(e.attr("highqueuedepth").or_else(|| e.attr("highqdepth")))
        }
        _ => e
            .attrs
            .iter()
            .find(|(k, _)| k.starts_with("maximum"))
            .and_then(|(_, v)| non_empty(Some(v))),
    }
}

fn finding(g: &Group) -> Finding {
    let object = g
        .channel
        .clone()
        .or_else(|| g.queue.clone())
        .unwrap_or_else(|| g.qmgr.clone());
    FindingBuilder::new(&RULE, RULE.severity, title(g))
        .span(Some(g.first), Some(g.last), g.occurrences)
        .subject(|s| {
            s.channel = g.channel.clone();
            s.queue = g.queue.clone();
            s.qmgr = (!g.qmgr.is_empty()).then(|| g.qmgr.clone());
        })
        .key(format!(
            "{}/{}/{}",
            g.message.limit.as_str(),
            g.qmgr,
            g.channel.as_deref().or(g.queue.as_deref()).unwrap_or("")
        ))
        .metrics(metrics(g, &object))
        .evidence(g.evidence.clone().into_sorted())
        .advice(advice(g))
        .build()
}

fn on_qmgr(g: &Group) -> String {
    if g.qmgr.is_empty() {
        String::new()
    } else {
        format!(" on {}", g.qmgr)
    }
}

fn title(g: &Group) -> String {
    let times = if g.occurrences > 1 {
        format!(" ({} records)", g.occurrences)
    } else {
        String::new()
    };
    let ch = g.channel.as_deref().unwrap_or("<channel>");
    let what = match g.message.limit {
        Limit::MaxChannels => format!("Maximum number of channels reached{}", on_qmgr(g)),
        Limit::MaxInstances => match &g.value {
            Some(v) => format!(
                "Maximum instances ({v}) of channel {ch} exceeded{}",
                on_qmgr(g)
            ),
            None => format!("Maximum instances of channel {ch} exceeded{}", on_qmgr(g)),
        },
        Limit::DeadLetter => format!(
            "Messages from channel {ch} put to a dead-letter queue{}",
            on_qmgr(g)
        ),
        Limit::LogFull => format!("Recovery log full{}", on_qmgr(g)),
        Limit::QueueFull if g.queue.is_some() => format!(
            "Queue {} full{}{}",
            g.queue.as_deref().unwrap_or_default(),
            g.value
                .as_deref()
                .map(|v| format!(" at {v} messages"))
                .unwrap_or_default(),
            on_qmgr(g)
        ),
        Limit::QueueDepthHigh => format!(
            "Queue {} depth high{}{}",
            g.queue.as_deref().unwrap_or("<queue>"),
            g.value
                .as_deref()
                .map(|v| format!(" ({v} messages)"))
                .unwrap_or_default(),
            on_qmgr(g)
        ),
        Limit::MaxActiveChannels => {
            format!("Maximum number of active channels reached{}", on_qmgr(g))
        }
        // Told by reason codes (`calls`), not by a message.
        other => format!("{}{}", calls::headline(other), on_qmgr(g)),
    };
    format!("{what}{times}")
}

fn metrics(g: &Group, object: &str) -> Vec<(&'static str, Metric)> {
    let ids: Vec<&str> = g.ids.iter().map(String::as_str).collect();
    let mut m = vec![
        ("limit", Metric::Str(g.message.limit.as_str().to_string())),
        ("occurrences", Metric::int(g.occurrences)),
        (
            "object",
            Metric::opt_str(Some(object).filter(|o| !o.is_empty())),
        ),
        ("message_id", Metric::Str(ids.join(", "))),
        ("setting", Metric::Str(g.message.setting.to_string())),
        ("setting_value", Metric::opt_str(g.value.as_deref())),
    ];
    if g.message.limit == Limit::DeadLetter {
        let at: Vec<&str> = g
            .locations
            .iter()
            .map(|l| match l.as_str() {
                "1" | "local" => "local",
                "2" => "remote",
                _ => "unknown",
            })
            .collect();
        m.push((
            "dead_letter_queue",
            Metric::opt_str(Some(at.join(", ")).as_deref().filter(|s| !s.is_empty())),
        ));
    }
    if !g.reasons.is_empty() {
        m.push(("reasons", Metric::Str(reasons(g))));
    }
    if !g.addresses.is_empty() {
        let a: Vec<&str> = g.addresses.iter().map(String::as_str).collect();
        m.push(("addresses", Metric::Str(a.join(", "))));
    }
    m
}

/// The reasons the records state, named: `2053 MQRC_Q_FULL, 2192 ...`.
fn reasons(g: &Group) -> String {
    let named: Vec<String> = g
        .reasons
        .iter()
        .map(|r| match mqdiag_model::mqrc::name(*r) {
            Some(n) => format!("{r} {n}"),
            None => r.to_string(),
        })
        .collect();
    named.join(", ")
}

/// The runmqsc commands that show the limit, filled with what the
/// evidence names (`<placeholders>` for what it does not).
fn advice(g: &Group) -> String {
    let qm = if g.qmgr.is_empty() {
        "<qmgr>"
    } else {
        g.qmgr.as_str()
    };
    let ch = g.channel.as_deref().unwrap_or("<channel>");
    match g.message.limit {
        Limit::MaxChannels => format!(
            "Every channel instance MaxChannels allows (CHANNELS stanza of qm.ini, default 100) \
             was in use, and new ones were refused (clients get 2537 MQRC_CHANNEL_NOT_AVAILABLE). \
             See which channels and clients hold them: `echo \"DISPLAY CHSTATUS(*) CONNAME \
             CURSHCNV\" | runmqsc {qm}`. Clients that connect per message or do not disconnect \
             (see connection-churn) are the usual cause: fix them, and limit each \
             server-connection channel with MAXINST/MAXINSTC, before raising MaxChannels \
             (a restart is needed)."
        ),
        Limit::MaxInstances => format!(
            "The server-connection channel reached its instance limit (MAXINST for the channel, \
             MAXINSTC per client address) and refused new instances. Compare the limit with \
             what runs: `DISPLAY CHANNEL({ch}) MAXINST MAXINSTC` and `DISPLAY CHSTATUS({ch}) \
             CONNAME CURSHCNV` on {qm}. Many instances from one address are a client that does \
             not disconnect or reuse its connection; raise the limit only if the load is real."
        ),
        Limit::DeadLetter => {
            let remote = g.locations.contains("2");
            let dlq = if remote {
                "the remote queue manager's dead-letter queue (location 2: look there)"
            } else {
                "the dead-letter queue"
            };
            let why = if g.reasons.is_empty() {
                String::new()
            } else {
                format!(" (reason {})", reasons(g))
            };
            // z/OS has neither program: its own handler.
            let (browse, retry) = if g.message.id.starts_with("CSQ") {
                (
                    "browse its messages".to_string(),
                    "the dead-letter queue handler, CSQUDLQH, with a rules table",
                )
            } else {
                (
                    format!("browse it (`amqsbcg <deadq> {qm}`)"),
                    "`runmqdlq` with a rules table",
                )
            };
            format!(
                "Channel {ch} could not put messages to their destination queue{why} and put \
                 them to {dlq}. Find the queue and depth: `DISPLAY QMGR DEADQ` and `DISPLAY \
                 QLOCAL(<deadq>) CURDEPTH` on {qm}; {browse} and \
                 read each message's dead-letter header: Reason (2053 MQRC_Q_FULL, 2051 \
                 MQRC_PUT_INHIBITED, 2085 MQRC_UNKNOWN_OBJECT_NAME, 2035 MQRC_NOT_AUTHORIZED) \
                 and DestQName. For a full queue, `DISPLAY QLOCAL(<destq>) CURDEPTH MAXDEPTH \
                 IPPROCS` shows whether its consumer stopped; once fixed, {retry} \
                 can retry the messages."
            )
        }
        Limit::LogFull => format!(
            "The recovery log has no room for more work: persistent and syncpoint work fails \
             until log space is released, and the queue manager may stop responding. A \
             long-running unit of work usually holds the log: `DISPLAY CONN(*) TYPE(CONN) \
             WHERE(UOWSTATE EQ ACTIVE) UOWLOGDA UOWLOGTI APPLTAG` on {qm} shows the oldest. \
             Commit or end it; size the log (LogPrimaryFiles, LogSecondaryFiles, \
             LogFilePages in the Log stanza of qm.ini) for the longest unit of work expected."
        ),
        Limit::QueueFull | Limit::QueueDepthHigh if g.queue.is_some() => {
            let q = g.queue.as_deref().unwrap_or_default();
            format!(
                "{}. Whether anything reads the queue: `DISPLAY QSTATUS({q}) TYPE(QUEUE) CURDEPTH \
                 IPPROCS LGETDATE LGETTIME MSGAGE` and its limits `DISPLAY QLOCAL({q}) MAXDEPTH \
                 QDEPTHHI` on {qm}. A consumer that stopped or falls behind is the usual cause: \
                 start or fix it before raising MAXDEPTH.",
                g.message.meaning
            )
        }
        Limit::MaxActiveChannels => format!(
            "Channels waited for an active slot: MaxActiveChannels (CHANNELS stanza of qm.ini) \
             were all in use. `DISPLAY CHSTATUS(*) STATUS CONNAME` on {qm} shows which channels \
             hold them; raise MaxActiveChannels (a restart is needed) only if the load is real."
        ),
        // Told by reason codes (`calls`), not by a message.
        _ => format!("The {} on {qm}: {}.", g.message.setting, g.message.meaning),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::passes::testutil::*;

    fn rec(line: u64, at: &str, id: &str, attrs: &[(&'static str, &str)]) -> Event {
        let mut all = vec![("msgid", id), ("qmgr", "QM1")];
        all.extend_from_slice(attrs);
        log(
            "qmgrs/QM1/errors/AMQERR01.LOG",
            line,
            at,
            &format!("{id}: text"),
            &all,
        )
    }

    #[test]
    fn one_story_per_limit_and_object() {
        let ev = vec![
            rec(
                1,
                "2024-05-01T10:00:00+00:00",
                "AMQ9544E",
                &[("channel", "QM2.QM1"), ("dlq_location", "1")],
            ),
            rec(2, "2024-05-01T10:01:00+00:00", "AMQ9513E", &[]),
            rec(
                3,
                "2024-05-01T10:02:00+00:00",
                "AMQ9544",
                &[("channel", "QM2.QM1"), ("dlq_location", "1")],
            ),
            rec(
                4,
                "2024-05-01T10:03:00+00:00",
                "AMQ9544E",
                &[("channel", "QM3.QM1")],
            ),
            rec(5, "2024-05-01T10:04:00+00:00", "AMQ9209E", &[]),
        ];
        let out = run(&RULE, &[], &ev);
        assert_eq!(out.len(), 3);
        let dlq = &out[0];
        assert_eq!(dlq.count, 2);
        assert_eq!(dlq.subject.channel.as_deref(), Some("QM2.QM1"));
        assert_eq!(metric(dlq, "limit"), Metric::Str("dead-letter".into()));
        assert_eq!(metric(dlq, "object"), Metric::Str("QM2.QM1".into()));
        assert_eq!(
            metric(dlq, "dead_letter_queue"),
            Metric::Str("local".into())
        );
        assert_eq!(
            metric(dlq, "message_id"),
            Metric::Str("AMQ9544, AMQ9544E".into())
        );
        assert!(
            dlq.advice
                .contains("`DISPLAY QLOCAL(<deadq>) CURDEPTH` on QM1")
        );
        assert_eq!(metric(&out[1], "object"), Metric::Str("QM1".into()));
        assert_eq!(out[2].count, 1);
        let out = run(&RULE, &[("min_occurrences", 2.0)], &ev);
        assert_eq!(out.len(), 1);
    }

    fn limit_event(line: u64, at: &str, attrs: &[(&'static str, &str)]) -> Event {
        let mut e = log("QM1.events.txt", line, at, "event", attrs);
        e.kind = Kind::MqEvent;
        e
    }

    #[test]
    fn events_tell_queue_and_channel_limits() {
        let ev = vec![
            limit_event(
                1,
                "2024-05-01T10:00:00+00:00",
                &[
                    ("reason", "2053"),
                    ("qmgr", "QM1"),
                    ("queue", "ORDERS.IN"),
                    ("highqueuedepth", "5000"),
                ],
            ),
            limit_event(
                2,
                "2024-05-01T10:01:00+00:00",
                &[
                    ("reason", "2537"),
                    ("qualifier", "MQRQ_SVRCONN_INST_LIMIT"),
                    ("qmgr", "QM1"),
                    ("channel", "APP.SVRCONN"),
                    ("maximuminstances", "10"),
                ],
            ),
            // A channel that stopped is no limit.
            limit_event(
                3,
                "2024-05-01T10:02:00+00:00",
                &[("reason", "2537"), ("qualifier", "MQRQ_CHANNEL_STOPPED_ERROR")],
            ),
        ];
        let out = run(&RULE, &[], &ev);
        assert_eq!(out.len(), 2, "{out:#?}");
        assert_eq!(out[0].title, "Queue ORDERS.IN full at 5000 messages on QM1");
        assert_eq!(out[0].subject.queue.as_deref(), Some("ORDERS.IN"));
        assert_eq!(metric(&out[0], "object"), Metric::Str("ORDERS.IN".into()));
        assert_eq!(
            metric(&out[0], "message_id"),
            Metric::Str("MQRC_Q_FULL".into())
        );
        assert_eq!(metric(&out[1], "limit"), Metric::Str("max-instances".into()));
        assert_eq!(metric(&out[1], "setting_value"), Metric::Str("10".into()));
        assert!(out[1].title.contains("Maximum instances (10) of channel APP.SVRCONN"));
    }

    #[test]
    fn instance_limit_names_its_value() {
        let ev = vec![rec(
            1,
            "2024-05-01T10:00:00+00:00",
            "CSQX489E",
            &[
                ("channel", "APP2.SVRCONN"),
                ("limit", "20"),
                ("address", "10.1.2.4"),
            ],
        )];
        let out = run(&RULE, &[], &ev);
        assert_eq!(out.len(), 1);
        assert_eq!(metric(&out[0], "setting_value"), Metric::Str("20".into()));
        assert_eq!(metric(&out[0], "addresses"), Metric::Str("10.1.2.4".into()));
        assert!(
            out[0]
                .title
                .contains("Maximum instances (20) of channel APP2.SVRCONN")
        );
        assert!(
            out[0]
                .advice
                .contains("DISPLAY CHANNEL(APP2.SVRCONN) MAXINST MAXINSTC")
        );
    }
}
