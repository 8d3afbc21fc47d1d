//! Analysis passes: one module per rule. Each pass sees the time-ordered
//! event stream once, keeps bounded state (per thread, connection, queue;
//! never the whole stream) and returns its findings at the end. Adding a
//! rule is one new module and one line in `RULES`.

pub mod access_refused;
pub mod builder;
pub mod catalog;
pub mod channel_error;
pub mod connection_churn;
pub mod fdc;
pub mod mqi_failures;
pub mod parts_index;
pub mod patterns;
pub mod qtime_growth;
pub mod resource_limit;
pub mod slow_dns;
pub mod socket_buffer_size;
pub mod stats;
pub mod stories;
pub mod tcp_send_stall;
pub mod tls_error;
pub mod tls_handshake_slow;
pub mod unreadable_input;

use crate::event::Event;
use crate::fileinfo::FileInfo;
use crate::findings::Finding;
use crate::problem::Severity;
use std::collections::BTreeMap;
use std::sync::Arc;

/// One analysis pass.
pub trait Pass: std::any::Any {
    /// Take `other`'s rules in, when this pass can serve them with the
    /// same work (`channel-error` and `tls-error` join records into the
    /// same stories); `other` is then not run. `false`: not taken.
    fn absorb(&mut self, _other: &mut dyn Pass) -> bool {
        false
    }
    /// Called for every event, in time order.
    fn observe(&mut self, e: &Event);
    /// Called once at the end with every input's facts.
    fn finish(&mut self, inputs: &[FileInfo]) -> Vec<Finding>;
    /// The run counts MQI calls once, in its `calls` table (per process),
    /// and offers it to the passes before anything is read: a pass that
    /// reads the table takes it (true), stops counting calls itself, and
    /// is given the table's rows by `calls_rows` before `finish`.
    fn takes_calls_table(&mut self) -> bool {
        false
    }
    /// The run's `calls` rows (per process, before any redaction).
    fn calls_rows(&mut self, _rows: &[crate::calls::Row]) {}
}

/// The largest value any threshold accepts unless it says less: thresholds
/// become durations added to event times and counts, and past this they
/// overflow the calendar (`--set slow-dns.correlate_s=1e15` panicked).
/// A billion seconds is some 31 years, a billion milliseconds 11 days.
pub const THRESHOLD_MAX: f64 = 1e9;

/// One tunable threshold of a rule.
#[derive(Debug, Clone, Copy)]
pub struct Threshold {
    pub key: &'static str,
    pub default: f64,
    pub unit: &'static str,
    pub doc: &'static str,
    /// Smallest accepted value (inclusive).
    pub min: f64,
    /// Largest accepted value (inclusive).
    pub max: f64,
}

impl Threshold {
    pub const fn new(
        key: &'static str,
        default: f64,
        unit: &'static str,
        doc: &'static str,
    ) -> Self {
        Threshold {
            key,
            default,
            unit,
            doc,
            min: 0.0,
            max: THRESHOLD_MAX,
        }
    }

    pub const fn range(mut self, min: f64, max: f64) -> Self {
        self.min = min;
        self.max = max;
        self
    }
}

/// A rule's documentation and constructor: what `mqdiag rules` prints.
pub struct RuleInfo {
    pub id: &'static str,
    pub severity: Severity,
    /// One line: what it flags.
    pub summary: &'static str,
    /// Exactly what triggers it.
    pub trigger: &'static str,
    pub thresholds: &'static [Threshold],
    /// The remedy in general terms (findings add the specifics).
    pub advice: &'static str,
    /// Metrics every finding of the rule carries, by name (the contract's
    /// required metrics for its rules; findings may carry more). Renaming
    /// or dropping one breaks the contract; the end-to-end tests check
    /// each finding of a run over the fixtures has its rule's.
    pub metrics: &'static [&'static str],
    /// Trace function families whose entries and exits the pass reads.
    pub functions: &'static [crate::catalog::functions::Family],
    /// Literal text a trace text line must contain for the pass to read it.
    /// (Headers, log records and SMF rows always reach every pass.)
    pub keywords: &'static [&'static str],
    /// Whether the pass reads MQI calls in traces: every verb's entry and
    /// exit and the `CompCode`/`Reason` lines (the run's `calls` table is
    /// counted only for a pass that takes it, see `Pass::takes_calls_table`).
    pub mqi_calls: bool,
    /// Attributes the pass reads from SMF rows, by name: derived ones
    /// (`record`, `qmgr`, ...) and CSV columns as written. In `analyze`
    /// SMF rows carry only the columns some pass (or the redactor) names.
    pub smf_columns: &'static [&'static str],
    pub make: fn(&Settings) -> Box<dyn Pass>,
    /// What the HTML report draws for the rule's findings.
    pub chart: ChartKind,
    /// How the rule's findings are ordered among themselves.
    pub order: Order,
}

