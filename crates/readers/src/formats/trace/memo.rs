//! Answers the full way asks again and again, kept by their question:
//! a function name's interned text and whether the interest wants it, a
//! text line's interest, a time of day's instant. Lines of one call repeat
//! the same names, texts and stamps, and each answer costs far more to
//! work out (a hash look-up, a regex search, calendar arithmetic) than to
//! compare.

use super::*;
use crate::source::Interest;

/// A name of at most 16 bytes as an integer, zero padded: with its
/// length beside it, no two names share a key. `None` for longer names.
#[inline]
pub(super) fn name_key(t: &[u8]) -> Option<u128> {
    let n = t.len();
    let w8 = |i: usize| {
        t.get(i..i + 8)
            .map_or(0, |s| u64::from_le_bytes(s.try_into().unwrap_or_default()))
    };
    let w4 = |i: usize| {
        t.get(i..i + 4)
            .map_or(0, |s| u32::from_le_bytes(s.try_into().unwrap_or_default()))
    };
    // Two loads that overlap cover every byte: for one length, the pair
    // tells the name.
    match n {
        8..=16 => Some(u128::from(w8(0)) | u128::from(w8(n - 8)) << 64),
        4..=7 => Some(u128::from(w4(0)) | u128::from(w4(n - 4)) << 32),
        _ => {
            let mut k = 0u128;
            for (i, &c) in t.iter().enumerate().take(3) {
                k |= u128::from(c) << (8 * i);
            }
            Some(k).filter(|_| n < 4)
        }
    }
}

/// Function names met lately: the interned name (`None` when the interest
/// does not want it: such a name is never interned) and, once asked,
/// whether the name alone holds one of the interest's literals
/// (`Interest::candidate`). Direct-mapped by the name's text; longer names
/// (over 16 bytes) ask every time.
#[derive(Default)]
pub(super) struct Calls(Vec<Call>);

/// A slot of `Calls`: the name's key and length, its interned name and
/// whether it is a candidate.
type Call = (u128, usize, Option<Arc<str>>, Option<bool>);

impl Calls {
    /// The name of `f` when `interest` (the source's, whatever the record)
    /// wants it, else `None`; interned in `names`.
    #[inline]
    pub(super) fn get(
        &mut self,
        f: &str,
        interest: Option<&Interest>,
        names: &mut Interner,
    ) -> Option<Arc<str>> {
        match self.slot(f, interest, names) {
            Some(slot) => slot.2.clone(),
            None => interest.is_none_or(|i| i.function(f)).then(|| names.get(f)),
        }
    }

    /// Whether the name alone is a candidate of `interest` (so is any line
    /// that holds it).
    #[inline]
    pub(super) fn candidate(&mut self, f: &str, interest: &Interest, names: &mut Interner) -> bool {
        match self.slot(f, Some(interest), names) {
            Some(slot) => *slot
                .3
                .get_or_insert_with(|| interest.candidate(f.as_bytes())),
            None => interest.candidate(f.as_bytes()),
        }
    }

    /// The slot of `f`, filled for it if it held another name; `None` for
    /// a name that has none (empty or over 16 bytes).
    #[inline]
    fn slot(
        &mut self,
        f: &str,
        interest: Option<&Interest>,
        names: &mut Interner,
    ) -> Option<&mut Call> {
        // The empty name shares its key with no other (length 0), but an
        // empty slot has length 0 too: it is never kept.
        let key = name_key(f.as_bytes()).filter(|_| !f.is_empty())?;
        if self.0.is_empty() {
            self.0 = vec![(0, 0, None, None); TEXT_SLOTS];
        }
        let slot = &mut self.0[text_slot(key)];
        if !(slot.0 == key && slot.1 == f.len()) {
            let name = interest.is_none_or(|i| i.function(f)).then(|| names.get(f));
            *slot = (key, f.len(), name, None);
        }
        Some(slot)
    }
}

/// For the last text line asked about (a call's data lines often
/// repeat): whether the interest wants it, and whether the text alone is
/// a candidate. Texts longer than `TextSeen::MAX` are not kept.
#[derive(Default)]
pub(super) struct TextSeen {
    text: String,
    kept: bool,
    wanted: Option<bool>,
    candidate: Option<bool>,
    /// The names of the options field it prints (`mqconst::in_text`).
    options: Option<Option<String>>,
}

impl TextSeen {
    const MAX: usize = 256;

    /// The answers kept for `t` (none yet when it is not the last text).
    #[inline]
    fn of(&mut self, t: &str) -> &mut Self {
        if !(self.kept && self.text == t) {
            self.kept = t.len() <= Self::MAX;
            self.text.clear();
            if self.kept {
                self.text.push_str(t);
            }
            self.wanted = None;
            self.candidate = None;
            self.options = None;
        }
        self
    }

