//! Records MQ writes together for one failure, joined into one story.
//!
//! When a channel fails MQ writes several records at once from the same
//! process and thread: the error that says why (AMQ9209 connection closed,
//! AMQ9519 channel not found, AMQ9631 CipherSpec mismatch ...), then the
//! generic AMQ9999 "channel ended abnormally" and often AMQ9780 "channel to
//! remote machine is ending". Counting each record would report one failure
//! three times under three ids; a story counts it once, under its most
//! specific record (the cause), and keeps the others as evidence.
//!
//! Records join the open story of their file, process and thread when they
//! are written within `JOIN_WINDOW_MS` of its last record, do not name a
//! different channel or remote end, and do not repeat a message already in
//! it (a repeat is the next failure).

use mqdiag_model::event::Key;
use mqdiag_model::event::{Event, Ts};
use mqdiag_model::findings::{EventRef, Evidence};
use mqdiag_model::problem::Severity;
use mqdiag_readers::catalog::{Family, Reported, is_ip, split_host};
use rustc_hash::FxBuildHasher;
use std::collections::hash_map::RandomState;
use std::collections::{HashMap, HashSet, VecDeque};
use std::hash::{BuildHasher, Hasher};
use std::sync::Arc;

/// Records of one failure are written in the same instant; a second is
/// generous for a slow disk and still far below the gap between failures.
const JOIN_WINDOW_MS: i64 = 1000;
/// Open stories kept before the ones that can no longer grow are closed.
const MAX_OPEN: usize = 1_000;
/// Copies of a record (rotated logs that overlap, a log collected twice)
/// have its time, so on the merged timeline they come together: keys are
/// remembered for this many seconds of record time behind the newest
/// record, which keeps the set small (in cache) and memory flat however
/// long the logs are.
const SEEN_WINDOW_S: i64 = 60;
/// Keys remembered at most (a minute of an extraordinarily busy log).
const MAX_SEEN: usize = 500_000;

/// How specific a message is about why a channel failed (its catalogue
/// role's): the generic "channel ended" records are the least, so any
/// other record of the same story is its cause.
pub(crate) fn specificity(id: &str) -> u8 {
    mqdiag_readers::catalog::role(id).specificity()
}

/// One error-log record of a story, with what the rules need of it. Its
/// texts live in one string (a story member is made for every channel
/// record of a log: eight strings each made allocation the larger part of
/// joining stories).
#[derive(Debug, Clone)]
pub(crate) struct Member {
    /// The parts (`Part`) one after the other; `ends[i]` is where part
    /// `i` ends.
    buf: String,
    ends: [u32; PARTS],
    pub(crate) family: Family,
    /// The catalogue's words, when a rule reports this message.
    pub(crate) known: Option<Reported>,
    /// For other messages: the record's severity (its words are a part).
    own_severity: Option<Severity>,
    pub(crate) ts: Ts,
    /// The record without its text (a part): made into `Evidence` only
    /// for the records a row keeps.
    head: EventRef,
}

/// The parts of a member's `buf`, in order.
#[derive(Clone, Copy)]
enum Part {
    /// The id as written (`AMQ9209E`, `AMQ9209`).
    Msgid,
    /// Without the severity letter.
    Id,
    Qmgr,
    Channel,
    /// The remote end's name (not an address), and its address.
    Name,
    Address,
    Reason,
    /// The record's text.
    Text,
    /// For messages the catalogue does not report: the record's own words.
    Words,
}
const PARTS: usize = 9;

fn clean(v: Option<&str>) -> &str {
    match v.map(str::trim) {
        Some(s) if s.is_empty() || s.bytes().all(|b| b == b'?') => "",
        Some(s) => s,
        None => "",
    }
}

