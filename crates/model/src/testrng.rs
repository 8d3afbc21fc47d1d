//! A small deterministic generator for the tests that damage or make up
//! inputs (xorshift64): the same cases on every run, no dependency; and
//! every short word over an alphabet, for tests that try them all.

pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        // Zero is xorshift's one fixed point.
        Rng(seed.max(1))
    }

    #[allow(clippy::should_implement_trait)] // a generator, not an iterator: it never ends
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    /// One of `seeds`, damaged: fewer than `edits` times, up to two bytes
    /// at a random place (widened to whole characters) replaced by one of
    /// `tokens`. For tests that check a fast parser against its oracle.
    pub fn damaged(&mut self, seeds: &[&str], tokens: &[&str], edits: usize) -> String {
        let mut t = seeds[self.below(seeds.len())].to_string();
        for _ in 0..self.below(edits) {
            let mut at = self.below(t.len() + 1);
            while !t.is_char_boundary(at) {
                at -= 1;
            }
            let mut end = (at + self.below(3)).min(t.len());
            while !t.is_char_boundary(end) {
                end += 1;
            }
            t.replace_range(at..end, tokens[self.below(tokens.len())]);
        }
        t
    }
}

/// Every sequence of up to `max_len` items of `alphabet` (the empty one
/// first), for tests that compare two implementations exhaustively.
pub fn every_word<T: Copy>(alphabet: &[T], max_len: u32) -> impl Iterator<Item = Vec<T>> + '_ {
    (0..=max_len).flat_map(move |n| {
        (0..alphabet.len().pow(n)).map(move |mut k| {
            (0..n)
                .map(|_| {
                    let c = alphabet[k % alphabet.len()];
                    k /= alphabet.len();
                    c
                })
                .collect()
        })
    })
}

#[test]
fn every_word_is_each_word_once() {
    let words: Vec<Vec<u8>> = every_word(b"ab", 2).collect();
    let want: Vec<Vec<u8>> = vec![
        vec![],
        b"a".to_vec(),
        b"b".to_vec(),
        b"aa".to_vec(),
        b"ba".to_vec(),
        b"ab".to_vec(),
        b"bb".to_vec(),
    ];
    assert_eq!(words, want);
}
