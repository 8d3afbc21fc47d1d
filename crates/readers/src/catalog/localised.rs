//! Values from a localised message text, when its record has no inserts.
//!
//! MQ writes a message in the queue manager's language: `Der Kanalname ist
//! 'APP1.SVRCONN'`, `Канал 'QM1.QM2' к хосту 'srv02 (10.0.0.5)(1414)'`.
//! The English patterns of the catalogue find nothing there, so records of
//! one problem from a German and an English system would land in
//! different groups. What every language keeps is the inserts themselves:
//! the translated template quotes them as the English one does (`'...'`,
//! and where a language uses its own marks `«...»`, `„...“`, `“...”`,
//! `「...」`, `『...』`), and numbers and return codes keep their form
//! (`104 (X'68')`).
//!
//! Where the values sit: the inserts (`CommentInsertN`, `ArithInsertN`)
//! are the truth and the catalogue lists them per message; this module is
//! only the fallback for records without them (before MQ 9.1, or a log
//! copied without its header). It runs only when the text lacks the
//! message's English wording (`Src::Localised::english`), so English texts
//! give exactly what the English patterns give.
//!
//! Order is not evidence: translators reorder a sentence's inserts (the
//! Russian AMQ9999 names the channel before the host like the English one,
//! but a template that puts the verb first moves them), and the
//! explanation repeats inserts in yet another order. So each quoted value
//! is classified by its shape first:
//! * a host spec `name (a.b.c.d)(port)`, or an IP address, is a host;
//! * a known socket function (`getaddrinfo`, `recv`) is the function;
//! * an MQ-name shaped value (at most 20 of `A-Z a-z 0-9 . _ / %`, not a
//!   transport name such as `TCP/IP`) is a channel, or a host written as a
//!   bare name: those two shapes cannot be told apart, and only there the
//!   catalogue's field order (the English template's order) decides;
//! * other single-word values (`my-host.example.com`) can be a bare host.
//!
//! Numbers are not quoted: a return code is `N (X'H')` in every language,
//! seconds the one bare integer of the message.

use super::Shape;
use super::net::{is_ip, is_unknown, split_host};

/// Transport names MQ quotes in some messages: never a channel.
const TRANSPORTS: [&str; 5] = ["TCP/IP", "TCP", "LU62", "NETBIOS", "SPX"];

/// Socket and resolver calls MQ names in its messages.
const FUNCTIONS: [&str; 16] = [
    "getaddrinfo",
    "getnameinfo",
    "gethostbyname",
    "gethostbyaddr",
    "recv",
    "send",
    "select",
    "connect",
    "bind",
    "listen",
    "accept",
    "socket",
    "setsockopt",
    "getsockopt",
    "poll",
    "shutdown",
];

/// The distinct quoted values of `text`, first occurrence first.
pub(super) fn quoted_values(text: &str) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    // Spans do not nest: after one, scanning goes on past its end.
    let mut it = text.char_indices().peekable();
    let mut prev: Option<char> = None;
    while let Some((i, c)) = it.next() {
        let close = match c {
            // An apostrophe after a letter or digit is French elision
            // (`l'hôte`) or a hex literal (`X'68'`), not an opening quote.
            '\'' if !prev.is_some_and(|p| p.is_ascii_alphanumeric()) => '\'',
            '«' => '»',
            '„' => '“',
            '“' => '”',
            '「' => '」',
            '『' => '』',
            _ => {
                prev = Some(c);
                continue;
            }
        };
        let start = i + c.len_utf8();
        let rest = &text[start..];
        // The closing mark; an apostrophe closes only where no ASCII letter
        // or digit follows (`'aujourd'hui'` keeps its inner one).
        let end = rest.char_indices().find(|&(j, d)| {
            d == close
                && (close != '\''
                    || !rest[j + 1..]
                        .chars()
                        .next()
                        .is_some_and(|n| n.is_ascii_alphanumeric()))
        });
        let Some((j, _)) = end else {
            prev = Some(c);
            continue;
        };
        let v = rest[..j].trim();
        if !v.is_empty() && !out.contains(&v) {
            out.push(v);
        }
        let stop = start + j + close.len_utf8();
        while it.peek().is_some_and(|&(k, _)| k < stop) {
            it.next();
        }
        prev = Some(close);
    }
    out
}

/// What a quoted value looks like.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    /// `name (ip)(port)`, `ip (port)`, an IP.
    Host,
    Function,
    /// MQ-name shaped: a channel or a bare host name.
    Name,
    /// One word that is no MQ name: a bare host name at most.
    Word,
    Other,
}

