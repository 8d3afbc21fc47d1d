//! The phrases of `PHRASES` and `OBJECT_PHRASES` (`patterns`) matched by
//! hand in ASCII text: the regexes' captures cost several thousand
//! instructions a record, this a few hundred. Each function follows its
//! regex's leftmost-first order (alternatives in turn, greedy runs from
//! longest to shortest), so it finds the same matches as `captures_iter`,
//! which `phrases_agree_with_their_regexes` checks on generated text. In
//! ASCII text the regexes' Unicode classes are their ASCII parts (`\b`,
//! `\s`, `(?i)`); other text asks the regexes.

/// Which phrase: the heads of `PHRASES`, then of `OBJECT_PHRASES`, in
/// their order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Head {
    User,
    Qmgr,
    HostName,
    Host,
    Address,
    Channel,
    Queue,
}

/// `PHRASES`' heads, in its order.
pub(super) const PHRASE_HEADS: [Head; 5] = [
    Head::User,
    Head::Qmgr,
    Head::HostName,
    Head::Host,
    Head::Address,
];
/// `OBJECT_PHRASES`' heads, in its order.
pub(super) const OBJECT_HEADS: [Head; 2] = [Head::Channel, Head::Queue];

/// A value found: bytes `a..b`, the match's end, and whether it is the
/// bare form (group 5 of the regex, checked against `BARE_STOP`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Val {
    pub a: usize,
    pub b: usize,
    end: usize,
    pub bare: bool,
}

/// Every match of the phrase in ASCII `s`, in order, not overlapping (as
/// `captures_iter`).
pub(super) fn each_match(s: &str, head: Head, mut f: impl FnMut(Val)) {
    debug_assert!(s.is_ascii());
    let b = s.as_bytes();
    let first = head.first_letters();
    let mut p = 0;
    while p < b.len() {
        // `\b` before a head, which starts with one of a few letters:
        // other bytes are passed over without trying the head's words.
        if first & letter_bit(b[p]) != 0
            && (p == 0 || !word(b[p - 1]))
            && let Some(v) = at(b, p, head)
        {
            f(v);
            p = v.end;
            continue;
        }
        p += 1;
    }
}

impl Head {
    /// The letters its words start with (`letter_bit`), in either case:
    /// `at` matches nowhere else.
    fn first_letters(self) -> u32 {
        let letters: &[u8] = match self {
            Head::User => b"up",
            Head::Qmgr => b"q",
            Head::HostName => b"h",
            Head::Host => b"hrc",
            Head::Address => b"a",
            Head::Channel => b"c",
            Head::Queue => b"qxt",
        };
        letters.iter().fold(0, |m, &c| m | letter_bit(c))
    }
}

/// A bit for an ASCII letter, the same in either case; none for other bytes.
fn letter_bit(c: u8) -> u32 {
    match c.is_ascii_alphabetic() {
        true => 1 << ((c | 0x20) - b'a'),
        false => 0,
    }
}

fn word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// `\b` at `e`.
fn boundary(b: &[u8], e: usize) -> bool {
    let before = e > 0 && word(b[e - 1]);
    let after = b.get(e).is_some_and(|&c| word(c));
    before != after
}

/// `w` (lower case) at `at`, in any case.
fn ci(b: &[u8], at: usize, w: &[u8]) -> bool {
    b.len() >= at + w.len() && b[at..at + w.len()].eq_ignore_ascii_case(w)
}

fn run(b: &[u8], at: usize, f: impl Fn(u8) -> bool) -> usize {
    b[at.min(b.len())..].iter().take_while(|&&c| f(c)).count()
}

fn sep(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'_' | b'-')
}

fn blank(c: u8) -> bool {
    c == b' ' || c == b'\t'
}

/// The forms after a head: `[=:]` (or `=` alone) values, and the bare
/// word of the phrases that take one.
#[derive(Clone, Copy)]
struct Tail {
    colon: bool,
    bare: bool,
}

