//! The character set of a text input, decided once per file from its
//! first bytes (or forced with `--encoding`), and a reader that turns a
//! non-UTF-8 stream into UTF-8 before the line readers see it.
//!
//! UTF-8 and ASCII files are not touched: they are read as bytes, as
//! before, and a stray invalid line still falls back to `text::decode_line`.
//! Western single-byte files keep the per-line CP850 / Windows-1252 guess
//! of `text::decode_line` (one Windows log holds lines of both: the queue
//! manager writes ANSI, console programs OEM). Everything else (Cyrillic,
//! Greek, Turkish, Baltic, Central European, CJK, UTF-16) is transcoded as
//! a stream by `encoding_rs`, so one decision covers every line, including
//! English lines in a Russian log (ASCII is the same in all of them).

use std::collections::VecDeque;
use std::io::{self, Read};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

pub(crate) use mqdiag_model::encoding::{EncodingNote, Later, TextEncoding, of};

/// Decide a file's encoding from its first bytes: a BOM; valid UTF-8 (the
/// last character may be cut by the prefix's end); otherwise the guess of
/// `chardetng`, which weighs letter pairs of each candidate language.
pub(crate) fn detect(head: &[u8]) -> TextEncoding {
    if let Some((e, _)) = encoding_rs::Encoding::for_bom(head) {
        return of(e);
    }
    // UTF-16 without a BOM: every other byte NUL in ASCII-heavy text
    // (which is valid UTF-8, so this comes first).
    if let Some(e) = utf16_without_bom(head) {
        return TextEncoding::Other(e);
    }
    let valid = match std::str::from_utf8(head) {
        Ok(_) => true,
        // Cut inside the last character of the prefix: still UTF-8.
        Err(e) => e.error_len().is_none() && head.len() - e.valid_up_to() < 4,
    };
    if valid {
        return TextEncoding::Utf8;
    }
    let mut d = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
    d.feed(head, false);
    let e = d.guess(None, chardetng::Utf8Detection::Deny);
    if e == encoding_rs::WINDOWS_1252 {
        // Western European: the per-line guess between ANSI and OEM.
        TextEncoding::Western
    } else {
        TextEncoding::Other(e)
    }
}

fn utf16_without_bom(head: &[u8]) -> Option<&'static encoding_rs::Encoding> {
    let n = head.len().min(512) & !1;
    if n < 16 {
        return None;
    }
    let even = head[..n].iter().step_by(2).filter(|&&b| b == 0).count();
    let odd = head[1..n].iter().step_by(2).filter(|&&b| b == 0).count();
    let half = n / 2;
    if odd * 10 >= half * 9 && even * 10 < half {
        Some(encoding_rs::UTF_16LE)
    } else if even * 10 >= half * 9 && odd * 10 < half {
        Some(encoding_rs::UTF_16BE)
    } else {
        None
    }
}

/// CP850 bytes as UTF-8, into `out`.
fn cp850_into(src: &[u8], out: &mut Vec<u8>) {
    let mut tmp = [0u8; 4];
    for &b in src {
        if b < 0x80 {
            out.push(b);
        } else {
            let c = mqdiag_model::text::decode_cp850(&[b]);
            out.extend_from_slice(
                c.chars()
                    .next()
                    .unwrap_or('?')
                    .encode_utf8(&mut tmp)
                    .as_bytes(),
            );
        }
    }
}

/// Where the lines of a converted file start in the file's own bytes, for
/// the line reader that reads its UTF-8 form (`LineReader::map_offsets`):
/// the converter notes, for each line end it writes, the offset after it
/// in UTF-8 and in the file (`RawEnds`); the reader takes them a batch at a
/// time and asks for the offset of each line it reads, which forgets the
/// lines before it (`OffsetMap`), so only the lines converted and not yet
/// read are held. The same serves a filter that keeps every line a line
/// (a collector's wrapper taken off).
///
/// Every character set read here writes a line end for each line end of
/// the file and no other: LF is the byte 0x0A in the ASCII-compatible ones
/// (no multi-byte sequence holds it, and a sequence cut by it is replaced
/// without taking it), the unit 0x000A in UTF-16.
#[derive(Clone, Default)]
pub(crate) struct RawStarts(Arc<StartsInner>);

