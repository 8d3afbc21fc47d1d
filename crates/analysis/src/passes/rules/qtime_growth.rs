//! `qtime-growth`: queue time rising steadily, message after message
//! (trace `QTime(µs)` on a transmission queue) or interval after interval
//! (SMF WQ / QQST). The trend is judged robustly: Theil–Sen slope over a
//! bounded uniform sample, Spearman rank correlation, and the fitted rise;
//! one spike or a noisy series is not a finding.

use mqdiag_model::findings::Part;
use crate::passes::builder::FindingBuilder;
use crate::passes::patterns;
use crate::passes::stats::{Decimated, r_squared, spearman, theil_sen};
use crate::passes::{Pass, RuleInfo, Settings, Threshold};
use mqdiag_model::event::{Event, Key, Kind, Ts};
use mqdiag_model::fileinfo::FileInfo;
use mqdiag_model::findings::{
    Chart, EventRef, Finding, Fit, Metric, Series as ChartSeries, Style, Unit, human_ms, thousands,
};
use mqdiag_model::problem::Severity;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

pub(crate) static RULE: RuleInfo = RuleInfo {
    id: "qtime-growth",
    severity: Severity::Warning,
    summary: "Queue time rising steadily message after message or interval after interval",
    trigger: "Samples of queue time form one series per trace ident (per thread without one) of \
        a trace file, from text lines with `QTime(n)` (n in microseconds, written when a channel \
        gets a message from its transmission queue), and one series per queue manager and queue \
        from SMF rows (`record` WQ or QQST; `qtime_avg_us`, else `qtime_max_us`; zero values are \
        intervals without gets and are skipped). A series is reported when it has at least \
        `min_samples` samples, its Spearman rank correlation with time is at least `min_rho`, \
        and the Theil–Sen line (median of pairwise slopes) rises by at least `min_rise_ms` over \
        the series and ends at least `min_ratio` times higher than it starts (start taken as at \
        least 1 ms). Long series are judged on a uniform sample of at most 512 points; first, \
        last, maximum and count are exact.",
    thresholds: &[
        Threshold::new("min_samples", 10.0, "samples", "fewest samples for a trend"),
        Threshold::new(
            "min_rho",
            0.8,
            "correlation",
            "least Spearman rank correlation of queue time with time",
        )
        .range(-1.0, 1.0),
        Threshold::new(
            "min_rise_ms",
            250.0,
            "ms",
            "least rise of the fitted line over the series",
        ),
        Threshold::new(
            "min_ratio",
            2.0,
            "ratio",
            "least ratio of fitted end to fitted start",
        ),
    ],
    advice: "Messages wait longer and longer: they are put faster than they are taken off. For a \
        transmission queue the channel is the bottleneck (see tcp-send-stall and \
        socket-buffer-size for the same channel, the network round trip, TLS cost, BATCHSZ); for \
        an application queue add or speed up consumers.",
    fingerprint: &[Part::Qmgr, Part::Queue, Part::Host, Part::Program, Part::Key("SMF record")],
    metrics: &["samples", "first_us", "max_us", "last_us", "slope_us_per_s"],
    functions: &[],
    keywords: &["QTime("],
    smf_columns: &["record", "qtime_avg_us", "qtime_max_us", "queue", "qmgr"],
    make: |s| Box::new(QtimeGrowth::new(s)),
    side_by_side: true,
    ..RuleInfo::BASE
};

/// Points kept per series for the slope.
const SAMPLE_CAP: usize = 512;
/// Series tracked at once; more are ignored (and said so in the log).
const MAX_SERIES: usize = 10_000;

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum SeriesKey {
    /// (file, pid, ident or `tid N`)
    Trace(Arc<str>, u32, Arc<str>),
    /// (qmgr, queue)
    Smf(String, String),
}

/// A trace series found by pointer identity (the reader shares one
/// `Arc` per file and per ident); the `Arc`s held keep the addresses from
/// being reused.
#[derive(Clone)]
struct QuickKey {
    path: Arc<str>,
    pid: u32,
    ident: Option<Arc<str>>,
    tid: Option<u32>,
}

impl PartialEq for QuickKey {
    fn eq(&self, o: &Self) -> bool {
        Arc::ptr_eq(&self.path, &o.path)
            && self.pid == o.pid
            && self.tid == o.tid
            && match (&self.ident, &o.ident) {
                (Some(a), Some(b)) => Arc::ptr_eq(a, b),
                (None, None) => true,
                _ => false,
            }
    }
}

