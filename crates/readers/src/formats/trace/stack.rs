//! Call stacks per thread, and the interned names they hold.

use super::*;

/// Shares one `Arc<str>` per distinct function name (and a header
/// record's ident), so events
/// and call stacks clone a pointer instead of allocating a string. The set
/// is keyed by the names themselves: a new name costs one allocation (a
/// separate key cost a second one, for every process of a trace where each
/// has an ident of its own).
#[derive(Default)]
pub(super) struct Interner(pub(super) HashSet<Arc<str>, FxBuildHasher>);

impl Interner {
    /// Beyond this many names, new ones are allocated, not kept.
    const CAP: usize = 100_000;

    pub(super) fn get(&mut self, s: &str) -> Arc<str> {
        if let Some(a) = self.0.get(s) {
            return a.clone();
        }
        let a: Arc<str> = Arc::from(s);
        if self.0.len() < Self::CAP {
            self.0.insert(a.clone());
        }
        a
    }

    /// The name of these bytes (UTF-8; anything else is decoded lossily).
    pub(super) fn get_bytes(&mut self, s: &[u8]) -> Arc<str> {
        match std::str::from_utf8(s) {
            Ok(t) => self.get(t),
            Err(_) => self.get(&String::from_utf8_lossy(s)),
        }
    }
}

/// The call stacks of the threads seen, found by (PID, TID) through a
/// small direct-mapped cache in front of the map (lines of a few threads
/// interleave, so most finds hit the cache). The map is keyed by PID.TID
/// as one integer, hashed with the std keyed hasher: the numbers come from
/// the input, and a weak hasher lets a crafted trace collide them all.
#[derive(Default)]
pub(super) struct Threads {
    pub(super) all: Vec<Thread>,
    /// Slots of `all` whose thread was forgotten (`trim`), for new ones:
    /// the kept ones stay where they are, so the index only loses keys.
    free: Vec<usize>,
    pub(super) index: mqdiag_model::runhash::RunMap<u64, usize>,
    pub(super) cache: Vec<(u64, usize)>,
    /// (text as a key, its length, thread): an empty slot has length 0.
    pub(super) text_cache: Vec<(u128, usize, usize)>,
    /// `trim`'s work space, kept for the next trim.
    order: Vec<(u64, usize)>,
}

impl Threads {
    const CACHE: usize = 64;

    /// The thread of a record's `PID.TID` text; `None` when it is not one.
    /// A cache keyed by the text itself spares parsing the numbers.
    pub(super) fn by_text(&mut self, t: &[u8], key: u128) -> Option<&mut Thread> {
        if t.is_empty() || t.len() > 16 {
            let (pid, tid) = parse_pid_tid(t)?;
            return Some(self.get(pid, tid));
        }
        if self.text_cache.is_empty() {
            self.text_cache = vec![(0, 0, 0); TEXT_SLOTS];
        }
        let slot = text_slot(key);
        let (ck, len, i) = self.text_cache[slot];
        if ck == key && len == t.len() {
            return Some(&mut self.all[i]);
        }
        let (pid, tid) = parse_pid_tid(t)?;
        let i = self.find(pid, tid);
        self.text_cache[slot] = (key, t.len(), i);
        Some(&mut self.all[i])
    }

