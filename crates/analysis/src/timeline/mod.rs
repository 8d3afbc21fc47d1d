//! One time-ordered stream out of many sources: a small reorder buffer per
//! source (trace threads interleave a few milliseconds out of order), then a
//! k-way merge. Memory is bounded by the number of sources, never their size.

use mqdiag_model::event::Event;
use mqdiag_model::fileinfo::FileInfo;
use mqdiag_model::problem::{ProblemCode, Severity};
use mqdiag_model::redact::{Learnt, Preparer};
use mqdiag_readers::source::Source;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};
use std::sync::Mutex;
use std::thread;

mod window;
pub use window::{TimeWindow, note_undated_left_out};

/// How far back in time a source may step and still be put in order.
pub(crate) const REORDER_WINDOW_NANOS: i64 = 1_000_000_000;
/// How many events one source may hold back at most.
/// (Kept small enough that the buffer stays in the CPU cache.)
pub(crate) const REORDER_CAP: usize = 256;
/// Events read from one source at a time.
const BURST: usize = 32;
/// ... and at most this many bytes of events (SMF rows are large).
pub(crate) const REORDER_BYTES: usize = 4 << 20;

/// Sort key: the instant (UTC nanoseconds), then arrival order. A record
/// without a time (`event::undated`, which has no nanosecond count) keys
/// `i64::MAX`: after every dated event, in source (path) and then line
/// order, for any number of jobs. (A time past 2262 keys the same but
/// never reaches the merge: `Reordered` leaves it out.)
fn instant(e: &Event) -> i64 {
    e.ts.timestamp_nanos_opt().unwrap_or(i64::MAX)
}

/// Items of one source held back until they can be released in order.
///
/// Items mostly arrive in order, so the buffer is a deque kept sorted by
/// insertion: an in-order item is a push at the back; a late one is placed
/// by binary search near the back. No heap sifting.
pub(crate) struct Order<T> {
    buf: VecDeque<(i64, T)>,
    bytes: usize,
    cap: usize,
    cap_bytes: usize,
    newest: i64,
    released: i64,
    /// Items that came too late to be put in order.
    pub(crate) late: u64,
    /// How far the latest of them was behind what had gone before it, in
    /// nanoseconds: items are released when the buffer is full as well as
    /// when they leave the window, so this may be far less than the window.
    pub(crate) max_late: i64,
}

impl<T> Order<T> {
    pub(crate) fn new(cap: usize, cap_bytes: usize) -> Self {
        Order {
            buf: VecDeque::new(),
            bytes: 0,
            cap,
            cap_bytes,
            newest: i64::MIN,
            released: i64::MIN,
            late: 0,
            max_late: 0,
        }
    }

    /// Hold an item of about `bytes` bytes. Returns true when it came too
    /// late to be put in order: it is passed on next (everything still held
    /// is later).
    pub(crate) fn hold(&mut self, k: i64, t: T, bytes: usize) -> bool {
        self.bytes += bytes;
        if k < self.released {
            self.late += 1;
            self.max_late = self.max_late.max(self.released.saturating_sub(k));
            self.buf.push_front((k, t));
            return true;
        }
        self.newest = self.newest.max(k);
        if self.buf.back().is_none_or(|(b, _)| *b <= k) {
            self.buf.push_back((k, t));
        } else {
            // After any equal keys: arrival order is kept.
            let at = self.buf.partition_point(|(b, _)| *b <= k);
            self.buf.insert(at, (k, t));
        }
        false
    }

    /// The next item, if it may go: it is out of the window, the buffer is
    /// full, or `ended` (nothing more will come). `size` gives back the
    /// bytes `hold` was told.
    #[cfg(test)]
    pub(crate) fn release(&mut self, ended: bool, size: impl Fn(&T) -> usize) -> Option<(i64, T)> {
        let k = self.buf.front()?.0;
        let mut one = Vec::with_capacity(1);
        self.release_into(ended, &mut one, 1, 1, size);
        Some((k, one.pop()?))
    }

