use super::*;
use crate::formats::line_source::LineReader;
use crate::testkit;
use mqdiag_model::fileinfo::FileInfo;

const READER: LineReader<ErrlogJson> = LineReader::new();

/// The one-pass index answers what the scan answers: keys in any
/// case, written twice, empty, not text, or not among `KEYS`.
#[test]
fn members_index_agrees_with_member() {
    let mut rng = mqdiag_model::testrng::Rng::new(5);
    let mut names: Vec<&str> = KEYS.to_vec();
    names.extend([
        "IBM_DateTime",
        "Message",
        "ibm_MessageId",
        "other",
        "ibm_datetimex",
        "xbm_datetime",
        "ibm_datetimf",
        "ibm_datet\u{e9}",
        "ibm\u{7f}datetime",
        "ibm_datetime\u{0}",
        "ibm_installationnamex",
        "ibm_installationnam\u{7f}",
        "ibm_commentinsert1ibm_commentinsert1",
        "ib",
        "",
    ]);
    for _ in 0..3000 {
        let mut members: Vec<(Cow<str>, Lean)> = Vec::new();
        for i in 0..rng.below(25) {
            let name = names[rng.below(names.len())];
            // Random case, letter by letter.
            let key: String = name
                .chars()
                .map(|c| {
                    if rng.below(3) == 0 {
                        c.to_ascii_uppercase()
                    } else {
                        c
                    }
                })
                .collect();
            let value = match rng.below(4) {
                0 => Lean::Str(Cow::Owned(format!("v{i}"))),
                1 => Lean::Num(Cow::Owned(i.to_string())),
                2 => Lean::Str(Cow::Borrowed("")),
                _ => Lean::Other,
            };
            members.push((Cow::Owned(key), value));
        }
        let found = Members::new(&members);
        for (slot, k) in KEYS.iter().enumerate() {
            assert_eq!(slot_of(k), slot);
            let keys: Vec<&Cow<str>> = members.iter().map(|m| &m.0).collect();
            assert_eq!(found.at(slot), member(&members, k), "{k} in {keys:?}");
        }
    }
}

fn read(name: &str, text: &str) -> (Vec<Event>, Vec<FileInfo>) {
    testkit::read(&READER, name, text, &ReadOptions::default())
}

#[test]
fn both_key_spellings_and_numbers_as_strings() {
    let text = concat!(
        r#"{"ibm_messageId":"AMQ9209E","ibm_commentInsert1":"localhost (127.0.0.1)","ibm_commentInsert3":"SYSTEM.DEF.SVRCONN","ibm_datetime":"2018-02-22T06:54:53.942Z","ibm_serverName":"QM1","type":"mq_log","host":"box1","loglevel":"ERROR","module":"amqccita.c:4214","ibm_sequence":"1519282493_947814358","ibm_remoteHost":"127.0.0.1","ibm_processId":4927,"ibm_threadId":"4","ibm_version":"9.0.5.0","ibm_processName":"amqrmppa","ibm_userName":"mqm","message":"AMQ9209E: Connection to host 'localhost (127.0.0.1)' for channel 'SYSTEM.DEF.SVRCONN' closed."}"#,
        "\n",
        r#"{"IBM_MESSAGEID":"AMQ5051I","arith_insert_2":1,"comment_insert_1":"LOGGER-IO","ibm_datetime":"2017-11-16T09:54:26.332Z","ibm_processId":"7846","message":"AMQ5051I: The queue manager task 'LOGGER-IO' has started."}"#,
        "\n"
    );
    let (evs, infos) = read("q/qmgrs/QM1/errors/AMQERR01.json", text);
    assert_eq!(evs.len(), 2);
    let e = &evs[0];
    assert_eq!(e.pid, Some(4927));
    assert_eq!(e.tid, Some(4));
    assert_eq!(e.get(AttrKey::Msgid), Some("AMQ9209E"));
    assert_eq!(e.catalog, crate::catalog::row_of("AMQ9209E"));
    assert_eq!(evs[1].catalog, crate::catalog::row_of("AMQ5051I"));
    assert_eq!(e.get(AttrKey::Channel), Some("SYSTEM.DEF.SVRCONN"));
    assert_eq!(e.get(AttrKey::Host), Some("localhost"));
    assert_eq!(e.get(AttrKey::Address), Some("127.0.0.1"));
    assert_eq!(e.get(AttrKey::Source), Some("amqccita.c:4214"));
    assert_eq!(e.get(AttrKey::Qmgr), Some("QM1"));
    assert_eq!(e.get(AttrKey::Scope), Some("qmgr"));
    assert_eq!(
        mqdiag_model::timefmt::rfc3339(&e.ts),
        "2018-02-22T06:54:53.942000+00:00"
    );
    let e = &evs[1];
    assert_eq!(e.pid, Some(7846));
    assert_eq!(e.get(AttrKey::Task), Some("LOGGER-IO"));
    assert_eq!(e.get(AttrKey::ArithInsert2), Some("1"));
    assert_eq!(infos[0].variant.as_deref(), Some("9.0.4 preview keys"));
    // Its second record is stamped before its first: said, not hidden.
    assert_eq!(infos[0].problem_count, 1);
    assert_eq!(
        infos[0].problems[0].code,
        mqdiag_model::problem::ProblemCode::OutOfOrder
    );
}

