//! Application activity trace as IBM's `amqsact` sample prints it: one
//! `mqi-call` event per MQI operation, with its verb, completion and reason
//! codes, options by name, object, and the queue manager's own duration of
//! the call (`QMgr Operation Duration`, microseconds, MQ 8.0.0.2 and later).
//!
//! Shape, from public sources: the sample's source (`amqsact0.c`, shipped
//! with MQ and published in public repositories) prints each activity trace
//! message as `MonitoringType: MQI Activity Trace`, the connection's
//! `Correl_id:` as a hex dump, `Name: value` lines for the application
//! (`QueueManager: 'QM1'`, `Host Name`, `ApplicationName`, `ApplicationPid`,
//! `UserId`, `Channel Name`, `ConnName`; strings in quotes), then with `-v`
//! one group per operation, `MQI Operation: N`, whose fields are indented
//! two spaces (`Operation Id: MQXF_PUT`, `ApplicationTid`, `OperationDate`,
//! `OperationTime`, `High Res Time` (µs since 1970, UTC), `Completion
//! Code: MQCC_OK`, `Reason Code: 2053`, `Hobj`, `Put Options: 8260`,
//! `Object_name`, `QMgr Operation Duration`), and a line of `=` after each
//! message. Without `-v` it prints one line per operation under a
//! `Tid Date Time Operation CompCode MQRC HObj (ObjName)` heading, without
//! durations; those lines are read too. Field meanings: IBM MQ
//! documentation, "Application activity trace message reference" and
//! "Variable parameters for application activity MQI operations"; David
//! Ware, "How long is that MQ call taking?" (IBM Community, 2015). A whole
//! real capture of `amqsact -v` output was not found: the layout is the
//! sample source's, the values in our fixture are ours.

use super::line_source::{FileCtx, LineFormat, Standalone};
use crate::input::Input;
use crate::lines::LineMeta;
use chrono::{DateTime, NaiveDateTime, TimeZone};
use mqdiag_model::event::{Event, Format, FormatFamily, FormatInfo, Key, Kind, Ts};
use mqdiag_model::mqconst;
use mqdiag_model::problem::{ProblemCode, Severity};
use mqdiag_model::text::{decode_line, looks_like_text};
use std::sync::Arc;

pub(crate) static FORMAT: Format = Format::of(&FormatInfo {
    name: "activity-trace",
    family: FormatFamily::Other,
    states_local_time: true,
    dataset: "ibmmq.activity",
    host_is_writer: false,
});

/// The application of one activity trace message.
#[derive(Debug, Default, Clone)]
struct App {
    qmgr: Option<String>,
    host: Option<String>,
    appl: Option<String>,
    pid: Option<u32>,
    user: Option<String>,
    channel: Option<String>,
    conname: Option<String>,
    /// The connection id (`Correl_id`, hex).
    conn: String,
    in_correl: bool,
}

/// One operation's fields as read.
#[derive(Debug, Default)]
struct Op {
    line: u64,
    offset: u64,
    fields: Vec<(String, String)>,
}

