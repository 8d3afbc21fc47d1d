//! The row sink: what a reader renders timeline rows into, and the one
//! implementation of the text, CSV and JSON-lines rows. Below the readers
//! and the timeline both: a reader's fast path writes text rows straight
//! from its lines with the same helpers (`push_thread`, `push_row_tail`)
//! that `text_row` uses for an event, so the two cannot drift apart; the
//! timeline merges the finished rows. Formats built from whole events for
//! other engines (ECS, OTLP) live above and come in with the `RowSpec`
//! (`TimelineFormat::Event`).

use crate::event::{Event, Origin};
use crate::redact::Redactor;
use crate::timefmt::rfc3339;
use regex::Regex;
use serde::Serialize;
use std::sync::Arc;

/// Which rows are wanted, and how they are written.
pub struct RowSpec {
    pub format: TimelineFormat,
    /// Only events of this process id.
    pub pid: Option<u32>,
    /// Only events with this trace ident.
    pub ident: Option<String>,
    /// Only events whose text or function matches.
    pub grep: Option<Regex>,
    /// `--redact`: names learnt beforehand, applied to every row's path,
    /// text and attributes after the filters.
    pub redact: Option<Arc<Redactor>>,
}

impl RowSpec {
    pub fn new(format: TimelineFormat) -> Self {
        RowSpec {
            format,
            pid: None,
            ident: None,
            grep: None,
            redact: None,
        }
    }

    /// The event filters (the time window is applied by the merge).
    pub fn wants(&self, e: &Event) -> bool {
        (self.pid.is_none() || e.pid == self.pid)
            && self
                .ident
                .as_deref()
                .is_none_or(|id| e.ident.as_deref() == Some(id))
            && self.grep.as_ref().is_none_or(|re| {
                re.is_match(&e.text) || e.function.as_deref().is_some_and(|f| re.is_match(f))
            })
    }

    /// Text rows with no filter on what an event holds: a reader may render
    /// them straight from its lines, with no event built.
    pub fn raw_text(&self) -> bool {
        matches!(self.format, TimelineFormat::Text)
            && self.pid.is_none()
            && self.ident.is_none()
            && self.grep.is_none()
            && self.redact.is_none()
    }
}

/// A source's rendering state.
pub struct RowSink {
    pub spec: Arc<RowSpec>,
    pub(crate) renderer: RowRenderer,
    /// With `--redact`: the last file's origin and its redacted copy (a
    /// file's events share one).
    redacted_origin: Option<(Arc<Origin>, Arc<Origin>)>,
    /// With `--redact`: the values redacted before.
    memo: crate::redact::Memo,
}

impl RowSink {
    pub fn new(spec: Arc<RowSpec>) -> Self {
        RowSink {
            spec,
            renderer: RowRenderer::default(),
            redacted_origin: None,
            memo: Default::default(),
        }
    }

    /// Append `e`'s row to `out`. A row dated outside what the merge can
    /// order (`timefmt::orderable`) is not rendered: the merge leaves it
    /// out and reports it, and rendering it first was most of the time of
    /// a log of such records.
    pub fn event_row(&mut self, mut e: Event, out: &mut Vec<u8>) -> RowMeta {
        let undated = e.is_undated();
        let key = if undated {
            // A record without a time: after every dated row (`UNDATED_KEY`).
            UNDATED_KEY
        } else {
            e.ts.timestamp_nanos_opt().unwrap_or(i64::MAX)
        };
        let unwritten = !undated && !crate::timefmt::orderable(key);
        if let Some(r) = self.spec.redact.clone() {
            if !unwritten {
                r.event_with(&mut e, &mut self.memo);
            }
            e.origin = self.redacted_origin(&r, &e.origin);
        }
        if !unwritten {
            self.renderer.render(self.spec.format, &e, out);
        }
        RowMeta {
            key,
            offset: e.ts.offset().local_minus_utc(),
            line: e.line,
            origin: Some(e.origin),
            undated,
        }
    }

    /// The redacted copy of a file's origin, made once per file.
    fn redacted_origin(&mut self, r: &crate::redact::Redactor, from: &Arc<Origin>) -> Arc<Origin> {
        match &self.redacted_origin {
            Some((f, to)) if Arc::ptr_eq(f, from) => to.clone(),
            _ => {
                let to = Origin::new(r.apply(&from.path).into(), from.format);
                self.redacted_origin = Some((from.clone(), to.clone()));
                to
            }
        }
    }
}

