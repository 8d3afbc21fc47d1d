//! `ffstsummary` output: one line per FDC report, what `runmqras`
//! collections and MQ containers print about the FDCs of a system. Its
//! layouts, from public listings (columns apart by any run of blanks):
//!
//! ```text
//! !AMQ348308.0.FDC 2012/09/07 07:25:19.153937-4 amqzmur0 348308 1 XC034255 xcsWaitEventSem
//! AMQ130.0.FDC 2021/09/10 22:57:19.225444 Installation1 crtmqm 130 1 HL000001 hlgStartLog  xecF_E_UNEXPECTED_RC  hrcE_MQLO_SEMA
//! AMQ30.0.FDC  2022/11/30 12:12:08.179116 9.3.1.0 Installation1 crtmqdir  30 1 ProcessInit XY019009 xufOpenIniEdit    xecU_W_INI_ACCESS_DENIED OK
//! ```
//!
//! * 7.x: file (`!` marks one not yet read), date, time with the UTC
//!   offset in hours, program, pid, tid, probe id, component (the IBM
//!   support blog "How to troubleshoot when your WebSphere MQ is creating
//!   FDCs", developerWorks aimsupport, 2012);
//! * 8.0 to 9.2: the installation after the time, the major and minor
//!   error codes after the component, the offset not always written
//!   (docker/for-mac issue 5961, an MQ 9.2 container's `DEBUG:
//!   ffstsummary:` listing);
//! * 9.3 and 9.4: MQ's version before the installation and a word between
//!   the thread and the probe id (`ProcessInit`), kept as
//!   `summary_component` (ibm-messaging/mq-container issue 327, a 9.3.1.0
//!   container's JSON record `"message":"ffstsummary:\n AMQ30.0.FDC ..."`).
//!
//! Each line is an `fdc` event with the same attribute names as a full FDC
//! report's (the version is `vrmf`, as `LVLS`), so both group together by
//! probe id. A container writes the listing in one record
//! (`cmd/runmqserver/logging.go` `logFDCSummary`): `events_in` reads it
//! from a record's text, under whatever header the record starts with.

use super::line_source::{FileCtx, LineFormat, Standalone};
use crate::input::Input;
use crate::lines::LineMeta;
use chrono::{FixedOffset, NaiveDate, NaiveDateTime, NaiveTime, TimeZone};
use mqdiag_model::event::{Event, Format, Kind, Origin, Ts};
use mqdiag_model::problem::{ProblemCode, Severity};
use mqdiag_model::text::{decode_line, looks_like_text};
use std::sync::Arc;

/// One summary line, read.
#[derive(Debug, PartialEq)]
struct Line<'a> {
    file: &'a str,
    local: NaiveDateTime,
    /// The offset the line states (`-4`, `+5:30`).
    offset: Option<FixedOffset>,
    /// MQ's version (`9.3.1.0`), a column from 9.3.
    version: Option<&'a str>,
    installation: Option<&'a str>,
    program: &'a str,
    pid: u32,
    tid: u32,
    /// The word 9.3's listing writes between the thread and the probe id
    /// (`ProcessInit`).
    summary_component: Option<&'a str>,
    probe: &'a str,
    component: &'a str,
    major: Option<&'a str>,
    minor: Option<&'a str>,
}

/// `XC034255`: two letters and six digits.
fn is_probe(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 8
        && b[..2].iter().all(u8::is_ascii_uppercase)
        && b[2..].iter().all(u8::is_ascii_digit)
}

fn is_fdc_name(s: &str) -> bool {
    let b = s.trim_start_matches('!').as_bytes();
    b.len() > 4 && b[b.len() - 4..].eq_ignore_ascii_case(b".FDC")
}

/// `07:25:19.153937-4` → time and offset.
fn time_and_offset(s: &str) -> Option<(NaiveTime, Option<FixedOffset>)> {
    let (t, off) = match s.get(8..).and_then(|r| r.find(['+', '-']).map(|i| i + 8)) {
        Some(i) => (&s[..i], Some(&s[i..])),
        None => (s, None),
    };
    let time = NaiveTime::parse_from_str(t, "%H:%M:%S%.f").ok()?;
    let offset = match off {
        None => None,
        Some(o) => {
            let sign = if o.starts_with('-') { -1 } else { 1 };
            let (h, m) = o[1..].split_once(':').unwrap_or((&o[1..], "0"));
            // An offset is under a day: anything larger is no offset (and
            // would overflow the seconds).
            let h = h.parse::<i32>().ok().filter(|h| (0..24).contains(h))?;
            let m = m.parse::<i32>().ok().filter(|m| (0..60).contains(m))?;
            let secs = h * 3600 + m * 60;
            Some(FixedOffset::east_opt(sign * secs)?)
        }
    };
    Some((time, offset))
}

