//! Lines to records: the record state machine, with interleaved writes,
//! cut records and text outside records reported where they happen.

use super::*;

#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum St {
    Attrs,
    AfterAttrs,
    Summary,
    AfterSummary,
    Section(usize),
}

/// One record as written, before dating. Its text (attribute names and
/// values, summary and section lines) is kept in one buffer, `buf`, and
/// named by byte ranges: a record of 30 lines makes no string per line.
#[derive(Debug)]
pub(crate) struct RawRecord {
    pub(crate) line: u64,
    /// The byte offset of `line` in the file.
    pub(crate) offset: u64,
    pub(crate) last_line: u64,
    pub(crate) header: Header,
    pub(super) buf: String,
    /// Attribute names and values, as ranges of `buf`.
    pub(super) attrs: Vec<(Span, Span)>,
    pub(crate) msgid: Option<String>,
    pub(super) summary: Vec<Span>,
    /// Explanation and action lines; an empty range is a blank line.
    pub(super) sections: [Vec<Span>; 2],
    /// `amqccita.c:4214` from the separator.
    pub(crate) source: Option<String>,
    pub(crate) closed: bool,
    /// The file ended inside the record.
    pub(crate) truncated: bool,
    /// Written in two parts around the record at this line.
    pub(crate) interrupted_by: Option<u64>,
    pub(crate) reassembled: bool,
    /// Header (and attributes) only: the message text never came.
    pub(crate) incomplete: bool,
    pub(super) st: St,
    pub(super) bytes: usize,
    pub(super) cut: bool,
}

/// A spare record whose buffers grew past this many bytes is dropped
/// rather than kept for the next record.
const SPARE_RECORD_BYTES: usize = 256 * 1024;

impl RawRecord {
    pub(super) fn new(line: u64, header: Header) -> RawRecord {
        let mut r = RawRecord {
            line,
            offset: 0,
            last_line: line,
            header,
            buf: String::new(),
            attrs: Vec::new(),
            msgid: None,
            summary: Vec::new(),
            sections: [Vec::new(), Vec::new()],
            source: None,
            closed: false,
            truncated: false,
            interrupted_by: None,
            reassembled: false,
            incomplete: false,
            st: St::Attrs,
            bytes: 0,
            cut: false,
        };
        r.start();
        r
    }

    /// This record emptied for a new header, its buffers kept.
    fn reuse(&mut self, line: u64, header: Header) {
        self.line = line;
        self.last_line = line;
        self.header = header;
        self.buf.clear();
        self.attrs.clear();
        self.msgid = None;
        self.summary.clear();
        self.sections[0].clear();
        self.sections[1].clear();
        self.source = None;
        self.closed = false;
        self.truncated = false;
        self.interrupted_by = None;
        self.reassembled = false;
        self.incomplete = false;
        self.st = St::Attrs;
        self.bytes = 0;
        self.cut = false;
        self.start();
    }

    fn start(&mut self) {
        if let Some(t) = self.header.legacy_text.take() {
            self.message_line(&t);
        }
    }

    /// Bytes held by the record's buffers.
    pub(super) fn held(&self) -> usize {
        self.buf.capacity()
            + (self.attrs.capacity() * 2
                + self.summary.capacity()
                + self.sections[0].capacity()
                + self.sections[1].capacity())
                * std::mem::size_of::<Span>()
    }

    fn put(&mut self, s: &str) -> Span {
        let a = self.buf.len();
        self.buf.push_str(s);
        (a, self.buf.len())
    }

    pub(super) fn push_attr(&mut self, k: &str, v: &str) {
        let k = self.put(k);
        let v = self.put(v);
        self.attrs.push((k, v));
    }

