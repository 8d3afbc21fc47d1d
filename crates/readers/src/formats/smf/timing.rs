//! Where a row goes on the timeline: the interval its counts cover, on the
//! LPAR clock.
//!
//! * 115 statistics: `Interval_Start` (LPAR local) for `Interval_Duration`
//!   seconds, truncated by the formatter, so the record time ends the
//!   interval when it falls in the truncated second.
//! * WTAS: `WTAS_Interval_Start` .. `WTAS_Interval_End` (STCK).
//! * WQ: its task's interval, from the WTAS row of the same record
//!   (`tasks`); the queue's `Open` time is only an attribute (a handle may
//!   be days old). Without that WTAS row in the run: the record time.
//! * QCST: from the instance's `Start` (STCK), but not before the previous
//!   collection of this queue manager, to `Stop` or `Collection_Time`.
//! * Everything else (WTID, QMAC, unknown 116 data): the record time.
//!
//! STCK values are moved to the LPAR clock with the estimated offset; with
//! no estimate a row falls back to its record time.
//!
//! Which clock a column is on was checked on the real files rather than
//! taken from the formatter's code (it renders every timestamp the same
//! way; the difference is in what MQ stores). LPAR local, like `Date` and
//! `Time`: 115 `Interval_Start` (1 to 1800 s before the record in files
//! whose STCK columns are 1 h behind, SMF_MQ1000, or 4 h ahead, TESTCHL)
//! and QCTDNS `Max_DNS_Request_Time` (inside its LPAR-local interval in
//! SMF_MQ1000); QCTSSL `Max_SSL_Request_Time` is the same field of the SSL
//! task (no sample has a value). Formatter's zone: `Collection_Time`,
//! `Start`, `Stop`, `Last_Msg`, `Open`, `Close`, `Start_Time`,
//! `WTAS_Interval_*`, QJST `IO_Max_Time{..}`. Unverified (no data): QQST
//! `Last_Put`/`Last_Get`, QCST `Net_Time_Max_Date`/`Exit_Time_Max_Date`.

use super::columns::Layout;
use super::row::Row;
use chrono::{Duration, NaiveDateTime};
use rustc_hash::FxBuildHasher;
use std::collections::HashMap;

/// Per-task memory is dropped beyond this many tasks (a rough ts is the
/// only cost).
const MAX_TASKS: usize = 100_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Timing {
    Interval,
    Wtas,
    Wq,
    Qcst,
    Point,
}

impl Timing {
    pub(crate) fn of(layout: &Layout) -> Timing {
        match layout.structure.as_str() {
            "WTAS" => Timing::Wtas,
            "WQ" => Timing::Wq,
            "QCST" => Timing::Qcst,
            _ if layout.has("Interval_Start (DATE)") => Timing::Interval,
            _ => Timing::Point,
        }
    }

    /// The STCK column written with the record, and whether it is written
    /// at the same moment (strong) or only usually close to it (weak).
    pub(crate) fn anchors(self) -> &'static [(&'static str, bool)] {
        match self {
            Timing::Qcst => &[("Collection_Time", true)],
            Timing::Wtas => &[("WTAS_Interval_End", true)],
            Timing::Wq => &[("Close", false)],
            _ => &[],
        }
    }

    pub(crate) fn needs_offset(self) -> bool {
        !self.anchors().is_empty()
    }
}

/// A row's place: start, end, the STCK offset used (seconds), and what
/// the start was taken from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Placed {
    pub(crate) ts: NaiveDateTime,
    pub(crate) end: Option<NaiveDateTime>,
    pub(crate) offset: Option<i32>,
    pub(crate) from: &'static str,
}

/// `ts_from` of a row placed at its record time.
pub(crate) const RECORD_TIME: &str = "Date/Time";

/// What the placement remembers between rows.
type Times = HashMap<String, (Option<NaiveDateTime>, NaiveDateTime), FxBuildHasher>;

#[derive(Debug, Default)]
pub(crate) struct Timer {
    /// (LPAR/QMgr) → (previous, current) collection time, QCST.
    collections: Times,
    /// The run's SMF evidence: its task intervals place WQ rows.
    clocks: Option<std::sync::Arc<super::survey::LparClocks>>,
    /// The key being looked up (every row has one: built in place).
    key: String,
}

/// `LPAR/QMgr/extra` into `k`.
fn key(k: &mut String, row: &Row, extra: Option<&str>) {
    k.clear();
    for p in ["LPAR", "QMgr"] {
        if let Some(v) = row.get(p) {
            k.push_str(&v);
        }
        k.push('/');
    }
    if let Some(e) = extra {
        k.push_str(e);
    }
}

