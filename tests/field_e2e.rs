//! End to end: MQ output as it comes from the field (container consoles,
//! z/OS console and SYSLOG excerpts, ffstsummary output, Russian and
//! Japanese files in their own code pages), inventory and timeline
//! snapshotted; the bad cases of each new reader; `--encoding` correcting
//! a wrong guess.

mod common;
use common::{Scratch, jsonl, stdout_of as run};
use serde_json::Value;

/// The z/OS excerpts state no date or offset: both given, so the output
/// does not depend on the files' modification times.
const ARGS: [&str; 5] = ["--tz", "+09:00", "--date", "2021-12-15", "fixtures/field"];

fn files() -> Vec<Value> {
    let mut a = vec!["inventory", "--format", "json"];
    a.extend(ARGS);
    let v: Value = serde_json::from_str(&run(&a)).unwrap();
    v["files"].as_array().unwrap().clone()
}

fn file<'a>(files: &'a [Value], path: &str) -> &'a Value {
    files
        .iter()
        .find(|f| f["path"] == path)
        .unwrap_or_else(|| panic!("{path} not in inventory"))
}

#[test]
fn every_field_input_is_recognised_with_its_events() {
    let files = files();
    let want: [(&str, &str, &str, u64); 13] = [
        ("fixtures/field/CSQ9.console.txt", "zos-joblog", "utf-8", 4),
        ("fixtures/field/FFST.output", "fdc", "utf-8", 3),
        (
            "fixtures/field/de/qmgrs/QMDE/errors/AMQERR01.LOG",
            "errlog-text",
            "utf-8",
            3,
        ),
        (
            "fixtures/field/de/qmgrs/QMDE/errors/AMQERR02.LOG",
            "errlog-text",
            "utf-8",
            1,
        ),
        (
            "fixtures/field/fr/errors/AMQERR01.LOG",
            "errlog-text",
            "utf-8",
            2,
        ),
        ("fixtures/field/M9AD.paste.txt", "zos-joblog", "utf-8", 3),
        ("fixtures/field/SYSA.syslog.txt", "zos-joblog", "utf-8", 3),
        (
            "fixtures/field/container-basic.log",
            "container-log",
            "utf-8",
            11,
        ),
        (
            "fixtures/field/container-json.log",
            "container-log",
            "utf-8",
            5,
        ),
        (
            "fixtures/field/hu/errors/AMQERR01.LOG",
            "errlog-text",
            "windows-1250",
            1,
        ),
        ("fixtures/field/ja/AMQ5424.0.FDC", "fdc", "shift_jis", 1),
        (
            "fixtures/field/ja/errors/AMQERR01.LOG",
            "errlog-text",
            "utf-8",
            2,
        ),
        (
            "fixtures/field/ru/qmgrs/QM1/errors/AMQERR01.LOG",
            "errlog-text",
            "windows-1251",
            2,
        ),
    ];
    assert_eq!(files.len(), want.len());
    for (path, format, enc, events) in want {
        let f = file(&files, path);
        assert_eq!(f["format"], format, "{path}");
        assert_eq!(f["encoding"], enc, "{path}");
        assert_eq!(f["events"], events, "{path}");
    }
    // The cut last lines are located problems, the rest still read.
    let basic = file(&files, "fixtures/field/container-basic.log");
    assert_eq!(basic["problems"][0]["line"], 14);
    let json = file(&files, "fixtures/field/container-json.log");
    assert_eq!(json["problems"][0]["line"], 5);
    // Its last record, cut inside its own time, is kept at the time
    // `kubectl logs --timestamps` put before it, and the row says so.
    assert!(
        json["problems"][0]["message"]
            .as_str()
            .unwrap()
            .ends_with("at the collector's time 2021-12-15T23:39:21.000100Z"),
        "{json}"
    );
    assert!(
        json["variant"]
            .as_str()
            .unwrap()
            .ends_with("the wrapper's for 1 line(s) without their own"),
        "{json}"
    );
    assert_eq!(json["last"], "2021-12-15T23:39:21.000100+00:00");
    assert_eq!(
        file(&files, "fixtures/field/CSQ9.console.txt")["qmgr"],
        "CSQ9"
    );
}

#[test]
fn inventory_and_timeline_snapshots() {
    let mut a = vec!["inventory", "--format", "json"];
    a.extend(ARGS);
    insta::assert_snapshot!("field_inventory_json", run(&a));
    let mut a = vec!["timeline", "--format", "jsonl"];
    a.extend(ARGS);
    insta::assert_snapshot!("field_timeline_jsonl", run(&a));
    let mut a = vec!["timeline"];
    a.extend(ARGS);
    let text = run(&a);
    // Cyrillic and Japanese read in their code pages.
    assert!(text.contains("AMQ9999: Канал 'QM1.QM2' к хосту"), "{text}");
    assert!(text.contains("アクセス違反が発生しました。"), "{text}");
    insta::assert_snapshot!("field_timeline_text", text);
}

