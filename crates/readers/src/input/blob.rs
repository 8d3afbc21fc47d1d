//! Byte ranges inside files, and the readers that stream archive members
//! out of them: a window on a range, a checked inflater for zip members, a
//! size limit for gzip streams, and the anonymous spill file that holds
//! members of archives that cannot be read in place (tar.gz, archives inside
//! compressed members).
//!
//! Every reader here is independent (its own position on a shared file
//! handle) and `Send`, so `Input::open()` may be called
//! from several threads and any number of times.

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::sync::Arc;

/// Read at an absolute offset without moving any shared cursor.
#[cfg(unix)]
fn read_at(f: &File, buf: &mut [u8], off: u64) -> io::Result<usize> {
    std::os::unix::fs::FileExt::read_at(f, buf, off)
}
#[cfg(windows)]
fn read_at(f: &File, buf: &mut [u8], off: u64) -> io::Result<usize> {
    std::os::windows::fs::FileExt::seek_read(f, buf, off)
}

#[cfg(unix)]
fn write_all_at(f: &File, buf: &[u8], off: u64) -> io::Result<()> {
    std::os::unix::fs::FileExt::write_all_at(f, buf, off)
}
#[cfg(windows)]
fn write_all_at(f: &File, mut buf: &[u8], mut off: u64) -> io::Result<()> {
    while !buf.is_empty() {
        match std::os::windows::fs::FileExt::seek_write(f, buf, off) {
            Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
            Ok(n) => {
                buf = &buf[n..];
                off += n as u64;
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// `len` bytes at `offset` of a file. The handle is held open for the
/// whole run and shared by every reader, each with its own position
/// (positional reads): an archive file, so that a zip of thousands of
/// members read at once costs one file descriptor; and the anonymous spill
/// file, which has no name to open again.
#[derive(Debug, Clone)]
pub(crate) struct Range {
    pub(crate) file: Arc<File>,
    pub(crate) offset: u64,
    pub(crate) len: u64,
}

impl Range {
    pub(crate) fn shared(file: Arc<File>, len: u64) -> Range {
        Range {
            file,
            offset: 0,
            len,
        }
    }

    /// A sub-range, relative to this one (clamped to it).
    pub(crate) fn sub(&self, offset: u64, len: u64) -> Range {
        let offset = offset.min(self.len);
        Range {
            file: self.file.clone(),
            offset: self.offset + offset,
            len: len.min(self.len - offset),
        }
    }

    pub(crate) fn open(&self) -> io::Result<Window> {
        Ok(Window {
            file: self.file.clone(),
            base: self.offset,
            len: self.len,
            pos: 0,
        })
    }

    /// The first `n` bytes (fewer when the range is shorter).
    pub(crate) fn head(&self, n: usize) -> io::Result<Vec<u8>> {
        read_head(self.open()?, n)
    }

    /// The last `n` bytes (fewer when the range is shorter).
    pub(crate) fn tail(&self, n: usize) -> io::Result<Vec<u8>> {
        let mut w = self.open()?;
        let start = self.len.saturating_sub(n as u64);
        w.seek(SeekFrom::Start(start))?;
        read_head(w, n)
    }
}

/// Up to `n` bytes from the start of a reader. An error after some bytes
/// ends the head there (the reading proper meets it again, at its line).
pub(crate) fn read_head(r: impl Read, n: usize) -> io::Result<Vec<u8>> {
    read_head_sized(r, n, n as u64)
}

/// `read_head` of an input said to hold `size` bytes: the buffer starts at
/// that size (and a byte more, to see it grew) rather than at `n`, so the
/// head of a small file does not cost a zeroed `n`-byte buffer (two per
/// file for sniffing and reading). What is read is the same.
pub(crate) fn read_head_sized(mut r: impl Read, n: usize, size: u64) -> io::Result<Vec<u8>> {
    let first = usize::try_from(size.saturating_add(1)).map_or(n, |s| s.clamp(64, n.max(64)));
    let mut buf = vec![0u8; first.min(n)];
    let mut got = 0;
    while got < n {
        if got == buf.len() {
            // Longer than said (it grew): the rest of the `n` bytes.
            buf.resize(n, 0);
        }
        match r.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(k) => got += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) if got > 0 => break,
            Err(e) => return Err(e),
        }
    }
    buf.truncate(got);
    Ok(buf)
}

/// A reader over one range, with its own position.
#[derive(Debug)]
pub(crate) struct Window {
    file: Arc<File>,
    base: u64,
    len: u64,
    pos: u64,
}

impl Read for Window {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let left = self.len.saturating_sub(self.pos);
        if left == 0 || buf.is_empty() {
            return Ok(0);
        }
        let n = (buf.len() as u64).min(left) as usize;
        let got = read_at(&self.file, &mut buf[..n], self.base + self.pos)?;
        if got == 0 {
            // The file is shorter than the archive said: say so rather than
            // let a reader take the early end for the member's end.
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                format!(
                    "the archive ends {} bytes before this member does (truncated archive?)",
                    left
                ),
            ));
        }
        self.pos += got as u64;
        Ok(got)
    }
}

