//! The analysis as one call: inputs (paths, or sources already opened)
//! and plain options in; the inputs' facts, the sealed and ordered
//! findings, the MQI calls table and the resolved time window out. The
//! binary's verbs map their flags onto `Options` and print what comes
//! back; `examples/analyze_case.rs` does the same without the binary.
//!
//! The steps, each its own function so the verbs that need only some of
//! them share them: open (`mqdiag_readers::open`), merge and cut to the
//! window (`each_event`), feed the passes and the rules' hooks, then seal
//! (fingerprints), cite, mark what a baseline knows, and order.

mod baseline;
mod facts;
pub mod fold;
mod order;
#[cfg(test)]
#[cfg(test)]
pub(crate) use order::seal_all;

pub use baseline::read_baseline;
pub(crate) use facts::{assign_input, learn_input};
pub use facts::{nothing_read, reader_panic, redact_input};

use crate::calls::{By, Calls, Row};
use crate::passes::{Hook, Kinds, Plan, PlanError, RULES};
use crate::timeline::{Merged, TimeWindow};
use chrono::FixedOffset;
use mqdiag_model::event::{Event, Ts};
use mqdiag_model::fileinfo::FileInfo;
use mqdiag_model::findings::Finding;
use mqdiag_model::redact::{Learnt, OverBudget, Preparer, Redactor};
use mqdiag_model::timewindow::WindowError;
use mqdiag_readers::open::{OpenError, Opened, Request};
use mqdiag_readers::source::{ReadOptions, Source};
use std::collections::HashSet;
use std::sync::Arc;

/// Why an analysis could not be done.
#[derive(Debug)]
pub enum Error {
    /// `--only`, `--skip` or `--set` named something that is not there.
    Plan(PlanError),
    /// Nothing could be opened.
    Open(OpenError),
    /// The `--since`/`--until` window could not be resolved.
    Window(WindowError),
    /// A baseline report could not be read.
    Baseline(String),
    /// The names to redact passed the redactor's budget.
    Redaction(OverBudget),
    /// `--redact`'s own learning pass failed (`analyze_learning`'s
    /// `relearn`): its message.
    Relearn(String),
    /// The window excludes every event (and `--allow-empty` is absent).
    EmptyWindow(EmptyWindow),
}

/// A window that excludes every event: the window and the inputs' span.
#[derive(Debug, Clone)]
pub struct EmptyWindow {
    pub window: TimeWindow,
    /// The first and last event of the inputs, on their own clocks.
    pub span: (Ts, Ts),
}

impl EmptyWindow {
    /// An error when `window` is set, nothing was in it and empty windows
    /// are not allowed; `inputs` give the span.
    pub fn check(
        window: &TimeWindow,
        in_window: u64,
        allow_empty: bool,
        inputs: &[FileInfo],
    ) -> Result<(), Error> {
        if !window.is_set() || in_window > 0 || allow_empty {
            return Ok(());
        }
        // A verb that builds only some events (`calls`) saw none in the
        // window: the window is empty only if no file's span meets it.
        if inputs.iter().any(|i| match (&i.first, &i.last) {
            (Some(a), Some(b)) => window.overlaps(a, b),
            _ => false,
        }) {
            return Ok(());
        }
        let first = inputs.iter().filter_map(|i| i.first).min();
        let last = inputs.iter().filter_map(|i| i.last).max();
        // No dated event at all: nothing was read, which the verbs say.
        let Some(span) = first.zip(last) else {
            return Ok(());
        };
        Err(Error::EmptyWindow(EmptyWindow {
            window: *window,
            span,
        }))
    }
}

