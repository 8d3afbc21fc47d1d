//! `--format json`: exactly the contract's report schema.

use super::Report;
use mqdiag_model::event::Ts;
use mqdiag_model::findings::Finding;
use mqdiag_model::timefmt::rfc3339;
use serde::Serialize;
use std::io::{self, Write};

#[derive(Serialize)]
struct Doc<'a> {
    schema_version: u32,
    tool: Tool,
    inputs: Vec<Input<'a>>,
    findings: &'a [Finding],
    summary: Summary,
    /// The contract's `calls`: the same rows as `calls --format json`;
    /// left out when they were not counted (no rule that ran reads them).
    #[serde(skip_serializing_if = "Option::is_none")]
    calls: Option<Vec<mqdiag_analysis::calls::JsonRow<'a>>>,
    run: &'a super::runinfo::RunInfo,
    /// How files were read (not findings): `{"path", "note"}`.
    reading_notes: Vec<super::notes::Note<'a>>,
}

#[derive(Serialize)]
struct Tool {
    name: &'static str,
    version: &'static str,
}

#[derive(Serialize)]
struct Input<'a> {
    path: &'a str,
    format: &'static str,
    bytes: u64,
    lines: u64,
    events: u64,
    first: Option<String>,
    last: Option<String>,
}

#[derive(Serialize)]
struct Summary {
    error: usize,
    warning: usize,
    info: usize,
    new: usize,
    baseline: usize,
}

fn ts(t: &Option<Ts>) -> Option<String> {
    t.as_ref().map(rfc3339)
}

pub(crate) fn write(out: &mut dyn Write, r: &Report) -> io::Result<()> {
    let (error, warning, info) = r.counts();
    let (new, baseline) = r.new_and_baseline();
    let doc = Doc {
        schema_version: 1,
        tool: Tool {
            name: "mqdiag",
            version: r.version,
        },
        inputs: r
            .inputs
            .iter()
            .map(|i| Input {
                path: &i.path,
                format: i.format.as_str(),
                bytes: i.bytes,
                lines: i.lines,
                events: i.events,
                first: ts(&i.first),
                last: ts(&i.last),
            })
            .collect(),
        findings: r.findings,
        summary: Summary {
            error,
            warning,
            info,
            new,
            baseline,
        },
        calls: r.calls_counted.then(|| {
            r.calls
                .iter()
                .map(mqdiag_analysis::calls::Row::to_json)
                .collect()
        }),
        run: r.run,
        reading_notes: super::notes::all(r),
    };
    // Raw DEL and C1 from inputs leave as `\u00XX` escapes.
    let mut w = mqdiag_model::text::JsonControlEscaper::new(&mut *out);
    serde_json::to_writer_pretty(&mut w, &doc)?;
    w.finish()?;
    out.write_all(b"\n")
}
