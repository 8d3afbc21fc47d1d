//! The wrappers that log collectors put around an MQ container's console
//! lines, recognised by the MQ console underneath and taken off line by
//! line before the container-log reader reads the lines:
//!
//! * `docker compose` / `docker-compose` service prefixes
//!   (`mq_1       | <line>`, `mq-1  | <line>`, colour codes dropped);
//! * `kubectl logs --prefix` (`[pod/<pod>/<container>] <line>`);
//! * `stern` (`<pod> <container> <line>`);
//! * a log viewer's local time before each line (`2024-08-12 14:02:43
//!   <line>`, Docker Desktop): it states no zone and is dropped;
//! * Docker's json-file driver (`/var/lib/docker/containers/*/*-json.log`:
//!   `{"log":"<line>\n","stream":"stdout","time":"<RFC 3339>"}`, a line
//!   without its `\n` continued by the next record);
//! * the CRI format of `/var/log/containers/*.log` and `/var/log/pods/**`
//!   (`<RFC 3339 nanos> stdout F <line>`, `P` partial lines joined);
//! * after any of these, or alone, a `--timestamps` stamp of `kubectl logs`
//!   or `docker logs` before the line.
//!
//! The container's own time on a line wins: mq-container stamps every
//! console line (`pkg/logger/logger.go`: `ibm_datetime` in the format
//! `2006-01-02T15:04:05.000Z07:00`, `basic` lines `<ibm_datetime>
//! <message>`; `cmd/runmqserver/logging.go` `formatBasic` for the mirrored
//! error-log, web-server (Liberty) and `mqsimpleauth` records; JSON lines
//! carry `ibm_datetime`, `type` `mq_containerlog` or `mq_log`). A line with
//! no time of its own (a program's stack dump) takes the wrapper's time
//! when the wrapper has one (Docker, CRI, `--timestamps`), unless the
//! collector wrote it in the same second and on the same stream as the
//! line before it, which it then continues as in the bare console (the
//! lines of a stack dump under the record that printed it); without a
//! wrapper's time it continues the line before. Every input line stays one line, so that `file:line`
//! points at the collected file: a joined partial line is read at its first
//! line, the lines it took in are left empty.

use super::Source;
use super::container_log::stamp_len;
use crate::event::Event;
use crate::fileinfo::FileInfo;
use crate::input::{Input, Location};
use std::io::{self, BufRead, BufReader, Read};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// The longest joined line kept whole (partial lines beyond it are passed
/// on as they are): the line reader cuts longer lines anyway.
const MAX_JOINED: usize = 4 * crate::lines::MAX_LINE;

/// Which collector wrapped the lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    DockerJson,
    Cri,
    KubectlPrefix,
    Compose,
    Viewer,
    Stern,
    /// Only a `--timestamps` stamp before each line.
    Timestamps,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::DockerJson => "docker json-file",
            Kind::Cri => "cri",
            Kind::KubectlPrefix => "kubectl --prefix",
            Kind::Compose => "docker compose",
            Kind::Viewer => "log viewer stamps",
            Kind::Stern => "stern",
            Kind::Timestamps => "--timestamps",
        }
    }

    /// Whether the wrapper carries a time with a zone of its own.
    fn has_clock(self) -> bool {
        matches!(self, Kind::DockerJson | Kind::Cri | Kind::Timestamps)
    }
}

/// What was taken off the lines of one file, counted as it is read.
#[derive(Debug, Default)]
pub struct Stats {
    /// Lines read with the container's own time.
    own: AtomicU64,
    /// Lines given the wrapper's time (none of their own).
    outer: AtomicU64,
    /// Lines that had a `--timestamps` stamp under the wrapper.
    stamped: AtomicU64,
}

/// A recognised wrapper and the counts of its file.
#[derive(Debug, Clone)]
pub struct Wrapper {
    pub kind: Kind,
    /// Viewer stamps: how far the viewer's local time is from the
    /// container's UTC on the first line (`+05:30`).
    viewer_offset: Option<String>,
    stats: Arc<Stats>,
}

impl crate::input::Filter for Wrapper {
    fn reader(&self, r: Box<dyn Read + Send>) -> Box<dyn Read + Send> {
        Wrapper::reader(self, r)
    }

