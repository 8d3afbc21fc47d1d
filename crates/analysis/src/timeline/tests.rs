//! Tests of the reorder buffer, the k-way merge and the worker pool.

use super::*;
use chrono::{DateTime, FixedOffset};
use mqdiag_model::event::{Kind, Origin};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, OnceLock};

struct VecSource(std::vec::IntoIter<Event>, String);
impl Source for VecSource {
    fn next_event(&mut self) -> Option<Event> {
        self.0.next()
    }
    fn finish(self: Box<Self>) -> Vec<FileInfo> {
        vec![FileInfo::new(
            &self.1,
            mqdiag_readers::formats::trace::FORMAT,
            0,
        )]
    }
}

fn ev(path: &str, ts: &str, line: u64) -> Event {
    let o = Arc::new(Origin {
        path: Arc::from(path),
        format: mqdiag_readers::formats::trace::FORMAT,
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

/// `n` sources `f00000`.. of `count(f)` events each, the `i`th of file `f`
/// at `ms(f, i)` milliseconds past 12:00 on one day, its line `i`.
fn sources(
    n: usize,
    count: impl Fn(usize) -> usize,
    ms: impl Fn(usize, usize) -> usize,
) -> Vec<Box<dyn Source>> {
    (0..n)
        .map(|f| {
            let p = format!("f{f:05}");
            let evs = (0..count(f))
                .map(|i| {
                    let ms = ms(f, i);
                    let ts = format!(
                        "2016-05-15T12:{:02}:{:02}.{:03}+00:00",
                        ms / 60_000,
                        ms / 1000 % 60,
                        ms % 1000
                    );
                    ev(&p, &ts, i as u64)
                })
                .collect();
            src(&p, evs)
        })
        .collect()
}

/// Where a merged event comes from: the order tests compare.
fn place(e: Event) -> (String, u64) {
    (e.path().to_string(), e.line)
}

#[test]
fn worker_pool_gives_the_same_order() {
    // Equal instants across files: ties broken by file.
    let make = || sources(5, |_| 3000, |f, i| (i * 7 + f * 3) % 2000 + i);
    let one: Vec<_> = Merged::with_jobs(make(), 1).map(place).collect();
    let mut m = Merged::with_jobs(make(), 3);
    let three: Vec<_> = m.by_ref().map(place).collect();
    assert_eq!(one.len(), 15_000);
    assert_eq!(one, three);
    assert_eq!(m.finish().len(), 5);
}

/// Past `LAZY_SOURCES` a source is read on the merge thread until it shows
/// a second batch: one-batch files never get a channel; longer ones are
/// handed to the workers; the order is that of one job.
#[test]
fn many_sources_go_to_the_workers_only_past_their_first_batch() {
    let n = LAZY_SOURCES + 40;
    let long = |f: usize| f.is_multiple_of(20);
    let make = || {
        sources(
            n,
            |f| if long(f) { 400 } else { 1 },
            |f, i| (i * 13 + f * 7) % 5000,
        )
    };
    let one: Vec<_> = Merged::with_jobs(make(), 1).map(place).collect();
    let mut m = Merged::with_jobs(make(), 2);
    let two: Vec<_> = m.by_ref().map(place).collect();
    assert_eq!(one.len(), (n - n.div_ceil(20)) + 400 * n.div_ceil(20));
    assert_eq!(one, two);
    let pool = m.merge.pool.as_ref().unwrap();
    for f in 0..n {
        assert_eq!(pool.txs[f].get().is_some(), long(f), "source {f}");
    }
    assert_eq!(m.finish().len(), n);
}

/// A source that notes the thread it is first read on.
struct Noted(Box<dyn Source>, Arc<Mutex<Vec<thread::ThreadId>>>, bool);
impl Source for Noted {
    fn next_event(&mut self) -> Option<Event> {
        if !std::mem::replace(&mut self.2, true) {
            self.1.lock().unwrap().push(thread::current().id());
            // Long enough for the other thread to start and take some.
            thread::sleep(std::time::Duration::from_micros(50));
        }
        self.0.next_event()
    }
    fn finish(self: Box<Self>) -> Vec<FileInfo> {
        self.0.finish()
    }
}

/// Past `LAZY_SOURCES` every source's first batch is read before the
/// merge begins, by as many threads as jobs: the order is that of one.
#[test]
fn many_sources_have_their_first_batches_read_by_every_job() {
    let n = LAZY_SOURCES + 40;
    let seen = Arc::new(Mutex::new(Vec::new()));
    let make = |seen: &Arc<Mutex<Vec<thread::ThreadId>>>| -> Vec<Box<dyn Source>> {
        sources(n, |f| 1 + f % 3, |f, i| (i * 13 + f * 7) % 5000)
            .into_iter()
            .map(|s| Box::new(Noted(s, seen.clone(), false)) as Box<dyn Source>)
            .collect()
    };
    let one: Vec<_> = Merged::with_jobs(make(&seen), 1).map(place).collect();
    seen.lock().unwrap().clear();
    let mut m = Merged::with_jobs(make(&seen), 2);
    // Every source was read once before the first event was taken...
    let mut threads = seen.lock().unwrap().clone();
    assert_eq!(threads.len(), n);
    threads.sort_by_key(|t| format!("{t:?}"));
    threads.dedup();
    // ... on this thread and one more.
    assert_eq!(threads.len(), 2);
    assert!(threads.contains(&thread::current().id()));
    let two: Vec<_> = m.by_ref().map(place).collect();
    assert_eq!(one, two);
    assert_eq!(m.finish().len(), n);
}

/// A pool of these sources with no workers, and each source's channel.
fn bare_pool(files: &[&str]) -> (Pool<Reordered>, Vec<Receiver<Msg<EventBatch>>>) {
    let (txs, rxs): (Vec<_>, Vec<_>) = files.iter().map(|_| mpsc::sync_channel(4)).unzip();
    let evs = |f: &str| {
        (0..50)
            .map(|i| ev(f, &format!("2016-05-15T12:00:{i:02}+00:00"), i))
            .collect()
    };
    let pool = Pool {
        requests: None,
        caps: (10, 1 << 20),
        owed: Arc::new(files.iter().map(|_| AtomicUsize::new(0)).collect()),
        queued: Arc::new(files.iter().map(|_| AtomicUsize::new(0)).collect()),
        txs: Arc::new(
            txs.into_iter()
                .map(|t| {
                    let l = OnceLock::new();
                    let _ = l.set(t);
                    l
                })
                .collect(),
        ),
        sources: Arc::new(
            files
                .iter()
                .map(|f| Mutex::new(Some(Reordered::new(src(f, evs(f))))))
                .collect(),
        ),
        workers: Vec::new(),
        spare: Arc::default(),
        spare_cap: 4,
    };
    (pool, rxs)
}

/// Which message it is, and the line of its first event.
fn what(m: Option<Msg<EventBatch>>) -> (&'static str, Option<u64>) {
    match m {
        Some(Msg::Batch(b)) => ("batch", b.front().map(|e| e.line)),
        Some(Msg::Extra(b)) => ("extra", b.front().map(|e| e.line)),
        Some(Msg::Done(_)) => ("done", None),
        None => ("none", None),
    }
}

/// The merge reads a batch itself only when no worker holds the source
/// and nothing sent is waiting: what a worker sent comes first, and a
/// held source is waited for.
#[test]
fn the_merge_reads_a_batch_only_of_a_free_source_with_nothing_waiting() {
    let (pool, rxs) = bare_pool(&["f"]);
    let worker_batch = |line| {
        let mut b = EventBatch::default();
        b.events.push(ev("f", "2016-05-15T11:00:00+00:00", line));
        pool.queued[0].fetch_add(1, Ordering::AcqRel);
        Msg::Batch(b)
    };
    pool.txs[0].get().unwrap().send(worker_batch(999)).unwrap();
    assert_eq!(what(pool.next_msg(0, &rxs[0])), ("batch", Some(999)));
    // Nothing waiting, nobody holding: read here, not owed.
    assert_eq!(what(pool.next_msg(0, &rxs[0])), ("extra", Some(0)));
    // A worker holds the source: its batch is waited for, never read past.
    let (locked_tx, locked) = mpsc::channel();
    std::thread::scope(|sc| {
        sc.spawn(|| {
            let _held = pool.sources[0].lock().unwrap();
            locked_tx.send(()).unwrap();
            std::thread::sleep(std::time::Duration::from_millis(30));
            pool.txs[0].get().unwrap().send(worker_batch(998)).unwrap();
        });
        locked.recv().unwrap();
        assert_eq!(what(pool.next_msg(0, &rxs[0])), ("batch", Some(998)));
    });
    assert_eq!(what(pool.next_msg(0, &rxs[0])), ("extra", Some(10)));
    assert_eq!(pool.queued[0].load(Ordering::Acquire), 0);
    // Once the source is held here its channel is looked at again: a
    // batch a worker sent just before it let go comes first.
    pool.txs[0].get().unwrap().send(worker_batch(997)).unwrap();
    assert_eq!(what(pool.try_fill(0, &rxs[0])), ("batch", Some(997)));
    assert_eq!(pool.queued[0].load(Ordering::Acquire), 0);
}

/// While waiting for one source, the merge reads one batch ahead of
/// another that no worker holds and that has nothing queued, marked as
/// not owed; never a second while the first is queued.
#[test]
fn the_merge_reads_ahead_one_batch_of_a_free_idle_source() {
    let (pool, rxs) = bare_pool(&["a", "b"]);
    // A worker holds the second source: nothing is read.
    let held = pool.sources[1].lock().unwrap();
    pool.fill_ahead(0);
    assert!(rxs[1].try_recv().is_err());
    drop(held);
    pool.fill_ahead(0);
    pool.fill_ahead(0);
    assert_eq!(pool.queued[1].load(Ordering::Acquire), 1);
    assert_eq!(what(pool.next_msg(1, &rxs[1])), ("extra", Some(0)));
    assert!(
        rxs[1].try_recv().is_err(),
        "a second batch while one was queued"
    );
    pool.fill_ahead(0);
    assert_eq!(what(pool.next_msg(1, &rxs[1])), ("extra", Some(10)));
    assert_eq!(pool.queued[1].load(Ordering::Acquire), 0);
}

/// Sources of many batches, filled by workers and by the merge thread
/// when it would wait: each source is held by one thread at a time,
/// and its batches still arrive whole and in order.
#[test]
fn sources_of_many_batches_arrive_whole_and_in_order() {
    let make = |files: u64, per: u64| -> Vec<Box<dyn Source>> {
        (0..files)
            .map(|f| {
                let p = format!("f{f}");
                let evs = (0..per)
                    .map(|i| {
                        let ms = i * 3 + f;
                        let ts = format!(
                            "2016-05-15T{:02}:{:02}:{:02}.{:03}+00:00",
                            ms / 3_600_000,
                            ms / 60_000 % 60,
                            ms / 1000 % 60,
                            ms % 1000
                        );
                        ev(&p, &ts, i)
                    })
                    .collect();
                src(&p, evs)
            })
            .collect()
    };
    let key = |e: Event| (e.path().to_string(), e.line);
    // Repeated: which thread fills which batch changes from run to run.
    let runs = [
        (1, 30_000, 2),
        (1, 30_000, 4),
        (3, 12_000, 2),
        (3, 12_000, 3),
    ];
    for (files, per, jobs) in runs.into_iter().cycle().take(12) {
        let one: Vec<_> = Merged::with_jobs(make(files, per), 1).map(key).collect();
        let mut m = Merged::with_jobs(make(files, per), jobs);
        let many: Vec<_> = m.by_ref().map(key).collect();
        assert_eq!(one.len() as u64, files * per);
        assert_eq!(one, many, "{files} files, {jobs} jobs");
        assert_eq!(m.finish().len() as u64, files);
    }
}

#[test]
fn pool_stopped_early_still_reports_every_file() {
    let evs = |p: &str| {
        (0..10_000)
            .map(|i| ev(p, "2016-05-15T12:00:00+00:00", i))
            .collect::<Vec<_>>()
    };
    let mut m = Merged::with_jobs(vec![src("a", evs("a")), src("b", evs("b"))], 2);
    assert!(m.next().is_some());
    let infos = m.finish();
    let paths: Vec<_> = infos.iter().map(|i| i.path.as_str()).collect();
    assert_eq!(paths, vec!["a", "b"]);
}

#[test]
fn far_late_events_are_passed_on_and_reported() {
    // A minute of events a second apart, then one an hour earlier: by
    // then the first are long released, so it cannot be put in order.
    let mut evs: Vec<Event> = (0..60)
        .map(|i| ev("a", &format!("2016-05-15T12:00:{i:02}+00:00"), i + 1))
        .collect();
    evs.push(ev("a", "2016-05-15T11:00:00+00:00", 61));
    evs.push(ev("a", "2016-05-15T12:01:00+00:00", 62));
    let mut m = Merged::new(vec![src("a", evs)]);
    let lines: Vec<u64> = m.by_ref().map(|e| e.line).collect();
    assert_eq!(lines.len(), 62);
    // Passed on as soon as it is read, before what is still held back.
    let late = lines.iter().position(|&l| l == 61).unwrap();
    assert!(late < 60, "{lines:?}");
    assert_eq!(
        lines[late + 1..],
        (late as u64 + 1..=60).chain([62]).collect::<Vec<_>>()[..]
    );
    let infos = m.finish();
    assert_eq!(infos[0].problem_count, 1);
    assert_eq!(infos[0].problems[0].line, Some(61));
    // An hour and the half minute already released behind: said so.
    let msg = &infos[0].problems[0].message;
    assert!(msg.contains("up to 3630 s earlier"), "{msg}");
}

#[test]
fn lateness_is_the_real_one_when_the_buffer_was_full() {
    // A full buffer (4 items) releases on count, not time: an event a
    // mere 100 ms back is then already out of order, and said to be
    // 100 ms late, not "more than the window".
    let mut evs: Vec<Event> = (0..40)
        .map(|i| {
            ev(
                "a",
                &format!("2016-05-15T12:00:00.{:03}+00:00", i * 10),
                i + 1,
            )
        })
        .collect();
    evs.push(ev("a", "2016-05-15T12:00:00.180+00:00", 41));
    let mut r = Reordered::with_caps(src("a", evs), 4, usize::MAX);
    while r.next_event().is_some() {}
    let infos = r.finish();
    let msg = &infos[0].problems[0].message;
    assert!(msg.starts_with("1 event(s) were up to "), "{msg}");
    // The first burst of 32 read, all but 3 released (up to .280).
    assert!(msg.contains("up to 100 ms earlier"), "{msg}");
    assert_eq!(lateness(250_000), "250 µs");
    assert_eq!(lateness(1_500_000_000), "1.5 s");
    assert_eq!(lateness(3_600_000_000_000), "3600 s");
}

fn undated_ev(path: &str, line: u64) -> Event {
    let o = Arc::new(Origin {
        path: Arc::from(path),
        format: mqdiag_readers::formats::trace::FORMAT,
    });
    Event::undated(o, line, Kind::LogRecord, String::new())
}

/// Records without a time come after every dated event, by source (path)
/// then line, with one job or two alike; an event past 2262 is still
/// left out and reported, the undated ones are not.
#[test]
fn undated_events_come_last_by_file_and_line() {
    let make = || -> Vec<Box<dyn Source>> {
        vec![
            src("a", vec![undated_ev("a", 1), undated_ev("a", 2)]),
            src(
                "b",
                vec![
                    ev("b", "2016-05-15T12:00:00+00:00", 1),
                    ev("b", "2300-01-01T00:00:00+00:00", 2),
                    ev("b", "2016-05-15T12:00:05+00:00", 3),
                ],
            ),
            src("c", vec![undated_ev("c", 7)]),
        ]
    };
    for jobs in [1, 2] {
        let mut m = Merged::with_jobs(make(), jobs);
        let mut got = Vec::new();
        while let Some(e) = m.next_ref() {
            got.push((e.path().to_string(), e.line, e.is_undated()));
        }
        let want = [
            ("b", 1, false),
            ("b", 3, false),
            ("a", 1, true),
            ("a", 2, true),
            ("c", 7, true),
        ];
        let want: Vec<_> = want
            .iter()
            .map(|(p, l, u)| (p.to_string(), *l, *u))
            .collect();
        assert_eq!(got, want, "jobs {jobs}");
        let infos = m.finish();
        let b = infos.iter().find(|i| i.path == "b").unwrap();
        assert_eq!(b.problems.len(), 1, "{:?}", b.problems);
        assert!(
            infos
                .iter()
                .filter(|i| i.path != "b")
                .all(|i| i.problems.is_empty())
        );
    }
}

#[test]
fn no_window_contains_an_undated_time() {
    let u = mqdiag_model::event::undated();
    assert!(TimeWindow::default().contains(&u));
    let t = DateTime::parse_from_rfc3339("2000-01-01T00:00:00+00:00").unwrap();
    for w in [
        TimeWindow {
            since: Some(t),
            ..Default::default()
        },
        TimeWindow {
            until: Some(t),
            ..Default::default()
        },
        TimeWindow {
            since: Some(t),
            since_local: true,
            ..Default::default()
        },
    ] {
        assert!(!w.contains(&u), "{w:?}");
        let mut infos = vec![FileInfo::new(
            "p",
            mqdiag_readers::formats::trace::FORMAT,
            0,
        )];
        infos[0].saw_event(&u);
        note_undated_left_out(&mut infos, &w);
        assert_eq!(
            infos[0].notes,
            ["1 record(s) without a time left out: a time window cannot contain them"]
        );
    }
}

/// The window's reference time (a time of day's date) is a dated event's,
/// never the marker's.
#[test]
fn the_reference_time_is_never_undated() {
    let mut m = Merged::new(vec![src("a", vec![undated_ev("a", 1)])]);
    assert_eq!(m.reference_ts(), None);
    let mut m = Merged::new(vec![
        src("a", vec![undated_ev("a", 1)]),
        src("b", vec![ev("b", "2016-05-15T12:00:00+00:00", 1)]),
    ]);
    assert_eq!(
        m.reference_ts().map(|t| t.to_rfc3339()),
        Some("2016-05-15T12:00:00+00:00".to_string())
    );
}

#[test]
fn a_source_that_ended_holds_its_last_events_in_no_more_room_than_they_need() {
    let mut e = ev("a", "2016-05-15T12:00:00+00:00", 1);
    // As a reader builds a record: room for the largest.
    e.text = String::with_capacity(4096);
    e.text
        .push_str("AMQ9999E: Channel 'A' to host 'h' ended abnormally.");
    let mut r = Reordered::new(src("a", vec![e]));
    let mut batch = EventBatch::default();
    r.fill(&mut batch, 16, 1 << 20);
    assert_eq!(batch.events.len(), 1);
    let got = &batch.events[0];
    assert_eq!(got.text.capacity(), got.text.len());
    assert_eq!(batch.events.capacity(), 1);
}

#[test]
fn a_source_whose_events_were_all_taken_holds_none_of_them() {
    for jobs in [1, 2] {
        let a = src("a", vec![ev("a", "2016-05-15T12:00:00+00:00", 1)]);
        let b = src(
            "b",
            vec![
                ev("b", "2016-05-15T12:00:01+00:00", 1),
                ev("b", "2016-05-15T12:00:02+00:00", 2),
            ],
        );
        let mut m = Merge::start(vec![reordered(a, 2, None), reordered(b, 2, None)], jobs);
        // a's one event, then b's first: a is done.
        for _ in 0..2 {
            let i = m.top().expect("an event");
            m.batch(i).pos += 1;
            m.advance_top();
        }
        assert_eq!(m.feeds[0].cur.events.capacity(), 0, "jobs {jobs}");
        assert!(m.feeds[0].rx.is_none());
        assert_eq!(m.top(), Some(1));
    }
}

/// An event naming a host and its address, in its text and attributes;
/// `k` picks the names (files share some).
fn named(path: &str, ts: &str, line: u64, k: u32) -> Event {
    let mut e = ev(path, ts, line);
    e.text = format!(
        "AMQ9999E: Channel 'CH.{k}' to host 'app{k}.example.com (10.0.{k}.1)' ended; user id 'u{}'",
        k % 3
    );
    e.set_attr("host", format!("app{k}.example.com"));
    e.set_attr("address", format!("10.0.{k}.1"));
    e.set_attr("channel", format!("CH.{k}"));
    e.set_attr("program", "amqrmppa");
    e
}

/// Three files whose events interleave in time and name some hosts in
/// more than one file, each file repeating values from event to event.
fn named_sources() -> Vec<Box<dyn Source>> {
    let at = |s: u32| format!("2024-03-12T00:{:02}:{:02}Z", s / 60, s % 60);
    (0..3u32)
        .map(|f| {
            let path = format!("f{f}");
            let evs = (0..40u32)
                .map(|i| {
                    named(
                        &path,
                        &at(i * 3 + f),
                        u64::from(i) + 1,
                        (i / 2 + f * 5) % 17,
                    )
                })
                .collect();
            src(&path, evs)
        })
        .collect()
}

/// What a redactor learnt (names and tokens), as its saved map.
fn learnt_map(r: &Redactor) -> String {
    r.map_json()
}

/// The reference: every event of the merged timeline observed in turn.
fn observed() -> String {
    let mut r = Redactor::new();
    for e in Merged::new(named_sources()) {
        r.observe(&e);
    }
    learnt_map(&r)
}

use mqdiag_model::redact::Redactor;

/// Each file's batches filled as a worker fills them (small batches,
/// every `prepared`-th one prepared), then the events taken in time
/// order (files in order on a tie, as the merge does): each with its
/// `Learnt` when its batch was prepared.
fn prepared_in(prepared: impl Fn(usize) -> bool) -> Vec<(i64, usize, Event, Option<Learnt>)> {
    let r = Redactor::new();
    let sources = named_sources();
    let n = sources.len();
    let mut all = Vec::new();
    for (i, s) in sources.into_iter().enumerate() {
        let mut p = reordered(s, n, Some(&r.preparer()));
        for k in 0.. {
            let mut b = EventBatch::default();
            p.fill_busy(&mut b, 3, 1 << 20, prepared(k));
            if b.events.is_empty() {
                break;
            }
            assert_eq!(b.prepared, prepared(k));
            for (j, e) in b.events.drain(..).enumerate() {
                let l = b.prepared.then(|| b.learnt[j].clone());
                all.push((instant(&e), i, e, l));
            }
        }
    }
    // Stable: a file's events keep their order.
    all.sort_by_key(|(k, i, _, _)| (*k, *i));
    all
}

fn learn_all<'a>(evs: impl Iterator<Item = &'a (i64, usize, Event, Option<Learnt>)>) -> String {
    let mut r = Redactor::new();
    for (_, _, e, l) in evs {
        match l {
            Some(l) => r.learn(e, l),
            None => r.observe(e),
        }
    }
    learnt_map(&r)
}

#[test]
fn names_prepared_where_files_are_read_are_learnt_as_observed() {
    let want = observed();
    assert!(want.contains("app16.example.com"), "{want}");
    // Every batch prepared, none, and every other one: a preparer skips
    // what its own file showed before, which the merge learnt before.
    for prepared in [|_| true, |_| false, |k: usize| k.is_multiple_of(2)] as [fn(usize) -> bool; 3]
    {
        let evs = prepared_in(prepared);
        assert_eq!(learn_all(evs.iter()), want);
    }
}

#[test]
fn names_learnt_out_of_the_merged_order_are_numbered_otherwise() {
    // The test above can fail: the same prepared events learnt in another
    // order (file by file) number the names differently.
    let mut evs = prepared_in(|_| true);
    evs.sort_by_key(|(k, i, _, _)| (*i, *k));
    assert_ne!(learn_all(evs.iter()), observed());
}

#[test]
fn a_learning_merge_learns_the_same_whatever_the_jobs() {
    let want = observed();
    for jobs in [1, 2, 8] {
        let mut r = Redactor::new();
        let mut m = Merged::learning(named_sources(), jobs, Some(r.preparer()));
        while let Some((e, l)) = m.next_learnt() {
            match l {
                Some(l) => r.learn(e, l),
                None => r.observe(e),
            }
        }
        assert_eq!(learnt_map(&r), want, "-j {jobs}");
    }
}