#[derive(Default)]
struct StartsInner {
    /// Offsets differ: a converter writes pairs (until then they are the
    /// same, and a line costs the reader one load).
    used: AtomicBool,
    /// (offset in UTF-8, offset in the file) after each line end, not yet
    /// taken by the reader.
    q: Mutex<VecDeque<(u64, u64)>>,
}

impl RawStarts {
    fn start(&self) {
        self.0.used.store(true, Ordering::Relaxed);
    }
}

/// The reader's side of `RawStarts`.
pub(crate) struct OffsetMap {
    shared: RawStarts,
    /// Pairs taken from `shared`, in order.
    local: VecDeque<(u64, u64)>,
    /// File offset minus UTF-8 offset at the last line start asked for.
    delta: i64,
}

impl OffsetMap {
    pub(crate) fn new(shared: RawStarts) -> OffsetMap {
        OffsetMap {
            shared,
            local: VecDeque::new(),
            delta: 0,
        }
    }

    /// The file offset of the line that starts `at` bytes into the UTF-8
    /// form (the start of the file, or just after a line end).
    #[inline(always)]
    pub(crate) fn raw_of(&mut self, at: u64) -> u64 {
        if !self.shared.0.used.load(Ordering::Relaxed) {
            return at;
        }
        self.mapped(at)
    }

    #[inline(never)]
    fn mapped(&mut self, at: u64) -> u64 {
        loop {
            while let Some(&(d, r)) = self.local.front() {
                if d > at {
                    return at.wrapping_add(self.delta as u64);
                }
                self.delta = r as i64 - d as i64;
                self.local.pop_front();
            }
            // The pairs written since the last batch, in one lock.
            let mut q = self.shared.0.q.lock().unwrap_or_else(|p| p.into_inner());
            if q.is_empty() {
                return at.wrapping_add(self.delta as u64);
            }
            std::mem::swap(&mut self.local, &mut q);
        }
    }
}

/// Line ends of the file's own bytes, for `RawStarts`.
pub(crate) struct RawEnds {
    starts: RawStarts,
    /// UTF-16 little-endian, big-endian, or (None) ASCII-compatible.
    utf16: Option<bool>,
    /// Bytes of the file before the converted part, and read of it so far.
    raw_at: u64,
    /// UTF-8 bytes before the converted part, and written of it so far.
    out_at: u64,
    /// The byte before (a UTF-16 unit's first half).
    prev: u8,
    /// File offsets after line ends not yet paired with the UTF-8's.
    ends: VecDeque<u64>,
    /// Pairs made by the last `wrote`, handed over in one lock.
    pairs: Vec<(u64, u64)>,
}

impl RawEnds {
    fn new(starts: RawStarts, enc: TextEncoding, raw_at: u64, out_at: u64) -> RawEnds {
        let utf16 = match enc {
            TextEncoding::Other(e) if e == encoding_rs::UTF_16LE => Some(true),
            TextEncoding::Other(e) if e == encoding_rs::UTF_16BE => Some(false),
            _ => None,
        };
        starts.start();
        RawEnds {
            starts,
            utf16,
            raw_at,
            out_at,
            prev: 0,
            ends: VecDeque::new(),
            pairs: Vec::new(),
        }
    }

    /// Bytes just read from the file.
    pub(crate) fn read(&mut self, b: &[u8]) {
        match self.utf16 {
            None => {
                for i in memchr::memchr_iter(b'\n', b) {
                    self.ends.push_back(self.raw_at + i as u64 + 1);
                }
            }
            Some(le) => {
                // Units start at even offsets of the converted part, which
                // starts at the file's start.
                for (i, &c) in b.iter().enumerate() {
                    let at = self.raw_at + i as u64;
                    if at % 2 == 1 {
                        let unit = if le { [self.prev, c] } else { [c, self.prev] };
                        if unit == [b'\n', 0] {
                            self.ends.push_back(at + 1);
                        }
                    }
                    self.prev = c;
                }
            }
        }
        self.raw_at += b.len() as u64;
    }

