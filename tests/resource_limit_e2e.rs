//! End to end: `resource-limit` on the fixtures of fixtures/resource-limit/
//! (dead-letter puts in English and in a Russian CP1251 log, maximum
//! channels, a full log, a client's puts to a full queue and its opens past
//! MAXHANDS, a z/OS channel initiator's dead-letter puts) and the z/OS
//! job log's instance limit, and on fixtures without any limit.

mod common;
use common::{analyze_json, evidence_lines, field, findings, metric, mqdiag, one};
use serde_json::Value;

const RULE: &str = "resource-limit";

fn run(path: &str) -> Value {
    analyze_json(&["--only", RULE, path])
}

/// The two dead-letter stories of the `dlq` fixtures, whatever the
/// language: channel, count, first, last.
fn dead_letter_stories(dir: &str) -> Vec<(String, u64, String, String)> {
    let v = run(dir);
    let all = findings(&v, RULE);
    assert_eq!(all.len(), 2, "{all:#?}");
    all.iter()
        .map(|f| {
            assert_eq!(field(f, "severity"), "error");
            assert_eq!(metric(f, "limit"), "dead-letter");
            assert_eq!(metric(f, "dead_letter_queue"), "local");
            assert_eq!(f["subject"]["qmgr"], "QMDST");
            assert_eq!(metric(f, "object"), &f["subject"]["channel"]);
            assert!(field(f, "advice").contains("`DISPLAY QMGR DEADQ`"));
            assert!(field(f, "advice").contains("amqsbcg <deadq> QMDST"));
            (
                f["subject"]["channel"].as_str().unwrap().to_string(),
                f["count"].as_u64().unwrap(),
                field(f, "first").to_string(),
                field(f, "last").to_string(),
            )
        })
        .collect()
}

#[test]
fn dead_letter_puts_one_story_per_channel() {
    let v = run("fixtures/resource-limit/dlq");
    let all = findings(&v, RULE);
    let f = all
        .iter()
        .find(|f| f["subject"]["channel"] == "QMSRC.QMDST")
        .unwrap();
    assert_eq!(f["count"], 3);
    assert_eq!(field(f, "first"), "2024-06-03T10:02:11.120000+00:00");
    assert_eq!(field(f, "last"), "2024-06-03T10:19:02.004000+00:00");
    assert_eq!(metric(f, "occurrences"), 3);
    assert_eq!(metric(f, "message_id"), "AMQ9544E");
    assert_eq!(
        field(f, "title"),
        "Messages from channel QMSRC.QMDST put to a dead-letter queue on QMDST (3 records)"
    );
    let lines = evidence_lines(f);
    assert_eq!(lines[0], 1);
    assert_eq!(dead_letter_stories("fixtures/resource-limit/dlq").len(), 2);
}

#[test]
fn a_russian_cp1251_log_gives_the_same_stories() {
    assert_eq!(
        dead_letter_stories("fixtures/resource-limit/dlq-ru"),
        dead_letter_stories("fixtures/resource-limit/dlq")
    );
}

#[test]
fn maximum_channels() {
    let v = run("fixtures/resource-limit/max-channels");
    let f = one(&v, RULE);
    assert_eq!(f["count"], 3);
    assert_eq!(field(f, "first"), "2024-06-04T14:00:03.310000+00:00");
    assert_eq!(field(f, "last"), "2024-06-04T14:03:40.777000+00:00");
    assert_eq!(metric(f, "limit"), "max-channels");
    assert_eq!(metric(f, "object"), "QMHUB");
    assert!(f["subject"]["channel"].is_null());
    assert_eq!(
        metric(f, "setting"),
        "MaxChannels in the CHANNELS stanza of qm.ini"
    );
    assert!(metric(f, "setting_value").is_null());
    assert!(field(f, "advice").contains("DISPLAY CHSTATUS(*) CONNAME CURSHCNV\" | runmqsc QMHUB"));
}

#[test]
fn full_log_without_a_severity_letter() {
    let v = run("fixtures/resource-limit/log-full");
    let f = one(&v, RULE);
    assert_eq!(f["count"], 2);
    assert_eq!(metric(f, "limit"), "log-full");
    assert_eq!(metric(f, "object"), "QMLOG");
    // No source shows AMQ7463's letter: none is added.
    assert_eq!(metric(f, "message_id"), "AMQ7463");
    assert!(
        field(f, "advice")
            .contains("WHERE(UOWSTATE EQ ACTIVE) UOWLOGDA UOWLOGTI APPLTAG` on QMLOG")
    );
}

#[test]
fn zos_instance_limit_moves_from_channel_error() {
    let v = analyze_json(&["fixtures/zos"]);
    let f = one(&v, RULE);
    assert_eq!(metric(f, "limit"), "max-instances");
    assert_eq!(metric(f, "setting_value"), "20");
    assert_eq!(metric(f, "object"), "APP2.SVRCONN");
    assert_eq!(f["subject"]["qmgr"], "MQ1A");
    assert_eq!(metric(f, "addresses"), "10.1.2.4");
    assert!(field(f, "advice").contains("DISPLAY CHANNEL(APP2.SVRCONN) MAXINST MAXINSTC"));
    for ch in findings(&v, "channel-error") {
        assert!(
            !ch["metrics"]["message_id"]
                .as_str()
                .unwrap_or("")
                .contains("CSQX489"),
            "{ch:#}"
        );
    }
}

