//! z/OS console messages of MQ (`CSQXnnnX` and the other `CSQ` families) in
//! a channel-initiator job log (JES2 JESMSGLG: `hh.mm.ss JOBID  message`,
//! with `---- DAY, DD MON YYYY ----` date lines), in SYSLOG/OPERLOG
//! hardcopy (`N 0000000 SYS1 24065 10:15:30.12 STC04321 00000090  message`,
//! continuation records D/E/S), as operator-command tools return console
//! lines (`SYSA      2020238  23:37:37.00  message`: system name optional,
//! Julian date `yyyyddd` or `yyddd`), or pasted without any prefix.
//!
//! A message is `[+*@]CSQXnnnX cpf csect text`; multi-line messages (WTO)
//! continue on lines that start with a blank, or on D/E/S records, and may
//! carry the WTO connect id at the end of the first line. Continuations are
//! joined to the first line. See `shared/formats/error-log.md` §7 and R14.

use super::line_source::{FileCtx, LineFormat, Standalone};
use crate::catalog;
use crate::input::Input;
use crate::lines::LineMeta;
use chrono::{DateTime, NaiveDate, NaiveDateTime, NaiveTime, TimeZone};
use mqdiag_model::event::Key;
use mqdiag_model::event::{Attrs, Event, Format, Kind, Ts};
use mqdiag_model::problem::{ProblemCode, Severity};
use mqdiag_model::text::{decode_line, looks_like_text, trim};
use regex::Regex;
use std::sync::LazyLock;

/// Continuation lines joined per message at most (a runaway message is cut).
const MAX_CONTINUATIONS: usize = 64;

/// `[+*@]CSQXnnnX rest`: the message id and the rest (blanks after the id
/// skipped), or `None` for any other line. By hand: a regex's captures
/// cost a third of reading a channel initiator's log.
fn csq_message(s: &str) -> Option<(&str, &str)> {
    let s = s.strip_prefix(['+', '*', '@']).unwrap_or(s);
    let b = s.as_bytes();
    let id_ok = b.len() >= 8
        && b.starts_with(b"CSQ")
        && (b[3].is_ascii_uppercase() || b[3].is_ascii_digit())
        && b[4..7].iter().all(u8::is_ascii_digit)
        && b"IEWSAD".contains(&b[7]);
    if !id_ok {
        return None;
    }
    let (id, rest) = s.split_at(8);
    match rest.chars().next() {
        None => Some((id, "")),
        Some(c) if c.is_whitespace() => {
            let rest = rest.trim_start();
            // As `.` in a regex: a line break ends the match.
            memchr::memchr(b'\n', rest.as_bytes())
                .is_none()
                .then_some((id, rest))
        }
        Some(_) => None,
    }
}

/// A message the reader keeps: an MQ (`CSQ`) message, or RACF's violation
/// message `ICH408I`, which the queue manager's job log holds when a user
/// was refused one of its resources.
fn mq_message(s: &str) -> Option<(&str, &str)> {
    csq_message(s).or_else(|| racf_message(s))
}

/// `ICH408I` and the rest of its first line.
fn racf_message(s: &str) -> Option<(&str, &str)> {
    let rest = s.strip_prefix("ICH408I")?;
    match rest.chars().next() {
        None => Some(("ICH408I", "")),
        Some(c) if c.is_whitespace() => {
            let rest = rest.trim_start();
            memchr::memchr(b'\n', rest.as_bytes())
                .is_none()
                .then_some(("ICH408I", rest))
        }
        Some(_) => None,
    }
}

/// JESMSGLG: optional carriage-control column, `hh.mm.ss JOBID  text`.
static JES_RE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^[ 01-]?\s?(\d{2})\.(\d{2})\.(\d{2}) ([A-Z]{1,3}\d{5,7}|[A-Z]\d{7})\s+(.*)$")
        .expect("jes regex")
});

/// A console or system-log excerpt: `hh:mm:ss[.th]`, blanks, text. Lines
/// that carry only the time continue the message before them.
static CLOCK_RE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^ ?(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?\s+(\S.*)$").expect("clock regex")
});

/// Any z/OS message id (`IEF403I`, `IXC582I`, `CSQX500I`, `$HASP373`): a
/// line of the console that starts a message of its own.
static ANY_MSG_RE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^[+*@]?(?:\$HASP\d{3,4}|[A-Z][A-Z0-9]{2,4}\d{3,5}[A-Z]?)\b")
        .expect("any msg regex")
});

/// `---- TUESDAY,   05 MAR 2024 ----`
static JES_DATE_RE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^-{4}\s+[A-Z]+,\s+(\d{1,2})\s+([A-Z]{3})\s+(\d{4})\s+-{4}").expect("date regex")
});

/// SYSLOG first record of a message: type, request type and routing codes,
/// system name, `yyddd`, `hh:mm:ss.th`, job id, message flags, text.
static SYSLOG_RE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^([NMWXO])[ A-Z][0-9A-F ]{7} (\S{1,8})\s+(\d{2}|\d{4})(\d{3}) (\d{2}):(\d{2}):(\d{2})\.(\d{2}) (\S{1,8})\s+([0-9A-F]{8})\s+(.*)$",
    )
    .expect("syslog regex")
});

