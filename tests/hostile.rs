//! Hostile inputs, built at run time (nothing binary is committed): each
//! run must stay within the hostile bounds of `common::run_hostile` (CPU
//! time, address space, resident memory), exit 0, 1 or 2 (never a panic or
//! a signal), and write a bounded report. What `bad_input.rs` and
//! `archive.rs` already pin down (an empty file, a 1 MB line, NUL and
//! Latin-1 bytes inside a trace, truncated and corrupt archives member by
//! member, the 20 MiB gzip bomb) is not repeated here; these are the
//! extremes.

mod common;

use common::{Scratch, gzip, run_hostile, tar_raw, zip_deflated};
use serde_json::Value;
use std::path::Path;

/// Bytes any one report may have.
const MAX_REPORT: u64 = 8 << 20;

const TRACE: &str = include_str!("../fixtures/trace/AMQ622742.0.FMT");

/// `analyze --format json` on `paths` inside `dir`; checks the bounds and
/// returns the exit code and the report (when one was written).
fn analyze(dir: &Path, paths: &[&str]) -> (i32, Option<Value>) {
    let mut args = vec!["analyze", "--format", "json", "-j", "2"];
    args.extend_from_slice(paths);
    let r = run_hostile(dir, &args);
    assert!(
        r.stdout_bytes <= MAX_REPORT,
        "{paths:?}: report of {} bytes",
        r.stdout_bytes
    );
    let report = serde_json::from_str(&r.stdout_head).ok();
    if r.code != 2 {
        assert!(report.is_some(), "{paths:?}: no JSON report: {}", r.stderr);
    }
    (r.code, report)
}

/// The inventory row of `path` in a report.
fn input<'a>(report: &'a Value, path: &str) -> &'a Value {
    report["inputs"]
        .as_array()
        .expect("inputs")
        .iter()
        .find(|i| i["path"] == path)
        .unwrap_or_else(|| panic!("no input {path} in {report:#}"))
}

/// Every `unreadable-input` finding about `path`, as text.
fn problems(report: &Value, path: &str) -> String {
    input(report, path);
    report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| {
            f["rule"] == "unreadable-input"
                && f["evidence"]
                    .as_array()
                    .is_some_and(|e| e.iter().any(|e| e["path"] == path))
        })
        .map(|f| f.to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Deterministic noise (xorshift), so a failure can be replayed.
fn noise(n: usize, mut seed: u64) -> Vec<u8> {
    (0..n)
        .map(|_| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed as u8
        })
        .collect()
}

/// A raw deflate stream of `copies` × `chunk` zero bytes, built from one
/// compressed chunk repeated (each ends with a full flush, so it does not
/// refer back), then an empty final block: gigabytes from a few seconds of
/// compressing.
fn zeros_deflate(chunk: usize, copies: usize) -> Vec<u8> {
    let mut c = flate2::Compress::new(flate2::Compression::fast(), false);
    let mut one = Vec::with_capacity(chunk / 100 + 1024);
    let zeros = vec![0u8; chunk];
    let mut at = 0;
    while at < chunk || one.is_empty() {
        one.reserve(64 << 10);
        let before = c.total_in();
        c.compress_vec(&zeros[at..], &mut one, flate2::FlushCompress::Full)
            .expect("deflate");
        at += (c.total_in() - before) as usize;
    }
    let mut out = Vec::with_capacity(one.len() * copies + 2);
    for _ in 0..copies {
        out.extend_from_slice(&one);
    }
    // An empty fixed-Huffman block with BFINAL set.
    out.extend_from_slice(&[0x03, 0x00]);
    out
}

