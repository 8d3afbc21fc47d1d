//! What a timeline writes besides its rows: the CSV header. The rows are
//! rendered where events are read, by `sink` (field names follow the
//! contract's "Timeline rows"; ECS and OTLP rows by `export`).

use mqdiag_model::sink::TimelineFormat;
use std::io::{self, Write};

pub(crate) const CSV_COLUMNS: [&str; 15] = [
    "ts",
    "end",
    "path",
    "line",
    "format",
    "pid",
    "tid",
    "ident",
    "kind",
    "function",
    "rc",
    "elapsed_us",
    "depth",
    "text",
    "attrs",
];

/// What comes before the first row: the CSV column names.
pub fn write_header(out: &mut dyn Write, format: TimelineFormat) -> io::Result<()> {
    if matches!(format, TimelineFormat::Csv) {
        let mut w = csv::WriterBuilder::new().from_writer(&mut *out);
        w.write_record(CSV_COLUMNS).map_err(io::Error::other)?;
        w.flush()?;
    }
    Ok(())
}
