//! `mqi-failures`: MQI calls in traces that failed with a reason code that
//! is never a normal outcome (2009, 2035, 2059, 2538, ...).
//!
//! The calls are found, folded across layers and decoded by `calls` (one
//! count per application call, see there); this pass reads its per-process
//! rows. One finding per process, verb and reason: the process is what a
//! person fixes (its user id, its CONNAME, its object names), and one
//! reason on one verb has one remedy. Normal outcomes (2033 on MQGET, ...,
//! see `mqrc::classify`) and failures not in `NEVER_NORMAL` (2042
//! OBJECT_IN_USE under exclusive input, 2003 BACKED_OUT, ...) are counted
//! by `calls` but not flagged.

use mqdiag_model::findings::Part;
use crate::calls::{By, Calls, ReasonStat, Row, Stats};
use std::collections::BTreeMap;
use crate::passes::{Pass, RuleInfo, Settings, Threshold};
use mqdiag_model::event::Event;
use mqdiag_model::fileinfo::FileInfo;
use mqdiag_model::findings::{Finding, Metric, Subject};
use mqdiag_model::problem::Severity;

pub(crate) static RULE: RuleInfo = RuleInfo {
    id: "mqi-failures",
    severity: Severity::Error,
    summary: "MQI calls in traces failing with reason codes that are never a normal outcome",
    trigger: "Every MQI call (MQCONN, MQCONNX, MQOPEN, MQPUT, MQGET, ... and their zst/tmzst/trmzst \
        layers, counted once) whose exit `rc=` (name, decimal or hexadecimal) or a `Reason=` \
        line stated in or just after the call gives one of: 2009, 2018, 2019, 2024, 2025, 2030, \
        2031, 2035, 2051, 2053, 2058, 2059, 2063, 2071, 2082, 2085, 2086, 2087, 2102, 2161, \
        2162, 2189, 2195, 2202, 2203, 2217, 2218, 2381, 2393, 2397, 2537, 2538, 2539, 2540, 2548. \
        One finding per process, verb and reason with at least `min_failures` failures. \
        Severity error for connection, security and TLS failures, warning for the others.",
    thresholds: &[Threshold::new(
        "min_failures",
        1.0,
        "calls",
        "fewest failed calls of one process, verb and reason to report",
    )
    .range(1.0, f64::MAX)],
    advice: "Each reason has its own remedy, named in the finding: for 2035 the channel \
        authentication rules and authorities (AMQ9777 and AMQ8077 in the queue manager's error \
        log), for 2059 and 2538 the queue manager, listener and CONNAME, for 2009 the network \
        between the ends (HBINT, KAINT), for 2085 the object name.",
    fingerprint: &[Part::Host, Part::Program, Part::Key("verb and reason")],
    metrics: &["verb", "reason", "reason_name", "failures", "calls"],
    functions: &[],
    keywords: &[],
    mqi_calls: true,
    smf_columns: &[],
    make: |s| Box::new(MqiFailures::new(s)),
    ..RuleInfo::BASE
};

