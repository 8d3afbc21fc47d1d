//! The trace source: files and segments, the event queue, and the
//! `Source` interface the merge reads.

use super::*;

/// A line number kept as decimal text: the next line's number is one
/// increment of the text, not a conversion.
#[derive(Default)]
pub(super) struct LineText {
    pub(super) no: u64,
    pub(super) digits: [u8; 20],
    pub(super) from: usize,
}

impl LineText {
    /// Append `no` in decimal.
    pub(super) fn put(&mut self, out: &mut Vec<u8>, no: u64) {
        if self.no != 0 && no == self.no + 1 {
            let mut i = self.digits.len();
            loop {
                i -= 1;
                if self.digits[i] == b'9' {
                    self.digits[i] = b'0';
                    if i == self.from {
                        self.from -= 1;
                        self.digits[self.from] = b'1';
                        break;
                    }
                } else {
                    self.digits[i] += 1;
                    break;
                }
            }
        } else {
            let mut b = itoa::Buffer::new();
            let s = b.format(no).as_bytes();
            self.from = self.digits.len() - s.len();
            self.digits[self.from..].copy_from_slice(s);
        }
        self.no = no;
        out.extend_from_slice(&self.digits[self.from..]);
    }
}

/// What reading on in a file gave.
pub(super) enum Step {
    /// Rows rendered (maybe none: a line's events may wait in `out`).
    Rows(usize),
    /// The reader has no more lines.
    Ended,
}

/// Per-file reading state.
pub(super) struct Segment {
    pub(super) input: Input,
    pub(super) info: FileInfo,
    pub(super) origin: Arc<Origin>,
    /// Boxed: it is taken out and put back for every line read.
    pub(super) lines: Option<Box<LineReader<Box<dyn Read + Send>>>>,
    /// `  PATH:` as text rows show it.
    pub(super) row_path: Vec<u8>,
    /// Line numbers as text.
    pub(super) row_line: LineText,
}

pub(crate) struct TraceSource {
    pub(super) opts: ReadOptions,
    pub(super) pending: VecDeque<Input>,
    pub(super) seg: Option<Segment>,
    pub(super) done: Vec<FileInfo>,
    // Carried across the segments of a group.
    pub(super) layout: Layout,
    pub(super) date: Option<NaiveDate>,
    pub(super) offset: Option<FixedOffset>,
    /// Time of day of the last dated line, nanoseconds since midnight.
    pub(super) last_tod: Option<i64>,
    pub(super) threads: Threads,
    pub(super) names: Interner,
    /// Function names met lately, with their interest.
    pub(super) calls: Calls,
    /// The last text line's interest.
    pub(super) text_seen: TextSeen,
    /// The last timestamp made.
    pub(super) stamps: Stamps,
    /// The columns of the last lines split.
    pub(super) columns: Columns,
    /// Lines in a row the search found candidates, and how many make the
    /// next ones tested on their fields (`DENSE`; tests change it).
    pub(super) dense: u32,
    pub(super) dense_after: u32,
    // Per segment.
    pub(super) header: Header,
    pub(super) in_header: bool,
    pub(super) seen_title: bool,
    pub(super) held: Vec<(NaiveTime, Event)>,
    pub(super) last_counter: Option<u32>,
    /// Whether this segment's date and offset are decided.
    pub(super) clock_settled: bool,
    /// Local time of the first and the last record skipped by interest,
    /// in line order (their times are not read: see `skip_run`).
    pub(super) skipped: Option<((NaiveDate, NaiveTime), (NaiveDate, NaiveTime))>,
    /// `PID.TID` columns (the 16 bytes after a time) known good, by the
    /// first digit of the thread (`skip_run`).
    pub(super) seen_cols: [u128; 8],
    /// The title names `Process.Thread` (UNIX `dspmqtrc` layout).
    pub(super) unix_title: bool,
    pub(super) out: VecDeque<Event>,
    /// The vector `next_events` fills, lent while it reads: events go
    /// there as they are made, not through `out` (a move of each fewer).
    pub(super) direct: Option<Vec<Event>>,
    /// The byte offset of the line being read the full way.
    pub(super) line_at: u64,
    /// The day of the last row rendered straight from its line.
    pub(super) day: Option<Day>,
    /// Idents known to have the ident shape.
    pub(super) idents: Idents,
    /// Earliest and latest instant of the rows rendered straight from
    /// their lines in this segment.
    pub(super) fast_span: Option<(i64, i64)>,
    /// Steps back in time of this segment's threads.
    pub(super) back: TimeBack,
    /// Set while this source renders a block ahead of the lines before it.
    pub(super) ahead: Option<blocks::Ahead>,
    /// Helpers rendering blocks of the current file ahead.
    pub(super) par: Option<Box<blocks::Pipeline>>,
    /// The current file is past what helpers can take (a line longer than
    /// a block): read on alone.
    pub(super) par_off: bool,
    /// Blocks of the last file with helpers: stitched, read again, and
    /// durations found at a stitch.
    #[cfg(test)]
    pub(super) par_counts: (u64, u64, u64),
}

