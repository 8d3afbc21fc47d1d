//! Pulling typed values out of a message: the regexes of the catalogue's
//! fields, hand matchers for the hot ones, and whitespace normalising.
//! This is the error-log hot path: changes here are measured.

use super::net::{is_ip, is_unknown, split_host};
use super::{
    CATALOG, Field, GENERIC_AMQ, GENERIC_CSQ, REMOTE_HOST, Shape, Src, base_id, localised, lookup,
};
use regex::Regex;
use rustc_hash::FxHashMap;
use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{LazyLock, OnceLock};

pub(super) fn regex(pattern: &'static str) -> &'static Regex {
    // Each pattern is compiled on first use: a file holds a few message
    // kinds, and compiling all of them (Unicode classes and word
    // boundaries) costs more than reading a small log.
    static CACHE: OnceLock<HashMap<&'static str, OnceLock<Regex>>> = OnceLock::new();
    let map = CACHE.get_or_init(|| {
        let mut m = HashMap::new();
        let all = CATALOG
            .iter()
            .flat_map(|e| e.fields.iter())
            .chain(GENERIC_AMQ)
            .chain(GENERIC_CSQ);
        for f in all {
            if let Src::Text(p) = f.src {
                m.entry(p).or_insert_with(OnceLock::new);
            }
        }
        m
    });
    map[pattern].get_or_init(|| Regex::new(pattern).expect("catalogue regex"))
}

/// The first participating capture group of `pattern` in `text`.
fn regex_first<'a>(pattern: &'static str, text: &'a str) -> Option<&'a str> {
    regex(pattern)
        .captures(text)
        .and_then(|c| c.iter().skip(1).flatten().next())
        .map(|m| m.as_str())
}

/// Hand matchers for the patterns every record of a busy log runs through
/// (the generic channel, host and return-code patterns, AMQ9208/9209): the
/// regex captures cost more than the rest of reading a record. Each one
/// answers `Some(capture)` only when it is sure it gives what the regex
/// gives (ASCII text, where `\s`, `\w` and `\b` are the ASCII classes), and
/// `None` to leave the pattern to the regex. `text` must be ASCII.
mod fast {
    /// Outcome of a hand matcher: `Some(result)` sure, `None` unsure.
    pub type Answer<'a> = Option<Option<&'a str>>;

    pub type MatchFn = for<'a> fn(&'a str) -> Answer<'a>;

    pub fn matcher(pattern: &str) -> Option<MatchFn> {
        Some(match pattern {
            r"\b(?:[Cc]hannel|CHANNEL|[Cc]anal|[Cc]anale|Kanal)(?: name is| program)?\s+'([^']+)'" => {
                generic_channel
            }
            r"\b(?:[Hh]ost|hôte(?: éloigné)?|Hostsystem)(?: is| name is)?\s+'([^']+)'" => {
                generic_host
            }
            r"return code from (?:the )?(?:TCP/IP ?)?(?:\((\w+)\)|(\w+)\(\))" => rc_function,
            r"return code from [^.]*? (?:is|was) (-?\d+)" => rc_reason,
            r"return code from [^.]*? (?:is|was) -?\d+ \(X'([0-9A-Fa-f]+)'\)" => rc_reason_hex,
            r"[Cc]onnection to host ([^\s']+(?: \([^)]*\))*) closed" => connection_closed,
            r"receive from host ([^\s']+(?: \([^)]*\))*)" => receive_from,
            r"\b[Cc]hannel ([A-Z0-9][A-Z0-9._/%]*)" => csq_channel,
            r"\bconnection :?([A-Za-z0-9][A-Za-z0-9.:_-]*(?: \([^)]*\))*)" => csq_connection,
            r"\bTRPTYPE=(\w+)" => csq_trptype,
            r"\bRC=([0-9A-Fa-f]+)" => csq_rc,
            r"\(queue manager ([^)\s]+)\)" => csq_qmgr,
            _ => return None,
        })
    }

    fn is_space(c: u8) -> bool {
        matches!(c, b' ' | b'\t' | b'\n' | b'\x0b' | b'\x0c' | b'\r')
    }

    fn is_word(c: u8) -> bool {
        c.is_ascii_alphanumeric() || c == b'_'
    }

    use memchr::memmem::Finder;
    use std::sync::LazyLock;

    // Built once: building a finder costs more than most searches.
    static CONNECTION: LazyLock<Finder<'static>> =
        LazyLock::new(|| Finder::new("onnection to host "));
    static RECEIVE: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new("receive from host "));
    static RETURN_CODE: LazyLock<Finder<'static>> =
        LazyLock::new(|| Finder::new("return code from "));

    /// Every start of the finder's needle in `s`, left to right.
    fn starts<'a>(s: &'a str, lit: &'a Finder<'static>) -> impl Iterator<Item = usize> + 'a {
        lit.find_iter(s.as_bytes())
    }

    /// `\s+'([^']+)'` at `i`: deterministic (greedy runs of classes the
    /// next token cannot start).
    fn quoted_after_space(s: &str, i: usize) -> Option<&str> {
        let b = s.as_bytes();
        let mut j = i;
        while j < b.len() && is_space(b[j]) {
            j += 1;
        }
        if j == i || b.get(j) != Some(&b'\'') {
            return None;
        }
        let start = j + 1;
        let len = b[start..].iter().position(|&c| c == b'\'')?;
        (len > 0).then(|| &s[start..start + len])
    }

    /// `\b(?:KW|...)(?:OPT|...)?\s+'([^']+)'`, alternatives in the
    /// regex's order (leftmost start first, then the first alternative that
    /// completes, as the regex prefers).
    fn keyword_quoted<'a>(s: &'a str, kws: &[&str], opts: &[&str]) -> Answer<'a> {
        let b = s.as_bytes();
        // Candidates are the keywords' first letters (at most three).
        let mut first = [0u8; 3];
        let mut n = 0;
        for kw in kws {
            let c = kw.as_bytes()[0];
            if !first[..n].contains(&c) {
                first[n] = c;
                n += 1;
            }
        }
        let (x, y, z) = (first[0], first[1.min(n - 1)], first[2.min(n - 1)]);
        for i in memchr::memchr3_iter(x, y, z, b) {
            if i > 0 && is_word(b[i - 1]) {
                continue;
            }
            for kw in kws {
                if !s[i..].starts_with(kw) {
                    continue;
                }
                let k = i + kw.len();
                for opt in opts.iter().chain([&""]) {
                    if s[k..].starts_with(opt)
                        && let Some(v) = quoted_after_space(s, k + opt.len())
                    {
                        return Some(Some(v));
                    }
                }
            }
        }
        Some(None)
    }

    fn generic_channel(s: &str) -> Answer<'_> {
        keyword_quoted(
            s,
            &[
                "Channel", "channel", "CHANNEL", "Canal", "canal", "Canale", "canale", "Kanal",
            ],
            &[" name is", " program"],
        )
    }

    fn generic_host(s: &str) -> Answer<'_> {
        // `hôte` cannot occur in ASCII text.
        keyword_quoted(s, &["Host", "host", "Hostsystem"], &[" is", " name is"])
    }

    /// `LIT([^\s']+(?: \([^)]*\))*)TAIL`: the runs are greedy and what
    /// follows each cannot be taken back (a shorter name would be followed
    /// by a non-space, fewer groups by ` (`), so the greedy path is the
    /// only one.
    fn host_after<'a>(s: &'a str, lit: &Finder<'static>, first: &[u8], tail: &str) -> Answer<'a> {
        let b = s.as_bytes();
        for at in starts(s, lit) {
            let lead = at.checked_sub(first.len().min(1));
            if !first.is_empty() && !lead.is_some_and(|p| first.contains(&b[p])) {
                continue;
            }
            let start = at + lit.needle().len();
            let mut j = start;
            while j < b.len() && !is_space(b[j]) && b[j] != b'\'' {
                j += 1;
            }
            if j == start {
                continue;
            }
            while b[j..].starts_with(b" (") {
                match b[j + 2..].iter().position(|&c| c == b')') {
                    Some(n) => j += 2 + n + 1,
                    None => break,
                }
            }
            if s[j..].starts_with(tail) {
                return Some(Some(&s[start..j]));
            }
        }
        Some(None)
    }

    fn connection_closed(s: &str) -> Answer<'_> {
        host_after(s, &CONNECTION, b"Cc", " closed")
    }

    fn receive_from(s: &str) -> Answer<'_> {
        host_after(s, &RECEIVE, b"", "")
    }

    /// `return code from (?:the )?(?:TCP/IP ?)?(?:\((\w+)\)|(\w+)\(\))`.
    fn rc_function(s: &str) -> Answer<'_> {
        let b = s.as_bytes();
        let word = |i: usize| b[i..].iter().take_while(|&&c| is_word(c)).count();
        for at in starts(s, &RETURN_CODE) {
            let p = at + "return code from ".len();
            let the: &[usize] = if s[p..].starts_with("the ") {
                &[4, 0]
            } else {
                &[0]
            };
            for &t in the {
                let q = p + t;
                let mut tcp = Vec::with_capacity(3);
                if s[q..].starts_with("TCP/IP") {
                    if s[q + 6..].starts_with(' ') {
                        tcp.push(7);
                    }
                    tcp.push(6);
                }
                tcp.push(0);
                for u in tcp {
                    let r = q + u;
                    if b.get(r) == Some(&b'(') {
                        let n = word(r + 1);
                        if n > 0 && b.get(r + 1 + n) == Some(&b')') {
                            return Some(Some(&s[r + 1..r + 1 + n]));
                        }
                    }
                    let n = word(r);
                    if n > 0 && s[r + n..].starts_with("()") {
                        return Some(Some(&s[r..r + n]));
                    }
                }
            }
        }
        Some(None)
    }

    /// `return code from [^.]*? (?:is|was) ` then `tail` at the lazily
    /// first place it matches.
    fn rc_then<'a>(s: &'a str, tail: fn(&'a str, usize) -> Option<&'a str>) -> Answer<'a> {
        let b = s.as_bytes();
        for at in starts(s, &RETURN_CODE) {
            let mut j = at + "return code from ".len();
            // `[^.]*?` grows a byte at a time up to the first `.`; only
            // where a space follows can ` is ` or ` was ` match.
            while let Some(k) = memchr::memchr2(b' ', b'.', &b[j..]) {
                j += k;
                if b[j] == b'.' {
                    break;
                }
                for w in [" is ", " was "] {
                    if s[j..].starts_with(w)
                        && let Some(v) = tail(s, j + w.len())
                    {
                        return Some(Some(v));
                    }
                }
                j += 1;
            }
        }
        Some(None)
    }

    /// `-?\d+` at `i`: the end.
    fn number_end(b: &[u8], i: usize) -> Option<usize> {
        let d = |k: usize| {
            b[k.min(b.len())..]
                .iter()
                .take_while(|c| c.is_ascii_digit())
                .count()
        };
        if b.get(i) == Some(&b'-') && d(i + 1) > 0 {
            return Some(i + 1 + d(i + 1));
        }
        let n = d(i);
        (n > 0).then_some(i + n)
    }

    /// Starts of `lit` in `s` where a word boundary comes before it (`lit`
    /// starts with a word character).
    fn after_boundary<'a>(
        s: &'a str,
        lit: &'a Finder<'static>,
    ) -> impl Iterator<Item = usize> + 'a {
        let b = s.as_bytes();
        starts(s, lit).filter(move |&i| i == 0 || !is_word(b[i - 1]))
    }

    // The z/OS fields every CSQ message is searched for (str::find builds
    // its searcher anew each call).
    static HANNEL: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new("hannel "));
    static CONNECTION_WORD: LazyLock<Finder<'static>> =
        LazyLock::new(|| Finder::new("connection "));
    static TRPTYPE: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new("TRPTYPE="));
    static RC_IS: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new("RC="));
    static QUEUE_MANAGER: LazyLock<Finder<'static>> =
        LazyLock::new(|| Finder::new("(queue manager "));

    /// The run of bytes from `i` that `ok` accepts: its end.
    fn run(b: &[u8], i: usize, ok: impl Fn(u8) -> bool) -> usize {
        i + b[i.min(b.len())..].iter().take_while(|&&c| ok(c)).count()
    }

    /// `\b[Cc]hannel ([A-Z0-9][A-Z0-9._/%]*)`.
    fn csq_channel(s: &str) -> Answer<'_> {
        let b = s.as_bytes();
        let name = |c: u8| c.is_ascii_uppercase() || c.is_ascii_digit();
        for i in starts(s, &HANNEL) {
            let Some(k) = i.checked_sub(1) else { continue };
            if !matches!(b[k], b'C' | b'c') || (k > 0 && is_word(b[k - 1])) {
                continue;
            }
            let v = i + "hannel ".len();
            if b.get(v).is_some_and(|&c| name(c)) {
                let end = run(b, v + 1, |c| {
                    name(c) || matches!(c, b'.' | b'_' | b'/' | b'%')
                });
                return Some(Some(&s[v..end]));
            }
        }
        Some(None)
    }

    /// `\bconnection :?([A-Za-z0-9][A-Za-z0-9.:_-]*(?: \([^)]*\))*)`: the
    /// runs are greedy and cannot give back (see `host_after`).
    fn csq_connection(s: &str) -> Answer<'_> {
        let b = s.as_bytes();
        for at in after_boundary(s, &CONNECTION_WORD) {
            let mut v = at + "connection ".len();
            if b.get(v) == Some(&b':') && b.get(v + 1).is_some_and(u8::is_ascii_alphanumeric) {
                v += 1;
            }
            if !b.get(v).is_some_and(u8::is_ascii_alphanumeric) {
                continue;
            }
            let mut j = run(b, v + 1, |c| {
                c.is_ascii_alphanumeric() || matches!(c, b'.' | b':' | b'_' | b'-')
            });
            while b[j..].starts_with(b" (") {
                match b[j + 2..].iter().position(|&c| c == b')') {
                    Some(n) => j += 2 + n + 1,
                    None => break,
                }
            }
            return Some(Some(&s[v..j]));
        }
        Some(None)
    }

    /// `\bTRPTYPE=(\w+)`.
    fn csq_trptype(s: &str) -> Answer<'_> {
        let b = s.as_bytes();
        for at in after_boundary(s, &TRPTYPE) {
            let v = at + "TRPTYPE=".len();
            let end = run(b, v, is_word);
            if end > v {
                return Some(Some(&s[v..end]));
            }
        }
        Some(None)
    }

    /// `\bRC=([0-9A-Fa-f]+)`.
    fn csq_rc(s: &str) -> Answer<'_> {
        let b = s.as_bytes();
        for at in after_boundary(s, &RC_IS) {
            let v = at + "RC=".len();
            let end = run(b, v, |c| c.is_ascii_hexdigit());
            if end > v {
                return Some(Some(&s[v..end]));
            }
        }
        Some(None)
    }

    /// `\(queue manager ([^)\s]+)\)`.
    fn csq_qmgr(s: &str) -> Answer<'_> {
        let b = s.as_bytes();
        for at in starts(s, &QUEUE_MANAGER) {
            let v = at + "(queue manager ".len();
            let end = run(b, v, |c| c != b')' && !is_space(c));
            if end > v && b.get(end) == Some(&b')') {
                return Some(Some(&s[v..end]));
            }
        }
        Some(None)
    }

    fn rc_reason(s: &str) -> Answer<'_> {
        rc_then(s, |s, i| number_end(s.as_bytes(), i).map(|e| &s[i..e]))
    }

    fn rc_reason_hex(s: &str) -> Answer<'_> {
        rc_then(s, |s, i| {
            let b = s.as_bytes();
            let e = number_end(b, i)?;
            let h = e + " (X'".len();
            if !s[e..].starts_with(" (X'") {
                return None;
            }
            let n = b[h..].iter().take_while(|c| c.is_ascii_hexdigit()).count();
            (n > 0 && s[h + n..].starts_with("')")).then(|| &s[h..h + n])
        })
    }
}

