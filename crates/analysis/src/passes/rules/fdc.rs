//! `fdc`: FDC reports (First Failure Symptom Reports from FDC files, and
//! `ffstsummary` lines read as `fdc` events with the same attributes)
//! grouped by probe id, major error code and program, in bursts: reports
//! of one group close together are one finding naming the first FDC. An error-log record that
//! names an FDC file (`AMQ6184W`, `AMQ6119S`, "An FFST record has been
//! created ... AMQ11309.0.FDC") is cited by the finding of that file's
//! reports; `cite_fdcs` makes other rules' findings cite the FDCs written
//! within seconds of them, saying of each whether it began its burst.

use mqdiag_model::findings::Part;
use crate::passes::builder::FindingBuilder;
use crate::passes::{Pass, RuleInfo, Threshold};
use mqdiag_model::event::Key;
use mqdiag_model::event::{Event, Kind, Ts};
use mqdiag_model::fileinfo::FileInfo;
use mqdiag_model::findings::{Evidence, EvidenceSet, Finding, MAX_EVIDENCE, Metric, thousands};
use mqdiag_model::problem::Severity;
use std::collections::{BTreeMap, BTreeSet, HashMap};

pub(crate) static RULE: RuleInfo = RuleInfo {
    id: "fdc",
    severity: Severity::Error,
    summary: "FDC reports (FFST) grouped by probe id, error code and program in bursts",
    trigger: "Every report in an FDC file (each `First Failure Symptom Report` header box) \
        and every `ffstsummary` line, grouped by probe id, major error code and program; \
        reports of one group no more than `burst_gap_s` apart are one burst, and a burst with \
        at least `min_reports` reports is one finding that names its first FDC (file, time, \
        probe, component, major error code) and counts the rest. Error-log records that name \
        an FDC file (AMQ6184, AMQ6119, \"An FFST record has been created\") are added as \
        evidence to the finding of that file. Severity is error, or warning when every report \
        of the burst has probe type `MSGAMQ` (an FDC written to record a message, not a failure).",
    thresholds: &[
        Threshold::new(
            "min_reports",
            1.0,
            "reports",
            "fewest reports in one burst of a probe id, error code and program to report",
        )
        .range(1.0, f64::MAX),
        Threshold::new(
            "burst_gap_s",
            600.0,
            "seconds",
            "longest time between two FDCs of one probe id, error code and program for them \
             to be one burst",
        )
        .range(0.0, crate::passes::THRESHOLD_MAX),
    ],
    advice: "An FDC records an internal failure or an unexpected condition. The first FDC of \
        a burst is usually the one that matters: the later ones often follow from it. Search \
        IBM support for the probe id and major error code (known problems have an APAR and a \
        fix pack); look at the error-log records written at the same time, which usually say \
        what the process was doing; keep the FDC files and the error logs for IBM support \
        (`runmqras -section defs,trace`).",
    fingerprint: &[Part::Qmgr, Part::Host, Part::Program, Part::Key("probe id, major error")],
    metrics: &[
        "probe_id",
        "component",
        "major_error",
        "reports",
        "programs",
        "first_fdc",
    ],
    functions: &[],
    keywords: &[],
    smf_columns: &[],
    make: |s| Box::new(FdcPass::new(s.get("min_reports"), s.get("burst_gap_s"))),
    hook: Some(|plan| Box::new(Citer::new(burst_gap_s(plan)))),
    ..RuleInfo::BASE
};

/// FDC reports seen at most for other findings to cite: FDCs are few, and
/// the cap keeps a case of thousands bounded.
const MAX_SEEN: usize = 10_000;

/// The hook that makes other rules' findings cite the FDCs written near
/// them (`cite_fdcs`).
struct Citer {
    seen: Vec<FdcSeen>,
    gap_s: f64,
}

impl Citer {
    fn new(gap_s: f64) -> Citer {
        Citer {
            seen: Vec::new(),
            gap_s,
        }
    }
}

impl crate::passes::Hook for Citer {
    fn kinds(&self) -> crate::passes::Kinds {
        crate::passes::Kinds::of(&[Kind::Fdc])
    }

    fn observe(&mut self, e: &Event) {
        if self.seen.len() < MAX_SEEN
            && let Some(d) = FdcSeen::of(e)
        {
            self.seen.push(d);
        }
    }

    fn redact(&mut self, r: &mqdiag_model::redact::Redactor) {
        for d in &mut self.seen {
            d.evidence.path = r.apply(&d.evidence.path);
            d.evidence.text = r.apply(&d.evidence.text);
        }
    }

