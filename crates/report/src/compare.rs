//! `mqdiag compare GOOD BAD`: what changed between two captures of one
//! system, read as two runs. The verb builds a `Comparison`; this module
//! writes it as text, JSON (`docs/schema/compare.json`), Markdown or HTML.

use crate::escape::html as esc;
use crate::layout::wrap;
use mqdiag_model::findings::{Chart, Finding, Style};
use mqdiag_model::problem::Severity;
use serde::Serialize;
use std::io::{self, Write};

/// Output formats of `compare`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompareFormat {
    Text,
    Json,
    Markdown,
    Html,
}

impl CompareFormat {
    /// The `-o` extensions and the format each asks for.
    pub const EXTENSIONS: &'static [(&'static str, CompareFormat)] = &[
        ("txt", CompareFormat::Text),
        ("text", CompareFormat::Text),
        ("json", CompareFormat::Json),
        ("md", CompareFormat::Markdown),
        ("markdown", CompareFormat::Markdown),
        ("html", CompareFormat::Html),
        ("htm", CompareFormat::Html),
    ];
}

/// One capture as read.
#[derive(Debug, Serialize)]
pub struct Capture {
    /// As given on the command line.
    pub path: String,
    pub files: usize,
    pub events: u64,
    /// The earliest and latest event.
    pub first: Option<String>,
    pub last: Option<String>,
    /// Hours between them (rates are per hour of this span; at least one
    /// second).
    pub hours: f64,
    pub findings: usize,
    /// The `--since`/`--until` window as read on this capture (a time of
    /// day is on the capture's own first day); `null` without one.
    pub window: Option<String>,
    /// What the run budget folded in this capture (reading notes).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub folded: Vec<String>,
}

/// A finding present in both captures whose count or severity differs.
#[derive(Debug, Serialize)]
pub struct Changed {
    /// Its fingerprint within the capture (`Comparison` says how).
    pub fingerprint: String,
    pub rule: String,
    pub title: String,
    pub count: Pair<u64>,
    pub severity: Pair<Severity>,
}

#[derive(Debug, Clone, Copy, Serialize)]
pub struct Pair<T> {
    pub good: T,
    pub bad: T,
}

/// MQI call statistics of one side.
#[derive(Debug, Clone, Serialize)]
pub struct CallStats {
    pub calls: u64,
    pub failed: u64,
    /// `failed / calls`.
    pub failure_rate: f64,
    pub p50_us: Option<u64>,
    pub p95_us: Option<u64>,
    pub max_us: Option<u64>,
}

/// One process (by host and program name: pids differ between captures)
/// and verb, before and after; `process` is `null` on the per-verb rows.
#[derive(Debug, Serialize)]
pub struct CallChange {
    pub host: Option<String>,
    pub process: Option<String>,
    pub verb: String,
    pub good: Option<CallStats>,
    pub bad: Option<CallStats>,
}

/// A message id's occurrences and rate per hour on both sides.
#[derive(Debug, Serialize)]
pub struct MessageChange {
    pub message_id: String,
    pub count: Pair<u64>,
    pub per_hour: Pair<f64>,
}

/// Everything the compare report shows.
#[derive(Debug, Serialize)]
pub struct Comparison {
    pub schema_version: u32,
    pub tool: Tool,
    pub good: Capture,
    pub bad: Capture,
    pub findings: FindingChanges,
    /// Per verb (all processes), then per process and verb.
    pub calls: Vec<CallChange>,
    /// The message ids whose rate changed most, largest change first.
    pub messages: Vec<MessageChange>,
    /// Names and addresses replaced by tokens, one mapping for both sides.
    pub redacted: bool,
    /// Series to see side by side (the HTML report draws them).
    #[serde(skip)]
    pub charts: Vec<ChartPair>,
}

/// One chart of each capture, drawn side by side on one value scale.
#[derive(Debug)]
pub struct ChartPair {
    pub title: String,
    pub good: Option<Chart>,
    pub bad: Option<Chart>,
}

#[derive(Debug, Serialize)]
pub struct Tool {
    pub name: &'static str,
    pub version: &'static str,
}

