//! `--redact`: host names, IP addresses, user ids, queue-manager names,
//! distinguished-name values, CHLAUTH map values and secret environment
//! values replaced by stable tokens (`host-1`, `ip-3`, `user-2`,
//! `qmgr-1`, `dn-1`, `addr-1`, `secret-1`), the same token for the same
//! value throughout one output. With `--redact-names` whole channel and
//! queue names too (`chl-1`, `queue-1`).
//!
//! Two phases. Learning (`&mut self`): names come from events' attributes
//! (by attribute name) and from phrases in their text (`user id 'x'`,
//! `queue manager 'QM1'`, `host 'h (1.2.3.4)'`), and every value the
//! scanner replaces gets its token in event order, so tokens do not depend
//! on which worker thread renders a row. Applying (`&self`, shareable
//! across threads): the text is cut into word-like runs, each looked up in
//! a `HashMap` (cost per character, not per learnt name: 10,000 or a
//! million names scan at the same speed); addresses and the `KEY=value`
//! forms are found by pattern. A value first met while applying still gets
//! a token (under a lock).
//!
//! Nothing is silently dropped: when the learnt names pass the budget
//! (`MAX_NAMES` values or `MAX_BYTES` bytes) `check` fails and the verb
//! exits 2 instead of printing unredacted names.
//!
//! Here, at the top level importing only `event`, because the timeline's
//! row sink (below `report`) applies it too.

use crate::event::{Event, Origin};
use rustc_hash::FxBuildHasher;
use std::collections::HashMap;
use std::net::Ipv4Addr;
use std::sync::{Arc, Mutex};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Cat {
    Host,
    Ip,
    User,
    Qmgr,
    Dn,
    Addr,
    Secret,
    Channel,
    Queue,
}

const CATS: usize = 9;

impl Cat {
    fn prefix(self) -> &'static str {
        match self {
            Cat::Host => "host",
            Cat::Ip => "ip",
            Cat::User => "user",
            Cat::Qmgr => "qmgr",
            Cat::Dn => "dn",
            Cat::Addr => "addr",
            Cat::Secret => "secret",
            Cat::Channel => "chl",
            Cat::Queue => "queue",
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

const ALL_CATS: [Cat; CATS] = [
    Cat::Host,
    Cat::Ip,
    Cat::User,
    Cat::Qmgr,
    Cat::Dn,
    Cat::Addr,
    Cat::Secret,
    Cat::Channel,
    Cat::Queue,
];

/// Learnt names and tokens kept at most (a few hundred MB at worst).
pub(crate) const MAX_NAMES: usize = 1_000_000;
/// Bytes of learnt names kept at most.
pub(crate) const MAX_BYTES: usize = 128 << 20;

mod learn;
mod map;
mod memo;
mod namehash;
mod patterns;
mod phrases;
pub use learn::{Learnt, Preparer};
pub use map::MapError;
pub use memo::{Memo, Remembered};
use namehash::{NameMap, name_hash};
use patterns::*;

/// Tokens handed out, by category: a value is looked up by `&str`, with
/// no key built for it (every replacement of every row is looked up).
#[derive(Default)]
struct Tokens {
    map: [NameMap<String>; CATS],
    /// Values in `map`, all categories.
    len: usize,
    next: [u32; CATS],
}

impl Tokens {
    fn get(&self, cat: Cat, key: &str) -> Option<&String> {
        self.map[cat.index()].get(key)
    }

    /// The token of (`cat`, `key`), made when there is none.
    fn get_or_make(&mut self, cat: Cat, key: &str) -> &String {
        self.make(cat, name_hash(key), key, None)
    }

    /// The token of (`cat`, `key`) (`name_hash` `h`), made when there is
    /// none: the next one unless `token` is given.
    fn make(&mut self, cat: Cat, h: u64, key: &str, token: Option<String>) -> &String {
        let Tokens { map, len, next } = self;
        let (t, made) = map[cat.index()]
            .get_or_insert_hashed(h, key, || token.unwrap_or_else(|| next_token(next, cat)));
        *len += usize::from(made);
        t
    }

    /// Sets (`cat`, `key`)'s token (a saved map's entry).
    fn set(&mut self, cat: Cat, key: &str, token: String) {
        if self.map[cat.index()].insert(key, token).is_none() {
            self.len += 1;
        }
    }

    /// Every (category, value, token).
    fn iter(&self) -> impl Iterator<Item = (Cat, &str, &String)> {
        ALL_CATS
            .iter()
            .flat_map(|&c| self.map[c.index()].iter().map(move |(v, t)| (c, v, t)))
    }
}

/// The next token of a category.
fn next_token(next: &mut [u32; CATS], cat: Cat) -> String {
    let n = &mut next[cat.index()];
    *n += 1;
    // Without the formatting machinery: one per value learnt.
    let mut buf = itoa::Buffer::new();
    let digits = buf.format(*n);
    let mut t = String::with_capacity(cat.prefix().len() + 1 + digits.len());
    t.push_str(cat.prefix());
    t.push('-');
    t.push_str(digits);
    t
}

/// The redactor's budget was passed while learning (`Redactor::check`):
/// output could then leak names the redactor had no room to learn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OverBudget {
    max_names: usize,
    max_bytes: usize,
}

impl std::fmt::Display for OverBudget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "--redact: more than {} distinct names or {} MB of them to replace; \
             refusing to write output that could leak names",
            self.max_names,
            self.max_bytes >> 20
        )
    }
}

