//! Entry points for the fuzz targets (`fuzz/`) and for the tests that
//! replay the inputs they found (`tests/fuzz_regressions.rs`): both call
//! `run(target, bytes)`, so a crash found by a fuzzer is replayed on stable
//! through exactly the code it crashed. Each reader names its target
//! (`Reader::fuzz`); a new one is that and a three-line file in
//! `fuzz/fuzz_targets/` with its `[[bin]]` in `fuzz/Cargo.toml`.
//!
//! Not part of the user contract: hidden from the documentation.

use crate::cli::InputArgs;
use crate::cli::{AnalyzeArgs, ReportFormat};
use chrono::NaiveDate;
use mqdiag_model::sink::{RowSink, RowSpec, TimelineFormat};
use mqdiag_readers::formats::{self, Reader};
use mqdiag_readers::input::{Input, discover};
use mqdiag_readers::source::{Parallel, ReadOptions, Source};
use std::sync::Arc;

/// A target beyond the readers' own: its name (the `fuzz/fuzz_targets/
/// <name>.rs` file and the `tests/fuzz_regressions/<name>/` directory) and
/// what it runs.
pub type Target = (&'static str, fn(&[u8]));

/// Targets besides each reader's (`Reader::fuzz`); one named as a reader's
/// runs after that reader's events.
static EXTRA: &[Target] = &[
    ("trace", trace_rows),
    ("archive", archive),
    ("analyze", analyze),
];

/// Every target's name: each reader's, then the others.
pub fn targets() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = formats::READERS
        .iter()
        .filter_map(|r| r.fuzz())
        .map(|f| f.target)
        .collect();
    for (n, _) in EXTRA {
        if !names.contains(n) {
            names.push(n);
        }
    }
    names
}

/// Run the target called `name` on `data`; false when there is none.
pub fn run(name: &str, data: &[u8]) -> bool {
    let mut ran = false;
    for r in formats::READERS {
        if let Some(f) = r.fuzz().filter(|f| f.target == name && !f.names.is_empty()) {
            events(*r, f.names[data.len() % f.names.len()], data);
            ran = true;
        }
    }
    if let Some((_, f)) = EXTRA.iter().find(|(n, _)| *n == name) {
        f(data);
        ran = true;
    }
    ran
}

/// Options with a date and offset, so that files stating neither still
/// give events (the code past the clock is what is worth reaching).
fn options() -> ReadOptions {
    ReadOptions {
        date: NaiveDate::from_ymd_opt(2024, 3, 1),
        tz: chrono::FixedOffset::east_opt(3600),
        jobs: 1,
        ..Default::default()
    }
}

/// Every event of `reader` over `data` (named `name`: some readers look at
/// the name), then the inventory rows; the sniffers see it too.
fn events(reader: &dyn Reader, name: &str, data: &[u8]) {
    for r in formats::READERS {
        r.sniff(name, &data[..data.len().min(formats::SNIFF_BYTES)]);
    }
    let input = Input::from_bytes(name, data.to_vec());
    // Prepared as in a run of this one file: the fuzzer reaches `prepare`.
    let opts = options();
    let prepared = reader.prepare(
        &formats::Siblings::new(vec![(reader.format(), &input)]),
        &opts,
    );
    drain(reader.open_with(vec![input.clone()], &opts, prepared));
}

fn drain(mut src: Box<dyn Source>) {
    while let Some(e) = src.next_event() {
        std::hint::black_box(&e);
    }
    std::hint::black_box(src.finish());
}

/// The `timeline` rows of a source, each call asking for a few rows at a
/// time (so that calls end mid-file, as they do in a run).
fn rows(mut src: Box<dyn Source>, format: TimelineFormat) -> Vec<u8> {
    let mut sink = RowSink::new(Arc::new(RowSpec::new(format)));
    let mut out = Vec::new();
    let mut keys = Vec::new();
    while src.next_rows(&mut sink, &mut out, 7, 4096, &mut |m, s, e| {
        keys.push((m.key, m.line, s, e))
    }) {}
    std::hint::black_box(src.finish());
    out
}

