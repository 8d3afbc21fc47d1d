//! Every verb, format and `--redact` gives byte-identical output at `-j 1`,
//! `-j 2` and `-j 8`, run after run: 30 rounds on a small mixed case (a
//! trace, error logs of two queue managers, SMF), so that output that
//! depends on thread timing or on a hash map's order, which changes from
//! process to process, shows up as a difference.

mod common;

use std::process::Command;
use std::sync::Mutex;

const CASE: &str = "fixtures/case-mixed";
const ROUNDS: usize = 30;
const JOBS: [&str; 3] = ["1", "2", "8"];

/// Every verb and output format.
const OUTPUTS: &[(&str, &str)] = &[
    ("analyze", "text"),
    ("analyze", "json"),
    ("analyze", "markdown"),
    ("analyze", "html"),
    ("analyze", "sarif"),
    ("timeline", "text"),
    ("timeline", "jsonl"),
    ("timeline", "csv"),
    ("inventory", "text"),
    ("inventory", "json"),
    ("calls", "text"),
    ("calls", "json"),
    ("calls", "csv"),
];

/// The output without what names the `-j` given: the command line a JSON
/// report records (`run.command`, SARIF `invocations`), or a text one.
fn without_jobs(out: Vec<u8>, jobs: &str) -> Vec<u8> {
    let text = String::from_utf8(out).expect("UTF-8 output");
    if let Ok(mut v) = serde_json::from_str::<serde_json::Value>(&text) {
        if let Some(run) = v.get_mut("run").and_then(|r| r.as_object_mut()) {
            run.remove("command");
        }
        if let Some(runs) = v.get_mut("runs").and_then(|r| r.as_array_mut()) {
            for r in runs {
                r.as_object_mut().unwrap().remove("invocations");
            }
        }
        return v.to_string().into_bytes();
    }
    text.replace(&format!(" -j {jobs}"), " -j J").into_bytes()
}

fn run(verb: &str, format: &str, redact: bool, jobs: &str) -> Vec<u8> {
    let mut c = Command::new(env!("CARGO_BIN_EXE_mqdiag"));
    c.args([verb, CASE, "--format", format, "-q", "-j", jobs]);
    if redact {
        c.arg("--redact");
    }
    let out = c
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run mqdiag");
    let code = out.status.code().unwrap_or(-1);
    assert!(
        code == 0 || code == 1,
        "{verb} {format} -j {jobs}: exit {code}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    without_jobs(out.stdout, jobs)
}

#[test]
fn every_output_is_the_same_for_any_worker_count_run_after_run() {
    let mut work = Vec::new();
    for (verb, format) in OUTPUTS {
        for redact in [false, true] {
            work.push((*verb, *format, redact));
        }
    }
    // The first round's `-j 1` output of each is the reference.
    let reference: Vec<Vec<u8>> = work.iter().map(|&(v, f, r)| run(v, f, r, "1")).collect();
    for (k, out) in reference.iter().enumerate() {
        assert!(out.len() > 100, "{:?}: {} bytes", work[k], out.len());
    }
    let queue: Mutex<Vec<(usize, &str)>> = Mutex::new(
        (0..ROUNDS)
            .flat_map(|round| {
                JOBS.iter()
                    .filter(move |j| round > 0 || **j != "1")
                    .flat_map(|j| (0..work.len()).map(move |k| (k, *j)))
                    .collect::<Vec<_>>()
            })
            .collect(),
    );
    let differ: Mutex<Vec<String>> = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| {
                loop {
                    let Some((k, jobs)) = queue.lock().unwrap().pop() else {
                        break;
                    };
                    let (v, f, r) = work[k];
                    if run(v, f, r, jobs) != reference[k] {
                        differ
                            .lock()
                            .unwrap()
                            .push(format!("{v} --format {f} redact={r} -j {jobs}"));
                    }
                }
            });
        }
    });
    let differ = differ.into_inner().unwrap();
    assert!(differ.is_empty(), "differs from -j 1: {differ:#?}");
}
