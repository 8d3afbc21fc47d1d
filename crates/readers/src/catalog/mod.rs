//! The message catalogue: what mqdiag knows about the AMQ and CSQX messages
//! the analysis cares about, kept as data. One row per message: default
//! severity (for logs written without the severity letter), family, and
//! where each typed value comes from, in order of preference.
//!
//! Values come from the message inserts when the insert is known to carry
//! them (`CommentInsert1` of AMQ9999 is the channel), otherwise from the
//! message text, matched after wrapped lines were joined with single spaces.
//! Fields every message of a kind may carry (a quoted channel, a host, a
//! TCP/IP return code) are in the `GENERIC_*` tables and apply after a row's
//! own fields, to catalogued and unknown messages alike.
//!
//! A row also holds what the rules say about a message they report
//! (`rule`: finding severity, meaning, advice, whether the wording was
//! seen in a real log or IBM document, see `shared/formats/error-log.md`
//! §2.2, §7): the `channel-error` and `tls-error` rules report the rows of
//! their family that have it, and their trigger texts list those ids from
//! here. Data, not code: add a message in `table.rs`.
//!
//! Message texts are from IBM's message reference and real logs as quoted in
//! `shared/formats/error-log.md`; where the notes mark a text unverified, the
//! patterns are kept loose (a quoted channel, a quoted host).

pub mod access;
mod extract;
pub mod functions;
mod generic;
pub mod limits;
mod localised;
mod matchers;
pub(crate) mod memo;
mod net;
mod normalise;
#[cfg(test)]
mod samples;
mod table;

pub(crate) use extract::{Extracted, extract};
use generic::REMOTE_HOST;
pub(crate) use generic::{GENERIC_AMQ, GENERIC_CSQ};
pub(crate) use memo::Memo;
pub use net::{HostSpec, is_ip, split_host};
#[cfg(test)]
pub(crate) use normalise::normalise;
pub(crate) use normalise::normalise_cow;
pub use table::CATALOG;

use mqdiag_model::event::{CatalogRow, Event, Key};
use mqdiag_model::problem::Severity;
use std::sync::OnceLock;

/// Where a value comes from.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Src {
    /// A named insert: `ArithInsert1`, `CommentInsert3`, `RemoteHost`.
    Insert(&'static str),
    /// The first participating capture group of a regex over the
    /// whitespace-normalised message text.
    Text(&'static str),
    /// A quoted value or number of a localised text, by its shape
    /// (`localised.rs`): used only when the text lacks `english`, the
    /// message's English wording, and after inserts and patterns.
    Localised { english: &'static str, shape: Shape },
}

/// The shape of a value in a localised text.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Shape {
    /// An MQ name (a channel).
    Channel,
    /// A host spec or address, or a bare host name.
    Host,
    /// A socket or resolver call.
    Function,
    /// `N (X'H')`: sets `reason` and `reason_hex`.
    ReturnCode,
    /// The bare integer (seconds).
    Number,
    /// Any other MQ name or user id (a user, an application, an object, a
    /// queue manager): an MQ-name or one-word value, in the English
    /// template's order among the names.
    Name,
    /// A program as MQ names it: a name, or a path with spaces and
    /// backslashes (`Sphere MQ\bin64\amqsputc.exe` in IBM's AMQ5540
    /// technotes), in the template's order among the names.
    Program,
}

/// One value of a message. `attr` is an event attribute name, or one of the
/// compound names `hostspec` (a host as messages write it: `name (ip)
/// (port)` and its variants, split into `host`, `address`, `port`) and
/// `rc_hex` (a z/OS hexadecimal return code, kept as `reason_hex` and
/// converted to decimal `reason`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Field {
    pub(crate) attr: &'static str,
    pub(crate) src: Src,
}

