//! `timeline --format ecs`: one Elastic Common Schema document per event,
//! one per line (NDJSON). Field choices are in `docs/export.md`; the index
//! template is `docs/ecs-template.json`.
//!
//! `ibmmq.errorlog.*` uses the names of Elastic's Filebeat `ibmmq` module
//! (`qmgr`, `code`, `errordescription`, `explanation`, `action`,
//! `installation`, `arithinsert`, `commentinsert`); what it has no name
//! for is ours (`ibmmq.trace.*`, `ibmmq.fdc.*`, `ibmmq.smf.*`, and every
//! attribute under `ibmmq.attrs`). The pid is an integer: the thread goes
//! to `process.thread.id`, never into a `pid.tid` float. `log.offset` is
//! `Event::offset`, the byte where the event's first line starts in its
//! file (`mqdiag.line` stays beside it).

use super::{Facts, attr_pairs, dataset};
use mqdiag_model::event::{Event, Key, Kind};
use mqdiag_model::timefmt::rfc3339;
use serde_json::{Map, Value, json};

/// The ECS version the documents follow.
pub(crate) const ECS_VERSION: &str = "8.11.0";

/// Insert `v` under `k` unless it is absent.
fn put(m: &mut Map<String, Value>, k: &str, v: Option<impl Into<Value>>) {
    if let Some(v) = v {
        m.insert(k.to_string(), v.into());
    }
}

/// A nested object, left out when empty.
fn put_obj(m: &mut Map<String, Value>, k: &str, o: Map<String, Value>) {
    if !o.is_empty() {
        m.insert(k.to_string(), Value::Object(o));
    }
}

/// The document of one event.
pub(crate) fn document(e: &Event) -> Value {
    let f = Facts::of(e);
    let mut doc = Map::new();
    // A record without a time has no `@timestamp`: ECS says the pipeline
    // that receives an event with no original time fills it in; none is
    // invented here, and `tags` says why it is missing.
    if e.is_undated() {
        doc.insert("tags".into(), json!(["time-unknown"]));
    } else {
        doc.insert("@timestamp".into(), rfc3339(&e.ts).into());
    }
    doc.insert("ecs".into(), json!({ "version": ECS_VERSION }));
    let mut event = Map::new();
    event.insert("kind".into(), "event".into());
    event.insert("module".into(), "ibmmq".into());
    event.insert("dataset".into(), dataset(e.format()).into());
    // ECS durations are nanoseconds.
    put(
        &mut event,
        "duration",
        e.elapsed_us.map(|us| us.saturating_mul(1000)),
    );
    if let Some(end) = &e.end {
        event.insert("start".into(), rfc3339(&e.ts).into());
        event.insert("end".into(), rfc3339(end).into());
    }
    doc.insert("event".into(), Value::Object(event));
    let mut log = Map::new();
    log.insert("file".into(), json!({ "path": e.path() }));
    put(&mut log, "level", f.level.map(|l| l.as_str()));
    put(
        &mut log,
        "offset",
        (e.offset != Event::NO_OFFSET).then_some(e.offset),
    );
    doc.insert("log".into(), Value::Object(log));
    doc.insert("message".into(), e.text.as_str().into());
    let mut process = Map::new();
    put(&mut process, "pid", e.pid);
    put(&mut process, "name", f.program);
    if let Some(t) = e.tid {
        process.insert("thread".into(), json!({ "id": t }));
    }
    put_obj(&mut doc, "process", process);
    if let Some(h) = f.host {
        doc.insert("host".into(), json!({ "hostname": h }));
    }
    if let Some(u) = f.user {
        doc.insert("user".into(), json!({ "name": u }));
    }
    if let Some(r) = f.remote {
        doc.insert("destination".into(), json!({ "address": r }));
    }
    if let Some(c) = f.msgid.or(f.reason) {
        doc.insert("error".into(), json!({ "code": c }));
    }
    doc.insert(
        "mqdiag".into(),
        json!({ "line": e.line, "format": e.format().as_str(), "kind": e.kind.as_str() }),
    );
    doc.insert("ibmmq".into(), Value::Object(ibmmq(e, &f)));
    Value::Object(doc)
}

