//! End to end: `access-refused` on the fixtures of fixtures/access/, one
//! per kind of refusal, and on fixtures without any refusal.

mod common;
use common::{analyze_json, field, findings, metric, one};
use serde_json::Value;

const RULE: &str = "access-refused";

fn run(path: &str) -> Value {
    analyze_json(&["--only", RULE, path])
}

fn paths(f: &Value) -> Vec<&str> {
    let mut p: Vec<&str> = f["evidence"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["path"].as_str().unwrap())
        .collect();
    p.dedup();
    p
}

#[test]
fn chlauth_block_by_user_id() {
    let v = run("fixtures/access/chlauth-user");
    let f = one(&v, RULE);
    assert_eq!(field(f, "severity"), "error");
    assert_eq!(f["count"], 3);
    assert_eq!(field(f, "first"), "2020-02-26T10:04:57.271000+00:00");
    assert_eq!(field(f, "last"), "2020-02-26T10:09:02.118000+00:00");
    assert_eq!(f["subject"]["channel"], "PSB.SRV.APP.01");
    assert_eq!(f["subject"]["address"], "10.176.172.212");
    assert_eq!(f["subject"]["qmgr"], "PSBQM1");
    assert_eq!(metric(f, "mechanism"), "chlauth");
    assert_eq!(metric(f, "user"), "jochen");
    assert_eq!(metric(f, "occurrences"), 3);
    assert_eq!(metric(f, "check"), "USERSRC(NOACCESS)");
    assert_eq!(metric(f, "matched_values"), "CLNTUSER(jochen)");
    assert!(field(f, "title").starts_with("CHLAUTH blocked by USERSRC(NOACCESS): user 'jochen'"));
    assert!(
        field(f, "advice").contains(
            "DISPLAY CHLAUTH('PSB.SRV.APP.01') MATCH(RUNCHECK) ADDRESS('10.176.172.212') CLNTUSER('jochen')"
        ),
        "{}",
        field(f, "advice")
    );
    assert!(field(f, "advice").contains("runmqsc PSBQM1"));
}

#[test]
fn chlauth_block_by_address_is_one_story_per_address() {
    let v = run("fixtures/access/chlauth-address");
    let all = findings(&v, RULE);
    assert_eq!(all.len(), 2, "{all:#?}");
    let f = all
        .iter()
        .find(|f| f["subject"]["address"] == "192.0.2.77")
        .unwrap();
    assert_eq!(f["count"], 2);
    assert_eq!(field(f, "first"), "2024-05-13T14:20:01.051000+02:00");
    assert_eq!(field(f, "last"), "2024-05-13T14:21:01.233000+02:00");
    assert_eq!(metric(f, "mechanism"), "chlauth");
    assert_eq!(metric(f, "channel"), "GW.SVRCONN");
    assert!(metric(f, "user").is_null());
    assert_eq!(metric(f, "matched_values"), "ADDRESS(192.0.2.77)");
    assert!(field(f, "advice").contains(
        "DISPLAY CHLAUTH('GW.SVRCONN') MATCH(RUNCHECK) ADDRESS('192.0.2.77') CLNTUSER('<client user id>')"
    ));
    let other = all
        .iter()
        .find(|f| f["subject"]["address"] == "192.0.2.78")
        .unwrap();
    assert_eq!(other["count"], 1);
}

#[test]
fn connauth_failure_counts_the_records_of_one_refusal_once() {
    let v = run("fixtures/access/connauth");
    let f = one(&v, RULE);
    assert_eq!(f["count"], 2);
    assert_eq!(metric(f, "mechanism"), "connauth");
    assert_eq!(metric(f, "user"), "appuser");
    assert_eq!(metric(f, "check"), "CHCKCLNT(REQDADM)");
    assert_eq!(metric(f, "message_id"), "AMQ5534E x2, AMQ5542E x2");
    assert_eq!(field(f, "first"), "2017-04-02T07:10:16.204000+00:00");
    assert_eq!(field(f, "last"), "2017-04-02T07:12:40.913000+00:00");
    assert_eq!(f["subject"]["qmgr"], "QM8");
    let advice = field(f, "advice");
    assert!(advice.contains("DISPLAY QMGR CONNAUTH"), "{advice}");
    assert!(
        advice.contains("REFRESH SECURITY TYPE(CONNAUTH)"),
        "{advice}"
    );
}

