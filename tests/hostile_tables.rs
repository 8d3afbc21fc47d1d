//! Tables keyed by an entity (processes, calls rows, FDC bursts,
//! findings) within one run budget (issue 43, class 1): inputs built in
//! the test, scaled by `PIDS` and `FDCS` so that each passes its table's
//! budget, run under the hostile bounds of `common::run_hostile`. Each
//! asserts the fold is said (a reading note, the row or title that holds
//! the rest), the output bound (10× the input + 1 MB) in every format, and
//! that no count is lost. `scripts/make-hostile.py` writes the same
//! shapes at any scale for measuring by hand.

mod common;

use common::{Scratch, run_hostile};
use serde_json::Value;
use std::fmt::Write as _;

/// Processes of the storm: past the calls table's rows (20,000) and the
/// clients `access-refused` tells apart (10,000).
const PIDS: u32 = 24_000;
/// FDC files of distinct probes: past a rule's share of findings (200).
const FDCS: u32 = 300;

const TRACE_HEAD: &str = "Timestamp        Process.Thread  Trace Ident  Trace Data
===========================================================
 09:29:59.900000     1000.1           :       Header.v02:9.3:Linux 5.14.0:64:-1:1:CET
 09:29:59.900013     1000.1           :       Version : 9.3.0.10    Level : p930-010-230816
 09:29:59.900026     1000.1           :       UTC   Date : 03/12/24  Time : 08:29:59.900001
 09:29:59.900039     1000.1           :       Local Date : 03/12/24  Time : 09:29:59.900001  CET
 09:29:59.900052     1000.1           :       PID : 1000 Process : ordersvc (64-bit)
 09:29:59.900065     1000.1           :       Host : appsrv07
 09:29:59.900104     1000.1           :       --------------------------------
";

/// One trace in which each of `n` processes fails MQCONNX once with 2035
/// (the shape of fixtures/access/paired/client/trace).
fn storm(n: u32) -> String {
    let mut f = String::from(TRACE_HEAD);
    for i in 0..n {
        let pid = 100_000 + i;
        let us = 36_000_000_000u64 + u64::from(i) * 37;
        let t = format!(
            "{:02}:{:02}:{:02}.{:06}",
            us / 3_600_000_000,
            us / 60_000_000 % 60,
            us / 1_000_000 % 60,
            us % 1_000_000
        );
        writeln!(f, " {t} {pid:>8}.1           :       {{  MQCONNX").unwrap();
        writeln!(
            f,
            " {t} {pid:>8}.1      RSESS:000001      CompCode=2 Reason=2035"
        )
        .unwrap();
        writeln!(
            f,
            " {t} {pid:>8}.1      RSESS:000001 }}! MQCONNX rc=2035 FunctionTime=21510"
        )
        .unwrap();
    }
    f
}

fn read_json(d: &Scratch, name: &str) -> Value {
    serde_json::from_slice(&std::fs::read(d.path().join(name)).unwrap()).unwrap()
}

/// The JSON `args` write to `out` (`-q -o out` added), the run exiting 0.
fn json_run(d: &Scratch, args: &[&str], out: &str) -> Value {
    let mut all = args.to_vec();
    all.extend(["-q", "-o", out]);
    let r = run_hostile(d.path(), &all);
    assert_eq!(r.code, 0, "{}", r.stderr);
    read_json(d, out)
}

fn int(v: &Value) -> u64 {
    v.as_u64().unwrap_or_else(|| panic!("not a count: {v}"))
}

/// Output within 10× the input + 1 MB, in every report format.
fn bounded_in_every_format(d: &Scratch, input: &str, bytes: u64) {
    for format in ["text", "json", "markdown", "html", "sarif"] {
        let r = run_hostile(d.path(), &["analyze", "--format", format, "-q", input]);
        assert_eq!(r.code, 0, "{format}: {}", r.stderr);
        assert!(
            r.stdout_bytes <= 10 * bytes + (1 << 20),
            "{format}: {} bytes of report for {bytes} of input",
            r.stdout_bytes
        );
    }
}

