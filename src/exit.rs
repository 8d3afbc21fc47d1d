//! Exit codes (contract) and how a write's result becomes one: shared by the
//! verbs and the command line, below both.

use std::io;

pub const EXIT_OK: i32 = 0;
pub const EXIT_FINDINGS: i32 = 1;
pub const EXIT_ERROR: i32 = 2;

/// A write error on a closed pipe (`mqdiag timeline | head`) ends the run
/// quietly; any other is an error.
pub fn io_result(r: io::Result<()>) -> Result<(), String> {
    match r {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(format!("cannot write output: {e}")),
    }
}

/// Paths named on the command line that could not be read, said once each
/// (a run may discover its inputs twice: `--redact` learns names first).
fn path_errors() -> &'static std::sync::Mutex<std::collections::BTreeSet<String>> {
    static E: std::sync::OnceLock<std::sync::Mutex<std::collections::BTreeSet<String>>> =
        std::sync::OnceLock::new();
    E.get_or_init(Default::default)
}

/// A path named on the command line that does not exist or cannot be
/// opened (`path: why`): said on standard error at once, as ripgrep does;
/// the rest is still read, and the run ends with `final_code`.
pub fn path_error(msg: &str) {
    let mut seen = path_errors().lock().unwrap_or_else(|p| p.into_inner());
    if seen.insert(msg.to_string()) {
        eprintln!("mqdiag: {msg}");
    }
}

/// The exit code of a run that completed with `code`: a path that could
/// not be read makes it 2, unless findings at or above `--fail-on` made
/// it 1 (what a gate must see first).
pub fn final_code(code: i32) -> i32 {
    let missing = !path_errors()
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .is_empty();
    if missing && code == EXIT_OK {
        EXIT_ERROR
    } else {
        code
    }
}
