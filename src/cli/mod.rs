//! The command line (clap derive): every verb's arguments, parsed. The
//! verbs (`crate::verbs`) take them; `crate::app` parses and dispatches.

mod args;
pub(crate) mod shell;

pub use args::*;

use clap::{Parser, Subcommand};

pub use crate::exit::{EXIT_ERROR, EXIT_FINDINGS, EXIT_OK};

/// The run's budgets, as `--help` states them (`budget::MEMORY_BUDGET`,
/// `limits::MAX_SPILL_BYTES` and `limits::spill_limit`; a unit test
/// holds the numbers to them).
const BUDGET_HELP: &str = "Memory: one budget for the whole run, 256 MiB, whatever the inputs. \
Archive members that cannot be read in place are unpacked into $TMPDIR: one total for the run, \
at most 200 times the size of all its archives together (at least 16 MiB), 16 GiB in all. \
docs/reading.md (Limits) lists every limit.";

#[derive(Parser, Debug)]
#[command(
    name = "mqdiag",
    version,
    about = "Offline analyzer for IBM MQ diagnostics: traces, error logs, FDCs, SMF",
    args_conflicts_with_subcommands = true,
    after_help = BUDGET_HELP,
    // Help wraps to the terminal, and to 80 columns elsewhere (clap's
    // default without a terminal is 100).
    max_term_width = 80
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    /// `mqdiag PATH...` is `mqdiag analyze PATH...`.
    #[command(flatten)]
    pub analyze: AnalyzeArgs,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Findings report (the default verb).
    Analyze(AnalyzeArgs),
    /// The merged, time-ordered event stream.
    Timeline(TimelineArgs),
    /// What was found: files, formats, time ranges, problems.
    Inventory(InventoryArgs),
    /// Every rule: id, default severity, trigger, thresholds, advice.
    Rules(RulesArgs),
    /// Every MQI call in the traces: counts, failures, reason codes, timings.
    Calls(CallsArgs),
    /// What changed between two captures of one system (good, bad).
    Compare(CompareArgs),
    /// The configuration found (qm.ini, MQSC dumps, CHLAUTH, ...), per queue
    /// manager, with file:line.
    Config(ConfigArgs),
    /// Offline: a reason code, a message id, or an options field and value
    /// as MQ's constant names, each with one line of meaning.
    Explain(ExplainArgs),
    /// Print a shell completion script (bash, zsh, fish, powershell, elvish).
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff): `mqdiag man > mqdiag.1`.
    Man {
        /// Write it as DIR/mqdiag.1 instead (a man1 directory).
        #[arg(long, value_name = "DIR")]
        dir: Option<std::path::PathBuf>,
    },
}

#[cfg(test)]
mod budget_help {
    use mqdiag_model::budget::MEMORY_BUDGET;
    use mqdiag_readers::input::limits::{MAX_RATIO, MAX_SPILL_BYTES, RATIO_FLOOR, spill_limit};

    #[test]
    fn help_states_the_budgets_in_force() {
        let h = super::BUDGET_HELP;
        assert!(
            h.contains(&format!("{} MiB, whatever", MEMORY_BUDGET >> 20)),
            "{h}"
        );
        assert!(h.contains(&format!("at most {MAX_RATIO} times")), "{h}");
        assert!(
            h.contains(&format!("(at least {} MiB)", RATIO_FLOOR >> 20)),
            "{h}"
        );
        assert_eq!(spill_limit(0), RATIO_FLOOR);
        assert!(
            h.contains(&format!("{} GiB in all", MAX_SPILL_BYTES >> 30)),
            "{h}"
        );
    }
}