impl std::error::Error for OverBudget {}

#[derive(Default)]
pub struct Redactor {
    /// Learnt names, lower-cased, with their category.
    names: NameMap<Cat>,
    name_bytes: usize,
    /// Tokens handed out while learning.
    tokens: Tokens,
    /// Tokens handed out while applying (values not met while learning).
    late: Mutex<Tokens>,
    /// Whether whole channel and queue names are redacted.
    objects: bool,
    /// The last event's file (its path is learnt once, not per event).
    last_origin: Option<Arc<Origin>>,
    /// `observe`'s preparer of events (a merge has one per source).
    prep: Preparer,
    /// A buffer for what `observe` and `assign` find.
    scratch: Learnt,
    /// The budget that was passed, if one was.
    over: Option<OverBudget>,
    max_names: usize,
}

/// Attribute names memoised at most (a reader that makes up names cannot
/// grow the memo without bound; past it, values are learnt every time).
const MAX_MEMO: usize = 4096;

/// A replacement found in a text: bytes `a..b` become the token of
/// (`cat`, `key`).
struct Hit {
    a: usize,
    b: usize,
    cat: Cat,
    key: String,
    /// A URL's host as written (`patterns::pattern_hits`): its category
    /// and key are the redactor's `host_key` of `key`.
    url: bool,
}

/// Characters of a word-like run: names (host names, user ids, queue
/// manager, channel and queue names) are made of these.
fn run_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '$' | '#' | '%')
}

/// `run_char` of an ASCII byte.
fn run_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b'$' | b'#' | b'%')
}

/// Whether a dotted name ends like a file's (`SYSA.yyddd.txt` is a file
/// of the system `SYSA`, not one of its domain names): the file keeps its
/// own name beside the token, so two files never print as one.
fn file_name(rest: &str) -> bool {
    const EXT: &[&str] = &[
        "txt", "log", "json", "jsonl", "ndjson", "csv", "fmt", "trc", "trs", "fdc", "out", "gz",
        "zip", "tar", "tgz", "xml", "ini", "dat", "html", "md", "lst",
    ];
    rest.rsplit('.')
        .next()
        .is_some_and(|ext| EXT.iter().any(|e| ext.eq_ignore_ascii_case(e)))
}

/// Whether an attribute's name says its value is a secret (no allocation:
/// asked for every attribute of every row written).
fn secret_name(k: &str) -> bool {
    let b = k.as_bytes();
    let has = |w: &[u8]| b.windows(w.len()).any(|x| x.eq_ignore_ascii_case(w));
    has(b"password")
        || has(b"passwd")
        || has(b"passphrase")
        || b.eq_ignore_ascii_case(b"pwd")
        || has(b"secret")
        || has(b"token")
        || (b.len() >= 3 && b[b.len() - 3..].eq_ignore_ascii_case(b"key"))
}

