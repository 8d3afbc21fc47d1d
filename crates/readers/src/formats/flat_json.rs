//! One-level JSON objects read in one pass, without a general parser: the
//! shape of MQ's JSON error-log records and of mq-container's console
//! records (string, integer and literal values, no escapes). Anything else
//! (an escape, a tab, a nested value, a fraction, a syntax error) is left
//! to serde_json: `members` then says no, and the caller parses the line
//! there, so that what is accepted and every error stay serde_json's.

/// A member's value as written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scalar<'a> {
    /// A string's content (it has no escapes).
    Str(&'a str),
    /// An integer that fits 64 bits, as written (which is how serde_json
    /// prints it: no leading zero, no `-0`).
    Int(&'a str),
    Bool(bool),
    Null,
}

/// Calls `member` with each member of the object `line`, in order, and
/// returns true when `line` is such an object and nothing else. False when
/// it is not (or not only) a one-level object of the values above; the
/// members passed before saying so must then be dropped.
pub(crate) fn members<'a>(line: &'a str, mut member: impl FnMut(&'a str, Scalar<'a>)) -> bool {
    let b = line.as_bytes();
    // Blanks other than a space go to serde_json too.
    let mut i = skip_spaces(b, 0);
    if b.get(i) != Some(&b'{') {
        return false;
    }
    i = skip_spaces(b, i + 1);
    if b.get(i) == Some(&b'}') {
        return skip_spaces(b, i + 1) == b.len();
    }
    loop {
        let Some((key, after)) = string(line, i) else {
            return false;
        };
        i = skip_spaces(b, after);
        if b.get(i) != Some(&b':') {
            return false;
        }
        i = skip_spaces(b, i + 1);
        let value = match b.get(i) {
            Some(b'"') => {
                let Some((s, after)) = string(line, i) else {
                    return false;
                };
                i = after;
                Scalar::Str(s)
            }
            Some(b'-' | b'0'..=b'9') => {
                let Some(end) = integer(b, i) else {
                    return false;
                };
                let n = &line[i..end];
                i = end;
                Scalar::Int(n)
            }
            Some(b't') if b[i..].starts_with(b"true") => {
                i += 4;
                Scalar::Bool(true)
            }
            Some(b'f') if b[i..].starts_with(b"false") => {
                i += 5;
                Scalar::Bool(false)
            }
            Some(b'n') if b[i..].starts_with(b"null") => {
                i += 4;
                Scalar::Null
            }
            _ => return false,
        };
        member(key, value);
        i = skip_spaces(b, i);
        match b.get(i) {
            Some(b',') => i = skip_spaces(b, i + 1),
            Some(b'}') => return skip_spaces(b, i + 1) == b.len(),
            _ => return false,
        }
    }
}

fn skip_spaces(b: &[u8], mut i: usize) -> usize {
    while b.get(i) == Some(&b' ') {
        i += 1;
    }
    i
}

/// The string opening at `line[i]` (a quote): its content and the index
/// after its closing quote; `None` when it is cut or holds an escape or a
/// control byte (serde_json refuses those unescaped).
#[inline(always)]
fn string(line: &str, i: usize) -> Option<(&str, usize)> {
    let b = line.as_bytes();
    if b.get(i) != Some(&b'"') {
        return None;
    }
    let start = i + 1;
    let mut j = start;
    // Eight bytes at a time: strings are short, and a search call for
    // each cost more than the rest of reading the line.
    while let Some(chunk) = b.get(j..j + 8) {
        let Ok(word) = <[u8; 8]>::try_from(chunk) else {
            break;
        };
        let hit = special(u64::from_le_bytes(word));
        if hit != 0 {
            j += (hit.trailing_zeros() / 8) as usize;
            return close(line, start, j);
        }
        j += 8;
    }
    while let Some(&c) = b.get(j) {
        if c == b'"' || c == b'\\' || c < 0x20 {
            return close(line, start, j);
        }
        j += 1;
    }
    None
}

/// The string from `start` when `line[end]` is its closing quote.
fn close(line: &str, start: usize, end: usize) -> Option<(&str, usize)> {
    // Both ends are next to ASCII quotes: char boundaries.
    (line.as_bytes()[end] == b'"').then(|| (&line[start..end], end + 1))
}

