//! mqdiag's model: what every layer above shares and nothing of ours below.
//!
//! Events (`event`) with their times (`timefmt`), problems with inputs
//! (`problem`) and the facts of one input file (`fileinfo`), findings and
//! their fingerprints (`findings`), the row sink that renders events into
//! timeline rows (`sink`), redaction (`redact`), MQ reason codes (`mqrc`),
//! the text encodings a file can be in (`encoding`), a byte meter for
//! progress (`meter`), the `--since/--until` window (`timewindow`) and byte
//! and text helpers (`text`); the run's memory budget (`budget`).

mod attr_key;
pub mod budget;
pub mod encoding;
pub mod event;
pub mod fileinfo;
pub mod findings;
pub mod meter;
pub mod mqrc;
pub mod problem;
pub mod redact;
pub mod sink;
pub mod text;
pub mod timefmt;
pub mod timewindow;

/// A small deterministic random generator for the tests of every crate.
#[doc(hidden)]
pub mod testrng;
