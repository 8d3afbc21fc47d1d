//! End-to-end: the logs an MQ container's console mirrors besides MQ's own
//! (the web server's Liberty records, the start-up MQSC output and the
//! developer image's mqsimpleauth), in the `json` and `basic` console
//! formats: each record is an event of the console, at its own time, named
//! by the program that wrote it.

mod common;
use common::*;

const DIR: &str = "fixtures/container-mirrored";

fn rows(file: &str) -> Vec<serde_json::Value> {
    timeline_rows(&format!("{DIR}/{file}"))
}

fn inventory(file: &str) -> serde_json::Value {
    inventory_row(&format!("{DIR}/{file}"))
}

/// (time, kind, program, message id, start of the text) of each row.
fn summary(rows: &[serde_json::Value]) -> Vec<(String, String, String, String, String)> {
    let s = |v: &serde_json::Value| v.as_str().unwrap_or("").to_string();
    rows.iter()
        .map(|r| {
            let text: String = s(&r["text"]).chars().take(24).collect();
            (
                s(&r["ts"]),
                s(&r["kind"]),
                s(&r["attrs"]["program"]),
                s(&r["attrs"]["msgid"]),
                text,
            )
        })
        .collect()
}

fn row(
    ts: &str,
    kind: &str,
    program: &str,
    msgid: &str,
    text: &str,
) -> (String, String, String, String, String) {
    (
        format!("2024-08-12T{ts}000+00:00"),
        kind.to_string(),
        program.to_string(),
        msgid.to_string(),
        text.to_string(),
    )
}

/// Liberty's records (`+0000` times) mixed with MQ's, runmqserver's,
/// mqsimpleauth's (no `type`, no `ibm_processName`) and `mqsc_log` ones.
#[test]
fn a_json_console_reads_every_mirrored_record() {
    let inv = inventory("json/console.log");
    assert_eq!(inv["format"], "container-log");
    assert_eq!(inv["variant"], "json");
    assert_eq!(inv["events"], 12);
    assert_eq!(inv["problems"].as_array().unwrap().len(), 0, "{inv}");
    // Liberty's `ibm_serverName` is the web server's, not a queue manager.
    assert_eq!(inv["qmgr"], "QM1");
    let rows = rows("json/console.log");
    assert_eq!(
        summary(&rows),
        vec![
            row(
                "08:32:40.102",
                "text",
                "runmqserver",
                "",
                "Using queue manager name"
            ),
            row(
                "08:32:41.518",
                "text",
                "mqsimpleauth",
                "",
                "Initializing MQ Advanced"
            ),
            row(
                "08:32:41.519",
                "text",
                "mqsimpleauth",
                "",
                "mqsimpleauth: MQStart op"
            ),
            row(
                "08:32:42.870",
                "log-record",
                "amqzxma0",
                "AMQ7467I",
                "AMQ7467I: The oldest log"
            ),
            row(
                "08:32:43.301",
                "text",
                "runmqserver",
                "",
                "1 : DEFINE QLOCAL('DEV.Q"
            ),
            row(
                "08:32:43.302",
                "log-record",
                "runmqserver",
                "AMQ8006I",
                "AMQ8006I: IBM MQ queue c"
            ),
            row(
                "08:32:43.303",
                "text",
                "runmqserver",
                "",
                "2 : DEFINE QLOCAL('DEV.Q"
            ),
            row(
                "08:32:43.304",
                "log-record",
                "runmqserver",
                "AMQ8150E",
                "AMQ8150E: IBM MQ object "
            ),
            row(
                "08:32:46.031",
                "text",
                "mqweb",
                "CWWKT0016I",
                "CWWKT0016I: Web applicat"
            ),
            row(
                "08:32:46.502",
                "text",
                "mqweb",
                "CWPKI0033E",
                "CWPKI0033E: The keystore"
            ),
            row(
                "08:32:48.120",
                "text",
                "mqweb",
                "CWWKF0011I",
                "CWWKF0011I: The mqweb se"
            ),
            row(
                "08:33:05.771",
                "log-record",
                "amqrmppa",
                "AMQ9209E",
                "AMQ9209E: Connection to "
            ),
        ]
    );
    for (r, line) in rows.iter().zip(1..) {
        assert_eq!(r["line"], line);
    }
    // No Liberty record names a queue manager.
    assert!(rows[8..11].iter().all(|r| r["attrs"]["qmgr"].is_null()));
}

