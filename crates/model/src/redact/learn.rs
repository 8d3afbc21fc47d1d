//! Learning, in two steps. What an event holds (its attributes' values
//! by name, the names its text states by phrase, what the patterns find
//! in both) is found by a `Preparer`, which needs nothing the redactor
//! learnt: a merge runs one per source on the worker thread that reads
//! it. The redactor then learns those names and hands out the tokens in
//! the merged timeline's order (`Redactor::learn`), the order the
//! numbering follows whatever the number of threads. `observe` does both
//! in turn.

use super::patterns::*;
use super::*;

/// What learning takes from one event (`Preparer::prepare`): the names to
/// learn and the values to give a token, in the order `Redactor::learn`
/// takes them.
#[derive(Default, Debug, Clone)]
pub struct Learnt {
    /// The values, one after another (each `Op` holds its bounds).
    buf: String,
    ops: Vec<Op>,
}

#[derive(Debug, Clone, Copy)]
enum Op {
    /// A name to learn, lower-cased (`learn_key`).
    Name(Cat, usize, usize),
    /// A value a pattern found: its token, when it has none.
    Token(Cat, usize, usize),
    /// A URL's host as written: its token as what it is (`host_key`).
    Host(usize, usize),
    /// An attribute's whole value (a secret's, `assign_whole`).
    Whole(Cat, usize, usize),
}

impl Learnt {
    /// Emptied, keeping its buffers.
    pub fn clear(&mut self) {
        self.buf.clear();
        self.ops.clear();
    }

    /// Whether the event holds nothing to learn.
    pub fn is_empty(&self) -> bool {
        self.ops.is_empty()
    }

    /// Bytes held, about.
    pub fn approx_bytes(&self) -> usize {
        self.buf.capacity() + self.ops.capacity() * std::mem::size_of::<Op>()
    }

    fn push(&mut self, v: &str) -> (usize, usize) {
        let a = self.buf.len();
        self.buf.push_str(v);
        (a, self.buf.len())
    }

    /// A name, as `lower_cow` writes it (the redactor's key).
    fn name(&mut self, cat: Cat, v: &str) {
        let a = self.buf.len();
        if v.is_ascii() {
            self.buf.push_str(v);
            self.buf[a..].make_ascii_lowercase();
        } else {
            self.buf.push_str(&v.to_lowercase());
        }
        self.ops.push(Op::Name(cat, a, self.buf.len()));
    }

    /// What the patterns find in `s` (hints `h`), each to get a token.
    fn pattern_tokens(&mut self, s: &str, h: u16) {
        // No hint word: only the patterns that need none can match, and
        // most values (names, numbers, times) hold none of their marks.
        if h == 0 && !unhinted_marks(s) {
            return;
        }
        for hit in pattern_hits(s, h) {
            let (a, b) = self.push(&hit.key);
            self.ops.push(match hit.url {
                true => Op::Host(a, b),
                false => Op::Token(hit.cat, a, b),
            });
        }
    }
}

/// Whether `s` has what a pattern that needs no hint word needs
/// (`pattern_hits` with no hints): an `=` (distinguished names), a dot
/// between digits (`has_dotted_digits`: IPv4), or `::` or seven colons
/// (`may_hold_v6`). One pass over the bytes: most values are short, and
/// a search per mark cost more than the value.
fn unhinted_marks(s: &str) -> bool {
    let b = s.as_bytes();
    let mut colons = 0;
    let mut prev = 0u8;
    for (i, &c) in b.iter().enumerate() {
        match c {
            b'=' => return true,
            b':' if prev == b':' => return true,
            b':' => colons += 1,
            b'.' if prev.is_ascii_digit() && b.get(i + 1).is_some_and(u8::is_ascii_digit) => {
                return true;
            }
            _ => {}
        }
        prev = c;
    }
    colons >= 7
}

/// What learning keeps of an attribute name: the category of its values
/// and the value last learnt under it. Learning a value is idempotent, so
/// a value met again under the same name is skipped: most of a record's
/// attributes (program, user, installation, level, advice) repeat from
/// record to record.
#[derive(Clone)]
struct AttrMemo {
    cat: Option<Cat>,
    last: Option<String>,
}

/// Finds what events hold for learning (`Learnt`), without the redactor.
/// It skips what its own events before held (a value again under the
/// same attribute name, the same text): the redactor learnt it from them
/// already, as learning is idempotent, so one preparer per source (each
/// given its source's events in their merged order) or one for all gives
/// the same names and tokens.
#[derive(Default, Clone)]
pub struct Preparer {
    /// Whether whole channel and queue names are redacted.
    objects: bool,
    /// Per attribute name (an SMF row has ~510): its `attr_cat` and the
    /// value last met under it.
    attr_memo: HashMap<String, AttrMemo, FxBuildHasher>,
    /// The last event text met.
    last_text: String,
}