/// What the HTML report draws for a rule's findings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChartKind {
    /// The chart the finding carries, if any.
    Own,
    /// Each finding is a few samples (one look-up, one call): the first
    /// finding of the rule shows every finding's series on one chart, so
    /// the durations can be compared on one clock; the others show none.
    Merged,
    /// The finding's own chart; the first finding of the rule without one
    /// shows the whole case's errors of this catalogue family over time.
    FamilyErrors(crate::catalog::Family),
}

/// How a rule's findings are ordered among themselves (after severity and
/// rule order).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    /// Earliest first.
    FirstSeen,
    /// Latest last occurrence first, then the most frequent: what still
    /// happens matters more than what stopped.
    RecentFirst,
}

fn no_constructor(_: &Settings) -> Box<dyn Pass> {
    panic!("a rule's RuleInfo must set `make`")
}

impl RuleInfo {
    /// The defaults a rule's `RuleInfo` starts from (`..RuleInfo::BASE`):
    /// fields added later get their default here, so existing rules keep
    /// compiling. A rule always sets `id`, `severity`, the texts and `make`
    /// (the registry test checks).
    pub const BASE: RuleInfo = RuleInfo {
        id: "",
        severity: Severity::Warning,
        summary: "",
        trigger: "",
        thresholds: &[],
        advice: "",
        metrics: &[],
        functions: &[],
        keywords: &[],
        mqi_calls: false,
        smf_columns: &[],
        make: no_constructor,
        chart: ChartKind::Own,
        order: Order::FirstSeen,
    };
}

impl RuleInfo {
    /// `trigger` as `mqdiag rules` and the reports print it: the message
    /// ids a rule reacts to come from the catalogue, written in the text as
    /// `{catalogue-ids:<family>}` (every id of the family a rule reports)
    /// or `{catalogue-warnings:<family>}` (those it reports as warnings).
    pub fn trigger_text(&self) -> String {
        use crate::catalog::{Family, reported_ids, warning_ids};
        let mut t = self.trigger.to_string();
        for f in [Family::Channel, Family::Tls] {
            let ids = format!("{{catalogue-ids:{}}}", f.as_str());
            if t.contains(&ids) {
                t = t.replace(&ids, &reported_ids(f));
            }
            let warn = format!("{{catalogue-warnings:{}}}", f.as_str());
            if t.contains(&warn) {
                t = t.replace(&warn, &warning_ids(f));
            }
        }
        t
    }
}

/// Every rule, in report order.
pub static RULES: &[&RuleInfo] = &[
    &slow_dns::RULE,
    &tcp_send_stall::RULE,
    &socket_buffer_size::RULE,
    &qtime_growth::RULE,
    &tls_handshake_slow::RULE,
    &connection_churn::RULE,
    &channel_error::RULE,
    &tls_error::RULE,
    &mqi_failures::RULE,
    &access_refused::RULE,
    &resource_limit::RULE,
    &fdc::RULE,
    &unreadable_input::RULE,
];

pub fn rule(id: &str) -> Option<&'static RuleInfo> {
    RULES.iter().copied().find(|r| r.id == id)
}

