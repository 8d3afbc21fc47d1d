//! One wrapped line taken apart (`parts`): the collector's time, the
//! console line inside, its stream and whether it goes on in the next
//! record, for each `Kind` of wrapper.

use super::{Kind, name_byte, viewer_len};
use crate::formats::console::stamp_len;
use crate::formats::flat_json::plain_text;

/// One line taken apart: the wrapper's time (if it has one), the line
/// inside, and whether the line goes on in the next record.
pub(super) struct Parts<'a> {
    pub(super) outer: Option<std::borrow::Cow<'a, [u8]>>,
    pub(super) inner: std::borrow::Cow<'a, [u8]>,
    pub(super) partial: bool,
    /// The stream the collector names (`stdout`, `stderr`), if any.
    pub(super) stream: Stream,
    /// Whether a string escape that is no character was replaced.
    pub(super) repaired: bool,
    /// The length of the console time `inner` starts with, when `parts`
    /// measured it (`--timestamps`, which must tell a console line).
    pub(super) stamp: Option<usize>,
}

impl<'a> Parts<'a> {
    /// A line whose wrapper gives no time, stream or continuation: only
    /// the console line inside.
    fn bare(inner: &'a [u8]) -> Parts<'a> {
        Parts {
            outer: None,
            inner: std::borrow::Cow::Borrowed(inner),
            partial: false,
            stream: Stream::Unnamed,
            repaired: false,
            stamp: None,
        }
    }
}

/// A collector's stream, when it names one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) enum Stream {
    #[default]
    Unnamed,
    Out,
    Err,
    Other,
}

impl Stream {
    pub(super) fn of(name: &[u8]) -> Stream {
        match name {
            b"stdout" => Stream::Out,
            b"stderr" => Stream::Err,
            _ => Stream::Other,
        }
    }
}

/// Docker's json-file record in a shape other than Docker's own (its keys
/// in another order, say): serde_json reads it.
#[derive(serde::Deserialize)]
pub(super) struct DockerRecord<'a> {
    #[serde(borrow)]
    pub(super) log: std::borrow::Cow<'a, str>,
    #[serde(borrow, default)]
    pub(super) time: Option<std::borrow::Cow<'a, str>>,
    #[serde(borrow, default)]
    pub(super) stream: Option<std::borrow::Cow<'a, str>>,
}

/// A json-file record as Docker writes every one,
/// `{"log":"<text>\n","stream":"<s>","time":"<t>"}`, taken apart in
/// place: what `serde_json` makes of it, without copying a text whose one
/// escape is its line end (`None`: any other record, or a string
/// serde_json is to judge). Read from its end, where the stream and time
/// are short, so that the text is searched once.
pub(super) fn docker_record(line: &[u8]) -> Option<Parts<'_>> {
    use std::borrow::Cow;
    let body = line.strip_prefix(b"{\"log\":\"")?.strip_suffix(b"\"}")?;
    // Neither the time nor the stream can hold a quote unescaped.
    let t = memchr::memrchr(b'"', body)?;
    let time = &body[t + 1..];
    let before = body[..=t].strip_suffix(b"\",\"time\":\"")?;
    // Docker's two streams are told without a search.
    let (raw, stream) = match before.len().checked_sub(STDOUT.len()) {
        Some(k) if before.ends_with(STDOUT) || before.ends_with(STDERR) => {
            (&before[..k], &before[k + STDOUT.len() - 6..])
        }
        _ => {
            let s = memchr::memrchr(b'"', before)?;
            let text = before[..=s].strip_suffix(b"\",\"stream\":\"")?;
            let stream = &before[s + 1..];
            (text, plain_quoted(stream).then_some(stream)?)
        }
    };
    if !plain_quoted(time) {
        return None;
    }
    let (outer, stream) = (Some(Cow::Borrowed(time)), Stream::of(stream));
    // Nearly every text: its line end the one escape. As
    // `trim_end_matches(['\n', '\r'])` of the decoded text, which a text
    // without escapes holds neither of.
    let (plain, partial) = match raw.strip_suffix(b"\\n") {
        Some(t) => (t, false),
        None => (raw, true),
    };
    if plain_quoted(plain) {
        return Some(Parts {
            outer,
            inner: Cow::Borrowed(plain),
            partial,
            stream,
            repaired: false,
            stamp: None,
        });
    }
    // Other escapes (a stack line's `\t`), decoded as serde_json decodes
    // them; the string must end where the stream begins.
    let mut text = Vec::with_capacity(raw.len());
    let end = crate::formats::flat_json::unescape_into(line, 7, &mut text)?;
    if end != 9 + raw.len() {
        return None;
    }
    let partial = text.last() != Some(&b'\n');
    while matches!(text.last(), Some(b'\n' | b'\r')) {
        text.pop();
    }
    Some(Parts {
        outer,
        inner: Cow::Owned(text),
        partial,
        stream,
        repaired: false,
        stamp: None,
    })
}

/// The end of a json-file record's text and its stream, as Docker writes
/// them.
const STDOUT: &[u8] = b"\",\"stream\":\"stdout";
const STDERR: &[u8] = b"\",\"stream\":\"stderr";

