//! MQ message text without a date, as people paste it: format
//! `message-text`. Lines `AMQnnnn[X]: summary` (the summary may wrap onto
//! the next lines), each optionally followed by its `EXPLANATION:` and
//! `ACTION:` sections (headings in any language the error-log reader
//! knows), records one after another, blank lines between them or none.
//! Every line may be indented alike (the common indentation comes off
//! before reading, `dedent`); a line indented further is read without its
//! indentation.
//!
//! Shapes, from public copies: IBM technote "MQJMS2013 / JMSWMQ2013
//! invalid security authentication (RC 2035)" (ibm.com/support/pages/node/
//! 331191) quotes the log as `AMQ5540: Application '...' did not supply a
//! user ID` / `and password` / `AMQ5541: The failed authentication check was
//! caused by the queue manager` / `CONNAUTH CHCKCLNT(REQDADM) configuration.`
//! (no header lines, summaries wrapped); technote swg21680930 ("MQ errors
//! AMQ5540, AMQ5541 and AMQ5542") writes `EXPLANATION:` and `ACTION:` with
//! their text on the same line. The ids' texts are the catalogue's, as in
//! an error log (`shared/formats/error-log.md` §1).
//!
//! Such a record states no time: it is an event with `ts` undated
//! (`mqdiag_model::event::undated`), listed after every dated row, in no
//! time window, and the file's row says how many (a reading note). A file
//! with a date on any of its first lines is another format's (an error
//! log's header, a console's stamp): it is never read here. A dated line
//! further on is a located problem, not an event at an invented time.

use super::errlog_text::{heading, is_separator, msg_split, parse_header};
use super::line_source::{FileCtx, LineFormat, Standalone};
use crate::catalog;
use crate::input::Input;
use crate::lines::LineMeta;
use mqdiag_model::event::{Event, Format, Key, Kind};
use mqdiag_model::problem::{ProblemCode, Severity};
use mqdiag_model::text::{decode_line, looks_like_text};

/// Its facts for the rest of the program.
pub(crate) static FORMAT: Format = Format::of(&mqdiag_model::event::FormatInfo {
    name: "message-text",
    family: mqdiag_model::event::FormatFamily::ErrorLog,
    // No time of day is read off it.
    states_local_time: false,
    dataset: "ibmmq.errorlog",
    host_is_writer: false,
});

/// Lines of prose before the first message a file may have and still be
/// message text (a sentence introducing the paste).
const MAX_INTRO_LINES: usize = 3;
/// Text kept per record; the rest is dropped.
const MAX_RECORD_BYTES: usize = 64 * 1024;

/// Whether a line carries a date where a record's would be: an error-log
/// header, an RFC 3339 stamp (a console), or a date at its start
/// (`2024-01-31`, `01/31/2024`, `31.01.24`).
fn dated(line: &str) -> bool {
    let t = line.trim_start();
    let b = t.as_bytes();
    if !b.first().is_some_and(u8::is_ascii_digit) {
        return false;
    }
    if parse_header(t).is_some() || super::console::stamp_len(b).is_some() {
        return true;
    }
    // Digits, a separator, digits, the same separator, digits.
    let word = t.split_whitespace().next().unwrap_or("");
    let parts: Vec<&str> = word.split(['/', '-', '.']).collect();
    parts.len() == 3
        && parts
            .iter()
            .all(|p| (1..=4).contains(&p.len()) && p.bytes().all(|c| c.is_ascii_digit()))
}

/// Where a record's text goes next.
#[derive(Debug, Clone, Copy, PartialEq)]
enum At {
    /// The summary (wrapped lines join it).
    Summary,
    /// After a blank line below the summary: text without a heading is
    /// the explanation (as error logs of some releases write it).
    AfterSummary,
    Section(usize),
}

/// One record being read.
struct Record {
    line: u64,
    offset: u64,
    id: String,
    summary: String,
    /// Explanation and action, paragraphs on new lines.
    sections: [String; 2],
    /// A blank line was met in the section (a new paragraph follows).
    para: bool,
    at: At,
    source: Option<String>,
    bytes: usize,
}

