//! JSON error logs (`AMQERR01.json`, MQ 9.0.4 and later): one object per
//! line. Keys are matched case-insensitively (IBM's table says
//! `ibm_messageID`, real output writes `ibm_messageId`); inserts come as
//! `ibm_arithInsert1`/`ibm_commentInsert1` or, in the 9.0.4 technology
//! preview, `arith_insert_1`/`comment_insert_1`; numbers may come as
//! strings. `ibm_datetime` is UTC. See `shared/formats/error-log.md` §3.

use super::errlog_common::{Dedup, RecordKey, path_facts, rotation_group};
use super::errlog_text::{ErrlogClocks, display_dir};
use super::flat_json::{self, Scalar};
use super::line_source::{FileCtx, LineFormat, LineSource, Standalone};
use crate::catalog;
use crate::input::Input;
use crate::lines::LineMeta;
use crate::source::{ReadOptions, Source};
use chrono::{DateTime, FixedOffset};
use mqdiag_model::event::Key as AttrKey;
use mqdiag_model::event::{Event, Format, Kind};
use mqdiag_model::problem::{ProblemCode, Severity};
use mqdiag_model::text::trim;
use mqdiag_model::text::{decode_line, looks_like_text};
use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Value;
use std::borrow::Cow;
use std::fmt;

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
pub static FORMAT: Format = Format::of(&mqdiag_model::event::FormatInfo {
    name: "errlog-json",
    family: mqdiag_model::event::FormatFamily::ErrorLog,
    states_local_time: true,
    dataset: "ibmmq.errorlog",
    host_is_writer: false,
});

impl Standalone for ErrlogJson {
    const FORMAT: Format = FORMAT;
    const FUZZ: super::Fuzz = super::Fuzz {
        target: "errlog_json",
        names: &["AMQERR01.json"],
    };
    const SNIFF_CEILING: u8 = 95;

    fn sniff(name: &str, head: &[u8]) -> u8 {
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
        let text = mqdiag_model::text::utf8_lossy(head);
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

    fn group(input: &Input) -> Option<(String, u32)> {
        rotation_group(input, "json")
    }

    /// JSON error logs state UTC only; the text logs of the run say which
    /// local offset the queue manager's clock had (`errlog_text::survey`).
    fn prepare(siblings: &super::Siblings, opts: &ReadOptions) -> super::Prepared {
        let text = siblings.of(super::errlog_text::FORMAT);
        if text.is_empty() {
            return None;
        }
        Some(std::sync::Arc::new(super::errlog_text::survey(
            &text,
            opts.encoding,
        )))
    }

    fn new(prepared: super::Prepared) -> ErrlogJson {
        let clocks = prepared.and_then(|p| p.downcast::<ErrlogClocks>().ok());
        ErrlogJson::reading_as(Flavour::ErrorLog, clocks)
    }
}

/// Whose JSON lines a source reads, chosen once when it is made: the
/// records are the same, what comes around them differs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Flavour {
    /// An error log (`AMQERR01.json`): MQ's records only.
    ErrorLog,
    /// The console of an MQ container: the same records mixed with the
    /// container's own (`mq_containerlog`) and those of the logs it
    /// mirrors, each line maybe behind a `kubectl logs --timestamps` stamp.
    ContainerConsole,
}

impl Flavour {
    fn is_console(self) -> bool {
        self == Flavour::ContainerConsole
    }

    /// Whether a line may begin with a collector's time stamp.
    fn stamped_lines(self) -> bool {
        self.is_console()
    }

    /// Whether a free-text record may be an `FDC summary:` listing FDCs.
    fn lists_fdcs(self) -> bool {
        self.is_console()
    }

    /// Whether records may be those of logs the console mirrors (Liberty's,
    /// the start-up MQSC output, mqsimpleauth's).
    fn mirrors_logs(self) -> bool {
        self.is_console()
    }

    /// Whether a record with no message id, cut before its `type` (the
    /// container's keys are sorted), is free text rather than a log record.
    fn untyped_is_text(self) -> bool {
        self.is_console()
    }

    /// The inventory's variant of a file (`preview_keys`: some record used
    /// the 9.0.4 technology preview's keys).
    fn variant(self, preview_keys: bool) -> &'static str {
        match self {
            Flavour::ContainerConsole => "json",
            Flavour::ErrorLog if preview_keys => "9.0.4 preview keys",
            Flavour::ErrorLog => "ibm_* keys",
        }
    }
}

