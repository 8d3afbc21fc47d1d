//! What the report's overview and error charts need, gathered from every
//! event as `analyze` reads them, in bounded memory: a fixed number of
//! time buckets per input file (widened by doubling as the case grows),
//! and channel/TLS errors in clock buckets per channel (coarsened when a
//! long case would need too many).

use mqdiag_model::event::Key;
use mqdiag_model::event::{Event, Format, Kind, Ts};
use mqdiag_model::findings::{Chart, ClockCounts};
use mqdiag_readers::catalog::{Family, entry_of};
use std::collections::HashMap;
use std::sync::Arc;

use super::overview::Lane;

/// Overview buckets per lane.
pub(crate) const BUCKETS: usize = 240;
/// Input files drawn as their own lane; the rest share one.
pub(crate) const MAX_LANES: usize = 24;
/// Channels (or hosts) counted apart in the error charts; the rest share
/// one series.
const FAMILY_NAMES: usize = 64;
/// Files whose lanes `Collector` finds by pointer.
const RECENT: usize = 8;
/// The narrowest overview bucket: traces of a fraction of a second still
/// get a picture.
const FIRST_BUCKET_US: i64 = 1_000;
struct LaneAcc {
    name: Arc<str>,
    format: Format,
    counts: Vec<u64>,
}

/// Sees every analysed event; `finish` gives what the charts draw.
pub struct Collector {
    t0: Option<Ts>,
    /// The UTC day of the latest event and nanoseconds from `t0` to its
    /// midnight: an event's offset is then its time of day plus that
    /// (`offset_us`), where chrono's subtraction of two times worked the
    /// dates out again for every event.
    day: Option<(chrono::NaiveDate, i64)>,
    bucket_us: i64,
    lanes: Vec<LaneAcc>,
    index: HashMap<Arc<str>, usize>,
    /// Lanes of the files seen last, by pointer: consecutive events come
    /// from a few files (two taking turns on a container console), and a
    /// pointer compare beats hashing the path. The paths are held, so a
    /// pointer cannot come back for another path while it is here.
    recent: Vec<(Arc<str>, usize)>,
    /// The entry of `recent` replaced next.
    recent_next: usize,
    channel: ClockCounts,
    tls: ClockCounts,
}

impl Default for Collector {
    fn default() -> Self {
        Collector::new()
    }
}

impl Collector {
    pub fn new() -> Collector {
        Collector {
            t0: None,
            day: None,
            bucket_us: FIRST_BUCKET_US,
            lanes: Vec::new(),
            index: HashMap::new(),
            recent: Vec::with_capacity(RECENT),
            recent_next: 0,
            // Errors are counted per minute at the finest, and the
            // channels apart up to `FAMILY_NAMES` (a chart shows the
            // busiest, or the one its finding is about).
            channel: ClockCounts::new(60).with_names(FAMILY_NAMES),
            tls: ClockCounts::new(60).with_names(FAMILY_NAMES),
        }
    }

    pub fn observe(&mut self, e: &Event) {
        let t0 = *self.t0.get_or_insert(e.ts);
        let off = self.offset_us(&t0, &e.ts);
        while off / self.bucket_us >= BUCKETS as i64 && self.bucket_us < i64::MAX / 4 {
            self.widen();
        }
        let b = ((off / self.bucket_us) as usize).min(BUCKETS - 1);
        let lane = self.lane(e);
        self.lanes[lane].counts[b] += 1;
        if e.kind == Kind::LogRecord {
            self.error(e);
        }
    }

    /// Microseconds from `t0` to `ts` (0 before it): `(ts - t0)` as
    /// chrono works it out, from the day's offset and the time of day.
    fn offset_us(&mut self, t0: &Ts, ts: &Ts) -> i64 {
        use chrono::Timelike;
        let exact = || (*ts - *t0).num_microseconds().unwrap_or(i64::MAX).max(0);
        let n = ts.naive_utc();
        let (date, time) = (n.date(), n.time());
        // A leap second (a nanosecond count past 10^9) is left to chrono.
        if time.nanosecond() >= 1_000_000_000 || t0.nanosecond() >= 1_000_000_000 {
            return exact();
        }
        let base = match self.day {
            Some((d, base)) if d == date => base,
            _ => {
                let Some(base) =
                    (date.and_time(chrono::NaiveTime::MIN) - t0.naive_utc()).num_nanoseconds()
                else {
                    return exact();
                };
                self.day = Some((date, base));
                base
            }
        };
        let of_day = i64::from(time.num_seconds_from_midnight()) * 1_000_000_000
            + i64::from(time.nanosecond());
        match base.checked_add(of_day) {
            // Truncated toward zero, as `num_microseconds`.
            Some(ns) => (ns / 1_000).max(0),
            None => exact(),
        }
    }

