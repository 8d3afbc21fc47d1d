//! JSON error logs (`AMQERR01.json`, MQ 9.0.4 and later): one object per
//! line. Keys are matched case-insensitively (IBM's table says
//! `ibm_messageID`, real output writes `ibm_messageId`); inserts come as
//! `ibm_arithInsert1`/`ibm_commentInsert1` or, in the 9.0.4 technology
//! preview, `arith_insert_1`/`comment_insert_1`; numbers may come as
//! strings. `ibm_datetime` is UTC. See `shared/formats/error-log.md` §3.

use super::Reader;
use super::errlog_common::{Dedup, RecordKey, path_facts, rotation_group};
use super::line_source::{FileCtx, LineFormat, LineSource};
use crate::catalog;
use crate::event::Key as AttrKey;
use crate::event::{Event, Format, Kind};
use crate::input::Input;
use crate::lines::LineMeta;
use crate::problem::{ProblemCode, Severity};
use crate::source::{ErrlogClocks, ReadOptions, Source, display_dir};
use crate::text::trim;
use crate::text::{decode_line, looks_like_text};
use chrono::{DateTime, FixedOffset};
use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Value;
use std::borrow::Cow;
use std::fmt;

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

/// `INSERTS` with their keys' slots.
const INSERT_SLOTS: &[(&str, usize, usize, usize); 6] = &{
    let mut out = [("", 0, 0, 0); 6];
    let mut i = 0;
    while i < INSERTS.len() {
        let (canon, current, preview, other) = INSERTS[i];
        out[i] = (canon, slot_of(current), slot_of(preview), slot_of(other));
        i += 1;
    }
    out
};

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

/// JSON error logs. Its facts for the rest of the program.
pub static FORMAT: Format = Format::of(&crate::event::FormatInfo {
    name: "errlog-json",
    family: "error log",
    states_local_time: true,
    dataset: "ibmmq.errorlog",
    host_is_writer: false,
});

impl Reader for ErrlogJsonReader {
    fn format(&self) -> Format {
        FORMAT
    }

    fn sniff_ceiling(&self) -> u8 {
        95
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
        } else if lines
            .iter()
            .take(n + 1)
            .any(|l| cut_record_head(l.trim()).is_some())
        {
            // Only a record cut short (a copy taken mid-write).
            60
        } else {
            0
        }
    }

    fn group(&self, input: &Input) -> Option<(String, u32)> {
        rotation_group(input, "json")
    }

    /// JSON error logs state UTC only; the text logs of the run say which
    /// local offset the queue manager's clock had (`errlog_text::survey`).
    fn prepare(&self, siblings: &super::Siblings, opts: &ReadOptions) -> super::Prepared {
        let text = siblings.of(super::errlog_text::FORMAT);
        if text.is_empty() {
            return None;
        }
        Some(std::sync::Arc::new(super::errlog_text::survey(
            &text,
            opts.encoding,
        )))
    }

    fn open_with(
        &self,
        inputs: Vec<Input>,
        opts: &ReadOptions,
        prepared: super::Prepared,
    ) -> Box<dyn Source> {
        let clocks = prepared.and_then(|p| p.downcast::<ErrlogClocks>().ok());
        source(inputs, opts, FORMAT, clocks)
    }

    fn fuzz(&self) -> Option<super::Fuzz> {
        Some(super::Fuzz {
            target: "errlog_json",
            names: &["AMQERR01.json"],
        })
    }
}

/// A source over JSON log lines read as `format`: `errlog-json`, or
/// `container-log` (the console of an MQ container, where the same records
/// come mixed with `mq_containerlog` ones and may carry a `kubectl logs
/// --timestamps` prefix).
pub fn source(
    inputs: Vec<Input>,
    opts: &ReadOptions,
    format: Format,
    clocks: Option<std::sync::Arc<ErrlogClocks>>,
) -> Box<dyn Source> {
    let json = ErrlogJson {
        format,
        clocks,
        dedup: Dedup::default(),
        line: String::new(),
        memo: catalog::Memo::default(),
    };
    Box::new(LineSource::new(json, inputs, opts))
}

