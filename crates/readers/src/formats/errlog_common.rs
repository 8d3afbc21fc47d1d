//! What the text and JSON error-log readers share: rotated file sets, the
//! scope and queue manager a path implies, and de-duplication of records
//! copied into two generations during rotation.

use crate::input::Input;
use mqdiag_model::fileinfo::FileInfo;
use mqdiag_model::problem::{ProblemCode, Severity};
use rustc_hash::FxBuildHasher;
use std::collections::hash_map::{DefaultHasher, RandomState};
use std::collections::{HashSet, VecDeque};
use std::hash::{BuildHasher, Hash, Hasher};
use std::sync::OnceLock;

/// `AMQERR01.LOG` → (`AMQERR`, 1). Any prefix (qm.ini `FilePrefix`), two
/// digits, the given extension, any case.
pub(crate) fn rotation_name(name: &str, ext: &str) -> Option<(String, u32)> {
    let up = name.to_ascii_uppercase();
    let stem = up.strip_suffix(&format!(".{}", ext.to_ascii_uppercase()))?;
    let b = stem.as_bytes();
    if b.len() < 2 || !b[b.len() - 2..].iter().all(u8::is_ascii_digit) {
        return None;
    }
    let generation = stem[stem.len() - 2..].parse().ok()?;
    Some((stem[..stem.len() - 2].to_string(), generation))
}

/// Group key and order for a rotated set: the directory and prefix; the
/// oldest generation (highest number) first, because AMQERR01 is always
/// the newest.
pub(crate) fn rotation_group(input: &Input, ext: &str) -> Option<(String, u32)> {
    let (prefix, generation) = rotation_name(&input.name, ext)?;
    let dir = input
        .display
        .rsplit_once(['/', '\\'])
        .map(|(d, _)| d)
        .unwrap_or("");
    Some((format!("{dir}/{prefix}"), 100u32.saturating_sub(generation)))
}

/// What the path says about an error log.
#[derive(Debug, Default, Clone, PartialEq)]
pub(crate) struct PathFacts {
    /// `qmgr`, `system` or `client`.
    pub(crate) scope: Option<&'static str>,
    pub(crate) qmgr: Option<String>,
}

/// `.../qmgrs/<QM>/errors/AMQERR01.LOG` is a queue manager's log,
/// `.../IBM/MQ/data/errors/` a client's, any other `errors/` the system
/// log. Windows separators and archive member paths (`x.zip!var/...`) too;
/// `!` is not a separator here because it is part of mangled queue-manager
/// directory names.
pub(crate) fn path_facts(display: &str) -> PathFacts {
    let parts: Vec<&str> = display
        .split(['/', '\\'])
        .filter(|p| !p.is_empty())
        .collect();
    let n = parts.len();
    if n < 2 || !parts[n - 2].eq_ignore_ascii_case("errors") {
        return PathFacts::default();
    }
    if n >= 4 && parts[n - 4].eq_ignore_ascii_case("qmgrs") {
        return PathFacts {
            scope: Some("qmgr"),
            qmgr: Some(unmangle_qmgr(parts[n - 3])),
        };
    }
    let client = n >= 5
        && parts[n - 5].eq_ignore_ascii_case("IBM")
        && parts[n - 4].eq_ignore_ascii_case("MQ")
        && parts[n - 3].eq_ignore_ascii_case("data");
    PathFacts {
        scope: Some(if client { "client" } else { "system" }),
        qmgr: None,
    }
}

/// Queue-manager directory names replace characters a file system may not
/// hold: `.` is written `!` and `/` is written `&` (QM.A → `QM!A`).
fn unmangle_qmgr(dir: &str) -> String {
    dir.replace('!', ".").replace('&', "/")
}

/// A record's identity, hashed as it is built (no joined copy). A hit in
/// `Dedup` drops the record, so the hash is made with SipHash keys drawn
/// once per run: with `DefaultHasher::new()`'s fixed, public keys a record
/// whose hash equals another's can be searched for offline (2^32 tries)
/// and would hide that other. One key set for the whole run, so that all
/// generations of a rotated set hash alike whichever thread reads them.
pub(crate) struct RecordKey(DefaultHasher);

/// The run's record-hash keys.
fn run_keys() -> &'static RandomState {
    static KEYS: OnceLock<RandomState> = OnceLock::new();
    KEYS.get_or_init(RandomState::new)
}

impl RecordKey {
    pub(crate) fn new() -> Self {
        Self::keyed(run_keys())
    }

    /// With the given keys (tests compare key sets).
    fn keyed(keys: &RandomState) -> Self {
        RecordKey(keys.build_hasher())
    }

    pub(crate) fn str(mut self, s: &str) -> Self {
        s.hash(&mut self.0);
        self
    }

    pub(crate) fn ids(mut self, pid: Option<u32>, tid: Option<u32>) -> Self {
        (pid, tid).hash(&mut self.0);
        self
    }

    pub(crate) fn finish(&self) -> u64 {
        self.0.finish()
    }
}

/// Records already read from earlier generations of a rotated set. A copy
/// taken during rotation can hold the same records as the next generation;
/// they are kept once. Only keys of earlier files are checked (the same
/// message twice in one file is two events), and only the newest
/// `MAX_KEYS` are remembered, since copies overlap at the file boundary.
#[derive(Default)]
pub(crate) struct Dedup {
    // The keys are hashes already: Fx spreads them well enough and costs
    // far less than SipHash.
    earlier: HashSet<u64, FxBuildHasher>,
    order: VecDeque<u64>,
    current: Vec<u64>,
}

