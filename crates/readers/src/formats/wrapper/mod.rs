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
//! wrapper's time it continues the line before. A JSON record cut before
//! its own time ends gets the wrapper's time in front (`--timestamps`
//! style) for the reader to use. `docker compose`'s own status lines
//! (`compose.rs`) are left out and counted.
//!
//! The line source reads the collected file's own lines and takes the
//! wrapper off each (`LineFilter`), so that `file:line` and offsets point
//! at the collected file: a joined partial line is read at its first line.
//! `Wrapper::reader` (what sniffing reads of a head) keeps every input
//! line one line too, writing the lines a joined one took in as empty
//! lines. Colour codes come off only the wrappers that add them
//! (`Kind::colours`); a line inside is otherwise read as it is.

use super::Source;
use super::console::stamp_len;
use crate::input::{Input, Location};
use crate::lines::{Filtered, LineFilter};
use mqdiag_model::event::Event;
use mqdiag_model::fileinfo::FileInfo;
use std::io::{self, BufRead, BufReader, Read};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// The longest joined line kept whole (partial lines beyond it are passed
/// on as they are): the line reader cuts longer lines anyway.
const MAX_JOINED: usize = 4 * crate::lines::MAX_LINE;

/// Which collector wrapped the lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
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
    /// Every kind, in the order `detect` tries them: the strict shapes
    /// first.
    pub(crate) const ALL: [Kind; 7] = [
        Kind::DockerJson,
        Kind::Cri,
        Kind::KubectlPrefix,
        Kind::Compose,
        Kind::Viewer,
        Kind::Stern,
        Kind::Timestamps,
    ];

    pub(crate) fn name(self) -> &'static str {
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

    /// Whether the collector may colour what it adds (`docker compose`,
    /// `stern`, a copy of a terminal): its colour codes come off. The
    /// others add none, and the line inside is read as it is.
    fn colours(self) -> bool {
        matches!(
            self,
            Kind::Compose | Kind::Stern | Kind::KubectlPrefix | Kind::Viewer
        )
    }

    /// Whether the wrapper carries a time with a zone of its own.
    fn has_clock(self) -> bool {
        matches!(self, Kind::DockerJson | Kind::Cri | Kind::Timestamps)
    }
}

/// What was taken off the lines of one file, counted as it is read.
#[derive(Debug, Default)]
pub(crate) struct Stats {
    /// Lines read with the container's own time.
    own: AtomicU64,
    /// Lines given the wrapper's time (none of their own).
    outer: AtomicU64,
    /// Lines that had a `--timestamps` stamp under the wrapper.
    stamped: AtomicU64,
    /// `docker compose`'s own status lines, left out.
    status: AtomicU64,
    /// Records whose bad string escapes were replaced, and the first
    /// lines of them (`MAX_PROBLEMS_KEPT`), for their problems.
    repaired: AtomicU64,
    repaired_lines: std::sync::Mutex<Vec<u64>>,
}

/// A recognised wrapper and the counts of its file.
#[derive(Debug, Clone)]
pub(crate) struct Wrapper {
    pub(crate) kind: Kind,
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
    fn lines(&self) -> Box<dyn LineFilter> {
        Box::new(Unwrapping::new(self.kind, self.stats.clone()))
    }
}

impl Wrapper {
    /// A reader of the unwrapped lines of `r`.
    pub(crate) fn reader(&self, r: Box<dyn Read + Send>) -> Box<dyn Read + Send> {
        Box::new(Unwrap {
            inner: BufReader::with_capacity(256 * 1024, r),
            line: Vec::new(),
            lines: Unwrapping::new(self.kind, self.stats.clone()),
            taken: 0,
            out: Vec::new(),
            at: 0,
            eof: false,
            failed: None,
        })
    }