    /// `release` again and again into `out`, while `out` takes fewer than
    /// `n` items and they came to fewer than `bytes` bytes (one at least):
    /// each item is moved once, from the buffer to `out`. Returns the
    /// bytes moved.
    pub(crate) fn release_into(
        &mut self,
        ended: bool,
        out: &mut Vec<T>,
        n: usize,
        bytes: usize,
        size: impl Fn(&T) -> usize,
    ) -> usize {
        let (mut m, mut got) = (0, 0);
        let (mut len, mut held, mut released) = (self.buf.len(), self.bytes, self.released);
        let window = self.newest.saturating_sub(REORDER_WINDOW_NANOS);
        for (k, t) in self.buf.iter() {
            if m == n || got >= bytes {
                break;
            }
            let ready = ended || len >= self.cap || held >= self.cap_bytes || *k <= window;
            if !ready {
                break;
            }
            let b = size(t);
            (len, held, released) = (len - 1, held - b, released.max(*k));
            got += b;
            m += 1;
        }
        (self.bytes, self.released) = (held, released);
        out.extend(self.buf.drain(..m).map(|(_, t)| t));
        got
    }

    /// Once nothing more will come: each held item made as small as it
    /// can be (`shrink`), and the deque no larger than they need. A merge
    /// of many small files holds every file's last items until their
    /// turn: 20,000 one-record error logs held 2.5 KB each in room left
    /// for records still to come.
    pub(crate) fn compact(&mut self, shrink: impl FnMut(&mut T)) {
        let mut shrink = shrink;
        self.buf.iter_mut().for_each(|(_, t)| shrink(t));
        self.buf.shrink_to_fit();
    }

    /// Whether an item with this key would come too late to be put in order.
    pub(crate) fn is_late(&self, k: i64) -> bool {
        k < self.released
    }
}

/// A lateness for people: `250 µs`, `100 ms`, `1.5 s`, `3600 s`.
pub(crate) fn lateness(nanos: i64) -> String {
    if nanos < 1_000_000 {
        format!("{} µs", nanos / 1_000)
    } else if nanos < 1_000_000_000 {
        format!("{} ms", nanos / 1_000_000)
    } else if nanos < 10_000_000_000 {
        format!("{:.1} s", nanos as f64 / 1e9)
    } else {
        format!("{} s", nanos / 1_000_000_000)
    }
}

/// The problem a source's late items make, attached to the file of the
/// first one. `max_late`: how far behind the events already placed the
/// latest of them was (nanoseconds), as said, never the window: an item
/// is also released when its source's buffer is full, so one 100 ms late
/// may already be out of order.
pub(crate) fn report_late(
    infos: &mut [FileInfo],
    late: u64,
    max_late: i64,
    first: Option<(String, u64)>,
) {
    if late == 0 {
        return;
    }
    let (path, line) = first.unwrap_or_default();
    let msg = format!(
        "{late} event(s) were up to {} earlier than events before them and appear late in the timeline",
        lateness(max_late)
    );
    let at = infos.iter().position(|i| i.path == path).unwrap_or(0);
    if let Some(fi) = infos.get_mut(at) {
        fi.problem(ProblemCode::OutOfOrder, Some(line), Severity::Info, 0, msg);
    }
}

use mqdiag_model::timefmt::orderable;

/// Whether a time can be ordered and printed (see `orderable`).
fn ts_orderable(t: &mqdiag_model::event::Ts) -> bool {
    t.timestamp_nanos_opt().is_some_and(orderable)
}

/// What the problem `OutOfRange::report` makes says after its count.
const LEFT_OUT: &str = "event(s) dated outside 1970-01-01 .. 2262-04-11";

