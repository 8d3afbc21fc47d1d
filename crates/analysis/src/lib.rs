//! mqdiag's analysis: the time-ordered merge of every source's events
//! (`timeline`), one pass per rule (`passes`), MQI call statistics
//! (`calls`) and the merged rows of the `timeline` verb (`rows`).
//!
//! # Public API
//!
//! What the report crate, the binary, the tests and the examples call;
//! everything else is `pub(crate)`.
//!
//! - `engine`, the analysis as one call: `analyze_paths` (open and
//!   analyse) or `analyze` (sources already opened; a `Watch` sees the
//!   window and every event), given `Options` (a `Plan`, the readers'
//!   `ReadOptions`, a `WindowSpec`, a redactor, a baseline), return an
//!   `Analysis` (inputs, findings, `CallsTables`, window) or an `Error`.
//!   Beside them `count_calls` (the `calls` verb), `learn_names`
//!   (`--redact`'s first pass), `each_event` (the merged events in the
//!   window, without the passes), `read_baseline`, and the inputs' facts
//!   (`nothing_read`, `reader_panic`, `redact_input`).
//! - `passes`: `Plan` (`Plan::new` checks `--only`, `--skip` and `--set`,
//!   else a `PlanError`; `Settings` are a rule's thresholds), `RULES` and
//!   `rule(id)`, each rule's `RuleInfo` (`Threshold`, `ChartKind`,
//!   `Order`). `Pass` and `Hook` stay inside: a rule is added in this
//!   crate (docs/architecture.md).
//! - `calls`: the MQI calls table, `Row` (`JsonRow`), `Key`, `Stats`,
//!   `ReasonStat`, `By`, `VERBS`, `interest()`, `process_text`.
//! - `timeline`: `Merged`, `TimeWindow`, `drain_all` and
//!   `drain_all_jobs` (the inventory), `left_out`.
//! - `rows`: `RowMerged`, the `timeline` verb's rows in time order.

pub mod calls;
pub mod engine;
pub(crate) mod explain;
pub mod passes;
pub mod rows;
pub mod timeline;
