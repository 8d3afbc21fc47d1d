//! Archives read in place: `.zip` (as `runmqras` writes them), `.tar`,
//! `.tar.gz`/`.tgz`, single-file `.gz`, and archives inside archives. They
//! are recognised by their first bytes, not their names. Each member
//! becomes an `Input` whose path names it: `case.zip!var/mqm/errors/AMQERR01.LOG`,
//! `outer.tgz!inner.zip!x/AMQ1.0.FMT`.
//!
//! How each kind is read:
//! - zip: the central directory is read once; each member is then streamed
//!   from the archive file on demand (stored, or inflated on the fly), with
//!   its declared size enforced and its CRC checked at the end. Nothing is
//!   copied.
//! - tar: one pass over the headers records where each member's bytes lie
//!   in the file; members are then read straight from there.
//! - tar.gz: gzip cannot seek, so one sequential pass unpacks the members
//!   into an anonymous temporary file (see `blob::Spill`), read from there.
//!   Re-decompressing from the start for every member (twice: sniff, read)
//!   would cost O(members × archive size).
//! - .gz holding one file: streamed through the decompressor on every open.
//! - An archive inside a member: read in place when its bytes lie as they
//!   are in the outer file (tar member, stored zip member), otherwise
//!   unpacked into the temporary file first.
//!
//! Hostile archives are refused member by member, each refusal an error row
//! naming the member, and the rest of the run goes on: paths that leave the
//! archive (`../x`) or are absolute, symbolic and hard links, devices,
//! encrypted members, compression methods other than stored and deflated,
//! and decompression bombs (see the limits below; a zip member that
//! inflates past its declared size is stopped while it is read).

use super::blob::{Limit, Method, Range, Spill, SpillError, ZipMember, read_head};
use super::limits::*;
use super::zip_directory::{
    ZipEntry, dos_time, inflate_extent, listed_members, overlapping, zip_mtime, zip64_sizes,
};
use super::{Discovered, Input, Location, problem_row};
use mqdiag_model::meter::Meter;
use mqdiag_model::problem::{ProblemCode, Severity};
use std::io::Read;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

// All of these are counted while archives are listed, which is done by
// one thread in a fixed order before any input is read: what is refused
// is the same for every `-j`. The per-member limits enforced while a member
// is read (declared size, ratio) depend on that member alone.

/// Longest member path read (Linux's `PATH_MAX`; a tar's pax header can
/// state any length), and how much of a longer one is shown.
const MAX_NAME_BYTES: usize = 4096;
const NAME_SHOWN: usize = 200;

/// How many bytes decide whether a file is an archive (`ustar` sits at 257).
pub(crate) const MAGIC_BYTES: usize = 512;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Magic {
    Zip,
    Gzip,
    Tar,
}

/// The archive kind a file's first bytes announce.
pub(crate) fn magic(head: &[u8]) -> Option<Magic> {
    if head.starts_with(b"PK\x03\x04") || head.starts_with(b"PK\x05\x06") {
        // A local file header, or the end record of an empty archive.
        Some(Magic::Zip)
    } else if head.starts_with(&[0x1f, 0x8b, 0x08]) {
        // gzip with deflate, the only method gzip defines.
        Some(Magic::Gzip)
    } else if head.len() >= 262 && &head[257..262] == b"ustar" {
        Some(Magic::Tar)
    } else {
        None
    }
}

fn human(n: u64) -> String {
    const GIB: u64 = 1 << 30;
    const MIB: u64 = 1 << 20;
    if n >= GIB && n.is_multiple_of(GIB) {
        format!("{} GiB", n / GIB)
    } else if n >= MIB && n.is_multiple_of(MIB) {
        format!("{} MiB", n / MIB)
    } else {
        format!("{n} bytes")
    }
}

/// Why a member path is refused, if it is; else the path as displayed
/// (`./` components dropped).
#[cfg(test)]
fn member_path(raw: &str) -> Result<String, MemberError> {
    member_path_bytes(raw.as_bytes())
}

/// `member_path` on the name's bytes as the archive stores them: each
/// component shown by `text::name_bytes_display`, so that bytes that are
/// not UTF-8 and control characters are escaped and two different names
/// never show as one.
fn member_path_bytes(raw: &[u8]) -> Result<String, MemberError> {
    if raw.contains(&0) {
        return Err(MemberError::NulInPath);
    }
    let b = raw;
    let drive = b.len() >= 2 && b[0].is_ascii_alphabetic() && b[1] == b':';
    if raw.starts_with(b"/") || raw.starts_with(b"\\") || drive {
        return Err(MemberError::AbsolutePath);
    }
    let mut parts = Vec::new();
    for p in raw.split(|&c| c == b'/' || c == b'\\') {
        match p {
            b"" | b"." => {}
            b".." => return Err(MemberError::LeavesArchive),
            _ => parts.push(mqdiag_model::text::name_bytes_display(p)),
        }
    }
    if parts.is_empty() {
        return Err(MemberError::EmptyPath);
    }
    Ok(parts.join("/"))
}