impl Eq for QuickKey {}

impl std::hash::Hash for QuickKey {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        (Arc::as_ptr(&self.path) as *const u8 as usize).hash(h);
        self.pid.hash(h);
        self.tid.hash(h);
        self.ident
            .as_ref()
            .map(|i| Arc::as_ptr(i) as *const u8 as usize)
            .hash(h);
    }
}

struct Point {
    ts: Ts,
    us: u64,
    ev: EventRef,
}

impl Point {
    /// This point becomes `e`'s, with no allocation in the common case.
    fn assign(&mut self, e: &Event, us: u64) {
        self.ts = e.ts;
        self.us = us;
        self.ev.assign(e);
    }
}

struct Series {
    t0: Ts,
    first: Point,
    last: Point,
    max: Point,
    n: u64,
    sample: Decimated,
    tid: Option<u32>,
    ident: Option<String>,
    record: Option<String>,
}

pub(crate) struct QtimeGrowth {
    min_samples: u64,
    min_rho: f64,
    min_rise_us: f64,
    min_ratio: f64,
    series: BTreeMap<SeriesKey, Series>,
    recent: HashMap<QuickKey, SeriesKey, rustc_hash::FxBuildHasher>,
}

impl QtimeGrowth {
    pub(crate) fn new(s: &Settings) -> Self {
        QtimeGrowth {
            min_samples: s.get("min_samples") as u64,
            min_rho: s.get("min_rho"),
            min_rise_us: s.get("min_rise_ms") * 1000.0,
            min_ratio: s.get("min_ratio"),
            series: BTreeMap::new(),
            recent: HashMap::default(),
        }
    }

    fn add(&mut self, key: SeriesKey, e: &Event, us: u64, record: Option<&str>) {
        if self.series.len() >= MAX_SERIES && !self.series.contains_key(&key) {
            return;
        }
        let point = || Point {
            ts: e.ts,
            us,
            ev: EventRef::of(e),
        };
        let s = self.series.entry(key).or_insert_with(|| Series {
            t0: e.ts,
            first: point(),
            last: point(),
            max: point(),
            n: 0,
            sample: Decimated::new(SAMPLE_CAP),
            tid: e.tid,
            ident: e.ident.as_deref().map(String::from),
            record: record.map(str::to_string),
        });
        s.n += 1;
        let x = (e.ts - s.t0).num_microseconds().unwrap_or(0) as f64 / 1e6;
        s.sample.push(x, us as f64);
        if us > s.max.us {
            s.max.assign(e, us);
        }
        s.last.assign(e, us);
    }
}

impl Pass for QtimeGrowth {
    fn kinds(&self) -> crate::passes::Kinds {
        crate::passes::Kinds::of(&[Kind::Text, Kind::SmfRecord])
    }

    fn observe(&mut self, e: &Event) {
        match e.kind {
            Kind::Text => {
                let Some(us) = patterns::qtime_us(&e.text) else {
                    return;
                };
                let Some(pid) = e.pid else {
                    return;
                };
                // Most events belong to a series seen just before: found by
                // the identity of their file and ident, with no key built.
                let quick = QuickKey {
                    path: e.origin.path.clone(),
                    pid,
                    ident: e.ident.clone(),
                    tid: e.tid,
                };
                let key = match self.recent.get(&quick) {
                    Some(k) => k.clone(),
                    None => {
                        let who = match (&e.ident, e.tid) {
                            (Some(i), _) => i.to_string(),
                            (None, Some(t)) => format!("tid {t}"),
                            (None, None) => String::new(),
                        };
                        let k = SeriesKey::Trace(e.origin.path.clone(), pid, Arc::from(who));
                        if self.recent.len() < MAX_SERIES {
                            self.recent.insert(quick, k.clone());
                        }
                        k
                    }
                };
                self.add(key, e, us, None);
            }
            Kind::SmfRecord => {
                let Some(rec) = e.get(Key::Record) else {
                    return;
                };
                if rec != "WQ" && rec != "QQST" {
                    return;
                }
                let v = e
                    .get(Key::QtimeAvgUs)
                    .or_else(|| e.get(Key::QtimeMaxUs))
                    .and_then(|v| v.trim().parse::<f64>().ok());
                let Some(v) = v.filter(|v| *v > 0.0) else {
                    return;
                };
                let queue = e.get(Key::Queue).unwrap_or("").trim().to_string();
                let qmgr = e.get(Key::Qmgr).unwrap_or("").trim().to_string();
                if queue.is_empty() {
                    return;
                }
                let rec = rec.to_string();
                self.add(SeriesKey::Smf(qmgr, queue), e, v.round() as u64, Some(&rec));
            }
            _ => {}
        }
    }

