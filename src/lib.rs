//! mqdiag: an offline analyzer for IBM MQ diagnostics.
//!
//! Data flows one way, crate by crate: `mqdiag_readers` (find inputs, sniff,
//! one reader per format) → `mqdiag_model` (the one event model) →
//! `mqdiag_analysis` (dates, offsets, k-way merge; one pass per rule) →
//! `mqdiag_report` (one module per report format). This crate is the
//! command line: it parses arguments, runs the verbs, draws progress and
//! owns the exit codes; it is the only one that prints.

pub mod alloc;
pub mod app;
pub mod cli;
pub mod exit;
#[doc(hidden)]
pub mod fuzzing;
pub mod outpath;
pub mod progress;
pub mod run;
pub mod suggest;
pub mod termwidth;
pub mod verbs;
