use super::*;

#[test]
fn unix_record_with_ident() {
    let r = parse_record(
        " 11:21:43.913212        8.1      RSESS:000001 -{  MQCRTMH",
        None,
    )
    .unwrap();
    assert_eq!(r.pid, 8);
    assert_eq!(r.tid, 1);
    assert_eq!(r.ident, Some("RSESS:000001"));
    assert_eq!(r.data, "-{  MQCRTMH");
    assert!(!r.flag);
}

#[test]
fn flag_and_blank_ident() {
    let r = parse_record(
        "*12:06:32.904982   622742.1           :           -> InitProcessInitialisation",
        None,
    )
    .unwrap();
    assert!(r.flag);
    assert_eq!(r.ident, None);
    assert_eq!(r.data, "-> InitProcessInitialisation");
}

#[test]
fn windows_counter() {
    let r = parse_record("00000EFE 16:18:56.381587   2512.1           :       ---}! xcsGetEnvironmentString (rc=xecE_E_ENV_VAR_NOT_FOUND)",
        None,
    )
    .unwrap();
    assert_eq!(r.counter, Some(0xEFE));
    assert_eq!(
        classify(r.data),
        Data::Exit {
            dashes: 3,
            error: true,
            function: "xcsGetEnvironmentString",
            rc: Some("xecE_E_ENV_VAR_NOT_FOUND"),
            function_time: None
        }
    );
}

#[test]
fn no_ident_column() {
    let l = Layout {
        counter: Some(true),
        ident: Some(false),
    };
    let r = parse_record(
        "0000062F 16:35:47.348386 6278.1 --{ InitProcessInitialisation",
        Some(l),
    )
    .unwrap();
    assert_eq!(r.ident, None);
    assert_eq!(r.data, "--{ InitProcessInitialisation");
}

#[test]
fn exits_unix_forms() {
    assert_eq!(
        classify("----}  zutLookupLock rc=OK FunctionTime=3"),
        Data::Exit {
            dashes: 4,
            error: false,
            function: "zutLookupLock",
            rc: Some("OK"),
            function_time: Some(3)
        }
    );
    assert_eq!(
        classify("----}! send rc=Unknown(B)"),
        Data::Exit {
            dashes: 4,
            error: true,
            function: "send",
            rc: Some("Unknown(B)"),
            function_time: None
        }
    );
    assert_eq!(
        classify("!! - --{  InitProcessInitialisation"),
        Data::Entry {
            dashes: 2,
            function: "InitProcessInitialisation"
        }
    );
    assert_eq!(classify("-> MQCRTMH"), Data::Text("-> MQCRTMH"));
}

#[test]
fn dump_rows() {
    assert_eq!(
        classify("0x0110:  06000000 616d7173 70757420 20202020  |....amqsput     |"),
        Data::Dump
    );
    assert_eq!(classify("3 lines suppressed, same as above"), Data::Dump);
    assert_eq!(
        classify("Data: 0x000001dd 0x32ab1b30"),
        Data::Text("Data: 0x000001dd 0x32ab1b30")
    );
}

#[test]
fn header_dates() {
    let d = |s, f| parse_header_date(s, f).map(|d| d.to_string());
    assert_eq!(d("05/15/16", false).as_deref(), Some("2016-05-15"));
    assert_eq!(d("25/02/2002", true).as_deref(), Some("2002-02-25"));
    assert_eq!(d("02/25/02", true).as_deref(), Some("2002-02-25"));
    assert_eq!(d("03/04/2019", true).as_deref(), Some("2019-04-03"));
    assert_eq!(d("03/04/19", true).as_deref(), Some("2019-03-04"));
    assert_eq!(d("13/13/19", true), None);
}

fn read_all(path: &str, opts: ReadOptions) -> Vec<Event> {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    let input = Input::from_path(path, &p).unwrap();
    crate::testkit::drain(Box::new(TraceSource::new(vec![input], opts))).0
}

#[test]
fn windows_utc_and_local_lines_decide_their_date_order_together() {
    let d = |s: &str| NaiveDateTime::parse_from_str(s, "%Y-%m-%d %H:%M:%S%.f").unwrap();
    // A day above 12 decides.
    let (u, l) = windows_dates(
        Some("   Date : 03/14/23  Time : 13:15:01.802114"),
        Some(" Date : 03/14/23  Time : 09:15:01.802114  Eastern Daylight Time"),
    );
    assert_eq!(u, Some(d("2023-03-14 13:15:01.802114")));
    assert_eq!(l, Some(d("2023-03-14 09:15:01.802114")));
    // Both fields 12 or less, four-digit year: day first (.NET).
    let (u, _) = windows_dates(Some(" Date : 05/03/2023  Time : 13:15:01"), None);
    assert_eq!(u, Some(d("2023-03-05 13:15:01.0")));
    // Local across midnight from UTC: only the reading that keeps them
    // within 14 hours fits (31/12 vs 01/01 next year).
    let (u, l) = windows_dates(
        Some(" Date : 01/01/2024  Time : 02:00:00"),
        Some(" Date : 12/31/2023  Time : 21:00:00"),
    );
    assert_eq!(u, Some(d("2024-01-01 02:00:00.0")));
    assert_eq!(l, Some(d("2023-12-31 21:00:00.0")));
    // Not a date: nothing.
    assert_eq!(
        windows_dates(Some(" Date : 99/99/23  Time : 1"), None),
        (None, None)
    );
}

