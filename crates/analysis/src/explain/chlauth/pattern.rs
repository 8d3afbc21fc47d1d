//! The patterns a CHLAUTH record matches with, and how specific each is:
//! generic channel (and queue manager) names, generic IP addresses and host
//! names, TLS distinguished names. Sources are in the parent module's docs.

use std::cmp::Ordering;

/// `*` matches any run of characters, none included; everything else is
/// compared as is (channel and queue manager names are case-sensitive).
pub(super) fn glob(pattern: &str, text: &str) -> bool {
    glob_by(pattern.as_bytes(), text.as_bytes(), |a, b| a == b)
}

/// `glob` with letters compared regardless of case (host names).
pub(super) fn glob_nocase(pattern: &str, text: &str) -> bool {
    glob_by(pattern.as_bytes(), text.as_bytes(), |a, b| {
        a.eq_ignore_ascii_case(&b)
    })
}

fn glob_by(p: &[u8], t: &[u8], eq: impl Fn(u8, u8) -> bool) -> bool {
    // Greedy with one backtrack point: linear for the patterns MQ allows.
    let (mut pi, mut ti) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        if pi < p.len() && p[pi] == b'*' {
            star = Some((pi, ti));
            pi += 1;
        } else if pi < p.len() && eq(p[pi], t[ti]) {
            pi += 1;
            ti += 1;
        } else if let Some((sp, st)) = star {
            pi = sp + 1;
            ti = st + 1;
            star = Some((sp, st + 1));
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|&c| c == b'*')
}

/// Of two generic names that both match the same name, which is more
/// specific: compared from the left, where they first differ a literal
/// character (or the end of an exact name) beats `*`. `Greater` when `a`
/// is the more specific.
pub(super) fn profile_cmp(a: &str, b: &str) -> Ordering {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let mut i = 0;
    loop {
        match (a.get(i), b.get(i)) {
            (None, None) => return Ordering::Equal,
            (x, y) if x == y => i += 1,
            (Some(b'*'), _) => return Ordering::Less,
            (_, Some(b'*')) => return Ordering::Greater,
            (Some(_), None) => return Ordering::Greater,
            (None, Some(_)) => return Ordering::Less,
            // Two different literals cannot both match one name.
            (Some(_), Some(_)) => return Ordering::Equal,
        }
    }
}

/// One part of a generic IP address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Part {
    Num(u32),
    /// `1-8`, both ends included.
    Range(u32, u32),
    /// `*`: one or more whole parts.
    Any,
}

/// A parsed ADDRESS or ADDRLIST entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct AddressPattern {
    /// As written (unquoted), for messages and fixes.
    pub(crate) text: String,
    form: Form,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Form {
    /// `*` alone: every address, whatever its family.
    All,
    V4(Vec<Part>),
    V6(Vec<Part>),
    /// A host name or host name pattern, matched against the name reverse
    /// DNS gave (only when the queue manager has REVDNS enabled).
    Host(String),
}

/// An address as the error log shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Ip {
    V4([u32; 4]),
    V6([u32; 8]),
}

impl Ip {
    pub(super) fn parse(s: &str) -> Option<Ip> {
        let s = s.trim();
        if let Some(v4) = parse_v4(s) {
            return Some(Ip::V4(v4));
        }
        let groups = parse_v6(s)?;
        // An IPv4-mapped IPv6 address (::ffff:a.b.c.d) is that IPv4 address.
        if groups[..5].iter().all(|&g| g == 0) && groups[5] == 0xffff {
            return Some(Ip::V4([
                groups[6] >> 8,
                groups[6] & 0xff,
                groups[7] >> 8,
                groups[7] & 0xff,
            ]));
        }
        Some(Ip::V6(groups))
    }
}

fn parse_v4(s: &str) -> Option<[u32; 4]> {
    let mut out = [0; 4];
    let mut n = 0;
    for part in s.split('.') {
        if n == 4 || part.is_empty() || part.len() > 3 || !part.bytes().all(|b| b.is_ascii_digit())
        {
            return None;
        }
        let v: u32 = part.parse().ok()?;
        if v > 255 {
            return None;
        }
        out[n] = v;
        n += 1;
    }
    (n == 4).then_some(out)
}

