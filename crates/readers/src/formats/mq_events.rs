//! Event messages as IBM's samples format them: `amqsevt` text, `amqsevt
//! -o json` (one pretty-printed object per event), `-o json_compact` (one
//! object per line, MQ 9.2.4+) and the Go `amqsevtg` JSON. Each message is
//! one `mq-event` event at its creation time, with its type, reason,
//! qualifier, queue manager, object, user and application as typed
//! attributes and every other field of its data under its name squashed to
//! lower-case letters and digits (`Queue Mgr Name` and `queueMgrName` are
//! both `queuemgrname`), so the text and the JSON forms read alike.
//!
//! Shapes, from public sources:
//!
//! - Text: Mark Taylor, "Formatting MQ Events as JSON" (2016, a Queue Full
//!   event printed by amqsevt): a `**** Message #7 (236 Bytes) on Queue
//!   SYSTEM.ADMIN.PERFM.EVENT ****` header, then `Label : value` lines,
//!   the colon at column 32, the event data indented two more, values with
//!   a name and number as `Queue Full [2053]`, the time as `Event created
//!   : 2016/10/21 07:11:28.58 GMT` (the message's put time, GMT, to
//!   hundredths). Nested groups (a command event's context and data) are
//!   assumed to be a label line without a value, their fields indented
//!   further: no real sample of one was found.
//! - JSON: the same post and "Event formatter changes with MQ 9.2.4"
//!   (`-o json_compact`; the queue manager in `eventSource`):
//!   `eventSource{objectName, objectType, queueMgr}`, `eventType{name,
//!   value}`, `eventReason{name, value}`, `eventCreation{timeStamp,
//!   epoch}`, optional `objectState` and `correlationID`, then `eventData`
//!   with camel-cased labels. Values in `eventData` are taken as strings,
//!   numbers or `{name, value}` pairs alike: which one a given field uses
//!   was not seen in a whole public sample, so all are read.
//! - Field meanings: IBM MQ documentation, "Event message descriptions"
//!   (Not Authorized types 1-6, Channel Blocked, Channel Stopped, Channel
//!   SSL Error, Channel Not Available, Queue Full, Queue Depth High, Queue
//!   Service Interval High/OK, Config and Command events).
//!
//! An event of a type this reader has no special knowledge of is still an
//! event with all its fields: nothing is dropped.

use super::line_source::{FileCtx, LineFormat, Standalone};
use crate::input::Input;
use crate::lines::LineMeta;
use chrono::{DateTime, NaiveDateTime, TimeZone, Utc};
use mqdiag_model::event::{Event, Format, FormatFamily, FormatInfo, Key, Kind, Ts};
use mqdiag_model::problem::{ProblemCode, Severity};
use mqdiag_model::text::{decode_line, looks_like_text};

pub(crate) static FORMAT: Format = Format::of(&FormatInfo {
    name: "mq-events",
    family: FormatFamily::Other,
    states_local_time: false,
    dataset: "ibmmq.events",
    host_is_writer: false,
});

/// The largest JSON object read as one event; larger ones are skipped.
const MAX_OBJECT: usize = 1 << 20;

/// One event message's fields as read, before they become an event.
#[derive(Debug, Default)]
struct Raw {
    line: u64,
    offset: u64,
    /// Squashed name, value as written, number when it has one.
    fields: Vec<(String, String, Option<i64>)>,
    created: Option<Ts>,
    /// Text form: the event queue the header names.
    queue: Option<String>,
}

impl Raw {
    fn first(&self, names: &[&str]) -> Option<&(String, String, Option<i64>)> {
        names
            .iter()
            .find_map(|n| self.fields.iter().find(|f| f.0 == *n))
    }

    fn text_of(&self, names: &[&str]) -> Option<&str> {
        self.first(names)
            .map(|f| f.1.trim())
            .filter(|v| !v.is_empty())
    }

    fn number_of(&self, names: &[&str]) -> Option<i64> {
        self.first(names).and_then(|f| f.2)
    }
}

/// Letters and digits, lower case.
fn squash(s: &str) -> String {
    // Bytes, into one allocation: every line of the text form is asked.
    let s = s.trim_end();
    let mut out = String::with_capacity(s.len());
    for b in s.bytes().filter(u8::is_ascii_alphanumeric) {
        out.push(char::from(b.to_ascii_lowercase()));
    }
    out
}

