//! mqdiag's model: what every layer above shares and nothing of ours below.
//!
//! Events (`event`) with their times (`timefmt`), problems with inputs
//! (`problem`) and the facts of one input file (`fileinfo`), findings and
//! their fingerprints (`findings`), the row sink that renders events into
//! timeline rows (`sink`), redaction (`redact`), MQ reason codes (`mqrc`),
//! the text encodings a file can be in (`encoding`), a byte meter for
//! progress (`meter`), the `--since/--until` window (`timewindow`) and byte
//! and text helpers (`text`); the run's memory budget (`budget`).
//!
//! # Public API
//!
//! What the crates above, the binary and the tests use; everything else
//! is `pub(crate)`.
//!
//! - The event model (`event`): `Event` (time, origin, kind, text;
//!   attributes by typed `Key` with `get`/`set`, or by name with
//!   `attr`/`set_attr`), `Attrs`, `Origin`, `Kind`, `Ts`, `CatalogRow`,
//!   and `Format`, a handle on a reader's `FormatInfo` (`FormatFamily`
//!   picks the overview chart's lane).
//! - Problems and inputs: `problem::{Severity, ProblemCode, Problem}`,
//!   `fileinfo::FileInfo` (one inventory row with its problems).
//! - Findings (`findings`): `Finding` and its parts (`Subject`,
//!   `Evidence`, `EventRef`, `Metric`, `Metrics`, `Breakdown`,
//!   `EvidenceSet`), its charts (`Chart`, `Series`, `SeriesBuf`,
//!   `ClockCounts`, ...) and numbers for people (`thousands`,
//!   `human_ms`, ...).
//! - The row sink (`sink`): `RowSink`, `RowSpec`, `TimelineFormat`, and
//!   the pieces of a text row for the readers' fast paths
//!   (`RowRenderer`, `push_thread`, `push_plain_row_tail`,
//!   `push_elapsed`).
//! - Redaction (`redact`): `Redactor` (learn, `check` or `OverBudget`,
//!   `apply`, `load_map` or `MapError`, `map_json`), `Cat`.
//! - Time: `timewindow::resolve` (or `WindowError`), `timefmt` (RFC 3339,
//!   offsets, `orderable`).
//! - `encoding` (`TextEncoding`, `EncodingNote`), `text` (decoders,
//!   control escaping, widths), `mqrc` (reason codes), `mqconst` (MQI options
//!   and event reason qualifiers as data: `decode`, `field`, `qualifier`), `meter` (`Meter`,
//!   `Snapshot`), `budget` (memory and thread caps); `testrng` for tests.

mod attr_key;
pub mod budget;
pub mod config;
pub mod encoding;
pub mod event;
pub mod fileinfo;
pub mod findings;
pub mod meter;
pub mod mqconst;
pub mod mqrc;
pub mod problem;
pub mod redact;
pub mod runhash;
pub mod sink;
pub mod text;
pub mod timefmt;
pub mod timewindow;

/// A small deterministic random generator for the tests of every crate.
#[doc(hidden)]
pub mod testrng;