/// A JSON value as the reader uses it: strings borrowed from the line
/// where they hold no escapes, numbers and booleans as `serde_json::Value`
/// prints them, anything else only checked. serde_json's own parser reads
/// it, through the same calls as for a `Value`, so what is accepted and
/// every error message stay the same; no map or strings are built for the
/// keys a record does not use.
#[derive(Debug, PartialEq)]
enum Lean<'a> {
    Str(Cow<'a, str>),
    Num(String),
    Other,
}

impl<'a> Lean<'a> {
    /// Strings as they are, numbers in decimal.
    fn text(&self) -> Option<&str> {
        match self {
            Lean::Str(s) => Some(s),
            Lean::Num(s) => Some(s),
            Lean::Other => None,
        }
    }
}

struct LeanVisitor;

impl<'de> Visitor<'de> for LeanVisitor {
    type Value = Lean<'de>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, b: bool) -> Result<Lean<'de>, E> {
        Ok(Lean::Num(b.to_string()))
    }

    fn visit_i64<E>(self, n: i64) -> Result<Lean<'de>, E> {
        Ok(Lean::Num(serde_json::Number::from(n).to_string()))
    }

    fn visit_u64<E>(self, n: u64) -> Result<Lean<'de>, E> {
        Ok(Lean::Num(serde_json::Number::from(n).to_string()))
    }

    fn visit_f64<E>(self, n: f64) -> Result<Lean<'de>, E> {
        // As `Value`: a float that is not finite is null.
        Ok(serde_json::Number::from_f64(n).map_or(Lean::Other, |n| Lean::Num(n.to_string())))
    }

    fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Lean<'de>, E> {
        Ok(Lean::Str(Cow::Borrowed(s)))
    }

    fn visit_str<E>(self, s: &str) -> Result<Lean<'de>, E> {
        Ok(Lean::Str(Cow::Owned(s.to_string())))
    }

    fn visit_string<E>(self, s: String) -> Result<Lean<'de>, E> {
        Ok(Lean::Str(Cow::Owned(s)))
    }

    fn visit_unit<E>(self) -> Result<Lean<'de>, E> {
        Ok(Lean::Other)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Lean<'de>, A::Error> {
        while seq.next_element::<Value>()?.is_some() {}
        Ok(Lean::Other)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Lean<'de>, A::Error> {
        while map.next_key::<String>()?.is_some() {
            map.next_value::<Value>()?;
        }
        Ok(Lean::Other)
    }
}

impl<'de> Deserialize<'de> for Lean<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(LeanVisitor)
    }
}

/// An object key, borrowed from the line when it has no escapes.
struct Key<'a>(Cow<'a, str>);

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string key")
            }
            fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(s)))
            }
            fn visit_str<E>(self, s: &str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(s.to_string())))
            }
            fn visit_string<E>(self, s: String) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(s)))
            }
        }
        // As `Value` reads its keys.
        d.deserialize_str(V)
    }
}

/// One line: an object's members in the order written, or another value.
#[derive(Debug, PartialEq)]
enum Line<'a> {
    Object(Vec<(Cow<'a, str>, Lean<'a>)>),
    NotObject,
}

impl<'de> Deserialize<'de> for Line<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Line<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Line<'de>, A::Error> {
                let mut members = Vec::with_capacity(24);
                while let Some(Key(k)) = map.next_key::<Key>()? {
                    members.push((k, map.next_value::<Lean>()?));
                }
                Ok(Line::Object(members))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Line<'de>, A::Error> {
                LeanVisitor.visit_seq(seq).map(|_| Line::NotObject)
            }
            fn visit_bool<E>(self, _: bool) -> Result<Line<'de>, E> {
                Ok(Line::NotObject)
            }
            fn visit_i64<E>(self, _: i64) -> Result<Line<'de>, E> {
                Ok(Line::NotObject)
            }
            fn visit_u64<E>(self, _: u64) -> Result<Line<'de>, E> {
                Ok(Line::NotObject)
            }
            fn visit_f64<E>(self, _: f64) -> Result<Line<'de>, E> {
                Ok(Line::NotObject)
            }
            fn visit_str<E>(self, _: &str) -> Result<Line<'de>, E> {
                Ok(Line::NotObject)
            }
            fn visit_unit<E>(self) -> Result<Line<'de>, E> {
                Ok(Line::NotObject)
            }
        }
        d.deserialize_any(V)
    }
}

