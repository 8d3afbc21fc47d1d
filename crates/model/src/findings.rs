//! The findings model: what passes produce and every report format
//! renders. The serialised form is the contract's JSON `findings` entry.

use crate::event::{Event, Kind, Ts};
use crate::problem::Severity;
use crate::timefmt::rfc3339;
use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};
use std::sync::Arc;

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
    pub fn strings_mut(&mut self) -> impl Iterator<Item = &mut String> {
        [
            &mut self.ident,
            &mut self.channel,
            &mut self.host,
            &mut self.address,
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
        }
    }
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
    ts: Ts,
    trace: bool,
    flag: bool,
    pid: Option<u32>,
    tid: Option<u32>,
    ident: Option<Arc<str>>,
    text: String,
}

impl EventRef {
    /// Become a reference to `e`, reusing this one's text buffer: passes
    /// that keep "the latest" event call this for every event.
    pub fn assign(&mut self, e: &Event) {
        let fresh = EventRef::of_without_text(e);
        let mut text = std::mem::take(&mut self.text);
        text.clear();
        text.push_str(&e.text);
        *self = EventRef { text, ..fresh };
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
        let trace = matches!(
            e.kind,
            Kind::Entry | Kind::Exit | Kind::ErrorExit | Kind::Text | Kind::Dump | Kind::Header
        ) && e.pid.is_some();
        EventRef {
            path: e.origin.path.clone(),
            line: e.line,
            ts: e.ts,
            trace,
            flag: trace && e.attr("flag") == Some("*"),
            pid: e.pid,
            tid: e.tid,
            ident: if trace { e.ident.clone() } else { None },
            text: String::new(),
        }
    }

    pub fn ts(&self) -> Ts {
        self.ts
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
        }
    }

    /// `head` (a reference without text) with `text`.
    pub fn with_text(&self, text: &str) -> EventRef {
        EventRef {
            text: text.to_string(),
            ..self.clone()
        }
    }

    /// Become `head` with `text`, reusing this one's text buffer.
    pub fn assign_from(&mut self, head: &EventRef, text: &str) {
        let mut buf = std::mem::take(&mut self.text);
        buf.clear();
        buf.push_str(text);
        *self = EventRef {
            text: buf,
            ..head.clone()
        };
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
            s.push_str(&self.ts.format("%H:%M:%S%.6f").to_string());
            match (self.pid, self.tid) {
                (Some(p), Some(t)) => s.push_str(&format!(" {p}.{t}")),
                (Some(p), None) => s.push_str(&format!(" {p}")),
                _ => {}
            }
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
    pub fn display(&self) -> String {
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
            Metric::Null => "null".to_string(),
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

/// What a chart's values measure; the drawing picks human units (µs, ms,
/// s, KiB, MiB, per minute) from it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Unit {
    /// Durations in microseconds.
    Micros,
    /// Durations in milliseconds.
    Millis,
    Bytes,
    /// Plain counts (connects, errors).
    #[default]
    Count,
}

/// How a chart's series are drawn.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Style {
    /// One dot per sample (queue times, waits, look-up durations).
    #[default]
    Points,
    /// One bar per time bucket, series stacked (counts per minute or hour).
    Bars,
}

/// One named series of time-stamped values.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Series {
    pub name: String,
    pub points: Vec<(Ts, f64)>,
}

/// A horizontal line at a value people compare against (the 200 ms
/// delayed-ACK timer).
#[derive(Debug, Clone, PartialEq)]
pub struct RefLine {
    pub value: f64,
    pub label: String,
}

/// A fitted straight line from (`from`, `y0`) to (`to`, `y1`).
#[derive(Debug, Clone, PartialEq)]
pub struct Fit {
    pub from: Ts,
    pub to: Ts,
    pub y0: f64,
    pub y1: f64,
    pub label: String,
}

/// A picture of a finding's samples over clock time, drawn by the HTML
/// report; not part of the JSON.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Chart {
    pub title: String,
    /// What the y axis measures, without the unit (`queue time`).
    pub y_label: String,
    pub unit: Unit,
    pub style: Style,
    pub series: Vec<Series>,
    pub refs: Vec<RefLine>,
    pub fit: Option<Fit>,
    /// For `Bars`: the bucket width in seconds (the bars' width and the
    /// `per minute` in the axis title).
    pub bucket_s: i64,
}

