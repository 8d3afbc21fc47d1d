//! A keyed hash for tables whose keys are numbers from the input (pids,
//! thread ids, indexes): as safe against crafted collisions as the std
//! keyed SipHash, at a fraction of its cost per key.
//!
//! Each 64-bit word a key writes is multiplied by its own random 128-bit
//! multiplier drawn once per run, the products and a random offset are
//! summed modulo 2^128 and the high 64 bits are the hash: the vector
//! multiply-shift family (Dietzfelbinger; Thorup, "High Speed Hashing for
//! Integers and Strings", 2015), 2-independent, so two distinct keys
//! collide with probability about 2^-64 whatever an input chooses, as long
//! as the multipliers are not known (they never leave the process). Bytes
//! (a string in a key) are first reduced to one word by the std keyed
//! SipHash of the run, and a key of more than `WORDS` words hashes its
//! tail the same way, so every key shape keeps the guarantee.

use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher, RandomState};
use std::sync::OnceLock;

/// Words a key hashes by multiplication; the rest go through SipHash.
const WORDS: usize = 4;

/// A multiply-shift hash's keys: `N` odd 128-bit multipliers, an offset
/// and the SipHash keys for what is not hashed by multiplication.
pub(crate) struct Keys<const N: usize> {
    pub(crate) mul: [u128; N],
    pub(crate) add: u128,
    pub(crate) sip: RandomState,
}

impl<const N: usize> Keys<N> {
    /// Drawn from the std random source.
    pub(crate) fn draw() -> Self {
        let sip = RandomState::new();
        let word =
            |i: u64| u128::from(sip.hash_one(2 * i)) << 64 | u128::from(sip.hash_one(2 * i + 1));
        let mut mul = [0u128; N];
        for (i, m) in mul.iter_mut().enumerate() {
            *m = word(i as u64) | 1;
        }
        Keys {
            mul,
            add: word(N as u64),
            sip,
        }
    }
}

/// The run's keys, drawn on first use.
fn keys() -> &'static Keys<{ WORDS + 1 }> {
    static KEYS: OnceLock<Keys<{ WORDS + 1 }>> = OnceLock::new();
    KEYS.get_or_init(Keys::draw)
}

/// The `BuildHasher` of `RunMap`: keyed per run.
#[derive(Debug, Default, Clone, Copy)]
pub struct RunKeyed;

/// A map keyed by numbers from the input.
pub type RunMap<K, V> = HashMap<K, V, RunKeyed>;

impl BuildHasher for RunKeyed {
    type Hasher = RunHasher;
    fn build_hasher(&self) -> RunHasher {
        RunHasher(MulSum::new(keys()))
    }
}

/// A bijection of 64-bit words, applied to the high half: two keys
/// collide exactly when their high halves do, but keys in sequence (pids
/// counting up) step the high half by one constant, whose top seven bits
/// (the tag hashbrown compares first) then took only a few values in about
/// one run of five.
#[inline]
pub(crate) fn mix(mut h: u64) -> u64 {
    h ^= h >> 32;
    h = h.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    h ^ (h >> 29)
}

/// A vector multiply-shift sum over the words a key writes: the first
/// `N - 1` by multiplication, the rest through the run's SipHash, whose
/// result takes the last multiplier (`RunHasher`, and the redactor's
/// `NameHasher` with its own keys).
pub(crate) struct MulSum<const N: usize> {
    k: &'static Keys<N>,
    sum: u128,
    words: usize,
    tail: Option<std::hash::DefaultHasher>,
}

impl<const N: usize> MulSum<N> {
    pub(crate) fn new(k: &'static Keys<N>) -> Self {
        MulSum {
            k,
            sum: k.add,
            words: 0,
            tail: None,
        }
    }

    /// The run's SipHash keys, for byte strings.
    pub(crate) fn sip(&self) -> &RandomState {
        &self.k.sip
    }

    #[inline]
    pub(crate) fn word(&mut self, w: u64) {
        if self.words < N - 1 {
            let m = self.k.mul[self.words];
            self.sum = self.sum.wrapping_add(m.wrapping_mul(u128::from(w)));
            self.words += 1;
        } else {
            self.tail
                .get_or_insert_with(|| self.k.sip.build_hasher())
                .write_u64(w);
        }
    }