/// The events left out for their time (`OutOfRange`). A reader's own
/// `bad-time` problems are not counted: those lines never became events.
pub fn left_out(infos: &[FileInfo]) -> u64 {
    infos
        .iter()
        .flat_map(|i| &i.problems)
        .filter(|p| p.code == ProblemCode::BadTime && p.line.is_some())
        .filter(|p| {
            p.message
                .split_once(' ')
                .is_some_and(|(n, rest)| rest.starts_with(LEFT_OUT) && n.parse::<u64>().is_ok())
        })
        .map(|p| p.lines_skipped)
        .sum()
}

/// Events a source had whose time cannot be ordered: counted, and the
/// first one's place kept, for one problem at the end.
#[derive(Default)]
pub(crate) struct OutOfRange {
    count: u64,
    first: Option<(String, u64)>,
}

impl OutOfRange {
    pub(crate) fn saw(&mut self, path: impl FnOnce() -> String, line: u64) {
        self.count += 1;
        if self.first.is_none() {
            self.first = Some((path(), line));
        }
    }

    pub(crate) fn report(&mut self, infos: &mut [FileInfo]) {
        // A file's range is never printed outside what can be ordered:
        // times a reader only skipped over (not built as events) are told
        // here, once per file.
        for fi in infos.iter_mut() {
            let bad: Vec<mqdiag_model::event::Ts> = [fi.first, fi.last]
                .into_iter()
                .flatten()
                .filter(|t| !ts_orderable(t))
                .collect();
            if bad.is_empty() {
                continue;
            }
            fi.first = fi.first.filter(ts_orderable);
            fi.last = fi.last.filter(ts_orderable);
            if self.first.as_ref().is_some_and(|(p, _)| *p == fi.path) {
                continue;
            }
            let mut years: Vec<String> = bad.iter().map(|t| t.format("%Y").to_string()).collect();
            years.dedup();
            fi.problem(
                ProblemCode::BadTime,
                None,
                Severity::Warning,
                0,
                format!(
                    "times in year {} (outside 1970-01-01 .. 2262-04-11: a misread date or a clock gone astray): not shown",
                    years.join(" and ")
                ),
            );
        }
        let Some((path, line)) = self.first.take() else {
            return;
        };
        let at = infos.iter().position(|i| i.path == path).unwrap_or(0);
        if let Some(fi) = infos.get_mut(at) {
            fi.problem(
                ProblemCode::BadTime,
                Some(line),
                Severity::Warning,
                self.count,
                format!(
                    "{} {LEFT_OUT} (a misread date or a clock gone astray), the first at line {line}: left out",
                    self.count
                ),
            );
        }
    }
}

thread_local! {
    /// `Reordered::pull`'s buffer for a burst of events.
    static BURST_BUFFER: std::cell::Cell<Vec<Event>> = const { std::cell::Cell::new(Vec::new()) };
}

/// A source whose local disorder (within the window) is repaired.
pub(crate) struct Reordered {
    src: Option<Box<dyn Source>>,
    order: Order<Event>,
    first_late_line: Option<(String, u64)>,
    infos: Vec<FileInfo>,
    out_of_range: OutOfRange,
    /// With `--redact` learning: what each event holds for it is found
    /// here, where the source is read (`Merged::learning`).
    prep: Option<Preparer>,
}

impl Reordered {
    /// With the default buffers (the tests'; merges size them).
    #[cfg(test)]
    pub(crate) fn new(src: Box<dyn Source>) -> Self {
        Self::with_caps(src, REORDER_CAP, REORDER_BYTES)
    }

    /// With smaller buffers, for merges of many sources.
    pub(crate) fn with_caps(src: Box<dyn Source>, cap: usize, cap_bytes: usize) -> Self {
        Reordered {
            src: Some(src),
            order: Order::new(cap, cap_bytes),
            first_late_line: None,
            infos: Vec::new(),
            out_of_range: OutOfRange::default(),
            prep: None,
        }
    }

    #[cfg(test)]
    pub(crate) fn next_event(&mut self) -> Option<Event> {
        loop {
            if let Some((_, e)) = self.order.release(self.src.is_none(), Event::approx_bytes) {
                return Some(e);
            }
            if !self.pull() {
                return None;
            }
        }
    }

