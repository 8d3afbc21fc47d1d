//! The findings model: what passes produce and every report format
//! renders. The serialised form is the contract's JSON `findings` entry.

use crate::event::{Event, Kind, Ts};
use crate::problem::Severity;
use crate::timefmt::rfc3339;
use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};
use std::sync::Arc;

mod chart;
#[cfg(test)]
mod tests;

pub use chart::*;

/// Evidence lines kept per finding; `count` says how many occurrences
/// there were in all.
pub const MAX_EVIDENCE: usize = 6;

/// Who or what a finding is about. Only the fields that apply are set.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Subject {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pid: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tid: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ident: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub channel: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub host: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub address: Option<String>,
    /// The user id a refusal names (`access-refused`); part of its rule's
    /// key, so of the fingerprint too.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub user: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub queue: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub qmgr: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub program: Option<String>,
}

impl Subject {
    /// `pid 9306238, tid 433, ident RSESS:00011e` for people.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(v) = &self.channel {
            parts.push(format!("channel {v}"));
        }
        if let Some(v) = &self.queue {
            parts.push(format!("queue {v}"));
        }
        if let Some(v) = &self.qmgr {
            parts.push(format!("qmgr {v}"));
        }
        if let Some(v) = &self.host {
            parts.push(format!("host {v}"));
        }
        if let Some(v) = &self.address {
            parts.push(format!("address {v}"));
        }
        if let Some(v) = &self.user {
            parts.push(format!("user {v}"));
        }
        if let Some(v) = &self.program {
            parts.push(format!("program {v}"));
        }
        if let Some(v) = self.pid {
            parts.push(format!("pid {v}"));
        }
        if let Some(v) = self.tid {
            parts.push(format!("tid {v}"));
        }
        if let Some(v) = &self.ident {
            parts.push(format!("ident {v}"));
        }
        parts.join(", ")
    }

    /// Every string field, mutable (for redaction).
    pub(crate) fn strings_mut(&mut self) -> impl Iterator<Item = &mut String> {
        [
            &mut self.ident,
            &mut self.channel,
            &mut self.host,
            &mut self.address,
            &mut self.user,
            &mut self.queue,
            &mut self.qmgr,
            &mut self.program,
        ]
        .into_iter()
        .flatten()
    }
}

/// One located line that supports a finding.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Evidence {
    pub path: String,
    /// 1-based; 1 for problems that concern a whole file.
    pub line: u64,
    pub text: String,
    /// Byte offset of the line in its file (`Event::offset`), when the
    /// evidence is an event; only the ECS export writes it (`log.offset`).
    #[serde(skip)]
    pub offset: Option<u64>,
}

impl Evidence {
    /// The event's line as a person would recognise it. Trace records are
    /// rebuilt as `time pid.tid ident data` (whitespace collapsed, as the
    /// support community quotes them); other formats carry their own text.
    pub fn from_event(e: &Event) -> Evidence {
        Evidence {
            path: e.path().to_string(),
            line: e.line,
            text: event_line(e),
            offset: known_offset(e.offset),
        }
    }
}

/// `Event::offset` when a reader set it.
fn known_offset(o: u64) -> Option<u64> {
    (o != Event::NO_OFFSET).then_some(o)
}

/// Longest evidence text kept, in characters.
const MAX_EVIDENCE_TEXT: usize = 240;

fn event_line(e: &Event) -> String {
    EventRef::of(e).line_text()
}

/// What is needed to quote an event later, captured cheaply (two string
/// copies, no formatting) for passes that replace a kept sample often.
#[derive(Debug, Clone)]
pub struct EventRef {
    path: Arc<str>,
    line: u64,
    offset: u64,
    ts: Ts,
    trace: bool,
    flag: bool,
    pid: Option<u32>,
    tid: Option<u32>,
    /// A copy, not the event's `Arc`: a reader's thread updates that one's
    /// counts as it makes and recycles events, so taking a reference from
    /// the rules' thread moved its line between cores for every process.
    ident: Option<String>,
    text: String,
}

/// Whether `e` is a trace line (shown with its process and thread).
fn is_trace(e: &Event) -> bool {
    matches!(
        e.kind,
        Kind::Entry | Kind::Exit | Kind::ErrorExit | Kind::Text | Kind::Dump | Kind::Header
    ) && e.pid.is_some()
}