impl Chart {
    pub fn points(&self) -> usize {
        self.series.iter().map(|s| s.points.len()).sum()
    }

    /// Rename every series (for `--redact`: names are addresses,
    /// channels, programs).
    pub fn rename_series(&mut self, mut f: impl FnMut(&str) -> String) {
        for s in &mut self.series {
            s.name = f(&s.name);
        }
    }
}

/// The most points a pass keeps for one chart series.
pub const MAX_CHART_POINTS: usize = 512;

/// A bounded sample of (time, value) points for a chart: when full,
/// neighbouring points are merged pairwise keeping the larger value, and
/// later points are taken one per merged run, so the peaks a person looks
/// for survive however long the input is.
#[derive(Debug, Clone, Default)]
pub struct SeriesBuf {
    points: Vec<(Ts, f64)>,
    /// How many raw points each kept point stands for.
    stride: usize,
    /// The run being merged into the next kept point, and its length.
    pending: Option<(Ts, f64)>,
    pending_n: usize,
}

impl SeriesBuf {
    pub fn push(&mut self, t: Ts, v: f64) {
        if self.stride == 0 {
            self.stride = 1;
        }
        let keep = match self.pending {
            Some((_, pv)) if pv >= v => self.pending.unwrap(),
            _ => (t, v),
        };
        self.pending = Some(keep);
        self.pending_n += 1;
        if self.pending_n < self.stride {
            return;
        }
        self.points.push(keep);
        self.pending = None;
        self.pending_n = 0;
        if self.points.len() >= MAX_CHART_POINTS {
            let merged = self
                .points
                .chunks(2)
                .map(|c| {
                    if c.len() == 2 && c[1].1 > c[0].1 {
                        c[1]
                    } else {
                        c[0]
                    }
                })
                .collect();
            self.points = merged;
            self.stride *= 2;
        }
    }

    pub fn into_points(mut self) -> Vec<(Ts, f64)> {
        if let Some(p) = self.pending.take() {
            self.points.push(p);
        }
        self.points.sort_by_key(|a| a.0);
        self.points
    }
}

/// Named series drawn one by one in a count chart; the rest share one.
pub const MAX_COUNT_SERIES: usize = 8;
/// Count buckets kept before they are made wider.
const MAX_COUNT_BUCKETS: usize = 2_048;
/// Bars a count chart shows at most; wider buckets are chosen above it.
const MAX_BARS: i64 = 72;
/// Count bucket widths in seconds, each a multiple of the one before, so
/// widening adds whole buckets together.
const WIDTHS: [i64; 13] = [
    1, 5, 10, 30, 60, 300, 600, 1_800, 3_600, 10_800, 21_600, 86_400, 604_800,
];

/// Events counted per clock bucket (local minutes, hours, days of the
/// first event's offset) and per named series, in bounded memory: at most
/// `MAX_COUNT_SERIES` names (the rest share one series) and a few
/// thousand buckets (then the width grows).
#[derive(Debug, Clone, Default)]
pub struct ClockCounts {
    offset: Option<chrono::FixedOffset>,
    width_s: i64,
    /// Buckets kept before the width grows.
    max_buckets: usize,
    /// A lower limit a pass's memory budget set (`limit`).
    budget_cap: Option<usize>,
    /// Bucket starts (seconds since the epoch), in order, and their
    /// counts, `stride` per bucket (one per series met so far, the shared
    /// one last). Flat vectors: passes keep one per group (thousands),
    /// events come in time order, and a map with a vector per bucket cost
    /// a tenth of `analyze` on a busy job log.
    keys: Vec<i64>,
    counts: Vec<u32>,
    stride: usize,
    names: Vec<String>,
    /// The series of the last name given to `add_static`, by its address
    /// and length (the same text, without comparing it).
    last_static: Option<(usize, usize, usize)>,
}

