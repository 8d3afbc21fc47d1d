//! One CSV line of `mqsmfcsv` output split into fields.
//!
//! The formatter never writes a line break inside a field (non-printable
//! EBCDIC becomes `.`), so a line is a record and a stray quote can never
//! swallow the rest of the file. Its quirks: a trailing comma on every line,
//! `="..."` for strings that look numeric, and no escaping of `"` inside
//! strings. A quote therefore only closes a quoted field when a comma or the
//! end of the line follows it; any other quote is data.

use memchr::memchr;

/// Byte range of one field's content (quotes and `=` removed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Field {
    pub(crate) start: usize,
    pub(crate) end: usize,
    pub(crate) quoted: bool,
}

impl Field {
    pub(crate) const EMPTY: Field = Field {
        start: 0,
        end: 0,
        quoted: false,
    };

    pub(crate) fn is_empty(&self) -> bool {
        self.start == self.end
    }

    pub(crate) fn bytes<'a>(&self, line: &'a [u8]) -> &'a [u8] {
        &line[self.start..self.end]
    }
}

/// The cell offsets of a fitted row, kept with the row so that it is not
/// split again when it is placed or becomes an event. Two `u16` per cell:
/// half what `Field` takes, and about what the row's own bytes take. Rows
/// longer than 64 KiB keep none and are split again.
pub(crate) struct Kept(Box<[u32]>);

impl Kept {
    pub(crate) fn of(line: &[u8], fields: &[Field]) -> Option<Kept> {
        if line.len() > u16::MAX as usize {
            return None;
        }
        Some(Kept(
            fields
                .iter()
                .map(|f| ((f.start as u32) << 16) | f.end as u32)
                .collect(),
        ))
    }

    /// Bytes held, for the hold budget.
    pub(crate) fn bytes(&self) -> usize {
        self.0.len() * 4
    }

    /// The fields back (`quoted` is not kept: only fitting reads it).
    pub(crate) fn fields(&self, out: &mut Vec<Field>) {
        out.clear();
        out.extend(self.0.iter().map(|&v| Field {
            start: (v >> 16) as usize,
            end: (v & 0xffff) as usize,
            quoted: false,
        }));
    }
}

/// A line that cannot be split.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Unbalanced {
    /// 0-based index of the field whose opening quote is never closed.
    pub(crate) field: usize,
}

/// Split `line` into `out` (cleared first). A trailing comma yields a final
/// empty field, as in any CSV reader; callers decide what it means.
///
/// Unquoted fields (mostly counts of a few bytes: WQ rows have 500 of
/// them) are scanned byte by byte, where a `memchr` per field cost more
/// than the field; quoted ones, often padded to tens of bytes, with
/// `memchr`.
pub(crate) fn split(line: &[u8], out: &mut Vec<Field>) -> Result<(), Unbalanced> {
    out.clear();
    split_from(line, out, 0, usize::MAX).map(|_| ())
}

/// `split`, stopped once `out` holds `max` fields: the position where the
/// rest of the line begins (the byte after the separator), or `None` when
/// the line ended first (then `out` is every field, as `split` gives).
pub(crate) fn split_prefix(
    line: &[u8],
    out: &mut Vec<Field>,
    max: usize,
) -> Result<Option<usize>, Unbalanced> {
    out.clear();
    split_from(line, out, 0, max)
}

/// The rest of a line `split_prefix` stopped in, from `at`, split onto
/// the fields it gave: then `out` is what `split` gives.
pub(crate) fn split_rest(line: &[u8], out: &mut Vec<Field>, at: usize) -> Result<(), Unbalanced> {
    split_from(line, out, at, usize::MAX).map(|_| ())
}