/// `Queue Full [2053]` → (`Queue Full`, 2053); `17` → (`17`, 17).
fn name_and_number(v: &str) -> (String, Option<i64>) {
    let v = v.trim();
    if let Some(open) = v.rfind(" [")
        && v.ends_with(']')
        && let Ok(n) = v[open + 2..v.len() - 1].trim().parse::<i64>()
    {
        return (v[..open].trim().to_string(), Some(n));
    }
    (v.to_string(), v.parse::<i64>().ok())
}

/// `2016/10/21 07:11:28.58 GMT`.
fn text_time(v: &str) -> Option<Ts> {
    let v = v.trim();
    let v = v.strip_suffix("GMT").unwrap_or(v).trim();
    let t = NaiveDateTime::parse_from_str(v, "%Y/%m/%d %H:%M:%S%.f")
        .or_else(|_| NaiveDateTime::parse_from_str(v, "%Y-%m-%d %H:%M:%S%.f"))
        .ok()?;
    Some(Utc.from_utc_datetime(&t).fixed_offset())
}

/// `2016-10-21T07:11:28Z` (fractions and offsets allowed), or the epoch.
fn json_time(stamp: Option<&str>, epoch: Option<i64>) -> Option<Ts> {
    if let Some(s) = stamp
        && let Ok(t) = DateTime::parse_from_rfc3339(s.trim())
    {
        return Some(t);
    }
    if let Some(s) = stamp
        && let Some(t) = text_time(s)
    {
        return Some(t);
    }
    let e = epoch?;
    // Seconds, or milliseconds from tools that write them.
    let secs = if e > 100_000_000_000 { e / 1000 } else { e };
    DateTime::from_timestamp(secs, 0).map(|t| t.fixed_offset())
}

/// The fields of a JSON value, flattened into `raw` (groups and lists of
/// groups give their fields; a `{name, value}` pair is one field).
fn flatten(key: &str, v: &serde_json::Value, raw: &mut Raw, depth: u32) {
    use serde_json::Value;
    if depth > 16 {
        return;
    }
    match v {
        Value::Object(m) => {
            let name = m.get("name").and_then(Value::as_str);
            let value = m.get("value");
            if m.len() <= 2 && name.is_some() && value.is_some_and(|v| !v.is_object()) {
                let n = value.and_then(Value::as_i64);
                raw.fields
                    .push((squash(key), name.unwrap_or_default().to_string(), n));
                return;
            }
            for (k, v) in m {
                flatten(k, v, raw, depth + 1);
            }
        }
        Value::Array(a) => {
            if a.iter().all(|x| !x.is_object() && !x.is_array()) {
                let s: Vec<String> = a.iter().map(scalar).collect();
                raw.fields.push((squash(key), s.join(", "), None));
            } else {
                for x in a {
                    flatten(key, x, raw, depth + 1);
                }
            }
        }
        _ => {
            let s = scalar(v);
            let (text, n) = match v {
                Value::Number(n) => (s, n.as_i64()),
                _ => {
                    let (t, n) = name_and_number(&s);
                    (if n.is_some() && t != s { s } else { t }, n)
                }
            };
            raw.fields.push((squash(key), text, n));
        }
    }
}

