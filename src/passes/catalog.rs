//! The pass behind the `channel-error` and `tls-error` rules. Which
//! messages they report, how severe each is, what it means and what to do
//! is data in the one message catalogue, `crate::catalog`.
//!
//! The pass shared by both rules groups records by message id, channel
//! and host, with counts and first/last times.

use super::{Pass, RuleInfo};
use crate::event::{Event, Kind, Ts};
use crate::findings::{Evidence, EvidenceSet, Finding, Metric, thousands};
use crate::fxhash::FxBuild;
use crate::source::{FileInfo, Severity};
use std::borrow::Borrow;
use std::collections::{BTreeMap, HashMap};
use std::hash::{Hash, Hasher};

pub use crate::catalog::Family;
// `lookup` here is the catalogue's rows some rule reports, with their words.
use crate::catalog::{base_id, reported as lookup};

/// Groups kept per rule; past this, further channel/host pairs of a message
/// are counted in one overflow group.
const MAX_GROUPS: usize = 2000;
/// Hosts of one message and channel reported apart; with more (a server
/// connection channel used by many clients, a scanner sweeping a
/// listener), they are one finding that names the busiest hosts.
const MAX_HOSTS_APART: usize = 5;
/// Hosts named in such a finding.
const HOSTS_NAMED: usize = 5;

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Key {
    /// Message number without the severity letter.
    id: String,
    qmgr: String,
    channel: String,
    host: String,
}

struct Group {
    msgid: String,
    /// For a message the catalogue does not know (the reader marked its
    /// family): what the record's own text says, and its severity.
    fallback: Option<(String, Severity)>,
    count: u64,
    first: Ts,
    last: Ts,
    evidence: EvidenceSet,
    last_ev: Option<Evidence>,
    reasons: BTreeMap<String, u64>,
    /// Hosts folded into this group, busiest first, and how many there were.
    hosts: Option<(Vec<(String, u64)>, usize)>,
}

impl Group {
    /// Count one more record of this group.
    fn record(&mut self, e: &Event) {
        self.count += 1;
        self.first = self.first.min(e.ts);
        self.last = self.last.max(e.ts);
        let ev = Evidence::from_event(e);
        if self.evidence.lines.len() < 3 {
            self.evidence.push(ev);
        } else {
            self.last_ev = Some(ev);
        }
        if let Some(r) = e.attr("reason")
            && (self.reasons.len() < 8 || self.reasons.contains_key(r))
        {
            *self.reasons.entry(r.to_string()).or_default() += 1;
        }
    }

    /// One group for many hosts' groups of one message and channel.
    fn fold(mut parts: Vec<(String, Group)>) -> Option<Group> {
        parts.sort_by(|a, b| b.1.count.cmp(&a.1.count).then(a.0.cmp(&b.0)));
        let n = parts.len();
        let named = parts
            .iter()
            .take(HOSTS_NAMED)
            .map(|(h, g)| (h.clone(), g.count))
            .collect();
        // The newest record of the host heard from last.
        let latest = parts.iter().max_by_key(|(_, g)| g.last).and_then(|(_, g)| {
            g.last_ev
                .clone()
                .or_else(|| g.evidence.lines.last().cloned())
        });
        let mut it = parts.into_iter();
        let (_, mut all) = it.next()?;
        // The first record of each of the busiest hosts, then the last one.
        all.evidence.lines.truncate(1);
        all.last_ev = None;
        for (_, g) in it {
            all.count += g.count;
            all.first = all.first.min(g.first);
            all.last = all.last.max(g.last);
            if all.evidence.lines.len() < 3
                && let Some(ev) = g.evidence.lines.into_iter().next()
            {
                all.evidence.push(ev);
            }
            for (r, c) in g.reasons {
                if all.reasons.len() < 8 || all.reasons.contains_key(&r) {
                    *all.reasons.entry(r).or_default() += c;
                }
            }
        }
        all.last_ev = latest;
        all.hosts = Some((named, n));
        Some(all)
    }
}

/// The pass behind `channel-error` and `tls-error`.
pub struct MessagePass {
    rule: &'static RuleInfo,
    family: Family,
    min_occurrences: u64,
    /// Each key's place in `slots`: hashed (the order only matters at the
    /// end), and the groups themselves stay put as more arrive.
    groups: HashMap<Key, usize, FxBuild>,
    slots: Vec<Group>,
}

impl MessagePass {
    pub fn new(rule: &'static RuleInfo, family: Family, min_occurrences: f64) -> Self {
        MessagePass {
            rule,
            family,
            min_occurrences: min_occurrences.max(1.0) as u64,
            groups: HashMap::default(),
            slots: Vec::new(),
        }
    }
}

fn clean(v: Option<&str>) -> &str {
    match v.map(str::trim) {
        Some("????") | None => "",
        Some(s) => s,
    }
}

/// A group key's fields, owned (`Key`) or borrowed (a tuple), so that the
/// map is searched without building a `Key`. Ordered as `Key` derives it.
trait KeyParts {
    fn parts(&self) -> (&str, &str, &str, &str);
}

