//! End to end: every record at the clock it was written with — error logs
//! across daylight-saving changes, cut records kept.

mod util;
use util::{jsonl, stdout_of as run};

#[test]
fn error_log_across_both_dst_changes_shows_each_records_wall_clock() {
    let out = run(&[
        "timeline",
        "--format",
        "jsonl",
        "fixtures/clocks/errlog-dst",
    ]);
    let rows = jsonl(&out);
    let ts: Vec<(&str, u64)> = rows
        .iter()
        .map(|r| (r["ts"].as_str().unwrap(), r["line"].as_u64().unwrap()))
        .collect();
    assert_eq!(
        ts,
        [
            // Time() with the header's wall clock: CEST, then CET after 28 October.
            ("2018-10-11T10:46:25.924000+02:00", 1),
            ("2018-10-28T02:40:00.115000+02:00", 13),
            // No Time(): of its neighbours only +01:00 keeps it between them.
            ("2018-10-28T02:20:00.000000+01:00", 25),
            ("2018-10-28T02:30:00.502000+01:00", 36),
            // No Time(), both neighbours at +01:00.
            ("2018-11-15T09:00:00.000000+01:00", 48),
            ("2018-11-15T09:05:00.017000+01:00", 59),
            ("2019-03-31T01:59:00.330000+01:00", 71),
            ("2019-03-31T03:01:00.871000+02:00", 83),
            // No Time() and only a neighbour before it.
            ("2019-04-01T08:00:00.000000+02:00", 95),
        ]
    );
    let inv = run(&[
        "inventory",
        "--format",
        "json",
        "fixtures/clocks/errlog-dst",
    ]);
    let v: serde_json::Value = serde_json::from_str(&inv).unwrap();
    let problems = v["files"][0]["problems"].as_array().unwrap();
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0]["line"], 25);
    assert!(
        problems[0]["message"]
            .as_str()
            .unwrap()
            .contains("neighbours disagree on the UTC offset"),
        "{problems:?}"
    );
}