/// The start of the `width_s`-second bucket holding `secs`, on local
/// boundaries of `off`.
fn bucket_start(secs: i64, width_s: i64, off: chrono::FixedOffset) -> i64 {
    let o = off.local_minus_utc() as i64;
    (secs + o).div_euclid(width_s) * width_s - o
}

impl ClockCounts {
    /// Buckets at least `min_width_s` seconds wide (rounded up to the
    /// next width of the chain).
    pub fn new(min_width_s: i64) -> ClockCounts {
        ClockCounts::with_cap(min_width_s, MAX_COUNT_BUCKETS)
    }

    /// As `new`, keeping at most `max_buckets` buckets (at least twice
    /// the bars shown, so a chart keeps its detail): for passes that hold
    /// one per group.
    pub fn with_cap(min_width_s: i64, max_buckets: usize) -> ClockCounts {
        ClockCounts {
            max_buckets: max_buckets.max(2 * MAX_BARS as usize),
            width_s: WIDTHS
                .iter()
                .copied()
                .find(|w| *w >= min_width_s)
                .unwrap_or(WIDTHS[WIDTHS.len() - 1]),
            ..Default::default()
        }
    }

    pub fn add(&mut self, ts: &Ts, name: &str) {
        let series = self.series(name);
        self.count(ts, series);
    }

    /// `add` for a name fixed in the program, which is then recognised by
    /// its address.
    pub fn add_static(&mut self, ts: &Ts, name: &'static str) {
        let at = (name.as_ptr() as usize, name.len());
        let series = match self.last_static {
            Some((p, l, s)) if (p, l) == at => s,
            _ => {
                let s = self.series(name);
                self.last_static = Some((at.0, at.1, s));
                s
            }
        };
        self.count(ts, series);
    }

    fn series(&mut self, name: &str) -> usize {
        match self.names.iter().position(|n| n == name) {
            Some(i) => i,
            None if self.names.len() < MAX_COUNT_SERIES => {
                self.names.push(name.to_string());
                self.names.len() - 1
            }
            None => MAX_COUNT_SERIES,
        }
    }

    fn count(&mut self, ts: &Ts, series: usize) {
        let off = *self.offset.get_or_insert(*ts.offset());
        if self.width_s == 0 {
            self.width_s = WIDTHS[0];
        }
        if series >= self.stride {
            self.restride(series + 1);
        }
        let key = bucket_start(ts.timestamp(), self.width_s, off);
        let n = self.keys.len();
        // Events come in time order: mostly to the newest bucket.
        let i = match self.keys.last() {
            Some(k) if *k == key => n - 1,
            Some(k) if *k > key => match self.keys.binary_search(&key) {
                Ok(i) => i,
                Err(i) => {
                    self.keys.insert(i, key);
                    let at = i * self.stride;
                    self.counts
                        .splice(at..at, std::iter::repeat_n(0, self.stride));
                    i
                }
            },
            _ => {
                self.keys.push(key);
                self.counts.resize(self.counts.len() + self.stride, 0);
                n
            }
        };
        let c = &mut self.counts[i * self.stride + series];
        *c = c.saturating_add(1);
        let cap = self
            .budget_cap
            .unwrap_or(self.max_buckets.max(2 * MAX_BARS as usize));
        while self.keys.len() > cap {
            let Some(next) = WIDTHS.iter().copied().find(|w| *w > self.width_s) else {
                break;
            };
            self.widen(next, off);
        }
    }

    /// Buckets held now.
    pub fn buckets(&self) -> usize {
        self.keys.len()
    }

    /// Keep at most `cap` buckets from now on (widening them now if need
    /// be), below the chart's usual detail: for a pass whose groups share
    /// one memory budget. The chart then has fewer, wider bars.
    pub fn limit(&mut self, cap: usize) {
        self.budget_cap = Some(cap.max(1));
        let Some(off) = self.offset else { return };
        let before = self.keys.len();
        while self.keys.len() > cap.max(1) {
            let Some(next) = WIDTHS.iter().copied().find(|w| *w > self.width_s) else {
                break;
            };
            self.widen(next, off);
        }
        if self.keys.len() < before {
            self.keys.shrink_to_fit();
            self.counts.shrink_to_fit();
        }
    }

