//! Byte-to-text decoding shared by every reader. Inputs come in UTF-8,
//! Latin-1, Windows-1252 or CP850; none of them may stop a run.

use std::borrow::Cow;

/// UTF-8 when the bytes are valid UTF-8, Latin-1 otherwise (every byte maps
/// to a character, so nothing is lost or replaced).
pub fn decode_lossy(bytes: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(s) => Cow::Borrowed(s),
        Err(_) => Cow::Owned(bytes.iter().map(|&b| b as char).collect()),
    }
}

/// The single-byte code pages error logs come in besides UTF-8.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Encoding {
    Utf8,
    /// Windows OEM code page 850 (console programs on Western European Windows).
    Cp850,
    /// Windows ANSI code page 1252.
    Cp1252,
}

impl Encoding {
    pub fn as_str(self) -> &'static str {
        match self {
            Encoding::Utf8 => "utf-8",
            Encoding::Cp850 => "cp850",
            Encoding::Cp1252 => "windows-1252",
        }
    }
}

/// CP850 bytes 0x80..=0xFF (checked against Python's `cp850` codec).
const CP850_HIGH: [char; 128] = [
    '\u{00C7}', '\u{00FC}', '\u{00E9}', '\u{00E2}', '\u{00E4}', '\u{00E0}', '\u{00E5}', '\u{00E7}',
    '\u{00EA}', '\u{00EB}', '\u{00E8}', '\u{00EF}', '\u{00EE}', '\u{00EC}', '\u{00C4}', '\u{00C5}',
    '\u{00C9}', '\u{00E6}', '\u{00C6}', '\u{00F4}', '\u{00F6}', '\u{00F2}', '\u{00FB}', '\u{00F9}',
    '\u{00FF}', '\u{00D6}', '\u{00DC}', '\u{00F8}', '\u{00A3}', '\u{00D8}', '\u{00D7}', '\u{0192}',
    '\u{00E1}', '\u{00ED}', '\u{00F3}', '\u{00FA}', '\u{00F1}', '\u{00D1}', '\u{00AA}', '\u{00BA}',
    '\u{00BF}', '\u{00AE}', '\u{00AC}', '\u{00BD}', '\u{00BC}', '\u{00A1}', '\u{00AB}', '\u{00BB}',
    '\u{2591}', '\u{2592}', '\u{2593}', '\u{2502}', '\u{2524}', '\u{00C1}', '\u{00C2}', '\u{00C0}',
    '\u{00A9}', '\u{2563}', '\u{2551}', '\u{2557}', '\u{255D}', '\u{00A2}', '\u{00A5}', '\u{2510}',
    '\u{2514}', '\u{2534}', '\u{252C}', '\u{251C}', '\u{2500}', '\u{253C}', '\u{00E3}', '\u{00C3}',
    '\u{255A}', '\u{2554}', '\u{2569}', '\u{2566}', '\u{2560}', '\u{2550}', '\u{256C}', '\u{00A4}',
    '\u{00F0}', '\u{00D0}', '\u{00CA}', '\u{00CB}', '\u{00C8}', '\u{0131}', '\u{00CD}', '\u{00CE}',
    '\u{00CF}', '\u{2518}', '\u{250C}', '\u{2588}', '\u{2584}', '\u{00A6}', '\u{00CC}', '\u{2580}',
    '\u{00D3}', '\u{00DF}', '\u{00D4}', '\u{00D2}', '\u{00F5}', '\u{00D5}', '\u{00B5}', '\u{00FE}',
    '\u{00DE}', '\u{00DA}', '\u{00DB}', '\u{00D9}', '\u{00FD}', '\u{00DD}', '\u{00AF}', '\u{00B4}',
    '\u{00AD}', '\u{00B1}', '\u{2017}', '\u{00BE}', '\u{00B6}', '\u{00A7}', '\u{00F7}', '\u{00B8}',
    '\u{00B0}', '\u{00A8}', '\u{00B7}', '\u{00B9}', '\u{00B3}', '\u{00B2}', '\u{25A0}', '\u{00A0}',
];

/// Windows-1252 bytes 0x80..=0x9F; the five unassigned bytes map to the C1
/// control of the same value, as the WHATWG encoding standard does.
const CP1252_C1: [char; 32] = [
    '\u{20AC}', '\u{0081}', '\u{201A}', '\u{0192}', '\u{201E}', '\u{2026}', '\u{2020}', '\u{2021}',
    '\u{02C6}', '\u{2030}', '\u{0160}', '\u{2039}', '\u{0152}', '\u{008D}', '\u{017D}', '\u{008F}',
    '\u{0090}', '\u{2018}', '\u{2019}', '\u{201C}', '\u{201D}', '\u{2022}', '\u{2013}', '\u{2014}',
    '\u{02DC}', '\u{2122}', '\u{0161}', '\u{203A}', '\u{0153}', '\u{009D}', '\u{017E}', '\u{0178}',
];

fn cp850_char(b: u8) -> char {
    if b < 0x80 {
        b as char
    } else {
        CP850_HIGH[(b - 0x80) as usize]
    }
}

fn cp1252_char(b: u8) -> char {
    match b {
        0x80..=0x9F => CP1252_C1[(b - 0x80) as usize],
        _ => b as char,
    }
}

pub fn decode_cp850(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| cp850_char(b)).collect()
}