/// A header whose UTC and local lines are centuries apart (found by
/// fuzzing: the offset in minutes times 60 overflowed) gives no
/// offset from the header; the records are still read.
#[test]
fn header_lines_centuries_apart_give_no_offset() {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures/trace/AMQ622742.0.FMT");
    let text = std::fs::read_to_string(p)
        .unwrap()
        .replace("UTC   Date : 05/15/16 ", "UTC   Date : 05/15/162");
    assert!(text.contains("05/15/162"));
    let input = Input::from_bytes("AMQ622742.0.FMT", text.into_bytes());
    let mut src = TraceSource::new(vec![input], ReadOptions::default());
    let mut n = 0;
    while let Some(e) = src.next_event() {
        assert_eq!(e.ts.offset().local_minus_utc(), 0);
        n += 1;
    }
    assert!(n > 10, "{n} events");
}

/// The word-at-a-time blank scans and ident test agree with byte-at-a-time
/// ones at every start, on lines of blanks, tabs, text and bytes past
/// ASCII.
#[test]
fn word_scans_agree_with_byte_loops() {
    let slow_skip = |b: &[u8], mut i: usize| {
        while i < b.len() && (b[i] == b' ' || b[i] == b'\t') {
            i += 1;
        }
        i
    };
    let slow_end = |b: &[u8], mut i: usize| {
        while i < b.len() && b[i] != b' ' && b[i] != b'\t' {
            i += 1;
        }
        i
    };
    let slow_ident = |t: &[u8]| {
        let Some(c) = t.iter().position(|&b| b == b':') else {
            return false;
        };
        t[..c].iter().all(|b| b.is_ascii_alphabetic())
            && t[c + 1..].iter().all(|b| b.is_ascii_alphanumeric())
            && !t[c + 1..].contains(&b':')
    };
    let bytes = [
        b' ', b'\t', b'a', b'Z', b'0', b':', b'.', 0, 0x80, 0xA0, 0x29, 0x89, 0xFF,
    ];
    let mut rng = mqdiag_model::testrng::Rng::new(5);
    for _ in 0..20_000 {
        let len = rng.below(40);
        let b: Vec<u8> = (0..len).map(|_| bytes[rng.below(bytes.len())]).collect();
        for i in 0..=len {
            assert_eq!(skip_spaces(&b, i), slow_skip(&b, i), "{b:?} at {i}");
            assert_eq!(token_end(&b, i), slow_end(&b, i), "{b:?} at {i}");
        }
        assert_eq!(is_ident_token(&b), slow_ident(&b), "{b:?}");
    }
    assert!(is_ident_token(b"RSESS:00011e") && is_ident_token(b":"));
    assert!(!is_ident_token(b"RSESS:0:1") && !is_ident_token(b"R1:0"));
}

/// Lines split with the columns of the lines before them known give what
/// each split alone gives: record lines of a few threads and times, with
/// bytes changed, blanks and tabs moved, tokens cut and lengthened.
#[test]
fn columns_known_from_lines_before_split_as_lines_alone() {
    let base = [
        " 10:00:00.000000   100000.1      RSESS:000000      CompCode=2 Reason=2035",
        " 10:00:00.000000   100000.1           :       {  MQCONNX",
        "*10:00:00.000037   100001.12     RSESS:000001 }! MQCONNX rc=2035",
        " 10:00:00.000037\t100001.12\t:\tx",
        " 10:00:00.00003    1.1 : y",
        " 10:00:00.000037   4294967295.4294967295 : z",
        " 10:00:00.000037   4294967296.1 : z",
        "00000001 10:00:00.000037   7.7 : z",
    ];
    let noise = [b' ', b'\t', b'.', b'1', b'9', b':', b'x', 0xe9];
    let mut rng = mqdiag_model::testrng::Rng::new(17);
    let mut seen = Columns::default();
    let layouts = [
        None,
        Some(Layout {
            counter: Some(false),
            ident: Some(true),
        }),
        Some(Layout {
            counter: Some(true),
            ident: Some(false),
        }),
    ];
    let mut records = 0;
    for _ in 0..60_000 {
        let mut b = base[rng.below(base.len())].as_bytes().to_vec();
        for _ in 0..rng.below(3) {
            let at = rng.below(b.len().min(40));
            match rng.below(3) {
                0 => b[at] = noise[rng.below(noise.len())],
                1 => b.insert(at, noise[rng.below(noise.len())]),
                _ => b.truncate(at.max(1)),
            }
        }
        let line = String::from_utf8_lossy(&b);
        let layout = layouts[rng.below(layouts.len())];
        let alone = parse_record(&line, layout);
        records += usize::from(alone.is_some());
        assert_eq!(
            parse_record_with(&line, layout, &mut seen),
            alone,
            "{line:?}"
        );
    }
    assert!(records > 20_000, "{records} records");
}

/// The word-at-a-time time of day agrees with `parse_time_of_day` on
/// every plain time and on times with any one byte changed.
#[test]
fn plain_times_agree_with_the_parser() {
    let mut rng = mqdiag_model::testrng::Rng::new(11);
    let mut checked = 0;
    for i in 0..200_000 {
        let us = rng.next() % 86_400_000_000;
        let mut t = format!(
            "{:02}:{:02}:{:02}.{:06}",
            us / 3_600_000_000,
            us / 60_000_000 % 60,
            us / 1_000_000 % 60,
            us % 1_000_000
        )
        .into_bytes();
        if i % 2 == 1 {
            t[rng.below(15)] = rng.below(256) as u8;
        }
        let want = parse_time_of_day(&t).map(tod_nanos);
        match plain_tod(&t) {
            Some(n) => assert_eq!(Some(n), want, "{:?}", String::from_utf8_lossy(&t)),
            None => assert!(want.is_none(), "{:?}", String::from_utf8_lossy(&t)),
        }
        checked += usize::from(want.is_some());
    }
    assert!(checked > 100_000);
    assert_eq!(plain_tod(b"23:59:59.999999"), Some(86_399_999_999_000));
    assert_eq!(plain_tod(b"00:00:00.000000"), Some(0));
    for odd in [
        &b"24:00:00.000000"[..],
        b"23:60:00.000000",
        b"23:59:60.000000",
        b"1:00:00.0000000",
    ] {
        assert_eq!(plain_tod(odd), None);
    }
}