    /// Every input line stays one line (see the module docs).
    fn reader_noting(
        &self,
        r: Box<dyn Read + Send>,
        starts: &crate::encoding::RawStarts,
    ) -> Box<dyn Read + Send> {
        self.unwrap(r, Some(starts.line_ends()))
    }
}

impl Wrapper {
    /// A reader of the unwrapped lines of `r`.
    pub fn reader(&self, r: Box<dyn Read + Send>) -> Box<dyn Read + Send> {
        self.unwrap(r, None)
    }

    fn unwrap(
        &self,
        r: Box<dyn Read + Send>,
        ends: Option<crate::encoding::RawEnds>,
    ) -> Box<dyn Read + Send> {
        Box::new(Unwrap {
            inner: BufReader::with_capacity(256 * 1024, r),
            stats: self.stats.clone(),
            line: Vec::new(),
            lines: Unwrapping {
                kind: self.kind,
                counts: [0; 3],
                follow: Follow::default(),
                joined: Vec::new(),
                joined_lines: 0,
                joined_outer: None,
                joined_stream: Stream::Unnamed,
                out: Vec::new(),
            },
            at: 0,
            eof: false,
            failed: None,
            ends,
        })
    }

    /// What `inventory` says: the wrapper and the clock the events carry.
    pub fn describe(&self) -> String {
        let own = self.stats.own.load(Ordering::Relaxed);
        let outer = self.stats.outer.load(Ordering::Relaxed);
        let mut name = self.kind.name().to_string();
        if self.kind != Kind::Timestamps && self.stats.stamped.load(Ordering::Relaxed) > 0 {
            name.push_str(" with --timestamps");
        }
        let clock = match (&self.viewer_offset, own, outer) {
            (Some(off), _, _) => format!(
                "the container's own times (the viewer's local times, {off} from them, dropped)"
            ),
            (None, _, 0) => "the container's own times".to_string(),
            (None, 0, n) => format!("the wrapper's times ({n} line(s) without their own)"),
            (None, _, n) => format!(
                "the container's own times; the wrapper's for {n} line(s) without their own"
            ),
        };
        format!("in {name}, clock: {clock}")
    }
}

/// Remove terminal colour codes (`ESC [ ... m`), which `docker compose`
/// and `stern` put around their prefixes.
fn strip_ansi(line: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(line.len());
    let mut i = 0;
    while i < line.len() {
        if line[i] == 0x1b && line.get(i + 1) == Some(&b'[') {
            let mut j = i + 2;
            while j < line.len() && (line[j].is_ascii_digit() || line[j] == b';') {
                j += 1;
            }
            if line.get(j) == Some(&b'm') {
                i = j + 1;
                continue;
            }
        }
        out.push(line[i]);
        i += 1;
    }
    out
}

/// A line of the console itself: a time then text, or a JSON record.
fn is_console(s: &[u8]) -> bool {
    s.first() == Some(&b'{') || stamp_len(s).is_some_and(|n| s.get(n) == Some(&b' '))
}

/// `2024-08-12 14:02:43[.fff] `: the length of a viewer's stamp and blank.
fn viewer_len(s: &[u8]) -> Option<usize> {
    let d = |i: usize| s.get(i).is_some_and(u8::is_ascii_digit);
    let ok = (0..4).all(d)
        && s.get(4) == Some(&b'-')
        && d(5)
        && d(6)
        && s.get(7) == Some(&b'-')
        && d(8)
        && d(9)
        && s.get(10) == Some(&b' ')
        && d(11)
        && d(12)
        && s.get(13) == Some(&b':')
        && d(14)
        && d(15)
        && s.get(16) == Some(&b':')
        && d(17)
        && d(18);
    if !ok {
        return None;
    }
    let mut i = 19;
    if s.get(i) == Some(&b'.') {
        i += 1;
        while d(i) {
            i += 1;
        }
    }
    (s.get(i) == Some(&b' ')).then_some(i + 1)
}

/// A Kubernetes or Compose name character.
fn name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.')
}

/// One line taken apart: the wrapper's time (if it has one), the line
/// inside, and whether the line goes on in the next record.
struct Parts<'a> {
    outer: Option<std::borrow::Cow<'a, [u8]>>,
    inner: std::borrow::Cow<'a, [u8]>,
    partial: bool,
    /// The stream the collector names (`stdout`, `stderr`), if any.
    stream: Stream,
}

