//! mqdiag: an offline analyzer for IBM MQ diagnostics.
//!
//! Data flows one way:
//! `input` (discover) → `formats` (sniff, one reader per format) →
//! `event` (the one model) → `timeline` (dates, offsets, k-way merge) →
//! `passes` (one module per rule) → `findings` → `report` (one per format).
//! Imports only point down these layers (`docs/architecture.md` draws them;
//! `tests/layers.rs` fails on a cycle).

pub mod analyze;
pub mod calls;
pub mod catalog;
pub mod cli;
pub mod encoding;
pub mod event;
pub mod exit;
pub mod findings;
pub mod formats;
#[doc(hidden)]
pub mod fuzzing;
pub mod input;
pub mod lines;
pub mod meter;
pub mod mqrc;
pub mod outpath;
pub mod output;
pub mod passes;
pub mod progress;
pub mod redact;
pub mod report;
pub mod rows;
pub mod run;
pub mod sink;
pub mod source;
pub mod suggest;
#[cfg(test)]
mod testrng;
pub mod text;
pub mod timefmt;
pub mod timeline;
pub mod timewindow;