impl EventRef {
    /// Become a reference to `e`, reusing this one's text buffer: passes
    /// that keep "the latest" event call this for every event.
    pub fn assign(&mut self, e: &Event) {
        let trace = is_trace(e);
        // The shared path is taken only when it changes (a clone and a
        // drop of an `Arc` each cost two atomic operations); the ident is
        // copied into the buffer this one has.
        if !Arc::ptr_eq(&self.path, &e.origin.path) {
            self.path = e.origin.path.clone();
        }
        match (
            trace.then_some(e.ident.as_deref()).flatten(),
            &mut self.ident,
        ) {
            (Some(i), Some(buf)) => {
                if **buf != *i {
                    buf.clear();
                    buf.push_str(i);
                }
            }
            (Some(i), slot) => *slot = Some(i.to_string()),
            (None, slot) => *slot = None,
        }
        self.line = e.line;
        self.offset = e.offset;
        self.ts = e.ts;
        self.trace = trace;
        self.flag = trace && e.get(crate::event::Key::Flag) == Some("*");
        self.pid = e.pid;
        self.tid = e.tid;
        self.text.clear();
        self.text.push_str(&e.text);
    }

    pub fn of(e: &Event) -> EventRef {
        EventRef {
            text: e.text.clone(),
            ..EventRef::of_without_text(e)
        }
    }

    /// `of` without the text, for callers that keep it themselves
    /// (`with_text`, `assign_from`, `evidence_with` put it back).
    pub fn of_without_text(e: &Event) -> EventRef {
        let trace = is_trace(e);
        EventRef {
            path: e.origin.path.clone(),
            line: e.line,
            offset: e.offset,
            ts: e.ts,
            trace,
            flag: trace && e.get(crate::event::Key::Flag) == Some("*"),
            pid: e.pid,
            tid: e.tid,
            ident: if trace {
                e.ident.as_deref().map(str::to_string)
            } else {
                None
            },
            text: String::new(),
        }
    }

    pub fn line(&self) -> u64 {
        self.line
    }

    pub fn evidence(&self) -> Evidence {
        self.evidence_with(&self.text)
    }

    /// The evidence of this reference with `text` as its text.
    pub fn evidence_with(&self, text: &str) -> Evidence {
        Evidence {
            path: self.path.to_string(),
            line: self.line,
            text: self.line_text_of(text),
            offset: known_offset(self.offset),
        }
    }

    /// `head` (a reference without text) with `text`.
    pub fn with_text(&self, text: &str) -> EventRef {
        self.with_buf(text.to_string())
    }

    /// This reference with `text` (field by field: a `clone` copies the
    /// text only to drop it, and passes call this for every record).
    #[inline]
    fn with_buf(&self, text: String) -> EventRef {
        EventRef {
            path: self.path.clone(),
            line: self.line,
            offset: self.offset,
            ts: self.ts,
            trace: self.trace,
            flag: self.flag,
            pid: self.pid,
            tid: self.tid,
            ident: self.ident.clone(),
            text,
        }
    }

    /// Become `head` with `text`, reusing this one's text buffer.
    pub fn assign_from(&mut self, head: &EventRef, text: &str) {
        let mut buf = std::mem::take(&mut self.text);
        buf.clear();
        buf.push_str(text);
        *self = head.with_buf(buf);
    }

    fn line_text(&self) -> String {
        self.line_text_of(&self.text)
    }

    fn line_text_of(&self, text: &str) -> String {
        let s = if self.trace {
            let mut s = String::with_capacity(text.len() + 40);
            if self.flag {
                s.push('*');
            }
            push_time_of_day(&mut s, &self.ts);
            // Written in place: `format` and chrono's `format` allocated
            // three strings a quote (a million failing processes are a
            // million quotes).
            use std::fmt::Write;
            let _ = match (self.pid, self.tid) {
                (Some(p), Some(t)) => write!(s, " {p}.{t}"),
                (Some(p), None) => write!(s, " {p}"),
                _ => Ok(()),
            };
            if let Some(i) = &self.ident {
                s.push(' ');
                s.push_str(i);
            }
            s.push(' ');
            s.push_str(text);
            s
        } else {
            text.to_string()
        };
        if s.chars().count() > MAX_EVIDENCE_TEXT {
            let mut t: String = s.chars().take(MAX_EVIDENCE_TEXT - 1).collect();
            t.push('…');
            t
        } else {
            s
        }
    }
}