/// The thresholds in force for one rule: defaults with `--set` overrides.
#[derive(Debug, Clone)]
pub struct Settings {
    rule: &'static str,
    values: BTreeMap<&'static str, f64>,
}

impl Settings {
    pub fn defaults(info: &RuleInfo) -> Settings {
        Settings {
            rule: info.id,
            values: info.thresholds.iter().map(|t| (t.key, t.default)).collect(),
        }
    }

    /// A threshold's value. Asking for an undeclared key is a bug in the
    /// pass (the unit tests construct every pass, so it cannot ship).
    pub fn get(&self, key: &str) -> f64 {
        match self.values.get(key) {
            Some(v) => *v,
            None => panic!("rule {} has no threshold {key}", self.rule),
        }
    }

    pub fn set(&mut self, key: &'static str, v: f64) {
        self.values.insert(key, v);
    }
}

/// Which rules run and with what thresholds.
#[derive(Clone)]
pub struct Plan {
    pub rules: Vec<(&'static RuleInfo, Settings)>,
}

impl Plan {
    /// Validate `--only`, `--skip` and `--set`; errors name the bad part
    /// and what would have been accepted.
    pub fn new(only: &[String], skip: &[String], sets: &[String]) -> Result<Plan, String> {
        let known = || RULES.iter().map(|r| r.id).collect::<Vec<_>>().join(", ");
        for id in only.iter().chain(skip) {
            if rule(id.trim()).is_none() {
                return Err(format!("unknown rule `{id}`; the rules are: {}", known()));
            }
        }
        let mut settings: BTreeMap<&'static str, Settings> = RULES
            .iter()
            .map(|r| (r.id, Settings::defaults(r)))
            .collect();
        for s in sets {
            let (lhs, value) = s
                .split_once('=')
                .ok_or_else(|| format!("--set `{s}`: expected RULE.KEY=VALUE"))?;
            let (rid, key) = lhs
                .trim()
                .split_once('.')
                .ok_or_else(|| format!("--set `{s}`: expected RULE.KEY=VALUE"))?;
            let info = rule(rid).ok_or_else(|| {
                format!(
                    "--set `{s}`: unknown rule `{rid}`; the rules are: {}",
                    known()
                )
            })?;
            let t = info.thresholds.iter().find(|t| t.key == key).ok_or_else(|| {
                let keys: Vec<&str> = info.thresholds.iter().map(|t| t.key).collect();
                if keys.is_empty() {
                    format!("--set `{s}`: rule `{rid}` has no thresholds")
                } else {
                    format!(
                        "--set `{s}`: rule `{rid}` has no threshold `{key}`; its thresholds are: {}",
                        keys.join(", ")
                    )
                }
            })?;
            let v: f64 = value
                .trim()
                .parse()
                .ok()
                .filter(|v: &f64| v.is_finite())
                .ok_or_else(|| format!("--set `{s}`: `{value}` is not a number"))?;
            if v < t.min || v > t.max {
                let range = format!("between {} and {}", t.min, t.max);
                return Err(format!("--set `{s}`: {rid}.{key} must be {range}"));
            }
            settings
                .get_mut(info.id)
                .expect("every rule has settings")
                .set(t.key, v);
        }
        let rules = RULES
            .iter()
            .filter(|r| only.is_empty() || only.iter().any(|o| o.trim() == r.id))
            .filter(|r| !skip.iter().any(|s| s.trim() == r.id))
            .map(|r| (*r, settings.remove(r.id).expect("settings")))
            .collect();
        Ok(Plan { rules })
    }

    pub fn ids(&self) -> Vec<&'static str> {
        self.rules.iter().map(|(r, _)| r.id).collect()
    }