    /// Past the budget of threads (`budget::MAX_THREADS`), forget a
    /// quarter of them: idle ones first (no call open), those whose last
    /// record is oldest first, and among equals the lowest PID.TID. A
    /// forgotten thread is met again as a new one. Called between records,
    /// never while a thread is held.
    pub(super) fn trim(&mut self) {
        let cap = mqdiag_model::budget::MAX_THREADS;
        if self.all.len() - self.free.len() <= cap {
            return;
        }
        let keep = cap - cap / 4;
        // Idle or busy and the last record's line as one number: selecting
        // on it alone is a third of the work of selecting on the whole
        // (busy, line, PID, TID), and only the equals at the edge need
        // their PID.TID (a trace of a million processes trimmed every
        // 4,096 new ones).
        let order = &mut self.order;
        order.clear();
        order.extend(
            self.all
                .iter()
                .enumerate()
                .filter(|(_, t)| !t.gone)
                .map(|(i, t)| (t.age(), i)),
        );
        let cut = order.len() - keep;
        order.select_nth_unstable(cut - 1);
        let edge = order[cut - 1].0;
        // Everything older than the edge lies before it.
        let older = order[..cut].iter().filter(|(k, _)| *k < edge).count();
        let all = &self.all;
        let mut ties: Vec<(u32, u32, usize)> = order
            .iter()
            .filter(|(k, _)| *k == edge)
            .map(|&(_, i)| (all[i].pid, all[i].tid, i))
            .collect();
        let take = cut - older;
        if ties.len() > take {
            ties.select_nth_unstable(take - 1);
        }
        let gone = order
            .iter()
            .filter(|(k, _)| *k < edge)
            .map(|&(_, i)| i)
            .chain(ties[..take].iter().map(|&(_, _, i)| i));
        for i in gone {
            let t = &mut self.all[i];
            self.index.remove(&thread_key(t.pid, t.tid));
            t.forget();
            self.free.push(i);
        }
        self.cache.clear();
        self.text_cache.clear();
    }

    /// Every thread forgotten, as in a new table, with the room of the
    /// table and of the stacks kept: new threads take the places in order
    /// from the first, as they would be pushed.
    pub(super) fn forget_all(&mut self) {
        for t in &mut self.all {
            t.reset(0, 0);
            t.gone = true;
        }
        self.free.clear();
        self.free.extend((0..self.all.len()).rev());
        self.index.clear();
        self.cache.clear();
        self.text_cache.clear();
    }

    pub(super) fn get(&mut self, pid: u32, tid: u32) -> &mut Thread {
        let i = self.find(pid, tid);
        &mut self.all[i]
    }

    /// The index in `all` of the thread (PID, TID), a new one if unseen.
    fn find(&mut self, pid: u32, tid: u32) -> usize {
        if self.cache.is_empty() {
            // An empty slot has no index (every key is a valid PID.TID).
            self.cache = vec![(0, usize::MAX); Self::CACHE];
        }
        let key = thread_key(pid, tid);
        let slot = (tid ^ pid.rotate_left(5)) as usize % Self::CACHE;
        let (k, i) = self.cache[slot];
        if k == key && i != usize::MAX {
            return i;
        }
        let (all, free) = (&mut self.all, &mut self.free);
        let i = *self.index.entry(key).or_insert_with(|| match free.pop() {
            Some(i) => {
                all[i].reset(pid, tid);
                i
            }
            None => {
                all.push(Thread::new(pid, tid));
                all.len() - 1
            }
        });
        self.cache[slot] = (key, i);
        i
    }
}

/// PID.TID as one integer, the key of `Threads::index`.
pub(super) fn thread_key(pid: u32, tid: u32) -> u64 {
    (u64::from(pid) << 32) | u64::from(tid)
}

/// The most calls a forgotten thread's stack keeps room for when its place
/// is taken by a new thread.
const KEEP_ROOM: usize = 16;

/// Room for `  PID.TID`: two spaces, two 10-digit numbers and a dot.
const LABEL: usize = 23;

pub(super) struct Thread {
    pub(super) pid: u32,
    pub(super) tid: u32,
    /// Open calls: name and instant (UTC nanoseconds) of entry.
    pub(super) stack: Vec<(Arc<str>, i64)>,
    /// Read ahead (`blocks`): exits met with nothing open in the block,
    /// whose entries may lie before it: name, instant and row.
    pub(super) queries: Vec<blocks::Query>,
    /// Read ahead: the deepest the stack was in the block.
    pub(super) max_depth: usize,
    /// The thread's last ident: consecutive records of a thread mostly
    /// carry the same one, so it is compared before the interner is asked.
    pub(super) ident: Option<Arc<str>>,
    /// Line of the last non-dump record, which dump rows belong to.
    pub(super) last_record_line: u64,
    /// `  PID.TID`, for text rows, written when the first row needs it
    /// (`label`): a thread seen only by `analyze` never does, and a heap
    /// string per thread cost a quarter of a one-record thread's time.
    label: [u8; LABEL],
    label_len: u8,
    /// A slot of `Threads::all` whose thread was forgotten.
    gone: bool,
    /// The latest instant of the thread's records (`i64::MIN`: none yet)
    /// and its line: a record stamped earlier steps back (`stamp`).
    pub(super) newest: i64,
    pub(super) newest_line: u64,
    /// The instant of its first record (read ahead: the stitch checks the
    /// block's against the lines before it).
    pub(super) first: i64,
}

