//! One read per file: the header facts (date order per header style and
//! writer, the file's UTC offset, the runs of offsets that date records
//! without `Time()`, the last `VRMF()`) are gathered line by line as the
//! file is read (`Scanner`, fed each line before the parser) and decided
//! from a bounded look-ahead.
//!
//! - Parsed records (and the problems found between them, in file order)
//!   are held until the look-ahead is full (`Budget`: records or bytes
//!   held) or the file ends. Then the plan is made from what was read, and
//!   the held records are dated. A file within the budget (every fixture,
//!   every real log we have) is so decided on all its headers, exactly as
//!   a first pass over the whole file would.
//! - Past the look-ahead a record is dated as it comes, with the plan
//!   made then. A writer or header style first met later is decided from
//!   its headers read so far. A record without `Time()` still waits for
//!   the next record with one (its offset is the neighbours'), within the
//!   same budget.
//! - When the file ends, the decisions are taken again on all its headers:
//!   the row (its offset, the date-order problems with their counts, the
//!   last `VRMF()`) says what the whole file says, as before. Records
//!   already dated are not held to be redated (memory stays bounded): when
//!   the whole file overturns a decision they were read with, a problem on
//!   the row says which decision, from how many records, and how many
//!   records were read with it.

use super::*;
use crate::formats::line_source::FileCtx;
use crate::lines::LineMeta;
use mqdiag_model::problem::MAX_PROBLEMS_KEPT;

/// What a file's look-ahead may hold before its header facts are decided.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Budget {
    pub(crate) records: usize,
    pub(crate) bytes: usize,
}

/// Larger than any real error log we have (IBM MQ's default `ErrorLogSize`
/// is 2 MB a file) at the bench's record size, and a few MB of memory.
pub(crate) const BUDGET: Budget = Budget {
    records: 4096,
    bytes: 8 << 20,
};

impl FileRun {
    /// What the parser has made so far joins the look-ahead, counted.
    fn hold_parsed(&mut self) {
        let a = &mut self.ahead;
        while let Some(item) = self.parser.out.pop_front() {
            if let Item::Record(r) = &item {
                a.records += 1;
                a.bytes += r.held();
                a.seen += 1;
            }
            a.held.push_back(Held::Item(item));
        }
    }
}

/// A parser output, or a cut line's problem, in file order.
pub(super) enum Held {
    Item(Item),
    Cut { line: u64, full: usize, kept: usize },
}

/// The look-ahead of one file.
pub(crate) struct Ahead {
    pub(super) scan: Scanner,
    pub(super) budget: Budget,
    /// The plan is made; held records are dated as soon as they can be.
    pub(super) settled: bool,
    /// The plan was made at the file's end, on all its headers.
    pub(super) at_end: bool,
    /// Records the plan was made from.
    pub(super) settled_after: u64,
    pub(super) held: VecDeque<Held>,
    pub(super) records: usize,
    pub(super) bytes: usize,
    /// Records counted by the parser so far.
    pub(super) seen: u64,
    /// Records without `Time()` dated before a later record with one was
    /// read (the budget was full): how many, and the first's line and the
    /// offset it was given.
    pub(super) forced: u64,
    pub(super) forced_first: Option<(u64, Order, i32)>,
    /// The row's problem and note counts when the file was opened: the
    /// decisions' problems go there, before any found while reading.
    pub(super) mark: (usize, usize),
    /// Records dated by the file's offset (no offset of their own or of
    /// a neighbour).
    pub(super) by_file_offset: u64,
    /// An event stated a `VRMF()` (the row shows the last one).
    pub(super) vrmf_by_event: bool,
}

impl Ahead {
    pub(super) fn new(budget: Budget, info: &FileInfo) -> Ahead {
        Ahead {
            scan: Scanner::default(),
            budget,
            settled: false,
            at_end: false,
            settled_after: 0,
            held: VecDeque::new(),
            records: 0,
            bytes: 0,
            seen: 0,
            forced: 0,
            forced_first: None,
            mark: (info.problems.len(), info.notes.len()),
            by_file_offset: 0,
            vrmf_by_event: false,
        }
    }

