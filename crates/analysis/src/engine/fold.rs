//! The findings' share of the run budget: a report lists at most
//! `MAX_EXAMPLES` findings of one identity (rule and fingerprint: the same
//! failure in a million processes) and at most `MAX_PER_RULE` of one rule;
//! the rest fold into one summary finding each ("and 999,950 more
//! processes with the same failure"), whose count, time range and
//! metrics' counts are the sums of what it folds, and the run says so in
//! a reading note. A report then stays bounded however many processes,
//! files or addresses an input brings, and nothing is lost from the
//! counts.

use crate::passes::who::Who;
use mqdiag_model::findings::{Finding, MAX_EVIDENCE, Metric, Subject, thousands};
use std::collections::HashMap;

/// Findings of one identity listed before the rest fold (the first in
/// report order: the earliest).
pub const MAX_EXAMPLES: usize = 5;
/// Findings of one rule listed before the rest fold into one.
pub const MAX_PER_RULE: usize = 200;

/// Metrics that count occurrences: a summary's are the sums of what it
/// folds (the others keep the first folded finding's value).
const SUMMED: &[&str] = &[
    "occurrences",
    "failures",
    "calls",
    "reports",
    "connects",
    "stalls",
    "samples",
    "lines_skipped",
];

/// Fold `findings` (sealed, fingerprints not yet made unique, in report
/// order) within the budget; returns the reading notes that say what was
/// folded.
pub(crate) fn fold(findings: &mut Vec<Finding>) -> Vec<String> {
    fold_with(findings, MAX_EXAMPLES, MAX_PER_RULE)
}

/// One summary being built: where it is, the subject fields all it folds
/// share, what differs between them, how many listed findings it took.
struct Summary {
    at: usize,
    common: Subject,
    noun: Option<&'static str>,
    taken: u64,
    /// The addresses, users and channels of what it folds.
    who: Who,
}

/// Count `f`'s address, user and channel into `who`.
fn count_who(who: &mut Who, f: &Finding) {
    let n = f.count.max(1);
    let s = &f.subject;
    who.addresses
        .add(s.address.as_deref().unwrap_or_default(), n);
    who.channels
        .add(s.channel.as_deref().unwrap_or_default(), n);
    match (&s.user, f.metrics.get("user")) {
        (Some(u), _) => who.users.add(u, n),
        (None, Some(Metric::Str(u))) => who.users.add(u, n),
        _ => {}
    }
}

/// Keep the first `cap` findings of each group (`group_of`), in order;
/// fold the rest of each group into one summary in the place of its
/// first folded finding.
fn fold_groups(
    findings: Vec<Finding>,
    cap: usize,
    group_of: impl Fn(&Finding) -> String,
) -> (Vec<Finding>, Vec<(String, Summary)>) {
    let mut count: HashMap<String, usize> = HashMap::new();
    let mut open: HashMap<String, Summary> = HashMap::new();
    let mut out: Vec<Finding> = Vec::with_capacity(findings.len().min(4096));
    for f in findings {
        let k = group_of(&f);
        let n = count.entry(k.clone()).or_insert(0);
        *n += 1;
        if *n <= cap {
            out.push(f);
            continue;
        }
        match open.get_mut(&k) {
            Some(sum) => {
                sum.taken += 1;
                count_who(&mut sum.who, &f);
                if sum.noun.is_none() {
                    sum.noun = differs(&sum.common, &f.subject);
                }
                sum.common = common(&sum.common, &f.subject);
                merge(&mut out[sum.at], f);
            }
            None => {
                let mut f = f;
                let n = folded_of(&f);
                f.metrics.set("folded", Metric::int(n));
                f.chart = None;
                let mut who = Who::default();
                count_who(&mut who, &f);
                open.insert(
                    k,
                    Summary {
                        at: out.len(),
                        common: f.subject.clone(),
                        noun: None,
                        taken: 1,
                        who,
                    },
                );
                out.push(f);
            }
        }
    }
    let mut sums: Vec<(String, Summary)> = open.into_iter().collect();
    sums.sort_by_key(|(_, s)| s.at);
    (out, sums)
}

