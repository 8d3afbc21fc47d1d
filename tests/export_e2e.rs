//! Exports for other engines (issue 29): `timeline --format ecs` and
//! `--format otlp` hold one document or request per timeline row, in the
//! same order and at the same instants as `--format jsonl`; `analyze
//! --format ecs` holds one alert per finding. DuckDB and the OpenTelemetry
//! proto definitions check the same files in `scripts/export-check.py`
//! (run by `.ci/run`).

mod common;

use chrono::DateTime;
use common::{jsonl, mqdiag, stdout_of};
use serde_json::Value;

fn instant_nanos(rfc3339: &str) -> i64 {
    DateTime::parse_from_rfc3339(rfc3339)
        .unwrap()
        .timestamp_nanos_opt()
        .unwrap()
}

fn timeline(path: &str, format: &str) -> String {
    stdout_of(&["timeline", path, "-q", "-j", "2", "--format", format])
}

#[test]
fn ecs_has_a_document_per_row_with_its_time_file_and_code() {
    let rows = jsonl(&timeline("fixtures/", "jsonl"));
    let docs = jsonl(&timeline("fixtures/", "ecs"));
    assert_eq!(rows.len(), docs.len());
    assert!(rows.len() > 1000, "fixtures/ gives {} rows", rows.len());
    let mut qmgrs = 0;
    for (r, d) in rows.iter().zip(&docs) {
        assert_eq!(d["@timestamp"], r["ts"]);
        assert_eq!(d["log"]["file"]["path"], r["path"]);
        assert_eq!(d["mqdiag"]["line"], r["line"]);
        assert_eq!(d["event"]["kind"], "event");
        assert_eq!(d["event"]["module"], "ibmmq");
        assert_eq!(d["message"], r["text"]);
        // The pid stays an integer, never `pid.tid`.
        assert_eq!(d["process"]["pid"], r["pid"]);
        assert!(d["process"]["pid"].is_u64() || r["pid"].is_null());
        assert_eq!(d["process"]["thread"]["id"], r["tid"]);
        let msgid = &r["attrs"]["msgid"];
        if msgid.is_string() {
            assert_eq!(d["error"]["code"], *msgid);
            assert_eq!(d["ibmmq"]["errorlog"]["code"], *msgid);
        }
        let qmgr = &r["attrs"]["qmgr"];
        if msgid.is_string() && qmgr.is_string() {
            assert_eq!(d["ibmmq"]["errorlog"]["qmgr"], *qmgr);
            qmgrs += 1;
        }
    }
    assert!(qmgrs > 20, "{qmgrs} records with a queue manager");
}

#[test]
fn otlp_is_one_request_a_line_at_the_rows_instants() {
    let rows = jsonl(&timeline("fixtures/", "jsonl"));
    let reqs = jsonl(&timeline("fixtures/", "otlp"));
    assert_eq!(rows.len(), reqs.len());
    for (r, q) in rows.iter().zip(&reqs) {
        let obj = q.as_object().unwrap();
        assert_eq!(obj.keys().collect::<Vec<_>>(), ["resourceLogs"]);
        let rl = &q["resourceLogs"].as_array().unwrap()[0];
        assert!(rl["resource"]["attributes"].is_array());
        let sl = &rl["scopeLogs"].as_array().unwrap()[0];
        assert_eq!(sl["scope"]["name"], "mqdiag");
        let recs = sl["logRecords"].as_array().unwrap();
        assert_eq!(recs.len(), 1);
        let rec = &recs[0];
        let nanos: i64 = rec["timeUnixNano"].as_str().unwrap().parse().unwrap();
        // The record's own instant: container runtimes stamp nanoseconds,
        // which JSON lines and CSV give to the microsecond. A record
        // without a time (`ts` null): 0, OTLP's "unknown".
        match r["ts"].as_str() {
            Some(ts) => assert_eq!(nanos / 1000, instant_nanos(ts) / 1000),
            None => assert_eq!(nanos, 0, "{r}"),
        }
        assert_eq!(rec["body"]["stringValue"], r["text"]);
        for a in rec["attributes"].as_array().unwrap() {
            let v = a["value"].as_object().unwrap();
            assert!(a["key"].is_string() && v.len() == 1, "{a}");
            let (k, val) = v.iter().next().unwrap();
            match k.as_str() {
                "stringValue" => assert!(val.is_string()),
                // 64-bit integers as decimal strings (protobuf JSON).
                "intValue" => assert!(val.as_str().unwrap().parse::<i64>().is_ok()),
                other => panic!("unexpected value kind {other}"),
            }
        }
        if let Some(n) = rec.get("severityNumber") {
            assert!([9, 13, 17, 18, 21].contains(&n.as_u64().unwrap()));
        }
    }
}

