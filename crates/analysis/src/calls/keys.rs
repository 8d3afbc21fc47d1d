//! The numbers the calls table keys its rows and sets by: what the input
//! names (paths, pids) is hashed with the std keyed hasher, once, as a few
//! integers (a crafted input cannot make the keys collide).

use mqdiag_model::mqrc::Outcome;

/// A row's key while counting: `Key` with the place as its index in
/// `Calls::places` (`NO_PLACE`: none), so that hashing it (with the std
/// keyed hasher: it comes from the input) reads a few numbers, not a path.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct RowKey {
    pub(super) place: u32,
    pub(super) pid: Option<u32>,
    pub(super) tid: Option<u32>,
    pub(super) ident: Option<String>,
    pub(super) verb: &'static str,
}

/// `RowKey::place` of a row of a verb alone.
pub(super) const NO_PLACE: u32 = u32::MAX;

impl std::hash::Hash for RowKey {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        // One 16-byte write for the numbers; every verb fits in 8 bytes.
        let n = |v: Option<u32>| v.map_or(0, |v| u64::from(v) | 1 << 32);
        h.write_u128(
            u128::from(self.place) << 96 ^ u128::from(n(self.pid)) << 48 ^ u128::from(n(self.tid)),
        );
        let mut v = [0u8; 8];
        let b = self.verb.as_bytes();
        v[..b.len().min(8)].copy_from_slice(&b[..b.len().min(8)]);
        h.write_u64(u64::from_le_bytes(v) ^ b.len() as u64);
        if let Some(i) = &self.ident {
            h.write(i.as_bytes());
        }
    }
}

/// A reason as rows key it: the decimal code (written into `digits`), or
/// the return code as written when it is not an MQ reason; `None` for OK.
/// No string is made: a row's reason is mostly there already.
pub(super) fn reason_key<'a>(o: &'a Outcome, digits: &'a mut [u8; 10]) -> Option<&'a str> {
    match o {
        Outcome::Ok => None,
        Outcome::Reason(r) => Some(decimal(*r, digits)),
        Outcome::Other(t) => Some(t),
    }
}

/// `v` in decimal, written into `buf`.
fn decimal(mut v: u32, buf: &mut [u8; 10]) -> &str {
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    std::str::from_utf8(&buf[i..]).unwrap_or_default()
}

/// Distinct 64-bit keys (the entities of an "other" row, as their keyed
/// hashes), counted exactly up to `cap`. New keys wait in a buffer that
/// is sorted and merged into the sorted keys when it fills: one pass over
/// memory in order, where a hash set of a million random keys took a
/// cache miss on every insert. The buffer grows with the keys (a quarter
/// of them), so each key is moved a few times in all; memory is 8 bytes a
/// key, and twice that while a merge makes the new list.
#[derive(Debug, Default)]
pub(super) struct Distinct {
    sorted: Vec<u64>,
    buf: Vec<u64>,
    /// A key came past `cap` distinct ones: `len` is a floor.
    pub(super) more: bool,
}

/// Keys a buffer takes at least before it is merged.
const MIN_BUFFER: usize = 4096;

impl Distinct {
    pub(super) fn insert(&mut self, k: u64, cap: usize) {
        if self.more {
            return;
        }
        self.buf.push(k);
        if self.buf.len() >= (self.sorted.len() / 4).max(MIN_BUFFER) {
            self.flush(cap);
        }
    }

    /// Distinct keys counted (all of them unless `more`).
    pub(super) fn len(&mut self, cap: usize) -> u64 {
        self.flush(cap);
        self.sorted.len() as u64
    }