    fn lane(&mut self, e: &Event) -> usize {
        let path = &e.origin.path;
        if let Some((_, i)) = self.recent.iter().find(|(p, _)| Arc::ptr_eq(p, path)) {
            return *i;
        }
        let i = match self.index.get(path) {
            Some(i) => *i,
            None => {
                let i = self.lanes.len().min(MAX_LANES);
                if i == self.lanes.len() {
                    self.lanes.push(LaneAcc {
                        name: if i < MAX_LANES {
                            path.clone()
                        } else {
                            Arc::from("other files")
                        },
                        format: if i < MAX_LANES {
                            e.origin.format
                        } else {
                            Format::UNKNOWN
                        },
                        counts: vec![0; BUCKETS],
                    });
                }
                self.index.insert(path.clone(), i);
                i
            }
        };
        if self.recent.len() < RECENT {
            self.recent.push((path.clone(), i));
        } else {
            self.recent[self.recent_next] = (path.clone(), i);
            self.recent_next = (self.recent_next + 1) % RECENT;
        }
        i
    }

    fn widen(&mut self) {
        self.bucket_us *= 2;
        for l in &mut self.lanes {
            for i in 0..BUCKETS / 2 {
                l.counts[i] = l.counts[2 * i] + l.counts[2 * i + 1];
            }
            l.counts[BUCKETS / 2..].fill(0);
        }
    }

    /// Channel and TLS error records, chosen as the channel-error and
    /// tls-error rules choose them: the catalogue's family, else the
    /// family the reader gave a record it did not know (not informational).
    fn error(&mut self, e: &Event) {
        if e.get(Key::Msgid).is_none() {
            return;
        }
        let family = match entry_of(e) {
            Some(m) => m.family,
            None => {
                if e.get(Key::Severity) == Some("I") {
                    return;
                }
                match e.get(Key::Family) {
                    Some("channel") => Family::Channel,
                    Some("tls") => Family::Tls,
                    _ => return,
                }
            }
        };
        let target = match family {
            Family::Channel => &mut self.channel,
            Family::Tls => &mut self.tls,
            _ => return,
        };
        fn clean(v: Option<&str>) -> Option<&str> {
            v.map(str::trim)
                .filter(|s| !s.is_empty() && !s.starts_with("????"))
        }
        match (clean(e.get(Key::Channel)), clean(e.get(Key::Host))) {
            (Some(c), _) => target.add(&e.ts, c),
            (None, Some(h)) => target.add(&e.ts, &format!("host {h}")),
            (None, None) => target.add_static(&e.ts, "(no channel)"),
        }
    }

    pub fn finish(self) -> Collected {
        let bucket_us = self.bucket_us;
        let mut lanes: Vec<Lane> = self
            .lanes
            .into_iter()
            .map(|l| Lane {
                name: l.name.to_string(),
                kind: l.format.family(),
                counts: l.counts,
            })
            .collect();
        // In the inputs table's order (by path), the shared lane last.
        let other = (lanes.len() > MAX_LANES).then(|| lanes.pop()).flatten();
        lanes.sort_by(|a, b| a.name.cmp(&b.name));
        lanes.extend(other);
        Collected {
            t0: self.t0,
            bucket_us,
            lanes,
            channel_errors: self.channel,
            tls_errors: self.tls,
        }
    }
}

/// The overview lanes and the error charts, ready to draw.
#[derive(Debug, Clone, Default)]
pub struct Collected {
    /// The first event's time: the overview's bucket 0 starts there.
    pub(crate) t0: Option<Ts>,
    pub(crate) bucket_us: i64,
    pub(crate) lanes: Vec<Lane>,
    /// Channel and TLS error records per bucket and channel (or host).
    pub(crate) channel_errors: ClockCounts,
    pub(crate) tls_errors: ClockCounts,
}

