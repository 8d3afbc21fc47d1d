//! Hostile names and text, end to end: file names with bytes that are not
//! UTF-8, a newline and Markdown/HTML syntax; zip members whose names
//! differ only by `./` or `//`; a trace line holding terminal escapes. Every
//! input keeps its own name and no output of any verb carries a raw
//! control character.

#![cfg(unix)]

use serde_json::Value;
use std::collections::BTreeSet;
use std::ffi::OsStr;
use std::fs;
use std::io::{Cursor, Write};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::process::Command;

const ERRLOG: &[u8] = include_bytes!("../fixtures/client-errors/AMQERR01.LOG");
const TRACE: &[u8] = include_bytes!("../fixtures/trace/AMQ622742.0.FMT");
const EVIL: &[u8] = b"\x1b[31mRED\x1b]0;title\x07 \xc2\x9b";

fn case(root: &Path) {
    let d = root.join("d");
    fs::create_dir_all(&d).unwrap();
    // Contents differ by trailing blank lines: identical files would be
    // read once (duplicates), and each name must be seen here.
    for (k, name) in [
        &b"AMQ\xff.LOG"[..],
        b"AMQ\xfe.LOG",
        b"x\n# Injected\n<img src=x onerror=alert(1)>\x1b[2J.LOG",
    ]
    .into_iter()
    .enumerate()
    {
        let body = [ERRLOG, &b"\n".repeat(k)].concat();
        fs::write(d.join(OsStr::from_bytes(name)), body).unwrap();
    }
    // The trace's last line gets terminal escapes and a C1 control.
    let mut t = TRACE.to_vec();
    while t.last() == Some(&b'\n') {
        t.pop();
    }
    t.extend_from_slice(b" ");
    t.extend_from_slice(EVIL);
    t.push(b'\n');
    fs::write(d.join("AMQ622742.0.FMT"), &t).unwrap();

    let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let o = zip::write::SimpleFileOptions::default();
    for (k, name) in [
        "errors/AMQERR01.LOG",
        "./errors/AMQERR01.LOG",
        "t/x",
        "t//x",
        "t/\x1b[31mred\x1b]0;title\x07.LOG",
    ]
    .into_iter()
    .enumerate()
    {
        w.start_file(name, o).unwrap();
        w.write_all(&[ERRLOG, &b"\n".repeat(k + 3)].concat())
            .unwrap();
    }
    let z = w.finish().unwrap().into_inner();
    fs::write(root.join("case.zip"), z).unwrap();
}

fn run(dir: &Path, args: &[&str]) -> Vec<u8> {
    let o = Command::new(env!("CARGO_BIN_EXE_mqdiag"))
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap();
    assert!(o.status.code().is_some_and(|c| c < 2), "{args:?}: {o:?}");
    o.stdout
}

/// The first raw control character (C0 but tab and line end, DEL, C1).
fn raw_control(b: &[u8]) -> Option<usize> {
    (0..b.len()).find(|&i| {
        let c = b[i];
        (c < 0x20 && c != b'\t' && c != b'\n')
            || c == 0x7f
            || (c == 0xc2 && b.get(i + 1).is_some_and(|n| (0x80..=0x9f).contains(n)))
    })
}

#[test]
fn every_output_escapes_controls_and_keeps_names_apart() {
    let tmp = tempfile::tempdir().unwrap();
    case(tmp.path());
    let runs: &[&[&str]] = &[
        &["analyze", "d", "case.zip"],
        &["analyze", "d", "case.zip", "--format", "json"],
        &["analyze", "d", "case.zip", "--format", "markdown"],
        &["analyze", "d", "case.zip", "--format", "html"],
        &["analyze", "d", "case.zip", "--format", "sarif"],
        &["inventory", "d", "case.zip"],
        &["inventory", "d", "case.zip", "--format", "json"],
        &["timeline", "d", "case.zip"],
        &["timeline", "d", "case.zip", "--format", "csv"],
        &["timeline", "d", "case.zip", "--format", "jsonl"],
        &["calls", "d", "case.zip"],
        &["calls", "d", "case.zip", "--format", "csv"],
        &["calls", "d", "case.zip", "--format", "json"],
    ];
    for args in runs {
        let out = run(tmp.path(), args);
        // JSON too: serde_json escapes C0, we escape DEL and C1.
        if let Some(i) = raw_control(&out) {
            let s = String::from_utf8_lossy(&out[i.saturating_sub(60)..(i + 20).min(out.len())]);
            panic!("{args:?}: raw control at byte {i}: {s:?}");
        }
        let s = String::from_utf8_lossy(&out);
        // Markup only matters where a viewer renders it.
        // (Markdown shows file names in code spans, where it is inert.)
        if args.contains(&"html") {
            assert!(!s.contains("<img"), "{args:?} passes HTML through");
        }
        if args.contains(&"markdown") {
            for l in s.lines().filter(|l| l.contains("<img")) {
                let before = &l[..l.find("<img").unwrap()];
                assert!(
                    before.matches('`').count() % 2 == 1,
                    "markup outside a code span: {l}"
                );
            }
        }
        assert!(
            !s.lines().any(|l| l.starts_with("# Injected")),
            "{args:?}: a file name started a line"
        );
    }
    // Timeline text shows the escapes as text.
    let t = String::from_utf8(run(tmp.path(), &["timeline", "d"])).unwrap();
    assert!(t.contains(r"\x1b[31mRED\x1b]0;title\x07 \x9b"), "{t}");
    assert!(t.contains(r"d/AMQ\xff.LOG:1") && t.contains(r"d/AMQ\xfe.LOG:1"));

    // Nine inputs, nine names: none collapsed into another.
    let inv: Value = serde_json::from_slice(&run(
        tmp.path(),
        &["inventory", "d", "case.zip", "--format", "json"],
    ))
    .unwrap();
    let read: BTreeSet<String> = inv["files"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["format"] != "unknown")
        .map(|f| f["path"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(read.len(), 9, "{read:#?}");
    assert!(
        read.contains("case.zip!errors/AMQERR01.LOG (2)"),
        "{read:#?}"
    );
    assert!(read.contains("case.zip!t/x (2)"), "{read:#?}");
    // The collision is told, on the archive's row.
    let told: u64 = inv["files"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["path"] == "case.zip")
        .map(|f| f["problem_count"].as_u64().unwrap())
        .sum();
    assert_eq!(told, 2, "{inv}");
}