    /// Pull a burst of events from the source into the reorder buffer;
    /// false when the source is done. Reading one source for a while keeps
    /// its buffers and tables in the CPU cache, where one event at a time
    /// from many files would thrash it.
    fn pull(&mut self) -> bool {
        if self.src.is_none() {
            return false;
        }
        // The thread's buffer: one per source would stay with every one of
        // 50,000 small files until its turn at the merge, and one made per
        // burst cost more than the events' moves it saves.
        let mut burst = BURST_BUFFER.take();
        burst.clear();
        let more = self
            .src
            .as_mut()
            .is_some_and(|s| s.next_events(&mut burst, BURST));
        for e in burst.drain(..) {
            let k = instant(&e);
            if !orderable(k) && !e.is_undated() {
                self.out_of_range.saw(|| e.path().to_string(), e.line);
                continue;
            }
            if self.first_late_line.is_none() && self.order.is_late(k) {
                self.first_late_line = Some((e.path().to_string(), e.line));
            }
            let size = e.approx_bytes();
            self.order.hold(k, e, size);
        }
        BURST_BUFFER.set(burst);
        if !more && let Some(s) = self.src.take() {
            self.infos = s.finish();
            self.order.compact(Event::shrink_to_fit);
        }
        true
    }

    pub(crate) fn finish(mut self) -> Vec<FileInfo> {
        if let Some(s) = self.src.take() {
            self.infos = s.finish();
        }
        report_late(
            &mut self.infos,
            self.order.late,
            self.order.max_late,
            self.first_late_line.take(),
        );
        self.out_of_range.report(&mut self.infos);
        self.infos
    }
}

/// Reorder buffers shrink as sources multiply, so that the total stays
/// bounded (about 64k items and 64 MiB) however many files a case holds:
/// past 256 sources each holds fewer than 256 items, down to 16 (4,096
/// overlapping traces: `timeline` jsonl peaked at 381 MB with a floor of
/// 64, 206 MB with 16, the same rows in the same order).
pub(crate) fn source_caps(n: usize) -> (usize, usize) {
    let n = n.max(1);
    (
        ((1usize << 16) / n).clamp(16, REORDER_CAP),
        ((64usize << 20) / n).clamp(256 << 10, REORDER_BYTES),
    )
}

fn reordered(src: Box<dyn Source>, n: usize, prep: Option<&Preparer>) -> Reordered {
    let (cap, cap_bytes) = source_caps(n);
    let mut r = Reordered::with_caps(src, cap, cap_bytes);
    r.prep = prep.cloned();
    r
}

/// Items a worker hands to the merge in one go.
pub(crate) trait Batch: Send + Default + 'static {
    /// The key of the next item not yet taken.
    fn front_key(&self) -> Option<i64>;
    /// Emptied, for reuse.
    fn reset(&mut self);
    /// Its items copied into memory of this thread's (`Pool::read_first`);
    /// returns the original.
    fn rehome(&mut self) -> Self;
}

/// Events of one source for the merge. Events taken stay in the batch
/// until it is emptied for reuse by the thread that fills it next (a
/// worker, or the merge when it reads a batch itself), whose readers
/// build their next events in the buffers (`Event::recycle`): freeing
/// events one by one as the merge took them cost the allocator more than
/// parsing error logs did.
#[derive(Default)]
pub(crate) struct EventBatch {
    events: Vec<Event>,
    pos: usize,
    /// With `--redact` learning, what each event holds for it (the
    /// event's index) when `prepared`; kept with their buffers for reuse.
    learnt: Vec<Learnt>,
    prepared: bool,
}

impl EventBatch {
    fn front(&self) -> Option<&Event> {
        self.events.get(self.pos)
    }

    /// What the front event holds for learning, when it was prepared.
    fn front_learnt(&self) -> Option<&Learnt> {
        self.learnt.get(self.pos).filter(|_| self.prepared)
    }
}

