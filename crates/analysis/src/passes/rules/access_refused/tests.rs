use super::*;
use crate::passes::testutil::*;

fn rec(line: u64, at: &str, pid_tid: (u32, u32), attrs: &[(&'static str, &str)]) -> Event {
    let mut e = log("qmgrs/QM1/errors/AMQERR01.LOG", line, at, "record", attrs);
    e.pid = Some(pid_tid.0);
    e.tid = Some(pid_tid.1);
    e
}

fn block(line: u64, at: &str, host: &str) -> Event {
    rec(
        line,
        at,
        (5, line as u32),
        &[
            ("msgid", "AMQ9777E"),
            ("qmgr", "QM1"),
            ("channel", "APP.SVRCONN"),
            ("host", host),
            ("address", "10.0.0.9"),
            ("client_user", "bob"),
            ("chlauth_match", "USERSRC(NOACCESS)"),
        ],
    )
}

/// A client thread connecting through APP.SVRCONN and failing with
/// 2035, at `tod` on 2012-05-04 (-04:00).
fn refused_connect(line: u64, tod: &str) -> Vec<Event> {
    let mut chl = trace(
        "c/AMQ7.0.FMT",
        line + 1,
        tod,
        7,
        1,
        Kind::Text,
        "ChlName(APP.SVRCONN) ConnName(qm1(1414))",
    );
    chl.pid = Some(7);
    vec![
        entry("c/AMQ7.0.FMT", line, tod, 7, 1, "MQCONNX"),
        entry("c/AMQ7.0.FMT", line, tod, 7, 1, "trmzstMQCONNX"),
        chl,
        exit(
            "c/AMQ7.0.FMT",
            line + 2,
            tod,
            7,
            1,
            "trmzstMQCONNX",
            "2035",
            10,
        ),
        exit("c/AMQ7.0.FMT", line + 3, tod, 7, 1, "MQCONNX", "2035", 10),
    ]
}

#[test]
fn records_of_one_thread_within_a_second_are_one_refusal_told_by_its_cause() {
    let ev = vec![
        rec(
            1,
            "2024-03-01T10:00:00+00:00",
            (9, 2),
            &[("msgid", "AMQ5540E"), ("appl", "amqsputc"), ("qmgr", "QM1")],
        ),
        rec(
            10,
            "2024-03-01T10:00:00.200+00:00",
            (9, 2),
            &[
                ("msgid", "AMQ5541E"),
                ("connauth_check", "CHCKCLNT(REQUIRED)"),
                ("qmgr", "QM1"),
            ],
        ),
        // The same thread much later: another refusal.
        rec(
            20,
            "2024-03-01T11:00:00+00:00",
            (9, 2),
            &[("msgid", "AMQ5540E"), ("appl", "amqsputc"), ("qmgr", "QM1")],
        ),
        rec(
            30,
            "2024-03-01T11:00:00.100+00:00",
            (9, 2),
            &[("msgid", "AMQ5541E"), ("qmgr", "QM1")],
        ),
    ];
    let out = run(&RULE, &[], &ev);
    assert_eq!(out.len(), 1, "{out:#?}");
    let f = &out[0];
    assert_eq!(f.count, 2);
    assert_eq!(metric(f, "mechanism"), Metric::Str("connauth".into()));
    assert_eq!(metric(f, "check"), Metric::Str("CHCKCLNT(REQUIRED)".into()));
    assert_eq!(
        metric(f, "message_id"),
        Metric::Str("AMQ5540E x2, AMQ5541E x2".into())
    );
    assert_eq!(f.subject.program.as_deref(), Some("amqsputc"));
    assert!(f.title.contains("application 'amqsputc'"), "{}", f.title);
    assert_eq!(f.severity, Severity::Error);
}

#[test]
fn a_client_failure_is_counted_once_across_layers_and_paired_by_channel_and_time() {
    let mut ev = refused_connect(100, "10:00:00.000000");
    // The server's record two seconds later (14:00:02Z is 10:00:02-04:00).
    ev.push(block(1, "2012-05-04T14:00:02+00:00", "client7"));
    ev.sort_by_key(|e| e.ts);
    let out = run(&RULE, &[], &ev);
    assert_eq!(out.len(), 1, "{out:#?}");
    let f = &out[0];
    assert_eq!(metric(f, "client_failures"), Metric::int(1));
    assert_eq!(metric(f, "mechanism"), Metric::Str("chlauth".into()));
    assert_eq!(f.subject.pid, Some(7));
    let files: BTreeSet<&str> = f.evidence.iter().map(|e| e.path.as_str()).collect();
    assert_eq!(files.len(), 2);
    // Outside the window: two stories.
    let apart = run(&RULE, &[("pair_window_s", 1.0)], &ev);
    assert_eq!(apart.len(), 2, "{apart:#?}");
    let client = apart
        .iter()
        .find(|f| metric(f, "mechanism") == Metric::Str("unknown".into()))
        .unwrap();
    assert_eq!(client.count, 1);
    assert_eq!(metric(client, "conname"), Metric::Str("qm1(1414)".into()));
}

#[test]
fn a_record_naming_another_client_host_is_not_the_clients_story() {
    let mut ev = refused_connect(100, "10:00:00.000000");
    ev.push(block(1, "2012-05-04T14:00:01+00:00", "otherhost"));
    ev.sort_by_key(|e| e.ts);
    let info = FileInfo {
        host: Some("client7".into()),
        process: Some("app".into()),
        ..FileInfo::new("c/AMQ7.0.FMT", mqdiag_readers::formats::trace::FORMAT, 0)
    };
    let out = run_with(&RULE, &[], &ev, std::slice::from_ref(&info));
    assert_eq!(out.len(), 2, "{out:#?}");
    // The same host (short name, any case) pairs.
    let mut ev = refused_connect(100, "10:00:00.000000");
    ev.push(block(1, "2012-05-04T14:00:01+00:00", "CLIENT7.example.com"));
    ev.sort_by_key(|e| e.ts);
    let out = run_with(&RULE, &[], &ev, &[info]);
    assert_eq!(out.len(), 1, "{out:#?}");
    assert_eq!(metric(&out[0], "client_program"), Metric::Str("app".into()));
}

#[test]
fn an_old_story_is_info() {
    let ev = vec![block(1, "2024-01-01T10:00:00+00:00", "h")];
    let mut file = FileInfo::new(
        "qmgrs/QM1/errors/AMQERR01.LOG",
        mqdiag_readers::formats::errlog_text::FORMAT,
        0,
    );
    file.last = Some(ts("2024-03-01T10:00:00+00:00"));
    let inputs = std::slice::from_ref(&file);
    let out = run_with(&RULE, &[], &ev, inputs);
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].severity, Severity::Info);
    assert!(
        out[0]
            .title
            .ends_with(" (info, not error: last refused 60 days before the end of its files)"),
        "{}",
        out[0].title
    );
    let out = run_with(&RULE, &[("recent_days", 100.0)], &ev, inputs);
    assert_eq!(out[0].severity, Severity::Error);
    assert!(!out[0].title.contains("info, not"), "{}", out[0].title);
    // Going on until the end of its file: error.
    file.last = Some(ts("2024-01-01T10:00:00+00:00"));
    let out = run_with(&RULE, &[], &ev, std::slice::from_ref(&file));
    assert_eq!(out[0].severity, Severity::Error);
}

