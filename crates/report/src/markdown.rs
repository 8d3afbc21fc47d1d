//! `--format markdown`: for pasting into a support case. The environment
//! (what was analysed), a findings table, then each finding with its
//! evidence in code blocks and its remedy.

use super::Report;
use crate::escape::{md_cell, md_code, md_fence};
use mqdiag_model::findings::{Finding, thousands};
use mqdiag_model::timefmt::rfc3339;
use std::io::{self, Write};

/// Text that quotes values in backticks (a finding's title: "run
/// `dspmqtrc`", "not a trace record: `...`"): each quoted part becomes a
/// code span whose fence is longer than any backtick run in it, the rest is
/// escaped as `md_cell` does. Unpaired backticks (a value holding one) are
/// escaped as text: nothing a value holds can open a span that swallows
/// the line.
fn quoted(s: &str, in_table: bool) -> String {
    let parts: Vec<&str> = s.split('`').collect();
    if parts.len().is_multiple_of(2) {
        return md_cell(s);
    }
    parts
        .iter()
        .enumerate()
        .map(|(i, p)| {
            if !i.is_multiple_of(2) && !p.is_empty() {
                md_code(p, in_table)
            } else {
                md_cell(p)
            }
        })
        .collect()
}

pub(crate) fn write(out: &mut dyn Write, r: &Report) -> io::Result<()> {
    writeln!(out, "# mqdiag report")?;
    writeln!(out)?;
    writeln!(out, "mqdiag {} · {}", r.version, r.headline())?;
    writeln!(out)?;
    for l in r.run_lines() {
        writeln!(out, "- {}", md_cell(&l))?;
    }
    writeln!(out)?;
    writeln!(out, "## Environment")?;
    writeln!(out)?;
    writeln!(
        out,
        "{} file{}, {} events.",
        r.inputs.len(),
        if r.inputs.len() == 1 { "" } else { "s" },
        thousands(r.total_events())
    )?;
    writeln!(out)?;
    writeln!(
        out,
        "| File | Format | MQ | Platform | Host | Process | From | To | Events | Problems |"
    )?;
    writeln!(out, "|---|---|---|---|---|---|---|---|---:|---:|")?;
    for i in r.inputs {
        let opt = |v: &Option<String>| v.as_deref().map(md_cell).unwrap_or_default();
        let process = match (i.pid, &i.process) {
            (Some(p), Some(n)) => format!("{} ({p})", md_cell(n)),
            (Some(p), None) => p.to_string(),
            (None, Some(n)) => md_cell(n),
            (None, None) => String::new(),
        };
        let format = match &i.variant {
            Some(v) => format!("{} ({})", i.format.as_str(), md_cell(v)),
            None => i.format.as_str().to_string(),
        };
        writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            md_code(&i.path, true),
            format,
            opt(&i.mq_version),
            opt(&i.platform),
            opt(&i.host),
            process,
            i.first.as_ref().map(rfc3339).unwrap_or_default(),
            i.last.as_ref().map(rfc3339).unwrap_or_default(),
            thousands(i.events),
            i.problem_count
        )?;
    }
    writeln!(out)?;
    writeln!(out, "## Findings")?;
    writeln!(out)?;
    if r.findings.is_empty() {
        writeln!(out, "No findings.")?;
        super::notes::markdown_section(out, r)?;
        super::calls::markdown_section(out, r)?;
        return out.flush();
    }
    writeln!(out, "| # | Severity | Rule | Finding | Count |")?;
    writeln!(out, "|---:|---|---|---|---:|")?;
    for (n, f) in r.findings.iter().enumerate() {
        writeln!(
            out,
            "| {} | {}{} | `{}` | [{}](#finding-{}) | {} |",
            n + 1,
            f.severity.as_str(),
            if f.baseline { " (baseline)" } else { "" },
            f.rule,
            quoted(&f.title, true),
            n + 1,
            thousands(f.count)
        )?;
    }
    for (n, f) in r.findings.iter().enumerate() {
        writeln!(out)?;
        finding(out, n + 1, f)?;
    }
    super::notes::markdown_section(out, r)?;
    super::calls::markdown_section(out, r)?;
    out.flush()
}

fn finding(out: &mut dyn Write, n: usize, f: &Finding) -> io::Result<()> {
    writeln!(out, "<a id=\"finding-{n}\"></a>")?;
    writeln!(out, "### {n}. {}", quoted(&f.title, false))?;
    writeln!(out)?;
    let mut facts = vec![
        format!(
            "**Severity:** {} ({})",
            f.severity.as_str(),
            md_cell(&f.severity_reason)
        ),
        format!("**Rule:** `{}`", f.rule),
        format!("**Count:** {}", thousands(f.count)),
    ];
    let subject = f.subject.describe();
    if !subject.is_empty() {
        facts.push(format!("**Subject:** {}", md_cell(&subject)));
    }
    match (&f.first, &f.last) {
        (Some(a), Some(b)) if a != b => {
            facts.push(format!("**Time:** {} – {}", rfc3339(a), rfc3339(b)))
        }
        (Some(a), _) | (None, Some(a)) => facts.push(format!("**Time:** {}", rfc3339(a))),
        _ => {}
    }
    if f.baseline {
        facts.push("**Baseline:** yes".to_string());
    }
    writeln!(out, "{}", facts.join(" · "))?;
    writeln!(out)?;
    if !f.metrics.0.is_empty() {
        writeln!(out, "| Metric | Value |")?;
        writeln!(out, "|---|---|")?;
        for (k, v) in &f.metrics.0 {
            writeln!(
                out,
                "| {} | {} |",
                md_cell(v.label_named(k)),
                md_cell(&v.display_named(k))
            )?;
        }
        writeln!(out)?;
    }
    if !f.breakdown.is_empty() {
        writeln!(out, "| Occurrences | Detail |")?;
        writeln!(out, "|---|---|")?;
        for b in f.breakdown.iter().take(super::BREAKDOWN_SHOWN) {
            writeln!(out, "| {} | {} |", b.occurrences, md_cell(&b.describe()))?;
        }
        if f.breakdown.len() > super::BREAKDOWN_SHOWN {
            let more = f.breakdown.len() - super::BREAKDOWN_SHOWN;
            writeln!(out, "| | {more} more in the JSON report |")?;
        }
        writeln!(out)?;
    }
    writeln!(out, "**Evidence**")?;
    writeln!(out)?;
    let mut body = String::new();
    for e in &f.evidence {
        body.push_str(&format!("{}:{}\n    {}\n", e.path, e.line, e.text));
    }
    let fnc = md_fence(&body);
    writeln!(out, "{fnc}text")?;
    write!(out, "{body}")?;
    writeln!(out, "{fnc}")?;
    writeln!(out)?;
    // The advice is the rule's own Markdown (`dspmqtrc`); values in it
    // must not start a line.
    writeln!(out, "**Remedy:** {}", f.advice.replace(['\n', '\r'], " "))?;
    writeln!(out)?;
    writeln!(out, "<sub>fingerprint `{}`</sub>", f.fingerprint)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting() {
        assert_eq!(quoted("run `a|b` *x*", true), "run `a\\|b` \\*x\\*");
        assert_eq!(quoted("odd ` tick [l]", false), "odd \\` tick \\[l\\]");
    }
}
