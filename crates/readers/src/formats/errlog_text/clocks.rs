//! Before any record is read: the UTC offsets the text error logs of a run
//! state, for the JSON error logs beside them. A JSON record has only
//! `ibm_datetime` (UTC); the text log the same queue manager writes in the
//! same directory says, record by record, which offset its local clock had
//! (header time against `Time()`), so the JSON rows can show the wall clock
//! the people on that system read.

use super::prescan::{Plan, order_index, prescan};
use crate::input::Input;
use crate::source::{ErrlogClocks, OffsetRuns, display_dir};

/// Runs kept per directory or host (each file keeps at most `MAX_SEGS`).
const MAX_RUNS: usize = 16_384;

/// The offsets stated by these text error logs, per directory and host.
/// Only called when the run has JSON error logs to place.
pub fn survey(inputs: &[&Input], forced: Option<crate::encoding::TextEncoding>) -> ErrlogClocks {
    let mut inputs = inputs.to_vec();
    inputs.sort_by(|a, b| a.display.cmp(&b.display));
    let mut out = ErrlogClocks::default();
    for input in inputs {
        let plan = Plan::new(prescan(input, forced));
        // The order of the file's most common header style decides which
        // reading of its dates the runs were taken from.
        let Some((style, _)) = plan
            .scan
            .styles
            .iter()
            .max_by_key(|(s, e)| (e.all.count, std::cmp::Reverse(**s)))
        else {
            continue;
        };
        let Some(&order) = plan.orders.get(&(*style, None)) else {
            continue;
        };
        let runs: Vec<(i64, i64, i32)> = plan.scan.segs[order_index(order)]
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
        if let Some(h) = &plan.scan.host {
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
