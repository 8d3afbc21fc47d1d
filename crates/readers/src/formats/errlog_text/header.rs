//! The record header line and its attributes: `date time - Process(...)`
//! in both date orders, the legacy shapes, `Time()`, separators, headings.

use super::*;

/// The result of scanning `Name(value) Name(value)` tokens.
#[cfg(test)]
#[derive(Debug, Default, PartialEq)]
pub(crate) struct AttrScan {
    pub(crate) attrs: Vec<(String, String)>,
    /// The attribute whose parentheses did not balance before the end of
    /// the line (its value was taken up to the last `)`).
    pub(crate) unbalanced: Option<String>,
    /// Text that is not a `Name(` token, from where scanning stopped.
    pub(crate) junk: Option<String>,
}

/// `scan_attrs_each` collected into owned strings.
#[cfg(test)]
pub(crate) fn scan_attrs(s: &str) -> AttrScan {
    let mut out = AttrScan::default();
    let (unbalanced, junk) =
        scan_attrs_each(s, |k, v| out.attrs.push((k.to_string(), v.to_string())));
    out.unbalanced = unbalanced.map(str::to_string);
    out.junk = junk.map(str::to_string);
    out
}

/// Scan attribute tokens with a balanced-parenthesis scanner: values hold
/// parentheses (`5464(12000)`, `mqd00 (1.2.3.4)(1416)`), spaces, commas and
/// backslashes, which are kept as they are. Each name and value is handed
/// to `f`; returns the unbalanced attribute's name and the junk.
pub(super) fn scan_attrs_each<'a>(
    s: &'a str,
    mut f: impl FnMut(&'a str, &'a str),
) -> (Option<&'a str>, Option<&'a str>) {
    let b = s.as_bytes();
    let mut i = 0;
    loop {
        while i < b.len() && (b[i] == b' ' || b[i] == b'\t') {
            i += 1;
        }
        if i >= b.len() {
            return (None, None);
        }
        let start = i;
        i += alnum_run(&b[start..]);
        if i == start || !b[start].is_ascii_alphabetic() || b.get(i) != Some(&b'(') {
            return (None, Some(s[start..].trim()));
        }
        let name = &s[start..i];
        let vstart = i + 1;
        let mut depth = 1usize;
        let mut j = vstart;
        loop {
            j = next_paren(b, j);
            match b.get(j) {
                None => break,
                Some(b'(') => depth += 1,
                Some(_) => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
            }
            j += 1;
        }
        if depth > 0 {
            let rest = &s[vstart..];
            let value = match rest.rfind(')') {
                Some(k) => &rest[..k],
                None => rest,
            };
            f(name, value.trim_end());
            return (Some(name), None);
        }
        f(name, &s[vstart..j]);
        i = j + 1;
    }
}

/// The index of the first `(` or `)` in `b` at or after `from`, else
/// `b.len()`. Values are passed over eight bytes at a time: the byte loop
/// it replaces was a tenth of reading an error log.
pub(super) fn next_paren(b: &[u8], from: usize) -> usize {
    let mut j = from;
    while let Some(w) = mqdiag_model::text::word_from(b, j) {
        // `(` and `)` differ in the low bit only: with it set both are `)`.
        let m = mqdiag_model::text::bytes_equal(w | 0x0101_0101_0101_0101, b')');
        if m != 0 {
            return j + (m.trailing_zeros() / 8) as usize;
        }
        j += 8;
    }
    while j < b.len() && b[j] != b'(' && b[j] != b')' {
        j += 1;
    }
    j
}

/// The length of the run of ASCII letters and digits `b` starts with
/// (an attribute's name), found eight bytes at a time.
pub(super) fn alnum_run(b: &[u8]) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = ONES * 0x80;
    let mut n = 0;
    while let Some(w) = mqdiag_model::text::word_from(b, n) {
        // Per byte of `x` (at most 0x7f, so no sum carries into the next
        // byte), the high bit of `x + (0x80 - lo)` says `x >= lo`.
        let x = w & !HIGH;
        let digit = x.wrapping_add(ONES * (0x80 - b'0' as u64))
            & !x.wrapping_add(ONES * (0x80 - b'9' as u64 - 1));
        // Upper case folded onto lower case.
        let y = x | (ONES * 0x20);
        let alpha = y.wrapping_add(ONES * (0x80 - b'a' as u64))
            & !y.wrapping_add(ONES * (0x80 - b'z' as u64 - 1));
        // Not a letter or digit, or past ASCII.
        let other = (!(digit | alpha) | w) & HIGH;
        if other != 0 {
            return n + (other.trailing_zeros() / 8) as usize;
        }
        n += 8;
    }
    n + b[n..]
        .iter()
        .take_while(|c| c.is_ascii_alphanumeric())
        .count()
}