/// The string opening at `b[i]` (a quote), its escapes decoded, appended
/// to `out`; the index after its closing quote. `None` (with `out` left
/// partly written) wherever serde_json might read it otherwise: a cut
/// string, a control byte, bytes that are not UTF-8, an unknown escape or
/// a `\u` escape of a surrogate (serde_json's rules for those are its
/// own: the caller asks it).
pub(crate) fn unescape_into(b: &[u8], i: usize, out: &mut Vec<u8>) -> Option<usize> {
    if b.get(i) != Some(&b'"') {
        return None;
    }
    let mut j = i + 1;
    loop {
        let run = memchr::memchr2(b'"', b'\\', &b[j..])?;
        let text = &b[j..j + run];
        if !plain_text(text) {
            return None;
        }
        out.extend_from_slice(text);
        j += run;
        if b[j] == b'"' {
            return Some(j + 1);
        }
        let c = match *b.get(j + 1)? {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let hex = std::str::from_utf8(b.get(j + 2..j + 6)?).ok()?;
                if !hex.bytes().all(|h| h.is_ascii_hexdigit()) {
                    return None;
                }
                let n = u32::from_str_radix(hex, 16).ok()?;
                j += 4;
                // A surrogate is half of a pair: left to serde_json.
                char::from_u32(n)?
            }
            _ => return None,
        };
        let mut utf8 = [0u8; 4];
        out.extend_from_slice(c.encode_utf8(&mut utf8).as_bytes());
        j += 2;
    }
}

/// What `repair_escapes` changed in a line, for its problem.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Repaired {
    /// The line with each bad escape written `\ufffd`.
    pub(crate) line: String,
    /// How many escapes were replaced.
    pub(crate) count: usize,
    /// The first of them, as written (`\ud800`), and where it starts.
    pub(crate) first: String,
    pub(crate) at: usize,
}

/// serde_json's reading of `text`; when it refuses it for a string escape
/// that is no character, its reading of `text` repaired (`repair_escapes`)
/// and what was repaired (for a located problem). The first error
/// otherwise.
pub(crate) fn from_str_repairing<T: serde::de::DeserializeOwned>(
    text: &str,
) -> Result<(T, Option<Repaired>), serde_json::Error> {
    match serde_json::from_str(text) {
        Ok(v) => Ok((v, None)),
        Err(e) => match repair_escapes(text) {
            Some(r) => match serde_json::from_str(&r.line) {
                Ok(v) => Ok((v, Some(r))),
                Err(_) => Err(e),
            },
            None => Err(e),
        },
    }
}

impl Repaired {
    /// The line of the first repair in a text whose first line is `first`.
    pub(crate) fn line_in(&self, text: &str, first: u64) -> u64 {
        first + memchr::memchr_iter(b'\n', &text.as_bytes()[..self.at]).count() as u64
    }

    /// The located problem's text.
    pub(crate) fn message(&self) -> String {
        let more = match self.count {
            1 => String::new(),
            n => format!(" and {} more", n - 1),
        };
        format!(
            "JSON string escape `{}`{more} is no character (a lone UTF-16 surrogate or an \
             unknown escape): replaced by U+FFFD, the record kept",
            self.first
        )
    }
}

