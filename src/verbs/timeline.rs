//! `mqdiag timeline`: every event of every input, merged in time order,
//! as text rows, CSV or JSON lines.

use crate::cli::{TimelineArgs, TimelineFormat};
use crate::exit::{EXIT_OK, io_result};
use crate::outpath::{Output, infer};
use mqdiag_analysis::rows::RowMerged;
use mqdiag_model::sink::RowSpec;
use mqdiag_report::output::timeline::write_header;
use regex::Regex;
use std::io::{self, IsTerminal, Write};
use std::sync::Arc;

pub fn run(a: TimelineArgs) -> Result<i32, String> {
    let grep = a
        .grep
        .as_deref()
        .map(Regex::new)
        .transpose()
        .map_err(|e| format!("--grep: {e}"))?;
    let table = [
        ("txt", TimelineFormat::Text),
        ("text", TimelineFormat::Text),
        ("csv", TimelineFormat::Csv),
        ("jsonl", TimelineFormat::Jsonl),
        // The exports are JSON lines too: named for their schema.
        ("otlp.jsonl", TimelineFormat::Otlp),
        ("otlp.json", TimelineFormat::Otlp),
        ("ecs.ndjson", TimelineFormat::Ecs),
        ("ecs.jsonl", TimelineFormat::Ecs),
        ("ndjson", TimelineFormat::Jsonl),
        #[cfg(feature = "parquet")]
        ("parquet", TimelineFormat::Parquet),
    ];
    let o = a.input.output.as_deref();
    let format = match a.format {
        Some(f) => crate::outpath::agree(f, &crate::outpath::value_name(&f), o, &table)?,
        None => infer(o, &table, "timeline")?.unwrap_or(TimelineFormat::Text),
    };
    let mut out = a.input.writer()?;
    // With `--redact`: a first pass learns every name, so the rows (which
    // stream) are redacted from the first one.
    let redact = a.input.learn_redaction(&[])?.map(Arc::new);
    // Events stream to the output as they are read: no progress line when
    // that output is the terminal too.
    let to_terminal = matches!(out, Output::Stdout(_)) && io::stdout().is_terminal();
    let (sources, _) = a
        .input
        .open_with_progress(a.input.progress_wanted() && !to_terminal)?;
    let spec = |format| RowSpec {
        format,
        pid: a.pid,
        ident: a.ident.clone(),
        grep: grep.clone(),
        redact: redact.clone(),
    };
    let Some(format) = format.rows() else {
        // Parquet is written from events (the spec's filters and redaction
        // apply; its row format is not used).
        #[cfg(feature = "parquet")]
        {
            let spec = spec(mqdiag_model::sink::TimelineFormat::Jsonl);
            let inputs = super::timeline_parquet::write(&a, spec, sources, &mut out)?;
            return finish(&a, inputs, out);
        }
        #[cfg(not(feature = "parquet"))]
        unreachable!("only Parquet has no row format");
    };
    // Rows are rendered by the workers; the merge only orders and copies.
    let mut merged = RowMerged::new(sources, Arc::new(spec(format)), a.input.jobs());
    let window = a.input.window(merged.reference_ts().as_ref())?;
    // A text timeline says how it was cut and whether it was redacted,
    // above its rows, when it was (the other formats are rows only).
    let mut head = Vec::new();
    if matches!(format, mqdiag_model::sink::TimelineFormat::Text)
        && let Some(l) = (mqdiag_report::calls::CallsRun {
            window: window.is_set().then(|| window.describe()),
            redact: redact.is_some(),
        })
        .line()
    {
        io_result(writeln!(head, "# {l}"))?;
    }
    io_result(write_header(&mut head, format))?;
    // Written with the first row, so that a run that fails (an empty
    // window) writes nothing.
    let mut lazy = HeadFirst {
        out: &mut out,
        head,
    };
    let rows = match merged.write_all(&mut lazy, &window) {
        Ok(n) => n,
        // A closed pipe ends the run quietly (`io_result`).
        Err(e) => io_result(Err(e)).map(|_| 0)?,
    };
    let mut inputs = merged.finish();
    mqdiag_analysis::timeline::note_undated_left_out(&mut inputs, &window);
    mqdiag_analysis::engine::EmptyWindow::check(&window, rows, a.input.allow_empty, &inputs)
        .map_err(|e| e.to_string())?;
    io_result(lazy.flush_head())?;
    finish(&a, inputs, out)
}

/// A writer that writes `head` before its first bytes (or at
/// `flush_head`, for an output with no rows).
struct HeadFirst<'a> {
    out: &'a mut Output,
    head: Vec<u8>,
}

impl HeadFirst<'_> {
    fn flush_head(&mut self) -> io::Result<()> {
        if !self.head.is_empty() {
            let head = std::mem::take(&mut self.head);
            self.out.write_all(&head)?;
        }
        Ok(())
    }
}

impl Write for HeadFirst<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if !buf.is_empty() {
            self.flush_head()?;
        }
        self.out.write(buf)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// What every timeline does once its rows are written: exit 2 when nothing
/// could be read, say what was left out for its time, keep the output.
pub(super) fn finish(
    a: &TimelineArgs,
    inputs: Vec<mqdiag_model::fileinfo::FileInfo>,
    out: Output,
) -> Result<i32, String> {
    if mqdiag_analysis::engine::nothing_read(&inputs) {
        return Err(crate::run::nothing_read_error(&inputs));
    }
    // Rows left out for their time are said, not dropped in silence.
    let left = mqdiag_analysis::timeline::left_out(&inputs);
    if left > 0 && !a.input.quiet {
        eprintln!(
            "mqdiag: {left} event(s) dated outside 1970-01-01 .. 2262-04-11 left out (`mqdiag inventory` says where)"
        );
    }
    io_result(out.finish())?;
    crate::run::reader_panic_check(&inputs)?;
    Ok(EXIT_OK)
}
