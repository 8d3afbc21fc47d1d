//! `mqdiag compare GOOD BAD`: two captures of one system read as two runs
//! (every rule with its default thresholds), and what changed between
//! them: findings new, gone and changed (by fingerprint), MQI calls per
//! verb and per process, and the message ids whose rate changed most.
//!
//! Findings are matched by fingerprint, which names no file, pid or time
//! (see `Finding::seal`): the two captures may sit under different paths
//! and their processes may have restarted. Evidence paths are shown
//! relative to their capture (`good/qmgrs/QM1/errors/AMQERR01.LOG` and
//! `bad/qmgrs/QM1/...` are one file).

use crate::cli::{CompareArgs, FailOn, InputArgs};
use crate::exit::{EXIT_FINDINGS, EXIT_OK, io_result};
use mqdiag_analysis::engine::{self, Options, Watch};
use mqdiag_analysis::passes::Plan;
use mqdiag_model::fileinfo::FileInfo;
use mqdiag_model::findings::Finding;
use mqdiag_model::redact::Redactor;
use mqdiag_report::compare::{
    CallChange, CallStats, Capture, Changed, ChartPair, Comparison, FindingChanges, MessageChange,
    Pair, Tool,
};
use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::Arc;

/// Message ids listed at most.
const MESSAGES_SHOWN: usize = 20;

/// One capture, read.
struct Side {
    capture: Capture,
    findings: Vec<Finding>,
    by_verb: Vec<mqdiag_analysis::calls::Row>,
    by_process: Vec<mqdiag_analysis::calls::Row>,
    messages: HashMap<String, u64>,
    charts: mqdiag_report::charts::Collected,
}

/// The options both captures are read with.
fn input_args(a: &CompareArgs, paths: Vec<std::path::PathBuf>) -> InputArgs {
    InputArgs {
        paths,
        tz: a.tz,
        jobs: a.jobs,
        quiet: a.quiet,
        since: a.since.clone(),
        until: a.until.clone(),
        allow_empty: a.allow_empty,
        redact: a.redact,
        redact_names: a.redact_names,
        redact_map: a.redact_map.clone(),
        // Never the map's file; and no link inside a capture leads to it.
        output: a.output.clone(),
        ..Default::default()
    }
}

/// `path` without the capture's own path before it.
fn relative(path: &str, root: &str) -> String {
    let root = root.trim_end_matches('/');
    match path.strip_prefix(root) {
        Some(rest) if rest.starts_with(['/', '!']) => rest[1..].to_string(),
        _ => path.to_string(),
    }
}

/// Evidence paths relative to the capture, as the report shows them (the
/// fingerprints name no file, so they stay as sealed).
fn rebase(findings: &mut [Finding], root: &str) {
    for f in findings.iter_mut() {
        for e in &mut f.evidence {
            e.path = relative(&e.path, root);
        }
    }
}

/// The run's watch: message ids counted, every event drawn into the
/// charts, the window told.
struct Counting<'a> {
    teller: crate::run::Teller,
    messages: &'a mut HashMap<String, u64>,
    charts: &'a mut mqdiag_report::charts::Collector,
}

impl Watch for Counting<'_> {
    fn window(&mut self, w: &mqdiag_analysis::timeline::TimeWindow) {
        self.teller.window(w);
    }
    fn event(&mut self, e: &mqdiag_model::event::Event) {
        if let Some(m) = e.get(mqdiag_model::event::Key::Msgid) {
            *self.messages.entry(m.to_string()).or_default() += 1;
        }
        self.charts.observe(e);
    }
}

