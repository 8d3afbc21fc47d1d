//! Finding the evidence: files, directories and archives named on the
//! command line, walked recursively, each file or archive member becoming an
//! `Input` that a reader can open. Archives are read in place (`archive`).

pub mod archive;
pub(crate) mod blob;
pub(crate) mod dedupe;
pub(crate) mod gz;
pub mod limits;
pub mod stream;
mod zip_directory;

use mqdiag_model::event::{Format, Origin};
use mqdiag_model::fileinfo::FileInfo;
use mqdiag_model::meter::Meter;
use mqdiag_model::problem::{ProblemCode, Severity};
use std::collections::{HashMap, HashSet};
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
    pub(crate) name: String,
    pub(crate) location: Location,
    pub bytes: u64,
    pub(crate) mtime: Option<SystemTime>,
    /// Counts the bytes readers read through `open()`, for the progress line.
    pub progress: Option<Arc<Meter>>,
    /// What the sniffers made of the file's first bytes when discovery read
    /// them anyway (a small file, for its magic and the duplicate check's
    /// hash): the file is then not opened again to be sniffed.
    pub(crate) sniffed: Option<crate::formats::Verdict>,
}

/// Where an input's bytes are.
#[derive(Debug, Clone)]
pub(crate) enum Location {
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
    /// The bytes of another location through a filter (a log collector's
    /// wrapper taken off each line: `formats::wrapper`).
    Unwrapped {
        inner: Box<Location>,
        wrapper: Arc<dyn Filter>,
    },
}

/// A reader over another reader's bytes, changed on the way.
pub(crate) trait Filter: std::fmt::Debug + Send + Sync {
    fn reader(&self, r: Box<dyn Read + Send>) -> Box<dyn Read + Send>;

    /// The same change made line by line, for a reader that splits the
    /// input into lines itself (`Input::filtered`).
    fn lines(&self) -> Box<dyn crate::lines::LineFilter>;
}

impl Location {
    fn open(&self) -> io::Result<Box<dyn Read + Send>> {
        Ok(match self {
            // Only to its size at open: a file being appended to as fast
            // as it is read would otherwise never end.
            Location::File(p) => {
                let f = fs::File::open(p)?;
                let n = f.metadata()?.len();
                Box::new(f.take(n))
            }
            Location::Memory(b) => Box::new(io::Cursor::new(b.clone())),
            Location::Range(r) => Box::new(r.open()?),
            Location::Zip(m) => m.open()?,
            Location::Gzip { inner, limit, why } => Box::new(blob::Limit::new(
                gz::GzMembers::new(inner.open()?),
                *limit,
                why.clone(),
            )),
            Location::Unwrapped { inner, wrapper } => wrapper.reader(inner.open()?),
        })
    }
}

impl Input {
    /// The origin shared by every event of this input, read as `format`.
    pub(crate) fn origin(&self, format: Format) -> Arc<Origin> {
        Origin::new(self.display.clone(), format)
    }

    pub fn from_path(display: &str, path: &Path) -> io::Result<Input> {
        Ok(Input::from_metadata(display, path, &fs::metadata(path)?))
    }

    /// The file at `path`, whose metadata the caller has.
    pub(crate) fn from_metadata(display: &str, path: &Path, md: &fs::Metadata) -> Input {
        Input {
            display: Arc::from(display),
            name: file_name(path),
            location: Location::File(path.to_path_buf()),
            bytes: md.len(),
            mtime: md.modified().ok(),
            progress: None,
            sniffed: None,
        }
    }

