//! The fast paths: timeline rows written straight from the line, and
//! runs of lines skipped without building events.

use super::*;

/// What `skip_run` did.
pub(super) enum Run {
    /// Lines were skipped.
    Skipped,
    /// None: the next line names something of interest (the search found
    /// it there).
    Candidate,
    /// None.
    No,
}

/// The newline searcher for `lines_in`: on x86-64 with AVX2, the one
/// `memchr_iter` would pick, made once per block instead of looked up and
/// made again for each line.
#[cfg(target_arch = "x86_64")]
type Newline = Option<memchr::arch::x86_64::avx2::memchr::One>;
#[cfg(not(target_arch = "x86_64"))]
type Newline = ();

#[cfg(target_arch = "x86_64")]
fn newline() -> Newline {
    memchr::arch::x86_64::avx2::memchr::One::new(b'\n')
}
#[cfg(not(target_arch = "x86_64"))]
fn newline() -> Newline {}

/// Line ends in a block of lines.
enum LineEnds<'a> {
    #[cfg(target_arch = "x86_64")]
    Avx2(memchr::arch::x86_64::avx2::memchr::OneIter<'a, 'a>),
    Any(memchr::Memchr<'a>),
}

impl Iterator for LineEnds<'_> {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        match self {
            #[cfg(target_arch = "x86_64")]
            LineEnds::Avx2(i) => i.next(),
            LineEnds::Any(i) => i.next(),
        }
    }
}

fn lines_in<'a>(nl: &'a Newline, b: &'a [u8]) -> LineEnds<'a> {
    #[cfg(target_arch = "x86_64")]
    if let Some(one) = nl {
        return LineEnds::Avx2(one.iter(b));
    }
    let _ = nl;
    LineEnds::Any(memchr::memchr_iter(b'\n', b))
}

