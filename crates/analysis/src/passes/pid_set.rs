//! The distinct processes a rule counts past its budget of clients, in a
//! bitmap of pages of 65,536 pids: a million processes take a few pages
//! (128 KB) where a hash set of them took 8 to 16 MB and a cache miss on
//! every insert, and memory is bounded whatever the pids are.

use mqdiag_model::runhash::RunMap;

/// Pids per page, as a power of two.
const PAGE_BITS: u32 = 16;
const WORDS: usize = 1 << (PAGE_BITS - 6);

/// Pages kept at most (2 MB): all pids below 2^24, the whole range of
/// Linux's largest `pid_max` (2^22) among them, when the pages are dense.
pub(crate) const MAX_PAGES: usize = 256;

#[derive(Default)]
pub(crate) struct PidSet {
    /// Page number to its place in `pages`.
    index: RunMap<u32, u32>,
    pages: Vec<Box<[u64; WORDS]>>,
    /// The page of the last pid (pids come in runs).
    last: Option<(u32, u32)>,
    count: u64,
    /// A pid of a page past `MAX_PAGES` was seen: `count` is a floor.
    untold: bool,
}

impl PidSet {
    pub(crate) fn insert(&mut self, pid: u32) {
        let page = pid >> PAGE_BITS;
        let slot = match self.last {
            Some((p, s)) if p == page => s,
            _ => {
                let s = match self.index.get(&page) {
                    Some(&s) => s,
                    None if self.pages.len() < MAX_PAGES => {
                        self.pages.push(Box::new([0; WORDS]));
                        let s = (self.pages.len() - 1) as u32;
                        self.index.insert(page, s);
                        s
                    }
                    None => {
                        self.untold = true;
                        return;
                    }
                };
                self.last = Some((page, s));
                s
            }
        };
        let bit = pid & ((1 << PAGE_BITS) - 1);
        let w = &mut self.pages[slot as usize][(bit >> 6) as usize];
        let m = 1u64 << (bit & 63);
        if *w & m == 0 {
            *w |= m;
            self.count += 1;
        }
    }

    /// Distinct pids counted (all of them unless `untold`).
    pub(crate) fn len(&self) -> u64 {
        self.count
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.count == 0 && !self.untold
    }

    /// Whether some pids were past the pages kept, so that `len` is a
    /// floor.
    pub(crate) fn untold(&self) -> bool {
        self.untold
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn counts_what_a_hash_set_counts() {
        let mut rng = mqdiag_model::testrng::Rng::new(7);
        // Runs, repeats, random pids within the kept pages, both ends.
        let mut pids: Vec<u32> = (100_000..170_000).collect();
        pids.extend((100_000..100_500).rev());
        pids.extend((0..50_000).map(|_| rng.below(1 << 22) as u32));
        pids.extend([0, 1, 65_535, 65_536, (1 << 22) - 1]);
        let mut set = PidSet::default();
        let mut exact = HashSet::new();
        assert!(set.is_empty());
        for p in pids {
            set.insert(p);
            exact.insert(p);
            assert_eq!(set.len(), exact.len() as u64);
        }
        assert!(!set.untold());
        assert!(!set.is_empty());
    }

    #[test]
    fn pids_past_the_pages_kept_make_the_count_a_floor() {
        let mut set = PidSet::default();
        // One pid in each page: the pages run out first.
        for page in 0..MAX_PAGES as u32 {
            set.insert(page << PAGE_BITS | 5);
        }
        assert_eq!(set.len(), MAX_PAGES as u64);
        assert!(!set.untold());
        set.insert(u32::MAX);
        assert!(set.untold());
        assert_eq!(set.len(), MAX_PAGES as u64);
        // A page kept still counts new pids.
        set.insert(6);
        assert_eq!(set.len(), MAX_PAGES as u64 + 1);
        assert_eq!(set.pages.len(), MAX_PAGES);
    }
}
