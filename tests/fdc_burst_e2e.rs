//! End to end: FDC bursts on fixtures/fdc-burst/: FDCs of one probe id and
//! program close together are one `fdc` finding naming the first FDC.

mod common;
use common::{analyze_json, findings, instant, metric, one};
use serde_json::Value;

fn first_evidence(f: &Value) -> (&str, u64) {
    let e = &f["evidence"][0];
    (e["path"].as_str().unwrap(), e["line"].as_u64().unwrap())
}

/// The `fdc` finding whose first FDC is `file`.
fn burst<'a>(v: &'a Value, file: &str) -> &'a Value {
    let f: Vec<&Value> = findings(v, "fdc")
        .into_iter()
        .filter(|f| metric(f, "first_fdc") == file)
        .collect();
    assert_eq!(f.len(), 1, "one burst starting at {file}: {v:#}");
    f[0]
}

#[test]
fn six_fdcs_of_one_probe_are_one_finding_naming_the_first() {
    let v = analyze_json(&["fixtures/fdc-burst/one-probe"]);
    assert_eq!(v["findings"].as_array().unwrap().len(), 1, "{v:#}");
    let f = one(&v, "fdc");
    assert_eq!(f["count"], 6);
    assert_eq!(metric(f, "reports"), 6);
    assert_eq!(metric(f, "later_reports"), 5);
    assert_eq!(metric(f, "first_fdc"), "AMQ30.0.FDC");
    assert_eq!(metric(f, "probe_id"), "XC130003");
    assert_eq!(metric(f, "component"), "xehExceptionHandler");
    assert_eq!(metric(f, "major_error"), "STOP");
    assert_eq!(metric(f, "programs"), "amqzlaa0");
    assert_eq!(f["subject"]["program"], "amqzlaa0");
    assert_eq!(
        instant(f["first"].as_str().unwrap()),
        instant("2024-05-13T09:00:12.104+00:00")
    );
    assert_eq!(
        instant(f["last"].as_str().unwrap()),
        instant("2024-05-13T09:48:47.109555+00:00")
    );
    assert_eq!(
        first_evidence(f),
        ("fixtures/fdc-burst/one-probe/AMQ30.0.FDC", 1)
    );
    let title = f["title"].as_str().unwrap();
    assert!(
        title.contains("first of the burst: AMQ30.0.FDC at 2024-05-13 09:00:12"),
        "{title}"
    );
}

#[test]
fn a_short_gap_splits_the_burst() {
    // The FDCs are about ten minutes apart: under a five-minute gap each
    // is its own burst.
    let v = analyze_json(&[
        "--set",
        "fdc.burst_gap_s=300",
        "fixtures/fdc-burst/one-probe",
    ]);
    let f = findings(&v, "fdc");
    assert_eq!(f.len(), 6, "{v:#}");
    assert!(f.iter().all(|f| f["count"] == 1));
}

#[test]
fn interleaved_probes_and_a_repeat_after_hours_are_three_bursts() {
    let v = analyze_json(&["fixtures/fdc-burst/mixed"]);
    assert_eq!(findings(&v, "fdc").len(), 3, "{v:#}");
    assert_eq!(v["findings"].as_array().unwrap().len(), 3, "{v:#}");

    let agent = burst(&v, "AMQ41.0.FDC");
    assert_eq!(agent["count"], 3);
    assert_eq!(metric(agent, "probe_id"), "XC130003");
    assert_eq!(
        first_evidence(agent),
        ("fixtures/fdc-burst/mixed/AMQ41.0.FDC", 1)
    );
    assert_eq!(
        instant(agent["last"].as_str().unwrap()),
        instant("2024-05-14T09:12:12.250014+00:00")
    );

    let responder = burst(&v, "AMQ52.0.FDC");
    assert_eq!(responder["count"], 3);
    assert_eq!(metric(responder, "probe_id"), "XC035040");
    assert_eq!(metric(responder, "major_error"), "xecS_E_NO_MEMORY");
    assert_eq!(responder["subject"]["program"], "amqrmppa");
    assert_eq!(
        instant(responder["first"].as_str().unwrap()),
        instant("2024-05-14T09:01:47.25+00:00")
    );

    // The same probe and program again, over two hours later: a burst of
    // its own, told apart by its first FDC.
    let again = burst(&v, "AMQ88.0.FDC");
    assert_eq!(again["count"], 2);
    assert_eq!(metric(again, "probe_id"), "XC130003");
    assert_eq!(
        instant(again["first"].as_str().unwrap()),
        instant("2024-05-14T11:30:12.25+00:00")
    );
    assert_ne!(agent["fingerprint"], again["fingerprint"]);
}

#[test]
fn ffstsummary_lines_count_as_fdcs() {
    let v = analyze_json(&["fixtures/fdc-burst/summary"]);
    assert_eq!(findings(&v, "fdc").len(), 2, "{v:#}");
    let f = burst(&v, "AMQ64.0.FDC");
    assert_eq!(f["count"], 4);
    assert_eq!(metric(f, "files"), 4);
    assert_eq!(
        first_evidence(f),
        ("fixtures/fdc-burst/summary/FFST.output", 1)
    );
    assert_eq!(
        instant(f["last"].as_str().unwrap()),
        instant("2024-05-15T11:17:42.296001+00:00")
    );
    assert_eq!(burst(&v, "AMQ71.0.FDC")["count"], 1);
}

/// An AMQ9207 record in the same second as an FDC of the burst.
fn amq9207(at: &str) -> String {
    format!(
        "{at} - Process(30.7) User(mqm) Program(amqrmppa)\n\
         \x20                   Host(mq-qm1-0) Installation(Installation1)\n\
         \x20                   VRMF(9.3.0.15) QMgr(QM1)\n\
         \n\
         AMQ9207E: The data received from host 'scan01 (192.0.2.15)' on channel '????' is\n\
         not valid.\n\
         \n\
         EXPLANATION:\n\
         Incorrect data format received from host 'scan01 (192.0.2.15)' over TCP/IP.\n\
         ACTION:\n\
         Tell the systems administrator.\n\
         ----- amqccita.c : 5318 -------------------------------------------------------\n"
    )
}

#[test]
fn other_findings_say_whether_a_cited_fdc_began_its_burst() {
    let d = common::Scratch::new("fdc-burst-cite");
    let log = amq9207("05/13/2024 09:00:13 AM") + &amq9207("05/13/2024 09:19:40 AM");
    d.write("errors/AMQERR01.LOG", log.as_bytes());
    let dir = d.str();
    let v = analyze_json(&[
        "--tz",
        "+00:00",
        "--only",
        "channel-error",
        "fixtures/fdc-burst/one-probe",
        &dir,
    ]);
    let f = one(&v, "channel-error");
    assert_eq!(
        metric(f, "cited_fdcs"),
        "AMQ30.0.FDC (first of its burst); \
         AMQ30.2.FDC (later in the burst that began with AMQ30.0.FDC)",
        "{f:#}"
    );
    // The gap the `fdc` rule is set to cuts the bursts here too.
    let v = analyze_json(&[
        "--tz",
        "+00:00",
        "--only",
        "channel-error,fdc",
        "--set",
        "fdc.burst_gap_s=60",
        "fixtures/fdc-burst/one-probe",
        &dir,
    ]);
    let f = one(&v, "channel-error");
    assert_eq!(
        metric(f, "cited_fdcs"),
        "AMQ30.0.FDC (first of its burst); AMQ30.2.FDC (first of its burst)",
        "{f:#}"
    );
}