    /// Room for `stride` series in every bucket.
    fn restride(&mut self, stride: usize) {
        let mut counts = Vec::with_capacity(self.keys.len() * stride);
        for b in self.counts.chunks(self.stride.max(1)) {
            counts.extend_from_slice(b);
            counts.resize(counts.len() + stride - b.len(), 0);
        }
        self.counts = counts;
        self.stride = stride;
    }

    /// The counts of bucket `i`, one per series slot.
    fn bucket(&self, i: usize) -> &[u32] {
        &self.counts[i * self.stride..(i + 1) * self.stride]
    }

    /// Wider buckets: each width is a multiple of the one before, so the
    /// new starts are in the same order and equal ones are neighbours.
    fn widen(&mut self, width_s: i64, off: chrono::FixedOffset) {
        let (mut keys, mut counts) = (Vec::new(), Vec::new());
        for (i, k) in self.keys.iter().enumerate() {
            let k = bucket_start(*k, width_s, off);
            let b = self.bucket(i);
            if keys.last() == Some(&k) {
                let at = counts.len() - self.stride;
                for (a, v) in counts[at..].iter_mut().zip(b) {
                    *a = u32::saturating_add(*a, *v);
                }
            } else {
                keys.push(k);
                counts.extend_from_slice(b);
            }
        }
        self.keys = keys;
        self.counts = counts;
        self.width_s = width_s;
    }