fn kind(v: &str) -> Kind {
    let bare = v.strip_suffix("()").unwrap_or(v);
    if FUNCTIONS.contains(&bare) {
        return Kind::Function;
    }
    if is_ip(v)
        || (v.contains('(')
            && split_host(v).is_some_and(|h| h.address.is_some() || h.port.is_some()))
    {
        return Kind::Host;
    }
    let mq = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'/' | b'%');
    // A quoted number is a count or a process id, never a name.
    if v.bytes().all(|b| b.is_ascii_digit()) {
        return Kind::Other;
    }
    if v.len() <= 20 && v.bytes().all(mq) && !TRANSPORTS.contains(&v) {
        return Kind::Name;
    }
    let word = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-' | b':');
    if v.len() <= 255 && v.bytes().all(word) {
        return Kind::Word;
    }
    Kind::Other
}

/// `-?N (X'H')` anywhere: the return code, decimal and hexadecimal.
fn return_code(text: &str) -> Option<(String, String)> {
    let b = text.as_bytes();
    let mut from = 0;
    while let Some(k) = text[from..].find(" (X'") {
        let at = from + k;
        from = at + 4;
        let digits = b[..at]
            .iter()
            .rev()
            .take_while(|c| c.is_ascii_digit())
            .count();
        if digits == 0 {
            continue;
        }
        let mut start = at - digits;
        if start > 0 && b[start - 1] == b'-' {
            start -= 1;
        }
        let h = at + 4;
        let n = b[h..].iter().take_while(|c| c.is_ascii_hexdigit()).count();
        if n > 0 && text[h + n..].starts_with("')") {
            return Some((text[start..at].to_string(), text[h..h + n].to_string()));
        }
    }
    None
}

/// A known call written unquoted: `recv()` or `(recv)`.
fn function_call(text: &str) -> Option<String> {
    let b = text.as_bytes();
    let word = |c: &u8| c.is_ascii_alphanumeric() || *c == b'_';
    for (i, _) in text.match_indices('(') {
        // `name()`.
        if text[i..].starts_with("()") {
            let n = b[..i].iter().rev().take_while(|c| word(c)).count();
            let f = &text[i - n..i];
            if FUNCTIONS.contains(&f) {
                return Some(f.to_string());
            }
        }
        // `(name)`.
        let n = b[i + 1..].iter().take_while(|c| word(c)).count();
        let f = &text[i + 1..i + 1 + n];
        if b.get(i + 1 + n) == Some(&b')') && FUNCTIONS.contains(&f) {
            return Some(f.to_string());
        }
    }
    None
}

