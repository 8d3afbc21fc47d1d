//! `--redact`: host names, IP addresses, user ids and queue-manager names
//! replaced by stable tokens (`host-1`, `ip-3`, `user-2`, `qmgr-1`), the
//! same token for the same value throughout one report. Names are learnt
//! from the events and inventory (attributes `host`, `address`, `conname`,
//! `user`, `qmgr`); IP addresses are recognised anywhere.

use crate::event::{Event, Kind, NAME_ATTRS};
use crate::findings::{Finding, Metric};
use crate::source::FileInfo;
use regex::Regex;
use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr};
use std::sync::LazyLock;

/// The category of each attribute in `NAME_ATTRS`, in the same order.
const ATTR_CATS: [Cat; NAME_ATTRS.len()] = [
    Cat::Host, // host
    Cat::Host, // address
    Cat::Host, // conname
    Cat::Host, // Connection_Name
    Cat::Host, // Channel_Connection_Name
    Cat::User, // user
    Cat::User, // MVS_UserId
    Cat::User, // Operator_ID
    Cat::Qmgr, // qmgr
    Cat::Qmgr, // QMgr
];

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Cat {
    Host,
    Ip,
    User,
    Qmgr,
}

impl Cat {
    fn prefix(self) -> &'static str {
        match self {
            Cat::Host => "host",
            Cat::Ip => "ip",
            Cat::User => "user",
            Cat::Qmgr => "qmgr",
        }
    }
}

/// Distinct names learnt; more are ignored (IPs are still caught).
const MAX_VALUES: usize = 5000;

static IPV4: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\b(?:\d{1,3}\.){3}\d{1,3}\b").expect("regex"));
/// Candidates only; each is checked by parsing (times like 12:06:32 are
/// not addresses).
static IPV6: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,7}").expect("regex"));

#[derive(Default)]
pub struct Redactor {
    values: HashMap<String, Cat>,
    tokens: HashMap<(Cat, String), String>,
    next: HashMap<Cat, u32>,
    names: Option<Regex>,
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '-'
}

/// An address candidate stands alone (not inside `std::string` or a
/// longer number) and is not a version (`Version : 9.0.0.0`).
fn ip_bounded(s: &str, a: usize, b: usize) -> bool {
    let before = s[..a].chars().next_back();
    let after = s[b..].chars().next();
    let glued = |c: Option<char>| {
        c.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.' || c == ':')
    };
    if glued(before) || glued(after) {
        return false;
    }
    let back: String = s[..a]
        .chars()
        .rev()
        .take(40)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    let back = back.to_lowercase();
    !(back.contains("version") || back.contains("level") || back.contains("vrmf"))
}

impl Redactor {
    pub fn new() -> Redactor {
        Redactor::default()
    }

    /// Learn a value of a category. Compound host values
    /// (`name (1.2.3.4)(1414)`) are split into their parts.
    pub fn add(&mut self, cat: Cat, value: &str) {
        let v = value.trim().trim_matches(|c| c == '\'' || c == '"');
        if v.is_empty() || v == "????" {
            return;
        }
        if cat == Cat::Host && (v.contains('(') || v.contains(' ') || v.contains(',')) {
            for part in v.split(['(', ')', ' ', ',']) {
                self.add(Cat::Host, part);
            }
            return;
        }
        let cat = if v.parse::<IpAddr>().is_ok() {
            Cat::Ip
        } else {
            cat
        };
        if cat == Cat::Ip {
            return; // found by pattern anyway
        }
        // Ports, numbers and one-letter values are not names.
        if v.chars().count() < 2 || v.bytes().all(|b| b.is_ascii_digit()) {
            return;
        }
        if self.values.len() < MAX_VALUES {
            self.values.entry(v.to_lowercase()).or_insert(cat);
            self.names = None;
        }
    }

    pub fn observe(&mut self, e: &Event) {
        if !matches!(e.kind, Kind::LogRecord | Kind::SmfRecord | Kind::Fdc) {
            return;
        }
        for (k, v) in &e.attrs {
            if let Some((_, cat)) = NAME_ATTRS.iter().zip(ATTR_CATS).find(|(n, _)| *n == k) {
                self.add(cat, v);
            }
        }
    }

    pub fn observe_input(&mut self, fi: &FileInfo) {
        if let Some(h) = &fi.host {
            self.add(Cat::Host, h);
        }
        if let Some(q) = &fi.qmgr {
            self.add(Cat::Qmgr, q);
        }
    }

    fn token(&mut self, cat: Cat, value: &str) -> String {
        let key = (cat, value.to_lowercase());
        if let Some(t) = self.tokens.get(&key) {
            return t.clone();
        }
        let n = self.next.entry(cat).or_insert(0);
        *n += 1;
        let t = format!("{}-{n}", cat.prefix());
        self.tokens.insert(key, t.clone());
        t
    }

    fn names_regex(&mut self) -> Option<&Regex> {
        if self.names.is_none() && !self.values.is_empty() {
            let mut vals: Vec<&String> = self.values.keys().collect();
            // Longest first so `host.example.com` wins over `host`.
            vals.sort_by(|a, b| b.len().cmp(&a.len()).then(a.cmp(b)));
            let alt: Vec<String> = vals.iter().map(|v| regex::escape(v)).collect();
            self.names = Regex::new(&format!("(?i)(?:{})", alt.join("|"))).ok();
        }
        self.names.as_ref()
    }

