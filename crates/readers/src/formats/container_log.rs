//! The console of an MQ container (`kubectl logs`, `docker logs`), format
//! `container-log`. Two variants, as the container's `MQ_LOGGING_CONSOLE_
//! FORMAT` chooses:
//!
//! * `basic`: one line per message, `<UTC time> <text>`. MQ messages read
//!   `AMQ7467I: The oldest log file ... [CommentInsert1(mqpoc1), ...]`
//!   (the inserts, when any, in brackets at the end); the container's own
//!   programs (`runmqserver`, `mqhtpass`, `runmqdevserver`) write free text
//!   (`mqhtpass: MQStart options=...`).
//! * `json`: one JSON object per line, `"type":"mq_log"` records (the error
//!   log's records, read by the JSON error-log reader) mixed with
//!   `"type":"mq_containerlog"` ones of the container's programs.
//!
//! Checked against ibm-messaging/mq-container at commit `def96385`
//! (docs/container-log.md has the whole table):
//!
//! * `mq_containerlog` keys (`pkg/logger/logger.go`): `message`,
//!   `ibm_datetime` (`2006-01-02T15:04:05.000Z07:00`), `loglevel`, `host`,
//!   `ibm_serverName` (the queue manager), `ibm_processName`,
//!   `ibm_processId` (a string), `ibm_userName`, `type`. In `basic` the
//!   record is `<ibm_datetime> <message>`, a debug one `DEBUG: `-prefixed.
//! * Mirrored records (`cmd/runmqserver/logging.go`, `mirror.go`):
//!   `mq_log` (the queue manager's `AMQERR01.json`; in `basic` with its
//!   inserts in brackets, `formatBasic`); the web server's
//!   `liberty_message`/`liberty_audit`/`liberty_trace` (its `messages.log`,
//!   `ibm_datetime` offset `+0000`, which `basic` turns into `Z`);
//!   `mqsc_log` (`autocfgmqsc.LOG` lines, wrapped by runmqserver as
//!   `ibm_datetime`, `type`, `loglevel`, `message`); mqsimpleauth's records
//!   (`authservice/mqsimpleauth/src/log.c`: `loglevel`, `ibm_datetime`,
//!   `ibm_processId`, `host`, `module`, `message`, no `type` and no
//!   `ibm_processName`). `mirrored` tells them apart. A `liberty_audit`
//!   record has no `message`: its text is its `ibm_audit_*` fields
//!   (`eventName`, `outcome`, `reason.reasonCode`, `target.name`, ...; a
//!   whole record in `cmd/runmqserver/logging_test.go`), written as the
//!   `basic` console writes them (`console::audit_text`).
//! * `basic` records name no queue manager: runmqserver's start-up line
//!   `Using queue manager name: QM1` (`cmd/runmqserver/main.go`) does, and
//!   the MQ records after it carry that name (a `json` record's
//!   `ibm_serverName`).
//!
//! `kubectl logs --timestamps` puts its own RFC 3339 time before each line;
//! it is dropped (the message's own time is the one MQ wrote). Lines come
//! out of time order when several processes write at once: the timeline's
//! reorder window puts them back and reports those too late for it.

use super::Reader;
use super::console::{WEB_SERVER, fast_stamp, stamp_len, strip_kubectl_stamp};
use super::errlog_json::Flavour;
use super::line_source::{FileCtx, LineFormat, LineSource};
use crate::catalog;
use crate::input::Input;
use crate::lines::LineMeta;
use crate::source::{ReadOptions, Source};
use chrono::{DateTime, FixedOffset};
use mqdiag_model::event::Key;
use mqdiag_model::event::{Event, Format, Kind};
use mqdiag_model::problem::{ProblemCode, Severity};
use mqdiag_model::text::{decode_line, looks_like_text};

pub(crate) struct ContainerLogReader;

/// Lines of another program joined to one event at most (a Go panic's
/// stack); the rest become events of their own.
const MAX_CONTINUATIONS: usize = 64;

/// A line that starts like an RFC 3339 time (`yyyy-mm-`) but has none.
fn cut_stamp(line: &str) -> bool {
    let b = line.as_bytes();
    b.len() >= 8
        && b[..4].iter().all(u8::is_ascii_digit)
        && b[4] == b'-'
        && b[5..7].iter().all(u8::is_ascii_digit)
        && b[7] == b'-'
        && stamp_len(b).is_none()
}

/// A `basic` line: its time and the text after it.
fn basic_line(line: &str) -> Option<(&str, &str)> {
    basic_line_measured(line, None)
}

/// `basic_line`, the length of the time `line` starts with given when a
/// wrapper measured it already (`LineMeta::stamp`).
fn basic_line_measured(line: &str, measured: Option<usize>) -> Option<(&str, &str)> {
    debug_assert!(measured.is_none() || measured == stamp_len(line.as_bytes()));
    // `strip_kubectl_stamp`, then the time and text of what is left, with
    // each time measured once.
    let n = measured.or_else(|| stamp_len(line.as_bytes()))?;
    let rest = line[n..].strip_prefix(' ')?;
    if rest.starts_with('{') {
        return None;
    }
    match stamp_len(rest.as_bytes()) {
        // A `kubectl logs --timestamps` time before the console's own.
        Some(m) => Some((&rest[..m], rest[m..].strip_prefix(' ')?)),
        None => Some((&line[..n], rest)),
    }
}

