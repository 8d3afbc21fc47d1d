//! The cells of a calls row as people read them (durations as `12.3 ms`,
//! reasons by name), shared by the text, Markdown and HTML tables.

use mqdiag_analysis::calls::{By, Row, process_text};
use mqdiag_model::mqrc;
use mqdiag_model::timefmt::human_us;

/// A column of the text and Markdown tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Col {
    Process,
    Tid,
    Connection,
    Verb,
    Calls,
    Ok,
    Warn,
    Failed,
    Open,
    Total,
    Mean,
    P50,
    P95,
    Max,
    SlowestAt,
    Reasons,
}

impl Col {
    pub(crate) fn head(self) -> &'static str {
        match self {
            Col::Process => "PROCESS",
            Col::Tid => "TID",
            Col::Connection => "CONNECTION",
            Col::Verb => "VERB",
            Col::Calls => "CALLS",
            Col::Ok => "OK",
            Col::Warn => "WARN",
            Col::Failed => "FAILED",
            Col::Open => "OPEN",
            Col::Total => "TOTAL",
            Col::Mean => "MEAN",
            Col::P50 => "P50",
            Col::P95 => "P95",
            Col::Max => "MAX",
            Col::SlowestAt => "SLOWEST AT",
            Col::Reasons => "REASONS",
        }
    }

    pub(crate) fn left(self) -> bool {
        matches!(
            self,
            Col::Process | Col::Connection | Col::Verb | Col::SlowestAt | Col::Reasons
        )
    }

    pub(crate) fn cell(self, r: &Row) -> String {
        let s = &r.stats;
        let dur = |v: Option<u64>| v.map(human_us).unwrap_or_else(|| "-".into());
        match self {
            Col::Process => process_text(r),
            Col::Tid => r.key.tid.map(|t| t.to_string()).unwrap_or_default(),
            Col::Connection => r.key.ident.clone().unwrap_or_default(),
            Col::Verb => r.key.verb.to_string(),
            Col::Calls => s.calls.to_string(),
            Col::Ok => s.ok.to_string(),
            Col::Warn => s.warnings.to_string(),
            Col::Failed => s.failed.to_string(),
            Col::Open => s.open.to_string(),
            Col::Total if r.timed() > 0 => human_us(s.total_us),
            Col::Total => "-".into(),
            Col::Mean => dur(r.mean_us()),
            Col::P50 => dur(r.p50_us()),
            Col::P95 => dur(r.p95_us()),
            Col::Max => dur(s.max_us),
            Col::SlowestAt => match (&s.max_at, s.timing) {
                (Some((p, l)), Some(t)) => format!("{p}:{l} ({t})"),
                (Some((p, l)), None) => format!("{p}:{l}"),
                (None, _) => "-".into(),
            },
            Col::Reasons => reasons_text(r),
        }
    }
}

/// The `calls` verb's columns for a grouping, in order.
pub(crate) fn verb_columns(by: By) -> Vec<Col> {
    let mut c = vec![Col::Process];
    match by {
        By::Thread => c.push(Col::Tid),
        By::Connection => c.push(Col::Connection),
        _ => {}
    }
    c.extend([
        Col::Verb,
        Col::Calls,
        Col::Ok,
        Col::Warn,
        Col::Failed,
        Col::Open,
        Col::Total,
        Col::Mean,
        Col::P50,
        Col::P95,
        Col::Max,
        Col::SlowestAt,
        Col::Reasons,
    ]);
    c
}

/// `2033 NO_MSG_AVAILABLE ×4` style list, most frequent first.
pub(crate) fn reasons_text(row: &Row) -> String {
    let mut rs: Vec<(&String, u64)> = row
        .stats
        .reasons
        .iter()
        .map(|(k, r)| (k, r.count))
        .collect();
    rs.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    rs.iter()
        .map(|(k, n)| {
            let name = k
                .parse::<u32>()
                .ok()
                .and_then(mqrc::name)
                .map(|n| format!(" {n}"))
                .unwrap_or_default();
            format!("{k}{name} x{n}")
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn opt(v: Option<u64>) -> String {
    v.map(human_us).unwrap_or_else(|| "-".into())
}

/// The report sections' cells of a row: process, verb, calls, failed,
/// warnings, open, total, p50, p95, max, slowest at (empty when none),
/// reasons.
pub(crate) fn section_cells(r: &Row) -> [String; 12] {
    let s = &r.stats;
    [
        process_text(r),
        r.key.verb.to_string(),
        s.calls.to_string(),
        s.failed.to_string(),
        s.warnings.to_string(),
        s.open.to_string(),
        if r.timed() > 0 {
            human_us(s.total_us)
        } else {
            "-".into()
        },
        opt(r.p50_us()),
        opt(r.p95_us()),
        opt(s.max_us),
        s.max_at
            .as_ref()
            .map(|(p, l)| format!("{p}:{l}"))
            .unwrap_or_default(),
        reasons_text(r),
    ]
}