/// Fields from `i` (the start of one) onto `out`, until `out` holds `max`.
fn split_from(
    line: &[u8],
    out: &mut Vec<Field>,
    mut i: usize,
    max: usize,
) -> Result<Option<usize>, Unbalanced> {
    let n = line.len();
    loop {
        if out.len() >= max {
            return Ok(Some(i));
        }
        let mut j = i;
        if j + 1 < n && line[j] == b'=' && line[j + 1] == b'"' {
            j += 1;
        }
        if j < n && line[j] == b'"' {
            let start = j + 1;
            let mut k = start;
            // A quote closes the field only before a comma or the end.
            let close = loop {
                match memchr(b'"', &line[k..]) {
                    None => return Err(Unbalanced { field: out.len() }),
                    Some(p) => {
                        let q = k + p;
                        if q + 1 == n || line[q + 1] == b',' {
                            break q;
                        }
                        k = q + 1;
                    }
                }
            };
            out.push(Field {
                start,
                end: close,
                quoted: true,
            });
            i = close + 1;
        } else {
            // Quotes inside an unquoted field are data.
            let end = line[i..]
                .iter()
                .position(|&b| b == b',')
                .map_or(n, |p| i + p);
            out.push(Field {
                start: i,
                end,
                quoted: false,
            });
            i = end;
        }
        if i >= n {
            return Ok(None);
        }
        // line[i] is the separator.
        i += 1;
        if i == n {
            out.push(Field {
                start: n,
                end: n,
                quoted: false,
            });
            return Ok(None);
        }
    }
}

/// How many fields `split` makes of the rest of a line that holds no
/// quote (`None` when it holds one): then every field is plain text
/// between commas, so counting the commas is enough.
pub(crate) fn plain_rest(rest: &[u8]) -> Option<usize> {
    if memchr(b'"', rest).is_some() {
        return None;
    }
    // A plain count vectorises; `memchr_iter` pays per match, and most of
    // a WQ row's rest is `0,`.
    Some(rest.iter().filter(|&&b| b == b',').count() + 1)
}

/// Field `k` (0-based) of the rest of a line that `plain_rest` accepted.
pub(crate) fn plain_field(line: &[u8], rest: usize, k: usize) -> Field {
    let n = line.len();
    let mut start = rest.min(n);
    for _ in 0..k {
        match memchr(b',', &line[start..]) {
            Some(p) => start += p + 1,
            None => return Field::EMPTY,
        }
    }
    let end = memchr(b',', &line[start..]).map_or(n, |p| start + p);
    Field {
        start,
        end,
        quoted: false,
    }
}

/// Where the rest of a line begins after the last of `fields` (kept
/// offsets do not say whether a field was quoted: its closing quote does).
pub(crate) fn rest_after(line: &[u8], last: &Field) -> usize {
    last.end
        + if line.get(last.end) == Some(&b'"') {
            2
        } else {
            1
        }
}

/// Undo splits made by a `",` inside a string: a quoted field followed by
/// an unquoted one that ends in `"` is one cell whose data held a quote and
/// a comma. Joins such pairs, left to right, until `fields` has `want`
/// fields; the index of the first joined cell, or `None` when it cannot
/// be made to fit.
pub(crate) fn rejoin(line: &[u8], fields: &mut Vec<Field>, want: usize) -> Option<usize> {
    let mut first = None;
    let mut i = 0;
    while fields.len() > want && i + 1 < fields.len() {
        let (a, b) = (fields[i], fields[i + 1]);
        if a.quoted && !b.quoted && b.end > b.start && line[b.end - 1] == b'"' {
            fields[i] = Field {
                start: a.start,
                end: b.end - 1,
                quoted: true,
            };
            fields.remove(i + 1);
            first.get_or_insert(i);
        } else {
            i += 1;
        }
    }
    (fields.len() == want).then_some(first).flatten()
}

