//! `-o`: which format an output file's name asks for, whether the path may
//! be written at all, and a writer that only replaces the file once the
//! whole output is written.
//!
//! Evidence is read-only: an output that is an input, lies under an input
//! directory or is an archive being read is refused before anything is
//! opened for writing. The output goes to a temporary file beside the
//! target and is renamed over it at the end, so a failed run leaves an
//! existing file as it was and never a half-written one.

use std::fs;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// The file `-o` names; `None` for standard output (no `-o`, or `-o -`).
pub fn target(o: Option<&Path>) -> Option<&Path> {
    o.filter(|p| p.as_os_str() != "-")
}

/// The format an output file's extension asks for. `table` maps an
/// extension (without the dot, lower case, may itself contain a dot like
/// `sarif.json`) to a format; the longest matching one wins. A name without
/// an extension asks for nothing (`Ok(None)`); an extension the verb cannot
/// write is an error naming the ones it can.
pub fn infer<T: Copy>(
    o: Option<&Path>,
    table: &[(&str, T)],
    verb: &str,
) -> Result<Option<T>, String> {
    let Some(p) = target(o) else {
        return Ok(None);
    };
    let Some(name) = p.file_name() else {
        return Ok(None);
    };
    let name = name.to_string_lossy().to_ascii_lowercase();
    let Some((_, ext)) = name.split_once('.').filter(|(stem, _)| !stem.is_empty()) else {
        return Ok(None);
    };
    let best = table
        .iter()
        .filter(|(e, _)| ext == *e || ext.ends_with(&format!(".{e}")))
        .max_by_key(|(e, _)| e.len());
    match best {
        Some((_, f)) => Ok(Some(*f)),
        None => {
            let last = ext.rsplit('.').next().unwrap_or(ext);
            let accepted: Vec<String> = table.iter().map(|(e, _)| format!(".{e}")).collect();
            Err(format!(
                "-o {}: `{verb}` cannot write .{last} files; it writes {} (or name the format with --format)",
                p.display(),
                accepted.join(", ")
            ))
        }
    }
}

/// `--format` as given, unless the `-o` file's extension asks for another
/// format this verb writes: then an error naming both (a `.html` file of
/// JSON is a mistake either way). An extension the table does not know is
/// no conflict: `--format` names the format of such a file.
pub fn agree<T: Copy + PartialEq>(
    given: T,
    given_name: &str,
    o: Option<&Path>,
    table: &[(&str, T)],
) -> Result<T, String> {
    match infer(o, table, "") {
        Ok(Some(asked)) if asked != given => {
            let ext = table
                .iter()
                .filter(|(_, f)| *f == asked)
                .map(|(e, _)| *e)
                .next()
                .unwrap_or("");
            Err(format!(
                "--format {given_name} and -o {} disagree: a .{ext} file is written in another format; drop --format, or name the file for {given_name}",
                o.map(|p| p.display().to_string()).unwrap_or_default(),
            ))
        }
        _ => Ok(given),
    }
}

/// A command-line value's name, as typed (`json`).
pub fn value_name<V: clap::ValueEnum>(v: &V) -> String {
    v.to_possible_value()
        .map(|p| p.get_name().to_string())
        .unwrap_or_default()
}

