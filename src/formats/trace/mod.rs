//! MQ formatted traces: UNIX/Linux `.FMT` from `dspmqtrc`, Windows text
//! `.TRC` (with or without the Counter column), files formatted with
//! `dspmqtrc -h` (no header), and `.TRS` wrap files read before their
//! sibling. See `shared/formats/trace-fmt.md` for the layouts.
//!
//! Lines are split by hand (no regex on the hot path): counter, flag, time
//! of day, PID.TID, ident, data. The data column is classified as entry,
//! exit, error exit, dump row or text. One call stack per (PID, TID) gives
//! every exit its duration.

mod blocks;

use super::Reader;
use super::binary_trace::is_trace_name;
use crate::event::{Event, Format, Kind, Origin, Ts};
use crate::fxhash::FxBuild;
use crate::input::Input;
use crate::lines::LineReader;
use crate::sink::{RowMeta, RowSink};
use crate::sink::{push_row_tail, push_thread};
use crate::source::{FileInfo, ProblemCode, ReadOptions, Severity, Source};
use crate::text::{decode_lossy, looks_like_text};
use crate::timefmt::parse_time_of_day;
use chrono::{DateTime, FixedOffset, NaiveDate, NaiveDateTime, NaiveTime, TimeZone, Timelike};
use std::collections::{HashMap, VecDeque};
use std::io::Read;
use std::sync::Arc;

/// A backwards jump in time of day larger than this is midnight.
const ROLLOVER_SECS: i64 = 3600;
/// Deepest call stack kept per thread; deeper entries drop the oldest.
const MAX_STACK: usize = 1024;
/// Header records held back until the header gives the date.
const MAX_HEADER_HOLD: usize = 256;

pub struct TraceReader;

impl Reader for TraceReader {
    fn format(&self) -> Format {
        Format::FmtTrace
    }

    fn sniff(&self, _name: &str, head: &[u8]) -> u8 {
        if head.is_empty() || !looks_like_text(head) {
            return 0;
        }
        let text = decode_lossy(head);
        let mut records = 0;
        for (i, line) in text.lines().take(60).enumerate() {
            if is_title(line) {
                return 95;
            }
            if parse_record(line, None).is_some() {
                records += 1;
                if records >= 3 {
                    return 70;
                }
            } else if i > 30 && records == 0 {
                break;
            }
        }
        0
    }

    fn group(&self, input: &Input) -> Option<(String, u32)> {
        if !is_trace_name(&input.name) {
            return None;
        }
        let up = input.name.to_ascii_uppercase();
        let (stem, ext) = up.rsplit_once('.')?;
        let dir = input
            .display
            .rsplit_once(['/', '\\'])
            .map(|(d, _)| d)
            .unwrap_or("");
        let order = if ext == "TRS" { 0 } else { 1 };
        Some((format!("{dir}/{stem}"), order))
    }

    fn open(&self, inputs: Vec<Input>, opts: &ReadOptions) -> Box<dyn Source> {
        Box::new(TraceSource::new(inputs, opts.clone()))
    }
}

fn is_title(line: &str) -> bool {
    (line.contains("TimeStamp") || line.contains("Timestamp"))
        && (line.contains("Process.Thread") || line.contains("PID.TID"))
}

/// Column layout, from the title line or the first record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct Layout {
    counter: Option<bool>,
    ident: Option<bool>,
}

/// The prefix fields of one record line, borrowing the line.
#[derive(Debug, PartialEq)]
struct Record<'a> {
    counter: Option<u32>,
    flag: bool,
    tod: NaiveTime,
    pid: u32,
    tid: u32,
    ident: Option<&'a str>,
    data: &'a str,
}

fn skip_spaces(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && (b[i] == b' ' || b[i] == b'\t') {
        i += 1;
    }
    i
}

fn token_end(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && b[i] != b' ' && b[i] != b'\t' {
        i += 1;
    }
    i
}

/// Does this token look like an ident column (`:`, `RSESS:00011e`)?
fn is_ident_token(t: &[u8]) -> bool {
    let Some(c) = memchr::memchr(b':', t) else {
        return false;
    };
    t[..c].iter().all(|b| b.is_ascii_alphabetic())
        && t[c + 1..].iter().all(|b| b.is_ascii_alphanumeric())
        && memchr::memchr(b':', &t[c + 1..]).is_none()
}

/// Split a record line; `None` when it is not one. `layout` says whether
/// an ident column exists (unknown: decided from the token's shape).
fn parse_record(line: &str, layout: Option<Layout>) -> Option<Record<'_>> {
    // Every split below is at an ASCII byte, so slicing `line` is safe.
    let b = line.as_bytes();
    let mut i = 0;
    let mut counter = None;
    // Counter: 8 hex digits and a blank (Windows up to 9.2).
    if b.len() > 9 && b[8] == b' ' && b[..8].iter().all(|c| c.is_ascii_hexdigit()) {
        counter = u32::from_str_radix(&line[..8], 16).ok();
        i = 9;
    }
    i = skip_spaces(b, i);
    let mut flag = false;
    if b.get(i) == Some(&b'*') {
        flag = true;
        i += 1;
    }
    let t_end = token_end(b, i);
    let tod = parse_time_of_day(&b[i..t_end])?;
    i = skip_spaces(b, t_end);
    // PID.TID
    let p_end = token_end(b, i);
    let pt = &b[i..p_end];
    let dot = memchr::memchr(b'.', pt)?;
    let pid = parse_u32(&pt[..dot])?;
    let tid = parse_u32(&pt[dot + 1..])?;
    i = skip_spaces(b, p_end);
    let mut ident = None;
    let want_ident = layout.and_then(|l| l.ident);
    let i_end = token_end(b, i);
    let tok = &b[i..i_end];
    let has_ident = match want_ident {
        Some(true) => is_ident_token(tok) || tok.is_empty(),
        Some(false) => false,
        None => is_ident_token(tok),
    };
    if has_ident {
        if tok.len() > 1 {
            ident = Some(&line[i..i_end]);
        }
        i = i_end;
    }
    let data = &line[skip_spaces(b, i)..];
    Some(Record {
        counter,
        flag,
        tod,
        pid,
        tid,
        ident,
        data,
    })
}

fn parse_u32(b: &[u8]) -> Option<u32> {
    if b.is_empty() || b.len() > 10 {
        return None;
    }
    let mut v: u64 = 0;
    for &c in b {
        let d = c.wrapping_sub(b'0');
        if d >= 10 {
            return None;
        }
        v = v * 10 + d as u64;
    }
    u32::try_from(v).ok()
}

/// What the data column says.
#[derive(Debug, PartialEq)]
enum Data<'a> {
    Entry {
        dashes: usize,
        function: &'a str,
    },
    Exit {
        dashes: usize,
        error: bool,
        function: &'a str,
        rc: Option<&'a str>,
        function_time: Option<u64>,
    },
    Dump,
    Text(&'a str),
}

fn classify(data: &str) -> Data<'_> {
    let d = data.strip_prefix("!! - ").unwrap_or(data);
    let b = d.as_bytes();
    let dashes = b.iter().take_while(|&&c| c == b'-').count();
    match b.get(dashes) {
        Some(b'{') => {
            let rest = d[dashes + 1..].trim_ascii_start();
            let function = rest.split_ascii_whitespace().next().unwrap_or("");
            if !function.is_empty() {
                return Data::Entry { dashes, function };
            }
        }
        Some(b'}') => {
            let mut rest = &d[dashes + 1..];
            let error = rest.starts_with('!');
            if error {
                rest = &rest[1..];
            }
            let mut words = rest.split_ascii_whitespace();
            if let Some(function) = words.next() {
                let mut rc = None;
                let mut function_time = None;
                for w in words {
                    if let Some(v) = w.strip_prefix("(rc=") {
                        rc = Some(v.strip_suffix(')').unwrap_or(v));
                    } else if let Some(v) = w.strip_prefix("rc=") {
                        rc = Some(v);
                    } else if let Some(v) = w.strip_prefix("FunctionTime=") {
                        function_time = v.parse().ok();
                    }
                }
                return Data::Exit {
                    dashes,
                    error,
                    function,
                    rc,
                    function_time,
                };
            }
        }
        _ => {}
    }
    if is_dump_row(d.as_bytes()) {
        return Data::Dump;
    }
    Data::Text(d)
}

/// `0x0110:  06000000 616d7173 ...  |....amqsput     |` or
/// `N lines suppressed, same as above`.
fn is_dump_row(d: &[u8]) -> bool {
    if let Some(rest) = d.strip_prefix(b"0x") {
        let hex = rest.iter().take_while(|c| c.is_ascii_hexdigit()).count();
        return (4..=16).contains(&hex) && rest.get(hex) == Some(&b':');
    }
    let digits = d.iter().take_while(|c| c.is_ascii_digit()).count();
    digits > 0 && d[digits..].starts_with(b" lines suppressed")
}

/// Date order in a header date.
fn parse_header_date(s: &str, four_digit_is_dmy: bool) -> Option<NaiveDate> {
    let parts: Vec<&str> = s.trim().split(['/', '.', '-']).collect();
    if parts.len() != 3 {
        return None;
    }
    let a: u32 = parts[0].parse().ok()?;
    let b: u32 = parts[1].parse().ok()?;
    let mut y: i32 = parts[2].parse().ok()?;
    if parts[2].len() <= 2 {
        y += if y < 70 { 2000 } else { 1900 };
    }
    let dmy = if a > 12 {
        true
    } else if b > 12 {
        false
    } else {
        // Both fit a month: the native writers use MM/DD/YY, the .NET client
        // writes dd/MM/yyyy (four-digit year).
        four_digit_is_dmy && parts[2].len() == 4
    };
    let (m, d) = if dmy { (b, a) } else { (a, b) };
    NaiveDate::from_ymd_opt(y, m, d)
}

/// Header facts gathered from either header style.
#[derive(Debug, Default, Clone)]
struct Header {
    local: Option<NaiveDateTime>,
    utc: Option<NaiveDateTime>,
    /// `Date : .. Time : ..` of the Windows free-text header.
    plain: Option<NaiveDateTime>,
}

/// Value after `Key :` in `... Key : value  Other : x`.
fn field<'a>(s: &'a str, key: &str) -> Option<&'a str> {
    let i = s.find(key)?;
    let rest = s[i + key.len()..].trim_start();
    let rest = rest.strip_prefix(':')?.trim_start();
    Some(rest)
}

fn first_word(s: &str) -> &str {
    s.split_whitespace().next().unwrap_or("")
}

/// `Date : 05/15/16  Time : 11:06:32.904302`
fn date_time(s: &str, four_digit_is_dmy: bool) -> Option<NaiveDateTime> {
    let d = parse_header_date(first_word(field(s, "Date")?), four_digit_is_dmy)?;
    let t = parse_time_of_day(first_word(field(s, "Time")?).as_bytes())?;
    Some(d.and_time(t))
}

/// Shares one `Arc<str>` per distinct function name or ident, so events
/// and call stacks clone a pointer instead of allocating a string.
#[derive(Default)]
struct Interner(HashMap<Box<[u8]>, Arc<str>, FxBuild>);

impl Interner {
    /// Beyond this many names, new ones are allocated, not kept.
    const CAP: usize = 100_000;

    fn get(&mut self, s: &str) -> Arc<str> {
        self.get_bytes(s.as_bytes())
    }

    /// The name of these bytes (UTF-8; anything else is decoded lossily).
    fn get_bytes(&mut self, s: &[u8]) -> Arc<str> {
        if let Some(a) = self.0.get(s) {
            return a.clone();
        }
        let a: Arc<str> = Arc::from(String::from_utf8_lossy(s));
        if self.0.len() < Self::CAP {
            self.0.insert(Box::from(s), a.clone());
        }
        a
    }
}

/// The call stacks of the threads seen, found by (PID, TID) through a
/// small direct-mapped cache in front of the map (lines of a few threads
/// interleave, so most finds hit the cache).
#[derive(Default)]
struct Threads {
    all: Vec<Thread>,
    index: HashMap<(u32, u32), usize, FxBuild>,
    cache: Vec<(u64, usize)>,
    /// (text as a key, its length, thread): an empty slot has length 0.
    text_cache: Vec<(u128, usize, usize)>,
}

impl Threads {
    const CACHE: usize = 64;

    /// The thread of a record's `PID.TID` text; `None` when it is not one.
    /// A cache keyed by the text itself spares parsing the numbers.
    fn by_text(&mut self, t: &[u8], key: u128) -> Option<&mut Thread> {
        if t.is_empty() || t.len() > 16 {
            let (pid, tid) = parse_pid_tid(t)?;
            return Some(self.get(pid, tid));
        }
        if self.text_cache.is_empty() {
            self.text_cache = vec![(0, 0, 0); TEXT_SLOTS];
        }
        let slot = text_slot(key);
        let (ck, len, i) = self.text_cache[slot];
        if ck == key && len == t.len() {
            return Some(&mut self.all[i]);
        }
        let (pid, tid) = parse_pid_tid(t)?;
        self.get(pid, tid);
        let i = self.index[&(pid, tid)];
        self.text_cache[slot] = (key, t.len(), i);
        Some(&mut self.all[i])
    }

