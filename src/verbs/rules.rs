//! `mqdiag rules`: every rule with its id, default severity, trigger,
//! thresholds and advice, as text or JSON.

use crate::cli::RulesArgs;
use crate::exit::{EXIT_OK, io_result};
use mqdiag_analysis::passes::RULES;
use std::io::Write;

pub fn run(a: RulesArgs) -> Result<i32, String> {
    let table = [("txt", "text"), ("text", "text"), ("json", "json")];
    let format = match &a.format {
        Some(f) => crate::outpath::agree(f.as_str(), f, a.output.as_deref(), &table)?.to_string(),
        None => crate::outpath::infer(
            a.output.as_deref(),
            &[("txt", "text"), ("text", "text"), ("json", "json")],
            "rules",
        )?
        .unwrap_or("text")
        .to_string(),
    };
    if !matches!(format.as_str(), "text" | "json") {
        return Err(format!(
            "rules --format: `{format}` is not one of text, json"
        ));
    }
    let mut out = crate::outpath::Output::open(a.output.as_deref(), &[])?;
    let r = match format.as_str() {
        "text" => rules_text(&mut out),
        "json" => rules_json(&mut out),
        other => {
            return Err(format!(
                "rules --format: `{other}` is not one of text, json"
            ));
        }
    };
    io_result(r.and_then(|_| out.finish()))?;
    Ok(EXIT_OK)
}

fn rules_text(out: &mut dyn Write) -> std::io::Result<()> {
    for (i, r) in RULES.iter().enumerate() {
        if i > 0 {
            writeln!(out)?;
        }
        writeln!(out, "{}  (default severity: {})", r.id, r.severity.as_str())?;
        for l in mqdiag_report::layout::wrap(r.summary, 80, "  ") {
            writeln!(out, "{l}")?;
        }
        writeln!(out, "  Trigger:")?;
        for l in mqdiag_report::layout::wrap(&r.trigger_text(), 80, "    ") {
            writeln!(out, "{l}")?;
        }
        if r.thresholds.is_empty() {
            writeln!(out, "  Thresholds: none")?;
        } else {
            writeln!(out, "  Thresholds (--set {}.KEY=VALUE):", r.id)?;
            for t in r.thresholds {
                writeln!(out, "    {} = {} {}", t.key, t.default, t.unit)?;
                for l in mqdiag_report::layout::wrap(t.doc, 80, "        ") {
                    writeln!(out, "{l}")?;
                }
            }
        }
        writeln!(out, "  Advice:")?;
        for l in mqdiag_report::layout::wrap(r.advice, 80, "    ") {
            writeln!(out, "{l}")?;
        }
        let parts = format!("rule, {}", fingerprint_parts(r).join(", "));
        writeln!(out, "  Fingerprint (identity that survives a restart):")?;
        for l in mqdiag_report::layout::wrap(&parts, 80, "    ") {
            writeln!(out, "{l}")?;
        }
    }
    Ok(())
}

fn rules_json(out: &mut dyn Write) -> std::io::Result<()> {
    let v: Vec<serde_json::Value> = RULES
        .iter()
        .map(|r| {
            serde_json::json!({
                "id": r.id,
                "severity": r.severity.as_str(),
                "summary": r.summary,
                "trigger": r.trigger_text(),
                "thresholds": r.thresholds.iter().map(|t| serde_json::json!({
                    "key": t.key, "default": t.default, "unit": t.unit, "description": t.doc
                })).collect::<Vec<_>>(),
                "advice": r.advice,
                "fingerprint": std::iter::once("rule")
                    .chain(fingerprint_parts(r))
                    .collect::<Vec<_>>(),
            })
        })
        .collect();
    // An object, not a bare array, so fields can be added beside the list.
    let doc = serde_json::json!({"schema_version": 1, "rules": v});
    serde_json::to_writer_pretty(&mut *out, &doc)?;
    out.write_all(b"\n")
}

/// The parts of a rule's fingerprint besides the rule id, by name.
fn fingerprint_parts(r: &mqdiag_analysis::passes::RuleInfo) -> Vec<&'static str> {
    r.fingerprint.iter().map(|p| p.name()).collect()
}
