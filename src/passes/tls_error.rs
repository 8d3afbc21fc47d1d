//! `tls-error`: TLS errors from error logs and z/OS channel-initiator
//! messages, one per failure, grouped by channel or
//! remote end. The messages (the
//! catalogue's TLS family) and their advice are in `crate::catalog`.

use super::RuleInfo;
use super::catalog::{Config, MessagePass};
use crate::catalog::Family;
use crate::source::Severity;

pub static RULE: RuleInfo = RuleInfo {
    id: "tls-error",
    severity: Severity::Error,
    summary: "TLS errors in error logs and z/OS job logs, one per failure, grouped by channel or remote end",
    trigger: "Every error-log or job-log record whose message is a TLS error of the catalogue: \
        {catalogue-ids:tls} (with any severity letter), and \
        every other record the error-log reader put in the `tls` family (attribute `family`; \
        informational ones excluded). Records MQ writes together for one failure (the same file, process and thread, within a \
        second, not naming different channels or remote ends: AMQ9209 + AMQ9999 + AMQ9780, \
        CSQX209E + CSQX599E, ...) are one occurrence, counted under the most specific message \
        (AMQ9780 and the generic AMQ9999/CSQX599 only when nothing else says why), the others kept \
        as evidence (`also_written`); identical records (same time, process, thread, message and \
        text) in rotated or copied logs count once. Occurrences are grouped by queue manager and \
        channel, or by remote end where no channel is known (a host name and an address are one \
        end when any record pairs them; `????` counts as unknown), else by message; a group with \
        at least `min_occurrences` occurrences is a finding with its count, first and last time, \
        the message ids most frequent first, and a `breakdown` per message, channel, remote end and \
        return code. Severity is the highest of the group's messages in the catalogue, lowered to \
        info when the group has fewer than `frequent_occurrences` occurrences and its last one is \
        more than `recent_days` days before the newest channel or TLS record of its queue \
        manager: a long log then \
        reads as the failures that recur or are current. A failure \
        whose most specific record is a channel error is reported by `channel-error`.",
    thresholds: super::catalog::message_thresholds!(),
    advice: "TLS errors are often reported on both ends with different words: read the partner's \
        error log at the same time. Each message's advice is in the finding.",
    functions: &[],
    keywords: &[],
    smf_columns: &[],
    make: |s| Box::new(MessagePass::new(&RULE, Family::Tls, Config::from(s, false))),
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::findings::Metric;
    use crate::passes::testutil::*;

    #[test]
    fn tls_messages_only() {
        let ev = vec![
            log(
                "e.LOG",
                1,
                "2024-03-01T10:00:00+00:00",
                "AMQ9633E: Bad SSL certificate",
                &[
                    ("msgid", "AMQ9633E"),
                    ("channel", "QDTSQ00.CL"),
                    ("reason", "414"),
                ],
            ),
            log(
                "e.LOG",
                9,
                "2024-03-01T10:00:05+00:00",
                "AMQ9633E: Bad SSL certificate",
                &[
                    ("msgid", "AMQ9633E"),
                    ("channel", "QDTSQ00.CL"),
                    ("reason", "414"),
                ],
            ),
            log(
                "e.LOG",
                20,
                "2024-03-01T10:01:00+00:00",
                "AMQ9208E: Error on receive",
                &[("msgid", "AMQ9208E")],
            ),
        ];
        let out = run(&RULE, &[], &ev);
        assert_eq!(out.len(), 1);
        assert_eq!(
            metric(&out[0], "message_id"),
            Metric::Str("AMQ9633E".into())
        );
        assert_eq!(metric(&out[0], "occurrences"), Metric::Int(2));
        assert_eq!(metric(&out[0], "reasons"), Metric::Str("414 x2".into()));
        assert_eq!(out[0].evidence.len(), 2);
        assert!(out[0].advice.contains("certificate"));
    }
}
