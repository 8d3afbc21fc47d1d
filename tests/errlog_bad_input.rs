//! Bad input for the error-log, FDC and job-log readers: each case is one
//! file under `tests/data/` (or written here when too large to keep),
//! run through the built binary. Every test asserts the exact located
//! problems (line, severity, message) and that the rest was still read.

mod common;
use common::stdout_of as run;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The one inventory row of a file.
fn row(path: &str) -> Value {
    let v: Value = serde_json::from_str(&run(&["inventory", "--format", "json", path])).unwrap();
    let files = v["files"].as_array().unwrap();
    assert_eq!(files.len(), 1, "{files:?}");
    files[0].clone()
}

/// (line, severity, message) of every problem.
fn problems(row: &Value) -> Vec<(Option<u64>, String, String)> {
    row["problems"]
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

fn events(path: &str) -> Vec<Value> {
    run(&["timeline", "--format", "jsonl", path])
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn p(line: Option<u64>, sev: &str, msg: &str) -> (Option<u64>, String, String) {
    (line, sev.to_string(), msg.to_string())
}

fn attr<'a>(e: &'a Value, k: &str) -> Option<&'a str> {
    e["attrs"][k].as_str()
}

#[test]
fn truncated_first_record() {
    let path = "tests/data/errlog/truncated-first.LOG";
    let r = row(path);
    assert_eq!(r["format"], "errlog-text");
    assert_eq!(
        problems(&r),
        vec![p(
            Some(1),
            "warning",
            "file starts inside a record whose header is missing (copied during rotation?): lines 1–5 skipped"
        )]
    );
    let ev = events(path);
    assert_eq!(ev.len(), 2);
    assert_eq!(ev[0]["line"], 6);
    assert_eq!(ev[0]["ts"], "2024-03-06T10:00:00.100000+01:00");
    assert_eq!(attr(&ev[1], "msgid"), Some("AMQ9001I"));
}

#[test]
fn truncated_last_record() {
    let path = "tests/data/errlog/truncated-last.LOG";
    let r = row(path);
    assert_eq!(problems(&r), vec![]);
    assert_eq!(
        r["notes"][0],
        "last record (line 13) has no closing separator line: file cut short or still being written; read as far as it goes"
    );
    let ev = events(path);
    assert_eq!(ev.len(), 2);
    assert_eq!(ev[1]["line"], 13);
    assert_eq!(attr(&ev[1], "truncated"), Some("true"));
    assert_eq!(
        attr(&ev[1], "explanation"),
        Some("Channel 'CH.A' ended normally.")
    );
    assert_eq!(attr(&ev[1], "action"), None);
}

#[test]
fn interleaved_records() {
    let path = "tests/data/errlog/interleaved.LOG";
    assert_eq!(
        problems(&row(path)),
        vec![
            p(
                Some(1),
                "info",
                "record of line 1 was written in two parts around the record of line 5 (interleaved writes): joined"
            ),
            p(
                Some(33),
                "warning",
                "second message id AMQ9001I inside the record of line 25 (interleaved writes?): that record ends at line 32, lines 33–36 skipped"
            ),
            // The other writer's record after it is stamped earlier.
            p(
                Some(37),
                "info",
                "time goes back: 1 record(s) stamped earlier than a record before them in the file (by up to 54.900 s), the first at line 37 (after line 25); the timeline shows each at its own time"
            ),
        ]
    );
    let ev = events(path);
    let got: Vec<(u64, &str)> = ev
        .iter()
        .map(|e| (e["line"].as_u64().unwrap(), attr(e, "msgid").unwrap()))
        .collect();
    // Time order: the two records at 10:00:00 (reassembled first one at
    // .100, the interrupting one at .300), then 10:00:05, then 10:01:00.
    assert_eq!(
        got,
        vec![
            (1, "AMQ9999E"),
            (5, "AMQ9209E"),
            (37, "AMQ9001I"),
            (25, "AMQ9002I")
        ]
    );
    assert_eq!(attr(&ev[0], "reassembled"), Some("true"));
    assert_eq!(attr(&ev[0], "channel"), Some("CH.A"));
    assert_eq!(ev[0]["pid"], 100);
}

#[test]
fn unbalanced_parenthesis() {
    let path = "tests/data/errlog/unbalanced.LOG";
    assert_eq!(
        problems(&row(path)),
        vec![p(
            Some(7),
            "warning",
            "unbalanced parentheses in attribute `CommentInsert2(`: value taken up to the last `)`"
        )]
    );
    let ev = events(path);
    assert_eq!(ev.len(), 2);
    // The cut value stops at the last `)` on its line; the next attribute
    // is read normally.
    assert_eq!(
        attr(&ev[0], "comment_insert2"),
        Some("[Class=]GSKVALMethod::X509[Issuer=]CN=Issuing (Test")
    );
    assert_eq!(attr(&ev[0], "host"), Some("c1"));
    assert_eq!(attr(&ev[0], "port"), Some("5000"));
}

