//! Archives read in place, end to end: every archive is built here at run
//! time from the trace fixture (no binary archive is committed), then the
//! binary is run on it and on the same files in a plain directory.

use serde_json::Value;
use std::fs;
use std::io::{Cursor, Write};
use std::path::{Path, PathBuf};
use std::process::Command;

const TRACE: &str = include_str!("../fixtures/trace/AMQ622742.0.FMT");
/// Events the fixture trace gives (checked against the plain file below).
const TRACE_EVENTS: u64 = 18;
/// Events `ERRLOG` gives: one message.
const ERRLOG_EVENTS: u64 = 1;

const ERRLOG: &str = "\
05/15/16 12:07:01 - Process(622742.1) User(mqm) Program(amqrmppa)
                    Host(dynamo) Installation(Installation1)
                    VRMF(9.0.0.0) QMgr(QM1)
AMQ9209E: Connection to host 'client1 (10.0.0.5)' for channel 'APP.SVRCONN' closed.
";

/// A second trace: another process, a few seconds later, so that the merge
/// interleaves nothing by accident.
fn trace2() -> String {
    TRACE
        .replace("622742", "622801")
        .replace("12:06:3", "12:06:4")
}

/// The case's files, relative path and content.
fn case_files() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("var/mqm/trace/AMQ622742.0.FMT", TRACE.as_bytes().to_vec()),
        ("var/mqm/trace/AMQ622801.0.FMT", trace2().into_bytes()),
        ("var/mqm/errors/AMQERR01.LOG", ERRLOG.as_bytes().to_vec()),
    ]
}

fn write_dir(root: &Path, files: &[(&str, Vec<u8>)]) {
    for (p, b) in files {
        let f = root.join(p);
        fs::create_dir_all(f.parent().unwrap()).unwrap();
        fs::write(f, b).unwrap();
    }
}

fn zip_bytes(files: &[(&str, Vec<u8>)]) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
    for (i, (p, b)) in files.iter().enumerate() {
        // One member stored, the others deflated, as runmqras mixes them.
        let method = if i == 1 {
            zip::CompressionMethod::Stored
        } else {
            zip::CompressionMethod::Deflated
        };
        let o = zip::write::SimpleFileOptions::default().compression_method(method);
        w.start_file(*p, o).unwrap();
        w.write_all(b).unwrap();
    }
    w.finish().unwrap().into_inner()
}

fn tar_bytes(files: &[(&str, Vec<u8>)]) -> Vec<u8> {
    let mut b = tar::Builder::new(Vec::new());
    for (p, data) in files {
        let mut h = tar::Header::new_gnu();
        h.set_size(data.len() as u64);
        h.set_mode(0o644);
        h.set_mtime(1_463_310_000);
        h.set_cksum();
        b.append_data(&mut h, p, &data[..]).unwrap();
    }
    b.into_inner().unwrap()
}

fn gz(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

struct Out {
    stdout: String,
    stderr: String,
    code: i32,
}

fn run_env(dir: &Path, args: &[&str], tmpdir: Option<&Path>) -> Out {
    let mut c = Command::new(env!("CARGO_BIN_EXE_mqdiag"));
    c.args(args).current_dir(dir);
    if let Some(t) = tmpdir {
        c.env("TMPDIR", t);
    }
    let o = c.output().unwrap();
    Out {
        stdout: String::from_utf8(o.stdout).unwrap(),
        stderr: String::from_utf8(o.stderr).unwrap(),
        code: o.status.code().unwrap_or(-1),
    }
}

fn run(dir: &Path, args: &[&str]) -> Out {
    run_env(dir, args, None)
}

/// `inventory --format json` rows by path.
fn inventory(dir: &Path, paths: &[&str]) -> Vec<Value> {
    let mut args = vec!["inventory", "--format", "json"];
    args.extend_from_slice(paths);
    let o = run(dir, &args);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let v: Value = serde_json::from_str(&o.stdout).unwrap();
    v["files"].as_array().unwrap().clone()
}

fn row<'a>(rows: &'a [Value], path: &str) -> &'a Value {
    rows.iter()
        .find(|r| r["path"] == path)
        .unwrap_or_else(|| panic!("no row {path} in {rows:#?}"))
}

/// A row's reading notes (how the file was read; not problems).
fn notes(r: &Value) -> Vec<String> {
    r["notes"]
        .as_array()
        .map(|a| a.iter().map(|n| n.as_str().unwrap().to_string()).collect())
        .unwrap_or_default()
}