fn leaf(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// The name a `.gz` file's content is known by: `gunzip`'s rule.
fn strip_gz(name: &str) -> String {
    let low = name.to_ascii_lowercase();
    if let Some(stem) = low.strip_suffix(".tgz") {
        return format!("{}.tar", &name[..stem.len()]);
    }
    for suf in [".gz", ".z"] {
        if low.ends_with(suf) && name.len() > suf.len() {
            return name[..name.len() - suf.len()].to_string();
        }
    }
    name.to_string()
}

/// The most a gzip stream of `compressed` bytes may produce.
fn gz_limit(compressed: u64) -> u64 {
    compressed
        .saturating_mul(MAX_RATIO)
        .clamp(RATIO_FLOOR, MAX_TOTAL_BYTES)
}

fn gz_why(compressed: u64) -> String {
    format!(
        "{MAX_RATIO}x its {compressed} compressed bytes, at least {}, at most {}",
        human(RATIO_FLOOR),
        human(MAX_TOTAL_BYTES)
    )
}

/// Walks archives, adding members to `out`.
pub(super) struct Expander<'a> {
    out: &'a mut Discovered,
    spill: Option<Spill>,
    /// Bytes unpacked or declared by archives so far (`MAX_TOTAL_BYTES`).
    expanded: u64,
    /// The same, for the top-level archive being listed (`MAX_ARCHIVE_BYTES`).
    archive_expanded: u64,
    /// The size of every archive of the run together, and what they may
    /// spill (`spill_limit` of it).
    archives_len: u64,
    spill_budget: u64,
    /// Counts unpacked bytes for the progress line.
    meter: Option<Arc<Meter>>,
    /// Members of the top-level archive being listed refused so far, and
    /// the last one past `SHOWN_REFUSALS` (name and reason).
    refused: u64,
    last_refused: Option<(String, String)>,
}

/// Refused members of one archive told one by one; the rest are one
/// problem with their count (300,000 overlapping zip entries made a
/// 3.6 GB report).
const SHOWN_REFUSALS: u64 = 10;

/// Where a tar's member bytes are.
enum Place<'a> {
    /// In the archive's own range (an uncompressed tar).
    InPlace(&'a Range),
    /// Only in the stream: copy each member to the spill file.
    Spill,
}

impl<'a> Expander<'a> {
    /// An expander for the archives of a run, `archives_len` bytes
    /// together (their one spill budget).
    pub(crate) fn new(
        out: &'a mut Discovered,
        meter: Option<Arc<Meter>>,
        archives_len: u64,
    ) -> Self {
        Expander {
            out,
            spill: None,
            expanded: 0,
            archive_expanded: 0,
            archives_len,
            spill_budget: spill_limit(archives_len),
            meter,
            refused: 0,
            last_refused: None,
        }
    }

    fn refuse(&mut self, display: &str, msg: impl Into<String>) {
        self.refuse_as(display, ProblemCode::ArchiveMember, msg);
    }

    /// An archive or member that could not be read at all.
    fn unreadable(&mut self, display: &str, msg: impl Into<String>) {
        self.refuse_as(display, ProblemCode::UnreadableFile, msg);
    }

    fn refuse_as(&mut self, display: &str, code: ProblemCode, msg: impl Into<String>) {
        if display.contains('!') {
            self.refused += 1;
            if self.refused > SHOWN_REFUSALS {
                self.last_refused = Some((display.to_string(), msg.into()));
                return;
            }
        }
        self.out
            .problems
            .push(problem_row(display, code, msg.into()));
    }

    /// The members of `display` refused past the first few: one problem.
    fn report_refused(&mut self, display: &str) {
        let more = self.refused.saturating_sub(SHOWN_REFUSALS);
        self.refused = 0;
        if let Some((last, why)) = self.last_refused.take() {
            self.out.problems.push(problem_row(
                display,
                ProblemCode::ArchiveMember,
                format!(
                    "{more} more member(s) refused after the first {SHOWN_REFUSALS} (the last `{last}`: {why})"
                ),
            ));
        }
    }

    fn warn(&mut self, display: &str, msg: impl Into<String>) {
        let mut fi =
            mqdiag_model::fileinfo::FileInfo::new(display, mqdiag_model::event::Format::UNKNOWN, 0);
        fi.variant = Some("archive".to_string());
        fi.problem(
            ProblemCode::ArchiveMember,
            None,
            Severity::Warning,
            0,
            msg.into(),
        );
        self.out.problems.push(fi);
    }

