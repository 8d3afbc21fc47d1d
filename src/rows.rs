//! `timeline` output rendered where the events are read: each worker turns
//! its source's events (or, for plain text, its trace lines directly) into
//! finished rows, held in order in one byte buffer per source. The merge
//! then only compares keys and copies bytes, so it no longer limits how
//! fast a timeline is written.

use crate::cli::TimeWindow;
use crate::event::{Event, Origin, Ts};
use crate::output::timeline::{RowRenderer, TimelineFormat};
use crate::source::{FileInfo, Source};
use crate::timeline::{Batch, Merge, Order, Producer, report_late, source_caps};
use chrono::{DateTime, FixedOffset};
use regex::Regex;
use std::io::{self, Write};
use std::sync::Arc;

/// Which rows are wanted, and how they are written.
pub struct RowSpec {
    pub format: TimelineFormat,
    /// Only events of this process id.
    pub pid: Option<u32>,
    /// Only events with this trace ident.
    pub ident: Option<String>,
    /// Only events whose text or function matches.
    pub grep: Option<Regex>,
}

impl RowSpec {
    pub fn new(format: TimelineFormat) -> Self {
        RowSpec {
            format,
            pid: None,
            ident: None,
            grep: None,
        }
    }

    /// The event filters (the time window is applied by the merge).
    pub fn wants(&self, e: &Event) -> bool {
        (self.pid.is_none() || e.pid == self.pid)
            && self
                .ident
                .as_deref()
                .is_none_or(|id| e.ident.as_deref() == Some(id))
            && self.grep.as_ref().is_none_or(|re| {
                re.is_match(&e.text) || e.function.as_deref().is_some_and(|f| re.is_match(f))
            })
    }

    /// Text rows with no filter on what an event holds: a reader may render
    /// them straight from its lines, with no event built.
    pub fn raw_text(&self) -> bool {
        self.format == TimelineFormat::Text
            && self.pid.is_none()
            && self.ident.is_none()
            && self.grep.is_none()
    }
}

/// A source's rendering state.
pub struct RowSink {
    pub spec: Arc<RowSpec>,
    pub renderer: RowRenderer,
    /// The file of the last row rendered from an event (`None` after rows a
    /// reader rendered itself: then the source names its current file).
    pub origin: Option<Arc<Origin>>,
}

impl RowSink {
    pub fn new(spec: Arc<RowSpec>) -> Self {
        RowSink {
            spec,
            renderer: RowRenderer::default(),
            origin: None,
        }
    }

    /// Append `e`'s row to `out`.
    pub fn event_row(&mut self, e: Event, out: &mut Vec<u8>) -> RowMeta {
        self.renderer.render(self.spec.format, &e, out);
        let meta = RowMeta {
            key: e.ts.timestamp_nanos_opt().unwrap_or(i64::MAX),
            offset: e.ts.offset().local_minus_utc(),
            line: e.line,
        };
        self.origin = Some(e.origin);
        meta
    }
}

/// What the merge needs of a row besides its bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RowMeta {
    /// The instant, UTC nanoseconds: the merge key.
    pub key: i64,
    /// The row's UTC offset in seconds (to give the first row's time).
    pub offset: i32,
    /// Line in its file (to locate rows that come late).
    pub line: u64,
}

/// The row of the source's next wanted event: what a `Source` does unless
/// it renders rows itself.
pub fn next_event_row<S: Source + ?Sized>(
    src: &mut S,
    sink: &mut RowSink,
    out: &mut Vec<u8>,
) -> Option<RowMeta> {
    loop {
        let e = src.next_event()?;
        if sink.spec.wants(&e) {
            return Some(sink.event_row(e, out));
        }
    }
}

/// Finished rows of one source, in order.
#[derive(Default)]
pub struct RowBatch {
    bytes: Vec<u8>,
    /// Key, UTC offset and end in `bytes` of each row.
    rows: Vec<(i64, i32, usize)>,
    pos: usize,
}

impl Batch for RowBatch {
    fn front_key(&self) -> Option<i64> {
        self.rows.get(self.pos).map(|r| r.0)
    }
    fn reset(&mut self) {
        self.bytes.clear();
        self.rows.clear();
        self.pos = 0;
    }
}

impl RowBatch {
    fn push(&mut self, key: i64, offset: i32, row: &[u8]) {
        self.bytes.extend_from_slice(row);
        self.rows.push((key, offset, self.bytes.len()));
    }

    /// The front row's key and bytes, taken.
    fn take_front(&mut self) -> Option<(i64, &[u8])> {
        let (k, _, end) = *self.rows.get(self.pos)?;
        let start = match self.pos {
            0 => 0,
            p => self.rows[p - 1].2,
        };
        self.pos += 1;
        Some((k, &self.bytes[start..end]))
    }

