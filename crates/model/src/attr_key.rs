//! The fixed attribute names as typed keys (`event`'s module docs say what
//! each means). Readers and passes name an attribute by its `Key`: a
//! look-up is then a bit test and a scan of one-byte ids, not a string
//! compare. Names that are not keys (SMF columns, header keys read from
//! the input) are still stored and found by name; `Key::from_name` maps a
//! name that is a key to it, so the two ways of naming never disagree.

macro_rules! keys {
    ($($key:ident = $name:literal,)*) => {
        /// A fixed attribute name.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        pub enum Key {
            $($key,)*
        }

        impl Key {
            /// Every key, in the order of their ids.
            pub(crate) const ALL: &[Key] = &[$(Key::$key,)*];

            /// The name as readers, reports and `--fields` write it.
            #[inline]
            pub const fn as_str(self) -> &'static str {
                NAMES[self as usize]
            }
        }

        /// Every key's name, by id.
        const NAMES: &[&str] = &[$($name,)*];
    };
}

keys! {
    // Every format's common ones.
    Msgid = "msgid",
    Severity = "severity",
    Family = "family",
    Channel = "channel",
    Host = "host",
    Address = "address",
    Port = "port",
    Qmgr = "qmgr",
    Program = "program",
    User = "user",
    Seconds = "seconds",
    Function = "function",
    Reason = "reason",
    ReasonHex = "reason_hex",
    Scope = "scope",
    Reverse = "reverse",
    Peer = "peer",
    Task = "task",
    Limit = "limit",
    LocalHost = "local_host",
    Installation = "installation",
    Vrmf = "vrmf",
    LocalTime = "local_time",
    Source = "source",
    Explanation = "explanation",
    Action = "action",
    ArithInsert1 = "arith_insert1",
    ArithInsert2 = "arith_insert2",
    CommentInsert1 = "comment_insert1",
    CommentInsert2 = "comment_insert2",
    CommentInsert3 = "comment_insert3",
    RemoteHost = "remote_host",
    Truncated = "truncated",
    Reassembled = "reassembled",
    CatalogMissing = "catalog_missing",
    Incomplete = "incomplete",
    Loglevel = "loglevel",
    Sequence = "sequence",
    // Access and authority messages.
    Appl = "appl",
    ChlauthValues = "chlauth_values",
    ChlauthMatch = "chlauth_match",
    ClientUser = "client_user",
    ConnauthCheck = "connauth_check",
    CspUser = "csp_user",
    Object = "object",
    ObjectType = "object_type",
    Permissions = "permissions",
    AccessIntent = "access_intent",
    RacfCheck = "racf_check",
    // Limits.
    DlqLocation = "dlq_location",
    // Traces.
    Flag = "flag",
    Unmatched = "unmatched",
    DumpOf = "dump_of",
    // z/OS.
    Cpf = "cpf",
    Csect = "csect",
    Job = "job",
    Trptype = "trptype",
    ConsoleNo = "console_no",
    // FDC.
    Probe = "probe",
    Component = "component",
    MajorRc = "major_rc",
    MinorRc = "minor_rc",
    Description = "description",
    ProbeType = "probe_type",
    ProbeSeverity = "probe_severity",
    Arith1 = "arith1",
    Arith2 = "arith2",
    Comment1 = "comment1",
    Comment2 = "comment2",
    Comment3 = "comment3",
    FdcFile = "fdc_file",
    // SMF.
    Record = "record",
    Queue = "queue",
    Conname = "conname",
    QtimeAvgUs = "qtime_avg_us",
    QtimeMaxUs = "qtime_max_us",
    QtimeLongUs = "qtime_long_us",
    OldestMsgAgeUs = "oldest_msg_age_us",
    DnsMaxUs = "dns_max_us",
    DnsAvgUs = "dns_avg_us",
    DnsUs = "dns_us",
    TlsMaxUs = "tls_max_us",
    TlsAvgUs = "tls_avg_us",
    TsFrom = "ts_from",
    ClockOffsetS = "clock_offset_s",
    // Event messages (amqsevt) and activity trace (amqsact).
    EventType = "event_type",
    ReasonName = "reason_name",
    Qualifier = "qualifier",
    CorrelId = "correl_id",
    ObjectState = "object_state",
    ErrorId = "error_id",
    Verb = "verb",
    Options = "options",
    DurationUs = "duration_us",
}

