//! `mqdiag analyze`, the default verb. Inputs are
//! read once through the timeline; every pass sees each event; findings
//! are sealed (fingerprints), compared with a baseline, ordered, redacted
//! if asked, and rendered.

use crate::cli::InputArgs;
use crate::cli::{AnalyzeArgs, FailOn};
use crate::exit::{EXIT_FINDINGS, EXIT_OK, io_result};
use crate::fileinfo::FileInfo;
use crate::findings::Finding;
use crate::passes::{Order, Plan, RULES, RuleInfo};
use crate::report::redact::Redactor;
use crate::report::runinfo::RunInfo;
use crate::report::{self, Report};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// Largest baseline read: a report of a very large case is a few MB; a
/// path naming something else (a device, a huge file) is refused rather
/// than read into memory.
pub const MAX_BASELINE_BYTES: u64 = 64 << 20;

/// The fingerprints of an earlier JSON report.
fn read_baseline(p: &Path) -> Result<HashSet<String>, String> {
    use std::io::Read;
    let cannot = |e: &dyn std::fmt::Display| format!("cannot read baseline {}: {e}", p.display());
    // Checked before opening: opening a FIFO for reading waits for a writer.
    let md = std::fs::metadata(p).map_err(|e| cannot(&e))?;
    if !md.is_file() {
        return Err(cannot(&"not a regular file"));
    }
    if md.len() > MAX_BASELINE_BYTES {
        return Err(cannot(&format!(
            "{} bytes, more than the {} MiB a baseline report may have",
            md.len(),
            MAX_BASELINE_BYTES >> 20
        )));
    }
    // Streamed, keeping only the fingerprints: a report's evidence and
    // inputs are skipped as they are read, not built (a 51 MB report took
    // 2.3 GB read whole).
    let f = std::fs::File::open(p).map_err(|e| cannot(&e))?;
    // It may grow while it is read.
    let r = std::io::BufReader::new(f.take(MAX_BASELINE_BYTES + 1));
    let doc: BaselineDoc = serde_json::from_reader(r)
        .map_err(|e| format!("baseline {} is not a JSON report: {e}", p.display()))?;
    let findings = doc.findings.ok_or_else(|| {
        format!(
            "baseline {} is not an mqdiag JSON report (no `findings` list)",
            p.display()
        )
    })?;
    Ok(findings.into_iter().filter_map(|f| f.fingerprint).collect())
}

/// What a baseline report is read for; every other field is skipped.
#[derive(serde::Deserialize)]
struct BaselineDoc {
    findings: Option<Vec<BaselineFinding>>,
}

#[derive(serde::Deserialize)]
struct BaselineFinding {
    #[serde(default, deserialize_with = "string_or_skip")]
    fingerprint: Option<String>,
}

/// A fingerprint that is a string; anything else is no fingerprint.
fn string_or_skip<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    use serde::Deserialize;
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum S {
        Str(String),
        Other(serde::de::IgnoredAny),
    }
    Ok(match S::deserialize(d)? {
        S::Str(s) => Some(s),
        S::Other(_) => None,
    })
}

/// Report order: most severe first, then rule order, then time.
/// Within a rule, findings read in time order; the message rules
/// (`channel-error`, `tls-error`) group months of a log, so there what
/// happened last comes first, then what happened most.
fn order(findings: &mut [Finding]) {
    let rank: HashMap<&str, usize> = RULES.iter().enumerate().map(|(i, r)| (r.id, i)).collect();
    let recent: HashSet<&str> = RULES
        .iter()
        .filter(|r| r.order == Order::RecentFirst)
        .map(|r| r.id)
        .collect();
    let recent_first = |f: &Finding| recent.contains(f.rule.as_str());
    findings.sort_by(|a, b| {
        b.severity
            .cmp(&a.severity)
            .then_with(|| rank.get(a.rule.as_str()).cmp(&rank.get(b.rule.as_str())))
            .then_with(|| {
                if recent_first(a) {
                    b.last.cmp(&a.last).then_with(|| b.count.cmp(&a.count))
                } else {
                    a.first.cmp(&b.first)
                }
            })
            .then_with(|| a.fingerprint.cmp(&b.fingerprint))
    });
}

