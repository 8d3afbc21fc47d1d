//! One large trace file on several cores. When there are fewer large files
//! than workers, the source of a large trace cuts the rest of its file into
//! blocks of whole lines and has helper threads read each block ahead (to
//! `timeline` text rows, or to events for `analyze` and the other
//! formats), not knowing what the lines before the block left behind:
//!
//! - the date: a block assumes the date the file had when it was sent, and
//!   that its first record is not across midnight from the line before;
//! - open calls: a block starts with no call open. An exit that finds
//!   nothing of its name open in the block is kept as a question (is its
//!   entry open before the block?), its row left without a duration. With
//!   calls of the block open, such an exit is taken as one whose entry the
//!   trace never saw (else it would close those calls too). An event's
//!   depth counts only the calls open in the block, and a line with no
//!   call open in the block has no function;
//! - anything else (a header or title line, a counter column) makes the
//!   block unusable.
//!
//! While the source waits for a block, it reads blocks still queued for
//! the helpers itself. It takes the blocks back in file order and stitches
//! each onto the state the lines before it left: it checks the block's
//! first record against the real clock, answers its questions from the
//! real call stacks (adding the durations to the rows or events they
//! belong to, and the calls open before the block to every event's depth
//! and function), and carries the block's open calls, clock and file facts
//! on. A block whose assumptions do not hold (its first record across
//! midnight, a question answered against what the block took, a stack
//! past its limit) is read again the usual way. Either way the rows or
//! events, their order and the file facts are those of reading the file
//! alone, whatever the number of helpers (tests hold both ways to each
//! other on every trace fixture, damaged ones among them, and on a
//! generated trace with each of these cases).

use super::{Layout, MAX_STACK, Step, Thread, TraceSource, micros_between};
use crate::input::Input;
use crate::lines::LineReader;
use crate::source::ReadOptions;
use chrono::{FixedOffset, NaiveDate, NaiveTime};
use mqdiag_model::event::{Event, Origin};
use mqdiag_model::fileinfo::FileInfo;
use mqdiag_model::sink::push_elapsed;
use mqdiag_model::sink::{RowMeta, RowSink, RowSpec};
use std::collections::VecDeque;
use std::io::{self, Read};
use std::sync::mpsc::{self, Receiver, Sender, SyncSender};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};

/// What `par_rows` did.
pub(super) enum Next {
    /// Rows copied from a stitched block (maybe none: a block was taken).
    Rows(usize),
    /// Read on the usual way: a block is being read again, or the
    /// helpers are done with the file.
    Usual,
}

/// What a source reading a block ahead keeps besides its rows or events.
#[derive(Default)]
pub(super) struct Ahead {
    /// The block cannot be stitched: it is read again.
    pub(super) hazard: bool,
    /// Rows or events made so far in the block (a question names its row).
    pub(super) rows: usize,
    /// Time of day of the first record the clock saw.
    pub(super) first_tod: Option<i64>,
    /// One per event: what the lines before the block decide of it.
    pub(super) fixes: Vec<Fix>,
}

/// What the calls open before a block change of one of its events.
#[derive(Debug, Clone, Copy)]
pub(super) struct Fix {
    pub(super) pid: u32,
    pub(super) tid: u32,
    /// Questions of its thread asked before it in the block.
    pub(super) q: usize,
    /// It is an exit that asked question `q`.
    pub(super) query: bool,
    /// Its function is the innermost call open before the block (a text
    /// or dump line with no call open in the block).
    pub(super) top: bool,
    /// A dump row before any record of its thread in the block.
    pub(super) dump: bool,
}

impl Ahead {
    /// An exit that found no open call of its name in the block: its entry
    /// may be open before the block, a question for the stitch. With
    /// nothing open in the block, nothing is open in it afterwards
    /// whatever the answer. With calls open in the block, the answer would
    /// decide whether they are closed too: the block went on as if the
    /// entry was never seen, and is read again if it was.
    pub(super) fn unmatched(
        &mut self,
        thread: &mut Thread,
        name: impl FnOnce() -> Arc<str>,
        key: i64,
    ) {
        let open_here = !thread.stack.is_empty();
        thread.queries.push((name(), key, self.rows, open_here));
    }
}

/// What every block of one file shares.
struct Template {
    opts: ReadOptions,
    layout: Layout,
    offset: FixedOffset,
    seen_title: bool,
    unix_title: bool,
    input: Input,
    origin: Arc<Origin>,
    row_path: Vec<u8>,
    pid: Option<u32>,
    /// Text rows in this format, or (`None`) events.
    spec: Option<Arc<RowSpec>>,
}

