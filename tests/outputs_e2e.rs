//! Outputs that say what they are (issue 41, item 6): an `-o` extension
//! and `--format` in conflict are an error naming both; `.otlp.jsonl` and
//! `.ecs.ndjson` pick the export; every finding says why it has its
//! severity in every format; text shows no `null`; the man page's exit
//! status covers `compare --fail-on`.

mod common;

use common::{Scratch, mqdiag, stdout_of};
use serde_json::Value;

#[test]
fn an_extension_and_a_format_that_disagree_are_an_error_naming_both() {
    let s = Scratch::new("conflict");
    for (verb, format, file) in [
        ("analyze", "json", "x.html"),
        ("timeline", "csv", "rows.jsonl"),
        ("calls", "json", "calls.csv"),
        ("inventory", "text", "inv.json"),
        ("rules", "json", "rules.txt"),
    ] {
        let out = s.path().join(file);
        let o = out.to_str().unwrap();
        let mut args = vec![verb, "--format", format, "-o", o];
        if verb != "rules" {
            args.push("fixtures/calls");
        }
        let r = mqdiag(&args);
        assert_eq!(r.code, 2, "{args:?}");
        assert!(
            r.stderr.contains(&format!("--format {format}")) && r.stderr.contains(file),
            "{args:?}: {}",
            r.stderr
        );
        assert!(!out.exists(), "{args:?} wrote {file}");
    }
    // An extension no format claims is no conflict: --format names it.
    let out = s.path().join("report.out");
    let r = mqdiag(&[
        "analyze",
        "fixtures/calls",
        "--format",
        "json",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    // The same format both ways is fine.
    let out = s.path().join("r.json");
    let r = mqdiag(&[
        "analyze",
        "fixtures/calls",
        "--format",
        "json",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
}

#[test]
fn export_extensions_pick_the_export() {
    let s = Scratch::new("exports");
    let otlp = s.path().join("rows.otlp.jsonl");
    let ecs = s.path().join("rows.ecs.ndjson");
    for p in [&otlp, &ecs] {
        let r = mqdiag(&[
            "timeline",
            "fixtures/calls",
            "-q",
            "-o",
            p.to_str().unwrap(),
        ]);
        assert_eq!(r.code, 0, "{}", r.stderr);
    }
    let first = |p: &std::path::Path| -> Value {
        let text = std::fs::read_to_string(p).unwrap();
        serde_json::from_str(text.lines().next().unwrap()).unwrap()
    };
    assert!(
        first(&otlp).get("resourceLogs").is_some(),
        "{}",
        first(&otlp)
    );
    assert!(first(&ecs).get("@timestamp").is_some(), "{}", first(&ecs));
    let plain = s.path().join("rows.jsonl");
    mqdiag(&[
        "timeline",
        "fixtures/calls",
        "-q",
        "-o",
        plain.to_str().unwrap(),
    ]);
    assert!(first(&plain).get("ts").is_some());
}

#[test]
fn every_finding_says_why_it_has_its_severity_in_every_format() {
    let v: Value = serde_json::from_str(&stdout_of(&[
        "analyze",
        "fixtures/",
        "--format",
        "json",
        "-q",
    ]))
    .unwrap();
    let findings = v["findings"].as_array().unwrap();
    assert!(findings.len() > 10);
    let mut moved = 0;
    for f in findings {
        let why = f["severity_reason"].as_str().unwrap();
        let sev = f["severity"].as_str().unwrap();
        assert!(why.starts_with(sev), "{why} for a {sev} finding");
        if why.contains(", not ") {
            moved += 1;
        }
    }
    assert!(moved > 0, "no finding's severity was raised or lowered");
    let text = stdout_of(&["analyze", "fixtures/case-mixed", "-q"]);
    assert!(text.contains("    severity error: "), "{text}");
    let md = stdout_of(&[
        "analyze",
        "fixtures/case-mixed",
        "-q",
        "--format",
        "markdown",
    ]);
    assert!(md.contains("**Severity:** error (error: "), "{md}");
    let html = stdout_of(&["analyze", "fixtures/case-mixed", "-q", "--format", "html"]);
    assert!(html.contains("Severity: error: "));
    let sarif = stdout_of(&["analyze", "fixtures/case-mixed", "-q", "--format", "sarif"]);
    assert!(sarif.contains("\"severity_reason\""));
    let ecs = stdout_of(&["analyze", "fixtures/case-mixed", "-q", "--format", "ecs"]);
    assert!(ecs.contains("\"severity_reason\""));
}

#[test]
fn text_reports_show_no_null() {
    // An SMF DNS finding has no address: `unknown`, not `null`.
    for format in ["text", "markdown", "html"] {
        let out = stdout_of(&["analyze", "fixtures/case-mixed", "-q", "--format", format]);
        assert!(
            !out.contains("=null") && !out.contains(">null<"),
            "{format}"
        );
        assert!(!out.contains("| null |"), "{format}");
    }
    let text = stdout_of(&["analyze", "fixtures/case-mixed", "-q"]);
    assert!(text.contains("address=unknown"), "{text}");
}

#[test]
fn the_man_page_exit_status_covers_compare() {
    let man = stdout_of(&["man"]);
    let exit = man.split("EXIT STATUS").nth(1).unwrap();
    let exit = exit.split(".SH").next().unwrap();
    assert!(exit.contains("compare --fail-on"), "{exit}");
    assert!(exit.contains("--allow-empty"), "{exit}");
    assert!(exit.contains("does not exist"), "{exit}");
}