#[test]
fn printable_ascii_and_blank_scans_agree_with_the_plain_definitions() {
    for len in 0..20 {
        for at in 0..len {
            for c in 0..=255u8 {
                let mut b = vec![b'a'; len];
                b[at] = c;
                assert_eq!(
                    printable_ascii(&b),
                    (0x20..0x7f).contains(&c),
                    "{c:#x} at {at} of {len}"
                );
            }
            let mut b = vec![b' '; len];
            b[at] = b'x';
            assert_eq!(next_blank(&b, at), at + 1, "{at} of {len}");
            assert_eq!(past_blanks(&b, 0), at, "{at} of {len}");
        }
    }
}

// Rows of trace inputs rendered straight from their lines (`fast`, with
// how many took that way) and through events (`slow`), with file facts.
use mqdiag_model::sink::{RowRenderer, TimelineFormat};
use mqdiag_model::sink::{RowSink, RowSpec};
type Problems = Vec<(Option<u64>, String)>;
type Facts = (u64, Option<Ts>, Option<Ts>, u64, u64, Problems);
type Rows = Vec<(RowMeta, Vec<u8>)>;
/// Rows, how many went straight, file facts, blocks (stitched, read
/// again, durations found), rows of each call.
type Fast = (Rows, usize, Vec<Facts>, (u64, u64, u64), Vec<usize>);
fn fast(inputs: Vec<Input>) -> (Rows, usize, Vec<Facts>) {
    let (rows, straight, facts, _, _) = fast_with(inputs, ReadOptions::default());
    (rows, straight, facts)
}
/// As `fast`, with these options; also the blocks helpers rendered
/// that were stitched and read again, and the rows of each call (calls
/// end where they would without helpers: where a row too late to be
/// put in order goes depends on it).
fn fast_with(inputs: Vec<Input>, opts: ReadOptions) -> Fast {
    let mut src = Box::new(TraceSource::new(inputs, opts));
    let mut sink = RowSink::new(Arc::new(RowSpec::new(TimelineFormat::Text)));
    let (mut rows, mut straight) = (Vec::new(), 0);
    let mut out = Vec::new();
    // Calls of varied sizes, so that blocks stop at every point.
    let mut n = 0;
    let mut calls = Vec::new();
    loop {
        n = n % 7 + 1;
        let before = rows.len();
        let more = src.next_rows(&mut sink, &mut out, n, 1 << 20, &mut |m, s, e| {
            straight += usize::from(m.origin.is_none());
            rows.push((m, s, e));
        });
        calls.push(rows.len() - before);
        if !more {
            break;
        }
    }
    let rows = rows
        .into_iter()
        .map(|(mut m, s, e)| {
            m.origin = None;
            (m, out[s..e].to_vec())
        })
        .collect();
    let counts = src.par_counts;
    (rows, straight, facts(src.finish()), counts, calls)
}

/// The rows of each call when the inputs are read alone.
fn calls_of(inputs: Vec<Input>) -> Vec<usize> {
    fast_with(inputs, ReadOptions::default()).4
}
fn slow(inputs: Vec<Input>) -> (Rows, Vec<Facts>) {
    let mut src = Box::new(TraceSource::new(inputs, ReadOptions::default()));
    let mut r = RowRenderer::default();
    let mut rows = Vec::new();
    while let Some(e) = src.next_event() {
        let mut out = Vec::new();
        r.render(TimelineFormat::Text, &e, &mut out);
        let m = RowMeta {
            key: e.ts.timestamp_nanos_opt().unwrap(),
            offset: e.ts.offset().local_minus_utc(),
            line: e.line,
            origin: None,
            undated: false,
        };
        rows.push((m, out));
    }
    (rows, facts(src.finish()))
}
/// Every event of trace inputs, as written by `Debug`, with the file
/// facts and the blocks helpers read (stitched, read again, durations
/// found).
fn events_with(
    inputs: Vec<Input>,
    opts: ReadOptions,
) -> (Vec<String>, Vec<Facts>, (u64, u64, u64)) {
    let mut src = Box::new(TraceSource::new(inputs, opts));
    let mut events = Vec::new();
    while let Some(e) = src.next_event() {
        events.push(format!("{e:?}"));
    }
    let counts = src.par_counts;
    (events, facts(src.finish()), counts)
}
fn facts(infos: Vec<FileInfo>) -> Vec<Facts> {
    infos
        .into_iter()
        .map(|i| {
            let problems = i.problems.into_iter().map(|p| (p.line, p.message));
            let problems = problems.collect();
            (
                i.events,
                i.first,
                i.last,
                i.lines,
                i.problem_count,
                problems,
            )
        })
        .collect()
}

/// The header of the Linux fixture (its first 11 lines).
fn linux_head() -> Vec<u8> {
    let head = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fixtures/trace/linux/AMQ4711.0.FMT"
    ))
    .unwrap();
    head.split_inclusive(|&c| c == b'\n')
        .take(11)
        .flatten()
        .copied()
        .collect()
}