/// A zip of one deflated member written by hand, its sizes as given (the
/// CRC is not computed: the size limits must stop reading long before it
/// is checked).
fn zip_one(name: &str, deflated: &[u8], size: u32) -> Vec<u8> {
    let mut z = Vec::new();
    let n = name.len() as u16;
    let fixed = |z: &mut Vec<u8>| {
        z.extend_from_slice(&20u16.to_le_bytes()); // version needed
        z.extend_from_slice(&0u16.to_le_bytes()); // flags
        z.extend_from_slice(&8u16.to_le_bytes()); // deflate
        z.extend_from_slice(&[0, 0, 0x21, 0]); // time, date
        z.extend_from_slice(&0u32.to_le_bytes()); // crc
        z.extend_from_slice(&(deflated.len() as u32).to_le_bytes());
        z.extend_from_slice(&size.to_le_bytes());
        z.extend_from_slice(&n.to_le_bytes());
        z.extend_from_slice(&0u16.to_le_bytes()); // extra
    };
    z.extend_from_slice(b"PK\x03\x04");
    fixed(&mut z);
    z.extend_from_slice(name.as_bytes());
    z.extend_from_slice(deflated);
    let cd = z.len() as u32;
    z.extend_from_slice(b"PK\x01\x02");
    z.extend_from_slice(&20u16.to_le_bytes()); // version made by
    fixed(&mut z);
    z.extend_from_slice(&[0; 6]); // comment, disk, internal attributes
    z.extend_from_slice(&0u32.to_le_bytes()); // external attributes
    z.extend_from_slice(&0u32.to_le_bytes()); // local header offset
    z.extend_from_slice(name.as_bytes());
    let cd_len = z.len() as u32 - cd;
    z.extend_from_slice(b"PK\x05\x06");
    z.extend_from_slice(&[0; 4]);
    z.extend_from_slice(&1u16.to_le_bytes());
    z.extend_from_slice(&1u16.to_le_bytes());
    z.extend_from_slice(&cd_len.to_le_bytes());
    z.extend_from_slice(&cd.to_le_bytes());
    z.extend_from_slice(&0u16.to_le_bytes());
    z
}

#[test]
fn zip_bomb_of_a_gigabyte_is_stopped() {
    let d = Scratch::new("zipbomb");
    // 256 × 4 MiB of zeros: 1 GiB from about 1 MB, declared honestly.
    let member = zeros_deflate(4 << 20, 256);
    d.write("bomb.zip", &zip_one("AMQ1.0.FMT", &member, 1 << 30));
    // And the same with a size that lies (says 1000 bytes).
    d.write("liar.zip", &zip_one("AMQ2.0.FMT", &member, 1000));
    d.write("AMQ622742.0.FMT", TRACE.as_bytes());
    let (code, report) = analyze(d.path(), &["."]);
    assert_eq!(code, 0);
    let report = report.unwrap();
    for row in ["./bomb.zip!AMQ1.0.FMT", "./liar.zip!AMQ2.0.FMT"] {
        let p = problems(&report, row);
        assert!(p.contains("refused") || p.contains("exceeds"), "{row}: {p}");
    }
}

#[test]
fn gzip_bomb_of_many_members_is_stopped() {
    let d = Scratch::new("gzbomb");
    // A gzip file may hold many members, read one after another: 8
    // copies of 4 MiB of one trace line after a trace, 32 MiB in all, every
    // member valid (zeros would be sniffed as a binary trace, never read).
    let line = " 12:06:32.904335   622742.1           :           x\n";
    let one = gzip(line.repeat((4 << 20) / line.len()).as_bytes());
    let mut bomb = gzip(TRACE.as_bytes());
    for _ in 0..8 {
        bomb.extend_from_slice(&one);
    }
    d.write("AMQ1.0.FMT.gz", &bomb);
    d.write("AMQ622742.0.FMT", TRACE.as_bytes());
    let (code, report) = analyze(d.path(), &["."]);
    assert_eq!(code, 0);
    let p = problems(&report.unwrap(), "./AMQ1.0.FMT.gz");
    assert!(p.contains("decompression bomb"), "{p}");
}

#[test]
fn archives_nested_fifty_deep_end_at_the_depth_cap() {
    let d = Scratch::new("nested");
    let mut z = zip_deflated(&[("AMQ622742.0.FMT", TRACE.as_bytes())]);
    let mut t = gzip(TRACE.as_bytes());
    for level in 0..50 {
        z = zip_deflated(&[(&format!("l{level}.zip"), &z)]);
        t = if level % 2 == 0 {
            tar_raw(&[(&format!("l{level}.gz"), &t)])
        } else {
            gzip(&t)
        };
    }
    d.write("deep.zip", &z);
    d.write("deep.tar", &t);
    d.write("AMQ622742.0.FMT", TRACE.as_bytes());
    let (code, report) = analyze(d.path(), &["."]);
    assert_eq!(code, 0);
    let text = report.unwrap().to_string();
    assert!(text.contains("nested more than"), "{text}");
}

