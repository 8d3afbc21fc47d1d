//! `--format html`: one self-contained file (inline CSS, inline SVG charts
//! for findings that carry a series, such as qtime-growth). No scripts, no
//! external resources.

use super::Report;
use crate::escape::html as esc;
use mqdiag_model::findings::{Chart, Finding, thousands};
use mqdiag_model::problem::Severity;
use mqdiag_model::timefmt::rfc3339;
use std::borrow::Cow;
use std::collections::{BTreeSet, HashSet};
use std::io::{self, Write};

const CSS: &str = "body{font-family:system-ui,-apple-system,Segoe UI,sans-serif;margin:2em auto;max-width:72em;padding:0 1em;color:#1d1d1f;line-height:1.45}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ddd}h3{font-size:1.05em}
table{border-collapse:collapse;margin:.5em 0;font-size:.9em}th,td{border:1px solid #ddd;padding:.25em .5em;text-align:left;vertical-align:top}
th{background:#f4f4f6}td.n{text-align:right}
.sev{display:inline-block;padding:0 .5em;border-radius:3px;color:#fff;font-size:.85em;font-weight:600}
.error{background:#c62828}.warning{background:#e08a00}.info{background:#1e6fd9}
pre{background:#f6f8fa;border:1px solid #e1e4e8;padding:.6em;overflow-x:auto;font-size:.85em}
.finding{border:1px solid #ddd;border-radius:6px;padding:0 1em 1em;margin:1em 0}
.muted{color:#666;font-size:.85em}svg{background:#fff;border:1px solid #e1e4e8}
figure.chart{margin:.8em 0}svg.chart{width:100%;height:auto;max-width:960px;font-size:11px;font-family:inherit;border:0}
svg .grid{stroke:#e6e6e6}svg .axis{stroke:#888;fill:none}svg .axis-title{font-size:12px;fill:#444}
svg .chart-title{font-size:14px;font-weight:600}svg .marker{font-size:11px;font-weight:700}svg .ref{fill:#444}
table.files,table.calls{table-layout:fixed;width:100%}table.files td,table.calls td{overflow-wrap:anywhere}table.files td.t,table.calls td code{font-size:.85em}
caption{text-align:left;font-weight:600;padding:.25em 0}
table.glance th{text-align:left;white-space:nowrap;vertical-align:top}table.glance td{overflow-wrap:anywhere}
table.calls{font-size:.85em}table.calls td.n,table.calls td.v{white-space:nowrap;overflow-wrap:normal}table.calls td{overflow-wrap:break-word}
@media print{body{max-width:none;margin:0}.finding{break-inside:avoid}}";

pub(crate) fn write(out: &mut dyn Write, r: &Report) -> io::Result<()> {
    writeln!(out, "<!DOCTYPE html>")?;
    writeln!(out, "<html lang=\"en\"><head><meta charset=\"utf-8\">")?;
    writeln!(out, "<title>mqdiag report</title>")?;
    writeln!(out, "<style>{CSS}</style></head><body>")?;
    writeln!(out, "<h1>mqdiag report</h1>")?;
    writeln!(
        out,
        "<p>mqdiag {} · {}</p>",
        esc(r.version),
        esc(&r.headline())
    )?;
    writeln!(out, "<ul class=\"run\">")?;
    for l in r.run_lines() {
        writeln!(out, "<li>{}</li>", esc(&l))?;
    }
    writeln!(out, "</ul>")?;
    glance(out, r)?;
    contents(out, r)?;
    super::charts::html_overview(out, r)?;
    writeln!(out, "<h2 id=\"findings\">Findings</h2>")?;
    if r.findings.is_empty() {
        writeln!(out, "<p>No findings.</p>")?;
    } else {
        writeln!(
            out,
            "<table><caption>Findings, most severe first</caption><tr><th scope=\"col\">#</th><th scope=\"col\">Severity</th><th scope=\"col\">Rule</th><th scope=\"col\">Finding</th><th scope=\"col\">Count</th></tr>"
        )?;
        for (n, f) in r.findings.iter().enumerate() {
            writeln!(
                out,
                "<tr><td class=\"n\">{}</td><td>{}</td><td><code>{}</code></td><td><a href=\"#f{}\">{}</a></td><td class=\"n\">{}</td></tr>",
                n + 1,
                badge(f.severity),
                esc(&f.rule),
                n + 1,
                esc(&f.title),
                thousands(f.count)
            )?;
        }
        writeln!(out, "</table>")?;
        let mut kinds_seen = HashSet::new();
        for (n, f) in r.findings.iter().enumerate() {
            let first_of_kind = kinds_seen.insert(f.rule.as_str());
            finding(
                out,
                n + 1,
                f,
                super::charts::for_finding(r, f, first_of_kind),
            )?;
        }
    }
    super::calls::html_section(out, r)?;
    writeln!(out, "<h2 id=\"environment\">Environment</h2>")?;
    writeln!(
        out,
        // Fixed layout with set widths: long paths and times wrap inside
        // their cells instead of widening the page past the window.
        "<table class=\"files\"><colgroup><col style=\"width:24%\"><col style=\"width:8%\"><col style=\"width:7%\"><col style=\"width:8%\"><col style=\"width:8%\"><col style=\"width:15%\"><col style=\"width:15%\"><col style=\"width:7%\"><col style=\"width:8%\"></colgroup>\n<caption>Files read</caption><tr><th scope=\"col\">File</th><th scope=\"col\">Format</th><th scope=\"col\">MQ</th><th scope=\"col\">Platform</th><th scope=\"col\">Host</th><th scope=\"col\">From</th><th scope=\"col\">To</th><th scope=\"col\">Events</th><th scope=\"col\">Problems</th></tr>"
    )?;
    for i in r.inputs {
        let o = |v: &Option<String>| esc(v.as_deref().unwrap_or(""));
        writeln!(
            out,
            "<tr><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td class=\"t\">{}</td><td class=\"t\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td></tr>",
            esc(&i.path),
            esc(i.format.as_str()),
            o(&i.mq_version),
            o(&i.platform),
            o(&i.host),
            i.first.as_ref().map(cell_time).unwrap_or_default(),
            i.last.as_ref().map(cell_time).unwrap_or_default(),
            thousands(i.events),
            i.problem_count
        )?;
    }
    writeln!(out, "</table>")?;
    super::notes::html_section(out, r)?;
    writeln!(out, "</body></html>")?;
    out.flush()
}

/// Names shown in the summary before "and N more".
const GLANCE_NAMES: usize = 6;
/// Findings named in the summary.
const GLANCE_STORIES: usize = 3;

/// The first screen: what the capture covers (time range, queue managers,
/// hosts) and the top stories, before any chart.
fn glance(out: &mut dyn Write, r: &Report) -> io::Result<()> {
    let first = r.inputs.iter().filter_map(|i| i.first).min();
    let last = r.inputs.iter().filter_map(|i| i.last).max();
    let names = |v: BTreeSet<&str>| {
        let n = v.len();
        let mut shown: Vec<String> = v.into_iter().take(GLANCE_NAMES).map(esc).collect();
        if n > GLANCE_NAMES {
            shown.push(format!("and {} more", n - GLANCE_NAMES));
        }
        shown.join(", ")
    };
    let qmgrs: BTreeSet<&str> = r
        .inputs
        .iter()
        .filter_map(|i| i.qmgr.as_deref())
        .chain(r.findings.iter().filter_map(|f| f.subject.qmgr.as_deref()))
        .collect();
    let hosts: BTreeSet<&str> = r.inputs.iter().filter_map(|i| i.host.as_deref()).collect();
    let mut rows: Vec<(&str, String)> = Vec::new();
    if let (Some(a), Some(b)) = (first, last) {
        rows.push((
            "Time range",
            format!(
                "{} – {} ({})",
                esc(&rfc3339(&a)),
                esc(&rfc3339(&b)),
                esc(&span_text(b - a))
            ),
        ));
    }
    if !qmgrs.is_empty() {
        rows.push(("Queue managers", names(qmgrs)));
    }
    if !hosts.is_empty() {
        rows.push(("Hosts", names(hosts)));
    }
    if !r.findings.is_empty() {
        let top: Vec<String> = r
            .findings
            .iter()
            .take(GLANCE_STORIES)
            .enumerate()
            .map(|(i, f)| {
                format!(
                    "{} <a href=\"#f{}\">{}</a>",
                    badge(f.severity),
                    i + 1,
                    esc(&f.title)
                )
            })
            .collect();
        rows.push(("Top findings", top.join("<br>")));
    }
    if rows.is_empty() {
        return Ok(());
    }
    writeln!(
        out,
        "<table class=\"glance\"><caption>At a glance</caption>"
    )?;
    for (k, v) in rows {
        writeln!(out, "<tr><th scope=\"row\">{k}</th><td>{v}</td></tr>")?;
    }
    writeln!(out, "</table>")
}

/// `3 days 4 h`, `2 h 5 min`, `42 s`: how long a capture spans.
fn span_text(d: chrono::Duration) -> String {
    let s = d.num_seconds().max(0);
    let (days, h, m) = (s / 86_400, s % 86_400 / 3600, s % 3600 / 60);
    if days >= 365 {
        format!("{:.1} years", s as f64 / (365.25 * 86_400.0))
    } else if days > 0 {
        format!("{days} day{} {h} h", if days == 1 { "" } else { "s" })
    } else if h > 0 {
        format!("{h} h {m} min")
    } else if m > 0 {
        format!("{m} min {} s", s % 60)
    } else {
        format!("{s} s")
    }
}

/// Links to the sections this report has (a long report is otherwise
/// one long scroll).
fn contents(out: &mut dyn Write, r: &Report) -> io::Result<()> {
    let mut links = vec![(
        "findings",
        format!("Findings ({})", thousands(r.findings.len() as u64)),
    )];
    if !r.calls.is_empty() || super::calls::not_counted(r).is_some() {
        links.push(("calls", "MQI calls".to_string()));
    }
    links.push((
        "environment",
        format!("Environment ({} files)", thousands(r.inputs.len() as u64)),
    ));
    if !super::notes::all(r).is_empty() {
        links.push(("notes", "Reading notes".to_string()));
    }
    let items: Vec<String> = links
        .iter()
        .map(|(id, t)| format!("<a href=\"#{id}\">{}</a>", esc(t)))
        .collect();
    writeln!(
        out,
        "<nav aria-label=\"Contents\"><p>Contents: {}</p></nav>",
        items.join(" · ")
    )
}

/// A time for a narrow table cell: may break after the date (`<wbr>`),
/// copies as the plain RFC 3339 text.
fn cell_time(t: &mqdiag_model::event::Ts) -> String {
    rfc3339(t).replacen('T', "T<wbr>", 1)
}

fn badge(s: Severity) -> String {
    format!("<span class=\"sev {0}\">{0}</span>", s.as_str())
}

fn finding(
    out: &mut dyn Write,
    n: usize,
    f: &Finding,
    chart: Option<Cow<Chart>>,
) -> io::Result<()> {
    writeln!(out, "<div class=\"finding\" id=\"f{n}\">")?;
    writeln!(
        out,
        "<h3>{n}. {} <code>{}</code>{} {}</h3>",
        badge(f.severity),
        esc(&f.rule),
        if f.baseline {
            " <span class=\"muted\">(baseline)</span>"
        } else {
            ""
        },
        esc(&f.title)
    )?;
    let mut facts = Vec::new();
    let subject = f.subject.describe();
    if !subject.is_empty() {
        facts.push(format!("Subject: {}", esc(&subject)));
    }
    match (&f.first, &f.last) {
        (Some(a), Some(b)) if a != b => {
            facts.push(format!("Time: {} – {}", rfc3339(a), rfc3339(b)))
        }
        (Some(a), _) | (None, Some(a)) => facts.push(format!("Time: {}", rfc3339(a))),
        _ => {}
    }
    facts.push(format!("Count: {}", thousands(f.count)));
    facts.push(format!("Severity: {}", esc(&f.severity_reason)));
    writeln!(out, "<p>{}</p>", facts.join(" · "))?;
    if let Some(c) = chart {
        super::charts::html_chart(out, &c)?;
    }
    writeln!(
        out,
        "<table><caption>Metrics</caption><tr><th scope=\"col\">Metric</th><th scope=\"col\">Value</th></tr>"
    )?;
    for (k, v) in &f.metrics.0 {
        writeln!(
            out,
            "<tr><td>{}</td><td>{}</td></tr>",
            esc(v.label_named(k)),
            esc(&v.display_named(k))
        )?;
    }
    writeln!(out, "</table>")?;
    if !f.breakdown.is_empty() {
        writeln!(
            out,
            "<table><caption>Breakdown</caption><tr><th scope=\"col\">Occurrences</th><th scope=\"col\">Detail</th></tr>"
        )?;
        for b in f.breakdown.iter().take(super::BREAKDOWN_SHOWN) {
            writeln!(
                out,
                "<tr><td>{}</td><td>{}</td></tr>",
                b.occurrences,
                esc(&b.describe())
            )?;
        }
        if f.breakdown.len() > super::BREAKDOWN_SHOWN {
            let more = f.breakdown.len() - super::BREAKDOWN_SHOWN;
            writeln!(
                out,
                "<tr><td></td><td>{more} more in the JSON report</td></tr>"
            )?;
        }
        writeln!(out, "</table>")?;
    }
    writeln!(out, "<p><strong>Evidence</strong></p><pre>")?;
    for e in &f.evidence {
        writeln!(out, "{}:{}\n    {}", esc(&e.path), e.line, esc(&e.text))?;
    }
    writeln!(out, "</pre>")?;
    writeln!(out, "<p><strong>Remedy:</strong> {}</p>", esc(&f.advice))?;
    writeln!(
        out,
        "<p class=\"muted\">fingerprint <code>{}</code></p>",
        esc(&f.fingerprint)
    )?;
    writeln!(out, "</div>")
}
