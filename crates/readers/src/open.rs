//! From paths to sources: discover every input (archives included), leave
//! out the files a caller names, read identical files once, and open one
//! source per file. What a caller wants to see or check on the way (a
//! progress line, "the report is not an input") is a `Watch`.

use crate::formats::open_all_of;
use crate::input::{Discovered, Input, Location, discover_following};
use crate::source::{ReadOptions, Source};
use mqdiag_model::fileinfo::FileInfo;
use mqdiag_model::meter::Meter;
use std::path::PathBuf;
use std::sync::Arc;

/// Sources to read, and rows for paths that could not be walked.
pub type Opened = (Vec<Box<dyn Source>>, Vec<FileInfo>);

/// What to open.
#[derive(Debug, Clone, Default)]
pub struct Request {
    /// Files, directories and archives.
    pub paths: Vec<PathBuf>,
    /// Follow symbolic links to directories.
    pub follow: bool,
    /// Files left out when discovery finds them (a report being written,
    /// a baseline report).
    pub skip: Vec<PathBuf>,
    /// Only files of these kinds are opened (`mqdiag config` reads no
    /// trace); empty: every file.
    pub families: Vec<mqdiag_model::event::FormatFamily>,
}

/// Why nothing could be opened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OpenError {
    /// No file under the paths.
    NoInput,
    /// Files were found, none readable: the first reasons, `path: why`,
    /// and how many more there were.
    Unreadable { reasons: Vec<String>, more: usize },
    /// A `Watch` refused what was found.
    Refused(String),
}

impl std::fmt::Display for OpenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OpenError::NoInput => f.write_str("no input files found"),
            OpenError::Unreadable { reasons, more } => {
                write!(f, "no readable input: {}", reasons.join("; "))?;
                if *more > 0 {
                    write!(f, "; and {more} more (`mqdiag inventory` lists them)")?;
                }
                Ok(())
            }
            OpenError::Refused(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for OpenError {}

/// A caller's view of the opening: every method has a default that does
/// nothing.
pub trait Watch {
    /// The meter discovery counts into (files and bytes found).
    fn meter(&self) -> Option<&Arc<Meter>> {
        None
    }
    /// Everything discovery found, before anything is left out or read:
    /// an error here ends the opening.
    fn found(&self, _found: &Discovered) -> Result<(), OpenError> {
        Ok(())
    }
    /// The inputs about to be read.
    fn reading(&self, _inputs: &mut [Input]) {}
    /// The sources opened (a progress line wraps them to see them end).
    fn opened(&self, sources: Vec<Box<dyn Source>>) -> Vec<Box<dyn Source>> {
        sources
    }
}

/// No watch at all.
impl Watch for () {}

/// Reasons listed in `OpenError::Unreadable` at most: a few say why;
/// thousands (every member of a refused archive) would bury the message.
const SHOWN: usize = 5;

/// Discover and open every input of `req`.
pub fn open(req: &Request, opts: &ReadOptions, watch: &dyn Watch) -> Result<Opened, OpenError> {
    let paths = if req.paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        req.paths.clone()
    };
    let mut found = discover_following(
        &paths,
        watch.meter(),
        req.follow,
        opts.encoding.is_none(),
        opts.jobs,
    );
    watch.found(&found)?;
    let skip: Vec<(PathBuf, u64)> = req
        .skip
        .iter()
        .filter_map(|p| {
            Some((
                std::fs::canonicalize(p).ok()?,
                std::fs::metadata(p).ok()?.len(),
            ))
        })
        .collect();
    if !skip.is_empty() {
        // Only a file of a skipped one's size can be it: the others are
        // not resolved (five look-ups a file, for 100,000 files).
        found.inputs.retain(|i| match &i.location {
            Location::File(p) if skip.iter().any(|(_, n)| *n == i.bytes) => {
                std::fs::canonicalize(p)
                    .map(|c| !skip.iter().any(|(s, _)| *s == c))
                    .unwrap_or(true)
            }
            _ => true,
        });
    }
    // Identical files (loose and in an archive, copies) are read once.
    let known = std::mem::take(&mut found.head_hashes);
    let (inputs, dups) =
        crate::input::dedupe::drop_duplicates(std::mem::take(&mut found.inputs), &known);
    drop(known);
    found.inputs = inputs;
    if !dups.is_empty() {
        found.problems.extend(dups);
        found.problems.sort_by(|a, b| a.path.cmp(&b.path));
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
        if why.is_empty() {
            return Err(OpenError::NoInput);
        }
        let more = why.len().saturating_sub(SHOWN);
        let mut reasons = why;
        reasons.truncate(SHOWN);
        return Err(OpenError::Unreadable { reasons, more });
    }
    watch.reading(&mut found.inputs);
    let sources = watch.opened(open_all_of(found.inputs, opts, &req.families));
    Ok((sources, found.problems))
}

#[cfg(test)]
mod tests {
    use super::*;
    use mqdiag_model::problem::ProblemCode;

