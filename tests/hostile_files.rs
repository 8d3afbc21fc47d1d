//! Many small files (issue 43, "10 s per GB"): each file's set-up is
//! shared or skipped where it can be (its head read once at discovery
//! for the duplicate check, the catalogue memo of one error log reused
//! by the next), and none of that may change what is read. Built in the
//! test at `FILES` one-record error logs, each in a folder of its own,
//! all of one size (the duplicate check groups them), with copies and a
//! large file past the block discovery reads.

mod common;

use common::{Scratch, jsonl, mqdiag};
use serde_json::Value;
use std::fmt::Write as _;

/// Small error logs (each its own source), distinct channels.
const FILES: u32 = 300;

/// One AMQ9999E record for channel `CH.{i}` (same length for every `i`).
fn record(i: u32, minute: u32) -> String {
    format!(
        "----- amqrmrsa.c : 938 --------------------------------------------------------
03/12/24 {:02}:{:02}:03 - Process({}.1) User(mqm) Program(amqrmppa)
                    Host(mqhost) Installation(Installation1)
                    VRMF(9.3.0.0) QMgr(QM1)
                    Time(2024-03-12T{:02}:{:02}:03.000Z)
                    CommentInsert1(CH.{i:05})

AMQ9999E: Channel 'CH.{i:05}' to host '192.0.2.{}' ended abnormally.

EXPLANATION:
The channel program running under process ID {} for channel 'CH.{i:05}' ended
abnormally.
ACTION:
Look at previous error messages for the channel program in the error logs.
",
        minute / 60,
        minute % 60,
        4000 + i % 1000,
        minute / 60,
        minute % 60,
        i % 200 + 10,
        4000 + i % 1000,
    )
}

fn run_ok(d: &Scratch, args: &[&str]) -> String {
    let mut a: Vec<&str> = args.to_vec();
    let dir = d.str();
    a.push(&dir);
    let r = mqdiag(&a);
    assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
    r.stdout
}

#[test]
fn many_small_files_and_their_copies_each_read_once_with_their_own_values() {
    let d = Scratch::new("files");
    for i in 0..FILES {
        d.write(
            &format!("case/{i:05}/errors/AMQERR01.LOG"),
            record(i, i).as_bytes(),
        );
    }
    // Copies of the first: found by the heads discovery hashed.
    for c in ["copy-a", "copy-b"] {
        d.write(
            &format!("case/{c}/errors/AMQERR01.LOG"),
            record(0, 0).as_bytes(),
        );
    }
    // A large log (past the 64 KiB discovery reads whole) and its copy:
    // hashed by the duplicate check itself. Its records repeat one text
    // (the memo's hits) between the small files' distinct ones.
    let mut big = String::new();
    let mut n_big = 0;
    while big.len() < 100 << 10 {
        write!(big, "{}", record(7, 1000 + n_big)).unwrap();
        n_big += 1;
    }
    d.write("case/big/errors/AMQERR01.LOG", big.as_bytes());
    d.write("case/big-copy/errors/AMQERR01.LOG", big.as_bytes());

    let rows = jsonl(&run_ok(&d, &["timeline", "--format", "jsonl"]));
    assert_eq!(rows.len() as u32, FILES + n_big);
    // Each small file's record carries its own channel: a memo served by
    // one file after another answers for each file's own text.
    for i in 0..FILES {
        let path = format!("{}/case/{i:05}/errors/AMQERR01.LOG", d.str());
        let mine: Vec<&Value> = rows.iter().filter(|r| r["path"] == path).collect();
        assert_eq!(mine.len(), 1, "{path}");
        assert_eq!(mine[0]["attrs"]["channel"], format!("CH.{i:05}"), "{path}");
    }
    let big_rows = rows
        .iter()
        .filter(|r| r["path"].as_str().unwrap().contains("/big"))
        .filter(|r| r["attrs"]["channel"] == "CH.00007")
        .count() as u32;
    assert_eq!(big_rows, n_big);

    let inv: Value = serde_json::from_str(&run_ok(&d, &["inventory", "--format", "json"])).unwrap();
    let dups: Vec<(String, String)> = inv["files"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["notes"].to_string().contains("duplicate of"))
        .map(|f| {
            let p = f["path"].as_str().unwrap();
            let note = f["notes"][0].as_str().unwrap();
            (
                p[d.str().len() + 1..].to_string(),
                note.replace(&format!("{}/", d.str()), ""),
            )
        })
        .collect();
    assert_eq!(
        dups,
        vec![
            (
                "case/big/errors/AMQERR01.LOG".to_string(),
                "duplicate of case/big-copy/errors/AMQERR01.LOG: identical content, read once"
                    .to_string()
            ),
            (
                "case/copy-a/errors/AMQERR01.LOG".to_string(),
                "duplicate of case/00000/errors/AMQERR01.LOG: identical content, read once"
                    .to_string()
            ),
            (
                "case/copy-b/errors/AMQERR01.LOG".to_string(),
                "duplicate of case/00000/errors/AMQERR01.LOG: identical content, read once"
                    .to_string()
            ),
        ]
    );

    // One or two threads, the same report (but the command it states).
    let report = |j: &str| -> Value {
        let mut v: Value =
            serde_json::from_str(&run_ok(&d, &["analyze", "--format", "json", "-q", "-j", j]))
                .unwrap();
        v["run"]["command"] = Value::Null;
        v
    };
    assert_eq!(report("1"), report("2"));
}