#[test]
fn oam_authority_failure_names_object_and_permission() {
    let v = run("fixtures/access/authority");
    let f = one(&v, RULE);
    assert_eq!(f["count"], 3);
    assert_eq!(metric(f, "mechanism"), "authority");
    assert_eq!(metric(f, "user"), "payapp");
    assert_eq!(metric(f, "object"), "PAYMENT.IN");
    assert_eq!(metric(f, "permissions"), "put");
    assert_eq!(field(f, "first"), "2024-03-05T11:02:03.120000+01:00");
    assert_eq!(field(f, "last"), "2024-03-05T11:15:00.007000+01:00");
    assert!(
        field(f, "title").starts_with("Not authorised for put: user 'payapp', object 'PAYMENT.IN'")
    );
    let advice = field(f, "advice");
    assert!(
        advice.contains("dspmqaut -m QMAPP -n 'PAYMENT.IN'"),
        "{advice}"
    );
    assert!(advice.contains("-p payapp"), "{advice}");
    assert!(advice.contains("+put"), "{advice}");
}

#[test]
fn user_id_initialisation_failure() {
    let v = run("fixtures/access/userid");
    let f = one(&v, RULE);
    assert_eq!(f["count"], 1);
    assert_eq!(metric(f, "mechanism"), "userid");
    assert_eq!(metric(f, "user"), "root");
    assert_eq!(field(f, "first"), "2020-04-12T10:39:07.168000-04:00");
    assert_eq!(field(f, "first"), field(f, "last"));
    assert!(
        field(f, "title").contains("reason 2035"),
        "{}",
        field(f, "title")
    );
    assert!(field(f, "advice").contains("`id root`"));
}

#[test]
fn client_2035_and_server_block_are_one_story_citing_both_files() {
    let v = run("fixtures/access/paired");
    let f = one(&v, RULE);
    assert_eq!(metric(f, "mechanism"), "chlauth");
    assert_eq!(metric(f, "channel"), "APP.SVRCONN");
    assert_eq!(metric(f, "address"), "10.20.30.41");
    assert_eq!(metric(f, "user"), "ordapp");
    assert_eq!(metric(f, "client_failures"), 2);
    assert_eq!(metric(f, "client_reason"), "2035 MQRC_NOT_AUTHORIZED");
    assert_eq!(f["count"], 2);
    assert_eq!(f["subject"]["pid"], 4711);
    assert_eq!(f["subject"]["program"], "ordersvc");
    assert_eq!(f["subject"]["host"], "appsrv07");
    assert_eq!(field(f, "first"), "2024-03-12T09:30:00.498000+01:00");
    assert_eq!(field(f, "last"), "2024-03-12T09:30:10.500900+01:00");
    assert_eq!(
        paths(f),
        vec![
            "fixtures/access/paired/server/qmgrs/ORDQM/errors/AMQERR01.LOG",
            "fixtures/access/paired/client/trace/AMQ4711.0.FMT"
        ]
    );
    assert!(field(f, "title").contains("the client saw MQCONNX fail with 2035"));
    assert!(field(f, "advice").contains(
        "DISPLAY CHLAUTH('APP.SVRCONN') MATCH(RUNCHECK) ADDRESS('10.20.30.41') CLNTUSER('ordapp')"
    ));
}

#[test]
fn the_client_alone_says_where_to_look() {
    let v = run("fixtures/access/paired/client");
    let f = one(&v, RULE);
    assert_eq!(metric(f, "mechanism"), "unknown");
    assert_eq!(metric(f, "channel"), "APP.SVRCONN");
    assert_eq!(f["count"], 2);
    assert!(field(f, "advice").contains("AMQERR01.LOG"));
    assert!(field(f, "advice").contains("DISPLAY QMGR CONNAUTH"));
}

#[test]
fn a_record_too_far_from_the_failure_is_not_its_story() {
    let v = analyze_json(&[
        "--only",
        RULE,
        "--set",
        "access-refused.pair_window_s=0",
        "fixtures/access/paired",
    ]);
    let all = findings(&v, RULE);
    assert_eq!(all.len(), 2, "{all:#?}");
    assert!(all.iter().any(|f| f["metrics"]["mechanism"] == "unknown"));
}

