//! Timeline rows as text, CSV or JSON lines. Field names follow the
//! contract's "Timeline rows".

use crate::event::Event;
use crate::timefmt::rfc3339;
use serde::Serialize;
use std::io::{self, Write};

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum TimelineFormat {
    Text,
    Csv,
    Jsonl,
}

impl TimelineFormat {
    /// Whether its rows show events' attributes (text rows do not, and
    /// `--pid`/`--ident`/`--grep` never look at them): readers may leave
    /// them out.
    pub fn shows_attrs(self) -> bool {
        self != TimelineFormat::Text
    }
}

/// One row, borrowing the event.
#[derive(Serialize)]
struct Row<'a> {
    ts: String,
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
    #[serde(skip_serializing_if = "serde_json::Map::is_empty")]
    attrs: serde_json::Map<String, serde_json::Value>,
}

fn row(e: &Event) -> Row<'_> {
    let mut attrs = serde_json::Map::new();
    for (k, v) in &e.attrs {
        attrs
            .entry(k.clone())
            .or_insert_with(|| serde_json::Value::String(v.clone()));
    }
    Row {
        ts: rfc3339(&e.ts),
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

pub const CSV_COLUMNS: [&str; 15] = [
    "ts",
    "end",
    "path",
    "line",
    "format",
    "pid",
    "tid",
    "ident",
    "kind",
    "function",
    "rc",
    "elapsed_us",
    "depth",
    "text",
    "attrs",
];

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
            TimelineFormat::Jsonl => {
                // Writing to a Vec cannot fail.
                let _ = serde_json::to_writer(&mut *out, &row(e));
                out.push(b'\n');
            }
            TimelineFormat::Csv => {
                let r = row(e);
                let num = |v: Option<u64>| v.map(|v| v.to_string()).unwrap_or_default();
                let attrs = if r.attrs.is_empty() {
                    String::new()
                } else {
                    serde_json::Value::Object(r.attrs.clone()).to_string()
                };
                let mut w = csv::WriterBuilder::new()
                    .has_headers(false)
                    .buffer_capacity(1024)
                    .from_writer(&mut *out);
                let _ = w.write_record([
                    r.ts.as_str(),
                    r.end.as_deref().unwrap_or(""),
                    r.path,
                    &r.line.to_string(),
                    r.format,
                    &num(r.pid.map(u64::from)),
                    &num(r.tid.map(u64::from)),
                    r.ident.unwrap_or(""),
                    r.kind,
                    r.function.unwrap_or(""),
                    r.rc.unwrap_or(""),
                    &num(r.elapsed_us),
                    &num(r.depth.map(u64::from)),
                    r.text,
                    &attrs,
                ]);
                let _ = w.flush();
            }
        }
    }
}

/// What comes before the first row: the CSV column names.
pub fn write_header(out: &mut dyn Write, format: TimelineFormat) -> io::Result<()> {
    if format == TimelineFormat::Csv {
        let mut w = csv::WriterBuilder::new().from_writer(&mut *out);
        w.write_record(CSV_COLUMNS).map_err(io::Error::other)?;
        w.flush()?;
    }
    Ok(())
}

/// `ts  path:line  pid.tid  ident  text`: what a person scans, with the
/// duration of exits appended. Built in one buffer and written at once:
/// this runs for every event of multi-GB inputs.
pub fn text_row(b: &mut Vec<u8>, tsw: &mut crate::timefmt::TsWriter, e: &Event) {
    b.extend_from_slice(tsw.write(&e.ts));
    b.extend_from_slice(b"  ");
    b.extend_from_slice(e.path().as_bytes());
    b.push(b':');
    push_num(b, e.line);
    match (e.pid, e.tid) {
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
    if let Some(i) = &e.ident {
        b.extend_from_slice(b"  ");
        b.extend_from_slice(i.as_bytes());
    }
    b.extend_from_slice(b"  ");
    b.extend_from_slice(e.text.as_bytes());
    if let Some(us) = e.elapsed_us {
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

pub fn push_num(b: &mut Vec<u8>, v: u64) {
    b.extend_from_slice(itoa::Buffer::new().format(v).as_bytes());
}