    /// After sealing: whether FDC files are in the case does not change
    /// the other findings' fingerprints.
    fn sealed(&mut self, findings: &mut [Finding]) {
        cite_fdcs(findings, &self.seen, self.gap_s);
    }
}

/// How far (seconds) a finding's first or last time may be from an FDC
/// for the finding to cite it.
pub(crate) const CITE_WITHIN_S: i64 = 5;
/// FDC files cited per finding.
const MAX_CITED: usize = 3;

/// FDCs of one probe id, error code and program, each no more than the
/// burst gap after the one before.
#[derive(Default)]
struct Burst {
    probe: String,
    major: String,
    program: String,
    components: BTreeSet<String>,
    hosts: BTreeSet<String>,
    qmgrs: BTreeSet<String>,
    /// FDC file names (upper case), for the error-log records naming them.
    files: BTreeSet<String>,
    reports: u64,
    all_msgamq: bool,
    first: Option<Ts>,
    last: Option<Ts>,
    /// The first FDC: its file name, component and line.
    first_file: String,
    first_component: Option<String>,
    first_evidence: Option<Evidence>,
    evidence: EvidenceSet,
    /// One evidence line per further FDC file (the first report in each).
    per_file: Vec<Evidence>,
    description: Option<String>,
    /// Files past the `MAX_FILES_NAMED` kept in `files`.
    more_files: u64,
    /// Bursts of its key folded into it past `MAX_BURSTS` (0: none).
    later_bursts: u64,
}

/// Bursts kept apart; later ones fold into one per probe id, error code
/// and program, which counts them (a 1 GB file of reports, each a burst
/// of its own, keeps a few MB).
const MAX_BURSTS: usize = 5_000;
/// Probe id, error code and program of the bursts folded past twice
/// `MAX_BURSTS` keys.
const OTHER: &str = "(other)";
/// Open bursts before those past the gap are closed in one sweep.
const MAX_OPEN_BURSTS: usize = 5_000;
/// FDC file names a burst keeps (for the error-log records naming them);
/// past this it counts them.
const MAX_FILES_NAMED: usize = 1_000;
/// Lines of further FDC files a burst keeps for its evidence.
const MAX_PER_FILE: usize = 2 * MAX_EVIDENCE;

impl Burst {
    /// A later burst of the same key, folded into this one: counts and
    /// time range, the names and lines while there is room.
    fn absorb(&mut self, o: Burst) {
        self.reports += o.reports;
        self.later_bursts += 1 + o.later_bursts;
        self.all_msgamq &= o.all_msgamq;
        for (mine, theirs) in [
            (&mut self.components, o.components),
            (&mut self.hosts, o.hosts),
            (&mut self.qmgrs, o.qmgrs),
        ] {
            for v in theirs {
                if mine.len() < MAX_FILES_NAMED {
                    mine.insert(v);
                }
            }
        }
        self.more_files += o.more_files;
        for f in o.files {
            if self.files.len() < MAX_FILES_NAMED {
                self.files.insert(f);
            } else if !self.files.contains(&f) {
                self.more_files += 1;
            }
        }
        if o.last.is_some_and(|l| self.last.is_none_or(|s| l > s)) {
            self.last = o.last;
        }
        for ev in o.first_evidence.into_iter().chain(o.per_file) {
            if self.per_file.len() < MAX_PER_FILE {
                self.per_file.push(ev);
            }
        }
    }
}

pub(crate) struct FdcPass {
    min_reports: u64,
    gap_s: f64,
    /// The open burst of each probe id, error code and program.
    open: BTreeMap<(String, String, String), Burst>,
    closed: Vec<Burst>,
    /// Bursts closed past `MAX_BURSTS`, one per key.
    later: BTreeMap<(String, String, String), Burst>,
    /// Error-log records naming an FDC file: file name (upper case) →
    /// the records' evidence.
    announced: HashMap<String, Vec<Evidence>>,
}

impl FdcPass {
    fn new(min_reports: f64, gap_s: f64) -> FdcPass {
        FdcPass {
            min_reports: min_reports.max(1.0) as u64,
            gap_s: gap_s.max(0.0),
            open: BTreeMap::new(),
            closed: Vec::new(),
            later: BTreeMap::new(),
            announced: HashMap::new(),
        }
    }
}

/// The base name of a path, also inside an archive (`x.zip!a/b.FDC`).
fn base_name(p: &str) -> &str {
    p.rsplit(['/', '\\', '!']).next().unwrap_or(p)
}

