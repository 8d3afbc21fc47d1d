//! End to end: one queue manager's channel starting and ending twelve
//! times, written in English, German, Italian and Traditional Chinese
//! (fixtures/localised/<language>; the texts are IBM's message reference,
//! and for English and German also the queue manager's start, task and end
//! records of a real log, see `catalog/samples.rs`). The records give the
//! same fields in every language, and the finding names the same channel.

mod common;
use common::{analyze_json, findings, timeline_rows};
use serde_json::{Value, json};

const LANGUAGES: [&str; 4] = ["en", "de", "it", "zh-tw"];

fn dir(lang: &str) -> String {
    format!("fixtures/localised/{lang}")
}

/// Each record's message id and the fields the catalogue gave it, in file
/// order: the text, its file and its language left out.
fn record_fields(lang: &str) -> Vec<Value> {
    let keep = [
        "msgid", "channel", "host", "address", "port", "qmgr", "task", "family",
    ];
    timeline_rows(&dir(lang))
        .iter()
        .map(|r| {
            let a = r["attrs"].as_object().unwrap();
            let kept: serde_json::Map<String, Value> = a
                .iter()
                .filter(|(k, _)| keep.contains(&k.as_str()))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            json!([r["ts"], kept])
        })
        .collect()
}

#[test]
fn every_language_gives_the_english_records_fields() {
    let en = record_fields("en");
    // 12 starts, 12 ends; the queue manager's start, a task and its end.
    assert_eq!(en.len(), 27);
    assert!(en.iter().all(|r| r[1]["qmgr"] == "QMLOC"));
    let starts: Vec<_> = en.iter().filter(|r| r[1]["msgid"] == "AMQ9002I").collect();
    assert_eq!(starts.len(), 12);
    assert!(starts.iter().all(|r| r[1]["channel"] == "QMLOC.TO.QM2"));
    let task = en.iter().find(|r| r[1]["msgid"] == "AMQ5051I").unwrap();
    assert_eq!(task[1]["task"], "LOGGER-IO");
    // German has the same records; Italian and Chinese the channel's only.
    assert_eq!(record_fields("de"), en);
    let channel_only: Vec<_> = en
        .iter()
        .filter(|r| r[1]["msgid"] == "AMQ9002I" || r[1]["msgid"] == "AMQ9001I")
        .cloned()
        .collect();
    for lang in ["it", "zh-tw"] {
        assert_eq!(record_fields(lang), channel_only, "{lang}");
    }
}

#[test]
fn the_churn_finding_names_the_channel_in_every_language() {
    let mut all = Vec::new();
    for lang in LANGUAGES {
        let v = analyze_json(&["--only", "connection-churn", &dir(lang)]);
        let f = findings(&v, "connection-churn");
        assert_eq!(f.len(), 1, "{lang}: {f:#?}");
        let f = f[0];
        all.push(json!({
            "language": lang,
            "title": f["title"],
            "subject": f["subject"],
            "count": f["count"],
            "first": f["first"],
            "last": f["last"],
            "metrics": f["metrics"],
        }));
    }
    let without_language = |v: &Value| {
        let mut v = v.clone();
        v.as_object_mut().unwrap().remove("language");
        v
    };
    for other in &all[1..] {
        assert_eq!(without_language(other), without_language(&all[0]));
    }
    insta::assert_json_snapshot!(all);
}
