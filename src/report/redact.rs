//! `--redact` applied to a report: findings and the inputs table. The
//! `Redactor` itself is `crate::redact` (the timeline's rows use it too).

pub use crate::redact::{Cat, Redactor};

use crate::findings::{Finding, Metric};

/// Every string a finding shows.
pub fn finding(r: &Redactor, f: &mut Finding) {
    f.title = r.apply(&f.title);
    for s in f.subject.strings_mut() {
        *s = r.apply(s);
    }
    for (_, v) in f.metrics.0.iter_mut() {
        if let Metric::Str(s) = v {
            *s = r.apply(s);
        }
    }
    for e in &mut f.evidence {
        e.path = r.apply(&e.path);
        e.text = r.apply(&e.text);
    }
    f.advice = r.apply(&f.advice);
}