    /// What the readers must deliver for these rules: the union of their
    /// trace functions and text keywords. Trace lines no rule reads are
    /// never turned into events.
    pub fn interest(&self) -> crate::source::Interest {
        let mut functions: Vec<&str> = Vec::new();
        let mut keywords: Vec<&str> = Vec::new();
        let mut suffixes: Vec<&str> = Vec::new();
        for (r, _) in &self.rules {
            for fam in r.functions {
                for s in crate::catalog::functions::suffixes_of(*fam) {
                    if !suffixes.contains(&s) {
                        suffixes.push(s);
                    }
                }
                for n in crate::catalog::functions::names_of(*fam) {
                    if !functions.contains(&n) {
                        functions.push(n);
                    }
                }
            }
            for k in r.keywords {
                if !keywords.contains(k) {
                    keywords.push(k);
                }
            }
        }
        // MQI calls and their stated reasons, when a rule that runs reads
        // them (the report's `calls` table is counted only then). The
        // verbs' names are found by what they all contain, not one by one.
        let calls = self.rules.iter().any(|(r, _)| r.mqi_calls);
        if calls {
            for k in crate::calls::KEYWORDS {
                if !keywords.contains(k) {
                    keywords.push(k);
                }
            }
        }
        let mut interest = crate::source::Interest::new(&functions, &[], &keywords)
            .with_function_suffixes(&suffixes);
        if calls {
            interest =
                interest.with_function_anchor(crate::calls::ANCHOR, crate::calls::traced_name);
        }
        interest
            .with_smf_columns(
                self.rules
                    .iter()
                    .flat_map(|(r, _)| r.smf_columns.iter().copied()),
            )
            .with_smf_columns(crate::event::NAME_ATTRS.iter().copied())
    }

    pub fn passes(&self) -> Vec<Box<dyn Pass>> {
        let mut out: Vec<Box<dyn Pass>> = Vec::new();
        for (r, s) in &self.rules {
            let mut p = (r.make)(s);
            if !out.iter_mut().any(|o| o.absorb(p.as_mut())) {
                out.push(p);
            }
        }
        out
    }
}

impl std::fmt::Debug for Plan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.ids()).finish()
    }
}

/// Per-thread state key: the file (so two traces of one PID stay apart),
/// PID and TID.
pub type ThreadKey = (Arc<str>, u32, u32);

pub fn thread_key(e: &Event) -> Option<ThreadKey> {
    Some((e.origin.path.clone(), e.pid?, e.tid?))
}

/// A look-up key of several names in `buf`: each part after its length
/// (`3:QM17:APP.SVR`), so no two lists of parts share a key whatever bytes
/// the names hold. Built into a reused buffer: a group that exists is
/// found without allocating.
pub fn parts_key(buf: &mut String, parts: &[&str]) {
    buf.clear();
    let mut n = itoa::Buffer::new();
    for p in parts {
        buf.push_str(n.format(p.len()));
        buf.push(':');
        buf.push_str(p);
    }
}

/// `v` in the order of its keys (equal keys in their order in `v`), each
/// pair moved twice: the values are groups and rows of a few hundred
/// bytes, and sorting by moving them was most of a pass's `finish` (which
/// runs after all reading, on one core).
pub fn by_key<K: Ord, V>(v: Vec<(K, V)>) -> Vec<(K, V)> {
    let mut order: Vec<usize> = (0..v.len()).collect();
    order.sort_by(|&a, &b| v[a].0.cmp(&v[b].0));
    let mut slots: Vec<Option<(K, V)>> = v.into_iter().map(Some).collect();
    order.into_iter().filter_map(|i| slots[i].take()).collect()
}

/// Milliseconds between two instants (never negative).
pub fn ms_between(a: &crate::event::Ts, b: &crate::event::Ts) -> f64 {
    let us = (*b - *a).num_microseconds().unwrap_or(i64::MAX).max(0);
    us as f64 / 1000.0
}

/// Build synthetic events for tests.
#[cfg(test)]
pub mod testutil {
    use crate::event::{Event, Format, Kind, Origin, Ts};
    use crate::fileinfo::FileInfo;
    use crate::findings::Finding;
    use chrono::DateTime;
    use std::sync::Arc;

    pub fn ts(s: &str) -> Ts {
        DateTime::parse_from_rfc3339(s).expect("test timestamp")
    }

