//! MQI calls as text that fits a width (80 columns when the output is
//! not a terminal): columns are left out by priority, the slowest call's
//! place and the reasons move under their row, and a process name that
//! still does not fit is shortened (shown whole under its row). A line
//! under the table names what was left out; CSV and JSON have all. The
//! `calls` verb writes every row; the text report's section the rows
//! `section::pick` chooses.

use super::cols::{Col, verb_columns};
use super::section::{not_counted, pick, shown_note};
use crate::Report;
use crate::layout::{clip, fold_words, wrap};
use mqdiag_analysis::calls::{By, Row};
use std::io::{self, Write};

/// Order in which columns are left out when the table is too wide
/// (first = first out); `None`: always shown.
fn drop_rank(c: Col) -> Option<u8> {
    Some(match c {
        Col::Mean => 0,
        Col::Ok => 1,
        Col::Open => 2,
        Col::P50 => 3,
        Col::Warn => 4,
        Col::Total => 5,
        Col::P95 => 6,
        _ => return None,
    })
}

/// Long free text, shown under its row when it does not fit.
fn goes_under(c: Col) -> bool {
    matches!(c, Col::SlowestAt | Col::Reasons)
}

fn chars(s: &str) -> usize {
    s.chars().count()
}

/// `calls --format text`.
pub(crate) fn write_all(out: &mut dyn Write, rows: &[Row], by: By, width: usize) -> io::Result<()> {
    if rows.is_empty() {
        return writeln!(out, "No MQI calls found in the traces.");
    }
    let rows: Vec<&Row> = rows.iter().collect();
    table(
        out,
        &rows,
        &verb_columns(by),
        width,
        "`--format csv` or `--format json` has every column",
    )
}

pub(crate) fn text_section(out: &mut dyn Write, r: &Report) -> io::Result<()> {
    if let Some(why) = not_counted(r) {
        writeln!(out)?;
        writeln!(out, "{}", "-".repeat(80))?;
        for l in wrap(&format!("MQI calls: {why}"), 80, "") {
            writeln!(out, "{l}")?;
        }
        return Ok(());
    }
    let rows = r.calls;
    if rows.is_empty() {
        return Ok(());
    }
    let shown = pick(rows);
    writeln!(out)?;
    writeln!(out, "{}", "-".repeat(80))?;
    writeln!(out, "MQI calls: {}", shown_note(shown.len(), rows.len()))?;
    table(
        out,
        &shown,
        &[
            Col::Process,
            Col::Verb,
            Col::Calls,
            Col::Failed,
            Col::Warn,
            Col::Open,
            Col::Total,
            Col::P50,
            Col::P95,
            Col::Max,
            Col::SlowestAt,
            Col::Reasons,
        ],
        80,
        "`mqdiag calls --format csv` has every column",
    )
}

/// Writes `rows` with `cols` (in that order) in at most `width` columns
/// (never fewer than 40). `hint` ends the line naming what was left out
/// (where the full table is).
fn table(
    out: &mut dyn Write,
    rows: &[&Row],
    cols: &[Col],
    width: usize,
    hint: &str,
) -> io::Result<()> {
    let width = width.max(40);
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|r| cols.iter().map(|c| c.cell(r)).collect())
        .collect();
    let col_w: Vec<usize> = (0..cols.len())
        .map(|i| {
            cells
                .iter()
                .map(|r| chars(&r[i]))
                .chain([chars(cols[i].head())])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line_w = |shown: &[usize], w: &[usize]| -> usize {
        shown.iter().map(|&i| w[i]).sum::<usize>() + 2 * shown.len().saturating_sub(1)
    };
    let mut shown: Vec<usize> = (0..cols.len()).collect();
    let mut under: Vec<usize> = Vec::new();
    let mut dropped: Vec<usize> = Vec::new();
    if line_w(&shown, &col_w) > width {
        under = shown
            .iter()
            .copied()
            .filter(|&i| goes_under(cols[i]))
            .collect();
        shown.retain(|i| !under.contains(i));
        let mut rank: Vec<(u8, usize)> = shown
            .iter()
            .filter_map(|&i| drop_rank(cols[i]).map(|k| (k, i)))
            .collect();
        rank.sort();
        for (_, i) in rank {
            if line_w(&shown, &col_w) <= width {
                break;
            }
            shown.retain(|&j| j != i);
            dropped.push(i);
        }
    }
    // Still too wide: the process column gives way (never below 12).
    let mut w = col_w.clone();
    let process = cols.iter().position(|c| *c == Col::Process);
    if let Some(p) = process {
        let over = line_w(&shown, &w).saturating_sub(width);
        w[p] = w[p].saturating_sub(over).max(12).min(col_w[p]);
    }
    let pad_line = |row: &[String]| -> String {
        let mut line = String::new();
        for (k, &i) in shown.iter().enumerate() {
            if k > 0 {
                line.push_str("  ");
            }
            let cell = clip(&row[i], w[i]);
            let pad = " ".repeat(w[i] - chars(&cell));
            if cols[i].left() {
                line.push_str(&cell);
                line.push_str(&pad);
            } else {
                line.push_str(&pad);
                line.push_str(&cell);
            }
        }
        line.trim_end().to_string()
    };
    let head: Vec<String> = cols.iter().map(|c| c.head().to_string()).collect();
    writeln!(out, "{}", pad_line(&head))?;
    for row in &cells {
        writeln!(out, "{}", pad_line(row))?;
        if let Some(p) = process
            && chars(&row[p]) > w[p]
        {
            for l in fold_words(
                &format!("process {}", row[p]),
                width,
                "    ",
                "            ",
            ) {
                writeln!(out, "{l}")?;
            }
        }
        for &i in &under {
            let v = &row[i];
            if v.is_empty() || v == "-" {
                continue;
            }
            let label = match cols[i] {
                Col::SlowestAt => "slowest",
                _ => "reasons",
            };
            for l in fold_words(&format!("{label} {v}"), width, "    ", "            ") {
                writeln!(out, "{l}")?;
            }
        }
    }
    if !dropped.is_empty() {
        dropped.sort();
        let names: Vec<&str> = dropped.iter().map(|&i| cols[i].head()).collect();
        let note = format!(
            "Left out to fit {width} columns: {}; {hint}.",
            names.join(", ")
        );
        for l in fold_words(&note, width, "", "") {
            writeln!(out, "{l}")?;
        }
    }
    Ok(())
}
