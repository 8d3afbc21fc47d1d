//! MQSC scripts as `dmpmqcfg` writes them (IBM documentation,
//! "dmpmqcfg (dump queue manager configuration)"): comment lines that start
//! with `*` (the dump's header names the queue manager: `* Queue manager
//! name: QM1`), then `DEFINE`, `ALTER`, `SET CHLAUTH`, `SET AUTHREC`
//! commands, continued with `+` (the next line from its first non-blank)
//! or `-` (from its first column) at the line end in the default form,
//! one command per line with `-o 1line`. Also any hand-written MQSC script
//! of the same commands (a container's `*.mqsc`).
//!
//! Each command is a configuration fact (`mqdiag_model::config`) with the
//! line it starts on; the file gives no events. A line that starts no
//! command is counted and reported once; a command cut by the end of the
//! file is kept and reported.

use super::line_source::{FileCtx, LineFormat, Standalone};
use crate::input::Input;
use crate::lines::LineMeta;
use mqdiag_model::config::{ConfigFile, Item, Scope};
use mqdiag_model::event::Format;
use mqdiag_model::problem::{ProblemCode, Severity};
use mqdiag_model::text::{decode_line, looks_like_text};
use std::sync::Arc;

/// MQSC scripts and dumps: configuration, no events.
pub static FORMAT: Format = Format::of(&mqdiag_model::event::FormatInfo {
    name: "mqsc",
    family: mqdiag_model::event::FormatFamily::Config,
    states_local_time: false,
    dataset: "ibmmq.config",
    host_is_writer: false,
});

/// Verbs a dump or script holds.
const VERBS: &[&str] = &["DEFINE", "ALTER", "SET", "DELETE", "START", "STOP"];

/// Longest command kept while its continuations are joined: a longer one
/// is cut (a hostile file of endless `+` lines stays bounded).
const MAX_COMMAND: usize = 64 * 1024;

/// An MQSC command split into its parts.
#[derive(Debug, PartialEq)]
pub(crate) struct Command {
    pub(crate) verb: String,
    pub(crate) object: String,
    pub(crate) name: String,
    pub(crate) attrs: Vec<(String, String)>,
}

/// Split one whole command (continuations joined). `None` when it starts
/// with no verb MQSC knows or has no object type.
pub(crate) fn parse_command(text: &str) -> Option<Command> {
    let mut toks = Tokens {
        s: text.trim(),
        i: 0,
    };
    let (verb, v) = toks.next()?;
    if v.is_some() {
        return None;
    }
    let verb = verb.to_ascii_uppercase();
    if !VERBS.contains(&verb.as_str()) {
        return None;
    }
    let (object, name) = toks.next()?;
    let mut object = object.to_ascii_uppercase();
    // Short forms dmpmqcfg does not write but scripts do.
    object = match object.as_str() {
        "CHL" => "CHANNEL".to_string(),
        "QL" => "QLOCAL".to_string(),
        "QR" => "QREMOTE".to_string(),
        "QA" => "QALIAS".to_string(),
        "QM" => "QMODEL".to_string(),
        _ => object,
    };
    let mut attrs = Vec::new();
    while let Some((k, v)) = toks.next() {
        attrs.push((k.to_ascii_uppercase(), v.unwrap_or_default()));
    }
    // SET AUTHREC names its profile by keyword.
    let name = match name {
        Some(n) => n,
        None => attrs
            .iter()
            .find(|(k, _)| k == "PROFILE")
            .map(|(_, v)| v.clone())
            .unwrap_or_default(),
    };
    Some(Command {
        verb,
        object,
        name,
        attrs,
    })
}

/// Words and `WORD(value)` pairs of a command.
struct Tokens<'a> {
    s: &'a str,
    i: usize,
}

