//! The loop every line-based reader shares: open each file of the source in
//! turn, decode it (`open_text`), hand its lines to the format, close it.
//! A format implements `LineFormat` with its specifics only; the loop owns
//! the open file's state, so a format never checks whether a file is open.
//! A format that is a reader of its own also implements `Standalone` (its
//! facts, sniffing and fuzz target): `LineReader<F>` is then its `Reader`,
//! one line in `READERS`.

use super::{Fuzz, Prepared, Reader, Siblings};
use crate::input::Input;
use crate::lines::{LineFilter, LineMeta, MAX_LINE};
use crate::source::{ReadOptions, Source};
use chrono::FixedOffset;
use mqdiag_model::event::{Event, Format, Origin};
use mqdiag_model::fileinfo::FileInfo;
use std::collections::VecDeque;
use std::marker::PhantomData;
use std::sync::Arc;

/// What a line-based format does with its files; `LineSource` reads them.
pub(crate) trait LineFormat: Send + 'static {
    /// What the format keeps while one file is read.
    type File: Send;

    /// Whether a file's records are written in time order, so that one
    /// stamped earlier than a record before it is worth a problem. Not so
    /// where records are grouped otherwise: `amqsact` by application,
    /// `amqsevt` by event queue.
    const TIME_ORDERED: bool = true;

    /// Before the first file is opened, with every input of the source
    /// (a format that takes a first look at all of a group's files).
    fn start(&mut self, _inputs: &[Input], _opts: &ReadOptions) {}

    /// A file was opened: its row and origin are in `ctx` (`ctx.readable()`
    /// false when it could not be opened, its problem already recorded; no
    /// line follows then).
    fn open_file(&mut self, input: &Input, ctx: &mut FileCtx) -> Self::File;

    /// One line of the open file, without its line end.
    fn line(&mut self, file: &mut Self::File, ctx: &mut FileCtx, meta: LineMeta, bytes: &[u8]);

    /// The file has no more lines (or could not be read): last events and
    /// facts. Its row is kept once this returns.
    fn finish_file(&mut self, file: Self::File, ctx: &mut FileCtx);
}

/// What a format sees of the open file besides its own state.
pub(crate) struct FileCtx<'a> {
    /// The file's row.
    pub(crate) info: &'a mut FileInfo,
    /// Shared by the file's events.
    pub(crate) origin: &'a Arc<Origin>,
    pub(crate) opts: &'a ReadOptions,
    out: &'a mut VecDeque<Event>,
    fallback: &'a mut Option<FixedOffset>,
    // No format asks since the text error log reads each file once; the
    // loop's tests do.
    #[cfg_attr(not(test), allow(dead_code))]
    readable: bool,
    back: &'a mut Backward,
}

/// Records of a file stamped earlier than a record before them: the merge
/// puts them at their time, so the file's order is not the timeline's;
/// the file's row says where (one located problem at its end).
#[derive(Default)]
pub(crate) struct Backward {
    /// The latest instant and the line of the record that had it.
    newest: Option<(mqdiag_model::event::Ts, u64)>,
    /// The line of the last record seen (its further events, FDCs a
    /// summary lists, carry their own times).
    last_line: u64,
    count: u64,
    /// The first step back: its line, the line it steps back from, and
    /// the largest step (nanoseconds).
    first: Option<(u64, u64)>,
    max: i64,
}

impl Backward {
    fn saw(&mut self, e: &Event) {
        // An FDC an `ffstsummary` listing names carries the FDC's own
        // time, before the listing's: no step back of the file's.
        if e.kind == mqdiag_model::event::Kind::Fdc {
            return;
        }
        // Judged in the file's order: a record a reader emits late (one
        // joined around another) is not a step back in time.
        if e.line <= self.last_line && self.newest.is_some() {
            return;
        }
        self.last_line = e.line;
        // Instants compared as they are (asked of every record: no
        // nanosecond count unless it steps back).
        match self.newest {
            Some((n, at)) if e.ts < n => {
                self.count += 1;
                let step = (n - e.ts).num_nanoseconds().unwrap_or(i64::MAX);
                self.max = self.max.max(step);
                self.first.get_or_insert((e.line, at));
            }
            _ => self.newest = Some((e.ts, e.line)),
        }
    }