fn read(a: &CompareArgs, path: &Path, redactor: Option<&Arc<Redactor>>) -> Result<Side, String> {
    let input = input_args(a, vec![path.to_path_buf()]);
    let plan = Plan::new(&[], &[], &[]).map_err(|e| e.to_string())?;
    let read = input.read_options();
    let opened = input.open_except(&[], &read, input.progress_wanted())?;
    let mut messages: HashMap<String, u64> = HashMap::new();
    let mut charts = mqdiag_report::charts::Collector::new();
    let opts = Options {
        plan,
        read,
        window: input.window_spec(),
        redactor: redactor.cloned(),
        baseline: None,
    };
    let engine::Analysis {
        inputs,
        mut findings,
        calls,
        window,
        folded,
    } = engine::analyze(
        opened,
        &opts,
        &mut Counting {
            teller: input.teller(),
            messages: &mut messages,
            charts: &mut charts,
        },
    )
    .map_err(|e| format!("{}: {e}", path.display()))?;
    let mut charts = charts.finish();
    // Every rule runs: the calls are counted.
    let calls = calls.unwrap_or_default();
    if engine::nothing_read(&inputs) {
        return Err(format!(
            "{}: {}",
            path.display(),
            crate::run::nothing_read_error(&inputs)
        ));
    }
    crate::run::reader_panic_check(&inputs)?;
    let mut root = path.display().to_string();
    if let Some(r) = redactor {
        // As analyze --redact: the same tokens in every part of the report.
        root = r.apply(&root);
        charts.redact(|s| r.apply(s));
    }
    rebase(&mut findings, &root);
    let mut capture = capture(&root, &inputs, findings.len());
    if window.is_set() {
        capture.window = Some(window.describe());
    }
    capture.folded = folded;
    Ok(Side {
        capture,
        findings,
        by_verb: calls.by_verb,
        by_process: calls.by_process,
        messages,
        charts,
    })
}

/// The series worth seeing side by side: channel and TLS errors of each
/// capture, and the chart of every finding (on either side) of a rule
/// that asks for it (`RuleInfo::side_by_side`: the queue time of a queue).
fn chart_pairs(good: &Side, bad: &Side) -> Vec<ChartPair> {
    use mqdiag_readers::catalog::Family;
    let mut out = Vec::new();
    for (family, title) in [
        (Family::Channel, "Channel and network errors"),
        (Family::Tls, "TLS errors"),
    ] {
        let g = good.charts.family_errors(family, &[]);
        let b = bad.charts.family_errors(family, &[]);
        if g.is_some() || b.is_some() {
            out.push(ChartPair {
                title: title.to_string(),
                good: g,
                bad: b,
            });
        }
    }
    let qtime = |s: &Side| -> BTreeMap<String, (String, Option<mqdiag_model::findings::Chart>)> {
        s.findings
            .iter()
            .filter(|f| mqdiag_analysis::passes::rule(&f.rule).is_some_and(|r| r.side_by_side))
            .map(|f| {
                let what = f.subject.queue.clone().unwrap_or_else(|| f.title.clone());
                (f.fingerprint.clone(), (what, f.chart.clone()))
            })
            .collect()
    };
    let (mut g, mut b) = (qtime(good), qtime(bad));
    let keys: std::collections::BTreeSet<String> = g.keys().chain(b.keys()).cloned().collect();
    for k in keys {
        let (gw, gc) = g.remove(&k).unzip();
        let (bw, bc) = b.remove(&k).unzip();
        let what = bw.or(gw).unwrap_or_default();
        out.push(ChartPair {
            title: format!("Queue time: {what}"),
            good: gc.flatten(),
            bad: bc.flatten(),
        });
    }
    out
}

fn capture(path: &str, inputs: &[FileInfo], findings: usize) -> Capture {
    let first = inputs.iter().filter_map(|i| i.first).min();
    let last = inputs.iter().filter_map(|i| i.last).max();
    let secs = match (first, last) {
        (Some(f), Some(l)) => (l - f).num_milliseconds() as f64 / 1000.0,
        _ => 0.0,
    };
    Capture {
        path: path.to_string(),
        files: inputs.len(),
        events: inputs.iter().map(|i| i.events).sum(),
        first: first.as_ref().map(mqdiag_model::timefmt::rfc3339),
        last: last.as_ref().map(mqdiag_model::timefmt::rfc3339),
        hours: secs.max(1.0) / 3600.0,
        findings,
        window: None,
        folded: Vec::new(),
    }
}

fn stats(r: &mqdiag_analysis::calls::Row) -> CallStats {
    let j = r.to_json();
    CallStats {
        calls: j.calls,
        failed: j.failed,
        failure_rate: if j.calls == 0 {
            0.0
        } else {
            j.failed as f64 / j.calls as f64
        },
        p50_us: j.p50_us,
        p95_us: j.p95_us,
        max_us: j.max_us,
    }
}

