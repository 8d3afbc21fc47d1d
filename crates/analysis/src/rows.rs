//! `timeline` output rendered where the events are read: each worker turns
//! its source's events (or, for plain text, its trace lines directly) into
//! finished rows, held in order in one byte buffer per source. The merge
//! then only compares keys and copies bytes, so it no longer limits how
//! fast a timeline is written.

use crate::timeline::TimeWindow;
use crate::timeline::{
    Batch, Merge, OutOfRange, Producer, REORDER_WINDOW_NANOS, report_late, source_caps,
};
use chrono::{DateTime, FixedOffset};
use mqdiag_model::event::{Format, Origin, Ts};
use mqdiag_model::fileinfo::FileInfo;
use mqdiag_model::sink::{RowSink, RowSpec, UNDATED_KEY};
use mqdiag_model::timefmt::orderable;
use mqdiag_readers::source::Source;
use std::io::{self, Write};
use std::sync::Arc;

/// One finished row in a batch.
#[derive(Debug, Clone, Copy)]
struct Row {
    key: i64,
    offset: i32,
    start: usize,
    end: usize,
}

/// Finished rows of one source: their bytes as rendered, and an index in
/// time order.
#[derive(Default)]
pub(crate) struct RowBatch {
    bytes: Vec<u8>,
    rows: Vec<Row>,
    pos: usize,
    /// The format of the file the rows come from, once known.
    format: Option<Format>,
}

impl Batch for RowBatch {
    fn front_key(&self) -> Option<i64> {
        self.rows.get(self.pos).map(|r| r.key)
    }
    fn reset(&mut self) {
        self.bytes.clear();
        self.rows.clear();
        self.pos = 0;
    }
    fn rehome(&mut self) -> Self {
        let copy = RowBatch {
            bytes: self.bytes.clone(),
            rows: self.rows.clone(),
            pos: self.pos,
            format: self.format,
        };
        std::mem::replace(self, copy)
    }
}

impl RowBatch {
    /// The front row's key and bytes, taken.
    fn take_front(&mut self) -> Option<(i64, i32, &[u8])> {
        let r = *self.rows.get(self.pos)?;
        self.pos += 1;
        Some((r.key, r.offset, &self.bytes[r.start..r.end]))
    }

    /// The front row's time; `None` when it has none (`UNDATED_KEY`: a
    /// time past 2262 never reaches a batch).
    fn front_time(&self) -> Option<Ts> {
        let r = self.rows.get(self.pos).filter(|r| r.key != UNDATED_KEY)?;
        let off = FixedOffset::east_opt(r.offset)?;
        Some(DateTime::from_timestamp_nanos(r.key).with_timezone(&off))
    }
}

/// Put a row in the index in key order (after rows of an equal key:
/// arrival order is kept).
fn index_row(rows: &mut Vec<Row>, row: Row) {
    if rows.last().is_none_or(|r| r.key <= row.key) {
        rows.push(row);
    } else {
        let at = rows.partition_point(|r| r.key <= row.key);
        rows.insert(at, row);
    }
}

/// The rendered size a batch's share of bytes is counted in rows of.
const ROW_NOMINAL: usize = 128;
/// How many times its share of bytes a batch may reach before it is cut
/// whatever its count (all batches ahead: 64 MiB at most).
const ROW_ROOM: usize = 16;

/// A source rendered to rows, its local disorder repaired (as `Reordered`
/// does for events). Rows are rendered straight into the batch that goes
/// to the merge; the batch is put in time order and its newest rows, those
/// that rows still to come may have to precede (within the window, and at
/// most `cap` of them), are held back into the next batch.
pub(crate) struct RowReordered {
    src: Option<Box<dyn Source>>,
    sink: RowSink,
    /// Rows held back, in order.
    held: RowBatch,
    cap: usize,
    cap_bytes: usize,
    newest: i64,
    released: i64,
    late: u64,
    /// How far behind the latest late row was (nanoseconds).
    max_late: i64,
    first_late: Option<(String, u64)>,
    infos: Vec<FileInfo>,
    out_of_range: OutOfRange,
}

