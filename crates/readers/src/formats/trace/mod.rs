//! MQ formatted traces: UNIX/Linux `.FMT` from `dspmqtrc`, Windows text
//! `.TRC` (with or without the Counter column), files formatted with
//! `dspmqtrc -h` (no header), and `.TRS` wrap files read before their
//! sibling. See `shared/formats/trace-fmt.md` for the layouts.
//!
//! Lines are split by hand (no regex on the hot path): counter, flag, time
//! of day, PID.TID, ident, data. The data column is classified as entry,
//! exit, error exit, dump row or text. One call stack per (PID, TID) gives
//! every exit its duration.
//!
//! Time that goes back within a thread (a record stamped earlier than the
//! thread's latest record before it: a clock stepped back, or stamps taken
//! on CPUs whose clocks differ) is judged per thread, among the records
//! read. Lines skipped unread (those no rule of `analyze` reads, and every
//! record `inventory` counts) take no part. What the skip path sees of a
//! line is its hour digits against the file's clock and the bytes of its
//! `PID.TID` column (`fast::skip_run`): a step back of more than an hour
//! (not across midnight) is found there, as the `clock-jump` problem at
//! its line, whatever the thread; a smaller step within a thread is not.
//! Judging it needs the thread's latest instant: the line's time read in
//! full and its thread's state looked up, then kept up to date by every
//! skipped line of it, which is what skipping saves (telling their
//! thread cost `analyze` 14% more instructions; the bytes of a thread's
//! column are kept only in eight places, so they cannot hold its latest
//! time for every thread). So `analyze` may count fewer steps than
//! `timeline` (and place an event at an earlier record of its thread),
//! and `inventory` counts none. A step of at most `STEP_BACK_TOLERANCE` (1 s) places the record at the
//! thread's latest instant: the merge then keeps the thread's order, so a
//! call whose exit is stamped before its entry stays one call (its duration
//! counts from its entry to that instant, never below zero), and the event
//! keeps the time as written in its `stamped` attribute. A larger step is
//! not papered over: the record keeps its own time and the thread's time
//! goes on from it (an exit before its entry then has no duration). Each
//! step is counted for one `out-of-order` problem per file (the first
//! step's line, the count and the largest step). Records of different
//! threads may interleave slightly out of order, as threads write them:
//! that is no step back.

mod blocks;
mod clock;
mod fast;
mod header;
mod line;
mod memo;
mod record;
mod source;
mod stack;

use clock::*;
use header::*;
use line::*;
use memo::*;
pub(crate) use source::TraceSource;
use source::*;
use stack::*;

use super::Reader;
use super::binary_trace::is_trace_name;
use crate::input::Input;
use crate::lines::LineReader;
use crate::source::{ReadOptions, Source};
use chrono::{DateTime, FixedOffset, NaiveDate, NaiveDateTime, NaiveTime, TimeZone, Timelike};
use mqdiag_model::event::{Event, Format, Kind, Origin, Ts};
use mqdiag_model::fileinfo::FileInfo;
use mqdiag_model::problem::{ProblemCode, Severity};
use mqdiag_model::sink::{RowMeta, RowSink};
use mqdiag_model::sink::{push_plain_row_tail, push_thread};
use mqdiag_model::text::{decode_lossy, looks_like_text};
use mqdiag_model::timefmt::parse_time_of_day;
use rustc_hash::FxBuildHasher;
use std::collections::{HashSet, VecDeque};
use std::io::Read;
use std::sync::Arc;

/// A backwards jump in time of day larger than this is midnight.
const ROLLOVER_SECS: i64 = 3600;
/// Deepest call stack kept per thread; deeper entries drop the oldest.
const MAX_STACK: usize = 1024;
/// Header records held back until the header gives the date.
const MAX_HEADER_HOLD: usize = 256;
/// The largest step back in time within a thread that is placed at the
/// thread's latest instant (nanoseconds; see the module docs).
const STEP_BACK_TOLERANCE: i64 = 1_000_000_000;

pub struct TraceReader;

/// Formatted traces (`dspmqtrc` output). Its facts for the rest of the program.
pub static FORMAT: Format = Format::of(&mqdiag_model::event::FormatInfo {
    name: "fmt-trace",
    family: mqdiag_model::event::FormatFamily::Trace,
    states_local_time: true,
    dataset: "ibmmq.trace",
    host_is_writer: false,
});

impl Reader for TraceReader {
    fn format(&self) -> Format {
        FORMAT
    }

    fn sniff(&self, _name: &str, head: &[u8]) -> u8 {
        if head.is_empty() || !looks_like_text(head) {
            return 0;
        }
        let text = decode_lossy(head);
        // A title line names its columns: a head without their names has
        // no title, and its lines are not each searched for one.
        let titled = memchr::memmem::find(text.as_bytes(), b"Process.Thread").is_some()
            || memchr::memmem::find(text.as_bytes(), b"PID.TID").is_some();
        let mut records = 0;
        for (i, line) in text.lines().take(60).enumerate() {
            if titled && is_title(line) {
                return 95;
            }
            if parse_record(line, None).is_some() {
                records += 1;
                if records >= 3 {
                    return 70;
                }
            } else if i > 30 && records == 0 {
                break;
            }
        }
        0
    }

    fn group(&self, input: &Input) -> Option<(String, u32)> {
        if !is_trace_name(&input.name) {
            return None;
        }
        let up = input.name.to_ascii_uppercase();
        let (stem, ext) = up.rsplit_once('.')?;
        let dir = input
            .display
            .rsplit_once(['/', '\\'])
            .map(|(d, _)| d)
            .unwrap_or("");
        let order = if ext == "TRS" { 0 } else { 1 };
        Some((format!("{dir}/{stem}"), order))
    }

    fn open_with(
        &self,
        inputs: Vec<Input>,
        opts: &ReadOptions,
        _: super::Prepared,
    ) -> Box<dyn Source> {
        Box::new(TraceSource::new(inputs, opts.clone()))
    }

    fn fuzz(&self) -> Option<super::Fuzz> {
        Some(super::Fuzz {
            target: "trace",
            names: &["AMQ1234.0.FMT"],
        })
    }
}

#[cfg(test)]
mod tests;
