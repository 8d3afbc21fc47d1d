//! End to end: findings told with the configuration of the case
//! (fixtures/config/): a runmqras-shaped collection with qm.ini and a
//! dmpmqcfg dump, the same zipped, a must-gather tar.gz holding a nested
//! runmqras zip, pod logs and a config map, a collection without the
//! `defs` section, both ends of a TLS channel, a client's CCDT and
//! mqclient.ini; the same logs without their configuration; and
//! `mqdiag config`.

mod common;
use common::{Scratch, analyze_json, files_under, findings, gzip, metric, mqdiag, zip_deflated};
use serde_json::Value;
use std::path::Path;

const RUNMQRAS: &str = "fixtures/config/runmqras";

fn zip_of(dir: &str) -> Vec<u8> {
    let files = files_under(Path::new(dir));
    let refs: Vec<(&str, &[u8])> = files
        .iter()
        .map(|(n, b)| (n.as_str(), b.as_slice()))
        .collect();
    zip_deflated(&refs)
}

/// Where each piece of evidence of a finding is: `file name:line`.
fn cited(f: &Value) -> Vec<String> {
    f["evidence"]
        .as_array()
        .expect("evidence")
        .iter()
        .map(|e| {
            let p = e["path"].as_str().unwrap();
            let name = p.rsplit(['/', '!']).next().unwrap();
            format!("{name}:{}", e["line"])
        })
        .collect()
}

fn by_metric<'a>(v: &'a Value, rule: &str, key: &str, value: &str) -> &'a Value {
    let all = findings(v, rule);
    all.iter()
        .find(|f| metric(f, key) == value)
        .unwrap_or_else(|| panic!("no {rule} finding with {key}={value}: {all:#?}"))
}

fn advice(f: &Value) -> &str {
    f["advice"].as_str().unwrap()
}

/// The stories of the runmqras collection, each with its configuration.
fn check_runmqras(v: &Value) {
    let connauth = by_metric(v, "access-refused", "mechanism", "connauth");
    assert_eq!(
        metric(connauth, "connauth"),
        "SYSTEM.DEFAULT.AUTHINFO.IDPWOS AUTHTYPE(IDPWOS) CHCKCLNT(REQDADM) CHCKLOCL(OPTIONAL) ADOPTCTX(YES)"
    );
    let c = cited(connauth);
    assert!(c.contains(&"QMAPP1.mqsc:12".to_string()), "{c:?}");
    assert!(c.contains(&"QMAPP1.mqsc:37".to_string()), "{c:?}");
    assert!(c.contains(&"AMQERR01.LOG:70".to_string()), "{c:?}");
    assert!(
        advice(connauth).contains("CHCKCLNT(REQDADM): a client that asserts a privileged user id")
    );

    // The CHLAUTH records replayed: the back-stop rule decided, not the
    // channel's own record for 10.20.*.
    let blocked = by_metric(v, "access-refused", "mechanism", "chlauth");
    assert!(
        metric(blocked, "chlauth_rule_at")
            .as_str()
            .unwrap()
            .ends_with("QMAPP1.mqsc:61"),
        "{blocked:#}"
    );
    assert!(cited(blocked).contains(&"QMAPP1.mqsc:61".to_string()));
    assert_eq!(
        metric(blocked, "chlauth_fix"),
        "SET CHLAUTH('APP.SVRCONN') TYPE(ADDRESSMAP) ADDRESS('203.0.113.10') USERSRC(CHANNEL) ACTION(ADD)"
    );
    assert!(advice(blocked).contains("the record at QMAPP1.mqsc line 61 decides"));

    let channels = by_metric(v, "resource-limit", "limit", "max-channels");
    assert_eq!(metric(channels, "configured"), "MaxChannels=50");
    assert!(cited(channels).contains(&"qm.ini:27".to_string()));
    assert!(advice(channels).contains("for QMAPP1, qm.ini line 27 sets MaxChannels=50"));

    let dlq = by_metric(v, "resource-limit", "limit", "dead-letter");
    assert_eq!(
        metric(dlq, "dead_letter_queue_name"),
        "SYSTEM.DEAD.LETTER.QUEUE"
    );
    assert!(cited(dlq).contains(&"QMAPP1.mqsc:18".to_string()));
    assert!(advice(dlq).contains("it holds at most MAXDEPTH(5000) messages"));

    let buffers = findings(v, "socket-buffer-size");
    assert_eq!(buffers.len(), 1);
    assert_eq!(
        metric(buffers[0], "configured"),
        "SndBuffSize=32768 (qm.ini line 30), RcvBuffSize=2048 (qm.ini line 31)"
    );
    assert!(cited(buffers[0]).contains(&"qm.ini:30".to_string()));
}

