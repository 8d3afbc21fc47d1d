//! Text error logs (`AMQERR01.LOG` ... `AMQERR03.LOG`), MQSeries 5.x to 9.4,
//! every platform and locale. See `shared/formats/error-log.md` §1 and §5.
//!
//! A record is a header line (`<local date> <time>[ AM|PM] - Process(p.t)
//! User(u) Program(p)`), indented `Name(value)` attribute lines, the message
//! line (`AMQnnnn[X]: summary`), two headed sections (explanation, action;
//! headings localised) and a separator line (`----- amqxxx.c : 123 ----`)
//! that closes it.
//!
//! Each file is read once, streaming. Header and `Time()` lines are also
//! fed to a scanner (`prescan::Scanner`) that gathers what decides the date
//! order of each header style (`.`, AM/PM, a field above 12, agreement with
//! `Time()`) and the UTC offset (local header time minus `Time()`); parsed
//! records wait in a bounded look-ahead until those are decided (see
//! `lookahead`). A rotated set (AMQERR03, 02, 01) is one source, oldest
//! first.

mod clocks;
mod header;
mod lookahead;
mod parser;
mod prescan;
mod source;

pub(crate) use clocks::{ErrlogClocks, display_dir, survey};
// What the undated message-text reader reads alike.
use header::*;
pub(crate) use header::{heading, is_separator, msg_split, parse_header};
use lookahead::*;
use parser::*;
use prescan::*;
pub use source::ErrlogText;
use source::*;

use super::errlog_common::{Dedup, PathFacts, RecordKey, path_facts, rotation_group};
use super::line_source::Standalone;
use crate::catalog;
use crate::input::Input;
use crate::lines::LineReader;
use crate::source::ReadOptions;
use chrono::{FixedOffset, NaiveDate, NaiveDateTime, NaiveTime, TimeZone};
use mqdiag_model::event::{Event, Format, Kind};
use mqdiag_model::fileinfo::FileInfo;
use mqdiag_model::problem::{ProblemCode, Severity};
use mqdiag_model::text::{Encoding, decode_line, looks_like_text, trim, trim_end, trim_start};
use regex::Regex;
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::sync::LazyLock;

/// Text kept per record; the rest of a runaway record is dropped.
const MAX_RECORD_BYTES: usize = 64 * 1024;
/// Attributes kept per record.
const MAX_ATTRS: usize = 64;
/// Users whose date order is decided on their own, per header style.
const MAX_USERS_PER_STYLE: usize = 64;
/// The largest UTC offset in use (+14:00, Kiribati).
const MAX_OFFSET_SECS: i64 = 14 * 3600;

/// `<date> <time>[ AM] - ` (the date `dd/mm/yyyy`, `mm/dd/yy` or
/// `yyyy/mm/dd`, told apart by `header::header_from`) followed by the `Process(...)` attributes. The en
/// dash and no-break spaces come from copies pasted into documents.
static HEADER_RE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^\s*(\d{1,4})([./-])(\d{1,2})[./-](\d{1,4})[\s\u{a0}]+(\d{1,2}):(\d{2}):(\d{2})(?:[\s\u{a0}]*([AaPp][Mm]))?[\s\u{a0}]+[-–][\s\u{a0}]+(Process\(.*)$",
    )
    .expect("header regex")
});

/// MQSeries 5.x: `MM/DD/YY HH:MM:SS`, the message possibly on the same line.
static LEGACY_RE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(\d{2})/(\d{2})/(\d{2})\s+(\d{2}):(\d{2}):(\d{2})\s*(AMQ\d{4}[A-Z]?:.*)?$")
        .expect("legacy regex")
});

static MSG_RE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^(AMQ\d{4}[A-Z]?):\s?(.*)$").expect("message regex"));

static SEPARATOR_RE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^-{5}(?: (\S+) : (\d+) )?-+\s*$").expect("separator regex"));

