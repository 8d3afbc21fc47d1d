//! The JSON outputs against their published schemas (`docs/schema/`), on
//! real runs over the fixtures. The validator covers the part of JSON
//! Schema those files use (type, const, enum, properties, required,
//! additionalProperties, items, minItems, minimum, pattern, local `$ref`),
//! and refuses any other keyword so a schema cannot silently claim more
//! than is checked.

mod common;
use common::*;
use serde_json::Value;

fn load(name: &str) -> Value {
    let p = format!("{}/docs/schema/{name}", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

fn type_ok(t: &str, v: &Value) -> bool {
    match t {
        "object" => v.is_object(),
        "array" => v.is_array(),
        "string" => v.is_string(),
        "integer" => v.is_i64() || v.is_u64(),
        "number" => v.is_number(),
        "boolean" => v.is_boolean(),
        "null" => v.is_null(),
        other => panic!("unknown type {other}"),
    }
}

/// Errors of `v` against `s` (`root` resolves `$ref`), with JSON paths.
fn check(root: &Value, s: &Value, v: &Value, at: &str, errs: &mut Vec<String>) {
    let s = s.as_object().expect("schema is an object");
    for (k, want) in s {
        match k.as_str() {
            "$schema" | "$id" | "title" | "description" | "$defs" => {}
            "$ref" => {
                let r = want.as_str().unwrap();
                let name = r.strip_prefix("#/$defs/").expect("local $ref");
                check(root, &root["$defs"][name], v, at, errs);
            }
            "type" => {
                let ok = match want {
                    Value::String(t) => type_ok(t, v),
                    Value::Array(ts) => ts.iter().any(|t| type_ok(t.as_str().unwrap(), v)),
                    _ => panic!("bad type"),
                };
                if !ok {
                    errs.push(format!("{at}: {v} is not {want}"));
                }
            }
            "const" if v != want => errs.push(format!("{at}: {v} is not {want}")),
            "const" => {}
            "enum" => {
                if !want.as_array().unwrap().contains(v) {
                    errs.push(format!("{at}: {v} not in {want}"));
                }
            }
            "minimum" => {
                if v.as_f64().is_some_and(|n| n < want.as_f64().unwrap()) {
                    errs.push(format!("{at}: {v} < {want}"));
                }
            }
            "pattern" => {
                let re = regex::Regex::new(want.as_str().unwrap()).unwrap();
                if v.as_str().is_some_and(|t| !re.is_match(t)) {
                    errs.push(format!("{at}: {v} does not match {want}"));
                }
            }
            "required" => {
                if let Some(o) = v.as_object() {
                    for r in want.as_array().unwrap() {
                        if !o.contains_key(r.as_str().unwrap()) {
                            errs.push(format!("{at}: missing {r}"));
                        }
                    }
                }
            }
            "properties" => {
                if let Some(o) = v.as_object() {
                    for (name, sub) in want.as_object().unwrap() {
                        if let Some(x) = o.get(name) {
                            check(root, sub, x, &format!("{at}.{name}"), errs);
                        }
                    }
                }
            }
            "additionalProperties" => {
                let Some(o) = v.as_object() else { continue };
                let known = s.get("properties").and_then(|p| p.as_object());
                for (name, x) in o {
                    if known.is_some_and(|k| k.contains_key(name)) {
                        continue;
                    }
                    match want {
                        Value::Bool(false) => errs.push(format!("{at}: unexpected {name}")),
                        Value::Bool(true) => {}
                        sub => check(root, sub, x, &format!("{at}.{name}"), errs),
                    }
                }
            }
            "items" => {
                if let Some(a) = v.as_array() {
                    for (i, x) in a.iter().enumerate() {
                        check(root, want, x, &format!("{at}[{i}]"), errs);
                    }
                }
            }
            "minItems" => {
                if v.as_array()
                    .is_some_and(|a| (a.len() as u64) < want.as_u64().unwrap())
                {
                    errs.push(format!("{at}: fewer than {want} items"));
                }
            }
            "minLength" => {
                if v.as_str()
                    .is_some_and(|s| (s.chars().count() as u64) < want.as_u64().unwrap())
                {
                    errs.push(format!("{at}: shorter than {want} characters"));
                }
            }
            other => panic!("schema keyword {other} is not checked by this validator"),
        }
    }
}

fn errors(schema: &Value, v: &Value) -> Vec<String> {
    let mut e = Vec::new();
    check(schema, schema, v, "$", &mut e);
    e
}

fn assert_valid(schema: &Value, v: &Value, what: &str) {
    let e = errors(schema, v);
    assert!(e.is_empty(), "{what}: {e:#?}");
}

const CASES: &[&str] = &[
    "fixtures/case-mixed",
    "fixtures/trace",
    "fixtures/errlog",
    "fixtures/fdc",
    "fixtures/zos",
    "fixtures/smf",
    "fixtures/unreadable",
    "fixtures/client-errors",
];

#[test]
fn analyze_reports_match_the_schema() {
    let schema = load("report.json");
    let mut findings = 0;
    for c in CASES {
        let r = mqdiag(&["analyze", c, "-q", "--format", "json"]);
        let v: Value = serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("{c}: {e}"));
        findings += v["findings"].as_array().unwrap().len();
        assert_valid(&schema, &v, c);
    }
    assert!(findings > 10, "the fixtures give findings to check");
    // A run with a window states it in `run.window`.
    let r = mqdiag(&[
        "analyze",
        "fixtures/case-mixed",
        "-q",
        "--format",
        "json",
        "--since",
        "06:22:44",
    ]);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert!(v["run"]["window"]["from"].is_string());
    assert_valid(&schema, &v, "with --since");
}

#[test]
fn inventories_match_the_schema() {
    let schema = load("inventory.json");
    for c in CASES {
        let r = mqdiag(&["inventory", c, "-q", "--format", "json"]);
        let v: Value = serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("{c}: {e}"));
        assert_valid(&schema, &v, c);
    }
}

