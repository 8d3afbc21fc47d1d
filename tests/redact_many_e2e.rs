//! `--redact` over many distinct names (issue 43, item 7): an error log of
//! `N` records, each naming a host and an address of its own (the shape of
//! `scripts/make-hostile.py addresses`), built in the test. Every one of
//! them is redacted in the report and in every row, each with a token of
//! its own; `analyze`, which learns the names from its own read, gives
//! the tokens the learning pass of every other verb gives.
//!
//! And what lets `analyze` read once: only the readers `interest_applies`
//! names build other events under an interest (checked over every file of
//! `fixtures/`).

mod common;

use common::{Scratch, jsonl, mqdiag};
use mqdiag_readers::open::{Request, open};
use mqdiag_readers::source::ReadOptions;
use serde_json::Value;
use std::collections::HashSet;
use std::fmt::Write as _;
use std::sync::Arc;

/// Records, hosts and addresses (enough that a name missed now and then
/// would show; the timing is measured by hand at 200,000).
const N: u32 = 3_000;

/// The host and address of record `i`.
fn host(i: u32) -> String {
    format!("app{i:07}.example.com")
}
fn addr(i: u32) -> String {
    format!("10.{}.{}.{}", i >> 16 & 255, i >> 8 & 255, i & 255)
}

fn error_log(n: u32) -> String {
    let mut f = String::new();
    for i in 0..n {
        let (h, m, s) = (i / 3600, i / 60 % 60, i % 60);
        write!(
            f,
            "----- amqrmrsa.c : 938 --------------------------------------------------------
03/12/24 {h:02}:{m:02}:{s:02} - Process(4000.1) User(mqm) Program(amqrmppa)
                    Host(mqhost) Installation(Installation1)
                    VRMF(9.3.0.0) QMgr(QM1)
                    Time(2024-03-12T{h:02}:{m:02}:{s:02}.000Z)
                    CommentInsert1(CH.{i:07})

AMQ9999E: Channel 'CH.{i:07}' to host '{} ({})' ended abnormally.

EXPLANATION:
The channel program running under process ID 4000 for channel 'CH.{i:07}' ended
abnormally.
ACTION:
Look at previous error messages for the channel program in the error logs.
",
            host(i),
            addr(i)
        )
        .unwrap();
    }
    f
}

/// No host or address of the log in `out` (each host is `app` and seven
/// digits, each address `10.` and three numbers; nothing else is).
fn none_left(what: &str, out: &str) {
    let names = regex::Regex::new(r"app\d{7}|\b10\.\d{1,3}\.\d{1,3}\.\d{1,3}\b").unwrap();
    if let Some(m) = names.find(out) {
        panic!("{what}: {} printed", m.as_str());
    }
    // The check finds what it looks for.
    assert!(names.is_match(&error_log(2)));
}

#[test]
fn every_one_of_many_hosts_and_addresses_is_redacted() {
    let dir = Scratch::new("redact-many");
    dir.write("AMQERR01.LOG", error_log(N).as_bytes());
    let rows = mqdiag(&["timeline", &dir.str(), "--format", "jsonl", "--redact"]);
    assert_eq!(rows.code, 0, "{}", rows.stderr);
    none_left("timeline", &rows.stdout);
    let rows = jsonl(&rows.stdout);
    assert_eq!(rows.len(), N as usize);
    // Each value its own token: N hosts and N addresses, every text
    // naming the ones of its record's attributes.
    let (mut hosts, mut ips) = (HashSet::new(), HashSet::new());
    for r in &rows {
        let (h, a) = (&r["attrs"]["host"], &r["attrs"]["address"]);
        let (h, a) = (h.as_str().unwrap(), a.as_str().unwrap());
        assert!(h.starts_with("host-") && a.starts_with("ip-"), "{r}");
        let text = r["text"].as_str().unwrap();
        assert!(text.contains(&format!("'{h} ({a})'")), "{text}");
        hosts.insert(h.to_string());
        ips.insert(a.to_string());
    }
    assert_eq!((hosts.len(), ips.len()), (N as usize, N as usize));

    // The report, learnt from the analysis's own read: the same tokens.
    let report = mqdiag(&["analyze", &dir.str(), "--format", "json", "--redact"]);
    assert!(report.code <= 1, "{}", report.stderr);
    none_left("analyze", &report.stdout);
    let v: Value = serde_json::from_str(&report.stdout).unwrap();
    // Evidence of a record names the tokens its row does.
    let token_at: std::collections::HashMap<u64, &str> = rows
        .iter()
        .map(|r| {
            (
                r["line"].as_u64().unwrap(),
                r["attrs"]["host"].as_str().unwrap(),
            )
        })
        .collect();
    let mut named = 0;
    let findings = v["findings"].as_array().unwrap();
    for f in findings
        .iter()
        .flat_map(|f| f["evidence"].as_array())
        .flatten()
    {
        let text = f["text"].as_str().unwrap_or("");
        if let Some(t) = f["line"].as_u64().and_then(|l| token_at.get(&l))
            && text.contains("AMQ9999E")
        {
            assert!(text.contains(&format!("'{t} (ip-")), "{t}: {text}");
            named += 1;
        }
    }
    assert!(named > 0, "no evidence names a record: {}", report.stdout);
}

/// Every event of each source, as text, and whether `interest_applies`
/// to a file of it.
fn events_of(opts: &ReadOptions) -> Vec<(bool, Vec<String>)> {
    let req = Request {
        paths: vec!["fixtures".into()],
        ..Default::default()
    };
    let (sources, _) = open(&req, opts, &()).expect("fixtures open");
    sources
        .into_iter()
        .map(|mut s| {
            let mut events = Vec::new();
            while let Some(e) = s.next_event() {
                events.push(format!("{e:?}"));
            }
            let infos = s.finish();
            let applies = infos
                .iter()
                .any(|i| mqdiag_readers::formats::interest_applies(i.format));
            (applies, events)
        })
        .collect()
}

#[test]
fn only_the_formats_interest_applies_to_read_otherwise_under_an_interest() {
    let plan = mqdiag_analysis::passes::Plan::new(&[], &[], &[]).unwrap();
    let all = ReadOptions {
        jobs: 1,
        ..Default::default()
    };
    let some = ReadOptions {
        interest: Some(Arc::new(plan.interest())),
        ..all.clone()
    };
    let (a, b) = (events_of(&all), events_of(&some));
    assert_eq!(a.len(), b.len());
    let mut differ = 0;
    for ((applies, ea), (_, eb)) in a.iter().zip(&b) {
        if *applies {
            differ += usize::from(ea != eb);
        } else {
            let first = ea.first().or(eb.first());
            assert!(ea == eb, "other events under an interest: {first:?}");
        }
    }
    // The check can fail: the readers it names do read otherwise.
    assert!(differ > 0, "no trace or SMF file read otherwise");
}
