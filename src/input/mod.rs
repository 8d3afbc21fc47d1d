//! Finding the evidence: files, directories and archives named on the
//! command line, walked recursively, each file or archive member becoming an
//! `Input` that a reader can open. Archives are read in place (`archive`).

pub mod archive;
pub mod blob;

use crate::event::{Format, Origin};
use crate::meter::Meter;
use crate::source::{FileInfo, ProblemCode, Severity};
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
    /// Counts the bytes readers read through `open()`, for the progress line.
    pub progress: Option<Arc<Meter>>,
}

/// Where an input's bytes are.
#[derive(Debug, Clone)]
pub enum Location {
    File(PathBuf),
    /// Bytes already in memory (tests).
    Memory(Arc<[u8]>),
    /// A byte range of a file: a tar member, a member unpacked into the
    /// temporary file, a file inside a stored zip member.
    Range(blob::Range),
    /// A zip member, inflated (and checked) as it is read.
    Zip(Arc<blob::ZipMember>),
    /// The gzip-decompressed content of another location, at most `limit`
    /// bytes (decompression bombs; `why` says how the limit was set).
    Gzip {
        inner: Box<Location>,
        limit: u64,
        why: Arc<str>,
    },
}

impl Location {
    fn open(&self) -> io::Result<Box<dyn Read + Send>> {
        Ok(match self {
            Location::File(p) => Box::new(fs::File::open(p)?),
            Location::Memory(b) => Box::new(io::Cursor::new(b.clone())),
            Location::Range(r) => Box::new(r.open()?),
            Location::Zip(m) => m.open()?,
            Location::Gzip { inner, limit, why } => Box::new(blob::Limit::new(
                flate2::read::MultiGzDecoder::new(inner.open()?),
                *limit,
                why.clone(),
            )),
        })
    }
}

impl Input {
    /// The origin shared by every event of this input, read as `format`.
    pub fn origin(&self, format: Format) -> Arc<Origin> {
        Origin::new(self.display.clone(), format)
    }

    pub fn from_path(display: &str, path: &Path) -> io::Result<Input> {
        let md = fs::metadata(path)?;
        Ok(Input {
            display: Arc::from(display),
            name: file_name(path),
            location: Location::File(path.to_path_buf()),
            bytes: md.len(),
            mtime: md.modified().ok(),
            progress: None,
        })
    }