/// Small files are sniffed where discovery reads them for the duplicate
/// check, not opened again for it: each is still taken by its reader (an
/// indented log, an FDC), and an empty file, a broken link and a file of
/// exactly the block discovery reads (sniffed again when read, its first
/// line being longer than the sniffers' head) each keep their own row.
#[test]
fn small_files_sniffed_at_discovery_keep_their_rows_and_problems() {
    let d = Scratch::new("sniffed");
    let fixture = |p: &str| std::fs::read(format!("fixtures/{p}")).unwrap();
    let fdc = fixture("fdc/AMQ3321.0.FDC");
    let log = String::from_utf8(fixture("errlog/qmgrs/QM1/errors/AMQERR01.LOG")).unwrap();
    for i in 0..20 {
        // Distinct content: none is a duplicate of another.
        let mut b = fdc.clone();
        b.extend_from_slice(format!("\n{i}\n").as_bytes());
        d.write(&format!("case/{i:02}.FDC"), &b);
    }
    let indented: String = log.lines().map(|l| format!("    {l}\n")).collect();
    d.write("case/indented.LOG", indented.as_bytes());
    d.write("case/empty.LOG", b"");
    let mut long = vec![b'x'; 64 * 1024 - 1];
    long.push(b'\n');
    d.write("case/long.LOG", &long);
    #[cfg(unix)]
    std::os::unix::fs::symlink(d.path().join("nowhere"), d.path().join("case/broken.LOG")).unwrap();

    let inv: Value = serde_json::from_str(&run_ok(&d, &["inventory", "--format", "json"])).unwrap();
    let files = inv["files"].as_array().unwrap();
    let row = |n: &str| {
        files
            .iter()
            .find(|f| f["path"].as_str().unwrap().ends_with(n))
            .unwrap_or_else(|| panic!("{n}: no row"))
    };
    for i in 0..20 {
        let r = row(&format!("case/{i:02}.FDC"));
        assert_eq!(
            (r["format"].as_str(), r["events"].as_u64()),
            (Some("fdc"), Some(2))
        );
    }
    let r = row("indented.LOG");
    assert_eq!(r["format"], "errlog-text");
    assert_eq!(r["events"], 8);
    assert!(
        r["notes"][0]
            .as_str()
            .unwrap()
            .contains("indented by 4 spaces")
    );
    assert_eq!(
        (
            row("empty.LOG")["format"].as_str(),
            row("empty.LOG")["variant"].as_str()
        ),
        (Some("unknown"), Some("not recognised"))
    );
    assert_eq!(row("long.LOG")["bytes"], 64 * 1024);
    #[cfg(unix)]
    {
        let b = row("broken.LOG");
        assert_eq!(b["problems"][0]["code"], "unreadable-file");
        assert!(
            b["problems"][0]["message"]
                .as_str()
                .unwrap()
                .starts_with("broken link")
        );
    }
    // `--encoding` sniffs every file when it is read, from its bytes
    // converted: the same readers take the same files.
    let forced: Value = serde_json::from_str(&run_ok(
        &d,
        &["inventory", "--format", "json", "--encoding", "utf-8"],
    ))
    .unwrap();
    let formats = |v: &Value| -> Vec<(String, String)> {
        v["files"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| (f["path"].to_string(), f["format"].to_string()))
            .collect()
    };
    assert_eq!(formats(&inv), formats(&forced));
}

/// More files in one folder than the merge hands to its workers at the
/// start (1,024): with several jobs, discovery's threads open and sniff
/// the folder's files ahead of the walk and every file's first events
/// are read by all the jobs before the merge begins. An empty file, a
/// copy and a broken link among them keep their rows; the report is the
/// same for 1, 2 and 8 jobs.
#[test]
fn a_folder_of_many_fdcs_reads_the_same_with_any_jobs() {
    let d = Scratch::new("many-fdcs");
    let fdc = std::fs::read("fixtures/fdc/AMQ3321.0.FDC").unwrap();
    const N: usize = 1100;
    for i in 0..N {
        let mut b = fdc.clone();
        b.extend_from_slice(format!("\n{i}\n").as_bytes());
        d.write(&format!("case/AMQ{i:05}.0.FDC"), &b);
    }
    d.write("case/AMQ00007-copy.0.FDC", &{
        let mut b = fdc.clone();
        b.extend_from_slice(b"\n7\n");
        b
    });
    d.write("case/empty.FDC", b"");
    #[cfg(unix)]
    std::os::unix::fs::symlink(d.path().join("nowhere"), d.path().join("case/broken.FDC")).unwrap();
    let report = |j: &str, format: &str| -> String {
        let out = run_ok(&d, &["analyze", "--format", format, "-q", "-j", j]);
        // The command line is stated in the report.
        out.replace(&format!("-j {j}"), "-j N")
            .replace(&format!("\"{j}\""), "\"N\"")
    };
    let inv: Value =
        serde_json::from_str(&run_ok(&d, &["inventory", "--format", "json", "-j", "2"])).unwrap();
    let files = inv["files"].as_array().unwrap();
    let fdcs = files.iter().filter(|f| f["format"] == "fdc").count();
    // The copy is read once, as its original.
    assert_eq!(fdcs, N, "every FDC read");
    let row = |n: &str| {
        files
            .iter()
            .find(|f| f["path"].as_str().unwrap().ends_with(n))
            .unwrap_or_else(|| panic!("{n}: no row"))
    };
    let dup = |n: &str| row(n)["notes"].to_string().contains("duplicate of");
    assert!(dup("AMQ00007-copy.0.FDC") != dup("AMQ00007.0.FDC"));
    assert_eq!(row("empty.FDC")["events"], 0);
    #[cfg(unix)]
    assert_eq!(row("broken.FDC")["problems"][0]["code"], "unreadable-file");
    for (format, jobs) in [
        ("json", &["2", "8"][..]),
        ("sarif", &["2"]),
        ("text", &["2"]),
    ] {
        let one = report("1", format);
        for j in jobs {
            assert!(one == report(j, format), "{format}: -j 1 and -j {j} differ");
        }
    }
}