impl std::fmt::Display for EmptyWindow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the window {} excludes every event",
            self.window.describe()
        )?;
        write!(
            f,
            "; the inputs span {} .. {} (--allow-empty accepts an empty window)",
            mqdiag_model::timefmt::rfc3339(&self.span.0),
            mqdiag_model::timefmt::rfc3339(&self.span.1)
        )
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Plan(e) => e.fmt(f),
            Error::Open(e) => e.fmt(f),
            Error::Window(e) => e.fmt(f),
            Error::Baseline(m) => f.write_str(m),
            Error::Redaction(e) => e.fmt(f),
            Error::Relearn(m) => f.write_str(m),
            Error::EmptyWindow(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for Error {}

/// A plan made from user input (`Plan::new`) can fail the same way.
impl From<PlanError> for Error {
    fn from(e: PlanError) -> Error {
        Error::Plan(e)
    }
}

impl From<OpenError> for Error {
    fn from(e: OpenError) -> Error {
        Error::Open(e)
    }
}

/// The `--since`/`--until` window as asked: each bound an instant
/// (RFC 3339), a local date-time or a time of day, or relative to the
/// other (see `mqdiag_model::timewindow`).
#[derive(Debug, Clone, Default)]
pub struct WindowSpec {
    pub since: Option<String>,
    pub until: Option<String>,
    /// The offset local forms are meant in; else each file's own clock.
    pub tz: Option<FixedOffset>,
    /// A window that excludes every event is not an error.
    pub allow_empty: bool,
}

impl WindowSpec {
    pub fn is_set(&self) -> bool {
        self.since.is_some() || self.until.is_some()
    }

    /// The window's bounds. Forms with an offset (RFC 3339) are instants;
    /// forms without one are read in `tz` when given, else on each file's
    /// own clock (a wall-clock bound, see `TimeWindow`). A time of day is
    /// on the day of `first` (the first event of a trace or error log,
    /// else of any input), whose offset also gives the bound shown.
    pub fn resolve(&self, first: Option<&Ts>) -> Result<TimeWindow, Error> {
        if !self.is_set() {
            return Ok(TimeWindow::default());
        }
        let utc = FixedOffset::east_opt(0).expect("zero");
        let off = self.tz.or(first.map(|f| *f.offset())).unwrap_or(utc);
        let day = first
            .map(|f| f.with_timezone(&off).date_naive())
            .unwrap_or_default();
        let (since, until) = mqdiag_model::timewindow::resolve_forms(
            self.since.as_deref(),
            self.until.as_deref(),
            off,
            day,
        )
        .map_err(Error::Window)?;
        let local = |e: &Option<(Ts, mqdiag_model::timewindow::Form)>| {
            self.tz.is_none() && e.is_some_and(|(_, f)| f.is_local())
        };
        Ok(TimeWindow {
            since_local: local(&since),
            until_local: local(&until),
            since: since.map(|x| x.0),
            until: until.map(|x| x.0),
        })
    }
}

/// What a caller sees of a run while it reads; every method has a default
/// that does nothing (`()` is the watch that sees nothing).
pub trait Watch {
    /// The window, once resolved, before any event is fed.
    fn window(&mut self, _w: &TimeWindow) {}
    /// Every event in the window, in time order, after the passes saw it.
    fn event(&mut self, _e: &Event) {}
    /// Every event read, in the window or not, before it is fed
    /// (`analyze_learning` learns `--redact`'s names from all of them).
    fn every(&mut self, _e: &Event) {}
    /// `every`, with what a `Preparer` found in the event for learning,
    /// when the merge was asked for it (`each_event_learning`).
    fn every_learnt(&mut self, e: &Event, _l: &Learnt) {
        self.every(e)
    }
    /// Whether `every` does anything: asked once per run, so a run that
    /// learns nothing makes no call per event for it.
    fn wants_every(&self) -> bool {
        false
    }
}

impl Watch for () {}

/// A closure is a watch of events.
impl<F: FnMut(&Event)> Watch for F {
    fn event(&mut self, e: &Event) {
        self(e)
    }
}

/// How to analyse.
#[derive(Clone)]
pub struct Options {
    /// Which rules run, with which thresholds.
    pub plan: Plan,
    /// How the inputs are read (time zone, date, encoding, workers).
    /// `analyze_paths` sets its `interest` from the plan.
    pub read: ReadOptions,
    pub window: WindowSpec,
    /// `--redact`: names learnt beforehand (`learn_names`); findings are
    /// redacted before they are sealed, so a fingerprint is of the tokens
    /// and cannot confirm a guessed name.
    pub redactor: Option<Arc<Redactor>>,
    /// Fingerprints of an earlier report (`read_baseline`): findings with
    /// one of them are marked `baseline`.
    pub baseline: Option<HashSet<String>>,
}

impl Options {
    /// Every rule with its defaults, read with default options.
    pub fn new(plan: Plan) -> Options {
        Options {
            plan,
            read: ReadOptions {
                jobs: 1,
                ..Default::default()
            },
            window: WindowSpec::default(),
            redactor: None,
            baseline: None,
        }
    }
}

/// The MQI calls table: per process and verb, and per verb alone.
#[derive(Debug, Default, Clone)]
pub struct CallsTables {
    pub by_process: Vec<Row>,
    pub by_verb: Vec<Row>,
}

/// What an analysis found.
pub struct Analysis {
    /// Every input's facts (format, times, events, problems), by path.
    pub inputs: Vec<FileInfo>,
    /// Sealed, most severe first, then in rule order, then by time.
    pub findings: Vec<Finding>,
    /// `None`: not counted, as no rule that ran reads MQI calls.
    pub calls: Option<CallsTables>,
    /// The window resolved to instants (empty when none was asked).
    pub window: TimeWindow,
    /// What the run budget folded (findings, calls rows), as reading
    /// notes for the report.
    pub folded: Vec<String>,
}

impl Analysis {
    /// Whether no input could be used at all (see `facts::nothing_read`).
    pub fn nothing_read(&self) -> bool {
        nothing_read(&self.inputs)
    }

    /// Whether a finding not in the baseline is at least this severe.
    pub fn fails_at(&self, severity: mqdiag_model::problem::Severity) -> bool {
        self.findings
            .iter()
            .any(|f| !f.baseline && f.severity >= severity)
    }
}

/// Open `req` and analyse it: the library's whole run, with no progress
/// line and no output.
pub fn analyze_paths(req: &Request, opts: &Options) -> Result<Analysis, Error> {
    let mut read = opts.read.clone();
    read.interest = Some(Arc::new(opts.plan.interest()));
    let opened = mqdiag_readers::open::open(req, &read, &())?;
    analyze(opened, opts, &mut ())
}

/// Analyse opened sources (their `interest` should be `plan.interest()`,
/// or none: the findings are the same, the reading slower). `watch` sees
/// the window and every event in it.
pub fn analyze(opened: Opened, opts: &Options, watch: &mut dyn Watch) -> Result<Analysis, Error> {
    run(opened, opts, watch, None).map(|(a, _)| a)
}

/// `analyze` with `--redact`'s names learnt from the same read, so the
/// input is read once: `r` (empty, or holding a saved map) sees every
/// event, in the window or not, and every input's facts, as `learn_names`
/// shows it them, before the findings are redacted; it is returned for
/// the rest of the report and the map. Where a reader builds other events
/// under the plan's interest (`interest_applies`: traces, SMF), the read
/// is not the one every verb learns from, so `relearn` is asked for a
/// redactor learnt by a pass of its own (`learn_names`): tokens are then
/// the same as every verb's whatever was read.
pub fn analyze_learning(
    opened: Opened,
    opts: &Options,
    watch: &mut dyn Watch,
    r: Redactor,
    relearn: &mut dyn FnMut() -> Result<Redactor, Error>,
) -> Result<(Analysis, Arc<Redactor>), Error> {
    let (a, r) = run(opened, opts, watch, Some((r, relearn)))?;
    Ok((a, r.expect("a redactor was learnt")))
}

/// The redactor an analysis learns and how to learn it again when its
/// read is not the learning pass's (`analyze_learning`).
type Learn<'a> = (Redactor, &'a mut dyn FnMut() -> Result<Redactor, Error>);