/// A version column (`9.3.1.0`): digits with at least one dot.
fn is_version(s: &str) -> bool {
    s.contains('.') && s.bytes().all(|b| b.is_ascii_digit() || b == b'.') && !s.starts_with('.')
}

fn parse(line: &str) -> Option<Line<'_>> {
    let w: Vec<&str> = line.split_whitespace().collect();
    if w.len() < 8 || !is_fdc_name(w[0]) {
        return None;
    }
    let date = NaiveDate::parse_from_str(w[1], "%Y/%m/%d").ok()?;
    let (time, offset) = time_and_offset(w[2])?;
    // After the time: [version] [installation] program pid tid
    // [component] probe function [major [minor]]. The pid and tid are the
    // first two numbers in a row, the program the word before them.
    let numeric = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let pid_at = (4..w.len().saturating_sub(1))
        .take(3)
        .find(|&i| numeric(w[i]) && numeric(w[i + 1]))?;
    let before = &w[3..pid_at - 1];
    let (version, installation) = match before {
        [] => (None, None),
        [v] if is_version(v) => (Some(*v), None),
        [i] => (None, Some(*i)),
        [v, i] if is_version(v) => (Some(*v), Some(*i)),
        _ => return None,
    };
    let probe_at = (pid_at + 2..w.len()).take(2).find(|&i| is_probe(w[i]))?;
    let summary_component = (probe_at == pid_at + 3).then(|| w[pid_at + 2]);
    Some(Line {
        file: w[0].trim_start_matches('!'),
        local: date.and_time(time),
        offset,
        version,
        installation,
        program: w[pid_at - 1],
        pid: w[pid_at].parse().ok()?,
        tid: w[pid_at + 1].parse().ok()?,
        summary_component,
        probe: w[probe_at],
        component: w.get(probe_at + 1)?,
        major: w.get(probe_at + 2).copied(),
        minor: w.get(probe_at + 3).copied(),
    })
}

/// The `fdc` event of a summary line, at `off` when the line states no
/// offset.
fn event(l: &Line, origin: &Arc<Origin>, no: u64, off: FixedOffset) -> Event {
    let off = l.offset.unwrap_or(off);
    let ts: Ts = match off.from_local_datetime(&l.local) {
        chrono::LocalResult::Single(t) => t,
        _ => off.from_utc_datetime(&l.local),
    };
    let detail = l.major.unwrap_or("");
    let text = format!("{} {}: {detail}", l.probe, l.component)
        .trim()
        .trim_end_matches(':')
        .to_string();
    let mut e = Event::new(ts, origin.clone(), no, Kind::Fdc, text);
    e.pid = Some(l.pid);
    e.tid = Some(l.tid);
    e.set_attr("probe", l.probe);
    e.set_attr("component", l.component);
    if let Some(m) = l.major {
        e.set_attr("major_rc", m);
    }
    if let Some(m) = l.minor {
        e.set_attr("minor_rc", m);
    }
    e.set_attr("program", l.program);
    e.set_attr("fdc_file", l.file);
    if let Some(i) = l.installation {
        e.set_attr("installation", i);
    }
    // The FDC report's `LVLS`, under the same name.
    if let Some(v) = l.version {
        e.set_attr("vrmf", v);
    }
    if let Some(c) = l.summary_component {
        e.set_attr("summary_component", c);
    }
    e
}

/// A listing line, or a line that starts with a header (`FDC summary: `,
/// `DEBUG: ffstsummary: `: words ending in a colon) before one.
fn listing_line(l: &str) -> Option<Line<'_>> {
    if let Some(p) = parse(l) {
        return Some(p);
    }
    let colon = l.find(": ")?;
    let rest = l[colon + 1..].trim_start();
    // Only a short header: a listing line holds no `: ` of its own.
    (colon <= 64).then(|| listing_line(rest)).flatten()
}

/// The `fdc` events of a summary listing inside another record's text (an
/// MQ container logs `FDC summary: <ffstsummary output>` or
/// `ffstsummary:\n<output>` at start-up, `cmd/runmqserver/logging.go`
/// `logFDCSummary`), each at line `no`; lines that state no offset are at
/// `off`.
pub(crate) fn events_in(text: &str, origin: &Arc<Origin>, no: u64, off: FixedOffset) -> Vec<Event> {
    if !text.contains(".FDC") && !text.contains(".fdc") {
        return Vec::new();
    }
    text.lines()
        .filter_map(|l| listing_line(l.trim_start()).map(|p| event(&p, origin, no, off)))
        .collect()
}

/// Whether a line is a listing line (blanks before it allowed).
pub(crate) fn is_listing_line(line: &str) -> bool {
    parse(line).is_some()
}