/// The value of key `k` (lower case), matched case-insensitively, as a
/// `BTreeMap<String, Value>` of the object would give it: of the spellings
/// present the one that sorts first, and of a key written twice the last
/// value. `None` for null, arrays, objects and empty strings.
fn member<'m>(members: &'m [(Cow<'_, str>, Lean<'_>)], k: &str) -> Option<&'m str> {
    let mut best: Option<(&str, &Lean)> = None;
    for (key, v) in members {
        if key.eq_ignore_ascii_case(k) && best.is_none_or(|(b, _)| key.as_ref() <= b) {
            best = Some((key, v));
        }
    }
    best.and_then(|(_, v)| v.text()).filter(|s| !s.is_empty())
}

/// The keys `record` reads (lower case). `Members` finds them all in one
/// pass over an object: a record is asked for some thirty keys, and
/// scanning its twenty members for each was a third of reading it.
const KEYS: &[&str] = &[
    "message",
    "ibm_messageid",
    "ibm_datetime",
    "host",
    "ibm_processid",
    "ibm_threadid",
    "ibm_sequence",
    "type",
    "ibm_servername",
    "ibm_processname",
    "ibm_username",
    "ibm_installationname",
    "ibm_version",
    "module",
    "loglevel",
    "ibm_arithinsert1",
    "arith_insert_1",
    "arith_insert1",
    "ibm_arithinsert2",
    "arith_insert_2",
    "arith_insert2",
    "ibm_commentinsert1",
    "comment_insert_1",
    "comment_insert1",
    "ibm_commentinsert2",
    "comment_insert_2",
    "comment_insert2",
    "ibm_commentinsert3",
    "comment_insert_3",
    "comment_insert3",
    "ibm_remotehost",
    "remote_host",
];

/// The longest key in `KEYS`: `Members::new` lower-cases keys up to this
/// length on the stack (longer ones are none of them).
const MAX_KEY: usize = {
    let mut max = 0;
    let mut i = 0;
    while i < KEYS.len() {
        if KEYS[i].len() > max {
            max = KEYS[i].len();
        }
        i += 1;
    }
    max
};

/// The slot of a `KEYS` key.
fn key_slot(k: &[u8]) -> Option<usize> {
    static SLOTS: std::sync::LazyLock<rustc_hash::FxHashMap<&'static [u8], usize>> =
        std::sync::LazyLock::new(|| {
            KEYS.iter()
                .enumerate()
                .map(|(i, k)| (k.as_bytes(), i))
                .collect()
        });
    SLOTS.get(k).copied()
}

/// The slot of a `KEYS` key, at compile time (a key not among them does
/// not compile).
const fn slot_of(k: &str) -> usize {
    let k = k.as_bytes();
    let mut i = 0;
    while i < KEYS.len() {
        let c = KEYS[i].as_bytes();
        if c.len() == k.len() {
            let mut j = 0;
            while j < c.len() && c[j] == k[j] {
                j += 1;
            }
            if j == c.len() {
                return i;
            }
        }
        i += 1;
    }
    panic!("not among KEYS")
}

/// The value of key `$k` (a literal among `KEYS`) in `$found`.
macro_rules! key {
    ($found:expr, $k:literal) => {
        $found.at(const { slot_of($k) })
    };
}