fn interest_applies(format: mqdiag_model::event::Format) -> bool {
    mqdiag_readers::formats::interest_applies(format)
}

fn run(
    opened: Opened,
    opts: &Options,
    watch: &mut dyn Watch,
    learn: Option<Learn<'_>>,
) -> Result<(Analysis, Option<Arc<Redactor>>), Error> {
    let (sources, discovery_rows) = opened;
    let selective = opts.read.interest.is_some();
    let (mut learner, relearn) = match learn {
        Some((r, again)) => (Some(r), Some(again)),
        None => (None, None),
    };
    // Whether the read showed the learner other events than a learning
    // pass would (then it stops learning: its work would be thrown away).
    let mut inexact = false;
    let mut passes = opts.plan.passes();
    let mut hooks: Vec<Box<dyn Hook>> = RULES
        .iter()
        .filter_map(|r| r.hook.map(|make| make(&opts.plan)))
        .collect();
    // The report's MQI call table (per process; per verb for the HTML
    // chart): counted once, and read by the rules that report on calls;
    // not counted when none of them runs.
    let mut calls = Calls::new(By::Process, None);
    let mut count_calls = false;
    for p in passes.iter_mut() {
        count_calls |= p.takes_calls_table();
    }
    let pass_routes = Kinds::routes(passes.iter().map(|p| p.kinds()));
    // Records without a time go to the passes that keep them apart only.
    let undated_ok: Vec<bool> = passes.iter().map(|p| p.reads_undated()).collect();
    let hook_routes = Kinds::routes(hooks.iter().map(|h| h.kinds()));
    // Learning's costly part runs where each source is read.
    let prep = learner.as_ref().map(|r| r.preparer());
    let (mut inputs, window) = each_event_learning(
        sources,
        opts.read.jobs.max(1),
        &opts.window,
        prep,
        &mut Feed {
            watch,
            each: |e: &Event, undated: bool| {
                if undated {
                    for &i in &pass_routes[e.kind as usize] {
                        if undated_ok[i] {
                            passes[i].observe(e);
                        }
                    }
                    return;
                }
                for &i in &pass_routes[e.kind as usize] {
                    passes[i].observe(e);
                }
                if count_calls {
                    calls.observe(e);
                }
            },
            hooks: &mut hooks,
            hook_routes: &hook_routes,
            learn: learner.as_mut().map(|r| Learner {
                r,
                selective,
                inexact: &mut inexact,
            }),
        },
    )?;
    inputs.extend(discovery_rows);
    inputs.sort_by(|x, y| x.path.cmp(&y.path));
    let redactor = match (learner, relearn) {
        (Some(mut r), Some(again)) => {
            // A file of such a format that gave no event under the interest
            // may have given some to a learning pass.
            inexact |= selective && inputs.iter().any(|i| interest_applies(i.format));
            let r = if inexact {
                again()?
            } else {
                learn_inputs(&mut r, &inputs);
                r.check().map_err(Error::Redaction)?;
                r
            };
            Some(Arc::new(r))
        }
        _ => opts.redactor.clone(),
    };
    let rows = calls.rows(&inputs);
    for p in passes.iter_mut() {
        p.calls_rows(&rows);
    }
    let mut findings: Vec<Finding> = passes.iter_mut().flat_map(|p| p.finish(&inputs)).collect();
    name_processes(&mut findings, &inputs);
    for f in &mut findings {
        severity_reason(f);
    }
    // Before redaction: what the configuration adds is redacted with the rest.
    crate::explain::explain_all(&mut findings, &inputs);
    if let Some(r) = &redactor {
        let mut memo = mqdiag_model::redact::Remembered::new(r);
        for f in &mut findings {
            f.redact_with(&mut |s| memo.apply(s));
        }
        for h in &mut hooks {
            h.redact(r);
        }
    }
    order::seal(&mut findings);
    // Past the findings' share of the run budget, the rest fold into
    // summaries (in report order, so the earliest are the examples).
    order::order(&mut findings);
    let mut folded = Calls::folded_notes(&rows);
    folded.extend(fold::fold(&mut findings));
    order::unique(&mut findings);
    for h in &mut hooks {
        h.sealed(&mut findings);
    }
    order::order(&mut findings);
    if let Some(b) = &opts.baseline {
        for f in &mut findings {
            f.baseline = b.contains(&f.fingerprint);
        }
    }
    let mut calls = count_calls.then(|| CallsTables {
        by_verb: crate::calls::by_verb(&rows),
        by_process: rows,
    });
    if let Some(r) = &redactor {
        for i in &mut inputs {
            redact_input(r, i);
        }
        if let Some(c) = &mut calls {
            for row in c.by_process.iter_mut().chain(c.by_verb.iter_mut()) {
                row.redact(r);
            }
        }
    }
    let analysis = Analysis {
        inputs,
        findings,
        calls,
        window,
        folded,
    };
    Ok((analysis, redactor))
}