/// One rendered row of a block: its instant, line, and where it ends in
/// the block's bytes (it starts where the row before it ends). Every row
/// of a block is of the current file, at the file's offset.
struct BlockRow {
    key: i64,
    line: u64,
    end: usize,
}

/// A block sent to the helpers.
struct Job {
    bytes: Arc<Vec<u8>>,
    first_line: u64,
    /// The byte offset of its first line in the file.
    first_byte: u64,
    date: NaiveDate,
    out: Vec<u8>,
    rows: Vec<BlockRow>,
    events: Vec<Event>,
    reply: SyncSender<Done>,
}

/// A thread's state at the end of a block.
struct Open {
    pid: u32,
    tid: u32,
    queries: Vec<Query>,
    stack: Vec<(Arc<str>, i64)>,
    max_depth: usize,
    last_record_line: u64,
    /// Its latest instant and line, and its first (`Thread`).
    newest: (i64, u64),
    first: i64,
}

/// A block rendered ahead.
struct Done {
    out: Vec<u8>,
    rows: Vec<BlockRow>,
    events: Vec<Event>,
    fixes: Vec<Fix>,
    info: FileInfo,
    hazard: bool,
    assumed: NaiveDate,
    first_tod: Option<i64>,
    date: Option<NaiveDate>,
    last_tod: Option<i64>,
    threads: Vec<Open>,
    fast_span: Option<(i64, i64)>,
    skipped: Option<Span>,
    back: super::TimeBack,
}

type Span = ((NaiveDate, NaiveTime), (NaiveDate, NaiveTime));

/// An exit's question: name, instant, row, and whether the block went on
/// as if no entry of that name was open before it.
pub(super) type Query = (Arc<str>, i64, usize, bool);

/// A block in flight, in file order.
struct Block {
    bytes: Arc<Vec<u8>>,
    first_line: u64,
    first_byte: u64,
    lines: u64,
    reply: Receiver<Done>,
}

/// A stitched block whose rows are being handed on.
struct Ready {
    offset: i32,
    out: Vec<u8>,
    rows: Vec<BlockRow>,
    next: usize,
    /// Durations found at the stitch: (row, microseconds), by row.
    patches: Vec<(usize, u64)>,
    patch_at: usize,
}

impl Ready {
    /// Hand on up to `n` rows (or until `out` holds `limit` bytes).
    fn copy(
        &mut self,
        out: &mut Vec<u8>,
        n: usize,
        limit: usize,
        row: &mut dyn FnMut(RowMeta, usize, usize),
    ) -> usize {
        let mut k = 0;
        while self.next < self.rows.len() && k < n && (k == 0 || out.len() < limit) {
            let r = &self.rows[self.next];
            let from = self.next.checked_sub(1).map_or(0, |i| self.rows[i].end);
            let start = out.len();
            match self.patches.get(self.patch_at) {
                Some(&(at, us)) if at == self.next => {
                    // An exit row: its duration goes before the line end.
                    out.extend_from_slice(&self.out[from..r.end - 1]);
                    push_elapsed(out, us);
                    out.push(b'\n');
                    self.patch_at += 1;
                }
                _ => out.extend_from_slice(&self.out[from..r.end]),
            }
            let meta = RowMeta {
                key: r.key,
                offset: self.offset,
                line: r.line,
                origin: None,
                undated: false,
            };
            row(meta, start, out.len());
            self.next += 1;
            k += 1;
        }
        k
    }
}

/// The helpers of one file and the blocks in flight.
pub(super) struct Pipeline {
    jobs: Option<Sender<Job>>,
    workers: Vec<JoinHandle<()>>,
    /// The helpers' queue, from which the source takes a block itself
    /// while the one it waits for is not ready.
    queue: Arc<Mutex<Receiver<Job>>>,
    /// The source's own reader of blocks ahead (made when first needed).
    own: Option<Box<(TraceSource, Option<RowSink>)>>,
    template: Arc<Template>,
    flight: VecDeque<Block>,
    ready: Option<Ready>,
    /// Text rows (else events).
    rows: bool,
    /// The file, read raw past `carry` (the start of a line not yet whole).
    raw: Option<Box<dyn Read + Send>>,
    carry: Vec<u8>,
    /// Where the unread part of `carry` starts.
    carry_at: usize,
    failed: Option<io::Error>,
    /// The file has no more bytes.
    eof: bool,
    /// ... and no more blocks.
    done: bool,
    line_no: u64,
    bytes: u64,
    block: usize,
    cap: usize,
    /// The file's layout and clock when the blocks were cut.
    shape: Shape,
    spare: Vec<(Vec<u8>, Vec<BlockRow>, Vec<Event>)>,
    spare_bytes: Vec<Vec<u8>>,
    /// Blocks stitched, read again, and durations found at a stitch (for
    /// tests).
    stitched: u64,
    replayed: u64,
    patched: u64,
    /// Blocks read again since the last one stitched.
    missed: u32,
    /// Lines and events of the first blocks stitched (`dense`).
    sample: (u64, u64),
}