    /// Count `size` more unpacked bytes against the run's total; false (and
    /// the member refused) when that would pass it.
    fn budget(&mut self, display: &str, size: u64) -> bool {
        if size > MAX_MEMBER_BYTES {
            self.refuse(
                display,
                format!(
                    "refused: {size} bytes unpacked, more than the {} a member may hold",
                    human(MAX_MEMBER_BYTES)
                ),
            );
            return false;
        }
        if self
            .archive_expanded
            .checked_add(size)
            .is_none_or(|t| t > MAX_ARCHIVE_BYTES)
        {
            self.refuse(
                display,
                format!(
                    "refused: unpacking its {size} bytes would take its archive's total past {} (decompression bomb?)",
                    human(MAX_ARCHIVE_BYTES)
                ),
            );
            return false;
        }
        match self.expanded.checked_add(size) {
            Some(t) if t <= MAX_TOTAL_BYTES => {
                self.expanded = t;
                self.archive_expanded += size;
                true
            }
            _ => {
                self.refuse(
                    display,
                    format!(
                        "refused: unpacking its {size} bytes would take the archives' total past {} (decompression bomb?)",
                        human(MAX_TOTAL_BYTES)
                    ),
                );
                false
            }
        }
    }

    /// True (and `display` refused) when an archive found `depth` layers
    /// down may not be opened. Checked before anything of it is unpacked
    /// into the temporary file.
    fn too_deep(&mut self, display: &str, depth: u32) -> bool {
        if depth < MAX_DEPTH {
            return false;
        }
        self.refuse(
            display,
            format!("refused: archive nested more than {MAX_DEPTH} levels deep"),
        );
        true
    }

    /// Copy a stream into the spill file.
    fn spill(&mut self, r: impl Read, display: &str) -> Option<Range> {
        if self.spill.is_none() {
            match Spill::new() {
                Ok(s) => self.spill = Some(s),
                Err(e) => {
                    self.refuse(
                        display,
                        format!(
                            "cannot create a temporary file to unpack into (in {}; set TMPDIR): {e}",
                            std::env::temp_dir().display()
                        ),
                    );
                    return None;
                }
            }
        }
        let (room, why) = self.spill_room();
        let spill = self.spill.as_mut().expect("created above");
        match spill.append(Limit::new(r, room, why), self.meter.as_deref()) {
            Ok(r) => Some(r),
            Err(SpillError::Read { error, copied }) => {
                // What was copied has been given back already.
                self.refuse(
                    display,
                    format!("cannot unpack: {error} (after {copied} bytes)"),
                );
                None
            }
            Err(SpillError::Write(e)) => {
                self.refuse(
                    display,
                    format!(
                        "cannot write the temporary file in {} (set TMPDIR to a larger disk): {e}",
                        std::env::temp_dir().display()
                    ),
                );
                None
            }
        }
    }

    /// Bytes the temporary file may still take in (what it holds counts:
    /// a refused member's bytes are given back), and why that many.
    fn spill_room(&self) -> (u64, String) {
        let held = self.spill.as_ref().map_or(0, Spill::written);
        let room = self.spill_budget.saturating_sub(held);
        let why = if self.spill_budget < MAX_SPILL_BYTES {
            format!(
                "the run's archives may unpack {} into the temporary file: {MAX_RATIO}x their {} bytes, at least {}",
                human(self.spill_budget),
                self.archives_len,
                human(RATIO_FLOOR)
            )
        } else {
            format!(
                "the {} the temporary file may hold in one run",
                human(MAX_SPILL_BYTES)
            )
        };
        (room, why)
    }

    /// False (and `display` refused) when a member declaring `size` bytes
    /// cannot fit in what the temporary file may still take: refused
    /// before a byte of it is unpacked.
    fn spill_fits(&mut self, display: &str, size: u64) -> bool {
        let (room, why) = self.spill_room();
        if size <= room {
            return true;
        }
        self.refuse(
            display,
            format!("refused: its {size} bytes would not fit in the temporary file ({why}; {room} bytes left; decompression bomb?)"),
        );
        false
    }

    /// A file found on disk whose first bytes announce an archive.
    pub(crate) fn file(&mut self, path: &Path, display: &str, len: u64, mtime: Option<SystemTime>) {
        self.archive_expanded = 0;
        if self.out.full() {
            return self.out.left_out(display);
        }
        let name = super::file_name(path);
        self.refused = 0;
        match std::fs::File::open(path) {
            Ok(f) => self.blob(Range::shared(Arc::new(f), len), display, &name, mtime, 0),
            Err(e) => self.unreadable(display, format!("cannot read: {e}")),
        }
        self.report_refused(display);
    }

