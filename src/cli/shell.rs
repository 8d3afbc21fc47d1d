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

/// The man page (roff) of mqdiag, its verbs listed in it.
pub fn man(out: &mut dyn Write) -> std::io::Result<()> {
    clap_mangen::Man::new(super::Cli::command()).render(out)?;
    out.flush()
}

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
    }
}
