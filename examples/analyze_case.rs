//! The analysis as a library: run every rule over a case directory (or
//! archive) and print the findings, with no command line and no report
//! crate. The binary's `analyze` verb makes the same call and renders the
//! result.
//!
//! ```text
//! cargo run --example analyze_case -- fixtures/case-mixed
//! ```

use mqdiag_analysis::engine::{self, Options};
use mqdiag_analysis::passes::Plan;
use mqdiag_readers::open::Request;
use std::io::Write;
use std::path::PathBuf;

/// Analyse `paths` with every rule's defaults and write one line per
/// finding (severity, rule, title, count) and its first evidence line.
fn run(paths: Vec<PathBuf>, out: &mut dyn Write) -> Result<(), Box<dyn std::error::Error>> {
    let plan = Plan::new(&[], &[], &[])?;
    let req = Request {
        paths,
        ..Default::default()
    };
    let analysis = engine::analyze_paths(&req, &Options::new(plan))?;
    let events: u64 = analysis.inputs.iter().map(|i| i.events).sum();
    writeln!(
        out,
        "{} inputs, {events} events, {} findings",
        analysis.inputs.len(),
        analysis.findings.len()
    )?;
    for f in &analysis.findings {
        writeln!(
            out,
            "{:<7} {:<20} {} ({}x)",
            f.severity.as_str(),
            f.rule,
            f.title,
            f.count
        )?;
        if let Some(e) = f.evidence.first() {
            writeln!(out, "        {}:{}  {}", e.path, e.line, e.text.trim_end())?;
        }
    }
    Ok(())
}

fn main() {
    let paths: Vec<PathBuf> = std::env::args_os().skip(1).map(PathBuf::from).collect();
    if let Err(e) = run(paths, &mut std::io::stdout().lock()) {
        eprintln!("analyze_case: {e}");
        std::process::exit(2);
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    /// The example finds on the shipped mixed case what `mqdiag analyze`
    /// finds there: a DNS look-up and a send stall among them.
    #[test]
    fn finds_the_mixed_case() {
        let case = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/case-mixed");
        let mut out = Vec::new();
        super::run(vec![case], &mut out).unwrap();
        let out = String::from_utf8(out).unwrap();
        let first = out.lines().next().unwrap();
        assert!(
            first.ends_with("findings") && !first.ends_with(" 0 findings"),
            "{out}"
        );
        assert!(out.contains("slow-dns"), "{out}");
    }
}