impl Op {
    fn get(&self, name: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

#[derive(Default)]
pub(crate) struct State {
    app: App,
    op: Option<Op>,
    ops: u64,
    other: u64,
    first_other: Option<u64>,
    terse: bool,
    verbose: bool,
}

/// `'QM1'` → `QM1`.
fn unquote(v: &str) -> &str {
    let v = v.trim();
    v.strip_prefix('\'')
        .and_then(|v| v.strip_suffix('\''))
        .unwrap_or(v)
        .trim()
}

/// `MQXF_PUT` → `MQPUT`, `MQXF_CONNX` → `MQCONNX`.
fn verb_of(op: &str) -> String {
    match op.trim().strip_prefix("MQXF_") {
        Some(v) => format!("MQ{v}"),
        None => op.trim().to_string(),
    }
}

/// `Label: value` at the line's indent.
fn field(line: &str) -> Option<(usize, &str, &str)> {
    let indent = line.len() - line.trim_start().len();
    let (k, v) = line
        .trim_start()
        .split_once(": ")
        .or_else(|| line.trim_start().strip_suffix(':').map(|k| (k, "")))?;
    if k.is_empty() || k.len() > 40 {
        return None;
    }
    Some((indent, k.trim(), v))
}

/// A hex dump row of the `Correl_id`: `00000000:  414D 5143 ...  'AMQC...'`.
fn dump_hex(line: &str) -> Option<String> {
    let t = line.trim_start();
    let (addr, rest) = t.split_once(':')?;
    if addr.len() != 8 || !addr.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let hex: String = rest
        .split('\'')
        .next()
        .unwrap_or("")
        .split_whitespace()
        .filter(|w| w.bytes().all(|b| b.is_ascii_hexdigit()))
        .collect();
    Some(hex)
}

/// One line of the terse form: thread, time, operation, completion code,
/// reason, object name.
type Terse<'a> = (u32, NaiveDateTime, &'a str, &'a str, u32, Option<&'a str>);

/// A line of the terse form: `001 2026-03-02 10:20:00  MQXF_PUT  MQCC_OK  0000  2 (ORDERS.IN)`.
fn terse(line: &str) -> Option<Terse<'_>> {
    // Asked of every line: most lines of `-v` output hold no `MQXF_`
    // after their first word, and are refused before words are split.
    if !line.contains("MQXF_") {
        return None;
    }
    let w: Vec<&str> = line.split_whitespace().collect();
    if w.len() < 6 || !w[3].starts_with("MQXF_") {
        return None;
    }
    let tid = w[0].parse().ok()?;
    let at =
        NaiveDateTime::parse_from_str(&format!("{} {}", w[1], w[2]), "%Y-%m-%d %H:%M:%S").ok()?;
    let rc = w[5].parse().ok()?;
    let obj = line
        .rfind('(')
        .and_then(|i| line[i + 1..].strip_suffix(')'));
    Some((tid, at, w[3], w[4], rc, obj))
}

/// The format's specifics: `LineReader<ActivityTrace>` is its reader.
pub(crate) struct ActivityTrace;

impl Standalone for ActivityTrace {
    const FORMAT: Format = FORMAT;
    const FUZZ: super::Fuzz = super::Fuzz {
        target: "activity_trace",
        names: &["amqsact.txt"],
    };
    const SNIFF_CEILING: u8 = 95;

    fn sniff(_name: &str, head: &[u8]) -> u8 {
        use memchr::memmem::find;
        if find(head, b"MonitoringType: MQI Activity Trace").is_some() && looks_like_text(head) {
            return 95;
        }
        if find(head, b"Operation Id: MQXF_").is_some() && looks_like_text(head) {
            return 70;
        }
        0
    }

    fn new(_: super::Prepared) -> ActivityTrace {
        ActivityTrace
    }
}

