//! `mqdiag explain VALUE...`: MQ's numbers as names, offline. A reason
//! code, a reason qualifier, a message id of the catalogue, an option's
//! name, or an options field with its value (`MQGMO.Options=8260`) becomes
//! its constant names, each with one line of meaning, from the tables the
//! readers and rules use (`mqdiag_model::mqconst`, `mqrc`, the message
//! catalogue).

use crate::cli::ExplainArgs;
use crate::exit::{EXIT_ERROR, EXIT_OK, io_result};
use mqdiag_model::mqconst::{self, Constant, OptionsField};
use serde_json::{Value, json};
use std::io::Write;

/// One value explained.
struct Told {
    input: String,
    kind: &'static str,
    /// The value as names (`MQGMO_WAIT+MQGMO_CONVERT`, `MQRC_Q_FULL`).
    names: String,
    /// A line of meaning, or one per constant of an options value.
    lines: Vec<(String, String)>,
}

pub fn run(a: ExplainArgs) -> Result<i32, String> {
    let format = a.format.as_deref().unwrap_or("text");
    if !matches!(format, "text" | "json") {
        return Err(format!(
            "explain --format: `{format}` is not one of text, json"
        ));
    }
    let mut told = Vec::new();
    let mut unknown = Vec::new();
    let mut i = 0;
    while i < a.values.len() {
        let v = a.values[i].trim();
        // `gmo 8260`: a field, then its value as the next argument.
        if !v.contains('=')
            && let Some(f) = mqconst::field(v)
            && let Some(n) = a.values.get(i + 1).and_then(|n| number(n))
        {
            told.push(options(&format!("{v}={}", a.values[i + 1]), f, n));
            i += 2;
            continue;
        }
        match explain(v) {
            Some(t) => told.push(t),
            None => unknown.push(v.to_string()),
        }
        i += 1;
    }
    let mut out = std::io::stdout().lock();
    let r = match format {
        "json" => write_json(&mut out, &told, &unknown),
        _ => write_text(&mut out, &told),
    };
    io_result(r)?;
    for u in &unknown {
        eprintln!(
            "mqdiag: explain: `{u}` is not a reason code, reason qualifier, message id, option \
             name or options field and value (`MQGMO.Options=8260`)"
        );
    }
    Ok(if unknown.is_empty() {
        EXIT_OK
    } else {
        EXIT_ERROR
    })
}

/// `8260`, `0x2044`, `X'2044'`.
fn number(s: &str) -> Option<u32> {
    let s = s.trim();
    if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        return u32::from_str_radix(h, 16).ok();
    }
    if let Some(h) = s.strip_prefix("X'").and_then(|h| h.strip_suffix('\'')) {
        return u32::from_str_radix(h, 16).ok();
    }
    s.parse::<u32>()
        .ok()
        .or_else(|| s.parse::<i32>().ok().map(|n| n as u32))
}

fn explain(v: &str) -> Option<Told> {
    if let Some((field, value)) = v.split_once('=') {
        let n = number(value)?;
        let field = field.trim();
        if mqconst::squash_eq(field, "MQRQ") || mqconst::squash_eq(field, "qualifier") {
            return qualifier(v, mqconst::qualifier(n)?);
        }
        if mqconst::squash_eq(field, "MQRC") || mqconst::squash_eq(field, "reason") {
            return reason(v, n);
        }
        return Some(options(v, mqconst::field(field)?, n));
    }
    let up = v.to_ascii_uppercase();
    if let Some(n) = number(v) {
        return reason(v, n);
    }
    if up.starts_with("MQRC_") {
        return reason(v, mqdiag_model::mqrc::code(&up)?);
    }
    if let Some(rest) = up.strip_prefix("RC")
        && let Ok(n) = rest.parse()
    {
        return reason(v, n);
    }
    if up.starts_with("MQRQ_") {
        return qualifier(v, mqconst::qualifier_named(&up)?);
    }
    if let Some(c) = mqconst::FIELDS
        .iter()
        .flat_map(|f| f.bits.iter())
        .find(|c| c.name == up)
    {
        return Some(Told {
            input: v.to_string(),
            kind: "option",
            names: format!("{} = {} (0x{:X})", c.name, c.value, c.value),
            lines: vec![(c.name.to_string(), c.meaning.to_string())],
        });
    }
    message(v)
}