#[derive(Debug)]
pub struct Entry {
    /// Message id without the severity letter: `AMQ9788`, `CSQX209`.
    pub(crate) id: &'static str,
    /// `I`, `W`, `E`, `S`, `T`; `UNVERIFIED` where no source shows the
    /// letter (a record written without one then gets none).
    pub(crate) severity: char,
    pub family: Family,
    /// What the message says of a channel's life, for the rules that join
    /// or count records.
    pub(crate) role: Role,
    pub(crate) fields: &'static [Field],
    /// What the rules say, for a message a rule reports.
    pub rule: Option<RuleText>,
}

/// The severity of a row whose letter no source shows.
pub(crate) const UNVERIFIED: char = ' ';

/// What a message says of a channel's life. The rules that join records
/// into stories (one failure) or count channels read it here, so a new
/// message of a known kind is one catalogue row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// Nothing beyond its family: a failure's record of this kind can be
    /// its story's cause.
    None,
    /// A channel started (connection-churn counts them).
    ChannelStart,
    /// A channel stopped (connection-churn pairs it with its start).
    ChannelStop,
    /// "Channel ended abnormally": generic, the record before it from the
    /// same process says why.
    GenericEnd,
    /// Written after the error that ended a channel, naming only the
    /// remote end: evidence, even less specific than a generic end.
    EndNotice,
    /// The other end asked for a channel name not defined: many names from
    /// one address are a scan of the listener.
    UndefinedChannel,
}

impl Role {
    /// How specific a record is about why a channel failed: a story's
    /// cause is its most specific record.
    pub fn specificity(self) -> u8 {
        match self {
            Role::EndNotice => 0,
            Role::GenericEnd => 1,
            _ => 2,
        }
    }
}

/// A message's role (`Role::None` for one not in the catalogue).
pub fn role(id: &str) -> Role {
    lookup(id).map_or(Role::None, |e| e.role)
}

/// The kind of a message: the readers mark records with it (attribute
/// `family`) and the rules pick theirs by it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    Dns,
    Channel,
    Tls,
    Security,
    /// A limit reached (channels, instances, a full queue or log).
    Limit,
    Internal,
    Info,
}

impl Family {
    /// The name readers write in the `family` attribute.
    pub fn as_str(self) -> &'static str {
        match self {
            Family::Dns => "dns",
            Family::Channel => "channel",
            Family::Tls => "tls",
            Family::Security => "security",
            Family::Limit => "limit",
            Family::Internal => "internal",
            Family::Info => "info",
        }
    }
}

/// What a rule says about a message it reports.
#[derive(Debug)]
pub struct RuleText {
    /// The finding's severity (the row's `severity` is the message's own).
    pub(crate) severity: Severity,
    pub(crate) meaning: &'static str,
    pub(crate) advice: &'static str,
    /// The wording was seen in a real log or an IBM document.
    #[expect(dead_code, reason = "the table's record for maintainers")]
    pub(crate) verified: bool,
}

/// A reported message: its row's id and family with the rule's words, in
/// one value for the pass that reports it.
#[derive(Debug, Clone, Copy)]
pub struct Reported {
    /// Message number without the severity letter (`AMQ9202`, `CSQX209`).
    pub id: &'static str,
    pub family: Family,
    pub severity: Severity,
    pub meaning: &'static str,
    pub advice: &'static str,
}

/// The catalogue row of a message id (with or without its letter,
/// surrounding blanks ignored).
pub fn lookup(id: &str) -> Option<&'static Entry> {
    row_of(id).get().flatten().map(|i| &CATALOG[i])
}

/// The catalogue row of a message id, as a log record carries it
/// (`Event::catalog`): readers set it, and `entry_of` reads it.
pub(crate) fn row_of(id: &str) -> CatalogRow {
    // By a number made of the id: hashing the text cost more than the
    // rest of a look-up.
    static BY_ID: OnceLock<rustc_hash::FxHashMap<u32, usize>> = OnceLock::new();
    let map = BY_ID.get_or_init(|| {
        CATALOG
            .iter()
            .enumerate()
            .map(|(i, e)| (id_number(e.id).expect("catalogue ids are well shaped"), i))
            .collect()
    });
    match id_number(base_id(id.trim())).and_then(|n| map.get(&n)) {
        Some(&i) => CatalogRow::row(i),
        None => CatalogRow::NONE,
    }
}