impl Hash for Key {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.parts().hash(state)
    }
}

impl Hash for dyn KeyParts + '_ {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.parts().hash(state)
    }
}

impl KeyParts for Key {
    fn parts(&self) -> (&str, &str, &str, &str) {
        (&self.id, &self.qmgr, &self.channel, &self.host)
    }
}

impl KeyParts for (&str, &str, &str, &str) {
    fn parts(&self) -> (&str, &str, &str, &str) {
        *self
    }
}

impl PartialEq for dyn KeyParts + '_ {
    fn eq(&self, other: &Self) -> bool {
        self.parts() == other.parts()
    }
}

impl Eq for dyn KeyParts + '_ {}

impl PartialOrd for dyn KeyParts + '_ {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for dyn KeyParts + '_ {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.parts().cmp(&other.parts())
    }
}

impl<'a> Borrow<dyn KeyParts + 'a> for Key {
    fn borrow(&self) -> &(dyn KeyParts + 'a) {
        self
    }
}

impl Pass for MessagePass {
    fn observe(&mut self, e: &Event) {
        if e.kind != Kind::LogRecord {
            return;
        }
        let Some(msgid) = e.attr("msgid") else {
            return;
        };
        // The catalogue decides; for messages it does not know, the
        // family the error-log reader gave the record (`channel`, `tls`).
        let known = match lookup(msgid) {
            Some(m) if m.family == self.family => Some(m),
            Some(_) => return,
            None => {
                let fam = match e.attr("family") {
                    Some("channel") => Family::Channel,
                    Some("tls") => Family::Tls,
                    _ => return,
                };
                if fam != self.family || e.attr("severity") == Some("I") {
                    return;
                }
                None
            }
        };
        let id = match known {
            Some(m) => m.id,
            None => base_id(msgid.trim()),
        };
        let qmgr = clean(e.attr("qmgr"));
        let channel = clean(e.attr("channel"));
        let host = clean(
            e.attr("host")
                .or_else(|| e.attr("address"))
                .or_else(|| e.attr("conname")),
        );
        // Most records join a group that exists: find it by the borrowed
        // fields, and build the owned key only for a new group.
        let parts = (id, qmgr, channel, host);
        if let Some(&i) = self.groups.get(&parts as &dyn KeyParts) {
            self.slots[i].record(e);
            return;
        }
        let mut key = Key {
            id: id.to_string(),
            qmgr: qmgr.to_string(),
            channel: channel.to_string(),
            host: host.to_string(),
        };
        if self.groups.len() >= MAX_GROUPS {
            key.channel = "(other)".to_string();
            key.host = "(other)".to_string();
        }
        let slots = &mut self.slots;
        let i = *self.groups.entry(key).or_insert_with(|| {
            // For messages the catalogue does not know, the record's own
            // words and severity.
            let fallback = known.is_none().then(|| {
                let severity = match e.attr("severity") {
                    Some("W") => Severity::Warning,
                    _ => Severity::Error,
                };
                let text = e.text.split_once(": ").map_or(e.text.as_str(), |(_, t)| t);
                (text.trim().trim_end_matches('.').to_string(), severity)
            });
            slots.push(Group {
                msgid: msgid.trim().to_string(),
                fallback,
                count: 0,
                first: e.ts,
                last: e.ts,
                evidence: EvidenceSet::default(),
                last_ev: None,
                reasons: BTreeMap::new(),
                hosts: None,
            });
            slots.len() - 1
        });
        self.slots[i].record(e);
    }