impl Member {
    /// The record as a story member: `None` unless it is a channel or TLS
    /// record (by the catalogue, else by the family the reader gave it).
    pub(crate) fn of(e: &Event, known: Option<Reported>) -> Option<Member> {
        let msgid = e.get(Key::Msgid)?.trim();
        let (family, words, own_severity) = match known {
            Some(m) => (m.family, "", None),
            None => {
                let fam = match e.get(Key::Family) {
                    Some("channel") => Family::Channel,
                    Some("tls") => Family::Tls,
                    _ => return None,
                };
                let severity = match e.get(Key::Severity) {
                    Some("I") => return None,
                    Some("W") => Severity::Warning,
                    _ => Severity::Error,
                };
                let text = e.text.split_once(": ").map_or(e.text.as_str(), |(_, t)| t);
                (fam, text.trim().trim_end_matches('.'), Some(severity))
            }
        };
        if !matches!(family, Family::Channel | Family::Tls) {
            return None;
        }
        let id = match known {
            Some(m) => m.id,
            None => mqdiag_readers::catalog::base_id(msgid),
        };
        // The reader splits `name (ip)(port)`; a value still written whole
        // (older readers, CONNAME) is split here.
        let mut name = clean(e.get(Key::Host).or_else(|| e.get(Key::Conname)));
        let mut address = clean(e.get(Key::Address));
        if name.contains('(')
            && let Some(h) = split_host(name)
        {
            if address.is_empty() {
                address = h.address.unwrap_or_default();
            }
            name = h.host;
        }
        if is_ip(name) {
            if address.is_empty() {
                address = name;
            }
            name = "";
        }
        let parts: [&str; PARTS] = [
            msgid,
            id,
            clean(e.get(Key::Qmgr)),
            clean(e.get(Key::Channel)),
            name,
            address,
            clean(e.get(Key::Reason)),
            &e.text,
            words,
        ];
        let mut buf = String::with_capacity(parts.iter().map(|p| p.len()).sum());
        let mut ends = [0u32; PARTS];
        for (end, p) in ends.iter_mut().zip(parts) {
            buf.push_str(p);
            // Past 4 GB of text a member's parts would not be found again;
            // no reader makes records that long.
            *end = u32::try_from(buf.len()).unwrap_or(u32::MAX);
        }
        Some(Member {
            buf,
            ends,
            family,
            known,
            own_severity,
            ts: e.ts,
            head: EventRef::of_without_text(e),
        })
    }

    fn part(&self, p: Part) -> &str {
        let i = p as usize;
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        self.buf
            .get(start..self.ends[i] as usize)
            .unwrap_or_default()
    }

    /// The id as written (`AMQ9209E`, `AMQ9209`).
    pub(crate) fn msgid(&self) -> &str {
        self.part(Part::Msgid)
    }
    /// Without the severity letter.
    pub(crate) fn id(&self) -> &str {
        self.part(Part::Id)
    }
    pub(crate) fn qmgr(&self) -> &str {
        self.part(Part::Qmgr)
    }
    pub(crate) fn channel(&self) -> &str {
        self.part(Part::Channel)
    }
    /// The remote end's name (not an address).
    pub(crate) fn name(&self) -> &str {
        self.part(Part::Name)
    }
    pub(crate) fn address(&self) -> &str {
        self.part(Part::Address)
    }
    pub(crate) fn reason(&self) -> &str {
        self.part(Part::Reason)
    }

    /// For messages no rule reports: the record's own words and severity.
    pub(crate) fn fallback(&self) -> Option<(&str, Severity)> {
        self.own_severity.map(|s| (self.part(Part::Words), s))
    }

    /// The line the record starts on.
    pub(crate) fn line(&self) -> u64 {
        self.head.line()
    }

    /// The record quoted.
    pub(crate) fn evidence(&self) -> Evidence {
        self.head.evidence_with(self.part(Part::Text))
    }

    /// Make `r` a reference to this record (reusing its text buffer).
    pub(crate) fn refer(&self, r: &mut Option<EventRef>) {
        match r {
            Some(r) => r.assign_from(&self.head, self.part(Part::Text)),
            None => *r = Some(self.head.with_text(self.part(Part::Text))),
        }
    }

    /// The finding severity of this message.
    pub(crate) fn severity(&self) -> Severity {
        match (&self.known, self.own_severity) {
            (Some(m), _) => m.severity,
            (None, Some(s)) => s,
            (None, None) => Severity::Error,
        }
    }
}

/// The records of one failure.
#[derive(Debug, Clone)]
pub(crate) struct Story {
    pub(crate) members: Vec<Member>,
}

impl Story {
    /// The most specific record; the first of equals.
    pub(crate) fn cause(&self) -> &Member {
        let mut best = &self.members[0];
        for m in &self.members[1..] {
            if specificity(m.id()) > specificity(best.id()) {
                best = m;
            }
        }
        best
    }