impl TraceSource {
    /// With an interest set: skip, in one search over the read buffer, the
    /// run of well-formed record lines before the next line that names
    /// something of interest. Each skipped line is still checked for the
    /// record shape, its time and `PID.TID` columns (an odd one ends the
    /// run and is read the full way, so problems are still found), but
    /// its time is not read: only its hour
    /// digits are compared, as bytes, with the clock's. A line in the
    /// clock's hour can neither cross midnight nor step back more than an
    /// hour, so it keeps the date; a line in another hour is read in full
    /// and moves the clock (or ends the run: a step back the full way
    /// reports). The file's time range takes the first and last records
    /// skipped (`count_skipped`). Returns `Run::No` when nothing could be
    /// skipped.
    pub(super) fn skip_run(&mut self, reader: &mut LineReader<Box<dyn Read + Send>>) -> Run {
        if !self.may_skip() {
            return Run::No;
        }
        let Some(mut clock_date) = self.date else {
            return Run::No;
        };
        let Some(interest) = self.opts.interest.as_deref() else {
            return Run::No;
        };
        let Ok((block, base, searched)) = reader.buffered_searched() else {
            return Run::No;
        };
        // The lines that end before the first candidate (or NUL byte). A
        // candidate in the first line ends the run there, wherever in the
        // line it is.
        let candidate = interest.candidate_in(block, base, searched);
        let mut stop = candidate.unwrap_or(block.len());
        if let Some(p) = memchr::memchr(0, &block[..stop]) {
            stop = p;
        }
        let region = &block[..stop];
        let (mut pos, mut n) = (0usize, 0u64);
        // Every line keeps the clock as if it were read in full: the dates
        // do not depend on where the read buffer happens to end. A line in
        // the hour of the clock's last time becomes the last time, which is
        // read in full only when needed.
        let full = |t: &[u8]| plain_tod(t).or_else(|| parse_time_of_day(t).map(tod_nanos));
        let mut clock_hour = self.last_tod.map_or(u64::MAX, hour_word);
        // Where the time of the last line in the clock's hour starts.
        let mut pending: Option<usize> = None;
        // Where the first and the last line's time starts, and their dates.
        let (mut first, mut last) = ((0usize, clock_date), (0usize, clock_date));
        let newline = newline();
        for nl in lines_in(&newline, region) {
            let line = &region[pos..nl];
            // ` HH:MM:SS.ffffff ` after an optional flag, the `PID.TID`
            // column, then more (a shorter line goes the full way).
            let Some(head) = line.first_chunk::<33>() else {
                break;
            };
            let s = usize::from(head[0] == b' ' || head[0] == b'*');
            if head[s + 15] != b' ' {
                break;
            }
            let t = &head[s..s + 15];
            let Some((a, _)) = tod_words(t) else {
                break;
            };
            // A `PID.TID` the full way cannot read makes no record there:
            // a located problem. The 16 bytes after the time are the same
            // on every line of a thread: those of a thread seen lately
            // are not judged again (the first digit of its number picks
            // its place).
            let mut cols = [0u8; 16];
            cols.copy_from_slice(&head[s + 16..s + 32]);
            let cols = u128::from_le_bytes(cols);
            let seen = &mut self.seen_cols[(cols >> 72) as usize & 7];
            if *seen != cols {
                if plain_pid_tid(cols) {
                    *seen = cols;
                } else if pid_tid(line, s + 16).is_none() {
                    break;
                }
            }
            // The clock's hour, with minutes and seconds below 60.
            let date = if a & 0xFFFF == clock_hour && (a >> 24) & 0xFF <= 5 && (a >> 48) & 0xFF <= 5
            {
                pending = Some(pos + s);
                clock_date
            } else {
                let Some(tod) = full(t) else {
                    break;
                };
                if let Some(p) = pending.take() {
                    self.last_tod = full(&region[p..p + 15]);
                }
                if self.implausible_jump(tod) {
                    // Reported, with its line, the full way.
                    break;
                }
                let date = self.roll_nanos(tod);
                if self.last_tod == Some(tod) {
                    // The clock moved to this line.
                    clock_hour = a & 0xFFFF;
                    clock_date = date;
                }
                date
            };
            if n == 0 {
                first = (pos + s, date);
            }
            last = (pos + s, date);
            n += 1;
            pos = nl + 1;
        }
        if let Some(p) = pending {
            self.last_tod = full(&region[p..p + 15]);
        }
        if n == 0 {
            // A match before the first line end is in the next line read.
            return if candidate == Some(stop) && memchr::memchr(b'\n', region).is_none() {
                Run::Candidate
            } else {
                Run::No
            };
        }
        let local = |(at, date): (usize, NaiveDate)| {
            let n = full(&region[at..at + 15])?;
            let (secs, nanos) = (n / 1_000_000_000, n % 1_000_000_000);
            NaiveTime::from_num_seconds_from_midnight_opt(secs as u32, nanos as u32)
                .map(|t| (date, t))
        };
        let (Some(first), Some(last)) = (local(first), local(last)) else {
            return Run::No;
        };
        self.count_skipped(first, last, n);
        reader.skip(pos, n);
        if let Some(seg) = self.seg.as_mut() {
            seg.info.lines = reader.line_no();
        }
        Run::Skipped
    }

    /// Whether record lines may be skipped: the header is read and the
    /// clock settled. Counter layouts are read in full: every counter is
    /// checked.
    pub(super) fn may_skip(&self) -> bool {
        self.clock_settled
            && !self.in_header
            // Near the edge of what can be ordered, every line goes the
            // full way: one dated past it is then a located problem.
            && self.date.is_some_and(mqdiag_model::timefmt::orderable_date)
            && self.layout.counter == Some(false)
            && self.seg.as_ref().is_some_and(|s| s.info.pid.is_some())
    }

    /// Whether plain record lines may be rendered straight to text rows:
    /// the file's header, layout, date and offset are known, nothing is
    /// queued, and every line is wanted.
    pub(super) fn fast_ready(&self) -> bool {
        self.body_ready() && self.opts.interest.is_none()
    }

    /// Whether the file is in its body: header read, clock settled,
    /// nothing queued, a layout with no counter column.
    pub(super) fn body_ready(&self) -> bool {
        self.clock_settled
            && !self.in_header
            && self.held.is_empty()
            && self.out.is_empty()
            && self.layout.counter == Some(false)
            && self.layout.ident.is_some()
            && self.offset.is_some()
            && self.seg.as_ref().is_some_and(|s| s.info.pid.is_some())
    }