#[test]
fn a_collection_explains_its_findings() {
    check_runmqras(&analyze_json(&[RUNMQRAS]));
}

#[test]
fn the_same_collection_zipped() {
    let s = Scratch::new("config-zip");
    let zip = s.write("runmqras-QMAPP1.zip", &zip_of(RUNMQRAS));
    let v = analyze_json(&[zip.to_str().unwrap()]);
    check_runmqras(&v);
    // Every member a section of runmqras wrote is named, none unknown.
    let r = mqdiag(&["inventory", "--format", "json", zip.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let inv: Value = serde_json::from_str(&r.stdout).unwrap();
    let files = inv["files"].as_array().unwrap();
    assert_eq!(files.len(), 7);
    for f in files {
        assert_ne!(f["format"], "unknown", "{f:#}");
    }
    let dsp = files
        .iter()
        .find(|f| f["path"].as_str().unwrap().ends_with("!dspmqinst"))
        .unwrap();
    assert_eq!(dsp["format"], "runmqras-output");
    assert_eq!(
        dsp["variant"],
        "runmqras section 'default': installations (dspmqinst)"
    );
}

/// The logs alone give the findings they gave before configuration was
/// read: no configuration cited, no sentence added.
#[test]
fn without_configuration_the_findings_are_todays() {
    let s = Scratch::new("config-none");
    for (name, bytes) in files_under(Path::new(RUNMQRAS)) {
        if name.ends_with(".LOG") || name.ends_with(".FMT") {
            s.write(&name, &bytes);
        }
    }
    let bare = analyze_json(&[&s.str()]);
    let full = analyze_json(&[RUNMQRAS]);
    let bare_f = bare["findings"].as_array().unwrap();
    let full_f = full["findings"].as_array().unwrap();
    assert_eq!(bare_f.len(), full_f.len());
    for (b, f) in bare_f.iter().zip(full_f) {
        assert_eq!(b["rule"], f["rule"]);
        assert_eq!(b["title"], f["title"]);
        assert_eq!(b["count"], f["count"]);
        assert!(
            !advice(b).contains("From the case's configuration"),
            "{b:#}"
        );
        assert!(
            advice(f).starts_with(advice(b)),
            "{}\n{}",
            advice(b),
            advice(f)
        );
        for e in b["evidence"].as_array().unwrap() {
            let p = e["path"].as_str().unwrap();
            assert!(p.ends_with(".LOG") || p.ends_with(".FMT"), "{p}");
        }
    }
}

#[test]
fn a_collection_without_defs_says_which_section_would_tell() {
    let v = analyze_json(&["fixtures/config/no-defs"]);
    let f = by_metric(&v, "access-refused", "mechanism", "chlauth");
    assert_eq!(metric(f, "missing_configuration"), "MQSC definitions");
    assert!(
        advice(f).contains("collect them with `runmqras -section defs`"),
        "{}",
        advice(f)
    );
    // With the definitions, the note is not given.
    let v = analyze_json(&[RUNMQRAS]);
    for f in findings(&v, "access-refused") {
        assert!(!advice(f).contains("runmqras -section defs"), "{f:#}");
        assert_eq!(f["metrics"].get("missing_configuration"), None);
    }
}

#[test]
fn both_ends_of_a_tls_channel() {
    let v = analyze_json(&["fixtures/config/tls-pair"]);
    let f = findings(&v, "tls-error");
    assert_eq!(f.len(), 1);
    assert_eq!(metric(f[0], "sslciph_mismatch"), "true");
    assert_eq!(
        metric(f[0], "sslciph"),
        "TLS_AES_128_GCM_SHA256 / TLS_RSA_WITH_AES_256_GCM_SHA384"
    );
    let c = cited(f[0]);
    assert!(
        c.contains(&"QMDST.dmp:7".to_string()) && c.contains(&"QMSRC.dmp:8".to_string()),
        "{c:?}"
    );
    assert!(advice(f[0]).contains("that mismatch is the cause"));
}

/// A must-gather: pod logs, a config map and a nested runmqras zip, all in
/// one tar.gz, read as one case.
#[test]
fn a_must_gather_tarball_is_one_case() {
    let root = Path::new("fixtures/config/must-gather");
    let mut members: Vec<(String, Vec<u8>)> = Vec::new();
    for (name, bytes) in files_under(root) {
        if !name.starts_with("runmqras-") {
            members.push((format!("Must_Gather_20240611/{name}"), bytes));
        }
    }
    members.push((
        "Must_Gather_20240611/runmqras-QMPOD-ibm-mq-0.zip".to_string(),
        zip_of("fixtures/config/must-gather/runmqras-QMPOD-ibm-mq-0"),
    ));
    let mut b = tar::Builder::new(Vec::new());
    for (name, bytes) in &members {
        let mut h = tar::Header::new_gnu();
        h.set_size(bytes.len() as u64);
        h.set_mode(0o644);
        h.set_mtime(1_718_092_800);
        b.append_data(&mut h, name, bytes.as_slice())
            .expect("tar member");
    }
    let s = Scratch::new("config-mustgather");
    let tgz = s.write("must-gather.tar.gz", &gzip(&b.into_inner().expect("tar")));
    let r = mqdiag(&["inventory", "--format", "json", tgz.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let inv: Value = serde_json::from_str(&r.stdout).unwrap();
    let formats: Vec<&str> = inv["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["format"].as_str().unwrap())
        .collect();
    assert_eq!(
        formats,
        vec!["config-map", "container-log", "runmqras-output", "mq-ini"],
        "{:#}",
        inv
    );
    let r = mqdiag(&["config", "--format", "json", tgz.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let cfg: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(cfg["scopes"][0]["name"], "QMPOD");
    assert_eq!(cfg["scopes"][0]["files"].as_array().unwrap().len(), 2);
    let v = analyze_json(&[tgz.to_str().unwrap()]);
    let f = by_metric(&v, "access-refused", "mechanism", "chlauth");
    assert_eq!(metric(f, "user"), "batchsvc");
    // The config map's BLOCKUSER record, at its line in the map.
    assert_eq!(
        metric(f, "chlauth_rule"),
        "SET CHLAUTH('DEV.APP.SVRCONN') TYPE(BLOCKUSER) USERLIST('batchsvc','nobody') DESCR('Batch jobs use BATCH.SVRCONN') ACTION(REPLACE)"
    );
    assert!(
        cited(f).contains(&"qmpod-config.yaml:15".to_string()),
        "{f:#}"
    );
    assert!(
        advice(f).contains("BLOCKUSER('DEV.APP.SVRCONN') at line 15 blocks user 'batchsvc'"),
        "{}",
        advice(f)
    );
}

#[test]
fn config_lists_what_was_believed() {
    let r = mqdiag(&["config", "fixtures/config"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    insta::assert_snapshot!(r.stdout);
    let r = mqdiag(&[
        "config",
        "--qmgr",
        "QMDST",
        "--format",
        "json",
        "fixtures/config",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    let scopes = v["scopes"].as_array().unwrap();
    assert_eq!(scopes.len(), 2, "QMDST and the installation: {v:#}");
    assert_eq!(scopes[0]["name"], "QMDST");
    let fact = &scopes[0]["files"][0]["facts"][0];
    assert_eq!(fact["line"], 7);
    assert_eq!(fact["object"], "CHANNEL");
    assert_eq!(fact["attrs"]["SSLCIPH"], "TLS_AES_128_GCM_SHA256");
    assert_eq!(scopes[1]["scope"], "system");
    // Redacted: no queue manager, channel, user or address left.
    let r = mqdiag(&["config", "--redact", "fixtures/config/runmqras"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    for secret in ["QMAPP1", "APP.SVRCONN", "ordapp", "mqapp1"] {
        assert!(!r.stdout.contains(secret), "{secret} in\n{}", r.stdout);
    }
    // runmqsc's DISPLAY replies, one fact per object, blank values unset.
    let r = mqdiag(&["config", "--format", "json", "fixtures/config/runmqsc"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["scopes"][0]["name"], "QMDIS");
    let file = &v["scopes"][0]["files"][0];
    assert_eq!(file["source"], "runmqsc output");
    let facts = file["facts"].as_array().unwrap();
    assert_eq!(facts.len(), 4, "{file:#}");
    assert_eq!(
        (facts[0]["line"].as_u64(), &facts[0]["verb"]),
        (Some(6), &Value::from("DISPLAY"))
    );
    assert_eq!(facts[0]["attrs"]["MAXINSTC"], "5");
    assert!(facts[0]["attrs"].get("MCAUSER").is_none());
    assert_eq!(facts[3]["object"], "QLOCAL");
    assert_eq!(file["problem_count"], 0);
    // Traces and logs are not read by `config`.
    let r = mqdiag(&["config", "fixtures/trace"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.starts_with("No configuration found"),
        "{}",
        r.stdout
    );
}