/// The FDC file a report is in: an `ffstsummary` line names it, a report
/// read from an FDC file is in that file.
fn fdc_file(e: &Event) -> String {
    e.get(Key::FdcFile)
        .map(base_name)
        .unwrap_or_else(|| base_name(e.path()))
        .to_ascii_uppercase()
}
/// FDC file names in a line: `AMQ11309.0.FDC`, `AMQ11309.1.FDC` (any case).
pub(crate) fn fdc_names(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let up = text.to_ascii_uppercase();
    let b = up.as_bytes();
    let mut from = 0;
    while let Some(i) = up[from..].find(".FDC") {
        let end = from + i + 4;
        // Walk back over `AMQ<digits>.<digits>`.
        let mut s = from + i;
        while s > 0 && (b[s - 1].is_ascii_alphanumeric() || b[s - 1] == b'.') {
            s -= 1;
        }
        let name = &up[s..end];
        if name.starts_with("AMQ") && name.len() > 7 && !out.iter().any(|n| n == name) {
            out.push(name.to_string());
        }
        from = end;
    }
    out
}

/// Whether a record's text names an FDC file (`.FDC` in any case), without
/// a copy of the text: every log record is asked. The search is for the
/// `D` (one vector search for both cases, a few hits a record) with the
/// bytes around it compared after: dots are many more (addresses, channel
/// names), and testing each, even eight bytes at a time, cost 2 % of
/// `analyze` on job logs.
fn names_fdc(text: &str) -> bool {
    let b = text.as_bytes();
    memchr::memchr2_iter(b'D', b'd', b).any(|i| {
        i >= 2
            && b[i - 2] == b'.'
            && b[i - 1].eq_ignore_ascii_case(&b'F')
            && b.get(i + 1).is_some_and(|c| c.eq_ignore_ascii_case(&b'C'))
    })
}

impl Pass for FdcPass {
    fn kinds(&self) -> crate::passes::Kinds {
        crate::passes::Kinds::of(&[Kind::Fdc, Kind::LogRecord])
    }

    fn observe(&mut self, e: &Event) {
        if e.kind != Kind::Fdc {
            if e.kind == Kind::LogRecord && names_fdc(&e.text) {
                for n in fdc_names(&e.text) {
                    let v = self.announced.entry(n).or_default();
                    if v.len() < MAX_CITED {
                        v.push(Evidence::from_event(e));
                    }
                }
            }
            return;
        }
        let probe = e.get(Key::Probe).unwrap_or("unknown").to_string();
        let major = e.get(Key::MajorRc).unwrap_or("unknown").to_string();
        let program = e.get(Key::Program).unwrap_or("unknown").to_string();
        let key = (probe.clone(), major.clone(), program.clone());
        // Events come in time order: a report further than the gap from
        // the burst's last one starts a new burst.
        if let Some(b) = self.open.get(&key)
            && b.last
                .is_some_and(|l| (e.ts - l).num_milliseconds() as f64 > self.gap_s * 1000.0)
        {
            let done = self.open.remove(&key).unwrap_or_default();
            self.close(done);
        }
        if self.open.len() >= MAX_OPEN_BURSTS && !self.open.contains_key(&key) {
            // Many probes at once: those past the gap can grow no more.
            let gap = self.gap_s * 1000.0;
            let stale: Vec<_> = self
                .open
                .iter()
                .filter(|(_, b)| b.last.is_some_and(|l| (e.ts - l).num_milliseconds() as f64 > gap))
                .map(|(k, _)| k.clone())
                .collect();
            for k in stale {
                if let Some(b) = self.open.remove(&k) {
                    self.close(b);
                }
            }
        }
        let b = self.open.entry(key).or_insert_with(|| Burst {
            probe,
            major,
            program,
            all_msgamq: true,
            ..Burst::default()
        });
        b.reports += 1;
        if let Some(c) = e.get(Key::Component) {
            b.components.insert(c.to_string());
        }
        if let Some(h) = e.get(Key::Host) {
            b.hosts.insert(h.to_string());
        }
        if let Some(q) = e.get(Key::Qmgr) {
            b.qmgrs.insert(q.to_string());
        }
        if !e
            .get(Key::ProbeType)
            .is_some_and(|t| t.eq_ignore_ascii_case("MSGAMQ"))
        {
            b.all_msgamq = false;
        }
        if b.description.is_none() {
            b.description = e
                .get(Key::Description)
                .or(e.get(Key::Comment1))
                .map(str::to_string);
        }
        let file = fdc_file(e);
        let ev = Evidence::from_event(e);
        if b.first.is_none_or(|f| e.ts < f) {
            // The new first report: the one it replaces is a later one.
            if let Some(old) = b.first_evidence.replace(ev) {
                b.per_file.push(old);
            }
            b.first = Some(e.ts);
            b.first_file = file.clone();
            b.first_component = e.get(Key::Component).map(str::to_string);
            b.files.insert(file);
        } else if b.files.len() >= MAX_FILES_NAMED && !b.files.contains(&file) {
            b.more_files += 1;
        } else if b.files.insert(file) {
            if b.per_file.len() < MAX_PER_FILE {
                b.per_file.push(ev);
            }
        } else {
            b.evidence.push(ev);
        }
        if b.last.is_none_or(|l| e.ts > l) {
            b.last = Some(e.ts);
        }
    }