/// What the merge needs of a row besides its bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowMeta {
    /// The instant, UTC nanoseconds: the merge key.
    pub key: i64,
    /// The row's UTC offset in seconds (to give the first row's time).
    pub offset: i32,
    /// Line in its file (to locate rows that come late).
    pub line: u64,
    /// Its file; `None` for rows a reader rendered straight from its lines:
    /// then it is the source's current file, as every row of one
    /// `next_rows` call without an origin is of one file.
    pub origin: Option<Arc<Origin>>,
    /// The row of a record without a time (`event::undated`): its key is
    /// `UNDATED_KEY`, which is no instant (one past 2262 has the same key
    /// and is left out; this one is shown after every dated row).
    pub undated: bool,
}

/// The merge key of a row without a time: after every instant.
pub const UNDATED_KEY: i64 = i64::MAX;

/// What a text row shows in place of the time of a record without one.
pub const TIME_UNKNOWN: &str = "(time unknown)";

/// Appends the row of an event, line end included.
pub(crate) type EventRow = fn(&Event, &mut Vec<u8>);

/// The timeline's row formats.
#[derive(Debug, Clone, Copy)]
pub enum TimelineFormat {
    Text,
    Csv,
    Jsonl,
    /// A format the model does not own, rendered from each event by the
    /// function given: the report crate's ECS documents and OTLP records,
    /// which the binary passes in. (A plain function: one indirect call a
    /// row, on the worker that read the event.)
    Event(EventRow),
}

impl TimelineFormat {
    /// Whether its rows show events' attributes (text rows do not, and
    /// `--pid`/`--ident`/`--grep` never look at them): readers may leave
    /// them out.
    pub fn shows_attrs(self) -> bool {
        !matches!(self, TimelineFormat::Text)
    }
}

/// One row, borrowing the event.
#[derive(Serialize)]
struct Row<'a> {
    /// `null` for a record without a time (the contract).
    ts: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    end: Option<String>,
    path: &'a str,
    line: u64,
    format: &'static str,
    pid: Option<u32>,
    tid: Option<u32>,
    ident: Option<&'a str>,
    kind: &'static str,
    function: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rc: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    elapsed_us: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    depth: Option<u32>,
    text: &'a str,
    #[serde(skip_serializing_if = "Attrs::is_empty")]
    attrs: Attrs<'a>,
}

/// An event's attributes as a JSON object: sorted by name, the first of
/// equal names kept (what a `serde_json::Map` built from them holds),
/// borrowed rather than copied (an SMF WQ row has ~510).
struct Attrs<'a>(Vec<(&'a str, &'a str)>);

impl<'a> Attrs<'a> {
    fn of(e: &'a Event) -> Self {
        let mut v: Vec<(&str, &str)> = e.attrs.iter().collect();
        // Stable: equal names keep their order, and dedup keeps the first.
        v.sort_by(|a, b| a.0.cmp(b.0));
        v.dedup_by(|later, first| later.0 == first.0);
        Attrs(v)
    }

    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl Serialize for Attrs<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().copied())
    }
}

fn row(e: &Event) -> Row<'_> {
    let attrs = Attrs::of(e);
    Row {
        ts: (!e.is_undated()).then(|| rfc3339(&e.ts)),
        end: e.end.as_ref().map(rfc3339),
        path: e.path(),
        line: e.line,
        format: e.format().as_str(),
        pid: e.pid,
        tid: e.tid,
        ident: e.ident.as_deref(),
        kind: e.kind.as_str(),
        function: e.function.as_deref(),
        rc: e.rc.as_deref(),
        elapsed_us: e.elapsed_us,
        depth: e.depth,
        text: &e.text,
        attrs,
    }
}

/// Renders events as rows of one format into a byte buffer. One per
/// source: rows are rendered on the thread that reads the events.
#[derive(Default)]
pub struct RowRenderer {
    tsw: crate::timefmt::TsWriter,
}