impl TraceSource {
    pub(crate) fn new(inputs: Vec<Input>, opts: ReadOptions) -> Self {
        TraceSource {
            opts,
            pending: inputs.into(),
            seg: None,
            done: Vec::new(),
            layout: Layout::default(),
            date: None,
            offset: None,
            last_tod: None,
            threads: Threads::default(),
            names: Interner::default(),
            calls: Calls::default(),
            text_seen: TextSeen::default(),
            stamps: Stamps::default(),
            columns: Columns::default(),
            dense: 0,
            dense_after: DENSE,
            header: Header::default(),
            in_header: false,
            seen_title: false,
            held: Vec::new(),
            last_counter: None,
            clock_settled: false,
            skipped: None,
            seen_cols: [0; 8],
            unix_title: false,
            out: VecDeque::new(),
            direct: None,
            line_at: 0,
            day: None,
            idents: Idents::default(),
            fast_span: None,
            back: TimeBack::default(),
            ahead: None,
            par: None,
            par_off: false,
            #[cfg(test)]
            par_counts: (0, 0, 0),
        }
    }

    pub(super) fn start_segment(&mut self, input: Input) {
        let mut info = FileInfo::new(&input.display, super::FORMAT, input.bytes);
        let origin = input.origin(super::FORMAT);
        let lines =
            crate::formats::open_lines_with(&input, &mut info, self.opts.read_buffer).map(Box::new);
        if input.bytes == 0 {
            info.problem(
                ProblemCode::EmptyFile,
                None,
                Severity::Warning,
                0,
                "empty file",
            );
        }
        self.header = Header::default();
        self.in_header = false;
        self.seen_title = false;
        self.unix_title = false;
        self.last_counter = None;
        self.clock_settled = false;
        self.back = TimeBack::default();
        self.seg = Some(Segment {
            input,
            info,
            row_path: format!("  {}:", origin.path).into_bytes(),
            origin,
            lines,
            row_line: LineText::default(),
        });
    }

    pub(super) fn end_segment(&mut self) {
        self.par = None;
        self.par_off = false;
        self.flush_held();
        if let (Some(((d0, t0), (d1, t1))), Some(off)) = (self.skipped.take(), self.offset)
            && let Some(seg) = self.seg.as_mut()
        {
            for t in [d0.and_time(t0), d1.and_time(t1)] {
                if let Some(ts) = off.from_local_datetime(&t).single() {
                    let info = &mut seg.info;
                    if info.first.is_none_or(|f| ts < f) {
                        info.first = Some(ts);
                    }
                    if info.last.is_none_or(|l| ts > l) {
                        info.last = Some(ts);
                    }
                }
            }
        }
        if let (Some((lo, hi)), Some(off), Some(seg)) =
            (self.fast_span.take(), self.offset, self.seg.as_mut())
        {
            for k in [lo, hi] {
                let ts = DateTime::from_timestamp_nanos(k).with_timezone(&off);
                let info = &mut seg.info;
                if info.first.is_none_or(|f| ts < f) {
                    info.first = Some(ts);
                }
                if info.last.is_none_or(|l| ts > l) {
                    info.last = Some(ts);
                }
            }
        }
        if let Some(mut seg) = self.seg.take() {
            if seg.info.variant.is_none() {
                seg.info.variant = Some(self.variant_name().to_string());
            }
            std::mem::take(&mut self.back).report(&mut seg.info);
            if self.in_header {
                seg.info.problem(
                    ProblemCode::CutFile,
                    Some(seg.info.lines),
                    Severity::Warning,
                    0,
                    "file ends inside its header (no closing `----` rule)",
                );
            }
            if let Some(l) = &seg.lines {
                seg.info.bytes = seg.info.bytes.max(l.bytes_read());
            }
            self.done.push(seg.info);
        }
    }

