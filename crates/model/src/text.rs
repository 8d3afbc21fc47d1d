//! Byte-to-text decoding shared by every reader. Inputs come in UTF-8,
//! Latin-1, Windows-1252 or CP850; none of them may stop a run.

use std::borrow::Cow;

/// UTF-8 when the bytes are valid UTF-8, Latin-1 otherwise (every byte maps
/// to a character, so nothing is lost or replaced).
pub fn decode_lossy(bytes: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(s) => Cow::Borrowed(s),
        Err(_) => Cow::Owned(bytes.iter().map(|&b| b as char).collect()),
    }
}

/// The single-byte code pages error logs come in besides UTF-8.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Encoding {
    Utf8,
    /// Windows OEM code page 850 (console programs on Western European Windows).
    Cp850,
    /// Windows ANSI code page 1252.
    Cp1252,
}

impl Encoding {
    pub fn as_str(self) -> &'static str {
        match self {
            Encoding::Utf8 => "utf-8",
            Encoding::Cp850 => "cp850",
            Encoding::Cp1252 => "windows-1252",
        }
    }
}

/// CP850 bytes 0x80..=0xFF (checked against Python's `cp850` codec).
const CP850_HIGH: [char; 128] = [
    '\u{00C7}', '\u{00FC}', '\u{00E9}', '\u{00E2}', '\u{00E4}', '\u{00E0}', '\u{00E5}', '\u{00E7}',
    '\u{00EA}', '\u{00EB}', '\u{00E8}', '\u{00EF}', '\u{00EE}', '\u{00EC}', '\u{00C4}', '\u{00C5}',
    '\u{00C9}', '\u{00E6}', '\u{00C6}', '\u{00F4}', '\u{00F6}', '\u{00F2}', '\u{00FB}', '\u{00F9}',
    '\u{00FF}', '\u{00D6}', '\u{00DC}', '\u{00F8}', '\u{00A3}', '\u{00D8}', '\u{00D7}', '\u{0192}',
    '\u{00E1}', '\u{00ED}', '\u{00F3}', '\u{00FA}', '\u{00F1}', '\u{00D1}', '\u{00AA}', '\u{00BA}',
    '\u{00BF}', '\u{00AE}', '\u{00AC}', '\u{00BD}', '\u{00BC}', '\u{00A1}', '\u{00AB}', '\u{00BB}',
    '\u{2591}', '\u{2592}', '\u{2593}', '\u{2502}', '\u{2524}', '\u{00C1}', '\u{00C2}', '\u{00C0}',
    '\u{00A9}', '\u{2563}', '\u{2551}', '\u{2557}', '\u{255D}', '\u{00A2}', '\u{00A5}', '\u{2510}',
    '\u{2514}', '\u{2534}', '\u{252C}', '\u{251C}', '\u{2500}', '\u{253C}', '\u{00E3}', '\u{00C3}',
    '\u{255A}', '\u{2554}', '\u{2569}', '\u{2566}', '\u{2560}', '\u{2550}', '\u{256C}', '\u{00A4}',
    '\u{00F0}', '\u{00D0}', '\u{00CA}', '\u{00CB}', '\u{00C8}', '\u{0131}', '\u{00CD}', '\u{00CE}',
    '\u{00CF}', '\u{2518}', '\u{250C}', '\u{2588}', '\u{2584}', '\u{00A6}', '\u{00CC}', '\u{2580}',
    '\u{00D3}', '\u{00DF}', '\u{00D4}', '\u{00D2}', '\u{00F5}', '\u{00D5}', '\u{00B5}', '\u{00FE}',
    '\u{00DE}', '\u{00DA}', '\u{00DB}', '\u{00D9}', '\u{00FD}', '\u{00DD}', '\u{00AF}', '\u{00B4}',
    '\u{00AD}', '\u{00B1}', '\u{2017}', '\u{00BE}', '\u{00B6}', '\u{00A7}', '\u{00F7}', '\u{00B8}',
    '\u{00B0}', '\u{00A8}', '\u{00B7}', '\u{00B9}', '\u{00B3}', '\u{00B2}', '\u{25A0}', '\u{00A0}',
];

