//! Text error logs (`AMQERR01.LOG` ... `AMQERR03.LOG`), MQSeries 5.x to 9.4,
//! every platform and locale. See `shared/formats/error-log.md` §1 and §5.
//!
//! A record is a header line (`<local date> <time>[ AM|PM] - Process(p.t)
//! User(u) Program(p)`), indented `Name(value)` attribute lines, the message
//! line (`AMQnnnn[X]: summary`), two headed sections (explanation, action;
//! headings localised) and a separator line (`----- amqxxx.c : 123 ----`)
//! that closes it.
//!
//! Each file is read twice, streaming both times. The first pass looks at
//! header and `Time()` lines only, to decide the date order of each header
//! style (`.`, AM/PM, a field above 12, agreement with `Time()`) and the UTC
//! offset (local header time minus `Time()`). The second pass parses the
//! records. A rotated set (AMQERR03, 02, 01) is one source, oldest first.

use super::Reader;
use super::errlog_common::{
    Dedup, PathFacts, RecordKey, path_facts, rotation_group, trim, trim_end, trim_start,
};
use crate::catalog;
use crate::event::{Event, Format, Kind, Origin};
use crate::input::Input;
use crate::lines::LineReader;
use crate::source::{FileInfo, ProblemCode, ReadOptions, Severity, Source};
use crate::text::{Encoding, decode_line, looks_like_text};
use chrono::{FixedOffset, NaiveDate, NaiveDateTime, NaiveTime, TimeZone};
use regex::Regex;
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::io::Read;
use std::sync::{Arc, LazyLock};

/// Text kept per record; the rest of a runaway record is dropped.
const MAX_RECORD_BYTES: usize = 64 * 1024;
/// Attributes kept per record.
const MAX_ATTRS: usize = 64;
/// Users whose date order is decided on their own, per header style.
const MAX_USERS_PER_STYLE: usize = 64;
/// The largest UTC offset in use (+14:00, Kiribati).
const MAX_OFFSET_SECS: i64 = 14 * 3600;

pub struct ErrlogTextReader;

/// `<date> <time>[ AM] - ` followed by the `Process(...)` attributes. The en
/// dash and no-break spaces come from copies pasted into documents.
static HEADER_RE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^\s*(\d{1,2})([./-])(\d{1,2})[./-](\d{2,4})[\s\u{a0}]+(\d{1,2}):(\d{2}):(\d{2})(?:[\s\u{a0}]*([AaPp][Mm]))?[\s\u{a0}]+[-–][\s\u{a0}]+(Process\(.*)$",
    )
    .expect("header regex")
});

/// MQSeries 5.x: `MM/DD/YY HH:MM:SS`, the message possibly on the same line.
static LEGACY_RE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(\d{2})/(\d{2})/(\d{2})\s+(\d{2}):(\d{2}):(\d{2})\s*(AMQ\d{4}[A-Z]?:.*)?$")
        .expect("legacy regex")
});

static MSG_RE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^(AMQ\d{4}[A-Z]?):\s?(.*)$").expect("message regex"));

static SEPARATOR_RE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^-{5}(?: (\S+) : (\d+) )?-+\s*$").expect("separator regex"));

/// Headings that may carry their text on the same line (old releases) or be
/// glued to the end of the summary (pasted copies).
const KNOWN_HEADINGS: &[&str] = &[
    "EXPLANATION",
    "ACTION",
    "ERKLÄRUNG",
    "AKTION",
    "EXPLICATION",
    "EXPLICACIÓN",
    "ACCIÓN",
    "SPIEGAZIONE",
    "AZIONE",
];

/// Attribute names that may appear without indentation (copies that lost
/// it) and still be read as attributes.
const KNOWN_ATTRS: &[&str] = &[
    "Host",
    "Installation",
    "VRMF",
    "QMgr",
    "Time",
    "RemoteHost",
    "ArithInsert1",
    "ArithInsert2",
    "CommentInsert1",
    "CommentInsert2",
    "CommentInsert3",
];

impl Reader for ErrlogTextReader {
    fn format(&self) -> Format {
        Format::ErrlogText
    }

    fn sniff(&self, name: &str, head: &[u8]) -> u8 {
        if head.is_empty() {
            // No content to judge: an empty AMQERRnn.LOG is common (a
            // generation not written yet) and belongs here.
            return if super::errlog_common::rotation_name(name, "log").is_some() {
                20
            } else {
                0
            };
        }
        // A log with a NUL hole (a crash while writing) fails the text test
        // but is still a log: the header pattern alone is strict enough.
        let text_like = looks_like_text(head);
        let text = String::from_utf8_lossy(head);
        if !text_like {
            let found = text
                .lines()
                .take(400)
                .any(|l| parse_header(l.trim_start_matches('\0')).is_some());
            return if found { 90 } else { 0 };
        }
        let mut seps = 0;
        let mut msgs = 0;
        let mut prev_legacy = false;
        for line in text.lines().take(400) {
            if parse_header(line).is_some() {
                return 95;
            }
            if prev_legacy && MSG_RE.is_match(line) {
                return 85;
            }
            prev_legacy = LEGACY_RE.is_match(line);
            if prev_legacy && line.contains("AMQ") {
                return 85;
            }
            if line.starts_with("-----") && SEPARATOR_RE.is_match(line) && line.contains(" : ") {
                seps += 1;
            }
            if MSG_RE.is_match(line) {
                msgs += 1;
            }
        }
        // A file that starts inside a long record: message lines and
        // separators naming a source file.
        if seps > 0 && msgs > 0 { 60 } else { 0 }
    }

    fn group(&self, input: &Input) -> Option<(String, u32)> {
        rotation_group(input, "log")
    }

    fn open(&self, inputs: Vec<Input>, opts: &ReadOptions) -> Box<dyn Source> {
        Box::new(ErrlogTextSource::new(inputs, opts.clone()))
    }
}

// ---------------------------------------------------------------------------
// Attributes and headers

/// The result of scanning `Name(value) Name(value)` tokens.
#[derive(Debug, Default, PartialEq)]
pub struct AttrScan {
    pub attrs: Vec<(String, String)>,
    /// The attribute whose parentheses did not balance before the end of
    /// the line (its value was taken up to the last `)`).
    pub unbalanced: Option<String>,
    /// Text that is not a `Name(` token, from where scanning stopped.
    pub junk: Option<String>,
}

/// Scan attribute tokens with a balanced-parenthesis scanner: values hold
/// parentheses (`5464(12000)`, `mqd00 (1.2.3.4)(1416)`), spaces, commas and
/// backslashes, which are kept as they are.
pub fn scan_attrs(s: &str) -> AttrScan {
    let mut out = AttrScan::default();
    let (unbalanced, junk) =
        scan_attrs_each(s, |k, v| out.attrs.push((k.to_string(), v.to_string())));
    out.unbalanced = unbalanced.map(str::to_string);
    out.junk = junk.map(str::to_string);
    out
}

/// `scan_attrs` without the copies: each name and value is handed to `f`;
/// returns the unbalanced attribute's name and the junk. Lets the first pass
/// look at a few attributes without allocating for the others.
fn scan_attrs_each<'a>(
    s: &'a str,
    mut f: impl FnMut(&'a str, &'a str),
) -> (Option<&'a str>, Option<&'a str>) {
    let b = s.as_bytes();
    let mut i = 0;
    loop {
        while i < b.len() && (b[i] == b' ' || b[i] == b'\t') {
            i += 1;
        }
        if i >= b.len() {
            return (None, None);
        }
        let start = i;
        while i < b.len() && b[i].is_ascii_alphanumeric() {
            i += 1;
        }
        if i == start || !b[start].is_ascii_alphabetic() || b.get(i) != Some(&b'(') {
            return (None, Some(s[start..].trim()));
        }
        let name = &s[start..i];
        let vstart = i + 1;
        let mut depth = 1usize;
        let mut j = vstart;
        while j < b.len() {
            match b[j] {
                b'(' => depth += 1,
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                _ => {}
            }
            j += 1;
        }
        if depth > 0 {
            let rest = &s[vstart..];
            let value = match rest.rfind(')') {
                Some(k) => &rest[..k],
                None => rest,
            };
            f(name, value.trim_end());
            return (Some(name), None);
        }
        f(name, &s[vstart..j]);
        i = j + 1;
    }
}

/// How a header writes its date: the separator, the year's digits and
/// whether the clock has AM/PM. The date order is decided per style.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Style {
    sep: u8,
    year_digits: u8,
    ampm: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    /// Month first (US, and the C locale's `%x`).
    Mdy,
    /// Day first (most of Europe).
    Dmy,
}

impl Order {
    fn as_str(self) -> &'static str {
        match self {
            Order::Mdy => "month/day/year",
            Order::Dmy => "day/month/year",
        }
    }
}

/// One parsed header line.
#[derive(Debug, Clone, PartialEq)]
pub struct Header {
    a: u32,
    b: u32,
    year: i32,
    style: Style,
    hour: u32,
    min: u32,
    sec: u32,
    pid: Option<u32>,
    tid: Option<u32>,
    user: Option<String>,
    program: Option<String>,
    /// Further header attributes (appliance-style headers).
    extra: Vec<(String, String)>,
    /// Date and time as written.
    local_raw: String,
    /// MQSeries 5.x: message text on the header line.
    legacy_text: Option<String>,
    unbalanced: Option<String>,
}

