use super::*;

fn parse_all(text: &str) -> (Vec<RawRecord>, Vec<Found>) {
    let mut p = Parser::default();
    for (i, l) in text.lines().enumerate() {
        p.feed(i as u64 + 1, l);
    }
    p.finish();
    let mut recs = Vec::new();
    let mut probs = Vec::new();
    for it in p.out {
        match it {
            Item::Record(r) => recs.push(*r),
            Item::Problem(f) => probs.push(f),
        }
    }
    (recs, probs)
}

#[test]
fn attribute_scanner_balances_parentheses() {
    let s = scan_attrs(
        "CommentInsert1(Windows 10 (MQ Windows (x64 platform) 64-bit)) ArithInsert1(414) ArithInsert2(575010)",
    );
    assert_eq!(
        s.attrs,
        vec![
            (
                "CommentInsert1".to_string(),
                "Windows 10 (MQ Windows (x64 platform) 64-bit)".to_string()
            ),
            ("ArithInsert1".to_string(), "414".to_string()),
            ("ArithInsert2".to_string(), "575010".to_string()),
        ]
    );
    let s = scan_attrs(r"CommentInsert2(C:\Program Files\IBM\MQ (Installation1))");
    assert_eq!(s.attrs[0].1, r"C:\Program Files\IBM\MQ (Installation1)");
    let s = scan_attrs("CommentInsert3(mqd00 (192.168.134.47)(1416))");
    assert_eq!(s.attrs[0].1, "mqd00 (192.168.134.47)(1416)");
    let s = scan_attrs("CommentInsert2(abc (def) x");
    assert_eq!(s.attrs[0].1, "abc (def");
    assert_eq!(s.unbalanced.as_deref(), Some("CommentInsert2"));
    let s = scan_attrs("Host(a) trailing words");
    assert_eq!(s.junk.as_deref(), Some("trailing words"));
}

#[test]
fn header_forms() {
    let h = parse_header("03/22/2019 08:17:30 PM - Process(16296.7) User(mqm) Program(amqrmppa)")
        .unwrap();
    assert_eq!((h.pid, h.tid), (Some(16296), Some(7)));
    assert_eq!(
        h.local(Order::Mdy).unwrap().to_string(),
        "2019-03-22 20:17:30"
    );
    assert_eq!(h.local_raw, "03/22/2019 08:17:30 PM");
    let h = parse_header("12/07/2012 12:46:09 AM - Process(1.5) User(j) Program(x)").unwrap();
    assert_eq!(
        h.local(Order::Mdy).unwrap().to_string(),
        "2012-12-07 00:46:09"
    );
    let h =
        parse_header("13.07.2018 07:06:00 - Process(13440.3) User(felix) Program(amqzmuc0.exe)")
            .unwrap();
    assert_eq!(h.style.sep, b'.');
    assert_eq!(
        h.local(Order::Dmy).unwrap().to_string(),
        "2018-07-13 07:06:00"
    );
    // No User() (appliance style), en dash from a pasted copy.
    let h = parse_header("04/26/17 10:04:34 \u{2013} Process(773602.3) Program(amqrmppa)").unwrap();
    assert_eq!(h.user, None);
    assert_eq!(h.program.as_deref(), Some("amqrmppa"));
    assert_eq!(
        h.local(Order::Mdy).unwrap().to_string(),
        "2017-04-26 10:04:34"
    );
    let h = parse_header("01/02/99 10:00:00 AMQ9999: Channel program ended abnormally.").unwrap();
    assert!(h.is_legacy());
    assert_eq!(
        h.local(Order::Mdy).unwrap().to_string(),
        "1999-01-02 10:00:00"
    );
    // Year first (Japanese, Chinese, Korean systems): the order decided
    // for the file does not apply.
    let h =
        parse_header("2018/10/07 22:16:25 - Process(5424.12) User(mqm) Program(amqrmppa)").unwrap();
    assert!(h.style.year_first);
    for o in [Order::Mdy, Order::Dmy] {
        assert_eq!(h.local(o).unwrap().to_string(), "2018-10-07 22:16:25");
    }
    assert_eq!(h.local_raw, "2018/10/07 22:16:25");
    let h = parse_header("2018-1-7 9:16:25 - Process(1.1)").unwrap();
    assert_eq!(
        h.local(Order::Dmy).unwrap().to_string(),
        "2018-01-07 09:16:25"
    );
    // Four digits at both ends, or three at the start, are no date.
    assert!(parse_header("2018/10/2018 22:16:25 - Process(1.1)").is_none());
    assert!(parse_header("201/10/18 22:16:25 - Process(1.1)").is_none());
    assert!(parse_header("10/17/1 22:16:25 - Process(1.1)").is_none());
    assert!(parse_header("10.15.30 STC04321  CSQX511I").is_none());
    assert!(parse_header(" 11:21:43.913212   8.1  RSESS:000001 -{ MQCRTMH").is_none());
}