/// A console line with a Julian date and no SYSLOG record type, as
/// operator-command tools and log viewers return it: optional system name,
/// `yyyyddd` or `yyddd`, `hh:mm:ss[.th]`, optional job id and message
/// flags, text.
static DATED_RE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^ ?(?:([A-Z0-9$#@]{1,8})\s+)?(\d{2}|\d{4})(\d{3})\s+(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?\s+(?:([A-Z]{1,3}\d{5,7}|[A-Z]\d{7})\s+)?(?:[0-9A-F]{8}\s+)?(\S.*)$",
    )
    .expect("dated regex")
});

/// The date of a Julian `yyddd` or `yyyyddd` (two-digit years are 20yy,
/// as z/OS writes them for this century).
fn julian(year: &str, day: &str) -> Option<NaiveDate> {
    let y: i32 = year.parse().ok()?;
    let y = if year.len() == 2 { 2000 + y } else { y };
    NaiveDate::from_yo_opt(y, day.parse().ok()?)
}

/// SYSLOG data, end and continuation records: optional connect id, flags,
/// text.
static SYSLOG_CONT_RE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^([DES])\s+(?:(\d{1,8})\s+)?([0-9A-F]{8})\s+(.*)$").expect("syslog cont regex")
});

/// `s` split at its first blank (`split_once(' ')` by hand: the words
/// split are a few bytes, and the general searcher cost more than they).
fn split_blank(s: &str) -> Option<(&str, &str)> {
    let i = s.bytes().position(|b| b == b' ')?;
    Some((&s[..i], &s[i + 1..]))
}

/// A csect name: `CSQXRESP`, `CSQXJST`.
fn is_csect(s: &str) -> bool {
    s.len() >= 5
        && s.len() <= 8
        && s.starts_with("CSQ")
        && s.bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
}

/// The message number a console screen shows at the end of a message
/// (`... Channel SYSTEM.DEF.SVRCONN started 924`): the text before it and
/// the number. Not after `port`, `code` or a `=`/`:`, where a number ends
/// the message itself (`Listener stopped for port 1414`).
fn console_number(line: &str) -> Option<(&str, &str)> {
    let (head, last) = line.trim_end().rsplit_once(' ')?;
    if last.is_empty() || last.len() > 5 || !last.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let head = head.trim_end();
    let before = head.rsplit(' ').next().unwrap_or("");
    let ends_value = before.ends_with(['=', ':', ','])
        || ["port", "code", "rc", "reason", "count", "pid", "asid"]
            .iter()
            .any(|w| before.eq_ignore_ascii_case(w));
    // At least id, subsystem and one word of text before it.
    (!ends_value && head.split(' ').filter(|w| !w.is_empty()).count() >= 3).then_some((head, last))
}

/// `J E S 2  J O B  L O G  --  S Y S T E M  S 0 W 1  --  N O D E  N 1` →
/// `S0W1`.
fn jes_system(line: &str) -> Option<String> {
    if !line.contains("J E S 2") {
        return None;
    }
    let rest = &line[line.find("S Y S T E M")? + "S Y S T E M".len()..];
    let name: String = rest
        .split("--")
        .next()?
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    (!name.is_empty()).then_some(name)
}

fn month(s: &str) -> Option<u32> {
    const M: [&str; 12] = [
        "JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC",
    ];
    M.iter().position(|m| *m == s).map(|i| i as u32 + 1)
}