#[test]
fn member_names_climbing_out_write_nothing_outside() {
    let d = Scratch::new("escape");
    let tag = format!("mqdiag-escape-{}", std::process::id());
    let up = format!("../../../{tag}-up.FMT");
    let abs_path = std::env::temp_dir().join(format!("{tag}-abs.FMT"));
    let abs = abs_path.to_string_lossy().into_owned();
    let members: [(&str, &[u8]); 3] = [
        (&up, TRACE.as_bytes()),
        (&abs, TRACE.as_bytes()),
        ("ok/AMQ622742.0.FMT", TRACE.as_bytes()),
    ];
    // Deflated zip members are unpacked into a temporary file: the names
    // must never become paths.
    d.write("work/case.zip", &zip_deflated(&members));
    d.write("work/case.tar", &tar_raw(&members));
    d.write("work/case.tgz", &gzip(&tar_raw(&members)));
    let (code, _) = analyze(&d.path().join("work"), &["."]);
    assert_eq!(code, 0);
    assert!(!abs_path.exists(), "{abs} written");
    let mut p = d.path().join("work");
    for _ in 0..4 {
        assert!(
            !p.join(format!("{tag}-up.FMT")).exists(),
            "written in {p:?}"
        );
        if !p.pop() {
            break;
        }
    }
    // Nothing left behind in TMPDIR (the scratch directory) either.
    let left: Vec<_> = std::fs::read_dir(d.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(left, ["work"]);
}

/// A trace header, then 64 MiB without a newline.
#[test]
fn sixty_four_megabyte_line_without_newline() {
    let d = Scratch::new("hugeline");
    let head = TRACE.split_inclusive('\n').take(8).collect::<String>();
    let mut big = head.into_bytes();
    big.extend_from_slice(b" 12:06:32.904335   622742.1           :       ");
    big.resize(big.len() + (64 << 20), b'x');
    d.write("AMQ1.0.FMT", &big);
    // The same line in an error log.
    let mut log =
        b"05/15/2016 12:06:32 PM - Process(622742.1) User(mqm) Program(amqrmppa)\n".to_vec();
    log.resize(log.len() + (64 << 20), b'y');
    d.write("AMQERR01.LOG", &log);
    let (code, report) = analyze(d.path(), &["AMQ1.0.FMT", "AMQERR01.LOG"]);
    assert!(code <= 2);
    if let Some(r) = report {
        let p = problems(&r, "AMQ1.0.FMT");
        assert!(p.contains("cut to the first"), "{p}");
    }
}

/// Names that send a file to each reader by name (content decides, but
/// readers look at names too).
const NAMES: &[&str] = &[
    "AMQ1.0.FMT",
    "AMQ2.0.TRC",
    "AMQERR01.LOG",
    "AMQERR01.json",
    "AMQ3.0.FDC",
    "MQ1ACHIN.JESMSGLG.txt",
    "SMF-WTAS.csv",
    "unknown.bin",
];

fn every_name(tag: &str, body: &[u8]) {
    let d = Scratch::new(tag);
    for n in NAMES {
        d.write(&format!("case/{n}"), body);
    }
    d.write("case/AMQ622742.0.FMT", TRACE.as_bytes());
    let (code, report) = analyze(d.path(), &["case"]);
    assert_eq!(code, 0);
    let report = report.unwrap();
    for n in NAMES {
        input(&report, &format!("case/{n}"));
    }
}

#[test]
fn nul_only_files() {
    every_name("nul", &vec![0u8; 1 << 20]);
}

#[test]
fn random_files() {
    for seed in [1, 0x9e37_79b9_7f4a_7c15] {
        every_name("random", &noise(1 << 20, seed));
    }
}

#[test]
fn files_of_only_crlf() {
    every_name("crlf", &b"\r\n".repeat(1 << 19));
    every_name("cr", &b"\r".repeat(1 << 20));
}

#[test]
fn files_of_only_latin1_and_cp850_bytes() {
    let high: Vec<u8> = (0x80..=0xffu8).collect();
    let mut lines = Vec::new();
    for _ in 0..4096 {
        lines.extend_from_slice(&high);
        lines.push(b'\n');
    }
    every_name("latin1", &lines);
}

#[test]
fn json_nested_a_hundred_thousand_deep() {
    let d = Scratch::new("deepjson");
    let n = 100_000;
    let arrays = format!("{}{}", "[".repeat(n), "]".repeat(n));
    let objects = format!("{}1{}", r#"{"a":"#.repeat(n), "}".repeat(n));
    // Unclosed: the reader must not wait for the end.
    let open = r#"{"ibm_messageId":"AMQ9999E","x":"#.to_string() + &"[".repeat(n);
    d.write(
        "a/AMQERR01.json",
        format!("{arrays}\n{objects}\n").as_bytes(),
    );
    d.write("b/AMQERR01.json", open.as_bytes());
    d.write(
        "c/AMQERR01.json",
        format!("{objects}\n").repeat(3).as_bytes(),
    );
    d.write("AMQ622742.0.FMT", TRACE.as_bytes());
    let (code, _) = analyze(d.path(), &["."]);
    assert_eq!(code, 0);
}

#[test]
fn csv_of_a_hundred_thousand_columns() {
    let d = Scratch::new("widecsv");
    let cols = 100_000;
    let mut head = String::from("Date,Time,LPAR,QMgr,QSG,MQ_Version");
    let mut row = String::from("2024/03/01,10:00:00.000000,LP01,QM01,,9.3");
    for i in 0..cols {
        head.push_str(&format!(",C{i}"));
        row.push_str(",1");
    }
    let body = format!("{head}\n{row}\n{row}\n");
    d.write("SMF-WTAS.csv", body.as_bytes());
    d.write("SMF-X.csv", body.as_bytes());
    // Columns without a header.
    d.write("plain.csv", format!("{row}\n").repeat(3).as_bytes());
    d.write("AMQ622742.0.FMT", TRACE.as_bytes());
    let (code, report) = analyze(d.path(), &["."]);
    assert_eq!(code, 0);
    input(&report.unwrap(), "./SMF-WTAS.csv");
}

/// A FIFO is not a regular file: opening it for reading would wait for a
/// writer for ever.
#[test]
fn fifo_does_not_hang() {
    let d = Scratch::new("fifo");
    d.write("case/AMQ622742.0.FMT", TRACE.as_bytes());
    let fifo = d.path().join("case/AMQ1.0.FMT");
    match std::process::Command::new("mkfifo").arg(&fifo).status() {
        Ok(s) if s.success() => {}
        other => {
            eprintln!("skipped: mkfifo is unavailable ({other:?})");
            return;
        }
    }
    // Found in a directory: skipped with a note, never opened (it has no
    // writer: opening it would wait forever).
    let (code, report) = analyze(d.path(), &["case"]);
    assert_eq!(code, 0);
    let why = problems(report.as_ref().unwrap(), "case/AMQ1.0.FMT");
    assert!(why.contains("skipped"), "{why}");
    // Named on the command line: read as a stream, as `cat` would (issue
    // 41), here with a writer; the copy is bounded like any input.
    let writer = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::write(fifo, TRACE.as_bytes()))
    };
    let (code, report) = analyze(d.path(), &["case/AMQ1.0.FMT"]);
    writer.join().unwrap().unwrap();
    assert_eq!(code, 0);
    let row = input(report.as_ref().unwrap(), "case/AMQ1.0.FMT");
    assert_eq!(row["format"], "fmt-trace", "{row}");
}