    pub(super) fn variant_name(&self) -> &'static str {
        if !self.seen_title {
            "headerless"
        } else if self.layout.counter == Some(true) {
            "windows-counter"
        } else if self.unix_title {
            "unix"
        } else {
            "windows"
        }
    }

    pub(super) fn flush_held(&mut self) {
        if self.held.is_empty() {
            return;
        }
        self.hazard();
        if !self.clock_settled {
            let first = self.held.first().map(|(t, _)| *t);
            self.settle_clock(first);
        }
        let held = std::mem::take(&mut self.held);
        for (tod, mut e) in held {
            e.ts = self.timestamp(tod, e.line);
            self.emit(e);
        }
    }

    pub(super) fn emit(&mut self, e: Event) {
        if let Some(seg) = self.seg.as_mut() {
            seg.info.saw_event(&e.ts);
        }
        self.emit_seen(e);
    }

    /// `emit` of an event the file's facts have counted already (with its
    /// instant known, `FileInfo::saw_event_at` does not work it out again).
    pub(super) fn emit_seen(&mut self, e: Event) {
        if let Some(a) = self.ahead.as_mut() {
            a.rows += 1;
        }
        // Straight to the caller's vector while nothing waits before it.
        match self.direct.as_mut() {
            Some(v) if self.out.is_empty() => v.push(e),
            _ => self.out.push_back(e),
        }
    }

    /// Read one physical line; false at end of segment.
    pub(super) fn step(&mut self) -> bool {
        let Some(seg) = self.seg.as_mut() else {
            return false;
        };
        // The reader is taken out while its line is handled, so the line can
        // be borrowed without a copy.
        let Some(mut reader) = seg.lines.take() else {
            return false;
        };
        let more = self.read_one(&mut reader);
        if let Some(seg) = self.seg.as_mut() {
            seg.lines = Some(reader);
        }
        more
    }

    pub(super) fn read_one(&mut self, reader: &mut LineReader<Box<dyn Read + Send>>) -> bool {
        // Where every line is a candidate, the search over the read buffer
        // finds one in each next line: a cheaper test on the parsed line
        // answers instead (`take_line`).
        let candidate = match self.dense >= self.dense_after {
            true => None,
            false => match self.skip_run(reader) {
                fast::Run::Skipped => {
                    self.dense = 0;
                    return true;
                }
                fast::Run::Candidate => {
                    self.dense += 1;
                    Some(true)
                }
                fast::Run::No => {
                    self.dense = 0;
                    Some(false)
                }
            },
        };
        let seg = self.seg.as_mut().expect("segment");
        let Some((meta, bytes)) = crate::formats::read_line(reader, &mut seg.info) else {
            return false;
        };
        // A line cut short may have lost what the search found.
        self.take_line(meta, bytes, candidate.map(|c| c && !meta.truncated));
        true
    }

    /// Handle one physical line the full way. `candidate`: whether the
    /// line is known to name something of interest (`None`: not searched).
    pub(super) fn take_line(
        &mut self,
        meta: crate::lines::LineMeta,
        bytes: &[u8],
        candidate: Option<bool>,
    ) {
        let seg = self.seg.as_mut().expect("segment");
        let no = meta.no;
        self.line_at = meta.offset;
        if meta.truncated {
            seg.info.line_cut(no, meta.full_len, bytes.len());
        }
        let clean: Option<Vec<u8>> = if has_nul(bytes) {
            seg.info.problem(
                ProblemCode::NulBytes,
                Some(no),
                Severity::Warning,
                0,
                "NUL bytes in line: removed",
            );
            Some(bytes.iter().copied().filter(|&b| b != 0).collect())
        } else {
            None
        };
        let bytes = clean.as_deref().unwrap_or(bytes);
        let Some(candidate) = candidate else {
            // Not searched: a record whose function name or text alone is
            // a candidate is one (its bytes are the line's when it is
            // UTF-8), and goes the full way as a found one would; any
            // other line is judged as one the search did not find, and
            // searches come back.
            if let Some(rec) = parse_record_bytes(bytes, self.parse_layout(), &mut self.columns)
                && self.names_candidate(rec.data)
            {
                self.take_record(no, bytes, rec, meta.unterminated);
                return;
            }
            self.dense = 0;
            if !meta.unterminated && self.skip_cheaply(bytes, false) {
                return;
            }
            self.handle_line(no, &decode_lossy(bytes), meta.unterminated);
            return;
        };
        // A cut last line is a problem to report even when no pass reads it.
        if !meta.unterminated && self.skip_cheaply(bytes, candidate) {
            return;
        }
        // A record split from its bytes, as from its text (the line is
        // UTF-8): only its ident and data are validated.
        if let Some(rec) = parse_record_bytes(bytes, self.parse_layout(), &mut self.columns) {
            self.take_record(no, bytes, rec, meta.unterminated);
            return;
        }
        // Latin-1 / CP850 bytes in process names or dumps: keep every byte.
        let line = decode_lossy(bytes);
        self.handle_line(no, &line, meta.unterminated);
    }

    /// Whether a record's data alone names something of interest: the
    /// function it enters or leaves, or its text (the answers are kept by
    /// name and text). Any part of the line will do (one that holds what
    /// the search looks for makes the line a candidate): the function is
    /// split as the text path splits it, cheaper than `classify`.
    fn names_candidate(&mut self, data: &str) -> bool {
        let Some(interest) = self.opts.interest.as_deref() else {
            return false;
        };
        let d = data.strip_prefix("!! - ").unwrap_or(data);
        match call_of(d.as_bytes()) {
            // Split at ASCII bytes: the word is text of the line.
            Call::Entry(f) | Call::Exit(f) => {
                // Where the word lies in `d` (addresses compared, nothing
                // read): text again without a second validation.
                let at = (f.as_ptr() as usize).wrapping_sub(d.as_ptr() as usize);
                match d.get(at..at.saturating_add(f.len())) {
                    Some(f) => self.calls.candidate(f, interest, &mut self.names),
                    None => false,
                }
            }
            Call::Other => self.text_seen.candidate(interest, d),
        }
    }
}

