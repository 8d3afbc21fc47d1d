//! ECS `log.offset` (issue 29): every event's offset is the byte where its
//! first line (`mqdiag.line`) starts in its file as named: an archive
//! member's decompressed bytes, a UTF-16 file's own UTF-16 bytes (BOM
//! included), a CRLF file's bytes with their CRs. The file is read at the
//! offset and what is there is compared with the line. Findings' evidence
//! references carry the offsets of their events.

mod common;

use common::{Scratch, jsonl, stdout_of, zip_deflated};
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};

/// Every format whose reader makes events (binary traces make none).
const EVENT_FORMATS: [&str; 7] = [
    "container-log",
    "errlog-json",
    "errlog-text",
    "fdc",
    "fmt-trace",
    "smf-csv",
    "zos-joblog",
];

/// A file's bytes and whether they are UTF-16 (`Some(little_endian)`).
struct File {
    bytes: Vec<u8>,
    utf16: Option<bool>,
}

impl File {
    fn plain(bytes: Vec<u8>) -> File {
        File { bytes, utf16: None }
    }

    /// Where line `no` (1-based) starts: after the `no - 1`th line end
    /// (the byte LF, or in UTF-16 the unit LF).
    fn line_start(&self, no: u64) -> Option<usize> {
        if no == 1 {
            return Some(0);
        }
        let mut seen = 0;
        let step = if self.utf16.is_some() { 2 } else { 1 };
        let mut i = 0;
        while i + step <= self.bytes.len() {
            let lf = match self.utf16 {
                None => self.bytes[i] == b'\n',
                Some(true) => self.bytes[i..i + 2] == [b'\n', 0],
                Some(false) => self.bytes[i..i + 2] == [0, b'\n'],
            };
            if lf {
                seen += 1;
                if seen == no - 1 {
                    return Some(i + step);
                }
            }
            i += step;
        }
        None
    }

    /// The text of the line at `offset`, up to its line end (CR dropped).
    fn line_at(&self, offset: usize) -> String {
        let rest = &self.bytes[offset..];
        let text = match self.utf16 {
            None => {
                let end = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
                String::from_utf8_lossy(&rest[..end]).into_owned()
            }
            Some(le) => {
                let units: Vec<u16> = rest
                    .chunks_exact(2)
                    .map(|c| {
                        if le {
                            u16::from_le_bytes([c[0], c[1]])
                        } else {
                            u16::from_be_bytes([c[0], c[1]])
                        }
                    })
                    .take_while(|&u| u != u16::from(b'\n'))
                    .collect();
                String::from_utf16_lossy(&units)
            }
        };
        text.trim_end_matches('\r')
            .trim_start_matches('\u{feff}')
            .to_string()
    }
}

/// Check every document's `log.offset` against its file (from `file_of`);
/// returns the documents checked by format.
fn check_offsets(docs: &[Value], file_of: &mut dyn FnMut(&str) -> File) -> BTreeMap<String, usize> {
    let mut files: HashMap<String, File> = HashMap::new();
    let mut by_format = BTreeMap::new();
    for d in docs {
        let path = d["log"]["file"]["path"].as_str().expect("path");
        let line = d["mqdiag"]["line"].as_u64().expect("line");
        let offset = d["log"]["offset"]
            .as_u64()
            .unwrap_or_else(|| panic!("no log.offset: {d}"));
        let f = files
            .entry(path.to_string())
            .or_insert_with(|| file_of(path));
        let start = f.line_start(line).expect("the file has the line");
        assert_eq!(
            offset as usize, start,
            "{path}:{line}: log.offset {offset}, the line starts at {start}"
        );
        // What is read there is the line, and it is the event's.
        let text = f.line_at(offset as usize);
        assert!(
            !text.trim().is_empty(),
            "{path}:{line}: blank line at {offset}"
        );
        if d["mqdiag"]["format"] == "errlog-text"
            && let Some(pid) = d["process"]["pid"].as_u64()
        {
            // A record starts at its header: date, time and process (in
            // the log's language).
            assert!(text.contains(&format!("({pid}")), "{path}:{line}: {text:?}");
        }
        let format = d["mqdiag"]["format"].as_str().unwrap().to_string();
        *by_format.entry(format).or_insert(0) += 1;
    }
    by_format
}

