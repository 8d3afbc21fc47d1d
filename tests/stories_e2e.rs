//! End to end: an MQ 8.0 error log with a scan of undefined channel names
//! from one address and real channel failures whose records MQ writes
//! together (AMQ9519/AMQ9209/AMQ9631 + AMQ9999 + AMQ9780): one finding per
//! scan, channel or remote end, each failure counted once.

mod common;
use common::{analyze_json, every_rule_ran, findings, stdout_of as run};

#[test]
fn a_scan_and_channel_failures_are_a_short_list() {
    let v = analyze_json(&["fixtures/channel-scan"]);
    let ch = findings(&v, "channel-error");
    assert_eq!(ch.len(), 4, "{ch:#?}");
    // The scan: one error naming the address and the names tried, first.
    let scan = ch[0];
    assert_eq!(scan["severity"], "error");
    assert_eq!(scan["subject"]["address"], "192.168.253.160");
    assert_eq!(scan["subject"]["host"], "centos6");
    assert_eq!(scan["metrics"]["channels_tried"], 8);
    assert_eq!(scan["metrics"]["occurrences"], 10);
    assert_eq!(scan["metrics"]["message_id"], "AMQ9519E");
    assert_eq!(scan["breakdown"].as_array().unwrap().len(), 8);
    // The AMQ9999 after a TLS error is that error's evidence, not a
    // channel error of its own.
    assert!(
        ch.iter()
            .all(|f| f["subject"]["channel"] != "APP.TLS.SVRCONN"),
        "{ch:#?}"
    );
    let tls = findings(&v, "tls-error");
    assert_eq!(tls.len(), 1);
    assert_eq!(tls[0]["count"], 1);
    // The end named `10.44.1.30` alone is known by its name from the
    // records that pair them.
    let end = ch
        .iter()
        .find(|f| f["subject"]["address"] == "10.44.1.30" && f["subject"]["channel"].is_null())
        .unwrap();
    assert_eq!(end["subject"]["host"], "qmhub");
    assert_eq!(end["count"], 2);
}

#[test]
fn report_snapshots() {
    insta::assert_snapshot!(
        "channel_scan_text",
        every_rule_ran(&run(&[
            "analyze",
            "--format",
            "text",
            "fixtures/channel-scan"
        ]))
    );
    insta::assert_snapshot!(
        "channel_scan_markdown",
        every_rule_ran(&run(&[
            "analyze",
            "--format",
            "markdown",
            "fixtures/channel-scan"
        ]))
    );
}