/// What the catalogue makes of one message; values borrow from the text
/// and inserts where they are written as they are.
#[derive(Debug, Default, PartialEq)]
pub struct Extracted<'a> {
    /// With severity letter when known: `AMQ9999E` even if the log wrote
    /// `AMQ9999`.
    pub msgid: Cow<'a, str>,
    pub severity: Option<char>,
    pub family: Option<&'static str>,
    /// Typed values, in a stable order, each name once.
    pub attrs: Vec<(&'static str, Cow<'a, str>)>,
}

/// A value `extract` found.
type Value<'a> = Cow<'a, str>;
type Found<'a> = Vec<(&'static str, Value<'a>)>;

/// Join wrapped lines and undo copy artefacts before matching: runs of
/// whitespace (no-break spaces too) become one space, typographic quotes
/// straight ones.
pub fn normalise(text: &str) -> String {
    normalise_parts(&[text])
}

/// `normalise`, borrowing `text` when it is already normal (ASCII, single
/// spaces between words, none at the ends): most lines are.
pub fn normalise_cow(text: &str) -> std::borrow::Cow<'_, str> {
    let b = text.as_bytes();
    let clean = b.first() != Some(&b' ')
        && b.last() != Some(&b' ')
        && b.iter().all(|c| (b' '..0x7f).contains(c))
        && memchr::memmem::find(b, b"  ").is_none();
    if clean {
        std::borrow::Cow::Borrowed(text)
    } else {
        std::borrow::Cow::Owned(normalise(text))
    }
}

