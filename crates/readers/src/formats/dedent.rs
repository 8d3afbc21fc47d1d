//! Text as people paste it: every line indented alike (tabs from a test's
//! output, spaces from a list or a quoted block). Sniffing finds the
//! indentation common to the first lines (`common_indent`); when the
//! file without it is more clearly in a format than with it, the input is
//! read through `Dedent`, which takes it off every line that has it (as a
//! byte stream for readers that read bytes, line by line for the line
//! formats, whose line numbers and offsets stay the file's), and the
//! file's row says so (`Noted`).

use crate::input::{Filter, Input, Location};
use crate::lines::{Filtered, LineFilter, MAX_LINE};
use crate::source::Source;
use mqdiag_model::event::Event;
use mqdiag_model::fileinfo::FileInfo;
use std::io::Read;
use std::sync::Arc;

/// The blanks (spaces and tabs) every non-blank line of `head` starts
/// with, when there are some and at least two such lines. A full head's
/// last line may be cut: it is not counted.
pub(crate) fn common_indent(head: &[u8], full: bool) -> Option<Vec<u8>> {
    // Lazily: most files' first line is not indented, and that ends it.
    let mut lines = head.split(|&b| b == b'\n').peekable();
    let mut prefix: Option<&[u8]> = None;
    let mut count = 0;
    while let Some(l) = lines.next() {
        if full && lines.peek().is_none() {
            break;
        }
        let l = l.strip_suffix(b"\r").unwrap_or(l);
        if l.iter().all(|b| b.is_ascii_whitespace()) {
            continue;
        }
        let lead = l.iter().take_while(|&&b| b == b' ' || b == b'\t').count();
        let mine = &l[..lead];
        prefix = Some(match prefix {
            None => mine,
            Some(p) => {
                let same = p.iter().zip(mine).take_while(|(a, b)| a == b).count();
                &p[..same]
            }
        });
        if prefix.is_some_and(|p| p.is_empty()) {
            return None;
        }
        count += 1;
    }
    let p = prefix?;
    (count >= 2 && !p.is_empty()).then(|| p.to_vec())
}

/// `head` with `prefix` taken off each line that starts with it.
pub(crate) fn dedent_head(head: &[u8], prefix: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(head.len());
    for (i, l) in head.split(|&b| b == b'\n').enumerate() {
        if i > 0 {
            out.push(b'\n');
        }
        out.extend_from_slice(l.strip_prefix(prefix).unwrap_or(l));
    }
    out
}

/// How a row says which indentation was taken off: `a tab`, `4 spaces`.
pub(crate) fn describe(prefix: &[u8]) -> String {
    let tabs = prefix.iter().filter(|&&b| b == b'\t').count();
    let spaces = prefix.len() - tabs;
    let n = |k: usize, one: &str, many: &str| match k {
        1 => format!("a {one}"),
        k => format!("{k} {many}"),
    };
    match (tabs, spaces) {
        (t, 0) => n(t, "tab", "tabs"),
        (0, s) => n(s, "space", "spaces"),
        (t, s) => format!("{} and {}", n(t, "tab", "tabs"), n(s, "space", "spaces")),
    }
}

/// The input read without `prefix` at the start of its lines.
pub(crate) fn dedented(mut input: Input, prefix: Vec<u8>) -> Input {
    let inner = std::mem::replace(&mut input.location, Location::Memory(Arc::from(&[][..])));
    input.location = Location::Unwrapped {
        inner: Box::new(inner),
        wrapper: Arc::new(Dedent(prefix.into())),
    };
    input
}

/// The filter taking a common indentation off.
#[derive(Debug)]
pub(crate) struct Dedent(Arc<[u8]>);

impl Filter for Dedent {
    fn reader(&self, r: Box<dyn Read + Send>) -> Box<dyn Read + Send> {
        Box::new(DedentRead {
            inner: r,
            prefix: self.0.clone(),
            matched: Some(0),
            buf: vec![0; 64 << 10],
            out: Vec::new(),
            at: 0,
        })
    }

    fn lines(&self) -> Box<dyn LineFilter> {
        Box::new(DedentLines(self.0.clone()))
    }
}

struct DedentLines(Arc<[u8]>);

impl LineFilter for DedentLines {
    fn max_line(&self) -> usize {
        MAX_LINE
    }

    fn line<'a>(&'a mut self, line: &'a [u8], _cut: bool) -> Filtered<'a> {
        Filtered {
            held: None,
            line: Some(line.strip_prefix(&self.0[..]).unwrap_or(line)),
            stamp: None,
        }
    }

    fn finish(&mut self) -> Option<&[u8]> {
        None
    }
}

