//! MQ's stanza files: `qm.ini` (one queue manager's), `mqs.ini` (the
//! installation's), `mqclient.ini` (a client's), and the other `.ini` files
//! of a data directory (`mqat.ini`, `qmstatus.ini`, `mqinst.ini`); also
//! `qm.env` (`NAME=value` lines). IBM documentation, "Configuration file
//! stanzas" / "qm.ini stanzas": a stanza is a name and a colon at the start
//! of a line, then indented `Key=Value` lines; `#` and `;` start comments.
//!
//! Each setting is a configuration fact with its line; the file gives no
//! events. Which queue manager a `qm.ini` is for comes from its directory
//! (`qmgrs/<name>/qm.ini`) or its `Log:` stanza's `LogPath`. A
//! `QMErrorLog:` stanza that excludes or suppresses messages is a reading
//! note naming the rules that cannot see them.

use super::line_source::{FileCtx, LineFormat, Standalone};
use crate::input::Input;
use crate::lines::LineMeta;
use mqdiag_model::config::{ConfigFile, Item, Scope};
use mqdiag_model::event::Format;
use mqdiag_model::problem::{ProblemCode, Severity};
use mqdiag_model::text::{decode_line, looks_like_text};
use std::sync::Arc;

/// MQ's stanza files: configuration, no events.
pub static FORMAT: Format = Format::of(&mqdiag_model::event::FormatInfo {
    name: "mq-ini",
    family: mqdiag_model::event::FormatFamily::Config,
    states_local_time: false,
    dataset: "ibmmq.config",
    host_is_writer: false,
});

/// Stanza names of MQ's files (IBM's stanza pages); one of them tells the
/// file from any other ini file.
const STANZAS: &[&str] = &[
    "AllQueueManagers",
    "DefaultQueueManager",
    "QueueManager",
    "ExitProperties",
    "LogDefaults",
    "Log",
    "Channels",
    "TCP",
    "LU62",
    "NETBIOS",
    "SPX",
    "ExitPath",
    "QMErrorLog",
    "SSL",
    "TuningParameters",
    "Service",
    "ServiceComponent",
    "XAResourceManager",
    "ApiExitLocal",
    "ApiExitCommon",
    "ApiExitTemplate",
    "AccessMode",
    "Security",
    "RestrictedMode",
    "Subpool",
    "Filesystem",
    "InstanceData",
    "Broker",
    "CHANNELS",
    "ClientExitPath",
    "MessageBuffer",
    "PreConnect",
    "AllActivityTrace",
    "ApplicationTrace",
    "AMQP",
    "DiagnosticMessages",
    "DiagnosticSystemMessages",
    "NativeHALocalInstance",
    "NativeHAInstance",
    "CrossRegion",
    "Variables",
    "Installation",
    "InstallationName",
];

/// A stanza file read line by line into a `ConfigFile`; shared with the
/// config maps, whose blocks may be ini files.
#[derive(Default)]
pub(crate) struct IniLines {
    stanza: Option<String>,
    /// Settings outside any stanza go under this name (`env` for qm.env).
    pub(crate) loose: Option<&'static str>,
    pub(crate) bad: u64,
    pub(crate) first_bad: Option<u64>,
    pub(crate) settings: u64,
    /// `LogPath` of the `Log:` stanza (names the queue manager).
    pub(crate) log_path: Option<String>,
}

impl IniLines {
    pub(crate) fn line(&mut self, no: u64, line: &str, out: &mut ConfigFile) {
        let t = uncomment(line);
        if t.is_empty() {
            return;
        }
        if let Some(name) = t.strip_suffix(':')
            && !name.contains('=')
            && !name.is_empty()
            && !name.contains(char::is_whitespace)
        {
            self.stanza = Some(name.to_string());
            return;
        }
        let Some((k, v)) = t.split_once('=') else {
            self.bad += 1;
            self.first_bad.get_or_insert(no);
            return;
        };
        let key = k.trim();
        if key.is_empty() || key.contains(char::is_whitespace) {
            self.bad += 1;
            self.first_bad.get_or_insert(no);
            return;
        }
        let Some(stanza) = self.stanza.as_deref().or(self.loose) else {
            self.bad += 1;
            self.first_bad.get_or_insert(no);
            return;
        };
        let value = v.trim();
        if stanza == "Log" && key.eq_ignore_ascii_case("LogPath") {
            self.log_path = Some(value.to_string());
        }
        self.settings += 1;
        out.push(
            no,
            t,
            Item::Setting {
                stanza: stanza.to_string(),
                key: key.to_string(),
                value: value.to_string(),
            },
        );
    }
}

