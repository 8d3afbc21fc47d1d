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
#[cfg(test)]
use serde_json::{Value, json};

#[cfg(test)]
fn kv(key: &str, value: Value) -> Value {
    json!({ "key": key, "value": value })
}

#[cfg(test)]
fn s(v: &str) -> Value {
    json!({ "stringValue": v })
}

#[cfg(test)]
fn int(v: u64) -> Value {
    json!({ "intValue": v.to_string() })
}

/// The request (one line) of one event, as a value: what `render` writes
/// (the tests hold the two to the same bytes).
#[cfg(test)]
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
    let nanos = time_unix_nano(e);
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

/// Append the event's request and a line end: the bytes serde_json
/// writes for `request` (members in its order), written straight into
/// the row, with no value built (building one cost four times the ECS
/// row's time).
pub fn render(e: &Event, out: &mut Vec<u8>) {
    let start = out.len();
    let f = Facts::of(e);
    out.extend_from_slice(b"{\"resourceLogs\":[{\"resource\":{\"attributes\":[");
    let mut w = Attrs { out, first: true };
    w.s("service.name", "ibmmq");
    if let Some(h) = f.host {
        w.s("host.name", h);
    }
    out.extend_from_slice(b"]},\"scopeLogs\":[{\"logRecords\":[{\"attributes\":[");
    let mut w = Attrs { out, first: true };
    w.s("log.file.path", e.path());
    w.int("mqdiag.line", e.line);
    w.s("mqdiag.format", e.format().as_str());
    w.s("mqdiag.kind", e.kind.as_str());
    w.s("event.dataset", dataset(e.format()));
    if let Some(p) = e.pid {
        w.int("process.pid", p.into());
    }
    if let Some(t) = e.tid {
        w.int("thread.id", t.into());
    }
    w.opt("process.executable.name", f.program);
    w.opt("queue.manager", f.qmgr);
    w.opt("channel.name", f.channel);
    w.opt("queue.name", f.queue);
    w.opt("user.name", f.user);
    w.opt("server.address", f.remote);
    w.opt("error.type", f.msgid.or(f.reason));
    w.opt("code.function.name", e.function.as_deref());
    w.opt("mqdiag.verb", f.verb);
    w.opt("mqdiag.ident", e.ident.as_deref());
    w.opt("mqdiag.rc", e.rc.as_deref());
    if let Some(us) = e.elapsed_us {
        w.int("mqdiag.elapsed_us", us);
    }
    if let Some(t) = &e.end {
        w.s("mqdiag.end", &mqdiag_model::timefmt::rfc3339(t));
    }
    let mut key = String::new();
    for (k, v) in attr_pairs(e) {
        key.clear();
        key.push_str("ibmmq.");
        key.push_str(k);
        w.s(&key, v);
    }
    out.extend_from_slice(b"],\"body\":{\"stringValue\":");
    string(out, &e.text);
    out.push(b'}');
    if let Some(l) = f.level {
        out.extend_from_slice(b",\"severityNumber\":");
        out.extend_from_slice(itoa::Buffer::new().format(l.otel_number()).as_bytes());
        out.extend_from_slice(b",\"severityText\":");
        string(out, l.as_str());
    }
    let nanos = time_unix_nano(e);
    out.extend_from_slice(b",\"timeUnixNano\":\"");
    out.extend_from_slice(itoa::Buffer::new().format(nanos).as_bytes());
    out.extend_from_slice(
        concat!(
            "\"}],\"scope\":{\"name\":\"mqdiag\",\"version\":\"",
            env!("CARGO_PKG_VERSION"),
            "\"}}]}]}"
        )
        .as_bytes(),
    );
    mqdiag_model::text::escape_json_controls_from(out, start);
    out.push(b'\n');
}

/// `timeUnixNano`: 0 for a record without a time (OTLP's `LogRecord`:
/// "Value of 0 indicates unknown or missing timestamp"), as for a time
/// before 1970.
fn time_unix_nano(e: &Event) -> u64 {
    if e.is_undated() {
        return 0;
    }
    e.ts.timestamp_nanos_opt().unwrap_or_default().max(0) as u64
}

/// A JSON string as serde_json writes it.
fn string(out: &mut Vec<u8>, v: &str) {
    // Writing to a Vec cannot fail.
    let _ = serde_json::to_writer(&mut *out, v);
}

/// An OTLP attribute list being written.
struct Attrs<'a> {
    out: &'a mut Vec<u8>,
    first: bool,
}

impl Attrs<'_> {
    fn key(&mut self, k: &str) {
        if !self.first {
            self.out.push(b',');
        }
        self.first = false;
        self.out.extend_from_slice(b"{\"key\":");
        string(self.out, k);
        self.out.extend_from_slice(b",\"value\":{");
    }

    fn s(&mut self, k: &str, v: &str) {
        self.key(k);
        self.out.extend_from_slice(b"\"stringValue\":");
        string(self.out, v);
        self.out.extend_from_slice(b"}}");
    }

    fn int(&mut self, k: &str, v: u64) {
        self.key(k);
        self.out.extend_from_slice(b"\"intValue\":\"");
        self.out
            .extend_from_slice(itoa::Buffer::new().format(v).as_bytes());
        self.out.extend_from_slice(b"\"}}");
    }

    fn opt(&mut self, k: &str, v: Option<&str>) {
        if let Some(v) = v {
            self.s(k, v);
        }
    }
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

    /// `render` writes the bytes serde_json writes for `request`, for
    /// events with and without each optional member, texts with quotes,
    /// controls, line separators and non-ASCII.
    #[test]
    fn render_writes_what_serde_json_writes_of_the_request() {
        use super::super::tests::FMT_TRACE;
        let texts = [
            "AMQ9202E: Remote host not available",
            "quote \" backslash \\ tab \t nl \n nel \u{85} ls \u{2028} é ☃",
            "",
        ];
        for (i, text) in texts.iter().enumerate() {
            for kind in [Kind::LogRecord, Kind::Exit, Kind::Text] {
                let mut e = event(
                    if i == 1 { FMT_TRACE } else { ERRLOG_TEXT },
                    kind,
                    text,
                    &[
                        ("msgid", "AMQ9202E"),
                        ("qmgr", "GW1"),
                        ("local_host", "gw1 \u{7f}"),
                        ("channel", text),
                    ],
                );
                if i != 2 {
                    e.pid = Some(20417);
                    e.tid = Some(3);
                    e.function = Some("MQPUT".into());
                    e.rc = Some("2053".into());
                    e.elapsed_us = Some(480);
                    e.ident = Some("RSESS:000001".into());
                    e.end = Some(e.ts);
                }
                let mut want = Vec::new();
                serde_json::to_writer(&mut want, &request(&e)).unwrap();
                mqdiag_model::text::escape_json_controls_from(&mut want, 0);
                want.push(b'\n');
                let mut got = b"row before\n".to_vec();
                render(&e, &mut got);
                assert_eq!(
                    String::from_utf8_lossy(&got[11..]),
                    String::from_utf8_lossy(&want),
                    "{kind:?} {text:?}"
                );
            }
        }
    }
}