    /// An archive member.
    pub(crate) fn member(
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
            sniffed: None,
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
            sniffed: None,
        }
    }

    /// The file on disk this input is, when it is a file of its own (not
    /// an archive member, nor bytes in memory).
    pub fn file(&self) -> Option<&Path> {
        match &self.location {
            Location::File(p) => Some(p),
            _ => None,
        }
    }

    /// A reader over the whole input, independent of any other (each call
    /// opens anew; safe from several threads). Reads through it count
    /// towards the progress line when one is shown.
    pub fn open(&self) -> io::Result<Box<dyn Read + Send>> {
        let r = self.location.open()?;
        Ok(self.counted(r))
    }

    /// An input read through a filter (`Location::Unwrapped`): the
    /// input it filters, and the filter to apply line by line. Lines
    /// read so keep their numbers and offsets in the file itself.
    pub(crate) fn filtered(&self) -> Option<(Input, Box<dyn crate::lines::LineFilter>)> {
        match &self.location {
            Location::Unwrapped { inner, wrapper } => Some((
                Input {
                    location: (**inner).clone(),
                    ..self.clone()
                },
                wrapper.lines(),
            )),
            _ => None,
        }
    }

    fn counted(&self, r: Box<dyn Read + Send>) -> Box<dyn Read + Send> {
        match &self.progress {
            Some(m) => Box::new(m.counting(r, self.display.clone())),
            None => r,
        }
    }

    /// The first `n` bytes (fewer for a short file). Not counted as
    /// progress: sniffing is not reading.
    pub fn head(&self, n: usize) -> io::Result<Vec<u8>> {
        blob::read_head_sized(self.location.open()?, n, self.bytes)
    }

    /// A reader over the whole input not counted as progress (sniffing
    /// past an over-long first line).
    pub(crate) fn open_uncounted(&self) -> io::Result<Box<dyn Read + Send>> {
        self.location.open()
    }
}

fn file_name(p: &Path) -> String {
    p.file_name()
        .map(mqdiag_model::text::os_display)
        .unwrap_or_else(|| mqdiag_model::text::os_display(p.as_os_str()))
}

/// What discovery found: inputs to read, and rows for what could not be
/// walked (loops, unreadable directories and files).
#[derive(Debug, Default)]
pub struct Discovered {
    pub inputs: Vec<Input>,
    pub problems: Vec<FileInfo>,
    /// What the input cap kept out.
    not_read: NotRead,
    /// `MAX_INPUTS` unless a test sets a smaller cap.
    cap: Option<usize>,
    /// The archive files read (their members are `Range`/`Zip` inputs).
    pub archive_files: Vec<PathBuf>,
    /// Paths named on the command line that do not exist or cannot be
    /// opened, as `path: why`: errors the binary prints (and exits 2 for),
    /// while the rest is read.
    pub named_errors: Vec<String>,
    /// The duplicate check's hash of the first block of files the walk
    /// read whole for their magic (`dedupe::BLOCK` or smaller), by display:
    /// the check then need not open them again.
    pub(crate) head_hashes: HashMap<Arc<str>, u64>,
}

/// Files and archive members one run reads at most. Each costs memory
/// until the run ends (its inventory row, its reader's state while the
/// timeline is merged): a case of more is better split, and a directory
/// or archive of millions of files is refused instead of exhausting
/// memory. Counted in the order of discovery (files found by the walk in
/// name order, then archive members), so what is left out does not depend
/// on `-j`.
pub(crate) const MAX_INPUTS: usize = 50_000;

/// Inputs found past `MAX_INPUTS`: how many, the first and the last.
#[derive(Debug, Default)]
struct NotRead {
    count: u64,
    first: Option<String>,
    last: String,
}

impl Discovered {
    /// Take `i` unless the run's input cap is reached (then it is only
    /// counted, and named in the problem `discover` adds at the end).
    pub(crate) fn add(&mut self, i: Input) {
        if self.full() {
            self.left_out(&i.display);
        } else {
            self.inputs.push(i);
        }
    }

    fn full(&self) -> bool {
        self.inputs.len() >= self.cap.unwrap_or(MAX_INPUTS)
    }

    fn left_out(&mut self, display: &str) {
        let n = &mut self.not_read;
        n.count += 1;
        if n.first.is_none() {
            n.first = Some(display.to_string());
        }
        n.last = display.to_string();
    }

    /// One problem row, on the first input left out, for all of them.
    fn report_cap(&mut self) {
        let n = std::mem::take(&mut self.not_read);
        let Some(first) = n.first else { return };
        let more = match n.count - 1 {
            0 => String::new(),
            k => format!(" and {k} more after it (the last `{}`)", n.last),
        };
        self.problems.push(problem_row(
            &first,
            ProblemCode::UnreadableFile,
            format!(
                "not read: a run reads at most {} files and archive members; this one{more} were left out (name fewer files, or split the case)",
                self.cap.unwrap_or(MAX_INPUTS)
            ),
        ));
    }
}

