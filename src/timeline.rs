//! One time-ordered stream out of many sources: a small reorder buffer per
//! source (trace threads interleave a few milliseconds out of order), then a
//! k-way merge. Memory is bounded by the number of sources, never their size.

use crate::event::Event;
use crate::source::{FileInfo, Severity, Source};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// How far back in time a source may step and still be put in order.
pub const REORDER_WINDOW_NANOS: i64 = 1_000_000_000;
/// How many events one source may hold back at most.
pub const REORDER_CAP: usize = 4096;

/// Sort key: the instant (UTC nanoseconds), then arrival order.
fn instant(e: &Event) -> i64 {
    e.ts.timestamp_nanos_opt().unwrap_or(i64::MAX)
}

struct Pending {
    key: (i64, u64),
    event: Event,
}
impl PartialEq for Pending {
    fn eq(&self, o: &Self) -> bool {
        self.key == o.key
    }
}
impl Eq for Pending {}
impl PartialOrd for Pending {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Pending {
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        self.key.cmp(&o.key)
    }
}

/// A source whose local disorder (within the window) is repaired.
pub struct Reordered {
    src: Option<Box<dyn Source>>,
    heap: BinaryHeap<Reverse<Pending>>,
    seq: u64,
    newest: i64,
    released: i64,
    late: u64,
    first_late_line: Option<(String, u64)>,
    infos: Vec<FileInfo>,
}

impl Reordered {
    pub fn new(src: Box<dyn Source>) -> Self {
        Reordered {
            src: Some(src),
            heap: BinaryHeap::new(),
            seq: 0,
            newest: i64::MIN,
            released: i64::MIN,
            late: 0,
            first_late_line: None,
            infos: Vec::new(),
        }
    }

    pub fn next_event(&mut self) -> Option<Event> {
        loop {
            if let Some(Reverse(top)) = self.heap.peek() {
                let ready = self.src.is_none()
                    || self.heap.len() >= REORDER_CAP
                    || top.key.0 <= self.newest.saturating_sub(REORDER_WINDOW_NANOS);
                if ready {
                    let Reverse(p) = self.heap.pop().expect("peeked");
                    self.released = self.released.max(p.key.0);
                    return Some(p.event);
                }
            } else if self.src.is_none() {
                return None;
            }
            match self.src.as_mut().and_then(|s| s.next_event()) {
                Some(e) => {
                    let k = instant(&e);
                    if k < self.released {
                        // Too late to put in order: pass it on now, and say so.
                        self.late += 1;
                        if self.first_late_line.is_none() {
                            self.first_late_line = Some((e.path().to_string(), e.line));
                        }
                        return Some(e);
                    }
                    self.newest = self.newest.max(k);
                    self.seq += 1;
                    self.heap.push(Reverse(Pending {
                        key: (k, self.seq),
                        event: e,
                    }));
                }
                None => {
                    if let Some(s) = self.src.take() {
                        self.infos = s.finish();
                    }
                }
            }
        }
    }

    pub fn finish(mut self) -> Vec<FileInfo> {
        if let Some(s) = self.src.take() {
            self.infos = s.finish();
        }
        if self.late > 0 {
            let (path, line) = self.first_late_line.clone().unwrap_or_default();
            let target = self.infos.iter_mut().find(|i| i.path == path).or(None);
            let msg = format!(
                "{} event(s) were more than {} ms earlier than events before them and appear late in the timeline",
                self.late,
                REORDER_WINDOW_NANOS / 1_000_000
            );
            if let Some(fi) = target {
                fi.problem(Some(line), Severity::Info, 0, msg);
            } else if let Some(fi) = self.infos.first_mut() {
                fi.problem(Some(line), Severity::Info, 0, msg);
            }
        }
        self.infos
    }
}

/// The k-way merge of all sources.
pub struct Merged {
    sources: Vec<Reordered>,
    heap: BinaryHeap<Reverse<(i64, usize, u64)>>,
    heads: Vec<Option<Event>>,
    seq: u64,
}

impl Merged {
    pub fn new(sources: Vec<Box<dyn Source>>) -> Self {
        let mut m = Merged {
            sources: sources.into_iter().map(Reordered::new).collect(),
            heap: BinaryHeap::new(),
            heads: Vec::new(),
            seq: 0,
        };
        m.heads = (0..m.sources.len()).map(|_| None).collect();
        for i in 0..m.sources.len() {
            m.refill(i);
        }
        m
    }

