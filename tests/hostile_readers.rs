//! Readers on inputs at the edge of their formats, built at run time: a
//! first record longer than a sniffing block, gzip files padded, cut or
//! followed by other bytes. Each run bounded in time and address space.

mod common;

use common::{Scratch, gzip, run_hostile};
use serde_json::Value;

const TRACE: &str = include_str!("../fixtures/trace/AMQ622742.0.FMT");
const ERRLOG: &str = include_str!("../fixtures/client-errors/AMQERR01.LOG");

/// The inventory rows of `paths` in `d`, by path.
fn inventory(d: &Scratch, paths: &[&str]) -> Vec<Value> {
    let mut args = vec!["inventory", "--format", "json", "-q"];
    args.extend_from_slice(paths);
    let r = run_hostile(d.path(), &args);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: Value = serde_json::from_str(&r.stdout_head).expect("inventory");
    v["files"].as_array().unwrap().clone()
}

fn row<'a>(rows: &'a [Value], path: &str) -> &'a Value {
    rows.iter()
        .find(|r| r["path"] == path)
        .unwrap_or_else(|| panic!("no row {path} in {rows:#?}"))
}

fn messages(r: &Value) -> Vec<(Option<u64>, String)> {
    r["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["line"].as_u64(),
                p["message"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// A JSON error log whose first record is 40 KB: still a JSON log, every
/// record read.
#[test]
fn a_first_record_longer_than_the_sniffing_block_is_still_sniffed() {
    let d = Scratch::new("longrec");
    let rec = |msg: &str, seq: u32| {
        serde_json::json!({
            "ibm_messageId": "AMQ9999E",
            "ibm_datetime": "2024-01-01T10:00:00.000Z",
            "ibm_sequence": seq.to_string(),
            "ibm_serverName": "QM1",
            "host": "h1",
            "loglevel": "ERROR",
            "type": "mq_log",
            "message": msg,
        })
        .to_string()
    };
    let long = format!("AMQ9999E: {}", "x".repeat(40 << 10));
    let text = format!("{}\n{}\n", rec(&long, 1), rec("AMQ9999E: short", 2));
    d.write("AMQERR01.json", text.as_bytes());
    let rows = inventory(&d, &["AMQERR01.json"]);
    let r = row(&rows, "AMQERR01.json");
    assert_eq!(r["format"], "errlog-json", "{r}");
    assert_eq!(r["events"], 2, "{r}");
}

/// Gzip as collected: padded with zeros (accepted as if absent), cut
/// short or followed by other bytes (read as far as the data goes, with
/// a located problem), never refused whole.
#[test]
fn gzip_padding_cuts_and_trailing_bytes_are_read_as_far_as_they_go() {
    let d = Scratch::new("gzedge");
    let big = TRACE.repeat(100);
    let gz = gzip(big.as_bytes());
    let mut padded = gz.clone();
    padded.extend_from_slice(&[0; 512]);
    d.write("pad/AMQ622742.0.FMT.gz", &padded);
    d.write("cut/AMQ622742.0.FMT.gz", &gz[..gz.len() / 2]);
    let mut junk = gz.clone();
    junk.extend_from_slice(b"not gzip data at all\n");
    d.write("junk/AMQ622742.0.FMT.gz", &junk);
    let mut log = gzip(ERRLOG.as_bytes());
    log.extend_from_slice(b"\x01\x02 trailing");
    d.write("log/AMQERR01.LOG.gz", &log);
    d.write("plain/AMQ622742.0.FMT", big.as_bytes());
    // Apart: the same content is read once.
    let plain = row(&inventory(&d, &["plain"]), "plain/AMQ622742.0.FMT").clone();
    let plain = &plain;
    let rows = inventory(&d, &["pad", "cut", "junk", "log"]);
    let pad = row(&rows, "pad/AMQ622742.0.FMT.gz");
    assert!(messages(pad).is_empty(), "{pad}");
    assert_eq!(pad["events"], plain["events"]);
    let cut = row(&rows, "cut/AMQ622742.0.FMT.gz");
    assert_eq!(cut["format"], "fmt-trace", "{cut}");
    assert!(cut["events"].as_u64().unwrap() > 100, "{cut}");
    assert!(
        messages(cut)
            .iter()
            .any(|(l, m)| l.is_some() && m.contains("cut short")),
        "{cut}"
    );
    for (path, full) in [
        ("junk/AMQ622742.0.FMT.gz", &plain["events"]),
        ("log/AMQERR01.LOG.gz", &Value::Null),
    ] {
        let r = row(&rows, path);
        if !full.is_null() {
            assert_eq!(&r["events"], full, "{r}");
        }
        assert!(r["events"].as_u64().unwrap() > 0, "{r}");
        assert!(
            messages(r)
                .iter()
                .any(|(l, m)| l.is_some() && m.contains("after the end of the gzip stream")),
            "{r}"
        );
    }
}

const WINDOWS: &str = include_str!("../fixtures/trace/windows/AMQ2512.0.TRC");

/// Every instant in `out` (RFC 3339 as the outputs write them) has a
/// four-digit year from 1970.
fn instants_sane(out: &str, what: &str) {
    let re = regex::Regex::new(r"([+-]?\d{4,})-\d\d-\d\dT\d\d:\d\d:\d\d").unwrap();
    for c in re.captures_iter(out) {
        let y = &c[1];
        let ok = y.len() == 4 && y.parse::<u32>().is_ok_and(|y| (1970..=9999).contains(&y));
        assert!(ok, "{what}: instant with year `{y}`");
    }
}

/// Header dates no event can be ordered in, a `--date` likewise, and
/// midnights rolling past year 2262: never printed, each a located
/// `bad-time` problem, counted.
#[test]
fn times_outside_what_can_be_ordered_are_located_problems() {
    let d = Scratch::new("badtime");
    d.write(
        "w/AMQ1.0.TRC",
        WINDOWS
            .replace("Date : 11/26/19", "Date : 01/01/10000")
            .as_bytes(),
    );
    d.write(
        "u/AMQ622742.0.FMT",
        TRACE.replace("05/15/16", "05/15/1900").as_bytes(),
    );
    // A header on 9 April 2262 (day first with a four-digit year), then
    // a midnight crossed on every other line: past 2262-04-11 from line 16.
    let mut roll = String::new();
    for l in WINDOWS.lines() {
        roll.push_str(&l.replace(
            "Date : 11/26/19  Time : 16:18:56",
            "Date : 09/04/2262  Time : 08:00:00",
        ));
        roll.push('\n');
        if l.starts_with("=====") {
            break;
        }
    }
    roll.push('\n');
    for k in 0..12u32 {
        let t = if k % 2 == 0 {
            "21:00:00.000001"
        } else {
            "02:00:00.000001"
        };
        roll.push_str(&format!(
            "{:08X} {t}   2512.1           :       !! - x\n",
            0x100 + k
        ));
    }
    d.write("r/AMQ2512.0.TRC", roll.as_bytes());
    let rows = inventory(&d, &["w", "u", "r"]);
    let json = serde_json::to_string(&rows).unwrap();
    instants_sane(&json, "inventory");
    let located = |path: &str| -> Vec<(Option<u64>, String)> {
        messages(row(&rows, path))
            .into_iter()
            .zip(row(&rows, path)["problems"].as_array().unwrap())
            .filter(|(_, p)| p["code"] == "bad-time")
            .map(|(m, _)| m)
            .collect()
    };
    assert_eq!(located("w/AMQ1.0.TRC")[0].0, Some(6), "{json}");
    let u = located("u/AMQ622742.0.FMT");
    assert_eq!(
        u.iter().map(|(l, _)| *l).collect::<Vec<_>>(),
        [Some(5), Some(6)],
        "{json}"
    );
    let r = located("r/AMQ2512.0.TRC");
    assert_eq!(r.len(), 1, "{json}");
    assert_eq!(r[0].0, Some(16), "{json}");
    assert!(r[0].1.starts_with("7 event(s)"), "{}", r[0].1);
    for args in [
        &["timeline", "--format", "jsonl", "w", "u", "r"][..],
        &["analyze", "--format", "json", "w", "u", "r"],
    ] {
        let out = run_hostile(d.path(), args);
        assert!(out.code <= 1, "{args:?}: {}", out.stderr);
        instants_sane(&out.stdout_head, args[0]);
        if args[0] == "timeline" {
            assert!(
                out.stderr.contains("7 event(s) dated outside"),
                "{}",
                out.stderr
            );
        }
    }
    let out = run_hostile(d.path(), &["timeline", "--date", "0001-01-01", "u"]);
    assert_eq!(out.code, 2, "{}", out.stderr);
}
