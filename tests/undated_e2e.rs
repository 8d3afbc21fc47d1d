//! End-to-end: MQ message text pasted without dates (fixtures/pasted/
//! undated, format `message-text`). Each message is an event with `ts`
//! null: listed after every dated row, in every row format without an
//! invented time, in no time window; `access-refused` tells a pasted
//! CONNAUTH failure as a story marked "time unknown".

mod common;
use common::*;

const DIR: &str = "fixtures/pasted/undated";
const PAIR: &str = "fixtures/pasted/undated/connauth-pair.txt";
/// A dated case to mix with: an error log of the same refusal.
const DATED: &str = "fixtures/access/connauth";

#[test]
fn inventory_snapshot() {
    insta::assert_snapshot!(stdout_of(&["inventory", DIR]));
}

#[test]
fn inventory_rows_count_undated_records_without_a_range() {
    let inv = inventory_row(PAIR);
    assert_eq!(inv["format"], "message-text");
    assert_eq!(inv["variant"], "pasted");
    assert_eq!(inv["events"], 2);
    assert_eq!(inv["problem_count"], 0, "{inv}");
    // No first or last: the records have no time.
    assert!(
        inv.get("first").is_none() && inv.get("last").is_none(),
        "{inv}"
    );
    assert!(inv.get("utc_offset").is_none(), "{inv}");
    assert_eq!(
        inv["notes"][0],
        "2 record(s) state no time: listed after the dated rows, in no time window"
    );
}

#[test]
fn timeline_snapshots() {
    for (f, name) in [("jsonl", "jsonl"), ("csv", "csv"), ("text", "text")] {
        let out = stdout_of(&["timeline", DIR, "--format", f]);
        insta::assert_snapshot!(format!("timeline_{name}"), out);
    }
}

#[test]
fn every_row_format_shows_no_time() {
    let rows = timeline_rows(PAIR);
    assert_eq!(rows.len(), 2);
    assert!(rows.iter().all(|r| r["ts"].is_null()), "{rows:?}");
    assert_eq!(rows[0]["attrs"]["msgid"], "AMQ5534E");
    let csv = stdout_of(&["timeline", PAIR, "--format", "csv"]);
    assert!(csv.lines().skip(1).all(|l| l.starts_with(",,")), "{csv}");
    let text = stdout_of(&["timeline", PAIR]);
    assert!(
        text.lines().all(|l| l.starts_with("(time unknown)  ")),
        "{text}"
    );
    // ECS: no `@timestamp` (the pipeline fills it in), tagged why.
    for l in stdout_of(&["timeline", PAIR, "--format", "ecs"]).lines() {
        let d: serde_json::Value = serde_json::from_str(l).unwrap();
        assert!(d.get("@timestamp").is_none(), "{d}");
        assert_eq!(d["tags"][0], "time-unknown");
    }
    // OTLP: 0, "unknown or missing timestamp".
    for l in stdout_of(&["timeline", PAIR, "--format", "otlp"]).lines() {
        let d: serde_json::Value = serde_json::from_str(l).unwrap();
        let r = &d["resourceLogs"][0]["scopeLogs"][0]["logRecords"][0];
        assert_eq!(r["timeUnixNano"], "0", "{d}");
    }
}

/// With a dated case, the undated rows come after every dated one, by
/// file and line, with one job or two alike.
#[test]
fn undated_rows_come_after_every_dated_row() {
    let mut seen = Vec::new();
    for j in ["1", "2"] {
        let out = stdout_of(&["timeline", DIR, DATED, "--format", "jsonl", "-j", j]);
        let rows = jsonl(&out);
        let first_undated = rows.iter().position(|r| r["ts"].is_null()).unwrap();
        assert!(first_undated > 0);
        assert!(rows[first_undated..].iter().all(|r| r["ts"].is_null()));
        let undated: Vec<(String, u64)> = rows[first_undated..]
            .iter()
            .map(|r| {
                (
                    r["path"].as_str().unwrap().to_string(),
                    r["line"].as_u64().unwrap(),
                )
            })
            .collect();
        let mut sorted = undated.clone();
        sorted.sort();
        assert_eq!(undated, sorted);
        assert_eq!(undated.len(), 8);
        seen.push(out);
    }
    assert_eq!(seen[0], seen[1]);
    // The dated file's range is its own; the merged text rows too.
    let text = stdout_of(&["timeline", DIR, DATED]);
    let last = text.lines().last().unwrap();
    assert!(last.starts_with("(time unknown)  fixtures/pasted/undated/wrapped-sections.txt:6"));
}

