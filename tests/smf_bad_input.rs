//! Broken SMF CSV files (`tests/data/smf/<case>/`): each becomes exactly
//! the located problem it should, and every other row is still read.
//! `--tz` is given so the only problems are the ones under test (and the
//! clock estimate of files with STCK columns, asserted where it appears).

mod common;
use common::{jsonl, mqdiag};
use serde_json::Value;

/// The inventory row of the one file in `tests/data/smf/<case>`.
fn inventory(case: &str) -> Value {
    inventory_exit(case, 0)
}

/// The inventory row of the one file of `case`, the run exiting `code`.
fn inventory_exit(case: &str, code: i32) -> Value {
    let dir = format!("tests/data/smf/{case}");
    let r = mqdiag(&["inventory", &dir, "--format", "json", "--tz", "+01:00"]);
    assert_eq!(r.code, code, "{}", r.stderr);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    let files = v["files"].as_array().unwrap();
    assert_eq!(files.len(), 1, "{files:?}");
    files[0].clone()
}

fn problems(r: &Value) -> Vec<(Option<u64>, String, String)> {
    r["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["line"].as_u64(),
                p["severity"].as_str().unwrap().to_string(),
                p["message"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn p(line: Option<u64>, sev: &str, msg: &str) -> (Option<u64>, String, String) {
    (line, sev.to_string(), msg.to_string())
}

fn timeline(case: &str) -> Vec<Value> {
    let dir = format!("tests/data/smf/{case}");
    let r = mqdiag(&["timeline", &dir, "--format", "jsonl", "--tz", "+01:00"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    jsonl(&r.stdout)
}

#[test]
fn short_row_is_skipped_and_located() {
    let r = inventory("short-row");
    assert_eq!(r["format"], "smf-csv");
    assert_eq!(r["events"], 2);
    assert_eq!(r["lines"], 4);
    assert_eq!(
        problems(&r),
        vec![p(
            Some(3),
            "warning",
            "short row: 11 of 55 columns (ends at `Type`): row skipped"
        ),]
    );
    let lines: Vec<u64> = timeline("short-row")
        .iter()
        .map(|e| e["line"].as_u64().unwrap())
        .collect();
    // Line 4 is the long-running sender channel: it starts first.
    assert_eq!(lines, vec![4, 2]);
}

#[test]
fn file_ending_mid_row() {
    let r = inventory("truncated");
    assert_eq!(r["events"], 1);
    assert_eq!(
        problems(&r),
        vec![p(
            Some(3),
            "warning",
            "file ends mid-row: 21 of 55 columns (ends at `BatchSize`): row skipped"
        ),]
    );
}

#[test]
fn unknown_columns_are_read_and_are_no_problem() {
    let r = inventory("unknown-columns");
    assert_eq!(r["events"], 3);
    assert_eq!(r["variant"], "QCTDNS");
    assert_eq!(problems(&r), vec![]);
    let rows = timeline("unknown-columns");
    // Columns are found by name: the two inserted before the CPU time do
    // not shift anything.
    let slow = &rows[1];
    assert_eq!(slow["line"], 3);
    assert_eq!(slow["attrs"]["dns_max_us"], "5120431");
    assert_eq!(slow["attrs"]["dns_avg_us"], "823568");
    assert_eq!(slow["attrs"]["Task_CPU_Time(US)"], "95");
    // New columns are kept under their own names.
    assert_eq!(slow["attrs"]["DNS_Server_Id"], "ns1.example.com");
    assert_eq!(slow["attrs"]["Request_Queue_Max"], "3");
    assert_eq!(slow["attrs"]["Cache_Hits"], "17");
}

#[test]
fn older_formatter_without_qsg_column_reads_without_problems() {
    // Decision: a missing QSG column is the normal output of mqsmfcsv
    // before 5.6, not a problem; the inventory's variant says so.
    let r = mqdiag(&[
        "inventory",
        "fixtures/smf/mqsmfcsv-5.4",
        "--format",
        "json",
        "--tz=-05:00",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    for f in v["files"].as_array().unwrap() {
        let variant = f["variant"].as_str().unwrap();
        assert!(
            variant.ends_with("no QSG column (mqsmfcsv before 5.6)"),
            "{variant}"
        );
        for (_, sev, msg) in problems(f) {
            // Only the clock estimate of files with STCK columns.
            assert_eq!(sev, "info");
            assert!(
                msg.starts_with("STCK timestamps read +05:00 against the LPAR-local Date/Time"),
                "{msg}"
            );
        }
    }
    let qcct = v["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["path"].as_str().unwrap().ends_with("SMF-QCCT.csv"))
        .unwrap();
    assert_eq!(
        qcct["variant"],
        "QCCT, old column names, no QSG column (mqsmfcsv before 5.6)"
    );
    assert_eq!(qcct["mq_version"], "9.2.0");
}

#[test]
fn unbalanced_quote_skips_only_its_row() {
    let r = inventory("unbalanced-quote");
    assert_eq!(r["events"], 2);
    assert_eq!(
        problems(&r),
        vec![p(
            Some(3),
            "warning",
            "unbalanced quote in column 9 `Connection_Name`: row skipped"
        )]
    );
}

#[test]
fn quote_and_comma_inside_a_string_are_rejoined() {
    let r = inventory("quote-comma");
    assert_eq!(r["events"], 2);
    assert_eq!(
        problems(&r),
        vec![p(
            Some(2),
            "info",
            "column 13 `Correl(CHAR)` holds a quote and a comma (not escaped by the formatter): cell rejoined"
        )]
    );
    let rows = timeline("quote-comma");
    assert_eq!(rows[0]["attrs"]["Correl(CHAR)"], "..\",XX**.+..");
    assert_eq!(rows[0]["attrs"]["MVS_UserId"], "ORDSVC");
}

#[test]
fn non_utf8_bytes_are_read_as_latin1() {
    let r = inventory("non-utf8");
    assert_eq!(r["events"], 3);
    assert_eq!(
        problems(&r),
        vec![p(
            Some(3),
            "info",
            "column 45 `Remote_QMgr_Or_App` is not UTF-8: read as Latin-1"
        ),]
    );
    let rows = timeline("non-utf8");
    let row = rows.iter().find(|e| e["line"] == 3).unwrap();
    assert_eq!(row["attrs"]["Remote_QMgr_Or_App"], "caf\u{e9}svc.exe");
}

#[test]
fn empty_file() {
    let r = inventory("empty");
    assert_eq!(r["format"], "smf-csv");
    assert_eq!(r["events"], 0);
    assert_eq!(problems(&r), vec![p(None, "warning", "empty file")]);
}

#[test]
fn header_only() {
    let r = inventory("header-only");
    assert_eq!(r["variant"], "QPST");
    assert_eq!(r["events"], 0);
    assert_eq!(r["lines"], 1);
    assert_eq!(
        problems(&r),
        vec![p(None, "info", "header only: no data rows")]
    );
}

#[test]
fn unparseable_record_date() {
    let r = inventory("bad-date");
    assert_eq!(r["events"], 1);
    assert_eq!(
        problems(&r),
        vec![p(
            Some(2),
            "warning",
            "record time `2025/02/30`,`10:14:23,940000` is not a date and time: row skipped"
        )]
    );
    assert_eq!(timeline("bad-date")[0]["line"], 3);
}

#[test]
fn rows_without_header_are_not_guessed() {
    // The only input, not read: the run could not be done.
    let r = inventory_exit("no-header", 2);
    assert_eq!(r["format"], "smf-csv");
    assert_eq!(r["events"], 0);
    assert_eq!(r["lines"], 3);
    assert_eq!(
        problems(&r),
        vec![p(
            Some(1),
            "error",
            "no header row (formatted with `-h no`, or appended to with `-a`): columns cannot be named: file not read"
        )]
    );
}

#[test]
fn crlf_line_ends() {
    let r = inventory("crlf");
    assert_eq!(r["events"], 3);
    assert_eq!(problems(&r), vec![]);
    let rows = timeline("crlf");
    // The last cell of a CRLF line is clean.
    assert_eq!(rows[0]["attrs"]["Gets_Len_10000"], "0");
    assert_eq!(rows[0]["attrs"]["Gets_Len_100to999"], "5");
}

#[test]
fn one_megabyte_line_is_cut_and_skipped() {
    let r = inventory("long-line");
    assert_eq!(r["events"], 2);
    assert_eq!(
        problems(&r),
        vec![p(
            Some(3),
            "warning",
            "line of 1048576 bytes is longer than the 64 KiB limit: row skipped"
        )]
    );
}