/// `AMQ7467I: text` or, before MQ 9.1, `AMQ9788: text`: the id and text.
fn mq_message(text: &str) -> Option<(&str, &str)> {
    let b = text.as_bytes();
    if !(b.starts_with(b"AMQ") && b.len() >= 8 && b[3..7].iter().all(u8::is_ascii_digit)) {
        return None;
    }
    let id_len = if b[7].is_ascii_uppercase() { 8 } else { 7 };
    let rest = text[id_len..].strip_prefix(':')?;
    Some((&text[..id_len], rest.trim_start()))
}

/// The inserts a `basic` line's trailer names.
const INSERT_NAMES: [&str; 5] = [
    "ArithInsert1",
    "ArithInsert2",
    "CommentInsert1",
    "CommentInsert2",
    "CommentInsert3",
];

/// The `[CommentInsert1(x), ArithInsert1(3)]` trailer of a `basic` MQ line:
/// the text before it and the inserts. Values may hold parentheses and
/// commas (`host (10.0.0.1)`), so an insert ends only where `), ` and the
/// next insert name or the closing `)]` follow.
fn split_inserts(text: &str) -> (&str, Vec<(&'static str, &str)>) {
    let t = text.trim_end();
    let Some(inner_end) = t.strip_suffix(")]") else {
        return (text, Vec::new());
    };
    // The trailer opens at the last ` [` followed by an insert name. The
    // searches go by one byte (`[`, `)`): a `str` pattern builds a searcher
    // per call, a twentieth of reading a container console.
    let tb = t.as_bytes();
    let mut open = None;
    for i in memchr::memchr_iter(b'[', tb).filter_map(|j| j.checked_sub(1)) {
        if tb[i] != b' ' {
            continue;
        }
        let after = &t[i + 2..];
        if INSERT_NAMES
            .iter()
            .any(|n| after.starts_with(n) && after[n.len()..].starts_with('('))
        {
            open = Some(i);
        }
    }
    let Some(open) = open else {
        return (text, Vec::new());
    };
    let body = &inner_end[open + 2..];
    let mut out: Vec<(&'static str, &str)> = Vec::new();
    let mut rest = body;
    while let Some(name) = INSERT_NAMES.iter().find(|n| rest.starts_with(**n)) {
        let v = &rest[name.len() + 1..];
        // The value ends before the next `), Name(` or at the end.
        let mut end = v.len();
        let vb = v.as_bytes();
        for i in memchr::memchr_iter(b')', vb) {
            if !vb[i + 1..].starts_with(b", ") {
                continue;
            }
            let next = &v[i + 3..];
            if INSERT_NAMES
                .iter()
                .any(|n| next.starts_with(n) && next[n.len()..].starts_with('('))
            {
                end = i;
                break;
            }
        }
        out.push((name, &v[..end]));
        if end == v.len() {
            break;
        }
        rest = &v[end + 3..];
    }
    (t[..open].trim_end(), out)
}

/// Text that only mq-container's console writes besides MQ's messages: its
/// debug lines (`DEBUG: Mirrored ...`, `pkg/logger/logger.go`), the web
/// server's (Liberty) messages it mirrors (`CWWKT0016I: ...`,
/// `cmd/runmqserver/logging.go`), `mqsimpleauth: ` debug lines
/// (`authservice/mqsimpleauth/src/log.c`) and runmqserver's start-up lines
/// (`cmd/runmqserver/main.go`).
fn container_text(t: &str) -> bool {
    const STARTS: [&str; 9] = [
        "DEBUG: ",
        "mqsimpleauth: ",
        "Using queue manager name: ",
        "Started queue manager",
        "Created queue manager",
        "Image created: ",
        "MQ version: ",
        "MQ level: ",
        "Metrics are disabled",
    ];
    liberty_id(t).is_some() || STARTS.iter().any(|s| t.starts_with(s))
}

/// The queue manager runmqserver's start-up line names (`Using queue
/// manager name: QM1`, with or without the `runmqserver: ` a console
/// collector puts before it).
fn qmgr_named(text: &str) -> Option<&str> {
    let t = text.strip_prefix("runmqserver: ").unwrap_or(text);
    let q = t.strip_prefix("Using queue manager name: ")?.trim();
    // A queue manager name: up to 48 characters of A-Z a-z 0-9 . / _ %.
    (!q.is_empty()
        && q.len() <= 48
        && q.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'/' | b'_' | b'%')))
    .then_some(q)
}

/// The Liberty message id a line starts with (`CWWKT0016I: `, `CWPKI0033E:
/// `, `SRVE0242I: `).
fn liberty_id(t: &str) -> Option<&str> {
    let b = t.as_bytes();
    let letters = b.iter().take_while(|c| c.is_ascii_uppercase()).count();
    let id = (4..=5).contains(&letters)
        && b.len() > letters + 6
        && b[letters..letters + 4].iter().all(u8::is_ascii_digit)
        && b"IWEAD".contains(&b[letters + 4])
        && b[letters + 5] == b':';
    id.then(|| &t[..letters + 5])
}

/// A timed line that heads an `ffstsummary` listing on the lines after it
/// (`DEBUG: ffstsummary:`, `FDC summary:`, as runmqserver logs it).
fn summary_header(rest: &str) -> bool {
    let t = rest.trim_end().as_bytes();
    t.ends_with(b":") && t.windows(7).any(|w| w.eq_ignore_ascii_case(b"summary"))
}

/// Whether a JSON line (sniffed as text) is one of the mirrored records.
fn mirrored_line(l: &str) -> bool {
    l.contains("\"ibm_datetime\"")
        && (l.contains("\"type\":\"liberty_")
            || l.contains("\"type\":\"mqsc_log\"")
            || (!l.contains("\"type\"")
                && !l.contains("\"ibm_processName\"")
                && (l.contains("simpleauth.c:") || l.contains("\"message\":\"mqsimpleauth: "))))
}