#[derive(Debug, Serialize)]
pub struct FindingChanges {
    pub new: Vec<Finding>,
    pub gone: Vec<Finding>,
    pub changed: Vec<Changed>,
}

pub fn write(out: &mut dyn Write, c: &Comparison, f: CompareFormat) -> io::Result<()> {
    match f {
        CompareFormat::Json => {
            serde_json::to_writer_pretty(&mut *out, c)?;
            writeln!(out)
        }
        CompareFormat::Text => text(&mut mqdiag_model::text::ControlEscaper(out), c),
        CompareFormat::Markdown => markdown(&mut mqdiag_model::text::ControlEscaper(out), c),
        CompareFormat::Html => html(out, c),
    }
}

fn us(v: Option<u64>) -> String {
    v.map(mqdiag_model::timefmt::human_us)
        .unwrap_or_else(|| "-".into())
}

fn side(s: &Option<CallStats>, pick: impl Fn(&CallStats) -> String) -> String {
    s.as_ref().map(pick).unwrap_or_else(|| "-".into())
}

/// The cells of a calls row: who, verb, then before → after columns.
fn call_cells(c: &CallChange) -> Vec<String> {
    let who = match (&c.host, &c.process) {
        (_, None) => "(all)".to_string(),
        (Some(h), Some(p)) => format!("{h} {p}"),
        (None, Some(p)) => p.clone(),
    };
    let arrow =
        |f: &dyn Fn(&CallStats) -> String| format!("{} → {}", side(&c.good, f), side(&c.bad, f));
    vec![
        who,
        c.verb.clone(),
        arrow(&|s| s.calls.to_string()),
        arrow(&|s| format!("{:.1} %", s.failure_rate * 100.0)),
        arrow(&|s| us(s.p50_us)),
        arrow(&|s| us(s.p95_us)),
        arrow(&|s| us(s.max_us)),
    ]
}

const CALL_HEAD: [&str; 7] = ["PROCESS", "VERB", "CALLS", "FAILED", "P50", "P95", "MAX"];

fn rate(v: f64) -> String {
    if v >= 10.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.2}")
    }
}

fn capture_line(name: &str, c: &Capture) -> String {
    let window = c
        .window
        .as_deref()
        .map(|w| format!(", time window {w}"))
        .unwrap_or_default();
    format!(
        "{name}: {} ({} files, {} events, {} .. {}, {} findings{window})",
        c.path,
        c.files,
        c.events,
        c.first.as_deref().unwrap_or("-"),
        c.last.as_deref().unwrap_or("-"),
        c.findings
    )
}

/// How the comparison was made, for every format.
fn settings_line(c: &Comparison) -> String {
    let window = if c.good.window.is_some() || c.bad.window.is_some() {
        "events inside the time window only"
    } else {
        "all of each capture (no --since/--until)"
    };
    let redacted = if c.redacted {
        "redacted (one mapping for both)"
    } else {
        "not redacted"
    };
    format!("{window}; {redacted}")
}

/// Columns the text calls table keeps within `WIDTH`; P50 and MAX go to a
/// line under the row.
const NARROW: [usize; 5] = [0, 1, 2, 3, 5];
/// The text report's width.
const WIDTH: usize = 80;
/// The widest PROCESS cell in the narrow table (longer ones are cut).
const PROCESS_W: usize = 20;

fn cut(s: &str, w: usize) -> String {
    if s.chars().count() <= w {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(w - 1).collect();
        t.push('…');
        t
    }
}