impl RowReordered {
    pub(crate) fn new(
        src: Box<dyn Source>,
        spec: Arc<RowSpec>,
        cap: usize,
        cap_bytes: usize,
    ) -> Self {
        RowReordered {
            src: Some(src),
            sink: RowSink::new(spec),
            held: RowBatch::default(),
            cap,
            cap_bytes,
            newest: i64::MIN,
            released: i64::MIN,
            late: 0,
            max_late: 0,
            first_late: None,
            infos: Vec::new(),
            out_of_range: OutOfRange::default(),
        }
    }

    /// Render up to `n` rows into `b`, stopping once it holds `bytes` bytes
    /// (at least one row is rendered, unless the source is done).
    fn render(&mut self, b: &mut RowBatch, n: usize, bytes: usize) {
        let Some(src) = self.src.as_mut() else { return };
        let (released, mut newest, mut late) = (self.released, self.newest, 0u64);
        let mut max_late = self.max_late;
        let mut first_late: Option<(Option<Arc<Origin>>, u64)> = None;
        let rows = &mut b.rows;
        let out_of_range = &mut self.out_of_range;
        // The bytes of rows left out for their time, taken out of the
        // batch once rendered (kept, a log of such rows held them all).
        let mut holes: Vec<(usize, usize)> = Vec::new();
        let more = src.next_rows(
            &mut self.sink,
            &mut b.bytes,
            n,
            bytes,
            &mut |m, start, end| {
                if !orderable(m.key) && !m.undated {
                    // Its bytes are taken out below: never written.
                    let path = m.origin.as_ref().map(|o| o.path.to_string());
                    out_of_range.saw(|| path.unwrap_or_default(), m.line);
                    // Mostly none: `event_row` renders no such row.
                    if end > start {
                        holes.push((start, end));
                    }
                    return;
                }
                if m.key < released {
                    // Too late to be put in order: it goes out first in this
                    // batch, and is reported.
                    late += 1;
                    max_late = max_late.max(released.saturating_sub(m.key));
                    if first_late.is_none() {
                        first_late = Some((m.origin.clone(), m.line));
                    }
                }
                newest = newest.max(m.key);
                index_row(
                    rows,
                    Row {
                        key: m.key,
                        offset: m.offset,
                        start,
                        end,
                    },
                );
            },
        );
        if !holes.is_empty() {
            drop_ranges(b, &holes);
        }
        self.newest = newest;
        self.late += late;
        self.max_late = max_late;
        if let Some((origin, line)) = first_late
            && self.first_late.is_none()
        {
            let origin = origin.or_else(|| src.current_origin());
            let path = origin.map(|o| o.path.to_string()).unwrap_or_default();
            self.first_late = Some((path, line));
        }
        if !more && let Some(s) = self.src.take() {
            self.infos = s.finish();
        }
    }

    /// How many of `b`'s rows (in order) may go now.
    fn releasable(&self, b: &RowBatch) -> usize {
        let total = b.rows.len();
        if self.src.is_none() {
            return total;
        }
        let horizon = self.newest.saturating_sub(REORDER_WINDOW_NANOS);
        let mut cut = b
            .rows
            .partition_point(|r| r.key <= horizon)
            .max(total.saturating_sub(self.cap));
        let mut held: usize = b.rows[cut..].iter().map(|r| r.end - r.start).sum();
        while held > self.cap_bytes && cut < total {
            held -= b.rows[cut].end - b.rows[cut].start;
            cut += 1;
        }
        cut
    }
}

/// Take the byte ranges `holes` (rendered in order, so increasing and
/// apart) out of `b`'s bytes, moving the rows after them back.
fn drop_ranges(b: &mut RowBatch, holes: &[(usize, usize)]) {
    // Bytes taken out before each hole's end.
    let mut before: Vec<usize> = Vec::with_capacity(holes.len());
    let mut sum = 0;
    for (s, e) in holes {
        sum += e - s;
        before.push(sum);
    }
    let first = holes[0].0;
    for r in b.rows.iter_mut().filter(|r| r.start >= first) {
        let n = holes.partition_point(|h| h.1 <= r.start);
        let shift = if n == 0 { 0 } else { before[n - 1] };
        r.start -= shift;
        r.end -= shift;
    }
    let mut w = first;
    for (i, &(_, e)) in holes.iter().enumerate() {
        let next = holes.get(i + 1).map_or(b.bytes.len(), |h| h.0);
        b.bytes.copy_within(e..next, w);
        w += next - e;
    }
    b.bytes.truncate(w);
}

