//! `fdc`: FDC reports (First Failure Symptom Reports from FDC files, and
//! `ffstsummary` lines read as `fdc` events with the same attributes)
//! grouped by probe id and major error code. An error-log record that
//! names an FDC file (`AMQ6184W`, `AMQ6119S`, "An FFST record has been
//! created ... AMQ11309.0.FDC") is cited by the finding of that file's
//! reports; `cite_fdcs` makes other rules' findings cite the FDCs written
//! within seconds of them.

use super::{Pass, RuleInfo, Threshold};
use crate::event::{Event, Kind, Ts};
use crate::fileinfo::FileInfo;
use crate::findings::{Evidence, EvidenceSet, Finding, Metric, thousands};
use crate::problem::Severity;
use std::collections::{BTreeMap, BTreeSet, HashMap};

pub static RULE: RuleInfo = RuleInfo {
    id: "fdc",
    severity: Severity::Error,
    summary: "FDC reports (FFST) grouped by probe id and error code",
    trigger: "Every report in an FDC file (each `First Failure Symptom Report` header box) \
        and every `ffstsummary` line, grouped by probe id and major error code; a group with \
        at least `min_reports` reports is a finding with the programs that wrote them and the \
        first and last time. Error-log records that name an FDC file (AMQ6184, AMQ6119, \
        \"An FFST record has been created\") are added as evidence to the finding of that \
        file. Severity is error, or warning when every report of the group has probe type \
        `MSGAMQ` (an FDC written to record a message, not a failure).",
    thresholds: &[Threshold::new(
        "min_reports",
        1.0,
        "reports",
        "fewest reports of one probe id and error code to report",
    )
    .range(1.0, f64::MAX)],
    advice: "An FDC records an internal failure or an unexpected condition. Search IBM \
        support for the probe id and major error code (known problems have an APAR and a fix \
        pack); look at the error-log records written at the same time, which usually say what \
        the process was doing; keep the FDC files and the error logs for IBM support \
        (`runmqras -section defs,trace`).",
    functions: &[],
    keywords: &[],
    smf_columns: &[],
    make: |s| Box::new(FdcPass::new(s.get("min_reports"))),
};

/// How far (seconds) a finding's first or last time may be from an FDC
/// for the finding to cite it.
pub const CITE_WITHIN_S: i64 = 5;
/// FDC files cited per finding.
const MAX_CITED: usize = 3;

#[derive(Default)]
struct Group {
    probe: String,
    major: String,
    components: BTreeSet<String>,
    programs: BTreeMap<String, u64>,
    hosts: BTreeSet<String>,
    qmgrs: BTreeSet<String>,
    files: BTreeSet<String>,
    reports: u64,
    all_msgamq: bool,
    first: Option<Ts>,
    last: Option<Ts>,
    evidence: EvidenceSet,
    /// One evidence line per FDC file (the first report in each).
    per_file: Vec<Evidence>,
    description: Option<String>,
}

pub struct FdcPass {
    min_reports: u64,
    groups: BTreeMap<(String, String), Group>,
    /// Error-log records naming an FDC file: file name (upper case) →
    /// the records' evidence.
    announced: HashMap<String, Vec<Evidence>>,
}

impl FdcPass {
    fn new(min_reports: f64) -> FdcPass {
        FdcPass {
            min_reports: min_reports.max(1.0) as u64,
            groups: BTreeMap::new(),
            announced: HashMap::new(),
        }
    }
}

/// The base name of a path, also inside an archive (`x.zip!a/b.FDC`).
fn base_name(p: &str) -> &str {
    p.rsplit(['/', '\\', '!']).next().unwrap_or(p)
}