impl Thread {
    pub(super) fn new(pid: u32, tid: u32) -> Self {
        Thread {
            pid,
            tid,
            stack: Vec::new(),
            queries: Vec::new(),
            max_depth: 0,
            ident: None,
            last_record_line: 0,
            label: [0; LABEL],
            label_len: 0,
            gone: false,
            newest: i64::MIN,
            newest_line: 0,
            first: i64::MIN,
        }
    }

    /// A new thread in this place, keeping the room of the forgotten one's
    /// stack: a trace of many short-lived processes then allocates no
    /// stack per process. (A deep one's room is given back.)
    pub(super) fn reset(&mut self, pid: u32, tid: u32) {
        let mut stack = std::mem::take(&mut self.stack);
        let mut queries = std::mem::take(&mut self.queries);
        stack.clear();
        queries.clear();
        if stack.capacity() > KEEP_ROOM {
            stack = Vec::new();
        }
        if queries.capacity() > KEEP_ROOM {
            queries = Vec::new();
        }
        // Field by field, as `new` sets them: one is reset for every new
        // thread of a trace of many processes, and a whole new value
        // (with its label's room) cost twice as much. The label's bytes
        // are not read while its length is zero.
        self.pid = pid;
        self.tid = tid;
        self.stack = stack;
        self.queries = queries;
        self.max_depth = 0;
        self.ident = None;
        self.last_record_line = 0;
        self.label_len = 0;
        self.gone = false;
        self.newest = i64::MIN;
        self.newest_line = 0;
        self.first = i64::MIN;
    }

    /// Forgotten by `trim`: what it holds is let go (a deep stack's room
    /// too); the rest is set when the place is taken (`reset`), once.
    fn forget(&mut self) {
        if self.stack.capacity() > KEEP_ROOM {
            self.stack = Vec::new();
        }
        self.stack.clear();
        if self.queries.capacity() > KEEP_ROOM {
            self.queries = Vec::new();
        }
        self.queries.clear();
        self.ident = None;
        self.gone = true;
    }

    /// Idle (no call open) or busy, and the line of its last record, as
    /// one number ordered as the pair (`Threads::trim`).
    fn age(&self) -> u64 {
        let busy = !self.stack.is_empty() || !self.queries.is_empty();
        (u64::from(busy) << 63) | self.last_record_line.min(u64::MAX >> 1)
    }

    /// `  PID.TID` as `sink::push_thread` writes it.
    #[inline]
    pub(super) fn label(&mut self) -> &[u8] {
        if self.label_len == 0 {
            let mut b = Vec::with_capacity(LABEL);
            push_thread(&mut b, Some(self.pid), Some(self.tid));
            self.label[..b.len()].copy_from_slice(&b);
            self.label_len = b.len() as u8;
        }
        &self.label[..usize::from(self.label_len)]
    }

    /// A record of this thread at instant `at`, line `no`: the instant it
    /// is placed at. A step back of at most `STEP_BACK_TOLERANCE` is placed
    /// at the thread's latest instant (so the merge keeps the thread's
    /// order, and a call its entry before its exit); a larger one keeps
    /// its own time, and the thread's time goes on from it. Either way the
    /// step is counted in `back`.
    #[inline(always)]
    pub(super) fn stamp(&mut self, at: i64, no: u64, back: &mut TimeBack) -> i64 {
        if at >= self.newest {
            if self.newest == i64::MIN {
                self.first = at;
            }
            self.newest = at;
            self.newest_line = no;
            return at;
        }
        self.step_back(at, no, back)
    }

    #[cold]
    #[inline(never)]
    fn step_back(&mut self, at: i64, no: u64, back: &mut TimeBack) -> i64 {
        let step = self.newest.saturating_sub(at);
        back.saw(no, self.newest_line, step);
        if step <= STEP_BACK_TOLERANCE {
            return self.newest;
        }
        self.newest = at;
        self.newest_line = no;
        at
    }
}