/// The calls table as text lines: every column when they fit in `WIDTH`,
/// else PROCESS, VERB, CALLS, FAILED and P95 with P50 and MAX under.
fn call_lines(calls: &[CallChange]) -> Vec<String> {
    let rows: Vec<Vec<String>> = calls.iter().map(call_cells).collect();
    let widths = |rows: &[Vec<String>], cols: &[usize]| -> Vec<usize> {
        cols.iter()
            .map(|&i| {
                rows.iter()
                    .map(|r| r[i].chars().count())
                    .chain([CALL_HEAD[i].len()])
                    .max()
                    .unwrap_or(0)
            })
            .collect()
    };
    let line = |cells: Vec<&str>, w: &[usize]| {
        let v: Vec<String> = cells
            .iter()
            .zip(w)
            .map(|(s, w)| format!("{s:<w$}"))
            .collect();
        format!("  {}", v.join("  ").trim_end())
    };
    let all: Vec<usize> = (0..CALL_HEAD.len()).collect();
    let w = widths(&rows, &all);
    if 2 + w.iter().sum::<usize>() + 2 * (w.len() - 1) <= WIDTH {
        let mut out = vec![line(CALL_HEAD.to_vec(), &w)];
        out.extend(
            rows.iter()
                .map(|r| line(r.iter().map(String::as_str).collect(), &w)),
        );
        return out;
    }
    let rows: Vec<Vec<String>> = rows
        .into_iter()
        .map(|mut r| {
            r[0] = cut(&r[0], PROCESS_W);
            r
        })
        .collect();
    let w = widths(&rows, &NARROW);
    let mut out = vec![line(NARROW.iter().map(|&i| CALL_HEAD[i]).collect(), &w)];
    for r in &rows {
        out.push(line(NARROW.iter().map(|&i| r[i].as_str()).collect(), &w));
        let under = format!("p50 {}, max {}", r[4], r[6]);
        out.extend(wrap(&under, WIDTH, &" ".repeat(6)));
    }
    out.push("  (P50 and MAX under each row; every column in --format json)".to_string());
    out
}

fn text(out: &mut dyn Write, c: &Comparison) -> io::Result<()> {
    let f = &c.findings;
    writeln!(
        out,
        "mqdiag {}: compare: {} new, {} gone, {} changed findings",
        c.tool.version,
        f.new.len(),
        f.gone.len(),
        f.changed.len()
    )?;
    for (name, cap) in [("good", &c.good), ("bad", &c.bad)] {
        for l in wrap(&capture_line(name, cap), 80, "  ") {
            writeln!(out, "{l}")?;
        }
    }
    for l in wrap(&settings_line(c), 80, "  ") {
        writeln!(out, "{l}")?;
    }
    for (head, list) in [("New findings", &f.new), ("Gone findings", &f.gone)] {
        writeln!(out, "\n{head}:")?;
        if list.is_empty() {
            writeln!(out, "  none")?;
        }
        for x in list {
            writeln!(
                out,
                "  {} {}, count {}",
                x.severity.as_str(),
                x.rule,
                x.count
            )?;
            for l in wrap(&x.title, 80, "    ") {
                writeln!(out, "{l}")?;
            }
        }
    }
    writeln!(out, "\nChanged findings:")?;
    if f.changed.is_empty() {
        writeln!(out, "  none")?;
    }
    for x in &f.changed {
        writeln!(
            out,
            "  {}: count {} → {}, severity {} → {}",
            x.rule,
            x.count.good,
            x.count.bad,
            x.severity.good.as_str(),
            x.severity.bad.as_str()
        )?;
        for l in wrap(&x.title, 80, "    ") {
            writeln!(out, "{l}")?;
        }
    }
    writeln!(out, "\nMQI calls (good → bad):")?;
    if c.calls.is_empty() {
        writeln!(out, "  no MQI calls in the traces")?;
    } else {
        for l in call_lines(&c.calls) {
            writeln!(out, "{l}")?;
        }
    }
    writeln!(
        out,
        "\nMessage ids whose rate changed most (per hour, good → bad):"
    )?;
    if c.messages.is_empty() {
        writeln!(out, "  none")?;
    }
    for m in &c.messages {
        writeln!(
            out,
            "  {:<10} {} → {} ({} → {} records)",
            m.message_id,
            rate(m.per_hour.good),
            rate(m.per_hour.bad),
            m.count.good,
            m.count.bad
        )?;
    }
    Ok(())
}

/// A Markdown table cell: pipes and line ends would break the table.
fn md(s: &str) -> String {
    s.replace('|', "\\|").replace(['\n', '\r'], " ")
}