#[test]
fn date_that_cannot_be_parsed() {
    let path = "tests/data/errlog/bad-date.LOG";
    assert_eq!(
        problems(&row(path)),
        vec![
            p(
                Some(1),
                "warning",
                "date `13/45/2024 10:00:00` cannot be read and the record has no Time(): record skipped"
            ),
            p(
                Some(12),
                "warning",
                "date `13/45/2024 10:00:01` cannot be read: record dated by its Time() attribute"
            ),
        ]
    );
    let ev = events(path);
    let got: Vec<(&str, &str)> = ev
        .iter()
        .map(|e| (e["ts"].as_str().unwrap(), attr(e, "channel").unwrap()))
        .collect();
    assert_eq!(
        got,
        vec![
            ("2024-03-06T10:00:01.000000+01:00", "CH.B"),
            ("2024-03-06T10:00:02.000000+01:00", "CH.C"),
        ]
    );
}

#[test]
fn ambiguous_date_order() {
    let path = "tests/data/errlog/ambiguous.LOG";
    assert_eq!(
        problems(&row(path)),
        vec![p(
            Some(1),
            "info",
            "date order of headers like `06/10/18 16:39:06` cannot be told: day and month are both 12 or less in all 2 such headers and no Time() attribute decides; read as month/day/year"
        ),]
    );
    let ev = events(path);
    assert_eq!(ev[0]["ts"], "2018-06-10T16:39:06.000000+00:00");
    assert_eq!(attr(&ev[0], "local_time"), Some("06/10/18 16:39:06"));
    assert_eq!(attr(&ev[0], "msgid"), Some("AMQ9002I"));
}

#[test]
fn ambiguous_date_order_settled_by_time_attribute() {
    // The client fixture writes 06/10/24 (UK locale): only day-first
    // agrees with its Time() values, so no problem is reported.
    let path = "fixtures/errlog/client/IBM/MQ/data/errors/AMQERR01.LOG";
    let r = row(path);
    assert_eq!(problems(&r), vec![]);
    assert_eq!(r["first"], "2024-10-06T16:39:06.517000+01:00");
}

#[test]
fn invalid_json_line() {
    let path = "tests/data/errlog/invalid.json";
    let r = row(path);
    assert_eq!(r["format"], "errlog-json");
    assert_eq!(
        problems(&r),
        vec![p(
            Some(2),
            "warning",
            "invalid JSON: EOF while parsing a string at column 109: kept as an incomplete record"
        )]
    );
    // The cut record's time was written before the cut: it is kept.
    let ev = events(path);
    assert_eq!(ev.len(), 3);
    assert_eq!(ev[1]["line"], 2);
    assert_eq!(ev[1]["ts"], "2024-03-06T09:00:01.000000+00:00");
    assert_eq!(attr(&ev[1], "incomplete"), Some("true"));
    assert_eq!(ev[2]["line"], 3);
    assert_eq!(ev[2]["pid"], 100);
}

#[test]
fn binary_garbage_and_nul_hole() {
    let path = "tests/data/errlog/binary.LOG";
    let r = row(path);
    assert_eq!(r["format"], "errlog-text");
    assert_eq!(
        problems(&r),
        vec![
            p(
                Some(13),
                "warning",
                "binary data (control characters) in lines 13–14: skipped"
            ),
            p(
                Some(15),
                "warning",
                "40 NUL bytes at the start of the line (a hole in the file): removed"
            ),
        ]
    );
    let ev = events(path);
    assert_eq!(ev.len(), 2);
    assert_eq!(ev[1]["line"], 15);
    assert_eq!(attr(&ev[1], "msgid"), Some("AMQ9001I"));
}

#[test]
fn empty_file() {
    let r = row("tests/data/errlog/empty/AMQERR01.LOG");
    assert_eq!(r["format"], "errlog-text");
    assert_eq!(problems(&r), vec![p(None, "info", "empty file")]);
    assert_eq!(r["events"], 0);
}

#[test]
fn crlf_line_ends() {
    let path = "tests/data/errlog/crlf.LOG";
    let r = row(path);
    assert_eq!(problems(&r), vec![]);
    assert_eq!(r["lines"], 24);
    let ev = events(path);
    assert_eq!(ev.len(), 2);
    assert_eq!(ev[0]["text"], "AMQ9002I: Channel 'CH.A' is starting.");
    assert_eq!(attr(&ev[0], "source"), Some("amqccita.c:100"));
    assert_eq!(attr(&ev[0], "local_host"), Some("lnx1"));
    assert_eq!(attr(&ev[0], "action"), Some("None."));
}

