//! Tests of the pass beside them.

use super::*;
use crate::passes::testutil::{log, run};

/// Lives here, not in the catalogue: it reads the rules.
#[test]
fn every_id_a_rule_names_is_in_the_table() {
    let rules = [
        &crate::passes::rules::channel_error::RULE,
        &crate::passes::rules::tls_error::RULE,
        &crate::passes::rules::slow_dns::RULE,
        &crate::passes::rules::resource_limit::RULE,
    ];
    for r in rules {
        let text = r.trigger_text();
        for w in text.split(|c: char| !c.is_ascii_alphanumeric()) {
            if w.starts_with("AMQ") || w.starts_with("CSQ") {
                assert!(
                    mqdiag_readers::catalog::lookup(w).is_some(),
                    "{} names {w}",
                    r.id
                );
            }
        }
    }
    for (family, n) in [
        // AMQ9513, AMQ9544 and CSQX489 are resource-limit's, CSQX777
        // access-refused's.
        (mqdiag_readers::catalog::Family::Channel, 20),
        (mqdiag_readers::catalog::Family::Tls, 18),
    ] {
        let listed = mqdiag_readers::catalog::reported_ids(family);
        assert_eq!(
            mqdiag_readers::catalog::CATALOG
                .iter()
                .filter(|e| e.family == family && e.rule.is_some())
                .count(),
            n
        );
        assert_eq!(
            listed.matches(", ").count() + listed.matches(" and ").count() + 1,
            n
        );
    }
}

#[test]
fn rows_past_the_cap_keep_their_channel_and_lose_their_end() {
    let ev: Vec<Event> = (0..MAX_ROWS + 50)
        .map(|i| {
            let host = format!("h{i}");
            log(
                "AMQERR01.LOG",
                i as u64 + 1,
                "2024-03-14T12:00:00Z",
                &format!("AMQ9209E: Connection to host '{host}' closed."),
                &[
                    ("msgid", "AMQ9209E"),
                    ("channel", "APP.SVRCONN"),
                    ("host", &host),
                ],
            )
        })
        .collect();
    let out = run(&crate::passes::rules::channel_error::RULE, &[], &ev);
    assert_eq!(out.len(), 1, "{out:#?}");
    let f = &out[0];
    assert_eq!(f.count, MAX_ROWS as u64 + 50);
    assert_eq!(f.subject.channel.as_deref(), Some("APP.SVRCONN"));
    assert_eq!(f.subject.host, None);
    assert_eq!(f.breakdown[0].host.as_deref(), Some(OTHER));
    assert_eq!(f.breakdown[0].occurrences, 50);
    assert!(f.title.contains("2,001+ hosts"), "{}", f.title);
    assert_eq!(metric_int(f, "hosts"), MAX_ROWS as i64);
}

#[test]
fn both_message_rules_in_one_pass_find_what_each_finds_alone() {
    use crate::passes::rules::{channel_error, tls_error};
    use crate::passes::{Pass, Plan};
    // Channel and TLS failures, some written together by one thread,
    // one copied into a second file.
    let rec = |path: &str, line: u64, at: &str, id: &str, ch: &str| {
        let mut e = log(
            path,
            line,
            at,
            &format!("{id}: text of {ch}"),
            &[("msgid", id), ("channel", ch), ("host", "app1 (10.1.1.1)")],
        );
        e.pid = Some(7);
        e.tid = Some(line as u32 % 3);
        e
    };
    let mut ev = Vec::new();
    for i in 0..40u64 {
        let at = format!("2024-03-14T12:{:02}:{:02}Z", i / 60, i % 60);
        let (id, ch) = match i % 4 {
            0 => ("AMQ9209E", "APP1.SVRCONN"),
            1 => ("AMQ9999E", "APP1.SVRCONN"),
            2 => ("AMQ9631E", "TLS.SVRCONN"),
            _ => ("AMQ9633E", "TLS2.SVRCONN"),
        };
        ev.push(rec("AMQERR01.LOG", i + 1, &at, id, ch));
        if i % 10 == 0 {
            ev.push(rec("copy/AMQERR01.LOG", i + 1, &at, id, ch));
        }
    }
    let run_all = |mut passes: Vec<Box<dyn Pass>>| {
        for e in &ev {
            for p in passes.iter_mut() {
                p.observe(e);
            }
        }
        let mut out: Vec<String> = passes
            .iter_mut()
            .flat_map(|p| p.finish(&[]))
            .map(|mut f| {
                f.seal(crate::passes::rule(&f.rule).map_or(&[], |r| r.fingerprint));
                format!("{f:?}")
            })
            .collect();
        out.sort();
        out
    };
    let plan = Plan::new(&["channel-error".into(), "tls-error".into()], &[], &[]).unwrap();
    let shared = plan.passes();
    assert_eq!(shared.len(), 1, "the two rules share one pass");
    let alone: Vec<Box<dyn Pass>> = [&channel_error::RULE, &tls_error::RULE]
        .iter()
        .map(|r| (r.make)(&crate::passes::Settings::defaults(r)))
        .collect();
    let (a, b) = (run_all(shared), run_all(alone));
    assert!(a.iter().any(|f| f.contains("channel-error")));
    assert!(a.iter().any(|f| f.contains("tls-error")));
    assert_eq!(a, b);
}