fn markdown(out: &mut dyn Write, c: &Comparison) -> io::Result<()> {
    let f = &c.findings;
    writeln!(out, "# mqdiag compare\n")?;
    writeln!(out, "- {}", md(&capture_line("good", &c.good)))?;
    writeln!(out, "- {}", md(&capture_line("bad", &c.bad)))?;
    writeln!(out, "- {}\n", md(&settings_line(c)))?;
    for (head, list) in [("New findings", &f.new), ("Gone findings", &f.gone)] {
        writeln!(out, "## {head}\n")?;
        if list.is_empty() {
            writeln!(out, "None.\n")?;
            continue;
        }
        writeln!(
            out,
            "| severity | rule | title | count |\n|---|---|---|---|"
        )?;
        for x in list {
            writeln!(
                out,
                "| {} | `{}` | {} | {} |",
                x.severity.as_str(),
                x.rule,
                md(&x.title),
                x.count
            )?;
        }
        writeln!(out)?;
    }
    writeln!(out, "## Changed findings\n")?;
    if f.changed.is_empty() {
        writeln!(out, "None.\n")?;
    } else {
        writeln!(
            out,
            "| rule | title | count | severity |\n|---|---|---|---|"
        )?;
        for x in &f.changed {
            writeln!(
                out,
                "| `{}` | {} | {} → {} | {} → {} |",
                x.rule,
                md(&x.title),
                x.count.good,
                x.count.bad,
                x.severity.good.as_str(),
                x.severity.bad.as_str()
            )?;
        }
        writeln!(out)?;
    }
    writeln!(out, "## MQI calls (good → bad)\n")?;
    if c.calls.is_empty() {
        writeln!(out, "No MQI calls in the traces.\n")?;
    } else {
        writeln!(out, "| {} |", CALL_HEAD.join(" | ").to_lowercase())?;
        writeln!(out, "|{}", "---|".repeat(CALL_HEAD.len()))?;
        for r in c.calls.iter().map(call_cells) {
            let cells: Vec<String> = r.iter().map(|s| md(s)).collect();
            writeln!(out, "| {} |", cells.join(" | "))?;
        }
        writeln!(out)?;
    }
    writeln!(out, "## Message ids whose rate changed most\n")?;
    if c.messages.is_empty() {
        writeln!(out, "None.")?;
    } else {
        writeln!(out, "| message | per hour | records |\n|---|---|---|")?;
        for m in &c.messages {
            writeln!(
                out,
                "| {} | {} → {} | {} → {} |",
                md(&m.message_id),
                rate(m.per_hour.good),
                rate(m.per_hour.bad),
                m.count.good,
                m.count.bad
            )?;
        }
    }
    Ok(())
}

/// Each pair as two figures side by side, on one value scale; a side
/// without the series says so.
fn pairs(out: &mut dyn Write, pairs: &[ChartPair]) -> io::Result<()> {
    if pairs.is_empty() {
        return Ok(());
    }
    writeln!(out, "<h2>Side by side</h2>")?;
    for p in pairs {
        // One scale only when the bars count over equal spans: errors per
        // hour beside errors per minute on one scale would mislead.
        let comparable = match (&p.good, &p.bad) {
            (Some(g), Some(b)) => {
                g.unit == b.unit && (g.style != Style::Bars || g.bucket_s == b.bucket_s)
            }
            _ => false,
        };
        let floor = if comparable {
            [&p.good, &p.bad]
                .into_iter()
                .flatten()
                .map(super::charts::svg::data_max)
                .fold(0.0, f64::max)
        } else {
            0.0
        };
        writeln!(out, "<h3>{}</h3><div class=\"pair\">", esc(&p.title))?;
        for (name, c) in [("good", &p.good), ("bad", &p.bad)] {
            let svg = c
                .as_ref()
                .map(|c| super::charts::svg::chart_scaled(c, floor))
                .unwrap_or_default();
            if svg.is_empty() {
                writeln!(
                    out,
                    "<figure><figcaption>{name}</figcaption><p>None in this capture.</p></figure>"
                )?;
            } else {
                writeln!(out, "<figure><figcaption>{name}</figcaption>{svg}</figure>")?;
            }
        }
        writeln!(out, "</div>")?;
    }
    Ok(())
}