    fn full(&self) -> bool {
        self.records > self.budget.records || self.bytes > self.budget.bytes
    }
}

/// The offset a file's local times are read at, and where it comes from.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Choice {
    /// The file's own `Time()` attributes (the most common offset).
    Data(i32),
    /// Another file of the rotated set's (this one has no `Time()`).
    Group(i32, String),
    /// `--tz`, else UTC (said on the row).
    Fallback,
    /// Every record has `Time()` and none fits its header: UTC, said as
    /// the data's when there are such records.
    Utc { stated: bool },
}

impl Choice {
    pub(super) fn decide(
        plan: &Plan,
        scan: &Prescan,
        group: impl FnOnce() -> Option<(i32, String)>,
    ) -> Choice {
        if let Some((o, _)) = plan.offset {
            return Choice::Data(o);
        }
        if scan.without_time > 0 {
            return match group() {
                Some((o, from)) => Choice::Group(o, from),
                None => Choice::Fallback,
            };
        }
        Choice::Utc {
            stated: scan.with_time > 0,
        }
    }

    pub(super) fn offset(&self, opts: &ReadOptions) -> FixedOffset {
        let secs = match self {
            Choice::Data(o) | Choice::Group(o, _) => *o,
            Choice::Fallback => return opts.tz.unwrap_or(FixedOffset::east_opt(0).expect("zero")),
            Choice::Utc { .. } => 0,
        };
        FixedOffset::east_opt(secs).expect("offset in range")
    }

    /// What the file's row says of it.
    pub(super) fn apply(&self, info: &mut FileInfo, opts: &ReadOptions) {
        match self {
            Choice::Data(_) => info.set_offset(self.offset(opts), "data"),
            Choice::Group(_, from) => info.set_offset(
                self.offset(opts),
                &format!("data of {from} (same rotated set)"),
            ),
            Choice::Fallback => {
                opts.fallback_offset(info);
            }
            Choice::Utc { stated } => {
                if *stated {
                    info.set_offset(self.offset(opts), "data");
                }
            }
        }
    }
}

/// Put what `add` writes on the row before the problems and notes found
/// since `mark`: a first pass decided it before any record was read.
fn decisions_first(info: &mut FileInfo, mark: (usize, usize), add: impl FnOnce(&mut FileInfo)) {
    let problems = info.problems.split_off(mark.0.min(info.problems.len()));
    let notes = info.notes.split_off(mark.1.min(info.notes.len()));
    add(info);
    let room = MAX_PROBLEMS_KEPT.saturating_sub(info.problems.len());
    info.problems.extend(problems.into_iter().take(room));
    info.notes.extend(notes);
}

impl ErrlogText {
    /// A line's problem, after what the look-ahead holds.
    pub(super) fn cut(run: &mut FileRun, ctx: &mut FileCtx, meta: &LineMeta, kept: usize) {
        let a = &mut run.ahead;
        if a.settled && a.held.is_empty() {
            ctx.info.line_cut(meta.no, meta.full_len, kept);
        } else {
            a.held.push_back(Held::Cut {
                line: meta.no,
                full: meta.full_len,
                kept,
            });
        }
    }

    /// What the parser has made of the lines so far joins the look-ahead;
    /// what can be dated is.
    pub(super) fn drain(&mut self, run: &mut FileRun, ctx: &mut FileCtx) {
        if run.parser.out.is_empty() {
            return;
        }
        run.hold_parsed();
        let a = &mut run.ahead;
        if !a.settled {
            if !a.full() {
                return;
            }
            self.settle(run, ctx);
        }
        self.release(run, ctx, false);
    }

    /// The plan, from the header facts read so far.
    pub(super) fn settle(&mut self, run: &mut FileRun, ctx: &mut FileCtx) {
        let scan = &run.ahead.scan.p;
        let plan = Plan::new(scan);
        let index = run.index;
        let choice = Choice::decide(&plan, scan, || self.group_offset(index));
        run.offset = choice.offset(ctx.opts);
        run.plan = plan;
        run.choice = Some(choice);
        run.ahead.settled = true;
        run.ahead.settled_after = run.ahead.seen;
    }

