//! `tls-handshake-slow`: GSKit set-up and handshake calls that take long
//! (seed 004: 18 s inside `gsk_environment_init`), and the longest TLS
//! request of a z/OS channel initiator's SSL tasks (SMF QCTSSL).

use crate::passes::name_memo::NameMemo;
use mqdiag_model::findings::Part;
use crate::passes::builder::{FindingBuilder, counted_title};
use crate::passes::patterns;
use crate::passes::{ChartKind, Pass, RuleInfo, Settings, ThreadKey, Threshold, thread_key};
use mqdiag_model::event::{Event, Key, Kind, Ts};
use mqdiag_model::fileinfo::FileInfo;
use mqdiag_model::findings::{
    Chart, Evidence, Finding, Metric, RefLine, Series, SeriesBuf, Style, Unit, human_ms,
};
use mqdiag_model::problem::Severity;
use mqdiag_readers::catalog::functions::{self, Family};
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

pub(crate) static RULE: RuleInfo = RuleInfo {
    id: "tls-handshake-slow",
    severity: Severity::Warning,
    summary: "GSKit (TLS) environment set-up or handshake calls, or z/OS SSL task requests, taking long",
    trigger: "A GSKit call of the handshake family (`gsk_environment_open`, \
        `gsk_environment_init`, `gsk_secure_soc_open`, `gsk_secure_soc_init`, \
        `gsk_secure_soc_reset`) is timed in a formatted trace either from its text lines \
        `<function>: input: ...` to the next `<function>: output: ...` on the same thread, or \
        from its entry to its exit. Each call of at least `min_ms` is slow; findings are per \
        file, process and function, graded by the longest call: info from `min_ms`, warning \
        from `warning_ms`, error from `error_ms`. SMF QCTSSL rows (`tls_max_us`, the longest \
        request of an SSL server task in the interval) are graded the same way, per queue \
        manager.",
    thresholds: &[
        Threshold::new(
            "min_ms",
            1000.0,
            "ms",
            "a call at least this long is slow (info)",
        ),
        Threshold::new(
            "warning_ms",
            3000.0,
            "ms",
            "longest call at least this long: warning",
        ),
        Threshold::new(
            "error_ms",
            10000.0,
            "ms",
            "longest call at least this long: error",
        ),
    ],
    advice: "A slow gsk_environment_init/open is GSKit reading the key repository and \
        initialising its crypto (key repository on slow or remote storage, very large \
        repositories, entropy source); a slow gsk_secure_soc_init is the handshake itself \
        (revocation checks against an OCSP responder or CRL server that does not answer, the \
        network round trip, an overloaded peer).",
    fingerprint: &[Part::Qmgr, Part::Host, Part::Program, Part::Key("function")],
    metrics: &["function", "max_ms", "calls"],
    functions: &[Family::Gskit],
    keywords: &["gsk_"],
    smf_columns: &["record", "tls_max_us", "qmgr"],
    make: |s| Box::new(TlsHandshakeSlow::new(s)),
    chart: ChartKind::Merged,
    ..RuleInfo::BASE
};

/// GSKit `input:` lines waiting for their `output:` line; older ones are
/// dropped past this many.
const MAX_PENDING: usize = 10_000;

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum GroupKey {
    /// (file, pid, function)
    Trace(Arc<str>, u32, String),
    /// (file, qmgr)
    Smf(Arc<str>, String),
}

#[derive(Default)]
struct Group {
    calls: u64,
    slow: u64,
    max_us: u64,
    first: Option<Ts>,
    last: Option<Ts>,
    tid: Option<u32>,
    ident: Option<String>,
    first_slow: Vec<Evidence>,
    worst: Vec<Evidence>,
    /// Every call's duration at its end, slow or not, for the chart.
    chart: SeriesBuf,
}

pub(crate) struct TlsHandshakeSlow {
    min_us: u64,
    warning_us: u64,
    error_us: u64,
    pending: HashMap<(ThreadKey, String), (Ts, Evidence)>,
    groups: BTreeMap<GroupKey, Group>,
    /// The family of each traced function name, remembered (asked of
    /// every exit).
    families: NameMemo<Option<Family>>,
}

