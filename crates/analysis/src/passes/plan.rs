//! A run's rules and thresholds: `--only`, `--skip` and `--set` checked
//! against the registry, and what the readers must deliver for them.

use super::{Pass, RULES, RuleInfo, rule};
use std::collections::BTreeMap;

/// The thresholds in force for one rule: defaults with `--set` overrides.
#[derive(Debug, Clone)]
pub struct Settings {
    rule: &'static str,
    values: BTreeMap<&'static str, f64>,
}

impl Settings {
    pub(crate) fn defaults(info: &RuleInfo) -> Settings {
        Settings {
            rule: info.id,
            values: info.thresholds.iter().map(|t| (t.key, t.default)).collect(),
        }
    }

    /// A threshold's value. Asking for an undeclared key is a bug in the
    /// pass (the unit tests construct every pass, so it cannot ship).
    pub(crate) fn get(&self, key: &str) -> f64 {
        match self.values.get(key) {
            Some(v) => *v,
            None => panic!("rule {} has no threshold {key}", self.rule),
        }
    }

    pub(crate) fn set(&mut self, key: &'static str, v: f64) {
        self.values.insert(key, v);
    }
}

/// Why `--only`, `--skip` or `--set` was refused. Each message names the
/// bad part and what would have been accepted.
#[derive(Debug, Clone, PartialEq)]
pub enum PlanError {
    /// `--only` or `--skip` named no rule.
    UnknownRule(String),
    /// A `--set` that is not `RULE.KEY=VALUE`.
    SetForm(String),
    /// A `--set` whose rule is not there.
    SetUnknownRule { set: String, rule: String },
    /// A `--set` for a rule with no thresholds, or none of that key.
    NoThreshold {
        set: String,
        rule: String,
        key: String,
        keys: Vec<&'static str>,
    },
    /// A `--set` value that is not a finite number.
    NotANumber { set: String, value: String },
    /// A `--set` value outside the threshold's bounds.
    OutOfRange {
        set: String,
        rule: String,
        key: String,
        min: f64,
        max: f64,
    },
}

/// The rules' ids, for messages.
fn known() -> String {
    RULES.iter().map(|r| r.id).collect::<Vec<_>>().join(", ")
}

impl std::fmt::Display for PlanError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlanError::UnknownRule(id) => {
                write!(f, "unknown rule `{id}`; the rules are: {}", known())
            }
            PlanError::SetForm(s) => write!(f, "--set `{s}`: expected RULE.KEY=VALUE"),
            PlanError::SetUnknownRule { set, rule } => write!(
                f,
                "--set `{set}`: unknown rule `{rule}`; the rules are: {}",
                known()
            ),
            PlanError::NoThreshold {
                set, rule, keys, ..
            } if keys.is_empty() => write!(f, "--set `{set}`: rule `{rule}` has no thresholds"),
            PlanError::NoThreshold {
                set,
                rule,
                key,
                keys,
            } => write!(
                f,
                "--set `{set}`: rule `{rule}` has no threshold `{key}`; its thresholds are: {}",
                keys.join(", ")
            ),
            PlanError::NotANumber { set, value } => {
                write!(f, "--set `{set}`: `{value}` is not a number")
            }
            PlanError::OutOfRange {
                set,
                rule,
                key,
                min,
                max,
            } => write!(
                f,
                "--set `{set}`: {rule}.{key} must be between {min} and {max}"
            ),
        }
    }
}

impl std::error::Error for PlanError {}

