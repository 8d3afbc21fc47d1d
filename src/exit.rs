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
