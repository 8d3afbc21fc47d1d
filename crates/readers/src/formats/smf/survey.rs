//! Before any row is read: what the SMF files of a run say about each
//! LPAR's clock. Only files with STCK anchors (WQ, WTAS, QCST) can tell
//! how far STCK columns read from the LPAR-local `Date`/`Time`; files
//! without (QMAC, statistics) need that offset for their rows all the same,
//! and the files of a run are read in parallel and merged, so it must be
//! known before the first row of any of them is placed. A cheap pass over
//! the first rows of each SMF file gathers it, per (LPAR, queue manager),
//! bounded in rows and bytes per file.

use super::columns::{self, Layout};
use super::row::Row;
use super::timing::Timing;
use super::{ESTIMATE_ROWS, ESTIMATE_VOTES, anchor, clock, fit_prefix};
use crate::input::Input;
use mqdiag_model::fileinfo::FileInfo;
use std::collections::BTreeMap;

/// Rows of a file without anchors read to learn its LPARs.
const PLAIN_ROWS: usize = 16;
/// Bytes read from one file at most (headers are 10 KB, rows 1-2 KB).
const MAX_BYTES: usize = 4 << 20;

/// One queue manager's clock evidence from the SMF files of a run: how far
/// STCK columns read from the LPAR-local `Date`/`Time` (seconds, STCK minus
/// local), from how many agreeing rows of which file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LparClock {
    pub(crate) stck_minus_local: i32,
    pub(crate) rows: u32,
    pub(crate) path: String,
}

/// The clock evidence of a run per (LPAR, queue manager), and for each LPAR
/// the file that says once that its zone is unknown.
#[derive(Debug, Default, Clone)]
pub(crate) struct LparClocks {
    pub(crate) by_qmgr: std::collections::BTreeMap<(String, String), LparClock>,
    /// LPAR → the first file (by path) expected to find its zone unknown.
    /// A file that finds it unknown against this expectation says so
    /// itself.
    pub(crate) first_file: std::collections::BTreeMap<String, String>,
    /// Each task's accounting interval from its WTAS rows (`WTAS_Interval_
    /// Start`, `_End`, as written), by `LPAR/QMgr/Correl/Date Time`: the
    /// interval of that record's WQ rows.
    pub(crate) task_intervals: std::collections::HashMap<
        String,
        (chrono::NaiveDateTime, chrono::NaiveDateTime),
        rustc_hash::FxBuildHasher,
    >,
}

impl LparClocks {
    /// The evidence for a queue manager, else for its LPAR when every
    /// queue manager of the LPAR seen agrees (they share the LPAR's clock).
    pub(crate) fn get(&self, lpar: &str, qmgr: &str) -> Option<&LparClock> {
        if let Some(c) = self.by_qmgr.get(&(lpar.to_string(), qmgr.to_string())) {
            return Some(c);
        }
        let mut same = self
            .by_qmgr
            .range((lpar.to_string(), String::new())..)
            .take_while(|((l, _), _)| l == lpar)
            .map(|(_, c)| c);
        let first = same.next()?;
        same.all(|c| c.stck_minus_local == first.stck_minus_local)
            .then_some(first)
    }
}

/// The clock evidence of these SMF files, and for each LPAR whose zone
/// stays unknown the file that says so: the first in path order, so that
/// it does not depend on thread timing. `stck_tz_given`: `--smf-stck-tz`,
/// which makes even agreeing clock families tell the zone.
pub(crate) fn survey(inputs: &[&Input], stck_tz_given: bool) -> LparClocks {
    let mut inputs = inputs.to_vec();
    inputs.sort_by(|a, b| a.display.cmp(&b.display));
    let mut out = LparClocks::default();
    let mut files = Vec::new();
    for input in inputs {
        super::tasks::intervals(input, &mut out.task_intervals);
        let path = input.display.to_string();
        let (keys, own) = survey_file(input);
        files.push((path.clone(), keys.keys().cloned().collect::<Vec<_>>(), own));
        for ((lpar, qmgr), votes) in keys {
            let Some(off) = votes.decide() else { continue };
            let rows = votes.support(off).0;
            let new = LparClock {
                stck_minus_local: off,
                rows,
                path: path.clone(),
            };
            // The file with the most agreeing rows speaks for the queue
            // manager; the first in path order on a tie.
            out.by_qmgr
                .entry((lpar, qmgr))
                .and_modify(|c| {
                    if rows > c.rows {
                        *c = new.clone();
                    }
                })
                .or_insert(new);
        }
    }
    // Which files will find their LPAR's zone unknown, as the reader
    // decides it: the file's own estimate first, else the run's evidence.
    for (path, keys, own) in files {
        for (lpar, qmgr) in keys {
            let c = own.or_else(|| out.get(&lpar, &qmgr).map(|c| c.stck_minus_local));
            if !c.is_some_and(|c| c != 0 || stck_tz_given) {
                out.first_file.entry(lpar).or_insert(path.clone());
            }
        }
    }
    out
}

/// Votes per (LPAR, queue manager) of one file's first rows, and the
/// offset the file will decide on its own (its rows' votes together).
fn survey_file(input: &Input) -> (BTreeMap<(String, String), clock::Votes>, Option<i32>) {
    let mut keys: BTreeMap<(String, String), clock::Votes> = BTreeMap::new();
    let mut all = clock::Votes::default();
    // Read quietly: problems are the real read's to report, and the bytes
    // are not the progress line's.
    let mut input = input.clone();
    input.progress = None;
    let mut info = FileInfo::new(&input.display, super::FORMAT, input.bytes);
    let Some(mut lines) = crate::formats::open_lines(&input, &mut info) else {
        return (keys, None);
    };
    let name_struct = columns::structure_from_name(&input.name);
    let mut layout: Option<Layout> = None;
    let mut fields = Vec::new();
    let (mut rows, mut votes, mut bytes) = (0usize, 0u32, 0usize);
    while let Some((meta, line)) = crate::formats::read_line(&mut lines, &mut info) {
        bytes += line.len();
        if bytes > MAX_BYTES {
            break;
        }
        let Some(line) = super::csvline::content(meta.no, meta.truncated, line) else {
            continue;
        };
        let Some(l) = &layout else {
            let Some(header) = columns::header_layout(line, name_struct.as_deref()) else {
                return (keys, None);
            };
            // No cell is kept: rows are split up to the columns read.
            let mut header = header;
            header.keep_only(|_| None);
            layout = Some(header);
            continue;
        };
        if fit_prefix(l, line, &mut fields).is_err() {
            continue;
        }
        let row = Row::new(l, line, &fields);
        let Ok(record) = row.datetime_of("Date", "Time") else {
            continue;
        };
        let key = (
            row.get("LPAR").unwrap_or_default().into_owned(),
            row.get("QMgr").unwrap_or_default().into_owned(),
        );
        let timing = Timing::of(l);
        let v = keys.entry(key).or_default();
        if let Some((strong, c)) = anchor(timing, &row, record) {
            v.add(strong, c);
            all.add(strong, c);
            votes += 1;
        }
        rows += 1;
        let enough = if timing.needs_offset() {
            rows >= ESTIMATE_ROWS || votes >= ESTIMATE_VOTES
        } else {
            rows >= PLAIN_ROWS
        };
        if enough {
            break;
        }
    }
    (keys, all.decide())
}
