//! JSON error logs (`AMQERR01.json`, MQ 9.0.4 and later): one object per
//! line. Keys are matched case-insensitively (IBM's table says
//! `ibm_messageID`, real output writes `ibm_messageId`); inserts come as
//! `ibm_arithInsert1`/`ibm_commentInsert1` or, in the 9.0.4 technology
//! preview, `arith_insert_1`/`comment_insert_1`; numbers may come as
//! strings. `ibm_datetime` is UTC. See `shared/formats/error-log.md` §3.

use super::Reader;
use super::errlog_common::{Dedup, path_facts, record_key, rotation_group};
use crate::catalog;
use crate::event::{Event, Format, Kind, Origin};
use crate::input::Input;
use crate::lines::LineReader;
use crate::source::{FileInfo, ReadOptions, Severity, Source};
use crate::text::{decode_line, looks_like_text};
use chrono::{DateTime, FixedOffset};
use serde_json::{Map, Value};
use std::collections::VecDeque;
use std::io::Read;
use std::sync::Arc;

pub struct ErrlogJsonReader;

/// Canonical insert names (as the text log writes them) and the keys each
/// comes under, current and preview spelling.
const INSERTS: &[(&str, &str, &str, &str)] = &[
    (
        "ArithInsert1",
        "ibm_arithinsert1",
        "arith_insert_1",
        "arith_insert1",
    ),
    (
        "ArithInsert2",
        "ibm_arithinsert2",
        "arith_insert_2",
        "arith_insert2",
    ),
    (
        "CommentInsert1",
        "ibm_commentinsert1",
        "comment_insert_1",
        "comment_insert1",
    ),
    (
        "CommentInsert2",
        "ibm_commentinsert2",
        "comment_insert_2",
        "comment_insert2",
    ),
    (
        "CommentInsert3",
        "ibm_commentinsert3",
        "comment_insert_3",
        "comment_insert3",
    ),
    (
        "RemoteHost",
        "ibm_remotehost",
        "ibm_remotehost",
        "remote_host",
    ),
];

/// Whether a line is an MQ JSON log record (by its keys).
fn is_record_line(line: &str) -> bool {
    let t = line.trim_start();
    if !t.starts_with('{') {
        return false;
    }
    match serde_json::from_str::<Value>(t) {
        Ok(Value::Object(m)) => {
            let keys: Vec<String> = m.keys().map(|k| k.to_ascii_lowercase()).collect();
            let has = |k: &str| keys.iter().any(|x| x == k);
            has("ibm_messageid") || (has("message") && has("ibm_datetime"))
        }
        _ => false,
    }
}

impl Reader for ErrlogJsonReader {
    fn format(&self) -> Format {
        Format::ErrlogJson
    }

    fn sniff(&self, name: &str, head: &[u8]) -> u8 {
        if head.is_empty() {
            return if super::errlog_common::rotation_name(name, "json").is_some() {
                20
            } else {
                0
            };
        }
        if !looks_like_text(head) {
            return 0;
        }
        let text = String::from_utf8_lossy(head);
        // The first line may be cut (a copy taken mid-write) and the last
        // line of the sniffed block is cut by the block size: look at a few.
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        let n = lines.len().saturating_sub(1).clamp(1, 20);
        if lines.iter().take(n).any(|l| is_record_line(l)) {
            95
        } else {
            0
        }
    }

    fn group(&self, input: &Input) -> Option<(String, u32)> {
        rotation_group(input, "json")
    }

    fn open(&self, inputs: Vec<Input>, opts: &ReadOptions) -> Box<dyn Source> {
        Box::new(ErrlogJsonSource {
            _opts: opts.clone(),
            inputs: inputs.into(),
            run: None,
            done: Vec::new(),
            dedup: Dedup::default(),
            out: VecDeque::new(),
        })
    }
}

/// A JSON value as text: strings as they are, numbers in decimal.
fn as_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

struct Run {
    info: FileInfo,
    origin: Arc<Origin>,
    lines: Option<LineReader<Box<dyn Read + Send>>>,
    qmgr: Option<String>,
    scope: Option<&'static str>,
    preview_keys: bool,
    duplicates: u64,
}

pub struct ErrlogJsonSource {
    // `ibm_datetime` is always UTC: no --tz needed.
    _opts: ReadOptions,
    inputs: VecDeque<Input>,
    run: Option<Run>,
    done: Vec<FileInfo>,
    dedup: Dedup,
    out: VecDeque<Event>,
}