impl Drop for Pipeline {
    fn drop(&mut self) {
        self.jobs = None;
        for w in self.workers.drain(..) {
            let _ = w.join();
        }
    }
}

impl Pipeline {
    /// Whether the first `after` blocks of events stitched were dense
    /// (`DENSE`): asked when the last of them is stitched, so the
    /// answer is given once.
    fn dense(&self, after: u64) -> bool {
        after > 0 && !self.rows && self.stitched == after && self.sample.1 * DENSE >= self.sample.0
    }

    /// The next block of whole lines; `None` when the file has no more
    /// (what is left, a last line with no line end or a line longer than
    /// a block, is read the usual way).
    fn read_block(&mut self) -> Option<(Vec<u8>, u64, u64)> {
        if self.done {
            return None;
        }
        // A spare block keeps its length: only bytes past it are zeroed
        // before reading into them.
        let mut buf = self.spare_bytes.pop().unwrap_or_default();
        let rest = &self.carry[self.carry_at..];
        if rest.len() > self.block
            && let Some(end) = memchr::memrchr(b'\n', &rest[..self.block])
        {
            // Whole lines already read (the line reader's buffer when the
            // helpers started).
            buf.clear();
            buf.extend_from_slice(&rest[..=end]);
            self.carry_at += end + 1;
            return Some(self.counted(buf));
        }
        let mut len = rest.len();
        if buf.len() < len {
            buf.resize(len, 0);
        }
        buf[..len].copy_from_slice(rest);
        self.carry.clear();
        self.carry_at = 0;
        let mut want = self.block;
        let end = loop {
            while len < want && !self.eof {
                let Some(raw) = self.raw.as_mut() else {
                    self.eof = true;
                    break;
                };
                if buf.len() < want {
                    buf.resize(want, 0);
                }
                match raw.read(&mut buf[len..want]) {
                    Ok(0) => self.eof = true,
                    Ok(n) => len += n,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => {
                        // Reported where the usual way reads it.
                        self.failed = Some(e);
                        self.eof = true;
                    }
                }
            }
            let within = len.min(self.block);
            let end = memchr::memrchr(b'\n', &buf[..within])
                .or_else(|| memchr::memchr(b'\n', &buf[within..len]).map(|i| within + i));
            if let Some(end) = end {
                break end;
            }
            if self.eof || len >= self.block + LONG_LINE {
                // A last line with no line end, or a line longer than a
                // block and then some: left to the usual way.
                buf.truncate(len);
                self.carry = buf;
                self.done = true;
                return None;
            }
            want = len + (64 << 10);
        };
        self.carry.extend_from_slice(&buf[end + 1..len]);
        buf.truncate(end + 1);
        Some(self.counted(buf))
    }

    /// A block with its first line's number and its count of lines.
    fn counted(&mut self, buf: Vec<u8>) -> (Vec<u8>, u64, u64) {
        let lines = memchr::memchr_iter(b'\n', &buf).count() as u64;
        let first = self.line_no + 1;
        self.line_no += lines;
        self.bytes += buf.len() as u64;
        (buf, first, lines)
    }

    /// Keep the helpers busy: send blocks until `cap` are in flight.
    fn fill(&mut self, date: NaiveDate) {
        while self.flight.len() < self.cap {
            let first_byte = self.bytes;
            let Some((buf, first_line, lines)) = self.read_block() else {
                return;
            };
            let bytes = Arc::new(buf);
            let (out, rows, events) = self.spare.pop().unwrap_or_default();
            let (tx, rx) = mpsc::sync_channel(1);
            let job = Job {
                bytes: bytes.clone(),
                first_line,
                first_byte,
                date,
                out,
                rows,
                events,
                reply: tx,
            };
            // With no helper left, the reply never comes and the block is
            // read again by the source.
            if let Some(j) = &self.jobs {
                let _ = j.send(job);
            }
            self.flight.push_back(Block {
                bytes,
                first_line,
                first_byte,
                lines,
                reply: rx,
            });
        }
    }

