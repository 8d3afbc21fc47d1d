//! The worker pool that fills sources' batches for the merge, and what
//! the merge and the workers pass each other.

use super::{Batch, Producer};
use mqdiag_model::fileinfo::FileInfo;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, Sender, SyncSender, TryRecvError};
use std::sync::{Arc, Mutex, OnceLock};
use std::thread;

/// What a worker sends back for one source.
pub(super) enum Msg<B> {
    Batch(B),
    /// A batch the merge thread read itself (`Pool::next_msg`,
    /// `Pool::fill_ahead`): not one the workers owed, so taking it asks
    /// them for no other.
    Extra(B),
    Done(Vec<FileInfo>),
}

/// Where the merge gets one source's batches from: filled on this thread,
/// or by the worker pool.
pub(super) struct Feed<P: Producer> {
    pub(super) local: Option<P>,
    pub(super) rx: Option<Receiver<Msg<P::Batch>>>,
    pub(super) cur: P::Batch,
    pub(super) done: bool,
    pub(super) infos: Vec<FileInfo>,
    /// Batches the merge thread read itself while the source had no
    /// channel (`Pool::lazy`).
    pub(super) here: u8,
    /// The source's first message, read before the merge began
    /// (`Pool::read_first`): taken by the first `load`.
    pub(super) first: Option<Msg<P::Batch>>,
}

impl<P: Producer> Feed<P> {
    /// A source's place in the merge: filled on this thread when `local`.
    pub(super) fn new(local: Option<P>) -> Self {
        Feed {
            local,
            rx: None,
            cur: P::Batch::default(),
            done: false,
            infos: Vec::new(),
            here: 0,
            first: None,
        }
    }
}

/// Batches each source may have parsed ahead of the merge (the merge asks
/// for a source's next batch as it starts on one). The items and bytes
/// ahead are shared out, so more batches are smaller ones and peak memory
/// stays where it was. With one, the merge and the workers took turns
/// waiting for each other: on the container console bench the merge
/// waited for half of its run. Four took `analyze` of it from 0.47 s to
/// 0.37 s with no more memory, and left traces where they were (8 was no
/// faster and made `timeline` of traces slower). Fewer for many sources:
/// see `ahead`.
pub(super) const AHEAD: usize = 4;
/// Items the pool may hold ahead of the merge, over all sources...
pub(super) const AHEAD_EVENTS: usize = 1 << 15;
/// ... and bytes (a batch is cut when it reaches its share).
pub(super) const AHEAD_BYTES: usize = 4 << 20;

/// The size of one batch, in items and bytes, for `n` sources. Past 512
/// sources batches shrink to as few as 16 items: each source has about
/// three batches (being merged, being filled, spare), each keeping its
/// capacity: with 4,096 sources the smaller floor took a tenth off the
/// `timeline` verb's peak memory.
pub(super) fn batch_caps(n: usize) -> (usize, usize) {
    let a = ahead(n);
    (
        (AHEAD_EVENTS / a / n.max(1)).clamp(16, 4096),
        (AHEAD_BYTES / a / n.max(1)).max(16 << 10),
    )
}

/// Batches ahead per source for `n` sources: `AHEAD` while batches keep
/// 64 KB or more, down to one. Past that each batch ahead is one more
/// batch at the size floor per source: 4,096 traces at four each peaked
/// at 306 MB in `timeline`.
pub(super) fn ahead(n: usize) -> usize {
    (AHEAD_BYTES / n.max(1) / (64 << 10)).clamp(1, AHEAD)
}

pub(super) type Slots<P> = Arc<Vec<Mutex<Option<P>>>>;

/// Each source's channel to the merge, once made (`Pool::request`).
pub(super) type Channels<B> = Arc<Vec<OnceLock<SyncSender<Msg<B>>>>>;

/// Worker threads that fill sources' batches, on request. The merge asks
/// for a source's next batch when it starts on the previous one, so each
/// source has at most `AHEAD` batches in flight: memory stays bounded and
/// no worker ever waits on a full channel (no deadlock).
pub(super) struct Pool<P: Producer> {
    pub(super) requests: Option<Sender<usize>>,
    /// Items and bytes per batch.
    pub(super) caps: (usize, usize),
    /// Batches asked of each source and not sent yet. A source is in the
    /// request queue once however many it owes, and the worker that takes
    /// it fills them all: with a queue entry per batch, a second worker
    /// took the same source and waited on its lock while other sources'
    /// batches were due (the merge then waited on them, about a third of
    /// its time on the container console).
    pub(super) owed: Arc<Vec<AtomicUsize>>,
    /// Messages sent on each source's channel and not received yet
    /// (counted before sending: never below the truth).
    pub(super) queued: Arc<Vec<AtomicUsize>>,
    /// Each source's channel, made when the workers are first asked for
    /// one of its batches.
    pub(super) txs: Channels<P::Batch>,
    pub(super) sources: Slots<P>,
    pub(super) workers: Vec<thread::JoinHandle<()>>,
    /// Emptied batches, for the workers to fill again.
    pub(super) spare: Arc<Mutex<Vec<P::Batch>>>,
    pub(super) spare_cap: usize,
}

