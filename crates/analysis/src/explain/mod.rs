//! Findings explained by the configuration found in the case: a rule
//! that can say *why* from a queue manager's `qm.ini`, MQSC dump, config
//! map or a client's CCDT declares an explainer (`RuleInfo::explain`);
//! after the passes finish, each of its findings is handed the case's
//! configuration (`ConfigSet`) and adds what it finds: the configuration's
//! file:line as evidence beside the logs', a metric, a sentence of advice.
//! A case without configuration files is left exactly as it was.

pub(crate) mod access_refused;
pub(crate) mod channel_settings;
pub(crate) mod chlauth;
pub(crate) mod resource_limit;
pub(crate) mod socket_buffer_size;

use mqdiag_model::config::{ConfigFile, Fact, Item, Scope};
use mqdiag_model::fileinfo::FileInfo;
use mqdiag_model::findings::{Evidence, Finding, MAX_EVIDENCE, Metric};
use std::collections::BTreeSet;

/// What a rule's explainer does to one finding with the case's
/// configuration.
pub(crate) type Explain = fn(&mut Finding, &ConfigSet);

/// A fact and the file that says it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Cited<'a> {
    pub(crate) path: &'a str,
    pub(crate) file: &'a ConfigFile,
    pub(crate) fact: &'a Fact,
}

impl Cited<'_> {
    pub(crate) fn evidence(&self) -> Evidence {
        Evidence {
            path: self.path.to_string(),
            line: self.fact.line,
            text: self.fact.text.clone(),
            offset: None,
        }
    }

    /// `qm.ini line 13` for sentences.
    pub(crate) fn at(&self) -> String {
        let name = self
            .path
            .rsplit(['/', '\\', '!'])
            .next()
            .unwrap_or(self.path);
        format!("{name} line {}", self.fact.line)
    }

    pub(crate) fn attr(&self, key: &str) -> Option<&str> {
        self.fact.item.attr(key)
    }
}

/// Every configuration file of the case.
#[derive(Debug, Default)]
pub(crate) struct ConfigSet<'a> {
    files: Vec<(&'a str, &'a ConfigFile)>,
}