    fn refill(&mut self, i: usize) {
        if let Some(e) = self.sources[i].next_event() {
            self.seq += 1;
            self.heap.push(Reverse((instant(&e), i, self.seq)));
            self.heads[i] = Some(e);
        }
    }

    /// Per-file facts, once the stream is drained (or given up).
    pub fn finish(self) -> Vec<FileInfo> {
        let mut out: Vec<FileInfo> = self.sources.into_iter().flat_map(|s| s.finish()).collect();
        out.sort_by(|a, b| a.path.cmp(&b.path));
        out
    }
}

impl Iterator for Merged {
    type Item = Event;
    fn next(&mut self) -> Option<Event> {
        let Reverse((_, i, _)) = self.heap.pop()?;
        let e = self.heads[i].take();
        self.refill(i);
        e
    }
}

/// Drain every source without merging (for `inventory`).
pub fn drain_all(sources: Vec<Box<dyn Source>>) -> Vec<FileInfo> {
    let mut out = Vec::new();
    for mut s in sources {
        while s.next_event().is_some() {}
        out.extend(s.finish());
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::{Format, Kind, Origin};
    use chrono::{DateTime, FixedOffset};
    use std::sync::Arc;

    struct VecSource(std::vec::IntoIter<Event>, String);
    impl Source for VecSource {
        fn next_event(&mut self) -> Option<Event> {
            self.0.next()
        }
        fn finish(self: Box<Self>) -> Vec<FileInfo> {
            vec![FileInfo::new(&self.1, Format::FmtTrace, 0)]
        }
    }

    fn ev(path: &str, ts: &str, line: u64) -> Event {
        let o = Arc::new(Origin {
            path: Arc::from(path),
            format: Format::FmtTrace,
        });
        let t: DateTime<FixedOffset> = DateTime::parse_from_rfc3339(ts).unwrap();
        Event::new(t, o, line, Kind::Text, String::new())
    }

    fn src(path: &str, evs: Vec<Event>) -> Box<dyn Source> {
        Box::new(VecSource(evs.into_iter(), path.to_string()))
    }

    #[test]
    fn merges_across_offsets_in_true_time_order() {
        let a = src(
            "a",
            vec![
                ev("a", "2016-05-15T12:00:00+01:00", 1), // 11:00Z
                ev("a", "2016-05-15T12:00:02+01:00", 2), // 11:00:02Z
            ],
        );
        let b = src("b", vec![ev("b", "2016-05-15T07:00:01-04:00", 1)]); // 11:00:01Z
        let m = Merged::new(vec![a, b]);
        let got: Vec<_> = m.map(|e| (e.path().to_string(), e.line)).collect();
        assert_eq!(got, vec![("a".into(), 1), ("b".into(), 1), ("a".into(), 2)]);
    }

    #[test]
    fn small_backward_steps_are_reordered() {
        let a = src(
            "a",
            vec![
                ev("a", "2016-05-15T12:00:00.005+00:00", 1),
                ev("a", "2016-05-15T12:00:00.002+00:00", 2),
                ev("a", "2016-05-15T12:00:00.009+00:00", 3),
            ],
        );
        let lines: Vec<u64> = Merged::new(vec![a]).map(|e| e.line).collect();
        assert_eq!(lines, vec![2, 1, 3]);
    }

    #[test]
    fn far_late_events_are_passed_on_and_reported() {
        let a = src(
            "a",
            vec![
                ev("a", "2016-05-15T12:00:00+00:00", 1),
                ev("a", "2016-05-15T12:00:05+00:00", 2),
                ev("a", "2016-05-15T11:00:00+00:00", 3),
            ],
        );
        let mut m = Merged::new(vec![a]);
        let lines: Vec<u64> = m.by_ref().map(|e| e.line).collect();
        // Line 3 is an hour too early: it cannot be put in order, so it is
        // passed on at once (before line 2, still held back) and reported.
        assert_eq!(lines, vec![1, 3, 2]);
        let infos = m.finish();
        assert_eq!(infos[0].problem_count, 1);
        assert_eq!(infos[0].problems[0].line, Some(3));
    }
}