impl TlsHandshakeSlow {
    pub(crate) fn new(s: &Settings) -> Self {
        let us = |k| (s.get(k) * 1000.0) as u64;
        TlsHandshakeSlow {
            min_us: us("min_ms"),
            warning_us: us("warning_ms"),
            error_us: us("error_ms"),
            pending: HashMap::new(),
            groups: BTreeMap::new(),
            families: NameMemo::default(),
        }
    }

    fn call(&mut self, key: GroupKey, e: &Event, start: Ts, us: u64, ev: Vec<Evidence>) {
        let g = self.groups.entry(key).or_default();
        g.calls += 1;
        g.chart.push(e.ts, us as f64);
        if g.tid.is_none() {
            g.tid = e.tid;
            g.ident = e.ident.as_deref().map(String::from);
        }
        if us < self.min_us {
            return;
        }
        g.slow += 1;
        if g.first.is_none_or(|f| start < f) {
            g.first = Some(start);
        }
        if g.last.is_none_or(|l| e.ts > l) {
            g.last = Some(e.ts);
        }
        if g.first_slow.is_empty() {
            g.first_slow = ev.clone();
        }
        if us > g.max_us {
            g.max_us = us;
            g.worst = ev;
        }
    }
}

impl Pass for TlsHandshakeSlow {
    fn kinds(&self) -> crate::passes::Kinds {
        crate::passes::Kinds::of(&[Kind::Text, Kind::Exit, Kind::ErrorExit, Kind::SmfRecord])
    }

    fn observe(&mut self, e: &Event) {
        match e.kind {
            Kind::Text => {
                let Some((func, output)) = patterns::gsk_text(&e.text) else {
                    return;
                };
                if functions::family(func) != Some(Family::Gskit) {
                    return;
                }
                let Some(tk) = thread_key(e) else {
                    return;
                };
                let pk = (tk, func.to_string());
                if !output {
                    if self.pending.len() >= MAX_PENDING {
                        self.pending.clear();
                    }
                    self.pending.insert(pk, (e.ts, Evidence::from_event(e)));
                } else if let Some((start, input_ev)) = self.pending.remove(&pk) {
                    let us = (e.ts - start).num_microseconds().unwrap_or(0).max(0) as u64;
                    let key = GroupKey::Trace(
                        e.origin.path.clone(),
                        e.pid.unwrap_or(0),
                        func.to_string(),
                    );
                    self.call(key, e, start, us, vec![input_ev, Evidence::from_event(e)]);
                }
            }
            Kind::Exit | Kind::ErrorExit => {
                let (Some(func), Some(us)) = (&e.function, e.elapsed_us) else {
                    return;
                };
                if self.families.get(func, functions::family) != Some(Family::Gskit) {
                    return;
                }
                let start = e.ts - chrono::Duration::microseconds(us as i64);
                let key =
                    GroupKey::Trace(e.origin.path.clone(), e.pid.unwrap_or(0), func.to_string());
                self.call(key, e, start, us, vec![Evidence::from_event(e)]);
            }
            Kind::SmfRecord if e.get(Key::Record) == Some("QCTSSL") => {
                let Some(us) = e
                    .get(Key::TlsMaxUs)
                    .and_then(|v| v.trim().parse::<f64>().ok())
                else {
                    return;
                };
                let us = us.max(0.0).round() as u64;
                let qm = e.get(Key::Qmgr).unwrap_or("").trim().to_string();
                let start = e.ts - chrono::Duration::microseconds(us as i64);
                self.call(
                    GroupKey::Smf(e.origin.path.clone(), qm),
                    e,
                    start,
                    us,
                    vec![Evidence::from_event(e)],
                );
            }
            _ => {}
        }
    }

    fn finish(&mut self, _inputs: &[FileInfo]) -> Vec<Finding> {
        let mut out = Vec::new();
        for (key, mut g) in std::mem::take(&mut self.groups) {
            if g.slow == 0 {
                continue;
            }
            let max_ms = g.max_us as f64 / 1000.0;
            let function = match &key {
                GroupKey::Trace(_, _, f) => Some(f.as_str()),
                GroupKey::Smf(..) => None,
            };
            let chart = self.chart(&key, std::mem::take(&mut g.chart));
            let severity = self.severity(g.max_us);
            let reason = self.severity_reason(severity, max_ms);
            let f = FindingBuilder::new(&RULE, severity, title(&key, &g, max_ms))
                .span(g.first, g.last, g.slow)
                .with(|f| f.severity_reason = reason)
                .with(|f| subject(f, &key, &g))
                .metrics([
                    ("function", Metric::opt_str(function)),
                    ("max_ms", Metric::num(max_ms)),
                    ("calls", Metric::int(g.calls)),
                    ("slow_calls", Metric::int(g.slow)),
                ])
                .chart(Some(chart))
                .evidence(g.first_slow.into_iter().chain(g.worst))
                .advice(advice(function, max_ms));
            out.push(f.build());
        }
        out
    }
}

