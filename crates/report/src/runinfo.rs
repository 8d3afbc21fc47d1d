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
    pub only: Vec<String>,
    pub skip: Vec<String>,
    /// `RULE.KEY` → value as given.
    pub set: BTreeMap<String, String>,
    /// The `--tz` offset (`+01:00`), when given.
    pub tz: Option<String>,
    /// The baseline report's path, when given.
    pub baseline: Option<String>,
    pub redact: bool,
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
        }
    }

    /// One line per way this run differs from a plain run with every rule
    /// and default thresholds; a single line saying so when it does not.
    /// `ran` is the number of rules that ran.
    pub fn lines(&self, ran: usize) -> Vec<String> {
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
        if let Some(tz) = &self.tz {
            out.push(format!("files without a UTC offset read as {tz} (--tz)"));
        }
        if let Some(b) = &self.baseline {
            out.push(format!("baseline: {b}"));
        }
        if self.redact {
            out.push("names and addresses redacted".to_string());
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
            vec!["all 11 rules ran with default thresholds"]
        );
        let r = RunInfo::new(
            Vec::<String>::new(),
            &[],
            &["channel-error".into(), "tls-error".into()],
            &["tcp-send-stall.min_wait_ms=100".into()],
            Some("+01:00".into()),
            Some("old.json".into()),
            true,
        );
        assert_eq!(
            r.lines(9),
            vec![
                "9 rules ran",
                "rules skipped: channel-error, tls-error",
                "thresholds changed: tcp-send-stall.min_wait_ms=100",
                "files without a UTC offset read as +01:00 (--tz)",
                "baseline: old.json",
                "names and addresses redacted",
            ]
        );
        let v = serde_json::to_value(&r).unwrap();
        assert_eq!(v["set"]["tcp-send-stall.min_wait_ms"], "100");
        assert_eq!(v["tz"], "+01:00");
        assert!(v["only"].as_array().unwrap().is_empty());
    }
}