#[test]
fn cp850_bytes() {
    let path = "tests/data/errlog/cp850.LOG";
    let r = row(path);
    assert_eq!(problems(&r), vec![]);
    assert_eq!(r["variant"], "windows, cp850");
    let ev = events(path);
    assert_eq!(
        attr(&ev[0], "explanation"),
        Some(
            "Die Task 'LOGGER-IO' wurde vom Task-Manager für kritische Dienstprogramme gestartet."
        )
    );
    assert_eq!(attr(&ev[0], "action"), Some("Keine."));
    assert_eq!(attr(&ev[0], "task"), Some("LOGGER-IO"));
}

#[test]
fn windows_1252_bytes() {
    let path = "tests/data/errlog/cp1252.LOG";
    let r = row(path);
    assert_eq!(problems(&r), vec![]);
    assert_eq!(r["variant"], "windows, windows-1252");
    let ev = events(path);
    assert_eq!(
        ev[0]["text"],
        "AMQ9202E: Le système hôte éloigné 'farm (192.168.0.58) (14152)' est indisponible. Recommencez ultérieurement."
    );
    assert_eq!(
        attr(&ev[0], "explanation"),
        Some("La tentative d'allocation d'une conversation a échoué.")
    );
    assert_eq!(attr(&ev[0], "host"), Some("farm"));
    assert_eq!(attr(&ev[0], "address"), Some("192.168.0.58"));
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("errlog-bad-input");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

const RECORD_TAIL: &str = "
AMQ9001I: Channel 'CH.A' ended normally.

EXPLANATION:
Channel 'CH.A' ended normally.
ACTION:
None.
----- amqccita.c : 100 --------------------------------------------------------
";

fn header(hh: u32, extra: &str) -> String {
    format!(
        "03/06/2024 10:00:{hh:02} AM - Process(100.{hh}) User(mqm) Program(amqrmppa)\n                    Host(lnx1) VRMF(9.3.0.0)\n                    Time(2024-03-06T09:00:{hh:02}.000Z)\n{extra}"
    )
}

#[test]
fn one_megabyte_line() {
    let path = scratch("long-line.LOG");
    let long = format!(
        "                    CommentInsert2({})\n",
        "A".repeat(1 << 20)
    );
    let text = format!(
        "{}{RECORD_TAIL}{}{RECORD_TAIL}",
        header(1, &long),
        header(2, "")
    );
    std::fs::write(&path, text).unwrap();
    let path = path.to_str().unwrap();
    assert_eq!(
        problems(&row(path)),
        vec![p(
            Some(4),
            "warning",
            "line of 1048612 bytes cut to the first 65536 bytes"
        )]
    );
    let ev = events(path);
    assert_eq!(ev.len(), 2);
    assert_eq!(
        attr(&ev[0], "comment_insert2").map(str::len),
        Some(65536 - 35)
    );
    assert_eq!(ev[1]["ts"], "2024-03-06T10:00:02.000000+01:00");
}

#[test]
fn runaway_record_is_cut_not_held() {
    let path = scratch("huge-record.LOG");
    let mut text = header(
        1,
        "\nAMQ9002I: Channel 'CH.A' is starting.\n\nEXPLANATION:\n",
    );
    for i in 0..1500 {
        text.push_str(&format!(
            "Runaway explanation line {i:05} of a record with no end in sight.\n"
        ));
    }
    text.push_str("ACTION:\nNone.\n-------------------------------------------------------------------------------\n");
    text.push_str(&header(2, RECORD_TAIL));
    std::fs::write(&path, text).unwrap();
    let path = path.to_str().unwrap();
    assert_eq!(
        problems(&row(path)),
        vec![p(
            Some(1016),
            "warning",
            "record of line 1 is longer than 64 KiB: the rest of its text is not kept"
        )]
    );
    let ev = events(path);
    assert_eq!(ev.len(), 2);
    let expl = attr(&ev[0], "explanation").unwrap();
    assert!(expl.len() <= 64 * 1024, "{}", expl.len());
    assert!(expl.starts_with("Runaway explanation line 00000 "));
    assert_eq!(attr(&ev[1], "msgid"), Some("AMQ9001I"));
}

#[test]
fn fdc_cut_inside_its_header_box() {
    let path = "tests/data/fdc/AMQ3321.0.FDC";
    let r = row(path);
    assert_eq!(r["format"], "fdc");
    assert_eq!(problems(&r), vec![]);
    assert_eq!(
        r["notes"][0],
        "file ends inside the header box of the report at line 1: read as far as it goes"
    );
    let ev = events(path);
    assert_eq!(ev.len(), 1);
    assert_eq!(attr(&ev[0], "probe"), Some("CO618001"));
    assert_eq!(attr(&ev[0], "program"), Some("amqrmppa"));
    assert_eq!(ev[0]["ts"], "2023-10-20T09:00:12.104000-04:00");
}