/// `normalise` of the parts joined with spaces, without the joined copy.
pub fn normalise_parts(parts: &[&str]) -> String {
    let mut out = String::with_capacity(parts.iter().map(|p| p.len() + 1).sum());
    let mut space = false;
    for (i, part) in parts.iter().enumerate() {
        if i > 0 {
            space = true;
        }
        let b = part.as_bytes();
        let mut j = 0;
        while j < b.len() {
            // A run of ASCII that is not whitespace, single spaces between
            // words included (they stay as they are), is copied in one piece.
            let word = |c: u8| c < 0x80 && !c.is_ascii_whitespace() && c != 0x0b;
            let run = j;
            while j < b.len() {
                if word(b[j]) {
                    j += 1;
                } else if b[j] == b' ' && j > run && b.get(j + 1).is_some_and(|&d| word(d)) {
                    j += 2;
                } else {
                    break;
                }
            }
            if j > run {
                if space && !out.is_empty() {
                    out.push(' ');
                }
                space = false;
                out.push_str(&part[run..j]);
                continue;
            }
            if b[j] < 0x80 {
                // What ends a run of ASCII is ASCII whitespace.
                space = true;
                j += 1;
                continue;
            }
            let c = part[j..].chars().next().expect("char boundary");
            j += c.len_utf8();
            let c = match c {
                '\u{2018}' | '\u{2019}' => '\'',
                c => c,
            };
            if c.is_whitespace() {
                space = true;
                continue;
            }
            if space && !out.is_empty() {
                out.push(' ');
            }
            space = false;
            out.push(c);
        }
    }
    out
}