/// Ids fit in a byte, with one to spare for the name table's empty slot.
const _: () = assert!(Key::ALL.len() < u8::MAX as usize);

/// Slots of the name table: a power of two, several times the keys, so a
/// probe mostly ends at its first slot.
const SLOTS: usize = 1024;
const EMPTY: u8 = u8::MAX;

/// Where a name's probe starts: its length and three of its bytes.
#[inline]
const fn start(name: &[u8]) -> usize {
    let n = name.len();
    if n == 0 {
        return 0;
    }
    let (f, m, l) = (name[0], name[n / 2], name[n - 1]);
    let h = (n as u32) | (f as u32) << 8 | (m as u32) << 16 | (l as u32) << 24;
    (h.wrapping_mul(0x9E37_79B1) >> 22) as usize & (SLOTS - 1)
}

/// Names to keys by open addressing: a key's id in the slot its name's
/// probe reaches first, `EMPTY` in the others. Built at compile time.
static TABLE: [u8; SLOTS] = {
    let mut t = [EMPTY; SLOTS];
    let mut id = 0;
    while id < NAMES.len() {
        let mut i = start(NAMES[id].as_bytes());
        while t[i] != EMPTY {
            i = (i + 1) & (SLOTS - 1);
        }
        t[i] = id as u8;
        id += 1;
    }
    t
};

/// `a == b` for short names, inline (a call to `memcmp` cost more than
/// the compare): first and last eight or four bytes, overlapping. Event
/// attributes compare their free-form names with it too.
#[inline]
pub(crate) fn same_name(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    let word = |s: &[u8], i: usize| u64::from_le_bytes(s[i..i + 8].try_into().unwrap_or([0; 8]));
    let half = |s: &[u8], i: usize| u32::from_le_bytes(s[i..i + 4].try_into().unwrap_or([0; 4]));
    match n {
        8..=16 => word(a, 0) == word(b, 0) && word(a, n - 8) == word(b, n - 8),
        4..=7 => half(a, 0) == half(b, 0) && half(a, n - 4) == half(b, n - 4),
        _ => a == b,
    }
}

impl Key {
    /// The key named `name`, if it is one.
    #[inline]
    pub fn from_name(name: &str) -> Option<Key> {
        let b = name.as_bytes();
        let mut i = start(b);
        loop {
            let id = TABLE[i];
            if id == EMPTY {
                return None;
            }
            if same_name(NAMES[id as usize].as_bytes(), b) {
                return Some(Key::ALL[id as usize]);
            }
            i = (i + 1) & (SLOTS - 1);
        }
    }

    /// This key's bit in a one-word presence mask (shared by the keys
    /// 64 ids apart: a bit set says "maybe", a bit clear says "no").
    #[inline]
    pub(crate) fn bit(self) -> u64 {
        1 << (self as u8 & 63)
    }
}

impl std::fmt::Display for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::Key;

    #[test]
    fn every_key_maps_back_from_its_name_and_others_do_not() {
        for (i, &k) in Key::ALL.iter().enumerate() {
            assert_eq!(k as usize, i);
            assert_eq!(super::NAMES[i], k.as_str());
            assert_eq!(Key::from_name(k.as_str()), Some(k), "{k}");
        }
        let names: std::collections::HashSet<_> = Key::ALL.iter().map(|k| k.as_str()).collect();
        assert_eq!(names.len(), Key::ALL.len(), "a name given twice");
        for other in [
            "",
            "x",
            "Channel",
            "channel ",
            "chann",
            "QMgr",
            "Put_Min_Msg_Size",
            "hostspec",
            "rc_hex",
            "comment_insert4",
            "é",
        ] {
            assert_eq!(Key::from_name(other), None, "{other:?}");
        }
    }
}