    fn front_time(&self) -> Option<Ts> {
        let (k, off, _) = *self.rows.get(self.pos)?;
        let off = FixedOffset::east_opt(off)?;
        Some(DateTime::from_timestamp_nanos(k).with_timezone(&off))
    }
}

/// A row held back for ordering: where its bytes are in the arena.
struct Held {
    start: usize,
    len: usize,
    offset: i32,
}

/// Bookkeeping bytes counted per held row, besides its text.
const HELD_BYTES: usize = 32;
/// The arena is compacted past this size when mostly released rows.
const ARENA_COMPACT: usize = 256 << 10;
/// Rows rendered from one source at a time (keeps it in the CPU cache).
const BURST: usize = 32;

/// A source rendered to rows, its local disorder repaired (as `Reordered`
/// does for events). Held rows live in one arena, compacted now and then:
/// no allocation per row.
pub struct RowReordered {
    src: Option<Box<dyn Source>>,
    sink: RowSink,
    arena: Vec<u8>,
    spare: Vec<u8>,
    order: Order<Held>,
    first_late: Option<(String, u64)>,
    infos: Vec<FileInfo>,
}

impl RowReordered {
    pub fn new(src: Box<dyn Source>, spec: Arc<RowSpec>, cap: usize, cap_bytes: usize) -> Self {
        RowReordered {
            src: Some(src),
            sink: RowSink::new(spec),
            arena: Vec::new(),
            spare: Vec::new(),
            order: Order::new(cap, cap_bytes),
            first_late: None,
            infos: Vec::new(),
        }
    }

    /// Render a burst of rows into the arena.
    fn pull(&mut self) {
        if self.order.is_empty() {
            self.arena.clear();
        } else if self.arena.len() > ARENA_COMPACT && self.arena.len() > 2 * self.order.bytes() {
            self.spare.clear();
            for h in self.order.items_mut() {
                let s = self.spare.len();
                self.spare
                    .extend_from_slice(&self.arena[h.start..h.start + h.len]);
                h.start = s;
            }
            std::mem::swap(&mut self.arena, &mut self.spare);
        }
        for _ in 0..BURST {
            let Some(src) = self.src.as_mut() else { return };
            let at = self.arena.len();
            let Some(m) = src.next_row(&mut self.sink, &mut self.arena) else {
                if let Some(s) = self.src.take() {
                    self.infos = s.finish();
                }
                return;
            };
            if self.first_late.is_none() && self.order.is_late(m.key) {
                let origin = self.sink.origin.clone().or_else(|| src.current_origin());
                self.first_late = Some((
                    origin.map(|o| o.path.to_string()).unwrap_or_default(),
                    m.line,
                ));
            }
            let len = self.arena.len() - at;
            let held = Held {
                start: at,
                len,
                offset: m.offset,
            };
            self.order.hold(m.key, held, len + HELD_BYTES);
        }
    }
}

impl Producer for RowReordered {
    type Batch = RowBatch;

    fn fill(&mut self, b: &mut RowBatch, n: usize, bytes: usize) {
        let first = b.rows.len();
        while b.rows.len() - first < n && b.bytes.len() < bytes {
            let ended = self.src.is_none();
            if let Some((k, h)) = self.order.release(ended, |h| h.len + HELD_BYTES) {
                b.push(k, h.offset, &self.arena[h.start..h.start + h.len]);
                continue;
            }
            if ended {
                break;
            }
            self.pull();
        }
    }

    fn finish(mut self) -> Vec<FileInfo> {
        if let Some(s) = self.src.take() {
            self.infos = s.finish();
        }
        report_late(&mut self.infos, self.order.late, self.first_late.take());
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
    pub fn peek_ts(&self) -> Option<Ts> {
        let (_, i) = self.0.peek()?;
        self.0.batch_ref(i).front_time()
    }

    /// Write every row whose time is in `window`, in order.
    pub fn write_all(&mut self, out: &mut dyn Write, window: &TimeWindow) -> io::Result<()> {
        let nanos = |t: &Option<Ts>, none: i64| {
            t.as_ref()
                .map_or(none, |t| t.timestamp_nanos_opt().unwrap_or(i64::MAX))
        };
        let (lo, hi) = (
            nanos(&window.since, i64::MIN),
            nanos(&window.until, i64::MAX),
        );
        let mut buf: Vec<u8> = Vec::with_capacity(OUT_CHUNK + (64 << 10));
        while let Some(i) = self.0.pop() {
            if let Some((k, row)) = self.0.batch(i).take_front()
                && (lo..=hi).contains(&k)
            {
                buf.extend_from_slice(row);
                if buf.len() >= OUT_CHUNK {
                    out.write_all(&buf)?;
                    buf.clear();
                }
            }
            self.0.advance(i);
        }
        out.write_all(&buf)
    }

    /// Per-file facts, once the rows are written (or given up).
    pub fn finish(self) -> Vec<FileInfo> {
        self.0.finish()
    }
}
