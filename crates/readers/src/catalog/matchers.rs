//! The catalogue's text patterns as `extract` runs them: each regex
//! compiled on first use, and hand matchers for the patterns every record
//! of a busy log runs through, with the test that they agree.

use super::{CATALOG, GENERIC_AMQ, GENERIC_CSQ, REMOTE_HOST, Src};
use regex::Regex;
use rustc_hash::FxHashMap;
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
pub(super) fn regex_first<'a>(pattern: &'static str, text: &'a str) -> Option<&'a str> {
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
pub(super) mod fast {
    /// Outcome of a hand matcher: `Some(result)` sure, `None` unsure.
    pub(crate) type Answer<'a> = Option<Option<&'a str>>;

    pub(crate) type MatchFn = for<'a> fn(&'a str) -> Answer<'a>;

    pub(crate) fn matcher(pattern: &str) -> Option<MatchFn> {
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
            r"Slow DNS lookup for address '([^']*)'" => dns_address,
            r"resolve address '([^']*)'" => dns_resolve,
            r"using the '(\w+)' function" => dns_function,
            r"took (\d+) seconds" => dns_seconds,
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
    static RETURN_CODE: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(RETURN_CODE_FROM));

    /// The words three generic AMQ patterns start with (function, reason,
    /// reason in hex): without them none of the three can match.
    pub(crate) const RETURN_CODE_FROM: &str = "return code from ";

    /// Whether `s` holds `RETURN_CODE_FROM`: one search answers for the
    /// three patterns (each searching cost about 200 instructions per
    /// record).
    pub(crate) fn has_return_code(s: &str) -> bool {
        RETURN_CODE.find(s.as_bytes()).is_some()
    }

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

    /// `\bKEY(class+)`: the first non-empty run of `ok` bytes right after
    /// the finder's needle at a word boundary.
    fn run_after<'a>(s: &'a str, key: &'a Finder<'static>, ok: fn(u8) -> bool) -> Answer<'a> {
        let b = s.as_bytes();
        let len = key.needle().len();
        for at in after_boundary(s, key) {
            let v = at + len;
            let end = run(b, v, ok);
            if end > v {
                return Some(Some(&s[v..end]));
            }
        }
        Some(None)
    }

    /// `\bTRPTYPE=(\w+)`.
    fn csq_trptype(s: &str) -> Answer<'_> {
        run_after(s, &TRPTYPE, is_word)
    }

    /// `\bRC=([0-9A-Fa-f]+)`.
    fn csq_rc(s: &str) -> Answer<'_> {
        run_after(s, &RC_IS, |c| c.is_ascii_hexdigit())
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

    // AMQ9788 (slow DNS look-up), the case mqdiag is most often run for.
    static SLOW_DNS: LazyLock<Finder<'static>> =
        LazyLock::new(|| Finder::new("Slow DNS lookup for address '"));
    static RESOLVE: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new("resolve address '"));
    static USING_THE: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new("using the '"));
    static TOOK: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new("took "));

    /// `LIT([^']*)'` where the literal ends with its opening quote: the
    /// first place one is followed by a closing quote (none after the
    /// first means none after any later one).
    fn quoted_after_lit<'a>(s: &'a str, lit: &'a Finder<'static>) -> Answer<'a> {
        let b = s.as_bytes();
        Some(starts(s, lit).next().and_then(|at| {
            let v = at + lit.needle().len();
            let n = b[v..].iter().position(|&c| c == b'\'')?;
            Some(&s[v..v + n])
        }))
    }

    fn dns_address(s: &str) -> Answer<'_> {
        quoted_after_lit(s, &SLOW_DNS)
    }

    fn dns_resolve(s: &str) -> Answer<'_> {
        quoted_after_lit(s, &RESOLVE)
    }

    /// `using the '(\w+)' function`.
    fn dns_function(s: &str) -> Answer<'_> {
        let b = s.as_bytes();
        for at in starts(s, &USING_THE) {
            let v = at + "using the '".len();
            let end = run(b, v, is_word);
            if end > v && s[end..].starts_with("' function") {
                return Some(Some(&s[v..end]));
            }
        }
        Some(None)
    }

    /// `took (\d+) seconds`.
    fn dns_seconds(s: &str) -> Answer<'_> {
        let b = s.as_bytes();
        for at in starts(s, &TOOK) {
            let v = at + "took ".len();
            let end = run(b, v, |c| c.is_ascii_digit());
            if end > v && s[end..].starts_with(" seconds") {
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

/// `fast::matcher` of a catalogue pattern, looked up by the pattern's
/// address (comparing the pattern text with every hand-matched one, for
/// every field of every record, was a tenth of reading a job log).
pub(super) fn fast_matcher(p: &'static str) -> Option<fast::MatchFn> {
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

/// `fast_matcher` of each field of `GENERIC_CSQ` (`csq`) or `GENERIC_AMQ`,
/// in their order.
pub(super) fn generic_matchers(csq: bool) -> &'static [Option<fast::MatchFn>] {
    fn of(fields: &'static [super::Field]) -> Vec<Option<fast::MatchFn>> {
        fields
            .iter()
            .map(|f| match f.src {
                Src::Text(p) => fast_matcher(p),
                _ => None,
            })
            .collect()
    }
    static AMQ: LazyLock<Vec<Option<fast::MatchFn>>> = LazyLock::new(|| of(GENERIC_AMQ));
    static CSQ: LazyLock<Vec<Option<fast::MatchFn>>> = LazyLock::new(|| of(GENERIC_CSQ));
    if csq { &CSQ } else { &AMQ }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    /// `extract` skips the patterns that start with `RETURN_CODE_FROM`
    /// when the text lacks those words: each must need them (no
    /// alternative at its top level), and its regex finds nothing in texts
    /// without them.
    #[test]
    fn return_code_patterns_cannot_match_without_their_first_words() {
        let rc: Vec<_> = text_patterns()
            .into_iter()
            .filter(|p| p.starts_with(fast::RETURN_CODE_FROM))
            .collect();
        assert!(rc.len() >= 3, "{rc:?}");
        for p in &rc {
            let (mut depth, mut escaped) = (0, false);
            for c in p.chars() {
                match c {
                    _ if escaped => escaped = false,
                    '\\' => escaped = true,
                    '(' => depth += 1,
                    ')' => depth -= 1,
                    '|' => assert!(depth > 0, "top-level alternative in {p}"),
                    _ => {}
                }
            }
            for t in [
                "AMQ9206E: Error sending data. The return code was 104 (X'68').",
                "return code form the TCP/IP (send) call was 104 (X'68')",
                "Return code from the TCP/IP (send) call was 104 (X'68')",
                "return  code from recv() was 1",
                "",
            ] {
                assert!(!fast::has_return_code(t), "{t}");
                assert_eq!(regex_first(p, t), None, "{p} on {t}");
            }
            let with = "The return code from the TCP/IP (send) call was 104 (X'68').";
            assert!(fast::has_return_code(with));
            assert!(regex_first(p, with).is_some(), "{p}");
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
            "AMQ9788W: Slow DNS lookup for address 'LOCALHOST'. An attempt to resolve \
             address 'LOCALHOST' using the 'getaddrinfo' function call took 5 seconds to complete.",
            "Slow DNS lookup for address ''. resolve address 'x' using the 'gethostbyname_r' \
             function took 12 seconds took 3 seconds",
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
            "Slow DNS lookup for address '",
            "resolve address '",
            "using the '",
            "' function",
            "took ",
            " seconds",
            "7",
        ];
        let mut rng = mqdiag_model::testrng::Rng::new(0x2545_f491_4f6c_dd1du64);
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
            16,
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
        // (each text meets every pattern, the CSQ and DNS ones hit only
        // their own messages' texts).
        assert!(sure * 100 >= total * 99, "{sure} of {total}");
        assert!(
            found * 8 >= total && found * 5 <= total * 4,
            "{found} of {total}"
        );
    }
}