/// How a header writes its date: the separator, the year's digits,
/// whether the clock has AM/PM and whether the year comes first. The date
/// order is decided per style.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Style {
    pub(super) sep: u8,
    pub(super) year_digits: u8,
    pub(super) ampm: bool,
    /// `2018/10/17` (the short date of Japanese, Chinese, Korean and
    /// Hungarian systems): year, month, day, whatever the order decided.
    pub(super) year_first: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Order {
    /// Month first (US, and the C locale's `%x`).
    Mdy,
    /// Day first (most of Europe).
    Dmy,
}

impl Order {
    pub(super) fn as_str(self) -> &'static str {
        match self {
            Order::Mdy => "month/day/year",
            Order::Dmy => "day/month/year",
        }
    }
}

/// One parsed header line.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Header {
    pub(super) a: u32,
    pub(super) b: u32,
    pub(super) year: i32,
    pub(super) style: Style,
    pub(super) hour: u32,
    pub(super) min: u32,
    pub(super) sec: u32,
    pub(super) pid: Option<u32>,
    pub(super) tid: Option<u32>,
    pub(super) user: Option<String>,
    pub(super) program: Option<String>,
    /// Further header attributes (appliance-style headers).
    pub(super) extra: Vec<(String, String)>,
    /// Date and time as written.
    pub(super) local_raw: String,
    /// MQSeries 5.x: message text on the header line.
    pub(super) legacy_text: Option<String>,
    pub(super) unbalanced: Option<String>,
}

pub(super) fn num(s: &str) -> u32 {
    // A header's fields are one to four ASCII digits: read by hand, the
    // rest (a sign, Unicode digits, overflow) by `parse`.
    let b = s.as_bytes();
    if (1..=9).contains(&b.len()) && b.iter().all(u8::is_ascii_digit) {
        return b.iter().fold(0, |n, &d| n * 10 + u32::from(d - b'0'));
    }
    s.parse().unwrap_or(u32::MAX)
}

// ---------------------------------------------------------------------------
// Hand-written matchers. Each mirrors one of the regexes above exactly and
// decides on ASCII input; where a non-ASCII byte sits at a place the
// regex's Unicode classes (`\s`, `\d`, `–`) look at, it gives up and the
// regex decides. The regexes with captures cost microseconds a line; these
// cost a few nanoseconds. `tests::fast_matchers_agree_with_regexes` holds
// them to the regexes.

/// Why a hand-written matcher stopped.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Stop {
    /// The regex cannot match either.
    No,
    /// A byte only the regex can judge: ask it.
    Unsure,
}

pub(super) type Step<T> = Result<T, Stop>;

/// ASCII bytes in the regex class `\s` (`\n` never occurs inside a line).
pub(super) fn is_ascii_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

pub(super) struct Cur<'a> {
    pub(super) b: &'a [u8],
    pub(super) i: usize,
}

impl Cur<'_> {
    /// The byte under the cursor; `Unsure` when it is not ASCII.
    pub(super) fn byte(&self) -> Step<Option<u8>> {
        match self.b.get(self.i) {
            Some(&c) if c >= 0x80 => Err(Stop::Unsure),
            c => Ok(c.copied()),
        }
    }

    /// A run of `min..=max` ASCII digits. In every regex here a digit group
    /// is followed by something that is not a digit, so a longer run cannot
    /// match; a non-ASCII byte after the run may be a Unicode digit.
    pub(super) fn digits(&mut self, min: usize, max: usize) -> Step<(usize, usize)> {
        let s = self.i;
        while self.i < self.b.len() && self.b[self.i].is_ascii_digit() {
            self.i += 1;
        }
        self.byte()?;
        let n = self.i - s;
        if n < min || n > max {
            return Err(Stop::No);
        }
        Ok((s, self.i))
    }

    /// A run of whitespace; its length.
    pub(super) fn ws(&mut self) -> Step<usize> {
        let s = self.i;
        while self.i < self.b.len() && is_ascii_ws(self.b[self.i]) {
            self.i += 1;
        }
        self.byte()?;
        Ok(self.i - s)
    }

    pub(super) fn lit(&mut self, c: u8) -> Step<()> {
        match self.byte()? {
            Some(x) if x == c => {
                self.i += 1;
                Ok(())
            }
            _ => Err(Stop::No),
        }
    }

    pub(super) fn one_of(&mut self, set: &[u8]) -> Step<usize> {
        match self.byte()? {
            Some(x) if set.contains(&x) => {
                self.i += 1;
                Ok(self.i - 1)
            }
            _ => Err(Stop::No),
        }
    }
}