/// `(reason, connection or security class, advice)`.
static NEVER_NORMAL: &[(u32, bool, &str)] = &[
    (
        2009,
        true,
        "The connection to the queue manager broke during the call: read both ends' error logs at that time (AMQ9208, AMQ9206, AMQ9259), look for firewalls or load balancers dropping idle sessions, set heartbeats (HBINT) and TCP keepalive (KAINT, `KeepAlive=Yes` in the qm.ini/mqclient.ini TCP stanza), and let the application reconnect (MQCNO_RECONNECT or the client's reconnect options).",
    ),
    (
        2018,
        false,
        "The connection handle is not valid: the application used it after MQDISC or a broken connection, or on a thread it does not belong to (share handles with MQCNO_HANDLE_SHARE_*).",
    ),
    (
        2019,
        false,
        "The object handle is not valid: the application used it after MQCLOSE, after the connection broke or was reconnected, or it was never opened; reopen objects after reconnecting.",
    ),
    (
        2024,
        false,
        "Too many uncommitted messages in one unit of work: commit more often, or raise the queue manager's MAXUMSGS.",
    ),
    (
        2025,
        true,
        "The queue manager's connection limit was reached: see MaxChannels/MaxActiveChannels and MAXINST/MAXINSTC of the SVRCONN channel, and look for applications leaking connections.",
    ),
    (
        2030,
        false,
        "The message is longer than the queue's MAXMSGL: raise MAXMSGL or send smaller messages.",
    ),
    (
        2031,
        false,
        "The message is longer than the queue manager's MAXMSGL: raise it or send smaller messages.",
    ),
    (
        2035,
        true,
        "Not authorised: check the channel authentication rules (DISPLAY CHLAUTH, AMQ9777 in the queue manager's error log), connection authentication (CONNAUTH, CHCKCLNT, AMQ5534/AMQ5541), the MCAUSER the channel runs under, and the object authorities (dspmqaut, setmqaut; AMQ8077 in the error log names the missing authority).",
    ),
    (
        2051,
        false,
        "Puts are inhibited on the queue (PUT(DISABLED)): enable it with ALTER QLOCAL(...) PUT(ENABLED) when intended.",
    ),
    (
        2053,
        false,
        "The queue is full (CURDEPTH reached MAXDEPTH): the consumers are not keeping up or stopped; check them, then MAXDEPTH.",
    ),
    (
        2058,
        true,
        "The queue-manager name does not match the queue manager reached: check the name the application passes (case, blanks), the CCDT QMNAME, and whether the CONNAME points at the intended queue manager.",
    ),
    (
        2059,
        true,
        "The queue manager is not available: check it is running (dspmq), the listener is started on the port in CONNAME (DISPLAY LSSTATUS), the queue-manager name and CONNAME are right, and read the client's error log (AMQ9202, AMQ9204).",
    ),
    (
        2063,
        true,
        "A security error: read the queue manager's error log and FDCs at that time (OAM, LDAP or user repository problems).",
    ),
    (
        2071,
        false,
        "Not enough storage: look for memory limits (ulimit), leaks or very large messages; FDCs at the same time help.",
    ),
    (
        2082,
        false,
        "The base queue of the alias does not exist: correct TARGET of the alias or define the queue.",
    ),
    (
        2085,
        false,
        "Unknown object name: the queue or topic does not exist on this queue manager (or is not visible in the cluster); check the spelling and case the application uses and define the object.",
    ),
    (
        2086,
        false,
        "The object's queue-manager name is unknown: check ObjectQMgrName in the MQOD and the transmission queues or cluster routes to it.",
    ),
    (
        2087,
        false,
        "Unknown remote queue manager: define a transmission queue or remote queue-manager alias to it, or check the cluster.",
    ),
    (
        2102,
        false,
        "A resource problem in the queue manager: read its error log and FDCs at that time (file system full, log space).",
    ),
    (
        2161,
        false,
        "The queue manager is quiescing: the application should end its work (use MQGMO_FAIL_IF_QUIESCING / MQOO_FAIL_IF_QUIESCING).",
    ),
    (
        2162,
        false,
        "The queue manager is stopping: the application should disconnect; reconnectable clients reconnect elsewhere.",
    ),
    (
        2189,
        false,
        "The cluster could not resolve the destination: check the cluster queue is defined and the repositories are reachable (DISPLAY CLUSQMGR).",
    ),
    (
        2195,
        true,
        "An unexpected error: look for FDC files and the queue manager's error log at the same time, and raise it with IBM support with them.",
    ),
    (
        2202,
        false,
        "The connection is quiescing: the queue manager or channel is ending; the application should end its work.",
    ),
    (
        2203,
        false,
        "The connection is stopping: the queue manager or channel ended; reconnect when it is back.",
    ),
    (
        2217,
        true,
        "The connection is not authorised (CICS/IMS adapter or bindings): check the authority to connect (setmqaut +connect).",
    ),
    (
        2218,
        false,
        "The message is longer than the channel's MAXMSGL: raise MAXMSGL on both ends of the channel.",
    ),
    (
        2381,
        true,
        "The key repository is not usable: check MQSSLKEYR / SSLKEYR, the .kdb and its stash file (.sth) and their permissions.",
    ),
    (
        2393,
        true,
        "TLS initialisation failed: check the key repository (MQSSLKEYR / SSLKEYR and the stash file), the certificate label (CERTLABL, default ibmwebspheremq<user>), and the client's error log (AMQ9631, AMQ9641, AMQ9642).",
    ),
    (
        2397,
        true,
        "A JSSE (Java TLS) error: check the keystore and truststore, the cipher suite matches the channel's SSLCIPH, and the linked exception.",
    ),
    (
        2537,
        true,
        "The channel is not available: it is stopped, or MAXINST/MAXINSTC is reached; check DISPLAY CHSTATUS and the queue manager's error log (AMQ9513, AMQ9999).",
    ),
    (
        2538,
        true,
        "The host in CONNAME cannot be reached: check the host name resolves, the port is the listener's, no firewall blocks it, and the listener runs; the client's error log has AMQ9202 with the TCP return code.",
    ),
    (
        2539,
        true,
        "The channel definition is wrong: check the client channel (CCDT or MQCD) against the server's SVRCONN.",
    ),
    (
        2540,
        true,
        "Unknown channel name: the SVRCONN channel the client names is not defined on the queue manager (names are case-sensitive).",
    ),
    (
        2548,
        true,
        "Reconnection failed: no queue manager in the connection list could be reached before the reconnect timeout (MQRECONNECT_TIMEOUT).",
    ),
];

