//! Redaction that remembers what it gave: a row sink's attributes (`Memo`)
//! and the texts many findings repeat (`Remembered`). Once learnt, a
//! redactor gives a value the same replacement every time, so a value
//! met again needs no scan.

use super::{MAX_MEMO, Redactor};
use crate::event::Event;
use rustc_hash::FxBuildHasher;
use std::collections::HashMap;

impl Redactor {
    /// `event`, with the values a row sink redacted before: a value met
    /// again under the same attribute name (most of a record's) is not
    /// scanned again. Once learnt, the redactor gives a value the same
    /// replacement every time.
    pub fn event_with(&self, e: &mut Event, memo: &mut Memo) {
        e.text = self.apply(&e.text);
        e.attrs.map_values(|k, v| match memo.last.get_mut(k) {
            Some((i, o)) if i == v => o.clone(),
            Some((i, o)) => {
                i.clear();
                i.push_str(v);
                *o = self.apply_attr(k, v);
                o.clone()
            }
            None => {
                let o = self.apply_attr(k, v);
                if memo.last.len() < MAX_MEMO {
                    memo.last.insert(k.to_string(), (v.to_string(), o.clone()));
                }
                o
            }
        });
    }
}

/// `Redactor::apply` with what it gave kept, up to `REMEMBERED_BYTES`:
/// the texts many findings repeat (a rule's advice, a file's path in
/// their evidence, a program) are scanned once.
pub struct Remembered<'a> {
    r: &'a Redactor,
    seen: HashMap<String, String>,
    bytes: usize,
}

const REMEMBERED_BYTES: usize = 16 << 20;

impl<'a> Remembered<'a> {
    pub fn new(r: &'a Redactor) -> Self {
        Remembered {
            r,
            seen: HashMap::new(),
            bytes: 0,
        }
    }

    pub fn apply(&mut self, s: &str) -> String {
        if let Some(o) = self.seen.get(s) {
            return o.clone();
        }
        let o = self.r.apply(s);
        if self.bytes + s.len() + o.len() <= REMEMBERED_BYTES {
            self.bytes += s.len() + o.len();
            self.seen.insert(s.to_string(), o.clone());
        }
        o
    }
}

/// A row sink's memory of redacted values (`Redactor::event_with`): each
/// attribute name's last value and its replacement.
#[derive(Default)]
pub struct Memo {
    last: HashMap<String, (String, String), FxBuildHasher>,
}