/// What a line is, after its prefix.
#[derive(Debug, PartialEq)]
enum Line<'a> {
    /// JES2 day/date line.
    Date(NaiveDate),
    /// A timed record (JESMSGLG or SYSLOG first record) with its text.
    Timed {
        date: Option<NaiveDate>,
        time: NaiveTime,
        job: &'a str,
        system: Option<&'a str>,
        text: &'a str,
    },
    /// A console line with a Julian date (`DATED_RE`): a message, or the
    /// continuation of the one before.
    Dated {
        date: NaiveDate,
        time: NaiveTime,
        job: &'a str,
        system: Option<&'a str>,
        text: &'a str,
    },
    /// A console excerpt's line: time of day and text (a message, or the
    /// continuation of the one before).
    Clock {
        time: NaiveTime,
        text: &'a str,
    },
    /// A SYSLOG continuation record.
    SyslogCont {
        id: Option<&'a str>,
        text: &'a str,
    },
    /// A line starting with a blank: a continuation in job logs and pastes.
    Indented(&'a str),
    /// Anything else, with its text.
    Plain(&'a str),
    Blank,
}

/// `JES_RE` by hand for ASCII lines, the shape of nearly every job log
/// line: `Some(answer)` when sure (the regex's captures: hour, minute,
/// second, job, text), `None` to leave the line to the regex. Per line the
/// regex's captures cost more than the rest of reading it.
#[allow(clippy::type_complexity)]
fn jes_fast(line: &str) -> Option<Option<([u32; 3], &str, &str)>> {
    let b = line.as_bytes();
    if !line.is_ascii() || memchr::memchr(b'\n', b).is_some() {
        return None;
    }
    let ws = |c: u8| matches!(c, b' ' | b'\t' | b'\n' | b'\x0b' | b'\x0c' | b'\r');
    let digit2 = |i: usize| -> Option<u32> {
        let (x, y) = (*b.get(i)?, *b.get(i + 1)?);
        (x.is_ascii_digit() && y.is_ascii_digit())
            .then(|| u32::from(x - b'0') * 10 + u32::from(y - b'0'))
    };
    // `[ 01-]?\s?` in the regex's order of preference.
    let class = !b.is_empty() && matches!(b[0], b' ' | b'0' | b'1' | b'-');
    let firsts: &[usize] = if class { &[1, 0] } else { &[0] };
    let mut starts = [usize::MAX; 4];
    let mut n = 0;
    for &p in firsts {
        if b.get(p).is_some_and(|&x| ws(x)) {
            starts[n] = p + 1;
            n += 1;
        }
        starts[n] = p;
        n += 1;
    }
    for &p in &starts[..n] {
        let (Some(h), Some(m), Some(s)) = (digit2(p), digit2(p + 3), digit2(p + 6)) else {
            continue;
        };
        if b.get(p + 2) != Some(&b'.') || b.get(p + 5) != Some(&b'.') || b.get(p + 8) != Some(&b' ')
        {
            continue;
        }
        // The job: 1 to 3 capitals and 5 to 7 digits (`[A-Z]\d{7}` is a
        // case of it), then blanks.
        let j = p + 9;
        let letters = b[j..].iter().take_while(|c| c.is_ascii_uppercase()).count();
        let digits = b[j + letters..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count();
        let end = j + letters + digits;
        if !(1..=3).contains(&letters)
            || !(5..=7).contains(&digits)
            || !b.get(end).is_some_and(|&c| ws(c))
        {
            continue;
        }
        let text_at = end + b[end..].iter().take_while(|&&c| ws(c)).count();
        return Some(Some(([h, m, s], &line[j..end], &line[text_at..])));
    }
    Some(None)
}

fn classify(line: &str) -> Line<'_> {
    // A line of blanks only matches no pattern below (each wants a digit
    // or a letter): it is told apart where a line is trimmed anyway, not
    // by trimming every line first.
    fn indented(line: &str) -> Line<'_> {
        match trim(line) {
            "" => Line::Blank,
            t => Line::Indented(t),
        }
    }
    // Three blanks first: no pattern below can match (each wants a digit or
    // a letter within the first three bytes), and continuation lines are
    // a third of a job log.
    if line.len() >= 3
        && line.as_bytes()[..3]
            .iter()
            .all(|&c| c == b' ' || c == b'\t')
    {
        return indented(line);
    }
    let jes = match jes_fast(line) {
        Some(sure) => sure,
        None => JES_RE.captures(line).map(|c| {
            let n = |i: usize| c[i].parse().unwrap_or(99);
            let text = c.get(5).map(|m| m.as_str()).unwrap_or("");
            (
                [n(1), n(2), n(3)],
                c.get(4).map(|m| m.as_str()).unwrap_or(""),
                text,
            )
        }),
    };
    if let Some(([h, m, s], job, text)) = jes {
        let time = NaiveTime::from_hms_opt(h, m, s);
        let date = if trim(text).starts_with("----") {
            JES_DATE_RE.captures(trim(text))
        } else {
            None
        };
        if let Some(d) = date {
            let date = month(&d[2])
                .and_then(|m| NaiveDate::from_ymd_opt(d[3].parse().ok()?, m, d[1].parse().ok()?));
            if let Some(date) = date {
                return Line::Date(date);
            }
        }
        if let Some(time) = time {
            return Line::Timed {
                date: None,
                time,
                job,
                system: None,
                text,
            };
        }
    }
    // Each pattern below wants a byte the line must hold (a record type
    // first, or the `:` of a time): tested first, a job log's header
    // lines do not make the program compile patterns it never uses.
    let first = line.as_bytes().first().copied().unwrap_or(0);
    let clock = memchr::memchr(b':', line.as_bytes()).is_some();
    if matches!(first, b'N' | b'M' | b'W' | b'X' | b'O')
        && let Some(c) = SYSLOG_RE.captures(line)
    {
        let date = julian(&c[3], &c[4]);
        let time = NaiveTime::from_hms_milli_opt(
            c[5].parse().unwrap_or(99),
            c[6].parse().unwrap_or(99),
            c[7].parse().unwrap_or(99),
            c[8].parse::<u32>().unwrap_or(0) * 10,
        );
        if let (Some(date), Some(time)) = (date, time) {
            return Line::Timed {
                date: Some(date),
                time,
                job: c.get(9).map(|m| m.as_str()).unwrap_or(""),
                system: c.get(2).map(|m| m.as_str()),
                text: c.get(11).map(|m| m.as_str()).unwrap_or(""),
            };
        }
    }
    // Only lines that start with a name or a date can be dated lines.
    if clock
        && line.trim_start_matches(' ').starts_with(|c: char| {
            c.is_ascii_uppercase() || c.is_ascii_digit() || "$#@".contains(c)
        })
        && let Some(c) = DATED_RE.captures(line)
    {
        let frac = c.get(7).map_or(0, |m| {
            let d = m.as_str();
            d.parse::<u32>().unwrap_or(0) * 10u32.pow(6 - d.len() as u32)
        });
        let time = NaiveTime::from_hms_micro_opt(
            c[4].parse().unwrap_or(99),
            c[5].parse().unwrap_or(99),
            c[6].parse().unwrap_or(99),
            frac,
        );
        if let (Some(date), Some(time)) = (julian(&c[2], &c[3]), time) {
            return Line::Dated {
                date,
                time,
                job: c.get(8).map_or("", |m| m.as_str()),
                system: c.get(1).map(|m| m.as_str()),
                text: c.get(9).map_or("", |m| m.as_str()),
            };
        }
    }
    if clock && let Some(c) = CLOCK_RE.captures(line) {
        let frac = c.get(4).map_or(0, |m| {
            let d = m.as_str();
            d.parse::<u32>().unwrap_or(0) * 10u32.pow(6 - d.len() as u32)
        });
        if let Some(time) = NaiveTime::from_hms_micro_opt(
            c[1].parse().unwrap_or(99),
            c[2].parse().unwrap_or(99),
            c[3].parse().unwrap_or(99),
            frac,
        ) {
            return Line::Clock {
                time,
                text: c.get(5).map(|m| m.as_str()).unwrap_or(""),
            };
        }
    }
    if matches!(first, b'D' | b'E' | b'S')
        && let Some(c) = SYSLOG_CONT_RE.captures(line)
    {
        return Line::SyslogCont {
            id: c.get(2).map(|m| m.as_str()),
            text: c.get(4).map(|m| m.as_str()).unwrap_or(""),
        };
    }
    if line.starts_with([' ', '\t']) {
        return indented(line);
    }
    match trim(line) {
        "" => Line::Blank,
        t => Line::Plain(t),
    }
}