    /// The problem, on the file's row.
    fn report(&self, info: &mut FileInfo) {
        let Some((line, after)) = self.first else {
            return;
        };
        info.problem(
            mqdiag_model::problem::ProblemCode::OutOfOrder,
            Some(line),
            mqdiag_model::problem::Severity::Info,
            0,
            format!(
                "time goes back: {} record(s) stamped earlier than a record before them in the \
                 file (by up to {}), the first at line {line} (after line {after}); the timeline \
                 shows each at its own time",
                self.count,
                mqdiag_model::timefmt::human_us((self.max / 1_000).max(0) as u64)
            ),
        );
    }
}

impl FileCtx<'_> {
    /// Queue an event of this file (counted on its row).
    pub(crate) fn emit(&mut self, e: Event) {
        self.info.saw_event(&e.ts);
        self.back.saw(&e);
        self.out.push_back(e);
    }

    /// The offset for local times the file states none for: `--tz`, else
    /// UTC (said once on the row). Decided on first use, then kept.
    pub(crate) fn fallback_offset(&mut self) -> FixedOffset {
        match *self.fallback {
            Some(o) => o,
            None => {
                let o = self.opts.fallback_offset(self.info);
                *self.fallback = Some(o);
                o
            }
        }
    }

    /// Whether the file could be opened.
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) fn readable(&self) -> bool {
        self.readable
    }
}

/// The file being read.
struct OpenFile<S> {
    info: FileInfo,
    origin: Arc<Origin>,
    lines: Option<super::Lines>,
    fallback: Option<FixedOffset>,
    state: S,
    /// The filter the file's lines go through (`Input::filtered`).
    filter: Option<Filtering>,
    back: Backward,
}

/// A file's lines filtered as they are read.
struct Filtering {
    filter: Box<dyn LineFilter>,
    /// Where the line being held started.
    held_at: Option<LineMeta>,
}

/// The meta of a filter's output `out` made from the line at `at`: its
/// own length, cut to the line limit as the line reader cuts. An input
/// line the reader cut (`at.truncated`) was passed on as it was.
fn filtered_line(at: LineMeta, out: &[u8], stamp: Option<usize>) -> (LineMeta, &[u8]) {
    let full_len = if at.truncated { at.full_len } else { out.len() };
    let meta = LineMeta {
        full_len,
        truncated: at.truncated || out.len() > MAX_LINE,
        stamp,
        ..at
    };
    (meta, &out[..out.len().min(MAX_LINE)])
}

/// The first line without a UTF-8 byte-order mark: every format detects
/// records on lines as written (a BOM before an error log's first header
/// hid it). The line's offset stays the file's first byte.
fn without_bom(bytes: &[u8]) -> &[u8] {
    bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes)
}

/// A line format read on its own: what `READERS` needs of it besides the
/// `LineFormat` loop hooks. `LineReader<Self>` is its `Reader`; each item
/// here is the `Reader` method of the same name.
pub(crate) trait Standalone: LineFormat + Sized {
    /// The format's facts: its files' rows and their events' origins.
    const FORMAT: Format;
    /// Its fuzz target (`Reader::fuzz`).
    const FUZZ: Fuzz;
    /// The highest score `sniff` ever gives.
    const SNIFF_CEILING: u8 = 100;

    /// How sure the format is (0 to 100) that a file with this name and
    /// these first bytes is in it; content decides, the name breaks ties.
    fn sniff(name: &str, head: &[u8]) -> u8;

    /// Files read as one stream share a group key (rotated sets); `None`:
    /// each file alone.
    fn group(_input: &Input) -> Option<(String, u32)> {
        None
    }