impl Collected {
    /// The case's errors of a catalogue family over time, for the
    /// families counted here (channel and TLS): the busiest channels, with
    /// `focus` (the channel, or `host NAME`, a finding is about) first.
    pub fn family_errors(&self, family: Family, focus: &[String]) -> Option<Chart> {
        let (counts, title) = match family {
            Family::Channel => (
                &self.channel_errors,
                "Channel and network errors over time, by channel",
            ),
            Family::Tls => (&self.tls_errors, "TLS errors over time, by channel"),
            _ => return None,
        };
        let focus = focus
            .iter()
            .map(String::as_str)
            .find(|f| counts.names().iter().any(|n| n == f));
        let title = match focus {
            Some(f) => format!("{title} ('{f}' first)"),
            None => title.to_string(),
        };
        counts
            .clone()
            .ranked(&title, "errors", "other channels", focus)
    }

    /// Replace names (paths, channels, hosts) as `--redact` does elsewhere.
    pub fn redact(&mut self, mut f: impl FnMut(&str) -> String) {
        for l in &mut self.lanes {
            l.name = f(&l.name);
        }
        self.channel_errors.rename(&mut f);
        self.tls_errors.rename(&mut f);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mqdiag_model::event::{FormatFamily, Origin};
    use mqdiag_model::findings::{MAX_COUNT_SERIES, Style};

    fn ev(path: &Arc<Origin>, at: &str, kind: Kind, attrs: &[(&'static str, &str)]) -> Event {
        let ts = chrono::DateTime::parse_from_rfc3339(at).unwrap();
        let mut e = Event::new(ts, path.clone(), 1, kind, "x".into());
        for (k, v) in attrs {
            e.set_attr(k, *v);
        }
        e
    }

    #[test]
    fn offsets_are_what_chrono_subtraction_gives() {
        // Times around t0 and across days, offsets and leap seconds, in
        // and out of order, with sub-microsecond parts that truncate.
        let mut c = Collector::new();
        let t0 =
            chrono::DateTime::parse_from_rfc3339("2024-03-12T23:59:59.999999500+01:00").unwrap();
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for i in 0..20_000 {
            let span_ns = [1_000i64, 86_400_000_000_000, 400 * 86_400_000_000_000][i % 3];
            let d = (next() % (2 * span_ns as u64)) as i64 - span_ns / 2;
            let mut t = t0 + chrono::TimeDelta::nanoseconds(d);
            if i % 7 == 0 {
                t = t.with_timezone(&chrono::FixedOffset::west_opt(5 * 3600).unwrap());
            }
            if i % 1_000 == 0 {
                // A leap second.
                let n = chrono::NaiveDate::from_ymd_opt(2016, 12, 31)
                    .unwrap()
                    .and_hms_nano_opt(23, 59, 59, 1_500_000_000)
                    .unwrap();
                t = n.and_utc().fixed_offset();
            }
            let want = (t - t0).num_microseconds().unwrap_or(i64::MAX).max(0);
            assert_eq!(c.offset_us(&t0, &t), want, "{t} from {t0}");
        }
    }

    #[test]
    fn lanes_count_every_event_in_bounded_buckets() {
        let a = Origin::new(
            Arc::from("b/trace.FMT"),
            mqdiag_readers::formats::trace::FORMAT,
        );
        let b = Origin::new(
            Arc::from("a/AMQERR01.LOG"),
            mqdiag_readers::formats::errlog_text::FORMAT,
        );
        let mut c = Collector::new();
        let t0 = chrono::DateTime::parse_from_rfc3339("2026-11-25T11:00:00+01:00").unwrap();
        // Ten hours, one event a second in one file: the buckets widen.
        for i in 0..36_000 {
            let mut e = ev(&a, "2026-11-25T11:00:00+01:00", Kind::Entry, &[]);
            e.ts = t0 + chrono::Duration::seconds(i);
            c.observe(&e);
        }
        c.observe(&ev(&b, "2026-11-25T20:59:59+01:00", Kind::LogRecord, &[]));
        let r = c.finish();
        assert_eq!(r.lanes.len(), 2);
        assert_eq!(r.lanes[0].name, "a/AMQERR01.LOG");
        assert_eq!(r.lanes[0].kind, FormatFamily::ErrorLog);
        assert_eq!(r.lanes[1].counts.iter().sum::<u64>(), 36_000);
        assert!(r.lanes.iter().all(|l| l.counts.len() == BUCKETS));
        assert!(r.bucket_us as f64 * BUCKETS as f64 >= 36_000e6);
        assert!((r.bucket_us as f64) < 36_000e6 / BUCKETS as f64 * 2.0);
    }

    /// Files taking turns, more of them than `recent` holds, and a path
    /// read again through a second origin: each event in its file's lane.
    #[test]
    fn files_taking_turns_count_in_their_own_lanes() {
        let files: Vec<_> = (0..RECENT + 4)
            .map(|i| {
                Origin::new(
                    Arc::from(format!("f{i:02}.log")),
                    mqdiag_readers::formats::container_log::FORMAT,
                )
            })
            .collect();
        let again = Origin::new(
            Arc::from("f00.log"),
            mqdiag_readers::formats::container_log::FORMAT,
        );
        let mut c = Collector::new();
        for round in 0..50 {
            for (i, o) in files.iter().enumerate() {
                // Some files more often than others, out of step.
                for _ in 0..=(i + round) % 3 {
                    c.observe(&ev(o, "2026-11-25T11:00:00Z", Kind::Text, &[]));
                }
            }
            c.observe(&ev(&again, "2026-11-25T11:00:00Z", Kind::Text, &[]));
        }
        let r = c.finish();
        assert_eq!(r.lanes.len(), RECENT + 4);
        for (i, l) in r.lanes.iter().enumerate() {
            let want: u64 = (0..50)
                .map(|round| ((i + round) % 3 + 1) as u64)
                .sum::<u64>()
                + if i == 0 { 50 } else { 0 };
            assert_eq!(l.name, format!("f{i:02}.log"));
            assert_eq!(l.counts.iter().sum::<u64>(), want, "{}", l.name);
        }
    }

    #[test]
    fn many_files_share_the_last_lane() {
        let mut c = Collector::new();
        for i in 0..MAX_LANES + 5 {
            let o = Origin::new(
                Arc::from(format!("f{i:02}.FMT")),
                mqdiag_readers::formats::trace::FORMAT,
            );
            c.observe(&ev(&o, "2026-11-25T11:00:00Z", Kind::Entry, &[]));
        }
        let r = c.finish();
        assert_eq!(r.lanes.len(), MAX_LANES + 1);
        assert_eq!(r.lanes.last().unwrap().name, "other files");
        assert_eq!(r.lanes.last().unwrap().counts[0], 5);
    }

    #[test]
    fn channel_errors_per_bucket_by_channel() {
        let o = Origin::new(
            Arc::from("AMQERR01.LOG"),
            mqdiag_readers::formats::errlog_text::FORMAT,
        );
        let mut c = Collector::new();
        let rec = |at, id, ch| {
            ev(
                &o,
                at,
                Kind::LogRecord,
                &[("msgid", id), ("channel", ch), ("host", "h1")],
            )
        };
        c.observe(&rec("2026-11-25T11:00:10Z", "AMQ9209E", "TO.QM2"));
        c.observe(&rec("2026-11-25T11:00:50Z", "AMQ9209E", "TO.QM2"));
        c.observe(&rec("2026-11-25T11:03:00Z", "AMQ9206E", "TO.QM3"));
        c.observe(&rec("2026-11-25T11:03:00Z", "AMQ9206E", "????"));
        // Informational and non-channel messages are not errors here.
        c.observe(&rec("2026-11-25T11:04:00Z", "AMQ8003I", "TO.QM2"));
        let r = c.finish();
        let ch = r.family_errors(Family::Channel, &[]).unwrap();
        assert_eq!(ch.bucket_s, 60);
        assert_eq!(ch.style, Style::Bars);
        let names: Vec<&str> = ch.series.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["TO.QM2", "TO.QM3", "host h1"]);
        assert_eq!(ch.series[0].points.len(), 1);
        assert_eq!(ch.series[0].points[0].1, 2.0);
        assert_eq!(
            ch.series[0].points[0].0.to_rfc3339(),
            "2026-11-25T11:00:00+00:00"
        );
        assert!(r.family_errors(Family::Tls, &[]).is_none());
    }

    #[test]
    fn long_error_spans_use_wider_buckets() {
        let o = Origin::new(
            Arc::from("AMQERR01.LOG"),
            mqdiag_readers::formats::errlog_text::FORMAT,
        );
        let mut c = Collector::new();
        let t0 = chrono::DateTime::parse_from_rfc3339("2026-11-01T00:30:00+05:30").unwrap();
        // Thirty days, one error every ten minutes, twelve channels.
        for i in 0..30 * 144 {
            let mut e = ev(
                &o,
                "2026-11-01T00:30:00+05:30",
                Kind::LogRecord,
                &[("msgid", "AMQ9209E")],
            );
            e.set(Key::Channel, format!("CH{}", i % 12));
            e.ts = t0 + chrono::Duration::minutes(10 * i);
            c.observe(&e);
        }
        let r = c.finish();
        let ch = r.family_errors(Family::Channel, &[]).unwrap();
        assert!(ch.bucket_s >= 21_600, "{}", ch.bucket_s);
        assert_eq!(ch.series.len(), MAX_COUNT_SERIES + 1);
        assert_eq!(ch.series.last().unwrap().name, "other channels");
        let total: f64 = ch.series.iter().flat_map(|s| &s.points).map(|p| p.1).sum();
        assert_eq!(total, (30 * 144) as f64);
        // Buckets start at local midnight or hours of +05:30.
        let t = ch.series[0].points[0].0;
        assert_eq!(t.offset().local_minus_utc(), 5 * 3600 + 1800);
        assert_eq!(t.format("%M:%S").to_string(), "00:00");
        // A finding about a channel not among the busiest still sees it,
        // first; the others stay the busiest.
        let ch = r
            .family_errors(Family::Channel, &["CH11".to_string()])
            .unwrap();
        assert_eq!(ch.series[0].name, "CH11");
        assert!(ch.title.ends_with("('CH11' first)"), "{}", ch.title);
        assert_eq!(ch.series.len(), MAX_COUNT_SERIES + 1);
        let total: f64 = ch.series.iter().flat_map(|s| &s.points).map(|p| p.1).sum();
        assert_eq!(total, (30 * 144) as f64);
        // Unknown focus: the plain chart.
        let plain = r
            .family_errors(Family::Channel, &["NOPE".to_string()])
            .unwrap();
        assert!(!plain.title.contains("first"));
    }

    #[test]
    fn the_busiest_channels_are_named_not_the_first_met() {
        let o = Origin::new(
            Arc::from("AMQERR01.LOG"),
            mqdiag_readers::formats::errlog_text::FORMAT,
        );
        let mut c = Collector::new();
        let t0 = chrono::DateTime::parse_from_rfc3339("2026-11-01T00:00:00Z").unwrap();
        // Ten quiet channels first, then one busy one.
        let mut i = 0;
        let mut add = |ch: &str| {
            let mut e = ev(
                &o,
                "2026-11-01T00:00:00Z",
                Kind::LogRecord,
                &[("msgid", "AMQ9209E")],
            );
            e.set(Key::Channel, ch);
            e.ts = t0 + chrono::Duration::minutes(i);
            i += 1;
            c.observe(&e);
        };
        for q in 0..10 {
            add(&format!("QUIET{q}"));
        }
        for _ in 0..50 {
            add("BUSY");
        }
        let ch = c.finish().family_errors(Family::Channel, &[]).unwrap();
        assert_eq!(ch.series[0].name, "BUSY");
        assert_eq!(ch.series.last().unwrap().name, "other channels");
    }

    #[test]
    fn redaction_reaches_names() {
        let o = Origin::new(
            Arc::from("secret/AMQERR01.LOG"),
            mqdiag_readers::formats::errlog_text::FORMAT,
        );
        let mut c = Collector::new();
        c.observe(&ev(
            &o,
            "2026-11-25T11:00:10Z",
            Kind::LogRecord,
            &[("msgid", "AMQ9209E"), ("channel", "SECRET.CH")],
        ));
        let mut r = c.finish();
        r.redact(|s| s.replace("secret", "x").replace("SECRET", "X"));
        assert_eq!(r.lanes[0].name, "x/AMQERR01.LOG");
        let ch = r.family_errors(Family::Channel, &[]).unwrap();
        assert_eq!(ch.series[0].name, "X.CH");
    }
}