impl ActivityTrace {
    fn flush(&mut self, st: &mut State, ctx: &mut FileCtx) {
        let Some(op) = st.op.take() else {
            return;
        };
        let Some(ts) = op_time(&op, ctx) else {
            ctx.info.problem(
                ProblemCode::MissingTime,
                Some(op.line),
                Severity::Warning,
                1,
                "an MQI operation without High Res Time or OperationDate/OperationTime: skipped"
                    .to_string(),
            );
            return;
        };
        let verb = op.get("Operation Id").map(verb_of).unwrap_or_default();
        let mut e = Event::new(
            ts,
            ctx.origin.clone(),
            op.line,
            Kind::MqiCall,
            String::new(),
        );
        e.offset = op.offset;
        e.pid = st.app.pid;
        e.tid = op.get("ApplicationTid").and_then(|t| t.trim().parse().ok());
        // The connection: the last 8 bytes of its 24-byte id, as `DISPLAY
        // CONN` shows CONN (the first 16 name the queue manager, EXTCONN).
        if st.app.conn.len() >= 16 {
            let c = &st.app.conn;
            e.ident = Some(Arc::from(&c[c.len() - 16..]));
        }
        let reason = op.get("Reason Code").map(str::trim);
        let cc = op.get("Completion Code").map(str::trim);
        let dur = op.get("QMgr Operation Duration").map(str::trim);
        let object = op
            .get("Object_name")
            .or(op.get("Resolved_Q_Name"))
            .map(unquote)
            .filter(|o| !o.is_empty());
        let options = op.fields.iter().find_map(|(k, v)| {
            // Every options label ends so (`Put Options`, `Open_options`).
            let tail = k.len().checked_sub(6).and_then(|i| k.get(i..))?;
            if !tail.eq_ignore_ascii_case("ptions") {
                return None;
            }
            let f = mqconst::field(k)?;
            let n: u32 = v.trim().parse::<i64>().ok().map(|n| n as u32)?;
            Some(mqconst::decode(f, n))
        });
        let mut text = verb.clone();
        if let Some(o) = object {
            text.push_str(&format!(" {o}"));
        }
        if let Some(c) = cc {
            text.push_str(&format!(" {c}"));
        }
        if let Some(r) = reason {
            text.push_str(&format!(" reason {r}"));
            if let Some(n) = r.parse().ok().and_then(mqdiag_model::mqrc::name)
                && r != "0"
            {
                text.push_str(&format!(" {n}"));
            }
        }
        if let Some(o) = &options {
            text.push_str(&format!(" options {o}"));
        }
        if let Some(d) = dur {
            text.push_str(&format!(" ({d} us in the queue manager)"));
        }
        e.text = text;
        e.set(Key::Verb, &verb);
        e.function = Some(Arc::from(verb.as_str()));
        if let Some(r) = reason {
            e.set(Key::Reason, r);
            if let Some(n) = r.parse().ok().and_then(mqdiag_model::mqrc::name) {
                e.set(Key::ReasonName, n);
            }
            e.rc = Some(r.to_string());
        }
        if let Some(d) = dur.filter(|d| d.parse::<u64>().is_ok()) {
            e.set(Key::DurationUs, d);
            e.elapsed_us = d.parse().ok();
        }
        if let Some(o) = &options {
            e.set(Key::Options, o);
        }
        if let Some(o) = object {
            e.set(Key::Object, o);
            e.set(Key::Queue, o);
        }
        let app = &st.app;
        for (k, v) in [
            (Key::Qmgr, &app.qmgr),
            (Key::Appl, &app.appl),
            (Key::Program, &app.appl),
            (Key::User, &app.user),
            (Key::Channel, &app.channel),
            (Key::Address, &app.conname),
        ] {
            if let Some(v) = v {
                e.set(k, v);
            }
        }
        for (k, v) in &op.fields {
            let v = unquote(v);
            if !v.is_empty() {
                e.set_attr_named(k.to_ascii_lowercase().replace(' ', "_"), v);
            }
        }
        st.ops += 1;
        ctx.emit(e);
    }
}

/// The operation's time: `High Res Time` (µs since 1970, UTC), else its
/// date and time on the file's offset.
fn op_time(op: &Op, ctx: &mut FileCtx) -> Option<Ts> {
    if let Some(us) = op
        .get("High Res Time")
        .and_then(|v| v.trim().parse::<i64>().ok())
        .filter(|us| *us > 0)
        && let Some(t) = DateTime::from_timestamp_micros(us)
    {
        return Some(t.fixed_offset());
    }
    let date = unquote(op.get("OperationDate")?);
    let time = unquote(op.get("OperationTime")?);
    let t = NaiveDateTime::parse_from_str(&format!("{date} {time}"), "%Y-%m-%d %H:%M:%S")
        .or_else(|_| NaiveDateTime::parse_from_str(&format!("{date} {time}"), "%Y-%m-%d %H.%M.%S"))
        .ok()?;
    let off = ctx.fallback_offset();
    off.from_local_datetime(&t).single()
}

impl LineFormat for ActivityTrace {
    // One application's operations after another's: their times
    // interleave by nature.
    const TIME_ORDERED: bool = false;

    type File = State;

    fn open_file(&mut self, _input: &Input, _ctx: &mut FileCtx) -> State {
        State::default()
    }