    fn get(&mut self, pid: u32, tid: u32) -> &mut Thread {
        if self.cache.is_empty() {
            // An empty slot has no index (every key is a valid PID.TID).
            self.cache = vec![(0, usize::MAX); Self::CACHE];
        }
        let key = (u64::from(pid) << 32) | u64::from(tid);
        let slot = (tid ^ pid.rotate_left(5)) as usize % Self::CACHE;
        let (k, i) = self.cache[slot];
        let i = if k == key && i != usize::MAX {
            i
        } else {
            let all = &mut self.all;
            let i = *self.index.entry((pid, tid)).or_insert_with(|| {
                all.push(Thread::new(pid, tid));
                all.len() - 1
            });
            self.cache[slot] = (key, i);
            i
        };
        &mut self.all[i]
    }
}

struct Thread {
    pid: u32,
    tid: u32,
    /// Open calls: name and instant (UTC nanoseconds) of entry.
    stack: Vec<(Arc<str>, i64)>,
    /// Read ahead (`blocks`): exits met with nothing open in the block,
    /// whose entries may lie before it: name, instant and row.
    queries: Vec<blocks::Query>,
    /// Read ahead: the deepest the stack was in the block.
    max_depth: usize,
    /// The thread's last ident: consecutive records of a thread mostly
    /// carry the same one, so it is compared before the interner is asked.
    ident: Option<Arc<str>>,
    /// Line of the last non-dump record, which dump rows belong to.
    last_record_line: u64,
    /// `  PID.TID`, for text rows.
    label: Vec<u8>,
}

impl Thread {
    fn new(pid: u32, tid: u32) -> Self {
        let mut label = Vec::new();
        push_thread(&mut label, Some(pid), Some(tid));
        Thread {
            pid,
            tid,
            stack: Vec::new(),
            queries: Vec::new(),
            max_depth: 0,
            ident: None,
            last_record_line: 0,
            label,
        }
    }
}

/// `HH:MM:SS.ffffff` within one day, as nanoseconds since midnight; `None`
/// for anything else (which `parse_time_of_day` judges). Read a word at a
/// time: it runs for every line `analyze` skips.
#[inline]
fn plain_tod(t: &[u8]) -> Option<i64> {
    let (a, b) = tod_words(t)?;
    let d = |x: u64, i: u32| ((x >> (8 * i)) & 0xFF) as i64;
    let (h, m, sec) = (
        d(a, 0) * 10 + d(a, 1),
        d(a, 3) * 10 + d(a, 4),
        d(a, 6) * 10 + d(a, 7),
    );
    if h > 23 || m > 59 || sec > 59 {
        return None;
    }
    let micros =
        ((d(b, 2) * 10 + d(b, 3)) * 100 + d(b, 4) * 10 + d(b, 5)) * 100 + d(b, 6) * 10 + d(b, 7);
    Some(((h * 60 + m) * 60 + sec) * 1_000_000_000 + micros * 1000)
}

/// `HH:MM:SS.ffffff` as two words, `HH:MM:SS` and `S.ffffff` (little
/// endian), each byte minus '0', when every digit is one and every
/// separator in place.
#[inline]
fn tod_words(t: &[u8]) -> Option<(u64, u64)> {
    let t: &[u8; 15] = t.try_into().ok()?;
    if t[2] != b':' || t[5] != b':' || t[8] != b'.' {
        return None;
    }
    let word = |at: usize| {
        let mut w = [0u8; 8];
        w.copy_from_slice(&t[at..at + 8]);
        u64::from_le_bytes(w) ^ 0x3030_3030_3030_3030
    };
    // A byte is a digit when, minus '0', it is below 10: adding 0x76
    // leaves its top bit clear.
    let (a, b) = (word(0), word(7));
    let not_digit = |x: u64, digits: u64| {
        ((x.wrapping_add(0x7676_7676_7676_7676) | x) & 0x8080_8080_8080_8080 & digits) != 0
    };
    if not_digit(a, 0xFFFF_00FF_FF00_FFFF) || not_digit(b, 0xFFFF_FFFF_FFFF_0000) {
        return None;
    }
    Some((a, b))
}

/// Nanoseconds since midnight.
fn tod_nanos(t: NaiveTime) -> i64 {
    i64::from(t.num_seconds_from_midnight()) * 1_000_000_000 + i64::from(t.nanosecond())
}

/// The fields of a plain record line: printable ASCII only, UNIX layout
/// with no counter, ` HH:MM:SS.ffffff` (six decimals) after an optional
/// flag. Split in one pass over the bytes, with the same outcome as
/// `parse_record`; `None` for any other line.
struct Plain<'a> {
    tod: &'a [u8],
    tod_nanos: i64,
    /// `PID.TID`, unchecked, and as a cache key.
    pid_tid: &'a [u8],
    pid_tid_key: u128,
    ident: Option<&'a [u8]>,
    data: &'a [u8],
}

fn plain_record<'a>(b: &'a [u8], ident_col: bool, known: &mut Idents) -> Option<Plain<'a>> {
    let s = usize::from(matches!(b.first(), Some(b' ' | b'*')));
    let t = b.get(s..s + 16)?;
    if t[15] != b' ' {
        return None;
    }
    let tod_nanos = plain_tod(&t[..15])?;
    let mut i = past_blanks(b, s + 16);
    // PID.TID: checked when its thread is looked up.
    let end = next_blank(b, i);
    let pid_tid = &b[i..end];
    let pid_tid_key = text_key(b, i, end - i);
    i = end;
    i = past_blanks(b, i);
    let mut ident = None;
    if ident_col {
        let end = next_blank(b, i);
        let tok = &b[i..end];
        if tok.is_empty() || known.is_ident(tok, text_key(b, i, tok.len())) {
            if tok.len() > 1 {
                ident = Some(tok);
            }
            i = end;
        }
    }
    // Every byte before the data is checked by its field: the time's
    // digits, blanks (the scans stop at any other byte), PID.TID and ident
    // (a token that is not an ident is data). So the line is printable
    // ASCII when its data is.
    let data = &b[past_blanks(b, i)..];
    if !printable_ascii(data) {
        return None;
    }
    Some(Plain {
        tod: &t[..15],
        tod_nanos,
        pid_tid,
        pid_tid_key,
        ident,
        data,
    })
}

/// The idents already seen to have the ident shape: a small cache keyed by
/// the text itself and its length (an empty slot has length 0), so most
/// records' idents are not checked byte by byte.
#[derive(Default)]
struct Idents(Vec<(u128, usize)>);

impl Idents {
    fn is_ident(&mut self, t: &[u8], key: u128) -> bool {
        if t.len() > 16 {
            return is_plain_ident(t);
        }
        if self.0.is_empty() {
            self.0 = vec![(0, 0); TEXT_SLOTS];
        }
        let slot = text_slot(key);
        if self.0[slot] == (key, t.len()) {
            return true;
        }
        let ok = is_plain_ident(t);
        if ok {
            self.0[slot] = (key, t.len());
        }
        ok
    }
}

/// The `len` bytes of `b` at `at` (at most 16) as a cache key, zero
/// padded: with the length beside it, no two texts share a key (even texts
/// with zero bytes). Read as one 16-byte load where the line goes on that
/// far.
#[inline(always)]
fn text_key(b: &[u8], at: usize, len: usize) -> u128 {
    let len = len.min(16);
    let mask = if len == 16 {
        u128::MAX
    } else {
        (1u128 << (8 * len)) - 1
    };
    match b.get(at..at + 16) {
        Some(w) => u128::from_le_bytes(w.try_into().unwrap_or_default()) & mask,
        None => {
            let mut k = [0u8; 16];
            k[..len].copy_from_slice(&b[at..at + len]);
            u128::from_le_bytes(k)
        }
    }
}

/// Slots of the caches keyed by short texts.
const TEXT_SLOTS: usize = 64;

