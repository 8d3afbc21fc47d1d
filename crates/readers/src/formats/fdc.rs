//! FDC files (`AMQnnnnn.n.FDC`): First Failure Symptom Reports. Each report
//! opens with a box of `| Key :- value |` lines (values wrap onto `|   ...|`
//! continuation lines) followed by function stacks, trace history and
//! dumps, which are not read. A process appends every report it writes to
//! the same file, so one file holds one or more reports; each becomes one
//! `fdc` event. See `shared/formats/error-log.md` §4.

use super::line_source::{FileCtx, LineFormat, Standalone};
use crate::input::Input;
use crate::lines::LineMeta;
use chrono::{DateTime, FixedOffset, NaiveDateTime, TimeZone};
use mqdiag_model::event::{Event, Format, Kind, Ts};
use mqdiag_model::problem::{ProblemCode, Severity};
use mqdiag_model::text::{decode_line, looks_like_text};

const TITLE: &str = "First Failure Symptom Report";
/// Header fields kept per report (a runaway box is cut there).
const MAX_FIELDS: usize = 200;

/// FDC reports (and `ffstsummary` listings of them). Its facts for the rest of the program.
pub static FORMAT: Format = Format::of(&mqdiag_model::event::FormatInfo {
    name: "fdc",
    family: mqdiag_model::event::FormatFamily::Fdc,
    states_local_time: false,
    dataset: "ibmmq.fdc",
    host_is_writer: true,
});

/// The format's specifics: `LineReader<Fdc>` is its reader.
pub struct Fdc;

impl Standalone for Fdc {
    const FORMAT: Format = FORMAT;
    const FUZZ: super::Fuzz = super::Fuzz {
        target: "fdc",
        names: &["AMQ1234.0.FDC"],
    };

    fn sniff(_name: &str, head: &[u8]) -> u8 {
        if head.is_empty() || !looks_like_text(head) {
            return 0;
        }
        let text = mqdiag_model::text::utf8_lossy(head);
        let boxed = text
            .lines()
            .take(80)
            .any(|l| l.starts_with('|') && has_title(l));
        if boxed {
            return 98;
        }
        // A fragment of a box (pasted from its middle): several of the
        // header's own fields.
        let fields = text.lines().take(80).filter(|l| fragment_start(l)).count();
        if fields >= 3 { 90 } else { 0 }
    }

    fn new(_: super::Prepared) -> Fdc {
        Fdc
    }
}

/// One report's header box.
#[derive(Debug, Default)]
struct Report {
    line: u64,
    /// The byte offset of `line`.
    offset: u64,
    /// Each field's key and value, one after another in `text`: the key
    /// is `text[f[0]..f[1]]`, the value `text[f[1]..f[2]]` (two strings a
    /// field were 40 allocations a report).
    fields: Vec<[usize; 3]>,
    text: String,
    /// The box was not closed: the file or the box was cut.
    cut: bool,
}

impl Report {
    fn get(&self, key: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|f| self.text[f[0]..f[1]].eq_ignore_ascii_case(key))
            .map(|f| &self.text[f[1]..f[2]])
            .filter(|v| !v.is_empty())
    }

    fn push(&mut self, key: &str, value: &str) {
        let a = self.text.len();
        self.text.push_str(key);
        let b = self.text.len();
        self.text.push_str(value);
        self.fields.push([a, b, self.text.len()]);
    }

    /// More of the last field's value (a continuation line), after a blank.
    fn extend_last(&mut self, more: &str) {
        // The last value ends `text`.
        if let Some(f) = self.fields.last_mut() {
            self.text.push(' ');
            self.text.push_str(more);
            f[2] = self.text.len();
        }
    }
}

/// `| Key :- value |` → (key, value); `|   more |` → (``, more).
fn box_line(line: &str) -> Option<(&str, &str)> {
    let inner = line.strip_prefix('|')?;
    let inner = trim_end(inner);
    let inner = inner.strip_suffix('|').unwrap_or(inner);
    match key_mark(inner) {
        Some(i) => Some((trim(&inner[..i]), trim(&inner[i + 2..]))),
        None => Some(("", trim(inner))),
    }
}