fn messages(r: &Value) -> Vec<String> {
    r["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["message"].as_str().unwrap().to_string())
        .collect()
}

/// The only problem of a row, which must be an error.
fn refusal(rows: &[Value], path: &str) -> String {
    let r = row(rows, path);
    let p = r["problems"].as_array().unwrap();
    assert_eq!(p.len(), 1, "{r:#}");
    assert_eq!(p[0]["severity"], "error", "{r:#}");
    p[0]["message"].as_str().unwrap().to_string()
}

/// `timeline --format jsonl` with each row's path prefix `from` made `to`.
fn timeline(dir: &Path, path: &str, from: &str, to: &str) -> Vec<Value> {
    let o = run(dir, &["timeline", "--format", "jsonl", path]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    o.stdout
        .lines()
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).unwrap();
            let p = v["path"].as_str().unwrap();
            let rest = p
                .strip_prefix(from)
                .unwrap_or_else(|| panic!("{p} does not start with {from}"));
            v["path"] = Value::String(format!("{to}{rest}"));
            v
        })
        .collect()
}

fn tempdir() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

#[test]
fn zip_members_are_named_and_give_the_same_events_as_the_unpacked_directory() {
    let t = tempdir();
    let files = case_files();
    write_dir(&t.path().join("case"), &files);
    fs::write(t.path().join("case.zip"), zip_bytes(&files)).unwrap();

    let plain = timeline(t.path(), "case", "case/", "");
    let zipped = timeline(t.path(), "case.zip", "case.zip!", "");
    assert_eq!(plain.len() as u64, 2 * TRACE_EVENTS + ERRLOG_EVENTS);
    assert_eq!(zipped, plain);
    // Rows of both processes, in time order across the two members.
    assert_eq!(zipped[0]["pid"], 622742);
    assert_eq!(zipped[TRACE_EVENTS as usize]["pid"], 622801);

    let rows = inventory(t.path(), &["case.zip"]);
    let paths: Vec<&str> = rows.iter().map(|r| r["path"].as_str().unwrap()).collect();
    assert_eq!(
        paths,
        [
            "case.zip!var/mqm/errors/AMQERR01.LOG",
            "case.zip!var/mqm/trace/AMQ622742.0.FMT",
            "case.zip!var/mqm/trace/AMQ622801.0.FMT",
        ]
    );
    let e = row(&rows, "case.zip!var/mqm/errors/AMQERR01.LOG");
    assert_eq!(e["format"], "errlog-text");
    assert_eq!(e["events"], ERRLOG_EVENTS);
    let r = row(&rows, "case.zip!var/mqm/trace/AMQ622801.0.FMT");
    assert_eq!(r["format"], "fmt-trace");
    assert_eq!(r["events"], TRACE_EVENTS);
    assert_eq!(r["bytes"], trace2().len());
    assert_eq!(r["problem_count"], 0);
}

#[test]
fn tar_tgz_and_gz_read_in_place() {
    let t = tempdir();
    let files = case_files();
    write_dir(&t.path().join("case"), &files);
    let tar = tar_bytes(&files);
    fs::write(t.path().join("case.tar"), &tar).unwrap();
    fs::write(t.path().join("case.tgz"), gz(&tar)).unwrap();
    fs::write(t.path().join("case.tar.gz"), gz(&tar)).unwrap();
    fs::write(t.path().join("AMQ622742.0.FMT.gz"), gz(TRACE.as_bytes())).unwrap();

    let plain = timeline(t.path(), "case", "case/", "");
    for a in ["case.tar", "case.tgz", "case.tar.gz"] {
        let got = timeline(t.path(), a, &format!("{a}!"), "");
        assert_eq!(got, plain, "{a}");
    }

    let gz_rows = timeline(t.path(), "AMQ622742.0.FMT.gz", "AMQ622742.0.FMT.gz", "");
    assert_eq!(gz_rows.len() as u64, TRACE_EVENTS);
    let rows = inventory(t.path(), &["AMQ622742.0.FMT.gz", "case.tgz"]);
    let r = row(&rows, "AMQ622742.0.FMT.gz");
    assert_eq!(r["format"], "fmt-trace");
    assert_eq!(r["events"], TRACE_EVENTS);
    // The size is the decompressed one (the gzip trailer's).
    assert_eq!(r["bytes"], TRACE.len());
    // The same trace in the tgz is read once, from the first path.
    assert_eq!(
        notes(row(&rows, "case.tgz!var/mqm/trace/AMQ622742.0.FMT")),
        ["duplicate of AMQ622742.0.FMT.gz: identical content, read once"]
    );
    assert_eq!(
        row(&rows, "case.tgz!var/mqm/trace/AMQ622801.0.FMT")["events"],
        TRACE_EVENTS
    );
}

