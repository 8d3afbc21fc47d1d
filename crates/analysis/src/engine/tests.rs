use super::*;
use crate::passes::Plan;
use std::path::PathBuf;

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures")
}

/// The analysis of `fixtures/` with `plan`, read with `jobs` workers,
/// asking the readers for only what the plan reads when `interest`.
fn run(plan: &Plan, interest: bool, jobs: usize) -> Analysis {
    let mut opts = Options::new(plan.clone());
    opts.read.jobs = jobs;
    if interest {
        opts.read.interest = Some(Arc::new(plan.interest()));
    }
    let req = Request {
        paths: vec![fixtures()],
        ..Default::default()
    };
    let opened = mqdiag_readers::open::open(&req, &opts.read, &()).unwrap();
    analyze(opened, &opts, &mut ()).unwrap()
}

fn json(a: &Analysis) -> String {
    serde_json::to_string_pretty(&a.findings).unwrap()
}

/// One rule alone reads only what it asks for (the MQI calls only for
/// the rules that read them): its findings are those of reading
/// everything, and the calls are counted only with those rules.
#[test]
fn one_rule_alone_reads_what_it_needs_and_finds_the_same() {
    for rule in RULES {
        let plan = Plan::new(&[rule.id.to_string()], &[], &[]).unwrap();
        let full = run(&plan, false, 1);
        let narrow = run(&plan, true, 1);
        assert_eq!(json(&full), json(&narrow), "--only {}", rule.id);
        let takes = plan.passes().iter_mut().any(|p| p.takes_calls_table());
        assert_eq!(full.calls.is_some(), takes, "{}", rule.id);
        assert_eq!(
            full.calls.map(|c| c.by_process.len()),
            narrow.calls.map(|c| c.by_process.len())
        );
    }
}

/// The readers skip what no pass reads; the findings must be exactly
/// those of reading everything, and the same with one worker or many.
#[test]
fn interest_and_workers_do_not_change_findings() {
    let plan = Plan::new(&[], &[], &[]).unwrap();
    let full = run(&plan, false, 1);
    assert!(
        full.calls
            .as_ref()
            .is_some_and(|c| !c.by_process.is_empty())
    );
    let full = json(&full);
    assert!(full.contains("qtime-growth") && full.contains("tcp-send-stall"));
    // Compared line by line so a failure shows the first difference.
    for other in [run(&plan, true, 1), run(&plan, true, 3)] {
        let other = json(&other);
        for (i, (a, b)) in full.lines().zip(other.lines()).enumerate() {
            assert_eq!(a, b, "line {i}");
        }
        assert_eq!(full.lines().count(), other.lines().count());
    }
}

/// The library's whole run from paths gives what opening and analysing
/// in two steps gives, and the window is resolved against the inputs.
#[test]
fn analyze_paths_is_open_then_analyze() {
    let plan = Plan::new(&[], &[], &[]).unwrap();
    let mut opts = Options::new(plan.clone());
    let req = Request {
        paths: vec![fixtures().join("case-mixed")],
        ..Default::default()
    };
    let a = analyze_paths(&req, &opts).unwrap();
    assert!(!a.findings.is_empty() && !a.nothing_read());
    assert!(a.window.since.is_none() && a.window.until.is_none());
    opts.window.since = Some("not a time".into());
    let err = analyze_paths(&req, &opts).err().unwrap();
    assert!(matches!(err, Error::Window(_)), "{err}");
    let missing = Request {
        paths: vec![fixtures().join("no-such-dir")],
        ..Default::default()
    };
    let err = analyze_paths(&missing, &Options::new(plan)).err().unwrap();
    assert!(matches!(err, Error::Open(_)), "{err}");
}

/// Findings a baseline knows are marked, and only those.
#[test]
fn baseline_marks_known_findings() {
    let plan = Plan::new(&[], &[], &[]).unwrap();
    let req = Request {
        paths: vec![fixtures().join("case-mixed")],
        ..Default::default()
    };
    let first = analyze_paths(&req, &Options::new(plan.clone())).unwrap();
    let known: HashSet<String> = first.findings[..1]
        .iter()
        .map(|f| f.fingerprint.clone())
        .collect();
    let mut opts = Options::new(plan);
    opts.baseline = Some(known.clone());
    let second = analyze_paths(&req, &opts).unwrap();
    let marked: HashSet<String> = second
        .findings
        .iter()
        .filter(|f| f.baseline)
        .map(|f| f.fingerprint.clone())
        .collect();
    assert_eq!(marked, known);
    // Every finding is at least info: the run fails at info exactly when
    // one is not in the baseline.
    assert_eq!(
        second.fails_at(mqdiag_model::problem::Severity::Info),
        second.findings.len() > known.len()
    );
}
