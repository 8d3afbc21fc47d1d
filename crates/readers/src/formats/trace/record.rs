//! The full path: a line read as a header line or a record, and a record
//! turned into an event with its call stack.

use super::*;
use mqdiag_model::event::spare_copy;

impl TraceSource {
    /// The layout lines are split with (`None`: not known yet).
    pub(super) fn parse_layout(&self) -> Option<Layout> {
        if self.seen_title || self.layout.ident.is_some() {
            Some(self.layout)
        } else {
            None
        }
    }

    /// A record line split with `parse_layout` (`line`: its bytes, UTF-8).
    pub(super) fn take_record(
        &mut self,
        no: u64,
        line: &[u8],
        rec: Record<'_>,
        unterminated: bool,
    ) {
        if !self.seen_title && self.layout.ident.is_none() {
            // Headerless file: fix the layout from the first record.
            self.layout.ident = Some(rec.ident.is_some() || is_blank_ident(&decode_lossy(line)));
            self.layout.counter = Some(rec.counter.is_some());
        }
        self.record(no, rec, unterminated);
    }

    pub(super) fn handle_line(&mut self, no: u64, line: &str, unterminated: bool) {
        let layout = self.parse_layout();
        if let Some(rec) = parse_record_with(line, layout, &mut self.columns) {
            self.take_record(no, line.as_bytes(), rec, unterminated);
            return;
        }
        let s = line;
        let t = s.trim();
        if t.is_empty() {
            return;
        }
        if is_title(s) {
            self.hazard();
            self.seen_title = true;
            self.layout.counter = Some(s.contains("Counter"));
            self.layout.ident = Some(s.contains("Ident"));
            // UNIX: the header follows as timestamped records.
            self.unix_title = s.contains("Process.Thread");
            self.in_header = self.unix_title && !s.contains("Counter");
            return;
        }
        if t.bytes().all(|c| c == b'=') {
            return;
        }
        if !self.seen_title {
            // Windows free-text header: `Key : value`.
            self.header_text(no, t);
            return;
        }
        let seg = self.seg.as_mut().expect("segment");
        let (code, what) = if unterminated {
            (
                ProblemCode::CutFile,
                "last line cut short (file truncated?)",
            )
        } else {
            (ProblemCode::BadLine, "not a trace record")
        };
        let shown: String = t.chars().take(60).collect();
        seg.info.problem(
            code,
            Some(no),
            Severity::Warning,
            1,
            format!("{what}: `{shown}`"),
        );
    }

    pub(super) fn header_text(&mut self, no: u64, t: &str) {
        self.hazard();
        // `UTC Date : ..` / `Local Date : ..`: read when the header is over.
        if let Some(rest) = t.strip_prefix("UTC")
            && field(rest, "Date").is_some()
        {
            self.header.win_utc = Some((no, rest.to_string()));
            return;
        }
        if let Some(rest) = t.strip_prefix("Local")
            && field(rest, "Date").is_some()
        {
            self.header.win_local = Some((no, rest.to_string()));
            return;
        }
        let seg = self.seg.as_mut().expect("segment");
        let info = &mut seg.info;
        if t.starts_with("Process") {
            if let Some(v) = field(t, "Process") {
                let v = v.trim();
                // `C:\...\amqxssvn.exe` or `name (64-bit)`
                let v = v.split(" (").next().unwrap_or(v);
                let name = v.rsplit(['\\', '/']).next().unwrap_or(v);
                info.process = Some(name.to_string());
            }
        } else if t.starts_with("Version") {
            if let Some(v) = field(t, "Version") {
                info.mq_version = Some(first_word(v).to_string());
            }
        } else if t.starts_with("Date") {
            match date_time(t, true) {
                Some(dt) => self.header.plain = Some(dt),
                None => info.problem(
                    ProblemCode::BadTime,
                    Some(no),
                    Severity::Warning,
                    0,
                    format!("header date `{t}` cannot be read"),
                ),
            }
        } else if t.starts_with("Host") {
            if let Some(v) = field(t, "Host") {
                info.host = Some(v.trim().to_string());
            }
        } else if t.starts_with("Operating System")
            && let Some(v) = field(t, "Operating System")
        {
            info.platform = Some(v.trim().to_string());
        }
    }