    pub(crate) fn finish(&self) -> u64 {
        let mut sum = self.sum;
        if let Some(t) = &self.tail {
            sum = sum.wrapping_add(self.k.mul[N - 1].wrapping_mul(u128::from(t.finish())));
        }
        mix((sum >> 64) as u64)
    }
}

/// The hasher `RunKeyed` builds.
pub struct RunHasher(MulSum<{ WORDS + 1 }>);

impl RunHasher {
    fn word(&mut self, w: u64) {
        self.0.word(w);
    }
}

impl Hasher for RunHasher {
    fn finish(&self) -> u64 {
        self.0.finish()
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut h = self.0.sip().build_hasher();
        h.write(bytes);
        self.word(h.finish());
    }
    fn write_u8(&mut self, v: u8) {
        self.word(u64::from(v));
    }
    fn write_u16(&mut self, v: u16) {
        self.word(u64::from(v));
    }
    fn write_u32(&mut self, v: u32) {
        self.word(u64::from(v));
    }
    fn write_u64(&mut self, v: u64) {
        self.word(v);
    }
    fn write_u128(&mut self, v: u128) {
        self.word(v as u64);
        self.word((v >> 64) as u64);
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
    fn equal_keys_hash_alike_and_near_keys_apart() {
        let h = RunKeyed;
        assert_eq!(
            h.hash_one((7u32, 1u32, 2u32)),
            h.hash_one((7u32, 1u32, 2u32))
        );
        // Keys a weak hash would confuse: swapped fields, zero fields,
        // near numbers, strings that differ in one byte, keys longer than
        // `WORDS` that differ past it. (Keys of one map have one shape:
        // keys of different lengths are told apart by the length std
        // writes, not by the words.)
        let hashes: HashSet<u64> = [
            h.hash_one((1u32, 2u32, 3u32)),
            h.hash_one((2u32, 1u32, 3u32)),
            h.hash_one((1u32, 3u32, 2u32)),
            h.hash_one((0u32, 0u32, 0u32)),
            h.hash_one((0u32, 0u32, 1u32)),
            h.hash_one(1u64 << 32 | 2),
            h.hash_one(2u64 << 32 | 1),
            h.hash_one("QM1.CH"),
            h.hash_one("QM1.CI"),
            h.hash_one([1u64, 2, 3, 4, 5, 6]),
            h.hash_one([1u64, 2, 3, 4, 6, 5]),
        ]
        .into_iter()
        .collect();
        assert_eq!(hashes.len(), 11);
    }

    #[test]
    fn a_run_has_one_set_of_random_keys() {
        // Drawn once: every table of the run hashes alike.
        assert_eq!(RunKeyed.hash_one(1u64), RunKeyed.hash_one(1u64));
        // Random, not constants: the multipliers differ from each other
        // and from the offset, and zero does not hash to zero.
        let k = keys();
        let all: HashSet<u128> = k.mul.iter().copied().chain([k.add]).collect();
        assert_eq!(all.len(), WORDS + 2);
        assert!(k.mul.iter().all(|m| m & 1 == 1 && m >> 64 != 0));
        assert_eq!(RunKeyed.hash_one(0u64), mix((k.add >> 64) as u64));
    }

    #[test]
    fn sequential_pids_spread_over_buckets() {
        // hashbrown takes a bucket from the low bits and a tag from the
        // top seven: both must vary over keys that differ in one field.
        let h = RunKeyed;
        let low: HashSet<u64> = (0..4096u32).map(|p| h.hash_one((p, 1u32)) & 4095).collect();
        let top: HashSet<u64> = (0..4096u32).map(|p| h.hash_one((p, 1u32)) >> 57).collect();
        assert!(low.len() > 2_000, "{}", low.len());
        assert_eq!(top.len(), 128);
    }

    #[test]
    fn keys_in_sequence_spread_their_tags_whatever_the_multiplier() {
        // The unmixed high half of sequential keys is an arithmetic
        // sequence: a step near a fraction with a small denominator (here
        // 1/3) leaves its top seven bits few values. The mix spreads them.
        let step: u64 = u64::MAX / 3;
        let unmixed: HashSet<u64> = (0..4096u64).map(|p| p.wrapping_mul(step) >> 57).collect();
        assert!(unmixed.len() <= 4, "{}", unmixed.len());
        let mixed: HashSet<u64> = (0..4096u64)
            .map(|p| mix(p.wrapping_mul(step)) >> 57)
            .collect();
        assert_eq!(mixed.len(), 128);
    }
}
