//! Entry points for the fuzz targets (`fuzz/`) and for the tests that
//! replay the inputs they found (`tests/fuzz_regressions.rs`): both call
//! `run(target, bytes)`, so a crash found by a fuzzer is replayed on stable
//! through exactly the code it crashed. A new reader is one line in
//! `TARGETS` and one three-line file in `fuzz/fuzz_targets/`.
//!
//! Not part of the user contract: hidden from the documentation.

use crate::cli::InputArgs;
use crate::cli::{AnalyzeArgs, ReportFormat};
use crate::formats::{self, Reader};
use crate::input::{Input, discover};
use crate::sink::{RowSink, RowSpec, TimelineFormat};
use crate::source::{Parallel, ReadOptions, Source};
use chrono::NaiveDate;
use std::sync::Arc;

/// A fuzz target: its name (the `fuzz/fuzz_targets/<name>.rs` file and the
/// `tests/fuzz_regressions/<name>/` directory) and what it runs.
pub type Target = (&'static str, fn(&[u8]));

/// Every target.
pub static TARGETS: &[Target] = &[
    ("trace", trace),
    ("binary_trace", binary_trace),
    ("errlog_text", errlog_text),
    ("errlog_json", errlog_json),
    ("fdc", fdc),
    ("joblog", joblog),
    ("smf_csv", smf_csv),
    ("container_log", container_log),
    ("ffstsummary", ffstsummary),
    ("archive", archive),
    ("analyze", analyze),
];

/// Run the target called `name` on `data`; false when there is none.
pub fn run(name: &str, data: &[u8]) -> bool {
    match TARGETS.iter().find(|(n, _)| *n == name) {
        Some((_, f)) => {
            f(data);
            true
        }
        None => false,
    }
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
    drain(reader.open(vec![input], &options()));
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

/// A text trace: events; `timeline` rows read alone and with a helper
/// thread on small blocks, which must be the same rows (the helpers'
/// promise, checked here on whatever the fuzzer makes).
fn trace(data: &[u8]) {
    let name = "AMQ1234.0.FMT";
    events(&formats::trace::TraceReader, name, data);
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

fn binary_trace(data: &[u8]) {
    events(
        &formats::binary_trace::BinaryTraceReader,
        "AMQ1234.0.TRC",
        data,
    );
}

fn errlog_text(data: &[u8]) {
    events(
        &formats::errlog_text::ErrlogTextReader,
        "AMQERR01.LOG",
        data,
    );
}

fn errlog_json(data: &[u8]) {
    events(
        &formats::errlog_json::ErrlogJsonReader,
        "AMQERR01.json",
        data,
    );
}

fn fdc(data: &[u8]) {
    events(&formats::fdc::FdcReader, "AMQ1234.0.FDC", data);
}

fn joblog(data: &[u8]) {
    events(
        &formats::joblog::JoblogReader,
        "MQ1ACHIN.JESMSGLG.txt",
        data,
    );
}

fn container_log(data: &[u8]) {
    events(
        &formats::container_log::ContainerLogReader,
        "mq-container.log",
        data,
    );
}

fn ffstsummary(data: &[u8]) {
    events(
        &formats::ffstsummary::FfstSummaryReader,
        "FFST.output",
        data,
    );
}

/// The SMF reader takes the structure from the file name when the header
/// does not say: the length picks one of the names `mqsmfcsv` writes.
fn smf_csv(data: &[u8]) {
    const NAMES: &[&str] = &[
        "SMF-WTAS.csv",
        "SMF-WQ.csv",
        "SMF-QMST.csv",
        "SMF-QCST.csv",
        "SMF-QCCT.csv",
        "SMF-WTID.csv",
        "SMF-QPST.csv",
        "SMF-QQST.csv",
        "SMF-QCTDNS.csv",
        "SMF-QCTSSL.csv",
        "SMF-QMAC.csv",
        "data.csv",
    ];
    events(
        &formats::smf::SmfCsvReader,
        NAMES[data.len() % NAMES.len()],
        data,
    );
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
        for (name, _) in TARGETS {
            assert!(run(name, trace), "{name}");
        }
        assert!(!run("no-such-target", b""));
    }

    #[test]
    fn every_target_has_its_cargo_fuzz_binary() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/fuzz");
        let manifest = std::fs::read_to_string(format!("{dir}/Cargo.toml")).unwrap();
        for (name, _) in TARGETS {
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
        trace(&text);
    }
}
