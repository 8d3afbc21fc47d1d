//! Renderers for the `timeline`, `inventory` and `config` verbs. (Findings reports
//! live in `report/`.)

pub mod config;
pub mod inventory;
pub mod timeline;