/// Windows-1252 bytes 0x80..=0x9F; the five unassigned bytes map to the C1
/// control of the same value, as the WHATWG encoding standard does.
const CP1252_C1: [char; 32] = [
    '\u{20AC}', '\u{0081}', '\u{201A}', '\u{0192}', '\u{201E}', '\u{2026}', '\u{2020}', '\u{2021}',
    '\u{02C6}', '\u{2030}', '\u{0160}', '\u{2039}', '\u{0152}', '\u{008D}', '\u{017D}', '\u{008F}',
    '\u{0090}', '\u{2018}', '\u{2019}', '\u{201C}', '\u{201D}', '\u{2022}', '\u{2013}', '\u{2014}',
    '\u{02DC}', '\u{2122}', '\u{0161}', '\u{203A}', '\u{0153}', '\u{009D}', '\u{017E}', '\u{0178}',
];

fn cp850_char(b: u8) -> char {
    if b < 0x80 {
        b as char
    } else {
        CP850_HIGH[(b - 0x80) as usize]
    }
}

fn cp1252_char(b: u8) -> char {
    match b {
        0x80..=0x9F => CP1252_C1[(b - 0x80) as usize],
        _ => b as char,
    }
}

pub fn decode_cp850(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| cp850_char(b)).collect()
}

pub(crate) fn decode_cp1252(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| cp1252_char(b)).collect()
}

/// How plausible a single-byte decoding of `bytes` is as Western European
/// text: accented letters score, box drawing and unassigned bytes cost, and
/// an upper-case accented letter straight after a lower-case ASCII letter
/// (`détail` read as `dÚtail`) costs.
fn plausibility(bytes: &[u8], map: fn(u8) -> char, c1_range_is_punct: bool) -> i32 {
    let mut score = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if b < 0x80 {
            continue;
        }
        let c = map(b);
        let prev = i.checked_sub(1).map(|j| bytes[j]);
        let next = bytes.get(i + 1).copied();
        let between_letters = prev.is_some_and(|p| p.is_ascii_alphabetic())
            && next.is_some_and(|n| n.is_ascii_alphabetic());
        if ('\u{80}'..='\u{9F}').contains(&c) {
            score -= 5; // unassigned in the code page
        } else if c1_range_is_punct && (0x80..=0x9F).contains(&b) {
            // 1252's quotes, dashes and rare letters (Š, Ž, Œ): fine between
            // words, odd inside one, except the apostrophe (don’t).
            if between_letters && c != '\u{2019}' {
                score -= 2;
            } else if !c.is_alphabetic() {
                score += 1;
            }
        } else if c.is_alphabetic() {
            score += 2;
            if c.is_uppercase() && prev.is_some_and(|p| p.is_ascii_lowercase()) {
                score -= 3;
            }
        } else if ('\u{2500}'..='\u{25FF}').contains(&c) {
            score -= 2; // box drawing and blocks: not in log text
        }
    }
    score
}

/// Decode one line: UTF-8 when valid, otherwise whichever of CP850 and
/// Windows-1252 reads more plausibly (1252 on a tie). Never fails.
pub fn decode_line(bytes: &[u8]) -> (Cow<'_, str>, Encoding) {
    if let Ok(s) = std::str::from_utf8(bytes) {
        return (Cow::Borrowed(s), Encoding::Utf8);
    }
    let oem = plausibility(bytes, cp850_char, false);
    let ansi = plausibility(bytes, cp1252_char, true);
    if oem > ansi {
        (Cow::Owned(decode_cp850(bytes)), Encoding::Cp850)
    } else {
        (Cow::Owned(decode_cp1252(bytes)), Encoding::Cp1252)
    }
}

/// Whether a block of bytes looks like text: at most 1% NUL or control
/// characters other than tab, CR, LF, form feed and escape. (A text file
/// with a stray NUL is still text; binary traces are full of them.)
pub fn looks_like_text(head: &[u8]) -> bool {
    if head.is_empty() {
        return true;
    }
    // C0 controls less the five that text holds, counted in blocks small
    // enough for a byte counter: a form the compiler turns into vector
    // compares (the sniffers run this over every file's first 16 KB).
    let ctrl: usize = head
        .chunks(255)
        .map(|c| {
            c.iter().fold(0u8, |n, &b| {
                n + u8::from(b < 0x20)
                    - u8::from(b == b'\t')
                    - u8::from(b == b'\r')
                    - u8::from(b == b'\n')
                    - u8::from(b == 0x0c)
                    - u8::from(b == 0x1b)
            }) as usize
        })
        .sum();
    ctrl * 100 <= head.len()
}