impl ErrlogJsonSource {
    fn open_next(&mut self) -> bool {
        let Some(input) = self.inputs.pop_front() else {
            return false;
        };
        let mut info = FileInfo::new(&input.display, Format::ErrlogJson, input.bytes);
        let lines = super::open_lines(&input, &mut info);
        if input.bytes == 0 {
            info.problem(None, Severity::Info, 0, "empty file");
        }
        let facts = path_facts(&input.display);
        info.qmgr = facts.qmgr.clone();
        self.run = Some(Run {
            info,
            origin: Origin::of(&input, Format::ErrlogJson),
            lines,
            qmgr: facts.qmgr,
            scope: facts.scope,
            preview_keys: false,
            duplicates: 0,
        });
        true
    }

    fn step(&mut self) -> bool {
        let run = self.run.as_mut().expect("run");
        let Some(reader) = run.lines.as_mut() else {
            return false;
        };
        let Some((meta, bytes)) = super::read_line(reader, &mut run.info) else {
            return false;
        };
        let no = meta.no;
        if meta.truncated {
            run.info.problem(
                Some(no),
                Severity::Warning,
                1,
                format!(
                    "line of {} bytes cut to the first {} bytes: record skipped",
                    meta.full_len,
                    bytes.len()
                ),
            );
            return true;
        }
        let (text, _) = decode_line(bytes);
        let t = text.trim();
        if t.is_empty() {
            return true;
        }
        let obj = match serde_json::from_str::<Value>(t) {
            Ok(Value::Object(m)) => m,
            Ok(_) => {
                run.info.problem(
                    Some(no),
                    Severity::Warning,
                    1,
                    "not a JSON object: line skipped",
                );
                return true;
            }
            Err(e) => {
                let what = if meta.unterminated {
                    "last line is cut short (file still being written?)"
                } else {
                    "invalid JSON"
                };
                // serde counts lines within the one line it was given.
                let why = e.to_string().replace(" at line 1 column ", " at column ");
                run.info.problem(
                    Some(no),
                    Severity::Warning,
                    1,
                    format!("{what}: {why}: line skipped"),
                );
                return true;
            }
        };
        if let Some(e) = self.record(no, obj) {
            let run = self.run.as_mut().expect("run");
            run.info.saw_event(&e.ts);
            self.out.push_back(e);
        }
        true
    }

    fn record(&mut self, no: u64, obj: Map<String, Value>) -> Option<Event> {
        let run = self.run.as_mut().expect("run");
        let fields: Vec<(String, Value)> = obj
            .into_iter()
            .map(|(k, v)| (k.to_ascii_lowercase(), v))
            .collect();
        let get = |k: &str| {
            fields
                .iter()
                .find(|(n, _)| n == k)
                .and_then(|(_, v)| as_text(v))
                .filter(|s| !s.is_empty())
        };
        let message = get("message").unwrap_or_default();
        let msgid = get("ibm_messageid").or_else(|| {
            let id = message.split(':').next().unwrap_or("");
            (id.starts_with("AMQ") && id.len() >= 7).then(|| id.to_string())
        });
        let Some(when) = get("ibm_datetime") else {
            run.info.problem(
                Some(no),
                Severity::Warning,
                1,
                "record without ibm_datetime: skipped",
            );
            return None;
        };
        let ts: DateTime<FixedOffset> = match DateTime::parse_from_rfc3339(&when) {
            Ok(t) => t,
            Err(_) => {
                run.info.problem(
                    Some(no),
                    Severity::Warning,
                    1,
                    format!("ibm_datetime `{when}` cannot be read: record skipped"),
                );
                return None;
            }
        };
        if run.info.utc_offset.is_none() {
            run.info.set_offset(*ts.offset(), "data");
        }
        let pid = get("ibm_processid").and_then(|s| s.trim().parse().ok());
        let tid = get("ibm_threadid").and_then(|s| s.trim().parse().ok());
        let key = match get("ibm_sequence") {
            Some(seq) => record_key(&[&seq, msgid.as_deref().unwrap_or("")]),
            None => record_key(&[
                &when,
                &format!("{pid:?}.{tid:?}"),
                msgid.as_deref().unwrap_or(""),
                &message,
            ]),
        };
        if self.dedup.seen_before(key) {
            run.duplicates += 1;
            return None;
        }
        let mut inserts: Vec<(&str, String)> = Vec::new();
        for (canon, current, preview, other) in INSERTS {
            let v = get(current).or_else(|| {
                get(preview)
                    .inspect(|_| run.preview_keys = true)
                    .or_else(|| get(other))
            });
            if let Some(v) = v {
                inserts.push((canon, v));
            }
        }
        let text = if message.is_empty() {
            msgid.clone().unwrap_or_default()
        } else {
            message.clone()
        };
        let mut e = Event::new(ts, run.origin.clone(), no, Kind::LogRecord, text);
        e.pid = pid;
        e.tid = tid;
        if let Some(id) = &msgid {
            let ins: Vec<(&str, &str)> = inserts.iter().map(|(k, v)| (*k, v.as_str())).collect();
            let x = catalog::extract(id, &catalog::normalise(&message), &ins);
            e.set_attr("msgid", x.msgid);
            if let Some(s) = x.severity {
                e.set_attr("severity", s.to_string());
            }
            if let Some(f) = x.family {
                e.set_attr("family", f);
            }
            for (k, v) in x.attrs {
                e.set_attr(k, v);
            }
        }
        let qmgr = get("ibm_servername").or_else(|| run.qmgr.clone());
        if let Some(q) = &qmgr {
            if e.attr("qmgr").is_none() {
                e.set_attr("qmgr", q.clone());
            }
            if run.info.qmgr.is_none() {
                run.info.qmgr = Some(q.clone());
            }
        }
        if let Some(s) = run.scope {
            e.set_attr("scope", s);
        }
        for (key, attr) in [
            ("ibm_processname", "program"),
            ("ibm_username", "user"),
            ("host", "local_host"),
            ("ibm_installationname", "installation"),
            ("ibm_version", "vrmf"),
            ("module", "source"),
            ("loglevel", "loglevel"),
            ("ibm_sequence", "sequence"),
        ] {
            if let Some(v) = get(key) {
                if attr == "local_host" && run.info.host.is_none() {
                    run.info.host = Some(v.clone());
                }
                if attr == "vrmf" {
                    run.info.mq_version = Some(v.clone());
                }
                e.set_attr(attr, v);
            }
        }
        for (canon, v) in &inserts {
            let name = match *canon {
                "ArithInsert1" => "arith_insert1",
                "ArithInsert2" => "arith_insert2",
                "CommentInsert1" => "comment_insert1",
                "CommentInsert2" => "comment_insert2",
                "CommentInsert3" => "comment_insert3",
                _ => "remote_host",
            };
            e.set_attr(name, v.clone());
        }
        Some(e)
    }

