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
    fn text_sniff() {
        assert!(looks_like_text(b"hello\r\nworld\n"));
        assert!(!looks_like_text(b"AMQ\0\0\x01binary"));
        let mut mostly = vec![b'a'; 300];
        mostly[10] = 0;
        assert!(looks_like_text(&mostly));
        assert!(looks_like_text(b""));
    }
}
