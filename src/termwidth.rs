//! The width text output is fitted to: the terminal's when standard
//! output is one, else 80 columns (files and pipes get the same text
//! whatever terminal the command ran in).

use std::io::IsTerminal;
use std::path::Path;

pub const DEFAULT: usize = 80;

/// `output`: the `-o` path, if any (`-` is standard output).
pub fn for_output(output: Option<&Path>) -> usize {
    let to_stdout = output.is_none_or(|p| p == Path::new("-"));
    if !to_stdout || !std::io::stdout().is_terminal() {
        return DEFAULT;
    }
    terminal_size::terminal_size_of(std::io::stdout())
        .map(|(w, _)| usize::from(w.0))
        .filter(|w| *w >= 20)
        .unwrap_or(DEFAULT)
}
