//! End-to-end: SMF 116 WQ rows cover their task's accounting interval, from
//! the WTAS row of the same record (correlator, LPAR, queue manager, record
//! time), not the queue's open time: here the channel's handle on its
//! transmission queue was opened three days before the records.

mod common;
use common::*;
use std::collections::HashMap;

const DIR: &str = "fixtures/smf-wtas-interval";

fn rows(path: &str) -> Vec<serde_json::Value> {
    let r = mqdiag(&["timeline", path, "--format", "jsonl"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    jsonl(&r.stdout)
}

#[test]
fn every_wq_row_lies_in_its_wtas_interval() {
    let all = rows(DIR);
    let of = |file: &str| -> Vec<&serde_json::Value> {
        all.iter()
            .filter(|r| r["path"].as_str().unwrap().ends_with(file))
            .collect()
    };
    let wtas: HashMap<(String, String), (&str, &str)> = of("SMF-WTAS.csv")
        .iter()
        .map(|r| {
            let a = &r["attrs"];
            (
                (
                    a["Date"].as_str().unwrap().to_string(),
                    a["Time"].as_str().unwrap().to_string(),
                ),
                (r["ts"].as_str().unwrap(), r["end"].as_str().unwrap()),
            )
        })
        .collect();
    let wq = of("SMF-WQ.csv");
    assert_eq!(wq.len(), 12);
    for r in &wq {
        let a = &r["attrs"];
        let key = (
            a["Date"].as_str().unwrap().to_string(),
            a["Time"].as_str().unwrap().to_string(),
        );
        let (s, e) = wtas[&key];
        assert_eq!(r["ts"], s, "{key:?}");
        assert_eq!(r["end"], e, "{key:?}");
        assert_eq!(a["ts_from"], "WTAS_Interval_Start");
        // The open time is an attribute only.
        assert_eq!(a["Open (DATE)"], "2024/01/06");
    }
    assert_eq!(wq[0]["ts"], "2024-01-09T06:45:00.051234-05:00");
    assert_eq!(wq[11]["end"], "2024-01-09T09:45:00.051234-05:00");
}

#[test]
fn without_the_wtas_file_rows_are_at_their_record_times() {
    let wq = rows(&format!("{DIR}/SMF-WQ.csv"));
    assert_eq!(wq.len(), 12);
    assert_eq!(wq[0]["ts"], "2024-01-09T07:00:00.110000-05:00");
    assert!(wq[0]["end"].is_null());
    assert_eq!(wq[0]["attrs"]["ts_from"], "Date/Time");
}

#[test]
fn qtime_growth_starts_at_the_first_sample() {
    let v = analyze_json(&[DIR]);
    let f = one(&v, "qtime-growth");
    assert_eq!(f["first"], "2024-01-09T06:45:00.051234-05:00");
    assert_eq!(f["last"], "2024-01-09T09:30:00.051234-05:00");
    assert_eq!(f["subject"]["queue"], "MQTC.XMITQ");
    assert_eq!(num(f, "samples"), 12.0);
}

/// Every row of both files, WQ rows at their WTAS intervals.
#[test]
fn timeline_snapshot() {
    let r = mqdiag(&["timeline", DIR]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    insta::assert_snapshot!(r.stdout);
}