#[test]
fn archives_are_known_by_content_not_name() {
    let t = tempdir();
    let files = case_files();
    fs::write(t.path().join("collected.dat"), zip_bytes(&files)).unwrap();
    fs::write(t.path().join("bundle"), gz(&tar_bytes(&files))).unwrap();
    let rows = inventory(t.path(), &["collected.dat", "bundle"]);
    assert_eq!(rows.len(), 6, "{rows:#?}");
    // Both archives were opened (their members are listed); the members
    // are the same files, read once from the first path.
    assert_eq!(
        notes(row(&rows, "collected.dat!var/mqm/trace/AMQ622742.0.FMT")),
        ["duplicate of bundle!var/mqm/trace/AMQ622742.0.FMT: identical content, read once"]
    );
    assert_eq!(
        row(&rows, "bundle!var/mqm/trace/AMQ622801.0.FMT")["events"],
        TRACE_EVENTS
    );
}

#[test]
fn nested_archives_are_opened_up_to_the_depth_cap() {
    let t = tempdir();
    let inner = zip_bytes(&[("x/AMQ1.0.FMT", TRACE.as_bytes().to_vec())]);
    let outer = gz(&tar_bytes(&[("inner.zip", inner.clone())]));
    fs::write(t.path().join("outer.tgz"), &outer).unwrap();
    let rows = inventory(t.path(), &["outer.tgz"]);
    assert_eq!(rows.len(), 1);
    let r = row(&rows, "outer.tgz!inner.zip!x/AMQ1.0.FMT");
    assert_eq!(r["events"], TRACE_EVENTS);

    // zip > zip > zip (deflated, so unpacked) > zip: the fourth is refused.
    let l3 = zip_bytes(&[("l4.zip", inner.clone())]);
    let l2 = zip_bytes(&[("l3.zip", l3)]);
    fs::write(t.path().join("l1.zip"), zip_bytes(&[("l2.zip", l2)])).unwrap();
    // Three levels are fine.
    let l2 = zip_bytes(&[("l3.zip", inner)]);
    fs::write(t.path().join("ok.zip"), zip_bytes(&[("l2.zip", l2)])).unwrap();
    let rows = inventory(t.path(), &["l1.zip", "ok.zip"]);
    assert_eq!(
        refusal(&rows, "l1.zip!l2.zip!l3.zip!l4.zip"),
        "refused: archive nested more than 3 levels deep"
    );
    assert_eq!(
        row(&rows, "ok.zip!l2.zip!l3.zip!x/AMQ1.0.FMT")["events"],
        TRACE_EVENTS
    );
    assert_eq!(rows.len(), 2, "{rows:#?}");
}

/// Offsets of a member's local header and central directory entry.
fn headers(z: &[u8], name: &str) -> (usize, usize) {
    let n = name.as_bytes();
    let find = |sig: &[u8], len_at: usize, name_at: usize| {
        (0..z.len() - name_at)
            .find(|&i| {
                z[i..].starts_with(sig)
                    && u16::from_le_bytes([z[i + len_at], z[i + len_at + 1]]) as usize == n.len()
                    && z[i + name_at..].starts_with(n)
            })
            .unwrap_or_else(|| panic!("{name} not found"))
    };
    (find(b"PK\x03\x04", 26, 30), find(b"PK\x01\x02", 28, 46))
}

/// Overwrite a field in both headers (local offset, central offset).
fn patch(z: &mut [u8], name: &str, local: usize, central: usize, bytes: &[u8]) {
    let (l, c) = headers(z, name);
    z[l + local..l + local + bytes.len()].copy_from_slice(bytes);
    z[c + central..c + central + bytes.len()].copy_from_slice(bytes);
}

