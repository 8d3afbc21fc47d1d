//! Inline SVG drawing for the HTML report: clock-time axes, value axes in
//! human units, point and stacked-bar charts with legends, reference lines
//! and a fitted trend. The case overview is in `overview.rs`.
//! Plain strings, no scripts: the report must open offline and print.

use crate::escape::html as esc;
use chrono::{DateTime, FixedOffset};
use mqdiag_model::event::Ts;
use mqdiag_model::findings::{Chart, Style, Unit, thousands};
use std::fmt::Write as _;

/// Drawing width in SVG units; the element scales down to its container
/// (`width:100%`), so it fits a 1280-pixel window and a printed page.
pub(super) const W: f64 = 960.0;

/// Colours that stay apart for the common colour-vision deficiencies.
pub(super) const PALETTE: [&str; 8] = [
    "#1e6fd9", "#e08a00", "#2e7d32", "#8e24aa", "#00838f", "#c2185b", "#6d4c41", "#546e7a",
];

/// One tick on an axis: position (µs since the epoch, or a value) and label.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Tick<T> {
    pub(crate) at: T,
    pub(crate) label: String,
}

/// A clock-time axis: `lo`..`hi` in µs since the epoch, ticks at round
/// local times of `offset`, and a title that states the offset (and the
/// date when all ticks fall on one day).
#[derive(Debug, Clone)]
pub(crate) struct TimeAxis {
    pub(crate) lo: i64,
    pub(crate) hi: i64,
    pub(crate) ticks: Vec<Tick<i64>>,
    pub(crate) title: String,
}

const MS: i64 = 1_000;
pub(super) const SEC: i64 = 1_000_000;
pub(super) const MIN: i64 = 60 * SEC;
pub(super) const HOUR: i64 = 60 * MIN;
pub(super) const DAY: i64 = 24 * HOUR;

/// Tick steps a person reads easily on a clock.
const TIME_STEPS: [i64; 30] = [
    MS,
    2 * MS,
    5 * MS,
    10 * MS,
    20 * MS,
    50 * MS,
    100 * MS,
    200 * MS,
    500 * MS,
    SEC,
    2 * SEC,
    5 * SEC,
    10 * SEC,
    15 * SEC,
    30 * SEC,
    MIN,
    2 * MIN,
    5 * MIN,
    10 * MIN,
    15 * MIN,
    30 * MIN,
    HOUR,
    2 * HOUR,
    3 * HOUR,
    6 * HOUR,
    12 * HOUR,
    DAY,
    2 * DAY,
    7 * DAY,
    28 * DAY,
];

/// At most this many time ticks (about 110 units apart at full width).
const MAX_TIME_TICKS: i64 = 8;

fn wall(us: i64) -> Option<chrono::NaiveDateTime> {
    DateTime::from_timestamp_micros(us).map(|d| d.naive_utc())
}

impl TimeAxis {
    /// `lo` and `hi` in µs since the epoch; shown in `offset`'s local time.
    pub(crate) fn new(mut lo: i64, mut hi: i64, offset: FixedOffset) -> TimeAxis {
        if hi < lo {
            std::mem::swap(&mut lo, &mut hi);
        }
        if hi - lo < MS {
            // One instant: a second around it, so the point has a place.
            lo = lo.saturating_sub(SEC / 2);
            hi = hi.saturating_add(SEC / 2);
        }
        let span = hi.saturating_sub(lo);
        let mut step = TIME_STEPS
            .iter()
            .copied()
            .find(|s| span / s < MAX_TIME_TICKS)
            .unwrap_or(28 * DAY);
        if span / step >= MAX_TIME_TICKS {
            step *= span / step / MAX_TIME_TICKS + 1;
        }
        let off = offset.local_minus_utc() as i64 * SEC;
        let (llo, lhi) = (lo.saturating_add(off), hi.saturating_add(off));
        let fmt = if step < SEC {
            "%H:%M:%S%.3f"
        } else if step < MIN {
            "%H:%M:%S"
        } else if step < DAY {
            "%H:%M"
        } else {
            "%Y-%m-%d"
        };
        let day = |us: i64| wall(us).map(|d| d.date());
        let one_day = day(llo) == day(lhi);
        let mut ticks = Vec::new();
        let mut t = llo.div_euclid(step) * step;
        if t < llo {
            t += step;
        }
        let mut prev_day = None;
        while t <= lhi && ticks.len() < 64 {
            if let Some(d) = wall(t) {
                let mut label = d.format(fmt).to_string();
                // Where the span crosses midnight, each new day's first
                // tick carries the date.
                if !one_day && step < DAY && prev_day != Some(d.date()) {
                    label = format!("{} {label}", d.format("%m-%d"));
                }
                prev_day = Some(d.date());
                ticks.push(Tick { at: t - off, label });
            }
            t += step;
        }
        let zone = mqdiag_model::timefmt::offset_str(offset);
        let title = match (one_day, wall(llo)) {
            (true, Some(d)) => format!("time on {} (UTC{zone})", d.format("%Y-%m-%d")),
            _ => format!("time (UTC{zone})"),
        };
        TimeAxis {
            lo,
            hi,
            ticks,
            title,
        }
    }

