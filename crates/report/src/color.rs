//! Colour for the text report on a terminal: severity words and rule ids
//! in the summary table and the finding heads, and the headline's counts.
//!
//! It works on the finished text, line by line, after control characters
//! from the inputs were escaped (`ControlEscaper`): the only escape
//! sequences in the output are the ones added here, so an input line cannot
//! forge or break colour. Lines are recognised by the shapes `text.rs`
//! writes; anything else passes through unchanged.

use regex::Regex;
use std::io::{self, IsTerminal, Write};
use std::sync::LazyLock;

/// `--color`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ColorChoice {
    /// Colour when writing to a terminal and `NO_COLOR` is not set.
    #[default]
    Auto,
    Always,
    Never,
}

impl ColorChoice {
    /// Whether to colour output going to standard output (`to_stdout`)
    /// or to a file. `--color always` wins over `NO_COLOR` (an explicit
    /// flag overrides the environment, as no-color.org asks).
    pub fn wanted(self, to_stdout: bool) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                to_stdout
                    && io::stdout().is_terminal()
                    && auto_allowed(
                        std::env::var_os("NO_COLOR").as_deref(),
                        std::env::var_os("TERM").as_deref(),
                    )
            }
        }
    }
}

/// `NO_COLOR` set to anything non-empty, or a dumb terminal, means none.
fn auto_allowed(no_color: Option<&std::ffi::OsStr>, term: Option<&std::ffi::OsStr>) -> bool {
    no_color.is_none_or(|v| v.is_empty()) && term.is_none_or(|t| t != "dumb")
}

const RESET: &str = "\x1b[0m";

fn severity_style(word: &str) -> Option<&'static str> {
    match word.to_ascii_lowercase().as_str() {
        "error" => Some("\x1b[1;31m"),
        "warning" => Some("\x1b[1;33m"),
        "info" => Some("\x1b[1;36m"),
        _ => None,
    }
}

const RULE: &str = "\x1b[35m";
const DIM: &str = "\x1b[2m";

/// `  3  warning   tcp-send-stall        12` (the summary table).
static ROW: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^( *\d+  )(error|warning|info)( +)([a-z][a-z0-9-]*)( +\d+)$").expect("regex")
});
/// `[3] WARNING tcp-send-stall (baseline)` (a finding's head).
static HEAD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(\[\d+\] )(ERROR|WARNING|INFO) ([a-z][a-z0-9-]*)(.*)$").expect("regex")
});
/// `mqdiag 0.1.0: 2 errors, 1 warning, ...` (the headline).
static COUNT: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\b(\d+) (errors?|warnings?|info)\b").expect("regex"));

/// One line of the text report, coloured (without its line end).
pub(crate) fn paint(line: &str) -> String {
    if let Some(c) = ROW.captures(line) {
        let sev = severity_style(&c[2]).unwrap_or("");
        return format!(
            "{}{sev}{}{RESET}{}{RULE}{}{RESET}{}",
            &c[1], &c[2], &c[3], &c[4], &c[5]
        );
    }
    if let Some(c) = HEAD.captures(line) {
        let sev = severity_style(&c[2]).unwrap_or("");
        let rest = if c[4].is_empty() {
            String::new()
        } else {
            format!("{DIM}{}{RESET}", &c[4])
        };
        return format!(
            "{}{sev}{}{RESET} {RULE}{}{RESET}{rest}",
            &c[1], &c[2], &c[3]
        );
    }
    if line.starts_with("mqdiag ") && !line.starts_with("mqdiag: ") {
        return COUNT
            .replace_all(line, |c: &regex::Captures| {
                let word = c[2].trim_end_matches('s');
                match severity_style(word) {
                    Some(s) if &c[1] != "0" => format!("{s}{} {}{RESET}", &c[1], &c[2]),
                    _ => c[0].to_string(),
                }
            })
            .into_owned();
    }
    line.to_string()
}

/// A writer that colours whole lines on their way to `out`.
pub(crate) struct Colorize<'a> {
    out: &'a mut dyn Write,
    line: Vec<u8>,
}

impl<'a> Colorize<'a> {
    pub(crate) fn new(out: &'a mut dyn Write) -> Self {
        Colorize {
            out,
            line: Vec::new(),
        }
    }

    fn emit(&mut self) -> io::Result<()> {
        let s = String::from_utf8_lossy(&self.line);
        let painted = paint(&s);
        self.out.write_all(painted.as_bytes())?;
        self.line.clear();
        Ok(())
    }
}

impl Write for Colorize<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut rest = buf;
        while let Some(i) = memchr::memchr(b'\n', rest) {
            self.line.extend_from_slice(&rest[..i]);
            self.emit()?;
            self.out.write_all(b"\n")?;
            rest = &rest[i + 1..];
        }
        self.line.extend_from_slice(rest);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if !self.line.is_empty() {
            self.emit()?;
        }
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsStr;

    #[test]
    fn summary_rows_and_heads_are_coloured() {
        let row = paint(" 3  warning   tcp-send-stall      12");
        assert_eq!(
            row,
            " 3  \x1b[1;33mwarning\x1b[0m   \x1b[35mtcp-send-stall\x1b[0m      12"
        );
        let head = paint("[1] ERROR channel-error (baseline)");
        assert!(head.starts_with("[1] \x1b[1;31mERROR\x1b[0m \x1b[35mchannel-error\x1b[0m"));
        assert!(head.ends_with("\x1b[2m (baseline)\x1b[0m"));
        let headline = paint("mqdiag 0.1.0: 2 errors, 0 warnings, 1 info in 3 files");
        assert!(headline.contains("\x1b[1;31m2 errors\x1b[0m"));
        assert!(headline.contains(" 0 warnings,"), "{headline}");
        assert!(headline.contains("\x1b[1;36m1 info\x1b[0m"));
    }

    #[test]
    fn other_lines_pass_unchanged() {
        for l in [
            "    evidence  a.FMT:12  10:00:00 error 3 in send",
            "    time     2024-01-01T00:00:00Z",
            "mqdiag: no readable input",
            "",
        ] {
            assert_eq!(paint(l), l);
        }
    }

    #[test]
    fn the_writer_colours_lines_split_across_writes() {
        let mut v = Vec::new();
        {
            let mut c = Colorize::new(&mut v);
            c.write_all(b"[1] ERR").unwrap();
            c.write_all(b"OR fdc\nplain\nlast").unwrap();
            c.flush().unwrap();
        }
        let s = String::from_utf8(v).unwrap();
        assert_eq!(
            s,
            "[1] \x1b[1;31mERROR\x1b[0m \x1b[35mfdc\x1b[0m\nplain\nlast"
        );
    }

    #[test]
    fn no_color_and_dumb_terminals_switch_auto_off() {
        assert!(auto_allowed(None, Some(OsStr::new("xterm-256color"))));
        assert!(auto_allowed(Some(OsStr::new("")), None));
        assert!(!auto_allowed(Some(OsStr::new("1")), None));
        assert!(!auto_allowed(None, Some(OsStr::new("dumb"))));
        assert!(ColorChoice::Always.wanted(false));
        assert!(!ColorChoice::Never.wanted(true));
        // Not a terminal in tests, and never for a file.
        assert!(!ColorChoice::Auto.wanted(false));
    }
}
