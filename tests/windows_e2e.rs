//! Windows stated and sane (issue 41): a time of day without a date or
//! offset is read on each file's own clock, so one window means the same
//! minute in traces written in different zones; a window that excludes
//! every event is an error naming the inputs' span unless
//! `--allow-empty`; every verb records its window and redaction.

mod common;

use common::{jsonl, mqdiag, stdout_of};
use serde_json::Value;

fn rows(args: &[&str]) -> Vec<Value> {
    let mut a = vec!["timeline", "--format", "jsonl", "-q"];
    a.extend_from_slice(args);
    jsonl(&stdout_of(&a))
}

#[test]
fn a_time_of_day_is_read_on_each_files_own_clock() {
    // The case holds traces of several zones; 11:42 is a minute of the
    // sdr-channel trace's own clock (-04:00), not of the earliest file's.
    let alone = rows(&[
        "fixtures/trace/sdr-channel",
        "--since",
        "11:42",
        "--until",
        "11:43",
    ]);
    assert!(alone.len() > 100, "{}", alone.len());
    let all = rows(&["fixtures/trace", "--since", "11:42", "--until", "11:43"]);
    assert_eq!(all, alone);
    // The same in a case of three zones: 11:22 is the gateway's minute
    // (+01:00), when the client's clock (-04:00) showed 06:22.
    let gw = rows(&[
        "fixtures/case-mixed",
        "--since",
        "11:22",
        "--until",
        "11:24",
    ]);
    assert_eq!(gw.len(), 2, "{gw:?}");
    for r in &gw {
        let ts = r["ts"].as_str().unwrap();
        assert!(ts.ends_with("+01:00") && ts[11..13] == *"11", "{ts}");
    }
    // An RFC 3339 bound is an instant: the same minute on another clock.
    let instant = rows(&[
        "fixtures/trace",
        "--since",
        "2012-05-04T11:42:00-04:00",
        "--until",
        "2012-05-04T11:43:00-04:00",
    ]);
    assert!(instant.len() >= alone.len());
    // The window is said as read.
    let r = mqdiag(&[
        "timeline",
        "fixtures/trace",
        "--since",
        "11:42",
        "--until",
        "11:43",
    ]);
    assert_eq!(r.code, 0);
    assert!(
        r.stderr
            .contains("window: 2012-05-04T11:42:00 .. 2012-05-04T11:43:00 (each file's own clock)"),
        "{}",
        r.stderr
    );
    assert!(
        r.stdout
            .starts_with("# time window: 2012-05-04T11:42:00 .. "),
        "{}",
        &r.stdout[..200]
    );
}

#[test]
fn a_window_that_excludes_everything_is_an_error_with_the_span() {
    for verb in ["analyze", "timeline", "calls"] {
        let r = mqdiag(&[verb, "fixtures/case-mixed", "--since", "2030-01-01", "-q"]);
        assert_eq!(r.code, 2, "{verb}: {}", r.stdout);
        assert!(
            r.stderr.contains("excludes every event"),
            "{verb}: {}",
            r.stderr
        );
        assert!(
            r.stderr.contains("the inputs span 2025-03-14T"),
            "{verb}: {}",
            r.stderr
        );
        let r = mqdiag(&[
            verb,
            "fixtures/case-mixed",
            "--since",
            "2030-01-01",
            "--allow-empty",
            "-q",
        ]);
        assert_eq!(r.code, 0, "{verb}: {}", r.stderr);
    }
    let r = mqdiag(&[
        "compare",
        "fixtures/calls",
        "fixtures/calls",
        "--since",
        "2030-01-01",
        "-q",
    ]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("fixtures/calls: the window"),
        "{}",
        r.stderr
    );
}

#[test]
fn every_verb_records_its_window_and_redaction() {
    let args = ["fixtures/calls", "--since", "08:15", "--redact", "-q"];
    // analyze: JSON `run` and the text header.
    let mut a = vec!["analyze", "--format", "json"];
    a.extend_from_slice(&args);
    let v: Value = serde_json::from_str(&stdout_of(&a)).unwrap();
    assert_eq!(v["run"]["window"]["since"], "08:15");
    assert_eq!(v["run"]["window"]["clock"], "file");
    assert_eq!(v["run"]["redact"], true);
    let mut a = vec!["analyze"];
    a.extend_from_slice(&args);
    let t = stdout_of(&a);
    assert!(t.contains("on each file's own clock"), "{t}");
    // calls: JSON `run`, and a line above the table.
    let mut a = vec!["calls", "--format", "json"];
    a.extend_from_slice(&args);
    let v: Value = serde_json::from_str(&stdout_of(&a)).unwrap();
    assert!(
        v["run"]["window"]
            .as_str()
            .unwrap()
            .starts_with("2024-03-05T08:15:00 .. …"),
        "{}",
        v["run"]
    );
    assert_eq!(v["run"]["redact"], true);
    let mut a = vec!["calls"];
    a.extend_from_slice(&args);
    let t = stdout_of(&a);
    assert!(
        t.starts_with("time window: 2024-03-05T08:15:00 .. … (each file's own clock); names and addresses redacted"),
        "{t}"
    );
    let v: Value =
        serde_json::from_str(&stdout_of(&["calls", "fixtures/calls", "--format", "json"])).unwrap();
    assert_eq!(
        v["run"],
        serde_json::json!({"window": null, "redact": false})
    );
    // timeline: a header line on the text rows.
    let mut a = vec!["timeline"];
    a.extend_from_slice(&args);
    let t = stdout_of(&a);
    assert!(
        t.lines()
            .next()
            .unwrap()
            .starts_with("# time window: 2024-03-05T08:15:00"),
        "{t}"
    );
    assert!(
        t.lines()
            .next()
            .unwrap()
            .ends_with("names and addresses redacted")
    );
}
