//! One trace line taken apart: the columns of a record, the kind of its
//! data (entry, exit, dump row, text), and the fast path's plain records.

use super::*;
use mqdiag_model::text::word_from;

/// Column layout, from the title line or the first record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) struct Layout {
    pub(super) counter: Option<bool>,
    pub(super) ident: Option<bool>,
}

/// The prefix fields of one record line, borrowing the line.
#[derive(Debug, PartialEq)]
pub(super) struct Record<'a> {
    pub(super) counter: Option<u32>,
    pub(super) flag: bool,
    pub(super) tod: NaiveTime,
    pub(super) pid: u32,
    pub(super) tid: u32,
    pub(super) ident: Option<&'a str>,
    pub(super) data: &'a str,
}

/// Per byte, the high bit set where the byte is not zero (exact: nothing
/// carries from one byte to the next).
#[inline(always)]
fn nonzero_bytes(x: u64) -> u64 {
    (((x & !HIGHS).wrapping_add(!HIGHS)) | x) & HIGHS
}

/// Per byte of `w`, the high bit set where the byte is a blank (space or
/// tab).
#[inline(always)]
fn blank_bytes(w: u64) -> u64 {
    !(nonzero_bytes(w ^ (ONES * u64::from(b' '))) & nonzero_bytes(w ^ (ONES * u64::from(b'\t'))))
        & HIGHS
}

/// The first byte at or after `i` that is not a space or tab (or the
/// end), eight bytes at a time.
pub(super) fn skip_spaces(b: &[u8], mut i: usize) -> usize {
    while let Some(w) = word_from(b, i) {
        let other = !blank_bytes(w) & HIGHS;
        if other != 0 {
            return i + (other.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while i < b.len() && (b[i] == b' ' || b[i] == b'\t') {
        i += 1;
    }
    i
}

/// The first space or tab at or after `i` (or the end), eight bytes at a
/// time.
pub(super) fn token_end(b: &[u8], mut i: usize) -> usize {
    while let Some(w) = word_from(b, i) {
        let blank = blank_bytes(w);
        if blank != 0 {
            return i + (blank.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while i < b.len() && b[i] != b' ' && b[i] != b'\t' {
        i += 1;
    }
    i
}

/// Does this token look like an ident column (`:`, `RSESS:00011e`)?
/// Letters, one colon, letters or digits: `is_plain_ident`, which holds
/// for any bytes (a byte outside ASCII is neither).
pub(super) fn is_ident_token(t: &[u8]) -> bool {
    is_plain_ident(t)
}

/// `parse_time_of_day`, read a word at a time in the usual
/// `HH:MM:SS.ffffff` shape.
pub(super) fn time_of_day(t: &[u8]) -> Option<NaiveTime> {
    match plain_tod(t) {
        Some(n) => NaiveTime::from_num_seconds_from_midnight_opt(
            (n / 1_000_000_000) as u32,
            (n % 1_000_000_000) as u32,
        ),
        None => parse_time_of_day(t),
    }
}

/// Split a record line; `None` when it is not one. `layout` says whether
/// an ident column exists (unknown: decided from the token's shape).
pub(super) fn parse_record(line: &str, layout: Option<Layout>) -> Option<Record<'_>> {
    parse_record_with(line, layout, &mut Columns::default())
}

/// The time and `PID.TID` columns of the last lines split, by their
/// bytes: the 16 from where each token starts, its blank after it among
/// them, give the same token, so the same value (the lines of a call
/// repeat both). Each column's gate leaves it alone where it keeps
/// missing (threads interleaved, a new time on every line).
#[derive(Default)]
pub(super) struct Columns {
    tod: Option<(u128, NaiveTime)>,
    pid_tid: Option<(u128, usize, u32, u32)>,
    tod_gate: Gate,
    pid_tid_gate: Gate,
}

/// The 16 bytes of `b` at `i`, when it goes on that far.
#[inline(always)]
fn window(b: &[u8], i: usize) -> Option<u128> {
    let w: [u8; 16] = b.get(i..i + 16)?.try_into().ok()?;
    Some(u128::from_le_bytes(w))
}

/// `parse_record`, the columns known from `seen` taken from it (and the
/// ones read kept there).
pub(super) fn parse_record_with<'a>(
    line: &'a str,
    layout: Option<Layout>,
    seen: &mut Columns,
) -> Option<Record<'a>> {
    split(line.as_bytes(), layout, seen)?.record(line, 0)
}

/// `parse_record_with` of a line's bytes: a record only when the line is
/// UTF-8 (as its decoded text would split). Only the part from the ident
/// on is validated: what comes before it is ASCII, checked by its fields.
pub(super) fn parse_record_bytes<'a>(
    b: &'a [u8],
    layout: Option<Layout>,
    seen: &mut Columns,
) -> Option<Record<'a>> {
    let cols = split(b, layout, seen)?;
    // Validated from a word boundary at or before the ident (the blanks
    // before it are ASCII too): the validation goes a word at a time from
    // its first byte.
    let misaligned = (b.as_ptr() as usize).wrapping_add(cols.rest) % 8;
    let from = cols.rest.saturating_sub(misaligned);
    let text = std::str::from_utf8(b.get(from..)?).ok()?;
    cols.record(text, from)
}

/// Where the fields of a record line are, and the values of its columns.
struct Split {
    counter: Option<u32>,
    flag: bool,
    tod: NaiveTime,
    pid: u32,
    tid: u32,
    /// Where the ident column would start: every byte before it is ASCII.
    rest: usize,
    ident: Option<(usize, usize)>,
    data: usize,
}

impl Split {
    /// The record, with `text` the line's text from its byte `from` (at or
    /// before `rest`).
    #[inline]
    fn record(self, text: &str, from: usize) -> Option<Record<'_>> {
        let ident = match self.ident {
            Some((a, z)) => Some(text.get(a.checked_sub(from)?..z.checked_sub(from)?)?),
            None => None,
        };
        Some(Record {
            counter: self.counter,
            flag: self.flag,
            tod: self.tod,
            pid: self.pid,
            tid: self.tid,
            ident,
            data: text.get(self.data.checked_sub(from)?..)?,
        })
    }
}