/// Walk the paths given on the command line, opening archives. Never
/// fails: every path or member that cannot be read becomes a problem row.
pub fn discover(paths: &[PathBuf]) -> Discovered {
    discover_with(paths, None)
}

/// As `discover`, counting bytes unpacked from archives on `meter`.
pub(crate) fn discover_with(paths: &[PathBuf], meter: Option<&Arc<Meter>>) -> Discovered {
    discover_capped(paths, meter, None, false, true, 1)
}

/// As `discover_with`; `follow`: symbolic links that lead out of the named
/// paths are followed too (`--follow`); `sniff`: small files are sniffed
/// as they are found (`Input::sniffed`); `jobs`: threads that open and
/// sniff a directory's files (the inputs found are the same for any).
pub(crate) fn discover_following(
    paths: &[PathBuf],
    meter: Option<&Arc<Meter>>,
    follow: bool,
    sniff: bool,
    jobs: usize,
) -> Discovered {
    discover_capped(paths, meter, None, follow, sniff, jobs)
}

fn discover_capped(
    paths: &[PathBuf],
    meter: Option<&Arc<Meter>>,
    cap: Option<usize>,
    follow: bool,
    sniff: bool,
    jobs: usize,
) -> Discovered {
    let mut out = Discovered {
        cap,
        ..Discovered::default()
    };
    let mut w = Walker {
        seen: HashMap::new(),
        roots: paths
            .iter()
            .filter_map(|p| fs::canonicalize(p).ok())
            .collect(),
        follow,
        streams: Vec::new(),
        buf: Vec::new(),
        sniff,
        jobs,
    };
    let mut archives = Vec::new();
    for p in paths {
        if p.as_os_str() == "-" {
            match stream::stdin() {
                Ok(r) => w
                    .streams
                    .push((r, stream::STDIN_DISPLAY.to_string(), "stdin".into())),
                Err(why) => named_error(&mut out, stream::STDIN_DISPLAY, why),
            }
            continue;
        }
        let display = mqdiag_model::text::os_display(p.as_os_str());
        walk(
            p,
            &display,
            &mut w,
            &mut out,
            &mut archives,
            true,
            None,
            None,
        );
    }
    out.archive_files = archives.iter().map(|a| a.0.clone()).collect();
    // Archives after the walk, so that one spill file and one size budget
    // serve them all.
    // The same archive named twice is read once.
    archives.sort_by(|a, b| a.1.cmp(&b.1));
    archives.dedup_by(|a, b| a.1 == b.1);
    let total = archives.iter().fold(0u64, |t, a| t.saturating_add(a.2));
    let total = w
        .streams
        .iter()
        .fold(total, |t, s| t.saturating_add(s.0.len));
    let mut x = archive::Expander::new(&mut out, meter.cloned(), total);
    for (path, display, len, mtime) in archives {
        x.file(&path, &display, len, mtime);
    }
    // A stream is a file or an archive like any other, once copied; the
    // same stream named twice (`-` and `/dev/stdin`) is read once.
    let mut streams = std::mem::take(&mut w.streams);
    streams.dedup_by(|a, b| Arc::ptr_eq(&a.0.file, &b.0.file) && a.0.offset == b.0.offset);
    for (range, display, name) in streams {
        x.stream(range, &display, &name);
    }
    out.report_cap();
    out.inputs.sort_by(|a, b| a.display.cmp(&b.display));
    keep_identities(&mut out);
    out.problems.sort_by(|a, b| a.path.cmp(&b.path));
    out
}