    /// UTF-8 just written.
    pub(crate) fn wrote(&mut self, out: &[u8]) {
        for i in memchr::memchr_iter(b'\n', out) {
            // Pairs in order; a line end with no file line end beside it
            // (never seen) keeps the last difference.
            if let Some(r) = self.ends.pop_front() {
                self.pairs.push((self.out_at + i as u64 + 1, r));
            }
        }
        self.out_at += out.len() as u64;
        if !self.pairs.is_empty() {
            let mut q = self.starts.0.q.lock().unwrap_or_else(|p| p.into_inner());
            q.extend(self.pairs.drain(..));
        }
    }
}

/// A reader that yields the UTF-8 form of another reader's bytes in a
/// given encoding. Memory: two fixed buffers.
pub(crate) struct Transcode<R> {
    inner: R,
    decoder: Option<encoding_rs::Decoder>,
    raw: Vec<u8>,
    raw_len: usize,
    out: Vec<u8>,
    out_pos: usize,
    eof: bool,
    /// Notes where lines start in the file (`with_offsets`).
    lines: Option<RawEnds>,
}

const CHUNK: usize = 32 * 1024;

impl<R: Read> Transcode<R> {
    pub(crate) fn new(inner: R, enc: TextEncoding) -> Self {
        let decoder = match enc {
            TextEncoding::Other(e) => Some(e.new_decoder_with_bom_removal()),
            _ => None,
        };
        Transcode {
            inner,
            decoder,
            raw: vec![0; CHUNK],
            raw_len: 0,
            out: Vec::with_capacity(CHUNK * 3 + 16),
            out_pos: 0,
            eof: false,
            lines: None,
        }
    }

    /// `new`, noting where lines start in the file on `starts`; the
    /// converted part starts `raw_at` bytes into the file and `out_at`
    /// bytes into the UTF-8 form.
    pub(crate) fn with_offsets(
        inner: R,
        enc: TextEncoding,
        starts: RawStarts,
        raw_at: u64,
        out_at: u64,
    ) -> Self {
        Transcode {
            lines: Some(RawEnds::new(starts, enc, raw_at, out_at)),
            ..Transcode::new(inner, enc)
        }
    }

    /// Decode the next chunk into `out`; false at the end.
    fn fill(&mut self) -> io::Result<bool> {
        self.out.clear();
        self.out_pos = 0;
        while self.out.is_empty() {
            if self.eof {
                return Ok(false);
            }
            let n = loop {
                match self.inner.read(&mut self.raw[self.raw_len..]) {
                    Ok(n) => break n,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    Err(e) => return Err(e),
                }
            };
            if let Some(l) = self.lines.as_mut() {
                l.read(&self.raw[self.raw_len..self.raw_len + n]);
            }
            self.raw_len += n;
            let last = n == 0;
            self.eof = last;
            match self.decoder.as_mut() {
                Some(d) => {
                    let cap = d.max_utf8_buffer_length(self.raw_len).unwrap_or(CHUNK * 4);
                    self.out.resize(cap, 0);
                    let (_, read, written, _) =
                        d.decode_to_utf8(&self.raw[..self.raw_len], &mut self.out, last);
                    self.out.truncate(written);
                    self.raw.copy_within(read..self.raw_len, 0);
                    self.raw_len -= read;
                }
                None => {
                    let mut out = std::mem::take(&mut self.out);
                    cp850_into(&self.raw[..self.raw_len], &mut out);
                    self.out = out;
                    self.raw_len = 0;
                }
            }
            if let Some(l) = self.lines.as_mut() {
                l.wrote(&self.out);
            }
        }
        Ok(true)
    }
}

impl<R: Read> Read for Transcode<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.out_pos >= self.out.len() && !self.fill()? {
            return Ok(0);
        }
        let n = buf.len().min(self.out.len() - self.out_pos);
        buf[..n].copy_from_slice(&self.out[self.out_pos..self.out_pos + n]);
        self.out_pos += n;
        Ok(n)
    }
}

