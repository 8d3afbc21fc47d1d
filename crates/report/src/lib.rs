//! Findings reports: one module per output format, all fed the same
//! `Report`. `redact` replaces names and addresses before any renders.

pub mod calls;
pub mod charts;
pub mod color;
pub mod compare;
pub mod ecs;
pub mod html;
pub mod json;
pub mod markdown;
pub mod notes;
pub mod output;
#[cfg(feature = "parquet")]
pub mod parquet;
pub mod redact;
pub mod runinfo;
pub mod sarif;
pub mod text;

use mqdiag_analysis::passes::RuleInfo;
use mqdiag_model::fileinfo::FileInfo;
use mqdiag_model::findings::Finding;
use mqdiag_model::problem::Severity;

/// Breakdown rows the text, Markdown and HTML reports show per finding;
/// the JSON report has all of them.
pub const BREAKDOWN_SHOWN: usize = 8;

/// Everything a report shows.
pub struct Report<'a> {
    pub version: &'static str,
    pub inputs: &'a [FileInfo],
    pub findings: &'a [Finding],
    /// The rules that ran.
    pub rules: &'a [&'static RuleInfo],
    /// Whether `--baseline` was given (SARIF `baselineState`).
    pub baseline_used: bool,
    /// MQI calls per process and verb (`calls`), and per verb alone (the
    /// HTML latency chart). Empty when the traces have none.
    pub calls: &'a [mqdiag_analysis::calls::Row],
    pub calls_by_verb: &'a [mqdiag_analysis::calls::Row],
    /// Whether the calls were counted: not when no rule that ran reads
    /// them (`--only`, `--skip`); the reports then say so.
    pub calls_counted: bool,
    /// How the report was made (rules, thresholds, --tz, baseline).
    pub run: &'a runinfo::RunInfo,
    /// The HTML report's overview and error charts.
    pub charts: &'a charts::Collected,
}

impl Report<'_> {
    /// (error, warning, info) counts over all findings.
    pub fn counts(&self) -> (usize, usize, usize) {
        let n = |s| self.findings.iter().filter(|f| f.severity == s).count();
        (n(Severity::Error), n(Severity::Warning), n(Severity::Info))
    }

    pub fn total_events(&self) -> u64 {
        self.inputs.iter().map(|i| i.events).sum()
    }

    /// (new, in the baseline) finding counts.
    pub fn new_and_baseline(&self) -> (usize, usize) {
        let old = self.findings.iter().filter(|f| f.baseline).count();
        (self.findings.len() - old, old)
    }

    /// `3 findings: 1 error, 2 warnings, 0 info`; with a baseline
    /// `3 findings (1 new, 2 in baseline): ...`, so findings already known
    /// are not read as new.
    pub fn headline(&self) -> String {
        let (e, w, i) = self.counts();
        let n = self.findings.len();
        let split = if self.baseline_used {
            let (new, old) = self.new_and_baseline();
            format!(" ({new} new, {old} in baseline)")
        } else {
            String::new()
        };
        // Counts with separators, as the event count beside them.
        let t = |v: usize| mqdiag_model::findings::thousands(v as u64);
        format!(
            "{} finding{}{split}: {} error{}, {} warning{}, {} info",
            t(n),
            if n == 1 { "" } else { "s" },
            t(e),
            if e == 1 { "" } else { "s" },
            t(w),
            if w == 1 { "" } else { "s" },
            t(i),
        )
    }

    /// The run's settings as lines for people (see `RunInfo::lines`).
    pub fn run_lines(&self) -> Vec<String> {
        self.run.lines(self.rules.len())
    }

    pub fn rule(&self, id: &str) -> Option<&'static RuleInfo> {
        self.rules
            .iter()
            .copied()
            .find(|r| r.id == id)
            .or_else(|| mqdiag_analysis::passes::rule(id))
    }
}

/// Output formats of `analyze`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Text,
    Json,
    Markdown,
    Html,
    Sarif,
    /// Elastic Common Schema alert documents, one a line.
    Ecs,
}

impl Kind {
    /// The `-o` extensions and the format each asks for.
    pub const EXTENSIONS: &'static [(&'static str, Kind)] = &[
        ("txt", Kind::Text),
        ("text", Kind::Text),
        ("json", Kind::Json),
        ("md", Kind::Markdown),
        ("markdown", Kind::Markdown),
        ("html", Kind::Html),
        ("htm", Kind::Html),
        ("sarif", Kind::Sarif),
        ("sarif.json", Kind::Sarif),
    ];

    /// From an output file's extension (`report.sarif.json` is SARIF).
    pub fn from_path(p: &std::path::Path) -> Option<Kind> {
        let name = p.file_name()?.to_string_lossy().to_ascii_lowercase();
        if name.ends_with(".sarif") || name.ends_with(".sarif.json") {
            return Some(Kind::Sarif);
        }
        let ext = name.rsplit_once('.')?.1;
        Some(match ext {
            "json" => Kind::Json,
            "md" | "markdown" => Kind::Markdown,
            "html" | "htm" => Kind::Html,
            "txt" | "text" => Kind::Text,
            _ => return None,
        })
    }
}

pub fn write(kind: Kind, out: &mut dyn std::io::Write, r: &Report) -> std::io::Result<()> {
    write_painted(kind, out, r, false)
}

