//! One redaction mapping per input set (issue 28 item 1, issue 30 items 16
//! and 17): every verb in every format gives a value the same token, at any
//! `-j`; `--redact-map` saves the mapping and a later run reuses it; names
//! inside channel names are replaced; fingerprints under `--redact` are of
//! the tokens.

mod common;

use common::{Scratch, mqdiag};
use regex::Regex;
use std::collections::BTreeSet;
use std::fs;

const CASE: &str = "fixtures/case-mixed";

/// Names the case holds (in headers, paths, message text, SMF rows).
const PLANTED: &[&str] = &[
    "MQPR",
    "GW1",
    "mvs1",
    "mvs1.example.com",
    "appsrv9",
    "gw1.example.eu",
    "SYSA",
    "10.40.1.17",
];

const RUNS: &[&[&str]] = &[
    &["analyze", "--format", "text"],
    &["analyze", "--format", "markdown"],
    &["analyze", "--format", "html"],
    &["analyze", "--format", "json"],
    &["analyze", "--format", "sarif"],
    &["timeline", "--format", "text"],
    &["timeline", "--format", "csv"],
    &["timeline", "--format", "jsonl"],
    &["inventory", "--format", "text"],
    &["inventory", "--format", "json"],
    &["calls", "--format", "text"],
    &["calls", "--format", "csv"],
    &["calls", "--format", "json"],
];

