//! The time window (`--since`/`--until`) events are kept in.

use mqdiag_model::event::Ts;
use mqdiag_model::fileinfo::FileInfo;

/// Inclusive time bounds. A bound written without an offset (`11:42`,
/// `2012-05-04 11:42`) and without `--tz` is a wall-clock time: each
/// event is compared on its own file's clock (the time the file shows),
/// so one window means the same minute in files written in different
/// zones. `since`/`until` hold the bound on the reference clock, for
/// display.
#[derive(Debug, Clone, Copy, Default)]
pub struct TimeWindow {
    pub since: Option<Ts>,
    pub until: Option<Ts>,
    /// `since` is a wall-clock time, read on each file's own clock.
    pub since_local: bool,
    /// `until` is a wall-clock time, read on each file's own clock.
    pub until_local: bool,
}

/// `t` as nanoseconds: of its instant, or of its wall clock (its local
/// date and time read as if UTC) when `local`.
fn window_key(t: &Ts, local: bool) -> i64 {
    let n = if local {
        t.naive_local().and_utc().timestamp_nanos_opt()
    } else {
        t.timestamp_nanos_opt()
    };
    n.unwrap_or(i64::MAX)
}

impl TimeWindow {
    /// Whether `t` is in the window. A record without a time
    /// (`event::undated`) cannot be shown to be in one: only when no
    /// window is set (`note_undated_left_out` tells the files').
    pub fn contains(&self, t: &Ts) -> bool {
        if !self.is_set() {
            return true;
        }
        if mqdiag_model::event::is_undated(t) {
            return false;
        }
        self.since
            .is_none_or(|s| window_key(t, self.since_local) >= window_key(&s, self.since_local))
            && self
                .until
                .is_none_or(|u| window_key(t, self.until_local) <= window_key(&u, self.until_local))
    }

    /// `contains` for a row: its instant in nanoseconds and its clock's
    /// offset in seconds (the caller tells rows without a time apart).
    pub fn contains_key(&self, instant: i64, offset_s: i32) -> bool {
        let at = |local: bool| {
            if local {
                instant.saturating_add(offset_s as i64 * 1_000_000_000)
            } else {
                instant
            }
        };
        self.since
            .is_none_or(|s| at(self.since_local) >= window_key(&s, self.since_local))
            && self
                .until
                .is_none_or(|u| at(self.until_local) <= window_key(&u, self.until_local))
    }

    pub fn is_set(&self) -> bool {
        self.since.is_some() || self.until.is_some()
    }

    /// Whether some time from `first` to `last` (one file's span, on its
    /// clock) is in the window.
    pub fn overlaps(&self, first: &Ts, last: &Ts) -> bool {
        self.since
            .is_none_or(|s| window_key(last, self.since_local) >= window_key(&s, self.since_local))
            && self.until.is_none_or(|u| {
                window_key(first, self.until_local) <= window_key(&u, self.until_local)
            })
    }

    /// Whether a bound is read on each file's own clock.
    pub fn is_local(&self) -> bool {
        (self.since.is_some() && self.since_local) || (self.until.is_some() && self.until_local)
    }

    /// The window for people: `2012-05-04T11:42:00 .. 2012-05-04T11:43:00
    /// (each file's own clock)`; a wall-clock bound without its offset.
    pub fn describe(&self) -> String {
        let show = |t: Option<Ts>, local: bool| match t {
            None => "…".to_string(),
            Some(t) if local => t.naive_local().format("%Y-%m-%dT%H:%M:%S%.f").to_string(),
            Some(t) => t.to_rfc3339(),
        };
        let mut s = format!(
            "{} .. {}",
            show(self.since, self.since_local),
            show(self.until, self.until_local)
        );
        if self.is_local() {
            s.push_str(" (each file's own clock)");
        }
        s
    }
}

/// A reading note on each file with records without a time when a window
/// is set: they cannot be shown to fall in it, so they were left out.
pub fn note_undated_left_out(infos: &mut [FileInfo], window: &TimeWindow) {
    if !window.is_set() {
        return;
    }
    for fi in infos.iter_mut().filter(|fi| fi.undated > 0) {
        fi.note(format!(
            "{} record(s) without a time left out: a time window cannot contain them",
            fi.undated
        ));
    }
}