fn scalar(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// A JSON event object read into fields.
fn from_json(v: &serde_json::Value, line: u64, offset: u64) -> Option<Raw> {
    let m = v.as_object()?;
    // What makes an object an event: its type or reason.
    let key = |names: &[&str]| {
        m.iter()
            .find(|(k, _)| names.contains(&squash(k).as_str()))
            .map(|(_, v)| v)
    };
    key(&["eventtype", "eventreason"])?;
    let mut raw = Raw {
        line,
        offset,
        ..Raw::default()
    };
    for (k, v) in m {
        match squash(k).as_str() {
            "eventcreation" | "eventcreated" => {
                let stamp = v
                    .get("timeStamp")
                    .or_else(|| v.get("timestamp"))
                    .and_then(|s| s.as_str())
                    .or(v.as_str());
                let epoch = v.get("epoch").and_then(|e| e.as_i64());
                raw.created = json_time(stamp, epoch);
            }
            "eventsource" => {
                // `objectName` of the source is the event queue; its
                // `queueMgr` the queue manager.
                if let Some(q) = v.get("objectName").and_then(|x| x.as_str()) {
                    raw.queue = Some(q.trim().to_string());
                }
                if let Some(q) = v
                    .get("queueMgr")
                    .or_else(|| v.get("queueManager"))
                    .and_then(|x| x.as_str())
                {
                    raw.fields
                        .push(("sourcequeuemgr".into(), q.trim().to_string(), None));
                }
            }
            "eventtype" => flatten("eventType", v, &mut raw, 0),
            "eventreason" => flatten("reason", v, &mut raw, 0),
            _ => flatten(k, v, &mut raw, 0),
        }
    }
    Some(raw)
}

/// What is known of an event by its reason code: its kind of story.
fn reason_words(reason: i64) -> Option<&'static str> {
    Some(match reason {
        2035 => "Not Authorized",
        2053 => "Queue Full",
        2224 => "Queue Depth High",
        2225 => "Queue Depth Low",
        2226 => "Queue Service Interval High",
        2227 => "Queue Service Interval OK",
        2279 => "Channel Stopped By User",
        2282 => "Channel Started",
        2283 => "Channel Stopped",
        2295 => "Channel Activated",
        2296 => "Channel Not Activated",
        2367 => "Config Create Object",
        2368 => "Config Change Object",
        2369 => "Config Delete Object",
        2370 => "Config Refresh Object",
        2371 => "Channel SSL Error",
        2412 => "Command MQSC",
        2413 => "Command PCF",
        2537 => "Channel Not Available",
        2577 => "Channel Blocked",
        2578 => "Channel Blocked Warning",
        _ => return None,
    })
}

/// The `mq-event` event of a message's fields.
fn event(raw: &Raw, ctx: &mut FileCtx, last: Option<Ts>) -> Option<Event> {
    let ts = match raw.created.or(last) {
        Some(t) => t,
        None => {
            ctx.info.problem(
                ProblemCode::MissingTime,
                Some(raw.line),
                Severity::Warning,
                1,
                "an event message without its creation time and none before it: skipped"
                    .to_string(),
            );
            return None;
        }
    };
    if raw.created.is_none() {
        ctx.info.problem(
            ProblemCode::MissingTime,
            Some(raw.line),
            Severity::Info,
            1,
            "an event message without its creation time: placed at the one before it".to_string(),
        );
    }
    let reason = raw.number_of(&["reason", "eventreason"]);
    let reason_label = raw
        .text_of(&["reason", "eventreason"])
        .map(str::to_string)
        .filter(|s| s.parse::<i64>().is_err())
        .or_else(|| reason.and_then(reason_words).map(str::to_string));
    let event_type = raw.text_of(&["eventtype"]).map(str::to_string);
    let qualifier = raw.first(&["reasonqualifier"]).and_then(|f| {
        f.2.and_then(|n| u32::try_from(n).ok())
            .and_then(mqdiag_model::mqconst::qualifier)
            .or_else(|| mqdiag_model::mqconst::qualifier_named(&f.1))
            .map(|c| c.name.to_string())
            .or_else(|| Some(f.1.trim().to_string()).filter(|s| !s.is_empty()))
    });
    let qmgr = raw.text_of(&["queuemgrname", "qmgrname", "sourcequeuemgr", "eventqmgr"]);
    let channel = raw.text_of(&["channelname"]);
    let object = raw.text_of(&[
        "baseobjectname",
        "baseqname",
        "qname",
        "queuename",
        "objectname",
        "channelname",
        "authinfoname",
        "processname",
        "namelistname",
        "topicname",
    ]);
    let user = raw.text_of(&[
        "useridentifier",
        "clientuseridentifier",
        "cspuseridentifier",
        "eventuserid",
        "mcauserid",
    ]);
    let appl = raw.text_of(&["applname", "eventapplname"]);

    let options = decoded_options(raw, qualifier.as_deref());
    let error_id = raw.first(&["erroridentifier"]).map(|f| match f.2 {
        Some(n) => amq_of(n),
        None => f.1.trim().to_string(),
    });
    let mut text = String::new();
    if let Some(t) = &event_type {
        text.push_str(t);
        text.push_str(": ");
    }
    match (&reason_label, reason) {
        (Some(l), Some(r)) => text.push_str(&format!("{l} [{r}]")),
        (Some(l), None) => text.push_str(l),
        (None, Some(r)) => text.push_str(&format!("reason {r}")),
        (None, None) => text.push_str("event"),
    }
    if let Some(q) = &qualifier {
        text.push_str(&format!(" {q}"));
    }
    if let Some(o) = object {
        text.push_str(&format!(" object '{o}'"));
    }
    if let Some(u) = user {
        text.push_str(&format!(" user '{u}'"));
    }
    if let Some(a) = appl {
        text.push_str(&format!(" appl '{a}'"));
    }
    if let Some(o) = &options {
        text.push_str(&format!(" options {o}"));
    }
    if let Some(a) = raw.text_of(&["connectionname"]) {
        text.push_str(&format!(" from {a}"));
    }
    if let Some(st) = raw.text_of(&["sslhandshakestage"]) {
        text.push_str(&format!(" handshake stage {st}"));
    }
    if let Some(id) = &error_id {
        text.push_str(&format!(" error {id}"));
    }
    if let Some(s) = raw.text_of(&["objectstate"]) {
        text.push_str(&format!(" ({s})"));
    }
    let mut e = Event::new(ts, ctx.origin.clone(), raw.line, Kind::MqEvent, text);
    e.offset = raw.offset;
    if let Some(t) = &event_type {
        e.set(Key::EventType, t);
    }
    if let Some(r) = reason {
        e.set(Key::Reason, r.to_string());
        if let Some(n) = u32::try_from(r).ok().and_then(mqdiag_model::mqrc::name) {
            e.set(Key::ReasonName, n);
        }
    }
    if let Some(q) = &qualifier {
        e.set(Key::Qualifier, q);
    }
    let set = |e: &mut Event, k: Key, v: Option<&str>| {
        if let Some(v) = v {
            e.set(k, v);
        }
    };
    set(&mut e, Key::Qmgr, qmgr);
    set(&mut e, Key::Channel, channel);
    set(&mut e, Key::Object, object);
    set(
        &mut e,
        Key::ObjectType,
        raw.text_of(&["objecttype", "qtype", "channeltype"]),
    );
    set(&mut e, Key::Address, raw.text_of(&["connectionname"]));
    set(&mut e, Key::User, user);
    set(&mut e, Key::ClientUser, user);
    set(&mut e, Key::Appl, appl);
    set(
        &mut e,
        Key::CorrelId,
        raw.text_of(&["correlationid", "correlid"]),
    );
    set(&mut e, Key::ObjectState, raw.text_of(&["objectstate"]));
    set(&mut e, Key::ErrorId, error_id.as_deref());
    set(&mut e, Key::Peer, raw.text_of(&["sslpeername"]));
    set(&mut e, Key::Options, options.as_deref());
    if is_queue_event(reason) {
        set(&mut e, Key::Queue, object);
    }
    for (name, value, _) in &raw.fields {
        if !value.is_empty() {
            e.set_attr_named(name.clone(), value);
        }
    }
    if let Some(q) = &raw.queue {
        e.set_attr("event_queue", q);
    }
    Some(e)
}