impl Batch for EventBatch {
    fn front_key(&self) -> Option<i64> {
        self.front().map(instant)
    }
    fn rehome(&mut self) -> Self {
        let copy = EventBatch {
            events: self.events[self.pos..].to_vec(),
            pos: 0,
            // Read first, never prepared (`fill_next` is told the merge
            // is not busy); copied all the same if it were.
            learnt: match self.prepared {
                true => self.learnt[self.pos.min(self.learnt.len())..].to_vec(),
                false => Vec::new(),
            },
            prepared: self.prepared,
        };
        std::mem::replace(self, copy)
    }
    fn reset(&mut self) {
        // Their buffers serve the events this thread reads next.
        Event::recycle_all(self.events.drain(..));
        self.pos = 0;
        self.prepared = false;
    }
}

/// One source, made ready for the merge: it fills batches in order.
pub(crate) trait Producer: Send + 'static {
    type Batch: Batch;
    /// Append to `b` up to `n` items or about `bytes` bytes; nothing
    /// appended means the source is done.
    fn fill(&mut self, b: &mut Self::Batch, n: usize, bytes: usize);
    /// `fill` on a worker thread, told whether the merge has batches of
    /// this source waiting: it is then the slower side, and the worker
    /// takes on work of the merge's (`Reordered` prepares its events for
    /// `--redact`'s learning). Either way the merge's output is the same.
    fn fill_busy(&mut self, b: &mut Self::Batch, n: usize, bytes: usize, _merge_busy: bool) {
        self.fill(b, n, bytes)
    }
    fn finish(self) -> Vec<FileInfo>;
    /// What it keeps for later copied into memory of this thread's
    /// (`Pool::read_first`); returns the originals.
    fn rehome(&mut self) -> Vec<FileInfo> {
        Vec::new()
    }
}

impl Producer for Reordered {
    type Batch = EventBatch;
    fn fill(&mut self, b: &mut EventBatch, n: usize, bytes: usize) {
        self.fill_busy(b, n, bytes, false)
    }
    fn fill_busy(&mut self, b: &mut EventBatch, n: usize, bytes: usize, merge_busy: bool) {
        let mut got = 0;
        // A batch is prepared whole or not at all: the merge thread
        // learns the events of one that is not from the events themselves
        // (`Redactor::observe`), which is how the work is shared when
        // the merge thread waits for this one.
        b.prepared = merge_busy && self.prep.is_some() && b.events.is_empty();
        while b.events.len() - b.pos < n && got < bytes {
            // Events are moved once, from the reorder buffer to the batch:
            // all that may go at once, or one at a time when prepared.
            let want = match b.prepared {
                true => 1,
                false => n - (b.events.len() - b.pos),
            };
            let from = b.events.len();
            let ended = self.src.is_none();
            got += self.order.release_into(
                ended,
                &mut b.events,
                want,
                bytes - got,
                Event::approx_bytes,
            );
            if b.events.len() == from {
                if self.pull() {
                    continue;
                }
                break;
            }
            if b.prepared
                && let Some(p) = &mut self.prep
            {
                // In the order the merge takes this source's events, so
                // what the preparer skips as met before was learnt before.
                let i = from;
                if b.learnt.len() <= i {
                    b.learnt.resize_with(i + 1, Learnt::default);
                }
                p.prepare(&b.events[i], &mut b.learnt[i]);
                got += b.learnt[i].approx_bytes();
            }
        }
        if self.src.is_none() {
            // The source's last batch waits for its turn at the merge.
            b.events.shrink_to_fit();
            b.learnt.truncate(b.events.len());
            b.learnt.shrink_to_fit();
            // What the preparer remembers of the source goes with it.
            if let Some(p) = &mut self.prep {
                *p = p.emptied();
            }
            // As does the source, with no more use for its buffer.
            if self.order.buf.is_empty() {
                self.order.buf = VecDeque::new();
            }
        }
    }
    fn finish(self) -> Vec<FileInfo> {
        Reordered::finish(self)
    }
    fn rehome(&mut self) -> Vec<FileInfo> {
        let copy = self.infos.clone();
        std::mem::replace(&mut self.infos, copy)
    }
}