/// One input per file: the same file named twice (`case/ case/x.FMT`) is
/// read once. Distinct files or members that show under one name (zip
/// members `errors/x` and `./errors/x`, a name stored twice in one
/// archive) are all read, each later one under `NAME (2)`, `NAME (3)`...
/// with a warning saying so, never dropped in silence. Expects `inputs`
/// sorted by display.
fn keep_identities(out: &mut Discovered) {
    let same_file = |a: &Input, b: &Input| match (&a.location, &b.location) {
        (Location::File(x), Location::File(y)) => {
            x == y
                || fs::canonicalize(x)
                    .ok()
                    .is_some_and(|c| fs::canonicalize(y).ok() == Some(c))
        }
        _ => false,
    };
    let taken: HashSet<Arc<str>> = out.inputs.iter().map(|i| i.display.clone()).collect();
    let mut taken = taken;
    let inputs = std::mem::take(&mut out.inputs);
    let mut kept: Vec<Input> = Vec::with_capacity(inputs.len());
    let mut run_start = 0;
    for mut i in inputs {
        if kept.last().is_none_or(|l| l.display != i.display) {
            run_start = kept.len();
            kept.push(i);
            continue;
        }
        if kept[run_start..].iter().any(|k| same_file(k, &i)) {
            continue;
        }
        let base = i.display.clone();
        let mut n = kept.len() - run_start + 1;
        let name: Arc<str> = loop {
            let c: Arc<str> = format!("{base} ({n})").into();
            if !taken.contains(&c) {
                break c;
            }
            n += 1;
        };
        taken.insert(name.clone());
        // Told on the archive's row (or the name's own when not a member),
        // like the archive's other warnings.
        let owner = base.rsplit_once('!').map_or(&*base, |(a, _)| a);
        let mut fi = FileInfo::new(owner, Format::UNKNOWN, 0);
        fi.problem(
            ProblemCode::ArchiveMember,
            None,
            Severity::Warning,
            0,
            format!(
                "two members are both shown as `{base}` (a name stored twice, or `./` or `//` in a member path): both are read, the later one shown as `{name}`"
            ),
        );
        out.problems.push(fi);
        i.display = name;
        kept.push(i);
    }
    kept.sort_by(|a, b| a.display.cmp(&b.display));
    out.inputs = kept;
}

fn problem_row(display: &str, code: ProblemCode, message: String) -> FileInfo {
    let mut fi = FileInfo::new(display, Format::UNKNOWN, 0);
    fi.problem(code, None, Severity::Error, 0, message);
    fi
}

/// An archive found by the walk: path, display, length, modification time.
type FoundArchive = (PathBuf, String, u64, Option<SystemTime>);

/// What the walk remembers: directories read (by where they really are,
/// with the name they were read under), the named paths' real places, and
/// whether links leading out of them are followed.
/// What identifies a directory: its device and inode where there are
/// such. A path made canonical costs one look-up per component, and the
/// walk needed one per directory: cubic in the depth (1,000 levels took
/// 10 s).
#[cfg(unix)]
type DirId = (u64, u64);
#[cfg(not(unix))]
type DirId = PathBuf;

#[cfg(unix)]
fn dir_id(_path: &Path, md: &fs::Metadata) -> DirId {
    use std::os::unix::fs::MetadataExt;
    (md.dev(), md.ino())
}