    fn finish(&mut self, _inputs: &[FileInfo]) -> Vec<Finding> {
        for b in std::mem::take(&mut self.open).into_values() {
            self.close(b);
        }
        let mut bursts = std::mem::take(&mut self.closed);
        bursts.extend(std::mem::take(&mut self.later).into_values());
        let mut out = Vec::new();
        for b in bursts {
            if b.reports < self.min_reports {
                continue;
            }
            let severity = if b.all_msgamq {
                Severity::Warning
            } else {
                Severity::Error
            };
            let component = b
                .first_component
                .clone()
                .or_else(|| b.components.iter().next().cloned());
            let f = FindingBuilder::new(&RULE, severity, title(&b, component.as_deref()))
                .span(b.first, b.last, b.reports)
                // Bursts of one group are told apart by their order (the
                // fingerprint's suffix), not by the first FDC's file name,
                // which holds a pid.
                .key(format!("{}\0{}\0{}", b.probe, b.major, b.program))
                .subject(|s| {
                    if b.hosts.len() == 1 {
                        s.host = b.hosts.iter().next().cloned();
                    }
                    if b.qmgrs.len() == 1 {
                        s.qmgr = b.qmgrs.iter().next().cloned();
                    }
                    s.program = Some(b.program.clone());
                })
                .metrics([
                    ("probe_id", Metric::Str(b.probe.clone())),
                    ("component", Metric::opt_str(component.as_deref())),
                    ("major_error", Metric::Str(b.major.clone())),
                    ("reports", Metric::int(b.reports)),
                    ("programs", Metric::Str(b.program.clone())),
                    ("first_fdc", Metric::Str(b.first_file.clone())),
                    ("later_reports", Metric::int(b.reports.saturating_sub(1))),
                    ("files", Metric::int(b.files.len() as u64 + b.more_files)),
                ])
                .advice(advice(&b));
            out.push(f.kept_evidence(self.evidence(b)).build());
        }
        out
    }
}

impl FdcPass {
    /// A burst that can grow no more: kept apart within the budget, else
    /// folded into the later bursts of its key.
    fn close(&mut self, b: Burst) {
        if self.closed.len() < MAX_BURSTS {
            self.closed.push(b);
            return;
        }
        let mut key = (b.probe.clone(), b.major.clone(), b.program.clone());
        if self.later.len() >= MAX_BURSTS && !self.later.contains_key(&key) {
            // As many keys again: the rest are one burst of other probes.
            key = (OTHER.to_string(), OTHER.to_string(), OTHER.to_string());
        }
        match self.later.entry(key) {
            std::collections::btree_map::Entry::Occupied(mut o) => o.get_mut().absorb(b),
            std::collections::btree_map::Entry::Vacant(v) => {
                let mut b = b;
                if v.key().0 == OTHER {
                    b.probe = OTHER.to_string();
                    b.major = OTHER.to_string();
                    b.program = OTHER.to_string();
                }
                v.insert(b);
            }
        }
    }

    /// The first FDC's line first, then the error-log records announcing
    /// it, then one line of each further FDC file, the records announcing
    /// those, and further reports while there is room.
    fn evidence(&self, b: Burst) -> Vec<Evidence> {
        let announced = |file: &str| self.announced.get(file).into_iter().flatten().cloned();
        let mut rest = EvidenceSet::default();
        for x in announced(&b.first_file) {
            rest.push(x);
        }
        for x in b.per_file {
            rest.push(x);
        }
        for file in b.files.iter().filter(|f| **f != b.first_file) {
            for x in announced(file) {
                rest.push(x);
            }
        }
        for x in b.evidence.lines {
            rest.push(x);
        }
        let mut ev: Vec<Evidence> = b.first_evidence.into_iter().collect();
        for x in rest.lines {
            if ev.len() == MAX_EVIDENCE {
                break;
            }
            if !ev.contains(&x) {
                ev.push(x);
            }
        }
        ev
    }
}