/// Headings that may carry their text on the same line (old releases) or be
/// glued to the end of the summary (pasted copies).
const KNOWN_HEADINGS: &[&str] = &[
    "EXPLANATION",
    "ACTION",
    "ERKLÄRUNG",
    "AKTION",
    "EXPLICATION",
    "EXPLICACIÓN",
    "ACCIÓN",
    "SPIEGAZIONE",
    "AZIONE",
];

/// Attribute names that may appear without indentation (copies that lost
/// it) and still be read as attributes.
const KNOWN_ATTRS: &[&str] = &[
    "Host",
    "Installation",
    "VRMF",
    "QMgr",
    "Time",
    "RemoteHost",
    "ArithInsert1",
    "ArithInsert2",
    "CommentInsert1",
    "CommentInsert2",
    "CommentInsert3",
];

/// Text error logs (`AMQERR0n.LOG`). Its facts for the rest of the program.
pub static FORMAT: Format = Format::of(&mqdiag_model::event::FormatInfo {
    name: "errlog-text",
    family: mqdiag_model::event::FormatFamily::ErrorLog,
    states_local_time: true,
    dataset: "ibmmq.errorlog",
    host_is_writer: false,
});

impl Standalone for ErrlogText {
    const FORMAT: Format = FORMAT;
    const FUZZ: super::Fuzz = super::Fuzz {
        target: "errlog_text",
        names: &["AMQERR01.LOG"],
    };
    const SNIFF_CEILING: u8 = 95;

    fn sniff(name: &str, head: &[u8]) -> u8 {
        if head.is_empty() {
            // No content to judge: an empty AMQERRnn.LOG is common (a
            // generation not written yet) and belongs here.
            return if super::errlog_common::rotation_name(name, "log").is_some() {
                20
            } else {
                0
            };
        }
        // A log with a NUL hole (a crash while writing) fails the text test
        // but is still a log: the header pattern alone is strict enough.
        let text_like = looks_like_text(head);
        let text = mqdiag_model::text::utf8_lossy(head);
        if !text_like {
            let found = text
                .lines()
                .take(400)
                .any(|l| parse_header(l.trim_start_matches('\0')).is_some());
            return if found { 90 } else { 0 };
        }
        let mut seps = 0;
        let mut msgs = 0;
        let mut prev_legacy = false;
        // The anchored patterns, asked only of lines that can start as
        // they do (an FDC's or a trace's lines cannot): `\d` is any
        // Unicode digit, so a line that starts outside ASCII is asked.
        let legacy = |l: &str| {
            l.as_bytes()
                .first()
                .is_some_and(|&b| !b.is_ascii() || b.is_ascii_digit())
                && LEGACY_RE.is_match(l)
        };
        let msg = |l: &str| l.starts_with("AMQ") && MSG_RE.is_match(l);
        for line in text.lines().take(400) {
            if parse_header(line).is_some() {
                // A header starts its line: one indented (a pasted log)
                // scores lower, so the log without the indentation wins.
                return if line.starts_with([' ', '\t']) {
                    93
                } else {
                    95
                };
            }
            if prev_legacy && msg(line) {
                return 85;
            }
            prev_legacy = legacy(line);
            if prev_legacy && line.contains("AMQ") {
                return 85;
            }
            if line.starts_with("-----") && SEPARATOR_RE.is_match(line) && line.contains(" : ") {
                seps += 1;
            }
            if msg(line) {
                msgs += 1;
            }
        }
        // A file that starts inside a long record: message lines and
        // separators naming a source file.
        if seps > 0 && msgs > 0 { 60 } else { 0 }
    }

    fn group(input: &Input) -> Option<(String, u32)> {
        rotation_group(input, "log")
    }

    fn new(_: super::Prepared) -> ErrlogText {
        ErrlogText::default()
    }
}

// ---------------------------------------------------------------------------
// Attributes and headers

#[cfg(test)]
mod tests;

#[cfg(test)]
mod fast_tests;