/// A source over JSON log lines of `flavour`, its events and inventory
/// rows of `format` (the reader that chose the flavour names its own).
pub(crate) fn source(
    inputs: Vec<Input>,
    opts: &ReadOptions,
    flavour: Flavour,
    format: Format,
    clocks: Option<std::sync::Arc<ErrlogClocks>>,
) -> Box<dyn Source> {
    let json = ErrlogJson::reading_as(flavour, clocks);
    Box::new(LineSource::new(json, format, inputs, opts))
}

/// A JSON value as the reader uses it: strings borrowed from the line
/// where they hold no escapes, numbers and booleans as `serde_json::Value`
/// prints them, anything else only checked. serde_json's own parser reads
/// it, through the same calls as for a `Value`, so what is accepted and
/// every error message stay the same; no map or strings are built for the
/// keys a record does not use.
#[derive(Debug, Clone, PartialEq)]
enum Lean<'a> {
    Str(Cow<'a, str>),
    Num(Cow<'a, str>),
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
        Ok(Lean::Num(Cow::Borrowed(if b { "true" } else { "false" })))
    }

    fn visit_i64<E>(self, n: i64) -> Result<Lean<'de>, E> {
        Ok(Lean::Num(Cow::Owned(
            serde_json::Number::from(n).to_string(),
        )))
    }

    fn visit_u64<E>(self, n: u64) -> Result<Lean<'de>, E> {
        Ok(Lean::Num(Cow::Owned(
            serde_json::Number::from(n).to_string(),
        )))
    }

    fn visit_f64<E>(self, n: f64) -> Result<Lean<'de>, E> {
        // As `Value`: a float that is not finite is null.
        Ok(serde_json::Number::from_f64(n)
            .map_or(Lean::Other, |n| Lean::Num(Cow::Owned(n.to_string()))))
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
/// Read by `flat_json` when the line is a plain object, else by serde_json.
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

/// A key's bucket in `BUCKETS`: its length and its last three bytes, the
/// same for any case of the letters (`| 0x20`). No two of `KEYS` share one
/// (`BUCKETS` does not compile otherwise), so a key is compared with one
/// of them at most.
const fn bucket(k: &[u8]) -> usize {
    let n = k.len();
    let (a, b, c) = (k[n - 1] | 0x20, k[n - 2] | 0x20, k[n - 3] | 0x20);
    (n * 3 + a as usize * 2 + c as usize * 6 + b as usize) % 64
}

const NO_SLOT: u8 = u8::MAX;

/// The slot of the `KEYS` key in each bucket.
const BUCKETS: [u8; 64] = {
    let mut out = [NO_SLOT; 64];
    let mut i = 0;
    while i < KEYS.len() {
        let b = bucket(KEYS[i].as_bytes());
        assert!(
            out[b] == NO_SLOT,
            "two KEYS share a bucket: change `bucket`"
        );
        out[b] = i as u8;
        i += 1;
    }
    out
};

/// Each of `KEYS` as three little-endian words, zero past its end, and
/// 0x20 at its letters: a key's word `w` is the key's in any case when
/// `w | mask == word`.
const KEY_WORDS: [([u64; 3], [u64; 3]); KEYS.len()] = {
    let mut out = [([0u64; 3], [0u64; 3]); KEYS.len()];
    let mut i = 0;
    while i < KEYS.len() {
        let k = KEYS[i].as_bytes();
        assert!(k.len() <= 24 && k.len() >= 3);
        let mut j = 0;
        while j < k.len() {
            assert!(!k[j].is_ascii_uppercase(), "KEYS are lower case");
            out[i].0[j / 8] |= (k[j] as u64) << (8 * (j % 8));
            if k[j].is_ascii_lowercase() {
                out[i].1[j / 8] |= 0x20 << (8 * (j % 8));
            }
            j += 1;
        }
        i += 1;
    }
    out
};

