//! End to end: event messages (`mq-events`) in the three forms amqsevt
//! writes (fixtures/events/text, json and compact: one scenario, written by
//! scripts/make-event-fixtures.py) beside the queue manager's error log of
//! the same minutes. Each form gives the same stories: two Not Authorized
//! refusals (types 1 and 2, the second with its open options by name), a
//! Channel Blocked that the error log's AMQ9777E also tells (one
//! occurrence citing both), a full queue, a channel's instance limit, a
//! queue not serviced in time, and a cipher change followed four minutes
//! later by the channel failing TLS (the failure names the change, its
//! author and the delay).

mod common;
use common::{analyze_json, findings, metric, mqdiag};
use serde_json::Value;

const FORMS: &[&str] = &["text", "json", "compact"];

fn report(form: &str) -> Value {
    analyze_json(&[&format!("fixtures/events/{form}")])
}

/// Each evidence line as `file name:line`.
fn cited(f: &Value) -> Vec<String> {
    f["evidence"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            let p = e["path"].as_str().unwrap();
            let name = p.rsplit('/').next().unwrap();
            format!("{name}:{}", e["line"])
        })
        .collect()
}

fn events_file(form: &str) -> &'static str {
    if form == "text" {
        "QM1.events.txt"
    } else {
        "QM1.events.json"
    }
}

#[test]
fn every_form_reads_eleven_events() {
    for form in FORMS {
        let r = mqdiag(&[
            "inventory",
            &format!("fixtures/events/{form}/{}", events_file(form)),
            "--format",
            "json",
        ]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        let v: Value = serde_json::from_str(&r.stdout).unwrap();
        let row = &v["files"][0];
        assert_eq!(row["format"], "mq-events", "{form}");
        assert_eq!(row["events"], 11, "{form}");
        assert_eq!(row["problem_count"], 0, "{form}: {row:#}");
    }
}

#[test]
fn refusals_by_type_with_user_object_and_options_and_one_block_told_twice() {
    for form in FORMS {
        let v = report(form);
        let all = findings(&v, "access-refused");
        assert_eq!(all.len(), 3, "{form}: {all:#?}");
        let by = |needle: &str| {
            *all.iter()
                .find(|f| f["title"].as_str().unwrap().contains(needle))
                .unwrap_or_else(|| panic!("{form}: no finding with {needle}"))
        };
        let connect = by("connect check (Not Authorized type 1)");
        assert_eq!(metric(connect, "user"), "bob");
        assert_eq!(connect["subject"]["program"], "amqsput");
        assert_eq!(connect["count"], 1);
        let open = by("open check (Not Authorized type 2)");
        assert_eq!(metric(open, "object"), "PAYROLL.IN");
        assert_eq!(
            metric(open, "options"),
            "MQOO_OUTPUT+MQOO_FAIL_IF_QUIESCING"
        );
        assert_eq!(
            cited(open),
            vec![format!("{}:{}", events_file(form), open_line(form))]
        );
        // The block: the event and the AMQ9777E of the same second are one
        // occurrence, both cited.
        let block = by("CHLAUTH blocked");
        assert_eq!(block["count"], 1, "{form}");
        assert_eq!(metric(block, "mechanism"), "chlauth");
        assert_eq!(metric(block, "user"), "mallory");
        assert_eq!(metric(block, "event_messages"), 1);
        let c = cited(block);
        assert!(c.contains(&"AMQERR01.LOG:1".to_string()), "{form}: {c:?}");
        assert!(
            c.iter().any(|l| l.starts_with(events_file(form))),
            "{form}: {c:?}"
        );
    }
}

/// The line of the type 2 event in each form.
fn open_line(form: &str) -> u64 {
    match form {
        "text" => 11,
        "json" => 27,
        _ => 2,
    }
}

#[test]
fn limits_and_queue_service_per_queue_and_channel() {
    for form in FORMS {
        let v = report(form);
        let limits = findings(&v, "resource-limit");
        assert_eq!(limits.len(), 2, "{form}: {limits:#?}");
        let full = limits
            .iter()
            .find(|f| metric(f, "limit") == "queue-full")
            .unwrap();
        assert_eq!(full["subject"]["queue"], "ORDERS.IN");
        assert_eq!(metric(full, "setting_value"), "5000");
        let inst = limits
            .iter()
            .find(|f| metric(f, "limit") == "max-instances")
            .unwrap();
        assert_eq!(inst["subject"]["channel"], "APP.SVRCONN");
        assert_eq!(metric(inst, "message_id"), "MQRQ_SVRCONN_INST_LIMIT");
        let svc = findings(&v, "queue-service");
        assert_eq!(svc.len(), 1, "{form}");
        assert_eq!(svc[0]["subject"]["queue"], "ORDERS.IN");
        assert_eq!(svc[0]["severity"], "warning");
        assert_eq!(metric(svc[0], "last_state"), "high");
    }
}

#[test]
fn the_tls_failure_names_the_change_before_it_its_author_and_the_delay() {
    for form in FORMS {
        let v = report(form);
        let tls = findings(&v, "tls-error");
        assert_eq!(tls.len(), 1, "{form}: {tls:#?}");
        let t = tls[0];
        // One failure: the log's AMQ9631E with the SSL Error and Channel
        // Stopped events of the same second cited beside it.
        assert_eq!(t["count"], 1);
        assert_eq!(cited(t).len(), 3, "{form}: {:?}", cited(t));
        assert!(
            t["title"].as_str().unwrap().ends_with(
                "; SSLCIPH of TO.QM2 changed from TLS_RSA_WITH_AES_256_GCM_SHA384 to \
                 TLS_AES_128_GCM_SHA256 by user admin (runmqsc) 4 min before the first AMQ9631E"
            ),
            "{form}: {}",
            t["title"]
        );
        let change = findings(&v, "config-change");
        assert_eq!(change.len(), 1, "{form}: {change:#?}");
        let c = change[0];
        assert_eq!(c["subject"]["channel"], "TO.QM2");
        assert_eq!(metric(c, "user"), "admin");
        assert_eq!(metric(c, "command"), "Change Channel");
        assert_eq!(
            metric(c, "changes"),
            "SSLCIPH: TLS_RSA_WITH_AES_256_GCM_SHA384 -> TLS_AES_128_GCM_SHA256"
        );
        assert_eq!(metric(c, "followed_by"), "tls-error (AMQ9631E) 4 min later");
        // Before, after and the command event cited.
        assert_eq!(cited(c).len(), 3, "{form}: {:?}", cited(c));
    }
}

#[test]
fn options_by_name_in_every_report_format() {
    for format in ["text", "markdown", "html", "sarif", "json"] {
        let r = mqdiag(&[
            "analyze",
            "fixtures/events/text",
            "--only",
            "access-refused",
            "--format",
            format,
        ]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert!(
            r.stdout.contains("MQOO_OUTPUT+MQOO_FAIL_IF_QUIESCING"),
            "{format}"
        );
    }
    let r = mqdiag(&["timeline", "fixtures/events/text", "--format", "jsonl"]);
    assert!(r.stdout.contains("MQOO_OUTPUT+MQOO_FAIL_IF_QUIESCING"));
}