    /// The text row of a plain record line, exactly as the event built the
    /// full way would render (`sink::text_row`, from the same pieces), with no event,
    /// string or time zone arithmetic per line. `None`, with nothing
    /// changed, for any line that needs the full way.
    pub(super) fn fast_row(&mut self, no: u64, b: &[u8], out: &mut Vec<u8>) -> Option<RowMeta> {
        let p = plain_record(b, self.layout.ident == Some(true), &mut self.idents)?;
        let off = self.offset?;
        // Rolling the date twice for one line changes nothing, so a `None`
        // below still leaves the line to the full way.
        if self.implausible_jump(p.tod_nanos) {
            // Reported, with its line, the full way.
            return None;
        }
        let date = self.roll_nanos(p.tod_nanos);
        let day = match &self.day {
            Some(d) if d.date == date && d.offset == off => d,
            _ => self.day.insert(Day::new(date, off)?),
        };
        let key = day.base + p.tod_nanos;
        if !mqdiag_model::timefmt::orderable(key) {
            // Built the full way: the merge reports it, with its line.
            return None;
        }
        let names = &mut self.names;
        let ahead = &mut self.ahead;
        self.threads.trim();
        let thread = self.threads.by_text(p.pid_tid, p.pid_tid_key)?;
        if key < thread.newest {
            // A step back within the thread: the full way places it.
            return None;
        }
        let seg = self.seg.as_mut()?;
        // Nothing is written before this point: a `None` above leaves the
        // line to the full way.
        out.reserve(b.len() + 128);
        // The day's text, then the time of day over its middle: patching a
        // copy on the stack first made the 16-byte loads of the copy wait
        // for the smaller stores (a store-forwarding stall on every row).
        let at = out.len();
        out.extend_from_slice(&day.text);
        out[at + 11..at + 26].copy_from_slice(p.tod);
        let text = p.data.strip_prefix(b"!! - ").unwrap_or(p.data);
        let elapsed = match call_of(text) {
            Call::Entry(f) => {
                thread.last_record_line = no;
                if thread.stack.len() >= MAX_STACK {
                    thread.stack.remove(0);
                }
                thread.stack.push((names.get_bytes(f), key));
                thread.max_depth = thread.max_depth.max(thread.stack.len());
                None
            }
            Call::Exit(f) => {
                thread.last_record_line = no;
                let pos = thread.stack.iter().rposition(|(g, _)| g.as_bytes() == f);
                if pos.is_none()
                    && let Some(a) = ahead.as_mut()
                {
                    a.unmatched(thread, || names.get_bytes(f), key);
                }
                pos.and_then(|pos| {
                    let start = thread.stack[pos].1;
                    thread.stack.truncate(pos);
                    micros_between(start, key)
                })
            }
            Call::Other => {
                // Dump rows belong to the record before them.
                if !is_dump_row(text) {
                    thread.last_record_line = no;
                }
                None
            }
        };
        // `Thread::stamp` of a record that does not step back.
        if thread.newest == i64::MIN {
            thread.first = key;
        }
        thread.newest = key;
        thread.newest_line = no;
        out.extend_from_slice(&seg.row_path);
        seg.row_line.put(out, no);
        out.extend_from_slice(thread.label());
        // `plain_record` proved the line printable ASCII.
        push_plain_row_tail(out, p.ident, text, elapsed);
        seg.info.events += 1;
        if let Some(a) = ahead.as_mut() {
            a.rows += 1;
        }
        self.fast_span = Some(match self.fast_span {
            Some((lo, hi)) => (lo.min(key), hi.max(key)),
            None => (key, key),
        });
        Some(RowMeta {
            key,
            offset: off.local_minus_utc(),
            line: no,
            origin: None,
            undated: false,
        })
    }

