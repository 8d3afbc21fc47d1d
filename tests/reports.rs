//! The report formats: snapshots of each on the trace fixtures, the JSON
//! report checked field by field against the contract, SARIF structure,
//! format inference from `-o`, redaction. What depends on the rules
//! registered is checked against the registry (`RULES`), not listed here:
//! each rule has its own snapshot (`rules_<id>`), and a rule added that
//! finds nothing on these fixtures changes no other snapshot.

mod common;
use common::*;
use mqdiag_analysis::passes::{self, RULES};
use serde_json::Value;
use std::collections::BTreeSet;

/// The fixtures of this test suite's cases (other fixtures under
/// `fixtures/` belong to the readers' tests and may change).
const DEMO: &[&str] = &[
    "fixtures/trace/sdr-channel",
    "fixtures/trace/rcvr-channel",
    "fixtures/trace/client-dns",
    "fixtures/trace/churn",
    "fixtures/unreadable",
];

fn with_demo<'a>(args: &[&'a str]) -> Vec<&'a str> {
    let mut v = args.to_vec();
    v.extend_from_slice(DEMO);
    v
}

fn report(format: &str) -> String {
    let r = mqdiag(&with_demo(&["analyze", "--format", format]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    r.stdout
}

#[test]
fn snapshot_text() {
    insta::assert_snapshot!("report_text", every_rule_ran(&report("text")));
}

#[test]
fn snapshot_json() {
    insta::assert_snapshot!("report_json", report("json"));
}

#[test]
fn snapshot_markdown() {
    insta::assert_snapshot!("report_markdown", every_rule_ran(&report("markdown")));
}

/// The rules' descriptors are in each rule's own snapshot.
#[test]
fn snapshot_sarif() {
    insta::assert_snapshot!("report_sarif", sarif_rules_apart(&report("sarif")).0);
}

#[test]
fn snapshot_html() {
    insta::assert_snapshot!("report_html", every_rule_ran(&report("html")));
}

/// `rules` prints one block per rule, in `RULES` order, blank lines
/// between: each rule's block, checked to make up the whole output.
fn rule_blocks(text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.lines().collect();
    let starts: Vec<usize> = RULES
        .iter()
        .map(|r| {
            let head = format!("{}  (default severity: ", r.id);
            let at = lines.iter().position(|l| l.starts_with(&head));
            at.unwrap_or_else(|| panic!("`rules` lacks {}", r.id))
        })
        .collect();
    assert!(starts.windows(2).all(|w| w[0] < w[1]), "RULES order");
    let mut blocks = Vec::new();
    for (i, &at) in starts.iter().enumerate() {
        let end = starts.get(i + 1).map_or(lines.len(), |&next| next - 1);
        blocks.push(lines[at..end].join("\n") + "\n");
    }
    assert_eq!(blocks.join("\n"), text, "the blocks are the whole output");
    blocks
}

/// Each rule as `mqdiag rules` prints it and as a SARIF report describes
/// it, in a snapshot of its own: `rules_<id>`.
#[test]
fn snapshot_each_rule() {
    let r = mqdiag(&["rules"]);
    assert_eq!(r.code, 0);
    let blocks = rule_blocks(&r.stdout);
    let (_, descriptors) = sarif_rules_apart(&report("sarif"));
    for ((rule, block), sarif) in RULES.iter().zip(blocks).zip(descriptors) {
        let sarif = serde_json::to_string_pretty(&sarif).unwrap();
        let both = format!("{block}\nSARIF reportingDescriptor:\n{sarif}\n");
        insta::assert_snapshot!(format!("rules_{}", rule.id), both);
    }
}

/// The README's rules table, for users, names every rule and no other:
/// a rule added is a row there (documentation, not a test artefact).
#[test]
fn readme_rules_table_names_every_rule() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let table = readme
        .split("\n## Rules\n")
        .nth(1)
        .expect("README has a Rules section")
        .split("\n#")
        .next()
        .unwrap();
    let mut named = BTreeSet::new();
    for row in table.lines().filter(|l| l.starts_with("| `")) {
        let first = row.split('|').nth(1).unwrap();
        for id in first.split('`').skip(1).step_by(2) {
            assert!(passes::rule(id).is_some(), "README names no rule `{id}`");
            assert!(named.insert(id), "README names `{id}` twice");
        }
    }
    for r in RULES {
        assert!(
            named.contains(r.id),
            "README's rules table lacks `{}`",
            r.id
        );
    }
}

fn keys(v: &Value) -> BTreeSet<&str> {
    v.as_object()
        .unwrap_or_else(|| panic!("not an object: {v}"))
        .keys()
        .map(String::as_str)
        .collect()
}

fn set<'a>(k: &[&'a str]) -> BTreeSet<&'a str> {
    k.iter().copied().collect()
}

