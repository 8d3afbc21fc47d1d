//! `analyze --format ecs`: each finding as an Elastic Common Schema alert
//! document (`event.kind: alert`), one per line, beside the events of
//! `timeline --format ecs` in the same index.
//!
//! `event.severity` is a number (ECS asks for one): info 21, warning 47,
//! error 73, the low/medium/high steps Elastic's own alerts use. The
//! fingerprint is `event.id`, so indexing a report again replaces its
//! documents instead of doubling them. Evidence is referenced by file,
//! byte offset and line: `log.file.path`, `log.offset` and `mqdiag.line`
//! of the first, every one under `mqdiag.evidence` (`path`, `line`,
//! `offset`, `text`). The offset is that of the line's first byte in the
//! file as named (an archive member's decompressed bytes, a UTF-16 file's
//! own bytes); evidence that is no event (a problem with a file) has none.

use super::Report;
use crate::export::ecs::ECS_VERSION;
use mqdiag_model::findings::{Evidence, Finding};
use mqdiag_model::problem::Severity;
use mqdiag_model::timefmt::rfc3339;
use serde_json::{Map, Value, json};
use std::io::{self, Write};

fn severity_number(s: Severity) -> u32 {
    match s {
        Severity::Info => 21,
        Severity::Warning => 47,
        Severity::Error => 73,
    }
}

/// The alert document of one finding.
pub(crate) fn document(f: &Finding, r: &Report) -> Value {
    let rule = r.rule(&f.rule);
    let mut doc = Map::new();
    if let Some(t) = f.first.as_ref().or(f.last.as_ref()) {
        doc.insert("@timestamp".into(), rfc3339(t).into());
    }
    doc.insert("ecs".into(), json!({ "version": ECS_VERSION }));
    let mut event = json!({
        "kind": "alert",
        "module": "ibmmq",
        "dataset": "ibmmq.finding",
        "id": f.fingerprint,
        "severity": severity_number(f.severity),
    });
    if let Some(t) = &f.first {
        event["start"] = rfc3339(t).into();
    }
    if let Some(t) = &f.last {
        event["end"] = rfc3339(t).into();
    }
    doc.insert("event".into(), event);
    doc.insert(
        "rule".into(),
        json!({
            "id": f.rule,
            "name": rule.map(|r| r.summary).unwrap_or(f.rule.as_str()),
            "description": f.advice,
            "ruleset": "mqdiag",
        }),
    );
    let mut log = json!({ "level": f.severity.as_str() });
    if let Some(ev) = f.evidence.first() {
        log["file"] = json!({ "path": ev.path });
        if let Some(o) = ev.offset {
            log["offset"] = o.into();
        }
    }
    doc.insert("log".into(), log);
    doc.insert("message".into(), f.title.as_str().into());
    let s = &f.subject;
    if let Some(pid) = s.pid {
        let mut p = json!({ "pid": pid });
        if let Some(t) = s.tid {
            p["thread"] = json!({ "id": t });
        }
        if let Some(n) = &s.program {
            p["name"] = n.as_str().into();
        }
        doc.insert("process".into(), p);
    }
    if let Some(a) = &s.address {
        doc.insert("destination".into(), json!({ "address": a }));
    }
    let mut ibmmq = Map::new();
    for (k, v) in [
        ("qmgr", &s.qmgr),
        ("channel", &s.channel),
        ("queue", &s.queue),
        ("host", &s.host),
        ("ident", &s.ident),
    ] {
        if let Some(v) = v {
            ibmmq.insert(k.into(), v.as_str().into());
        }
    }
    if !ibmmq.is_empty() {
        doc.insert("ibmmq".into(), Value::Object(ibmmq));
    }
    let mut mq = json!({
        "count": f.count,
        "severity_reason": f.severity_reason,
        "baseline": f.baseline,
        "metrics": serde_json::to_value(&f.metrics).unwrap_or(Value::Null),
        "evidence": f.evidence.iter().map(evidence).collect::<Vec<_>>(),
    });
    if let Some(ev) = f.evidence.first() {
        mq["line"] = ev.line.into();
    }
    doc.insert("mqdiag".into(), mq);
    Value::Object(doc)
}

/// One evidence reference: the report's fields, and the line's offset.
fn evidence(ev: &Evidence) -> Value {
    let mut v = json!({ "path": ev.path, "line": ev.line, "text": ev.text });
    if let Some(o) = ev.offset {
        v["offset"] = o.into();
    }
    v
}

pub(crate) fn write(out: &mut dyn Write, r: &Report) -> io::Result<()> {
    let mut buf = Vec::new();
    for f in r.findings {
        buf.clear();
        serde_json::to_writer(&mut buf, &document(f, r))?;
        mqdiag_model::text::escape_json_controls_from(&mut buf, 0);
        buf.push(b'\n');
        out.write_all(&buf)?;
    }
    Ok(())
}