/// Every trace fixture as a set of files read together, and two files
/// of awkward lines written into `dir`.
fn trace_sets(dir: &std::path::Path) -> Vec<Vec<std::path::PathBuf>> {
    let odd = dir.join("AMQ4711.0.FMT");
    let mut body = linux_head();
    for l in [
        &b" 11:21:44.000001     4711.2      RSESS:000001 {  fnA"[..],
        b" 11:21:44.000002     04711.2     RSESS:000001 -{  fnB",
        b" 11:21:44.000003     4711.2      RSESS:000001 -}  fnB rc=OK",
        b"*11:21:44.000004     4711.2      RSESS:000001 !! - }! fnA (rc=2035)",
        b" 11:21:44.000005     4711.3           :       a\ttab",
        b" 11:21:44.000006     4711.3      RSESS:000002 caf\xe9 Latin-1",
        b" 11:21:44.000007     4711.3      RSESS:000002 caf\xc3\xa9 UTF-8",
        b" 11:21:44.000008     4711.3      RSESS:000002 0x0000:  00000000  |....|",
        b" 11:21:44.000009     4711.3      RSESS:000002 3 lines suppressed, same as above",
        b" 11:21:44.00001      4711.3      RSESS:000002 five decimals",
        b" 11:21:44.000011     4711.3      RSESS:000002 }  neverEntered rc=OK",
        b" 11:21:43.500000     4711.4      RSESS:000003 {  earlier",
        b" 11:21:44.000012     4711.3      RSESS:000002 NUL\0byte",
        b" 11:21:44.000013     4711.3      RSESS:000002 crlf\r",
        b" 11:21:44.000014     4711.3      : ",
        b" 11:21:44.000015     4711.3",
        b" 11:21:44.000016     4711.99999999999 RSESS:000002 tid too large",
        b" 11:21:44.000018     4711.2.3    RSESS:000002 two dots",
        b" 11:21:44.000019     4294967295.4294967295 RSESS:000002 largest",
        b" 11:21:44.000020     4294967296.1 RSESS:000002 too large",
        b" 11:21:44.000021     .1          RSESS:000002 no pid",
        b" 11:21:44.000022     4711.       RSESS:000002 no tid",
        b" 11:21:44.000023 \t   4711.3      RSESS:000002 tab among blanks",
        b" 11:21:44.000024     4711.3 \xa0    RSESS:000002 NBSP among blanks",
        b" 11:21:44.000025     4711.3      RSE\xc9S:000002 high byte in ident",
        b" 11:21:44.000026     47\xb911.3    RSESS:000002 high byte in PID",
        b" 11:21:44.000027     4711.3\x01     RSESS:000002 control byte after TID",
        b"\x0011:21:44.000028     4711.3      RSESS:000002 NUL first",
        b" 11:21:44.000029     4711.3  \0     RSESS:000002 NUL among blanks",
        b" 11:21:44.000030     4711.3\0      RSESS:000002 NUL after TID",
        b" 11:21:44.000031     4711.3      RSESS:0\0 NUL in ident",
        b"not a record",
        b" 11:21:60.000000     4711.3      RSESS:000002 second 60",
        b" 24:00:00.000000     4711.3      RSESS:000002 hour 24",
        b" 23:59:59.999999     4711.3      RSESS:000002 {  late",
        b" 00:00:00.000001     4711.3      RSESS:000002 }  late rc=OK",
        b" 11:21:44.000017     4711.4      RSESS:000003 }  earlier",
    ] {
        body.extend_from_slice(l);
        body.push(b'\n');
    }
    body.extend_from_slice(b" 00:00:01.000000     4711.3      RSESS:000002 cut");
    std::fs::write(&odd, body).unwrap();
    // NUL bytes where the caches keyed by text zero-pad their keys, in a
    // file of its own (caches start empty).
    let nul = dir.join("nul").join("AMQ4712.0.FMT");
    std::fs::create_dir_all(nul.parent().unwrap()).unwrap();
    let mut body = linux_head();
    body.extend_from_slice(b" 11:21:44.000001     4711.3  \0     RSESS:000002 NUL among blanks\n");
    body.extend_from_slice(b" 11:21:44.000002     \0.3      RSESS:000002 NUL for PID\n");
    std::fs::write(&nul, body).unwrap();
    let mut sets: Vec<Vec<std::path::PathBuf>> = vec![vec![odd], vec![nul]];
    for d in [
        "linux",
        "midnight",
        "overlap",
        "rcvr-channel",
        "sdr-channel",
        "churn",
        "client-dns",
        "headerless",
        "windows",
        "wrap",
    ] {
        let mut files: Vec<_> = std::fs::read_dir(format!(
            "{}/../../fixtures/trace/{d}",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
        files.sort();
        sets.extend(files.into_iter().map(|f| vec![f]));
    }
    sets
}

fn inputs_of(set: &[std::path::PathBuf]) -> Vec<Input> {
    set.iter()
        .map(|p| Input::from_path(&p.display().to_string(), p).unwrap())
        .collect()
}

fn show(r: &[(RowMeta, Vec<u8>)]) -> String {
    r.iter()
        .map(|(m, b)| {
            let text = String::from_utf8_lossy(b);
            format!("{} {} {} {text}", m.key, m.offset, m.line)
        })
        .collect()
}

/// Every trace fixture (and a file of awkward lines) gives the same
/// text rows, keys and file facts whether lines go straight to rows or
/// through events; and the straight way is taken for most lines.
#[test]
fn text_rows_straight_from_lines_equal_rows_of_events() {
    let dir = tempfile::tempdir().unwrap();
    let sets = trace_sets(dir.path());
    let (mut total, mut straight_total) = (0, 0);
    for set in sets {
        let (a, straight, fa) = fast(inputs_of(&set));
        let (b, fb) = slow(inputs_of(&set));
        assert_eq!(show(&a), show(&b), "{set:?}");
        assert_eq!(fa, fb, "{set:?}");
        total += a.len();
        straight_total += straight;
    }
    assert!(
        straight_total * 2 > total,
        "{straight_total} of {total} straight"
    );
}

/// Randomly damaged trace fixtures (bytes changed, inserted, cut,
/// lines spliced, files truncated) give the same rows and file facts
/// either way: whatever the straight way cannot read exactly, it leaves
/// to the full way.
#[test]
fn damaged_traces_give_the_same_rows_both_ways() {
    let mut rng = mqdiag_model::testrng::Rng::new(0x9E37_79B9_7F4A_7C15);
    let mut rnd = move |m: usize| rng.below(m);
    let mut files = Vec::new();
    for d in [
        "linux",
        "midnight",
        "overlap",
        "sdr-channel",
        "headerless",
        "churn",
    ] {
        for e in std::fs::read_dir(format!(
            "{}/../../fixtures/trace/{d}",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap()
        .flatten()
        {
            files.push(e.path());
        }
    }
    files.sort();
    let dir = tempfile::tempdir().unwrap();
    const ODD: &[u8] = b" \t\r\n:.*!{}-0123456789\xe9\x00";
    for n in 0..400 {
        let f = &files[rnd(files.len())];
        let mut data = std::fs::read(f).unwrap();
        for _ in 0..1 + rnd(5) {
            let p = rnd(data.len());
            match rnd(5) {
                0 => data[p] = rnd(256) as u8,
                1 => data.insert(p, ODD[rnd(ODD.len())]),
                2 => {
                    let end = (p + 1 + rnd(20)).min(data.len());
                    data.drain(p..end);
                }
                3 => {
                    let from = rnd(data.len());
                    let end = (from + 1 + rnd(80)).min(data.len());
                    let piece = data[from..end].to_vec();
                    data.splice(p..p, piece);
                }
                _ => data.truncate(p),
            }
        }
        let path = dir.path().join(format!("{n}")).join(f.file_name().unwrap());
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &data).unwrap();
        let input = || vec![Input::from_path(&path.display().to_string(), &path).unwrap()];
        let (a, _, fa) = fast(input());
        let (b, fb) = slow(input());
        assert!(
            a == b && fa == fb,
            "damaged {} differs: {}",
            f.display(),
            path.display()
        );
        // And with helpers taking blocks of a few lines.
        let (c, _, fc, _, calls) = fast_with(input(), par(1 + n % 3, 64 + rnd(600)));
        assert!(
            calls == calls_of(input()),
            "calls differ: {}",
            path.display()
        );
        assert!(
            a == c && fa == fc,
            "damaged {} differs with helpers: {}",
            f.display(),
            path.display()
        );
    }
}

/// A trace whose reading fails part way (a gzip stream cut short):
/// with helpers, the same rows, and the read error at the same line.
#[test]
fn blocks_end_where_reading_fails() {
    use std::io::Write;
    let text = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fixtures/trace/sdr-channel/AMQ9306238.0.FMT"
    ))
    .unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(&text).unwrap();
    let gz = gz.finish().unwrap();
    let cut: Arc<[u8]> = Arc::from(&gz[..gz.len() * 2 / 3]);
    let input = || {
        vec![Input {
            display: Arc::from("AMQ9306238.0.FMT.gz"),
            name: "AMQ9306238.0.FMT".to_string(),
            location: crate::input::Location::Gzip {
                inner: Box::new(crate::input::Location::Memory(cut.clone())),
                limit: u64::MAX,
                why: Arc::from("test"),
            },
            bytes: text.len() as u64,
            mtime: None,
            progress: None,
            sniffed: None,
        }]
    };
    let (a, _, fa) = fast(input());
    assert!(a.len() > 50, "{} rows", a.len());
    assert!(
        fa[0].5.iter().any(|(_, m)| m.starts_with("read error")),
        "{:?}",
        fa[0].5
    );
    for (helpers, block) in [(1, 200), (2, 1000)] {
        let (b, _, fb, counts, calls) = fast_with(input(), par(helpers, block));
        assert!(calls == calls_of(input()));
        assert_eq!(show(&a), show(&b));
        assert_eq!(fa, fb);
        assert!(counts.0 > 2, "{counts:?}");
    }
}

/// A selective interest, as `analyze` gives: a few functions of its rules
/// (inner names that longer ones contain among them) and MQI reasons.
fn interest() -> ReadOptions {
    let functions = [
        "getaddrinfo",
        "gsk_environment_init",
        "send",
        "recv",
        "MQCONNX",
        "MQGET",
        "zstMQGET",
        "MQPUT",
        "MQOPEN",
    ];
    ReadOptions {
        interest: Some(Arc::new(crate::source::Interest::new(
            &functions,
            &[],
            &["Reason", "CompCode"],
        ))),
        ..ReadOptions::default()
    }
}

fn par(helpers: usize, block: usize) -> ReadOptions {
    ReadOptions {
        parallel: crate::source::Parallel {
            helpers,
            block,
            min_bytes: 0,
            dense_after: 0,
        },
        ..ReadOptions::default()
    }
}

/// Every trace fixture (and the files of awkward lines), read with
/// helpers taking blocks of a few lines, gives the rows, their order
/// and the file facts of one reader alone.
#[test]
fn blocks_on_helpers_give_the_rows_of_one_reader() {
    let dir = tempfile::tempdir().unwrap();
    let mut stitched = 0;
    for set in trace_sets(dir.path()) {
        let (a, _, fa) = fast(inputs_of(&set));
        let (ea, efa, _) = events_with(inputs_of(&set), ReadOptions::default());
        let (ia, ifa, _) = events_with(inputs_of(&set), interest());
        for (helpers, block) in [(1, 64), (2, 300), (3, 1000), (2, 1 << 20)] {
            let (b, _, fb, counts, calls) = fast_with(inputs_of(&set), par(helpers, block));
            assert!(
                calls == calls_of(inputs_of(&set)),
                "{set:?} {helpers} {block}"
            );
            assert_eq!(show(&a), show(&b), "{set:?} {helpers} {block}");
            assert_eq!(fa, fb, "{set:?} {helpers} {block}");
            stitched += counts.0;
            let (eb, efb, counts) = events_with(inputs_of(&set), par(helpers, block));
            assert_eq!(ea, eb, "{set:?} {helpers} {block}");
            assert_eq!(efa, efb, "{set:?} {helpers} {block}");
            stitched += counts.0;
            let opts = ReadOptions {
                parallel: par(helpers, block).parallel,
                ..interest()
            };
            let (ib, ifb, counts) = events_with(inputs_of(&set), opts);
            assert_eq!(ia, ib, "{set:?} {helpers} {block}");
            assert_eq!(ifa, ifb, "{set:?} {helpers} {block}");
            stitched += counts.0;
        }
    }
    assert!(stitched > 300, "{stitched} blocks stitched");
}

/// A long trace of interleaved threads: calls open across many blocks,
/// midnight, missing exits, exits of calls entered before the trace, a
/// stack deeper than the limit, a title and a counter line in the
/// middle, CRLF, a NUL, a line longer than a block and a last line cut
/// short. With helpers it gives the rows of one reader; most blocks are
/// stitched, and the ones whose assumptions fail are read again.
#[test]
fn blocks_stitch_calls_across_blocks_and_read_again_what_they_cannot() {
    let mut body = linux_head();
    let mut rng = mqdiag_model::testrng::Rng::new(7);
    // Microseconds since midnight: the trace starts at 23:58:00.
    let mut t: u64 = (23 * 3600 + 58 * 60) * 1_000_000;
    let mut stacks: Vec<Vec<String>> = vec![Vec::new(); 8];
    let line = |t: u64, tid: usize, data: &str| rec(t, tid as u32, data);
    // Calls that stay open for most of the trace.
    for (tid, st) in stacks.iter_mut().enumerate().skip(1) {
        body.extend(line(t, tid, &format!("{{  outer{tid}")).bytes());
        st.push(format!("outer{tid}"));
    }
    for i in 0..30_000 {
        t += rng.below(9_000) as u64;
        let tid = 1 + rng.below(6);
        // Threads interleave: near midnight some lines of the old day
        // come after the first of the new one.
        let t = match t % 86_400_000_000 {
            0..3_000_000 if rng.below(4) == 0 => t - 2_500_000,
            // The file's latest time, amid lines no rule reads.
            _ if i == 29_000 => t + 60_000_000,
            // Two hours back a minute before midnight: no new day.
            _ if i == 20_000 => t - 7_200_000_000,
            _ => t,
        };
        let st = &mut stacks[tid];
        let dashes = "-".repeat(st.len().min(9));
        let data = match (i, rng.below(2_000)) {
            (9_000, _) => "Timestamp        Process.Thread  Trace Ident  Trace Data".into(),
            (12_000, _) => "not a record at all".into(),
            (29_000, _) => "a minute ahead".into(),
            (15_000, _) => "NUL\0in a line".into(),
            (17_000, _) => {
                // A stack deeper than the limit, then closed again.
                for d in 0..MAX_STACK + 20 {
                    body.extend(line(t, 7, &format!("{{  deep{d}")).bytes());
                }
                "}  deep0 rc=OK".into()
            }
            (_, 0..700) => {
                let f = format!("fn{}", rng.below(40));
                let d = format!("{dashes}{{  {f}");
                st.push(f);
                d
            }
            (_, 700..1400) if !st.is_empty() => {
                let f = st.pop().unwrap();
                if f.starts_with("outer") {
                    st.push(f);
                    "text".into()
                } else {
                    format!("{dashes}}}  {f} rc=OK FunctionTime=12")
                }
            }
            // An exit whose entry the trace never saw.
            (_, 1400..1405) => format!("{dashes}}}  before{} rc=OK", rng.below(3)),
            // A missing exit: the caller closes over it.
            (_, 1405..1410) if st.len() >= 3 => {
                st.pop();
                let f = st.pop().unwrap();
                format!("{dashes}}}  {f} rc=OK")
            }
            (_, 1410..1600) => "      0x0000:  00000000  |....|".into(),
            (_, 1600..1650) => format!("QTime({i})"),
            _ => format!("text {i}"),
        };
        let mut l = line(t, tid, &data);
        if i == 9_000 {
            l = format!("{}\n", data);
        }
        if i == 28_000 {
            // Another layout from here on (traces put together): the
            // helpers stop, and the rest is read alone.
            l = "Counter  TimeStamp          PID.TID    Ident  Trace Data\n".into();
        }
        if i == 11_000 {
            l = format!("0000002A {}", &l[1..]);
        }
        if i == 5_000 {
            // Minute 7x: not a time, amid lines no rule reads.
            l.replace_range(4..5, "7");
        }
        if i % 997 == 0 {
            l.insert(l.len() - 1, '\r');
        }
        body.extend(l.bytes());
    }
    for tid in 1..8 {
        body.extend(line(t, tid, &format!("}}  outer{tid} rc=OK")).bytes());
    }
    let long = format!("long {}", "x".repeat(9_000));
    body.extend(line(t, 1, &long).bytes());
    body.extend(line(t + 5, 2, "after the long line").bytes());
    body.extend(line(t + 6, 2, "cut short").trim_end().bytes());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("AMQ4711.0.FMT");
    std::fs::write(&path, &body).unwrap();
    let set = [path];
    let (a, _, fa) = fast(inputs_of(&set));
    assert!(a.len() > 30_000);
    let (b, fb) = slow(inputs_of(&set));
    assert_eq!(show(&a), show(&b));
    assert_eq!(fa, fb);
    let jumps = format!("{:?}", fa[0].5);
    assert_eq!(
        jumps.matches("time of day steps back").count(),
        1,
        "{jumps}"
    );
    assert!(jumps.contains("steps back from 23:5"), "{jumps}");
    let (ea, efa, _) = events_with(inputs_of(&set), ReadOptions::default());
    let (ia, ifa, _) = events_with(inputs_of(&set), interest());
    // Lines skipped by interest keep the clock line by line (midnight and
    // early lines fall inside skipped runs). Steps back within a thread
    // are judged among the lines read (see the module docs): those lines
    // skip fewer. The time range takes the first and the last record
    // skipped, not their times between: here, past midnight, time steps
    // back 2 hours and comes back, so the latest record (00:01:09, read
    // in full) is not the last (00:00:14), which the range ends with.
    let judged_apart = |f: &[Facts]| -> Vec<Facts> {
        let mut f = f.to_vec();
        for x in &mut f {
            x.5.retain(|(_, m)| !m.starts_with("time goes back"));
            x.2 = None;
        }
        f
    };
    assert_eq!(judged_apart(&efa), judged_apart(&ifa));
    let last_record = {
        let input = Input::from_path("x", &set[0]).unwrap();
        let all = crate::testkit::drain(Box::new(TraceSource::new(
            vec![input],
            ReadOptions::default(),
        )))
        .0;
        all.last().map(|e| e.ts)
    };
    assert!(efa[0].2 > last_record, "{:?} {last_record:?}", efa[0].2);
    assert_eq!(ifa[0].2, last_record);
    // (`usize::MAX`: no helper thread, the source reads the blocks.)
    for (helpers, block) in [(2, 4096), (1, 2000), (3, 777), (usize::MAX, 1500)] {
        let (c, _, fc, counts, calls) = fast_with(inputs_of(&set), par(helpers, block));
        assert!(calls == calls_of(inputs_of(&set)), "{helpers} {block}");
        assert_eq!(show(&a), show(&c), "{helpers} {block}");
        assert_eq!(fa, fc, "{helpers} {block}");
        let (stitched, again, durations) = counts;
        assert!(stitched > 8 * again && again > 0, "{counts:?}");
        assert!(durations > 100, "{counts:?}");
        // Events, every one and those `analyze` reads.
        let (eb, efb, counts) = events_with(inputs_of(&set), par(helpers, block));
        assert!(ea == eb, "events differ with {helpers} {block}");
        assert_eq!(efa, efb, "{helpers} {block}");
        let (stitched, again, durations) = counts;
        assert!(stitched > 8 * again && again > 0, "{counts:?}");
        assert!(durations > 100, "{counts:?}");
        let opts = ReadOptions {
            parallel: par(helpers, block).parallel,
            ..interest()
        };
        let (ib, ifb, counts) = events_with(inputs_of(&set), opts);
        assert!(ia == ib, "events of interest differ with {helpers} {block}");
        assert_eq!(ifa, ifb, "{helpers} {block}");
        assert!(counts.0 > 8 * counts.1 && counts.1 > 0, "{counts:?}");
    }
}

#[test]
fn interest_keeps_the_file_facts() {
    fn files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                files(&p, out);
            } else if TraceReader.sniff("", &std::fs::read(&p).unwrap()) > 0 {
                out.push(p);
            }
        }
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut all_files = Vec::new();
    files(&root.join("../../fixtures"), &mut all_files);
    assert!(all_files.len() >= 15, "{all_files:?}");
    let facts = |p: &std::path::Path, opts: ReadOptions| {
        let input = Input::from_path("x", p).unwrap();
        let mut src = Box::new(TraceSource::new(vec![input], opts));
        let mut built = 0;
        while src.next_event().is_some() {
            built += 1;
        }
        let i = src.finish().remove(0);
        (built, (i.events, i.first, i.last, i.lines, i.problem_count))
    };
    let interest = ReadOptions {
        interest: Some(Arc::new(crate::source::Interest::new(
            &["send"],
            &[],
            &["buffer size"],
        ))),
        ..ReadOptions::default()
    };
    let mut fewer = 0;
    for p in &all_files {
        let all = facts(p, ReadOptions::default());
        let some = facts(p, interest.clone());
        assert_eq!(some.1, all.1, "{}", p.display());
        fewer += usize::from(some.0 < all.0);
    }
    assert!(fewer >= 10, "interest skipped lines in only {fewer} files");
}

