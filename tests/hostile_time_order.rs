//! Time that goes backwards, built at run time: console logs under
//! kubectl's and compose's wrappers whose stamps step back (a little,
//! within the merge's window, and far, past it), with stamps shared
//! across files. Each file's steps back are one located problem, no
//! record is lost, and every row format gives the rows in one order.

mod common;

use common::{Scratch, run_hostile};
use serde_json::Value;

/// Records per file (scaled down; every fifth steps back).
const N: usize = 600;

/// Record `i`'s instant in milliseconds: every fifth is stamped before the
/// one before it, every 25th far back (past the merge's one-second window),
/// and files share stamps (ties are ordered by file, then line).
fn millis(i: usize) -> u64 {
    let t = 1_000 * i as u64;
    match i {
        _ if i % 25 == 24 => t - 7_500,
        _ if i % 5 == 4 => t - 1_500,
        _ => t,
    }
}

fn stamp(ms: u64) -> String {
    format!(
        "2024-08-12T08:{:02}:{:02}.{:03}Z",
        ms / 60_000 % 60,
        ms / 1000 % 60,
        ms % 1000
    )
}

fn kubectl(tag: &str) -> String {
    (0..N)
        .map(|i| {
            format!(
                "[pod/mq-0/qmgr] {} AMQ9209E: Connection to host 'h{i}' for channel '{tag}{i}' closed.\n",
                stamp(millis(i))
            )
        })
        .collect()
}

fn compose(tag: &str) -> String {
    (0..N)
        .map(|i| {
            format!(
                "mq-1  | {} AMQ9209E: Connection to host 'h{i}' for channel '{tag}{i}' closed.\n",
                stamp(millis(i))
            )
        })
        .collect()
}

/// (path, line) of each row of `timeline --format <format>`.
fn order(d: &Scratch, format: &str, jobs: &str) -> Vec<(String, u64)> {
    let r = run_hostile(
        d.path(),
        &["timeline", ".", "--format", format, "-q", "-j", jobs],
    );
    assert_eq!(r.code, 0, "{format}: {}", r.stderr);
    let out = &r.stdout_head;
    match format {
        "text" => out
            .lines()
            .filter_map(|l| {
                let place = l.split("  ").nth(1)?;
                let (p, n) = place.rsplit_once(':')?;
                Some((p.to_string(), n.parse().ok()?))
            })
            .collect(),
        "csv" => out
            .lines()
            .skip(1)
            .map(|l| {
                let f: Vec<&str> = l.splitn(5, ',').collect();
                (f[2].to_string(), f[3].parse().unwrap())
            })
            .collect(),
        _ => common::jsonl(out)
            .iter()
            .map(|v| {
                let (p, n) = match format {
                    "jsonl" => (&v["path"], &v["line"]),
                    "ecs" => (&v["log"]["file"]["path"], &v["mqdiag"]["line"]),
                    _ => {
                        let attr = |k: &str| -> Value {
                            v["resourceLogs"][0]["scopeLogs"][0]["logRecords"][0]["attributes"]
                                .as_array()
                                .unwrap()
                                .iter()
                                .find(|a| a["key"] == k)
                                .map(|a| a["value"].clone())
                                .unwrap_or(Value::Null)
                        };
                        return (
                            attr("log.file.path")["stringValue"]
                                .as_str()
                                .unwrap()
                                .to_string(),
                            attr("mqdiag.line")["intValue"]
                                .as_str()
                                .unwrap()
                                .parse()
                                .unwrap(),
                        );
                    }
                };
                (p.as_str().unwrap().to_string(), n.as_u64().unwrap())
            })
            .collect(),
    }
}

#[test]
fn backward_stamps_are_problems_and_every_format_orders_rows_alike() {
    let d = Scratch::new("backward");
    d.write("a/kubectl.log", kubectl("A").as_bytes());
    d.write("b/compose.log", compose("B").as_bytes());
    // Each file: every record read, the steps back one located problem.
    let r = run_hostile(d.path(), &["inventory", ".", "--format", "json", "-q"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: Value = serde_json::from_str(&r.stdout_head).unwrap();
    let back = (0..N).filter(|&i| i % 5 == 4).count();
    for f in v["files"].as_array().unwrap() {
        assert_eq!(f["events"], N as u64, "{f:#}");
        let p = f["problems"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| {
                p["code"] == "out-of-order" && p["message"].as_str().unwrap().contains("goes back")
            })
            .unwrap_or_else(|| panic!("no step back said: {f:#}"));
        assert_eq!(p["line"], 5, "{p:#}");
        let says = format!("{back} record(s)");
        assert!(p["message"].as_str().unwrap().contains(&says), "{p:#}");
    }
    // One order in every format and at any -j: the instant, then the
    // file, then the line.
    let mut expected: Vec<(u64, String, u64)> = Vec::new();
    for p in ["a/kubectl.log", "b/compose.log"] {
        for i in 0..N {
            expected.push((millis(i), format!("./{p}"), i as u64 + 1));
        }
    }
    expected.sort();
    let expected: Vec<(String, u64)> = expected.into_iter().map(|(_, p, l)| (p, l)).collect();
    for jobs in ["1", "2"] {
        for format in ["text", "csv", "jsonl", "ecs", "otlp"] {
            let got = order(&d, format, jobs);
            assert_eq!(got.len(), expected.len(), "{format} -j {jobs}");
            let first_diff = got.iter().zip(&expected).position(|(g, e)| g != e);
            assert!(
                first_diff.is_none(),
                "{format} -j {jobs}: row {:?} is {:?}, expected {:?}",
                first_diff,
                first_diff.map(|i| &got[i]),
                first_diff.map(|i| &expected[i]),
            );
        }
    }
}
