//! Reading notes are not findings (issue 28 item 6): an assumed UTC offset,
//! a copy read once, a last record without its closing line go to the
//! reports' "Reading notes" and to `inventory`; a case packed loose and as
//! a zip gives the same findings, and so does a case holding both.

mod common;

use common::{Scratch, mqdiag};
use std::fs;
use std::io::{Cursor, Write};
use std::path::Path;

const CASE: &str = "fixtures/case-mixed";

fn zip_of(files: &[(String, Vec<u8>)]) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
    for (p, b) in files {
        let o = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated);
        w.start_file(p.as_str(), o).unwrap();
        w.write_all(b).unwrap();
    }
    w.finish().unwrap().into_inner()
}

/// (rule, severity, count, title) of each finding: what does not depend
/// on where a file sits (paths are in the evidence and fingerprints).
fn findings(path: &str) -> Vec<(String, String, u64, String)> {
    let r = mqdiag(&["analyze", path, "-q", "--format", "json"]);
    assert!(r.code == 0 || r.code == 1, "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    let mut out: Vec<_> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["rule"].as_str().unwrap().to_string(),
                f["severity"].as_str().unwrap().to_string(),
                f["count"].as_u64().unwrap(),
                f["title"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    out.sort();
    out
}

#[test]
fn loose_zipped_or_both_give_the_same_findings() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(CASE);
    let fs_ = common::files_under(&root);
    assert!(fs_.len() >= 4);
    let tmp = Scratch::new("notes-zip");
    let loose = tmp.0.join("loose");
    for (p, b) in &fs_ {
        let to = loose.join(p);
        fs::create_dir_all(to.parent().unwrap()).unwrap();
        fs::write(to, b).unwrap();
    }
    let zipped = tmp.write("zipped/case.zip", &zip_of(&fs_));
    let both = tmp.0.join("both");
    for (p, b) in &fs_ {
        let to = both.join(p);
        fs::create_dir_all(to.parent().unwrap()).unwrap();
        fs::write(to, b).unwrap();
    }
    fs::write(both.join("case.zip"), zip_of(&fs_)).unwrap();

    let a = findings(&loose.to_string_lossy());
    assert!(!a.is_empty());
    assert_eq!(a, findings(&zipped.to_string_lossy()), "zip");
    assert_eq!(a, findings(&both.to_string_lossy()), "loose and zipped");
    // The copies are said in the reading notes.
    let r = mqdiag(&["analyze", &both.to_string_lossy(), "-q", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    let notes = v["reading_notes"].as_array().unwrap();
    assert!(
        notes
            .iter()
            .filter(|n| n["note"].as_str().unwrap().contains("duplicate of"))
            .count()
            >= 4,
        "{notes:#?}"
    );
}

#[test]
fn an_assumed_offset_is_a_note_in_every_format_and_in_inventory() {
    const UTC: &str = "UTC assumed";
    for f in ["text", "markdown", "html"] {
        let r = mqdiag(&["analyze", CASE, "-q", "--format", f]);
        assert!(r.code == 0 || r.code == 1, "{}", r.stderr);
        assert!(r.stdout.contains("Reading notes"), "{f}");
        assert!(r.stdout.contains(UTC), "{f}");
    }
    let r = mqdiag(&["analyze", CASE, "-q", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert!(
        v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .all(|f| !f["title"].as_str().unwrap().contains(UTC)),
        "an assumed offset is no finding"
    );
    let n = &v["reading_notes"][0];
    assert_eq!(n["path"], "fixtures/case-mixed/zos/smf/SMF-QCTDNS.csv");
    assert!(n["note"].as_str().unwrap().contains(UTC));
    let r = mqdiag(&["analyze", CASE, "-q", "--format", "sarif"]);
    let s: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    let notes = s["runs"][0]["invocations"][0]["toolExecutionNotifications"]
        .as_array()
        .unwrap();
    assert_eq!(notes[0]["level"], "note");
    assert!(notes[0]["message"]["text"].as_str().unwrap().contains(UTC));
    let inv = common::stdout_of(&["inventory", CASE, "-q"]);
    assert!(inv.contains("note: ") && inv.contains(UTC), "{inv}");
}

#[test]
fn a_last_record_without_its_separator_is_a_note() {
    let src = fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/case-mixed/client/errors/AMQERR01.LOG"),
    )
    .unwrap();
    // Drop the closing separator line.
    let cut: String = src
        .lines()
        .filter(|l| !l.starts_with("-----"))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_ne!(cut, src);
    let tmp = Scratch::new("notes-cut");
    tmp.write("errors/AMQERR01.LOG", cut.as_bytes());
    let r = mqdiag(&["analyze", &tmp.str(), "-q", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert!(
        v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .all(|f| f["rule"] != "unreadable-input"),
        "{:#}",
        v["findings"]
    );
    assert!(
        v["reading_notes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|n| n["note"].as_str().unwrap().contains("no closing separator")),
        "{:#}",
        v["reading_notes"]
    );
}