/// Emptied batches kept for reuse: one per source and this many per
/// worker. Fewer, and batches are allocated (and their pages faulted in)
/// anew all the time.
pub(super) const SPARE_PER_WORKER: usize = 2;

/// The next batch of the source in `slot` (which must hold one), in a
/// batch handed back by the merge if any (no large allocation per batch);
/// the source's facts once it has no more.
pub(super) fn fill_next<P: Producer>(
    slot: &mut Option<P>,
    spare: &Mutex<Vec<P::Batch>>,
    (n, bytes): (usize, usize),
    merge_busy: bool,
) -> Msg<P::Batch> {
    let mut v = spare
        .lock()
        .ok()
        .and_then(|mut s| s.pop())
        .unwrap_or_default();
    // Emptied by the thread that fills it: see `EventBatch`.
    v.reset();
    if let Some(src) = slot.as_mut() {
        src.fill_busy(&mut v, n, bytes, merge_busy);
    }
    if v.front_key().is_none() {
        Msg::Done(slot.take().map(P::finish).unwrap_or_default())
    } else {
        Msg::Batch(v)
    }
}

/// Past this many sources the workers are asked for none at the start
/// (`Pool::start`): with every source's first batch asked of them, each
/// source had a channel and its first batch in a worker's memory, 2 KB
/// a file more than with one job (50,000 small error logs: 319 MB
/// against 213 MB).
pub(super) const LAZY_SOURCES: usize = 1024;

/// Sources after the one it waits for that the merge thread looks at to
/// read ahead in (`Pool::fill_ahead`).
pub(super) const READ_AHEAD_SOURCES: usize = 4;

/// Batches another thread sends at once in `Pool::read_first` (one
/// message a file cost a wake-up each)...
const REHOME_CHUNK: usize = 16;
/// ... and chunks it may have read ahead of this one's copying them: past
/// this it waits, so that its arena does not grow while this thread is
/// held up.
const REHOME_BACKLOG: usize = 2;

/// A batch read on the merge thread, marked as not owed.
pub(super) fn extra<B>(m: Msg<B>) -> Msg<B> {
    match m {
        Msg::Batch(b) => Msg::Extra(b),
        other => other,
    }
}

impl<P: Producer> Pool<P> {
    /// Source `i`'s next message, for the merge: what was sent on its
    /// channel; else, when no worker holds the source, its next batch read
    /// here (`try_fill`); else, after reading ahead in another idle
    /// source, what the worker holding it sends. `None`: the workers are
    /// gone.
    pub(super) fn next_msg(&self, i: usize, rx: &Receiver<Msg<P::Batch>>) -> Option<Msg<P::Batch>> {
        match rx.try_recv() {
            Ok(m) => Some(self.taken(i, m)),
            Err(TryRecvError::Disconnected) => None,
            Err(TryRecvError::Empty) => self.try_fill(i, rx).or_else(|| {
                self.fill_ahead(i);
                rx.recv().ok().map(|m| self.taken(i, m))
            }),
        }
    }

    /// With source `i` held here (`None`: a worker holds it): what its
    /// channel has, else its next batch read here, as `Extra`. Workers
    /// send while they hold the source, so once it is held here the
    /// channel has all they sent before: it is looked at again. An empty
    /// slot sent its facts before, and they were taken already.
    pub(super) fn try_fill(&self, i: usize, rx: &Receiver<Msg<P::Batch>>) -> Option<Msg<P::Batch>> {
        let mut slot = self.sources[i].try_lock().ok()?;
        Some(match rx.try_recv() {
            Ok(m) => self.taken(i, m),
            Err(_) => extra(fill_next(&mut slot, &self.spare, self.caps, false)),
        })
    }

    /// `m`, taken from source `i`'s channel.
    fn taken(&self, i: usize, m: Msg<P::Batch>) -> Msg<P::Batch> {
        self.queued[i].fetch_sub(1, Ordering::AcqRel);
        m
    }

