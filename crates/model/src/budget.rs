//! The run's memory budget, and the part of it that state kept per thread
//! may take.
//!
//! A run is built to stay within `MEMORY_BUDGET` of resident memory,
//! whatever its inputs: every structure that grows with the input is
//! bounded, by count or by bytes, and the bounds are chosen so that their
//! sum stays within it (docs/limits.md lists them). Output that is itself
//! as large as the input (the rows of `calls --by thread`, say) is not
//! part of this budget.

use std::collections::HashMap;
use std::hash::{BuildHasher, Hash};

/// Resident memory a run is built to stay within (the command line's help
/// says so).
pub const MEMORY_BUDGET: u64 = 256 << 20;

/// Threads whose state one reader or one rule keeps at most (call stacks,
/// calls waiting for their outcome). A trace that brings more (a new
/// thread on every line) has the threads seen least recently closed as
/// the input's end would close them, so that a few hundred bytes per
/// thread cannot grow with the input.
pub const MAX_THREADS: usize = 16_384;

/// `trim_oldest` for per-thread state past `MAX_THREADS` that the end of
/// the input would simply drop: the threads seen least recently are
/// forgotten.
pub fn forget_oldest_threads<K, V, S>(map: &mut HashMap<K, V, S>, seen: impl Fn(&V) -> u64)
where
    K: Ord + Clone + Hash + Eq,
    S: BuildHasher,
{
    if map.len() <= MAX_THREADS {
        return;
    }
    let drop = map.len() - MAX_THREADS + MAX_THREADS / 4;
    // Which are forgotten is all that matters: not sorted.
    for (_, k) in oldest(map, drop, &seen) {
        map.remove(&k);
    }
}

/// The `drop` entries least recently seen (by `seen`, then by key), in no
/// order. Selecting on the clocks alone, then on the keys of the few at
/// the edge, moves a third of the bytes of selecting on (clock, key)
/// pairs (a trace of a million processes trims every 4,096 new ones).
fn oldest<K, V, S>(map: &HashMap<K, V, S>, drop: usize, seen: &impl Fn(&V) -> u64) -> Vec<(u64, K)>
where
    K: Ord + Clone,
{
    let mut ages: Vec<u64> = map.values().map(seen).collect();
    let edge = *ages.select_nth_unstable(drop - 1).1;
    let mut out = Vec::with_capacity(drop);
    let mut ties = Vec::new();
    for (k, v) in map {
        let a = seen(v);
        if a < edge {
            out.push((a, k.clone()));
        } else if a == edge {
            ties.push(k.clone());
        }
    }
    // Everything older than the edge goes; of the equals, the lowest keys.
    let take = drop - out.len();
    if ties.len() > take {
        ties.select_nth_unstable(take - 1);
        ties.truncate(take);
    }
    out.extend(ties.into_iter().map(|k| (edge, k)));
    out
}

/// When `map` holds more than `cap` entries, remove the quarter seen
/// least recently (by `seen`, then by key, so that the choice is the same
/// on every run), oldest first, handing each to `close`. Amortised: one
/// pass every `cap / 4` new entries.
pub fn trim_oldest<K, V, S>(
    map: &mut HashMap<K, V, S>,
    cap: usize,
    seen: impl Fn(&V) -> u64,
    mut close: impl FnMut(K, V),
) where
    K: Ord + Clone + Hash + Eq,
    S: BuildHasher,
{
    if map.len() <= cap {
        return;
    }
    let drop = map.len() - cap + cap / 4;
    let mut order = oldest(map, drop, &seen);
    order.sort_unstable();
    for (_, k) in order {
        if let Some(v) = map.remove(&k) {
            close(k, v);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_least_recently_seen_go_first_in_order() {
        let mut m: HashMap<u32, u64> = HashMap::new();
        for k in 0..9u32 {
            // Seen in the order 8, 7, ..., 0 except 5, seen last.
            m.insert(k, if k == 5 { 100 } else { u64::from(9 - k) });
        }
        let mut closed = Vec::new();
        trim_oldest(&mut m, 8, |v| *v, |k, _| closed.push(k));
        // 9 > 8: down to 6 (8 - 8 / 4), the three seen first closed first.
        assert_eq!(closed, [8, 7, 6]);
        assert_eq!(m.len(), 6);
        assert!(m.contains_key(&5));
        let before = m.len();
        trim_oldest(&mut m, 8, |v| *v, |_, _| panic!("under the cap"));
        assert_eq!(m.len(), before);
    }

    #[test]
    fn the_oldest_are_those_of_a_full_sort() {
        // Few distinct clocks (many ties at the edge), many, and all equal.
        for (n, clocks) in [(1000u64, 7u64), (1000, 1000), (64, 1), (300, 150)] {
            let map: HashMap<u64, u64> = (0..n).map(|k| ((k * 7919) % n, k % clocks)).collect();
            for drop in [
                1,
                2,
                n as usize / 4,
                n as usize / 2,
                n as usize - 1,
                n as usize,
            ] {
                let mut got = oldest(&map, drop, &|v: &u64| *v);
                got.sort_unstable();
                let mut all: Vec<(u64, u64)> = map.iter().map(|(k, v)| (*v, *k)).collect();
                all.sort_unstable();
                all.truncate(drop);
                assert_eq!(got, all, "n {n}, clocks {clocks}, drop {drop}");
            }
        }
    }

    #[test]
    fn forgetting_drops_what_trimming_drops() {
        // Clocks with ties (by key then) and a scrambled insertion order.
        let n = MAX_THREADS as u64 + 1;
        let entries: Vec<(u64, u64)> = (0..n).map(|k| ((k * 7919) % n, (k * 31) % 1000)).collect();
        let mut a: HashMap<u64, u64> = entries.iter().copied().collect();
        let mut b = a.clone();
        forget_oldest_threads(&mut a, |v| *v);
        trim_oldest(&mut b, MAX_THREADS, |v| *v, |_, _| {});
        assert_eq!(a.len(), MAX_THREADS - MAX_THREADS / 4);
        let mut ka: Vec<_> = a.keys().copied().collect();
        let mut kb: Vec<_> = b.keys().copied().collect();
        ka.sort_unstable();
        kb.sort_unstable();
        assert_eq!(ka, kb);
        let before = a.len();
        forget_oldest_threads(&mut a, |_| panic!("under the cap"));
        assert_eq!(a.len(), before);
    }
}