/// The container's own programs (`cmd/` of mq-container), as its JSON
/// records name them in `ibm_processName` (mqsimpleauth's name none:
/// `mirrored`).
const CONTAINER_PROGRAMS: [&str; 3] = ["runmqserver", "runmqdevserver", "mqhtpass"];

/// Lines with a collector's wrapper taken off: any console line will do
/// (the wrapper is the container layout), MQ's or not.
fn sniff_wrapped(text: &str) -> u8 {
    let s = sniff_text(text);
    if s > 0 {
        return s.max(90);
    }
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    if lines
        .iter()
        .any(|l| l.starts_with('{') && l.contains("\"ibm_datetime\""))
    {
        return 97;
    }
    let timed = lines.iter().filter(|l| basic_line(l).is_some()).count();
    if timed > 0 && timed * 2 >= lines.len().saturating_sub(1).max(1) {
        80
    } else {
        0
    }
}

/// How sure we are that these first lines are a container console.
fn sniff_text(text: &str) -> u8 {
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .take(400)
        .collect();
    // The block's last line may be cut.
    let n = lines.len().saturating_sub(1).max(1);
    let (mut basic_mq, mut basic_other, mut json_container, mut kubectl) = (0, 0, 0, 0);
    let mut own = 0;
    // Lines without a time after a timed one continue its record (a
    // program's multi-line output); an `ffstsummary` listing under a
    // timed header (`DEBUG: ffstsummary:`) is what no listing alone has.
    let (mut timed_seen, mut conts, mut header, mut listing) = (false, 0, false, 0);
    for l in lines.iter().take(n) {
        let l = l.trim_start_matches('\u{feff}');
        if strip_kubectl_stamp(l).is_some() {
            kubectl += 1;
        }
        let l2 = strip_kubectl_stamp(l).unwrap_or(l);
        if l2.starts_with('{') {
            // A record of the container's own programs or of a log it
            // mirrors, or one cut before its `type` (mq-container writes
            // the keys sorted, `type` last) that names one of them.
            if l2.contains("\"mq_containerlog\"")
                || mirrored_line(l2)
                || (l2.contains("\"ibm_datetime\"")
                    && CONTAINER_PROGRAMS
                        .iter()
                        .any(|p| l2.contains(&format!("\"ibm_processName\":\"{p}\""))))
            {
                json_container += 1;
            }
            continue;
        }
        let Some((_, rest)) = basic_line(l) else {
            if timed_seen {
                conts += 1;
                listing += usize::from(header && super::ffstsummary::is_listing_line(l));
            }
            continue;
        };
        timed_seen = true;
        header = summary_header(rest);
        {
            if mq_message(rest).is_some() {
                basic_mq += 1;
            } else {
                basic_other += 1;
                own += usize::from(container_text(rest));
            }
        }
    }
    if json_container > 0 || (kubectl > 0 && lines.iter().any(|l| l.contains("\"mq_log\""))) {
        return 97;
    }
    if listing > 0 && basic_mq + own > 0 {
        return 95;
    }
    let n = (n - conts).max(1);
    match (basic_mq, basic_other) {
        // mq-container's own lines only (its web server's, say).
        (0, o) if own > 0 && own * 2 >= o && o * 2 >= n => 80,
        (0, _) => 0,
        // Timed MQ messages: nothing else writes those.
        (m, o) if m + o >= n / 2 => 90,
        _ => 50,
    }
}

/// Container consoles. Its facts for the rest of the program.
pub static FORMAT: Format = Format::of(&mqdiag_model::event::FormatInfo {
    name: "container-log",
    family: mqdiag_model::event::FormatFamily::ErrorLog,
    states_local_time: true,
    dataset: "ibmmq.container",
    host_is_writer: false,
});

impl Reader for ContainerLogReader {
    fn format(&self) -> Format {
        FORMAT
    }

    /// `sniff_text` and `sniff_wrapped` give at most 97: a file an FDC's
    /// box already took (98) is not scanned again.
    fn sniff_ceiling(&self) -> u8 {
        97
    }

    fn sniff(&self, _name: &str, head: &[u8]) -> u8 {
        if head.is_empty() || !looks_like_text(head) {
            return 0;
        }
        if let Some(w) = super::wrapper::detect(head) {
            return sniff_wrapped(&String::from_utf8_lossy(&super::wrapper::unwrapped_head(
                &w, head,
            )));
        }
        sniff_text(&mqdiag_model::text::utf8_lossy(head))
    }

    fn open_with(
        &self,
        inputs: Vec<Input>,
        opts: &ReadOptions,
        _: super::Prepared,
    ) -> Box<dyn Source> {
        // Collectors' wrappers come off first (`wrapper`).
        let (inputs, wrappers) = super::wrapper::unwrap_inputs(inputs);
        let kept = inputs.clone();
        super::wrapper::WrappedSource::boxed(self.open_unwrapped(inputs, opts), &kept, wrappers)
    }

    fn fuzz(&self) -> Option<super::Fuzz> {
        Some(super::Fuzz {
            target: "container_log",
            names: &["mq-container.log"],
        })
    }
}