#[test]
fn console_shapes_join_and_name_the_subsystem() {
    let mut a = vec!["timeline", "--format", "jsonl"];
    a.extend(ARGS);
    let rows = jsonl(&run(&a));
    let text = |path: &str, line: u64| -> Value {
        rows.iter()
            .find(|r| r["path"] == path && r["line"] == line)
            .cloned()
            .unwrap_or_else(|| panic!("{path}:{line}"))
    };
    // The time-only line continues CSQH004I; IEF403I is not MQ's.
    let h = text("fixtures/field/CSQ9.console.txt", 4);
    assert_eq!(
        h["text"],
        "CSQH004I %CSQ9 CSQHINIT STAT call failed for class MQNLIST, SAF return code=00000004, ESM return code=00000004"
    );
    assert_eq!(h["attrs"]["qmgr"], "CSQ9");
    assert!(
        rows.iter()
            .all(|r| !r["text"].as_str().unwrap().contains("IEF403I"))
    );
    // The console's message number is not part of the message.
    let p = text("fixtures/field/M9AD.paste.txt", 1);
    assert_eq!(p["attrs"]["console_no"], "924");
    assert_eq!(p["attrs"]["channel"], "SYSTEM.DEF.SVRCONN");
    assert_eq!(
        text("fixtures/field/M9AD.paste.txt", 3)["text"],
        "CSQX023I M9AD CSQXSUPR Listener started for port 1414"
    );
    // SYSLOG's yyddd: 21349 is 15 December 2021.
    assert_eq!(
        text("fixtures/field/SYSA.syslog.txt", 1)["ts"],
        "2021-12-15T09:36:19.120000+09:00"
    );
    // Container lines: MQ records with their fields, other programs' text.
    let r = text("fixtures/field/container-basic.log", 8);
    assert_eq!(r["kind"], "log-record");
    assert_eq!(r["attrs"]["channel"], "APP1.SVRCONN");
    assert_eq!(r["attrs"]["address"], "10.1.2.3");
    let t = text("fixtures/field/container-basic.log", 5);
    assert_eq!(
        (t["kind"].as_str(), t["attrs"]["program"].as_str()),
        (Some("text"), Some("mqhtpass"))
    );
    // The same AMQ9209E from the basic and the JSON console.
    let j = text("fixtures/field/container-json.log", 3);
    assert_eq!(j["attrs"]["channel"], r["attrs"]["channel"]);
    assert_eq!(j["attrs"]["msgid"], r["attrs"]["msgid"]);
}

/// A Russian record after 16 KB of English ones: the first bytes are
/// ASCII, so the file is taken for UTF-8 and the Russian line read as
/// Western text; `--encoding` corrects it.
/// A Windows error log of `n` English records, then `tail` (CP1251 bytes).
fn english_then(tail: &[u8]) -> Vec<u8> {
    let head = "15.03.2019 10:12:45 - Process(4512.7) User(MUSR_MQADMIN) Program(amqrmppa.exe)\r\n                      Host(SRV01) Installation(Installation1)\r\n                      VRMF(8.0.0.5) QMgr(QM1)\r\n                     \r\n";
    let english = format!(
        "{head}AMQ9209: Connection to host 'srv02 (10.0.0.5)' for channel 'QM1.QM2' closed.\r\n\r\nEXPLANATION:\r\nAn error occurred receiving data.\r\nACTION:\r\nTell the systems administrator.\r\n----- amqccita.c : 4220 -------------------------------------------------------\r\n"
    );
    let mut bytes = english.repeat(17 * 1024 / english.len() + 1).into_bytes();
    assert!(bytes.len() > 16 * 1024);
    bytes.extend_from_slice(head.as_bytes());
    bytes.extend_from_slice(tail);
    bytes.extend_from_slice(b"\r\n\r\nEXPLANATION:\r\nx\r\nACTION:\r\ny\r\n----- amqrmrsa.c : 938 --------------------------------------------------------\r\n");
    bytes
}

#[test]
fn a_code_page_first_seen_after_the_head_is_decided_where_it_starts() {
    // Pages of English records, then "Канал ... завершил работу" in CP1251:
    // the first 16 KB are ASCII and decide nothing.
    let bytes = english_then(
        b"AMQ9999: \xca\xe0\xed\xe0\xeb 'QM1.QM2' \xe0\xe2\xe0\xf0\xe8\xe9\xed\xee \xe7\xe0\xe2\xe5\xf0\xf8\xe8\xeb \xf0\xe0\xe1\xee\xf2\xf3.",
    );
    let dir = Scratch::new("field-late");
    let path = dir.write("qmgrs/QM1/errors/AMQERR01.LOG", &bytes);
    let p = path.to_str().unwrap();
    let rows = run(&["timeline", p]);
    assert!(
        rows.contains("AMQ9999: Канал 'QM1.QM2' аварийно завершил работу."),
        "{rows}"
    );
    let inv = run(&["inventory", p]);
    assert!(inv.contains("encoding windows-1251"), "{inv}");
}