/// The steps back in time of a file's threads (`Thread::stamp`), for one
/// located problem when the file ends.
#[derive(Default, Clone, Copy)]
pub(super) struct TimeBack {
    pub(super) count: u64,
    /// The largest step (nanoseconds).
    pub(super) max: i64,
    /// The first: its line and the line it steps back from.
    pub(super) first: Option<(u64, u64)>,
}

impl TimeBack {
    fn saw(&mut self, no: u64, after: u64, step: i64) {
        self.count += 1;
        self.max = self.max.max(step);
        self.first.get_or_insert((no, after));
    }

    /// A block's steps, after the lines before it.
    pub(super) fn absorb(&mut self, b: &TimeBack) {
        self.count += b.count;
        self.max = self.max.max(b.max);
        if self.first.is_none() {
            self.first = b.first;
        }
    }

    /// The problem, on the file's row.
    pub(super) fn report(&self, info: &mut FileInfo) {
        let Some((line, after)) = self.first else {
            return;
        };
        info.problem(
            ProblemCode::OutOfOrder,
            Some(line),
            Severity::Info,
            0,
            format!(
                "time goes back: {} record(s) stamped earlier than a record of their thread \
                 before them (by up to {}), the first at line {line} (after line {after}); a \
                 step of up to 1 s is shown at the time before it, keeping the thread's order \
                 and its calls whole; a larger one keeps its own time",
                self.count,
                mqdiag_model::timefmt::human_us((self.max / 1_000).max(0) as u64)
            ),
        );
    }
}

/// The UTC instant of a timestamp in nanoseconds (the merge key).
pub(super) fn instant(t: &Ts) -> i64 {
    t.timestamp_nanos_opt().unwrap_or(i64::MAX)
}

