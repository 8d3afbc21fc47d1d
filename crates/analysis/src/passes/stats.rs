//! Bounded-memory statistics the passes share: a distribution with exact
//! quantiles for small counts and a log histogram beyond; a decimated
//! sample of a series; Theil–Sen slope and Spearman rank correlation.

use std::collections::BTreeMap;

/// Values kept exactly before switching to the histogram.
const EXACT_CAP: usize = 10_000;
/// Histogram bucket growth: 1 % relative resolution.
const BUCKET_RATIO: f64 = 1.01;

/// Count, sum and largest of non-negative values: a `Distribution`
/// without its values, for passes that keep one per group and need no
/// quantile (a `Distribution` keeps up to `EXACT_CAP` values, 80 KB).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Moments {
    n: u64,
    sum: u128,
    max: u64,
}

impl Moments {
    pub(crate) fn push(&mut self, v: u64) {
        self.n += 1;
        self.sum += v as u128;
        self.max = self.max.max(v);
    }

    pub(crate) fn count(&self) -> u64 {
        self.n
    }

    pub(crate) fn sum(&self) -> u128 {
        self.sum
    }

    pub(crate) fn max(&self) -> u64 {
        self.max
    }

    pub(crate) fn mean(&self) -> Option<f64> {
        (self.n > 0).then(|| self.sum as f64 / self.n as f64)
    }
}

/// A distribution of non-negative integer values (microseconds, bytes).
/// Quantiles are exact while there are at most `EXACT_CAP` values, then
/// within 1 % (log-spaced buckets); memory stays bounded either way.
#[derive(Debug, Clone, Default)]
pub(crate) struct Distribution {
    exact: Vec<u64>,
    hist: Option<BTreeMap<u32, u64>>,
    moments: Moments,
}

fn bucket(v: u64) -> u32 {
    ((v as f64 + 1.0).ln() / BUCKET_RATIO.ln()) as u32
}

fn bucket_value(b: u32) -> u64 {
    // Geometric middle of the bucket, back in value units.
    let lo = BUCKET_RATIO.powf(b as f64);
    let hi = BUCKET_RATIO.powf(b as f64 + 1.0);
    ((lo * hi).sqrt() - 1.0).max(0.0).round() as u64
}

impl Distribution {
    pub(crate) fn push(&mut self, v: u64) {
        self.moments.push(v);
        match &mut self.hist {
            Some(h) => *h.entry(bucket(v)).or_default() += 1,
            None => {
                self.exact.push(v);
                if self.exact.len() > EXACT_CAP {
                    let mut h = BTreeMap::new();
                    for x in self.exact.drain(..) {
                        *h.entry(bucket(x)).or_default() += 1;
                    }
                    self.hist = Some(h);
                }
            }
        }
    }

    pub(crate) fn count(&self) -> u64 {
        self.moments.count()
    }

    pub(crate) fn sum(&self) -> u128 {
        self.moments.sum()
    }

    pub(crate) fn max(&self) -> u64 {
        self.moments.max()
    }

    /// Nearest-rank quantile (`q` in 0..=1): the smallest value with at
    /// least `q` of all values at or below it.
    pub(crate) fn quantile(&self, q: f64) -> Option<u64> {
        let n = self.count();
        if n == 0 {
            return None;
        }
        let rank = ((q * n as f64).ceil() as u64).clamp(1, n);
        match &self.hist {
            None => {
                let mut v = self.exact.clone();
                v.sort_unstable();
                Some(v[rank as usize - 1])
            }
            Some(h) => {
                let mut seen = 0;
                for (b, c) in h {
                    seen += c;
                    if seen >= rank {
                        return Some(bucket_value(*b).min(self.max()));
                    }
                }
                Some(self.max())
            }
        }
    }

    /// How many values lie in `lo..=hi` (exact, or by bucket when large).
    pub(crate) fn count_between(&self, lo: u64, hi: u64) -> u64 {
        match &self.hist {
            None => self.exact.iter().filter(|&&v| v >= lo && v <= hi).count() as u64,
            Some(h) => h.range(bucket(lo)..=bucket(hi)).map(|(_, c)| *c).sum(),
        }
    }
}

