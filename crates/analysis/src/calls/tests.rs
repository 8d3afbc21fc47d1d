use super::*;
use crate::passes::testutil::{entry, exit, trace};
use mqdiag_model::event::{Key, Kind};

fn rows_of(events: &[Event], by: By) -> Vec<Row> {
    let mut c = Calls::new(by, None);
    for e in events {
        c.observe(e);
    }
    c.rows(&[])
}

fn row<'a>(rows: &'a [Row], verb: &str) -> &'a Row {
    rows.iter()
        .find(|r| r.key.verb == verb)
        .unwrap_or_else(|| panic!("no {verb} row in {rows:?}"))
}

#[test]
fn verbs_fold_their_layers() {
    assert_eq!(verb_of("MQGET"), Some("MQGET"));
    assert_eq!(verb_of("zstMQGET"), Some("MQGET"));
    assert_eq!(verb_of("trmzstMQCONNX"), Some("MQCONNX"));
    assert_eq!(verb_of("tmzstMQSETMP"), Some("MQSETMP"));
    assert_eq!(verb_of("MQI:MQCONN"), Some("MQCONN"));
    assert_eq!(verb_of("ZSTMQPUT1"), Some("MQPUT1"));
    assert_eq!(verb_of("zstMQCRTMH_CheckParms"), None);
    assert_eq!(verb_of("MQGETX"), None);
    assert_eq!(verb_of("xcsGetMem"), None);
}

/// `MQGET` with `zstMQGET` inside it on the same thread is one call, timed
/// by the outer layer.
#[test]
fn nested_layers_count_once() {
    let ev = vec![
        entry("a.FMT", 1, "10:00:00.000000", 7, 1, "MQGET"),
        entry("a.FMT", 2, "10:00:00.000100", 7, 1, "zstMQGET"),
        exit(
            "a.FMT",
            3,
            "10:00:00.900000",
            7,
            1,
            "zstMQGET",
            "OK",
            899_900,
        ),
        exit(
            "a.FMT",
            4,
            "10:00:01.000000",
            7,
            1,
            "MQGET",
            "OK",
            1_000_000,
        ),
    ];
    let rows = rows_of(&ev, By::Process);
    assert_eq!(rows.len(), 1);
    let r = row(&rows, "MQGET");
    assert_eq!((r.stats.calls, r.stats.ok, r.stats.open), (1, 1, 0));
    assert_eq!(r.stats.max_us, Some(1_000_000));
    assert_eq!(r.stats.max_at.as_ref().map(|(_, l)| *l), Some(4));
}

/// Two threads each in an MQGET at the same time are two calls.
#[test]
fn other_threads_are_not_nesting() {
    let ev = vec![
        entry("a.FMT", 1, "10:00:00.000000", 7, 1, "MQGET"),
        entry("a.FMT", 2, "10:00:00.000100", 7, 2, "MQGET"),
        exit("a.FMT", 3, "10:00:00.000300", 7, 2, "MQGET", "OK", 200),
        exit("a.FMT", 4, "10:00:00.000400", 7, 1, "MQGET", "OK", 400),
    ];
    let rows = rows_of(&ev, By::Thread);
    assert_eq!(rows.len(), 2);
    assert!(rows.iter().all(|r| r.stats.calls == 1));
}