/// The phrase's match starting at `p`, if one does: each way its head
/// can end, in the regex's order, until a tail follows.
fn at(b: &[u8], p: usize, head: Head) -> Option<Val> {
    let names = Tail {
        colon: true,
        bare: true,
    };
    let host = Tail {
        colon: true,
        bare: false,
    };
    let eq = Tail {
        colon: false,
        bare: false,
    };
    match head {
        // `user[ \t_-]*(?:id|identifier|name)?|userid|uid|principal`
        Head::User => {
            if ci(b, p, b"user") {
                let q = p + 4;
                for k in (0..=run(b, q, sep)).rev() {
                    let r = q + k;
                    // A blank before another: no word starts here, and the
                    // tail skips the blanks to where it did from `r + 1`,
                    // tried just before (asking again would make a long
                    // run of blanks cost its length squared).
                    if b.get(r).is_some_and(|&c| blank(c))
                        && b.get(r + 1).is_some_and(|&c| blank(c))
                    {
                        continue;
                    }
                    for w in [&b"id"[..], b"identifier", b"name"] {
                        if ci(b, r, w)
                            && let Some(v) = tail(b, r + w.len(), names)
                        {
                            return Some(v);
                        }
                    }
                    if let Some(v) = tail(b, r, names) {
                        return Some(v);
                    }
                }
            }
            words(b, p, &[b"userid", b"uid", b"principal"], names)
        }
        // `queue[ \t_-]*manager(?:[ \t_-]*name)?|qmgr|qmname|qmgrname`
        Head::Qmgr => {
            if ci(b, p, b"queue") {
                let q = p + 5;
                for k in (0..=run(b, q, sep)).rev() {
                    if ci(b, q + k, b"manager")
                        && let Some(v) = named(b, q + k + 7, names)
                    {
                        return Some(v);
                    }
                }
            }
            words(b, p, &[b"qmgr", b"qmname", b"qmgrname"], names)
        }
        // `host[ \t_-]*name`
        Head::HostName => {
            if ci(b, p, b"host") {
                let q = p + 4;
                for k in (0..=run(b, q, sep)).rev() {
                    if ci(b, q + k, b"name")
                        && let Some(v) = tail(b, q + k + 4, names)
                    {
                        return Some(v);
                    }
                }
            }
            None
        }
        // `host|remote[ \t_-]*host|conname|connection[ \t_-]*name`
        Head::Host => {
            if ci(b, p, b"host")
                && let Some(v) = tail(b, p + 4, host)
            {
                return Some(v);
            }
            if let Some(v) = spaced(b, p, b"remote", b"host", sep, host) {
                return Some(v);
            }
            if ci(b, p, b"conname")
                && let Some(v) = tail(b, p + 7, host)
            {
                return Some(v);
            }
            spaced(b, p, b"connection", b"name", sep, host)
        }
        // `address`
        Head::Address => {
            if ci(b, p, b"address") {
                return tail(b, p + 7, eq);
            }
            None
        }
        // `channel(?:[ \t_-]*name)?`
        Head::Channel => {
            if ci(b, p, b"channel") {
                return named(b, p + 7, eq);
            }
            None
        }
        // `(?:queue|qname|xmitq|transmission[ \t]+queue)(?:[ \t_-]*name)?`
        Head::Queue => {
            for w in [&b"queue"[..], b"qname", b"xmitq"] {
                if ci(b, p, w)
                    && let Some(v) = named(b, p + w.len(), eq)
                {
                    return Some(v);
                }
            }
            if ci(b, p, b"transmission") {
                let q = p + 12;
                // `[ \t]+`: at least one.
                for k in (1..=run(b, q, blank)).rev() {
                    if ci(b, q + k, b"queue")
                        && let Some(v) = named(b, q + k + 5, eq)
                    {
                        return Some(v);
                    }
                }
            }
            None
        }
    }
}

/// One of `ws` at `p`, in turn, then the tail.
fn words(b: &[u8], p: usize, ws: &[&[u8]], t: Tail) -> Option<Val> {
    ws.iter()
        .filter(|w| ci(b, p, w))
        .find_map(|w| tail(b, p + w.len(), t))
}

/// `first[sep]*second` at `p`, then the tail.
fn spaced(
    b: &[u8],
    p: usize,
    first: &[u8],
    second: &[u8],
    sep: fn(u8) -> bool,
    t: Tail,
) -> Option<Val> {
    if !ci(b, p, first) {
        return None;
    }
    let q = p + first.len();
    (0..=run(b, q, sep))
        .rev()
        .filter(|k| ci(b, q + k, second))
        .find_map(|k| tail(b, q + k + second.len(), t))
}

/// `(?:[ \t_-]*name)?` at `m`, then the tail: with `name` first (greedy),
/// then without.
fn named(b: &[u8], m: usize, t: Tail) -> Option<Val> {
    spaced(b, m, b"", b"name", sep, t).or_else(|| tail(b, m, t))
}