/// Seal every finding; fingerprints that still collide get a suffix in
/// their (stable) order so each one is unique in the report.
fn seal_all(findings: &mut [Finding]) {
    for f in findings.iter_mut() {
        f.seal();
    }
    let mut seen: HashMap<String, u32> = HashMap::new();
    for f in findings.iter_mut() {
        let n = seen.entry(f.fingerprint.clone()).or_insert(0);
        *n += 1;
        if *n > 1 {
            f.fingerprint = format!("{}-{n}", f.fingerprint);
        }
    }
}

/// Read the opened inputs once through the timeline, feed every event in
/// the time window to every pass, and return the inputs' facts and the
/// sealed, ordered findings (with `--redact`, redacted before sealing: a
/// fingerprint is then of the tokens, and cannot confirm a guessed name).
fn collect(
    input: &InputArgs,
    plan: &Plan,
    sources: Vec<Box<dyn crate::source::Source>>,
    discovery_rows: Vec<FileInfo>,
    redactor: Option<&Redactor>,
) -> Result<Collected, String> {
    collect_observed(input, plan, sources, discovery_rows, redactor, &mut |_| {})
}

/// `collect`, with `extra` shown every event in the window too
/// (`compare` counts message ids).
pub(crate) fn collect_observed(
    input: &InputArgs,
    plan: &Plan,
    sources: Vec<Box<dyn crate::source::Source>>,
    discovery_rows: Vec<FileInfo>,
    redactor: Option<&Redactor>,
    extra: &mut dyn FnMut(&crate::event::Event),
) -> Result<Collected, String> {
    let mut passes = plan.passes();
    // The report's MQI call table (per process; per verb for the HTML
    // chart): counted once, and read by the rules that report on calls;
    // not counted when none of them runs.
    let mut calls = crate::calls::Calls::new(crate::calls::By::Process, None);
    let mut count_calls = false;
    for p in passes.iter_mut() {
        count_calls |= p.takes_calls_table();
    }
    // FDC reports seen, for other findings to cite; FDCs are few, and
    // the cap keeps a case of thousands bounded.
    let mut fdcs: Vec<crate::passes::fdc::FdcSeen> = Vec::new();
    // The HTML report's overview and per-channel error charts.
    let mut charts = report::charts::Collector::new();
    let mut merged = input.merged(sources);
    let window = input.window(merged.reference_ts().as_ref())?;
    let mut feed = |e: &crate::event::Event| {
        if !window.contains(&e.ts) {
            return;
        }
        for p in passes.iter_mut() {
            p.observe(e);
        }
        if count_calls {
            calls.observe(e);
        }
        extra(e);
        charts.observe(e);
        if fdcs.len() < 10_000
            && let Some(d) = crate::passes::fdc::FdcSeen::of(e)
        {
            fdcs.push(d);
        }
    };
    while let Some(e) = merged.next_ref() {
        feed(e);
    }
    let mut inputs: Vec<FileInfo> = merged.finish();
    inputs.extend(discovery_rows);
    inputs.sort_by(|x, y| x.path.cmp(&y.path));
    let calls = calls.rows(&inputs);
    for p in passes.iter_mut() {
        p.calls_rows(&calls);
    }
    let mut findings: Vec<Finding> = passes.iter_mut().flat_map(|p| p.finish(&inputs)).collect();
    if let Some(r) = redactor {
        for f in &mut findings {
            report::redact::finding(r, f);
            // Chart series are named by address, channel or program.
            if let Some(c) = &mut f.chart {
                c.rename_series(|s| r.apply(s));
            }
        }
        for d in &mut fdcs {
            d.evidence.path = r.apply(&d.evidence.path);
            d.evidence.text = r.apply(&d.evidence.text);
        }
    }
    seal_all(&mut findings);
    // After sealing: whether FDC files are in the case does not change
    // the other findings' fingerprints.
    let gap_s = crate::passes::fdc::burst_gap_s(plan);
    crate::passes::fdc::cite_fdcs(&mut findings, &fdcs, gap_s);
    order(&mut findings);
    let calls = count_calls.then(|| {
        let calls_by_verb = crate::calls::by_verb(&calls);
        (calls, calls_by_verb)
    });
    Ok((inputs, findings, calls, charts.finish(), window))
}

/// Inputs' facts, sealed and ordered findings, the MQI call rows (per
/// process, per verb; `None`: not counted, as no rule that ran reads
/// them), the charts' data and the resolved time window.
pub(crate) type Collected = (
    Vec<FileInfo>,
    Vec<Finding>,
    Option<(Vec<crate::calls::Row>, Vec<crate::calls::Row>)>,
    report::charts::Collected,
    crate::timeline::TimeWindow,
);