    /// The first non-empty value of a field, the cause's first.
    fn pick(&self, f: impl for<'m> Fn(&'m Member) -> &'m str) -> &str {
        let c = f(self.cause());
        if !c.is_empty() {
            return c;
        }
        self.members
            .iter()
            .map(f)
            .find(|v| !v.is_empty())
            .unwrap_or("")
    }

    pub(crate) fn channel(&self) -> &str {
        self.pick(Member::channel)
    }
    pub(crate) fn qmgr(&self) -> &str {
        self.pick(Member::qmgr)
    }
    pub(crate) fn name(&self) -> &str {
        self.pick(Member::name)
    }
    pub(crate) fn address(&self) -> &str {
        self.pick(Member::address)
    }
    pub(crate) fn reason(&self) -> &str {
        self.pick(Member::reason)
    }

    fn last(&self) -> Ts {
        self.members
            .iter()
            .map(|m| m.ts)
            .max()
            .unwrap_or(self.members[0].ts)
    }

    /// Whether `m` is written for the same failure.
    fn takes(&self, m: &Member) -> bool {
        if (m.ts - self.last()).num_milliseconds().abs() > JOIN_WINDOW_MS {
            return false;
        }
        if self.members.iter().any(|o| o.id() == m.id()) {
            return false;
        }
        let ch = self.channel();
        if !ch.is_empty() && !m.channel().is_empty() && ch != m.channel() {
            return false;
        }
        // Ends conflict only when both are known and share no name or
        // address (`centos6 (192.168.253.160)` and `192.168.253.160` agree).
        let mine = [m.name(), m.address()];
        if mine.iter().all(|s| s.is_empty()) {
            return true;
        }
        let mut ends = self
            .members
            .iter()
            .flat_map(|o| [o.name(), o.address()])
            .filter(|s| !s.is_empty())
            .peekable();
        ends.peek().is_none() || ends.any(|s| mine.contains(&s))
    }
}

/// Where records of one story are written: the file, process and thread.
type Writer = (Arc<str>, Option<u32>, Option<u32>);

/// Joins records into stories as they arrive; closed stories are taken
/// with `take_closed`, the rest with `finish`.
#[derive(Default)]
pub(crate) struct Joiner {
    open: HashMap<Writer, Story, FxBuildHasher>,
    closed: Vec<Story>,
    seen: HashSet<u64, FxBuildHasher>,
    /// The keys `seen`'s record hashes are made with, drawn per run: a
    /// record crafted to hash like another cannot be built without them.
    seen_keys: RandomState,
    /// The keys of `seen` in the order they came, with their record time
    /// (seconds), the oldest forgotten first.
    seen_order: VecDeque<(i64, u64)>,
    /// The newest record time seen (seconds).
    newest: Option<i64>,
}

/// What makes a record a copy of another (time, process, thread, message
/// and text), hashed by `h`.
fn record_key(mut h: impl Hasher, e: &Event) -> u64 {
    h.write_i64(e.ts.timestamp());
    h.write_u32(e.ts.timestamp_subsec_nanos());
    h.write_u64(e.pid.map_or(u64::MAX, u64::from));
    h.write_u64(e.tid.map_or(u64::MAX, u64::from));
    h.write(e.get(Key::Msgid).unwrap_or("").as_bytes());
    h.write_u8(0);
    h.write(e.text.as_bytes());
    h.finish()
}

impl Joiner {
    /// Whether this record was seen before: the same time, process,
    /// thread, message and text in another file of a rotated set or a copy.
    /// Remembers it either way, for `SEEN_WINDOW_S` seconds of record time.
    pub(crate) fn seen_before(&mut self, e: &Event) -> bool {
        // A hit drops the record, so the hash stands for the record: SipHash
        // with keys drawn per run, not Fx (unkeyed: a record whose Fx hash
        // equals another's is built in no time and hid that other).
        let key = record_key(self.seen_keys.build_hasher(), e);
        if self.seen.contains(&key) {
            return true;
        }
        let t = e.ts.timestamp();
        let newest = *self.newest.insert(self.newest.map_or(t, |n| n.max(t)));
        let horizon = newest.saturating_sub(SEEN_WINDOW_S);
        while let Some(&(at, old)) = self.seen_order.front() {
            if at >= horizon && self.seen.len() < MAX_SEEN {
                break;
            }
            self.seen_order.pop_front();
            self.seen.remove(&old);
        }
        self.seen.insert(key);
        self.seen_order.push_back((t, key));
        false
    }

