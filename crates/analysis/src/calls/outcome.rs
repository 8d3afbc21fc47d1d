//! The reason a trace text line states (`CompCode=2 Reason=2035`,
//! `Reason(MQRC_NOT_AUTHORIZED)`, `ReasonCode: 0x7F1`), read from the
//! bytes. Every text line on a thread with an MQI call open or just ended
//! is asked, and most state nothing: a line without `Reason` is answered
//! by one substring search, an ASCII line by the byte parser below. A line
//! with other characters goes to the regular expressions, whose Unicode
//! classes (`\b`, `\s`, `\d`) the byte parser does not try to follow; they
//! are also the definition the parser is tested against.

use mqdiag_model::mqrc::{self, Outcome};
use regex::Regex;
use std::sync::LazyLock;

static REASON_RE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\bReason(?:Code)?\s*(?:=|:|\()\s*(MQRC_[A-Z0-9_]+|0[xX][0-9A-Fa-f]+|\d+)")
        .expect("reason regex")
});
static COMPCODE_RE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\bCompCode\s*(?:=|:|\()\s*(\d+)").expect("compcode regex"));

static REASON: LazyLock<memchr::memmem::Finder<'static>> =
    LazyLock::new(|| memchr::memmem::Finder::new(b"Reason"));
// Made once: a searcher built for every line was a tenth of this rule's
// cost on a trace of a million failing processes.
static COMPCODE: LazyLock<memchr::memmem::Finder<'static>> =
    LazyLock::new(|| memchr::memmem::Finder::new(b"CompCode"));

/// The outcome a text line states, if any.
pub(crate) fn stated(text: &str) -> Option<Outcome> {
    // The calls table and access-refused ask of the same line in turn:
    // the last line that names a reason is answered from memory (a pure
    // function of the text, compared whole, before any search; a long
    // line is not kept).
    if text.len() > 256 {
        REASON.find(text.as_bytes())?;
        return parse(text);
    }
    LAST.with_borrow_mut(|(last, o)| {
        if last.as_str() != text {
            REASON.find(text.as_bytes())?;
            *o = parse(text);
            last.clear();
            last.push_str(text);
        }
        o.clone()
    })
}

thread_local! {
    static LAST: std::cell::RefCell<(String, Option<Outcome>)> =
        const { std::cell::RefCell::new((String::new(), None)) };
}

fn parse(text: &str) -> Option<Outcome> {
    let b = text.as_bytes();
    let (reason, cc) = if b.is_ascii() {
        (reason_value(b)?, compcode_value(b))
    } else {
        by_regex(text)?
    };
    decide(reason, cc)
}

fn decide(reason: &str, cc: Option<u32>) -> Option<Outcome> {
    match mqrc::decode_rc(reason) {
        Outcome::Ok if cc.unwrap_or(0) == 0 => Some(Outcome::Ok),
        Outcome::Ok => None,
        o => Some(o),
    }
}

/// The reason as written and the completion code, by the regular
/// expressions.
fn by_regex(text: &str) -> Option<(&str, Option<u32>)> {
    let r = REASON_RE.captures(text)?.get(1)?.as_str();
    let cc = COMPCODE_RE
        .captures(text)
        .and_then(|c| c[1].parse::<u32>().ok());
    Some((r, cc))
}

/// `\s` for ASCII.
fn space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

/// `\w` for ASCII.
fn word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

fn spaces(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && space(b[i]) {
        i += 1;
    }
    i
}

/// Past `\s*(?:=|:|\()\s*` from `i`, if it is there.
fn separator(b: &[u8], i: usize) -> Option<usize> {
    let i = spaces(b, i);
    matches!(b.get(i), Some(b'=' | b':' | b'(')).then(|| spaces(b, i + 1))
}

fn run(b: &[u8], i: usize, class: impl Fn(u8) -> bool) -> usize {
    i + b[i..].iter().take_while(|&&c| class(c)).count()
}

/// Each place `name` (what `finder` finds) starts a word in `b`, in order.
fn words_at<'b>(
    b: &'b [u8],
    finder: &'b memchr::memmem::Finder<'static>,
) -> impl Iterator<Item = usize> + 'b {
    finder
        .find_iter(b)
        .filter(move |&i| i == 0 || !word(b[i - 1]))
}