/// `HH:MM:SS.ffffff` of `t`'s own wall clock, as `%H:%M:%S%.6f` writes
/// it (a leap second is second 60).
fn push_time_of_day(s: &mut String, t: &Ts) {
    use chrono::Timelike;
    use std::fmt::Write;
    let (mut sec, mut ns) = (t.second(), t.nanosecond());
    if ns >= 1_000_000_000 {
        sec += 1;
        ns -= 1_000_000_000;
    }
    let _ = write!(
        s,
        "{:02}:{:02}:{:02}.{:06}",
        t.hour(),
        t.minute(),
        sec,
        ns / 1_000
    );
}

/// A metric value: the contract's metrics are numbers, strings or `null`.
#[derive(Debug, Clone, PartialEq)]
pub enum Metric {
    Int(i64),
    Num(f64),
    Str(String),
    Null,
}

impl Metric {
    /// A float rounded to 3 decimals so output is stable and readable.
    pub fn num(v: f64) -> Metric {
        if v.is_finite() {
            Metric::Num((v * 1000.0).round() / 1000.0)
        } else {
            Metric::Null
        }
    }

    pub fn int(v: u64) -> Metric {
        Metric::Int(i64::try_from(v).unwrap_or(i64::MAX))
    }

    pub fn opt_str(v: Option<&str>) -> Metric {
        v.map(|s| Metric::Str(s.to_string()))
            .unwrap_or(Metric::Null)
    }

    pub fn opt_int(v: Option<u64>) -> Metric {
        v.map(Metric::int).unwrap_or(Metric::Null)
    }

    /// As shown in text reports.
    pub(crate) fn display(&self) -> String {
        match self {
            Metric::Int(v) => v.to_string(),
            Metric::Num(v) => {
                if v.fract() == 0.0 && v.abs() < 1e15 {
                    format!("{}", *v as i64)
                } else {
                    format!("{v}")
                }
            }
            Metric::Str(s) => s.clone(),
            // Text for people: a value the source could not supply.
            Metric::Null => "unknown".to_string(),
        }
    }
}

impl Metric {
    /// As shown to people: in human units where the metric's name gives
    /// its unit (`max_us` 11701686 is `11.7 s`, `send_final` 32766 is
    /// `32 KiB`), large counts with thousands separators, the rest as is.
    /// JSON keeps the raw number under the unit-suffixed name.
    pub fn display_named(&self, name: &str) -> String {
        let v = match self {
            Metric::Int(v) => *v as f64,
            Metric::Num(v) => *v,
            _ => return self.display(),
        };
        let duration = |ms: f64| {
            if ms < 0.0 {
                format!("-{}", human_ms(-ms))
            } else {
                human_ms(ms)
            }
        };
        if name.ends_with("_bytes_per_s") {
            human_rate(v)
        } else if name.ends_with("_us_per_s") {
            format!("{}/s", duration(v / 1000.0))
        } else if name.ends_with("_us") {
            duration(v / 1000.0)
        } else if name.ends_with("_ms") {
            duration(v)
        } else if name.ends_with("_s") || name.ends_with("_seconds") {
            duration(v * 1000.0)
        } else if (name.starts_with("send_")
            || name.starts_with("recv_")
            || name.ends_with("_bytes"))
            && v >= 0.0
        {
            human_bytes(v as u64)
        } else {
            match self {
                Metric::Int(i) if *i >= 10_000 => thousands(*i as u64),
                _ => self.display(),
            }
        }
    }
}

impl Metric {
    /// The name as shown beside [`Metric::display_named`]: a unit suffix the
    /// value already carries is dropped (`max_ms` 17900 reads `max=17.9 s`,
    /// not `max_ms=17.9 s`). Values shown as they are keep their name.
    pub fn label_named<'a>(&self, name: &'a str) -> &'a str {
        if !matches!(self, Metric::Int(_) | Metric::Num(_)) {
            return name;
        }
        const UNITS: [&str; 7] = [
            "_bytes_per_s",
            "_us_per_s",
            "_seconds",
            "_bytes",
            "_us",
            "_ms",
            "_s",
        ];
        for unit in UNITS {
            if let Some(base) = name.strip_suffix(unit) {
                // Negative byte counts are shown raw (see display_named).
                let negative = match self {
                    Metric::Int(v) => *v < 0,
                    Metric::Num(v) => *v < 0.0,
                    _ => false,
                };
                let raw = unit == "_bytes" && negative;
                if !base.is_empty() && !raw {
                    return base;
                }
            }
        }
        name
    }
}

