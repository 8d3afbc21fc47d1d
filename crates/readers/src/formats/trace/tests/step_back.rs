//! A record stamped earlier than its thread's latest: within the
//! tolerance it is placed at that instant (a call stays one call), past
//! it it keeps its own time; one located problem per file; the full way,
//! the rows straight from lines and the blocks on helpers agree.

use super::*;

/// A record line of the Linux layout at `us` microseconds after 11:00.
fn rec(us: u64, tid: u32, data: &str) -> String {
    let (s, us) = (us / 1_000_000, us % 1_000_000);
    format!(
        " 11:{:02}:{:02}.{us:06}     4711.{tid:<5}  RSESS:{tid:06x} {data}\n",
        s / 60 % 60,
        s % 60
    )
}

/// Calls of three threads, 2 ms apart; every seventh call's exit is
/// stamped 1 ms before its entry, call 40's exit 2 s before it (7 s before
/// the record before it: past the tolerance). Returns the file and the lines of the stepped exits.
fn trace(dir: &std::path::Path, calls: u64) -> (std::path::PathBuf, Vec<u64>, u64) {
    let mut body = linux_head();
    let head = body.iter().filter(|&&c| c == b'\n').count() as u64;
    let mut lines: Vec<String> = Vec::new();
    let (mut small, mut large) = (Vec::new(), 0);
    for i in 0..calls {
        let tid = 1 + (i % 3) as u32;
        let t = 10_000_000 + i * 2_000;
        lines.push(rec(t, tid, "{  MQPUT"));
        lines.push(rec(t + 10, tid, "-{  trmzstMQPUT"));
        lines.push(rec(t + 240, tid, "     CompCode=2 Reason=2053"));
        lines.push(rec(
            t + 470,
            tid,
            "-}! trmzstMQPUT rc=2053 FunctionTime=470",
        ));
        let next = head + lines.len() as u64 + 1;
        let exit = match i {
            40 => {
                // Past the tolerance: 2 s before its entry, after a
                // record 5 s later.
                lines.push(rec(t + 5_000_000, tid, "{  MQINQ"));
                large = next + 1;
                t - 2_000_000
            }
            _ if i % 7 == 3 => {
                small.push(next);
                t - 1_000
            }
            _ => t + 480,
        };
        lines.push(rec(exit, tid, "}! MQPUT rc=2053 FunctionTime=480"));
    }
    for l in &lines {
        body.extend(l.bytes());
    }
    let path = dir.join("AMQ4711.0.FMT");
    std::fs::write(&path, &body).unwrap();
    (path, small, large)
}

fn events(set: &[std::path::PathBuf], opts: ReadOptions) -> (Vec<Event>, Vec<FileInfo>) {
    let mut src = Box::new(TraceSource::new(inputs_of(set), opts));
    let mut events = Vec::new();
    while let Some(e) = src.next_event() {
        events.push(e);
    }
    (events, src.finish())
}

#[test]
fn a_small_step_back_keeps_the_call_whole_and_is_one_located_problem() {
    let dir = tempfile::tempdir().unwrap();
    let (path, small, large) = trace(dir.path(), 60);
    let set = [path];
    let (ev, infos) = events(&set, ReadOptions::default());
    let at = |line: u64| ev.iter().find(|e| e.line == line).unwrap();
    for &l in &small {
        let exit = at(l);
        let inner = at(l - 1);
        let entry = at(l - 4);
        assert_eq!(exit.function.as_deref(), Some("MQPUT"));
        // Placed at the thread's latest instant, never before its entry.
        assert_eq!(exit.ts, inner.ts, "line {l}");
        assert!(exit.ts > entry.ts);
        assert_eq!(exit.depth, Some(0));
        assert_eq!(exit.elapsed_us, Some(470), "line {l}");
        assert!(exit.attr("unmatched").is_none());
        let stamped = exit.attr("stamped").expect("the time as written");
        assert!(instant(&DateTime::parse_from_rfc3339(stamped).unwrap()) < instant(&entry.ts));
    }
    // Past the tolerance: its own time, no duration, no clamp.
    let exit = at(large);
    assert!(exit.ts < at(large - 5).ts);
    assert_eq!(exit.elapsed_us, None);
    assert!(exit.attr("stamped").is_none());
    // One problem, at the first step, counting every step.
    let back: Vec<_> = infos[0]
        .problems
        .iter()
        .filter(|p| p.code == ProblemCode::OutOfOrder)
        .collect();
    assert_eq!(back.len(), 1, "{:?}", infos[0].problems);
    assert_eq!(back[0].line, Some(small[0]));
    let n = small.len() + 1;
    assert!(
        back[0]
            .message
            .starts_with(&format!("time goes back: {n} record(s)")),
        "{}",
        back[0].message
    );
    assert!(
        back[0].message.contains("by up to 7.000 s"),
        "{}",
        back[0].message
    );
}

/// Rows straight from lines, rows of events and blocks on helpers (a
/// step back right after a block's start, or across blocks) give the
/// same rows, events and file facts.
#[test]
fn every_path_places_a_step_back_alike() {
    let dir = tempfile::tempdir().unwrap();
    let (path, small, _) = trace(dir.path(), 400);
    let set = [path];
    let (a, straight, fa) = fast(inputs_of(&set));
    let (b, fb) = slow(inputs_of(&set));
    assert_eq!(show(&a), show(&b));
    assert_eq!(fa, fb);
    assert!(straight > a.len() / 2, "{straight} of {}", a.len());
    // Each stepped exit's row is at its thread's latest instant.
    for &l in &small {
        let key = |line| a.iter().find(|(m, _)| m.line == line).unwrap().0.key;
        assert_eq!(key(l), key(l - 1), "line {l}");
    }
    let (ea, efa, _) = events_with(inputs_of(&set), ReadOptions::default());
    let (ia, ifa, _) = events_with(inputs_of(&set), interest());
    let mut stitched = 0;
    for (helpers, block) in [(1, 64), (2, 300), (3, 777), (usize::MAX, 1500), (2, 4096)] {
        let (c, _, fc, counts, calls) = fast_with(inputs_of(&set), par(helpers, block));
        assert!(calls == calls_of(inputs_of(&set)), "{helpers} {block}");
        assert_eq!(show(&a), show(&c), "{helpers} {block}");
        assert_eq!(fa, fc, "{helpers} {block}");
        stitched += counts.0;
        let (eb, efb, counts) = events_with(inputs_of(&set), par(helpers, block));
        assert!(ea == eb, "events differ with {helpers} {block}");
        assert_eq!(efa, efb, "{helpers} {block}");
        stitched += counts.0;
        let opts = ReadOptions {
            parallel: par(helpers, block).parallel,
            ..interest()
        };
        let (ib, ifb, _) = events_with(inputs_of(&set), opts);
        assert!(ia == ib, "events of interest differ with {helpers} {block}");
        assert_eq!(ifa, ifb, "{helpers} {block}");
    }
    assert!(stitched > 20, "{stitched} blocks stitched");
}
