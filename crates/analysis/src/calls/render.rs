//! The `calls` verb's output: a text table that fits the width (see
//! `table`), CSV with the JSON's column names, the contract's JSON
//! document, and a Markdown table.

use super::table::Col;
use super::{By, Row};
use crate::mqrc;
use std::io::{self, Write};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CallsFormat {
    Text,
    Csv,
    Json,
    Markdown,
}

impl CallsFormat {
    /// From an output file's extension (`-o calls.csv`).
    pub fn from_path(p: &std::path::Path) -> Option<CallsFormat> {
        match p.extension()?.to_str()?.to_ascii_lowercase().as_str() {
            "csv" => Some(CallsFormat::Csv),
            "json" => Some(CallsFormat::Json),
            "md" | "markdown" => Some(CallsFormat::Markdown),
            "txt" | "text" => Some(CallsFormat::Text),
            _ => None,
        }
    }
}

/// `width`: the text table's (the others have no width).
pub fn write(
    out: &mut dyn Write,
    rows: &[Row],
    by: By,
    f: CallsFormat,
    width: usize,
) -> io::Result<()> {
    match f {
        CallsFormat::Text => write_text(out, rows, by, width),
        CallsFormat::Markdown => write_markdown(out, rows, by),
        CallsFormat::Csv => write_csv(out, rows, by),
        CallsFormat::Json => write_json(out, rows),
    }
}

pub fn write_json(out: &mut dyn Write, rows: &[Row]) -> io::Result<()> {
    let v = serde_json::json!({
        "schema_version": 1,
        "rows": rows.iter().map(Row::to_json).collect::<Vec<_>>(),
    });
    // Raw DEL and C1 from inputs leave as `\u00XX` escapes.
    let mut w = crate::text::JsonControlEscaper::new(&mut *out);
    serde_json::to_writer_pretty(&mut w, &v)?;
    w.finish()?;
    out.write_all(b"\n")
}

/// A duration for people: `850 µs`, `12.3 ms`, `4.021 s`.
pub fn human_us(us: u64) -> String {
    let mut b = Vec::new();
    crate::timefmt::push_human_us(&mut b, us);
    String::from_utf8(b).unwrap_or_default()
}

/// `2033 NO_MSG_AVAILABLE ×4` style list, most frequent first.
pub fn reasons_text(row: &Row) -> String {
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

/// `mqhost01:622742 amqrmppa` (host and pid; the trace file's name when
/// it names no host), or `(all)` when grouped by verb.
pub fn process_text(row: &Row) -> String {
    let place = match (&row.host, &row.trace) {
        (Some(h), _) => h.clone(),
        (None, Some(t)) => t.rsplit(['/', '\\', '!']).next().unwrap_or(t).to_string(),
        (None, None) => String::new(),
    };
    let at = if place.is_empty() {
        String::new()
    } else {
        format!("{place}:")
    };
    match (row.key.pid, &row.process) {
        (Some(p), Some(n)) => format!("{at}{p} {n}"),
        (Some(p), None) => format!("{at}{p}"),
        (None, _) => "(all)".into(),
    }
}

/// The text table's columns for a grouping, in order.
pub fn text_columns(by: By) -> Vec<Col> {
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

fn write_text(out: &mut dyn Write, rows: &[Row], by: By, width: usize) -> io::Result<()> {
    if rows.is_empty() {
        return writeln!(out, "No MQI calls found in the traces.");
    }
    let rows: Vec<&Row> = rows.iter().collect();
    super::table::write(
        out,
        &rows,
        &text_columns(by),
        width,
        "`--format csv` or `--format json` has every column",
    )
}

/// A Markdown table with every column (its lines are as long as they
/// need to be: Markdown viewers wrap or scroll them).
fn write_markdown(out: &mut dyn Write, rows: &[Row], by: By) -> io::Result<()> {
    writeln!(out, "# MQI calls")?;
    writeln!(out)?;
    if rows.is_empty() {
        return writeln!(out, "No MQI calls found in the traces.");
    }
    let cols = text_columns(by);
    let head: Vec<String> = cols.iter().map(|c| md_head(*c)).collect();
    writeln!(out, "| {} |", head.join(" | "))?;
    let rule: Vec<&str> = cols
        .iter()
        .map(|c| if c.left() { "---" } else { "---:" })
        .collect();
    writeln!(out, "|{}|", rule.join("|"))?;
    for r in rows {
        let cells: Vec<String> = cols
            .iter()
            .map(|c| {
                let v = c.cell(r);
                if *c == Col::SlowestAt && v != "-" {
                    md_code(&v)
                } else {
                    md_text(&v)
                }
            })
            .collect();
        writeln!(out, "| {} |", cells.join(" | "))?;
    }
    Ok(())
}

fn md_head(c: Col) -> String {
    let h = c.head();
    let mut s: String = h[..1].to_string();
    s.push_str(&h[1..].to_ascii_lowercase());
    match c {
        Col::P50 | Col::P95 => h.to_ascii_lowercase(),
        Col::Ok => "OK".into(),
        _ => s,
    }
}

/// A cell's text with Markdown's own characters escaped, so that names
/// from the inputs cannot open links, emphasis or new cells.
fn md_text(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '\\' | '|' | '`' | '*' | '[' | ']' | '<' | '>' => {
                o.push('\\');
                o.push(ch);
            }
            '\n' | '\r' => o.push(' '),
            c => o.push(c),
        }
    }
    o
}