/// A slot for a short text held in a `u128`: the top bits of a
/// multiplicative hash (they depend on every bit of the text).
fn text_slot(key: u128) -> usize {
    let h = ((key as u64) ^ ((key >> 64) as u64)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (h >> (64 - TEXT_SLOTS.trailing_zeros())) as usize
}

/// `PID.TID` as `parse_record` reads it: 1 to 10 digits each, within u32.
fn parse_pid_tid(t: &[u8]) -> Option<(u32, u32)> {
    let dot = memchr::memchr(b'.', t)?;
    Some((parse_u32(&t[..dot])?, parse_u32(&t[dot + 1..])?))
}

/// Whether every byte is printable ASCII (no control byte, DEL or byte
/// above ASCII), eight bytes at a time.
fn printable_ascii(b: &[u8]) -> bool {
    const LOW7: u64 = ONES * 0x7f;
    // Per byte, with its high bit cleared first (so nothing carries): adding
    // 0x60 reaches the high bit from 0x20 up, adding 0x01 only from 0x7f.
    let odd = |w: u64| {
        let x = w & LOW7;
        (w | !x.wrapping_add(ONES * 0x60) | x.wrapping_add(ONES)) & HIGHS
    };
    let mut acc = 0u64;
    let mut words = b.chunks_exact(8);
    for w in &mut words {
        acc |= odd(u64::from_le_bytes(w.try_into().unwrap_or_default()));
    }
    let rest = words.remainder();
    let mut last = [b' '; 8];
    last[..rest.len()].copy_from_slice(rest);
    acc |= odd(u64::from_le_bytes(last));
    acc == 0
}

/// `is_ident_token` in one pass, for printable ASCII: letters, one colon,
/// letters or digits.
fn is_plain_ident(t: &[u8]) -> bool {
    // Bit 1: a letter; bit 2: a letter or digit.
    const CLASS: [u8; 256] = {
        let mut c = [0u8; 256];
        let mut i = 0;
        while i < 256 {
            let b = i as u8;
            if b.is_ascii_alphabetic() {
                c[i] = 3;
            } else if b.is_ascii_digit() {
                c[i] = 2;
            }
            i += 1;
        }
        c
    };
    let mut i = 0;
    while i < t.len() && CLASS[t[i] as usize] & 1 != 0 {
        i += 1;
    }
    if i == t.len() || t[i] != b':' {
        return false;
    }
    t[i + 1..].iter().fold(2, |a, &c| a & CLASS[c as usize]) != 0
}

/// Eight bytes of `b` from `i`, as one little-endian word.
fn word_at(b: &[u8], i: usize) -> Option<u64> {
    let w: [u8; 8] = b.get(i..i + 8)?.try_into().ok()?;
    Some(u64::from_le_bytes(w))
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// The first blank at or after `i` (or the end), eight bytes at a time.
/// For printable ASCII only (tabs are not blanks here).
fn next_blank(b: &[u8], mut i: usize) -> usize {
    while let Some(w) = word_at(b, i) {
        let x = w ^ (ONES * u64::from(b' '));
        // High bit set in the bytes of `x` that are zero (the lowest one
        // is exact).
        let z = x.wrapping_sub(ONES) & !x & HIGHS;
        if z != 0 {
            return i + (z.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    i + b[i.min(b.len())..]
        .iter()
        .take_while(|&&c| c != b' ')
        .count()
}

/// The first byte at or after `i` that is not a blank (or the end), eight
/// bytes at a time. For printable ASCII only.
fn past_blanks(b: &[u8], mut i: usize) -> usize {
    while let Some(w) = word_at(b, i) {
        let x = w ^ (ONES * u64::from(b' '));
        // Bytes below 0x80: adding 0x7f sets the high bit of nonzero ones.
        let nz = (x.wrapping_add(ONES * 0x7f) | x) & HIGHS;
        if nz != 0 {
            return i + (nz.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    i + b[i.min(b.len())..]
        .iter()
        .take_while(|&&c| c == b' ')
        .count()
}

/// What a record's data says about calls (as `classify` decides).
enum Call<'a> {
    Entry(&'a [u8]),
    Exit(&'a [u8]),
    Other,
}

/// `classify` for the text path: only the function name is needed.
/// `d` has its `!! - ` already stripped.
fn call_of<'a>(d: &'a [u8]) -> Call<'a> {
    let dashes = d.iter().take_while(|&&c| c == b'-').count();
    let word = |r: &'a [u8]| -> &'a [u8] {
        let r = &r[past_blanks(r, 0)..];
        &r[..next_blank(r, 0)]
    };
    match d.get(dashes) {
        Some(b'{') => {
            let f = word(&d[dashes + 1..]);
            if !f.is_empty() {
                return Call::Entry(f);
            }
        }
        Some(b'}') => {
            let rest = &d[dashes + 1..];
            let f = word(rest.strip_prefix(b"!").unwrap_or(rest));
            if !f.is_empty() {
                return Call::Exit(f);
            }
        }
        _ => {}
    }
    Call::Other
}

/// The UTC instant of a timestamp in nanoseconds (the merge key).
fn instant(t: &Ts) -> i64 {
    t.timestamp_nanos_opt().unwrap_or(i64::MAX)
}

/// Microseconds from one instant to a later one (0 if it is earlier).
fn micros_between(start: i64, end: i64) -> u64 {
    (end.saturating_sub(start) / 1000).max(0) as u64
}

/// One local day at one offset: its first instant and its timestamp text
/// (the date and offset parts are copied into every row of the day).
struct Day {
    date: NaiveDate,
    offset: FixedOffset,
    base: i64,
    text: [u8; 32],
}

impl Day {
    fn new(date: NaiveDate, offset: FixedOffset) -> Option<Day> {
        let t = offset
            .from_local_datetime(&date.and_time(NaiveTime::MIN))
            .single()?;
        let mut text = [0u8; 32];
        (crate::timefmt::rfc3339_into(&t, &mut text) == 32).then_some(())?;
        Some(Day {
            date,
            offset,
            base: t.timestamp_nanos_opt()?,
            text,
        })
    }
}

/// A line number kept as decimal text: the next line's number is one
/// increment of the text, not a conversion.
#[derive(Default)]
struct LineText {
    no: u64,
    digits: [u8; 20],
    from: usize,
}

impl LineText {
    /// Append `no` in decimal.
    fn put(&mut self, out: &mut Vec<u8>, no: u64) {
        if self.no != 0 && no == self.no + 1 {
            let mut i = self.digits.len();
            loop {
                i -= 1;
                if self.digits[i] == b'9' {
                    self.digits[i] = b'0';
                    if i == self.from {
                        self.from -= 1;
                        self.digits[self.from] = b'1';
                        break;
                    }
                } else {
                    self.digits[i] += 1;
                    break;
                }
            }
        } else {
            let mut b = itoa::Buffer::new();
            let s = b.format(no).as_bytes();
            self.from = self.digits.len() - s.len();
            self.digits[self.from..].copy_from_slice(s);
        }
        self.no = no;
        out.extend_from_slice(&self.digits[self.from..]);
    }
}

/// What reading on in a file gave.
enum Step {
    /// Rows rendered (maybe none: a line's events may wait in `out`).
    Rows(usize),
    /// The reader has no more lines.
    Ended,
}

/// Per-file reading state.
struct Segment {
    input: Input,
    info: FileInfo,
    origin: Arc<Origin>,
    /// Boxed: it is taken out and put back for every line read.
    lines: Option<Box<LineReader<Box<dyn Read + Send>>>>,
    /// `  PATH:` as text rows show it.
    row_path: Vec<u8>,
    /// Line numbers as text.
    row_line: LineText,
}

pub struct TraceSource {
    opts: ReadOptions,
    pending: VecDeque<Input>,
    seg: Option<Segment>,
    done: Vec<FileInfo>,
    // Carried across the segments of a group.
    layout: Layout,
    date: Option<NaiveDate>,
    offset: Option<FixedOffset>,
    /// Time of day of the last dated line, nanoseconds since midnight.
    last_tod: Option<i64>,
    threads: Threads,
    names: Interner,
    // Per segment.
    header: Header,
    in_header: bool,
    seen_title: bool,
    held: Vec<(NaiveTime, Event)>,
    last_counter: Option<u32>,
    /// Whether this segment's date and offset are decided.
    clock_settled: bool,
    /// Earliest and latest local time of the records skipped by interest.
    skipped: Option<((NaiveDate, NaiveTime), (NaiveDate, NaiveTime))>,
    /// The title names `Process.Thread` (UNIX `dspmqtrc` layout).
    unix_title: bool,
    out: VecDeque<Event>,
    /// The day of the last row rendered straight from its line.
    day: Option<Day>,
    /// Idents known to have the ident shape.
    idents: Idents,
    /// Earliest and latest instant of the rows rendered straight from
    /// their lines in this segment.
    fast_span: Option<(i64, i64)>,
    /// Set while this source renders a block ahead of the lines before it.
    ahead: Option<blocks::Ahead>,
    /// Helpers rendering blocks of the current file ahead.
    par: Option<Box<blocks::Pipeline>>,
    /// The current file is past what helpers can take (a line longer than
    /// a block): read on alone.
    par_off: bool,
    /// Blocks of the last file with helpers: stitched, read again, and
    /// durations found at a stitch.
    #[cfg(test)]
    par_counts: (u64, u64, u64),
}

impl TraceSource {
    pub fn new(inputs: Vec<Input>, opts: ReadOptions) -> Self {
        TraceSource {
            opts,
            pending: inputs.into(),
            seg: None,
            done: Vec::new(),
            layout: Layout::default(),
            date: None,
            offset: None,
            last_tod: None,
            threads: Threads::default(),
            names: Interner::default(),
            header: Header::default(),
            in_header: false,
            seen_title: false,
            held: Vec::new(),
            last_counter: None,
            clock_settled: false,
            skipped: None,
            unix_title: false,
            out: VecDeque::new(),
            day: None,
            idents: Idents::default(),
            fast_span: None,
            ahead: None,
            par: None,
            par_off: false,
            #[cfg(test)]
            par_counts: (0, 0, 0),
        }
    }

    fn start_segment(&mut self, input: Input) {
        let mut info = FileInfo::new(&input.display, Format::FmtTrace, input.bytes);
        let origin = input.origin(Format::FmtTrace);
        let lines = super::open_lines_with(&input, &mut info, self.opts.read_buffer).map(Box::new);
        if input.bytes == 0 {
            info.problem(
                ProblemCode::EmptyFile,
                None,
                Severity::Warning,
                0,
                "empty file",
            );
        }
        self.header = Header::default();
        self.in_header = false;
        self.seen_title = false;
        self.unix_title = false;
        self.last_counter = None;
        self.clock_settled = false;
        self.seg = Some(Segment {
            input,
            info,
            row_path: format!("  {}:", origin.path).into_bytes(),
            origin,
            lines,
            row_line: LineText::default(),
        });
    }

    fn end_segment(&mut self) {
        self.par = None;
        self.par_off = false;
        self.flush_held();
        if let (Some(((d0, t0), (d1, t1))), Some(off)) = (self.skipped.take(), self.offset)
            && let Some(seg) = self.seg.as_mut()
        {
            for t in [d0.and_time(t0), d1.and_time(t1)] {
                if let Some(ts) = off.from_local_datetime(&t).single() {
                    let info = &mut seg.info;
                    if info.first.is_none_or(|f| ts < f) {
                        info.first = Some(ts);
                    }
                    if info.last.is_none_or(|l| ts > l) {
                        info.last = Some(ts);
                    }
                }
            }
        }
        if let (Some((lo, hi)), Some(off), Some(seg)) =
            (self.fast_span.take(), self.offset, self.seg.as_mut())
        {
            for k in [lo, hi] {
                let ts = DateTime::from_timestamp_nanos(k).with_timezone(&off);
                let info = &mut seg.info;
                if info.first.is_none_or(|f| ts < f) {
                    info.first = Some(ts);
                }
                if info.last.is_none_or(|l| ts > l) {
                    info.last = Some(ts);
                }
            }
        }
        if let Some(mut seg) = self.seg.take() {
            if seg.info.variant.is_none() {
                seg.info.variant = Some(self.variant_name().to_string());
            }
            if self.in_header {
                seg.info.problem(
                    ProblemCode::CutFile,
                    Some(seg.info.lines),
                    Severity::Warning,
                    0,
                    "file ends inside its header (no closing `----` rule)",
                );
            }
            if let Some(l) = &seg.lines {
                seg.info.bytes = seg.info.bytes.max(l.bytes_read());
            }
            self.done.push(seg.info);
        }
    }

    fn variant_name(&self) -> &'static str {
        if !self.seen_title {
            "headerless"
        } else if self.layout.counter == Some(true) {
            "windows-counter"
        } else if self.unix_title {
            "unix"
        } else {
            "windows"
        }
    }

    /// Decide date and offset when the header is complete (or absent):
    /// from this file's header, else from the previous file of the group
    /// (a `.TRS` before its `.FMT`), else from the options.
    fn settle_clock(&mut self, first_tod: Option<NaiveTime>) {
        self.hazard();
        self.clock_settled = true;
        let seg = self.seg.as_mut().expect("segment");
        if let (Some(l), Some(u)) = (self.header.local, self.header.utc) {
            let secs = (l - u).num_seconds();
            // Round to the minute: the two header lines are written a few
            // microseconds apart.
            let mins = ((secs as f64) / 60.0).round() as i32;
            if let Some(off) = FixedOffset::east_opt(mins * 60) {
                self.offset = Some(off);
                seg.info.set_offset(off, "header");
            }
        }
        match self.offset {
            None => self.offset = Some(self.opts.fallback_offset(&mut seg.info)),
            Some(off) if seg.info.utc_offset.is_none() => {
                seg.info.set_offset(off, "previous file of the wrap group")
            }
            Some(_) => {}
        }
        let off = self.offset.expect("offset");
        // A header cut after its UTC line still dates the file.
        let from_utc = self
            .header
            .utc
            .map(|u| u + chrono::Duration::seconds(off.local_minus_utc() as i64));
        if let Some(s) = self.header.local.or(self.header.plain).or(from_utc) {
            self.date = Some(s.date());
            self.last_tod = Some(tod_nanos(s.time()));
        }
        if self.date.is_some() {
            return;
        }
        let (date, how) = match self.opts.date {
            Some(d) => (d, "--date"),
            None => {
                let m = seg
                    .input
                    .mtime
                    .map(|t| DateTime::<chrono::Utc>::from(t).with_timezone(&off));
                match m {
                    Some(m) => {
                        // The trace was written before it was formatted: a
                        // first line later in the day than the file's
                        // modification belongs to an earlier day.
                        let mut d = m.date_naive();
                        if first_tod.is_some_and(|t| t > m.time()) {
                            d = d.pred_opt().unwrap_or(d);
                        }
                        (d, "the file's modification time")
                    }
                    None => (
                        NaiveDate::from_ymd_opt(1970, 1, 1).expect("date"),
                        "nowhere (1970-01-01 used)",
                    ),
                }
            }
        };
        seg.info.problem( ProblemCode::NoDate,
            None,
            Severity::Info,
            0,
            if self.opts.date.is_some() {
                format!("no date in the file: date {date} taken from {how}")
            } else {
                format!(
                    "no date in the file (formatted with `dspmqtrc -h`?): date {date} taken from {how}; give --date to set it"
                )
            },
        );
        self.date = Some(date);
    }

    fn timestamp(&mut self, tod: NaiveTime) -> Ts {
        let date = self.roll(tod);
        let off = self.offset.expect("offset settled");
        match off.from_local_datetime(&date.and_time(tod)) {
            chrono::LocalResult::Single(t) => t,
            _ => off.from_utc_datetime(&date.and_time(tod)),
        }
    }

    /// The date of a line with this time of day, rolling the day over at
    /// midnight. Calling it twice for one line changes nothing.
    fn roll(&mut self, tod: NaiveTime) -> NaiveDate {
        self.roll_nanos(tod_nanos(tod))
    }

    /// `roll` for a time of day in nanoseconds since midnight.
    fn roll_nanos(&mut self, tod: i64) -> NaiveDate {
        if let Some(a) = self.ahead.as_mut() {
            a.first_tod.get_or_insert(tod);
        }
        let mut date = self.date.expect("date settled");
        if let Some(last) = self.last_tod {
            // Whole seconds back, as a duration's seconds (towards zero).
            let back = (last - tod) / 1_000_000_000;
            if back > ROLLOVER_SECS {
                // Forward across midnight.
                date = date.succ_opt().unwrap_or(date);
                self.date = Some(date);
                self.last_tod = Some(tod);
            } else if back < -(86_400 - ROLLOVER_SECS) {
                // A line from just before midnight after the day rolled
                // (threads interleave): it belongs to the previous day.
                date = date.pred_opt().unwrap_or(date);
            } else {
                self.last_tod = Some(tod);
            }
        } else {
            self.last_tod = Some(tod);
        }
        date
    }

    fn flush_held(&mut self) {
        if self.held.is_empty() {
            return;
        }
        self.hazard();
        if !self.clock_settled {
            let first = self.held.first().map(|(t, _)| *t);
            self.settle_clock(first);
        }
        let held = std::mem::take(&mut self.held);
        for (tod, mut e) in held {
            e.ts = self.timestamp(tod);
            self.emit(e);
        }
    }

    fn emit(&mut self, e: Event) {
        if let Some(a) = self.ahead.as_mut() {
            a.rows += 1;
        }
        if let Some(seg) = self.seg.as_mut() {
            seg.info.saw_event(&e.ts);
        }
        self.out.push_back(e);
    }

    /// Read one physical line; false at end of segment.
    fn step(&mut self) -> bool {
        let Some(seg) = self.seg.as_mut() else {
            return false;
        };
        // The reader is taken out while its line is handled, so the line can
        // be borrowed without a copy.
        let Some(mut reader) = seg.lines.take() else {
            return false;
        };
        let more = self.read_one(&mut reader);
        if let Some(seg) = self.seg.as_mut() {
            seg.lines = Some(reader);
        }
        more
    }

    /// With an interest set: skip, in one search over the read buffer, the
    /// run of well-formed record lines before the next line that names
    /// something of interest. Each skipped line is still checked for the
    /// record shape and its time of day read (an odd one ends the run and
    /// is read the full way, so problems are still found). Returns false
    /// when nothing could be skipped.
    fn skip_run(&mut self, reader: &mut LineReader<Box<dyn Read + Send>>) -> bool {
        let Some(interest) = self.opts.interest.clone() else {
            return false;
        };
        if !self.may_skip() {
            return false;
        }
        let Ok(block) = reader.buffered_lines() else {
            return false;
        };
        let line_start =
            |b: &[u8], at: usize| memchr::memrchr(b'\n', &b[..at]).map_or(0, |i| i + 1);
        let mut limit = match interest.first_candidate(block) {
            Some(p) => line_start(block, p),
            None => block.len(),
        };
        if let Some(p) = memchr::memchr(0, &block[..limit]) {
            limit = line_start(block, p);
        }
        let region = &block[..limit];
        let (mut pos, mut n) = (0usize, 0u64);
        // Every line keeps the clock and the time range, as if it were read
        // in full: the dates and the file's time range do not depend on
        // where the read buffer happens to end. A line in the hour of the
        // clock's last time is within an hour of it: it keeps the date and
        // becomes the last time, which is read in full only when needed.
        let full = |t: &[u8]| plain_tod(t).or_else(|| parse_time_of_day(t).map(tod_nanos));
        let hour_of = |n: i64| {
            let h = (n / 3_600_000_000_000).clamp(0, 99) as u8;
            [b'0' + h / 10, b'0' + h % 10]
        };
        let mut clock_hour: Option<[u8; 2]> = self.last_tod.map(hour_of);
        let mut pending: Option<&[u8]> = None;
        // Earliest and latest: days since the run's first date and the
        // time's words, in an order that is the order of time; and the time.
        type Key<'b> = Option<((i64, u64, u64), &'b [u8])>;
        let (mut lo, mut hi): (Key, Key) = (None, None);
        // Days count from the clock's date (lines in the clock's hour keep
        // it).
        let Some(first) = self.date else {
            return false;
        };
        let mut days = 0i64;
        for nl in memchr::memchr_iter(b'\n', region) {
            let line = &region[pos..nl];
            let Some((s, e)) = record_time_slot(line) else {
                break;
            };
            let t = &line[s..e];
            let words = tod_words(t);
            let same_hour = clock_hour.is_some_and(|h| t[..2] == h) && t[3] <= b'5' && t[6] <= b'5';
            let (day, (a, b)) = match words {
                Some(w) if same_hour => {
                    pending = Some(t);
                    (days, w)
                }
                _ => {
                    let (Some(w), Some(tod)) = (words, full(t)) else {
                        break;
                    };
                    if let Some(p) = pending.take() {
                        self.last_tod = full(p);
                    }
                    let date = self.roll_nanos(tod);
                    if self.last_tod == Some(tod) {
                        // The clock moved to this line.
                        clock_hour = Some([t[0], t[1]]);
                        days = (self.date.unwrap_or(date) - first).num_days();
                    }
                    ((date - first).num_days(), w)
                }
            };
            let key = (day, a.swap_bytes(), b.swap_bytes());
            if lo.is_none_or(|(k, _)| key < k) {
                lo = Some((key, t));
            }
            if hi.is_none_or(|(k, _)| key > k) {
                hi = Some((key, t));
            }
            n += 1;
            pos = nl + 1;
        }
        if let Some(p) = pending {
            self.last_tod = full(p);
        }
        let local = |k: Key| {
            let ((day, _, _), t) = k?;
            let date = first.checked_add_signed(chrono::Duration::days(day))?;
            let n = full(t)?;
            let (secs, nanos) = (n / 1_000_000_000, n % 1_000_000_000);
            NaiveTime::from_num_seconds_from_midnight_opt(secs as u32, nanos as u32)
                .map(|t| (date, t))
        };
        let (Some(lo), Some(hi)) = (local(lo), local(hi)) else {
            return false;
        };
        self.count_skipped(lo, hi, n);
        reader.skip(pos, n);
        if let Some(seg) = self.seg.as_mut() {
            seg.info.lines = reader.line_no();
        }
        true
    }

    /// Whether record lines may be skipped: the header is read and the
    /// clock settled. Counter layouts are read in full: every counter is
    /// checked.
    fn may_skip(&self) -> bool {
        self.clock_settled
            && !self.in_header
            && self.layout.counter == Some(false)
            && self.seg.as_ref().is_some_and(|s| s.info.pid.is_some())
    }

    fn read_one(&mut self, reader: &mut LineReader<Box<dyn Read + Send>>) -> bool {
        if self.skip_run(reader) {
            return true;
        }
        let seg = self.seg.as_mut().expect("segment");
        let Some((meta, bytes)) = super::read_line(reader, &mut seg.info) else {
            return false;
        };
        self.take_line(meta, bytes);
        true
    }

    /// Handle one physical line the full way.
    fn take_line(&mut self, meta: crate::lines::LineMeta, bytes: &[u8]) {
        let seg = self.seg.as_mut().expect("segment");
        let no = meta.no;
        if meta.truncated {
            seg.info.problem(
                ProblemCode::LineTooLong,
                Some(no),
                Severity::Warning,
                0,
                format!(
                    "line of {} bytes cut to the first {} bytes",
                    meta.full_len,
                    bytes.len()
                ),
            );
        }
        let clean: Option<Vec<u8>> = if memchr::memchr(0, bytes).is_some() {
            seg.info.problem(
                ProblemCode::NulBytes,
                Some(no),
                Severity::Warning,
                0,
                "NUL bytes in line: removed",
            );
            Some(bytes.iter().copied().filter(|&b| b != 0).collect())
        } else {
            None
        };
        let bytes = clean.as_deref().unwrap_or(bytes);
        // A cut last line is a problem to report even when no pass reads it.
        if !meta.unterminated && self.skip_cheaply(bytes) {
            return;
        }
        // Latin-1 / CP850 bytes in process names or dumps: keep every byte.
        let line = decode_lossy(bytes);
        self.handle_line(no, &line, meta.unterminated);
    }

    /// Whether plain record lines may be rendered straight to text rows:
    /// the file's header, layout, date and offset are known, nothing is
    /// queued, and every line is wanted.
    fn fast_ready(&self) -> bool {
        self.body_ready() && self.opts.interest.is_none()
    }

    /// Whether the file is in its body: header read, clock settled,
    /// nothing queued, a layout with no counter column.
    fn body_ready(&self) -> bool {
        self.clock_settled
            && !self.in_header
            && self.held.is_empty()
            && self.out.is_empty()
            && self.layout.counter == Some(false)
            && self.layout.ident.is_some()
            && self.offset.is_some()
            && self.seg.as_ref().is_some_and(|s| s.info.pid.is_some())
    }

    /// The text row of a plain record line, exactly as the event built the
    /// full way would render (`sink::text_row`, from the same pieces), with no event,
    /// string or time zone arithmetic per line. `None`, with nothing
    /// changed, for any line that needs the full way.
    fn fast_row(&mut self, no: u64, b: &[u8], out: &mut Vec<u8>) -> Option<RowMeta> {
        let p = plain_record(b, self.layout.ident == Some(true), &mut self.idents)?;
        let off = self.offset?;
        // Rolling the date twice for one line changes nothing, so a `None`
        // below still leaves the line to the full way.
        let date = self.roll_nanos(p.tod_nanos);
        let day = match &self.day {
            Some(d) if d.date == date && d.offset == off => d,
            _ => self.day.insert(Day::new(date, off)?),
        };
        let key = day.base + p.tod_nanos;
        let names = &mut self.names;
        let ahead = &mut self.ahead;
        let thread = self.threads.by_text(p.pid_tid, p.pid_tid_key)?;
        let seg = self.seg.as_mut()?;
        // Nothing is written before this point: a `None` above leaves the
        // line to the full way.
        out.reserve(b.len() + 128);
        // The day's text, then the time of day over its middle: patching a
        // copy on the stack first made the 16-byte loads of the copy wait
        // for the smaller stores (a store-forwarding stall on every row).
        let at = out.len();
        out.extend_from_slice(&day.text);
        out[at + 11..at + 26].copy_from_slice(p.tod);
        let text = p.data.strip_prefix(b"!! - ").unwrap_or(p.data);
        let elapsed = match call_of(text) {
            Call::Entry(f) => {
                thread.last_record_line = no;
                if thread.stack.len() >= MAX_STACK {
                    thread.stack.remove(0);
                }
                thread.stack.push((names.get_bytes(f), key));
                thread.max_depth = thread.max_depth.max(thread.stack.len());
                None
            }
            Call::Exit(f) => {
                thread.last_record_line = no;
                let pos = thread.stack.iter().rposition(|(g, _)| g.as_bytes() == f);
                if pos.is_none()
                    && let Some(a) = ahead.as_mut()
                {
                    a.unmatched(thread, || names.get_bytes(f), key);
                }
                pos.map(|pos| {
                    let start = thread.stack[pos].1;
                    thread.stack.truncate(pos);
                    micros_between(start, key)
                })
            }
            Call::Other => {
                // Dump rows belong to the record before them.
                if !is_dump_row(text) {
                    thread.last_record_line = no;
                }
                None
            }
        };
        let label = &thread.label;
        out.extend_from_slice(&seg.row_path);
        seg.row_line.put(out, no);
        out.extend_from_slice(label);
        push_row_tail(out, p.ident, text, elapsed);
        seg.info.events += 1;
        if let Some(a) = ahead.as_mut() {
            a.rows += 1;
        }
        self.fast_span = Some(match self.fast_span {
            Some((lo, hi)) => (lo.min(key), hi.max(key)),
            None => (key, key),
        });
        Some(RowMeta {
            key,
            offset: off.local_minus_utc(),
            line: no,
            origin: None,
        })
    }

    /// Read on in the current file's reader: a block of plain lines
    /// straight to rows when the file allows it, then one line the usual
    /// way (its events wait in `out`).
    fn read_rows(
        &mut self,
        out: &mut Vec<u8>,
        n: usize,
        limit: usize,
        row: &mut dyn FnMut(RowMeta, usize, usize),
    ) -> Step {
        if !self.fast_ready() {
            return if self.step() {
                Step::Rows(0)
            } else {
                Step::Ended
            };
        }
        let Some(mut reader) = self.seg.as_mut().and_then(|s| s.lines.take()) else {
            return Step::Ended;
        };
        // A block of plain lines at a time, straight from the read buffer;
        // then one line the usual way (the line that stopped the block, or
        // one only partly buffered).
        let got = self.fast_block(&mut reader, out, n, limit, row);
        let start = out.len();
        let line = if got > 0 {
            Some(None)
        } else {
            let info = &mut self.seg.as_mut().expect("segment").info;
            super::read_line(&mut reader, info).map(|(meta, bytes)| {
                let fast = (!meta.truncated && !meta.unterminated)
                    .then(|| self.fast_row(meta.no, bytes, out))
                    .flatten();
                if fast.is_none() {
                    self.take_line(meta, bytes);
                }
                fast
            })
        };
        if let Some(seg) = self.seg.as_mut() {
            seg.lines = Some(reader);
        }
        match line {
            None => Step::Ended,
            Some(Some(m)) => {
                row(m, start, out.len());
                Step::Rows(got + 1)
            }
            Some(None) => Step::Rows(got),
        }
    }

    /// The current reader has no more lines: the end of a block read
    /// again (the file goes on with its helpers), or of the file.
    fn reader_ended(&mut self) {
        if self.par.is_some() {
            if let Some(seg) = self.seg.as_mut() {
                seg.lines = None;
            }
        } else {
            self.end_segment();
        }
    }

    /// Something a block read ahead cannot know from its own lines (a
    /// header, a counter, a clock to settle): the block is read again
    /// once the lines before it are.
    fn hazard(&mut self) {
        if let Some(a) = self.ahead.as_mut() {
            a.hazard = true;
        }
    }

    /// Render the plain lines at the start of the read buffer, up to `n`
    /// rows (or `limit` bytes of `out`), consuming them; stops before the
    /// first line that needs the full way. Returns the rows rendered.
    fn fast_block(
        &mut self,
        reader: &mut LineReader<Box<dyn Read + Send>>,
        out: &mut Vec<u8>,
        n: usize,
        limit: usize,
        row: &mut dyn FnMut(RowMeta, usize, usize),
    ) -> usize {
        let first = reader.line_no();
        let Ok(block) = reader.buffered_lines() else {
            return 0;
        };
        let (mut pos, mut k) = (0usize, 0usize);
        for nl in memchr::memchr_iter(b'\n', block) {
            if k == n || (k > 0 && out.len() >= limit) {
                break;
            }
            let start = out.len();
            let no = first + k as u64 + 1;
            let Some(m) = self.fast_row(no, &block[pos..nl], out) else {
                break;
            };
            row(m, start, out.len());
            k += 1;
            pos = nl + 1;
        }
        reader.skip(pos, k as u64);
        if let Some(seg) = self.seg.as_mut() {
            seg.info.lines = reader.line_no();
        }
        k
    }

    /// With an interest set, once the header is read: a well-formed record
    /// line that names nothing of interest is skipped after a byte check,
    /// keeping only the clock (midnight) up to date. Anything odd goes the
    /// full way, so problems are still found and located.
    fn skip_cheaply(&mut self, b: &[u8]) -> bool {
        let Some(interest) = self.opts.interest.as_deref() else {
            return false;
        };
        if !self.may_skip() {
            return false;
        }
        // ` HH:MM:SS.ffffff` or `*HH:MM:SS.ffffff`, then a blank.
        let start = usize::from(matches!(b.first(), Some(b' ' | b'*')));
        let end = start + 15;
        if b.len() <= end || b[end] != b' ' {
            return false;
        }
        let Some(tod) = parse_time_of_day(&b[start..end]) else {
            return false;
        };
        if interest.candidate(b) {
            return false;
        }
        let date = self.roll(tod);
        self.count_skipped((date, tod), (date, tod), 1);
        true
    }

    /// Skipped records still count: `events` and the time range stay the
    /// same as when every line is built.
    fn count_skipped(&mut self, a: (NaiveDate, NaiveTime), b: (NaiveDate, NaiveTime), n: u64) {
        let (lo, hi) = (a.min(b), a.max(b));
        let span = self.skipped.get_or_insert((lo, hi));
        span.0 = span.0.min(lo);
        span.1 = span.1.max(hi);
        if let Some(seg) = self.seg.as_mut() {
            seg.info.events += n;
        }
    }

    fn handle_line(&mut self, no: u64, line: &str, unterminated: bool) {
        let layout = if self.seen_title || self.layout.ident.is_some() {
            Some(self.layout)
        } else {
            None
        };
        if let Some(rec) = parse_record(line, layout) {
            if !self.seen_title && self.layout.ident.is_none() {
                // Headerless file: fix the layout from the first record.
                self.layout.ident = Some(rec.ident.is_some() || is_blank_ident(line));
                self.layout.counter = Some(rec.counter.is_some());
            }
            self.record(no, rec, unterminated);
            return;
        }
        let s = line;
        let t = s.trim();
        if t.is_empty() {
            return;
        }
        if is_title(s) {
            self.hazard();
            self.seen_title = true;
            self.layout.counter = Some(s.contains("Counter"));
            self.layout.ident = Some(s.contains("Ident"));
            // UNIX: the header follows as timestamped records.
            self.unix_title = s.contains("Process.Thread");
            self.in_header = self.unix_title && !s.contains("Counter");
            return;
        }
        if t.bytes().all(|c| c == b'=') {
            return;
        }
        if !self.seen_title {
            // Windows free-text header: `Key : value`.
            self.header_text(t);
            return;
        }
        let seg = self.seg.as_mut().expect("segment");
        let (code, what) = if unterminated {
            (
                ProblemCode::CutFile,
                "last line cut short (file truncated?)",
            )
        } else {
            (ProblemCode::BadLine, "not a trace record")
        };
        let shown: String = t.chars().take(60).collect();
        seg.info.problem(
            code,
            Some(no),
            Severity::Warning,
            1,
            format!("{what}: `{shown}`"),
        );
    }

    fn header_text(&mut self, t: &str) {
        self.hazard();
        let seg = self.seg.as_mut().expect("segment");
        let info = &mut seg.info;
        if t.starts_with("Process") {
            if let Some(v) = field(t, "Process") {
                let v = v.trim();
                // `C:\...\amqxssvn.exe` or `name (64-bit)`
                let v = v.split(" (").next().unwrap_or(v);
                let name = v.rsplit(['\\', '/']).next().unwrap_or(v);
                info.process = Some(name.to_string());
            }
        } else if t.starts_with("Version") {
            if let Some(v) = field(t, "Version") {
                info.mq_version = Some(first_word(v).to_string());
            }
        } else if t.starts_with("Date") {
            if let Some(dt) = date_time(t, true) {
                self.header.plain = Some(dt);
            }
        } else if t.starts_with("Host") {
            if let Some(v) = field(t, "Host") {
                info.host = Some(v.trim().to_string());
            }
        } else if t.starts_with("Operating System")
            && let Some(v) = field(t, "Operating System")
        {
            info.platform = Some(v.trim().to_string());
        }
    }

    /// Header records of the UNIX layout (data column of timestamped lines).
    fn header_record(&mut self, data: &str) {
        let info = &mut self.seg.as_mut().expect("segment").info;
        if let Some(rest) = data.strip_prefix("Header.v02:") {
            let f: Vec<&str> = rest.split(':').collect();
            if let Some(v) = f.first() {
                info.mq_version.get_or_insert_with(|| v.to_string());
            }
            if let Some(p) = f.get(1) {
                info.platform = Some(p.to_string());
            }
        } else if data.starts_with("Version") {
            if let Some(v) = field(data, "Version") {
                info.mq_version = Some(first_word(v).to_string());
            }
        } else if data.starts_with("UTC") {
            self.header.utc = date_time(data, false);
        } else if data.starts_with("Local") {
            self.header.local = date_time(data, false);
        } else if data.starts_with("PID") {
            if let Some(v) = field(data, "PID") {
                info.pid = first_word(v).parse().ok();
            }
            if let Some(v) = field(data, "Process") {
                info.process = Some(first_word(v).to_string());
            }
        } else if data.starts_with("Host") {
            if let Some(v) = field(data, "Host") {
                info.host = Some(v.trim().to_string());
            }
        } else if data.starts_with("Operating System")
            && info.platform.is_none()
            && let Some(v) = field(data, "Operating System")
        {
            info.platform = Some(v.trim().to_string());
        }
    }

    fn record(&mut self, no: u64, rec: Record<'_>, unterminated: bool) {
        if rec.counter.is_some() || self.in_header {
            self.hazard();
        }
        if let Some(c) = rec.counter {
            if let Some(prev) = self.last_counter {
                let expect = prev.wrapping_add(1);
                if c != expect {
                    let seg = self.seg.as_mut().expect("segment");
                    let lost = c.wrapping_sub(expect);
                    let msg = if lost < 0x8000_0000 {
                        format!(
                            "counter jumped from {prev:08X} to {c:08X}: {lost} record(s) missing"
                        )
                    } else {
                        format!("counter went back from {prev:08X} to {c:08X}")
                    };
                    seg.info
                        .problem(ProblemCode::CounterGap, Some(no), Severity::Warning, 0, msg);
                }
            }
            self.last_counter = Some(c);
        }
        if unterminated {
            let seg = self.seg.as_mut().expect("segment");
            seg.info.problem(
                ProblemCode::CutFile,
                Some(no),
                Severity::Info,
                0,
                "last line has no line end (file truncated?): read as it is",
            );
        }
        let data = rec.data;
        if self.in_header && !is_header_data(data) {
            // A UNIX title with no header records after it: the newer part
            // of a wrapped trace, or a header cut away.
            self.in_header = false;
            self.flush_held();
        }
        if self.in_header {
            let seg = self.seg.as_mut().expect("segment");
            seg.info.pid.get_or_insert(rec.pid);
            // The time is set when the header has given the date.
            let placeholder = FixedOffset::east_opt(0)
                .expect("zero")
                .from_utc_datetime(&NaiveDateTime::default());
            let mut e = Event::new(
                placeholder,
                seg.origin.clone(),
                no,
                Kind::Header,
                data.to_string(),
            );
            e.pid = Some(rec.pid);
            e.tid = Some(rec.tid);
            e.ident = rec.ident.map(|i| self.names.get(i));
            if rec.flag {
                e.set_attr("flag", "*");
            }
            if data.starts_with("--------------------------------") {
                self.in_header = false;
            } else {
                self.header_record(data);
            }
            if self.held.len() < MAX_HEADER_HOLD {
                self.held.push((rec.tod, e));
            }
            if !self.in_header {
                self.flush_held();
            }
            return;
        }
        if !self.clock_settled {
            self.settle_clock(Some(rec.tod));
        }
        // Files without a header (or the newer part of a wrap) still name
        // their process on every line.
        if let Some(seg) = self.seg.as_mut() {
            seg.info.pid.get_or_insert(rec.pid);
        }
        let ts = self.timestamp(rec.tod);
        let key = (rec.pid, rec.tid);
        let names = &mut self.names;
        let interest = self.opts.interest.as_deref();
        let ahead = &mut self.ahead;
        let thread = self.threads.get(key.0, key.1);
        // With an interest set, only calls of interest are stacked, so the
        // stack still times them exactly; depth then counts those calls.
        let built = 'built: {
            Some(match classify(data) {
                Data::Entry { function, .. } => {
                    thread.last_record_line = no;
                    if interest.is_some_and(|i| !i.function(function)) {
                        break 'built None;
                    }
                    let f = names.get(function);
                    if thread.stack.len() >= MAX_STACK {
                        thread.stack.remove(0);
                    }
                    let depth = thread.stack.len() as u32;
                    thread.stack.push((f.clone(), instant(&ts)));
                    thread.max_depth = thread.max_depth.max(thread.stack.len());
                    (Kind::Entry, depth, Some(f), None, None, None, false)
                }
                Data::Exit {
                    error,
                    function,
                    rc,
                    function_time,
                    ..
                } => {
                    thread.last_record_line = no;
                    if interest.is_some_and(|i| !i.function(function)) {
                        break 'built None;
                    }
                    let f = names.get(function);
                    let kind = if error { Kind::ErrorExit } else { Kind::Exit };
                    // Pop to the matching entry; calls above it never closed.
                    match thread
                        .stack
                        .iter()
                        .rposition(|(g, _)| Arc::ptr_eq(g, &f) || **g == *function)
                    {
                        Some(pos) => {
                            let start = thread.stack[pos].1;
                            thread.stack.truncate(pos);
                            let el = Some(micros_between(start, instant(&ts)));
                            (kind, pos as u32, Some(f), rc, function_time, el, false)
                        }
                        // No entry seen: the trace started inside this call.
                        None => {
                            if let Some(a) = ahead.as_mut() {
                                a.unmatched(thread, || f.clone(), instant(&ts));
                            }
                            let d = thread.stack.len() as u32;
                            (kind, d, Some(f), rc, function_time, None, true)
                        }
                    }
                }
                Data::Dump => {
                    if interest.is_some() {
                        break 'built None;
                    }
                    let f = thread.stack.last().map(|(f, _)| f.clone());
                    let d = thread.stack.len() as u32;
                    (Kind::Dump, d, f, None, None, None, false)
                }
                Data::Text(t) => {
                    thread.last_record_line = no;
                    if interest.is_some_and(|i| !i.text(t)) {
                        break 'built None;
                    }
                    let f = thread.stack.last().map(|(f, _)| f.clone());
                    let d = thread.stack.len() as u32;
                    (Kind::Text, d, f, None, None, None, false)
                }
            })
        };
        let Some((kind, depth, function, rc, function_time, elapsed, unmatched)) = built else {
            // Not of interest: counted, not built.
            let at = (ts.date_naive(), ts.time());
            self.count_skipped(at, at, 1);
            return;
        };
        let dump_of =
            (kind == Kind::Dump && thread.last_record_line > 0).then_some(thread.last_record_line);
        // Read ahead: what of this event the lines before the block decide.
        let fix = ahead.is_some().then(|| blocks::Fix {
            pid: rec.pid,
            tid: rec.tid,
            q: thread.queries.len() - usize::from(unmatched),
            query: unmatched,
            top: matches!(kind, Kind::Dump | Kind::Text) && thread.stack.is_empty(),
            dump: kind == Kind::Dump && thread.last_record_line == 0,
        });
        let ident = match rec.ident {
            None => None,
            Some(i) => match &thread.ident {
                Some(a) if **a == *i => Some(a.clone()),
                _ => {
                    let a = names.get(i);
                    thread.ident = Some(a.clone());
                    Some(a)
                }
            },
        };
        let seg = self.seg.as_mut().expect("segment");
        let text = data.strip_prefix("!! - ").unwrap_or(data).to_string();
        let mut e = Event::new(ts, seg.origin.clone(), no, kind, text);
        e.pid = Some(rec.pid);
        e.tid = Some(rec.tid);
        e.ident = ident;
        e.depth = Some(depth);
        e.function = function;
        e.rc = rc.map(str::to_string);
        e.function_time = function_time;
        e.elapsed_us = elapsed;
        if rec.flag {
            e.set_attr("flag", "*");
        }
        if unmatched {
            e.set_attr("unmatched", "true");
        }
        if let Some(l) = dump_of {
            e.set_attr("dump_of", l.to_string());
        }
        if let (Some(a), Some(f)) = (self.ahead.as_mut(), fix) {
            a.fixes.push(f);
        }
        self.emit(e);
    }
}

/// Where the time of day sits in a UNIX record line (` HH:MM:SS.ffffff `
/// after an optional flag), checked by shape only: the cheap test that a
/// skipped line is a record. `None` for anything else.
fn record_time_slot(line: &[u8]) -> Option<(usize, usize)> {
    let s = usize::from(matches!(line.first(), Some(b' ' | b'*')));
    let e = s + 15;
    let ok = line.len() > e + 1
        && line[e] == b' '
        && line[s + 2] == b':'
        && line[s + 5] == b':'
        && line[s + 8] == b'.'
        && line[s].is_ascii_digit()
        && line[s + 14].is_ascii_digit();
    ok.then_some((s, e))
}

/// Data of the UNIX header records (everything up to the dash rule).
fn is_header_data(d: &str) -> bool {
    const KEYS: [&str; 9] = [
        "Header.v",
        "Version",
        "UTC",
        "Local Date",
        "PID",
        "Host",
        "Operating System",
        "Product Long Name",
        "--------------------------------",
    ];
    // Unknown header keys still have the `Key : value` shape.
    KEYS.iter().any(|k| d.starts_with(k)) || d.contains(" : ")
}

fn is_blank_ident(line: &str) -> bool {
    // `  8.1           :  data` — a lone colon after PID.TID.
    line.split_whitespace().any(|w| w == ":")
}

impl Source for TraceSource {
    fn next_event(&mut self) -> Option<Event> {
        loop {
            if let Some(e) = self.out.pop_front() {
                return Some(e);
            }
            if self.seg.is_none() {
                let next = self.pending.pop_front()?;
                self.start_segment(next);
                continue;
            }
            if (self.par.is_some() || self.par_wanted(false))
                && let blocks::Next::Rows(_) = self.par_events()
            {
                continue;
            }
            if !self.step() {
                self.reader_ended();
            }
        }
    }

    fn next_rows(
        &mut self,
        sink: &mut RowSink,
        out: &mut Vec<u8>,
        n: usize,
        limit: usize,
        row: &mut dyn FnMut(RowMeta, usize, usize),
    ) -> bool {
        if !sink.spec.raw_text() {
            return crate::source::rows_of_events(self, sink, out, n, limit, row);
        }
        let mut k = 0;
        while k < n && (k == 0 || out.len() < limit) {
            if let Some(e) = self.out.pop_front() {
                let start = out.len();
                let m = sink.event_row(e, out);
                row(m, start, out.len());
                k += 1;
                continue;
            }
            if self.seg.is_none() {
                let Some(next) = self.pending.pop_front() else {
                    return false;
                };
                self.start_segment(next);
                continue;
            }
            if self.par.is_some() || self.par_wanted(true) {
                match self.par_rows(sink, out, n - k, limit, row) {
                    blocks::Next::Rows(got) => {
                        k += got;
                        continue;
                    }
                    blocks::Next::Usual => {}
                }
            }
            match self.read_rows(out, n - k, limit, row) {
                Step::Rows(got) => k += got,
                // Rows of one call are of one file (see `RowMeta`): the file
                // is closed on the next call when this one rendered rows. (A
                // block read again ends inside the file: reading goes on, so
                // that calls end where they would without helpers.)
                Step::Ended if k > 0 && self.par.is_none() => return true,
                Step::Ended => self.reader_ended(),
            }
        }
        true
    }

    fn current_origin(&self) -> Option<Arc<crate::event::Origin>> {
        self.seg.as_ref().map(|s| s.origin.clone())
    }

    fn finish(mut self: Box<Self>) -> Vec<FileInfo> {
        if self.seg.is_some() {
            self.end_segment();
        }
        // Calls still open when the trace ended are normal (trace stopped
        // mid-call); they are not problems.
        std::mem::take(&mut self.done)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unix_record_with_ident() {
        let r = parse_record(
            " 11:21:43.913212        8.1      RSESS:000001 -{  MQCRTMH",
            None,
        )
        .unwrap();
        assert_eq!(r.pid, 8);
        assert_eq!(r.tid, 1);
        assert_eq!(r.ident, Some("RSESS:000001"));
        assert_eq!(r.data, "-{  MQCRTMH");
        assert!(!r.flag);
    }

    #[test]
    fn flag_and_blank_ident() {
        let r = parse_record(
            "*12:06:32.904982   622742.1           :           -> InitProcessInitialisation",
            None,
        )
        .unwrap();
        assert!(r.flag);
        assert_eq!(r.ident, None);
        assert_eq!(r.data, "-> InitProcessInitialisation");
    }

    #[test]
    fn windows_counter() {
        let r = parse_record("00000EFE 16:18:56.381587   2512.1           :       ---}! xcsGetEnvironmentString (rc=xecE_E_ENV_VAR_NOT_FOUND)",
            None,
        )
        .unwrap();
        assert_eq!(r.counter, Some(0xEFE));
        assert_eq!(
            classify(r.data),
            Data::Exit {
                dashes: 3,
                error: true,
                function: "xcsGetEnvironmentString",
                rc: Some("xecE_E_ENV_VAR_NOT_FOUND"),
                function_time: None
            }
        );
    }

    #[test]
    fn no_ident_column() {
        let l = Layout {
            counter: Some(true),
            ident: Some(false),
        };
        let r = parse_record(
            "0000062F 16:35:47.348386 6278.1 --{ InitProcessInitialisation",
            Some(l),
        )
        .unwrap();
        assert_eq!(r.ident, None);
        assert_eq!(r.data, "--{ InitProcessInitialisation");
    }

    #[test]
    fn exits_unix_forms() {
        assert_eq!(
            classify("----}  zutLookupLock rc=OK FunctionTime=3"),
            Data::Exit {
                dashes: 4,
                error: false,
                function: "zutLookupLock",
                rc: Some("OK"),
                function_time: Some(3)
            }
        );
        assert_eq!(
            classify("----}! send rc=Unknown(B)"),
            Data::Exit {
                dashes: 4,
                error: true,
                function: "send",
                rc: Some("Unknown(B)"),
                function_time: None
            }
        );
        assert_eq!(
            classify("!! - --{  InitProcessInitialisation"),
            Data::Entry {
                dashes: 2,
                function: "InitProcessInitialisation"
            }
        );
        assert_eq!(classify("-> MQCRTMH"), Data::Text("-> MQCRTMH"));
    }

    #[test]
    fn dump_rows() {
        assert_eq!(
            classify("0x0110:  06000000 616d7173 70757420 20202020  |....amqsput     |"),
            Data::Dump
        );
        assert_eq!(classify("3 lines suppressed, same as above"), Data::Dump);
        assert_eq!(
            classify("Data: 0x000001dd 0x32ab1b30"),
            Data::Text("Data: 0x000001dd 0x32ab1b30")
        );
    }

    #[test]
    fn header_dates() {
        let d = |s, f| parse_header_date(s, f).map(|d| d.to_string());
        assert_eq!(d("05/15/16", false).as_deref(), Some("2016-05-15"));
        assert_eq!(d("25/02/2002", true).as_deref(), Some("2002-02-25"));
        assert_eq!(d("02/25/02", true).as_deref(), Some("2002-02-25"));
        assert_eq!(d("03/04/2019", true).as_deref(), Some("2019-04-03"));
        assert_eq!(d("03/04/19", true).as_deref(), Some("2019-03-04"));
        assert_eq!(d("13/13/19", true), None);
    }

    fn read_all(path: &str, opts: ReadOptions) -> Vec<Event> {
        let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
        let input = Input::from_path(path, &p).unwrap();
        let mut src = TraceSource::new(vec![input], opts);
        let mut out = Vec::new();
        while let Some(e) = src.next_event() {
            out.push(e);
        }
        out
    }

    /// The word-at-a-time time of day agrees with `parse_time_of_day` on
    /// every plain time and on times with any one byte changed.
    #[test]
    fn plain_times_agree_with_the_parser() {
        let mut rng = crate::testrng::Rng::new(11);
        let mut checked = 0;
        for i in 0..200_000 {
            let us = rng.next() % 86_400_000_000;
            let mut t = format!(
                "{:02}:{:02}:{:02}.{:06}",
                us / 3_600_000_000,
                us / 60_000_000 % 60,
                us / 1_000_000 % 60,
                us % 1_000_000
            )
            .into_bytes();
            if i % 2 == 1 {
                t[rng.below(15)] = rng.below(256) as u8;
            }
            let want = parse_time_of_day(&t).map(tod_nanos);
            match plain_tod(&t) {
                Some(n) => assert_eq!(Some(n), want, "{:?}", String::from_utf8_lossy(&t)),
                None => assert!(want.is_none(), "{:?}", String::from_utf8_lossy(&t)),
            }
            checked += usize::from(want.is_some());
        }
        assert!(checked > 100_000);
        assert_eq!(plain_tod(b"23:59:59.999999"), Some(86_399_999_999_000));
        assert_eq!(plain_tod(b"00:00:00.000000"), Some(0));
        for odd in [
            &b"24:00:00.000000"[..],
            b"23:60:00.000000",
            b"23:59:60.000000",
            b"1:00:00.0000000",
        ] {
            assert_eq!(plain_tod(odd), None);
        }
    }

    #[test]
    fn printable_ascii_and_blank_scans_agree_with_the_plain_definitions() {
        for len in 0..20 {
            for at in 0..len {
                for c in 0..=255u8 {
                    let mut b = vec![b'a'; len];
                    b[at] = c;
                    assert_eq!(
                        printable_ascii(&b),
                        (0x20..0x7f).contains(&c),
                        "{c:#x} at {at} of {len}"
                    );
                }
                let mut b = vec![b' '; len];
                b[at] = b'x';
                assert_eq!(next_blank(&b, at), at + 1, "{at} of {len}");
                assert_eq!(past_blanks(&b, 0), at, "{at} of {len}");
            }
        }
    }

    // Rows of trace inputs rendered straight from their lines (`fast`, with
    // how many took that way) and through events (`slow`), with file facts.
    use crate::sink::{RowRenderer, TimelineFormat};
    use crate::sink::{RowSink, RowSpec};
    type Problems = Vec<(Option<u64>, String)>;
    type Facts = (u64, Option<Ts>, Option<Ts>, u64, u64, Problems);
    type Rows = Vec<(RowMeta, Vec<u8>)>;
    /// Rows, how many went straight, file facts, blocks (stitched, read
    /// again, durations found), rows of each call.
    type Fast = (Rows, usize, Vec<Facts>, (u64, u64, u64), Vec<usize>);
    fn fast(inputs: Vec<Input>) -> (Rows, usize, Vec<Facts>) {
        let (rows, straight, facts, _, _) = fast_with(inputs, ReadOptions::default());
        (rows, straight, facts)
    }
    /// As `fast`, with these options; also the blocks helpers rendered
    /// that were stitched and read again, and the rows of each call (calls
    /// end where they would without helpers: where a row too late to be
    /// put in order goes depends on it).
    fn fast_with(inputs: Vec<Input>, opts: ReadOptions) -> Fast {
        let mut src = Box::new(TraceSource::new(inputs, opts));
        let mut sink = RowSink::new(Arc::new(RowSpec::new(TimelineFormat::Text)));
        let (mut rows, mut straight) = (Vec::new(), 0);
        let mut out = Vec::new();
        // Calls of varied sizes, so that blocks stop at every point.
        let mut n = 0;
        let mut calls = Vec::new();
        loop {
            n = n % 7 + 1;
            let before = rows.len();
            let more = src.next_rows(&mut sink, &mut out, n, 1 << 20, &mut |m, s, e| {
                straight += usize::from(m.origin.is_none());
                rows.push((m, s, e));
            });
            calls.push(rows.len() - before);
            if !more {
                break;
            }
        }
        let rows = rows
            .into_iter()
            .map(|(mut m, s, e)| {
                m.origin = None;
                (m, out[s..e].to_vec())
            })
            .collect();
        let counts = src.par_counts;
        (rows, straight, facts(src.finish()), counts, calls)
    }

    /// The rows of each call when the inputs are read alone.
    fn calls_of(inputs: Vec<Input>) -> Vec<usize> {
        fast_with(inputs, ReadOptions::default()).4
    }
    fn slow(inputs: Vec<Input>) -> (Rows, Vec<Facts>) {
        let mut src = Box::new(TraceSource::new(inputs, ReadOptions::default()));
        let mut r = RowRenderer::default();
        let mut rows = Vec::new();
        while let Some(e) = src.next_event() {
            let mut out = Vec::new();
            r.render(TimelineFormat::Text, &e, &mut out);
            let m = RowMeta {
                key: e.ts.timestamp_nanos_opt().unwrap(),
                offset: e.ts.offset().local_minus_utc(),
                line: e.line,
                origin: None,
            };
            rows.push((m, out));
        }
        (rows, facts(src.finish()))
    }
    /// Every event of trace inputs, as written by `Debug`, with the file
    /// facts and the blocks helpers read (stitched, read again, durations
    /// found).
    fn events_with(
        inputs: Vec<Input>,
        opts: ReadOptions,
    ) -> (Vec<String>, Vec<Facts>, (u64, u64, u64)) {
        let mut src = Box::new(TraceSource::new(inputs, opts));
        let mut events = Vec::new();
        while let Some(e) = src.next_event() {
            events.push(format!("{e:?}"));
        }
        let counts = src.par_counts;
        (events, facts(src.finish()), counts)
    }
    fn facts(infos: Vec<FileInfo>) -> Vec<Facts> {
        infos
            .into_iter()
            .map(|i| {
                let problems = i.problems.into_iter().map(|p| (p.line, p.message));
                let problems = problems.collect();
                (
                    i.events,
                    i.first,
                    i.last,
                    i.lines,
                    i.problem_count,
                    problems,
                )
            })
            .collect()
    }

    /// The header of the Linux fixture (its first 11 lines).
    fn linux_head() -> Vec<u8> {
        let head = std::fs::read("fixtures/trace/linux/AMQ4711.0.FMT").unwrap();
        head.split_inclusive(|&c| c == b'\n')
            .take(11)
            .flatten()
            .copied()
            .collect()
    }

    /// Every trace fixture as a set of files read together, and two files
    /// of awkward lines written into `dir`.
    fn trace_sets(dir: &std::path::Path) -> Vec<Vec<std::path::PathBuf>> {
        let odd = dir.join("AMQ4711.0.FMT");
        let mut body = linux_head();
        for l in [
            &b" 11:21:44.000001     4711.2      RSESS:000001 {  fnA"[..],
            b" 11:21:44.000002     04711.2     RSESS:000001 -{  fnB",
            b" 11:21:44.000003     4711.2      RSESS:000001 -}  fnB rc=OK",
            b"*11:21:44.000004     4711.2      RSESS:000001 !! - }! fnA (rc=2035)",
            b" 11:21:44.000005     4711.3           :       a\ttab",
            b" 11:21:44.000006     4711.3      RSESS:000002 caf\xe9 Latin-1",
            b" 11:21:44.000007     4711.3      RSESS:000002 caf\xc3\xa9 UTF-8",
            b" 11:21:44.000008     4711.3      RSESS:000002 0x0000:  00000000  |....|",
            b" 11:21:44.000009     4711.3      RSESS:000002 3 lines suppressed, same as above",
            b" 11:21:44.00001      4711.3      RSESS:000002 five decimals",
            b" 11:21:44.000011     4711.3      RSESS:000002 }  neverEntered rc=OK",
            b" 11:21:43.500000     4711.4      RSESS:000003 {  earlier",
            b" 11:21:44.000012     4711.3      RSESS:000002 NUL\0byte",
            b" 11:21:44.000013     4711.3      RSESS:000002 crlf\r",
            b" 11:21:44.000014     4711.3      : ",
            b" 11:21:44.000015     4711.3",
            b" 11:21:44.000016     4711.99999999999 RSESS:000002 tid too large",
            b" 11:21:44.000018     4711.2.3    RSESS:000002 two dots",
            b" 11:21:44.000019     4294967295.4294967295 RSESS:000002 largest",
            b" 11:21:44.000020     4294967296.1 RSESS:000002 too large",
            b" 11:21:44.000021     .1          RSESS:000002 no pid",
            b" 11:21:44.000022     4711.       RSESS:000002 no tid",
            b" 11:21:44.000023 \t   4711.3      RSESS:000002 tab among blanks",
            b" 11:21:44.000024     4711.3 \xa0    RSESS:000002 NBSP among blanks",
            b" 11:21:44.000025     4711.3      RSE\xc9S:000002 high byte in ident",
            b" 11:21:44.000026     47\xb911.3    RSESS:000002 high byte in PID",
            b" 11:21:44.000027     4711.3\x01     RSESS:000002 control byte after TID",
            b"\x0011:21:44.000028     4711.3      RSESS:000002 NUL first",
            b" 11:21:44.000029     4711.3  \0     RSESS:000002 NUL among blanks",
            b" 11:21:44.000030     4711.3\0      RSESS:000002 NUL after TID",
            b" 11:21:44.000031     4711.3      RSESS:0\0 NUL in ident",
            b"not a record",
            b" 11:21:60.000000     4711.3      RSESS:000002 second 60",
            b" 24:00:00.000000     4711.3      RSESS:000002 hour 24",
            b" 23:59:59.999999     4711.3      RSESS:000002 {  late",
            b" 00:00:00.000001     4711.3      RSESS:000002 }  late rc=OK",
            b" 11:21:44.000017     4711.4      RSESS:000003 }  earlier",
        ] {
            body.extend_from_slice(l);
            body.push(b'\n');
        }
        body.extend_from_slice(b" 00:00:01.000000     4711.3      RSESS:000002 cut");
        std::fs::write(&odd, body).unwrap();
        // NUL bytes where the caches keyed by text zero-pad their keys, in a
        // file of its own (caches start empty).
        let nul = dir.join("nul").join("AMQ4712.0.FMT");
        std::fs::create_dir_all(nul.parent().unwrap()).unwrap();
        let mut body = linux_head();
        body.extend_from_slice(
            b" 11:21:44.000001     4711.3  \0     RSESS:000002 NUL among blanks\n",
        );
        body.extend_from_slice(b" 11:21:44.000002     \0.3      RSESS:000002 NUL for PID\n");
        std::fs::write(&nul, body).unwrap();
        let mut sets: Vec<Vec<std::path::PathBuf>> = vec![vec![odd], vec![nul]];
        for d in [
            "linux",
            "midnight",
            "overlap",
            "rcvr-channel",
            "sdr-channel",
            "churn",
            "client-dns",
            "headerless",
            "windows",
            "wrap",
        ] {
            let mut files: Vec<_> = std::fs::read_dir(format!("fixtures/trace/{d}"))
                .unwrap()
                .flatten()
                .map(|e| e.path())
                .collect();
            files.sort();
            sets.extend(files.into_iter().map(|f| vec![f]));
        }
        sets
    }

    fn inputs_of(set: &[std::path::PathBuf]) -> Vec<Input> {
        set.iter()
            .map(|p| Input::from_path(&p.display().to_string(), p).unwrap())
            .collect()
    }

    fn show(r: &[(RowMeta, Vec<u8>)]) -> String {
        r.iter()
            .map(|(m, b)| {
                let text = String::from_utf8_lossy(b);
                format!("{} {} {} {text}", m.key, m.offset, m.line)
            })
            .collect()
    }

    /// Every trace fixture (and a file of awkward lines) gives the same
    /// text rows, keys and file facts whether lines go straight to rows or
    /// through events; and the straight way is taken for most lines.
    #[test]
    fn text_rows_straight_from_lines_equal_rows_of_events() {
        let dir = tempfile::tempdir().unwrap();
        let sets = trace_sets(dir.path());
        let (mut total, mut straight_total) = (0, 0);
        for set in sets {
            let (a, straight, fa) = fast(inputs_of(&set));
            let (b, fb) = slow(inputs_of(&set));
            assert_eq!(show(&a), show(&b), "{set:?}");
            assert_eq!(fa, fb, "{set:?}");
            total += a.len();
            straight_total += straight;
        }
        assert!(
            straight_total * 2 > total,
            "{straight_total} of {total} straight"
        );
    }

    /// Randomly damaged trace fixtures (bytes changed, inserted, cut,
    /// lines spliced, files truncated) give the same rows and file facts
    /// either way: whatever the straight way cannot read exactly, it leaves
    /// to the full way.
    #[test]
    fn damaged_traces_give_the_same_rows_both_ways() {
        let mut rng = crate::testrng::Rng::new(0x9E37_79B9_7F4A_7C15);
        let mut rnd = move |m: usize| rng.below(m);
        let mut files = Vec::new();
        for d in [
            "linux",
            "midnight",
            "overlap",
            "sdr-channel",
            "headerless",
            "churn",
        ] {
            for e in std::fs::read_dir(format!("fixtures/trace/{d}"))
                .unwrap()
                .flatten()
            {
                files.push(e.path());
            }
        }
        files.sort();
        let dir = tempfile::tempdir().unwrap();
        const ODD: &[u8] = b" \t\r\n:.*!{}-0123456789\xe9\x00";
        for n in 0..400 {
            let f = &files[rnd(files.len())];
            let mut data = std::fs::read(f).unwrap();
            for _ in 0..1 + rnd(5) {
                let p = rnd(data.len());
                match rnd(5) {
                    0 => data[p] = rnd(256) as u8,
                    1 => data.insert(p, ODD[rnd(ODD.len())]),
                    2 => {
                        let end = (p + 1 + rnd(20)).min(data.len());
                        data.drain(p..end);
                    }
                    3 => {
                        let from = rnd(data.len());
                        let end = (from + 1 + rnd(80)).min(data.len());
                        let piece = data[from..end].to_vec();
                        data.splice(p..p, piece);
                    }
                    _ => data.truncate(p),
                }
            }
            let path = dir.path().join(format!("{n}")).join(f.file_name().unwrap());
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, &data).unwrap();
            let input = || vec![Input::from_path(&path.display().to_string(), &path).unwrap()];
            let (a, _, fa) = fast(input());
            let (b, fb) = slow(input());
            assert!(
                a == b && fa == fb,
                "damaged {} differs: {}",
                f.display(),
                path.display()
            );
            // And with helpers taking blocks of a few lines.
            let (c, _, fc, _, calls) = fast_with(input(), par(1 + n % 3, 64 + rnd(600)));
            assert!(
                calls == calls_of(input()),
                "calls differ: {}",
                path.display()
            );
            assert!(
                a == c && fa == fc,
                "damaged {} differs with helpers: {}",
                f.display(),
                path.display()
            );
        }
    }

    /// A trace whose reading fails part way (a gzip stream cut short):
    /// with helpers, the same rows, and the read error at the same line.
    #[test]
    fn blocks_end_where_reading_fails() {
        use std::io::Write;
        let text = std::fs::read("fixtures/trace/sdr-channel/AMQ9306238.0.FMT").unwrap();
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(&text).unwrap();
        let gz = gz.finish().unwrap();
        let cut: Arc<[u8]> = Arc::from(&gz[..gz.len() * 2 / 3]);
        let input = || {
            vec![Input {
                display: Arc::from("AMQ9306238.0.FMT.gz"),
                name: "AMQ9306238.0.FMT".to_string(),
                location: crate::input::Location::Gzip {
                    inner: Box::new(crate::input::Location::Memory(cut.clone())),
                    limit: u64::MAX,
                    why: Arc::from("test"),
                },
                bytes: text.len() as u64,
                mtime: None,
                progress: None,
            }]
        };
        let (a, _, fa) = fast(input());
        assert!(a.len() > 50, "{} rows", a.len());
        assert!(
            fa[0].5.iter().any(|(_, m)| m.starts_with("read error")),
            "{:?}",
            fa[0].5
        );
        for (helpers, block) in [(1, 200), (2, 1000)] {
            let (b, _, fb, counts, calls) = fast_with(input(), par(helpers, block));
            assert!(calls == calls_of(input()));
            assert_eq!(show(&a), show(&b));
            assert_eq!(fa, fb);
            assert!(counts.0 > 2, "{counts:?}");
        }
    }

    /// What `analyze` reads of traces.
    fn interest() -> ReadOptions {
        ReadOptions {
            interest: Some(Arc::new(
                crate::passes::Plan::new(&[], &[], &[]).unwrap().interest(),
            )),
            ..ReadOptions::default()
        }
    }

    /// A file whose every block holds a title line: each is read again,
    /// until the source gives up on the helpers and reads on alone.
    #[test]
    fn blocks_that_keep_failing_end_the_helpers() {
        let mut body = linux_head();
        for i in 0..3_000u32 {
            let l = if i % 4 == 3 {
                "Timestamp        Process.Thread  Trace Ident  Trace Data\n".to_string()
            } else {
                format!(
                    " 11:22:{:02}.{:06}     4711.1      RSESS:000001 {}  fn{}\n",
                    i / 100 % 60,
                    i % 100 * 1000,
                    if i % 4 == 0 { "{" } else { "}" },
                    i % 4
                )
            };
            body.extend(l.bytes());
        }
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("AMQ4711.0.FMT");
        std::fs::write(&path, &body).unwrap();
        let set = [path];
        let (a, _, fa) = fast(inputs_of(&set));
        let (ea, efa, _) = events_with(inputs_of(&set), ReadOptions::default());
        let (b, _, fb, counts, calls) = fast_with(inputs_of(&set), par(2, 300));
        assert!(calls == calls_of(inputs_of(&set)));
        assert_eq!(show(&a), show(&b));
        assert_eq!(fa, fb);
        assert_eq!(counts.1, u64::from(blocks::GIVE_UP), "{counts:?}");
        let (eb, efb, counts) = events_with(inputs_of(&set), par(2, 300));
        assert!(ea == eb);
        assert_eq!(efa, efb);
        assert_eq!(counts.1, u64::from(blocks::GIVE_UP), "{counts:?}");
    }

    fn par(helpers: usize, block: usize) -> ReadOptions {
        ReadOptions {
            parallel: crate::source::Parallel {
                helpers,
                block,
                min_bytes: 0,
            },
            ..ReadOptions::default()
        }
    }

    /// Every trace fixture (and the files of awkward lines), read with
    /// helpers taking blocks of a few lines, gives the rows, their order
    /// and the file facts of one reader alone.
    #[test]
    fn blocks_on_helpers_give_the_rows_of_one_reader() {
        let dir = tempfile::tempdir().unwrap();
        let mut stitched = 0;
        for set in trace_sets(dir.path()) {
            let (a, _, fa) = fast(inputs_of(&set));
            let (ea, efa, _) = events_with(inputs_of(&set), ReadOptions::default());
            let (ia, ifa, _) = events_with(inputs_of(&set), interest());
            for (helpers, block) in [(1, 64), (2, 300), (3, 1000), (2, 1 << 20)] {
                let (b, _, fb, counts, calls) = fast_with(inputs_of(&set), par(helpers, block));
                assert!(
                    calls == calls_of(inputs_of(&set)),
                    "{set:?} {helpers} {block}"
                );
                assert_eq!(show(&a), show(&b), "{set:?} {helpers} {block}");
                assert_eq!(fa, fb, "{set:?} {helpers} {block}");
                stitched += counts.0;
                let (eb, efb, counts) = events_with(inputs_of(&set), par(helpers, block));
                assert_eq!(ea, eb, "{set:?} {helpers} {block}");
                assert_eq!(efa, efb, "{set:?} {helpers} {block}");
                stitched += counts.0;
                let opts = ReadOptions {
                    parallel: par(helpers, block).parallel,
                    ..interest()
                };
                let (ib, ifb, counts) = events_with(inputs_of(&set), opts);
                assert_eq!(ia, ib, "{set:?} {helpers} {block}");
                assert_eq!(ifa, ifb, "{set:?} {helpers} {block}");
                stitched += counts.0;
            }
        }
        assert!(stitched > 300, "{stitched} blocks stitched");
    }

    /// A long trace of interleaved threads: calls open across many blocks,
    /// midnight, missing exits, exits of calls entered before the trace, a
    /// stack deeper than the limit, a title and a counter line in the
    /// middle, CRLF, a NUL, a line longer than a block and a last line cut
    /// short. With helpers it gives the rows of one reader; most blocks are
    /// stitched, and the ones whose assumptions fail are read again.
    #[test]
    fn blocks_stitch_calls_across_blocks_and_read_again_what_they_cannot() {
        let mut body = linux_head();
        let mut rng = crate::testrng::Rng::new(7);
        // Microseconds since midnight: the trace starts at 23:58:00.
        let mut t: u64 = (23 * 3600 + 58 * 60) * 1_000_000;
        let mut stacks: Vec<Vec<String>> = vec![Vec::new(); 8];
        let line = |t: u64, tid: usize, data: &str| {
            let t = t % 86_400_000_000;
            let (s, us) = (t / 1_000_000, t % 1_000_000);
            format!(
                " {:02}:{:02}:{:02}.{us:06}     4711.{tid:<5}  RSESS:{tid:06x} {data}\n",
                s / 3600,
                s / 60 % 60,
                s % 60
            )
        };
        // Calls that stay open for most of the trace.
        for (tid, st) in stacks.iter_mut().enumerate().skip(1) {
            body.extend(line(t, tid, &format!("{{  outer{tid}")).bytes());
            st.push(format!("outer{tid}"));
        }
        for i in 0..30_000 {
            t += rng.below(9_000) as u64;
            let tid = 1 + rng.below(6);
            // Threads interleave: near midnight some lines of the old day
            // come after the first of the new one.
            let t = match t % 86_400_000_000 {
                0..3_000_000 if rng.below(4) == 0 => t - 2_500_000,
                // The file's latest time, amid lines no rule reads.
                _ if i == 29_000 => t + 60_000_000,
                _ => t,
            };
            let st = &mut stacks[tid];
            let dashes = "-".repeat(st.len().min(9));
            let data = match (i, rng.below(2_000)) {
                (9_000, _) => "Timestamp        Process.Thread  Trace Ident  Trace Data".into(),
                (12_000, _) => "not a record at all".into(),
                (29_000, _) => "a minute ahead".into(),
                (15_000, _) => "NUL\0in a line".into(),
                (17_000, _) => {
                    // A stack deeper than the limit, then closed again.
                    for d in 0..MAX_STACK + 20 {
                        body.extend(line(t, 7, &format!("{{  deep{d}")).bytes());
                    }
                    "}  deep0 rc=OK".into()
                }
                (_, 0..700) => {
                    let f = format!("fn{}", rng.below(40));
                    let d = format!("{dashes}{{  {f}");
                    st.push(f);
                    d
                }
                (_, 700..1400) if !st.is_empty() => {
                    let f = st.pop().unwrap();
                    if f.starts_with("outer") {
                        st.push(f);
                        "text".into()
                    } else {
                        format!("{dashes}}}  {f} rc=OK FunctionTime=12")
                    }
                }
                // An exit whose entry the trace never saw.
                (_, 1400..1405) => format!("{dashes}}}  before{} rc=OK", rng.below(3)),
                // A missing exit: the caller closes over it.
                (_, 1405..1410) if st.len() >= 3 => {
                    st.pop();
                    let f = st.pop().unwrap();
                    format!("{dashes}}}  {f} rc=OK")
                }
                (_, 1410..1600) => "      0x0000:  00000000  |....|".into(),
                (_, 1600..1650) => format!("QTime({i})"),
                _ => format!("text {i}"),
            };
            let mut l = line(t, tid, &data);
            if i == 9_000 {
                l = format!("{}\n", data);
            }
            if i == 28_000 {
                // Another layout from here on (traces put together): the
                // helpers stop, and the rest is read alone.
                l = "Counter  TimeStamp          PID.TID    Ident  Trace Data\n".into();
            }
            if i == 11_000 {
                l = format!("0000002A {}", &l[1..]);
            }
            if i == 5_000 {
                // Minute 7x: not a time, amid lines no rule reads.
                l.replace_range(4..5, "7");
            }
            if i % 997 == 0 {
                l.insert(l.len() - 1, '\r');
            }
            body.extend(l.bytes());
        }
        for tid in 1..8 {
            body.extend(line(t, tid, &format!("}}  outer{tid} rc=OK")).bytes());
        }
        let long = format!("long {}", "x".repeat(9_000));
        body.extend(line(t, 1, &long).bytes());
        body.extend(line(t + 5, 2, "after the long line").bytes());
        body.extend(line(t + 6, 2, "cut short").trim_end().bytes());
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("AMQ4711.0.FMT");
        std::fs::write(&path, &body).unwrap();
        let set = [path];
        let (a, _, fa) = fast(inputs_of(&set));
        assert!(a.len() > 30_000);
        let (b, fb) = slow(inputs_of(&set));
        assert_eq!(show(&a), show(&b));
        assert_eq!(fa, fb);
        let (ea, efa, _) = events_with(inputs_of(&set), ReadOptions::default());
        let (ia, ifa, _) = events_with(inputs_of(&set), interest());
        // Lines skipped by interest keep the clock and the time range line
        // by line (midnight and early lines fall inside skipped runs).
        assert_eq!(efa, ifa);
        // (`usize::MAX`: no helper thread, the source reads the blocks.)
        for (helpers, block) in [(2, 4096), (1, 2000), (3, 777), (usize::MAX, 1500)] {
            let (c, _, fc, counts, calls) = fast_with(inputs_of(&set), par(helpers, block));
            assert!(calls == calls_of(inputs_of(&set)), "{helpers} {block}");
            assert_eq!(show(&a), show(&c), "{helpers} {block}");
            assert_eq!(fa, fc, "{helpers} {block}");
            let (stitched, again, durations) = counts;
            assert!(stitched > 8 * again && again > 0, "{counts:?}");
            assert!(durations > 100, "{counts:?}");
            // Events, every one and those `analyze` reads.
            let (eb, efb, counts) = events_with(inputs_of(&set), par(helpers, block));
            assert!(ea == eb, "events differ with {helpers} {block}");
            assert_eq!(efa, efb, "{helpers} {block}");
            let (stitched, again, durations) = counts;
            assert!(stitched > 8 * again && again > 0, "{counts:?}");
            assert!(durations > 100, "{counts:?}");
            let opts = ReadOptions {
                parallel: par(helpers, block).parallel,
                ..interest()
            };
            let (ib, ifb, counts) = events_with(inputs_of(&set), opts);
            assert!(ia == ib, "events of interest differ with {helpers} {block}");
            assert_eq!(ifa, ifb, "{helpers} {block}");
            assert!(counts.0 > 8 * counts.1 && counts.1 > 0, "{counts:?}");
        }
    }

    #[test]
    fn interest_keeps_the_file_facts() {
        fn files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
            for e in std::fs::read_dir(dir).unwrap().flatten() {
                let p = e.path();
                if p.is_dir() {
                    files(&p, out);
                } else if TraceReader.sniff("", &std::fs::read(&p).unwrap()) > 0 {
                    out.push(p);
                }
            }
        }
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut all_files = Vec::new();
        files(&root.join("fixtures"), &mut all_files);
        assert!(all_files.len() >= 15, "{all_files:?}");
        let facts = |p: &std::path::Path, opts: ReadOptions| {
            let input = Input::from_path("x", p).unwrap();
            let mut src = Box::new(TraceSource::new(vec![input], opts));
            let mut built = 0;
            while src.next_event().is_some() {
                built += 1;
            }
            let i = src.finish().remove(0);
            (built, (i.events, i.first, i.last, i.lines, i.problem_count))
        };
        let interest = ReadOptions {
            interest: Some(Arc::new(crate::source::Interest::new(
                &["send"],
                &[],
                &["buffer size"],
            ))),
            ..ReadOptions::default()
        };
        let mut fewer = 0;
        for p in &all_files {
            let all = facts(p, ReadOptions::default());
            let some = facts(p, interest.clone());
            assert_eq!(some.1, all.1, "{}", p.display());
            fewer += usize::from(some.0 < all.0);
        }
        assert!(fewer >= 10, "interest skipped lines in only {fewer} files");
    }

    #[test]
    fn interest_keeps_only_what_is_asked_and_times_it_exactly() {
        let path = "fixtures/trace/linux/AMQ4711.0.FMT";
        let all = read_all(path, ReadOptions::default());
        let opts = ReadOptions {
            interest: Some(Arc::new(crate::source::Interest::new(
                &["MQCONNX", "MQDISC"],
                &["rrx"],
                &["ChlName("],
            ))),
            ..ReadOptions::default()
        };
        let some = read_all(path, opts);
        let headers = some.iter().filter(|e| e.kind == Kind::Header).count();
        assert_eq!(headers, 9);
        let rest: Vec<(u64, Kind, Option<&str>)> = some
            .iter()
            .filter(|e| e.kind != Kind::Header)
            .map(|e| (e.line, e.kind, e.function.as_deref()))
            .collect();
        assert_eq!(
            rest,
            vec![
                (14, Kind::Entry, Some("MQCONNX")),
                (17, Kind::Text, Some("MQCONNX")),
                (25, Kind::Exit, Some("MQCONNX")),
                (33, Kind::Entry, Some("rrxSend")),
                (34, Kind::Exit, Some("rrxSend")),
                (36, Kind::Entry, Some("MQDISC")),
                (37, Kind::ErrorExit, Some("MQDISC")),
            ]
        );
        // Same durations as when every line is read.
        let el = |v: &[Event], line| v.iter().find(|e| e.line == line).unwrap().elapsed_us;
        assert_eq!(el(&some, 25), el(&all, 25));
        assert_eq!(el(&some, 25), Some(911));
        assert_eq!(el(&some, 37), el(&all, 37));
    }

    #[test]
    fn not_records() {
        assert!(
            parse_record(
                "Timestamp        Process.Thread  Trace Ident  Trace Data",
                None
            )
            .is_none()
        );
        assert!(parse_record("====", None).is_none());
        assert!(parse_record("Process : C:\\x.exe", None).is_none());
    }
}