pub(super) type Span = (usize, usize);

/// The groups of `HEADER_RE`, as byte ranges of the line.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct HeaderSpans {
    pub(super) a: Span,
    pub(super) sep: usize,
    pub(super) b: Span,
    pub(super) year: Span,
    pub(super) hour: Span,
    pub(super) min: Span,
    pub(super) sec: Span,
    pub(super) ampm: Option<Span>,
    /// Start of `Process(...`, which runs to the end of the line.
    pub(super) rest: usize,
}

pub(super) fn header_fast(line: &str) -> Step<HeaderSpans> {
    if line.contains('\n') {
        return Err(Stop::Unsure);
    }
    let mut c = Cur {
        b: line.as_bytes(),
        i: 0,
    };
    c.ws()?;
    // `header_from` tells `dd/mm/yyyy` from `yyyy/mm/dd` by the digits.
    let a = c.digits(1, 4)?;
    let sep = c.one_of(b"./-")?;
    let b = c.digits(1, 2)?;
    c.one_of(b"./-")?;
    let year = c.digits(1, 4)?;
    if c.ws()? == 0 {
        return Err(Stop::No);
    }
    let hour = c.digits(1, 2)?;
    c.lit(b':')?;
    let min = c.digits(2, 2)?;
    c.lit(b':')?;
    let sec = c.digits(2, 2)?;
    let gap = c.ws()?;
    let mut ampm = None;
    if let Some(b'A' | b'a' | b'P' | b'p') = c.byte()? {
        // Only AM/PM can follow here; without it no dash can either.
        if !matches!(c.b.get(c.i + 1), Some(b'M' | b'm')) {
            return Err(Stop::No);
        }
        ampm = Some((c.i, c.i + 2));
        c.i += 2;
        if c.ws()? == 0 {
            return Err(Stop::No);
        }
    } else if gap == 0 {
        return Err(Stop::No);
    }
    c.lit(b'-')?;
    if c.ws()? == 0 {
        return Err(Stop::No);
    }
    if !line[c.i..].starts_with("Process(") {
        return Err(Stop::No);
    }
    Ok(HeaderSpans {
        a,
        sep,
        b,
        year,
        hour,
        min,
        sec,
        ampm,
        rest: c.i,
    })
}

pub(super) fn header_regex(line: &str) -> Option<HeaderSpans> {
    let c = HEADER_RE.captures(line)?;
    let g = |i: usize| c.get(i).map(|m| (m.start(), m.end()));
    Some(HeaderSpans {
        a: g(1)?,
        sep: g(2)?.0,
        b: g(3)?,
        year: g(4)?,
        hour: g(5)?,
        min: g(6)?,
        sec: g(7)?,
        ampm: g(8),
        rest: g(9)?.0,
    })
}

/// The groups of `LEGACY_RE`: six two-digit fields and the message text.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct LegacySpans {
    pub(super) f: [Span; 6],
    pub(super) text: Option<usize>,
}

pub(super) fn legacy_fast(line: &str) -> Step<LegacySpans> {
    if line.contains('\n') {
        return Err(Stop::Unsure);
    }
    let mut c = Cur {
        b: line.as_bytes(),
        i: 0,
    };
    let f0 = c.digits(2, 2)?;
    c.lit(b'/')?;
    let f1 = c.digits(2, 2)?;
    c.lit(b'/')?;
    let f2 = c.digits(2, 2)?;
    if c.ws()? == 0 {
        return Err(Stop::No);
    }
    let f3 = c.digits(2, 2)?;
    c.lit(b':')?;
    let f4 = c.digits(2, 2)?;
    c.lit(b':')?;
    let f5 = c.digits(2, 2)?;
    c.ws()?;
    let f = [f0, f1, f2, f3, f4, f5];
    if c.byte()?.is_none() {
        return Ok(LegacySpans { f, text: None });
    }
    let text = c.i;
    if !line[c.i..].starts_with("AMQ") {
        return Err(Stop::No);
    }
    c.i += 3;
    c.digits(4, 4)?;
    if let Some(b'A'..=b'Z') = c.byte()? {
        c.i += 1;
    }
    c.lit(b':')?;
    Ok(LegacySpans {
        f,
        text: Some(text),
    })
}