fn num(s: &str) -> u32 {
    s.parse().unwrap_or(u32::MAX)
}

// ---------------------------------------------------------------------------
// Hand-written matchers. Each mirrors one of the regexes above exactly and
// decides on ASCII input; where a non-ASCII byte sits at a place the
// regex's Unicode classes (`\s`, `\d`, `–`) look at, it gives up and the
// regex decides. The regexes with captures cost microseconds a line; these
// cost a few nanoseconds. `tests::fast_matchers_agree_with_regexes` holds
// them to the regexes.

/// Why a hand-written matcher stopped.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Stop {
    /// The regex cannot match either.
    No,
    /// A byte only the regex can judge: ask it.
    Unsure,
}

type Step<T> = Result<T, Stop>;

/// ASCII bytes in the regex class `\s` (`\n` never occurs inside a line).
fn is_ascii_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

struct Cur<'a> {
    b: &'a [u8],
    i: usize,
}

impl Cur<'_> {
    /// The byte under the cursor; `Unsure` when it is not ASCII.
    fn byte(&self) -> Step<Option<u8>> {
        match self.b.get(self.i) {
            Some(&c) if c >= 0x80 => Err(Stop::Unsure),
            c => Ok(c.copied()),
        }
    }

    /// A run of `min..=max` ASCII digits. In every regex here a digit group
    /// is followed by something that is not a digit, so a longer run cannot
    /// match; a non-ASCII byte after the run may be a Unicode digit.
    fn digits(&mut self, min: usize, max: usize) -> Step<(usize, usize)> {
        let s = self.i;
        while self.i < self.b.len() && self.b[self.i].is_ascii_digit() {
            self.i += 1;
        }
        self.byte()?;
        let n = self.i - s;
        if n < min || n > max {
            return Err(Stop::No);
        }
        Ok((s, self.i))
    }

    /// A run of whitespace; its length.
    fn ws(&mut self) -> Step<usize> {
        let s = self.i;
        while self.i < self.b.len() && is_ascii_ws(self.b[self.i]) {
            self.i += 1;
        }
        self.byte()?;
        Ok(self.i - s)
    }

    fn lit(&mut self, c: u8) -> Step<()> {
        match self.byte()? {
            Some(x) if x == c => {
                self.i += 1;
                Ok(())
            }
            _ => Err(Stop::No),
        }
    }

    fn one_of(&mut self, set: &[u8]) -> Step<usize> {
        match self.byte()? {
            Some(x) if set.contains(&x) => {
                self.i += 1;
                Ok(self.i - 1)
            }
            _ => Err(Stop::No),
        }
    }
}

type Span = (usize, usize);

/// The groups of `HEADER_RE`, as byte ranges of the line.
#[derive(Debug, Clone, Copy, PartialEq)]
struct HeaderSpans {
    a: Span,
    sep: usize,
    b: Span,
    year: Span,
    hour: Span,
    min: Span,
    sec: Span,
    ampm: Option<Span>,
    /// Start of `Process(...`, which runs to the end of the line.
    rest: usize,
}

fn header_fast(line: &str) -> Step<HeaderSpans> {
    if line.contains('\n') {
        return Err(Stop::Unsure);
    }
    let mut c = Cur {
        b: line.as_bytes(),
        i: 0,
    };
    c.ws()?;
    let a = c.digits(1, 2)?;
    let sep = c.one_of(b"./-")?;
    let b = c.digits(1, 2)?;
    c.one_of(b"./-")?;
    let year = c.digits(2, 4)?;
    if c.ws()? == 0 {
        return Err(Stop::No);
    }
    let hour = c.digits(1, 2)?;
    c.lit(b':')?;
    let min = c.digits(2, 2)?;
    c.lit(b':')?;
    let sec = c.digits(2, 2)?;
    let gap = c.ws()?;
    let mut ampm = None;
    if let Some(b'A' | b'a' | b'P' | b'p') = c.byte()? {
        // Only AM/PM can follow here; without it no dash can either.
        if !matches!(c.b.get(c.i + 1), Some(b'M' | b'm')) {
            return Err(Stop::No);
        }
        ampm = Some((c.i, c.i + 2));
        c.i += 2;
        if c.ws()? == 0 {
            return Err(Stop::No);
        }
    } else if gap == 0 {
        return Err(Stop::No);
    }
    c.lit(b'-')?;
    if c.ws()? == 0 {
        return Err(Stop::No);
    }
    if !line[c.i..].starts_with("Process(") {
        return Err(Stop::No);
    }
    Ok(HeaderSpans {
        a,
        sep,
        b,
        year,
        hour,
        min,
        sec,
        ampm,
        rest: c.i,
    })
}

fn header_regex(line: &str) -> Option<HeaderSpans> {
    let c = HEADER_RE.captures(line)?;
    let g = |i: usize| c.get(i).map(|m| (m.start(), m.end()));
    Some(HeaderSpans {
        a: g(1)?,
        sep: g(2)?.0,
        b: g(3)?,
        year: g(4)?,
        hour: g(5)?,
        min: g(6)?,
        sec: g(7)?,
        ampm: g(8),
        rest: g(9)?.0,
    })
}

/// The groups of `LEGACY_RE`: six two-digit fields and the message text.
#[derive(Debug, Clone, Copy, PartialEq)]
struct LegacySpans {
    f: [Span; 6],
    text: Option<usize>,
}

fn legacy_fast(line: &str) -> Step<LegacySpans> {
    if line.contains('\n') {
        return Err(Stop::Unsure);
    }
    let mut c = Cur {
        b: line.as_bytes(),
        i: 0,
    };
    let f0 = c.digits(2, 2)?;
    c.lit(b'/')?;
    let f1 = c.digits(2, 2)?;
    c.lit(b'/')?;
    let f2 = c.digits(2, 2)?;
    if c.ws()? == 0 {
        return Err(Stop::No);
    }
    let f3 = c.digits(2, 2)?;
    c.lit(b':')?;
    let f4 = c.digits(2, 2)?;
    c.lit(b':')?;
    let f5 = c.digits(2, 2)?;
    c.ws()?;
    let f = [f0, f1, f2, f3, f4, f5];
    if c.byte()?.is_none() {
        return Ok(LegacySpans { f, text: None });
    }
    let text = c.i;
    if !line[c.i..].starts_with("AMQ") {
        return Err(Stop::No);
    }
    c.i += 3;
    c.digits(4, 4)?;
    if let Some(b'A'..=b'Z') = c.byte()? {
        c.i += 1;
    }
    c.lit(b':')?;
    Ok(LegacySpans {
        f,
        text: Some(text),
    })
}

fn legacy_regex(line: &str) -> Option<LegacySpans> {
    let c = LEGACY_RE.captures(line)?;
    let g = |i: usize| c.get(i).map(|m| (m.start(), m.end()));
    Some(LegacySpans {
        f: [g(1)?, g(2)?, g(3)?, g(4)?, g(5)?, g(6)?],
        text: g(7).map(|s| s.0),
    })
}

/// `MSG_RE`'s groups: the message id and the text after the colon and one
/// optional whitespace character.
fn msg_fast(s: &str) -> Step<(&str, &str)> {
    if !s.starts_with("AMQ") {
        return Err(Stop::No);
    }
    if s.contains('\n') {
        return Err(Stop::Unsure);
    }
    let mut c = Cur {
        b: s.as_bytes(),
        i: 3,
    };
    c.digits(4, 4)?;
    if let Some(b'A'..=b'Z') = c.byte()? {
        c.i += 1;
    }
    c.lit(b':')?;
    let id = &s[..c.i - 1];
    let mut rest = &s[c.i..];
    if let Some(ch) = rest.chars().next().filter(|ch| ch.is_whitespace()) {
        rest = &rest[ch.len_utf8()..];
    }
    Ok((id, rest))
}

/// Split a message line (`AMQnnnn[X]: text`) into id and text.
fn msg_split(s: &str) -> Option<(&str, &str)> {
    match msg_fast(s) {
        Ok(x) => Some(x),
        Err(Stop::No) => None,
        Err(Stop::Unsure) => {
            let c = MSG_RE.captures(s)?;
            Some((c.get(1)?.as_str(), c.get(2)?.as_str()))
        }
    }
}

/// `SEPARATOR_RE`'s groups (source file, line) on an ASCII line.
fn separator_fast(line: &str) -> Step<Option<(Span, Span)>> {
    if !line.is_ascii() || line.contains('\n') {
        return Err(Stop::Unsure);
    }
    let b = line.as_bytes();
    if !line.starts_with("-----") {
        return Err(Stop::No);
    }
    let mut i = 5;
    let mut groups = None;
    if b.get(i) == Some(&b' ') {
        // ` (\S+) : (\d+) `: the only way on from a space.
        i += 1;
        let fs = i;
        while i < b.len() && !is_ascii_ws(b[i]) {
            i += 1;
        }
        let fe = i;
        if fe == fs || !b[i..].starts_with(b" : ") {
            return Err(Stop::No);
        }
        i += 3;
        let ds = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        let de = i;
        if de == ds || b.get(i) != Some(&b' ') {
            return Err(Stop::No);
        }
        i += 1;
        groups = Some(((fs, fe), (ds, de)));
    }
    let dashes = i;
    while b.get(i) == Some(&b'-') {
        i += 1;
    }
    if i == dashes {
        return Err(Stop::No);
    }
    while i < b.len() && is_ascii_ws(b[i]) {
        i += 1;
    }
    if i != b.len() {
        return Err(Stop::No);
    }
    Ok(groups)
}

