//! `calls --format csv`: every column, named as in the JSON.

use mqdiag_analysis::calls::{By, Row};
use std::io::{self, Write};

fn csv_cell(s: &str) -> String {
    // No cell a spreadsheet runs as a formula.
    let s = &*mqdiag_model::text::csv_safe(s);
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

pub(crate) fn write(out: &mut dyn Write, rows: &[Row], by: By) -> io::Result<()> {
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
