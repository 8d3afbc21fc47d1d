//! The error-log source: files of a rotated set in order, records turned
//! into events by the line source's loop.

use super::*;
use crate::formats::line_source::{FileCtx, LineFormat, LineSource};
use crate::lines::LineMeta;

/// What is kept while one file is read.
pub(super) struct FileRun {
    pub(super) parser: Parser,
    pub(super) plan: Plan,
    pub(super) offset: FixedOffset,
    pub(super) path: PathFacts,
    pub(super) encodings: BTreeMap<Encoding, u64>,
    pub(super) duplicates: u64,
}

/// The format's specifics for `LineSource`: a rotated set, oldest first.
#[derive(Default)]
pub(super) struct ErrlogText {
    plans: VecDeque<Plan>,
    /// Offset shared by a rotated set, and the file it came from, for
    /// generations without `Time()` (written before an upgrade to 9.x).
    group_offset: Option<(i32, String)>,
    dedup: Dedup,
}

/// A source over a rotated set of text error logs.
pub(super) fn source(inputs: Vec<Input>, opts: &ReadOptions) -> Box<dyn Source> {
    Box::new(LineSource::new(ErrlogText::default(), inputs, opts))
}

impl LineFormat for ErrlogText {
    type File = FileRun;

    fn format(&self) -> Format {
        super::FORMAT
    }

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
        }
    }

    fn line(&mut self, run: &mut FileRun, ctx: &mut FileCtx, meta: LineMeta, bytes: &[u8]) {
        if meta.truncated {
            ctx.info.problem(
                ProblemCode::LineTooLong,
                Some(meta.no),
                Severity::Warning,
                0,
                format!(
                    "line of {} bytes cut to the first {} bytes",
                    meta.full_len,
                    bytes.len()
                ),
            );
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
                Item::Record(r) => {
                    if let Some(e) = self.event(run, ctx, *r) {
                        ctx.emit(e);
                    }
                }
            }
        }
    }

    fn event(&mut self, run: &mut FileRun, ctx: &mut FileCtx, mut r: RawRecord) -> Option<Event> {
        let utc_raw = r
            .attrs
            .iter()
            .find(|(k, _)| k == "Time")
            .map(|(_, v)| v.as_str());
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
        let summary = join_paragraphs(&r.summary).replace('\n', " ");
        let first_summary = r.summary.first().map(String::as_str).unwrap_or("");
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
        let text = match &r.msgid {
            Some(id) => {
                let mut t = String::with_capacity(id.len() + 2 + summary.len());
                t.push_str(id);
                t.push_str(": ");
                t.push_str(&summary);
                t
            }
            None if r.incomplete => "(record cut short before its message text)".to_string(),
            None => summary.clone(),
        };
        let mut e = Event::new(ts, ctx.origin.clone(), r.line, Kind::LogRecord, text);
        if r.incomplete {
            e.set_attr("incomplete", "true");
        }
        // A record carries 20 to 30 attributes: one allocation, not five.
        e.attrs.reserve(32, 512);
        e.pid = r.header.pid;
        e.tid = r.header.tid;
        let explanation = join_paragraphs(&r.sections[0]);
        let action = join_paragraphs(&r.sections[1]);
        let inserts: Vec<(&str, &str)> = r
            .attrs
            .iter()
            .filter(|(k, _)| INSERT_ATTRS.iter().any(|(n, _)| n == k))
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        if let Some(id) = &r.msgid {
            let all = catalog::normalise_parts(&[&summary, &explanation, &action]);
            let x = catalog::extract(id, &all, &inserts);
            e.set_attr("msgid", x.msgid);
            if let Some(s) = x.severity {
                e.set_attr("severity", s.to_string());
            }
            if let Some(f) = x.family {
                e.set_attr("family", f);
            }
            for (k, v) in x.attrs {
                e.set_attr(k, v);
            }
        } else if summary.to_ascii_lowercase().contains("message catalog") {
            e.set_attr("catalog_missing", "true");
        }
        if let Some(p) = r.header.program.take() {
            e.set_attr("program", p);
        }
        if let Some(u) = r.header.user.take() {
            e.set_attr("user", u);
        }
        let qmgr = r
            .attrs
            .iter()
            .find(|(k, _)| k == "QMgr")
            .map(|(_, v)| v.clone())
            .or_else(|| run.path.qmgr.clone());
        if let Some(q) = qmgr
            && e.attr("qmgr").is_none()
        {
            e.set_attr("qmgr", q);
        }
        if let Some(s) = run.path.scope {
            e.set_attr("scope", s);
        }
        drop(inserts);
        e.set_attr("local_time", r.header.local_raw);
        // The record is spent: its values move into the event.
        for (k, v) in r.header.extra.into_iter().chain(r.attrs) {
            let name = match k.as_str() {
                "Host" => "local_host",
                "Installation" => "installation",
                "VRMF" => {
                    ctx.info.mq_version = Some(v.clone());
                    "vrmf"
                }
                "QMgr" | "Time" => continue,
                other => match INSERT_ATTRS.iter().find(|(n, _)| *n == other) {
                    Some((_, a)) => a,
                    None => {
                        // Unknown attributes are kept under their own name.
                        if e.attr(other).is_none() {
                            e.set_attr_named(k, v);
                        }
                        continue;
                    }
                },
            };
            if e.attr(name).is_none() {
                e.set_attr(name, v);
            }
        }
        if let Some(s) = r.source {
            e.set_attr("source", s);
        }
        if !explanation.is_empty() {
            e.set_attr("explanation", explanation);
        }
        if !action.is_empty() {
            e.set_attr("action", action);
        }
        if r.truncated {
            e.set_attr("truncated", "true");
        }
        if r.reassembled {
            e.set_attr("reassembled", "true");
        }
        Some(e)
    }
}
