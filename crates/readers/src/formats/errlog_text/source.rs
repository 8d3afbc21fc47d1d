//! The error-log source: files of a rotated set in order, records turned
//! into events by the line source's loop.

use super::*;
use crate::formats::line_source::{FileCtx, LineFormat};
use crate::lines::LineMeta;
use mqdiag_model::event::Key;

/// What is kept while one file is read.
pub(crate) struct FileRun {
    pub(super) parser: Parser,
    /// Made when the look-ahead is full or the file ends (`Ahead`).
    pub(super) plan: Plan,
    pub(super) offset: FixedOffset,
    /// Where `offset` comes from, once the plan is made.
    pub(super) choice: Option<Choice>,
    pub(super) ahead: Ahead,
    /// The file's place in the set.
    pub(super) index: usize,
    pub(super) path: PathFacts,
    pub(super) encodings: BTreeMap<Encoding, u64>,
    pub(super) duplicates: u64,
    /// The record's summary, explanation and action joined (reused).
    pub(super) joined: [String; 3],
    /// No file of the set comes after this one.
    pub(super) last: bool,
}

/// The format's specifics: a rotated set, oldest first. `LineReader<ErrlogText>`
/// is its reader.
#[derive(Default)]
pub struct ErrlogText {
    /// The files of the set, and per file its offset from `Time()` and
    /// how many headers agreed on it, once known (read, or scanned for a
    /// file without `Time()`).
    pub(super) set: Vec<Input>,
    pub(super) known: Vec<Option<Option<(i32, u64)>>>,
    /// The file opened next.
    next: usize,
    pub(super) encoding: Option<crate::encoding::TextEncoding>,
    /// `BUDGET` unless a test says otherwise.
    budget: Option<Budget>,
    dedup: Dedup,
    /// The catalogue's answers for records met before: taken from
    /// `SPARE` at the first record and given back when the source ends.
    memo: Recycled,
    /// A record's summary, explanation and action joined (reused).
    all: String,
}

/// Memos of sources that ended, for the next sources to start from. A
/// memo's table is allocated at its first look-up and freed with it: for
/// a one-record error log (thousands of small files, one a folder) that
/// was a fifth of its reading time. Answers do not depend on what a memo
/// holds, only their cost does, so a memo may serve one file after another.
// Boxes, not memos: a memo moves between a source and the list as a
// pointer, and a source keeps it boxed.
#[allow(clippy::vec_box)]
static SPARE: std::sync::Mutex<Vec<Box<catalog::Memo>>> = std::sync::Mutex::new(Vec::new());
/// At most this many kept: one per reading thread is enough in practice,
/// and each may hold a few MB of remembered text.
const SPARE_MEMOS: usize = 2;

fn spare_memo() -> Box<catalog::Memo> {
    SPARE
        .lock()
        .ok()
        .and_then(|mut v| v.pop())
        .unwrap_or_default()
}

/// A source's memo, given back to `SPARE` when the source ends. Boxed:
/// the sources waiting in the merge hold a pointer, not a memo.
#[derive(Default)]
struct Recycled(Option<Box<catalog::Memo>>);

impl Drop for Recycled {
    fn drop(&mut self) {
        if let Some(m) = self.0.take()
            && let Ok(mut v) = SPARE.lock()
            && v.len() < SPARE_MEMOS
        {
            v.push(m);
        }
    }
}

impl ErrlogText {
    /// A reader whose look-ahead holds this much (the tests' small ones).
    #[cfg(test)]
    pub(crate) fn with_budget(budget: Budget) -> ErrlogText {
        ErrlogText {
            budget: Some(budget),
            ..ErrlogText::default()
        }
    }
}

impl LineFormat for ErrlogText {
    type File = FileRun;

    /// The set's files, for one that needs another's offset.
    fn start(&mut self, inputs: &[Input], opts: &ReadOptions) {
        self.set = inputs.to_vec();
        self.known = vec![None; inputs.len()];
        self.encoding = opts.encoding;
    }

    fn open_file(&mut self, input: &Input, ctx: &mut FileCtx) -> FileRun {
        let index = self.next;
        self.next += 1;
        let info = &mut *ctx.info;
        if input.bytes == 0 {
            info.problem(
                ProblemCode::EmptyFile,
                None,
                Severity::Info,
                0,
                "empty file",
            );
        }
        FileRun {
            parser: Parser::default(),
            plan: Plan::default(),
            offset: FixedOffset::east_opt(0).expect("zero"),
            choice: None,
            ahead: Ahead::new(self.budget.unwrap_or(BUDGET), info),
            index,
            path: path_facts(&input.display),
            encodings: BTreeMap::new(),
            duplicates: 0,
            joined: Default::default(),
            last: self.next >= self.set.len(),
        }
    }

