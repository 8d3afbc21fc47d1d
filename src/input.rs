//! Finding the evidence: files and directories named on the command line,
//! walked recursively, each becoming an `Input` that a reader can open.

use crate::event::Format;
use crate::source::{FileInfo, Severity};
use std::collections::HashSet;
use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::SystemTime;

/// One file to read.
#[derive(Debug, Clone)]
pub struct Input {
    /// As given on the command line, joined with the path inside a directory.
    pub display: Arc<str>,
    /// The file's name (last path component), for readers that look at it.
    pub name: String,
    pub location: Location,
    pub bytes: u64,
    pub mtime: Option<SystemTime>,
}

/// Where an input's bytes are.
#[derive(Debug, Clone)]
pub enum Location {
    File(PathBuf),
    /// Bytes already in memory (tests, small archive members).
    Memory(Arc<[u8]>),
}

impl Input {
    pub fn from_path(display: &str, path: &Path) -> io::Result<Input> {
        let md = fs::metadata(path)?;
        Ok(Input {
            display: Arc::from(display),
            name: file_name(path),
            location: Location::File(path.to_path_buf()),
            bytes: md.len(),
            mtime: md.modified().ok(),
        })
    }

    pub fn from_bytes(display: &str, bytes: impl Into<Arc<[u8]>>) -> Input {
        let bytes: Arc<[u8]> = bytes.into();
        Input {
            display: Arc::from(display),
            name: display
                .rsplit(['/', '\\', '!'])
                .next()
                .unwrap_or(display)
                .to_string(),
            bytes: bytes.len() as u64,
            location: Location::Memory(bytes),
            mtime: None,
        }
    }

    pub fn open(&self) -> io::Result<Box<dyn Read + Send>> {
        match &self.location {
            Location::File(p) => Ok(Box::new(fs::File::open(p)?)),
            Location::Memory(b) => Ok(Box::new(io::Cursor::new(b.clone()))),
        }
    }

    /// The first `n` bytes (fewer for a short file).
    pub fn head(&self, n: usize) -> io::Result<Vec<u8>> {
        let mut r = self.open()?;
        let mut buf = vec![0u8; n];
        let mut got = 0;
        while got < n {
            match r.read(&mut buf[got..]) {
                Ok(0) => break,
                Ok(k) => got += k,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        buf.truncate(got);
        Ok(buf)
    }
}

fn file_name(p: &Path) -> String {
    p.file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| p.to_string_lossy().into_owned())
}

/// What discovery found: inputs to read, and rows for what could not be
/// walked (loops, unreadable directories and files).
#[derive(Debug, Default)]
pub struct Discovered {
    pub inputs: Vec<Input>,
    pub problems: Vec<FileInfo>,
}

/// Walk the paths given on the command line. Never fails: every path that
/// cannot be read becomes a problem row.
pub fn discover(paths: &[PathBuf]) -> Discovered {
    let mut out = Discovered::default();
    let mut seen_dirs = HashSet::new();
    for p in paths {
        let display = p.to_string_lossy().into_owned();
        walk(p, &display, &mut seen_dirs, &mut out);
    }
    out.inputs.sort_by(|a, b| a.display.cmp(&b.display));
    out.inputs.dedup_by(|a, b| a.display == b.display);
    out.problems.sort_by(|a, b| a.path.cmp(&b.path));
    out
}

fn problem_row(display: &str, message: String) -> FileInfo {
    let mut fi = FileInfo::new(display, Format::Unknown, 0);
    fi.problem(None, Severity::Error, 0, message);
    fi
}

fn walk(path: &Path, display: &str, seen: &mut HashSet<PathBuf>, out: &mut Discovered) {
    let md = match fs::metadata(path) {
        Ok(m) => m,
        Err(e) => {
            let what = if fs::symlink_metadata(path).is_ok() {
                "broken link"
            } else {
                "cannot read"
            };
            out.problems
                .push(problem_row(display, format!("{what}: {e}")));
            return;
        }
    };
    if md.is_file() {
        match Input::from_path(display, path) {
            Ok(i) => out.inputs.push(i),
            Err(e) => out
                .problems
                .push(problem_row(display, format!("cannot read: {e}"))),
        }
        return;
    }
    if !md.is_dir() {
        // FIFOs, sockets, devices: reading them could block forever.
        out.problems.push(problem_row(
            display,
            "not a regular file or directory: skipped".to_string(),
        ));
        return;
    }
    // A directory reached twice (through a link back up the tree) is a loop.
    let canon = fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    if !seen.insert(canon) {
        out.problems.push(problem_row(
            display,
            "directory already visited (symbolic link loop?): not followed again".to_string(),
        ));
        return;
    }
    let rd = match fs::read_dir(path) {
        Ok(r) => r,
        Err(e) => {
            out.problems
                .push(problem_row(display, format!("cannot list directory: {e}")));
            return;
        }
    };
    let mut entries: Vec<_> = rd.filter_map(|e| e.ok()).collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let name = e.file_name().to_string_lossy().into_owned();
        let child_display = if display.ends_with('/') || display.ends_with('\\') {
            format!("{display}{name}")
        } else {
            format!("{display}/{name}")
        };
        walk(&e.path(), &child_display, seen, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_input_name_and_head() {
        let i = Input::from_bytes("case.zip!var/mqm/errors/AMQERR01.LOG", b"abc".to_vec());
        assert_eq!(i.name, "AMQERR01.LOG");
        assert_eq!(i.head(10).unwrap(), b"abc");
        assert_eq!(i.head(2).unwrap(), b"ab");
    }

    #[test]
    fn missing_path_is_a_problem_not_a_failure() {
        let d = discover(&[PathBuf::from("/nonexistent/mqdiag/x")]);
        assert!(d.inputs.is_empty());
        assert_eq!(d.problems.len(), 1);
        assert!(d.problems[0].problems[0].message.contains("cannot read"));
    }
}