    /// The block read ahead, once it is: meanwhile, blocks still queued
    /// for the helpers are read here (the source's thread would wait).
    /// `None` if no helper could read it.
    fn wait(&mut self, b: &Block) -> Option<Done> {
        loop {
            match b.reply.try_recv() {
                Ok(d) => return Some(d),
                Err(mpsc::TryRecvError::Disconnected) => return None,
                Err(mpsc::TryRecvError::Empty) => {}
            }
            let job = match self.queue.try_lock() {
                Ok(q) => q.try_recv().ok(),
                // A helper panicked holding the queue: the queue is still
                // whole (it held it only to take a block).
                Err(std::sync::TryLockError::Poisoned(q)) => q.into_inner().try_recv().ok(),
                Err(std::sync::TryLockError::WouldBlock) => None,
            };
            let Some(job) = job else {
                return b.reply.recv().ok();
            };
            let t = &self.template;
            let own = self.own.get_or_insert_with(|| {
                Box::new((TraceSource::ahead_of(t), t.spec.clone().map(RowSink::new)))
            });
            let reply = job.reply.clone();
            let (src, sink) = &mut **own;
            let _ = reply.send(src.read_ahead(t, sink.as_mut(), job));
        }
    }

    fn recycle(&mut self, out: Vec<u8>, rows: Vec<BlockRow>, events: Vec<Event>) {
        if self.spare.len() < self.cap {
            self.spare.push((out, rows, events));
        }
    }

    fn recycle_bytes(&mut self, b: Arc<Vec<u8>>) {
        if let Ok(v) = Arc::try_unwrap(b)
            && self.spare_bytes.len() < self.cap
        {
            self.spare_bytes.push(v);
        }
    }
}

type Shape = (Layout, bool, bool, Option<FixedOffset>);

/// A reader over a block shared with the source that sent it.
struct Shared(Arc<Vec<u8>>, usize);

impl Read for Shared {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let rest = &self.0[self.1.min(self.0.len())..];
        let n = rest.len().min(buf.len());
        buf[..n].copy_from_slice(&rest[..n]);
        self.1 += n;
        Ok(n)
    }
}

/// A reader that fails once with the error the helpers' reading met.
struct Failing(Option<io::Error>);

impl Read for Failing {
    fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
        match self.0.take() {
            Some(e) => Err(e),
            None => Ok(0),
        }
    }
}

/// Blocks read again in a row after which the file is read on alone.
pub(super) const GIVE_UP: u32 = 16;

/// A file is dense when at least one line in this many is an event.
/// Measured at `-j 2` on traces of 3 to 3.5 million lines: at one event
/// in eight lines the helpers gain nothing, at one in four they cost a
/// tenth of the time, at every line a fifth (the stitching, and moving
/// each event across threads, cost more CPU than the helpers save, and
/// the merge sets the pace); at one in fourteen they still gain.
pub(super) const DENSE: u64 = 8;

/// How far past a block a block's last line may go.
const LONG_LINE: usize = 1 << 20;

/// Read buffer of a block's line reader.
const BLOCK_READ_BUFFER: usize = 256 << 10;

fn helper(t: Arc<Template>, jobs: Arc<Mutex<Receiver<Job>>>) {
    let mut src = TraceSource::ahead_of(&t);
    let mut sink = t.spec.clone().map(RowSink::new);
    loop {
        let job = match jobs.lock().map(|rx| rx.recv()) {
            Ok(Ok(j)) => j,
            _ => return,
        };
        let reply = job.reply.clone();
        // A block this thread fails on is read again by the source's own
        // thread (its reply channel closes unanswered), where the source's
        // guard turns a panic into a located problem; the helper goes on.
        let read = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            src.read_ahead(&t, sink.as_mut(), job)
        }));
        match read {
            Ok(done) => {
                let _ = reply.send(done);
            }
            Err(_) => {
                drop(reply);
                src = TraceSource::ahead_of(&t);
                sink = t.spec.clone().map(RowSink::new);
            }
        }
    }
}

impl TraceSource {
    /// Whether the rest of the current file should go to helpers: it is
    /// large, helpers are allowed, and it is in its body (header read,
    /// clock settled; for `rows`, plain lines rendered straight to rows).
    pub(super) fn par_wanted(&self, rows: bool) -> bool {
        let p = self.opts.parallel;
        p.helpers > 0
            && !self.par_off
            && self.ahead.is_none()
            && (if rows {
                self.fast_ready()
            } else {
                self.body_ready()
            })
            && self
                .seg
                .as_ref()
                .is_some_and(|s| s.lines.is_some() && s.input.bytes >= p.min_bytes)
    }