/// The catalogue row of a log record: the one its reader looked up, else
/// (a reader that did not) its `msgid`'s.
pub fn entry_of(e: &Event) -> Option<&'static Entry> {
    match e.catalog.get() {
        Some(row) => row.map(|i| &CATALOG[i]),
        None => lookup(e.get(Key::Msgid)?),
    }
}

/// A log record's role (`Role::None` for one not in the catalogue).
pub fn role_of(e: &Event) -> Role {
    entry_of(e).map_or(Role::None, |x| x.role)
}

/// `reported` for a log record's row.
pub fn reported_of(e: &Event) -> Option<Reported> {
    entry_of(e).and_then(Entry::reported)
}

/// `AMQ` + 4 digits, `CSQ` + an upper-case letter + 3 digits or `ICH` + 3
/// digits (an id without its severity letter) as a number, each id its
/// own.
fn id_number(id: &str) -> Option<u32> {
    let b = id.as_bytes();
    let digits = |d: &[u8]| {
        d.iter().try_fold(0u32, |n, &c| {
            c.is_ascii_digit().then(|| n * 10 + u32::from(c - b'0'))
        })
    };
    // RACF's `ICH` + 3 digits (ICH408I in a queue manager's job log).
    if b.len() == 6 && b.starts_with(b"ICH") {
        return Some(40_000 + digits(&b[3..])?);
    }
    if b.len() != 7 {
        return None;
    }
    match &b[..3] {
        b"AMQ" => digits(&b[3..]),
        b"CSQ" if b[3].is_ascii_uppercase() => {
            Some(10_000 + u32::from(b[3] - b'A') * 1000 + digits(&b[4..])?)
        }
        _ => None,
    }
}

/// The rule that reads a message, by its family and role: what a report
/// cannot tell when the queue manager was told not to write it (a
/// `QMErrorLog` stanza's `ExcludeMessage`). `None` for ids the catalogue
/// does not know or no rule reads.
pub fn rule_of_message(id: &str) -> Option<&'static str> {
    let e = lookup(id)?;
    match (e.role, e.family) {
        (Role::ChannelStart | Role::ChannelStop, _) => Some("connection-churn"),
        (_, Family::Dns) => Some("slow-dns"),
        (_, Family::Channel) => Some("channel-error"),
        (_, Family::Tls) => Some("tls-error"),
        (_, Family::Security) => Some("access-refused"),
        (_, Family::Limit) => Some("resource-limit"),
        (_, Family::Internal | Family::Info) => None,
    }
}

/// The rule's words for a message some rule reports: `None` for ids the
/// catalogue does not know and for rows no rule reports.
pub fn reported(id: &str) -> Option<Reported> {
    lookup(id)?.reported()
}

impl Entry {
    /// The rule's words for this row, if a rule reports it.
    pub(crate) fn reported(&self) -> Option<Reported> {
        let r = self.rule.as_ref()?;
        Some(Reported {
            id: self.id,
            family: self.family,
            severity: r.severity,
            meaning: r.meaning,
            advice: r.advice,
        })
    }
}

/// The one id normaliser: `AMQ9788W` → `AMQ9788`; `CSQX209E` → `CSQX209`;
/// an id without its letter is returned as is.
pub fn base_id(id: &str) -> &str {
    match id.as_bytes().last() {
        Some(c) if c.is_ascii_alphabetic() && id.len() > 4 => &id[..id.len() - 1],
        _ => id,
    }
}