    /// A stream named on the command line (standard input, a pipe), copied
    /// into `blob`: an archive is opened, anything else is one input.
    pub(crate) fn stream(&mut self, blob: Range, display: &str, name: &str) {
        self.archive_expanded = 0;
        if self.out.full() {
            return self.out.left_out(display);
        }
        self.refused = 0;
        self.blob(blob, display, name, None, 0);
        self.report_refused(display);
    }

    /// Bytes that may be an archive, `depth` layers down.
    fn blob(
        &mut self,
        blob: Range,
        display: &str,
        name: &str,
        mtime: Option<SystemTime>,
        depth: u32,
    ) {
        let head = match blob.head(MAGIC_BYTES) {
            Ok(h) => h,
            Err(e) => return self.unreadable(display, format!("cannot read: {e}")),
        };
        let Some(m) = magic(&head) else {
            let bytes = blob.len;
            self.out.add(Input::member(
                display,
                name,
                Location::Range(blob),
                bytes,
                mtime,
            ));
            return;
        };
        if self.too_deep(display, depth) {
            return;
        }
        match m {
            Magic::Zip => self.zip(&blob, display, depth + 1),
            Magic::Tar => match blob.open() {
                Ok(w) => {
                    let mut ar = tar::Archive::new(w);
                    match ar.entries_with_seek() {
                        Ok(entries) => self.tar(entries, Place::InPlace(&blob), display, depth + 1),
                        Err(e) => self.unreadable(display, format!("cannot read tar archive: {e}")),
                    }
                }
                Err(e) => self.unreadable(display, format!("cannot read: {e}")),
            },
            Magic::Gzip => self.gzip(blob, display, name, mtime, depth + 1),
        }
    }

    fn gzip(
        &mut self,
        blob: Range,
        display: &str,
        name: &str,
        mtime: Option<SystemTime>,
        depth: u32,
    ) {
        let limit = gz_limit(blob.len);
        let why: Arc<str> = Arc::from(gz_why(blob.len));
        let open = |b: &Range| {
            b.open()
                .map(|w| Limit::new(super::gz::GzMembers::new(w), limit, why.clone()))
        };
        let head = match open(&blob).and_then(|r| read_head(r, MAGIC_BYTES)) {
            Ok(h) => h,
            Err(e) => return self.unreadable(display, format!("corrupt gzip data: {e}")),
        };
        match magic(&head) {
            Some(Magic::Tar) => match open(&blob) {
                Ok(r) => {
                    let mut ar = tar::Archive::new(r);
                    match ar.entries() {
                        Ok(entries) => self.tar(entries, Place::Spill, display, depth),
                        Err(e) => self.unreadable(display, format!("cannot read tar archive: {e}")),
                    }
                }
                Err(e) => self.unreadable(display, format!("cannot read: {e}")),
            },
            Some(_) => {
                // A zip or another gzip inside: it must be unpacked to be
                // read (a zip needs to seek). Not when it may not be opened.
                if self.too_deep(display, depth) {
                    return;
                }
                let room = MAX_TOTAL_BYTES.saturating_sub(self.expanded);
                let Ok(r) = open(&blob) else { return };
                let r = Limit::new(r, room, format!("the {} total", human(MAX_TOTAL_BYTES)));
                if let Some(inner) = self.spill(r, display) {
                    self.expanded += inner.len;
                    self.blob(inner, display, &strip_gz(name), mtime, depth);
                }
            }
            None => {
                // One compressed file: streamed on every open. Its size is
                // the gzip trailer's (exact below 4 GiB, modulo 4 GiB above).
                let mut bytes = blob
                    .tail(4)
                    .ok()
                    .and_then(|t| <[u8; 4]>::try_from(t.as_slice()).ok())
                    .map(|t| u64::from(u32::from_le_bytes(t)))
                    .unwrap_or(0);
                // A trailer of 0 or past the limit may be no trailer at all
                // (zero padding, a cut file, bytes after the data): what the
                // stream gives within the floor every gzip may reach decides.
                if bytes == 0 || bytes > limit {
                    match blob
                        .open()
                        .ok()
                        .and_then(|r| super::gz::usable_len(r, RATIO_FLOOR))
                    {
                        Some(n) => bytes = n,
                        None if bytes == 0 => bytes = RATIO_FLOOR,
                        None => {}
                    }
                }
                if bytes > limit {
                    return self.refuse(
                        display,
                        format!(
                            "refused: gzip trailer declares {bytes} bytes from {} compressed, a ratio above {MAX_RATIO}:1 (decompression bomb?)",
                            blob.len
                        ),
                    );
                }
                if !self.budget(display, bytes) {
                    return;
                }
                let inner = Location::Range(blob);
                self.out.add(Input::member(
                    display,
                    &strip_gz(name),
                    Location::Gzip {
                        inner: Box::new(inner),
                        limit,
                        why,
                    },
                    bytes,
                    mtime,
                ));
            }
        }
    }

