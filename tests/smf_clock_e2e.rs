//! End to end: SMF rows at their true instants. `fixtures/clocks/smf-eastern`
//! is a queue manager on an LPAR at US Eastern summer time (UTC-4),
//! formatted with TZ=UTC: STCK columns read 4 h ahead of `Date`/`Time`.
//! The channel accounting (QCST) and task (WQ) files show it; the class 1
//! accounting (QMAC) has no STCK column and learns it from them.

mod common;
use common::{Scratch, instant, jsonl, mqdiag, stdout_of as run};
use serde_json::Value;

const DIR: &str = "fixtures/clocks/smf-eastern";

fn rows(args: &[&str]) -> Vec<Value> {
    let mut a = vec!["timeline", "--format", "jsonl"];
    a.extend_from_slice(args);
    jsonl(&run(&a))
}

fn row<'a>(rows: &'a [Value], file: &str, line: u64) -> &'a Value {
    rows.iter()
        .find(|r| r["path"].as_str().unwrap().ends_with(file) && r["line"] == line)
        .unwrap_or_else(|| panic!("{file}:{line}"))
}

fn inventory(args: &[&str]) -> Vec<Value> {
    let mut a = vec!["inventory", "--format", "json"];
    a.extend_from_slice(args);
    let v: Value = serde_json::from_str(&run(&a)).unwrap();
    v["files"].as_array().unwrap().clone()
}

#[test]
fn timeline_csv_shows_the_lpar_offset_at_the_true_instant() {
    // ts, end, path, line of each row: the whole placement, in order.
    let out = run(&["timeline", DIR, "--format", "csv"]);
    let mut placed = String::new();
    let mut last = i64::MIN;
    for l in out.lines().skip(1) {
        let cols: Vec<&str> = l.splitn(5, ',').take(4).collect();
        let t = instant(cols[0]);
        assert!(t >= last, "out of order: {l}");
        last = t;
        placed.push_str(&cols.join(","));
        placed.push('\n');
    }
    insta::assert_snapshot!(placed);
    let all = rows(&[DIR]);
    // The class 1 record written at 10:14:23.94 Eastern: 14:14:23.94 UTC.
    let qmac = row(&all, "SMF-QMAC.csv", 2);
    assert_eq!(qmac["ts"], "2025-03-14T10:14:23.940000-04:00");
    assert_eq!(
        instant(qmac["ts"].as_str().unwrap()),
        instant("2025-03-14T14:14:23.94Z")
    );
    // A channel instance started 14:14:21.888 by the STCK clock (UTC).
    let qcst = row(&all, "SMF-QCST.csv", 2);
    assert_eq!(qcst["ts"], "2025-03-14T10:14:21.888000-04:00");
    assert_eq!(qcst["attrs"]["Start (TIME)"], "14:14:21,888000");
    assert_eq!(qcst["attrs"]["clock_offset_s"], "14400");
    // No WTAS row of its task in the run: a WQ row is at its record time
    // (the queue's open time, STCK, is only an attribute).
    let wq = row(&all, "SMF-WQ.csv", 2);
    assert_eq!(wq["ts"], "2025-03-14T10:14:23.940000-04:00");
    assert_eq!(wq["attrs"]["ts_from"], "Date/Time");
    assert_eq!(wq["attrs"]["Open (TIME)"], "14:14:22,010233");
}

