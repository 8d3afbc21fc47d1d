//! Gzip streams as collected files have them: one or more members, then
//! perhaps zero bytes of padding (tape and block devices add them, and
//! `gzip -t` accepts them), perhaps cut short or followed by other bytes.
//! Read as far as the data goes; what follows the last member that is not
//! padding, and a cut, end the stream with an error that the reader shows
//! as a located problem.

use std::io::{self, BufRead, BufReader, Read};

/// The decompressed bytes of every member of a gzip stream. An error ends
/// the stream and is returned again on every later read (a line reader
/// that asks twice still sees it).
pub(crate) struct GzMembers<R: Read> {
    dec: Option<flate2::bufread::GzDecoder<BufReader<Counting<R>>>>,
    failed: Option<(io::ErrorKind, String)>,
    ended: bool,
}

/// Counts the compressed bytes read, to say where trailing data starts.
struct Counting<R> {
    inner: R,
    n: u64,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let k = self.inner.read(buf)?;
        self.n += k as u64;
        Ok(k)
    }
}

impl<R: Read> GzMembers<R> {
    pub(crate) fn new(r: R) -> Self {
        GzMembers {
            dec: Some(flate2::bufread::GzDecoder::new(BufReader::new(Counting {
                inner: r,
                n: 0,
            }))),
            failed: None,
            ended: false,
        }
    }

    fn next(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            let Some(dec) = self.dec.as_mut() else {
                return Ok(0);
            };
            let n = dec.read(buf).map_err(|e| {
                if e.kind() == io::ErrorKind::UnexpectedEof {
                    io::Error::new(
                        io::ErrorKind::UnexpectedEof,
                        "the gzip data is cut short: read up to the cut",
                    )
                } else {
                    e
                }
            })?;
            if n > 0 {
                return Ok(n);
            }
            // A member ended: another one, padding, the end, or other bytes.
            let mut r = self.dec.take().expect("decoder").into_inner();
            let mut padding = false;
            loop {
                let b = r.fill_buf()?;
                if b.is_empty() {
                    self.ended = true;
                    return Ok(0);
                }
                if b[0] == 0 {
                    let z = b.iter().take_while(|&&x| x == 0).count();
                    r.consume(z);
                    padding = true;
                    continue;
                }
                if padding || b[0] != 0x1f {
                    let at = r.get_ref().n - r.buffer().len() as u64;
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidData,
                        format!(
                            "data after the end of the gzip stream (from compressed byte {at}): not read"
                        ),
                    ));
                }
                break;
            }
            self.dec = Some(flate2::bufread::GzDecoder::new(r));
        }
    }
}

impl<R: Read> Read for GzMembers<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if let Some((k, m)) = &self.failed {
            return Err(io::Error::new(*k, m.clone()));
        }
        if self.ended || buf.is_empty() {
            return Ok(0);
        }
        self.next(buf).inspect_err(|e| {
            self.failed = Some((e.kind(), e.to_string()));
            self.dec = None;
        })
    }
}

/// How many bytes the gzip stream `r` gives, counting at most `cap + 1`:
/// `Some(n)` when it ends (cleanly or not) within `cap`, `None` past it.
pub(crate) fn usable_len(r: impl Read, cap: u64) -> Option<u64> {
    let mut g = GzMembers::new(r).take(cap + 1);
    let mut buf = vec![0u8; 64 << 10];
    let mut n = 0u64;
    loop {
        match g.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(k) => n += k as u64,
        }
    }
    (n <= cap).then_some(n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn gz(data: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    fn read(b: &[u8]) -> (Vec<u8>, Option<String>) {
        let mut out = Vec::new();
        let mut g = GzMembers::new(b);
        let mut buf = [0u8; 100];
        loop {
            match g.read(&mut buf) {
                Ok(0) => return (out, None),
                Ok(n) => out.extend_from_slice(&buf[..n]),
                Err(e) => return (out, Some(e.to_string())),
            }
        }
    }

    #[test]
    fn members_padding_cuts_and_trailing_bytes() {
        let text = b"line one\nline two\n".repeat(500);
        let one = gz(&text);
        let mut two = one.clone();
        two.extend_from_slice(&gz(b"more\n"));
        assert_eq!(read(&two).0.len(), text.len() + 5);
        assert_eq!(read(&two).1, None);
        let mut padded = one.clone();
        padded.extend_from_slice(&[0; 512]);
        assert_eq!(read(&padded), (text.clone(), None));
        let mut junk = one.clone();
        junk.extend_from_slice(b"garbage");
        let (got, err) = read(&junk);
        assert_eq!(got, text);
        let err = err.unwrap();
        assert!(err.contains("after the end of the gzip stream"), "{err}");
        assert!(err.contains(&format!("byte {}", one.len())), "{err}");
        let mut pad_junk = padded.clone();
        pad_junk.push(7);
        assert!(read(&pad_junk).1.is_some());
        let (got, err) = read(&one[..one.len() / 2]);
        assert!(got.len() < text.len() && text.starts_with(&got));
        assert!(err.unwrap().contains("cut short"), "cut");
        assert_eq!(usable_len(&padded[..], 1 << 20), Some(text.len() as u64));
        assert_eq!(usable_len(&padded[..], 100), None);
    }
}
