//! The first pass over a file: how its writers write dates (day or month
//! first), which UTC offsets `Time()` reveals, and the plan that follows.

use super::*;

/// Date-order evidence of one header style (and one user within it).
#[derive(Debug, Default, Clone)]
pub(super) struct Evidence {
    pub(super) count: u64,
    pub(super) first_line: u64,
    pub(super) example: String,
    /// A first field above 12: day first.
    pub(super) day_first: u64,
    /// A second field above 12: month first.
    pub(super) month_first: u64,
    /// `Time()` agrees with only one reading.
    pub(super) time_dmy: u64,
    pub(super) time_mdy: u64,
    /// Offsets (seconds) per reading, from headers with `Time()`.
    pub(super) off_dmy: BTreeMap<i32, u64>,
    pub(super) off_mdy: BTreeMap<i32, u64>,
}

impl Evidence {
    /// Count a header; `offs` is `offsets(h, utc)`.
    pub(super) fn add(&mut self, line: u64, h: &Header, utc: Option<NaiveDateTime>, offs: Offs) {
        if self.count == 0 {
            self.first_line = line;
            self.example = h.local_raw.clone();
        }
        self.count += 1;
        if h.a > 12 && h.b <= 12 {
            self.day_first += 1;
        }
        if h.b > 12 && h.a <= 12 {
            self.month_first += 1;
        }
        if utc.is_some() {
            let [dmy, mdy] = offs;
            if let Some(o) = dmy {
                *self.off_dmy.entry(o).or_default() += 1;
            }
            if let Some(o) = mdy {
                *self.off_mdy.entry(o).or_default() += 1;
            }
            if h.a != h.b {
                match (dmy, mdy) {
                    (Some(_), None) => self.time_dmy += 1,
                    (None, Some(_)) => self.time_mdy += 1,
                    _ => {}
                }
            }
        }
    }

    pub(super) fn votes(&self) -> (u64, u64) {
        (
            self.day_first + self.time_dmy,
            self.month_first + self.time_mdy,
        )
    }
}

/// A header's UTC offset read day first and month first, when it has
/// `Time()` and the reading is a valid date within ±14 hours of it.
pub(super) type Offs = [Option<i32>; 2];

pub(super) fn offsets(h: &Header, utc: Option<NaiveDateTime>) -> Offs {
    let Some(u) = utc else {
        return [None, None];
    };
    [Order::Dmy, Order::Mdy].map(|o| h.local(o).and_then(|l| offset_of(l, u)))
}

#[derive(Debug, Default)]
pub(super) struct StyleEvidence {
    pub(super) all: Evidence,
    /// Looked up once a record: hashed with `FxHash` (only the set is
    /// read, never its order).
    pub(super) users: rustc_hash::FxHashMap<String, Evidence>,
}

/// What the first pass found in one file.
#[derive(Debug, Default)]
pub(super) struct Prescan {
    pub(super) styles: BTreeMap<Style, StyleEvidence>,
    pub(super) with_time: u64,
    pub(super) without_time: u64,
    pub(super) windows: bool,
    pub(super) legacy: bool,
    pub(super) qmgr: Option<String>,
    pub(super) host: Option<String>,
    pub(super) vrmf: Option<String>,
    /// Runs of records with `Time()` at one UTC offset, as read day first
    /// ([0]) and month first ([1]): the neighbours that date the records
    /// without `Time()` at the offset in force where they were written.
    pub(super) segs: [Vec<Seg>; 2],
}

/// A run of records with `Time()` at one offset, lines `first..=last`.
#[derive(Debug, Clone, Copy)]
pub(super) struct Seg {
    pub(super) first: u64,
    pub(super) last: u64,
    pub(super) offset: i32,
    pub(super) first_utc: NaiveDateTime,
    pub(super) last_utc: NaiveDateTime,
}

/// A file whose headers and `Time()` disagree at random would make a run
/// per record: past this many runs the file's most common offset is used.
pub(super) const MAX_SEGS: usize = 4096;

pub(super) fn push_seg(segs: &mut Vec<Seg>, line: u64, offset: i32, utc: NaiveDateTime) {
    if let Some(s) = segs.last_mut()
        && s.offset == offset
    {
        s.last = line;
        s.last_utc = utc;
        return;
    }
    if segs.len() < MAX_SEGS {
        segs.push(Seg {
            first: line,
            last: line,
            offset,
            first_utc: utc,
            last_utc: utc,
        });
    }
}