/// The first integer standing alone outside quoted values: not part of an
/// address, a time, a port in parentheses, a name or a hex literal.
fn bare_number(text: &str, quoted: &[&str]) -> Option<String> {
    let b = text.as_bytes();
    let glued = |c: u8| c.is_ascii_alphanumeric() || b"._:()/'-%".contains(&c);
    let mut i = 0;
    while i < b.len() {
        if !b[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        let before = start.checked_sub(1).map(|p| b[p]);
        let after = b.get(i).copied();
        if before.is_some_and(glued) || after.is_some_and(glued) {
            continue;
        }
        let n = &text[start..i];
        // A number quoted alone is an insert of another kind (a count).
        if quoted.contains(&n) {
            continue;
        }
        return Some(n.to_string());
    }
    None
}

/// The values of `wanted` (attribute and shape, in the catalogue's order)
/// found in the localised `text`, as `(attribute, value)`: `hostspec` is a
/// host spec to split, `reason` comes with `reason_hex`. `taken` are
/// values already set from patterns, which no other field may take.
pub(super) fn values(
    text: &str,
    wanted: &[(&'static str, Shape)],
    taken: &[&str],
) -> Vec<(&'static str, String)> {
    let quoted = quoted_values(text);
    let kinds: Vec<Kind> = quoted.iter().map(|v| kind(v)).collect();
    let mut used: Vec<bool> = quoted
        .iter()
        .map(|v| is_unknown(v) || taken.contains(v))
        .collect();
    let mut out: Vec<(&'static str, String)> = Vec::new();
    let first = |kinds_ok: &[Kind], used: &mut Vec<bool>| -> Option<String> {
        let i = (0..quoted.len()).find(|&i| !used[i] && kinds_ok.contains(&kinds[i]))?;
        used[i] = true;
        Some(quoted[i].to_string())
    };
    // Sure shapes first, so that a name-shaped value is left for the
    // fields only a name can fill.
    let mut deferred = Vec::new();
    for &(attr, shape) in wanted {
        let v = match shape {
            Shape::Function => first(&[Kind::Function], &mut used)
                .map(|f| f.trim_end_matches("()").to_string())
                .or_else(|| function_call(text)),
            Shape::Host => first(&[Kind::Host], &mut used),
            Shape::ReturnCode => {
                if let Some((dec, hex)) = return_code(text) {
                    out.push(("reason_hex", hex));
                    Some(dec)
                } else {
                    None
                }
            }
            Shape::Number => bare_number(text, &quoted),
            Shape::Channel | Shape::Name | Shape::Program => None,
        };
        match v {
            Some(v) => out.push((attr, v)),
            None => deferred.push((attr, shape)),
        }
    }
    // Names in the template's order: a channel takes an MQ name, a host a
    // bare name or word.
    for (attr, shape) in deferred {
        let v = match shape {
            Shape::Channel => first(&[Kind::Name], &mut used),
            Shape::Host | Shape::Name => first(&[Kind::Name, Kind::Word], &mut used),
            Shape::Program => first(&[Kind::Name, Kind::Word, Kind::Other], &mut used),
            _ => None,
        };
        if let Some(v) = v {
            out.push((attr, v));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_of_every_language_and_elision() {
        let t = "Connexion à l'hôte «app1 (10.1.1.5)» pour le canal 'A.B' fermée; \
                 „DE.CHL“ “x” 「JA.CHL」 『y』 X'68' aujourd'hui 'A.B' 'l'autre'";
        assert_eq!(
            quoted_values(t),
            [
                "app1 (10.1.1.5)",
                "A.B",
                "DE.CHL",
                "x",
                "JA.CHL",
                "y",
                "l'autre"
            ]
        );
        // Unclosed marks give nothing and do not hide what follows.
        assert_eq!(quoted_values("« open 'B'"), ["B"]);
        assert_eq!(quoted_values("'"), Vec::<&str>::new());
    }

    #[test]
    fn shapes() {
        assert_eq!(kind("app1 (10.1.1.5)(1414)"), Kind::Host);
        assert_eq!(kind("10.1.1.5"), Kind::Host);
        assert_eq!(kind("fe80::1"), Kind::Host);
        assert_eq!(kind("getaddrinfo"), Kind::Function);
        assert_eq!(kind("recv()"), Kind::Function);
        assert_eq!(kind("APP1.SVRCONN"), Kind::Name);
        assert_eq!(kind("centos6"), Kind::Name);
        assert_eq!(kind("TCP/IP"), Kind::Other);
        assert_eq!(kind("my-host.example.com"), Kind::Word);
        assert_eq!(kind("REVDNS(DISABLED)"), Kind::Other);
        assert_eq!(kind("a b"), Kind::Other);
    }

    #[test]
    fn numbers_and_codes() {
        assert_eq!(
            return_code("war -1 (X'FFFF') und 3 (X'3')"),
            Some(("-1".into(), "FFFF".into()))
        );
        assert_eq!(return_code("X'68' (X'zz')"), None);
        let t = "Adresse '10.1.2.3' port (1414) 12:30 v9.1 'ab' '7' 7 dauerte 5 Sekunden";
        assert_eq!(bare_number(t, &quoted_values(t)), Some("5".into()));
        assert_eq!(bare_number("完了までに 10秒", &[]), Some("10".into()));
        assert_eq!(bare_number("ab1 1a", &[]), None);
        assert_eq!(
            function_call("TCP/IP-Aufrufs recv() war"),
            Some("recv".into())
        );
        assert_eq!(function_call("(x) (select) ()"), Some("select".into()));
        assert_eq!(function_call("() nope() (nope)"), None);
    }

    #[test]
    fn names_by_shape_then_by_order() {
        let wanted = [("channel", Shape::Channel), ("hostspec", Shape::Host)];
        // The host first in the text: its shape still makes it the host.
        let v = values("хост 'h1 (1.2.3.4)' канал 'C.1'", &wanted, &[]);
        assert_eq!(
            v,
            [
                ("hostspec", "h1 (1.2.3.4)".into()),
                ("channel", "C.1".into())
            ]
        );
        // Two bare names: the template's order decides.
        let v = values("Kanal 'C.1' Host 'h1'", &wanted, &[]);
        assert_eq!(v, [("channel", "C.1".into()), ("hostspec", "h1".into())]);
        // A value a pattern already took (the channel) is not the host.
        let v = values("Kanal 'C.1' Host 'h1'", &wanted[1..], &["C.1"]);
        assert_eq!(v, [("hostspec", "h1".into())]);
    }

    #[test]
    fn a_program_may_be_a_path_with_spaces() {
        let wanted = [("client_user", Shape::Name), ("appl", Shape::Program)];
        let v = values("ID 'app' 'C:\\Program Files\\x.exe'", &wanted, &[]);
        assert_eq!(
            v,
            [
                ("client_user", "app".into()),
                ("appl", "C:\\Program Files\\x.exe".into())
            ]
        );
        // A user id is never a path.
        let v = values("'C:\\Program Files\\x.exe'", &wanted[..1], &[]);
        assert_eq!(v, []);
    }
}