    fn finish(&mut self, _inputs: &[FileInfo]) -> Vec<Finding> {
        let mut out = Vec::new();
        for (key, s) in std::mem::take(&mut self.series) {
            if s.n < self.min_samples.max(3) {
                continue;
            }
            let Some(t) = self.trend(&s) else {
                continue;
            };
            let f = FindingBuilder::new(&RULE, RULE.severity, title(&key, &s))
                .span(Some(s.first.ts), Some(s.last.ts), s.n)
                .with(|f| subject(f, &key, &s))
                .metrics([
                    ("samples", Metric::int(s.n)),
                    ("first_us", Metric::int(s.first.us)),
                    ("max_us", Metric::int(s.max.us)),
                    ("last_us", Metric::int(s.last.us)),
                    ("slope_us_per_s", Metric::num(t.b.round())),
                    ("rank_correlation", Metric::num(t.rho)),
                    ("r_squared", t.r2.map(Metric::num).unwrap_or(Metric::Null)),
                    ("span_s", Metric::num(t.span_s)),
                ])
                .evidence([&s.first, &s.max, &s.last].map(|p| p.ev.evidence()))
                .advice(advice(&key, &t))
                .chart(Some(chart(&key, &s, &t)));
            out.push(f.build());
        }
        out
    }
}

/// A series' fitted trend (x in seconds since its t0, y in µs).
struct Trend {
    /// Slope (Theil-Sen), rank correlation, fit quality.
    b: f64,
    rho: f64,
    r2: Option<f64>,
    span_s: f64,
    /// The fitted line at the first and the last sample.
    fit_start: f64,
    fit_end: f64,
}

impl QtimeGrowth {
    /// The series' trend when it is a steady rise worth reporting.
    fn trend(&self, s: &Series) -> Option<Trend> {
        let pts = s.sample.points();
        // The rank correlation first: it is cheap, and a series without a
        // steady rise needs no Theil-Sen slope (all pairs of points).
        let rho = spearman(pts).filter(|rho| *rho >= self.min_rho)?;
        let (a, b) = theil_sen(pts)?;
        let span_s = (s.last.ts - s.first.ts).num_microseconds().unwrap_or(0) as f64 / 1e6;
        let x_first = (s.first.ts - s.t0).num_microseconds().unwrap_or(0) as f64 / 1e6;
        let fit_start = a + b * x_first;
        let fit_end = fit_start + b * span_s;
        let rise = fit_end - fit_start;
        if rise < self.min_rise_us || fit_end < self.min_ratio * fit_start.max(1000.0) {
            return None;
        }
        Some(Trend {
            b,
            rho,
            r2: r_squared(pts, a, b),
            span_s,
            fit_start,
            fit_end,
        })
    }
}

fn title(key: &SeriesKey, s: &Series) -> String {
    let (unit, subject_noun) = match key {
        SeriesKey::Trace(..) => ("message", "messages"),
        SeriesKey::Smf(..) => ("interval", "intervals"),
    };
    format!(
        "Queue time grew from {} to {} over {} {}",
        human_ms(s.first.us as f64 / 1000.0),
        human_ms(s.max.us as f64 / 1000.0),
        thousands(s.n),
        if s.n == 1 { unit } else { subject_noun }
    )
}

fn subject(f: &mut Finding, key: &SeriesKey, s: &Series) {
    match key {
        SeriesKey::Trace(_, pid, _) => {
            f.subject.pid = Some(*pid);
            f.subject.tid = s.tid;
            f.subject.ident = s.ident.clone();
        }
        SeriesKey::Smf(qm, q) => {
            if !qm.is_empty() {
                f.subject.qmgr = Some(qm.clone());
            }
            f.subject.queue = Some(q.clone());
            f.key = s.record.clone().unwrap_or_default();
        }
    }
}