fn reason(input: &str, n: u32) -> Option<Told> {
    let name = mqdiag_model::mqrc::name(n)?;
    let meaning = mqdiag_readers::catalog::limits::REASONS
        .iter()
        .find(|r| r.reason == n)
        .map(|r| format!("{} ({})", r.meaning, r.setting));
    Some(Told {
        input: input.to_string(),
        kind: "reason",
        names: format!("{n} (0x{n:04X}) {name}"),
        lines: meaning.map(|m| (name.clone(), m)).into_iter().collect(),
    })
}

fn qualifier(input: &str, c: &'static Constant) -> Option<Told> {
    Some(Told {
        input: input.to_string(),
        kind: "reason-qualifier",
        names: format!("{} {}", c.value, c.name),
        lines: vec![(c.name.to_string(), c.meaning.to_string())],
    })
}

fn options(input: &str, f: &OptionsField, n: u32) -> Told {
    let mut lines: Vec<(String, String)> = mqconst::bits_of(f, n)
        .into_iter()
        .map(|c| {
            (
                format!("{} (0x{:X})", c.name, c.value),
                c.meaning.to_string(),
            )
        })
        .collect();
    let known: u32 = mqconst::bits_of(f, n).iter().map(|c| c.value).sum();
    if n & !known != 0 {
        lines.push((
            format!("0x{:X}", n & !known),
            format!("bits {} does not name", f.structure),
        ));
    }
    if n == 0 {
        lines.push((f.zero.to_string(), "no option set".to_string()));
    }
    Told {
        input: input.to_string(),
        kind: "options",
        names: mqconst::decode(f, n),
        lines,
    }
}

/// A message id of the catalogue (`AMQ9631E`, `CSQX209E`).
fn message(v: &str) -> Option<Told> {
    let r = mqdiag_readers::catalog::reported(v)?;
    Some(Told {
        input: v.to_string(),
        kind: "message",
        names: r.id.to_string(),
        lines: vec![(
            r.id.to_string(),
            format!("{}. {}", r.meaning.trim_end_matches('.'), r.advice),
        )],
    })
}

fn write_text(out: &mut dyn Write, told: &[Told]) -> std::io::Result<()> {
    for t in told {
        writeln!(out, "{}  {}", t.input, t.names)?;
        for (name, meaning) in &t.lines {
            let head = format!("  {name}: ");
            let body = mqdiag_report::layout::wrap(meaning, 80, "      ");
            match body.split_first() {
                Some((first, rest)) if head.len() + first.trim_start().len() <= 80 => {
                    writeln!(out, "{head}{}", first.trim_start())?;
                    for l in rest {
                        writeln!(out, "{l}")?;
                    }
                }
                _ => {
                    writeln!(out, "  {name}:")?;
                    for l in body {
                        writeln!(out, "{l}")?;
                    }
                }
            }
        }
    }
    Ok(())
}

fn write_json(out: &mut dyn Write, told: &[Told], unknown: &[String]) -> std::io::Result<()> {
    let items: Vec<Value> = told
        .iter()
        .map(|t| {
            json!({
                "input": t.input,
                "kind": t.kind,
                "names": t.names,
                "meanings": t.lines.iter().map(|(n, m)| json!({"name": n, "meaning": m})).collect::<Vec<_>>(),
            })
        })
        .collect();
    let v = json!({"schema_version": 1, "explained": items, "unknown": unknown});
    serde_json::to_writer_pretty(&mut *out, &v)?;
    writeln!(out)
}