#[test]
fn interest_keeps_only_what_is_asked_and_times_it_exactly() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fixtures/trace/linux/AMQ4711.0.FMT"
    );
    let all = read_all(path, ReadOptions::default());
    let opts = ReadOptions {
        interest: Some(Arc::new(crate::source::Interest::new(
            &["MQCONNX", "MQDISC"],
            &["rrx"],
            &["ChlName("],
        ))),
        ..ReadOptions::default()
    };
    let some = read_all(path, opts);
    let headers = some.iter().filter(|e| e.kind == Kind::Header).count();
    assert_eq!(headers, 9);
    let rest: Vec<(u64, Kind, Option<&str>)> = some
        .iter()
        .filter(|e| e.kind != Kind::Header)
        .map(|e| (e.line, e.kind, e.function.as_deref()))
        .collect();
    assert_eq!(
        rest,
        vec![
            (14, Kind::Entry, Some("MQCONNX")),
            (17, Kind::Text, Some("MQCONNX")),
            (25, Kind::Exit, Some("MQCONNX")),
            (33, Kind::Entry, Some("rrxSend")),
            (34, Kind::Exit, Some("rrxSend")),
            (36, Kind::Entry, Some("MQDISC")),
            (37, Kind::ErrorExit, Some("MQDISC")),
        ]
    );
    // Same durations as when every line is read.
    let el = |v: &[Event], line| v.iter().find(|e| e.line == line).unwrap().elapsed_us;
    assert_eq!(el(&some, 25), el(&all, 25));
    assert_eq!(el(&some, 25), Some(911));
    assert_eq!(el(&some, 37), el(&all, 37));
}