fn advice(key: &SeriesKey, t: &Trend) -> String {
    match key {
        SeriesKey::Trace(..) => format!(
            "Each message waited longer on the transmission queue than the ones before: \
             the queue time rose by {} per second of elapsed time (Theil-Sen slope, rank \
             correlation {:.2}). The channel moves messages slower than they are put. \
             Look at what limits this channel: tcp-send-stall and socket-buffer-size \
             findings for the same process, the network round-trip time, TLS cost, \
             BATCHSZ/BATCHLIM and the receiving side's MQPUT speed.",
            human_ms(t.b / 1000.0),
            t.rho
        ),
        SeriesKey::Smf(..) => format!(
            "The time messages spend on this queue rose interval after interval, by {} \
             per hour (Theil-Sen slope, rank correlation {:.2}): consumers fall behind \
             the producers. Check the getting applications (number of instances, MQGET \
             elapsed times in WQ, waits for locks or log) or, for a transmission queue, \
             the channel's throughput.",
            human_ms(t.b * 3600.0 / 1000.0),
            t.rho
        ),
    }
}

/// Every sampled point with the fitted trend.
fn chart(key: &SeriesKey, s: &Series, t: &Trend) -> Chart {
    // Points back on the clock: x is seconds since the series' t0.
    let at = |x: f64| s.t0 + chrono::Duration::microseconds((x * 1e6).round() as i64);
    Chart {
        title: "Queue time per sample, with the fitted trend".to_string(),
        y_label: "queue time".to_string(),
        unit: Unit::Micros,
        style: Style::Points,
        series: vec![ChartSeries {
            name: match key {
                SeriesKey::Trace(..) => "message".to_string(),
                SeriesKey::Smf(..) => "interval".to_string(),
            },
            points: s
                .sample
                .points()
                .iter()
                .map(|(x, y)| (at(*x), *y))
                .collect(),
        }],
        refs: Vec::new(),
        fit: Some(Fit {
            from: s.first.ts,
            to: s.last.ts,
            y0: t.fit_start,
            y1: t.fit_end,
            label: format!("trend ({}/s)", human_ms(t.b / 1000.0)),
        }),
        bucket_s: 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::passes::testutil::*;

    fn qt(line: u64, ms: u64, us: u64) -> Event {
        let tod = format!(
            "11:{:02}:{:02}.{:06}",
            42 + ms / 60_000,
            (ms / 1000) % 60,
            (ms % 1000) * 1000
        );
        let mut e = trace(
            "x.FMT",
            line,
            &tod,
            9306238,
            433,
            Kind::Text,
            &format!("Empty(FALSE) Inherited(FALSE) QTime({us})"),
        );
        e.ident = Some("RSESS:00011e".into());
        e
    }

    #[test]
    fn linear_growth_with_sawtooth() {
        // 40 messages over 17.3 s, growing ~676 ms per s with a sawtooth.
        let mut ev = Vec::new();
        for i in 0..40u64 {
            let t_ms = i * 17_300 / 39;
            let base = 5829 + (11_696_105 - 5829) * i / 39;
            let jitter = [0i64, 4000, -3000, 2500][(i % 4) as usize];
            let us = if i == 0 {
                5829
            } else if i == 39 {
                11_696_105
            } else {
                (base as i64 + jitter) as u64
            };
            ev.push(qt(100 + i, t_ms, us));
        }
        ev[37] = qt(137, 37 * 17_300 / 39, 11_701_686);
        let out = run(&RULE, &[], &ev);
        assert_eq!(out.len(), 1);
        let f = &out[0];
        assert_eq!(metric(f, "samples"), Metric::Int(40));
        assert_eq!(metric(f, "first_us"), Metric::Int(5829));
        assert_eq!(metric(f, "max_us"), Metric::Int(11_701_686));
        assert_eq!(metric(f, "last_us"), Metric::Int(11_696_105));
        let Metric::Num(slope) = metric(f, "slope_us_per_s") else {
            panic!()
        };
        assert!((slope - 675_720.0).abs() < 2_000.0, "slope {slope}");
        assert_eq!(
            f.title,
            "Queue time grew from 5.8 ms to 11.7 s over 40 messages"
        );
        assert_eq!(f.subject.ident.as_deref(), Some("RSESS:00011e"));
        assert_eq!(f.evidence.len(), 3);
        assert!(f.chart.as_ref().unwrap().points() == 40);
    }

    #[test]
    fn fluctuation_without_trend_is_not_a_finding() {
        let vals = [
            5000u64, 9000, 3000, 8000, 4000, 7000, 12000, 2000, 6000, 9500, 3500, 7500, 4500,
        ];
        let ev: Vec<Event> = (0..60)
            .map(|i| qt(i, i * 300, vals[(i % 13) as usize] * 40))
            .collect();
        assert!(run(&RULE, &[], &ev).is_empty());
    }

    #[test]
    fn one_spike_is_not_a_finding() {
        let mut ev: Vec<Event> = (0..30)
            .map(|i| qt(i, i * 500, 4000 + (i % 3) * 100))
            .collect();
        ev[20] = qt(20, 10_000, 30_000_000);
        assert!(run(&RULE, &[], &ev).is_empty());
    }

    #[test]
    fn small_steady_rise_is_below_the_rise_threshold() {
        // 5 ms -> 12 ms: a trend, but not a problem by default.
        let ev: Vec<Event> = (0..30).map(|i| qt(i, i * 1000, 5000 + i * 240)).collect();
        assert!(run(&RULE, &[], &ev).is_empty());
        assert_eq!(run(&RULE, &[("min_rise_ms", 5.0)], &ev).len(), 1);
    }

    #[test]
    fn smf_series_per_queue() {
        let mut ev = Vec::new();
        for i in 0..12u32 {
            let at = format!("2016-02-27T{:02}:{:02}:00+00:00", 10 + i / 2, (i % 2) * 30);
            let avg = (20_000 + i * 150_000).to_string();
            ev.push(smf(
                "SMF-WQ.csv",
                2 + i as u64,
                &at,
                &[
                    ("record", "WQ"),
                    ("qmgr", "QML1"),
                    ("queue", "APP.REPLY"),
                    ("qtime_avg_us", &avg),
                ],
            ));
            // Another queue stays flat; a putter row has no latency.
            ev.push(smf(
                "SMF-WQ.csv",
                100 + i as u64,
                &at,
                &[
                    ("record", "WQ"),
                    ("qmgr", "QML1"),
                    ("queue", "FLAT"),
                    ("qtime_avg_us", "900"),
                ],
            ));
            ev.push(smf(
                "SMF-WQ.csv",
                200 + i as u64,
                &at,
                &[
                    ("record", "WQ"),
                    ("qmgr", "QML1"),
                    ("queue", "APP.REPLY"),
                    ("qtime_avg_us", "0"),
                ],
            ));
        }
        let out = run(&RULE, &[], &ev);
        assert_eq!(out.len(), 1);
        let f = &out[0];
        assert_eq!(f.subject.queue.as_deref(), Some("APP.REPLY"));
        assert_eq!(f.subject.qmgr.as_deref(), Some("QML1"));
        assert_eq!(metric(f, "samples"), Metric::Int(12));
        assert_eq!(metric(f, "max_us"), Metric::Int(1_670_000));
        // 150 ms per 30 minutes.
        let Metric::Num(slope) = metric(f, "slope_us_per_s") else {
            panic!()
        };
        assert!((slope - 83.0).abs() < 1.0, "{slope}");
        assert!(f.title.ends_with("over 12 intervals"));
    }

    #[test]
    fn huge_series_stays_bounded_and_exact_at_the_ends() {
        let mut p = QtimeGrowth::new(&Settings::defaults(&RULE));
        let t0 = ts("2012-05-04T11:00:00-04:00");
        let mut e = qt(1, 0, 0);
        for i in 0..100_000u64 {
            e.line = i + 1;
            e.ts = t0 + chrono::Duration::milliseconds(i as i64);
            e.text = format!("Empty(FALSE) Inherited(FALSE) QTime({})", 1000 + i * 10);
            p.observe(&e);
        }
        let s = p.series.values().next().unwrap();
        assert!(s.sample.points().len() <= SAMPLE_CAP);
        let out = p.finish(&[]);
        assert_eq!(out.len(), 1);
        assert_eq!(metric(&out[0], "samples"), Metric::Int(100_000));
        assert_eq!(metric(&out[0], "last_us"), Metric::Int(1000 + 99_999 * 10));
        assert_eq!(metric(&out[0], "slope_us_per_s"), Metric::num(10_000.0));
    }
}