impl ContainerLogReader {
    fn open_unwrapped(&self, inputs: Vec<Input>, opts: &ReadOptions) -> Box<dyn Source> {
        // One file each (no group): the variant decides the source.
        let json = inputs.first().is_some_and(|i| {
            super::body_head(i, super::SNIFF_BYTES).is_ok_and(|h| {
                let t = String::from_utf8_lossy(&h);
                t.lines()
                    .map(|l| l.trim_start_matches('\u{feff}').trim_start())
                    .find(|l| !l.is_empty())
                    .is_some_and(|l| strip_kubectl_stamp(l).unwrap_or(l).starts_with('{'))
            })
        });
        if json {
            super::errlog_json::source(inputs, opts, Flavour::ContainerConsole, FORMAT, None)
        } else {
            Box::new(LineSource::new(Basic::default(), FORMAT, inputs, opts))
        }
    }
}

/// An event waiting for the lines that may continue it.
struct Pending {
    event: Event,
    conts: usize,
    /// Its text heads an `ffstsummary` listing (`summary_header`), judged
    /// once when the record starts.
    heads_listing: bool,
}

/// What is kept while one file is read.
#[derive(Default)]
struct BasicFile {
    pending: Option<Pending>,
    /// The byte offset of the line being read.
    line_at: u64,
    /// Lines before the first timed one (nothing to attach them to).
    orphans: u64,
    first_orphan: Option<u64>,
    bad_times: u64,
    memo: catalog::Memo,
    /// The queue manager runmqserver named (`Using queue manager name:
    /// QM1`, `cmd/runmqserver/main.go`): the `basic` console's records name
    /// none, where a `json` one's say it in `ibm_serverName`.
    qmgr: Option<String>,
}

/// The `basic` variant's specifics for `LineSource`.
#[derive(Default)]
struct Basic {
    /// The line being read, decoded (the buffer is kept from line to line).
    line: String,
}

impl LineFormat for Basic {
    type File = BasicFile;

    fn open_file(&mut self, _input: &Input, _ctx: &mut FileCtx) -> BasicFile {
        BasicFile::default()
    }

    fn line(&mut self, run: &mut BasicFile, ctx: &mut FileCtx, meta: LineMeta, bytes: &[u8]) {
        let no = meta.no;
        let line = &mut self.line;
        line.clear();
        line.push_str(&decode_line(bytes).0);
        let cut_len = bytes.len();
        // What the wrapper measured holds for the decoded line: a time is
        // ASCII, which decoding keeps.
        if meta.unterminated && basic_line_measured(line, meta.stamp).is_none() {
            // The file ends inside a line (copied while being written).
            ctx.info.problem(
                ProblemCode::CutFile,
                Some(no),
                Severity::Warning,
                1,
                "last line is cut short (log still being written?): skipped",
            );
        } else {
            run.line_at = meta.offset;
            run.line_step(ctx, meta, line, cut_len);
        }
    }

    fn finish_file(&mut self, mut run: BasicFile, ctx: &mut FileCtx) {
        run.flush(ctx);
        if run.orphans > 0 {
            ctx.info.problem(
                ProblemCode::MissingTime,
                run.first_orphan,
                Severity::Warning,
                run.orphans,
                format!(
                    "{} line(s) without a time before the first timed line: skipped",
                    run.orphans
                ),
            );
        }
        ctx.info.variant = Some("basic".to_string());
        if ctx.info.events == 0 && ctx.info.problem_count == 0 && ctx.info.lines > 0 {
            ctx.info.problem(
                ProblemCode::NoRecords,
                None,
                Severity::Warning,
                0,
                "no timed console line found",
            );
        }
    }
}

impl BasicFile {
    fn flush(&mut self, ctx: &mut FileCtx) {
        if let Some(p) = self.pending.take() {
            ctx.emit(p.event);
        }
    }