    fn zip(&mut self, blob: &Range, display: &str, depth: u32) {
        let reader = match blob.open() {
            Ok(r) => r,
            Err(e) => return self.unreadable(display, format!("cannot read: {e}")),
        };
        // The zip crate parses the whole central directory up front (4 M
        // entries took 789 MB): one listing more than the cap is read from
        // its local headers instead, up to the cap.
        if let Some(n) = listed_members(blob).filter(|&n| n > MAX_MEMBERS as u64) {
            return self.zip_salvage(
                blob,
                display,
                depth,
                &format!("it lists {n} members, more than the {MAX_MEMBERS} one archive may have"),
            );
        }
        let mut za = match zip::ZipArchive::new(reader) {
            Ok(z) => z,
            Err(e) => return self.zip_salvage(blob, display, depth, &e.to_string()),
        };
        if za.has_duplicate_names() {
            self.warn(
                display,
                "several members share a name: only one of each is read",
            );
        }
        let n = za.len();
        if n > MAX_MEMBERS {
            self.warn(
                display,
                format!("{n} members: only the first {MAX_MEMBERS} are read"),
            );
        }
        let mut entries = Vec::with_capacity(n.min(MAX_MEMBERS));
        for i in 0..n.min(MAX_MEMBERS) {
            // The central directory's facts first, so that a member whose
            // local header is damaged can still be named.
            let (header, mut entry) = match za.by_index_data(i) {
                Ok(e) => {
                    #[allow(deprecated)] // the number works with or without zip's codecs
                    let method = e.compression().to_u16();
                    let entry = ZipEntry {
                        // The name as decoded by zip (CP437 or UTF-8 as
                        // its flag says), else its bytes as stored.
                        raw: e
                            .name()
                            .map(|c| c.into_owned().into_bytes())
                            .unwrap_or_else(|_| e.name_raw().to_vec()),
                        is_dir: e.is_dir(),
                        symlink: e.is_symlink(),
                        encrypted: e.encrypted(),
                        method,
                        csize: e.compressed_size(),
                        size: e.size(),
                        crc: e.crc32(),
                        start: Err(MemberError::BeyondEnd),
                        mtime: None,
                    };
                    (e.header_start(), entry)
                }
                Err(e) => {
                    self.unreadable(display, format!("cannot read member {}: {e}", i + 1));
                    continue;
                }
            };
            match za.by_index_raw(i) {
                Ok(f) => {
                    entry.start = f.data_start().ok_or(MemberError::BeyondEnd);
                    entry.mtime = zip_mtime(&f);
                }
                Err(e) => entry.start = Err(MemberError::DamagedHeader(e)),
            }
            entries.push((header, entry));
        }
        let overlaps = overlapping(&entries);
        for (k, (_, entry)) in entries.into_iter().enumerate() {
            if let Some((other, lo, hi)) = overlaps.get(&k) {
                let shown = format!(
                    "{display}!{}",
                    mqdiag_model::text::name_bytes_display(&entry.raw)
                );
                self.refuse(
                    &shown,
                    format!(
                        "refused: its bytes {lo}..{hi} in the archive overlap those of member `{other}` (the same data listed twice: a zip bomb, or a damaged archive)",
                    ),
                );
                continue;
            }
            self.zip_entry(blob, display, depth, entry);
        }
    }

