//! The reports' "Reading notes": what the readers decided while reading
//! files that were read (an offset assumed, a copy read once, a last record
//! without its closing line). They say how the input was read, not what is
//! wrong with the MQ system, so they are not findings.

use super::Report;
use crate::escape::{html as esc, md_cell};
use mqdiag_model::findings::thousands;
use std::borrow::Cow;
use std::io::{self, Write};

/// Notes shown in the text, Markdown and HTML reports (JSON and SARIF have
/// all of them).
pub(crate) const SHOWN: usize = 50;

/// Notes the JSON and SARIF reports list at most: one per file that has
/// one is a note for each of 50,000 small files, most of such a report.
/// Past it the rest are summed up in one note, by text (`summary`);
/// `mqdiag inventory` lists every file's notes.
pub(crate) const MAX_NOTES: usize = 1000;

/// Distinct texts the summary of unlisted notes names, most frequent first.
const SUMMARY_TEXTS: usize = 5;

/// One note and the file it is about.
#[derive(Debug, serde::Serialize)]
pub(crate) struct Note<'a> {
    pub(crate) path: &'a str,
    pub(crate) note: Cow<'a, str>,
}

/// Where the notes of the run as a whole (what its budget folded) say
/// they are from.
pub(crate) const RUN: &str = "(run budget)";

/// What the run folded, then every input's notes, in the inputs' order:
/// the first `MAX_NOTES`, and one that sums up the rest.
pub(crate) fn all<'a>(r: &Report<'a>) -> Vec<Note<'a>> {
    let run = r.run.folded.iter().map(|n| Note {
        path: RUN,
        note: Cow::Borrowed(n.as_str()),
    });
    let mut every = run.chain(r.inputs.iter().flat_map(|i| {
        i.notes.iter().map(move |n| Note {
            path: i.path.as_str(),
            note: Cow::Borrowed(n.as_str()),
        })
    }));
    let mut out: Vec<Note<'a>> = every.by_ref().take(MAX_NOTES).collect();
    if let Some(s) = summary(every) {
        out.push(Note {
            path: RUN,
            note: Cow::Owned(s),
        });
    }
    out
}

/// One note for the notes past `MAX_NOTES`: how many, on how many files,
/// and the texts that come most often. `None` when there are none.
fn summary<'a>(rest: impl Iterator<Item = Note<'a>>) -> Option<String> {
    let mut count = 0usize;
    let mut files = 0usize;
    let mut last_path = None;
    // First-seen order breaks ties, so the note is the same every run.
    let mut texts: Vec<(Cow<'a, str>, usize)> = Vec::new();
    let mut index: std::collections::HashMap<Cow<'a, str>, usize> = Default::default();
    for n in rest {
        count += 1;
        if last_path != Some(n.path) {
            files += 1;
            last_path = Some(n.path);
        }
        match index.get(&n.note) {
            Some(&k) => texts[k].1 += 1,
            // Distinct texts are few in practice (a note names its line or
            // count); the summary is bounded by what it keeps, not read.
            None if texts.len() < MAX_NOTES => {
                index.insert(n.note.clone(), texts.len());
                texts.push((n.note, 1));
            }
            None => {}
        }
    }
    if count == 0 {
        return None;
    }
    texts.sort_by_key(|t| std::cmp::Reverse(t.1));
    let named: Vec<String> = texts
        .iter()
        .take(SUMMARY_TEXTS)
        .map(|(t, n)| format!("{} \"{t}\"", thousands(*n as u64)))
        .collect();
    Some(format!(
        "{} more reading note(s) on {} file(s) not listed (the report lists {}; \
         `mqdiag inventory` lists every file's notes); most often: {}",
        thousands(count as u64),
        thousands(files as u64),
        thousands(MAX_NOTES as u64),
        named.join(", ")
    ))
}

/// Every note of the run, listed or not.
fn total(r: &Report) -> usize {
    r.run.folded.len() + r.inputs.iter().map(|i| i.notes.len()).sum::<usize>()
}

fn more(all: usize) -> Option<String> {
    let lists = if all > MAX_NOTES {
        "`mqdiag inventory` lists them all"
    } else {
        "the JSON report and `mqdiag inventory` list them all"
    };
    (all > SHOWN).then(|| format!("... and {} more ({lists})", all - SHOWN))
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
    if let Some(m) = more(total(r)) {
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
        writeln!(out, "- {}: {}", md_cell(n.path), md_cell(&n.note))?;
    }
    if let Some(m) = more(total(r)) {
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
            esc(&n.note)
        )?;
    }
    if let Some(m) = more(total(r)) {
        writeln!(out, "<li>{}</li>", esc(&m))?;
    }
    writeln!(out, "</ul>")
}

#[cfg(test)]
mod tests {
    use super::*;
    use mqdiag_model::fileinfo::FileInfo;

    fn report_of<'a>(inputs: &'a [FileInfo], run: &'a crate::runinfo::RunInfo) -> Vec<Note<'a>> {
        let charts = Box::leak(Box::default());
        let r = Report {
            version: "test",
            inputs,
            findings: &[],
            rules: &[],
            baseline_used: false,
            calls: &[],
            calls_by_verb: &[],
            calls_counted: false,
            run,
            charts,
        };
        all(&r)
    }

    fn files(n: usize, note: impl Fn(usize) -> String) -> Vec<FileInfo> {
        (0..n)
            .map(|i| {
                let mut f = FileInfo::new(
                    &format!("f{i}.LOG"),
                    mqdiag_model::event::Format::UNKNOWN,
                    10,
                );
                f.notes.push(note(i));
                f
            })
            .collect()
    }

    #[test]
    fn notes_past_the_cap_are_summed_up_by_text() {
        let run = crate::runinfo::RunInfo::default();
        let inputs = files(MAX_NOTES + 2_500, |i| {
            if i % 5 == 0 {
                "seldom".into()
            } else {
                "often".into()
            }
        });
        let notes = report_of(&inputs, &run);
        assert_eq!(notes.len(), MAX_NOTES + 1);
        assert_eq!(notes[MAX_NOTES - 1].path, format!("f{}.LOG", MAX_NOTES - 1));
        let last = &notes[MAX_NOTES];
        assert_eq!(last.path, RUN);
        assert_eq!(
            last.note,
            "2,500 more reading note(s) on 2,500 file(s) not listed (the report lists 1,000; \
             `mqdiag inventory` lists every file's notes); most often: 2,000 \"often\", 500 \"seldom\""
        );
        assert_eq!(
            more(MAX_NOTES + 2_500).unwrap(),
            "... and 3450 more (`mqdiag inventory` lists them all)"
        );
    }

    #[test]
    fn notes_within_the_cap_are_all_listed() {
        let run = crate::runinfo::RunInfo::default();
        let inputs = files(MAX_NOTES, |i| format!("note {i}"));
        let notes = report_of(&inputs, &run);
        assert_eq!(notes.len(), MAX_NOTES);
        assert!(notes.iter().all(|n| n.path != RUN));
    }
}
