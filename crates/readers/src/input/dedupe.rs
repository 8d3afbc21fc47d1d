//! Identical inputs are read once. The same file loose and inside a
//! `runmqras` zip, or two copies of `AMQERR01.LOG`, would otherwise double
//! every count. Only inputs of equal size are compared (sizes are known
//! from discovery without reading), and they are compared byte by byte,
//! stopping at the first block that differs: with no duplicates nothing is
//! read twice, except the first block of files that happen to share a size.
//! A duplicate costs one extra full read (the comparison) instead of a
//! hash kept for every byte of every input, which on a 10 GB case would be
//! paid on every file for the rare file present twice.

use super::{Input, Location};
use mqdiag_model::event::Format;
use mqdiag_model::fileinfo::FileInfo;
use mqdiag_model::problem::{ProblemCode, Severity};
use std::collections::{BTreeMap, HashMap};
use std::io::{self, Read};
use std::sync::Arc;

pub(crate) const BLOCK: usize = 64 * 1024;

/// Whether two inputs have the same content (false when either cannot be
/// read: each is then read, and its problem reported, on its own).
fn same_content(a: &Input, b: &Input) -> bool {
    let (Ok(mut ra), Ok(mut rb)) = (a.location.open(), b.location.open()) else {
        return false;
    };
    let mut ba = vec![0u8; BLOCK];
    let mut bb = vec![0u8; BLOCK];
    loop {
        let na = match fill(&mut ra, &mut ba) {
            Ok(n) => n,
            Err(_) => return false,
        };
        let nb = match fill(&mut rb, &mut bb) {
            Ok(n) => n,
            Err(_) => return false,
        };
        if na != nb || ba[..na] != bb[..nb] {
            return false;
        }
        if na == 0 {
            return true;
        }
    }
}