const MAX_KEYS: usize = 200_000;

impl Dedup {
    /// Whether `seen_before` can tell anything: an earlier file's keys are
    /// held, or a later file of the set will be checked against this one.
    pub(crate) fn needed(&self, more_files: bool) -> bool {
        more_files || !self.earlier.is_empty()
    }

    /// Whether an earlier file had this record; remembers it either way.
    pub(crate) fn seen_before(&mut self, key: u64) -> bool {
        if self.earlier.contains(&key) {
            return true;
        }
        if self.current.len() < MAX_KEYS {
            self.current.push(key);
        }
        false
    }

    pub(crate) fn end_file(&mut self) {
        for k in self.current.drain(..) {
            if self.earlier.insert(k) {
                self.order.push_back(k);
            }
        }
        while self.order.len() > MAX_KEYS {
            if let Some(old) = self.order.pop_front() {
                self.earlier.remove(&old);
            }
        }
    }
}

/// The last facts of one error-log file: its variant (with the records
/// dropped as copies of an older generation), the bytes read, and a warning
/// when lines were read but no record was found.
pub(crate) fn close_file(
    info: &mut FileInfo,
    mut variant: Vec<String>,
    duplicates: u64,
    bytes_read: Option<u64>,
) {
    if duplicates > 0 {
        variant.push(format!(
            "{duplicates} record(s) also in an older generation, kept once"
        ));
    }
    info.variant = Some(variant.join(", "));
    if let Some(b) = bytes_read {
        super::raise_bytes(info, b);
    }
    if info.events == 0 && info.lines > 0 && info.problem_count == 0 {
        info.problem(
            ProblemCode::NoRecords,
            None,
            Severity::Warning,
            0,
            "no error-log record found",
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotation_names() {
        assert_eq!(
            rotation_name("AMQERR01.LOG", "log"),
            Some(("AMQERR".into(), 1))
        );
        assert_eq!(
            rotation_name("amqerr03.log", "LOG"),
            Some(("AMQERR".into(), 3))
        );
        assert_eq!(
            rotation_name("AMQERR02.json", "json"),
            Some(("AMQERR".into(), 2))
        );
        assert_eq!(rotation_name("AMQERR01.json", "log"), None);
        assert_eq!(rotation_name("errors.log", "log"), None);
        let i = Input::from_bytes("case/qmgrs/QM1/errors/AMQERR03.LOG", Vec::new());
        let j = Input::from_bytes("case/qmgrs/QM1/errors/AMQERR01.LOG", Vec::new());
        let (ki, oi) = rotation_group(&i, "log").unwrap();
        let (kj, oj) = rotation_group(&j, "log").unwrap();
        assert_eq!(ki, kj);
        assert!(oi < oj, "AMQERR03 is read first");
    }

    #[test]
    fn scope_from_paths() {
        let q = path_facts("case/var/mqm/qmgrs/QM!A/errors/AMQERR01.LOG");
        assert_eq!(q.scope, Some("qmgr"));
        assert_eq!(q.qmgr.as_deref(), Some("QM.A"));
        let w = path_facts(r"C:\ProgramData\IBM\MQ\qmgrs\QMWIN\errors\AMQERR01.LOG");
        assert_eq!(w.qmgr.as_deref(), Some("QMWIN"));
        assert_eq!(
            path_facts("/var/mqm/errors/AMQERR01.LOG").scope,
            Some("system")
        );
        assert_eq!(
            path_facts("home/app/IBM/MQ/data/errors/AMQERR01.LOG").scope,
            Some("client")
        );
        assert_eq!(
            path_facts("case.zip!var/mqm/errors/AMQERR02.LOG").scope,
            Some("system")
        );
        assert_eq!(path_facts("AMQERR01.LOG"), PathFacts::default());
    }

    /// The hash of one record: time, pid/tid and text, as the readers key it.
    fn record(k: RecordKey, text: &str) -> u64 {
        k.str("2024-03-01T10:00:00")
            .ids(Some(7), Some(1))
            .str(text)
            .finish()
    }

    #[test]
    fn record_keys_are_the_runs_not_public_ones() {
        let text = "AMQ9999E: Channel 'TO.QM2' ended abnormally.";
        let run = record(RecordKey::new(), text);
        // Copies are still found: every key of the run hashes alike, on any
        // thread.
        assert_eq!(run, record(RecordKey::new(), text));
        let other = std::thread::spawn(move || record(RecordKey::new(), text));
        assert_eq!(run, other.join().unwrap());
        // Not the fixed keys anyone can search a colliding record for
        // offline.
        assert_ne!(run, record(RecordKey(DefaultHasher::new()), text));
        // Another key set (another run) hashes the record otherwise, so a
        // collision found for one set does not carry to the next.
        let (a, b) = (RandomState::new(), RandomState::new());
        assert_ne!(
            record(RecordKey::keyed(&a), text),
            record(RecordKey::keyed(&b), text)
        );
        assert_eq!(
            record(RecordKey::keyed(&a), text),
            record(RecordKey::keyed(&a), text)
        );
    }

    #[test]
    fn dedup_only_across_files() {
        let mut d = Dedup::default();
        assert!(!d.seen_before(1));
        assert!(!d.seen_before(1), "same file: kept twice");
        d.end_file();
        assert!(d.seen_before(1));
        assert!(!d.seen_before(2));
    }
}