mod pool;
use pool::{Feed, LAZY_SOURCES, Msg, Pool, batch_caps};

/// The k-way merge of the batches of many producers. The caller takes the
/// item at the front of `batch(i)` for the `i` that `pop` gives, then
/// calls `advance(i)`.
pub(crate) struct Merge<P: Producer> {
    feeds: Vec<Feed<P>>,
    pool: Option<Pool<P>>,
    heap: BinaryHeap<Reverse<(i64, usize)>>,
    caps: (usize, usize),
}

impl<P: Producer> Merge<P> {
    /// `jobs` worker threads fill the batches (1: none, all on this
    /// thread). The order is the same for any `jobs`.
    pub(crate) fn start(producers: Vec<P>, jobs: usize) -> Self {
        let n = producers.len();
        let (pool, feeds) = if jobs > 1 && n > 0 {
            let (p, mut f) = Pool::start(producers, jobs);
            if n > LAZY_SOURCES {
                for (feed, m) in f.iter_mut().zip(p.read_first(jobs)) {
                    feed.first = m;
                }
            }
            (Some(p), f)
        } else {
            let f = producers.into_iter().map(|p| Feed::new(Some(p))).collect();
            (None, f)
        };
        let mut m = Merge {
            feeds,
            pool,
            heap: BinaryHeap::with_capacity(n),
            caps: batch_caps(n),
        };
        for i in 0..n {
            m.advance(i);
        }
        m
    }

    /// Make source `i`'s next item reachable at the front of its batch,
    /// receiving or filling the next batch when needed. Returns its key.
    fn load(&mut self, i: usize) -> Option<i64> {
        let (n, bytes) = self.caps;
        let f = &mut self.feeds[i];
        loop {
            if let Some(k) = f.cur.front_key() {
                return Some(k);
            }
            if f.done {
                // Its last events were taken: their memory and its
                // channel's go now, not when the merge ends (50,000
                // one-record files held all of theirs to the end).
                f.cur.reset();
                f.cur = P::Batch::default();
                f.rx = None;
                return None;
            }
            if let Some(p) = f.local.as_mut() {
                f.cur.reset();
                p.fill(&mut f.cur, n, bytes);
                if f.cur.front_key().is_none() {
                    f.done = true;
                    f.infos = f.local.take().map(P::finish).unwrap_or_default();
                }
                continue;
            }
            let msg = match (&self.pool, f.rx.as_ref()) {
                _ if f.first.is_some() => f.first.take(),
                (Some(p), Some(rx)) => p.next_msg(i, rx),
                (Some(p), None) => p.fill_here(i),
                _ => None,
            };
            let v = match msg {
                Some(Msg::Batch(v)) => {
                    if let Some(p) = &self.pool {
                        p.request(i, f);
                    }
                    v
                }
                Some(Msg::Extra(v)) => {
                    // Many sources: each is read here until it shows a
                    // second batch; only then do the workers take it. A
                    // file of one batch (most of 50,000 small ones) then
                    // never has a channel or a worker's memory, as with
                    // one job.
                    if let Some(p) = &self.pool
                        && f.rx.is_none()
                    {
                        f.here = f.here.saturating_add(1);
                        if f.here >= 2 {
                            p.request(i, f);
                        }
                    }
                    v
                }
                Some(Msg::Done(fi)) => {
                    f.done = true;
                    f.infos = fi;
                    continue;
                }
                None => {
                    f.done = true;
                    continue;
                }
            };
            let done_with = std::mem::replace(&mut f.cur, v);
            if let Some(p) = &self.pool
                && let Ok(mut s) = p.spare.lock()
                && s.len() < p.spare_cap
            {
                s.push(done_with);
            }
        }
    }