pub(super) fn order_index(o: Order) -> usize {
    match o {
        Order::Dmy => 0,
        Order::Mdy => 1,
    }
}

/// A header waiting for its attribute lines in the first pass.
pub(super) struct Pending {
    pub(super) line: u64,
    pub(super) header: Header,
    pub(super) utc: Option<NaiveDateTime>,
}

/// True when the line's first byte rules out a header: empty, or ASCII
/// that is neither a digit nor whitespace (`parse_header` wants a digit
/// after leading whitespace; a non-ASCII byte may decode to whitespace).
pub(super) fn cannot_be_header(bytes: &[u8]) -> bool {
    bytes
        .first()
        .is_none_or(|&b| b < 0x80 && !b.is_ascii_digit() && !is_ascii_ws(b))
}

/// The first pass over a whole file on its own (the offsets a JSON error
/// log beside it needs, and the other files of a rotated set when a file
/// without `Time()` needs their offset).
pub(super) fn prescan(input: &Input, forced: Option<crate::encoding::TextEncoding>) -> Prescan {
    let r = match crate::formats::open_decoded(input, forced) {
        Ok((r, _)) => r,
        // The reading pass reports a file it cannot read.
        Err(_) => return Prescan::default(),
    };
    let mut lines = LineReader::new(r);
    let mut scan = Scanner::default();
    // A read error ends the scan here; the reading pass reports it.
    loop {
        // With no header pending, the buffered lines that cannot start one
        // (most of a record's text) are passed over in one search.
        if scan.pending.is_none() {
            skip_non_headers(&mut lines);
        }
        let Ok(Some((meta, bytes))) = lines.next_line() else {
            break;
        };
        // A BOM before the first header, as the line loop takes it off.
        let bytes = if meta.no == 1 {
            bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes)
        } else {
            bytes
        };
        scan.line(meta.no, bytes);
    }
    scan.finish();
    scan.p
}

/// The header facts gathered line by line: fed every line of a file as
/// it is read (in the reading pass, before the parser sees the line), it
/// holds what a first pass over the lines so far would have found.
#[derive(Default)]
pub(super) struct Scanner {
    pub(super) p: Prescan,
    pub(super) pending: Option<Pending>,
    /// The last `Time()` value read and what `parse_utc` made of it: the
    /// record's own reading asks again for the same text (`utc_of`).
    pub(super) last_time: (String, Option<NaiveDateTime>),
}

impl Scanner {
    /// One line of the file, as the line loop hands it over (BOM off).
    pub(super) fn line(&mut self, no: u64, bytes: &[u8]) {
        self.line_as(no, bytes, None);
    }

    /// `line`, with `utf8` the line's bytes as text when the caller has
    /// already found them valid UTF-8 (they are not checked again).
    pub(super) fn line_as(&mut self, no: u64, bytes: &[u8], utf8: Option<&str>) {
        let decode = || match utf8 {
            Some(t) => std::borrow::Cow::Borrowed(t),
            None => match std::str::from_utf8(bytes) {
                Ok(t) => std::borrow::Cow::Borrowed(t),
                Err(_) => String::from_utf8_lossy(bytes),
            },
        };
        let p = &mut self.p;
        let pending = &mut self.pending;
        // With no header pending only a header matters, and a header's
        // first non-blank character is a digit: a line starting with any
        // other ASCII character (most text lines) is passed over here.
        if pending.is_none() && cannot_be_header(bytes) {
            return;
        }
        // A line whose first non-blank byte is ASCII and not a digit is not
        // a header, and its indent and name are judged on its bytes: only
        // a line with a name this pass reads is decoded. The rest (headers,
        // a first non-blank byte past ASCII) go the decoding way below.
        let lead = ascii_indent(bytes);
        let rest = &bytes[lead..];
        if rest
            .first()
            .is_none_or(|&b| b < 0x80 && !b.is_ascii_digit())
        {
            let Some(cur) = pending.as_mut() else {
                return;
            };
            if rest.is_empty() {
                return;
            }
            if !is_attr_bytes(rest, lead > 0) {
                let done = pending.take().expect("pending");
                p.settle(done);
                return;
            }
            if !names_wanted(rest, p.qmgr.is_none(), p.host.is_none()) {
                return;
            }
            let text = decode();
            scan_wanted(p, cur, &mut self.last_time, trim_end(trim_start(&text)));
            return;
        }
        // Headers and attributes are ASCII; other bytes do not matter here.
        let text = decode();
        // The line without its indent, found once for the tests below:
        // `parse_header` wants a digit first, a blank line is all indent,
        // and an attribute line is a name and `(` after it.
        let t = trim_start(&text);
        if t.as_bytes().first().is_some_and(u8::is_ascii_digit)
            && let Some(h) = parse_header(&text)
        {
            if let Some(done) = pending.take() {
                p.settle(done);
            }
            *pending = Some(Pending {
                line: no,
                header: h,
                utc: None,
            });
            return;
        }
        let Some(cur) = pending.as_mut() else {
            return;
        };
        if t.is_empty() {
            return;
        }
        if !is_attr_line(&text, t) {
            let done = pending.take().expect("pending");
            p.settle(done);
            return;
        }
        // Only four names matter here: a line that names none of them
        // before a `(` is not scanned.
        if !names_wanted(t.as_bytes(), p.qmgr.is_none(), p.host.is_none()) {
            return;
        }
        scan_wanted(p, cur, &mut self.last_time, trim_end(t));
    }

