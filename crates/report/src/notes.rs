//! The reports' "Reading notes": what the readers decided while reading
//! files that were read (an offset assumed, a copy read once, a last record
//! without its closing line). They say how the input was read, not what is
//! wrong with the MQ system, so they are not findings.

use super::Report;
use crate::escape::{html as esc, md_cell};
use std::io::{self, Write};

/// Notes shown in the text, Markdown and HTML reports (JSON and SARIF have
/// all of them).
pub(crate) const SHOWN: usize = 50;

/// One note and the file it is about.
#[derive(Debug, serde::Serialize)]
pub(crate) struct Note<'a> {
    pub(crate) path: &'a str,
    pub(crate) note: &'a str,
}

/// Where the notes of the run as a whole (what its budget folded) say
/// they are from.
pub(crate) const RUN: &str = "(run budget)";

/// What the run folded, then every input's notes, in the inputs' order.
pub(crate) fn all<'a>(r: &Report<'a>) -> Vec<Note<'a>> {
    let run = r.run.folded.iter().map(|n| Note {
        path: RUN,
        note: n.as_str(),
    });
    run.chain(r.inputs.iter().flat_map(|i| {
        i.notes.iter().map(move |n| Note {
            path: i.path.as_str(),
            note: n.as_str(),
        })
    }))
    .collect()
}

fn more(all: usize) -> Option<String> {
    (all > SHOWN).then(|| {
        format!(
            "... and {} more (the JSON report and `mqdiag inventory` list them all)",
            all - SHOWN
        )
    })
}

pub(crate) fn text_section(out: &mut dyn Write, r: &Report) -> io::Result<()> {
    let notes = all(r);
    if notes.is_empty() {
        return Ok(());
    }
    writeln!(out)?;
    writeln!(out, "{}", "-".repeat(80))?;
    writeln!(out, "Reading notes (how files were read; not findings)")?;
    for n in notes.iter().take(SHOWN) {
        for l in crate::layout::wrap(&format!("{}: {}", n.path, n.note), 80, "  ") {
            writeln!(out, "{l}")?;
        }
    }
    if let Some(m) = more(notes.len()) {
        writeln!(out, "  {m}")?;
    }
    Ok(())
}

pub(crate) fn markdown_section(out: &mut dyn Write, r: &Report) -> io::Result<()> {
    let notes = all(r);
    if notes.is_empty() {
        return Ok(());
    }
    writeln!(out)?;
    writeln!(out, "## Reading notes")?;
    writeln!(out)?;
    writeln!(out, "How files were read; not findings.")?;
    writeln!(out)?;
    for n in notes.iter().take(SHOWN) {
        writeln!(out, "- {}: {}", md_cell(n.path), md_cell(n.note))?;
    }
    if let Some(m) = more(notes.len()) {
        writeln!(out, "- {}", md_cell(&m))?;
    }
    Ok(())
}

pub(crate) fn html_section(out: &mut dyn Write, r: &Report) -> io::Result<()> {
    let notes = all(r);
    if notes.is_empty() {
        return Ok(());
    }
    writeln!(out, "<h2 id=\"notes\">Reading notes</h2>")?;
    writeln!(
        out,
        "<p class=\"muted\">How files were read; not findings.</p>"
    )?;
    writeln!(out, "<ul class=\"notes\">")?;
    for n in notes.iter().take(SHOWN) {
        writeln!(
            out,
            "<li><code>{}</code>: {}</li>",
            esc(n.path),
            esc(n.note)
        )?;
    }
    if let Some(m) = more(notes.len()) {
        writeln!(out, "<li>{}</li>", esc(&m))?;
    }
    writeln!(out, "</ul>")
}