impl Preparer {
    pub(super) fn new(objects: bool) -> Preparer {
        Preparer {
            objects,
            ..Preparer::default()
        }
    }

    /// The same, remembering nothing (its source ended: its memory goes).
    pub fn emptied(&self) -> Preparer {
        Preparer::new(self.objects)
    }

    /// An attribute's category, and whether `v` is new under its name
    /// (then remembered as its last value).
    fn attr_fresh(&mut self, k: &str, v: &str) -> (Option<Cat>, bool) {
        if let Some(m) = self.attr_memo.get_mut(k) {
            if m.last.as_deref() == Some(v) {
                return (m.cat, false);
            }
            match &mut m.last {
                Some(l) => {
                    l.clear();
                    l.push_str(v);
                }
                None => m.last = Some(v.to_string()),
            }
            return (m.cat, true);
        }
        let cat = attr_cat(k, self.objects);
        if self.attr_memo.len() < MAX_MEMO {
            let last = Some(v.to_string());
            self.attr_memo.insert(k.to_string(), AttrMemo { cat, last });
        }
        (cat, true)
    }

    /// What `e` holds for learning, into `out` (emptied first): its
    /// attributes by name, its text by phrase, and every value the
    /// patterns find in them. What this preparer met before (a value
    /// again under the same attribute name, the text of the event before)
    /// adds nothing and is skipped.
    pub fn prepare(&mut self, e: &Event, out: &mut Learnt) {
        out.clear();
        // The attributes new under their names, with their categories.
        let mut fresh: Vec<(&str, &str, Option<Cat>, u16)> = Vec::with_capacity(e.attrs.len());
        for (k, v) in &e.attrs {
            if let (cat, true) = self.attr_fresh(k, v) {
                fresh.push((k, v, cat, 0));
            }
        }
        let text = self.last_text != e.text;
        if text {
            self.last_text.clear();
            self.last_text.push_str(&e.text);
        }
        if fresh.is_empty() && !text {
            return;
        }
        let objects = self.objects;
        let mut name = |cat: Cat, v: &str| out.name(cat, v);
        for &(_, v, cat, _) in &fresh {
            if let Some(cat) = cat {
                add_value(cat, v, &mut name);
            }
        }
        let th = if text { hints(&e.text) } else { 0 };
        if text {
            phrase_names(objects, &e.text, th, &mut name);
        }
        for (_, v, _, h) in fresh.iter_mut() {
            // Numbers (most of an SMF row) state no name.
            if v.bytes().any(|b| b.is_ascii_alphabetic()) {
                *h = hints(v);
                phrase_names(objects, v, *h, &mut name);
            }
        }
        // Tokens for addresses and other patterns in the order they are
        // first met (names get theirs when learnt).
        if text {
            out.pattern_tokens(&e.text, th);
        }
        for &(k, v, cat, h) in &fresh {
            if cat == Some(Cat::Secret) {
                if !v.is_empty() {
                    let (a, b) = out.push(v);
                    out.ops.push(Op::Whole(Cat::Secret, a, b));
                }
            } else if !level_attr(k, v) {
                out.pattern_tokens(v, h);
            }
        }
    }
}

/// The names a value of a category gives, to `name` in order. Compound
/// values (`name (1.2.3.4)(1414)`, `DOMAIN\user`) are cut into their
/// word-like runs.
fn add_value<F: FnMut(Cat, &str)>(cat: Cat, value: &str, name: &mut F) {
    let v = value
        .trim()
        .trim_matches(|c| c == '\'' || c == '"')
        .trim_matches(|c| c == '.' || c == '-');
    if v.is_empty() {
        return;
    }
    // ASCII (most values) is tested byte by byte: `run_char` and
    // `char::is_alphabetic` agree with these on it.
    let ascii = v.is_ascii();
    let all_run = match ascii {
        true => v.bytes().all(run_byte),
        false => v.chars().all(run_char),
    };
    if cat == Cat::Secret || cat == Cat::Dn || cat == Cat::Addr {
        // Replaced where their patterns are found; the value itself is
        // also learnt as a whole name so it goes wherever else it shows.
        if all_run {
            name(cat, v);
        }
        return;
    }
    if !all_run {
        for p in v.split(|c: char| !run_char(c)) {
            add_value(cat, p, name);
        }
        return;
    }
    // An IPv4 address is found by pattern anyway; so is an IPv6 one,
    // which has a `:` (not a run's character: never here).
    if v.as_bytes()[0].is_ascii_digit() && parse_v4(v).is_some() {
        return;
    }
    // Ports, numbers and one-letter values are not names.
    let letter = match ascii {
        true => v.len() > 1 && v.bytes().any(|b| b.is_ascii_alphabetic()),
        false => v.chars().nth(1).is_some() && v.chars().any(char::is_alphabetic),
    };
    if !letter {
        return;
    }
    if cat == Cat::Host && v.contains('.') {
        // `dynamo.example.com`: the short name shows alone too.
        if let Some(first) = v.split('.').next() {
            add_value(Cat::Host, first, name);
        }
    }
    name(cat, v);
}

