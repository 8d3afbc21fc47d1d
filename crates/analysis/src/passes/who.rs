//! Who a story covers: the distinct addresses, users and channels of the
//! refusals, errors or limits it groups, each as a count and the most
//! frequent `TOP` with theirs (metrics `addresses` and `top_addresses`,
//! `users` and `top_users`, `channels` and `top_channels`; absent for a
//! kind of which it saw one value, which the story's own `address`, `user`
//! or `channel` names), so that a story that groups many remote ends
//! names them rather than the first.
//!
//! Memory is bounded: past `MAX_KEPT` distinct values of one kind, further
//! new values are only counted (as occurrences, not told apart) and the
//! count says "at least".

use mqdiag_model::findings::{Metric, Metrics, thousands};
use std::collections::HashMap;

/// Values of one kind named in a finding, most frequent first: 20, so a
/// story of 20 addresses names them all.
pub(crate) const TOP: usize = 20;
/// Distinct values of one kind kept per story.
const MAX_KEPT: usize = 1_000;

/// The distinct values of one kind and how often each was seen.
#[derive(Debug, Clone, Default)]
pub(crate) struct Tally {
    counts: HashMap<String, u64>,
    /// Occurrences of values past `MAX_KEPT` (not told apart).
    past: u64,
}

impl Tally {
    pub(crate) fn add(&mut self, v: &str, n: u64) {
        let v = v.trim();
        if v.is_empty() || v.bytes().all(|b| b == b'?') {
            return;
        }
        if let Some(c) = self.counts.get_mut(v) {
            *c += n;
        } else if self.counts.len() < MAX_KEPT {
            self.counts.insert(v.to_string(), n);
        } else {
            self.past += n;
        }
    }

    /// `198.51.100.7 (12), 198.51.100.9 (3) and 4 more`: the most
    /// frequent first, then by name.
    fn top(&self) -> String {
        let mut v: Vec<(&String, &u64)> = self.counts.iter().collect();
        v.sort_by(|a, b| b.1.cmp(a.1).then_with(|| a.0.cmp(b.0)));
        let mut s = v
            .iter()
            .take(TOP)
            .map(|(k, n)| format!("{k} ({})", thousands(**n)))
            .collect::<Vec<_>>()
            .join(", ");
        let rest = v.len().saturating_sub(TOP);
        if rest > 0 || self.past > 0 {
            let more = if self.past > 0 { "at least " } else { "" };
            s.push_str(&format!(
                " and {more}{} more",
                thousands(rest as u64 + u64::from(self.past > 0))
            ));
        }
        s
    }

    /// The count of distinct values (at least, past `MAX_KEPT`).
    fn count(&self) -> u64 {
        self.counts.len() as u64 + u64::from(self.past > 0)
    }
}

/// The addresses, users and channels a story covers.
#[derive(Debug, Clone, Default)]
pub(crate) struct Who {
    pub(crate) addresses: Tally,
    pub(crate) users: Tally,
    pub(crate) channels: Tally,
}

impl Who {
    /// Its metrics, for the kinds of which it saw more than one value
    /// (one is already the story's `address`, `user` or `channel`).
    pub(crate) fn set_metrics(&self, m: &mut Metrics) {
        for (t, count, top) in [
            (&self.addresses, "addresses", "top_addresses"),
            (&self.users, "users", "top_users"),
            (&self.channels, "channels", "top_channels"),
        ] {
            if t.count() < 2 {
                continue;
            }
            m.set(count, Metric::int(t.count()));
            m.set(top, Metric::Str(t.top()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn twenty_addresses_are_all_named_and_more_are_counted() {
        let mut w = Who::default();
        for i in 0..20 {
            w.addresses
                .add(&format!("198.51.100.{i}"), 1 + u64::from(i == 7));
        }
        w.users.add("app", 3);
        w.users.add("????", 1);
        let mut m = Metrics::default();
        w.set_metrics(&mut m);
        assert_eq!(m.get("addresses"), Some(&Metric::Int(20)));
        let Some(Metric::Str(top)) = m.get("top_addresses") else {
            panic!("{m:?}")
        };
        assert!(
            top.starts_with("198.51.100.7 (2), 198.51.100.0 (1)"),
            "{top}"
        );
        for i in 0..20 {
            assert!(top.contains(&format!("198.51.100.{i} (")), "{top}");
        }
        assert!(!top.contains("more"));
        // One user: the story's `user` names it.
        assert_eq!(m.get("users"), None);
        assert_eq!(m.get("channels"), None);
        w.addresses.add("203.0.113.1", 1);
        let mut m = Metrics::default();
        w.set_metrics(&mut m);
        let Some(Metric::Str(top)) = m.get("top_addresses") else {
            panic!()
        };
        assert!(top.ends_with(" and 1 more"), "{top}");
    }
}