#[test]
fn connname_keeps_its_port() {
    assert_eq!(
        paren_value("ChlName(A.B) ConnName(host(1414))", "ConnName(").as_deref(),
        Some("host(1414)")
    );
    assert_eq!(paren_value("ChlName() x", "ChlName("), None);
    assert_eq!(paren_value("ChlName(A", "ChlName("), None);
}

fn mq_event(line: u64, at: &str, attrs: &[(&'static str, &str)]) -> Event {
    let mut e = log("QM1.events.txt", line, at, "event", attrs);
    e.kind = Kind::MqEvent;
    e
}

#[test]
fn an_event_and_a_record_of_the_same_refusal_are_one_occurrence_citing_both() {
    let blocked = |line: u64, at: &str| {
        mq_event(
            line,
            at,
            &[
                ("reason", "2577"),
                ("qualifier", "MQRQ_CHANNEL_BLOCKED_NOACCESS"),
                ("qmgr", "QM1"),
                ("channel", "APP.SVRCONN"),
                ("address", "10.0.0.9"),
                ("client_user", "bob"),
            ],
        )
    };
    let ev = vec![
        block(1, "2024-03-01T10:00:00.010+00:00", "h1"),
        blocked(3, "2024-03-01T10:00:00.020+00:00"),
        // An hour later the event alone: a second occurrence.
        blocked(13, "2024-03-01T11:00:00+00:00"),
        // Warning mode let the channel in: no refusal.
        mq_event(
            23,
            "2024-03-01T11:00:01+00:00",
            &[("reason", "2578"), ("channel", "APP.SVRCONN")],
        ),
    ];
    let out = run(&RULE, &[], &ev);
    assert_eq!(out.len(), 1, "{out:#?}");
    let f = &out[0];
    assert_eq!(f.count, 2);
    assert_eq!(metric(f, "mechanism"), Metric::Str("chlauth".into()));
    assert_eq!(metric(f, "event_messages"), Metric::Int(1));
    let cited: Vec<(&str, u64)> = f.evidence.iter().map(|e| (&*e.path, e.line)).collect();
    assert!(cited.contains(&("qmgrs/QM1/errors/AMQERR01.LOG", 1)), "{cited:?}");
    assert!(cited.contains(&("QM1.events.txt", 3)), "{cited:?}");
}

/// Two events of refusals within a second and no record: two refusals
/// (an event is never the twin of another event).
#[test]
fn two_events_without_a_record_are_two_refusals() {
    let blocked = |line: u64, at: &str| {
        mq_event(
            line,
            at,
            &[
                ("reason", "2577"),
                ("qualifier", "MQRQ_CHANNEL_BLOCKED_NOACCESS"),
                ("qmgr", "QM1"),
                ("channel", "APP.SVRCONN"),
                ("address", "10.0.0.9"),
            ],
        )
    };
    let ev = vec![
        blocked(1, "2024-03-01T10:00:00.010+00:00"),
        blocked(11, "2024-03-01T10:00:00.300+00:00"),
    ];
    let out = run(&RULE, &[], &ev);
    assert_eq!(out.len(), 1, "{out:#?}");
    assert_eq!(out[0].count, 2);
}

#[test]
fn not_authorized_types_by_qualifier_with_user_object_and_options() {
    let ev = vec![
        mq_event(
            1,
            "2024-03-01T10:00:00+00:00",
            &[
                ("reason", "2035"),
                ("qualifier", "MQRQ_OPEN_NOT_AUTHORIZED"),
                ("qmgr", "QM1"),
                ("client_user", "bob"),
                ("appl", "amqsput"),
                ("object", "PAYROLL.IN"),
                ("options", "MQOO_OUTPUT+MQOO_FAIL_IF_QUIESCING"),
            ],
        ),
        mq_event(
            9,
            "2024-03-01T10:00:01+00:00",
            &[
                ("reason", "2035"),
                ("qualifier", "MQRQ_CSP_NOT_AUTHORIZED"),
                ("qmgr", "QM1"),
                ("client_user", "eve"),
            ],
        ),
    ];
    let out = run(&RULE, &[], &ev);
    assert_eq!(out.len(), 2, "{out:#?}");
    let open = out.iter().find(|f| f.title.contains("PAYROLL.IN")).unwrap();
    assert_eq!(metric(open, "mechanism"), Metric::Str("authority".into()));
    assert_eq!(metric(open, "user"), Metric::Str("bob".into()));
    assert_eq!(
        metric(open, "options"),
        Metric::Str("MQOO_OUTPUT+MQOO_FAIL_IF_QUIESCING".into())
    );
    assert!(open.title.contains("open check (Not Authorized type 2)"), "{}", open.title);
    let csp = out.iter().find(|f| f.title.contains("eve")).unwrap();
    assert_eq!(metric(csp, "mechanism"), Metric::Str("connauth".into()));
}

/// A CONNAUTH record as pasted without a time, or dated on a thread.
fn connauth(path: &str, line: u64, at: Option<&str>, id: &'static str) -> Event {
    let attrs: &[(&'static str, &str)] = match id {
        "AMQ5534E" => &[("msgid", "AMQ5534E"), ("client_user", "app")],
        _ => &[("msgid", id), ("connauth_check", "CHCKCLNT(REQDADM)")],
    };
    match at {
        Some(at) => {
            let mut e = log(path, line, at, id, attrs);
            e.pid = Some(9);
            e.tid = Some(1);
            e
        }
        None => {
            let mut e = log(path, line, "2012-05-04T14:00:00+00:00", id, attrs);
            e.ts = mqdiag_model::event::undated();
            e
        }
    }
}

/// Undated records are refusals of their own story: consecutive records
/// of a file join unless a message repeats; no time is joined, paired or
/// shown, and the dated refusal of the same user stays apart.
#[test]
fn undated_records_are_a_story_apart_time_unknown() {
    let at = Some("2012-05-04T14:00:00+00:00");
    let ev = vec![
        connauth("qmgrs/QM1/errors/AMQERR01.LOG", 10, at, "AMQ5534E"),
        connauth("qmgrs/QM1/errors/AMQERR01.LOG", 20, at, "AMQ5542I"),
        connauth("pasted.txt", 1, None, "AMQ5534E"),
        connauth("pasted.txt", 2, None, "AMQ5542I"),
        connauth("pasted.txt", 3, None, "AMQ5534E"),
    ];
    let out = run(&RULE, &[], &ev);
    assert_eq!(out.len(), 2, "{out:#?}");
    let (dated, undated): (Vec<_>, Vec<_>) = out.iter().partition(|f| f.first.is_some());
    assert_eq!(dated.len(), 1);
    assert_eq!(dated[0].count, 1);
    assert!(!dated[0].title.contains("time unknown"));
    let u = undated[0];
    assert_eq!((u.first, u.last), (None, None));
    assert_eq!(u.count, 2, "the repeated AMQ5534E is a second refusal");
    assert!(u.title.ends_with(" (time unknown)"), "{}", u.title);
    assert_eq!(metric(u, "time"), Metric::Str("unknown".into()));
    assert_eq!(metric(u, "mechanism"), Metric::Str("connauth".into()));
    assert_eq!(u.severity, Severity::Error);
}

/// A process whose call's refusal a text line states inside it; the
/// call's exit then names the verb.
fn stated_refusal(pid: u32) -> Vec<Event> {
    let p = "c/AMQ9.0.FMT";
    let line = u64::from(pid) * 3;
    let mut reason = trace(p, line + 1, "10:00:00", pid, 1, Kind::Text, "CompCode=2 Reason=2035");
    reason.ident = Some("RSESS:1".into());
    vec![
        entry(p, line, "10:00:00", pid, 1, "MQCONNX"),
        reason,
        exit(p, line + 2, "10:00:00", pid, 1, "MQCONNX", "2035", 10),
    ]
}

#[test]
fn the_exit_after_a_stated_refusal_names_the_verb_on_its_own_client_only() {
    let mut p = AccessRefused::new(&Settings::defaults(&RULE));
    for pid in 0..=MAX_CLIENTS as u32 {
        for e in stated_refusal(pid) {
            p.observe(&e);
        }
    }
    // One client per process up to the cap, then one for the rest.
    assert_eq!(p.clients.len(), MAX_CLIENTS + 1);
    let own = &p.clients[0];
    assert_eq!((own.pid, own.failures), (Some(0), 1));
    assert_eq!(own.verbs.get("MQCONNX"), Some(&0), "named, not counted twice");
    let rest = &p.clients[MAX_CLIENTS];
    assert_eq!((rest.pid, rest.failures, rest.others.len()), (None, 1, 1));
    // The process past the cap has no client of its own to name it on.
    assert!(rest.verbs.is_empty());
    // A thread forgotten since: met anew, its failing exit is counted
    // again, on the client its process has (found by key).
    p.threads.clear();
    p.observe(&exit("c/AMQ9.0.FMT", 9, "10:00:01", 0, 1, "MQCONNX", "2035", 10));
    assert_eq!(p.clients[0].failures, 2);
}