/// A line without its comment: `;` starts one anywhere, `#` at the start
/// or after a blank (IBM's example qm.ini: `MaxChannels = 20 ; Maximum
/// number of channels allowed.`, `TCP: ; TCP/IP entries.`).
fn uncomment(line: &str) -> &str {
    let mut end = line.find(';').unwrap_or(line.len());
    let b = line.as_bytes();
    if let Some(i) =
        (0..end).find(|&i| b[i] == b'#' && (i == 0 || b[i - 1] == b' ' || b[i - 1] == b'\t'))
    {
        end = i;
    }
    line[..end].trim()
}

/// Whose file it is, by its name and place.
fn scope_of(path: &str, name: &str, log_path: Option<&str>) -> (Scope, &'static str) {
    let lower = name.to_ascii_lowercase();
    match lower.as_str() {
        "mqs.ini" => (Scope::System, "mqs.ini"),
        "mqclient.ini" => (Scope::Client, "mqclient.ini"),
        "mqinst.ini" => (Scope::System, "mqinst.ini"),
        _ => {
            let source = match lower.as_str() {
                "qm.ini" => "qm.ini",
                "qm.env" => "qm.env",
                "mqat.ini" => "mqat.ini",
                "qmstatus.ini" => "qmstatus.ini",
                _ => "ini file",
            };
            let qm = crate::input::qmgr_of_path(path).or_else(|| {
                // LogPath=/var/mqm/log/QM1/
                let p = log_path?.trim_end_matches(['/', '\\']);
                let last = p.rsplit(['/', '\\']).next()?;
                (!last.is_empty()).then(|| last.replace('!', "."))
            });
            (qm.map_or(Scope::Unknown, Scope::Qmgr), source)
        }
    }
}

/// Rules that read each message id a `QMErrorLog` stanza may exclude:
/// what a report cannot see when it is excluded.
fn blind_rules(id: u32) -> Option<&'static str> {
    crate::catalog::rule_of_message(&format!("AMQ{id}"))
}

/// The reading notes of `QMErrorLog: ExcludeMessage=` and
/// `SuppressMessage=` (IBM "QMErrorLog stanza": excluded messages are not
/// written; suppressed ones once per `SuppressInterval`).
fn suppression_notes(config: &ConfigFile) -> Vec<String> {
    let who = config.scope.describe();
    let mut notes = Vec::new();
    for f in &config.facts {
        let Item::Setting { stanza, key, value } = &f.item else {
            continue;
        };
        if !stanza.eq_ignore_ascii_case("QMErrorLog") {
            continue;
        }
        let how = if key.eq_ignore_ascii_case("ExcludeMessage") {
            "excluded (never written)"
        } else if key.eq_ignore_ascii_case("SuppressMessage") {
            "suppressed (written once per SuppressInterval)"
        } else {
            continue;
        };
        let mut blind = Vec::new();
        let mut other = Vec::new();
        for id in value
            .split(',')
            .filter_map(|v| v.trim().parse::<u32>().ok())
        {
            match blind_rules(id) {
                Some(r) => blind.push(format!("AMQ{id} ({r})")),
                None => other.push(format!("AMQ{id}")),
            }
        }
        if blind.is_empty() && other.is_empty() {
            continue;
        }
        let mut n = format!(
            "line {}: {who} has messages {how} by QMErrorLog {key}",
            f.line
        );
        if !blind.is_empty() {
            n.push_str(&format!(
                "; rules read these, so their absence is not evidence: {}",
                blind.join(", ")
            ));
        }
        if !other.is_empty() {
            n.push_str(&format!("; also {}", other.join(", ")));
        }
        notes.push(n);
    }
    notes
}

