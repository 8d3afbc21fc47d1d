//! Streaming line reader: one reused buffer, `memchr` to find line ends,
//! CR stripped, over-long lines cut (and said so) so memory stays bounded.

use std::io::{self, BufRead, BufReader, Read};

/// Lines longer than this are cut to it; the rest of the line is skipped.
pub(crate) const MAX_LINE: usize = 64 * 1024;

/// A change made to a file's lines one at a time before a format reads
/// them (a log collector's wrapper taken off: `formats::wrapper`). Each
/// input line gives at most one line of its own; lines may also be held
/// and joined, then read where the first of them was.
pub(crate) trait LineFilter: Send {
    /// The longest input line taken whole: longer ones reach `line` cut.
    fn max_line(&self) -> usize;

    /// What one input line (without its line end; `cut` when the reader
    /// cut it) gives.
    fn line<'a>(&'a mut self, line: &'a [u8], cut: bool) -> Filtered<'a>;

    /// The end of the input: the line still held, if any.
    fn finish(&mut self) -> Option<&[u8]>;
}

/// What one input line gives through a `LineFilter`.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Filtered<'a> {
    /// The held line, ended here: read where the first of its lines was.
    pub(crate) held: Option<&'a [u8]>,
    /// The line's own output; `None` when it is held, or ended `held`.
    pub(crate) line: Option<&'a [u8]>,
    /// The length of the RFC 3339 time (`console::stamp_len`) that `line`
    /// starts with, followed by a blank, when the filter measured it: the
    /// reader need not measure it again (`LineMeta::stamp`).
    pub(crate) stamp: Option<usize>,
}

pub(crate) struct LineReader<R: Read> {
    inner: BufReader<R>,
    buf: Vec<u8>,
    line_no: u64,
    bytes: u64,
    max_len: usize,
    /// Bytes of the last line handed out straight from the read buffer,
    /// consumed on the next call.
    pending: usize,
    /// A line could not be read: the input ends there (asking again would
    /// report the same error twice, or read past a gap). An error of
    /// `buffered_lines` does not end it: its caller reads the line the
    /// usual way next, which meets the error and reports it.
    failed: bool,
    /// What searches of its buffered lines found, for a reader that
    /// searches them again after each line it takes (`buffered_searched`).
    searched: crate::source::Searched,
    /// Where the lines of a converted file start in its own bytes (see
    /// `map_offsets`); without it, offsets are of the bytes read. (Boxed:
    /// the reader is moved about, and most files have none.)
    raw: Option<Box<crate::encoding::OffsetMap>>,
}

/// Facts about the line just read, beside its bytes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct LineMeta {
    /// 1-based line number.
    pub(crate) no: u64,
    /// Byte offset of the line's start in the file (see `LineReader`'s
    /// `resume` and `map_offsets`).
    pub(crate) offset: u64,
    /// Length of the line as it was in the file, without its line end.
    pub(crate) full_len: usize,
    /// The line was longer than the limit and was cut.
    pub(crate) truncated: bool,
    /// The line had no line end (last line of a truncated file).
    pub(crate) unterminated: bool,
    /// A filter's `Filtered::stamp` for the line (`None`: not measured).
    pub(crate) stamp: Option<usize>,
}

impl<R: Read> LineReader<R> {
    pub(crate) fn new(r: R) -> Self {
        // Large enough for fast reads, small enough that thousands of open
        // files stay cheap.
        Self::with_capacity(64 * 1024, r)
    }

    pub(crate) fn with_capacity(cap: usize, r: R) -> Self {
        LineReader {
            inner: BufReader::with_capacity(cap, r),
            buf: Vec::with_capacity(256),
            line_no: 0,
            bytes: 0,
            max_len: MAX_LINE,
            pending: 0,
            failed: false,
            searched: Default::default(),
            raw: None,
        }
    }

    /// A reader that goes on from `line_no` lines and `bytes` bytes
    /// already read elsewhere (numbers, counts and offsets continue from
    /// there).
    pub(crate) fn resume(cap: usize, r: R, line_no: u64, bytes: u64) -> Self {
        LineReader {
            line_no,
            bytes,
            ..Self::with_capacity(cap, r)
        }
    }

    /// Taken apart: the bytes buffered and not yet read, the inner reader
    /// (positioned after them), the lines and bytes read so far.
    pub(crate) fn into_parts(mut self) -> (Vec<u8>, R, u64, u64) {
        if self.pending > 0 {
            self.inner.consume(self.pending);
            self.pending = 0;
        }
        let rest = self.inner.buffer().to_vec();
        (rest, self.inner.into_inner(), self.line_no, self.bytes)
    }

    /// Offsets of lines in a file read converted (`encoding::Transcode`):
    /// in the file's own bytes, not in the UTF-8 this reader reads.
    pub(crate) fn map_offsets(&mut self, converted: crate::encoding::RawStarts) {
        self.raw = Some(Box::new(crate::encoding::OffsetMap::new(converted)));
    }

