//! Synthetic events and runs for the passes' unit tests.

use chrono::DateTime;
use mqdiag_model::event::{Event, Format, Kind, Origin, Ts};
use mqdiag_model::fileinfo::FileInfo;
use mqdiag_model::findings::Finding;
use std::sync::Arc;

pub(crate) fn ts(s: &str) -> Ts {
    DateTime::parse_from_rfc3339(s).expect("test timestamp")
}

pub(crate) fn origin(path: &str, format: Format) -> Arc<Origin> {
    Arc::new(Origin {
        path: Arc::from(path),
        format,
    })
}

/// A trace event on `path` at `2012-05-04T<tod>-04:00`.
pub(crate) fn trace(
    path: &str,
    line: u64,
    tod: &str,
    pid: u32,
    tid: u32,
    kind: Kind,
    text: &str,
) -> Event {
    let mut e = Event::new(
        ts(&format!("2012-05-04T{tod}-04:00")),
        origin(path, mqdiag_readers::formats::trace::FORMAT),
        line,
        kind,
        text.to_string(),
    );
    e.pid = Some(pid);
    e.tid = Some(tid);
    e
}

pub(crate) fn entry(path: &str, line: u64, tod: &str, pid: u32, tid: u32, f: &str) -> Event {
    let mut e = trace(path, line, tod, pid, tid, Kind::Entry, &format!("-{{  {f}"));
    e.function = Some(f.into());
    e
}

#[allow(clippy::too_many_arguments)]
pub(crate) fn exit(
    path: &str,
    line: u64,
    tod: &str,
    pid: u32,
    tid: u32,
    f: &str,
    rc: &str,
    elapsed_us: u64,
) -> Event {
    let error = rc != "OK";
    let text = if error {
        format!("-}}! {f} rc={rc}")
    } else {
        format!("-}}  {f} rc={rc}")
    };
    let mut e = trace(
        path,
        line,
        tod,
        pid,
        tid,
        if error { Kind::ErrorExit } else { Kind::Exit },
        &text,
    );
    e.function = Some(f.into());
    e.rc = Some(rc.to_string());
    e.elapsed_us = Some(elapsed_us);
    e
}

/// An error-log record with attributes.
pub(crate) fn log(
    path: &str,
    line: u64,
    at: &str,
    text: &str,
    attrs: &[(&'static str, &str)],
) -> Event {
    let mut e = Event::new(
        ts(at),
        origin(path, mqdiag_readers::formats::errlog_text::FORMAT),
        line,
        Kind::LogRecord,
        text.to_string(),
    );
    for (k, v) in attrs {
        e.set_attr(k, *v);
    }
    e
}

/// An SMF row with attributes.
pub(crate) fn smf(path: &str, line: u64, at: &str, attrs: &[(&'static str, &str)]) -> Event {
    let mut e = Event::new(
        ts(at),
        origin(path, mqdiag_readers::formats::smf::FORMAT),
        line,
        Kind::SmfRecord,
        format!("row {line}"),
    );
    for (k, v) in attrs {
        e.set_attr(k, *v);
    }
    e
}

/// Run one pass over events with default thresholds (plus overrides).
pub(crate) fn run(
    info: &super::RuleInfo,
    sets: &[(&'static str, f64)],
    events: &[Event],
) -> Vec<Finding> {
    run_with(info, sets, events, &[])
}

pub(crate) fn run_with(
    info: &super::RuleInfo,
    sets: &[(&'static str, f64)],
    events: &[Event],
    inputs: &[FileInfo],
) -> Vec<Finding> {
    let mut s = super::Settings::defaults(info);
    for (k, v) in sets {
        s.set(k, *v);
    }
    let mut p = (info.make)(&s);
    for e in events {
        p.observe(e);
    }
    let mut out = p.finish(inputs);
    crate::engine::seal_all(&mut out);
    out
}

pub(crate) fn metric(f: &Finding, name: &str) -> mqdiag_model::findings::Metric {
    f.metrics
        .get(name)
        .cloned()
        .unwrap_or_else(|| panic!("metric {name} missing in {f:?}"))
}