/// A line worth reading: the first line without its UTF-8 byte order
/// mark; `None` for a truncated or blank line.
pub(crate) fn content(no: u64, truncated: bool, line: &[u8]) -> Option<&[u8]> {
    let line = if no == 1 {
        line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line)
    } else {
        line
    };
    (!truncated && !line.iter().all(|b| b.is_ascii_whitespace())).then_some(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(line: &str) -> Result<Vec<String>, Unbalanced> {
        let mut v = Vec::new();
        split(line.as_bytes(), &mut v)?;
        Ok(v.iter()
            .map(|f| String::from_utf8_lossy(f.bytes(line.as_bytes())).into_owned())
            .collect())
    }

    #[test]
    fn quoted_times_with_commas_and_trailing_comma() {
        let got = fields(r#""2016/02/27","18:03:46,890000","MPX1",0, 23 ,"#).unwrap();
        assert_eq!(
            got,
            vec!["2016/02/27", "18:03:46,890000", "MPX1", "0", " 23 ", ""]
        );
    }

    #[test]
    fn equals_prefix_and_blank_strings() {
        let got = fields(r#"="800",="    ","",="D05D",x"#).unwrap();
        assert_eq!(got, vec!["800", "    ", "", "D05D", "x"]);
    }

    #[test]
    fn unescaped_quote_inside_a_string_is_data() {
        let got = fields(r#""..a"b..",1,"#).unwrap();
        assert_eq!(got, vec![r#"..a"b.."#, "1", ""]);
    }

    #[test]
    fn quote_never_closed_is_reported_with_its_field() {
        assert_eq!(fields(r#""a","b,c,1,2"#), Err(Unbalanced { field: 1 }));
    }

    #[test]
    fn quote_and_comma_inside_a_string_are_rejoined() {
        let line = br#""a",".X",Y.",3,"#;
        let mut f = Vec::new();
        split(line, &mut f).unwrap();
        assert_eq!(f.len(), 5);
        assert_eq!(rejoin(line, &mut f, 4), Some(1));
        assert_eq!(f[1].bytes(line), br#".X",Y."#);
        assert_eq!(f[2].bytes(line), b"3");
        let mut g = Vec::new();
        split(b"1,2,3", &mut g).unwrap();
        assert_eq!(rejoin(b"1,2,3", &mut g, 2), None);
    }

    /// The field-by-field splitter `split` replaced, kept as the reference.
    fn reference_split(line: &[u8], out: &mut Vec<Field>) -> Result<(), Unbalanced> {
        out.clear();
        let n = line.len();
        let mut i = 0;
        loop {
            let mut j = i;
            if line.get(j) == Some(&b'=') && line.get(j + 1) == Some(&b'"') {
                j += 1;
            }
            if line.get(j) == Some(&b'"') {
                let start = j + 1;
                let mut k = start;
                let close = loop {
                    match memchr::memchr(b'"', &line[k..]) {
                        None => return Err(Unbalanced { field: out.len() }),
                        Some(p) => {
                            let q = k + p;
                            if q + 1 == n || line[q + 1] == b',' {
                                break q;
                            }
                            k = q + 1;
                        }
                    }
                };
                out.push(Field {
                    start,
                    end: close,
                    quoted: true,
                });
                i = close + 1;
            } else {
                let end = memchr::memchr(b',', &line[i..]).map_or(n, |p| i + p);
                out.push(Field {
                    start: i,
                    end,
                    quoted: false,
                });
                i = end;
            }
            if i >= n {
                return Ok(());
            }
            i += 1;
            if i == n {
                out.push(Field {
                    start: n,
                    end: n,
                    quoted: false,
                });
                return Ok(());
            }
        }
    }

    #[test]
    fn kept_offsets_give_the_fields_back_and_long_rows_keep_none() {
        let line = br#"2024,="00123","a b",,"x"y",7,"#;
        let mut f = Vec::new();
        split(line, &mut f).unwrap();
        let mut back = Vec::new();
        Kept::of(line, &f).unwrap().fields(&mut back);
        let cells = |v: &[Field]| v.iter().map(|x| x.bytes(line).to_vec()).collect::<Vec<_>>();
        assert_eq!(cells(&back), cells(&f));
        assert_eq!(Kept::of(line, &f).unwrap().bytes(), 4 * f.len());
        let long = vec![b'1'; u16::MAX as usize + 1];
        split(&long, &mut f).unwrap();
        assert!(Kept::of(&long, &f).is_none());
    }

    #[test]
    fn split_agrees_with_the_reference_on_awkward_and_damaged_rows() {
        let mut lines: Vec<Vec<u8>> = [
            &b""[..],
            b",",
            b",,",
            b"\"",
            b"\"\"",
            b"=",
            b"=\"",
            b"=\"\"",
            b"==\"a\",",
            b"\"a\"b\",c",
            b"a\"b,\"c\",",
            b"\"a,b\"\",1",
            b"\"\",\",",
            b"\",\",\",",
            b"=\"800\",=\"    \",\"\",=\"D05D\",x",
            b"\"..a\"b..\",1,",
            b"\"a\",\".X\",Y.\",3,",
            b"\"2016/02/27\",\"18:03:46,890000\",\"MPX1\",0, 23 ,",
            b"\"a\",\"b,c,1,2",
            b"\"caf\xe9\",\xff\xfe,\"\x00\",\r",
        ]
        .iter()
        .map(|l| l.to_vec())
        .collect();
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/smf");
        let mut stack = vec![dir];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    stack.push(p);
                } else if let Ok(b) = std::fs::read(&p) {
                    lines.extend(b.split(|&c| c == b'\n').map(<[u8]>::to_vec));
                }
            }
        }
        assert!(lines.len() > 100, "fixtures not found");
        // Damage every line: each `,`, `"` and `=` deleted or doubled in
        // turn (a simple deterministic generator picks which).
        let mut rng = mqdiag_model::testrng::Rng::new(0x2545_f491_4f6c_dd1d);
        let mut damaged = Vec::new();
        for l in &lines {
            for _ in 0..8 {
                let seed = rng.next();
                if l.is_empty() {
                    break;
                }
                let at = (seed as usize) % l.len();
                let mut d = l.clone();
                match (seed >> 32) % 4 {
                    0 => {
                        d.remove(at);
                    }
                    1 => d.insert(at, b'"'),
                    2 => d.insert(at, b','),
                    _ => d.insert(at, b'='),
                }
                damaged.push(d);
            }
        }
        lines.extend(damaged);
        // Every short line over the bytes that matter, and longer ones
        // with marks on both sides of word boundaries.
        let alphabet = [b',', b'"', b'=', b'a'];
        for len in 0..=7u32 {
            for mut k in 0..4usize.pow(len) {
                let mut l = Vec::new();
                for _ in 0..len {
                    l.push(alphabet[k % 4]);
                    k /= 4;
                }
                lines.push(l);
            }
        }
        for n in 0..3000 {
            let l: Vec<u8> = (0..(n % 300)).map(|_| alphabet[rng.below(4)]).collect();
            lines.push(l);
        }
        let (mut a, mut b) = (Vec::new(), Vec::new());
        let mut errors = 0;
        for l in &lines {
            let ra = split(l, &mut a);
            let rb = reference_split(l, &mut b);
            assert_eq!(ra, rb, "{}", String::from_utf8_lossy(l));
            errors += usize::from(ra.is_err());
            if ra.is_ok() {
                assert_eq!(a, b, "{}", String::from_utf8_lossy(l));
            }
        }
        // The damage must have made some rows unsplittable, or the test
        // checked only the easy path.
        assert!(errors > 10, "only {errors} unbalanced rows");
        // Split in part, the rest split on or counted: the same fields.
        let (mut plain, mut c) = (0, Vec::new());
        for l in &lines {
            let whole = split(l, &mut a).map(|()| a.clone());
            for max in [0, 1, 2, 3, 5, 8, 40] {
                let got = match split_prefix(l, &mut b, max) {
                    Err(u) => Err(u),
                    Ok(None) => Ok(b.clone()),
                    Ok(Some(rest)) => {
                        assert_eq!(b.len(), max);
                        if let (Some(more), Ok(w)) = (plain_rest(&l[rest..]), &whole) {
                            plain += 1;
                            assert_eq!(max + more, w.len(), "{}", String::from_utf8_lossy(l));
                            for k in 0..more {
                                let f = plain_field(l, rest, k);
                                assert_eq!(f.bytes(l), w[max + k].bytes(l));
                            }
                            if let Some(last) = b.last() {
                                assert_eq!(rest_after(l, last), rest);
                            }
                        }
                        c.clone_from(&b);
                        split_rest(l, &mut c, rest).map(|()| c.clone())
                    }
                };
                assert_eq!(got, whole, "{} (first {max})", String::from_utf8_lossy(l));
            }
        }
        assert!(plain > 1000, "only {plain} plain rests");
    }

    #[test]
    fn empty_line_is_one_empty_field() {
        assert_eq!(fields("").unwrap(), vec![""]);
        assert_eq!(fields(",").unwrap(), vec!["", ""]);
    }
}