    /// Read on in the current file's reader: a block of plain lines
    /// straight to rows when the file allows it, then one line the usual
    /// way (its events wait in `out`).
    pub(super) fn read_rows(
        &mut self,
        out: &mut Vec<u8>,
        n: usize,
        limit: usize,
        row: &mut dyn FnMut(RowMeta, usize, usize),
    ) -> Step {
        if !self.fast_ready() {
            return if self.step() {
                Step::Rows(0)
            } else {
                Step::Ended
            };
        }
        let Some(mut reader) = self.seg.as_mut().and_then(|s| s.lines.take()) else {
            return Step::Ended;
        };
        // A block of plain lines at a time, straight from the read buffer;
        // then one line the usual way (the line that stopped the block, or
        // one only partly buffered).
        let got = self.fast_block(&mut reader, out, n, limit, row);
        let start = out.len();
        let line = if got > 0 {
            Some(None)
        } else {
            let info = &mut self.seg.as_mut().expect("segment").info;
            crate::formats::read_line(&mut reader, info).map(|(meta, bytes)| {
                let fast = (!meta.truncated && !meta.unterminated)
                    .then(|| self.fast_row(meta.no, bytes, out))
                    .flatten();
                if fast.is_none() {
                    self.take_line(meta, bytes, Some(false));
                }
                fast
            })
        };
        if let Some(seg) = self.seg.as_mut() {
            seg.lines = Some(reader);
        }
        match line {
            None => Step::Ended,
            Some(Some(m)) => {
                row(m, start, out.len());
                Step::Rows(got + 1)
            }
            Some(None) => Step::Rows(got),
        }
    }

    /// The current reader has no more lines: the end of a block read
    /// again (the file goes on with its helpers), or of the file.
    pub(super) fn reader_ended(&mut self) {
        if self.par.is_some() {
            if let Some(seg) = self.seg.as_mut() {
                seg.lines = None;
            }
        } else {
            self.end_segment();
        }
    }

    /// Something a block read ahead cannot know from its own lines (a
    /// header, a counter, a clock to settle): the block is read again
    /// once the lines before it are.
    pub(super) fn hazard(&mut self) {
        if let Some(a) = self.ahead.as_mut() {
            a.hazard = true;
        }
    }

    /// Render the plain lines at the start of the read buffer, up to `n`
    /// rows (or `limit` bytes of `out`), consuming them; stops before the
    /// first line that needs the full way. Returns the rows rendered.
    pub(super) fn fast_block(
        &mut self,
        reader: &mut LineReader<Box<dyn Read + Send>>,
        out: &mut Vec<u8>,
        n: usize,
        limit: usize,
        row: &mut dyn FnMut(RowMeta, usize, usize),
    ) -> usize {
        let first = reader.line_no();
        let Ok(block) = reader.buffered_lines() else {
            return 0;
        };
        let (mut pos, mut k) = (0usize, 0usize);
        for nl in memchr::memchr_iter(b'\n', block) {
            if k == n || (k > 0 && out.len() >= limit) {
                break;
            }
            let start = out.len();
            let no = first + k as u64 + 1;
            let Some(m) = self.fast_row(no, &block[pos..nl], out) else {
                break;
            };
            row(m, start, out.len());
            k += 1;
            pos = nl + 1;
        }
        reader.skip(pos, k as u64);
        if let Some(seg) = self.seg.as_mut() {
            seg.info.lines = reader.line_no();
        }
        k
    }

    /// With an interest set, once the header is read: a well-formed record
    /// line that names nothing of interest is skipped after a byte check,
    /// keeping only the clock (midnight) up to date. Anything odd goes the
    /// full way, so problems are still found and located.
    pub(super) fn skip_cheaply(&mut self, b: &[u8], candidate: bool) -> bool {
        let Some(interest) = self.opts.interest.as_deref() else {
            return false;
        };
        if candidate || !self.may_skip() {
            return false;
        }
        // ` HH:MM:SS.ffffff` or `*HH:MM:SS.ffffff`, then a blank.
        let start = usize::from(matches!(b.first(), Some(b' ' | b'*')));
        let end = start + 15;
        if b.len() <= end || b[end] != b' ' {
            return false;
        }
        let Some(tod) = time_of_day(&b[start..end]) else {
            return false;
        };
        if pid_tid(b, end + 1).is_none() {
            return false;
        }
        if interest.candidate(b) || self.implausible_jump(tod_nanos(tod)) {
            return false;
        }
        let date = self.roll(tod);
        self.count_skipped((date, tod), (date, tod), 1);
        true
    }

    /// Skipped records still count: `events`, and the first and the last
    /// record skipped (in line order, `a` and `b` of a run) for the file's
    /// time range beside the records read.
    pub(super) fn count_skipped(
        &mut self,
        a: (NaiveDate, NaiveTime),
        b: (NaiveDate, NaiveTime),
        n: u64,
    ) {
        self.skipped.get_or_insert((a, b)).1 = b;
        if let Some(seg) = self.seg.as_mut() {
            seg.info.events += n;
        }
    }
}