/// `k` (3 to 24 bytes) as three little-endian words, zero past its end:
/// a few loads instead of a loop over its bytes.
fn key_words(k: &[u8]) -> [u64; 3] {
    let n = k.len();
    let load8 = |i: usize| {
        let mut w = [0u8; 8];
        w.copy_from_slice(&k[i..i + 8]);
        u64::from_le_bytes(w)
    };
    let load4 = |i: usize| {
        let mut w = [0u8; 4];
        w.copy_from_slice(&k[i..i + 4]);
        u64::from(u32::from_le_bytes(w))
    };
    let mut out = [0u64; 3];
    let full = n / 8;
    for (j, w) in out.iter_mut().enumerate().take(full) {
        *w = load8(8 * j);
    }
    let part = n % 8;
    if part != 0 {
        // The last bytes: a load ending at the key's end, shifted down (or
        // two overlapping ones, which agree where they overlap).
        out[full] = if n >= 8 {
            load8(n - 8) >> (8 * (8 - part))
        } else if n >= 4 {
            load4(0) | load4(n - 4) << (8 * (n - 4))
        } else {
            k.iter()
                .enumerate()
                .fold(0, |w, (i, &c)| w | u64::from(c) << (8 * i))
        };
    }
    out
}

/// The slot of the `KEYS` key that `k` is in any case.
fn key_slot(k: &[u8]) -> Option<usize> {
    if k.len() < 3 || k.len() > 24 {
        return None;
    }
    let slot = BUCKETS[bucket(k)];
    if slot == NO_SLOT {
        return None;
    }
    let slot = usize::from(slot);
    if KEYS[slot].len() != k.len() {
        return None;
    }
    let (want, mask) = &KEY_WORDS[slot];
    let w = key_words(k);
    let same =
        (w[0] | mask[0] == want[0]) & (w[1] | mask[1] == want[1]) & (w[2] | mask[2] == want[2]);
    same.then_some(slot)
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

/// What an object says for each of `KEYS`: `at` answers what `member`
/// answers (of the spellings present the one that sorts first, and of a
/// key written twice the last).
struct Members<'m> {
    /// The spelling of each key found.
    keys: [Option<&'m str>; KEYS.len()],
    /// Its value as text; `None` for null, arrays and objects.
    values: [Option<&'m str>; KEYS.len()],
}

impl<'m> Members<'m> {
    fn empty() -> Self {
        Members {
            keys: [None; KEYS.len()],
            values: [None; KEYS.len()],
        }
    }

    /// All the members of an object as serde_json read them.
    fn new(members: &'m [(Cow<'_, str>, Lean<'_>)]) -> Self {
        let mut found = Members::empty();
        for (key, value) in members {
            if let Some(slot) = key_slot(key.as_bytes()) {
                found.note(slot, key, value.text());
            }
        }
        found
    }

    /// Takes in a member whose key is `KEYS[slot]` in some case.
    fn note(&mut self, slot: usize, key: &'m str, value: Option<&'m str>) {
        if self.keys[slot].is_none_or(|cur| key <= cur) {
            self.keys[slot] = Some(key);
            self.values[slot] = value;
        }
    }

    /// Puts `value` in `slot`, whatever was there.
    fn set(&mut self, slot: usize, value: &'m str) {
        self.keys[slot] = Some(KEYS[slot]);
        self.values[slot] = Some(value);
    }

    /// The value of the `KEYS` key in `slot` (`slot_of`, at compile time).
    fn at(&self, slot: usize) -> Option<&'m str> {
        self.values[slot].filter(|s| !s.is_empty())
    }
}

/// A plain object (`flat_json`) read in one pass, keeping only what it
/// says for `KEYS`; `None` when the line is anything else, for serde_json
/// to read.
fn scan_known(line: &str) -> Option<Members<'_>> {
    let mut found = Members::empty();
    let plain = flat_json::members(line, |k, v| {
        if let Some(slot) = key_slot(k.as_bytes()) {
            let text = match v {
                Scalar::Str(s) | Scalar::Int(s) => Some(s),
                Scalar::Bool(b) => Some(if b { "true" } else { "false" }),
                Scalar::Null => None,
            };
            found.note(slot, k, text);
        }
    });
    if !plain {
        return None;
    }
    // Tests and fuzzing hold the scanner to serde_json's answer.
    #[cfg(debug_assertions)]
    match serde_json::from_str::<Line>(line) {
        Ok(Line::Object(all)) => {
            let by_serde = Members::new(&all);
            for slot in 0..KEYS.len() {
                assert_eq!(found.at(slot), by_serde.at(slot), "{line}");
            }
        }
        other => panic!("serde_json reads {other:?} from {line}"),
    }
    Some(found)
}

/// What is kept while one file is read.
pub(crate) struct JsonFile {
    qmgr: Option<String>,
    scope: Option<&'static str>,
    preview_keys: bool,
    duplicates: u64,
}