/// The names free text states (`user id 'bob'`; hints `h`), to `name` in
/// order; with `objects`, channel and queue names too.
fn phrase_names<F: FnMut(Cat, &str)>(objects: bool, s: &str, h: u16, name: &mut F) {
    if h & (H_NAMES | H_OBJECTS | H_URL) == 0 {
        return;
    }
    let mut add = |cat: Cat, v: &str| add_value(cat, v, name);
    if h & H_URL != 0 {
        for c in URL.captures_iter(s) {
            if !site_url(&c) {
                continue;
            }
            if let Some(u) = c.get(2) {
                add(Cat::User, u.as_str());
            }
            if let Some(host) = c.get(4) {
                add(Cat::Host, host.as_str());
            }
        }
    }
    // Each phrase only where its head word is (`PHRASE_HINTS`).
    let names = PHRASES
        .iter()
        .zip(phrases::PHRASE_HEADS)
        .zip(PHRASE_HINTS.into_iter().zip(PHRASE_ALL))
        .filter(|(_, (need, all))| match all {
            true => h & need == *need,
            false => h & need != 0,
        })
        .map(|(p, _)| p);
    let objects = OBJECT_PHRASES
        .iter()
        .zip(phrases::OBJECT_HEADS)
        .filter(|_| objects && h & H_OBJECTS != 0);
    let ascii = s.is_ascii();
    for ((re, cat), head) in names.chain(objects) {
        if ascii {
            // The same matches as the regex's, by hand (`phrases`).
            phrases::each_match(s, head, |v| {
                let m = &s[v.a..v.b];
                if !(v.bare && BARE_STOP.contains(&m)) {
                    add(*cat, m);
                }
            });
            continue;
        }
        for c in re.captures_iter(s) {
            // Groups 1-4 are quoted or `(...)`/`=` forms; 5 is a
            // bare word, which must not be a word of the sentence
            // (`user ID is`, `queue manager NOT`).
            if let Some(m) = c.iter().skip(1).flatten().next()
                && !(c.get(5).is_some() && BARE_STOP.contains(&m.as_str()))
            {
                add(*cat, m.as_str());
            }
        }
    }
    if h & P_CONN != 0 {
        for c in CONNAME.captures_iter(s) {
            if let Some(m) = c.get(1).or(c.get(2)) {
                add(Cat::Host, m.as_str());
            }
        }
    }
    if h & H_CHLAUTH != 0 {
        for c in CHLAUTH.captures_iter(s) {
            let what = c[1].to_ascii_uppercase();
            if let Some(m) = c.get(2).or(c.get(3)) {
                let cat = match what.as_str() {
                    "CLNTUSER" | "MCAUSER" => Cat::User,
                    "QMNAME" => Cat::Qmgr,
                    _ => continue,
                };
                add(cat, m.as_str());
            }
        }
    }
}

impl Redactor {
    /// Learn a value of a category. Compound values (`name (1.2.3.4)(1414)`,
    /// `DOMAIN\user`) are cut into their word-like runs.
    pub fn add(&mut self, cat: Cat, value: &str) {
        add_value(cat, value, &mut |c, v| self.learn_name(c, v));
    }

    /// A name gets its token when first learnt: the numbering follows the
    /// learning order (the merged timeline, then the inputs by path), which
    /// every verb shares, and not the order in which rows are rendered.
    fn learn_name(&mut self, cat: Cat, v: &str) {
        self.learn_key(cat, &lower_cow(v));
    }

    /// `learn_name` of a name already lower-cased.
    fn learn_key(&mut self, cat: Cat, key: &str) {
        // Looked up before it is copied: most values met are known. The
        // hash serves the tables it goes to.
        let h = name_hash(key);
        if self.names.get_hashed(h, key).is_some() || self.over_budget() {
            return;
        }
        // `mvs1.example.com` is the host `mvs1`: one token for both, also
        // when `mvs1` was met first as another kind of name (a queue
        // manager named after its host); it is filed under that kind, so
        // a saved map's token always has its category's prefix.
        let short = fqdn_short(cat, key).and_then(|short| {
            let short_cat = *self.names.get(short)?;
            let t = self.tokens.get(short_cat, short)?;
            Some((short_cat, t.clone()))
        });
        let cat = short.as_ref().map_or(cat, |(c, _)| *c);
        self.name_bytes += key.len();
        self.names.get_or_insert_hashed(h, key, || cat);
        self.tokens.make(cat, h, key, short.map(|(_, t)| t));
    }

