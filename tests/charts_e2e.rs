//! The HTML report's charts on the whole `fixtures/` tree: the overview,
//! one chart per finding kind that has a picture, clock-time axes, and
//! nothing a person should not see (NaN, raw microseconds, real names
//! under --redact).

mod common;
use common::*;
use serde_json::Value;
use std::collections::BTreeSet;

/// Chart title (the SVG's aria-label) for each rule that has a chart.
const CHART_OF: &[(&str, &str)] = &[
    (
        "qtime-growth",
        "Queue time per sample, with the fitted trend",
    ),
    ("tcp-send-stall", "Send waits after a full socket buffer"),
    ("slow-dns", "DNS look-up durations"),
    ("tls-handshake-slow", "TLS call durations"),
    ("connection-churn", "Connects over time"),
    (
        "channel-error",
        "Channel and network errors over time, by channel",
    ),
    ("tls-error", "TLS errors over time, by channel"),
];

fn labels(html: &str) -> Vec<String> {
    html.split("<svg ")
        .skip(1)
        .filter_map(|s| {
            let rest = s.split("aria-label=\"").nth(1)?;
            Some(rest.split('"').next()?.to_string())
        })
        .collect()
}

#[test]
fn overview_and_one_chart_per_finding_kind() {
    let json: Value =
        serde_json::from_str(&stdout_of(&["analyze", "--format", "json", "fixtures/"])).unwrap();
    let kinds: BTreeSet<&str> = json["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["rule"].as_str().unwrap())
        .collect();
    let html = stdout_of(&["analyze", "--format", "html", "fixtures/"]);
    let l = labels(&html);
    assert_eq!(
        l.iter()
            .filter(|x| *x == "Events per input file over time, with the findings")
            .count(),
        1,
        "{l:?}"
    );
    let mut expected = 0;
    for (rule, title) in CHART_OF {
        if kinds.contains(rule) {
            expected += 1;
            // Charts drawn together (merged kinds, case-wide errors) once;
            // per-finding charts once per finding of the kind.
            let per_finding = ["qtime-growth", "tcp-send-stall", "connection-churn"];
            // A case-wide chart under a finding names the series it puts
            // first after its title.
            let n = l.iter().filter(|x| x.starts_with(title)).count();
            if per_finding.contains(rule) {
                let findings = json["findings"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|f| f["rule"] == *rule)
                    .count();
                assert_eq!(n, findings, "{rule}: {l:?}");
            } else {
                assert_eq!(n, 1, "{rule}: {l:?}");
            }
        }
    }
    // The fixtures have every charted kind.
    assert_eq!(expected, CHART_OF.len(), "{kinds:?}");
    assert!(!html.contains("NaN") && !html.contains("inf\""));
    // Clock-time axes, offsets stated.
    assert!(html.contains("(UTC-04:00)</text>"));
    assert!(html.contains("delayed-ACK timer 200 ms"));
    assert!(html.contains("errors per "));
    // No raw microseconds in the metric tables.
    assert!(html.contains("<td>max</td><td>11.7 s</td>"));
    assert!(!html.contains("<td>11701686"));
}

#[test]
fn charts_follow_redaction() {
    let plain = stdout_of(&["analyze", "--format", "html", "fixtures/"]);
    let dns_chart = |h: &str| {
        h.split("<figure")
            .find(|f| f.contains("aria-label=\"DNS look-up durations"))
            .unwrap()
            .to_string()
    };
    assert!(dns_chart(&plain).contains("mqhost.example.com"));
    let red = stdout_of(&["analyze", "--format", "html", "--redact", "fixtures/"]);
    // Chart legends carry addresses: redacted like the rest.
    assert!(!red.contains("mqhost.example.com"));
    assert!(dns_chart(&red).contains("host-"), "{}", dns_chart(&red));
}