/// A collector's stream, when it names one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum Stream {
    #[default]
    Unnamed,
    Out,
    Err,
    Other,
}

impl Stream {
    fn of(name: &[u8]) -> Stream {
        match name {
            b"stdout" => Stream::Out,
            b"stderr" => Stream::Err,
            _ => Stream::Other,
        }
    }
}

/// Docker's json-file record.
#[derive(serde::Deserialize)]
struct DockerRecord<'a> {
    #[serde(borrow)]
    log: std::borrow::Cow<'a, str>,
    #[serde(borrow, default)]
    time: Option<std::borrow::Cow<'a, str>>,
    #[serde(borrow, default)]
    stream: Option<std::borrow::Cow<'a, str>>,
}

/// A JSON string's text up to its closing quote at the start of `s`, when
/// it holds no escape and nothing JSON refuses in a string: the text and
/// what follows the quote.
fn plain_string(s: &[u8]) -> Option<(&[u8], &[u8])> {
    let end = memchr::memchr2(b'"', b'\\', s)?;
    let text = &s[..end];
    (s[end] == b'"' && plain_text(text)).then(|| (text, &s[end + 1..]))
}

/// No byte below a blank (JSON refuses them unescaped in a string): a
/// fold without an early exit, which the compiler does many at a time.
fn no_controls(b: &[u8]) -> bool {
    !b.iter().fold(false, |any, &c| any | (c < 0x20))
}

/// No control byte, and UTF-8: what JSON takes unescaped in a string.
/// ASCII without controls, nearly every line, is told by one fold of byte
/// arithmetic (the high bit of `c - 0x20` is set below a blank, and of `c`
/// past ASCII), which the compiler does many bytes at a time.
fn plain_text(b: &[u8]) -> bool {
    let odd = b.iter().fold(0u8, |any, &c| any | c | c.wrapping_sub(0x20));
    odd & 0x80 == 0 || (no_controls(b) && std::str::from_utf8(b).is_ok())
}

/// A json-file record as Docker writes nearly every one,
/// `{"log":"<text>\n","stream":"<s>","time":"<t>"}` with no other escape
/// in it, taken apart in place: what `serde_json` makes of it, without
/// copying the line twice (`None`: any other record, left to it).
fn docker_plain(line: &[u8]) -> Option<Parts<'_>> {
    use std::borrow::Cow;
    let rest = line.strip_prefix(b"{\"log\":\"")?;
    // The text, then its line end: the one escape of a whole line.
    let end = memchr::memchr2(b'"', b'\\', rest)?;
    let (text, partial, rest) = match rest[end..].strip_prefix(b"\\n\"") {
        Some(after) => (&rest[..end], false, after),
        None if rest[end] == b'"' => (&rest[..end], true, &rest[end + 1..]),
        None => return None,
    };
    if !plain_text(text) {
        return None;
    }
    let rest = rest.strip_prefix(b",\"stream\":\"")?;
    let (stream, rest) = plain_string(rest)?;
    let rest = rest.strip_prefix(b",\"time\":\"")?;
    let (time, rest) = plain_string(rest)?;
    if rest != b"}" {
        return None;
    }
    // As `trim_end_matches(['\n', '\r'])` of the decoded text: a text
    // without escapes holds neither.
    Some(Parts {
        outer: Some(Cow::Borrowed(time)),
        inner: Cow::Borrowed(text),
        partial,
        stream: Stream::of(stream),
    })
}