    /// The names of the options field the text prints, if any.
    #[inline]
    pub(super) fn options(&mut self, t: &str) -> Option<&str> {
        let m = self.of(t);
        m.options
            .get_or_insert_with(|| mqdiag_model::mqconst::in_text(t).map(|(_, names)| names))
            .as_deref()
    }

    #[inline]
    pub(super) fn wanted(&mut self, interest: &Interest, t: &str) -> bool {
        let m = self.of(t);
        *m.wanted.get_or_insert_with(|| interest.text(t))
    }

    /// Whether the text alone is a candidate of `interest` (so is any line
    /// that holds it).
    #[inline]
    pub(super) fn candidate(&mut self, interest: &Interest, t: &str) -> bool {
        let m = self.of(t);
        *m.candidate
            .get_or_insert_with(|| interest.candidate(t.as_bytes()))
    }
}

/// Whether a cache is worth asking. Where its answers keep missing (a new
/// time on every line, threads interleaved), comparing and storing cost
/// more than the hits save: after `OFF_AFTER` misses in a row the cache
/// is left alone for `PAUSE` look-ups, then filled once and asked
/// `PROBE` times; a hit among them keeps it on. (Asked once, a sample
/// can fall on the same place of a repeating pattern of lines every
/// time, one that always misses.) Answers never depend on it: a cache
/// keeps only what its key alone decides.
#[derive(Default, Clone, Copy)]
pub(super) struct Gate {
    misses: u8,
    pause: u8,
}

/// What to do with a cache for one look-up (`Gate::next`).
#[derive(Debug, PartialEq, Eq, Clone, Copy)]
pub(super) enum Use {
    /// Look it up (and fill it on a miss); tell the gate the outcome.
    Ask,
    /// Do not look it up, but fill it: the next look-up is asked.
    Fill,
    /// Leave it alone.
    Skip,
}

impl Gate {
    const OFF_AFTER: u8 = 8;
    const PROBE: u8 = 4;
    const PAUSE: u8 = 60;

    #[inline(always)]
    pub(super) fn next(&mut self) -> Use {
        match self.pause {
            0 => Use::Ask,
            1 => {
                self.pause = 0;
                Use::Fill
            }
            _ => {
                self.pause -= 1;
                Use::Skip
            }
        }
    }

    /// What `next` would say, without moving on.
    #[cfg(test)]
    pub(super) fn peek(&self) -> Use {
        self.clone().next()
    }

    /// The outcome of a look-up `next` said to ask.
    #[inline(always)]
    pub(super) fn answer(&mut self, hit: bool) {
        if hit {
            self.misses = 0;
        } else if self.misses + 1 >= Self::OFF_AFTER {
            // After the pause, `PROBE` misses in a row pause it again.
            self.misses = Self::OFF_AFTER - Self::PROBE;
            self.pause = Self::PAUSE;
        } else {
            self.misses += 1;
        }
    }
}

/// The last timestamp made from a date, time of day and offset, and its
/// instant.
#[derive(Default)]
pub(super) struct Stamps {
    last: Option<(NaiveDate, NaiveTime, FixedOffset, Ts, i64)>,
    gate: Gate,
    /// The day and offset of the last stamp worked out, and the UTC
    /// seconds of that day's local midnight.
    day: Option<(NaiveDate, FixedOffset, i64)>,
}

impl Stamps {
    /// The timestamp of `date` and `tod` at `off`, as the clock makes it,
    /// and its instant (`instant`).
    #[inline]
    pub(super) fn get(&mut self, date: NaiveDate, tod: NaiveTime, off: FixedOffset) -> (Ts, i64) {
        let step = self.gate.next();
        if step == Use::Ask {
            let hit =
                matches!(self.last, Some((d, t, o, _, _)) if d == date && t == tod && o == off);
            self.gate.answer(hit);
            if hit && let Some((.., ts, at)) = self.last {
                return (ts, at);
            }
        }
        let (ts, at) = self.work_out(date, tod, off);
        if step != Use::Skip {
            self.last = Some((date, tod, off, ts, at));
        }
        (ts, at)
    }
}

impl Stamps {
    /// `stamp`, from the last day's midnight where the time of day in UTC
    /// falls on the same date, is no leap second, and the instant lies
    /// between 1970 and 2255: the calendar is not worked out again (lines
    /// of many threads have a new time on every line, on one day).
    #[inline]
    fn work_out(&mut self, date: NaiveDate, tod: NaiveTime, off: FixedOffset) -> (Ts, i64) {
        let shift = i64::from(off.local_minus_utc());
        let midnight = match self.day {
            Some((d, o, m)) if d == date && o == off => m,
            _ => {
                let m = date.and_time(NaiveTime::MIN).and_utc().timestamp() - shift;
                self.day = Some((date, off, m));
                m
            }
        };
        let (secs, frac) = (tod.num_seconds_from_midnight(), tod.nanosecond());
        let utc = i64::from(secs) - shift;
        let at = midnight + i64::from(secs);
        if frac < 1_000_000_000
            && (0..86_400).contains(&utc)
            && (0..9_000_000_000).contains(&at)
            && let Some(t) = NaiveTime::from_num_seconds_from_midnight_opt(utc as u32, frac)
        {
            let ts = DateTime::from_naive_utc_and_offset(date.and_time(t), off);
            return (ts, at * 1_000_000_000 + i64::from(frac));
        }
        stamp(date, tod, off)
    }
}