/// A uniform sample of a series of any length in bounded memory: every
/// point is kept until `cap` is reached, then every other kept point is
/// dropped and only every 2nd (4th, 8th, ...) new point is taken.
#[derive(Debug, Clone)]
pub(crate) struct Decimated {
    points: Vec<(f64, f64)>,
    stride: u64,
    seen: u64,
    cap: usize,
}

impl Decimated {
    pub(crate) fn new(cap: usize) -> Decimated {
        Decimated {
            points: Vec::new(),
            stride: 1,
            seen: 0,
            cap: cap.max(4),
        }
    }

    pub(crate) fn push(&mut self, x: f64, y: f64) {
        if self.seen.is_multiple_of(self.stride) {
            self.points.push((x, y));
            if self.points.len() > self.cap {
                let mut i = 0;
                self.points.retain(|_| {
                    let keep = i % 2 == 0;
                    i += 1;
                    keep
                });
                self.stride *= 2;
            }
        }
        self.seen += 1;
    }

    pub(crate) fn points(&self) -> &[(f64, f64)] {
        &self.points
    }

    /// Points offered in all (not only those kept).
    #[cfg(test)]
    pub(crate) fn seen(&self) -> u64 {
        self.seen
    }
}

/// Theil–Sen estimator: the median of the slopes between all pairs of
/// points with different x, and the median intercept for that slope.
/// Robust to up to ~29 % outliers. `None` with fewer than two distinct x.
pub(crate) fn theil_sen(points: &[(f64, f64)]) -> Option<(f64, f64)> {
    let slope = median_slope(points)?;
    let mut intercepts: Vec<f64> = points.iter().map(|(x, y)| y - slope * x).collect();
    let intercept = median(&mut intercepts)?;
    Some((intercept, slope))
}

/// The slope between two points, `None` when their x are the same.
#[inline]
fn pair_slope(a: (f64, f64), b: (f64, f64)) -> Option<f64> {
    let dx = b.0 - a.0;
    (dx.abs() > f64::EPSILON).then(|| (b.1 - a.1) / dx)
}

/// `median` of every pair's slope, all slopes kept.
fn median_slope_of_all(points: &[(f64, f64)]) -> Option<f64> {
    let mut slopes = Vec::with_capacity(points.len() * points.len().saturating_sub(1) / 2);
    for (i, a) in points.iter().enumerate() {
        slopes.extend(points[i + 1..].iter().filter_map(|b| pair_slope(*a, *b)));
    }
    median(&mut slopes)
}

/// A key that orders as `f64::total_cmp`.
#[inline]
fn total_key(v: f64) -> i64 {
    let b = v.to_bits() as i64;
    b ^ (((b >> 63) as u64) >> 1) as i64
}

/// `median` of every pair's slope without keeping them all (a series of
/// 512 points has 130,816): a sample of one pair in 32 brackets the
/// median; one pass over all pairs counts those below the bracket and
/// keeps those inside it, and the median is selected among those kept
/// (`median_slope_within`). When the median falls outside the bracket,
/// all slopes are kept after all. The same value as
/// `median_slope_of_all`, bit for bit.
fn median_slope(points: &[(f64, f64)]) -> Option<f64> {
    // One pair in STEP, spread over every distance between points.
    const STEP: usize = 32;
    if points.len() < 128 {
        return median_slope_of_all(points);
    }
    let mut sample = Vec::new();
    for (i, a) in points.iter().enumerate() {
        for b in points[i + 1..].iter().skip(i % STEP).step_by(STEP) {
            sample.extend(pair_slope(*a, *b));
        }
    }
    if sample.len() < 64 {
        return median_slope_of_all(points);
    }
    // Six standard deviations of the sample median's rank (sqrt(n) / 2).
    let half = sample.len() / 2;
    let reach = (3.0 * (sample.len() as f64).sqrt()) as usize + 1;
    let hi_at = (half + reach).min(sample.len() - 1);
    let (_, hi, _) = sample.select_nth_unstable_by(hi_at, |a, b| a.total_cmp(b));
    let hi = *hi;
    let lo_at = half.saturating_sub(reach);
    let (_, lo, _) = sample[..hi_at].select_nth_unstable_by(lo_at, |a, b| a.total_cmp(b));
    let lo = *lo;
    // The bracket's share of the sample, of all pairs, with some to spare.
    let pairs = points.len() * (points.len() - 1) / 2;
    let room = pairs / sample.len() * (2 * reach + 1) * 5 / 4;
    median_slope_within(points, (lo, hi), room).or_else(|| median_slope_of_all(points))
}