/// Where `:-` first is in `s`: `str::find(":-")` without building a
/// substring searcher for each of a box's lines (half of `box_line`'s cost).
fn key_mark(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    let mut from = 0;
    while let Some(i) = memchr::memchr(b':', &b[from..]) {
        let at = from + i;
        if b.get(at + 1) == Some(&b'-') {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

/// Whether `line` holds the box title (`TITLE`): one searcher for every
/// line, not one built per line as `str::contains` does.
fn has_title(line: &str) -> bool {
    static FINDER: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new(TITLE));
    FINDER.find(line.as_bytes()).is_some()
}

/// `str::trim`, a byte at a time over the ASCII blanks a box is padded
/// with (a box line is mostly blanks): what is left is trimmed as `trim`
/// would only when it starts or ends with another kind of white space.
fn trim(s: &str) -> &str {
    let t = s.trim_ascii();
    if ends_plain(t) { t } else { t.trim() }
}

/// `str::trim_end`, as `trim`.
fn trim_end(s: &str) -> &str {
    let t = s.trim_ascii_end();
    if t.as_bytes().last().is_none_or(|&b| plain(b)) {
        t
    } else {
        t.trim_end()
    }
}

/// Whether both ends of `t` are bytes `str::trim` keeps.
fn ends_plain(t: &str) -> bool {
    let b = t.as_bytes();
    b.first().is_none_or(|&c| plain(c)) && b.last().is_none_or(|&c| plain(c))
}

/// An ASCII byte that is not white space for `char::is_whitespace`
/// (`trim_ascii` leaves the vertical tab, which `trim` takes).
fn plain(b: u8) -> bool {
    b.is_ascii() && !b.is_ascii_whitespace() && b != 0x0b
}

/// Keys only an FDC header box has: a box line with one of them, or the
/// box title cut at its start (`BM MQ First Failure Symptom Report |`),
/// starts a fragment of a report.
const FRAGMENT_KEYS: [&str; 14] = [
    "Date/Time",
    "UTC Time",
    "UTC Time Offset",
    "UTC Time/Zone",
    "Host Name",
    "Probe Id",
    "Component",
    "Major Errorcode",
    "Minor Errorcode",
    "Probe Type",
    "Probe Severity",
    "Probe Description",
    "FDCSequenceNumber",
    "Program Name",
];

/// Whether `line` can open a report whose box start was cut off.
fn fragment_start(line: &str) -> bool {
    if line.contains("Symptom Report") && line.trim_end().ends_with('|') {
        return true;
    }
    matches!(box_line(line), Some((k, _)) if FRAGMENT_KEYS.iter().any(|f| f.eq_ignore_ascii_case(k)))
}

/// Leading decimal digits: `4    RemoteResponder` → 4, `00003084` → 3084.
fn leading_u32(s: &str) -> Option<u32> {
    let t = s.trim();
    let n = t.bytes().take_while(u8::is_ascii_digit).count();
    // The digits are ASCII: `n` is on a character boundary.
    t[..n].parse().ok()
}

/// `UTC Time :- 1697806812.104000` (seconds since 1970), also the older
/// `UTC Time/Zone :- 1201539869.892015 0 GMT`.
fn utc_time(r: &Report) -> Option<DateTime<chrono::Utc>> {
    let v = r.get("UTC Time").or_else(|| r.get("UTC Time/Zone"))?;
    let tok = v.split_whitespace().next()?;
    let (secs, frac) = tok.split_once('.').unwrap_or((tok, "0"));
    let secs: i64 = secs.parse().ok()?;
    let digits: String = frac.chars().take(9).collect();
    let nanos: u32 = format!("{digits:0<9}").parse().ok()?;
    DateTime::from_timestamp(secs, nanos)
}

/// `UTC Time Offset :- -240 (EDT)`: minutes east of UTC. The older
/// `UTC Time/Zone` line carries a small number after the time that reads
/// as hours (`-4`); either way the result is rounded to whole minutes.
fn utc_offset(r: &Report) -> Option<FixedOffset> {
    if let Some(v) = r.get("UTC Time Offset") {
        let m: i32 = v.split_whitespace().next()?.parse().ok()?;
        return FixedOffset::east_opt(m * 60);
    }
    let v = r.get("UTC Time/Zone")?;
    let n: i32 = v.split_whitespace().nth(1)?.parse().ok()?;
    let minutes = if n.abs() <= 14 { n * 60 } else { n };
    FixedOffset::east_opt(minutes * 60)
}

/// `Fri October 20 2023 09:00:12 EDT` (English only; other languages are
/// left to `UTC Time`).
fn local_time(r: &Report) -> Option<NaiveDateTime> {
    let v = r.get("Date/Time")?;
    let toks: Vec<&str> = v.split_whitespace().collect();
    if toks.len() < 5 {
        return None;
    }
    NaiveDateTime::parse_from_str(&toks[1..5].join(" "), "%B %d %Y %H:%M:%S").ok()
}

/// What is kept while one file is read.
#[derive(Default)]
pub(crate) struct FdcFile {
    report: Option<Report>,
    last_border: Option<u64>,
    /// The byte offset of `last_border`.
    last_border_at: u64,
    reports: u64,
}

impl LineFormat for Fdc {
    type File = FdcFile;

    fn open_file(&mut self, _input: &Input, _ctx: &mut FileCtx) -> FdcFile {
        FdcFile::default()
    }

    fn line(&mut self, run: &mut FdcFile, ctx: &mut FileCtx, meta: LineMeta, bytes: &[u8]) {
        let no = meta.no;
        // Only box lines matter; the dumps after a box are skipped cheaply.
        // Before any report, a line may start a fragment (title cut).
        let first = bytes.first().copied();
        let seeking = run.report.is_none() && run.reports == 0 && run.last_border.is_none();
        if run.report.is_none() && first != Some(b'|') && first != Some(b'+') && !seeking {
            return;
        }
        let (text, _) = decode_line(bytes);
        if seeking
            && !text.starts_with("+-")
            && !(text.starts_with('|') && has_title(&text))
            && fragment_start(&text)
        {
            ctx.info.problem(
                ProblemCode::CutRecord,
                Some(no),
                Severity::Info,
                0,
                "the file starts inside a report's header box (a fragment): read as far as it goes",
            );
            run.report = Some(Report {
                line: no,
                offset: meta.offset,
                fields: Vec::new(),
                text: String::new(),
                cut: true,
            });
            if !text.starts_with('|') {
                // The cut title.
                return;
            }
        }
        if text.starts_with("+-") {
            run.last_border = Some(no);
            run.last_border_at = meta.offset;
            if run.report.is_some() {
                run.emit_report(ctx);
            }
            return;
        }
        if text.starts_with('|') && has_title(&text) {
            if let Some(r) = run.report.as_mut() {
                let l = r.line;
                ctx.info.problem( ProblemCode::CutRecord,
                    Some(l),
                    Severity::Warning,
                    0,
                    format!("header box of the report at line {l} is not closed before the next report at line {no}"),
                );
                r.cut = true;
                run.emit_report(ctx);
            }
            let (line, offset) = match run.last_border.filter(|b| *b + 2 >= no) {
                Some(b) => (b, run.last_border_at),
                None => (no, meta.offset),
            };
            run.report = Some(Report {
                line,
                offset,
                fields: Vec::new(),
                text: String::new(),
                cut: false,
            });
            return;
        }
        let Some(report) = run.report.as_mut() else {
            return;
        };
        match box_line(&text) {
            Some(("", more)) => {
                let is_rule = more.chars().all(|c| c == '=');
                if !more.is_empty() && !is_rule {
                    report.extend_last(more);
                }
            }
            Some((k, v)) => {
                if report.fields.len() < MAX_FIELDS {
                    report.push(k, v);
                }
            }
            None => {
                let l = report.line;
                ctx.info.problem(
                    ProblemCode::CutRecord,
                    Some(no),
                    Severity::Warning,
                    0,
                    format!("header box of the report at line {l} ends without its closing border"),
                );
                report.cut = true;
                run.emit_report(ctx);
            }
        }
    }

    fn finish_file(&mut self, mut run: FdcFile, ctx: &mut FileCtx) {
        if let Some(r) = run.report.as_mut() {
            r.cut = true;
            let l = r.line;
            ctx.info.problem( ProblemCode::CutFile,
                Some(l),
                Severity::Info,
                0,
                format!("file ends inside the header box of the report at line {l}: read as far as it goes"),
            );
            run.emit_report(ctx);
        }
        ctx.info.variant = Some(if run.reports == 1 {
            "1 report".to_string()
        } else {
            format!("{} reports", run.reports)
        });
        if run.reports == 0 {
            ctx.info.problem(
                ProblemCode::NoRecords,
                None,
                Severity::Warning,
                0,
                "no First Failure Symptom Report header found",
            );
        }
    }
}

impl FdcFile {
    fn emit_report(&mut self, ctx: &mut FileCtx) {
        let Some(r) = self.report.take() else {
            return;
        };
        self.reports += 1;
        let utc = utc_time(&r);
        let stated = utc_offset(&r);
        // The local time decides only the offset or, without a UTC time,
        // the time: not parsed when the report states both.
        let local = if utc.is_none() || stated.is_none() {
            local_time(&r)
        } else {
            None
        };
        let offset = stated.or_else(|| {
            let (u, l) = (utc?, local?);
            let secs = (l - u.naive_utc()).num_seconds();
            // Times years apart (a damaged report) make no offset: the
            // product is taken in i64 and must fit the offset's range.
            let q = ((secs as f64) / 900.0).round() as i64 * 900;
            i32::try_from(q).ok().and_then(FixedOffset::east_opt)
        });
        let ts: Ts = match (utc, local, offset) {
            (Some(u), _, Some(o)) => u.with_timezone(&o),
            (Some(u), _, None) => u.with_timezone(&FixedOffset::east_opt(0).expect("zero")),
            (None, Some(l), Some(o)) => match o.from_local_datetime(&l) {
                chrono::LocalResult::Single(t) => t,
                _ => o.from_utc_datetime(&l),
            },
            (None, Some(l), None) => {
                let o = ctx.fallback_offset();
                match o.from_local_datetime(&l) {
                    chrono::LocalResult::Single(t) => t,
                    _ => o.from_utc_datetime(&l),
                }
            }
            (None, None, _) => {
                ctx.info.problem( ProblemCode::BadTime,
                    Some(r.line),
                    Severity::Warning,
                    0,
                    format!(
                        "report at line {} has no readable time (Date/Time `{}`, no UTC Time): skipped",
                        r.line,
                        r.get("Date/Time").unwrap_or("")
                    ),
                );
                return;
            }
        };
        if ctx.info.utc_offset.is_none() {
            ctx.info.set_offset(*ts.offset(), "data");
        }
        let probe = r.get("Probe Id").unwrap_or("");
        let component = r.get("Component").unwrap_or("");
        let comments: Vec<&str> = ["Comment1", "Comment2", "Comment3"]
            .iter()
            .filter_map(|k| r.get(k))
            .collect();
        let detail = if comments.is_empty() {
            r.get("Probe Description")
                .or(r.get("Major Errorcode"))
                .unwrap_or("")
                .to_string()
        } else {
            comments.join(" | ")
        };
        let mut text = format!("{probe} {component}: {detail}").trim().to_string();
        if text == ":" {
            // A fragment cut before its probe: say what it is.
            text = "FDC report (fragment without its probe id)".to_string();
        }
        let mut e = Event::new(ts, ctx.origin.clone(), r.line, Kind::Fdc, text);
        e.offset = r.offset;
        if r.cut {
            e.set_attr("incomplete", "true");
        }
        e.pid = r.get("Process").and_then(leading_u32);
        e.tid = r.get("Thread").and_then(leading_u32);
        for (key, attr) in [
            ("Probe Id", "probe"),
            ("Component", "component"),
            ("Major Errorcode", "major_rc"),
            ("Minor Errorcode", "minor_rc"),
            ("Program Name", "program"),
            ("Host Name", "host"),
            ("QueueManager", "qmgr"),
            ("Probe Type", "probe_type"),
            ("Probe Severity", "probe_severity"),
            ("Probe Description", "description"),
            ("LVLS", "vrmf"),
            ("Arith1", "arith1"),
            ("Arith2", "arith2"),
            ("Comment1", "comment1"),
            ("Comment2", "comment2"),
            ("Comment3", "comment3"),
            ("Date/Time", "local_time"),
            ("FDCSequenceNumber", "sequence"),
        ] {
            if let Some(v) = r.get(key) {
                e.set_attr(attr, v);
            }
        }
        // `/build/.../amqccita.c,` and `Line Number :- 6138`.
        if let Some(s) = r.get("SCCS Info") {
            let file = s
                .trim_end_matches(',')
                .rsplit(['/', '\\'])
                .next()
                .unwrap_or(s)
                .split([',', ' '])
                .next()
                .unwrap_or("");
            let src = match r.get("Line Number") {
                Some(n) => format!("{file}:{n}"),
                None => file.to_string(),
            };
            e.set_attr("source", src);
        }
        let info = &mut *ctx.info;
        if info.host.is_none() {
            info.host = r.get("Host Name").map(|h| {
                // Windows writes `NAME (Windows 10 ...)`: the name only.
                h.split(" (").next().unwrap_or(h).to_string()
            });
        }
        if info.mq_version.is_none() {
            info.mq_version = r.get("LVLS").map(str::to_string);
        }
        if info.platform.is_none() {
            info.platform = r.get("Operating System").map(str::to_string);
        }
        if info.pid.is_none() {
            info.pid = e.pid;
        }
        if info.process.is_none() {
            info.process = r.get("Program Name").map(str::to_string);
        }
        if info.qmgr.is_none() {
            info.qmgr = r.get("QueueManager").map(str::to_string);
        }
        ctx.emit(e);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::line_source::LineReader;
    use crate::testkit;
    use mqdiag_model::fileinfo::FileInfo;

    /// The box's own trims are `str`'s on every kind of white space at
    /// either end (no-break and ideographic spaces, the vertical tab and
    /// form feed, `NEL`), padded with ASCII blanks or not.
    #[test]
    fn box_trims_are_strs() {
        let odd = [
            "", " ", "\t", "\x0b", "\x0c", "\r", "\u{85}", "\u{a0}", "\u{3000}", "\u{2028}", "é",
            "x",
        ];
        for a in odd {
            for b in odd {
                for pad in ["", "  ", " \t "] {
                    let s = format!("{pad}{a}mid dle{b}{pad}");
                    assert_eq!(trim(&s), s.trim(), "{s:?}");
                    assert_eq!(trim_end(&s), s.trim_end(), "{s:?}");
                    let t = format!("{a}{pad}{b}");
                    assert_eq!(trim(&t), t.trim(), "{t:?}");
                    assert_eq!(trim_end(&t), t.trim_end(), "{t:?}");
                }
            }
        }
    }

    /// The box's own searches find what `str`'s do.
    #[test]
    fn key_marks_titles_and_numbers_are_strs() {
        for s in [
            "",
            ":",
            "-",
            ":-",
            "a:-b",
            "a: -b",
            "a::-b",
            "a:b:-c:-d",
            "é:-",
            "x:",
            "::",
            ":é-",
            "Probe Id          :- XY042788",
        ] {
            assert_eq!(key_mark(s), s.find(":-"), "{s:?}");
        }
        for s in [
            "| IBM MQ First Failure Symptom Report |",
            "| WebSphere MQ First Failure Symptom Report",
            "| First Failure Symptom Repor |",
            "First Failure Symptom Report",
            "",
        ] {
            assert_eq!(has_title(s), s.contains(TITLE), "{s:?}");
        }
        for (s, n) in [
            ("4    RemoteResponder", Some(4)),
            (" 00003084 ", Some(3084)),
            ("x1", None),
            ("", None),
            ("99999999999", None),
            ("\u{a0}12", Some(12)),
        ] {
            assert_eq!(leading_u32(s), n, "{s:?}");
        }
    }

    /// A field's value continued on the next box line, and the last of
    /// several, are read whole; an empty value is none.
    #[test]
    fn fields_keep_their_continuations() {
        let mut r = Report::default();
        r.push("Probe Description", "AMQ9207E: The data");
        r.extend_last("received is not valid.");
        r.push("Comment1", "");
        r.push("Comment2", "b");
        r.extend_last("c");
        assert_eq!(
            r.get("probe description"),
            Some("AMQ9207E: The data received is not valid.")
        );
        assert_eq!(r.get("Comment1"), None);
        assert_eq!(r.get("Comment2"), Some("b c"));
        assert_eq!(r.get("Comment3"), None);
    }

    fn read(text: &str) -> (Vec<Event>, Vec<FileInfo>) {
        let reader = LineReader::<Fdc>::new();
        testkit::read(&reader, "AMQ1.0.FDC", text, &Default::default())
    }

    const OLD_WINDOWS: &str = "\
+-----------------------------------------------------------------------------+
| WebSphere MQ First Failure Symptom Report                                   |
| =========================================                                   |
|                                                                             |
| Date/Time         :- Mon January 28 2008 21:59:06 GMT                       |
| UTC Time/Zone     :- 1201557546.892015 0 GMT                                |
| Host Name         :- WINBOX1 (Windows XP Build 2600: Service Pack 2)       |
| LVLS              :- 7.0.0.0                                                |
| Probe Id          :- XC130003                                               |
| Component         :- xehExceptionHandler                                    |
| Program Name      :- amqzlaa0.exe                                           |
| Process           :- 00003084                                               |
| Thread            :- 00000001                                               |
| Major Errorcode   :- STOP                                                   |
| Minor Errorcode   :- OK                                                     |
| Probe Description :- AMQ6109: An internal WebSphere MQ error has occurred.  |
| Comment1          :- Access Violation at address 00000000 when reading      |
|   memory                                                                    |
+-----------------------------------------------------------------------------+

MQM Function Stack
zlaMainThread
";

    #[test]
    fn old_windows_report() {
        let (evs, infos) = read(OLD_WINDOWS);
        assert_eq!(evs.len(), 1);
        let e = &evs[0];
        assert_eq!(e.line, 1);
        assert_eq!(e.pid, Some(3084));
        assert_eq!(e.tid, Some(1));
        assert_eq!(
            mqdiag_model::timefmt::rfc3339(&e.ts),
            "2008-01-28T21:59:06.892015+00:00"
        );
        assert_eq!(
            e.text,
            "XC130003 xehExceptionHandler: Access Violation at address 00000000 when reading memory"
        );
        assert_eq!(e.attr("major_rc"), Some("STOP"));
        assert_eq!(
            e.attr("host"),
            Some("WINBOX1 (Windows XP Build 2600: Service Pack 2)")
        );
        assert_eq!(infos[0].host.as_deref(), Some("WINBOX1"));
        assert_eq!(infos[0].problem_count, 0);
    }

    #[test]
    fn local_time_only_needs_an_offset() {
        let text = OLD_WINDOWS.replace(
            "| UTC Time/Zone     :- 1201557546.892015 0 GMT                                |\n",
            "",
        );
        let (evs, infos) = read(&text);
        assert_eq!(
            mqdiag_model::timefmt::rfc3339(&evs[0].ts),
            "2008-01-28T21:59:06.000000+00:00"
        );
        assert_eq!(
            infos[0].notes[0],
            "no UTC offset in the file and no --tz given: UTC assumed"
        );
    }

    #[test]
    fn cut_box_is_reported() {
        let cut: String = OLD_WINDOWS.lines().take(12).collect::<Vec<_>>().join("\n");
        let (evs, infos) = read(&cut);
        assert_eq!(evs.len(), 1);
        assert_eq!(evs[0].pid, Some(3084));
        assert_eq!(evs[0].attr("incomplete"), Some("true"));
        // Read as far as it goes: a reading note.
        assert!(infos[0].problems.is_empty());
        assert_eq!(
            infos[0].notes[0],
            "file ends inside the header box of the report at line 1: read as far as it goes"
        );
    }

    #[test]
    fn fragments_from_the_middle_of_a_box() {
        // Pasted from the middle: the title cut at its start, the box cut
        // before `Probe Id`.
        let lines: Vec<&str> = OLD_WINDOWS.lines().collect();
        let mut text = String::from(
            "BM MQ First Failure Symptom Report                                   |\n",
        );
        for l in &lines[2..8] {
            text.push_str(l);
            text.push('\n');
        }
        assert!(Fdc::sniff("x.txt", text.as_bytes()) >= 90);
        let (evs, infos) = read(&text);
        assert_eq!(evs.len(), 1);
        let e = &evs[0];
        assert_eq!(e.line, 1);
        assert_eq!(e.attr("incomplete"), Some("true"));
        assert_eq!(e.attr("vrmf"), Some("7.0.0.0"));
        assert_eq!(
            mqdiag_model::timefmt::rfc3339(&e.ts),
            "2008-01-28T21:59:06.892015+00:00"
        );
        assert_eq!(infos[0].variant.as_deref(), Some("1 report"));
        // Starting at any field line of the box, ending with the file.
        let text: String = lines[5..13].iter().map(|l| format!("{l}\n")).collect();
        let (evs, infos) = read(&text);
        assert_eq!(evs.len(), 1);
        assert_eq!(evs[0].line, 1);
        assert_eq!(evs[0].pid, Some(3084));
        assert_eq!(evs[0].attr("probe"), Some("XC130003"));
        assert_eq!(evs[0].attr("incomplete"), Some("true"));
        assert!(
            infos[0]
                .problems
                .iter()
                .any(|p| p.code == ProblemCode::CutRecord)
        );
        // A whole report is not a fragment.
        let (evs, _) = read(OLD_WINDOWS);
        assert_eq!(evs[0].attr("incomplete"), None);
        // Two fields are not enough to call text an FDC.
        assert_eq!(Fdc::sniff("x", lines[8..10].join("\n").as_bytes()), 0);
    }
}
