//! A finding's chart: its series, reference lines and fit, and the
//! bounded buffers rules fill while they read (`SeriesBuf`,
//! `ClockCounts`).

use super::*;

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
    pub(crate) fn rename_series(&mut self, mut f: impl FnMut(&str) -> String) {
        for s in &mut self.series {
            s.name = f(&s.name);
        }
    }
}

/// The most points a pass keeps for one chart series.
pub(crate) const MAX_CHART_POINTS: usize = 512;

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
    /// Each name's hash (`name_hash`), beside it: a name is looked for
    /// among the hashes, and compared only on a match (one comparison
    /// of text per name, 64 names for each error record of a case with
    /// thousands of channels, was a tenth of the merge's time in one).
    hashes: Vec<u64>,
    /// The series of the last name given to `add_static`, by its address
    /// and length (the same text, without comparing it).
    last_static: Option<(usize, usize, usize)>,
    /// Names counted apart before the rest share one series; 0 is
    /// `MAX_COUNT_SERIES`. More than a chart shows lets `ranked` pick
    /// the busiest, or one a finding is about, at the end.
    names_cap: usize,
}

/// A series name's hash for `ClockCounts::series`: unkeyed, as a crafted
/// collision costs no more than the comparisons it replaces.
fn name_hash(name: &str) -> u64 {
    use std::hash::BuildHasher;
    rustc_hash::FxBuildHasher.hash_one(name)
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

    /// Count up to `names` names apart (at least `MAX_COUNT_SERIES`), for
    /// `ranked`.
    pub fn with_names(mut self, names: usize) -> ClockCounts {
        self.names_cap = names.max(MAX_COUNT_SERIES);
        self
    }

    /// The slot of the series the names past the cap share.
    fn shared(&self) -> usize {
        if self.names_cap == 0 {
            MAX_COUNT_SERIES
        } else {
            self.names_cap
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
        // A few names are compared as they are; past them, by hash first.
        let found = match self.names.len() <= 4 {
            true => self.names.iter().position(|n| n == name),
            false => {
                let h = name_hash(name);
                let mut at = self.hashes.iter().enumerate().filter(|(_, x)| **x == h);
                at.find(|(i, _)| self.names[*i] == name).map(|(i, _)| i)
            }
        };
        match found {
            Some(i) => i,
            None if self.names.len() < self.shared() => {
                self.names.push(name.to_string());
                self.hashes.push(name_hash(name));
                self.names.len() - 1
            }
            None => self.shared(),
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

    /// Names counted apart, in the order first met.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Every name replaced (for `--redact`).
    pub fn rename(&mut self, mut f: impl FnMut(&str) -> String) {
        for (n, h) in self.names.iter_mut().zip(&mut self.hashes) {
            *n = f(n);
            *h = name_hash(n);
        }
    }

    /// Stacked bars per series, in the narrowest buckets that give at
    /// most `MAX_BARS` bars over the span (weeks at most); `None` when
    /// nothing was counted. `other` names the shared series.
    pub fn chart(self, title: &str, y_label: &str, other: &str) -> Option<Chart> {
        let order: Vec<usize> = (0..self.names.len()).collect();
        self.draw(title, y_label, other, order)
    }

    /// As `chart`, with `focus` (when it was counted apart) as the first
    /// series, then the busiest names, `MAX_COUNT_SERIES` in all; every
    /// other name goes to `other`. A finding's chart then shows its own
    /// subject, however late or rare it was among many.
    pub fn ranked(
        self,
        title: &str,
        y_label: &str,
        other: &str,
        focus: Option<&str>,
    ) -> Option<Chart> {
        let mut totals = vec![0u64; self.names.len()];
        for b in self.counts.chunks(self.stride.max(1)) {
            for (t, v) in totals.iter_mut().zip(b) {
                *t += *v as u64;
            }
        }
        let focus = focus.and_then(|f| self.names.iter().position(|n| n == f));
        let mut order: Vec<usize> = (0..self.names.len()).collect();
        order.sort_by_key(|i| (Some(*i) != focus, std::cmp::Reverse(totals[*i]), *i));
        order.truncate(MAX_COUNT_SERIES);
        self.draw(title, y_label, other, order)
    }

    /// The chart of the named slots in `order`; the shared slot and every
    /// slot not in `order` are summed under `other`.
    fn draw(mut self, title: &str, y_label: &str, other: &str, order: Vec<usize>) -> Option<Chart> {
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
        let names = std::mem::take(&mut self.names);
        let mut shown = vec![false; self.stride.max(names.len())];
        for i in &order {
            shown[*i] = true;
        }
        let point = |k: &i64, n: u64| {
            let t = chrono::DateTime::from_timestamp(*k, 0)?.with_timezone(&off);
            (n > 0).then_some((t, n as f64))
        };
        let mut series: Vec<Series> = order
            .iter()
            .map(|&i| Series {
                name: names[i].clone(),
                points: self
                    .keys
                    .iter()
                    .enumerate()
                    .filter_map(|(b, k)| {
                        point(k, self.bucket(b).get(i).copied().unwrap_or(0) as u64)
                    })
                    .collect(),
            })
            .collect();
        let rest: Vec<(chrono::DateTime<chrono::FixedOffset>, f64)> = self
            .keys
            .iter()
            .enumerate()
            .filter_map(|(b, k)| {
                let n: u64 = self
                    .bucket(b)
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| !shown[*i])
                    .map(|(_, v)| *v as u64)
                    .sum();
                point(k, n)
            })
            .collect();
        if !rest.is_empty() {
            series.push(Series {
                name: other.to_string(),
                points: rest,
            });
        }
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
    fn a_renamed_series_is_found_by_its_new_name() {
        let t0 = crate::timefmt::parse_offset("Z")
            .unwrap()
            .with_ymd_and_hms(2026, 1, 2, 3, 4, 5)
            .unwrap();
        let mut cc = ClockCounts::new(60);
        for n in ["CH.A", "CH.B", "CH.A"] {
            cc.add(&t0, n);
        }
        cc.rename(|n| n.replace("CH.", "channel-"));
        cc.add(&t0, "channel-B");
        cc.add(&t0, "CH.A");
        assert_eq!(cc.names(), ["channel-A", "channel-B", "CH.A"]);
        assert_eq!(cc.bucket(0), [2, 2, 1]);
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
}