    fn line(&mut self, run: &mut FileRun, ctx: &mut FileCtx, meta: LineMeta, bytes: &[u8]) {
        if meta.truncated {
            Self::cut(run, ctx, &meta, bytes.len());
        }
        let full = bytes;
        // A hole of NUL bytes (a crash while writing) before real text.
        let lead = bytes.iter().take_while(|&&b| b == 0).count();
        let bytes = &bytes[lead..];
        if lead > 0 {
            run.parser.nul_hole(meta.no, lead);
        }
        // Nearly every line is UTF-8: checked here, `decode_line` only for
        // the rest (it checks the same way first).
        let (text, enc) = match std::str::from_utf8(bytes) {
            Ok(t) => (std::borrow::Cow::Borrowed(t), Encoding::Utf8),
            Err(_) => decode_line(bytes),
        };
        if enc != Encoding::Utf8 && !has_control(&text) {
            *run.encodings.entry(enc).or_default() += 1;
        }
        run.parser.line_cut = meta.truncated;
        run.parser.line_at = meta.offset;
        run.parser.feed(meta.no, &text);
        // The header facts see the line as a first pass over the file
        // would (NUL bytes and all). A header the parser read from the
        // same text is taken from it, not parsed again.
        match run.parser.cur.as_deref() {
            Some(r) if lead == 0 && enc == Encoding::Utf8 && run.parser.header_line == meta.no => {
                run.ahead.scan.header(meta.no, full, &r.header)
            }
            // The scanner is handed the text when it is the whole line's.
            _ => {
                let utf8 = (lead == 0 && enc == Encoding::Utf8).then_some(&*text);
                run.ahead.scan.line_as(meta.no, full, utf8)
            }
        }
        self.drain(run, ctx);
    }

    fn finish_file(&mut self, mut run: FileRun, ctx: &mut FileCtx) {
        self.end(&mut run, ctx);
        self.dedup.end_file();
        let scan = &run.ahead.scan.p;
        let mut variant = vec![
            if scan.legacy {
                "mqseries-5"
            } else if scan.windows {
                "windows"
            } else {
                "unix"
            }
            .to_string(),
        ];
        for enc in run.encodings.keys() {
            variant.push(enc.as_str().to_string());
        }
        // The loop raises the row's size to the bytes read.
        crate::formats::errlog_common::close_file(ctx.info, variant, run.duplicates, None);
    }
}