    /// What `inventory` says: the wrapper and the clock the events carry.
    pub(crate) fn describe(&self) -> String {
        let own = self.stats.own.load(Ordering::Relaxed);
        let outer = self.stats.outer.load(Ordering::Relaxed);
        let mut name = self.kind.name().to_string();
        if self.kind != Kind::Timestamps && self.stats.stamped.load(Ordering::Relaxed) > 0 {
            name.push_str(" with --timestamps");
        }
        let status = self.stats.status.load(Ordering::Relaxed);
        if status > 0 {
            name.push_str(&format!(" ({status} of its own status line(s) left out)"));
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

    /// A located problem for each record whose bad string escapes were
    /// replaced (the first few kept, all counted).
    fn repaired_problems(&self, info: &mut FileInfo) {
        use mqdiag_model::problem::{ProblemCode, Severity};
        let n = self.stats.repaired.load(Ordering::Relaxed);
        let lines = self
            .stats
            .repaired_lines
            .lock()
            .map(|l| l.clone())
            .unwrap_or_default();
        for &no in &lines {
            info.problem(
                ProblemCode::Encoding,
                Some(no),
                Severity::Warning,
                0,
                "the collector's record holds a JSON string escape that is no character (a \
                 lone UTF-16 surrogate such as \\ud800, or an unknown escape): replaced by \
                 U+FFFD, the record kept",
            );
        }
        // The rest counted, as `FileInfo::problem` counts those it does
        // not keep.
        info.problem_count += n.saturating_sub(lines.len() as u64);
        if n > 0 {
            info.worst = info.worst.max(Some(Severity::Warning));
        }
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
    if !super::console::date_time_shape(s, |c| c == b' ') {
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

/// A line's output: part of the line it was made from, or built in
/// `Unwrapping::scratch`.
enum Made<'b> {
    Slice(&'b [u8]),
    Scratch,
}

/// What one file's lines make, line by line (apart from the reading):
/// the wrapper's `LineFilter`.
struct Unwrapping {
    kind: Kind,
    stats: Arc<Stats>,
    /// `[own, outer, stamped, status]`, as in `Stats`.
    counts: [u64; 4],
    follow: Follow,
    /// A partial line being joined, and how many input lines it took.
    joined: Vec<u8>,
    joined_lines: usize,
    joined_outer: Option<Vec<u8>>,
    joined_stream: Stream,
    /// A line's output when it is not a slice of the line.
    scratch: Vec<u8>,
    /// The length of the console time the line's output starts with,
    /// when measured here (`Filtered::stamp`): set by `unwrap_line` for
    /// the line it passes on as it is, cleared for a joined one.
    stamp: Option<usize>,
    /// The joined line's output once it ends.
    held: Vec<u8>,
    /// Input lines seen.
    no: u64,
    /// Records whose bad escapes were replaced, and the first lines.
    repaired: u64,
    repaired_lines: Vec<u64>,
}

impl Unwrapping {
    fn new(kind: Kind, stats: Arc<Stats>) -> Unwrapping {
        Unwrapping {
            kind,
            stats,
            counts: [0; 4],
            follow: Follow::default(),
            joined: Vec::new(),
            joined_lines: 0,
            joined_outer: None,
            joined_stream: Stream::Unnamed,
            scratch: Vec::new(),
            stamp: None,
            held: Vec::new(),
            no: 0,
            repaired: 0,
            repaired_lines: Vec::new(),
        }
    }

    /// The console line out of a wrapped one; counts which clock it keeps.
    fn unwrap_line<'b>(
        &mut self,
        outer: Option<&[u8]>,
        inner: &'b [u8],
        stream: Stream,
        measured: Option<usize>,
    ) -> Made<'b> {
        let kind = self.kind;
        let c = &mut self.counts;
        let mut outer = outer;
        let mut inner = inner;
        // `is_console(inner)`, with the line's time measured once; a
        // `--timestamps` line's inner one was found a console line already
        // (`parts`, which measured its time), and nothing is under it.
        let stamp = if kind == Kind::Timestamps {
            measured
        } else {
            stamp_len(inner)
        };
        // The time the line passed on starts with, unless another line is
        // found under it.
        let mut passed = stamp.filter(|&n| inner.get(n) == Some(&b' '));
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
                passed = None;
            } else if c[2] > 0 {
                // In a file with such stamps, a stamp before a line with
                // no time of its own is the collector's, not the
                // container's.
                outer = outer.or(Some(&inner[..n]));
                inner = rest;
                console = false;
                passed = None;
            }
        }
        if inner.is_empty() {
            return Made::Slice(inner);
        }
        let clocked = kind.has_clock() || c[2] > 0;
        if console && let Some(t) = outer.filter(|_| clocked && cut_in_its_time(inner)) {
            // A JSON record cut before its own time is whole: the
            // wrapper's time goes before it, as `--timestamps` writes it,
            // for the reader to use.
            c[1] += 1;
            self.follow.set(outer, stream);
            let s = &mut self.scratch;
            s.clear();
            s.extend_from_slice(t);
            s.push(b' ');
            s.extend_from_slice(inner);
            Made::Scratch
        } else if console {
            c[0] += 1;
            self.follow.set(outer, stream);
            self.stamp = passed;
            Made::Slice(inner)
        } else if let Some(t) = outer.filter(|_| clocked) {
            if self.follow.continues(t, stream) {
                // Written with the line before: it goes on, as in the
                // console without the wrapper.
                return Made::Slice(inner);
            }
            c[1] += 1;
            self.follow.set(Some(t), stream);
            let s = &mut self.scratch;
            s.clear();
            s.extend_from_slice(t);
            s.push(b' ');
            s.extend_from_slice(inner);
            Made::Scratch
        } else {
            Made::Slice(inner)
        }
    }

    /// `m` copied to `scratch` when it is a slice of a line about to go.
    fn owned(&mut self, m: Made<'_>) -> Made<'static> {
        if let Made::Slice(s) = m {
            self.scratch.clear();
            self.scratch.extend_from_slice(s);
        }
        Made::Scratch
    }

    /// One input line without its line end: whether it ended the joined
    /// line (then in `held`), and its own output unless it was joined.
    fn step<'b>(&mut self, body: &'b [u8]) -> (bool, Option<Made<'b>>) {
        use std::borrow::Cow;
        let parts = parts(self.kind, body);
        if parts.as_ref().is_some_and(|p| p.repaired) {
            self.repaired += 1;
            if self.repaired_lines.len() < mqdiag_model::problem::MAX_PROBLEMS_KEPT {
                self.repaired_lines.push(self.no);
            }
        }
        match parts {
            Some(p) if p.partial || self.joined_lines > 0 => {
                if self.joined_lines == 0 {
                    self.joined_outer = p.outer.map(|o| o.into_owned());
                    self.joined_stream = p.stream;
                }
                self.joined_lines += 1;
                self.joined.extend_from_slice(&p.inner);
                let ends = !p.partial || self.joined.len() > MAX_JOINED;
                (ends && self.flush_joined(), None)
            }
            Some(Parts {
                outer,
                inner: Cow::Borrowed(inner),
                stream,
                stamp,
                ..
            }) => (
                false,
                Some(self.unwrap_line(outer.as_deref(), inner, stream, stamp)),
            ),
            Some(Parts {
                outer,
                inner: Cow::Owned(inner),
                stream,
                stamp,
                ..
            }) => {
                let m = self.unwrap_line(outer.as_deref(), &inner, stream, stamp);
                (false, Some(self.owned(m)))
            }
            None if self.kind == Kind::Compose && compose::status_line(body) => {
                // Compose's own (`Attaching to mq_1`, `mq-1 exited with
                // code 0`): an empty line, joined to nothing.
                self.counts[3] += 1;
                self.follow.open = false;
                (self.flush_joined(), Some(Made::Slice(&body[..0])))
            }
            None => {
                let held = self.flush_joined();
                // A `--timestamps` stamp before a line with no time of its
                // own: the line is read at the stamp, as it is, unless it
                // goes on from the line before.
                let mut body = body;
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
                (held, Some(Made::Slice(body)))
            }
        }
    }

    /// End the joined line, if any: true with its output in `held`.
    fn flush_joined(&mut self) -> bool {
        if self.joined_lines == 0 {
            return false;
        }
        let joined = std::mem::take(&mut self.joined);
        let outer = self.joined_outer.take();
        let made = self.unwrap_line(outer.as_deref(), &joined, self.joined_stream, None);
        // What was measured is the joined line's, not the line's own.
        self.stamp = None;
        self.held.clear();
        match made {
            Made::Slice(s) => self.held.extend_from_slice(s),
            Made::Scratch => self.held.extend_from_slice(&self.scratch),
        }
        self.joined = joined;
        self.joined.clear();
        self.joined_lines = 0;
        true
    }

    /// A line no wrapper's shape can be found in (cut by the reader):
    /// the joined line ends before it (true, in `held`).
    fn interrupt(&mut self) -> bool {
        let held = self.flush_joined();
        self.follow.open = false;
        held
    }

    /// The counts so far, shared: the largest of any reader of the file
    /// (its head is read again from the start).
    fn publish(&self) {
        let c = &self.counts;
        self.stats.own.fetch_max(c[0], Ordering::Relaxed);
        self.stats.outer.fetch_max(c[1], Ordering::Relaxed);
        self.stats.stamped.fetch_max(c[2], Ordering::Relaxed);
        self.stats.status.fetch_max(c[3], Ordering::Relaxed);
        self.stats
            .repaired
            .fetch_max(self.repaired, Ordering::Relaxed);
        if let Ok(mut l) = self.stats.repaired_lines.lock()
            && l.len() < self.repaired_lines.len()
        {
            l.clone_from(&self.repaired_lines);
        }
    }
}

impl Drop for Unwrapping {
    fn drop(&mut self) {
        self.publish();
    }
}

impl LineFilter for Unwrapping {
    /// Joined lines are kept whole to this length (the output is cut to
    /// the line reader's limit by whoever reads it).
    fn max_line(&self) -> usize {
        MAX_JOINED
    }

