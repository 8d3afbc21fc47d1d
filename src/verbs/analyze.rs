//! `mqdiag analyze`, the default verb: its flags mapped onto the
//! analysis's options, one call (`engine::analyze`), and the report
//! written in the format asked for.

use crate::cli::{AnalyzeArgs, FailOn};
use crate::exit::{EXIT_FINDINGS, EXIT_OK, io_result};
use mqdiag_analysis::engine::{self, Options, Watch};
use mqdiag_analysis::passes::{Plan, RuleInfo};
use mqdiag_report::runinfo::RunInfo;
use mqdiag_report::{self, Report};
use std::path::PathBuf;
use std::sync::Arc;

/// The run's watch: the window told, every event drawn into the charts.
struct Charting<'a> {
    teller: crate::run::Teller,
    charts: &'a mut mqdiag_report::charts::Collector,
}

impl Watch for Charting<'_> {
    fn window(&mut self, w: &mqdiag_analysis::timeline::TimeWindow) {
        self.teller.window(w);
    }
    fn event(&mut self, e: &mqdiag_model::event::Event) {
        self.charts.observe(e);
    }
}

pub fn run(a: AnalyzeArgs) -> Result<i32, String> {
    let plan = Plan::new(&a.only, &a.skip, &a.set).map_err(|e| e.to_string())?;
    let kind = match a.format {
        Some(f) => crate::outpath::agree(
            f.into(),
            &crate::outpath::value_name(&f),
            a.input.output.as_deref(),
            mqdiag_report::Kind::EXTENSIONS,
        )?,
        None => crate::outpath::infer(
            a.input.output.as_deref(),
            mqdiag_report::Kind::EXTENSIONS,
            "analyze",
        )?
        .unwrap_or(mqdiag_report::Kind::Text),
    };
    let baseline = a
        .baseline
        .as_deref()
        .map(engine::read_baseline)
        .transpose()
        .map_err(|e| e.to_string())?;
    if let (Some(o), Some(b)) = (
        crate::outpath::target(a.input.output.as_deref()),
        &a.baseline,
    ) {
        crate::outpath::check(o, std::slice::from_ref(b))?;
    }
    let mut out = a.input.writer()?;
    let mut skip_files: Vec<PathBuf> = a.input.output.iter().cloned().collect();
    skip_files.extend(a.baseline.iter().cloned());
    let mut read = a.input.read_options();
    read.interest = Some(Arc::new(plan.interest()));
    // With `--redact`: names and tokens learnt from every event of the
    // analysis's own read, as every verb learns them (so tokens agree
    // between verbs); only the report is redacted, so the input is read
    // once (twice where the read is not the learning pass's: traces, SMF).
    let unlearnt = a.input.unlearnt_redactor()?;
    let opened = a
        .input
        .open_except(&skip_files, &read, a.input.progress_wanted())?;
    let baseline_used = baseline.is_some();
    let opts = Options {
        plan: plan.clone(),
        read,
        window: a.input.window_spec(),
        redactor: None,
        baseline,
    };
    let mut charts = mqdiag_report::charts::Collector::new();
    let mut watch = Charting {
        teller: a.input.teller(),
        charts: &mut charts,
    };
    let (analysis, redactor) = match unlearnt {
        None => (engine::analyze(opened, &opts, &mut watch), None),
        Some(r) => {
            let mut relearn = || {
                let r = a
                    .input
                    .unlearnt_redactor()
                    .map_err(engine::Error::Relearn)?;
                let r = r.expect("--redact");
                a.input
                    .learn_names(&skip_files, r)
                    .map_err(engine::Error::Relearn)
            };
            match engine::analyze_learning(opened, &opts, &mut watch, r, &mut relearn) {
                Ok((analysis, r)) => {
                    a.input.save_redaction(&r)?;
                    (Ok(analysis), Some(r))
                }
                Err(e) => (Err(e), None),
            }
        }
    };
    let analysis = analysis.map_err(|e| e.to_string())?;
    let mut charts = charts.finish();
    let fail = a
        .fail_on
        .unwrap_or(FailOn::Never)
        .threshold()
        .is_some_and(|t| analysis.fails_at(t));
    let nothing_read = analysis.nothing_read();
    let engine::Analysis {
        inputs,
        findings,
        calls,
        window,
        folded,
    } = analysis;
    let calls_counted = calls.is_some();
    let calls = calls.unwrap_or_default();
    if let Some(r) = &redactor {
        charts.redact(|s| r.apply(s));
    }
    let rules: Vec<&'static RuleInfo> = plan.rules.iter().map(|(r, _)| *r).collect();
    let mut run_info = RunInfo::new(
        std::env::args(),
        &a.only,
        &a.skip,
        &a.set,
        a.input.tz.map(mqdiag_model::timefmt::offset_str),
        a.baseline.as_ref().map(|p| p.display().to_string()),
        a.input.redact,
    );
    run_info.folded = folded;
    if a.input.since.is_some() || a.input.until.is_some() {
        let t = |t: Option<mqdiag_model::event::Ts>| t.map(|t| t.to_rfc3339());
        run_info.window = Some(mqdiag_report::runinfo::Window {
            since: a.input.since.clone(),
            until: a.input.until.clone(),
            from: t(window.since),
            to: t(window.until),
            clock: if window.is_local() { "file" } else { "instant" },
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
        baseline_used,
        calls: &calls.by_process,
        calls_by_verb: &calls.by_verb,
        calls_counted,
        run: &run_info,
        charts: &charts,
    };
    let color = mqdiag_report::color::ColorChoice::from(a.color)
        .wanted(crate::outpath::target(a.input.output.as_deref()).is_none());
    if nothing_read {
        // The report is still shown (it says why), but an `-o` file is
        // left as it was: the run could not be done.
        if matches!(out, crate::outpath::Output::Stdout(_)) {
            io_result(
                mqdiag_report::write_painted(kind, &mut out, &rep, color)
                    .and_then(|_| out.finish()),
            )?;
        }
        return Err(crate::run::nothing_read_error(&inputs));
    }
    io_result(
        mqdiag_report::write_painted(kind, &mut out, &rep, color).and_then(|_| out.finish()),
    )?;
    crate::run::reader_panic_check(&inputs)?;
    crate::app::let_go((redactor, inputs, findings, calls, charts));
    Ok(if fail { EXIT_FINDINGS } else { EXIT_OK })
}
