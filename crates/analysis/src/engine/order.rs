//! Findings sealed (unique fingerprints) and put in report order.

use crate::passes::{Order, RULES};
use mqdiag_model::findings::Finding;
use std::collections::{HashMap, HashSet};

/// Report order: most severe first, then rule order, then time.
/// Within a rule, findings read in time order; the message rules
/// (`channel-error`, `tls-error`) group months of a log, so there what
/// happened last comes first, then what happened most.
pub(super) fn order(findings: &mut [Finding]) {
    let rank: HashMap<&str, usize> = RULES.iter().enumerate().map(|(i, r)| (r.id, i)).collect();
    let recent: HashSet<&str> = RULES
        .iter()
        .filter(|r| r.order == Order::RecentFirst)
        .map(|r| r.id)
        .collect();
    let recent_first = |f: &Finding| recent.contains(f.rule.as_str());
    findings.sort_by(|a, b| {
        b.severity
            .cmp(&a.severity)
            .then_with(|| rank.get(a.rule.as_str()).cmp(&rank.get(b.rule.as_str())))
            .then_with(|| {
                if recent_first(a) {
                    b.last.cmp(&a.last).then_with(|| b.count.cmp(&a.count))
                } else {
                    a.first.cmp(&b.first)
                }
            })
            .then_with(|| a.fingerprint.cmp(&b.fingerprint))
    });
}

/// Seal every finding; fingerprints that still collide get a suffix in
/// their (stable) order so each one is unique in the report.
#[cfg(test)]
pub(crate) fn seal_all(findings: &mut [Finding]) {
    seal(findings);
    unique(findings);
}

/// Each finding's fingerprint from its rule's parts.
pub(super) fn seal(findings: &mut [Finding]) {
    for f in findings.iter_mut() {
        f.seal(crate::passes::rule(&f.rule).map_or(&[], |r| r.fingerprint));
    }
}

/// Fingerprints that collide get a suffix in their (stable) order.
pub(super) fn unique(findings: &mut [Finding]) {
    let mut seen: HashMap<String, u32> = HashMap::new();
    for f in findings.iter_mut() {
        let n = seen.entry(f.fingerprint.clone()).or_insert(0);
        *n += 1;
        if *n > 1 {
            f.fingerprint = format!("{}-{n}", f.fingerprint);
        }
    }
}