/// Rows of both sides matched on (host, process name, verb): pids differ
/// from one capture to the next.
fn calls(
    good: &[mqdiag_analysis::calls::Row],
    bad: &[mqdiag_analysis::calls::Row],
    per_process: bool,
) -> Vec<CallChange> {
    type Key = (Option<String>, Option<String>, String);
    let key = |r: &mqdiag_analysis::calls::Row| -> Key {
        let j = r.to_json();
        if per_process {
            (
                j.host.map(str::to_string),
                j.process
                    .map(str::to_string)
                    .or_else(|| j.pid.map(|p| format!("pid {p}"))),
                j.verb.to_string(),
            )
        } else {
            (None, None, j.verb.to_string())
        }
    };
    let mut m: BTreeMap<Key, (Option<CallStats>, Option<CallStats>)> = BTreeMap::new();
    for r in good {
        let s = stats(r);
        let e = m.entry(key(r)).or_default();
        e.0 = Some(match e.0.take() {
            Some(o) => add(o, s),
            None => s,
        });
    }
    for r in bad {
        let s = stats(r);
        let e = m.entry(key(r)).or_default();
        e.1 = Some(match e.1.take() {
            Some(o) => add(o, s),
            None => s,
        });
    }
    m.into_iter()
        .map(|((host, process, verb), (g, b))| CallChange {
            host,
            process,
            verb,
            good: g,
            bad: b,
        })
        .collect()
}

/// Two processes of one name on one host: counts add up, latencies keep
/// the worse (percentiles of a union cannot be had from two rows).
fn add(a: CallStats, b: CallStats) -> CallStats {
    let calls = a.calls + b.calls;
    let failed = a.failed + b.failed;
    CallStats {
        calls,
        failed,
        failure_rate: if calls == 0 {
            0.0
        } else {
            failed as f64 / calls as f64
        },
        p50_us: a.p50_us.max(b.p50_us),
        p95_us: a.p95_us.max(b.p95_us),
        max_us: a.max_us.max(b.max_us),
    }
}

fn messages(good: &Side, bad: &Side) -> Vec<MessageChange> {
    let mut ids: Vec<&String> = good.messages.keys().chain(bad.messages.keys()).collect();
    ids.sort();
    ids.dedup();
    let mut v: Vec<MessageChange> = ids
        .into_iter()
        .map(|id| {
            let g = good.messages.get(id).copied().unwrap_or(0);
            let b = bad.messages.get(id).copied().unwrap_or(0);
            MessageChange {
                message_id: id.clone(),
                count: Pair { good: g, bad: b },
                per_hour: Pair {
                    good: g as f64 / good.capture.hours,
                    bad: b as f64 / bad.capture.hours,
                },
            }
        })
        .filter(|m| m.count.good != m.count.bad || m.per_hour.good != m.per_hour.bad)
        .collect();
    let change = |m: &MessageChange| (m.per_hour.bad - m.per_hour.good).abs();
    v.sort_by(|a, b| {
        change(b)
            .total_cmp(&change(a))
            .then_with(|| a.message_id.cmp(&b.message_id))
    });
    v.truncate(MESSAGES_SHOWN);
    v
}

/// Whether two findings with one fingerprint are the same finding: of
/// one rule, with the same value of each part its fingerprint is made
/// of. A fingerprint is a 64-bit hash that is the same in every run (so
/// reports can be compared), so an input can be made to give a finding
/// another's fingerprint; its parts tell them apart.
fn same_finding(a: &Finding, b: &Finding) -> bool {
    let parts = mqdiag_analysis::passes::rule(&a.rule).map_or(&[][..], |r| r.fingerprint);
    a.rule == b.rule && parts.iter().all(|p| p.value(a) == p.value(b))
}

/// The finding of `m` (by fingerprint) that is `f`'s.
fn matched<'a>(m: &HashMap<&str, &'a Finding>, f: &Finding) -> Option<&'a Finding> {
    m.get(f.fingerprint.as_str())
        .copied()
        .filter(|o| same_finding(o, f))
}

fn findings(good: &[Finding], bad: &[Finding]) -> FindingChanges {
    let g: HashMap<&str, &Finding> = good.iter().map(|f| (f.fingerprint.as_str(), f)).collect();
    let b: HashMap<&str, &Finding> = bad.iter().map(|f| (f.fingerprint.as_str(), f)).collect();
    let new = bad
        .iter()
        .filter(|f| matched(&g, f).is_none())
        .cloned()
        .collect();
    let gone = good
        .iter()
        .filter(|f| matched(&b, f).is_none())
        .cloned()
        .collect();
    let changed = bad
        .iter()
        .filter_map(|f| {
            let o = matched(&g, f)?;
            (o.count != f.count || o.severity != f.severity).then(|| Changed {
                fingerprint: f.fingerprint.clone(),
                rule: f.rule.clone(),
                title: f.title.clone(),
                count: Pair {
                    good: o.count,
                    bad: f.count,
                },
                severity: Pair {
                    good: o.severity,
                    bad: f.severity,
                },
            })
        })
        .collect();
    FindingChanges { new, gone, changed }
}

