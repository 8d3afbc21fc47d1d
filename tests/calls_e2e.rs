//! End-to-end: `mqdiag calls` on the fixtures.

mod common;
use common::{evidence_lines, mqdiag, stdout_of};

/// `--date` pins the one headerless fixture (its calls carry no date, but
/// the run must not depend on the checkout's file times either).
fn calls(rest: &[&str]) -> String {
    let mut a = vec!["calls", "fixtures/", "--date", "2024-02-29"];
    a.extend_from_slice(rest);
    stdout_of(&a)
}

#[test]
fn text_snapshot() {
    insta::assert_snapshot!(calls(&[]));
}

#[test]
fn csv_snapshot() {
    let out = calls(&["--format", "csv"]);
    assert!(out.starts_with("host,trace,pid,process,verb,calls,ok,warnings,failed,open,total_us,"));
    insta::assert_snapshot!(out);
}

#[test]
fn json_snapshot() {
    let v: serde_json::Value = serde_json::from_str(&calls(&["--format", "json"])).unwrap();
    assert_eq!(v["schema_version"], 1);
    insta::assert_json_snapshot!(v);
}

fn rows(args: &[&str]) -> Vec<serde_json::Value> {
    let mut a = vec!["calls", "--format", "json"];
    a.extend_from_slice(args);
    let v: serde_json::Value = serde_json::from_str(&stdout_of(&a)).unwrap();
    v["rows"].as_array().unwrap().clone()
}

fn find<'a>(rows: &'a [serde_json::Value], pid: u64, verb: &str) -> &'a serde_json::Value {
    rows.iter()
        .find(|r| r["pid"] == pid && r["verb"] == verb)
        .unwrap_or_else(|| panic!("no row {pid} {verb}"))
}

/// The counts of `fixtures/calls`, counted by hand from the two files:
///
/// client `AMQ30512.0.FMT` (ordersvc): thread 1 connects three times
/// (`}! MQCONNX rc=2035` at line 19 after `CompCode=2 Reason=2035`,
/// `rc=MQRC_NOT_AUTHORIZED` at line 23, then OK at line 27), opens, gets twice (OK,
/// each with a `trmzstMQGET` inside that must not count again), gets once
/// more with a 5 s wait ending `rc=000007F1` (2033), closes, disconnects.
/// Thread 2 connects, puts twice, and the trace ends inside an MQGET.
///
/// server `AMQ40960.0.FMT` (amqrmppa): thread 7 starts inside an MQGET
/// (only `zstMQGET` whole and the outer exit: one open call), opens
/// (`Reason=2085` stated in the call), puts three times (the third
/// `MQRC_Q_FULL`), gets with `rc=Unknown(7F1)` (2033); thread 8's MQCONNX
/// fails 2035; thread 9 connects and disconnects.
#[test]
fn hand_counted_fixture() {
    let r = rows(&["fixtures/calls"]);
    let counts = |row: &serde_json::Value| {
        ["calls", "ok", "warnings", "failed", "open"].map(|k| row[k].as_u64().unwrap())
    };
    // [calls, ok, warnings, failed, open]
    assert_eq!(counts(find(&r, 30512, "MQCONNX")), [4, 2, 0, 2, 0]);
    assert_eq!(counts(find(&r, 30512, "MQOPEN")), [1, 1, 0, 0, 0]);
    assert_eq!(counts(find(&r, 30512, "MQGET")), [4, 2, 1, 0, 1]);
    assert_eq!(counts(find(&r, 30512, "MQPUT")), [2, 2, 0, 0, 0]);
    assert_eq!(counts(find(&r, 30512, "MQCLOSE")), [1, 1, 0, 0, 0]);
    assert_eq!(counts(find(&r, 30512, "MQDISC")), [1, 1, 0, 0, 0]);
    assert_eq!(counts(find(&r, 40960, "MQGET")), [2, 0, 1, 0, 1]);
    assert_eq!(counts(find(&r, 40960, "MQCONNX")), [2, 1, 0, 1, 0]);
    assert_eq!(counts(find(&r, 40960, "MQOPEN")), [1, 0, 0, 1, 0]);
    assert_eq!(counts(find(&r, 40960, "MQPUT")), [3, 2, 0, 1, 0]);
    assert_eq!(counts(find(&r, 40960, "MQDISC")), [1, 1, 0, 0, 0]);
    assert_eq!(r.len(), 11);
    let c = find(&r, 30512, "MQCONNX");
    assert_eq!(c["process"], "ordersvc");
    assert_eq!(c["reasons"], serde_json::json!({"2035": 2}));
    // 12,500 + 12,320 + 15,000 (first failure, second, success) + 12,000.
    assert_eq!(c["total_us"], 51_820);
    assert_eq!(c["max_us"], 15_000);
    assert_eq!(c["max_at"]["line"], 27);
    let g = find(&r, 30512, "MQGET");
    assert_eq!(g["reasons"], serde_json::json!({"2033": 1}));
    assert_eq!(g["max_us"], 5_001_000);
    assert_eq!(g["p50_us"], 800);
    assert_eq!(
        find(&r, 40960, "MQPUT")["reasons"],
        serde_json::json!({"2053": 1})
    );
    assert_eq!(
        find(&r, 40960, "MQOPEN")["reasons"],
        serde_json::json!({"2085": 1})
    );
    // Widest impact first.
    assert_eq!(r[0]["verb"], "MQGET");
    assert_eq!(r[0]["pid"], 30512);
}

