//! `timeline --format otlp`: OpenTelemetry log records in OTLP/JSON. Each
//! line is one `ExportLogsServiceRequest` (`resourceLogs` → `scopeLogs` →
//! `logRecords`) holding one record: the form the Collector's
//! `otlpjsonfile` receiver reads line by line, and one that streams (no
//! array to close at the end). 64-bit integers are decimal strings, as
//! the protobuf JSON mapping writes them.
//!
//! Attribute names: the OpenTelemetry IBM MQ metric attributes where they
//! exist (`queue.manager`, `channel.name`, `queue.name`), semantic
//! conventions for the rest (`user.name`, `log.file.path`, `process.pid`,
//! `thread.id`, `code.function.name`, `host.name` on the resource), then
//! ours (`mqdiag.*`) and every event attribute as `ibmmq.<name>`.

use super::{Facts, attr_pairs, dataset};
use mqdiag_model::event::Event;
use serde_json::{Value, json};

fn kv(key: &str, value: Value) -> Value {
    json!({ "key": key, "value": value })
}

fn s(v: &str) -> Value {
    json!({ "stringValue": v })
}

fn int(v: u64) -> Value {
    json!({ "intValue": v.to_string() })
}

/// The request (one line) of one event.
pub(crate) fn request(e: &Event) -> Value {
    let f = Facts::of(e);
    let mut attrs = vec![
        kv("log.file.path", s(e.path())),
        kv("mqdiag.line", int(e.line)),
        kv("mqdiag.format", s(e.format().as_str())),
        kv("mqdiag.kind", s(e.kind.as_str())),
        kv("event.dataset", s(dataset(e.format()))),
    ];
    let mut opt = |k: &str, v: Option<Value>| {
        if let Some(v) = v {
            attrs.push(kv(k, v));
        }
    };
    opt("process.pid", e.pid.map(|p| int(p.into())));
    opt("thread.id", e.tid.map(|t| int(t.into())));
    opt("process.executable.name", f.program.map(s));
    opt("queue.manager", f.qmgr.map(s));
    opt("channel.name", f.channel.map(s));
    opt("queue.name", f.queue.map(s));
    opt("user.name", f.user.map(s));
    opt("server.address", f.remote.map(s));
    opt("error.type", f.msgid.or(f.reason).map(s));
    opt("code.function.name", e.function.as_deref().map(s));
    opt("mqdiag.verb", f.verb.map(s));
    opt("mqdiag.ident", e.ident.as_deref().map(s));
    opt("mqdiag.rc", e.rc.as_deref().map(s));
    opt("mqdiag.elapsed_us", e.elapsed_us.map(int));
    opt(
        "mqdiag.end",
        e.end
            .as_ref()
            .map(|t| s(&mqdiag_model::timefmt::rfc3339(t))),
    );
    for (k, v) in attr_pairs(e) {
        attrs.push(kv(&format!("ibmmq.{k}"), s(v)));
    }
    let nanos = e.ts.timestamp_nanos_opt().unwrap_or_default().max(0) as u64;
    let mut record = json!({
        "timeUnixNano": nanos.to_string(),
        "body": s(&e.text),
        "attributes": attrs,
    });
    if let Some(l) = f.level {
        record["severityNumber"] = l.otel_number().into();
        record["severityText"] = l.as_str().into();
    }
    let mut resource = vec![kv("service.name", s("ibmmq"))];
    if let Some(h) = f.host {
        resource.push(kv("host.name", s(h)));
    }
    json!({ "resourceLogs": [{
        "resource": { "attributes": resource },
        "scopeLogs": [{
            "scope": { "name": "mqdiag", "version": env!("CARGO_PKG_VERSION") },
            "logRecords": [record],
        }],
    }]})
}

/// Append the event's request and a line end.
pub fn render(e: &Event, out: &mut Vec<u8>) {
    let start = out.len();
    // Writing to a Vec cannot fail.
    let _ = serde_json::to_writer(&mut *out, &request(e));
    mqdiag_model::text::escape_json_controls_from(out, start);
    out.push(b'\n');
}

#[cfg(test)]
mod tests {
    use super::super::tests::{ERRLOG_TEXT, event};
    use super::*;
    use mqdiag_model::event::Kind;

    fn attr<'a>(r: &'a Value, key: &str) -> Option<&'a Value> {
        r["attributes"]
            .as_array()?
            .iter()
            .find(|a| a["key"] == key)
            .map(|a| &a["value"])
    }

    #[test]
    fn one_record_with_the_events_instant_and_names() {
        let mut e = event(
            ERRLOG_TEXT,
            Kind::LogRecord,
            "AMQ9202E: Remote host not available",
            &[
                ("msgid", "AMQ9202E"),
                ("qmgr", "GW1"),
                ("channel", "GW1.TO.MQPR"),
                ("local_host", "gw1"),
            ],
        );
        e.pid = Some(20417);
        let q = request(&e);
        let rl = &q["resourceLogs"][0];
        assert_eq!(
            rl["resource"]["attributes"][1]["value"]["stringValue"],
            "gw1"
        );
        let r = &rl["scopeLogs"][0]["logRecords"][0];
        // 2025-03-14T11:22:44.512+01:00 is 10:22:44.512 UTC.
        assert_eq!(r["timeUnixNano"], "1741947764512000000");
        assert_eq!(r["severityNumber"], 17);
        assert_eq!(r["severityText"], "error");
        assert_eq!(
            r["body"]["stringValue"],
            "AMQ9202E: Remote host not available"
        );
        assert_eq!(attr(r, "queue.manager").unwrap()["stringValue"], "GW1");
        assert_eq!(
            attr(r, "channel.name").unwrap()["stringValue"],
            "GW1.TO.MQPR"
        );
        assert_eq!(attr(r, "process.pid").unwrap()["intValue"], "20417");
        assert_eq!(attr(r, "mqdiag.line").unwrap()["intValue"], "7");
        assert_eq!(attr(r, "ibmmq.msgid").unwrap()["stringValue"], "AMQ9202E");
        assert!(attr(r, "thread.id").is_none());
    }
}
