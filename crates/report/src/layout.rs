//! Plain-text layout shared by the text formats (report, compare,
//! inventory, the calls table, `rules`): wrapping words, folding quoted
//! lines, clipping.

/// Word-wrap `s` to `width` columns, every line prefixed with `indent`.
pub fn wrap(s: &str, width: usize, indent: &str) -> Vec<String> {
    use mqdiag_model::text::shown_len;
    let mut lines = Vec::new();
    let avail = width.saturating_sub(indent.chars().count()).max(20);
    let mut cur = String::new();
    for word in s.split_whitespace() {
        // A word longer than a line (a quoted path or record) is folded.
        let mut word = word;
        while shown_len(word) > avail {
            if !cur.is_empty() {
                lines.push(format!("{indent}{cur}"));
                cur.clear();
            }
            let cut = fit_prefix(word, avail);
            lines.push(format!("{indent}{}", &word[..cut]));
            word = &word[cut..];
        }
        if word.is_empty() {
            continue;
        }
        let wl = shown_len(word);
        let cl = shown_len(&cur);
        if cl > 0 && cl + 1 + wl > avail {
            lines.push(format!("{indent}{cur}"));
            cur.clear();
        }
        if !cur.is_empty() {
            cur.push(' ');
        }
        cur.push_str(word);
    }
    if !cur.is_empty() {
        lines.push(format!("{indent}{cur}"));
    }
    lines
}

/// The byte length of the longest prefix of `s` that takes at most `n`
/// columns once escaped (at least one character).
fn fit_prefix(s: &str, n: usize) -> usize {
    let mut used = 0;
    for (i, c) in s.char_indices() {
        used += mqdiag_model::text::shown_width(c);
        if used > n {
            return if i == 0 { c.len_utf8() } else { i };
        }
    }
    s.len()
}

/// Fold one line to `width` columns at spaces, keeping its own spacing
/// (evidence is quoted exactly); a word longer than the room is cut.
pub(crate) fn fold(s: &str, width: usize, indent: &str) -> Vec<String> {
    use mqdiag_model::text::shown_width;
    let avail = width.saturating_sub(indent.chars().count()).max(20);
    let mut out = Vec::new();
    let mut rest: Vec<char> = s.trim_end().chars().collect();
    loop {
        // The characters that fit in `avail` columns once escaped.
        let mut used = 0;
        let fit = rest
            .iter()
            .position(|c| {
                used += shown_width(*c);
                used > avail
            })
            .unwrap_or(rest.len());
        if fit == rest.len() {
            break;
        }
        let fit = fit.max(1);
        let cut = rest[..=fit.min(rest.len() - 1)]
            .iter()
            .rposition(|c| *c == ' ')
            .filter(|&p| p > 0)
            .unwrap_or(fit);
        let piece: String = rest[..cut].iter().collect();
        out.push(format!("{indent}{piece}"));
        let skip = if rest.get(cut) == Some(&' ') {
            cut + 1
        } else {
            cut
        };
        rest.drain(..skip);
    }
    out.push(format!("{indent}{}", rest.iter().collect::<String>()));
    out
}

/// Cut `s` to `n` characters, ending with `…` when cut.
pub(crate) fn clip(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(n.saturating_sub(1)).collect();
        t.push('…');
        t
    }
}

fn chars(s: &str) -> usize {
    s.chars().count()
}

