//! A finding, put together in the steps every rule goes through: the
//! group it is about (subject, key, time range, count), its title and
//! severity, its metrics, its chart, its evidence and its advice. A rule's
//! `finish` walks its groups and gives each step its own small function,
//! so grouping, wording and prose stay apart.

use super::RuleInfo;
use mqdiag_model::event::Ts;
use mqdiag_model::findings::{Chart, Evidence, EvidenceSet, Finding, Metric, Subject};
use mqdiag_model::problem::Severity;

/// A finding under construction. Metrics keep the order they are given
/// in (the reports print them so).
#[must_use]
pub(crate) struct FindingBuilder {
    f: Finding,
}

impl FindingBuilder {
    /// Severity and title: what the finding says in one line.
    pub(crate) fn new(
        rule: &RuleInfo,
        severity: Severity,
        title: impl Into<String>,
    ) -> FindingBuilder {
        FindingBuilder {
            f: Finding::new(rule.id, severity, title),
        }
    }

    /// The group's time range and how many times it happened.
    pub(crate) fn span(mut self, first: Option<Ts>, last: Option<Ts>, count: u64) -> Self {
        self.f.first = first;
        self.f.last = last;
        self.f.count = count;
        self
    }

    /// Who or what the finding is about.
    pub(crate) fn subject(mut self, set: impl FnOnce(&mut Subject)) -> Self {
        set(&mut self.f.subject);
        self
    }

    /// What tells two findings of one rule and subject apart.
    pub(crate) fn key(mut self, key: impl Into<String>) -> Self {
        self.f.key = key.into();
        self
    }

    /// Several metrics, in order (one set again: replaced in place).
    pub(crate) fn metrics<'a>(mut self, ms: impl IntoIterator<Item = (&'a str, Metric)>) -> Self {
        for (name, v) in ms {
            self.f.metrics.set(name, v);
        }
        self
    }

    pub(crate) fn chart(mut self, chart: Option<Chart>) -> Self {
        self.f.chart = chart;
        self
    }

    /// The evidence lines, capped and deduplicated as `EvidenceSet` does,
    /// sorted by file and line.
    pub(crate) fn evidence(mut self, lines: impl IntoIterator<Item = Evidence>) -> Self {
        let mut ev = EvidenceSet::default();
        for x in lines {
            ev.push(x);
        }
        self.f.evidence = ev.into_sorted();
        self
    }

    /// Evidence the rule already chose and sorted, as it is.
    pub(crate) fn kept_evidence(mut self, lines: Vec<Evidence>) -> Self {
        self.f.evidence = lines;
        self
    }

    pub(crate) fn advice(mut self, advice: impl Into<String>) -> Self {
        self.f.advice = advice.into();
        self
    }

    /// A step the builder has no name for (a breakdown, a field set only
    /// by some findings of a rule).
    pub(crate) fn with(mut self, step: impl FnOnce(&mut Finding)) -> Self {
        step(&mut self.f);
        self
    }

    pub(crate) fn build(self) -> Finding {
        self.f
    }
}

/// `what` followed by ` (N noun)` when there is more than one.
pub(crate) fn counted_title(what: String, n: u64, noun: &str) -> String {
    if n > 1 {
        format!("{what} ({n} {noun})")
    } else {
        what
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::passes::testutil::ts;
    use mqdiag_model::findings::{MAX_EVIDENCE, Metrics};

    fn ev(path: &str, line: u64) -> Evidence {
        Evidence {
            path: path.into(),
            line,
            text: format!("line {line}"),
            offset: None,
        }
    }

    #[test]
    fn steps_fill_the_finding_as_written_by_hand() {
        let (a, b) = (ts("2024-03-01T10:00:00Z"), ts("2024-03-01T10:05:00Z"));
        let f = FindingBuilder::new(&crate::passes::rules::slow_dns::RULE, Severity::Error, "T")
            .span(Some(a), Some(b), 3)
            .subject(|s| s.host = Some("h".into()))
            .key("k")
            .metrics([("x", Metric::int(1))])
            .metrics([("y", Metric::num(2.5)), ("x", Metric::int(7))])
            .evidence([ev("b", 2), ev("a", 9), ev("b", 1), ev("b", 2)])
            .advice("do this")
            .build();
        let mut want = Finding::new("slow-dns", Severity::Error, "T");
        want.first = Some(a);
        want.last = Some(b);
        want.count = 3;
        want.subject.host = Some("h".into());
        want.key = "k".into();
        let mut m = Metrics::default();
        m.set("x", Metric::int(7));
        m.set("y", Metric::num(2.5));
        want.metrics = m;
        want.evidence = vec![ev("a", 9), ev("b", 1), ev("b", 2)];
        want.advice = "do this".into();
        assert_eq!(
            serde_json::to_string(&f).unwrap(),
            serde_json::to_string(&want).unwrap()
        );
        assert_eq!(f.key, "k");
        // Replaced in place: `x` keeps its first position.
        assert_eq!(f.metrics.0[0].0, "x");
    }

    #[test]
    fn evidence_is_capped() {
        let f = FindingBuilder::new(&crate::passes::rules::fdc::RULE, Severity::Info, "T")
            .evidence((0..100).map(|i| ev("p", i)))
            .build();
        assert_eq!(f.evidence.len(), MAX_EVIDENCE);
    }

    #[test]
    fn counted_title_names_the_count_only_past_one() {
        assert_eq!(counted_title("X took 2 s".into(), 1, "calls"), "X took 2 s");
        assert_eq!(
            counted_title("X took 2 s".into(), 4, "calls"),
            "X took 2 s (4 calls)"
        );
    }
}