    /// The axis between two instants (the tests' way to make one).
    #[cfg(test)]
    fn of(lo: &Ts, hi: &Ts) -> TimeAxis {
        TimeAxis::new(lo.timestamp_micros(), hi.timestamp_micros(), *lo.offset())
    }

    /// Where `us` falls between 0 (lo) and 1 (hi).
    pub(crate) fn frac(&self, us: i64) -> f64 {
        (us.saturating_sub(self.lo)) as f64 / (self.hi.saturating_sub(self.lo)).max(1) as f64
    }
}

/// A value axis from 0 in a human unit chosen from the largest value:
/// microseconds shown as ms or s, bytes as KiB or MiB.
#[derive(Debug, Clone)]
pub(crate) struct ValueAxis {
    /// The axis end, in the chart's raw unit.
    pub(crate) top: f64,
    pub(crate) ticks: Vec<Tick<f64>>,
    /// The display unit (`ms`), empty for counts.
    pub(crate) unit: &'static str,
}

/// A round step (1, 2 or 5 times a power of ten) giving at most about
/// six intervals up to `max`, and the axis end it implies.
pub(crate) fn nice_axis(max: f64) -> (f64, f64) {
    let max = if max.is_finite() && max > 0.0 {
        max
    } else {
        1.0
    };
    let raw = max / 6.0;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw * (1.0 - 1e-9))
        .unwrap_or(10.0 * mag);
    (step, ((max / step) - 1e-9).ceil().max(1.0) * step)
}