#[test]
fn a_record_cut_after_its_time_is_kept_incomplete() {
    let text = r#"{"ibm_messageId":"AMQ9209E","ibm_datetime":"2024-01-01T00:00:00.000Z","ibm_processId":4927,"ibm_threadId":"4","message":"AMQ9209E: Connection to host 'a, \"b\"' for cha"#;
    let (evs, infos) = read("AMQERR01.json", text);
    assert_eq!(evs.len(), 1);
    assert_eq!(evs[0].pid, Some(4927));
    assert_eq!(evs[0].tid, Some(4));
    assert_eq!(evs[0].get(AttrKey::Incomplete), Some("true"));
    assert_eq!(
        mqdiag_model::timefmt::rfc3339(&evs[0].ts),
        "2024-01-01T00:00:00.000000+00:00"
    );
    assert_eq!(infos[0].problem_count, 1);
    assert!(
        infos[0].problems[0]
            .message
            .ends_with("kept as an incomplete record"),
        "{}",
        infos[0].problems[0].message
    );
}

#[test]
fn invalid_lines_are_located_and_the_rest_read() {
    let text = concat!(
        r#"{"ibm_messageId":"AMQ9002I","ibm_datetime":"2024-01-01T00:00:00.000Z","message":"AMQ9002I: Channel 'A' is starting."}"#,
        "\n",
        r#"{"ibm_messageId":"AMQ9002I","ibm_datetime":"#,
        "\n",
        "[1,2]\n",
        r#"{"ibm_messageId":"AMQ9001I","message":"AMQ9001I: Channel 'A' ended normally."}"#,
        "\n",
        r#"{"ibm_messageId":"AMQ9001I","ibm_datetime":"2024-01-01T00:00:05.000Z","message":"AMQ9001I: Channel 'A' ended normally."}"#,
        "\n"
    );
    let (evs, infos) = read("AMQERR01.json", text);
    assert_eq!(evs.len(), 2);
    assert_eq!(evs[1].line, 5);
    let p: Vec<(Option<u64>, &str)> = infos[0]
        .problems
        .iter()
        .map(|p| (p.line, p.message.as_str()))
        .collect();
    assert_eq!(
        p,
        vec![
            (
                Some(2),
                "invalid JSON: EOF while parsing a value at column 43: line skipped"
            ),
            (Some(3), "not a JSON object: line skipped"),
            (Some(4), "record without ibm_datetime: skipped"),
        ]
    );
}

/// What `record` used to do: the whole line into a `Value`, keys
/// lower-cased in the map's order, the first match's value as text.
fn by_value(line: &str, k: &str) -> Result<Option<Option<String>>, String> {
    match serde_json::from_str::<Value>(line) {
        Err(e) => Err(e.to_string()),
        Ok(Value::Object(m)) => Ok(Some(
            m.into_iter()
                .map(|(k, v)| (k.to_ascii_lowercase(), v))
                .find(|(n, _)| n == k)
                .and_then(|(_, v)| match v {
                    Value::String(s) => Some(s),
                    Value::Number(n) => Some(n.to_string()),
                    Value::Bool(b) => Some(b.to_string()),
                    _ => None,
                })
                .filter(|s| !s.is_empty()),
        )),
        Ok(_) => Ok(None),
    }
}

