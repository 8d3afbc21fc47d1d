//! The catalogue's answer for one message, remembered: logs repeat the
//! same message with the same text and inserts (a channel that keeps
//! failing, a listener's start), and looking it up and pulling its values
//! out again was a sixth of reading a job log or a container console.
//!
//! A layer in front of `extract`: what it answers is exactly what
//! `normalise_cow` and `extract` answer for the same message, owned. The
//! cache is small and bounded (a fixed number of slots, each keeping only
//! short messages), one per reader, so memory stays flat whatever the input.

use super::{Extracted, extract, normalise_cow};
use mqdiag_model::event::{AttrName, Attrs, CatalogRow, Event, Key};
use std::hash::Hasher;

/// An attribute name `extract` gives, by its key when it has one.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Name {
    Key(Key),
    Other(&'static str),
}

/// What `extract` makes of one message, owned. The values live in one
/// string, and a slot's buffers are reused by the next message it takes:
/// a message not seen before costs a copy, not an allocation per value.
#[derive(Debug, Default)]
pub(crate) struct Resolved {
    pub(crate) msgid: String,
    pub(crate) severity: Option<char>,
    pub(crate) family: Option<&'static str>,
    /// The message's catalogue row (`Extracted::row`).
    pub(crate) row: CatalogRow,
    /// `Extracted::attrs`' names in order, each with the end of its
    /// value in `values`.
    names: Vec<(Name, u32)>,
    values: String,
}

impl Resolved {
    fn fill(&mut self, x: Extracted<'_>) {
        self.msgid.clear();
        self.msgid.push_str(&x.msgid);
        self.severity = x.severity;
        self.family = x.family;
        self.row = x.row;
        self.names.clear();
        self.values.clear();
        for (k, v) in &x.attrs {
            let name = Key::from_name(k).map_or(Name::Other(k), Name::Key);
            self.values.push_str(v);
            self.names.push((name, self.values.len() as u32));
        }
    }

    /// The attributes (not msgid, severity or family) in order.
    pub(crate) fn attrs(&self) -> impl Iterator<Item = (Name, &str)> {
        let mut start = 0;
        self.names.iter().map(move |&(k, end)| {
            let v = &self.values[start..end as usize];
            start = end as usize;
            (k, v)
        })
    }

    /// The message's catalogue row, msgid, severity, family and
    /// attributes set on `e`, in that order (what every log reader does
    /// with the answer).
    pub(crate) fn apply(&self, e: &mut Event) {
        e.catalog = self.row;
        e.set(Key::Msgid, &self.msgid);
        if let Some(s) = self.severity {
            e.set(Key::Severity, s.encode_utf8(&mut [0; 4]));
        }
        if let Some(f) = self.family {
            e.set(Key::Family, f);
        }
        self.push_attrs(&mut e.attrs);
    }

    /// Adds the attributes (not msgid, severity or family) in order.
    pub(crate) fn push_attrs(&self, to: &mut Attrs) {
        for (k, v) in self.attrs() {
            match k {
                Name::Key(k) => to.push_key(k, v),
                Name::Other(n) => to.push(AttrName::Borrowed(n), v),
            }
        }
    }
}

impl PartialEq for Resolved {
    fn eq(&self, o: &Resolved) -> bool {
        self.msgid == o.msgid
            && self.severity == o.severity
            && self.family == o.family
            && self.row == o.row
            && self.attrs().eq(o.attrs())
    }
}

/// Slots in the cache (a power of two): a message takes the slot its hash
/// names, replacing what was there.
const SLOTS: usize = 4096;
/// Messages longer than this (id, text and inserts) are looked up each
/// time: a slot then holds at most a few kilobytes.
const LONGEST: usize = 512;

/// One remembered message: its id, text and inserts written one after
/// the other (each followed by a NUL, which no MQ text holds where it
/// matters: the compare also checks every length).
#[derive(Default)]
struct Slot {
    hash: u64,
    key: String,
    /// Lengths of the pieces of `key`.
    lens: Vec<u32>,
    resolved: Resolved,
}

/// The pieces of a message's key, in order.
fn pieces<'a>(
    id: &'a str,
    text: &'a str,
    inserts: &'a [(&str, &str)],
) -> impl Iterator<Item = &'a str> {
    [id, text]
        .into_iter()
        .chain(inserts.iter().flat_map(|(k, v)| [*k, *v]))
}

impl Slot {
    fn is(&self, hash: u64, id: &str, text: &str, inserts: &[(&str, &str)]) -> bool {
        if self.hash != hash || self.lens.len() != 2 + 2 * inserts.len() {
            return false;
        }
        let mut at = 0;
        for (p, &n) in pieces(id, text, inserts).zip(&self.lens) {
            if p.len() != n as usize
                || self.key.as_bytes().get(at..at + p.len()) != Some(p.as_bytes())
            {
                return false;
            }
            at += p.len();
        }
        true
    }

    fn take(&mut self, hash: u64, id: &str, text: &str, inserts: &[(&str, &str)]) {
        self.hash = hash;
        self.key.clear();
        self.lens.clear();
        for p in pieces(id, text, inserts) {
            self.key.push_str(p);
            self.lens.push(p.len() as u32);
        }
        let norm = normalise_cow(text);
        self.resolved.fill(extract(id, &norm, inserts));
    }
}

