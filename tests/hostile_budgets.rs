//! Budgets that must hold for inputs sized to break them, built at run
//! time: each run bounded in time, address space and resident memory.

mod common;

use common::{Bounded, Scratch, run_limited};
use std::io::Write;
use std::path::Path;

const TRACE: &str = include_str!("../fixtures/trace/AMQ622742.0.FMT");

/// Seconds one run may take (a debug build on a loaded machine).
const LIMIT: u64 = 30;
/// Address space: a wall against runaway growth (a debug build's threads
/// reserve far more than they use).
const AS: u64 = 2 << 30;
/// Peak resident memory a run may reach.
const MAX_RSS_KIB: u64 = 256 << 10;

fn run(dir: &Path, args: &[&str]) -> Bounded {
    let r = run_limited(dir, args, LIMIT, Some(AS));
    eprintln!(
        "{args:?}: exit {} in {:.2} s, peak RSS {:?} KiB",
        r.code, r.secs, r.peak_rss_kib
    );
    if let Some(k) = r.peak_rss_kib {
        assert!(k < MAX_RSS_KIB, "{args:?}: peak RSS {k} KiB");
    }
    r
}

/// A 30 MB baseline report (many findings, each with many small evidence
/// objects: built as values, several times its size): only its
/// fingerprints are kept.
#[test]
fn a_large_baseline_is_read_for_its_fingerprints_only() {
    let d = Scratch::new("baseline");
    d.write("case/AMQ622742.0.FMT", TRACE.as_bytes());
    let mut f = std::io::BufWriter::new(std::fs::File::create(d.path().join("base.json")).unwrap());
    write!(
        f,
        "{{\"schema_version\": 1, \"inputs\": [], \"findings\": ["
    )
    .unwrap();
    for i in 0..10_000 {
        if i > 0 {
            write!(f, ",").unwrap();
        }
        write!(
            f,
            "{{\"rule\": \"fdc\", \"severity\": \"error\", \"title\": \"t\", \"fingerprint\": \"fdc:{i:016x}\", \"evidence\": ["
        )
        .unwrap();
        for k in 0..80 {
            if k > 0 {
                write!(f, ",").unwrap();
            }
            write!(f, "{{\"path\":\"a\",\"line\":{k},\"text\":\"t\"}}").unwrap();
        }
        write!(f, "]}}").unwrap();
    }
    write!(f, "]}}").unwrap();
    f.flush().unwrap();
    drop(f);
    let r = run(
        d.path(),
        &[
            "analyze",
            "--format",
            "json",
            "-q",
            "--baseline",
            "base.json",
            "case",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout_head).unwrap();
    assert_eq!(v["run"]["baseline"], "base.json");
}
