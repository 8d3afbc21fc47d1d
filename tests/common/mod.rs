//! Run the built binary from the crate root (so fixture paths in the output
//! are the relative paths given) and look at what it wrote.
#![allow(dead_code)]

use serde_json::Value;

// The binary runner is shared with the other end-to-end tests.
#[path = "../util/mod.rs"]
mod util;
pub use util::mqdiag;

/// `analyze --format json` on these paths (plus extra args); exit 0 expected.
pub fn analyze_json(args: &[&str]) -> Value {
    let mut a = vec!["analyze", "--format", "json"];
    a.extend_from_slice(args);
    let r = mqdiag(&a);
    assert_eq!(r.code, 0, "exit code; stderr: {}", r.stderr);
    serde_json::from_str(&r.stdout).expect("JSON report")
}

pub fn findings<'a>(v: &'a Value, rule: &str) -> Vec<&'a Value> {
    v["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["rule"] == rule)
        .collect()
}

/// The one finding of `rule`; fails when there are none or several.
pub fn one<'a>(v: &'a Value, rule: &str) -> &'a Value {
    let f = findings(v, rule);
    assert_eq!(f.len(), 1, "expected one {rule} finding, got {f:#?}");
    f[0]
}

pub fn evidence_lines(f: &Value) -> Vec<u64> {
    f["evidence"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["line"].as_u64().unwrap())
        .collect()
}

pub fn num(f: &Value, metric: &str) -> f64 {
    f["metrics"][metric]
        .as_f64()
        .unwrap_or_else(|| panic!("metric {metric} is not a number in {f:#}"))
}