#[test]
fn lean_reading_agrees_with_value() {
    let deep = format!("{{\"message\":{}1{}}}", "[".repeat(200), "]".repeat(200));
    let lines = [
        r#"{"ibm_messageId":"AMQ9209E","message":"x","ibm_processId":612}"#,
        r#"{"IBM_MESSAGEID":"A","ibm_messageId":"B","Ibm_MessageId":"C"}"#,
        r#"{"ibm_messageId":"A","ibm_messageId":"B"}"#,
        r#"{"ibm_messageId":"A","IBM_MESSAGEID":null,"ibm_messageId":"B"}"#,
        r#"{"ibm_messageId":"","IBM_MESSAGEID":"x"}"#,
        r#"{ "ibm_processId" : -3, "ibm_threadId":true,"host":null,"message":"" }"#,
        r#"{"ibm_threadid":"1","ibm_threadId":2,"IBM_THREADID":false,"hosT":"h"}"#,
        r#"{"message":"tab\tand \"quotes\" \u00e9 \ud83d\ude00","ibm_processId":-3}"#,
        r#"{"message":"lone \ud800 surrogate"}"#,
        r#"{"message":"bad \x escape"}"#,
        r#"{"ibm_processId":1.5e3,"ibm_threadId":18446744073709551615,"ibm_arithInsert1":-0}"#,
        r#"{"ibm_processId":1e400}"#,
        r#"{"ibm_processId":012}"#,
        r#"{"ibm_processId":true,"message":{"a":[1,{"b":null}]},"host":[]}"#,
        r#"{"m\u0065ssage":"escaped key"}"#,
        r#"{"message":"x"} trailing"#,
        r#"{"message":"x",}"#,
        r#"{"message" "x"}"#,
        r#"{"message":"x""#,
        r#"{"ibm_datetime":"#,
        r#"[1,2]"#,
        r#"[1,2"#,
        r#""just a string""#,
        r#"null"#,
        r#"12"#,
        r#"{}"#,
        "{\"message\":\"raw\u{1}control\"}",
        "{\"message\":\"caf\u{e9} \u{2019}\"}",
        deep.as_str(),
    ];
    for line in lines {
        for k in [
            "message",
            "ibm_messageid",
            "ibm_processid",
            "ibm_threadid",
            "host",
        ] {
            // As `line` reads it: scanned, else by serde_json.
            let lean = match scan_known(line) {
                Some(found) => Ok(Some(found.at(slot_of(k)).map(str::to_string))),
                None => match serde_json::from_str::<Line>(line) {
                    Err(e) => Err(e.to_string()),
                    Ok(Line::Object(m)) => Ok(Some(member(&m, k).map(str::to_string))),
                    Ok(Line::NotObject) => Ok(None),
                },
            };
            assert_eq!(lean, by_value(line, k), "{line} / {k}");
        }
    }
}

#[test]
fn sniffs_by_keys() {
    let good =
        br#"{"ibm_messageId":"AMQ5051I","ibm_datetime":"2017-11-16T09:54:26.332Z","message":"x"}
{"ibm_messageId":"AMQ5051I","ibm_datetime":"2017-11-16T09:54:26.332Z","message":"x"}
"#;
    assert_eq!(ErrlogJson::sniff("anything.txt", good), 95);
    assert_eq!(ErrlogJson::sniff("x.json", b"{\"a\":1}\n{\"b\":2}\n"), 0);
    assert_eq!(ErrlogJson::sniff("AMQERR01.json", b""), 20);
}