#[test]
fn inventory_says_where_each_files_offset_came_from() {
    let files = inventory(&[DIR]);
    assert_eq!(files.len(), 3);
    for f in &files {
        assert_eq!(f["utc_offset"], "-04:00", "{f}");
        assert_eq!(f["utc_offset_source"], "data", "{f}");
        assert_eq!(f["problem_count"], 0, "{f}");
    }
    let notes = |i: usize| -> Vec<String> {
        files[i]["notes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(
        notes(0),
        [
            "STCK columns read as UTC; LPAR offset -04:00 from 4 rows. STCK timestamps read +04:00 against the LPAR-local Date/Time (estimated from `Collection_Time`: 4 of 4 rows agree): their times moved onto the LPAR clock; if mqsmfcsv did not run in UTC (TZ=UTC or -g yes), give its zone with --smf-stck-tz"
        ]
    );
    assert_eq!(
        notes(1),
        [
            "STCK columns read as UTC; LPAR offset -04:00 from 4 rows of fixtures/clocks/smf-eastern/SMF-QCST.csv"
        ]
    );
    // Too few closes near the record to tell on its own: the channel
    // accounting of the same queue manager tells.
    assert!(
        notes(2)[0].contains("(too few `Close` rows here: taken from 4 rows of fixtures/clocks/smf-eastern/SMF-QCST.csv, same queue manager)"),
        "{:?}",
        notes(2)
    );
    insta::assert_snapshot!(run(&["inventory", DIR]));
}

#[test]
fn a_file_read_alone_knows_only_its_own_clocks() {
    // QMAC alone: nothing tells the zone.
    let files = inventory(&[&format!("{DIR}/SMF-QMAC.csv")]);
    assert_eq!(files[0]["utc_offset_source"], "assumed-utc");
    // A reading note, not a problem.
    assert_eq!(files[0]["problem_count"], 0);
    assert!(
        files[0]["notes"][0]
            .as_str()
            .unwrap()
            .contains("UTC assumed")
    );
    let all = rows(&[&format!("{DIR}/SMF-QMAC.csv")]);
    assert_eq!(all[0]["ts"], "2025-03-14T10:14:23.940000+00:00");
}

#[test]
fn tz_overrides_and_stck_tz_moves_the_lpar() {
    // --tz: the LPAR clock is read in it, whatever the STCK columns say.
    let all = rows(&[DIR, "--tz", "-05:00"]);
    assert_eq!(
        row(&all, "SMF-QMAC.csv", 2)["ts"],
        "2025-03-14T10:14:23.940000-05:00"
    );
    assert_eq!(
        row(&all, "SMF-QCST.csv", 2)["ts"],
        "2025-03-14T10:14:21.888000-05:00"
    );
    // mqsmfcsv ran at UTC+1: STCK 14:14 was 13:14 UTC, the LPAR at UTC-3.
    let all = rows(&[DIR, "--smf-stck-tz", "+01:00"]);
    let qmac = row(&all, "SMF-QMAC.csv", 2);
    assert_eq!(qmac["ts"], "2025-03-14T10:14:23.940000-03:00");
    let files = inventory(&[DIR, "--smf-stck-tz", "+01:00"]);
    let n = files[1]["notes"][0].as_str().unwrap();
    assert_eq!(
        n,
        "STCK columns read as +01:00 (--smf-stck-tz); LPAR offset -03:00 from 4 rows of fixtures/clocks/smf-eastern/SMF-QCST.csv"
    );
    let bad = mqdiag(&["timeline", DIR, "--smf-stck-tz", "EST"]);
    assert_eq!(bad.code, 2, "{}", bad.stderr);
}

/// Channel accounting whose STCK columns agree with `Date`/`Time` (the
/// formatter ran in the LPAR's zone): the zone is unknown.
const QCST_AGREE: &str = "Date,Time,LPAR,QMgr,QSG,MQ_Version,Collection_Time (DATE),Collection_Time (TIME),Chl_Name,Status,Connection_Name,Start (DATE),Start (TIME),Stop (DATE),Stop (TIME),Msg_All_Count,DNS_Resolution_Time,
\"2025/03/14\",\"10:15:00,030000\",\"MVSE\",\"MQE1\",\"EASG\",=\"100000\",\"2025/03/14\",\"10:15:00,031877\",\"SVR.A\",\"Inactive\",\"10.1.1.1  \",\"2025/03/14\",\"10:14:21,888000\",\"2025/03/14\",\"10:14:23,936000\",6,0,
";

#[test]
fn unknown_zone_is_said_once_per_lpar() {
    let s = Scratch::new("smfclock");
    s.write("a/SMF-QCST.csv", QCST_AGREE.as_bytes());
    let qmac = std::fs::read(format!("{DIR}/SMF-QMAC.csv")).unwrap();
    s.write("b/SMF-QMAC.csv", &qmac);
    let files = inventory(&[&s.str()]);
    assert_eq!(files.len(), 2);
    // Said once, as a reading note (not a problem).
    let said: Vec<&str> = files
        .iter()
        .flat_map(|f| f["notes"].as_array().into_iter().flatten())
        .map(|n| n.as_str().unwrap())
        .filter(|n| n.starts_with("no UTC offset for LPAR `MVSE` in its SMF clocks"))
        .collect();
    assert_eq!(said.len(), 1, "{files:?}");
    assert_eq!(files[0]["problem_count"], 0);
    for f in &files {
        assert_eq!(f["utc_offset"], "+00:00");
        assert_eq!(f["utc_offset_source"], "assumed-utc");
    }
    assert_eq!(
        files[0]["notes"][1],
        "STCK timestamps read +00:00 against the LPAR-local Date/Time (estimated from `Collection_Time`: 1 of 1 rows agree): rows placed on the LPAR clock as they are; they do not tell the LPAR's UTC offset (--tz gives it)"
    );
}