/// The category of an attribute's value, by the attribute's name.
fn attr_cat(key: &str, objects: bool) -> Option<Cat> {
    if secret_name(key) {
        return Some(Cat::Secret);
    }
    let k = key.to_ascii_lowercase();
    let has = |s: &str| k.contains(s);
    if has("host")
        || has("conname")
        || has("connection_name")
        || k.ends_with("address")
        || k.ends_with("_addr")
    {
        return Some(Cat::Host);
    }
    if has("user") || k == "operator_id" || k == "principal" {
        return Some(Cat::User);
    }
    if has("qmgr") || has("qmname") || has("queue_manager") || has("queuemanager") {
        return Some(Cat::Qmgr);
    }
    if objects {
        if has("channel") && !has("type") && !has("status") && !has("count") {
            return Some(Cat::Channel);
        }
        if k == "queue"
            || has("xmitq")
            || has("qname")
            || has("queue_name")
            || k.ends_with("_queue")
        {
            return Some(Cat::Queue);
        }
    }
    None
}

fn lower(s: &str) -> String {
    lower_cow(s).into_owned()
}

/// `lower` without a copy when `s` is already lower case.
fn lower_cow(s: &str) -> std::borrow::Cow<'_, str> {
    if s.bytes().any(|b| b.is_ascii_uppercase()) || !s.is_ascii() {
        std::borrow::Cow::Owned(s.to_lowercase())
    } else {
        std::borrow::Cow::Borrowed(s)
    }
}

/// An MQ level (`VRMF(9.3.0.15)`, `Version : 9.0.0.0`) rather than an
/// address: it follows such a word directly and has the V.R.M.F shape
/// (three one-digit parts). A dotted quad anywhere else is an address.
fn is_mq_level(s: &str, a: usize, quad: &str) -> bool {
    let mut parts = quad.split('.');
    let mut n = 0;
    for (i, p) in parts.by_ref().take(4).enumerate() {
        if (i < 3 && p.len() != 1) || (i == 0 && p == "0") {
            return false;
        }
        n += 1;
    }
    if n != 4 || parts.next().is_some() {
        return false;
    }
    // `VRMF(9.3.0.15)`, `Version: 9.4.0.0`, an FDC's `LVLS :- 9.3.0.15`
    // and aligned columns (`Version:      9.4.0.0`).
    let head = s[..a].trim_end_matches([' ', '\t', ':', '-', '=', '(', '\'', '"', '[']);
    let gap = s[..a].len() - head.len();
    if gap > 40 {
        return false;
    }
    // The word's last seven characters, compared without a copy.
    let from = head.char_indices().rev().nth(6).map_or(0, |(i, _)| i);
    let tail = &head.as_bytes()[from..];
    ["version", "level", "vrmf", "lvls"].iter().any(|w| {
        tail.len() >= w.len() && tail[tail.len() - w.len()..].eq_ignore_ascii_case(w.as_bytes())
    })
}

/// The short name of a host's domain name (`mvs1` of `mvs1.example.com`;
/// keys are lower case), for it to share the short name's token.
fn fqdn_short(cat: Cat, key: &str) -> Option<&str> {
    if cat != Cat::Host {
        return None;
    }
    let (first, rest) = key.split_once('.')?;
    (!first.is_empty() && rest.bytes().any(|b| b.is_ascii_alphabetic())).then_some(first)
}

/// An attribute holding an MQ level (`vrmf=9.4.0.0`): digits and dots only.
fn level_attr(k: &str, v: &str) -> bool {
    let k = k.as_bytes();
    let ends = |w: &[u8]| k.len() >= w.len() && k[k.len() - w.len()..].eq_ignore_ascii_case(w);
    (ends(b"vrmf") || ends(b"version") || ends(b"level"))
        && v.bytes().all(|b| b.is_ascii_digit() || b == b'.')
}

/// Whether a URL names the site's own host: any scheme with a user
/// (`https://u:p@h`), and the messaging ones without (`amqp://h`); a
/// plain web address (IBM's documentation in advice) is public.
fn site_url(c: &regex::Captures) -> bool {
    let scheme = c.get(1).map_or("", |m| m.as_str());
    c.get(2).is_some()
        || !(scheme.eq_ignore_ascii_case("http") || scheme.eq_ignore_ascii_case("https"))
}

