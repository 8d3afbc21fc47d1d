//! A small, fast, non-cryptographic hasher (the Fx hash used inside rustc)
//! for hot lookups of short keys (function names, idents). SipHash, the
//! standard default, is needlessly slow there; these maps are not exposed
//! to adversarial key choice that matters (a slow lookup, not a wrong one).

use std::hash::{BuildHasherDefault, Hasher};

#[derive(Default, Clone, Copy)]
pub struct FxHasher(u64);

pub type FxBuild = BuildHasherDefault<FxHasher>;

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        const K: u64 = 0x517c_c1b7_2722_0a95;
        let mut chunks = bytes.chunks_exact(8);
        for c in chunks.by_ref() {
            let w = u64::from_le_bytes(c.try_into().expect("8 bytes"));
            self.0 = (self.0.rotate_left(5) ^ w).wrapping_mul(K);
        }
        for &b in chunks.remainder() {
            self.0 = (self.0.rotate_left(5) ^ b as u64).wrapping_mul(K);
        }
    }

    fn write_u8(&mut self, i: u8) {
        self.0 = (self.0.rotate_left(5) ^ i as u64).wrapping_mul(0x517c_c1b7_2722_0a95);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn sets_work_with_it() {
        let mut s: HashSet<String, FxBuild> = HashSet::default();
        for w in ["send", "recv", "getaddrinfo", "gsk_environment_init"] {
            s.insert(w.to_string());
        }
        assert!(s.contains("send"));
        assert!(!s.contains("sen"));
        assert_eq!(s.len(), 4);
    }
}