impl TlsHandshakeSlow {
    /// `error: the longest call, 2.1 s, reached error_ms (2 s)`.
    fn severity_reason(&self, s: Severity, max_ms: f64) -> String {
        let ms = |us: u64| human_ms(us as f64 / 1000.0);
        let longest = human_ms(max_ms);
        match s {
            Severity::Error => format!(
                "error: the longest call, {longest}, reached error_ms ({})",
                ms(self.error_us)
            ),
            Severity::Warning => format!(
                "warning: the longest call, {longest}, reached warning_ms ({}) but not error_ms ({})",
                ms(self.warning_us),
                ms(self.error_us)
            ),
            Severity::Info => format!(
                "info, not warning: the longest call, {longest}, stayed under warning_ms ({})",
                ms(self.warning_us)
            ),
        }
    }

    fn severity(&self, max_us: u64) -> Severity {
        if max_us >= self.error_us {
            Severity::Error
        } else if max_us >= self.warning_us {
            Severity::Warning
        } else {
            Severity::Info
        }
    }

    /// Every call's duration, with the slow threshold drawn.
    fn chart(&self, key: &GroupKey, points: SeriesBuf) -> Chart {
        Chart {
            title: "TLS call durations".to_string(),
            y_label: "duration".to_string(),
            unit: Unit::Micros,
            style: Style::Points,
            series: vec![Series {
                name: match key {
                    GroupKey::Trace(_, pid, func) => format!("{func}, pid {pid}"),
                    GroupKey::Smf(_, qm) if !qm.is_empty() => format!("QCTSSL {qm}"),
                    GroupKey::Smf(..) => "QCTSSL".to_string(),
                },
                points: points.into_points(),
            }],
            refs: vec![RefLine {
                value: self.min_us as f64,
                label: format!("slow from {}", human_ms(self.min_us as f64 / 1000.0)),
            }],
            fit: None,
            bucket_s: 0,
        }
    }
}

fn title(key: &GroupKey, g: &Group, max_ms: f64) -> String {
    let what = match key {
        GroupKey::Trace(_, _, f) => f.as_str(),
        GroupKey::Smf(..) => "Longest SSL task request (QCTSSL)",
    };
    counted_title(
        format!("{what} took {}", human_ms(max_ms)),
        g.slow,
        "slow calls",
    )
}

fn subject(f: &mut Finding, key: &GroupKey, g: &Group) {
    match key {
        GroupKey::Trace(_, pid, func) => {
            f.subject.pid = Some(*pid);
            f.subject.tid = g.tid;
            f.subject.ident = g.ident.clone();
            f.key = func.clone();
        }
        GroupKey::Smf(_, qm) => {
            if !qm.is_empty() {
                f.subject.qmgr = Some(qm.clone());
            }
            f.key = "QCTSSL".to_string();
        }
    }
}

