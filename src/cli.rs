//! The command line (clap derive) and the verbs' plumbing. `main.rs` only
//! calls `run`.

use crate::event::Ts;
use crate::formats::open_all;
use crate::input::discover_with;
use crate::outpath::{Output, infer};
use crate::output::inventory;
use crate::output::timeline::{TimelineFormat, write_header};
use crate::progress::Progress;
use crate::rows::{RowMerged, RowSpec};
use crate::source::{FileInfo, ReadOptions, Source};
use crate::timefmt::parse_offset;
use crate::timeline::{Merged, drain_all_jobs};
use chrono::{FixedOffset, NaiveDate};
use clap::{Args, Parser, Subcommand, ValueEnum};
use regex::Regex;
use std::io::{self, IsTerminal};
use std::path::PathBuf;
use std::sync::Arc;
use std::thread;

/// Exit codes (contract).
pub const EXIT_OK: i32 = 0;
pub const EXIT_FINDINGS: i32 = 1;
pub const EXIT_ERROR: i32 = 2;

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
    /// Print a shell completion script (bash, zsh, fish, powershell, elvish).
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff): `mqdiag man > mqdiag.1`.
    Man,
}

/// Options shared by every verb that reads input.
#[derive(Args, Debug, Clone, Default)]
pub struct InputArgs {
    /// Files, directories (searched recursively) or archives. Default: `.`
    pub paths: Vec<PathBuf>,
    /// UTC offset (±HH:MM) for files that state none.
    #[arg(long, value_parser = parse_tz, allow_hyphen_values = true)]
    pub tz: Option<FixedOffset>,
    /// Date (YYYY-MM-DD) for trace files that state none (`dspmqtrc -h`).
    #[arg(long)]
    pub date: Option<NaiveDate>,
    /// Only events at or after this time: RFC 3339, `YYYY-MM-DD HH:MM[:SS]`,
    /// a date (from its start) or `HH:MM[:SS]` on the first day of the
    /// input; local forms in --tz, else in the first event's offset.
    #[arg(long)]
    pub since: Option<String>,
    /// Only events at or before this time (the same forms; a date means to
    /// its end).
    #[arg(long)]
    pub until: Option<String>,
    /// Write to this file instead of standard output (`-`: standard
    /// output). Never an input; replaced only when the run succeeds.
    #[arg(short = 'o', long)]
    pub output: Option<PathBuf>,
    /// No progress or notes on standard error.
    #[arg(short, long)]
    pub quiet: bool,
    /// Worker threads that read and parse input, 1 to 256 (default: the
    /// number of cores). `-j 1` reads everything on one thread; the output is the same.
    #[arg(short = 'j', long = "jobs", value_parser = parse_jobs)]
    pub jobs: Option<usize>,
}

/// `-j`: more workers than this only cost memory (each holds read buffers).
fn parse_jobs(s: &str) -> Result<usize, String> {
    s.parse::<usize>()
        .ok()
        .filter(|n| (1..=256).contains(n))
        .ok_or_else(|| format!("`{s}` is not a number of workers between 1 and 256"))
}

fn parse_tz(s: &str) -> Result<FixedOffset, String> {
    parse_offset(s).ok_or_else(|| format!("`{s}` is not a UTC offset like +01:00 or -05:00"))
}

impl InputArgs {
    pub fn read_options(&self) -> ReadOptions {
        ReadOptions {
            tz: self.tz,
            date: self.date,
            interest: None,
            read_buffer: 0,
            hold_budget: 0,
            jobs: self.jobs(),
            parallel: Default::default(),
        }
    }

    pub fn jobs(&self) -> usize {
        self.jobs
            .unwrap_or_else(|| thread::available_parallelism().map_or(1, |n| n.get()))
            .max(1)
    }

    /// All sources merged into one time-ordered stream.
    pub fn merged(&self, sources: Vec<Box<dyn Source>>) -> Merged {
        Merged::with_jobs(sources, self.jobs())
    }

    pub fn paths(&self) -> Vec<PathBuf> {
        if self.paths.is_empty() {
            vec![PathBuf::from(".")]
        } else {
            self.paths.clone()
        }
    }

    /// Whether a progress line may be drawn: standard error is a terminal
    /// and `--quiet` is absent.
    pub fn progress_wanted(&self) -> bool {
        !self.quiet && io::stderr().is_terminal()
    }

    /// Discover and open every input (archives included), with a progress
    /// line on standard error when `progress_wanted()`. The line clears
    /// itself once every source has finished, or when the sources are
    /// dropped. Errors when there is nothing to read.
    pub fn open(&self) -> Result<Opened, String> {
        self.open_with_progress(self.progress_wanted())
    }

    /// As `open`, with the progress line only when `progress` is true.
    pub fn open_with_progress(&self, progress: bool) -> Result<Opened, String> {
        self.open_except(&[], &self.read_options(), progress)
    }