/// The directory a new file at `p` would be created in.
fn parent_of(p: &Path) -> &Path {
    match p.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

/// Where `p` is, symbolic links and `..` resolved, whether or not the file
/// exists yet (its directory must).
fn resolved(p: &Path) -> Option<PathBuf> {
    if let Ok(c) = fs::canonicalize(p) {
        return Some(c);
    }
    Some(fs::canonicalize(parent_of(p)).ok()?.join(p.file_name()?))
}

#[cfg(unix)]
fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (fs::metadata(a), fs::metadata(b)) {
        (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
        _ => false,
    }
}

#[cfg(not(unix))]
fn same_file(_: &Path, _: &Path) -> bool {
    false
}

/// Whether `out` may be written while `reads` (input paths, archives, a
/// baseline) are read: its directory exists, it is not a directory, and it
/// is none of the inputs nor under an input directory.
pub fn check(out: &Path, reads: &[PathBuf]) -> Result<(), String> {
    let dir = parent_of(out);
    if !dir.is_dir() {
        return Err(format!(
            "cannot write {}: directory {} does not exist",
            out.display(),
            dir.display()
        ));
    }
    if out.is_dir() {
        return Err(format!("cannot write {}: it is a directory", out.display()));
    }
    let Some(o) = resolved(out) else {
        return Err(format!("cannot write {}: no such place", out.display()));
    };
    for r in reads {
        let Ok(c) = fs::canonicalize(r) else { continue };
        if c == o || same_file(out, r) {
            return Err(format!(
                "-o {} is the input {}: evidence is read-only, write the output elsewhere",
                out.display(),
                r.display()
            ));
        }
        // Under an input directory as written (`case/link/x`, the link
        // leading elsewhere) or where it really is.
        let under =
            |d: &Path| lexical(out).is_some_and(|o| lexical(d).is_some_and(|d| o.starts_with(d)));
        if c.is_dir() && (o.starts_with(&c) || under(r)) {
            return Err(format!(
                "-o {} is inside the input directory {}: evidence is read-only, write the output elsewhere",
                out.display(),
                r.display()
            ));
        }
    }
    Ok(())
}

/// What a path is when it is not a regular file (for the error).
fn kind_of(m: &fs::Metadata) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = m.file_type();
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_char_device() || t.is_block_device() {
            return "a device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    if m.is_dir() {
        "a directory"
    } else {
        "not a regular file"
    }
}

/// `--redact-map`: a regular file (or one not made yet), never the `-o`
/// file (the report would replace the only key to the tokens). Checked
/// before anything is read: a FIFO is never opened (it would wait for a
/// writer).
pub fn check_map(map: &Path, out: Option<&Path>) -> Result<(), String> {
    match fs::metadata(map) {
        Ok(m) if !m.is_file() => {
            return Err(format!(
                "--redact-map {}: {}; the map of real names must be a regular file",
                map.display(),
                kind_of(&m)
            ));
        }
        Ok(_) => {}
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(format!("--redact-map {}: {e}", map.display())),
    }
    let Some(o) = target(out) else {
        return Ok(());
    };
    let same_place = resolved(map).is_some_and(|m| resolved(o).is_some_and(|o| m == o));
    if same_place || same_file(map, o) {
        return Err(format!(
            "--redact-map {} and -o {} are the same file: the report would replace the map of \
             real names; give them different files",
            map.display(),
            o.display()
        ));
    }
    Ok(())
}

/// The `--redact-map` file opened for reading, `None` when there is none
/// yet. Checked again once open: a path swapped for a FIFO or device
/// after `check_map` is refused, not read.
pub fn open_map(map: &Path) -> Result<Option<fs::File>, String> {
    let f = match fs::File::open(map) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("--redact-map {}: {e}", map.display())),
    };
    match f.metadata() {
        Ok(m) if m.is_file() => Ok(Some(f)),
        Ok(m) => Err(format!(
            "--redact-map {}: {}; the map of real names must be a regular file",
            map.display(),
            kind_of(&m)
        )),
        Err(e) => Err(format!("--redact-map {}: {e}", map.display())),
    }
}

/// Refuse `out` when it is, through whatever links, one of the files the
/// run reads (`reads`: every file found, once links are resolved). Called
/// once discovery has found them; an output that does not exist yet is
/// none of them.
/// `reads` gives each file's size where discovery knew it: only a file of
/// the output's size can be the output, and the others are not looked up
/// again (a look-up a file, for 100,000 files).
pub fn not_read<'a>(
    out: &Path,
    reads: impl Iterator<Item = (&'a Path, Option<u64>)>,
) -> Result<(), String> {
    let Ok(om) = fs::metadata(out) else {
        return Ok(());
    };
    for (r, size) in reads {
        if size.is_some_and(|n| n != om.len()) {
            continue;
        }
        #[cfg(unix)]
        let same = {
            use std::os::unix::fs::MetadataExt;
            fs::metadata(r).is_ok_and(|m| m.dev() == om.dev() && m.ino() == om.ino())
        };
        #[cfg(not(unix))]
        let same = {
            let _ = &om;
            fs::canonicalize(out).is_ok_and(|o| fs::canonicalize(r).is_ok_and(|r| r == o))
        };
        if same {
            return Err(format!(
                "-o {} is the input {} (through a link): evidence is read-only, write the output elsewhere",
                out.display(),
                r.display()
            ));
        }
    }
    Ok(())
}