    /// One zip member: refuse it, open it as a nested archive, or list it.
    fn zip_entry(&mut self, blob: &Range, display: &str, depth: u32, e: ZipEntry) {
        let shown = format!(
            "{display}!{}",
            mqdiag_model::text::name_bytes_display(&e.raw)
        );
        if e.is_dir && !e.symlink {
            return;
        }
        let path = match member_path_bytes(&e.raw) {
            Ok(p) => p,
            Err(err) => return self.refuse(&shown, err.to_string()),
        };
        let shown = format!("{display}!{path}");
        if e.symlink {
            return self.refuse(
                &shown,
                "refused: symbolic link (archives are read without following links)",
            );
        }
        if e.encrypted {
            return self.refuse(
                &shown,
                "refused: encrypted member (mqdiag does not decrypt; unpack it with the password)",
            );
        }
        let method = match e.method {
            0 => Method::Stored,
            8 => Method::Deflated,
            m => {
                return self.refuse(
                    &shown,
                    format!(
                        "refused: compressed with {} (zip method {m}); only stored and deflated members are read",
                        zip::CompressionMethod::name_from_u16(m)
                    ),
                );
            }
        };
        let (size, csize) = (e.size, e.csize);
        if size > RATIO_FLOOR && size / csize.max(1) > MAX_RATIO {
            return self.refuse(
                &shown,
                format!(
                    "refused: declares {size} bytes from {csize} compressed, a ratio above {MAX_RATIO}:1 (decompression bomb?)"
                ),
            );
        }
        let start = match e.start {
            Ok(s) if s.checked_add(csize).is_some_and(|end| end <= blob.len) => s,
            Ok(_) => return self.refuse(&shown, MemberError::BeyondEnd.to_string()),
            Err(err) => return self.refuse(&shown, err.to_string()),
        };
        let member = ZipMember {
            data: blob.sub(start, csize),
            method,
            size,
            crc: e.crc,
        };
        let head = member
            .open()
            .and_then(|r| read_head(r, MAGIC_BYTES))
            .unwrap_or_default();
        if magic(&head).is_some() {
            // An archive inside: in place when stored, else unpacked, but
            // only when it may be opened.
            if self.too_deep(&shown, depth) || !self.budget(&shown, size) {
                return;
            }
            let inner = match method {
                Method::Stored => Some(member.data.clone()),
                Method::Deflated if !self.spill_fits(&shown, size) => None,
                Method::Deflated => match member.open() {
                    Ok(r) => self.spill(r, &shown),
                    Err(err) => {
                        self.unreadable(&shown, format!("cannot read: {err}"));
                        None
                    }
                },
            };
            if let Some(inner) = inner {
                self.blob(inner, &shown, leaf(&path), e.mtime, depth);
            }
            return;
        }
        if !self.budget(&shown, size) {
            return;
        }
        self.out.add(Input::member(
            &shown,
            leaf(&path),
            Location::Zip(Arc::new(member)),
            size,
            e.mtime,
        ));
    }

    /// A zip without its central directory (a download cut short, say), or
    /// one listing more members than are read:
    /// members are found by walking their local headers from the start.
    /// Members written with a data descriptor (as Java's zip writer does)
    /// state no sizes up front, so they are inflated once here to find
    /// their end.
    fn zip_salvage(&mut self, blob: &Range, display: &str, depth: u32, why: &str) {
        let mut pos = 0u64;
        let mut found = 0usize;
        let mut stop: Option<String> = None;
        while found < MAX_MEMBERS {
            let Ok(h) = blob.sub(pos, 30).head(30) else {
                break;
            };
            if h.len() < 30 || !h.starts_with(b"PK\x03\x04") {
                break;
            }
            let u16_at = |i: usize| u16::from_le_bytes([h[i], h[i + 1]]);
            let u32_at = |i: usize| u32::from_le_bytes([h[i], h[i + 1], h[i + 2], h[i + 3]]);
            let flags = u16_at(6);
            let (nlen, elen) = (u64::from(u16_at(26)), u64::from(u16_at(28)));
            let name = blob
                .sub(pos + 30, nlen)
                .head(nlen as usize)
                .unwrap_or_default();
            let extra = blob
                .sub(pos + 30 + nlen, elen)
                .head(elen as usize)
                .unwrap_or_default();
            let start = pos + 30 + nlen + elen;
            if name.len() as u64 != nlen || start > blob.len {
                break;
            }
            let raw = mqdiag_model::text::name_bytes_display(&name);
            let mut e = ZipEntry {
                raw: name.to_vec(),
                is_dir: name.ends_with(b"/"),
                symlink: false,
                encrypted: flags & 1 != 0,
                method: u16_at(8),
                csize: u64::from(u32_at(18)),
                size: u64::from(u32_at(22)),
                crc: u32_at(14),
                start: Ok(start),
                mtime: zip::DateTime::try_from_msdos(u16_at(12), u16_at(10))
                    .ok()
                    .and_then(dos_time),
            };
            if let Some((size, csize)) = zip64_sizes(&extra, e.size, e.csize) {
                (e.size, e.csize) = (size, csize);
            }
            let mut next = start.saturating_add(e.csize);
            if flags & 8 != 0 {
                // Sizes and CRC follow the data: find its end by inflating.
                if e.method != 8 || e.encrypted {
                    stop = Some(format!(
                        "cannot find where member `{raw}` ends (no sizes before its data)"
                    ));
                    break;
                }
                match inflate_extent(&blob.sub(start, blob.len - start)) {
                    Ok((csize, size, crc)) => {
                        (e.csize, e.size, e.crc) = (csize, size, crc);
                        next = start + csize;
                        // The descriptor: optional signature, CRC, sizes.
                        let d = blob.sub(next, 24).head(24).unwrap_or_default();
                        let sig = d.starts_with(b"PK\x07\x08");
                        let at = if sig { 4 } else { 0 };
                        let stated = d
                            .get(at..at + 4)
                            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
                        if stated.is_some_and(|c| c != crc) {
                            let shown = format!("{display}!{raw}");
                            self.refuse(
                                &shown,
                                format!(
                                    "zip member fails its CRC check (stored {:08x}, computed {crc:08x}): the member is corrupt",
                                    stated.unwrap_or(0)
                                ),
                            );
                            found += 1;
                            pos = next + if sig { 16 } else { 12 };
                            continue;
                        }
                        // 32- or 64-bit sizes: whichever is followed by a header.
                        let base = next + at as u64 + 4;
                        let after = |k: u64| {
                            blob.sub(base + k, 4)
                                .head(4)
                                .is_ok_and(|b| b.starts_with(b"PK"))
                        };
                        next = base + if !after(8) && after(16) { 16 } else { 8 };
                    }
                    Err(err) => {
                        self.refuse(&format!("{display}!{raw}"), err.to_string());
                        found += 1;
                        break;
                    }
                }
            }
            found += 1;
            self.zip_entry(blob, display, depth, e);
            pos = next;
        }
        if found == 0 {
            return self.refuse(
                display,
                format!("cannot read zip archive (truncated or corrupt; no member could be located): {why}"),
            );
        }
        let mut msg = if found >= MAX_MEMBERS {
            format!(
                "central directory not read ({why}): the first {found} members read, found from their local headers"
            )
        } else {
            format!(
                "no central directory ({why}): the archive is truncated or damaged; {found} members found from their local headers"
            )
        };
        if let Some(s) = stop {
            msg.push_str(&format!("; stopped: {s}"));
        }
        self.warn(display, msg);
    }

