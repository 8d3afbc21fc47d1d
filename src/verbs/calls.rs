//! `mqdiag calls`: read the traces once (only MQI entries, exits and
//! reason lines are built), aggregate, write the table.

use crate::cli::CallsArgs;
use crate::exit::{EXIT_OK, io_result};
use mqdiag_analysis::calls::VERBS;
use mqdiag_analysis::engine;
use mqdiag_report::calls::{self as render, CallsFormat};

pub fn run(a: CallsArgs) -> Result<i32, String> {
    for v in &a.verb {
        if !VERBS.iter().any(|k| k.eq_ignore_ascii_case(v.trim())) {
            return Err(format!(
                "--verb: `{v}` is not an MQI verb; the verbs are: {}",
                VERBS.join(", ")
            ));
        }
    }
    // An `-o` extension this verb cannot write is refused (exit 2), as
    // every other verb does, rather than given a text table.
    let table = [
        ("txt", CallsFormat::Text),
        ("text", CallsFormat::Text),
        ("csv", CallsFormat::Csv),
        ("json", CallsFormat::Json),
        ("md", CallsFormat::Markdown),
        ("markdown", CallsFormat::Markdown),
    ];
    let o = a.input.output.as_deref();
    let format = match a.format {
        Some(f) => crate::outpath::agree(
            CallsFormat::from(f),
            &crate::outpath::value_name(&f),
            o,
            &table,
        )?,
        None => crate::outpath::infer(o, &table, "calls")?.unwrap_or(CallsFormat::Text),
    };
    let opts = mqdiag_readers::source::ReadOptions {
        interest: Some(std::sync::Arc::new(mqdiag_analysis::calls::interest())),
        ..a.input.read_options()
    };
    // Opened first: an `-o` that would overwrite an input is refused
    // before anything is read.
    let mut out = a.input.writer()?;
    let skip: Vec<_> = a.input.output.iter().cloned().collect();
    // With `--redact`, names are learnt from everything first.
    let redactor = a.input.learn_redaction(&skip)?;
    let opened = a
        .input
        .open_except(&skip, &opts, a.input.progress_wanted())?;
    let verbs = (!a.verb.is_empty()).then(|| a.verb.iter().map(|v| v.trim().to_string()).collect());
    let mut watch = Windowed {
        teller: a.input.teller(),
        window: None,
    };
    let (rows, inputs) = engine::count_calls(
        opened,
        a.input.jobs(),
        &a.input.window_spec(),
        (a.by.into(), verbs),
        redactor.as_ref(),
        &mut watch,
    )
    .map_err(|e| e.to_string())?;
    let run = render::CallsRun {
        window: watch.window.filter(|w| w.is_set()).map(|w| w.describe()),
        redact: redactor.is_some(),
    };
    if engine::nothing_read(&inputs) {
        return Err(crate::run::nothing_read_error(&inputs));
    }
    // Process names and idents come from the inputs: their control
    // characters are shown, not acted on (JSON escapes its own).
    let width = crate::termwidth::for_output(a.input.output.as_deref());
    let r = match format {
        CallsFormat::Json => render::write(&mut out, &rows, a.by.into(), format, width, &run),
        _ => render::write(
            &mut mqdiag_model::text::ControlEscaper(&mut out),
            &rows,
            a.by.into(),
            format,
            width,
            &run,
        ),
    };
    io_result(r.and_then(|_| out.finish()))?;
    crate::run::reader_panic_check(&inputs)?;
    Ok(EXIT_OK)
}

/// The run's teller, keeping the window it was told for the output.
struct Windowed {
    teller: crate::run::Teller,
    window: Option<mqdiag_analysis::timeline::TimeWindow>,
}

impl engine::Watch for Windowed {
    fn window(&mut self, w: &mqdiag_analysis::timeline::TimeWindow) {
        self.teller.window(w);
        self.window = Some(*w);
    }
}
