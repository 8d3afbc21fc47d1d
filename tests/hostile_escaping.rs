//! What inputs can plant in outputs: terminal escapes, invisible
//! characters that reorder or break what a viewer shows (bidi controls,
//! line separators), and CSV cells a spreadsheet would run as formulas.
//! Built at run time; every verb and format.

mod common;

use common::{Scratch, run_hostile};
use std::path::Path;

const SERVER: &str = include_str!("../fixtures/calls/server/AMQ40960.0.FMT");

/// Characters no output may carry raw.
const PLANTED: [char; 5] = ['\x1b', '\u{202e}', '\u{2066}', '\u{2028}', '\u{9b}'];

fn case(d: &Scratch) {
    // A process named like a formula, and a trace line that is one.
    let formula = SERVER.replace("amqrmppa", "=cmd|calc").replace(
        "      CompCode=2 Reason=2085",
        "      =HYPERLINK(\"http://x\")",
    );
    d.write("case/AMQ40960.0.FMT", formula.as_bytes());
    // A process name with a terminal escape and bidi controls; a line
    // with a line separator; a file name with a right-to-left override.
    let sneaky = SERVER
        .replace("40960", "40961")
        .replace("amqrmppa", "amq\x1b[31m\u{202e}ppa\u{2066}\u{9b}")
        .replace("CompCode=2 Reason=2085", "CompCode=2\u{2028}Reason=2085");
    d.write("case/AMQ40961\u{202e}TMF.0.FMT", sneaky.as_bytes());
}

fn outputs() -> Vec<Vec<&'static str>> {
    let mut v = Vec::new();
    for f in ["text", "json", "markdown", "html", "sarif"] {
        v.push(vec!["analyze", "--format", f]);
    }
    for f in ["text", "csv", "jsonl"] {
        v.push(vec!["timeline", "--format", f]);
    }
    for f in ["text", "json"] {
        v.push(vec!["inventory", "--format", f]);
    }
    for f in ["text", "csv", "json"] {
        v.push(vec!["calls", "--format", f]);
    }
    v
}

fn run(dir: &Path, args: &[&str]) -> String {
    let mut a = args.to_vec();
    a.extend(["-q", "--date", "2024-03-05", "case"]);
    let r = run_hostile(dir, &a);
    assert!(r.code <= 1, "{a:?}: exit {}: {}", r.code, r.stderr);
    r.stdout_head
}

#[test]
fn controls_and_bidi_are_shown_not_acted_on_in_every_output() {
    let d = Scratch::new("bidi");
    case(&d);
    for args in outputs() {
        let out = run(d.path(), &args);
        assert!(out.contains("AMQ40961"), "{args:?}: file not shown");
        let raw: Vec<char> = out.chars().filter(|c| PLANTED.contains(c)).collect();
        assert!(raw.is_empty(), "{args:?}: raw {raw:?} in\n{out}");
    }
}

/// Every cell of every CSV output: none starts with a formula character.
#[test]
fn csv_cells_never_start_a_formula() {
    let d = Scratch::new("csvinj");
    case(&d);
    for verb in ["timeline", "calls"] {
        let out = run(d.path(), &[verb, "--format", "csv"]);
        let mut rd = csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .from_reader(out.as_bytes());
        let mut formulas_shown = 0;
        for rec in rd.records() {
            let rec = rec.expect("CSV");
            for cell in rec.iter() {
                assert!(
                    !cell.starts_with(['=', '+', '-', '@']),
                    "{verb}: cell {cell:?} in {rec:?}"
                );
                formulas_shown += usize::from(cell.starts_with("'="));
            }
        }
        assert!(
            formulas_shown > 0,
            "{verb}: the planted cells are gone:\n{out}"
        );
    }
}