/// An options field of the event data as constant names: `Options` of a
/// Not Authorized event by its qualifier (open, close, connect), and the
/// fields named for their structure (`Open Options`, `Put Options`).
fn decoded_options(raw: &Raw, qualifier: Option<&str>) -> Option<String> {
    use mqdiag_model::mqconst::{self, CNO, CO, OO};
    for (name, _, n) in &raw.fields {
        let Some(v) = n.and_then(|n| u32::try_from(n).ok()) else {
            continue;
        };
        let field = if name == "options" {
            match qualifier {
                Some("MQRQ_OPEN_NOT_AUTHORIZED") => Some(&OO),
                Some("MQRQ_CLOSE_NOT_AUTHORIZED") => Some(&CO),
                Some("MQRQ_CONN_NOT_AUTHORIZED" | "MQRQ_SYS_CONN_NOT_AUTHORIZED") => Some(&CNO),
                _ => None,
            }
        } else if name.ends_with("options") {
            mqconst::field(name)
        } else {
            None
        };
        if let Some(f) = field {
            return Some(mqconst::decode(f, v));
        }
    }
    None
}

/// `ErrorIdentifier` as the AMQ message it is: MQ numbers its messages
/// `0x2000nnnn` for AMQnnnn (536909361 is AMQ9631); other values as
/// written.
fn amq_of(n: i64) -> String {
    let hex = format!("{n:08X}");
    match hex.strip_prefix("2000") {
        Some(id) if id.bytes().all(|b| b.is_ascii_digit()) => format!("AMQ{id}"),
        _ => n.to_string(),
    }
}

