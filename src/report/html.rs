//! `--format html`: one self-contained file (inline CSS, inline SVG charts
//! for findings that carry a series, such as qtime-growth). No scripts, no
//! external resources.

use super::Report;
use crate::findings::{Chart, Finding, thousands};
use crate::source::Severity;
use crate::timefmt::rfc3339;
use std::io::{self, Write};

pub fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            // Shown, not acted on: as `\x1b`, like the other formats.
            c if (c < ' ' && c != '\t' && c != '\n') || ('\u{7f}'..='\u{9f}').contains(&c) => {
                o.push_str(&format!("\\x{:02x}", c as u32))
            }
            _ => o.push(c),
        }
    }
    o
}

const CSS: &str = "body{font-family:system-ui,-apple-system,Segoe UI,sans-serif;margin:2em auto;max-width:72em;padding:0 1em;color:#1d1d1f;line-height:1.45}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ddd}h3{font-size:1.05em}
table{border-collapse:collapse;margin:.5em 0;font-size:.9em}th,td{border:1px solid #ddd;padding:.25em .5em;text-align:left;vertical-align:top}
th{background:#f4f4f6}td.n{text-align:right}
.sev{display:inline-block;padding:0 .5em;border-radius:3px;color:#fff;font-size:.85em;font-weight:600}
.error{background:#c62828}.warning{background:#e08a00}.info{background:#1e6fd9}
pre{background:#f6f8fa;border:1px solid #e1e4e8;padding:.6em;overflow-x:auto;font-size:.85em}
.finding{border:1px solid #ddd;border-radius:6px;padding:0 1em 1em;margin:1em 0}
.muted{color:#666;font-size:.85em}svg{background:#fff;border:1px solid #e1e4e8}";

pub fn write(out: &mut dyn Write, r: &Report) -> io::Result<()> {
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
    writeln!(out, "<h2>Findings</h2>")?;
    if r.findings.is_empty() {
        writeln!(out, "<p>No findings.</p>")?;
    } else {
        writeln!(
            out,
            "<table><tr><th>#</th><th>Severity</th><th>Rule</th><th>Finding</th><th>Count</th></tr>"
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
        for (n, f) in r.findings.iter().enumerate() {
            finding(out, n + 1, f)?;
        }
    }
    super::calls::html_section(out, r.calls, r.calls_by_verb)?;
    writeln!(out, "<h2>Environment</h2>")?;
    writeln!(
        out,
        "<table><tr><th>File</th><th>Format</th><th>MQ</th><th>Platform</th><th>Host</th><th>From</th><th>To</th><th>Events</th><th>Problems</th></tr>"
    )?;
    for i in r.inputs {
        let o = |v: &Option<String>| esc(v.as_deref().unwrap_or(""));
        writeln!(
            out,
            "<tr><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td></tr>",
            esc(&i.path),
            esc(i.format.as_str()),
            o(&i.mq_version),
            o(&i.platform),
            o(&i.host),
            i.first.as_ref().map(rfc3339).unwrap_or_default(),
            i.last.as_ref().map(rfc3339).unwrap_or_default(),
            thousands(i.events),
            i.problem_count
        )?;
    }
    writeln!(out, "</table>")?;
    writeln!(out, "</body></html>")?;
    out.flush()
}

fn badge(s: Severity) -> String {
    format!("<span class=\"sev {0}\">{0}</span>", s.as_str())
}

fn finding(out: &mut dyn Write, n: usize, f: &Finding) -> io::Result<()> {
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
    writeln!(out, "<p>{}</p>", facts.join(" · "))?;
    if let Some(c) = &f.chart {
        chart(out, c)?;
    }
    writeln!(out, "<table><tr><th>Metric</th><th>Value</th></tr>")?;
    for (k, v) in &f.metrics.0 {
        writeln!(
            out,
            "<tr><td>{}</td><td>{}</td></tr>",
            esc(k),
            esc(&v.display_named(k))
        )?;
    }
    writeln!(out, "</table>")?;
    if !f.breakdown.is_empty() {
        writeln!(out, "<table><tr><th>Occurrences</th><th>Detail</th></tr>")?;
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

/// A scatter plot with the fitted line, axes and labels, in SVG.
fn chart(out: &mut dyn Write, c: &Chart) -> io::Result<()> {
    if c.points.len() < 2 {
        return Ok(());
    }
    let (w, h, l, r, t, b) = (640.0, 260.0, 60.0, 15.0, 15.0, 40.0);
    let xmax_data = c
        .points
        .iter()
        .map(|p| p.0)
        .fold(0.0f64, f64::max)
        .max(1e-9);
    let ymax_data = c
        .points
        .iter()
        .map(|p| p.1)
        .fold(0.0f64, f64::max)
        .max(1e-9);
    let (xstep, xmax) = nice_axis(xmax_data);
    let (ystep, ymax) = nice_axis(ymax_data);
    let sx = |x: f64| l + x / xmax * (w - l - r);
    let sy = |y: f64| t + (1.0 - (y / ymax).clamp(0.0, 1.0)) * (h - t - b);
    writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" role=\"img\" aria-label=\"{} over {}\">",
        esc(&c.y_label),
        esc(&c.x_label)
    )?;
    // Axes and ticks.
    writeln!(
        out,
        "<line x1=\"{l}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#888\"/><line x1=\"{l}\" y1=\"{t}\" x2=\"{l}\" y2=\"{}\" stroke=\"#888\"/>",
        h - b,
        w - r,
        h - b,
        h - b
    )?;
    let mut v = 0.0;
    while v <= ymax + ystep / 2.0 {
        writeln!(
            out,
            "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"10\" text-anchor=\"end\">{}</text><line x1=\"{l}\" y1=\"{:.1}\" x2=\"{}\" y2=\"{:.1}\" stroke=\"#eee\"/>",
            l - 4.0,
            sy(v) + 3.0,
            tick(v),
            sy(v),
            w - r,
            sy(v)
        )?;
        v += ystep;
    }
    let mut v = 0.0;
    while v <= xmax + xstep / 2.0 {
        writeln!(
            out,
            "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"10\" text-anchor=\"middle\">{}</text>",
            sx(v),
            h - b + 14.0,
            tick(v)
        )?;
        v += xstep;
    }
    writeln!(
        out,
        "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"11\" text-anchor=\"middle\">{}</text>",
        (l + w - r) / 2.0,
        h - 6.0,
        esc(&c.x_label)
    )?;
    writeln!(
        out,
        "<text x=\"12\" y=\"{:.1}\" font-size=\"11\" text-anchor=\"middle\" transform=\"rotate(-90 12 {:.1})\">{}</text>",
        (t + h - b) / 2.0,
        (t + h - b) / 2.0,
        esc(&c.y_label)
    )?;
    if let Some((a, s)) = c.fit {
        writeln!(
            out,
            "<line x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"#c62828\" stroke-dasharray=\"5 3\"/>",
            sx(0.0),
            sy(a),
            sx(xmax_data),
            sy(a + s * xmax_data)
        )?;
    }
    let mut pts = String::new();
    for (x, y) in &c.points {
        pts.push_str(&format!(
            "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"2.5\" fill=\"#1e6fd9\"/>",
            sx(*x),
            sy(*y)
        ));
    }
    writeln!(out, "{pts}")?;
    writeln!(out, "</svg>")
}

/// A round step (1, 2 or 5 times a power of ten) giving about four
/// intervals, and the axis end it implies.
fn nice_axis(max: f64) -> (f64, f64) {
    let raw = max / 4.0;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw * (1.0 - 1e-9))
        .unwrap_or(10.0 * mag);
    (step, (max / step - 1e-9).ceil() * step)
}

fn tick(v: f64) -> String {
    let t = format!("{:.3}", v);
    t.trim_end_matches('0').trim_end_matches('.').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes() {
        assert_eq!(
            esc("<a href=\"x\">&'"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
    }
}