/// What a JSON string holds between its quotes when it has no escape:
/// `plain_text` with no quote or backslash. ASCII is told by comparisons
/// (`odd`) done sixteen bytes at a time, the last sixteen again for the
/// rest.
fn plain_quoted(b: &[u8]) -> bool {
    let odd = if let Some(last) = b.last_chunk::<16>() {
        let mut lanes = [0u8; 16];
        for chunk in b.as_chunks::<16>().0.iter().chain([last]) {
            for (l, &c) in lanes.iter_mut().zip(chunk) {
                *l |= odd(c);
            }
        }
        lanes.iter().fold(0, |any, &l| any | l)
    } else {
        b.iter().fold(0u8, |any, &c| any | odd(c))
    };
    odd & 0x80 == 0 || (!b.iter().any(|&c| c == b'"' || c == b'\\') && plain_text(b))
}

/// A byte whose high bit is set when it is past ASCII or below a blank
/// (one signed comparison), a quote or a backslash: comparisons the
/// compiler does sixteen bytes at a time.
#[inline(always)]
fn odd(c: u8) -> u8 {
    (u8::from((c as i8) < 0x20) | u8::from(c == b'"') | u8::from(c == b'\\')) << 7
}

/// The parts of `line` (no line end) under `kind`; `None` when the line is
/// not in the wrapper's shape (it is passed on as it is).
pub(super) fn parts(kind: Kind, line: &[u8]) -> Option<Parts<'_>> {
    use std::borrow::Cow;
    match kind {
        Kind::DockerJson => {
            if line.first() != Some(&b'{') {
                return None;
            }
            if let Some(p) = docker_record(line) {
                return Some(p);
            }
            // A string escape that is no character (`\ud800`): the record
            // is read with U+FFFD in its place (and said so), rather than
            // passed on raw and taken for the text of the record before.
            let fixed;
            let (r, repaired): (DockerRecord, bool) = match serde_json::from_slice(line) {
                Ok(r) => (r, false),
                Err(_) => {
                    fixed =
                        crate::formats::flat_json::repair_escapes(std::str::from_utf8(line).ok()?)?;
                    (serde_json::from_str(&fixed.line).ok()?, true)
                }
            };
            let partial = !r.log.ends_with('\n');
            let inner = r.log.trim_end_matches(['\n', '\r']);
            Some(Parts {
                outer: r.time.map(|t| Cow::Owned(t.as_bytes().to_vec())),
                inner: Cow::Owned(inner.as_bytes().to_vec()),
                partial,
                stream: r
                    .stream
                    .map_or(Stream::Unnamed, |s| Stream::of(s.as_bytes())),
                repaired,
                stamp: None,
            })
        }
        Kind::Cri => {
            let n = stamp_len(line)?;
            let rest = line.get(n..)?.strip_prefix(b" ")?;
            let (stream, rest) =
                match (rest.strip_prefix(b"stdout "), rest.strip_prefix(b"stderr ")) {
                    (Some(r), _) => (Stream::Out, r),
                    (None, Some(r)) => (Stream::Err, r),
                    (None, None) => return None,
                };
            // The tag: `F` or `P`, maybe with more tags after a `:`.
            let tag_end = rest.iter().position(|&b| b == b' ').unwrap_or(rest.len());
            let tag = &rest[..tag_end];
            let partial = match tag.first() {
                Some(b'P') => true,
                Some(b'F') => false,
                _ => return None,
            };
            if tag.len() > 1 && tag[1] != b':' {
                return None;
            }
            let inner = rest.get(tag_end + 1..).unwrap_or(&[]);
            Some(Parts {
                outer: Some(Cow::Borrowed(&line[..n])),
                inner: Cow::Borrowed(inner),
                partial,
                stream,
                repaired: false,
                stamp: None,
            })
        }
        Kind::KubectlPrefix => {
            let rest = line.strip_prefix(b"[pod/")?;
            let close = memchr::memchr(b']', rest)?;
            let name = &rest[..close];
            if !name.contains(&b'/') || !name.iter().all(|&b| name_byte(b) || b == b'/') {
                return None;
            }
            let inner = rest[close + 1..].strip_prefix(b" ").unwrap_or(&[]);
            Some(Parts::bare(inner))
        }
        Kind::Compose => {
            let bar = memchr::memchr(b'|', line)?;
            let name = line[..bar].trim_ascii_end();
            if name.is_empty() || !name.iter().all(|&b| name_byte(b)) {
                return None;
            }
            let rest = &line[bar + 1..];
            let inner = rest.strip_prefix(b" ").unwrap_or(rest);
            Some(Parts::bare(inner))
        }
        Kind::Viewer => {
            let n = viewer_len(line)?;
            Some(Parts::bare(&line[n..]))
        }
        Kind::Stern => {
            let mut at = 0;
            for _ in 0..2 {
                let w = line[at..].iter().take_while(|&&b| name_byte(b)).count();
                if w == 0 || line.get(at + w) != Some(&b' ') {
                    return None;
                }
                at += w + 1;
            }
            Some(Parts::bare(&line[at..]))
        }
        Kind::Timestamps => {
            let n = stamp_len(line)?;
            let inner = line.get(n..)?.strip_prefix(b" ")?;
            // `is_console(inner)`, keeping the inner time's length for the
            // reader (which then need not measure it again).
            let stamp = stamp_len(inner).filter(|&k| inner.get(k) == Some(&b' '));
            (inner.first() == Some(&b'{') || stamp.is_some()).then_some(Parts {
                outer: Some(Cow::Borrowed(&line[..n])),
                inner: Cow::Borrowed(inner),
                partial: false,
                stream: Stream::Unnamed,
                repaired: false,
                stamp,
            })
        }
    }
}