pub(super) fn legacy_regex(line: &str) -> Option<LegacySpans> {
    let c = LEGACY_RE.captures(line)?;
    let g = |i: usize| c.get(i).map(|m| (m.start(), m.end()));
    Some(LegacySpans {
        f: [g(1)?, g(2)?, g(3)?, g(4)?, g(5)?, g(6)?],
        text: g(7).map(|s| s.0),
    })
}

/// `MSG_RE`'s groups: the message id and the text after the colon and one
/// optional whitespace character.
pub(super) fn msg_fast(s: &str) -> Step<(&str, &str)> {
    if !s.starts_with("AMQ") {
        return Err(Stop::No);
    }
    if s.contains('\n') {
        return Err(Stop::Unsure);
    }
    let mut c = Cur {
        b: s.as_bytes(),
        i: 3,
    };
    c.digits(4, 4)?;
    if let Some(b'A'..=b'Z') = c.byte()? {
        c.i += 1;
    }
    c.lit(b':')?;
    let id = &s[..c.i - 1];
    let mut rest = &s[c.i..];
    if let Some(ch) = rest.chars().next().filter(|ch| ch.is_whitespace()) {
        rest = &rest[ch.len_utf8()..];
    }
    Ok((id, rest))
}

/// Split a message line (`AMQnnnn[X]: text`) into id and text.
pub(crate) fn msg_split(s: &str) -> Option<(&str, &str)> {
    match msg_fast(s) {
        Ok(x) => Some(x),
        Err(Stop::No) => None,
        Err(Stop::Unsure) => {
            let c = MSG_RE.captures(s)?;
            Some((c.get(1)?.as_str(), c.get(2)?.as_str()))
        }
    }
}

/// `SEPARATOR_RE`'s groups (source file, line) on an ASCII line.
pub(super) fn separator_fast(line: &str) -> Step<Option<(Span, Span)>> {
    if !line.is_ascii() || line.contains('\n') {
        return Err(Stop::Unsure);
    }
    let b = line.as_bytes();
    if !line.starts_with("-----") {
        return Err(Stop::No);
    }
    let mut i = 5;
    let mut groups = None;
    if b.get(i) == Some(&b' ') {
        // ` (\S+) : (\d+) `: the only way on from a space.
        i += 1;
        let fs = i;
        while i < b.len() && !is_ascii_ws(b[i]) {
            i += 1;
        }
        let fe = i;
        if fe == fs || !b[i..].starts_with(b" : ") {
            return Err(Stop::No);
        }
        i += 3;
        let ds = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        let de = i;
        if de == ds || b.get(i) != Some(&b' ') {
            return Err(Stop::No);
        }
        i += 1;
        groups = Some(((fs, fe), (ds, de)));
    }
    let dashes = i;
    // The run of dashes fills most of the line: eight at a time first.
    while b.get(i..i + 8) == Some(b"--------") {
        i += 8;
    }
    while b.get(i) == Some(&b'-') {
        i += 1;
    }
    if i == dashes {
        return Err(Stop::No);
    }
    while i < b.len() && is_ascii_ws(b[i]) {
        i += 1;
    }
    if i != b.len() {
        return Err(Stop::No);
    }
    Ok(groups)
}

/// Parse a header line; `None` when the line is not one. Only lines that
/// start with a digit are tried, so text lines cost one byte test.
pub(crate) fn parse_header(line: &str) -> Option<Header> {
    let first = trim_start(line).bytes().next()?;
    if !first.is_ascii_digit() {
        return None;
    }
    let spans = match header_fast(line) {
        Ok(s) => Some(s),
        Err(Stop::No) => None,
        Err(Stop::Unsure) => header_regex(line),
    };
    if let Some(s) = spans {
        return header_from(line, &s);
    }
    let spans = match legacy_fast(line) {
        Ok(s) => s,
        Err(Stop::No) => return None,
        Err(Stop::Unsure) => legacy_regex(line)?,
    };
    Some(legacy_from(line, &spans))
}