#[test]
fn hostile_zip_members_are_refused_and_the_rest_is_read() {
    let t = tempdir();
    let o = zip::write::SimpleFileOptions::default();
    let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
    w.start_file("good/AMQ622742.0.FMT", o).unwrap();
    w.write_all(TRACE.as_bytes()).unwrap();
    // Same length as the name patched in below.
    w.start_file("XX/evil.FMT", o).unwrap();
    w.write_all(TRACE.as_bytes()).unwrap();
    w.start_file("Xetc/abs.FMT", o).unwrap();
    w.write_all(TRACE.as_bytes()).unwrap();
    w.add_symlink("link.FMT", "/etc/passwd", o).unwrap();
    w.start_file("bomb.FMT", o).unwrap();
    let zeros = vec![0u8; 1 << 20];
    for _ in 0..32 {
        w.write_all(&zeros).unwrap();
    }
    w.start_file("secret.FMT", o).unwrap();
    w.write_all(TRACE.as_bytes()).unwrap();
    let mut z = w.finish().unwrap().into_inner();
    patch(&mut z, "XX/evil.FMT", 30, 46, b"../evil.FMT");
    patch(&mut z, "Xetc/abs.FMT", 30, 46, b"/etc/abs.FMT");
    // General-purpose flag bit 0: encrypted.
    let (l, c) = headers(&z, "secret.FMT");
    z[l + 6] |= 1;
    z[c + 8] |= 1;
    fs::write(t.path().join("case.zip"), &z).unwrap();

    let rows = inventory(t.path(), &["case.zip"]);
    assert_eq!(
        row(&rows, "case.zip!good/AMQ622742.0.FMT")["events"],
        TRACE_EVENTS
    );
    assert_eq!(
        refusal(&rows, "case.zip!../evil.FMT"),
        "refused: member path leaves the archive (`..`): hostile or damaged archive"
    );
    assert_eq!(
        refusal(&rows, "case.zip!/etc/abs.FMT"),
        "refused: absolute member path (an archive must not name files outside itself)"
    );
    assert_eq!(
        refusal(&rows, "case.zip!link.FMT"),
        "refused: symbolic link (archives are read without following links)"
    );
    let bomb = refusal(&rows, "case.zip!bomb.FMT");
    assert!(
        bomb.starts_with("refused: declares 33554432 bytes from ")
            && bomb.ends_with(" compressed, a ratio above 200:1 (decompression bomb?)"),
        "{bomb}"
    );
    assert_eq!(
        refusal(&rows, "case.zip!secret.FMT"),
        "refused: encrypted member (mqdiag does not decrypt; unpack it with the password)"
    );
    assert_eq!(rows.len(), 6, "{rows:#?}");
}

#[test]
fn zip_member_that_inflates_past_its_declared_size_is_stopped() {
    let t = tempdir();
    let big = TRACE.repeat(20); // 32 KB: more than the sniffer's 16 KB head.
    let mut z = zip_bytes(&[
        ("a/AMQ622742.0.FMT", TRACE.as_bytes().to_vec()),
        ("b/AMQ1.0.FMT", big.into_bytes()),
        ("c/AMQ622801.0.FMT", trace2().into_bytes()),
    ]);
    // Declare 1000 bytes for a member that inflates to 32 KB.
    patch(&mut z, "b/AMQ1.0.FMT", 22, 24, &1000u32.to_le_bytes());
    fs::write(t.path().join("case.zip"), &z).unwrap();
    let rows = inventory(t.path(), &["case.zip"]);
    assert_eq!(
        refusal(&rows, "case.zip!b/AMQ1.0.FMT"),
        "cannot read: zip member expands beyond its declared size of 1000 bytes: refused (corrupt or hostile archive)"
    );
    assert_eq!(
        row(&rows, "case.zip!a/AMQ622742.0.FMT")["events"],
        TRACE_EVENTS
    );
    // (c is stored: the second file of zip_bytes.)
    assert_eq!(
        row(&rows, "case.zip!c/AMQ622801.0.FMT")["events"],
        TRACE_EVENTS
    );
}

#[test]
fn corrupt_members_are_reported_where_they_fail() {
    let t = tempdir();
    // Longer than the sniffer's 16 KB head, so that the CRC fails while the
    // trace reader reads it, after its last line.
    let long = TRACE.repeat(12);
    let mut z = zip_bytes(&[
        ("a/AMQ622742.0.FMT", long.clone().into_bytes()),
        ("b/AMQ622801.0.FMT", trace2().into_bytes()),
        ("c/AMQ9.0.FMT", TRACE.as_bytes().to_vec()),
    ]);
    patch(
        &mut z,
        "a/AMQ622742.0.FMT",
        14,
        16,
        &0xdead_beef_u32.to_le_bytes(),
    );
    patch(
        &mut z,
        "c/AMQ9.0.FMT",
        14,
        16,
        &0xdead_beef_u32.to_le_bytes(),
    );
    fs::write(t.path().join("case.zip"), &z).unwrap();
    let rows = inventory(t.path(), &["case.zip"]);
    let r = row(&rows, "case.zip!a/AMQ622742.0.FMT");
    let p = r["problems"].as_array().unwrap();
    let crc = p
        .iter()
        .find(|p| p["message"].as_str().unwrap().contains("CRC"))
        .unwrap_or_else(|| panic!("{r:#}"));
    let m = crc["message"].as_str().unwrap();
    assert!(
        m.starts_with("read error: zip member fails its CRC check (stored deadbeef, computed ")
            && m.ends_with("): the member is corrupt"),
        "{m}"
    );
    assert_eq!(crc["line"], long.lines().count() as u64 + 1);
    assert_eq!(crc["severity"], "error");
    // A small member, read whole by the sniffer, is read as far as it
    // goes too: the failure is where the reader meets it.
    let r = row(&rows, "case.zip!c/AMQ9.0.FMT");
    let p = r["problems"].as_array().unwrap();
    let crc = p
        .iter()
        .find(|p| p["message"].as_str().unwrap().contains("CRC"))
        .unwrap_or_else(|| panic!("{r:#}"));
    assert!(
        crc["message"]
            .as_str()
            .unwrap()
            .starts_with("read error: zip member fails its CRC check (stored deadbeef, computed "),
        "{crc}"
    );
    assert_eq!(crc["line"], TRACE.lines().count() as u64 + 1);
    let ok = row(&rows, "case.zip!b/AMQ622801.0.FMT");
    assert_eq!(
        (ok["events"].as_u64(), ok["problem_count"].as_u64()),
        (Some(TRACE_EVENTS), Some(0))
    );
}