impl Seek for Window {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        let new = match to {
            SeekFrom::Start(n) => Some(n),
            SeekFrom::End(d) => self.len.checked_add_signed(d),
            SeekFrom::Current(d) => self.pos.checked_add_signed(d),
        };
        match new {
            Some(n) => {
                self.pos = n;
                Ok(n)
            }
            None => Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "seek before the start of the range",
            )),
        }
    }
}

/// How a zip member's bytes are stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Method {
    Stored,
    Deflated,
}

/// One zip member, located once when the central directory was read.
#[derive(Debug, Clone)]
pub(crate) struct ZipMember {
    /// The compressed bytes.
    pub(crate) data: Range,
    pub(crate) method: Method,
    /// Uncompressed size and CRC-32 as the central directory declares them.
    pub(crate) size: u64,
    pub(crate) crc: u32,
}

impl ZipMember {
    pub(crate) fn open(&self) -> io::Result<Box<dyn Read + Send>> {
        let w = self.data.open()?;
        let inner: Box<dyn Read + Send> = match self.method {
            Method::Stored => Box::new(w),
            Method::Deflated => Box::new(flate2::read::DeflateDecoder::new(w)),
        };
        Ok(Box::new(Checked {
            inner,
            declared: self.size,
            crc_expected: self.crc,
            crc: flate2::Crc::new(),
            count: 0,
            done: false,
        }))
    }
}

/// Counts and checksums a zip member as it is read. The declared size
/// bounds the output (a member that inflates past it is refused: that is
/// how a zip bomb with a lying header is stopped), and the CRC is checked
/// at the end.
struct Checked {
    inner: Box<dyn Read + Send>,
    declared: u64,
    crc_expected: u32,
    crc: flate2::Crc,
    count: u64,
    done: bool,
}

impl Read for Checked {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.done || buf.is_empty() {
            return Ok(0);
        }
        // Ask for one byte more than declared, to see whether there is more.
        let room = (self.declared - self.count).saturating_add(1);
        let want = (buf.len() as u64).min(room) as usize;
        let n = self.inner.read(&mut buf[..want])?;
        if n == 0 {
            if self.count < self.declared {
                return Err(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    format!(
                        "zip member ends after {} of its declared {} bytes: corrupt or truncated archive",
                        self.count, self.declared
                    ),
                ));
            }
            if self.crc.sum() != self.crc_expected {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!(
                        "zip member fails its CRC check (stored {:08x}, computed {:08x}): the member is corrupt",
                        self.crc_expected,
                        self.crc.sum()
                    ),
                ));
            }
            self.done = true;
            return Ok(0);
        }
        if self.count + n as u64 > self.declared {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "zip member expands beyond its declared size of {} bytes: refused (corrupt or hostile archive)",
                    self.declared
                ),
            ));
        }
        self.crc.update(&buf[..n]);
        self.count += n as u64;
        Ok(n)
    }
}

/// Stops a decompressing stream that produces more than `limit` bytes.
pub(crate) struct Limit<R> {
    pub(crate) inner: R,
    pub(crate) limit: u64,
    pub(crate) count: u64,
    /// Says why the limit is what it is, for the error message.
    pub(crate) why: Arc<str>,
}

impl<R: Read> Limit<R> {
    pub(crate) fn new(inner: R, limit: u64, why: impl Into<Arc<str>>) -> Self {
        Limit {
            inner,
            limit,
            count: 0,
            why: why.into(),
        }
    }
}

impl<R: Read> Read for Limit<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        let room = self.limit.saturating_sub(self.count).saturating_add(1);
        let want = (buf.len() as u64).min(room) as usize;
        let n = self.inner.read(&mut buf[..want])?;
        self.count += n as u64;
        if self.count > self.limit {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "decompressed data exceeds {} bytes ({}): refused as a likely decompression bomb",
                    self.limit, self.why
                ),
            ));
        }
        Ok(n)
    }
}