/// `REASON_RE`'s capture in an ASCII line: the first `Reason` (or
/// `ReasonCode`) at a word start that is followed by a separator and a
/// value.
fn reason_value(b: &[u8]) -> Option<&str> {
    for i in words_at(b, &REASON) {
        let mut j = i + 6;
        if b[j..].starts_with(b"Code") {
            j += 4;
        }
        let Some(v) = separator(b, j) else {
            continue;
        };
        let rest = &b[v..];
        let end = if rest.starts_with(b"MQRC_")
            && rest
                .get(5)
                .is_some_and(|&c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == b'_')
        {
            run(b, v + 5, |c| {
                c.is_ascii_uppercase() || c.is_ascii_digit() || c == b'_'
            })
        } else if rest.len() > 2
            && rest[0] == b'0'
            && matches!(rest[1], b'x' | b'X')
            && rest[2].is_ascii_hexdigit()
        {
            run(b, v + 2, |c| c.is_ascii_hexdigit())
        } else if rest.first().is_some_and(u8::is_ascii_digit) {
            run(b, v, |c| c.is_ascii_digit())
        } else {
            continue;
        };
        // ASCII throughout, so any cut is a character boundary.
        return std::str::from_utf8(&b[v..end]).ok();
    }
    None
}

/// `COMPCODE_RE`'s value in an ASCII line (`None` past `u32`, as the
/// regex's capture then does not parse).
fn compcode_value(b: &[u8]) -> Option<u32> {
    for i in words_at(b, &COMPCODE) {
        let Some(v) = separator(b, i + 8) else {
            continue;
        };
        let end = run(b, v, |c| c.is_ascii_digit());
        if end == v {
            continue;
        }
        return std::str::from_utf8(&b[v..end]).ok()?.parse().ok();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn oracle(text: &str) -> Option<Outcome> {
        let (r, cc) = by_regex(text)?;
        decide(r, cc)
    }

    #[test]
    fn byte_parser_agrees_with_the_regexes() {
        let parts = [
            "Reason",
            "ReasonCode",
            "CompCode",
            "xReason",
            "_CompCode",
            " ",
            "\t",
            "\x0b",
            "=",
            ":",
            "(",
            ")",
            "2035",
            "0",
            "00",
            "0x7F1",
            "0X",
            "0xg",
            "MQRC_",
            "MQRC_NOT_AUTHORIZED",
            "MQRC_a",
            "2",
            "99999999999",
            "-",
            "Code",
            ",",
            "é",
        ];
        let (mut checked, mut kinds) = (0, [0; 3]);
        // The parser agrees with the regexes; count which answer it was.
        let mut check = |buf: &str| {
            assert_eq!(stated(buf), oracle(buf), "{buf:?}");
            // Asked again (from memory), and after another line.
            assert_eq!(stated(buf), oracle(buf), "{buf:?}");
            checked += 1;
            kinds[match oracle(buf) {
                None => 0,
                Some(Outcome::Ok) => 1,
                Some(_) => 2,
            }] += 1;
        };
        let mut buf = String::new();
        // Every sequence of up to three parts, then random longer ones.
        for w in mqdiag_model::testrng::every_word(&parts, 3) {
            buf = w.concat();
            check(&buf);
        }
        let mut rng = mqdiag_model::testrng::Rng::new(25);
        for _ in 0..50_000 {
            buf.clear();
            for _ in 0..=rng.below(8) {
                buf.push_str(parts[rng.below(parts.len())]);
            }
            check(&buf);
        }
        // The parts make every answer: nothing, OK and a reason.
        assert!(kinds.iter().all(|&k| k > 50), "{kinds:?}");
        assert!(checked > 60_000);
    }
}