impl Tokens<'_> {
    fn next(&mut self) -> Option<(String, Option<String>)> {
        let b = self.s.as_bytes();
        while self.i < b.len() && (b[self.i] == b' ' || b[self.i] == b'\t' || b[self.i] == b',') {
            self.i += 1;
        }
        if self.i >= b.len() {
            return None;
        }
        let start = self.i;
        while self.i < b.len() && !matches!(b[self.i], b' ' | b'\t' | b'(' | b',') {
            self.i += 1;
        }
        let word = self.s[start..self.i].to_string();
        if self.i < b.len() && b[self.i] == b'(' {
            self.i += 1;
            return Some((word, Some(self.value())));
        }
        if word.is_empty() {
            // A stray `(` or `)`: step over it.
            self.i += 1;
            return self.next();
        }
        Some((word, None))
    }

    /// The value up to the matching `)`: quoted strings unquoted (`''` is
    /// a quote), a list's items joined by commas.
    fn value(&mut self) -> String {
        let b = self.s.as_bytes();
        let mut out = String::new();
        let mut depth = 0usize;
        while self.i < b.len() {
            match b[self.i] {
                b'\'' => {
                    self.i += 1;
                    let start = self.i;
                    loop {
                        match self.s[self.i..].find('\'') {
                            None => {
                                out.push_str(&self.s[start..]);
                                self.i = b.len();
                                break;
                            }
                            Some(k) => {
                                let at = self.i + k;
                                if b.get(at + 1) == Some(&b'\'') {
                                    self.i = at + 2;
                                } else {
                                    out.push_str(&self.s[start..at].replace("''", "'"));
                                    self.i = at + 1;
                                    break;
                                }
                            }
                        }
                    }
                }
                b'(' => {
                    depth += 1;
                    out.push('(');
                    self.i += 1;
                }
                b')' if depth == 0 => {
                    self.i += 1;
                    break;
                }
                b')' => {
                    depth -= 1;
                    out.push(')');
                    self.i += 1;
                }
                b' ' | b'\t' => self.i += 1,
                _ => {
                    let start = self.i;
                    while self.i < b.len()
                        && !matches!(b[self.i], b'\'' | b'(' | b')' | b' ' | b'\t')
                    {
                        self.i += 1;
                    }
                    out.push_str(&self.s[start..self.i]);
                }
            }
        }
        out
    }
}

/// MQSC read line by line into a `ConfigFile`; shared with the config
/// maps, whose blocks are MQSC scripts.
#[derive(Default)]
pub(crate) struct MqscLines {
    /// The command being joined: its first line and text so far.
    pending: Option<(u64, String)>,
    /// Whether the pending text ends with a continuation, and of which
    /// kind (`+`: the next line from its first non-blank).
    cont: Option<u8>,
    /// Lines that start no command: how many, the first.
    pub(crate) bad: u64,
    pub(crate) first_bad: Option<u64>,
    /// The queue manager the header names.
    pub(crate) qmgr: Option<String>,
    /// Whether the header says `dmpmqcfg` wrote it.
    pub(crate) dump: bool,
    /// Whether the text is runmqsc's output (`DISPLAY` replies) rather
    /// than a script.
    pub(crate) display: bool,
    /// The `DISPLAY` reply being read: its first line and its
    /// `KEYWORD(value)` pairs so far.
    reply: Option<(u64, Vec<(String, String)>)>,
    pub(crate) commands: u64,
}