    pub fn origin(path: &str, format: Format) -> Arc<Origin> {
        Arc::new(Origin {
            path: Arc::from(path),
            format,
        })
    }

    /// A trace event on `path` at `2012-05-04T<tod>-04:00`.
    pub fn trace(
        path: &str,
        line: u64,
        tod: &str,
        pid: u32,
        tid: u32,
        kind: Kind,
        text: &str,
    ) -> Event {
        let mut e = Event::new(
            ts(&format!("2012-05-04T{tod}-04:00")),
            origin(path, crate::formats::trace::FORMAT),
            line,
            kind,
            text.to_string(),
        );
        e.pid = Some(pid);
        e.tid = Some(tid);
        e
    }

    pub fn entry(path: &str, line: u64, tod: &str, pid: u32, tid: u32, f: &str) -> Event {
        let mut e = trace(path, line, tod, pid, tid, Kind::Entry, &format!("-{{  {f}"));
        e.function = Some(f.into());
        e
    }

    #[allow(clippy::too_many_arguments)]
    pub fn exit(
        path: &str,
        line: u64,
        tod: &str,
        pid: u32,
        tid: u32,
        f: &str,
        rc: &str,
        elapsed_us: u64,
    ) -> Event {
        let error = rc != "OK";
        let text = if error {
            format!("-}}! {f} rc={rc}")
        } else {
            format!("-}}  {f} rc={rc}")
        };
        let mut e = trace(
            path,
            line,
            tod,
            pid,
            tid,
            if error { Kind::ErrorExit } else { Kind::Exit },
            &text,
        );
        e.function = Some(f.into());
        e.rc = Some(rc.to_string());
        e.elapsed_us = Some(elapsed_us);
        e
    }