/// The timestamp of `date` and `tod` at `off` and its instant, worked out.
fn stamp(date: NaiveDate, tod: NaiveTime, off: FixedOffset) -> (Ts, i64) {
    let ts = match off.from_local_datetime(&date.and_time(tod)) {
        chrono::LocalResult::Single(t) => t,
        _ => off.from_utc_datetime(&date.and_time(tod)),
    };
    (ts, instant(&ts))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Names of every length up to 20 over a small alphabet (with NUL and
    /// a byte beyond ASCII), many alike.
    fn samples() -> Vec<Vec<u8>> {
        let mut out = vec![Vec::new()];
        let mut seed = 7u64;
        for n in 0..4000 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let len = (seed >> 59) as usize % 21;
            let pick = b"MQ\0\xe9a.";
            let name: Vec<u8> = (0..len)
                .map(|i| pick[((seed >> (i * 3 % 56)) as usize + n) % pick.len()])
                .collect();
            out.push(name);
        }
        out
    }

    #[test]
    fn name_keys_tell_names_apart() {
        let all = samples();
        let mut seen = std::collections::HashMap::new();
        for n in &all {
            match name_key(n) {
                None => assert!(n.len() > 16),
                Some(k) => {
                    assert!(n.len() <= 16);
                    if let Some(other) = seen.insert((k, n.len()), n.clone()) {
                        assert_eq!(&other, n, "two names, one key");
                    }
                }
            }
        }
        assert!(seen.len() > 1000);
    }

    #[test]
    fn calls_answer_as_interest_and_interner_do() {
        let interest = Interest::new(&["MQGET", "MQ"], &["a."], &[])
            .with_function_anchor("\u{e9}a", |f| f.len() > 5);
        for want in [Some(&interest), None] {
            let mut calls = Calls::default();
            let mut names = Interner::default();
            let mut plain = Interner::default();
            for _round in 0..3 {
                for n in samples() {
                    let f = String::from_utf8_lossy(&n).into_owned();
                    if let Some(i) = want {
                        assert_eq!(
                            calls.candidate(&f, i, &mut names),
                            i.candidate(f.as_bytes())
                        );
                    }
                    let got = calls.get(&f, want, &mut names);
                    let expect = want.is_none_or(|i| i.function(&f)).then(|| plain.get(&f));
                    assert_eq!(got.as_deref(), expect.as_deref(), "{f:?}");
                    if let Some(g) = &got {
                        // The interned name, as the interner gives it.
                        assert!(Arc::ptr_eq(g, &names.get(&f)));
                    }
                }
            }
        }
    }

    #[test]
    fn text_seen_answers_as_interest_does() {
        let interest = Interest::new(&[], &[], &["QTime(", "Reason="]);
        let mut seen = TextSeen::default();
        let long = format!("{} Reason=", "x".repeat(300));
        let texts = [
            "CompCode=2 Reason=2035",
            "CompCode=2 Reason=2035",
            "QTime(5)",
            "",
            "",
            "QTime",
            long.as_str(),
            long.as_str(),
            "CompCode=2 Reason=2035",
            "QTime",
            "MQGMO.Options=0x00000004",
            "MQGMO.Options=0x00000004",
            "Reason= Options=0x00000001",
        ];
        for (k, t) in texts.into_iter().enumerate() {
            if k % 2 == 0 {
                assert_eq!(
                    seen.candidate(&interest, t),
                    interest.candidate(t.as_bytes())
                );
            }
            assert_eq!(seen.wanted(&interest, t), interest.text(t), "{t:?}");
            assert_eq!(
                seen.candidate(&interest, t),
                interest.candidate(t.as_bytes())
            );
            let names = mqdiag_model::mqconst::in_text(t).map(|(_, n)| n);
            assert_eq!(seen.options(t), names.as_deref());
        }
    }

    /// A cache that always misses is asked in few look-ups; one that hits
    /// once in every three lines (a process's lines of one time) is
    /// asked in every one once it hits, whatever the place of the sample.
    #[test]
    fn gates_pause_where_caches_miss() {
        let mut g = Gate::default();
        let mut asked = 0;
        for _ in 0..10_000 {
            if g.next() == Use::Ask {
                asked += 1;
                g.answer(false);
            }
        }
        assert!(asked < 1000, "{asked}");
        for phase in 0..3 {
            // Paused, at every phase of the pattern.
            let mut g = Gate::default();
            for _ in 0..Gate::OFF_AFTER + phase {
                if g.next() == Use::Ask {
                    g.answer(false);
                }
            }
            let mut asked = 0;
            for k in 0..3000 {
                match g.next() {
                    Use::Ask => {
                        asked += 1;
                        g.answer(k % 3 != 0);
                    }
                    Use::Fill | Use::Skip => {}
                }
            }
            assert!(asked > 2900, "{phase}: {asked}");
        }
    }

    /// Paused and asked again over many stamps that mix repeats and new
    /// times, the stamps are those worked out alone.
    #[test]
    fn gated_stamps_are_those_worked_out() {
        let mut s = Stamps::default();
        let mut rng = mqdiag_model::testrng::Rng::new(13);
        let d = NaiveDate::from_ymd_opt(2024, 3, 10).unwrap();
        let (mut secs, mut skipped, mut hits) = (0u32, 0, 0);
        for k in 0..20_000 {
            // Runs of a new time on every line, and runs of repeats.
            if (k / 500) % 2 == 0 || rng.below(4) == 0 {
                secs = (secs + 1 + rng.below(3) as u32) % 86_400;
            }
            let date = d + chrono::Days::new(rng.below(2) as u64 * u64::from(k % 7 == 0));
            let tod = NaiveTime::from_num_seconds_from_midnight_opt(secs, 1000).unwrap();
            let off = FixedOffset::east_opt(3600 * (k / 5000)).unwrap();
            let step = s.gate.peek();
            skipped += usize::from(step == Use::Skip);
            let was = s.last.map(|(d, t, o, ..)| (d, t, o)) == Some((date, tod, off));
            hits += usize::from(step == Use::Ask && was);
            let (ts, at) = s.get(date, tod, off);
            assert_eq!((ts, at), stamp(date, tod, off));
            assert_eq!(ts.offset(), &off);
        }
        assert!(skipped > 2000 && hits > 2000, "{skipped} {hits}");
    }

    /// Stamps from the day's midnight are those chrono works out: days
    /// around 1970 and 2262, leap seconds, offsets that move the time of
    /// day across midnight either way.
    #[test]
    fn stamps_from_midnight_are_chronos() {
        let days = [
            (1677, 9, 21),
            (1969, 12, 31),
            (1970, 1, 1),
            (2024, 3, 10),
            (2255, 6, 5),
            (2262, 4, 11),
            (2262, 4, 12),
            (9999, 12, 31),
        ];
        let tods = [
            (0, 0),
            (0, 999_999_999),
            (3599, 5),
            (43_200, 1),
            (86_399, 999_999_999),
            (86_399, 1_500_000_000),
            (59, 1_000_000_000),
        ];
        let offs = [0, 1, 3600, -3600, 5 * 3600 + 1800, 86_399, -86_399];
        let mut s = Stamps::default();
        let mut fast = 0;
        for _round in 0..2 {
            for &(y, m, d) in &days {
                let date = NaiveDate::from_ymd_opt(y, m, d).unwrap();
                for &(secs, frac) in &tods {
                    let tod = NaiveTime::from_num_seconds_from_midnight_opt(secs, frac).unwrap();
                    for &o in &offs {
                        let off = FixedOffset::east_opt(o).unwrap();
                        let (ts, at) = s.work_out(date, tod, off);
                        let (want, want_at) = stamp(date, tod, off);
                        assert_eq!((ts, at), (want, want_at), "{date} {tod} {off}");
                        assert_eq!(ts.offset(), want.offset());
                        assert_eq!(ts.naive_local(), want.naive_local());
                        fast += usize::from(frac < 1_000_000_000 && at != i64::MAX);
                    }
                }
            }
        }
        assert!(fast > 300, "{fast}");
    }

    #[test]
    fn stamps_are_those_of_the_clock() {
        let mut s = Stamps::default();
        let d = NaiveDate::from_ymd_opt(2024, 3, 10).unwrap();
        for (day, secs, off) in [
            (0, 5, 3600),
            (0, 5, 3600),
            (0, 5, -18000),
            (1, 5, -18000),
            (1, 86399, 0),
            (1, 86399, 0),
        ] {
            let date = d + chrono::Days::new(day);
            let tod = NaiveTime::from_num_seconds_from_midnight_opt(secs, 1234).unwrap();
            let off = FixedOffset::east_opt(off).unwrap();
            let want = off
                .from_local_datetime(&date.and_time(tod))
                .single()
                .unwrap();
            let (got, at) = s.get(date, tod, off);
            assert_eq!(got, want);
            assert_eq!(got.offset(), want.offset());
            assert_eq!(at, instant(&want));
        }
    }
}