/// Parse a header line; `None` when the line is not one. Only lines that
/// start with a digit are tried, so text lines cost one byte test.
pub fn parse_header(line: &str) -> Option<Header> {
    let first = trim_start(line).bytes().next()?;
    if !first.is_ascii_digit() {
        return None;
    }
    let spans = match header_fast(line) {
        Ok(s) => Some(s),
        Err(Stop::No) => None,
        Err(Stop::Unsure) => header_regex(line),
    };
    if let Some(s) = spans {
        return header_from(line, &s);
    }
    let spans = match legacy_fast(line) {
        Ok(s) => s,
        Err(Stop::No) => return None,
        Err(Stop::Unsure) => legacy_regex(line)?,
    };
    Some(legacy_from(line, &spans))
}

/// `parse_header` by the regexes alone: what the fast matchers must agree
/// with.
#[cfg(test)]
fn parse_header_by_regex(line: &str) -> Option<Header> {
    let first = line.trim_start().bytes().next()?;
    if !first.is_ascii_digit() {
        return None;
    }
    if let Some(s) = header_regex(line) {
        return header_from(line, &s);
    }
    Some(legacy_from(line, &legacy_regex(line)?))
}

fn header_from(line: &str, c: &HeaderSpans) -> Option<Header> {
    let g = |s: Span| &line[s.0..s.1];
    let mut pid = None;
    let mut tid = None;
    let mut user = None;
    let mut program = None;
    let mut extra = Vec::new();
    let (unbalanced, _) = scan_attrs_each(&line[c.rest..], |k, v| match k {
        "Process" => {
            let (p, t) = v.split_once('.').unwrap_or((v, ""));
            pid = p.trim().parse().ok();
            tid = t.trim().parse().ok();
        }
        "User" => user = Some(v.to_string()),
        "Program" => program = Some(v.to_string()),
        _ => extra.push((k.to_string(), v.to_string())),
    });
    pid?;
    let ylen = (c.year.1 - c.year.0) as u8;
    let mut year: i32 = g(c.year).parse().ok()?;
    if ylen <= 2 {
        year += if year < 70 { 2000 } else { 1900 };
    }
    let mut hour = num(g(c.hour));
    let ampm = c.ampm.map(|s| g(s).to_ascii_uppercase());
    if let Some(ap) = &ampm {
        if !(1..=12).contains(&hour) {
            hour = u32::MAX;
        } else {
            hour = match (ap.as_str(), hour) {
                ("AM", 12) => 0,
                ("PM", 12) => 12,
                ("PM", h) => h + 12,
                (_, h) => h,
            };
        }
    }
    let raw_end = c.ampm.map(|s| s.1).unwrap_or(c.sec.1);
    let raw_start = c.a.0;
    Some(Header {
        a: num(g(c.a)),
        b: num(g(c.b)),
        year,
        style: Style {
            sep: line.as_bytes()[c.sep],
            year_digits: ylen,
            ampm: ampm.is_some(),
        },
        hour,
        min: num(g(c.min)),
        sec: num(g(c.sec)),
        pid,
        tid,
        user,
        program,
        extra,
        local_raw: line[raw_start..raw_end].to_string(),
        legacy_text: None,
        unbalanced: unbalanced.map(str::to_string),
    })
}

fn legacy_from(line: &str, c: &LegacySpans) -> Header {
    let f: Vec<&str> = c.f.iter().map(|s| &line[s.0..s.1]).collect();
    let year = 2000 + num(f[2]) as i32 - if num(f[2]) >= 70 { 100 } else { 0 };
    Header {
        a: num(f[0]),
        b: num(f[1]),
        year,
        style: Style {
            sep: b'/',
            year_digits: 2,
            ampm: false,
        },
        hour: num(f[3]),
        min: num(f[4]),
        sec: num(f[5]),
        pid: None,
        tid: None,
        user: None,
        program: None,
        extra: Vec::new(),
        local_raw: format!("{}/{}/{} {}:{}:{}", f[0], f[1], f[2], f[3], f[4], f[5]),
        legacy_text: c.text.map(|t| line[t..].to_string()),
        unbalanced: None,
    }
}

impl Header {
    /// The local date and time in the given order; `None` when invalid.
    fn local(&self, order: Order) -> Option<NaiveDateTime> {
        let (m, d) = match order {
            Order::Mdy => (self.a, self.b),
            Order::Dmy => (self.b, self.a),
        };
        let date = NaiveDate::from_ymd_opt(self.year, m, d)?;
        let time = NaiveTime::from_hms_opt(self.hour, self.min, self.sec)?;
        Some(date.and_time(time))
    }

    fn is_legacy(&self) -> bool {
        self.pid.is_none()
    }
}

/// `2018-10-17T11:50:16.330Z`
fn parse_utc(s: &str) -> Option<NaiveDateTime> {
    let s = s.trim();
    let s = s.strip_suffix('Z').or_else(|| s.strip_suffix('z'))?;
    // chrono parses its format string on every call; the one form MQ
    // writes is read by hand, anything else by chrono.
    utc_fast(s).or_else(|| NaiveDateTime::parse_from_str(s, "%Y-%m-%dT%H:%M:%S%.f").ok())
}

/// `YYYY-MM-DDTHH:MM:SS[.f]` with 1 to 9 fraction digits and fields in
/// range; `None` leaves the string to chrono.
fn utc_fast(s: &str) -> Option<NaiveDateTime> {
    let b = s.as_bytes();
    if b.len() < 19
        || b[4] != b'-'
        || b[7] != b'-'
        || b[10] != b'T'
        || b[13] != b':'
        || b[16] != b':'
    {
        return None;
    }
    let n = |from: usize, to: usize| -> Option<u32> {
        b[from..to].iter().try_fold(0u32, |acc, &d| {
            d.is_ascii_digit().then(|| acc * 10 + u32::from(d - b'0'))
        })
    };
    let (year, month, day) = (n(0, 4)?, n(5, 7)?, n(8, 10)?);
    let (hour, min, sec) = (n(11, 13)?, n(14, 16)?, n(17, 19)?);
    let nano = match &b[19..] {
        [] => 0,
        [b'.', frac @ ..] if (1..=9).contains(&frac.len()) => {
            n(20, b.len())? * 10u32.pow(9 - frac.len() as u32)
        }
        _ => return None,
    };
    if hour > 23 || min > 59 || sec > 59 {
        return None;
    }
    NaiveDate::from_ymd_opt(year as i32, month, day)?.and_hms_nano_opt(hour, min, sec, nano)
}

/// Local minus UTC, rounded to 15 minutes; `None` beyond ±14 hours (a
/// header and `Time()` that disagree, which IBM's own examples show).
fn offset_of(local: NaiveDateTime, utc: NaiveDateTime) -> Option<i32> {
    let secs = (local - utc).num_seconds();
    let q = ((secs as f64) / 900.0).round() as i64 * 900;
    (q.abs() <= MAX_OFFSET_SECS).then_some(q as i32)
}

fn is_separator(line: &str) -> Option<Option<String>> {
    if !line.starts_with("-----") {
        return None;
    }
    let groups = match separator_fast(line) {
        Ok(g) => g,
        Err(Stop::No) => return None,
        Err(Stop::Unsure) => {
            let c = SEPARATOR_RE.captures(line)?;
            match (c.get(1), c.get(2)) {
                (Some(f), Some(l)) => Some(((f.start(), f.end()), (l.start(), l.end()))),
                _ => None,
            }
        }
    };
    Some(groups.map(|(f, l)| format!("{}:{}", &line[f.0..f.1], &line[l.0..l.1])))
}

/// `AMQnnnn[X]: ...`; the byte test first, since this runs on every line
/// of a record's text.
fn is_msg_line(s: &str) -> bool {
    s.starts_with("AMQ") && msg_split(s).is_some()
}

fn is_blank(s: &str) -> bool {
    s.chars().all(char::is_whitespace)
}