fn is_queue_event(reason: Option<i64>) -> bool {
    matches!(reason, Some(2053 | 2224 | 2225 | 2226 | 2227))
}

/// `**** Message #7 (236 Bytes) on Queue SYSTEM.ADMIN.PERFM.EVENT ****`:
/// the event queue.
fn text_header(line: &str) -> Option<Option<String>> {
    let l = line.trim();
    let rest = l.strip_prefix("**** Message #")?;
    let queue = rest
        .find(" on Queue ")
        .map(|i| rest[i + 10..].trim_end_matches('*').trim().to_string())
        .or_else(|| {
            rest.find(" on Topic ")
                .map(|i| rest[i + 10..].trim_end_matches('*').trim().to_string())
        });
    Some(queue)
}

/// What one file is in the middle of.
#[derive(Default)]
pub(crate) struct State {
    /// A text message being read.
    text: Option<Raw>,
    /// A JSON object being gathered: its text, depth and string state.
    json: Option<Json>,
    last: Option<Ts>,
    other: u64,
    first_other: Option<u64>,
    /// Which forms were seen, for the row's variant.
    saw_text: bool,
    saw_json: bool,
    saw_compact: bool,
}

struct Json {
    buf: String,
    line: u64,
    offset: u64,
    lines: u32,
    depth: i64,
    in_str: bool,
    escaped: bool,
    too_big: bool,
}

impl Json {
    /// Depth after `s`, strings' braces ignored.
    fn scan(&mut self, s: &str) {
        for b in s.bytes() {
            if self.in_str {
                match b {
                    _ if self.escaped => self.escaped = false,
                    b'\\' => self.escaped = true,
                    b'"' => self.in_str = false,
                    _ => {}
                }
            } else {
                match b {
                    b'"' => self.in_str = true,
                    b'{' | b'[' => self.depth += 1,
                    b'}' | b']' => self.depth -= 1,
                    _ => {}
                }
            }
        }
    }
}

/// The format's specifics: `LineReader<MqEvents>` is its reader.
pub(crate) struct MqEvents;

impl Standalone for MqEvents {
    const FORMAT: Format = FORMAT;
    const FUZZ: super::Fuzz = super::Fuzz {
        target: "mq_events",
        names: &["events.txt", "events.json"],
    };
    const SNIFF_CEILING: u8 = 95;

    fn sniff(_name: &str, head: &[u8]) -> u8 {
        use memchr::memmem::find;
        // Byte searches first: most files are neither form, and say so
        // without being decoded.
        let text_form = find(head, b"**** Message #").is_some();
        let json_form = find(head, b"ventType\"").is_some();
        if !(text_form || json_form) || !looks_like_text(head) {
            return 0;
        }
        let start = head
            .iter()
            .position(|b| !b.is_ascii_whitespace())
            .map_or(head, |i| &head[i..]);
        if text_form && find(head, b"Event Type").is_some() {
            return if start.starts_with(b"**** Message #") {
                95
            } else {
                // A header after other lines (a collector's heading).
                80
            };
        }
        if json_form
            && start.starts_with(b"{")
            && (find(head, b"ventReason\"").is_some() || find(head, b"ventData\"").is_some())
        {
            return 95;
        }
        0
    }

    fn new(_: super::Prepared) -> MqEvents {
        MqEvents
    }
}

impl MqEvents {
    fn finish_text(&mut self, st: &mut State, ctx: &mut FileCtx) {
        if let Some(raw) = st.text.take()
            && let Some(e) = event(&raw, ctx, st.last)
        {
            st.last = Some(e.ts);
            ctx.emit(e);
        }
    }

    fn finish_json(&mut self, st: &mut State, ctx: &mut FileCtx) {
        let Some(j) = st.json.take() else {
            return;
        };
        if j.too_big {
            ctx.info.problem(
                ProblemCode::BadLine,
                Some(j.line),
                Severity::Warning,
                1,
                format!("a JSON object longer than {MAX_OBJECT} bytes: skipped"),
            );
            return;
        }
        // A string escape that is no character (`\ud800`) is replaced by
        // U+FFFD: the event is read, and the line says so.
        let parsed = super::flat_json::from_str_repairing::<serde_json::Value>(&j.buf);
        if let Ok((_, Some(r))) = &parsed {
            ctx.info.problem(
                ProblemCode::Encoding,
                Some(r.line_in(&j.buf, j.line)),
                Severity::Warning,
                0,
                r.message(),
            );
        }
        match parsed.map(|(v, _)| v) {
            Ok(v) => match from_json(&v, j.line, j.offset) {
                Some(raw) => {
                    if j.lines > 1 {
                        st.saw_json = true;
                    } else {
                        st.saw_compact = true;
                    }
                    if let Some(e) = event(&raw, ctx, st.last) {
                        st.last = Some(e.ts);
                        ctx.emit(e);
                    }
                }
                None => self.other(st, j.line),
            },
            Err(err) => ctx.info.problem(
                ProblemCode::BadLine,
                Some(j.line),
                Severity::Warning,
                1,
                format!("a JSON object that cannot be read ({err}): skipped"),
            ),
        }
    }

