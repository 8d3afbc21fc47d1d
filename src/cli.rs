//! The command line (clap derive) and the verbs' plumbing. `main.rs` only
//! calls `run`.

mod shell;

use crate::outpath::{Output, infer};
use crate::output::inventory;
use crate::output::timeline::{TimelineFormat, write_header};
use crate::rows::RowMerged;
use crate::sink::RowSpec;
use crate::source::ReadOptions;
use crate::timeline::drain_all_jobs;
use clap::{Args, Parser, Subcommand, ValueEnum};
use regex::Regex;
use std::io::{self, IsTerminal};
use std::sync::Arc;

pub use crate::exit::{EXIT_ERROR, EXIT_FINDINGS, EXIT_OK, io_result};

#[derive(Parser, Debug)]
#[command(
    name = "mqdiag",
    version,
    about = "Offline analyzer for IBM MQ diagnostics: traces, error logs, FDCs, SMF",
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    /// `mqdiag PATH...` is `mqdiag analyze PATH...`.
    #[command(flatten)]
    pub analyze: crate::analyze::AnalyzeArgs,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Findings report (the default verb).
    Analyze(crate::analyze::AnalyzeArgs),
    /// The merged, time-ordered event stream.
    Timeline(TimelineArgs),
    /// What was found: files, formats, time ranges, problems.
    Inventory(InventoryArgs),
    /// Every rule: id, default severity, trigger, thresholds, advice.
    Rules(crate::analyze::RulesArgs),
    /// Every MQI call in the traces: counts, failures, reason codes, timings.
    Calls(crate::calls::cmd::CallsArgs),
    /// Print a shell completion script (bash, zsh, fish, powershell, elvish).
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff): `mqdiag man > mqdiag.1`.
    Man,
}

pub use crate::run::InputArgs;

#[derive(Args, Debug)]
pub struct TimelineArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Row format (default: text, or from the `-o` file's extension).
    #[arg(long, value_enum)]
    pub format: Option<TimelineFormat>,
    /// Only events of this process id.
    #[arg(long)]
    pub pid: Option<u32>,
    /// Only events with this trace ident (`RSESS:00011e`).
    #[arg(long)]
    pub ident: Option<String>,
    /// Only events whose text or function matches this regular expression.
    #[arg(long)]
    pub grep: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum InventoryFormat {
    Text,
    Json,
}

#[derive(Args, Debug)]
pub struct InventoryArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Default: text, or from the `-o` file's extension.
    #[arg(long, value_enum)]
    pub format: Option<InventoryFormat>,
}

/// Parse the arguments and run; returns the exit code. A first argument
/// that is no path but looks like a mistyped verb is an error with a
/// suggestion, and help or usage that cannot be written is exit 2.
pub fn main_with<I: IntoIterator<Item = std::ffi::OsString>>(args: I) -> i32 {
    use clap::CommandFactory;
    let args: Vec<std::ffi::OsString> = args.into_iter().collect();
    if let Some(first) = args.get(1).and_then(|a| a.to_str()) {
        let cmd = Cli::command();
        let verbs: Vec<&str> = cmd.get_subcommands().map(|c| c.get_name()).collect();
        let exists = std::path::Path::new(first).exists();
        if let Some(v) = crate::suggest::verb_typo(first, &verbs, exists) {
            eprintln!(
                "mqdiag: `{first}` is neither a verb nor an existing path: did you mean `{v}`?"
            );
            return EXIT_ERROR;
        }
    }
    match Cli::try_parse_from(&args) {
        Ok(cli) => run(cli),
        Err(e) => {
            let code = e.exit_code();
            match e.print() {
                Ok(()) => code,
                Err(w) => {
                    eprintln!("mqdiag: cannot write output: {w}");
                    EXIT_ERROR
                }
            }
        }
    }
}

/// Run the command line; returns the exit code.
pub fn run(cli: Cli) -> i32 {
    let r = match cli.command {
        Some(Command::Timeline(a)) => timeline(a),
        Some(Command::Inventory(a)) => inventory_cmd(a),
        Some(Command::Analyze(a)) => crate::analyze::run(a),
        Some(Command::Rules(a)) => crate::analyze::rules(a),
        Some(Command::Calls(a)) => crate::calls::cmd::run(a),
        Some(Command::Completions { shell }) => {
            io_result(shell::completions(shell, &mut io::stdout().lock())).map(|_| EXIT_OK)
        }
        Some(Command::Man) => io_result(shell::man(&mut io::stdout().lock())).map(|_| EXIT_OK),
        None => crate::analyze::run(cli.analyze),
    };
    match r {
        Ok(code) => code,
        Err(msg) => {
            eprintln!("mqdiag: {msg}");
            EXIT_ERROR
        }
    }
}

fn timeline(a: TimelineArgs) -> Result<i32, String> {
    let grep = a
        .grep
        .as_deref()
        .map(Regex::new)
        .transpose()
        .map_err(|e| format!("--grep: {e}"))?;
    let format = match a.format {
        Some(f) => f,
        None => infer(
            a.input.output.as_deref(),
            &[
                ("txt", TimelineFormat::Text),
                ("text", TimelineFormat::Text),
                ("csv", TimelineFormat::Csv),
                ("jsonl", TimelineFormat::Jsonl),
            ],
            "timeline",
        )?
        .unwrap_or(TimelineFormat::Text),
    };
    let mut out = a.input.writer()?;
    // With `--redact`: a first pass learns every name, so the rows (which
    // stream) are redacted from the first one.
    let redact = a.input.learn_redaction(&[])?.map(Arc::new);
    // Events stream to the output as they are read: no progress line when
    // that output is the terminal too.
    let to_terminal = matches!(out, Output::Stdout(_)) && io::stdout().is_terminal();
    let (sources, _) = a
        .input
        .open_with_progress(a.input.progress_wanted() && !to_terminal)?;
    let spec = RowSpec {
        format,
        pid: a.pid,
        ident: a.ident.clone(),
        grep,
        redact,
    };
    // Rows are rendered by the workers; the merge only orders and copies.
    let mut merged = RowMerged::new(sources, Arc::new(spec), a.input.jobs());
    let window = a.input.window(merged.reference_ts().as_ref())?;
    let r = write_header(&mut out, format)
        .and_then(|_| merged.write_all(&mut out, &window))
        .and_then(|_| out.finish());
    io_result(r)?;
    Ok(EXIT_OK)
}

fn inventory_cmd(a: InventoryArgs) -> Result<i32, String> {
    let format = match a.format {
        Some(f) => f,
        None => infer(
            a.input.output.as_deref(),
            &[
                ("txt", InventoryFormat::Text),
                ("text", InventoryFormat::Text),
                ("json", InventoryFormat::Json),
            ],
            "inventory",
        )?
        .unwrap_or(InventoryFormat::Text),
    };
    let mut out = a.input.writer()?;
    // Only counts, times and problems are needed: no trace event is built.
    let opts = ReadOptions {
        interest: Some(std::sync::Arc::new(crate::source::Interest::nothing())),
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
            crate::run::redact_input(r, fi);
        }
    }
    let r = match format {
        InventoryFormat::Json => inventory::write_json(&mut out, &rows),
        InventoryFormat::Text => {
            inventory::write_text(&mut crate::text::ControlEscaper(&mut out), &rows)
        }
    }
    .and_then(|_| out.finish());
    io_result(r)?;
    Ok(EXIT_OK)
}