fn title(b: &Burst, component: Option<&str>) -> String {
    use std::fmt::Write;
    let mut title = format!(
        "{} FDC report{} with probe {} ({}) from {}",
        thousands(b.reports),
        if b.reports == 1 { "" } else { "s" },
        b.probe,
        b.major,
        b.program,
    );
    if let Some(c) = component {
        let _ = write!(title, " in {c}");
    }
    if b.later_bursts > 0 {
        let _ = write!(
            title,
            " in {} bursts (past the run budget of {} told apart)",
            thousands(b.later_bursts + 1),
            thousands(MAX_BURSTS as u64)
        );
    }
    // Which FDC came first: IBM's triage starts from it.
    if let Some(t) = b.first {
        let _ = write!(title, "; first of the burst: {} at ", b.first_file);
        push_second(&mut title, &t);
    }
    title
}

/// `t` as `%Y-%m-%d %H:%M:%S`, from the bytes of its RFC 3339 form where
/// the year has four digits (chrono's formatter parses its pattern anew
/// for each finding: a fifth of the rule's finish on 10,000 FDCs).
fn push_second(out: &mut String, t: &Ts) {
    use chrono::Datelike;
    let mut b = [0u8; 32];
    if (0..=9999).contains(&t.year()) {
        let n = mqdiag_model::timefmt::rfc3339_into(t, &mut b);
        if n >= 19 {
            b[10] = b' ';
            if let Ok(s) = std::str::from_utf8(&b[..19]) {
                out.push_str(s);
                return;
            }
        }
    }
    let _ = std::fmt::Write::write_fmt(out, format_args!("{}", t.format("%Y-%m-%d %H:%M:%S")));
}

fn advice(b: &Burst) -> String {
    use std::fmt::Write;
    let mut advice = String::new();
    if let Some(d) = &b.description {
        let _ = write!(advice, "The probe says: {}. ", d.trim_end_matches('.'));
    }
    if b.reports > 1 {
        let _ = write!(
            advice,
            "Start from the first FDC of the burst, {}. ",
            b.first_file
        );
    }
    let _ = write!(
        advice,
        "Search IBM support for probe {} with {}; ",
        b.probe, b.major
    );
    advice.push_str(RULE.advice);
    advice
}

/// An FDC report seen in the run, for other findings to cite.
#[derive(Debug, Clone)]
struct FdcSeen {
    ts: Ts,
    evidence: Evidence,
    /// Probe id, major error code and program: what makes a burst.
    key: (String, String, String),
    /// The FDC file (upper case).
    file: String,
}

impl FdcSeen {
    fn of(e: &Event) -> Option<FdcSeen> {
        (e.kind == Kind::Fdc).then(|| FdcSeen {
            ts: e.ts,
            evidence: Evidence::from_event(e),
            key: (
                e.get(Key::Probe).unwrap_or("unknown").to_string(),
                e.get(Key::MajorRc).unwrap_or("unknown").to_string(),
                e.get(Key::Program).unwrap_or("unknown").to_string(),
            ),
            file: fdc_file(e),
        })
    }
}

/// The burst gap (seconds) the `fdc` rule runs with: its `--set` value,
/// or the default when the rule is not run.
fn burst_gap_s(plan: &crate::passes::Plan) -> f64 {
    plan.rules
        .iter()
        .find(|(r, _)| r.id == RULE.id)
        .map(|(_, s)| s.get("burst_gap_s"))
        .unwrap_or_else(|| crate::passes::Settings::defaults(&RULE).get("burst_gap_s"))
}

/// For each FDC (in time order, as the run saw them), the first FDC file
/// of its burst, as the `fdc` rule cuts bursts.
fn burst_starts(fdcs: &[FdcSeen], gap_s: f64) -> Vec<String> {
    let mut open: HashMap<&(String, String, String), (Ts, String)> = HashMap::new();
    fdcs.iter()
        .map(|d| {
            let start = match open.get(&d.key) {
                Some((last, first))
                    if (d.ts - *last).num_milliseconds() as f64 <= gap_s * 1000.0 =>
                {
                    first.clone()
                }
                _ => d.file.clone(),
            };
            open.insert(&d.key, (d.ts, start.clone()));
            start
        })
        .collect()
}