impl<'a> ConfigSet<'a> {
    pub(crate) fn from_inputs(inputs: &'a [FileInfo]) -> ConfigSet<'a> {
        ConfigSet {
            files: inputs
                .iter()
                .filter_map(|i| Some((i.path.as_str(), &**i.config.as_ref()?)))
                .collect(),
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// The queue managers the configuration names.
    pub(crate) fn qmgrs(&self) -> BTreeSet<&'a str> {
        self.files
            .iter()
            .filter_map(|(_, f)| f.scope.qmgr())
            .collect()
    }

    /// Whether any MQSC definitions (a dump, a script, a config map's MQSC)
    /// are known for `qmgr`.
    pub(crate) fn has_definitions(&self, qmgr: Option<&str>) -> bool {
        self.facts(qmgr)
            .any(|c| matches!(c.fact.item, Item::Command { .. }) && c.file.scope != Scope::Client)
    }

    /// Whether any file of `qmgr`'s own is in the case (its qm.ini, a
    /// dump): the case is a collection of that queue manager, and what it
    /// lacks can be named.
    pub(crate) fn knows(&self, qmgr: Option<&str>) -> bool {
        self.facts(qmgr).any(|c| c.file.scope != Scope::System)
    }

    /// Whether a file of this kind (`qm.ini`) is known for `qmgr`.
    pub(crate) fn has_source(&self, qmgr: Option<&str>, source: &str) -> bool {
        let one = self.qmgrs().len() <= 1;
        self.files.iter().any(|(_, f)| {
            f.source == source
                && match (&f.scope, qmgr) {
                    (Scope::Qmgr(q), Some(want)) => q == want,
                    (Scope::Qmgr(_) | Scope::Unknown, None) | (Scope::Unknown, Some(_)) => one,
                    _ => false,
                }
        })
    }

    /// The queue manager a finding is about: its subject's, else the one
    /// its evidence lies under (`qmgrs/QM1/errors/...`), else the only one
    /// the configuration names.
    pub(crate) fn qmgr_of(&self, f: &Finding) -> Option<String> {
        if let Some(q) = &f.subject.qmgr {
            return Some(q.clone());
        }
        if let Some(q) = f
            .evidence
            .iter()
            .find_map(|e| mqdiag_readers::input::qmgr_of_path(&e.path))
        {
            return Some(q);
        }
        let qs = self.qmgrs();
        if qs.len() == 1 {
            return qs.into_iter().next().map(str::to_string);
        }
        // Several cases in one directory: the queue manager whose files lie
        // nearest the evidence (the same case's directory), if only one.
        let ev = f.evidence.first()?;
        let mut best: Option<(usize, &str)> = None;
        let mut tie = false;
        for (path, file) in &self.files {
            let Some(q) = file.scope.qmgr() else {
                continue;
            };
            let shared = shared_dirs(path, &ev.path);
            match best {
                Some((n, b)) if shared == n && b != q => tie = true,
                Some((n, _)) if shared <= n => {}
                _ => {
                    best = Some((shared, q));
                    tie = false;
                }
            }
        }
        match best {
            Some((n, q)) if n > 0 && !tie => Some(q.to_string()),
            _ => None,
        }
    }

    /// The facts that apply to `qmgr`: its own files', the installation's,
    /// and those of files that name no queue manager when the case has at
    /// most one. Clients' files are apart (`client_facts`).
    pub(crate) fn facts(&self, qmgr: Option<&str>) -> std::vec::IntoIter<Cited<'a>> {
        let one = self.qmgrs().len() <= 1;
        self.files
            .iter()
            .filter(move |(_, f)| match (&f.scope, qmgr) {
                (Scope::Qmgr(q), Some(want)) => q == want,
                (Scope::Qmgr(_), None) => one,
                (Scope::System, _) => true,
                (Scope::Unknown, _) => one,
                (Scope::Client, _) => false,
            })
            .flat_map(|(path, file)| {
                file.facts
                    .iter()
                    .map(move |fact| Cited { path, file, fact })
            })
            .collect::<Vec<_>>()
            .into_iter()
    }

    /// Facts of the clients' files (mqclient.ini, CCDTs) that may apply to
    /// a finding: its program is not one of the queue manager's own
    /// (`amqrmppa`, `amqz*`, ...), and no other configuration file lies nearer its
    /// evidence than the client's.
    pub(crate) fn client_facts_for(&self, f: &Finding) -> Vec<Cited<'a>> {
        let program = f.subject.program.as_deref().unwrap_or("");
        if is_qmgr_process(program) {
            return Vec::new();
        }
        let Some(ev) = f.evidence.first() else {
            return Vec::new();
        };
        let nearest = self
            .files
            .iter()
            .map(|(p, _)| shared_dirs(p, &ev.path))
            .max()
            .unwrap_or(0);
        self.files
            .iter()
            .filter(|(p, c)| c.scope == Scope::Client && shared_dirs(p, &ev.path) == nearest)
            .flat_map(|(path, file)| {
                file.facts
                    .iter()
                    .map(move |fact| Cited { path, file, fact })
            })
            .collect()
    }

    /// The last `Key=` of `Stanza:` for `qmgr` (a later line wins, as MQ
    /// reads them).
    pub(crate) fn setting(&self, qmgr: Option<&str>, stanza: &str, key: &str) -> Option<Cited<'a>> {
        self.facts(qmgr).rfind(|c| {
            matches!(&c.fact.item, Item::Setting { stanza: s, key: k, .. }
                if s.eq_ignore_ascii_case(stanza) && k.eq_ignore_ascii_case(key))
        })
    }

    /// The definitions of an object (`DEFINE`/`ALTER` of `objects` named
    /// `name`), in the order written; `name` `None` for the queue manager.
    pub(crate) fn object(
        &self,
        qmgr: Option<&str>,
        objects: &[&str],
        name: Option<&str>,
    ) -> Vec<Cited<'a>> {
        self.facts(qmgr)
            .filter(|c| match &c.fact.item {
                Item::Command {
                    verb,
                    object,
                    name: n,
                    ..
                } => {
                    matches!(verb.as_str(), "DEFINE" | "ALTER" | "DISPLAY")
                        && objects.iter().any(|o| o == object)
                        && name.is_none_or(|want| n == want)
                }
                _ => false,
            })
            .collect()
    }

    /// The value of `key` on an object, the definition that sets it last.
    pub(crate) fn object_attr(
        &self,
        qmgr: Option<&str>,
        objects: &[&str],
        name: Option<&str>,
        key: &str,
    ) -> Option<(Cited<'a>, &'a str)> {
        self.object(qmgr, objects, name)
            .into_iter()
            .rev()
            .find_map(|c| Some((c, c.fact.item.attr(key)?)))
    }

    /// A channel's definitions on every queue manager of the case (both
    /// ends of a channel share its name).
    pub(crate) fn channel_everywhere(&self, name: &str) -> Vec<Cited<'a>> {
        self.files
            .iter()
            .flat_map(|(path, file)| {
                file.facts
                    .iter()
                    .map(move |fact| Cited { path, file, fact })
            })
            .filter(|c| {
                matches!(&c.fact.item, Item::Command { object, name: n, verb, .. }
                if object == "CHANNEL" && n == name && matches!(verb.as_str(), "DEFINE" | "ALTER" | "DISPLAY"))
            })
            .collect()
    }
}