    /// Date the held items from the front while they can be: a record
    /// without `Time()` waits for the next record with one (its offset is
    /// the neighbours'), unless the file ended (`end`) or the look-ahead
    /// is full.
    pub(super) fn release(&mut self, run: &mut FileRun, ctx: &mut FileCtx, end: bool) {
        loop {
            let Some(front) = run.ahead.held.front() else {
                return;
            };
            let mut utc = None;
            if let Held::Item(Item::Record(r)) = front {
                utc = r.attr("Time").and_then(|v| run.ahead.scan.utc_of(v));
                if utc.is_none() && !end {
                    let scan = &run.ahead.scan.p;
                    let order = run.plan.order(&r.header, scan);
                    let segs = &scan.segs[order_index(order)];
                    let ready = r.header.local(order).is_none()
                        || segs.len() >= MAX_SEGS
                        || segs.last().is_some_and(|s| s.last > r.line);
                    if !ready {
                        if !run.ahead.full() {
                            return;
                        }
                        // Dated with the runs read so far: the last one's
                        // offset, or the file's.
                        let used = segs
                            .last()
                            .map_or(run.offset.local_minus_utc(), |s| s.offset);
                        let first = (r.line, order, used);
                        let a = &mut run.ahead;
                        a.forced += 1;
                        a.forced_first.get_or_insert(first);
                    }
                }
            }
            let a = &mut run.ahead;
            match a.held.pop_front().expect("front") {
                Held::Cut { line, full, kept } => ctx.info.line_cut(line, full, kept),
                Held::Item(Item::Problem(f)) => {
                    ctx.info
                        .problem(f.code, f.line, f.severity, f.skipped, f.message);
                }
                Held::Item(Item::Record(mut r)) => {
                    a.records -= 1;
                    a.bytes -= r.held();
                    if let Some(e) = self.event(run, ctx, &mut r, utc) {
                        ctx.emit(e);
                    }
                    run.parser.recycle(r);
                }
            }
        }
    }

    /// The offset of the rotated set for a file without `Time()`: the
    /// file of the set whose `Time()` attributes agree most (the first
    /// such). Files not read yet are scanned for it, once.
    pub(super) fn group_offset(&mut self, index: usize) -> Option<(i32, String)> {
        let mut best: Option<(u64, i32, usize)> = None;
        for j in 0..self.set.len() {
            if j == index {
                continue;
            }
            let known = match self.known[j] {
                Some(k) => k,
                None => {
                    let k = Plan::new(&prescan(&self.set[j], self.encoding)).offset;
                    self.known[j] = Some(k);
                    k
                }
            };
            if let Some((o, n)) = known
                && best.is_none_or(|(bn, _, _)| n > bn)
            {
                best = Some((n, o, j));
            }
        }
        best.map(|(_, o, j)| (o, self.set[j].name.clone()))
    }

    /// The file ended: date what is held, then the row says what all its
    /// headers say (and which decisions they overturned).
    pub(super) fn end(&mut self, run: &mut FileRun, ctx: &mut FileCtx) {
        run.ahead.scan.finish();
        run.parser.finish();
        run.hold_parsed();
        let a = &mut run.ahead;
        if !a.settled {
            self.settle(run, ctx);
            run.ahead.at_end = true;
        }
        self.release(run, ctx, true);
        let index = run.index;
        let (whole, choice) = if run.ahead.at_end {
            (None, run.choice.clone().expect("settled"))
        } else {
            let whole = Plan::new(&run.ahead.scan.p);
            let choice = Choice::decide(&whole, &run.ahead.scan.p, || self.group_offset(index));
            (Some(whole), choice)
        };
        let plan = whole.as_ref().unwrap_or(&run.plan);
        self.known[index] = Some(plan.offset);
        let opts = ctx.opts;
        decisions_first(ctx.info, run.ahead.mark, |info| {
            choice.apply(info, opts);
            for (code, line, sev, msg) in &plan.problems {
                info.problem(*code, (*line > 0).then_some(*line), *sev, 0, msg.clone());
            }
        });
        if let Some(whole) = &whole {
            overturned(run, ctx.info, whole, &choice, opts);
        }
        let scan = &run.ahead.scan.p;
        let info = &mut *ctx.info;
        info.qmgr = scan.qmgr.clone().or_else(|| run.path.qmgr.clone());
        info.host = scan.host.clone();
        if !run.ahead.vrmf_by_event {
            info.mq_version = scan.vrmf.clone();
        }
        if scan.windows {
            info.platform = Some("Windows".to_string());
        }
    }
}

