//! Each task's accounting interval, for its WQ rows. `mqsmfcsv` writes a
//! 116 record as one WTAS row and one WQ row per queue block, all with the
//! record's `Date`/`Time` and the task's correlator (`Correl` in WTAS,
//! `Correlation` in WQ; `shared/formats/smf.md` §1.6, verified on the real
//! samples: every WQ row matches a WTAS row on them). The WQ counts cover
//! the task's interval, `WTAS_Interval_Start` .. `_End`; the queue's
//! `Open` time is when the handle was opened, possibly days earlier.
//!
//! The WTAS files of a run are read once before any row is placed (files
//! are read in parallel), keeping only those keys and times, bounded in
//! entries.

use super::columns::{self, Layout};
use super::row::Row;
use crate::input::Input;
use chrono::NaiveDateTime;
use mqdiag_model::fileinfo::FileInfo;
use std::collections::HashMap;

/// Task intervals kept at most (a key and two times each, about 100
/// bytes); beyond, WQ rows fall back to their record time.
const MAX_TASKS: usize = 1_000_000;

type Intervals = HashMap<String, (NaiveDateTime, NaiveDateTime), rustc_hash::FxBuildHasher>;

/// The key of a task's record: `LPAR/QMgr/correlator/Date Time`.
pub(crate) fn key(row: &Row, correl: &str) -> Option<String> {
    let mut k = String::with_capacity(80);
    for c in ["LPAR", "QMgr"] {
        k.push_str(&row.get(c).unwrap_or_default());
        k.push('/');
    }
    k.push_str(row.get(correl)?.trim());
    k.push('/');
    k.push_str(&row.get("Date")?);
    k.push(' ');
    k.push_str(&row.get("Time")?);
    Some(k)
}

/// Add the task intervals of `input`, when it is a WTAS file.
pub(crate) fn intervals(input: &Input, out: &mut Intervals) {
    let by_name = columns::structure_from_name(&input.name);
    if by_name.as_deref().is_some_and(|s| s != "WTAS") {
        return;
    }
    // Read quietly: problems are the real read's to report.
    let mut input = input.clone();
    input.progress = None;
    let mut info = FileInfo::new(&input.display, super::FORMAT, input.bytes);
    let Some(mut lines) = crate::formats::open_lines(&input, &mut info) else {
        return;
    };
    let mut layout: Option<Layout> = None;
    let mut fields = Vec::new();
    while let Some((meta, line)) = crate::formats::read_line(&mut lines, &mut info) {
        let Some(line) = super::csvline::content(meta.no, meta.truncated, line) else {
            continue;
        };
        let Some(l) = &layout else {
            let Some(header) = columns::header_layout(line, by_name.as_deref()) else {
                return;
            };
            let mut l = header;
            if l.structure != "WTAS" || !l.has("WTAS_Interval_Start (DATE)") {
                return;
            }
            // No cell is kept: rows are split up to the columns read.
            l.keep_only(|_| None);
            layout = Some(l);
            continue;
        };
        if super::fit_prefix(l, line, &mut fields).is_err() {
            continue;
        }
        let row = Row::new(l, line, &fields);
        let (Ok(Some(start)), Ok(Some(end))) = (
            row.datetime("WTAS_Interval_Start"),
            row.datetime("WTAS_Interval_End"),
        ) else {
            continue;
        };
        if start > end {
            continue;
        }
        if let Some(k) = key(&row, "Correl") {
            if out.len() >= MAX_TASKS && !out.contains_key(&k) {
                return;
            }
            out.insert(k, (start, end));
        }
    }
}