/// `String::from_utf8_lossy`, with the standard library's faster check
/// for valid UTF-8 (nearly every head sniffed) first.
pub fn utf8_lossy(bytes: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(s) => Cow::Borrowed(s),
        Err(_) => String::from_utf8_lossy(bytes),
    }
}

/// Whether `b` holds a byte that starts a control character a terminal or
/// a document viewer would act on: C0 except tab, DEL, or a C1 control
/// (UTF-8 `C2 80`..`C2 9F`). One pass over the bytes with no allocation, so
/// that the hot output paths pay nearly nothing when, as almost always,
/// there is nothing to escape.
#[inline]
pub(crate) fn has_controls(b: &[u8]) -> bool {
    // Printable ASCII holds none: skipped eight bytes at a time.
    let mut i = plain_ascii_prefix(b);
    while i < b.len() {
        let c = b[i];
        if (c < 0x20 && c != b'\t') || c == 0x7f {
            return true;
        }
        if c == 0xc2 && b.get(i + 1).is_some_and(|&n| (0x80..=0x9f).contains(&n)) {
            return true;
        }
        if (c == 0xe2 || c == 0xd8) && format_control_len(b, i) > 0 {
            return true;
        }
        i += 1;
    }
    false
}

/// How many bytes at the start of `b` are printable ASCII (0x20..0x7e or
/// tab), looked at eight at a time; the word with the first other byte is
/// left to the caller's byte loop.
#[inline]
pub fn plain_ascii_prefix(b: &[u8]) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let mut i = 0;
    while let Some(w) = b.get(i..i + 8) {
        let w = u64::from_le_bytes(w.try_into().unwrap_or([0; 8]));
        // High bit set per byte for: non-ASCII (w itself), below 0x20
        // (0x20 - 1 borrows through 0x60 added to the low seven bits), or
        // 0x7f (+1 carries into the high bit). Tabs go to the byte loop.
        let x = w & (ONES * 0x7f);
        let odd = (w | !x.wrapping_add(ONES * 0x60) | x.wrapping_add(ONES)) & HIGHS;
        if odd != 0 {
            break;
        }
        i += 8;
    }
    i
}

/// Bidirectional controls (U+061C, U+200E, U+200F, U+202A to U+202E,
/// U+2066 to U+2069) and the line and paragraph separators (U+2028,
/// U+2029): invisible, they reorder or break what a viewer shows of a
/// name or a line, so they are shown as `\uXXXX` like the other controls.
pub fn is_format_control(c: char) -> bool {
    matches!(
        c,
        '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{2028}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
    )
}

/// The UTF-8 length of a `is_format_control` character at `b[i]`, or 0.
#[inline]
pub(crate) fn format_control_len(b: &[u8], i: usize) -> usize {
    match b[i] {
        0xd8 if b.get(i + 1) == Some(&0x9c) => 2,
        0xe2 => match (b.get(i + 1), b.get(i + 2)) {
            (Some(0x80), Some(0x8e | 0x8f | 0xa8..=0xae)) | (Some(0x81), Some(0xa6..=0xa9)) => 3,
            _ => 0,
        },
        _ => 0,
    }
}

/// The `is_format_control` character at `b[i..i + n]` as `\uXXXX`.
fn push_format_control(out: &mut Vec<u8>, b: &[u8], i: usize, n: usize) {
    let c = std::str::from_utf8(&b[i..i + n])
        .ok()
        .and_then(|s| s.chars().next())
        .map_or(0, |c| c as u32);
    out.extend_from_slice(format!("\\u{c:04x}").as_bytes());
}

/// Columns `c` takes once `ControlEscaper` has written it (`\x1b`,
/// `\u202e`), so that text can be fitted to a width before it is escaped:
/// a terminal's cells, so a Japanese or Chinese character takes two and a
/// combining mark none (Unicode's East Asian Width, `unicode-width`).
pub fn shown_width(c: char) -> usize {
    if (' '..'\u{7f}').contains(&c) {
        1
    } else if is_format_control(c) {
        6
    } else if is_control(c) && c != '\n' {
        4
    } else if c == '\n' || c == '\t' {
        1
    } else {
        unicode_width::UnicodeWidthChar::width(c).unwrap_or(1)
    }
}