/// z/OS job logs and consoles. Its facts for the rest of the program.
pub static FORMAT: Format = Format::of(&mqdiag_model::event::FormatInfo {
    name: "zos-joblog",
    family: mqdiag_model::event::FormatFamily::JobLog,
    states_local_time: false,
    dataset: "ibmmq.joblog",
    host_is_writer: false,
});

/// The format's specifics: `LineReader<Joblog>` is its reader.
pub struct Joblog;

impl Standalone for Joblog {
    const FORMAT: Format = FORMAT;
    const FUZZ: super::Fuzz = super::Fuzz {
        target: "joblog",
        names: &["MQ1ACHIN.JESMSGLG.txt"],
    };
    const SNIFF_CEILING: u8 = 85;

    fn sniff(_name: &str, head: &[u8]) -> u8 {
        // Without a CSQ message id no line can count: the lines are not
        // classified (the cost of sniffing thousands of small traces).
        if head.is_empty() || memchr::memmem::find(head, b"CSQ").is_none() || !looks_like_text(head)
        {
            return 0;
        }
        let text = mqdiag_model::text::utf8_lossy(head);
        let mut csq = 0;
        let mut framed = false;
        for line in text.lines().take(400) {
            if jes_system(line).is_some() {
                framed = true;
            }
            let msg = match classify(line) {
                Line::Timed { text, .. } | Line::Clock { text, .. } | Line::Dated { text, .. } => {
                    framed = true;
                    text
                }
                Line::Plain(t) => t,
                _ => continue,
            };
            if csq_message(msg.trim()).is_some() {
                csq += 1;
            }
        }
        match (csq, framed) {
            (0, _) => 0,
            (_, true) => 85,
            (1, false) => 40,
            _ => 75,
        }
    }

    fn new(_: super::Prepared) -> Joblog {
        Joblog
    }
}

/// A message being collected.
#[derive(Debug, Default)]
struct Open {
    line: u64,
    local: Option<NaiveDateTime>,
    job: String,
    system: Option<String>,
    first: String,
    /// Continuation lines: the first `n_conts` (the strings are kept from
    /// message to message, as is the whole `Open`: a job log is mostly
    /// short messages, and their allocations were a tenth of reading it).
    conts: Vec<String>,
    n_conts: usize,
    /// Pasted from a console screen: the line may end with the console's
    /// message number.
    paste: bool,
}

impl Open {
    /// `spare` (an earlier message's buffers) made the message that
    /// starts with `first`.
    fn reuse(
        spare: Option<Open>,
        line: u64,
        local: Option<NaiveDateTime>,
        job: &str,
        system: Option<&str>,
        first: &str,
        paste: bool,
    ) -> Open {
        let mut o = spare.unwrap_or_default();
        o.line = line;
        o.local = local;
        o.job.clear();
        o.job.push_str(job);
        o.system = system.map(str::to_string);
        o.first.clear();
        o.first.push_str(first);
        o.n_conts = 0;
        o.paste = paste;
        o
    }

    fn conts(&self) -> &[String] {
        &self.conts[..self.n_conts]
    }

    /// Add a continuation line (past `MAX_CONTINUATIONS`, dropped).
    fn push_cont(&mut self, line: &str) {
        if self.n_conts >= MAX_CONTINUATIONS {
            return;
        }
        match self.conts.get_mut(self.n_conts) {
            Some(c) => {
                c.clear();
                c.push_str(line);
            }
            None => self.conts.push(line.to_string()),
        }
        self.n_conts += 1;
    }
}

/// What is kept while one file is read.
pub(crate) struct JobFile {
    mtime: Option<std::time::SystemTime>,
    date: Option<NaiveDate>,
    date_from: Option<&'static str>,
    last_time: Option<NaiveTime>,
    open: Option<Open>,
    /// The byte offset of `open`'s first line (kept here, not in `Open`:
    /// a larger `Open` is copied by `memcpy` on every message).
    open_at: u64,
    untimed: u64,
    first_untimed: Option<u64>,
    kinds: [bool; 5],
    /// The last message's buffers, for the next one.
    spare: Option<Open>,
}