#[test]
fn json_log_records_are_read_from_their_inserts() {
    let v = run("fixtures/access/json");
    let f = one(&v, RULE);
    assert_eq!(f["count"], 2);
    assert_eq!(metric(f, "mechanism"), "chlauth");
    assert_eq!(metric(f, "user"), "batch1");
    assert_eq!(metric(f, "channel"), "DEV.APP.SVRCONN");
    assert_eq!(metric(f, "address"), "172.17.0.21");
    assert_eq!(field(f, "first"), "2024-06-03T06:12:44.518000+00:00");
    assert_eq!(field(f, "last"), "2024-06-03T06:13:14.601000+00:00");
    assert!(field(f, "advice").contains(
        "DISPLAY CHLAUTH('DEV.APP.SVRCONN') MATCH(RUNCHECK) ADDRESS('172.17.0.21') CLNTUSER('batch1')"
    ));
}

#[test]
fn no_refusal_no_finding() {
    for p in [
        "fixtures/healthy",
        "fixtures/errlog",
        "fixtures/channel-scan",
        "fixtures/trace",
        "fixtures/fdc",
    ] {
        let v = run(p);
        assert!(
            findings(&v, RULE).is_empty(),
            "{p}: {:#?}",
            findings(&v, RULE)
        );
    }
}

#[test]
fn zos_chlauth_block_moves_from_channel_error() {
    let v = analyze_json(&["fixtures/zos"]);
    let f = one(&v, RULE);
    assert_eq!(metric(f, "mechanism"), "chlauth");
    assert_eq!(metric(f, "check"), "USERSRC(NOACCESS)");
    assert_eq!(metric(f, "channel"), "APP1.SVRCONN");
    assert_eq!(metric(f, "address"), "192.0.2.50");
    assert_eq!(f["subject"]["qmgr"], "MQ1A");
    assert_eq!(f["count"], 1);
    assert_eq!(field(f, "first"), "2024-03-05T10:22:40.000000+00:00");
    assert!(
        field(f, "advice")
            .contains("DISPLAY CHLAUTH('APP1.SVRCONN') MATCH(RUNCHECK) ADDRESS('192.0.2.50')")
    );
    for c in findings(&v, "channel-error") {
        let ids = c["metrics"]["message_id"].as_str().unwrap_or("");
        assert!(!ids.contains("CSQX777"), "{c:#}");
    }
}

#[test]
fn container_console_refusals() {
    let v = run("fixtures/access/container");
    let all = findings(&v, RULE);
    assert_eq!(all.len(), 2, "{all:#?}");
    let chl = all
        .iter()
        .find(|f| metric(f, "mechanism") == "chlauth")
        .unwrap();
    assert_eq!(chl["count"], 3);
    assert_eq!(field(chl, "first"), "2024-07-09T08:21:44.501000+00:00");
    assert_eq!(field(chl, "last"), "2024-07-09T08:22:45.019000+00:00");
    assert_eq!(metric(chl, "user"), "batchsvc");
    assert_eq!(metric(chl, "channel"), "DEV.APP.SVRCONN");
    assert_eq!(metric(chl, "address"), "192.0.2.41");
    assert_eq!(metric(chl, "matched_values"), "CLNTUSER(batchsvc)");
    assert!(field(chl, "advice").contains(
        "DISPLAY CHLAUTH('DEV.APP.SVRCONN') MATCH(RUNCHECK) ADDRESS('192.0.2.41') CLNTUSER('batchsvc')"
    ));
    let ca = all
        .iter()
        .find(|f| metric(f, "mechanism") == "connauth")
        .unwrap();
    assert_eq!(ca["count"], 2);
    assert_eq!(metric(ca, "user"), "app");
    // Issue 40: the queue manager runmqserver named (`Using queue manager
    // name: QMC1`) is in both stories' subjects.
    for f in [chl, ca] {
        assert_eq!(f["subject"]["qmgr"], "QMC1", "{f:#}");
    }
    assert!(
        field(ca, "advice").contains("DISPLAY QMGR CONNAUTH"),
        "{}",
        field(ca, "advice")
    );
}