/// A section heading: `EXPLANATION:`, `ERKLÄRUNG:`, `EXPLICATION :`,
/// `説明:`, mojibake like `ERKLéRUNG:`. One or two words with no ASCII
/// lower case and no digits, then a colon (French puts a space before it).
/// Returns the text after the colon for the known headings that old
/// releases wrote on the same line.
fn heading(line: &str) -> Option<&str> {
    let t = trim_end(line);
    // Most text lines are neither form: no colon at the end, and not the
    // first letter of a known heading.
    if !t.ends_with(':') && !matches!(t.as_bytes().first(), Some(b'E' | b'A' | b'S')) {
        return None;
    }
    if let Some(word) = t.strip_suffix(':') {
        let word = word.trim();
        let words = word.split_whitespace().count();
        if (1..=2).contains(&words)
            && word.chars().count() <= 30
            && word.chars().any(char::is_alphabetic)
            && !word
                .chars()
                .any(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        {
            return Some("");
        }
    }
    for h in KNOWN_HEADINGS {
        if let Some(rest) = t.strip_prefix(h) {
            let rest = rest.trim_start_matches(' ');
            if let Some(text) = rest.strip_prefix(':') {
                return Some(text.trim());
            }
        }
    }
    None
}

/// `...address 'LOCALHOST'.EXPLANATION:`: a heading glued to the end of
/// the summary in pasted copies. Returns the summary part.
fn glued_heading(line: &str) -> Option<&str> {
    let t = trim_end(line);
    for h in KNOWN_HEADINGS {
        if let Some(before) = t.strip_suffix(':').and_then(|x| x.strip_suffix(h))
            && !before.is_empty()
            && !before.ends_with(char::is_whitespace)
        {
            return Some(before);
        }
    }
    None
}

fn is_attr_line(line: &str) -> bool {
    let t = trim_start(line);
    let name_len = t.bytes().take_while(u8::is_ascii_alphanumeric).count();
    if name_len == 0
        || !t.as_bytes()[0].is_ascii_alphabetic()
        || t.as_bytes().get(name_len) != Some(&b'(')
    {
        return false;
    }
    let indented = t.len() < line.len();
    indented || KNOWN_ATTRS.contains(&&t[..name_len])
}

/// Control characters other than tab and form feed: binary data.
fn has_control(s: &str) -> bool {
    s.bytes()
        .any(|b| b < 0x20 && b != b'\t' && b != 0x0c || b == 0x7f)
}

// ---------------------------------------------------------------------------
// First pass: date order and UTC offset

/// Date-order evidence of one header style (and one user within it).
#[derive(Debug, Default, Clone)]
struct Evidence {
    count: u64,
    first_line: u64,
    example: String,
    /// A first field above 12: day first.
    day_first: u64,
    /// A second field above 12: month first.
    month_first: u64,
    /// `Time()` agrees with only one reading.
    time_dmy: u64,
    time_mdy: u64,
    /// Offsets (seconds) per reading, from headers with `Time()`.
    off_dmy: BTreeMap<i32, u64>,
    off_mdy: BTreeMap<i32, u64>,
}

impl Evidence {
    fn add(&mut self, line: u64, h: &Header, utc: Option<NaiveDateTime>) {
        if self.count == 0 {
            self.first_line = line;
            self.example = h.local_raw.clone();
        }
        self.count += 1;
        if h.a > 12 && h.b <= 12 {
            self.day_first += 1;
        }
        if h.b > 12 && h.a <= 12 {
            self.month_first += 1;
        }
        if let Some(u) = utc {
            let dmy = h.local(Order::Dmy).and_then(|l| offset_of(l, u));
            let mdy = h.local(Order::Mdy).and_then(|l| offset_of(l, u));
            if let Some(o) = dmy {
                *self.off_dmy.entry(o).or_default() += 1;
            }
            if let Some(o) = mdy {
                *self.off_mdy.entry(o).or_default() += 1;
            }
            if h.a != h.b {
                match (dmy, mdy) {
                    (Some(_), None) => self.time_dmy += 1,
                    (None, Some(_)) => self.time_mdy += 1,
                    _ => {}
                }
            }
        }
    }

    fn votes(&self) -> (u64, u64) {
        (
            self.day_first + self.time_dmy,
            self.month_first + self.time_mdy,
        )
    }
}

#[derive(Debug, Default)]
struct StyleEvidence {
    all: Evidence,
    users: HashMap<String, Evidence>,
}

/// What the first pass found in one file.
#[derive(Debug, Default)]
struct Prescan {
    styles: BTreeMap<Style, StyleEvidence>,
    with_time: u64,
    without_time: u64,
    windows: bool,
    legacy: bool,
    qmgr: Option<String>,
    host: Option<String>,
    vrmf: Option<String>,
    error: Option<String>,
    /// Runs of records with `Time()` at one UTC offset, as read day first
    /// ([0]) and month first ([1]): the neighbours that date the records
    /// without `Time()` at the offset in force where they were written.
    segs: [Vec<Seg>; 2],
}

/// A run of records with `Time()` at one offset, lines `first..=last`.
#[derive(Debug, Clone, Copy)]
struct Seg {
    first: u64,
    last: u64,
    offset: i32,
    first_utc: NaiveDateTime,
    last_utc: NaiveDateTime,
}

/// A file whose headers and `Time()` disagree at random would make a run
/// per record: past this many runs the file's most common offset is used.
const MAX_SEGS: usize = 4096;

fn push_seg(segs: &mut Vec<Seg>, line: u64, offset: i32, utc: NaiveDateTime) {
    if let Some(s) = segs.last_mut()
        && s.offset == offset
    {
        s.last = line;
        s.last_utc = utc;
        return;
    }
    if segs.len() < MAX_SEGS {
        segs.push(Seg {
            first: line,
            last: line,
            offset,
            first_utc: utc,
            last_utc: utc,
        });
    }
}

fn order_index(o: Order) -> usize {
    match o {
        Order::Dmy => 0,
        Order::Mdy => 1,
    }
}

/// A header waiting for its attribute lines in the first pass.
struct Pending {
    line: u64,
    header: Header,
    utc: Option<NaiveDateTime>,
}

/// True when the line's first byte rules out a header: empty, or ASCII
/// that is neither a digit nor whitespace (`parse_header` wants a digit
/// after leading whitespace; a non-ASCII byte may decode to whitespace).
fn cannot_be_header(bytes: &[u8]) -> bool {
    bytes
        .first()
        .is_none_or(|&b| b < 0x80 && !b.is_ascii_digit() && !is_ascii_ws(b))
}

fn prescan(input: &Input, forced: Option<crate::encoding::TextEncoding>) -> Prescan {
    let mut p = Prescan::default();
    let r = match super::open_decoded(input, forced) {
        Ok((r, _)) => r,
        Err(e) => {
            p.error = Some(format!("cannot read: {e}"));
            return p;
        }
    };
    let mut lines = LineReader::new(r);
    let mut pending: Option<Pending> = None;
    // A read error ends the scan here; the second pass reports it.
    while let Ok(Some((meta, bytes))) = lines.next_line() {
        // With no header pending only a header matters, and a header's
        // first non-blank character is a digit: a line starting with any
        // other ASCII character (most text lines) is passed over here.
        if pending.is_none() && cannot_be_header(bytes) {
            continue;
        }
        // Headers and attributes are ASCII; other bytes do not matter here.
        let text = match std::str::from_utf8(bytes) {
            Ok(t) => std::borrow::Cow::Borrowed(t),
            Err(_) => String::from_utf8_lossy(bytes),
        };
        if let Some(h) = parse_header(&text) {
            if let Some(done) = pending.take() {
                p.settle(done);
            }
            pending = Some(Pending {
                line: meta.no,
                header: h,
                utc: None,
            });
            continue;
        }
        let Some(cur) = pending.as_mut() else {
            continue;
        };
        if is_blank(&text) {
            continue;
        }
        if !is_attr_line(&text) {
            let done = pending.take().expect("pending");
            p.settle(done);
            continue;
        }
        scan_attrs_each(trim(&text), |k, v| match k {
            "Time" => cur.utc = parse_utc(v),
            "QMgr" if p.qmgr.is_none() => p.qmgr = Some(v.to_string()),
            "Host" if p.host.is_none() => p.host = Some(v.to_string()),
            "VRMF" if p.vrmf.as_deref() != Some(v) => p.vrmf = Some(v.to_string()),
            _ => {}
        });
    }
    if let Some(done) = pending.take() {
        p.settle(done);
    }
    p
}

impl Prescan {
    fn settle(&mut self, d: Pending) {
        let h = &d.header;
        if d.utc.is_some() {
            self.with_time += 1;
        } else {
            self.without_time += 1;
        }
        if h.program.as_deref().is_some_and(|p| {
            let l = p.to_ascii_lowercase();
            l.ends_with(".exe")
        }) {
            self.windows = true;
        }
        if h.is_legacy() {
            self.legacy = true;
        }
        if let Some(u) = d.utc {
            for o in [Order::Dmy, Order::Mdy] {
                if let Some(off) = h.local(o).and_then(|l| offset_of(l, u)) {
                    push_seg(&mut self.segs[order_index(o)], d.line, off, u);
                }
            }
        }
        let se = self.styles.entry(h.style).or_default();
        se.all.add(d.line, h, d.utc);
        // Headers without User() (and users beyond the limit) share one
        // writer key, so their offsets still count.
        let mut u = writer_key(h);
        if !se.users.contains_key(&u) && se.users.len() >= MAX_USERS_PER_STYLE {
            u = String::new();
        }
        se.users.entry(u).or_default().add(d.line, h, d.utc);
    }
}

/// Decisions for one file, from its first pass.
#[derive(Debug, Default)]
struct Plan {
    orders: HashMap<(Style, Option<String>), Order>,
    last_order: Option<(Style, String, Order)>,
    /// Offset from this file's own `Time()` attributes, and how many
    /// headers agreed on it.
    offset: Option<(i32, u64)>,
    offsets: BTreeMap<i32, u64>,
    problems: Vec<(ProblemCode, u64, Severity, String)>,
    scan: Prescan,
}

fn decide_order(style: Style, ev: &Evidence) -> Result<Order, (u64, u64)> {
    if style.sep == b'.' {
        return Ok(Order::Dmy);
    }
    if style.ampm {
        return Ok(Order::Mdy);
    }
    match ev.votes() {
        (0, 0) => Err((0, 0)),
        (_, 0) => Ok(Order::Dmy),
        (0, _) => Ok(Order::Mdy),
        (d, m) => Err((d, m)),
    }
}

impl Plan {
    fn new(scan: Prescan) -> Plan {
        let mut plan = Plan::default();
        for (style, se) in &scan.styles {
            let style_order = match decide_order(*style, &se.all) {
                Ok(o) => o,
                Err((0, 0)) => {
                    plan.problems.push((
                        ProblemCode::UndecidableDateOrder,
                        se.all.first_line,
                        Severity::Info,
                        format!(
                            "date order of headers like `{}` cannot be told: day and month are both 12 or less in {} and no Time() attribute decides; read as month/day/year",
                            se.all.example,
                            if se.all.count == 1 {
                                "the only such header".to_string()
                            } else {
                                format!("all {} such headers", se.all.count)
                            }
                        ),
                    ));
                    Order::Mdy
                }
                Err((d, m)) => {
                    let o = if d > m { Order::Dmy } else { Order::Mdy };
                    plan.problems.push((
                        ProblemCode::MixedDateOrder,
                        se.all.first_line,
                        Severity::Warning,
                        format!(
                            "headers like `{}` are written both day first ({d}) and month first ({m}) by different writers; read as {} where a writer's own headers do not decide",
                            se.all.example,
                            o.as_str()
                        ),
                    ));
                    o
                }
            };
            plan.orders.insert((*style, None), style_order);
            for (user, ev) in &se.users {
                let o = decide_order(*style, ev).unwrap_or(style_order);
                plan.orders.insert((*style, Some(user.clone())), o);
            }
            // Offsets as read in each writer's decided order.
            let mut merged: BTreeMap<i32, u64> = BTreeMap::new();
            for (user, ev) in &se.users {
                let src = match plan.orders[&(*style, Some(user.clone()))] {
                    Order::Dmy => &ev.off_dmy,
                    Order::Mdy => &ev.off_mdy,
                };
                for (k, v) in src {
                    *merged.entry(*k).or_default() += v;
                }
            }
            for (k, v) in merged {
                *plan.offsets.entry(k).or_default() += v;
            }
        }
        plan.offset = mode(&plan.offsets);
        plan.scan = scan;
        plan
    }

    fn order(&mut self, h: &Header) -> Order {
        // Records of one writer come in runs: keep the last answer rather
        // than copy the user name into a key for every record.
        let user = h.user.as_deref().unwrap_or("");
        if let Some((style, u, o)) = &self.last_order
            && *style == h.style
            && u == user
        {
            return *o;
        }
        let o = self
            .orders
            .get(&(h.style, Some(writer_key(h))))
            .or_else(|| self.orders.get(&(h.style, None)))
            .copied()
            .unwrap_or(Order::Mdy);
        self.last_order = Some((h.style, user.to_string(), o));
        o
    }
}

/// The writer a header's date format belongs to: its user (the locale of
/// a Windows process comes from its user profile).
fn writer_key(h: &Header) -> String {
    h.user.clone().unwrap_or_default()
}

fn mode(m: &BTreeMap<i32, u64>) -> Option<(i32, u64)> {
    m.iter()
        .max_by(|a, b| a.1.cmp(b.1).then(b.0.abs().cmp(&a.0.abs())))
        .map(|(k, v)| (*k, *v))
}

fn offset_label(secs: i32) -> String {
    crate::timefmt::offset_str(FixedOffset::east_opt(secs).expect("offset in range"))
}

// ---------------------------------------------------------------------------
// Second pass: records

#[derive(Debug, Clone, Copy, PartialEq)]
enum St {
    Attrs,
    AfterAttrs,
    Summary,
    AfterSummary,
    Section(usize),
}

/// One record as written, before dating.
#[derive(Debug)]
pub struct RawRecord {
    pub line: u64,
    pub last_line: u64,
    pub header: Header,
    pub attrs: Vec<(String, String)>,
    pub msgid: Option<String>,
    pub summary: Vec<String>,
    /// Explanation and action lines; an empty string is a blank line.
    pub sections: [Vec<String>; 2],
    /// `amqccita.c:4214` from the separator.
    pub source: Option<String>,
    pub closed: bool,
    /// The file ended inside the record.
    pub truncated: bool,
    /// Written in two parts around the record at this line.
    pub interrupted_by: Option<u64>,
    pub reassembled: bool,
    /// Header (and attributes) only: the message text never came.
    pub incomplete: bool,
    st: St,
    bytes: usize,
    cut: bool,
}

impl RawRecord {
    fn new(line: u64, header: Header) -> RawRecord {
        let mut r = RawRecord {
            line,
            last_line: line,
            header,
            attrs: Vec::new(),
            msgid: None,
            summary: Vec::new(),
            sections: [Vec::new(), Vec::new()],
            source: None,
            closed: false,
            truncated: false,
            interrupted_by: None,
            reassembled: false,
            incomplete: false,
            st: St::Attrs,
            bytes: 0,
            cut: false,
        };
        if let Some(t) = r.header.legacy_text.take() {
            r.message_line(&t);
        }
        r
    }

    fn has_text(&self) -> bool {
        self.msgid.is_some() || !self.summary.is_empty()
    }

    fn lines(&self) -> u64 {
        self.last_line - self.line + 1
    }

    /// Keep a line of text; false when the record is over its size limit.
    fn keep(&mut self, s: &str) -> bool {
        // One more byte for the space or line break it is joined with.
        let n = s.len() + 1;
        if self.bytes + n > MAX_RECORD_BYTES {
            return false;
        }
        self.bytes += n;
        true
    }

    fn message_line(&mut self, line: &str) {
        match msg_split(line) {
            Some((id, rest)) => {
                self.msgid = Some(id.to_string());
                self.summary_text(rest);
            }
            None => self.summary_text(trim(line)),
        }
    }

    fn summary_text(&mut self, s: &str) {
        self.st = St::Summary;
        if let Some(before) = glued_heading(s) {
            self.summary.push(before.to_string());
            self.st = St::Section(0);
        } else if !s.is_empty() {
            self.summary.push(s.to_string());
        }
    }

    fn section_text(&mut self, i: usize, s: &str) {
        self.st = St::Section(i);
        if !s.is_empty() {
            self.sections[i].push(s.to_string());
        }
    }

    fn blank(&mut self) {
        match self.st {
            St::Attrs => self.st = St::AfterAttrs,
            St::Summary => self.st = St::AfterSummary,
            St::Section(i) => self.sections[i].push(String::new()),
            St::AfterAttrs | St::AfterSummary => {}
        }
    }
}

/// A problem found while parsing: line, severity, lines skipped, message.
#[derive(Debug, Clone, PartialEq)]
pub struct Found {
    pub code: ProblemCode,
    pub line: Option<u64>,
    pub severity: Severity,
    pub skipped: u64,
    pub message: String,
}

#[derive(Debug)]
pub enum Item {
    Record(Box<RawRecord>),
    Problem(Found),
}

/// Why lines are outside any record.
#[derive(Debug, PartialEq)]
enum Why {
    /// Before the first header: the tail of a record cut by a copy.
    FileStart,
    /// Between a separator and the next header.
    Outside,
    /// After a second message id inside the record of this line.
    SecondMessage(u64),
}

/// Lines outside any record.
#[derive(Debug)]
struct Orphan {
    start: u64,
    end: u64,
    msgid: Option<String>,
    why: Why,
}

/// Line-fed record parser: feed decoded lines, take `Item`s from `out`.
#[derive(Debug, Default)]
pub struct Parser {
    cur: Option<Box<RawRecord>>,
    /// A record cut off after its attributes by another writer's record;
    /// its text may follow that record.
    parked: Option<Box<RawRecord>>,
    orphan: Option<Orphan>,
    garbage: Option<(u64, u64)>,
    seen_header: bool,
    /// The line being fed was cut to the line-length limit (so a value
    /// without its closing parenthesis is expected, and already reported).
    pub line_cut: bool,
    pub out: VecDeque<Item>,
}

impl Parser {
    fn problem(
        &mut self,
        code: ProblemCode,
        line: u64,
        severity: Severity,
        skipped: u64,
        message: String,
    ) {
        self.out.push_back(Item::Problem(Found {
            code,
            line: (line > 0).then_some(line),
            severity,
            skipped,
            message,
        }));
    }

    /// A run of NUL bytes (a hole left by a crash) was removed from the
    /// start of line `no`.
    pub fn nul_hole(&mut self, no: u64, count: usize) {
        self.flush_garbage();
        self.problem(
            ProblemCode::NulBytes,
            no,
            Severity::Warning,
            0,
            format!("{count} NUL bytes at the start of the line (a hole in the file): removed"),
        );
    }

    pub fn feed(&mut self, no: u64, text: &str) {
        if has_control(text) {
            match &mut self.garbage {
                Some((_, end)) => *end = no,
                None => self.garbage = Some((no, no)),
            }
            return;
        }
        self.flush_garbage();
        if let Some(h) = parse_header(text) {
            self.on_header(no, h);
            return;
        }
        if let Some(src) = is_separator(text) {
            self.on_separator(no, src);
            return;
        }
        let blank = is_blank(text);
        if let Some(r) = self.cur.as_mut() {
            r.last_line = no;
            if blank {
                r.blank();
            } else {
                self.on_text(no, text);
            }
            return;
        }
        if blank {
            return;
        }
        if self.parked.is_some() && is_msg_line(text) {
            let mut p = self.parked.take().expect("parked");
            p.reassembled = true;
            p.last_line = no;
            p.message_line(text);
            self.cur = Some(p);
            return;
        }
        let msgid = is_msg_line(text)
            .then(|| msg_split(text).map(|(id, _)| id.to_string()))
            .flatten();
        match &mut self.orphan {
            Some(o) => {
                o.end = no;
                if o.msgid.is_none() {
                    o.msgid = msgid;
                }
            }
            None => {
                self.orphan = Some(Orphan {
                    start: no,
                    end: no,
                    msgid,
                    why: if self.seen_header {
                        Why::Outside
                    } else {
                        Why::FileStart
                    },
                })
            }
        }
    }

    fn on_text(&mut self, no: u64, text: &str) {
        let r = self.cur.as_mut().expect("record");
        match r.st {
            St::Attrs | St::AfterAttrs if is_attr_line(text) => {
                let scan = scan_attrs(trim(text));
                for a in scan.attrs {
                    if r.attrs.len() < MAX_ATTRS {
                        r.attrs.push(a);
                    }
                }
                if let Some(name) = scan.unbalanced.filter(|_| !self.line_cut) {
                    self.problem( ProblemCode::BadAttribute,
                        no,
                        Severity::Warning,
                        0,
                        format!(
                            "unbalanced parentheses in attribute `{name}(`: value taken up to the last `)`"
                        ),
                    );
                } else if let Some(junk) = scan.junk {
                    let shown: String = junk.chars().take(60).collect();
                    self.problem(
                        ProblemCode::BadAttribute,
                        no,
                        Severity::Warning,
                        0,
                        format!("not an attribute in the attribute lines: `{shown}`"),
                    );
                }
            }
            St::Attrs | St::AfterAttrs => r.message_line(text),
            St::Summary | St::AfterSummary | St::Section(_) if is_msg_line(text) => {
                self.second_message(no, text)
            }
            St::Summary => match heading(text) {
                Some(rest) => r.section_text(0, rest),
                None => {
                    if r.keep(text) {
                        r.summary_text(trim(text));
                    } else {
                        self.too_long(no);
                    }
                }
            },
            St::AfterSummary => match heading(text) {
                Some(rest) => r.section_text(0, rest),
                None => {
                    if r.keep(text) {
                        r.section_text(0, trim_end(text));
                    } else {
                        self.too_long(no);
                    }
                }
            },
            St::Section(i) => match heading(text) {
                Some(rest) if i == 0 => r.section_text(1, rest),
                _ => {
                    if r.keep(text) {
                        r.section_text(i, trim_end(text));
                    } else {
                        self.too_long(no);
                    }
                }
            },
        }
    }

    fn too_long(&mut self, no: u64) {
        let r = self.cur.as_mut().expect("record");
        if !r.cut {
            r.cut = true;
            let line = r.line;
            self.problem(
                ProblemCode::RecordTooLong,
                no,
                Severity::Warning,
                0,
                format!(
                    "record of line {line} is longer than {} KiB: the rest of its text is not kept",
                    MAX_RECORD_BYTES / 1024
                ),
            );
        }
    }

    /// A message line inside a record that already has one: two writers'
    /// records are mixed.
    fn second_message(&mut self, no: u64, text: &str) {
        let mut r = self.cur.take().expect("record");
        r.last_line = no.saturating_sub(1).max(r.line);
        if let Some(mut p) = self.parked.take() {
            // The text of the record cut off earlier continues here.
            self.problem( ProblemCode::InterleavedRecords,
                r.line,
                Severity::Info,
                0,
                format!(
                    "record of line {} ends at line {no}, where the text of the record of line {} continues (interleaved writes)",
                    r.line, p.line
                ),
            );
            self.out.push_back(Item::Record(r));
            p.reassembled = true;
            p.last_line = no;
            p.message_line(text);
            self.cur = Some(p);
            return;
        }
        let id = msg_split(text)
            .map(|(id, _)| id.to_string())
            .unwrap_or_default();
        self.orphan = Some(Orphan {
            start: no,
            end: no,
            msgid: Some(id),
            why: Why::SecondMessage(r.line),
        });
        self.out.push_back(Item::Record(r));
    }

    fn on_header(&mut self, no: u64, h: Header) {
        self.flush_orphan();
        self.seen_header = true;
        if let Some(name) = &h.unbalanced {
            self.problem(
                ProblemCode::BadAttribute,
                no,
                Severity::Warning,
                0,
                format!(
                    "unbalanced parentheses in attribute `{name}(`: value taken up to the last `)`"
                ),
            );
        }
        if let Some(mut r) = self.cur.take() {
            if r.has_text() {
                self.problem( ProblemCode::MissingSeparator,
                    r.line,
                    Severity::Info,
                    0,
                    format!(
                        "record of line {} has no separator line before the next record at line {no}",
                        r.line
                    ),
                );
                self.out.push_back(Item::Record(r));
            } else {
                r.interrupted_by = Some(no);
                if let Some(old) = self.parked.replace(r) {
                    self.keep_textless(old);
                }
            }
        } else if let Some(p) = self.parked.take() {
            self.keep_textless(p);
        }
        self.cur = Some(Box::new(RawRecord::new(no, h)));
    }

    /// A record with a header but no message text is still an event: its
    /// time, process, thread, program and host are known.
    fn keep_textless(&mut self, mut r: Box<RawRecord>) {
        self.problem(
            ProblemCode::CutRecord,
            r.line,
            Severity::Warning,
            0,
            format!(
                "record of line {} has no message text (cut short, or interleaved with the record of line {}): kept as an incomplete record",
                r.line,
                r.interrupted_by.unwrap_or(r.last_line)
            ),
        );
        r.incomplete = true;
        self.out.push_back(Item::Record(r));
    }

    fn on_separator(&mut self, no: u64, src: Option<String>) {
        if let Some(mut r) = self.cur.take() {
            r.source = src;
            r.closed = true;
            r.last_line = no;
            if r.has_text() {
                if r.reassembled {
                    self.problem( ProblemCode::InterleavedRecords,
                        r.line,
                        Severity::Info,
                        0,
                        format!(
                            "record of line {} was written in two parts around the record of line {} (interleaved writes): joined",
                            r.line,
                            r.interrupted_by.unwrap_or(0)
                        ),
                    );
                }
                self.out.push_back(Item::Record(r));
            } else {
                self.keep_textless(r);
            }
        } else if let Some(o) = self.orphan.as_mut() {
            o.end = no;
            self.flush_orphan();
        }
    }

    fn flush_orphan(&mut self) {
        let Some(o) = self.orphan.take() else {
            return;
        };
        let lines = if o.start == o.end {
            format!("line {}", o.start)
        } else {
            format!("lines {}–{}", o.start, o.end)
        };
        let id = o.msgid.clone().unwrap_or_default();
        let msg = match o.why {
            Why::FileStart => format!(
                "file starts inside a record whose header is missing (copied during rotation?): {lines}{} skipped",
                o.msgid
                    .map(|m| format!(" (message {m})"))
                    .unwrap_or_default()
            ),
            Why::Outside => format!(
                "text outside any record at {lines} (no header line before it{}): skipped",
                o.msgid
                    .map(|m| format!("; message {m}"))
                    .unwrap_or_default()
            ),
            Why::SecondMessage(rec) => format!(
                "second message id {id} inside the record of line {rec} (interleaved writes?): that record ends at line {}, {lines} skipped",
                o.start - 1
            ),
        };
        self.problem(
            ProblemCode::BadLine,
            o.start,
            Severity::Warning,
            o.end - o.start + 1,
            msg,
        );
    }

    fn flush_garbage(&mut self) {
        if let Some((a, b)) = self.garbage.take() {
            let where_ = if a == b {
                format!("line {a}")
            } else {
                format!("lines {a}–{b}")
            };
            self.problem(
                ProblemCode::BinaryData,
                a,
                Severity::Warning,
                b - a + 1,
                format!("binary data (control characters) in {where_}: skipped"),
            );
        }
    }

    /// End of input.
    pub fn finish(&mut self) {
        self.flush_garbage();
        self.flush_orphan();
        if let Some(mut r) = self.cur.take() {
            if r.has_text() {
                self.problem( ProblemCode::CutFile,
                    r.line,
                    Severity::Info,
                    0,
                    format!(
                        "last record (line {}) has no closing separator line: file cut short or still being written; read as far as it goes",
                        r.line
                    ),
                );
                r.truncated = true;
                self.out.push_back(Item::Record(r));
            } else {
                self.problem(
                    ProblemCode::CutRecord,
                    r.line,
                    Severity::Warning,
                    0,
                    format!(
                        "last record (line {}) is cut short before its message text: kept as an incomplete record",
                        r.line
                    ),
                );
                r.incomplete = true;
                r.truncated = true;
                self.out.push_back(Item::Record(r));
            }
        }
        if let Some(p) = self.parked.take() {
            self.keep_textless(p);
        }
    }
}

/// Wrapped lines joined with single spaces; blank lines (paragraphs) kept
/// as line breaks.
fn join_paragraphs(lines: &[String]) -> String {
    // One buffer sized once: lines of a paragraph joined by a space,
    // paragraphs by a newline.
    let mut out = String::with_capacity(lines.iter().map(|l| l.len() + 1).sum());
    let mut open = false;
    for l in lines {
        let t = l.trim();
        if t.is_empty() {
            open = false;
            continue;
        }
        if open {
            out.push(' ');
        } else if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(t);
        open = true;
    }
    out
}

// ---------------------------------------------------------------------------
// The source

/// Canonical insert names and the event attribute each raw value is kept
/// under.
const INSERT_ATTRS: &[(&str, &str)] = &[
    ("ArithInsert1", "arith_insert1"),
    ("ArithInsert2", "arith_insert2"),
    ("CommentInsert1", "comment_insert1"),
    ("CommentInsert2", "comment_insert2"),
    ("CommentInsert3", "comment_insert3"),
    ("RemoteHost", "remote_host"),
];

/// The offset for a record without `Time()` at `line`: that of the records
/// with `Time()` around it (read in the record's date order). Where the two
/// neighbours disagree (a daylight-saving change between them) the one that
/// keeps the record between them in time is taken, the earlier one when
/// both or neither do, and the record gets a note.
fn neighbour_offset(
    run: &mut FileRun,
    order: Order,
    line: u64,
    local: NaiveDateTime,
) -> FixedOffset {
    let segs = &run.plan.scan.segs[order_index(order)];
    // Index of the first run starting after the line.
    let next = segs.partition_point(|s| s.first <= line);
    let chosen = match (next.checked_sub(1).map(|i| segs[i]), segs.get(next)) {
        (None, None) => return run.offset,
        (Some(p), _) if line <= p.last => p.offset,
        (None, Some(n)) => n.offset,
        (Some(p), None) => p.offset,
        (Some(p), Some(n)) => {
            let between = |off: i32| {
                let t = local - chrono::Duration::seconds(off as i64);
                t >= p.last_utc && t <= n.first_utc
            };
            let off = if !between(p.offset) && between(n.offset) {
                n.offset
            } else {
                p.offset
            };
            run.info.problem(
                ProblemCode::OffsetChange,
                Some(line),
                Severity::Info,
                0,
                format!(
                    "record has no Time() and its neighbours disagree on the UTC offset ({} at line {}, {} at line {}; a daylight-saving change?): read at {}",
                    offset_label(p.offset),
                    p.last,
                    offset_label(n.offset),
                    n.first,
                    offset_label(off)
                ),
            );
            off
        }
    };
    FixedOffset::east_opt(chosen).unwrap_or(run.offset)
}

struct FileRun {
    info: FileInfo,
    origin: Arc<Origin>,
    lines: Option<LineReader<Box<dyn Read + Send>>>,
    parser: Parser,
    plan: Plan,
    offset: FixedOffset,
    path: PathFacts,
    encodings: BTreeMap<Encoding, u64>,
    duplicates: u64,
}

pub struct ErrlogTextSource {
    opts: ReadOptions,
    inputs: VecDeque<Input>,
    plans: VecDeque<Plan>,
    /// Offset shared by a rotated set, and the file it came from, for
    /// generations without `Time()` (written before an upgrade to 9.x).
    group_offset: Option<(i32, String)>,
    started: bool,
    run: Option<FileRun>,
    done: Vec<FileInfo>,
    dedup: Dedup,
    out: VecDeque<Event>,
}

impl ErrlogTextSource {
    pub fn new(inputs: Vec<Input>, opts: ReadOptions) -> Self {
        ErrlogTextSource {
            opts,
            inputs: inputs.into(),
            plans: VecDeque::new(),
            group_offset: None,
            started: false,
            run: None,
            done: Vec::new(),
            dedup: Dedup::default(),
            out: VecDeque::new(),
        }
    }

    fn start(&mut self) {
        self.started = true;
        let mut best: Option<(u64, i32, String)> = None;
        for input in &self.inputs {
            let plan = Plan::new(prescan(input, self.opts.encoding));
            if let Some((o, n)) = plan.offset
                && best.as_ref().is_none_or(|(bn, _, _)| n > *bn)
            {
                best = Some((n, o, input.name.clone()));
            }
            self.plans.push_back(plan);
        }
        self.group_offset = best.map(|(_, o, name)| (o, name));
    }

    fn open_next(&mut self) -> bool {
        let Some(input) = self.inputs.pop_front() else {
            return false;
        };
        let plan = self.plans.pop_front().unwrap_or_default();
        let mut info = FileInfo::new(&input.display, Format::ErrlogText, input.bytes);
        let origin = input.origin(Format::ErrlogText);
        if let Some(e) = &plan.scan.error {
            info.problem(
                ProblemCode::UnreadableFile,
                None,
                Severity::Error,
                0,
                e.clone(),
            );
        }
        let lines = match super::open_decoded(&input, self.opts.encoding) {
            Ok((r, enc)) => {
                info.encoding = Some(enc.name().to_string());
                Some(LineReader::new(r))
            }
            Err(e) => {
                if plan.scan.error.is_none() {
                    info.problem(
                        ProblemCode::UnreadableFile,
                        None,
                        Severity::Error,
                        0,
                        format!("cannot read: {e}"),
                    );
                }
                None
            }
        };
        if input.bytes == 0 {
            info.problem(
                ProblemCode::EmptyFile,
                None,
                Severity::Info,
                0,
                "empty file",
            );
        }
        let offset = match (plan.offset, &self.group_offset) {
            (Some((o, _)), _) => {
                let off = FixedOffset::east_opt(o).expect("offset in range");
                info.set_offset(off, "data");
                off
            }
            (None, Some((o, from))) if plan.scan.without_time > 0 => {
                let off = FixedOffset::east_opt(*o).expect("offset in range");
                info.set_offset(off, &format!("data of {from} (same rotated set)"));
                off
            }
            _ if plan.scan.without_time > 0 => self.opts.fallback_offset(&mut info),
            _ => {
                // Every record has Time(); none fits its header: show UTC.
                let utc = FixedOffset::east_opt(0).expect("zero");
                if plan.scan.with_time > 0 {
                    info.set_offset(utc, "data");
                }
                utc
            }
        };
        for (code, line, sev, msg) in &plan.problems {
            info.problem(*code, (*line > 0).then_some(*line), *sev, 0, msg.clone());
        }
        let path = path_facts(&input.display);
        info.qmgr = plan.scan.qmgr.clone().or_else(|| path.qmgr.clone());
        info.host = plan.scan.host.clone();
        info.mq_version = plan.scan.vrmf.clone();
        if plan.scan.windows {
            info.platform = Some("Windows".to_string());
        }
        self.run = Some(FileRun {
            info,
            origin,
            lines,
            parser: Parser::default(),
            plan,
            offset,
            path,
            encodings: BTreeMap::new(),
            duplicates: 0,
        });
        true
    }

    /// Read one line of the current file; false at its end.
    fn step(&mut self) -> bool {
        let run = self.run.as_mut().expect("run");
        let Some(reader) = run.lines.as_mut() else {
            return false;
        };
        let Some((meta, bytes)) = super::read_line(reader, &mut run.info) else {
            return false;
        };
        if meta.truncated {
            run.info.problem(
                ProblemCode::LineTooLong,
                Some(meta.no),
                Severity::Warning,
                0,
                format!(
                    "line of {} bytes cut to the first {} bytes",
                    meta.full_len,
                    bytes.len()
                ),
            );
        }
        // A hole of NUL bytes (a crash while writing) before real text.
        let lead = bytes.iter().take_while(|&&b| b == 0).count();
        let bytes = &bytes[lead..];
        if lead > 0 {
            run.parser.nul_hole(meta.no, lead);
        }
        let (text, enc) = decode_line(bytes);
        if enc != Encoding::Utf8 && !has_control(&text) {
            *run.encodings.entry(enc).or_default() += 1;
        }
        run.parser.line_cut = meta.truncated;
        run.parser.feed(meta.no, &text);
        true
    }

    fn drain(&mut self) {
        loop {
            let Some(item) = self.run.as_mut().and_then(|r| r.parser.out.pop_front()) else {
                return;
            };
            match item {
                Item::Problem(f) => {
                    let run = self.run.as_mut().expect("run");
                    run.info
                        .problem(f.code, f.line, f.severity, f.skipped, f.message);
                }
                Item::Record(r) => {
                    if let Some(e) = self.event(*r) {
                        let run = self.run.as_mut().expect("run");
                        run.info.saw_event(&e.ts);
                        self.out.push_back(e);
                    }
                }
            }
        }
    }

    fn event(&mut self, mut r: RawRecord) -> Option<Event> {
        let run = self.run.as_mut().expect("run");
        let utc_raw = r
            .attrs
            .iter()
            .find(|(k, _)| k == "Time")
            .map(|(_, v)| v.as_str());
        let utc = utc_raw.and_then(parse_utc);
        if utc_raw.is_some() && utc.is_none() {
            run.info.problem(
                ProblemCode::BadTime,
                Some(r.line),
                Severity::Warning,
                0,
                format!(
                    "Time({}) cannot be read: the header time is used",
                    utc_raw.unwrap_or("")
                ),
            );
        }
        let order = run.plan.order(&r.header);
        let local = r.header.local(order);
        let ts = match (utc, local) {
            // The record's own offset: its header's wall clock minus Time().
            (Some(u), l) => {
                let off = l
                    .and_then(|l| offset_of(l, u))
                    .and_then(FixedOffset::east_opt)
                    .unwrap_or(run.offset);
                off.from_utc_datetime(&u)
            }
            (None, Some(l)) => {
                let off = neighbour_offset(run, order, r.line, l);
                match off.from_local_datetime(&l) {
                    chrono::LocalResult::Single(t) => t,
                    _ => off.from_utc_datetime(&l),
                }
            }
            (None, None) => {
                run.info.problem(
                    ProblemCode::BadTime,
                    Some(r.line),
                    Severity::Warning,
                    r.lines(),
                    format!(
                        "date `{}` cannot be read and the record has no Time(): record skipped",
                        r.header.local_raw
                    ),
                );
                return None;
            }
        };
        if local.is_none() {
            run.info.problem(
                ProblemCode::BadTime,
                Some(r.line),
                Severity::Warning,
                0,
                format!(
                    "date `{}` cannot be read: record dated by its Time() attribute",
                    r.header.local_raw
                ),
            );
        }
        let summary = join_paragraphs(&r.summary).replace('\n', " ");
        let first_summary = r.summary.first().map(String::as_str).unwrap_or("");
        let key = RecordKey::new()
            .str(utc_raw.unwrap_or(&r.header.local_raw))
            .ids(r.header.pid, r.header.tid)
            .str(r.msgid.as_deref().unwrap_or(""))
            .str(first_summary)
            .finish();
        if self.dedup.seen_before(key) {
            run.duplicates += 1;
            return None;
        }
        let text = match &r.msgid {
            Some(id) => {
                let mut t = String::with_capacity(id.len() + 2 + summary.len());
                t.push_str(id);
                t.push_str(": ");
                t.push_str(&summary);
                t
            }
            None if r.incomplete => "(record cut short before its message text)".to_string(),
            None => summary.clone(),
        };
        let mut e = Event::new(ts, run.origin.clone(), r.line, Kind::LogRecord, text);
        if r.incomplete {
            e.set_attr("incomplete", "true");
        }
        // A record carries 20 to 30 attributes: one allocation, not five.
        e.attrs.reserve(32);
        e.pid = r.header.pid;
        e.tid = r.header.tid;
        let explanation = join_paragraphs(&r.sections[0]);
        let action = join_paragraphs(&r.sections[1]);
        let inserts: Vec<(&str, &str)> = r
            .attrs
            .iter()
            .filter(|(k, _)| INSERT_ATTRS.iter().any(|(n, _)| n == k))
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        if let Some(id) = &r.msgid {
            let all = catalog::normalise_parts(&[&summary, &explanation, &action]);
            let x = catalog::extract(id, &all, &inserts);
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
        } else if summary.to_ascii_lowercase().contains("message catalog") {
            e.set_attr("catalog_missing", "true");
        }
        if let Some(p) = r.header.program.take() {
            e.set_attr("program", p);
        }
        if let Some(u) = r.header.user.take() {
            e.set_attr("user", u);
        }
        let qmgr = r
            .attrs
            .iter()
            .find(|(k, _)| k == "QMgr")
            .map(|(_, v)| v.clone())
            .or_else(|| run.path.qmgr.clone());
        if let Some(q) = qmgr
            && e.attr("qmgr").is_none()
        {
            e.set_attr("qmgr", q);
        }
        if let Some(s) = run.path.scope {
            e.set_attr("scope", s);
        }
        drop(inserts);
        e.set_attr("local_time", r.header.local_raw);
        // The record is spent: its values move into the event.
        for (k, v) in r.header.extra.into_iter().chain(r.attrs) {
            let name = match k.as_str() {
                "Host" => "local_host",
                "Installation" => "installation",
                "VRMF" => {
                    run.info.mq_version = Some(v.clone());
                    "vrmf"
                }
                "QMgr" | "Time" => continue,
                other => match INSERT_ATTRS.iter().find(|(n, _)| *n == other) {
                    Some((_, a)) => a,
                    // Unknown attributes are kept under their own name.
                    None => other,
                },
            };
            if e.attr(name).is_none() {
                e.set_attr(name, v);
            }
        }
        if let Some(s) = r.source {
            e.set_attr("source", s);
        }
        if !explanation.is_empty() {
            e.set_attr("explanation", explanation);
        }
        if !action.is_empty() {
            e.set_attr("action", action);
        }
        if r.truncated {
            e.set_attr("truncated", "true");
        }
        if r.reassembled {
            e.set_attr("reassembled", "true");
        }
        Some(e)
    }

    fn end_file(&mut self) {
        if let Some(run) = self.run.as_mut() {
            run.parser.finish();
        }
        self.drain();
        let Some(mut run) = self.run.take() else {
            return;
        };
        self.dedup.end_file();
        let mut variant = vec![
            if run.plan.scan.legacy {
                "mqseries-5"
            } else if run.plan.scan.windows {
                "windows"
            } else {
                "unix"
            }
            .to_string(),
        ];
        for enc in run.encodings.keys() {
            variant.push(enc.as_str().to_string());
        }
        let read = run.lines.as_ref().map(|l| l.bytes_read());
        super::errlog_common::close_file(&mut run.info, variant, run.duplicates, read);
        self.done.push(run.info);
    }
}

impl Source for ErrlogTextSource {
    fn next_event(&mut self) -> Option<Event> {
        if !self.started {
            self.start();
        }
        loop {
            if let Some(e) = self.out.pop_front() {
                return Some(e);
            }
            if self.run.is_none() {
                if !self.open_next() {
                    return None;
                }
                continue;
            }
            if self.step() {
                self.drain();
            } else {
                self.end_file();
            }
        }
    }

    fn finish(mut self: Box<Self>) -> Vec<FileInfo> {
        if self.run.is_some() {
            self.end_file();
        }
        std::mem::take(&mut self.done)
    }
}

#[cfg(test)]
mod tests {
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
        let h =
            parse_header("03/22/2019 08:17:30 PM - Process(16296.7) User(mqm) Program(amqrmppa)")
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
        let h = parse_header(
            "13.07.2018 07:06:00 - Process(13440.3) User(felix) Program(amqzmuc0.exe)",
        )
        .unwrap();
        assert_eq!(h.style.sep, b'.');
        assert_eq!(
            h.local(Order::Dmy).unwrap().to_string(),
            "2018-07-13 07:06:00"
        );
        // No User() (appliance style), en dash from a pasted copy.
        let h =
            parse_header("04/26/17 10:04:34 \u{2013} Process(773602.3) Program(amqrmppa)").unwrap();
        assert_eq!(h.user, None);
        assert_eq!(h.program.as_deref(), Some("amqrmppa"));
        assert_eq!(
            h.local(Order::Mdy).unwrap().to_string(),
            "2017-04-26 10:04:34"
        );
        let h =
            parse_header("01/02/99 10:00:00 AMQ9999: Channel program ended abnormally.").unwrap();
        assert!(h.is_legacy());
        assert_eq!(
            h.local(Order::Mdy).unwrap().to_string(),
            "1999-01-02 10:00:00"
        );
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
            ' ', '\u{a0}', '\u{2013}', '\u{3000}', '0', '9', '\u{661}', 'A', 'M', 'p', 'Z', '-',
            '/', '.', ':', '(', ')', '\t', '\r', '\n', '\u{b}', 'é', '\u{fffd}',
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
            join_paragraphs(&r.sections[0]),
            "A timeout occurred while waiting to receive from the other end of channel 'NB.SVR'.\nThe address of the remote end of the connection was '10.123.1.22'."
        );
        assert_eq!(r.attrs.len(), 4);
        let r = &recs[1];
        assert_eq!(r.line, 13);
        assert_eq!(r.last_line, 25);
        assert_eq!(
            join_paragraphs(&r.summary),
            "Channel 'NB.SVR' to host '10.123.1.22' ended abnormally."
        );
        assert_eq!(join_paragraphs(&r.sections[1]), "None.");
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
        let mut s: Box<dyn Source> = ErrlogTextReader.open(
            vec![Input::from_bytes(
                "x/errors/AMQERR01.LOG",
                text.as_bytes().to_vec(),
            )],
            &ReadOptions::default(),
        );
        let mut evs = Vec::new();
        while let Some(e) = s.next_event() {
            evs.push(e);
        }
        (evs, s.finish())
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
        let msgs: Vec<&str> = infos[0]
            .problems
            .iter()
            .map(|p| p.message.as_str())
            .collect();
        assert_eq!(
            msgs,
            vec![
                "no UTC offset in the file and no --tz given: UTC assumed",
                "headers like `15/07/2024 10:00:00` are written both day first (1) and month first (1) by different writers; read as month/day/year where a writer's own headers do not decide",
            ]
        );
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
            crate::timefmt::rfc3339(&evs[0].ts),
            "2024-07-05T16:39:06.517000+01:00"
        );
        assert_eq!(
            crate::timefmt::rfc3339(&evs[1].ts),
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
            crate::timefmt::rfc3339(&evs[0].ts),
            "2024-03-30T10:00:00.000000+01:00"
        );
        assert_eq!(
            crate::timefmt::rfc3339(&evs[1].ts),
            "2024-03-31T10:00:00.000000+02:00"
        );
        // Without Time(): the offset of its neighbour.
        assert_eq!(
            crate::timefmt::rfc3339(&evs[3].ts),
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
        let ts: Vec<String> = evs.iter().map(|e| crate::timefmt::rfc3339(&e.ts)).collect();
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
        let msgs: Vec<&str> = infos[0]
            .problems
            .iter()
            .map(|p| p.message.as_str())
            .collect();
        assert_eq!(
            msgs,
            vec![
                "no UTC offset in the file and no --tz given: UTC assumed",
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
            crate::timefmt::rfc3339(&evs[1].ts),
            "2024-04-26T10:05:00.000000+02:00"
        );
        assert_eq!(infos[0].problem_count, 0);
    }
}
