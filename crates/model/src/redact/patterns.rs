//! The patterns `--redact` learns names by and finds them with: secrets,
//! URLs, connection names, CHLAUTH values, distinguished names,
//! addresses, and the phrases of MQ's messages that name a user, queue
//! manager or host; with the cheap tests that pick which patterns a text
//! needs. The `Redactor` (the parent module) holds what they found.

use super::{Cat, Hit, is_mq_level, lower, parse_v4, site_url, v4_key};
use aho_corasick::Anchored;
use aho_corasick::automaton::{Automaton, StateID};
use regex::Regex;
use std::net::Ipv6Addr;
use std::sync::LazyLock;

/// `NAME=value` where the name says it holds a secret (FDC environment
/// dumps, container logs). The value runs to the end of the line, or to its
/// closing quote: a password may hold spaces.
pub(super) static SECRET: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"(?i)\b[A-Z0-9_.-]*(?:PASSWORD|PASSWD|PASSPHRASE|PWD|TOKEN|SECRET|KEY)[A-Z0-9_.-]*["']?[ \t]*[=:][ \t]*(?:"([^"\r\n]*)"|'([^'\r\n]*)'|([^\s"'][^\r\n]*))"#,
    )
    .expect("regex")
});

/// MQSC-style secrets: `PASSWORD('x')`, `Password(x)`.
pub(super) static SECRET_PAREN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b[A-Z0-9_.-]*(?:PASSWORD|PASSWD|PASSPHRASE|PWD)[ \t]*\([ \t]*(?:'([^'\r\n]*)'|([^()'\r\n]*))[ \t]*\)",
    )
    .expect("regex")
});

/// A URL's scheme, user, password and host: `amqp://user:pass@host:5672`.
pub(super) static URL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"(?i)\b([a-z][a-z0-9+.-]*)://(?:([^/\s:@'"<>]*)(?::([^/\s@'"<>]*))?@)?(\[[0-9a-f:.]+\]|[^/\s:@'"<>?#,;()\[\]]+)"#,
    )
    .expect("regex")
});

/// MQSC's connection name, a list with ports in parentheses:
/// `CONNAME('h1(1414),h2(1415)')`, `CONNAME(h1(1414))`.
pub(super) static CONNAME: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\bCONNAME[ \t]*\([ \t]*(?:'([^'\r\n]*)'|((?:[^()'\r\n]|\([^()\r\n]*\))*))[ \t]*\)",
    )
    .expect("regex")
});

/// The z/OS form of a CHLAUTH address map, without parentheses
/// (CSQX777E's `Detail: ADDRESSMAP 10.1.2.*`): a value with a digit, `*`
/// or `:`, so that prose (`an ADDRESSMAP rule`) is left alone.
pub(super) static ADDRESSMAP_BARE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?i)\bADDRESSMAP[ \t]*[=:]?[ \t]+([^\s'"(),;]*[0-9*:][^\s'"(),;]*)"#)
        .expect("regex")
});

/// Distinguished-name components: `CN=John Smith,OU=Payments`, with a
/// quoted value (`CN="Smith, John"`) or escaped characters
/// (`CN=Smith\, John`), and the attribute types MQ's SSLPEER accepts.
pub(super) static DN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"(?i)\b(?:CN|OU|O|L|ST|C|DC|UID|E|MAIL|EMAIL|EMAILADDRESS|SERIALNUMBER|STREET|POSTALCODE|TITLE|DNQ|UNSTRUCTUREDNAME|UNSTRUCTUREDADDRESS)[ \t]*=[ \t]*(?:"((?:\\.|[^"\\\r\n])*)"|((?:\\.|[^,;+/'"()\r\n=\\])+))"#,
    )
    .expect("regex")
});

/// CHLAUTH-style values: `ADDRESSMAP('10.1.*')`, `SSLPEER('CN=x')`,
/// `USERMAP(CLNTUSER('bob'))`, `MCAUSER('app')`, `QMNAME(QM1)`.
pub(super) static CHLAUTH: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(ADDRESSMAP|SSLPEER|CLNTUSER|MCAUSER|QMNAME)[ \t]*\([ \t]*(?:'([^'\r\n]*)'|([^()'\r\n]*))[ \t]*\)",
    )
    .expect("regex")
});

/// Dotted quads (leading zeros allowed: `010.009.009.010`).
pub(super) static IPV4: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}").expect("regex"));