/// Add to each finding of another rule, as evidence, the FDCs written
/// within `CITE_WITHIN_S` seconds of its first or last time (an error at
/// the same second as an FDC is usually its visible side), and the metric
/// `cited_fdcs` saying of each whether it was the first of its burst.
fn cite_fdcs(findings: &mut [Finding], fdcs: &[FdcSeen], gap_s: f64) {
    if fdcs.is_empty() {
        return;
    }
    let starts = burst_starts(fdcs, gap_s);
    for f in findings.iter_mut().filter(|f| f.rule != RULE.id) {
        let near = |t: &Option<Ts>, x: &Ts| {
            t.is_some_and(|t| (t - *x).num_seconds().abs() <= CITE_WITHIN_S)
        };
        let mut cited = Vec::new();
        for (d, start) in fdcs.iter().zip(&starts) {
            if cited.len() == MAX_CITED {
                break;
            }
            if !(near(&f.first, &d.ts) || near(&f.last, &d.ts)) {
                continue;
            }
            if f.evidence.iter().any(|e| e.path == d.evidence.path) {
                continue;
            }
            f.evidence.push(d.evidence.clone());
            cited.push(if *start == d.file {
                format!("{} (first of its burst)", d.file)
            } else {
                format!("{} (later in the burst that began with {start})", d.file)
            });
        }
        if !cited.is_empty() {
            f.metrics.set("cited_fdcs", Metric::Str(cited.join("; ")));
        }
    }
}

#[cfg(test)]
mod tests {
    /// The burst's first time reads as chrono's `%Y-%m-%d %H:%M:%S` would
    /// write it, a leap second and years past four digits included.
    #[test]
    fn first_times_read_as_chronos() {
        for t in [
            "2023-10-20T09:00:12.104+04:00",
            "1970-01-01T00:00:00Z",
            "2262-04-11T23:47:16.854775807Z",
            "2016-12-31T23:59:60.5-05:00",
            "0001-02-03T04:05:06Z",
        ] {
            let t = chrono::DateTime::parse_from_rfc3339(t).unwrap();
            let mut s = String::new();
            push_second(&mut s, &t);
            assert_eq!(s, t.format("%Y-%m-%d %H:%M:%S").to_string(), "{t:?}");
        }
        let far = chrono::NaiveDate::from_ymd_opt(12345, 1, 2)
            .unwrap()
            .and_hms_opt(3, 4, 5)
            .unwrap()
            .and_utc()
            .fixed_offset();
        let mut s = String::new();
        push_second(&mut s, &far);
        assert_eq!(s, far.format("%Y-%m-%d %H:%M:%S").to_string());
    }

    use super::*;
    use crate::passes::testutil::*;

    #[test]
    fn fdc_file_names_in_any_case() {
        assert!(names_fdc(
            "AMQ6183W: ... FDC file AMQ12345.0.FDC was written"
        ));
        assert!(names_fdc("see amq1.0.fdc"));
        assert!(names_fdc(".FdC"));
        assert!(!names_fdc("no file. FD"));
        assert!(!names_fdc("FDC without a dot"));
        assert!(!names_fdc(""));
        // Every place in and across eight-byte words, against a plain scan.
        let plain = |b: &[u8]| {
            (0..b.len()).any(|i| {
                b[i] == b'.'
                    && b[i + 1..].len() >= 3
                    && b[i + 1..i + 4].eq_ignore_ascii_case(b"FDC")
            })
        };
        let pieces: [&[u8]; 6] = [b".", b"F", b"d", b"C", b"x", b".fDc"];
        for v in mqdiag_model::testrng::every_word(&pieces, 5) {
            for pad in 0..9 {
                let mut t = "y".repeat(pad).into_bytes();
                t.extend(v.concat());
                let t = String::from_utf8(t).unwrap();
                assert_eq!(names_fdc(&t), plain(t.as_bytes()), "{t:?}");
            }
        }
    }

    fn fdc(path: &str, line: u64, at: &str, probe: &str, major: &str, program: &str) -> Event {
        let mut e = Event::new(
            ts(at),
            origin(path, mqdiag_readers::formats::fdc::FORMAT),
            line,
            Kind::Fdc,
            format!("{probe} comp: something"),
        );
        e.set(Key::Probe, probe);
        e.set(Key::MajorRc, major);
        e.set(Key::Program, program);
        e.set(Key::Component, "xcsFFST");
        e.set(Key::Host, "mqhost");
        e
    }