    fn line_step(&mut self, ctx: &mut FileCtx, meta: LineMeta, text: &str, cut_len: usize) {
        let (no, measured) = (meta.no, meta.stamp);
        let (truncated, full_len) = (meta.truncated, meta.full_len);
        let run = self;
        // A measured time starts the line: no byte-order mark before it.
        let text = text.trim_start_matches('\u{feff}');
        if text.trim().is_empty() {
            return;
        }
        if truncated {
            ctx.info.line_cut(no, full_len, cut_len);
        }
        let Some((stamp, rest)) = basic_line_measured(text, measured) else {
            // A line starting like a time whose time is cut (`2021-12-15T23:
            // 39:1 ...`, a console copied with a line damaged) is no
            // program's continuation: say so instead of joining it.
            if cut_stamp(text) {
                run.bad_times += 1;
                ctx.info.problem(
                    ProblemCode::BadTime,
                    Some(no),
                    Severity::Warning,
                    1,
                    "line starts with a cut time: skipped",
                );
                return;
            }
            // The listing under a timed `ffstsummary:` header: each line
            // an FDC, in the header's offset (the console's `Z`).
            if let Some(p) = run.pending.as_ref()
                && p.heads_listing
                && let Some(mut e) =
                    super::ffstsummary::event_of_line(text, ctx.origin, no, *p.event.ts.offset())
            {
                e.offset = run.line_at;
                ctx.emit(e);
                return;
            }
            // A line without a time continues the message before it (a
            // program's multi-line output).
            match run.pending.as_mut() {
                Some(p) if p.conts < MAX_CONTINUATIONS => {
                    p.conts += 1;
                    p.event.text.push(' ');
                    p.event.text.push_str(text.trim_end());
                }
                // A record's output past what one event takes: the rest
                // goes on as text events of the same program, at the
                // record's own time (the time its lines were written).
                Some(p) => {
                    let mut e = Event::new(
                        p.event.ts,
                        ctx.origin.clone(),
                        no,
                        Kind::Text,
                        text.trim_end().to_string(),
                    );
                    if let Some(prog) = p.event.get(Key::Program) {
                        e.set(Key::Program, prog);
                    }
                    e.offset = run.line_at;
                    run.flush(ctx);
                    run.pending = Some(Pending {
                        event: e,
                        conts: 0,
                        heads_listing: false,
                    });
                }
                None => {
                    run.orphans += 1;
                    run.first_orphan.get_or_insert(no);
                }
            }
            return;
        };
        let parsed = fast_stamp(stamp).map_or_else(|| DateTime::parse_from_rfc3339(stamp), Ok);
        let ts: DateTime<FixedOffset> = match parsed {
            Ok(t) => t,
            Err(_) => {
                run.bad_times += 1;
                ctx.info.problem(
                    ProblemCode::BadTime,
                    Some(no),
                    Severity::Warning,
                    1,
                    format!("time `{stamp}` cannot be read: line skipped"),
                );
                return;
            }
        };
        if ctx.info.utc_offset.is_none() {
            ctx.info.set_offset(*ts.offset(), "data");
        }
        let mut event = match mq_message(rest) {
            Some((id, body)) => {
                let mut e = mq_event(&mut run.memo, ctx, ts, no, id, body, rest);
                if let Some(q) = &run.qmgr
                    && e.get(Key::Qmgr).is_none()
                {
                    e.set(Key::Qmgr, q);
                }
                e
            }
            None => {
                if let Some(q) = qmgr_named(rest) {
                    run.qmgr = Some(q.to_string());
                    ctx.info.qmgr.get_or_insert_with(|| q.to_string());
                }
                let mut e = Event::new(ts, ctx.origin.clone(), no, Kind::Text, rest.to_string());
                // The web server's messages (`CWPKI0033E: ...`) and audit
                // records (`AUDIT: eventName=...`, `formatBasic` in
                // `cmd/runmqserver/logging.go`).
                if let Some(id) = liberty_id(rest) {
                    e.set(Key::Program, WEB_SERVER);
                    e.set(Key::Msgid, id);
                } else if rest.starts_with("AUDIT:") {
                    e.set(Key::Program, WEB_SERVER);
                }
                // `mqhtpass: MQStart ...`: the program that wrote it.
                else if let Some((prog, _)) = rest.split_once(": ")
                    && !prog.is_empty()
                    && prog.len() <= 32
                    && prog
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
                {
                    e.set(Key::Program, prog);
                }
                e
            }
        };
        event.offset = run.line_at;
        run.flush(ctx);
        let heads_listing = event.kind == Kind::Text && summary_header(&event.text);
        run.pending = Some(Pending {
            event,
            conts: 0,
            heads_listing,
        });
    }
}