    /// Rows of the file's next lines from the helpers' blocks.
    pub(super) fn par_rows(
        &mut self,
        sink: &RowSink,
        out: &mut Vec<u8>,
        n: usize,
        limit: usize,
        row: &mut dyn FnMut(RowMeta, usize, usize),
    ) -> Next {
        if self.par.is_none() {
            self.par_start(Some(sink.spec.clone()));
        }
        if let Some(p) = self.par.as_mut()
            && let Some(r) = p.ready.as_mut()
        {
            let got = r.copy(out, n, limit, row);
            if r.next == r.rows.len()
                && let Some(r) = p.ready.take()
            {
                p.recycle(r.out, r.rows, Vec::new());
            }
            if got > 0 {
                return Next::Rows(got);
            }
        }
        self.par_take()
    }

    /// Events of the file's next lines from the helpers' blocks: those of
    /// a stitched block wait in `out`.
    pub(super) fn par_events(&mut self) -> Next {
        if self.par.is_none() {
            self.par_start(None);
        }
        self.par_take()
    }

    /// Take the next block back: stitched, or given to the usual way to
    /// be read again; `Usual` when a block is being read again or the
    /// helpers are done.
    fn par_take(&mut self) -> Next {
        let replaying = self.seg.as_ref().is_some_and(|s| s.lines.is_some());
        let Some(mut p) = self.par.take() else {
            return Next::Usual;
        };
        if replaying {
            self.par = Some(p);
            return Next::Usual;
        }
        // The file is no longer as it was when the blocks were cut (a
        // second header: traces put together), or the helpers' guesses keep
        // failing: read on alone.
        if self.shape() != p.shape || p.missed >= GIVE_UP || p.dense(self.opts.parallel.dense_after)
        {
            self.par_stop(*p);
            return Next::Usual;
        }
        if let Some(date) = self.date {
            p.fill(date);
        }
        let Some(b) = p.flight.pop_front() else {
            self.par_stop(*p);
            return Next::Usual;
        };
        let stitched = p
            .wait(&b)
            .and_then(|mut d| self.stitch(&mut d, &b, p.shape).map(|patches| (d, patches)));
        match stitched {
            Some((mut d, patches)) => {
                p.stitched += 1;
                p.missed = 0;
                p.patched += patches.len() as u64;
                if p.rows {
                    p.ready = Some(Ready {
                        offset: p.shape.3.map_or(0, |o| o.local_minus_utc()),
                        out: d.out,
                        rows: d.rows,
                        next: 0,
                        patches,
                        patch_at: 0,
                    });
                } else {
                    if p.stitched <= self.opts.parallel.dense_after {
                        p.sample.0 += b.lines;
                        p.sample.1 += d.events.len() as u64;
                    }
                    self.out.extend(d.events.drain(..));
                    p.recycle(d.out, d.rows, d.events);
                }
                p.recycle_bytes(b.bytes);
            }
            None => {
                // Read again, with the state the lines before it left.
                p.replayed += 1;
                p.missed += 1;
                let r: Box<dyn Read + Send> = Box::new(Shared(b.bytes, 0));
                let reader =
                    LineReader::resume(BLOCK_READ_BUFFER, r, b.first_line - 1, b.first_byte);
                if let Some(seg) = self.seg.as_mut() {
                    seg.lines = Some(Box::new(reader));
                }
            }
        }
        self.par = Some(p);
        Next::Rows(0)
    }

    fn par_start(&mut self, spec: Option<Arc<RowSpec>>) {
        let helpers = self.opts.parallel.helpers;
        let block = self.opts.parallel.block.max(1);
        let (Some(seg), Some(offset), Some(_)) = (self.seg.as_mut(), self.offset, self.date) else {
            return;
        };
        let Some(lines) = seg.lines.take() else {
            return;
        };
        let (carry, raw, line_no, bytes) = (*lines).into_parts();
        let rows = spec.is_some();
        let t = Arc::new(Template {
            opts: self.opts.clone(),
            layout: self.layout,
            offset,
            seen_title: self.seen_title,
            unix_title: self.unix_title,
            input: seg.input.clone(),
            origin: seg.origin.clone(),
            row_path: seg.row_path.clone(),
            pid: seg.info.pid,
            spec,
        });
        // Tests ask for no thread at all (`usize::MAX` helpers): the source
        // then reads every block itself, while it waits for none.
        let (spawn, cap) = match helpers {
            usize::MAX if cfg!(test) => (0, 4),
            n => (n, 4 * n),
        };
        let (tx, rx) = mpsc::channel::<Job>();
        let rx = Arc::new(Mutex::new(rx));
        let workers = (0..spawn)
            .map(|_| {
                let (t, rx) = (t.clone(), rx.clone());
                thread::spawn(move || helper(t, rx))
            })
            .collect();
        self.par = Some(Box::new(Pipeline {
            jobs: Some(tx),
            workers,
            queue: rx,
            own: None,
            template: t,
            flight: VecDeque::new(),
            ready: None,
            rows,
            raw: Some(raw),
            carry,
            carry_at: 0,
            failed: None,
            eof: false,
            done: false,
            line_no,
            bytes,
            block,
            cap,
            shape: self.shape(),
            spare: Vec::new(),
            spare_bytes: Vec::new(),
            stitched: 0,
            replayed: 0,
            patched: 0,
            missed: 0,
            sample: (0, 0),
        }));
    }