    /// While the merge waits for source `busy` (a worker is reading it):
    /// the next batch of one of the few sources after it that no worker
    /// holds and that has nothing queued, read here and queued on its
    /// channel, so the merge thread works instead of waiting. One batch
    /// at most per source beyond what the workers owe.
    pub(super) fn fill_ahead(&self, busy: usize) {
        let n = self.sources.len();
        for j in (1..n.min(READ_AHEAD_SOURCES + 1)).map(|k| (busy + k) % n) {
            // A source without a channel is read where it is needed.
            if self.queued[j].load(Ordering::Acquire) > 0 || self.txs[j].get().is_none() {
                continue;
            }
            let Ok(mut slot) = self.sources[j].try_lock() else {
                continue;
            };
            // Workers send while they hold the source: checked again here.
            if slot.is_none() || self.queued[j].load(Ordering::Acquire) > 0 {
                continue;
            }
            let msg = extra(fill_next(&mut slot, &self.spare, self.caps, false));
            self.queued[j].fetch_add(1, Ordering::AcqRel);
            if let Some(tx) = self.txs[j].get() {
                let _ = tx.send(msg);
            }
            return;
        }
    }

    pub(super) fn start(sources: Vec<P>, jobs: usize) -> (Pool<P>, Vec<Feed<P>>) {
        let n = sources.len();
        let (batch, batch_bytes) = batch_caps(n);
        let slots: Slots<P> = Arc::new(sources.into_iter().map(|s| Mutex::new(Some(s))).collect());
        let (req_tx, req_rx) = mpsc::channel::<usize>();
        let req_rx = Arc::new(Mutex::new(req_rx));
        let feeds = (0..n).map(|_| Feed::new(None)).collect();
        let txs: Channels<P::Batch> = Arc::new((0..n).map(|_| OnceLock::new()).collect());
        let spare: Arc<Mutex<Vec<P::Batch>>> = Arc::default();
        let owed: Arc<Vec<AtomicUsize>> = Arc::new((0..n).map(|_| AtomicUsize::new(0)).collect());
        let queued: Arc<Vec<AtomicUsize>> = Arc::new((0..n).map(|_| AtomicUsize::new(0)).collect());
        // The merge thread fills batches too when it would wait (see
        // `try_fill`): one worker fewer than jobs.
        let workers: Vec<_> = (0..jobs.saturating_sub(1).max(1))
            .map(|_| {
                let (req_rx, slots, txs) = (req_rx.clone(), slots.clone(), txs.clone());
                let (spare, owed, queued) = (spare.clone(), owed.clone(), queued.clone());
                thread::spawn(move || {
                    loop {
                        let i = match req_rx.lock().map(|r| r.recv()) {
                            Ok(Ok(i)) => i,
                            _ => return,
                        };
                        let Ok(mut slot) = slots[i].lock() else {
                            return;
                        };
                        // Every batch owed, in order. A request made after
                        // the count fell to zero queues the source again.
                        while slot.is_some() {
                            // Batches of this source waiting beside the
                            // one just sent (the merge may not have taken
                            // it yet, even when it waits for it): the
                            // merge is behind the workers.
                            let busy = queued[i].load(Ordering::Acquire) > 1;
                            let msg = fill_next(&mut slot, &spare, (batch, batch_bytes), busy);
                            // Sent while the slot is locked: batches of one
                            // source arrive in the order they were read.
                            queued[i].fetch_add(1, Ordering::AcqRel);
                            // Made by `request` before it queued the source.
                            if let Some(tx) = txs[i].get() {
                                let _ = tx.send(msg);
                            }
                            if owed[i].fetch_sub(1, Ordering::AcqRel) <= 1 {
                                break;
                            }
                        }
                    }
                })
            })
            .collect();
        let pool = Pool {
            requests: Some(req_tx),
            caps: (batch, batch_bytes),
            owed,
            queued,
            txs,
            sources: slots,
            spare_cap: n + SPARE_PER_WORKER * workers.len(),
            workers,
            spare,
        };
        let mut feeds: Vec<Feed<P>> = feeds;
        // Many sources: none is asked of the workers at the start; see
        // `Merge::load`.
        if n <= LAZY_SOURCES {
            for _ in 0..ahead(n) {
                for (i, f) in feeds.iter_mut().enumerate() {
                    pool.request(i, f);
                }
            }
        }
        (pool, feeds)
    }

    /// Ask the workers for source `i`'s next batch, making its channel
    /// (kept in `f`) the first time.
    pub(super) fn request(&self, i: usize, f: &mut Feed<P>) {
        if f.rx.is_none() {
            // Room for every message a source can have waiting: the
            // batches owed (`ahead`), one read ahead (`fill_ahead`) and
            // its facts. Sized here: an unbounded channel took 1.5 KB a
            // source on its first message, 150 MB for 100,000 FDC files.
            let (tx, rx) = mpsc::sync_channel(ahead(self.owed.len()) + 2);
            if self.txs[i].set(tx).is_err() {
                return;
            }
            f.rx = Some(rx);
        }
        if self.owed[i].fetch_add(1, Ordering::AcqRel) == 0
            && let Some(r) = &self.requests
        {
            let _ = r.send(i);
        }
    }