/// Split a record line's bytes (see `parse_record`). Inlined in both
/// callers: returned through memory, the fields cost a tenth more.
#[inline(always)]
fn split(b: &[u8], layout: Option<Layout>, seen: &mut Columns) -> Option<Split> {
    let mut i = 0;
    let mut counter = None;
    // Counter: 8 hex digits and a blank (Windows up to 9.2).
    if b.len() > 9 && b[8] == b' ' && b[..8].iter().all(|c| c.is_ascii_hexdigit()) {
        // Eight hex digits: no overflow.
        counter = b[..8]
            .iter()
            .try_fold(0u32, |v, &c| Some(v << 4 | char::from(c).to_digit(16)?));
        i = 9;
    }
    i = skip_spaces(b, i);
    let mut flag = false;
    if b.get(i) == Some(&b'*') {
        flag = true;
        i += 1;
    }
    let w = window(b, i);
    let step = seen.tod_gate.next();
    let known = match (step, seen.tod, w) {
        (Use::Ask, Some((k, tod)), Some(w)) => Some(tod).filter(|_| k == w),
        _ => None,
    };
    if step == Use::Ask {
        seen.tod_gate.answer(known.is_some());
    }
    let (t_end, tod) = match known {
        Some(tod) => (i + 15, tod),
        None => {
            let t_end = token_end(b, i);
            let tod = time_of_day(&b[i..t_end])?;
            if step != Use::Skip
                && t_end - i == 15
                && let Some(w) = w
            {
                seen.tod = Some((w, tod));
            }
            (t_end, tod)
        }
    };
    i = skip_spaces(b, t_end);
    // PID.TID
    let w = window(b, i);
    let step = seen.pid_tid_gate.next();
    let known = match (step, seen.pid_tid, w) {
        (Use::Ask, Some((k, len, pid, tid)), Some(w)) => Some((len, pid, tid)).filter(|_| k == w),
        _ => None,
    };
    if step == Use::Ask {
        seen.pid_tid_gate.answer(known.is_some());
    }
    let (p_end, pid, tid) = match known {
        Some((len, pid, tid)) => (i + len, pid, tid),
        None => {
            let p_end = token_end(b, i);
            // `pid_tid(b, i)`: `i` is past blanks, and the token ends at
            // `p_end`.
            let (pid, tid) = pid_tid_in(&b[i..p_end], w)?;
            if step != Use::Skip
                && p_end - i < 16
                && let Some(w) = w
            {
                seen.pid_tid = Some((w, p_end - i, pid, tid));
            }
            (p_end, pid, tid)
        }
    };
    i = skip_spaces(b, p_end);
    let rest = i;
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
            ident = Some((i, i_end));
        }
        i = i_end;
    }
    Some(Split {
        counter,
        flag,
        tod,
        pid,
        tid,
        rest,
        ident,
        data: skip_spaces(b, i),
    })
}