    /// Header records of the UNIX layout (data column of timestamped lines).
    pub(super) fn header_record(&mut self, data: &str) {
        let info = &mut self.seg.as_mut().expect("segment").info;
        if let Some(rest) = data.strip_prefix("Header.v02:") {
            let f: Vec<&str> = rest.split(':').collect();
            if let Some(v) = f.first() {
                info.mq_version.get_or_insert_with(|| v.to_string());
            }
            if let Some(p) = f.get(1) {
                info.platform = Some(p.to_string());
            }
        } else if data.starts_with("Version") {
            if let Some(v) = field(data, "Version") {
                info.mq_version = Some(first_word(v).to_string());
            }
        } else if data.starts_with("UTC") || data.starts_with("Local") {
            let dt = date_time(data, false);
            if dt.is_none() && field(data, "Date").is_some() {
                // The line being read is the file's last line counted.
                let no = Some(info.lines).filter(|&n| n > 0);
                info.problem(
                    ProblemCode::BadTime,
                    no,
                    Severity::Warning,
                    0,
                    format!("header date `{}` cannot be read", data.trim()),
                );
            }
            if data.starts_with("UTC") {
                self.header.utc = dt;
            } else {
                self.header.local = dt;
            }
        } else if data.starts_with("PID") {
            if let Some(v) = field(data, "PID") {
                info.pid = first_word(v).parse().ok();
            }
            if let Some(v) = field(data, "Process") {
                info.process = Some(first_word(v).to_string());
            }
        } else if data.starts_with("Host") {
            if let Some(v) = field(data, "Host") {
                info.host = Some(v.trim().to_string());
            }
        } else if data.starts_with("Operating System")
            && info.platform.is_none()
            && let Some(v) = field(data, "Operating System")
        {
            info.platform = Some(v.trim().to_string());
        }
    }

