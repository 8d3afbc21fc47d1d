//! One case, four formats, three UTC offsets: the timeline puts the events
//! of a trace (-04:00), two error logs (-04:00, +01:00) and SMF data (LPAR
//! clock, given as UTC) in true time order.

mod common;
use common::{instant, jsonl, mqdiag};

#[test]
fn trace_error_logs_and_smf_interleave_in_true_time() {
    let r = mqdiag(&[
        "timeline",
        "fixtures/case-mixed",
        "--tz",
        "+00:00",
        "--format",
        "jsonl",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let rows = jsonl(&r.stdout);
    let mut last = i64::MIN;
    for row in &rows {
        let t = instant(row["ts"].as_str().unwrap());
        assert!(t >= last, "out of order: {row}");
        last = t;
    }
    let short = |r: &serde_json::Value| {
        let p = r["path"].as_str().unwrap();
        let f = p.rsplit('/').next().unwrap().to_string();
        (f, r["line"].as_u64().unwrap())
    };
    let pos = |file: &str, line: u64| {
        rows.iter()
            .position(|r| short(r) == (file.to_string(), line))
            .unwrap_or_else(|| panic!("{file}:{line} missing"))
    };
    // SMF interval (10:15Z) < getaddrinfo entry (06:22:41-04:00 = 10:22:41Z)
    // < gateway AMQ9202E (11:22:44+01:00 = 10:22:44Z) < getaddrinfo exit
    // (10:22:47.02Z) < client AMQ9788W (10:22:47.031Z) < MQCONNX exit
    // (10:22:47.042Z) < gateway AMQ9002I (10:23:45Z).
    let order = [
        pos("SMF-QCTDNS.csv", 3),
        pos("AMQ8812.0.FMT", 18),
        pos("AMQ8812.0.FMT", 19),
        pos("AMQ8812.0.FMT", 23),
    ];
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{order:?}");
    let gw = rows
        .iter()
        .position(|r| r["text"].as_str().unwrap().starts_with("AMQ9202E"))
        .unwrap();
    let dns = rows
        .iter()
        .position(|r| r["text"].as_str().unwrap().starts_with("AMQ9788W"))
        .unwrap();
    assert!(order[1] < gw && gw < order[2], "gateway record at {gw}");
    assert!(order[2] < dns && dns < order[3], "AMQ9788W at {dns}");
    assert_eq!(rows[gw]["ts"], "2025-03-14T11:22:44.512000+01:00");
    assert_eq!(rows[dns]["ts"], "2025-03-14T06:22:47.031000-04:00");
    // Each source keeps its own offset in the output.
    let offsets: std::collections::BTreeSet<&str> = rows
        .iter()
        .map(|r| {
            let ts = r["ts"].as_str().unwrap();
            &ts[ts.len() - 6..]
        })
        .collect();
    assert_eq!(
        offsets.into_iter().collect::<Vec<_>>(),
        vec!["+00:00", "+01:00", "-04:00"]
    );
}