/// `parse_header` by the regexes alone: what the fast matchers must agree
/// with.
#[cfg(test)]
pub(super) fn parse_header_by_regex(line: &str) -> Option<Header> {
    let first = line.trim_start().bytes().next()?;
    if !first.is_ascii_digit() {
        return None;
    }
    if let Some(s) = header_regex(line) {
        return header_from(line, &s);
    }
    Some(legacy_from(line, &legacy_regex(line)?))
}

pub(super) fn header_from(line: &str, c: &HeaderSpans) -> Option<Header> {
    let g = |s: Span| &line[s.0..s.1];
    let mut pid = None;
    let mut tid = None;
    let mut user = None;
    let mut program = None;
    let mut extra = Vec::new();
    let (unbalanced, _) = scan_attrs_each(&line[c.rest..], |k, v| match k {
        "Process" => {
            let (p, t) = v.split_once('.').unwrap_or((v, ""));
            pid = p.trim().parse().ok();
            tid = t.trim().parse().ok();
        }
        "User" => user = Some(v.to_string()),
        "Program" => program = Some(v.to_string()),
        _ => extra.push((k.to_string(), v.to_string())),
    });
    pid?;
    let alen = c.a.1 - c.a.0;
    let mut ylen = (c.year.1 - c.year.0) as u8;
    // `yyyy/mm/dd`: the first field is the year, the last the day.
    let year_first = alen == 4 && ylen <= 2;
    let (a, year_span, day) = if year_first {
        ylen = 4;
        (num(g(c.b)), c.a, num(g(c.year)))
    } else if alen <= 2 && ylen >= 2 {
        (num(g(c.a)), c.year, num(g(c.b)))
    } else {
        return None;
    };
    let mut year: i32 = g(year_span).parse().ok()?;
    if ylen <= 2 {
        year += if year < 70 { 2000 } else { 1900 };
    }
    let mut hour = num(g(c.hour));
    // `[AaPp][Mm]`: afternoon or not.
    let pm = c
        .ampm
        .map(|s| g(s).as_bytes()[0].eq_ignore_ascii_case(&b'P'));
    if let Some(pm) = pm {
        if !(1..=12).contains(&hour) {
            hour = u32::MAX;
        } else {
            hour = match (pm, hour) {
                (false, 12) => 0,
                (true, 12) => 12,
                (true, h) => h + 12,
                (_, h) => h,
            };
        }
    }
    let raw_end = c.ampm.map(|s| s.1).unwrap_or(c.sec.1);
    let raw_start = c.a.0;
    Some(Header {
        a,
        b: day,
        year,
        style: Style {
            sep: line.as_bytes()[c.sep],
            year_digits: ylen,
            ampm: pm.is_some(),
            year_first,
        },
        hour,
        min: num(g(c.min)),
        sec: num(g(c.sec)),
        pid,
        tid,
        user,
        program,
        extra,
        local_raw: line[raw_start..raw_end].to_string(),
        legacy_text: None,
        unbalanced: unbalanced.map(str::to_string),
    })
}

pub(super) fn legacy_from(line: &str, c: &LegacySpans) -> Header {
    let f: Vec<&str> = c.f.iter().map(|s| &line[s.0..s.1]).collect();
    let year = 2000 + num(f[2]) as i32 - if num(f[2]) >= 70 { 100 } else { 0 };
    Header {
        a: num(f[0]),
        b: num(f[1]),
        year,
        style: Style {
            sep: b'/',
            year_digits: 2,
            ampm: false,
            year_first: false,
        },
        hour: num(f[3]),
        min: num(f[4]),
        sec: num(f[5]),
        pid: None,
        tid: None,
        user: None,
        program: None,
        extra: Vec::new(),
        local_raw: format!("{}/{}/{} {}:{}:{}", f[0], f[1], f[2], f[3], f[4], f[5]),
        legacy_text: c.text.map(|t| line[t..].to_string()),
        unbalanced: None,
    }
}