pub fn run(a: AnalyzeArgs) -> Result<i32, String> {
    let plan = Plan::new(&a.only, &a.skip, &a.set)?;
    let kind = match a.format {
        Some(f) => f.into(),
        None => crate::outpath::infer(
            a.input.output.as_deref(),
            report::Kind::EXTENSIONS,
            "analyze",
        )?
        .unwrap_or(report::Kind::Text),
    };
    let baseline = a.baseline.as_deref().map(read_baseline).transpose()?;
    if let (Some(o), Some(b)) = (
        crate::outpath::target(a.input.output.as_deref()),
        &a.baseline,
    ) {
        crate::outpath::check(o, std::slice::from_ref(b))?;
    }
    let mut out = a.input.writer()?;
    let mut skip_files: Vec<PathBuf> = a.input.output.iter().cloned().collect();
    skip_files.extend(a.baseline.iter().cloned());
    let mut opts = a.input.read_options();
    opts.interest = Some(std::sync::Arc::new(plan.interest()));
    // With `--redact`: names and tokens learnt first, from every event,
    // as every verb learns them (so tokens agree between verbs).
    let redactor = a.input.learn_redaction(&skip_files)?;
    let (sources, discovery_rows) =
        a.input
            .open_except(&skip_files, &opts, a.input.progress_wanted())?;

    let (mut inputs, mut findings, calls, mut charts, window) =
        collect(&a.input, &plan, sources, discovery_rows, redactor.as_ref())?;
    let calls_counted = calls.is_some();
    if let Some(b) = &baseline {
        for f in &mut findings {
            f.baseline = b.contains(&f.fingerprint);
        }
    }
    let fail = a
        .fail_on
        .unwrap_or(FailOn::Never)
        .threshold()
        .is_some_and(|t| findings.iter().any(|f| !f.baseline && f.severity >= t));
    let nothing_read = crate::run::nothing_read(&inputs);

    let (mut calls, mut calls_by_verb) = calls.unwrap_or_default();
    if let Some(r) = &redactor {
        for i in &mut inputs {
            crate::run::redact_input(r, i);
        }
        for row in calls.iter_mut().chain(calls_by_verb.iter_mut()) {
            row.redact(r);
        }
        charts.redact(|s| r.apply(s));
    }
    let rules: Vec<&'static RuleInfo> = plan.rules.iter().map(|(r, _)| *r).collect();
    let mut run_info = RunInfo::new(
        std::env::args(),
        &a.only,
        &a.skip,
        &a.set,
        a.input.tz.map(crate::timefmt::offset_str),
        a.baseline.as_ref().map(|p| p.display().to_string()),
        a.input.redact,
    );
    if a.input.since.is_some() || a.input.until.is_some() {
        let t = |t: Option<crate::event::Ts>| t.map(|t| t.to_rfc3339());
        run_info.window = Some(report::runinfo::Window {
            since: a.input.since.clone(),
            until: a.input.until.clone(),
            from: t(window.since),
            to: t(window.until),
        });
    }
    if let Some(r) = &redactor {
        // The paths given on the command line name hosts and queue
        // managers too (`/var/mqm/qmgrs/QM1`).
        for arg in run_info
            .command
            .iter_mut()
            .chain(run_info.baseline.iter_mut())
        {
            *arg = r.apply(arg);
        }
    }
    let rep = Report {
        version: env!("CARGO_PKG_VERSION"),
        inputs: &inputs,
        findings: &findings,
        rules: &rules,
        baseline_used: baseline.is_some(),
        calls: &calls,
        calls_by_verb: &calls_by_verb,
        calls_counted,
        run: &run_info,
        charts: &charts,
    };
    let color = crate::report::color::ColorChoice::from(a.color)
        .wanted(crate::outpath::target(a.input.output.as_deref()).is_none());
    if nothing_read {
        // The report is still shown (it says why), but an `-o` file is
        // left as it was: the run could not be done.
        if matches!(out, crate::outpath::Output::Stdout(_)) {
            io_result(
                report::write_painted(kind, &mut out, &rep, color).and_then(|_| out.finish()),
            )?;
        }
        return Err(crate::run::nothing_read_error(&inputs));
    }
    io_result(report::write_painted(kind, &mut out, &rep, color).and_then(|_| out.finish()))?;
    crate::run::reader_panic_check(&inputs)?;
    Ok(if fail { EXIT_FINDINGS } else { EXIT_OK })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The readers skip what no pass reads; the findings must be exactly
    /// those of reading everything, and the same with one worker or many.
    #[test]
    fn baseline_must_be_a_regular_file_of_bounded_size() {
        let d = tempfile::tempdir().unwrap();
        let ok = d.path().join("ok.json");
        std::fs::write(&ok, r#"{"findings": [{"fingerprint": "abc"}]}"#).unwrap();
        assert_eq!(read_baseline(&ok).unwrap().len(), 1);
        let err = read_baseline(d.path()).unwrap_err();
        assert!(err.contains("not a regular file"), "{err}");
        // Sparse: nothing is written, but its size is past the limit.
        let big = d.path().join("big.json");
        let f = std::fs::File::create(&big).unwrap();
        f.set_len(MAX_BASELINE_BYTES + 1).unwrap();
        let err = read_baseline(&big).unwrap_err();
        assert!(err.contains("more than the 64 MiB"), "{err}");
        #[cfg(unix)]
        {
            let fifo = d.path().join("fifo");
            let made = std::process::Command::new("mkfifo").arg(&fifo).status();
            if made.is_ok_and(|s| s.success()) {
                // Refused at once, not waited on.
                let err = read_baseline(&fifo).unwrap_err();
                assert!(err.contains("not a regular file"), "{err}");
            }
        }
    }

    /// One rule alone reads only what it asks for (the MQI calls only for
    /// the rule that reads them): its findings are those of reading
    /// everything, and the calls are counted only with that rule.
    #[test]
    fn one_rule_alone_reads_what_it_needs_and_finds_the_same() {
        let fixtures = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures");
        for rule in crate::passes::RULES {
            let plan = Plan::new(&[rule.id.to_string()], &[], &[]).unwrap();
            let run = |interest: bool| {
                let input = InputArgs {
                    paths: vec![fixtures.clone()],
                    jobs: Some(1),
                    quiet: true,
                    ..Default::default()
                };
                let mut opts = input.read_options();
                if interest {
                    opts.interest = Some(std::sync::Arc::new(plan.interest()));
                }
                let (sources, rows) = input.open_except(&[], &opts, false).unwrap();
                let (_, findings, calls, _, _) =
                    collect(&input, &plan, sources, rows, None).unwrap();
                (serde_json::to_string_pretty(&findings).unwrap(), calls)
            };
            let (full, calls) = run(false);
            let (narrow, narrow_calls) = run(true);
            assert_eq!(full, narrow, "--only {}", rule.id);
            assert_eq!(
                calls.is_some(),
                ["mqi-failures", "resource-limit"].contains(&rule.id),
                "{}",
                rule.id
            );
            assert_eq!(
                calls.map(|(c, _)| c.len()),
                narrow_calls.map(|(c, _)| c.len())
            );
        }
    }

    #[test]
    fn interest_and_workers_do_not_change_findings() {
        let fixtures = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures");
        let plan = Plan::new(&[], &[], &[]).unwrap();
        let run = |interest: bool, jobs: usize| {
            let input = InputArgs {
                paths: vec![fixtures.clone()],
                jobs: Some(jobs),
                quiet: true,
                ..Default::default()
            };
            let mut opts = input.read_options();
            if interest {
                opts.interest = Some(std::sync::Arc::new(plan.interest()));
            }
            let (sources, rows) = input.open_except(&[], &opts, false).unwrap();
            let (_, findings, calls, _, _) = collect(&input, &plan, sources, rows, None).unwrap();
            assert!(calls.is_some_and(|(c, _)| !c.is_empty()));
            serde_json::to_string_pretty(&findings).unwrap()
        };
        let full = run(false, 1);
        assert!(full.contains("qtime-growth") && full.contains("tcp-send-stall"));
        // Compared line by line so a failure shows the first difference.
        for other in [run(true, 1), run(true, 3)] {
            for (i, (a, b)) in full.lines().zip(other.lines()).enumerate() {
                assert_eq!(a, b, "line {i}");
            }
            assert_eq!(full.lines().count(), other.lines().count());
        }
    }
}
