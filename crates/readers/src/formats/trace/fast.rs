//! The fast paths: timeline rows written straight from the line, and
//! runs of lines skipped without building events.

use super::*;

impl TraceSource {
    /// With an interest set: skip, in one search over the read buffer, the
    /// run of well-formed record lines before the next line that names
    /// something of interest. Each skipped line is still checked for the
    /// record shape and its time of day read (an odd one ends the run and
    /// is read the full way, so problems are still found). Returns false
    /// when nothing could be skipped.
    pub(super) fn skip_run(&mut self, reader: &mut LineReader<Box<dyn Read + Send>>) -> bool {
        let Some(interest) = self.opts.interest.clone() else {
            return false;
        };
        if !self.may_skip() {
            return false;
        }
        let Ok((block, base, searched)) = reader.buffered_searched() else {
            return false;
        };
        let line_start =
            |b: &[u8], at: usize| memchr::memrchr(b'\n', &b[..at]).map_or(0, |i| i + 1);
        let mut limit = match interest.first_candidate_in(block, base, searched) {
            Some(p) => line_start(block, p),
            None => block.len(),
        };
        if let Some(p) = memchr::memchr(0, &block[..limit]) {
            limit = line_start(block, p);
        }
        let region = &block[..limit];
        let (mut pos, mut n) = (0usize, 0u64);
        // Every line keeps the clock and the time range, as if it were read
        // in full: the dates and the file's time range do not depend on
        // where the read buffer happens to end. A line in the hour of the
        // clock's last time is within an hour of it: it keeps the date and
        // becomes the last time, which is read in full only when needed.
        let full = |t: &[u8]| plain_tod(t).or_else(|| parse_time_of_day(t).map(tod_nanos));
        let hour_of = |n: i64| {
            let h = (n / 3_600_000_000_000).clamp(0, 99) as u8;
            [b'0' + h / 10, b'0' + h % 10]
        };
        let mut clock_hour: Option<[u8; 2]> = self.last_tod.map(hour_of);
        let mut pending: Option<&[u8]> = None;
        // Earliest and latest: days since the run's first date and the
        // time's words, in an order that is the order of time; and the time.
        type Key<'b> = Option<((i64, u64, u64), &'b [u8])>;
        let (mut lo, mut hi): (Key, Key) = (None, None);
        // Days count from the clock's date (lines in the clock's hour keep
        // it).
        let Some(first) = self.date else {
            return false;
        };
        let mut days = 0i64;
        for nl in memchr::memchr_iter(b'\n', region) {
            let line = &region[pos..nl];
            let Some((s, e)) = record_time_slot(line) else {
                break;
            };
            let t = &line[s..e];
            let words = tod_words(t);
            let same_hour = clock_hour.is_some_and(|h| t[..2] == h) && t[3] <= b'5' && t[6] <= b'5';
            let (day, (a, b)) = match words {
                Some(w) if same_hour => {
                    pending = Some(t);
                    (days, w)
                }
                _ => {
                    let (Some(w), Some(tod)) = (words, full(t)) else {
                        break;
                    };
                    if let Some(p) = pending.take() {
                        self.last_tod = full(p);
                    }
                    if self.implausible_jump(tod) {
                        // Reported, with its line, the full way.
                        break;
                    }
                    let date = self.roll_nanos(tod);
                    if self.last_tod == Some(tod) {
                        // The clock moved to this line.
                        clock_hour = Some([t[0], t[1]]);
                        days = (self.date.unwrap_or(date) - first).num_days();
                    }
                    ((date - first).num_days(), w)
                }
            };
            let key = (day, a.swap_bytes(), b.swap_bytes());
            if lo.is_none_or(|(k, _)| key < k) {
                lo = Some((key, t));
            }
            if hi.is_none_or(|(k, _)| key > k) {
                hi = Some((key, t));
            }
            n += 1;
            pos = nl + 1;
        }
        if let Some(p) = pending {
            self.last_tod = full(p);
        }
        let local = |k: Key| {
            let ((day, _, _), t) = k?;
            let date = first.checked_add_signed(chrono::Duration::days(day))?;
            let n = full(t)?;
            let (secs, nanos) = (n / 1_000_000_000, n % 1_000_000_000);
            NaiveTime::from_num_seconds_from_midnight_opt(secs as u32, nanos as u32)
                .map(|t| (date, t))
        };
        let (Some(lo), Some(hi)) = (local(lo), local(hi)) else {
            return false;
        };
        self.count_skipped(lo, hi, n);
        reader.skip(pos, n);
        if let Some(seg) = self.seg.as_mut() {
            seg.info.lines = reader.line_no();
        }
        true
    }

    /// Whether record lines may be skipped: the header is read and the
    /// clock settled. Counter layouts are read in full: every counter is
    /// checked.
    pub(super) fn may_skip(&self) -> bool {
        self.clock_settled
            && !self.in_header
            // Near the edge of what can be ordered, every line goes the
            // full way: one dated past it is then a located problem.
            && self.date.is_some_and(crate::timefmt::orderable_date)
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
        if !crate::timefmt::orderable(key) {
            // Built the full way: the merge reports it, with its line.
            return None;
        }
        let names = &mut self.names;
        let ahead = &mut self.ahead;
        let thread = self.threads.by_text(p.pid_tid, p.pid_tid_key)?;
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
                pos.map(|pos| {
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
        let label = &thread.label;
        out.extend_from_slice(&seg.row_path);
        seg.row_line.put(out, no);
        out.extend_from_slice(label);
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
                    self.take_line(meta, bytes);
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
    pub(super) fn skip_cheaply(&mut self, b: &[u8]) -> bool {
        let Some(interest) = self.opts.interest.as_deref() else {
            return false;
        };
        if !self.may_skip() {
            return false;
        }
        // ` HH:MM:SS.ffffff` or `*HH:MM:SS.ffffff`, then a blank.
        let start = usize::from(matches!(b.first(), Some(b' ' | b'*')));
        let end = start + 15;
        if b.len() <= end || b[end] != b' ' {
            return false;
        }
        let Some(tod) = parse_time_of_day(&b[start..end]) else {
            return false;
        };
        if interest.candidate(b) || self.implausible_jump(tod_nanos(tod)) {
            return false;
        }
        let date = self.roll(tod);
        self.count_skipped((date, tod), (date, tod), 1);
        true
    }

    /// Skipped records still count: `events` and the time range stay the
    /// same as when every line is built.
    pub(super) fn count_skipped(
        &mut self,
        a: (NaiveDate, NaiveTime),
        b: (NaiveDate, NaiveTime),
        n: u64,
    ) {
        let (lo, hi) = (a.min(b), a.max(b));
        let span = self.skipped.get_or_insert((lo, hi));
        span.0 = span.0.min(lo);
        span.1 = span.1.max(hi);
        if let Some(seg) = self.seg.as_mut() {
            seg.info.events += n;
        }
    }
}