fn advice(function: Option<&str>, max_ms: f64) -> String {
    match function {
        Some("gsk_environment_init") | Some("gsk_environment_open") => format!(
            "GSKit spent {} setting up its environment (opening and reading the key \
             repository and its stash file, loading the crypto provider, seeding its random \
             number generator) before any byte of the handshake was sent. Every channel \
             process that starts TLS pays this, so channel starts and client connects are \
             delayed by it. Check where the key repository lives (slow or network file \
             systems), its size (thousands of certificates), and the system's entropy \
             source; compare with the same call on a healthy system. IBM support will want \
             this trace and the GSKit level (`GSKit version check` line).",
            human_ms(max_ms)
        ),
        Some(_) => format!(
            "The TLS handshake call took {}. Common causes: certificate revocation checks \
             (OCSP responders or CRL servers named in AuthInfo objects or in the \
             certificates, unreachable through a firewall: see `OCSPCheckExtensions` and \
             `SSLHTTPProxyName` in the SSL stanza), a slow or lossy network round trip, or \
             a peer short of CPU. The other end of the channel waits as long.",
            human_ms(max_ms)
        ),
        None => format!(
            "The channel initiator's SSL server tasks had a request taking {} in this \
             interval. Check the number of SSL tasks (SSLTASKS) against the channel start \
             rate, CPU and crypto hardware availability, and revocation checks; TLS \
             channels that connect and disconnect often multiply this cost.",
            human_ms(max_ms)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::passes::testutil::*;

    fn io(line: u64, tod: &str, tid: u32, f: &str, output: bool) -> Event {
        let mut e = trace(
            "s.FMT",
            line,
            tod,
            10289324,
            tid,
            Kind::Text,
            &format!(
                "{f}: {}: gsk_env_handle=0x1100938b0",
                if output { "output" } else { "input" }
            ),
        );
        e.ident = Some("RSESS:000001".into());
        if output && line == 2 {
            e.set(Key::Flag, "*");
        }
        e
    }

    #[test]
    fn seed_004_eighteen_seconds() {
        let ev = vec![
            io(1, "12:19:44.621675", 1, "gsk_environment_init", false),
            io(2, "12:20:02.527643", 1, "gsk_environment_init", true),
        ];
        let out = run(&RULE, &[], &ev);
        assert_eq!(out.len(), 1);
        let f = &out[0];
        assert_eq!(f.severity, Severity::Error);
        assert_eq!(
            metric(f, "function"),
            Metric::Str("gsk_environment_init".into())
        );
        assert_eq!(metric(f, "max_ms"), Metric::num(17905.968));
        let c = f.chart.as_ref().unwrap();
        assert_eq!(c.series[0].points.len(), 1);
        assert_eq!(c.series[0].points[0].1, 17_905_968.0);
        assert_eq!(metric(f, "calls"), Metric::Int(1));
        assert_eq!(f.title, "gsk_environment_init took 17.9 s");
        assert_eq!(f.evidence.len(), 2);
        assert!(
            f.evidence[1].text.starts_with(
                "*12:20:02.527643 10289324.1 RSESS:000001 gsk_environment_init: output"
            )
        );
    }

    #[test]
    fn forty_ms_handshake_is_not_a_finding() {
        let ev = vec![
            io(1, "12:19:44.100000", 1, "gsk_secure_soc_init", false),
            io(3, "12:19:44.140000", 1, "gsk_secure_soc_init", true),
        ];
        assert!(run(&RULE, &[], &ev).is_empty());
    }

    #[test]
    fn grading_and_other_threads_do_not_pair() {
        let ev = vec![
            io(1, "12:19:44.000000", 1, "gsk_secure_soc_init", false),
            // Output on another thread: not this call's end.
            io(2, "12:19:45.000000", 2, "gsk_secure_soc_init", true),
            io(3, "12:19:48.500000", 1, "gsk_secure_soc_init", true),
            // Not a handshake call.
            io(4, "12:19:49.000000", 1, "gsk_secure_soc_read", false),
            io(5, "12:20:49.000000", 1, "gsk_secure_soc_read", true),
        ];
        let out = run(&RULE, &[], &ev);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].severity, Severity::Warning);
        assert_eq!(metric(&out[0], "max_ms"), Metric::num(4500.0));
    }

    #[test]
    fn entry_exit_form_and_smf() {
        let mut x = exit(
            "c.FMT",
            9,
            "10:00:02.000000",
            5,
            1,
            "gsk_secure_soc_init",
            "OK",
            1_500_000,
        );
        x.ident = None;
        let s = smf(
            "SMF-QCTSSL.csv",
            2,
            "2026-05-21T16:45:18+00:00",
            &[
                ("record", "QCTSSL"),
                ("qmgr", "MQ1A"),
                ("tls_max_us", "12500000"),
            ],
        );
        let out = run(&RULE, &[], &[x, s]);
        assert_eq!(out.len(), 2);
        assert_eq!(out[0].severity, Severity::Info);
        assert_eq!(metric(&out[0], "max_ms"), Metric::num(1500.0));
        assert_eq!(out[1].severity, Severity::Error);
        assert_eq!(metric(&out[1], "function"), Metric::Null);
        assert_eq!(out[1].subject.qmgr.as_deref(), Some("MQ1A"));
    }
}
