//! Lines `analyze` skips (`skip_run`): their time is not read, only their
//! hour compared with the clock's, yet midnight and a step back of more
//! than an hour are found where they happen, on one reader or on blocks;
//! the file's time range takes the first and last records skipped.

use super::*;

/// A record line of the Linux layout at `us` microseconds since some
/// midnight.
pub(super) fn rec(us: u64, tid: u32, data: &str) -> String {
    let t = us % 86_400_000_000;
    let (s, us) = (t / 1_000_000, t % 1_000_000);
    format!(
        " {:02}:{:02}:{:02}.{us:06}     4711.{tid:<5}  RSESS:{tid:06x} {data}\n",
        s / 3600,
        s / 60 % 60,
        s % 60
    )
}

fn write(dir: &std::path::Path, lines: &[String]) -> std::path::PathBuf {
    let mut body = linux_head();
    for l in lines {
        body.extend(l.bytes());
    }
    let path = dir.join("AMQ4711.0.FMT");
    std::fs::write(&path, &body).unwrap();
    path
}

/// From 22:50 to 03:50 of the next day, a line every 3 s of three
/// threads, a call of interest every 500 lines; at 03:00 a line stamped
/// 2 h 10 min back (no midnight: a clock jump). Returns the file and the
/// jump's line.
fn across_midnight(dir: &std::path::Path) -> (std::path::PathBuf, u64) {
    let head = linux_head().iter().filter(|&&c| c == b'\n').count() as u64;
    let mut lines = Vec::new();
    let mut jump = 0;
    let start = (22 * 3600 + 50 * 60) * 1_000_000u64;
    for i in 0..6_000u64 {
        let mut t = start + i * 3_000_000;
        let tid = 1 + (i % 3) as u32;
        if i == 4_200 {
            t -= (2 * 3600 + 600) * 1_000_000;
            jump = head + lines.len() as u64 + 1;
        }
        if i % 500 == 250 {
            lines.push(rec(t, tid, "{  MQPUT"));
            lines.push(rec(t + 100, tid, "}  MQPUT rc=OK"));
        } else {
            lines.push(rec(t, tid, &format!("      nothing asked here {i}")));
        }
    }
    (write(dir, &lines), jump)
}

/// The lines of the first file's problems whose message `is` picks.
fn problem_lines(f: &[Facts], is: impl Fn(&str) -> bool) -> Vec<Option<u64>> {
    f[0].5
        .iter()
        .filter(|(_, m)| is(m))
        .map(|(l, _)| *l)
        .collect()
}

fn read(set: &[std::path::PathBuf], opts: ReadOptions) -> (Vec<Event>, Vec<Facts>) {
    let mut src = Box::new(TraceSource::new(inputs_of(set), opts));
    let mut events = Vec::new();
    while let Some(e) = src.next_event() {
        events.push(e);
    }
    (events, facts(src.finish()))
}

fn with_interest(par: ReadOptions) -> ReadOptions {
    ReadOptions {
        parallel: par.parallel,
        ..interest()
    }
}

#[test]
fn midnight_and_a_clock_jump_in_skipped_lines_are_found_where_they_are() {
    let dir = tempfile::tempdir().unwrap();
    let (path, jump) = across_midnight(dir.path());
    let set = [path];
    let (all, all_facts) = read(&set, ReadOptions::default());
    let (some, facts) = read(&set, interest());
    // Nearly every line was skipped, and counted.
    assert!(some.len() < 40, "{}", some.len());
    assert_eq!(facts[0].0, all_facts[0].0);
    // The calls of interest have the dates and times of the full way:
    // those after midnight on the next day.
    let put = |v: &[Event]| -> Vec<(u64, Ts)> {
        v.iter()
            .filter(|e| e.function.as_deref() == Some("MQPUT"))
            .map(|e| (e.line, e.ts))
            .collect()
    };
    let puts = put(&some);
    assert_eq!(puts, put(&all));
    assert_eq!(puts.len(), 24);
    let days: std::collections::BTreeSet<_> = puts.iter().map(|(_, t)| t.date_naive()).collect();
    assert_eq!(days.len(), 2, "{days:?}");
    // The jump is one located problem, at its line, both ways.
    let jumps = |f: &[Facts]| problem_lines(f, |m| m.contains("time of day steps back"));
    assert_eq!(jumps(&facts), vec![Some(jump)]);
    assert_eq!(jumps(&all_facts), vec![Some(jump)]);
    assert_eq!(facts[0].1, all_facts[0].1);
    assert_eq!(facts[0].2, all_facts[0].2);
    // Blocks on helpers, and blocks the source reads itself, alike.
    for (helpers, block) in [(2, 4096), (1, 2000), (3, 777), (usize::MAX, 1500)] {
        let (b, fb) = read(&set, with_interest(par(helpers, block)));
        assert_eq!(put(&b), puts, "{helpers} {block}");
        assert_eq!(fb, facts, "{helpers} {block}");
    }
}