#[cfg(not(unix))]
fn dir_id(path: &Path, _md: &fs::Metadata) -> DirId {
    fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

struct Walker {
    seen: HashMap<DirId, String>,
    roots: Vec<PathBuf>,
    follow: bool,
    /// Pipes, FIFOs and devices named on the command line, copied: the
    /// copy, its display and its name.
    streams: Vec<(blob::Range, String, String)>,
    /// The block a file's head is read into (reused).
    buf: Vec<u8>,
    /// Whether a file read whole here is sniffed too (not when the read
    /// names an encoding: the sniffers then see the head converted).
    sniff: bool,
    /// Threads that look at a directory's files (`look_ahead`).
    jobs: usize,
}

/// A path named on the command line that cannot be read: an error the
/// binary prints (a mistyped argument, not a finding about the input).
fn named_error(out: &mut Discovered, display: &str, why: String) {
    out.named_errors.push(format!("{display}: {why}"));
}

/// Why a path named on the command line cannot be opened, if it cannot:
/// checked before the walk so that it is said once, by name.
fn cannot_open(path: &Path, md: &fs::Metadata) -> Option<String> {
    let r = if md.is_dir() {
        fs::read_dir(path).map(|_| ())
    } else if md.is_file() {
        fs::File::open(path).map(|_| ())
    } else {
        Ok(())
    };
    r.err().map(|e| e.to_string())
}

/// A reading note on `display` (info: nothing was lost).
fn note_row(display: &str, code: ProblemCode, message: String) -> FileInfo {
    let mut fi = FileInfo::new(display, Format::UNKNOWN, 0);
    fi.problem(code, None, Severity::Info, 0, message);
    fi
}

/// `listed`: the entry's type as its directory listed it (whether it is a
/// link, without a look-up of its own: 100,000 files took three each);
/// `ready`: a listed regular file already opened and looked at on another
/// thread (`look_ahead`).
#[allow(clippy::too_many_arguments)]
fn walk(
    path: &Path,
    display: &str,
    seen: &mut Walker,
    out: &mut Discovered,
    archives: &mut Vec<FoundArchive>,
    named: bool,
    listed: Option<fs::FileType>,
    ready: Option<Looked>,
) {
    // A link found inside a named directory is followed only when it
    // stays inside the named paths (a link to `/` would read the whole
    // machine), unless `--follow`.
    if !seen.follow
        && !seen.roots.iter().any(|r| r == path)
        && match listed {
            Some(t) => t.is_symlink(),
            None => fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()),
        }
        && let Ok(target) = fs::canonicalize(path)
        && !seen.roots.iter().any(|r| target.starts_with(r))
    {
        out.problems.push(note_row(
            display,
            ProblemCode::LinkNotFollowed,
            format!(
                "symbolic link to {}, outside the paths named: not followed (--follow follows it)",
                mqdiag_model::text::os_display(target.as_os_str())
            ),
        ));
        return;
    }
    // A regular file as listed is opened straight away and its metadata
    // taken from the open file: one look-up by path fewer (the walk's
    // system calls are a third of the run on 100,000 small files). When
    // that fails, the look-up below says why, as for any other entry.
    if listed.is_some_and(|t| t.is_file()) {
        if out.full() {
            out.left_out(display);
            return;
        }
        if let Some(l) = ready {
            return keep(path, l, out, archives);
        }
        if let Ok(f) = fs::File::open(path)
            && let Ok(md) = f.metadata()
            && md.is_file()
        {
            let l = look(path, display, &md, Some(f), &mut seen.buf, seen.sniff);
            return keep(path, l, out, archives);
        }
    }
    let md = match fs::metadata(path) {
        Ok(m) => m,
        Err(e) => {
            let what = if fs::symlink_metadata(path).is_ok() {
                "broken link"
            } else {
                "cannot read"
            };
            let why = format!("{what}: {e}");
            if named {
                named_error(out, display, why);
            } else {
                out.problems
                    .push(problem_row(display, ProblemCode::UnreadableFile, why));
            }
            return;
        }
    };
    if named && let Some(why) = cannot_open(path, &md) {
        return named_error(out, display, format!("cannot read: {why}"));
    }
    if md.is_file() {
        // Past the cap nothing more is opened, archives included.
        if out.full() {
            out.left_out(display);
            return;
        }
        let l = look(path, display, &md, None, &mut seen.buf, seen.sniff);
        return keep(path, l, out, archives);
    }
    if !md.is_dir() {
        if named {
            // Named on the command line: read as a stream (`/dev/stdin`,
            // `<(zcat x.gz)`, a FIFO), copied once.
            match stream::named(path, &md) {
                Ok(r) => seen.streams.push((r, display.to_string(), file_name(path))),
                Err(why) => named_error(out, display, why),
            }
            return;
        }
        // FIFOs, sockets, devices found in a directory: reading them could
        // block forever, and nobody asked for them by name.
        out.problems.push(note_row(
            display,
            ProblemCode::UnreadableFile,
            "not a regular file or directory (a FIFO, socket or device): skipped; name it on the command line to read it as a stream".to_string(),
        ));
        return;
    }
    // A directory reached twice (named twice, or through a link to it or
    // back up the tree) is read once: nothing is lost, so a note.
    let canon = dir_id(path, &md);
    if let Some(first) = seen.seen.get(&canon) {
        out.problems.push(note_row(
            display,
            ProblemCode::DuplicateFile,
            format!(
                "the directory {first}, reached again (named twice, or through a link): read once"
            ),
        ));
        return;
    }
    seen.seen.insert(canon, display.to_string());
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
    let kid = |e: fs::DirEntry| {
        let name = mqdiag_model::text::os_display(&e.file_name());
        let child_display = if display.ends_with('/') || display.ends_with('\\') {
            format!("{display}{name}")
        } else {
            format!("{display}/{name}")
        };
        (e.path(), child_display, e.file_type().ok())
    };
    if seen.jobs < 2 {
        // One at a time: a directory's paths are not all held at once
        // (1,000 of them cost the allocator 0.5 % of a run of small files).
        for (path, child_display, listed) in entries.into_iter().map(kid) {
            walk(
                &path,
                &child_display,
                seen,
                out,
                archives,
                false,
                listed,
                None,
            );
        }
        return;
    }
    let kids: Vec<(PathBuf, String, Option<fs::FileType>)> = entries.into_iter().map(kid).collect();
    let mut ready = look_ahead(&kids, seen, out);
    for (k, (path, child_display, listed)) in kids.iter().enumerate() {
        let r = ready.get_mut(k).and_then(Option::take);
        walk(path, child_display, seen, out, archives, false, *listed, r);
    }
}

