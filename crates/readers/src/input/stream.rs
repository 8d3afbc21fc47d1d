//! Inputs that can be read only once: standard input (`-`), and a pipe,
//! FIFO or character device named on the command line (`/dev/stdin`,
//! process substitution's `/dev/fd/63`). Each is copied once into an
//! anonymous temporary file, bounded as an archive member is
//! (`limits::MAX_MEMBER_BYTES`), and read from there like any file: sniffed,
//! read again by a second pass (`--redact` learns names first), opened
//! as an archive when it is one.
//!
//! The copy is kept for the whole process, by the identity of what was
//! read (device and inode where there are such), so the second discovery
//! of a run finds it again and `-` named beside `/dev/stdin` is one input.

use super::blob::{Limit, Range, Spill, SpillError};
use super::limits::MAX_MEMBER_BYTES;
use std::collections::HashMap;
use std::fs;
use std::io::{self, IsTerminal, Read};
use std::path::Path;
use std::sync::{Mutex, OnceLock};

/// What `-` is shown as.
pub const STDIN_DISPLAY: &str = "<stdin>";

/// The copies made so far, by identity: the range, or why it failed.
type Copies = HashMap<String, Result<Range, String>>;

fn copies() -> &'static Mutex<Copies> {
    static C: OnceLock<Mutex<Copies>> = OnceLock::new();
    C.get_or_init(|| Mutex::new(HashMap::new()))
}

/// What identifies the stream behind `md`, else `fallback`.
fn identity(md: Option<&fs::Metadata>, fallback: &str) -> String {
    #[cfg(unix)]
    if let Some(md) = md {
        use std::os::unix::fs::MetadataExt;
        return format!("{}:{}", md.dev(), md.ino());
    }
    let _ = md;
    fallback.to_string()
}

/// Standard input, copied (once per process).
pub(crate) fn stdin() -> Result<Range, String> {
    let stdin = io::stdin();
    if stdin.is_terminal() {
        return Err(
            "standard input is a terminal: pipe the data in (`cat FILE | mqdiag timeline -`)"
                .to_string(),
        );
    }
    // `/dev/stdin` names the same pipe where there is one.
    let md = fs::metadata("/dev/stdin").ok();
    copy_once(identity(md.as_ref(), "-"), || Ok(stdin.lock()))
}

/// A named pipe, FIFO or device, copied (once per process).
pub(crate) fn named(path: &Path, md: &fs::Metadata) -> Result<Range, String> {
    let key = identity(Some(md), &path.to_string_lossy());
    copy_once(key, || fs::File::open(path))
}

/// The copy of the stream `key`, made by reading what `open` gives the
/// first time it is asked for.
fn copy_once<R: Read>(key: String, open: impl FnOnce() -> io::Result<R>) -> Result<Range, String> {
    let mut c = copies().lock().unwrap_or_else(|p| p.into_inner());
    if let Some(r) = c.get(&key) {
        return r.clone();
    }
    let r = open()
        .map_err(|e| format!("cannot read: {e}"))
        .and_then(copy);
    c.insert(key, r.clone());
    r
}

/// Copy `r` into a temporary file of its own.
fn copy(r: impl Read) -> Result<Range, String> {
    let mut spill = Spill::new().map_err(|e| format!("cannot make a temporary file: {e}"))?;
    let why = "a stream is read up to the size of an archive member";
    match spill.append(Limit::new(r, MAX_MEMBER_BYTES, why), None) {
        Ok(range) => Ok(range),
        Err(SpillError::Read { error, .. }) => Err(format!("cannot read: {error}")),
        Err(SpillError::Write(e)) => Err(format!("cannot write the temporary file: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stream_is_copied_once_and_read_again() {
        let key = "test:a-stream".to_string();
        let r = copy_once(key.clone(), || {
            Ok(io::Cursor::new(b"line 1\nline 2\n".to_vec()))
        })
        .unwrap();
        assert_eq!(r.head(100).unwrap(), b"line 1\nline 2\n");
        // The second discovery finds the copy; the stream is not read again.
        let again = copy_once(key, || -> io::Result<io::Cursor<Vec<u8>>> {
            panic!("read twice")
        })
        .unwrap();
        assert_eq!(again.head(6).unwrap(), b"line 1");
    }

    #[cfg(unix)]
    #[test]
    fn a_named_fifo_is_read_as_a_stream() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("fifo");
        let ok = std::process::Command::new("mkfifo")
            .arg(&p)
            .status()
            .is_ok_and(|s| s.success());
        if !ok {
            eprintln!("no mkfifo here: skipped");
            return;
        }
        let writer = {
            let p = p.clone();
            std::thread::spawn(move || std::fs::write(p, b"through the fifo\n").unwrap())
        };
        let md = fs::metadata(&p).unwrap();
        assert!(!md.is_file() && !md.is_dir());
        let r = named(&p, &md).unwrap();
        writer.join().unwrap();
        assert_eq!(r.head(100).unwrap(), b"through the fifo\n");
    }
}
