//! `--redact` applied to a report: findings and the inputs table. The
//! `Redactor` itself is `mqdiag_model::redact` (the timeline's rows use it too).

pub use mqdiag_model::redact::{Cat, Redactor};

use mqdiag_model::findings::{Finding, Metric};

/// Every string a finding shows.
pub fn finding(r: &Redactor, f: &mut Finding) {
    f.title = r.apply(&f.title);
    for s in f.subject.strings_mut() {
        *s = r.apply(s);
    }
    for b in &mut f.breakdown {
        for s in b.strings_mut() {
            *s = r.apply(s);
        }
    }
    for (_, v) in f.metrics.0.iter_mut() {
        if let Metric::Str(s) = v {
            *s = r.apply(s);
        }
    }
    for e in &mut f.evidence {
        e.path = r.apply(&e.path);
        e.text = r.apply(&e.text);
    }
    f.advice = r.apply(&f.advice);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn breakdown_rows_are_redacted_channels_kept() {
        let mut r = Redactor::new();
        r.add(Cat::Host, "qm2host (10.0.0.2)(1414)");
        let mut f = Finding::new("channel-error", mqdiag_model::problem::Severity::Error, "t");
        f.breakdown.push(mqdiag_model::findings::Breakdown {
            message_id: Some("AMQ9209E".into()),
            channel: Some("QM1.TO.QM2".into()),
            host: Some("qm2host".into()),
            address: Some("10.0.0.2".into()),
            return_code: None,
            occurrences: 1,
            first: None,
            last: None,
        });
        finding(&r, &mut f);
        let b = &f.breakdown[0];
        assert_eq!(b.host.as_deref(), Some("host-1"));
        assert_eq!(b.address.as_deref(), Some("ip-1"));
        assert_eq!(b.message_id.as_deref(), Some("AMQ9209E"));
        assert_eq!(b.channel.as_deref(), Some("QM1.TO.QM2"));
    }
}