/// An object's members with the `KEYS` found: `at` answers what `member`
/// answers.
struct Members<'m, 'a> {
    members: &'m [(Cow<'a, str>, Lean<'a>)],
    at: [u32; KEYS.len()],
}

impl<'m, 'a> Members<'m, 'a> {
    const NONE: u32 = u32::MAX;

    fn new(members: &'m [(Cow<'a, str>, Lean<'a>)]) -> Self {
        let mut at = [Self::NONE; KEYS.len()];
        let mut lower = [0u8; MAX_KEY];
        for (i, (key, _)) in members.iter().enumerate() {
            let b = key.as_bytes();
            if b.len() > lower.len() || i >= Self::NONE as usize {
                continue;
            }
            let l = &mut lower[..b.len()];
            for (d, c) in l.iter_mut().zip(b) {
                *d = c.to_ascii_lowercase();
            }
            let Some(slot) = key_slot(l) else { continue };
            // As `member`: the spelling that sorts first, the last of equals.
            let cur = at[slot];
            if cur == Self::NONE || key.as_ref() <= members[cur as usize].0.as_ref() {
                at[slot] = i as u32;
            }
        }
        Members { members, at }
    }

    /// The value of the `KEYS` key in `slot` (`slot_of`, at compile time).
    fn at(&self, slot: usize) -> Option<&'m str> {
        let i = self.at[slot];
        if i == Self::NONE {
            return None;
        }
        self.members[i as usize].1.text().filter(|s| !s.is_empty())
    }
}

/// What is kept while one file is read.
struct JsonFile {
    qmgr: Option<String>,
    scope: Option<&'static str>,
    preview_keys: bool,
    duplicates: u64,
}

/// The format's specifics for `LineSource`. `ibm_datetime` is always UTC:
/// no --tz needed; `clocks` gives the local offset when a text log
/// beside it states one.
struct ErrlogJson {
    format: Format,
    /// The offsets the run's text error logs state (`prepare`).
    clocks: Option<std::sync::Arc<ErrlogClocks>>,
    /// Records also in an older generation of the rotated set.
    dedup: Dedup,
    /// The current line, decoded.
    line: String,
    memo: catalog::Memo,
}

impl LineFormat for ErrlogJson {
    type File = JsonFile;

    fn format(&self) -> Format {
        self.format
    }

    fn open_file(&mut self, input: &Input, ctx: &mut FileCtx) -> JsonFile {
        if input.bytes == 0 {
            ctx.info.problem(
                ProblemCode::EmptyFile,
                None,
                Severity::Info,
                0,
                "empty file",
            );
        }
        let facts = path_facts(&input.display);
        ctx.info.qmgr = facts.qmgr.clone();
        JsonFile {
            qmgr: facts.qmgr,
            scope: facts.scope,
            preview_keys: false,
            duplicates: 0,
        }
    }