/// The anonymous temporary file that members are unpacked into when they
/// cannot be read in place. It has no name in the file system (unlinked at
/// creation, or O_TMPFILE, or delete-on-close on Windows), so nothing is
/// left behind however the run ends, even when killed.
#[derive(Debug)]
pub(crate) struct Spill {
    file: Arc<File>,
    end: u64,
}

impl Spill {
    pub(crate) fn new() -> io::Result<Spill> {
        Ok(Spill {
            file: Arc::new(tempfile::tempfile()?),
            end: 0,
        })
    }

    /// Bytes written so far.
    pub(crate) fn written(&self) -> u64 {
        self.end
    }

    /// Copy a stream to the end of the spill file; the range it occupies.
    /// On error what was written of it is given back to the file system
    /// at once (a refused member must not hold its bytes until the run
    /// ends) and no longer counts as written.
    /// Unpacked bytes are counted on `meter` as they are written.
    pub(crate) fn append(
        &mut self,
        mut r: impl Read,
        meter: Option<&mqdiag_model::meter::Meter>,
    ) -> Result<Range, SpillError> {
        let start = self.end;
        let mut buf = vec![0u8; 256 * 1024];
        loop {
            let n = match r.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    let copied = self.end - start;
                    self.release(start);
                    return Err(SpillError::Read { error: e, copied });
                }
            };
            if let Err(e) = write_all_at(&self.file, &buf[..n], self.end) {
                self.release(start);
                return Err(SpillError::Write(e));
            }
            self.end += n as u64;
            if let Some(m) = meter {
                m.unpacked(n as u64);
            }
        }
        Ok(Range {
            file: self.file.clone(),
            offset: start,
            len: self.end - start,
        })
    }
}

impl Spill {
    /// Cut the file back to `start`.
    fn release(&mut self, start: u64) {
        // A failed cut leaves the bytes counted: the budget still holds.
        if self.file.set_len(start).is_ok() {
            self.end = start;
        }
    }
}

/// Why a member could not be spilled.
#[derive(Debug)]
pub(crate) enum SpillError {
    /// Reading the member failed (corrupt, truncated, over a limit).
    Read { error: io::Error, copied: u64 },
    /// Writing the temporary file failed (disk full, say).
    Write(io::Error),
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    /// A head sized by what the input says it holds reads what one sized
    /// by `n` reads, whether the input is that size, shorter or longer
    /// (grown since), and in small pieces.
    #[test]
    fn a_head_sized_by_the_input_reads_the_same_bytes() {
        let data: Vec<u8> = (0..40_000u32).map(|i| (i % 251) as u8).collect();
        for len in [0, 1, 63, 64, 65, 700, 16_384, 16_385, 40_000] {
            let src = &data[..len];
            for said in [0, 10, len as u64, len as u64 + 1, 1 << 40, u64::MAX] {
                for n in [0, 512, 16_384, 65_536] {
                    let want = read_head(src, n).unwrap();
                    assert_eq!(want.len(), len.min(n));
                    let got = read_head_sized(src, n, said).unwrap();
                    assert_eq!(got, want, "len {len} said {said} n {n}");
                    let pieces = io::Read::chain(&src[..len / 3], &src[len / 3..]);
                    assert_eq!(read_head_sized(pieces, n, said).unwrap(), want);
                }
            }
        }
    }

    fn temp_with(bytes: &[u8]) -> (tempfile::TempDir, std::path::PathBuf) {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("f");
        std::fs::File::create(&p).unwrap().write_all(bytes).unwrap();
        (d, p)
    }

    fn whole_file(path: &std::path::Path, len: u64) -> Range {
        Range::shared(Arc::new(File::open(path).unwrap()), len)
    }

    #[test]
    fn window_reads_and_seeks_within_its_range() {
        let (_d, p) = temp_with(b"0123456789");
        let r = whole_file(&p, 10).sub(2, 5);
        let mut s = String::new();
        r.open().unwrap().read_to_string(&mut s).unwrap();
        assert_eq!(s, "23456");
        let mut w = r.open().unwrap();
        w.seek(SeekFrom::End(-2)).unwrap();
        let mut s = String::new();
        w.read_to_string(&mut s).unwrap();
        assert_eq!(s, "56");
        assert_eq!(r.tail(3).unwrap(), b"456");
        assert_eq!(r.head(100).unwrap(), b"23456");
    }

