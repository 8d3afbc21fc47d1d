//! mqdiag's analysis: the time-ordered merge of every source's events
//! (`timeline`), one pass per rule (`passes`), MQI call statistics
//! (`calls`) and the merged rows of the `timeline` verb (`rows`).

pub mod calls;
pub mod engine;
pub mod passes;
pub mod rows;
pub mod timeline;

// The layers below, under the names the analysis uses for them.
#[cfg(test)]
use mqdiag_model::testrng;
use mqdiag_model::{budget, event, fileinfo, findings, mqrc, problem, redact, sink, text, timefmt};
use mqdiag_readers::{catalog, formats, source};