/// How much of a file is looked at to decide its character set when its
/// first non-ASCII byte comes after the head (see `LateDecide`).
const LATE_WINDOW: usize = 64 * 1024;

/// A file whose head is plain ASCII says nothing about its character set:
/// a Russian log can start with pages of English records. This reader
/// passes ASCII through and decides at the first non-ASCII byte, from the
/// 64 KB that start there (the same `detect` as for a head): UTF-8 and
/// Western text go on as bytes (lines decoded one by one as before), any
/// other character set is transcoded from that byte on (the ASCII before
/// it reads the same in all of them). The decision is told through `later`.
pub(crate) struct LateDecide {
    /// Still in the ASCII part: the file itself.
    ascii: Option<Box<dyn Read + Send>>,
    /// After the decision: the bytes from the first non-ASCII one on.
    decided: Option<Box<dyn Read + Send>>,
    later: Later,
    /// Bytes passed on before the decision (all ASCII).
    passed: u64,
    /// Where a converted rest's lines start in the file.
    starts: RawStarts,
}

impl LateDecide {
    pub(crate) fn new(inner: Box<dyn Read + Send>) -> (LateDecide, Later) {
        let later = Later::default();
        (
            LateDecide {
                ascii: Some(inner),
                decided: None,
                later: later.clone(),
                passed: 0,
                starts: RawStarts::default(),
            },
            later,
        )
    }

    /// Decide from `window` (starting at the first non-ASCII byte) plus
    /// what follows it, and go on from there.
    fn decide(&mut self, mut inner: Box<dyn Read + Send>, mut window: Vec<u8>) -> io::Result<()> {
        let mut chunk = [0u8; 8192];
        while window.len() < LATE_WINDOW {
            let n = match inner.read(&mut chunk) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    // Keep what was read; the error ends the stream later.
                    self.ascii = Some(inner);
                    return Err(e);
                }
            };
            window.extend_from_slice(&chunk[..n]);
        }
        let enc = match detect(&window) {
            // A UTF-16 guess cannot follow ASCII text: the bytes are what
            // they are.
            TextEncoding::Other(e) if e == encoding_rs::UTF_16LE || e == encoding_rs::UTF_16BE => {
                TextEncoding::Utf8
            }
            e => e,
        };
        let _ = self.later.set(enc);
        let rest: Box<dyn Read + Send> = Box::new(io::Cursor::new(window).chain(inner));
        self.decided = Some(if enc.transcodes() {
            // The ASCII before is the same in the file and in UTF-8.
            let at = self.passed;
            Box::new(Transcode::with_offsets(
                rest,
                enc,
                self.starts.clone(),
                at,
                at,
            ))
        } else {
            rest
        });
        Ok(())
    }
}

impl LateDecide {
    /// Where the lines start in the file, should the rest be converted.
    pub(crate) fn starts(&self) -> RawStarts {
        self.starts.clone()
    }
}

impl Read for LateDecide {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if let Some(d) = self.decided.as_mut() {
            return d.read(buf);
        }
        let Some(mut inner) = self.ascii.take() else {
            return Ok(0);
        };
        let n = match inner.read(buf) {
            Ok(n) => n,
            Err(e) => {
                self.ascii = Some(inner);
                return Err(e);
            }
        };
        // `is_ascii` looks at a word at a time: the common case stays cheap.
        let first = if buf[..n].is_ascii() {
            None
        } else {
            buf[..n].iter().position(|&b| b >= 0x80)
        };
        match first {
            None => {
                self.ascii = Some(inner);
                self.passed += n as u64;
                Ok(n)
            }
            Some(i) => {
                let window = buf[i..n].to_vec();
                self.passed += i as u64;
                self.decide(inner, window)?;
                if i > 0 { Ok(i) } else { self.read(buf) }
            }
        }
    }
}