/// `--redact` learning from an analysis's read (`analyze_learning`).
struct Learner<'a> {
    r: &'a mut Redactor,
    /// Whether the read has an interest (events of `interest_applies`
    /// formats are then not those a learning pass sees).
    selective: bool,
    inexact: &'a mut bool,
}

/// The passes, the hooks and the caller's watch, fed in that order.
struct Feed<'a, F: FnMut(&Event, bool)> {
    watch: &'a mut dyn Watch,
    each: F,
    hooks: &'a mut Vec<Box<dyn Hook>>,
    /// The hooks (by index) that read each kind of event.
    hook_routes: &'a [Vec<usize>],
    learn: Option<Learner<'a>>,
}

impl<'a, F: FnMut(&Event, bool)> Feed<'a, F> {
    /// The learner, while `e` is one a learning pass would see too.
    fn learner(&mut self, e: &Event) -> Option<&mut Learner<'a>> {
        if self
            .learn
            .as_ref()
            .is_some_and(|l| l.selective && interest_applies(e.origin.format))
        {
            if let Some(l) = self.learn.take() {
                *l.inexact = true;
            }
            return None;
        }
        self.learn.as_mut()
    }
}

impl<F: FnMut(&Event, bool)> Watch for Feed<'_, F> {
    fn window(&mut self, w: &TimeWindow) {
        self.watch.window(w);
    }
    fn wants_every(&self) -> bool {
        self.learn.is_some() || self.watch.wants_every()
    }
    fn every(&mut self, e: &Event) {
        self.watch.every(e);
        if let Some(l) = self.learner(e) {
            l.r.observe(e);
        }
    }
    fn every_learnt(&mut self, e: &Event, learnt: &Learnt) {
        self.watch.every(e);
        if let Some(l) = self.learner(e) {
            l.r.learn(e, learnt);
        }
    }
    fn event(&mut self, e: &Event) {
        // Asked once per event; `each` is told.
        let undated = e.is_undated();
        (self.each)(e, undated);
        // A record without a time is for the passes alone (`each` picks
        // which): hooks and the caller's watch (charts, message counts)
        // place events in time.
        if undated {
            return;
        }
        for &i in &self.hook_routes[e.kind as usize] {
            self.hooks[i].observe(e);
        }
        self.watch.event(e);
    }
}

