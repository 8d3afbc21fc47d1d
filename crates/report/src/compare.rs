//! `mqdiag compare GOOD BAD`: what changed between two captures of one
//! system, read as two runs. The verb builds a `Comparison`; this module
//! writes it as text, JSON (`docs/schema/compare.json`), Markdown or HTML.

use super::html::esc;
use mqdiag_model::findings::Finding;
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
    v.map(mqdiag_analysis::calls::render::human_us)
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
    format!(
        "{name}: {} ({} files, {} events, {} .. {}, {} findings)",
        c.path,
        c.files,
        c.events,
        c.first.as_deref().unwrap_or("-"),
        c.last.as_deref().unwrap_or("-"),
        c.findings
    )
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
        for l in super::wrap(&capture_line(name, cap), 80, "  ") {
            writeln!(out, "{l}")?;
        }
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
            for l in super::wrap(&x.title, 80, "    ") {
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
        for l in super::wrap(&x.title, 80, "    ") {
            writeln!(out, "{l}")?;
        }
    }
    writeln!(out, "\nMQI calls (good → bad):")?;
    if c.calls.is_empty() {
        writeln!(out, "  no MQI calls in the traces")?;
    } else {
        let rows: Vec<Vec<String>> = c.calls.iter().map(call_cells).collect();
        let mut w: Vec<usize> = CALL_HEAD.iter().map(|h| h.chars().count()).collect();
        for r in &rows {
            for (i, cell) in r.iter().enumerate() {
                w[i] = w[i].max(cell.chars().count());
            }
        }
        let line = |cells: Vec<String>| {
            let v: Vec<String> = cells
                .iter()
                .enumerate()
                .map(|(i, s)| format!("{s:<w$}", w = w[i]))
                .collect();
            format!("  {}", v.join("  ").trim_end())
        };
        writeln!(
            out,
            "{}",
            line(CALL_HEAD.iter().map(|s| s.to_string()).collect())
        )?;
        for r in rows {
            writeln!(out, "{}", line(r))?;
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
    writeln!(out, "- {}\n", md(&capture_line("bad", &c.bad)))?;
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
         th{{background:#f3f3f3}}</style></head><body>"
    )?;
    writeln!(out, "<h1>mqdiag compare</h1><ul>")?;
    for (n, cap) in [("good", &c.good), ("bad", &c.bad)] {
        writeln!(out, "<li>{}</li>", esc(&capture_line(n, cap)))?;
    }
    writeln!(out, "</ul>")?;
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