    fn line(&mut self, run: &mut JsonFile, ctx: &mut FileCtx, meta: LineMeta, bytes: &[u8]) {
        let no = meta.no;
        if meta.truncated {
            ctx.info.problem(
                ProblemCode::LineTooLong,
                Some(no),
                Severity::Warning,
                1,
                format!(
                    "line of {} bytes cut to the first {} bytes: record skipped",
                    meta.full_len,
                    bytes.len()
                ),
            );
            return;
        }
        // The line is copied out of the read buffer (which belongs to the
        // run) so that its members can be borrowed while the record is
        // made; the copy's buffer is kept for the next line.
        let mut line = std::mem::take(&mut self.line);
        line.clear();
        line.push_str(trim(&decode_line(bytes).0));
        if self.format == crate::formats::container_log::FORMAT
            && let Some(rest) = super::container_log::strip_kubectl_stamp(&line)
        {
            let n = line.len() - rest.len();
            line.drain(..n);
        }
        if line.is_empty() {
            self.line = line;
            return;
        }
        let members = match serde_json::from_str::<Line>(&line) {
            Ok(Line::Object(m)) => m,
            Ok(Line::NotObject) => {
                ctx.info.problem(
                    ProblemCode::BadLine,
                    Some(no),
                    Severity::Warning,
                    1,
                    "not a JSON object: line skipped",
                );
                return;
            }
            Err(e) => {
                let what = if meta.unterminated {
                    "last line is cut short (file still being written?)"
                } else {
                    "invalid JSON"
                };
                // serde counts lines within the one line it was given.
                let why = e.to_string().replace(" at line 1 column ", " at column ");
                // A record cut mid-line whose time is already written is
                // kept with the members before the cut.
                if let Some(head) = cut_record_head(&line) {
                    ctx.info.problem(
                        ProblemCode::CutRecord,
                        Some(no),
                        Severity::Warning,
                        0,
                        format!("{what}: {why}: kept as an incomplete record"),
                    );
                    if let Ok(Line::Object(m)) = serde_json::from_str::<Line>(&head)
                        && let Some(mut e) = self.record(run, ctx, no, &m)
                    {
                        e.set(AttrKey::Incomplete, "true");
                        ctx.emit(e);
                    }
                    return;
                }
                ctx.info.problem(
                    ProblemCode::BadLine,
                    Some(no),
                    Severity::Warning,
                    1,
                    format!("{what}: {why}: line skipped"),
                );
                return;
            }
        };
        if let Some(e) = self.record(run, ctx, no, &members) {
            // A container's `FDC summary:` record lists FDCs: each is one.
            let fdcs =
                if self.format == crate::formats::container_log::FORMAT && e.kind == Kind::Text {
                    super::ffstsummary::events_in(&e.text, ctx.origin, no, *e.ts.offset())
                } else {
                    Vec::new()
                };
            ctx.emit(e);
            for f in fdcs {
                ctx.emit(f);
            }
        }
        drop(members);
        self.line = line;
    }

    fn finish_file(&mut self, run: JsonFile, ctx: &mut FileCtx) {
        self.dedup.end_file();
        let variant = vec![
            if self.format == crate::formats::container_log::FORMAT {
                "json"
            } else if run.preview_keys {
                "9.0.4 preview keys"
            } else {
                "ibm_* keys"
            }
            .to_string(),
        ];
        // The loop raises the row's size to the bytes read.
        super::errlog_common::close_file(ctx.info, variant, run.duplicates, None);
    }
}

