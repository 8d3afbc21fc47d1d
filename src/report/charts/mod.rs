//! The HTML report's pictures: the case overview and one chart per
//! finding kind that has something to plot. `collect` gathers what only
//! the whole event stream shows (events per file, errors per channel);
//! `svg` draws.

pub mod collect;
pub mod svg;

pub use collect::{Collected, Collector};

use super::Report;
use crate::findings::{Chart, Finding};
use std::io::{self, Write};

/// The overview section: events per input file over time, with every
/// finding's time range numbered as in the findings list.
pub fn html_overview(out: &mut dyn Write, r: &Report) -> io::Result<()> {
    let Some(t0) = &r.charts.t0 else {
        return Ok(());
    };
    let markers: Vec<svg::Marker> = r
        .findings
        .iter()
        .enumerate()
        .filter_map(|(i, f)| {
            let first = f.first.or(f.last)?;
            Some(svg::Marker {
                n: i + 1,
                severity: f.severity,
                rule: f.rule.clone(),
                first,
                last: f.last.unwrap_or(first),
            })
        })
        .collect();
    let s = svg::overview(t0, r.charts.bucket_us, &r.charts.lanes, &markers);
    if s.is_empty() {
        return Ok(());
    }
    writeln!(out, "<h2>Overview</h2>")?;
    writeln!(out, "<figure class=\"chart overview\">{s}</figure>")
}

/// The chart a finding shows: its own (qtime-growth, tcp-send-stall, ...)
/// or, for the first finding of the channel-error and tls-error kinds,
/// the errors of that kind over time from the whole case.
pub fn for_finding<'a>(r: &'a Report, f: &'a Finding, first_of_kind: bool) -> Option<&'a Chart> {
    f.chart.as_ref().or(match (first_of_kind, f.rule.as_str()) {
        (true, "channel-error") => r.charts.channel_errors.as_ref(),
        (true, "tls-error") => r.charts.tls_errors.as_ref(),
        _ => None,
    })
}

/// A chart inside a finding, as a figure (nothing when it has no points).
pub fn html_chart(out: &mut dyn Write, c: &Chart) -> io::Result<()> {
    let s = svg::chart(c);
    if s.is_empty() {
        return Ok(());
    }
    writeln!(out, "<figure class=\"chart\">{s}</figure>")
}
