//! The two clocks of an `mqsmfcsv` file. `Date`/`Time` (and a few fields MQ
//! keeps in local time) are the LPAR's local time; STCK columns are UTC
//! rendered in whatever zone the formatter ran in. Their difference is not
//! written anywhere, so it is estimated from columns that are written at
//! the same moment as the record: the channel accounting `Collection_Time`
//! and the task's `WTAS_Interval_End` (strong), a queue's last `Close`
//! (weak: long-running tasks close queues long before the record, so a
//! weak estimate needs a clear majority of at least two rows).

use chrono::NaiveDateTime;
use std::collections::BTreeMap;

/// Zone offsets are whole quarter hours.
const QUANTUM_S: i64 = 900;
/// How far an anchor may sit from a quarter-hour multiple of the record
/// time: the record is written a moment after the anchor, and a TOD clock
/// that counts leap seconds is up to 27 s ahead.
const TOLERANCE_S: i64 = 120;
/// A weak anchor comes before the record: it may only be a little late.
const WEAK_LATE_S: i64 = 30;
/// Two zones are at most 26 hours apart.
const MAX_S: i64 = 26 * 3600;

/// The quarter-hour offset (seconds) an anchor suggests, if it is close
/// enough to one.
pub(crate) fn candidate(stck: NaiveDateTime, record: NaiveDateTime, strong: bool) -> Option<i32> {
    let diff_ms = (stck - record).num_milliseconds();
    let q = (diff_ms as f64 / (QUANTUM_S * 1000) as f64).round() as i64 * QUANTUM_S;
    let residual_ms = diff_ms - q * 1000;
    let late = if strong { TOLERANCE_S } else { WEAK_LATE_S };
    (residual_ms >= -TOLERANCE_S * 1000 && residual_ms <= late * 1000 && q.abs() <= MAX_S)
        .then_some(q as i32)
}

/// Votes for the offset, strong anchors apart from weak ones.
#[derive(Debug, Default)]
pub(crate) struct Votes {
    strong: BTreeMap<i32, u32>,
    weak: BTreeMap<i32, u32>,
}

impl Votes {
    pub(crate) fn add(&mut self, strong: bool, off: i32) {
        let m = if strong {
            &mut self.strong
        } else {
            &mut self.weak
        };
        *m.entry(off).or_default() += 1;
    }

    pub(crate) fn count(&self) -> u32 {
        self.strong.values().sum::<u32>() + self.weak.values().sum::<u32>()
    }

    fn kind(&self) -> &BTreeMap<i32, u32> {
        if self.strong.is_empty() {
            &self.weak
        } else {
            &self.strong
        }
    }

    /// The most voted offset, strong votes first. Weak votes must agree:
    /// two at least, and more than half of them.
    pub(crate) fn decide(&self) -> Option<i32> {
        // Ties go to the smallest offset, so the result does not depend on
        // map order.
        let (off, n) = self
            .kind()
            .iter()
            .max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(a.0)))
            .map(|(o, n)| (*o, *n))?;
        let total: u32 = self.kind().values().sum();
        (!self.strong.is_empty() || (n >= 2 && 2 * n > total)).then_some(off)
    }

    /// Votes for `off`, and all votes of the kind `decide` used.
    pub(crate) fn support(&self, off: i32) -> (u32, u32) {
        let m = self.kind();
        (m.get(&off).copied().unwrap_or(0), m.values().sum())
    }
}

/// `+04:00`, `-01:00`, `+05:30` for an offset in seconds.
pub(crate) fn offset_text(s: i32) -> String {
    let sign = if s < 0 { '-' } else { '+' };
    let a = s.unsigned_abs();
    format!("{sign}{:02}:{:02}", a / 3600, (a % 3600) / 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> NaiveDateTime {
        NaiveDateTime::parse_from_str(s, "%Y-%m-%d %H:%M:%S%.f").unwrap()
    }

    #[test]
    fn candidates_round_to_quarter_hours() {
        // TESTCHL: Collection_Time 22:03:47.235659 against record 18:03:47.23.
        let c = candidate(
            t("2016-02-27 22:03:47.235659"),
            t("2016-02-27 18:03:47.23"),
            true,
        );
        assert_eq!(c, Some(4 * 3600));
        // TEST116: queue closed 1.8 s before an LPAR at UTC-6 wrote the record.
        let c = candidate(
            t("2015-11-23 16:59:58.193482"),
            t("2015-11-23 11:00:00.02"),
            false,
        );
        assert_eq!(c, Some(6 * 3600));
        // SMF_MQ1000: formatter one hour behind the LPAR.
        let c = candidate(t("2026-05-21 15:30:00.0"), t("2026-05-21 16:30:00.0"), true);
        assert_eq!(c, Some(-3600));
        // A close 40 minutes before the record says nothing; one 70 s past a
        // quarter hour is no weak anchor (a close precedes its record).
        let far = candidate(
            t("2016-02-27 21:23:00.0"),
            t("2016-02-27 18:03:00.0"),
            false,
        );
        assert_eq!(far, None);
        let late = candidate(
            t("2016-02-27 22:04:10.0"),
            t("2016-02-27 18:03:00.0"),
            false,
        );
        assert_eq!(late, None);
        let late = candidate(t("2016-02-27 22:04:10.0"), t("2016-02-27 18:03:00.0"), true);
        assert_eq!(late, Some(4 * 3600));
        let days = candidate(t("2016-03-01 00:00:00.0"), t("2016-02-27 00:00:00.0"), true);
        assert_eq!(days, None);
    }

    #[test]
    fn strong_votes_win_and_ties_are_stable() {
        let mut v = Votes::default();
        v.add(false, 0);
        v.add(false, 0);
        v.add(true, 3600);
        assert_eq!(v.decide(), Some(3600));
        assert_eq!(v.support(3600), (1, 1));
        // Weak votes need a clear majority of two or more.
        let mut v = Votes::default();
        v.add(false, 3600);
        assert_eq!(v.decide(), None);
        v.add(false, -3600);
        assert_eq!(v.decide(), None);
        v.add(false, -3600);
        assert_eq!(v.decide(), Some(-3600));
        assert_eq!(v.support(-3600), (2, 3));
        assert_eq!(Votes::default().decide(), None);
        assert_eq!(offset_text(-3600), "-01:00");
        assert_eq!(offset_text(19800), "+05:30");
    }
}
