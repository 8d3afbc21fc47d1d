//! Configuration found in a case: what a queue manager (or a client) was
//! told to do, each fact with the line that says it. Readers of `qm.ini`,
//! MQSC dumps, config maps and CCDTs fill a `ConfigFile` per file; the
//! analysis cites them beside the log lines they explain, and
//! `mqdiag config` prints them.

use serde::Serialize;

/// Whose configuration a file is.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(tag = "scope", content = "name", rename_all = "kebab-case")]
pub enum Scope {
    /// One queue manager's (its `qm.ini`, a dump whose header names it).
    Qmgr(String),
    /// The installation's, every queue manager's (`mqs.ini`).
    System,
    /// A client's (`mqclient.ini`, a CCDT).
    Client,
    /// Nothing says whose (an MQSC script without a header).
    Unknown,
}

impl Scope {
    pub fn qmgr(&self) -> Option<&str> {
        match self {
            Scope::Qmgr(q) => Some(q),
            _ => None,
        }
    }

    /// For people: `queue manager QM1`, `the installation`, ...
    pub fn describe(&self) -> String {
        match self {
            Scope::Qmgr(q) => format!("queue manager {q}"),
            Scope::System => "the installation (every queue manager)".to_string(),
            Scope::Client => "clients".to_string(),
            Scope::Unknown => "an unnamed queue manager".to_string(),
        }
    }
}

/// One fact: a setting of a stanza file, or an MQSC command.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Item {
    /// `Key=Value` under `Stanza:` (qm.ini, mqs.ini, mqclient.ini), or an
    /// environment variable of `qm.env` (stanza `env`).
    Setting {
        stanza: String,
        key: String,
        value: String,
    },
    /// `DEFINE CHANNEL(X) CHLTYPE(SVRCONN) ...`, `SET CHLAUTH('*') ...`,
    /// `ALTER QMGR ...`: the verb and object type upper-case, the name as
    /// written (unquoted), keywords upper-case with their values unquoted
    /// (a list keeps its commas: `USERLIST('a','b')` → `a,b`).
    Command {
        verb: String,
        object: String,
        name: String,
        /// In the order written (a JSON object in that order).
        #[serde(serialize_with = "attrs_as_object")]
        attrs: Vec<(String, String)>,
    },
}

fn attrs_as_object<S: serde::Serializer>(v: &[(String, String)], s: S) -> Result<S::Ok, S::Error> {
    s.collect_map(v.iter().map(|(k, v)| (k, v)))
}

impl Item {
    /// The value of keyword `key` of a command (`CHLTYPE`), or of a
    /// setting when `key` is its key.
    pub fn attr(&self, key: &str) -> Option<&str> {
        match self {
            Item::Command { attrs, .. } => attrs
                .iter()
                .find(|(k, _)| k.eq_ignore_ascii_case(key))
                .map(|(_, v)| v.as_str()),
            Item::Setting { key: k, value, .. } => k.eq_ignore_ascii_case(key).then_some(value),
        }
    }
}

/// A fact and where it is said.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Fact {
    /// 1-based line of the fact's first line in its file.
    pub line: u64,
    /// The fact as written, on one line (continuations joined), clipped.
    pub text: String,
    #[serde(flatten)]
    pub item: Item,
}

/// Longest `Fact::text` kept.
pub const MAX_TEXT: usize = 400;
/// Most facts kept of one file (a dump of 100,000 queues is read, and
/// says how many it left out).
pub const MAX_FACTS: usize = 50_000;

/// The configuration of one file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ConfigFile {
    pub scope: Scope,
    /// How the file says it (`qm.ini`, `dmpmqcfg dump`, `config map`).
    pub source: String,
    pub facts: Vec<Fact>,
    /// Facts past `MAX_FACTS`, not kept.
    pub dropped: u64,
}

impl ConfigFile {
    pub fn new(scope: Scope, source: &str) -> ConfigFile {
        ConfigFile {
            scope,
            source: source.to_string(),
            facts: Vec::new(),
            dropped: 0,
        }
    }

    pub fn push(&mut self, line: u64, text: &str, item: Item) {
        if self.facts.len() >= MAX_FACTS {
            self.dropped += 1;
            return;
        }
        let text = clip(text.trim());
        self.facts.push(Fact { line, text, item });
    }
}

/// `s` cut to `MAX_TEXT` characters, an ellipsis saying so.
fn clip(s: &str) -> String {
    match s.char_indices().nth(MAX_TEXT) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attrs_by_keyword_and_setting() {
        let c = Item::Command {
            verb: "DEFINE".into(),
            object: "CHANNEL".into(),
            name: "A".into(),
            attrs: vec![("CHLTYPE".into(), "SVRCONN".into())],
        };
        assert_eq!(c.attr("chltype"), Some("SVRCONN"));
        assert_eq!(c.attr("MAXINST"), None);
        let s = Item::Setting {
            stanza: "Channels".into(),
            key: "MaxChannels".into(),
            value: "200".into(),
        };
        assert_eq!(s.attr("maxchannels"), Some("200"));
        let mut f = ConfigFile::new(Scope::Qmgr("QM1".into()), "qm.ini");
        f.push(3, &"x".repeat(1000), s.clone());
        assert!(f.facts[0].text.chars().count() <= MAX_TEXT + 1);
        assert_eq!(Scope::System.qmgr(), None);
    }
}
