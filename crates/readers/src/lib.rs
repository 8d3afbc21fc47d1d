//! Readers of IBM MQ diagnostics: finding inputs in directories and
//! archives (`input`), deciding their character set (`encoding`), one
//! reader per file format (`formats`), and the message catalogue
//! (`catalog`) that knows what an AMQ or CSQ message means.
//!
//! A reader turns a file into a time-ordered stream of
//! `mqdiag_model::event::Event`s behind the `source::Source` interface, and
//! reports what it could not read as located problems on the file's
//! `FileInfo`. `examples/read_case.rs` reads a case directory with this
//! crate alone.

pub mod catalog;
mod encoding;
pub mod formats;
pub mod guard;
pub mod input;
mod lines;
pub mod open;
pub mod source;
#[cfg(test)]
pub(crate) mod testkit;