    /// Replace every known name and every IP address in `s`.
    pub fn apply(&mut self, s: &str) -> String {
        // IP addresses first.
        let mut out = String::with_capacity(s.len());
        let mut last = 0;
        let mut hits: Vec<(usize, usize)> =
            IPV4.find_iter(s).map(|m| (m.start(), m.end())).collect();
        for m in IPV6.find_iter(s) {
            if m.as_str().parse::<Ipv6Addr>().is_ok() {
                hits.push((m.start(), m.end()));
            }
        }
        hits.sort_unstable();
        for (a, b) in hits {
            if a < last || s[a..b].parse::<IpAddr>().is_err() || !ip_bounded(s, a, b) {
                continue;
            }
            out.push_str(&s[last..a]);
            let t = self.token(Cat::Ip, &s[a..b]);
            out.push_str(&t);
            last = b;
        }
        out.push_str(&s[last..]);
        let s = out;
        let Some(re) = self.names_regex().cloned() else {
            return s;
        };
        let mut out = String::with_capacity(s.len());
        let mut last = 0;
        let mut at = 0;
        while let Some(m) = re.find_at(&s, at) {
            let before = s[..m.start()].chars().next_back();
            let after = s[m.end()..].chars().next();
            let bounded = !before.is_some_and(is_word) && !after.is_some_and(is_word);
            if bounded {
                let cat = self.values[&m.as_str().to_lowercase()];
                out.push_str(&s[last..m.start()]);
                let t = self.token(cat, m.as_str());
                out.push_str(&t);
                last = m.end();
                at = m.end();
            } else {
                at = m.start() + s[m.start()..].chars().next().map_or(1, char::len_utf8);
            }
            if at >= s.len() {
                break;
            }
        }
        out.push_str(&s[last..]);
        out
    }

    pub fn finding(&mut self, f: &mut Finding) {
        f.title = self.apply(&f.title);
        for s in f.subject.strings_mut() {
            *s = self.apply(s);
        }
        for b in &mut f.breakdown {
            for s in b.strings_mut() {
                *s = self.apply(s);
            }
        }
        for (_, v) in f.metrics.0.iter_mut() {
            if let Metric::Str(s) = v {
                *s = self.apply(s);
            }
        }
        for e in &mut f.evidence {
            e.path = self.apply(&e.path);
            e.text = self.apply(&e.text);
        }
        f.advice = self.apply(&f.advice);
    }

    pub fn input(&mut self, fi: &mut FileInfo) {
        fi.path = self.apply(&fi.path);
        for v in [&mut fi.host, &mut fi.qmgr].into_iter().flatten() {
            *v = self.apply(v);
        }
        for p in &mut fi.problems {
            p.message = self.apply(&p.message);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn breakdown_rows_are_redacted() {
        let mut r = Redactor::new();
        r.add(Cat::Host, "qm2host (10.0.0.2)(1414)");
        let mut f = Finding::new("channel-error", crate::source::Severity::Error, "t");
        f.breakdown.push(crate::findings::Breakdown {
            message_id: Some("AMQ9209E".into()),
            channel: Some("TO.QM2".into()),
            host: Some("qm2host".into()),
            address: Some("10.0.0.2".into()),
            return_code: None,
            occurrences: 1,
            first: None,
            last: None,
        });
        r.finding(&mut f);
        let b = &f.breakdown[0];
        assert_eq!(b.host.as_deref(), Some("host-1"));
        assert_eq!(b.address.as_deref(), Some("ip-1"));
        assert_eq!(b.message_id.as_deref(), Some("AMQ9209E"));
    }

    #[test]
    fn stable_tokens_per_value() {
        let mut r = Redactor::new();
        r.add(Cat::Host, "qm2host (10.0.0.2)(1414)");
        r.add(Cat::Host, "LOCALHOST");
        r.add(Cat::User, "colinpaice");
        r.add(Cat::Qmgr, "QM1");
        let a = r.apply("Remote host 'qm2host (10.0.0.2)' user colinpaice on QM1");
        assert_eq!(a, "Remote host 'host-1 (ip-1)' user user-1 on qmgr-1");
        let b = r.apply("again 10.0.0.2 and QM1, localhost; 10.0.0.3");
        assert_eq!(b, "again ip-1 and qmgr-1, host-2; ip-2");
        // Paths and parts of words are handled by boundaries.
        assert_eq!(
            r.apply("qmgrs/QM1/errors/AMQERR01.LOG"),
            "qmgrs/qmgr-1/errors/AMQERR01.LOG"
        );
        assert_eq!(r.apply("QM12 XQM1 QM1_B"), "QM12 XQM1 QM1_B");
    }

    #[test]
    fn times_are_not_ipv6_and_names_in_dotted_names() {
        let mut r = Redactor::new();
        r.add(Cat::Host, "dynamo");
        assert_eq!(r.apply("12:06:32.904335 dynamo"), "12:06:32.904335 host-1");
        assert_eq!(r.apply("dynamo.example.com"), "host-1.example.com");
        assert_eq!(
            r.apply("std::string Version : 9.0.0.0 check '8.0.14.14'"),
            "std::string Version : 9.0.0.0 check '8.0.14.14'"
        );
        assert_eq!(r.apply("peer fe80::1 and ::1"), "peer ip-1 and ip-2");
        assert_eq!(r.apply("Host(dynamo)."), "Host(host-1).");
    }
}