#[test]
fn a_full_queue_from_a_client_trace() {
    let v = run("fixtures/resource-limit/queue-full");
    let f = one(&v, RULE);
    // Every form of the reason: name, decimal with a `Reason=` line, and
    // the tracer's eight hexadecimal digits.
    assert_eq!(f["count"], 3);
    assert_eq!(field(f, "severity"), "error");
    assert_eq!(field(f, "first"), "2024-06-11T14:20:00.360500+01:00");
    assert_eq!(field(f, "last"), "2024-06-11T14:20:02.360510+01:00");
    assert_eq!(
        field(f, "title"),
        "Queue full (MAXDEPTH): MQPUT failed 3 times with 2053 MQRC_Q_FULL in process \
         appsrv02:5120 orderfeed"
    );
    assert_eq!(metric(f, "limit"), "queue-full");
    assert_eq!(metric(f, "reason"), 2053);
    assert_eq!(metric(f, "verbs"), "MQPUT");
    assert_eq!(metric(f, "setting"), "the queue's MAXDEPTH");
    // The call does not name the queue.
    assert!(metric(f, "object").is_null());
    assert_eq!(f["subject"]["pid"], 5120);
    assert_eq!(f["subject"]["program"], "orderfeed");
    assert_eq!(f["subject"]["host"], "appsrv02");
    assert!(field(f, "advice").contains(
        "DISPLAY QLOCAL(*) WHERE(CURDEPTH GT 0) CURDEPTH MAXDEPTH IPPROCS\" | runmqsc <qmgr>"
    ));
    let lines = evidence_lines(f);
    assert_eq!(lines, [48, 53, 57]);
    // The same calls are mqi-failures' too, counted once each.
    let all = analyze_json(&["fixtures/resource-limit/queue-full"]);
    assert_eq!(one(&all, "mqi-failures")["count"], 3);
}

#[test]
fn opens_past_the_handle_limit() {
    let v = run("fixtures/resource-limit/handles");
    let f = one(&v, RULE);
    assert_eq!(f["count"], 2);
    assert_eq!(metric(f, "limit"), "handles");
    assert_eq!(metric(f, "reason_name"), "MQRC_HANDLE_NOT_AVAILABLE");
    assert_eq!(metric(f, "object"), "appsrv03:7301 quotepoll");
    assert_eq!(field(f, "first"), "2024-06-11T14:20:00.700200+01:00");
    assert_eq!(field(f, "last"), "2024-06-11T14:20:02.700210+01:00");
    assert!(field(f, "advice").contains("`DISPLAY QMGR MAXHANDS`"));
    // 2017 is not a failure mqi-failures reports: resource-limit names it.
    let all = analyze_json(&["fixtures/resource-limit/handles"]);
    assert!(findings(&all, "mqi-failures").is_empty());
    let v = analyze_json(&[
        "--only",
        RULE,
        "--set",
        "resource-limit.min_occurrences=3",
        "fixtures/resource-limit/handles",
    ]);
    assert!(findings(&v, RULE).is_empty());
}

#[test]
fn fixtures_without_limits_give_none() {
    for dir in [
        "fixtures/healthy",
        "fixtures/errlog",
        "fixtures/channel-scan",
        "fixtures/access",
        "fixtures/fdc",
        "fixtures/field",
    ] {
        let v = run(dir);
        assert!(findings(&v, RULE).is_empty(), "{dir}");
    }
}

#[test]
fn text_report_snapshot() {
    let r = mqdiag(&[
        "analyze",
        "fixtures/resource-limit",
        "--only",
        RULE,
        "--format",
        "text",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    insta::assert_snapshot!(r.stdout);
}

#[test]
fn zos_dead_letter_puts_name_their_reasons() {
    let v = run("fixtures/resource-limit/zos-dlq");
    let f = one(&v, RULE);
    assert_eq!(f["count"], 3);
    assert_eq!(metric(f, "limit"), "dead-letter");
    assert_eq!(metric(f, "object"), "MQ1A.MQ2A");
    assert_eq!(metric(f, "message_id"), "CSQX548E");
    assert_eq!(metric(f, "dead_letter_queue"), "local");
    assert_eq!(
        metric(f, "reasons"),
        "2053 MQRC_Q_FULL, 2192 MQRC_PAGESET_FULL"
    );
    assert_eq!(f["subject"]["qmgr"], "MQ2A");
    assert_eq!(field(f, "first"), "2024-06-12T08:41:09.000000+00:00");
    assert_eq!(field(f, "last"), "2024-06-12T09:13:52.000000+00:00");
    let advice = field(f, "advice");
    assert!(advice.contains("(reason 2053 MQRC_Q_FULL, 2192 MQRC_PAGESET_FULL)"));
    assert!(advice.contains("CSQUDLQH"));
    assert!(!advice.contains("amqsbcg") && !advice.contains("runmqdlq"));
}