    /// The attributes as written, names and values.
    pub(crate) fn attrs(&self) -> impl Iterator<Item = (&str, &str)> + '_ {
        self.attrs
            .iter()
            .map(|&(k, v)| (&self.buf[k.0..k.1], &self.buf[v.0..v.1]))
    }

    /// The value of the first attribute named `name`.
    pub(crate) fn attr(&self, name: &str) -> Option<&str> {
        // Names compared as bytes, lengths first: only the value found is
        // cut from `buf` as text.
        let b = self.buf.as_bytes();
        self.attrs
            .iter()
            .find(|&&(k, _)| k.1 - k.0 == name.len() && b.get(k.0..k.1) == Some(name.as_bytes()))
            .map(|&(_, v)| &self.buf[v.0..v.1])
    }

    /// The summary lines as kept.
    pub(crate) fn summary_lines(&self) -> impl Iterator<Item = &str> + '_ {
        self.summary.iter().map(|&(a, b)| &self.buf[a..b])
    }

    /// The lines of section `i` (0 explanation, 1 action); an empty line
    /// is a blank line.
    pub(crate) fn section_lines(&self, i: usize) -> impl Iterator<Item = &str> + '_ {
        self.sections[i].iter().map(|&(a, b)| &self.buf[a..b])
    }

    pub(super) fn has_text(&self) -> bool {
        self.msgid.is_some() || !self.summary.is_empty()
    }

    pub(super) fn lines(&self) -> u64 {
        self.last_line - self.line + 1
    }

    /// Keep a line of text; false when the record is over its size limit.
    pub(super) fn keep(&mut self, s: &str) -> bool {
        // One more byte for the space or line break it is joined with.
        let n = s.len() + 1;
        if self.bytes + n > MAX_RECORD_BYTES {
            return false;
        }
        self.bytes += n;
        true
    }

    pub(super) fn message_line(&mut self, line: &str) {
        match msg_split(line) {
            Some((id, rest)) => {
                self.msgid = Some(id.to_string());
                self.summary_text(rest);
            }
            None => self.summary_text(trim(line)),
        }
    }

    pub(super) fn summary_text(&mut self, s: &str) {
        self.st = St::Summary;
        if let Some(before) = glued_heading(s) {
            let span = self.put(before);
            self.summary.push(span);
            self.st = St::Section(0);
        } else if !s.is_empty() {
            let span = self.put(s);
            self.summary.push(span);
        }
    }

    pub(super) fn section_text(&mut self, i: usize, s: &str) {
        self.st = St::Section(i);
        if !s.is_empty() {
            let span = self.put(s);
            self.sections[i].push(span);
        }
    }

    pub(super) fn blank(&mut self) {
        match self.st {
            St::Attrs => self.st = St::AfterAttrs,
            St::Summary => self.st = St::AfterSummary,
            St::Section(i) => {
                let at = self.buf.len();
                self.sections[i].push((at, at));
            }
            St::AfterAttrs | St::AfterSummary => {}
        }
    }
}

/// A problem found while parsing: line, severity, lines skipped, message.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Found {
    pub(crate) code: ProblemCode,
    pub(crate) line: Option<u64>,
    pub(crate) severity: Severity,
    pub(crate) skipped: u64,
    pub(crate) message: String,
}

#[derive(Debug)]
pub(crate) enum Item {
    Record(Box<RawRecord>),
    Problem(Found),
}

/// Why lines are outside any record.
#[derive(Debug, PartialEq)]
pub(super) enum Why {
    /// Before the first header: the tail of a record cut by a copy.
    FileStart,
    /// Between a separator and the next header.
    Outside,
    /// After a second message id inside the record of this line.
    SecondMessage(u64),
}

/// Lines outside any record.
#[derive(Debug)]
pub(super) struct Orphan {
    pub(super) start: u64,
    pub(super) end: u64,
    pub(super) msgid: Option<String>,
    pub(super) why: Why,
}

