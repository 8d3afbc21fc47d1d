//! `--redact` for the reports: the `Redactor` is `mqdiag_model::redact`
//! (the timeline's rows use it too); a finding redacts itself
//! (`Finding::redact`), the analysis redacts the inputs' facts.

pub use mqdiag_model::redact::{Cat, Redactor};