impl Record {
    fn push(&mut self, text: &str) {
        if self.bytes + text.len() > MAX_RECORD_BYTES {
            return;
        }
        self.bytes += text.len() + 1;
        let (buf, sep) = match self.at {
            At::Summary => (&mut self.summary, ' '),
            At::AfterSummary => {
                self.at = At::Section(0);
                (&mut self.sections[0], '\n')
            }
            At::Section(i) => {
                let sep = if self.para { '\n' } else { ' ' };
                (&mut self.sections[i], sep)
            }
        };
        if !buf.is_empty() {
            buf.push(sep);
        }
        buf.push_str(text);
        self.para = false;
    }
}

/// The format's state: the catalogue's answers for records met before.
#[derive(Default)]
pub(crate) struct MessageText {
    memo: catalog::Memo,
}

/// What is kept while one file is read.
#[derive(Default)]
pub(crate) struct TextFile {
    rec: Option<Record>,
    /// Lines before the first message: (first, last).
    intro: Option<(u64, u64)>,
    records: u64,
}

impl Standalone for MessageText {
    const FORMAT: Format = FORMAT;
    const FUZZ: super::Fuzz = super::Fuzz {
        target: "message_text",
        names: &["pasted.txt"],
    };
    // Below every format that reads dated text: a file they take is
    // theirs.
    const SNIFF_CEILING: u8 = 30;

    fn sniff(_name: &str, head: &[u8]) -> u8 {
        if head.is_empty() || !looks_like_text(head) {
            return 0;
        }
        let text = mqdiag_model::text::utf8_lossy(head);
        let mut lines = text.lines().peekable();
        let (mut msgs, mut before) = (0usize, 0usize);
        while let Some(l) = lines.next() {
            // A full head's last line may be cut.
            if head.len() >= super::SNIFF_BYTES && lines.peek().is_none() {
                break;
            }
            let t = l.trim();
            if t.is_empty() {
                continue;
            }
            if dated(t) {
                return 0;
            }
            if t.starts_with("AMQ") && msg_split(t).is_some() {
                msgs += 1;
            } else if msgs == 0 {
                before += 1;
                if before > MAX_INTRO_LINES {
                    return 0;
                }
            }
        }
        if msgs > 0 { 30 } else { 0 }
    }

    fn new(_: super::Prepared) -> MessageText {
        MessageText::default()
    }
}

impl LineFormat for MessageText {
    type File = TextFile;

    fn open_file(&mut self, _input: &Input, _ctx: &mut FileCtx) -> TextFile {
        TextFile::default()
    }

    fn line(&mut self, file: &mut TextFile, ctx: &mut FileCtx, meta: LineMeta, bytes: &[u8]) {
        if meta.truncated {
            ctx.info.line_cut(meta.no, meta.full_len, bytes.len());
        }
        let (text, _) = decode_line(bytes);
        let t = text.trim();
        if t.is_empty() {
            if let Some(r) = file.rec.as_mut() {
                match r.at {
                    At::Summary => r.at = At::AfterSummary,
                    At::Section(_) => r.para = true,
                    At::AfterSummary => {}
                }
            }
            return;
        }
        if t.starts_with("AMQ")
            && let Some((id, rest)) = msg_split(t)
        {
            self.flush(file, ctx);
            let mut r = Record {
                line: meta.no,
                offset: meta.offset,
                id: id.to_string(),
                summary: String::new(),
                sections: Default::default(),
                para: false,
                at: At::Summary,
                source: None,
                bytes: 0,
            };
            match heading_glued(rest) {
                Some((summary, section)) => {
                    r.push(summary.trim());
                    r.at = At::Section(0);
                    if !section.is_empty() {
                        r.push(section);
                    }
                }
                None => r.push(rest.trim()),
            }
            file.rec = Some(r);
            return;
        }
        if dated(t) {
            self.flush(file, ctx);
            ctx.info.problem(
                ProblemCode::BadLine,
                Some(meta.no),
                Severity::Warning,
                1,
                "a dated line in message text without dates: skipped (read the dated part as a file of its own to place it in time)",
            );
            return;
        }
        let Some(r) = file.rec.as_mut() else {
            let (first, _) = file.intro.unwrap_or((meta.no, meta.no));
            file.intro = Some((first, meta.no));
            return;
        };
        if let Some(src) = is_separator(t) {
            r.source = src;
            self.flush(file, ctx);
            return;
        }
        match (heading(t), r.at) {
            // A heading names the next section: explanation, then action.
            (Some(rest), at) => {
                r.at = At::Section(match at {
                    At::Section(i) if i > 0 => 1,
                    At::Section(_) => 1,
                    _ => 0,
                });
                r.para = false;
                if !rest.is_empty() {
                    r.push(rest);
                }
            }
            (None, _) => r.push(t),
        }
    }