/// Microseconds from one instant to a later one; `None` if it is earlier
/// (a call whose exit is stamped before its entry, past the tolerance of
/// `Thread::stamp`, has no duration rather than a made-up one).
pub(super) fn micros_between(start: i64, end: i64) -> Option<u64> {
    (end >= start).then(|| (end.saturating_sub(start) / 1000) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trim_forgets_the_oldest_quarter_and_keeps_the_rest_in_place() {
        let cap = mqdiag_model::budget::MAX_THREADS;
        let mut th = Threads::default();
        for n in 0..=cap as u32 {
            // Thread n's last record is at line n + 1; thread 7 is busy.
            let t = th.get(1000 + n, 1);
            t.last_record_line = u64::from(n) + 1;
            if n == 7 {
                t.stack.push((Arc::from("MQGET"), 0));
            }
        }
        th.trim();
        let forgotten = cap + 1 - (cap - cap / 4);
        assert_eq!(th.index.len(), cap - cap / 4);
        // The busy thread stays; the idle ones with the oldest records go.
        assert_eq!(th.get(1007, 1).stack.len(), 1);
        assert_eq!(th.get(1000, 1).last_record_line, 0, "forgotten: met anew");
        let last_gone = 1000 + forgotten as u32;
        assert_eq!(th.get(last_gone, 1).last_record_line, 0);
        assert_eq!(
            th.get(last_gone + 1, 1).last_record_line,
            u64::from(forgotten as u32) + 2
        );
        // New threads take the freed slots: `all` does not grow.
        let len = th.all.len();
        for n in 0..100 {
            th.get(900_000 + n, 2);
        }
        assert_eq!(th.all.len(), len);
        // The label is written when asked, as `push_thread` writes it.
        let mut want = Vec::new();
        push_thread(&mut want, Some(4_294_967_295), Some(4_294_967_295));
        assert_eq!(th.get(u32::MAX, u32::MAX).label(), &want[..]);
    }

    #[test]
    fn trim_breaks_ties_at_the_edge_by_pid_tid() {
        let cap = mqdiag_model::budget::MAX_THREADS;
        let keep = cap - cap / 4;
        let gone = cap + 1 - keep;
        let mut th = Threads::default();
        // Threads met in a shuffled order of PID; the `gone - 10` oldest
        // have lines of their own, then 100 share one line (the edge),
        // the rest are newer. A reused slot keeps its stack's room.
        let n = cap as u32 + 1;
        let pid = |k: u32| 5000 + (k * 7919) % n;
        let line = |k: u32| match k as usize {
            k if k < gone - 10 => k as u64 + 1,
            k if k < gone + 90 => gone as u64 + 100,
            k => k as u64 + 1000,
        };
        for k in 0..n {
            th.get(pid(k), 3).last_record_line = line(k);
        }
        th.trim();
        assert_eq!(th.index.len(), keep);
        // Of the 100 at the edge, the 10 of lowest PID went.
        let mut edge: Vec<u32> = (gone as u32 - 10..gone as u32 + 90).map(pid).collect();
        edge.sort_unstable();
        for (j, p) in edge.iter().enumerate() {
            let known = th.index.contains_key(&thread_key(*p, 3));
            assert_eq!(known, j >= 10, "pid {p} at {j}");
        }
        for k in 0..n {
            let kept = th.index.contains_key(&thread_key(pid(k), 3));
            if (k as usize) < gone - 10 {
                assert!(!kept, "old {k}");
            } else if k as usize >= gone + 90 {
                assert!(kept, "new {k}");
            }
        }
        // A new thread in a freed place starts empty.
        let t = th.get(1, 1);
        assert!(t.stack.is_empty() && t.last_record_line == 0 && t.newest == i64::MIN);
    }

    #[test]
    fn forgetting_all_leaves_a_table_that_fills_as_a_new_one() {
        let mut th = Threads::default();
        for n in 0..10 {
            let t = th.get(70 + n, 1);
            t.last_record_line = 5;
            t.stack.push((Arc::from("MQPUT"), 1));
        }
        th.forget_all();
        assert!(th.index.is_empty());
        // New threads take the places from the first, empty, in order.
        for n in 0..12 {
            let t = th.get(900 + n, 2);
            assert!(t.stack.is_empty() && t.last_record_line == 0 && t.pid == 900 + n);
        }
        let order: Vec<u32> = th.all.iter().map(|t| t.pid).collect();
        assert_eq!(order, (900..912).collect::<Vec<u32>>());
        assert!(th.all[0].stack.capacity() > 0, "room kept");
        assert_eq!(th.get(70, 1).last_record_line, 0, "forgotten");
    }

    #[test]
    fn a_reset_thread_is_a_new_one() {
        let mut t = Thread::new(1, 2);
        t.stack.push((Arc::from("MQGET"), 5));
        t.max_depth = 3;
        t.ident = Some(Arc::from("RSESS:1"));
        t.last_record_line = 9;
        t.label();
        t.gone = true;
        t.newest = 4;
        t.newest_line = 8;
        t.first = 2;
        t.reset(7, 8);
        let n = Thread::new(7, 8);
        assert_eq!(
            (t.pid, t.tid, t.max_depth, t.ident.is_none()),
            (7, 8, 0, true)
        );
        assert!(t.stack.is_empty() && t.queries.is_empty() && t.stack.capacity() > 0);
        assert_eq!(
            (t.last_record_line, t.gone, t.newest, t.newest_line, t.first),
            (n.last_record_line, n.gone, n.newest, n.newest_line, n.first)
        );
        let mut want = Vec::new();
        push_thread(&mut want, Some(7), Some(8));
        assert_eq!(t.label(), &want[..]);
    }

    #[test]
    fn interner_gives_one_name_per_text() {
        let mut names = Interner::default();
        let a = names.get("RSESS:00011e");
        let b = names.get_bytes(b"RSESS:00011e");
        assert!(Arc::ptr_eq(&a, &b));
        assert!(!Arc::ptr_eq(&a, &names.get("RSESS:00011f")));
        // Bytes that are not UTF-8 are decoded lossily, once.
        let c = names.get_bytes(b"caf\xe9");
        assert_eq!(&*c, "caf\u{fffd}");
        assert!(Arc::ptr_eq(&c, &names.get_bytes(b"caf\xe9")));
        assert_eq!(names.0.len(), 3);
    }
}
