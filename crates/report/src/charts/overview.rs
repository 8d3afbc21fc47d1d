//! The case overview: one lane per input file with its events over time,
//! and above the lanes a strip where each finding is a bar from its first
//! to its last time, numbered as in the report. Bars are packed into rows
//! so that no two bars or numbers overlap, however many findings share a
//! time; findings that find no room are counted under the chart (their
//! number is in the list). Bands across the lanes are not drawn: on one
//! long file, dozens of findings spanning it tinted every lane.

use super::svg::{
    DAY, Frame, HOUR, MIN, PALETTE, TimeAxis, W, legend, num, open_svg, text, time_ticks,
};
use crate::escape::html as esc;
use mqdiag_model::event::{FormatFamily, Ts};
use mqdiag_model::findings::thousands;
use mqdiag_model::problem::Severity;
use std::fmt::Write as _;

/// One overview lane: an input file (or several) and its events per bucket.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Lane {
    pub(crate) name: String,
    /// The format family, which picks the colour and legend.
    pub(crate) kind: FormatFamily,
    pub(crate) counts: Vec<u64>,
}

/// A finding drawn on the overview: its number in the report, severity
/// and time range.
#[derive(Debug, Clone)]
pub(crate) struct Marker {
    pub(crate) n: usize,
    pub(crate) severity: Severity,
    pub(crate) rule: String,
    pub(crate) first: Ts,
    pub(crate) last: Ts,
}

/// Rows of finding bars at most; past them a finding is counted, not drawn.
const ROWS: usize = 10;
const ROW_H: f64 = 13.0;
/// About how wide a digit of a finding's number is at its bold 11-unit font.
const DIGIT_W: f64 = 7.0;
/// Room kept between two things on one row.
const GAP: f64 = 4.0;

/// Lane colours stay clear of the severity colours (red, orange, blue
/// bars) except trace blue.
fn kind_colour(kind: FormatFamily) -> &'static str {
    match kind {
        FormatFamily::Trace => PALETTE[0],
        FormatFamily::ErrorLog => PALETTE[4],
        FormatFamily::Smf => PALETTE[2],
        FormatFamily::JobLog => PALETTE[3],
        FormatFamily::Fdc => PALETTE[6],
        FormatFamily::Config | FormatFamily::Other => PALETTE[7],
    }
}

fn severity_colour(s: Severity) -> &'static str {
    match s {
        Severity::Error => "#c62828",
        Severity::Warning => "#e08a00",
        Severity::Info => "#1e6fd9",
    }
}

/// Where a finding's bar and number go.
struct Placed<'a> {
    m: &'a Marker,
    row: usize,
    x0: f64,
    x1: f64,
    /// The number's anchor (`start`) x.
    label_x: f64,
}

/// Each finding, in report order (most severe first, so they get the top
/// rows), goes to the first row where its bar and number overlap nothing.
fn pack<'a>(markers: &'a [Marker], x: impl Fn(&Ts) -> f64, right: f64) -> (Vec<Placed<'a>>, usize) {
    let mut order: Vec<&Marker> = markers.iter().collect();
    order.sort_by_key(|m| m.n);
    let mut rows: Vec<Vec<(f64, f64)>> = vec![Vec::new(); ROWS];
    let mut placed = Vec::new();
    let mut left_out = 0;
    for m in order {
        let x0 = x(&m.first);
        let x1 = x(&m.last).max(x0 + 3.0);
        let w = DIGIT_W * m.n.to_string().len() as f64;
        // The number after the bar, or before it at the right edge.
        let label_x = if x1 + 3.0 + w <= right {
            x1 + 3.0
        } else {
            x0 - 3.0 - w
        };
        let lo = x0.min(label_x) - GAP / 2.0;
        let hi = x1.max(label_x + w) + GAP / 2.0;
        match rows
            .iter()
            .position(|r| r.iter().all(|(a, b)| hi <= *a || lo >= *b))
        {
            Some(row) => {
                rows[row].push((lo, hi));
                placed.push(Placed {
                    m,
                    row,
                    x0,
                    x1,
                    label_x,
                });
            }
            None => left_out += 1,
        }
    }
    (placed, left_out)
}

