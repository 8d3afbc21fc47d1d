//! The message catalogue the `channel-error` and `tls-error` rules use:
//! which error-log and z/OS channel-initiator messages they report, how
//! severe each is, what it means and what to do. Data, not code: add a
//! message here. `verified` says whether the wording was seen in a real
//! log or IBM document (see `shared/formats/error-log.md` §2.2, §7).
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

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    Channel,
    Tls,
}

pub struct Message {
    /// Message number without the severity letter (`AMQ9202`, `CSQX209`).
    pub id: &'static str,
    pub family: Family,
    pub severity: Severity,
    pub meaning: &'static str,
    pub advice: &'static str,
    pub verified: bool,
}

const fn m(
    id: &'static str,
    family: Family,
    severity: Severity,
    meaning: &'static str,
    advice: &'static str,
    verified: bool,
) -> Message {
    Message {
        id,
        family,
        severity,
        meaning,
        advice,
        verified,
    }
}

use Family::{Channel, Tls};
use Severity::{Error, Warning};

pub static MESSAGES: &[Message] = &[
    m(
        "AMQ9202",
        Channel,
        Error,
        "Remote host not available: the TCP connect failed",
        "Check that the listener runs on the remote host and port, that the CONNAME is right, and that no firewall drops the connect; the TCP/IP return code in the message says refused, timed out or unreachable. A full listener backlog gives the same error (ListenerBacklog in the TCP stanza).",
        true,
    ),
    m(
        "AMQ9203",
        Channel,
        Error,
        "TCP/IP configuration error, usually a host name that cannot be resolved",
        "Check the host name in the CONNAME and the resolver (see slow-dns); use a dotted IP address if the name is not needed.",
        false,
    ),
    m(
        "AMQ9206",
        Channel,
        Error,
        "Error sending data to the host (the connection broke)",
        "The connection was reset while sending: look for a firewall or load balancer that drops idle or long connections, and set heartbeats (HBINT) and TCP KeepAlive below its idle timeout.",
        false,
    ),
    m(
        "AMQ9207",
        Channel,
        Warning,
        "Data received from the host is not valid (port scanner, TLS/plain mismatch, non-MQ traffic)",
        "If the address is a scanner or monitoring probe, ask for it to be excluded or block it with CHLAUTH; if it is a real client, check that both ends agree on TLS.",
        true,
    ),
    m(
        "AMQ9208",
        Channel,
        Error,
        "Error on receive from the host (connection reset by peer)",
        "The peer or a device in between reset the connection (ECONNRESET: 104 Linux, 73 AIX, 10054 Windows): check firewall idle timeouts, set heartbeats (HBINT) and KeepAlive, and look at the other end's error log at the same time.",
        true,
    ),
    m(
        "AMQ9209",
        Channel,
        Warning,
        "Connection to the host closed by the other end",
        "Bursts from one address are usually a port scanner or load-balancer health check connecting to the listener; otherwise look at the other end's error log at the same time.",
        true,
    ),
    m(
        "AMQ9213",
        Channel,
        Error,
        "A TCP/IP call (socket, bind, listen, ...) failed",
        "The message names the failing call and its return code: a port already in use, missing permissions or exhausted file descriptors are the usual causes.",
        false,
    ),
    m(
        "AMQ9259",
        Channel,
        Error,
        "Connection timed out from the host",
        "The client could not connect in time: check the network path, the listener, and the connect timeout.",
        false,
    ),
    m(
        "AMQ9271",
        Channel,
        Error,
        "Channel timed out: no data or heartbeat within the expected time",
        "The network stalled or the partner stopped responding: compare HBINT and the receive timeout on both ends, and check the network at that time.",
        true,
    ),
    m(
        "AMQ9503",
        Channel,
        Error,
        "Channel negotiation failed",
        "The two ends disagree on an attribute (channel type, sequence wrap, TLS cipher); the other end's error log names it.",
        false,
    ),
    m(
        "AMQ9507",
        Channel,
        Error,
        "Channel is in doubt",
        "Resolve the in-doubt batch with RESOLVE CHANNEL after checking the partner; it usually follows a network break during a batch.",
        false,
    ),
    m(
        "AMQ9513",
        Channel,
        Error,
        "Maximum number of channels reached",
        "MaxChannels / MaxActiveChannels in the CHANNELS stanza are exhausted: look for connection churn or leaking clients before raising the limits.",
        false,
    ),
    m(
        "AMQ9526",
        Channel,
        Error,
        "Message sequence number error",
        "The two ends disagree on the sequence number: RESET CHANNEL on the sending end after checking no messages are lost.",
        false,
    ),
    m(
        "AMQ9544",
        Channel,
        Error,
        "Messages could not be put to the destination queue (dead-letter queue used)",
        "Check the dead-letter queue and its reason codes (queue full, put inhibited, unknown queue).",
        false,
    ),
    m(
        "AMQ9558",
        Channel,
        Error,
        "Remote channel is not available",
        "The partner channel is stopped or not defined on the remote queue manager.",
        false,
    ),
    m(
        "AMQ9999",
        Channel,
        Error,
        "Channel ended abnormally",
        "A generic end: the record just before it from the same process (pid.tid) says why.",
        true,
    ),
    m(
        "CSQX207",
        Channel,
        Warning,
        "Invalid data received (z/OS)",
        "A non-MQ or wrong-protocol connection reached the channel initiator: identify the address.",
        false,
    ),
    m(
        "CSQX209",
        Channel,
        Error,
        "Connection unexpectedly terminated (z/OS)",
        "The partner or the network ended the connection: check the partner's logs and firewalls at that time.",
        true,
    ),
    m(
        "CSQX489",
        Channel,
        Error,
        "Maximum instances or retries exceeded (z/OS)",
        "MAXINST/MAXINSTC or retry limits were reached: look for connection churn or clients that do not disconnect.",
        false,
    ),
    m(
        "CSQX504",
        Channel,
        Error,
        "Local protocol error (z/OS)",
        "A client used an invalid protocol: identify the address (CSQSNAP has the data).",
        false,
    ),
    m(
        "CSQX599",
        Channel,
        Error,
        "Channel ended abnormally (z/OS)",
        "See the preceding channel-initiator messages for the cause.",
        false,
    ),
    m(
        "CSQX777",
        Channel,
        Warning,
        "Channel blocked by a CHLAUTH rule (z/OS)",
        "A connection was refused by channel authentication: intended for blocked clients; otherwise review the CHLAUTH rules.",
        false,
    ),
    m(
        "AMQ9631",
        Tls,
        Error,
        "CipherSpec negotiated does not match the channel's required CipherSpec",
        "Set the same SSLCIPH on both channel definitions (or ANY_TLS12_OR_HIGHER where supported) and restart both ends.",
        false,
    ),
    m(
        "AMQ9633",
        Tls,
        Error,
        "Bad TLS certificate for the channel",
        "The peer's certificate failed validation (expired, untrusted issuer, revoked); the inserts hold the GSKit reason: fix the certificate or the trust store.",
        true,
    ),
    m(
        "AMQ9635",
        Tls,
        Error,
        "Channel did not specify a valid CipherSpec",
        "Set a CipherSpec that both ends support.",
        false,
    ),
    m(
        "AMQ9636",
        Tls,
        Error,
        "TLS distinguished name does not match the peer name (SSLPEER)",
        "Correct SSLPEER on the channel or the matching CHLAUTH SSLPEERMAP rule to the partner certificate's DN.",
        true,
    ),
    m(
        "AMQ9637",
        Tls,
        Error,
        "Channel is lacking a certificate",
        "The queue manager or client has no personal certificate under the expected label (CERTLABL, ibmwebspheremq<qmgr>): add it to the key repository and REFRESH SECURITY TYPE(SSL).",
        false,
    ),
    m(
        "AMQ9638",
        Tls,
        Error,
        "TLS communications error for the channel",
        "The handshake or a TLS read/write failed; the paired message on the other end usually says why (cipher, certificate, protocol version).",
        true,
    ),
    m(
        "AMQ9639",
        Tls,
        Error,
        "Remote channel did not specify a CipherSpec",
        "Set SSLCIPH on the partner channel, or remove it here: both ends must agree.",
        true,
    ),
    m(
        "AMQ9641",
        Tls,
        Error,
        "Remote CipherSpec error for the channel",
        "The partner rejected the CipherSpec: align SSLCIPH on both ends.",
        false,
    ),
    m(
        "AMQ9642",
        Tls,
        Error,
        "No TLS certificate for the channel",
        "Add the personal certificate to the key repository under the expected label and refresh security.",
        true,
    ),
    m(
        "AMQ9660",
        Tls,
        Error,
        "TLS key repository: password stash file missing or unusable",
        "Recreate the .sth stash file for the key repository (or set the key repository password) and REFRESH SECURITY TYPE(SSL).",
        true,
    ),
    m(
        "AMQ9665",
        Tls,
        Error,
        "TLS connection closed by the remote end of the channel",
        "The partner ended the handshake: its error log has the real reason (certificate, cipher, SSLPEER).",
        false,
    ),
    m(
        "CSQX620",
        Tls,
        Error,
        "System SSL error (z/OS)",
        "The System SSL return code in the message says why: check the key ring and certificates.",
        false,
    ),
    m(
        "CSQX631",
        Tls,
        Error,
        "Cipher specifications differ (z/OS)",
        "Align SSLCIPH on both ends.",
        false,
    ),
    m(
        "CSQX633",
        Tls,
        Error,
        "Invalid remote certificate (z/OS)",
        "Check the partner certificate and the trusted CAs on the key ring.",
        false,
    ),
    m(
        "CSQX634",
        Tls,
        Error,
        "Certificate expired or not yet valid (z/OS)",
        "Renew the certificate.",
        false,
    ),
    m(
        "CSQX636",
        Tls,
        Error,
        "Distinguished name does not match the peer name (z/OS)",
        "Correct SSLPEER or the CHLAUTH SSLPEERMAP rule.",
        false,
    ),
    m(
        "CSQX637",
        Tls,
        Error,
        "No TLS certificate for the remote channel (z/OS)",
        "The partner sent no certificate: give it one or set SSLCAUTH(OPTIONAL) if that is intended.",
        false,
    ),
    m(
        "CSQX638",
        Tls,
        Error,
        "TLS communications error (z/OS)",
        "See the partner's messages for the cause.",
        false,
    ),
];

/// `AMQ9202E` / `AMQ9202` / `CSQX209E` → the catalogue entry.
pub fn lookup(msgid: &str) -> Option<&'static Message> {
    let id = msgid.trim();
    let base = if id.len() > 7 && id.as_bytes()[7].is_ascii_alphabetic() {
        &id[..7]
    } else {
        id
    };
    MESSAGES.iter().find(|m| m.id == base)
}

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
            None => {
                let base = msgid.trim();
                base.get(..7).filter(|b| b.is_ascii()).unwrap_or(base)
            }
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

    #[test]
    fn catalogue_ids_are_unique_and_shaped() {
        let mut seen = std::collections::HashSet::new();
        for m in MESSAGES {
            assert!(seen.insert(m.id), "{}", m.id);
            assert_eq!(m.id.len(), 7, "{}", m.id);
            assert!(m.id.starts_with("AMQ") || m.id.starts_with("CSQX"));
            assert!(!m.meaning.is_empty() && !m.advice.is_empty());
        }
    }
}