    /// An error-log record with attributes.
    pub fn log(
        path: &str,
        line: u64,
        at: &str,
        text: &str,
        attrs: &[(&'static str, &str)],
    ) -> Event {
        let mut e = Event::new(
            ts(at),
            origin(path, crate::formats::errlog_text::FORMAT),
            line,
            Kind::LogRecord,
            text.to_string(),
        );
        for (k, v) in attrs {
            e.set_attr(k, *v);
        }
        e
    }

    /// An SMF row with attributes.
    pub fn smf(path: &str, line: u64, at: &str, attrs: &[(&'static str, &str)]) -> Event {
        let mut e = Event::new(
            ts(at),
            origin(path, crate::formats::smf::FORMAT),
            line,
            Kind::SmfRecord,
            format!("row {line}"),
        );
        for (k, v) in attrs {
            e.set_attr(k, *v);
        }
        e
    }

    /// Run one pass over events with default thresholds (plus overrides).
    pub fn run(
        info: &super::RuleInfo,
        sets: &[(&'static str, f64)],
        events: &[Event],
    ) -> Vec<Finding> {
        run_with(info, sets, events, &[])
    }

    pub fn run_with(
        info: &super::RuleInfo,
        sets: &[(&'static str, f64)],
        events: &[Event],
        inputs: &[FileInfo],
    ) -> Vec<Finding> {
        let mut s = super::Settings::defaults(info);
        for (k, v) in sets {
            s.set(k, *v);
        }
        let mut p = (info.make)(&s);
        for e in events {
            p.observe(e);
        }
        let mut out = p.finish(inputs);
        for f in &mut out {
            f.seal();
        }
        out
    }

    pub fn metric(f: &Finding, name: &str) -> crate::findings::Metric {
        f.metrics
            .get(name)
            .cloned()
            .unwrap_or_else(|| panic!("metric {name} missing in {f:?}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The same order as a stable sort by key, equal keys included.
    #[test]
    fn by_key_is_a_stable_sort_by_key() {
        let mut rng = crate::testrng::Rng::new(0x0b1e_57ab);
        for n in [0, 1, 2, 7, 100, 3000] {
            let v: Vec<(usize, String)> = (0..n)
                .map(|i| (rng.below(n / 3 + 1), format!("v{i}")))
                .collect();
            let mut want = v.clone();
            want.sort_by_key(|a| a.0);
            assert_eq!(by_key(v), want);
        }
    }

    #[test]
    fn every_rule_constructs_and_is_documented() {
        let mut ids = std::collections::HashSet::new();
        for r in RULES {
            assert!(ids.insert(r.id), "duplicate rule {}", r.id);
            assert!(!r.summary.is_empty() && !r.trigger.is_empty() && !r.advice.is_empty());
            // Every finding names what it measured: a rule states which.
            assert!(!r.metrics.is_empty(), "{} declares no metrics", r.id);
            for t in r.thresholds {
                assert!(
                    t.default >= t.min && t.default <= t.max,
                    "{}.{}",
                    r.id,
                    t.key
                );
                assert!(!t.doc.is_empty());
            }
            // Constructing and finishing with no events must not panic
            // (this also checks every key a pass reads is declared).
            let mut p = (r.make)(&Settings::defaults(r));
            let out = p.finish(&[]);
            assert!(out.is_empty(), "{} fired on nothing", r.id);
        }
    }

    #[test]
    fn set_parsing() {
        let p = Plan::new(&[], &[], &["tcp-send-stall.min_wait_ms=100".into()]).unwrap();
        let (_, s) = p
            .rules
            .iter()
            .find(|(r, _)| r.id == "tcp-send-stall")
            .unwrap();
        assert_eq!(s.get("min_wait_ms"), 100.0);
        let err = |v: &str| Plan::new(&[], &[], &[v.to_string()]).unwrap_err();
        assert!(err("nosuch.x=1").contains("unknown rule `nosuch`"));
        assert!(err("tcp-send-stall.nokey=1").contains("has no threshold `nokey`"));
        assert!(err("tcp-send-stall.nokey=1").contains("min_wait_ms"));
        assert!(err("tcp-send-stall.min_wait_ms=abc").contains("not a number"));
        assert!(err("tcp-send-stall.min_wait_ms=-5").contains("must be between 0 and 1000000000"));
        // Past the bound a threshold would overflow the calendar when added
        // to an event time.
        assert!(err("slow-dns.correlate_s=1e15").contains("between 0 and 1000000000"));
        assert!(Plan::new(&[], &[], &["slow-dns.correlate_s=1e9".to_string()]).is_ok());
        assert!(err("tcp-send-stall.min_wait_ms").contains("RULE.KEY=VALUE"));
        assert!(err("nodot=1").contains("RULE.KEY=VALUE"));
    }

    #[test]
    fn only_and_skip() {
        let p = Plan::new(&["slow-dns".into(), "tls-error".into()], &[], &[]).unwrap();
        let ids: Vec<&str> = p.rules.iter().map(|(r, _)| r.id).collect();
        assert_eq!(ids, vec!["slow-dns", "tls-error"]);
        let p = Plan::new(&[], &["unreadable-input".into()], &[]).unwrap();
        assert_eq!(p.rules.len(), RULES.len() - 1);
        assert!(
            Plan::new(&["bogus".into()], &[], &[])
                .unwrap_err()
                .contains("unknown rule")
        );
    }
}

#[cfg(test)]
mod interest_tests {

    /// Every rule's names still fit the SIMD search (an automaton made
    /// `analyze` several times slower on 1 GB); the MQI calls are found
    /// by their anchor beside it.
    #[test]
    fn analyze_interest_stays_simd() {
        let i = super::Plan::new(&[], &[], &[]).unwrap().interest();
        assert!(i.packed_search(), "{i:?}");
        // Inner names still find the longer ones.
        assert!(i.candidate(b" 10:00:00.000000 1.1 : -{  trmzstMQCONNX"));
        assert!(i.candidate(b" 10:00:00.000000 1.1 : -{  zstMQGET"));
        assert!(!i.candidate(b" 10:00:00.000000 1.1 : -{  xcsGetMem"));
        assert!(i.function("zstMQGET") && i.function("MQPUT1"));
    }
}