#[test]
fn truncated_archives_are_refused_and_the_run_goes_on() {
    let t = tempdir();
    let files = case_files();
    write_dir(&t.path().join("case"), &files);
    // Zips cut inside their second member: the central directory is lost,
    // the first member is found from its local header. One written with
    // sizes up front, one streamed with data descriptors (as Java writes).
    // Each archive's first member is another process's trace (same events),
    // so that no two are identical files, which would be read once.
    let with_pid = |pid: &str| {
        [
            (
                "one/AMQ622742.0.FMT",
                TRACE.replace("622742", pid).into_bytes(),
            ),
            ("two/AMQ1.0.FMT", TRACE.repeat(200).into_bytes()),
        ]
    };
    let z = zip_bytes(&with_pid("700001"));
    fs::write(t.path().join("case/cut.zip"), &z[..z.len() * 3 / 4]).unwrap();
    let mut w = zip::ZipWriter::new_stream(Vec::new());
    for (p, b) in &with_pid("700002") {
        w.start_file(*p, zip::write::SimpleFileOptions::default())
            .unwrap();
        w.write_all(b).unwrap();
    }
    let z = w.finish().unwrap().into_inner();
    fs::write(t.path().join("case/stream.zip"), &z).unwrap();
    fs::write(t.path().join("case/cutstream.zip"), &z[..z.len() * 3 / 4]).unwrap();
    fs::write(t.path().join("case/junk.zip"), b"PK\x03\x04 not really").unwrap();
    // A tgz cut inside its second member: the first is still read.
    let tar = tar_bytes(&with_pid("700003"));
    let tgz = gz(&tar_bytes(&with_pid("700004")));
    fs::write(t.path().join("case/cut.tgz"), &tgz[..tgz.len() * 3 / 4]).unwrap();
    fs::write(t.path().join("case/cut.tar"), &tar[..tar.len() - 20_000]).unwrap();

    let rows = inventory(t.path(), &["case"]);
    for z in ["cut.zip", "cutstream.zip"] {
        let r = row(&rows, &format!("case/{z}!one/AMQ622742.0.FMT"));
        assert_eq!(r["events"], TRACE_EVENTS, "{r:#}");
        assert_eq!(r["problem_count"], 0, "{r:#}");
        let w = row(&rows, &format!("case/{z}"));
        assert_eq!(w["problems"][0]["severity"], "warning");
        let m = w["problems"][0]["message"].as_str().unwrap();
        assert!(m.starts_with("no central directory ("), "{m}");
        assert!(
            m.ends_with(
                "): the archive is truncated or damaged; 2 members found from their local headers"
            ),
            "{m}"
        );
    }
    assert_eq!(
        refusal(&rows, "case/cut.zip!two/AMQ1.0.FMT"),
        "refused: member data lies beyond the end of the archive (truncated archive?)"
    );
    let m = refusal(&rows, "case/cutstream.zip!two/AMQ1.0.FMT");
    assert!(
        m.starts_with("refused: the archive ends inside this member (after ")
            && m.ends_with(" bytes; truncated archive)"),
        "{m}"
    );
    // Complete, the streamed zip reads whole through its central directory.
    assert_eq!(
        row(&rows, "case/stream.zip!two/AMQ1.0.FMT")["events"],
        200 * TRACE_EVENTS
    );
    let m = refusal(&rows, "case/junk.zip");
    assert!(
        m.starts_with(
            "cannot read zip archive (truncated or corrupt; no member could be located): "
        ),
        "{m}"
    );
    assert_eq!(
        row(&rows, "case/cut.tgz!one/AMQ622742.0.FMT")["events"],
        TRACE_EVENTS
    );
    let m = refusal(&rows, "case/cut.tgz!two/AMQ1.0.FMT");
    assert!(m.starts_with("cannot unpack: "), "{m}");
    assert_eq!(
        row(&rows, "case/cut.tar!one/AMQ622742.0.FMT")["events"],
        TRACE_EVENTS
    );
    let m = refusal(&rows, "case/cut.tar!two/AMQ1.0.FMT");
    assert!(
        m.starts_with("refused: the archive ends inside this member (")
            && m.ends_with(&format!(
                " of {} bytes present; truncated archive)",
                TRACE.len() * 200
            )),
        "{m}"
    );
    // The plain files beside them are read as ever.
    assert_eq!(
        row(&rows, "case/var/mqm/trace/AMQ622801.0.FMT")["events"],
        TRACE_EVENTS
    );
}

