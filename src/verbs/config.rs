//! `mqdiag config`: the configuration found in the inputs (qm.ini, mqs.ini,
//! mqclient.ini, MQSC dumps, config maps, CCDTs), per queue manager, each
//! fact with its file and line. Only configuration files are read.

use crate::cli::{ConfigArgs, ConfigFormat};
use crate::exit::{EXIT_OK, io_result};
use crate::outpath::infer;
use mqdiag_analysis::timeline::drain_all_jobs;
use mqdiag_model::event::FormatFamily;
use mqdiag_report::output::config;

pub fn run(a: ConfigArgs) -> Result<i32, String> {
    let format = match a.format {
        Some(f) => f,
        None => infer(
            a.input.output.as_deref(),
            &[
                ("txt", ConfigFormat::Text),
                ("text", ConfigFormat::Text),
                ("json", ConfigFormat::Json),
            ],
            "config",
        )?
        .unwrap_or(ConfigFormat::Text),
    };
    let mut out = a.input.writer()?;
    let redactor = a.input.learn_redaction(&[])?;
    let (sources, mut rows) = a.input.open_families(
        &[],
        &[FormatFamily::Config],
        &a.input.read_options(),
        a.input.progress_wanted(),
    )?;
    rows.extend(drain_all_jobs(sources, a.input.jobs()));
    rows.retain(|r| r.config.is_some());
    rows.sort_by(|x, y| x.path.cmp(&y.path));
    let mut qmgr = a.qmgr.clone();
    if let Some(r) = &redactor {
        for fi in &mut rows {
            mqdiag_analysis::engine::redact_input(r, fi);
        }
        qmgr = qmgr.map(|q| r.apply(&q));
    }
    let r = match format {
        ConfigFormat::Json => config::write_json(&mut out, &rows, qmgr.as_deref()),
        ConfigFormat::Text => config::write_text(
            &mut mqdiag_model::text::ControlEscaper(&mut out),
            &rows,
            qmgr.as_deref(),
        ),
    };
    io_result(r)?;
    io_result(out.finish())?;
    crate::run::reader_panic_check(&rows)?;
    Ok(EXIT_OK)
}
