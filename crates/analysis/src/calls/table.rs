//! The calls table as text that fits a width (80 columns when the output
//! is not a terminal): columns are left out by priority, the slowest
//! call's place and the reasons move under their row, and a process name
//! that still does not fit is shortened (shown whole under its row). A
//! line under the table names what was left out; CSV and JSON have all.

use super::Row;
use super::render::{human_us, process_text, reasons_text};
use std::io::{self, Write};

/// A column of the text table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Col {
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
    pub fn head(self) -> &'static str {
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

    pub fn left(self) -> bool {
        matches!(
            self,
            Col::Process | Col::Connection | Col::Verb | Col::SlowestAt | Col::Reasons
        )
    }

    /// Order in which columns are left out when the table is too wide
    /// (first = first out); `None`: always shown.
    fn drop_rank(self) -> Option<u8> {
        Some(match self {
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
    fn under(self) -> bool {
        matches!(self, Col::SlowestAt | Col::Reasons)
    }

    pub fn cell(self, r: &Row) -> String {
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
            Col::SlowestAt => s
                .max_at
                .as_ref()
                .map(|(p, l)| format!("{p}:{l}"))
                .unwrap_or_else(|| "-".into()),
            Col::Reasons => reasons_text(r),
        }
    }
}

fn chars(s: &str) -> usize {
    s.chars().count()
}

/// Writes `rows` with `cols` (in that order) in at most `width` columns
/// (never fewer than 40). `hint` ends the line naming what was left out
/// (where the full table is).
pub fn write(
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
        under = shown.iter().copied().filter(|&i| cols[i].under()).collect();
        shown.retain(|i| !under.contains(i));
        let mut rank: Vec<(u8, usize)> = shown
            .iter()
            .filter_map(|&i| cols[i].drop_rank().map(|k| (k, i)))
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

/// `s` cut to `n` characters, ending in `…` when cut.
fn clip(s: &str, n: usize) -> String {
    if chars(s) <= n {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(n.saturating_sub(1)).collect();
        t.push('…');
        t
    }
}

/// Word-wraps `s` to `width`: the first line after `first`, the others
/// after `rest`; a word longer than the room (a path) is cut into pieces.
fn fold_words(s: &str, width: usize, first: &str, rest: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut cur = first.to_string();
    let mut empty = true;
    for word in s.split_whitespace() {
        let mut word: Vec<char> = word.chars().collect();
        loop {
            let room = width.saturating_sub(chars(&cur) + usize::from(!empty));
            if word.len() <= room {
                if !empty {
                    cur.push(' ');
                }
                cur.extend(word.iter());
                empty = false;
                break;
            }
            let fresh = width.saturating_sub(chars(rest)).max(1);
            if !empty && word.len() <= fresh {
                lines.push(std::mem::replace(&mut cur, rest.to_string()));
                empty = true;
                continue;
            }
            // Longer than a whole line: fill this one and go on.
            let take = if empty { room.max(1) } else { 0 };
            if take == 0 {
                lines.push(std::mem::replace(&mut cur, rest.to_string()));
                empty = true;
                continue;
            }
            cur.extend(word.drain(..take.min(word.len())));
            lines.push(std::mem::replace(&mut cur, rest.to_string()));
            empty = true;
            if word.is_empty() {
                break;
            }
        }
    }
    if !empty {
        lines.push(cur);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folding_keeps_every_character_within_the_width() {
        let path = format!("fixtures/{}/AMQ1.0.FMT:12", "d".repeat(100));
        let s = format!("slowest {path}");
        let l = fold_words(&s, 40, "    ", "            ");
        assert!(l.iter().all(|x| chars(x) <= 40), "{l:?}");
        let joined: String = l
            .iter()
            .map(|x| x.trim_start())
            .collect::<Vec<_>>()
            .join("");
        assert_eq!(joined, format!("slowest{path}"));
        assert_eq!(
            fold_words("a bb ccc", 80, "  ", "    "),
            vec!["  a bb ccc".to_string()]
        );
        assert_eq!(
            fold_words("aaaa bbbb cccc", 10, "", "  "),
            vec!["aaaa bbbb", "  cccc"]
        );
    }
}
