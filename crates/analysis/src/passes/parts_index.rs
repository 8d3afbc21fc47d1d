//! Rows found by a list of string parts (a message, a queue manager, a
//! channel, a remote end) without building a key from them: a hash of
//! the parts, and the rows of one hash chained. A pass that counts every
//! channel record looks its row up once per record, and writing the
//! parts into a key string (then hashing it) was most of that look-up.

use rustc_hash::{FxHashMap, FxHasher};
use std::hash::Hasher;

/// The end of a chain.
const END: u32 = u32::MAX;

/// Where each list of parts is: the caller keeps the rows, and tells a
/// row's parts apart from others of the same hash (`find`'s `is`).
#[derive(Default)]
pub(crate) struct PartsIndex {
    /// A hash to its latest entry.
    heads: FxHashMap<u64, u32>,
    /// Each entry: the caller's row, and the entry of the same hash
    /// before it.
    entries: Vec<(usize, u32)>,
}

/// The parts' hash; each part's length is hashed too, so that parts
/// cut elsewhere (`AB`,`C` and `A`,`BC`) hash apart.
pub(crate) fn hash(parts: &[&str]) -> u64 {
    let mut h = FxHasher::default();
    for p in parts {
        h.write_usize(p.len());
        h.write(p.as_bytes());
    }
    h.finish()
}

impl PartsIndex {
    /// The row of the parts of hash `h` that `is` says are its parts.
    pub(crate) fn find(&self, h: u64, is: impl Fn(usize) -> bool) -> Option<usize> {
        let mut at = *self.heads.get(&h)?;
        while at != END {
            let (row, next) = self.entries[at as usize];
            if is(row) {
                return Some(row);
            }
            at = next;
        }
        None
    }

    /// Add `row`, whose parts hash to `h` (not there yet).
    pub(crate) fn insert(&mut self, h: u64, row: usize) {
        let at = u32::try_from(self.entries.len()).expect("fewer than 4 G rows");
        let next = self.heads.insert(h, at).unwrap_or(END);
        self.entries.push((row, next));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_of_one_hash_are_told_apart() {
        let keys: Vec<[&str; 2]> = vec![["A", "B"], ["AB", ""], ["A", "C"], ["", "AB"]];
        let mut ix = PartsIndex::default();
        // Every row under one hash: the chain alone tells them apart.
        for i in 0..keys.len() {
            ix.insert(7, i);
        }
        for (i, k) in keys.iter().enumerate() {
            assert_eq!(ix.find(7, |r| keys[r] == *k), Some(i));
        }
        assert_eq!(ix.find(7, |r| keys[r] == ["B", "A"]), None);
        assert_eq!(ix.find(8, |_| true), None);
        assert_ne!(hash(&["A", "B"]), hash(&["AB", ""]));
        assert_ne!(hash(&["AB", ""]), hash(&["", "AB"]));
    }
}
