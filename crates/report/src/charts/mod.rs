//! The HTML report's pictures: the case overview and one chart per
//! finding kind that has something to plot. `collect` gathers what only
//! the whole event stream shows (events per file, errors per channel);
//! `svg` draws.

mod collect;
mod overview;
pub(crate) mod svg;

pub use collect::{Collected, Collector};

use super::Report;
use mqdiag_analysis::passes::{self, ChartKind};
use mqdiag_model::findings::{Chart, Finding, MAX_COUNT_SERIES, Series};
use std::borrow::Cow;
use std::io::{self, Write};

/// The overview section: events per input file over time, with every
/// finding's time range numbered as in the findings list.
pub(crate) fn html_overview(out: &mut dyn Write, r: &Report) -> io::Result<()> {
    let Some(t0) = &r.charts.t0 else {
        return Ok(());
    };
    let markers: Vec<overview::Marker> = r
        .findings
        .iter()
        .enumerate()
        .filter_map(|(i, f)| {
            let first = f.first.or(f.last)?;
            Some(overview::Marker {
                n: i + 1,
                severity: f.severity,
                rule: f.rule.clone(),
                first,
                last: f.last.unwrap_or(first),
            })
        })
        .collect();
    let s = overview::overview(t0, r.charts.bucket_us, &r.charts.lanes, &markers);
    if s.is_empty() {
        return Ok(());
    }
    writeln!(out, "<h2 id=\"overview\">Overview</h2>")?;
    writeln!(out, "<figure class=\"chart overview\">{s}</figure>")
}

/// The chart a finding shows, as its rule's `ChartKind` says: its own;
/// for the first finding of a `Merged` rule, all that rule's series; for
/// the first finding of a `FamilyErrors` rule without a chart of its own,
/// the errors of that family over time from the whole case.
pub(crate) fn for_finding<'a>(
    r: &'a Report,
    f: &'a Finding,
    first_of_kind: bool,
) -> Option<Cow<'a, Chart>> {
    let rule = f.rule.as_str();
    let kind = passes::rule(rule).map_or(ChartKind::Own, |i| i.chart);
    if kind == ChartKind::Merged {
        return first_of_kind
            .then(|| merged(r, rule))
            .flatten()
            .map(Cow::Owned);
    }
    if let Some(c) = &f.chart {
        return Some(Cow::Borrowed(c));
    }
    match (first_of_kind, kind) {
        // The series the collector named it: its channel, else its host.
        (true, ChartKind::FamilyErrors(family)) => {
            let s = &f.subject;
            let mut focus: Vec<String> = s.channel.iter().cloned().collect();
            if let (Some(h), Some(a)) = (&s.host, &s.address) {
                focus.push(format!("host {h} ({a})"));
            }
            focus.extend(s.host.iter().chain(&s.address).map(|v| format!("host {v}")));
            r.charts.family_errors(family, &focus).map(Cow::Owned)
        }
        _ => None,
    }
}

/// The charts of every finding of `rule`, as one chart with a series per
/// finding (the first `MAX_COUNT_SERIES`, then one series for the rest).
fn merged(r: &Report, rule: &str) -> Option<Chart> {
    let mut charts = r
        .findings
        .iter()
        .filter(|f| f.rule == rule)
        .filter_map(|f| f.chart.as_ref());
    let mut out = charts.next()?.clone();
    for c in charts {
        for s in &c.series {
            if out.series.len() < MAX_COUNT_SERIES {
                out.series.push(s.clone());
            } else {
                if out.series.len() == MAX_COUNT_SERIES {
                    out.series.push(Series {
                        name: "others".to_string(),
                        points: Vec::new(),
                    });
                }
                if let Some(rest) = out.series.last_mut() {
                    rest.points.extend(s.points.iter().copied());
                }
            }
        }
    }
    Some(out)
}

/// A chart inside a finding, as a figure (nothing when it has no points).
pub(crate) fn html_chart(out: &mut dyn Write, c: &Chart) -> io::Result<()> {
    let s = svg::chart(c);
    if s.is_empty() {
        return Ok(());
    }
    writeln!(out, "<figure class=\"chart\">{s}</figure>")
}