    /// A line the parser read as header `h` from the same text: what
    /// `line` does with it, without parsing it again.
    pub(super) fn header(&mut self, no: u64, bytes: &[u8], h: &Header) {
        if self.pending.is_none() && cannot_be_header(bytes) {
            return;
        }
        if let Some(done) = self.pending.take() {
            self.p.settle(done);
        }
        self.pending = Some(Pending {
            line: no,
            header: h.clone(),
            utc: None,
        });
    }

    /// `parse_utc(v)`, from the last `Time()` read when `v` is its text.
    pub(super) fn utc_of(&self, v: &str) -> Option<NaiveDateTime> {
        if self.last_time.0 == v {
            self.last_time.1
        } else {
            parse_utc(v)
        }
    }

    /// The file ended: the header still waiting for attributes counts.
    pub(super) fn finish(&mut self) {
        if let Some(done) = self.pending.take() {
            self.p.settle(done);
        }
    }
}

/// What the first pass reads of an attribute line: `Time()` for the
/// pending header; the file's first `QMgr()` and `Host()`, its last `VRMF()`.
fn scan_wanted(
    p: &mut Prescan,
    cur: &mut Pending,
    last: &mut (String, Option<NaiveDateTime>),
    line: &str,
) {
    scan_attrs_each(line, |k, v| match k {
        "Time" => {
            cur.utc = parse_utc(v);
            last.0.clear();
            last.0.push_str(v);
            last.1 = cur.utc;
        }
        "QMgr" if p.qmgr.is_none() => p.qmgr = Some(v.to_string()),
        "Host" if p.host.is_none() => p.host = Some(v.to_string()),
        "VRMF" if p.vrmf.as_deref() != Some(v) => p.vrmf = Some(v.to_string()),
        _ => {}
    });
}

/// The bytes of ASCII whitespace `trim_start` takes off the line's start.
pub(super) fn ascii_indent(b: &[u8]) -> usize {
    // Eight blanks at a time first: attribute lines are indented by twenty.
    let mut n = 0;
    while b.len() - n >= 8 && b[n..n + 8] == [b' '; 8] {
        n += 8;
    }
    while n < b.len() && is_ascii_ws(b[n]) {
        n += 1;
    }
    n
}

/// `is_attr_line` on the bytes of a line's rest after an ASCII indent
/// (`indented`: that indent is not empty).
pub(super) fn is_attr_bytes(t: &[u8], indented: bool) -> bool {
    let name_len = alnum_run(t);
    if name_len == 0 || !t[0].is_ascii_alphabetic() || t.get(name_len) != Some(&b'(') {
        return false;
    }
    indented || KNOWN_ATTRS.iter().any(|k| k.as_bytes() == &t[..name_len])
}

/// Mark as read the buffered lines, from the next, that `cannot_be_header`
/// passes over: empty (CR alone included), or starting with ASCII that is
/// neither a digit nor whitespace. Lines are counted as `next_line` would.
pub(super) fn skip_non_headers<R: std::io::Read>(lines: &mut LineReader<R>) {
    let Ok(block) = lines.buffered_lines() else {
        // `next_line` meets the error again and ends the scan.
        return;
    };
    let (n, count) = non_header_lines(block);
    if count > 0 {
        lines.skip(n, count);
    }
}

