//! Text output fits 80 columns when standard output is not a terminal
//! (the tests' case): every verb's text on all of `fixtures/`, and the
//! help. `timeline` rows are the files' own lines and are not fitted.

mod common;

use common::mqdiag;

fn assert_fits(args: &[&str]) {
    let r = mqdiag(args);
    assert!(r.code == 0 || r.code == 1, "{args:?}: {}", r.stderr);
    assert!(!r.stdout.is_empty(), "{args:?}: no output");
    for (n, l) in r.stdout.lines().enumerate() {
        let w = l.chars().count();
        assert!(w <= 80, "{args:?} line {}: {w} columns: {l}", n + 1);
    }
}

#[test]
fn analyze_text_fits_eighty_columns() {
    assert_fits(&["analyze", "fixtures", "-q"]);
}

#[test]
fn calls_text_fits_eighty_columns_in_every_grouping() {
    for by in ["process", "thread", "connection", "verb"] {
        assert_fits(&["calls", "fixtures", "-q", "--by", by]);
    }
}

#[test]
fn inventory_and_rules_fit_eighty_columns() {
    assert_fits(&["inventory", "fixtures", "-q"]);
    assert_fits(&["rules"]);
    assert_fits(&["--help"]);
}

#[test]
fn calls_names_what_it_left_out_and_csv_keeps_it() {
    let r = mqdiag(&["calls", "fixtures/calls", "-q"]);
    assert!(
        r.stdout.contains("Left out to fit 80 columns:"),
        "{}",
        r.stdout
    );
    // The slowest call's place moved under its row, not dropped.
    assert!(
        r.stdout
            .contains("    slowest fixtures/calls/client/AMQ30512.0.FMT:43"),
        "{}",
        r.stdout
    );
    let csv = mqdiag(&["calls", "fixtures/calls", "-q", "--format", "csv"]);
    let head = csv.stdout.lines().next().unwrap_or_default();
    for c in ["ok", "open", "mean_us", "p50_us", "max_at", "reasons"] {
        assert!(head.split(',').any(|h| h == c), "{head}");
    }
}
