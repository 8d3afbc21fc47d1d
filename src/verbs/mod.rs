//! One module per verb: each takes its parsed arguments (`cli`) and returns
//! an exit code, or an error message that `cli` prints (exit 2).

pub mod analyze;
pub mod calls;
pub mod compare;
pub mod config;
pub mod explain;
pub mod inventory;
pub mod rules;
pub mod timeline;
#[cfg(feature = "parquet")]
pub mod timeline_parquet;