#[test]
fn not_records() {
    assert!(
        parse_record(
            "Timestamp        Process.Thread  Trace Ident  Trace Data",
            None
        )
        .is_none()
    );
    assert!(parse_record("====", None).is_none());
    assert!(parse_record("Process : C:\\x.exe", None).is_none());
}

/// Days stop at 9999-12-31: a midnight after it is a located clock jump,
/// and no event gets a five-digit year (RFC 3339 has four), in every way
/// a trace is read.
#[test]
fn no_day_after_the_last_one() {
    let mut text = Vec::new();
    for (i, t) in ["23:00:00", "01:00:00", "23:30:00", "02:00:00"]
        .iter()
        .enumerate()
    {
        text.extend_from_slice(
            format!(" {t}.00000{i}     7777.1           :       {{  MQCONN\n").as_bytes(),
        );
    }
    let opts = ReadOptions {
        date: NaiveDate::from_ymd_opt(9999, 12, 31),
        tz: FixedOffset::east_opt(0),
        ..Default::default()
    };
    let input = || vec![Input::from_bytes("AMQ7777.0.FMT", text.clone())];
    let (events, facts, _) = events_with(input(), opts.clone());
    assert_eq!(events.len(), 4);
    let (_, first, last, _, _, problems) = &facts[0];
    // Past 2262 no instant can be ordered: the merge leaves such events
    // out (reported there), and they do not widen the file's range.
    assert_eq!((first, last), (&None, &None));
    assert!(
        events.iter().all(|e| e.contains("9999-12-31T")),
        "{events:?}"
    );
    let jumps: Vec<&(Option<u64>, String)> = problems
        .iter()
        .filter(|(_, m)| m.contains("a new day after 9999-12-31"))
        .collect();
    assert_eq!(jumps.len(), 2, "{problems:?}");
    assert_eq!(jumps[0].0, Some(2));
    // The row path agrees: the same four rows, none rendered, as the
    // merge leaves them out.
    let rows = fast_with(input(), opts).0;
    assert_eq!(rows.len(), 4);
    assert!(
        rows.iter()
            .all(|(m, b)| b.is_empty() && !mqdiag_model::timefmt::orderable(m.key)),
        "{}",
        show(&rows)
    );
}