impl RowRenderer {
    /// Append the row of `e` (with its line end) to `out`.
    pub fn render(&mut self, format: TimelineFormat, e: &Event, out: &mut Vec<u8>) {
        match format {
            TimelineFormat::Text => text_row(out, &mut self.tsw, e),
            TimelineFormat::Event(row) => row(e, out),
            TimelineFormat::Jsonl => {
                // Writing to a Vec cannot fail.
                let start = out.len();
                let _ = serde_json::to_writer(&mut *out, &row(e));
                crate::text::escape_json_controls_from(out, start);
                out.push(b'\n');
            }
            TimelineFormat::Csv => {
                let r = row(e);
                // Controls shown, and no cell a spreadsheet runs as a formula.
                let esc = |s| crate::text::csv_safe(&crate::text::escape_controls(s)).into_owned();
                let num = |v: Option<u64>| v.map(|v| v.to_string()).unwrap_or_default();
                let attrs = if r.attrs.is_empty() {
                    String::new()
                } else {
                    serde_json::to_string(&r.attrs).unwrap_or_default()
                };
                let mut w = csv::WriterBuilder::new()
                    .has_headers(false)
                    .buffer_capacity(1024)
                    .from_writer(&mut *out);
                let _ = w.write_record([
                    r.ts.as_deref().unwrap_or(""),
                    r.end.as_deref().unwrap_or(""),
                    &esc(r.path),
                    &r.line.to_string(),
                    r.format,
                    &num(r.pid.map(u64::from)),
                    &num(r.tid.map(u64::from)),
                    &esc(r.ident.unwrap_or("")),
                    r.kind,
                    &esc(r.function.unwrap_or("")),
                    &esc(r.rc.unwrap_or("")),
                    &num(r.elapsed_us),
                    &num(r.depth.map(u64::from)),
                    &esc(r.text),
                    &esc(&attrs),
                ]);
                let _ = w.flush();
            }
        }
    }
}

/// `ts  path:line  pid.tid  ident  text`: what a person scans, with the
/// duration of exits appended. Built in one buffer and written at once:
/// this runs for every event of multi-GB inputs.
pub(crate) fn text_row(b: &mut Vec<u8>, tsw: &mut crate::timefmt::TsWriter, e: &Event) {
    if e.is_undated() {
        b.extend_from_slice(TIME_UNKNOWN.as_bytes());
    } else {
        b.extend_from_slice(tsw.write(&e.ts));
    }
    b.extend_from_slice(b"  ");
    b.extend_from_slice(e.path().as_bytes());
    b.push(b':');
    push_num(b, e.line);
    push_thread(b, e.pid, e.tid);
    push_row_tail(
        b,
        e.ident.as_deref().map(str::as_bytes),
        e.text.as_bytes(),
        e.elapsed_us,
    );
}

/// `  pid.tid` (or `  pid`, or nothing) after a text row's `path:line`.
#[inline]
pub fn push_thread(b: &mut Vec<u8>, pid: Option<u32>, tid: Option<u32>) {
    match (pid, tid) {
        (Some(p), Some(t)) => {
            b.extend_from_slice(b"  ");
            push_num(b, p as u64);
            b.push(b'.');
            push_num(b, t as u64);
        }
        (Some(p), None) => {
            b.extend_from_slice(b"  ");
            push_num(b, p as u64);
        }
        _ => {}
    }
}

/// The rest of a text row after its thread: `  ident  text  [elapsed]` and
/// the line end.
#[inline]
pub(crate) fn push_row_tail(
    b: &mut Vec<u8>,
    ident: Option<&[u8]>,
    text: &[u8],
    elapsed_us: Option<u64>,
) {
    // Control characters from inputs never reach a terminal raw: one scan
    // each, escaped only when one is found.
    if let Some(i) = ident {
        b.extend_from_slice(b"  ");
        crate::text::push_escaped_bytes(b, i);
    }
    b.extend_from_slice(b"  ");
    crate::text::push_escaped_bytes(b, text);
    if let Some(us) = elapsed_us {
        push_elapsed(b, us);
    }
    b.push(b'\n');
}

/// `push_row_tail` for an ident and text already known to be printable
/// ASCII (the trace fast path proved it while splitting the line): nothing
/// to escape, so no second scan.
#[inline]
pub fn push_plain_row_tail(
    b: &mut Vec<u8>,
    ident: Option<&[u8]>,
    text: &[u8],
    elapsed_us: Option<u64>,
) {
    debug_assert!(!crate::text::has_controls(text));
    if let Some(i) = ident {
        b.extend_from_slice(b"  ");
        b.extend_from_slice(i);
    }
    b.extend_from_slice(b"  ");
    b.extend_from_slice(text);
    if let Some(us) = elapsed_us {
        push_elapsed(b, us);
    }
    b.push(b'\n');
}

/// `  [3.2 ms]`: the duration of a call, after its exit's text.
pub fn push_elapsed(b: &mut Vec<u8>, us: u64) {
    b.extend_from_slice(b"  [");
    crate::timefmt::push_human_us(b, us);
    b.push(b']');
}