/// The `PID.TID` column of a record line, at `i` after blanks, as
/// `parse_record` reads it: `None` when the line is no record for it.
#[inline]
pub(super) fn pid_tid(b: &[u8], i: usize) -> Option<(u32, u32)> {
    let i = skip_spaces(b, i);
    parse_pid_tid(&b[i..token_end(b, i)])
}

/// Whether a line holds a NUL byte: a short one 16 bytes at a time, the
/// last 16 overlapping the ones before (a vector search's set-up, or a
/// byte loop over the rest, cost more than such a line), a longer one by
/// `memchr`.
#[inline]
pub(super) fn has_nul(b: &[u8]) -> bool {
    let n = b.len();
    if n > 128 {
        return memchr::memchr(0, b).is_some();
    }
    if n < 16 {
        return b.iter().fold(false, |z, &c| z | (c == 0));
    }
    // Per lane, whether a zero was seen (the compiler keeps `acc` in one
    // vector register).
    let mut acc = [false; 16];
    let mut or_zeros = |c: &[u8]| {
        for (a, &x) in acc.iter_mut().zip(c) {
            *a |= x == 0;
        }
    };
    let mut chunks = b.chunks_exact(16);
    for c in &mut chunks {
        or_zeros(c);
    }
    or_zeros(&b[n - 16..]);
    acc.contains(&true)
}

/// Per byte, the high bit set where the byte is not an ASCII digit
/// (exact: nothing carries from one byte to the next).
#[inline(always)]
fn not_digits(w: u64) -> u64 {
    let x = w ^ (ONES * u64::from(b'0'));
    (((x & !HIGHS).wrapping_add(ONES * 0x76)) | x) & HIGHS
}

/// Whether the 16 bytes after a record's time of day and its blank
/// (little-endian) hold a `PID.TID` column `pid_tid` reads, as
/// `dspmqtrc` writes it: the process right-aligned in eight columns,
/// the dot, the thread, a blank. `false` says nothing of other shapes.
#[inline(always)]
pub(super) fn plain_pid_tid(cols: u128) -> bool {
    let (w, v) = (cols as u64, (cols >> 64) as u64);
    // `w`: spaces, then the process's digits up to its last byte.
    let nd = not_digits(w);
    let x = w ^ (ONES * u64::from(b' '));
    let space = !(((x & !HIGHS).wrapping_add(!HIGHS)) | x) & HIGHS;
    // `v`: the dot, the thread's digits, a blank.
    let j = (not_digits(v) & !0x80).trailing_zeros() / 8;
    nd == space
        && nd & !(nd << 8) & !0x80 == 0
        && nd >> 63 == 0
        && v as u8 == b'.'
        && (2..8).contains(&j)
        && matches!((v >> (8 * j)) as u8, b' ' | b'\t')
}

pub(super) fn parse_u32(b: &[u8]) -> Option<u32> {
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
pub(super) enum Data<'a> {
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

pub(super) fn classify(data: &str) -> Data<'_> {
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
pub(super) fn is_dump_row(d: &[u8]) -> bool {
    if let Some(rest) = d.strip_prefix(b"0x") {
        let hex = rest.iter().take_while(|c| c.is_ascii_hexdigit()).count();
        return (4..=16).contains(&hex) && rest.get(hex) == Some(&b':');
    }
    let digits = d.iter().take_while(|c| c.is_ascii_digit()).count();
    digits > 0 && d[digits..].starts_with(b" lines suppressed")
}

/// The fields of a plain record line: printable ASCII only, UNIX layout
/// with no counter, ` HH:MM:SS.ffffff` (six decimals) after an optional
/// flag. Split in one pass over the bytes, with the same outcome as
/// `parse_record`; `None` for any other line.
pub(super) struct Plain<'a> {
    pub(super) tod: &'a [u8],
    pub(super) tod_nanos: i64,
    /// `PID.TID`, unchecked, and as a cache key.
    pub(super) pid_tid: &'a [u8],
    pub(super) pid_tid_key: u128,
    pub(super) ident: Option<&'a [u8]>,
    pub(super) data: &'a [u8],
}

pub(super) fn plain_record<'a>(
    b: &'a [u8],
    ident_col: bool,
    known: &mut Idents,
) -> Option<Plain<'a>> {
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
pub(super) struct Idents(pub(super) Vec<(u128, usize)>);

