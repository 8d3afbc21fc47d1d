//! JSON lines whose strings hold an escape that is no character (a lone
//! UTF-16 surrogate `\ud800`, `\udc00`, a `\u` cut short, an unknown
//! `\x`), built at run time in every JSON shape mqdiag reads line by line:
//! Docker's json-file, the JSON error log, a kubectl console of JSON
//! records. Every record is read (its AMQ9999E present, glued to no
//! other), each damaged line is a located problem, and the run stays
//! within the hostile budgets.

mod common;

use common::{Scratch, run_hostile};
use serde_json::Value;

/// Records per file (scaled down from the cases; every third is
/// damaged).
const N: usize = 300;

/// The bad escapes, in turn, as written in a JSON string.
const BAD: &[&str] = &["\\ud800", "\\udc00", "\\ud800\\u0041", "\\u12", "\\x"];

/// Record `i`'s time and whether (with which escape) it is damaged.
fn stamp(i: usize) -> String {
    format!(
        "2024-08-12T08:{:02}:{:02}.{:03}Z",
        i / 60 % 60,
        i % 60,
        i % 1000
    )
}

fn bad(i: usize) -> Option<&'static str> {
    (i % 3 == 1).then(|| BAD[i / 3 % BAD.len()])
}

/// The message of record `i` as a JSON string's content.
fn message(i: usize) -> String {
    format!(
        "AMQ9999E: Channel 'CH{i:04}' to host 'h{i}' ended abnormally.{}",
        bad(i).unwrap_or("")
    )
}

fn docker_json() -> String {
    (0..N)
        .map(|i| {
            format!(
                "{{\"log\":\"{} {}\\n\",\"stream\":\"stdout\",\"time\":\"{}\"}}\n",
                stamp(i),
                message(i),
                stamp(i).replace('Z', "581204Z")
            )
        })
        .collect()
}

fn errlog_record(i: usize) -> String {
    format!(
        "{{\"ibm_messageId\":\"AMQ9999E\",\"ibm_datetime\":\"{}\",\"ibm_serverName\":\"QM1\",\
         \"type\":\"mq_log\",\"host\":\"h1\",\"loglevel\":\"ERROR\",\"ibm_processId\":7,\
         \"ibm_threadId\":1,\"message\":\"{}\"}}",
        stamp(i),
        message(i)
    )
}

fn errlog_json() -> String {
    (0..N).map(|i| errlog_record(i) + "\n").collect()
}

fn kubectl_json() -> String {
    (0..N)
        .map(|i| format!("[pod/mq-0/qmgr] {}\n", errlog_record(i)))
        .collect()
}

/// Every record read once, whole, in its own row; each damaged line a
/// located `encoding` problem.
fn check(d: &Scratch, path: &str) {
    let r = run_hostile(d.path(), &["timeline", "--format", "jsonl", "-q", path]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let rows: Vec<Value> = common::jsonl(&r.stdout_head);
    let texts: Vec<&str> = rows
        .iter()
        .filter_map(|v| v["text"].as_str())
        .filter(|t| t.contains("AMQ9999E"))
        .collect();
    assert_eq!(texts.len(), N, "{path}: {texts:#?}");
    for (i, t) in texts.iter().enumerate() {
        assert!(t.contains(&format!("'CH{i:04}'")), "{path}: row {i}: {t}");
        assert_eq!(t.matches("AMQ9999E").count(), 1, "{path}: glued: {t}");
        assert!(
            !t.contains("\"log\"") && !t.contains('\\'),
            "{path}: raw: {t}"
        );
        let replaced = t.matches('\u{fffd}').count();
        assert_eq!(replaced > 0, bad(i).is_some(), "{path}: row {i}: {t}");
        assert!(t.ends_with("abnormally.") || replaced > 0, "{path}: {t}");
    }
    let r = run_hostile(d.path(), &["inventory", "--format", "json", "-q", path]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: Value = serde_json::from_str(&r.stdout_head).unwrap();
    let row = &v["files"][0];
    let damaged: Vec<u64> = (0..N)
        .filter(|&i| bad(i).is_some())
        .map(|i| i as u64 + 1)
        .collect();
    assert_eq!(
        row["problem_count"],
        damaged.len() as u64,
        "{path}: {row:#}"
    );
    let lines: Vec<u64> = row["problems"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["code"] == "encoding")
        .map(|p| p["line"].as_u64().unwrap())
        .collect();
    assert!(!lines.is_empty(), "{path}: {row:#}");
    assert_eq!(lines, damaged[..lines.len()], "{path}");
}

#[test]
fn docker_json_file_lines_with_lone_surrogates_lose_no_record() {
    let d = Scratch::new("damaged-docker");
    let id = "4f1c0d9e7a52b8c3d6e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a1b0c9";
    let path = format!("containers/{id}/{id}-json.log");
    std::fs::create_dir_all(d.path().join(format!("containers/{id}"))).unwrap();
    d.write(&path, docker_json().as_bytes());
    check(&d, &path);
}

#[test]
fn json_error_log_lines_with_lone_surrogates_lose_no_record() {
    let d = Scratch::new("damaged-errlog");
    std::fs::create_dir_all(d.path().join("qmgrs/QM1/errors")).unwrap();
    d.write("qmgrs/QM1/errors/AMQERR01.json", errlog_json().as_bytes());
    check(&d, "qmgrs/QM1/errors/AMQERR01.json");
}

#[test]
fn kubectl_json_console_lines_with_lone_surrogates_lose_no_record() {
    let d = Scratch::new("damaged-kubectl");
    d.write("mq-0.log", kubectl_json().as_bytes());
    check(&d, "mq-0.log");
}