#[test]
fn reasons_classes_and_open_calls() {
    let ev = vec![
        // Failed connect, with the reason by name.
        entry("a.FMT", 1, "10:00:00.000000", 7, 1, "MQCONNX"),
        exit(
            "a.FMT",
            2,
            "10:00:00.002000",
            7,
            1,
            "MQCONNX",
            "MQRC_NOT_AUTHORIZED",
            2000,
        ),
        // An empty queue after a wait: normal.
        entry("a.FMT", 3, "10:00:01.000000", 7, 1, "MQGET"),
        exit(
            "a.FMT",
            4,
            "10:00:06.000000",
            7,
            1,
            "MQGET",
            "2033",
            5_000_000,
        ),
        // Trace began inside this one: open.
        exit("a.FMT", 5, "10:00:06.100000", 7, 2, "MQPUT", "OK", 0),
        // Trace ended inside this one: open.
        entry("a.FMT", 6, "10:00:07.000000", 7, 3, "MQGET"),
    ];
    let mut ev = ev;
    ev[4].elapsed_us = None;
    ev[4].set(Key::Unmatched, "true");
    let rows = rows_of(&ev, By::Process);
    let c = row(&rows, "MQCONNX");
    assert_eq!((c.stats.calls, c.stats.failed), (1, 1));
    assert_eq!(c.stats.reasons["2035"].count, 1);
    assert_eq!(c.stats.reasons["2035"].evidence[0].line, 2);
    let g = row(&rows, "MQGET");
    assert_eq!((g.stats.calls, g.stats.warnings, g.stats.open), (2, 1, 1));
    assert_eq!(g.stats.total_us, 5_000_000);
    let p = row(&rows, "MQPUT");
    assert_eq!((p.stats.calls, p.stats.open, p.timed()), (1, 1, 0));
    assert_eq!(p.mean_us(), None);
    // Widest impact first.
    assert_eq!(rows[0].key.verb, "MQGET");
}

/// The trace starts inside MQGET: the inner `zstMQGET` is seen whole, the
/// outer only by its exit. That is one open call, not a timed one plus an
/// open one.
#[test]
fn trace_starting_inside_a_call_counts_it_once_as_open() {
    let mut outer = exit("a.FMT", 3, "10:00:00.000300", 7, 1, "MQGET", "OK", 0);
    outer.elapsed_us = None;
    outer.set(Key::Unmatched, "true");
    let ev = vec![
        entry("a.FMT", 1, "10:00:00.000000", 7, 1, "zstMQGET"),
        exit("a.FMT", 2, "10:00:00.000200", 7, 1, "zstMQGET", "OK", 200),
        outer,
    ];
    let rows = rows_of(&ev, By::Process);
    let g = row(&rows, "MQGET");
    assert_eq!((g.stats.calls, g.stats.open, g.stats.ok), (1, 1, 0));
}

#[test]
fn reason_stated_by_a_text_line() {
    let ev = vec![
        entry("a.FMT", 1, "10:00:00.000000", 7, 1, "MQOPEN"),
        trace(
            "a.FMT",
            2,
            "10:00:00.000100",
            7,
            1,
            Kind::Text,
            "CompCode=2 Reason=2085",
        ),
        exit("a.FMT", 3, "10:00:00.000200", 7, 1, "MQOPEN", "OK", 200),
        entry("a.FMT", 4, "10:00:01.000000", 7, 1, "MQPUT"),
        exit("a.FMT", 5, "10:00:01.000200", 7, 1, "MQPUT", "OK", 200),
        trace(
            "a.FMT",
            6,
            "10:00:01.000300",
            7,
            1,
            Kind::Text,
            "CompCode(2) Reason(MQRC_Q_FULL)",
        ),
        entry("a.FMT", 7, "10:00:02.000000", 7, 1, "MQCLOSE"),
        exit("a.FMT", 8, "10:00:02.000200", 7, 1, "MQCLOSE", "OK", 200),
        // A statement after the next call began is not the earlier call's.
        trace(
            "a.FMT",
            9,
            "10:00:02.000300",
            7,
            1,
            Kind::Text,
            "nothing here",
        ),
    ];
    let rows = rows_of(&ev, By::Process);
    let o = row(&rows, "MQOPEN");
    assert_eq!(o.stats.failed, 1);
    assert_eq!(o.stats.reasons["2085"].evidence[0].line, 2);
    let p = row(&rows, "MQPUT");
    assert_eq!(p.stats.reasons["2053"].count, 1);
    assert_eq!(row(&rows, "MQCLOSE").stats.ok, 1);
}

#[test]
fn text_outcomes() {
    assert_eq!(
        text_outcome("CompCode=2 Reason=2035"),
        Some(Outcome::Reason(2035))
    );
    assert_eq!(text_outcome("CompCode: 0, Reason: 0"), Some(Outcome::Ok));
    assert_eq!(text_outcome("Reason(0x7F1)"), Some(Outcome::Reason(2033)));
    assert_eq!(
        text_outcome("ReasonCode=MQRC_Q_MGR_NOT_AVAILABLE"),
        Some(Outcome::Reason(2059))
    );
    assert_eq!(text_outcome("no reason stated"), None);
}

