//! Exit codes as the contract fixes them: `--fail-on`, `--baseline`, bad
//! arguments, no readable input, unwritable output; and the `rules` verb.

mod common;
use common::*;

const DNS: &str = "fixtures/trace/client-dns"; // one warning
const SDR: &str = "fixtures/trace/sdr-channel"; // one error, three warnings
const HEALTHY: &str = "fixtures/healthy";

#[test]
fn fail_on_thresholds() {
    let code = |args: &[&str]| mqdiag(args).code;
    // Default: never.
    assert_eq!(code(&["analyze", SDR]), 0);
    assert_eq!(code(&["analyze", SDR, "--fail-on", "never"]), 0);
    assert_eq!(code(&["analyze", SDR, "--fail-on", "error"]), 1);
    assert_eq!(code(&["analyze", DNS, "--fail-on", "error"]), 0);
    assert_eq!(code(&["analyze", DNS, "--fail-on", "warning"]), 1);
    assert_eq!(code(&["analyze", DNS, "--fail-on", "info"]), 1);
    assert_eq!(code(&["analyze", HEALTHY, "--fail-on", "info"]), 0);
    // The report is still written when the run fails on findings.
    let r = mqdiag(&["analyze", DNS, "--fail-on", "warning"]);
    assert!(r.stdout.contains("slow-dns"));
    // `mqdiag PATH` is `mqdiag analyze PATH`.
    assert_eq!(code(&[DNS, "--fail-on", "warning"]), 1);
}

#[test]
fn baseline_findings_never_fail() {
    let dir = Scratch::new("exit-baseline");
    let base = dir.path().join("base.json");
    let r = mqdiag(&[
        "analyze",
        SDR,
        "--format",
        "json",
        "-o",
        base.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    // The same input against its own baseline: all known, exit 0.
    let r = mqdiag(&[
        "analyze",
        SDR,
        "--format",
        "json",
        "--baseline",
        base.to_str().unwrap(),
        "--fail-on",
        "info",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    let f = v["findings"].as_array().unwrap();
    assert_eq!(f.len(), 4);
    assert!(f.iter().all(|f| f["baseline"] == true));
    // New input on top: only the new finding fails the run.
    let r = mqdiag(&[
        "analyze",
        SDR,
        DNS,
        "--format",
        "json",
        "--baseline",
        base.to_str().unwrap(),
        "--fail-on",
        "warning",
    ]);
    assert_eq!(r.code, 1);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    let new: Vec<&str> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["baseline"] == false)
        .map(|f| f["rule"].as_str().unwrap())
        .collect();
    assert_eq!(new, vec!["slow-dns"]);
    // SARIF marks the states.
    let r = mqdiag(&[
        "analyze",
        SDR,
        DNS,
        "--format",
        "sarif",
        "--baseline",
        base.to_str().unwrap(),
    ]);
    assert_eq!(
        r.stdout.matches("\"baselineState\": \"unchanged\"").count(),
        4
    );
    assert_eq!(r.stdout.matches("\"baselineState\": \"new\"").count(), 1);
}

#[test]
fn bad_arguments_exit_2() {
    for args in [
        vec!["analyze", DNS, "--set", "slow-dns.nosuch=1"],
        vec!["analyze", DNS, "--set", "nosuch.min_ms=1"],
        vec!["analyze", DNS, "--set", "slow-dns.min_ms=fast"],
        vec!["analyze", DNS, "--set", "slow-dns.min_ms"],
        vec!["analyze", DNS, "--only", "nosuch"],
        vec!["analyze", DNS, "--skip", "slow-dns,nosuch"],
        vec!["analyze", DNS, "--fail-on", "sometimes"],
        vec!["analyze", DNS, "--format", "pdf"],
        vec!["rules", "--format", "yaml"],
    ] {
        let r = mqdiag(&args);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(!r.stderr.is_empty());
    }
    let r = mqdiag(&["analyze", DNS, "--set", "slow-dns.nosuch=1"]);
    assert!(
        r.stderr.contains("min_ms"),
        "the message lists the keys: {}",
        r.stderr
    );
}

#[test]
fn bad_baseline_exit_2() {
    let dir = Scratch::new("exit-bad-baseline");
    let p = dir.path().join("not-a-report.json");
    std::fs::write(&p, "{\"files\": []}").unwrap();
    let r = mqdiag(&["analyze", DNS, "--baseline", p.to_str().unwrap()]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("not an mqdiag JSON report"),
        "{}",
        r.stderr
    );
    let r = mqdiag(&["analyze", DNS, "--baseline", "/nonexistent/base.json"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("cannot read baseline"));
}

#[test]
fn no_readable_input_exit_2() {
    let r = mqdiag(&["analyze", "/nonexistent/mqdiag/case"]);
    assert_eq!(r.code, 2);
    // Only an unformatted binary trace: the report says why, exit 2.
    let r = mqdiag(&["analyze", "fixtures/unreadable/AMQ4711.0.TRC"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stdout.contains("unreadable-input"));
    assert!(r.stderr.contains("no readable input"));
    // Partly readable input is not exit 2.
    assert_eq!(mqdiag(&["analyze", "fixtures/unreadable"]).code, 0);
}

#[test]
fn unwritable_output_exit_2() {
    let r = mqdiag(&["analyze", DNS, "-o", "/nonexistent/dir/report.json"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("cannot write"));
}

#[test]
fn rules_verb_lists_every_rule() {
    let r = mqdiag(&["rules", "--format", "json"]);
    assert_eq!(r.code, 0);
    let doc: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(doc["schema_version"], 1);
    let v = &doc["rules"];
    let ids: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    // Every registered rule, in report order.
    let registered: Vec<&str> = mqdiag_analysis::passes::RULES
        .iter()
        .map(|r| r.id)
        .collect();
    assert_eq!(ids, registered);
    assert!(ids.contains(&"mqi-failures"));
    assert!(ids.contains(&"access-refused"));
    assert!(ids.contains(&"resource-limit"));
    assert!(ids.contains(&"fdc"));
    for r in v.as_array().unwrap() {
        assert!(["error", "warning", "info"].contains(&r["severity"].as_str().unwrap()));
        assert!(r["trigger"].as_str().unwrap().len() > 100, "{}", r["id"]);
        for t in r["thresholds"].as_array().unwrap() {
            assert!(t["default"].is_number() && t["key"].is_string());
        }
    }
    let text = mqdiag(&["rules"]).stdout;
    assert!(text.contains("tcp-send-stall.KEY=VALUE"));
    assert!(text.lines().all(|l| l.chars().count() <= 80), "80 columns");
}

#[test]
fn no_readable_input_names_a_few_reasons_not_thousands() {
    // Twelve members that climb out of the archive: all refused.
    let names: Vec<String> = (0..12).map(|i| format!("../up{i}/AMQERR01.LOG")).collect();
    let files: Vec<(&str, &[u8])> = names.iter().map(|n| (n.as_str(), &b"x\n"[..])).collect();
    let dir = tempfile::tempdir().unwrap();
    let zip = dir.path().join("case.zip");
    std::fs::write(&zip, common::zip_deflated(&files)).unwrap();
    let r = mqdiag(&["inventory", zip.to_str().unwrap()]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("no readable input"), "{}", r.stderr);
    // Ten refusals named on their members, two more counted on the
    // archive's row: eleven problems, five of them shown.
    assert!(r.stderr.contains("and 6 more"), "{}", r.stderr);
    assert!(
        r.stderr.contains("2 more member(s) refused"),
        "{}",
        r.stderr
    );
    assert_eq!(r.stderr.matches("../up").count(), 5, "{}", r.stderr);
}