/// (value, token) pairs of a saved map.
fn map_pairs(text: &str) -> Vec<(String, String)> {
    let v: serde_json::Value = serde_json::from_str(text).expect("map is JSON");
    v["tokens"]
        .as_array()
        .expect("tokens")
        .iter()
        .map(|e| {
            (
                e["value"].as_str().unwrap().to_string(),
                e["token"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// `value` as a whole word (not inside a longer name), any case.
fn word(value: &str) -> Regex {
    Regex::new(&format!(
        r"(?i)(^|[^A-Za-z0-9]){}([^A-Za-z0-9]|$)",
        regex::escape(value)
    ))
    .unwrap()
}

#[test]
fn every_verb_and_format_gives_a_value_the_same_token() {
    let tmp = Scratch::new("redact-map");
    let token_re = Regex::new(r"\b(?:host|ip|user|qmgr|dn|addr|secret)-\d+\b").unwrap();
    let mut first_map: Option<String> = None;
    for (i, args) in RUNS.iter().enumerate() {
        for jobs in ["1", "8"] {
            let map = tmp.0.join(format!("map-{i}-{jobs}.json"));
            let map_s = map.to_string_lossy().into_owned();
            let mut a = args.to_vec();
            a.extend([CASE, "--redact", "-q", "-j", jobs, "--redact-map", &map_s]);
            let r = mqdiag(&a);
            assert!(r.code == 0 || r.code == 1, "{a:?}: {}", r.stderr);
            let text = fs::read_to_string(&map).expect("map written");
            // The same mapping whatever the verb, format or worker count.
            match &first_map {
                None => first_map = Some(text.clone()),
                Some(m) => assert_eq!(m, &text, "{a:?}: another mapping"),
            }
            let pairs = map_pairs(&text);
            let tokens: BTreeSet<&str> = pairs.iter().map(|(_, t)| t.as_str()).collect();
            // Every token shown is one the map holds (none made up late).
            for t in token_re.find_iter(&r.stdout) {
                assert!(
                    tokens.contains(t.as_str()),
                    "{a:?}: {} not in the map",
                    t.as_str()
                );
            }
            for p in PLANTED {
                assert!(
                    pairs.iter().any(|(v, _)| v.eq_ignore_ascii_case(p)),
                    "{p} not learnt"
                );
            }
            for (v, _) in &pairs {
                let m = word(v).find(&r.stdout);
                assert!(
                    m.is_none(),
                    "{a:?}: {v} survives: {:?}",
                    m.map(|m| m.as_str())
                );
            }
        }
    }
    // The queue managers inside a channel name are replaced there too.
    let pairs = map_pairs(first_map.as_deref().unwrap());
    let tok = |v: &str| {
        pairs
            .iter()
            .find(|(x, _)| x.eq_ignore_ascii_case(v))
            .map(|(_, t)| t.clone())
            .unwrap()
    };
    let out = common::stdout_of(&["timeline", CASE, "--redact", "-q"]);
    assert!(
        out.contains(&format!("'{}.TO.{}'", tok("GW1"), tok("MQPR"))),
        "{out}"
    );
    assert!(
        out.contains(&format!("ChlName({}.SVRCONN)", tok("MQPR"))),
        "{out}"
    );
    // A domain name and its host's short name are one host.
    assert_eq!(tok("mvs1"), tok("mvs1.example.com"));
}

#[test]
fn a_saved_map_is_reused_by_a_run_on_part_of_the_case() {
    let tmp = Scratch::new("redact-map-reuse");
    let map = tmp.0.join("map.json");
    let map_s = map.to_string_lossy().into_owned();
    let r = mqdiag(&["inventory", CASE, "--redact", "-q", "--redact-map", &map_s]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let full = map_pairs(&fs::read_to_string(&map).unwrap());
    let gw1 = full
        .iter()
        .find(|(v, _)| v == "gw1")
        .map(|(_, t)| t.clone())
        .unwrap();
    // The gateway alone would number GW1 first; with the map it keeps the
    // whole case's token.
    let part = "fixtures/case-mixed/gateway";
    let alone = common::stdout_of(&["timeline", part, "--redact", "-q"]);
    let with = common::stdout_of(&["timeline", part, "--redact", "-q", "--redact-map", &map_s]);
    assert_ne!(gw1, "qmgr-1", "the test needs GW1 numbered after another");
    assert!(with.contains(&format!("qmgrs/{gw1}/")), "{with}");
    assert!(alone.contains("qmgrs/qmgr-1/"), "{alone}");
    // The map grew by nothing: the part holds no new value.
    assert_eq!(map_pairs(&fs::read_to_string(&map).unwrap()), full);
}

#[test]
fn a_map_under_an_input_directory_is_refused() {
    let r = mqdiag(&[
        "timeline",
        CASE,
        "--redact",
        "--redact-map",
        "fixtures/case-mixed/map.json",
    ]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        !std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/case-mixed/map.json")
            .exists()
    );
    let r = mqdiag(&["timeline", CASE, "--redact-map", "/tmp/x.json"]);
    assert_eq!(r.code, 2, "--redact-map needs --redact: {}", r.stderr);
}

#[test]
fn timeline_tokens_do_not_vary_with_workers() {
    let one = common::stdout_of(&["timeline", CASE, "--redact", "-q", "-j", "1"]);
    for _ in 0..10 {
        let eight = common::stdout_of(&["timeline", CASE, "--redact", "-q", "-j", "8"]);
        assert_eq!(one, eight);
    }
}

#[test]
fn fingerprints_under_redact_are_of_the_tokens() {
    let fps = |redact: bool| -> Vec<(String, String)> {
        let mut a = vec!["analyze", CASE, "--format", "json", "-q"];
        if redact {
            a.push("--redact");
        }
        let r = mqdiag(&a);
        assert!(r.code == 0 || r.code == 1, "{}", r.stderr);
        let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
        v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| {
                (
                    f["subject"].to_string(),
                    f["fingerprint"].as_str().unwrap().to_string(),
                )
            })
            .collect()
    };
    let plain = fps(false);
    let redacted: BTreeSet<String> = fps(true).into_iter().map(|(_, f)| f).collect();
    let named: Vec<&(String, String)> = plain
        .iter()
        .filter(|(s, _)| PLANTED.iter().any(|p| s.contains(p)))
        .collect();
    assert!(named.len() >= 2, "{plain:?}");
    for (s, f) in named {
        assert!(!redacted.contains(f), "{s}: the same fingerprint redacted");
    }
}