    /// As `open_with_progress`, with these reading options, leaving out
    /// these files (the report being written, a baseline report) when
    /// discovery finds them.
    pub fn open_except(
        &self,
        skip: &[PathBuf],
        opts: &ReadOptions,
        progress: bool,
    ) -> Result<Opened, String> {
        let progress = progress.then(Progress::begin);
        let mut found = discover_with(&self.paths(), progress.as_ref().map(|p| p.meter()));
        let skip: Vec<PathBuf> = skip
            .iter()
            .filter_map(|p| std::fs::canonicalize(p).ok())
            .collect();
        if !skip.is_empty() {
            found.inputs.retain(|i| match &i.location {
                crate::input::Location::File(p) => std::fs::canonicalize(p)
                    .map(|c| !skip.contains(&c))
                    .unwrap_or(true),
                _ => true,
            });
        }
        if found.inputs.is_empty() {
            let why: Vec<String> = found
                .problems
                .iter()
                .flat_map(|f| {
                    f.problems
                        .iter()
                        .map(move |p| format!("{}: {}", f.path, p.message))
                })
                .collect();
            return Err(if why.is_empty() {
                "no input files found".to_string()
            } else {
                format!("no readable input: {}", why.join("; "))
            });
        }
        if let Some(p) = &progress {
            p.reading(&mut found.inputs);
        }
        let sources = open_all(found.inputs, opts);
        let sources = match progress {
            Some(p) => p.track(sources),
            None => sources,
        };
        Ok((sources, found.problems))
    }

    /// Open the output: the `-o` file (`-` is standard output) or standard
    /// output. Refused when it is an input (see `outpath::check`); call it
    /// before reading anything, and `finish` it at the end.
    pub fn writer(&self) -> Result<Output, String> {
        Output::open(self.output.as_deref(), &self.paths())
    }

    /// The `--since`/`--until` window (see `timewindow`): local forms in
    /// `--tz`, else in the offset of the first event, on its day. The
    /// resolved window is told on standard error unless `-q`.
    pub fn window(&self, first: Option<&Ts>) -> Result<TimeWindow, String> {
        if self.since.is_none() && self.until.is_none() {
            return Ok(TimeWindow::default());
        }
        let utc = FixedOffset::east_opt(0).expect("zero");
        let off = self.tz.or(first.map(|f| *f.offset())).unwrap_or(utc);
        let day = first
            .map(|f| f.with_timezone(&off).date_naive())
            .unwrap_or_default();
        let (since, until) =
            crate::timewindow::resolve(self.since.as_deref(), self.until.as_deref(), off, day)?;
        if !self.quiet {
            let show = |t: Option<Ts>| t.map_or_else(|| "…".to_string(), |t| t.to_rfc3339());
            eprintln!("window: {} .. {}", show(since), show(until));
        }
        Ok(TimeWindow { since, until })
    }
}

/// Sources to read, and rows for paths that could not be walked.
pub type Opened = (Vec<Box<dyn Source>>, Vec<FileInfo>);

/// Inclusive time bounds.
#[derive(Debug, Clone, Copy, Default)]
pub struct TimeWindow {
    pub since: Option<Ts>,
    pub until: Option<Ts>,
}

impl TimeWindow {
    pub fn contains(&self, t: &Ts) -> bool {
        self.since.is_none_or(|s| *t >= s) && self.until.is_none_or(|u| *t <= u)
    }
}

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
        Some(Command::Completions { shell }) => {
            io_result(crate::shell::completions(shell, &mut io::stdout().lock())).map(|_| EXIT_OK)
        }
        Some(Command::Man) => {
            io_result(crate::shell::man(&mut io::stdout().lock())).map(|_| EXIT_OK)
        }
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

/// A write error on a closed pipe (`mqdiag timeline | head`) ends the run
/// quietly; any other is an error.
pub fn io_result(r: io::Result<()>) -> Result<(), String> {
    match r {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(format!("cannot write output: {e}")),
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
    };
    // Rows are rendered by the workers; the merge only orders and copies.
    let mut merged = RowMerged::new(sources, Arc::new(spec), a.input.jobs());
    let window = a.input.window(merged.peek_ts().as_ref())?;
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
    let (sources, mut rows) = a.input.open_except(&[], &opts, a.input.progress_wanted())?;
    rows.extend(drain_all_jobs(sources, a.input.jobs()));
    rows.sort_by(|x, y| x.path.cmp(&y.path));
    let r = match format {
        InventoryFormat::Json => inventory::write_json(&mut out, &rows),
        InventoryFormat::Text => inventory::write_text(&mut out, &rows),
    }
    .and_then(|_| out.finish());
    io_result(r)?;
    Ok(EXIT_OK)
}