    #[test]
    fn nothing_found_and_nothing_readable_are_told_apart() {
        let d = tempfile::tempdir().unwrap();
        let req = Request {
            paths: vec![d.path().to_path_buf()],
            ..Default::default()
        };
        let err = open(&req, &ReadOptions::default(), &()).err().unwrap();
        assert_eq!(err, OpenError::NoInput);
        assert_eq!(err.to_string(), "no input files found");
        let e = OpenError::Unreadable {
            reasons: vec!["a: why".into(), "b: why".into()],
            more: 3,
        };
        assert_eq!(
            e.to_string(),
            "no readable input: a: why; b: why; and 3 more (`mqdiag inventory` lists them)"
        );
    }

    /// Small files are sniffed at discovery and not opened again until
    /// they are read: what happens to them in between is still a located
    /// problem or a file read as it is then, never a panic or a loss.
    #[test]
    fn files_that_change_after_discovery_are_read_as_they_are_then() {
        changed_after_discovery(1);
        // Threads looking at the directory's files ahead of the walk.
        changed_after_discovery(2);
    }

    fn changed_after_discovery(jobs: usize) {
        let fixture = |p: &str| {
            std::fs::read(format!("{}/../../fixtures/{p}", env!("CARGO_MANIFEST_DIR"))).unwrap()
        };
        let fdc = fixture("fdc/AMQ3321.0.FDC");
        let log = fixture("errlog/qmgrs/QM1/errors/AMQERR01.LOG");
        let d = tempfile::tempdir().unwrap();
        let at = |n: &str| d.path().join(n);
        std::fs::write(at("a.FDC"), &fdc).unwrap();
        std::fs::write(at("gone.FDC"), &fdc).unwrap();
        std::fs::write(at("grows.LOG"), &log).unwrap();
        std::fs::write(at("empty.LOG"), b"").unwrap();
        std::fs::write(at("emptied.LOG"), &log).unwrap();
        // Enough files for several threads to look at them (`look_ahead`).
        let pad = crate::input::LOOK_AHEAD_MIN;
        for k in 0..pad {
            let mut b = fdc.clone();
            b.extend_from_slice(format!("\n{k}\n").as_bytes());
            std::fs::write(at(&format!("pad-{k:03}.FDC")), b).unwrap();
        }
        let found =
            crate::input::discover_following(&[d.path().to_path_buf()], None, false, true, jobs);
        assert_eq!(found.inputs.len(), 5 + pad);
        assert!(found.inputs.iter().all(|i| i.sniffed.is_some()));
        std::fs::remove_file(at("gone.FDC")).unwrap();
        std::fs::write(at("grows.LOG"), [&log[..], &log[..]].concat()).unwrap();
        std::fs::write(at("emptied.LOG"), b"").unwrap();
        let mut rows = Vec::new();
        let mut events = Vec::new();
        for src in open_all_of(found.inputs, &ReadOptions::default(), &[]) {
            let (e, r) = crate::testkit::drain(src);
            events.push(e.len());
            rows.extend(r);
        }
        let row = |n: &str| rows.iter().find(|r| r.path.ends_with(n)).unwrap();
        // Read as it is now: twice the records it had when found.
        let grown = row("grows.LOG");
        assert_eq!(grown.format.as_str(), "errlog-text");
        let alone = crate::formats::open_all(
            vec![crate::input::Input::from_bytes("x.LOG", log.clone())],
            &ReadOptions::default(),
        );
        let per = crate::testkit::drain(alone.into_iter().next().unwrap())
            .0
            .len();
        assert!(per > 0);
        let at_row = |n: &str| events[rows.iter().position(|r| r.path.ends_with(n)).unwrap()];
        assert_eq!(at_row("grows.LOG"), 2 * per);
        // Gone: a located problem on its own row, the rest read.
        let gone = row("gone.FDC");
        assert_eq!(gone.problems[0].code, ProblemCode::UnreadableFile);
        assert!(
            gone.problems[0].message.starts_with("cannot read"),
            "{:?}",
            gone.problems
        );
        assert!(at_row("a.FDC") > 0);
        // Empty, when found or since: rows without events or problems.
        for n in ["empty.LOG", "emptied.LOG"] {
            assert_eq!((row(n).events, row(n).problem_count), (0, 0), "{n}");
        }
    }

    #[test]
    fn skipped_files_are_not_opened() {
        let d = tempfile::tempdir().unwrap();
        let a = d.path().join("AMQERR01.LOG");
        std::fs::write(&a, "x\n").unwrap();
        std::fs::write(d.path().join("report.json"), "{}\n").unwrap();
        let req = Request {
            paths: vec![d.path().to_path_buf()],
            skip: vec![d.path().join("report.json")],
            ..Default::default()
        };
        let (sources, rows) = open(&req, &ReadOptions::default(), &()).unwrap();
        assert_eq!(sources.len(), 1);
        assert!(rows.is_empty());
    }
}