/// The columns of `s` once escaped (see `shown_width`).
pub fn shown_len(s: &str) -> usize {
    s.chars().map(shown_width).sum()
}

fn is_control(c: char) -> bool {
    (c < ' ' && c != '\t') || ('\u{7f}'..='\u{9f}').contains(&c) || is_format_control(c)
}

/// `s` with every control character from input (see `has_controls`)
/// written as `\xNN`, so that ESC shows as `\x1b` instead of recolouring
/// a terminal, and a newline in a file name cannot start a new line of a
/// report. Borrowed when there is nothing to escape.
pub(crate) fn escape_controls(s: &str) -> Cow<'_, str> {
    if !has_controls(s.as_bytes()) {
        return Cow::Borrowed(s);
    }
    let mut o = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if is_format_control(c) {
            o.push_str(&format!("\\u{:04x}", c as u32));
        } else if is_control(c) {
            o.push_str(&format!("\\x{:02x}", c as u32));
        } else {
            o.push(c);
        }
    }
    Cow::Owned(o)
}

/// Append `s` to `b`, escaped as `escape_controls` does (the tests';
/// rows hold their text as bytes).
#[cfg(test)]
pub(crate) fn push_escaped(b: &mut Vec<u8>, s: &str) {
    if has_controls(s.as_bytes()) {
        b.extend_from_slice(escape_controls(s).as_bytes());
    } else {
        b.extend_from_slice(s.as_bytes());
    }
}

/// `push_escaped` for text held as bytes (the trace fast path's lines).
#[inline]
pub(crate) fn push_escaped_bytes(b: &mut Vec<u8>, s: &[u8]) {
    if has_controls(s) {
        b.extend_from_slice(escape_controls(&String::from_utf8_lossy(s)).as_bytes());
    } else {
        b.extend_from_slice(s);
    }
}

/// A name from the file system or an archive as shown in every output:
/// valid UTF-8 as is, each byte that is not UTF-8 as `\xNN` (so that
/// `AMQ\xff.0.FMT` and `AMQ\xfe.0.FMT` stay two names, where a lossy
/// decode would show both as `AMQ\u{fffd}.0.FMT`), and control characters
/// escaped the same way.
pub fn name_bytes_display(b: &[u8]) -> String {
    let mut o = String::with_capacity(b.len());
    for chunk in b.utf8_chunks() {
        o.push_str(&escape_controls(chunk.valid()));
        for x in chunk.invalid() {
            o.push_str(&format!("\\x{x:02x}"));
        }
    }
    o
}

/// `name_bytes_display` for an OS path or file name.
pub fn os_display(s: &std::ffi::OsStr) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        name_bytes_display(s.as_bytes())
    }
    #[cfg(not(unix))]
    {
        name_bytes_display(s.to_string_lossy().as_bytes())
    }
}

/// A writer for line-oriented documents (text and Markdown reports, the
/// inventory's text): our own line ends and tabs pass, every other control
/// character in what is written is escaped as `escape_controls` does. Lines
/// read from inputs never hold a line end and file names are escaped when
/// found, so a newline reaching here is always ours.
pub struct ControlEscaper<'a>(pub &'a mut dyn std::io::Write);

impl std::io::Write for ControlEscaper<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let bad = |b: &[u8], i: usize| {
            let c = b[i];
            (c < 0x20 && c != b'\t' && c != b'\n')
                || c == 0x7f
                || (c == 0xc2 && b.get(i + 1).is_some_and(|&n| (0x80..=0x9f).contains(&n)))
        };
        let mut start = 0;
        let mut i = 0;
        while i < buf.len() {
            let n = if buf[i] >= 0xd8 {
                format_control_len(buf, i)
            } else {
                0
            };
            if n > 0 {
                self.0.write_all(&buf[start..i])?;
                let mut e = Vec::new();
                push_format_control(&mut e, buf, i, n);
                self.0.write_all(&e)?;
                i += n;
                start = i;
            } else if bad(buf, i) {
                self.0.write_all(&buf[start..i])?;
                let (v, w) = if buf[i] == 0xc2 {
                    (buf[i + 1], 2)
                } else {
                    (buf[i], 1)
                };
                write!(self.0, "\\x{v:02x}")?;
                i += w;
                start = i;
            } else {
                i += 1;
            }
        }
        self.0.write_all(&buf[start..])?;
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}

