//! A keyed hash for the redactor's tables of names, whose keys are text
//! from the input: as safe against crafted collisions as the std keyed
//! SipHash, at a fraction of its cost on short names (every word of every
//! redacted text is looked up, and every name learnt).
//!
//! As `crate::runhash`: each 64-bit word a key writes is multiplied by
//! its own random 128-bit multiplier drawn once per run, the products and
//! a random offset are summed modulo 2^128 and the high 64 bits, mixed
//! by a fixed bijection, are the hash (vector multiply-shift,
//! 2-independent). A string of up to
//! `SHORT` bytes writes its length and its bytes as words (zero-padded);
//! a longer one its length and its keyed SipHash. Two distinct strings
//! thus write distinct words (or collide in SipHash), whatever an input
//! chooses. Words past `WORDS` go through SipHash too.

use crate::runhash::{Keys, MulSum};
use std::hash::{BuildHasher, Hasher};
use std::sync::OnceLock;

/// Words hashed by multiplication: a length, three words of bytes and
/// the `0xff` std writes after a `str`.
const WORDS: usize = 6;
/// Bytes a string may have to be hashed by multiplication.
const SHORT: usize = 24;

/// The run's keys for names, drawn on first use (apart from `RunMap`'s).
fn keys() -> &'static Keys<{ WORDS + 1 }> {
    static KEYS: OnceLock<Keys<{ WORDS + 1 }>> = OnceLock::new();
    KEYS.get_or_init(Keys::draw)
}

/// The `BuildHasher` of `NameMap`: keyed per run.
#[derive(Debug, Default, Clone, Copy)]
pub(super) struct NameKeyed;

/// A name's hash, as `NameMap` keeps it.
pub(super) fn name_hash(key: &str) -> u64 {
    NameKeyed.hash_one(key)
}

/// A table keyed by names from the input, each entry kept with its hash
/// (`name_hash`): it grows without hashing its names again (the tables of
/// 200,000 addresses' names, hashed again at each doubling, held up the
/// merge thread for tens of milliseconds), and one hash serves every
/// table a name goes to (`Redactor::learn_key`).
pub(super) struct NameMap<V> {
    t: hashbrown::HashTable<(u64, Box<str>, V)>,
}

impl<V> Default for NameMap<V> {
    fn default() -> Self {
        NameMap {
            t: hashbrown::HashTable::new(),
        }
    }
}

impl<V> NameMap<V> {
    pub(super) fn get(&self, key: &str) -> Option<&V> {
        self.get_hashed(name_hash(key), key)
    }

    /// `get`, given `key`'s `name_hash`.
    pub(super) fn get_hashed(&self, h: u64, key: &str) -> Option<&V> {
        self.t.find(h, |e| *e.1 == *key).map(|e| &e.2)
    }

    pub(super) fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// `key`'s value set to `v`; its value before.
    pub(super) fn insert(&mut self, key: &str, v: V) -> Option<V> {
        let h = name_hash(key);
        match self.t.entry(h, |e| *e.1 == *key, |e| e.0) {
            hashbrown::hash_table::Entry::Occupied(mut o) => {
                Some(std::mem::replace(&mut o.get_mut().2, v))
            }
            hashbrown::hash_table::Entry::Vacant(e) => {
                e.insert((h, key.into(), v));
                None
            }
        }
    }

    /// `key`'s value (`name_hash` `h`), made by `v` when it has none;
    /// whether it was made.
    pub(super) fn get_or_insert_hashed(
        &mut self,
        h: u64,
        key: &str,
        v: impl FnOnce() -> V,
    ) -> (&V, bool) {
        match self.t.entry(h, |e| *e.1 == *key, |e| e.0) {
            hashbrown::hash_table::Entry::Occupied(o) => (&o.into_mut().2, false),
            hashbrown::hash_table::Entry::Vacant(e) => {
                (&e.insert((h, key.into(), v())).into_mut().2, true)
            }
        }
    }