    fn line<'a>(&'a mut self, line: &'a [u8], cut: bool) -> Filtered<'a> {
        self.no += 1;
        self.stamp = None;
        let mut body: &[u8] = line;
        if let Some(b) = body.strip_suffix(b"\n") {
            body = b;
        }
        if let Some(b) = body.strip_suffix(b"\r") {
            body = b;
        }
        let (held, made) = if cut {
            (self.interrupt(), Some(Made::Slice(body)))
        } else if self.kind.colours() && memchr::memchr(0x1b, body).is_some() {
            let cleaned = strip_ansi(body);
            let (held, made) = self.step(&cleaned);
            (held, made.map(|m| self.owned(m)))
        } else {
            self.step(body)
        };
        let this = &*self;
        Filtered {
            held: held.then_some(&this.held[..]),
            line: made.map(|m| match m {
                Made::Slice(s) => s,
                Made::Scratch => &this.scratch[..],
            }),
            stamp: this.stamp,
        }
    }

    fn finish(&mut self) -> Option<&[u8]> {
        self.publish();
        self.flush_joined().then_some(&self.held[..])
    }
}

/// A JSON record cut short (no closing brace) before its `ibm_datetime`
/// value ends.
fn cut_in_its_time(inner: &[u8]) -> bool {
    if !inner.starts_with(b"{\"") || inner.trim_ascii_end().ends_with(b"}") {
        return false;
    }
    const KEY: &[u8] = b"\"ibm_datetime\":\"";
    match memchr::memmem::find(inner, KEY) {
        Some(at) => memchr::memchr(b'"', &inner[at + KEY.len()..]).is_none(),
        None => true,
    }
}

/// The unwrapping reader over a whole input (what sniffing reads of a
/// wrapped file's head): one output line per input line, a joined line at
/// its first line and an empty line for each further one it took.
struct Unwrap {
    inner: BufReader<Box<dyn Read + Send>>,
    /// A line longer than the read buffer holds, gathered.
    line: Vec<u8>,
    lines: Unwrapping,
    /// Input lines taken into the line being joined.
    taken: usize,
    out: Vec<u8>,
    at: usize,
    eof: bool,
    /// A read error met after lines still to be handed on.
    failed: Option<io::Error>,
}

/// A joined line that took `lines` input lines, as `Unwrap` writes it.
fn put_held(out: &mut Vec<u8>, held: &[u8], lines: usize) {
    out.extend_from_slice(held);
    out.resize(out.len() + lines.max(1), b'\n');
}

/// What one input line gave, as `Unwrap` writes it.
fn put(out: &mut Vec<u8>, taken: &mut usize, f: Filtered) {
    match f.held {
        Some(h) => {
            put_held(out, h, *taken + usize::from(f.line.is_none()));
            *taken = 0;
        }
        None if f.line.is_none() => *taken += 1,
        None => {}
    }
    if let Some(l) = f.line {
        out.extend_from_slice(l);
        out.push(b'\n');
    }
}

impl Unwrap {
    /// Read one input line (at most `MAX_JOINED` bytes kept; the rest of a
    /// longer line is passed on raw) and put its output in `out`.
    fn fill(&mut self) -> io::Result<()> {
        // A whole line in the read buffer is taken apart where it is.
        let buf = self.inner.fill_buf()?;
        if let Some(i) = memchr::memchr(b'\n', buf) {
            let f = self.lines.line(&buf[..=i], false);
            put(&mut self.out, &mut self.taken, f);
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
            self.inner.consume(take);
            ended = nl;
            if self.line.len() > MAX_JOINED && !ended {
                // Too long to be a console line: passed on as it is.
                self.lines.no += 1;
                if self.lines.interrupt() {
                    put_held(&mut self.out, &self.lines.held, self.taken);
                    self.taken = 0;
                }
                self.out.append(&mut self.line);
                return Ok(());
            }
        }
        if self.line.is_empty() {
            self.eof = true;
            if let Some(h) = self.lines.finish() {
                put_held(&mut self.out, h, self.taken);
                self.taken = 0;
            }
            return Ok(());
        }
        let f = self.lines.line(&self.line, false);
        put(&mut self.out, &mut self.taken, f);
        Ok(())
    }
}

impl Read for Unwrap {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.at == self.out.len() {
            if let Some(e) = self.failed.take() {
                return Err(e);
            }
            self.out.clear();
            self.at = 0;
            // As many lines as the caller has room for: a call per line
            // cost the line reader more than the unwrapping.
            while self.out.len() < buf.len().max(1) && !self.eof {
                if let Err(e) = self.fill() {
                    if self.out.is_empty() {
                        return Err(e);
                    }
                    // The lines before the error first.
                    self.failed = Some(e);
                    break;
                }
            }
            if self.out.is_empty() {
                return Ok(0);
            }
        }
        let n = buf.len().min(self.out.len() - self.at);
        buf[..n].copy_from_slice(&self.out[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// The wrapper of a file, from its first bytes: the kind whose shape most
/// of the first lines have, with an MQ console line (time and text, or a
/// JSON record) inside at least one of them.
pub(crate) fn detect(head: &[u8]) -> Option<Wrapper> {
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
    for kind in Kind::ALL {
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
pub(crate) fn unwrapped_head(w: &Wrapper, head: &[u8]) -> Vec<u8> {
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
pub(crate) fn unwrap_inputs(inputs: Vec<Input>) -> (Vec<Input>, Vec<Option<Wrapper>>) {
    let mut wrappers = Vec::with_capacity(inputs.len());
    let inputs = inputs
        .into_iter()
        .map(|mut input| {
            let w = super::body_head(&input, super::SNIFF_BYTES)
                .ok()
                .and_then(|h| detect(&h));
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
pub(crate) struct WrappedSource {
    inner: Box<dyn Source>,
    /// By display path.
    wrappers: Vec<(Arc<str>, Wrapper)>,
}

impl WrappedSource {
    pub(crate) fn boxed(
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
                w.repaired_problems(info);
            }
        }
        infos
    }

    fn current_origin(&self) -> Option<Arc<mqdiag_model::event::Origin>> {
        self.inner.current_origin()
    }
}

mod compose;
mod parts;
use parts::{Parts, Stream, parts};
#[cfg(test)]
mod tests;