#[test]
fn the_time_range_ends_with_the_last_record_skipped_not_the_latest() {
    let dir = tempfile::tempdir().unwrap();
    let base = (11 * 3600 + 30 * 60) * 1_000_000u64;
    let mut lines: Vec<String> = (0..600u64)
        .map(|i| rec(base + i * 1_000_000, 1, &format!("      nothing {i}")))
        .collect();
    // Another thread, 15 minutes ahead, amid them (the same hour).
    lines.insert(300, rec(base + 25 * 60 * 1_000_000, 2, "      ahead"));
    let set = [write(dir.path(), &lines)];
    let (_, all) = read(&set, ReadOptions::default());
    let (some, facts) = read(&set, interest());
    assert!(some.iter().all(|e| e.kind == Kind::Header));
    let hms = |t: Option<Ts>| t.unwrap().format("%H:%M:%S").to_string();
    // Read in full: the latest record; skipped: the last.
    assert_eq!(hms(all[0].2), "11:55:00");
    assert_eq!(hms(facts[0].2), "11:39:59");
    assert_eq!(facts[0].1, all[0].1);
    assert_eq!(facts[0].0, all[0].0);
    for (helpers, block) in [(2, 4096), (usize::MAX, 1500)] {
        let (_, fb) = read(&set, with_interest(par(helpers, block)));
        assert_eq!(fb, facts, "{helpers} {block}");
    }
}

/// The columns judged two words at a time are only ever ones `pid_tid`
/// reads; the `dspmqtrc` ones are judged so.
#[test]
fn plain_pid_tid_columns_are_ones_the_full_way_reads() {
    let bytes = [
        b' ', b'\t', b'0', b'7', b'9', b'.', b'a', b'/', b':', 0, 0x80, 0xB9,
    ];
    let mut rng = mqdiag_model::testrng::Rng::new(43);
    let mut plain = 0;
    for _ in 0..200_000 {
        let mut w: Vec<u8> = (0..16).map(|_| bytes[rng.below(bytes.len())]).collect();
        // Mostly near the shape, so that it is met often.
        if rng.below(2) == 0 {
            let k = rng.below(8);
            w[..k].fill(b' ');
            w[8] = b'.';
        }
        let cols = u128::from_le_bytes(w.clone().try_into().unwrap());
        if plain_pid_tid(cols) {
            plain += 1;
            w.extend(b" RSESS:000001 text");
            assert!(pid_tid(&w, 0).is_some(), "{w:?}");
        }
    }
    assert!(plain > 100, "{plain}");
    for ok in ["    4711.1      ", "  100000.8      ", "12345678.123456 "] {
        let cols = u128::from_le_bytes(ok.as_bytes()[..16].try_into().unwrap());
        assert!(plain_pid_tid(cols), "{ok}");
    }
    for bad in [
        "    47a1.1      ",
        "    4711.x      ",
        "      .11.1     ",
        "    4711 1      ",
    ] {
        let cols = u128::from_le_bytes(bad.as_bytes()[..16].try_into().unwrap());
        assert!(!plain_pid_tid(cols), "{bad}");
        assert!(pid_tid(bad.as_bytes(), 0).is_none(), "{bad}");
    }
}

