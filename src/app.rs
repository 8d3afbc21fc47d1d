//! The program: parse the command line (`cli`), run the verb it names
//! (`verbs`), and turn the outcome into an exit code. `main.rs` only calls
//! `main_with`.

use crate::cli::{Cli, Command, shell};
use crate::exit::{EXIT_ERROR, EXIT_OK, io_result};
use clap::Parser;
use std::io;
use std::sync::atomic::{AtomicBool, Ordering};

/// Set by `main.rs`: the process ends when the verb returns.
static PROCESS_ENDS: AtomicBool = AtomicBool::new(false);

/// Tell `let_go` that the process exits once the verb returns (only
/// `main.rs` says so: tests and fuzzing run verbs many times a process).
pub fn process_ends_after_verb() {
    PROCESS_ENDS.store(true, Ordering::Relaxed);
}

/// Done with `x`: dropped, or left to the process's exit when that comes
/// next. Freeing the tables of a large run one allocation at a time took
/// a sixth of `analyze --redact`'s CPU time on 200,000 records (the token
/// map's 600,000 names), and the exit frees it all at once.
pub fn let_go<T>(x: T) {
    if PROCESS_ENDS.load(Ordering::Relaxed) {
        std::mem::forget(x);
    } else {
        drop(x);
    }
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
        Some(Command::Timeline(a)) => crate::verbs::timeline::run(a),
        Some(Command::Inventory(a)) => crate::verbs::inventory::run(a),
        Some(Command::Analyze(a)) => crate::verbs::analyze::run(a),
        Some(Command::Rules(a)) => crate::verbs::rules::run(a),
        Some(Command::Calls(a)) => crate::verbs::calls::run(a),
        Some(Command::Compare(a)) => crate::verbs::compare::run(a),
        Some(Command::Config(a)) => crate::verbs::config::run(a),
        Some(Command::Explain(a)) => crate::verbs::explain::run(a),
        Some(Command::Completions { shell }) => {
            io_result(shell::completions(shell, &mut io::stdout().lock())).map(|_| EXIT_OK)
        }
        Some(Command::Man { dir: None }) => {
            io_result(shell::man(&mut io::stdout().lock())).map(|_| EXIT_OK)
        }
        Some(Command::Man { dir: Some(d) }) => shell::man_to(&d).map(|_| EXIT_OK),
        None => crate::verbs::analyze::run(cli.analyze),
    };
    match r {
        Ok(code) => crate::exit::final_code(code),
        Err(msg) => {
            eprintln!("mqdiag: {msg}");
            EXIT_ERROR
        }
    }
}