/// The case overview: one lane per input, bars of events per time bucket
/// (scaled to the lane's own peak, which is printed), and the findings as
/// numbered bars above the lanes.
pub(crate) fn overview(t0: &Ts, bucket_us: i64, lanes: &[Lane], markers: &[Marker]) -> String {
    let used = lanes
        .iter()
        .filter_map(|l| l.counts.iter().rposition(|c| *c > 0))
        .max();
    let Some(used) = used else {
        return String::new();
    };
    let bucket_us = bucket_us.max(1);
    let lo = t0.timestamp_micros();
    let mut hi = lo.saturating_add(bucket_us.saturating_mul(used as i64 + 1));
    let mut lo_all = lo;
    for m in markers {
        lo_all = lo_all.min(m.first.timestamp_micros());
        hi = hi.max(m.last.timestamp_micros());
    }
    let tax = TimeAxis::new(lo_all, hi, *t0.offset());
    // The legend in the order of the families' words.
    let mut kinds: Vec<FormatFamily> = lanes.iter().map(|l| l.kind).collect();
    kinds.sort_unstable_by_key(|k| k.as_str());
    kinds.dedup();
    let mut items: Vec<(String, bool, String)> = kinds
        .iter()
        .map(|k| (kind_colour(*k).to_string(), false, k.as_str().to_string()))
        .collect();
    for sev in [Severity::Error, Severity::Warning, Severity::Info] {
        if markers.iter().any(|m| m.severity == sev) {
            items.push((
                severity_colour(sev).to_string(),
                false,
                format!("{} finding", sev.as_str()),
            ));
        }
    }
    let mut leg = String::new();
    let extra = 16.0 * (legend(&mut leg, 10.0, 42.0, &items) - 1) as f64;
    let lane_h = 26.0;
    let (l, r) = (250.0, W - 96.0);
    let frac_x = |t: &Ts| l + tax.frac(t.timestamp_micros()) * (r - l);
    let (placed, left_out) = pack(markers, frac_x, W - 4.0);
    let rows_used = placed.iter().map(|p| p.row + 1).max().unwrap_or(0);
    let strip_top = 78.0 + extra;
    let top = strip_top + ROW_H * rows_used as f64 + 10.0;
    let h = top + lane_h * lanes.len() as f64 + 52.0 + if left_out > 0 { 16.0 } else { 0.0 };
    let f = Frame {
        l,
        r,
        t: top,
        b: top + lane_h * lanes.len() as f64,
    };
    let title = "Events per input file over time, with the findings";
    let mut s = String::with_capacity(8192);
    open_svg(&mut s, h, title);
    text(&mut s, 10.0, 20.0, "start", " class=\"chart-title\"", title);
    s.push_str(&leg);
    text(
        &mut s,
        10.0,
        62.0 + extra,
        "start",
        " class=\"axis-title\"",
        &format!(
            "Bars above: findings, first to last time, numbered as in the list. Lanes: events {}, scaled to each file's peak (right).",
            per_duration(bucket_us)
        ),
    );
    if rows_used > 0 {
        text(
            &mut s,
            f.l - 8.0,
            strip_top + ROW_H * rows_used as f64 / 2.0 + 4.0,
            "end",
            " class=\"axis-title\"",
            "findings",
        );
    }
    for p in &placed {
        let colour = severity_colour(p.m.severity);
        let y = strip_top + ROW_H * p.row as f64;
        let _ = write!(
            s,
            "<g><title>{}. {} {} – {}</title><rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"7\" rx=\"2\" fill=\"{colour}\"/>",
            p.m.n,
            esc(&p.m.rule),
            p.m.first.format("%Y-%m-%d %H:%M:%S%.3f"),
            p.m.last.format("%H:%M:%S%.3f"),
            p.x0,
            y + 3.0,
            p.x1 - p.x0
        );
        text(
            &mut s,
            p.label_x,
            y + 10.0,
            "start",
            &format!(" class=\"marker\" fill=\"{colour}\""),
            &p.m.n.to_string(),
        );
        s.push_str("</g>");
    }
    text(
        &mut s,
        W - 8.0,
        top - 4.0,
        "end",
        " class=\"axis-title\"",
        "peak",
    );
    for i in (0..lanes.len()).step_by(2) {
        let y0 = f.t + lane_h * i as f64;
        let _ = write!(
            s,
            "<rect x=\"0\" y=\"{y0:.1}\" width=\"{W}\" height=\"{lane_h}\" fill=\"#f6f8fa\"/>"
        );
    }
    for (i, lane) in lanes.iter().enumerate() {
        let y0 = f.t + lane_h * i as f64;
        let peak = lane.counts.iter().copied().max().unwrap_or(0);
        // Long paths keep their end, which names the file.
        let name = if lane.name.chars().count() > 33 {
            let tail: Vec<char> = lane.name.chars().rev().take(32).collect();
            format!("…{}", tail.into_iter().rev().collect::<String>())
        } else {
            lane.name.clone()
        };
        let _ = write!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\"><title>{}</title>{}</text>",
            f.l - 8.0,
            y0 + lane_h / 2.0 + 4.0,
            esc(&lane.name),
            esc(&name)
        );
        text(
            &mut s,
            W - 8.0,
            y0 + lane_h / 2.0 + 4.0,
            "end",
            "",
            &thousands(peak),
        );
        if peak == 0 {
            continue;
        }
        let colour = kind_colour(lane.kind);
        let _ = write!(s, "<g fill=\"{colour}\">");
        for (b, c) in lane.counts.iter().enumerate().filter(|(_, c)| **c > 0) {
            let t = lo.saturating_add(bucket_us.saturating_mul(b as i64));
            let x0 = f.x(tax.frac(t));
            let x1 = f.x(tax.frac(t.saturating_add(bucket_us)));
            // At least a sliver for one event among thousands.
            let bh = ((*c as f64 / peak as f64) * (lane_h - 6.0)).max(1.5);
            let _ = write!(
                s,
                "<rect x=\"{x0:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{bh:.1}\"/>",
                y0 + lane_h - 3.0 - bh,
                (x1 - x0).max(1.0)
            );
        }
        s.push_str("</g>");
    }
    time_ticks(&mut s, &tax, &f, strip_top);
    if left_out > 0 {
        text(
            &mut s,
            10.0,
            h - 6.0,
            "start",
            " class=\"axis-title\"",
            &format!(
                "{} more finding{} not drawn (no room left): see the list.",
                thousands(left_out as u64),
                if left_out == 1 { "" } else { "s" }
            ),
        );
    }
    s.push_str("</svg>");
    s
}