/// One MQ message line as a `log-record` event, its fields pulled out by
/// the same catalogue as the error logs' records.
fn mq_event(
    memo: &mut catalog::Memo,
    ctx: &mut FileCtx,
    ts: DateTime<FixedOffset>,
    no: u64,
    id: &str,
    body: &str,
    whole: &str,
) -> Event {
    let (text, inserts) = split_inserts(body);
    let mut e = Event::new(
        ts,
        ctx.origin.clone(),
        no,
        Kind::LogRecord,
        mqdiag_model::event::spare_copy(whole),
    );
    let x = memo.extract(id, text, &inserts);
    // A record has about ten attributes: one allocation, not four.
    e.attrs = mqdiag_model::event::Attrs::spare(20, 256);
    x.apply(&mut e);
    for (canon, v) in &inserts {
        let key = match *canon {
            "ArithInsert1" => Key::ArithInsert1,
            "ArithInsert2" => Key::ArithInsert2,
            "CommentInsert1" => Key::CommentInsert1,
            "CommentInsert2" => Key::CommentInsert2,
            _ => Key::CommentInsert3,
        };
        e.set(key, *v);
    }
    if let Some(q) = e.get(Key::Qmgr)
        && ctx.info.qmgr.is_none()
    {
        ctx.info.qmgr = Some(q.to_string());
    }
    e
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::console::{Mirrored, date_time_shape, mirrored, rfc3339};
    use mqdiag_model::fileinfo::FileInfo;

    fn read(text: &str) -> (Vec<Event>, Vec<FileInfo>) {
        crate::testkit::read(
            &ContainerLogReader,
            "pod.log",
            text,
            &ReadOptions::default(),
        )
    }

    const BASIC: &str = "\
2021-12-15T23:38:51.702Z AMQ7467I: The oldest log file required to start queue manager mqpoc1 is S0000000.LOG. [CommentInsert1(mqpoc1), CommentInsert2(S0000000.LOG)]
2021-12-15T23:38:52.034Z mqhtpass: MQStart options=Secondary qmgr=mqpoc1
2021-12-15T23:38:52.101Z AMQ9209E: Connection to host 'app01 (10.1.2.3)' for channel 'APP1.SVRCONN' closed. [CommentInsert1(app01 (10.1.2.3)), CommentInsert3(APP1.SVRCONN)]
2021-12-15T23:38:52.200Z AMQ9788: Slow DNS lookup for address 'centos6'.
";

    #[test]
    fn a_cut_time_is_a_located_problem_not_a_continuation() {
        let text = "2021-12-15T23:38:51.702Z mqhtpass: started\n\
                    2021-12-15T23:3 AMQ9209E: Connection to host 'a' closed.\n\
                    \tgoroutine 1 [running]:\n\
                    2021-12-15T23:38:52.000Z runmqserver: done\n";
        let (evs, infos) = read(text);
        assert_eq!(evs.len(), 2);
        // The program's own continuation is still joined.
        assert_eq!(evs[0].text, "mqhtpass: started \tgoroutine 1 [running]:");
        let p = &infos[0].problems[0];
        assert_eq!((p.line, p.code), (Some(2), ProblemCode::BadTime));
        assert!(!cut_stamp("goroutine 1"));
        assert!(!cut_stamp("2021-12-15T23:38:51Z x"));
    }

    #[test]
    fn fast_stamps_are_chronos() {
        let stamps = [
            "2021-12-15T23:38:51.702Z",
            "2021-12-15T23:38:51Z",
            "2021-12-15t23:38:51.702318+01:00",
            "2021-12-15T23:38:51.123456789-05:30",
            "2021-12-15T23:38:51.1234567891Z",
            "2021-12-31T23:59:60Z",
            "2021-02-30T10:00:00Z",
            "2021-12-15T24:00:00Z",
            "2021-12-15T23:38:51+25:00",
            "2021-12-15T23:38:51-00:59",
            "2021-12-15T23:38:51+00:99",
            "2021-12-15T23:38:51+23:59",
            "0000-01-01T00:00:00Z",
        ];
        for s in stamps {
            let n = stamp_len(s.as_bytes()).unwrap();
            let s = &s[..n];
            if let Some(t) = fast_stamp(s) {
                assert_eq!(Ok(t), DateTime::parse_from_rfc3339(s), "{s}");
            } else {
                // Left to chrono: only what the fast path does not cover.
                assert!(
                    s.contains(":60") || s.len() > 30 || DateTime::parse_from_rfc3339(s).is_err(),
                    "{s}"
                );
            }
        }
    }

    /// Whatever the text, `rfc3339` answers what chrono answers.
    #[test]
    fn rfc3339_is_chronos() {
        let mut rng = mqdiag_model::testrng::Rng::new(0x3339);
        let pieces = [
            "0", "1", "2", "3", "5", "9", "-", ":", "T", "t", " ", ".", "Z", "z", "+",
        ];
        for _ in 0..100_000 {
            let mut s: Vec<u8> = b"2021-12-15T23:38:51.702+01:00".to_vec();
            for _ in 0..rng.below(4) {
                let at = rng.below(s.len());
                let p = pieces[rng.below(pieces.len())].as_bytes()[0];
                s[at] = p;
            }
            s.truncate(s.len() - rng.below(3) * rng.below(8));
            let s = String::from_utf8(s).unwrap();
            assert_eq!(rfc3339(&s), DateTime::parse_from_rfc3339(&s), "{s}");
        }
    }

    /// runmqserver names the queue manager once; the `basic` records after
    /// it carry it (as a `json` record's `ibm_serverName` does).
    #[test]
    fn basic_records_carry_the_queue_manager_runmqserver_named() {
        let text = "2024-07-09T08:15:01.000Z AMQ5534E: User ID 'x' authentication failed\n\
            2024-07-09T08:15:02.118Z runmqserver: Using queue manager name: QMC1\n\
            2024-07-09T08:30:10.002Z AMQ5534E: User ID 'app' authentication failed\n";
        let (evs, infos) = read(text);
        assert_eq!(evs[0].get(Key::Qmgr), None);
        assert_eq!(evs[1].get(Key::Qmgr), None, "a text line: as written");
        assert_eq!(evs[2].get(Key::Qmgr), Some("QMC1"));
        assert_eq!(infos[0].qmgr.as_deref(), Some("QMC1"));
        assert_eq!(
            qmgr_named("Using queue manager name: QM.A_1"),
            Some("QM.A_1")
        );
        assert_eq!(qmgr_named("Using queue manager name: two words"), None);
        assert_eq!(qmgr_named("runmqserver: Started queue manager"), None);
    }

    #[test]
    fn basic_lines_are_records_and_text() {
        assert!(sniff_text(BASIC) >= 90);
        let (evs, infos) = read(BASIC);
        assert_eq!(evs.len(), 4);
        assert_eq!(evs[0].kind, Kind::LogRecord);
        assert_eq!(evs[0].get(Key::Msgid), Some("AMQ7467I"));
        assert_eq!(evs[0].get(Key::CommentInsert2), Some("S0000000.LOG"));
        assert_eq!(evs[1].kind, Kind::Text);
        assert_eq!(evs[1].get(Key::Program), Some("mqhtpass"));
        assert_eq!(evs[2].get(Key::Channel), Some("APP1.SVRCONN"));
        assert_eq!(evs[2].get(Key::CommentInsert1), Some("app01 (10.1.2.3)"));
        // No severity letter before MQ 9.1: the same message.
        assert_eq!(evs[3].get(Key::Msgid).map(|s| &s[..7]), Some("AMQ9788"));
        // Each record carries its catalogue row; a text line none.
        assert_eq!(evs[2].catalog, catalog::row_of("AMQ9209E"));
        assert_eq!(evs[1].catalog, mqdiag_model::event::CatalogRow::ASK);
        assert_eq!(infos[0].format, FORMAT);
        assert_eq!(infos[0].variant.as_deref(), Some("basic"));
        assert_eq!(infos[0].events, 4);
    }

    /// `stamp_len` and `basic_line` by hand agree with their plain
    /// definitions on lines near the shapes they test.
    #[test]
    fn stamps_and_basic_lines_agree_with_their_definitions() {
        fn stamp_oracle(s: &[u8]) -> Option<usize> {
            let d = |i: usize| s.get(i).is_some_and(u8::is_ascii_digit);
            let at = |i: usize, c: u8| s.get(i) == Some(&c);
            let shape = date_time_shape(s, |c| c == b'T' || c == b't');
            if !shape {
                return None;
            }
            let mut i = 19;
            if at(i, b'.') {
                i += 1;
                while d(i) {
                    i += 1;
                }
            }
            match s.get(i) {
                Some(b'Z' | b'z') => Some(i + 1),
                Some(b'+' | b'-') if d(i + 1) && d(i + 2) && at(i + 3, b':') => {
                    (d(i + 4) && d(i + 5)).then_some(i + 6)
                }
                _ => None,
            }
        }
        fn basic_oracle(line: &str) -> Option<(&str, &str)> {
            let line = strip_kubectl_stamp(line).unwrap_or(line);
            let n = stamp_oracle(line.as_bytes())?;
            let rest = line[n..].strip_prefix(' ')?;
            Some((&line[..n], rest))
        }
        let seeds = [
            "2021-12-15T23:38:51.702Z AMQ9209E: x",
            "2021-12-15T23:38:51.702318123Z 2021-12-15t23:38:51.702+01:00 AMQ5051I: y",
            "2021-12-15T23:38:51Z {\"a\":1}",
            "2021-12-15T23:38:51.7Z 2021-12-15T23:38:51Z",
        ];
        let tokens = [
            "T",
            "t",
            "Z",
            " ",
            "-",
            ":",
            ".",
            "+01:00",
            "{",
            "9",
            "x",
            "é",
            "",
            "0",
            "/",
            "\u{7f}",
            "\u{ff}",
            "123456789",
            "T12",
            "Z\u{0}",
        ];
        let mut rng = mqdiag_model::testrng::Rng::new(0x5eed_57a4_0001);
        for _ in 0..20_000 {
            let t = rng.damaged(&seeds, &tokens, 4);
            assert_eq!(stamp_len(t.as_bytes()), stamp_oracle(t.as_bytes()), "{t:?}");
            assert_eq!(basic_line(&t), basic_oracle(&t), "{t:?}");
        }
    }

    #[test]
    fn kubectl_timestamps_are_dropped() {
        let l = "2021-12-15T23:38:51.702318123Z 2021-12-15T23:38:51.702Z AMQ5051I: The queue manager task 'LOGGER-IO' has started.";
        let (stamp, rest) = basic_line(l).unwrap();
        assert_eq!(stamp, "2021-12-15T23:38:51.702Z");
        assert!(rest.starts_with("AMQ5051I"));
        assert_eq!(
            strip_kubectl_stamp("2021-12-15T23:38:51.7Z {\"a\":1}"),
            Some("{\"a\":1}")
        );
        // A basic line alone is not a kubectl prefix.
        assert_eq!(
            strip_kubectl_stamp("2021-12-15T23:38:51.7Z AMQ5051I: x"),
            None
        );
    }

    #[test]
    fn inserts_with_parentheses_and_commas() {
        let (t, ins) = split_inserts(
            "Channel 'A' ended. [CommentInsert1(host (1.2.3.4)(1414)), ArithInsert1(10054), CommentInsert3(a, b)]",
        );
        assert_eq!(t, "Channel 'A' ended.");
        assert_eq!(
            ins,
            vec![
                ("CommentInsert1", "host (1.2.3.4)(1414)"),
                ("ArithInsert1", "10054"),
                ("CommentInsert3", "a, b"),
            ]
        );
        let (t, ins) = split_inserts("No inserts [here]");
        assert_eq!((t, ins.len()), ("No inserts [here]", 0));
    }

    /// The byte searches find what `match_indices` found, on trailers
    /// pieced together from the awkward parts.
    #[test]
    fn inserts_split_as_by_str_patterns() {
        fn by_str(text: &str) -> (&str, Vec<(&'static str, &str)>) {
            let named = |s: &str| {
                INSERT_NAMES
                    .iter()
                    .any(|n| s.starts_with(n) && s[n.len()..].starts_with('('))
            };
            let t = text.trim_end();
            let Some(inner_end) = t.strip_suffix(")]") else {
                return (text, Vec::new());
            };
            let Some(open) = t
                .match_indices(" [")
                .map(|(i, _)| i)
                .filter(|&i| named(&t[i + 2..]))
                .last()
            else {
                return (text, Vec::new());
            };
            let mut out = Vec::new();
            let mut rest = &inner_end[open + 2..];
            while let Some(name) = INSERT_NAMES.iter().find(|n| rest.starts_with(**n)) {
                let v = &rest[name.len() + 1..];
                let end = v
                    .match_indices("), ")
                    .map(|(i, _)| i)
                    .find(|&i| named(&v[i + 3..]))
                    .unwrap_or(v.len());
                out.push((*name, &v[..end]));
                if end == v.len() {
                    break;
                }
                rest = &v[end + 3..];
            }
            (t[..open].trim_end(), out)
        }
        let parts = [
            " [",
            "[",
            " ",
            "(",
            ")",
            "), ",
            ")]",
            ", ",
            "CommentInsert1(",
            "ArithInsert2(",
            "CommentInsert3",
            "x",
            "é",
            "]",
            " )] ",
            "),",
        ];
        let mut rng = mqdiag_model::testrng::Rng::new(0x001a_5e47);
        for _ in 0..50_000 {
            let mut t = String::from("AMQ9209E text");
            for _ in 0..rng.below(12) {
                t.push_str(parts[rng.below(parts.len())]);
            }
            if rng.below(2) == 0 {
                t.push_str(")]");
            }
            assert_eq!(split_inserts(&t), by_str(&t), "{t:?}");
        }
    }

    #[test]
    fn untimed_lines_continue_or_are_reported_and_bad_times_skipped() {
        let text = "panic: runtime error\n\
                    2021-12-15T23:38:52.034Z runmqserver: fatal error\n\
                    goroutine 1 [running]:\n\
                    2021-13-45T23:38:52.034Z AMQ5051I: bad month\n\
                    2021-12-15T23:38:5";
        let (evs, infos) = read(text);
        assert_eq!(evs.len(), 1);
        assert_eq!(
            evs[0].text,
            "runmqserver: fatal error goroutine 1 [running]:"
        );
        let msgs: Vec<&str> = infos[0]
            .problems
            .iter()
            .map(|p| p.message.as_str())
            .collect();
        assert!(
            msgs.iter().any(|m| m.contains("cannot be read")),
            "{msgs:?}"
        );
        assert!(
            msgs.iter().any(|m| m.contains("without a time")),
            "{msgs:?}"
        );
        assert!(msgs.iter().any(|m| m.contains("cut short")), "{msgs:?}");
    }

    /// A program's output longer than one event takes goes on as text
    /// events at its record's time: no line of it is lost.
    #[test]
    fn long_output_goes_on_as_text_events() {
        let mut text = String::from("2021-12-15T23:38:52.034Z runmqserver: panic: boom\n");
        for i in 0..70 {
            text.push_str(&format!("\tframe {i}\n"));
        }
        text.push_str("2021-12-15T23:38:53.000Z runmqserver: done\n");
        let (evs, infos) = read(&text);
        assert_eq!(evs.len(), 3, "{evs:?}");
        assert_eq!(infos[0].problem_count, 0, "{:?}", infos[0].problems);
        assert!(evs[0].text.ends_with("frame 63"));
        assert_eq!(
            evs[1].text,
            "\tframe 64 \tframe 65 \tframe 66 \tframe 67 \tframe 68 \tframe 69"
        );
        assert_eq!((evs[1].line, evs[1].ts), (66, evs[0].ts));
        assert_eq!(evs[1].get(Key::Program), Some("runmqserver"));
    }

    #[test]
    fn mirrored_records_by_their_keys() {
        use Mirrored::*;
        let m = |kind, process, module, message| mirrored(kind, process, module, message);
        assert_eq!(
            m(Some("liberty_message"), None, None, "CWWKF0011I: x"),
            Some(Liberty)
        );
        assert_eq!(m(Some("liberty_audit"), None, None, ""), Some(Liberty));
        assert_eq!(m(Some("mqsc_log"), None, None, "AMQ8006I: x"), Some(Mqsc));
        let auth = Some("src/mqsimpleauth.c:78");
        assert_eq!(m(None, None, auth, "Initializing"), Some(SimpleAuth));
        assert_eq!(
            m(None, None, None, "mqsimpleauth: MQStart"),
            Some(SimpleAuth)
        );
        // MQ's and the container's own records, and a record cut before its
        // `type` that names its program.
        assert_eq!(
            m(
                Some("mq_log"),
                Some("amqrmppa"),
                Some("amqccita.c:4214"),
                ""
            ),
            None
        );
        assert_eq!(
            m(Some("mq_containerlog"), Some("runmqserver"), None, ""),
            None
        );
        assert_eq!(m(None, Some("runmqserver"), None, "mqsimpleauth: x"), None);
        assert_eq!(m(None, None, Some("amqccita.c:4214"), "AMQ9209E: x"), None);
        assert_eq!(liberty_id("CWPKI0033E: The keystore"), Some("CWPKI0033E"));
        assert_eq!(liberty_id("SRVE0242I: x"), Some("SRVE0242I"));
        assert_eq!(liberty_id("AUDIT: x"), None);
    }

    #[test]
    fn json_console_mixes_mq_and_container_records() {
        let text = concat!(
            r#"{"ibm_datetime":"2021-12-15T23:38:50.100Z","host":"mqpoc1-ibm-mq-0","ibm_processName":"runmqserver","ibm_processId":"1","ibm_serverName":"mqpoc1","loglevel":"INFO","message":"Using queue manager name: mqpoc1","type":"mq_containerlog"}"#,
            "\n",
            r#"2021-12-15T23:38:51.702318Z {"ibm_messageId":"AMQ7467I","ibm_commentInsert1":"mqpoc1","ibm_commentInsert2":"S0000000.LOG","ibm_datetime":"2021-12-15T23:38:51.702Z","ibm_serverName":"mqpoc1","type":"mq_log","host":"mqpoc1-ibm-mq-0","loglevel":"INFO","module":"amqalch0.c:1234","ibm_processId":"74","ibm_threadId":"1","ibm_processName":"amqzmuc0","message":"AMQ7467I: The oldest log file required to start queue manager mqpoc1 is S0000000.LOG."}"#,
            "\n"
        );
        assert_eq!(sniff_text(text), 97);
        let (evs, infos) = read(text);
        assert_eq!(evs.len(), 2);
        assert_eq!(evs[0].kind, Kind::Text);
        assert_eq!(evs[0].get(Key::Program), Some("runmqserver"));
        assert_eq!(evs[1].kind, Kind::LogRecord);
        assert_eq!(evs[1].get(Key::Msgid), Some("AMQ7467I"));
        assert_eq!(infos[0].format, FORMAT);
        assert_eq!(infos[0].variant.as_deref(), Some("json"));
    }
}
