//! Entry points for the fuzz targets (`fuzz/`) and for the tests that
//! replay the inputs they found (`tests/fuzz_regressions.rs`): both call
//! `run(target, bytes)`, so a crash found by a fuzzer is replayed on stable
//! through exactly the code it crashed. Each reader names its target
//! (`Reader::fuzz`); a new one is that and a three-line file
//! `fuzz/src/bin/<target>.rs` (Cargo finds it). Its corpus is seeded from
//! the fixtures its reader takes (`seeds`, `scripts/fuzz-seeds.sh`).
//!
//! Not part of the user contract: hidden from the documentation.

use crate::cli::InputArgs;
use crate::cli::{AnalyzeArgs, ReportFormat};
use chrono::NaiveDate;
use mqdiag_model::sink::{RowSink, RowSpec, TimelineFormat};
use mqdiag_readers::formats::{self, Reader};
use mqdiag_readers::input::{Input, discover};
use mqdiag_readers::source::{Parallel, ReadOptions, Source};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A target beyond the readers' own: its name (the `fuzz/src/bin/
/// <name>.rs` file and the `tests/fuzz_regressions/<name>/` directory) and
/// what it runs.
pub type Target = (&'static str, fn(&[u8]));

/// Targets besides each reader's (`Reader::fuzz`); one named as a reader's
/// runs after that reader's events.
static EXTRA: &[Target] = &[
    ("trace", trace_rows),
    ("archive", archive),
    (ANALYZE, analyze),
    ("redact", redact),
];

/// Name learning and redaction of free text (`--redact`): lossy UTF-8, as
/// the readers hand text on.
fn redact(data: &[u8]) {
    mqdiag_model::redact::fuzz_text(&String::from_utf8_lossy(data));
}

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

/// The target that runs the whole `analyze` verb: seeded with a small
/// file of each reader's.
const ANALYZE: &str = "analyze";

/// Seeds for the fuzz corpora from the files under `dir` (the fixtures):
/// each file for the target of the reader that takes it (sniffed as a run
/// sniffs it), and the smallest non-empty file of each reader's target for
/// `analyze`; in path order. A new reader's fixtures seed its target with
/// no list to extend. (`archive` is seeded with archives the script builds.)
pub fn seeds(dir: &Path) -> Vec<(&'static str, PathBuf)> {
    let mut files = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(d) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                dirs.push(p);
            } else {
                files.push(p);
            }
        }
    }
    files.sort();
    let mut out: Vec<(&'static str, PathBuf)> = Vec::new();
    let mut smallest: BTreeMap<&'static str, (u64, PathBuf)> = BTreeMap::new();
    for p in files {
        let name = p.file_name().unwrap_or_default().to_string_lossy();
        let Ok(input) = Input::from_path(&name, &p) else {
            continue;
        };
        let bytes = input.bytes;
        let Some(target) = formats::sniff(input)
            .reader
            .and_then(|r| r.fuzz())
            .map(|f| f.target)
        else {
            continue;
        };
        if bytes > 0 && smallest.get(target).is_none_or(|(b, _)| bytes < *b) {
            smallest.insert(target, (bytes, p.clone()));
        }
        out.push((target, p));
    }
    out.extend(smallest.into_values().map(|(_, p)| (ANALYZE, p)));
    out
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
            dense_after: 0,
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

    /// Each target's file in `fuzz/src/bin/` runs it, and each file there
    /// is a target's (Cargo builds every file there as a fuzz binary).
    #[test]
    fn every_target_has_its_cargo_fuzz_binary() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/fuzz/src/bin");
        let names = targets();
        for name in &names {
            let file = format!("{dir}/{name}.rs");
            let body = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{file}: {e}"));
            assert!(body.contains(&format!("run(\"{name}\"")), "{file}");
        }
        let mut files = 0;
        for f in std::fs::read_dir(dir).unwrap() {
            let p = f.unwrap().path();
            let stem = p.file_stem().unwrap().to_string_lossy().into_owned();
            assert!(
                names.contains(&stem.as_str()),
                "{}: no such target",
                p.display()
            );
            files += 1;
        }
        assert_eq!(files, names.len());
        // Targets are found, not listed: a `[[bin]]` would shadow that.
        let manifest = std::fs::read_to_string(format!("{dir}/../../Cargo.toml")).unwrap();
        assert!(!manifest.lines().any(|l| l.trim() == "[[bin]]"));
    }

    /// Every reader's target and `analyze` get seeds from the fixtures,
    /// each file for the reader that takes it.
    #[test]
    fn the_fixtures_seed_every_reader_target() {
        let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
        let seeds = seeds(&fixtures);
        let readers: Vec<&str> = formats::READERS
            .iter()
            .filter_map(|r| r.fuzz())
            .map(|f| f.target)
            .collect();
        for t in &readers {
            assert!(seeds.iter().any(|(s, _)| s == t), "no seed for {t}");
        }
        let seed = |path: &str| {
            seeds
                .iter()
                .filter(|(_, p)| p.ends_with(path))
                .map(|(t, _)| *t)
                .collect::<Vec<_>>()
        };
        assert_eq!(seed("fdc/AMQ3321.0.FDC"), ["fdc"]);
        assert_eq!(seed("trace/AMQ622742.0.FMT"), ["trace"]);
        assert!(seed("client-errors/AMQERR01.LOG").contains(&"errlog_text"));
        // One file of each reader's for `analyze`, none empty.
        let analyze: Vec<_> = seeds.iter().filter(|(t, _)| *t == ANALYZE).collect();
        assert_eq!(analyze.len(), readers.len(), "{analyze:?}");
        assert!(analyze.iter().all(|(_, p)| p.metadata().unwrap().len() > 0));
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