/// The format's specifics (`LineReader<ErrlogJson>` is its reader; a
/// container log's JSON lines are read with it too). `ibm_datetime` is
/// always UTC: no --tz needed; `clocks` gives the local offset when a text
/// log beside it states one.
pub struct ErrlogJson {
    flavour: Flavour,
    /// The offsets the run's text error logs state (`prepare`).
    clocks: Option<std::sync::Arc<ErrlogClocks>>,
    /// Records also in an older generation of the rotated set.
    dedup: Dedup,
    /// The current line, decoded.
    line: String,
    /// The collector's time taken off the current line (`kubectl logs
    /// --timestamps`), for a record cut before its own.
    stamp: String,
    memo: catalog::Memo,
    /// Files of the source not opened yet.
    files_left: usize,
}

impl ErrlogJson {
    /// The state of one source of records of `flavour`.
    fn reading_as(flavour: Flavour, clocks: Option<std::sync::Arc<ErrlogClocks>>) -> ErrlogJson {
        ErrlogJson {
            flavour,
            clocks,
            dedup: Dedup::default(),
            line: String::new(),
            stamp: String::new(),
            memo: catalog::Memo::default(),
            files_left: 0,
        }
    }
}

impl LineFormat for ErrlogJson {
    type File = JsonFile;

    fn start(&mut self, inputs: &[Input], _opts: &ReadOptions) {
        self.files_left = inputs.len();
    }