/// FDC file names in a line: `AMQ11309.0.FDC`, `AMQ11309.1.FDC` (any case).
pub fn fdc_names(text: &str) -> Vec<String> {
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
/// a copy of the text: every log record is asked. The dots are found
/// eight bytes at a time: records hold many (addresses, channel names),
/// and a search call per dot cost 2 % of `analyze` on job logs.
fn names_fdc(text: &str) -> bool {
    let b = text.as_bytes();
    let fdc = |i: usize| {
        b.get(i + 1..i + 4)
            .is_some_and(|w| w.eq_ignore_ascii_case(b"FDC"))
    };
    let mut at = 0;
    while at + 8 <= b.len() {
        let mut dots = crate::text::bytes_equal(crate::text::word_at(b, at), b'.');
        while dots != 0 {
            if fdc(at + dots.trailing_zeros() as usize / 8) {
                return true;
            }
            dots &= dots - 1;
        }
        at += 8;
    }
    (at..b.len()).any(|i| b[i] == b'.' && fdc(i))
}

impl Pass for FdcPass {
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
        let probe = e.attr("probe").unwrap_or("unknown").to_string();
        let major = e.attr("major_rc").unwrap_or("unknown").to_string();
        let g = self
            .groups
            .entry((probe.clone(), major.clone()))
            .or_insert_with(|| Group {
                probe,
                major,
                all_msgamq: true,
                ..Group::default()
            });
        g.reports += 1;
        if let Some(c) = e.attr("component") {
            g.components.insert(c.to_string());
        }
        *g.programs
            .entry(e.attr("program").unwrap_or("unknown").to_string())
            .or_insert(0) += 1;
        if let Some(h) = e.attr("host") {
            g.hosts.insert(h.to_string());
        }
        if let Some(q) = e.attr("qmgr") {
            g.qmgrs.insert(q.to_string());
        }
        if !e
            .attr("probe_type")
            .is_some_and(|t| t.eq_ignore_ascii_case("MSGAMQ"))
        {
            g.all_msgamq = false;
        }
        if g.description.is_none() {
            g.description = e
                .attr("description")
                .or(e.attr("comment1"))
                .map(str::to_string);
        }
        if g.first.is_none_or(|f| e.ts < f) {
            g.first = Some(e.ts);
        }
        if g.last.is_none_or(|l| e.ts > l) {
            g.last = Some(e.ts);
        }
        if g.files.insert(e.path().to_string()) {
            g.per_file.push(Evidence::from_event(e));
        } else {
            g.evidence.push(Evidence::from_event(e));
        }
    }

    fn finish(&mut self, _inputs: &[FileInfo]) -> Vec<Finding> {
        let mut out = Vec::new();
        for g in std::mem::take(&mut self.groups).into_values() {
            if g.reports < self.min_reports {
                continue;
            }
            let severity = if g.all_msgamq {
                Severity::Warning
            } else {
                Severity::Error
            };
            // Programs most frequent first.
            let mut programs: Vec<(String, u64)> = g.programs.into_iter().collect();
            programs.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
            let names: Vec<&str> = programs.iter().map(|(p, _)| p.as_str()).collect();
            let component = g.components.iter().next().cloned();
            let mut title = format!(
                "{} FDC report{} with probe {} ({}) from {}",
                thousands(g.reports),
                if g.reports == 1 { "" } else { "s" },
                g.probe,
                g.major,
                names.join(", "),
            );
            if let Some(c) = &component {
                title.push_str(&format!(" in {c}"));
            }
            let mut f = Finding::new(RULE.id, severity, title);
            f.count = g.reports;
            f.first = g.first;
            f.last = g.last;
            f.key = format!("{}\0{}", g.probe, g.major);
            if g.hosts.len() == 1 {
                f.subject.host = g.hosts.iter().next().cloned();
            }
            if g.qmgrs.len() == 1 {
                f.subject.qmgr = g.qmgrs.iter().next().cloned();
            }
            if programs.len() == 1 {
                f.subject.program = Some(programs[0].0.clone());
            }
            f.metrics.set("probe_id", Metric::Str(g.probe.clone()));
            f.metrics
                .set("component", Metric::opt_str(component.as_deref()));
            f.metrics.set("major_error", Metric::Str(g.major.clone()));
            f.metrics.set("reports", Metric::int(g.reports));
            f.metrics.set("programs", Metric::Str(names.join(", ")));
            f.metrics.set("files", Metric::int(g.files.len() as u64));
            // Each FDC file once, then the error-log records announcing
            // them, then further reports while there is room.
            let mut ev = EvidenceSet::default();
            for e in &g.per_file {
                ev.push(e.clone());
            }
            for file in &g.files {
                if let Some(recs) = self.announced.get(&base_name(file).to_ascii_uppercase()) {
                    for r in recs {
                        ev.push(r.clone());
                    }
                }
            }
            for e in g.evidence.lines {
                ev.push(e);
            }
            f.evidence = ev.into_sorted();
            let mut advice = String::new();
            if let Some(d) = &g.description {
                advice.push_str(&format!("The probe says: {}. ", d.trim_end_matches('.')));
            }
            advice.push_str(&format!(
                "Search IBM support for probe {} with {}; ",
                g.probe, g.major
            ));
            advice.push_str(RULE.advice);
            f.advice = advice;
            out.push(f);
        }
        out
    }
}

