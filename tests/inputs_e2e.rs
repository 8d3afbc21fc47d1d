//! Inputs as a pipeline gives them, and paths as ripgrep treats them
//! (issue 41): `-` and `/dev/stdin` read standard input, process
//! substitution and FIFOs named on the command line are read as streams,
//! a FIFO inside a directory is skipped with a note; a path that does not
//! exist is an error naming it while the rest is read, and the run exits
//! 2 unless `--fail-on` gives 1.

mod common;

use common::{Scratch, jsonl, mqdiag};
use std::io::Write;
use std::process::{Command, Stdio};

const LOG: &str = "fixtures/errlog/qmgrs/QM1/errors/AMQERR01.LOG";

/// Run mqdiag with `input` piped into its standard input.
fn piped(args: &[&str], input: &[u8]) -> (String, String, i32) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mqdiag"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let data = input.to_vec();
    let feeder = std::thread::spawn(move || {
        let _ = stdin.write_all(&data);
    });
    let out = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

fn log_bytes() -> Vec<u8> {
    std::fs::read(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(LOG)).unwrap()
}

/// Rows with their `path` taken out, and the paths seen.
fn without_path(rows: &str) -> (Vec<serde_json::Value>, Vec<String>) {
    let mut paths = Vec::new();
    let rows = jsonl(rows)
        .into_iter()
        .map(|mut r| {
            paths.push(r["path"].as_str().unwrap().to_string());
            r.as_object_mut().unwrap().remove("path");
            r
        })
        .collect();
    paths.sort();
    paths.dedup();
    (rows, paths)
}

#[test]
fn a_dash_reads_standard_input_like_the_file() {
    // A file whose path says nothing (a path under `qmgrs/QM1/errors`
    // tells the log's scope, which a stream cannot).
    let s = Scratch::new("stdin-log");
    let log = s.write("log", &log_bytes()).to_string_lossy().into_owned();
    let file = mqdiag(&["timeline", &log, "--format", "jsonl"]);
    assert_eq!(file.code, 0, "{}", file.stderr);
    let (out, err, code) = piped(&["timeline", "-", "--format", "jsonl"], &log_bytes());
    assert_eq!(code, 0, "{err}");
    let (a, _) = without_path(&file.stdout);
    let (b, paths) = without_path(&out);
    assert!(!a.is_empty());
    assert!(a == b, "rows differ:\n{}\n{out}", file.stdout);
    assert_eq!(paths, ["<stdin>"]);
    // The text timeline too: the same rows but for the path.
    let file = mqdiag(&["timeline", &log]);
    let (out, _, code) = piped(&["timeline", "-"], &log_bytes());
    assert_eq!(code, 0);
    assert!(!out.is_empty());
    assert_eq!(file.stdout.replace(&log, "<stdin>"), out);
}

#[test]
fn dev_stdin_and_process_substitution_are_streams() {
    let (out, err, code) = piped(
        &["timeline", "/dev/stdin", "--format", "jsonl"],
        &log_bytes(),
    );
    assert_eq!(code, 0, "{err}");
    let (rows, paths) = without_path(&out);
    assert!(!rows.is_empty());
    assert_eq!(paths, ["/dev/stdin"]);
    let has_bash = Command::new("bash").arg("-c").arg("true").status().is_ok();
    if !has_bash {
        eprintln!("no bash: process substitution not tried");
        return;
    }
    let out = Command::new("bash")
        .arg("-c")
        .arg(format!("\"$0\" inventory <(cat {LOG}) --format json",))
        .arg(env!("CARGO_BIN_EXE_mqdiag"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let f = &v["files"][0];
    assert_eq!(f["format"], "errlog-text", "{f}");
    assert!(f["events"].as_u64().unwrap() > 0);
}

#[test]
fn standard_input_may_be_an_archive_and_is_read_once_under_redact() {
    let zip = common::zip_deflated(&[("errors/AMQERR01.LOG", &log_bytes())]);
    let (out, err, code) = piped(&["inventory", "-", "--format", "json"], &zip);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["files"][0]["path"], "<stdin>!errors/AMQERR01.LOG");
    // `--redact` discovers the inputs twice; the stream is read once.
    let (out, err, code) = piped(
        &["timeline", "-", "--redact", "--format", "jsonl"],
        &log_bytes(),
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        jsonl(&out).len(),
        jsonl(&mqdiag(&["timeline", LOG, "--format", "jsonl"]).stdout).len()
    );
}

#[cfg(unix)]
#[test]
fn a_fifo_inside_a_directory_is_skipped_with_a_note() {
    let s = Scratch::new("fifo-dir");
    s.write("errors/AMQERR01.LOG", &log_bytes());
    let fifo = s.path().join("errors/pipe");
    let made = Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|m| m.success()) {
        eprintln!("no mkfifo: skipped");
        return;
    }
    let r = mqdiag(&["inventory", &s.str(), "--format", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    let row = v["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["path"].as_str().unwrap().ends_with("/pipe"))
        .expect("a row for the FIFO");
    assert_eq!(row["problems"][0]["severity"], "info", "{row}");
    assert!(
        row["problems"][0]["message"]
            .as_str()
            .unwrap()
            .contains("skipped"),
        "{row}"
    );
}

#[test]
fn a_mistyped_path_is_an_error_and_the_rest_is_read() {
    for verb in ["timeline", "calls", "inventory", "analyze"] {
        let r = mqdiag(&[verb, "/nonexistent", "fixtures/calls", "-q"]);
        assert_eq!(r.code, 2, "{verb}: {}", r.stderr);
        assert!(
            r.stderr.contains("mqdiag: /nonexistent: cannot read:"),
            "{verb}: {}",
            r.stderr
        );
        assert_eq!(
            r.stderr.matches("/nonexistent").count(),
            1,
            "{verb}: said once"
        );
        assert!(!r.stdout.is_empty(), "{verb}: the rest is read");
    }
    // Said once even when the inputs are discovered twice (--redact).
    let r = mqdiag(&["timeline", "/nonexistent", "fixtures/calls", "--redact"]);
    assert_eq!(r.code, 2);
    assert_eq!(r.stderr.matches("/nonexistent").count(), 1, "{}", r.stderr);
    // Findings at or above --fail-on come first: 1, the gate's answer.
    let r = mqdiag(&[
        "analyze",
        "/nonexistent",
        "fixtures/calls",
        "-q",
        "--fail-on",
        "warning",
    ]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("/nonexistent"));
    let r = mqdiag(&[
        "analyze",
        "/nonexistent",
        "fixtures/healthy",
        "-q",
        "--fail-on",
        "warning",
    ]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    // Every path missing: nothing to read at all.
    let r = mqdiag(&["timeline", "/nonexistent", "/nonexistent2"]);
    assert_eq!(r.code, 2);
    assert!(r.stdout.is_empty());
    assert!(r.stderr.contains("/nonexistent2"), "{}", r.stderr);
}

#[cfg(unix)]
#[test]
fn an_unreadable_named_file_is_an_error_naming_it() {
    use std::os::unix::fs::PermissionsExt;
    let s = Scratch::new("unreadable-named");
    let p = s.write("AMQERR01.LOG", &log_bytes());
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o000)).unwrap();
    if std::fs::File::open(&p).is_ok() {
        eprintln!("running as root: permissions not enforced, skipped");
        return;
    }
    let ps = p.to_string_lossy().into_owned();
    let r = mqdiag(&["timeline", &ps, "fixtures/calls", "-q"]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains(&format!("mqdiag: {ps}: cannot read:")),
        "{}",
        r.stderr
    );
}