    #[test]
    fn window_past_the_end_of_the_file_is_an_error_not_an_early_end() {
        let (_d, p) = temp_with(b"0123");
        let r = whole_file(&p, 10);
        let mut v = Vec::new();
        let e = r.open().unwrap().read_to_end(&mut v).unwrap_err();
        assert!(e.to_string().contains("ends 6 bytes before"), "{e}");
        assert_eq!(v, b"0123");
    }

    fn deflate(data: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    fn member(bytes: &[u8], size: u64, crc: u32) -> (tempfile::TempDir, ZipMember) {
        let (d, p) = temp_with(bytes);
        let m = ZipMember {
            data: whole_file(&p, bytes.len() as u64),
            method: Method::Deflated,
            size,
            crc,
        };
        (d, m)
    }

    fn crc_of(b: &[u8]) -> u32 {
        let mut c = flate2::Crc::new();
        c.update(b);
        c.sum()
    }

    #[test]
    fn checked_member_reads_when_size_and_crc_agree() {
        let text = b"hello hello hello\n".repeat(100);
        let (_d, m) = member(&deflate(&text), text.len() as u64, crc_of(&text));
        let mut out = Vec::new();
        m.open().unwrap().read_to_end(&mut out).unwrap();
        assert_eq!(out, text);
    }

    #[test]
    fn checked_member_refuses_lies_and_corruption() {
        let text = b"hello hello hello\n".repeat(100);
        let z = deflate(&text);
        // Declared smaller than it inflates to: the zip-bomb case.
        let (_d, m) = member(&z, 100, crc_of(&text));
        let mut out = Vec::new();
        let e = m.open().unwrap().read_to_end(&mut out).unwrap_err();
        assert!(
            e.to_string().contains("beyond its declared size of 100"),
            "{e}"
        );
        assert!(out.len() <= 100);
        // Declared larger than it is.
        let (_d, m) = member(&z, 5000, crc_of(&text));
        let e = m.open().unwrap().read_to_end(&mut Vec::new()).unwrap_err();
        assert!(
            e.to_string()
                .contains("ends after 1800 of its declared 5000"),
            "{e}"
        );
        // Wrong CRC.
        let (_d, m) = member(&z, text.len() as u64, 0x1234_5678);
        let e = m.open().unwrap().read_to_end(&mut Vec::new()).unwrap_err();
        assert!(e.to_string().contains("stored 12345678"), "{e}");
    }

    #[test]
    fn limit_stops_a_stream_at_its_cap() {
        let data = vec![0u8; 1000];
        let mut l = Limit::new(&data[..], 999, "test cap");
        let e = io::copy(&mut l, &mut io::sink()).unwrap_err();
        assert!(
            e.to_string().contains("exceeds 999 bytes (test cap)"),
            "{e}"
        );
        let mut l = Limit::new(&data[..], 1000, "test cap");
        assert_eq!(io::copy(&mut l, &mut io::sink()).unwrap(), 1000);
    }

    #[test]
    fn spill_ranges_are_independent() {
        let mut s = Spill::new().unwrap();
        let a = s.append(&b"first"[..], None).unwrap();
        let b = s.append(&b"second"[..], None).unwrap();
        assert_eq!(b.offset, 5);
        let mut ra = a.open().unwrap();
        let mut rb = b.open().unwrap();
        let mut x = [0u8; 3];
        ra.read_exact(&mut x).unwrap();
        assert_eq!(&x, b"fir");
        let mut y = String::new();
        rb.read_to_string(&mut y).unwrap();
        assert_eq!(y, "second");
        let mut rest = String::new();
        ra.read_to_string(&mut rest).unwrap();
        assert_eq!(rest, "st");
    }

    #[test]
    fn a_refused_spill_gives_its_bytes_back_at_once() {
        let mut s = Spill::new().unwrap();
        s.append(&b"kept"[..], None).unwrap();
        let data = vec![7u8; 600 << 10];
        let e = s.append(Limit::new(&data[..], 500 << 10, "test cap"), None);
        assert!(matches!(e, Err(SpillError::Read { copied, .. }) if copied > 0));
        assert_eq!(s.written(), 4);
        assert_eq!(s.file.metadata().unwrap().len(), 4);
        let c = s.append(&b"next"[..], None).unwrap();
        assert_eq!(c.offset, 4);
    }
}