#[test]
fn a_data_line_printing_an_options_field_carries_its_names() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("AMQ4711.0.FMT");
    let mut body = linux_head();
    for l in [
        " 11:21:44.000001     4711.2      RSESS:000001 {  MQGET",
        " 11:21:44.000002     4711.2      RSESS:000001    MQGMO.Options = 8260",
        " 11:21:44.000003     4711.2      RSESS:000001    component:24 function:176 options:0",
        " 11:21:44.000004     4711.2      RSESS:000001 }  MQGET rc=OK",
    ] {
        body.extend_from_slice(l.as_bytes());
        body.push(b'\n');
    }
    std::fs::write(&path, body).unwrap();
    let events = read_all(path.to_str().unwrap(), ReadOptions::default());
    let options: Vec<(&str, Option<&str>)> = events
        .iter()
        .filter(|e| e.kind == Kind::Text)
        .map(|e| (e.text.as_str(), e.get(mqdiag_model::event::Key::Options)))
        .collect();
    assert_eq!(
        options,
        [
            (
                "MQGMO.Options = 8260",
                Some("MQGMO_NO_SYNCPOINT+MQGMO_ACCEPT_TRUNCATED_MSG+MQGMO_FAIL_IF_QUIESCING")
            ),
            ("component:24 function:176 options:0", None),
        ]
    );
}