#[test]
fn a_refusal_in_every_one_of_many_processes_folds_and_keeps_its_counts() {
    let d = Scratch::new("storm");
    let trace = storm(PIDS);
    d.write("AMQ1000.0.FMT", trace.as_bytes());
    let v = json_run(
        &d,
        &["analyze", "--format", "json", "AMQ1000.0.FMT"],
        "report.json",
    );
    let findings = v["findings"].as_array().unwrap();
    let of =
        |rule: &str| -> Vec<&Value> { findings.iter().filter(|f| f["rule"] == rule).collect() };
    // A few examples and a summary per story, not one per process.
    for rule in ["mqi-failures", "access-refused"] {
        let fs = of(rule);
        assert!(fs.len() <= 12, "{rule}: {} findings", fs.len());
        // Nothing lost: the counts add up to every process's one failure.
        let total: u64 = fs.iter().map(|f| int(&f["count"])).sum();
        assert_eq!(total, u64::from(PIDS), "{rule}");
    }
    let titles: Vec<&str> = findings
        .iter()
        .map(|f| f["title"].as_str().unwrap())
        .collect();
    assert!(
        titles
            .iter()
            .any(|t| t.contains("more processes with the same failure")),
        "{titles:#?}"
    );
    // The process the access-refused rule no longer tells apart: counted.
    let others = of("access-refused")
        .into_iter()
        .find_map(|f| f["metrics"]["processes"].as_u64())
        .expect("a story of the processes past the budget");
    assert_eq!(others, u64::from(PIDS) - 10_000);
    // The report says what it folded, as a reading note of the run.
    let notes: Vec<&str> = v["reading_notes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["path"] == "(run budget)")
        .map(|n| n["note"].as_str().unwrap())
        .collect();
    assert!(
        notes.iter().any(|n| n.contains("MQCONNX calls of")),
        "{notes:#?}"
    );
    assert!(
        notes.iter().any(|n| n.contains("folded into one")),
        "{notes:#?}"
    );
    // The calls table: the processes past its rows in one row per verb,
    // every call counted.
    let calls = v["calls"].as_array().unwrap();
    assert!(calls.len() <= 20_001, "{} rows", calls.len());
    assert_eq!(
        calls.iter().map(|c| int(&c["calls"])).sum::<u64>(),
        u64::from(PIDS)
    );
    let other = calls
        .iter()
        .find(|c| c["pid"].is_null())
        .expect("the row of the other processes");
    assert_eq!(other["process"], "(4,000 other processes)");
    assert_eq!(int(&other["failed"]), u64::from(PIDS) - 20_000);
    bounded_in_every_format(&d, "AMQ1000.0.FMT", trace.len() as u64);
}

#[test]
fn calls_by_thread_of_many_threads_keep_one_row_for_the_rest() {
    let d = Scratch::new("threads-rows");
    let mut f = String::from(TRACE_HEAD);
    for i in 0..PIDS {
        let tid = i + 2;
        let us = i * 40;
        let t = format!("10:00:{:02}.{:06}", us / 1_000_000, us % 1_000_000);
        writeln!(f, " {t}     1000.{tid:<10}:       {{  MQPUT").unwrap();
        writeln!(
            f,
            " {t}     1000.{tid:<10}RSESS:000001 }}  MQPUT rc=OK FunctionTime=12"
        )
        .unwrap();
    }
    d.write("AMQ1000.0.FMT", f.as_bytes());
    let v = json_run(
        &d,
        &[
            "calls",
            "--by",
            "thread",
            "--format",
            "json",
            "AMQ1000.0.FMT",
        ],
        "calls.json",
    );
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 20_001);
    assert_eq!(
        rows.iter().map(|c| int(&c["calls"])).sum::<u64>(),
        u64::from(PIDS)
    );
    assert!(
        rows.iter().any(|r| r["process"] == "(4,000 other threads)"),
        "{:#}",
        rows[rows.len() - 1]
    );
}

/// An FDC report (the shape of fixtures/fdc) of probe `probe`, `at`
/// seconds after 09:00.
fn fdc(i: u32, at: u32, probe: &str) -> String {
    let s = 9 * 3600 + at;
    format!(
        "+-----------------------------------------------------------------------------+
|                                                                             |
| IBM MQ First Failure Symptom Report                                         |
| ===================================                                         |
|                                                                             |
| Date/Time         :- Fri October 20 2023 {:02}:{:02}:{:02} EDT                       |
| UTC Time          :- {}.104000                                      |
| UTC Time Offset   :- -240 (EDT)                                             |
| Host Name         :- mqlin2.example.com                                     |
| Probe Id          :- {probe}                                                |
| Component         :- cciInvalidDataReceived                                 |
| Program Name      :- amqrmppa                                               |
| Process           :- {}                                                   |
| Major Errorcode   :- rrcE_BAD_DATA_RECEIVED                                 |
| Minor Errorcode   :- OK                                                     |
| Probe Type        :- MSGAMQ9207                                             |
|                                                                             |
+-----------------------------------------------------------------------------+

MQM Function Stack
amqrmppa
xcsFFST

",
        s / 3600,
        s / 60 % 60,
        s % 60,
        1_697_806_800 + at,
        3000 + i
    )
}

