//! Before any record is read: the UTC offsets the text error logs of a run
//! state, for the JSON error logs beside them. A JSON record has only
//! `ibm_datetime` (UTC); the text log the same queue manager writes in the
//! same directory says, record by record, which offset its local clock had
//! (header time against `Time()`), so the JSON rows can show the wall clock
//! the people on that system read.

use super::prescan::{Plan, order_index, prescan};
use crate::input::Input;

/// Runs kept per directory or host (each file keeps at most `MAX_SEGS`).
const MAX_RUNS: usize = 16_384;

/// Runs of one UTC offset in the text error logs of a directory or host:
/// `(first, last, offset)`, UTC seconds and offset seconds, by `first`.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct OffsetRuns {
    pub(crate) runs: Vec<(i64, i64, i32)>,
    /// The text log that stated them (the first, by path).
    pub(crate) path: String,
}

impl OffsetRuns {
    /// The offset in force at `utc`: the run holding it, else the nearer
    /// of the runs before and after (a change between two runs happened
    /// somewhere in the gap; the nearer side is the better guess).
    pub(crate) fn at(&self, utc: i64) -> Option<i32> {
        let i = self.runs.partition_point(|r| r.0 <= utc);
        let before = i.checked_sub(1).map(|j| self.runs[j]);
        let after = self.runs.get(i).copied();
        match (before, after) {
            (Some(b), _) if utc <= b.1 => Some(b.2),
            (Some(b), Some(a)) => Some(if utc - b.1 <= a.0 - utc { b.2 } else { a.2 }),
            (Some(b), None) => Some(b.2),
            (None, Some(a)) => Some(a.2),
            (None, None) => None,
        }
    }
}

/// The offsets the text error logs of a run state, per directory (the JSON
/// log beside a text log is written by the same queue manager at the same
/// moments) and per writing host (`Host()`).
#[derive(Debug, Default, Clone)]
pub(crate) struct ErrlogClocks {
    pub(crate) by_dir: std::collections::BTreeMap<String, OffsetRuns>,
    pub(crate) by_host: std::collections::BTreeMap<String, OffsetRuns>,
}

impl ErrlogClocks {
    /// The offset for a record at `utc` of a JSON log in `dir` written by
    /// `host`, and the text log it comes from.
    pub(crate) fn at(&self, dir: &str, host: Option<&str>, utc: i64) -> Option<(i32, &str)> {
        let runs = self
            .by_dir
            .get(dir)
            .or_else(|| host.and_then(|h| self.by_host.get(&h.to_ascii_lowercase())))?;
        Some((runs.at(utc)?, runs.path.as_str()))
    }
}

/// The directory part of a display path (`case.zip/QM1/errors`), the key
/// the text and JSON logs of one queue manager share.
pub(crate) fn display_dir(display: &str) -> &str {
    display.rsplit_once(['/', '\\']).map_or("", |(d, _)| d)
}

/// The offsets stated by these text error logs, per directory and host.
/// Only called when the run has JSON error logs to place.
pub(crate) fn survey(
    inputs: &[&Input],
    forced: Option<crate::encoding::TextEncoding>,
) -> ErrlogClocks {
    let mut inputs = inputs.to_vec();
    inputs.sort_by(|a, b| a.display.cmp(&b.display));
    let mut out = ErrlogClocks::default();
    for input in inputs {
        let scan = prescan(input, forced);
        let plan = Plan::new(&scan);
        // The order of the file's most common header style decides which
        // reading of its dates the runs were taken from.
        let Some((style, _)) = scan
            .styles
            .iter()
            .max_by_key(|(s, e)| (e.all.count, std::cmp::Reverse(**s)))
        else {
            continue;
        };
        let Some(&order) = plan.orders.get(&(*style, None)) else {
            continue;
        };
        let runs: Vec<(i64, i64, i32)> = scan.segs[order_index(order)]
            .iter()
            .map(|s| {
                (
                    s.first_utc.and_utc().timestamp(),
                    s.last_utc.and_utc().timestamp(),
                    s.offset,
                )
            })
            .collect();
        if runs.is_empty() {
            continue;
        }
        let path = input.display.to_string();
        let dir = display_dir(&path).to_string();
        add(out.by_dir.entry(dir).or_default(), &runs, &path);
        if let Some(h) = &scan.host {
            add(
                out.by_host.entry(h.to_ascii_lowercase()).or_default(),
                &runs,
                &path,
            );
        }
    }
    out
}

fn add(to: &mut OffsetRuns, runs: &[(i64, i64, i32)], path: &str) {
    if to.path.is_empty() {
        to.path = path.to_string();
    }
    let room = MAX_RUNS.saturating_sub(to.runs.len());
    to.runs.extend(runs.iter().take(room));
    to.runs.sort_unstable();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(date: &str, time: &str) -> String {
        format!(
            "{date} - Process(1.1) User(u) Program(amqrmppa)\n                    Host(MQHOST1) VRMF(9.1.0.0)\n                    Time({time})\n\nAMQ9002I: Channel 'A' is starting.\n\nEXPLANATION:\nx\nACTION:\ny\n-------------------------------------------------------------------------------\n"
        )
    }

    #[test]
    fn offsets_of_a_log_across_a_dst_change() {
        let text = [
            rec("10/11/2018 10:46:25", "2018-10-11T08:46:25.924Z"),
            rec("10/27/2018 10:00:00", "2018-10-27T08:00:00.000Z"),
            rec("10/29/2018 10:00:00", "2018-10-29T09:00:00.000Z"),
        ]
        .concat();
        let input = Input::from_bytes("case/QM1/errors/AMQERR01.LOG", text.into_bytes());
        let c = survey(&[&input], None);
        let at = |s: &str| {
            let t = chrono::DateTime::parse_from_rfc3339(s).unwrap().timestamp();
            c.at("case/QM1/errors", None, t).map(|(o, _)| o / 3600)
        };
        assert_eq!(at("2018-10-11T08:46:25Z"), Some(2));
        assert_eq!(at("2018-10-20T00:00:00Z"), Some(2), "inside the first run");
        assert_eq!(at("2018-10-28T12:00:00Z"), Some(1), "nearer the later run");
        assert_eq!(at("2019-03-01T00:00:00Z"), Some(1), "after the last run");
        assert_eq!(at("2018-01-01T00:00:00Z"), Some(2), "before the first run");
        // Another directory of the same host: by the host.
        let t = chrono::DateTime::parse_from_rfc3339("2018-10-11T08:46:25Z")
            .unwrap()
            .timestamp();
        assert_eq!(
            c.at("other/dir", Some("mqhost1"), t).map(|x| x.0),
            Some(7200)
        );
        assert_eq!(c.at("other/dir", Some("elsewhere"), t), None);
        assert_eq!(c.at("other/dir", None, t), None);
    }
}