/// Fewer regular files than this in a directory are looked at by the
/// walk alone (threads cost more than they save).
pub(crate) const LOOK_AHEAD_MIN: usize = 32;

/// A directory's regular files (as listed) opened, read and sniffed by
/// `seen.jobs` threads ahead of the walk, which then takes each result in
/// its turn (`walk`'s `ready`), in name order as before: the inputs,
/// hashes and verdicts are the same, only found sooner. 100,000 small
/// FDC files spent a third of the run here on one core. Only as many as
/// the input cap still has room for: the walk opens none past it.
/// A file that cannot be opened here is left to the walk, which says why.
fn look_ahead(
    kids: &[(PathBuf, String, Option<fs::FileType>)],
    seen: &Walker,
    out: &Discovered,
) -> Vec<Option<Looked>> {
    let room = out
        .cap
        .unwrap_or(MAX_INPUTS)
        .saturating_sub(out.inputs.len());
    let files: Vec<usize> = (0..kids.len())
        .filter(|&k| kids[k].2.is_some_and(|t| t.is_file()))
        .take(room)
        .collect();
    if files.len() < LOOK_AHEAD_MIN {
        return Vec::new();
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let sniff = seen.sniff;
    let look_one = |buf: &mut Vec<u8>, k: usize| -> Option<Looked> {
        let (path, display, _) = &kids[k];
        let f = fs::File::open(path).ok()?;
        let md = f.metadata().ok()?;
        md.is_file()
            .then(|| look(path, display, &md, Some(f), buf, sniff))
    };
    let run = || {
        let mut got = Vec::new();
        let mut buf = Vec::new();
        loop {
            let at = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let Some(&k) = files.get(at) else {
                return got;
            };
            if let Some(l) = look_one(&mut buf, k) {
                got.push((k, l));
            }
        }
    };
    let mut ready: Vec<Option<Looked>> = (0..kids.len()).map(|_| None).collect();
    std::thread::scope(|sc| {
        let others: Vec<_> = (1..seen.jobs).map(|_| sc.spawn(run)).collect();
        let mine = run();
        let theirs = others
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)));
        for (k, l) in mine.into_iter().chain(theirs) {
            ready[k] = Some(l);
        }
    });
    ready
}

/// A regular file looked at: its input, the duplicate check's hash of
/// its first block when it was read whole, and whether it is an archive.
pub(crate) struct Looked {
    input: Input,
    hash: Option<u64>,
    archive: bool,
}