#[test]
fn many_fdc_files_fold_past_the_rules_share_and_keep_their_reports() {
    let d = Scratch::new("fdcs");
    let mut bytes = 0;
    for i in 0..FDCS {
        // 12 bursts of one probe (11 minutes apart, past the 10-minute
        // burst gap), then distinct probes.
        let (probe, at) = if i < 12 {
            ("XY999999".to_string(), i * 660)
        } else {
            (format!("XY{i:06}"), 12 * 660 + i)
        };
        let text = fdc(i, at, &probe);
        bytes += text.len() as u64;
        d.write(&format!("case/AMQ{}.0.FDC", 3000 + i), text.as_bytes());
    }
    let v = json_run(&d, &["analyze", "--format", "json", "case"], "report.json");
    let fdc: Vec<&Value> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rule"] == "fdc")
        .collect();
    // 288 probes and 12 bursts of one: 5 examples of it and a summary of
    // 7 (294 findings), then 200 in all and one summary of the other 94.
    assert_eq!(fdc.len(), 201);
    let reports: u64 = fdc.iter().map(|f| int(&f["metrics"]["reports"])).sum();
    assert_eq!(reports, u64::from(FDCS));
    let same = fdc
        .iter()
        .find(|f| f["fingerprint"].as_str().unwrap().ends_with("-others"))
        .expect("the bursts of one probe past its examples");
    assert_eq!(int(&same["metrics"]["folded"]), 7);
    let rest = fdc.last().unwrap();
    assert_eq!(rest["fingerprint"], "fdc:others");
    assert!(
        rest["title"]
            .as_str()
            .unwrap()
            .starts_with("94 more fdc findings"),
        "{rest:#}"
    );
    let notes = v["reading_notes"].to_string();
    assert!(
        notes.contains("the run budget lists 200 findings of one rule"),
        "{notes}"
    );
    // The same fingerprints on every run: the summaries' too.
    let again = run_hostile(d.path(), &["analyze", "--format", "json", "-q", "case"]);
    let w: Value = serde_json::from_str(&again.stdout_head).unwrap();
    let fp = |v: &Value| -> Vec<String> {
        v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["fingerprint"].to_string())
            .collect()
    };
    assert_eq!(fp(&v), fp(&w));
    bounded_in_every_format(&d, "case", bytes);
}

/// Error logs of one record each: each file's cut last record is a
/// reading note, past the report's share of notes (1,000).
const NOTED_FILES: u32 = 1_150;

#[test]
fn reading_notes_past_the_reports_share_are_summed_up_and_inventory_keeps_them_all() {
    let d = Scratch::new("notes");
    for i in 0..NOTED_FILES {
        let s = i % 86_400;
        let hms = format!("{:02}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
        let record = format!(
            "----- amqxfdcx.c : 1041 -------------------------------------------------------\n\
             03/12/24 {hms} - Process({pid}.1) User(mqm) Program(amqrmppa)\n\
             \x20                   Host(mqhost) Installation(Installation1)\n\
             \x20                   VRMF(9.3.0.0) QMgr(QM1)\n\
             \x20                   Time(2024-03-12T{hms}.000Z)\n\
             \n\
             AMQ9999E: Channel 'CH.{i:07}' to host '192.0.2.1' ended abnormally.\n",
            pid = 4000 + i
        );
        d.write(
            &format!("case/{i:05}/errors/AMQERR01.LOG"),
            record.as_bytes(),
        );
    }
    let v = json_run(&d, &["analyze", "--format", "json", "case"], "report.json");
    let notes = v["reading_notes"].as_array().unwrap();
    assert_eq!(notes.len(), 1_001, "{:#}", notes.last().unwrap());
    let last = notes.last().unwrap();
    assert_eq!(last["path"], "(run budget)");
    let text = last["note"].as_str().unwrap();
    // The run's own note (channel-error findings folded) is listed first,
    // so 999 files' notes are listed and 151 summed up.
    assert!(
        text.starts_with(
            "151 more reading note(s) on 151 file(s) not listed (the report lists 1,000;"
        ),
        "{text}"
    );
    assert!(text.contains("most often: 151 \"last record"), "{text}");
    // The text report counts every note; inventory lists each file's.
    let r = run_hostile(d.path(), &["analyze", "-q", "case"]);
    assert!(
        r.stdout_head
            .contains("... and 1101 more (`mqdiag inventory` lists them all)"),
        "{}",
        r.stdout_head
    );
    let inv = json_run(&d, &["inventory", "--format", "json", "case"], "inv.json");
    let noted = inv["files"]
        .as_array()
        .or_else(|| inv.as_array())
        .unwrap()
        .iter()
        .filter(|f| f["notes"].as_array().is_some_and(|n| !n.is_empty()))
        .count();
    assert_eq!(noted, NOTED_FILES as usize);
}