fn from_disk(path: &str) -> File {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    File::plain(std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display())))
}

/// Every format of `fixtures/`, CRLF traces and error logs among them, and
/// the container logs under collectors' wrappers (a line's offset is the
/// wrapped line's in the collected file).
#[test]
fn every_event_of_the_fixtures_points_at_its_first_line() {
    let docs = jsonl(&stdout_of(&[
        "timeline",
        "fixtures/",
        "-q",
        "-j",
        "2",
        "--format",
        "ecs",
    ]));
    let got = check_offsets(&docs, &mut from_disk);
    for format in EVENT_FORMATS {
        assert!(
            got.get(format).copied().unwrap_or(0) > 0,
            "{format}: {got:?}"
        );
    }
    let paths = |s: &str| {
        docs.iter()
            .filter(|d| d["log"]["file"]["path"].as_str().unwrap().contains(s))
            .count()
    };
    // CRLF, the FFST summary, Docker json-file, CRI, Shift_JIS, CP1251.
    for s in [
        "windows/AMQ2512.0.TRC",
        "QMWIN/errors/AMQERR01.LOG",
        "FFST.output",
        "-json.log",
        "var/log/containers/",
        "field/ja/",
        "field/ru/",
    ] {
        assert!(paths(s) > 0, "no event of {s}");
    }
}

/// Findings point at their evidence by offset too: the first evidence line
/// under `log`, each one under `mqdiag.evidence`.
#[test]
fn findings_evidence_points_at_its_lines() {
    let alerts = jsonl(&stdout_of(&[
        "analyze",
        "fixtures/",
        "-q",
        "-j",
        "2",
        "--format",
        "ecs",
    ]));
    let mut files: HashMap<String, File> = HashMap::new();
    let (mut firsts, mut refs) = (0, 0);
    for a in &alerts {
        let ev = a["mqdiag"]["evidence"].as_array().expect("evidence");
        if let Some(o) = a["log"]["offset"].as_u64() {
            assert_eq!(ev[0]["offset"].as_u64(), Some(o), "{a}");
            assert_eq!(a["mqdiag"]["line"], ev[0]["line"]);
            firsts += 1;
        }
        for e in ev {
            let Some(o) = e["offset"].as_u64() else {
                continue;
            };
            let path = e["path"].as_str().unwrap();
            let line = e["line"].as_u64().unwrap();
            let f = files
                .entry(path.to_string())
                .or_insert_with(|| from_disk(path));
            assert_eq!(f.line_start(line), Some(o as usize), "{path}:{line}");
            refs += 1;
        }
    }
    assert!(
        firsts > 20 && refs > 50,
        "{firsts} alerts, {refs} references"
    );
}

/// UTF-16 without BOM, big-endian with one; a UTF-8 BOM.
fn utf16(text: &str, le: bool, bom: bool) -> Vec<u8> {
    let mut out = Vec::new();
    let units = bom
        .then_some(0xfeff_u16)
        .into_iter()
        .chain(text.encode_utf16());
    for u in units {
        out.extend_from_slice(&if le { u.to_le_bytes() } else { u.to_be_bytes() });
    }
    out
}

