//! Whitespace and quote normalising of message text before the
//! catalogue's patterns run on it.

/// Join wrapped lines and undo copy artefacts before matching: runs of
/// whitespace (no-break spaces too) become one space, typographic quotes
/// straight ones.
pub(crate) fn normalise(text: &str) -> String {
    normalise_parts(&[text])
}

/// `normalise`, borrowing `text` when it is already normal (ASCII, single
/// spaces between words, none at the ends): most lines are.
pub(crate) fn normalise_cow(text: &str) -> std::borrow::Cow<'_, str> {
    if is_normal(text.as_bytes()) {
        std::borrow::Cow::Borrowed(text)
    } else {
        std::borrow::Cow::Owned(normalise(text))
    }
}

/// Printable ASCII with single spaces between words and none at the ends:
/// one pass, eight bytes at a time while it can (every record of a log is
/// asked; a byte at a time was 2 % of reading a job log).
fn is_normal(b: &[u8]) -> bool {
    use mqdiag_model::text::{bytes_equal, word_at};
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // A space "before" the first byte makes a leading space a double one.
    let mut after_space = true;
    let mut at = 0;
    while at + 8 <= b.len() {
        let w = word_at(b, at);
        // Any byte past ASCII, below a space (exact as a whole-word test),
        // or DEL.
        let below_space = w.wrapping_sub(0x2020_2020_2020_2020) & !w & HIGH;
        if w & HIGH != 0 || below_space != 0 || bytes_equal(w, 0x7f) != 0 {
            return false;
        }
        // A space after a space: within the word, or its first byte after
        // the last word's last.
        let spaces = bytes_equal(w, b' ');
        if spaces & (spaces << 8) != 0 || (after_space && spaces & 0x80 != 0) {
            return false;
        }
        after_space = spaces >> 63 != 0;
        at += 8;
    }
    for &c in &b[at..] {
        if !(b' '..0x7f).contains(&c) {
            return false;
        }
        let space = c == b' ';
        if space && after_space {
            return false;
        }
        after_space = space;
    }
    b.is_empty() || !after_space
}

/// `normalise` of the parts joined with spaces, without the joined copy.
fn normalise_parts(parts: &[&str]) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The one-pass test is the four it replaced, on every string of up to
    /// five awkward bytes.
    #[test]
    fn is_normal_is_the_four_tests() {
        let old = |b: &[u8]| {
            b.first() != Some(&b' ')
                && b.last() != Some(&b' ')
                && b.iter().all(|c| (b' '..0x7f).contains(c))
                && memchr::memmem::find(b, b"  ").is_none()
        };
        let bytes = [b' ', b'a', b'\t', 0x7f, 0x1f, b'~', 0xc3];
        for v in mqdiag_model::testrng::every_word(&bytes, 5) {
            assert_eq!(is_normal(&v), old(&v), "{v:?}");
            // And in every place in and across eight-byte words.
            for pad in 1..12 {
                for (before, after) in [(pad, 0), (pad, 3), (7, pad), (0, pad + 3)] {
                    let mut t = vec![b'a'; before];
                    t.extend(&v);
                    t.extend(std::iter::repeat_n(b'b', after));
                    assert_eq!(is_normal(&t), old(&t), "{t:?}");
                }
            }
        }
    }

    #[test]
    fn normalise_is_whitespace_runs_to_one_space() {
        let pieces = [
            "a", "bc", " ", "  ", "\t", "\n", "\r\n", "\u{0b}", "\u{0c}", "\u{a0}", "\u{2019}",
            "\u{2018}", "é", "\u{1c}", "'", "x y", " z ",
        ];
        let mut rng = mqdiag_model::testrng::Rng::new(0x9e37_79b9_7f4a_7c15u64);
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
}