#[test]
fn exports_follow_the_filters_and_redaction() {
    let grep = ["timeline", "fixtures/case-mixed", "-q", "--grep", "AMQ9788"];
    for f in ["jsonl", "ecs", "otlp"] {
        let mut a = grep.to_vec();
        a.extend(["--format", f]);
        assert_eq!(stdout_of(&a).lines().count(), 1, "{f}");
    }
    let red = stdout_of(&[
        "timeline",
        "fixtures/case-mixed",
        "-q",
        "--redact",
        "--format",
        "ecs",
    ]);
    assert!(!red.contains("appsrv9") && !red.contains("gw1.example.eu"));
    assert!(red.contains("host-"));
}

#[test]
fn analyze_ecs_is_one_alert_per_finding() {
    let json: Value = serde_json::from_str(&stdout_of(&[
        "analyze",
        "fixtures/",
        "-q",
        "--format",
        "json",
    ]))
    .unwrap();
    let r = mqdiag(&["analyze", "fixtures/", "-q", "--format", "ecs"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let alerts = jsonl(&r.stdout);
    let findings = json["findings"].as_array().unwrap();
    assert_eq!(alerts.len(), findings.len());
    for (a, f) in alerts.iter().zip(findings) {
        assert_eq!(a["event"]["kind"], "alert");
        assert_eq!(a["rule"]["id"], f["rule"]);
        assert_eq!(a["event"]["id"], f["fingerprint"]);
        assert_eq!(a["log"]["level"], f["severity"]);
        assert_eq!(a["message"], f["title"]);
        assert_eq!(a["log"]["file"]["path"], f["evidence"][0]["path"]);
        assert_eq!(a["mqdiag"]["line"], f["evidence"][0]["line"]);
        let sev = a["event"]["severity"].as_u64().unwrap();
        let want = match f["severity"].as_str().unwrap() {
            "error" => 73,
            "warning" => 47,
            _ => 21,
        };
        assert_eq!(sev, want);
    }
}

#[test]
fn ecs_snapshots() {
    insta::assert_snapshot!(
        "timeline_ecs_case_mixed",
        timeline("fixtures/case-mixed", "ecs")
    );
    insta::assert_snapshot!(
        "timeline_otlp_errlog",
        timeline("fixtures/case-mixed/gateway", "otlp")
    );
    insta::assert_snapshot!(
        "analyze_ecs_case_mixed",
        stdout_of(&["analyze", "fixtures/case-mixed", "-q", "--format", "ecs"])
    );
}

/// Whether the template maps `path` (dotted), or a `flattened` field
/// above it takes it whole.
fn mapped(props: &Value, path: &[&str]) -> bool {
    let Some((first, rest)) = path.split_first() else {
        return false;
    };
    let Some(field) = props.get(*first) else {
        return false;
    };
    if rest.is_empty() || field["type"] == "flattened" {
        return true;
    }
    mapped(&field["properties"], rest)
}

fn leaves<'a>(v: &'a Value, prefix: &mut Vec<&'a str>, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                prefix.push(k);
                leaves(x, prefix, out);
                prefix.pop();
            }
        }
        Value::Array(a) if a.iter().any(Value::is_object) => {
            for x in a {
                leaves(x, prefix, out);
            }
        }
        _ => out.push(prefix.join(".")),
    }
}

#[test]
fn the_index_template_maps_every_field_written() {
    let t: Value =
        serde_json::from_str(&std::fs::read_to_string("docs/ecs-template.json").unwrap()).unwrap();
    let props = &t["template"]["mappings"]["properties"];
    let mut docs = jsonl(&timeline("fixtures/", "ecs"));
    docs.extend(jsonl(&stdout_of(&[
        "analyze",
        "fixtures/",
        "-q",
        "--format",
        "ecs",
    ])));
    let mut paths = Vec::new();
    for d in &docs {
        leaves(d, &mut Vec::new(), &mut paths);
    }
    paths.sort();
    paths.dedup();
    let missing: Vec<&String> = paths
        .iter()
        .filter(|p| !mapped(props, &p.split('.').collect::<Vec<_>>()))
        .collect();
    assert!(
        missing.is_empty(),
        "not in docs/ecs-template.json: {missing:?}"
    );
    assert!(paths.len() > 30, "{paths:?}");
}

#[cfg(feature = "parquet")]
#[test]
fn parquet_is_one_file_named_by_its_extension() {
    let dir = common::Scratch::new("parquet");
    let out = dir.path().join("rows.parquet");
    let o = out.to_string_lossy().into_owned();
    let r = mqdiag(&["timeline", "fixtures/case-mixed", "-q", "-o", &o]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let b = std::fs::read(&out).unwrap();
    assert!(
        b.starts_with(b"PAR1") && b.ends_with(b"PAR1"),
        "{} bytes",
        b.len()
    );
    // Nothing read at all is exit 2, as for every timeline.
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let r = mqdiag(&[
        "timeline",
        &empty.to_string_lossy(),
        "--format",
        "parquet",
        "-o",
        "-",
    ]);
    assert_eq!(r.code, 2, "{}", r.stderr);
}

#[cfg(not(feature = "parquet"))]
#[test]
fn parquet_needs_its_feature() {
    let r = mqdiag(&["timeline", "fixtures/case-mixed", "--format", "parquet"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("parquet"), "{}", r.stderr);
}