impl MqscLines {
    pub(crate) fn line(&mut self, no: u64, line: &str, out: &mut ConfigFile) {
        let line = line.trim_end_matches(['\r', '\n']);
        if let Some(kind) = self.cont.take() {
            let part = if kind == b'+' {
                line.trim_start()
            } else {
                line
            };
            let (part, next) = split_continuation(part);
            if let Some((_, text)) = &mut self.pending
                && text.len() + part.len() <= MAX_COMMAND
            {
                text.push_str(part);
            }
            self.cont = next;
            if next.is_none() {
                self.end(out);
            }
            return;
        }
        let t = line.trim();
        if t.is_empty() {
            self.end_reply(out);
            return;
        }
        if self.runmqsc(no, line, t, out) {
            return;
        }
        if let Some(c) = t.strip_prefix('*') {
            self.comment(c.trim());
            return;
        }
        let (part, next) = split_continuation(t);
        let first = part.split([' ', '\t', '(']).next().unwrap_or("");
        if !VERBS.iter().any(|v| v.eq_ignore_ascii_case(first)) {
            self.bad += 1;
            self.first_bad.get_or_insert(no);
            return;
        }
        self.pending = Some((no, part.to_string()));
        self.cont = next;
        if next.is_none() {
            self.end(out);
        }
    }

    /// runmqsc's output (what `echo "DISPLAY CHANNEL(*) ALL" | runmqsc QM1`
    /// prints; IBM "runmqsc"): `Starting MQSC for queue manager QM1.`, the
    /// echoed command (`     1 : DISPLAY ...`), then for each object an
    /// `AMQ8414I: Display Channel details.` line followed by indented
    /// `KEYWORD(value)` pairs, two to a line. Each reply is a `DISPLAY`
    /// fact of its object, blank values left out (they are unset). Other
    /// runmqsc messages are stepped over. Whether the line was one of these.
    fn runmqsc(&mut self, no: u64, line: &str, t: &str, out: &mut ConfigFile) -> bool {
        if let Some((_, attrs)) = &mut self.reply
            && line.starts_with([' ', '\t'])
            && t.contains('(')
        {
            let mut toks = Tokens { s: t, i: 0 };
            while let Some((k, v)) = toks.next() {
                let v = v.unwrap_or_default();
                if !v.trim().is_empty() && attrs.len() < 4096 {
                    attrs.push((k.to_ascii_uppercase(), v));
                }
            }
            return true;
        }
        if t.starts_with("5724-H72 (C) Copyright IBM") {
            self.display = true;
            return true;
        }
        if let Some(q) = t
            .strip_prefix("Starting MQSC for queue manager ")
            .map(|q| q.trim_end_matches('.').trim())
        {
            self.display = true;
            if !q.is_empty() {
                self.qmgr.get_or_insert_with(|| q.to_string());
            }
            return true;
        }
        let b = t.as_bytes();
        // `AMQ8414I: ...`: a reply starts, or another runmqsc message.
        if b.len() > 9
            && t.starts_with("AMQ")
            && b[3..7].iter().all(u8::is_ascii_digit)
            && b[8] == b':'
        {
            self.end_reply(out);
            self.display = true;
            if t.starts_with("AMQ8") && t.contains(" details.") {
                self.reply = Some((no, Vec::new()));
            }
            return true;
        }
        // `     1 : DISPLAY CHANNEL(*) ALL` and the closing counts.
        if self.display
            && (t
                .split_once(" : ")
                .is_some_and(|(n, _)| n.trim().parse::<u32>().is_ok())
                || t.ends_with("MQSC command read.")
                || t.ends_with("MQSC commands read.")
                || t.starts_with("No commands have a syntax error")
                || t.starts_with("All valid MQSC commands were processed")
                || t.contains("syntax error"))
        {
            self.end_reply(out);
            return true;
        }
        false
    }