#[test]
fn timeline_rows_match_the_schema() {
    let schema = load("timeline-row.json");
    let mut rows = 0;
    for c in CASES {
        let r = mqdiag(&["timeline", c, "-q", "--format", "jsonl"]);
        for (i, l) in r.stdout.lines().enumerate() {
            let v: Value = serde_json::from_str(l).unwrap();
            assert_valid(&schema, &v, &format!("{c} row {}", i + 1));
            rows += 1;
        }
    }
    assert!(rows > 100);
}

#[test]
fn the_validator_rejects_what_the_schemas_forbid() {
    let schema = load("timeline-row.json");
    let good: Value = serde_json::json!({"ts": "2025-03-14T06:22:41.880000-04:00", "path": "a",
        "line": 3, "format": "fmt-trace", "kind": "header", "text": "x"});
    assert!(errors(&schema, &good).is_empty());
    for bad in [
        serde_json::json!({"path": "a", "line": 3, "format": "f", "kind": "k", "text": "x"}),
        serde_json::json!({"ts": "11:42", "path": "a", "line": 3, "format": "f", "kind": "k", "text": "x"}),
        serde_json::json!({"ts": "2025-03-14T06:22:41-04:00", "path": "a", "line": 0, "format": "f", "kind": "k", "text": "x"}),
        serde_json::json!({"ts": "2025-03-14T06:22:41-04:00", "path": "a", "line": 1, "format": "f", "kind": "k", "text": "x", "extra": 1}),
        serde_json::json!({"ts": "2025-03-14T06:22:41-04:00", "path": "a", "line": 1, "format": "f", "kind": "k", "text": "x", "pid": "12"}),
    ] {
        assert!(!errors(&schema, &bad).is_empty(), "{bad}");
    }
    let report = load("report.json");
    let r = mqdiag(&["analyze", "fixtures/case-mixed", "-q", "--format", "json"]);
    let mut v: Value = serde_json::from_str(&r.stdout).unwrap();
    v["findings"][0]["severity"] = "fatal".into();
    assert!(!errors(&report, &v).is_empty());
}

#[test]
fn rules_json_is_an_object_with_a_version() {
    let r = mqdiag(&["rules", "--format", "json"]);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["schema_version"], 1);
    assert!(v["rules"].as_array().unwrap().len() >= 9);
}

#[test]
fn rules_match_the_schema() {
    let schema = load("rules.json");
    let r = mqdiag(&["rules", "--format", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let good: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_valid(&schema, &good, "rules");
    // Refused: an unknown severity, a threshold without its unit, an
    // empty summary.
    let mut bad = good.clone();
    bad["rules"][0]["severity"] = "fatal".into();
    assert!(!errors(&schema, &bad).is_empty());
    let mut bad = good.clone();
    let t = bad["rules"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|r| !r["thresholds"].as_array().unwrap().is_empty())
        .expect("a rule with thresholds");
    t["thresholds"][0].as_object_mut().unwrap().remove("unit");
    assert!(!errors(&schema, &bad).is_empty());
    let mut bad = good;
    bad["rules"][0]["summary"] = "".into();
    assert!(!errors(&schema, &bad).is_empty());
}

#[test]
fn calls_match_the_schema() {
    let schema = load("calls.json");
    let mut rows = 0;
    for by in ["process", "thread", "connection", "verb"] {
        let r = mqdiag(&[
            "calls",
            "fixtures/",
            "-q",
            "--date",
            "2024-02-29",
            "--format",
            "json",
            "--by",
            by,
        ]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        let v: Value = serde_json::from_str(&r.stdout).unwrap();
        rows += v["rows"].as_array().unwrap().len();
        assert_valid(&schema, &v, by);
    }
    assert!(rows > 40);
    // The schema is not empty: a row without its host, or a count below
    // zero, is refused.
    let r = mqdiag(&["calls", "fixtures/calls", "-q", "--format", "json"]);
    let good: Value = serde_json::from_str(&r.stdout).unwrap();
    let mut bad = good.clone();
    bad["rows"][0].as_object_mut().unwrap().remove("host");
    assert!(!errors(&schema, &bad).is_empty());
    let mut bad = good;
    bad["rows"][0]["calls"] = (-1).into();
    assert!(!errors(&schema, &bad).is_empty());
}

#[test]
fn compare_json_matches_its_schema() {
    let schema = load("compare.json");
    for (good, bad) in [
        ("tests/data/compare/good", "tests/data/compare/bad"),
        ("tests/data/compare/bad", "tests/data/compare/good"),
        ("fixtures/case-mixed", "fixtures/errlog"),
    ] {
        let r = mqdiag(&["compare", good, bad, "-q", "--format", "json"]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        let v: Value = serde_json::from_str(&r.stdout).unwrap();
        assert_valid(&schema, &v, &format!("compare {good} {bad}"));
    }
}
