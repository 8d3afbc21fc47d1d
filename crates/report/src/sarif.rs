//! `--format sarif`: SARIF 2.1.0 for code-scanning tools. One SARIF rule per
//! mqdiag rule (its help is the rule's documentation), one result per
//! finding, located at its evidence lines.

use super::Report;
use mqdiag_analysis::passes::RuleInfo;
use mqdiag_model::findings::Finding;
use mqdiag_model::problem::Severity;
use serde_json::{Value, json};
use std::io::{self, Write};

fn level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// `tcp-send-stall` → `TcpSendStall`.
fn camel(id: &str) -> String {
    id.split('-')
        .map(|w| {
            let mut c = w.chars();
            match c.next() {
                Some(f) => f.to_ascii_uppercase().to_string() + c.as_str(),
                None => String::new(),
            }
        })
        .collect()
}

/// A relative path as a URI reference: `/` separators, reserved and
/// non-ASCII bytes percent-encoded. Absolute paths become `file:` URIs.
pub(crate) fn uri(path: &str) -> String {
    let p = path.replace('\\', "/");
    let mut out = String::new();
    let (prefix, rest) = if let Some(r) = p.strip_prefix('/') {
        ("file:///", r)
    } else if p.len() > 2 && p.as_bytes()[1] == b':' && p.as_bytes()[2] == b'/' {
        ("file:///", p.as_str())
    } else {
        ("", p.as_str())
    };
    out.push_str(prefix);
    for b in rest.bytes() {
        let keep = b.is_ascii_alphanumeric() || b"-._~/!$&'()*+,;=:@".contains(&b);
        if keep {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

pub(crate) fn rule_help(r: &RuleInfo) -> String {
    let mut s = format!("{}\n\nTrigger: {}\n", r.summary, r.trigger_text());
    if !r.thresholds.is_empty() {
        s.push_str("\nThresholds (--set RULE.KEY=VALUE):\n");
        for t in r.thresholds {
            s.push_str(&format!(
                "  {}.{} = {} {} ({})\n",
                r.id, t.key, t.default, t.unit, t.doc
            ));
        }
    }
    s.push_str(&format!("\nAdvice: {}\n", r.advice));
    s
}

fn location(e: &mqdiag_model::findings::Evidence) -> Value {
    json!({
        "physicalLocation": {
            "artifactLocation": {"uri": uri(&e.path)},
            "region": {"startLine": e.line, "snippet": {"text": e.text}}
        }
    })
}

fn result(f: &Finding, rule_index: Option<usize>, baseline_used: bool) -> Value {
    let mut r = json!({
        "ruleId": f.rule,
        "level": level(f.severity),
        "message": {"text": format!("{}. {}", f.title, f.advice)},
        "locations": f.evidence.iter().take(1).map(location).collect::<Vec<_>>(),
        "partialFingerprints": {"mqdiag/v1": f.fingerprint},
        "properties": {
            "count": f.count,
            "severity_reason": f.severity_reason,
            "subject": f.subject,
            "metrics": f.metrics,
            "first": f.first.as_ref().map(mqdiag_model::timefmt::rfc3339),
            "last": f.last.as_ref().map(mqdiag_model::timefmt::rfc3339),
        }
    });
    if let Some(i) = rule_index {
        r["ruleIndex"] = json!(i);
    }
    if f.evidence.len() > 1 {
        r["relatedLocations"] = Value::Array(
            f.evidence
                .iter()
                .skip(1)
                .enumerate()
                .map(|(i, e)| {
                    let mut l = location(e);
                    l["id"] = json!(i + 1);
                    l
                })
                .collect(),
        );
    }
    if baseline_used {
        r["baselineState"] = json!(if f.baseline { "unchanged" } else { "new" });
    }
    r
}

pub(crate) fn write(out: &mut dyn Write, r: &Report) -> io::Result<()> {
    // Every rule that ran, plus any a finding names (there are none other).
    let mut rules: Vec<&'static RuleInfo> = r.rules.to_vec();
    for f in r.findings {
        if !rules.iter().any(|x| x.id == f.rule)
            && let Some(x) = r.rule(&f.rule)
        {
            rules.push(x);
        }
    }
    let sarif_rules: Vec<Value> = rules
        .iter()
        .map(|x| {
            json!({
                "id": x.id,
                "name": camel(x.id),
                "shortDescription": {"text": x.summary},
                "fullDescription": {"text": x.trigger_text()},
                "help": {"text": rule_help(x)},
                "defaultConfiguration": {"level": level(x.severity)},
                "properties": {
                    "thresholds": x.thresholds.iter().map(|t| json!({
                        "key": t.key, "default": t.default, "unit": t.unit, "description": t.doc
                    })).collect::<Vec<_>>()
                }
            })
        })
        .collect();
    let results: Vec<Value> = r
        .findings
        .iter()
        .map(|f| {
            result(
                f,
                rules.iter().position(|x| x.id == f.rule),
                r.baseline_used,
            )
        })
        .collect();
    let doc = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "mqdiag",
                "version": r.version,
                "semanticVersion": r.version,
                "rules": sarif_rules
            }},
            // How the report was made, so a run with rules skipped or
            // thresholds changed is not read as a full one.
            "invocations": [{
                "executionSuccessful": true,
                "commandLine": r.run.command.join(" "),
                "arguments": r.run.command.iter().skip(1).collect::<Vec<_>>(),
                "properties": {"run": r.run, "notes": r.run_lines()},
                // How files were read: notes, not results.
                "toolExecutionNotifications": super::notes::all(r).iter().map(|n| json!({
                    "level": "note",
                    "message": {"text": format!("{}: {}", n.path, n.note)},
                    "locations": [{"physicalLocation": {"artifactLocation": {"uri": uri(n.path)}}}]
                })).collect::<Vec<_>>()
            }],
            "columnKind": "unicodeCodePoints",
            "results": results
        }]
    });
    // Raw DEL and C1 from inputs leave as `\u00XX` escapes.
    let mut w = mqdiag_model::text::JsonControlEscaper::new(&mut *out);
    serde_json::to_writer_pretty(&mut w, &doc)?;
    w.finish()?;
    out.write_all(b"\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris() {
        assert_eq!(uri("fixtures/trace/A B.FMT"), "fixtures/trace/A%20B.FMT");
        assert_eq!(
            uri("case.zip!var/mqm/errors/AMQERR01.LOG"),
            "case.zip!var/mqm/errors/AMQERR01.LOG"
        );
        assert_eq!(uri("/tmp/x.FMT"), "file:///tmp/x.FMT");
        assert_eq!(uri("C:\\mq\\x.TRC"), "file:///C:/mq/x.TRC");
        assert_eq!(uri("é"), "%C3%A9");
        assert_eq!(camel("tcp-send-stall"), "TcpSendStall");
    }
}