/// Remember `now` as the latest time for `k`; the time before it.
fn advance(map: &mut Times, k: &str, now: NaiveDateTime) -> Option<NaiveDateTime> {
    if let Some(e) = map.get_mut(k) {
        if e.1 != now {
            *e = (Some(e.1), now);
        }
        return e.0;
    }
    if map.len() >= MAX_TASKS {
        map.clear();
    }
    map.insert(k.to_string(), (None, now));
    None
}

impl Timer {
    /// A timer that places WQ rows in the task intervals of `clocks`.
    pub(crate) fn with_tasks(clocks: Option<std::sync::Arc<super::survey::LparClocks>>) -> Timer {
        Timer {
            clocks,
            ..Timer::default()
        }
    }

    /// Place a row. Unreadable timestamps are described in `bad`.
    pub(crate) fn place(
        &mut self,
        timing: Timing,
        row: &Row,
        record: NaiveDateTime,
        offset: Option<i32>,
        bad: &mut Vec<String>,
    ) -> Placed {
        let point = Placed {
            ts: record,
            end: None,
            offset: None,
            from: RECORD_TIME,
        };
        let mut read = |base: &str| -> Option<NaiveDateTime> {
            match row.datetime(base) {
                Ok(v) => v,
                Err(what) => {
                    bad.push(what);
                    None
                }
            }
        };
        match timing {
            Timing::Point => point,
            Timing::Interval => {
                let Some(start) = read("Interval_Start") else {
                    return point;
                };
                // Garbage durations must not overflow the clock.
                let dur = row
                    .int("Interval_Duration")
                    .filter(|d| *d >= 0)
                    .and_then(Duration::try_seconds)
                    .and_then(|d| start.checked_add_signed(d));
                let end = match dur {
                    Some(e) => {
                        // The duration is truncated to whole seconds; the
                        // record is written right at the real end.
                        if record >= e && record < e + Duration::seconds(2) {
                            record
                        } else {
                            e
                        }
                    }
                    None => record.max(start),
                };
                Placed {
                    ts: start,
                    end: Some(end),
                    offset: None,
                    from: "Interval_Start",
                }
            }
            Timing::Wtas => {
                let Some(off) = offset else { return point };
                let sh = |t: NaiveDateTime| t - Duration::seconds(off.into());
                match (read("WTAS_Interval_Start"), read("WTAS_Interval_End")) {
                    (Some(s), Some(e)) if s <= e => Placed {
                        ts: sh(s),
                        end: Some(sh(e)),
                        offset: Some(off),
                        from: "WTAS_Interval_Start",
                    },
                    (Some(s), None) if sh(s) <= record => Placed {
                        ts: sh(s),
                        end: Some(record),
                        offset: Some(off),
                        from: "WTAS_Interval_Start",
                    },
                    _ => point,
                }
            }
            Timing::Wq => {
                let Some(off) = offset else { return point };
                let interval = self.clocks.as_ref().and_then(|c| {
                    let k = super::tasks::key(row, "Correlation")?;
                    c.task_intervals.get(&k).copied()
                });
                let Some((s, e)) = interval else { return point };
                let sh = |t: NaiveDateTime| t - Duration::seconds(off.into());
                Placed {
                    ts: sh(s),
                    end: Some(sh(e)),
                    offset: Some(off),
                    from: "WTAS_Interval_Start",
                }
            }
            Timing::Qcst => {
                let Some(off) = offset else { return point };
                let sh = |t: NaiveDateTime| t - Duration::seconds(off.into());
                let Some(coll) = read("Collection_Time").map(sh) else {
                    return point;
                };
                key(&mut self.key, row, None);
                let previous = advance(&mut self.collections, &self.key, coll);
                let start = read("Start").map(sh);
                let end = read("Stop").map(sh).filter(|s| *s <= coll).unwrap_or(coll);
                let (ts, from) = match (start, previous) {
                    // The counts restart at every collection.
                    (Some(s), Some(p)) if p > s && p <= end => (p, "previous collection"),
                    (Some(s), _) if s <= end => (s, "Start"),
                    (None, Some(p)) if p <= end => (p, "previous collection"),
                    _ => (
                        end,
                        if end == coll {
                            "Collection_Time"
                        } else {
                            "Stop"
                        },
                    ),
                };
                Placed {
                    ts,
                    end: Some(end),
                    offset: Some(off),
                    from,
                }
            }
        }
    }
}