/// A process of the queue manager's own (channels, agents, listener), not
/// a client application (MQ's samples, `amqsputc`, are clients).
fn is_qmgr_process(program: &str) -> bool {
    const OWN: &[&str] = &[
        "amqrmppa", "runmqchl", "runmqlsr", "amqcrsta", "amqcrs6a", "amqpcsea",
    ];
    OWN.contains(&program) || program.starts_with("amqz") || program.starts_with("amqh")
}

/// How many leading directories two paths share.
fn shared_dirs(a: &str, b: &str) -> usize {
    let dirs = |p: &'_ str| -> Vec<String> {
        let mut v: Vec<String> = p.split(['/', '\\', '!']).map(str::to_string).collect();
        v.pop();
        v
    };
    dirs(a)
        .iter()
        .zip(dirs(b).iter())
        .take_while(|(x, y)| x == y)
        .count()
}

/// Configuration lines a finding cites at most.
const MAX_CONFIG_EVIDENCE: usize = 3;
/// Log lines a finding keeps however much configuration it cites.
const MIN_LOG_EVIDENCE: usize = 2;

/// What an explainer adds to a finding, added in one place so every rule
/// does it the same way.
pub(crate) struct Explained<'f> {
    f: &'f mut Finding,
    cited: usize,
    sentences: Vec<String>,
}

impl<'f> Explained<'f> {
    pub(crate) fn new(f: &'f mut Finding) -> Explained<'f> {
        Explained {
            f,
            cited: 0,
            sentences: Vec::new(),
        }
    }

    pub(crate) fn finding(&self) -> &Finding {
        self.f
    }

    /// Cite a configuration line. Evidence keeps its cap: a full list
    /// gives up its last log lines (never below two) to the configuration,
    /// which says why.
    pub(crate) fn cite(&mut self, c: &Cited) {
        let ev = c.evidence();
        if self.cited >= MAX_CONFIG_EVIDENCE || self.f.evidence.contains(&ev) {
            return;
        }
        let logs = self.f.evidence.len() - self.cited;
        if self.f.evidence.len() >= MAX_EVIDENCE {
            if logs <= MIN_LOG_EVIDENCE {
                return;
            }
            self.f.evidence.remove(logs - 1);
        }
        self.f.evidence.push(ev);
        self.cited += 1;
    }

    pub(crate) fn metric(&mut self, name: &str, v: Metric) {
        self.f.metrics.set(name, v);
    }

    pub(crate) fn say(&mut self, sentence: String) {
        self.sentences.push(sentence);
    }
}

impl Drop for Explained<'_> {
    fn drop(&mut self) {
        if self.sentences.is_empty() {
            return;
        }
        let add = self.sentences.join(" ");
        if self.f.advice.is_empty() {
            self.f.advice = add;
        } else {
            self.f.advice = format!(
                "{} From the case's configuration: {add}",
                self.f.advice.trim_end()
            );
        }
    }
}

/// Each finding of a rule that explains, with the case's configuration;
/// nothing when the case has none.
pub(crate) fn explain_all(findings: &mut [Finding], inputs: &[FileInfo]) {
    let set = ConfigSet::from_inputs(inputs);
    if set.is_empty() {
        return;
    }
    for f in findings.iter_mut() {
        let explain = crate::passes::RULES
            .iter()
            .find(|r| r.id == f.rule)
            .and_then(|r| r.explain);
        if let Some(explain) = explain {
            explain(f, &set);
        }
    }
}

#[cfg(test)]
pub(crate) mod testutil {
    use mqdiag_model::config::{ConfigFile, Scope};
    use mqdiag_model::fileinfo::FileInfo;
    use std::sync::Arc;

    /// A configuration file's row as a reader leaves it, from facts made by
    /// `item` (`Setting`/`Command`) lines.
    pub(crate) fn config_input(
        path: &str,
        scope: Scope,
        facts: &[(u64, &str, mqdiag_model::config::Item)],
    ) -> FileInfo {
        let mut c = ConfigFile::new(scope, "test");
        for (line, text, item) in facts {
            c.push(*line, text, item.clone());
        }
        let mut i = FileInfo::new(path, mqdiag_model::event::Format::UNKNOWN, 0);
        i.config = Some(Arc::new(c));
        i
    }