impl Header {
    /// The local date and time in the given order; `None` when invalid.
    pub(super) fn local(&self, order: Order) -> Option<NaiveDateTime> {
        let (m, d) = match order {
            _ if self.style.year_first => (self.a, self.b),
            Order::Mdy => (self.a, self.b),
            Order::Dmy => (self.b, self.a),
        };
        let date = NaiveDate::from_ymd_opt(self.year, m, d)?;
        let time = NaiveTime::from_hms_opt(self.hour, self.min, self.sec)?;
        Some(date.and_time(time))
    }

    pub(super) fn is_legacy(&self) -> bool {
        self.pid.is_none()
    }
}

/// `2018-10-17T11:50:16.330Z`
pub(super) fn parse_utc(s: &str) -> Option<NaiveDateTime> {
    let s = s.trim();
    let s = s.strip_suffix('Z').or_else(|| s.strip_suffix('z'))?;
    // chrono parses its format string on every call; the one form MQ
    // writes is read by hand, anything else by chrono.
    utc_fast(s).or_else(|| NaiveDateTime::parse_from_str(s, "%Y-%m-%dT%H:%M:%S%.f").ok())
}

/// `YYYY-MM-DDTHH:MM:SS[.f]` with 1 to 9 fraction digits and fields in
/// range; `None` leaves the string to chrono.
pub(super) fn utc_fast(s: &str) -> Option<NaiveDateTime> {
    let b = s.as_bytes();
    if b.len() < 19
        || b[4] != b'-'
        || b[7] != b'-'
        || b[10] != b'T'
        || b[13] != b':'
        || b[16] != b':'
    {
        return None;
    }
    let n = |from: usize, to: usize| -> Option<u32> {
        b[from..to].iter().try_fold(0u32, |acc, &d| {
            d.is_ascii_digit().then(|| acc * 10 + u32::from(d - b'0'))
        })
    };
    let (year, month, day) = (n(0, 4)?, n(5, 7)?, n(8, 10)?);
    let (hour, min, sec) = (n(11, 13)?, n(14, 16)?, n(17, 19)?);
    let nano = match &b[19..] {
        [] => 0,
        [b'.', frac @ ..] if (1..=9).contains(&frac.len()) => {
            n(20, b.len())? * 10u32.pow(9 - frac.len() as u32)
        }
        _ => return None,
    };
    if hour > 23 || min > 59 || sec > 59 {
        return None;
    }
    NaiveDate::from_ymd_opt(year as i32, month, day)?.and_hms_nano_opt(hour, min, sec, nano)
}

/// Local minus UTC, rounded to 15 minutes; `None` beyond ±14 hours (a
/// header and `Time()` that disagree, which IBM's own examples show).
pub(super) fn offset_of(local: NaiveDateTime, utc: NaiveDateTime) -> Option<i32> {
    let secs = (local - utc).num_seconds();
    let q = ((secs as f64) / 900.0).round() as i64 * 900;
    (q.abs() <= MAX_OFFSET_SECS).then_some(q as i32)
}

pub(crate) fn is_separator(line: &str) -> Option<Option<String>> {
    if !line.starts_with("-----") {
        return None;
    }
    let groups = match separator_fast(line) {
        Ok(g) => g,
        Err(Stop::No) => return None,
        Err(Stop::Unsure) => {
            let c = SEPARATOR_RE.captures(line)?;
            match (c.get(1), c.get(2)) {
                (Some(f), Some(l)) => Some(((f.start(), f.end()), (l.start(), l.end()))),
                _ => None,
            }
        }
    };
    Some(groups.map(|(f, l)| {
        let (f, l) = (&line[f.0..f.1], &line[l.0..l.1]);
        let mut s = String::with_capacity(f.len() + 1 + l.len());
        s.push_str(f);
        s.push(':');
        s.push_str(l);
        s
    }))
}

/// `AMQnnnn[X]: ...`; the byte test first, since this runs on every line
/// of a record's text.
pub(super) fn is_msg_line(s: &str) -> bool {
    s.starts_with("AMQ") && msg_split(s).is_some()
}