#[test]
fn zos_racf_violations_in_the_queue_manager_job_log() {
    let v = run("fixtures/zos-racf");
    let all = findings(&v, RULE);
    assert_eq!(all.len(), 2, "{all:#?}");
    let f = all.iter().find(|f| metric(f, "user") == "PAYAPP1").unwrap();
    assert_eq!(f["count"], 2);
    assert_eq!(field(f, "first"), "2024-03-05T11:02:17.000000+00:00");
    assert_eq!(field(f, "last"), "2024-03-05T11:02:49.000000+00:00");
    assert_eq!(metric(f, "mechanism"), "authority");
    assert_eq!(metric(f, "object"), "MQ1A.PAYROLL.REQUEST");
    assert_eq!(metric(f, "check"), "INSUFFICIENT ACCESS AUTHORITY");
    assert_eq!(f["subject"]["qmgr"], "MQ1A");
    let advice = field(f, "advice");
    assert!(
        advice.contains("`RLIST MQQUEUE MQ1A.PAYROLL.REQUEST AUTHUSER`"),
        "{advice}"
    );
    assert!(
        advice.contains("`PERMIT MQ1A.PAYROLL.REQUEST CLASS(MQQUEUE) ID(PAYAPP1) ACCESS(UPDATE)`")
    );
    assert!(advice.contains("`REFRESH SECURITY(MQQUEUE)` on queue manager MQ1A"));
    assert!(!advice.contains("dspmqaut"));
    let g = all.iter().find(|f| metric(f, "user").is_null()).unwrap();
    assert_eq!(metric(g, "check"), "PROFILE NOT FOUND");
    assert_eq!(metric(g, "object"), "MQ1A.AUDIT.LOG");
    assert!(field(g, "advice").contains("`RDEFINE MQQUEUE MQ1A.AUDIT.LOG UACC(NONE)`"));
    assert!(field(g, "advice").contains("MQ1A.ALTERNATE.USER.-BLANK-"));
}

/// Issue 43 item 4: 20 CHLAUTH blocks from 20 addresses, written by one
/// process thread a second apart (the record of
/// fixtures/config/no-defs, its address and time changed), are 20
/// refusals: the JSON report names every address, and the SARIF and text
/// reports too.
#[test]
fn twenty_blocks_from_twenty_addresses_name_them_all() {
    let src = std::fs::read_to_string(
        "fixtures/config/no-defs/var/mqm/qmgrs/QMNODEF/errors/AMQERR01.LOG",
    )
    .unwrap();
    let sep = "----- amqrmrsa.c : 945";
    let rec = &src[..src.find(sep).unwrap()];
    let mut log = String::new();
    for k in 0..20 {
        if k > 0 {
            log.push_str(sep);
            log.push_str(" --------------------------------------------------------\n");
        }
        log.push_str(
            &rec.replace("203.0.113.10", &format!("198.51.100.{}", k + 1))
                .replace("11:02:11", &format!("11:02:{:02}", k + 10))
                .replace("09:02:11.120Z", &format!("09:02:{:02}.120Z", k + 10)),
        );
    }
    let d = common::Scratch::new("twenty-addresses");
    d.write("qmgrs/QMNODEF/errors/AMQERR01.LOG", log.as_bytes());
    let v = run(&d.str());
    let fs = findings(&v, RULE);
    assert_eq!(
        fs.iter().map(|f| f["count"].as_u64().unwrap()).sum::<u64>(),
        20
    );
    let report = v["findings"].to_string();
    for k in 1..=20 {
        assert!(
            report.contains(&format!("\"198.51.100.{k}\"")),
            "198.51.100.{k}: {report}"
        );
    }
    for format in ["sarif", "text"] {
        let out = common::stdout_of(&["analyze", "--only", RULE, "--format", format, &d.str()]);
        for k in 1..=20 {
            assert!(
                out.contains(&format!("198.51.100.{k}")),
                "{format}: 198.51.100.{k}"
            );
        }
    }
}

/// Issue 40: a container's CONNAUTH refusal names its user in the
/// subject, so two users are two subjects and two fingerprints (the
/// console of fixtures/access/container, its user `app` changed to `ops`
/// in a second copy).
#[test]
fn a_connauth_refusal_names_its_user_in_the_subject() {
    let log = std::fs::read_to_string("fixtures/access/container/mq-console.log").unwrap();
    let d = common::Scratch::new("connauth-users");
    d.write("a/mq-console.log", log.as_bytes());
    d.write("b/mq-console.log", log.replace("'app'", "'ops'").as_bytes());
    let v = run(&d.str());
    let ca: Vec<&Value> = findings(&v, RULE)
        .into_iter()
        .filter(|f| metric(f, "mechanism") == "connauth")
        .collect();
    let users: Vec<&str> = ca
        .iter()
        .map(|f| f["subject"]["user"].as_str().unwrap())
        .collect();
    assert_eq!(users, ["app", "ops"], "{ca:#?}");
    assert_ne!(ca[0]["fingerprint"], ca[1]["fingerprint"]);
    let text = common::stdout_of(&["analyze", "--only", RULE, &d.str()]);
    assert!(text.contains("user app"), "{text}");
}
