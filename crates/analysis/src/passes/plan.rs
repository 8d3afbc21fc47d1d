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
    pub fn defaults(info: &RuleInfo) -> Settings {
        Settings {
            rule: info.id,
            values: info.thresholds.iter().map(|t| (t.key, t.default)).collect(),
        }
    }

    /// A threshold's value. Asking for an undeclared key is a bug in the
    /// pass (the unit tests construct every pass, so it cannot ship).
    pub fn get(&self, key: &str) -> f64 {
        match self.values.get(key) {
            Some(v) => *v,
            None => panic!("rule {} has no threshold {key}", self.rule),
        }
    }

    pub fn set(&mut self, key: &'static str, v: f64) {
        self.values.insert(key, v);
    }
}

/// Which rules run and with what thresholds.
#[derive(Clone)]
pub struct Plan {
    pub rules: Vec<(&'static RuleInfo, Settings)>,
}

impl Plan {
    /// Validate `--only`, `--skip` and `--set`; errors name the bad part
    /// and what would have been accepted.
    pub fn new(only: &[String], skip: &[String], sets: &[String]) -> Result<Plan, String> {
        let known = || RULES.iter().map(|r| r.id).collect::<Vec<_>>().join(", ");
        for id in only.iter().chain(skip) {
            if rule(id.trim()).is_none() {
                return Err(format!("unknown rule `{id}`; the rules are: {}", known()));
            }
        }
        let mut settings: BTreeMap<&'static str, Settings> = RULES
            .iter()
            .map(|r| (r.id, Settings::defaults(r)))
            .collect();
        for s in sets {
            let (lhs, value) = s
                .split_once('=')
                .ok_or_else(|| format!("--set `{s}`: expected RULE.KEY=VALUE"))?;
            let (rid, key) = lhs
                .trim()
                .split_once('.')
                .ok_or_else(|| format!("--set `{s}`: expected RULE.KEY=VALUE"))?;
            let info = rule(rid).ok_or_else(|| {
                format!(
                    "--set `{s}`: unknown rule `{rid}`; the rules are: {}",
                    known()
                )
            })?;
            let t = info.thresholds.iter().find(|t| t.key == key).ok_or_else(|| {
                let keys: Vec<&str> = info.thresholds.iter().map(|t| t.key).collect();
                if keys.is_empty() {
                    format!("--set `{s}`: rule `{rid}` has no thresholds")
                } else {
                    format!(
                        "--set `{s}`: rule `{rid}` has no threshold `{key}`; its thresholds are: {}",
                        keys.join(", ")
                    )
                }
            })?;
            let v: f64 = value
                .trim()
                .parse()
                .ok()
                .filter(|v: &f64| v.is_finite())
                .ok_or_else(|| format!("--set `{s}`: `{value}` is not a number"))?;
            if v < t.min || v > t.max {
                let range = format!("between {} and {}", t.min, t.max);
                return Err(format!("--set `{s}`: {rid}.{key} must be {range}"));
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

    pub fn ids(&self) -> Vec<&'static str> {
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

    pub fn passes(&self) -> Vec<Box<dyn Pass>> {
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
