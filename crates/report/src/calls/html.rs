//! The HTML report's MQI calls section: a table of the rows a report
//! shows, and a latency chart per verb.

use super::cols::section_cells;
use super::section::{not_counted, pick, shown_note};
use crate::Report;
use crate::escape::html as esc;
use mqdiag_analysis::calls::Row;
use mqdiag_model::timefmt::human_us;
use std::io::{self, Write};

/// The HTML table of `rows` and a latency chart of `by_verb`.
pub(crate) fn html_section(out: &mut dyn Write, r: &Report) -> io::Result<()> {
    if let Some(why) = not_counted(r) {
        writeln!(out, "<h2 id=\"calls\">MQI calls</h2>")?;
        writeln!(out, "<p>{}</p>", esc(why))?;
        return Ok(());
    }
    let (rows, by_verb) = (r.calls, r.calls_by_verb);
    if rows.is_empty() {
        return Ok(());
    }
    let shown = pick(rows);
    writeln!(out, "<h2 id=\"calls\">MQI calls</h2>")?;
    writeln!(out, "<p>{}</p>", esc(&shown_note(shown.len(), rows.len())))?;
    // Fixed layout in set widths: the table never widens the page; the
    // place and the reasons wrap inside their cells. OPEN and p50 are left
    // out here (`mqdiag calls` has them).
    const SHOWN: [(usize, &str, u8); 10] = [
        (0, "Process", 15),
        (1, "Verb", 10),
        (2, "Calls", 5),
        (3, "Failed", 6),
        (4, "Warn", 5),
        (6, "Total", 8),
        (8, "p95", 8),
        (9, "Max", 8),
        (10, "Slowest at", 17),
        (11, "Reasons", 18),
    ];
    write!(
        out,
        "<table class=\"calls\"><caption>MQI calls per process and verb</caption><colgroup>"
    )?;
    for (_, _, w) in SHOWN {
        write!(out, "<col style=\"width:{w}%\">")?;
    }
    write!(out, "</colgroup>\n<tr>")?;
    for (_, h, _) in SHOWN {
        write!(out, "<th scope=\"col\">{}</th>", esc(h))?;
    }
    writeln!(out, "</tr>")?;
    for r in shown {
        let c = section_cells(r);
        write!(out, "<tr>")?;
        for (i, _, _) in SHOWN {
            let v = &c[i];
            if (2..10).contains(&i) {
                // `5.142 s` stays on one line (CSS `td.n`).
                write!(out, "<td class=\"n\">{}</td>", esc(v))?;
            } else if i == 10 {
                write!(out, "<td><code>{}</code></td>", esc(v))?;
            } else if i == 1 {
                write!(out, "<td class=\"v\">{}</td>", esc(v))?;
            } else if i == 11 {
                // Reason names may break after an underscore.
                write!(out, "<td>{}</td>", esc(v).replace('_', "_<wbr>"))?;
            } else {
                write!(out, "<td>{}</td>", esc(v))?;
            }
        }
        writeln!(out, "</tr>")?;
    }
    writeln!(out, "</table>")?;
    latency_chart(out, by_verb)
}

/// p50, p95 and max per verb as horizontal bars on a logarithmic
/// millisecond axis (call times span microseconds to seconds).
fn latency_chart(out: &mut dyn Write, by_verb: &[Row]) -> io::Result<()> {
    let mut verbs: Vec<&Row> = by_verb
        .iter()
        .filter(|r| r.stats.max_us.is_some())
        .collect();
    if verbs.is_empty() {
        return Ok(());
    }
    verbs.sort_by(|a, b| a.key.verb.cmp(b.key.verb));
    let ms = |us: u64| (us as f64 / 1000.0).max(0.001);
    let top = verbs
        .iter()
        .filter_map(|r| r.stats.max_us)
        .map(ms)
        .fold(0.001f64, f64::max);
    // Decades from 1 µs to the first power of ten at or above the maximum.
    let lo = -3i32;
    let hi = (top.log10().ceil() as i32).max(lo + 1);
    let (left, width, bar, gap) = (90.0, 560.0, 7.0, 8.0);
    let group = 3.0 * bar + gap;
    let height = 30.0 + group * verbs.len() as f64 + 24.0;
    let x = |v: f64| left + width * (v.log10() - lo as f64) / (hi - lo) as f64;
    writeln!(
        out,
        "<figure><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{height}\" role=\"img\" aria-label=\"MQI call latency per verb\" font-family=\"sans-serif\" font-size=\"11\">",
        left + width + 20.0
    )?;
    for d in lo..=hi {
        let xv = x(10f64.powi(d));
        let label = match d {
            -3 => "1µs".to_string(),
            -2 => "10µs".to_string(),
            -1 => "100µs".to_string(),
            0 => "1ms".to_string(),
            1 => "10ms".to_string(),
            2 => "100ms".to_string(),
            3 => "1s".to_string(),
            d => format!("{}s", 10u64.pow((d - 3) as u32)),
        };
        writeln!(
            out,
            "<line x1=\"{xv:.1}\" y1=\"20\" x2=\"{xv:.1}\" y2=\"{:.1}\" stroke=\"#ddd\"/><text x=\"{xv:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{label}</text>",
            height - 20.0,
            height - 6.0
        )?;
    }
    let colours = [("p50", "#4a90d9"), ("p95", "#f5a623"), ("max", "#d0021b")];
    for (i, (name, c)) in colours.iter().enumerate() {
        let lx = left + 120.0 * i as f64;
        writeln!(
            out,
            "<rect x=\"{lx}\" y=\"4\" width=\"10\" height=\"10\" fill=\"{c}\"/><text x=\"{}\" y=\"13\">{name}</text>",
            lx + 14.0
        )?;
    }
    for (i, r) in verbs.iter().enumerate() {
        let y0 = 26.0 + group * i as f64;
        writeln!(
            out,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
            left - 6.0,
            y0 + 1.5 * bar + 4.0,
            esc(r.key.verb)
        )?;
        let vals = [r.p50_us(), r.p95_us(), r.stats.max_us];
        for (j, v) in vals.iter().enumerate() {
            let Some(us) = v else { continue };
            let w = (x(ms(*us)) - left).max(1.0);
            writeln!(
                out,
                "<rect x=\"{left}\" y=\"{:.1}\" width=\"{w:.1}\" height=\"{bar}\" fill=\"{}\"><title>{} {}: {}</title></rect>",
                y0 + bar * j as f64,
                colours[j].1,
                esc(r.key.verb),
                colours[j].0,
                esc(&human_us(*us))
            )?;
        }
    }
    writeln!(
        out,
        "</svg><figcaption>MQI call latency per verb (all processes; logarithmic axis)</figcaption></figure>"
    )
}