    /// The rest of the file is read the usual way, by this source alone:
    /// the blocks still in flight (their lines are next), the start of a
    /// line not yet whole, then what was not read yet.
    fn par_stop(&mut self, mut p: Pipeline) {
        self.par_off = true;
        let Some(raw) = p.raw.take() else {
            return;
        };
        let (mut line_no, mut bytes) = (p.line_no, p.bytes);
        let mut rest = Vec::new();
        for b in &p.flight {
            if rest.is_empty() {
                line_no = b.first_line - 1;
            }
            rest.extend_from_slice(&b.bytes);
            bytes -= b.bytes.len() as u64;
        }
        rest.extend_from_slice(&p.carry[p.carry_at..]);
        let rest = std::io::Cursor::new(rest);
        let rest: Box<dyn Read + Send> = match p.failed.take() {
            Some(e) => Box::new(rest.chain(Failing(Some(e)))),
            None => Box::new(rest.chain(raw)),
        };
        let cap = self.opts.read_buffer.max(64 << 10);
        let reader = LineReader::resume(cap, rest, line_no, bytes);
        if let Some(seg) = self.seg.as_mut() {
            seg.lines = Some(Box::new(reader));
        }
        #[cfg(test)]
        {
            self.par_counts = (p.stitched, p.replayed, p.patched);
        }
    }

    /// A source that reads blocks of the file ahead.
    fn ahead_of(t: &Template) -> TraceSource {
        let mut s = TraceSource::new(Vec::new(), t.opts.clone());
        s.layout = t.layout;
        s.offset = Some(t.offset);
        s.seen_title = t.seen_title;
        s.unix_title = t.unix_title;
        s.clock_settled = true;
        s.seg = Some(super::Segment {
            input: t.input.clone(),
            info: FileInfo::new(&t.input.display, super::FORMAT, 0),
            origin: t.origin.clone(),
            lines: None,
            row_path: t.row_path.clone(),
            row_line: Default::default(),
        });
        s
    }

    /// Read one block to rows (with a sink) or events, assuming nothing of
    /// the lines before it.
    fn read_ahead(&mut self, t: &Template, sink: Option<&mut RowSink>, job: Job) -> Done {
        let Job {
            bytes,
            first_line,
            first_byte,
            date,
            mut out,
            mut rows,
            mut events,
            ..
        } = job;
        // A fresh source for every block: whatever an earlier block left in
        // it (held lines, counters, header state) would make a block's rows
        // depend on which thread read which blocks before it (a fuzzed
        // trace gave other dates with a helper, now and then).
        // The table of threads is kept for its room alone: every thread
        // in it is forgotten (a block of a trace of many processes met
        // tens of thousands, each a stack allocated here and freed on the
        // source's thread).
        let mut threads = std::mem::take(&mut self.threads);
        threads.forget_all();
        *self = TraceSource::ahead_of(t);
        self.threads = threads;
        self.date = Some(date);
        self.ahead = Some(Ahead::default());
        if let Some(seg) = self.seg.as_mut() {
            seg.info = FileInfo::new(&t.input.display, super::FORMAT, 0);
            seg.info.pid = t.pid;
            let r: Box<dyn Read + Send> = Box::new(Shared(bytes, 0));
            let reader = LineReader::resume(BLOCK_READ_BUFFER, r, first_line - 1, first_byte);
            seg.lines = Some(Box::new(reader));
        }
        out.clear();
        rows.clear();
        events.clear();
        match sink {
            Some(sink) => self.rows_ahead(sink, &mut out, &mut rows),
            None => loop {
                events.extend(self.out.drain(..));
                if self.ahead.as_ref().is_some_and(|a| a.hazard) || !self.step() {
                    events.extend(self.out.drain(..));
                    break;
                }
            },
        }
        let a = self.ahead.take().unwrap_or_default();
        let info = match self.seg.as_mut() {
            Some(seg) => {
                seg.lines = None;
                std::mem::replace(
                    &mut seg.info,
                    FileInfo::new(&t.input.display, super::FORMAT, 0),
                )
            }
            None => FileInfo::new(&t.input.display, super::FORMAT, 0),
        };
        let threads = self
            .threads
            .all
            .iter_mut()
            .filter(|th| {
                th.last_record_line != 0
                    || !th.stack.is_empty()
                    || !th.queries.is_empty()
                    || th.newest != i64::MIN
            })
            .map(|th| Open {
                pid: th.pid,
                tid: th.tid,
                // Empty ones stay, with their room, for the next block.
                queries: take_filled(&mut th.queries),
                stack: take_filled(&mut th.stack),
                max_depth: th.max_depth,
                last_record_line: th.last_record_line,
                newest: (th.newest, th.newest_line),
                first: th.first,
            })
            .collect();
        Done {
            out,
            rows,
            events,
            fixes: a.fixes,
            info,
            hazard: a.hazard,
            assumed: date,
            first_tod: a.first_tod,
            date: self.date,
            last_tod: self.last_tod,
            threads,
            fast_span: self.fast_span.take(),
            skipped: self.skipped.take(),
            back: std::mem::take(&mut self.back),
        }
    }