impl Idents {
    pub(super) fn is_ident(&mut self, t: &[u8], key: u128) -> bool {
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
pub(super) fn text_key(b: &[u8], at: usize, len: usize) -> u128 {
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
pub(super) const TEXT_SLOTS: usize = 64;

/// A slot for a short text held in a `u128`: the top bits of a
/// multiplicative hash (they depend on every bit of the text).
pub(super) fn text_slot(key: u128) -> usize {
    let h = ((key as u64) ^ ((key >> 64) as u64)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (h >> (64 - TEXT_SLOTS.trailing_zeros())) as usize
}

/// `PID.TID` as `parse_record` reads it: 1 to 10 digits each, within u32.
pub(super) fn parse_pid_tid(t: &[u8]) -> Option<(u32, u32)> {
    let dot = memchr::memchr(b'.', t)?;
    Some((parse_u32(&t[..dot])?, parse_u32(&t[dot + 1..])?))
}

/// `parse_pid_tid` of `t`, with `w` the 16 bytes from where `t` starts
/// when the line goes on that far: its first dot is found in `w` (a dot
/// past them leaves more than 10 digits before it: no PID).
#[inline(always)]
fn pid_tid_in(t: &[u8], w: Option<u128>) -> Option<(u32, u32)> {
    let Some(w) = w else {
        return parse_pid_tid(t);
    };
    // The lowest zero byte of `x ^ dots` is exact.
    let dots = ONES * u64::from(b'.');
    let first = |x: u64| {
        let x = x ^ dots;
        let z = x.wrapping_sub(ONES) & !x & HIGHS;
        (z != 0).then(|| (z.trailing_zeros() / 8) as usize)
    };
    let dot = first(w as u64)
        .or_else(|| first((w >> 64) as u64).map(|d| d + 8))
        .filter(|&d| d < t.len())?;
    Some((parse_u32(&t[..dot])?, parse_u32(&t[dot + 1..])?))
}

/// Whether every byte is printable ASCII (no control byte, DEL or byte
/// above ASCII), eight bytes at a time.
pub(super) fn printable_ascii(b: &[u8]) -> bool {
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
pub(super) fn is_plain_ident(t: &[u8]) -> bool {
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

pub(super) const ONES: u64 = 0x0101_0101_0101_0101;
pub(super) const HIGHS: u64 = 0x8080_8080_8080_8080;

/// The first blank at or after `i` (or the end), eight bytes at a time.
/// For printable ASCII only (tabs are not blanks here).
pub(super) fn next_blank(b: &[u8], mut i: usize) -> usize {
    while let Some(w) = word_from(b, i) {
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
pub(super) fn past_blanks(b: &[u8], mut i: usize) -> usize {
    while let Some(w) = word_from(b, i) {
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
pub(super) enum Call<'a> {
    Entry(&'a [u8]),
    Exit(&'a [u8]),
    Other,
}

/// `classify` for the text path: only the function name is needed.
/// `d` has its `!! - ` already stripped.
pub(super) fn call_of<'a>(d: &'a [u8]) -> Call<'a> {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The column caches, switched off where they keep missing and on
    /// again where lines repeat, split every line as the uncached split
    /// does: runs of one thread and time (hits) between runs of a new
    /// time and thread on every line (misses), some runs with a period
    /// of three lines.
    #[test]
    fn gated_columns_split_as_lines_alone() {
        let mut rng = mqdiag_model::testrng::Rng::new(23);
        let mut seen = Columns::default();
        let layout = Some(Layout {
            counter: Some(false),
            ident: Some(true),
        });
        let (mut skipped, mut asked_after) = (0, 0);
        let mut us = 0u64;
        for run in 0..400 {
            let len = 1 + rng.below(120);
            for k in 0..len {
                let (pid, tid) = match run % 3 {
                    0 => (100_000 + rng.below(9), 1 + rng.below(40)),
                    1 => (4711, 3),
                    _ => (100_000 + (k / 3) % 7, 1),
                };
                if run % 3 == 0 || k % 3 == 0 || rng.below(50) == 0 {
                    us += 1 + rng.next() % 90;
                }
                let tod = format!(
                    "{:02}:{:02}:{:02}.{:06}",
                    us / 3_600_000_000 % 24,
                    us / 60_000_000 % 60,
                    us / 1_000_000 % 60,
                    us % 1_000_000
                );
                let pad = " ".repeat(rng.below(3));
                let line = format!(" {tod}   {pad}{pid}.{tid}      RSESS:00000e -{{  xcsFreeMem");
                let before = (seen.tod_gate.peek(), seen.pid_tid_gate.peek());
                assert_eq!(
                    parse_record_with(&line, layout, &mut seen),
                    parse_record(&line, layout),
                    "{line:?}"
                );
                if before.0 == Use::Skip {
                    skipped += 1;
                } else if skipped > 0 {
                    asked_after += 1;
                }
            }
        }
        // Both ways were taken.
        assert!(
            skipped > 1000 && asked_after > 1000,
            "{skipped} {asked_after}"
        );
    }

    /// A line's bytes split as its text does when it is UTF-8, and not at
    /// all when it is not (its decoded text goes the usual way): lines
    /// with bytes changed to bytes outside ASCII (valid or not), at every
    /// place in memory relative to a word.
    #[test]
    fn bytes_split_as_their_text() {
        let base = [
            " 10:00:00.000000   100000.1      RSESS:000000      CompCode=2 Reason=2035",
            " 10:00:00.000000   100000.1           :       {  MQCONNX \u{e9}t\u{e9}",
            "*10:00:00.000037   100001.12     RSESS:000001 }! MQCONNX rc=2035",
            "00000001 10:00:00.000037   7.7 : z",
            " 10:00:00.000037\t100001.12\t:\tx",
        ];
        let noise: [&[u8]; 6] = [b"\xe9", b"\xc3\xa9", b"\xc3", b" ", b"\t", b"\xe2\x82\xac"];
        let mut rng = mqdiag_model::testrng::Rng::new(31);
        let (mut seen, mut again) = (Columns::default(), Columns::default());
        let mut records = 0;
        for _ in 0..40_000 {
            let mut b = base[rng.below(base.len())].as_bytes().to_vec();
            for _ in 0..rng.below(3) {
                let at = rng.below(b.len());
                let n = noise[rng.below(noise.len())];
                b.splice(at..at, n.iter().copied());
            }
            let layout = [None, Some(Layout::default())][rng.below(2)].map(|l: Layout| Layout {
                counter: l.counter,
                ident: Some(rng.below(2) == 0),
            });
            let shift = rng.below(8);
            let mut buf = vec![b'x'; shift];
            buf.extend_from_slice(&b);
            let got = parse_record_bytes(&buf[shift..], layout, &mut seen);
            let want = match std::str::from_utf8(&b) {
                Ok(text) => parse_record_with(text, layout, &mut again),
                Err(_) => None,
            };
            records += usize::from(got.is_some());
            assert_eq!(got, want, "{:?}", String::from_utf8_lossy(&b));
        }
        assert!(records > 10_000, "{records}");
    }

    #[test]
    fn nul_found_wherever_it_is() {
        for n in 0..300 {
            let mut b = vec![b'x'; n];
            assert!(!has_nul(&b));
            for i in 0..n {
                b[i] = 0;
                assert!(has_nul(&b), "{n} {i}");
                b[i] = if i % 2 == 0 { 0x80 } else { 0xff };
            }
            assert!(!has_nul(&b));
        }
    }

    /// `PID.TID` read with the 16 bytes after it known, as without.
    #[test]
    fn pid_tid_in_window_as_alone() {
        let pick = b"0123456789..  \t9x";
        let mut rng = mqdiag_model::testrng::Rng::new(29);
        let mut read = 0;
        for _ in 0..100_000 {
            let len = rng.below(30);
            let mut b: Vec<u8> = (0..len).map(|_| pick[rng.below(pick.len())]).collect();
            if rng.below(2) == 0 {
                let digits = |rng: &mut mqdiag_model::testrng::Rng| {
                    let n = 1 + rng.below(11);
                    (0..n)
                        .map(|_| b'0' + rng.below(10) as u8)
                        .collect::<Vec<_>>()
                };
                let mut t = digits(&mut rng);
                t.push(b'.');
                t.extend(digits(&mut rng));
                t.extend_from_slice(&b);
                b = t;
            }
            let end = token_end(&b, 0);
            let alone = parse_pid_tid(&b[..end]);
            read += usize::from(alone.is_some());
            assert_eq!(pid_tid_in(&b[..end], window(&b, 0)), alone, "{b:?}");
        }
        assert!(read > 15_000, "{read}");
    }
}