impl ErrlogText {
    /// The event of a record; `utc` is its `Time()` read.
    pub(super) fn event(
        &mut self,
        run: &mut FileRun,
        ctx: &mut FileCtx,
        r: &mut RawRecord,
        utc: Option<NaiveDateTime>,
    ) -> Option<Event> {
        let utc_raw = r.attr("Time");
        if utc_raw.is_some() && utc.is_none() {
            ctx.info.problem(
                ProblemCode::BadTime,
                Some(r.line),
                Severity::Warning,
                0,
                format!(
                    "Time({}) cannot be read: the header time is used",
                    utc_raw.unwrap_or("")
                ),
            );
        }
        let order = run.plan.order(&r.header, &run.ahead.scan.p);
        let local = r.header.local(order);
        let ts = match (utc, local) {
            // The record's own offset: its header's wall clock minus Time().
            (Some(u), l) => {
                let own = l
                    .and_then(|l| offset_of(l, u))
                    .and_then(FixedOffset::east_opt);
                run.ahead.by_file_offset += u64::from(own.is_none());
                own.unwrap_or(run.offset).from_utc_datetime(&u)
            }
            (None, Some(l)) => {
                // No run of offsets at all: the file's offset.
                run.ahead.by_file_offset +=
                    u64::from(run.ahead.scan.p.segs[order_index(order)].is_empty());
                let off = neighbour_offset(run, ctx.info, order, r.line, l);
                match off.from_local_datetime(&l) {
                    chrono::LocalResult::Single(t) => t,
                    _ => off.from_utc_datetime(&l),
                }
            }
            (None, None) => {
                ctx.info.problem(
                    ProblemCode::BadTime,
                    Some(r.line),
                    Severity::Warning,
                    r.lines(),
                    format!(
                        "date `{}` cannot be read and the record has no Time(): record skipped",
                        r.header.local_raw
                    ),
                );
                return None;
            }
        };
        if local.is_none() {
            ctx.info.problem(
                ProblemCode::BadTime,
                Some(r.line),
                Severity::Warning,
                0,
                format!(
                    "date `{}` cannot be read: record dated by its Time() attribute",
                    r.header.local_raw
                ),
            );
        }
        // Summary lines and paragraphs alike are joined with spaces.
        let [summary, explanation, action] = &mut run.joined;
        summary.clear();
        join_paragraphs_into(summary, r.summary_lines(), ' ');
        // A lone file is checked against nothing and by nothing: its
        // records need no key.
        if self.dedup.needed(!run.last) {
            let first_summary = r.summary_lines().next().unwrap_or("");
            let key = RecordKey::new()
                .str(utc_raw.unwrap_or(&r.header.local_raw))
                .ids(r.header.pid, r.header.tid)
                .str(r.msgid.as_deref().unwrap_or(""))
                .str(first_summary)
                .finish();
            if self.dedup.seen_before(key) {
                run.duplicates += 1;
                return None;
            }
        }
        let text = match &r.msgid {
            Some(id) => {
                let mut t = mqdiag_model::event::spare_text(id.len() + 2 + summary.len());
                t.push_str(id);
                t.push_str(": ");
                t.push_str(summary);
                t
            }
            None if r.incomplete => "(record cut short before its message text)".to_string(),
            None => summary.clone(),
        };
        let mut e = Event::new(ts, ctx.origin.clone(), r.line, Kind::LogRecord, text);
        e.offset = r.offset;
        // A record carries 20 to 30 attributes: one allocation, not five.
        e.attrs = mqdiag_model::event::Attrs::spare(32, 1024);
        if r.incomplete {
            e.set(Key::Incomplete, "true");
        }
        e.pid = r.header.pid;
        e.tid = r.header.tid;
        explanation.clear();
        join_paragraphs_into(explanation, r.section_lines(0), '\n');
        action.clear();
        join_paragraphs_into(action, r.section_lines(1), '\n');
        if let Some(id) = &r.msgid {
            // Inserts are among the at most MAX_ATTRS attributes: kept on
            // the stack.
            let mut inserts = [("", ""); MAX_ATTRS];
            let mut n = 0;
            for (k, v) in r.attrs() {
                if INSERT_ATTRS.iter().any(|(name, _)| *name == k) {
                    inserts[n] = (k, v);
                    n += 1;
                }
            }
            // The three texts joined with spaces: what `normalise_parts`
            // of the three gives, and the memo's key (a channel that keeps
            // failing writes the same record again and again).
            let all = &mut self.all;
            all.clear();
            for (i, part) in [&*summary, &*explanation, &*action].into_iter().enumerate() {
                if i > 0 {
                    all.push(' ');
                }
                all.push_str(part);
            }
            let memo = self.memo.0.get_or_insert_with(spare_memo);
            let x = memo.extract(id, all, &inserts[..n]);
            x.apply(&mut e);
        } else if summary.to_ascii_lowercase().contains("message catalog") {
            e.set(Key::CatalogMissing, "true");
        }
        if let Some(p) = &r.header.program {
            e.set(Key::Program, p);
        }
        if let Some(u) = &r.header.user {
            e.set(Key::User, u);
        }
        if let Some(q) = r.attr("QMgr").or(run.path.qmgr.as_deref())
            && e.get(Key::Qmgr).is_none()
        {
            e.set(Key::Qmgr, q);
        }
        if let Some(s) = run.path.scope {
            e.set(Key::Scope, s);
        }
        e.set(Key::LocalTime, &r.header.local_raw);
        let extra = r.header.extra.iter().map(|(k, v)| (k.as_str(), v.as_str()));
        for (k, v) in extra.chain(r.attrs()) {
            let key = match k {
                "Host" => Key::LocalHost,
                "Installation" => Key::Installation,
                "VRMF" => {
                    run.ahead.vrmf_by_event = true;
                    if ctx.info.mq_version.as_deref() != Some(v) {
                        ctx.info.mq_version = Some(v.to_string());
                    }
                    Key::Vrmf
                }
                "QMgr" | "Time" => continue,
                other => match INSERT_ATTRS.iter().find(|(n, _)| *n == other) {
                    Some((_, a)) => *a,
                    None => {
                        // Unknown attributes are kept under their own name.
                        if e.attr(other).is_none() {
                            e.set_attr_named(other.to_string(), v);
                        }
                        continue;
                    }
                },
            };
            if e.get(key).is_none() {
                e.set(key, v);
            }
        }
        if let Some(s) = &r.source {
            e.set(Key::Source, s);
        }
        if !explanation.is_empty() {
            e.set(Key::Explanation, &*explanation);
        }
        if !action.is_empty() {
            e.set(Key::Action, &*action);
        }
        if r.truncated {
            e.set(Key::Truncated, "true");
        }
        if r.reassembled {
            e.set(Key::Reassembled, "true");
        }
        Some(e)
    }
}