/// Lines skipped unread (`skip_run`).
mod helpers;
mod skip;
use skip::rec;
/// Time stepping back within a thread (`Thread::stamp`).
mod step_back;

/// `events_with`, taking the events in bursts of varied sizes
/// (`Source::next_events`).
fn events_in_bursts(inputs: Vec<Input>, opts: ReadOptions) -> (Vec<String>, Vec<Facts>) {
    let mut src = Box::new(TraceSource::new(inputs, opts));
    let (mut events, mut burst, mut n) = (Vec::new(), Vec::new(), 0);
    loop {
        n = n % 5 + 1;
        let more = src.next_events(&mut burst, n);
        assert!(burst.len() <= n && (!more || burst.len() == n));
        events.extend(burst.drain(..).map(|e| format!("{e:?}")));
        if !more {
            break;
        }
    }
    (events, facts(src.finish()))
}

#[test]
fn events_in_bursts_are_the_events_one_by_one() {
    let dir = tempfile::tempdir().unwrap();
    for set in trace_sets(dir.path()) {
        for opts in [ReadOptions::default(), interest(), par(2, 300)] {
            let (a, fa, _) = events_with(inputs_of(&set), opts.clone());
            let (b, fb) = events_in_bursts(inputs_of(&set), opts);
            assert_eq!(a, b, "{set:?}");
            assert_eq!(fa, fb, "{set:?}");
        }
    }
}
