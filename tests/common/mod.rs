//! Helpers for the end-to-end tests: run the built binary from the crate
//! root (so fixture paths in the output are the relative paths given), read
//! what it wrote, make scratch directories.
//!
//! Every test binary compiles this module and uses a part of it: the
//! allowance below is for that, not for code no test uses (each helper here
//! is used by some test file).
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU32, Ordering};

pub struct Run {
    pub stdout: String,
    pub stderr: String,
    pub code: i32,
}

/// Run `mqdiag` with these arguments from the crate root.
pub fn mqdiag(args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_mqdiag"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run mqdiag");
    Run {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        code: out.status.code().unwrap_or(-1),
    }
}

/// The standard output of a `mqdiag` run that must succeed.
pub fn stdout_of(args: &[&str]) -> String {
    let r = mqdiag(args);
    assert_eq!(r.code, 0, "mqdiag {args:?} failed: {}", r.stderr);
    r.stdout
}

/// JSON lines of a `timeline --format jsonl` run.
pub fn jsonl(s: &str) -> Vec<serde_json::Value> {
    s.lines()
        .map(|l| serde_json::from_str(l).expect("valid JSON line"))
        .collect()
}

/// A scratch directory removed when dropped.
pub struct Scratch(pub PathBuf);

impl Scratch {
    pub fn new(tag: &str) -> Scratch {
        static N: AtomicU32 = AtomicU32::new(0);
        let p = std::env::temp_dir().join(format!(
            "mqdiag-test-{tag}-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::SeqCst)
        ));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).expect("scratch dir");
        Scratch(p)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }

    pub fn write(&self, name: &str, bytes: &[u8]) -> PathBuf {
        let p = self.0.join(name);
        if let Some(d) = p.parent() {
            std::fs::create_dir_all(d).expect("mkdir");
        }
        std::fs::write(&p, bytes).expect("write");
        p
    }

    pub fn str(&self) -> String {
        self.0.to_string_lossy().into_owned()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Instants of RFC 3339 timestamps, for order checks.
pub fn instant(ts: &str) -> i64 {
    chrono::DateTime::parse_from_rfc3339(ts)
        .expect("RFC 3339")
        .timestamp_nanos_opt()
        .expect("in range")
}

// Reports: `analyze --format json` and what its findings hold.

use serde_json::Value;

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