/// What got worse at or above `--fail-on`: a new finding, or one whose
/// severity or count rose.
fn worse(c: &FindingChanges, fail_on: FailOn) -> bool {
    let Some(t) = fail_on.threshold() else {
        return false;
    };
    c.new.iter().any(|f| f.severity >= t)
        || c.changed.iter().any(|x| {
            x.severity.bad >= t && (x.severity.bad > x.severity.good || x.count.bad > x.count.good)
        })
}

pub fn run(a: CompareArgs) -> Result<i32, String> {
    let format = match a.format {
        Some(f) => crate::outpath::agree(
            f.into(),
            &crate::outpath::value_name(&f),
            a.output.as_deref(),
            mqdiag_report::compare::CompareFormat::EXTENSIONS,
        )?,
        None => crate::outpath::infer(
            a.output.as_deref(),
            mqdiag_report::compare::CompareFormat::EXTENSIONS,
            "compare",
        )?
        .unwrap_or(mqdiag_report::compare::CompareFormat::Text),
    };
    // The output is checked against both captures before anything is read.
    let both = InputArgs {
        paths: vec![a.good.clone(), a.bad.clone()],
        output: a.output.clone(),
        ..Default::default()
    };
    let mut out = both.writer()?;
    // One mapping for both captures, learnt from both, so that a name is
    // the same token on either side.
    let both_in = input_args(&a, vec![a.good.clone(), a.bad.clone()]);
    let redactor = both_in.learn_redaction(&[])?.map(Arc::new);
    let good = read(&a, &a.good, redactor.as_ref())?;
    let bad = read(&a, &a.bad, redactor.as_ref())?;
    let charts = chart_pairs(&good, &bad);
    let mut calls_rows = calls(&good.by_verb, &bad.by_verb, false);
    calls_rows.extend(calls(&good.by_process, &bad.by_process, true));
    let changes = findings(&good.findings, &bad.findings);
    let fail = worse(&changes, a.fail_on);
    let messages = messages(&good, &bad);
    let c = Comparison {
        schema_version: 1,
        tool: Tool {
            name: "mqdiag",
            version: env!("CARGO_PKG_VERSION"),
        },
        good: good.capture,
        bad: bad.capture,
        findings: changes,
        calls: calls_rows,
        messages,
        redacted: redactor.is_some(),
        charts,
    };
    io_result(mqdiag_report::compare::write(&mut out, &c, format).and_then(|_| out.finish()))?;
    Ok(if fail { EXIT_FINDINGS } else { EXIT_OK })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evidence_paths_relative_to_their_capture() {
        assert_eq!(
            relative("good/errors/AMQERR01.LOG", "good"),
            "errors/AMQERR01.LOG"
        );
        assert_eq!(
            relative("good/errors/AMQERR01.LOG", "good/"),
            "errors/AMQERR01.LOG"
        );
        assert_eq!(
            relative("case.zip!var/AMQERR01.LOG", "case.zip"),
            "var/AMQERR01.LOG"
        );
        // Only a whole path element.
        assert_eq!(relative("goodness/x.LOG", "good"), "goodness/x.LOG");
        assert_eq!(relative("other/x.LOG", "good"), "other/x.LOG");
    }

    #[test]
    fn one_fingerprint_of_two_findings_is_no_match() {
        use mqdiag_model::problem::Severity;
        let finding = |channel: &str, count| {
            let mut f = Finding::new("channel-error", Severity::Warning, "Channel ended");
            f.subject.channel = Some(channel.to_string());
            f.count = count;
            f.seal(mqdiag_analysis::passes::rule(&f.rule).unwrap().fingerprint);
            f
        };
        let (a, a2) = (finding("TO.QM2", 3), finding("TO.QM2", 5));
        // The same finding in both captures: changed (its count rose).
        let c = findings(std::slice::from_ref(&a), std::slice::from_ref(&a2));
        assert!(c.new.is_empty() && c.gone.is_empty());
        assert_eq!(c.changed.len(), 1);
        // Another channel's finding carrying the first one's fingerprint
        // (as a crafted input could make it): one gone, one new.
        let mut forged = finding("PAYROLL", 3);
        forged.fingerprint = a.fingerprint.clone();
        let c = findings(std::slice::from_ref(&a), std::slice::from_ref(&forged));
        assert_eq!((c.new.len(), c.gone.len(), c.changed.len()), (1, 1, 0));
    }
}