impl Serialize for Metric {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Metric::Int(v) => s.serialize_i64(*v),
            Metric::Num(v) => s.serialize_f64(*v),
            Metric::Str(v) => s.serialize_str(v),
            Metric::Null => s.serialize_none(),
        }
    }
}

/// Named metrics in the order the rule defines them (required ones first).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Metrics(pub Vec<(String, Metric)>);

impl Metrics {
    pub fn set(&mut self, name: &str, v: Metric) {
        match self.0.iter_mut().find(|(k, _)| k == name) {
            Some(slot) => slot.1 = v,
            None => self.0.push((name.to_string(), v)),
        }
    }

    pub fn get(&self, name: &str) -> Option<&Metric> {
        self.0.iter().find(|(k, _)| k == name).map(|(_, v)| v)
    }
}

impl Serialize for Metrics {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

/// One row of a finding's `breakdown`: the occurrences of one message on
/// one channel and remote end. Only the fields that apply are set.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Breakdown {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub channel: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub host: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub address: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub return_code: Option<String>,
    pub occurrences: u64,
    #[serde(serialize_with = "ser_opt_ts", skip_serializing_if = "Option::is_none")]
    pub first: Option<Ts>,
    #[serde(serialize_with = "ser_opt_ts", skip_serializing_if = "Option::is_none")]
    pub last: Option<Ts>,
}

impl Breakdown {
    /// `AMQ9209E channel TO.QM2 host qm2 (10.0.0.2) rc 104`, for people.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(v) = &self.message_id {
            parts.push(v.clone());
        }
        if let Some(v) = &self.channel {
            parts.push(format!("channel {v}"));
        }
        match (&self.host, &self.address) {
            (Some(h), Some(a)) if h != a => parts.push(format!("host {h} ({a})")),
            (Some(h), _) => parts.push(format!("host {h}")),
            (None, Some(a)) => parts.push(format!("address {a}")),
            (None, None) => {}
        }
        if let Some(v) = &self.return_code {
            parts.push(format!("rc {v}"));
        }
        parts.join(", ")
    }

    /// Every string field, mutable (for redaction).
    pub(crate) fn strings_mut(&mut self) -> impl Iterator<Item = &mut String> {
        [&mut self.channel, &mut self.host, &mut self.address]
            .into_iter()
            .flatten()
    }
}

/// One finding, as in the contract's JSON report.
#[derive(Debug, Clone, Serialize)]
pub struct Finding {
    pub rule: String,
    pub severity: Severity,
    /// Why the finding has its severity, in one line: the rule's default,
    /// or what raised or lowered it.
    pub severity_reason: String,
    pub title: String,
    #[serde(serialize_with = "ser_opt_ts")]
    pub first: Option<Ts>,
    #[serde(serialize_with = "ser_opt_ts")]
    pub last: Option<Ts>,
    pub count: u64,
    pub subject: Subject,
    pub metrics: Metrics,
    pub evidence: Vec<Evidence>,
    pub advice: String,
    pub fingerprint: String,
    pub baseline: bool,
    /// Detail of a finding that groups several messages, channels or
    /// remote ends; not part of the fingerprint.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub breakdown: Vec<Breakdown>,
    /// What tells two findings of one rule and subject apart (a message
    /// id, a function); part of the fingerprint.
    #[serde(skip)]
    pub key: String,
    #[serde(skip)]
    pub chart: Option<Chart>,
}

fn ser_opt_ts<S: Serializer>(v: &Option<Ts>, s: S) -> Result<S::Ok, S::Error> {
    match v {
        Some(t) => s.serialize_str(&rfc3339(t)),
        None => s.serialize_none(),
    }
}

impl Finding {
    pub fn new(rule: &str, severity: Severity, title: impl Into<String>) -> Finding {
        Finding {
            rule: rule.to_string(),
            severity,
            severity_reason: String::new(),
            title: title.into(),
            first: None,
            last: None,
            count: 0,
            subject: Subject::default(),
            metrics: Metrics::default(),
            evidence: Vec::new(),
            advice: String::new(),
            fingerprint: String::new(),
            baseline: false,
            breakdown: Vec::new(),
            key: String::new(),
            chart: None,
        }
    }

