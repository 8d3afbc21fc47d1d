//! `calls --format json`: the contract's document, the rows as
//! `Row::to_json` writes them.

use mqdiag_analysis::calls::Row;
use std::io::{self, Write};

pub(crate) fn write(out: &mut dyn Write, rows: &[Row], run: &super::CallsRun) -> io::Result<()> {
    let v = serde_json::json!({
        "schema_version": 1,
        "rows": rows.iter().map(Row::to_json).collect::<Vec<_>>(),
        "run": {"window": run.window, "redact": run.redact},
    });
    // Raw DEL and C1 from inputs leave as `\u00XX` escapes.
    let mut w = mqdiag_model::text::JsonControlEscaper::new(&mut *out);
    serde_json::to_writer_pretty(&mut w, &v)?;
    w.finish()?;
    out.write_all(b"\n")
}