    /// Add a record written by `e`'s file, process and thread.
    pub(crate) fn push(&mut self, e: &Event, m: Member) {
        let w: Writer = (e.origin.path.clone(), e.pid, e.tid);
        if self.open.len() >= MAX_OPEN && !self.open.contains_key(&w) {
            self.close_before(m.ts);
            if self.open.len() >= MAX_OPEN {
                // Every one could still be joined (thousands of logs
                // writing at once): the least recent are closed, a quarter
                // at a time, or every new writer would scan them all.
                let mut open = std::mem::take(&mut self.open);
                let closed = &mut self.closed;
                mqdiag_model::budget::trim_oldest(
                    &mut open,
                    MAX_OPEN - 1,
                    |s| (s.last().timestamp_nanos_opt().unwrap_or(i64::MIN) as u64) ^ (1 << 63),
                    |_, s| closed.push(s),
                );
                self.open = open;
            }
        }
        match self.open.get_mut(&w) {
            Some(s) if s.takes(&m) => s.members.push(m),
            Some(s) => {
                let old = std::mem::replace(s, Story { members: vec![m] });
                self.closed.push(old);
            }
            None => {
                self.open.insert(w, Story { members: vec![m] });
            }
        }
    }

    /// Close the stories that a record at `now` can no longer join.
    fn close_before(&mut self, now: Ts) {
        let closed = &mut self.closed;
        self.open.retain(|_, s| {
            let keep = (now - s.last()).num_milliseconds() <= JOIN_WINDOW_MS;
            if !keep {
                // Moved out, not copied: the story leaves the map.
                closed.push(Story {
                    members: std::mem::take(&mut s.members),
                });
            }
            keep
        });
    }