    fn other(&mut self, st: &mut State, no: u64) {
        st.other += 1;
        st.first_other.get_or_insert(no);
    }
}

impl LineFormat for MqEvents {
    // Messages in the order amqsevt got them off several event queues,
    // not the order the queue manager created them.
    const TIME_ORDERED: bool = false;

    type File = State;

    fn open_file(&mut self, _input: &Input, _ctx: &mut FileCtx) -> State {
        State::default()
    }

    fn line(&mut self, st: &mut State, ctx: &mut FileCtx, meta: LineMeta, bytes: &[u8]) {
        let line = decode_line(bytes).0;
        let line: &str = &line;
        if let Some(j) = &mut st.json {
            if j.buf.len() + line.len() > MAX_OBJECT {
                j.too_big = true;
            } else {
                j.buf.push('\n');
                j.buf.push_str(line);
            }
            j.lines += 1;
            j.scan(line);
            if j.depth <= 0 {
                self.finish_json(st, ctx);
            }
            return;
        }
        if let Some(queue) = text_header(line) {
            self.finish_text(st, ctx);
            st.saw_text = true;
            st.text = Some(Raw {
                line: meta.no,
                offset: meta.offset,
                queue,
                ..Raw::default()
            });
            return;
        }
        let trimmed = line.trim_start();
        if st.text.is_none() && trimmed.starts_with('{') {
            let mut j = Json {
                buf: line.to_string(),
                line: meta.no,
                offset: meta.offset,
                lines: 1,
                depth: 0,
                in_str: false,
                escaped: false,
                too_big: line.len() > MAX_OBJECT,
            };
            j.scan(line);
            let done = j.depth <= 0;
            st.json = Some(j);
            if done {
                self.finish_json(st, ctx);
            }
            return;
        }
        if trimmed.is_empty() {
            return;
        }
        let Some(raw) = &mut st.text else {
            self.other(st, meta.no);
            return;
        };
        // A line without ` : ` is a group's heading (`Command Context`):
        // its fields follow.
        let Some((label, value)) = line
            .split_once(" : ")
            .or_else(|| line.trim_end().strip_suffix(" :").map(|l| (l, "")))
        else {
            return;
        };
        let name = squash(label);
        if name.is_empty() {
            return;
        }
        if name == "eventcreated" {
            raw.created = text_time(value);
            if raw.created.is_none() {
                ctx.info.problem(
                    ProblemCode::BadTime,
                    Some(meta.no),
                    Severity::Warning,
                    1,
                    format!("event time '{}' cannot be read", value.trim()),
                );
            }
        }
        let (text, n) = name_and_number(value);
        let text = if n.is_some() && text.parse::<i64>().is_err() {
            text
        } else {
            value.trim().to_string()
        };
        raw.fields.push((name, text, n));
    }