    /// The offset in the file of the line that starts `at` bytes into
    /// what this reader reads.
    #[inline(always)]
    fn file_offset(&mut self, at: u64) -> u64 {
        match &mut self.raw {
            None => at,
            Some(r) => r.raw_of(at),
        }
    }

    fn fail(&mut self, e: io::Error) -> io::Error {
        self.failed = true;
        e
    }

    pub(crate) fn set_max_len(&mut self, n: usize) {
        self.max_len = n;
    }

    /// Bytes consumed so far.
    pub(crate) fn bytes_read(&self) -> u64 {
        self.bytes
    }

    pub(crate) fn line_no(&self) -> u64 {
        self.line_no
    }

    /// The complete lines buffered and not yet read (up to and including
    /// the last line end), reading more first when the buffer is empty.
    /// Empty when only part of a line is buffered: `next_line` reads that.
    /// Lets a reader skip many uninteresting lines in one search.
    pub(crate) fn buffered_lines(&mut self) -> io::Result<&[u8]> {
        if self.pending > 0 {
            self.inner.consume(self.pending);
            self.pending = 0;
        }
        loop {
            match self.inner.fill_buf() {
                Ok(_) => break,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        }
        let buf = self.inner.buffer();
        Ok(match memchr::memrchr(b'\n', buf) {
            Some(i) => &buf[..=i],
            None => &[],
        })
    }

    /// `buffered_lines`, with the offset of its first byte in what this
    /// reader reads and what earlier searches of them found.
    pub(crate) fn buffered_searched(
        &mut self,
    ) -> io::Result<(&[u8], u64, &mut crate::source::Searched)> {
        let n = self.buffered_lines()?.len();
        Ok((&self.inner.buffer()[..n], self.bytes, &mut self.searched))
    }

    /// Mark the first `n` bytes of `buffered_lines`, holding `lines` lines,
    /// as read.
    pub(crate) fn skip(&mut self, n: usize, lines: u64) {
        self.inner.consume(n);
        self.bytes += n as u64;
        self.line_no += lines;
        // Forget the starts of the lines skipped.
        self.file_offset(self.bytes);
    }

    /// Next line without its `\n` / `\r\n`; `None` at end of input.
    pub(crate) fn next_line(&mut self) -> io::Result<Option<(LineMeta, &[u8])>> {
        if self.failed {
            return Ok(None);
        }
        if self.pending > 0 {
            self.inner.consume(self.pending);
            self.pending = 0;
        }
        // Fast path, almost every line: it lies whole in the read buffer and
        // is handed out from there, with no copy.
        let found = loop {
            match self.inner.fill_buf() {
                Ok(c) => break memchr::memchr(b'\n', c).filter(|&i| i <= self.max_len),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(self.fail(e)),
            }
        };
        if let Some(i) = found {
            let offset = self.file_offset(self.bytes);
            self.pending = i + 1;
            self.bytes += (i + 1) as u64;
            self.line_no += 1;
            let mut line = &self.inner.buffer()[..i];
            if line.last() == Some(&b'\r') {
                line = &line[..i - 1];
            }
            let meta = LineMeta {
                no: self.line_no,
                offset,
                full_len: line.len(),
                truncated: false,
                unterminated: false,
                stamp: None,
            };
            return Ok(Some((meta, line)));
        }
        self.buf.clear();
        let start = self.bytes;
        let mut full_len = 0usize;
        let mut found_nl = false;
        let mut any = false;
        loop {
            let chunk = match self.inner.fill_buf() {
                Ok(c) => c,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(self.fail(e)),
            };
            if chunk.is_empty() {
                break;
            }
            any = true;
            let (take, used) = match memchr::memchr(b'\n', chunk) {
                Some(i) => {
                    found_nl = true;
                    (i, i + 1)
                }
                None => (chunk.len(), chunk.len()),
            };
            let room = self.max_len.saturating_sub(self.buf.len());
            self.buf.extend_from_slice(&chunk[..take.min(room)]);
            full_len += take;
            self.inner.consume(used);
            self.bytes += used as u64;
            if found_nl {
                break;
            }
        }
        if !any {
            return Ok(None);
        }
        self.line_no += 1;
        // A CR that ended the line (CRLF): drop it, whether or not it was cut.
        if found_nl && full_len > 0 && self.buf.len() == full_len && self.buf.last() == Some(&b'\r')
        {
            self.buf.pop();
            full_len -= 1;
        }
        let meta = LineMeta {
            no: self.line_no,
            offset: self.file_offset(start),
            full_len,
            truncated: full_len > self.buf.len(),
            unterminated: !found_nl,
            stamp: None,
        };
        Ok(Some((meta, &self.buf)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(input: &[u8], max: usize) -> Vec<(LineMeta, Vec<u8>)> {
        // A tiny buffer exercises lines across buffer ends; a large one the
        // no-copy path. Both must agree.
        let small = all_with(input, max, 4);
        assert_eq!(small, all_with(input, max, 1 << 16));
        small
    }

    fn all_with(input: &[u8], max: usize, cap: usize) -> Vec<(LineMeta, Vec<u8>)> {
        let mut r = LineReader::with_capacity(cap, input);
        r.set_max_len(max);
        let mut out = Vec::new();
        while let Some((m, l)) = r.next_line().unwrap() {
            out.push((m, l.to_vec()));
        }
        out
    }

    /// A read error ends the input: it is reported once.
    #[test]
    fn a_read_error_ends_the_input() {
        struct Broken(u8);
        impl Read for Broken {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                self.0 += 1;
                if self.0 == 1 {
                    buf[..3].copy_from_slice(b"a\nb");
                    Ok(3)
                } else {
                    Err(io::Error::other("broken"))
                }
            }
        }
        let mut r = LineReader::with_capacity(16, Broken(0));
        assert_eq!(r.next_line().unwrap().unwrap().1, b"a");
        assert!(r.next_line().is_err());
        assert!(r.next_line().unwrap().is_none());
    }

    /// A reader taken apart and resumed over what it had buffered and the
    /// rest of its input reads on as if it had never stopped.
    #[test]
    fn taken_apart_and_resumed_reads_on() {
        let input: &[u8] = b"one\ntwo\nthree\nfour";
        let mut r = LineReader::with_capacity(6, input);
        assert_eq!(r.next_line().unwrap().unwrap().1, b"one");
        let (rest, inner, line_no, bytes) = r.into_parts();
        assert_eq!((line_no, bytes), (1, 4));
        let mut r = LineReader::resume(6, std::io::Cursor::new(rest).chain(inner), line_no, bytes);
        let mut got = Vec::new();
        while let Some((m, l)) = r.next_line().unwrap() {
            got.push((m.no, l.to_vec(), m.unterminated));
        }
        assert_eq!(
            got,
            vec![
                (2, b"two".to_vec(), false),
                (3, b"three".to_vec(), false),
                (4, b"four".to_vec(), true)
            ]
        );
        assert_eq!(r.bytes_read(), input.len() as u64);
    }

    #[test]
    fn lf_crlf_and_unterminated() {
        let v = all(b"a\r\nbb\nccc", 100);
        assert_eq!(v.len(), 3);
        assert_eq!(v[0].1, b"a");
        assert_eq!(v[1].1, b"bb");
        assert_eq!(v[2].1, b"ccc");
        assert!(v[2].0.unterminated);
        assert!(!v[1].0.unterminated);
        assert_eq!(v[2].0.no, 3);
    }

    /// Each line's offset is where it starts in the input, whatever the
    /// line end, cut or not, and on from a resumed reader's start.
    #[test]
    fn offsets_are_where_lines_start() {
        let input = b"a\r\nbbbbbbbbbbbbbbbbbbbb\n\r\n\ncc";
        let v = all(input, 8);
        let offsets: Vec<u64> = v.iter().map(|(m, _)| m.offset).collect();
        assert_eq!(offsets, vec![0, 3, 24, 26, 27]);
        let mut r = LineReader::resume(4, &input[3..], 1, 3);
        let (m, _) = r.next_line().unwrap().unwrap();
        assert_eq!((m.no, m.offset), (2, 3));
        r.skip(0, 0);
        assert_eq!(r.next_line().unwrap().unwrap().0.offset, 24);
    }

    #[test]
    fn long_lines_are_cut_and_flagged() {
        let mut input = vec![b'x'; 50];
        input.extend_from_slice(b"\nshort\n");
        let v = all(&input, 10);
        assert_eq!(v[0].1.len(), 10);
        assert!(v[0].0.truncated);
        assert_eq!(v[0].0.full_len, 50);
        assert_eq!(v[1].1, b"short");
        assert!(!v[1].0.truncated);
    }

    #[test]
    fn buffered_lines_and_skip() {
        let mut r = LineReader::with_capacity(16, &b"aa\nbb\ncccccccccccccccccccc\ndd\n"[..]);
        let b = r.buffered_lines().unwrap().to_vec();
        assert_eq!(b, b"aa\nbb\n");
        r.skip(3, 1);
        let (m, l) = r.next_line().unwrap().unwrap();
        assert_eq!((m.no, l), (2, &b"bb"[..]));
        // Only part of the long line is buffered: nothing complete.
        assert_eq!(r.buffered_lines().unwrap(), b"");
        let (m, l) = r.next_line().unwrap().unwrap();
        assert_eq!((m.no, l.len()), (3, 20));
        assert_eq!(r.buffered_lines().unwrap(), b"dd\n");
        r.skip(3, 1);
        assert_eq!(r.line_no(), 4);
        assert!(r.next_line().unwrap().is_none());
    }

    #[test]
    fn empty_input_has_no_lines() {
        assert!(all(b"", 10).is_empty());
        assert_eq!(all(b"\n", 10).len(), 1);
    }
}