fn table(out: &mut dyn Write, head: &[&str], rows: &[Vec<String>]) -> io::Result<()> {
    write!(out, "<table><tr>")?;
    for h in head {
        write!(out, "<th>{}</th>", esc(h))?;
    }
    writeln!(out, "</tr>")?;
    for r in rows {
        write!(out, "<tr>")?;
        for c in r {
            write!(out, "<td>{}</td>", esc(c))?;
        }
        writeln!(out, "</tr>")?;
    }
    writeln!(out, "</table>")
}

fn html(out: &mut dyn Write, c: &Comparison) -> io::Result<()> {
    let f = &c.findings;
    writeln!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <title>mqdiag compare</title><style>\
         body{{font-family:system-ui,sans-serif;margin:1.5em;max-width:70em}}\
         table{{border-collapse:collapse;margin:.5em 0 1.5em}}\
         td,th{{border:1px solid #ccc;padding:.2em .5em;text-align:left;vertical-align:top}}\
         th{{background:#f3f3f3}}\
         .pair{{display:flex;gap:1em;flex-wrap:wrap}}.pair figure{{flex:1 1 28em;margin:0;min-width:0}}\
         .pair figcaption{{font-weight:600}}\
         svg.chart{{width:100%;height:auto;font-size:11px;font-family:inherit}}\
         svg .grid{{stroke:#e6e6e6}}svg .axis{{stroke:#888;fill:none}}svg .axis-title{{font-size:12px;fill:#444}}\
         svg .chart-title{{font-size:14px;font-weight:600}}svg .ref{{fill:#444}}</style></head><body>"
    )?;
    writeln!(out, "<h1>mqdiag compare</h1><ul>")?;
    for (n, cap) in [("good", &c.good), ("bad", &c.bad)] {
        writeln!(out, "<li>{}</li>", esc(&capture_line(n, cap)))?;
    }
    writeln!(out, "<li>{}</li>", esc(&settings_line(c)))?;
    writeln!(out, "</ul>")?;
    pairs(out, &c.charts)?;
    for (head, list) in [("New findings", &f.new), ("Gone findings", &f.gone)] {
        writeln!(out, "<h2>{head}</h2>")?;
        let rows: Vec<Vec<String>> = list
            .iter()
            .map(|x| {
                vec![
                    x.severity.as_str().to_string(),
                    x.rule.clone(),
                    x.title.clone(),
                    x.count.to_string(),
                ]
            })
            .collect();
        table(out, &["severity", "rule", "title", "count"], &rows)?;
    }
    writeln!(out, "<h2>Changed findings</h2>")?;
    let rows: Vec<Vec<String>> = f
        .changed
        .iter()
        .map(|x| {
            vec![
                x.rule.clone(),
                x.title.clone(),
                format!("{} → {}", x.count.good, x.count.bad),
                format!("{} → {}", x.severity.good.as_str(), x.severity.bad.as_str()),
            ]
        })
        .collect();
    table(out, &["rule", "title", "count", "severity"], &rows)?;
    writeln!(out, "<h2>MQI calls (good → bad)</h2>")?;
    let rows: Vec<Vec<String>> = c.calls.iter().map(call_cells).collect();
    let head: Vec<String> = CALL_HEAD.iter().map(|h| h.to_lowercase()).collect();
    let head: Vec<&str> = head.iter().map(String::as_str).collect();
    table(out, &head, &rows)?;
    writeln!(out, "<h2>Message ids whose rate changed most</h2>")?;
    let rows: Vec<Vec<String>> = c
        .messages
        .iter()
        .map(|m| {
            vec![
                m.message_id.clone(),
                format!("{} → {}", rate(m.per_hour.good), rate(m.per_hour.bad)),
                format!("{} → {}", m.count.good, m.count.bad),
            ]
        })
        .collect();
    table(out, &["message", "per hour", "records"], &rows)?;
    writeln!(out, "</body></html>")
}