    /// The source holding the next item in order. The caller takes that
    /// item from `batch(i)`, then calls `advance_top`.
    pub(crate) fn top(&self) -> Option<usize> {
        self.heap.peek().map(|Reverse((_, i))| *i)
    }

    /// Put the top source in its place again after its front item was
    /// taken: one sift of the heap, not a pop and a push.
    pub(crate) fn advance_top(&mut self) {
        let Some(i) = self.top() else { return };
        match self.load(i) {
            Some(k) => {
                if let Some(mut t) = self.heap.peek_mut() {
                    *t = Reverse((k, i));
                }
            }
            None => {
                self.heap.pop();
            }
        }
    }

    /// The source and key of the next item, without taking it.
    /// The feeds that have an item waiting, in no particular order.
    pub(crate) fn waiting(&self) -> impl Iterator<Item = usize> + '_ {
        self.heap.iter().map(|Reverse((_, i))| *i)
    }

    pub(crate) fn peek(&self) -> Option<(i64, usize)> {
        self.heap.peek().map(|Reverse(t)| *t)
    }

    /// Source `i`'s current batch.
    pub(crate) fn batch(&mut self, i: usize) -> &mut P::Batch {
        &mut self.feeds[i].cur
    }

    /// Source `i`'s current batch, to look at.
    pub(crate) fn batch_ref(&self, i: usize) -> &P::Batch {
        &self.feeds[i].cur
    }

    /// Put source `i` in the merge (at the start).
    fn advance(&mut self, i: usize) {
        if let Some(k) = self.load(i) {
            self.heap.push(Reverse((k, i)));
        }
    }

    /// Per-file facts, once the stream is drained (or given up).
    pub(crate) fn finish(mut self) -> Vec<FileInfo> {
        let mut late = match self.pool.take() {
            Some(mut p) => p.stop(),
            None => Vec::new(),
        };
        let mut out: Vec<FileInfo> = Vec::new();
        for (i, f) in std::mem::take(&mut self.feeds).into_iter().enumerate() {
            out.extend(f.infos);
            if let Some(p) = f.local {
                out.extend(p.finish());
            }
            // A source a worker (or the first read) finished before the
            // merge took its last batch: its facts wait in a message (the
            // workers are joined: nothing more comes).
            if let Some(Msg::Done(infos)) = f.first {
                out.extend(infos);
            }
            if let Some(rx) = f.rx {
                for m in rx.try_iter() {
                    if let Msg::Done(infos) = m {
                        out.extend(infos);
                    }
                }
            }
            if let Some(pos) = late.iter().position(|(j, _)| *j == i) {
                out.extend(late.swap_remove(pos).1);
            }
        }
        out.sort_by(|a, b| a.path.cmp(&b.path));
        out
    }
}

/// The k-way merge of all sources' events.
pub struct Merged {
    merge: Merge<Reordered>,
    /// The source whose front event was handed out last: it is taken (and
    /// the merge moved on) at the next call.
    taken: bool,
}

impl Merged {
    /// Merge on this thread only (the tests').
    #[cfg(test)]
    pub(crate) fn new(sources: Vec<Box<dyn Source>>) -> Self {
        Self::with_jobs(sources, 1)
    }

    /// Merge with `jobs` worker threads parsing the sources (1: none, all
    /// on this thread). The output is the same for any `jobs`.
    pub fn with_jobs(sources: Vec<Box<dyn Source>>, jobs: usize) -> Self {
        Self::learning(sources, jobs, None)
    }

    /// `with_jobs`, with what each event holds for `--redact`'s learning
    /// found by a copy of `prep` per source, on the thread that reads it
    /// (`next_learnt`); the redactor learns it in the merged order.
    pub fn learning(sources: Vec<Box<dyn Source>>, jobs: usize, prep: Option<Preparer>) -> Self {
        let n = sources.len();
        let producers = sources
            .into_iter()
            .map(|s| reordered(s, n, prep.as_ref()))
            .collect();
        Merged {
            merge: Merge::start(producers, jobs),
            taken: false,
        }
    }