impl ErrlogJson {
    fn record(
        &mut self,
        run: &mut JsonFile,
        ctx: &mut FileCtx,
        no: u64,
        members: &[(Cow<'_, str>, Lean<'_>)],
    ) -> Option<Event> {
        let found = Members::new(members);
        let message = key!(found, "message").unwrap_or_default();
        let msgid = key!(found, "ibm_messageid").or_else(|| {
            let id = message.split(':').next().unwrap_or("");
            (id.starts_with("AMQ") && id.len() >= 7).then_some(id)
        });
        let Some(when) = key!(found, "ibm_datetime") else {
            ctx.info.problem(
                ProblemCode::MissingTime,
                Some(no),
                Severity::Warning,
                1,
                "record without ibm_datetime: skipped",
            );
            return None;
        };
        let ts: DateTime<FixedOffset> = match DateTime::parse_from_rfc3339(when) {
            Ok(t) => t,
            Err(_) => {
                ctx.info.problem(
                    ProblemCode::BadTime,
                    Some(no),
                    Severity::Warning,
                    1,
                    format!("ibm_datetime `{when}` cannot be read: record skipped"),
                );
                return None;
            }
        };
        // Shown at the offset the text log beside it states for that moment.
        let local = match &self.clocks {
            Some(c) => c
                .at(
                    display_dir(&ctx.info.path),
                    key!(found, "host"),
                    ts.timestamp(),
                )
                .and_then(|(off, path)| Some((FixedOffset::east_opt(off)?, path))),
            _ => None,
        };
        let ts = match local {
            Some((off, _)) => ts.with_timezone(&off),
            None => ts,
        };
        if ctx.info.utc_offset.is_none() {
            match local {
                Some((off, path)) => ctx.info.set_offset(off, &format!("text log {path}")),
                None => ctx.info.set_offset(*ts.offset(), "data"),
            }
        }
        let pid = key!(found, "ibm_processid").and_then(|s| s.trim().parse().ok());
        let tid = key!(found, "ibm_threadid").and_then(|s| s.trim().parse().ok());
        let key = match key!(found, "ibm_sequence") {
            Some(seq) => RecordKey::new().str(seq).str(msgid.unwrap_or("")).finish(),
            None => RecordKey::new()
                .str(when)
                .ids(pid, tid)
                .str(msgid.unwrap_or(""))
                .str(message)
                .finish(),
        };
        if self.dedup.seen_before(key) {
            run.duplicates += 1;
            return None;
        }
        let mut inserts: Vec<(&str, &str)> = Vec::new();
        for &(canon, current, preview, other) in INSERT_SLOTS {
            let v = found.at(current).or_else(|| {
                found
                    .at(preview)
                    .inspect(|_| run.preview_keys = true)
                    .or_else(|| found.at(other))
            });
            if let Some(v) = v {
                inserts.push((canon, v));
            }
        }
        let text = crate::event::spare_copy(if message.is_empty() {
            msgid.unwrap_or_default()
        } else {
            message
        });
        // The container's own programs (`runmqserver`) write records of
        // type `mq_containerlog`: no MQ message, free text.
        let kind = match key!(found, "type") {
            Some("mq_containerlog") if msgid.is_none() => Kind::Text,
            // Cut before its `type` (the container's keys are sorted).
            None if msgid.is_none() && self.format == crate::formats::container_log::FORMAT => {
                Kind::Text
            }
            _ => Kind::LogRecord,
        };
        let mut e = Event::new(ts, ctx.origin.clone(), no, kind, text);
        // A record carries about 20 attributes: one allocation, not five.
        e.attrs = crate::event::Attrs::spare(32, 512);
        e.pid = pid;
        e.tid = tid;
        if let Some(id) = msgid {
            let x = self.memo.extract(id, message, &inserts);
            e.set(AttrKey::Msgid, &x.msgid);
            if let Some(s) = x.severity {
                e.set(AttrKey::Severity, s.encode_utf8(&mut [0; 4]));
            }
            if let Some(f) = x.family {
                e.set(AttrKey::Family, f);
            }
            x.push_attrs(&mut e.attrs);
        }
        let qmgr = key!(found, "ibm_servername").or(run.qmgr.as_deref());
        if let Some(q) = qmgr {
            if e.get(AttrKey::Qmgr).is_none() {
                e.set(AttrKey::Qmgr, q);
            }
            if ctx.info.qmgr.is_none() {
                ctx.info.qmgr = Some(q.to_string());
            }
        }
        if let Some(s) = run.scope {
            e.set(AttrKey::Scope, s);
        }
        for (key, attr) in [
            (const { slot_of("ibm_processname") }, AttrKey::Program),
            (const { slot_of("ibm_username") }, AttrKey::User),
            (const { slot_of("host") }, AttrKey::LocalHost),
            (
                const { slot_of("ibm_installationname") },
                AttrKey::Installation,
            ),
            (const { slot_of("ibm_version") }, AttrKey::Vrmf),
            (const { slot_of("module") }, AttrKey::Source),
            (const { slot_of("loglevel") }, AttrKey::Loglevel),
            (const { slot_of("ibm_sequence") }, AttrKey::Sequence),
        ] {
            if let Some(v) = found.at(key) {
                if attr == AttrKey::LocalHost && ctx.info.host.is_none() {
                    ctx.info.host = Some(v.to_string());
                }
                if attr == AttrKey::Vrmf && ctx.info.mq_version.as_deref() != Some(v) {
                    ctx.info.mq_version = Some(v.to_string());
                }
                e.set(attr, v);
            }
        }
        for (canon, v) in &inserts {
            let key = match *canon {
                "ArithInsert1" => AttrKey::ArithInsert1,
                "ArithInsert2" => AttrKey::ArithInsert2,
                "CommentInsert1" => AttrKey::CommentInsert1,
                "CommentInsert2" => AttrKey::CommentInsert2,
                "CommentInsert3" => AttrKey::CommentInsert3,
                _ => AttrKey::RemoteHost,
            };
            e.set(key, *v);
        }
        Some(e)
    }
}

