//! `mqdiag completions SHELL` and `mqdiag man`: generated from the same
//! clap definition as the parser, so they never drift from it.

use clap::CommandFactory;
use std::io::Write;

/// The completion script for `shell` on `out`.
pub fn completions(shell: clap_complete::Shell, out: &mut dyn Write) -> std::io::Result<()> {
    let mut cmd = super::Cli::command();
    clap_complete::generate(shell, &mut cmd, "mqdiag", out);
    out.flush()
}

/// The man page (roff): mqdiag's own options, then every verb with its
/// synopsis and options (one page: `man mqdiag` shows them all), then
/// exit status, environment and examples.
pub fn man(out: &mut dyn Write) -> std::io::Result<()> {
    let cmd = super::Cli::command();
    let top = clap_mangen::Man::new(cmd.clone());
    let mut page = Vec::new();
    top.render_title(&mut page)?;
    top.render_name_section(&mut page)?;
    top.render_synopsis_section(&mut page)?;
    top.render_description_section(&mut page)?;
    page.extend_from_slice(
        b".PP\nWith no verb, mqdiag runs \\fBanalyze\\fR on the paths given. \
Each verb is described below with its options.\n",
    );
    top.render_options_section(&mut page)?;
    for sub in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
        let name = format!("mqdiag {}", sub.get_name());
        let sub = sub.clone().bin_name(name.clone());
        let m = clap_mangen::Man::new(sub.clone());
        writeln!(page, ".SH \"{}\"", name.to_uppercase())?;
        if let Some(a) = sub.get_about() {
            writeln!(page, "{}", roff_text(&a.to_string()))?;
        }
        let mut part = Vec::new();
        m.render_synopsis_section(&mut part)?;
        m.render_options_section(&mut part)?;
        let part = String::from_utf8_lossy(&part)
            .replace(".SH SYNOPSIS\n", ".PP\n")
            .replace(".SH OPTIONS\n", ".PP\nOptions:\n");
        page.extend_from_slice(part.as_bytes());
    }
    page.extend_from_slice(MAN_TAIL.as_bytes());
    let page = String::from_utf8_lossy(&page);
    // `code` in the help text is bold here, not shown with its backticks.
    let bold = regex::Regex::new(r"`([^`\n]+)`").expect("pattern");
    out.write_all(bold.replace_all(&page, r"\fB$1\fR").as_bytes())?;
    out.flush()
}

/// `mqdiag man --dir DIR`: the page as DIR/mqdiag.1.
pub fn man_to(dir: &std::path::Path) -> Result<(), String> {
    if !dir.is_dir() {
        return Err(format!("--dir {}: not a directory", dir.display()));
    }
    let path = dir.join("mqdiag.1");
    let mut f = std::fs::File::create(&path)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    man(&mut f).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Plain text for a roff paragraph: a line may not start with `.` or `'`.
fn roff_text(s: &str) -> String {
    let s = s.replace('\\', "\\\\");
    if s.starts_with(['.', '\'']) {
        format!("\\&{s}")
    } else {
        s
    }
}

const MAN_TAIL: &str = r#".SH "EXIT STATUS"
.TP
\fB0\fR
Success; for \fBanalyze\fR, no new finding reached \fB--fail-on\fR; for \fBcompare\fR, nothing at or above \fB--fail-on\fR is new or worse.
.TP
\fB1\fR
\fBanalyze --fail-on\fR: a finding that is not in the baseline is at or above the severity given. \fBcompare --fail-on\fR: a finding at or above it is new in BAD, or got worse. 1 is given even when a path named could not be read: the gate's answer comes first.
.TP
\fB2\fR
A usage error (unknown option or verb, bad value, \fB--format\fR and an \fB-o\fR extension that disagree, an output path that would overwrite an input, an \fB-o\fR extension the verb cannot write), a path named that does not exist or cannot be opened (said on standard error; the rest is still read and written), a \fB--since\fR/\fB--until\fR window that excludes every event (unless \fB--allow-empty\fR), no readable input, a reader that failed internally, or an error while writing.
.SH ENVIRONMENT
.TP
\fBNO_COLOR\fR
When set (to anything), the text report is not coloured unless \fB--color always\fR is given.
.SH EXAMPLES
.TP
\fBmqdiag case/\fR
Findings report of a directory of traces, error logs, FDCs and SMF data.
.TP
\fBmqdiag analyze case.zip -o report.html\fR
The same as one HTML file (the format follows the extension).
.TP
\fBmqdiag analyze case/ --since "2024-03-05 08:00" --until "2024-03-05 09:00" --redact\fR
One hour of the case, with names and addresses replaced by tokens.
.TP
\fBmqdiag timeline case/ --grep AMQ9 --pid 8812\fR
The merged event stream, filtered.
.TP
\fBmqdiag calls case/ --by connection -o calls.csv\fR
Every MQI call, per trace ident, as CSV.
.TP
\fBkubectl logs qm-0 | mqdiag timeline -\fR
Standard input read as a file (shown as <stdin>).
.TP
\fBmqdiag man --dir /usr/local/share/man/man1\fR
Install this page as mqdiag.1.
"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bash_completes_every_verb() {
        let mut v = Vec::new();
        completions(clap_complete::Shell::Bash, &mut v).unwrap();
        let s = String::from_utf8(v).unwrap();
        for verb in [
            "analyze",
            "timeline",
            "inventory",
            "rules",
            "completions",
            "man",
        ] {
            assert!(s.contains(verb), "{verb} missing");
        }
    }

    #[test]
    fn man_page_is_roff() {
        let mut v = Vec::new();
        man(&mut v).unwrap();
        let s = String::from_utf8(v).unwrap();
        assert!(
            s.starts_with(".ie") || s.contains(".TH mqdiag"),
            "{}",
            &s[..200]
        );
        assert!(s.contains("timeline"));
        // roff writes `-` as `\-`.
        let s = s.replace("\\-", "-");
        // Every verb's options are on the one page, with exit status,
        // environment and examples; no page is pointed to that does not exist.
        for want in [
            "--grep",
            "--pid",
            "--by",
            "--verb",
            "--fail-on",
            "--redact-map",
            "EXIT STATUS",
            "NO_COLOR",
            "EXAMPLES",
            "MQDIAG CALLS",
        ] {
            assert!(s.contains(want), "{want} missing");
        }
        assert!(
            !s.contains("mqdiag-analyze(1)"),
            "points to a page that does not exist"
        );
        assert!(!s.contains('`'), "backticks shown literally");
    }
}