/// Merge the sources in time order with `jobs` workers, resolve the
/// window against the first event, and show `watch` every event in it;
/// returns every source's facts (unsorted) and the window. Public though
/// only the engine calls it: the step a library caller takes for the
/// merged events without the passes.
pub fn each_event(
    sources: Vec<Box<dyn Source>>,
    jobs: usize,
    window: &WindowSpec,
    watch: &mut dyn Watch,
) -> Result<(Vec<FileInfo>, TimeWindow), Error> {
    each_event_learning(sources, jobs, window, None, watch)
}

/// `each_event`, with `watch.every_learnt` told what a copy of `prep`
/// found in each event for learning, on the thread that read its source
/// (`Merged::learning`).
fn each_event_learning(
    sources: Vec<Box<dyn Source>>,
    jobs: usize,
    window: &WindowSpec,
    prep: Option<Preparer>,
    watch: &mut dyn Watch,
) -> Result<(Vec<FileInfo>, TimeWindow), Error> {
    let mut merged = Merged::learning(sources, jobs, prep);
    let spec = window;
    let window = window.resolve(merged.reference_ts().as_ref())?;
    watch.window(&window);
    let mut in_window = 0u64;
    let every = watch.wants_every();
    while let Some((e, learnt)) = merged.next_learnt() {
        if every {
            match learnt {
                Some(l) => watch.every_learnt(e, l),
                None => watch.every(e),
            }
        }
        if window.contains(&e.ts) {
            in_window += 1;
            watch.event(e);
        }
    }
    let mut inputs = merged.finish();
    crate::timeline::note_undated_left_out(&mut inputs, &window);
    EmptyWindow::check(&window, in_window, spec.allow_empty, &inputs)?;
    Ok((inputs, window))
}