fn parse_v6(s: &str) -> Option<[u32; 8]> {
    if !s.contains(':') {
        return None;
    }
    let hex = |g: &str| -> Option<Vec<u32>> {
        if g.contains('.') {
            // A dotted IPv4 tail: two groups.
            let v4 = parse_v4(g)?;
            return Some(vec![(v4[0] << 8) | v4[1], (v4[2] << 8) | v4[3]]);
        }
        if g.is_empty() || g.len() > 4 {
            return None;
        }
        u32::from_str_radix(g, 16).ok().map(|v| vec![v])
    };
    let groups = |side: &str| -> Option<Vec<u32>> {
        if side.is_empty() {
            return Some(Vec::new());
        }
        let mut out = Vec::new();
        for g in side.split(':') {
            out.extend(hex(g)?);
        }
        Some(out)
    };
    let full: Vec<u32> = match s.split_once("::") {
        Some((head, tail)) => {
            let (h, t) = (groups(head)?, groups(tail)?);
            if h.len() + t.len() > 7 {
                return None;
            }
            let mut v = h;
            v.resize(8 - t.len(), 0);
            v.extend(t);
            v
        }
        None => groups(s)?,
    };
    full.try_into().ok()
}

impl AddressPattern {
    /// Parse a generic address as SET CHLAUTH takes it; the error says
    /// which of IBM's rules for generic IP addresses it breaks.
    pub(crate) fn parse(text: &str) -> Result<AddressPattern, String> {
        let t = text.trim();
        let form = if t == "*" {
            Form::All
        } else if t.is_empty() {
            return Err("empty address".into());
        } else if t.contains(':') {
            Form::V6(parse_parts(t, ':', 8, 16, 0xffff)?)
        } else if t.bytes().all(|b| b.is_ascii_digit() || b"*-.".contains(&b)) {
            Form::V4(parse_parts(t, '.', 4, 10, 255)?)
        } else if t
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"*-._".contains(&b))
        {
            Form::Host(t.to_string())
        } else {
            return Err(format!(
                "'{t}' is neither an IP address pattern nor a host name"
            ));
        };
        Ok(AddressPattern {
            text: t.to_string(),
            form,
        })
    }

    /// Whether the connection's address (or the host name reverse DNS gave
    /// for it) matches.
    pub(super) fn matches(&self, ip: Option<Ip>, host: Option<&str>) -> bool {
        match (&self.form, ip) {
            // Every connection has an address, known here or not.
            (Form::All, _) => true,
            (Form::V4(parts), Some(Ip::V4(a))) => match_parts(parts, &a),
            (Form::V6(parts), Some(Ip::V6(a))) => match_parts(parts, &a),
            (Form::Host(p), _) => host.is_some_and(|h| glob_nocase(p, h)),
            _ => false,
        }
    }

    /// How specific, for ordering records that both match: more whole parts
    /// given, then more ranges, then the narrower ranges; an IP pattern over
    /// a host name pattern with as many fixed parts. `*` is the least.
    pub(super) fn specificity(&self) -> (u32, u32, u64, u8) {
        match &self.form {
            Form::All => (0, 0, 0, 0),
            Form::V4(parts) | Form::V6(parts) => {
                let exact = parts.iter().filter(|p| matches!(p, Part::Num(_))).count() as u32;
                let mut ranges = 0;
                let mut width = 0u64;
                for p in parts {
                    if let Part::Range(a, b) = p {
                        ranges += 1;
                        width += u64::from(b - a);
                    }
                }
                (exact, ranges, u64::MAX - width, 1)
            }
            Form::Host(h) => {
                let exact = h.split('.').filter(|l| !l.contains('*')).count() as u32;
                (exact, 0, u64::MAX, 0)
            }
        }
    }

    #[cfg(test)]
    pub(super) fn is_host(&self) -> bool {
        matches!(self.form, Form::Host(_))
    }
}