    /// The reply read so far as a fact: its object from its first keyword
    /// (`CHANNEL(X)`, `QUEUE(X)` with its `TYPE`, `QMNAME(X)` for the
    /// queue manager, `CHLAUTH(X)`, `AUTHINFO(X)`, ...).
    fn end_reply(&mut self, out: &mut ConfigFile) {
        let Some((no, attrs)) = self.reply.take() else {
            return;
        };
        let Some(((key, name), rest)) = attrs.split_first() else {
            return;
        };
        let object = match key.as_str() {
            "QUEUE" => rest
                .iter()
                .find(|(k, _)| k == "TYPE")
                .map_or("QUEUE".to_string(), |(_, v)| v.clone()),
            "QMNAME" => "QMGR".to_string(),
            k => k.to_string(),
        };
        let name = if object == "QMGR" {
            String::new()
        } else {
            name.clone()
        };
        if object == "QMGR" {
            self.qmgr.get_or_insert_with(|| attrs[0].1.clone());
        }
        let text = std::iter::once(format!("{key}({})", attrs[0].1))
            .chain(rest.iter().map(|(k, v)| format!("{k}({v})")))
            .collect::<Vec<_>>()
            .join(" ");
        self.commands += 1;
        out.push(
            no,
            &text,
            Item::Command {
                verb: "DISPLAY".to_string(),
                object,
                name,
                attrs: rest.to_vec(),
            },
        );
    }

    fn comment(&mut self, c: &str) {
        if let Some(q) = c.strip_prefix("Queue manager name:") {
            let q = q.trim();
            if !q.is_empty() {
                self.qmgr = Some(q.to_string());
            }
        } else if c.starts_with("Script generated") || c.starts_with("Command issued: dmpmqcfg") {
            self.dump = true;
        }
    }

    fn end(&mut self, out: &mut ConfigFile) {
        let Some((no, text)) = self.pending.take() else {
            return;
        };
        match parse_command(&text) {
            Some(c) => {
                self.commands += 1;
                out.push(
                    no,
                    &text,
                    Item::Command {
                        verb: c.verb,
                        object: c.object,
                        name: c.name,
                        attrs: c.attrs,
                    },
                );
            }
            None => {
                self.bad += 1;
                self.first_bad.get_or_insert(no);
            }
        }
    }

    /// The end of the text: a command still open is kept; its line is
    /// returned to be reported as cut.
    pub(crate) fn finish(&mut self, out: &mut ConfigFile) -> Option<u64> {
        self.end_reply(out);
        let cut = self.cont.take().and(self.pending.as_ref().map(|p| p.0));
        self.end(out);
        cut
    }
}

/// A line's text without its continuation mark, and the mark.
fn split_continuation(line: &str) -> (&str, Option<u8>) {
    let t = line.trim_end();
    match t.as_bytes().last() {
        Some(b'+') => (&t[..t.len() - 1], Some(b'+')),
        // `-` continues only after a blank (`DESCR('a-b')` ends with `)`).
        Some(b'-') if t.len() == 1 || t.as_bytes()[t.len() - 2] == b' ' => {
            (&t[..t.len() - 1], Some(b'-'))
        }
        _ => (t, None),
    }
}

/// The format's specifics: `LineReader<Mqsc>` is its reader.
pub(crate) struct Mqsc;

/// What one file keeps while it is read.
pub(crate) struct MqscFile {
    lines: MqscLines,
    config: ConfigFile,
}

impl Standalone for Mqsc {
    const FORMAT: Format = FORMAT;
    const FUZZ: super::Fuzz = super::Fuzz {
        target: "mqsc",
        names: &["QM1.mqsc", "defs.txt"],
    };
    const SNIFF_CEILING: u8 = 95;

    fn sniff(name: &str, head: &[u8]) -> u8 {
        if head.is_empty() || !looks_like_text(head) {
            return 0;
        }
        let text = mqdiag_model::text::utf8_lossy(head);
        let mut commands = 0usize;
        let mut other = 0usize;
        let mut header = false;
        for l in text.lines().take(60) {
            let t = l.trim();
            if t.is_empty() {
                continue;
            }
            if let Some(c) = t.strip_prefix('*') {
                // dmpmqcfg writes its header from the first column.
                header |= l.starts_with('*')
                    && (c.trim_start().starts_with("Script generated")
                        || c.trim_start().starts_with("Queue manager name:"));
                continue;
            }
            if t.starts_with("Starting MQSC for queue manager ")
                || (t.starts_with("AMQ8") && t.contains(": Display ") && t.ends_with(" details."))
            {
                header = true;
                continue;
            }
            let first = t.split([' ', '\t', '(']).next().unwrap_or("");
            if VERBS.iter().any(|v| v.eq_ignore_ascii_case(first)) && t.contains('(') {
                commands += 1;
            } else {
                other += 1;
            }
        }
        let named = name.to_ascii_lowercase().ends_with(".mqsc");
        match (header, commands) {
            (true, _) => 95,
            (false, 0) => 0,
            // Continuation lines are not commands: a dump in the default
            // form has many more of them.
            (false, c) if named || c * 4 >= other => 85,
            _ => 30,
        }
    }