    /// Once per run, what its sources need from the run's other inputs.
    fn prepare(_siblings: &Siblings, _opts: &ReadOptions) -> Prepared {
        None
    }

    /// The format's state for one source (a file or a group), with what
    /// `prepare` returned.
    fn new(prepared: Prepared) -> Self;
}

/// The `Reader` of a `Standalone` line format: its files read by
/// `LineSource`.
pub struct LineReader<F>(PhantomData<fn() -> F>);

impl<F> LineReader<F> {
    pub const fn new() -> Self {
        LineReader(PhantomData)
    }
}

impl<F> Default for LineReader<F> {
    fn default() -> Self {
        Self::new()
    }
}

impl<F: Standalone> Reader for LineReader<F> {
    fn format(&self) -> Format {
        F::FORMAT
    }

    fn sniff(&self, name: &str, head: &[u8]) -> u8 {
        F::sniff(name, head)
    }

    fn sniff_ceiling(&self) -> u8 {
        F::SNIFF_CEILING
    }

    fn group(&self, input: &Input) -> Option<(String, u32)> {
        F::group(input)
    }

    fn prepare(&self, siblings: &Siblings, opts: &ReadOptions) -> Prepared {
        F::prepare(siblings, opts)
    }

    fn open_with(
        &self,
        inputs: Vec<Input>,
        opts: &ReadOptions,
        prepared: Prepared,
    ) -> Box<dyn Source> {
        Box::new(LineSource::new(F::new(prepared), F::FORMAT, inputs, opts))
    }

    fn fuzz(&self) -> Option<Fuzz> {
        Some(F::FUZZ)
    }
}

/// A `Source` over the files of a line-based format, one after another.
pub(crate) struct LineSource<F: LineFormat> {
    format: F,
    /// The files' format (of their rows and events' origins).
    as_format: Format,
    opts: ReadOptions,
    inputs: std::vec::IntoIter<Input>,
    started: bool,
    open: Option<OpenFile<F::File>>,
    done: Vec<FileInfo>,
    out: VecDeque<Event>,
}

impl<F: LineFormat> LineSource<F> {
    /// A source reading `inputs` in turn with `format`'s hooks, their rows
    /// and events of format `as_format`.
    pub(crate) fn new(
        format: F,
        as_format: Format,
        inputs: Vec<Input>,
        opts: &ReadOptions,
    ) -> Self {
        LineSource {
            format,
            as_format,
            opts: opts.clone(),
            inputs: inputs.into_iter(),
            started: false,
            open: None,
            done: Vec::new(),
            out: VecDeque::new(),
        }
    }

    /// Open the next file; false when there is none.
    fn open_next(&mut self) -> bool {
        if !self.started {
            self.started = true;
            self.format.start(self.inputs.as_slice(), &self.opts);
        }
        let Some(input) = self.inputs.next() else {
            return false;
        };
        let format = self.as_format;
        let mut info = FileInfo::new(&input.display, format, input.bytes);
        // A filtered input's own lines are read, and filtered here: their
        // numbers and offsets are the file's.
        let (lines, filter) = match input.filtered() {
            Some((raw, filter)) => {
                let mut lines = super::open_text(&raw, &mut info, &self.opts);
                if let Some(l) = lines.as_mut() {
                    l.set_max_len(filter.max_line());
                }
                let filter = Filtering {
                    filter,
                    held_at: None,
                };
                (lines, Some(filter))
            }
            None => (super::open_text(&input, &mut info, &self.opts), None),
        };
        let origin = input.origin(format);
        let mut fallback = None;
        let mut back = Backward::default();
        let mut ctx = FileCtx {
            info: &mut info,
            origin: &origin,
            opts: &self.opts,
            out: &mut self.out,
            fallback: &mut fallback,
            readable: lines.is_some(),
            back: &mut back,
        };
        let state = self.format.open_file(&input, &mut ctx);
        self.open = Some(OpenFile {
            info,
            origin,
            lines,
            fallback,
            state,
            filter,
            back,
        });
        true
    }

