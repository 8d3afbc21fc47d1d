//! `mqdiag inventory`: what was found, in which format, over which time,
//! and what is wrong with it. No trace event is built.

use crate::cli::{InventoryArgs, InventoryFormat};
use crate::exit::{EXIT_OK, io_result};
use crate::outpath::infer;
use mqdiag_analysis::timeline::drain_all_jobs;
use mqdiag_readers::source::ReadOptions;
use mqdiag_report::output::inventory;

pub fn run(a: InventoryArgs) -> Result<i32, String> {
    let table = [
        ("txt", InventoryFormat::Text),
        ("text", InventoryFormat::Text),
        ("json", InventoryFormat::Json),
    ];
    let o = a.input.output.as_deref();
    let format = match a.format {
        Some(f) => crate::outpath::agree(f, &crate::outpath::value_name(&f), o, &table)?,
        None => infer(o, &table, "inventory")?.unwrap_or(InventoryFormat::Text),
    };
    let mut out = a.input.writer()?;
    // Only counts, times and problems are needed: no trace event is built.
    let opts = ReadOptions {
        interest: Some(std::sync::Arc::new(
            mqdiag_readers::source::Interest::nothing(),
        )),
        ..a.input.read_options()
    };
    // With `--redact`, names are learnt from every event first (this
    // verb's own pass builds none).
    let redactor = a.input.learn_redaction(&[])?;
    let (sources, mut rows) = a.input.open_except(&[], &opts, a.input.progress_wanted())?;
    rows.extend(drain_all_jobs(sources, a.input.jobs()));
    rows.sort_by(|x, y| x.path.cmp(&y.path));
    if let Some(r) = &redactor {
        for fi in &mut rows {
            mqdiag_analysis::engine::redact_input(r, fi);
        }
    }
    let r = match format {
        InventoryFormat::Json => inventory::write_json(&mut out, &rows),
        InventoryFormat::Text => {
            inventory::write_text(&mut mqdiag_model::text::ControlEscaper(&mut out), &rows)
        }
    };
    io_result(r)?;
    // The inventory says why; an `-o` file is kept as it was.
    if mqdiag_analysis::engine::nothing_read(&rows) {
        if matches!(out, crate::outpath::Output::Stdout(_)) {
            io_result(out.finish())?;
        }
        return Err(crate::run::nothing_read_error(&rows));
    }
    io_result(out.finish())?;
    crate::run::reader_panic_check(&rows)?;
    Ok(EXIT_OK)
}