    fn line(&mut self, st: &mut State, ctx: &mut FileCtx, meta: LineMeta, bytes: &[u8]) {
        let line = decode_line(bytes).0;
        let line: &str = &line;
        let t = line.trim();
        if t.is_empty() {
            return;
        }
        if t.starts_with("MonitoringType:") {
            self.flush(st, ctx);
            st.app = App::default();
            return;
        }
        if t.starts_with("=====") {
            self.flush(st, ctx);
            return;
        }
        if st.app.in_correl
            && let Some(hex) = dump_hex(line)
        {
            st.app.conn.push_str(&hex);
            return;
        }
        st.app.in_correl = false;
        if let Some((tid, at, op, cc, rc, obj)) = terse(line) {
            st.terse = true;
            let off = ctx.fallback_offset();
            let Some(ts) = off.from_local_datetime(&at).single() else {
                return;
            };
            let mut o = Op {
                line: meta.no,
                offset: meta.offset,
                fields: vec![
                    ("Operation Id".into(), op.to_string()),
                    ("ApplicationTid".into(), tid.to_string()),
                    ("Completion Code".into(), cc.to_string()),
                    ("Reason Code".into(), rc.to_string()),
                ],
            };
            if let Some(ob) = obj {
                o.fields.push(("Object_name".into(), ob.to_string()));
            }
            let us = ts.timestamp_micros();
            o.fields.push(("High Res Time".into(), us.to_string()));
            self.flush(st, ctx);
            st.op = Some(o);
            self.flush(st, ctx);
            return;
        }
        let Some((indent, k, v)) = field(line) else {
            if !t.starts_with("Tid ") && !t.ends_with("Records Processed.") {
                st.other += 1;
                st.first_other.get_or_insert(meta.no);
            }
            return;
        };
        if indent == 0 && k == "MQI Operation" {
            self.flush(st, ctx);
            st.verbose = true;
            st.op = Some(Op {
                line: meta.no,
                offset: meta.offset,
                fields: Vec::new(),
            });
            return;
        }
        if indent > 0
            && let Some(op) = &mut st.op
        {
            if op.fields.len() < 256 {
                op.fields.push((k.to_string(), v.to_string()));
            }
            return;
        }
        // The application's facts, before its operations.
        self.flush(st, ctx);
        let a = &mut st.app;
        let v = unquote(v);
        let set = |slot: &mut Option<String>| {
            if !v.is_empty() {
                *slot = Some(v.to_string());
            }
        };
        match k {
            "QueueManager" => set(&mut a.qmgr),
            "Host Name" => {
                set(&mut a.host);
                if ctx.info.host.is_none() && !v.is_empty() {
                    ctx.info.host = Some(v.to_string());
                }
            }
            "ApplicationName" => {
                set(&mut a.appl);
                if ctx.info.process.is_none() && !v.is_empty() {
                    ctx.info.process = Some(v.to_string());
                }
            }
            "ApplicationPid" => {
                a.pid = v.parse().ok();
                if ctx.info.pid.is_none() {
                    ctx.info.pid = a.pid;
                }
            }
            "UserId" => set(&mut a.user),
            "Channel Name" => set(&mut a.channel),
            "ConnName" => set(&mut a.conname),
            "Correl_id" => {
                a.conn.clear();
                a.in_correl = true;
            }
            _ => {}
        }
    }