    /// The block's text rows.
    fn rows_ahead(&mut self, sink: &mut RowSink, out: &mut Vec<u8>, rows: &mut Vec<BlockRow>) {
        let mut push = |m: RowMeta, _: usize, end: usize| {
            rows.push(BlockRow {
                key: m.key,
                line: m.line,
                end,
            })
        };
        loop {
            while let Some(e) = self.out.pop_front() {
                let start = out.len();
                let m = sink.event_row(e, out);
                push(m, start, out.len());
            }
            if self.ahead.as_ref().is_some_and(|a| a.hazard) {
                break;
            }
            let step = self.read_rows(out, usize::MAX, usize::MAX, &mut push);
            if matches!(step, Step::Ended) && self.out.is_empty() {
                break;
            }
        }
    }

    /// Carry the state on over a block read ahead, if its assumptions hold
    /// for the state the lines before it left: its events are completed,
    /// and the durations its rows lack are returned, by row. `None` if not
    /// (the block is read again; nothing changed).
    fn stitch(&mut self, d: &mut Done, b: &Block, shape: Shape) -> Option<Vec<(usize, u64)>> {
        // The file is still as it was when the blocks were cut (a block
        // read again may have met a title or a header).
        if d.hazard || !self.body_ready() || self.shape() != shape {
            return None;
        }
        let (date, last) = (self.date, self.last_tod);
        if let Some(t) = d.first_tod {
            // A block starting with a step back that is no midnight is
            // read again: the usual way reports it at its line.
            if self.implausible_jump(t) {
                return None;
            }
            // The block's first record, on the real clock.
            let got = self.roll_nanos(t);
            let same = got == d.assumed && self.last_tod == Some(t);
            self.date = date;
            self.last_tod = last;
            if !same {
                return None;
            }
        }
        // Answer the questions, changing nothing yet: for each thread, the
        // length of its stack before each question and after the last, and
        // where each question found its entry.
        self.threads.trim();
        let mut patches = Vec::new();
        let mut answers: Vec<(Vec<usize>, Vec<Option<usize>>)> =
            Vec::with_capacity(d.threads.len());
        for o in &d.threads {
            let th = self.threads.get(o.pid, o.tid);
            // A stack that would outgrow its limit drops its oldest call:
            // only the usual way knows which.
            if th.stack.len() + o.max_depth >= MAX_STACK {
                return None;
            }
            // The thread's first record in the block earlier than its
            // latest before it steps back: only the usual way places it.
            if o.newest.0 != i64::MIN && o.first < th.newest {
                return None;
            }
            let mut lens = Vec::with_capacity(o.queries.len() + 1);
            let mut found = Vec::with_capacity(o.queries.len());
            let mut len = th.stack.len();
            for (name, key, row, open_here) in &o.queries {
                lens.push(len);
                let pos = th.stack[..len].iter().rposition(|(g, _)| **g == **name);
                if let Some(pos) = pos {
                    if *open_here {
                        return None;
                    }
                    if let Some(us) = micros_between(th.stack[pos].1, *key) {
                        patches.push((*row, us));
                    }
                    len = pos;
                }
                found.push(pos);
            }
            lens.push(len);
            answers.push((lens, found));
        }
        if !d.events.is_empty() {
            self.complete(d, &answers);
        }
        if d.first_tod.is_some() {
            self.date = d.date;
            self.last_tod = d.last_tod;
        }
        for (o, (lens, _)) in d.threads.drain(..).zip(&answers) {
            let th = self.threads.get(o.pid, o.tid);
            th.stack.truncate(lens[lens.len() - 1]);
            th.stack.extend(o.stack);
            if o.last_record_line != 0 {
                th.last_record_line = o.last_record_line;
            }
            if o.newest.0 != i64::MIN {
                if th.newest == i64::MIN {
                    th.first = o.first;
                }
                (th.newest, th.newest_line) = o.newest;
            }
        }
        patches.sort_unstable();
        if let Some((lo, hi)) = d.fast_span {
            self.fast_span = Some(match self.fast_span {
                Some((a, z)) => (a.min(lo), z.max(hi)),
                None => (lo, hi),
            });
        }
        if let Some((first, last)) = d.skipped {
            // Blocks come in file order: the file's first record skipped
            // is in the first block that skipped one, its last in this.
            self.skipped.get_or_insert((first, last)).1 = last;
        }
        self.back.absorb(&d.back);
        if let Some(seg) = self.seg.as_mut() {
            let info = std::mem::replace(&mut d.info, FileInfo::new("", super::FORMAT, 0));
            absorb(&mut seg.info, info);
            seg.info.lines = b.first_line - 1 + b.lines;
        }
        Some(patches)
    }