/// Parts of a generic address, checked against IBM's rules: no fewer parts
/// than the family needs unless a `*` stands for some; a `*` is a whole
/// part; no two `*` side by side; IPv6 never mixes `::` with `*`.
fn parse_parts(t: &str, sep: char, need: usize, radix: u32, max: u32) -> Result<Vec<Part>, String> {
    let bad = |why: &str| Err(format!("address '{t}': {why}"));
    let expanded;
    let body = if sep == ':' && t.contains("::") {
        if t.contains('*') {
            return bad("'::' with '*' is ambiguous");
        }
        // Expand '::' into the zero groups it stands for.
        let (head, tail) = t.split_once("::").unwrap_or((t, ""));
        let count = |s: &str| {
            if s.is_empty() {
                0
            } else {
                s.split(':').count()
            }
        };
        let given = count(head) + count(tail);
        if given >= need {
            return bad("too many parts");
        }
        let mut groups: Vec<&str> = Vec::new();
        if !head.is_empty() {
            groups.extend(head.split(':'));
        }
        groups.extend(std::iter::repeat_n("0", need - given));
        if !tail.is_empty() {
            groups.extend(tail.split(':'));
        }
        expanded = groups.join(":");
        expanded.as_str()
    } else {
        t
    };
    let num = |s: &str| -> Option<u32> {
        if s.is_empty() || s.len() > 4 {
            return None;
        }
        u32::from_str_radix(s, radix).ok().filter(|&v| v <= max)
    };
    let mut parts = Vec::new();
    for raw in body.split(sep) {
        let part = if raw == "*" {
            if parts.last() == Some(&Part::Any) {
                return bad("'*' next to '*'");
            }
            Part::Any
        } else if let Some((a, b)) = raw.split_once('-') {
            match (num(a), num(b)) {
                (Some(a), Some(b)) if a <= b => Part::Range(a, b),
                _ => return bad("range not 'low-high'"),
            }
        } else if let Some(v) = num(raw) {
            Part::Num(v)
        } else if raw.contains('*') {
            return bad("'*' must be a whole part");
        } else {
            return bad("part not a number");
        };
        parts.push(part);
    }
    let stars = parts.iter().filter(|p| **p == Part::Any).count();
    let fixed = parts.len() - stars;
    if stars == 0 && parts.len() != need {
        return bad(if parts.len() < need {
            "too few parts"
        } else {
            "too many parts"
        });
    }
    if fixed + stars > need {
        return bad("too many parts");
    }
    Ok(parts)
}

/// `*` stands for one or more whole parts.
fn match_parts(parts: &[Part], addr: &[u32]) -> bool {
    match parts.split_first() {
        None => addr.is_empty(),
        Some((Part::Any, rest)) => (1..=addr.len()).any(|k| match_parts(rest, &addr[k..])),
        Some((p, rest)) => {
            let Some((&a, tail)) = addr.split_first() else {
                return false;
            };
            let ok = match *p {
                Part::Num(v) => a == v,
                Part::Range(lo, hi) => (lo..=hi).contains(&a),
                Part::Any => unreachable!("handled above"),
            };
            ok && match_parts(rest, tail)
        }
    }
}

/// A distinguished name as attribute/value pairs, in order; the attribute
/// types upper-case. `None` when it is not `TYPE=value` pairs.
fn dn_pairs(s: &str) -> Option<Vec<(String, String)>> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut items = Vec::new();
    for c in s.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                cur.push(c);
            }
            ',' | ';' if !quoted => items.push(std::mem::take(&mut cur)),
            _ => cur.push(c),
        }
    }
    items.push(cur);
    for item in items {
        let item = item.trim();
        if item.is_empty() {
            continue;
        }
        let (k, v) = item.split_once('=')?;
        if k.is_empty() || k.ends_with(' ') {
            return None;
        }
        let v = v.trim();
        let v = v
            .strip_prefix('"')
            .and_then(|v| v.strip_suffix('"'))
            .unwrap_or(v);
        out.push((k.trim().to_ascii_uppercase(), v.to_string()));
    }
    (!out.is_empty()).then_some(out)
}

/// Whether an SSLPEER (or SSLCERTI) pattern is a well-formed DN pattern:
/// `TYPE=value` pairs, the types written upper-case.
pub(super) fn dn_valid(pattern: &str) -> bool {
    let types_upper = pattern.split([',', ';']).all(|item| {
        item.split_once('=').is_none_or(|(k, _)| {
            let k = k.trim();
            k.bytes().all(|b| !b.is_ascii_lowercase())
        })
    });
    types_upper && dn_pairs(pattern).is_some()
}