#[test]
fn grouping_and_filter() {
    let mut a = entry("a.FMT", 1, "10:00:00.000000", 7, 1, "MQPUT");
    a.ident = Some("RSESS:000001".into());
    let mut b = exit("a.FMT", 2, "10:00:00.000100", 7, 1, "MQPUT", "OK", 100);
    b.ident = a.ident.clone();
    let ev = vec![
        a,
        b,
        entry("a.FMT", 3, "10:00:00.000200", 7, 2, "MQGET"),
        exit("a.FMT", 4, "10:00:00.000300", 7, 2, "MQGET", "OK", 100),
    ];
    let rows = rows_of(&ev, By::Connection);
    let idents: Vec<_> = rows.iter().map(|r| r.key.ident.clone().unwrap()).collect();
    assert!(idents.contains(&"RSESS:000001".to_string()));
    assert!(idents.contains(&"7.2".to_string()));
    let rows = rows_of(&ev, By::Verb);
    assert!(rows.iter().all(|r| r.key.pid.is_none()));
    let mut c = Calls::new(By::Process, Some(vec!["mqget".into()]));
    for e in &ev {
        c.observe(e);
    }
    let rows = c.rows(&[]);
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].key.verb, "MQGET");
    let j = serde_json::to_value(rows[0].to_json()).unwrap();
    assert!(j.get("tid").is_none() && j.get("ident").is_none());
    assert_eq!(j["calls"], 1);
}

/// A wrapped trace (`.TRS` then `.FMT` of one process): a call that opens
/// in the older file and closes in the newer is one timed call.
#[test]
fn a_call_across_wrap_files_is_one_call() {
    let ev = vec![
        entry("t/AMQ5.0.TRS", 90, "10:00:00.000000", 5, 1, "MQGET"),
        exit(
            "t/AMQ5.0.FMT",
            3,
            "10:00:00.000700",
            5,
            1,
            "MQGET",
            "OK",
            700,
        ),
    ];
    let rows = rows_of(&ev, By::Process);
    let g = row(&rows, "MQGET");
    assert_eq!((g.stats.calls, g.stats.ok, g.stats.open), (1, 1, 0));
    // Two processes' files stay apart.
    let ev = vec![
        entry("t/AMQ5.0.FMT", 3, "10:00:00.000000", 5, 1, "MQGET"),
        exit(
            "u/AMQ5.0.FMT",
            3,
            "10:00:00.000700",
            5,
            1,
            "MQGET",
            "OK",
            700,
        ),
    ];
    let rows = rows_of(&ev, By::Process);
    // Two rows too: no host is known, so each file is its own process.
    let get: Vec<_> = rows.iter().filter(|r| r.key.verb == "MQGET").collect();
    assert_eq!(get.len(), 2);
    assert!(get.iter().all(|r| r.stats.open == 1));
}

/// A reason quotes the lines of its first calls only; the later calls
/// still count. Two threads of one process fill one row, the second
/// thread's calls ending while the first's wait for a stated reason.
#[test]
fn a_reason_quotes_its_first_calls_only() {
    let mut ev = Vec::new();
    for i in 0..6u64 {
        let tid = 1 + (i % 2) as u32;
        let t = |ms: u64| format!("10:00:0{}.{:06}", i, ms * 1000);
        ev.push(entry("a.FMT", 10 * i + 1, &t(0), 7, tid, "MQOPEN"));
        ev.push(exit(
            "a.FMT",
            10 * i + 2,
            &t(5),
            7,
            tid,
            "MQOPEN",
            "2085",
            5_000,
        ));
    }
    let rows = rows_of(&ev, By::Process);
    let r = &row(&rows, "MQOPEN").stats.reasons["2085"];
    assert_eq!(r.count, 6);
    let lines: Vec<u64> = r.evidence.iter().map(|e| e.line).collect();
    // Calls finish at the next entry on their thread (or at the end).
    assert_eq!(lines, vec![2, 12, 22]);
    assert!(r.evidence.iter().all(|e| e.text.contains("2085")));
}