/// JSON escapes C0 controls but lets DEL and the C1 controls (U+0080 to
/// U+009F) through as raw characters, which a terminal acts on (`\u{9b}` is
/// CSI) when a user `cat`s the file. In JSON text those bytes only occur
/// inside strings, where `\u00XX` is the same value: rewrite them so.
fn push_json_control(out: &mut Vec<u8>, v: u8) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.extend_from_slice(b"\\u00");
    out.push(HEX[(v >> 4) as usize]);
    out.push(HEX[(v & 15) as usize]);
}

/// `escape_json_controls` on `out[from..]`, in place.
pub fn escape_json_controls_from(out: &mut Vec<u8>, from: usize) {
    let tail = &out[from..];
    if memchr::memchr3(0xc2, 0x7f, 0xe2, tail).is_none() && memchr::memchr(0xd8, tail).is_none() {
        return;
    }
    let tail = out.split_off(from);
    let mut i = 0;
    while i < tail.len() {
        let c = tail[i];
        let n = if c >= 0xd8 {
            format_control_len(&tail, i)
        } else {
            0
        };
        if n > 0 {
            // `\u2028` in a JSON string is the same character.
            push_format_control(out, &tail, i, n);
            i += n;
            continue;
        }
        if c == 0x7f {
            push_json_control(out, c);
        } else if c == 0xc2 && tail.get(i + 1).is_some_and(|n| (0x80..=0x9f).contains(n)) {
            push_json_control(out, tail[i + 1]);
            i += 1;
        } else {
            out.push(c);
        }
        i += 1;
    }
}

/// A writer of JSON text that escapes DEL and C1 controls (see
/// `escape_json_controls_from`). Writes are gathered into blocks (serde
/// writes a few bytes at a time); a lead byte cut off at the end of a block
/// waits for the next. Call `finish` (or `flush`) at the end: dropping it
/// writes what is left but cannot report an error.
pub struct JsonControlEscaper<'a> {
    out: &'a mut dyn std::io::Write,
    /// Bytes written and not yet escaped and passed on.
    buf: Vec<u8>,
}

/// The block the escaper gathers before passing it on.
const ESCAPE_BLOCK: usize = 8 << 10;

impl<'a> JsonControlEscaper<'a> {
    pub fn new(out: &'a mut dyn std::io::Write) -> Self {
        JsonControlEscaper {
            out,
            buf: Vec::new(),
        }
    }

    /// Pass on everything written, without flushing the writer beneath.
    pub fn finish(mut self) -> std::io::Result<()> {
        self.pass_on(true)
    }

    /// Escape and pass on what is gathered; unless `all`, a character
    /// that may be cut stays for the next block.
    fn pass_on(&mut self, all: bool) -> std::io::Result<()> {
        let keep = if all { 0 } else { cut_lead(&self.buf) };
        let rest = self.buf.split_off(self.buf.len() - keep);
        escape_json_controls_from(&mut self.buf, 0);
        let r = self.out.write_all(&self.buf);
        self.buf.clear();
        self.buf.extend_from_slice(&rest);
        r
    }
}

/// How many bytes at the end of `b` may start a character to escape.
fn cut_lead(b: &[u8]) -> usize {
    match b {
        [.., 0xe2, 0x80 | 0x81] => 2,
        [.., 0xc2 | 0xd8 | 0xe2] => 1,
        _ => 0,
    }
}

impl std::io::Write for JsonControlEscaper<'_> {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        self.buf.extend_from_slice(data);
        if self.buf.len() >= ESCAPE_BLOCK {
            self.pass_on(false)?;
        }
        Ok(data.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.pass_on(true)?;
        self.out.flush()
    }
}

impl Drop for JsonControlEscaper<'_> {
    fn drop(&mut self) {
        if !self.buf.is_empty() {
            let _ = self.pass_on(true);
        }
    }
}

/// A CSV cell a spreadsheet would not run as a formula: one that starts
/// with `=`, `+`, `-`, `@`, a tab or a carriage return gets a leading `'`
/// (the OWASP rule against CSV injection).
pub fn csv_safe(s: &str) -> Cow<'_, str> {
    if s.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        Cow::Owned(format!("'{s}"))
    } else {
        Cow::Borrowed(s)
    }
}