/// `head` as UTF-8 text in `enc` (for sniffers, which see bytes).
pub(crate) fn decode_head(head: &[u8], enc: TextEncoding) -> std::borrow::Cow<'_, [u8]> {
    if !enc.transcodes() {
        return std::borrow::Cow::Borrowed(head);
    }
    let mut out = Vec::new();
    let mut t = Transcode::new(head, enc);
    // Reading from a slice cannot fail.
    let _ = t.read_to_end(&mut out);
    std::borrow::Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(bytes: &[u8], enc: TextEncoding) -> String {
        let mut s = String::new();
        Transcode::new(bytes, enc).read_to_string(&mut s).unwrap();
        s
    }

    #[test]
    fn utf8_and_ascii_are_left_alone() {
        assert_eq!(detect(b"AMQ9999E: Channel ended\n"), TextEncoding::Utf8);
        assert_eq!(detect("Größe\n".as_bytes()), TextEncoding::Utf8);
        // Cut in the middle of a character by the prefix's end.
        let s = "Канал".as_bytes();
        assert_eq!(detect(&s[..s.len() - 1]), TextEncoding::Utf8);
        assert_eq!(detect(b"\xef\xbb\xbfAMQ"), TextEncoding::Utf8);
    }

    #[test]
    fn cyrillic_windows_log_is_cp1251_and_keeps_english_lines() {
        let (bytes, _, _) = encoding_rs::WINDOWS_1251.encode(
            "AMQ9999: Канал 'QM1.QM2' к хосту 'srv01 (10.0.0.5)(1414)' аварийно завершил работу.\n\
             ОБЪЯСНЕНИЕ:\nПрограмма канала, работавшая в процессе 1234, аварийно завершила работу.\n\
             AMQ9209: Connection to host 'srv01' for channel 'QM1.QM2' closed.\n",
        );
        let enc = detect(&bytes);
        assert_eq!(enc.name(), "windows-1251");
        let text = read_all(&bytes, enc);
        assert!(
            text.starts_with("AMQ9999: Канал 'QM1.QM2' к хосту"),
            "{text}"
        );
        assert!(text.contains("AMQ9209: Connection to host 'srv01'"));
    }

    #[test]
    fn japanese_fdc_line_in_shift_jis_and_euc_jp() {
        let line = "Date/Time         :- 木 6月 07 2018 22:16:25 東京 (標準時)\n\
                    Host Name         :- tokyo01 (Windows Server 2012 R2)\n\
                    プログラムの名前 はプローブで異常終了しました。メモリーが不足しています。\n";
        for e in [encoding_rs::SHIFT_JIS, encoding_rs::EUC_JP] {
            let (bytes, _, _) = e.encode(line);
            let enc = detect(&bytes);
            assert_eq!(enc, TextEncoding::Other(e), "{}", e.name());
            assert_eq!(read_all(&bytes, enc), line);
        }
    }

    #[test]
    fn western_logs_keep_the_per_line_guess() {
        let enc = detect(b"AMQ9208E: Fehler beim Empfangen vom Host 'srv' f\xfcr den Kanal.\n");
        assert_eq!(enc, TextEncoding::Western);
        assert!(!enc.transcodes());
    }

    #[test]
    fn utf16_with_and_without_bom() {
        let text = "AMQ9208E: Error on receive from host 'srv01'.\n";
        let mut le: Vec<u8> = vec![0xff, 0xfe];
        for u in text.encode_utf16() {
            le.extend_from_slice(&u.to_le_bytes());
        }
        let enc = detect(&le);
        assert_eq!(enc.name(), "utf-16le");
        assert_eq!(read_all(&le, enc), text);
        let enc = detect(&le[2..]);
        assert_eq!(enc.name(), "utf-16le");
        assert_eq!(read_all(&le[2..], enc), text);
    }

    #[test]
    fn names_as_users_write_them() {
        assert_eq!(
            TextEncoding::by_name("cp1251").unwrap().name(),
            "windows-1251"
        );
        assert_eq!(
            TextEncoding::by_name("1250").unwrap().name(),
            "windows-1250"
        );
        assert_eq!(
            TextEncoding::by_name("Shift_JIS").unwrap().name(),
            "shift_jis"
        );
        assert_eq!(TextEncoding::by_name("ms932").unwrap().name(), "shift_jis");
        assert_eq!(TextEncoding::by_name("cp850").unwrap(), TextEncoding::Cp850);
        assert_eq!(
            TextEncoding::by_name("latin1").unwrap().name(),
            "windows-1252"
        );
        assert_eq!(TextEncoding::by_name("utf8").unwrap(), TextEncoding::Utf8);
        assert!(TextEncoding::by_name("klingon").is_none());
        // Every name the inventory shows reads back as the same decision.
        for e in [
            TextEncoding::Utf8,
            TextEncoding::Western,
            TextEncoding::Cp850,
        ] {
            assert_eq!(TextEncoding::by_name(e.name()), Some(e));
        }
    }

    /// Reads one byte at a time: decisions must not depend on read sizes.
    struct Trickle<'a>(&'a [u8]);
    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = buf.len().min(1).min(self.0.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    fn late(bytes: Vec<u8>, trickle: bool) -> (Vec<u8>, Option<TextEncoding>) {
        let inner: Box<dyn Read + Send> = if trickle {
            let leaked: &'static [u8] = Box::leak(bytes.into_boxed_slice());
            Box::new(Trickle(leaked))
        } else {
            Box::new(io::Cursor::new(bytes))
        };
        let (mut r, later) = LateDecide::new(inner);
        let mut out = Vec::new();
        r.read_to_end(&mut out).unwrap();
        (out, later.get().copied())
    }

    #[test]
    fn a_character_set_first_seen_after_pages_of_ascii_is_decided_there() {
        let english =
            "AMQ9209E: Connection to host 'qm2 (10.1.1.1)' for channel 'A.B' closed.\n".repeat(400);
        let russian = "AMQ9999: Канал 'QM1.QM2' к хосту 'qm2' завершен аварийно.\n\
                       Канал программы завершен аварийно, повторите попытку.\n";
        let (cp1251, _, _) = encoding_rs::WINDOWS_1251.encode(russian);
        for trickle in [false, true] {
            let mut bytes = english.clone().into_bytes();
            bytes.extend_from_slice(&cp1251);
            let (out, enc) = late(bytes, trickle);
            assert_eq!(enc.map(|e| e.name()), Some("windows-1251"));
            assert_eq!(
                String::from_utf8(out).unwrap(),
                format!("{english}{russian}")
            );
            // UTF-8 after ASCII stays as it is.
            let mut bytes = english.clone().into_bytes();
            bytes.extend_from_slice(russian.as_bytes());
            let (out, enc) = late(bytes.clone(), trickle);
            assert_eq!(enc, Some(TextEncoding::Utf8));
            assert_eq!(out, bytes);
        }
        // Western text goes on as bytes: the per-line guess decodes it.
        let mut bytes = english.clone().into_bytes();
        bytes.extend_from_slice(b"Le canal 'A.B' s'est arr\xeat\xe9 \xe0 cause d'une erreur.\n");
        let (out, enc) = late(bytes.clone(), false);
        assert_eq!(enc, Some(TextEncoding::Western));
        assert_eq!(out, bytes);
        // All ASCII: nothing decided, nothing changed.
        let (out, enc) = late(english.clone().into_bytes(), false);
        assert_eq!(enc, None);
        assert_eq!(out, english.as_bytes());
        let note = EncodingNote::new(TextEncoding::Utf8, Some(Later::default()));
        assert_eq!(note.to_string(), "utf-8");
        let _ = note.later.as_ref().unwrap().set(TextEncoding::Western);
        assert_eq!(note.to_string(), "windows-1252/cp850");
    }

    /// Lines read converted and their offsets in the file's own bytes.
    fn offsets_read(r: Box<dyn Read + Send>, starts: RawStarts) -> Vec<(u64, String)> {
        let mut lines = crate::lines::LineReader::with_capacity(1000, r);
        lines.map_offsets(starts);
        let mut out = Vec::new();
        while let Some((m, l)) = lines.next_line().unwrap() {
            out.push((m.offset, String::from_utf8_lossy(l).into_owned()));
        }
        out
    }

    /// Where each line starts in `bytes`: after each `lf` (a byte, or a
    /// UTF-16 unit's two bytes at an even offset).
    fn starts_of(bytes: &[u8], lf: &[u8]) -> Vec<u64> {
        let mut v = vec![0];
        let mut i = 0;
        while i + lf.len() <= bytes.len() {
            if &bytes[i..i + lf.len()] == lf {
                v.push((i + lf.len()) as u64);
            }
            i += lf.len();
        }
        v
    }

    #[test]
    fn converted_lines_keep_their_offsets_in_the_file() {
        let text = "AMQ9208E: Ошибка канала 'A.B'\r\n\nКанал 東京 остановлен.\n".repeat(3000);
        // UTF-16 with and without BOM, both byte orders.
        for (le, bom) in [(true, true), (true, false), (false, true)] {
            let mut bytes = Vec::new();
            let units = bom
                .then_some(0xfeff_u16)
                .into_iter()
                .chain(text.encode_utf16());
            for u in units {
                bytes.extend_from_slice(&if le { u.to_le_bytes() } else { u.to_be_bytes() });
            }
            // (As `--encoding` gives it: without a BOM, mostly non-ASCII
            // text is not taken for UTF-16.)
            let enc = TextEncoding::Other(if le {
                encoding_rs::UTF_16LE
            } else {
                encoding_rs::UTF_16BE
            });
            let starts = RawStarts::default();
            let r =
                Transcode::with_offsets(io::Cursor::new(bytes.clone()), enc, starts.clone(), 0, 0);
            let got = offsets_read(Box::new(r), starts);
            let lf: &[u8] = if le { b"\n\0" } else { b"\0\n" };
            let want = starts_of(&bytes, lf);
            let lines: Vec<&str> = text.lines().collect();
            assert_eq!(got.len(), lines.len());
            for (i, (o, l)) in got.iter().enumerate() {
                assert_eq!(*o, want[i], "line {}", i + 1);
                assert_eq!(l, lines[i]);
            }
        }
        // Shift_JIS over many chunks, then CP1251 after pages of ASCII.
        let (sjis, _, _) = encoding_rs::SHIFT_JIS.encode("東京 (標準時) メモリー\n不足\r\n");
        let sjis = sjis.repeat(9000);
        let starts = RawStarts::default();
        let enc = TextEncoding::Other(encoding_rs::SHIFT_JIS);
        let r = Transcode::with_offsets(io::Cursor::new(sjis.clone()), enc, starts.clone(), 0, 0);
        let got: Vec<u64> = offsets_read(Box::new(r), starts)
            .iter()
            .map(|g| g.0)
            .collect();
        assert_eq!(got, starts_of(&sjis, b"\n")[..got.len()]);
        assert_eq!(got.len(), 18000);
        let mut late = b"AMQ9209E: Connection closed.\n".repeat(3000);
        let (cp, _, _) = encoding_rs::WINDOWS_1251.encode("Канал завершен.\nОбъяснение\n");
        late.extend_from_slice(&cp.repeat(2000));
        late.extend_from_slice(b"AMQ9999E: the end\n");
        let (r, later) = LateDecide::new(Box::new(io::Cursor::new(late.clone())));
        let starts = r.starts();
        let got: Vec<u64> = offsets_read(Box::new(r), starts)
            .iter()
            .map(|g| g.0)
            .collect();
        assert_eq!(later.get().map(|e| e.name()), Some("windows-1251"));
        assert_eq!(got, starts_of(&late, b"\n")[..got.len()]);
        assert_eq!(got.len(), 3000 + 4000 + 1);
    }

    #[test]
    fn cp850_forced_and_chunked_multibyte_input() {
        assert_eq!(
            read_all(b"ERKL\x8eRUNG:", TextEncoding::Cp850),
            "ERKLÄRUNG:"
        );
        // A Shift_JIS file longer than one chunk: characters cut at chunk
        // ends are carried over.
        let line = "東京 (標準時) メモリーが不足しています。\n".repeat(4000);
        let (bytes, _, _) = encoding_rs::SHIFT_JIS.encode(&line);
        assert!(bytes.len() > CHUNK * 2);
        assert_eq!(
            read_all(&bytes, TextEncoding::Other(encoding_rs::SHIFT_JIS)),
            line
        );
    }
}