/// A regular file found: an archive (known by its first bytes, whatever
/// its name) or an input. `open`: the file, when the caller opened it;
/// `buf`: the block its head is read into (reused). Touches nothing
/// shared, so several threads may look at files at once (`look_ahead`).
fn look(
    path: &Path,
    display: &str,
    md: &fs::Metadata,
    open: Option<fs::File>,
    buf: &mut Vec<u8>,
    sniff: bool,
) -> Looked {
    let mut i = Input::from_metadata(display, path, md);
    // Read to its size when looked at, as `Location::open` reads.
    let reader = |i: &Input| -> io::Result<Box<dyn Read + Send>> {
        match open {
            Some(f) => Ok(Box::new(f.take(md.len()))),
            None => i.location.open(),
        }
    };
    let mut hash = None;
    // A small file is read whole here, the duplicate check's hash kept
    // and the file sniffed: two opens of it fewer. A large one only for
    // its magic.
    let head = if i.bytes <= dedupe::BLOCK as u64 {
        reader(&i)
            .and_then(|mut r| dedupe::read_block_from(&mut r, buf))
            .map(|n| {
                let h = &buf[..n];
                hash = Some(dedupe::hash_block(h));
                let magic = archive::magic(&h[..n.min(archive::MAGIC_BYTES)]);
                if magic.is_none() && sniff {
                    i.sniffed = crate::formats::verdict_of_block(&i.name, h, n < dedupe::BLOCK);
                }
                magic
            })
    } else {
        reader(&i)
            .and_then(|r| blob::read_head_sized(r, archive::MAGIC_BYTES, i.bytes))
            .map(|h| archive::magic(&h))
    };
    Looked {
        input: i,
        hash,
        archive: head.is_ok_and(|m| m.is_some()),
    }
}

/// What `look` found, kept: an archive to open after the walk, or an input.
fn keep(path: &Path, l: Looked, out: &mut Discovered, archives: &mut Vec<FoundArchive>) {
    let i = l.input;
    if let Some(h) = l.hash {
        out.head_hashes.insert(i.display.clone(), h);
    }
    if l.archive {
        archives.push((path.to_path_buf(), i.display.to_string(), i.bytes, i.mtime));
    } else {
        out.add(i);
    }
}