/// A text trace's `timeline` rows read alone and with a helper thread on
/// small blocks, which must be the same rows (the helpers' promise,
/// checked here on whatever the fuzzer makes).
fn trace_rows(data: &[u8]) {
    let name = "AMQ1234.0.FMT";
    let open = |parallel: Parallel| {
        let opts = ReadOptions {
            parallel,
            ..options()
        };
        let input = Input::from_bytes(name, data.to_vec());
        formats::trace::TraceReader.open(vec![input], &opts)
    };
    let alone = rows(open(Parallel::default()), TimelineFormat::Text);
    let helped = rows(
        open(Parallel {
            helpers: 1,
            block: 256,
            min_bytes: 0,
        }),
        TimelineFormat::Text,
    );
    assert!(
        alone == helped,
        "rows differ with a helper:\n--- alone\n{}\n--- helped\n{}",
        String::from_utf8_lossy(&alone),
        String::from_utf8_lossy(&helped)
    );
    rows(open(Parallel::default()), TimelineFormat::Jsonl);
}

/// Write `data` as one file in a fresh temporary directory (removed after).
fn in_temp_file(name: &str, data: &[u8], f: impl FnOnce(&std::path::Path)) {
    let Ok(dir) = tempfile::tempdir() else { return };
    let path = dir.path().join(name);
    if std::fs::write(&path, data).is_ok() {
        f(&path);
    }
}

/// Archive discovery on bytes that may be a zip, tar or gzip file: every
/// member found is then sniffed and read.
fn archive(data: &[u8]) {
    in_temp_file("case.zip", data, |p| {
        let found = discover(&[p.to_path_buf()]);
        std::hint::black_box(&found.problems);
        for s in formats::open_all(found.inputs, &options()) {
            drain(s);
        }
    });
}

/// The whole `analyze` verb on one file (any format, archives too), with a
/// JSON report written to a file that is thrown away.
fn analyze(data: &[u8]) {
    let Ok(dir) = tempfile::tempdir() else { return };
    let case = dir.path().join("case");
    if std::fs::create_dir(&case).is_err() || std::fs::write(case.join("input"), data).is_err() {
        return;
    }
    let a = AnalyzeArgs {
        input: InputArgs {
            paths: vec![case],
            output: Some(dir.path().join("report.json")),
            quiet: true,
            jobs: Some(1),
            tz: chrono::FixedOffset::east_opt(0),
            date: NaiveDate::from_ymd_opt(2024, 3, 1),
            ..Default::default()
        },
        format: Some(ReportFormat::Json),
        ..Default::default()
    };
    // An error (nothing readable) is an answer, not a crash.
    let _ = std::hint::black_box(crate::verbs::analyze::run(a));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_target_runs_on_a_fixture() {
        let trace = include_bytes!("../fixtures/fdc/AMQ3321.0.FDC");
        for name in targets() {
            assert!(run(name, trace), "{name}");
        }
        assert!(!run("no-such-target", b""));
    }

    #[test]
    fn every_target_has_its_cargo_fuzz_binary() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/fuzz");
        let manifest = std::fs::read_to_string(format!("{dir}/Cargo.toml")).unwrap();
        for name in targets() {
            let file = format!("{dir}/fuzz_targets/{name}.rs");
            let body = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{file}: {e}"));
            assert!(body.contains(&format!("run(\"{name}\"")), "{file}");
            assert!(manifest.contains(&format!("name = \"{name}\"")), "{name}");
        }
    }

    #[test]
    fn the_trace_target_checks_helpers_against_reading_alone() {
        let text = std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/fixtures/trace/AMQ622742.0.FMT"
        ))
        .unwrap();
        // Reaches the comparison with rows to compare.
        let input = Input::from_bytes("AMQ1234.0.FMT", text.clone());
        let out = rows(
            formats::trace::TraceReader.open(vec![input], &options()),
            TimelineFormat::Text,
        );
        assert!(out.len() > 100, "{}", String::from_utf8_lossy(&out));
        assert!(run("trace", &text));
    }
}
