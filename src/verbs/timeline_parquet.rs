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
    // Records without a time, by file: the Parquet `ts` column is
    // required, so they are left out and each file's row says so.
    let mut undated: Vec<(std::sync::Arc<str>, u64)> = Vec::new();
    while let Some(e) = merged.next_ref() {
        if !window.contains(&e.ts) || !spec.wants(e) {
            continue;
        }
        if e.is_undated() {
            match undated.last_mut() {
                Some((p, n)) if **p == *e.origin.path => *n += 1,
                _ => undated.push((e.origin.path.clone(), 1)),
            }
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
    let mut infos = merged.finish();
    mqdiag_analysis::timeline::note_undated_left_out(&mut infos, &window);
    for (path, n) in undated {
        if let Some(fi) = infos.iter_mut().find(|fi| *fi.path == *path) {
            fi.note(format!(
                "{n} record(s) without a time left out: a Parquet row needs one (`ts` is required)"
            ));
        }
    }
    Ok(infos)
}
