//! The "MQI calls" section of the reports: the busiest and slowest rows of
//! the `calls` summary (the full table is `mqdiag calls`), and in HTML a
//! latency chart per verb. Shown only when the traces have MQI calls.

use super::Report;
use mqdiag_analysis::calls::Row;
use mqdiag_analysis::calls::render::{human_us, process_text, reasons_text};
use std::io::{self, Write};

/// Rows shown by total time, then more by slowest call.
const BUSIEST: usize = 8;
const SLOWEST: usize = 4;

/// The rows a report shows: the busiest by total time (rows come sorted
/// that way), then the slowest single calls among the rest.
pub fn pick(rows: &[Row]) -> Vec<&Row> {
    let mut out: Vec<&Row> = rows.iter().take(BUSIEST).collect();
    let mut rest: Vec<&Row> = rows
        .iter()
        .skip(BUSIEST)
        .filter(|r| r.stats.max_us.is_some())
        .collect();
    rest.sort_by_key(|r| std::cmp::Reverse(r.stats.max_us));
    out.extend(rest.into_iter().take(SLOWEST));
    out
}

fn opt(v: Option<u64>) -> String {
    v.map(human_us).unwrap_or_else(|| "-".into())
}

fn cells(r: &Row) -> [String; 12] {
    let s = &r.stats;
    [
        process_text(r),
        r.key.verb.to_string(),
        s.calls.to_string(),
        s.failed.to_string(),
        s.warnings.to_string(),
        s.open.to_string(),
        if r.timed() > 0 {
            human_us(s.total_us)
        } else {
            "-".into()
        },
        opt(r.p50_us()),
        opt(r.p95_us()),
        opt(s.max_us),
        s.max_at
            .as_ref()
            .map(|(p, l)| format!("{p}:{l}"))
            .unwrap_or_default(),
        reasons_text(r),
    ]
}

fn shown_note(shown: usize, all: usize) -> String {
    if shown < all {
        format!("{shown} of {all} rows (busiest, then slowest); `mqdiag calls` lists all.")
    } else {
        format!(
            "{all} row{}; `mqdiag calls` has more groupings.",
            if all == 1 { "" } else { "s" }
        )
    }
}

/// When no rule that ran reads MQI calls (`--only`, `--skip`), they are
/// not counted: the report says so in one line where the table would be,
/// if any trace was read.
pub fn not_counted(r: &Report) -> Option<&'static str> {
    let traced = r
        .inputs
        .iter()
        .any(|i| i.format.family() == "trace" && i.events > 0);
    (!r.calls_counted && traced)
        .then_some("not counted (no rule that ran uses them); `mqdiag calls` counts them.")
}

pub fn text_section(out: &mut dyn Write, r: &Report) -> io::Result<()> {
    if let Some(why) = not_counted(r) {
        writeln!(out)?;
        writeln!(out, "{}", "-".repeat(80))?;
        for l in crate::layout::wrap(&format!("MQI calls: {why}"), 80, "") {
            writeln!(out, "{l}")?;
        }
        return Ok(());
    }
    let rows = r.calls;
    if rows.is_empty() {
        return Ok(());
    }
    let shown = pick(rows);
    writeln!(out)?;
    writeln!(out, "{}", "-".repeat(80))?;
    writeln!(out, "MQI calls: {}", shown_note(shown.len(), rows.len()))?;
    use mqdiag_analysis::calls::table::{self, Col};
    table::write(
        out,
        &shown,
        &[
            Col::Process,
            Col::Verb,
            Col::Calls,
            Col::Failed,
            Col::Warn,
            Col::Open,
            Col::Total,
            Col::P50,
            Col::P95,
            Col::Max,
            Col::SlowestAt,
            Col::Reasons,
        ],
        80,
        "`mqdiag calls --format csv` has every column",
    )
}

fn md_cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

pub fn markdown_section(out: &mut dyn Write, r: &Report) -> io::Result<()> {
    if let Some(why) = not_counted(r) {
        writeln!(out)?;
        writeln!(out, "## MQI calls")?;
        writeln!(out)?;
        writeln!(out, "{why}")?;
        return Ok(());
    }
    let rows = r.calls;
    if rows.is_empty() {
        return Ok(());
    }
    let shown = pick(rows);
    writeln!(out)?;
    writeln!(out, "## MQI calls")?;
    writeln!(out)?;
    writeln!(out, "{}", shown_note(shown.len(), rows.len()))?;
    writeln!(out)?;
    writeln!(
        out,
        "| Process | Verb | Calls | Failed | Warn | Open | Total | p50 | p95 | Max | Slowest at | Reasons |"
    )?;
    writeln!(
        out,
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|"
    )?;
    for r in shown {
        let c = cells(r);
        let at = if c[10].is_empty() {
            String::new()
        } else {
            // A file name may hold `|` or backticks.
            crate::escape::md_code(&c[10], true)
        };
        writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            md_cell(&c[0]),
            c[1],
            c[2],
            c[3],
            c[4],
            c[5],
            c[6],
            c[7],
            c[8],
            c[9],
            at,
            md_cell(&c[11])
        )?;
    }
    Ok(())
}

/// The HTML table of `rows` and a latency chart of `by_verb`.
pub fn html_section(out: &mut dyn Write, r: &Report) -> io::Result<()> {
    use crate::escape::html as esc;
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
        let c = cells(r);
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
    use crate::escape::html as esc;
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
