//! Hostile layouts of the evidence itself, built at run time: links that
//! lead the output onto an input or the walk out of the case, a directory
//! named twice, inputs that are only unreadable, a file still growing.
//! Each run is within the hostile bounds of `common::run_hostile`.

mod common;

use common::{Scratch, run_hostile};
use serde_json::Value;
use std::path::Path;

const TRACE: &str = include_str!("../fixtures/trace/AMQ622742.0.FMT");

#[cfg(unix)]
fn symlink(target: &str, link: &Path) {
    std::os::unix::fs::symlink(target, link).expect("symlink");
}

/// `-o` naming an input through a directory link, a file link, or (with
/// `--follow`) a file the walk reaches through a link: refused, exit 2,
/// the file untouched, in every verb that writes.
#[cfg(unix)]
#[test]
fn output_through_a_link_onto_an_input_is_refused() {
    let d = Scratch::new("olink");
    d.write("case/AMQ622742.0.FMT", TRACE.as_bytes());
    let fdc = d.write("other/AMQ3321.0.FDC", b"precious evidence\n");
    symlink("../other", &d.path().join("case/linkdir"));
    symlink("../other/AMQ3321.0.FDC", &d.path().join("case/link.FDC"));
    let cases: [&[&str]; 6] = [
        &["analyze", "case", "-o", "case/linkdir/AMQ3321.0.FDC"],
        &["analyze", "case", "-o", "case/link.FDC"],
        &["analyze", "case", "--follow", "-o", "other/AMQ3321.0.FDC"],
        &["timeline", "case", "--follow", "-o", "other/AMQ3321.0.FDC"],
        &["inventory", "case", "--follow", "-o", "other/AMQ3321.0.FDC"],
        &["calls", "case", "--follow", "-o", "other/AMQ3321.0.FDC"],
    ];
    for args in cases {
        let mut args = args.to_vec();
        args.extend(["--format", "text"]);
        let r = run_hostile(d.path(), &args);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains("evidence is read-only"), "{}", r.stderr);
        assert_eq!(std::fs::read(&fdc).unwrap(), b"precious evidence\n");
    }
}

/// Inputs that give nothing (here: noise of no known format): exit 2 in
/// every verb, and an existing `-o` file is left as it was.
#[test]
fn only_unreadable_input_exits_2_and_keeps_the_output() {
    let d = Scratch::new("unread");
    let noise: Vec<u8> = (0..4096u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    d.write("in/x.bin", &noise);
    for (verb, out) in [
        ("analyze", "r.json"),
        ("timeline", "r.jsonl"),
        ("inventory", "r.json"),
        ("calls", "r.json"),
    ] {
        let old = d.write(out, b"earlier report\n");
        let r = run_hostile(d.path(), &[verb, "in", "-q", "-o", out]);
        assert_eq!(r.code, 2, "{verb}: {}", r.stderr);
        assert!(
            r.stderr.contains("no readable input"),
            "{verb}: {}",
            r.stderr
        );
        assert_eq!(std::fs::read(&old).unwrap(), b"earlier report\n", "{verb}");
    }
}

/// One directory named twice (`d ./d`, or a link to it inside another
/// named path) is read once, with a note: no error finding.
#[cfg(unix)]
#[test]
fn a_directory_named_twice_is_read_once_with_a_note() {
    let d = Scratch::new("twice");
    d.write("d/AMQ622742.0.FMT", TRACE.as_bytes());
    std::fs::create_dir(d.path().join("e")).unwrap();
    symlink("../d", &d.path().join("e/again"));
    for paths in [&["d", "./d"][..], &["d", "e"]] {
        let mut args = vec!["analyze", "--format", "json", "--fail-on", "error"];
        args.extend_from_slice(paths);
        let r = run_hostile(d.path(), &args);
        assert_eq!(r.code, 0, "{paths:?}: {}", r.stderr);
        let v: Value = serde_json::from_str(&r.stdout_head).expect("report");
        let errors: Vec<&Value> = v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["severity"] == "error")
            .collect();
        assert!(errors.is_empty(), "{paths:?}: {errors:?}");
        let traces = v["inputs"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|i| i["format"] == "fmt-trace")
            .count();
        assert_eq!(traces, 1, "{paths:?}");
        assert!(r.stdout_head.contains("reached again"), "{paths:?}");
    }
}

/// A link to `/` inside a case, and one to a directory beside it: neither
/// is followed (each named in a note) unless `--follow`.
#[cfg(unix)]
#[test]
fn links_out_of_the_named_paths_are_not_followed() {
    let d = Scratch::new("escape");
    d.write("case/AMQ622742.0.FMT", TRACE.as_bytes());
    d.write("other/AMQ1.0.FMT", TRACE.replace("622742", "1").as_bytes());
    symlink("/", &d.path().join("case/root"));
    symlink("../other", &d.path().join("case/other"));
    let r = run_hostile(d.path(), &["inventory", "--format", "json", "case"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: Value = serde_json::from_str(&r.stdout_head).expect("inventory");
    let files = v["files"].as_array().unwrap();
    assert!(files.len() <= 3, "{} rows", files.len());
    for link in ["case/root", "case/other"] {
        let row = files
            .iter()
            .find(|f| f["path"] == link)
            .unwrap_or_else(|| panic!("no row for {link}: {v:#}"));
        assert_eq!(row["problems"][0]["code"], "link-not-followed", "{row}");
    }
    // Asked to: the link beside the case is followed.
    std::fs::remove_file(d.path().join("case/root")).unwrap();
    let r = run_hostile(
        d.path(),
        &["inventory", "--format", "json", "--follow", "case"],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout_head.contains("case/other/AMQ1.0.FMT"));
}

/// A file appended to as fast as it can be while it is read: read to its
/// size at open, so the run ends.
#[test]
fn a_growing_file_is_read_to_its_size_at_open() {
    use std::io::Write;
    use std::sync::atomic::{AtomicBool, Ordering};
    let d = Scratch::new("grow");
    let p = d.write("AMQ622742.0.FMT", TRACE.as_bytes());
    let stop = std::sync::Arc::new(AtomicBool::new(false));
    let appender = {
        let stop = stop.clone();
        let line = " 12:06:33.000000   622742.1           :           x\n".repeat(20_000);
        std::thread::spawn(move || {
            let mut f = std::fs::OpenOptions::new().append(true).open(&p).unwrap();
            // About 100 MB/s, faster than a debug build parses, and at most
            // 1 GiB whatever happens.
            let mut written = 0u64;
            while !stop.load(Ordering::Relaxed) && written < 1 << 30 {
                f.write_all(line.as_bytes()).unwrap();
                written += line.len() as u64;
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
        })
    };
    let r = std::panic::catch_unwind(|| {
        run_hostile(
            d.path(),
            &["timeline", "-q", "-j", "2", "-o", "/dev/null", "."],
        )
    });
    stop.store(true, Ordering::Relaxed);
    appender.join().unwrap();
    let r = r.expect("run ended in time");
    assert_eq!(r.code, 0, "{}", r.stderr);
}