    #[test]
    fn grouped_by_probe_error_code_and_program_citing_the_log_record() {
        let ev = vec![
            fdc(
                "errors/AMQ100.0.FDC",
                1,
                "2024-03-01T10:00:00+00:00",
                "XC130003",
                "xecE_SIGSEGV",
                "amqzlaa0",
            ),
            log(
                "errors/AMQERR01.LOG",
                40,
                "2024-03-01T10:00:01+00:00",
                "AMQ6184W: An internal error has occurred... An FFST record has been created: AMQ100.0.FDC",
                &[("msgid", "AMQ6184W")],
            ),
            fdc(
                "errors/AMQ200.0.FDC",
                1,
                "2024-03-01T10:01:00+00:00",
                "XC130003",
                "xecE_SIGSEGV",
                "amqrmppa",
            ),
            fdc(
                "errors/AMQ200.0.FDC",
                90,
                "2024-03-01T10:01:05+00:00",
                "XC130003",
                "xecE_SIGSEGV",
                "amqrmppa",
            ),
            fdc(
                "errors/AMQ300.0.FDC",
                1,
                "2024-03-01T10:02:00+00:00",
                "CO618001",
                "rrcE_BAD_DATA_RECEIVED",
                "amqrmppa",
            ),
        ];
        let out = run(&RULE, &[], &ev);
        assert_eq!(out.len(), 3, "{out:#?}");
        let of = |probe: &str, program: &str| {
            out.iter()
                .find(|f| {
                    metric(f, "probe_id") == Metric::Str(probe.into())
                        && f.subject.program.as_deref() == Some(program)
                })
                .unwrap()
        };
        let lone = of("XC130003", "amqzlaa0");
        assert_eq!(lone.count, 1);
        assert_eq!(metric(lone, "programs"), Metric::Str("amqzlaa0".into()));
        assert_eq!(
            metric(lone, "first_fdc"),
            Metric::Str("AMQ100.0.FDC".into())
        );
        assert_eq!(
            metric(lone, "major_error"),
            Metric::Str("xecE_SIGSEGV".into())
        );
        assert_eq!(metric(lone, "component"), Metric::Str("xcsFFST".into()));
        assert_eq!(lone.severity, Severity::Error);
        let paths: Vec<&str> = lone.evidence.iter().map(|e| e.path.as_str()).collect();
        assert_eq!(paths, ["errors/AMQ100.0.FDC", "errors/AMQERR01.LOG"]);
        let two = of("XC130003", "amqrmppa");
        assert_eq!(two.count, 2);
        assert_eq!(metric(two, "reports"), Metric::Int(2));
        assert_eq!(metric(two, "first_fdc"), Metric::Str("AMQ200.0.FDC".into()));
        assert_eq!(two.evidence[0].line, 1);
        let other = of("CO618001", "amqrmppa");
        assert!(
            other
                .evidence
                .iter()
                .all(|e| e.path != "errors/AMQERR01.LOG")
        );
    }

    /// `AMQ30.0.FDC` .. `AMQ30.5.FDC`, ten minutes apart, then the same
    /// probe again after an hour: two bursts.
    fn burst_then_gap() -> Vec<Event> {
        let mut ev: Vec<Event> = (0..6)
            .map(|i| {
                fdc(
                    &format!("errors/AMQ30.{i}.FDC"),
                    1,
                    &format!("2024-03-01T10:{:02}:00+00:00", i * 10),
                    "XY350015",
                    "xecF_E_UNEXPECTED_SYSTEM_RC",
                    "amqzxma0",
                )
            })
            .collect();
        ev.push(fdc(
            "errors/AMQ31.0.FDC",
            1,
            "2024-03-01T12:00:00+00:00",
            "XY350015",
            "xecF_E_UNEXPECTED_SYSTEM_RC",
            "amqzxma0",
        ));
        ev
    }

    #[test]
    fn a_burst_is_one_finding_naming_its_first_fdc() {
        let out = run(&RULE, &[], &burst_then_gap());
        assert_eq!(out.len(), 2, "{out:#?}");
        let burst = out.iter().find(|f| f.count == 6).unwrap();
        assert_eq!(
            metric(burst, "first_fdc"),
            Metric::Str("AMQ30.0.FDC".into())
        );
        assert_eq!(metric(burst, "later_reports"), Metric::Int(5));
        assert_eq!(metric(burst, "files"), Metric::Int(6));
        assert_eq!(burst.first, Some(ts("2024-03-01T10:00:00+00:00")));
        assert_eq!(burst.last, Some(ts("2024-03-01T10:50:00+00:00")));
        assert_eq!(burst.evidence[0].path, "errors/AMQ30.0.FDC");
        assert!(
            burst
                .title
                .contains("first of the burst: AMQ30.0.FDC at 2024-03-01 10:00:00"),
            "{}",
            burst.title
        );
        let late = out.iter().find(|f| f.count == 1).unwrap();
        assert_eq!(metric(late, "first_fdc"), Metric::Str("AMQ31.0.FDC".into()));
        assert_ne!(burst.fingerprint, late.fingerprint);
    }