fn never_normal(reason: u32) -> Option<(bool, &'static str)> {
    NEVER_NORMAL
        .iter()
        .find(|(r, _, _)| *r == reason)
        .map(|(_, c, a)| (*c, *a))
}

pub(crate) struct MqiFailures {
    /// The pass's own count of the calls, when the run keeps no table.
    calls: Option<Calls>,
    /// The run's table, when it gave it.
    rows: Option<Vec<Row>>,
    min_failures: u64,
}

impl MqiFailures {
    pub(crate) fn new(s: &Settings) -> MqiFailures {
        MqiFailures {
            calls: Some(Calls::new(By::Process, None)),
            rows: None,
            min_failures: s.get("min_failures").max(1.0) as u64,
        }
    }
}

impl Pass for MqiFailures {
    fn observe(&mut self, e: &Event) {
        if let Some(c) = self.calls.as_mut() {
            c.observe(e);
        }
    }

    fn takes_calls_table(&mut self) -> bool {
        self.calls = None;
        true
    }

    fn calls_rows(&mut self, rows: &[Row]) {
        // Only the rows and reasons that can make a finding, and of those
        // only what `finish` reads: a whole row's latency sketch and
        // tallies, copied for the 20,000 rows a run keeps, cost more than
        // the findings.
        let min = self.min_failures;
        let slim = rows.iter().filter_map(|r| {
            let reasons: BTreeMap<String, ReasonStat> = r
                .stats
                .reasons
                .iter()
                .filter(|(k, s)| {
                    s.count >= min && k.parse::<u32>().ok().and_then(never_normal).is_some()
                })
                .map(|(k, s)| (k.clone(), s.clone()))
                .collect();
            (!reasons.is_empty()).then(|| Row {
                key: r.key.clone(),
                by: r.by,
                process: r.process.clone(),
                host: r.host.clone(),
                trace: r.trace.clone(),
                stats: Stats {
                    calls: r.stats.calls,
                    reasons,
                    ..Stats::default()
                },
                others: r.others,
            })
        });
        // Room for all at once: grown by doubling, the rows were copied
        // and their pages faulted in again at each step.
        let mut kept = Vec::with_capacity(rows.len());
        kept.extend(slim);
        self.rows = Some(kept);
    }