#[test]
fn grouping_and_verb_filter() {
    let r = rows(&["fixtures/calls", "--by", "connection", "--verb", "MQCONNX"]);
    assert!(r.iter().all(|x| x["verb"] == "MQCONNX"));
    let idents: Vec<&str> = r.iter().map(|x| x["ident"].as_str().unwrap()).collect();
    // The client's connect entries carry no ident (` : `): the session
    // the exit names is the connection.
    assert!(idents.contains(&"RSESS:000001"), "{idents:?}");
    assert!(idents.contains(&"RSESS:000012"), "{idents:?}");
    assert!(
        !idents.iter().any(|i| i.starts_with("30512.")),
        "{idents:?}"
    );
    let r = rows(&["fixtures/calls", "--by", "thread"]);
    assert!(
        r.iter()
            .all(|x| x["tid"].is_u64() && x.get("ident").is_none())
    );
    let r = rows(&["fixtures/calls", "--by", "verb"]);
    let get = r.iter().find(|x| x["verb"] == "MQGET").unwrap();
    assert_eq!(get["calls"], 6);
    assert!(get["pid"].is_null());
    let bad = mqdiag(&["calls", "fixtures/calls", "--verb", "MQFOO"]);
    assert_eq!(bad.code, 2);
    assert!(bad.stderr.contains("MQFOO"));
}