/// Read until `buf` is full or the input ends.
fn fill(r: &mut dyn Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// Reads an input's first block into `buf` (grown to `BLOCK` once, then
/// reused); how many bytes it holds.
pub(crate) fn read_block(i: &Input, buf: &mut Vec<u8>) -> io::Result<usize> {
    read_block_from(&mut i.location.open()?, buf)
}

/// `read_block` from a reader already open.
pub(crate) fn read_block_from(r: &mut dyn Read, buf: &mut Vec<u8>) -> io::Result<usize> {
    if buf.len() < BLOCK {
        buf.resize(BLOCK, 0);
    }
    fill(r, &mut buf[..BLOCK])
}

/// The hash inputs are grouped by, of a first block's bytes: keyed per
/// run, as with public keys crafted files of one size could share a hash
/// and make every pair of them be compared whole.
pub(crate) fn hash_block(block: &[u8]) -> u64 {
    use std::hash::{BuildHasher, Hasher};
    static KEYS: std::sync::OnceLock<std::hash::RandomState> = std::sync::OnceLock::new();
    let mut h = KEYS.get_or_init(std::hash::RandomState::new).build_hasher();
    h.write(block);
    h.finish()
}

/// A hash of an input's first block (None when it cannot be read): the
/// walk's when it read the file (`known`, files only: an archive member
/// may share a display with nothing on disk, never a file's).
fn head_hash(i: &Input, known: &HashMap<Arc<str>, u64>, buf: &mut Vec<u8>) -> Option<u64> {
    if let Location::File(_) = i.location
        && let Some(&h) = known.get(&i.display)
    {
        return Some(h);
    }
    let n = read_block(i, buf).ok()?;
    Some(hash_block(&buf[..n]))
}

/// Which copy is read: a loose file before an archive member (cheaper to
/// read, and the path a person opens), then the first by path.
fn preference(i: &Input) -> (bool, &str) {
    (!matches!(i.location, Location::File(_)), &i.display)
}

/// The inputs to read, and one inventory row per duplicate left out,
/// naming the copy that is read.
pub(crate) fn drop_duplicates(
    inputs: Vec<Input>,
    known: &HashMap<Arc<str>, u64>,
) -> (Vec<Input>, Vec<FileInfo>) {
    let mut buf = Vec::new();
    let mut by_size: BTreeMap<u64, Vec<usize>> = BTreeMap::new();
    for (i, x) in inputs.iter().enumerate() {
        if x.bytes > 0 {
            by_size.entry(x.bytes).or_default().push(i);
        }
    }
    let mut dup_of: Vec<Option<usize>> = vec![None; inputs.len()];
    for group in by_size.into_values().filter(|g| g.len() > 1) {
        // Then by a hash of the first block: thousands of trace files of
        // one size (they wrap at a set size) would otherwise be compared
        // pair by pair, n² opens (4,096 files: 8 million). One read each
        // here, and whole comparisons only where first blocks agree.
        let mut by_head: BTreeMap<Option<u64>, Vec<usize>> = BTreeMap::new();
        for i in group {
            by_head
                .entry(head_hash(&inputs[i], known, &mut buf))
                .or_default()
                .push(i);
        }
        // Unreadable ones (None) are each read, and reported, on their own.
        by_head.remove(&None);
        for mut group in by_head.into_values().filter(|g| g.len() > 1) {
            group.sort_by(|&a, &b| preference(&inputs[a]).cmp(&preference(&inputs[b])));
            // Distinct contents found so far in this group, by their kept copy.
            let mut kept: Vec<usize> = Vec::new();
            for i in group {
                match kept.iter().find(|&&k| same_content(&inputs[k], &inputs[i])) {
                    Some(&k) => dup_of[i] = Some(k),
                    None => kept.push(i),
                }
            }
        }
    }
    let names: Vec<String> = inputs.iter().map(|i| i.display.to_string()).collect();
    let mut rows = Vec::new();
    let mut out = Vec::with_capacity(inputs.len());
    for (i, x) in inputs.into_iter().enumerate() {
        match dup_of[i] {
            Some(k) => {
                let mut fi = FileInfo::new(&x.display, Format::UNKNOWN, x.bytes);
                fi.problem(
                    ProblemCode::DuplicateFile,
                    None,
                    Severity::Info,
                    0,
                    format!("duplicate of {}: identical content, read once", names[k]),
                );
                rows.push(fi);
            }
            None => out.push(x),
        }
    }
    (out, rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_hashes_are_keyed_by_the_run_not_public_keys() {
        use std::hash::Hasher;
        let b = b"AMQ9999E: Channel 'CH1' ended abnormally.";
        assert_eq!(hash_block(b), hash_block(b));
        let mut public = std::collections::hash_map::DefaultHasher::new();
        public.write(b);
        assert_ne!(hash_block(b), public.finish());
    }

    #[test]
    fn identical_inputs_are_read_once_whatever_their_names() {
        let log = b"record one\nrecord two\n".repeat(5000);
        let mut other = log.clone();
        let last = other.len() - 2;
        other[last] = b'X';
        let inputs = vec![
            Input::from_bytes("case.zip!errors/AMQERR01.LOG", log.clone()),
            Input::from_bytes("errors/AMQERR01.LOG", log.clone()),
            Input::from_bytes("backup/copy/AMQERR01.LOG", log.clone()),
            // Same size, differs in the last block only.
            Input::from_bytes("errors/AMQERR02.LOG", other),
            Input::from_bytes("empty1.LOG", Vec::new()),
            Input::from_bytes("empty2.LOG", Vec::new()),
        ];
        let (kept, rows) = drop_duplicates(inputs, &HashMap::new());
        let kept: Vec<&str> = kept.iter().map(|i| &*i.display).collect();
        // In memory all locations are alike: the first path is kept.
        assert_eq!(
            kept,
            vec![
                "backup/copy/AMQERR01.LOG",
                "errors/AMQERR02.LOG",
                "empty1.LOG",
                "empty2.LOG"
            ]
        );
        let rows: Vec<(&str, &str)> = rows
            .iter()
            .map(|r| (r.path.as_str(), r.notes[0].as_str()))
            .collect();
        assert_eq!(
            rows,
            vec![
                (
                    "case.zip!errors/AMQERR01.LOG",
                    "duplicate of backup/copy/AMQERR01.LOG: identical content, read once"
                ),
                (
                    "errors/AMQERR01.LOG",
                    "duplicate of backup/copy/AMQERR01.LOG: identical content, read once"
                ),
            ]
        );
    }
}