    fn new(_: super::Prepared) -> Mqsc {
        Mqsc
    }
}

impl LineFormat for Mqsc {
    type File = MqscFile;

    fn open_file(&mut self, _input: &Input, _ctx: &mut FileCtx) -> MqscFile {
        MqscFile {
            lines: MqscLines::default(),
            config: ConfigFile::new(Scope::Unknown, "MQSC"),
        }
    }

    fn line(&mut self, f: &mut MqscFile, _ctx: &mut FileCtx, meta: LineMeta, bytes: &[u8]) {
        let text = decode_line(bytes).0;
        f.lines.line(meta.no, &text, &mut f.config);
    }

    fn finish_file(&mut self, mut f: MqscFile, ctx: &mut FileCtx) {
        let cut = f.lines.finish(&mut f.config);
        report(&f.lines, cut, &f.config, ctx);
        let qmgr = f
            .lines
            .qmgr
            .clone()
            .or_else(|| crate::input::qmgr_of_path(&ctx.info.path));
        f.config.scope = qmgr.clone().map_or(Scope::Unknown, Scope::Qmgr);
        f.config.source = if f.lines.dump {
            "dmpmqcfg dump".to_string()
        } else if f.lines.display {
            "runmqsc output".to_string()
        } else {
            "MQSC script".to_string()
        };
        ctx.info.variant = Some(f.config.source.clone());
        if ctx.info.qmgr.is_none() {
            ctx.info.qmgr = qmgr;
        }
        ctx.info.config = Some(Arc::new(f.config));
    }
}