fn ibmmq(e: &Event, f: &Facts) -> Map<String, Value> {
    let a = |k: Key| e.get(k).filter(|v| !v.is_empty());
    let mut m = Map::new();
    if let Some(code) = f.msgid {
        let mut el = Map::new();
        put(&mut el, "qmgr", f.qmgr);
        el.insert("code".into(), code.into());
        el.insert("errordescription".into(), e.text.as_str().into());
        put(&mut el, "explanation", a(Key::Explanation));
        put(&mut el, "action", a(Key::Action));
        put(&mut el, "installation", a(Key::Installation));
        let list = |keys: &[Key]| -> Option<Vec<&str>> {
            let v: Vec<&str> = keys.iter().filter_map(|&k| a(k)).collect();
            (!v.is_empty()).then_some(v)
        };
        put(
            &mut el,
            "arithinsert",
            list(&[Key::ArithInsert1, Key::ArithInsert2]),
        );
        put(
            &mut el,
            "commentinsert",
            list(&[
                Key::CommentInsert1,
                Key::CommentInsert2,
                Key::CommentInsert3,
            ]),
        );
        m.insert("errorlog".into(), Value::Object(el));
    } else {
        put(&mut m, "qmgr", f.qmgr);
    }
    put(&mut m, "channel", f.channel);
    put(&mut m, "queue", f.queue);
    match e.kind {
        Kind::Entry | Kind::Exit | Kind::ErrorExit | Kind::Text | Kind::Dump | Kind::Header => {
            let mut t = Map::new();
            put(&mut t, "function", e.function.as_deref());
            put(&mut t, "verb", f.verb);
            put(&mut t, "ident", e.ident.as_deref());
            put(&mut t, "rc", e.rc.as_deref());
            put(&mut t, "elapsed_us", e.elapsed_us);
            put(&mut t, "depth", e.depth);
            put_obj(&mut m, "trace", t);
        }
        Kind::Fdc => {
            let mut t = Map::new();
            for (k, n) in [
                ("probe", Key::Probe),
                ("component", Key::Component),
                ("major_rc", Key::MajorRc),
                ("minor_rc", Key::MinorRc),
            ] {
                put(&mut t, k, a(n));
            }
            put_obj(&mut m, "fdc", t);
        }
        Kind::SmfRecord => {
            let mut t = Map::new();
            put(&mut t, "record", a(Key::Record));
            put(&mut t, "task", a(Key::Task));
            put_obj(&mut m, "smf", t);
        }
        Kind::MqEvent => {
            let mut t = Map::new();
            for (k, n) in [
                ("type", Key::EventType),
                ("reason", Key::Reason),
                ("reason_name", Key::ReasonName),
                ("qualifier", Key::Qualifier),
                ("object", Key::Object),
            ] {
                put(&mut t, k, a(n));
            }
            put_obj(&mut m, "mq_event", t);
        }
        Kind::MqiCall => {
            let mut t = Map::new();
            put(&mut t, "verb", a(Key::Verb));
            put(&mut t, "reason", a(Key::Reason));
            put(&mut t, "options", a(Key::Options));
            put(&mut t, "duration_us", a(Key::DurationUs));
            put_obj(&mut m, "mqi_call", t);
        }
        Kind::LogRecord => {}
    }
    let attrs = attr_pairs(e);
    if !attrs.is_empty() {
        let o: Map<String, Value> = attrs
            .into_iter()
            .map(|(k, v)| (k.to_string(), Value::from(v)))
            .collect();
        m.insert("attrs".into(), Value::Object(o));
    }
    m
}

/// Append the event's document and a line end.
pub fn render(e: &Event, out: &mut Vec<u8>) {
    let start = out.len();
    // Writing to a Vec cannot fail.
    let _ = serde_json::to_writer(&mut *out, &document(e));
    mqdiag_model::text::escape_json_controls_from(out, start);
    out.push(b'\n');
}

