//! The error-log source: files of a rotated set in order, records turned
//! into events by the line source's loop.

use super::*;
use crate::formats::line_source::{FileCtx, LineFormat};
use crate::lines::LineMeta;
use mqdiag_model::event::Key;

/// What is kept while one file is read.
pub(crate) struct FileRun {
    pub(super) parser: Parser,
    pub(super) plan: Plan,
    pub(super) offset: FixedOffset,
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
    plans: VecDeque<Plan>,
    /// Offset shared by a rotated set, and the file it came from, for
    /// generations without `Time()` (written before an upgrade to 9.x).
    group_offset: Option<(i32, String)>,
    dedup: Dedup,
    /// The catalogue's answers for records met before.
    memo: catalog::Memo,
    /// A record's summary, explanation and action joined (reused).
    all: String,
}

impl LineFormat for ErrlogText {
    type File = FileRun;

    /// The first pass over every file of the set.
    fn start(&mut self, inputs: &[Input], opts: &ReadOptions) {
        let mut best: Option<(u64, i32, String)> = None;
        for input in inputs {
            let plan = Plan::new(prescan(input, opts.encoding));
            if let Some((o, n)) = plan.offset
                && best.as_ref().is_none_or(|(bn, _, _)| n > *bn)
            {
                best = Some((n, o, input.name.clone()));
            }
            self.plans.push_back(plan);
        }
        self.group_offset = best.map(|(_, o, name)| (o, name));
    }

    fn open_file(&mut self, input: &Input, ctx: &mut FileCtx) -> FileRun {
        let plan = self.plans.pop_front().unwrap_or_default();
        // A file that cannot be opened has its problem already.
        let readable = ctx.readable();
        let info = &mut *ctx.info;
        if let Some(e) = &plan.scan.error
            && readable
        {
            info.problem(
                ProblemCode::UnreadableFile,
                None,
                Severity::Error,
                0,
                e.clone(),
            );
        }
        if input.bytes == 0 {
            info.problem(
                ProblemCode::EmptyFile,
                None,
                Severity::Info,
                0,
                "empty file",
            );
        }
        let offset = match (plan.offset, &self.group_offset) {
            (Some((o, _)), _) => {
                let off = FixedOffset::east_opt(o).expect("offset in range");
                info.set_offset(off, "data");
                off
            }
            (None, Some((o, from))) if plan.scan.without_time > 0 => {
                let off = FixedOffset::east_opt(*o).expect("offset in range");
                info.set_offset(off, &format!("data of {from} (same rotated set)"));
                off
            }
            _ if plan.scan.without_time > 0 => ctx.opts.fallback_offset(info),
            _ => {
                // Every record has Time(); none fits its header: show UTC.
                let utc = FixedOffset::east_opt(0).expect("zero");
                if plan.scan.with_time > 0 {
                    info.set_offset(utc, "data");
                }
                utc
            }
        };
        for (code, line, sev, msg) in &plan.problems {
            info.problem(*code, (*line > 0).then_some(*line), *sev, 0, msg.clone());
        }
        let path = path_facts(&input.display);
        info.qmgr = plan.scan.qmgr.clone().or_else(|| path.qmgr.clone());
        info.host = plan.scan.host.clone();
        info.mq_version = plan.scan.vrmf.clone();
        if plan.scan.windows {
            info.platform = Some("Windows".to_string());
        }
        FileRun {
            parser: Parser::default(),
            plan,
            offset,
            path,
            encodings: BTreeMap::new(),
            duplicates: 0,
            joined: Default::default(),
            last: self.plans.is_empty(),
        }
    }

    fn line(&mut self, run: &mut FileRun, ctx: &mut FileCtx, meta: LineMeta, bytes: &[u8]) {
        if meta.truncated {
            ctx.info.line_cut(meta.no, meta.full_len, bytes.len());
        }
        // A hole of NUL bytes (a crash while writing) before real text.
        let lead = bytes.iter().take_while(|&&b| b == 0).count();
        let bytes = &bytes[lead..];
        if lead > 0 {
            run.parser.nul_hole(meta.no, lead);
        }
        let (text, enc) = decode_line(bytes);
        if enc != Encoding::Utf8 && !has_control(&text) {
            *run.encodings.entry(enc).or_default() += 1;
        }
        run.parser.line_cut = meta.truncated;
        run.parser.line_at = meta.offset;
        run.parser.feed(meta.no, &text);
        self.drain(run, ctx);
    }

    fn finish_file(&mut self, mut run: FileRun, ctx: &mut FileCtx) {
        run.parser.finish();
        self.drain(&mut run, ctx);
        self.dedup.end_file();
        let mut variant = vec![
            if run.plan.scan.legacy {
                "mqseries-5"
            } else if run.plan.scan.windows {
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
    /// What the parser has made of the lines so far: problems on the row,
    /// records as events.
    fn drain(&mut self, run: &mut FileRun, ctx: &mut FileCtx) {
        while let Some(item) = run.parser.out.pop_front() {
            match item {
                Item::Problem(f) => {
                    ctx.info
                        .problem(f.code, f.line, f.severity, f.skipped, f.message);
                }
                Item::Record(mut r) => {
                    if let Some(e) = self.event(run, ctx, &mut r) {
                        ctx.emit(e);
                    }
                    run.parser.recycle(r);
                }
            }
        }
    }

    fn event(&mut self, run: &mut FileRun, ctx: &mut FileCtx, r: &mut RawRecord) -> Option<Event> {
        let utc_raw = r.attr("Time");
        let utc = utc_raw.and_then(parse_utc);
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
        let order = run.plan.order(&r.header);
        let local = r.header.local(order);
        let ts = match (utc, local) {
            // The record's own offset: its header's wall clock minus Time().
            (Some(u), l) => {
                let off = l
                    .and_then(|l| offset_of(l, u))
                    .and_then(FixedOffset::east_opt)
                    .unwrap_or(run.offset);
                off.from_utc_datetime(&u)
            }
            (None, Some(l)) => {
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
            let x = self.memo.extract(id, all, &inserts[..n]);
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
