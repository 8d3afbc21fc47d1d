//! End-to-end: z/OS console lines with Julian dates (`yyyyddd` as
//! operator-command tools return them, and `yyddd`), with and without the
//! system-name column.

mod common;
use common::*;

const DIR: &str = "fixtures/zos-julian";

fn rows(file: &str) -> Vec<serde_json::Value> {
    let path = format!("{DIR}/{file}");
    let r = mqdiag(&["timeline", &path, "--format", "jsonl", "--tz", "+02:00"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    jsonl(&r.stdout)
}

#[test]
fn every_variant_gives_the_same_messages_at_the_same_instants() {
    let want = [
        ("2020-08-25T23:37:37.000000+02:00", "CSQX511I"),
        ("2020-08-25T23:37:41.250000+02:00", "CSQX209E"),
        ("2020-08-26T00:00:01.020000+02:00", "CSQX512I"),
    ];
    for (file, host) in [
        ("SYSA.yyyyddd.txt", Some("SYSA")),
        ("nosys.yyyyddd.txt", None),
        ("SYSA.yyddd.txt", Some("SYSA")),
        ("nosys.yyddd.txt", None),
    ] {
        let rows: Vec<_> = rows(file)
            .into_iter()
            .filter(|r| r["attrs"]["msgid"] != "CSQX599E")
            .collect();
        let got: Vec<(&str, &str)> = rows
            .iter()
            .map(|r| {
                (
                    r["ts"].as_str().unwrap(),
                    r["attrs"]["msgid"].as_str().unwrap(),
                )
            })
            .collect();
        assert_eq!(got, want, "{file}");
        for r in &rows {
            assert_eq!(r["format"], "zos-joblog", "{file}");
            assert_eq!(r["attrs"]["local_host"].as_str(), host, "{file}");
            assert_eq!(r["attrs"]["qmgr"], "MQ1A", "{file}");
        }
        // The multi-line message is joined, its inserts read.
        let e = &rows[1];
        assert_eq!(e["attrs"]["channel"], "TO.MQ2A", "{file}");
        assert_eq!(e["attrs"]["address"], "10.1.2.3", "{file}");
        assert_eq!(e["attrs"]["reason"], "1128", "{file}");
        assert!(
            e["text"].as_str().unwrap().ends_with("RC=00000468"),
            "{file}"
        );
    }
}

#[test]
fn command_echo_and_other_messages_are_not_continuations() {
    let rows = rows("SYSA.yyyyddd.txt");
    let lines: Vec<u64> = rows.iter().map(|r| r["line"].as_u64().unwrap()).collect();
    assert_eq!(lines, vec![3, 4, 8, 9]);
    assert_eq!(
        rows[0]["text"],
        "CSQX511I %MQ1A CSQXRESP Channel TO.MQ2A started"
    );
    assert_eq!(rows[0]["attrs"]["job"], "STC04321");
}

#[test]
fn inventory_snapshot() {
    let r = mqdiag(&["inventory", DIR, "--tz", "+02:00"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    insta::assert_snapshot!(r.stdout);
}

#[test]
fn timeline_snapshot() {
    let r = mqdiag(&["timeline", DIR, "--tz", "+02:00", "--format", "jsonl"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    insta::assert_snapshot!(r.stdout);
}