/// Line-fed record parser: feed decoded lines, take `Item`s from `out`.
#[derive(Debug, Default)]
pub(crate) struct Parser {
    pub(super) cur: Option<Box<RawRecord>>,
    /// A record cut off after its attributes by another writer's record;
    /// its text may follow that record.
    pub(super) parked: Option<Box<RawRecord>>,
    pub(super) orphan: Option<Orphan>,
    pub(super) garbage: Option<(u64, u64)>,
    pub(super) seen_header: bool,
    /// The line being fed was cut to the line-length limit (so a value
    /// without its closing parenthesis is expected, and already reported).
    pub(crate) line_cut: bool,
    /// The byte offset of the line being fed.
    pub(crate) line_at: u64,
    pub(crate) out: VecDeque<Item>,
    /// A record the source is done with, whose buffers the next header
    /// reuses.
    pub(super) spare: Option<Box<RawRecord>>,
    /// The last line read as a header (its header is the current
    /// record's): the header facts take it rather than parse it again.
    pub(crate) header_line: u64,
}

impl Parser {
    pub(super) fn problem(
        &mut self,
        code: ProblemCode,
        line: u64,
        severity: Severity,
        skipped: u64,
        message: String,
    ) {
        self.out.push_back(Item::Problem(Found {
            code,
            line: (line > 0).then_some(line),
            severity,
            skipped,
            message,
        }));
    }

    /// Give back a record taken from `out`, for its buffers.
    pub(crate) fn recycle(&mut self, r: Box<RawRecord>) {
        if r.held() <= SPARE_RECORD_BYTES {
            self.spare = Some(r);
        }
    }

    /// A record for the header at line `no`: the spare one when there is.
    fn record(&mut self, no: u64, h: Header) -> Box<RawRecord> {
        let mut r = match self.spare.take() {
            Some(mut r) => {
                r.reuse(no, h);
                r
            }
            None => {
                // No spare while the look-ahead holds records: sized for a
                // common record at once rather than grown line by line.
                let mut r = Box::new(RawRecord::new(no, h));
                r.buf.reserve(1024);
                r.attrs.reserve(16);
                r.summary.reserve(4);
                r.sections[0].reserve(8);
                r.sections[1].reserve(8);
                r
            }
        };
        r.offset = self.line_at;
        r
    }

    /// A run of NUL bytes (a hole left by a crash) was removed from the
    /// start of line `no`.
    pub(crate) fn nul_hole(&mut self, no: u64, count: usize) {
        self.flush_garbage();
        self.problem(
            ProblemCode::NulBytes,
            no,
            Severity::Warning,
            0,
            format!("{count} NUL bytes at the start of the line (a hole in the file): removed"),
        );
    }

    pub(crate) fn feed(&mut self, no: u64, text: &str) {
        if has_control(text) {
            match &mut self.garbage {
                Some((_, end)) => *end = no,
                None => self.garbage = Some((no, no)),
            }
            return;
        }
        // Checked here: a call per line cost more than the check.
        if self.garbage.is_some() {
            self.flush_garbage();
        }
        // The line without its indent, found once: a header starts with a
        // digit, a blank line is all indent, an attribute line is a name
        // and `(` after it.
        let t = trim_start(text);
        if t.as_bytes().first().is_some_and(u8::is_ascii_digit)
            && let Some(h) = parse_header(text)
        {
            self.header_line = no;
            self.on_header(no, h);
            return;
        }
        if text.as_bytes().first() == Some(&b'-')
            && let Some(src) = is_separator(text)
        {
            self.on_separator(no, src);
            return;
        }
        let blank = t.is_empty();
        if let Some(r) = self.cur.as_mut() {
            r.last_line = no;
            if blank {
                r.blank();
            } else {
                self.on_text(no, text, t);
            }
            return;
        }
        if blank {
            return;
        }
        if self.parked.is_some() && is_msg_line(text) {
            let mut p = self.parked.take().expect("parked");
            p.reassembled = true;
            p.last_line = no;
            p.message_line(text);
            self.cur = Some(p);
            return;
        }
        let msgid = is_msg_line(text)
            .then(|| msg_split(text).map(|(id, _)| id.to_string()))
            .flatten();
        match &mut self.orphan {
            Some(o) => {
                o.end = no;
                if o.msgid.is_none() {
                    o.msgid = msgid;
                }
            }
            None => {
                self.orphan = Some(Orphan {
                    start: no,
                    end: no,
                    msgid,
                    why: if self.seen_header {
                        Why::Outside
                    } else {
                        Why::FileStart
                    },
                })
            }
        }
    }