/// A queue manager's name from its directory's (`QM!A` is `QM.A`; `&`
/// stands for `/`).
fn unmangle(dir: &str) -> String {
    dir.replace('!', ".").replace('&', "/")
}

/// Four `.`-separated octets, each as `u8`'s `parse` reads one (an
/// optional `+`, digits, leading zeros allowed, at most 255), by hand: it
/// is asked of every dotted quad and host value learnt.
fn parse_v4(s: &str) -> Option<Ipv4Addr> {
    let mut o = [0u8; 4];
    let mut n = 0;
    for p in s.as_bytes().split(|&b| b == b'.') {
        if n == 4 {
            return None;
        }
        let digits = p.strip_prefix(b"+").unwrap_or(p);
        if digits.is_empty() {
            return None;
        }
        let mut v: u32 = 0;
        for &d in digits {
            if !d.is_ascii_digit() {
                return None;
            }
            v = v * 10 + u32::from(d - b'0');
            if v > 255 {
                return None;
            }
        }
        o[n] = v as u8;
        n += 1;
    }
    (n == 4).then(|| Ipv4Addr::from(o))
}

/// An IPv4 address as `Ipv4Addr`'s `Display` writes it (`10.0.0.1`),
/// without the formatting machinery (one per address of every row).
fn v4_key(ip: Ipv4Addr) -> String {
    let mut k = String::with_capacity(15);
    for (i, o) in ip.octets().into_iter().enumerate() {
        if i > 0 {
            k.push('.');
        }
        if o >= 100 {
            k.push(char::from(b'0' + o / 100));
        }
        if o >= 10 {
            k.push(char::from(b'0' + o / 10 % 10));
        }
        k.push(char::from(b'0' + o % 10));
    }
    k
}

impl Redactor {
    pub fn new() -> Redactor {
        Redactor::with_budget(MAX_NAMES)
    }

    /// With at most `max_names` learnt names and tokens (tests use a small one).
    pub(crate) fn with_budget(max_names: usize) -> Redactor {
        Redactor {
            max_names,
            ..Redactor::default()
        }
    }

    /// Also redact whole channel and queue names (`--redact-names`).
    pub fn with_object_names(mut self, on: bool) -> Redactor {
        self.objects = on;
        self.prep = Preparer::new(on);
        self
    }

    /// Fails when a budget was passed: the caller must not print output.
    pub fn check(&self) -> Result<(), OverBudget> {
        match &self.over {
            Some(over) => Err(over.clone()),
            None => Ok(()),
        }
    }

    fn over_budget(&mut self) -> bool {
        if self.full() {
            self.over = Some(self.budget());
        }
        self.over.is_some()
    }

    /// Whether one more value would pass the budget (or one was passed).
    fn full(&self) -> bool {
        // A learnt name has its token: a value counts once.
        self.over.is_some()
            || self.names.len().max(self.tokens.len) >= self.max_names
            || self.name_bytes >= MAX_BYTES
    }

    fn budget(&self) -> OverBudget {
        OverBudget {
            max_names: self.max_names,
            max_bytes: MAX_BYTES,
        }
    }

    fn token(&self, cat: Cat, key: &str) -> String {
        if let Some(t) = self.tokens.get(cat, key) {
            return t.clone();
        }
        let mut late = self.late.lock().unwrap_or_else(|p| p.into_inner());
        if late.len == 0 {
            late.next = self.tokens.next;
        }
        late.get_or_make(cat, key).clone()
    }

    /// `patterns::pattern_hits` with each URL's host as learnt (`host_key`).
    fn pattern_hits(&self, s: &str, h: u16) -> Vec<Hit> {
        let mut hits = pattern_hits(s, h);
        for hit in hits.iter_mut().filter(|h| h.url) {
            (hit.cat, hit.key) = self.host_key(&hit.key);
        }
        hits
    }

    /// Every replacement in `s`, in order, not overlapping.
    fn hits(&self, s: &str) -> Vec<Hit> {
        let mut hits = self.pattern_hits(s, hints(s));
        // Names: the word-like runs outside what patterns found.
        if !self.names.is_empty() {
            let mut names: Vec<Hit> = Vec::new();
            let mut from = 0;
            for h in hits.iter().map(|h| (h.a, h.b)).chain([(s.len(), s.len())]) {
                self.name_hits(s, from, h.0, &mut names);
                from = from.max(h.1);
            }
            hits.extend(names);
            hits.sort_by_key(|h| h.a);
        }
        hits
    }