/// The queue manager a configuration file belongs to by where it lies:
/// `.../qmgrs/<dir>/...` (MQ writes `.` of a name as `!` in its
/// directory), else none.
pub fn qmgr_of_path(path: &str) -> Option<String> {
    let parts: Vec<&str> = path.split(['/', '\\']).collect();
    let i = parts.iter().position(|p| p.eq_ignore_ascii_case("qmgrs"))?;
    let dir = parts
        .get(i + 1)
        .filter(|d| !d.is_empty() && i + 2 < parts.len())?;
    Some(dir.replace('!', "."))
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
    fn inputs_past_the_cap_are_named_not_read() {
        use std::io::Write;
        let d = tempfile::tempdir().unwrap();
        for n in ["a", "b", "c"] {
            fs::write(d.path().join(format!("{n}.LOG")), "x\n").unwrap();
        }
        let mut w = zip::ZipWriter::new(io::Cursor::new(Vec::new()));
        for n in ["m1", "m2", "m3"] {
            w.start_file(n, zip::write::SimpleFileOptions::default())
                .unwrap();
            w.write_all(b"y\n").unwrap();
        }
        fs::write(d.path().join("z.zip"), w.finish().unwrap().into_inner()).unwrap();
        let shown = |i: &Input| i.display.rsplit('/').next().unwrap().to_string();
        let all = discover_capped(&[d.path().to_path_buf()], None, Some(6), false, true, 1);
        assert_eq!(all.inputs.len(), 6);
        assert!(all.problems.is_empty());
        let some = discover_capped(&[d.path().to_path_buf()], None, Some(4), false, true, 1);
        let kept: Vec<String> = some.inputs.iter().map(shown).collect();
        assert_eq!(kept, ["a.LOG", "b.LOG", "c.LOG", "z.zip!m1"]);
        assert_eq!(some.problems.len(), 1);
        let p = &some.problems[0];
        assert!(p.path.ends_with("z.zip!m2"), "{}", p.path);
        let msg = &p.problems[0].message;
        assert!(msg.contains("at most 4 files"), "{msg}");
        assert!(msg.contains("1 more after it (the last `"), "{msg}");
        assert!(msg.ends_with("(name fewer files, or split the case)"));
        assert!(msg.contains("z.zip!m3`"), "{msg}");
        // Past the cap, an archive is not even opened.
        let none = discover_capped(&[d.path().to_path_buf()], None, Some(2), false, true, 1);
        assert!(none.problems[0].path.ends_with("c.LOG"));
        assert!(
            none.problems[0].problems[0]
                .message
                .contains("1 more after it")
        );
    }

    /// Several threads looking at a directory's files ahead of the walk
    /// find what one finds: the same inputs, verdicts, hashes, archives
    /// and problems, and the same files left out past the cap.
    #[test]
    fn files_looked_at_by_several_threads_are_found_as_by_one() {
        use std::io::Write;
        let d = tempfile::tempdir().unwrap();
        let fdc = "+----+\n| IBM MQ First Failure Symptom Report |\n| Probe Id :- XY0001 |\n";
        for k in 0..LOOK_AHEAD_MIN + 9 {
            fs::write(d.path().join(format!("f{k:03}.FDC")), format!("{fdc}{k}\n")).unwrap();
        }
        fs::write(d.path().join("f005-copy.FDC"), format!("{fdc}5\n")).unwrap();
        fs::write(d.path().join("empty.LOG"), b"").unwrap();
        fs::write(d.path().join("large.LOG"), vec![b'x'; dedupe::BLOCK + 1]).unwrap();
        let mut w = zip::ZipWriter::new(io::Cursor::new(Vec::new()));
        w.start_file("m1", zip::write::SimpleFileOptions::default())
            .unwrap();
        w.write_all(b"y\n").unwrap();
        fs::write(d.path().join("m.zip"), w.finish().unwrap().into_inner()).unwrap();
        fs::create_dir(d.path().join("sub")).unwrap();
        fs::write(d.path().join("sub/AMQERR01.LOG"), "x\n").unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(d.path().join("nowhere"), d.path().join("broken.LOG")).unwrap();
        let shape = |f: &Discovered| {
            let inputs: Vec<String> = f
                .inputs
                .iter()
                .map(|i| format!("{} {} {:?}", i.display, i.bytes, i.sniffed))
                .collect();
            let mut hashes: Vec<(String, u64)> = f
                .head_hashes
                .iter()
                .map(|(k, v)| (k.to_string(), *v))
                .collect();
            hashes.sort();
            let problems: Vec<String> = f
                .problems
                .iter()
                .map(|p| format!("{} {:?}", p.path, p.problems))
                .collect();
            (inputs, hashes, problems, f.archive_files.clone())
        };
        let found =
            |cap, jobs| discover_capped(&[d.path().to_path_buf()], None, cap, false, true, jobs);
        let one = found(None, 1);
        assert!(one.inputs.iter().filter(|i| i.sniffed.is_some()).count() > LOOK_AHEAD_MIN);
        assert_eq!(one.archive_files.len(), 1);
        for jobs in [2, 3, 8] {
            assert_eq!(shape(&found(None, jobs)), shape(&one), "-j {jobs}");
            // The cap falls inside the directory looked at ahead.
            for cap in [3, LOOK_AHEAD_MIN + 4] {
                assert_eq!(
                    shape(&found(Some(cap), jobs)),
                    shape(&found(Some(cap), 1)),
                    "-j {jobs}, cap {cap}"
                );
            }
        }
    }

    #[test]
    fn a_missing_named_path_is_an_error_naming_it_not_a_failure() {
        let d = tempfile::tempdir().unwrap();
        std::fs::write(d.path().join("AMQERR01.LOG"), "x\n").unwrap();
        let found = discover(&[
            PathBuf::from("/nonexistent/mqdiag/x"),
            d.path().to_path_buf(),
        ]);
        // The rest is still found.
        assert_eq!(found.inputs.len(), 1);
        assert_eq!(found.named_errors.len(), 1);
        assert!(
            found.named_errors[0].starts_with("/nonexistent/mqdiag/x: cannot read: "),
            "{:?}",
            found.named_errors
        );
        // An argument mistyped is not a finding about the input.
        assert!(found.problems.is_empty());
    }

    #[test]
    fn a_missing_file_inside_a_directory_is_a_problem_row() {
        // A broken link found by the walk: not named, so a problem row.
        #[cfg(unix)]
        {
            let d = tempfile::tempdir().unwrap();
            std::os::unix::fs::symlink(d.path().join("gone"), d.path().join("link")).unwrap();
            let found = discover(&[d.path().to_path_buf()]);
            assert!(found.named_errors.is_empty());
            assert_eq!(found.problems.len(), 1);
            assert!(
                found.problems[0].problems[0]
                    .message
                    .contains("broken link")
            );
        }
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