/// A window cannot be shown to contain a record without a time: left out,
/// and each file's row says how many.
#[test]
fn a_time_window_leaves_undated_records_out() {
    let out = stdout_of(&[
        "timeline",
        DIR,
        DATED,
        "--format",
        "jsonl",
        "--since",
        "2000-01-01T00:00:00Z",
    ]);
    let rows = jsonl(&out);
    assert!(!rows.is_empty());
    assert!(rows.iter().all(|r| !r["ts"].is_null()));
    let v = analyze_json(&[DIR, DATED, "--since", "2000-01-01T00:00:00Z"]);
    let notes = v.to_string();
    assert!(
        notes.contains("2 record(s) without a time left out: a time window cannot contain them"),
        "{notes}"
    );
    // The dated refusal is still told; no undated story is.
    let f = findings(&v, "access-refused");
    assert!(!f.is_empty());
    assert!(f.iter().all(|f| !f["first"].is_null()), "{f:?}");
}

#[test]
fn analyze_snapshots() {
    let text = stdout_of(&["analyze", DIR]);
    insta::assert_snapshot!("analyze_text", every_rule_ran(&text));
    let v = analyze_json(&[DIR]);
    insta::assert_json_snapshot!("analyze_findings", v["findings"]);
}

/// The pasted AMQ5534E/AMQ5542I pair is one CONNAUTH refusal, marked
/// "time unknown", never joined to the dated refusal of the same user.
#[test]
fn a_pasted_connauth_failure_is_its_story_time_unknown() {
    let v = analyze_json(&[PAIR]);
    let f = one(&v, "access-refused");
    assert!(
        f["title"].as_str().unwrap().ends_with("(time unknown)"),
        "{f}"
    );
    assert!(f["first"].is_null() && f["last"].is_null(), "{f}");
    assert_eq!(f["count"], 1);
    assert_eq!(metric(f, "mechanism"), "connauth");
    assert_eq!(metric(f, "user"), "app");
    assert_eq!(metric(f, "check"), "CHCKCLNT(REQDADM)");
    assert_eq!(metric(f, "time"), "unknown");
    assert_eq!(metric(f, "message_id"), "AMQ5534E x1, AMQ5542I x1");
    assert_eq!(evidence_lines(f), [1, 2]);
    // Rules that measure time are not shown undated records: the pasted
    // AMQ9208E and AMQ9999E make no channel-error story at an invented time.
    let v = analyze_json(&[DIR]);
    assert!(findings(&v, "channel-error").is_empty(), "{v}");
    assert_eq!(findings(&v, "access-refused").len(), 3);
    // Beside a dated capture: stories apart, the dated one keeps its time.
    let v = analyze_json(&[PAIR, DATED]);
    let all = findings(&v, "access-refused");
    let undated: Vec<_> = all.iter().filter(|f| f["first"].is_null()).collect();
    assert_eq!(undated.len(), 1, "{all:?}");
    assert!(all.len() >= 2);
}

/// The shapes IBM's technotes quote (331191: summaries wrapped onto the
/// next line; swg21680930: `EXPLANATION:` with its text on the line,
/// records apart by `-----`): one record each, the program a Windows path
/// with spaces, and the pair one CONNAUTH story.
#[test]
fn technote_shapes_wrapped_and_headings_on_the_line() {
    let rows = jsonl(&stdout_of(&[
        "timeline",
        "fixtures/pasted/undated/wrapped-sections.txt",
        "--format",
        "jsonl",
    ]));
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["line"], 1);
    assert!(
        rows[0]["text"]
            .as_str()
            .unwrap()
            .starts_with("AMQ5540: Application 'C:\\Program Files\\IBM\\MQ\\bin64\\amqsputc.exe' did not supply a user ID and password"),
        "{}",
        rows[0]["text"]
    );
    assert_eq!(
        rows[0]["attrs"]["appl"],
        "C:\\Program Files\\IBM\\MQ\\bin64\\amqsputc.exe"
    );
    assert_eq!(rows[1]["line"], 6);
    assert_eq!(rows[1]["attrs"]["connauth_check"], "CHCKCLNT(REQDADM)");
    let v = analyze_json(&["fixtures/pasted/undated/wrapped-sections.txt"]);
    let f = one(&v, "access-refused");
    assert_eq!(metric(f, "user"), "svcapp");
    assert_eq!(evidence_lines(f), [1, 6]);
}

/// Files with dates are never read as undated message text: across every
/// fixture, only this directory's files are `message-text`, and no other
/// file's timeline has a row without a time.
#[test]
fn dated_files_never_give_undated_records() {
    let out = stdout_of(&["inventory", "fixtures", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    for f in v["files"].as_array().unwrap() {
        let p = f["path"].as_str().unwrap();
        assert_eq!(
            f["format"] == "message-text",
            p.starts_with("fixtures/pasted/undated/"),
            "{p}"
        );
    }
    for dir in [
        "fixtures/errlog",
        "fixtures/pasted/cut",
        "fixtures/pasted/indented",
    ] {
        assert!(
            timeline_rows(dir).iter().all(|r| !r["ts"].is_null()),
            "{dir}"
        );
    }
}