    fn end_file(&mut self) {
        let Some(mut run) = self.run.take() else {
            return;
        };
        self.dedup.end_file();
        let variant = vec![
            if run.preview_keys {
                "9.0.4 preview keys"
            } else {
                "ibm_* keys"
            }
            .to_string(),
        ];
        let read = run.lines.as_ref().map(|l| l.bytes_read());
        super::errlog_common::close_file(&mut run.info, variant, run.duplicates, read);
        self.done.push(run.info);
    }
}

crate::file_by_file!(ErrlogJsonSource);

#[cfg(test)]
mod tests {
    use super::*;

    fn read(name: &str, text: &str) -> (Vec<Event>, Vec<FileInfo>) {
        let mut s: Box<dyn Source> = ErrlogJsonReader.open(
            vec![Input::from_bytes(name, text.as_bytes().to_vec())],
            &ReadOptions::default(),
        );
        let mut evs = Vec::new();
        while let Some(e) = s.next_event() {
            evs.push(e);
        }
        (evs, s.finish())
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
        assert_eq!(e.attr("msgid"), Some("AMQ9209E"));
        assert_eq!(e.attr("channel"), Some("SYSTEM.DEF.SVRCONN"));
        assert_eq!(e.attr("host"), Some("localhost"));
        assert_eq!(e.attr("address"), Some("127.0.0.1"));
        assert_eq!(e.attr("source"), Some("amqccita.c:4214"));
        assert_eq!(e.attr("qmgr"), Some("QM1"));
        assert_eq!(e.attr("scope"), Some("qmgr"));
        assert_eq!(
            crate::timefmt::rfc3339(&e.ts),
            "2018-02-22T06:54:53.942000+00:00"
        );
        let e = &evs[1];
        assert_eq!(e.pid, Some(7846));
        assert_eq!(e.attr("task"), Some("LOGGER-IO"));
        assert_eq!(e.attr("arith_insert2"), Some("1"));
        assert_eq!(infos[0].variant.as_deref(), Some("9.0.4 preview keys"));
        assert_eq!(infos[0].problem_count, 0);
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

    #[test]
    fn sniffs_by_keys() {
        let good = br#"{"ibm_messageId":"AMQ5051I","ibm_datetime":"2017-11-16T09:54:26.332Z","message":"x"}
{"ibm_messageId":"AMQ5051I","ibm_datetime":"2017-11-16T09:54:26.332Z","message":"x"}
"#;
        assert_eq!(ErrlogJsonReader.sniff("anything.txt", good), 95);
        assert_eq!(
            ErrlogJsonReader.sniff("x.json", b"{\"a\":1}\n{\"b\":2}\n"),
            0
        );
        assert_eq!(ErrlogJsonReader.sniff("AMQERR01.json", b""), 20);
    }
}