/// The members of a JSON object cut short, up to the last member that is
/// whole, closed as an object; only when they include `ibm_datetime`.
fn cut_record_head(line: &str) -> Option<String> {
    if !line.starts_with('{') {
        return None;
    }
    let whole = cut_members(line)?;
    // Cut inside a string (a long `message`): that member is kept as far
    // as it goes, when the members before it make a record.
    let closed = format!("{line}\"}}");
    match serde_json::from_str::<Line>(&closed) {
        Ok(Line::Object(m)) if member(&m, "ibm_datetime").is_some() => Some(closed),
        _ => Some(whole),
    }
}

/// The whole members before the cut of `line`, closed as an object, when
/// they include `ibm_datetime`.
fn cut_members(line: &str) -> Option<String> {
    let mut end = line.len();
    // A `,"` inside a string value makes an invalid head: try the one
    // before, a bounded number of times.
    for _ in 0..64 {
        let pos = line[..end].rfind(",\"")?;
        let mut head = String::with_capacity(pos + 1);
        head.push_str(&line[..pos]);
        head.push('}');
        if let Ok(Line::Object(m)) = serde_json::from_str::<Line>(&head) {
            return member(&m, "ibm_datetime").is_some().then_some(head.clone());
        }
        end = pos;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fileinfo::FileInfo;

    /// The one-pass index answers what the scan answers: keys in any
    /// case, written twice, empty, not text, or not among `KEYS`.
    #[test]
    fn members_index_agrees_with_member() {
        let mut rng = crate::testrng::Rng::new(5);
        let mut names: Vec<&str> = KEYS.to_vec();
        names.extend([
            "IBM_DateTime",
            "Message",
            "ibm_MessageId",
            "other",
            "ibm_datetimex",
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
                    1 => Lean::Num(i.to_string()),
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
        assert_eq!(e.get(AttrKey::Msgid), Some("AMQ9209E"));
        assert_eq!(e.get(AttrKey::Channel), Some("SYSTEM.DEF.SVRCONN"));
        assert_eq!(e.get(AttrKey::Host), Some("localhost"));
        assert_eq!(e.get(AttrKey::Address), Some("127.0.0.1"));
        assert_eq!(e.get(AttrKey::Source), Some("amqccita.c:4214"));
        assert_eq!(e.get(AttrKey::Qmgr), Some("QM1"));
        assert_eq!(e.get(AttrKey::Scope), Some("qmgr"));
        assert_eq!(
            crate::timefmt::rfc3339(&e.ts),
            "2018-02-22T06:54:53.942000+00:00"
        );
        let e = &evs[1];
        assert_eq!(e.pid, Some(7846));
        assert_eq!(e.get(AttrKey::Task), Some("LOGGER-IO"));
        assert_eq!(e.get(AttrKey::ArithInsert2), Some("1"));
        assert_eq!(infos[0].variant.as_deref(), Some("9.0.4 preview keys"));
        assert_eq!(infos[0].problem_count, 0);
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
            crate::timefmt::rfc3339(&evs[0].ts),
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
                let lean = match serde_json::from_str::<Line>(line) {
                    Err(e) => Err(e.to_string()),
                    Ok(Line::Object(m)) => Ok(Some(member(&m, k).map(str::to_string))),
                    Ok(Line::NotObject) => Ok(None),
                };
                assert_eq!(lean, by_value(line, k), "{line} / {k}");
            }
        }
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
}