/// The parts of `line` (no line end) under `kind`; `None` when the line is
/// not in the wrapper's shape (it is passed on as it is).
fn parts(kind: Kind, line: &[u8]) -> Option<Parts<'_>> {
    use std::borrow::Cow;
    match kind {
        Kind::DockerJson => {
            if line.first() != Some(&b'{') {
                return None;
            }
            if let Some(p) = docker_plain(line) {
                return Some(p);
            }
            let r: DockerRecord = serde_json::from_slice(line).ok()?;
            let partial = !r.log.ends_with('\n');
            let inner = r.log.trim_end_matches(['\n', '\r']);
            Some(Parts {
                outer: r.time.map(|t| Cow::Owned(t.as_bytes().to_vec())),
                inner: Cow::Owned(inner.as_bytes().to_vec()),
                partial,
                stream: r
                    .stream
                    .map_or(Stream::Unnamed, |s| Stream::of(s.as_bytes())),
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
            Some(Parts {
                outer: None,
                inner: Cow::Borrowed(inner),
                partial: false,
                stream: Stream::Unnamed,
            })
        }
        Kind::Compose => {
            let bar = memchr::memchr(b'|', line)?;
            let name = line[..bar].trim_ascii_end();
            if name.is_empty() || !name.iter().all(|&b| name_byte(b)) {
                return None;
            }
            let rest = &line[bar + 1..];
            let inner = rest.strip_prefix(b" ").unwrap_or(rest);
            Some(Parts {
                outer: None,
                inner: Cow::Borrowed(inner),
                partial: false,
                stream: Stream::Unnamed,
            })
        }
        Kind::Viewer => {
            let n = viewer_len(line)?;
            Some(Parts {
                outer: None,
                inner: Cow::Borrowed(&line[n..]),
                partial: false,
                stream: Stream::Unnamed,
            })
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
            Some(Parts {
                outer: None,
                inner: Cow::Borrowed(&line[at..]),
                partial: false,
                stream: Stream::Unnamed,
            })
        }
        Kind::Timestamps => {
            let n = stamp_len(line)?;
            let inner = line.get(n..)?.strip_prefix(b" ")?;
            is_console(inner).then_some(Parts {
                outer: Some(Cow::Borrowed(&line[..n])),
                inner: Cow::Borrowed(inner),
                partial: false,
                stream: Stream::Unnamed,
            })
        }
    }
}

/// The line the next untimed line may continue: set by a line with a
/// record's text, kept by its continuations.
#[derive(Default)]
struct Follow {
    /// Whether the last line holds a record's text (or continues one).
    open: bool,
    /// The collector's stream and second (`2024-08-12T08:32:43`) of it.
    stream: Stream,
    second: [u8; 19],
}

impl Follow {
    fn set(&mut self, outer: Option<&[u8]>, stream: Stream) {
        self.open = true;
        self.stream = stream;
        self.second = [0; 19];
        if let Some(t) = outer.and_then(|t| t.get(..19)) {
            self.second.copy_from_slice(t);
        }
    }

    /// Whether a line the collector stamped `outer` on `stream` goes on
    /// from the last one.
    fn continues(&self, outer: &[u8], stream: Stream) -> bool {
        self.open && self.stream == stream && outer.get(..19) == Some(&self.second[..])
    }
}

/// What one file's lines make, line by line (apart from the reading).
struct Unwrapping {
    kind: Kind,
    counts: [u64; 3],
    follow: Follow,
    /// A partial line being joined, and how many input lines it took.
    joined: Vec<u8>,
    joined_lines: usize,
    joined_outer: Option<Vec<u8>>,
    joined_stream: Stream,
    out: Vec<u8>,
}

impl Unwrapping {
    /// The console line out of a wrapped one, appended to `out`; counts
    /// which clock it keeps (`[own, outer, stamped]`).
    fn unwrap_into(&mut self, outer: Option<&[u8]>, inner: &[u8], stream: Stream) {
        let kind = self.kind;
        let c = &mut self.counts;
        let out = &mut self.out;
        let mut outer = outer;
        let mut inner = inner;
        // `is_console(inner)`, with the line's time measured once; a
        // `--timestamps` line's inner one was found a console line already
        // (`parts`), and nothing is under it.
        let stamp = (kind != Kind::Timestamps)
            .then(|| stamp_len(inner))
            .flatten();
        let mut console = kind == Kind::Timestamps
            || inner.first() == Some(&b'{')
            || stamp.is_some_and(|n| inner.get(n) == Some(&b' '));
        // A `--timestamps` stamp under the wrapper (`kubectl logs --prefix
        // --timestamps`): the wrapper's time when it has none.
        if kind != Kind::Timestamps
            && let Some(n) = stamp
            && let Some(rest) = inner[n..].strip_prefix(b" ")
        {
            if is_console(rest) {
                c[2] += 1;
                outer = outer.or(Some(&inner[..n]));
                inner = rest;
                console = true;
            } else if c[2] > 0 {
                // In a file with such stamps, a stamp before a line with
                // no time of its own is the collector's, not the
                // container's.
                outer = outer.or(Some(&inner[..n]));
                inner = rest;
                console = false;
            }
        }
        if inner.is_empty() {
            return;
        }
        if console {
            c[0] += 1;
            self.follow.set(outer, stream);
            out.extend_from_slice(inner);
        } else if let Some(t) = outer.filter(|_| kind.has_clock() || c[2] > 0) {
            if self.follow.continues(t, stream) {
                // Written with the line before: it goes on, as in the
                // console without the wrapper.
                out.extend_from_slice(inner);
                return;
            }
            c[1] += 1;
            self.follow.set(Some(t), stream);
            out.extend_from_slice(t);
            out.push(b' ');
            out.extend_from_slice(inner);
        } else {
            out.extend_from_slice(inner);
        }
    }

    /// One input line (its line end included, if any) to `out`.
    fn line(&mut self, line: &[u8]) {
        let mut body: &[u8] = line;
        if let Some(b) = body.strip_suffix(b"\n") {
            body = b;
        }
        if let Some(b) = body.strip_suffix(b"\r") {
            body = b;
        }
        let cleaned;
        if memchr::memchr(0x1b, body).is_some() {
            cleaned = strip_ansi(body);
            body = &cleaned;
        }
        match parts(self.kind, body) {
            Some(p) if p.partial || self.joined_lines > 0 => {
                if self.joined_lines == 0 {
                    self.joined_outer = p.outer.map(|o| o.into_owned());
                    self.joined_stream = p.stream;
                }
                self.joined_lines += 1;
                self.joined.extend_from_slice(&p.inner);
                if !p.partial || self.joined.len() > MAX_JOINED {
                    self.flush_joined();
                }
            }
            Some(p) => {
                self.unwrap_into(p.outer.as_deref(), &p.inner, p.stream);
                self.out.push(b'\n');
            }
            None => {
                self.flush_joined();
                // A `--timestamps` stamp before a line with no time of its
                // own: the line is read at the stamp, as it is, unless it
                // goes on from the line before.
                let stamp = (self.kind == Kind::Timestamps)
                    .then(|| stamp_len(body))
                    .flatten()
                    .filter(|&n| body.get(n) == Some(&b' '));
                match stamp {
                    Some(n) if self.follow.continues(&body[..n], Stream::Unnamed) => {
                        body = &body[n + 1..];
                    }
                    Some(n) => self.follow.set(Some(&body[..n]), Stream::Unnamed),
                    None => self.follow.open = false,
                }
                self.out.extend_from_slice(body);
                self.out.push(b'\n');
            }
        }
    }

    /// The joined line at its first line, then an empty line for each
    /// further line it took.
    fn flush_joined(&mut self) {
        if self.joined_lines == 0 {
            return;
        }
        let joined = std::mem::take(&mut self.joined);
        let outer = self.joined_outer.take();
        self.unwrap_into(outer.as_deref(), &joined, self.joined_stream);
        self.out.push(b'\n');
        for _ in 1..self.joined_lines {
            self.out.push(b'\n');
        }
        self.joined = joined;
        self.joined.clear();
        self.joined_lines = 0;
    }
}

/// The unwrapping reader: one output line per input line.
struct Unwrap {
    inner: BufReader<Box<dyn Read + Send>>,
    stats: Arc<Stats>,
    /// A line longer than the read buffer holds, gathered.
    line: Vec<u8>,
    lines: Unwrapping,
    at: usize,
    eof: bool,
    /// A read error met after lines still to be handed on.
    failed: Option<io::Error>,
    /// Notes where the output's lines start in the input.
    ends: Option<crate::encoding::RawEnds>,
}

impl Unwrap {
    /// Read one input line (at most `MAX_JOINED` bytes kept; the rest of a
    /// longer line is passed on raw) and put its output in `out`.
    fn fill(&mut self) -> io::Result<()> {
        // A whole line in the read buffer is taken apart where it is.
        let buf = self.inner.fill_buf()?;
        if let Some(i) = memchr::memchr(b'\n', buf) {
            self.lines.line(&buf[..=i]);
            if let Some(l) = self.ends.as_mut() {
                l.read_line(i + 1, true);
            }
            self.inner.consume(i + 1);
            return Ok(());
        }
        self.line.clear();
        let mut ended = false;
        while !ended {
            let buf = self.inner.fill_buf()?;
            if buf.is_empty() {
                break;
            }
            let (take, nl) = match memchr::memchr(b'\n', buf) {
                Some(i) => (i + 1, true),
                None => (buf.len(), false),
            };
            self.line.extend_from_slice(&buf[..take]);
            if let Some(l) = self.ends.as_mut() {
                l.read_line(take, nl);
            }
            self.inner.consume(take);
            ended = nl;
            if self.line.len() > MAX_JOINED && !ended {
                // Too long to be a console line: passed on as it is.
                self.lines.flush_joined();
                self.lines.follow.open = false;
                self.lines.out.append(&mut self.line);
                return Ok(());
            }
        }
        if self.line.is_empty() {
            self.eof = true;
            self.lines.flush_joined();
            return Ok(());
        }
        let line = std::mem::take(&mut self.line);
        self.lines.line(&line);
        self.line = line;
        Ok(())
    }

    /// The counts so far, shared: the largest of any reader of the file
    /// (its head is read again from the start).
    fn publish(&self) {
        let c = &self.lines.counts;
        self.stats.own.fetch_max(c[0], Ordering::Relaxed);
        self.stats.outer.fetch_max(c[1], Ordering::Relaxed);
        self.stats.stamped.fetch_max(c[2], Ordering::Relaxed);
    }
}

impl Read for Unwrap {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.at == self.lines.out.len() {
            if let Some(e) = self.failed.take() {
                return Err(e);
            }
            self.lines.out.clear();
            self.at = 0;
            // As many lines as the caller has room for: a call per line
            // cost the line reader more than the unwrapping.
            while self.lines.out.len() < buf.len().max(1) && !self.eof {
                if let Err(e) = self.fill() {
                    if self.lines.out.is_empty() {
                        self.publish();
                        return Err(e);
                    }
                    // The lines before the error first.
                    self.failed = Some(e);
                    break;
                }
            }
            self.publish();
            if let Some(l) = self.ends.as_mut() {
                l.wrote(&self.lines.out);
            }
            if self.lines.out.is_empty() {
                return Ok(0);
            }
        }
        let out = &self.lines.out;
        let n = buf.len().min(out.len() - self.at);
        buf[..n].copy_from_slice(&out[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// The wrapper of a file, from its first bytes: the kind whose shape most
/// of the first lines have, with an MQ console line (time and text, or a
/// JSON record) inside at least one of them.
pub fn detect(head: &[u8]) -> Option<Wrapper> {
    // Every console line inside carries an RFC 3339 time (`2024-08-12T`):
    // without one the head is not a wrapped console (the cheap test that
    // every other file's sniffing pays).
    let dated = memchr::memchr_iter(b'T', head).any(|i| {
        i >= 10
            && head[i - 3] == b'-'
            && head[i - 6] == b'-'
            && head[i - 2..i].iter().all(u8::is_ascii_digit)
            && head[i - 10..i - 6].iter().all(u8::is_ascii_digit)
    });
    if !dated {
        return None;
    }
    let lines: Vec<Vec<u8>> = head
        .split(|&b| b == b'\n')
        .map(|l| l.strip_suffix(b"\r").unwrap_or(l))
        .filter(|l| !l.trim_ascii().is_empty())
        .take(200)
        .map(|l| {
            let l = l.strip_prefix("\u{feff}".as_bytes()).unwrap_or(l);
            if memchr::memchr(0x1b, l).is_some() {
                strip_ansi(l)
            } else {
                l.to_vec()
            }
        })
        .collect();
    // The head's last line may be cut.
    let n = lines.len().saturating_sub(1).max(1).min(lines.len());
    let lines = &lines[..n];
    if lines.is_empty() {
        return None;
    }
    const ORDER: [Kind; 7] = [
        Kind::DockerJson,
        Kind::Cri,
        Kind::KubectlPrefix,
        Kind::Compose,
        Kind::Viewer,
        Kind::Stern,
        Kind::Timestamps,
    ];
    for kind in ORDER {
        let mut shaped = 0;
        let mut console = 0;
        for l in lines {
            if let Some(p) = parts(kind, l) {
                shaped += 1;
                let mut inner: &[u8] = &p.inner;
                // Under a prefix, a `--timestamps` stamp may come first.
                if let Some(k) = stamp_len(inner)
                    && let Some(rest) = inner[k..].strip_prefix(b" ")
                    && is_console(rest)
                {
                    inner = rest;
                }
                if is_console(inner) {
                    console += 1;
                }
            }
        }
        // Stern's and the viewer's shapes are loose: every line inside must
        // be the console's.
        let strict = matches!(kind, Kind::Stern | Kind::Viewer | Kind::Compose);
        let enough = if strict {
            console * 2 >= lines.len() && shaped * 10 >= lines.len() * 9
        } else {
            console > 0 && shaped * 2 >= lines.len()
        };
        if enough {
            let viewer_offset = (kind == Kind::Viewer)
                .then(|| lines.iter().find_map(|l| viewer_offset(l)))
                .flatten();
            return Some(Wrapper {
                kind,
                viewer_offset,
                stats: Arc::new(Stats::default()),
            });
        }
    }
    None
}

/// How far a viewer's local stamp is from the container's stamp after it
/// (`+05:30`), rounded to the minute.
fn viewer_offset(line: &[u8]) -> Option<String> {
    let n = viewer_len(line)?;
    let local = std::str::from_utf8(&line[..n - 1]).ok()?;
    let local = chrono::NaiveDateTime::parse_from_str(local, "%Y-%m-%d %H:%M:%S%.f").ok()?;
    let inner = &line[n..];
    let k = stamp_len(inner)?;
    let own = chrono::DateTime::parse_from_rfc3339(std::str::from_utf8(&inner[..k]).ok()?).ok()?;
    let secs = (local - own.naive_utc()).num_seconds();
    let mins = (secs as f64 / 60.0).round() as i64;
    let sign = if mins < 0 { '-' } else { '+' };
    Some(format!(
        "{sign}{:02}:{:02}",
        mins.abs() / 60,
        mins.abs() % 60
    ))
}

/// The head of a wrapped file as the console reader sees it.
pub fn unwrapped_head(w: &Wrapper, head: &[u8]) -> Vec<u8> {
    let probe = Wrapper {
        kind: w.kind,
        viewer_offset: None,
        stats: Arc::new(Stats::default()),
    };
    let mut out = Vec::new();
    let _ = probe
        .reader(Box::new(io::Cursor::new(head.to_vec())))
        .read_to_end(&mut out);
    out
}

/// The inputs with their wrappers taken off, and the wrapper of each.
pub fn unwrap_inputs(inputs: Vec<Input>) -> (Vec<Input>, Vec<Option<Wrapper>>) {
    let mut wrappers = Vec::with_capacity(inputs.len());
    let inputs = inputs
        .into_iter()
        .map(|mut input| {
            let w = input.head(super::SNIFF_BYTES).ok().and_then(|h| detect(&h));
            if let Some(w) = &w {
                input.location = Location::Unwrapped {
                    inner: Box::new(input.location),
                    wrapper: Arc::new(w.clone()),
                };
            }
            wrappers.push(w);
            input
        })
        .collect();
    (inputs, wrappers)
}

/// A source over unwrapped inputs: each file's row says which wrapper was
/// taken off and which clock its events carry.
pub struct WrappedSource {
    inner: Box<dyn Source>,
    /// By display path.
    wrappers: Vec<(Arc<str>, Wrapper)>,
}

impl WrappedSource {
    pub fn boxed(
        inner: Box<dyn Source>,
        inputs: &[Input],
        wrappers: Vec<Option<Wrapper>>,
    ) -> Box<dyn Source> {
        let wrappers: Vec<(Arc<str>, Wrapper)> = inputs
            .iter()
            .zip(wrappers)
            .filter_map(|(i, w)| Some((i.display.clone(), w?)))
            .collect();
        if wrappers.is_empty() {
            return inner;
        }
        Box::new(WrappedSource { inner, wrappers })
    }
}

impl Source for WrappedSource {
    fn next_event(&mut self) -> Option<Event> {
        self.inner.next_event()
    }

    fn finish(self: Box<Self>) -> Vec<FileInfo> {
        let mut infos = self.inner.finish();
        for info in &mut infos {
            if let Some((_, w)) = self.wrappers.iter().find(|(p, _)| **p == *info.path) {
                let base = info.variant.take().unwrap_or_default();
                let sep = if base.is_empty() { "" } else { ", " };
                info.variant = Some(format!("{base}{sep}{}", w.describe()));
            }
        }
        infos
    }

    fn current_origin(&self) -> Option<Arc<crate::event::Origin>> {
        self.inner.current_origin()
    }
}

#[cfg(test)]
mod tests;