#[test]
fn output_format_from_extension_and_workers() {
    let dir = common::Scratch::new("calls");
    let p = dir.path().join("calls.csv");
    let r = mqdiag(&["calls", "fixtures/calls", "-o", p.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let text = std::fs::read_to_string(&p).unwrap();
    assert!(text.starts_with("host,trace,pid,process,verb,"));
    let one = stdout_of(&["calls", "fixtures/", "--date", "2024-02-29", "-j", "1"]);
    let two = stdout_of(&["calls", "fixtures/", "--date", "2024-02-29", "-j", "2"]);
    assert_eq!(one, two);
}

/// The fixture's refused connects give `mqi-failures` findings naming the
/// verb, 2035 and MQRC_NOT_AUTHORIZED with the failing exit lines.
#[test]
fn mqi_failures_finding_snapshot() {
    let r = mqdiag(&[
        "analyze",
        "fixtures/calls",
        "--only",
        "mqi-failures",
        "--format",
        "json",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    let f = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["subject"]["pid"] == 30512 && f["metrics"]["verb"] == "MQCONNX")
        .expect("the client's MQCONNX finding");
    assert_eq!(f["severity"], "error");
    assert_eq!(f["metrics"]["reason"], 2035);
    assert_eq!(f["metrics"]["reason_name"], "MQRC_NOT_AUTHORIZED");
    assert_eq!(f["metrics"]["failures"], 2);
    assert_eq!(f["metrics"]["calls"], 4);
    assert_eq!(evidence_lines(f), [19, 23]);
    // 2033 after a wait is normal: no finding for MQGET.
    assert!(
        v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .all(|f| f["metrics"]["verb"] != "MQGET")
    );
    insta::assert_json_snapshot!(v["findings"]);
}

/// The reports show an "MQI calls" section only when traces have calls;
/// HTML adds a latency chart per verb.
#[test]
fn report_sections_only_with_calls() {
    let text = stdout_of(&["analyze", "fixtures/calls"]);
    assert!(text.contains("MQI calls: 11 rows"), "{text}");
    let md = stdout_of(&["analyze", "fixtures/calls", "--format", "markdown"]);
    assert!(md.contains("## MQI calls"));
    let html = stdout_of(&["analyze", "fixtures/calls", "--format", "html"]);
    assert!(html.contains("<h2 id=\"calls\">MQI calls</h2>"));
    let svg = html
        .split("aria-label=\"MQI call latency per verb\"")
        .nth(1)
        .expect("the latency chart");
    for verb in ["MQCONNX", "MQGET", "MQPUT", "MQOPEN", "MQCLOSE", "MQDISC"] {
        assert!(svg.contains(&format!(">{verb}</text>")), "{verb}");
    }
    let none = stdout_of(&["analyze", "fixtures/errlog"]);
    assert!(!none.contains("MQI calls"));
    let v: serde_json::Value = serde_json::from_str(&stdout_of(&[
        "analyze",
        "fixtures/errlog",
        "--format",
        "json",
    ]))
    .unwrap();
    assert_eq!(v["calls"], serde_json::json!([]));
    let empty = stdout_of(&["calls", "fixtures/errlog"]);
    assert_eq!(empty, "No MQI calls found in the traces.\n");
}

/// Without mqi-failures and resource-limit (`--only`, `--skip`) the calls
/// are not counted:
/// each report says so in one line where the table would be, and the
/// JSON report has no `calls`. Without traces there is nothing to say.
#[test]
fn calls_not_counted_without_the_rule_that_reads_them() {
    const LINE: &str = "not counted (no rule that ran uses them); `mqdiag calls` counts them.";
    let skip_both = ["--skip", "mqi-failures", "--skip", "resource-limit"];
    for rules in [&["--only", "fdc"][..], &skip_both] {
        let args = |more: &[&'static str]| {
            let mut a = vec!["analyze", "fixtures/calls"];
            a.extend_from_slice(rules);
            a.extend_from_slice(more);
            a
        };
        let text = stdout_of(&args(&[]));
        assert!(text.contains(&format!("MQI calls: {LINE}\n")), "{text}");
        assert!(!text.contains("MQI calls: 11 rows"));
        let md = stdout_of(&args(&["--format", "markdown"]));
        assert!(md.contains(&format!("## MQI calls\n\n{LINE}\n")), "{md}");
        let html = stdout_of(&args(&["--format", "html"]));
        assert!(html.contains("<h2 id=\"calls\">MQI calls</h2>"));
        assert!(!html.contains("MQI call latency per verb"));
        let v: serde_json::Value =
            serde_json::from_str(&stdout_of(&args(&["--format", "json"]))).unwrap();
        assert!(v.get("calls").is_none(), "{}", v["calls"]);
        assert!(v["findings"].is_array());
    }
    // With the rule, the table as ever.
    let text = stdout_of(&["analyze", "fixtures/calls", "--only", "mqi-failures"]);
    assert!(text.contains("MQI calls: 11 rows"), "{text}");
    let none = stdout_of(&["analyze", "fixtures/errlog", "--only", "fdc"]);
    assert!(!none.contains("MQI calls"), "{none}");
}