    /// Widen the time range to include `t`.
    /// (A record without a time, `event::undated`, leaves them as they
    /// are: a finding of undated records only has `first`/`last` null.)
    pub fn saw(&mut self, t: &Ts) {
        if crate::event::is_undated(t) {
            return;
        }
        if self.first.is_none_or(|f| *t < f) {
            self.first = Some(*t);
        }
        if self.last.is_none_or(|l| *t > l) {
            self.last = Some(*t);
        }
    }

    /// Replace names and addresses in every string the finding shows
    /// (`--redact`), and in its chart's series names.
    pub fn redact(&mut self, r: &crate::redact::Redactor) {
        self.redact_with(&mut |s| r.apply(s));
    }

    /// `redact` with any replacement: `Redactor::apply`, or a
    /// `redact::Remembered` one shared by many findings.
    pub fn redact_with(&mut self, apply: &mut dyn FnMut(&str) -> String) {
        self.title = apply(&self.title);
        for s in self.subject.strings_mut() {
            *s = apply(s);
        }
        for b in &mut self.breakdown {
            for s in b.strings_mut() {
                *s = apply(s);
            }
        }
        for (_, v) in self.metrics.0.iter_mut() {
            if let Metric::Str(s) = v {
                *s = apply(s);
            }
        }
        for e in &mut self.evidence {
            e.path = apply(&e.path);
            e.text = apply(&e.text);
        }
        self.advice = apply(&self.advice);
        self.severity_reason = apply(&self.severity_reason);
        // Chart series are named by address, channel or program.
        if let Some(c) = &mut self.chart {
            c.rename_series(&mut *apply);
        }
    }

    /// Compute the fingerprint from the rule and the parts of its
    /// identity the rule names (`RuleInfo::fingerprint`): what survives a
    /// restart. Pids, thread ids, connection handles, file names and times
    /// stay out, so a restarted process or a capture under another path
    /// keeps its findings' fingerprints.
    pub fn seal(&mut self, parts: &[Part]) {
        let mut h = Fnv::new();
        h.write(self.rule.as_bytes());
        for p in parts {
            h.write(b"\0");
            h.write(p.name().as_bytes());
            h.write(b"=");
            h.write(p.value(self).unwrap_or("").as_bytes());
        }
        self.fingerprint = format!("{}:{:016x}", self.rule, h.finish());
    }
}

/// One part of a finding's identity that its fingerprint is built from.
/// Each rule lists its own (`RuleInfo::fingerprint`); none of them is an
/// incarnation (pid, thread, handle, file name, time).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    Qmgr,
    Channel,
    /// The host the finding is about or that wrote its evidence.
    Host,
    /// The connection name or IP address.
    Address,
    Queue,
    Program,
    /// The rule's own key (`Finding::key`), named for people (`message
    /// id`, `probe id, major error, program`); it never holds a pid or a
    /// file name.
    Key(&'static str),
}

impl Part {
    /// The part's name in `mqdiag rules`.
    pub fn name(&self) -> &'static str {
        match self {
            Part::Qmgr => "queue manager",
            Part::Channel => "channel",
            Part::Host => "host",
            Part::Address => "connection name",
            Part::Queue => "queue",
            Part::Program => "program",
            Part::Key(what) => what,
        }
    }

    /// The finding's value of this part, if it has one.
    pub fn value<'a>(&self, f: &'a Finding) -> Option<&'a str> {
        let s = &f.subject;
        match self {
            Part::Qmgr => s.qmgr.as_deref(),
            Part::Channel => s.channel.as_deref(),
            Part::Host => s.host.as_deref(),
            Part::Address => s.address.as_deref(),
            Part::Queue => s.queue.as_deref(),
            Part::Program => s.program.as_deref(),
            Part::Key(_) => Some(f.key.as_str()).filter(|k| !k.is_empty()),
        }
    }

    /// Whether the subject field `field` (its JSON name) is this part.
    pub fn is_subject_field(&self, field: &str) -> bool {
        matches!(
            (self, field),
            (Part::Qmgr, "qmgr")
                | (Part::Channel, "channel")
                | (Part::Host, "host")
                | (Part::Address, "address")
                | (Part::Queue, "queue")
                | (Part::Program, "program")
        ) || matches!((self, field), (Part::Key(what), "user") if what.contains("user"))
    }
}

/// Evidence kept up to a cap, first come first kept, plus one slot that
/// always holds the most notable line seen (the worst sample).
#[derive(Debug, Clone, Default)]
pub struct EvidenceSet {
    pub lines: Vec<Evidence>,
}

