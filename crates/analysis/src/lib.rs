//! mqdiag's analysis: the time-ordered merge of every source's events
//! (`timeline`), one pass per rule (`passes`), MQI call statistics
//! (`calls`) and the merged rows of the `timeline` verb (`rows`).

pub mod calls;
pub mod engine;
pub mod passes;
pub mod rows;
pub mod timeline;
