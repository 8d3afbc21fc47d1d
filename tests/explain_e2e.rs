//! End to end: `mqdiag explain` turns options values, reason codes,
//! qualifiers and message ids into names, offline; a value it does not know
//! is exit 2 with the others still explained.

mod common;
use common::mqdiag;

#[test]
fn options_reasons_qualifiers_and_messages_by_name() {
    let r = mqdiag(&[
        "explain",
        "MQGMO.Options=8260",
        "Put Options=0x2044",
        "oo",
        "16",
        "2035",
        "MQRC_Q_FULL",
        "MQRQ=24",
        "AMQ9631E",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let o = &r.stdout;
    for want in [
        "MQGMO.Options=8260  MQGMO_NO_SYNCPOINT+MQGMO_ACCEPT_TRUNCATED_MSG+MQGMO_FAIL_IF_QUIESCING",
        "Put Options=0x2044  MQPMO_NO_SYNCPOINT+MQPMO_NEW_MSG_ID+MQPMO_FAIL_IF_QUIESCING",
        "oo=16  MQOO_OUTPUT",
        "2035  2035 (0x07F3) MQRC_NOT_AUTHORIZED",
        "MQRC_Q_FULL  2053 (0x0805) MQRC_Q_FULL",
        "MQRQ=24  24 MQRQ_MAX_ACTIVE_CHANNELS",
        "AMQ9631E  AMQ9631",
    ] {
        assert!(o.contains(want), "{want:?} not in\n{o}");
    }
}

#[test]
fn json_and_an_unknown_value() {
    let r = mqdiag(&["explain", "--format", "json", "gmo", "1", "nonsense"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("`nonsense`"), "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["explained"][0]["names"], "MQGMO_WAIT");
    assert_eq!(v["explained"][0]["kind"], "options");
    assert_eq!(v["unknown"][0], "nonsense");
}