impl Producer for RowReordered {
    type Batch = RowBatch;

    fn fill(&mut self, b: &mut RowBatch, n: usize, bytes: usize) {
        // The rows held back last time come first (they are in order).
        for r in &self.held.rows {
            let start = b.bytes.len();
            b.bytes.extend_from_slice(&self.held.bytes[r.start..r.end]);
            b.rows.push(Row {
                start,
                end: b.bytes.len(),
                ..*r
            });
        }
        self.held.reset();
        // One order for every row format: a batch is cut by a count of
        // rows, not by their rendered bytes (an OTLP row is ten times a
        // text row, and where a batch ends decides which late rows are
        // still put in order). Rows of `ROW_NOMINAL` bytes fill the
        // batch's share; `ROW_ROOM` times it stops a batch of huge rows.
        let n = n.min((bytes / ROW_NOMINAL).max(16));
        let room = bytes.saturating_mul(ROW_ROOM);
        loop {
            // Each pass renders new rows, however much was held back.
            self.render(b, n, b.bytes.len() + room);
            if let Some(o) = self.src.as_ref().and_then(|s| s.current_origin()) {
                b.format = Some(o.format);
            }
            let cut = self.releasable(b);
            if cut == 0 && self.src.is_some() {
                // Everything is still within reach of rows to come.
                continue;
            }
            for r in &b.rows[cut..] {
                let start = self.held.bytes.len();
                self.held.bytes.extend_from_slice(&b.bytes[r.start..r.end]);
                self.held.rows.push(Row {
                    start,
                    end: self.held.bytes.len(),
                    ..*r
                });
            }
            b.rows.truncate(cut);
            if let Some(r) = b.rows.last() {
                self.released = self.released.max(r.key);
            }
            return;
        }
    }

    fn finish(mut self) -> Vec<FileInfo> {
        if let Some(s) = self.src.take() {
            self.infos = s.finish();
        }
        report_late(
            &mut self.infos,
            self.late,
            self.max_late,
            self.first_late.take(),
        );
        self.out_of_range.report(&mut self.infos);
        self.infos
    }
}

/// All sources' rows, merged in time order.
pub struct RowMerged(Merge<RowReordered>);

/// Output is gathered in this much before each write.
const OUT_CHUNK: usize = 256 << 10;

impl RowMerged {
    /// `jobs` worker threads render the rows (1: all on this thread); the
    /// output is the same for any `jobs`.
    pub fn new(sources: Vec<Box<dyn Source>>, spec: Arc<RowSpec>, jobs: usize) -> Self {
        let (cap, cap_bytes) = source_caps(sources.len());
        let producers = sources
            .into_iter()
            .map(|s| RowReordered::new(s, spec.clone(), cap, cap_bytes))
            .collect();
        RowMerged(Merge::start(producers, jobs))
    }

    /// The time of the first row, without taking it.
    pub(crate) fn peek_ts(&self) -> Option<Ts> {
        let (_, i) = self.0.peek()?;
        self.0.batch_ref(i).front_time()
    }

    /// As `Merged::reference_ts`: the earliest waiting row of a trace or
    /// error log, else the first row.
    pub fn reference_ts(&self) -> Option<Ts> {
        self.0
            .waiting()
            .map(|i| self.0.batch_ref(i))
            .filter(|b| b.format.is_some_and(Format::states_local_time))
            .filter_map(|b| Some((b.front_key()?, b.front_time()?)))
            .min_by_key(|(k, _)| *k)
            .map(|(_, t)| t)
            .or_else(|| self.peek_ts())
    }