    /// Hand the open file's next line to the format; false at its end.
    fn step(&mut self) -> bool {
        let Some(f) = self.open.as_mut() else {
            return false;
        };
        let OpenFile {
            info,
            origin,
            lines,
            fallback,
            state,
            filter,
            back,
        } = f;
        let Some(lines) = lines.as_mut() else {
            return false;
        };
        let mut line = super::read_line(lines, info);
        // Line 1 only: the test costs each line one comparison, no copy.
        if let Some((meta, bytes)) = line.as_mut()
            && meta.no == 1
        {
            *bytes = without_bom(bytes);
        }
        let mut ctx = FileCtx {
            info,
            origin,
            opts: &self.opts,
            out: &mut self.out,
            fallback,
            readable: true,
            back,
        };
        let Some(Filtering { filter, held_at }) = filter else {
            let Some((meta, bytes)) = line else {
                return false;
            };
            self.format.line(state, &mut ctx, meta, bytes);
            return true;
        };
        let Some((meta, bytes)) = line else {
            // The end: a line still held is read where it started.
            if let (Some(held), Some(at)) = (filter.finish(), held_at.take()) {
                let (meta, bytes) = filtered_line(at, held, None);
                self.format.line(state, &mut ctx, meta, bytes);
            }
            return false;
        };
        let out = filter.line(bytes, meta.truncated);
        if let Some(held) = out.held {
            let (at, bytes) = filtered_line(held_at.take().unwrap_or(meta), held, None);
            self.format.line(state, &mut ctx, at, bytes);
        }
        match out.line {
            Some(l) => {
                let (meta, bytes) = filtered_line(meta, l, out.stamp);
                self.format.line(state, &mut ctx, meta, bytes);
            }
            None if out.held.is_none() => {
                held_at.get_or_insert(meta);
            }
            None => {}
        }
        true
    }

    /// Close the open file, keeping its row.
    fn close(&mut self) {
        let Some(f) = self.open.take() else {
            return;
        };
        let OpenFile {
            mut info,
            origin,
            lines,
            mut fallback,
            state,
            filter,
            mut back,
        } = f;
        // The filter's counts are final once it is dropped.
        drop(filter);
        let mut ctx = FileCtx {
            info: &mut info,
            origin: &origin,
            opts: &self.opts,
            out: &mut self.out,
            fallback: &mut fallback,
            readable: lines.is_some(),
            back: &mut back,
        };
        self.format.finish_file(state, &mut ctx);
        if F::TIME_ORDERED {
            back.report(&mut info);
        }
        if let Some(l) = &lines {
            super::raise_bytes(&mut info, l.bytes_read());
        }
        // Mostly one file a source: no room for four rows of it.
        self.done.reserve_exact(1);
        self.done.push(info);
    }
}

impl<F: LineFormat> Source for LineSource<F> {
    fn next_event(&mut self) -> Option<Event> {
        loop {
            if let Some(e) = self.out.pop_front() {
                return Some(e);
            }
            if self.open.is_none() {
                if !self.open_next() {
                    return None;
                }
                continue;
            }
            if !self.step() {
                self.close();
            }
        }
    }