/// Look a message up (`AMQ9999E` or `AMQ9999`: the letter, when written,
/// wins over the catalogue's) and pull its typed values from `inserts` (canonical
/// names: `ArithInsert1`, `CommentInsert1`, `RemoteHost`, ...) and `text`
/// (already normalised).
pub fn extract<'a>(id: &'a str, text: &'a str, inserts: &[(&str, &'a str)]) -> Extracted<'a> {
    let entry = lookup(id);
    let base = base_id(id);
    let letter = (base.len() < id.len()).then(|| id.chars().last()).flatten();
    let severity = letter.or(entry.map(|e| e.severity));
    let msgid = match severity {
        Some(s) if base.len() == id.len() => Cow::Owned(format!("{base}{s}")),
        _ => Cow::Borrowed(id),
    };
    let (first, generic): (&[Field], &[Field]) = if base.starts_with("CSQ") {
        (&[], GENERIC_CSQ)
    } else {
        (REMOTE_HOST, GENERIC_AMQ)
    };
    let own = entry.map(|e| e.fields).unwrap_or(&[]);
    let mut attrs: Found<'a> = Vec::with_capacity(8);
    let ascii = text.is_ascii();
    for f in first.iter().chain(own).chain(generic) {
        // A field whose every attribute is already set changes nothing
        // (values are set once): skip its search.
        let done = |n: &str| attrs.iter().any(|(k, _)| *k == n);
        let settled = match f.attr {
            "hostspec" => done("host") && done("address") && done("port"),
            "rc_hex" => done("reason") && done("reason_hex"),
            name => done(name),
        };
        if settled {
            continue;
        }
        let value = match f.src {
            Src::Insert(name) => inserts
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.trim())
                .filter(|v| !v.is_empty()),
            Src::Text(p) => match fast_matcher(p).filter(|_| ascii).and_then(|m| m(text)) {
                Some(sure) => sure,
                None => regex_first(p, text),
            },
            // After everything else, below.
            Src::Localised { .. } => None,
        };
        if let Some(value) = value {
            apply(&mut attrs, f.attr, Cow::Borrowed(value));
        }
    }
    // A localised text: what the inserts and the patterns left unset, from
    // the quoted values by their shapes.
    let wanted: Vec<(&'static str, Shape)> = own
        .iter()
        .filter_map(|f| match f.src {
            Src::Localised { english, shape } if !text.contains(english) => Some((f.attr, shape)),
            _ => None,
        })
        .filter(|&(a, shape)| match (a, shape) {
            ("hostspec", _) => !has(&attrs, "host"),
            (_, Shape::ReturnCode) => !has(&attrs, a) || !has(&attrs, "reason_hex"),
            _ => !has(&attrs, a),
        })
        .collect();
    if !wanted.is_empty() {
        let taken: Vec<&str> = attrs.iter().map(|(_, v)| v.as_ref()).collect();
        for (name, value) in localised::values(text, &wanted, &taken) {
            apply(&mut attrs, name, Cow::Owned(value));
        }
    }
    // A slow look-up of an IP address, or through getnameinfo, is a
    // reverse (PTR) look-up: REVDNS(DISABLED) is then the remedy.
    if base == "AMQ9788" {
        let func = attr(&attrs, "function").unwrap_or("");
        let addr = attr(&attrs, "address").unwrap_or("");
        let reverse = func == "getnameinfo" || is_ip(addr);
        set_once(
            &mut attrs,
            "reverse",
            Cow::Borrowed(if reverse { "true" } else { "false" }),
        );
    }
    Extracted {
        msgid,
        severity,
        family: entry.map(|e| e.family.as_str()),
        attrs,
    }
}

/// Set the attributes `value` gives for field `name` (compound names
/// split), each only when not set yet.
fn apply<'a>(attrs: &mut Found<'a>, name: &'static str, value: Value<'a>) {
    match name {
        "hostspec" => {
            let Some(h) = split_host(&value) else {
                return;
            };
            // The parts are slices of the value: borrowed when it is.
            let part = |p: &str| match &value {
                Cow::Borrowed(v) => {
                    let at = p.as_ptr() as usize - v.as_ptr() as usize;
                    Cow::Borrowed(&v[at..at + p.len()])
                }
                Cow::Owned(_) => Cow::Owned(p.to_string()),
            };
            let (host, address, port) = (part(h.host), h.address.map(part), h.port.map(part));
            set_once(attrs, "host", host);
            if let Some(a) = address {
                set_once(attrs, "address", a);
            }
            if let Some(p) = port {
                set_once(attrs, "port", p);
            }
        }
        "rc_hex" => {
            if let Ok(v) = u64::from_str_radix(&value, 16) {
                set_once(attrs, "reason", Cow::Owned(v.to_string()));
            }
            set_once(attrs, "reason_hex", value);
        }
        "channel" if is_unknown(&value) => {}
        "address" if is_unknown(&value) => {}
        name => set_once(attrs, name, value),
    }
}

