//! End to end: application activity trace (`amqsact -v`, fixtures/activity,
//! written by scripts/make-activity-fixture.py) in the calls table as a
//! formatted trace's calls are: per host and pid and verb, the queue
//! manager's durations as the calls' timings (p50, p95, max), reasons by
//! name; options by name on the timeline.

mod common;
use common::{mqdiag, stdout_of};
use serde_json::Value;

fn rows(by: &str) -> Vec<Value> {
    let out = stdout_of(&["calls", "fixtures/activity", "--format", "json", "--by", by]);
    let v: Value = serde_json::from_str(&out).unwrap();
    v["rows"].as_array().unwrap().clone()
}

fn row<'a>(rows: &'a [Value], pid: u64, verb: &str) -> &'a Value {
    rows.iter()
        .find(|r| r["pid"] == pid && r["verb"] == verb)
        .unwrap_or_else(|| panic!("no {pid} {verb} row in {rows:#?}"))
}

#[test]
fn calls_per_process_and_verb_with_the_queue_managers_timings() {
    let rows = rows("process");
    let put = row(&rows, 4711, "MQPUT");
    assert_eq!(put["host"], "apphost");
    assert_eq!(put["process"], "orderput");
    assert_eq!(put["calls"], 20);
    assert_eq!(put["failed"], 1);
    assert_eq!(put["reasons"]["2053"], 1);
    // The slow put: 250 ms in the queue manager, at its operation's line.
    assert_eq!(put["max_us"], 250000);
    assert_eq!(put["max_at"]["line"], 381);
    assert_eq!(
        put["timing"],
        "activity trace: the queue manager's time in the call"
    );
    assert!(put["p50_us"].as_u64().unwrap() < 300, "{put}");
    assert!(put["p95_us"].as_u64().unwrap() < 300, "{put}");
    let get = row(&rows, 5120, "MQGET");
    assert_eq!(get["calls"], 15);
    assert_eq!(get["warnings"], 1);
    assert_eq!(get["reasons"]["2033"], 1);
    for (pid, verb) in [(4711, "MQCONNX"), (4711, "MQOPEN"), (5120, "MQDISC")] {
        assert_eq!(row(&rows, pid, verb)["calls"], 1);
    }
}

#[test]
fn text_table_names_reasons_and_connections() {
    let t = stdout_of(&["calls", "fixtures/activity"]);
    assert!(t.contains("reasons 2053 MQRC_Q_FULL x1"), "{t}");
    assert!(
        t.contains("amqsact.txt:381 (activity trace: the queue"),
        "{t}"
    );
    assert!(t.contains("reasons 2033 MQRC_NO_MSG_AVAILABLE x1"), "{t}");
    let by_conn = rows("connection");
    assert!(
        by_conn
            .iter()
            .any(|r| r["ident"] == "6B576B5420000701" && r["verb"] == "MQPUT"),
        "{by_conn:#?}"
    );
}

#[test]
fn options_by_name_on_the_timeline_and_the_failed_put_in_the_report() {
    let r = mqdiag(&["timeline", "fixtures/activity", "--format", "jsonl"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout
            .contains("MQPMO_NO_SYNCPOINT+MQPMO_NEW_MSG_ID+MQPMO_FAIL_IF_QUIESCING")
    );
    assert!(r.stdout.contains(
        "MQGMO_WAIT+MQGMO_NO_SYNCPOINT+MQGMO_ACCEPT_TRUNCATED_MSG+MQGMO_FAIL_IF_QUIESCING"
    ));
    assert!(r.stdout.contains("MQOO_OUTPUT+MQOO_FAIL_IF_QUIESCING"));
    let t = stdout_of(&["timeline", "fixtures/activity"]);
    assert!(t.contains("options MQPMO_NO_SYNCPOINT"), "{t}");
    // The analyze report counts them as calls: its resource-limit story
    // of the full queue comes from the calls table.
    let v = common::analyze_json(&["fixtures/activity", "--only", "resource-limit"]);
    let f = &v["findings"][0];
    assert_eq!(f["metrics"]["limit"], "queue-full", "{v:#}");
    assert!(
        v["calls"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["verb"] == "MQPUT")
    );
}