    #[test]
    fn the_burst_gap_is_a_threshold() {
        // Ten minutes apart is no burst under a five-minute gap.
        let out = run(&RULE, &[("burst_gap_s", 300.0)], &burst_then_gap());
        assert_eq!(out.len(), 7);
        // Everything is one burst under a three-hour gap.
        let out = run(&RULE, &[("burst_gap_s", 10800.0)], &burst_then_gap());
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].count, 7);
        let out = run(&RULE, &[("min_reports", 2.0)], &burst_then_gap());
        assert_eq!(out.len(), 1);
    }

    #[test]
    fn summary_lines_name_the_fdc_file_they_list() {
        let ev: Vec<Event> = [
            ("AMQ77.0.FDC", 3, "10:00:00"),
            ("AMQ77.1.FDC", 4, "10:04:00"),
        ]
        .iter()
        .map(|(file, line, at)| {
            let mut e = fdc(
                "case/FFST.output",
                *line,
                &format!("2024-03-01T{at}+00:00"),
                "XC034255",
                "xecE_E_UNEXPECTED_RC",
                "amqpcsea",
            );
            e.set(Key::FdcFile, file);
            e
        })
        .collect();
        let out = run(&RULE, &[], &ev);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].count, 2);
        assert_eq!(
            metric(&out[0], "first_fdc"),
            Metric::Str("AMQ77.0.FDC".into())
        );
        assert_eq!(metric(&out[0], "files"), Metric::Int(2));
        assert_eq!(out[0].evidence[0].line, 3);
    }

    #[test]
    fn names_of_fdc_files_in_text() {
        assert_eq!(
            fdc_names("record created: AMQ11309.0.FDC."),
            vec!["AMQ11309.0.FDC"]
        );
        assert_eq!(
            fdc_names("/var/mqm/errors/amq1.1.fdc and AMQ1.1.FDC, AMQ22.0.FDC"),
            vec!["AMQ1.1.FDC", "AMQ22.0.FDC"]
        );
        assert!(fdc_names("no file .FDC here").is_empty());
    }

    #[test]
    fn other_findings_cite_fdcs_within_seconds() {
        let d = FdcSeen::of(&fdc(
            "errors/AMQ1.0.FDC",
            3,
            "2024-03-01T10:00:00+00:00",
            "P",
            "E",
            "amqrmppa",
        ))
        .unwrap();
        let mut near = Finding::new("channel-error", Severity::Error, "near");
        near.first = Some(ts("2024-03-01T09:59:58+00:00"));
        near.last = near.first;
        let mut far = Finding::new("channel-error", Severity::Error, "far");
        far.first = Some(ts("2024-03-01T10:01:00+00:00"));
        far.last = far.first;
        let mut fs = vec![near, far];
        cite_fdcs(&mut fs, &[d], 600.0);
        assert_eq!(fs[0].evidence.len(), 1);
        assert_eq!(fs[0].evidence[0].path, "errors/AMQ1.0.FDC");
        assert_eq!(
            metric(&fs[0], "cited_fdcs"),
            Metric::Str("AMQ1.0.FDC (first of its burst)".into())
        );
        assert!(fs[1].evidence.is_empty());
        assert!(fs[1].metrics.get("cited_fdcs").is_none());
    }

    #[test]
    fn a_cited_fdc_says_whether_it_was_first_of_its_burst() {
        let seen: Vec<FdcSeen> = burst_then_gap().iter().filter_map(FdcSeen::of).collect();
        let at = |t: &str| {
            let mut f = Finding::new("channel-error", Severity::Error, t);
            f.first = Some(ts(t));
            f.last = f.first;
            f
        };
        let mut fs = vec![
            at("2024-03-01T10:20:01+00:00"),
            at("2024-03-01T10:00:02+00:00"),
            at("2024-03-01T12:00:00+00:00"),
        ];
        cite_fdcs(&mut fs, &seen, 600.0);
        assert_eq!(
            metric(&fs[0], "cited_fdcs"),
            Metric::Str("AMQ30.2.FDC (later in the burst that began with AMQ30.0.FDC)".into())
        );
        assert_eq!(
            metric(&fs[1], "cited_fdcs"),
            Metric::Str("AMQ30.0.FDC (first of its burst)".into())
        );
        assert_eq!(
            metric(&fs[2], "cited_fdcs"),
            Metric::Str("AMQ31.0.FDC (first of its burst)".into())
        );
        // Under a five-minute gap every one of them starts a burst.
        let mut fs = vec![at("2024-03-01T10:20:01+00:00")];
        cite_fdcs(&mut fs, &seen, 300.0);
        assert_eq!(
            metric(&fs[0], "cited_fdcs"),
            Metric::Str("AMQ30.2.FDC (first of its burst)".into())
        );
    }
}