/// The spans `IPV4.find_iter` finds, in order. In ASCII text without the
/// regex (a scan of the digits, several times cheaper on every address of
/// every record): `\d` is then an ASCII digit, and a quad at a position is
/// three runs of one to three digits each ending at a `.`, then one to
/// three digits (greedy), which is what the regex's leftmost-first search
/// takes; the search goes on after each match. Other text asks the regex.
pub(super) fn quads(s: &str) -> Quads<'_> {
    if s.is_ascii() {
        Quads::Ascii {
            b: s.as_bytes(),
            i: 0,
        }
    } else {
        Quads::Any(IPV4.find_iter(s))
    }
}

pub(super) enum Quads<'s> {
    Ascii { b: &'s [u8], i: usize },
    Any(regex::Matches<'static, 's>),
}

impl Iterator for Quads<'_> {
    type Item = (usize, usize);
    fn next(&mut self) -> Option<(usize, usize)> {
        match self {
            Quads::Any(m) => m.next().map(|m| (m.start(), m.end())),
            // A quad's first dot is one to three bytes after its start:
            // the starts tried are those before each dot, in order (each
            // once), which holds every start that can match, the leftmost
            // first.
            Quads::Ascii { b, i } => {
                while let Some(d) = memchr::memchr(b'.', &b[*i..]).map(|d| *i + d) {
                    for a in d.saturating_sub(3).max(*i)..d {
                        if let Some(end) = quad_at(b, a) {
                            *i = end;
                            return Some((a, end));
                        }
                    }
                    *i = d + 1;
                }
                *i = b.len();
                None
            }
        }
    }
}

/// The end of the dotted quad starting at `a`, if one does.
fn quad_at(b: &[u8], a: usize) -> Option<usize> {
    let mut p = a;
    for part in 0..4 {
        let start = p;
        while p < b.len() && p - start < 3 && b[p].is_ascii_digit() {
            p += 1;
        }
        if p == start {
            return None;
        }
        if part < 3 {
            if b.get(p) != Some(&b'.') {
                return None;
            }
            p += 1;
        }
    }
    Some(p)
}

/// IPv6 candidates (with an embedded IPv4 tail: `::ffff:10.1.2.3`); each is
/// checked by parsing, so times like 12:06:32 are not addresses.
pub(super) static IPV6: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)(?:[0-9a-f]{0,4}:){2,7}(?:\d{1,3}(?:\.\d{1,3}){3}|[0-9a-f]{1,4})?")
        .expect("regex")
});