fn is_rfc3339_or_null(v: &Value) -> bool {
    v.is_null()
        || v.as_str()
            .is_some_and(|s| chrono::DateTime::parse_from_rfc3339(s).is_ok() && s.contains('.'))
}

/// The contract's required metrics of its rules. Each rule declares the
/// metrics its findings carry (`RuleInfo::metrics`), which the report is
/// checked against; these must be among them. A rule the contract does
/// not list yet is held to its own declaration only.
const CONTRACT_METRICS: &[(&str, &[&str])] = &[
    (
        "slow-dns",
        &["address", "function", "max_seconds", "occurrences"],
    ),
    (
        "tcp-send-stall",
        &["stalls", "max_wait_ms", "total_wait_ms", "p95_wait_ms"],
    ),
    (
        "socket-buffer-size",
        &[
            "send_current",
            "send_requested",
            "send_final",
            "recv_current",
            "recv_requested",
            "recv_final",
        ],
    ),
    (
        "qtime-growth",
        &["samples", "first_us", "max_us", "last_us", "slope_us_per_s"],
    ),
    ("tls-handshake-slow", &["function", "max_ms", "calls"]),
    (
        "connection-churn",
        &["connects", "per_second", "mean_connection_ms"],
    ),
    ("channel-error", &["message_id", "occurrences"]),
    ("tls-error", &["message_id", "occurrences"]),
    (
        "access-refused",
        &["mechanism", "occurrences", "user", "address", "channel"],
    ),
    ("resource-limit", &["limit", "occurrences", "object"]),
    (
        "mqi-failures",
        &["verb", "reason", "reason_name", "failures", "calls"],
    ),
    (
        "fdc",
        &[
            "probe_id",
            "component",
            "major_error",
            "reports",
            "programs",
            "first_fdc",
        ],
    ),
    ("unreadable-input", &["lines_skipped"]),
];

#[test]
fn rules_declare_the_contracts_metrics() {
    for (id, metrics) in CONTRACT_METRICS {
        let declared = passes::rule(id)
            .unwrap_or_else(|| panic!("no rule {id}"))
            .metrics;
        for m in *metrics {
            assert!(declared.contains(m), "{id} does not declare metric {m}");
        }
    }
}