/// Which rules run and with what thresholds.
#[derive(Clone)]
pub struct Plan {
    pub rules: Vec<(&'static RuleInfo, Settings)>,
}

impl Plan {
    /// Validate `--only`, `--skip` and `--set`; errors name the bad part
    /// and what would have been accepted.
    pub fn new(only: &[String], skip: &[String], sets: &[String]) -> Result<Plan, PlanError> {
        for id in only.iter().chain(skip) {
            if rule(id.trim()).is_none() {
                return Err(PlanError::UnknownRule(id.clone()));
            }
        }
        let mut settings: BTreeMap<&'static str, Settings> = RULES
            .iter()
            .map(|r| (r.id, Settings::defaults(r)))
            .collect();
        for s in sets {
            let form = || PlanError::SetForm(s.clone());
            let (lhs, value) = s.split_once('=').ok_or_else(form)?;
            let (rid, key) = lhs.trim().split_once('.').ok_or_else(form)?;
            let info = rule(rid).ok_or_else(|| PlanError::SetUnknownRule {
                set: s.clone(),
                rule: rid.to_string(),
            })?;
            let t = info
                .thresholds
                .iter()
                .find(|t| t.key == key)
                .ok_or_else(|| PlanError::NoThreshold {
                    set: s.clone(),
                    rule: rid.to_string(),
                    key: key.to_string(),
                    keys: info.thresholds.iter().map(|t| t.key).collect(),
                })?;
            let v: f64 = value
                .trim()
                .parse()
                .ok()
                .filter(|v: &f64| v.is_finite())
                .ok_or_else(|| PlanError::NotANumber {
                    set: s.clone(),
                    value: value.to_string(),
                })?;
            if v < t.min || v > t.max {
                return Err(PlanError::OutOfRange {
                    set: s.clone(),
                    rule: rid.to_string(),
                    key: key.to_string(),
                    min: t.min,
                    max: t.max,
                });
            }
            settings
                .get_mut(info.id)
                .expect("every rule has settings")
                .set(t.key, v);
        }
        let rules = RULES
            .iter()
            .filter(|r| only.is_empty() || only.iter().any(|o| o.trim() == r.id))
            .filter(|r| !skip.iter().any(|s| s.trim() == r.id))
            .map(|r| (*r, settings.remove(r.id).expect("settings")))
            .collect();
        Ok(Plan { rules })
    }

    pub(crate) fn ids(&self) -> Vec<&'static str> {
        self.rules.iter().map(|(r, _)| r.id).collect()
    }

    /// What the readers must deliver for these rules: the union of their
    /// trace functions and text keywords. Trace lines no rule reads are
    /// never turned into events.
    pub fn interest(&self) -> mqdiag_readers::source::Interest {
        let mut functions: Vec<&str> = Vec::new();
        let mut keywords: Vec<&str> = Vec::new();
        let mut suffixes: Vec<&str> = Vec::new();
        for (r, _) in &self.rules {
            for fam in r.functions {
                for s in mqdiag_readers::catalog::functions::suffixes_of(*fam) {
                    if !suffixes.contains(&s) {
                        suffixes.push(s);
                    }
                }
                for n in mqdiag_readers::catalog::functions::names_of(*fam) {
                    if !functions.contains(&n) {
                        functions.push(n);
                    }
                }
            }
            for k in r.keywords {
                if !keywords.contains(k) {
                    keywords.push(k);
                }
            }
        }
        // MQI calls and their stated reasons, when a rule that runs reads
        // them (the report's `calls` table is counted only then). The
        // verbs' names are found by what they all contain, not one by one.
        let calls = self.rules.iter().any(|(r, _)| r.mqi_calls);
        if calls {
            for k in crate::calls::KEYWORDS {
                if !keywords.contains(k) {
                    keywords.push(k);
                }
            }
        }
        let mut interest = mqdiag_readers::source::Interest::new(&functions, &[], &keywords)
            .with_function_suffixes(&suffixes);
        if calls {
            interest =
                interest.with_function_anchor(crate::calls::ANCHOR, crate::calls::traced_name);
        }
        interest
            .with_smf_columns(
                self.rules
                    .iter()
                    .flat_map(|(r, _)| r.smf_columns.iter().copied()),
            )
            .with_smf_columns(mqdiag_model::event::NAME_ATTRS.iter().copied())
    }

    pub(crate) fn passes(&self) -> Vec<Box<dyn Pass>> {
        let mut out: Vec<Box<dyn Pass>> = Vec::new();
        for (r, s) in &self.rules {
            let mut p = (r.make)(s);
            if !out.iter_mut().any(|o| o.absorb(p.as_mut())) {
                out.push(p);
            }
        }
        out
    }
}

impl std::fmt::Debug for Plan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.ids()).finish()
    }
}