    /// Known names among the runs of `s[from..to]`.
    fn name_hits(&self, s: &str, from: usize, to: usize, out: &mut Vec<Hit>) {
        if from >= to {
            return;
        }
        let seg = &s[from..to];
        let mut start: Option<usize> = None;
        let mut bang = false;
        let mut buf = String::new();
        // `!` joins a run too: a queue manager's directory (`QM!A`).
        for (i, c) in seg.char_indices().chain([(seg.len(), ' ')]) {
            if i < seg.len() && run_char(c) {
                start.get_or_insert(i);
                continue;
            }
            if i < seg.len() && c == '!' {
                start.get_or_insert(i);
                bang = true;
                continue;
            }
            let Some(st) = start.take() else {
                continue;
            };
            let raw = &seg[st..i];
            if std::mem::take(&mut bang) {
                let t = raw.trim_matches(['.', '-', '!']);
                let key = lower(&unmangle(t));
                if !t.is_empty()
                    && let Some(&cat) = self.names.get(key.as_str())
                {
                    let a = from + st + (raw.len() - raw.trim_start_matches(['.', '-', '!']).len());
                    out.push(Hit {
                        url: false,
                        a,
                        b: a + t.len(),
                        cat,
                        key,
                    });
                    continue;
                }
                // Not a directory name: `case.zip!var`, `Error!`.
                let mut at = from + st;
                for piece in raw.split('!') {
                    self.word_hit(piece, at, &mut buf, out);
                    at += piece.len() + 1;
                }
            } else {
                self.word_hit(raw, from + st, &mut buf, out);
            }
        }
    }

    /// A known name in the run `raw`, at byte `at` of the text (inlined:
    /// it runs for every word of every redacted text).
    #[inline(always)]
    fn word_hit(&self, raw: &str, at: usize, buf: &mut String, out: &mut Vec<Hit>) {
        // A run ending a sentence (`host.`) or a flag (`-host`).
        let word = raw.trim_matches(|c| c == '.' || c == '-');
        if word.is_empty() {
            return;
        }
        // Names hold a letter (see `add`): numbers are not looked up.
        if !word.chars().any(char::is_alphabetic) {
            return;
        }
        let a = at + (raw.len() - raw.trim_start_matches(['.', '-']).len());
        buf.clear();
        buf.push_str(word);
        // ASCII is lower-cased in place (no copy per word).
        if !buf.is_ascii() {
            *buf = buf.to_lowercase();
        } else {
            buf.make_ascii_lowercase();
        }
        if let Some(&cat) = self.names.get(buf.as_str()) {
            out.push(Hit {
                url: false,
                a,
                b: a + word.len(),
                cat,
                key: buf.clone(),
            });
        } else if word.is_ascii()
            && let Some((skip, len, cat)) = self.zos_hit(buf)
        {
            out.push(Hit {
                url: false,
                a: a + skip,
                b: a + skip + len,
                cat,
                key: buf[skip..skip + len].to_string(),
            });
        } else if let Some(fq) = self.fqdn(word) {
            out.push(Hit {
                url: false,
                a,
                b: a + word.len(),
                cat: Cat::Host,
                key: fq,
            });
        } else if word.contains(['.', '_', '-']) {
            self.part_hits(word, a, out);
        }
    }

    /// A z/OS form of a known name in the (lowercased) word: a command
    /// prefix before a subsystem name (`%MQ1A`, `+CSQ9`, `#QM1`) and the
    /// address spaces named after it (`MQ1ACHIN`, `MQ1AMSTR`): where the
    /// name starts in the word, its length and category.
    #[inline(always)]
    fn zos_hit(&self, w: &str) -> Option<(usize, usize, Cat)> {
        let b = w.as_bytes();
        if b.len() > 1
            && matches!(b[0], b'%' | b'$' | b'#' | b'@' | b'+' | b'?')
            && let Some(&cat) = self.names.get(&w[1..])
        {
            return Some((1, w.len() - 1, cat));
        }
        for suffix in ["chin", "mstr"] {
            if let Some(name) = w.strip_suffix(suffix)
                && !name.is_empty()
                && let Some(&cat) = self.names.get(name)
            {
                return Some((0, name.len(), cat));
            }
        }
        None
    }