/// The median of every pair's slope when it lies in `lo..=hi` (by
/// `total_cmp`), keeping only the slopes inside; `None` when it does not.
fn median_slope_within(points: &[(f64, f64)], (lo, hi): (f64, f64), room: usize) -> Option<f64> {
    let bracket = (lo, hi);
    let lo = total_key(lo);
    // `k` is inside when `k - lo` (wrapping, unsigned) is at most `width`.
    let width = total_key(hi).wrapping_sub(lo) as u64;
    let (mut below, mut n) = (0usize, 0usize);
    let mut kept = Vec::with_capacity(room);
    // Points in time order (the usual case): a point's pairs with no
    // slope are the first few after it (x - x_i only grows), so the loop
    // over the rest has no test.
    let ordered = points.windows(2).all(|w| w[0].0 <= w[1].0);
    if ordered && let Some(r) = slopes_in_rows(points, bracket, room) {
        (below, n, kept) = r;
    } else {
        for (i, &(ax, ay)) in points.iter().enumerate() {
            let rest = &points[i + 1..];
            let from = if ordered {
                rest.iter()
                    .position(|b| b.0 - ax > f64::EPSILON)
                    .unwrap_or(rest.len())
            } else {
                0
            };
            for &(bx, by) in &rest[from..] {
                // `pair_slope`, written out: this loop is the estimator's cost.
                let dx = bx - ax;
                if ordered || dx.abs() > f64::EPSILON {
                    let s = (by - ay) / dx;
                    let k = total_key(s);
                    n += 1;
                    below += usize::from(k < lo);
                    if k.wrapping_sub(lo) as u64 <= width {
                        kept.push(s);
                    }
                }
            }
        }
    }
    let mid_rank = n / 2;
    if mid_rank < below || mid_rank >= below + kept.len() {
        return None;
    }
    let (lower, mid, _) = kept.select_nth_unstable_by(mid_rank - below, |a, b| a.total_cmp(b));
    let mid = *mid;
    if n % 2 == 1 {
        return Some(mid);
    }
    // The slope just below the median: kept, or the largest below the
    // bracket (every one of those orders before every slope kept).
    let below = if lower.is_empty() {
        max_slope_below(points, lo)
    } else {
        lower.iter().copied().fold(f64::NEG_INFINITY, f64::max)
    };
    Some((below + mid) / 2.0)
}