    /// A line of the current record; `t` is the line without its indent.
    pub(super) fn on_text(&mut self, no: u64, text: &str, t: &str) {
        let r = self.cur.as_mut().expect("record");
        match r.st {
            St::Attrs | St::AfterAttrs if is_attr_line(text, t) => {
                let (unbalanced, junk) = scan_attrs_each(trim_end(t), |k, v| {
                    if r.attrs.len() < MAX_ATTRS {
                        r.push_attr(k, v);
                    }
                });
                if let Some(name) = unbalanced.filter(|_| !self.line_cut) {
                    self.problem( ProblemCode::BadAttribute,
                        no,
                        Severity::Warning,
                        0,
                        format!(
                            "unbalanced parentheses in attribute `{name}(`: value taken up to the last `)`"
                        ),
                    );
                } else if let Some(junk) = junk {
                    let shown: String = junk.chars().take(60).collect();
                    self.problem(
                        ProblemCode::BadAttribute,
                        no,
                        Severity::Warning,
                        0,
                        format!("not an attribute in the attribute lines: `{shown}`"),
                    );
                }
            }
            St::Attrs | St::AfterAttrs => r.message_line(text),
            St::Summary | St::AfterSummary | St::Section(_) if is_msg_line(text) => {
                self.second_message(no, text)
            }
            St::Summary => match heading(text) {
                Some(rest) => r.section_text(0, rest),
                None => {
                    if r.keep(text) {
                        r.summary_text(trim(text));
                    } else {
                        self.too_long(no);
                    }
                }
            },
            St::AfterSummary => match heading(text) {
                Some(rest) => r.section_text(0, rest),
                None => {
                    if r.keep(text) {
                        r.section_text(0, trim_end(text));
                    } else {
                        self.too_long(no);
                    }
                }
            },
            St::Section(i) => match heading(text) {
                Some(rest) if i == 0 => r.section_text(1, rest),
                _ => {
                    if r.keep(text) {
                        r.section_text(i, trim_end(text));
                    } else {
                        self.too_long(no);
                    }
                }
            },
        }
    }

    pub(super) fn too_long(&mut self, no: u64) {
        let r = self.cur.as_mut().expect("record");
        if !r.cut {
            r.cut = true;
            let line = r.line;
            self.problem(
                ProblemCode::RecordTooLong,
                no,
                Severity::Warning,
                0,
                format!(
                    "record of line {line} is longer than {} KiB: the rest of its text is not kept",
                    MAX_RECORD_BYTES / 1024
                ),
            );
        }
    }

    /// A message line inside a record that already has one: two writers'
    /// records are mixed.
    pub(super) fn second_message(&mut self, no: u64, text: &str) {
        let mut r = self.cur.take().expect("record");
        r.last_line = no.saturating_sub(1).max(r.line);
        if let Some(mut p) = self.parked.take() {
            // The text of the record cut off earlier continues here.
            self.problem( ProblemCode::InterleavedRecords,
                r.line,
                Severity::Info,
                0,
                format!(
                    "record of line {} ends at line {no}, where the text of the record of line {} continues (interleaved writes)",
                    r.line, p.line
                ),
            );
            self.out.push_back(Item::Record(r));
            p.reassembled = true;
            p.last_line = no;
            p.message_line(text);
            self.cur = Some(p);
            return;
        }
        let id = msg_split(text)
            .map(|(id, _)| id.to_string())
            .unwrap_or_default();
        self.orphan = Some(Orphan {
            start: no,
            end: no,
            msgid: Some(id),
            why: Why::SecondMessage(r.line),
        });
        self.out.push_back(Item::Record(r));
    }