    /// Stacked bars per series, in the narrowest buckets that give at
    /// most `MAX_BARS` bars over the span (weeks at most); `None` when
    /// nothing was counted. `other` names the shared series.
    pub fn chart(mut self, title: &str, y_label: &str, other: &str) -> Option<Chart> {
        let off = self.offset?;
        let first = *self.keys.first()?;
        let last = *self.keys.last()?;
        let span = last - first + self.width_s;
        let w = WIDTHS
            .iter()
            .copied()
            .find(|w| *w >= self.width_s && span / w <= MAX_BARS)
            .unwrap_or(WIDTHS[WIDTHS.len() - 1]);
        if w > self.width_s {
            self.widen(w, off);
        }
        let mut names = std::mem::take(&mut self.names);
        if self.stride > MAX_COUNT_SERIES
            && (0..self.keys.len()).any(|i| self.bucket(i)[MAX_COUNT_SERIES] > 0)
        {
            names.push(other.to_string());
        }
        let series = names
            .into_iter()
            .enumerate()
            .map(|(i, name)| Series {
                name,
                points: self
                    .keys
                    .iter()
                    .enumerate()
                    .filter_map(|(b, k)| {
                        let n = self.bucket(b).get(i).copied().unwrap_or(0);
                        let t = chrono::DateTime::from_timestamp(*k, 0)?.with_timezone(&off);
                        (n > 0).then_some((t, n as f64))
                    })
                    .collect(),
            })
            .collect();
        Some(Chart {
            title: title.to_string(),
            y_label: y_label.to_string(),
            unit: Unit::Count,
            style: Style::Bars,
            series,
            refs: Vec::new(),
            fit: None,
            bucket_s: self.width_s,
        })
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
    pub fn strings_mut(&mut self) -> impl Iterator<Item = &mut String> {
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
    pub fn saw(&mut self, t: &Ts) {
        if self.first.is_none_or(|f| *t < f) {
            self.first = Some(*t);
        }
        if self.last.is_none_or(|l| *t > l) {
            self.last = Some(*t);
        }
    }

    /// Compute the fingerprint: rule, key, subject and the evidence paths;
    /// nothing that changes from run to run.
    pub fn seal(&mut self) {
        let mut h = Fnv::new();
        h.write(self.rule.as_bytes());
        h.write(b"\0");
        h.write(self.key.as_bytes());
        h.write(b"\0");
        h.write(
            serde_json::to_string(&self.subject)
                .unwrap_or_default()
                .as_bytes(),
        );
        let mut paths: Vec<&str> = self.evidence.iter().map(|e| e.path.as_str()).collect();
        paths.sort_unstable();
        paths.dedup();
        for p in paths {
            h.write(b"\0");
            h.write(p.as_bytes());
        }
        self.fingerprint = format!("{}:{:016x}", self.rule, h.finish());
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
pub struct Fnv(u64);

impl Fnv {
    pub fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    pub fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= b as u64;
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    pub fn finish(&self) -> u64 {
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
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn clock_counts_are_what_counting_every_event_gives() {
        // Any order, any names: the width is the narrowest of the chain
        // (from the first) whose buckets fit, and each bucket holds its
        // events per series, names past the eighth in the shared one.
        let names = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"];
        let off = chrono::FixedOffset::east_opt(5 * 3600 + 1800).unwrap();
        let mut rng = crate::testrng::Rng::new(7);
        for case in 0..200 {
            let n = 1 + rng.below(600);
            let spread = [10i64, 300, 5_000, 200_000][case % 4];
            let cap = 144 + rng.below(100);
            let ordered = case % 3 != 0;
            let mut evs: Vec<(i64, &'static str)> = (0..n)
                .map(|_| {
                    (
                        1_700_000_000 + rng.below(spread as usize) as i64,
                        names[rng.below(if case % 2 == 0 { 3 } else { names.len() })],
                    )
                })
                .collect();
            if ordered {
                evs.sort();
            }
            let mut cc = ClockCounts::with_cap(1, cap);
            for (i, (t, name)) in evs.iter().enumerate() {
                let ts = off.timestamp_opt(*t, 0).unwrap();
                if i % 2 == 0 {
                    cc.add_static(&ts, name);
                } else {
                    // A copy: not the address `add_static` remembers.
                    let copy = String::from(*name);
                    cc.add(&ts, &copy);
                }
            }
            // Series in the order names were first met.
            let mut seen: Vec<&str> = Vec::new();
            for (_, name) in &evs {
                if !seen.contains(name) {
                    seen.push(name);
                }
            }
            let series = |name: &str| {
                let i = seen.iter().position(|n| *n == name).unwrap();
                i.min(MAX_COUNT_SERIES)
            };
            let stride = seen.len().min(MAX_COUNT_SERIES + 1);
            let buckets_at = |w: i64| {
                let mut m: std::collections::BTreeMap<i64, Vec<u32>> = Default::default();
                for (t, name) in &evs {
                    let c = m.entry(bucket_start(*t, w, off)).or_insert(vec![0; stride]);
                    c[series(name)] += 1;
                }
                m
            };
            let width = WIDTHS
                .iter()
                .copied()
                .find(|w| buckets_at(*w).len() <= cap)
                .unwrap_or(WIDTHS[WIDTHS.len() - 1]);
            assert_eq!(cc.width_s, width, "case {case}");
            let want: Vec<(i64, Vec<u32>)> = buckets_at(width).into_iter().collect();
            let got: Vec<(i64, Vec<u32>)> = (0..cc.keys.len())
                .map(|i| (cc.keys[i], cc.bucket(i).to_vec()))
                .collect();
            assert_eq!(got, want, "case {case}");
            assert_eq!(cc.names.len(), seen.len().min(MAX_COUNT_SERIES));
        }
    }

    #[test]
    fn metrics_in_human_units() {
        assert_eq!(Metric::Int(11_701_686).display_named("max_us"), "11.7 s");
        assert_eq!(Metric::Int(5829).display_named("first_us"), "5.8 ms");
        assert_eq!(
            Metric::num(1200.5).display_named("slope_us_per_s"),
            "1.2 ms/s"
        );
        assert_eq!(
            Metric::num(-1200.5).display_named("slope_us_per_s"),
            "-1.2 ms/s"
        );
        assert_eq!(Metric::Int(212).display_named("max_wait_ms"), "212 ms");
        assert_eq!(Metric::Int(17_900).display_named("max_ms"), "17.9 s");
        assert_eq!(Metric::num(2.5).display_named("max_seconds"), "2.5 s");
        assert_eq!(Metric::num(90.0).display_named("span_s"), "90.0 s");
        assert_eq!(Metric::Int(32_768).display_named("send_current"), "32 KiB");
        assert_eq!(Metric::Int(3).display_named("stalls"), "3");
        assert_eq!(Metric::Int(123_456).display_named("connects"), "123,456");
        assert_eq!(Metric::num(0.25).display_named("per_second"), "0.25");
        assert_eq!(
            Metric::Int(3_276_600).display_named("ceiling_bytes_per_s"),
            "3.3 MB/s"
        );
        assert_eq!(Metric::Int(2048).display_named("send_final"), "2,048 B");
        assert_eq!(Metric::Null.display_named("max_us"), "null");
        assert_eq!(
            Metric::Str("AMQ9209".into()).display_named("message_id"),
            "AMQ9209"
        );
    }

    #[test]
    fn series_buffer_is_bounded_and_keeps_peaks() {
        let t0 = crate::timefmt::parse_offset("Z")
            .unwrap()
            .with_ymd_and_hms(2026, 1, 2, 3, 4, 5)
            .unwrap();
        let mut b = SeriesBuf::default();
        for i in 0..100_000i64 {
            let v = if i == 77_777 { 1e9 } else { (i % 10) as f64 };
            b.push(t0 + chrono::Duration::milliseconds(i), v);
        }
        let p = b.into_points();
        assert!(p.len() <= MAX_CHART_POINTS, "{}", p.len());
        assert!(p.len() >= MAX_CHART_POINTS / 4, "{}", p.len());
        assert!(p.iter().any(|x| x.1 == 1e9));
        assert!(p.windows(2).all(|w| w[0].0 <= w[1].0));
        let mut small = SeriesBuf::default();
        small.push(t0, 1.0);
        assert_eq!(small.into_points(), vec![(t0, 1.0)]);
        assert!(SeriesBuf::default().into_points().is_empty());
    }

    #[test]
    fn number_formats() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1234567), "1,234,567");
        assert_eq!(human_ms(0.5), "500 µs");
        assert_eq!(human_ms(5.829), "5.8 ms");
        assert_eq!(human_ms(212.0), "212 ms");
        assert_eq!(human_ms(11701.686), "11.7 s");
        assert_eq!(human_bytes(2048), "2,048 B");
        assert_eq!(human_bytes(32766), "32 KiB");
        assert_eq!(human_bytes(262088), "256 KiB");
        assert_eq!(human_rate(819150.0), "819 KB/s");
        assert_eq!(human_rate(32_766_000.0), "32.8 MB/s");
    }

    #[test]
    fn metrics_keep_order_and_round() {
        let mut m = Metrics::default();
        m.set("b", Metric::int(2));
        m.set("a", Metric::num(1.23456));
        m.set("b", Metric::int(3));
        let j = serde_json::to_string(&m).unwrap();
        assert_eq!(j, r#"{"b":3,"a":1.235}"#);
        assert_eq!(Metric::num(f64::NAN), Metric::Null);
        assert_eq!(Metric::num(12.0).display(), "12");
    }

    #[test]
    fn fingerprint_is_stable_and_depends_on_subject_and_paths() {
        let mut a = Finding::new("qtime-growth", Severity::Warning, "t1");
        a.subject.pid = Some(1);
        a.evidence.push(Evidence {
            path: "x/a.FMT".into(),
            line: 3,
            text: "one".into(),
        });
        let mut b = a.clone();
        b.title = "another title".into();
        b.evidence[0].line = 9;
        a.seal();
        b.seal();
        // Title and line numbers do not change the fingerprint.
        assert_eq!(a.fingerprint, b.fingerprint);
        assert!(a.fingerprint.starts_with("qtime-growth:"));
        assert_eq!(a.fingerprint.len(), "qtime-growth:".len() + 16);
        let mut c = a.clone();
        c.subject.pid = Some(2);
        c.seal();
        assert_ne!(a.fingerprint, c.fingerprint);
        let mut d = a.clone();
        d.evidence[0].path = "y/a.FMT".into();
        d.seal();
        assert_ne!(a.fingerprint, d.fingerprint);
        let mut e = a.clone();
        e.key = "AMQ9202".into();
        e.seal();
        assert_ne!(a.fingerprint, e.fingerprint);
    }
}
