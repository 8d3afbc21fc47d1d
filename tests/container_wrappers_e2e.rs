//! End-to-end: MQ container consoles as collectors wrap them (compose,
//! kubectl --prefix/--timestamps, stern, a viewer's stamps, Docker's
//! json-file, CRI) are read as `container-log`, every record at the
//! container's own time and at its line in the collected file; inventory
//! says which wrapper came off and which clock the events carry.

mod common;
use common::*;

const DIR: &str = "fixtures/container-wrappers";
const DOCKER: &str = "var/lib/docker/containers/4f1c0d9e7a52b8c3d6e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a1b0c9/4f1c0d9e7a52b8c3d6e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a1b0c9-json.log";
const CRI: &str = "var/log/containers/mq-0_mq_qmgr-8a1e2f3d4c5b6a79.log";
const CRI_WEB: &str = "var/log/pods/mq_mq-0_5d1c2b3a-0f9e-4d8c-b7a6-152433221100/qmgr/0.log";

/// The console every fixture wraps: the container's times and the start
/// of each line's text.
const CONSOLE: [(&str, &str); 11] = [
    (
        "2024-08-12T08:32:40.102000+00:00",
        "Using queue manager name: QM1",
    ),
    (
        "2024-08-12T08:32:40.240000+00:00",
        "Created directory structure",
    ),
    ("2024-08-12T08:32:40.251000+00:00", "Image created: "),
    ("2024-08-12T08:32:42.108000+00:00", "AMQ5051I: "),
    ("2024-08-12T08:32:42.870000+00:00", "AMQ7467I: "),
    ("2024-08-12T08:32:43.944000+00:00", "AMQ8024I: "),
    ("2024-08-12T08:32:44.120000+00:00", "Started queue manager"),
    ("2024-08-12T08:32:46.031000+00:00", "CWWKT0016I: "),
    ("2024-08-12T08:32:46.502000+00:00", "CWPKI0033E: "),
    ("2024-08-12T08:32:47.009000+00:00", "DEBUG: Mirrored "),
    ("2024-08-12T08:33:05.771000+00:00", "AMQ9209E: "),
];

fn rows(file: &str) -> Vec<serde_json::Value> {
    timeline_rows(&format!("{DIR}/{file}"))
}

fn inventory(file: &str) -> serde_json::Value {
    inventory_row(&format!("{DIR}/{file}"))
}