    fn tar<R: Read>(
        &mut self,
        entries: tar::Entries<'_, R>,
        place: Place,
        display: &str,
        depth: u32,
    ) {
        let mut count = 0usize;
        for item in entries {
            let mut entry = match item {
                Ok(e) => e,
                Err(e) => {
                    return self.refuse(
                        display,
                        format!(
                            "tar archive unreadable after {count} members (truncated or corrupt): {e}"
                        ),
                    );
                }
            };
            count += 1;
            if count > MAX_MEMBERS {
                return self.warn(
                    display,
                    format!(
                        "more than {MAX_MEMBERS} members: only the first {MAX_MEMBERS} are read"
                    ),
                );
            }
            let raw = entry.path_bytes();
            if raw.len() > MAX_NAME_BYTES {
                // Shown by its start only: a name is printed on every row
                // and in every report of its file.
                let start = mqdiag_model::text::name_bytes_display(&raw[..NAME_SHOWN]);
                let n = raw.len();
                self.refuse(
                    &format!("{display}!{start}..."),
                    format!("refused: member path of {n} bytes, longer than the {MAX_NAME_BYTES} a path may have"),
                );
                continue;
            }
            let raw = raw.into_owned();
            let shown = format!("{display}!{}", mqdiag_model::text::name_bytes_display(&raw));
            use tar::EntryType as T;
            let kind = entry.header().entry_type();
            let refusal = match kind {
                T::Regular | T::Continuous => None,
                T::Directory | T::XGlobalHeader | T::XHeader | T::GNULongName | T::GNULongLink => {
                    continue;
                }
                T::Symlink => {
                    Some("refused: symbolic link (archives are read without following links)")
                }
                T::Link => Some("refused: hard link (archives are read without following links)"),
                T::GNUSparse => Some("refused: sparse file member (not supported)"),
                _ => Some("refused: not a regular file (device, FIFO or unknown entry type)"),
            };
            let path = match member_path_bytes(&raw) {
                Ok(p) => p,
                Err(err) => {
                    self.refuse(&shown, err.to_string());
                    continue;
                }
            };
            let shown = format!("{display}!{path}");
            if let Some(msg) = refusal {
                self.refuse(&shown, msg);
                continue;
            }
            let size = entry.size();
            let mtime = entry
                .header()
                .mtime()
                .ok()
                .and_then(|s| SystemTime::UNIX_EPOCH.checked_add(Duration::from_secs(s)));
            let range = match &place {
                Place::InPlace(blob) => {
                    let pos = entry.raw_file_position();
                    if pos.checked_add(size).is_none_or(|e| e > blob.len) {
                        self.refuse(
                            &shown,
                            format!(
                                "refused: the archive ends inside this member ({} of {size} bytes present; truncated archive)",
                                blob.len.saturating_sub(pos)
                            ),
                        );
                        return;
                    }
                    blob.sub(pos, size)
                }
                Place::Spill => {
                    // Its first bytes say whether it is an archive, which
                    // may be one nested too deep: refused unspilled (the
                    // tar reader skips what is left of it).
                    let head = match read_head(&mut entry, MAGIC_BYTES) {
                        Ok(h) => h,
                        Err(e) => {
                            return self.refuse(
                                &shown,
                                format!("cannot unpack: {e} (truncated or corrupt archive)"),
                            );
                        }
                    };
                    if magic(&head).is_some() && self.too_deep(&shown, depth) {
                        continue;
                    }
                    if !self.spill_fits(&shown, size) {
                        // Skipping it would mean inflating it all: what
                        // follows in this stream is not read.
                        return;
                    }
                    if !self.budget(&shown, size) {
                        continue;
                    }
                    let whole = std::io::Cursor::new(head).chain(&mut entry);
                    let Some(r) = self.spill(whole, &shown) else {
                        // The stream is broken from here on.
                        return;
                    };
                    if r.len < size {
                        self.refuse(
                            &shown,
                            format!(
                                "refused: the archive ends inside this member ({} of {size} bytes present; truncated archive)",
                                r.len
                            ),
                        );
                        return;
                    }
                    r
                }
            };
            self.blob(range, &shown, leaf(&path), mtime, depth);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magic_by_content() {
        assert_eq!(magic(b"PK\x03\x04rest"), Some(Magic::Zip));
        assert_eq!(magic(b"PK\x05\x06"), Some(Magic::Zip));
        assert_eq!(magic(&[0x1f, 0x8b, 0x08, 0]), Some(Magic::Gzip));
        assert_eq!(magic(&[0x1f, 0x8b, 0x09, 0]), None);
        let mut tar = vec![0u8; 512];
        tar[257..262].copy_from_slice(b"ustar");
        assert_eq!(magic(&tar), Some(Magic::Tar));
        assert_eq!(magic(b"Timestamp  Process.Thread"), None);
        assert_eq!(magic(b""), None);
    }

    #[test]
    fn member_paths() {
        assert_eq!(member_path("./var/mqm/x.LOG").unwrap(), "var/mqm/x.LOG");
        assert_eq!(member_path("a//b").unwrap(), "a/b");
        for leaves in ["../x", "a/../../x", "a\\..\\x"] {
            assert!(matches!(
                member_path(leaves),
                Err(MemberError::LeavesArchive)
            ));
        }
        for absolute in ["/etc/passwd", "C:\\x"] {
            assert!(matches!(
                member_path(absolute),
                Err(MemberError::AbsolutePath)
            ));
        }
        assert_eq!(
            member_path("./").unwrap_err().to_string(),
            "refused: empty member path"
        );
        // A name merely containing dots is fine.
        assert_eq!(member_path("a/..b/c..").unwrap(), "a/..b/c..");
    }

    fn entry(name: &str, start: u64, csize: u64) -> ZipEntry {
        ZipEntry {
            raw: name.as_bytes().to_vec(),
            is_dir: false,
            symlink: false,
            encrypted: false,
            method: 8,
            csize,
            size: csize,
            crc: 0,
            start: Ok(start),
            mtime: None,
        }
    }

    #[test]
    fn zip_entries_sharing_bytes_are_found() {
        // Local header at 0 (data 40..140), at 140 (data 180..280); a third
        // entry points at the first header again; a fourth starts inside
        // the second's data; a fifth lies after them all.
        let entries = vec![
            (140, entry("b", 180, 100)),
            (0, entry("a", 40, 100)),
            (0, entry("a-again", 40, 100)),
            (200, entry("inside-b", 240, 10)),
            (280, entry("c", 320, 5)),
        ];
        let o = overlapping(&entries);
        let mut got: Vec<(usize, &str)> = o.iter().map(|(k, v)| (*k, v.0.as_str())).collect();
        got.sort();
        assert_eq!(got, [(2, "a"), (3, "b")]);
        assert_eq!(o[&2].1..o[&2].2, 0..140);
        // Members that merely touch do not overlap; unlocated ones are left out.
        let mut lost = entry("lost", 0, 0);
        lost.start = Err(MemberError::BeyondEnd);
        let entries = vec![(0, entry("a", 30, 10)), (40, entry("b", 70, 0)), (0, lost)];
        assert!(overlapping(&entries).is_empty());
    }

    #[test]
    fn gz_names_and_limits() {
        assert_eq!(strip_gz("AMQERR01.LOG.gz"), "AMQERR01.LOG");
        assert_eq!(strip_gz("case.TGZ"), "case.tar");
        assert_eq!(strip_gz("x.Z"), "x");
        assert_eq!(strip_gz("noext"), "noext");
        assert_eq!(strip_gz(".gz"), ".gz");
        assert_eq!(gz_limit(10), RATIO_FLOOR);
        assert_eq!(gz_limit(1 << 20), 200 << 20);
        assert_eq!(gz_limit(u64::MAX), MAX_TOTAL_BYTES);
        assert_eq!(human(64 << 30), "64 GiB");
        assert_eq!(human(1000), "1000 bytes");
    }
}