/// Bytes and lines at the start of `block` (whole lines, each ended by
/// `\n`) that `cannot_be_header` passes over.
pub(super) fn non_header_lines(block: &[u8]) -> (usize, u64) {
    let passed_over = |at: usize| {
        block.get(at).is_some_and(|&first| {
            first == b'\n'
                || (first == b'\r' && block.get(at + 1) == Some(&b'\n'))
                || (first < 0x80 && !first.is_ascii_digit() && !is_ascii_ws(first))
        })
    };
    let mut at = 0;
    let mut count = 0;
    if !passed_over(0) {
        return (0, 0);
    }
    // Each line end closes the line that starts at `at`, already judged.
    for i in memchr::memchr_iter(b'\n', block) {
        at = i + 1;
        count += 1;
        if !passed_over(at) {
            break;
        }
    }
    (at, count)
}

/// Whether `Time(`, `VRMF(`, and `QMgr(` or `Host(` while still wanted,
/// occur in an attribute line: the names the first pass reads. A value
/// holding one of them is found too, and the scanner then decides.
pub(super) fn names_wanted(b: &[u8], qmgr: bool, host: bool) -> bool {
    let wanted = |i: usize| {
        i >= 4
            && match &b[i - 4..i] {
                b"Time" | b"VRMF" => true,
                b"QMgr" => qmgr,
                b"Host" => host,
                _ => false,
            }
    };
    // The `(`s found eight bytes at a time: a search call per `(` cost
    // more than the short attribute lines it looked through.
    let mut at = 0;
    while let Some(w) = mqdiag_model::text::word_from(b, at) {
        let mut m = mqdiag_model::text::bytes_equal(w, b'(');
        while m != 0 {
            if wanted(at + (m.trailing_zeros() / 8) as usize) {
                return true;
            }
            m &= m - 1;
        }
        at += 8;
    }
    (at..b.len()).any(|i| b[i] == b'(' && wanted(i))
}

impl Prescan {
    pub(super) fn settle(&mut self, d: Pending) {
        let h = &d.header;
        if d.utc.is_some() {
            self.with_time += 1;
        } else {
            self.without_time += 1;
        }
        if h.program.as_deref().is_some_and(|p| {
            p.len() >= 4 && p.as_bytes()[p.len() - 4..].eq_ignore_ascii_case(b".exe")
        }) {
            self.windows = true;
        }
        if h.is_legacy() {
            self.legacy = true;
        }
        let offs = offsets(h, d.utc);
        if let Some(u) = d.utc {
            for o in [Order::Dmy, Order::Mdy] {
                if let Some(off) = offs[order_index(o)] {
                    push_seg(&mut self.segs[order_index(o)], d.line, off, u);
                }
            }
        }
        let se = self.styles.entry(h.style).or_default();
        se.all.add(d.line, h, d.utc, offs);
        // Headers without User() (and users beyond the limit) share one
        // writer key, so their offsets still count. A writer seen before
        // is found without a copy of its name.
        let user = h.user.as_deref().unwrap_or("");
        if let Some(ev) = se.users.get_mut(user) {
            ev.add(d.line, h, d.utc, offs);
            return;
        }
        let mut u = writer_key(h);
        if se.users.len() >= MAX_USERS_PER_STYLE {
            u = String::new();
        }
        se.users.entry(u).or_default().add(d.line, h, d.utc, offs);
    }
}

/// Decisions for one file, from the header facts read so far (the
/// look-ahead, or the whole file).
#[derive(Debug, Default, Clone)]
pub(super) struct Plan {
    pub(super) orders: HashMap<(Style, Option<String>), Order>,
    pub(super) last_order: Option<(Style, String, Order)>,
    /// Offset from this file's own `Time()` attributes, and how many
    /// headers agreed on it.
    pub(super) offset: Option<(i32, u64)>,
    pub(super) offsets: BTreeMap<i32, u64>,
    pub(super) problems: Vec<(ProblemCode, u64, Severity, String)>,
}

pub(super) fn decide_order(style: Style, ev: &Evidence) -> Result<Order, (u64, u64)> {
    if style.sep == b'.' {
        return Ok(Order::Dmy);
    }
    if style.ampm || style.year_first {
        // Year first is always year, month, day (`Header::local`).
        return Ok(Order::Mdy);
    }
    match ev.votes() {
        (0, 0) => Err((0, 0)),
        (_, 0) => Ok(Order::Dmy),
        (0, _) => Ok(Order::Mdy),
        (d, m) => Err((d, m)),
    }
}

