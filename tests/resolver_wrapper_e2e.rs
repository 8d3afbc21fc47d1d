//! End-to-end: a trace whose only resolver call is MQ's wrapper
//! (`cciTcpGetAddrInfo`) gives `slow-dns`, as the rule documents. The
//! trace reader's fast path skips lines naming nothing of interest, so the
//! wrapper must count as of interest there too.

mod common;
use common::*;

const WRAPPER: &str = "fixtures/resolver-wrapper";

#[test]
fn wrapper_named_lookup_is_slow_dns_end_to_end() {
    for jobs in ["1", "2"] {
        let v = analyze_json(&[WRAPPER, "-j", jobs]);
        assert_eq!(v["findings"].as_array().unwrap().len(), 1, "{v}");
        let f = one(&v, "slow-dns");
        assert_eq!(f["metrics"]["function"], "cciTcpGetAddrInfo");
        // 09:14:02.150344 to 09:14:06.352408.
        assert_eq!(num(f, "max_seconds"), 4.202);
        assert_eq!(f["subject"]["pid"], 5512);
        // The wrapper's exit, then the MQCONNX around it (API layer and
        // verb).
        assert_eq!(evidence_lines(f), vec![21, 26, 27]);
        assert_eq!(f["first"], "2024-03-04T09:14:02.150251+01:00");
        assert_eq!(f["last"], "2024-03-04T09:14:06.358301+01:00");
    }
}

#[test]
fn wrapper_lookup_under_the_threshold_is_quiet() {
    let v = analyze_json(&[WRAPPER, "--set", "slow-dns.min_ms=5000"]);
    assert!(findings(&v, "slow-dns").is_empty(), "{v}");
}