pub(crate) fn push_num(b: &mut Vec<u8>, v: u64) {
    b.extend_from_slice(itoa::Buffer::new().format(v).as_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::{Format, Kind};

    /// An error-log record with these attributes.
    fn log(text: &str, attrs: &[(&'static str, &str)]) -> Event {
        let origin = Arc::new(Origin {
            path: Arc::from("AMQERR01.LOG"),
            format: Format::UNKNOWN,
        });
        let at = chrono::DateTime::parse_from_rfc3339("2024-01-01T00:00:00+00:00").unwrap();
        let mut e = Event::new(at, origin, 1, Kind::LogRecord, text.to_string());
        for (k, v) in attrs {
            e.set_attr(k, *v);
        }
        e
    }

    /// A row the merge cannot order (past 2262) is not rendered, in any
    /// format, and still says where it was, so that it is reported.
    #[test]
    fn rows_out_of_range_are_not_rendered() {
        fn doc(e: &Event, out: &mut Vec<u8>) {
            out.extend_from_slice(e.text.as_bytes());
        }
        for (format, redact) in [
            (TimelineFormat::Text, false),
            (TimelineFormat::Csv, false),
            (TimelineFormat::Jsonl, false),
            (TimelineFormat::Event(doc), false),
            (TimelineFormat::Jsonl, true),
        ] {
            let mut far = log("AMQ9999E: x", &[("channel", "CH1")]);
            far.ts = chrono::DateTime::parse_from_rfc3339("2300-03-12T00:00:00+01:00").unwrap();
            far.line = 7;
            let mut spec = RowSpec::new(format);
            if redact {
                let mut r = crate::redact::Redactor::new();
                r.observe(&far);
                spec.redact = Some(Arc::new(r));
            }
            let mut sink = RowSink::new(Arc::new(spec));
            let mut out = Vec::new();
            let meta = sink.event_row(far, &mut out);
            assert!(
                out.is_empty(),
                "{format:?}: {}",
                String::from_utf8_lossy(&out)
            );
            assert!(!crate::timefmt::orderable(meta.key) && !meta.undated);
            assert_eq!((meta.line, meta.offset), (7, 3600));
            // Its file as its rendered rows name it.
            let path = meta.origin.unwrap().path.clone();
            let mut named = Vec::new();
            let m = sink.event_row(log("AMQ9999E: x", &[]), &mut named);
            assert_eq!(path, m.origin.unwrap().path);
            // The rows around it are rendered as ever.
            let meta = sink.event_row(log("AMQ9999E: x", &[]), &mut out);
            assert!(!out.is_empty() && crate::timefmt::orderable(meta.key));
        }
    }

    /// A record without a time: no time in any row, the merge key after
    /// every instant.
    #[test]
    fn undated_rows_show_no_time() {
        let mut e = log("AMQ5534E: x", &[]);
        e.ts = crate::event::undated();
        let spec = Arc::new(RowSpec::new(TimelineFormat::Jsonl));
        let mut sink = RowSink::new(spec);
        let mut out = Vec::new();
        let meta = sink.event_row(e.clone(), &mut out);
        assert!(meta.undated);
        assert_eq!(meta.key, UNDATED_KEY);
        assert!(String::from_utf8(out).unwrap().starts_with("{\"ts\":null,"));
        let mut r = RowRenderer::default();
        let mut out = Vec::new();
        r.render(TimelineFormat::Csv, &e, &mut out);
        assert!(out.starts_with(b",,AMQERR01.LOG,1,"));
        let mut out = Vec::new();
        r.render(TimelineFormat::Text, &e, &mut out);
        assert_eq!(out, b"(time unknown)  AMQERR01.LOG:1  AMQ5534E: x\n");
    }

    #[test]
    fn attrs_serialise_as_the_map_built_from_them() {
        let e = log(
            "x",
            &[
                ("zeta", "1"),
                ("Alpha", "2"),
                ("alpha", "3"),
                ("zeta", "second zeta"),
                ("é", "\"quoted\\\n"),
                ("", "empty name"),
                ("Alpha", "again"),
                ("b", ""),
            ],
        );
        let mut map = serde_json::Map::new();
        for (k, v) in &e.attrs {
            map.entry(k.to_string())
                .or_insert_with(|| serde_json::Value::String(v.to_string()));
        }
        let want = serde_json::Value::Object(map).to_string();
        assert_eq!(serde_json::to_string(&Attrs::of(&e)).unwrap(), want);
        assert!(want.contains("\"zeta\":\"1\"") && want.contains("\"Alpha\":\"2\""));
        let none = log("x", &[]);
        assert!(Attrs::of(&none).is_empty());
    }
}
