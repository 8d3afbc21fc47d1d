//! MQI calls as every format shows them (`mqdiag_analysis::calls` counts
//! them): the `calls` verb's output (`write`: a text table that fits the
//! width, CSV with the JSON's column names, the contract's JSON document,
//! a Markdown table), and the "MQI calls" section of the findings reports.
//! One module per format; `cols` has the cell texts they share and
//! `section` which rows a report shows.

mod cols;
mod csv;
mod html;
mod json;
mod markdown;
mod section;
mod text;

pub(crate) use html::html_section;
pub(crate) use markdown::markdown_section;
pub(crate) use section::not_counted;
pub(crate) use text::text_section;

use mqdiag_analysis::calls::{By, Row};
use std::io::{self, Write};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CallsFormat {
    Text,
    Csv,
    Json,
    Markdown,
}

/// The `calls` verb's output. `width`: the text table's (the others have
/// no width).
pub fn write(
    out: &mut dyn Write,
    rows: &[Row],
    by: By,
    f: CallsFormat,
    width: usize,
    run: &CallsRun,
) -> io::Result<()> {
    match f {
        CallsFormat::Text => {
            if let Some(l) = run.line() {
                writeln!(out, "{l}\n")?;
            }
            text::write_all(out, rows, by, width)
        }
        CallsFormat::Markdown => {
            if let Some(l) = run.line() {
                writeln!(out, "_{l}_\n")?;
            }
            markdown::write_all(out, rows, by)
        }
        CallsFormat::Csv => csv::write(out, rows, by),
        CallsFormat::Json => json::write(out, rows, run),
    }
}

/// How the calls were counted, as every format that can says it: the
/// `--since`/`--until` window and redaction (the JSON's `run`; a line
/// above the text and Markdown tables when either is in force).
#[derive(Debug, Clone, Default)]
pub struct CallsRun {
    /// The window as read (`TimeWindow::describe`), when one was given.
    pub window: Option<String>,
    pub redact: bool,
}

impl CallsRun {
    /// `time window: A .. B; names and addresses redacted`, or nothing
    /// when the whole input was counted unredacted.
    pub fn line(&self) -> Option<String> {
        let mut parts = Vec::new();
        if let Some(w) = &self.window {
            parts.push(format!("time window: {w}"));
        }
        if self.redact {
            parts.push("names and addresses redacted".to_string());
        }
        (!parts.is_empty()).then(|| parts.join("; "))
    }
}