    /// `next_ref`, with what the event holds for learning when the merge
    /// is `learning`.
    pub fn next_learnt(&mut self) -> Option<(&Event, Option<&Learnt>)> {
        self.move_on();
        let i = self.merge.top()?;
        self.taken = true;
        let b = self.merge.batch_ref(i);
        Some((b.front()?, b.front_learnt()))
    }

    /// The next event in time order, lent: it stays in its batch, to be
    /// freed by the worker that built it.
    pub fn next_ref(&mut self) -> Option<&Event> {
        self.move_on();
        let i = self.merge.top()?;
        self.taken = true;
        self.merge.batch_ref(i).front()
    }

    /// Take the event lent out last, if any.
    fn move_on(&mut self) {
        if std::mem::take(&mut self.taken)
            && let Some(i) = self.merge.top()
        {
            self.merge.batch(i).pos += 1;
            self.merge.advance_top();
        }
    }

    /// The time of the next event, without taking it (`None` when it has
    /// none: every dated event has gone).
    pub(crate) fn peek_ts(&mut self) -> Option<mqdiag_model::event::Ts> {
        self.move_on();
        let i = self.merge.top()?;
        self.merge
            .batch_ref(i)
            .front()
            .filter(|e| !e.is_undated())
            .map(|e| e.ts)
    }

    /// The time to read a time of day in (`--since 06:22`): the earliest
    /// waiting event of a trace or error log, else the next event. An SMF
    /// row in UTC that comes first does not decide the offset of a window
    /// picked from a trace at -04:00.
    pub fn reference_ts(&mut self) -> Option<mqdiag_model::event::Ts> {
        self.move_on();
        let local = self
            .merge
            .waiting()
            .filter_map(|i| self.merge.batch_ref(i).front())
            .filter(|e| e.origin.format.states_local_time() && !e.is_undated())
            .min_by_key(|e| (instant(e), e.origin.path.clone()))
            .map(|e| e.ts);
        local.or_else(|| self.peek_ts())
    }

    /// Per-file facts, once the stream is drained (or given up).
    pub fn finish(self) -> Vec<FileInfo> {
        self.merge.finish()
    }
}

/// Owned events (a copy of each), for tests that keep them.
#[cfg(test)]
impl Iterator for Merged {
    type Item = Event;
    fn next(&mut self) -> Option<Event> {
        self.next_ref().cloned()
    }
}

/// Drain every source without merging (for `inventory`).
pub fn drain_all(sources: Vec<Box<dyn Source>>) -> Vec<FileInfo> {
    drain_all_jobs(sources, 1)
}

/// The same with `jobs` threads, each draining whole sources in turn.
pub fn drain_all_jobs(sources: Vec<Box<dyn Source>>, jobs: usize) -> Vec<FileInfo> {
    let drain = |mut s: Box<dyn Source>| {
        // What a merge would leave out is reported here too.
        let mut out_of_range = OutOfRange::default();
        while let Some(e) = s.next_event() {
            if !orderable(instant(&e)) && !e.is_undated() {
                out_of_range.saw(|| e.path().to_string(), e.line);
            }
        }
        let mut infos = s.finish();
        out_of_range.report(&mut infos);
        infos
    };
    let mut out: Vec<FileInfo> = if jobs <= 1 || sources.len() <= 1 {
        sources.into_iter().flat_map(drain).collect()
    } else {
        let queue = Mutex::new(sources);
        let next = || queue.lock().ok().and_then(|mut q| q.pop());
        thread::scope(|sc| {
            let handles: Vec<_> = (0..jobs)
                .map(|_| {
                    sc.spawn(|| {
                        let mut got = Vec::new();
                        while let Some(s) = next() {
                            got.extend(drain(s));
                        }
                        got
                    })
                })
                .collect();
            handles
                .into_iter()
                .flat_map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
                .collect()
        })
    };
    out.sort_by(|a, b| a.path.cmp(&b.path));
    out
}

#[cfg(test)]
mod tests;