    /// Complete the block's events with the calls open before it: depths
    /// count them, exits that asked find their entries (and durations),
    /// lines with no call open in the block take the innermost one, dump
    /// rows before their thread's first record take the record before.
    /// The stacks are still as the lines before the block left them.
    fn complete(&mut self, d: &mut Done, answers: &[(Vec<usize>, Vec<Option<usize>>)]) {
        // PID.TID come from the input: the std keyed hasher, not a weak one.
        let index: std::collections::HashMap<u64, usize> = d
            .threads
            .iter()
            .enumerate()
            .map(|(i, o)| (super::stack::thread_key(o.pid, o.tid), i))
            .collect();
        for (e, f) in d.events.iter_mut().zip(&d.fixes) {
            let th = self.threads.get(f.pid, f.tid);
            // A thread with only dump rows in the block asked nothing.
            let (before, found) = match index.get(&super::stack::thread_key(f.pid, f.tid)) {
                Some(&i) => (answers[i].0[f.q], answers[i].1.get(f.q).copied().flatten()),
                None => (th.stack.len(), None),
            };
            match (f.query, found) {
                (true, Some(pos)) => {
                    e.depth = Some(pos as u32);
                    let at = e.ts.timestamp_nanos_opt().unwrap_or(i64::MAX);
                    e.elapsed_us = micros_between(th.stack[pos].1, at);
                    e.attrs.retain(|k, _| k != "unmatched");
                }
                _ => e.depth = e.depth.map(|d| d + before as u32),
            }
            if f.top && before > 0 {
                e.function = Some(th.stack[before - 1].0.clone());
            }
            if f.dump && th.last_record_line > 0 {
                e.set_attr("dump_of", th.last_record_line.to_string());
            }
        }
    }

    fn shape(&self) -> Shape {
        (self.layout, self.seen_title, self.unix_title, self.offset)
    }
}

/// The items of `v`, in its buffer when it has any (none allocated, and
/// the room of an empty one kept).
fn take_filled<T>(v: &mut Vec<T>) -> Vec<T> {
    match v.is_empty() {
        true => Vec::new(),
        false => std::mem::take(v),
    }
}

/// Add a block's file facts to the file's, as if read in one go.
fn absorb(info: &mut FileInfo, d: FileInfo) {
    info.events += d.events;
    for t in [d.first, d.last].into_iter().flatten() {
        if info.first.is_none_or(|f| t < f) {
            info.first = Some(t);
        }
        if info.last.is_none_or(|l| t > l) {
            info.last = Some(t);
        }
    }
    let kept = d.problems.len() as u64;
    let kept_skipped: u64 = d.problems.iter().map(|p| p.lines_skipped).sum();
    for p in d.problems {
        info.problem(p.code, p.line, p.severity, p.lines_skipped, p.message);
    }
    // Problems past the block's detail limit: counted only, as they are
    // past the file's limit too.
    info.problem_count += d.problem_count - kept;
    info.lines_skipped += d.lines_skipped - kept_skipped;
    info.worst = info.worst.max(d.worst);
}