impl LineFormat for Joblog {
    type File = JobFile;

    fn open_file(&mut self, input: &Input, _ctx: &mut FileCtx) -> JobFile {
        JobFile {
            mtime: input.mtime,
            date: None,
            date_from: None,
            last_time: None,
            open: None,
            open_at: 0,
            untimed: 0,
            first_untimed: None,
            kinds: [false; 5],
            spare: None,
        }
    }

    fn line(&mut self, run: &mut JobFile, ctx: &mut FileCtx, meta: LineMeta, bytes: &[u8]) {
        let no = meta.no;
        let (decoded, _) = decode_line(bytes);
        // Read in place: what a message keeps of its lines is copied into
        // its own buffers (`Open`).
        let text: &str = &decoded;
        if ctx.info.host.is_none()
            && let Some(sys) = jes_system(text)
        {
            ctx.info.host = Some(sys);
            return;
        }
        run.classified(ctx, no, text);
        if run.open.as_ref().is_some_and(|o| o.line == no) {
            run.open_at = meta.offset;
        }
    }

    fn finish_file(&mut self, mut run: JobFile, ctx: &mut FileCtx) {
        run.close(ctx);
        if run.untimed > 0 {
            let first = run.first_untimed.unwrap_or(0);
            ctx.info.problem( ProblemCode::MissingTime,
                Some(first),
                Severity::Warning,
                0,
                format!(
                    "{} message(s) have no time of day (pasted console text?): placed at midnight of {} in file order",
                    run.untimed,
                    run.date.map(|d| d.to_string()).unwrap_or_default()
                ),
            );
        }
        let kinds: Vec<&str> = [
            "jes2 job log",
            "syslog",
            "console",
            "console log",
            "dated console",
        ]
        .iter()
        .zip(run.kinds)
        .filter(|(_, k)| *k)
        .map(|(n, _)| *n)
        .collect();
        ctx.info.variant = Some(if kinds.is_empty() {
            "no messages".to_string()
        } else {
            kinds.join(", ")
        });
        if ctx.info.events == 0 && ctx.info.problem_count == 0 {
            ctx.info.problem(
                ProblemCode::NoRecords,
                None,
                Severity::Warning,
                0,
                "no CSQ console message found",
            );
        }
    }
}

impl JobFile {
    fn classified(&mut self, ctx: &mut FileCtx, no: u64, text: &str) {
        match classify(text) {
            Line::Blank => {}
            Line::Date(d) => {
                self.close(ctx);
                self.date = Some(d);
                self.date_from = Some("job log");
                self.last_time = None;
            }
            Line::Timed {
                date,
                time,
                job,
                system,
                text,
            } => {
                self.close(ctx);
                self.kinds[if date.is_some() { 1 } else { 0 }] = true;
                let msg = trim(text);
                if mq_message(msg).is_some() {
                    let local = match date {
                        Some(d) => Some(d.and_time(time)),
                        None => self.job_log_time(ctx, time),
                    };
                    let o = Open::reuse(self.spare.take(), no, local, job, system, msg, false);
                    self.open = Some(o);
                } else if date.is_none() {
                    // Keep the day roll-over check honest on other lines.
                    let _ = self.job_log_time(ctx, time);
                }
            }
            Line::Dated {
                date,
                time,
                job,
                system,
                text,
            } => {
                let msg = trim(text);
                let local = date.and_time(time);
                match self.open.as_mut() {
                    // No message id and the stamp of the message before: it
                    // goes on (every line of a multi-line message carries
                    // the stamp; a command echo has no id either).
                    Some(o) if o.local == Some(local) && !ANY_MSG_RE.is_match(msg) => {
                        o.push_cont(msg)
                    }
                    _ => {
                        self.close(ctx);
                        self.kinds[4] = true;
                        if mq_message(msg).is_some() {
                            let local = Some(local);
                            let o =
                                Open::reuse(self.spare.take(), no, local, job, system, msg, false);
                            self.open = Some(o);
                        }
                    }
                }
            }
            Line::Clock { time, text } => {
                let msg = trim(text);
                match self.open.as_mut() {
                    // Only the time: the message before goes on.
                    Some(o) if !ANY_MSG_RE.is_match(msg) => o.push_cont(msg),
                    _ => {
                        self.close(ctx);
                        let is_csq = mq_message(msg).is_some();
                        let local = self.job_log_time(ctx, time);
                        if is_csq {
                            let o = Open::reuse(self.spare.take(), no, local, "", None, msg, false);
                            self.kinds[3] = true;
                            self.open = Some(o);
                        }
                    }
                }
            }
            Line::SyslogCont { id: _, text } => {
                if let Some(o) = self.open.as_mut() {
                    o.push_cont(trim(text));
                }
            }
            Line::Indented(t) => match self.open.as_mut() {
                Some(o) if mq_message(t).is_none() => o.push_cont(t),
                _ => {
                    self.close(ctx);
                    self.plain(no, t);
                }
            },
            Line::Plain(t) => {
                self.close(ctx);
                self.plain(no, t);
            }
        }
    }

    /// An unprefixed line: a pasted console message, or other job-log text
    /// (JCL, allocation messages), which is not MQ's and is passed over.
    fn plain(&mut self, no: u64, t: &str) {
        if mq_message(t).is_none() {
            return;
        }
        self.kinds[2] = true;
        self.untimed += 1;
        self.first_untimed.get_or_insert(no);
        self.open = Some(Open::reuse(self.spare.take(), no, None, "", None, t, true));
    }

