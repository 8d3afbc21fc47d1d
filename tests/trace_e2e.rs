//! End-to-end: `timeline` and `inventory` on the trace fixtures.

mod common;
use common::{instant, jsonl, mqdiag};

/// `--date` pins the one headerless fixture, so snapshots do not depend on
/// the checkout's file times.
const PIN: [&str; 2] = ["--date", "2024-02-29"];

fn args<'a>(verb: &'a str, rest: &[&'a str]) -> Vec<&'a str> {
    let mut v = vec![verb, "fixtures/trace"];
    v.extend_from_slice(&PIN);
    v.extend_from_slice(rest);
    v
}

#[test]
fn inventory_text_snapshot() {
    let r = mqdiag(&args("inventory", &[]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    insta::assert_snapshot!(r.stdout);
}

#[test]
fn inventory_json_snapshot() {
    let r = mqdiag(&args("inventory", &["--format", "json"]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["schema_version"], 1);
    insta::assert_json_snapshot!(v);
}

#[test]
fn timeline_jsonl_snapshot_is_time_ordered() {
    let r = mqdiag(&args("timeline", &["--format", "jsonl"]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let rows = jsonl(&r.stdout);
    assert!(rows.len() > 100);
    let mut last = i64::MIN;
    for row in &rows {
        for k in ["ts", "path", "line", "format", "kind", "text"] {
            assert!(!row[k].is_null(), "{k} missing in {row}");
        }
        let t = instant(row["ts"].as_str().unwrap());
        assert!(t >= last, "out of order: {row}");
        last = t;
    }
    insta::assert_snapshot!(r.stdout);
}

#[test]
fn timeline_text_snapshot() {
    let r = mqdiag(&args("timeline", &[]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    insta::assert_snapshot!(r.stdout);
}

fn rows_of(path: &str, extra: &[&str]) -> Vec<serde_json::Value> {
    let mut a = vec!["timeline", path, "--format", "jsonl"];
    a.extend_from_slice(extra);
    let r = mqdiag(&a);
    assert_eq!(r.code, 0, "{}", r.stderr);
    jsonl(&r.stdout)
}

fn find(rows: &[serde_json::Value], line: u64) -> &serde_json::Value {
    rows.iter()
        .find(|r| r["line"] == line)
        .unwrap_or_else(|| panic!("no row for line {line}"))
}

#[test]
fn midnight_rolls_the_date_and_keeps_late_threads_on_the_old_day() {
    let rows = rows_of("fixtures/trace/midnight", &[]);
    // 23:59:59.998 thread 2, then 00:00:00.002 thread 3 (new year) ...
    assert_eq!(find(&rows, 14)["ts"], "2022-12-31T23:59:59.998000-05:00");
    assert_eq!(find(&rows, 15)["ts"], "2023-01-01T00:00:00.002000-05:00");
    // ... then thread 2 again at 23:59:59.999: still the old year.
    assert_eq!(find(&rows, 16)["ts"], "2022-12-31T23:59:59.999000-05:00");
    assert_eq!(find(&rows, 19)["ts"], "2023-01-01T00:00:05.002000-05:00");
    // The MQGET that spans midnight lasted 502 ms, not a day.
    assert_eq!(find(&rows, 15)["elapsed_us"], 502_000);
    // Line 16 is written after 15 but happened before it.
    let order: Vec<u64> = rows.iter().map(|r| r["line"].as_u64().unwrap()).collect();
    let p15 = order.iter().position(|&l| l == 15).unwrap();
    let p16 = order.iter().position(|&l| l == 16).unwrap();
    assert!(p16 < p15);
}

#[test]
fn two_hosts_with_different_offsets_interleave_in_true_time() {
    let rows = rows_of(
        "fixtures/trace/overlap",
        &["--since", "2023-09-12T14:00:00.95Z"],
    );
    let seq: Vec<(u64, u64)> = rows
        .iter()
        .map(|r| (r["pid"].as_u64().unwrap(), r["line"].as_u64().unwrap()))
        .collect();
    assert_eq!(
        seq,
        vec![
            (2002, 12), // 09:00:00.990 -05:00 = 14:00:00.990Z
            (1001, 12), // 14:00:01.000100Z
            (1001, 13),
            (2002, 13), // 14:00:01.015Z
            (2002, 14),
            (1001, 14),
            (1001, 15),
            (2002, 15),
            (2002, 16),
            (1001, 16),
            (1001, 17),
            (2002, 17),
        ]
    );
    assert_eq!(rows[0]["ts"], "2023-09-12T09:00:00.990000-05:00");
}

#[test]
fn wrap_file_is_read_before_its_sibling_and_lends_it_the_date() {
    let rows = rows_of("fixtures/trace/wrap", &[]);
    let last = rows.last().unwrap();
    assert_eq!(last["path"], "fixtures/trace/wrap/AMQ5555.0.FMT");
    assert_eq!(last["ts"], "2020-02-03T08:30:02.500000+01:00");
    // zmuMain was entered in the .TRS and left in the .FMT: one call stack.
    assert_eq!(last["function"], "zmuMain");
    assert_eq!(last["elapsed_us"], 2_300_000);
}

#[test]
fn windows_counter_layout_and_error_exit() {
    let rows = rows_of("fixtures/trace/windows/AMQ2512.0.TRC", &["--tz", "+01:00"]);
    let e = rows
        .iter()
        .find(|r| r["kind"] == "error-exit")
        .expect("error exit");
    assert_eq!(e["function"], "xcsGetEnvironmentString");
    assert_eq!(e["rc"], "xecE_E_ENV_VAR_NOT_FOUND");
    assert_eq!(e["ts"], "2019-11-26T16:18:56.381587+01:00");
    assert_eq!(e["pid"], 2512);
    let with_ident = rows.iter().filter(|r| r["ident"] == "RSESS:000003").count();
    assert_eq!(with_ident, 6);
    // `!! - ` is stripped from text.
    assert!(rows.iter().any(|r| r["text"] == "Thread stack"));
}

#[test]
fn linux_function_time_flag_and_dumps() {
    let rows = rows_of("fixtures/trace/linux", &[]);
    let conn = rows
        .iter()
        .find(|r| r["kind"] == "exit" && r["function"] == "MQCONNX")
        .unwrap();
    assert_eq!(conn["rc"], "OK");
    assert_eq!(conn["elapsed_us"], 911); // 11:21:43.912401 -> .913312
    let flagged = rows.iter().find(|r| r["attrs"]["flag"] == "*").unwrap();
    assert_eq!(flagged["text"], "Thread stack (from libmqe_r.so)");
    let dumps: Vec<_> = rows.iter().filter(|r| r["kind"] == "dump").collect();
    assert_eq!(dumps.len(), 3);
    // Dump rows point at the record they belong to (`Data: 0x...`).
    let data_line = rows
        .iter()
        .find(|r| r["text"] == "Data: 0x7f3a1c003f10")
        .unwrap()["line"]
        .as_u64()
        .unwrap();
    let want = data_line.to_string();
    assert!(dumps.iter().all(|d| d["attrs"]["dump_of"] == want.as_str()));
}

#[test]
fn filters_pid_ident_grep_and_time() {
    let rows = rows_of("fixtures/trace/overlap", &["--pid", "2002"]);
    assert!(rows.iter().all(|r| r["pid"] == 2002));
    assert_eq!(rows.len(), 15);
    let rows = rows_of("fixtures/trace/overlap", &["--ident", "RSESS:000007"]);
    assert_eq!(rows.len(), 5);
    let rows = rows_of("fixtures/trace", &["--grep", "^MQ(CONN|PUT)$"]);
    assert!(rows.iter().all(|r| {
        let f = r["function"].as_str().unwrap_or("");
        f == "MQCONN" || f == "MQPUT"
    }));
    assert!(rows.len() >= 8);
    // HH:MM:SS is the time of day on the first day of the input (here the
    // first file's date, 2016-05-15 +01:00).
    let rows = rows_of(
        "fixtures/trace/AMQ622742.0.FMT",
        &["--since", "12:06:32.905", "--until", "12:06:32.9056"],
    );
    let lines: Vec<u64> = rows.iter().map(|r| r["line"].as_u64().unwrap()).collect();
    assert_eq!(lines, vec![15, 16, 17, 18, 19]);
}

#[test]
fn csv_has_the_jsonl_columns() {
    let r = mqdiag(&["timeline", "fixtures/trace/overlap", "--format", "csv"]);
    assert_eq!(r.code, 0);
    let mut rd = csv::Reader::from_reader(r.stdout.as_bytes());
    let head: Vec<String> = rd.headers().unwrap().iter().map(String::from).collect();
    for k in [
        "ts", "path", "line", "format", "pid", "tid", "ident", "kind", "function", "text",
    ] {
        assert!(head.contains(&k.to_string()), "{k}");
    }
    assert_eq!(rd.records().count(), 30);
}

#[test]
fn no_input_is_exit_2() {
    let r = mqdiag(&["timeline", "/nonexistent/mqdiag"]);
    assert_eq!(r.code, 2);
    // The path is named, as ripgrep names it; then nothing was found.
    assert!(
        r.stderr
            .contains("mqdiag: /nonexistent/mqdiag: cannot read: No such file"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("no input files found"), "{}", r.stderr);
    let r = mqdiag(&["timeline", "fixtures/trace", "--tz", "5"]);
    assert_eq!(r.code, 2);
}