/// The order of a header style as a whole, and the problem saying why
/// when its headers do not decide it.
fn style_order(
    style: Style,
    se: &StyleEvidence,
) -> (Order, Option<(ProblemCode, u64, Severity, String)>) {
    match decide_order(style, &se.all) {
        Ok(o) => (o, None),
        Err((0, 0)) => (
            Order::Mdy,
            Some((
                ProblemCode::UndecidableDateOrder,
                se.all.first_line,
                Severity::Info,
                format!(
                    "date order of headers like `{}` cannot be told: day and month are both 12 or less in {} and no Time() attribute decides; read as month/day/year",
                    se.all.example,
                    if se.all.count == 1 {
                        "the only such header".to_string()
                    } else {
                        format!("all {} such headers", se.all.count)
                    }
                ),
            )),
        ),
        Err((d, m)) => {
            let o = if d > m { Order::Dmy } else { Order::Mdy };
            (
                o,
                Some((
                    ProblemCode::MixedDateOrder,
                    se.all.first_line,
                    Severity::Warning,
                    format!(
                        "headers like `{}` are written both day first ({d}) and month first ({m}) by different writers; read as {} where a writer's own headers do not decide",
                        se.all.example,
                        o.as_str()
                    ),
                )),
            )
        }
    }
}

impl Plan {
    pub(super) fn new(scan: &Prescan) -> Plan {
        let mut plan = Plan::default();
        for (style, se) in &scan.styles {
            let (style_order, problem) = style_order(*style, se);
            plan.problems.extend(problem);
            plan.orders.insert((*style, None), style_order);
            for (user, ev) in &se.users {
                let o = decide_order(*style, ev).unwrap_or(style_order);
                plan.orders.insert((*style, Some(user.clone())), o);
            }
            // Offsets as read in each writer's decided order.
            let mut merged: BTreeMap<i32, u64> = BTreeMap::new();
            for (user, ev) in &se.users {
                let src = match plan.orders[&(*style, Some(user.clone()))] {
                    Order::Dmy => &ev.off_dmy,
                    Order::Mdy => &ev.off_mdy,
                };
                for (k, v) in src {
                    *merged.entry(*k).or_default() += v;
                }
            }
            for (k, v) in merged {
                *plan.offsets.entry(k).or_default() += v;
            }
        }
        plan.offset = mode(&plan.offsets);
        plan
    }

    /// The date order of a header. A writer or style first met after the
    /// plan was made (past the look-ahead) is decided from `scan`, the
    /// facts read so far, which already hold its header.
    pub(super) fn order(&mut self, h: &Header, scan: &Prescan) -> Order {
        // Records of one writer come in runs: keep the last answer rather
        // than copy the user name into a key for every record.
        let user = h.user.as_deref().unwrap_or("");
        if let Some((style, u, o)) = &self.last_order
            && *style == h.style
            && u == user
        {
            return *o;
        }
        let key = (h.style, Some(writer_key(h)));
        let o = match self.orders.get(&key) {
            Some(o) => *o,
            None => self.learn(h.style, key, scan),
        };
        self.last_order = Some((h.style, user.to_string(), o));
        o
    }

    /// A writer (and maybe its style) the plan does not know yet.
    fn learn(&mut self, style: Style, key: (Style, Option<String>), scan: &Prescan) -> Order {
        let Some(se) = scan.styles.get(&style) else {
            return self
                .orders
                .get(&(style, None))
                .copied()
                .unwrap_or(Order::Mdy);
        };
        let style_order = *self
            .orders
            .entry((style, None))
            .or_insert_with(|| style_order(style, se).0);
        // A writer past the per-style limit shares the style's answer.
        let Some(ev) = key.1.as_deref().and_then(|u| se.users.get(u)) else {
            return style_order;
        };
        let o = decide_order(style, ev).unwrap_or(style_order);
        self.orders.insert(key, o);
        o
    }
}

/// The writer a header's date format belongs to: its user (the locale of
/// a Windows process comes from its user profile).
pub(super) fn writer_key(h: &Header) -> String {
    h.user.clone().unwrap_or_default()
}

pub(super) fn mode(m: &BTreeMap<i32, u64>) -> Option<(i32, u64)> {
    m.iter()
        .max_by(|a, b| a.1.cmp(b.1).then(b.0.abs().cmp(&a.0.abs())))
        .map(|(k, v)| (*k, *v))
}

pub(super) fn offset_label(secs: i32) -> String {
    mqdiag_model::timefmt::offset_str(FixedOffset::east_opt(secs).expect("offset in range"))
}

// ---------------------------------------------------------------------------
// Second pass: records