/// The JSON report has exactly the contract's fields, with their types.
#[test]
fn json_report_follows_the_contract() {
    let r = mqdiag(&["analyze", "--format", "json", "fixtures/"]);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(
        keys(&v),
        set(&[
            "schema_version",
            "tool",
            "inputs",
            "findings",
            "summary",
            "calls",
            "run",
            "reading_notes"
        ])
    );
    // `calls`: the rows of `calls --format json` (per process and verb).
    let calls = v["calls"].as_array().unwrap();
    assert!(!calls.is_empty());
    for c in calls {
        // `trace` only for a process whose trace names no host; `timing`
        // only for calls an activity trace timed.
        let mut k = keys(c);
        k.remove("trace");
        k.remove("timing");
        assert_eq!(
            k,
            set(&[
                "host", "pid", "process", "verb", "calls", "ok", "warnings", "failed", "open",
                "total_us", "mean_us", "p50_us", "p95_us", "max_us", "max_at", "reasons"
            ])
        );
        let n = |k: &str| c[k].as_u64().unwrap();
        assert_eq!(
            n("calls"),
            n("ok") + n("warnings") + n("failed") + n("open")
        );
    }
    assert_eq!(v["schema_version"], 1);
    assert_eq!(keys(&v["tool"]), set(&["name", "version"]));
    assert_eq!(v["tool"]["name"], "mqdiag");
    assert_eq!(v["tool"]["version"], env!("CARGO_PKG_VERSION"));
    let inputs = v["inputs"].as_array().unwrap();
    // At least this suite's 13 files (readers' fixtures may add more).
    assert!(inputs.len() >= 13, "{}", inputs.len());
    for i in inputs {
        assert_eq!(
            keys(i),
            set(&[
                "path", "format", "bytes", "lines", "events", "first", "last"
            ])
        );
        assert!(i["path"].as_str().unwrap().starts_with("fixtures/"));
        // A format a reader declares, or `unknown`.
        let format = i["format"].as_str().unwrap();
        let known = mqdiag_readers::formats::READERS
            .iter()
            .any(|r| r.format().as_str() == format);
        assert!(known || format == "unknown", "{i}");
        for k in ["bytes", "lines", "events"] {
            assert!(i[k].is_u64(), "{k} in {i}");
        }
        assert!(is_rfc3339_or_null(&i["first"]) && is_rfc3339_or_null(&i["last"]));
    }
    let findings = v["findings"].as_array().unwrap();
    assert!(!findings.is_empty());
    // `user`: the user id a refusal names (issue 40), beyond the
    // contract's list.
    let allowed_subject = set(&[
        "pid", "tid", "ident", "channel", "host", "address", "user", "queue", "qmgr", "program",
    ]);
    let mut fps = BTreeSet::new();
    let (mut e, mut w, mut n) = (0, 0, 0);
    let allowed_breakdown = set(&[
        "message_id",
        "channel",
        "host",
        "address",
        "return_code",
        "occurrences",
        "first",
        "last",
    ]);
    let mut breakdowns = 0;
    for f in findings {
        // `breakdown` is optional: only findings that group several rows.
        if let Some(b) = f.get("breakdown") {
            let rows = b.as_array().unwrap();
            assert!(rows.len() >= 2, "{f}");
            for r in rows {
                assert!(keys(r).is_subset(&allowed_breakdown), "{r}");
                assert!(r["occurrences"].as_u64().unwrap() >= 1);
            }
            breakdowns += 1;
        }
        let mut k = keys(f);
        k.remove("breakdown");
        assert_eq!(
            k,
            set(&[
                "rule",
                "severity_reason",
                "severity",
                "title",
                "first",
                "last",
                "count",
                "subject",
                "metrics",
                "evidence",
                "advice",
                "fingerprint",
                "baseline"
            ])
        );
        let rule = f["rule"].as_str().unwrap();
        let required = passes::rule(rule).expect("a registered rule").metrics;
        for m in required {
            assert!(f["metrics"].get(*m).is_some(), "{rule} lacks metric {m}");
        }
        match f["severity"].as_str().unwrap() {
            "error" => e += 1,
            "warning" => w += 1,
            "info" => n += 1,
            other => panic!("severity {other}"),
        }
        assert!(!f["title"].as_str().unwrap().is_empty());
        assert!(!f["advice"].as_str().unwrap().is_empty());
        assert!(is_rfc3339_or_null(&f["first"]) && is_rfc3339_or_null(&f["last"]));
        assert!(f["count"].as_u64().unwrap() >= 1);
        assert!(keys(&f["subject"]).is_subset(&allowed_subject));
        let ev = f["evidence"].as_array().unwrap();
        assert!(
            !ev.is_empty() && ev.len() <= 6,
            "{rule}: {} evidence lines",
            ev.len()
        );
        for x in ev {
            assert_eq!(keys(x), set(&["path", "line", "text"]));
            assert!(x["line"].as_u64().unwrap() >= 1);
        }
        let fp = f["fingerprint"].as_str().unwrap();
        assert!(fp.starts_with(&format!("{rule}:")), "{fp}");
        assert!(fps.insert(fp.to_string()), "duplicate fingerprint {fp}");
        assert_eq!(f["baseline"], false);
    }
    // fixtures/ has channel-error findings that group several rows.
    assert!(breakdowns > 0);
    assert_eq!(
        keys(&v["summary"]),
        set(&["error", "warning", "info", "new", "baseline"])
    );
    assert_eq!(v["summary"]["error"], e);
    assert_eq!(v["summary"]["warning"], w);
    assert_eq!(v["summary"]["info"], n);
    let total = v["findings"].as_array().unwrap().len();
    assert_eq!(v["summary"]["new"], total);
    assert_eq!(v["summary"]["baseline"], 0);
    assert_eq!(
        keys(&v["run"]),
        set(&[
            "command", "only", "skip", "set", "tz", "baseline", "redact", "window"
        ])
    );
    assert_eq!(v["run"]["command"][0], "mqdiag");
    assert_eq!(v["run"]["command"][1], "analyze");
}

