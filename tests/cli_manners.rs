//! The command line's manners: verb typos, `-o` (format from the
//! extension, `-`, evidence read-only, nothing half-written), numeric
//! ranges, write errors, completions and the man page.

mod common;
use common::*;
use std::fs;
use std::path::Path;

const HEALTHY: &str = "fixtures/healthy";

fn scratch() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

#[test]
fn mistyped_verbs_get_a_suggestion() {
    for (typo, verb) in [
        ("analyse", "analyze"),
        ("inventroy", "inventory"),
        ("timelne", "timeline"),
    ] {
        let r = mqdiag(&[typo, "x"]);
        assert_eq!(r.code, 2, "{typo}: {}", r.stderr);
        assert!(
            r.stderr.contains(&format!("did you mean `{verb}`?")),
            "{}",
            r.stderr
        );
    }
    // An existing path is input, even when named like a verb.
    let d = scratch();
    let p = d.path().join("analyse");
    fs::copy("fixtures/client-errors/AMQERR01.LOG", &p).unwrap();
    let r = mqdiag(&[p.to_str().unwrap(), "-q"]);
    assert_ne!(r.code, 2, "{}", r.stderr);
}

#[test]
fn output_format_follows_the_extension() {
    let d = scratch();
    let csv = d.path().join("rows.csv");
    let r = mqdiag(&["timeline", HEALTHY, "-q", "-o", csv.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let s = fs::read_to_string(&csv).unwrap();
    assert!(s.starts_with("ts,end,path,line,"), "{}", &s[..80]);
    let jsonl = d.path().join("rows.jsonl");
    assert_eq!(
        mqdiag(&["timeline", HEALTHY, "-q", "-o", jsonl.to_str().unwrap()]).code,
        0
    );
    let first = fs::read_to_string(&jsonl).unwrap();
    serde_json::from_str::<serde_json::Value>(first.lines().next().unwrap()).unwrap();
    let inv = d.path().join("inv.json");
    assert_eq!(
        mqdiag(&["inventory", HEALTHY, "-q", "-o", inv.to_str().unwrap()]).code,
        0
    );
    serde_json::from_str::<serde_json::Value>(&fs::read_to_string(&inv).unwrap()).unwrap();
    let md = d.path().join("r.md");
    assert_eq!(
        mqdiag(&["analyze", HEALTHY, "-q", "-o", md.to_str().unwrap()]).code,
        0
    );
    assert!(fs::read_to_string(&md).unwrap().starts_with('#'));
    // An extension the verb cannot write names the ones it can.
    let r = mqdiag(&[
        "timeline",
        HEALTHY,
        "-o",
        d.path().join("r.html").to_str().unwrap(),
    ]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains(".csv") && r.stderr.contains(".jsonl"),
        "{}",
        r.stderr
    );
    let r = mqdiag(&[
        "analyze",
        HEALTHY,
        "-o",
        d.path().join("r.csv").to_str().unwrap(),
    ]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains(".sarif"), "{}", r.stderr);
    // `-o -` is standard output.
    let r = mqdiag(&["inventory", HEALTHY, "-q", "-o", "-"]);
    assert_eq!(r.code, 0);
    assert!(r.stdout.contains("AMQ9120.0.FMT"), "{}", r.stdout);
    assert!(!Path::new("-").exists());
}

#[test]
fn evidence_is_read_only() {
    let d = scratch();
    let ev = d.path().join("evidence");
    fs::create_dir(&ev).unwrap();
    let log = ev.join("AMQERR01.LOG");
    fs::copy("fixtures/client-errors/AMQERR01.LOG", &log).unwrap();
    let before = fs::read(&log).unwrap();
    let l = log.to_str().unwrap();
    for args in [
        vec!["analyze", l, "--format", "json", "-o", l],
        vec!["timeline", l, "--format", "csv", "-o", l],
        vec![
            "inventory",
            ev.to_str().unwrap(),
            "--format",
            "json",
            "-o",
            l,
        ],
        // Under an input directory, new file or not.
        vec![
            "analyze",
            ev.to_str().unwrap(),
            "-o",
            ev.join("report.json").to_str().unwrap(),
        ],
    ] {
        let r = mqdiag(&args);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains("read-only"), "{}", r.stderr);
    }
    assert_eq!(fs::read(&log).unwrap(), before);
    assert!(!ev.join("report.json").exists());
    assert_eq!(
        fs::read_dir(&ev).unwrap().count(),
        1,
        "nothing left in the evidence"
    );
    // The baseline being read is no output either.
    let base = d.path().join("base.json");
    assert_eq!(
        mqdiag(&["analyze", l, "-q", "-o", base.to_str().unwrap()]).code,
        0
    );
    let r = mqdiag(&[
        "analyze",
        l,
        "--baseline",
        base.to_str().unwrap(),
        "-o",
        base.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 2, "{}", r.stderr);
}

#[test]
fn a_failed_run_leaves_the_output_untouched() {
    let d = scratch();
    let out = d.path().join("report.txt");
    fs::write(&out, "an earlier report\n").unwrap();
    // Nothing readable: exit 2, and the earlier report is still there.
    let empty = d.path().join("empty");
    fs::create_dir(&empty).unwrap();
    let r = mqdiag(&[
        "inventory",
        empty.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert_eq!(fs::read_to_string(&out).unwrap(), "an earlier report\n");
    assert_eq!(
        fs::read_dir(d.path()).unwrap().count(),
        2,
        "a temporary file was left"
    );
    // A missing directory fails before any input is read.
    let r = mqdiag(&["inventory", "/nonexistent-input", "-o", "/nonexistent/x"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("/nonexistent"), "{}", r.stderr);
    assert!(
        !r.stderr.contains("nonexistent-input"),
        "input was looked at: {}",
        r.stderr
    );
}

#[test]
fn numbers_out_of_range_are_usage_errors() {
    for args in [
        vec![HEALTHY, "-j", "100000"],
        vec![HEALTHY, "-j", "0"],
        vec!["timeline", HEALTHY, "-j", "257"],
    ] {
        let r = mqdiag(&args);
        assert_eq!(r.code, 2, "{args:?}");
        assert!(r.stderr.contains("between 1 and 256"), "{}", r.stderr);
    }
    assert_eq!(mqdiag(&[HEALTHY, "-q", "-j", "256"]).code, 0);
    let r = mqdiag(&[
        "analyze",
        "fixtures/trace",
        "-q",
        "--set",
        "slow-dns.correlate_s=1e15",
    ]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("between 0 and"), "{}", r.stderr);
}

#[cfg(target_os = "linux")]
#[test]
fn write_errors_are_exit_2() {
    use std::process::{Command, Stdio};
    for args in [vec!["--help"], vec!["analyze", HEALTHY, "-q"], vec!["man"]] {
        let st = Command::new(env!("CARGO_BIN_EXE_mqdiag"))
            .args(&args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdout(Stdio::from(fs::File::create("/dev/full").unwrap()))
            .stderr(Stdio::null())
            .status()
            .unwrap();
        assert_eq!(st.code(), Some(2), "{args:?}");
    }
}

#[test]
fn completions_and_man_page() {
    for sh in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let r = mqdiag(&["completions", sh]);
        assert_eq!(r.code, 0, "{sh}: {}", r.stderr);
        assert!(r.stdout.contains("inventory"), "{sh}");
    }
    assert_eq!(mqdiag(&["completions", "tcsh"]).code, 2);
    let r = mqdiag(&["man"]);
    assert_eq!(r.code, 0);
    assert!(
        r.stdout.contains(".TH mqdiag"),
        "{}",
        &r.stdout[..200.min(r.stdout.len())]
    );
}

#[test]
fn time_windows() {
    const CASE: &str = "fixtures/case-mixed";
    // Local forms in --tz; the resolved window is told on stderr.
    let r = mqdiag(&[
        "timeline",
        CASE,
        "--tz",
        "-04:00",
        "--since",
        "2025-03-14 06:22:44",
        "--until",
        "06:22:47.03",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("window: 2025-03-14T06:22:44-04:00 .. 2025-03-14T06:22:47.030-04:00"),
        "{}",
        r.stderr
    );
    assert!(r.stdout.contains("06:22:47.020875-04:00"), "{}", r.stdout);
    assert!(!r.stdout.contains("06:22:41"), "{}", r.stdout);
    // Without --tz a time of day is read on each file's own clock (issue
    // 41), on the day of the first trace or error log: the same window,
    // told so, for every verb that takes one.
    for verb in ["timeline", "analyze", "calls"] {
        let r = mqdiag(&[verb, CASE, "--since", "06:22:44", "--until", "06:22:47.03"]);
        assert!(r.code == 0 || r.code == 1, "{verb}: {}", r.stderr);
        assert!(
            r.stderr.contains(
                "window: 2025-03-14T06:22:44 .. 2025-03-14T06:22:47.030 (each file's own clock)"
            ),
            "{verb}: {}",
            r.stderr
        );
    }
    // A whole day, quietly.
    let r = mqdiag(&[
        "timeline",
        CASE,
        "-q",
        "--since",
        "2025-03-14",
        "--until",
        "2025-03-14",
    ]);
    assert_eq!(r.code, 0);
    assert!(r.stderr.is_empty(), "{}", r.stderr);
    assert!(r.stdout.lines().count() > 20);
    // A window after every event is an error naming the inputs' span.
    let r = mqdiag(&["timeline", CASE, "-q", "--since", "2025-03-15"]);
    assert_eq!(r.stdout, "");
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("excludes every event"), "{}", r.stderr);
    // Since after until, and text that is no time.
    let r = mqdiag(&[
        "timeline",
        CASE,
        "--since",
        "2025-03-15",
        "--until",
        "2025-03-14",
    ]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("is after"), "{}", r.stderr);
    assert_eq!(mqdiag(&["analyze", CASE, "--since", "noon"]).code, 2);
}

#[test]
fn colour_only_when_asked_or_on_a_terminal() {
    let always = mqdiag(&["analyze", "fixtures/client-errors", "--color", "always"]);
    assert!(
        always.stdout.contains("\x1b[1;33mwarning\x1b[0m"),
        "{}",
        always.stdout
    );
    // Not a terminal here: auto means none; never means none.
    for extra in [&[][..], &["--color", "never"][..], &["--color", "auto"][..]] {
        let mut args = vec!["analyze", "fixtures/client-errors"];
        args.extend_from_slice(extra);
        let r = mqdiag(&args);
        assert!(!r.stdout.contains('\x1b'), "{extra:?}: {}", r.stdout);
    }
    // A file report never gets colour unless asked.
    let d = scratch();
    let out = d.path().join("r.txt");
    let r = mqdiag(&[
        "analyze",
        "fixtures/client-errors",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(!fs::read_to_string(&out).unwrap().contains('\x1b'));
    // Colour does not let an escape sequence from an input through (here
    // in a directory name, printed with the evidence).
    let dir = d.path().join("case\x1b[2J");
    fs::create_dir(&dir).unwrap();
    fs::copy(
        "fixtures/client-errors/AMQERR01.LOG",
        dir.join("AMQERR01.LOG"),
    )
    .unwrap();
    let r = mqdiag(&["analyze", dir.to_str().unwrap(), "--color", "always"]);
    assert!(r.stdout.contains("case\\x1b[2J"), "{}", r.stdout);
    assert!(!r.stdout.contains("\x1b[2J"), "{}", r.stdout);
}

/// Help fits 80 columns when standard output is not a terminal (as here).
#[test]
fn help_fits_eighty_columns() {
    for verb in [
        &[][..],
        &["analyze"],
        &["timeline"],
        &["inventory"],
        &["calls"],
        &["rules"],
        &["completions"],
    ] {
        let mut args = verb.to_vec();
        args.push("--help");
        let r = mqdiag(&args);
        assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
        for l in r.stdout.lines() {
            assert!(
                l.chars().count() <= 80,
                "{args:?}: {} columns: {l}",
                l.chars().count()
            );
        }
    }
}