    fn finish(mut self: Box<Self>) -> Vec<FileInfo> {
        self.close();
        std::mem::take(&mut self.done)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mqdiag_model::event::{Kind, Ts};
    use mqdiag_model::problem::ProblemCode;

    /// Each line an event (its text and whether it was cut); each file's
    /// row says how many lines and which files the format saw.
    #[derive(Default)]
    struct Echo {
        started_with: usize,
        /// What `prepare` gave (read alone: nothing).
        prepared: Option<usize>,
    }

    struct EchoFile {
        lines: u64,
        unterminated: bool,
    }

    impl LineFormat for Echo {
        type File = EchoFile;
        fn start(&mut self, inputs: &[Input], _opts: &ReadOptions) {
            self.started_with = inputs.len();
        }
        fn open_file(&mut self, _input: &Input, ctx: &mut FileCtx) -> EchoFile {
            ctx.info.note(format!(
                "readable {} of {}",
                ctx.readable(),
                self.started_with
            ));
            if let Some(n) = self.prepared {
                ctx.info.note(format!("prepared {n}"));
            }
            EchoFile {
                lines: 0,
                unterminated: false,
            }
        }
        fn line(&mut self, file: &mut EchoFile, ctx: &mut FileCtx, meta: LineMeta, bytes: &[u8]) {
            file.lines += 1;
            file.unterminated |= meta.unterminated;
            let ts: Ts = ctx
                .fallback_offset()
                .timestamp_opt(meta.no as i64, 0)
                .single()
                .expect("time");
            let text = String::from_utf8_lossy(bytes).into_owned();
            ctx.emit(Event::new(
                ts,
                ctx.origin.clone(),
                meta.no,
                Kind::Text,
                text,
            ));
        }
        fn finish_file(&mut self, file: EchoFile, ctx: &mut FileCtx) {
            ctx.info.variant = Some(format!("{} lines, cut {}", file.lines, file.unterminated));
        }
    }

    use chrono::TimeZone;

    /// Echo read on its own: what `prepare` returns reaches `new`.
    impl Standalone for Echo {
        const FORMAT: Format = crate::formats::fdc::FORMAT;
        const FUZZ: Fuzz = Fuzz {
            target: "echo",
            names: &["echo.log"],
        };
        const SNIFF_CEILING: u8 = 50;

        fn sniff(name: &str, _head: &[u8]) -> u8 {
            if name.ends_with(".echo") { 50 } else { 0 }
        }

        fn group(input: &Input) -> Option<(String, u32)> {
            Some(("all".to_string(), input.bytes as u32))
        }

        fn prepare(siblings: &Siblings, _opts: &ReadOptions) -> Prepared {
            Some(Arc::new(siblings.of(Self::FORMAT).len()))
        }

        fn new(prepared: Prepared) -> Echo {
            let n = prepared.and_then(|p| p.downcast::<usize>().ok());
            Echo {
                started_with: 0,
                prepared: n.map(|n| *n),
            }
        }
    }

    #[test]
    fn a_standalone_format_is_a_reader() {
        let r: &dyn Reader = &LineReader::<Echo>::new();
        assert_eq!(r.format(), crate::formats::fdc::FORMAT);
        assert_eq!((r.sniff("a.echo", b""), r.sniff("a.log", b"")), (50, 0));
        assert_eq!(r.sniff_ceiling(), 50);
        let a = Input::from_bytes("a.echo", &b"one\n"[..]);
        assert_eq!(r.group(&a), Some(("all".to_string(), 4)));
        assert_eq!(r.fuzz().map(|f| f.target), Some("echo"));
        let siblings = Siblings::new(vec![(crate::formats::fdc::FORMAT, &a)]);
        let prepared = r.prepare(&siblings, &ReadOptions::default());
        let src = r.open_with(vec![a.clone()], &ReadOptions::default(), prepared);
        let (events, infos) = crate::testkit::drain(src);
        assert_eq!(events.len(), 1);
        assert_eq!(events[0].origin.format, crate::formats::fdc::FORMAT);
        assert_eq!(infos[0].format, crate::formats::fdc::FORMAT);
        // `new` had the one sibling `prepare` counted; alone, nothing.
        assert_eq!(infos[0].notes[..2], ["readable true of 1", "prepared 1"]);
        let (_, infos) = crate::testkit::drain(r.open(vec![a], &ReadOptions::default()));
        assert!(!infos[0].notes.iter().any(|n| n.starts_with("prepared")));
    }

    fn read(inputs: Vec<Input>) -> (Vec<(u64, String)>, Vec<FileInfo>) {
        let (events, infos) = crate::testkit::drain(Box::new(LineSource::new(
            Echo::default(),
            crate::formats::container_log::FORMAT,
            inputs,
            &ReadOptions::default(),
        )));
        let lines = events.iter().map(|e| (e.line, e.text.to_string()));
        (lines.collect(), infos)
    }

    #[test]
    fn lines_of_each_file_in_turn_crlf_stripped() {
        let (events, infos) = read(vec![
            Input::from_bytes("a.log", &b"one\r\ntwo\n"[..]),
            Input::from_bytes("b.log", &b"three\n"[..]),
        ]);
        assert_eq!(
            events,
            vec![
                (1, "one".to_string()),
                (2, "two".to_string()),
                (1, "three".to_string())
            ]
        );
        assert_eq!(infos.len(), 2);
        assert_eq!(infos[0].path, "a.log");
        // The format's own note, then the loop's: no offset in the file.
        assert_eq!(infos[0].notes[0], "readable true of 2");
        assert!(
            infos[0].notes[1].contains("UTC assumed"),
            "{:?}",
            infos[0].notes
        );
        assert_eq!(infos[0].variant.as_deref(), Some("2 lines, cut false"));
        assert_eq!((infos[0].lines, infos[0].events), (2, 2));
        assert_eq!(infos[0].format, crate::formats::container_log::FORMAT);
        // The offset for local times is decided once per file, said once,
        // as a reading note (not a problem).
        for fi in &infos {
            assert_eq!(fi.problem_count, 0);
            assert_eq!(
                fi.notes
                    .iter()
                    .filter(|n| n.contains("UTC assumed"))
                    .count(),
                1
            );
        }
    }

    #[test]
    fn a_truncated_file_ends_with_its_cut_line() {
        let (events, infos) = read(vec![Input::from_bytes("a.log", &b"one\ntw"[..])]);
        assert_eq!(events.last(), Some(&(2, "tw".to_string())));
        assert_eq!(infos[0].variant.as_deref(), Some("2 lines, cut true"));
        assert_eq!(infos[0].bytes, 6);
    }

    #[test]
    fn an_empty_file_is_opened_and_closed() {
        let (events, infos) = read(vec![Input::from_bytes("a.log", Vec::new())]);
        assert!(events.is_empty());
        assert_eq!(infos[0].variant.as_deref(), Some("0 lines, cut false"));
        assert_eq!((infos[0].lines, infos[0].problem_count), (0, 0));
    }

    #[test]
    fn an_unreadable_file_is_a_problem_on_its_row_and_the_rest_is_read() {
        let mut gone = Input::from_bytes("gone.log", &b"x\n"[..]);
        gone.location = crate::input::Location::File("/nonexistent/mqdiag/gone.log".into());
        let (events, infos) = read(vec![gone, Input::from_bytes("b.log", &b"b\n"[..])]);
        assert_eq!(events, vec![(1, "b".to_string())]);
        assert_eq!(infos[0].path, "gone.log");
        assert_eq!(infos[0].notes, vec!["readable false of 2"]);
        assert_eq!(infos[0].variant.as_deref(), Some("0 lines, cut false"));
        assert_eq!(infos[0].problems[0].code, ProblemCode::UnreadableFile);
        assert!(infos[0].problems[0].message.starts_with("cannot read"));
        assert_eq!(infos[1].events, 1);
    }

    #[test]
    fn finish_before_the_end_keeps_every_row_read_so_far() {
        let mut s: Box<dyn Source> = Box::new(LineSource::new(
            Echo::default(),
            crate::formats::container_log::FORMAT,
            vec![
                Input::from_bytes("a.log", &b"one\ntwo\n"[..]),
                Input::from_bytes("b.log", &b"three\n"[..]),
            ],
            &ReadOptions::default(),
        ));
        assert!(s.next_event().is_some());
        let infos = s.finish();
        assert_eq!(infos.len(), 1);
        assert_eq!(infos[0].path, "a.log");
    }
}