/// A section heading: `EXPLANATION:`, `ERKLÄRUNG:`, `EXPLICATION :`,
/// `説明:`, mojibake like `ERKLéRUNG:`. One or two words with no ASCII
/// lower case and no digits, then a colon (French puts a space before it).
/// Returns the text after the colon for the known headings that old
/// releases wrote on the same line.
pub(crate) fn heading(line: &str) -> Option<&str> {
    let t = trim_end(line);
    // Most text lines are neither form: no colon at the end, and not the
    // first letter of a known heading.
    if !t.ends_with(':') && !matches!(t.as_bytes().first(), Some(b'E' | b'A' | b'S')) {
        return None;
    }
    if let Some(word) = t.strip_suffix(':') {
        let word = word.trim();
        if heading_word(word) {
            return Some("");
        }
    }
    // A known heading with its text after it has a colon somewhere.
    if !t.contains(':') {
        return None;
    }
    for h in KNOWN_HEADINGS {
        if let Some(rest) = t.strip_prefix(h) {
            let rest = rest.trim_start_matches(' ');
            if let Some(text) = rest.strip_prefix(':') {
                return Some(text.trim());
            }
        }
    }
    None
}

/// One or two words (`word` is trimmed), at most 30 characters, a letter
/// among them and no ASCII lower case or digit: a heading before its colon.
pub(super) fn heading_word(word: &str) -> bool {
    if word.is_ascii() {
        // One pass over the bytes: ASCII whitespace is `is_ascii_ws`, and
        // a byte is a character.
        let b = word.as_bytes();
        // Trimmed: one word more than the word ends inside it.
        let gaps = || {
            b.windows(2)
                .filter(|p| !is_ascii_ws(p[0]) && is_ascii_ws(p[1]))
                .count()
        };
        return (1..=30).contains(&b.len())
            && gaps() <= 1
            && b.iter().any(u8::is_ascii_alphabetic)
            && !b
                .iter()
                .any(|c| c.is_ascii_lowercase() || c.is_ascii_digit());
    }
    heading_word_slow(word)
}

/// `heading_word` on any text.
pub(super) fn heading_word_slow(word: &str) -> bool {
    let words = word.split_whitespace().count();
    (1..=2).contains(&words)
        && word.chars().count() <= 30
        && word.chars().any(char::is_alphabetic)
        && !word
            .chars()
            .any(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
}

/// `...address 'LOCALHOST'.EXPLANATION:`: a heading glued to the end of
/// the summary in pasted copies. Returns the summary part.
pub(super) fn glued_heading(line: &str) -> Option<&str> {
    // Most summaries do not end with a colon: one test, not one a heading.
    let t = trim_end(line).strip_suffix(':')?;
    for h in KNOWN_HEADINGS {
        if let Some(before) = t.strip_suffix(h)
            && !before.is_empty()
            && !before.ends_with(char::is_whitespace)
        {
            return Some(before);
        }
    }
    None
}

/// An attribute line: `Name(` indented, or a known name; `t` is `line`
/// without its indent.
pub(super) fn is_attr_line(line: &str, t: &str) -> bool {
    let name_len = alnum_run(t.as_bytes());
    if name_len == 0
        || !t.as_bytes()[0].is_ascii_alphabetic()
        || t.as_bytes().get(name_len) != Some(&b'(')
    {
        return false;
    }
    let indented = t.len() < line.len();
    indented || KNOWN_ATTRS.contains(&&t[..name_len])
}

/// Control characters other than tab and form feed: binary data.
pub(super) fn has_control(s: &str) -> bool {
    let b = s.as_bytes();
    // Sixteen bytes at a time with no branch inside, which the compiler
    // turns into vector compares (fewer instructions than eight bytes at
    // a time in a word); the bytes after the last sixteen are looked at
    // as part of the line's last sixteen.
    let mut chunks = b.chunks_exact(16);
    if chunks.any(any16) {
        return true;
    }
    if chunks.remainder().is_empty() {
        false
    } else if b.len() >= 16 {
        any16(&b[b.len() - 16..])
    } else {
        b.iter().any(|&c| is_control_byte(c))
    }
}

/// Whether sixteen bytes hold a control byte, with no branch.
#[inline(always)]
fn any16(c: &[u8]) -> bool {
    let w: [u8; 16] = c.try_into().unwrap_or([0x20; 16]);
    w.iter().fold(false, |a, &c| a | is_control_byte(c))
}

/// A byte `has_control` looks for: below a space but tab and form feed,
/// or DEL.
fn is_control_byte(c: u8) -> bool {
    (c < 0x20 && c != b'\t' && c != 0x0c) | (c == 0x7f)
}

/// `has_control` a byte at a time.
#[cfg(test)]
pub(super) fn has_control_slow(s: &str) -> bool {
    s.bytes().any(is_control_byte)
}

// ---------------------------------------------------------------------------
// First pass: date order and UTC offset