/// The format's specifics: `LineReader<MqIni>` is its reader.
pub(crate) struct MqIni;

pub(crate) struct IniFile {
    lines: IniLines,
    config: ConfigFile,
    name: String,
}

fn is_env_name(name: &str) -> bool {
    name.eq_ignore_ascii_case("qm.env")
}

impl Standalone for MqIni {
    const FORMAT: Format = FORMAT;
    const FUZZ: super::Fuzz = super::Fuzz {
        target: "mq_ini",
        names: &["qm.ini", "mqclient.ini", "qm.env"],
    };
    const SNIFF_CEILING: u8 = 90;

    fn sniff(name: &str, head: &[u8]) -> u8 {
        if head.is_empty() || !looks_like_text(head) {
            return 0;
        }
        let text = mqdiag_model::text::utf8_lossy(head);
        let (mut known, mut settings, mut other) = (0usize, 0usize, 0usize);
        for l in text.lines().take(80) {
            let t = uncomment(l);
            if t.is_empty() {
                continue;
            }
            if let Some(s) = t.strip_suffix(':') {
                if STANZAS.iter().any(|k| k.eq_ignore_ascii_case(s)) {
                    known += 1;
                } else {
                    other += 1;
                }
            } else if t.split_once('=').is_some_and(|(k, _)| {
                !k.trim().is_empty() && !k.trim().contains(char::is_whitespace)
            }) {
                settings += 1;
            } else {
                other += 1;
            }
        }
        let lower = name.to_ascii_lowercase();
        let named = lower.ends_with(".ini");
        if is_env_name(name) && settings > 0 && other == 0 {
            return 70;
        }
        match (known, settings) {
            (0, _) | (_, 0) => 0,
            _ if other > known + settings => 20,
            _ if named => 90,
            _ => 75,
        }
    }

    fn new(_: super::Prepared) -> MqIni {
        MqIni
    }
}

impl LineFormat for MqIni {
    type File = IniFile;

    fn open_file(&mut self, input: &Input, _ctx: &mut FileCtx) -> IniFile {
        let lines = IniLines {
            loose: is_env_name(&input.name).then_some("env"),
            ..Default::default()
        };
        IniFile {
            lines,
            config: ConfigFile::new(Scope::Unknown, "ini file"),
            name: input.name.clone(),
        }
    }

    fn line(&mut self, f: &mut IniFile, _ctx: &mut FileCtx, meta: LineMeta, bytes: &[u8]) {
        let text = decode_line(bytes).0;
        f.lines.line(meta.no, &text, &mut f.config);
    }