#[test]
fn hostile_tar_members_are_refused() {
    let t = tempdir();
    let mut b = tar::Builder::new(Vec::new());
    let mut add = |name: &[u8], kind: tar::EntryType, data: &[u8], link: Option<&str>| {
        let mut h = tar::Header::new_ustar();
        // Written raw: the builder itself refuses `..` and absolute paths.
        h.as_old_mut().name[..name.len()].copy_from_slice(name);
        h.set_entry_type(kind);
        h.set_size(data.len() as u64);
        h.set_mode(0o644);
        if let Some(l) = link {
            h.set_link_name(l).unwrap();
        }
        h.set_cksum();
        b.append(&h, data).unwrap();
    };
    add(
        b"ok/AMQ622742.0.FMT",
        tar::EntryType::Regular,
        TRACE.as_bytes(),
        None,
    );
    add(
        b"../up.FMT",
        tar::EntryType::Regular,
        TRACE.as_bytes(),
        None,
    );
    add(b"/abs.FMT", tar::EntryType::Regular, TRACE.as_bytes(), None);
    add(
        b"sym.FMT",
        tar::EntryType::Symlink,
        b"",
        Some("/etc/passwd"),
    );
    add(
        b"hard.FMT",
        tar::EntryType::Link,
        b"",
        Some("ok/AMQ622742.0.FMT"),
    );
    add(b"fifo", tar::EntryType::Fifo, b"", None);
    let tar = b.into_inner().unwrap();
    fs::write(t.path().join("h.tar"), &tar).unwrap();
    fs::write(t.path().join("h.tgz"), gz(&tar)).unwrap();
    for a in ["h.tar", "h.tgz"] {
        let rows = inventory(t.path(), &[a]);
        assert_eq!(
            row(&rows, &format!("{a}!ok/AMQ622742.0.FMT"))["events"],
            TRACE_EVENTS
        );
        assert_eq!(
            refusal(&rows, &format!("{a}!../up.FMT")),
            "refused: member path leaves the archive (`..`): hostile or damaged archive"
        );
        assert_eq!(
            refusal(&rows, &format!("{a}!/abs.FMT")),
            "refused: absolute member path (an archive must not name files outside itself)"
        );
        assert_eq!(
            refusal(&rows, &format!("{a}!sym.FMT")),
            "refused: symbolic link (archives are read without following links)"
        );
        assert_eq!(
            refusal(&rows, &format!("{a}!hard.FMT")),
            "refused: hard link (archives are read without following links)"
        );
        assert_eq!(
            refusal(&rows, &format!("{a}!fifo")),
            "refused: not a regular file (device, FIFO or unknown entry type)"
        );
        assert_eq!(rows.len(), 6, "{rows:#?}");
    }
}

#[test]
fn gz_bomb_is_stopped_while_reading() {
    let t = tempdir();
    // 20 MiB of one repeated trace line compresses far beyond 200:1, and
    // the trailer is made to lie (says 1000 bytes), so only counting stops it.
    let line = " 12:06:32.904335   622742.1           :           x\n";
    let mut data = TRACE.as_bytes().to_vec();
    while data.len() < 20 << 20 {
        data.extend_from_slice(line.as_bytes());
    }
    let mut z = gz(&data);
    let n = z.len();
    z[n - 4..].copy_from_slice(&1000u32.to_le_bytes());
    assert!(n < (20 << 20) / 200, "test data must exceed the ratio: {n}");
    fs::write(t.path().join("AMQ622742.0.FMT.gz"), &z).unwrap();
    let rows = inventory(t.path(), &["AMQ622742.0.FMT.gz"]);
    let r = row(&rows, "AMQ622742.0.FMT.gz");
    let limit = (200 * n as u64).max(16 << 20);
    let want = format!(
        "read error: decompressed data exceeds {limit} bytes (200x its {n} compressed bytes, at least 16 MiB, at most 64 GiB): refused as a likely decompression bomb"
    );
    assert_eq!(messages(r), [want], "{r:#}");
    // Reading stopped at the limit, well before the end of the data.
    assert!(r["lines"].as_u64().unwrap() * (line.len() as u64) <= limit);
}

