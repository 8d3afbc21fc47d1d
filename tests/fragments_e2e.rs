//! End-to-end: fragments of MQ output are read as far as they go: an FDC
//! pasted from the middle of its header box, a container's JSON record cut
//! inside its message, and an `ffstsummary` listing inside a container
//! record's message.

mod common;
use common::*;

const DIR: &str = "fixtures/fragments";

fn rows(file: &str) -> Vec<serde_json::Value> {
    timeline_rows(&format!("{DIR}/{file}"))
}

fn file_row(file: &str) -> serde_json::Value {
    inventory_row(&format!("{DIR}/{file}"))
}

#[test]
fn fdc_pasted_from_its_middle_is_one_incomplete_report() {
    // Title cut at its start, box cut before `Probe Id`.
    let inv = file_row("pasted-fdc.txt");
    assert_eq!(inv["format"], "fdc");
    assert_eq!(inv["events"], 1);
    let r = rows("pasted-fdc.txt");
    assert_eq!(r.len(), 1);
    assert_eq!(r[0]["kind"], "fdc");
    assert_eq!(r[0]["line"], 1);
    assert_eq!(r[0]["ts"], "2023-10-20T09:00:12.104000-04:00");
    assert_eq!(r[0]["attrs"]["incomplete"], "true");
    assert_eq!(r[0]["attrs"]["host"], "mqlin2.example.com");
    // Starting at `UTC Time`, running past the box into the stacks.
    let inv = file_row("fdc-from-utc-time.txt");
    assert_eq!(inv["format"], "fdc");
    let r = rows("fdc-from-utc-time.txt");
    assert_eq!(r.len(), 1);
    assert_eq!(r[0]["ts"], "2023-10-20T09:00:12.104000-04:00");
    assert_eq!(r[0]["attrs"]["probe"], "CO618001");
    assert_eq!(r[0]["attrs"]["incomplete"], "true");
    assert_eq!(r[0]["pid"], 3321);
}

#[test]
fn json_record_cut_in_its_message_keeps_what_came_before() {
    let inv = file_row("container-json-cut.log");
    assert_eq!(inv["format"], "container-log");
    let r = rows("container-json-cut.log");
    assert_eq!(r.len(), 1);
    assert_eq!(r[0]["ts"], "2024-08-12T08:32:40.102000+00:00");
    assert_eq!(r[0]["kind"], "text");
    assert_eq!(r[0]["attrs"]["incomplete"], "true");
    assert_eq!(r[0]["attrs"]["program"], "runmqserver");
    assert_eq!(
        r[0]["text"],
        "Error starting web server: the web server did not"
    );
}

#[test]
fn ffstsummary_in_a_container_record_gives_its_fdcs() {
    let r = rows("container-json-ffstsummary.log");
    let fdcs: Vec<_> = r.iter().filter(|e| e["kind"] == "fdc").collect();
    let got: Vec<(&str, &str, u64)> = fdcs
        .iter()
        .map(|e| {
            (
                e["ts"].as_str().unwrap(),
                e["attrs"]["fdc_file"].as_str().unwrap(),
                e["line"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        got,
        vec![
            ("2024-08-12T08:30:15.000000+00:00", "AMQ97.0.FDC", 2),
            ("2024-08-12T08:31:02.104000+00:00", "AMQ412.0.FDC", 2),
            ("2024-08-12T08:31:07.551000+00:00", "AMQ412.1.FDC", 2),
        ]
    );
    assert_eq!(fdcs[1]["attrs"]["probe"], "CO618001");
    assert_eq!(fdcs[1]["pid"], 412);
    // The records themselves are still there.
    assert_eq!(r.iter().filter(|e| e["kind"] == "text").count(), 3);
    // The fdc rule groups them by probe.
    let v = analyze_json(&[&format!("{DIR}/container-json-ffstsummary.log")]);
    assert!(!findings(&v, "fdc").is_empty(), "{v}");
}

#[test]
fn inventory_snapshot() {
    insta::assert_snapshot!(stdout_of(&["inventory", DIR]));
}

#[test]
fn timeline_snapshot() {
    insta::assert_snapshot!(stdout_of(&["timeline", DIR, "--format", "jsonl"]));
}
