//! Latency percentiles in bounded memory.
//!
//! The first `EXACT` durations of a row are kept as they are, so small
//! rows (most of them) get exact percentiles. Past that the sketch folds
//! into logarithmic buckets of ratio `1 + 2·ERR`: every value in a bucket
//! is within `ERR` (1%) of the bucket's geometric middle, which is what a
//! percentile then reports. Memory is bounded by the bucket count (at most
//! ~1,100 buckets from 1 µs to 10⁵ s), not by the number of calls. The
//! mean and the maximum are always exact (kept beside the sketch).

use std::collections::BTreeMap;

/// Durations kept exactly before folding into buckets.
pub(crate) const EXACT: usize = 4096;
/// Relative error of a percentile once folded.
const ERR: f64 = 0.01;

#[derive(Debug, Clone, Default)]
pub(crate) struct Sketch {
    exact: Vec<u64>,
    /// Bucket index → count; `None` until folded. Index 0 holds 0 µs.
    buckets: Option<BTreeMap<i32, u64>>,
    count: u64,
}

fn gamma() -> f64 {
    1.0 + 2.0 * ERR
}

fn bucket_of(us: u64) -> i32 {
    if us == 0 {
        0
    } else {
        // +1 so that 1 µs (log 0) lands in bucket 1, apart from zero.
        (us as f64).ln().div_euclid(gamma().ln()) as i32 + 1
    }
}

/// The value a bucket stands for: its geometric middle.
fn value_of(bucket: i32) -> u64 {
    if bucket == 0 {
        return 0;
    }
    let g = gamma();
    let lo = g.powi(bucket - 1);
    (lo * g.sqrt()).round() as u64
}

impl Sketch {
    pub(crate) fn add(&mut self, us: u64) {
        self.count += 1;
        match &mut self.buckets {
            Some(b) => *b.entry(bucket_of(us)).or_insert(0) += 1,
            None => {
                self.exact.push(us);
                if self.exact.len() > EXACT {
                    let mut b = BTreeMap::new();
                    for v in self.exact.drain(..) {
                        *b.entry(bucket_of(v)).or_insert(0) += 1;
                    }
                    self.exact = Vec::new();
                    self.buckets = Some(b);
                }
            }
        }
    }

    /// Add every value of another sketch.
    pub(crate) fn merge(&mut self, o: Sketch) {
        match o.buckets {
            None => {
                for v in o.exact {
                    self.add(v);
                }
            }
            Some(ob) => {
                let b = self.buckets.get_or_insert_with(BTreeMap::new);
                for v in self.exact.drain(..) {
                    *b.entry(bucket_of(v)).or_insert(0) += 1;
                }
                for (k, n) in ob {
                    *b.entry(k).or_insert(0) += n;
                }
                self.count += o.count;
            }
        }
    }

    pub(crate) fn count(&self) -> u64 {
        self.count
    }

    /// Whether percentiles are exact (few values).
    #[cfg(test)]
    pub(crate) fn is_exact(&self) -> bool {
        self.buckets.is_none()
    }

    /// The `p`-th percentile (0 < p ≤ 100) by nearest rank: the smallest
    /// value with at least `p`% of the values at or below it.
    pub(crate) fn percentile(&self, p: f64) -> Option<u64> {
        if self.count == 0 {
            return None;
        }
        let rank = ((p / 100.0) * self.count as f64).ceil().max(1.0) as u64;
        match &self.buckets {
            None => {
                let mut v = self.exact.clone();
                v.sort_unstable();
                v.get(rank as usize - 1).copied()
            }
            Some(b) => {
                let mut seen = 0;
                for (k, n) in b {
                    seen += n;
                    if seen >= rank {
                        return Some(value_of(*k));
                    }
                }
                b.keys().next_back().map(|k| value_of(*k))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mqdiag_model::testrng::Rng;

    #[test]
    fn exact_when_few() {
        let mut s = Sketch::default();
        for v in [5, 1, 9, 3, 7] {
            s.add(v);
        }
        assert!(s.is_exact());
        assert_eq!(s.percentile(50.0), Some(5));
        assert_eq!(s.percentile(95.0), Some(9));
        assert_eq!(s.percentile(20.0), Some(1));
        assert_eq!(Sketch::default().percentile(50.0), None);
    }

    #[test]
    fn folded_within_one_percent_and_bounded() {
        let mut rng = Rng::new(7);
        let mut s = Sketch::default();
        let mut all = Vec::new();
        for _ in 0..200_000 {
            // Spread over six decades, as call times are.
            let v = 10f64.powf(rng.below(6_000) as f64 / 1000.0) as u64;
            s.add(v);
            all.push(v);
        }
        assert!(!s.is_exact());
        assert!(s.buckets.as_ref().unwrap().len() < 1200);
        all.sort_unstable();
        for p in [50.0, 90.0, 95.0, 99.0] {
            let rank = ((p / 100.0) * all.len() as f64).ceil() as usize;
            let want = all[rank - 1] as f64;
            let got = s.percentile(p).unwrap() as f64;
            // 1% from the bucket, plus rounding to whole microseconds.
            assert!(
                (got - want).abs() <= want * ERR + 1.0,
                "p{p}: {got} vs {want}"
            );
        }
    }

    #[test]
    fn zero_has_its_own_bucket() {
        assert_eq!(bucket_of(0), 0);
        assert_eq!(bucket_of(1), 1);
        assert_eq!(value_of(0), 0);
        assert_eq!(value_of(bucket_of(1)), 1);
    }
}