/// As `write`; `color` paints the text report for a terminal (other
/// formats ignore it).
pub fn write_painted(
    kind: Kind,
    out: &mut dyn std::io::Write,
    r: &Report,
    color: bool,
) -> std::io::Result<()> {
    match kind {
        Kind::Text if color => {
            let mut painted = color::Colorize::new(out);
            text::write(&mut mqdiag_model::text::ControlEscaper(&mut painted), r)?;
            std::io::Write::flush(&mut painted)
        }
        // Control characters from inputs never reach a terminal or a
        // document raw (JSON-based formats escape them already).
        Kind::Text => text::write(&mut mqdiag_model::text::ControlEscaper(out), r),
        Kind::Json => json::write(out, r),
        Kind::Markdown => markdown::write(&mut mqdiag_model::text::ControlEscaper(out), r),
        Kind::Html => html::write(out, r),
        Kind::Sarif => sarif::write(out, r),
        Kind::Ecs => ecs::write(out, r),
    }
}

/// Word-wrap `s` to `width` columns, every line prefixed with `indent`.
pub fn wrap(s: &str, width: usize, indent: &str) -> Vec<String> {
    use mqdiag_model::text::shown_len;
    let mut lines = Vec::new();
    let avail = width.saturating_sub(indent.chars().count()).max(20);
    let mut cur = String::new();
    for word in s.split_whitespace() {
        // A word longer than a line (a quoted path or record) is folded.
        let mut word = word;
        while shown_len(word) > avail {
            if !cur.is_empty() {
                lines.push(format!("{indent}{cur}"));
                cur.clear();
            }
            let cut = fit_prefix(word, avail);
            lines.push(format!("{indent}{}", &word[..cut]));
            word = &word[cut..];
        }
        if word.is_empty() {
            continue;
        }
        let wl = shown_len(word);
        let cl = shown_len(&cur);
        if cl > 0 && cl + 1 + wl > avail {
            lines.push(format!("{indent}{cur}"));
            cur.clear();
        }
        if !cur.is_empty() {
            cur.push(' ');
        }
        cur.push_str(word);
    }
    if !cur.is_empty() {
        lines.push(format!("{indent}{cur}"));
    }
    lines
}

/// The byte length of the longest prefix of `s` that takes at most `n`
/// columns once escaped (at least one character).
fn fit_prefix(s: &str, n: usize) -> usize {
    let mut used = 0;
    for (i, c) in s.char_indices() {
        used += mqdiag_model::text::shown_width(c);
        if used > n {
            return if i == 0 { c.len_utf8() } else { i };
        }
    }
    s.len()
}

/// Fold one line to `width` columns at spaces, keeping its own spacing
/// (evidence is quoted exactly); a word longer than the room is cut.
pub fn fold(s: &str, width: usize, indent: &str) -> Vec<String> {
    use mqdiag_model::text::shown_width;
    let avail = width.saturating_sub(indent.chars().count()).max(20);
    let mut out = Vec::new();
    let mut rest: Vec<char> = s.trim_end().chars().collect();
    loop {
        // The characters that fit in `avail` columns once escaped.
        let mut used = 0;
        let fit = rest
            .iter()
            .position(|c| {
                used += shown_width(*c);
                used > avail
            })
            .unwrap_or(rest.len());
        if fit == rest.len() {
            break;
        }
        let fit = fit.max(1);
        let cut = rest[..=fit.min(rest.len() - 1)]
            .iter()
            .rposition(|c| *c == ' ')
            .filter(|&p| p > 0)
            .unwrap_or(fit);
        let piece: String = rest[..cut].iter().collect();
        out.push(format!("{indent}{piece}"));
        let skip = if rest.get(cut) == Some(&' ') {
            cut + 1
        } else {
            cut
        };
        rest.drain(..skip);
    }
    out.push(format!("{indent}{}", rest.iter().collect::<String>()));
    out
}

/// Cut `s` to `n` characters, ending with `…` when cut.
pub fn clip(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(n.saturating_sub(1)).collect();
        t.push('…');
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn kind_from_extension() {
        assert_eq!(Kind::from_path(Path::new("r.json")), Some(Kind::Json));
        assert_eq!(Kind::from_path(Path::new("r.sarif")), Some(Kind::Sarif));
        assert_eq!(
            Kind::from_path(Path::new("out/r.sarif.json")),
            Some(Kind::Sarif)
        );
        assert_eq!(Kind::from_path(Path::new("R.MD")), Some(Kind::Markdown));
        assert_eq!(Kind::from_path(Path::new("r.html")), Some(Kind::Html));
        assert_eq!(Kind::from_path(Path::new("r.txt")), Some(Kind::Text));
        assert_eq!(Kind::from_path(Path::new("report")), None);
        assert_eq!(Kind::from_path(Path::new("r.xyz")), None);
    }

    #[test]
    fn wrapping() {
        let w = wrap("aaa bbb ccc ddd", 29, "      ");
        assert_eq!(w, vec!["      aaa bbb ccc ddd"]);
        let w = wrap(&"word ".repeat(30), 40, "  ");
        assert!(w.iter().all(|l| l.chars().count() <= 40));
        assert_eq!(w.concat().split_whitespace().count(), 30);
        assert_eq!(clip("abcdef", 4), "abc…");
        let f = fold("-}  send rc=OK and some more words here", 30, "  ");
        assert_eq!(f, vec!["  -}  send rc=OK and some more", "  words here"]);
        let f = fold(&"x".repeat(50), 22, "");
        assert_eq!(f, vec!["x".repeat(22), "x".repeat(22), "x".repeat(6)]);
        assert_eq!(clip("abc", 4), "abc");
    }
}
