//! A reader with a bug must not take the run down, nor lose files
//! silently: its file gets a located `reader-panic` problem, every other
//! input is read, and every verb exits 2, with one worker or several. The
//! binary the tests run has a test reader (feature `panic-reader` of the
//! readers crate) that panics at the line its file names.

mod common;
use common::{Scratch, mqdiag};

/// A case of real fixtures and one file the test reader panics on at line 4
/// (after two events), read with this many workers.
fn case() -> Scratch {
    let s = Scratch::new("reader-panic");
    for f in [
        "fixtures/client-errors/AMQERR01.LOG",
        "fixtures/fdc/AMQ3321.0.FDC",
        "fixtures/trace/linux/AMQ4711.0.FMT",
    ] {
        let from = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(f);
        let name = from.file_name().unwrap().to_owned();
        std::fs::copy(&from, s.0.join(name)).unwrap();
    }
    std::fs::write(
        s.0.join("buggy.txt"),
        "MQDIAG-TEST-PANIC AT 4\n\
         2025-01-01T10:00:00Z first\n\
         2025-01-01T10:00:01Z second\n\
         2025-01-01T10:00:02Z never read\n\
         2025-01-01T10:00:03Z nor this\n",
    )
    .unwrap();
    s
}

fn inventory(dir: &str, jobs: &str) -> (i32, serde_json::Value, String) {
    let r = mqdiag(&["inventory", dir, "--format", "json", "-j", jobs, "-q"]);
    let v = serde_json::from_str(&r.stdout).expect("inventory JSON is written");
    (r.code, v, r.stderr)
}

#[test]
fn a_panicking_reader_is_a_located_problem_and_exit_2_with_any_workers() {
    let s = case();
    let dir = s.0.to_str().unwrap();
    let mut seen = Vec::new();
    for jobs in ["1", "2", "4"] {
        let (code, v, stderr) = inventory(dir, jobs);
        assert_eq!(code, 2, "-j {jobs}: {stderr}");
        assert!(stderr.contains("reader-panic"), "{stderr}");
        let files = v["files"].as_array().expect("files");
        let buggy = files
            .iter()
            .find(|f| f["path"].as_str().unwrap().ends_with("buggy.txt"))
            .expect("the buggy file has its row");
        let p = buggy["problems"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["code"] == "reader-panic")
            .expect("reader-panic problem");
        // Located: after the last line it gave (line 3), cause named.
        assert_eq!(p["line"], 3, "{p}");
        assert_eq!(p["severity"], "error");
        assert!(p["message"].as_str().unwrap().contains("panic at line 4"));
        assert_eq!(buggy["events"], 2, "{buggy}");
        // Every other input is read in full.
        for f in files.iter().filter(|f| f != &buggy) {
            assert!(f["events"].as_u64().unwrap() > 0, "{f}");
            assert_eq!(f["problem_count"], 0, "{f}");
        }
        seen.push(v);
    }
    assert!(seen.windows(2).all(|w| w[0] == w[1]), "-j changes the rows");
}

#[test]
fn every_verb_writes_its_output_from_the_other_inputs_and_exits_2() {
    let s = case();
    let dir = s.0.to_str().unwrap();
    let healthy = Scratch::new("reader-panic-healthy");
    for f in ["AMQERR01.LOG", "AMQ3321.0.FDC", "AMQ4711.0.FMT"] {
        std::fs::copy(s.0.join(f), healthy.0.join(f)).unwrap();
    }
    let hdir = healthy.0.to_str().unwrap();
    for verb in [
        &["analyze", "--format", "json"][..],
        &["timeline", "--format", "jsonl"],
        &["calls", "--format", "json"],
    ] {
        for jobs in ["1", "2"] {
            let mut args = verb.to_vec();
            args.insert(1, dir);
            args.extend(["-j", jobs, "-q"]);
            let r = mqdiag(&args);
            assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
            assert!(r.stderr.contains("reader-panic"), "{}", r.stderr);
            assert!(!r.stdout.is_empty(), "{args:?} wrote nothing");
        }
    }
    // The timeline holds every event of the healthy files, and the two the
    // buggy reader gave before it failed.
    let rows = |d: &str| {
        mqdiag(&["timeline", d, "--format", "jsonl", "-q"])
            .stdout
            .lines()
            .count()
    };
    assert_eq!(rows(dir), rows(hdir) + 2);
    // The analyze report names the problem.
    let r = mqdiag(&["analyze", dir, "--format", "json", "-q"]);
    assert!(r.stdout.contains("reader-panic"), "{}", r.stdout);
}
