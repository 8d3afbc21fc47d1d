//! Which calls rows the findings reports show: the busiest and slowest
//! rows of the `calls` summary (the full table is `mqdiag calls`), and
//! what the section says when there are more, or none were counted. The
//! section is shown only when the traces have MQI calls.

use crate::Report;
use mqdiag_analysis::calls::Row;
use mqdiag_model::event::FormatFamily;

/// Rows shown by total time, then more by slowest call.
const BUSIEST: usize = 8;
const SLOWEST: usize = 4;

/// The rows a report shows: the busiest by total time (rows come sorted
/// that way), then the slowest single calls among the rest.
pub(crate) fn pick(rows: &[Row]) -> Vec<&Row> {
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

/// The line above a report's table: how many of the rows it shows.
pub(crate) fn shown_note(shown: usize, all: usize) -> String {
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
pub(crate) fn not_counted(r: &Report) -> Option<&'static str> {
    let traced = r
        .inputs
        .iter()
        .any(|i| i.format.family() == FormatFamily::Trace && i.events > 0);
    (!r.calls_counted && traced)
        .then_some("not counted (no rule that ran uses them); `mqdiag calls` counts them.")
}
