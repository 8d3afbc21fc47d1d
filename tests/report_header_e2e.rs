//! Every report says how it was made (issue 28 item 3): the time window as
//! given and as resolved, the rules and thresholds, `--tz`, baseline and
//! redaction, in every format and with `-q`; `--since` after `--until` is
//! exit 2 whatever the form.

mod common;

use common::mqdiag;

const CASE: &str = "fixtures/case-mixed";
const FORMATS: &[&str] = &["text", "markdown", "html", "json", "sarif"];

fn report(format: &str, extra: &[&str]) -> String {
    let mut a = vec!["analyze", CASE, "-q", "--format", format];
    a.extend_from_slice(extra);
    let r = mqdiag(&a);
    assert!(r.code == 0 || r.code == 1, "{a:?}: {}", r.stderr);
    assert!(r.stderr.is_empty(), "-q: {}", r.stderr);
    r.stdout
}

#[test]
fn every_format_states_the_window_as_given_and_resolved() {
    let win = ["--since", "06:22:44", "--until", "06:22:47.03"];
    for f in FORMATS {
        let out = report(f, &win);
        for want in [
            "06:22:44",
            "06:22:47.03",
            "2025-03-14T06:22:44-04:00",
            "2025-03-14T06:22:47.030-04:00",
        ] {
            assert!(out.contains(want), "{f}: no {want}");
        }
        if matches!(*f, "text" | "markdown" | "html") {
            assert!(out.contains("time window: --since 06:22:44 --until"), "{f}");
        }
        // Without a window, the report says it covers all of the input.
        let all = report(f, &[]);
        assert!(
            all.contains("all of the input") || all.contains("\"window\": null"),
            "{f}"
        );
    }
    let v: serde_json::Value = serde_json::from_str(&report("json", &win)).unwrap();
    let w = &v["run"]["window"];
    assert_eq!(w["since"], "06:22:44");
    assert_eq!(w["until"], "06:22:47.03");
    assert_eq!(w["from"], "2025-03-14T06:22:44-04:00");
    assert_eq!(w["to"], "2025-03-14T06:22:47.030-04:00");
    let s: serde_json::Value = serde_json::from_str(&report("sarif", &win)).unwrap();
    let props = &s["runs"][0]["invocations"][0]["properties"];
    assert_eq!(props["run"]["window"], *w);
    assert!(
        props["notes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|n| n.as_str().unwrap().starts_with("time window: --since"))
    );
}

#[test]
fn every_format_states_tz_baseline_and_redaction() {
    for f in ["text", "markdown", "html"] {
        let plain = report(f, &[]);
        for want in [
            "rules ran with default thresholds",
            "no --tz",
            "no baseline",
            "not redacted",
        ] {
            assert!(plain.contains(want), "{f}: no {want}");
        }
        let set = report(
            f,
            &[
                "--tz",
                "+02:00",
                "--redact",
                "--skip",
                "tls-error",
                "--set",
                "slow-dns.min_ms=100",
            ],
        );
        for want in [
            "rules skipped: tls-error",
            "thresholds changed: slow-dns.min_ms=100",
            "read as +02:00 (--tz)",
            "names and addresses redacted",
            "no baseline",
        ] {
            assert!(set.contains(want), "{f}: no {want}");
        }
        assert!(
            !set.contains("not redacted") && !set.contains("no --tz"),
            "{f}"
        );
    }
}

#[test]
fn since_after_until_is_exit_2_in_every_form() {
    let pairs: &[(&str, &str)] = &[
        ("06:23", "06:22"),
        ("23:00", "01:00"),
        ("2025-03-15", "2025-03-14"),
        ("2025-03-14 06:23", "2025-03-14 06:22"),
        ("2025-03-14T06:23:00-04:00", "2025-03-14T06:22:00-04:00"),
        ("2025-03-14T06:23:00-04:00", "06:22"),
    ];
    for (s, u) in pairs {
        for verb in ["analyze", "timeline", "calls"] {
            let r = mqdiag(&[verb, CASE, "-q", "--since", s, "--until", u]);
            assert_eq!(r.code, 2, "{verb} --since {s} --until {u}: {}", r.stdout);
            assert!(r.stderr.contains("is after"), "{}", r.stderr);
            assert!(r.stdout.is_empty());
        }
    }
}
