//! What a rule is: its `RuleInfo` (documentation, thresholds, what it
//! reads, its constructor) and the `Pass` it makes; a `Hook` for work
//! across every rule's findings. The registry of rules is `super::RULES`.

use super::Plan;
use super::plan::Settings;
use mqdiag_model::event::{Event, Kind};
use mqdiag_model::fileinfo::FileInfo;
use mqdiag_model::findings::Finding;
use mqdiag_model::problem::Severity;

/// One analysis pass.
pub(crate) trait Pass: std::any::Any {
    /// Take `other`'s rules in, when this pass can serve them with the
    /// same work (`channel-error` and `tls-error` join records into the
    /// same stories); `other` is then not run. `false`: not taken.
    fn absorb(&mut self, _other: &mut dyn Pass) -> bool {
        false
    }
    /// The kinds of event `observe` reads: the run shows it no others.
    fn kinds(&self) -> Kinds {
        Kinds::ALL
    }
    /// Called for every event of its `kinds`, in time order.
    fn observe(&mut self, e: &Event);
    /// Whether `observe` also takes records without a time
    /// (`Event::is_undated`, after every dated event). Passes measure
    /// time (bursts, rates, durations, fits), so none is shown them unless
    /// it says it keeps them apart from its dated stories.
    fn reads_undated(&self) -> bool {
        false
    }
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

/// A set of event kinds: what a pass or hook reads, so that the run calls
/// it only for those and a case without (say) event messages pays nothing
/// for the rules that read only them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Kinds(u32);

impl Kinds {
    pub(crate) const ALL: Kinds = Kinds(u32::MAX);

    pub(crate) const fn of(kinds: &[Kind]) -> Kinds {
        let mut bits = 0;
        let mut i = 0;
        while i < kinds.len() {
            bits |= 1 << kinds[i] as u32;
            i += 1;
        }
        Kinds(bits)
    }