/// `str::trim_start` with a byte loop over leading ASCII whitespace (the
/// indentation of attribute lines); the same result on any input.
#[inline]
pub fn trim_start(s: &str) -> &str {
    let b = s.as_bytes();
    // Eight blanks at a time first: job-log continuation lines are indented
    // by twenty.
    let mut n = 0;
    while b.len() - n >= 8 && b[n..n + 8] == [b' '; 8] {
        n += 8;
    }
    while n < b.len() && matches!(b[n], b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r') {
        n += 1;
    }
    let rest = &s[n..];
    if rest.as_bytes().first().is_some_and(|&b| b >= 0x80) {
        rest.trim_start()
    } else {
        rest
    }
}

/// `str::trim_end`, fast over trailing ASCII whitespace.
#[inline]
pub fn trim_end(s: &str) -> &str {
    let b = s.as_bytes();
    let mut n = b.len();
    // Eight blanks at a time first: fixed-width records are padded.
    while n >= 8 && b[n - 8..n] == [b' '; 8] {
        n -= 8;
    }
    while n > 0 && matches!(b[n - 1], b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r') {
        n -= 1;
    }
    let rest = &s[..n];
    if rest.as_bytes().last().is_some_and(|&b| b >= 0x80) {
        rest.trim_end()
    } else {
        rest
    }
}

/// The bytes of `w` (eight bytes, little-endian) equal to `b`: 0x80 in
/// each, exact (no borrow from one byte into the next), for scans that
/// take eight bytes at a time.
#[inline]
pub fn bytes_equal(w: u64, b: u8) -> u64 {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let v = w ^ (u64::from(b) * 0x0101_0101_0101_0101);
    !(((v & LOW7) + LOW7) | v | LOW7)
}

/// Eight bytes of `b` from `i` as one little-endian word, while there
/// are eight: the loop of a scan that takes eight bytes at a time.
#[inline]
pub fn word_from(b: &[u8], i: usize) -> Option<u64> {
    let w: [u8; 8] = b.get(i..i + 8)?.try_into().ok()?;
    Some(u64::from_le_bytes(w))
}

/// `b[at..at + 8]` as a little-endian word.
#[inline]
pub fn word_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().unwrap_or_default())
}