#[cfg(test)]
thread_local! {
    /// Blanks the tails crossed, to test the work a text costs.
    static TAILS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// The tail at `r`: `[ \t]*` then a quoted, parenthesised or `=` value;
/// else (`bare`) `[ \t]+` and a word holding a digit or symbol, or one
/// in capitals. A run of blanks is taken whole: a shorter one leaves a
/// blank where none of the forms can start.
fn tail(b: &[u8], r: usize, t: Tail) -> Option<Val> {
    let s = r + run(b, r, blank);
    #[cfg(test)]
    TAILS.with(|n| n.set(n.get() + (s - r)));
    let closed = |open: u8, close: u8, stop: &[u8]| {
        let j = s + 1 + run(b, s + 1, |c| !stop.contains(&c));
        (b.get(s) == Some(&open) && j > s + 1 && b.get(j) == Some(&close)).then_some(Val {
            a: s + 1,
            b: j,
            end: j + 1,
            bare: false,
        })
    };
    let quoted = match b.get(s) {
        Some(b'\'') => closed(b'\'', b'\'', b"'\r\n"),
        Some(b'"') => closed(b'"', b'"', b"\"\r\n"),
        Some(b'(') => closed(b'(', b')', b"()\r\n"),
        Some(b'=') => value(b, s + 1),
        Some(b':') if t.colon => value(b, s + 1),
        _ => None,
    };
    if quoted.is_some() || !t.bare || s == r {
        return quoted;
    }
    // `[A-Za-z0-9._%$#@-]*[0-9._%$#@][A-Za-z0-9._%$#@-]*\b`: the longest
    // end past the run's first digit or symbol where `\b` holds.
    let class = |c: u8| {
        c.is_ascii_alphanumeric() || matches!(c, b'.' | b'_' | b'%' | b'$' | b'#' | b'@' | b'-')
    };
    let symbol = |c: u8| c.is_ascii_digit() || matches!(c, b'.' | b'_' | b'%' | b'$' | b'#' | b'@');
    let l = run(b, s, class);
    if let Some(first) = b[s..s + l].iter().position(|&c| symbol(c))
        && let Some(e) = (s + first + 1..=s + l).rev().find(|&e| boundary(b, e))
    {
        return Some(Val {
            a: s,
            b: e,
            end: e,
            bare: true,
        });
    }
    // `[A-Z][A-Z0-9._%$#@-]+\b`
    if b.get(s).is_some_and(u8::is_ascii_uppercase) {
        let caps = |c: u8| class(c) && !c.is_ascii_lowercase();
        let m = run(b, s + 1, caps);
        if let Some(e) = (s + 2..=s + 1 + m).rev().find(|&e| boundary(b, e)) {
            return Some(Val {
                a: s,
                b: e,
                end: e,
                bare: true,
            });
        }
    }
    None
}

/// `[ \t]*([^\s,;'"()]+)` after `=` or `:`.
fn value(b: &[u8], at: usize) -> Option<Val> {
    let u = at + run(b, at, blank);
    let e = u + run(b, u, |c| {
        !matches!(
            c,
            b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r' | b',' | b';' | b'\'' | b'"' | b'(' | b')'
        )
    });
    (e > u).then_some(Val {
        a: u,
        b: e,
        end: e,
        bare: false,
    })
}

/// What the regex finds: (start, end, bare) of each value.
fn by_regex(re: &regex::Regex, s: &str) -> Vec<(usize, usize, bool)> {
    re.captures_iter(s)
        .filter_map(|c| {
            let m = c.iter().skip(1).flatten().next()?;
            Some((m.start(), m.end(), c.get(5).is_some()))
        })
        .collect()
}

/// What the hand matcher finds, as `by_regex` says it.
fn by_hand(head: Head, s: &str) -> Vec<(usize, usize, bool)> {
    let mut v = Vec::new();
    each_match(s, head, |m| v.push((m.a, m.b, m.bare)));
    v
}

/// Checks every phrase on `s` against its regex (panics on the first
/// that disagrees, naming it); the values found. The tests and the
/// `redact` fuzz target ask it.
pub(crate) fn agree(s: &str) -> usize {
    use crate::redact::patterns::{OBJECT_PHRASES, PHRASES};
    let all = PHRASES.iter().zip(PHRASE_HEADS);
    let objects = OBJECT_PHRASES.iter().zip(OBJECT_HEADS);
    let mut n = 0;
    for ((re, _), head) in all.chain(objects) {
        let want = by_regex(re, s);
        assert_eq!(by_hand(head, s), want, "{head:?} in {s:?}");
        n += want.len();
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::redact::patterns::PHRASES;

    /// A head before a long run of blanks crosses it a few times, not
    /// once per blank (1 MB of blanks took minutes).
    #[test]
    fn a_run_of_blanks_is_crossed_once() {
        for glue in [" ", "\t", " \t", "_ ", "- "] {
            let g = glue.repeat(5_000);
            // A lower-case word after the blanks: no tail matches there, so
            // every shorter run of blanks is tried too.
            let s = format!("user{g}x queue manager{g}x host name{g}x host{g}x channel{g}x");
            for head in PHRASE_HEADS.into_iter().chain(OBJECT_HEADS) {
                TAILS.with(|n| n.set(0));
                by_hand(head, &s);
                let crossed = TAILS.with(|n| n.get());
                assert!(
                    crossed <= 3 * g.len(),
                    "{head:?} {glue:?}: {crossed} blanks"
                );
            }
            // And what is found is still the regexes' find.
            agree(&s);
        }
        let s = format!("user{}X1", " ".repeat(100_000));
        assert_eq!(by_hand(Head::User, &s), [(100_004, 100_006, true)]);
    }

    /// Phrases the messages hold, and forms that must not match.
    #[test]
    fn phrases_match_as_their_regexes_do() {
        for s in [
            "AMQ9999E: Channel 'CH.0000000' to host 'app1.example.com (10.0.0.0)' ended.",
            "user id 'bob' and userid=alice, User: carol; uid(dave) principal \"eve\"",
            "user identifier 'x' user name QM1 user -abc1 user ID is",
            "queue manager QMPAY is running; queue_manager_name: QM2 qmgrname(QM3) qmgr NOT",
            "queue  manager  name 'QMA' QMNAME(QMB) queue manager",
            "host name mqhost-0 hostname: h1 host is up remote host 'r1' conname(h2(1414))",
            "connection name 'c1' address 'a1' address: 0x7f address=10.1.2.3",
            "channel 'C1' channel name=C2 queue(Q1) qname 'Q2' xmitq=XQ transmission  queue 'TQ'",
            "username=x user_id:y USER-NAME 'z' useridentifier 'w' users: v",
            "user A.B. user AB. user a.b. user Ab user AB_ user 9",
            "xuser 'no' _host 'no' host\t'tab'\t user\t\tQM9",
        ] {
            assert!(agree(s) > 0, "{s}");
        }
        // Forms without a value: none found, as by the regexes.
        assert_eq!(
            agree("user 'unclosed user \"a\nb\" user () user = ; user:"),
            0
        );
        // A value the matcher must find, and a text where it finds none.
        assert_eq!(by_hand(Head::Host, "to host 'h1'"), [(9, 11, false)]);
        assert!(by_hand(Head::Host, "the host is up").is_empty());
    }

    /// Generated text from the phrases' pieces: the hand matcher and the
    /// regex find the same values in each.
    #[test]
    fn phrases_agree_with_their_regexes() {
        // Heads, the glue after them and values, in that order mostly.
        const HEADS: &[&str] = &[
            "user",
            "USER",
            "user id",
            "user_identifier",
            "User-Name",
            "userid",
            "uid",
            "principal",
            "queue manager",
            "Queue_Manager name",
            "qmgr",
            "qmname",
            "qmgrname",
            "host",
            "host name",
            "hostname",
            "remote  host",
            "remote_host",
            "conname",
            "connection name",
            "address",
            "channel",
            "channel name",
            "queue",
            "qname",
            "xmitq",
            "transmission queue",
            "xuser",
            "users",
            "id",
            "name",
        ];
        const GLUE: &[&str] = &[
            " ", " ", "  ", "\t", "_", "-", "=", ":", " = ", ": ", "", "", "", "(", "'", "\"",
        ];
        const VALUES: &[&str] = &[
            "'bob'",
            "\"QM1\"",
            "(h1(1414))",
            "QM1",
            "Ab",
            "AB",
            "a.b",
            "A.B.",
            "9",
            "x#1",
            "@y",
            "-abc1",
            "ID",
            "NOT",
            "is",
            "'",
            ")",
            "a b",
            "QM_1.",
            "z%",
            ",",
            ";",
            "\n",
            ".",
        ];
        // A fixed generator: the same cases every run.
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let (mut found, mut bare) = (0, 0);
        for _ in 0..20_000 {
            let mut s = String::new();
            for _ in 0..1 + next(4) {
                for list in [HEADS, GLUE, GLUE, VALUES, GLUE] {
                    if next(5) > 0 {
                        s.push_str(list[next(list.len())]);
                    }
                }
            }
            found += agree(&s);
            bare += usize::from(
                PHRASES
                    .iter()
                    .any(|(re, _)| re.captures_iter(&s).any(|c| c.get(5).is_some())),
            );
        }
        // The cases reach the phrases: values, bare ones too.
        assert!(found > 5_000 && bare > 1_000, "{found} values, {bare} bare");
    }
}
