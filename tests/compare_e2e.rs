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
    for (rel, bytes) in common::files_under(&src) {
        copy.write(&rel, &bytes);
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

/// `--redact` uses one mapping for both captures: a name is one token on
/// either side, and no planted name is left in any format.
#[test]
fn redaction_is_one_mapping_for_both_captures() {
    let (c, _) = compare(GOOD, BAD, &["--redact"]);
    assert_eq!(c["redacted"], true);
    let text = c.to_string();
    for name in ["appprod3", "mqpay1", "10.20.7.31", "rptuser"] {
        assert!(!text.contains(name), "{name} in {text}");
    }
    // The same host token on both sides of the per-process rows.
    let hosts: std::collections::BTreeSet<&str> = c["calls"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| !r["process"].is_null() && !r["good"].is_null() && !r["bad"].is_null())
        .filter_map(|r| r["host"].as_str())
        .collect();
    assert_eq!(hosts.len(), 1, "{hosts:?}");
    assert!(hosts.iter().all(|h| h.starts_with("host-")), "{hosts:?}");
    // The findings still line up: the same two are new.
    assert_eq!(rules(&c["findings"]["new"]), ["access-refused", "slow-dns"]);
    for f in ["text", "markdown", "html"] {
        let out = stdout_of(&["compare", GOOD, BAD, "-q", "--redact", "--format", f]);
        for name in ["appprod3", "mqpay1", "10.20.7.31", "rptuser"] {
            assert!(!out.contains(name), "{f}: {name}");
        }
        assert!(out.contains("redacted (one mapping for both)"), "{f}");
    }
}

/// A time of day is read on each capture's own day: the window before the
/// bad capture's slow connect leaves only what both share.
#[test]
fn a_time_window_applies_to_each_capture_on_its_own_day() {
    let (c, _) = compare(GOOD, BAD, &["--until", "13:30:00"]);
    for side in ["good", "bad"] {
        let w = c[side]["window"].as_str().unwrap();
        assert!(w.starts_with("… .. 2023-11-"), "{side}: {w}");
        assert!(w.contains("T13:30:00"), "{side}: {w}");
    }
    assert!(c["good"]["window"] != c["bad"]["window"]);
    // Without a window, none is stated.
    let (all, _) = compare(GOOD, BAD, &[]);
    assert!(all["good"]["window"].is_null());
    let text = stdout_of(&["compare", GOOD, BAD, "-q", "--until", "13:30:00"]);
    assert!(text.contains("events inside the time window only"));
}

/// The text report fits 80 columns however long the process names.
#[test]
fn text_fits_eighty_columns() {
    let out = stdout_of(&["compare", GOOD, BAD, "-q"]);
    for l in out.lines() {
        assert!(
            l.chars().count() <= 80,
            "{} columns: {l}",
            l.chars().count()
        );
    }
    assert!(out.contains("P50 and MAX under each row"));
}

/// HTML draws the error series of both captures side by side.
#[test]
fn html_puts_series_side_by_side() {
    let out = stdout_of(&[
        "compare",
        "fixtures/channel-scan",
        "fixtures/case-mixed",
        "-q",
        "--format",
        "html",
    ]);
    assert!(out.contains("<h2>Side by side</h2>"));
    let pair = out
        .split("<h3>Channel and network errors</h3>")
        .nth(1)
        .expect("the channel errors pair");
    let pair = &pair[..pair.find("</div>").unwrap()];
    assert_eq!(pair.matches("<svg").count(), 2, "{pair}");
    assert!(out.contains("<h3>TLS errors</h3>"));
    assert!(out.contains("None in this capture."));
}
