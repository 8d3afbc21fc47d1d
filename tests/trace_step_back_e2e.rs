//! A trace call whose exit is stamped before its entry (issue 43): the
//! `resource-limit/queue-full` fixture, copied here with its MQPUT 2053
//! exit stamped 1 ms before the call's entry. The call stays one call:
//! the three 2053 failures are still found, at `-j 1` and `-j 2`, with no
//! duration below zero, and the step back is one located `out-of-order`
//! problem.

mod common;

use common::{Scratch, analyze_json, findings, instant, metric, mqdiag};
use serde_json::Value;

const FIXTURE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/fixtures/resource-limit/queue-full/AMQ5120.0.FMT"
);

/// The exit of the call that fails with 2053, and the same line stamped
/// 1 ms before the call's entry (14:20:01.360000).
const EXIT: &str = " 14:20:01.360480    5120.1      RSESS:000001 }! MQPUT rc=2053";
const STEPPED: &str = " 14:20:01.359000    5120.1      RSESS:000001 }! MQPUT rc=2053";

/// The damaged copy, and the line of the stepped exit.
fn damaged() -> (Scratch, u64) {
    let text = std::fs::read_to_string(FIXTURE).unwrap();
    let line = text.lines().position(|l| l.starts_with(EXIT)).unwrap() as u64 + 1;
    let d = Scratch::new("trace-step-back");
    d.write("AMQ5120.0.FMT", text.replace(EXIT, STEPPED).as_bytes());
    (d, line)
}

#[test]
fn an_exit_stamped_before_its_entry_keeps_the_call_and_its_failure() {
    let (d, line) = damaged();
    let file = d.path().join("AMQ5120.0.FMT");
    let path = file.to_str().unwrap();
    let mut reports = Vec::new();
    for jobs in ["1", "2"] {
        let v = analyze_json(&[path, "-j", jobs]);
        let rl = findings(&v, "resource-limit");
        assert_eq!(rl.len(), 1, "{v}");
        assert_eq!(metric(rl[0], "occurrences"), 3, "{}", rl[0]);
        assert_eq!(rl[0]["count"], 3);
        let mqi = findings(&v, "mqi-failures");
        assert_eq!(mqi.len(), 1, "{v}");
        assert_eq!(mqi[0]["count"], 3);
        // The calls table: nine MQPUT calls, three failed, none open.
        let put = v["calls"]
            .as_array()
            .expect("calls rows")
            .iter()
            .find(|r| r["verb"] == "MQPUT")
            .expect("an MQPUT row")
            .clone();
        assert_eq!(put["calls"], 9, "{put}");
        assert_eq!(put["failed"], 3, "{put}");
        assert_eq!(put["open"], 0, "{put}");
        reports.push((v["findings"].clone(), v["calls"].clone()));
    }
    assert_eq!(reports[0], reports[1], "-j 1 and -j 2 differ");

    // One located problem, stated by the report.
    let r = mqdiag(&["analyze", path, "--format", "json", "-j", "1"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    let quality = findings(&v, "unreadable-input");
    assert_eq!(quality.len(), 1, "{v}");
    let q = quality[0];
    let title = q["title"].as_str().unwrap();
    assert!(title.contains("time goes back: 1 record(s)"), "{title}");
    let ev = &q["evidence"][0];
    assert_eq!(ev["line"], line, "{q}");
    assert!(
        ev["path"].as_str().unwrap().ends_with("AMQ5120.0.FMT"),
        "{q}"
    );
}

#[test]
fn the_stepped_exit_row_follows_its_entry_with_its_time_as_written() {
    let (d, line) = damaged();
    let file = d.path().join("AMQ5120.0.FMT");
    let rows = common::timeline_rows(file.to_str().unwrap());
    let at = |l: u64| rows.iter().find(|r| r["line"] == l).unwrap();
    let (exit, inner, entry) = (at(line), at(line - 1), at(line - 4));
    assert_eq!(exit["function"], "MQPUT");
    assert_eq!(entry["function"], "MQPUT");
    let ts = |r: &Value| instant(r["ts"].as_str().unwrap());
    // Placed at its thread's latest time, the row after its entry.
    assert_eq!(ts(exit), ts(inner));
    assert!(ts(exit) > ts(entry));
    assert_eq!(exit["elapsed_us"], 470);
    assert_eq!(exit["attrs"]["stamped"], "2024-06-11T14:20:01.359000+01:00");
    let order: Vec<u64> = rows.iter().map(|r| r["line"].as_u64().unwrap()).collect();
    let mut sorted = order.clone();
    sorted.sort_unstable();
    assert_eq!(order, sorted, "rows keep the file's order");
    // No duration anywhere is negative or wrapped.
    for r in &rows {
        if let Some(us) = r.get("elapsed_us") {
            assert!(us.as_u64().is_some_and(|us| us < 10_000_000), "{r}");
        }
    }
}
