//! The readers crate on its own: find every input of a case directory (or
//! archive), recognise each file's format, and read its events, with no
//! analysis and no command line. Each source's events come in its own time
//! order; merging them into one timeline is `mqdiag_analysis::timeline`.
//!
//! ```text
//! cargo run --example read_case -- fixtures/case-mixed
//! ```

use mqdiag_model::timefmt::rfc3339;
use mqdiag_readers::open::{Request, open};
use mqdiag_readers::source::ReadOptions;
use std::io::Write;
use std::path::PathBuf;

/// Open every input under `paths` and write each source's first three
/// events, then the facts of every file it read.
fn run(paths: Vec<PathBuf>, out: &mut dyn Write) -> Result<(), Box<dyn std::error::Error>> {
    let req = Request {
        paths,
        ..Default::default()
    };
    let (sources, unwalked) = open(&req, &ReadOptions::default(), &())?;
    // Paths that could not be walked or unpacked come with their problems.
    for fi in &unwalked {
        for p in &fi.problems {
            writeln!(out, "{}: {}: {}", fi.path, p.code.as_str(), p.message)?;
        }
    }
    for mut source in sources {
        let mut shown = 0;
        while let Some(e) = source.next_event() {
            // The first three events of each source, then only counted.
            if shown < 3 {
                writeln!(
                    out,
                    "{}  {}:{}  {}",
                    rfc3339(&e.ts),
                    e.path(),
                    e.line,
                    e.text
                )?;
                shown += 1;
            }
        }
        // Once read, the facts of every file the source read.
        for fi in source.finish() {
            writeln!(
                out,
                "  {} ({}): {} events, {} problems",
                fi.path,
                fi.format.as_str(),
                fi.events,
                fi.problem_count
            )?;
        }
    }
    Ok(())
}

fn main() {
    let paths: Vec<PathBuf> = std::env::args_os().skip(1).map(PathBuf::from).collect();
    if let Err(e) = run(paths, &mut std::io::stdout().lock()) {
        eprintln!("read_case: {e}");
        std::process::exit(2);
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    /// Every file of the mixed case is read with its format named.
    #[test]
    fn reads_the_mixed_case() {
        let case = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/case-mixed");
        let mut out = Vec::new();
        super::run(vec![case], &mut out).unwrap();
        let out = String::from_utf8(out).unwrap();
        assert!(
            out.contains("(errlog-text)") && out.contains("(fmt-trace)"),
            "{out}"
        );
        assert!(!out.contains(" (unknown): "), "{out}");
    }
}