/// The `fdc` event of one listing line (`listing_line`) at line `no`, or
/// `None` when the line is none.
pub(crate) fn event_of_line(
    line: &str,
    origin: &Arc<Origin>,
    no: u64,
    off: FixedOffset,
) -> Option<Event> {
    listing_line(line.trim_start()).map(|p| event(&p, origin, no, off))
}

/// The format's specifics: `LineReader<FfstSummary>` is its reader.
pub(crate) struct FfstSummary;

impl Standalone for FfstSummary {
    /// Its lines are FDC reports, as the reports' own files are.
    const FORMAT: Format = super::fdc::FORMAT;
    const FUZZ: super::Fuzz = super::Fuzz {
        target: "ffstsummary",
        names: &["FFST.output"],
    };
    const SNIFF_CEILING: u8 = 90;

    fn sniff(_name: &str, head: &[u8]) -> u8 {
        if head.is_empty() || !looks_like_text(head) {
            return 0;
        }
        let text = mqdiag_model::text::utf8_lossy(head);
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        let n = lines.len().saturating_sub(1).clamp(1, 50);
        let good = lines.iter().take(n).filter(|l| parse(l).is_some()).count();
        match good {
            0 => 0,
            g if g * 2 >= n => 90,
            _ => 40,
        }
    }

    fn new(_: super::Prepared) -> FfstSummary {
        FfstSummary
    }
}

/// Lines that are no summary line, reported once at the end of the file.
#[derive(Default)]
pub(crate) struct Other {
    count: u64,
    first: Option<u64>,
}

impl LineFormat for FfstSummary {
    type File = Other;

    fn open_file(&mut self, _input: &Input, _ctx: &mut FileCtx) -> Other {
        Other::default()
    }

    fn line(&mut self, other: &mut Other, ctx: &mut FileCtx, meta: LineMeta, bytes: &[u8]) {
        let no = meta.no;
        let text = decode_line(bytes).0.into_owned();
        if text.trim().is_empty() {
            return;
        }
        let Some(l) = parse(&text) else {
            // Headings, blank padding, a cut last line: counted, reported
            // once at the end.
            other.count += 1;
            other.first.get_or_insert(no);
            return;
        };
        let off = match l.offset {
            Some(o) => o,
            None => ctx.fallback_offset(),
        };
        if ctx.info.utc_offset.is_none() && l.offset.is_some() {
            ctx.info.set_offset(off, "data");
        }
        let mut e = event(&l, ctx.origin, no, off);
        e.offset = meta.offset;
        ctx.emit(e);
    }