    pub(super) fn on_header(&mut self, no: u64, h: Header) {
        self.flush_orphan();
        self.seen_header = true;
        if let Some(name) = &h.unbalanced {
            self.problem(
                ProblemCode::BadAttribute,
                no,
                Severity::Warning,
                0,
                format!(
                    "unbalanced parentheses in attribute `{name}(`: value taken up to the last `)`"
                ),
            );
        }
        if let Some(mut r) = self.cur.take() {
            if r.has_text() {
                self.problem( ProblemCode::MissingSeparator,
                    r.line,
                    Severity::Info,
                    0,
                    format!(
                        "record of line {} has no separator line before the next record at line {no}",
                        r.line
                    ),
                );
                self.out.push_back(Item::Record(r));
            } else {
                r.interrupted_by = Some(no);
                if let Some(old) = self.parked.replace(r) {
                    self.keep_textless(old);
                }
            }
        } else if let Some(p) = self.parked.take() {
            self.keep_textless(p);
        }
        self.cur = Some(self.record(no, h));
    }

    /// A record with a header but no message text is still an event: its
    /// time, process, thread, program and host are known.
    pub(super) fn keep_textless(&mut self, mut r: Box<RawRecord>) {
        self.problem(
            ProblemCode::CutRecord,
            r.line,
            Severity::Warning,
            0,
            format!(
                "record of line {} has no message text (cut short, or interleaved with the record of line {}): kept as an incomplete record",
                r.line,
                r.interrupted_by.unwrap_or(r.last_line)
            ),
        );
        r.incomplete = true;
        self.out.push_back(Item::Record(r));
    }

    pub(super) fn on_separator(&mut self, no: u64, src: Option<String>) {
        if let Some(mut r) = self.cur.take() {
            r.source = src;
            r.closed = true;
            r.last_line = no;
            if r.has_text() {
                if r.reassembled {
                    self.problem( ProblemCode::InterleavedRecords,
                        r.line,
                        Severity::Info,
                        0,
                        format!(
                            "record of line {} was written in two parts around the record of line {} (interleaved writes): joined",
                            r.line,
                            r.interrupted_by.unwrap_or(0)
                        ),
                    );
                }
                self.out.push_back(Item::Record(r));
            } else {
                self.keep_textless(r);
            }
        } else if let Some(o) = self.orphan.as_mut() {
            o.end = no;
            self.flush_orphan();
        }
    }

    pub(super) fn flush_orphan(&mut self) {
        let Some(o) = self.orphan.take() else {
            return;
        };
        let lines = if o.start == o.end {
            format!("line {}", o.start)
        } else {
            format!("lines {}–{}", o.start, o.end)
        };
        let id = o.msgid.clone().unwrap_or_default();
        let msg = match o.why {
            Why::FileStart => format!(
                "file starts inside a record whose header is missing (copied during rotation?): {lines}{} skipped",
                o.msgid
                    .map(|m| format!(" (message {m})"))
                    .unwrap_or_default()
            ),
            Why::Outside => format!(
                "text outside any record at {lines} (no header line before it{}): skipped",
                o.msgid
                    .map(|m| format!("; message {m}"))
                    .unwrap_or_default()
            ),
            Why::SecondMessage(rec) => format!(
                "second message id {id} inside the record of line {rec} (interleaved writes?): that record ends at line {}, {lines} skipped",
                o.start - 1
            ),
        };
        self.problem(
            ProblemCode::BadLine,
            o.start,
            Severity::Warning,
            o.end - o.start + 1,
            msg,
        );
    }

    pub(super) fn flush_garbage(&mut self) {
        if let Some((a, b)) = self.garbage.take() {
            let where_ = if a == b {
                format!("line {a}")
            } else {
                format!("lines {a}–{b}")
            };
            self.problem(
                ProblemCode::BinaryData,
                a,
                Severity::Warning,
                b - a + 1,
                format!("binary data (control characters) in {where_}: skipped"),
            );
        }
    }