    #[cfg(test)]
    pub(crate) fn take_closed(&mut self) -> std::vec::Drain<'_, Story> {
        self.closed.drain(..)
    }

    /// The stories closed so far, swapped into `out` (empty; its buffer
    /// is kept for the next ones): no list is made per record.
    pub(crate) fn swap_closed(&mut self, out: &mut Vec<Story>) {
        debug_assert!(out.is_empty());
        std::mem::swap(&mut self.closed, out);
    }

    /// Every story still open, in a stable order (by writer).
    pub(crate) fn finish(&mut self) -> Vec<Story> {
        let mut open: Vec<(Writer, Story)> = std::mem::take(&mut self.open).into_iter().collect();
        open.sort_by(|a, b| a.0.cmp(&b.0));
        let mut out: Vec<Story> = self.closed.drain(..).collect();
        out.extend(open.into_iter().map(|(_, s)| s));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::passes::testutil::log;
    use mqdiag_readers::catalog::reported;

    fn rec(line: u64, at: &str, pid: u32, id: &str, attrs: &[(&'static str, &str)]) -> Event {
        let mut all = vec![("msgid", id)];
        all.extend_from_slice(attrs);
        // The text names what the attributes say, as MQ's does.
        let said: Vec<&str> = attrs.iter().map(|(_, v)| *v).collect();
        let text = format!("{id}: {}", said.join(" "));
        let mut e = log("qmgrs/QM1/errors/AMQERR01.LOG", line, at, &text, &all);
        e.pid = Some(pid);
        e.tid = Some(1);
        e
    }

    fn stories(events: &[Event]) -> Vec<Story> {
        let mut j = Joiner::default();
        let mut out = Vec::new();
        for e in events {
            if j.seen_before(e) {
                continue;
            }
            if let Some(m) = Member::of(e, reported(e.get(Key::Msgid).unwrap())) {
                j.push(e, m);
            }
            out.extend(j.take_closed());
        }
        out.extend(j.finish());
        out
    }

    /// Thousands of logs writing at the same instant: the stories kept
    /// open stay within `MAX_OPEN` (each new writer scanned them all,
    /// and they grew with the logs: 50,000 logs took 81 s).
    #[test]
    fn many_writers_at_once_keep_a_bounded_number_of_stories_open() {
        let t = "2024-03-01T10:00:00+00:00";
        let mut j = Joiner::default();
        let mut closed = 0;
        for pid in 0..5 * MAX_OPEN as u32 {
            let e = rec(1, t, pid, "AMQ9999", &[("channel", "QA.CHL")]);
            let m = Member::of(&e, reported("AMQ9999")).expect("a member");
            j.push(&e, m);
            closed += j.take_closed().count();
            assert!(j.open.len() <= MAX_OPEN, "{} open", j.open.len());
        }
        // Nothing is lost: every record is in one story.
        assert_eq!(closed + j.finish().len(), 5 * MAX_OPEN);
    }

    /// Closed stories handed over by swapping buffers are the ones
    /// `take_closed` gives, and the joiner keeps none of them.
    #[test]
    fn closed_stories_are_swapped_out_whole() {
        let t = "2024-03-01T10:00:00+00:00";
        let (mut a, mut b) = (Joiner::default(), Joiner::default());
        let mut buf: Vec<Story> = Vec::new();
        let (mut taken, mut swapped) = (Vec::new(), Vec::new());
        for i in 0..50u32 {
            // The same writer, a new failure each time (a repeated id).
            let e = rec(u64::from(i), t, 7, "AMQ9209", &[("channel", "QA.CHL")]);
            for j in [&mut a, &mut b] {
                j.push(&e, Member::of(&e, reported("AMQ9209")).expect("a member"));
            }
            taken.extend(a.take_closed().map(|s| s.members[0].line()));
            b.swap_closed(&mut buf);
            swapped.extend(buf.drain(..).map(|s| s.members[0].line()));
            assert!(b.closed.is_empty());
        }
        assert_eq!(taken.len(), 49);
        assert_eq!(taken, swapped);
    }

    #[test]
    fn records_of_one_failure_are_one_story_under_the_cause() {
        let t = "2024-03-01T10:00:00+00:00";
        let ev = vec![
            rec(1, t, 7, "AMQ9519", &[("channel", "QA.CHL")]),
            rec(
                2,
                t,
                7,
                "AMQ9999",
                &[
                    ("channel", "QA.CHL"),
                    ("host", "centos6"),
                    ("address", "192.168.253.160"),
                ],
            ),
            rec(
                3,
                "2024-03-01T10:00:01+00:00",
                7,
                "AMQ9780",
                &[("family", "channel"), ("host", "192.168.253.160")],
            ),
            // Another process at the same time: its own story.
            rec(4, t, 8, "AMQ9999", &[("channel", "OTHER")]),
            // The same process a minute later: the next failure.
            rec(
                5,
                "2024-03-01T10:01:00+00:00",
                7,
                "AMQ9519",
                &[("channel", "QB.CHL")],
            ),
        ];
        let s = stories(&ev);
        assert_eq!(s.len(), 3, "{s:#?}");
        let first = s.iter().find(|s| s.members.len() == 3).unwrap();
        assert_eq!(first.cause().id(), "AMQ9519");
        assert_eq!(first.channel(), "QA.CHL");
        assert_eq!(first.name(), "centos6");
        assert_eq!(first.address(), "192.168.253.160");
    }

    #[test]
    fn different_channels_or_ends_and_repeats_are_apart() {
        let t = "2024-03-01T10:00:00+00:00";
        let ev = vec![
            rec(1, t, 7, "AMQ9209", &[("channel", "A"), ("host", "h1")]),
            rec(2, t, 7, "AMQ9999", &[("channel", "B"), ("host", "h1")]),
            rec(3, t, 7, "AMQ9999", &[("channel", "B"), ("host", "h2")]),
            rec(4, t, 7, "AMQ9209", &[("channel", "C")]),
            rec(5, t, 7, "AMQ9209", &[("channel", "C")]),
        ];
        // Identical records (5 repeats 4 exactly) count once.
        assert_eq!(stories(&ev).len(), 4);
        assert_eq!(specificity("AMQ9999"), 1);
        assert!(specificity("AMQ9209") > specificity("CSQX599"));
    }

    /// Copies are dropped however far into a long log they come, and the
    /// keys kept stay few.
    #[test]
    fn copies_are_dropped_with_few_keys_kept() {
        let mut j = Joiner::default();
        let at = |s: i64| {
            chrono::DateTime::from_timestamp(1_700_000_000 + s, 0)
                .unwrap()
                .fixed_offset()
                .to_rfc3339()
        };
        for i in 0..5000i64 {
            // One record a second, each written twice (two copies of a log).
            let e = rec(
                i as u64,
                &at(i),
                7,
                "AMQ9209",
                &[("channel", &format!("C{i}"))],
            );
            assert!(!j.seen_before(&e), "{i}");
            assert!(j.seen_before(&e), "{i}");
        }
        assert!(
            j.seen.len() <= SEEN_WINDOW_S as usize + 1,
            "{}",
            j.seen.len()
        );
        assert_eq!(j.seen.len(), j.seen_order.len());
        // A copy within the window, even after newer records, is dropped.
        let e = rec(1, &at(4990), 7, "AMQ9209", &[("channel", "C4990")]);
        assert!(j.seen_before(&e));
    }

    /// The record hash the joiner took as identity before: Fx, unkeyed.
    fn fx_key(e: &Event) -> u64 {
        record_key(rustc_hash::FxHasher::default(), e)
    }

    /// Two texts of one Fx hash: Fx mixes each 16 bytes as
    /// `(s0 ^ x) * (c ^ y)`, with `s0` the mix of two chunks back; a third
    /// chunk whose `x` is that mix zeroes the product whatever its `y`.
    fn fx_twins() -> (String, String) {
        let mix = |x: u64, y: u64| {
            let full = u128::from(x) * u128::from(y);
            full as u64 ^ (full >> 64) as u64
        };
        // The first chunk is searched for a mix that is ASCII (valid text).
        let (first, t1) = (0u64..)
            .map(|i| {
                let c = format!("{i:016}");
                let x = u64::from_le_bytes(c.as_bytes()[..8].try_into().unwrap());
                let y = u64::from_le_bytes(c.as_bytes()[8..].try_into().unwrap());
                (c, mix(0x243f_6a88_85a3_08d3 ^ x, 0xa409_3822_299f_31d0 ^ y))
            })
            .find(|(_, t)| t.to_le_bytes().iter().all(u8::is_ascii))
            .unwrap();
        let x3 = String::from_utf8(t1.to_le_bytes().to_vec()).unwrap();
        let text = |y3: &str| format!("{first}second chunk....{x3}{y3}and the same tail text");
        (text("AAAAAAAA"), text("BBBBBBBB"))
    }

    #[test]
    fn a_record_hashing_like_another_is_not_taken_for_its_copy() {
        let (a, b) = fx_twins();
        let at = "2024-03-01T10:00:00+00:00";
        let one = log(
            "qmgrs/QM1/errors/AMQERR01.LOG",
            1,
            at,
            &a,
            &[("msgid", "AMQ9999")],
        );
        let two = log(
            "qmgrs/QM1/errors/AMQERR01.LOG",
            2,
            at,
            &b,
            &[("msgid", "AMQ9999")],
        );
        assert_ne!(one.text, two.text);
        // The old identity could not tell them apart: the second vanished.
        assert_eq!(fx_key(&one), fx_key(&two), "the crafted Fx collision");
        let mut j = Joiner::default();
        assert!(!j.seen_before(&one));
        assert!(!j.seen_before(&two), "a different record is no copy");
        assert!(
            j.seen_before(&two) && j.seen_before(&one),
            "copies still are"
        );
        // Another run's keys hash the record otherwise.
        let k = |j: &Joiner| {
            let mut h = j.seen_keys.build_hasher();
            h.write(one.text.as_bytes());
            h.finish()
        };
        assert_ne!(k(&j), k(&Joiner::default()));
    }

    #[test]
    fn names_with_addresses_are_split_and_addresses_kept_apart() {
        let e = rec(
            1,
            "2024-03-01T10:00:00+00:00",
            7,
            "AMQ9209",
            &[("host", "qm2 (10.0.0.2)(1414)")],
        );
        let m = Member::of(&e, reported("AMQ9209")).unwrap();
        assert_eq!((m.name(), m.address()), ("qm2", "10.0.0.2"));
        let e = rec(
            1,
            "2024-03-01T10:00:00+00:00",
            7,
            "AMQ9209",
            &[("host", "10.0.0.3"), ("channel", "????")],
        );
        let m = Member::of(&e, reported("AMQ9209")).unwrap();
        assert_eq!((m.name(), m.address()), ("", "10.0.0.3"));
        assert_eq!(m.channel(), "");
        // Not a channel or TLS record.
        let e = rec(1, "2024-03-01T10:00:00+00:00", 7, "AMQ9788", &[]);
        assert!(Member::of(&e, reported("AMQ9788")).is_none());
    }
}