/// The byte stream without the prefix at each line's start.
struct DedentRead {
    inner: Box<dyn Read + Send>,
    prefix: Arc<[u8]>,
    /// At a line's start: how many bytes of the prefix were seen so far.
    matched: Option<usize>,
    buf: Vec<u8>,
    /// Bytes ready, from `at` on.
    out: Vec<u8>,
    at: usize,
}

impl Read for DedentRead {
    fn read(&mut self, dst: &mut [u8]) -> std::io::Result<usize> {
        while self.at == self.out.len() {
            self.out.clear();
            self.at = 0;
            let n = self.inner.read(&mut self.buf)?;
            if n == 0 {
                // A last line that was only part of the prefix.
                if let Some(k) = self.matched.take() {
                    self.out.extend_from_slice(&self.prefix[..k]);
                }
                if self.out.is_empty() {
                    return Ok(0);
                }
                break;
            }
            for &b in &self.buf[..n] {
                if let Some(k) = self.matched {
                    if b == self.prefix[k] {
                        self.matched = (k + 1 < self.prefix.len()).then_some(k + 1);
                        continue;
                    }
                    self.out.extend_from_slice(&self.prefix[..k]);
                    self.matched = None;
                }
                self.out.push(b);
                if b == b'\n' {
                    self.matched = Some(0);
                }
            }
        }
        let n = dst.len().min(self.out.len() - self.at);
        dst[..n].copy_from_slice(&self.out[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// A source whose rows say which of its files were read without their
/// common indentation (by display path).
pub(crate) struct Noted {
    pub(crate) inner: Box<dyn Source>,
    pub(crate) dedented: Vec<(Arc<str>, String)>,
}

impl Source for Noted {
    fn next_event(&mut self) -> Option<Event> {
        self.inner.next_event()
    }

    fn finish(self: Box<Self>) -> Vec<FileInfo> {
        let mut infos = self.inner.finish();
        for info in &mut infos {
            if let Some((_, what)) = self.dedented.iter().find(|(p, _)| **p == *info.path) {
                info.note(format!(
                    "every line was indented by {what}: taken off before reading"
                ));
                let base = info.variant.take().unwrap_or_default();
                let sep = if base.is_empty() { "" } else { ", " };
                info.variant = Some(format!("{base}{sep}indented"));
            }
        }
        infos
    }

    fn current_origin(&self) -> Option<Arc<mqdiag_model::event::Origin>> {
        self.inner.current_origin()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indentation_common_to_the_lines() {
        assert_eq!(common_indent(b"\ta\n\tb\n", false), Some(b"\t".to_vec()));
        assert_eq!(
            common_indent(b"    a\n  b\n\n    c\n", false),
            Some(b"  ".to_vec())
        );
        assert_eq!(common_indent(b"  a\nb\n", false), None);
        // One line is not enough; a full head's last line does not count.
        assert_eq!(common_indent(b"  a\n", false), None);
        assert_eq!(
            common_indent(b"  a\n  b\n  c\nd", true),
            Some(b"  ".to_vec())
        );
        assert_eq!(common_indent(b"  a\n  b\nd", false), None);
        assert_eq!(dedent_head(b"\ta\n\tb\nc", b"\t"), b"a\nb\nc");
        assert_eq!(describe(b"\t"), "a tab");
        assert_eq!(describe(b"    "), "4 spaces");
        assert_eq!(describe(b"\t  "), "a tab and 2 spaces");
    }

    #[test]
    fn the_stream_reads_as_the_lines() {
        let text = b"    one\n  two\n    three\n\n    \n    four  x\n  ";
        let prefix: Arc<[u8]> = Arc::from(&b"    "[..]);
        let d = Dedent(prefix.clone());
        // Read in small pieces: the prefix may be split across reads.
        struct Drip(std::io::Cursor<Vec<u8>>);
        impl Read for Drip {
            fn read(&mut self, b: &mut [u8]) -> std::io::Result<usize> {
                let n = b.len().min(3);
                self.0.read(&mut b[..n])
            }
        }
        let mut r = d.reader(Box::new(Drip(std::io::Cursor::new(text.to_vec()))));
        let mut got = Vec::new();
        r.read_to_end(&mut got).unwrap();
        let mut lines = d.lines();
        let want: Vec<u8> = text
            .split(|&b| b == b'\n')
            .map(|l| lines.line(l, false).line.unwrap().to_vec())
            .collect::<Vec<_>>()
            .join(&b'\n');
        assert_eq!(
            String::from_utf8_lossy(&got),
            String::from_utf8_lossy(&want)
        );
        assert_eq!(got, b"one\n  two\nthree\n\n\nfour  x\n  ");
    }
}