    /// For each kind (by its number), the indexes of `sets` that read it.
    pub(crate) fn routes(sets: impl Iterator<Item = Kinds>) -> Vec<Vec<usize>> {
        let mut routes = vec![Vec::new(); 32];
        for (i, set) in sets.enumerate() {
            for (k, r) in routes.iter_mut().enumerate() {
                if set.0 & (1 << k) != 0 {
                    r.push(i);
                }
            }
        }
        routes
    }
}

/// Makes a rule's hook for a run's plan.
pub(crate) type MakeHook = fn(&Plan) -> Box<dyn Hook>;

/// Work a rule does across every rule's findings (the `fdc` rule cites
/// the FDCs written near another finding in it). A rule declares it in
/// `RuleInfo::hook`; it runs whether or not the rule itself runs, so
/// `--only`/`--skip` do not change what the other findings cite.
pub(crate) trait Hook {
    /// The kinds of event `observe` reads: the run shows it no others.
    fn kinds(&self) -> Kinds {
        Kinds::ALL
    }
    /// Called for every event of its `kinds` in the window, in time order.
    fn observe(&mut self, e: &Event);
    /// `--redact`: replace names in what it kept (before `sealed`).
    fn redact(&mut self, _r: &mqdiag_model::redact::Redactor) {}
    /// Called once with every finding of the run, sealed (fingerprints
    /// set: what a hook adds does not change them), before ordering.
    fn sealed(&mut self, findings: &mut [Finding]);
}

/// The largest value any threshold accepts unless it says less: thresholds
/// become durations added to event times and counts, and past this they
/// overflow the calendar (`--set slow-dns.correlate_s=1e15` panicked).
/// A billion seconds is some 31 years, a billion milliseconds 11 days.
pub(crate) const THRESHOLD_MAX: f64 = 1e9;

/// One tunable threshold of a rule.
#[derive(Debug, Clone, Copy)]
pub struct Threshold {
    pub key: &'static str,
    pub default: f64,
    pub unit: &'static str,
    pub doc: &'static str,
    /// Smallest accepted value (inclusive).
    pub(crate) min: f64,
    /// Largest accepted value (inclusive).
    pub(crate) max: f64,
}

impl Threshold {
    pub(crate) const fn new(
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

    pub(crate) const fn range(mut self, min: f64, max: f64) -> Self {
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
    pub(crate) trigger: &'static str,
    pub thresholds: &'static [Threshold],
    /// The remedy in general terms (findings add the specifics).
    pub advice: &'static str,
    /// Metrics every finding of the rule carries, by name (the contract's
    /// required metrics for its rules; findings may carry more). Renaming
    /// or dropping one breaks the contract; the end-to-end tests check
    /// each finding of a run over the fixtures has its rule's.
    pub metrics: &'static [&'static str],
    /// What a finding's fingerprint is built from besides the rule id:
    /// the parts of its identity that survive a restart (never a pid,
    /// thread, handle, file name or time). `mqdiag rules` prints them;
    /// a subject field a finding carries is either one of them or an
    /// incarnation (pid, tid, ident), which the end-to-end tests check.
    pub fingerprint: &'static [mqdiag_model::findings::Part],
    /// Trace function families whose entries and exits the pass reads.
    pub(crate) functions: &'static [mqdiag_readers::catalog::functions::Family],
    /// Literal text a trace text line must contain for the pass to read it.
    /// (Headers, log records and SMF rows always reach every pass.)
    pub(crate) keywords: &'static [&'static str],
    /// Whether the pass reads MQI calls in traces: every verb's entry and
    /// exit and the `CompCode`/`Reason` lines (the run's `calls` table is
    /// counted only for a pass that takes it, see `Pass::takes_calls_table`).
    pub(crate) mqi_calls: bool,
    /// Attributes the pass reads from SMF rows, by name: derived ones
    /// (`record`, `qmgr`, ...) and CSV columns as written. In `analyze`
    /// SMF rows carry only the columns some pass (or the redactor) names.
    pub(crate) smf_columns: &'static [&'static str],
    pub(crate) make: fn(&Settings) -> Box<dyn Pass>,
    /// What the HTML report draws for the rule's findings.
    pub chart: ChartKind,
    /// How the rule's findings are ordered among themselves.
    pub(crate) order: Order,
    /// Work across every rule's findings (see `Hook`), made with the run's
    /// plan.
    pub(crate) hook: Option<MakeHook>,
    /// Whether `compare` draws each of the rule's findings' charts from
    /// both captures side by side (one pair per subject).
    pub side_by_side: bool,
    /// What the case's configuration (qm.ini, MQSC definitions) adds to a
    /// finding of the rule (`crate::explain`): `None` for rules it cannot
    /// explain.
    pub(crate) explain: Option<crate::explain::Explain>,
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
    FamilyErrors(mqdiag_readers::catalog::Family),
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
    pub(crate) const BASE: RuleInfo = RuleInfo {
        id: "",
        severity: Severity::Warning,
        summary: "",
        trigger: "",
        thresholds: &[],
        advice: "",
        metrics: &[],
        fingerprint: &[],
        functions: &[],
        keywords: &[],
        mqi_calls: false,
        smf_columns: &[],
        make: no_constructor,
        chart: ChartKind::Own,
        order: Order::FirstSeen,
        hook: None,
        side_by_side: false,
        explain: None,
    };
}

impl RuleInfo {
    /// `trigger` as `mqdiag rules` and the reports print it: the message
    /// ids a rule reacts to come from the catalogue, written in the text as
    /// `{catalogue-ids:<family>}` (every id of the family a rule reports)
    /// or `{catalogue-warnings:<family>}` (those it reports as warnings).
    pub fn trigger_text(&self) -> String {
        use mqdiag_readers::catalog::{Family, reported_ids, warning_ids};
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

#[cfg(test)]
mod tests {
    use super::Kinds;
    use mqdiag_model::event::Kind;

    #[test]
    fn routes_send_each_kind_only_to_the_sets_that_read_it() {
        let sets = [
            Kinds::of(&[Kind::MqEvent]),
            Kinds::ALL,
            Kinds::of(&[Kind::LogRecord, Kind::MqEvent]),
        ];
        let routes = Kinds::routes(sets.into_iter());
        assert_eq!(routes[Kind::MqEvent as usize], [0, 1, 2]);
        assert_eq!(routes[Kind::LogRecord as usize], [1, 2]);
        assert_eq!(routes[Kind::Entry as usize], [1]);
        // Every kind has a place among the 32 bits.
        assert!((Kind::MqiCall as usize) < routes.len());
    }
}