#[cfg(test)]
mod tests {
    use super::super::tests::{ERRLOG_TEXT, FMT_TRACE, event};
    use super::*;
    use std::sync::Arc;

    #[test]
    fn an_error_log_record_reads_as_the_ibmmq_module_names_it() {
        let mut e = event(
            ERRLOG_TEXT,
            Kind::LogRecord,
            "AMQ9788W: Slow DNS lookup for address 'mvs1'.",
            &[
                ("msgid", "AMQ9788W"),
                ("severity", "W"),
                ("qmgr", "GW1"),
                ("local_host", "appsrv9"),
                ("user", "mqm"),
                ("program", "amqrmppa"),
                (
                    "explanation",
                    "An attempt to resolve address 'mvs1' took 5 seconds.",
                ),
                ("action", "Check DNS."),
                ("comment_insert1", "mvs1"),
                ("arith_insert1", "5"),
            ],
        );
        e.pid = Some(456);
        e.tid = Some(1);
        let d = document(&e);
        assert_eq!(d["@timestamp"], "2025-03-14T11:22:44.512000+01:00");
        assert_eq!(d["event"]["kind"], "event");
        assert_eq!(d["event"]["dataset"], "ibmmq.errorlog");
        assert_eq!(d["log"]["file"]["path"], "case/AMQERR01.LOG");
        assert_eq!(d["log"]["level"], "warning");
        assert_eq!(d["mqdiag"]["line"], 7);
        // An integer pid; the thread apart.
        assert_eq!(d["process"]["pid"], 456);
        assert!(d["process"]["pid"].is_u64());
        assert_eq!(d["process"]["thread"]["id"], 1);
        assert_eq!(d["process"]["name"], "amqrmppa");
        assert_eq!(d["host"]["hostname"], "appsrv9");
        assert_eq!(d["user"]["name"], "mqm");
        assert_eq!(d["error"]["code"], "AMQ9788W");
        let el = &d["ibmmq"]["errorlog"];
        assert_eq!(el["qmgr"], "GW1");
        assert_eq!(el["code"], "AMQ9788W");
        assert_eq!(el["action"], "Check DNS.");
        assert_eq!(el["commentinsert"], json!(["mvs1"]));
        assert_eq!(el["arithinsert"], json!(["5"]));
        assert_eq!(d["ibmmq"]["attrs"]["qmgr"], "GW1");
    }

    #[test]
    fn a_trace_exit_has_its_verb_duration_and_reason() {
        let mut e = event(FMT_TRACE, Kind::ErrorExit, "}!  MQOPEN rc=2085", &[]);
        e.function = Some(Arc::from("MQOPEN"));
        e.rc = Some("2085".into());
        e.elapsed_us = Some(1500);
        let d = document(&e);
        assert_eq!(d["event"]["dataset"], "ibmmq.trace");
        assert_eq!(d["event"]["duration"], 1_500_000);
        assert_eq!(d["ibmmq"]["trace"]["verb"], "MQOPEN");
        assert_eq!(d["error"]["code"], "2085");
        assert_eq!(d["log"]["level"], "error");
        assert!(d.get("host").is_none() && d["ibmmq"].get("errorlog").is_none());
    }

    #[test]
    fn controls_in_text_stay_escaped_on_one_line() {
        let e = event(ERRLOG_TEXT, Kind::LogRecord, "a\u{2028}b\u{202e}c\nd", &[]);
        let mut out = Vec::new();
        render(&e, &mut out);
        let s = String::from_utf8(out).unwrap();
        assert_eq!(s.matches('\n').count(), 1);
        assert!(!s.contains('\u{2028}') && !s.contains('\u{202e}'));
        let back: Value = serde_json::from_str(s.trim_end()).unwrap();
        assert_eq!(back["message"], "a\u{2028}b\u{202e}c\nd");
    }
}