    fn finish(&mut self, inputs: &[FileInfo]) -> Vec<Finding> {
        let rows = match (self.rows.take(), self.calls.take()) {
            (Some(rows), _) => rows,
            (None, Some(calls)) => calls.rows(inputs),
            (None, None) => Vec::new(),
        };
        let mut out = Vec::new();
        for row in rows {
            for (reason, r) in &row.stats.reasons {
                let Ok(code) = reason.parse::<u32>() else {
                    continue;
                };
                let Some((severe, advice)) = never_normal(code) else {
                    continue;
                };
                if r.count < self.min_failures {
                    continue;
                }
                let verb = row.key.verb;
                let name = mqdiag_model::mqrc::name(code);
                let shown = name.clone().unwrap_or_else(|| code.to_string());
                let who = crate::calls::process_text(&row);
                let mut f = Finding::new(
                    RULE.id,
                    if severe {
                        Severity::Error
                    } else {
                        Severity::Warning
                    },
                    format!(
                        "{verb} failed {} of {} time{} with {code} {shown} in {}{who}",
                        r.count,
                        row.stats.calls,
                        if row.stats.calls == 1 { "" } else { "s" },
                        // The row of the processes past the run budget
                        // names itself: "(80,000 other processes)".
                        if row.others > 0 { "" } else { "process " },
                    ),
                );
                f.count = r.count;
                f.subject = Subject {
                    pid: row.key.pid,
                    host: row.host.clone(),
                    program: row.process.clone(),
                    ..Default::default()
                };
                f.metrics.set("verb", Metric::opt_str(Some(verb)));
                f.metrics.set("reason", Metric::int(u64::from(code)));
                f.metrics
                    .set("reason_name", Metric::opt_str(name.as_deref()));
                f.metrics.set("failures", Metric::int(r.count));
                f.metrics.set("calls", Metric::int(row.stats.calls));
                if let Some(t) = r.first {
                    f.saw(&t);
                }
                if let Some(t) = r.last {
                    f.saw(&t);
                }
                f.evidence = r.evidence.clone();
                f.advice = advice.to_string();
                f.key = format!("{verb}:{code}");
                f.severity_reason = if severe {
                    format!("error: {code} is a connection, security or TLS failure")
                } else {
                    format!(
                        "warning, not error: {code} is not a connection, security or TLS failure"
                    )
                };
                out.push(f);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::passes::testutil::*;

    #[test]
    fn connect_refused_2035_is_an_error_with_its_line() {
        let ev = vec![
            entry("c.FMT", 10, "10:00:00.000000", 7, 1, "MQCONNX"),
            exit(
                "c.FMT",
                11,
                "10:00:00.010000",
                7,
                1,
                "MQCONNX",
                "MQRC_NOT_AUTHORIZED",
                10_000,
            ),
            entry("c.FMT", 12, "10:00:01.000000", 7, 1, "MQCONNX"),
            exit(
                "c.FMT",
                13,
                "10:00:01.010000",
                7,
                1,
                "MQCONNX",
                "OK",
                10_000,
            ),
            entry("c.FMT", 14, "10:00:02.000000", 7, 1, "MQGET"),
            exit(
                "c.FMT",
                15,
                "10:00:07.000000",
                7,
                1,
                "MQGET",
                "2033",
                5_000_000,
            ),
            entry("c.FMT", 16, "10:00:08.000000", 7, 1, "MQOPEN"),
            exit("c.FMT", 17, "10:00:08.000100", 7, 1, "MQOPEN", "2042", 100),
        ];
        let out = run(&RULE, &[], &ev);
        // 2033 on MQGET is normal; 2042 is not in the never-normal list.
        assert_eq!(out.len(), 1, "{out:?}");
        let f = &out[0];
        assert_eq!(f.severity, Severity::Error);
        assert_eq!(metric(f, "verb"), Metric::opt_str(Some("MQCONNX")));
        assert_eq!(metric(f, "reason"), Metric::int(2035));
        assert_eq!(
            metric(f, "reason_name"),
            Metric::opt_str(Some("MQRC_NOT_AUTHORIZED"))
        );
        assert_eq!(metric(f, "failures"), Metric::int(1));
        assert_eq!(metric(f, "calls"), Metric::int(2));
        assert_eq!(f.evidence[0].line, 11);
        assert!(f.evidence[0].text.contains("MQRC_NOT_AUTHORIZED"));
        assert!(f.advice.contains("CHLAUTH"));
        assert_eq!(f.subject.pid, Some(7));
    }

    #[test]
    fn other_reasons_are_warnings_and_threshold_applies() {
        let ev = vec![
            entry("s.FMT", 1, "10:00:00.000000", 9, 1, "MQPUT"),
            exit("s.FMT", 2, "10:00:00.000100", 9, 1, "MQPUT", "2053", 100),
        ];
        let out = run(&RULE, &[], &ev);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].severity, Severity::Warning);
        assert!(run(&RULE, &[("min_failures", 2.0)], &ev).is_empty());
    }

    #[test]
    fn table_is_unique_and_named() {
        for (i, (r, _, a)) in NEVER_NORMAL.iter().enumerate() {
            assert!(mqdiag_model::mqrc::name(*r).is_some(), "{r} has no name");
            assert!(!a.is_empty());
            assert!(
                NEVER_NORMAL[..i].iter().all(|(q, _, _)| q != r),
                "{r} twice"
            );
            // Never a reason `calls` counts as normal.
            assert_eq!(
                mqdiag_model::mqrc::classify("MQGET", &mqdiag_model::mqrc::Outcome::Reason(*r)),
                mqdiag_model::mqrc::Class::Failed
            );
        }
    }
}