/// Look-ups per round: after each, the memo checks that it pays.
const ROUND: u32 = 4096;
/// A round with fewer hits than this turns the memo off for `OFF` rounds:
/// when nearly every message differs (an address in each), keeping them
/// costs more than it saves.
const WORTH: u32 = ROUND / 4;
const OFF: u32 = 8;

/// The remembered answers of one reader.
#[derive(Default)]
pub(crate) struct Memo {
    slots: Vec<Slot>,
    /// The answer for a message too long to keep, or not kept.
    scratch: Resolved,
    /// Look-ups and hits this round.
    asked: u32,
    hits: u32,
    /// Rounds left with the memo off.
    off: u32,
}

impl Memo {
    /// What `extract(id, &normalise_cow(text), inserts)` answers.
    pub(crate) fn extract(&mut self, id: &str, text: &str, inserts: &[(&str, &str)]) -> &Resolved {
        self.asked += 1;
        if self.asked == ROUND {
            if self.off > 0 {
                self.off -= 1;
            } else if self.hits < WORTH {
                self.off = OFF;
            }
            self.asked = 0;
            self.hits = 0;
        }
        let size = id.len()
            + text.len()
            + inserts
                .iter()
                .map(|(k, v)| k.len() + v.len())
                .sum::<usize>();
        if size > LONGEST || self.off > 0 {
            let norm = normalise_cow(text);
            self.scratch.fill(extract(id, &norm, inserts));
            return &self.scratch;
        }
        let mut h = rustc_hash::FxHasher::default();
        for p in pieces(id, text, inserts) {
            h.write(p.as_bytes());
            h.write_u8(0xff);
        }
        let hash = h.finish();
        if self.slots.is_empty() {
            self.slots.resize_with(SLOTS, Slot::default);
        }
        // The high bits: FxHasher's low bits mix least.
        let slot = &mut self.slots[(hash >> 52) as usize & (SLOTS - 1)];
        if slot.is(hash, id, text, inserts) {
            self.hits += 1;
        } else {
            slot.take(hash, id, text, inserts);
        }
        &slot.resolved
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn direct(id: &str, text: &str, inserts: &[(&str, &str)]) -> Resolved {
        let mut r = Resolved::default();
        r.fill(extract(id, &normalise_cow(text), inserts));
        r
    }

    /// The memo answers what a fresh look-up answers, for repeated,
    /// colliding, long and differently-inserted messages.
    #[test]
    fn answers_what_extract_answers() {
        let mut memo = Memo::default();
        let long = format!(
            "AMQ9209E: Connection to host 'h (10.1.1.1)' for channel '{}' closed.",
            "C".repeat(LONGEST)
        );
        type Case<'a> = (&'a str, String, Vec<(&'a str, &'a str)>);
        let cases: Vec<Case> = vec![
            ("AMQ9209E", "Connection to host 'app (10.1.0.125)' for channel 'APP.SVRCONN' closed.".into(), vec![]),
            ("AMQ9209E", "Connection to host 'app (10.1.0.125)' for channel 'APP.SVRCONN' closed.".into(), vec![("CommentInsert3", "OTHER.SVRCONN")]),
            ("AMQ9209", "Connection to host 'app (10.1.0.125)' for channel 'APP.SVRCONN' closed.".into(), vec![]),
            ("AMQ9999E", "Channel 'APP1.SVRCONN' to host '10.1.2.96' ended abnormally.".into(), vec![("CommentInsert1", "APP1.SVRCONN"), ("CommentInsert3", "10.1.2.96")]),
            ("AMQ9999E", "Channel 'APP1.SVRCONN'  to host\n'10.1.2.96' ended abnormally.".into(), vec![]),
            ("CSQX209E", "CSQXRESP Connection unexpectedly terminated, channel APP4.SVRCONN connection 10.1.1.10 (10.1.1.10) TRPTYPE=TCP RC=00000468".into(), vec![]),
            ("AMQ9788W", "Slow DNS lookup for address '10.1.1.1' using function 'getnameinfo' took 12 seconds.".into(), vec![]),
            ("AMQ9209E", long.clone(), vec![]),
            ("XYZ1234", String::new(), vec![]),
        ];
        for round in 0..3 {
            for (id, text, inserts) in &cases {
                let want = direct(id, text, inserts);
                assert_eq!(
                    memo.extract(id, text, inserts),
                    &want,
                    "round {round}: {id} {text}"
                );
            }
        }
        // Many messages share the slots: each still gets its own answer.
        for round in 0..2 {
            for n in 0..3 * SLOTS {
                let text = format!(
                    "Channel 'C{n}' to host '10.1.{}.{}' ended abnormally.",
                    n / 256,
                    n % 256
                );
                let want = direct("AMQ9999E", &text, &[]);
                assert_eq!(
                    memo.extract("AMQ9999E", &text, &[]),
                    &want,
                    "round {round}: {n}"
                );
            }
        }
    }
}