/// The ids a rule of `family` reports, for its trigger text: sorted, the
/// prefix written once per group (`AMQ9202, 9203 and CSQX207, 209`).
pub fn reported_ids(family: Family) -> String {
    let mut ids: Vec<&str> = CATALOG
        .iter()
        .filter(|e| e.family == family && e.rule.is_some())
        .map(|e| e.id)
        .collect();
    ids.sort_unstable();
    let mut groups: Vec<String> = Vec::new();
    for prefix in ["AMQ", "CSQ"] {
        let mut g = String::new();
        for id in ids.iter().filter(|i| i.starts_with(prefix)) {
            if g.is_empty() {
                g.push_str(id);
            } else {
                // `CSQX209` after `CSQX207`: only the number part again.
                g.push_str(", ");
                g.push_str(id.trim_start_matches(|c: char| c.is_ascii_alphabetic()));
            }
        }
        if !g.is_empty() {
            groups.push(g);
        }
    }
    groups.join(" and ")
}

/// The ids of `family` a rule reports as warnings, in full, sorted.
pub fn warning_ids(family: Family) -> String {
    let mut ids: Vec<&str> = CATALOG
        .iter()
        .filter(|e| e.family == family)
        .filter(|e| {
            e.rule
                .as_ref()
                .is_some_and(|r| r.severity == Severity::Warning)
        })
        .map(|e| e.id)
        .collect();
    ids.sort_unstable();
    ids.join(", ")
}

/// A log record of `msgid` carrying `row`, for tests of the `*_of` look-ups.
#[cfg(test)]
pub(crate) fn test_record(msgid: &str, row: CatalogRow) -> Event {
    use mqdiag_model::event::{Format, Kind, Origin};
    let ts = chrono::DateTime::parse_from_rfc3339("2024-03-05T10:00:00Z").unwrap();
    let origin = Origin::new("x".into(), Format::UNKNOWN);
    let mut e = Event::new(ts, origin, 1, Kind::LogRecord, String::new());
    e.set(Key::Msgid, msgid);
    e.catalog = row;
    e
}

