//! `--format text` (default): a summary table, then each finding with its
//! metrics, evidence lines and advice; fits an 80-column terminal.

use super::{BREAKDOWN_SHOWN, Report};
use crate::layout::{fold, wrap};
use mqdiag_model::findings::{Finding, thousands};
use mqdiag_model::timefmt::rfc3339;
use std::io::{self, Write};

const WIDTH: usize = 80;

pub(crate) fn write(out: &mut dyn Write, r: &Report) -> io::Result<()> {
    let files = r.inputs.len();
    let head = format!(
        "mqdiag {}: {} in {} file{} ({} events)",
        r.version,
        r.headline(),
        files,
        if files == 1 { "" } else { "s" },
        mqdiag_model::findings::thousands(r.total_events())
    );
    for l in wrap(&head, WIDTH, "") {
        writeln!(out, "{l}")?;
    }
    for l in r.run_lines() {
        for l in wrap(&l, WIDTH, "  ") {
            writeln!(out, "{l}")?;
        }
    }
    if r.findings.is_empty() {
        writeln!(out, "\nNo findings.")?;
        super::notes::text_section(out, r)?;
        super::calls::text_section(out, r)?;
        return out.flush();
    }
    writeln!(out)?;
    // Summary table: one row per finding (number, severity, rule, count),
    // its title on the line below, wrapped, never cut.
    let rule_w = r
        .findings
        .iter()
        .map(|f| f.rule.len())
        .max()
        .unwrap_or(4)
        .max(4);
    let num_w = r.findings.len().to_string().len().max(2);
    writeln!(
        out,
        "{:>num_w$}  {:<8}  {:<rule_w$}  {:>7}",
        "#", "SEVERITY", "RULE", "COUNT"
    )?;
    let indent = " ".repeat(num_w + 2);
    for (i, f) in r.findings.iter().enumerate() {
        writeln!(
            out,
            "{:>num_w$}  {:<8}  {:<rule_w$}  {:>7}",
            i + 1,
            f.severity.as_str(),
            f.rule,
            f.count
        )?;
        for l in wrap(&f.title, WIDTH, &indent) {
            writeln!(out, "{l}")?;
        }
    }
    for (i, f) in r.findings.iter().enumerate() {
        writeln!(out)?;
        writeln!(out, "{}", "-".repeat(WIDTH))?;
        finding(out, i + 1, f)?;
    }
    super::notes::text_section(out, r)?;
    super::calls::text_section(out, r)?;
    out.flush()
}

fn finding(out: &mut dyn Write, n: usize, f: &Finding) -> io::Result<()> {
    let head = format!(
        "[{n}] {} {}{}",
        f.severity.as_str().to_uppercase(),
        f.rule,
        if f.baseline { " (baseline)" } else { "" }
    );
    writeln!(out, "{head}")?;
    for l in wrap(&f.title, WIDTH, "    ") {
        writeln!(out, "{l}")?;
    }
    let subject = f.subject.describe();
    if !subject.is_empty() {
        for (i, l) in wrap(&subject, WIDTH, "             ")
            .into_iter()
            .enumerate()
        {
            if i == 0 {
                writeln!(out, "    subject  {}", l.trim_start())?;
            } else {
                writeln!(out, "{l}")?;
            }
        }
    }
    match (&f.first, &f.last) {
        (Some(a), Some(b)) if a == b => writeln!(out, "    time     {}", rfc3339(a))?,
        (Some(a), Some(b)) => {
            let end = if a.date_naive() == b.date_naive() && a.offset() == b.offset() {
                b.format("%H:%M:%S%.6f").to_string()
            } else {
                rfc3339(b)
            };
            let one = format!("    time     {} .. {end}", rfc3339(a));
            if one.chars().count() <= WIDTH {
                writeln!(out, "{one}")?
            } else {
                writeln!(out, "    time     {} ..", rfc3339(a))?;
                writeln!(out, "             {end}")?
            }
        }
        (Some(a), None) | (None, Some(a)) => writeln!(out, "    time     {}", rfc3339(a))?,
        (None, None) => {}
    }
    writeln!(out, "    count    {}", f.count)?;
    for (i, l) in wrap(&f.severity_reason, WIDTH, "             ")
        .into_iter()
        .enumerate()
    {
        let label = if i == 0 { "severity" } else { "" };
        writeln!(out, "    {label:<9}{}", l.trim_start())?;
    }
    // Metrics, packed `name=value` into lines.
    let items: Vec<String> = f
        .metrics
        .0
        .iter()
        .map(|(k, v)| format!("{}={}", v.label_named(k), v.display_named(k)))
        .collect();
    // Lines packed first, then each written; one value longer than the
    // room (a list of files) is wrapped.
    let mut packed: Vec<String> = Vec::new();
    let mut line = String::new();
    for it in items {
        if !line.is_empty() && 13 + line.chars().count() + 2 + it.chars().count() > WIDTH {
            packed.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push_str("  ");
        }
        line.push_str(&it);
    }
    if !line.is_empty() {
        packed.push(line);
    }
    let mut first = true;
    for line in packed {
        let lines = if 13 + mqdiag_model::text::shown_len(&line) > WIDTH {
            wrap(&line, WIDTH, "             ")
        } else {
            vec![line]
        };
        for l in lines {
            let label = if first { "metrics" } else { "" };
            writeln!(out, "    {label:<9}{}", l.trim_start())?;
            first = false;
        }
    }
    // The breakdown, busiest first, a few rows: the JSON has them all.
    for (i, b) in f.breakdown.iter().take(BREAKDOWN_SHOWN).enumerate() {
        let label = if i == 0 { "detail" } else { "" };
        let row = format!("{} x {}", thousands(b.occurrences), b.describe());
        for (j, l) in wrap(&row, WIDTH, "             ").into_iter().enumerate() {
            if j == 0 {
                writeln!(out, "    {label:<9}{}", l.trim_start())?;
            } else {
                writeln!(out, "{l}")?;
            }
        }
    }
    if f.breakdown.len() > BREAKDOWN_SHOWN {
        writeln!(
            out,
            "             ... {} more",
            f.breakdown.len() - BREAKDOWN_SHOWN
        )?;
    }
    writeln!(out, "    evidence")?;
    for e in &f.evidence {
        writeln!(out, "      {}:{}", e.path, e.line)?;
        // Long lines fold at spaces; the evidence is quoted whole.
        for l in fold(&e.text, WIDTH, "        ") {
            writeln!(out, "{l}")?;
        }
    }
    writeln!(out, "    advice")?;
    for l in wrap(&f.advice, WIDTH, "      ") {
        writeln!(out, "{l}")?;
    }
    writeln!(out, "    id       {}", f.fingerprint)
}
