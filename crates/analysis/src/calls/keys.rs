//! The numbers the calls table keys its rows and sets by: what the input
//! names (paths, pids) is hashed with the std keyed hasher, once, as a few
//! integers (a crafted input cannot make the keys collide).

use mqdiag_model::mqrc::Outcome;

/// A row's key while counting: `Key` with the place as its index in
/// `Calls::places` (`NO_PLACE`: none), so that hashing it (with the std
/// keyed hasher: it comes from the input) reads a few numbers, not a path.
#[derive(Debug, Clone, PartialEq, Eq)]
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

/// The `BuildHasher` of a set of hashes already keyed: each is its own.
#[derive(Debug, Default, Clone, Copy)]
pub(super) struct Prehashed;

impl std::hash::BuildHasher for Prehashed {
    type Hasher = Own;
    fn build_hasher(&self) -> Own {
        Own(0)
    }
}

/// A `u64` hashed as itself (`Prehashed`).
pub(super) struct Own(u64);

impl std::hash::Hasher for Own {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        // Only `write_u64` is meant; anything else still hashes.
        for b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(*b);
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = v;
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
    fn a_prehashed_u64_is_its_own_hash() {
        assert_eq!(Prehashed.hash_one(0xdead_beef_u64), 0xdead_beef);
    }
}