    /// The key and category a name found by pattern is replaced with: its
    /// learnt ones when learnt, else a host's.
    fn host_key(&self, word: &str) -> (Cat, String) {
        let key = lower(word);
        if let Some(&cat) = self.names.get(key.as_str()) {
            return (cat, key);
        }
        match self.fqdn(word) {
            Some(fq) => (Cat::Host, fq),
            None => (Cat::Host, key),
        }
    }

    /// `dynamo.example.com` where `dynamo` is a known host: the whole
    /// domain name is that host (its key, so its token, is `dynamo`'s).
    /// Dotted names in capitals (`QM2.TO.QM3`, a channel) are not domain
    /// names (their parts are looked up one by one).
    #[inline(always)]
    fn fqdn(&self, word: &str) -> Option<String> {
        let (first, rest) = word.split_once('.')?;
        if rest.bytes().any(|b| b.is_ascii_uppercase())
            || !rest.bytes().any(|b| b.is_ascii_lowercase())
            || file_name(rest)
        {
            return None;
        }
        let first = lower_cow(first);
        (self.names.get(first.as_ref()) == Some(&Cat::Host)).then(|| first.into_owned())
    }

    /// Known names among the parts of an object name (`GW1.TO.MQPR`,
    /// `MQPR_XMITQ`): a queue manager or host named inside a channel or
    /// queue name is replaced there too.
    fn part_hits(&self, s: &str, a: usize, out: &mut Vec<Hit>) {
        let mut at = a;
        for part in s.split(['.', '_', '-']) {
            if part.len() >= 2 && part.chars().any(char::is_alphabetic) {
                let key = lower_cow(part);
                if let Some(&cat) = self.names.get(key.as_ref()) {
                    out.push(Hit {
                        url: false,
                        a: at,
                        b: at + part.len(),
                        cat,
                        key: key.into_owned(),
                    });
                } else if part.is_ascii()
                    && let Some((skip, len, cat)) = self.zos_hit(&key)
                {
                    // `MQ1ACHIN.JESMSGLG.txt`: a job's file.
                    out.push(Hit {
                        url: false,
                        a: at + skip,
                        b: at + skip + len,
                        cat,
                        key: key[skip..skip + len].to_string(),
                    });
                }
            }
            at += part.len() + 1;
        }
    }

    /// `s` with every known name, address and secret replaced.
    pub fn apply(&self, s: &str) -> String {
        let hits = self.hits(s);
        if hits.is_empty() {
            return s.to_string();
        }
        let mut out = String::with_capacity(s.len());
        let mut last = 0;
        for h in hits {
            if h.a < last {
                continue;
            }
            out.push_str(&s[last..h.a]);
            out.push_str(&self.token(h.cat, &h.key));
            last = h.b;
        }
        out.push_str(&s[last..]);
        out
    }

    /// An attribute's value: whole when its name says it is a secret, kept
    /// when it is an MQ level (`vrmf`), which has an address's shape.
    pub(crate) fn apply_attr(&self, key: &str, v: &str) -> String {
        if level_attr(key, v) {
            v.to_string()
        } else if !v.is_empty() && secret_name(key) {
            self.token(Cat::Secret, v)
        } else {
            self.apply(v)
        }
    }

    /// Redact an event's text and attributes in place (its path is the
    /// caller's: it is shared by the file's events; trace idents and
    /// function names are MQ's own, not the site's).
    pub fn event(&self, e: &mut Event) {
        e.text = self.apply(&e.text);
        e.attrs.map_values(|k, v| self.apply_attr(k, v));
    }
}

#[cfg(test)]
mod tests;

/// The `redact` fuzz target: in ASCII text the hand phrase matcher finds
/// what the regexes find (panics naming the first that does not), and
/// learning then redacting the text does not panic. Not part of the
/// library's contract.
#[doc(hidden)]
pub fn fuzz_text(s: &str) {
    if s.is_ascii() {
        phrases::agree(s);
    }
    let mut r = Redactor::new().with_object_names(s.len().is_multiple_of(2));
    r.learn_text(s);
    r.apply(s);
}
