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
        // Display columns: a Japanese or Chinese character takes two.
        let w = mqdiag_model::text::shown_len(l);
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

/// Issue 40: Chinese text is fitted by display width. The records of
/// fixtures/localised/zh-tw, each with its explanation on the message's
/// line (IBM's Traditional Chinese texts of AMQ9001 and AMQ9002, as
/// crates/readers/src/catalog/samples.rs cites them), so that evidence
/// lines are longer than a line: folded at 80 cells, not 80 characters.
#[test]
fn chinese_evidence_fits_eighty_display_columns() {
    let log = std::fs::read_to_string("fixtures/localised/zh-tw/errors/AMQERR01.LOG")
        .unwrap()
        .replace(
            "AMQ9001: 通道 'QMLOC.TO.QM2' 已正常結束。",
            "AMQ9001: 通道 'QMLOC.TO.QM2' 已正常結束。 到主機 'qm2host (10.0.0.2)(1414)' 的通道 \
             'QMLOC.TO.QM2' 已正常結束。 無。",
        )
        .replace(
            "AMQ9002: 通道 'QMLOC.TO.QM2' 正在啟動。",
            "AMQ9002: 通道 'QMLOC.TO.QM2' 正在啟動。 通道 'QMLOC.TO.QM2' 正在啟動。 無。\
             通道 'QMLOC.TO.QM2' 正在啟動。 通道 'QMLOC.TO.QM2' 正在啟動。",
        );
    let d = common::Scratch::new("zh-width");
    d.write("errors/AMQERR01.LOG", log.as_bytes());
    let out = common::stdout_of(&["analyze", "-q", &d.str()]);
    // The long lines are there, folded.
    assert!(out.contains("到主機"), "{out}");
    assert_fits(&["analyze", "-q", &d.str()]);
}

/// Issue 40: the Japanese error log of fixtures/field/ja (its AMQ9999
/// evidence line is 88 display columns wide) is folded at 80 display
/// columns.
#[test]
fn japanese_evidence_fits_eighty_display_columns() {
    let out = common::stdout_of(&["analyze", "-q", "fixtures/field/ja"]);
    assert!(out.contains("が異常終了しました。"), "{out}");
    assert_fits(&["analyze", "-q", "fixtures/field/ja"]);
}