    pub(super) fn len(&self) -> usize {
        self.t.len()
    }

    pub(super) fn is_empty(&self) -> bool {
        self.t.is_empty()
    }

    pub(super) fn iter(&self) -> impl Iterator<Item = (&str, &V)> {
        self.t.iter().map(|e| (&*e.1, &e.2))
    }
}

impl BuildHasher for NameKeyed {
    type Hasher = NameHasher;
    fn build_hasher(&self) -> NameHasher {
        NameHasher(MulSum::new(keys()))
    }
}

pub(super) struct NameHasher(MulSum<{ WORDS + 1 }>);

impl NameHasher {
    #[inline]
    fn word(&mut self, w: u64) {
        self.0.word(w);
    }
}

impl Hasher for NameHasher {
    /// The sum's high half, mixed by a bijection (`runhash::mix`): keys
    /// that differ in a few bytes (names numbered in sequence) could
    /// otherwise share their top seven bits, the tag hashbrown compares
    /// first, far more often than chance.
    fn finish(&self) -> u64 {
        self.0.finish()
    }
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        self.word(bytes.len() as u64);
        if bytes.len() > SHORT {
            let mut h = self.0.sip().build_hasher();
            h.write(bytes);
            self.word(h.finish());
            return;
        }
        // Whole words loaded as such, the rest byte by byte (no copy).
        let mut words = bytes.chunks_exact(8);
        for c in words.by_ref() {
            self.word(u64::from_le_bytes([
                c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7],
            ]));
        }
        let rest = words.remainder();
        if !rest.is_empty() {
            let w = rest
                .iter()
                .enumerate()
                .fold(0u64, |w, (i, &b)| w | u64::from(b) << (8 * i));
            self.word(w);
        }
    }
    fn write_u8(&mut self, v: u8) {
        self.word(u64::from(v));
    }
    fn write_u64(&mut self, v: u64) {
        self.word(v);
    }
    fn write_usize(&mut self, v: usize) {
        self.word(v as u64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn names_that_differ_little_hash_apart() {
        let h = NameKeyed;
        assert_eq!(
            h.hash_one("app1.example.com"),
            h.hash_one("app1.example.com")
        );
        // One byte apart, a trailing zero byte (padding), lengths on
        // either side of `SHORT`, and long names that differ at the end.
        let long = "x".repeat(SHORT);
        let keys = [
            String::new(),
            "\0".to_string(),
            "a".to_string(),
            "a\0".to_string(),
            "b".to_string(),
            "app0000001".to_string(),
            "app0000002".to_string(),
            "app0000001.example.com".to_string(),
            "app0000001.example.con".to_string(),
            long.clone(),
            format!("{long}x"),
            format!("{long}y"),
            format!("{long}{long}a"),
            format!("{long}{long}b"),
        ];
        let hashes: HashSet<u64> = keys.iter().map(|k| h.hash_one(k.as_str())).collect();
        assert_eq!(hashes.len(), keys.len());
        // A `String` key is found by its `&str`.
        let mut m: NameMap<u8> = NameMap::default();
        m.insert("QM1", 1);
        assert_eq!(m.get("QM1"), Some(&1));
    }

    #[test]
    fn sequential_names_spread_over_buckets() {
        // hashbrown takes a bucket from the low bits and a tag from the
        // top seven: both must vary over names that differ in one digit.
        let h = NameKeyed;
        let names: Vec<String> = (0..4096)
            .map(|i| format!("app{i:07}.example.com"))
            .collect();
        let low: HashSet<u64> = names
            .iter()
            .map(|n| h.hash_one(n.as_str()) & 4095)
            .collect();
        let top: HashSet<u64> = names.iter().map(|n| h.hash_one(n.as_str()) >> 57).collect();
        assert!(low.len() > 2_000, "{}", low.len());
        assert_eq!(top.len(), 128);
    }
}