/// `line` with every string escape that is no character (a lone UTF-16
/// surrogate `\ud800`, a `\u` without four hex digits, an unknown `\x`)
/// written `\ufffd` (U+FFFD), so that serde_json reads the record instead
/// of refusing the whole line; `None` when the line has none (its error
/// is another). Only for lines serde_json refused: the readers' fast
/// paths never pay for it.
pub(crate) fn repair_escapes(line: &str) -> Option<Repaired> {
    let b = line.as_bytes();
    let mut out = String::with_capacity(line.len() + 8);
    let (mut count, mut first, mut at) = (0, String::new(), 0);
    let hex4 = |at: usize| -> Option<u32> {
        let h = b.get(at..at + 4)?;
        if !h.iter().all(u8::is_ascii_hexdigit) {
            return None;
        }
        u32::from_str_radix(std::str::from_utf8(h).ok()?, 16).ok()
    };
    let (mut i, mut last, mut in_string) = (0, 0, false);
    while i < b.len() {
        match b[i] {
            b'"' => in_string = !in_string,
            b'\\' if in_string => {
                // The escape's length when it is good; else the bytes
                // replaced.
                let (good, len) = match b.get(i + 1) {
                    Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => (true, 2),
                    Some(b'u') => match hex4(i + 2) {
                        Some(0xD800..=0xDBFF) => {
                            let low = (b.get(i + 6..i + 8) == Some(b"\\u"))
                                .then(|| hex4(i + 8))
                                .flatten();
                            match low {
                                Some(0xDC00..=0xDFFF) => (true, 12),
                                _ => (false, 6),
                            }
                        }
                        Some(0xDC00..=0xDFFF) => (false, 6),
                        Some(_) => (true, 6),
                        None => {
                            let n = b[i + 2..]
                                .iter()
                                .take(4)
                                .take_while(|h| h.is_ascii_hexdigit());
                            (false, 2 + n.count())
                        }
                    },
                    // A backslash at the end: the line is cut, not repaired.
                    None => return None,
                    Some(_) => (false, 2),
                };
                if !good {
                    // Whole characters: the escape's bytes are ASCII, and
                    // an unknown escape's second one may not be.
                    let mut end = i + len;
                    while !line.is_char_boundary(end) {
                        end += 1;
                    }
                    out.push_str(&line[last..i]);
                    out.push_str("\\ufffd");
                    if count == 0 {
                        first = line[i..end].to_string();
                        at = i;
                    }
                    count += 1;
                    last = end;
                    i = end;
                    continue;
                }
                i += len;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    if count == 0 {
        return None;
    }
    out.push_str(&line[last..]);
    Some(Repaired {
        line: out,
        count,
        first,
        at,
    })
}

/// No control byte, and UTF-8: what JSON takes unescaped in a string.
/// ASCII without controls, nearly every line, is told by one fold of byte
/// arithmetic (the high bit of `c - 0x20` is set below a blank, and of `c`
/// past ASCII), which the compiler does many bytes at a time.
pub(crate) fn plain_text(b: &[u8]) -> bool {
    let odd = b.iter().fold(0u8, |any, &c| any | c | c.wrapping_sub(0x20));
    odd & 0x80 == 0 || (no_controls(b) && std::str::from_utf8(b).is_ok())
}

/// No byte below a blank (JSON refuses them unescaped in a string): a
/// fold without an early exit, which the compiler does many at a time.
fn no_controls(b: &[u8]) -> bool {
    !b.iter().fold(false, |any, &c| any | (c < 0x20))
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// The high bit of each byte of `x` (little-endian) that is a quote, a
/// backslash or below 0x20; above the lowest one set, bits may be set for
/// other bytes (a borrow), so only the lowest is to be used.
fn special(x: u64) -> u64 {
    has_zero(x ^ (ONES * u64::from(b'"')))
        | has_zero(x ^ (ONES * u64::from(b'\\')))
        | (x.wrapping_sub(ONES * 0x20) & !x & HIGHS)
}

/// Non-zero when `y` has a zero byte; the lowest bit set marks the first.
fn has_zero(y: u64) -> u64 {
    y.wrapping_sub(ONES) & !y & HIGHS
}

/// The end of the integer at `b[i]` when it is one serde_json reads as a
/// 64-bit integer and prints as written; `None` for anything else (a
/// fraction, an exponent, `-0`, a leading zero, too many digits).
fn integer(b: &[u8], i: usize) -> Option<usize> {
    let negative = b[i] == b'-';
    let start = i + usize::from(negative);
    let digits = b[start..].iter().take_while(|c| c.is_ascii_digit()).count();
    let end = start + digits;
    // 19 digits always fit a u64, 18 an i64.
    let max = if negative { 18 } else { 19 };
    let first = *b.get(start)?;
    let plain = digits >= 1
        && digits <= max
        && (first != b'0' || (digits == 1 && !negative))
        && !matches!(b.get(end), Some(b'.' | b'e' | b'E'));
    plain.then_some(end)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn scan(line: &str) -> Option<Vec<(&str, Scalar<'_>)>> {
        let mut out = Vec::new();
        members(line, |k, v| out.push((k, v))).then_some(out)
    }

    /// What serde_json makes of `line`, in the scanner's terms: `None`
    /// when it is an error or another value; members whose value is not
    /// a scalar are marked.
    fn by_serde(line: &str) -> Option<Vec<(String, String)>> {
        // A map that keeps every member, duplicates included, in order.
        struct All(Vec<(String, String)>);
        impl<'de> serde::Deserialize<'de> for All {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct V;
                impl<'de> serde::de::Visitor<'de> for V {
                    type Value = All;
                    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                        f.write_str("an object")
                    }
                    fn visit_map<A: serde::de::MapAccess<'de>>(
                        self,
                        mut m: A,
                    ) -> Result<All, A::Error> {
                        let mut out = Vec::new();
                        while let Some(k) = m.next_key::<String>()? {
                            let v = match m.next_value::<Value>()? {
                                Value::String(s) => format!("s:{s}"),
                                Value::Number(n) => format!("n:{n}"),
                                Value::Bool(b) => format!("b:{b}"),
                                Value::Null => "null".to_string(),
                                _ => "nested".to_string(),
                            };
                            out.push((k, v));
                        }
                        Ok(All(out))
                    }
                }
                d.deserialize_map(V)
            }
        }
        serde_json::from_str::<All>(line).ok().map(|a| a.0)
    }

    fn as_serde(members: Vec<(&str, Scalar<'_>)>) -> Vec<(String, String)> {
        members
            .into_iter()
            .map(|(k, v)| {
                let v = match v {
                    Scalar::Str(s) => format!("s:{s}"),
                    Scalar::Int(n) => format!("n:{n}"),
                    Scalar::Bool(b) => format!("b:{b}"),
                    Scalar::Null => "null".to_string(),
                };
                (k.to_string(), v)
            })
            .collect()
    }

    #[test]
    fn plain_records_are_read_member_by_member() {
        let line = r#"{"ibm_messageId":"AMQ9209E","ibm_processId":612,"x":-7,"ok":true,"no":false,"n":null,"e":"","ibm_messageId":"dup"}"#;
        assert_eq!(
            scan(line).unwrap(),
            vec![
                ("ibm_messageId", Scalar::Str("AMQ9209E")),
                ("ibm_processId", Scalar::Int("612")),
                ("x", Scalar::Int("-7")),
                ("ok", Scalar::Bool(true)),
                ("no", Scalar::Bool(false)),
                ("n", Scalar::Null),
                ("e", Scalar::Str("")),
                ("ibm_messageId", Scalar::Str("dup")),
            ]
        );
        assert_eq!(scan("{}").unwrap(), vec![]);
        assert_eq!(
            scan(r#" { "a" : "é ’" } "#).unwrap(),
            vec![("a", Scalar::Str("é ’"))]
        );
    }

    /// Eight bytes at a time finds what one at a time finds, whichever
    /// byte of a word the end falls on, after any bytes.
    #[test]
    fn strings_end_where_a_byte_loop_ends_them() {
        fn by_byte(line: &str) -> Option<(&str, usize)> {
            let b = line.as_bytes();
            let end = (1..b.len()).find(|&j| matches!(b[j], b'"' | b'\\' | 0..0x20))?;
            (b[end] == b'"').then(|| (&line[1..end], end + 1))
        }
        let fill = ["a", "é", "\u{7f}", "\u{2019}", " "];
        let ends = ["\"", "\\", "\u{1}", "\u{1f}", "\t", "", "\" x", "\\\""];
        for len in 0..30 {
            for f in fill {
                for e in ends {
                    let line = format!("\"{}{e}", f.repeat(len));
                    assert_eq!(string(&line, 0), by_byte(&line), "{line:?}");
                }
            }
        }
    }

    /// The lowest bit `has_zero` sets is the first zero byte.
    #[test]
    fn the_first_zero_byte_is_found() {
        let mut rng = mqdiag_model::testrng::Rng::new(0x2e40);
        for _ in 0..100_000 {
            let mut bytes = [0u8; 8];
            for b in &mut bytes {
                // Zero, one, 0x80, 0x81 and any byte are all likely.
                *b = match rng.below(5) {
                    0 => 0,
                    1 => 1,
                    2 => 0x80,
                    3 => 0x81,
                    _ => rng.below(256) as u8,
                };
            }
            let first = bytes.iter().position(|b| *b == 0);
            let y = u64::from_le_bytes(bytes);
            let found = (has_zero(y) != 0).then(|| (has_zero(y).trailing_zeros() / 8) as usize);
            assert_eq!(found, first, "{bytes:?}");
        }
    }

    #[test]
    fn anything_unusual_is_left_to_serde() {
        for line in [
            r#"{"message":"a \"quote\""}"#,
            "{\"message\":\"tab\there\"}",
            "{\t\"a\":1}",
            r#"{"a":1.5}"#,
            r#"{"a":1e3}"#,
            r#"{"a":-0}"#,
            r#"{"a":012}"#,
            r#"{"a":18446744073709551616}"#,
            r#"{"a":-9223372036854775809}"#,
            r#"{"a":{"b":1}}"#,
            r#"{"a":[1]}"#,
            r#"{"a":tru}"#,
            r#"{"a":truex}"#,
            r#"{"a":1,}"#,
            r#"{"a":1} x"#,
            r#"{"a" 1}"#,
            r#"{"a":"cut"#,
            r#"{"a":1"#,
            r#"{a:1}"#,
            "[1]",
            "\"s\"",
            "",
            "{",
        ] {
            assert_eq!(scan(line), None, "{line}");
        }
    }

    /// Wherever the scanner answers, serde_json answers the same; on
    /// lines pieced together from JSON's awkward parts.
    #[test]
    fn agrees_with_serde_json() {
        let parts = [
            "{",
            "}",
            "\"",
            "\"a\"",
            "\"ibm_processId\"",
            ":",
            ",",
            " ",
            "1",
            "0",
            "-",
            "12",
            "-3",
            ".5",
            "e2",
            "true",
            "false",
            "null",
            "tru",
            "[",
            "]",
            "\\",
            "\\\"",
            "\t",
            "é",
            "\"x y\"",
            "9223372036854775807",
            "18446744073709551615",
            "99999999999999999999",
            "-9223372036854775808",
            "\u{1}",
        ];
        let keys = [
            "\"a\"",
            "\"ibm_processId\"",
            "\"\"",
            "\"x y\"",
            "a",
            "\"k\\\"\"",
        ];
        let values = [
            "1",
            "0",
            "-3",
            "12",
            "\"s\"",
            "\"\"",
            "\"é\"",
            "true",
            "false",
            "null",
            "9223372036854775807",
            "18446744073709551615",
            "99999999999999999999",
            "-9223372036854775808",
            "-999999999999999999",
            "1.5",
            "-0",
            "012",
            "1e2",
            "tru",
            "[1]",
            "{}",
            "\"a\\\"b\"",
            "\"\t\"",
        ];
        let mut rng = mqdiag_model::testrng::Rng::new(0x0f1a_7750);
        // Mostly a well-formed piece, sometimes an awkward one.
        let pick = |rng: &mut mqdiag_model::testrng::Rng, good: &[&'static str]| -> &'static str {
            if rng.below(12) == 0 {
                parts[rng.below(parts.len())]
            } else {
                good[rng.below(good.len())]
            }
        };
        let mut answered = 0;
        for _ in 0..100_000 {
            let mut line = String::from(pick(&mut rng, &["{", " {"]));
            for m in 0..rng.below(5) {
                if m > 0 {
                    line.push_str(pick(&mut rng, &[",", " , "]));
                }
                line.push_str(pick(&mut rng, &keys));
                line.push_str(pick(&mut rng, &[":", " : "]));
                line.push_str(pick(&mut rng, &values));
            }
            line.push_str(pick(&mut rng, &["}", "} "]));
            if let Some(m) = scan(&line) {
                answered += 1;
                assert_eq!(Some(as_serde(m)), by_serde(&line), "{line:?}");
            }
        }
        assert!(answered > 10_000, "{answered}");
        for line in [
            r#"{"a":9223372036854775807,"b":-922337203685477580,"c":9999999999999999999}"#,
            r#"{"a":999999999999999999,"b":-999999999999999999,"c":0,"d":1}"#,
            r#"{"":"", "b" :null ,"c": false}"#,
        ] {
            let m = scan(line).unwrap();
            assert_eq!(Some(as_serde(m)), by_serde(line), "{line}");
        }
    }

    /// Wherever the decoder answers, serde_json reads the same string and
    /// ends it at the same quote; on strings pieced together from JSON's
    /// awkward parts.
    #[test]
    fn decoded_strings_are_serde_jsons() {
        let parts: [&[u8]; 24] = [
            b"a",
            b"AMQ5051I: x",
            b" ",
            b"\\t",
            b"\\n",
            b"\\r",
            b"\\\"",
            b"\\\\",
            b"\\/",
            b"\\b",
            b"\\f",
            b"\\u00e9",
            b"\\u20AC",
            b"\\ud83d\\ude00",
            b"\\ud83d",
            b"\\ude00",
            b"\\u12",
            b"\\x",
            b"\\",
            b"\t",
            b"\xc3\xa9",
            b"\xc3",
            b"\xff",
            b"\"",
        ];
        let mut rng = mqdiag_model::testrng::Rng::new(0x5eed_0f75);
        let (mut answered, mut refused) = (0, 0);
        for _ in 0..50_000 {
            let mut line = b"\"".to_vec();
            for _ in 0..rng.below(6) {
                line.extend_from_slice(parts[rng.below(parts.len())]);
            }
            if rng.below(8) != 0 {
                line.extend_from_slice(b"\",\"b\":1");
            }
            let mut out = b"kept".to_vec();
            let ours = unescape_into(&line, 0, &mut out);
            let mut de = serde_json::Deserializer::from_slice(&line).into_iter::<String>();
            let theirs = match de.next() {
                Some(Ok(s)) => Some((s, de.byte_offset())),
                _ => None,
            };
            match ours {
                Some(end) => {
                    answered += 1;
                    let (s, at) = theirs.unwrap_or_else(|| panic!("{line:?}"));
                    assert_eq!((&out[4..], end), (s.as_bytes(), at), "{line:?}");
                }
                None => refused += 1,
            }
        }
        assert!(answered > 10_000 && refused > 5_000, "{answered} {refused}");
        let mut out = Vec::new();
        assert_eq!(unescape_into(b"x\"a\"", 1, &mut out), Some(4));
        assert_eq!(out, b"a");
        assert_eq!(unescape_into(b"a\"", 0, &mut out), None);
    }

    /// A line serde_json reads is never repaired; one it refuses for a bad
    /// escape alone is read once repaired, each bad escape one U+FFFD and
    /// every other character kept.
    #[test]
    fn bad_escapes_are_repaired_and_nothing_else() {
        let parts: [&str; 14] = [
            "a",
            "AMQ9999E: x",
            " ",
            "\\t",
            "\\\"",
            "\\\\",
            "\\u00e9",
            "\\ud83d\\ude00",
            "\\ud83d",
            "\\ude00",
            "\\u12",
            "\\x",
            "é",
            "\\ud800\\u0041",
        ];
        let mut rng = mqdiag_model::testrng::Rng::new(0x0bad_e5c0);
        let (mut repaired, mut fine) = (0, 0);
        for _ in 0..20_000 {
            let mut text = String::new();
            for _ in 0..rng.below(6) {
                text.push_str(parts[rng.below(parts.len())]);
            }
            let line = format!("{{\"log\":\"{text}\",\"n\":1}}");
            let serde = serde_json::from_str::<serde_json::Value>(&line);
            match (serde.is_ok(), repair_escapes(&line)) {
                (true, r) => {
                    assert_eq!(r, None, "{line}");
                    fine += 1;
                }
                (false, Some(r)) => {
                    let v: serde_json::Value = serde_json::from_str(&r.line)
                        .unwrap_or_else(|e| panic!("{line} -> {}: {e}", r.line));
                    let log = v["log"].as_str().unwrap();
                    assert_eq!(log.matches('\u{fffd}').count(), r.count, "{line}");
                    assert!(line.contains(&r.first), "{line}");
                    repaired += 1;
                }
                (false, None) => panic!("{line}: refused and not repaired"),
            }
        }
        assert!(repaired > 5_000 && fine > 2_000, "{repaired} {fine}");
        let r = repair_escapes(r#"{"log":"a \ud800 b\n"}"#).unwrap();
        assert_eq!(r.line, r#"{"log":"a \ufffd b\n"}"#);
        assert!(r.message().starts_with("JSON string escape `\\ud800` is"));
        // A cut line is not this.
        assert_eq!(repair_escapes(r#"{"log":"a \"#), None);
    }
}