    pub(crate) fn setting(stanza: &str, key: &str, value: &str) -> mqdiag_model::config::Item {
        mqdiag_model::config::Item::Setting {
            stanza: stanza.into(),
            key: key.into(),
            value: value.into(),
        }
    }

    pub(crate) fn command(
        verb: &str,
        object: &str,
        name: &str,
        attrs: &[(&str, &str)],
    ) -> mqdiag_model::config::Item {
        mqdiag_model::config::Item::Command {
            verb: verb.into(),
            object: object.into(),
            name: name.into(),
            attrs: attrs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::testutil::*;
    use super::*;

    #[test]
    fn facts_by_queue_manager() {
        let inputs = vec![
            config_input(
                "a/qmgrs/QM1/qm.ini",
                Scope::Qmgr("QM1".into()),
                &[(
                    3,
                    "MaxChannels=10",
                    setting("Channels", "MaxChannels", "10"),
                )],
            ),
            config_input(
                "b/qmgrs/QM2/qm.ini",
                Scope::Qmgr("QM2".into()),
                &[(
                    4,
                    "MaxChannels=20",
                    setting("Channels", "MaxChannels", "20"),
                )],
            ),
            config_input(
                "mqs.ini",
                Scope::System,
                &[(9, "MaxChannels=99", setting("AllQueueManagers", "X", "1"))],
            ),
        ];
        let set = ConfigSet::from_inputs(&inputs);
        let c = set.setting(Some("QM2"), "CHANNELS", "maxchannels").unwrap();
        assert_eq!((c.fact.line, c.at()), (4, "qm.ini line 4".to_string()));
        // Two queue managers and no name: no guess.
        assert!(set.setting(None, "Channels", "MaxChannels").is_none());
        let mut f = Finding::new(
            "resource-limit",
            mqdiag_model::problem::Severity::Error,
            "x",
        );
        f.evidence.push(Evidence {
            path: "case.zip!var/mqm/qmgrs/QM1/errors/AMQERR01.LOG".into(),
            line: 1,
            text: String::new(),
            offset: None,
        });
        assert_eq!(set.qmgr_of(&f).as_deref(), Some("QM1"));
        assert!(!set.has_definitions(Some("QM1")));
        // Evidence beside one queue manager's files, outside `qmgrs/`.
        f.evidence[0].path = "b/trace/AMQ1.0.FMT".into();
        assert_eq!(set.qmgr_of(&f).as_deref(), Some("QM2"));
        f.evidence[0].path = "c/trace/AMQ1.0.FMT".into();
        assert_eq!(set.qmgr_of(&f), None);
    }

    #[test]
    fn sentences_join_the_advice_once() {
        let mut f = Finding::new("r", mqdiag_model::problem::Severity::Error, "x");
        f.advice = "Raise it.".into();
        {
            let mut e = Explained::new(&mut f);
            e.say("qm.ini line 3 sets MaxChannels=10.".into());
        }
        assert_eq!(
            f.advice,
            "Raise it. From the case's configuration: qm.ini line 3 sets MaxChannels=10."
        );
        {
            let _ = Explained::new(&mut f);
        }
        assert!(f.advice.ends_with("MaxChannels=10."));
    }

    #[test]
    fn configuration_takes_the_last_log_lines_of_a_full_list() {
        let mut f = Finding::new("r", mqdiag_model::problem::Severity::Error, "x");
        for line in 1..=MAX_EVIDENCE as u64 {
            f.evidence.push(Evidence {
                path: "AMQERR01.LOG".into(),
                line,
                text: String::new(),
                offset: None,
            });
        }
        let file = ConfigFile::new(Scope::Unknown, "qm.ini");
        let facts: Vec<Fact> = (10..15)
            .map(|line| Fact {
                line,
                text: format!("K{line}=1"),
                item: testutil::setting("S", &format!("K{line}"), "1"),
            })
            .collect();
        let mut e = Explained::new(&mut f);
        for fact in &facts {
            e.cite(&Cited {
                path: "qm.ini",
                file: &file,
                fact,
            });
        }
        drop(e);
        let lines: Vec<(String, u64)> = f
            .evidence
            .iter()
            .map(|e| (e.path.clone(), e.line))
            .collect();
        assert_eq!(f.evidence.len(), MAX_EVIDENCE);
        assert_eq!(
            &lines[..3],
            &[
                ("AMQERR01.LOG".into(), 1),
                ("AMQERR01.LOG".into(), 2),
                ("AMQERR01.LOG".into(), 3)
            ]
        );
        assert_eq!(
            lines[3..].iter().map(|l| l.1).collect::<Vec<_>>(),
            vec![10, 11, 12]
        );
    }
}