#[test]
fn truncated_gzip_and_corrupt_zip_at_many_points() {
    let d = Scratch::new("cuts");
    let big = TRACE.repeat(50);
    let gz = gzip(big.as_bytes());
    let z = zip_deflated(&[
        ("a/AMQ622742.0.FMT", big.as_bytes()),
        ("b/AMQERR01.LOG", b"not much"),
    ]);
    for k in 1..16 {
        let cut = gz.len() * k / 16;
        d.write(&format!("case/cut{k}.FMT.gz"), &gz[..cut]);
        let mut bad = z.clone();
        // Every byte of a 64-byte window overwritten, the windows spread
        // over the archive (headers, data, central directory).
        let at = (z.len() - 64) * k / 16;
        for b in &mut bad[at..at + 64] {
            *b ^= 0x5a;
        }
        d.write(&format!("case/bad{k}.zip"), &bad);
    }
    d.write("case/AMQ622742.0.FMT", TRACE.as_bytes());
    let (code, _) = analyze(d.path(), &["case"]);
    assert_eq!(code, 0);
}

/// A zip whose central directory lists the same local member many times
/// (each entry a different name, all at offset 0): read naively, a 30 KB
/// file gives gigabytes.
#[test]
fn overlapping_zip_members_are_not_read_again_and_again() {
    let d = Scratch::new("overlap");
    let line = " 12:06:32.904335   622742.1           :           x\n";
    let mut text = TRACE.to_string();
    text.push_str(&line.repeat((8 << 20) / line.len()));
    let one = zip_deflated(&[("AMQ0.0.FMT", text.as_bytes())]);
    // Split the one-member zip: local part, its central entry, the end.
    let cd = u32::from_le_bytes(one[one.len() - 6..one.len() - 2].try_into().unwrap()) as usize;
    let eocd = one.len() - 22;
    let entry = &one[cd..eocd];
    let mut z = one[..cd].to_vec();
    let copies = 2000u16;
    for i in 0..copies {
        let mut e = entry.to_vec();
        // Same name length: AMQ0.0.FMT .. AMQ1999.0.FMT would change it,
        // so the names differ in letters only.
        let tag = format!("{:04}", i);
        e[46 + 3] = b'A' + (i % 26) as u8;
        e[46..46 + 3].copy_from_slice(&tag.as_bytes()[1..4]);
        z.extend_from_slice(&e);
    }
    let cd_len = (z.len() - cd) as u32;
    z.extend_from_slice(b"PK\x05\x06\0\0\0\0");
    z.extend_from_slice(&copies.to_le_bytes());
    z.extend_from_slice(&copies.to_le_bytes());
    z.extend_from_slice(&cd_len.to_le_bytes());
    z.extend_from_slice(&(cd as u32).to_le_bytes());
    z.extend_from_slice(&0u16.to_le_bytes());
    d.write("overlap.zip", &z);
    let r = run_hostile(d.path(), &["analyze", "--format", "json", "overlap.zip"]);
    let report: Option<Value> = serde_json::from_str(&r.stdout_head).ok();
    assert!(r.code <= 2);
    // One member is read, every other entry refused for sharing its bytes.
    let report = report.expect("a JSON report");
    let refused = report["inputs"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|i| i["path"].as_str())
        .filter(|p| *p != "overlap.zip" && problems(&report, p).contains("overlap those of member"))
        .count();
    // The first few refusals are named one by one; the rest are one
    // problem on the archive, with their count.
    assert_eq!(refused, 10);
    let rest = format!("{} more member(s) refused", usize::from(copies) - 1 - 10);
    assert!(problems(&report, "overlap.zip").contains(&rest), "{rest}");
    // Output bounded by the input's size, not by its entry count.
    let bound = 10 * z.len() as u64 + (1 << 20);
    assert!(
        r.stdout_bytes <= bound,
        "{} bytes of report",
        r.stdout_bytes
    );
    // Whatever the wording of the refusal: the member's lines are not read
    // once per entry (one read is about 160,000 lines).
    let lines: u64 = report["inputs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["lines"].as_u64().unwrap_or(0))
        .sum();
    assert!(lines < 2_000_000, "{lines} lines read");
}

/// 42.zip's shape: 16 zips in each zip, four levels, gigabytes of zeros at
/// the bottom. The depth cap must refuse the fourth level before anything
/// of it is unpacked into the temporary file (16³ members there).
#[test]
fn wide_nested_zip_is_refused_before_it_is_unpacked() {
    let d = Scratch::new("42");
    let inner = zip_one("zeros.bin", &zeros_deflate(4 << 20, 64), 256 << 20);
    let mut level = inner;
    for _ in 0..3 {
        let names: Vec<String> = (0..16).map(|i| format!("{i:x}.zip")).collect();
        let members: Vec<(&str, &[u8])> = names.iter().map(|n| (n.as_str(), &level[..])).collect();
        level = zip_deflated(&members);
    }
    d.write("42.zip", &level);
    d.write("AMQ622742.0.FMT", TRACE.as_bytes());
    let r = run_hostile(d.path(), &["inventory", "--format", "json", "."]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    // The two upper levels are unpacked (16 + 256 small zips, about 40 MB);
    // the 4,096 of the third, 1 GiB, are not.
    assert!(r.peak_spill < 128 << 20, "{} bytes spilled", r.peak_spill);
    assert!(
        r.stdout_head.contains("nested more than"),
        "{}",
        r.stdout_head
    );
}

/// 4,096 trace files all open at once (their times overlap, so the merge
/// holds every one): memory stays within the budget (read buffers and
/// batches shrink as sources multiply), and files of one size are not
/// compared pair by pair for duplicates (8 million opens).
#[test]
fn four_thousand_overlapping_traces_stay_within_memory() {
    const LINES: u32 = 100;
    let d = Scratch::new("many");
    let head: Vec<&str> = TRACE.lines().take(12).collect();
    for i in 0..4096u32 {
        let pid = format!("{}", 100_000 + i);
        let mut f = String::new();
        for l in &head {
            f.push_str(&l.replace("622742", &pid));
            f.push('\n');
        }
        // More rows than a source's reorder buffer holds, so that the
        // buffers are full in every source at once.
        for k in 0..LINES {
            // Every file spans the same two seconds.
            let us = k * (2_000_000 / LINES) + i % 1000;
            f.push_str(&format!(
                " 12:06:{:02}.{:06}   {pid}.1           :           !! - x\n",
                32 + us / 1_000_000,
                us % 1_000_000
            ));
        }
        d.write(&format!("t/AMQ{pid}.0.FMT"), f.as_bytes());
    }
    let r = run_hostile(d.path(), &["analyze", "--format", "json", "-j", "2", "t"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let report: Value = serde_json::from_str(&r.stdout_head).expect("report");
    let events: u64 = report["inputs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["events"].as_u64().unwrap_or(0))
        .sum();
    // Ten header records and the lines.
    assert_eq!(events, 4096 * (10 + LINES as u64));
    // The row path keeps its reorder buffers within the budget too.
    for format in ["text", "jsonl"] {
        let r = run_hostile(
            d.path(),
            &["timeline", "--format", format, "-q", "-j", "2", "t"],
        );
        assert_eq!(r.code, 0, "{}", r.stderr);
    }
}

/// Terminal control sequences in an input (an error log message here)
/// must not reach a terminal through the text report, timeline or
/// inventory, whether the reader skips the line or keeps it escaped.
#[test]
fn control_characters_do_not_reach_the_terminal() {
    let d = Scratch::new("ctrl");
    let log = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/client-errors/AMQERR01.LOG"
    ))
    .unwrap()
    .replace("'LOCALHOST'", "'LOCAL\x1b[2J\x1b]0;owned\x07\x08\x0dHOST'");
    d.write("AMQERR01.LOG", log.as_bytes());
    for args in [
        &["analyze", "AMQERR01.LOG"][..],
        &["timeline", "AMQERR01.LOG"],
        &["inventory", "AMQERR01.LOG"],
    ] {
        let r = run_hostile(d.path(), args);
        assert!(
            r.stdout_head.contains("AMQERR01.LOG"),
            "{args:?}: {}",
            r.stdout_head
        );
        let bad: Vec<char> = r
            .stdout_head
            .chars()
            .filter(|c| c.is_control() && *c != '\n' && *c != '\t')
            .collect();
        assert!(bad.is_empty(), "{args:?}: {bad:?} in\n{}", r.stdout_head);
    }
}