/// `--redact`'s first pass: learn every name the opened inputs show, from
/// every event (whatever a verb reads later) and every input's facts, and
/// hand out tokens in time order, so a streaming verb knows them all
/// before its first row and every verb gives a value the same token.
/// Fails when the names pass the redactor's budget.
pub fn learn_names(opened: Opened, jobs: usize, r: &mut Redactor) -> Result<(), Error> {
    let (sources, discovery_rows) = opened;
    let prep = Some(r.preparer());
    let (mut inputs, _) = each_event_learning(
        sources,
        jobs,
        &WindowSpec::default(),
        prep,
        &mut LearnAll(&mut *r),
    )?;
    inputs.extend(discovery_rows);
    inputs.sort_by(|x, y| x.path.cmp(&y.path));
    learn_inputs(r, &inputs);
    r.check().map_err(Error::Redaction)
}

/// `learn_names`'s watch: every event is learnt.
struct LearnAll<'a>(&'a mut Redactor);

impl Watch for LearnAll<'_> {
    fn wants_every(&self) -> bool {
        true
    }
    fn every(&mut self, e: &Event) {
        self.0.observe(e)
    }
    fn every_learnt(&mut self, e: &Event, l: &Learnt) {
        self.0.learn(e, l)
    }
}

/// What the inputs' facts name (by path, after every event): the last
/// step of learning.
fn learn_inputs(r: &mut Redactor, inputs: &[FileInfo]) {
    for fi in inputs {
        learn_input(r, fi);
    }
    for fi in inputs {
        assign_input(r, fi);
    }
}

/// Count the MQI calls of opened sources (read with
/// `crate::calls::interest()`), `by` process, thread or verb, for `verbs`
/// only when given; returns the rows and the inputs' facts (unsorted).
/// With a redactor the rows are redacted. `watch` sees the window and
/// every event in it.
pub fn count_calls(
    opened: Opened,
    jobs: usize,
    window: &WindowSpec,
    (by, verbs): (By, Option<Vec<String>>),
    redactor: Option<&Redactor>,
    watch: &mut dyn Watch,
) -> Result<(Vec<Row>, Vec<FileInfo>), Error> {
    let (sources, discovery_rows) = opened;
    let mut calls = Calls::new(by, verbs);
    let mut hooks = Vec::new();
    let mut feed = Feed {
        watch,
        // MQI calls are timed: a record without a time is none.
        each: |e: &Event, undated: bool| {
            if !undated {
                calls.observe(e)
            }
        },
        hooks: &mut hooks,
        hook_routes: &Kinds::routes(std::iter::empty()),
        learn: None,
    };
    let (mut inputs, _) = each_event(sources, jobs, window, &mut feed)?;
    inputs.extend(discovery_rows);
    let mut rows = calls.rows(&inputs);
    if let Some(r) = redactor {
        for row in &mut rows {
            row.redact(r);
        }
    }
    Ok((rows, inputs))
}

#[cfg(test)]
mod tests;

/// A finding about one process (a pid) gets the host and program of the
/// file that process wrote, where the rule did not set them: they are
/// what identifies the process across a restart (the fingerprint's
/// parts), and what a reader recognises.
fn name_processes(findings: &mut [Finding], inputs: &[FileInfo]) {
    let by_path: std::collections::HashMap<&str, &FileInfo> =
        inputs.iter().map(|i| (i.path.as_str(), i)).collect();
    for f in findings {
        let Some(pid) = f.subject.pid else { continue };
        let wrote = f
            .evidence
            .iter()
            .filter_map(|e| by_path.get(e.path.as_str()))
            .find(|i| i.pid == Some(pid));
        if let Some(i) = wrote {
            if f.subject.host.is_none() {
                f.subject.host = i.host.clone();
            }
            if f.subject.program.is_none() {
                f.subject.program = i.process.clone();
            }
        }
    }
}

/// A finding's `severity_reason` where its rule gave none: the rule's
/// default, or that the rule graded it from what it found.
fn severity_reason(f: &mut Finding) {
    if !f.severity_reason.is_empty() {
        return;
    }
    let Some(r) = crate::passes::rule(&f.rule) else {
        return;
    };
    f.severity_reason = if f.severity == r.severity {
        format!("{}: the default of rule {}", f.severity.as_str(), r.id)
    } else {
        format!(
            "{}, not the rule's default {}: graded by rule {} from what it found (`mqdiag rules` says how)",
            f.severity.as_str(),
            r.severity.as_str(),
            r.id
        )
    };
}