/// Names in message text, learnt as if they were attributes.
pub(super) static PHRASES: LazyLock<Vec<(Regex, Cat)>> = LazyLock::new(|| {
    // Group 4 is `=value` or `: value` (`User: bob`, `host name: h1`).
    let q = r#"[ \t]*(?:'([^'\r\n]+)'|"([^"\r\n]+)"|\(([^()\r\n]+)\)|[=:][ \t]*([^\s,;'"()]+))"#;
    let bare =
        r"|[ \t]+([A-Za-z0-9._%$#@-]*[0-9._%$#@][A-Za-z0-9._%$#@-]*|[A-Z][A-Z0-9._%$#@-]+)\b";
    let mk = |head: &str, bare_ok: bool| {
        let tail = if bare_ok {
            format!("(?:{q}{bare})")
        } else {
            q.to_string()
        };
        Regex::new(&format!("(?i:{head}){tail}")).expect("regex")
    };
    vec![
        (
            mk(
                r"\b(?:user[ \t_-]*(?:id|identifier|name)?|userid|uid|principal)",
                true,
            ),
            Cat::User,
        ),
        (
            mk(
                r"\b(?:queue[ \t_-]*manager(?:[ \t_-]*name)?|qmgr|qmname|qmgrname)",
                true,
            ),
            Cat::Qmgr,
        ),
        // `hostname mqhost-0`: a bare name only after `host name`, not
        // after `host` (`the host is`).
        (mk(r"\bhost[ \t_-]*name", true), Cat::Host),
        (
            mk(
                r"\b(?:host|remote[ \t_-]*host|conname|connection[ \t_-]*name)",
                false,
            ),
            Cat::Host,
        ),
        // Not `address: 0x7f..` (a trace's pointers): quoted forms only.
        (
            Regex::new(r#"(?i:\baddress)[ \t]*(?:'([^'\r\n]+)'|"([^"\r\n]+)"|\(([^()\r\n]+)\)|=[ \t]*([^\s,;'"()]+))"#)
                .expect("regex"),
            Cat::Host,
        ),
    ]
});

/// Capitalised words that follow `user` or `queue manager` in MQ's
/// messages without being a name.
pub(super) const BARE_STOP: &[&str] = &[
    "ID",
    "IDS",
    "NAME",
    "NAMES",
    "IS",
    "IN",
    "ON",
    "OF",
    "OR",
    "TO",
    "FOR",
    "THE",
    "AND",
    "NOT",
    "WAS",
    "HAS",
    "MQ",
    "MQI",
    "TCP",
    "IP",
    "SSL",
    "TLS",
    "DNS",
    "API",
    "EXPLANATION",
    "ACTION",
    // MQSC queue-manager attributes: `ALTER QMGR CHLAUTH(...)`, `DISPLAY
    // QMGR CONNAUTH` in message text name an attribute, not a queue manager.
    "CHLAUTH",
    "CONNAUTH",
    "SSLKEYR",
    "CERTLABL",
    "DEADQ",
    "MAXMSGL",
    "MAXHANDS",
    "CCSID",
    "DESCR",
    "AUTHOREV",
    "CHLEV",
    "SSLEV",
    "PERFMEV",
    "STATMQI",
    "ACCTMQI",
    "MONQ",
    "ACTVTRC",
    "SSLFIPS",
    "ALL",
];

/// Names in message text learnt only with `--redact-names`.
pub(super) static OBJECT_PHRASES: LazyLock<Vec<(Regex, Cat)>> = LazyLock::new(|| {
    let q = r#"[ \t]*(?:'([^'\r\n]+)'|"([^"\r\n]+)"|\(([^()\r\n]+)\)|=[ \t]*([^\s,;'"()]+))"#;
    vec![
        (
            Regex::new(&format!(r"(?i:\bchannel(?:[ \t_-]*name)?){q}")).expect("regex"),
            Cat::Channel,
        ),
        (
            Regex::new(&format!(
                r"(?i:\b(?:queue|qname|xmitq|transmission[ \t]+queue)(?:[ \t_-]*name)?){q}"
            ))
            .expect("regex"),
            Cat::Queue,
        ),
    ]
});

/// Words that must be in a text for a pattern to be tried (one scan
/// instead of one per pattern): bit 0 secrets, 1 CHLAUTH values, 2 name
/// phrases, 3 object-name phrases, 4 URLs, then one bit per phrase of
/// `PHRASES` (`PHRASE_HINTS`). Found anywhere, in any ASCII case, inside
/// other words too (`hostoken` holds `host` and `token`).
pub(super) const HINT_WORDS: [(&str, u16); 27] = [
    ("password", H_SECRET),
    ("passwd", H_SECRET),
    ("passphrase", H_SECRET),
    ("pwd", H_SECRET),
    ("://", H_URL),
    ("token", H_SECRET),
    ("secret", H_SECRET),
    ("key", H_SECRET),
    ("addressmap", H_CHLAUTH | H_NAMES | P_ADDRESS),
    ("sslpeer", H_CHLAUTH),
    ("clntuser", H_CHLAUTH | H_NAMES | P_USER),
    ("mcauser", H_CHLAUTH | H_NAMES | P_USER),
    ("qmname", H_CHLAUTH | H_NAMES | P_QMGR),
    ("user", H_NAMES | P_USER),
    ("uid", H_NAMES | P_USER),
    ("principal", H_NAMES | P_USER),
    ("manager", H_NAMES | P_QMGR),
    ("qmgr", H_NAMES | P_QMGR),
    ("host", H_NAMES | P_HOST),
    ("conname", H_NAMES | P_CONN),
    ("connection", H_NAMES | P_CONN),
    ("address", H_NAMES | P_ADDRESS),
    ("name", P_NAME),
    ("channel", H_OBJECTS),
    ("queue", H_OBJECTS),
    ("qname", H_OBJECTS),
    ("xmitq", H_OBJECTS),
];

/// `HINT_WORDS` as a DFA (one table step per byte) and its unanchored
/// start. Every match state lists every word that ends there, those
/// inside longer ones too (standard semantics), so a walk that reads
/// them at each byte finds all occurrences, overlapping ones included.
static HINTS: LazyLock<(aho_corasick::dfa::DFA, StateID)> = LazyLock::new(|| {
    let dfa = aho_corasick::dfa::DFA::builder()
        .ascii_case_insensitive(true)
        .match_kind(aho_corasick::MatchKind::Standard)
        .prefilter(false)
        .build(HINT_WORDS.iter().map(|(w, _)| w))
        .expect("automaton");
    let start = dfa.start_state(Anchored::No).expect("unanchored start");
    (dfa, start)
});

pub(super) const H_SECRET: u16 = 1;
pub(super) const H_CHLAUTH: u16 = 2;
pub(super) const H_NAMES: u16 = 4;
pub(super) const H_OBJECTS: u16 = 8;
pub(super) const H_URL: u16 = 16;
pub(super) const P_USER: u16 = 32;
pub(super) const P_QMGR: u16 = 64;
pub(super) const P_HOST: u16 = 128;
pub(super) const P_CONN: u16 = 256;
pub(super) const P_ADDRESS: u16 = 512;
pub(super) const P_NAME: u16 = 1024;

/// The hints each of `PHRASES` needs (its head words), in its order: a
/// phrase is tried only when the text holds a word it starts with (each
/// bit of an entry, `host` and `name` for `host name`; one of them
/// otherwise: `PHRASE_ALL`).
pub(super) const PHRASE_HINTS: [u16; 5] =
    [P_USER, P_QMGR, P_HOST | P_NAME, P_HOST | P_CONN, P_ADDRESS];
/// Which entries of `PHRASE_HINTS` need every bit rather than one.
pub(super) const PHRASE_ALL: [bool; 5] = [false, false, true, false, false];

/// Which patterns may match in `s` (see `HINT_WORDS`). The DFA is
/// walked by hand: its overlapping search took about 20 instructions a
/// byte, a fifth of `--redact`'s learning of an error log.
pub(super) fn hints(s: &str) -> u16 {
    let (dfa, start) = &*HINTS;
    let mut sid = *start;
    let mut h = 0;
    for &b in s.as_bytes() {
        sid = dfa.next_state(Anchored::No, sid, b);
        if dfa.is_special(sid) && dfa.is_match(sid) {
            for i in 0..dfa.match_len(sid) {
                h |= HINT_WORDS[dfa.match_pattern(sid, i).as_usize()].1;
            }
        }
    }
    h
}

/// A digit, a dot and a digit: an IPv4 address may be there. Found from
/// the dots (`memchr`: a text has few), not byte by byte.
pub(super) fn has_dotted_digits(s: &str) -> bool {
    let b = s.as_bytes();
    memchr::memchr_iter(b'.', b)
        .any(|d| d > 0 && b[d - 1].is_ascii_digit() && b.get(d + 1).is_some_and(u8::is_ascii_digit))
}

/// `::` or seven colons: an IPv6 address may be there. One pass over
/// the colons.
pub(super) fn may_hold_v6(s: &str) -> bool {
    let mut n = 0;
    let mut last = None;
    for c in memchr::memchr_iter(b':', s.as_bytes()) {
        if last == Some(c.wrapping_sub(1)) {
            return true;
        }
        last = Some(c);
        n += 1;
    }
    n >= 7
}

/// A secret's value (trailing blanks not part of it), unless empty.
fn push_secret(hits: &mut Vec<Hit>, m: regex::Match<'_>) {
    let v = m.as_str().trim_end();
    if !v.is_empty() {
        hits.push(Hit {
            url: false,
            a: m.start(),
            b: m.start() + v.len(),
            cat: Cat::Secret,
            key: v.to_string(),
        });
    }
}

/// What the patterns find in `s` (hints `h`): secrets, URLs, CHLAUTH
/// values, distinguished names, addresses; in order, not overlapping. A
/// URL's host is as written (`Hit::url`): what it is depends on what the
/// redactor learnt (`Redactor::pattern_hits`). Free of the redactor, so
/// learning runs it where the events are read (`Preparer`).
pub(super) fn pattern_hits(s: &str, h: u16) -> Vec<Hit> {
    let mut hits: Vec<Hit> = Vec::new();
    let claimed = |hits: &[Hit], a: usize, b: usize| hits.iter().any(|h| a < h.b && h.a < b);
    if h & H_SECRET != 0 && s.contains('(') {
        for c in SECRET_PAREN.captures_iter(s) {
            if let Some(m) = c.get(1).or(c.get(2)) {
                push_secret(&mut hits, m);
            }
        }
    }
    if h & H_URL != 0 {
        for c in URL.captures_iter(s) {
            if !site_url(&c) {
                continue;
            }
            let parts = [(2, Cat::User), (3, Cat::Secret), (4, Cat::Host)];
            for (g, cat) in parts {
                let Some(m) = c.get(g) else { continue };
                let v = m.as_str();
                let (a, b) = (m.start(), m.end());
                if v.is_empty() || claimed(&hits, a, b) {
                    continue;
                }
                // Addresses are found by their own patterns below.
                let bare = v.trim_start_matches('[').trim_end_matches(']');
                if cat == Cat::Host
                    && (parse_v4(bare).is_some() || bare.parse::<Ipv6Addr>().is_ok())
                {
                    continue;
                }
                // A host's key and category depend on what was
                // learnt: the redactor's `host_key` of the word.
                let key = match cat {
                    Cat::User => lower(v),
                    _ => v.to_string(),
                };
                let url = cat == Cat::Host;
                hits.push(Hit {
                    a,
                    b,
                    cat,
                    key,
                    url,
                });
            }
        }
    }
    if h & H_SECRET != 0 && s.contains(['=', ':']) {
        for c in SECRET.captures_iter(s) {
            if let Some(m) = c.get(1).or(c.get(2)).or(c.get(3)) {
                push_secret(&mut hits, m);
            }
        }
    }
    if h & H_CHLAUTH != 0 && s.contains('(') {
        for c in CHLAUTH.captures_iter(s) {
            let cat = match c[1].to_ascii_uppercase().as_str() {
                "ADDRESSMAP" => Cat::Addr,
                "SSLPEER" => Cat::Dn,
                "CLNTUSER" | "MCAUSER" => Cat::User,
                _ => Cat::Qmgr,
            };
            if let Some(m) = c.get(2).or(c.get(3)) {
                let v = m.as_str().trim();
                let a = m.start() + (m.as_str().len() - m.as_str().trim_start().len());
                if !v.is_empty() && !claimed(&hits, a, a + v.len()) {
                    let key = if matches!(cat, Cat::User | Cat::Qmgr) {
                        lower(v)
                    } else {
                        v.to_string()
                    };
                    hits.push(Hit {
                        url: false,
                        a,
                        b: a + v.len(),
                        cat,
                        key,
                    });
                }
            }
        }
    }
    if h & H_CHLAUTH != 0 {
        for c in ADDRESSMAP_BARE.captures_iter(s) {
            let m = c.get(1).expect("group");
            let (a, b) = (m.start(), m.end());
            if !claimed(&hits, a, b) {
                hits.push(Hit {
                    url: false,
                    a,
                    b,
                    cat: Cat::Addr,
                    key: m.as_str().to_string(),
                });
            }
        }
    }
    if s.contains('=') {
        for c in DN.captures_iter(s) {
            let Some(m) = c.get(1).or(c.get(2)) else {
                continue;
            };
            let v = m.as_str().trim();
            let a = m.start() + (m.as_str().len() - m.as_str().trim_start().len());
            if !v.is_empty() && !claimed(&hits, a, a + v.len()) {
                hits.push(Hit {
                    url: false,
                    a,
                    b: a + v.len(),
                    cat: Cat::Dn,
                    key: v.to_string(),
                });
            }
        }
    }
    if may_hold_v6(s) {
        for m in IPV6.find_iter(s) {
            // A trailing `:` (`fe80::1:` before a port) is not part of it.
            let t = m.as_str().trim_end_matches(':');
            let (a, b) = (m.start(), m.start() + t.len());
            let glued = s[..a]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_alphanumeric() || c == '_')
                || s[b..]
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_alphanumeric() || c == '_');
            if !glued
                && (t.contains("::") || t.matches(':').count() == 7)
                && let Ok(ip) = t.parse::<Ipv6Addr>()
                && !claimed(&hits, a, b)
            {
                hits.push(Hit {
                    url: false,
                    a,
                    b,
                    cat: Cat::Ip,
                    key: ip.to_string(),
                });
            }
        }
    }
    if has_dotted_digits(s) {
        for (a, b) in quads(s) {
            let quad = &s[a..b];
            let before = s[..a].chars().next_back();
            let mut after = s[b..].chars();
            let next = after.next();
            // Not a part of a longer dotted number or of a word.
            let glued_before = before.is_some_and(|c| c.is_alphanumeric() || c == '_')
                || (before == Some('.')
                    && s[..a - 1]
                        .chars()
                        .next_back()
                        .is_some_and(|c| c.is_ascii_digit()));
            let glued_after = next.is_some_and(|c| c.is_alphanumeric() || c == '_')
                || (next == Some('.') && after.next().is_some_and(|c| c.is_ascii_digit()));
            if glued_before || glued_after || claimed(&hits, a, b) {
                continue;
            }
            let Some(ip) = parse_v4(quad) else {
                continue;
            };
            if is_mq_level(s, a, quad) {
                continue;
            }
            hits.push(Hit {
                url: false,
                a,
                b,
                cat: Cat::Ip,
                key: v4_key(ip),
            });
        }
    }
    hits.sort_by_key(|h| h.a);
    hits
}
