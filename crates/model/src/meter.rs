//! A plain byte counter for the inputs being read: `input` counts through it
//! (unpacked archive bytes, bytes read per file) without knowing how, or
//! whether, progress is drawn; `progress` reads its snapshots and draws.

use crate::fileinfo::FileInfo;
use std::collections::{HashMap, HashSet};
use std::io::{self, Read};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The shared counters.
#[derive(Debug)]
pub struct Meter {
    /// False while inputs are looked for, true once they are read.
    reading: AtomicBool,
    /// When the current phase started, in nanoseconds after `base`.
    phase_ns: AtomicU64,
    base: Instant,
    bytes: AtomicU64,
    files: AtomicU64,
    total_bytes: AtomicU64,
    total_files: AtomicU64,
    /// Bytes read per input path, by readers already closed.
    read: Mutex<HashMap<Arc<str>, u64>>,
    /// Inputs read to their end and already counted in `files` (a source
    /// finishes only when the merge is done with it, often at the very end).
    ended: Mutex<HashSet<Arc<str>>>,
    /// Inputs a reader has started on; with `ended`, the files open now
    /// (files read side by side in time order all end near the end, so
    /// "done" alone stays low for most of a run).
    opened: Mutex<HashSet<Arc<str>>>,
    /// Inputs that turned out not to be work (not recognised, unreadable):
    /// out of the totals, and not credited when their source finishes.
    dropped: Mutex<HashSet<Arc<str>>>,
}

/// The counters at one instant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Snapshot {
    /// False while inputs are looked for (archives unpacked).
    pub reading: bool,
    pub files: u64,
    /// Files being read now (started, not yet at their end).
    pub open: u64,
    pub total_files: u64,
    pub bytes: u64,
    pub total_bytes: u64,
}

impl Default for Meter {
    fn default() -> Self {
        Meter::new()
    }
}

impl Meter {
    /// A meter in the looking-for-inputs phase.
    pub fn new() -> Meter {
        Meter {
            reading: AtomicBool::new(false),
            phase_ns: AtomicU64::new(0),
            base: Instant::now(),
            bytes: AtomicU64::new(0),
            files: AtomicU64::new(0),
            total_bytes: AtomicU64::new(0),
            total_files: AtomicU64::new(0),
            read: Mutex::new(HashMap::new()),
            ended: Mutex::new(HashSet::new()),
            opened: Mutex::new(HashSet::new()),
            dropped: Mutex::new(HashSet::new()),
        }
    }

    /// The input `path` (`bytes` long) is not work after all: a file no
    /// reader knows, or one that cannot be read. It leaves the totals.
    pub fn not_work(&self, path: &Arc<str>, bytes: u64) {
        let mut dropped = self.dropped.lock().unwrap_or_else(|p| p.into_inner());
        if dropped.insert(path.clone()) {
            self.total_files.fetch_sub(1, Ordering::Relaxed);
            self.total_bytes.fetch_sub(bytes, Ordering::Relaxed);
        }
    }

    /// Bytes unpacked while looking for inputs.
    pub fn unpacked(&self, n: u64) {
        self.bytes.fetch_add(n, Ordering::Relaxed);
    }

    /// Enter the reading phase: these totals, counters and clock from zero.
    pub fn start_reading(&self, total_files: u64, total_bytes: u64) {
        self.total_files.store(total_files, Ordering::Relaxed);
        self.total_bytes.store(total_bytes, Ordering::Relaxed);
        self.files.store(0, Ordering::Relaxed);
        self.bytes.store(0, Ordering::Relaxed);
        let ns = u64::try_from(self.base.elapsed().as_nanos()).unwrap_or(u64::MAX);
        self.phase_ns.store(ns, Ordering::Relaxed);
        self.reading.store(true, Ordering::SeqCst);
    }

    /// Time since the current phase started.
    pub fn phase_elapsed(&self) -> Duration {
        let start = Duration::from_nanos(self.phase_ns.load(Ordering::Relaxed));
        self.base.elapsed().saturating_sub(start)
    }

    /// Wrap a reader of the input `path` so that its reads are counted.
    pub fn counting(self: &Arc<Self>, inner: Box<dyn Read + Send>, path: Arc<str>) -> Counting {
        Counting {
            inner,
            meter: self.clone(),
            path,
            count: 0,
            ended: false,
        }
    }

    /// A source finished these files: credit what of them was not read.
    pub fn finished(&self, infos: &[FileInfo]) {
        let mut read = self.read.lock().unwrap_or_else(|p| p.into_inner());
        let mut ended = self.ended.lock().unwrap_or_else(|p| p.into_inner());
        let dropped = self.dropped.lock().unwrap_or_else(|p| p.into_inner());
        for fi in infos {
            if dropped.contains(fi.path.as_str()) {
                continue;
            }
            let got = read.remove(fi.path.as_str()).unwrap_or(0);
            self.bytes
                .fetch_add(fi.bytes.saturating_sub(got), Ordering::Relaxed);
            if !ended.remove(fi.path.as_str()) {
                self.files.fetch_add(1, Ordering::Relaxed);
            }
        }
    }

    pub fn snapshot(&self) -> Snapshot {
        let opened = self.opened.lock().unwrap_or_else(|p| p.into_inner()).len() as u64;
        let ended = self.ended.lock().unwrap_or_else(|p| p.into_inner()).len() as u64;
        Snapshot {
            reading: self.reading.load(Ordering::SeqCst),
            files: self.files.load(Ordering::Relaxed),
            open: opened.saturating_sub(ended),
            total_files: self.total_files.load(Ordering::Relaxed),
            bytes: self.bytes.load(Ordering::Relaxed),
            total_bytes: self.total_bytes.load(Ordering::Relaxed),
        }
    }
}

/// A reader whose bytes are counted.
pub struct Counting {
    inner: Box<dyn Read + Send>,
    meter: Arc<Meter>,
    path: Arc<str>,
    count: u64,
    ended: bool,
}

impl Read for Counting {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        if self.count == 0 && n > 0 {
            let mut opened = self.meter.opened.lock().unwrap_or_else(|p| p.into_inner());
            opened.insert(self.path.clone());
        }
        self.count += n as u64;
        self.meter.bytes.fetch_add(n as u64, Ordering::Relaxed);
        if n == 0 && !buf.is_empty() && !self.ended {
            // The file is read: it counts as done now. Several readers of
            // one file (blocks of a large trace) count it once.
            self.ended = true;
            let mut ended = self.meter.ended.lock().unwrap_or_else(|p| p.into_inner());
            if ended.insert(self.path.clone()) {
                self.meter.files.fetch_add(1, Ordering::Relaxed);
            }
        }
        Ok(n)
    }
}

impl Drop for Counting {
    fn drop(&mut self) {
        let mut read = self.meter.read.lock().unwrap_or_else(|p| p.into_inner());
        *read.entry(self.path.clone()).or_insert(0) += self.count;
    }
}