pub(crate) fn fold_with(
    findings: &mut Vec<Finding>,
    examples: usize,
    per_rule: usize,
) -> Vec<String> {
    let mut notes = Vec::new();
    // Same identity first: the examples stay, the rest become one summary.
    let (mut out, sums) = fold_groups(std::mem::take(findings), examples, |f| {
        format!("{}\0{}", f.rule, f.fingerprint)
    });
    for (_, sum) in sums {
        let s = &mut out[sum.at];
        let noun = sum.noun.unwrap_or("findings");
        s.title = format!(
            "{} more {noun} with the same failure; the first of them: {}",
            thousands(sum.taken),
            s.title
        );
        s.subject = sum.common;
        sum.who.set_metrics(&mut s.metrics);
        s.fingerprint = format!("{}-others", s.fingerprint);
        notes.push(format!(
            "{} {} findings about {noun} folded into one, which sums their counts: \
             the run budget lists {examples} findings of one identity",
            thousands(sum.taken),
            s.rule
        ));
    }
    // Then many identities of one rule: past its share, one summary.
    let (mut out, sums) = fold_groups(out, per_rule, |f| f.rule.clone());
    for (rule, sum) in sums {
        let s = &mut out[sum.at];
        let noun = sum.noun.unwrap_or("findings");
        s.title = format!(
            "{} more {rule} findings about other {noun}; the first of them: {}",
            thousands(sum.taken),
            s.title
        );
        s.subject = sum.common;
        sum.who.set_metrics(&mut s.metrics);
        s.fingerprint = format!("{rule}:others");
        s.breakdown.clear();
        notes.push(format!(
            "{} {rule} findings past the rule's share folded into one, which sums their counts: \
             the run budget lists {per_rule} findings of one rule",
            thousands(sum.taken)
        ));
    }
    *findings = out;
    notes
}

/// How many findings `f` stands for (a summary: its `folded`).
fn folded_of(f: &Finding) -> u64 {
    match f.metrics.get("folded") {
        Some(Metric::Int(n)) => u64::try_from(*n).unwrap_or(1),
        _ => 1,
    }
}

/// Add `f` to the summary `s`: counts, time range, summed metrics, the
/// evidence while there is room.
fn merge(s: &mut Finding, f: Finding) {
    s.count += f.count;
    if let Some(t) = f.first {
        s.saw(&t);
    }
    if let Some(t) = f.last {
        s.saw(&t);
    }
    s.severity = s.severity.max(f.severity);
    for (name, v) in &f.metrics.0 {
        if !SUMMED.contains(&name.as_str()) {
            continue;
        }
        if let (Some(Metric::Int(a)), Metric::Int(b)) = (s.metrics.get(name).cloned(), v) {
            s.metrics.set(name, Metric::Int(a.saturating_add(*b)));
        }
    }
    let n = folded_of(s) + folded_of(&f);
    s.metrics.set("folded", Metric::int(n));
    for ev in f.evidence {
        if s.evidence.len() >= MAX_EVIDENCE {
            break;
        }
        if !s.evidence.contains(&ev) {
            s.evidence.push(ev);
        }
    }
}

/// What the folded findings are, by the first subject field that tells
/// `b` from `a`: processes, threads, addresses, channels ...
fn differs(a: &Subject, b: &Subject) -> Option<&'static str> {
    Some(if a.pid != b.pid {
        "processes"
    } else if a.tid != b.tid {
        "threads"
    } else if a.ident != b.ident {
        "connections"
    } else if a.address != b.address {
        "addresses"
    } else if a.user != b.user {
        "users"
    } else if a.channel != b.channel {
        "channels"
    } else if a.host != b.host {
        "hosts"
    } else if a.queue != b.queue {
        "queues"
    } else if a.qmgr != b.qmgr {
        "queue managers"
    } else if a.program != b.program {
        "programs"
    } else {
        return None;
    })
}