    fn finish(&mut self, _inputs: &[FileInfo]) -> Vec<Finding> {
        let mut out = Vec::new();
        let mut slots: Vec<Option<Group>> = std::mem::take(&mut self.slots)
            .into_iter()
            .map(Some)
            .collect();
        let groups: BTreeMap<Key, Group> = std::mem::take(&mut self.groups)
            .into_iter()
            .filter_map(|(k, i)| Some((k, slots[i].take()?)))
            .collect();
        for (k, mut g) in fold_hosts(groups, self.min_occurrences) {
            let m = lookup(&k.id);
            // Known: the catalogue's words; unknown: the record's own.
            let (meaning, severity, advice) = match (m, &g.fallback) {
                (Some(m), _) => {
                    let short = m.meaning.split(" (").next().unwrap_or(m.meaning);
                    let short = short.split(':').next().unwrap_or(short).to_string();
                    (short, m.severity, format!("{}. {}", m.meaning, m.advice))
                }
                (None, Some((text, sev))) => (
                    text.clone(),
                    *sev,
                    format!(
                        "{text}. mqdiag has no specific advice for {}: read the message's \
                         EXPLANATION and ACTION in the log, and the other end's log at the same \
                         time.",
                        k.id
                    ),
                ),
                (None, None) => continue,
            };
            let mut at = Vec::new();
            if !k.channel.is_empty() {
                at.push(format!("channel '{}'", k.channel));
            }
            if !k.host.is_empty() {
                at.push(format!("host '{}'", k.host));
            }
            if let Some((_, n)) = &g.hosts {
                at.push(format!("{} hosts", thousands(*n as u64)));
            }
            let mut title = format!("{} {meaning}", g.msgid);
            if !at.is_empty() {
                title.push_str(&format!(", {}", at.join(", ")));
            }
            if g.count > 1 {
                title.push_str(&format!(": {} times", thousands(g.count)));
            }
            let mut f = Finding::new(self.rule.id, severity, title);
            f.first = Some(g.first);
            f.last = Some(g.last);
            f.count = g.count;
            f.key = k.id.to_string();
            if !k.channel.is_empty() {
                f.subject.channel = Some(k.channel.clone());
            }
            if !k.host.is_empty() {
                f.subject.host = Some(k.host.clone());
            }
            if !k.qmgr.is_empty() {
                f.subject.qmgr = Some(k.qmgr.clone());
            }
            f.metrics.set("message_id", Metric::Str(g.msgid.clone()));
            f.metrics.set("occurrences", Metric::int(g.count));
            if !g.reasons.is_empty() {
                let r: Vec<String> = g.reasons.iter().map(|(r, n)| format!("{r} x{n}")).collect();
                f.metrics.set("reasons", Metric::Str(r.join(", ")));
            }
            if let Some((named, n)) = &g.hosts {
                f.metrics.set("hosts", Metric::int(*n as u64));
                let h: Vec<String> = named.iter().map(|(h, c)| format!("{h} x{c}")).collect();
                f.metrics.set("busiest_hosts", Metric::Str(h.join(", ")));
            }
            if let Some(last) = g.last_ev.take() {
                g.evidence.push(last);
            }
            f.evidence = g.evidence.into_sorted();
            f.advice = advice;
            out.push(f);
        }
        out
    }
}

/// The groups worth reporting (at least `min` records), with the hosts of
/// one message, queue manager and channel folded into one group when there
/// are more than `MAX_HOSTS_APART` of them.
fn fold_hosts(groups: BTreeMap<Key, Group>, min: u64) -> Vec<(Key, Group)> {
    let mut out = Vec::new();
    let mut bucket: Vec<(Key, Group)> = Vec::new();
    let flush = |bucket: &mut Vec<(Key, Group)>, out: &mut Vec<(Key, Group)>| {
        if bucket.len() <= MAX_HOSTS_APART {
            out.append(bucket);
            return;
        }
        let mut key = bucket[0].0.clone();
        key.host = String::new();
        let parts = bucket.drain(..).map(|(k, g)| (k.host, g)).collect();
        if let Some(g) = Group::fold(parts) {
            out.push((key, g));
        }
    };
    // Keys sort by message, queue manager, channel, then host: one
    // message's and channel's hosts are neighbours.
    for (k, g) in groups {
        if g.count < min {
            continue;
        }
        let same = bucket
            .last()
            .is_some_and(|(b, _)| (&b.id, &b.qmgr, &b.channel) == (&k.id, &k.qmgr, &k.channel));
        // The overflow group and records without a host stay apart.
        if !same || k.host.is_empty() || k.host == "(other)" {
            flush(&mut bucket, &mut out);
        }
        if k.host.is_empty() || k.host == "(other)" {
            out.push((k, g));
        } else {
            bucket.push((k, g));
        }
    }
    flush(&mut bucket, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookup_strips_the_severity_letter() {
        assert_eq!(lookup("AMQ9202E").unwrap().id, "AMQ9202");
        assert_eq!(lookup("AMQ9202").unwrap().id, "AMQ9202");
        assert_eq!(lookup("CSQX209E").unwrap().family, Family::Channel);
        assert_eq!(lookup("AMQ9633E").unwrap().family, Family::Tls);
        assert!(lookup("AMQ9788W").is_none());
        assert!(lookup("AMQ5026I").is_none());
    }

    #[test]
    fn groups_beyond_the_limit_share_one_and_known_ones_still_count() {
        use crate::event::Format;
        use crate::passes::testutil::{origin, ts};
        let o = origin("AMQERR01.LOG", Format::ErrlogText);
        let mut pass = MessagePass::new(&crate::passes::channel_error::RULE, Family::Channel, 1.0);
        let event = |host: &str| {
            let mut e = Event::new(
                ts("2024-03-14T12:00:00Z"),
                o.clone(),
                1,
                Kind::LogRecord,
                "AMQ9209E: closed".to_string(),
            );
            e.set_attr("msgid", "AMQ9209E");
            e.set_attr("channel", "APP.SVRCONN");
            e.set_attr("host", host);
            e
        };
        for i in 0..MAX_GROUPS + 50 {
            pass.observe(&event(&format!("h{i}")));
        }
        pass.observe(&event("h0"));
        pass.observe(&event(" ???? "));
        assert_eq!(pass.groups.len(), MAX_GROUPS + 1);
        let count = |c: &str, h: &str| {
            let parts = ("AMQ9209", "", c, h);
            pass.slots[pass.groups[&parts as &dyn KeyParts]].count
        };
        assert_eq!(count("APP.SVRCONN", "h0"), 2);
        assert_eq!(count("(other)", "(other)"), 51);
    }
}
