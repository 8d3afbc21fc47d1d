//! Every output format of mqdiag. Findings reports: one module per
//! format, all fed the same `Report` (names and addresses are redacted
//! before, by the analysis). Beside them the `calls` table (`calls`),
//! `compare`, the timeline's ECS and OTLP rows (`export`, handed to the
//! model's row sink by the binary) and Parquet, and inventory output.
//! `escape` and `layout` are what the formats share, so that none
//! imports another.
//!
//! # Public API
//!
//! What the binary and the tests call; everything else is `pub(crate)`,
//! and the format modules (`text`, `json`, `html`, ...) are private.
//!
//! - Findings reports: `Report` (everything one shows), `Kind` (the
//!   formats; `Kind::EXTENSIONS` for `-o`), `write` and `write_painted`
//!   (the text report painted for a terminal, `color::ColorChoice`).
//!   `charts::{Collector, Collected}` gather the HTML report's charts
//!   from every event; `runinfo::{RunInfo, Window}` say how the report
//!   was made.
//! - `calls::{write, CallsFormat}`: the `calls` verb's table.
//! - `compare`: `Comparison` and its parts, `CompareFormat`, `write`.
//! - `export::{ecs, otlp}::render`: a timeline row as an ECS or OTLP
//!   document; `parquet::ParquetRows` (feature `parquet`).
//! - `output`: `inventory::{write_text, write_json}`,
//!   `timeline::write_header`.
//! - `layout::wrap`: text wrapped to a width (the binary's help).

pub mod calls;
pub mod charts;
pub mod color;
pub mod compare;
mod ecs;
mod escape;
pub mod export;
mod html;
mod json;
pub mod layout;
mod markdown;
mod notes;
pub mod output;
#[cfg(feature = "parquet")]
pub mod parquet;
pub mod runinfo;
mod sarif;
mod text;

use mqdiag_analysis::passes::RuleInfo;
use mqdiag_model::fileinfo::FileInfo;
use mqdiag_model::findings::Finding;
use mqdiag_model::problem::Severity;

/// Breakdown rows the text, Markdown and HTML reports show per finding;
/// the JSON report has all of them.
pub(crate) const BREAKDOWN_SHOWN: usize = 8;

/// Everything a report shows.
pub struct Report<'a> {
    pub version: &'static str,
    pub inputs: &'a [FileInfo],
    pub findings: &'a [Finding],
    /// The rules that ran.
    pub rules: &'a [&'static RuleInfo],
    /// Whether `--baseline` was given (SARIF `baselineState`).
    pub baseline_used: bool,
    /// MQI calls per process and verb (`calls`), and per verb alone (the
    /// HTML latency chart). Empty when the traces have none.
    pub calls: &'a [mqdiag_analysis::calls::Row],
    pub calls_by_verb: &'a [mqdiag_analysis::calls::Row],
    /// Whether the calls were counted: not when no rule that ran reads
    /// them (`--only`, `--skip`); the reports then say so.
    pub calls_counted: bool,
    /// How the report was made (rules, thresholds, --tz, baseline).
    pub run: &'a runinfo::RunInfo,
    /// The HTML report's overview and error charts.
    pub charts: &'a charts::Collected,
}

impl Report<'_> {
    /// (error, warning, info) counts over all findings.
    pub(crate) fn counts(&self) -> (usize, usize, usize) {
        let n = |s| self.findings.iter().filter(|f| f.severity == s).count();
        (n(Severity::Error), n(Severity::Warning), n(Severity::Info))
    }

    pub(crate) fn total_events(&self) -> u64 {
        self.inputs.iter().map(|i| i.events).sum()
    }

    /// (new, in the baseline) finding counts.
    pub(crate) fn new_and_baseline(&self) -> (usize, usize) {
        let old = self.findings.iter().filter(|f| f.baseline).count();
        (self.findings.len() - old, old)
    }

    /// `3 findings: 1 error, 2 warnings, 0 info`; with a baseline
    /// `3 findings (1 new, 2 in baseline): ...`, so findings already known
    /// are not read as new.
    pub(crate) fn headline(&self) -> String {
        let (e, w, i) = self.counts();
        let n = self.findings.len();
        let split = if self.baseline_used {
            let (new, old) = self.new_and_baseline();
            format!(" ({new} new, {old} in baseline)")
        } else {
            String::new()
        };
        // Counts with separators, as the event count beside them.
        let t = |v: usize| mqdiag_model::findings::thousands(v as u64);
        format!(
            "{} finding{}{split}: {} error{}, {} warning{}, {} info",
            t(n),
            if n == 1 { "" } else { "s" },
            t(e),
            if e == 1 { "" } else { "s" },
            t(w),
            if w == 1 { "" } else { "s" },
            t(i),
        )
    }

    /// The run's settings as lines for people (see `RunInfo::lines`).
    pub(crate) fn run_lines(&self) -> Vec<String> {
        self.run.lines(self.rules.len())
    }

    pub(crate) fn rule(&self, id: &str) -> Option<&'static RuleInfo> {
        self.rules
            .iter()
            .copied()
            .find(|r| r.id == id)
            .or_else(|| mqdiag_analysis::passes::rule(id))
    }
}

/// Output formats of `analyze`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Text,
    Json,
    Markdown,
    Html,
    Sarif,
    /// Elastic Common Schema alert documents, one a line.
    Ecs,
}

impl Kind {
    /// The `-o` extensions and the format each asks for.
    pub const EXTENSIONS: &'static [(&'static str, Kind)] = &[
        ("txt", Kind::Text),
        ("text", Kind::Text),
        ("json", Kind::Json),
        ("md", Kind::Markdown),
        ("markdown", Kind::Markdown),
        ("html", Kind::Html),
        ("htm", Kind::Html),
        ("sarif", Kind::Sarif),
        ("sarif.json", Kind::Sarif),
        ("ecs.ndjson", Kind::Ecs),
        ("ecs.json", Kind::Ecs),
    ];
}

/// A report in `kind`, unpainted. Not called by the binary (it always
/// says whether to paint, `write_painted`), kept as the plain entry for
/// other callers of the library.
pub fn write(kind: Kind, out: &mut dyn std::io::Write, r: &Report) -> std::io::Result<()> {
    write_painted(kind, out, r, false)
}

/// As `write`; `color` paints the text report for a terminal (other
/// formats ignore it).
pub fn write_painted(
    kind: Kind,
    out: &mut dyn std::io::Write,
    r: &Report,
    color: bool,
) -> std::io::Result<()> {
    match kind {
        Kind::Text if color => {
            let mut painted = color::Colorize::new(out);
            text::write(&mut mqdiag_model::text::ControlEscaper(&mut painted), r)?;
            std::io::Write::flush(&mut painted)
        }
        // Control characters from inputs never reach a terminal or a
        // document raw (JSON-based formats escape them already).
        Kind::Text => text::write(&mut mqdiag_model::text::ControlEscaper(out), r),
        Kind::Json => json::write(out, r),
        Kind::Markdown => markdown::write(&mut mqdiag_model::text::ControlEscaper(out), r),
        Kind::Html => html::write(out, r),
        Kind::Sarif => sarif::write(out, r),
        Kind::Ecs => ecs::write(out, r),
    }
}