    fn finish_file(&mut self, other: Other, ctx: &mut FileCtx) {
        if other.count > 0 {
            ctx.info.problem(ProblemCode::BadLine,
                other.first,
                Severity::Warning,
                other.count,
                format!(
                    "{} line(s) are not ffstsummary lines (file, date, time, program, pid, tid, probe id, component): skipped",
                    other.count
                ),
            );
        }
        ctx.info.variant = Some("ffstsummary".to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::line_source::LineReader;
    use crate::testkit;

    const TEXT: &str = "\
AMQ348308.0.FDC 2012/09/07 07:25:19.153937-4 amqzmur0 348308 1 XC034255 xcsWaitEventSem
AMQ21433.0.FDC  2021/04/10 10:56:03 Installation1 amqzdmaa 21433 2 XC338001 xehAsySignalHandler xecE_W_UNEXPECTED_ASYNC_SIGNAL OK
AMQ2143";

    #[test]
    fn lines_with_and_without_installation_and_codes() {
        let a = parse(TEXT.lines().next().unwrap()).unwrap();
        assert_eq!(
            (a.file, a.program, a.pid, a.tid, a.probe, a.component),
            (
                "AMQ348308.0.FDC",
                "amqzmur0",
                348308,
                1,
                "XC034255",
                "xcsWaitEventSem"
            )
        );
        assert_eq!(a.offset, FixedOffset::west_opt(4 * 3600));
        assert_eq!(a.major, None);
        let b = parse(TEXT.lines().nth(1).unwrap()).unwrap();
        assert_eq!(b.installation, Some("Installation1"));
        assert_eq!(b.major, Some("xecE_W_UNEXPECTED_ASYNC_SIGNAL"));
        assert_eq!(b.minor, Some("OK"));
        // Offsets of a day or more are no offsets (a fuzzed line overflowed).
        assert_eq!(time_and_offset("07:25:17-4348308").map(|t| t.1), None);
        assert_eq!(time_and_offset("07:25:17+5:75").map(|t| t.1), None);
        assert_eq!(
            time_and_offset("07:25:17+5:30").and_then(|t| t.1),
            FixedOffset::east_opt(5 * 3600 + 30 * 60)
        );
        assert!(parse("AMQ2143").is_none());
        assert!(parse("an ordinary line of some other program 1 2 3 4").is_none());
    }

    #[test]
    fn layouts_of_each_version() {
        let l = parse(" AMQ30.0.FDC  2022/11/30 12:12:08.179116 9.3.1.0 Installation1 crtmqdir  30 1 ProcessInit XY019009 xufOpenIniEdit    xecU_W_INI_ACCESS_DENIED OK").unwrap();
        assert_eq!(
            (l.version, l.installation, l.program, l.pid, l.tid),
            (Some("9.3.1.0"), Some("Installation1"), "crtmqdir", 30, 1)
        );
        assert_eq!(
            (l.summary_component, l.probe, l.component, l.major, l.minor),
            (
                Some("ProcessInit"),
                "XY019009",
                "xufOpenIniEdit",
                Some("xecU_W_INI_ACCESS_DENIED"),
                Some("OK")
            )
        );
        // A version without an installation; a bad version is no line.
        let l = parse("AMQ1.0.FDC 2023/01/01 00:00:00 9.4.0.0 amqzxma0 1 2 XC130003 f").unwrap();
        assert_eq!(
            (l.version, l.installation, l.pid),
            (Some("9.4.0.0"), None, 1)
        );
        assert!(parse("AMQ1.0.FDC 2023/01/01 00:00:00 a b amqzxma0 1 2 XC130003 f").is_none());
        // Two words between the thread and the probe: no line.
        assert!(parse("AMQ1.0.FDC 2023/01/01 00:00:00 p 1 2 x y XC130003 f").is_none());
        // Headers of any wording before a listing line.
        for h in [
            "DEBUG: ffstsummary: ",
            "FDC summary: ",
            "Diagnostics: FDCs: ",
        ] {
            let t = format!("{h}AMQ1.0.FDC 2023/01/01 00:00:00 p 1 2 XC130003 f");
            assert_eq!(listing_line(&t).map(|l| l.probe), Some("XC130003"), "{t}");
        }
        assert!(listing_line("AMQ8003I: IBM MQ queue manager 'QM1' started.").is_none());
    }

    #[test]
    fn events_and_cut_line() {
        assert_eq!(FfstSummary::sniff("x", TEXT.as_bytes()), 90);
        let reader = LineReader::<FfstSummary>::new();
        let (evs, infos) = testkit::read(&reader, "ffst.txt", TEXT, &Default::default());
        assert_eq!(evs.len(), 2);
        assert_eq!(evs[0].kind, Kind::Fdc);
        assert_eq!(evs[0].attr("probe"), Some("XC034255"));
        assert_eq!(evs[0].pid, Some(348308));
        assert_eq!(
            mqdiag_model::timefmt::rfc3339(&evs[0].ts),
            "2012-09-07T07:25:19.153937-04:00"
        );
        assert_eq!(
            evs[1].attr("major_rc"),
            Some("xecE_W_UNEXPECTED_ASYNC_SIGNAL")
        );
        assert_eq!(infos[0].variant.as_deref(), Some("ffstsummary"));
        // The bad line; the cut last line is a reading note.
        assert_eq!(infos[0].problem_count, 1, "{:?}", infos[0].problems);
        assert_eq!(infos[0].notes.len(), 1, "{:?}", infos[0].notes);
        assert_eq!(
            infos[0]
                .problems
                .iter()
                .filter(|p| p.line == Some(3))
                .count(),
            1
        );
    }

    #[test]
    fn listing_inside_other_text() {
        let origin = mqdiag_model::event::Origin::new(
            "pod.log".into(),
            crate::formats::container_log::FORMAT,
        );
        let utc = FixedOffset::east_opt(0).unwrap();
        let text = "FDC summary: AMQ1.0.FDC 2024/08/12 08:31:02 Installation1 amqrmppa 412 9 CO618001 cciInvalidDataReceived\n\
                    not a line\n  AMQ2.0.FDC 2024/08/12 08:31:03.5+2 amqzxma0 97 1 XC130003 xehExceptionHandler STOP OK\n";
        let evs = events_in(text, &origin, 7, utc);
        assert_eq!(evs.len(), 2);
        assert_eq!(evs[0].line, 7);
        assert_eq!(
            mqdiag_model::timefmt::rfc3339(&evs[0].ts),
            "2024-08-12T08:31:02.000000+00:00"
        );
        // The offset a line states wins.
        assert_eq!(
            mqdiag_model::timefmt::rfc3339(&evs[1].ts),
            "2024-08-12T08:31:03.500000+02:00"
        );
        assert_eq!(evs[1].attr("fdc_file"), Some("AMQ2.0.FDC"));
        assert!(events_in("Started queue manager", &origin, 1, utc).is_empty());
    }
}