/// The problems of a file longer than its look-ahead whose headers as a
/// whole overturn a decision taken on the look-ahead: `whole` and `choice`
/// are what all of them say.
fn overturned(
    run: &FileRun,
    info: &mut FileInfo,
    whole: &Plan,
    choice: &Choice,
    opts: &ReadOptions,
) {
    let a = &run.ahead;
    let scan = &a.scan.p;
    let mut found: Vec<(u64, ProblemCode, Severity, String)> = Vec::new();
    for ((style, user), used) in &run.plan.orders {
        let Some(user) = user else { continue };
        let Some(all) = whole.orders.get(&(*style, Some(user.clone()))) else {
            continue;
        };
        let Some(ev) = scan.styles.get(style).and_then(|se| se.users.get(user)) else {
            continue;
        };
        if all != used {
            found.push((
                ev.first_line,
                ProblemCode::MixedDateOrder,
                Severity::Warning,
                format!(
                    "date order of headers like `{}`{} was decided as {} on the first {} records; the whole file says {}: the writer's {} records were read as {}",
                    ev.example,
                    if user.is_empty() { String::new() } else { format!(" (user {user})") },
                    used.as_str(),
                    a.settled_after,
                    all.as_str(),
                    ev.count,
                    used.as_str()
                ),
            ));
        }
    }
    let all = choice.offset(opts);
    if a.by_file_offset > 0 && all != run.offset {
        found.push((
            0,
            ProblemCode::OffsetChange,
            Severity::Info,
            format!(
                "UTC offset {} was decided on the first {} records; the whole file says {}: {} record(s) dated by the file's offset (no offset of their own or of a neighbour) were read at {}",
                offset_label(run.offset.local_minus_utc()),
                a.settled_after,
                offset_label(all.local_minus_utc()),
                a.by_file_offset,
                offset_label(run.offset.local_minus_utc())
            ),
        ));
    }
    if let Some((line, order, used)) = a.forced_first {
        let segs = &scan.segs[order_index(order)];
        let next = segs.iter().find(|s| s.first > line);
        if let Some(n) = next
            && n.offset != used
        {
            found.push((
                line,
                ProblemCode::OffsetChange,
                Severity::Info,
                format!(
                    "{} record(s) without Time() were read at {} before the next record with Time() was read (the look-ahead was full); the record at line {} says {}",
                    a.forced,
                    offset_label(used),
                    n.first,
                    offset_label(n.offset)
                ),
            ));
        }
    }
    found.sort_by(|x, y| x.0.cmp(&y.0).then(x.3.cmp(&y.3)));
    for (line, code, sev, msg) in found {
        info.problem(code, (line > 0).then_some(line), sev, 0, msg);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::line_source::LineSource;
    use mqdiag_model::timefmt::rfc3339;

    /// The set read with a look-ahead of `records` records.
    fn read(files: &[(&str, &str)], records: usize) -> (Vec<Event>, Vec<FileInfo>) {
        let inputs = files
            .iter()
            .map(|(name, text)| Input::from_bytes(name, text.as_bytes()))
            .collect();
        let format = ErrlogText::with_budget(Budget {
            records,
            bytes: usize::MAX,
        });
        let opts = ReadOptions::default();
        crate::testkit::drain(Box::new(LineSource::new(format, FORMAT, inputs, &opts)))
    }

    fn one(text: &str, records: usize) -> (Vec<Event>, Vec<FileInfo>) {
        read(&[("x/errors/AMQERR01.LOG", text)], records)
    }

    fn rec(date: &str, time: Option<&str>, msg: &str) -> String {
        let t = time
            .map(|t| format!("                    Time({t})\n"))
            .unwrap_or_default();
        format!(
            "{date} - Process(1.1) User(u) Program(amqrmppa)\n                    Host(h) VRMF(9.1.0.0)\n{t}\n{msg}\n\nEXPLANATION:\nx\nACTION:\ny\n-------------------------------------------------------------------------------\n"
        )
    }

    fn times(evs: &[Event]) -> Vec<String> {
        evs.iter().map(|e| rfc3339(&e.ts)).collect()
    }

    fn messages(info: &FileInfo) -> Vec<&str> {
        info.problems.iter().map(|p| p.message.as_str()).collect()
    }

    /// Ambiguous dates first, the header that decides them (a day above
    /// 12) last: read past a look-ahead of two records, the first ones
    /// were dated month first, and the row says so.
    #[test]
    fn a_date_order_overturned_late_is_said_on_the_row() {
        let text = [
            rec(
                "05/07/24 10:00:00",
                None,
                "AMQ9002I: Channel 'A' is starting.",
            ),
            rec(
                "06/07/24 10:00:00",
                None,
                "AMQ9002I: Channel 'B' is starting.",
            ),
            rec(
                "07/07/24 10:00:00",
                None,
                "AMQ9002I: Channel 'C' is starting.",
            ),
            rec(
                "25/07/24 10:00:00",
                None,
                "AMQ9002I: Channel 'D' is starting.",
            ),
        ]
        .concat();
        let (whole, infos) = one(&text, BUDGET.records);
        assert_eq!(
            &times(&whole)[..2],
            [
                "2024-07-05T10:00:00.000000+00:00",
                "2024-07-06T10:00:00.000000+00:00"
            ]
        );
        assert!(
            !messages(&infos[0]).iter().any(|m| m.contains("whole file")),
            "{:?}",
            infos[0].problems
        );
        let (short, infos) = one(&text, 2);
        // Dated as decided on the look-ahead: month first.
        assert_eq!(
            &times(&short)[..3],
            [
                "2024-05-07T10:00:00.000000+00:00",
                "2024-06-07T10:00:00.000000+00:00",
                "2024-07-07T10:00:00.000000+00:00"
            ]
        );
        let said = messages(&infos[0]);
        assert!(
            said.iter().any(|m| m.contains(
                "was decided as month/day/year on the first 3 records; the whole file says day/month/year: the writer's 4 records"
            )),
            "{said:?}"
        );
        // The last header decides for itself (a day above 12 has one reading).
        assert_eq!(short.len(), 3, "25/07 read month first is no date");
    }

    /// Records without Time() wait for the next record with one; past a
    /// full look-ahead they are dated with what is known, and the row
    /// says which offset the later record gave.
    #[test]
    fn an_offset_found_past_the_look_ahead() {
        let mut text: String = (0..5)
            .map(|i| {
                rec(
                    &format!("03/05/2024 10:0{i}:00 AM"),
                    None,
                    "AMQ9002I: Channel 'A' is starting.",
                )
            })
            .collect();
        text.push_str(&rec(
            "03/05/2024 11:00:00 AM",
            Some("2024-03-05T09:00:00.000Z"),
            "AMQ9002I: Channel 'B' is starting.",
        ));
        let (whole, winfo) = one(&text, BUDGET.records);
        assert_eq!(times(&whole)[0], "2024-03-05T10:00:00.000000+02:00");
        assert_eq!(winfo[0].utc_offset.as_deref(), Some("+02:00"));
        let (short, sinfo) = one(&text, 2);
        // The row says what the whole file says.
        assert_eq!(sinfo[0].utc_offset.as_deref(), Some("+02:00"));
        assert_eq!(sinfo[0].utc_offset_source.as_deref(), Some("data"));
        // Dated before the record with Time() was read: UTC assumed.
        assert_eq!(times(&short)[0], "2024-03-05T10:00:00.000000+00:00");
        // The last two waited for it (the look-ahead had room again).
        assert_eq!(times(&short)[4], "2024-03-05T10:04:00.000000+02:00");
        let said = messages(&sinfo[0]);
        assert!(
            said.iter().any(|m| m.contains(
                "3 record(s) without Time() were read at +00:00 before the next record with Time() was read"
            ) && m.contains("says +02:00")),
            "{said:?}"
        );
        // The offset's note, the records read early, and their times
        // going back (read at UTC, before the +02:00 ones).
        assert_eq!(
            sinfo[0].problem_count,
            winfo[0].problem_count + 3,
            "{:?}",
            sinfo[0].problems
        );
    }

    /// A consistent file longer than its look-ahead reads as it does
    /// within one: same events, same row.
    #[test]
    fn a_file_longer_than_the_look_ahead_reads_the_same() {
        let mut text = String::new();
        for i in 0..40 {
            let time = (i % 3 != 0).then(|| format!("2024-03-{:02}T09:00:00.000Z", 1 + i % 28));
            text.push_str(&rec(
                &format!("{:02}/03/2024 10:00:00", 1 + i % 28),
                time.as_deref(),
                &format!("AMQ9002I: Channel 'C{i}' is starting."),
            ));
        }
        let (whole, winfo) = one(&text, BUDGET.records);
        for records in [1, 2, 7] {
            let (short, sinfo) = one(&text, records);
            assert_eq!(times(&short), times(&whole), "look-ahead {records}");
            assert_eq!(sinfo[0].problems, winfo[0].problems);
            assert_eq!(sinfo[0].notes, winfo[0].notes);
            assert_eq!(sinfo[0].utc_offset, winfo[0].utc_offset);
        }
        assert_eq!(whole.len(), 40);
        assert_eq!(winfo[0].utc_offset.as_deref(), Some("+01:00"));
    }

    /// CRLF line ends and a byte-order mark read as plain lines do, with
    /// any look-ahead: the BOM'd first header still votes (day above 12).
    #[test]
    fn crlf_and_a_bom() {
        let text = [
            rec(
                "25/07/24 10:00:00",
                None,
                "AMQ9002I: Channel 'A' is starting.",
            ),
            rec(
                "05/08/24 10:00:00",
                None,
                "AMQ9002I: Channel 'B' is starting.",
            ),
        ]
        .concat();
        let crlf = format!("\u{feff}{}", text.replace('\n', "\r\n"));
        for records in [1, BUDGET.records] {
            let (evs, infos) = one(&crlf, records);
            assert_eq!(
                times(&evs),
                [
                    "2024-07-25T10:00:00.000000+00:00",
                    "2024-08-05T10:00:00.000000+00:00"
                ],
                "look-ahead {records}"
            );
            assert!(
                !infos[0]
                    .problems
                    .iter()
                    .any(|p| p.code == ProblemCode::UndecidableDateOrder),
                "{:?}",
                infos[0].problems
            );
        }
    }

    #[test]
    fn an_empty_file() {
        let (evs, infos) = one("", 1);
        assert!(evs.is_empty());
        assert_eq!(infos[0].problems[0].code, ProblemCode::EmptyFile);
        assert_eq!(infos[0].utc_offset, None);
    }

    /// A generation without Time() takes the offset of a later file of
    /// the set, scanned for it before that file is read.
    #[test]
    fn a_set_without_time_in_its_oldest_file() {
        let old = rec(
            "03/05/2024 10:00:00 AM",
            None,
            "AMQ9002I: Channel 'A' is starting.",
        );
        let new = rec(
            "03/06/2024 10:00:00 AM",
            Some("2024-03-06T09:00:00.000Z"),
            "AMQ9002I: Channel 'B' is starting.",
        );
        for records in [1, BUDGET.records] {
            let (evs, infos) = read(
                &[
                    ("x/errors/AMQERR02.LOG", old.as_str()),
                    ("x/errors/AMQERR01.LOG", new.as_str()),
                ],
                records,
            );
            assert_eq!(
                times(&evs),
                [
                    "2024-03-05T10:00:00.000000+01:00",
                    "2024-03-06T10:00:00.000000+01:00"
                ]
            );
            assert_eq!(
                infos[0].utc_offset_source.as_deref(),
                Some("data of AMQERR01.LOG (same rotated set)")
            );
        }
    }

    /// The error logs under `dirs` (and every file of a `seeds` folder).
    fn logs_under(dirs: Vec<std::path::PathBuf>) -> Vec<std::path::PathBuf> {
        let mut files = Vec::new();
        let mut dirs = dirs;
        while let Some(d) = dirs.pop() {
            for e in std::fs::read_dir(&d).unwrap().flatten() {
                let p = e.path();
                let name = e.file_name().to_string_lossy().to_ascii_uppercase();
                if p.is_dir() {
                    dirs.push(p);
                } else if (name.starts_with("AMQERR") && name.ends_with(".LOG"))
                    || p.parent().is_some_and(|d| d.ends_with("seeds"))
                {
                    files.push(p);
                }
            }
        }
        files.sort();
        files
    }

    fn read_file(f: &std::path::Path, records: usize) -> (Vec<Event>, Vec<FileInfo>) {
        let text = std::fs::read(f).unwrap();
        let format = ErrlogText::with_budget(Budget {
            records,
            bytes: BUDGET.bytes,
        });
        let input = Input::from_bytes(&f.to_string_lossy(), text);
        crate::testkit::drain(Box::new(LineSource::new(
            format,
            FORMAT,
            vec![input],
            &ReadOptions::default(),
        )))
    }

    /// Every error log of `fixtures/` (hostile ones included) reads the
    /// same with a look-ahead of one or four records as on the whole file:
    /// same events at the same times, same problems in the same order.
    #[test]
    fn small_look_aheads_read_the_fixtures_alike() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let files = logs_under(vec![root.join("fixtures")]);
        assert!(files.len() > 30, "{files:?}");
        for f in &files {
            let (evs, infos) = read_file(f, usize::MAX);
            for records in [1, 4] {
                let (short, sinfos) = read_file(f, records);
                assert_eq!(times(&short), times(&evs), "{} at {records}", f.display());
                let texts = |e: &[Event]| e.iter().map(|e| e.text.clone()).collect::<Vec<_>>();
                assert_eq!(texts(&short), texts(&evs));
                assert_eq!(sinfos[0].problems, infos[0].problems, "{}", f.display());
                assert_eq!(sinfos[0].notes, infos[0].notes);
            }
        }
    }

    /// How often the whole file overturns what its look-ahead decided, on
    /// the error logs of `fixtures/` and the real logs of `../shared`
    /// (`cargo test -p mqdiag-readers corrections -- --include-ignored
    /// --nocapture` prints the counts per look-ahead). Every one of them
    /// fits the default look-ahead: none is corrected then.
    #[test]
    #[ignore = "needs ../shared (present on CI)"]
    fn corrections_on_fixtures_and_real_logs() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let shared = root.join("../shared/seeds");
        assert!(shared.exists(), "{} is absent", shared.display());
        let files = logs_under(vec![root.join("fixtures"), shared]);
        let overturned = |i: &FileInfo| {
            i.problems
                .iter()
                .filter(|p| {
                    p.message.contains("the whole file says")
                        || p.message.contains("(the look-ahead was full)")
                })
                .count()
        };
        let read_with = |f: &std::path::PathBuf, records: usize| read_file(f, records);
        let whole: Vec<Vec<String>> = files
            .iter()
            .map(|f| times(&read_with(f, usize::MAX).0))
            .collect();
        for records in [1, 4, 16, 64, BUDGET.records] {
            let (mut count, mut with, mut records_read, mut redated) = (0, 0, 0, 0);
            for (f, whole) in files.iter().zip(&whole) {
                let name = f.to_string_lossy();
                let (evs, infos) = read_with(f, records);
                redated += times(&evs)
                    .iter()
                    .zip(whole)
                    .filter(|(a, b)| a != b)
                    .count();
                let n = overturned(&infos[0]);
                if n > 0 {
                    println!(
                        "  {name}: {:?}",
                        infos[0]
                            .problems
                            .iter()
                            .map(|p| &p.message)
                            .collect::<Vec<_>>()
                    );
                }
                count += n;
                with += usize::from(n > 0);
                records_read += evs.len();
            }
            println!(
                "look-ahead {records} records: {count} decisions overturned in {with} of {} files; {redated} of {records_read} records dated otherwise than on the whole file",
                files.len()
            );
            if records == BUDGET.records {
                assert_eq!((count, redated), (0, 0));
            }
        }
    }
}