/// Word-wraps `s` to `width`: the first line after `first`, the others
/// after `rest`; a word longer than the room (a path) is cut into pieces.
/// Unlike `wrap`, the two prefixes differ and any width is kept (the
/// calls table's lines under a row).
pub(crate) fn fold_words(s: &str, width: usize, first: &str, rest: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut cur = first.to_string();
    let mut empty = true;
    for word in s.split_whitespace() {
        let mut word: Vec<char> = word.chars().collect();
        loop {
            let room = width.saturating_sub(chars(&cur) + usize::from(!empty));
            if word.len() <= room {
                if !empty {
                    cur.push(' ');
                }
                cur.extend(word.iter());
                empty = false;
                break;
            }
            let fresh = width.saturating_sub(chars(rest)).max(1);
            if !empty && word.len() <= fresh {
                lines.push(std::mem::replace(&mut cur, rest.to_string()));
                empty = true;
                continue;
            }
            // Longer than a whole line: fill this one and go on.
            let take = if empty { room.max(1) } else { 0 };
            if take == 0 {
                lines.push(std::mem::replace(&mut cur, rest.to_string()));
                empty = true;
                continue;
            }
            cur.extend(word.drain(..take.min(word.len())));
            lines.push(std::mem::replace(&mut cur, rest.to_string()));
            empty = true;
            if word.is_empty() {
                break;
            }
        }
    }
    if !empty {
        lines.push(cur);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapping() {
        let w = wrap("aaa bbb ccc ddd", 29, "      ");
        assert_eq!(w, vec!["      aaa bbb ccc ddd"]);
        let w = wrap(&"word ".repeat(30), 40, "  ");
        assert!(w.iter().all(|l| l.chars().count() <= 40));
        assert_eq!(w.concat().split_whitespace().count(), 30);
        assert_eq!(clip("abcdef", 4), "abc…");
        let f = fold("-}  send rc=OK and some more words here", 30, "  ");
        assert_eq!(f, vec!["  -}  send rc=OK and some more", "  words here"]);
        let f = fold(&"x".repeat(50), 22, "");
        assert_eq!(f, vec!["x".repeat(22), "x".repeat(22), "x".repeat(6)]);
        assert_eq!(clip("abc", 4), "abc");
    }

    #[test]
    fn folding_keeps_every_character_within_the_width() {
        let path = format!("fixtures/{}/AMQ1.0.FMT:12", "d".repeat(100));
        let s = format!("slowest {path}");
        let l = fold_words(&s, 40, "    ", "            ");
        assert!(l.iter().all(|x| chars(x) <= 40), "{l:?}");
        let joined: String = l
            .iter()
            .map(|x| x.trim_start())
            .collect::<Vec<_>>()
            .join("");
        assert_eq!(joined, format!("slowest{path}"));
        assert_eq!(
            fold_words("a bb ccc", 80, "  ", "    "),
            vec!["  a bb ccc".to_string()]
        );
        assert_eq!(
            fold_words("aaaa bbbb cccc", 10, "", "  "),
            vec!["aaaa bbbb", "  cccc"]
        );
    }

    /// Japanese and Chinese characters take two cells: lines are fitted
    /// to display columns, not characters. The texts are IBM's: the
    /// Japanese reference of CSQM001E
    /// (https://www.ibm.com/docs/ja/SSFKSJ_9.3.0/reference/csq_m.html) and
    /// the Traditional Chinese one of AMQ9001
    /// (https://www.ibm.com/docs/zh-tw/SSFKSJ_8.0.0/com.ibm.mq.ref.doc/amq9.htm).
    #[test]
    fn wide_characters_fit_the_display_width() {
        use mqdiag_model::text::shown_len;
        let ja = "CSQM001E CSQMSLDP MSTR ユーザー ID は USS 呼び出し可能サービスを呼び出せません \
                  キュー・マネージャーの MSTR アドレス・スペースが、呼び出し可能 z/OS UNIX System \
                  Services (z/OS UNIX) を実行する権限で構成されていないユーザー ID の下で実行されている。";
        let zh = "AMQ9001: 通道 'QMLOC.TO.QM2' 已正常結束。 到主機 'qm2host (10.0.0.2)(1414)' 的通道 \
                  'QMLOC.TO.QM2' 已正常結束。 無。通道 'QMLOC.TO.QM2' 已正常結束。";
        assert_eq!(shown_len("通道"), 4);
        for text in [ja, zh] {
            for l in wrap(text, 80, "    ") {
                assert!(shown_len(&l) <= 80, "{} columns: {l}", shown_len(&l));
            }
            let folded = fold(text, 80, "      ");
            assert!(folded.len() > 1);
            for l in &folded {
                assert!(shown_len(l) <= 80, "{} columns: {l}", shown_len(l));
            }
            // Nothing lost.
            let back: String = folded
                .iter()
                .map(|l| l.trim_start())
                .collect::<Vec<_>>()
                .join(" ");
            assert_eq!(
                back.split_whitespace().collect::<String>(),
                text.split_whitespace().collect::<String>()
            );
        }
    }
}
