//! Bad input is normal input: every case becomes a located problem in
//! `inventory`, and everything else is still read.

mod common;
use common::{Scratch, jsonl, mqdiag};
use serde_json::Value;

const HEADER: &str = "Timestamp        Process.Thread  Trace Ident  Trace Data
===========================================================
 10:00:00.000100      42.1           :       Header.v02:9.3:Linux 5.14:64:-1:1:UTC
 10:00:00.000200      42.1           :       Version : 9.3.0.0    Level : p930-L220606
 10:00:00.000300      42.1           :       UTC   Date : 07/04/23  Time : 10:00:00.000050
 10:00:00.000400      42.1           :       Local Date : 07/04/23  Time : 10:00:00.000050  UTC
 10:00:00.000500      42.1           :       PID : 42 Process : amqrmppa (64-bit)
 10:00:00.000600      42.1           :       --------------------------------
";

fn body(n: usize) -> String {
    (0..n)
        .map(|i| {
            format!(
                " 10:00:01.{:06}      42.1           :       -{{  fn{i}\n",
                i * 10
            )
        })
        .collect()
}

/// The inventory row for `name` in `dir`.
fn inventory(dir: &Scratch) -> Vec<Value> {
    let r = mqdiag(&["inventory", &dir.str(), "--format", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    v["files"].as_array().unwrap().clone()
}

fn row<'a>(rows: &'a [Value], name: &str) -> &'a Value {
    rows.iter()
        .find(|r| r["path"].as_str().unwrap().ends_with(name))
        .unwrap_or_else(|| panic!("no row for {name}"))
}