/// Lines of every kind, and each of them with one character removed,
/// replaced or inserted (no-break spaces, en dashes, Unicode digits,
/// CR, tabs, Latin-1 read as CP1252 and CP850...).
fn awkward_lines() -> Vec<String> {
    let mut seeds: Vec<String> = [
        "03/22/2019 08:17:30 PM - Process(16296.7) User(mqm) Program(amqrmppa)",
        "12/07/2012 12:46:09 AM - Process(1.5) User(j) Program(x)",
        "13.07.2018 07:06:00 - Process(13440.3) User(felix) Program(amqzmuc0.exe)",
        "04/26/17 10:04:34 \u{2013} Process(773602.3) Program(amqrmppa)",
        "  2024-03-14 1:02:03pm   -  Process(1.2) User(a (b) Program(c)",
        "1/2/2024 1:02:03 - Process(x.y) Host(h)",
        "2018/10/17 22:16:25 - Process(5424.12) User(mqm) Program(amqrmppa)",
        "01/02/99 10:00:00 AMQ9999: Channel program ended abnormally.",
        "01/02/03 10:00:05",
        "01/02/03 10:00:05   ",
        "AMQ9209E: Connection to host 'app (10.20.0.66)' closed.",
        "AMQ9999:\u{a0}Channel 'X' ended.",
        "AMQ6184W:",
        "----- amqccita.c : 4486 -------------------------------------------------------",
        "-------------------------------------------------------------------------------",
        "----- x : 1 --  \t",
        "10.20.3.178 is the address",
        "     VRMF(9.3.0.15) QMgr(QM1)",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    // Latin-1 and CRLF variants as the line decoder hands them on.
    for raw in [
        &b"03/22/2019 08:17:30\xa0PM - Process(1.7) User(m\xfcller) Program(a)"[..],
        b"03/22/2019 08:17:30 PM - Process(1.7) User(mqm) Program(a)\r",
        b"AMQ9999\xe9: text",
        b"----- amq\xe9.c : 1 -----",
    ] {
        seeds.push(decode_line(raw).0.into_owned());
    }
    let extra = [
        ' ', '\u{a0}', '\u{2013}', '\u{3000}', '0', '9', '\u{661}', 'A', 'M', 'p', 'Z', '-', '/',
        '.', ':', '(', ')', '\t', '\r', '\n', '\u{b}', 'é', '\u{fffd}',
    ];
    let mut out = seeds.clone();
    for seed in &seeds {
        let chars: Vec<char> = seed.chars().collect();
        for i in 0..=chars.len() {
            if i < chars.len() {
                let mut v = chars.clone();
                v.remove(i);
                out.push(v.into_iter().collect());
            }
            for &x in &extra {
                let mut v = chars.clone();
                v.insert(i, x);
                out.push(v.iter().collect());
                if i < chars.len() {
                    v.remove(i + 1);
                    out.push(v.into_iter().collect());
                }
            }
        }
    }
    out
}

#[test]
fn fast_matchers_agree_with_regexes() {
    let (mut fast_yes, mut fast_no, mut unsure) = (0, 0, 0);
    for l in awkward_lines() {
        assert_eq!(parse_header(&l), parse_header_by_regex(&l), "header: {l:?}");
        let by_regex = MSG_RE
            .captures(&l)
            .map(|c| (c.get(1).unwrap().as_str(), c.get(2).unwrap().as_str()));
        assert_eq!(msg_split(&l), by_regex, "message: {l:?}");
        let by_regex = l
            .starts_with("-----")
            .then(|| SEPARATOR_RE.captures(&l))
            .flatten();
        let by_regex = by_regex.map(|c| {
            c.get(1)
                .zip(c.get(2))
                .map(|(f, n)| format!("{}:{}", f.as_str(), n.as_str()))
        });
        assert_eq!(is_separator(&l), by_regex, "separator: {l:?}");
        match header_fast(&l) {
            Ok(_) => fast_yes += 1,
            Err(Stop::No) => fast_no += 1,
            Err(Stop::Unsure) => unsure += 1,
        }
        if cannot_be_header(l.as_bytes()) {
            assert_eq!(parse_header(&l), None, "skipped header: {l:?}");
        }
    }
    // Both answers of the fast path were exercised, not just the regex.
    assert!(
        fast_yes > 100 && fast_no > 100 && unsure > 100,
        "{fast_yes} {fast_no} {unsure}"
    );
}

#[test]
fn utc_time_fast_path_agrees_with_chrono() {
    let mut cases = vec![
        "2024-03-14T12:00:04.402".to_string(),
        "2024-03-14T12:00:04".into(),
        "2024-02-29T23:59:59.999999999".into(),
        "2023-02-29T00:00:00.1".into(),
        "2024-13-01T00:00:00.1".into(),
        "2024-03-14T24:00:00.000".into(),
        "2024-03-14T12:60:00.000".into(),
        "2024-03-14T12:00:60.000".into(),
        "2024-03-14T12:00:04.".into(),
        "2024-03-14T12:00:04.1234567891".into(),
        "0000-01-01T00:00:00".into(),
        "2024-3-14T12:00:04".into(),
        "2024-03-14 12:00:04".into(),
        "+2024-03-14T12:00:04".into(),
        "2024-03-14T12:00:04,5".into(),
        "2024-03-14T12:00:04.5 ".into(),
    ];
    for n in 0..=10 {
        cases.push(format!(
            "2018-10-17T11:50:16{}",
            &".123456789012"[..n.min(13)]
        ));
    }
    for c in &cases {
        let chrono = NaiveDateTime::parse_from_str(c, "%Y-%m-%dT%H:%M:%S%.f").ok();
        if let Some(f) = utc_fast(c) {
            assert_eq!(Some(f), chrono, "{c}");
        }
        assert_eq!(parse_utc(&format!("{c}Z")), chrono, "{c}");
    }
    assert!(utc_fast("2018-10-17T11:50:16.330").is_some());
}

#[test]
fn headings() {
    assert_eq!(heading("EXPLANATION:"), Some(""));
    assert_eq!(heading("ERKLéRUNG:"), Some(""));
    assert_eq!(heading("EXPLICATION :"), Some(""));
    assert_eq!(heading("説明:"), Some(""));
    assert_eq!(heading("ACTION: None."), Some("None."));
    assert_eq!(heading("Record these values:"), None);
    assert_eq!(heading("rc:"), None);
    assert_eq!(
        glued_heading("AMQ9788W: Slow DNS lookup for address 'X'.EXPLANATION:"),
        Some("AMQ9788W: Slow DNS lookup for address 'X'.")
    );
}

const TWO: &str = "\
03/22/2019 08:17:30 AM - Process(16296.7) User(mqm) Program(amqrmppa)
                Host(sysamq05) Installation(Installation1)
                VRMF(8.0.0.8) QMgr(QM05)
AMQ9271: Channel 'NB.SVR' timed out.
EXPLANATION:
A timeout occurred while waiting to receive from the other end of channel
'NB.SVR'.

The address of the remote end of the connection was '10.123.1.22'.
ACTION:
The return code from the select() [TIMEOUT] 14 seconds call was 4 (X'4').
----- amqccita.c : 4482 -------------------------------------------------------
03/22/2019 08:17:31 AM - Process(16296.7) User(mqm) Program(amqrmppa)
                Host(sysamq05) Installation(Installation1)
                VRMF(8.0.0.8) QMgr(QM05)

AMQ9999: Channel 'NB.SVR' to host '10.123.1.22' ended
abnormally.

EXPLANATION:
The channel program running under process ID 16296 for channel 'NB.SVR'
ended abnormally.
ACTION:
None.
-------------------------------------------------------------------------------
";

#[test]
fn records_sections_and_separators() {
    let (recs, probs) = parse_all(TWO);
    assert!(probs.is_empty(), "{probs:?}");
    assert_eq!(recs.len(), 2);
    let r = &recs[0];
    assert_eq!(r.msgid.as_deref(), Some("AMQ9271"));
    assert_eq!(r.source.as_deref(), Some("amqccita.c:4482"));
    assert_eq!(
        join_paragraphs(r.section_lines(0)),
        "A timeout occurred while waiting to receive from the other end of channel 'NB.SVR'.\nThe address of the remote end of the connection was '10.123.1.22'."
    );
    assert_eq!(r.attrs.len(), 4);
    let r = &recs[1];
    assert_eq!(r.line, 13);
    assert_eq!(r.last_line, 25);
    assert_eq!(
        join_paragraphs(r.summary_lines()),
        "Channel 'NB.SVR' to host '10.123.1.22' ended abnormally."
    );
    assert_eq!(join_paragraphs(r.section_lines(1)), "None.");
    assert_eq!(r.source, None);
    assert!(r.closed);
}

#[test]
fn interleaved_records_are_reassembled() {
    let text = "\
10/30/24 00:06:19 - Process(72.1) User(u) Program(node)
                Host(h) VRMF(9.4.0.0)
10/30/24 00:06:19 - Process(80.4) User(u) Program(node)
                Host(h) VRMF(9.4.0.0)
AMQ9202E: Remote host 'a (1.1.1.1)(1414)' not available, retry later.
EXPLANATION:
x
ACTION:
y
----- amqccita.c : 1 ----------------------------------------------------------
AMQ9999E: Channel 'C' to host 'a' ended abnormally.
EXPLANATION:
z
ACTION:
w
----- amqrmrsa.c : 2 ----------------------------------------------------------
";
    let (recs, probs) = parse_all(text);
    assert_eq!(recs.len(), 2);
    assert_eq!(recs[0].line, 3);
    assert_eq!(recs[1].line, 1);
    assert_eq!(recs[1].msgid.as_deref(), Some("AMQ9999E"));
    assert!(recs[1].reassembled);
    assert_eq!(
        probs,
        vec![Found {
            code: ProblemCode::InterleavedRecords,
            line: Some(1),
            severity: Severity::Info,
            skipped: 0,
            message: "record of line 1 was written in two parts around the record of line 3 (interleaved writes): joined".into()
        }]
    );
}

fn source_events(text: &str) -> (Vec<Event>, Vec<FileInfo>) {
    let reader = crate::formats::line_source::LineReader::<ErrlogText>::new();
    let opts = ReadOptions::default();
    crate::testkit::read(&reader, "x/errors/AMQERR01.LOG", text, &opts)
}

fn rec(date: &str, user: &str, time: Option<&str>, msg: &str) -> String {
    let t = time
        .map(|t| format!("                    Time({t})\n"))
        .unwrap_or_default();
    format!(
        "{date} - Process(1.1) User({user}) Program(amqrmppa)\n                    Host(h) VRMF(9.1.0.0)\n{t}\n{msg}\n\nEXPLANATION:\nx\nACTION:\ny\n-------------------------------------------------------------------------------\n"
    )
}

#[test]
fn date_order_per_writer_within_one_style() {
    // Two writers with the same header style but different locales:
    // each writer's own evidence (a field above 12) decides its
    // ambiguous dates; the style as a whole is reported as mixed.
    let text = [
        rec(
            "15/07/2024 10:00:00",
            "gb",
            None,
            "AMQ9002I: Channel 'A' is starting.",
        ),
        rec(
            "08/07/2024 10:00:00",
            "gb",
            None,
            "AMQ9002I: Channel 'B' is starting.",
        ),
        rec(
            "07/16/2024 10:00:00",
            "us",
            None,
            "AMQ9002I: Channel 'C' is starting.",
        ),
        rec(
            "07/08/2024 11:00:00",
            "us",
            None,
            "AMQ9002I: Channel 'D' is starting.",
        ),
        rec(
            "08/09/2024 12:00:00",
            "other",
            None,
            "AMQ9002I: Channel 'E' is starting.",
        ),
    ]
    .concat();
    let (evs, infos) = source_events(&text);
    let dates: Vec<String> = evs.iter().map(|e| e.ts.date_naive().to_string()).collect();
    assert_eq!(
        dates,
        vec![
            "2024-07-15",
            "2024-07-08",
            "2024-07-16",
            "2024-07-08",
            "2024-08-09"
        ]
    );
    // The assumed offset is a reading note.
    assert_eq!(
        infos[0].notes,
        ["no UTC offset in the file and no --tz given: UTC assumed"]
    );
    let msgs: Vec<&str> = infos[0]
        .problems
        .iter()
        .map(|p| p.message.as_str())
        .collect();
    assert_eq!(
        msgs,
        vec![
            "headers like `15/07/2024 10:00:00` are written both day first (1) and month first (1) by different writers; read as month/day/year where a writer's own headers do not decide",
            "time goes back: 2 record(s) stamped earlier than a record before them in the file (by up to 687600.000 s), the first at line 11 (after line 1); the timeline shows each at its own time",
        ]
    );
}

#[test]
fn year_first_headers_are_read_beside_day_first_ones() {
    // A Japanese system's log, then the same host's records written with
    // a day-first locale: each style is read its own way.
    let text = [
        rec(
            "2018/10/07 22:16:25",
            "u",
            Some("2018-10-07T13:16:25.000Z"),
            "AMQ9002I: Channel 'A' is starting.",
        ),
        rec(
            "2018/10/08 09:00:00",
            "u",
            None,
            "AMQ9002I: Channel 'B' is starting.",
        ),
        rec(
            "13/10/2018 09:00:00",
            "v",
            None,
            "AMQ9002I: Channel 'C' is starting.",
        ),
    ]
    .concat();
    let (evs, infos) = source_events(&text);
    let ts: Vec<String> = evs
        .iter()
        .map(|e| mqdiag_model::timefmt::rfc3339(&e.ts))
        .collect();
    assert_eq!(
        ts,
        [
            "2018-10-07T22:16:25.000000+09:00",
            "2018-10-08T09:00:00.000000+09:00",
            "2018-10-13T09:00:00.000000+09:00",
        ]
    );
    assert_eq!(infos[0].problem_count, 0, "{:?}", infos[0].problems);
}

#[test]
fn time_attribute_decides_order_and_offset() {
    // 05/07/24 is 5 July (day first) only if local minus Time() is a
    // real offset: 7 May would be two months away.
    let text = [
        rec(
            "05/07/24 16:39:06",
            "u",
            Some("2024-07-05T15:39:06.517Z"),
            "AMQ9002I: Channel 'A' is starting.",
        ),
        rec(
            "05/07/24 16:40:00",
            "u",
            None,
            "AMQ9002I: Channel 'B' is starting.",
        ),
    ]
    .concat();
    let (evs, infos) = source_events(&text);
    assert_eq!(
        mqdiag_model::timefmt::rfc3339(&evs[0].ts),
        "2024-07-05T16:39:06.517000+01:00"
    );
    assert_eq!(
        mqdiag_model::timefmt::rfc3339(&evs[1].ts),
        "2024-07-05T16:40:00.000000+01:00"
    );
    assert_eq!(infos[0].problem_count, 0);
    assert_eq!(infos[0].utc_offset_source.as_deref(), Some("data"));
    assert_eq!(evs[0].attr("scope"), Some("system"));
}

#[test]
fn each_record_shows_its_own_offset() {
    let text = [
        rec(
            "03/30/2024 10:00:00 AM",
            "u",
            Some("2024-03-30T09:00:00.000Z"),
            "AMQ9002I: Channel 'A' is starting.",
        ),
        rec(
            "03/31/2024 10:00:00 AM",
            "u",
            Some("2024-03-31T08:00:00.000Z"),
            "AMQ9002I: Channel 'B' is starting.",
        ),
        rec(
            "03/31/2024 11:00:00 AM",
            "u",
            Some("2024-03-31T09:00:00.000Z"),
            "AMQ9002I: Channel 'C' is starting.",
        ),
        rec(
            "03/31/2024 12:00:00 PM",
            "u",
            None,
            "AMQ9002I: Channel 'D' is starting.",
        ),
    ]
    .concat();
    let (evs, infos) = source_events(&text);
    // Each record at the wall clock written in its header.
    assert_eq!(
        mqdiag_model::timefmt::rfc3339(&evs[0].ts),
        "2024-03-30T10:00:00.000000+01:00"
    );
    assert_eq!(
        mqdiag_model::timefmt::rfc3339(&evs[1].ts),
        "2024-03-31T10:00:00.000000+02:00"
    );
    // Without Time(): the offset of its neighbour.
    assert_eq!(
        mqdiag_model::timefmt::rfc3339(&evs[3].ts),
        "2024-03-31T12:00:00.000000+02:00"
    );
    assert_eq!(infos[0].problem_count, 0);
}

#[test]
fn records_without_time_between_a_dst_change_take_the_neighbour_that_fits() {
    let text = [
        rec(
            "10/27/2024 02:50:00 AM",
            "u",
            Some("2024-10-27T00:50:00.000Z"),
            "AMQ9002I: Channel 'A' is starting.",
        ),
        // Inside the run of +02:00 records: no note.
        rec(
            "10/27/2024 02:52:00 AM",
            "u",
            None,
            "AMQ9002I: Channel 'B' is starting.",
        ),
        rec(
            "10/27/2024 02:55:00 AM",
            "u",
            Some("2024-10-27T00:55:00.000Z"),
            "AMQ9002I: Channel 'C' is starting.",
        ),
        // 02:20 fits only +01:00 (01:20Z) between 00:55Z and 01:30Z.
        rec(
            "10/27/2024 02:20:00 AM",
            "u",
            None,
            "AMQ9002I: Channel 'D' is starting.",
        ),
        rec(
            "10/27/2024 02:30:00 AM",
            "u",
            Some("2024-10-27T01:30:00.000Z"),
            "AMQ9002I: Channel 'E' is starting.",
        ),
    ]
    .concat();
    let (evs, infos) = source_events(&text);
    let ts: Vec<String> = evs
        .iter()
        .map(|e| mqdiag_model::timefmt::rfc3339(&e.ts))
        .collect();
    assert_eq!(
        ts,
        [
            "2024-10-27T02:50:00.000000+02:00",
            "2024-10-27T02:52:00.000000+02:00",
            "2024-10-27T02:55:00.000000+02:00",
            "2024-10-27T02:20:00.000000+01:00",
            "2024-10-27T02:30:00.000000+01:00",
        ]
    );
    assert_eq!(infos[0].problem_count, 1);
    assert!(
        infos[0].problems[0]
            .message
            .contains("neighbours disagree on the UTC offset (+02:00 at line"),
        "{}",
        infos[0].problems[0].message
    );
    assert!(infos[0].problems[0].message.ends_with("read at +01:00"));
}

#[test]
fn a_record_cut_before_its_message_is_kept_incomplete() {
    let text = "06/01/19 15:10:52 - Process(193.15) User(root) Program(amqzmuc0)\n                    Host(mqservice) Installation(Installation1)\n";
    let (evs, infos) = source_events(text);
    assert_eq!(evs.len(), 1);
    let e = &evs[0];
    assert_eq!(e.kind, Kind::LogRecord);
    assert_eq!((e.pid, e.tid), (Some(193), Some(15)));
    assert_eq!(e.attr("incomplete"), Some("true"));
    assert_eq!(e.attr("program"), Some("amqzmuc0"));
    assert_eq!(e.attr("local_host"), Some("mqservice"));
    assert!(
        infos[0]
            .problems
            .iter()
            .any(|p| p.line == Some(1) && p.message.ends_with("kept as an incomplete record")),
        "{:?}",
        infos[0].problems
    );
}

#[test]
fn legacy_mqseries_records() {
    let text = "\
01/02/03 10:00:00 AMQ9002: Channel program started.
EXPLANATION: Channel 'A.B' is starting.
ACTION: None.
-------------------------------------------------------------------------------
01/02/03 10:00:05
AMQ9999: Channel program ended abnormally.

EXPLANATION:
Channel program 'A.B' ended abnormally.
ACTION:
Look at previous error messages.
-------------------------------------------------------------------------------
";
    let (evs, infos) = source_events(text);
    assert_eq!(evs.len(), 2);
    assert_eq!(evs[0].text, "AMQ9002: Channel program started.");
    assert_eq!(
        evs[0].attr("explanation"),
        Some("Channel 'A.B' is starting.")
    );
    assert_eq!(evs[0].attr("msgid"), Some("AMQ9002I"));
    assert_eq!(evs[0].pid, None);
    assert_eq!(evs[1].attr("msgid"), Some("AMQ9999E"));
    assert_eq!(evs[1].attr("channel"), Some("A.B"));
    assert_eq!(infos[0].variant.as_deref(), Some("mqseries-5"));
    // The assumed offset is a reading note.
    assert_eq!(
        infos[0].notes,
        ["no UTC offset in the file and no --tz given: UTC assumed"]
    );
    let msgs: Vec<&str> = infos[0]
        .problems
        .iter()
        .map(|p| p.message.as_str())
        .collect();
    assert_eq!(
        msgs,
        vec![
            "date order of headers like `01/02/03 10:00:00` cannot be told: day and month are both 12 or less in all 2 such headers and no Time() attribute decides; read as month/day/year",
        ]
    );
}

#[test]
fn headers_without_user_still_give_the_offset() {
    let text = [
        "04/26/24 10:04:34 - Process(800.4) Program(amqrmppa)\n                    Host(h) VRMF(9.2.0.0) QMgr(Q)\n                    Time(2024-04-26T08:04:34.000Z)\n\nAMQ9002I: Channel 'A' is starting.\n----- amqrccca.c : 1 ----------------------------------------------------------\n",
        "04/26/24 10:05:00 - Process(800.5) Program(amqrmppa)\n                    Host(h) VRMF(9.2.0.0) QMgr(Q)\n\nAMQ9001I: Channel 'A' ended normally.\n----- amqrccca.c : 2 ----------------------------------------------------------\n",
    ]
    .concat();
    let (evs, infos) = source_events(&text);
    assert_eq!(
        mqdiag_model::timefmt::rfc3339(&evs[1].ts),
        "2024-04-26T10:05:00.000000+02:00"
    );
    assert_eq!(infos[0].problem_count, 0);
}

/// A record built in the buffers of one given back keeps nothing of it.
#[test]
fn a_reused_record_starts_empty() {
    let mut p = Parser::default();
    let first = "\
01/02/2024 10:00:00 - Process(1.1) User(mqm) Program(amqrmppa)
                    Host(h1) CommentInsert1(A.B) CommentInsert2(x)
                    Time(2024-01-02T10:00:00.000Z)

AMQ9999E: Channel 'A.B' to host 'x' ended abnormally.

EXPLANATION:
First explanation.

Second paragraph.
ACTION:
First action.
----- amqrmrsa.c : 938 --------------------------------------------------------
";
    let second = "\
01/02/2024 10:00:01 - Process(2.2) User(mqm) Program(amqzlaa0)
                    Time(2024-01-02T10:00:01.000Z)

AMQ5051I: The queue manager task 'LOGGER-IO' has started.
----- amqzmgr0.c : 1 ----------------------------------------------------------
";
    let mut no = 0;
    let mut feed = |p: &mut Parser, text: &str| {
        for l in text.lines() {
            no += 1;
            p.feed(no, l);
        }
    };
    feed(&mut p, first);
    let Some(Item::Record(r)) = p.out.pop_front() else {
        panic!("first record");
    };
    assert_eq!(r.attrs().count(), 4);
    assert_eq!(
        join_paragraphs(r.section_lines(0)),
        "First explanation.\nSecond paragraph."
    );
    p.recycle(r);
    feed(&mut p, second);
    p.finish();
    let Some(Item::Record(r)) = p.out.pop_front() else {
        panic!("second record");
    };
    assert!(p.spare.is_none(), "the spare buffers were taken");
    assert_eq!(
        r.attrs().collect::<Vec<_>>(),
        [("Time", "2024-01-02T10:00:01.000Z")]
    );
    assert_eq!(r.msgid.as_deref(), Some("AMQ5051I"));
    assert_eq!(
        r.summary_lines().collect::<Vec<_>>(),
        ["The queue manager task 'LOGGER-IO' has started."]
    );
    assert_eq!(r.section_lines(0).count() + r.section_lines(1).count(), 0);
    assert_eq!(r.source.as_deref(), Some("amqzmgr0.c:1"));
    assert_eq!(r.header.program.as_deref(), Some("amqzlaa0"));
}

/// The first pass skips an attribute line only when scanning it could
/// not give Time, VRMF, or a QMgr/Host it still wants.
#[test]
fn first_pass_scans_the_lines_that_name_what_it_reads() {
    let wanted = |l: &str, q: bool, h: bool| names_wanted(l.as_bytes(), q, h);
    assert!(wanted("Time(2024-01-02T10:00:00.000Z)", false, false));
    assert!(wanted("VRMF(9.3.0.15) QMgr(QM1)", false, false));
    assert!(wanted("Host(h) Installation(Installation1)", false, true));
    assert!(!wanted("Host(h) Installation(Installation1)", true, false));
    assert!(wanted("QMgr(QM1)", true, false));
    assert!(!wanted(
        "ArithInsert1(1) CommentInsert1(APP.SVRCONN)",
        true,
        true
    ));
    // A name inside a value is a candidate; the scanner then decides.
    assert!(wanted("CommentInsert1(at Time(x))", false, false));
    assert!(!wanted("(Time", true, true));
}

/// Each record carries its catalogue row, and a record met again (the
/// memo's answer) gets the attributes the first one got.
#[test]
fn records_carry_their_catalogue_row() {
    let msgs = [
        "AMQ9209E: Connection to host 'app (10.1.0.5)' for channel 'APP.SVRCONN' closed.",
        "AMQ9002I: Channel 'A' is starting.",
        "AMQ1234X: Not in the catalogue.",
        "AMQ9209E: Connection to host 'app (10.1.0.5)' for channel 'APP.SVRCONN' closed.",
        "AMQ9209E: Connection to host 'app (10.1.0.6)' for channel 'APP.SVRCONN' closed.",
    ];
    let text: String = msgs
        .iter()
        .enumerate()
        .map(|(i, m)| {
            rec(
                &format!("07/16/2024 10:00:0{i}"),
                "mqm",
                Some(&format!("2024-07-16T10:00:0{i}.000Z")),
                m,
            )
        })
        .collect();
    let (evs, _) = source_events(&text);
    assert_eq!(evs.len(), msgs.len());
    for e in &evs {
        let id = e.get(mqdiag_model::event::Key::Msgid).expect("msgid");
        assert_eq!(e.catalog, crate::catalog::row_of(id), "{id}");
    }
    assert_eq!(
        crate::catalog::entry_of(&evs[0]).map(|x| x.id),
        Some("AMQ9209")
    );
    assert_eq!(evs[2].catalog, mqdiag_model::event::CatalogRow::NONE);
    let attrs = |e: &Event| -> Vec<(String, String)> {
        e.attrs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .filter(|(k, _)| !k.contains("time"))
            .collect()
    };
    assert_eq!(attrs(&evs[0]), attrs(&evs[3]));
    assert_eq!(
        evs[4].get(mqdiag_model::event::Key::Address),
        Some("10.1.0.6")
    );
    assert_eq!(
        evs[0].get(mqdiag_model::event::Key::Address),
        Some("10.1.0.5")
    );
}

/// The first pass's block skip passes over exactly the lines, one by one,
/// `cannot_be_header` would: CR, CRLF, blank and non-ASCII first bytes,
/// and a last line without its line end.
#[test]
fn block_skip_is_the_line_test() {
    let pieces: [&[u8]; 12] = [
        b"\n",
        b"\r\n",
        b"\r",
        b" ",
        b"\t",
        b"7",
        b"A",
        b"-",
        b"\xc3\xa9",
        b"x",
        b"\x0b",
        b"(",
    ];
    let mut rng = mqdiag_model::testrng::Rng::new(25);
    for _ in 0..20_000 {
        let mut block = Vec::new();
        for _ in 0..rng.below(12) {
            block.extend_from_slice(pieces[rng.below(pieces.len())]);
        }
        let (n, count) = non_header_lines(&block);
        // Line by line, as `LineReader` splits them (one CR before the
        // line end dropped).
        let mut want = (0, 0);
        let mut at = 0;
        while let Some(i) = memchr::memchr(b'\n', &block[at..]) {
            let mut line = &block[at..at + i];
            if line.last() == Some(&b'\r') {
                line = &line[..line.len() - 1];
            }
            if !cannot_be_header(line) {
                break;
            }
            at += i + 1;
            want = (at, want.1 + 1);
        }
        assert_eq!((n, count), want, "{:?}", String::from_utf8_lossy(&block));
    }
}

/// The first pass's byte tests answer what the decoded line's do, for
/// every line whose first non-blank byte is ASCII.
#[test]
fn byte_tests_are_the_text_tests() {
    let pieces: [&[u8]; 14] = [
        b" ",
        b"\t",
        b"\x0b",
        b"Host",
        b"Time",
        b"x1",
        b"(",
        b")",
        b"9",
        b"\xc3\xa9",
        b"\xff",
        b"VRMF",
        b"\xe2\x80\x83",
        b"_",
    ];
    let mut rng = mqdiag_model::testrng::Rng::new(26);
    for _ in 0..50_000 {
        let mut line = Vec::new();
        for _ in 0..rng.below(7) {
            line.extend_from_slice(pieces[rng.below(pieces.len())]);
        }
        let lead = ascii_indent(&line);
        let rest = &line[lead..];
        if !rest
            .first()
            .is_none_or(|&b| b < 0x80 && !b.is_ascii_digit())
        {
            continue;
        }
        let text = String::from_utf8_lossy(&line);
        let t = trim_start(&text);
        assert_eq!(t.as_bytes(), &text.as_bytes()[lead..], "{text:?}");
        assert!(!t.as_bytes().first().is_some_and(u8::is_ascii_digit));
        assert_eq!(rest.is_empty(), t.is_empty());
        if !t.is_empty() {
            assert_eq!(
                is_attr_bytes(rest, lead > 0),
                is_attr_line(&text, t),
                "{text:?}"
            );
            for (q, h) in [(false, false), (true, true)] {
                assert_eq!(
                    names_wanted(rest, q, h),
                    names_wanted(t.as_bytes(), q, h),
                    "{text:?}"
                );
            }
        }
    }
}

/// The sniffer asks its anchored patterns only of lines that can start
/// as they do: each way a head is taken still scores as before, digits
/// outside ASCII included (`\d` is any Unicode digit).
#[test]
fn sniff_scores_each_shape() {
    let s = |t: &str| <ErrlogText as Standalone>::sniff("x.LOG", t.as_bytes());
    let cases = [
        "03/12/24 10:00:03 - Process(4000.1) User(mqm) Program(amqrmppa)\n",
        "  03/12/24 10:00:03 - Process(4000.1) User(mqm) Program(amqrmppa)\n",
        "03/12/24 10:00:03\nAMQ9999E: Channel ended.\n",
        "03/12/24 10:00:03 AMQ9999E: Channel ended.\nx\n",
        "٠٣/١٢/٢٤ ١٠:٠٠:٠٣\nAMQ9999E: Channel ended.\n",
        "٠٣/١٢/٢٤ ١٠:٠٠:٠٣ AMQ9999E: x\nx\n",
        "-----  x.c : 12 ------\nAMQ9999E: Channel ended.\nmore\n",
        "----- amqxfdcx.c : 1041 ------\nAMQ9999E: Channel ended.\nmore\n",
        "| IBM MQ First Failure Symptom Report |\n| Probe Id :- XY |\n",
    ];
    let got: Vec<u8> = cases.iter().map(|c| s(c)).collect();
    // As the patterns asked of every line scored them.
    assert_eq!(got, [95, 93, 95, 95, 85, 85, 0, 60, 0]);
}