    fn open_file(&mut self, input: &Input, ctx: &mut FileCtx) -> JsonFile {
        self.files_left = self.files_left.saturating_sub(1);
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
        self.stamp.clear();
        if self.flavour.stamped_lines()
            && let Some(rest) = super::console::strip_kubectl_stamp(&line)
        {
            let n = line.len() - rest.len();
            self.stamp.push_str(line[..n].trim_end());
            line.drain(..n);
        }
        if line.is_empty() {
            self.line = line;
            return;
        }
        // Nearly every record is a plain object, read in one pass; the
        // rest go to serde_json.
        let scanned = scan_known(&line);
        let mut parsed = match &scanned {
            Some(_) => None,
            None => Some(serde_json::from_str::<Line>(&line)),
        };
        // A string escape that is no character (`\ud800`): the record is
        // read with U+FFFD in its place, and the line says so.
        let repaired = match &parsed {
            Some(Err(_)) => super::flat_json::repair_escapes(&line),
            _ => None,
        };
        if let Some(r) = &repaired
            && let Ok(m @ Line::Object(_)) = serde_json::from_str::<Line>(&r.line)
        {
            ctx.info.problem(
                ProblemCode::Encoding,
                Some(no),
                Severity::Warning,
                0,
                r.message(),
            );
            parsed = Some(Ok(m));
        }
        let found = match (scanned, &parsed) {
            (Some(found), _) => found,
            (None, Some(Ok(Line::Object(m)))) => Members::new(m),
            (None, Some(Ok(Line::NotObject))) => {
                ctx.info.problem(
                    ProblemCode::BadLine,
                    Some(no),
                    Severity::Warning,
                    1,
                    "not a JSON object: line skipped",
                );
                return;
            }
            (None, Some(Err(e))) => {
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
                        && let Some(mut e) = self.record(run, ctx, no, &Members::new(&m))
                    {
                        e.set(AttrKey::Incomplete, "true");
                        e.offset = meta.offset;
                        ctx.emit(e);
                    }
                    return;
                }
                // Cut inside (or before) its own time, under a collector
                // that stamped the line: kept at the collector's time.
                if !self.stamp.is_empty()
                    && let Ok(Line::Object(m)) = serde_json::from_str::<Line>(&cut_head_any(&line))
                {
                    let stamp = std::mem::take(&mut self.stamp);
                    let mut found = Members::new(&m);
                    found.set(const { slot_of("ibm_datetime") }, &stamp);
                    ctx.info.problem(
                        ProblemCode::CutRecord,
                        Some(no),
                        Severity::Warning,
                        0,
                        format!(
                            "{what}: {why}: kept as an incomplete record at the collector's time {stamp}"
                        ),
                    );
                    if let Some(mut e) = self.record(run, ctx, no, &found) {
                        e.set(AttrKey::Incomplete, "true");
                        e.offset = meta.offset;
                        ctx.emit(e);
                    }
                    self.stamp = stamp;
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
            (None, None) => return,
        };
        if let Some(mut e) = self.record(run, ctx, no, &found) {
            e.offset = meta.offset;
            // The web server's audit records have no `message`.
            if e.text.is_empty()
                && key!(found, "type") == Some("liberty_audit")
                && let Some(t) = super::console::audit_text(&line)
            {
                e.text = t;
            }
            // A container's `FDC summary:` record lists FDCs: each is one.
            let fdcs = if self.flavour.lists_fdcs() && e.kind == Kind::Text {
                super::ffstsummary::events_in(&e.text, ctx.origin, no, *e.ts.offset())
            } else {
                Vec::new()
            };
            ctx.emit(e);
            for mut f in fdcs {
                f.offset = meta.offset;
                ctx.emit(f);
            }
        }
        drop(parsed);
        self.line = line;
    }

    fn finish_file(&mut self, run: JsonFile, ctx: &mut FileCtx) {
        self.dedup.end_file();
        let variant = vec![self.flavour.variant(run.preview_keys).to_string()];
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
        found: &Members,
    ) -> Option<Event> {
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
        let parsed = super::console::rfc3339(when).or_else(|e| colonless_offset(when).ok_or(e));
        let ts: DateTime<FixedOffset> = match parsed {
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
        // A lone file (or the last of a set with no earlier keys) is
        // checked against nothing and by nothing: its records need no key.
        if self.dedup.needed(self.files_left > 0) {
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
        }
        let mirrored = if self.flavour.mirrors_logs() {
            super::console::mirrored(
                key!(found, "type"),
                key!(found, "ibm_processname"),
                key!(found, "module"),
                message,
            )
        } else {
            None
        };
        let liberty = mirrored == Some(super::console::Mirrored::Liberty);
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
        let text = mqdiag_model::event::spare_copy(if message.is_empty() {
            msgid.unwrap_or_default()
        } else {
            message
        });
        // The container's own programs (`runmqserver`) write records of
        // type `mq_containerlog`: no MQ message, free text.
        let kind = match key!(found, "type") {
            Some("mq_containerlog") if msgid.is_none() => Kind::Text,
            // The web server's messages have ids of their own (`CWWKF0011I`),
            // not in MQ's catalogue; MQSC output without one is its echo of
            // the commands.
            _ if liberty || (mirrored.is_some() && msgid.is_none()) => Kind::Text,
            // Cut before its `type`.
            None if msgid.is_none() && self.flavour.untyped_is_text() => Kind::Text,
            _ => Kind::LogRecord,
        };
        let mut e = Event::new(ts, ctx.origin.clone(), no, kind, text);
        // A record carries about 20 attributes: one allocation, not five.
        e.attrs = mqdiag_model::event::Attrs::spare(32, 512);
        e.pid = pid;
        e.tid = tid;
        if liberty {
            if let Some(id) = msgid {
                e.set(AttrKey::Msgid, id);
            }
        } else if let Some(id) = msgid {
            self.memo.extract(id, message, &inserts).apply(&mut e);
        }
        // Liberty's `ibm_serverName` is the web server's (`mqweb`).
        let server = key!(found, "ibm_servername").filter(|_| !liberty);
        let qmgr = server.or(run.qmgr.as_deref());
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
        if let Some(m) = mirrored
            && e.get(AttrKey::Program).is_none()
        {
            e.set(AttrKey::Program, m.program());
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

/// A time whose UTC offset has no colon (`2024-08-12T08:32:48.120+0000`,
/// as Liberty writes `ibm_datetime`), read as RFC 3339 with one.
fn colonless_offset(when: &str) -> Option<DateTime<FixedOffset>> {
    let n = when.len().checked_sub(5)?;
    let (head, off) = when.split_at_checked(n)?;
    let b = off.as_bytes();
    if !(matches!(b[0], b'+' | b'-') && b[1..].iter().all(u8::is_ascii_digit)) {
        return None;
    }
    super::console::rfc3339(&format!("{head}{}:{}", &off[..3], &off[3..])).ok()
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

/// The members of a JSON object cut short, as `cut_record_head` keeps
/// them but with or without `ibm_datetime`; `{}` when none is whole.
fn cut_head_any(line: &str) -> String {
    let closed = format!("{line}\"}}");
    if serde_json::from_str::<Line>(&closed).is_ok() {
        return closed;
    }
    let mut end = line.len();
    for _ in 0..64 {
        let Some(pos) = line[..end].rfind(",\"") else {
            break;
        };
        let head = format!("{}}}", &line[..pos]);
        if serde_json::from_str::<Line>(&head).is_ok() {
            return head;
        }
        end = pos;
    }
    "{}".to_string()
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
mod tests;