/// A place as code: a fence longer than any run of backticks inside it.
fn md_code(s: &str) -> String {
    let s = s.replace(['\n', '\r'], " ").replace('|', "\\|");
    let mut longest = 0;
    let mut run = 0;
    for ch in s.chars() {
        run = if ch == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat(longest + 1);
    let pad = if s.starts_with('`') || s.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{s}{pad}{fence}")
}

fn csv_cell(s: &str) -> String {
    // No cell a spreadsheet runs as a formula.
    let s = &*crate::text::csv_safe(s);
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

fn write_csv(out: &mut dyn Write, rows: &[Row], by: By) -> io::Result<()> {
    let mut head = vec!["host", "trace", "pid", "process"];
    match by {
        By::Thread => head.push("tid"),
        By::Connection => head.push("ident"),
        _ => {}
    }
    head.extend([
        "verb", "calls", "ok", "warnings", "failed", "open", "total_us", "mean_us", "p50_us",
        "p95_us", "max_us", "max_at", "reasons",
    ]);
    writeln!(out, "{}", head.join(","))?;
    let opt = |v: Option<u64>| v.map(|v| v.to_string()).unwrap_or_default();
    for r in rows {
        let s = &r.stats;
        let mut c = vec![
            r.host.clone().unwrap_or_default(),
            r.trace.clone().unwrap_or_default(),
            opt(r.key.pid.map(u64::from)),
            r.process.clone().unwrap_or_default(),
        ];
        match by {
            By::Thread => c.push(opt(r.key.tid.map(u64::from))),
            By::Connection => c.push(r.key.ident.clone().unwrap_or_default()),
            _ => {}
        }
        c.push(r.key.verb.to_string());
        for n in [s.calls, s.ok, s.warnings, s.failed, s.open, s.total_us] {
            c.push(n.to_string());
        }
        c.push(opt(r.mean_us()));
        c.push(opt(r.p50_us()));
        c.push(opt(r.p95_us()));
        c.push(opt(s.max_us));
        // `path:line`, as the text table and editors write a location.
        c.push(
            s.max_at
                .as_ref()
                .map(|(p, l)| format!("{p}:{l}"))
                .unwrap_or_default(),
        );
        // `2033=4;2085=1`: the JSON map, flattened.
        c.push(
            s.reasons
                .iter()
                .map(|(k, v)| format!("{k}={}", v.count))
                .collect::<Vec<_>>()
                .join(";"),
        );
        let line: Vec<String> = c.iter().map(|x| csv_cell(x)).collect();
        writeln!(out, "{}", line.join(","))?;
    }
    Ok(())
}