#[test]
fn encoding_option_corrects_a_wrong_guess() {
    // One Cyrillic letter (й, 0xE9 in CP1251) reads as Western é: too
    // little evidence for any guess to be right.
    let bytes = english_then(b"AMQ9999: Channel 'QM1.QM2' to host 'srv\xe9' ended.");
    let dir = Scratch::new("field-enc");
    let path = dir.write("qmgrs/QM1/errors/AMQERR01.LOG", &bytes);
    let p = path.to_str().unwrap();
    let guessed = run(&["timeline", p]);
    assert!(guessed.contains("host 'srvé' ended."), "{guessed}");
    let forced = run(&["timeline", "--encoding", "cp1251", p]);
    assert!(forced.contains("host 'srvй' ended."), "{forced}");
    let inv = run(&["inventory", "--encoding", "cp1251", p]);
    assert!(inv.contains("encoding windows-1251"), "{inv}");
    // An unknown name is a usage error.
    let r = common::mqdiag(&["inventory", "--encoding", "klingon", p]);
    assert_eq!(r.code, 2, "{}", r.stderr);
}

/// Issue 12 item 4: an AMQ9208E from a German and from an English
/// instance of one queue manager, about the same channel and host, are one
/// channel-error group; the localised texts carry no inserts.
#[test]
fn german_and_english_records_are_one_group() {
    let out = run(&[
        "analyze",
        "--format",
        "json",
        "--tz",
        "+02:00",
        "fixtures/field/de",
    ]);
    let v: Value = serde_json::from_str(&out).unwrap();
    let groups: Vec<&Value> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| {
            f["rule"] == "channel-error"
                && f["metrics"]["message_id"]
                    .as_str()
                    .is_some_and(|m| m.contains("AMQ9208E"))
        })
        .collect();
    // One story per channel: both AMQ9208E (and the German AMQ9999E of
    // the same channel, minutes later) in one finding.
    assert_eq!(groups.len(), 1, "{out}");
    let g = groups[0];
    assert_eq!(g["metrics"]["message_id"], "AMQ9208E, AMQ9999E", "{out}");
    assert_eq!(g["count"], 3, "{out}");
    assert_eq!(g["subject"]["channel"], "APP1.SVRCONN");
    assert_eq!(g["subject"]["host"], "app1");
    assert_eq!(g["subject"]["address"], "10.1.1.5");
    assert_eq!(g["metrics"]["reasons"], "104 x2");
    let paths: Vec<&str> = g["evidence"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["path"].as_str().unwrap())
        .collect();
    for f in [
        "fixtures/field/de/qmgrs/QMDE/errors/AMQERR01.LOG",
        "fixtures/field/de/qmgrs/QMDE/errors/AMQERR02.LOG",
    ] {
        assert!(paths.contains(&f), "{paths:?}");
    }
}

/// French and Japanese records give the same fields as English ones:
/// French quotes with « », Japanese names the host before the channel.
#[test]
fn french_and_japanese_records_carry_channel_and_host() {
    let mut a = vec!["timeline", "--format", "jsonl"];
    a.extend(ARGS);
    let rows = jsonl(&run(&a));
    let attrs = |path: &str, line: u64| -> Value {
        rows.iter()
            .find(|r| r["path"] == path && r["line"] == line)
            .map(|r| r["attrs"].clone())
            .unwrap_or_else(|| panic!("{path}:{line}"))
    };
    for (path, line, msgid) in [
        ("fixtures/field/fr/errors/AMQERR01.LOG", 1, "AMQ9209E"),
        ("fixtures/field/ja/errors/AMQERR01.LOG", 1, "AMQ9999E"),
    ] {
        let x = attrs(path, line);
        assert_eq!(x["msgid"], msgid, "{path}");
        assert_eq!(x["channel"], "APP1.SVRCONN", "{path}");
        assert_eq!(x["host"], "app1", "{path}");
        assert_eq!(x["address"], "10.1.1.5", "{path}");
    }
    // Slow look-ups: a reverse one in French, a forward one in Japanese.
    let fr = attrs("fixtures/field/fr/errors/AMQERR01.LOG", 14);
    assert_eq!(
        (&fr["function"], &fr["seconds"], &fr["reverse"]),
        (
            &Value::from("getnameinfo"),
            &Value::from("10"),
            &Value::from("true")
        )
    );
    let ja = attrs("fixtures/field/ja/errors/AMQERR01.LOG", 13);
    assert_eq!(ja["address"], "app1.example.jp");
    assert_eq!(ja["seconds"], "5");
}
