//! MQI calls in Markdown: `calls --format markdown` (every column) and
//! the Markdown report's section.

use super::cols::{Col, section_cells, verb_columns};
use super::section::{not_counted, pick, shown_note};
use crate::Report;
use crate::escape::md_code;
use mqdiag_analysis::calls::{By, Row};
use std::io::{self, Write};

/// A Markdown table with every column (its lines are as long as they
/// need to be: Markdown viewers wrap or scroll them).
pub(crate) fn write_all(out: &mut dyn Write, rows: &[Row], by: By) -> io::Result<()> {
    writeln!(out, "# MQI calls")?;
    writeln!(out)?;
    if rows.is_empty() {
        return writeln!(out, "No MQI calls found in the traces.");
    }
    let cols = verb_columns(by);
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
                    md_code(&v, true)
                } else {
                    verb_cell(&v)
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
fn verb_cell(s: &str) -> String {
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

/// A section cell: `|` and line breaks, which would end the cell or the
/// row, escaped.
fn section_cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

pub(crate) fn markdown_section(out: &mut dyn Write, r: &Report) -> io::Result<()> {
    if let Some(why) = not_counted(r) {
        writeln!(out)?;
        writeln!(out, "## MQI calls")?;
        writeln!(out)?;
        writeln!(out, "{why}")?;
        return Ok(());
    }
    let rows = r.calls;
    if rows.is_empty() {
        return Ok(());
    }
    let shown = pick(rows);
    writeln!(out)?;
    writeln!(out, "## MQI calls")?;
    writeln!(out)?;
    writeln!(out, "{}", shown_note(shown.len(), rows.len()))?;
    writeln!(out)?;
    writeln!(
        out,
        "| Process | Verb | Calls | Failed | Warn | Open | Total | p50 | p95 | Max | Slowest at | Reasons |"
    )?;
    writeln!(
        out,
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|"
    )?;
    for r in shown {
        let c = section_cells(r);
        let at = if c[10].is_empty() {
            String::new()
        } else {
            // A file name may hold `|` or backticks.
            md_code(&c[10], true)
        };
        writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            section_cell(&c[0]),
            c[1],
            c[2],
            c[3],
            c[4],
            c[5],
            c[6],
            c[7],
            c[8],
            c[9],
            at,
            section_cell(&c[11])
        )?;
    }
    Ok(())
}
