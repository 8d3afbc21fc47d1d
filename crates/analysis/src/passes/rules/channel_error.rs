//! `channel-error`: network and channel errors from error logs and z/OS
//! channel-initiator messages, one per failure, grouped by channel or
//! remote end. The
//! messages (the catalogue's channel family) and their advice are in
//! `mqdiag_readers::catalog`.

use mqdiag_model::findings::Part;
use crate::passes::message_pass::{Config, MessagePass};
use crate::passes::{ChartKind, Order, RuleInfo, Threshold};
use mqdiag_model::problem::Severity;
use mqdiag_readers::catalog::Family;

pub(crate) static RULE: RuleInfo = RuleInfo {
    id: "channel-error",
    severity: Severity::Error,
    summary: "Network and channel errors in error logs and z/OS job logs, one per failure, grouped by channel or remote end",
    trigger: concat!(
        "Every error-log or job-log record whose message is a channel or network error of \
        the catalogue: {catalogue-ids:channel} (with any severity letter), and \
        every other record the error-log reader put in the `channel` family (attribute `family`; ",
        crate::passes::message_pass::story_trigger!(),
        " Messages that are usually harmless noise are warnings \
        ({catalogue-warnings:channel}). AMQ9519/AMQ9520 (channel not defined) on at least \
        `scan_min_channels` different channel names from one remote end of a queue manager are \
        one error finding instead, naming the address and the names tried (`channels_tried`). \
        Event messages too: Channel Stopped (2283, not MQRQ_CHANNEL_STOPPED_OK) as the \
        message its ErrorIdentifier names; an event of a failure an error-log story counts \
        (same channel, within a second) is cited beside it, not counted again."
    ),
    thresholds: crate::passes::message_pass::message_thresholds!(
        Threshold::new(
            "scan_min_channels",
            3.0,
            "channel names",
            "fewest undefined channel names tried from one address that make one scan finding",
        )
        .range(2.0, crate::passes::THRESHOLD_MAX),
    ),
    advice: "Each message's advice is in the finding; for a remote host, look at the other end's \
        error log at the same time, and at firewalls and load balancers between the two.",
    fingerprint: &[Part::Qmgr, Part::Channel, Part::Host, Part::Address, Part::Key("message id")],
    metrics: &["message_id", "occurrences"],
    functions: &[],
    keywords: &[],
    mqi_calls: false,
    smf_columns: &[],
    make: |s| {
        Box::new(MessagePass::new(
            &RULE,
            Family::Channel,
            Config::from(s, true),
        ))
    },
    chart: ChartKind::FamilyErrors(Family::Channel),
    order: Order::RecentFirst,
    ..RuleInfo::BASE
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::passes::testutil::*;
    use mqdiag_model::event::Key;
    use mqdiag_model::findings::Metric;

    fn rec(line: u64, at: &str, id: &str, channel: &str, host: &str) -> mqdiag_model::event::Event {
        log(
            "qmgrs/QM1/errors/AMQERR01.LOG",
            line,
            at,
            &format!("{id}: message text"),
            &[
                ("msgid", id),
                ("channel", channel),
                ("host", host),
                ("qmgr", "QM1"),
            ],
        )
    }

    #[test]
    fn grouped_by_channel_or_remote_end() {
        let ev = vec![
            rec(
                10,
                "2024-03-01T10:00:00+00:00",
                "AMQ9208E",
                "TO.QM2",
                "qm2host (10.0.0.2)",
            ),
            rec(
                20,
                "2024-03-01T10:05:00+00:00",
                "AMQ9208E",
                "TO.QM2",
                "qm2host (10.0.0.2)",
            ),
            rec(
                30,
                "2024-03-01T10:09:00+00:00",
                "AMQ9208E",
                "TO.QM2",
                "qm2host (10.0.0.2)",
            ),
            rec(
                40,
                "2024-03-01T10:10:00+00:00",
                "AMQ9208E",
                "TO.QM3",
                "qm3host (10.0.0.3)",
            ),
            rec(
                50,
                "2024-03-01T10:11:00+00:00",
                "AMQ9209E",
                "????",
                "scanner (10.9.9.9)",
            ),
            // Not a channel error: informational and TLS messages.
            rec(
                60,
                "2024-03-01T10:12:00+00:00",
                "AMQ9002I",
                "TO.QM2",
                "qm2host",
            ),
            rec(
                70,
                "2024-03-01T10:13:00+00:00",
                "AMQ9633E",
                "TO.QM2",
                "qm2host",
            ),
        ];
        let out = run(&RULE, &[], &ev);
        assert_eq!(out.len(), 3, "{out:#?}");
        let f = &out[0];
        assert_eq!(metric(f, "message_id"), Metric::Str("AMQ9208E".into()));
        assert_eq!(metric(f, "occurrences"), Metric::Int(3));
        assert_eq!(f.severity, Severity::Error);
        assert_eq!(f.subject.channel.as_deref(), Some("TO.QM2"));
        assert_eq!(f.subject.host.as_deref(), Some("qm2host"));
        assert_eq!(f.subject.address.as_deref(), Some("10.0.0.2"));
        assert_eq!(f.first.unwrap().to_rfc3339(), "2024-03-01T10:00:00+00:00");
        assert_eq!(f.last.unwrap().to_rfc3339(), "2024-03-01T10:09:00+00:00");
        assert_eq!(
            f.title,
            "AMQ9208E Error on receive from the host, channel 'TO.QM2', host 'qm2host (10.0.0.2)': 3 times"
        );
        // One row: no breakdown.
        assert!(f.breakdown.is_empty());
        // No channel: grouped by the remote end.
        let scan = out
            .iter()
            .find(|f| f.subject.address.as_deref() == Some("10.9.9.9"))
            .unwrap();
        assert_eq!(scan.severity, Severity::Warning);
        assert_eq!(scan.subject.channel, None);
        assert_eq!(scan.subject.host.as_deref(), Some("scanner"));
        // Different fingerprints for different channels.
        assert_ne!(out[0].fingerprint, out[1].fingerprint);
    }

    /// A record of process 42 thread 1 in the error log of QM1.
    fn mq(
        line: u64,
        at: &str,
        text: &str,
        attrs: &[(&'static str, &str)],
    ) -> mqdiag_model::event::Event {
        let id = text.split(':').next().unwrap();
        let mut all = vec![("msgid", id), ("qmgr", "QM1")];
        all.extend_from_slice(attrs);
        let mut e = log("qmgrs/QM1/errors/AMQERR01.LOG", line, at, text, &all);
        e.pid = Some(42);
        e.tid = Some(1);
        e
    }

    #[test]
    fn one_failure_is_one_occurrence_under_its_cause() {
        let t = "2024-03-01T10:00:00+00:00";
        let mut ev = Vec::new();
        for (n, at) in [(0u64, t), (1, "2024-03-01T11:00:00+00:00")] {
            ev.push(mq(
                100 * n + 1,
                at,
                "AMQ9209: Connection to host 'qm2 (10.0.0.2)' for channel 'TO.QM2' closed.",
                &[
                    ("channel", "TO.QM2"),
                    ("host", "qm2"),
                    ("address", "10.0.0.2"),
                ],
            ));
            ev.push(mq(
                100 * n + 10,
                at,
                "AMQ9999: Channel 'TO.QM2' to host 'qm2 (10.0.0.2)' ended abnormally.",
                &[
                    ("channel", "TO.QM2"),
                    ("host", "qm2"),
                    ("address", "10.0.0.2"),
                ],
            ));
            ev.push(mq(
                100 * n + 20,
                at,
                "AMQ9780: Channel to remote machine '10.0.0.2' is ending due to an error.",
                &[
                    ("family", "channel"),
                    ("host", "10.0.0.2"),
                    ("address", "10.0.0.2"),
                ],
            ));
        }
        // The second failure's records again, as a rotated copy has them.
        let copies: Vec<_> = ev[3..].to_vec();
        ev.extend(copies);
        let out = run(&RULE, &[], &ev);
        assert_eq!(out.len(), 1, "{out:#?}");
        let f = &out[0];
        assert_eq!(metric(f, "message_id"), Metric::Str("AMQ9209".into()));
        assert_eq!(metric(f, "occurrences"), Metric::Int(2));
        assert_eq!(f.count, 2);
        assert_eq!(
            metric(f, "also_written"),
            Metric::Str("AMQ9780 x2, AMQ9999 x2".into())
        );
        // The first failure's records and the latest cause.
        let lines: Vec<u64> = f.evidence.iter().map(|e| e.line).collect();
        assert_eq!(lines, vec![1, 10, 20, 101]);
        // A generic end alone is its own cause.
        let alone = mq(
            5,
            "2024-03-01T12:00:00+00:00",
            "AMQ9999: Channel 'TO.QM2' to host 'qm2 (10.0.0.2)' ended abnormally.",
            &[
                ("channel", "TO.QM2"),
                ("host", "qm2"),
                ("address", "10.0.0.2"),
            ],
        );
        ev.push(alone);
        let out = run(&RULE, &[], &ev);
        assert_eq!(out.len(), 1);
        assert_eq!(
            metric(&out[0], "message_id"),
            Metric::Str("AMQ9209, AMQ9999".into())
        );
        assert_eq!(out[0].breakdown.len(), 2);
        assert_eq!(out[0].breakdown[0].occurrences, 2);
        assert_eq!(out[0].breakdown[1].message_id.as_deref(), Some("AMQ9999"));
    }

    #[test]
    fn undefined_channel_names_from_one_address_are_one_scan() {
        let mut ev = Vec::new();
        let names = [
            "QA.SVRCONN.CHL",
            "ADMIN.SVRCONN",
            "SYSTEM.ADMIN.SVRCONN",
            "QA.SVRCONN.CHL",
        ];
        for (i, name) in names.iter().enumerate() {
            let at = format!("2024-03-01T10:0{i}:00+00:00");
            let l = 100 * i as u64;
            ev.push(mq(
                l + 1,
                &at,
                &format!("AMQ9519: Channel '{name}' not found."),
                &[("channel", name)],
            ));
            // Named by its host name once, by its address otherwise.
            let host = if i == 0 {
                "centos6 (192.168.253.160)"
            } else {
                "192.168.253.160"
            };
            ev.push(mq(
                l + 10,
                &at,
                &format!("AMQ9999: Channel '{name}' to host '{host}' ended abnormally."),
                &[("channel", name), ("host", host)],
            ));
        }
        // A real channel from elsewhere stays apart.
        ev.push(mq(
            900,
            "2024-03-01T10:30:00+00:00",
            "AMQ9519: Channel 'TO.QM9' not found.",
            &[("channel", "TO.QM9")],
        ));
        let out = run(&RULE, &[], &ev);
        assert_eq!(out.len(), 2, "{out:#?}");
        let f = out.iter().find(|f| f.key == "channel-scan").unwrap();
        assert_eq!(f.severity, Severity::Error);
        assert_eq!(f.subject.address.as_deref(), Some("192.168.253.160"));
        assert_eq!(f.subject.host.as_deref(), Some("centos6"));
        assert_eq!(f.subject.qmgr.as_deref(), Some("QM1"));
        assert_eq!(metric(f, "channels_tried"), Metric::Int(3));
        assert_eq!(metric(f, "occurrences"), Metric::Int(4));
        assert_eq!(
            f.title,
            "Undefined channel names tried from centos6 (192.168.253.160): 3 names \
             ('QA.SVRCONN.CHL', 'ADMIN.SVRCONN', 'SYSTEM.ADMIN.SVRCONN'), 4 times \
             (error, not warning: many undefined names from one address are a scan)"
        );
        // One row per name, the end named in full however each record
        // wrote it.
        assert_eq!(f.breakdown.len(), 3);
        assert!(f.breakdown.iter().all(|b| {
            b.address.as_deref() == Some("192.168.253.160") && b.host.as_deref() == Some("centos6")
        }));
        // Three names are not a scan when four are asked for.
        let few = run(&RULE, &[("scan_min_channels", 4.0)], &ev);
        assert!(few.iter().all(|f| f.key != "channel-scan"), "{few:#?}");
        assert_eq!(few.len(), 4);
    }

    #[test]
    fn rare_old_groups_are_info_frequent_or_recent_ones_keep_severity() {
        let mut ev = Vec::new();
        // Once, a year before the newest record.
        ev.push(rec(1, "2023-03-01T10:00:00+00:00", "AMQ9208E", "OLD", "h1"));
        // Often, long ago.
        for i in 0..10u64 {
            let at = format!("2023-04-01T10:{i:02}:00+00:00");
            ev.push(rec(10 + i, &at, "AMQ9208E", "OFTEN", "h2"));
        }
        // Once, recently.
        ev.push(rec(
            50,
            "2024-03-01T10:00:00+00:00",
            "AMQ9208E",
            "NEW",
            "h3",
        ));
        let out = run(&RULE, &[], &ev);
        let sev = |c: &str| {
            out.iter()
                .find(|f| f.subject.channel.as_deref() == Some(c))
                .unwrap()
                .severity
        };
        assert_eq!(sev("OLD"), Severity::Info);
        // The lowered one says why; the others say nothing of the kind.
        let title = |c: &str| {
            out.iter()
                .find(|f| f.subject.channel.as_deref() == Some(c))
                .unwrap()
                .title
                .clone()
        };
        assert!(
            title("OLD").ends_with(
                "(info, not error: last seen 366 days before the newest record of its queue \
                 manager, and fewer than 10 times)"
            ),
            "{}",
            title("OLD")
        );
        assert!(!title("NEW").contains("info, not"));
        assert_eq!(sev("OFTEN"), Severity::Error);
        assert_eq!(sev("NEW"), Severity::Error);
        let out = run(&RULE, &[("recent_days", 400.0)], &ev);
        assert!(out.iter().all(|f| f.severity == Severity::Error));
    }

    #[test]
    fn reader_family_covers_messages_the_catalogue_lacks() {
        let mut e = rec(
            10,
            "2024-03-01T10:00:00+00:00",
            "CSQX208E",
            "TO.QM9",
            "10.9.8.7",
        );
        e.text = "CSQX208E: Error receiving data, channel TO.QM9, connection 10.9.8.7.".into();
        e.set(Key::Family, "channel");
        e.set(Key::Severity, "E");
        let mut info = rec(
            11,
            "2024-03-01T10:00:01+00:00",
            "CSQX500I",
            "TO.QM9",
            "10.9.8.7",
        );
        info.set(Key::Family, "channel");
        info.set(Key::Severity, "I");
        let mut other = rec(12, "2024-03-01T10:00:02+00:00", "AMQ9643E", "X", "h");
        other.set(Key::Family, "tls");
        let out = run(&RULE, &[], &[e, info, other]);
        assert_eq!(out.len(), 1, "{out:#?}");
        assert_eq!(
            metric(&out[0], "message_id"),
            Metric::Str("CSQX208E".into())
        );
        assert_eq!(out[0].severity, Severity::Error);
        assert!(
            out[0]
                .title
                .starts_with("CSQX208E Error receiving data, channel TO.QM9")
        );
        assert!(out[0].advice.contains("no specific advice for CSQX208"));
    }

    #[test]
    fn many_hosts_of_one_channel_are_one_finding() {
        // Seven client hosts on one server connection channel, the first
        // busiest.
        let mut ev = Vec::new();
        for h in 0..7u64 {
            for n in 0..(if h == 0 { 4 } else { 1 }) {
                let line = 10 + h * 10 + n;
                let at = format!("2024-03-01T10:{:02}:{:02}+00:00", h, n);
                ev.push(rec(
                    line,
                    &at,
                    "AMQ9209E",
                    "APP.SVRCONN",
                    &format!("app{h}"),
                ));
            }
        }
        let out = run(&RULE, &[], &ev);
        assert_eq!(out.len(), 1, "{out:#?}");
        let f = &out[0];
        assert_eq!(metric(f, "occurrences"), Metric::Int(10));
        assert_eq!(metric(f, "hosts"), Metric::Int(7));
        assert_eq!(
            metric(f, "busiest_hosts"),
            Metric::Str("app0 x4, app1 x1, app2 x1, app3 x1, app4 x1".into())
        );
        assert_eq!(f.subject.host, None);
        assert!(
            f.title.contains("channel 'APP.SVRCONN', 7 hosts: 10 times"),
            "{}",
            f.title
        );
        assert_eq!(f.first.unwrap().to_rfc3339(), "2024-03-01T10:00:00+00:00");
        assert_eq!(f.last.unwrap().to_rfc3339(), "2024-03-01T10:06:00+00:00");
        // The first records of the busiest host, one of each other host
        // up to the cap, and the newest of the busiest.
        let lines: Vec<u64> = f.evidence.iter().map(|e| e.line).collect();
        assert_eq!(lines, vec![10, 13, 20, 30, 40, 50]);
        assert_eq!(f.breakdown.len(), 7);
        assert_eq!(f.breakdown[0].host.as_deref(), Some("app0"));
        assert_eq!(f.breakdown[0].occurrences, 4);
    }

    #[test]
    fn a_name_and_an_address_paired_once_are_one_end() {
        // No channel named: grouped by remote end. One record pairs the
        // name with the address; the others give one or the other.
        let ev = vec![
            rec(
                1,
                "2024-03-01T10:00:00+00:00",
                "AMQ9209E",
                "",
                "mqus01.example.com",
            ),
            rec(2, "2024-03-01T10:01:00+00:00", "AMQ9209E", "", "10.44.1.20"),
            rec(
                3,
                "2024-03-01T10:02:00+00:00",
                "AMQ9209E",
                "",
                "mqus01.example.com (10.44.1.20)",
            ),
            rec(4, "2024-03-01T10:03:00+00:00", "AMQ9209E", "", "10.44.1.21"),
        ];
        let out = run(&RULE, &[], &ev);
        assert_eq!(out.len(), 2, "{out:#?}");
        let f = out
            .iter()
            .find(|f| f.subject.host.as_deref() == Some("mqus01.example.com"))
            .unwrap();
        assert_eq!(f.subject.address.as_deref(), Some("10.44.1.20"));
        assert_eq!(f.count, 3);
        // One end, one message: nothing to break down.
        assert!(f.breakdown.is_empty());
    }

    #[test]
    fn records_naming_no_end_do_not_count_as_another_host() {
        let ev = vec![
            rec(
                1,
                "2024-03-01T10:00:00+00:00",
                "AMQ9208E",
                "TO.QM2",
                "qm2 (10.0.0.2)",
            ),
            rec(2, "2024-03-01T11:00:00+00:00", "AMQ9999E", "TO.QM2", ""),
        ];
        let out = run(&RULE, &[], &ev);
        assert_eq!(out.len(), 1, "{out:#?}");
        let f = &out[0];
        assert_eq!(f.subject.address.as_deref(), Some("10.0.0.2"));
        assert!(f.metrics.get("hosts").is_none(), "{f:#?}");
        assert!(!f.title.contains("hosts"), "{}", f.title);
        assert_eq!(f.breakdown.len(), 2);
    }

    #[test]
    fn min_occurrences() {
        let ev = vec![rec(10, "2024-03-01T10:00:00+00:00", "AMQ9999E", "X", "h")];
        assert_eq!(run(&RULE, &[], &ev).len(), 1);
        assert!(run(&RULE, &[("min_occurrences", 2.0)], &ev).is_empty());
    }
}