    pub(super) fn record(&mut self, no: u64, rec: Record<'_>, unterminated: bool) {
        if rec.counter.is_some() || self.in_header {
            self.hazard();
        }
        if let Some(c) = rec.counter {
            if let Some(prev) = self.last_counter {
                let expect = prev.wrapping_add(1);
                if c != expect {
                    let seg = self.seg.as_mut().expect("segment");
                    let lost = c.wrapping_sub(expect);
                    let msg = if lost < 0x8000_0000 {
                        format!(
                            "counter jumped from {prev:08X} to {c:08X}: {lost} record(s) missing"
                        )
                    } else {
                        format!("counter went back from {prev:08X} to {c:08X}")
                    };
                    seg.info
                        .problem(ProblemCode::CounterGap, Some(no), Severity::Warning, 0, msg);
                }
            }
            self.last_counter = Some(c);
        }
        if unterminated {
            let seg = self.seg.as_mut().expect("segment");
            seg.info.problem(
                ProblemCode::CutFile,
                Some(no),
                Severity::Info,
                0,
                "last line has no line end (file truncated?): read as it is",
            );
        }
        let data = rec.data;
        if self.in_header && !is_header_data(data) {
            // A UNIX title with no header records after it: the newer part
            // of a wrapped trace, or a header cut away.
            self.in_header = false;
            self.flush_held();
        }
        if self.in_header {
            let seg = self.seg.as_mut().expect("segment");
            seg.info.pid.get_or_insert(rec.pid);
            // The time is set when the header has given the date.
            let placeholder = FixedOffset::east_opt(0)
                .expect("zero")
                .from_utc_datetime(&NaiveDateTime::default());
            let mut e = Event::new(
                placeholder,
                seg.origin.clone(),
                no,
                Kind::Header,
                data.to_string(),
            );
            e.offset = self.line_at;
            e.pid = Some(rec.pid);
            e.tid = Some(rec.tid);
            e.ident = rec.ident.map(|i| self.names.get(i));
            if rec.flag {
                e.set_attr("flag", "*");
            }
            if data.starts_with("--------------------------------") {
                self.in_header = false;
            } else {
                self.header_record(data);
            }
            if self.held.len() < MAX_HEADER_HOLD {
                self.held.push((rec.tod, e));
            }
            if !self.in_header {
                self.flush_held();
            }
            return;
        }
        if !self.clock_settled {
            self.settle_clock(Some(rec.tod));
        }
        // Files without a header (or the newer part of a wrap) still name
        // their process on every line.
        if let Some(seg) = self.seg.as_mut() {
            seg.info.pid.get_or_insert(rec.pid);
        }
        let (ts, at) = self.timestamp_at(rec.tod, no);
        let key = (rec.pid, rec.tid);
        let names = &mut self.names;
        let calls = &mut self.calls;
        let text_seen = &mut self.text_seen;
        // The source's interest, whatever this record's (`calls` keeps its
        // answers).
        let wants = self.opts.interest.as_deref();
        // An event that cannot be ordered is built whatever the interest:
        // the merge leaves it out as a located, counted `bad-time` problem.
        let orderable = mqdiag_model::timefmt::orderable(at);
        let interest = self.opts.interest.as_deref().filter(|_| orderable);
        self.threads.trim();
        let ahead = &mut self.ahead;
        let thread = self.threads.get(key.0, key.1);
        // A step back within the thread (see the module docs): `at` is
        // where the event is placed.
        let mut stamped = None;
        let (ts, at) = match orderable {
            true => match thread.stamp(at, no, &mut self.back) {
                k if k == at => (ts, at),
                k => {
                    stamped = Some(ts);
                    let t = DateTime::from_timestamp_nanos(k).with_timezone(ts.offset());
                    (t, k)
                }
            },
            false => (ts, at),
        };
        // With an interest set, only calls of interest are stacked, so the
        // stack still times them exactly; depth then counts those calls.
        let built = 'built: {
            Some(match classify(data) {
                Data::Entry { function, .. } => {
                    thread.last_record_line = no;
                    let f = match calls.get(function, wants, names) {
                        Some(f) => f,
                        None if interest.is_some() => break 'built None,
                        None => names.get(function),
                    };
                    if thread.stack.len() >= MAX_STACK {
                        thread.stack.remove(0);
                    }
                    let depth = thread.stack.len() as u32;
                    thread.stack.push((f.clone(), at));
                    thread.max_depth = thread.max_depth.max(thread.stack.len());
                    (Kind::Entry, depth, Some(f), None, None, None, false)
                }
                Data::Exit {
                    error,
                    function,
                    rc,
                    function_time,
                    ..
                } => {
                    thread.last_record_line = no;
                    let f = match calls.get(function, wants, names) {
                        Some(f) => f,
                        None if interest.is_some() => break 'built None,
                        None => names.get(function),
                    };
                    let kind = if error { Kind::ErrorExit } else { Kind::Exit };
                    // Pop to the matching entry; calls above it never closed.
                    match thread
                        .stack
                        .iter()
                        .rposition(|(g, _)| Arc::ptr_eq(g, &f) || **g == *function)
                    {
                        Some(pos) => {
                            let start = thread.stack[pos].1;
                            thread.stack.truncate(pos);
                            let el = micros_between(start, at);
                            (kind, pos as u32, Some(f), rc, function_time, el, false)
                        }
                        // No entry seen: the trace started inside this call.
                        None => {
                            if let Some(a) = ahead.as_mut() {
                                a.unmatched(thread, || f.clone(), at);
                            }
                            let d = thread.stack.len() as u32;
                            (kind, d, Some(f), rc, function_time, None, true)
                        }
                    }
                }
                Data::Dump => {
                    if interest.is_some() {
                        break 'built None;
                    }
                    let f = thread.stack.last().map(|(f, _)| f.clone());
                    let d = thread.stack.len() as u32;
                    (Kind::Dump, d, f, None, None, None, false)
                }
                Data::Text(t) => {
                    thread.last_record_line = no;
                    if interest.is_some_and(|i| !text_seen.wanted(i, t)) {
                        break 'built None;
                    }
                    let f = thread.stack.last().map(|(f, _)| f.clone());
                    let d = thread.stack.len() as u32;
                    (Kind::Text, d, f, None, None, None, false)
                }
            })
        };
        let Some((kind, depth, function, rc, function_time, elapsed, unmatched)) = built else {
            // Not of interest: counted, not built.
            let at = (ts.date_naive(), ts.time());
            self.count_skipped(at, at, 1);
            return;
        };
        let dump_of =
            (kind == Kind::Dump && thread.last_record_line > 0).then_some(thread.last_record_line);
        // Read ahead: what of this event the lines before the block decide.
        let fix = ahead.is_some().then(|| blocks::Fix {
            pid: rec.pid,
            tid: rec.tid,
            q: thread.queries.len() - usize::from(unmatched),
            query: unmatched,
            top: matches!(kind, Kind::Dump | Kind::Text) && thread.stack.is_empty(),
            dump: kind == Kind::Dump && thread.last_record_line == 0,
        });
        let ident = match rec.ident {
            None => None,
            Some(i) => match &thread.ident {
                Some(a) if **a == *i => Some(a.clone()),
                _ => {
                    // Not interned: a thread's ident is kept with it, and
                    // a trace with a connection per process brings a new
                    // one for each, which the shared set took a miss, an
                    // insert and its room to keep, never to be asked again.
                    let a: Arc<str> = Arc::from(i);
                    thread.ident = Some(a.clone());
                    Some(a)
                }
            },
        };
        let seg = self.seg.as_mut().expect("segment");
        // In the buffers of events the merge is done with (`Event::recycle`).
        let text = spare_copy(data.strip_prefix("!! - ").unwrap_or(data));
        let mut e = Event::new(ts, seg.origin.clone(), no, kind, text);
        e.offset = self.line_at;
        e.pid = Some(rec.pid);
        e.tid = Some(rec.tid);
        e.ident = ident;
        e.depth = Some(depth);
        e.function = function;
        e.rc = rc.map(spare_copy);
        e.function_time = function_time;
        e.elapsed_us = elapsed;
        if rec.flag {
            e.set_attr("flag", "*");
        }
        if unmatched {
            e.set_attr("unmatched", "true");
        }
        if let Some(t) = stamped {
            e.set_attr("stamped", mqdiag_model::timefmt::rfc3339(&t));
        }
        if let Some(l) = dump_of {
            e.set_attr("dump_of", l.to_string());
        }
        // A data line that prints an options field: its value by name.
        if kind == Kind::Text
            && let Some(names) = self.text_seen.options(&e.text)
        {
            e.set(mqdiag_model::event::Key::Options, names);
        }
        if let (Some(a), Some(f)) = (self.ahead.as_mut(), fix) {
            a.fixes.push(f);
        }
        if let Some(seg) = self.seg.as_mut() {
            seg.info.saw_event_at(&e.ts, at);
        }
        self.emit_seen(e);
    }
}
