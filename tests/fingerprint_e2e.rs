//! Fingerprints of identity, not of incarnation (issue 41): the same
//! capture after every process restarted (other pids, so other trace file
//! names) keeps every finding's fingerprint, so `compare` finds nothing
//! new or gone and a baseline still covers every finding.

mod common;

use common::{Scratch, mqdiag, stdout_of};
use regex::Regex;
use serde_json::Value;
use std::path::Path;

/// Fixtures of traces whose pids are long enough to be replaced in the
/// text without touching anything else.
const CASES: &[&str] = &["fixtures/calls", "fixtures/trace"];

/// Copy `from` into `to`; with `shift`, every pid (taken from the
/// `AMQ<pid>.` file names) is replaced by pid + shift, in names and text.
fn copy(from: &Path, to: &Path, shift: Option<u32>) {
    std::fs::create_dir_all(to).unwrap();
    let name_pid = Regex::new(r"^AMQ(\d+)\.").unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let name = e.file_name().to_string_lossy().into_owned();
        if e.file_type().unwrap().is_dir() {
            copy(&e.path(), &to.join(&name), shift);
            continue;
        }
        let mut bytes = std::fs::read(e.path()).unwrap();
        let mut out_name = name.clone();
        if let (Some(shift), Some(c)) = (shift, name_pid.captures(&name)) {
            let pid = &c[1];
            let new = (pid.parse::<u32>().unwrap() + shift).to_string();
            out_name = name.replacen(pid, &new, 1);
            let re = Regex::new(&format!(r"\b{pid}\b")).unwrap();
            let text = String::from_utf8_lossy(&bytes).into_owned();
            assert!(re.is_match(&text), "{name} never names its pid");
            bytes = re
                .replace_all(&text, new.as_str())
                .into_owned()
                .into_bytes();
        }
        std::fs::write(to.join(out_name), bytes).unwrap();
    }
}

/// The two captures: as they were, and after every process restarted.
fn captures(s: &Scratch) -> (String, String) {
    let (a, b) = (s.path().join("before"), s.path().join("after"));
    for case in CASES {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join(case);
        let leaf = Path::new(case).file_name().unwrap();
        copy(&src, &a.join(leaf), None);
        copy(&src, &b.join(leaf), Some(1111));
    }
    (
        a.to_string_lossy().into_owned(),
        b.to_string_lossy().into_owned(),
    )
}

fn report(path: &str, extra: &[&str]) -> Value {
    let mut args = vec!["analyze", path, "-q", "--format", "json"];
    args.extend_from_slice(extra);
    serde_json::from_str(&stdout_of(&args)).unwrap()
}

fn fingerprints(v: &Value) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["fingerprint"].as_str().unwrap().to_string(),
                f["title"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    out.sort();
    out
}

#[test]
fn a_restart_keeps_every_fingerprint() {
    let s = Scratch::new("restart");
    let (a, b) = captures(&s);
    let (ra, rb) = (report(&a, &[]), report(&b, &[]));
    let (fa, fb) = (fingerprints(&ra), fingerprints(&rb));
    assert!(fa.len() >= 7, "too few findings to test: {fa:?}");
    // The pids did change: the titles that name them differ.
    assert_ne!(fa, fb);
    let ids = |v: &[(String, String)]| v.iter().map(|x| x.0.clone()).collect::<Vec<_>>();
    assert_eq!(ids(&fa), ids(&fb));
}

#[test]
fn compare_and_baseline_see_no_change_after_a_restart() {
    let s = Scratch::new("restart-gate");
    let (a, b) = captures(&s);
    let r = mqdiag(&[
        "compare",
        &a,
        &b,
        "-q",
        "--format",
        "json",
        "--fail-on",
        "info",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let c: Value = serde_json::from_str(&r.stdout).unwrap();
    for list in ["new", "gone", "changed"] {
        assert_eq!(c["findings"][list], serde_json::json!([]), "{list}");
    }
    let base = s.path().join("base.json");
    std::fs::write(&base, serde_json::to_string(&report(&a, &[])).unwrap()).unwrap();
    let v = report(&b, &["--baseline", base.to_str().unwrap()]);
    assert_eq!(v["summary"]["new"], 0, "{}", v["summary"]);
    assert!(v["summary"]["baseline"].as_u64().unwrap() >= 7);
    let r = mqdiag(&[
        "analyze",
        &b,
        "-q",
        "--baseline",
        base.to_str().unwrap(),
        "--fail-on",
        "info",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
}

#[test]
fn every_rule_states_its_fingerprint_and_findings_keep_to_it() {
    let v: Value = serde_json::from_str(&stdout_of(&["rules", "--format", "json"])).unwrap();
    let parts: std::collections::HashMap<String, Vec<String>> = v["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let p: Vec<String> = r["fingerprint"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_str().unwrap().to_string())
                .collect();
            (r["id"].as_str().unwrap().to_string(), p)
        })
        .collect();
    for (id, p) in &parts {
        assert_eq!(p[0], "rule", "{id}");
        assert!(p.len() > 1, "{id} states no part of its identity");
        for never in ["pid", "tid", "ident", "path", "file", "time"] {
            assert!(!p.iter().any(|x| x == never), "{id}: {never}");
        }
    }
    // A subject field a finding carries is a part of its rule's
    // fingerprint, or an incarnation (pid, tid, ident).
    let name = |field: &str| {
        match field {
            "qmgr" => "queue manager",
            "address" => "connection name",
            other => other,
        }
        .to_string()
    };
    let all = report("fixtures", &[]);
    for f in all["findings"].as_array().unwrap() {
        let rule = f["rule"].as_str().unwrap();
        for (k, _) in f["subject"].as_object().unwrap() {
            if ["pid", "tid", "ident"].contains(&k.as_str()) {
                continue;
            }
            // `user` is held by the rule's key (`mechanism, user or
            // application, object`), which names it.
            let keyed = k == "user" && parts[rule].iter().any(|p| p.contains("user"));
            assert!(
                keyed || parts[rule].contains(&name(k)),
                "{rule}: subject {k} is not in its fingerprint {:?}",
                parts[rule]
            );
        }
    }
    let text = stdout_of(&["rules"]);
    assert_eq!(
        text.matches("  Fingerprint (identity that survives a restart):")
            .count(),
        parts.len()
    );
}
