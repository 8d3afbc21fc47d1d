//! `channel-error`: network and channel errors from error logs and z/OS
//! channel-initiator messages, grouped by message, channel and host. The
//! messages (the catalogue's channel family) and their advice are in
//! `crate::catalog`.

use super::catalog::MessagePass;
use super::{RuleInfo, Threshold};
use crate::catalog::Family;
use crate::source::Severity;

pub static RULE: RuleInfo = RuleInfo {
    id: "channel-error",
    severity: Severity::Error,
    summary: "Network and channel errors in error logs and z/OS job logs, grouped by message, channel and host",
    trigger: "Every error-log or job-log record whose message is a channel or network error of \
        the catalogue: {catalogue-ids:channel} (with any severity letter), and \
        every other record the error-log reader put in the `channel` family (attribute `family`; \
        informational ones excluded). Records are grouped by message number, queue manager, channel and remote host \
        (`????` counts as unknown); a group with at least `min_occurrences` records is a \
        finding with its count, first and last time. Severity is the catalogue's: error, or \
        warning for messages that are usually harmless noise \
        ({catalogue-warnings:channel}).",
    thresholds: &[Threshold::new(
        "min_occurrences",
        1.0,
        "records",
        "fewest records of one message, channel and host to report",
    )
    .range(1.0, super::THRESHOLD_MAX)],
    advice: "Each message's advice is in the finding; for a remote host, look at the other end's \
        error log at the same time, and at firewalls and load balancers between the two.",
    functions: &[],
    keywords: &[],
    smf_columns: &[],
    make: |s| {
        Box::new(MessagePass::new(
            &RULE,
            Family::Channel,
            s.get("min_occurrences"),
        ))
    },
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::findings::Metric;
    use crate::passes::testutil::*;

    fn rec(line: u64, at: &str, id: &str, channel: &str, host: &str) -> crate::event::Event {
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
    fn grouped_by_message_channel_and_host() {
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
        assert_eq!(f.first.unwrap().to_rfc3339(), "2024-03-01T10:00:00+00:00");
        assert_eq!(f.last.unwrap().to_rfc3339(), "2024-03-01T10:09:00+00:00");
        assert_eq!(
            f.title,
            "AMQ9208E Error on receive from the host, channel 'TO.QM2', host 'qm2host (10.0.0.2)': 3 times"
        );
        let scan = out.iter().find(|f| f.key == "AMQ9209").unwrap();
        assert_eq!(scan.severity, Severity::Warning);
        assert_eq!(scan.subject.channel, None);
        // Different fingerprints for different hosts of one message.
        assert_ne!(out[0].fingerprint, out[1].fingerprint);
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
        e.set_attr("family", "channel");
        e.set_attr("severity", "E");
        let mut info = rec(
            11,
            "2024-03-01T10:00:01+00:00",
            "CSQX500I",
            "TO.QM9",
            "10.9.8.7",
        );
        info.set_attr("family", "channel");
        info.set_attr("severity", "I");
        let mut other = rec(12, "2024-03-01T10:00:02+00:00", "AMQ9643E", "X", "h");
        other.set_attr("family", "tls");
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
    fn many_hosts_of_one_message_and_channel_are_one_finding() {
        // Seven client hosts on one server connection channel, the first
        // busiest; another channel with two hosts stays one per host.
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
        for (i, h) in ["qm2host", "qm3host"].iter().enumerate() {
            let at = format!("2024-03-01T11:00:0{i}+00:00");
            ev.push(rec(200 + i as u64, &at, "AMQ9209E", "TO.QM2", h));
        }
        let out = run(&RULE, &[], &ev);
        assert_eq!(out.len(), 3, "{out:#?}");
        let f = out
            .iter()
            .find(|f| f.subject.channel.as_deref() == Some("APP.SVRCONN"))
            .unwrap();
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
        // The first record of the busiest hosts, and the last record.
        let lines: Vec<u64> = f.evidence.iter().map(|e| e.line).collect();
        assert_eq!(lines, vec![10, 20, 30, 70]);
        // Five hosts or fewer: one finding each, as before.
        assert!(
            out.iter()
                .any(|f| f.subject.host.as_deref() == Some("qm2host"))
        );
    }

    #[test]
    fn min_occurrences() {
        let ev = vec![rec(10, "2024-03-01T10:00:00+00:00", "AMQ9999E", "X", "h")];
        assert_eq!(run(&RULE, &[], &ev).len(), 1);
        assert!(run(&RULE, &[("min_occurrences", 2.0)], &ev).is_empty());
    }
}