    /// A preparer of events for this redactor (`learn`): one per source.
    pub fn preparer(&self) -> Preparer {
        Preparer::new(self.objects)
    }

    /// Learn what an event holds: its attributes by name, its text by
    /// phrase, and a token for every value the scan replaces in it
    /// (`prepare` and `learn` in turn).
    pub fn observe(&mut self, e: &Event) {
        let mut l = std::mem::take(&mut self.scratch);
        self.prep.prepare(e, &mut l);
        self.learn(e, &l);
        self.scratch = l;
    }

    /// Learn what a `Preparer` found in `e`: events must come in the
    /// merged timeline's order (the tokens' numbering follows it).
    pub fn learn(&mut self, e: &Event, l: &Learnt) {
        if !self
            .last_origin
            .as_ref()
            .is_some_and(|o| Arc::ptr_eq(o, &e.origin))
        {
            self.learn_path(e.path());
            self.last_origin = Some(e.origin.clone());
        }
        self.replay(l);
    }

    /// Each of `l`'s names learnt and values given a token, in order.
    fn replay(&mut self, l: &Learnt) {
        for &op in &l.ops {
            match op {
                Op::Name(cat, a, b) => self.learn_key(cat, &l.buf[a..b]),
                Op::Token(cat, a, b) => self.token_for(cat, &l.buf[a..b]),
                Op::Host(a, b) => {
                    let (cat, key) = self.host_key(&l.buf[a..b]);
                    self.token_for(cat, &key);
                }
                Op::Whole(cat, a, b) => self.assign_whole(cat, &l.buf[a..b]),
            }
        }
    }

    /// Learn the queue manager a path names (`.../qmgrs/QM1/errors/...`).
    /// MQ writes a `.` in a queue manager's name as `!` in its directory
    /// (`qmgrs/QM!A` is `QM.A`); a `!` before `qmgrs` ends an archive's
    /// name (`case.zip!qmgrs/...`).
    pub fn learn_path(&mut self, path: &str) {
        let mut parts = path.split(['/', '\\']);
        while let Some(p) = parts.next() {
            let p = p.rsplit('!').next().unwrap_or(p);
            if p.eq_ignore_ascii_case("qmgrs")
                && let Some(q) = parts.next()
            {
                self.add(Cat::Qmgr, &unmangle(q));
            }
        }
    }

    /// Learn names stated in free text (`user id 'bob'`).
    pub fn learn_text(&mut self, s: &str) {
        let objects = self.objects;
        phrase_names(objects, s, hints(s), &mut |c, v| self.learn_name(c, v));
    }

    /// Hand out tokens for what `s` holds, in order. Only what patterns
    /// find: a known name got its token when it was learnt
    /// (`learn_name`), so the names among the words need no scan here.
    pub fn assign(&mut self, s: &str) {
        let mut l = std::mem::take(&mut self.scratch);
        l.clear();
        l.pattern_tokens(s, hints(s));
        self.replay(&l);
        self.scratch = l;
    }

    /// A token for (`cat`, `key`), a value a pattern found, when it has none.
    fn token_for(&mut self, cat: Cat, key: &str) {
        let h = name_hash(key);
        if self.tokens.map[cat.index()].get_hashed(h, key).is_some() {
            return;
        }
        if self.full() {
            self.over = Some(self.budget());
        } else {
            self.tokens.make(cat, h, key, None);
        }
    }

    fn assign_whole(&mut self, cat: Cat, v: &str) {
        if !v.is_empty() && !self.over_budget() {
            self.tokens.get_or_make(cat, v);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unhinted_marks_are_the_unhinted_patterns_tests() {
        // The three tests `pattern_hits` makes without hints, against one
        // pass, on generated values; and no value without the marks gives
        // a hit.
        let pieces = [
            "=", ":", "::", ".", "1", "10", "a", "CH", " ", "fe80", "é", "(", "'",
        ];
        let mut rng = crate::testrng::Rng::new(11);
        let (mut yes, mut no) = (0, 0);
        for _ in 0..20_000 {
            let s: String = (0..rng.below(16))
                .map(|_| pieces[rng.below(pieces.len())])
                .collect();
            let want = s.contains('=') || may_hold_v6(&s) || has_dotted_digits(&s);
            assert_eq!(unhinted_marks(&s), want, "{s:?}");
            if !want {
                assert!(pattern_hits(&s, 0).is_empty(), "{s:?}");
                no += 1;
            } else {
                yes += 1;
            }
        }
        assert!(yes > 1_000 && no > 1_000, "{yes} {no}");
    }
}