/// `str::trim`, fast over ASCII whitespace (the padding of fixed-width
/// cells, the indentation of continuation lines).
pub fn trim(s: &str) -> &str {
    trim_start(trim_end(s))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every byte against every word that holds it in every place.
    #[test]
    fn bytes_equal_marks_exactly_the_equal_bytes() {
        let mut rng = crate::testrng::Rng::new(0x0008_b17e);
        for _ in 0..20_000 {
            let w = rng.next();
            let bytes = w.to_le_bytes();
            for b in [bytes[rng.below(8)], rng.next() as u8, 0, 0x80, 0xff, b' '] {
                let want = bytes
                    .iter()
                    .enumerate()
                    .filter(|(_, c)| **c == b)
                    .fold(0u64, |m, (i, _)| m | 0x80 << (8 * i));
                assert_eq!(bytes_equal(w, b), want, "{w:#x} {b:#x}");
            }
        }
    }

    #[test]
    fn fast_trims_are_str_trims() {
        let fixed = [
            "",
            " ",
            "  x  ",
            "\t\x0B\x0C\r\n a b \n",
            "\u{a0} x\u{a0} ",
            " \u{3000}",
            "\u{1c}x\u{1f}",
            "\u{85}",
            "é ",
            " é",
            " \u{2003}é\u{2003} ",
            "\u{2000}\u{200a}",
            "x\u{a0}y",
            "                    connection 10.1.1.221",
            "\u{3000} 全角 \u{3000}",
        ];
        // And every short string over a few awkward characters.
        let chars = [
            ' ', '\t', '\x0B', '\u{a0}', '\u{3000}', 'a', 'é', '\x1C', '\u{85}',
        ];
        let mut all: Vec<String> = fixed.iter().map(|s| s.to_string()).collect();
        all.extend(crate::testrng::every_word(&chars, 4).map(String::from_iter));
        // Padded by runs around the eight-blank steps.
        let base = all.clone();
        for k in [7, 8, 9, 16, 17, 20] {
            let pad = " ".repeat(k);
            for s in &base {
                all.push(format!("{pad}{s}{pad}"));
                all.push(format!("{s}{pad}\t{pad}"));
            }
        }
        for s in &all {
            assert_eq!(trim(s), s.trim(), "{s:?}");
            assert_eq!(trim_start(s), s.trim_start(), "{s:?}");
            assert_eq!(trim_end(s), s.trim_end(), "{s:?}");
        }
    }

    #[test]
    fn json_gets_del_and_c1_as_escapes_even_across_writes() {
        use std::io::Write;
        let json = serde_json::to_string("a\u{7f}b\u{85}c\u{9b}d é\u{a0}").unwrap();
        let mut v = json.clone().into_bytes();
        escape_json_controls_from(&mut v, 0);
        let want = "\"a\\u007fb\\u0085c\\u009bd é\u{a0}\"";
        assert_eq!(String::from_utf8(v.clone()).unwrap(), want);
        let back: String = serde_json::from_slice(&v).unwrap();
        assert_eq!(back, "a\u{7f}b\u{85}c\u{9b}d é\u{a0}");
        // Byte by byte through the writer: the same.
        let mut out = Vec::new();
        {
            let mut w = JsonControlEscaper::new(&mut out);
            for b in json.as_bytes() {
                w.write_all(&[*b]).unwrap();
            }
            w.flush().unwrap();
        }
        assert_eq!(out, v);
        // Long text in writes of many sizes, a control cut at each place
        // around the block's end: the same as escaping it in one go.
        for at in ESCAPE_BLOCK - 4..ESCAPE_BLOCK + 2 {
            let text = format!("{}\u{85}x\u{2028}y\u{7f}", "a".repeat(at));
            let json = serde_json::to_string(&text).unwrap();
            let mut want = json.clone().into_bytes();
            escape_json_controls_from(&mut want, 0);
            for step in [1, 3, 7, 4096, 9000] {
                let mut out = Vec::new();
                let mut w = JsonControlEscaper::new(&mut out);
                for c in json.as_bytes().chunks(step) {
                    w.write_all(c).unwrap();
                }
                w.finish().unwrap();
                assert_eq!(out, want, "at {at}, writes of {step}");
            }
        }
    }

    #[test]
    fn latin1_fallback_keeps_every_byte() {
        assert_eq!(decode_lossy(b"caf\xe9"), "café");
        assert_eq!(decode_lossy("café".as_bytes()), "café");
    }

    #[test]
    fn cp850_table_spot_checks() {
        // ü ä Ä ö ß in the OEM code page (the German Windows error logs).
        assert_eq!(decode_cp850(b"\x81\x84\x8e\x94\xe1"), "üäÄöß");
        assert_eq!(decode_cp850(b"\xb3\xc4\xda"), "│─┌");
        assert_eq!(decode_cp850(b"\xff"), "\u{a0}");
        assert_eq!(decode_cp1252(b"\x80\x92\xfc\x81"), "€’ü\u{81}");
    }

    #[test]
    fn legacy_code_page_is_guessed_per_line() {
        let (s, e) = decode_line(b"ERKL\x8eRUNG:");
        assert_eq!((s.as_ref(), e), ("ERKLÄRUNG:", Encoding::Cp850));
        let (s, e) = decode_line(b"Task-Manager f\x81r kritische Dienstprogramme");
        assert_eq!(
            (s.as_ref(), e),
            (
                "Task-Manager für kritische Dienstprogramme",
                Encoding::Cp850
            )
        );
        let (s, e) = decode_line(b"Die Task m\xfcssen gestartet werden, Gr\xf6\xdfe");
        assert_eq!(
            (s.as_ref(), e),
            ("Die Task müssen gestartet werden, Größe", Encoding::Cp1252)
        );
        let (s, e) = decode_line(b"La tentative d'allocation a \xe9chou\xe9");
        assert_eq!(
            (s.as_ref(), e),
            ("La tentative d'allocation a échoué", Encoding::Cp1252)
        );
        let (s, e) = decode_line(b"Le syst\x8ame h\x93te \x82loign\x82");
        assert_eq!(
            (s.as_ref(), e),
            ("Le système hôte éloigné", Encoding::Cp850)
        );
        let (s, e) = decode_line("Größe".as_bytes());
        assert_eq!((s.as_ref(), e), ("Größe", Encoding::Utf8));
    }

    #[test]
    fn text_sniff() {
        assert!(looks_like_text(b"hello\r\nworld\n"));
        assert!(!looks_like_text(b"AMQ\0\0\x01binary"));
        let mut mostly = vec![b'a'; 300];
        mostly[10] = 0;
        assert!(looks_like_text(&mostly));
        assert!(looks_like_text(b""));
        // The counting is the plain count of controls: at the 1 % line,
        // with every byte value, in blocks of every length around 255.
        let plain = |h: &[u8]| {
            let ctrl = h
                .iter()
                .filter(|&&b| b < 0x20 && !matches!(b, b'\t' | b'\r' | b'\n' | 0x0c | 0x1b))
                .count();
            ctrl * 100 <= h.len()
        };
        for len in [1, 99, 100, 101, 254, 255, 256, 510, 1000, 16384] {
            for ctrls in [0, len / 100, len / 100 + 1, len / 2, len] {
                for value in 0..=255u8 {
                    let mut h: Vec<u8> = (0..len).map(|i| b"ab\t\n\r\x0c\x1bz"[i % 8]).collect();
                    for k in 0..ctrls {
                        h[(k * 7919) % len] = value;
                    }
                    assert_eq!(looks_like_text(&h), plain(&h), "{len} {ctrls} {value}");
                }
            }
        }
        assert_eq!(utf8_lossy(b"caf\xc3\xa9"), "café");
        assert_eq!(utf8_lossy(b"caf\xe9"), String::from_utf8_lossy(b"caf\xe9"));
    }

    #[test]
    fn controls_are_escaped_and_plain_text_borrowed() {
        assert!(matches!(escape_controls("a\tb ü"), Cow::Borrowed(_)));
        assert_eq!(escape_controls("\x1b[31mred\x07"), "\\x1b[31mred\\x07");
        assert_eq!(escape_controls("a\nb\u{7f}\u{9b}c"), "a\\x0ab\\x7f\\x9bc");
        let mut b = Vec::new();
        push_escaped(&mut b, "x\x1b]0;t\x07");
        assert_eq!(b, b"x\\x1b]0;t\\x07");
        assert!(!has_controls("é€".as_bytes()));
        // Every byte value at every place of words of up to 20 bytes: the
        // word-at-a-time skip agrees with the byte-by-byte definition.
        let plain = |b: &[u8]| {
            let mut i = 0;
            while i < b.len() {
                let c = b[i];
                if (c < 0x20 && c != b'\t') || c == 0x7f {
                    return true;
                }
                if c == 0xc2 && b.get(i + 1).is_some_and(|&n| (0x80..=0x9f).contains(&n)) {
                    return true;
                }
                i += 1;
            }
            false
        };
        for len in 0..20 {
            for at in 0..len {
                for c in 0..=255u8 {
                    for next in [b'a', 0x85] {
                        let mut b = vec![b'a'; len];
                        b[at] = c;
                        if at + 1 < len {
                            b[at + 1] = next;
                        }
                        assert_eq!(has_controls(&b), plain(&b), "{b:?}");
                        let p = plain_ascii_prefix(&b);
                        assert!(
                            p.is_multiple_of(8) && b[..p].iter().all(|x| (0x20..0x7f).contains(x))
                        );
                        if !(0x20..0x7f).contains(&c) {
                            assert!(p <= at, "{b:?}");
                        }
                    }
                }
            }
        }
        assert!(has_controls("\u{85}".as_bytes()));
    }

    #[test]
    fn undecodable_name_bytes_keep_their_identity() {
        let a = name_bytes_display(b"AMQ\xff.0.FMT");
        let b = name_bytes_display(b"AMQ\xfe.0.FMT");
        assert_eq!(a, "AMQ\\xff.0.FMT");
        assert_ne!(a, b);
        assert_eq!(name_bytes_display("x\ny.LOG".as_bytes()), "x\\x0ay.LOG");
    }

    #[test]
    fn escaper_keeps_line_ends_and_escapes_the_rest() {
        use std::io::Write;
        let mut v = Vec::new();
        write!(ControlEscaper(&mut v), "a\x1b[31m\tb\n\u{9b}c\u{7f}é\n").unwrap();
        assert_eq!(
            String::from_utf8(v).unwrap(),
            "a\\x1b[31m\tb\n\\x9bc\\x7fé\n"
        );
    }
}