/// A line amid skipped ones whose `PID.TID` cannot be read is the same
/// located, counted problem as when every line is read, whatever reads
/// it (one reader, blocks).
#[test]
fn an_unreadable_pid_tid_amid_skipped_lines_is_a_located_problem() {
    let dir = tempfile::tempdir().unwrap();
    let head = linux_head().iter().filter(|&&c| c == b'\n').count() as u64;
    let base = (11 * 3600 + 30 * 60) * 1_000_000u64;
    let mut lines: Vec<String> = (0..3_000u64)
        .map(|i| {
            rec(
                base + i * 100_000,
                1 + (i % 5) as u32,
                &format!("      nothing {i}"),
            )
        })
        .collect();
    let damaged = [
        (700usize, "4711.1", "47x1.1"),
        (1_500, "4711.1", "4711.1x"),
        (2_200, "4711.1", "4711"),
        (2_900, "4711.1", "99999999999.1"),
    ];
    for (i, from, to) in damaged {
        lines[i] = lines[i].replacen(from, to, 1);
        assert!(lines[i].contains(to), "{}", lines[i]);
    }
    let set = [write(dir.path(), &lines)];
    let (_, all) = read(&set, ReadOptions::default());
    let (some, facts) = read(&set, interest());
    assert!(some.iter().all(|e| e.kind == Kind::Header));
    let bad = |f: &[Facts]| problem_lines(f, |m| m.starts_with("not a trace record"));
    let want: Vec<Option<u64>> = damaged
        .iter()
        .map(|d| Some(head + d.0 as u64 + 1))
        .collect();
    assert_eq!(bad(&all), want);
    assert_eq!(bad(&facts), want);
    assert_eq!(facts, all);
    for (helpers, block) in [(2, 4096), (usize::MAX, 1500)] {
        let (_, fb) = read(&set, with_interest(par(helpers, block)));
        assert_eq!(fb, facts, "{helpers} {block}");
    }
}

/// Lines tested on their parsed fields instead of searched for (where
/// every line is a candidate) go the way the search sends them: every
/// event and file fact is the same whether each line is searched for,
/// none is, or the reader switches between both.
#[test]
fn lines_tested_on_their_fields_go_the_way_the_search_sends_them() {
    let dir = tempfile::tempdir().unwrap();
    let mut sets = trace_sets(dir.path());
    // Runs of candidates broken by lines of no interest, a NUL, a name of
    // interest only in the ident column, a line of bytes beyond UTF-8,
    // dumps and steps back.
    let mut lines = Vec::new();
    for i in 0..3_000u64 {
        let t = 36_000_000_000 + i * 1_000 - if i % 401 == 7 { 5_000_000 } else { 0 };
        let tid = 1 + (i % 4) as u32;
        let data = match i % 97 {
            0 | 1 => "      nothing asked here".to_string(),
            2 => "      CompCode\0=2".to_string(),
            3 => "      caf\u{e9} Reason=2".to_string(),
            4 => "0x0000:  06000000 616d7173  |....amqs        |".to_string(),
            5 => "      MQGET in the text only".to_string(),
            _ if i % 3 == 0 => "{  MQCONNX".to_string(),
            _ if i % 3 == 1 => "      CompCode=2 Reason=2035".to_string(),
            _ => "}! MQCONNX rc=2035".to_string(),
        };
        let mut l = rec(t, tid, &data);
        if i % 97 == 6 {
            l = l.replace("RSESS", "MQGET");
        }
        if i % 97 == 3 {
            l = l.replace('\u{e9}', "\u{1}");
        }
        lines.push(l);
    }
    let mut raw = Vec::new();
    for l in &lines {
        raw.extend(l.bytes());
    }
    // A Latin-1 byte.
    let at = memchr::memmem::find(&raw, b"\x01").unwrap();
    raw[at] = 0xe9;
    let mut body = linux_head();
    body.extend(raw);
    let path = dir.path().join("dense").join("AMQ4711.0.FMT");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, &body).unwrap();
    sets.push(vec![path]);
    let read = |set: &[std::path::PathBuf], after: u32| {
        let mut src = Box::new(TraceSource::new(inputs_of(set), interest()));
        src.dense_after = after;
        let mut events = Vec::new();
        while let Some(e) = src.next_event() {
            events.push(format!("{e:?}"));
        }
        (events, facts(src.finish()))
    };
    let mut tested = 0;
    for set in &sets {
        let searched = read(set, u32::MAX);
        for after in [0, 1, DENSE] {
            let got = read(set, after);
            assert!(got == searched, "{set:?} after {after}");
        }
        tested += searched.0.len();
    }
    assert!(tested > 2_000, "{tested} events");
}