/// A chunk of a JSON console holding only the web server's records is the
/// container's console, not a JSON error log.
#[test]
fn a_json_console_of_only_liberty_records_is_a_container_log() {
    let inv = inventory("web-json/console.log");
    assert_eq!(inv["format"], "container-log");
    assert_eq!(inv["events"], 3);
    assert_eq!(inv["problems"].as_array().unwrap().len(), 0, "{inv}");
    let rows = rows("web-json/console.log");
    assert_eq!(rows[0]["ts"], "2024-08-12T08:32:46.031000+00:00");
    assert!(rows.iter().all(|r| r["attrs"]["program"] == "mqweb"));
}

/// The same logs as a `basic` console writes them: mqsimpleauth's debug
/// lines name it, the web server's messages and audit lines name `mqweb`
/// and keep their message id.
#[test]
fn a_basic_console_names_mqsimpleauth_and_the_web_server() {
    let inv = inventory("basic/console.log");
    assert_eq!(inv["format"], "container-log");
    assert_eq!(inv["variant"], "basic");
    assert_eq!(inv["events"], 12);
    let rows = rows("basic/console.log");
    let s = summary(&rows);
    assert_eq!(
        s[2],
        row(
            "08:32:41.519",
            "text",
            "mqsimpleauth",
            "",
            "mqsimpleauth: MQStart op"
        )
    );
    assert_eq!(
        s[7],
        row(
            "08:32:46.502",
            "text",
            "mqweb",
            "CWPKI0033E",
            "CWPKI0033E: The keystore"
        )
    );
    assert_eq!(
        s[9],
        row(
            "08:32:51.876",
            "text",
            "mqsimpleauth",
            "",
            "mqsimpleauth: Authentica"
        )
    );
    assert_eq!(
        s[10],
        row(
            "08:32:51.880",
            "text",
            "mqweb",
            "",
            "AUDIT: eventName=\"SECURI"
        )
    );
    assert_eq!(s[11].1, "log-record");
}

/// Both consoles give the same channel-error finding from AMQ9209E.
#[test]
fn channel_error_from_both_variants() {
    for file in ["json/console.log", "basic/console.log"] {
        let v = analyze_json(&[&format!("{DIR}/{file}")]);
        let f = one(&v, "channel-error");
        assert_eq!(f["first"], "2024-08-12T08:33:05.771000+00:00", "{file}");
        assert_eq!(evidence_lines(f), vec![12], "{file}");
    }
}

/// A line whose own time cannot be read is the reader's problem, not an
/// event the timeline left out for its date.
#[test]
fn unreadable_times_are_not_called_out_of_range() {
    let d = Scratch::new("mirrored-bad-time");
    d.write(
        "console.log",
        b"{\"ibm_datetime\":\"2024-08-12T08:32:40.102Z\",\"message\":\"Using queue manager name: QM1\",\"type\":\"mq_containerlog\"}\n\
          {\"type\":\"liberty_message\",\"ibm_datetime\":\"2024-08-12T08:32:4x.120+0000\",\"message\":\"CWWKF0011I: ready\"}\n",
    );
    let r = mqdiag(&["timeline", &d.str()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(!r.stderr.contains("dated outside"), "{}", r.stderr);
    // The reader said it.
    let r = mqdiag(&["inventory", &d.str()]);
    assert!(
        r.stdout.contains("cannot be read: record skipped"),
        "{}",
        r.stdout
    );
}

#[test]
fn inventory_snapshot() {
    insta::assert_snapshot!(stdout_of(&["inventory", DIR]));
}

#[test]
fn timeline_snapshot() {
    insta::assert_snapshot!(stdout_of(&["timeline", DIR, "--format", "jsonl"]));
}

/// The web server's audit records (`"type":"liberty_audit"`) have no
/// `message`: their text is their `ibm_audit_*` fields, as a `basic`
/// console writes them (`AUDIT: eventName="..." outcome="..." ...`).
#[test]
fn liberty_audit_records_take_their_text_from_their_audit_fields() {
    let rows = timeline_rows("fixtures/container-audit/console.log");
    let audit: Vec<&serde_json::Value> = rows
        .iter()
        .filter(|r| r["text"].as_str().unwrap().starts_with("AUDIT:"))
        .collect();
    assert_eq!(audit.len(), 2, "{rows:?}");
    assert_eq!(
        audit[1]["text"],
        "AUDIT: eventName=\"SECURITY_AUTHN\" outcome=\"failure\" reason.reasonCode=\"401\" \
         reason.reasonType=\"HTTPS\" initiator.host.address=\"10.254.16.7\" \
         target.credential.token=\"admin\" target.method=\"POST\" \
         target.name=\"/ibmmq/rest/v2/login\""
    );
    assert!(
        audit
            .iter()
            .all(|r| r["attrs"]["program"] == "mqweb" && r["kind"] == "text")
    );
}