/// The subject fields `a` and `b` share.
fn common(a: &Subject, b: &Subject) -> Subject {
    let mut s = a.clone();
    if s.pid != b.pid {
        s.pid = None;
    }
    if s.tid != b.tid {
        s.tid = None;
    }
    macro_rules! keep {
        ($($f:ident),*) => {$(
            if s.$f != b.$f {
                s.$f = None;
            }
        )*};
    }
    keep!(ident, channel, host, address, user, queue, qmgr, program);
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use mqdiag_model::problem::Severity;

    fn finding(rule: &str, fp: &str, pid: u32, count: u64) -> Finding {
        let mut f = Finding::new(rule, Severity::Error, format!("{rule} in {pid}"));
        f.fingerprint = fp.to_string();
        f.count = count;
        f.subject.pid = Some(pid);
        f.subject.channel = Some("APP.SVRCONN".into());
        f.metrics.set("occurrences", Metric::int(count));
        f
    }

    #[test]
    fn one_identity_past_its_examples_is_one_summary_with_the_sums() {
        let mut v: Vec<Finding> = (0..8).map(|i| finding("r", "r:1", i, 2)).collect();
        v.push(finding("r", "r:2", 99, 1));
        let notes = fold_with(&mut v, 3, 100);
        // 3 examples, the summary in the place of the first folded, the other.
        assert_eq!(v.len(), 5);
        let s = &v[3];
        assert_eq!(s.count, 10);
        assert_eq!(s.metrics.get("occurrences"), Some(&Metric::Int(10)));
        assert_eq!(s.metrics.get("folded"), Some(&Metric::Int(5)));
        assert!(
            s.title
                .starts_with("5 more processes with the same failure"),
            "{}",
            s.title
        );
        // What they share stays, what tells them apart goes.
        assert_eq!(s.subject.pid, None);
        assert_eq!(s.subject.channel.as_deref(), Some("APP.SVRCONN"));
        assert_eq!(s.fingerprint, "r:1-others");
        assert_eq!(notes.len(), 1);
        assert_eq!(v.iter().map(|f| f.count).sum::<u64>(), 17);
    }

    #[test]
    fn a_summary_names_the_addresses_and_users_it_folds() {
        let mut v: Vec<Finding> = (0..30)
            .map(|i| {
                let mut f = finding("r", "r:1", 7, 1);
                f.subject.address = Some(format!("198.51.100.{}", i % 10));
                f.metrics.set("user", Metric::Str(format!("u{}", i % 2)));
                f
            })
            .collect();
        fold_with(&mut v, 5, 100);
        let s = &v[5];
        // 25 findings folded (5 to 29), from 10 addresses: 5 to 9 three
        // times, 0 to 4 twice.
        assert_eq!(s.metrics.get("addresses"), Some(&Metric::Int(10)));
        let Some(Metric::Str(top)) = s.metrics.get("top_addresses") else {
            panic!("{:?}", s.metrics)
        };
        assert!(
            top.starts_with("198.51.100.5 (3), 198.51.100.6 (3)"),
            "{top}"
        );
        assert!(top.ends_with("198.51.100.4 (2)"), "{top}");
        assert_eq!(s.metrics.get("users"), Some(&Metric::Int(2)));
        // One channel: the subject still names it.
        assert_eq!(s.metrics.get("channels"), None);
        assert_eq!(s.subject.channel.as_deref(), Some("APP.SVRCONN"));
    }

    #[test]
    fn a_rule_past_its_share_folds_the_rest_into_one() {
        let mut v: Vec<Finding> = (0..10)
            .map(|i| finding("r", &format!("r:{i}"), i, 1))
            .collect();
        let notes = fold_with(&mut v, 3, 4);
        assert_eq!(v.len(), 5);
        assert_eq!(v[4].fingerprint, "r:others");
        assert_eq!(v[4].count, 6);
        assert!(
            notes[0].contains("lists 4 findings of one rule"),
            "{notes:?}"
        );
        // Under both caps nothing changes.
        let mut w: Vec<Finding> = (0..3).map(|i| finding("r", "r:1", i, 1)).collect();
        let before = format!("{w:?}");
        assert!(fold_with(&mut w, 3, 4).is_empty());
        assert_eq!(format!("{w:?}"), before);
    }
}