    /// A JESMSGLG time of day on the current date; a time of day more than
    /// an hour earlier than the last one without a date line between is the
    /// next day (JES2 writes a date line at midnight, but a log may be cut).
    fn job_log_time(&mut self, ctx: &mut FileCtx, time: NaiveTime) -> Option<NaiveDateTime> {
        let date = self.current_date(ctx, time);
        let mut date = date;
        if let Some(last) = self.last_time
            && (last - time).num_seconds() > 3600
        {
            date = date.succ_opt().unwrap_or(date);
            self.date = Some(date);
        }
        self.last_time = Some(time);
        Some(date.and_time(time))
    }

    fn current_date(&mut self, ctx: &mut FileCtx, time: NaiveTime) -> NaiveDate {
        if let Some(d) = self.date {
            return d;
        }
        let (d, how) = match ctx.opts.date {
            Some(d) => (d, "--date"),
            None => match self.mtime {
                Some(m) => {
                    let off = ctx.fallback_offset();
                    let local = DateTime::<chrono::Utc>::from(m).with_timezone(&off);
                    let mut d = local.date_naive();
                    if time > local.time() {
                        d = d.pred_opt().unwrap_or(d);
                    }
                    self.date_from = Some("file modification time");
                    (d, "file modification time")
                }
                None => (
                    NaiveDate::from_ymd_opt(1970, 1, 1).expect("date"),
                    "nothing (no --date)",
                ),
            },
        };
        ctx.info.problem(
            ProblemCode::NoDate,
            None,
            Severity::Info,
            0,
            format!("no date line before the first message: date {d} taken from {how}"),
        );
        self.date = Some(d);
        d
    }