    fn finish_file(&mut self, mut f: IniFile, ctx: &mut FileCtx) {
        if f.lines.bad > 0 {
            ctx.info.problem(
                ProblemCode::BadLine,
                f.lines.first_bad,
                Severity::Warning,
                f.lines.bad,
                format!(
                    "{} line(s) are neither a stanza (`Name:`) nor a setting (`Key=Value`) under one: skipped",
                    f.lines.bad
                ),
            );
        }
        let (scope, source) = scope_of(&ctx.info.path, &f.name, f.lines.log_path.as_deref());
        f.config.scope = scope;
        f.config.source = source.to_string();
        ctx.info.variant = Some(source.to_string());
        if let Some(q) = f.config.scope.qmgr()
            && ctx.info.qmgr.is_none()
        {
            ctx.info.qmgr = Some(q.to_string());
        }
        ctx.info.notes.extend(suppression_notes(&f.config));
        if f.config.dropped > 0 {
            ctx.info.notes.push(format!(
                "{} settings past the first {} were not kept",
                f.config.dropped,
                mqdiag_model::config::MAX_FACTS
            ));
        }
        ctx.info.config = Some(Arc::new(f.config));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::line_source::LineReader;
    use crate::testkit;

    const QM_INI: &str = "\
#*******************************************************************#
#* Module Name: qm.ini                                             *#
#*******************************************************************#
ExitPath:
   ExitsDefaultPath=/var/mqm/exits/
Log:
   LogPrimaryFiles=3
   LogSecondaryFiles=2
   LogFilePages=4096
   LogType=CIRCULAR
   LogPath=/var/mqm/log/QM1/
Channels:
   MaxChannels=200
   MaxActiveChannels=100
TCP:
   SndBuffSize=2048
   RcvBuffSize=32768
QMErrorLog:
   ExcludeMessage=9777,9001,7234
garbage line
";

    #[test]
    fn stanzas_settings_and_owner() {
        assert_eq!(MqIni::sniff("qm.ini", QM_INI.as_bytes()), 90);
        assert_eq!(MqIni::sniff("x", QM_INI.as_bytes()), 75);
        assert_eq!(MqIni::sniff("x.ini", b"[section]\nkey=value\n"), 0);
        assert_eq!(MqIni::sniff("qm.env", b"MQ_X=1\nAMQ_Y=2\n"), 70);
        let reader = LineReader::<MqIni>::new();
        let (evs, infos) = testkit::read(&reader, "qm.ini", QM_INI, &Default::default());
        assert!(evs.is_empty());
        let i = &infos[0];
        let c = i.config.as_ref().unwrap();
        assert_eq!(c.scope, Scope::Qmgr("QM1".into()), "from LogPath");
        assert_eq!(c.source, "qm.ini");
        assert_eq!(c.facts.len(), 11);
        let max = c
            .facts
            .iter()
            .find(|f| f.item.attr("MaxChannels").is_some())
            .unwrap();
        assert_eq!((max.line, max.text.as_str()), (13, "MaxChannels=200"));
        assert_eq!(i.problems[0].line, Some(20));
        assert_eq!(i.notes.len(), 1, "{:?}", i.notes);
        assert!(
            i.notes[0].contains("AMQ9777 (access-refused)"),
            "{}",
            i.notes[0]
        );
        assert!(i.notes[0].contains("queue manager QM1"), "{}", i.notes[0]);
    }

    /// The shape of IBM's "Example qm.ini file for IBM i": no indentation,
    /// blanks around `=`, comments after values and stanza names.
    #[test]
    fn inline_comments_and_unindented_settings() {
        let text = "CHANNELS:\nMaxChannels = 20       ; Maximum number of channels allowed.\n                       ; Default is 100.\nTCP:                   ; TCP/IP entries.\nSvrSndBuffSize=20000   ; Size in bytes\n";
        assert_eq!(MqIni::sniff("qm.ini", text.as_bytes()), 90);
        let reader = LineReader::<MqIni>::new();
        let (_, infos) = testkit::read(&reader, "qmgrs/QMSATURN/qm.ini", text, &Default::default());
        let c = infos[0].config.as_ref().unwrap();
        assert_eq!(c.scope, Scope::Qmgr("QMSATURN".into()));
        assert_eq!(c.facts.len(), 2);
        assert_eq!(
            c.facts[0].item,
            Item::Setting {
                stanza: "CHANNELS".into(),
                key: "MaxChannels".into(),
                value: "20".into()
            }
        );
        assert_eq!(c.facts[1].item.attr("SvrSndBuffSize"), Some("20000"));
        assert_eq!(infos[0].problem_count, 0);
    }

    #[test]
    fn owner_by_directory_and_kind() {
        assert_eq!(
            scope_of("c.zip!var/mqm/qmgrs/QM2/qm.ini", "qm.ini", None).0,
            Scope::Qmgr("QM2".into())
        );
        assert_eq!(
            scope_of("var/mqm/mqs.ini", "mqs.ini", None).0,
            Scope::System
        );
        assert_eq!(
            scope_of("mqclient.ini", "mqclient.ini", None).0,
            Scope::Client
        );
        assert_eq!(scope_of("qm.ini", "qm.ini", None).0, Scope::Unknown);
    }
}
