//! `timeline --format parquet` (feature `parquet`): the merged events in
//! time order, filtered and redacted as every timeline is, written as
//! Parquet row groups while they stream (`mqdiag_report::parquet`).

use crate::cli::TimelineArgs;
use crate::outpath::Output;
use mqdiag_analysis::timeline::Merged;
use mqdiag_model::event::Origin;
use mqdiag_model::fileinfo::FileInfo;
use mqdiag_model::sink::RowSpec;
use mqdiag_readers::source::Source;
use mqdiag_report::parquet::ParquetRows;

pub fn write(
    a: &TimelineArgs,
    spec: RowSpec,
    sources: Vec<Box<dyn Source>>,
    out: &mut Output,
) -> Result<Vec<FileInfo>, String> {
    let io = |e: std::io::Error| format!("cannot write the Parquet file: {e}");
    let mut merged = Merged::with_jobs(sources, a.input.jobs());
    let window = a.input.window(merged.reference_ts().as_ref())?;
    let mut rows = ParquetRows::new().map_err(io)?;
    while let Some(e) = merged.next_ref() {
        if !window.contains(&e.ts) || !spec.wants(e) {
            continue;
        }
        match &spec.redact {
            Some(r) => {
                let mut e = e.clone();
                r.event(&mut e);
                e.origin = Origin::new(r.apply(e.path()).into(), e.format());
                rows.push(&e, out)
            }
            None => rows.push(e, out),
        }
        .map_err(io)?;
    }
    rows.finish(out).map_err(io)?;
    Ok(merged.finish())
}