/// One activity-trace file of two applications: each row is named by its
/// own application, not by the file's first.
#[test]
fn activity_rows_are_named_by_their_own_application() {
    let call = |line, pid, program: &str| {
        let mut e = trace(
            "amqsact.txt",
            line,
            "10:00:00.000000",
            pid,
            1,
            Kind::MqiCall,
            "MQPUT",
        );
        e.set(Key::Verb, "MQPUT");
        e.set(Key::Reason, "0");
        e.set(Key::Program, program);
        e.elapsed_us = Some(40);
        e
    };
    let rows = rows_of(
        &[
            call(1, 10, "amqsput"),
            call(2, 20, "amqsget"),
            call(3, 10, "amqsput"),
        ],
        By::Process,
    );
    let mut named: Vec<(Option<u32>, Option<&str>, u64)> = rows
        .iter()
        .map(|r| (r.key.pid, r.process.as_deref(), r.stats.calls))
        .collect();
    named.sort();
    assert_eq!(
        named,
        [
            (Some(10), Some("amqsput"), 2),
            (Some(20), Some("amqsget"), 1)
        ]
    );
}

/// An entity of an "other" row stands as its hash keyed per run (the
/// rows' own `RunKeyed`, whose keys are drawn at random once per run: see
/// `runhash`'s tests), so no input can be built to collide with another
/// entity's.
#[test]
fn other_rows_hash_entities_with_keys_of_their_run() {
    use std::hash::BuildHasher;
    let k = super::keys::RowKey {
        place: 3,
        pid: Some(7),
        tid: Some(1),
        ident: None,
        verb: "MQCONNX",
    };
    let o = Others::default();
    assert_eq!(o.entity(&k), mqdiag_model::runhash::RunKeyed.hash_one(&k));
    let near = super::keys::RowKey {
        tid: Some(2),
        ..k.clone()
    };
    assert_ne!(o.entity(&k), o.entity(&near));
}

/// A thread's state is kept for up to `MAX_THREADS` threads and read back
/// by every trim: it must stay within three cache lines.
#[test]
fn a_threads_state_stays_small() {
    let n = std::mem::size_of::<super::Thread>();
    assert!(n <= 160, "a thread's state takes {n} bytes");
}

/// Files of one process (one host and pid) fold into one row in the
/// order their rows were first met, whatever order the run's hash map
/// holds them in: of equal slowest calls the first file's is cited, and
/// its evidence comes first.
#[test]
fn a_processs_files_fold_in_the_order_first_met() {
    let files = [
        "h/AMQ7.0.FMT",
        "h/AMQ7.1.FMT",
        "h/AMQ7.2.FMT",
        "h/AMQ7.3.FMT",
        "h/AMQ7.4.FMT",
        "h/AMQ7.5.FMT",
    ];
    let mut ev = Vec::new();
    for (i, f) in files.iter().enumerate() {
        let t = |us: u64| format!("10:00:0{i}.{us:06}");
        ev.push(entry(f, 1, &t(0), 7, 1, "MQPUT"));
        ev.push(exit(f, 2, &t(500), 7, 1, "MQPUT", "2053", 500));
    }
    let inputs: Vec<FileInfo> = files
        .iter()
        .map(|f| {
            let mut i = FileInfo::new(f, mqdiag_model::event::Format::UNKNOWN, 0);
            i.host = Some("hostA".into());
            i.pid = Some(7);
            i
        })
        .collect();
    let mut c = Calls::new(By::Process, None);
    for e in &ev {
        c.observe(e);
    }
    let rows = c.rows(&inputs);
    let put = row(&rows, "MQPUT");
    assert_eq!(put.stats.calls, 6);
    let max_at = put.stats.max_at.as_ref().map(|(p, l)| (&**p, *l));
    assert_eq!(max_at, Some((files[0], 2)));
    let quoted: Vec<&str> = put.stats.reasons["2053"]
        .evidence
        .iter()
        .map(|e| e.path.as_str())
        .collect();
    assert_eq!(quoted, files[..3]);
}