    /// Emit the message being collected.
    fn close(&mut self, ctx: &mut FileCtx) {
        let Some(o) = self.open.take() else {
            return;
        };
        let local = match o.local {
            Some(l) => l,
            None => {
                let d = self.current_date(ctx, NaiveTime::MIN);
                d.and_time(NaiveTime::MIN)
            }
        };
        let off = ctx.fallback_offset();
        let ts: Ts = match off.from_local_datetime(&local) {
            chrono::LocalResult::Single(t) => t,
            _ => off.from_utc_datetime(&local),
        };
        // The WTO connect id closes the first line of a multi-line message
        // and may open its continuation lines.
        let mut first: &str = &o.first;
        let mut connect = None;
        if !o.conts().is_empty()
            && let Some(at) = first.bytes().rposition(|b| b == b' ')
            && let (head, last) = (&first[..at], &first[at + 1..])
            && !last.is_empty()
            && last.bytes().all(|b| b.is_ascii_digit())
        {
            connect = Some(last);
            first = head.trim_end();
        }
        let mut console_no = None;
        if o.paste
            && o.conts().is_empty()
            && let Some((head, no)) = console_number(first)
        {
            console_no = Some(no);
            first = head;
        }
        let first = first.trim_start_matches(['+', '*', '@']);
        let mut joined = mqdiag_model::event::spare_text(
            first.len() + o.conts().iter().map(|c| c.len() + 1).sum::<usize>(),
        );
        joined.push_str(first);
        for c in o.conts() {
            let c = match connect.and_then(|id| Some((id, split_blank(c)?))) {
                Some((id, (lead, rest))) if lead == id => rest.trim(),
                _ => c.as_str(),
            };
            joined.push(' ');
            joined.push_str(c);
        }
        // Built before the text moves into the event: the values are
        // slices of it.
        let mut attrs = Attrs::spare(16, 160);
        // The first line was taken for a message by this same test.
        let (id, rest) = mq_message(&joined).unwrap_or(("", ""));
        // The first two words and what follows each (`rest.splitn(3, ' ')`).
        let (cpf, after_cpf) = split_blank(rest).unwrap_or((rest, ""));
        let (second, after_second) = split_blank(after_cpf).unwrap_or((after_cpf, ""));
        let (cpf, csect, body) = if id.starts_with("ICH") {
            // RACF writes no subsystem or module: the text follows.
            ("", None, rest)
        } else if is_csect(cpf) {
            // No subsystem: `CSQX000I CSQXJST IBM MQ for z/OS V9.1.3`.
            ("", Some(cpf), after_cpf)
        } else if is_csect(second) {
            (cpf, Some(second), after_second)
        } else {
            (cpf, None, after_cpf)
        };
        let norm = catalog::normalise_cow(body);
        let x = catalog::extract(id, &norm, &[]);
        let row = x.row;
        attrs.push_key(Key::Msgid, &x.msgid);
        if let Some(s) = x.severity {
            // z/OS action (A) and decision (D) messages need an operator:
            // errors on the I/W/E/S/T scale.
            let s = match s {
                'A' | 'D' => 'E',
                other => other,
            };
            attrs.push_key(Key::Severity, s.encode_utf8(&mut [0; 4]));
        }
        if let Some(f) = x.family {
            attrs.push_key(Key::Family, f);
        }
        for (k, v) in &x.attrs {
            attrs.push((*k).into(), v);
        }
        if !cpf.is_empty() {
            attrs.push_key(Key::Cpf, cpf);
            // A token of letters and digits is the subsystem name, which on
            // z/OS is the queue manager's name; the command prefix before
            // it (`%CSQ9`, `-M9AD`) is not part of the name.
            let name = cpf.trim_start_matches(|c: char| !c.is_ascii_alphanumeric());
            if attrs.key(Key::Qmgr).is_none()
                && (1..=4).contains(&name.len())
                && name.bytes().all(|b| b.is_ascii_alphanumeric())
            {
                attrs.push_key(Key::Qmgr, name);
            }
        }
        if let Some(cs) = csect {
            attrs.push_key(Key::Csect, cs);
        }
        if let Some(n) = console_no {
            attrs.push_key(Key::ConsoleNo, n);
        }
        if !o.job.is_empty() {
            attrs.push_key(Key::Job, &o.job);
        }
        if let Some(s) = &o.system {
            attrs.push_key(Key::LocalHost, s);
            if ctx.info.host.is_none() {
                ctx.info.host = Some(s.clone());
            }
        }
        if ctx.info.qmgr.is_none()
            && let Some(q) = attrs.key(Key::Qmgr)
        {
            ctx.info.qmgr = Some(q.to_string());
        }
        drop(x);
        drop(norm);
        let mut e = Event::new(ts, ctx.origin.clone(), o.line, Kind::LogRecord, joined);
        e.offset = self.open_at;
        e.attrs = attrs;
        e.catalog = row;
        ctx.emit(e);
        self.spare = Some(o);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::line_source::LineReader;
    use crate::source::ReadOptions;
    use crate::testkit;
    use mqdiag_model::fileinfo::FileInfo;

    #[test]
    fn jes_hand_parser_agrees_with_the_regex() {
        let seeds = [
            " 10.15.30 STC04321  CSQX511I %MQ1A CSQXRESP Channel APP1.SVRCONN started",
            "1 09.00.01 STC04321 ---- TUESDAY,   05 MAR 2024 ----",
            "-09.00.01 J0012345\ttext",
            "09.00.01 JOB12345 x",
            "  10.15.31 A1234567  y ",
            "0 10.15.31 ABCD12345 z",
        ];
        let tokens = [
            " ", "\t", "1", "0", "-", ".", "A", "12345", "1234567", "ü", "\r", "",
        ];
        let mut rng = mqdiag_model::testrng::Rng::new(0x5eed_1234_abcd_0001u64);
        let mut next = move |n: usize| rng.below(n);
        let mut sure = 0;
        for _ in 0..20000 {
            let mut t = seeds[next(seeds.len())].to_string();
            for _ in 0..next(4) {
                let mut at = next(t.len().min(20) + 1);
                while !t.is_char_boundary(at) {
                    at -= 1;
                }
                let tok = tokens[next(tokens.len())];
                if next(2) == 0 {
                    t.insert_str(at, tok);
                } else {
                    let mut end = (at + 1 + next(3)).min(t.len());
                    while !t.is_char_boundary(end) {
                        end -= 1;
                    }
                    t.replace_range(at..end, tok);
                }
            }
            let want = JES_RE.captures(&t).map(|c| {
                let n = |i: usize| c[i].parse::<u32>().unwrap();
                (
                    [n(1), n(2), n(3)],
                    c.get(4).unwrap().as_str().to_string(),
                    c.get(5).unwrap().as_str().to_string(),
                )
            });
            if let Some(got) = jes_fast(&t) {
                sure += 1;
                let got = got.map(|(hms, j, x)| (hms, j.to_string(), x.to_string()));
                assert_eq!(got, want, "{t:?}");
            }
        }
        assert!(sure > 15000, "{sure}");
    }

    fn read(text: &str, opts: ReadOptions) -> (Vec<Event>, Vec<FileInfo>) {
        testkit::read(&LineReader::<Joblog>::new(), "CHIN.txt", text, &opts)
    }

    fn tz() -> ReadOptions {
        ReadOptions {
            tz: mqdiag_model::timefmt::parse_offset("+01:00"),
            date: NaiveDate::from_ymd_opt(2019, 11, 13),
            ..ReadOptions::default()
        }
    }

    #[test]
    fn pasted_console_messages_with_continuations() {
        let text = "\
+CSQX511I M9AD CSQXRESP Channel SYSTEM.DEF.SVRCONN started 924
 connection 9.68.254.236
+CSQX209E M9AD CSQXRESP Connection unexpectedly terminated, 926
 channel SYSTEM.DEF.SVRCONN
 connection 9.68.254.236 (9.68.254.236)
 (queue manager M9AD)
 TRPTYPE=TCP RC=00000000
+CSQX512I M9AD CSQXRESP Channel SYSTEM.DEF.SVRCONN no longer active
";
        let (evs, infos) = read(text, tz());
        assert_eq!(evs.len(), 3);
        let e = &evs[1];
        assert_eq!(e.line, 3);
        assert_eq!(
            e.text,
            "CSQX209E M9AD CSQXRESP Connection unexpectedly terminated, channel SYSTEM.DEF.SVRCONN connection 9.68.254.236 (9.68.254.236) (queue manager M9AD) TRPTYPE=TCP RC=00000000"
        );
        assert_eq!(e.get(Key::Msgid), Some("CSQX209E"));
        assert_eq!(e.get(Key::Channel), Some("SYSTEM.DEF.SVRCONN"));
        assert_eq!(e.get(Key::Address), Some("9.68.254.236"));
        assert_eq!(e.get(Key::Trptype), Some("TCP"));
        assert_eq!(e.get(Key::Reason), Some("0"));
        assert_eq!(e.get(Key::Qmgr), Some("M9AD"));
        assert_eq!(e.get(Key::Csect), Some("CSQXRESP"));
        // Looked up once, here: the passes read the row.
        assert_eq!(e.catalog, catalog::row_of("CSQX209E"));
        assert_eq!(catalog::entry_of(e).map(|x| x.id), Some("CSQX209"));
        assert_eq!(evs[0].get(Key::Address), Some("9.68.254.236"));
        assert_eq!(
            evs[0].text,
            "CSQX511I M9AD CSQXRESP Channel SYSTEM.DEF.SVRCONN started connection 9.68.254.236"
        );
        assert_eq!(evs[2].get(Key::Channel), Some("SYSTEM.DEF.SVRCONN"));
        assert_eq!(
            mqdiag_model::timefmt::rfc3339(&e.ts),
            "2019-11-13T00:00:00.000000+01:00"
        );
        let msgs: Vec<&str> = infos[0]
            .problems
            .iter()
            .map(|p| p.message.as_str())
            .collect();
        assert_eq!(
            msgs,
            vec![
                "no date line before the first message: date 2019-11-13 taken from --date",
                "3 message(s) have no time of day (pasted console text?): placed at midnight of 2019-11-13 in file order"
            ]
        );
    }

    #[test]
    fn syslog_records() {
        let text = "\
NC0000000 SYS1     24065 10:15:30.12 STC04321 00000290  CSQX511I %MQ1A CSQXRESP Channel APP.SVRCONN started
M 0000000 SYS1     24065 10:15:31.57 STC04321 00000090  CSQX209E %MQ1A CSQXRESP Connection unexpectedly terminated,
D                                         412 00000090  channel APP.SVRCONN
D                                         412 00000090  connection 10.1.2.3 (10.1.2.3)
E                                         412 00000090  TRPTYPE=TCP RC=00000468
";
        let (evs, _) = read(text, tz());
        assert_eq!(evs.len(), 2);
        assert_eq!(
            mqdiag_model::timefmt::rfc3339(&evs[1].ts),
            "2024-03-05T10:15:31.570000+01:00"
        );
        assert_eq!(evs[1].get(Key::Reason), Some("1128"));
        assert_eq!(evs[1].get(Key::LocalHost), Some("SYS1"));
        assert_eq!(evs[1].get(Key::Cpf), Some("%MQ1A"));
        // The subsystem name after the command prefix character.
        assert_eq!(evs[1].get(Key::Qmgr), Some("MQ1A"));
        assert_eq!(evs[1].get(Key::Job), Some("STC04321"));
    }

    #[test]
    fn jes_dates_and_midnight() {
        let text = "\
 23.59.58 STC04321 ---- MONDAY,    04 MAR 2024 ----
 23.59.58 STC04321  CSQX512I %MQ1A CSQXRESP Channel A.B no longer active
 00.00.00 STC04321 ---- TUESDAY,   05 MAR 2024 ----
 00.00.01 STC04321  CSQX500I %MQ1A CSQXRCTL Channel A.B started
";
        let (evs, infos) = read(text, tz());
        assert_eq!(evs.len(), 2);
        assert_eq!(
            mqdiag_model::timefmt::rfc3339(&evs[0].ts),
            "2024-03-04T23:59:58.000000+01:00"
        );
        assert_eq!(
            mqdiag_model::timefmt::rfc3339(&evs[1].ts),
            "2024-03-05T00:00:01.000000+01:00"
        );
        assert_eq!(infos[0].problem_count, 0);
    }

    #[test]
    fn julian_dates_with_and_without_the_system_name() {
        let lines = [
            "SYSA      2020238  23:37:37.00  STC04321  00000290  CSQX511I %MQ1A CSQXRESP Channel A.B started",
            "2020238 23:37:37.00 CSQX511I %MQ1A CSQXRESP Channel A.B started",
            "SYSA     20238 23:37:37.00 CSQX511I %MQ1A CSQXRESP Channel A.B started",
            "20238 23:37:37.00 CSQX511I %MQ1A CSQXRESP Channel A.B started",
            "NC0000000 SYS1     2020238 23:37:37.00 STC04321 00000290  CSQX511I %MQ1A CSQXRESP Channel A.B started",
        ];
        for l in lines {
            let (evs, infos) = read(&format!("{l}\n"), tz());
            assert_eq!(evs.len(), 1, "{l}");
            assert_eq!(
                mqdiag_model::timefmt::rfc3339(&evs[0].ts),
                "2020-08-25T23:37:37.000000+01:00",
                "{l}"
            );
            assert_eq!(evs[0].get(Key::Channel), Some("A.B"), "{l}");
            // The date is the line's own: no date taken from elsewhere.
            assert_eq!(infos[0].problem_count, 0, "{l}");
        }
        // Not a day of the year: not a dated line.
        assert!(!matches!(
            classify("2020367 23:37:37.00 CSQX511I %MQ1A CSQXRESP Channel A.B started"),
            Line::Dated { .. }
        ));
        assert!(Joblog::sniff("x", lines[1].as_bytes()) >= 85);
    }
}
