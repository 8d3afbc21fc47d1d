//! Analysis passes: one module per rule. Each pass sees the time-ordered
//! event stream once, keeps bounded state (per thread, connection, queue;
//! never the whole stream) and returns its findings at the end. Adding a
//! rule is one new module in `rules/` and its name in `rules::registry!`.
//!
//! `rules/` holds one module per rule; the modules beside it are what
//! rules share (`builder` for findings, `message_pass` for the message
//! rules, `stories`, `stats`, `patterns`, `parts_index`, `shared`).
//! `pass` says what a rule is, `plan` which rules a run runs.

mod builder;
mod message_pass;
pub(crate) mod name_memo;
mod parts_index;
mod pass;
mod patterns;
pub(crate) mod pid_set;
mod plan;
mod rules;
mod shared;
mod stats;
mod stories;
#[cfg(test)]
pub(crate) mod testutil;
pub(crate) mod who;

pub use pass::{ChartKind, Order, RuleInfo, Threshold};
pub(crate) use pass::{Hook, Kinds, Pass, THRESHOLD_MAX};
pub use plan::{Plan, PlanError, Settings};
pub(crate) use shared::{ThreadKey, by_key, parts_key, thread_key};

pub use rules::RULES;

/// The rule with this id.
pub fn rule(id: &str) -> Option<&'static RuleInfo> {
    RULES.iter().copied().find(|r| r.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The same order as a stable sort by key, equal keys included.
    #[test]
    fn by_key_is_a_stable_sort_by_key() {
        let mut rng = mqdiag_model::testrng::Rng::new(0x0b1e_57ab);
        for n in [0, 1, 2, 7, 100, 3000] {
            let v: Vec<(usize, String)> = (0..n)
                .map(|i| (rng.below(n / 3 + 1), format!("v{i}")))
                .collect();
            let mut want = v.clone();
            want.sort_by_key(|a| a.0);
            assert_eq!(by_key(v), want);
        }
    }

    #[test]
    fn every_rule_constructs_and_is_documented() {
        let mut ids = std::collections::HashSet::new();
        for r in RULES {
            assert!(ids.insert(r.id), "duplicate rule {}", r.id);
            assert!(!r.summary.is_empty() && !r.trigger.is_empty() && !r.advice.is_empty());
            // Every finding names what it measured: a rule states which.
            assert!(!r.metrics.is_empty(), "{} declares no metrics", r.id);
            assert!(
                !r.fingerprint.is_empty(),
                "{} names no part of its fingerprint",
                r.id
            );
            for t in r.thresholds {
                assert!(
                    t.default >= t.min && t.default <= t.max,
                    "{}.{}",
                    r.id,
                    t.key
                );
                assert!(!t.doc.is_empty());
            }
            // Constructing and finishing with no events must not panic
            // (this also checks every key a pass reads is declared).
            let mut p = (r.make)(&Settings::defaults(r));
            let out = p.finish(&[]);
            assert!(out.is_empty(), "{} fired on nothing", r.id);
        }
    }

    #[test]
    fn set_parsing() {
        let p = Plan::new(&[], &[], &["tcp-send-stall.min_wait_ms=100".into()]).unwrap();
        let (_, s) = p
            .rules
            .iter()
            .find(|(r, _)| r.id == "tcp-send-stall")
            .unwrap();
        assert_eq!(s.get("min_wait_ms"), 100.0);
        let err = |v: &str| {
            Plan::new(&[], &[], &[v.to_string()])
                .unwrap_err()
                .to_string()
        };
        assert!(err("nosuch.x=1").contains("unknown rule `nosuch`"));
        assert!(err("tcp-send-stall.nokey=1").contains("has no threshold `nokey`"));
        assert!(err("tcp-send-stall.nokey=1").contains("min_wait_ms"));
        assert!(err("tcp-send-stall.min_wait_ms=abc").contains("not a number"));
        assert!(err("tcp-send-stall.min_wait_ms=-5").contains("must be between 0 and 1000000000"));
        // Past the bound a threshold would overflow the calendar when added
        // to an event time.
        assert!(err("slow-dns.correlate_s=1e15").contains("between 0 and 1000000000"));
        assert!(Plan::new(&[], &[], &["slow-dns.correlate_s=1e9".to_string()]).is_ok());
        assert!(err("tcp-send-stall.min_wait_ms").contains("RULE.KEY=VALUE"));
        assert!(err("nodot=1").contains("RULE.KEY=VALUE"));
        // Whole messages, as the binary prints them.
        assert_eq!(
            err("unreadable-input.x=1"),
            "--set `unreadable-input.x=1`: rule `unreadable-input` has no thresholds"
        );
        assert_eq!(
            err("tcp-send-stall.min_wait_ms=-5"),
            "--set `tcp-send-stall.min_wait_ms=-5`: tcp-send-stall.min_wait_ms must be \
             between 0 and 1000000000"
        );
        assert_eq!(
            err("tcp-send-stall.min_wait_ms= x"),
            "--set `tcp-send-stall.min_wait_ms= x`: ` x` is not a number"
        );
    }

    #[test]
    fn only_and_skip() {
        let p = Plan::new(&["slow-dns".into(), "tls-error".into()], &[], &[]).unwrap();
        let ids: Vec<&str> = p.rules.iter().map(|(r, _)| r.id).collect();
        assert_eq!(ids, vec!["slow-dns", "tls-error"]);
        let p = Plan::new(&[], &["unreadable-input".into()], &[]).unwrap();
        assert_eq!(p.rules.len(), RULES.len() - 1);
        assert!(
            Plan::new(&["bogus".into()], &[], &[])
                .unwrap_err()
                .to_string()
                .contains("unknown rule")
        );
    }
}

#[cfg(test)]
mod interest_tests {

    /// Every rule's names still fit the SIMD search (an automaton made
    /// `analyze` several times slower on 1 GB); the MQI calls are found
    /// by their anchor beside it.
    #[test]
    fn analyze_interest_stays_simd() {
        let i = super::Plan::new(&[], &[], &[]).unwrap().interest();
        assert!(i.packed_search(), "{i:?}");
        // Inner names still find the longer ones.
        assert!(i.candidate(b" 10:00:00.000000 1.1 : -{  trmzstMQCONNX"));
        assert!(i.candidate(b" 10:00:00.000000 1.1 : -{  zstMQGET"));
        assert!(!i.candidate(b" 10:00:00.000000 1.1 : -{  xcsGetMem"));
        assert!(i.function("zstMQGET") && i.function("MQPUT1"));
    }
}