    /// Every source's first batch (or its facts), read by `jobs` threads
    /// (this one and `jobs - 1` more) before the merge begins, as `Extra`:
    /// what `fill_here` would give each in turn. With many sources none
    /// is asked of the workers at the start (`LAZY_SOURCES`), and the
    /// merge needs every first batch before its first item: read here
    /// alone, 100,000 small FDC files left the second core idle for a
    /// third of the run. Sources are read independently, so the batches
    /// are the same whichever thread reads them.
    pub(super) fn read_first(&self, jobs: usize) -> Vec<Option<Msg<P::Batch>>> {
        let n = self.sources.len();
        let next = AtomicUsize::new(0);
        let read = |i: usize| {
            let mut slot = self.sources[i].lock().ok()?;
            Some(extra(fill_next(&mut slot, &self.spare, self.caps, false)))
        };
        let mut out: Vec<Option<Msg<P::Batch>>> = (0..n).map(|_| None).collect();
        // What another thread read is copied here (`Batch::rehome`,
        // `Producer::rehome`) as it comes, and the originals are sent back
        // to be freed by that thread, in its allocator arena, which its
        // next files reuse. Kept as they were, they were freed only as the
        // merge took them, into an arena this thread never allocates from
        // (100,000 FDCs peaked 20 MB higher); freed here, this thread and
        // that one contended for its arena's lock (a second more CPU).
        type Spent<B> = Vec<(Option<B>, Vec<FileInfo>)>;
        type Chunk<B> = (Vec<(usize, Msg<B>)>, Sender<Spent<B>>);
        let (tx, rx) = mpsc::sync_channel::<Chunk<P::Batch>>(REHOME_BACKLOG);
        let rehome = |(chunk, back): Chunk<P::Batch>, out: &mut Vec<Option<Msg<P::Batch>>>| {
            let mut spent = Vec::with_capacity(chunk.len());
            for (i, m) in chunk {
                let infos = match self.sources[i].lock() {
                    Ok(mut slot) => slot.as_mut().map(P::rehome).unwrap_or_default(),
                    Err(_) => Vec::new(),
                };
                let m = match m {
                    Msg::Extra(mut b) => {
                        spent.push((Some(b.rehome()), infos));
                        Msg::Extra(b)
                    }
                    other => {
                        spent.push((None, infos));
                        other
                    }
                };
                out[i] = Some(m);
            }
            // Gone already: freed here, with no one to contend.
            let _ = back.send(spent);
        };
        thread::scope(|sc| {
            for _ in 1..jobs.max(1) {
                let (tx, next, read) = (tx.clone(), &next, &read);
                sc.spawn(move || {
                    let (back, spent) = mpsc::channel::<Spent<P::Batch>>();
                    let mut chunk = Vec::with_capacity(REHOME_CHUNK);
                    loop {
                        // Freed here, where they were made.
                        while let Ok(s) = spent.try_recv() {
                            drop(s);
                        }
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= n {
                            let _ = tx.send((chunk, back));
                            return;
                        }
                        if let Some(m) = read(i) {
                            chunk.push((i, m));
                        }
                        if chunk.len() >= REHOME_CHUNK {
                            let full =
                                std::mem::replace(&mut chunk, Vec::with_capacity(REHOME_CHUNK));
                            if tx.send((full, back.clone())).is_err() {
                                return;
                            }
                        }
                    }
                });
            }
            drop(tx);
            loop {
                while let Ok(c) = rx.try_recv() {
                    rehome(c, &mut out);
                }
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= n {
                    break;
                }
                out[i] = read(i);
            }
            // Until every other thread is done.
            for c in rx {
                rehome(c, &mut out);
            }
        });
        out
    }

    /// Source `i`'s next batch, read on this thread: it has no channel,
    /// so no worker holds it.
    pub(super) fn fill_here(&self, i: usize) -> Option<Msg<P::Batch>> {
        let mut slot = self.sources[i].lock().ok()?;
        Some(extra(fill_next(&mut slot, &self.spare, self.caps, false)))
    }

    /// Stop the workers; what they had not finished is finished here.
    pub(super) fn stop(&mut self) -> Vec<(usize, Vec<FileInfo>)> {
        self.requests = None;
        // Readers cannot panic past their guard (`mqdiag_readers::guard`):
        // a worker that did has a bug of the merge's own, which must not
        // cost files silently.
        for w in self.workers.drain(..) {
            if let Err(p) = w.join() {
                std::panic::resume_unwind(p);
            }
        }
        let mut out = Vec::new();
        for (i, slot) in self.sources.iter().enumerate() {
            if let Ok(mut s) = slot.lock()
                && let Some(src) = s.take()
            {
                out.push((i, src.finish()));
            }
        }
        out
    }
}

impl<P: Producer> Drop for Pool<P> {
    fn drop(&mut self) {
        self.stop();
    }
}