pub fn decode_cp1252(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| cp1252_char(b)).collect()
}

/// How plausible a single-byte decoding of `bytes` is as Western European
/// text: accented letters score, box drawing and unassigned bytes cost, and
/// an upper-case accented letter straight after a lower-case ASCII letter
/// (`détail` read as `dÚtail`) costs.
fn plausibility(bytes: &[u8], map: fn(u8) -> char, c1_range_is_punct: bool) -> i32 {
    let mut score = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if b < 0x80 {
            continue;
        }
        let c = map(b);
        let prev = i.checked_sub(1).map(|j| bytes[j]);
        let next = bytes.get(i + 1).copied();
        let between_letters = prev.is_some_and(|p| p.is_ascii_alphabetic())
            && next.is_some_and(|n| n.is_ascii_alphabetic());
        if ('\u{80}'..='\u{9F}').contains(&c) {
            score -= 5; // unassigned in the code page
        } else if c1_range_is_punct && (0x80..=0x9F).contains(&b) {
            // 1252's quotes, dashes and rare letters (Š, Ž, Œ): fine between
            // words, odd inside one, except the apostrophe (don’t).
            if between_letters && c != '\u{2019}' {
                score -= 2;
            } else if !c.is_alphabetic() {
                score += 1;
            }
        } else if c.is_alphabetic() {
            score += 2;
            if c.is_uppercase() && prev.is_some_and(|p| p.is_ascii_lowercase()) {
                score -= 3;
            }
        } else if ('\u{2500}'..='\u{25FF}').contains(&c) {
            score -= 2; // box drawing and blocks: not in log text
        }
    }
    score
}

/// Decode one line: UTF-8 when valid, otherwise whichever of CP850 and
/// Windows-1252 reads more plausibly (1252 on a tie). Never fails.
pub fn decode_line(bytes: &[u8]) -> (Cow<'_, str>, Encoding) {
    if let Ok(s) = std::str::from_utf8(bytes) {
        return (Cow::Borrowed(s), Encoding::Utf8);
    }
    let oem = plausibility(bytes, cp850_char, false);
    let ansi = plausibility(bytes, cp1252_char, true);
    if oem > ansi {
        (Cow::Owned(decode_cp850(bytes)), Encoding::Cp850)
    } else {
        (Cow::Owned(decode_cp1252(bytes)), Encoding::Cp1252)
    }
}

/// Whether a block of bytes looks like text: at most 1% NUL or control
/// characters other than tab, CR, LF, form feed and escape. (A text file
/// with a stray NUL is still text; binary traces are full of them.)
pub fn looks_like_text(head: &[u8]) -> bool {
    if head.is_empty() {
        return true;
    }
    let ctrl = head
        .iter()
        .filter(|&&b| b < 0x20 && !matches!(b, b'\t' | b'\r' | b'\n' | 0x0c | 0x1b))
        .count();
    ctrl * 100 <= head.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latin1_fallback_keeps_every_byte() {
        assert_eq!(decode_lossy(b"caf\xe9"), "café");
        assert_eq!(decode_lossy("café".as_bytes()), "café");
    }

    #[test]
    fn cp850_table_spot_checks() {
        // ü ä Ä ö ß in the OEM code page (the German Windows error logs).
        assert_eq!(decode_cp850(b"\x81\x84\x8e\x94\xe1"), "üäÄöß");
        assert_eq!(decode_cp850(b"\xb3\xc4\xda"), "│─┌");
        assert_eq!(decode_cp850(b"\xff"), "\u{a0}");
        assert_eq!(decode_cp1252(b"\x80\x92\xfc\x81"), "€’ü\u{81}");
    }

    #[test]
    fn legacy_code_page_is_guessed_per_line() {
        let (s, e) = decode_line(b"ERKL\x8eRUNG:");
        assert_eq!((s.as_ref(), e), ("ERKLÄRUNG:", Encoding::Cp850));
        let (s, e) = decode_line(b"Task-Manager f\x81r kritische Dienstprogramme");
        assert_eq!(
            (s.as_ref(), e),
            (
                "Task-Manager für kritische Dienstprogramme",
                Encoding::Cp850
            )
        );
        let (s, e) = decode_line(b"Die Task m\xfcssen gestartet werden, Gr\xf6\xdfe");
        assert_eq!(
            (s.as_ref(), e),
            ("Die Task müssen gestartet werden, Größe", Encoding::Cp1252)
        );
        let (s, e) = decode_line(b"La tentative d'allocation a \xe9chou\xe9");
        assert_eq!(
            (s.as_ref(), e),
            ("La tentative d'allocation a échoué", Encoding::Cp1252)
        );
        let (s, e) = decode_line(b"Le syst\x8ame h\x93te \x82loign\x82");
        assert_eq!(
            (s.as_ref(), e),
            ("Le système hôte éloigné", Encoding::Cp850)
        );
        let (s, e) = decode_line("Größe".as_bytes());
        assert_eq!((s.as_ref(), e), ("Größe", Encoding::Utf8));
    }

    #[test]
    fn text_sniff() {
        assert!(looks_like_text(b"hello\r\nworld\n"));
        assert!(!looks_like_text(b"AMQ\0\0\x01binary"));
        let mut mostly = vec![b'a'; 300];
        mostly[10] = 0;
        assert!(looks_like_text(&mostly));
        assert!(looks_like_text(b""));
    }
}