/// `p` made absolute without resolving links (`a/link/x` stays so).
fn lexical(p: &Path) -> Option<PathBuf> {
    let abs = std::path::absolute(p).ok()?;
    let mut out = PathBuf::new();
    for c in abs.components() {
        match c {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            c => out.push(c),
        }
    }
    Some(out)
}

/// Standard output, or a temporary file renamed onto the `-o` path by
/// `finish`. Dropped without `finish` (a failed run), the temporary file
/// is removed and the target left as it was. A target that exists and is
/// no regular file (`/dev/null`, a FIFO) is written directly: renaming over
/// it would replace the device with a file.
pub enum Output {
    Stdout(BufWriter<io::StdoutLock<'static>>),
    Direct(BufWriter<fs::File>),
    File {
        w: BufWriter<tempfile::NamedTempFile>,
        dest: PathBuf,
    },
}

impl Output {
    /// Open the output for `o` (see `target`), after `check` against `reads`.
    pub fn open(o: Option<&Path>, reads: &[PathBuf]) -> Result<Output, String> {
        let Some(dest) = target(o) else {
            return Ok(Output::Stdout(BufWriter::with_capacity(
                256 * 1024,
                io::stdout().lock(),
            )));
        };
        check(dest, reads)?;
        // An existing link is followed: the file it names is replaced, the
        // link stays.
        let dest = &fs::canonicalize(dest).unwrap_or_else(|_| dest.to_path_buf());
        match fs::metadata(dest) {
            Ok(m) if m.is_dir() => {
                return Err(format!("cannot write {}: a directory", dest.display()));
            }
            Ok(m) if !m.is_file() => {
                let f = fs::OpenOptions::new()
                    .write(true)
                    .open(dest)
                    .map_err(|e| format!("cannot write {}: {e}", dest.display()))?;
                return Ok(Output::Direct(BufWriter::with_capacity(256 * 1024, f)));
            }
            _ => {}
        }
        let tmp = tempfile::Builder::new()
            .prefix(".mqdiag-")
            .suffix(".tmp")
            .tempfile_in(parent_of(dest))
            .map_err(|e| format!("cannot write {}: {e}", dest.display()))?;
        Ok(Output::File {
            w: BufWriter::with_capacity(256 * 1024, tmp),
            dest: dest.to_path_buf(),
        })
    }

    /// Flush, and put the file in place.
    pub fn finish(self) -> io::Result<()> {
        self.finish_with(false)
    }

    /// As `finish`, the file readable by its owner only (0600), whatever
    /// it replaces: for `--redact-map`, a key to every real name.
    pub fn finish_private(self) -> io::Result<()> {
        self.finish_with(true)
    }