/// Archive members (offsets in their decompressed bytes), UTF-16 with and
/// without a BOM, a UTF-8 BOM, and a log whose Windows-1251 text starts
/// after pages of ASCII (converted from there on).
#[test]
fn archive_members_utf16_boms_and_late_conversion() {
    let read = |p: &str| from_disk(p).bytes;
    let errlog = read("fixtures/errlog/qmgrs/QM1/errors/AMQERR01.LOG");
    let members: Vec<(&str, Vec<u8>)> = vec![
        (
            "case/trace/AMQ4711.0.FMT",
            read("fixtures/trace/linux/AMQ4711.0.FMT"),
        ),
        (
            "case/trace/AMQ2512.0.TRC",
            read("fixtures/trace/windows/AMQ2512.0.TRC"),
        ),
        ("case/fdc/AMQ3321.0.FDC", read("fixtures/fdc/AMQ3321.0.FDC")),
        ("case/qmgrs/QM1/errors/AMQERR01.LOG", errlog.clone()),
        (
            "case/qmgrs/QMWIN/errors/AMQERR01.LOG",
            read("fixtures/errlog/windows/qmgrs/QMWIN/errors/AMQERR01.LOG"),
        ),
        (
            "case/qmgrs/QM2/errors/AMQERR01.json",
            read("fixtures/errlog/qmgrs/QM2/errors/AMQERR01.json"),
        ),
        (
            "case/smf/SMF-WQ.csv",
            read("fixtures/smf/mqsmfcsv-5.4/SMF-WQ.csv"),
        ),
        (
            "case/zos/MQ1ACHIN.JESMSGLG.txt",
            read("fixtures/zos/MQ1ACHIN.JESMSGLG.txt"),
        ),
        (
            "case/console/container-basic.log",
            read("fixtures/field/container-basic.log"),
        ),
        (
            "case/console/container-json.log",
            read("fixtures/field/container-json.log"),
        ),
        ("case/ffst/FFST.output", read("fixtures/field/FFST.output")),
    ];
    let dir = Scratch::new("ecs-offset");
    let refs: Vec<(&str, &[u8])> = members.iter().map(|(n, b)| (*n, b.as_slice())).collect();
    dir.write("case.zip", &zip_deflated(&refs));
    let text = String::from_utf8(errlog.clone()).expect("ASCII fixture");
    let mut loose: Vec<(String, File)> = vec![
        (
            "utf16le/errors/AMQERR01.LOG".into(),
            File {
                bytes: utf16(&text, true, false),
                utf16: Some(true),
            },
        ),
        (
            "utf16be/errors/AMQERR01.LOG".into(),
            File {
                bytes: utf16(&text, false, true),
                utf16: Some(false),
            },
        ),
        (
            "bom/errors/AMQERR01.LOG".into(),
            File::plain([&b"\xEF\xBB\xBF"[..], &errlog].concat()),
        ),
    ];
    // More ASCII than the head the character set is decided from, then
    // Russian in Windows-1251.
    let mut late = Vec::new();
    while late.len() < 40 << 10 {
        late.extend_from_slice(&errlog);
    }
    late.extend_from_slice(&read("fixtures/field/ru/qmgrs/QM1/errors/AMQERR01.LOG"));
    assert!(!late.is_ascii());
    loose.push(("late/errors/AMQERR01.LOG".into(), File::plain(late)));
    for (name, f) in &loose {
        dir.write(name, &f.bytes);
    }
    let root = dir.str();
    let docs = jsonl(&stdout_of(&[
        "timeline", &root, "-q", "-j", "2", "--format", "ecs",
    ]));
    let mut loose: HashMap<String, File> = loose
        .into_iter()
        .map(|(n, f)| (format!("{root}/{n}"), f))
        .collect();
    let mut seen = BTreeMap::<String, usize>::new();
    let got = check_offsets(&docs, &mut |path| {
        if let Some(f) = loose.remove(path) {
            *seen.entry(path.to_string()).or_default() += 1;
            return f;
        }
        let (_, member) = path
            .split_once("case.zip!")
            .unwrap_or_else(|| panic!("{path}: a member of case.zip"));
        *seen.entry(member.to_string()).or_default() += 1;
        let (_, bytes) = members
            .iter()
            .find(|(n, _)| *n == member)
            .unwrap_or_else(|| panic!("{member}"));
        File::plain(bytes.clone())
    });
    // Every member and every loose file has events.
    assert!(loose.is_empty(), "no events of {:?}", loose.keys());
    assert_eq!(seen.len(), members.len() + 4, "{seen:?}");
    for format in EVENT_FORMATS {
        assert!(got.contains_key(format), "{format}: {got:?}");
    }
}
