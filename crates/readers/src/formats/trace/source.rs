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
        if let Some(a) = self.ahead.as_mut() {
            a.rows += 1;
        }
        if let Some(seg) = self.seg.as_mut() {
            seg.info.saw_event(&e.ts);
        }
        self.out.push_back(e);
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
        let candidate = match self.skip_run(reader) {
            fast::Run::Skipped => return true,
            fast::Run::Candidate => true,
            fast::Run::No => false,
        };
        let seg = self.seg.as_mut().expect("segment");
        let Some((meta, bytes)) = crate::formats::read_line(reader, &mut seg.info) else {
            return false;
        };
        // A line cut short may have lost what the search found.
        self.take_line(meta, bytes, candidate && !meta.truncated);
        true
    }

    /// Handle one physical line the full way. `candidate`: the line is
    /// known to name something of interest.
    pub(super) fn take_line(
        &mut self,
        meta: crate::lines::LineMeta,
        bytes: &[u8],
        candidate: bool,
    ) {
        let seg = self.seg.as_mut().expect("segment");
        let no = meta.no;
        self.line_at = meta.offset;
        if meta.truncated {
            seg.info.line_cut(no, meta.full_len, bytes.len());
        }
        let clean: Option<Vec<u8>> = if memchr::memchr(0, bytes).is_some() {
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
        // A cut last line is a problem to report even when no pass reads it.
        if !meta.unterminated && self.skip_cheaply(bytes, candidate) {
            return;
        }
        // Latin-1 / CP850 bytes in process names or dumps: keep every byte.
        let line = decode_lossy(bytes);
        self.handle_line(no, &line, meta.unterminated);
    }
}

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
            if out.len() - from == n {
                return true;
            }
            if let Some(e) = self.out.pop_front() {
                out.push(e);
                continue;
            }
            if !self.read_on() {
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