/// An FDC report seen in the run, for other findings to cite.
#[derive(Debug, Clone)]
pub struct FdcSeen {
    pub ts: Ts,
    pub evidence: Evidence,
    pub host: Option<String>,
}

impl FdcSeen {
    pub fn of(e: &Event) -> Option<FdcSeen> {
        (e.kind == Kind::Fdc).then(|| FdcSeen {
            ts: e.ts,
            evidence: Evidence::from_event(e),
            host: e.attr("host").map(str::to_string),
        })
    }
}

/// Add to each finding of another rule, as evidence, the FDCs written
/// within `CITE_WITHIN_S` seconds of its first or last time (an error at
/// the same second as an FDC is usually its visible side).
pub fn cite_fdcs(findings: &mut [Finding], fdcs: &[FdcSeen]) {
    if fdcs.is_empty() {
        return;
    }
    for f in findings.iter_mut().filter(|f| f.rule != RULE.id) {
        let near = |t: &Option<Ts>, x: &Ts| {
            t.is_some_and(|t| (t - *x).num_seconds().abs() <= CITE_WITHIN_S)
        };
        let mut cited = 0;
        for d in fdcs {
            if cited == MAX_CITED {
                break;
            }
            if !(near(&f.first, &d.ts) || near(&f.last, &d.ts)) {
                continue;
            }
            if f.evidence.iter().any(|e| e.path == d.evidence.path) {
                continue;
            }
            f.evidence.push(d.evidence.clone());
            cited += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::Format;
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
        for v in crate::testrng::every_word(&pieces, 5) {
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
            origin(path, Format::Fdc),
            line,
            Kind::Fdc,
            format!("{probe} comp: something"),
        );
        e.set_attr("probe", probe);
        e.set_attr("major_rc", major);
        e.set_attr("program", program);
        e.set_attr("component", "xcsFFST");
        e.set_attr("host", "mqhost");
        e
    }

    #[test]
    fn grouped_by_probe_and_error_code_citing_the_log_record() {
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
                "2024-03-01T11:00:00+00:00",
                "XC130003",
                "xecE_SIGSEGV",
                "amqrmppa",
            ),
            fdc(
                "errors/AMQ200.0.FDC",
                90,
                "2024-03-01T11:00:05+00:00",
                "XC130003",
                "xecE_SIGSEGV",
                "amqrmppa",
            ),
            fdc(
                "errors/AMQ300.0.FDC",
                1,
                "2024-03-02T11:00:00+00:00",
                "CO618001",
                "rrcE_BAD_DATA_RECEIVED",
                "amqrmppa",
            ),
        ];
        let out = run(&RULE, &[], &ev);
        assert_eq!(out.len(), 2, "{out:#?}");
        let seg = out
            .iter()
            .find(|f| f.metrics.get("probe_id") == Some(&Metric::Str("XC130003".into())))
            .unwrap();
        assert_eq!(seg.count, 3);
        assert_eq!(seg.metrics.get("reports"), Some(&Metric::Int(3)));
        assert_eq!(
            seg.metrics.get("programs"),
            Some(&Metric::Str("amqrmppa, amqzlaa0".into()))
        );
        assert_eq!(
            seg.metrics.get("major_error"),
            Some(&Metric::Str("xecE_SIGSEGV".into()))
        );
        assert_eq!(
            seg.metrics.get("component"),
            Some(&Metric::Str("xcsFFST".into()))
        );
        assert_eq!(seg.severity, Severity::Error);
        let paths: Vec<&str> = seg.evidence.iter().map(|e| e.path.as_str()).collect();
        assert!(paths.contains(&"errors/AMQ100.0.FDC"), "{paths:?}");
        assert!(paths.contains(&"errors/AMQ200.0.FDC"), "{paths:?}");
        assert!(paths.contains(&"errors/AMQERR01.LOG"), "{paths:?}");
        let other = out
            .iter()
            .find(|f| f.metrics.get("probe_id") == Some(&Metric::Str("CO618001".into())))
            .unwrap();
        assert!(
            other
                .evidence
                .iter()
                .all(|e| e.path != "errors/AMQERR01.LOG")
        );
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
        cite_fdcs(&mut fs, &[d]);
        assert_eq!(fs[0].evidence.len(), 1);
        assert_eq!(fs[0].evidence[0].path, "errors/AMQ1.0.FDC");
        assert!(fs[1].evidence.is_empty());
    }
}
