//! Every flag and value of the command line, defined once (clap derive).
//! The libraries below take plain option types: the value enums here
//! mirror theirs and convert with `From`, so no library depends on clap.

use chrono::{FixedOffset, NaiveDate};
use clap::{Args, ValueEnum};
use mqdiag_model::problem::Severity;
use mqdiag_model::timefmt::parse_offset;
use std::path::PathBuf;

/// A clap value enum that mirrors a library enum of the same variants.
macro_rules! mirror {
    ($(#[$m:meta])* $name:ident => $lib:path { $($(#[$vm:meta])* $v:ident),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
        pub enum $name { $($(#[$vm])* $v),+ }
        impl From<$name> for $lib {
            fn from(v: $name) -> $lib {
                match v { $($name::$v => <$lib>::$v),+ }
            }
        }
    };
}

/// `timeline --format`: the row formats of `sink`, and Parquet in builds
/// with the `parquet` feature (written from events, not rows: no mirror).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TimelineFormat {
    Text,
    Csv,
    Jsonl,
    Ecs,
    Otlp,
    #[cfg(feature = "parquet")]
    Parquet,
}

impl TimelineFormat {
    /// The row format; `None` for Parquet.
    pub fn rows(self) -> Option<mqdiag_model::sink::TimelineFormat> {
        use mqdiag_model::sink::TimelineFormat as Row;
        Some(match self {
            TimelineFormat::Text => Row::Text,
            TimelineFormat::Csv => Row::Csv,
            TimelineFormat::Jsonl => Row::Jsonl,
            // Built by the report crate, rendered by the model's sink.
            TimelineFormat::Ecs => Row::Event(mqdiag_report::export::ecs::render),
            TimelineFormat::Otlp => Row::Event(mqdiag_report::export::otlp::render),
            #[cfg(feature = "parquet")]
            TimelineFormat::Parquet => return None,
        })
    }
}
mirror!(
    /// `compare --format`.
    CompareFormat => mqdiag_report::compare::CompareFormat { Text, Json, Markdown, Html }
);
mirror!(
    /// `calls --format`.
    CallsFormat => mqdiag_report::calls::CallsFormat { Text, Csv, Json, Markdown }
);
mirror!(
    /// `calls --by`.
    By => mqdiag_analysis::calls::By { Process, Thread, Connection, Verb }
);
mirror!(
    /// `--color`.
    #[derive(Default)]
    ColorChoice => mqdiag_report::color::ColorChoice {
        /// Colour when writing to a terminal and `NO_COLOR` is not set.
        #[default]
        Auto,
        Always,
        Never,
    }
);

/// Options shared by every verb that reads input.
#[derive(Args, Debug, Clone, Default)]
pub struct InputArgs {
    /// Files, directories (searched recursively) or archives. Default: `.`
    pub paths: Vec<PathBuf>,
    /// UTC offset (±HH:MM) for files that state none.
    #[arg(long, value_parser = parse_tz, allow_hyphen_values = true)]
    pub tz: Option<FixedOffset>,
    /// UTC offset (±HH:MM) of the zone `mqsmfcsv` ran in, for its STCK
    /// columns (default: UTC, as with `-g yes` or on a UTC host).
    #[arg(long, value_parser = parse_tz, allow_hyphen_values = true)]
    pub smf_stck_tz: Option<FixedOffset>,
    /// Date (YYYY-MM-DD) for trace files that state none (`dspmqtrc -h`).
    #[arg(long, value_parser = parse_date)]
    pub date: Option<NaiveDate>,
    /// Character set of text inputs (`windows-1251`, `shift_jis`, `cp850`,
    /// ...). Default: decided per file from its first bytes.
    #[arg(long, value_parser = parse_encoding)]
    pub encoding: Option<mqdiag_model::encoding::TextEncoding>,
    /// Only events at or after this time: RFC 3339, `YYYY-MM-DD HH:MM[:SS]`,
    /// a date (from its start) or `HH:MM[:SS]` on the first day of the
    /// input. Forms without an offset are read on each file's own clock
    /// (the time the file shows), or in --tz when given.
    #[arg(long)]
    pub since: Option<String>,
    /// Only events at or before this time (the same forms; a date means to
    /// its end).
    #[arg(long)]
    pub until: Option<String>,
    /// A --since/--until window that excludes every event is not an error
    /// (by default it is: exit 2, with the inputs' span).
    #[arg(long)]
    pub allow_empty: bool,
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
    /// Replace host names, addresses, user ids, queue-manager names,
    /// distinguished names and secrets by stable tokens (`host-1`, `ip-3`).
    #[arg(long)]
    pub redact: bool,
    /// With `--redact`: replace whole channel and queue names too.
    #[arg(long, requires = "redact")]
    pub redact_names: bool,
    /// Follow symbolic links that lead out of the paths named (by default
    /// such a link is named in a note and not read).
    #[arg(long)]
    pub follow: bool,
    /// With `--redact`: read the tokens of earlier runs from this file (if
    /// it exists) and save them, with this run's, back to it, so that runs
    /// on the same case agree. It holds the real names: keep it private
    /// (it may not be under an input directory).
    #[arg(long, value_name = "FILE", requires = "redact")]
    pub redact_map: Option<PathBuf>,
}

/// `--date`: a day events can be ordered in (see `mqdiag_model::timefmt::orderable`).
fn parse_date(s: &str) -> Result<NaiveDate, String> {
    let d = s
        .parse::<NaiveDate>()
        .map_err(|e| format!("`{s}` is not a date like 2024-02-29: {e}"))?;
    if !mqdiag_model::timefmt::orderable_date(d) {
        return Err(format!(
            "`{s}`: a date from 1970-01-02 to 2262-04-10 (times outside cannot be ordered)"
        ));
    }
    Ok(d)
}

/// `-j`: more workers than this only cost memory (each holds read buffers).
fn parse_jobs(s: &str) -> Result<usize, String> {
    s.parse::<usize>()
        .ok()
        .filter(|n| (1..=256).contains(n))
        .ok_or_else(|| format!("`{s}` is not a number of workers between 1 and 256"))
}

fn parse_encoding(s: &str) -> Result<mqdiag_model::encoding::TextEncoding, String> {
    mqdiag_model::encoding::TextEncoding::by_name(s).ok_or_else(|| {
        format!(
            "`{s}` is not a known character set (try windows-1251, shift_jis, euc-jp, gbk, euc-kr, big5, cp850, utf-8)"
        )
    })
}

fn parse_tz(s: &str) -> Result<FixedOffset, String> {
    parse_offset(s).ok_or_else(|| format!("`{s}` is not a UTC offset like +01:00 or -05:00"))
}

/// `analyze --format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ReportFormat {
    Text,
    Json,
    Markdown,
    Html,
    Sarif,
    Ecs,
}

impl From<ReportFormat> for mqdiag_report::Kind {
    fn from(f: ReportFormat) -> Self {
        match f {
            ReportFormat::Text => mqdiag_report::Kind::Text,
            ReportFormat::Json => mqdiag_report::Kind::Json,
            ReportFormat::Markdown => mqdiag_report::Kind::Markdown,
            ReportFormat::Html => mqdiag_report::Kind::Html,
            ReportFormat::Sarif => mqdiag_report::Kind::Sarif,
            ReportFormat::Ecs => mqdiag_report::Kind::Ecs,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FailOn {
    Error,
    Warning,
    Info,
    Never,
}

impl FailOn {
    pub fn threshold(self) -> Option<Severity> {
        match self {
            FailOn::Error => Some(Severity::Error),
            FailOn::Warning => Some(Severity::Warning),
            FailOn::Info => Some(Severity::Info),
            FailOn::Never => None,
        }
    }
}

#[derive(Args, Debug, Clone, Default)]
pub struct AnalyzeArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Report format (default: text, or from the `-o` file's extension).
    #[arg(long, value_enum)]
    pub format: Option<ReportFormat>,
    /// Exit 1 when a new finding is at or above this severity.
    #[arg(long, value_enum, default_value = "never")]
    pub fail_on: Option<FailOn>,
    /// A JSON report of an earlier run: its findings are marked baseline.
    #[arg(long)]
    pub baseline: Option<PathBuf>,
    /// Run only these rules (comma-separated ids).
    #[arg(long, value_delimiter = ',')]
    pub only: Vec<String>,
    /// Skip these rules (comma-separated ids).
    #[arg(long, value_delimiter = ',')]
    pub skip: Vec<String>,
    /// Threshold override, `RULE.KEY=VALUE` (repeatable).
    #[arg(long = "set")]
    pub set: Vec<String>,
    /// Colour in the text report: `auto` (on a terminal, unless `NO_COLOR`
    /// is set), `always`, `never`.
    #[arg(long, value_enum, default_value = "auto", value_name = "WHEN")]
    pub color: ColorChoice,
}

/// `mqdiag explain VALUE...`: offline, without any input.
#[derive(Args, Debug, Clone, Default)]
pub struct ExplainArgs {
    /// A reason code (`2035`, `MQRC_NOT_AUTHORIZED`), a reason qualifier
    /// (`MQRQ_CHANNEL_BLOCKED_NOACCESS`, `MQRQ=23`), a message id
    /// (`AMQ9631E`), an option's name (`MQPMO_SYNCPOINT`), or an options
    /// field and its value (`MQGMO.Options=8260`, `"Put Options=0x2044"`,
    /// or the field and the value as two arguments: `gmo 8260`).
    #[arg(required = true, value_name = "VALUE")]
    pub values: Vec<String>,
    /// `text` or `json` (default: text).
    #[arg(long)]
    pub format: Option<String>,
}

#[derive(Args, Debug, Clone, Default)]
pub struct RulesArgs {
    /// `text` or `json` (default: text, or from the `-o` file's extension).
    #[arg(long)]
    pub format: Option<String>,
    /// Write to this file instead of standard output (`-`: standard output).
    #[arg(short = 'o', long)]
    pub output: Option<PathBuf>,
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

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ConfigFormat {
    Text,
    Json,
}

#[derive(Args, Debug)]
pub struct ConfigArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Default: text, or from the `-o` file's extension.
    #[arg(long, value_enum)]
    pub format: Option<ConfigFormat>,
    /// Only this queue manager's configuration (and the installation's).
    #[arg(long, value_name = "NAME")]
    pub qmgr: Option<String>,
}

#[derive(Args, Debug)]
pub struct CallsArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Output format (default: text, or from the `-o` file's extension).
    #[arg(long, value_enum)]
    pub format: Option<CallsFormat>,
    /// One row per process and verb (default), thread, connection (trace
    /// ident, or pid.tid where there is none) or verb alone.
    #[arg(long, value_enum, default_value = "process")]
    pub by: By,
    /// Only these verbs (comma-separated: `MQGET,MQPUT`).
    #[arg(long, value_delimiter = ',')]
    pub verb: Vec<String>,
}

#[derive(Args, Debug)]
pub struct CompareArgs {
    /// A capture of a good period: a directory or an archive.
    pub good: PathBuf,
    /// A capture of the bad period, of the same system.
    pub bad: PathBuf,
    /// Report format (default: text, or from the `-o` file's extension).
    #[arg(long, value_enum)]
    pub format: Option<CompareFormat>,
    /// Exit 1 when a finding at or above this severity is new, or rose in
    /// severity or count.
    #[arg(long, value_enum, default_value = "never")]
    pub fail_on: FailOn,
    /// UTC offset (±HH:MM) for files that state none.
    #[arg(long, value_parser = parse_tz, allow_hyphen_values = true)]
    pub tz: Option<FixedOffset>,
    /// Write to this file instead of standard output (`-`: standard
    /// output). Never inside a capture.
    #[arg(short = 'o', long)]
    pub output: Option<PathBuf>,
    /// No progress or notes on standard error.
    #[arg(short, long)]
    pub quiet: bool,
    /// Worker threads that read and parse input, 1 to 256.
    #[arg(short = 'j', long = "jobs", value_parser = parse_jobs)]
    pub jobs: Option<usize>,
    /// Only events at or after this time, in each capture: RFC 3339 applies
    /// to both as given; a date or `HH:MM[:SS]` is read on each capture's
    /// own first day (the same hours of two days).
    #[arg(long)]
    pub since: Option<String>,
    /// Only events at or before this time (the same forms as --since).
    #[arg(long)]
    pub until: Option<String>,
    /// A window that excludes every event of a capture is not an error.
    #[arg(long)]
    pub allow_empty: bool,
    /// Replace host names, addresses, user ids, queue-manager names,
    /// distinguished names and secrets by stable tokens, one mapping for
    /// both captures (so the two sides still match).
    #[arg(long)]
    pub redact: bool,
    /// With `--redact`: replace whole channel and queue names too.
    #[arg(long, requires = "redact")]
    pub redact_names: bool,
    /// With `--redact`: read the mapping from FILE when it exists, and save
    /// it there. It holds the real names: keep it private.
    #[arg(long, value_name = "FILE", requires = "redact")]
    pub redact_map: Option<PathBuf>,
}
