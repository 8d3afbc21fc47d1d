//! `tls-error`: TLS errors from error logs and z/OS channel-initiator
//! messages, one per failure, grouped by channel or
//! remote end. The messages (the
//! catalogue's TLS family) and their advice are in `mqdiag_readers::catalog`.

use mqdiag_model::findings::Part;
use crate::passes::message_pass::{Config, MessagePass};
use crate::passes::{ChartKind, Order, RuleInfo};
use mqdiag_model::problem::Severity;
use mqdiag_readers::catalog::Family;

pub(crate) static RULE: RuleInfo = RuleInfo {
    id: "tls-error",
    severity: Severity::Error,
    summary: "TLS errors in error logs and z/OS job logs, one per failure, grouped by channel or remote end",
    trigger: concat!(
        "Every error-log or job-log record whose message is a TLS error of the catalogue: \
        {catalogue-ids:tls} (with any severity letter), and \
        every other record the error-log reader put in the `tls` family (attribute `family`; ",
        crate::passes::message_pass::story_trigger!(),
        " A failure \
        whose most specific record is a channel error is reported by `channel-error`. \
        Event messages too: Channel SSL Error (2371) as the message its reason qualifier \
        implies (AMQ9631 cipher spec, AMQ9636 peer name, AMQ9637 client authentication, \
        else a TLS failure of its own) and Channel Stopped (2283) by its ErrorIdentifier; an \
        event of a failure an error-log story counts (same channel, within a second) is \
        cited beside it, not counted again."
    ),
    thresholds: crate::passes::message_pass::message_thresholds!(),
    advice: "TLS errors are often reported on both ends with different words: read the partner's \
        error log at the same time. Each message's advice is in the finding.",
    fingerprint: &[Part::Qmgr, Part::Channel, Part::Host, Part::Address, Part::Key("message id")],
    metrics: &["message_id", "occurrences"],
    functions: &[],
    keywords: &[],
    mqi_calls: false,
    smf_columns: &[],
    make: |s| Box::new(MessagePass::new(&RULE, Family::Tls, Config::from(s, false))),
    chart: ChartKind::FamilyErrors(Family::Tls),
    order: Order::RecentFirst,
    explain: Some(crate::explain::channel_settings::explain_tls),
    ..RuleInfo::BASE
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::passes::testutil::*;
    use mqdiag_model::findings::Metric;

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