    fn finish_file(&mut self, mut st: State, ctx: &mut FileCtx) {
        if st.json.as_ref().is_some_and(|j| j.depth > 0) {
            let line = st.json.as_ref().map(|j| j.line);
            st.json = None;
            ctx.info.problem(
                ProblemCode::CutRecord,
                line,
                Severity::Info,
                1,
                "the last JSON event is cut by the end of the file: skipped".to_string(),
            );
        }
        self.finish_json(&mut st, ctx);
        self.finish_text(&mut st, ctx);
        if st.other > 0 {
            ctx.info.problem(
                ProblemCode::BadLine,
                st.first_other,
                Severity::Info,
                st.other,
                format!("{} line(s) outside any event message: skipped", st.other),
            );
        }
        let mut forms = Vec::new();
        if st.saw_text {
            forms.push("amqsevt-text");
        }
        if st.saw_json {
            forms.push("json");
        }
        if st.saw_compact {
            forms.push("json-compact");
        }
        if !forms.is_empty() {
            ctx.info.variant = Some(forms.join("+"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::line_source::LineReader;
    use crate::testkit;
    use mqdiag_model::timefmt::rfc3339;

    const TEXT: &str = "\
**** Message #7 (236 Bytes) on Queue SYSTEM.ADMIN.PERFM.EVENT ****
Event Type                     : Perfm Event [45]
Reason                         : Queue Full [2053]
Event created                  : 2016/10/21 07:11:28.58 GMT
  Queue Mgr Name               : V9000_A
  Base Object Name             : FULLEVT
  Time Since Reset             : 0
  High Queue Depth             : 4
  Msg Enq Count                : 0
  Msg Deq Count                : 0

**** Message #8 (400 Bytes) on Queue SYSTEM.ADMIN.QMGR.EVENT ****
Event Type                     : Queue Mgr Event [44]
Reason                         : Not Authorized [2035]
Event created                  : 2016/10/21 07:12:00.01 GMT
  Queue Mgr Name               : V9000_A
  Reason Qualifier             : Conn Not Authorized [1]
  User Identifier              : bob
  Appl Type                    : Unix [6]
  Appl Name                    : amqsput
**** Message #9 (100 Bytes) on Queue SYSTEM.ADMIN.QMGR.EVENT ****
Event Type                     : Queue Mgr Event [44]
Reason                         : Something New [2999]
Event created                  : 2016/10/21 07:12:01.00 GMT
  Queue Mgr Name               : V9000_A
";

    fn read(name: &str, text: &str) -> (Vec<Event>, Vec<mqdiag_model::fileinfo::FileInfo>) {
        testkit::read(
            &LineReader::<MqEvents>::new(),
            name,
            text,
            &Default::default(),
        )
    }

    #[test]
    fn text_events_with_typed_attributes_and_unknown_kept() {
        assert_eq!(MqEvents::sniff("x", TEXT.as_bytes()), 95);
        let (evs, infos) = read("events.txt", TEXT);
        assert_eq!(evs.len(), 3);
        let full = &evs[0];
        assert_eq!(full.kind, Kind::MqEvent);
        assert_eq!(rfc3339(&full.ts), "2016-10-21T07:11:28.580000+00:00");
        assert_eq!(full.get(Key::Reason), Some("2053"));
        assert_eq!(full.get(Key::ReasonName), Some("MQRC_Q_FULL"));
        assert_eq!(full.get(Key::Qmgr), Some("V9000_A"));
        assert_eq!(full.get(Key::Queue), Some("FULLEVT"));
        assert_eq!(full.attr("highqueuedepth"), Some("4"));
        assert_eq!(full.attr("event_queue"), Some("SYSTEM.ADMIN.PERFM.EVENT"));
        assert_eq!(full.line, 1);
        let na = &evs[1];
        assert_eq!(na.get(Key::Qualifier), Some("MQRQ_CONN_NOT_AUTHORIZED"));
        assert_eq!(na.get(Key::ClientUser), Some("bob"));
        assert_eq!(na.get(Key::Appl), Some("amqsput"));
        assert_eq!(na.line, 12);
        assert_eq!(na.get(Key::Options), None);
        // An event of an unknown reason is kept with its fields.
        assert_eq!(evs[2].get(Key::Reason), Some("2999"));
        assert!(
            evs[2].text.contains("Something New [2999]"),
            "{}",
            evs[2].text
        );
        assert_eq!(infos[0].variant.as_deref(), Some("amqsevt-text"));
        assert_eq!(infos[0].problem_count, 0, "{:?}", infos[0].problems);
    }

    const JSON: &str = r#"{
  "eventSource" : { "objectName": "SYSTEM.ADMIN.CHANNEL.EVENT",
                    "objectType" : "Queue",
                    "queueMgr" : "QM1"},
  "eventType" : {
     "name" : "Channel Event",
     "value" : 46
  },
  "eventReason" : {
     "name" : "Channel Blocked",
     "value" : 2577
  },
  "eventCreation" : {
     "timeStamp"  : "2024-03-01T10:15:02Z",
     "epoch"      : 1709288102
  },
  "eventData" : {
     "queueMgrName" : "QM1",
     "reasonQualifier" : "MQRQ_CHANNEL_BLOCKED_NOACCESS",
     "channelName" : "APP.SVRCONN",
     "connectionName" : "10.1.2.3",
     "clientUserIdentifier" : "alice"
  }
}
{"eventSource":{"objectName":"SYSTEM.ADMIN.PERFM.EVENT","objectType":"Queue","queueMgr":"QM1"},"eventType":{"name":"Perfm Event","value":45},"eventReason":{"name":"Queue Service Interval High","value":2226},"eventCreation":{"timeStamp":"2024-03-01T10:16:00Z","epoch":1709288160},"eventData":{"queueMgrName":"QM1","baseObjectName":"ORDERS","timeSinceReset":60,"highQDepth":120,"msgEnqCount":500,"msgDeqCount":10}}
{"eventType":{"name":"Queue Mgr Event","value":44},"eventReason":{"name":"Not Authorized","value":2035},"eventCreation":{"timeStamp":"2024-03-01T10:17:00Z"},"eventData":{"reasonQualifier":2,"useridentifier":"bob","baseObjectName":"PAYROLL"
"#;

    #[test]
    fn json_pretty_and_compact_and_a_cut_last_object() {
        assert_eq!(MqEvents::sniff("x", JSON.as_bytes()), 95);
        let (evs, infos) = read("events.json", JSON);
        assert_eq!(evs.len(), 2, "{evs:?}");
        let b = &evs[0];
        assert_eq!(rfc3339(&b.ts), "2024-03-01T10:15:02.000000+00:00");
        assert_eq!(b.get(Key::Reason), Some("2577"));
        assert_eq!(b.get(Key::Qualifier), Some("MQRQ_CHANNEL_BLOCKED_NOACCESS"));
        assert_eq!(b.get(Key::Channel), Some("APP.SVRCONN"));
        assert_eq!(b.get(Key::Address), Some("10.1.2.3"));
        assert_eq!(b.get(Key::ClientUser), Some("alice"));
        assert_eq!(b.get(Key::EventType), Some("Channel Event"));
        assert_eq!(b.line, 1);
        let s = &evs[1];
        assert_eq!(s.get(Key::Queue), Some("ORDERS"));
        assert_eq!(s.attr("highqdepth"), Some("120"));
        assert_eq!(s.line, 25);
        assert_eq!(infos[0].variant.as_deref(), Some("json+json-compact"));
        // The cut last object, said at its first line.
        assert_eq!(infos[0].problem_count, 1, "{:?}", infos[0].problems);
        assert_eq!(infos[0].problems[0].line, Some(26));
    }

    #[test]
    fn error_identifier_as_its_message() {
        assert_eq!(amq_of(536909361), "AMQ9631");
        assert_eq!(amq_of(12), "12");
    }

    #[test]
    fn options_of_the_event_data_by_name() {
        let t = "**** Message #1 (1 Bytes) on Queue SYSTEM.ADMIN.QMGR.EVENT ****\n\
                 Event Type                     : Queue Mgr Event [44]\n\
                 Reason                         : Not Authorized [2035]\n\
                 Event created                  : 2026/03/02 10:00:20.40 GMT\n\
                 \x20 Reason Qualifier             : Open Not Authorized [2]\n\
                 \x20 Options                      : 8208\n";
        let (evs, _) = read("e.txt", t);
        assert_eq!(
            evs[0].get(Key::Options),
            Some("MQOO_OUTPUT+MQOO_FAIL_IF_QUIESCING")
        );
        assert!(
            evs[0]
                .text
                .contains("options MQOO_OUTPUT+MQOO_FAIL_IF_QUIESCING")
        );
    }

    #[test]
    fn qualifier_numbers_and_garbage_do_not_panic() {
        let t = "{\"eventType\":{\"name\":\"Queue Mgr Event\",\"value\":44},\"eventReason\":{\"name\":\"Not Authorized\",\"value\":2035},\"eventCreation\":{\"epoch\":1709288160},\"eventData\":{\"reasonQualifier\":2}}\n{ not json }\n}}}\n";
        let (evs, infos) = read("e.json", t);
        assert_eq!(evs.len(), 1);
        assert_eq!(evs[0].get(Key::Qualifier), Some("MQRQ_OPEN_NOT_AUTHORIZED"));
        assert!(infos[0].problem_count >= 1);
        for junk in [
            "**** Message #",
            "**** Message #1\n : \n::::\n",
            "{\"eventType\":[[[[",
            "{}",
        ] {
            let _ = read("j", junk);
        }
    }
}