fn has(attrs: &[(&'static str, Value<'_>)], name: &str) -> bool {
    attrs.iter().any(|(k, _)| *k == name)
}

fn attr<'b>(attrs: &'b [(&'static str, Value<'_>)], name: &str) -> Option<&'b str> {
    attrs
        .iter()
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v.as_ref())
}

fn set_once<'a>(attrs: &mut Found<'a>, name: &'static str, value: Value<'a>) {
    if attrs.iter().all(|(k, _)| *k != name) {
        attrs.push((name, value));
    }
}

/// `fast::matcher` of a catalogue pattern, looked up by the pattern's
/// address (comparing the pattern text with every hand-matched one, for
/// every field of every record, was a tenth of reading a job log).
fn fast_matcher(p: &'static str) -> Option<fast::MatchFn> {
    static BY_ADDR: LazyLock<FxHashMap<(usize, usize), Option<fast::MatchFn>>> =
        LazyLock::new(|| {
            CATALOG
                .iter()
                .flat_map(|e| e.fields.iter())
                .chain(GENERIC_AMQ)
                .chain(GENERIC_CSQ)
                .chain(REMOTE_HOST)
                .filter_map(|f| match f.src {
                    Src::Text(p) => Some(((p.as_ptr() as usize, p.len()), fast::matcher(p))),
                    _ => None,
                })
                .collect()
        });
    match BY_ADDR.get(&(p.as_ptr() as usize, p.len())) {
        Some(m) => *m,
        None => fast::matcher(p),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn get<'a>(x: &'a Extracted, k: &str) -> Option<&'a str> {
        attr(&x.attrs, k)
    }

    /// Every catalogue pattern, once.
    fn text_patterns() -> Vec<&'static str> {
        let mut v: Vec<&'static str> = CATALOG
            .iter()
            .flat_map(|e| e.fields.iter())
            .chain(GENERIC_AMQ)
            .chain(GENERIC_CSQ)
            .filter_map(|f| match f.src {
                Src::Text(p) => Some(p),
                Src::Insert(_) | Src::Localised { .. } => None,
            })
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    #[test]
    fn normalise_is_whitespace_runs_to_one_space() {
        let pieces = [
            "a", "bc", " ", "  ", "\t", "\n", "\r\n", "\u{0b}", "\u{0c}", "\u{a0}", "\u{2019}",
            "\u{2018}", "é", "\u{1c}", "'", "x y", " z ",
        ];
        let mut rng = crate::testrng::Rng::new(0x9e37_79b9_7f4a_7c15u64);
        let mut next = move |n: usize| rng.below(n);
        for _ in 0..5000 {
            let t: String = (0..next(12)).map(|_| pieces[next(pieces.len())]).collect();
            let want = t
                .replace(['\u{2018}', '\u{2019}'], "'")
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            assert_eq!(normalise(&t), want, "{t:?}");
        }
    }

    #[test]
    fn hand_matchers_agree_with_their_regex_on_mutated_texts() {
        let seeds = [
            "AMQ9209E: Connection to host 'app (10.20.0.66)' for channel 'APP.SVRCONN' closed. \
             An error occurred receiving data from 'app (10.20.0.66)' over TCP/IP.",
            "AMQ9209: Connection to host qm2 (10.0.0.1)(1414) closed. channel name is 'A.B'",
            "AMQ9206E: Error sending data to host 'qm2host (10.20.2.84)(1414)'. The return \
             code from the TCP/IP (send) call was 104 (X'68'). Record these values.",
            "AMQ9208E: Error on receive from host rhel9 (10.1.1.1) (1414). The return code \
             from the TCP/IP recv() call was -1 (X'FFFF'). Host is 'h1' channel program 'C'",
            "The return code from TCP/IP gethostbyname() is 11004. Canale 'X' Kanal 'Y' \
             Hostsystem 'z' host name is 'n' CHANNEL 'Q'",
            "CSQX209E Connection unexpectedly terminated, channel SYSTEM.DEF.SVRCONN \
             connection 9.68.254.236 (9.68.254.236) (queue manager M9AD) TRPTYPE=TCP RC=00000468",
            "CSQX511I Channel APP1.SVRCONN started connection :host-1.a:1 (x) RC=0g",
        ];
        let tokens = [
            " ",
            "  ",
            "'",
            "(",
            ")",
            ".",
            "-",
            "_",
            "X'",
            "')",
            " is ",
            " was ",
            "is",
            "host ",
            "Host",
            "Hostsystem",
            "hostname",
            "channel",
            "Channel ",
            "Canal",
            "Canale",
            "Kanal",
            " name is",
            " program",
            "return code from ",
            "the ",
            "TCP/IP",
            "TCP/IP ",
            "()",
            " closed",
            "Connection to host ",
            "connection to host ",
            "receive from host ",
            "1",
            "42",
            "F",
            "g",
            "\n",
            "\t",
            "a",
            "Channel ",
            "channel A",
            "connection ",
            ":",
            "TRPTYPE=",
            "RC=",
            "SRC=",
            "(queue manager ",
            "%",
            "/",
            "Q",
        ];
        let mut rng = crate::testrng::Rng::new(0x2545_f491_4f6c_dd1du64);
        let mut next = move |n: usize| rng.below(n);
        let mut sure = 0;
        let mut found = 0;
        let mut total = 0;
        let patterns: Vec<_> = text_patterns()
            .into_iter()
            .filter_map(|p| fast::matcher(p).map(|m| (p, m)))
            .collect();
        assert_eq!(
            patterns.len(),
            12,
            "each hand matcher has its catalogue pattern"
        );
        for _ in 0..6000 {
            let mut t = seeds[next(seeds.len())].to_string();
            for _ in 0..1 + next(6) {
                let mut at = next(t.len() + 1);
                while !t.is_char_boundary(at) {
                    at -= 1;
                }
                let tok = tokens[next(tokens.len())];
                match next(3) {
                    0 => t.insert_str(at, tok),
                    1 => {
                        let mut end = (at + 1 + next(8)).min(t.len());
                        while !t.is_char_boundary(end) {
                            end -= 1;
                        }
                        t.replace_range(at..end, tok);
                    }
                    _ => {
                        let mut end = (at + next(12)).min(t.len());
                        while !t.is_char_boundary(end) {
                            end -= 1;
                        }
                        t.replace_range(at..end, "");
                    }
                }
            }
            for (p, m) in &patterns {
                total += 1;
                let want = regex_first(p, &t);
                if let Some(got) = m(&t) {
                    sure += 1;
                    found += usize::from(got.is_some());
                    assert_eq!(got, want, "pattern {p} on {t:?}");
                }
            }
        }
        // The matchers answer almost always, and the texts hit and miss
        // (each text meets every pattern, the CSQ ones hit only CSQ texts).
        assert!(sure * 100 >= total * 99, "{sure} of {total}");
        assert!(
            found * 6 >= total && found * 5 <= total * 4,
            "{found} of {total}"
        );
    }

    #[test]
    fn non_ascii_text_goes_to_the_regex() {
        let x = extract("AMQ9209E", "Connexion à l'hôte 'h1 (1.2.3.4)' fermée", &[]);
        assert_eq!(get(&x, "host"), Some("h1"));
        assert_eq!(get(&x, "address"), Some("1.2.3.4"));
    }

    #[test]
    fn normalise_parts_is_normalise_of_the_joined_text() {
        let parts = [
            "  Slow DNS\n lookup \u{2018}x\u{2019}",
            "",
            "\u{a0}é  fin\t",
            "\r\n",
            "x\u{b}y\u{c}z\u{1f}w \u{85}v",
            "CP850 ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜø£Ø×ƒ",
        ];
        for n in 0..=parts.len() {
            for start in 0..n {
                let p = &parts[start..n];
                assert_eq!(normalise_parts(p), normalise(&p.join(" ")), "{p:?}");
            }
        }
        assert_eq!(normalise(" a \u{2003} b\u{2019} "), "a b'");
        for t in [
            "a b", " a", "a ", "a  b", "a\tb", "a\u{a0}b", "x\u{7f}y", "", "é",
        ] {
            assert_eq!(normalise_cow(t), normalise(t), "{t:?}");
        }
    }

    #[test]
    fn slow_dns_from_wrapped_text() {
        let text = normalise(
            "Slow DNS lookup for address 'LOCALHOST'. An attempt to resolve address\n\
             'LOCALHOST' using the 'getaddrinfo' function call\ntook 5 seconds to complete.",
        );
        let x = extract("AMQ9788W", &text, &[]);
        assert_eq!(x.msgid, "AMQ9788W");
        assert_eq!(x.family, Some("dns"));
        assert_eq!(get(&x, "address"), Some("LOCALHOST"));
        assert_eq!(get(&x, "function"), Some("getaddrinfo"));
        assert_eq!(get(&x, "seconds"), Some("5"));
        assert_eq!(get(&x, "reverse"), Some("false"));
    }

    #[test]
    fn slow_dns_typographic_quotes_and_reverse() {
        let text = normalise(
            "Slow DNS lookup for address \u{2018}10.1.2.3\u{2019}. using the \u{2018}getnameinfo\u{2019} function call took 10 seconds",
        );
        let x = extract("AMQ9788", &text, &[]);
        assert_eq!(x.msgid, "AMQ9788W");
        assert_eq!(x.severity, Some('W'));
        assert_eq!(get(&x, "address"), Some("10.1.2.3"));
        assert_eq!(get(&x, "reverse"), Some("true"));
    }

    #[test]
    fn channel_ended_abnormally_prefers_inserts() {
        let x = extract(
            "AMQ9999E",
            "Channel 'TO.QM2' to host 'other (10.0.0.1)' ended abnormally.",
            &[
                ("CommentInsert1", "TO.QM2"),
                ("CommentInsert2", "5464(12000)"),
                ("CommentInsert3", "qm2host (10.9.8.7)(1414)"),
            ],
        );
        assert_eq!(get(&x, "channel"), Some("TO.QM2"));
        assert_eq!(get(&x, "host"), Some("qm2host"));
        assert_eq!(get(&x, "address"), Some("10.9.8.7"));
        assert_eq!(get(&x, "port"), Some("1414"));
    }

    #[test]
    fn old_release_without_letter_gets_catalogue_severity() {
        let text = normalise(
            "Channel 'NB.SVR' timed out. The address of the remote end of the connection was\n'10.123.1.22'. The return code from the select() [TIMEOUT] 14 seconds call was 4 (X'4').",
        );
        let x = extract("AMQ9271", &text, &[]);
        assert_eq!(x.msgid, "AMQ9271E");
        assert_eq!(get(&x, "channel"), Some("NB.SVR"));
        assert_eq!(get(&x, "host"), Some("10.123.1.22"));
        assert_eq!(get(&x, "address"), Some("10.123.1.22"));
        assert_eq!(get(&x, "seconds"), Some("14"));
        assert_eq!(get(&x, "function"), Some("select"));
        assert_eq!(get(&x, "reason"), Some("4"));
        assert_eq!(get(&x, "reason_hex"), Some("4"));
    }

    #[test]
    fn tcp_return_codes() {
        let x = extract(
            "AMQ9208E",
            "Error on receive from host 'app1 (10.1.1.5)(51234)'. An error occurred receiving data from 'app1 (10.1.1.5)(51234)' over TCP/IP. The return code from the TCP/IP recv() call was 104 (X'68').",
            &[],
        );
        assert_eq!(get(&x, "host"), Some("app1"));
        assert_eq!(get(&x, "port"), Some("51234"));
        assert_eq!(get(&x, "function"), Some("recv"));
        assert_eq!(get(&x, "reason"), Some("104"));
        assert_eq!(get(&x, "reason_hex"), Some("68"));
        let x = extract(
            "AMQ9213",
            "A communications error for TCP/IP occurred. The return code from the TCP/IP (bind) call was 10048 (X'2740').",
            &[],
        );
        assert_eq!(get(&x, "function"), Some("bind"));
        assert_eq!(get(&x, "reason"), Some("10048"));
        let x = extract(
            "AMQ9202",
            "Remote host '11.2.34.55 (1414)' not available, retry later. The return code from TCP/IP is 145 (X'91').",
            &[],
        );
        assert_eq!(get(&x, "host"), Some("11.2.34.55"));
        assert_eq!(get(&x, "port"), Some("1414"));
        assert_eq!(get(&x, "reason"), Some("145"));
        assert_eq!(get(&x, "function"), None);
    }

    #[test]
    fn remote_host_is_authoritative_and_unknown_channel_dropped() {
        let x = extract(
            "AMQ9207E",
            "The data received from host 'scanner.example (192.0.2.9)' on channel '????' is not valid.",
            &[
                ("RemoteHost", "192.0.2.77"),
                ("CommentInsert1", "192.0.2.9"),
            ],
        );
        assert_eq!(get(&x, "channel"), None);
        assert_eq!(get(&x, "host"), Some("scanner.example"));
        assert_eq!(get(&x, "address"), Some("192.0.2.77"));
    }

    #[test]
    fn french_and_german_texts() {
        let x = extract(
            "AMQ9202",
            "Le système hôte éloigné 'farm (192.168.0.58) (14152)' est indisponible.",
            &[],
        );
        assert_eq!(get(&x, "host"), Some("farm"));
        assert_eq!(get(&x, "address"), Some("192.168.0.58"));
        assert_eq!(get(&x, "port"), Some("14152"));
        let x = extract(
            "AMQ9999",
            "Kanal 'A.B' zum Host 'h1' wurde abnormal beendet.",
            &[],
        );
        assert_eq!(get(&x, "channel"), Some("A.B"));
        assert_eq!(get(&x, "host"), Some("h1"));
    }

    #[test]
    fn csqx_fields() {
        let x = extract(
            "CSQX209E",
            "Connection unexpectedly terminated, channel SYSTEM.DEF.SVRCONN connection 9.68.254.236 (9.68.254.236) (queue manager M9AD) TRPTYPE=TCP RC=00000468",
            &[],
        );
        assert_eq!(x.family, Some("channel"));
        assert_eq!(get(&x, "channel"), Some("SYSTEM.DEF.SVRCONN"));
        assert_eq!(get(&x, "host"), Some("9.68.254.236"));
        assert_eq!(get(&x, "address"), Some("9.68.254.236"));
        assert_eq!(get(&x, "trptype"), Some("TCP"));
        assert_eq!(get(&x, "reason"), Some("1128"));
        assert_eq!(get(&x, "reason_hex"), Some("00000468"));
        assert_eq!(get(&x, "qmgr"), Some("M9AD"));
        let x = extract("CSQX000I", "Channel initiator starting", &[]);
        assert_eq!(get(&x, "channel"), None);
        assert_eq!(x.family, None);
        let x = extract(
            "CSQX489E",
            "Maximum instance limit 20, exceeded, channel APP.SVRCONN connection 10.2.3.4",
            &[],
        );
        assert_eq!(get(&x, "limit"), Some("20"));
        assert_eq!(get(&x, "channel"), Some("APP.SVRCONN"));
    }

    /// The values grouping and the rules use.
    fn keyed<'a>(x: &'a Extracted<'_>) -> Vec<(&'static str, &'a str)> {
        let keys = [
            "channel",
            "host",
            "address",
            "port",
            "function",
            "reason",
            "reason_hex",
            "seconds",
            "reverse",
        ];
        let mut v: Vec<_> = x
            .attrs
            .iter()
            .filter(|(k, _)| keys.contains(k))
            .map(|(k, v)| (*k, v.as_ref()))
            .collect();
        v.sort_unstable();
        v
    }

    /// Each localised record, written after the structure of real ones
    /// (summary, explanation, action joined), gives what its English
    /// record gives. Ids with and without the severity letter alike.
    #[test]
    fn localised_records_give_the_english_values() {
        let cases: [(&str, &str, &[&str]); 4] = [
            (
                "AMQ9208E",
                "Error on receive from host 'app1 (10.1.1.5)(51234)'. An error occurred \
                 receiving data from 'app1 (10.1.1.5)(51234)' over TCP/IP. The channel name is \
                 'APP1.SVRCONN'. This may be due to a communications failure. The return code \
                 from the TCP/IP recv() call was 104 (X'68'). Record these values.",
                &[
                    "Fehler beim Empfangen von Host 'app1 (10.1.1.5)(51234)'. Beim Empfangen \
                     von Daten von 'app1 (10.1.1.5)(51234)' über TCP/IP ist ein Fehler \
                     aufgetreten. Der Kanalname ist 'APP1.SVRCONN'. Die Ursache kann ein \
                     Kommunikationsfehler sein. Der Rückgabecode vom TCP/IP-Aufruf recv() war \
                     104 (X'68'). Notieren Sie diese Werte.",
                    "Erreur lors de la réception depuis l'hôte « app1 (10.1.1.5)(51234) ». Une \
                     erreur s'est produite lors de la réception de données de « app1 \
                     (10.1.1.5)(51234) » via TCP/IP. Le nom du canal est « APP1.SVRCONN ». Le \
                     code retour de l'appel TCP/IP recv() était 104 (X'68').",
                    "Ошибка при получении данных с хоста 'app1 (10.1.1.5)(51234)'. При \
                     получении данных с 'app1 (10.1.1.5)(51234)' по TCP/IP произошла ошибка. \
                     Имя канала - 'APP1.SVRCONN'. Код возврата вызова TCP/IP recv() - 104 \
                     (X'68').",
                    "ホスト 'app1 (10.1.1.5)(51234)' からの受信でエラーが発生しました。 TCP/IP \
                     を介した 'app1 (10.1.1.5)(51234)' からのデータ受信中にエラーが発生しました。\
                     チャネル名は「APP1.SVRCONN」です。 TCP/IP の recv() 呼び出しからの戻りコードは \
                     104 (X'68') でした。",
                ],
            ),
            (
                "AMQ9209",
                "Connection to host 'app01 (10.1.2.3)' for channel 'APP1.SVRCONN' closed. An \
                 error occurred receiving data from 'app01 (10.1.2.3)' over TCP/IP.",
                &[
                    "Die Verbindung zum Host 'app01 (10.1.2.3)' für Kanal 'APP1.SVRCONN' wurde \
                     geschlossen.",
                    "La connexion à l'hôte 'app01 (10.1.2.3)' pour le canal 'APP1.SVRCONN' a \
                     été fermée.",
                    "Соединение с хостом 'app01 (10.1.2.3)' для канала 'APP1.SVRCONN' закрыто.",
                    "チャネル 'APP1.SVRCONN' のホスト 'app01 (10.1.2.3)' への接続がクローズされました。",
                ],
            ),
            (
                "AMQ9999E",
                "Channel 'QM1.QM2' to host 'srv02 (10.0.0.5)(1414)' ended abnormally. The \
                 channel program running under process ID 4512(3096) for channel 'QM1.QM2' \
                 ended abnormally.",
                &[
                    "Kanal 'QM1.QM2' zum Host 'srv02 (10.0.0.5)(1414)' wurde abnormal beendet.",
                    "Le canal 'QM1.QM2' vers l'hôte 'srv02 (10.0.0.5)(1414)' s'est arrêté de \
                     façon anormale.",
                    "Канал 'QM1.QM2' к хосту 'srv02 (10.0.0.5)(1414)' аварийно завершил работу. \
                     Программа канала, работавшая в процессе 4512(3096), аварийно завершила \
                     работу. Имя канала: 'QM1.QM2'.",
                    // The host before the channel: shapes, not order.
                    "ホスト 'srv02 (10.0.0.5)(1414)' へのチャネル 'QM1.QM2' が異常終了しました。",
                ],
            ),
            (
                "AMQ9788",
                "Slow DNS lookup for address 'centos6'. An attempt to resolve address \
                 'centos6' using the 'getaddrinfo' function call took 5 seconds to complete.",
                &[
                    "Langsame DNS-Suche für Adresse 'centos6'. Ein Versuch, die Adresse \
                     'centos6' mit dem Funktionsaufruf 'getaddrinfo' aufzulösen, dauerte 5 \
                     Sekunden.",
                    "Recherche DNS lente pour l'adresse 'centos6'. Une tentative de résolution \
                     de l'adresse 'centos6' à l'aide de l'appel de fonction 'getaddrinfo' a \
                     pris 5 secondes.",
                    "Медленный поиск DNS для адреса 'centos6'. Попытка разрешить адрес \
                     'centos6' с помощью вызова функции 'getaddrinfo' заняла 5 секунд.",
                    "アドレス 'centos6' の DNS 検索が低速です。 'getaddrinfo' 関数呼び出しを使用して\
                     アドレス 'centos6' を解決しようとしましたが、完了までに 5 秒かかりました。",
                ],
            ),
        ];
        for (id, english, others) in cases {
            let en_text = normalise(english);
            let en = extract(id, &en_text, &[]);
            assert!(keyed(&en).len() >= 3, "{id}: {:?}", en.attrs);
            for other in others {
                let other = normalise(other);
                let x = extract(id, &other, &[]);
                assert_eq!(x.msgid, en.msgid, "{other}");
                assert_eq!(keyed(&x), keyed(&en), "{other}");
                // Without the letter, the same message.
                let bare = extract(base_id(id), &other, &[]);
                assert_eq!(bare.msgid, en.msgid, "{other}");
                assert_eq!(keyed(&bare), keyed(&en), "{other}");
            }
        }
    }

    #[test]
    fn localised_reverse_lookup_and_bare_names_in_order() {
        let text = normalise(
            "アドレス '10.1.2.3' の DNS 検索が低速です。 'getnameinfo' 関数呼び出しで 10 秒かかりました。",
        );
        let x = extract("AMQ9788W", &text, &[]);
        assert_eq!(get(&x, "address"), Some("10.1.2.3"));
        assert_eq!(get(&x, "function"), Some("getnameinfo"));
        assert_eq!(get(&x, "seconds"), Some("10"));
        assert_eq!(get(&x, "reverse"), Some("true"));
        // Two bare names: the English order (channel, then host).
        let x = extract(
            "AMQ9999",
            "Канал 'QM1.QM2' к хосту 'srv02' аварийно завершил работу.",
            &[],
        );
        assert_eq!(get(&x, "channel"), Some("QM1.QM2"));
        assert_eq!(get(&x, "host"), Some("srv02"));
        assert_eq!(get(&x, "address"), None);
    }

    #[test]
    fn inserts_win_over_localised_text() {
        let text = normalise(
            "Fehler beim Empfangen von Daten 'app1 (10.1.1.5)(51234)'. Der Kanalname ist \
             'APP1.SVRCONN'. Der Rückgabecode vom TCP/IP-Aufruf recv() war 104 (X'68').",
        );
        let x = extract(
            "AMQ9208E",
            &text,
            &[
                ("ArithInsert1", "10054"),
                ("CommentInsert1", "other (10.9.9.9)(1414)"),
                ("CommentInsert2", "TCP/IP"),
                ("CommentInsert3", "send"),
            ],
        );
        assert_eq!(get(&x, "host"), Some("other"));
        assert_eq!(get(&x, "address"), Some("10.9.9.9"));
        assert_eq!(get(&x, "function"), Some("send"));
        assert_eq!(get(&x, "reason"), Some("10054"));
        // The text's own values fill only what the inserts do not carry.
        assert_eq!(get(&x, "reason_hex"), Some("68"));
        assert_eq!(get(&x, "channel"), Some("APP1.SVRCONN"));
    }

    #[test]
    fn english_texts_do_not_use_the_fallback() {
        // The English AMQ9208 names no channel: a quoted MQ name elsewhere
        // in it is not taken for one.
        let x = extract(
            "AMQ9208E",
            "Error on receive from host 'app1 (10.1.1.5)(51234)'. See 'AMQERR01'.",
            &[],
        );
        assert_eq!(get(&x, "channel"), None);
    }
}