/// `median_slope_within`'s pass over all pairs for points in time order,
/// a row of slopes (one point's pairs with those after it) at a time, in
/// loops the compiler turns into vector code: the slopes below the bracket
/// (`lo..=hi`), how many there are in all, and the ones inside. With every
/// coordinate finite and small enough that no difference overflows, no
/// slope is NaN; with `lo` and `hi` finite and not zero, comparing floats
/// orders the slopes as `total_cmp` does (they differ only on NaN and on
/// the two zeros). `None` when that does not hold.
fn slopes_in_rows(
    points: &[(f64, f64)],
    (lo, hi): (f64, f64),
    room: usize,
) -> Option<(usize, usize, Vec<f64>)> {
    const BIG: f64 = 1e300;
    let plain = |v: f64| v.abs() < BIG;
    let fits = points.iter().all(|&(x, y)| plain(x) && plain(y))
        && [lo, hi].iter().all(|&v| plain(v) && v != 0.0)
        && lo <= hi;
    if !fits {
        return None;
    }
    let xs: Vec<f64> = points.iter().map(|p| p.0).collect();
    let ys: Vec<f64> = points.iter().map(|p| p.1).collect();
    let (mut below, mut n) = (0usize, 0usize);
    let mut kept = Vec::with_capacity(room);
    let mut row = vec![0.0f64; points.len()];
    for (i, (&ax, &ay)) in xs.iter().zip(&ys).enumerate() {
        // Pairs with no slope are the first few after the point.
        let from = i
            + 1
            + xs[i + 1..]
                .iter()
                .position(|&bx| bx - ax > f64::EPSILON)
                .unwrap_or(xs.len() - i - 1);
        let row = &mut row[..xs.len() - from];
        for ((s, &bx), &by) in row.iter_mut().zip(&xs[from..]).zip(&ys[from..]) {
            *s = (by - ay) / (bx - ax);
        }
        n += row.len();
        below += row.iter().filter(|&&s| s < lo).count();
        for &s in row.iter() {
            if lo <= s && s <= hi {
                kept.push(s);
            }
        }
    }
    Some((below, n, kept))
}

/// The largest slope whose key is below `lo`, folded as `median` folds.
fn max_slope_below(points: &[(f64, f64)], lo: i64) -> f64 {
    let mut max = f64::NEG_INFINITY;
    for (i, a) in points.iter().enumerate() {
        for s in points[i + 1..].iter().filter_map(|b| pair_slope(*a, *b)) {
            if total_key(s) < lo {
                max = max.max(s);
            }
        }
    }
    max
}

fn median(v: &mut [f64]) -> Option<f64> {
    if v.is_empty() {
        return None;
    }
    // Selection, not a sort: Theil–Sen takes the median of ~130k slopes
    // per series.
    let n = v.len();
    let (lower, mid, _) = v.select_nth_unstable_by(n / 2, |a, b| a.total_cmp(b));
    let mid = *mid;
    Some(if n % 2 == 1 {
        mid
    } else {
        let below = lower.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        (below + mid) / 2.0
    })
}

/// Ranks 1..=n with ties given their average rank.
fn ranks(v: &[f64]) -> Vec<f64> {
    let mut idx: Vec<usize> = (0..v.len()).collect();
    idx.sort_by(|&a, &b| v[a].total_cmp(&v[b]));
    let mut r = vec![0.0; v.len()];
    let mut i = 0;
    while i < idx.len() {
        let mut j = i;
        while j + 1 < idx.len() && v[idx[j + 1]] == v[idx[i]] {
            j += 1;
        }
        let avg = (i + j) as f64 / 2.0 + 1.0;
        for k in i..=j {
            r[idx[k]] = avg;
        }
        i = j + 1;
    }
    r
}

/// Spearman's rank correlation of y against x: 1 for a series that only
/// ever rises, near 0 for one without a monotone trend.
pub(crate) fn spearman(points: &[(f64, f64)]) -> Option<f64> {
    if points.len() < 3 {
        return None;
    }
    let xs: Vec<f64> = points.iter().map(|p| p.0).collect();
    let ys: Vec<f64> = points.iter().map(|p| p.1).collect();
    pearson(&ranks(&xs), &ranks(&ys))
}

fn pearson(a: &[f64], b: &[f64]) -> Option<f64> {
    let n = a.len() as f64;
    let ma = a.iter().sum::<f64>() / n;
    let mb = b.iter().sum::<f64>() / n;
    let (mut sab, mut saa, mut sbb) = (0.0, 0.0, 0.0);
    for (x, y) in a.iter().zip(b) {
        sab += (x - ma) * (y - mb);
        saa += (x - ma) * (x - ma);
        sbb += (y - mb) * (y - mb);
    }
    if saa == 0.0 || sbb == 0.0 {
        return None;
    }
    Some(sab / (saa * sbb).sqrt())
}