    /// Write every row whose time is in `window`, in order.
    /// Returns how many rows were in the window.
    pub fn write_all(&mut self, out: &mut dyn Write, window: &TimeWindow) -> io::Result<u64> {
        let nanos = |t: &Option<Ts>, none: i64| {
            t.as_ref()
                .map_or(none, |t| t.timestamp_nanos_opt().unwrap_or(i64::MAX))
        };
        // Instants compare as keys; a wall-clock bound needs each row's
        // offset.
        let local = window.is_local();
        // Rows without a time cannot be shown to be in a window.
        let undated_in = !window.is_set();
        let (lo, hi) = (
            nanos(&window.since, i64::MIN),
            nanos(&window.until, i64::MAX),
        );
        let mut written = 0u64;
        let mut buf: Vec<u8> = Vec::with_capacity(OUT_CHUNK + (64 << 10));
        while let Some(i) = self.0.top() {
            if let Some((k, off, row)) = self.0.batch(i).take_front()
                && (if k == UNDATED_KEY {
                    undated_in
                } else if local {
                    window.contains_key(k, off)
                } else {
                    (lo..=hi).contains(&k)
                })
            {
                written += 1;
                buf.extend_from_slice(row);
                if buf.len() >= OUT_CHUNK {
                    out.write_all(&buf)?;
                    buf.clear();
                }
            }
            self.0.advance_top();
        }
        out.write_all(&buf)?;
        Ok(written)
    }