/// A report made with rules skipped, thresholds changed, `--tz` and a
/// baseline says so in every format, and counts baseline findings apart.
#[test]
fn every_format_states_how_the_report_was_made() {
    let dir = std::env::temp_dir().join(format!("mqdiag-run-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let base = dir.join("base.json");
    let b = mqdiag(&[
        "analyze",
        "fixtures/trace",
        "--format",
        "json",
        "-o",
        base.to_str().unwrap(),
    ]);
    assert!(b.code == 0 || b.code == 1, "{}", b.stderr);
    let args = |fmt: &'static str| {
        vec![
            "analyze",
            "fixtures/trace",
            "fixtures/errlog",
            "--format",
            fmt,
            "--skip",
            "channel-error,tls-error",
            "--set",
            "tcp-send-stall.min_wait_ms=100",
            "--tz",
            "+01:00",
            "--baseline",
            base.to_str().unwrap(),
        ]
    };
    let json = mqdiag(&args("json"));
    let v: Value = serde_json::from_str(&json.stdout).unwrap();
    let run = &v["run"];
    assert_eq!(
        run["skip"],
        serde_json::json!(["channel-error", "tls-error"])
    );
    assert_eq!(run["only"], serde_json::json!([]));
    assert_eq!(run["set"]["tcp-send-stall.min_wait_ms"], "100");
    assert_eq!(run["tz"], "+01:00");
    assert!(run["baseline"].as_str().unwrap().ends_with("base.json"));
    assert_eq!(run["redact"], false);
    let f = v["findings"].as_array().unwrap();
    let old = f.iter().filter(|f| f["baseline"] == true).count();
    assert!(old > 0 && old < f.len(), "{old} of {}", f.len());
    assert_eq!(v["summary"]["baseline"], old);
    assert_eq!(v["summary"]["new"], f.len() - old);
    assert!(
        f.iter()
            .all(|f| f["rule"] != "channel-error" && f["rule"] != "tls-error")
    );
    for fmt in ["text", "markdown", "html"] {
        let out = mqdiag(&args(fmt)).stdout;
        for want in [
            "rules skipped: channel-error, tls-error",
            "thresholds changed: tcp-send-stall.min_wait_ms=100",
            "read as +01:00 (--tz)",
            "base.json",
            &format!("({} new, {old} in baseline)", f.len() - old),
        ] {
            assert!(out.contains(want), "{fmt} lacks {want:?}");
        }
    }
    let sarif: Value = serde_json::from_str(&mqdiag(&args("sarif")).stdout).unwrap();
    let inv = &sarif["runs"][0]["invocations"][0];
    assert!(
        inv["commandLine"]
            .as_str()
            .unwrap()
            .contains("--skip channel-error,tls-error")
    );
    assert_eq!(inv["properties"]["run"]["skip"], run["skip"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Same input, same fingerprints; a different directory spelling of the
/// same files changes only the paths given, as the contract says.
#[test]
fn fingerprints_are_stable_across_runs() {
    let fps = |p: &[&str]| -> Vec<String> {
        analyze_json(p)["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["fingerprint"].as_str().unwrap().to_string())
            .collect()
    };
    let a = fps(DEMO);
    assert_eq!(a, fps(DEMO));
    assert_eq!(a.len(), 9);
    // Under `--redact` they are of the tokens: stable from run to run,
    // and not those of the names (which a guess could confirm).
    let red = fps(&with_demo(&["--redact"]));
    assert_eq!(red, fps(&with_demo(&["--redact"])));
    assert_eq!(red.len(), a.len());
    assert_ne!(a, red);
}

#[test]
fn sarif_structure() {
    let v: Value = serde_json::from_str(&report("sarif")).unwrap();
    assert_eq!(v["version"], "2.1.0");
    assert!(v["$schema"].as_str().unwrap().contains("sarif-2.1.0"));
    let run = &v["runs"][0];
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    let ids: Vec<&str> = rules.iter().map(|r| r["id"].as_str().unwrap()).collect();
    // Every rule ran: every registered rule, in report order.
    let registered: Vec<&str> = RULES.iter().map(|r| r.id).collect();
    assert_eq!(ids, registered);
    assert!(ids.contains(&"tcp-send-stall") && ids.contains(&"unreadable-input"));
    for r in rules {
        let help = r["help"]["text"].as_str().unwrap();
        assert!(
            help.contains("Trigger:") && help.contains("Advice:"),
            "{help}"
        );
    }
    let results = run["results"].as_array().unwrap();
    assert_eq!(results.len(), 9);
    for res in results {
        let idx = res["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(rules[idx]["id"], res["ruleId"]);
        assert!(["error", "warning", "note"].contains(&res["level"].as_str().unwrap()));
        let loc = &res["locations"][0]["physicalLocation"];
        assert!(
            loc["artifactLocation"]["uri"]
                .as_str()
                .unwrap()
                .starts_with("fixtures/")
        );
        assert!(loc["region"]["startLine"].as_u64().unwrap() >= 1);
        assert!(res["partialFingerprints"]["mqdiag/v1"].is_string());
        assert!(res.get("baselineState").is_none());
    }
}

#[test]
fn format_follows_the_output_extension() {
    let dir = std::env::temp_dir().join(format!("mqdiag-fmt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, check) in [
        ("r.sarif", "\"version\": \"2.1.0\""),
        ("r.json", "\"schema_version\": 1"),
        ("r.md", "# mqdiag report"),
        ("r.html", "<!DOCTYPE html>"),
        ("r.txt", "SEVERITY"),
    ] {
        let out = dir.join(name);
        let r = mqdiag(&with_demo(&["analyze", "-o", out.to_str().unwrap()]));
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert!(r.stdout.is_empty());
        let text = std::fs::read_to_string(&out).unwrap();
        assert!(
            text.contains(check),
            "{name}: {}",
            &text[..200.min(text.len())]
        );
    }
    // --format and an extension that asks for another format are an
    // error naming both (issue 41); an extension no format claims takes
    // --format.
    let out = dir.join("r2.json");
    let r = mqdiag(&with_demo(&[
        "analyze",
        "--format",
        "markdown",
        "-o",
        out.to_str().unwrap(),
    ]));
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("--format markdown") && r.stderr.contains("r2.json"));
    assert!(!out.exists());
    let out = dir.join("r2.report");
    let r = mqdiag(&with_demo(&[
        "analyze",
        "--format",
        "markdown",
        "-o",
        out.to_str().unwrap(),
    ]));
    assert_eq!(r.code, 0);
    assert!(
        std::fs::read_to_string(&out)
            .unwrap()
            .starts_with("# mqdiag report")
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn html_is_self_contained_with_a_chart() {
    let h = report("html");
    assert!(h.contains("<style>") && h.contains("<svg"));
    assert!(!h.contains("<script"));
    assert!(!h.contains("src=\"http") && !h.contains("href=\"http"));
    // The qtime-growth series: 34 points drawn in its chart.
    let qtime = h
        .split("<figure")
        .find(|f| f.contains("aria-label=\"Queue time per sample"))
        .unwrap();
    assert_eq!(qtime.matches("<circle").count(), 34);
}

#[test]
fn redaction_replaces_hosts_consistently() {
    let plain = mqdiag(&with_demo(&["analyze", "--format", "markdown"])).stdout;
    for host in ["mqaixny1", "mqaixtx1", "mqclient1", "appsrv02"] {
        assert!(plain.contains(host), "{host} in the unredacted report");
    }
    let r = mqdiag(&with_demo(&["analyze", "--format", "markdown", "--redact"]));
    assert_eq!(r.code, 0);
    for host in ["mqaixny1", "mqaixtx1", "mqclient1", "appsrv02"] {
        assert!(
            !r.stdout.contains(host),
            "{host} left in the redacted report"
        );
    }
    // appsrv02 is the churn finding's host and the inventory's: one token.
    let churn_line = r
        .stdout
        .lines()
        .find(|l| {
            l.starts_with("**Severity:** warning") && l.contains(" · **Rule:** `connection-churn`")
        })
        .unwrap();
    let token = churn_line
        .split("host ")
        .nth(1)
        .unwrap()
        .split(',')
        .next()
        .unwrap()
        .to_string();
    assert!(token.starts_with("host-"), "{churn_line}");
    let row = r
        .stdout
        .lines()
        .find(|l| l.contains("AMQ24611.0.FMT` |"))
        .unwrap();
    assert!(row.contains(&format!("| {token} |")), "{row}");
    // Fingerprints under `--redact` are of the tokens: the churn finding's
    // (its subject names a host) is not the plain run's.
    let fp = |s: &str| -> BTreeSet<String> {
        s.lines()
            .filter_map(|l| l.strip_prefix("<sub>fingerprint `"))
            .map(|l| l.trim_end_matches("`</sub>").to_string())
            .collect()
    };
    assert_eq!(fp(&plain).len(), 9);
    assert_eq!(fp(&r.stdout).len(), 9);
    let churn = |s: &str| {
        fp(s)
            .into_iter()
            .find(|f| f.starts_with("connection-churn:"))
    };
    assert!(churn(&plain).is_some());
    assert_ne!(churn(&plain), churn(&r.stdout));
}
