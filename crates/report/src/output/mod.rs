//! Renderers for the `timeline` and `inventory` verbs. (Findings reports
//! live in `report/`.)

pub mod inventory;
pub mod timeline;
