//! `inventory`: one row per file, as text or as the contract's JSON.

use mqdiag_model::fileinfo::FileInfo;
use mqdiag_model::timefmt::rfc3339;
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::{self, Write};

/// Problems shown per file in the text form.
const TEXT_PROBLEMS: usize = 5;

#[derive(Serialize)]
struct Doc<'a> {
    schema_version: u32,
    files: &'a [FileInfo],
}

pub fn write_json(out: &mut dyn Write, files: &[FileInfo]) -> io::Result<()> {
    // Raw DEL and C1 from inputs leave as `\u00XX` escapes.
    let mut w = mqdiag_model::text::JsonControlEscaper::new(&mut *out);
    serde_json::to_writer_pretty(
        &mut w,
        &Doc {
            schema_version: 1,
            files,
        },
    )?;
    w.finish()?;
    out.write_all(b"\n")
}

/// Text lines fit 80 columns: a longer one is wrapped, its continuation
/// indented two more spaces than its first line.
const WIDTH: usize = 80;

pub(crate) fn put(out: &mut dyn Write, line: &str) -> io::Result<()> {
    if mqdiag_model::text::shown_len(line) <= WIDTH {
        return writeln!(out, "{line}");
    }
    let body = line.trim_start_matches(' ');
    let lead = " ".repeat(line.len() - body.len());
    for (i, l) in crate::layout::wrap(body, WIDTH, &format!("{lead}  "))
        .into_iter()
        .enumerate()
    {
        if i == 0 {
            writeln!(out, "{lead}{}", l.trim_start())?;
        } else {
            writeln!(out, "{l}")?;
        }
    }
    Ok(())
}

pub fn write_text(out: &mut dyn Write, files: &[FileInfo]) -> io::Result<()> {
    // Lines are built and then fitted (see `put`).
    macro_rules! writeln {
        ($o:expr, $($t:tt)*) => { put($o, &format!($($t)*)) };
    }
    for f in files {
        writeln!(out, "{}", f.path)?;
        let mut what = vec![f.format.as_str().to_string()];
        if let Some(v) = &f.variant {
            what[0] = format!("{} ({v})", what[0]);
        }
        if let Some(v) = &f.mq_version {
            what.push(format!("MQ {v}"));
        }
        if let Some(p) = &f.platform {
            what.push(p.clone());
        }
        if let Some(h) = &f.host {
            what.push(format!("host {h}"));
        }
        if let Some(q) = &f.qmgr {
            what.push(format!("qmgr {q}"));
        }
        match (f.pid, &f.process) {
            (Some(p), Some(n)) => what.push(format!("pid {p} {n}")),
            (Some(p), None) => what.push(format!("pid {p}")),
            (None, Some(n)) => what.push(n.clone()),
            _ => {}
        }
        if let Some(e) = &f.encoding {
            what.push(format!("encoding {e}"));
        }
        // Wrapped between its parts, so that each reads whole.
        let mut line = String::from(" ");
        for (i, w) in what.iter().enumerate() {
            let sep = if i + 1 < what.len() { "," } else { "" };
            if line.trim().is_empty() || line.chars().count() + 1 + w.chars().count() < WIDTH {
                line.push(' ');
            } else {
                put(out, &line)?;
                line = "    ".into();
            }
            line.push_str(w);
            line.push_str(sep);
        }
        put(out, &line)?;
        if let (Some(a), Some(b)) = (&f.first, &f.last) {
            writeln!(out, "  {} .. {}", rfc3339(a), rfc3339(b))?;
        }
        let off = match (&f.utc_offset, &f.utc_offset_source) {
            (Some(o), Some(s)) => format!(", UTC offset {o} ({s})"),
            (Some(o), None) => format!(", UTC offset {o}"),
            _ => String::new(),
        };
        writeln!(
            out,
            "  {} bytes, {} lines, {} events, {} problem{}{off}",
            f.bytes,
            f.lines,
            f.events,
            f.problem_count,
            if f.problem_count == 1 { "" } else { "s" }
        )?;
        for n in &f.notes {
            writeln!(out, "  note: {n}")?;
        }
        for p in f.problems.iter().take(TEXT_PROBLEMS) {
            match p.line {
                Some(l) => writeln!(
                    out,
                    "  {}: {}:{}: {}",
                    p.severity.as_str(),
                    f.path,
                    l,
                    p.message
                )?,
                None => writeln!(out, "  {}: {}: {}", p.severity.as_str(), f.path, p.message)?,
            }
        }
        if f.problem_count as usize > TEXT_PROBLEMS {
            writeln!(
                out,
                "  ... and {} more problems",
                f.problem_count as usize - TEXT_PROBLEMS
            )?;
        }
    }
    let mut by_format: BTreeMap<&str, usize> = BTreeMap::new();
    for f in files {
        *by_format.entry(f.format.as_str()).or_default() += 1;
    }
    let counts: Vec<String> = by_format.iter().map(|(k, v)| format!("{v} {k}")).collect();
    let problems: u64 = files.iter().map(|f| f.problem_count).sum();
    put(out, "")?;
    writeln!(
        out,
        "{} file{}: {}; {} problem{}",
        files.len(),
        if files.len() == 1 { "" } else { "s" },
        counts.join(", "),
        problems,
        if problems == 1 { "" } else { "s" }
    )
}