/// `per 250 ms`, `per 2.3 h`, `per 24.9 days`: an overview bucket width.
fn per_duration(us: i64) -> String {
    let us = us.max(1) as f64;
    let h = HOUR as f64;
    let d = if us >= DAY as f64 {
        format!("{} days", num((us / DAY as f64 * 10.0).round() / 10.0))
    } else if us >= h {
        format!("{} h", num((us / h * 10.0).round() / 10.0))
    } else if us >= MIN as f64 {
        format!("{} min", num((us / MIN as f64 * 10.0).round() / 10.0))
    } else {
        mqdiag_model::findings::human_ms(us / 1000.0)
    };
    format!("per {d}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::DateTime;

    const SEC: i64 = 1_000_000;

    fn ts(s: &str) -> Ts {
        DateTime::parse_from_rfc3339(s).unwrap()
    }

    fn marker(n: usize, first: &str, last: &str) -> Marker {
        Marker {
            n,
            severity: Severity::Error,
            rule: "channel-error".into(),
            first: ts(first),
            last: ts(last),
        }
    }

    #[test]
    fn bucket_widths_for_people() {
        assert_eq!(per_duration(256_000), "per 256 ms");
        assert_eq!(per_duration(2_147_483_648_000), "per 24.9 days");
        assert_eq!(per_duration(8_192_000_000), "per 2.3 h");
    }

    #[test]
    fn overview_lanes_and_markers() {
        let t0 = ts("2026-11-25T11:42:00+01:00");
        let lanes = vec![
            Lane {
                name: "a/very/long/path/that/goes/on/and/on/and/on/AMQERR01.LOG".into(),
                kind: FormatFamily::ErrorLog,
                counts: vec![1, 0, 5, 0],
            },
            Lane {
                name: "trace<1>.FMT".into(),
                kind: FormatFamily::Trace,
                counts: vec![0, 1000, 0, 0],
            },
        ];
        let m = vec![marker(
            1,
            "2026-11-25T11:42:30+01:00",
            "2026-11-25T11:43:00+01:00",
        )];
        let s = overview(&t0, 30 * SEC, &lanes, &m);
        assert!(s.starts_with("<svg") && s.ends_with("</svg>"));
        assert!(s.contains("…"), "long path shortened");
        assert!(s.contains("AMQERR01.LOG"));
        assert!(s.contains("trace&lt;1&gt;.FMT"));
        assert!(s.contains(">1,000<") && s.contains(">5<"));
        assert!(s.contains("channel-error"));
        assert!(s.contains("(UTC+01:00)"));
        assert!(!s.contains("not drawn"));
        assert_eq!(overview(&t0, SEC, &[], &m), "");
    }

    /// Findings that all span one long file (a 3-year log) get a row each
    /// and never overlap; past the rows they are counted.
    #[test]
    fn bars_and_numbers_never_overlap() {
        let x = |t: &Ts| (t.timestamp() - 1_700_000_000) as f64 / 1000.0;
        let mut ms: Vec<Marker> = (1..=4)
            .map(|n| marker(n, "2023-11-14T22:13:20Z", "2023-11-15T00:00:00Z"))
            .collect();
        // Short ones at one instant: side by side needs room for numbers.
        for n in 5..=40 {
            ms.push(marker(n, "2023-11-14T22:20:00Z", "2023-11-14T22:20:00Z"));
        }
        let (placed, left_out) = pack(&ms, x, 900.0);
        assert_eq!(placed.len() + left_out, ms.len());
        assert!(left_out > 0, "more findings at one instant than rows");
        for (i, a) in placed.iter().enumerate() {
            for b in &placed[i + 1..] {
                if a.row != b.row {
                    continue;
                }
                let span = |p: &Placed| {
                    let w = DIGIT_W * p.m.n.to_string().len() as f64;
                    (p.x0.min(p.label_x), p.x1.max(p.label_x + w))
                };
                let ((a0, a1), (b0, b1)) = (span(a), span(b));
                assert!(a1 <= b0 || b1 <= a0, "{} and {} overlap", a.m.n, b.m.n);
            }
        }
        // The most severe (first in the report) get the top rows.
        assert!(placed.iter().any(|p| p.m.n == 1 && p.row == 0));
        assert!(placed.iter().all(|p| p.m.n <= ROWS || p.row > 0));
    }
}