#[test]
fn cut_inside_a_string_keeps_it_as_far_as_it_goes() {
    let l = r#"{"ibm_datetime":"2024-08-12T08:32:40.102Z","loglevel":"INFO","message":"Error starting web ser"#;
    let head = cut_record_head(l).unwrap();
    assert!(
        head.ends_with(r#""message":"Error starting web ser"}"#),
        "{head}"
    );
    // Cut inside a key or after an escape: the whole members only.
    let l = r#"{"ibm_datetime":"2024-08-12T08:32:40.102Z","loglevel":"INFO","mess"#;
    assert_eq!(
        cut_record_head(l).as_deref(),
        Some(r#"{"ibm_datetime":"2024-08-12T08:32:40.102Z","loglevel":"INFO"}"#)
    );
    let l = r#"{"ibm_datetime":"2024-08-12T08:32:40.102Z","message":"a \"#;
    assert_eq!(
        cut_record_head(l).as_deref(),
        Some(r#"{"ibm_datetime":"2024-08-12T08:32:40.102Z"}"#)
    );
    // Cut inside the time itself: nothing to keep.
    assert_eq!(cut_record_head(r#"{"ibm_datetime":"2024-08-1"#), None);
}

/// A record also in the older generation of a rotated set is read once;
/// the same record twice in one file is two events.
#[test]
fn copies_across_generations_are_read_once() {
    let line = |t: &str, ch: &str| {
        format!(
            r#"{{"ibm_messageId":"AMQ9002I","ibm_datetime":"{t}","ibm_processId":1,"ibm_threadId":"1","message":"AMQ9002I: Channel '{ch}' is starting."}}"#
        ) + "\n"
    };
    let older = line("2024-01-01T00:00:00.000Z", "A") + &line("2024-01-01T00:00:01.000Z", "B");
    let newer = line("2024-01-01T00:00:01.000Z", "B")
        + &line("2024-01-01T00:00:02.000Z", "C")
        + &line("2024-01-01T00:00:02.000Z", "C");
    let (evs, _) = testkit::read_inputs(
        &READER,
        vec![
            Input::from_bytes("AMQERR02.json", older.into_bytes()),
            Input::from_bytes("AMQERR01.json", newer.into_bytes()),
        ],
        &ReadOptions::default(),
    );
    let chans: Vec<&str> = evs.iter().filter_map(|e| e.get(AttrKey::Channel)).collect();
    assert_eq!(chans, ["A", "B", "C", "C"]);
}

/// Liberty's `+0000` offsets are read; other damaged times are not.
#[test]
fn times_with_a_colonless_offset() {
    let t = |s: &str| colonless_offset(s).map(|t| t.to_rfc3339());
    assert_eq!(
        t("2024-08-12T08:32:48.120+0000").as_deref(),
        Some("2024-08-12T08:32:48.120+00:00")
    );
    assert_eq!(
        t("2024-08-12T08:32:48-0530").as_deref(),
        Some("2024-08-12T08:32:48-05:30")
    );
    for bad in [
        "2024-08-12T08:32:48.120Z",
        "2024-08-12T08:32:4x.120+0000",
        "+0000",
        "",
        "2024-08-12T08:32:48+00é0",
    ] {
        assert_eq!(t(bad), None, "{bad}");
    }
}

/// A console record cut inside its own time, behind a collector's stamp:
/// kept at the collector's time, and said so; without the stamp, skipped.
#[test]
fn a_record_cut_in_its_time_takes_the_collectors() {
    let read_console = |text: &str| {
        testkit::drain(source(
            vec![Input::from_bytes("pod.log", text.as_bytes())],
            &ReadOptions::default(),
            Flavour::ContainerConsole,
            crate::formats::container_log::FORMAT,
            None,
        ))
    };
    let (evs, infos) = read_console(
        "2021-12-15T23:39:21.000100Z {\"type\":\"mq_containerlog\",\"ibm_datetime\":\"2021-12-15T23:39:2",
    );
    assert_eq!(evs.len(), 1);
    assert_eq!(
        mqdiag_model::timefmt::rfc3339(&evs[0].ts),
        "2021-12-15T23:39:21.000100+00:00"
    );
    assert_eq!(evs[0].get(AttrKey::Incomplete), Some("true"));
    let p = &infos[0].problems[0];
    assert_eq!((p.code, p.line), (ProblemCode::CutRecord, Some(1)));
    assert!(
        p.message.ends_with(
            "kept as an incomplete record at the collector's time 2021-12-15T23:39:21.000100Z"
        ),
        "{}",
        p.message
    );
    let (evs, infos) =
        read_console("{\"type\":\"mq_containerlog\",\"ibm_datetime\":\"2021-12-15T23:39:2");
    assert!(evs.is_empty());
    assert_eq!(infos[0].problems[0].code, ProblemCode::BadLine);
}

/// A `liberty_audit` record's text is its `ibm_audit_*` fields, in the
/// `basic` console's order; absent fields are left out, numbers written.
#[test]
fn audit_records_text_from_their_audit_fields() {
    let line = r#"{"ibm_audit_target.name":"/ibmmq/console/","ibm_audit_outcome":"success","ibm_audit_eventName":"SECURITY_AUTHN","ibm_audit_reason.reasonCode":200,"ibm_datetime":"2025-05-29T12:08:24.057Z","type":"liberty_audit"}"#;
    assert_eq!(
        crate::formats::console::audit_text(line).as_deref(),
        Some(
            r#"AUDIT: eventName="SECURITY_AUTHN" outcome="success" reason.reasonCode="200" target.name="/ibmmq/console/""#
        )
    );
    assert_eq!(
        crate::formats::console::audit_text(r#"{"type":"liberty_audit"}"#),
        None
    );
    assert_eq!(crate::formats::console::audit_text("not json"), None);
}