/// The problems of an MQSC text: lines that start no command, a command
/// cut at the end, facts past the cap.
pub(crate) fn report(lines: &MqscLines, cut: Option<u64>, config: &ConfigFile, ctx: &mut FileCtx) {
    if lines.bad > 0 {
        ctx.info.problem(
            ProblemCode::BadLine,
            lines.first_bad,
            Severity::Warning,
            lines.bad,
            format!(
                "{} line(s) start no MQSC command (DEFINE, ALTER, SET, ...): skipped",
                lines.bad
            ),
        );
    }
    if let Some(no) = cut {
        ctx.info.problem(
            ProblemCode::CutRecord,
            Some(no),
            Severity::Warning,
            1,
            "the last MQSC command ends with a continuation: the file was cut; what it has is kept",
        );
    }
    if config.dropped > 0 {
        ctx.info.notes.push(format!(
            "{} configuration facts past the first {} were not kept",
            config.dropped,
            mqdiag_model::config::MAX_FACTS
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::line_source::LineReader;
    use crate::testkit;

    const DUMP: &str = "\
* Script generated on 2024-03-11   at 09.12.44
* Script generated by user 'mqm' on host 'mqhost1'
* Queue manager name: QM1
* Queue manager platform: UNIX
* Queue manager command level: (930/930)
* Command issued: dmpmqcfg -m QM1 -a
ALTER QMGR +
   CHLAUTH(ENABLED) +
   CONNAUTH('SYSTEM.DEFAULT.AUTHINFO.IDPWOS')
DEFINE CHANNEL('APP.SVRCONN') +
   CHLTYPE(SVRCONN) +
   DESCR('it''s the app') +
   MAXINST(20) +
   REPLACE
SET CHLAUTH('*') TYPE(BLOCKUSER) USERLIST('*MQADMIN','nobody') ACTION(REPLACE)
SET AUTHREC PROFILE('APP.*') PRINCIPAL('app') OBJTYPE(QUEUE) AUTHADD(GET,PUT,INQ)
not a command
DEFINE QLOCAL('CUT') +
";

    #[test]
    fn commands_with_continuations_quotes_and_lists() {
        let c = parse_command("SET CHLAUTH('*') TYPE(ADDRESSMAP) ADDRESS('*') USERSRC(NOACCESS) DESCR('Back-stop rule - Blocks everyone') ACTION(REPLACE)").unwrap();
        assert_eq!(
            (c.verb.as_str(), c.object.as_str(), c.name.as_str()),
            ("SET", "CHLAUTH", "*")
        );
        assert_eq!(c.attrs[0], ("TYPE".into(), "ADDRESSMAP".into()));
        assert_eq!(c.attrs[3].1, "Back-stop rule - Blocks everyone");
        let c = parse_command("define ql(Q1) maxdepth(5000) replace").unwrap();
        assert_eq!((c.object.as_str(), c.name.as_str()), ("QLOCAL", "Q1"));
        assert_eq!(c.attrs[1], ("REPLACE".into(), String::new()));
        assert!(parse_command("DISPLAY QLOCAL(*)").is_none());
        assert!(parse_command("DEFINE").is_none());
        // Unbalanced quotes and parentheses never panic.
        for s in [
            "DEFINE Q('x",
            "SET CHLAUTH(((",
            "ALTER QMGR DESCR(')')",
            "SET X ) ( ,,",
        ] {
            let _ = parse_command(s);
        }
    }

    #[test]
    fn a_dump_read_as_facts() {
        let reader = LineReader::<Mqsc>::new();
        assert_eq!(Mqsc::sniff("x", DUMP.as_bytes()), 95);
        let (evs, infos) = testkit::read(&reader, "QM1.dmp", DUMP, &Default::default());
        assert!(evs.is_empty());
        let i = &infos[0];
        let c = i.config.as_ref().unwrap();
        assert_eq!(c.scope, Scope::Qmgr("QM1".into()));
        assert_eq!(c.source, "dmpmqcfg dump");
        assert_eq!(c.facts.len(), 5, "{:#?}", c.facts);
        assert_eq!(c.facts[0].line, 7);
        assert_eq!(
            c.facts[0].item.attr("CONNAUTH"),
            Some("SYSTEM.DEFAULT.AUTHINFO.IDPWOS")
        );
        assert_eq!(c.facts[1].line, 10);
        assert_eq!(c.facts[1].item.attr("DESCR"), Some("it's the app"));
        assert_eq!(c.facts[1].item.attr("MAXINST"), Some("20"));
        assert_eq!(c.facts[2].item.attr("USERLIST"), Some("*MQADMIN,nobody"));
        assert!(matches!(&c.facts[3].item, Item::Command { name, .. } if name == "APP.*"));
        assert_eq!(c.facts[4].line, 18);
        let codes: Vec<_> = i.problems.iter().map(|p| (p.code, p.line)).collect();
        assert!(
            codes.contains(&(ProblemCode::BadLine, Some(17))),
            "{codes:?}"
        );
        assert!(
            codes.contains(&(ProblemCode::CutRecord, Some(18))),
            "{codes:?}"
        );
    }

    #[test]
    fn one_line_form_and_sniffing() {
        let one = "SET CHLAUTH('DEV.APP.SVRCONN') TYPE(ADDRESSMAP) ADDRESS('*') USERSRC(CHANNEL) CHCKCLNT(ASQMGR) ACTION(REPLACE)\nDEFINE QLOCAL('A') MAXDEPTH(10)\n";
        assert_eq!(Mqsc::sniff("x", one.as_bytes()), 85);
        assert_eq!(Mqsc::sniff("x", b"Channels:\n  MaxChannels=10\n"), 0);
        assert_eq!(Mqsc::sniff("x", b"AMQ9777E: Channel was blocked\n"), 0);
        assert_eq!(
            crate::input::qmgr_of_path("case.zip!var/mqm/qmgrs/QM!1/qm.ini"),
            Some("QM.1".into())
        );
        assert_eq!(crate::input::qmgr_of_path("x/qmgrs/qm.ini"), None);
        assert_eq!(crate::input::qmgr_of_path("qm.ini"), None);
    }

    /// runmqsc's replies, in the shape IBM's "runmqsc" and DISPLAY pages
    /// show them (two `KEYWORD(value)` pairs to a line).
    #[test]
    fn runmqsc_display_replies() {
        let text = "\
5724-H72 (C) Copyright IBM Corp. 1994, 2024.
Starting MQSC for queue manager QM7.


     1 : DISPLAY CHANNEL(APP.SVRCONN) ALL
AMQ8414I: Display Channel details.
   CHANNEL(APP.SVRCONN)                    CHLTYPE(SVRCONN)
   DESCR( )                                MAXINST(50)
   MAXINSTC(5)                             MCAUSER( )
   SSLCIPH(TLS_AES_256_GCM_SHA384)
     2 : DISPLAY CHLAUTH(*)
AMQ8878I: Display channel authentication record details.
   CHLAUTH(*)                              TYPE(ADDRESSMAP)
   ADDRESS(*)                              USERSRC(NOACCESS)
AMQ8147E: IBM MQ object NOPE not found.
     3 : DISPLAY QLOCAL(APP.Q) MAXDEPTH
AMQ8409I: Display Queue details.
   QUEUE(APP.Q)                            TYPE(QLOCAL)
   MAXDEPTH(5000)
3 MQSC commands read.
No commands have a syntax error.
All valid MQSC commands were processed.
";
        assert_eq!(Mqsc::sniff("x.txt", text.as_bytes()), 95);
        let reader = LineReader::<Mqsc>::new();
        let (_, infos) = testkit::read(&reader, "dis.txt", text, &Default::default());
        let i = &infos[0];
        assert_eq!(i.problem_count, 0, "{:?}", i.problems);
        let c = i.config.as_ref().unwrap();
        assert_eq!(c.scope, Scope::Qmgr("QM7".into()));
        assert_eq!(c.source, "runmqsc output");
        assert_eq!(c.facts.len(), 3, "{:#?}", c.facts);
        let ch = &c.facts[0];
        assert_eq!(ch.line, 6);
        assert!(matches!(&ch.item, Item::Command { verb, object, name, .. }
            if verb == "DISPLAY" && object == "CHANNEL" && name == "APP.SVRCONN"));
        assert_eq!(ch.item.attr("MAXINSTC"), Some("5"));
        assert_eq!(ch.item.attr("MCAUSER"), None, "blank is unset");
        assert_eq!(c.facts[1].item.attr("USERSRC"), Some("NOACCESS"));
        assert!(matches!(&c.facts[2].item, Item::Command { object, .. } if object == "QLOCAL"));
    }

    #[test]
    fn endless_continuations_stay_bounded() {
        let mut text = String::from("DEFINE QLOCAL('A') +\n");
        for _ in 0..20_000 {
            text.push_str("  DESCR('xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx') +\n");
        }
        let reader = LineReader::<Mqsc>::new();
        let (_, infos) = testkit::read(&reader, "a.mqsc", &text, &Default::default());
        let c = infos[0].config.as_ref().unwrap();
        assert_eq!(c.facts.len(), 1);
        assert!(c.facts[0].text.len() < 2 * mqdiag_model::config::MAX_TEXT);
    }
}
