//! How a report was made (the contract's JSON `run` object): rules only
//! run or skipped, thresholds set, `--tz`, baseline, redaction. Every
//! format states it, so a report made with rules skipped cannot pass for
//! the report of a healthy system.

use serde::Serialize;
use std::collections::BTreeMap;

#[derive(Debug, Clone, Default, Serialize)]
pub struct RunInfo {
    /// The command line, program name first (as `mqdiag`, not the path the
    /// binary was started by, so reports compare across installations).
    pub command: Vec<String>,
    pub(crate) only: Vec<String>,
    pub(crate) skip: Vec<String>,
    /// `RULE.KEY` → value as given.
    pub(crate) set: BTreeMap<String, String>,
    /// The `--tz` offset (`+01:00`), when given.
    pub(crate) tz: Option<String>,
    /// The baseline report's path, when given.
    pub baseline: Option<String>,
    pub(crate) redact: bool,
    /// The `--since`/`--until` window, when one was given.
    pub window: Option<Window>,
    /// What the run budget folded (the analysis's `folded`): shown as
    /// reading notes, not in `run`.
    #[serde(skip)]
    pub folded: Vec<String>,
}

/// A time window as given and as resolved (RFC 3339), each end optional.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Window {
    pub since: Option<String>,
    pub until: Option<String>,
    pub from: Option<String>,
    pub to: Option<String>,
    /// `file` when a bound without an offset is read on each file's own
    /// clock, `instant` otherwise.
    pub clock: &'static str,
}

impl Window {
    /// `--since 06:22 --until 06:23, read as 2025-...-04:00 .. 2025-...-04:00`
    fn line(&self) -> String {
        let given: Vec<String> = [("--since", &self.since), ("--until", &self.until)]
            .into_iter()
            .filter_map(|(k, v)| v.as_ref().map(|v| format!("{k} {v}")))
            .collect();
        let end = |t: &Option<String>| t.clone().unwrap_or_else(|| "…".to_string());
        let clock = if self.clock == "file" {
            " (times without an offset on each file's own clock)"
        } else {
            ""
        };
        format!(
            "time window: {}, read as {} .. {}{clock}",
            given.join(" "),
            end(&self.from),
            end(&self.to)
        )
    }
}

impl RunInfo {
    /// From the parsed options; `args` is the process's command line.
    pub fn new(
        args: impl IntoIterator<Item = String>,
        only: &[String],
        skip: &[String],
        set: &[String],
        tz: Option<String>,
        baseline: Option<String>,
        redact: bool,
    ) -> RunInfo {
        let mut command: Vec<String> = args.into_iter().collect();
        if let Some(first) = command.first_mut() {
            *first = "mqdiag".to_string();
        }
        let set = set
            .iter()
            .map(|s| match s.split_once('=') {
                Some((k, v)) => (k.trim().to_string(), v.trim().to_string()),
                None => (s.trim().to_string(), String::new()),
            })
            .collect();
        RunInfo {
            command,
            only: only.to_vec(),
            skip: skip.to_vec(),
            set,
            tz,
            baseline,
            redact,
            window: None,
            folded: Vec::new(),
        }
    }

    /// The rules and thresholds (one line per way they differ from every
    /// rule with default thresholds, a single line saying so when they do
    /// not), then the time window, `--tz`, baseline and redaction, so that
    /// every report says how it was made. `ran` is the number of rules
    /// that ran.
    pub(crate) fn lines(&self, ran: usize) -> Vec<String> {
        let mut out = self.rule_lines(ran);
        out.push(match &self.window {
            Some(w) => w.line(),
            None => "time window: all of the input (no --since/--until)".to_string(),
        });
        let mut plain = Vec::new();
        match &self.tz {
            Some(tz) => out.push(format!("files without a UTC offset read as {tz} (--tz)")),
            None => plain.push("no --tz (files without a UTC offset read as UTC)"),
        }
        match &self.baseline {
            Some(b) => out.push(format!("baseline: {b}")),
            None => plain.push("no baseline"),
        }
        if self.redact {
            out.push("names and addresses redacted".to_string());
        } else {
            plain.push("not redacted");
        }
        if !plain.is_empty() {
            out.push(plain.join(", "));
        }
        out
    }

    fn rule_lines(&self, ran: usize) -> Vec<String> {
        let mut out = Vec::new();
        if !self.only.is_empty() {
            out.push(format!("rules run only: {}", self.only.join(", ")));
        }
        if !self.skip.is_empty() {
            out.push(format!("rules skipped: {}", self.skip.join(", ")));
        }
        if !self.set.is_empty() {
            let kv: Vec<String> = self.set.iter().map(|(k, v)| format!("{k}={v}")).collect();
            out.push(format!("thresholds changed: {}", kv.join(", ")));
        }
        if out.is_empty() {
            out.push(format!("all {ran} rules ran with default thresholds"));
        } else if self.only.is_empty() && self.skip.is_empty() {
            out.insert(0, format!("all {ran} rules ran"));
        } else {
            out.insert(0, format!("{ran} rules ran"));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_what_differs_from_a_plain_run() {
        let plain = RunInfo::new(
            ["/usr/bin/mqdiag".to_string(), "analyze".to_string()],
            &[],
            &[],
            &[],
            None,
            None,
            false,
        );
        assert_eq!(plain.command, vec!["mqdiag", "analyze"]);
        assert_eq!(
            plain.lines(11),
            vec![
                "all 11 rules ran with default thresholds",
                "time window: all of the input (no --since/--until)",
                "no --tz (files without a UTC offset read as UTC), no baseline, not redacted"
            ]
        );
        let mut r = RunInfo::new(
            Vec::<String>::new(),
            &[],
            &["channel-error".into(), "tls-error".into()],
            &["tcp-send-stall.min_wait_ms=100".into()],
            Some("+01:00".into()),
            Some("old.json".into()),
            true,
        );
        r.window = Some(Window {
            since: Some("06:22".into()),
            until: None,
            from: Some("2025-03-14T06:22:00-04:00".into()),
            to: None,
            clock: "instant",
        });
        assert_eq!(
            r.lines(9),
            vec![
                "9 rules ran",
                "rules skipped: channel-error, tls-error",
                "thresholds changed: tcp-send-stall.min_wait_ms=100",
                "time window: --since 06:22, read as 2025-03-14T06:22:00-04:00 .. …",
                "files without a UTC offset read as +01:00 (--tz)",
                "baseline: old.json",
                "names and addresses redacted",
            ]
        );
        let v = serde_json::to_value(&r).unwrap();
        assert_eq!(v["set"]["tcp-send-stall.min_wait_ms"], "100");
        assert_eq!(v["tz"], "+01:00");
        assert!(v["only"].as_array().unwrap().is_empty());
        assert_eq!(v["window"]["since"], "06:22");
        assert!(v["window"]["until"].is_null());
    }
}