    fn flush(&mut self, cap: usize) {
        if self.buf.is_empty() {
            return;
        }
        self.buf.sort_unstable();
        self.buf.dedup();
        // Merged in place from the back, into room made at the end: a new
        // list per merge was a fresh allocation of up to 16 MB whose pages
        // faulted in every time.
        let (n, m) = (self.sorted.len(), self.buf.len());
        self.sorted.resize(n + m, 0);
        let (a, b) = (&mut self.sorted, &self.buf);
        // `i` keys of `a` and `j` of `b` are left to merge; the merged
        // tail starts at `k` (never below `i + j`).
        let (mut i, mut j, mut k) = (n, m, n + m);
        while j > 0 {
            k -= 1;
            if i > 0 && a[i - 1] >= b[j - 1] {
                if a[i - 1] == b[j - 1] {
                    j -= 1;
                }
                a[k] = a[i - 1];
                i -= 1;
            } else {
                a[k] = b[j - 1];
                j -= 1;
            }
        }
        // Keys in both leave a gap between the untouched head and the tail.
        if k > i {
            a.copy_within(k.., i);
            a.truncate(a.len() - (k - i));
        }
        let out = a;
        if out.len() > cap {
            // Which keys stay past the cap does not matter: only the
            // count is told, as a floor.
            out.truncate(cap);
            self.more = true;
        }
        self.buf.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::BuildHasher;

    #[test]
    fn reasons_are_keyed_as_their_decimal_code_or_as_written() {
        let mut d = [0u8; 10];
        assert_eq!(reason_key(&Outcome::Reason(2035), &mut d), Some("2035"));
        assert_eq!(reason_key(&Outcome::Reason(0), &mut d), Some("0"));
        assert_eq!(
            reason_key(&Outcome::Reason(u32::MAX), &mut d),
            Some("4294967295")
        );
        let other = Outcome::Other("xcsFFST".into());
        assert_eq!(reason_key(&other, &mut d), Some("xcsFFST"));
        assert_eq!(reason_key(&Outcome::Ok, &mut d), None);
    }

    #[test]
    fn equal_row_keys_hash_alike_and_numbers_are_told_apart() {
        let k = |place, pid, tid, verb| RowKey {
            place,
            pid,
            tid,
            ident: None,
            verb,
        };
        let h = std::hash::RandomState::new();
        let a = k(1, Some(7), None, "MQCONNX");
        assert_eq!(h.hash_one(&a), h.hash_one(a.clone()));
        // No pid and pid 0, a pid and the same number as a tid, another
        // verb: each a key of its own.
        let all = [
            a,
            k(1, Some(0), None, "MQCONNX"),
            k(1, None, None, "MQCONNX"),
            k(1, None, Some(7), "MQCONNX"),
            k(1, Some(7), None, "MQCONN"),
            k(NO_PLACE, Some(7), None, "MQCONNX"),
        ];
        let hashes: std::collections::HashSet<u64> = all.iter().map(|k| h.hash_one(k)).collect();
        assert_eq!(hashes.len(), all.len());
    }

    #[test]
    fn distinct_counts_what_a_hash_set_counts() {
        let mut rng = mqdiag_model::testrng::Rng::new(11);
        let mut d = Distinct::default();
        let mut exact = std::collections::HashSet::new();
        // Repeats within a buffer, across merges, and keys at both ends.
        for i in 0..60_000u64 {
            let k = match i % 4 {
                0 => rng.next(),
                1 => rng.next() % 5_000,
                2 => u64::MAX - i % 7,
                _ => i / 3,
            };
            d.insert(k, usize::MAX);
            exact.insert(k);
            if i % 9_999 == 0 {
                assert_eq!(d.len(usize::MAX), exact.len() as u64);
            }
        }
        assert_eq!(d.len(usize::MAX), exact.len() as u64);
        assert!(!d.more);
        let mut want: Vec<u64> = exact.into_iter().collect();
        want.sort_unstable();
        assert_eq!(d.sorted, want);
    }

    #[test]
    fn distinct_past_its_cap_is_a_floor() {
        let mut d = Distinct::default();
        for k in 0..10_000u64 {
            d.insert(k % 5_000, 6_000);
        }
        assert_eq!((d.len(6_000), d.more), (5_000, false));
        for k in 0..10_000u64 {
            d.insert(k, 6_000);
        }
        assert_eq!((d.len(6_000), d.more), (6_000, true));
    }
}
