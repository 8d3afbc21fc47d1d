//! Readers on inputs at the edge of their formats, built at run time: a
//! first record longer than a sniffing block, gzip files padded, cut or
//! followed by other bytes. Each run bounded in time and address space.

mod common;

use common::{Scratch, gzip, run_limited};
use serde_json::Value;

const TRACE: &str = include_str!("../fixtures/trace/AMQ622742.0.FMT");
const ERRLOG: &str = include_str!("../fixtures/client-errors/AMQERR01.LOG");

/// The inventory rows of `paths` in `d`, by path.
fn inventory(d: &Scratch, paths: &[&str]) -> Vec<Value> {
    let mut args = vec!["inventory", "--format", "json", "-q"];
    args.extend_from_slice(paths);
    let r = run_limited(d.path(), &args, 10, Some(2 << 30));
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