    fn finish_with(self, private: bool) -> io::Result<()> {
        match self {
            Output::Stdout(mut w) => w.flush(),
            Output::Direct(mut w) => {
                // An existing device or FIFO is written as it is.
                let _ = private;
                w.flush()
            }
            Output::File { w, dest } => {
                let tmp = w.into_inner().map_err(|e| e.into_error())?;
                tmp.as_file().sync_all()?;
                // A temporary file is private (0600); the report is an
                // ordinary file: keep the mode of the file it replaces, or
                // the usual 0644.
                #[cfg(unix)]
                {
                    use std::os::unix::fs::PermissionsExt;
                    let mode = if private {
                        0o600
                    } else {
                        fs::metadata(&dest)
                            .map(|m| m.permissions().mode())
                            .unwrap_or(0o644)
                    };
                    fs::set_permissions(tmp.path(), fs::Permissions::from_mode(mode))?;
                }
                tmp.persist(&dest).map(|_| ()).map_err(|e| e.error)
            }
        }
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Output::Stdout(w) => w.write(buf),
            Output::Direct(w) => w.write(buf),
            Output::File { w, .. } => w.write(buf),
        }
    }
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match self {
            Output::Stdout(w) => w.write_all(buf),
            Output::Direct(w) => w.write_all(buf),
            Output::File { w, .. } => w.write_all(buf),
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        match self {
            Output::Stdout(w) => w.flush(),
            Output::Direct(w) => w.flush(),
            Output::File { w, .. } => w.flush(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const T: &[(&str, u8)] = &[("json", 1), ("sarif", 2), ("sarif.json", 2), ("txt", 3)];

    fn inf(p: &str) -> Result<Option<u8>, String> {
        infer(Some(Path::new(p)), T, "analyze")
    }

    #[test]
    fn extensions() {
        assert_eq!(inf("r.json"), Ok(Some(1)));
        assert_eq!(inf("dir/R.JSON"), Ok(Some(1)));
        assert_eq!(inf("r.sarif.json"), Ok(Some(2)));
        assert_eq!(inf("r.sarif"), Ok(Some(2)));
        assert_eq!(inf("report"), Ok(None));
        assert_eq!(inf(".hidden"), Ok(None));
        assert_eq!(inf("-"), Ok(None));
        let e = inf("r.csv").unwrap_err();
        assert!(e.contains(".csv") && e.contains(".json, .sarif"), "{e}");
        assert_eq!(infer(None, T, "analyze"), Ok(None));
    }

    #[test]
    fn refuses_inputs_and_missing_directories() {
        let d = tempfile::tempdir().unwrap();
        let input = d.path().join("in");
        fs::create_dir(&input).unwrap();
        let f = input.join("AMQERR01.LOG");
        fs::write(&f, "x").unwrap();
        let reads = vec![input.clone()];
        assert!(
            check(&f, &reads)
                .unwrap_err()
                .contains("inside the input directory")
        );
        assert!(check(&input.join("new.json"), &reads).is_err());
        assert!(
            check(&f, std::slice::from_ref(&f))
                .unwrap_err()
                .contains("is the input")
        );
        // Through `..`: the same file.
        let odd = input.join("..").join("in").join("AMQERR01.LOG");
        assert!(check(&odd, std::slice::from_ref(&f)).is_err());
        assert!(check(&d.path().join("report.json"), &reads).is_ok());
        assert!(
            check(&d.path().join("nope").join("r.json"), &reads)
                .unwrap_err()
                .contains("does not exist")
        );
        assert!(check(&input, &[]).unwrap_err().contains("directory"));
    }

    #[cfg(unix)]
    #[test]
    fn refuses_a_hard_link_to_an_input() {
        let d = tempfile::tempdir().unwrap();
        let f = d.path().join("a.FMT");
        fs::write(&f, "x").unwrap();
        let l = d.path().join("b.txt");
        fs::hard_link(&f, &l).unwrap();
        assert!(check(&l, std::slice::from_ref(&f)).is_err());
    }

    /// `-o /dev/null` (benchmarks, scripts) must not replace the device
    /// with a file; a link to a report stays a link.
    #[cfg(unix)]
    #[test]
    fn devices_are_written_in_place_and_links_followed() {
        use std::os::unix::fs::FileTypeExt;
        let null = Path::new("/dev/null");
        let mut o = Output::open(Some(null), &[]).unwrap();
        o.write_all(b"report").unwrap();
        o.finish().unwrap();
        assert!(fs::metadata(null).unwrap().file_type().is_char_device());
        let d = tempfile::tempdir().unwrap();
        let real = d.path().join("real.txt");
        let link = d.path().join("link.txt");
        fs::write(&real, "old").unwrap();
        std::os::unix::fs::symlink(&real, &link).unwrap();
        let mut o = Output::open(Some(&link), &[]).unwrap();
        o.write_all(b"new").unwrap();
        o.finish().unwrap();
        assert!(
            fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(fs::read_to_string(&real).unwrap(), "new");
        assert!(Output::open(Some(d.path()), &[]).is_err());
    }

    #[test]
    fn replaces_only_when_finished() {
        let d = tempfile::tempdir().unwrap();
        let dest = d.path().join("r.txt");
        fs::write(&dest, "old").unwrap();
        let mut o = Output::open(Some(&dest), &[]).unwrap();
        o.write_all(b"new").unwrap();
        drop(o); // a failed run
        assert_eq!(fs::read_to_string(&dest).unwrap(), "old");
        assert_eq!(
            fs::read_dir(d.path()).unwrap().count(),
            1,
            "temporary file left"
        );
        let mut o = Output::open(Some(&dest), &[]).unwrap();
        o.write_all(b"new").unwrap();
        o.finish().unwrap();
        assert_eq!(fs::read_to_string(&dest).unwrap(), "new");
        assert_eq!(fs::read_dir(d.path()).unwrap().count(), 1);
    }
}
