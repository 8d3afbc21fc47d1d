//! End to end: a sender channel that starts and stops 120 times 0.7 s
//! apart in an MQ 9.3 error log (fixtures/churn-sender), where the start
//! (AMQ9002I) names no host and the stop (AMQ9001I) does, is one
//! connection-churn story with the cycle count and the mean lifetime.

mod common;
use common::{analyze_json, findings, metric};

#[test]
fn a_flapping_sender_is_churn() {
    let v = analyze_json(&["--only", "connection-churn", "fixtures/churn-sender"]);
    let f = findings(&v, "connection-churn");
    assert_eq!(f.len(), 1, "{v:#}");
    assert_eq!(f[0]["subject"]["channel"], "QM1.TO.QM2");
    assert_eq!(metric(f[0], "connects"), 120);
    assert_eq!(metric(f[0], "disconnects"), 120);
    assert_eq!(metric(f[0], "mean_connection_ms"), 420.0);
    assert!(
        f[0]["title"]
            .as_str()
            .unwrap()
            .contains("120 channel starts"),
        "{}",
        f[0]["title"]
    );
}