#[test]
fn temporary_files_live_in_tmpdir_and_are_gone_after_the_run() {
    let t = tempdir();
    let tmp = t.path().join("tmp");
    fs::create_dir(&tmp).unwrap();
    let files = case_files();
    fs::write(t.path().join("case.tgz"), gz(&tar_bytes(&files))).unwrap();
    let o = run_env(
        t.path(),
        &["timeline", "--format", "jsonl", "case.tgz"],
        Some(&tmp),
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(
        o.stdout.lines().count() as u64,
        2 * TRACE_EVENTS + ERRLOG_EVENTS
    );
    let left: Vec<PathBuf> = fs::read_dir(&tmp)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert!(left.is_empty(), "left behind: {left:?}");

    // The unpacking does use TMPDIR: where it cannot write, it says so.
    let missing = t.path().join("no-such-dir");
    let o = run_env(
        t.path(),
        &["inventory", "--format", "json", "case.tgz"],
        Some(&missing),
    );
    assert_eq!(o.code, 2, "nothing readable: {}", o.stdout);
    assert!(
        o.stderr.contains("case.tgz!var/mqm/trace/AMQ622742.0.FMT: cannot create a temporary file to unpack into (in "),
        "{}",
        o.stderr
    );
}

#[test]
fn no_progress_line_when_stderr_is_not_a_terminal() {
    let t = tempdir();
    fs::write(t.path().join("case.zip"), zip_bytes(&case_files())).unwrap();
    let o = run(t.path(), &["inventory", "case.zip"]);
    assert_eq!(o.code, 0);
    assert_eq!(o.stderr, "");
    assert!(o.stdout.contains("case.zip!var/mqm/trace/AMQ622742.0.FMT"));
}

#[test]
fn plain_trace_fixture_gives_the_expected_event_count() {
    // Anchors TRACE_EVENTS to the reader rather than to an archive path.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let rows = inventory(root, &["fixtures/trace/AMQ622742.0.FMT"]);
    assert_eq!(
        row(&rows, "fixtures/trace/AMQ622742.0.FMT")["events"],
        TRACE_EVENTS
    );
}

/// Every file under `dir`, as (path relative to `dir`, absolute path).
fn tree(dir: &Path) -> Vec<(String, PathBuf)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p
                    .strip_prefix(dir)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                out.push((rel, p));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn the_whole_trace_fixture_tree_reads_the_same_from_tar_and_zip() {
    // Wrap files grouped with their .FMT by member name, Windows traces,
    // midnight roll-over: all as from the directory.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let fixtures = root.join("fixtures/trace");
    let files = tree(&fixtures);
    assert!(files.len() >= 10, "{files:?}");
    let t = tempdir();
    // tar keeps modification times to the second, which the header-less
    // trace takes its date from.
    let mut b = tar::Builder::new(Vec::new());
    for (rel, p) in &files {
        b.append_path_with_name(p, rel).unwrap();
    }
    fs::write(t.path().join("t.tar"), b.into_inner().unwrap()).unwrap();
    let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
    for (rel, p) in &files {
        w.start_file(rel.as_str(), zip::write::SimpleFileOptions::default())
            .unwrap();
        w.write_all(&fs::read(p).unwrap()).unwrap();
    }
    fs::write(t.path().join("t.zip"), w.finish().unwrap().into_inner()).unwrap();

    let dir = fixtures.to_string_lossy().into_owned();
    let timeline_of = |path: &str, prefix: &str, pin: bool| {
        let mut args = vec!["timeline", "--format", "jsonl", path];
        if pin {
            args.extend(["--date", "2024-02-29"]);
        }
        let o = run(t.path(), &args);
        assert_eq!(o.code, 0, "{}", o.stderr);
        o.stdout
            .lines()
            .map(|l| {
                let mut v: Value = serde_json::from_str(l).unwrap();
                let p = v["path"].as_str().unwrap();
                v["path"] = Value::String(p.strip_prefix(prefix).unwrap().to_string());
                v
            })
            .collect::<Vec<_>>()
    };
    let plain = timeline_of(&dir, &format!("{dir}/"), false);
    assert!(plain.len() > 100, "{}", plain.len());
    assert_eq!(timeline_of("t.tar", "t.tar!", false), plain);
    // Zip times have no zone (DOS local time): pin the header-less date.
    assert_eq!(
        timeline_of("t.zip", "t.zip!", true),
        timeline_of(&dir, &format!("{dir}/"), true)
    );
}

#[cfg(unix)]
#[test]
fn a_zip_of_many_members_read_at_once_holds_one_file_descriptor() {
    // With one reading thread the merge holds every member open at once;
    // with a descriptor per member this fails under a low limit (as the
    // same files in a plain directory do).
    let t = tempdir();
    // Each trace spans 20 s, far beyond the reorder window, so that every
    // member is open while the merge walks through the seconds.
    let head: Vec<&str> = TRACE.lines().take(13).collect();
    let files: Vec<(String, Vec<u8>)> = (0..300)
        .map(|i| {
            let pid = 100_000 + i;
            let mut body = head.join("\n").replace("622742", &pid.to_string());
            for k in 0..20 {
                body.push_str(&format!(
                    "\n 12:06:{:02}.{:06}   {pid}.1           :           step {k}",
                    33 + k,
                    i
                ));
            }
            body.push('\n');
            (format!("trace/AMQ{pid}.0.FMT"), body.into_bytes())
        })
        .collect();
    write_dir(
        &t.path().join("plain"),
        &files
            .iter()
            .map(|(p, b)| (p.as_str(), b.clone()))
            .collect::<Vec<_>>(),
    );
    let plain = run(t.path(), &["timeline", "--format", "jsonl", "plain"]);
    let want = plain.stdout.lines().count();
    assert_eq!(want, 300 * (11 + 20), "{}", plain.stderr);
    let refs: Vec<(&str, Vec<u8>)> = files.iter().map(|(p, b)| (p.as_str(), b.clone())).collect();
    fs::write(t.path().join("many.zip"), zip_bytes(&refs)).unwrap();
    let cmd = format!(
        "ulimit -n 64 && exec '{}' timeline -j 1 --format jsonl many.zip",
        env!("CARGO_BIN_EXE_mqdiag")
    );
    let o = Command::new("sh")
        .args(["-c", &cmd])
        .current_dir(t.path())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8(o.stdout).unwrap();
    assert_eq!(out.lines().count(), want);
}

/// The same files loose and inside a zip (and a copied error log) are read
/// once: the timeline and the findings' counts are those of one copy, and
/// inventory lists each extra copy as a duplicate of the one read.
#[test]
fn a_file_present_twice_changes_no_count() {
    let t = tempdir();
    let files = case_files();
    write_dir(&t.path().join("case"), &files);
    fs::write(t.path().join("case.zip"), zip_bytes(&files)).unwrap();
    fs::create_dir_all(t.path().join("backup")).unwrap();
    fs::write(t.path().join("backup/AMQERR01.LOG.bak"), ERRLOG).unwrap();

    let once = timeline(t.path(), "case", "case/", "");
    let all = run(
        t.path(),
        &[
            "timeline", "case", "case.zip", "backup", "--format", "jsonl",
        ],
    );
    assert_eq!(all.code, 0, "{}", all.stderr);
    assert_eq!(all.stdout.lines().count(), once.len(), "{}", all.stdout);

    let count = |paths: &[&str]| -> Vec<(String, u64)> {
        let mut args = vec!["analyze", "--format", "json", "--only", "channel-error"];
        args.extend_from_slice(paths);
        let o = run(t.path(), &args);
        let v: Value = serde_json::from_str(&o.stdout).unwrap();
        v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| {
                (
                    f["title"].as_str().unwrap().to_string(),
                    f["count"].as_u64().unwrap(),
                )
            })
            .collect()
    };
    let single = count(&["case"]);
    assert!(!single.is_empty());
    assert_eq!(count(&["case", "case.zip", "backup"]), single);

    let rows = inventory(t.path(), &["case", "case.zip", "backup"]);
    assert_eq!(
        notes(row(&rows, "case.zip!var/mqm/trace/AMQ622742.0.FMT")),
        ["duplicate of case/var/mqm/trace/AMQ622742.0.FMT: identical content, read once"]
    );
    // Both loose: the first by path is read.
    assert_eq!(
        notes(row(&rows, "case/var/mqm/errors/AMQERR01.LOG")),
        ["duplicate of backup/AMQERR01.LOG.bak: identical content, read once"]
    );
    assert_eq!(
        row(&rows, "case/var/mqm/trace/AMQ622742.0.FMT")["events"],
        TRACE_EVENTS
    );
}
