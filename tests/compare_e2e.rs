//! `mqdiag compare GOOD BAD` (issue 29): two captures of one payments
//! client and its queue manager (`tests/data/compare/`, ours). In the bad
//! one the client's host-name look-up inside MQCONNX took 5.2 s and the
//! queue manager blocked another application's channel (CHLAUTH): exactly
//! those two findings are new, and MQCONNX is the verb that got slower.

mod common;

use common::{Scratch, mqdiag, stdout_of};
use serde_json::Value;

const GOOD: &str = "tests/data/compare/good";
const BAD: &str = "tests/data/compare/bad";

fn compare(good: &str, bad: &str, extra: &[&str]) -> (Value, i32) {
    let mut a = vec!["compare", good, bad, "-q", "--format", "json"];
    a.extend_from_slice(extra);
    let r = mqdiag(&a);
    assert!(r.code == 0 || r.code == 1, "{a:?}: {}", r.stderr);
    (serde_json::from_str(&r.stdout).unwrap(), r.code)
}

fn rules(v: &Value) -> Vec<&str> {
    let mut r: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["rule"].as_str().unwrap())
        .collect();
    r.sort();
    r
}

fn verb_row<'a>(c: &'a Value, verb: &str) -> &'a Value {
    c["calls"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["verb"] == verb && r["process"].is_null())
        .unwrap_or_else(|| panic!("no {verb} row"))
}

#[test]
fn the_new_findings_are_exactly_the_slow_lookup_and_the_blocked_channel() {
    let (c, code) = compare(GOOD, BAD, &[]);
    assert_eq!(code, 0);
    assert_eq!(rules(&c["findings"]["new"]), ["access-refused", "slow-dns"]);
    assert!(c["findings"]["gone"].as_array().unwrap().is_empty());
    assert!(c["findings"]["changed"].as_array().unwrap().is_empty());
    assert_eq!(c["good"]["findings"], 0);
    assert_eq!(c["bad"]["findings"], 2);
    let blocked = c["findings"]["new"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule"] == "access-refused")
        .unwrap();
    assert_eq!(blocked["subject"]["channel"], "REPORTS.SVRCONN");
    // Fingerprints name files within the capture.
    assert_eq!(
        blocked["evidence"][0]["path"],
        "qmgrs/QMPAY/errors/AMQERR01.LOG"
    );
}

#[test]
fn the_connect_got_slower_and_the_puts_did_not() {
    let (c, _) = compare(GOOD, BAD, &[]);
    let conn = verb_row(&c, "MQCONNX");
    let (g, b) = (&conn["good"], &conn["bad"]);
    assert_eq!(
        (g["calls"].as_u64(), b["calls"].as_u64()),
        (Some(1), Some(1))
    );
    // 9.8 ms before, 5.2 s after: the look-up inside it.
    assert_eq!(g["max_us"], 9812);
    assert_eq!(b["max_us"], 5209812);
    assert_eq!(b["p50_us"], 5209812);
    let put = verb_row(&c, "MQPUT");
    assert_eq!(put["good"], put["bad"]);
    assert_eq!(put["good"]["calls"], 40);
    // Per process: the same program on the same host, its pid changed.
    let per = c["calls"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["verb"] == "MQCONNX" && r["process"] == "payments")
        .unwrap();
    assert_eq!(per["host"], "appprod3");
    assert_eq!(per["bad"]["max_us"], 5209812);
    // The blocked channel is a message id that appeared.
    let m = c["messages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["message_id"] == "AMQ9777E")
        .unwrap();
    assert_eq!(m["count"]["good"], 0);
    assert_eq!(m["count"]["bad"], 1);
}

#[test]
fn fail_on_counts_what_got_worse() {
    assert_eq!(compare(GOOD, BAD, &["--fail-on", "error"]).1, 1);
    assert_eq!(compare(GOOD, BAD, &["--fail-on", "warning"]).1, 1);
    // The other way round, both are gone: nothing got worse.
    let (c, code) = compare(BAD, GOOD, &["--fail-on", "info"]);
    assert_eq!(code, 0);
    assert_eq!(
        rules(&c["findings"]["gone"]),
        ["access-refused", "slow-dns"]
    );
    assert!(c["findings"]["new"].as_array().unwrap().is_empty());
}

#[test]
fn one_capture_under_two_paths_has_no_changes() {
    // The same files elsewhere: fingerprints are of paths within the
    // capture, so nothing is new or gone.
    let copy = Scratch::new("compare-copy");
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/case-mixed");
    let mut stack = vec![src.clone()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(&src).unwrap().to_string_lossy().into_owned();
                copy.write(&rel, &std::fs::read(&p).unwrap());
            }
        }
    }
    let (c, code) = compare("fixtures/case-mixed", &copy.str(), &["--fail-on", "info"]);
    assert_eq!(code, 0);
    assert!(c["good"]["findings"].as_u64().unwrap() >= 3);
    for k in ["new", "gone", "changed"] {
        assert!(
            c["findings"][k].as_array().unwrap().is_empty(),
            "{k}: {}",
            c["findings"][k]
        );
    }
}

#[test]
fn refusals() {
    // Not two captures, or one unreadable: exit 2.
    assert_eq!(mqdiag(&["compare", GOOD]).code, 2);
    let empty = Scratch::new("compare-empty");
    assert_eq!(mqdiag(&["compare", GOOD, &empty.str(), "-q"]).code, 2);
    // The output may not be written into a capture.
    let into = format!("{BAD}/report.json");
    let r = mqdiag(&["compare", GOOD, BAD, "-q", "-o", &into]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        !std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join(&into)
            .exists()
    );
}

#[test]
fn snapshots() {
    for f in ["text", "markdown", "html"] {
        let out = stdout_of(&["compare", GOOD, BAD, "-q", "--format", f]);
        insta::assert_snapshot!(format!("compare_{f}"), out);
    }
}
