//! `compare` of one capture in two shapes (issue 43, item 7): a zip with
//! a top folder, and the folder `unzip` makes of it (named as the folder,
//! or as the directory it was unzipped in). Nothing is new, gone or
//! changed, and `--fail-on info` exits 0.

mod common;

use common::{Scratch, mqdiag, zip_deflated};
use serde_json::Value;
use std::path::Path;

/// Fixtures with findings of many rules, FDCs and unreadable files.
const PARTS: &[&str] = &[
    "fixtures/case-mixed",
    "fixtures/fdc",
    "fixtures/unreadable",
    "fixtures/resource-limit",
    "fixtures/errlog",
];

#[test]
fn a_zip_and_the_folder_unzip_made_of_it_compare_equal() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    for part in PARTS {
        let under = part.strip_prefix("fixtures/").unwrap();
        for (rel, bytes) in common::files_under(&root.join(part)) {
            files.push((format!("case/{under}/{rel}"), bytes));
        }
    }
    files.sort();
    let d = Scratch::new("compare-shapes");
    let entries: Vec<(&str, &[u8])> = files
        .iter()
        .map(|(n, b)| (n.as_str(), b.as_slice()))
        .collect();
    d.write("case.zip", &zip_deflated(&entries));
    for (n, b) in &files {
        d.write(&format!("un/{n}"), b);
    }
    let zip = d.path().join("case.zip");
    for folder in ["un/case", "un"] {
        let dir = d.path().join(folder);
        let r = mqdiag(&[
            "compare",
            zip.to_str().unwrap(),
            dir.to_str().unwrap(),
            "-q",
            "--format",
            "json",
            "--fail-on",
            "info",
        ]);
        assert_eq!(r.code, 0, "{folder}: {}\n{}", r.stderr, r.stdout);
        let c: Value = serde_json::from_str(&r.stdout).unwrap();
        assert!(c["good"]["findings"].as_u64().unwrap() >= 5, "{c:#}");
        assert_eq!(c["good"]["findings"], c["bad"]["findings"]);
        for k in ["new", "gone", "changed"] {
            assert!(
                c["findings"][k].as_array().unwrap().is_empty(),
                "{folder}: {k}: {:#}",
                c["findings"][k]
            );
        }
    }
}