/// A number for a tick: at most three decimals, no trailing zeros, and
/// thousands separators on whole numbers.
pub(crate) fn num(v: f64) -> String {
    if v.fract().abs() < 1e-9 && v.abs() < 9e15 {
        let n = v.round() as i64;
        let s = thousands(n.unsigned_abs());
        if n < 0 { format!("-{s}") } else { s }
    } else {
        let t = format!("{v:.3}");
        t.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

impl ValueAxis {
    pub(crate) fn new(max: f64, unit: Unit) -> ValueAxis {
        let max = if max.is_finite() && max > 0.0 {
            max
        } else {
            1.0
        };
        let (div, name) = match unit {
            Unit::Micros => duration_unit(max),
            Unit::Millis => {
                let (d, n) = duration_unit(max * 1000.0);
                (d / 1000.0, n)
            }
            Unit::Bytes => {
                if max < 10.0 * 1024.0 {
                    (1.0, "B")
                } else if max < 10.0 * 1024.0 * 1024.0 {
                    (1024.0, "KiB")
                } else if max < 10.0 * 1024.0 * 1024.0 * 1024.0 {
                    (1024.0 * 1024.0, "MiB")
                } else {
                    (1024.0 * 1024.0 * 1024.0, "GiB")
                }
            }
            Unit::Count => (1.0, ""),
        };
        let (mut step, mut top) = nice_axis(max / div);
        if unit == Unit::Count && step < 1.0 {
            // Counts are whole: no `0.5 errors` tick.
            step = 1.0;
            top = top.ceil().max(1.0);
        }
        let mut ticks = Vec::new();
        let mut i = 0.0;
        while i * step <= top * (1.0 + 1e-9) && ticks.len() < 12 {
            let v = i * step;
            ticks.push(Tick {
                at: v * div,
                label: if name.is_empty() {
                    num(v)
                } else {
                    format!("{} {name}", num(v))
                },
            });
            i += 1.0;
        }
        ValueAxis {
            top: top * div,
            ticks,
            unit: name,
        }
    }

    pub(crate) fn frac(&self, v: f64) -> f64 {
        if v.is_finite() {
            (v / self.top).clamp(0.0, 1.0)
        } else {
            0.0
        }
    }
}

/// (microseconds per display unit, its name) for durations up to `max_us`.
fn duration_unit(max_us: f64) -> (f64, &'static str) {
    if max_us < 1_000.0 {
        (1.0, "µs")
    } else if max_us < 2_000_000.0 {
        (1_000.0, "ms")
    } else if max_us < 600_000_000.0 {
        (1_000_000.0, "s")
    } else {
        (60_000_000.0, "min")
    }
}

/// `per 5 min` for a bucket width in seconds.
pub(crate) fn per(bucket_s: i64) -> String {
    match bucket_s {
        s if s <= 1 => "per second".to_string(),
        s if s < 60 => format!("per {s} s"),
        60 => "per minute".to_string(),
        s if s < 3600 && s % 60 == 0 => format!("per {} min", s / 60),
        3600 => "per hour".to_string(),
        s if s < 86_400 && s % 3600 == 0 => format!("per {} h", s / 3600),
        86_400 => "per day".to_string(),
        604_800 => "per week".to_string(),
        s => format!("per {s} s"),
    }
}

/// The plot area inside the drawing.
pub(super) struct Frame {
    pub(super) l: f64,
    pub(super) r: f64,
    pub(super) t: f64,
    pub(super) b: f64,
}

impl Frame {
    pub(super) fn x(&self, f: f64) -> f64 {
        self.l + f * (self.r - self.l)
    }
    fn y(&self, f: f64) -> f64 {
        self.b - f * (self.b - self.t)
    }
}

pub(super) fn open_svg(s: &mut String, h: f64, label: &str) {
    let _ = write!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" viewBox=\"0 0 {W} {h}\" \
         width=\"{W}\" height=\"{h}\" role=\"img\" aria-label=\"{0}\"><title>{0}</title>",
        esc(label)
    );
}

pub(super) fn text(s: &mut String, x: f64, y: f64, anchor: &str, extra: &str, body: &str) {
    let _ = write!(
        s,
        "<text x=\"{x:.1}\" y=\"{y:.1}\" text-anchor=\"{anchor}\"{extra}>{}</text>",
        esc(body)
    );
}

pub(super) fn time_ticks(s: &mut String, ax: &TimeAxis, f: &Frame, grid_top: f64) {
    for t in &ax.ticks {
        let x = f.x(ax.frac(t.at));
        let _ = write!(
            s,
            "<line x1=\"{x:.1}\" y1=\"{grid_top:.1}\" x2=\"{x:.1}\" y2=\"{:.1}\" class=\"grid\"/>",
            f.b + 4.0
        );
        // A label at the drawing's edge is kept inside it.
        let w = 3.4 * t.label.chars().count() as f64;
        let (lx, anchor) = if x + w > W - 2.0 {
            (W - 2.0, "end")
        } else if x - w < 2.0 {
            (2.0, "start")
        } else {
            (x, "middle")
        };
        text(s, lx, f.b + 17.0, anchor, "", &t.label);
    }
    text(
        s,
        (f.l + f.r) / 2.0,
        f.b + 36.0,
        "middle",
        " class=\"axis-title\"",
        &ax.title,
    );
}

/// About how wide a legend label is at the 11-unit font.
fn label_width(label: &str) -> f64 {
    7.2 * label.chars().count() as f64
}

/// Legend entries laid out left to right from `x` at `y`, wrapping before
/// the right edge: (colour, dashed, label); a dashed entry is drawn as a
/// line, the others as a square. Returns the number of rows used.
pub(super) fn legend(s: &mut String, x0: f64, y0: f64, items: &[(String, bool, String)]) -> usize {
    let (mut x, mut y, mut rows) = (x0, y0, 1);
    for (colour, dashed, label) in items {
        let w = 34.0 + label_width(label);
        if x > x0 && x + w > W - 8.0 {
            x = x0;
            y += 16.0;
            rows += 1;
        }
        if *dashed {
            let _ = write!(
                s,
                "<line x1=\"{x:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"{colour}\" stroke-width=\"2\" stroke-dasharray=\"5 3\"/>",
                y - 4.0,
                x + 18.0,
                y - 4.0
            );
        } else {
            let _ = write!(
                s,
                "<rect x=\"{x:.1}\" y=\"{:.1}\" width=\"10\" height=\"10\" fill=\"{colour}\"/>",
                y - 9.0
            );
        }
        text(s, x + 22.0, y, "start", "", label);
        x += w;
    }
    rows
}

/// A finding's chart as an SVG element; empty when it has nothing to show.
pub(crate) fn chart(c: &Chart) -> String {
    chart_scaled(c, 0.0)
}

/// The tallest value `c` draws: the highest point, or the tallest stack of
/// bars. Two charts drawn side by side share `max` of theirs as a floor.
pub(crate) fn data_max(c: &Chart) -> f64 {
    let pts = c
        .series
        .iter()
        .flat_map(|s| s.points.iter())
        .filter(|p| p.1.is_finite());
    if c.style == Style::Bars {
        let mut totals: std::collections::BTreeMap<i64, f64> = Default::default();
        for p in pts {
            *totals.entry(p.0.timestamp_micros()).or_default() += p.1.max(0.0);
        }
        totals.values().copied().fold(0.0, f64::max)
    } else {
        pts.map(|p| p.1).fold(0.0, f64::max)
    }
}

/// As `chart`, with the value axis reaching at least `y_floor` (charts
/// compared side by side on one scale).
pub(crate) fn chart_scaled(c: &Chart, y_floor: f64) -> String {
    let pts = || {
        c.series
            .iter()
            .flat_map(|s| s.points.iter())
            .filter(|p| p.1.is_finite())
    };
    let (Some(lo), Some(hi)) = (pts().map(|p| p.0).min(), pts().map(|p| p.0).max()) else {
        return String::new();
    };
    let bucket_us = c.bucket_s.max(1).saturating_mul(SEC);
    let bars = c.style == Style::Bars;
    // Data extent; bars reach to the end of their bucket.
    let (mut lo_us, mut hi_us) = (lo.timestamp_micros(), hi.timestamp_micros());
    if bars {
        hi_us = hi_us.saturating_add(bucket_us);
    }
    if let Some(fit) = &c.fit {
        lo_us = lo_us.min(fit.from.timestamp_micros());
        hi_us = hi_us.max(fit.to.timestamp_micros());
    }
    // Stacked bars: the tallest bucket's total.
    let data_max = data_max(c);
    // A reference line far above the data would flatten it: such a line
    // is only named in the legend.
    let shown_refs: Vec<_> = c
        .refs
        .iter()
        .filter(|r| r.value.is_finite() && r.value > 0.0 && r.value <= 3.0 * data_max.max(1e-9))
        .collect();
    let mut y_max = shown_refs
        .iter()
        .map(|r| r.value * 1.1)
        .fold(data_max, f64::max);
    if let Some(fit) = &c.fit {
        y_max = y_max.max(fit.y0).max(fit.y1);
    }
    if y_floor.is_finite() {
        y_max = y_max.max(y_floor);
    }
    // Room around the data: points are not drawn on the frame, and a few
    // bars do not fill the whole width (a single bar would look like a
    // wall).
    let span = hi_us.saturating_sub(lo_us);
    let pad = if bars {
        (bucket_us.saturating_mul(12).saturating_sub(span) / 2).max(0)
    } else {
        (span / 30).max(1)
    };
    let (lo_us, hi_us) = (lo_us.saturating_sub(pad), hi_us.saturating_add(pad));
    let tax = TimeAxis::new(lo_us, hi_us, *lo.offset());
    let vax = ValueAxis::new(y_max, c.unit);
    // The legend first: its rows decide where the plot starts.
    let mut items: Vec<(String, bool, String)> = c
        .series
        .iter()
        .enumerate()
        .map(|(i, ser)| {
            (
                PALETTE[i % PALETTE.len()].to_string(),
                false,
                ser.name.clone(),
            )
        })
        .collect();
    if let Some(fit) = &c.fit {
        items.push(("#c62828".to_string(), true, fit.label.clone()));
    }
    for r in &c.refs {
        let shown = shown_refs.iter().any(|x| std::ptr::eq(*x, r));
        let label = if shown {
            r.label.clone()
        } else {
            format!("{} (above the scale)", r.label)
        };
        items.push(("#444".to_string(), true, label));
    }
    let mut leg = String::new();
    let rows = legend(&mut leg, 78.0, 42.0, &items);
    let extra = 16.0 * (rows - 1) as f64;
    let h = 320.0 + extra;
    let f = Frame {
        l: 78.0,
        r: W - 24.0,
        t: 56.0 + extra,
        b: h - 50.0,
    };
    let mut s = String::with_capacity(4096 + 60 * c.points());
    open_svg(&mut s, h, &c.title);
    text(
        &mut s,
        f.l,
        20.0,
        "start",
        " class=\"chart-title\"",
        &c.title,
    );
    s.push_str(&leg);
    // Value grid and labels.
    for t in &vax.ticks {
        let y = f.y(vax.frac(t.at));
        let _ = write!(
            s,
            "<line x1=\"{:.1}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" class=\"grid\"/>",
            f.l - 4.0,
            f.r
        );
        text(&mut s, f.l - 7.0, y + 4.0, "end", "", &t.label);
    }
    let y_title = if bars {
        format!("{} {}", c.y_label, per(c.bucket_s))
    } else if vax.unit.is_empty() {
        c.y_label.clone()
    } else {
        format!("{} ({})", c.y_label, vax.unit)
    };
    let ym = (f.t + f.b) / 2.0;
    text(
        &mut s,
        16.0,
        ym,
        "middle",
        &format!(" class=\"axis-title\" transform=\"rotate(-90 16 {ym:.1})\""),
        &y_title,
    );
    time_ticks(&mut s, &tax, &f, f.t);
    let _ = write!(
        s,
        "<path d=\"M{:.1} {:.1}V{:.1}H{:.1}\" class=\"axis\"/>",
        f.l, f.t, f.b, f.r
    );
    let x_of = |t: &Ts| f.x(tax.frac(t.timestamp_micros()));
    if bars {
        let bw = ((f.r - f.l) * bucket_us as f64 / (tax.hi - tax.lo).max(1) as f64 - 1.0).max(1.0);
        let mut base: std::collections::BTreeMap<i64, f64> = Default::default();
        for (i, ser) in c.series.iter().enumerate() {
            let colour = PALETTE[i % PALETTE.len()];
            for (t, v) in ser.points.iter().filter(|p| p.1.is_finite() && p.1 > 0.0) {
                let b0 = base.entry(t.timestamp_micros()).or_default();
                let (y0, y1) = (f.y(vax.frac(*b0)), f.y(vax.frac(*b0 + v)));
                *b0 += v;
                let _ = write!(
                    s,
                    "<rect x=\"{:.1}\" y=\"{y1:.1}\" width=\"{bw:.1}\" height=\"{:.1}\" fill=\"{colour}\"><title>{} {}: {}</title></rect>",
                    x_of(t),
                    (y0 - y1).max(0.5),
                    esc(&ser.name),
                    t.format("%Y-%m-%d %H:%M:%S"),
                    num(*v)
                );
            }
        }
    } else {
        for (i, ser) in c.series.iter().enumerate() {
            let colour = PALETTE[i % PALETTE.len()];
            let _ = write!(s, "<g fill=\"{colour}\" fill-opacity=\"0.75\">");
            for (t, v) in ser.points.iter().filter(|p| p.1.is_finite()) {
                let _ = write!(
                    s,
                    "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"2.6\"/>",
                    x_of(t),
                    f.y(vax.frac(*v))
                );
            }
            s.push_str("</g>");
        }
    }
    if let Some(fit) = &c.fit {
        let _ = write!(
            s,
            "<line x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"#c62828\" stroke-width=\"2\" stroke-dasharray=\"6 4\"/>",
            x_of(&fit.from),
            f.y(vax.frac(fit.y0)),
            x_of(&fit.to),
            f.y(vax.frac(fit.y1))
        );
    }
    for r in &shown_refs {
        let y = f.y(vax.frac(r.value));
        let _ = write!(
            s,
            "<line x1=\"{:.1}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" stroke=\"#444\" stroke-width=\"1.5\" stroke-dasharray=\"2 3\"/>",
            f.l, f.r
        );
        text(
            &mut s,
            f.r - 4.0,
            y - 5.0,
            "end",
            " class=\"ref\"",
            &r.label,
        );
    }
    s.push_str("</svg>");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use mqdiag_model::findings::{Fit, RefLine, Series};

    fn ts(s: &str) -> Ts {
        DateTime::parse_from_rfc3339(s).unwrap()
    }

    #[test]
    fn time_ticks_are_round_clock_times_in_the_source_offset() {
        let a = TimeAxis::of(
            &ts("2026-11-25T11:42:07.300+01:00"),
            &ts("2026-11-25T11:47:55+01:00"),
        );
        let labels: Vec<&str> = a.ticks.iter().map(|t| t.label.as_str()).collect();
        assert_eq!(labels, ["11:43", "11:44", "11:45", "11:46", "11:47"]);
        assert_eq!(a.title, "time on 2026-11-25 (UTC+01:00)");
        assert!(a.ticks.iter().all(|t| t.at >= a.lo && t.at <= a.hi));
        // Sub-second spans get millisecond ticks.
        let a = TimeAxis::of(
            &ts("2026-11-25T11:42:07.000Z"),
            &ts("2026-11-25T11:42:07.300Z"),
        );
        assert_eq!(a.ticks[1].label, "11:42:07.050");
        assert!(a.title.ends_with("(UTC+00:00)"));
        // Seconds.
        let a = TimeAxis::of(&ts("2026-11-25T11:42:07Z"), &ts("2026-11-25T11:42:37Z"));
        assert_eq!(a.ticks[0].label, "11:42:10");
    }

    #[test]
    fn time_ticks_carry_the_date_across_midnight() {
        let a = TimeAxis::of(
            &ts("2026-11-25T21:00:00-05:00"),
            &ts("2026-11-26T03:00:00-05:00"),
        );
        let labels: Vec<&str> = a.ticks.iter().map(|t| t.label.as_str()).collect();
        assert_eq!(labels[0], "11-25 21:00");
        assert!(labels.contains(&"11-26 00:00"), "{labels:?}");
        assert!(labels.contains(&"01:00") || labels.contains(&"02:00"));
        assert_eq!(a.title, "time (UTC-05:00)");
        // Weeks: dates alone.
        let a = TimeAxis::of(&ts("2026-11-01T00:00:00Z"), &ts("2026-11-25T00:00:00Z"));
        assert!(a.ticks.len() <= 8 && a.ticks.len() >= 2);
        assert!(a.ticks[0].label.starts_with("2026-11-"));
    }

    #[test]
    fn one_instant_and_reversed_spans_have_an_axis() {
        let t = ts("2026-11-25T11:42:07Z");
        let a = TimeAxis::of(&t, &t);
        assert!(a.hi > a.lo);
        assert!(!a.ticks.is_empty());
        let b = TimeAxis::new(a.hi, a.lo, *t.offset());
        assert_eq!((b.lo, b.hi), (a.lo, a.hi));
        // Extremes do not overflow or loop for ever.
        let c = TimeAxis::new(i64::MIN / 4, i64::MAX / 4, *t.offset());
        assert!(c.ticks.len() <= 64);
    }

    #[test]
    fn value_ticks_in_human_units() {
        let v = ValueAxis::new(11_701_686.0, Unit::Micros);
        assert_eq!(v.unit, "s");
        let labels: Vec<&str> = v.ticks.iter().map(|t| t.label.as_str()).collect();
        assert_eq!(labels, ["0 s", "2 s", "4 s", "6 s", "8 s", "10 s", "12 s"]);
        assert_eq!(v.top, 12_000_000.0);
        let v = ValueAxis::new(212.0, Unit::Millis);
        assert_eq!(v.unit, "ms");
        assert_eq!(v.ticks.last().unwrap().label, "250 ms");
        let v = ValueAxis::new(300.0, Unit::Micros);
        assert_eq!(v.unit, "µs");
        let v = ValueAxis::new(262_088.0, Unit::Bytes);
        assert_eq!(v.ticks.last().unwrap().label, "300 KiB");
        let v = ValueAxis::new(3.0, Unit::Count);
        let labels: Vec<&str> = v.ticks.iter().map(|t| t.label.as_str()).collect();
        assert_eq!(labels, ["0", "1", "2", "3"]);
        let v = ValueAxis::new(12_345.0, Unit::Count);
        assert_eq!(v.ticks.last().unwrap().label, "15,000");
        // Nothing, NaN and huge values still give a finite axis.
        for m in [0.0, f64::NAN, -5.0, f64::INFINITY] {
            let v = ValueAxis::new(m, Unit::Micros);
            assert!(v.top.is_finite() && v.top > 0.0);
        }
        let v = ValueAxis::new(1e300, Unit::Count);
        assert!(v.top >= 1e300 && v.ticks.len() <= 12);
        assert_eq!(v.frac(f64::NAN), 0.0);
        assert_eq!(v.frac(1e301), 1.0);
    }

    #[test]
    fn nice_steps() {
        assert_eq!(nice_axis(10.0), (2.0, 10.0));
        assert_eq!(nice_axis(11.0), (2.0, 12.0));
        assert_eq!(nice_axis(0.7), (0.2, 0.8));
        assert_eq!(num(1234.0), "1,234");
        assert_eq!(num(0.25), "0.25");
        assert_eq!(num(-3.0), "-3");
        assert_eq!(per(60), "per minute");
        assert_eq!(per(300), "per 5 min");
        assert_eq!(per(3600), "per hour");
        assert_eq!(per(604_800), "per week");
    }

    fn series(name: &str, pts: &[(&str, f64)]) -> Series {
        Series {
            name: name.to_string(),
            points: pts.iter().map(|(t, v)| (ts(t), *v)).collect(),
        }
    }

    #[test]
    fn chart_has_axes_legend_reference_and_escapes() {
        let c = Chart {
            title: "Send waits <&>".into(),
            y_label: "wait".into(),
            unit: Unit::Micros,
            style: Style::Points,
            series: vec![series(
                "pid 1 \"x\"",
                &[
                    ("2026-11-25T11:42:07Z", 180_000.0),
                    ("2026-11-25T11:42:09Z", 210_000.0),
                ],
            )],
            refs: vec![RefLine {
                value: 200_000.0,
                label: "delayed ACK 200 ms".into(),
            }],
            fit: None,
            bucket_s: 0,
        };
        let s = chart(&c);
        assert!(s.starts_with("<svg") && s.ends_with("</svg>"));
        assert!(s.contains("Send waits &lt;&amp;&gt;"));
        assert!(s.contains("pid 1 &quot;x&quot;"));
        assert!(!s.contains("<&>"));
        assert!(s.contains("delayed ACK 200 ms"));
        assert!(s.contains("wait (ms)"));
        assert!(s.contains(">11:42:08.000<"), "{s}");
        assert_eq!(s.matches("<circle").count(), 2);
        assert!(s.contains("time on 2026-11-25 (UTC+00:00)"));
    }

    #[test]
    fn chart_edge_cases() {
        let mut c = Chart {
            title: "t".into(),
            y_label: "v".into(),
            ..Default::default()
        };
        assert_eq!(chart(&c), "");
        c.series = vec![series("one", &[("2026-11-25T11:42:07Z", 5.0)])];
        let s = chart(&c);
        assert_eq!(s.matches("<circle").count(), 1);
        c.series = vec![series(
            "huge",
            &[
                ("2026-11-25T11:42:07Z", 1e300),
                ("2026-11-25T11:42:08Z", f64::NAN),
                ("2026-11-25T11:42:09Z", 0.0),
            ],
        )];
        c.refs = vec![RefLine {
            value: 200.0,
            label: "ref".into(),
        }];
        let s = chart(&c);
        assert!(!s.contains("NaN") && !s.contains("inf"));
        assert_eq!(s.matches("<circle").count(), 2);
        assert!(s.contains("ref (above the scale)") || s.contains(">ref<"));
        // A fit and bars.
        c.style = Style::Bars;
        c.bucket_s = 60;
        c.fit = Some(Fit {
            from: ts("2026-11-25T11:42:07Z"),
            to: ts("2026-11-25T11:50:07Z"),
            y0: 1.0,
            y1: 2.0,
            label: "trend".into(),
        });
        c.series = vec![
            series("A", &[("2026-11-25T11:42:00Z", 3.0)]),
            series("B", &[("2026-11-25T11:42:00Z", 2.0)]),
        ];
        let s = chart(&c);
        // Two bars and the two series' legend squares.
        assert_eq!(s.matches("<rect x").count(), 2 + 2);
        assert!(s.contains("v per minute"));
        assert!(s.contains(">trend<"));
    }
}