impl EvidenceSet {
    /// Keep `ev` if there is room.
    pub fn push(&mut self, ev: Evidence) {
        if self.lines.len() < MAX_EVIDENCE && !self.lines.contains(&ev) {
            self.lines.push(ev);
        }
    }

    pub fn is_full(&self) -> bool {
        self.lines.len() >= MAX_EVIDENCE
    }

    /// Evidence sorted by file and line for display.
    pub fn into_sorted(mut self) -> Vec<Evidence> {
        self.lines
            .sort_by(|a, b| a.path.cmp(&b.path).then(a.line.cmp(&b.line)));
        self.lines
    }
}

/// 64-bit FNV-1a: small, stable across platforms and releases, enough to
/// tell findings apart (not a security hash).
pub(crate) struct Fnv(u64);

impl Fnv {
    pub(crate) fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    pub(crate) fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= b as u64;
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    pub(crate) fn finish(&self) -> u64 {
        self.0
    }
}

impl Default for Fnv {
    fn default() -> Self {
        Fnv::new()
    }
}

/// `1,000` — thousands separators for counts in titles.
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A duration in milliseconds for titles: `212 ms`, `1.5 s`, `17.9 s`.
pub fn human_ms(ms: f64) -> String {
    if ms < 1.0 {
        format!("{:.0} µs", ms * 1000.0)
    } else if ms < 10.0 {
        format!("{ms:.1} ms")
    } else if ms < 1000.0 {
        format!("{ms:.0} ms")
    } else if ms < 100_000.0 {
        format!("{:.1} s", ms / 1000.0)
    } else {
        format!("{:.0} s", ms / 1000.0)
    }
}

/// Bytes for people: `2,048 B`, `32 KiB`, `256 KiB`.
pub fn human_bytes(b: u64) -> String {
    if b < 10 * 1024 {
        format!("{} B", thousands(b))
    } else if b < 10 * 1024 * 1024 {
        format!("{:.0} KiB", b as f64 / 1024.0)
    } else {
        format!("{:.0} MiB", b as f64 / (1024.0 * 1024.0))
    }
}

/// A rate in bytes per second: `819 KB/s`, `32.8 MB/s` (decimal units,
/// as network speeds are quoted).
pub fn human_rate(bps: f64) -> String {
    if bps < 1_000.0 {
        format!("{bps:.0} B/s")
    } else if bps < 1_000_000.0 {
        format!("{:.0} KB/s", bps / 1_000.0)
    } else if bps < 1_000_000_000.0 {
        format!("{:.1} MB/s", bps / 1_000_000.0)
    } else {
        format!("{:.1} GB/s", bps / 1_000_000_000.0)
    }
}

#[cfg(test)]
mod redact_tests {
    use super::*;
    use crate::redact::{Cat, Redactor};

    #[test]
    fn a_time_of_day_as_strftime_writes_it() {
        for t in [
            "2016-05-15T00:00:00+01:00",
            "2016-05-15T23:59:59.999999999-04:00",
            "2016-05-15T12:06:32.904335+05:30",
            "2016-12-31T23:59:60.5+00:00",
        ] {
            let t = chrono::DateTime::parse_from_rfc3339(t).unwrap();
            let mut s = String::new();
            push_time_of_day(&mut s, &t);
            assert_eq!(s, t.format("%H:%M:%S%.6f").to_string());
        }
    }

    #[test]
    fn breakdown_rows_are_redacted_channels_kept() {
        let mut r = Redactor::new();
        r.add(Cat::Host, "qm2host (10.0.0.2)(1414)");
        let mut f = Finding::new("channel-error", crate::problem::Severity::Error, "t");
        f.breakdown.push(crate::findings::Breakdown {
            message_id: Some("AMQ9209E".into()),
            channel: Some("QM1.TO.QM2".into()),
            host: Some("qm2host".into()),
            address: Some("10.0.0.2".into()),
            return_code: None,
            occurrences: 1,
            first: None,
            last: None,
        });
        f.redact(&r);
        let b = &f.breakdown[0];
        assert_eq!(b.host.as_deref(), Some("host-1"));
        assert_eq!(b.address.as_deref(), Some("ip-1"));
        assert_eq!(b.message_id.as_deref(), Some("AMQ9209E"));
        assert_eq!(b.channel.as_deref(), Some("QM1.TO.QM2"));
    }
}
