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
//!
//! # What a user of the crate calls
//!
//! Everything else is `pub(crate)` or private.
//!
//! - Opening a case: `open::open(&Request, &ReadOptions, &dyn Watch)`
//!   discovers every input under the request's paths (archives included),
//!   leaves out the files it names, reads identical files once and gives
//!   one `source::Source` per file or group, with rows for what could not
//!   be walked (`open::Opened`; `open::OpenError` when nothing could be
//!   opened). A `Watch` (`()` for none) sees the inputs found and the
//!   sources opened.
//! - In steps: `input::discover(paths)` finds the `input::Input`s
//!   (`Input::from_path`, `Input::from_bytes` make one), and
//!   `formats::open_all(inputs, &opts)` sniffs and opens them, each source
//!   under the panic guard. `formats::sniff(input)` names the reader that
//!   takes one input, `formats::READERS` is the table of every reader
//!   (`formats::Reader`), and `formats::LineReader<F>` is the reader of a
//!   line format such as `formats::errlog_text::ErrlogText`.
//! - Reading: `source::Source::next_event` until `None`, then `finish`
//!   for the files' facts; `next_rows` renders `timeline` rows into a
//!   `mqdiag_model::sink::RowSink`. `source::ReadOptions` holds `--tz`,
//!   `--date`, `--encoding`, the worker threads and `source::Parallel`;
//!   `source::Interest` says what the consumer reads (readers skip the
//!   rest); `ReadOptions::with_format_options` takes one format's own
//!   options (`formats::smf::SmfOptions`).
//! - Formats' handles, for telling events apart: `formats::<format>::FORMAT`
//!   (`errlog_text`, `errlog_json`, `container_log`, `joblog`, `fdc`,
//!   `smf`, `trace`, `binary_trace`).
//! - The message catalogue: `catalog::lookup(id)` and, for an event,
//!   `catalog::entry_of`, `role_of`, `reported_of`; `catalog::access`,
//!   `catalog::limits` (the messages and reason codes of two rules) and
//!   `catalog::functions` (traced functions by family); `catalog::split_host`
//!   and `is_ip` for the hosts messages name.
//! - `guard::has_reader_panic(infos)`: whether a reader panicked on a file
//!   (every verb then exits 2).
//! - `input::archive`'s limits (`MAX_RATIO`, `MAX_SPILL_BYTES`,
//!   `spill_limit`), which the command line's help states.

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