fn mq_event(line: u64, at: &str, attrs: &[(&'static str, &str)]) -> Event {
    let mut e = crate::passes::testutil::log("QM1.events.txt", line, at, "event", attrs);
    e.kind = Kind::MqEvent;
    e
}

#[test]
fn events_are_cited_beside_the_log_story_of_the_same_failure_or_count_alone() {
    let ssl = |line: u64, at: &str, chl: &'static str| {
        mq_event(
            line,
            at,
            &[
                ("reason", "2371"),
                ("qualifier", "MQRQ_SSL_CIPHER_SPEC_ERROR"),
                ("qmgr", "QM1"),
                ("channel", chl),
            ],
        )
    };
    let ev = vec![
        ssl(1, "2024-03-01T10:00:00.100+00:00", "TO.QM2"),
        crate::passes::testutil::log(
            "e.LOG",
            5,
            "2024-03-01T10:00:00.200+00:00",
            "AMQ9631E: CipherSpec mismatch",
            &[
                ("msgid", "AMQ9631E"),
                ("qmgr", "QM1"),
                ("channel", "TO.QM2"),
            ],
        ),
        // The stop that followed names the same message: one failure.
        mq_event(
            11,
            "2024-03-01T10:00:00.300+00:00",
            &[
                ("reason", "2283"),
                ("qualifier", "MQRQ_CHANNEL_STOPPED_RETRY"),
                ("qmgr", "QM1"),
                ("channel", "TO.QM2"),
                ("error_id", "AMQ9631"),
            ],
        ),
        // Another channel, an hour later, no log: its own failure.
        ssl(21, "2024-03-01T11:00:00+00:00", "TO.QM3"),
        // A normal stop is no failure.
        mq_event(
            31,
            "2024-03-01T11:00:05+00:00",
            &[("reason", "2283"), ("qualifier", "MQRQ_CHANNEL_STOPPED_OK")],
        ),
    ];
    let out = crate::passes::testutil::run(&crate::passes::rules::tls_error::RULE, &[], &ev);
    assert_eq!(out.len(), 2, "{out:#?}");
    let qm2 = out
        .iter()
        .find(|f| f.subject.channel.as_deref() == Some("TO.QM2"))
        .unwrap();
    assert_eq!(qm2.count, 1);
    let mut lines: Vec<u64> = qm2.evidence.iter().map(|e| e.line).collect();
    lines.sort();
    assert_eq!(lines, vec![1, 5, 11]);
    let qm3 = out
        .iter()
        .find(|f| f.subject.channel.as_deref() == Some("TO.QM3"))
        .unwrap();
    assert_eq!(qm3.count, 1);
}

fn metric_int(f: &Finding, name: &str) -> i64 {
    match f.metrics.get(name) {
        Some(Metric::Int(v)) => *v,
        other => panic!("{name}: {other:?}"),
    }
}

/// Without an error log: an SSL Error and the Channel Stopped it caused
/// are one failure; two SSL Errors of the same channel within a second
/// are two (an event is never taken for the twin of one of its type).
#[test]
fn events_alone_join_across_types_never_within_one() {
    let ev = |line: u64, at: &str, reason: &'static str| {
        let mut attrs = vec![("reason", reason), ("qmgr", "QM1"), ("channel", "TO.QM2")];
        if reason == "2283" {
            attrs.push(("qualifier", "MQRQ_CHANNEL_STOPPED_RETRY"));
            attrs.push(("error_id", "AMQ9631"));
        } else {
            attrs.push(("qualifier", "MQRQ_SSL_CIPHER_SPEC_ERROR"));
        }
        mq_event(line, at, &attrs)
    };
    let events = vec![
        ev(1, "2024-03-01T10:00:00.100+00:00", "2371"),
        ev(11, "2024-03-01T10:00:00.300+00:00", "2283"),
        ev(21, "2024-03-01T10:00:00.600+00:00", "2371"),
    ];
    let out = crate::passes::testutil::run(&crate::passes::rules::tls_error::RULE, &[], &events);
    assert_eq!(out.len(), 1, "{out:#?}");
    assert_eq!(out[0].count, 2, "{:#?}", out[0]);
}