    /// End of input.
    pub(crate) fn finish(&mut self) {
        self.flush_garbage();
        self.flush_orphan();
        if let Some(mut r) = self.cur.take() {
            if r.has_text() {
                self.problem( ProblemCode::CutFile,
                    r.line,
                    Severity::Info,
                    0,
                    format!(
                        "last record (line {}) has no closing separator line: file cut short or still being written; read as far as it goes",
                        r.line
                    ),
                );
                r.truncated = true;
                self.out.push_back(Item::Record(r));
            } else {
                self.problem(
                    ProblemCode::CutRecord,
                    r.line,
                    Severity::Warning,
                    0,
                    format!(
                        "last record (line {}) is cut short before its message text: kept as an incomplete record",
                        r.line
                    ),
                );
                r.incomplete = true;
                r.truncated = true;
                self.out.push_back(Item::Record(r));
            }
        }
        if let Some(p) = self.parked.take() {
            self.keep_textless(p);
        }
    }
}

/// Wrapped lines joined with single spaces; blank lines (paragraphs) kept
/// as line breaks.
#[cfg(test)]
pub(super) fn join_paragraphs<'a>(lines: impl IntoIterator<Item = &'a str>) -> String {
    let mut out = String::new();
    join_paragraphs_into(&mut out, lines, '\n');
    out
}

/// `join_paragraphs` appended to `out`, with `para` between paragraphs.
pub(super) fn join_paragraphs_into<'a>(
    out: &mut String,
    lines: impl IntoIterator<Item = &'a str>,
    para: char,
) {
    let from = out.len();
    let mut open = false;
    for l in lines {
        let t = trim(l);
        if t.is_empty() {
            open = false;
            continue;
        }
        if open {
            out.push(' ');
        } else if out.len() > from {
            out.push(para);
        }
        out.push_str(t);
        open = true;
    }
}

// ---------------------------------------------------------------------------
// The source

/// Canonical insert names and the event attribute each raw value is kept
/// under.
pub(super) const INSERT_ATTRS: &[(&str, mqdiag_model::event::Key)] = &[
    ("ArithInsert1", mqdiag_model::event::Key::ArithInsert1),
    ("ArithInsert2", mqdiag_model::event::Key::ArithInsert2),
    ("CommentInsert1", mqdiag_model::event::Key::CommentInsert1),
    ("CommentInsert2", mqdiag_model::event::Key::CommentInsert2),
    ("CommentInsert3", mqdiag_model::event::Key::CommentInsert3),
    ("RemoteHost", mqdiag_model::event::Key::RemoteHost),
];

/// The offset for a record without `Time()` at `line`: that of the records
/// with `Time()` around it (read in the record's date order). Where the two
/// neighbours disagree (a daylight-saving change between them) the one that
/// keeps the record between them in time is taken, the earlier one when
/// both or neither do, and the record gets a note.
pub(super) fn neighbour_offset(
    run: &FileRun,
    info: &mut FileInfo,
    order: Order,
    line: u64,
    local: NaiveDateTime,
) -> FixedOffset {
    let segs = &run.ahead.scan.p.segs[order_index(order)];
    // Index of the first run starting after the line.
    let next = segs.partition_point(|s| s.first <= line);
    let chosen = match (next.checked_sub(1).map(|i| segs[i]), segs.get(next)) {
        (None, None) => return run.offset,
        (Some(p), _) if line <= p.last => p.offset,
        (None, Some(n)) => n.offset,
        (Some(p), None) => p.offset,
        (Some(p), Some(n)) => {
            let between = |off: i32| {
                let t = local - chrono::Duration::seconds(off as i64);
                t >= p.last_utc && t <= n.first_utc
            };
            let off = if !between(p.offset) && between(n.offset) {
                n.offset
            } else {
                p.offset
            };
            info.problem(
                ProblemCode::OffsetChange,
                Some(line),
                Severity::Info,
                0,
                format!(
                    "record has no Time() and its neighbours disagree on the UTC offset ({} at line {}, {} at line {}; a daylight-saving change?): read at {}",
                    offset_label(p.offset),
                    p.last,
                    offset_label(n.offset),
                    n.first,
                    offset_label(off)
                ),
            );
            off
        }
    };
    FixedOffset::east_opt(chosen).unwrap_or(run.offset)
}