/// Every wrapped console gives the same records at the same instants, at
/// the lines given; the row says which wrapper and which clock.
#[test]
fn every_wrapper_gives_every_record_at_the_containers_time() {
    let cases: [(&str, &str, [u64; 11]); 8] = [
        (
            "compose/docker-compose-up.log",
            "in docker compose (1 of its own status line(s) left out), clock: the container's own times",
            [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
        ),
        (
            // Compose v2: `Attaching to mq-1` first, `mq-1 exited with
            // code 0` (after a line reset) last.
            "compose/compose-v2.log",
            "in docker compose (2 of its own status line(s) left out), clock: the container's own times",
            [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
        ),
        (
            "kubectl/prefix.log",
            "in kubectl --prefix, clock: the container's own times",
            [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
        ),
        (
            "kubectl/prefix-timestamps-json.log",
            "in kubectl --prefix with --timestamps, clock: the container's own times",
            [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
        ),
        (
            "stern/stern.log",
            "in stern, clock: the container's own times",
            [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
        ),
        (
            "viewer/docker-desktop.log",
            "in log viewer stamps, clock: the container's own times (the viewer's local times, +05:30 from them, dropped)",
            [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
        ),
        (
            DOCKER,
            "in docker json-file, clock: the container's own times; the wrapper's for 1 line(s) without their own",
            // The line cut in two records is read at its first.
            [1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12],
        ),
        (
            CRI,
            "in cri, clock: the container's own times; the wrapper's for 1 line(s) without their own",
            // The last record's three partial lines are read at the first.
            [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
        ),
    ];
    for (file, variant, lines) in cases {
        let inv = inventory(file);
        assert_eq!(inv["format"], "container-log", "{file}");
        let v = inv["variant"].as_str().unwrap();
        assert!(v.ends_with(variant), "{file}: {v}");
        let rows = rows(file);
        let console: Vec<&serde_json::Value> = rows
            .iter()
            .filter(|r| r["text"] != "goroutine 1 [running]:")
            .collect();
        assert_eq!(console.len(), CONSOLE.len(), "{file}");
        for ((r, (ts, text)), line) in console.iter().zip(CONSOLE).zip(lines) {
            assert_eq!(r["ts"], ts, "{file}");
            assert!(
                r["text"].as_str().unwrap().starts_with(text),
                "{file}: {}",
                r["text"]
            );
            assert_eq!(r["line"], line, "{file}: {text}");
        }
        // MQ's messages are records with their inserts read; the rest text.
        let amq9209 = console.last().unwrap();
        assert_eq!(amq9209["kind"], "log-record", "{file}");
        assert_eq!(amq9209["attrs"]["channel"], "APP1.SVRCONN", "{file}");
        assert_eq!(console[8]["kind"], "text", "{file}");
        // The joined partial line is whole.
        assert!(
            console[8]["text"]
                .as_str()
                .unwrap()
                .ends_with("password was incorrect"),
            "{file}"
        );
        assert!(
            amq9209["text"].as_str().unwrap().contains("closed."),
            "{file}"
        );
        // Compose's status lines are no console text.
        assert!(
            rows.iter()
                .all(|r| !r["text"].as_str().unwrap().contains("exited with code")),
            "{file}"
        );
        assert_eq!(
            inv["problems"].as_array().unwrap().len(),
            0,
            "{file}: {inv}"
        );
    }
}

#[test]
fn a_line_without_its_own_time_takes_the_runtimes() {
    for file in [DOCKER, CRI] {
        let rows = rows(file);
        let g = rows
            .iter()
            .find(|r| r["text"] == "goroutine 1 [running]:")
            .unwrap_or_else(|| panic!("{file}"));
        assert_eq!(g["ts"], "2024-08-12T08:33:06.000120+00:00", "{file}");
        assert_eq!(g["kind"], "text", "{file}");
    }
}

/// Only the web server's and runmqserver's lines: still the container's
/// console, in a container layout (CRI) and plain.
#[test]
fn consoles_without_an_mq_message_are_container_logs() {
    let inv = inventory(CRI_WEB);
    assert_eq!(inv["format"], "container-log");
    assert_eq!(inv["events"], 7);
    let inv = inventory("web-only/console.log");
    assert_eq!(inv["format"], "container-log");
    assert_eq!(inv["events"], 4);
    let rows = rows("web-only/console.log");
    assert!(rows.iter().all(|r| r["kind"] == "text"));
    assert_eq!(rows[0]["ts"], "2024-08-12T08:32:46.031000+00:00");
}

#[test]
fn channel_error_from_a_wrapped_console() {
    let v = analyze_json(&[&format!("{DIR}/{CRI}")]);
    let f = one(&v, "channel-error");
    assert_eq!(f["first"], "2024-08-12T08:33:05.771000+00:00");
    assert_eq!(evidence_lines(f), vec![11]);
}

#[test]
fn inventory_snapshot() {
    insta::assert_snapshot!(stdout_of(&["inventory", DIR]));
}

#[test]
fn timeline_snapshot() {
    insta::assert_snapshot!(stdout_of(&["timeline", DIR, "--format", "jsonl"]));
}

/// Where each event is in its collected file (line and byte offset) and
/// when, for every wrapper and for the fragments: the ECS export's
/// `log.offset` beside `mqdiag.line` and `@timestamp`.
#[test]
fn instants_and_offsets_snapshot() {
    let mut out = String::new();
    for dir in [DIR, "fixtures/fragments"] {
        for v in jsonl(&stdout_of(&["timeline", dir, "-q", "--format", "ecs"])) {
            out.push_str(&format!(
                "{}:{} @{} {}\n",
                v["log"]["file"]["path"].as_str().unwrap(),
                v["mqdiag"]["line"],
                v["log"]["offset"],
                v["@timestamp"].as_str().unwrap(),
            ));
        }
    }
    insta::assert_snapshot!(out);
}