    fn finish_file(&mut self, mut file: TextFile, ctx: &mut FileCtx) {
        self.flush(&mut file, ctx);
        if let Some((a, b)) = file.intro {
            let lines = if a == b {
                format!("line {a}")
            } else {
                format!("lines {a}–{b}")
            };
            ctx.info
                .note(format!("{lines} before the first message: not a record"));
        }
        ctx.info.variant = Some("pasted".to_string());
        if file.records > 0 {
            ctx.info.note(format!(
                "{} record(s) state no time: listed after the dated rows, in no time window",
                file.records
            ));
        } else if ctx.info.lines > 0 && ctx.info.problem_count == 0 {
            ctx.info.problem(
                ProblemCode::NoRecords,
                None,
                Severity::Warning,
                0,
                "no message line (`AMQnnnnX: text`) found",
            );
        }
    }
}

/// `summary.EXPLANATION: text` (a heading glued to the summary in pasted
/// copies): the summary and the section's text.
fn heading_glued(rest: &str) -> Option<(&str, &str)> {
    for h in ["EXPLANATION:", "EXPLANATION :"] {
        if let Some(i) = rest.find(h)
            && i > 0
        {
            return Some((&rest[..i], rest[i + h.len()..].trim()));
        }
    }
    None
}

impl MessageText {
    /// The record read so far, as an undated event.
    fn flush(&mut self, file: &mut TextFile, ctx: &mut FileCtx) {
        let Some(r) = file.rec.take() else { return };
        file.records += 1;
        let mut text = String::with_capacity(r.id.len() + 2 + r.summary.len());
        text.push_str(&r.id);
        text.push_str(": ");
        text.push_str(&r.summary);
        let mut e = Event::undated(ctx.origin.clone(), r.line, Kind::LogRecord, text);
        e.offset = r.offset;
        // The three texts joined, as the error-log reader asks the
        // catalogue.
        let [explanation, action] = &r.sections;
        let mut all = r.summary.clone();
        for part in [explanation, action] {
            all.push(' ');
            all.push_str(part);
        }
        let x = self.memo.extract(&r.id, &all, &[]);
        x.apply(&mut e);
        if let Some(s) = &r.source {
            e.set(Key::Source, s);
        }
        if !explanation.is_empty() {
            e.set(Key::Explanation, explanation);
        }
        if !action.is_empty() {
            e.set(Key::Action, action);
        }
        ctx.emit(e);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::LineReader;
    use crate::testkit;

    const PAIR: &str = "AMQ5534E: User ID 'app' authentication failed\n\
        AMQ5542I: The failed authentication check was caused by the queue manager CONNAUTH CHCKCLNT(REQDADM) configuration.\n";

    fn read(text: &str) -> (Vec<Event>, Vec<mqdiag_model::fileinfo::FileInfo>) {
        let reader = LineReader::<MessageText>::new();
        testkit::read(&reader, "pasted.txt", text, &Default::default())
    }

    #[test]
    fn sniffs_message_text_and_nothing_dated() {
        assert_eq!(MessageText::sniff("x", PAIR.as_bytes()), 30);
        let intro = format!("The console said:\n\n{PAIR}");
        assert_eq!(MessageText::sniff("x", intro.as_bytes()), 30);
        // A dated line anywhere in the head: another format's file.
        for dated in [
            "04/18/2023 07:41:09 AM - Process(1.1) User(mqm) Program(amqzxma0)\n",
            "2023-04-18T07:41:09.230Z AMQ5026I: The listener started.\n",
            "2023-04-18 07:41:09 something\n",
        ] {
            let t = format!("{PAIR}{dated}");
            assert_eq!(MessageText::sniff("x", t.as_bytes()), 0, "{dated}");
        }
        // Prose with no message, or a long prose introduction.
        assert_eq!(MessageText::sniff("x", b"hello\nworld\n"), 0);
        let long = format!("a\nb\nc\nd\n{PAIR}");
        assert_eq!(MessageText::sniff("x", long.as_bytes()), 0);
    }

    #[test]
    fn each_message_is_an_undated_record() {
        let (evs, infos) = read(PAIR);
        assert_eq!(evs.len(), 2);
        assert!(evs.iter().all(Event::is_undated), "{:?}", evs[0].ts);
        assert_eq!(evs[0].get(Key::Msgid), Some("AMQ5534E"));
        assert_eq!(evs[0].line, 1);
        assert_eq!(evs[1].line, 2);
        assert_eq!(evs[1].offset, PAIR.find("AMQ5542I").unwrap() as u64);
        assert_eq!(evs[0].kind, Kind::LogRecord);
        let i = &infos[0];
        assert_eq!(i.events, 2);
        assert_eq!(i.undated, 2);
        assert_eq!((i.first, i.last), (None, None));
        assert_eq!(i.problem_count, 0, "{:?}", i.problems);
        assert_eq!(
            i.notes,
            ["2 record(s) state no time: listed after the dated rows, in no time window"]
        );
        assert_eq!(i.variant.as_deref(), Some("pasted"));
    }

    #[test]
    fn wrapped_summaries_sections_and_a_dated_line() {
        let text = "Here is what we saw:\n  AMQ5540: Application 'amqsputc' did not supply a user ID\n  and password\n\n  EXPLANATION:\n  The queue manager is configured to require a user ID.\n\n  Second paragraph.\n  ACTION: Ensure that the application provides one.\n  ----- amqzfuca.c : 4486 -------\n  AMQ5541: The failed authentication check was caused by the queue manager\n  CONNAUTH CHCKCLNT(REQDADM) configuration.\n2024-01-02 10:00:00 a dated line\n";
        let (evs, infos) = read(text);
        assert_eq!(evs.len(), 2, "{evs:?}");
        assert_eq!(
            evs[0].text,
            "AMQ5540: Application 'amqsputc' did not supply a user ID and password"
        );
        assert_eq!(
            evs[0].get(Key::Explanation),
            Some("The queue manager is configured to require a user ID.\nSecond paragraph.")
        );
        assert_eq!(
            evs[0].get(Key::Action),
            Some("Ensure that the application provides one.")
        );
        assert_eq!(evs[0].get(Key::Source), Some("amqzfuca.c:4486"));
        assert!(
            evs[1]
                .text
                .ends_with("CONNAUTH CHCKCLNT(REQDADM) configuration.")
        );
        let i = &infos[0];
        assert_eq!(i.problem_count, 1);
        assert_eq!(i.problems[0].line, Some(13));
        assert_eq!(i.problems[0].code, ProblemCode::BadLine);
        assert_eq!(i.notes[0], "line 1 before the first message: not a record");
    }

    /// Damaged copies: CRLF, Latin-1 and NUL bytes, a cut last line, a
    /// line past the line limit, a lone id. Records are still read and
    /// none of it panics.
    #[test]
    fn damaged_pastes_are_read_around() {
        let crlf = PAIR.replace('\n', "\r\n");
        let (evs, _) = read(&crlf);
        assert_eq!(evs.len(), 2);
        assert!(!evs[0].text.contains('\r'), "{:?}", evs[0].text);
        let mut latin1 = b"AMQ5534E: User ID 'm\xfcller' authentication failed\n".to_vec();
        latin1.extend_from_slice(b"\0\0\xff\xfe garbage\n");
        let (evs, _) = testkit::read(
            &LineReader::<MessageText>::new(),
            "pasted.txt",
            &latin1,
            &Default::default(),
        );
        assert_eq!(evs.len(), 1);
        assert_eq!(evs[0].get(Key::Msgid), Some("AMQ5534E"));
        let cut = &PAIR[..PAIR.len() - 30];
        let (evs, _) = read(cut);
        assert_eq!(evs.len(), 2);
        let long = format!("{PAIR}AMQ9999E: {}\n", "x".repeat(2 << 20));
        let (evs, infos) = read(&long);
        assert_eq!(evs.len(), 3);
        assert!(
            infos[0]
                .problems
                .iter()
                .any(|p| p.code == ProblemCode::LineTooLong && p.line == Some(3)),
            "{:?}",
            infos[0].problems
        );
        for lone in [
            "AMQ",
            "AMQ5534E:",
            "AMQ5534E",
            "AMQ5534E: \n\n\nEXPLANATION:",
        ] {
            let _ = read(lone);
        }
    }

    #[test]
    fn text_without_a_message_is_said() {
        let (evs, infos) = read("just words\n");
        assert!(evs.is_empty());
        assert_eq!(infos[0].problems[0].code, ProblemCode::NoRecords);
    }
}