    /// Per-file facts, once the rows are written (or given up).
    pub fn finish(self) -> Vec<FileInfo> {
        self.0.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mqdiag_model::event::Event;
    use mqdiag_model::event::Kind;
    use mqdiag_model::sink::TimelineFormat;

    struct VecSource(std::vec::IntoIter<Event>);
    impl Source for VecSource {
        fn next_event(&mut self) -> Option<Event> {
            self.0.next()
        }
        fn finish(self: Box<Self>) -> Vec<FileInfo> {
            vec![FileInfo::new(
                "a",
                mqdiag_readers::formats::trace::FORMAT,
                0,
            )]
        }
    }

    fn ev(ts: &str, line: u64, text: String) -> Event {
        let o = Arc::new(Origin {
            path: Arc::from("a"),
            format: mqdiag_readers::formats::trace::FORMAT,
        });
        let t = DateTime::parse_from_rfc3339(ts).unwrap();
        Event::new(t, o, line, Kind::Text, text)
    }

    /// The lines of the rows written, in order, and the file facts.
    fn run(evs: Vec<Event>, jobs: usize) -> (Vec<u64>, Vec<FileInfo>) {
        let spec = Arc::new(RowSpec::new(TimelineFormat::Csv));
        let src: Box<dyn Source> = Box::new(VecSource(evs.into_iter()));
        let mut m = RowMerged::new(vec![src], spec, jobs);
        let mut out = Vec::new();
        m.write_all(&mut out, &TimeWindow::default()).unwrap();
        let lines = String::from_utf8(out)
            .unwrap()
            .lines()
            .map(|l| l.split(',').nth(3).unwrap().parse().unwrap())
            .collect();
        (lines, m.finish())
    }

    #[test]
    fn rows_are_put_in_order_and_far_late_ones_reported() {
        // More rows than one batch takes, so the late one comes after its
        // time was released.
        let mut evs: Vec<Event> = (0..12_000u64)
            .map(|i| {
                // Every third row steps 2 ms back.
                let ms = i * 3 - if i % 3 == 2 { 5 } else { 0 };
                let ts = format!(
                    "2016-05-15T12:{:02}:{:02}.{:03}+00:00",
                    ms / 60_000,
                    ms / 1000 % 60,
                    ms % 1000
                );
                ev(&ts, i + 1, String::new())
            })
            .collect();
        // An hour early, long after its time was released.
        evs.push(ev("2016-05-15T11:00:00+00:00", 12_001, String::new()));
        for jobs in [1, 2] {
            let (lines, infos) = run(evs.clone(), jobs);
            assert_eq!(lines.len(), 12_001);
            let late = lines.iter().position(|&l| l == 12_001).unwrap();
            let mut rest = lines.clone();
            rest.remove(late);
            let keys: Vec<_> = rest.iter().map(|&l| evs[l as usize - 1].ts).collect();
            assert!(keys.windows(2).all(|w| w[0] <= w[1]), "jobs {jobs}");
            assert_eq!(infos[0].problem_count, 1);
            assert_eq!(infos[0].problems[0].line, Some(12_001));
        }
    }

    #[test]
    fn rows_held_back_beyond_a_batch_still_flow() {
        // Many sources make batches small (a share of the memory each)
        // while a source may still hold back more than a batch's bytes:
        // rows of 20 KB, all at one instant (within the window).
        let spec = Arc::new(RowSpec::new(TimelineFormat::Csv));
        let sources: Vec<Box<dyn Source>> = (0..48)
            .map(|_| {
                let evs: Vec<Event> = (0..200u64)
                    .map(|i| ev("2016-05-15T12:00:00+00:00", i + 1, "x".repeat(20_000)))
                    .collect();
                Box::new(VecSource(evs.into_iter())) as Box<dyn Source>
            })
            .collect();
        let mut m = RowMerged::new(sources, spec, 1);
        let mut out = Vec::new();
        m.write_all(&mut out, &TimeWindow::default()).unwrap();
        assert_eq!(out.iter().filter(|&&c| c == b'\n').count(), 48 * 200);
    }

    /// Rows without a time come after the dated ones (a time past 2262 is
    /// still left out), and in no window.
    #[test]
    fn undated_rows_come_last_and_in_no_window() {
        let o = Arc::new(Origin {
            path: Arc::from("a"),
            format: mqdiag_readers::formats::trace::FORMAT,
        });
        let undated = |line| Event::undated(o.clone(), line, Kind::LogRecord, String::new());
        let evs = vec![
            undated(1),
            ev("2016-05-15T12:00:00+00:00", 2, String::new()),
            ev("2300-01-01T00:00:00+00:00", 3, String::new()),
            undated(4),
            ev("2016-05-15T12:00:01+00:00", 5, String::new()),
        ];
        for jobs in [1, 2] {
            let (lines, infos) = run(evs.clone(), jobs);
            assert_eq!(lines, [2, 5, 1, 4], "jobs {jobs}");
            // The row past 2262 only: an undated row before dated ones is
            // no step back in time.
            assert_eq!(infos[0].problems.len(), 1, "{:?}", infos[0].problems);
            assert_eq!(infos[0].problems[0].line, Some(3));
        }
        let spec = Arc::new(RowSpec::new(TimelineFormat::Csv));
        let src: Box<dyn Source> = Box::new(VecSource(evs.into_iter()));
        let mut m = RowMerged::new(vec![src], spec, 1);
        let since = DateTime::parse_from_rfc3339("2000-01-01T00:00:00+00:00").ok();
        let w = TimeWindow {
            since,
            ..Default::default()
        };
        let mut out = Vec::new();
        assert_eq!(m.write_all(&mut out, &w).unwrap(), 2);
    }

    /// Rows left out for their time leave no bytes behind: the others
    /// keep theirs, moved back.
    #[test]
    fn dropped_ranges_leave_the_other_rows_whole() {
        let row = |start: usize, end: usize| Row {
            key: 0,
            offset: 0,
            start,
            end,
        };
        let mut b = RowBatch {
            bytes: b"keep0\nDROP\nkeep1\nDROPDROP\nkeep2\n".to_vec(),
            rows: vec![row(0, 6), row(11, 17), row(26, 32)],
            ..Default::default()
        };
        drop_ranges(&mut b, &[(6, 11), (17, 26)]);
        assert_eq!(b.bytes, b"keep0\nkeep1\nkeep2\n");
        let shown: Vec<&[u8]> = b.rows.iter().map(|r| &b.bytes[r.start..r.end]).collect();
        assert_eq!(shown, [&b"keep0\n"[..], b"keep1\n", b"keep2\n"]);
    }
}
