//! End to end: every record at the clock it was written with — error logs
//! across daylight-saving changes, cut records kept.

mod common;
use common::{jsonl, stdout_of as run};

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

#[test]
fn windows_trace_headers_with_utc_and_local_lines_date_the_file() {
    let out = run(&[
        "inventory",
        "--format",
        "json",
        "fixtures/clocks/trace-win",
        "fixtures/clocks/trace-dotnet",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let files = v["files"].as_array().unwrap();
    let first: Vec<(&str, &str)> = files
        .iter()
        .map(|f| (f["path"].as_str().unwrap(), f["first"].as_str().unwrap()))
        .collect();
    assert_eq!(
        first,
        [
            // dd/MM/yyyy of the .NET client: UTC and local agree only day first.
            (
                "fixtures/clocks/trace-dotnet/AMQ7713.0.TRC",
                "2023-03-05T14:15:01.803002+01:00"
            ),
            // Native MM/DD/YY, local minus UTC = -04:00; not the mtime.
            (
                "fixtures/clocks/trace-win/AMQ7712.0.TRC",
                "2023-03-14T09:15:01.803002-04:00"
            ),
        ]
    );
    for f in files {
        assert_eq!(f["problem_count"], 0, "{}", f["problems"]);
    }
}

#[test]
fn an_error_log_record_cut_before_its_message_is_on_the_timeline() {
    let rows = jsonl(&run(&[
        "timeline",
        "--format",
        "jsonl",
        "--tz",
        "+00:00",
        "fixtures/clocks/errlog-cut",
    ]));
    assert_eq!(rows.len(), 1);
    let r = &rows[0];
    assert_eq!(r["ts"], "2019-06-01T15:10:52.000000+00:00");
    assert_eq!(r["kind"], "log-record");
    assert_eq!(
        (r["pid"].as_u64(), r["tid"].as_u64()),
        (Some(193), Some(15))
    );
    assert_eq!(r["attrs"]["incomplete"], "true");
    assert_eq!(r["attrs"]["program"], "amqzmuc0");
    assert_eq!(r["attrs"]["local_host"], "mqservice");
}

#[test]
fn json_log_rows_take_the_offset_the_text_log_beside_it_states() {
    let out = run(&[
        "timeline",
        "--format",
        "jsonl",
        "fixtures/clocks/errlog-json-beside",
    ]);
    let rows = jsonl(&out);
    let json: Vec<&str> = rows
        .iter()
        .filter(|r| r["path"].as_str().unwrap().ends_with(".json"))
        .map(|r| r["ts"].as_str().unwrap())
        .collect();
    assert_eq!(
        json,
        [
            // ibm_datetime 08:46:25.924Z, where the text log says +02:00.
            "2018-10-11T10:46:25.924000+02:00",
            // Between the runs (summer time ended at 01:00Z on 28 October):
            // the nearer run, still +02:00.
            "2018-10-27T23:30:00.500000+02:00",
            "2018-11-15T09:05:00.017000+01:00",
        ]
    );
    let inv = run(&[
        "inventory",
        "--format",
        "json",
        "fixtures/clocks/errlog-json-beside",
    ]);
    let v: serde_json::Value = serde_json::from_str(&inv).unwrap();
    let json_file = v["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["path"].as_str().unwrap().ends_with(".json"))
        .unwrap();
    assert_eq!(json_file["utc_offset"], "+02:00");
    assert_eq!(
        json_file["utc_offset_source"],
        "text log fixtures/clocks/errlog-json-beside/qmgrs/QMEU/errors/AMQERR01.LOG"
    );
    // Alone, the JSON log stays in UTC, as written.
    let out = run(&[
        "timeline",
        "--format",
        "jsonl",
        "fixtures/clocks/errlog-json-beside/qmgrs/QMEU/errors/AMQERR01.json",
    ]);
    let first = &jsonl(&out)[0];
    assert_eq!(first["ts"], "2018-10-11T08:46:25.924000+00:00");
}