/// Share of the variance of y explained by the line `y = a + b x`.
pub(crate) fn r_squared(points: &[(f64, f64)], a: f64, b: f64) -> Option<f64> {
    if points.len() < 2 {
        return None;
    }
    let my = points.iter().map(|p| p.1).sum::<f64>() / points.len() as f64;
    let (mut ss_res, mut ss_tot) = (0.0, 0.0);
    for (x, y) in points {
        let f = a + b * x;
        ss_res += (y - f) * (y - f);
        ss_tot += (y - my) * (y - my);
    }
    if ss_tot == 0.0 {
        return None;
    }
    Some(1.0 - ss_res / ss_tot)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moments_count_sum_and_max() {
        let mut m = Moments::default();
        assert_eq!(m.mean(), None);
        for v in [3, 0, 9, u64::MAX] {
            m.push(v);
        }
        assert_eq!((m.count(), m.max()), (4, u64::MAX));
        let want = (12u128 + u64::MAX as u128) as f64 / 4.0;
        assert_eq!(m.mean(), Some(want));
    }

    #[test]
    fn exact_quantiles_nearest_rank() {
        let mut d = Distribution::default();
        for v in [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] {
            d.push(v);
        }
        assert_eq!(d.quantile(0.95), Some(10));
        assert_eq!(d.quantile(0.5), Some(5));
        assert_eq!(d.quantile(0.0), Some(1));
        assert_eq!(d.sum(), 55);
        assert_eq!(d.max(), 10);
        assert_eq!(d.count_between(3, 5), 3);
        assert_eq!(Distribution::default().quantile(0.5), None);
    }

    #[test]
    fn histogram_quantiles_within_one_percent() {
        let mut d = Distribution::default();
        for v in 1..=100_000u64 {
            d.push(v);
        }
        assert_eq!(d.count(), 100_000);
        let p95 = d.quantile(0.95).unwrap() as f64;
        assert!((p95 - 95_000.0).abs() / 95_000.0 < 0.01, "p95 {p95}");
        assert_eq!(d.max(), 100_000);
        let mid = d.count_between(40_000, 60_000) as f64;
        assert!((mid - 20_001.0).abs() / 20_001.0 < 0.03, "{mid}");
    }

    #[test]
    fn decimation_is_bounded_and_uniform() {
        let mut s = Decimated::new(64);
        for i in 0..1_000_000u64 {
            s.push(i as f64, i as f64);
        }
        assert!(s.points().len() <= 64);
        assert!(s.points().len() >= 32);
        assert_eq!(s.seen(), 1_000_000);
        // Evenly spread: first at 0, gaps all equal.
        let p = s.points();
        assert_eq!(p[0].0, 0.0);
        let gap = p[1].0 - p[0].0;
        assert!(p.windows(2).all(|w| w[1].0 - w[0].0 == gap));
        assert!(p.last().unwrap().0 > 900_000.0);
    }

    #[test]
    fn theil_sen_ignores_outliers() {
        let mut pts: Vec<(f64, f64)> = (0..20).map(|i| (i as f64, 3.0 * i as f64 + 5.0)).collect();
        pts[7].1 = 10_000.0;
        pts[13].1 = -500.0;
        let (a, b) = theil_sen(&pts).unwrap();
        assert!((b - 3.0).abs() < 1e-9, "slope {b}");
        assert!((a - 5.0).abs() < 1e-9, "intercept {a}");
        assert!(theil_sen(&[(1.0, 1.0), (1.0, 2.0)]).is_none());
    }

    /// The bracketed median is the median of all slopes, bit for bit: on
    /// trends with noise and outliers, ties, repeated x, flat series and
    /// series whose median falls outside the bracket.
    #[test]
    fn bracketed_slope_median_is_the_median_of_all_slopes() {
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut series: Vec<Vec<(f64, f64)>> = Vec::new();
        for n in [10, 63, 64, 65, 100, 257, 512, 513] {
            for shape in 0..7 {
                let pts = (0..n)
                    .map(|i| {
                        let r = (next() % 10_000) as f64;
                        let x = match shape {
                            // Repeated x: pairs with no slope.
                            3 => (i / 3) as f64,
                            // Out of time order, x repeated.
                            6 => ((i * 37) % n / 2) as f64,
                            _ => i as f64 * 0.25 + (next() % 3) as f64 * 1e-3,
                        };
                        let y = match shape {
                            0 => 3.0 * x + r / 100.0,
                            1 => 1e6 - 40.0 * x + r,
                            2 => (r as u64 % 4) as f64,
                            3 => 7.0 * x + r / 10.0,
                            4 => 5.0,
                            // Half the points far off: a skewed bracket.
                            5 if i % 2 == 0 => 1e9 + r,
                            5 => x,
                            _ => {
                                if i < n / 2 {
                                    0.0
                                } else {
                                    1e7 * x
                                }
                            }
                        };
                        (x, y)
                    })
                    .collect();
                series.push(pts);
            }
        }
        for pts in &series {
            let want = median_slope_of_all(pts).map(f64::to_bits);
            assert_eq!(
                median_slope(pts).map(f64::to_bits),
                want,
                "{} points",
                pts.len()
            );
        }
        // Any bracket gives the median when it holds it, or says it does
        // not: wide, narrow, on the median itself, beside it.
        let (mut held, mut missed) = (0, 0);
        for pts in series.iter().step_by(5) {
            let all = median_slope_of_all(pts).unwrap();
            let mut slopes = Vec::new();
            for (i, a) in pts.iter().enumerate() {
                slopes.extend(pts[i + 1..].iter().filter_map(|b| pair_slope(*a, *b)));
            }
            slopes.sort_unstable_by(|a, b| a.total_cmp(b));
            let m = slopes.len() / 2;
            let at = |k: usize| slopes[k.min(slopes.len() - 1)];
            for (lo, hi) in [
                (at(0), at(usize::MAX)),
                (at(m), at(m)),
                (at(m.saturating_sub(1)), at(m)),
                (at(m.saturating_sub(3)), at(m + 3)),
                (at(m + 1), at(m + 9)),
                (at(0), at(m.saturating_sub(2))),
                (f64::NEG_INFINITY, f64::INFINITY),
            ] {
                match median_slope_within(pts, (lo, hi), 0) {
                    Some(v) => {
                        assert_eq!(v.to_bits(), all.to_bits(), "{lo}..={hi}");
                        held += 1;
                    }
                    None => missed += 1,
                }
            }
        }
        assert!(held >= 30 && missed >= 10, "{held} {missed}");
        // Every x equal: no slope at all.
        let same: Vec<(f64, f64)> = (0..200).map(|i| (1.0, i as f64)).collect();
        assert_eq!(median_slope(&same), None);
    }

    #[test]
    fn spearman_trend_and_noise() {
        let rising: Vec<(f64, f64)> = (0..30).map(|i| (i as f64, (i * i) as f64)).collect();
        assert!((spearman(&rising).unwrap() - 1.0).abs() < 1e-12);
        // A fixed zig-zag without trend.
        let noisy: Vec<(f64, f64)> = (0..30)
            .map(|i| (i as f64, [5.0, 9.0, 3.0, 8.0, 4.0, 7.0][i % 6]))
            .collect();
        assert!(spearman(&noisy).unwrap().abs() < 0.3);
        let flat: Vec<(f64, f64)> = (0..10).map(|i| (i as f64, 4.0)).collect();
        assert_eq!(spearman(&flat), None);
        let (a, b) = theil_sen(&rising).unwrap();
        assert!(r_squared(&rising, a, b).unwrap() > 0.8);
    }

    #[test]
    fn ranks_average_ties() {
        assert_eq!(ranks(&[10.0, 20.0, 10.0, 30.0]), vec![1.5, 3.0, 1.5, 4.0]);
    }
}
