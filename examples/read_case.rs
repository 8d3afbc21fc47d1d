//! The readers crate on its own: find every input of a case directory (or
//! archive), recognise each file's format, and read its events, with no
//! analysis and no command line. Each source's events come in its own time
//! order; merging them into one timeline is `mqdiag_analysis::timeline`.
//!
//! ```text
//! cargo run --example read_case -- fixtures/case-mixed
//! ```

use mqdiag_model::timefmt::rfc3339;
use mqdiag_readers::formats::open_all;
use mqdiag_readers::input::discover;
use mqdiag_readers::source::ReadOptions;
use std::path::PathBuf;

fn main() {
    let paths: Vec<PathBuf> = std::env::args_os().skip(1).map(PathBuf::from).collect();
    let paths = if paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        paths
    };
    let found = discover(&paths);
    // Paths that could not be walked or unpacked come with their problems.
    for fi in &found.problems {
        for p in &fi.problems {
            println!("{}: {}: {}", fi.path, p.code.as_str(), p.message);
        }
    }
    for mut source in open_all(found.inputs, &ReadOptions::default()) {
        let mut shown = 0;
        while let Some(e) = source.next_event() {
            // The first three events of each source, then only counted.
            if shown < 3 {
                println!("{}  {}:{}  {}", rfc3339(&e.ts), e.path(), e.line, e.text);
                shown += 1;
            }
        }
        // Once read, the facts of every file the source read.
        for fi in source.finish() {
            println!(
                "  {} ({}): {} events, {} problems",
                fi.path,
                fi.format.as_str(),
                fi.events,
                fi.problem_count
            );
        }
    }
}