/// Whether the DN the partner presented matches an SSLPEER pattern: every
/// attribute the pattern names is in the DN; repeated attributes (OU) in
/// the same order; values compared regardless of case, a `*` at the start
/// or end of a value standing for any characters there.
pub(super) fn dn_matches(pattern: &str, dn: &str) -> bool {
    let (Some(pat), Some(dn)) = (dn_pairs(pattern), dn_pairs(dn)) else {
        return false;
    };
    let mut seen: Vec<(&str, usize)> = Vec::new();
    for (k, v) in &pat {
        // The n-th value of this type in the pattern matches the n-th in
        // the DN.
        let n = match seen.iter_mut().find(|(t, _)| t == k) {
            Some((_, n)) => {
                *n += 1;
                *n
            }
            None => {
                seen.push((k, 0));
                0
            }
        };
        let Some((_, got)) = dn.iter().filter(|(t, _)| t == k).nth(n) else {
            return false;
        };
        if !glob_nocase(v, got) {
            return false;
        }
    }
    true
}

/// How specific a DN pattern is: more attributes, then more literal
/// characters.
pub(super) fn dn_specificity(pattern: &str) -> (usize, usize) {
    match dn_pairs(pattern) {
        Some(p) => (
            p.len(),
            p.iter()
                .map(|(_, v)| v.chars().filter(|&c| c != '*').count())
                .sum(),
        ),
        None => (0, 0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glob_matches_like_mq_generic_names() {
        assert!(glob("*", ""));
        assert!(glob("*", "ANY.THING"));
        assert!(glob("SYSTEM.*", "SYSTEM.DEF.SVRCONN"));
        assert!(glob("SYSTEM.*", "SYSTEM."));
        assert!(!glob("SYSTEM.*", "system.def.svrconn"));
        assert!(glob("*.SVRCONN", "APP.SVRCONN"));
        assert!(glob("A*B*C", "AXXBYYC"));
        assert!(!glob("A*B*C", "AXXBYY"));
        assert!(glob("DEV.APP.SVRCONN", "DEV.APP.SVRCONN"));
        assert!(!glob("DEV.APP.SVRCONN", "DEV.APP.SVRCONN2"));
        assert!(glob_nocase("*.example.com", "Client01.EXAMPLE.com"));
    }

    #[test]
    fn profile_order_is_left_to_right_literal_over_generic() {
        use Ordering::*;
        assert_eq!(profile_cmp("SYSTEM.ADMIN.SVRCONN", "SYSTEM.*"), Greater);
        assert_eq!(profile_cmp("SYSTEM.*", "*"), Greater);
        assert_eq!(profile_cmp("*", "SYSTEM.*"), Less);
        assert_eq!(profile_cmp("AB.C*", "AB.*"), Greater);
        assert_eq!(profile_cmp("APP", "APP*"), Greater);
        assert_eq!(profile_cmp("A*C", "AB*"), Less);
        assert_eq!(profile_cmp("X.*", "X.*"), Equal);
    }

    fn ip(s: &str) -> Option<Ip> {
        Ip::parse(s)
    }

    fn m(p: &str, a: &str) -> bool {
        AddressPattern::parse(p).unwrap().matches(ip(a), None)
    }

    #[test]
    fn ibm_generic_ip_examples_parse() {
        // Every valid form on IBM's "Generic IP addresses for channel
        // authentication records" page (q086080_).
        for p in [
            "192.0.2.0",
            "192.0.2.*",
            "192.0.*",
            "192.0.*.2",
            "192.*.2",
            "*",
            "192.0.2.1-8",
            "192.0.*.1-8",
            "2001:DB8:0:0:0:0:0:0",
            "2001:DB8:0:0:0:0:0:*",
            "2001:DB8:0:0:0:*",
            "2001:DB8:0:0:0:*:0:1",
            "2001:*:1",
            "2001:DB8:0:0:0:0:0:0-8",
            "2001:DB8:0:0:0:*:0:0-8",
            "192.*.2.*",
        ] {
            assert!(AddressPattern::parse(p).is_ok(), "{p}");
        }
        // And every invalid one it gives.
        for p in ["192.0.2", "192.0*", "192.0.*.*", "2001::*"] {
            assert!(AddressPattern::parse(p).is_err(), "{p}");
        }
    }

    #[test]
    fn generic_ip_matching() {
        assert!(m("192.0.2.*", "192.0.2.77"));
        assert!(!m("192.0.2.*", "192.0.3.77"));
        assert!(m("192.0.*", "192.0.9.9"));
        assert!(m("192.*.2", "192.0.1.2"));
        assert!(!m("192.*.2", "192.0.1.3"));
        assert!(m("192.0.*.2", "192.0.200.2"));
        assert!(m("192.0.2.1-8", "192.0.2.8"));
        assert!(!m("192.0.2.1-8", "192.0.2.9"));
        assert!(m("192.0.*.1-8", "192.0.5.3"));
        assert!(m("9.20.1-30.*", "9.20.30.1"));
        assert!(!m("9.20.1-30.*", "9.20.31.1"));
        assert!(m("2001:DB8:0:0:0:0:0:*", "2001:db8::5"));
        assert!(m("2001:*:1", "2001:db8::1"));
        assert!(m("2001:DB8::1", "2001:db8:0:0:0:0:0:1"));
        assert!(m("2001:DB8:0:0:0:0:0:0-8", "2001:db8::8"));
        assert!(!m("2001:DB8:0:0:0:0:0:0-8", "2001:db8::9"));
        // An IPv4-mapped IPv6 address is its IPv4 address.
        assert!(m("10.0.0.*", "::ffff:10.0.0.7"));
        assert!(m("*", "10.0.0.7"));
        assert!(!m("10.0.0.*", "2001:db8::1"));
    }

    #[test]
    fn host_patterns_need_reverse_dns() {
        let p = AddressPattern::parse("*.example.com").unwrap();
        assert!(p.is_host());
        assert!(p.matches(ip("10.0.0.1"), Some("app1.example.com")));
        assert!(!p.matches(ip("10.0.0.1"), None));
    }

    #[test]
    fn address_specificity_orders_exact_over_patterns() {
        let s = |p: &str| AddressPattern::parse(p).unwrap().specificity();
        assert!(s("10.0.0.1") > s("10.0.0.1-8"));
        assert!(s("10.0.0.1-8") > s("10.0.0.*"));
        assert!(s("10.0.0.1-3") > s("10.0.0.1-8"));
        assert!(s("9.20.1-30.*") > s("9.20.*"));
        assert!(s("9.20.*") > s("9.*"));
        assert!(s("9.*") > s("*"));
        assert!(s("10.0.0.*") > s("*.example.com"));
    }

    #[test]
    fn dn_matching_follows_sslpeer_rules() {
        let dn = "CN=John Smith,OU=Test,OU=Dept,O=IBM,C=GB";
        assert!(dn_matches("CN=John Smith, O=IBM ,OU=Test , C=GB", dn));
        // Attribute types are written upper-case; values match regardless.
        assert!(!dn_valid("cn=John Smith"));
        assert!(dn_matches("CN=JOHN SMITH", dn));
        assert!(dn_matches("CN=John*", dn));
        assert!(dn_matches("CN=*Smith;O=IBM", dn));
        assert!(dn_matches("OU=Test,OU=Dept", dn));
        assert!(!dn_matches("OU=Dept,OU=Test", dn));
        assert!(!dn_matches("CN=Jane*", dn));
        assert!(!dn_matches("L=London", dn));
        assert!(dn_specificity("CN=John Smith,O=IBM") > dn_specificity("CN=John*,O=IBM"));
        assert!(dn_specificity("CN=a,O=b") > dn_specificity("CN=abcdef"));
    }

    #[test]
    fn malformed_input_never_panics() {
        for s in [
            "",
            ":",
            "::",
            ":::",
            "1.2.3.4.5",
            "300.1.1.1",
            "1-",
            "-1",
            "*-*",
            "a..b",
            "1.2.3.4-1",
        ] {
            let _ = AddressPattern::parse(s);
            let _ = Ip::parse(s);
            let _ = dn_matches(s, s);
        }
    }
}