    /// An archive member.
    pub fn member(
        display: &str,
        name: &str,
        location: Location,
        bytes: u64,
        mtime: Option<SystemTime>,
    ) -> Input {
        Input {
            display: Arc::from(display),
            name: name.to_string(),
            location,
            bytes,
            mtime,
            progress: None,
        }
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
            progress: None,
        }
    }

    /// A reader over the whole input, independent of any other (each call
    /// opens anew; safe from several threads). Reads through it count
    /// towards the progress line when one is shown.
    pub fn open(&self) -> io::Result<Box<dyn Read + Send>> {
        let r = self.location.open()?;
        Ok(match &self.progress {
            Some(m) => Box::new(m.counting(r, self.display.clone())),
            None => r,
        })
    }

    /// The first `n` bytes (fewer for a short file). Not counted as
    /// progress: sniffing is not reading.
    pub fn head(&self, n: usize) -> io::Result<Vec<u8>> {
        blob::read_head(self.location.open()?, n)
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

/// Walk the paths given on the command line, opening archives. Never
/// fails: every path or member that cannot be read becomes a problem row.
pub fn discover(paths: &[PathBuf]) -> Discovered {
    discover_with(paths, None)
}

/// As `discover`, counting bytes unpacked from archives on `meter`.
pub fn discover_with(paths: &[PathBuf], meter: Option<&Arc<Meter>>) -> Discovered {
    let mut out = Discovered::default();
    let mut seen_dirs = HashSet::new();
    let mut archives = Vec::new();
    for p in paths {
        let display = p.to_string_lossy().into_owned();
        walk(p, &display, &mut seen_dirs, &mut out, &mut archives);
    }
    // Archives after the walk, so that one spill file and one size budget
    // serve them all.
    // The same archive named twice is read once.
    archives.sort_by(|a, b| a.1.cmp(&b.1));
    archives.dedup_by(|a, b| a.1 == b.1);
    let mut x = archive::Expander::new(&mut out, meter.cloned());
    for (path, display, len, mtime) in archives {
        x.file(&path, &display, len, mtime);
    }
    out.inputs.sort_by(|a, b| a.display.cmp(&b.display));
    out.inputs.dedup_by(|a, b| a.display == b.display);
    out.problems.sort_by(|a, b| a.path.cmp(&b.path));
    out
}

fn problem_row(display: &str, code: ProblemCode, message: String) -> FileInfo {
    let mut fi = FileInfo::new(display, Format::Unknown, 0);
    fi.problem(code, None, Severity::Error, 0, message);
    fi
}

/// An archive found by the walk: path, display, length, modification time.
type FoundArchive = (PathBuf, String, u64, Option<SystemTime>);

fn walk(
    path: &Path,
    display: &str,
    seen: &mut HashSet<PathBuf>,
    out: &mut Discovered,
    archives: &mut Vec<FoundArchive>,
) {
    let md = match fs::metadata(path) {
        Ok(m) => m,
        Err(e) => {
            let what = if fs::symlink_metadata(path).is_ok() {
                "broken link"
            } else {
                "cannot read"
            };
            out.problems.push(problem_row(
                display,
                ProblemCode::UnreadableFile,
                format!("{what}: {e}"),
            ));
            return;
        }
    };
    if md.is_file() {
        match Input::from_path(display, path) {
            // Archives are known by their first bytes, whatever their name.
            Ok(i)
                if i.head(archive::MAGIC_BYTES)
                    .is_ok_and(|h| archive::magic(&h).is_some()) =>
            {
                archives.push((path.to_path_buf(), display.to_string(), i.bytes, i.mtime));
            }
            Ok(i) => out.inputs.push(i),
            Err(e) => out.problems.push(problem_row(
                display,
                ProblemCode::UnreadableFile,
                format!("cannot read: {e}"),
            )),
        }
        return;
    }
    if !md.is_dir() {
        // FIFOs, sockets, devices: reading them could block forever.
        out.problems.push(problem_row(
            display,
            ProblemCode::UnreadableFile,
            "not a regular file or directory: skipped".to_string(),
        ));
        return;
    }
    // A directory reached twice (through a link back up the tree) is a loop.
    let canon = fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    if !seen.insert(canon) {
        out.problems.push(problem_row(
            display,
            ProblemCode::UnreadableFile,
            "directory already visited (symbolic link loop?): not followed again".to_string(),
        ));
        return;
    }
    let rd = match fs::read_dir(path) {
        Ok(r) => r,
        Err(e) => {
            out.problems.push(problem_row(
                display,
                ProblemCode::UnreadableFile,
                format!("cannot list directory: {e}"),
            ));
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
        walk(&e.path(), &child_display, seen, out, archives);
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

    #[test]
    fn archive_members_open_independently_from_several_threads() {
        use std::io::Write;
        let d = tempfile::tempdir().unwrap();
        let a: Vec<u8> = (0..200_000u32).flat_map(|i| i.to_le_bytes()).collect();
        let b = b"second member\n".repeat(1000);
        let mut w = zip::ZipWriter::new(io::Cursor::new(Vec::new()));
        let o = zip::write::SimpleFileOptions::default();
        w.start_file("dir/a.bin", o).unwrap();
        w.write_all(&a).unwrap();
        w.start_file("b.txt", o).unwrap();
        w.write_all(&b).unwrap();
        let zip = w.finish().unwrap().into_inner();
        // Also gzip the whole zip: members then come from the spill file.
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(&zip).unwrap();
        fs::write(d.path().join("case.zip"), &zip).unwrap();
        fs::write(d.path().join("case.zip.gz"), gz.finish().unwrap()).unwrap();
        let found = discover(&[d.path().join("case.zip"), d.path().join("case.zip.gz")]);
        assert!(found.problems.is_empty(), "{:?}", found.problems);
        let names: Vec<(&str, u64)> = found
            .inputs
            .iter()
            .map(|i| (i.name.as_str(), i.bytes))
            .collect();
        assert_eq!(
            names,
            [
                ("b.txt", 14_000),
                ("a.bin", 800_000),
                ("b.txt", 14_000),
                ("a.bin", 800_000)
            ]
        );
        assert!(found.inputs[1].display.ends_with("case.zip!dir/a.bin"));
        assert!(found.inputs[2].display.ends_with("case.zip.gz!b.txt"));
        // Interleaved readers of one member, each on its own thread.
        let handles: Vec<_> = found
            .inputs
            .iter()
            .flat_map(|i| [i.clone(), i.clone()])
            .map(|i| {
                std::thread::spawn(move || {
                    let mut v = Vec::new();
                    i.open().unwrap().read_to_end(&mut v).unwrap();
                    v
                })
            })
            .collect();
        let got: Vec<Vec<u8>> = handles.into_iter().map(|h| h.join().unwrap()).collect();
        for (k, v) in got.iter().enumerate() {
            let want: &[u8] = if k % 4 < 2 { &b } else { &a };
            assert!(v == want, "reader {k}");
        }
    }
}