/// `next_events`' vector, lent to the source (`TraceSource::direct`) for
/// one step, and given back when dropped.
struct Lent<'a> {
    src: &'a mut TraceSource,
    out: &'a mut Vec<Event>,
}

impl<'a> Lent<'a> {
    fn new(src: &'a mut TraceSource, out: &'a mut Vec<Event>) -> Self {
        src.direct = Some(std::mem::take(out));
        Lent { src, out }
    }
}

impl Drop for Lent<'_> {
    fn drop(&mut self) {
        if let Some(v) = self.src.direct.take() {
            *self.out = v;
        }
    }
}

/// Lines in a row found candidates by the search before the next ones are
/// tested on their parsed fields instead.
pub(super) const DENSE: u32 = 4;

impl TraceSource {
    /// One step of reading once the events read are taken: the next
    /// segment, a block from the helpers, or a line; false when nothing
    /// is left to read.
    fn read_on(&mut self) -> bool {
        if self.seg.is_none() {
            let Some(next) = self.pending.pop_front() else {
                return false;
            };
            self.start_segment(next);
            return true;
        }
        if (self.par.is_some() || self.par_wanted(false))
            && let blocks::Next::Rows(_) = self.par_events()
        {
            return true;
        }
        if !self.step() {
            self.reader_ended();
        }
        true
    }
}

impl Source for TraceSource {
    fn next_event(&mut self) -> Option<Event> {
        loop {
            if let Some(e) = self.out.pop_front() {
                return Some(e);
            }
            if !self.read_on() {
                return None;
            }
        }
    }

    fn next_events(&mut self, out: &mut Vec<Event>, n: usize) -> bool {
        // `next_event` `n` times: the same reading, the events moved in one go.
        let from = out.len();
        loop {
            if out.len() - from >= n {
                // A step may make more events than asked: the rest wait,
                // first in line.
                for e in out.drain(from + n..).rev() {
                    self.out.push_front(e);
                }
                return true;
            }
            if let Some(e) = self.out.pop_front() {
                out.push(e);
                continue;
            }
            // The vector is lent to `emit`, and given back on a panic too.
            let lent = Lent::new(self, out);
            let more = lent.src.read_on();
            drop(lent);
            if !more {
                return false;
            }
        }
    }

    fn next_rows(
        &mut self,
        sink: &mut RowSink,
        out: &mut Vec<u8>,
        n: usize,
        limit: usize,
        row: &mut dyn FnMut(RowMeta, usize, usize),
    ) -> bool {
        if !sink.spec.raw_text() {
            return crate::source::rows_of_events(self, sink, out, n, limit, row);
        }
        let mut k = 0;
        while k < n && (k == 0 || out.len() < limit) {
            if let Some(e) = self.out.pop_front() {
                let start = out.len();
                let m = sink.event_row(e, out);
                row(m, start, out.len());
                k += 1;
                continue;
            }
            if self.seg.is_none() {
                let Some(next) = self.pending.pop_front() else {
                    return false;
                };
                self.start_segment(next);
                continue;
            }
            if self.par.is_some() || self.par_wanted(true) {
                match self.par_rows(sink, out, n - k, limit, row) {
                    blocks::Next::Rows(got) => {
                        k += got;
                        continue;
                    }
                    blocks::Next::Usual => {}
                }
            }
            match self.read_rows(out, n - k, limit, row) {
                Step::Rows(got) => k += got,
                // Rows of one call are of one file (see `RowMeta`): the file
                // is closed on the next call when this one rendered rows. (A
                // block read again ends inside the file: reading goes on, so
                // that calls end where they would without helpers.)
                Step::Ended if k > 0 && self.par.is_none() => return true,
                Step::Ended => self.reader_ended(),
            }
        }
        true
    }

    fn current_origin(&self) -> Option<Arc<mqdiag_model::event::Origin>> {
        self.seg.as_ref().map(|s| s.origin.clone())
    }

    fn finish(mut self: Box<Self>) -> Vec<FileInfo> {
        if self.seg.is_some() {
            self.end_segment();
        }
        // Calls still open when the trace ended are normal (trace stopped
        // mid-call); they are not problems.
        std::mem::take(&mut self.done)
    }
}
