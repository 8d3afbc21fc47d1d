//! Escaping shared by the formats: HTML text and attributes, Markdown
//! table cells and code spans. Here rather than in one format's module,
//! so that the formats (and the sections and charts they share) import
//! this and never each other.

/// Text or an attribute value for HTML: markup characters as entities,
/// controls shown as escapes.
pub(crate) fn html(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            c if mqdiag_model::text::is_format_control(c) => {
                o.push_str(&format!("\\u{:04x}", c as u32))
            }
            // Shown, not acted on: as `\x1b`, like the other formats.
            c if (c < ' ' && c != '\t' && c != '\n') || ('\u{7f}'..='\u{9f}').contains(&c) => {
                o.push_str(&format!("\\x{:02x}", c as u32))
            }
            _ => o.push(c),
        }
    }
    o
}

/// Escape text for a Markdown table cell or inline text: nothing in it can
/// end the cell, open a code span, link, image or emphasis, start a line
/// (a heading) or be HTML.
pub(crate) fn md_cell(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' | '|' | '`' | '*' | '[' | ']' => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\r' => out.push(' '),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            _ => out.push(c),
        }
    }
    out
}

/// A value shown as is (a file name) in an inline Markdown code span: its
/// fence is longer than any backtick run inside, so nothing in it ends the
/// span; in a table `|` is escaped (it would end the cell even inside a
/// span) and a line break becomes a space.
pub(crate) fn md_code(s: &str, in_table: bool) -> String {
    let mut body = s.replace(['\n', '\r'], " ");
    if in_table {
        body = body.replace('|', "\\|");
    }
    let ticks = "`".repeat(longest_tick_run(&body) + 1);
    // A span that starts or ends with a backtick needs a space inside.
    let pad = if body.starts_with('`') || body.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{ticks}{pad}{body}{pad}{ticks}")
}

/// A Markdown code block's fence: longer than any backtick run inside.
pub(crate) fn md_fence(body: &str) -> String {
    "`".repeat((longest_tick_run(body) + 1).max(3))
}

fn longest_tick_run(body: &str) -> usize {
    let mut longest = 0;
    let mut run = 0;
    for c in body.chars() {
        if c == '`' {
            run += 1;
            longest = longest.max(run);
        } else {
            run = 0;
        }
    }
    longest
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_escapes() {
        assert_eq!(
            html("<a href=\"x\">&'"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
    }

    #[test]
    fn markdown_escapes() {
        assert_eq!(md_cell("a|b<c>"), "a\\|b&lt;c&gt;");
        assert_eq!(
            md_cell("x\n# H [l](u) `c` *e*"),
            "x # H \\[l\\](u) \\`c\\` \\*e\\*"
        );
        assert_eq!(md_code("a|b", true), "`a\\|b`");
        assert_eq!(md_code("a``b", false), "```a``b```");
        assert_eq!(md_code("`x", false), "`` `x ``");
        assert_eq!(md_code("x\n# H", false), "`x # H`");
        assert_eq!(md_fence("no ticks"), "```");
        assert_eq!(md_fence("has ```` four"), "`````");
    }
}
