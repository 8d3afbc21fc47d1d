//! The `calls` verb's output: an aligned text table, CSV with the JSON's
//! column names, and the contract's JSON document.

use super::{By, Row};
use crate::mqrc;
use std::io::{self, Write};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CallsFormat {
    Text,
    Csv,
    Json,
}

impl CallsFormat {
    /// From an output file's extension (`-o calls.csv`).
    pub fn from_path(p: &std::path::Path) -> Option<CallsFormat> {
        match p.extension()?.to_str()?.to_ascii_lowercase().as_str() {
            "csv" => Some(CallsFormat::Csv),
            "json" => Some(CallsFormat::Json),
            "txt" | "text" => Some(CallsFormat::Text),
            _ => None,
        }
    }
}

pub fn write(out: &mut dyn Write, rows: &[Row], by: By, f: CallsFormat) -> io::Result<()> {
    match f {
        CallsFormat::Text => write_text(out, rows, by),
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
    serde_json::to_writer_pretty(&mut crate::text::JsonControlEscaper::new(&mut *out), &v)?;
    out.write_all(b"\n")
}

/// A duration for people: `850 µs`, `12.3 ms`, `4.021 s`.
pub fn human_us(us: u64) -> String {
    let mut b = Vec::new();
    crate::timefmt::push_human_us(&mut b, us);
    String::from_utf8(b).unwrap_or_default()
}

fn opt_human(v: Option<u64>) -> String {
    v.map(human_us).unwrap_or_else(|| "-".into())
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

fn write_text(out: &mut dyn Write, rows: &[Row], by: By) -> io::Result<()> {
    if rows.is_empty() {
        return writeln!(out, "No MQI calls found in the traces.");
    }
    let mut head: Vec<&str> = vec!["PROCESS"];
    match by {
        By::Thread => head.push("TID"),
        By::Connection => head.push("CONNECTION"),
        _ => {}
    }
    head.extend([
        "VERB",
        "CALLS",
        "OK",
        "WARN",
        "FAILED",
        "OPEN",
        "TOTAL",
        "MEAN",
        "P50",
        "P95",
        "MAX",
        "SLOWEST AT",
        "REASONS",
    ]);
    let mut table: Vec<Vec<String>> = vec![head.iter().map(|s| s.to_string()).collect()];
    for r in rows {
        let s = &r.stats;
        let mut c = vec![process_text(r)];
        match by {
            By::Thread => c.push(r.key.tid.map(|t| t.to_string()).unwrap_or_default()),
            By::Connection => c.push(r.key.ident.clone().unwrap_or_default()),
            _ => {}
        }
        c.push(r.key.verb.to_string());
        for n in [s.calls, s.ok, s.warnings, s.failed, s.open] {
            c.push(n.to_string());
        }
        let timed = r.timed() > 0;
        c.push(if timed {
            human_us(s.total_us)
        } else {
            "-".into()
        });
        c.push(opt_human(r.mean_us()));
        c.push(opt_human(r.p50_us()));
        c.push(opt_human(r.p95_us()));
        c.push(opt_human(s.max_us));
        c.push(
            s.max_at
                .as_ref()
                .map(|(p, l)| format!("{p}:{l}"))
                .unwrap_or_else(|| "-".into()),
        );
        c.push(reasons_text(r));
        table.push(c);
    }
    let cols = table[0].len();
    let width: Vec<usize> = (0..cols)
        .map(|i| {
            table
                .iter()
                .map(|r| r[i].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    // Text columns left, numbers right.
    let text_col =
        |i: usize| i == 0 || head[i] == "VERB" || head[i] == "CONNECTION" || i + 2 >= cols;
    for row in &table {
        let mut line = String::new();
        for (i, cell) in row.iter().enumerate() {
            if i > 0 {
                line.push_str("  ");
            }
            let pad = width[i] - cell.chars().count();
            if text_col(i) {
                line.push_str(cell);
                if i + 1 < cols {
                    line.extend(std::iter::repeat_n(' ', pad));
                }
            } else {
                line.extend(std::iter::repeat_n(' ', pad));
                line.push_str(cell);
            }
        }
        writeln!(out, "{}", line.trim_end())?;
    }
    Ok(())
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
