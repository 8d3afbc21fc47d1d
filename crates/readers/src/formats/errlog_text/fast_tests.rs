//! The word-at-a-time and ASCII fast paths of the reader, each held to
//! the byte loop or character way it replaces.

use super::*;

/// `next_paren`, `names_wanted` and `scan_attrs_each`, which look at
/// eight bytes at a time, answer what byte loops answer, with the parens
/// and names at every place in and across the words.
#[test]
fn word_scans_are_the_byte_loops() {
    let pieces: [&str; 14] = [
        " ", "(", ")", "((", "))", "Time", "QMgr", "Host", "VRMF", "x", "abcdefg", "é", "\u{2003}",
        "1.2",
    ];
    // The attribute scan as it was, a byte at a time.
    fn slow_scan(s: &str) -> (Vec<(String, String)>, Option<String>, Option<String>) {
        let b = s.as_bytes();
        let mut out = Vec::new();
        let mut i = 0;
        loop {
            while i < b.len() && (b[i] == b' ' || b[i] == b'\t') {
                i += 1;
            }
            if i >= b.len() {
                return (out, None, None);
            }
            let start = i;
            while i < b.len() && b[i].is_ascii_alphanumeric() {
                i += 1;
            }
            if i == start || !b[start].is_ascii_alphabetic() || b.get(i) != Some(&b'(') {
                return (out, None, Some(s[start..].trim().to_string()));
            }
            let name = &s[start..i];
            let (mut depth, mut j) = (1usize, i + 1);
            while j < b.len() {
                match b[j] {
                    b'(' => depth += 1,
                    b')' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
            if depth > 0 {
                let rest = &s[i + 1..];
                let value = rest.rfind(')').map_or(rest, |k| &rest[..k]);
                out.push((name.to_string(), value.trim_end().to_string()));
                return (out, Some(name.to_string()), None);
            }
            out.push((name.to_string(), s[i + 1..j].to_string()));
            i = j + 1;
        }
    }
    let slow_names = |b: &[u8], q: bool, h: bool| {
        (0..b.len()).any(|i| {
            b[i] == b'('
                && i >= 4
                && match &b[i - 4..i] {
                    b"Time" | b"VRMF" => true,
                    b"QMgr" => q,
                    b"Host" => h,
                    _ => false,
                }
        })
    };
    let mut rng = mqdiag_model::testrng::Rng::new(27);
    for _ in 0..50_000 {
        let mut line = String::new();
        for _ in 0..rng.below(16) {
            line.push_str(pieces[rng.below(pieces.len())]);
        }
        let b = line.as_bytes();
        for from in 0..=b.len() {
            let want = (from..b.len())
                .find(|&j| b[j] == b'(' || b[j] == b')')
                .unwrap_or(b.len());
            assert_eq!(next_paren(b, from), want, "{line:?} from {from}");
        }
        for (q, h) in [(false, false), (true, false), (false, true), (true, true)] {
            assert_eq!(names_wanted(b, q, h), slow_names(b, q, h), "{line:?}");
        }
        let s = scan_attrs(&line);
        assert_eq!(
            (s.attrs, s.unbalanced, s.junk),
            slow_scan(&line),
            "{line:?}"
        );
    }
}

/// A `Time()` value is read as `parse_utc` reads it, whether or not it
/// is the one the first pass read last.
#[test]
fn time_read_again_is_parse_utc() {
    let values = [
        "2024-03-12T00:00:00.000Z",
        "2024-03-12T00:00:01.000Z",
        "2024-03-12T00:00:00.000",
        "",
        "2024-02-30T00:00:00Z",
        " 2024-03-12T10:11:12Z ",
    ];
    let mut scan = Scanner::default();
    for (n, v) in values.iter().enumerate() {
        let no = 10 * n as u64 + 1;
        scan.line(
            no,
            b"03/12/24 10:00:03 - Process(4000.1) User(mqm) Program(amqrmppa)",
        );
        scan.line(no + 1, format!("    Time({v})").as_bytes());
        assert_eq!(scan.last_time.0, *v);
        for w in values {
            assert_eq!(scan.utc_of(w), parse_utc(w), "after {v:?}: {w:?}");
        }
    }
}

/// The ASCII ways of `heading_word` and `num` answer what the character
/// ways (`heading_word_slow`, `parse`) answer.
#[test]
fn ascii_heading_and_number_are_the_slow_ones() {
    let pieces: [&str; 16] = [
        "A",
        "ACTION",
        "x",
        "7",
        " ",
        "  ",
        "\t",
        "\u{b}",
        "\u{1c}",
        "\u{c}",
        "É",
        "\u{a0}",
        "-",
        "+",
        "EXPLANATION",
        "0",
    ];
    let mut rng = mqdiag_model::testrng::Rng::new(28);
    for _ in 0..100_000 {
        let mut s = String::new();
        for _ in 0..rng.below(8) {
            s.push_str(pieces[rng.below(pieces.len())]);
        }
        let word = s.trim();
        assert_eq!(heading_word(word), heading_word_slow(word), "{word:?}");
        assert_eq!(num(&s), s.parse().unwrap_or(u32::MAX), "{s:?}");
    }
    for s in [
        "4294967295",
        "4294967296",
        "999999999",
        "0000000001",
        "+5",
        "٣",
    ] {
        assert_eq!(num(s), s.parse().unwrap_or(u32::MAX), "{s:?}");
    }
}

/// Separators whose dashes end at every place in and across the eight
/// `separator_fast` passes over at a time read as the regex reads them.
#[test]
fn separator_dash_runs_are_the_regex() {
    let pieces: [&str; 8] = ["-", "--------", "---", " ", "x.c", " : ", "12", "\t"];
    let mut rng = mqdiag_model::testrng::Rng::new(29);
    for _ in 0..20_000 {
        let mut l = String::from("-----");
        for _ in 0..rng.below(10) {
            l.push_str(pieces[rng.below(pieces.len())]);
        }
        let by_regex = SEPARATOR_RE.captures(&l).map(|c| {
            c.get(1)
                .zip(c.get(2))
                .map(|(f, n)| format!("{}:{}", f.as_str(), n.as_str()))
        });
        assert_eq!(is_separator(&l), by_regex, "{l:?}");
    }
}

/// The first pass handed a line's text finds what it finds decoding the
/// bytes itself.
#[test]
fn scanner_handed_the_text_is_the_scanner() {
    let lines: [&[u8]; 10] = [
        b"03/12/24 10:00:03 - Process(4000.1) User(mqm) Program(amqrmppa)",
        b"12/03/2024 22:00:03 - Process(4000.1) User(app) Program(x.exe)",
        b"                    Host(mqhost) Installation(Installation1)",
        b"                    VRMF(9.3.0.0) QMgr(QM1)",
        b"                    Time(2024-03-12T10:00:03.000Z)",
        b"Time(2024-12-03T21:00:03.000Z) QMgr(\xc3\xa9)",
        b"",
        b"AMQ9999E: Channel 'CH' ended abnormally.",
        b"  \xff Time(2024-03-12T10:00:03.000Z)",
        b"\xe2\x80\x83 03/12/24 10:00:03 - Process(1.1)",
    ];
    let mut rng = mqdiag_model::testrng::Rng::new(30);
    for _ in 0..200 {
        let (mut a, mut b) = (Scanner::default(), Scanner::default());
        for no in 1..60 {
            let line = lines[rng.below(lines.len())];
            a.line(no, line);
            b.line_as(no, line, std::str::from_utf8(line).ok());
        }
        a.finish();
        b.finish();
        assert_eq!(format!("{:?}", a.p), format!("{:?}", b.p));
    }
}

/// `alnum_run` is the byte loop, for every byte value at every place in
/// and across its words.
#[test]
fn alnum_run_is_the_byte_loop() {
    let mut rng = mqdiag_model::testrng::Rng::new(31);
    let slow = |b: &[u8]| b.iter().take_while(|c| c.is_ascii_alphanumeric()).count();
    for c in 0..=255u8 {
        for at in 0..20 {
            let mut b = vec![b'k'; 20];
            b[at] = c;
            assert_eq!(alnum_run(&b), slow(&b), "{c:#x} at {at}");
        }
    }
    let class: [u8; 12] = [
        b'0', b'9', b'a', b'z', b'A', b'Z', b'(', b'/', b':', b'@', 0x80, b'`',
    ];
    for _ in 0..50_000 {
        let b: Vec<u8> = (0..rng.below(20))
            .map(|_| {
                if rng.below(2) == 0 {
                    class[rng.below(class.len())]
                } else {
                    rng.below(256) as u8
                }
            })
            .collect();
        assert_eq!(alnum_run(&b), slow(&b), "{b:?}");
    }
}

/// `has_control`, sixteen bytes at a time, is the byte loop for every
/// length and every place of a control byte.
#[test]
fn has_control_is_the_byte_loop() {
    let bytes = [
        "a", " ", "\t", "\u{c}", "\u{0}", "\u{1f}", "\u{7f}", "é", "\u{85}", "\r",
    ];
    let mut rng = mqdiag_model::testrng::Rng::new(32);
    for _ in 0..50_000 {
        let mut s = String::new();
        let n = rng.below(40);
        for _ in 0..n {
            // Mostly plain text, the odd byte now and then.
            let k = if rng.below(8) == 0 {
                rng.below(bytes.len())
            } else {
                0
            };
            s.push_str(bytes[k]);
        }
        assert_eq!(has_control(&s), has_control_slow(&s), "{s:?}");
    }
}