    fn finish_file(&mut self, mut st: State, ctx: &mut FileCtx) {
        self.flush(&mut st, ctx);
        if st.other > 0 {
            ctx.info.problem(
                ProblemCode::BadLine,
                st.first_other,
                Severity::Info,
                st.other,
                format!("{} line(s) are not amqsact output: skipped", st.other),
            );
        }
        ctx.info.variant = Some(
            match (st.verbose, st.terse) {
                (true, true) => "amqsact -v and terse",
                (false, true) => "amqsact (no durations)",
                _ => "amqsact -v",
            }
            .to_string(),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::line_source::LineReader;
    use crate::testkit;
    use mqdiag_model::timefmt::rfc3339;

    const TEXT: &str = "\
MonitoringType: MQI Activity Trace
Correl_id:
00000000:  414D 5143 514D 3120 2020 2020 2020 2020  'AMQCQM1         '
00000010:  6B57 6B54 2000 0701                      'kWkT ...        '
QueueManager: 'QM1'
Host Name: 'apphost'
ApplicationName: 'orderput'
ApplicationPid: 4711
UserId: 'app1'
MQI Operation: 0
  Operation Id: MQXF_PUT
  ApplicationTid: 3
  OperationDate: '2026-03-02'
  OperationTime: '10:20:00'
  High Res Time: 1772446800123456
  Completion Code: MQCC_FAILED
  Reason Code: 2053
  Hobj: 2
  Put Options: 8260
  Object_name: 'ORDERS.IN'
  QMgr Operation Duration: 124
MQI Operation: 1
  Operation Id: MQXF_CLOSE
  ApplicationTid: 3
  OperationDate: '2026-03-02'
  OperationTime: '10:20:01'
  Completion Code: MQCC_OK
  Reason Code: 0
=============================================================================

1 Records Processed.
";

    #[test]
    fn each_operation_is_a_call_with_its_duration_and_options_by_name() {
        assert_eq!(ActivityTrace::sniff("x", TEXT.as_bytes()), 95);
        let (evs, infos) = testkit::read(
            &LineReader::<ActivityTrace>::new(),
            "amqsact.txt",
            TEXT,
            &Default::default(),
        );
        assert_eq!(evs.len(), 2, "{evs:?}");
        let put = &evs[0];
        assert_eq!(put.kind, Kind::MqiCall);
        assert_eq!(rfc3339(&put.ts), "2026-03-02T10:20:00.123456+00:00");
        assert_eq!(put.get(Key::Verb), Some("MQPUT"));
        assert_eq!(put.get(Key::Reason), Some("2053"));
        assert_eq!(put.get(Key::DurationUs), Some("124"));
        assert_eq!(
            put.get(Key::Options),
            Some("MQPMO_NO_SYNCPOINT+MQPMO_NEW_MSG_ID+MQPMO_FAIL_IF_QUIESCING")
        );
        assert_eq!(put.get(Key::Object), Some("ORDERS.IN"));
        assert_eq!((put.pid, put.tid), (Some(4711), Some(3)));
        assert_eq!(put.ident.as_deref(), Some("6B576B5420000701"));
        assert_eq!(put.line, 10);
        // No High Res Time: the date and time on the fallback offset.
        assert_eq!(rfc3339(&evs[1].ts), "2026-03-02T10:20:01.000000+00:00");
        assert_eq!(evs[1].get(Key::DurationUs), None);
        assert_eq!(infos[0].host.as_deref(), Some("apphost"));
        assert_eq!(infos[0].process.as_deref(), Some("orderput"));
        assert_eq!(infos[0].problem_count, 0, "{:?}", infos[0].problems);
    }

    #[test]
    fn terse_lines_and_junk() {
        let t = "MonitoringType: MQI Activity Trace\nApplicationPid: 9\n\
=============================================================================\n\
Tid Date       Time      Operation       CompCode      MQRC  HObj (ObjName)\n\
001 2026-03-02 10:20:00  MQXF_OPEN       MQCC_OK       0000  2 (ORDERS.IN)\n\
001 2026-03-02 10:20:01  MQXF_PUT        MQCC_FAILED   2053  2 (ORDERS.IN)\n\
garbage line\n";
        let (evs, infos) = testkit::read(
            &LineReader::<ActivityTrace>::new(),
            "a.txt",
            t,
            &Default::default(),
        );
        assert_eq!(evs.len(), 2);
        assert_eq!(evs[1].get(Key::Reason), Some("2053"));
        assert_eq!(evs[1].get(Key::Object), Some("ORDERS.IN"));
        assert_eq!(evs[1].pid, Some(9));
        assert_eq!(infos[0].problem_count, 1);
        for junk in [
            "MQI Operation: 0\n  Operation Id: MQXF_GET\n",
            ":\n: :\n",
            "  : x",
        ] {
            let _ = testkit::read(
                &LineReader::<ActivityTrace>::new(),
                "j",
                junk,
                &Default::default(),
            );
        }
    }
}