/// A side table's look-up by a record's catalogue row finds what its
/// look-up by id finds, for every catalogued id, an unknown one, and a
/// record whose reader left the row to be asked; and every row of the
/// table is found by its record.
#[cfg(test)]
pub(crate) fn assert_by_record_is_by_id<T: 'static>(
    table: &'static [T],
    id_of: fn(&T) -> &'static str,
    by_record: fn(&Event) -> Option<&'static T>,
    by_id: fn(&str) -> Option<&'static T>,
) {
    let ids = CATALOG.iter().map(|x| x.id).chain(["AMQ1234", "CSQX999"]);
    for id in ids {
        for row in [row_of(id), CatalogRow::ASK] {
            let e = test_record(id, row);
            let (a, b) = (by_record(&e), by_id(id));
            assert_eq!(a.map(id_of), b.map(id_of), "{id}");
        }
    }
    assert!(
        table
            .iter()
            .all(|m| by_record(&test_record(id_of(m), row_of(id_of(m)))).is_some())
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_are_read_with_or_without_the_severity_letter() {
        assert_eq!(role("CSQX511I"), Role::ChannelStart);
        assert_eq!(role("AMQ9002"), Role::ChannelStart);
        assert_eq!(role(" CSQX512I"), Role::ChannelStop);
        assert_eq!(role("AMQ9999E"), Role::GenericEnd);
        assert_eq!(role("AMQ9780E"), Role::EndNotice);
        assert_eq!(role("AMQ9519E"), Role::UndefinedChannel);
        assert_eq!(role("AMQ9209E"), Role::None);
        assert_eq!(role("AMQ0000X"), Role::None);
        assert!(Role::None.specificity() > Role::GenericEnd.specificity());
        assert!(Role::GenericEnd.specificity() > Role::EndNotice.specificity());
        // Stories join channel and TLS records: a role that orders causes
        // on any other family would never be read.
        for e in CATALOG {
            if matches!(
                e.role,
                Role::GenericEnd | Role::EndNotice | Role::UndefinedChannel
            ) {
                assert_eq!(e.family, Family::Channel, "{}", e.id);
            }
        }
    }

    #[test]
    fn every_pattern_compiles_and_ids_are_unique() {
        let mut seen = std::collections::HashSet::new();
        for e in CATALOG {
            assert!(seen.insert(e.id), "duplicate {}", e.id);
            assert!(
                "IWEST".contains(e.severity) || e.severity == UNVERIFIED,
                "{}",
                e.id
            );
            for f in e.fields {
                if let Src::Text(p) = f.src {
                    let _ = matchers::regex(p);
                }
            }
        }
        for f in GENERIC_AMQ.iter().chain(GENERIC_CSQ) {
            if let Src::Text(p) = f.src {
                let _ = matchers::regex(p);
            }
        }
    }

    /// `AMQ` + 4 digits or `CSQ` + a letter + 3 digits, then optionally
    /// the severity letters each family of ids uses.
    /// Look-up by number finds what look-up by text found.
    #[test]
    fn id_numbers_are_one_per_id() {
        let mut seen = std::collections::HashMap::new();
        for e in CATALOG {
            let n = id_number(e.id).unwrap_or_else(|| panic!("{}", e.id));
            assert_eq!(
                seen.insert(n, e.id),
                None,
                "{} and {:?}",
                e.id,
                seen.get(&n)
            );
        }
        for id in ["AMQ9209", "AMQ9209E", " AMQ9209E ", "CSQX209E", "CSQX209"] {
            assert_eq!(
                lookup(id).map(|e| e.id),
                CATALOG
                    .iter()
                    .find(|e| e.id == base_id(id.trim()))
                    .map(|e| e.id),
                "{id}"
            );
        }
        for id in [
            "",
            "AMQ",
            "AMQ92",
            "AMQ920",
            "AMQ92099",
            "AMQ92O9",
            "amq9209",
            "CSQx209",
            "CSQX20",
            "XYZ9209",
            "AMQ9209EE",
            "CSQ1209",
        ] {
            assert!(lookup(id).is_none(), "{id}");
            assert!(CATALOG.iter().all(|e| e.id != base_id(id.trim())), "{id}");
        }
        assert_eq!(id_number("CSQZ999"), Some(10_000 + 25 * 1000 + 999));
        assert_eq!(lookup("ICH408I").map(|e| e.id), Some("ICH408"));
        assert!(lookup("ICH40").is_none() && lookup("ICHX08I").is_none());
    }

    /// A message number (`id_number`), then at most one of `letters`.
    fn well_shaped(id: &str, letters: &str) -> bool {
        let n = if id.starts_with("ICH") { 6 } else { 7 };
        let (base, letter) = match (id.is_ascii(), id.len()) {
            (true, l) if l == n => (id, None),
            (true, l) if l == n + 1 => (&id[..n], id[n..].chars().next()),
            _ => return false,
        };
        id_number(base).is_some() && letter.is_none_or(|c| letters.contains(c))
    }

    #[test]
    fn id_shape_checker() {
        assert!(well_shaped("AMQ9208", "IWEST"));
        assert!(well_shaped("AMQ9208E", "IWEST"));
        assert!(well_shaped("CSQX209E", "IWEDS"));
        assert!(!well_shaped("AMQ920", "IWEST"));
        assert!(!well_shaped("AMQ9208X", "IWEST"));
        assert!(!well_shaped("CSQ1209", "IWEDS"));
        assert!(!well_shaped("CSQX2090", "IWEDS"));
        assert!(well_shaped("ICH408I", "I"));
        assert!(!well_shaped("ICH4081", "I"));
    }

    #[test]
    fn every_row_is_well_formed() {
        for e in CATALOG {
            let letters = if e.id.starts_with("AMQ") {
                "IWEST"
            } else if e.id.starts_with("ICH") {
                "I"
            } else {
                "IWEDS"
            };
            // The table's id is the bare message number.
            assert!(well_shaped(e.id, ""), "{}", e.id);
            let with_letter = format!("{}{}", e.id, e.severity).trim().to_string();
            assert!(well_shaped(&with_letter, letters), "{with_letter}");
            assert_eq!(lookup(&with_letter).map(|x| x.id), Some(e.id));
            assert!(!e.family.as_str().is_empty());
            if let Some(r) = &e.rule {
                assert!(!r.meaning.trim().is_empty(), "{}", e.id);
                assert!(!r.advice.trim().is_empty(), "{}", e.id);
                assert!(
                    matches!(r.severity, Severity::Warning | Severity::Error),
                    "{}",
                    e.id
                );
                // The rules report channel and TLS messages only.
                assert!(
                    matches!(e.family, Family::Channel | Family::Tls),
                    "{}",
                    e.id
                );
            }
        }
    }

    #[test]
    fn one_family_per_message() {
        // A CHLAUTH block is access-refused's, on z/OS as elsewhere.
        assert_eq!(lookup("CSQX777E").unwrap().family, Family::Security);
        assert!(reported("CSQX777E").is_none());
        for id in [
            "CSQX620", "CSQX631", "CSQX633", "CSQX634", "CSQX636", "CSQX637", "CSQX638",
        ] {
            assert_eq!(lookup(id).unwrap().family, Family::Tls, "{id}");
            assert_eq!(reported(id).unwrap().family, Family::Tls, "{id}");
        }
        assert_eq!(extract("CSQX777E", "", &[]).family, Some("security"));
    }

    /// The row a reader stores is the one its `msgid` names, and a record
    /// without one is looked up by its `msgid`.
    #[test]
    fn a_records_row_is_its_msgids() {
        let record = test_record;
        for (i, x) in CATALOG.iter().enumerate() {
            let id = format!("{}{}", x.id, x.severity);
            assert_eq!(row_of(&id), CatalogRow::row(i), "{id}");
            for row in [row_of(&id), CatalogRow::ASK] {
                let e = record(&id, row);
                assert!(std::ptr::eq(entry_of(&e).unwrap(), x), "{id}");
                assert_eq!(role_of(&e), x.role);
                assert_eq!(reported_of(&e).map(|r| r.id), reported(&id).map(|r| r.id));
            }
        }
        assert_eq!(row_of("AMQ1234E"), CatalogRow::NONE);
        assert!(entry_of(&record("AMQ1234E", CatalogRow::NONE)).is_none());
        assert!(entry_of(&record("AMQ1234E", CatalogRow::ASK)).is_none());
    }

    #[test]
    fn the_normaliser_maps_with_and_without_letter_to_one_row() {
        let id = |s| lookup(s).map(|e| e.id);
        assert_eq!(id("AMQ9208E"), Some("AMQ9208"));
        assert_eq!(id("AMQ9208"), Some("AMQ9208"));
        assert_eq!(id(" AMQ9208E "), Some("AMQ9208"));
        assert_eq!(id("CSQX209E"), Some("CSQX209"));
        assert_eq!(id("CSQX209"), Some("CSQX209"));
        assert_eq!(base_id("AMQ9208E"), base_id("AMQ9208"));
        assert_eq!(id("AMQ1234E"), None);
        // Rows no rule reports are known to readers but not reported.
        assert!(lookup("AMQ9788W").is_some() && reported("AMQ9788W").is_none());
        assert_eq!(reported("AMQ9208E").unwrap().severity, Severity::Error);
    }

    #[test]
    fn trigger_ids_are_sorted_with_the_prefix_once() {
        let ch = reported_ids(Family::Channel);
        assert!(ch.starts_with("AMQ9202, 9203, "), "{ch}");
        assert!(ch.ends_with(" and CSQX207, 209, 504, 599"), "{ch}");
        assert_eq!(
            warning_ids(Family::Channel),
            "AMQ9207, AMQ9209, AMQ9519, AMQ9520, CSQX207"
        );
        assert!(reported_ids(Family::Dns).is_empty());
    }
}