fn problems(r: &Value) -> Vec<(Option<u64>, String)> {
    r["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["line"].as_u64(),
                p["message"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn empty_file() {
    let d = Scratch::new("empty");
    d.write("AMQ1.0.FMT", b"");
    d.write("AMQ42.0.FMT", format!("{HEADER}{}", body(2)).as_bytes());
    let rows = inventory(&d);
    let e = row(&rows, "AMQ1.0.FMT");
    assert_eq!(e["events"], 0);
    assert_eq!(e["bytes"], 0);
    // An empty file has no content to sniff: listed, not an error.
    assert_eq!(e["format"], "unknown");
    assert_eq!(row(&rows, "AMQ42.0.FMT")["events"], 8);
}

#[test]
fn truncated_last_line() {
    let d = Scratch::new("trunc");
    let text = format!(
        "{HEADER}{} 10:00:02.000000      42.1           :       -{{  cut",
        body(2)
    );
    d.write("AMQ42.0.FMT", text.as_bytes());
    let r = row(&inventory(&d), "AMQ42.0.FMT").clone();
    // Read as it is: a reading note, not a problem.
    assert_eq!(problems(&r), vec![]);
    assert_eq!(
        r["notes"][0],
        "line 11: last line has no line end (file truncated?): read as it is"
    );
    assert_eq!(r["events"], 9);
    // A cut that leaves no record: a located warning, the rest still read.
    let d = Scratch::new("trunc2");
    let text = format!("{HEADER}{} 10:00:0", body(2));
    d.write("AMQ42.0.FMT", text.as_bytes());
    let r = row(&inventory(&d), "AMQ42.0.FMT").clone();
    assert_eq!(
        problems(&r),
        vec![(
            Some(11),
            "last line cut short (file truncated?): `10:00:0`".to_string()
        )]
    );
    assert_eq!(r["events"], 8);
}

#[test]
fn crlf_line_ends() {
    let d = Scratch::new("crlf");
    let text = format!("{HEADER}{}", body(3)).replace('\n', "\r\n");
    d.write("AMQ42.0.FMT", text.as_bytes());
    let r = mqdiag(&["timeline", &d.str(), "--format", "jsonl"]);
    let rows = jsonl(&r.stdout);
    assert_eq!(rows.len(), 9);
    assert!(
        rows.iter()
            .all(|r| !r["text"].as_str().unwrap().ends_with('\r'))
    );
    assert_eq!(rows.last().unwrap()["function"], "fn2");
    assert_eq!(row(&inventory(&d), "AMQ42.0.FMT")["problem_count"], 0);
}

#[test]
fn latin1_and_cp850_bytes_are_kept() {
    let d = Scratch::new("latin1");
    let mut bytes = HEADER.as_bytes().to_vec();
    // Latin-1 é in a queue name, CP850 é (0x82) in another: neither is
    // UTF-8; both lines are read, nothing is dropped.
    bytes.extend_from_slice(b" 10:00:01.000000      42.1           :       Queue name Q.CAF\xe9\n");
    bytes.extend_from_slice(b" 10:00:01.000010      42.1           :       Queue name Q.CAF\x82\n");
    d.write("AMQ42.0.FMT", &bytes);
    let r = mqdiag(&["timeline", &d.str(), "--format", "jsonl"]);
    let rows = jsonl(&r.stdout);
    assert_eq!(rows[6]["text"], "Queue name Q.CAFé");
    assert_eq!(rows[7]["text"], "Queue name Q.CAF\u{82}");
    assert_eq!(row(&inventory(&d), "AMQ42.0.FMT")["problem_count"], 0);
}

#[test]
fn nul_bytes() {
    let d = Scratch::new("nul");
    let mut bytes = HEADER.as_bytes().to_vec();
    bytes.extend_from_slice(b" 10:00:01.000000      42.1           :       -{  abc\0\0def\n");
    bytes.extend_from_slice(body(1).as_bytes());
    d.write("AMQ42.0.FMT", &bytes);
    let r = row(&inventory(&d), "AMQ42.0.FMT").clone();
    assert_eq!(
        problems(&r),
        vec![(Some(9), "NUL bytes in line: removed".to_string())]
    );
    assert_eq!(r["events"], 8);
    let rows = jsonl(&mqdiag(&["timeline", &d.str(), "--format", "jsonl"]).stdout);
    assert_eq!(rows[6]["function"], "abcdef");
}

#[test]
fn one_megabyte_line() {
    let d = Scratch::new("long");
    let big = format!(
        " 10:00:01.000000      42.1           :       {}",
        "x".repeat(1 << 20)
    );
    let text = format!("{HEADER}{big}\n{}", body(2));
    d.write("AMQ42.0.FMT", text.as_bytes());
    let r = row(&inventory(&d), "AMQ42.0.FMT").clone();
    assert_eq!(
        problems(&r),
        vec![(
            Some(9),
            format!("line of {} bytes cut to the first 65536 bytes", big.len())
        )]
    );
    assert_eq!(r["events"], 9);
}

#[test]
fn file_stops_inside_its_header() {
    let d = Scratch::new("hdr");
    let cut: String = HEADER.lines().take(5).map(|l| format!("{l}\n")).collect();
    d.write("AMQ42.0.FMT", cut.as_bytes());
    let r = row(&inventory(&d), "AMQ42.0.FMT").clone();
    assert_eq!(
        problems(&r),
        vec![(
            Some(5),
            "file ends inside its header (no closing `----` rule)".to_string()
        )]
    );
    assert_eq!(
        r["notes"][0],
        "no UTC offset in the file and no --tz given: UTC assumed"
    );
    // The header records read so far are still events, dated.
    assert_eq!(r["events"], 3);
    assert_eq!(r["first"], "2023-07-04T10:00:00.000100+00:00");
}

#[test]
fn permission_denied_file() {
    use std::os::unix::fs::PermissionsExt;
    let d = Scratch::new("perm");
    let p = d.write("AMQ9.0.FMT", format!("{HEADER}{}", body(1)).as_bytes());
    d.write("AMQ42.0.FMT", format!("{HEADER}{}", body(1)).as_bytes());
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o000)).unwrap();
    if std::fs::File::open(&p).is_ok() {
        // Running as root: permissions do not stop reads. The same code
        // path (open fails) is covered by `file_vanishes_before_reading`.
        eprintln!("skipped: files stay readable for this user");
        return;
    }
    let rows = inventory(&d);
    let r = row(&rows, "AMQ9.0.FMT");
    assert_eq!(r["problem_count"], 1);
    assert!(
        problems(r)[0]
            .1
            .starts_with("cannot read: Permission denied")
    );
    assert_eq!(row(&rows, "AMQ42.0.FMT")["events"], 7);
}

#[test]
fn file_vanishes_before_reading() {
    use mqdiag_readers::formats::open_all;
    use mqdiag_readers::input::Input;
    use mqdiag_readers::source::ReadOptions;
    let d = Scratch::new("vanish");
    let p = d.write("AMQ9.0.FMT", b"x");
    let input = Input::from_path("AMQ9.0.FMT", &p).unwrap();
    std::fs::remove_file(&p).unwrap();
    let infos =
        mqdiag_analysis::timeline::drain_all(open_all(vec![input], &ReadOptions::default()));
    assert_eq!(infos.len(), 1);
    assert_eq!(infos[0].problem_count, 1);
    assert!(
        infos[0].problems[0]
            .message
            .starts_with("cannot read: No such file"),
        "{:?}",
        infos[0].problems
    );
}

#[test]
fn directory_symlink_loop() {
    let d = Scratch::new("loop");
    d.write("sub/AMQ42.0.FMT", format!("{HEADER}{}", body(1)).as_bytes());
    std::os::unix::fs::symlink(d.path(), d.path().join("sub/back")).unwrap();
    let rows = inventory(&d);
    let looped = row(&rows, "sub/back");
    // Nothing is lost: a reading note, not a problem.
    assert!(
        looped["notes"][0]
            .as_str()
            .is_some_and(|n| n.contains("reached again")),
        "{looped}"
    );
    assert!(problems(looped).is_empty(), "{:?}", problems(looped));
    // The trace is read once, not once per trip round the loop.
    let traces: Vec<_> = rows.iter().filter(|r| r["format"] == "fmt-trace").collect();
    assert_eq!(traces.len(), 1);
    assert_eq!(traces[0]["events"], 7);
}

#[test]
fn two_files_for_the_same_pid() {
    let d = Scratch::new("samepid");
    d.write("AMQ42.0.FMT", format!("{HEADER}{}", body(2)).as_bytes());
    // The process was reused: a second file, later, same PID and thread.
    let later = format!("{HEADER}{}", body(2)).replace(" 10:00:01.", " 10:00:05.");
    d.write("AMQ42.1.FMT", later.as_bytes());
    let rows = inventory(&d);
    assert_eq!(row(&rows, "AMQ42.0.FMT")["events"], 8);
    assert_eq!(row(&rows, "AMQ42.1.FMT")["events"], 8);
    assert!(rows.iter().all(|r| r["problem_count"] == 0));
    let tl = jsonl(&mqdiag(&["timeline", &d.str(), "--format", "jsonl"]).stdout);
    assert_eq!(tl.len(), 16);
    // Separate call stacks: the second file's first call is at depth 0,
    // not stacked on the first file's unclosed calls.
    let depths: Vec<(String, u64)> = tl
        .iter()
        .filter(|r| r["kind"] == "entry")
        .map(|r| {
            let p = r["path"].as_str().unwrap();
            (p[p.len() - 11..].to_string(), r["depth"].as_u64().unwrap())
        })
        .collect();
    assert_eq!(
        depths,
        vec![
            ("AMQ42.0.FMT".to_string(), 0),
            ("AMQ42.0.FMT".to_string(), 1),
            ("AMQ42.1.FMT".to_string(), 0),
            ("AMQ42.1.FMT".to_string(), 1)
        ]
    );
    let last = tl.last().unwrap();
    assert!(last["path"].as_str().unwrap().ends_with("AMQ42.1.FMT"));
}

#[test]
fn counter_gap_is_located() {
    let d = Scratch::new("counter");
    let text = "Counter  TimeStamp          PID.TID    Ident        Data\r
============================================================\r
\r
00000010 16:18:56.381367   2512.1           :       --{  a\r
00000011 16:18:56.381368   2512.1           :       --}  a (rc=OK)\r
00000015 16:18:56.381369   2512.1           :       --{  b\r
";
    d.write("AMQ2512.0.TRC", text.as_bytes());
    let r = row(&inventory(&d), "AMQ2512.0.TRC").clone();
    let p = problems(&r);
    assert!(p.contains(&(
        Some(6),
        "counter jumped from 00000011 to 00000015: 3 record(s) missing".to_string()
    )));
    assert_eq!(r["events"], 3);
}

#[test]
fn binary_trace_and_unknown_files() {
    let d = Scratch::new("binary");
    d.write("AMQ77.0.TRC", b"\x01\x00\x02\x00binary trace\x00\x00\x7f");
    d.write("notes.txt", b"collected by runmqras\n");
    d.write("AMQ42.0.FMT", format!("{HEADER}{}", body(1)).as_bytes());
    let rows = inventory(&d);
    let b = row(&rows, "AMQ77.0.TRC");
    assert_eq!(b["format"], "binary-trace");
    assert!(problems(b)[0].1.contains("run `dspmqtrc`"));
    let u = row(&rows, "notes.txt");
    assert_eq!(u["format"], "unknown");
    assert_eq!(u["variant"], "not recognised");
    assert_eq!(u["problem_count"], 0);
    assert_eq!(row(&rows, "AMQ42.0.FMT")["events"], 7);
}

/// A record dated before 1970 (a clock gone astray) is left out of the
/// timeline and the file's time range, with a located problem; the other
/// records are read.
#[test]
fn a_record_dated_before_1970_is_reported_not_printed() {
    let good = std::fs::read_to_string("fixtures/client-errors/AMQERR01.LOG").unwrap();
    let bad = good
        .replace("06/10/18 16:39:06", "06/10/1969 16:39:06")
        .replace(
            "Time(2018-10-06T15:39:06.004Z)",
            "Time(1969-10-06T15:39:06.004Z)",
        );
    assert_ne!(bad, good);
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("AMQERR01.LOG"), format!("{bad}{good}")).unwrap();
    let d = dir.path().to_str().unwrap();
    for format in ["text", "jsonl", "csv"] {
        let r = mqdiag(&["timeline", d, "--format", format]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert!(!r.stdout.contains("1969"), "{format}: {}", r.stdout);
        assert!(
            r.stdout.contains("2018-10-06T16:39:06"),
            "{format}: {}",
            r.stdout
        );
    }
    let r = mqdiag(&["inventory", d]);
    assert!(!r.stdout.contains("1969-"), "{}", r.stdout);
    // The message may be wrapped to 80 columns.
    let words = r.stdout.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        words.contains("dated outside 1970-01-01 .. 2262-04-11"),
        "{}",
        r.stdout
    );
    let r = mqdiag(&["analyze", d, "--format", "json"]);
    assert!(!r.stdout.contains("1969-"), "{}", r.stdout);
    assert!(
        r.stdout.contains("dated outside 1970-01-01"),
        "{}",
        r.stdout
    );
}
