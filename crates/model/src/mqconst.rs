//! MQ's documented constants as data: the bits of the MQI options fields
//! (`MQPMO_*`, `MQGMO_*`, `MQOO_*`, `MQCO_*`, `MQCNO_*`) and the event
//! reason qualifiers (`MQRQ_*`), with one line of meaning each. The values
//! are those of IBM's "Constants" reference pages (IBM MQ documentation,
//! "MQPMO_* (Put message options)", "MQGMO_* (Get message options)",
//! "MQOO_* (Open options)", "MQCO_* (Close options)", "MQCNO_* (Connect
//! options)", "MQRQ_* (Reason qualifiers)") and of `cmqc.h` as shipped;
//! a table, not code, so that a value is checked against the page once.
//!
//! `decode` turns an options integer into its names
//! (`MQPMO_NO_SYNCPOINT+MQPMO_NEW_MSG_ID+MQPMO_FAIL_IF_QUIESCING`); bits no
//! name covers are kept as hexadecimal, never dropped.

/// One named bit (or value) of a field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Constant {
    pub name: &'static str,
    pub value: u32,
    pub meaning: &'static str,
}

/// An options field: its structure and field as people write them
/// (`MQPMO.Options`), its prefix, the name of 0, and its bits.
#[derive(Debug)]
pub struct OptionsField {
    /// `MQPMO`, `MQGMO`, ...
    pub structure: &'static str,
    /// How activity trace and traces label it (`Put Options`).
    pub labels: &'static [&'static str],
    /// The name of the value 0 (`MQPMO_NONE`).
    pub zero: &'static str,
    pub bits: &'static [Constant],
}

macro_rules! c {
    ($name:literal, $value:expr, $meaning:literal) => {
        Constant {
            name: $name,
            value: $value,
            meaning: $meaning,
        }
    };
}

pub static PMO: OptionsField = OptionsField {
    structure: "MQPMO",
    labels: &["put options", "putoptions", "pmo"],
    zero: "MQPMO_NONE",
    bits: &[
        c!("MQPMO_SYNCPOINT", 0x2, "put within a unit of work"),
        c!("MQPMO_NO_SYNCPOINT", 0x4, "put outside any unit of work"),
        c!(
            "MQPMO_DEFAULT_CONTEXT",
            0x20,
            "default context for the message"
        ),
        c!(
            "MQPMO_NEW_MSG_ID",
            0x40,
            "the queue manager makes a new message id"
        ),
        c!(
            "MQPMO_NEW_CORREL_ID",
            0x80,
            "the queue manager makes a new correlation id"
        ),
        c!(
            "MQPMO_PASS_IDENTITY_CONTEXT",
            0x100,
            "identity context passed from an input handle"
        ),
        c!(
            "MQPMO_PASS_ALL_CONTEXT",
            0x200,
            "all context passed from an input handle"
        ),
        c!(
            "MQPMO_SET_IDENTITY_CONTEXT",
            0x400,
            "the application sets identity context"
        ),
        c!(
            "MQPMO_SET_ALL_CONTEXT",
            0x800,
            "the application sets all context"
        ),
        c!(
            "MQPMO_ALTERNATE_USER_AUTHORITY",
            0x1000,
            "authority checked for an alternate user id"
        ),
        c!(
            "MQPMO_FAIL_IF_QUIESCING",
            0x2000,
            "fail if the queue manager is quiescing"
        ),
        c!("MQPMO_NO_CONTEXT", 0x4000, "no context in the message"),
        c!(
            "MQPMO_LOGICAL_ORDER",
            0x8000,
            "messages of a group put in logical order"
        ),
        c!(
            "MQPMO_ASYNC_RESPONSE",
            0x10000,
            "asynchronous put: no response awaited"
        ),
        c!(
            "MQPMO_SYNC_RESPONSE",
            0x20000,
            "synchronous put: the response is awaited"
        ),
        c!(
            "MQPMO_RESOLVE_LOCAL_Q",
            0x40000,
            "return the local queue the put resolved to"
        ),
        c!(
            "MQPMO_WARN_IF_NO_SUBS_MATCHED",
            0x80000,
            "warn when a publication matches no subscriber"
        ),
        c!("MQPMO_RETAIN", 0x200000, "retain the publication"),
        c!(
            "MQPMO_MD_FOR_OUTPUT_ONLY",
            0x800000,
            "the MQMD is for output only"
        ),
        c!(
            "MQPMO_SCOPE_QMGR",
            0x4000000,
            "publish to local subscribers only"
        ),
        c!(
            "MQPMO_SUPPRESS_REPLYTO",
            0x8000000,
            "reply-to fields not passed to subscribers"
        ),
        c!(
            "MQPMO_NOT_OWN_SUBS",
            0x10000000,
            "not delivered to the publisher's own subscriptions"
        ),
    ],
};

pub static GMO: OptionsField = OptionsField {
    structure: "MQGMO",
    labels: &["get options", "getoptions", "gmo"],
    zero: "MQGMO_NO_WAIT",
    bits: &[
        c!(
            "MQGMO_WAIT",
            0x1,
            "wait for a message to arrive (WaitInterval)"
        ),
        c!("MQGMO_SYNCPOINT", 0x2, "get within a unit of work"),
        c!("MQGMO_NO_SYNCPOINT", 0x4, "get outside any unit of work"),
        c!(
            "MQGMO_SET_SIGNAL",
            0x8,
            "signal when a message arrives (z/OS)"
        ),
        c!("MQGMO_BROWSE_FIRST", 0x10, "browse from the first message"),
        c!("MQGMO_BROWSE_NEXT", 0x20, "browse the next message"),
        c!(
            "MQGMO_ACCEPT_TRUNCATED_MSG",
            0x40,
            "a message longer than the buffer is removed, truncated"
        ),
        c!(
            "MQGMO_MARK_SKIP_BACKOUT",
            0x80,
            "the get is not backed out with the unit of work"
        ),
        c!(
            "MQGMO_MSG_UNDER_CURSOR",
            0x100,
            "get the message under the browse cursor"
        ),
        c!("MQGMO_LOCK", 0x200, "lock the browsed message"),
        c!("MQGMO_UNLOCK", 0x400, "unlock a locked message"),
        c!(
            "MQGMO_BROWSE_MSG_UNDER_CURSOR",
            0x800,
            "browse the message under the cursor"
        ),
        c!(
            "MQGMO_SYNCPOINT_IF_PERSISTENT",
            0x1000,
            "get persistent messages within a unit of work"
        ),
        c!(
            "MQGMO_FAIL_IF_QUIESCING",
            0x2000,
            "fail if the queue manager is quiescing"
        ),
        c!("MQGMO_CONVERT", 0x4000, "convert the message data"),
        c!(
            "MQGMO_LOGICAL_ORDER",
            0x8000,
            "messages of a group in logical order"
        ),
        c!(
            "MQGMO_COMPLETE_MSG",
            0x10000,
            "only a complete logical message"
        ),
        c!(
            "MQGMO_ALL_MSGS_AVAILABLE",
            0x20000,
            "only when all messages of the group are there"
        ),
        c!(
            "MQGMO_ALL_SEGMENTS_AVAILABLE",
            0x40000,
            "only when all segments are there"
        ),
        c!(
            "MQGMO_MARK_BROWSE_HANDLE",
            0x100000,
            "mark the message browsed for this handle"
        ),
        c!(
            "MQGMO_MARK_BROWSE_CO_OP",
            0x200000,
            "mark the message browsed for cooperating handles"
        ),
        c!(
            "MQGMO_UNMARK_BROWSE_CO_OP",
            0x400000,
            "unmark for cooperating handles"
        ),
        c!(
            "MQGMO_UNMARK_BROWSE_HANDLE",
            0x800000,
            "unmark for this handle"
        ),
        c!(
            "MQGMO_UNMARKED_BROWSE_MSG",
            0x1000000,
            "browse only unmarked messages"
        ),
        c!(
            "MQGMO_PROPERTIES_FORCE_MQRFH2",
            0x2000000,
            "properties returned in an MQRFH2 header"
        ),
        c!(
            "MQGMO_NO_PROPERTIES",
            0x4000000,
            "no message properties returned"
        ),
        c!(
            "MQGMO_PROPERTIES_IN_HANDLE",
            0x8000000,
            "properties returned in the message handle"
        ),
        c!(
            "MQGMO_PROPERTIES_COMPATIBILITY",
            0x10000000,
            "properties returned as in MQ 6 (mcd, jms, usr folders)"
        ),
    ],
};

pub static OO: OptionsField = OptionsField {
    structure: "MQOO",
    labels: &["open options", "open_options", "openoptions", "oo"],
    zero: "MQOO_BIND_AS_Q_DEF",
    bits: &[
        c!(
            "MQOO_INPUT_AS_Q_DEF",
            0x1,
            "open to get, shared or exclusive as the queue says"
        ),
        c!("MQOO_INPUT_SHARED", 0x2, "open to get, shared"),
        c!("MQOO_INPUT_EXCLUSIVE", 0x4, "open to get, exclusive"),
        c!("MQOO_BROWSE", 0x8, "open to browse"),
        c!("MQOO_OUTPUT", 0x10, "open to put"),
        c!("MQOO_INQUIRE", 0x20, "open to inquire attributes"),
        c!("MQOO_SET", 0x40, "open to set attributes"),
        c!(
            "MQOO_SAVE_ALL_CONTEXT",
            0x80,
            "keep context of messages got"
        ),
        c!(
            "MQOO_PASS_IDENTITY_CONTEXT",
            0x100,
            "allowed to pass identity context"
        ),
        c!(
            "MQOO_PASS_ALL_CONTEXT",
            0x200,
            "allowed to pass all context"
        ),
        c!(
            "MQOO_SET_IDENTITY_CONTEXT",
            0x400,
            "allowed to set identity context"
        ),
        c!("MQOO_SET_ALL_CONTEXT", 0x800, "allowed to set all context"),
        c!(
            "MQOO_ALTERNATE_USER_AUTHORITY",
            0x1000,
            "authority checked for an alternate user id"
        ),
        c!(
            "MQOO_FAIL_IF_QUIESCING",
            0x2000,
            "fail if the queue manager is quiescing"
        ),
        c!(
            "MQOO_BIND_ON_OPEN",
            0x4000,
            "cluster queue instance fixed at open"
        ),
        c!(
            "MQOO_BIND_NOT_FIXED",
            0x8000,
            "cluster queue instance chosen per put"
        ),
        c!("MQOO_RESOLVE_NAMES", 0x10000, "return the resolved names"),
        c!("MQOO_CO_OP", 0x20000, "cooperative browse"),
        c!(
            "MQOO_RESOLVE_LOCAL_Q",
            0x40000,
            "return the local queue name"
        ),
        c!("MQOO_NO_READ_AHEAD", 0x80000, "no read ahead for a client"),
        c!("MQOO_READ_AHEAD", 0x100000, "read ahead for a client"),
        c!("MQOO_NO_MULTICAST", 0x200000, "no multicast"),
        c!(
            "MQOO_BIND_ON_GROUP",
            0x400000,
            "cluster queue instance fixed per message group"
        ),
    ],
};

pub static CO: OptionsField = OptionsField {
    structure: "MQCO",
    labels: &["close options", "closeoptions", "co"],
    zero: "MQCO_NONE",
    bits: &[
        c!("MQCO_DELETE", 0x1, "delete a permanent dynamic queue"),
        c!(
            "MQCO_DELETE_PURGE",
            0x2,
            "delete a permanent dynamic queue and its messages"
        ),
        c!("MQCO_KEEP_SUB", 0x4, "keep the durable subscription"),
        c!("MQCO_REMOVE_SUB", 0x8, "remove the durable subscription"),
        c!(
            "MQCO_QUIESCE",
            0x20,
            "quiesce read-ahead messages before closing"
        ),
    ],
};

pub static CNO: OptionsField = OptionsField {
    structure: "MQCNO",
    labels: &["connect options", "connectoptions", "cno"],
    zero: "MQCNO_NONE",
    bits: &[
        c!("MQCNO_FASTPATH_BINDING", 0x1, "trusted (fast-path) binding"),
        c!(
            "MQCNO_SERIALIZE_CONN_TAG_Q_MGR",
            0x2,
            "serialise by connection tag in the queue manager"
        ),
        c!(
            "MQCNO_SERIALIZE_CONN_TAG_QSG",
            0x4,
            "serialise by connection tag in the sharing group"
        ),
        c!(
            "MQCNO_RESTRICT_CONN_TAG_Q_MGR",
            0x8,
            "restrict the connection tag to the queue manager"
        ),
        c!(
            "MQCNO_RESTRICT_CONN_TAG_QSG",
            0x10,
            "restrict the connection tag to the sharing group"
        ),
        c!(
            "MQCNO_HANDLE_SHARE_NONE",
            0x20,
            "handles not shared between threads"
        ),
        c!(
            "MQCNO_HANDLE_SHARE_BLOCK",
            0x40,
            "handles shared, calls wait"
        ),
        c!(
            "MQCNO_HANDLE_SHARE_NO_BLOCK",
            0x80,
            "handles shared, calls fail when in use"
        ),
        c!("MQCNO_SHARED_BINDING", 0x100, "shared binding"),
        c!("MQCNO_ISOLATED_BINDING", 0x200, "isolated binding"),
        c!("MQCNO_LOCAL_BINDING", 0x400, "local (server) binding"),
        c!("MQCNO_CLIENT_BINDING", 0x800, "client binding"),
        c!("MQCNO_ACCOUNTING_MQI_ENABLED", 0x1000, "MQI accounting on"),
        c!(
            "MQCNO_ACCOUNTING_MQI_DISABLED",
            0x2000,
            "MQI accounting off"
        ),
        c!("MQCNO_ACCOUNTING_Q_ENABLED", 0x4000, "queue accounting on"),
        c!(
            "MQCNO_ACCOUNTING_Q_DISABLED",
            0x8000,
            "queue accounting off"
        ),
        c!("MQCNO_NO_CONV_SHARING", 0x10000, "no conversation sharing"),
        c!(
            "MQCNO_ALL_CONVS_SHARE",
            0x40000,
            "conversations may share the channel instance"
        ),
        c!(
            "MQCNO_CD_FOR_OUTPUT_ONLY",
            0x80000,
            "the channel definition is for output only"
        ),
        c!(
            "MQCNO_USE_CD_SELECTION",
            0x100000,
            "use the channel definition selection"
        ),
        c!(
            "MQCNO_RECONNECT",
            0x1000000,
            "automatic client reconnection"
        ),
        c!(
            "MQCNO_RECONNECT_DISABLED",
            0x2000000,
            "no automatic reconnection"
        ),
        c!(
            "MQCNO_RECONNECT_Q_MGR",
            0x4000000,
            "reconnect to the same queue manager only"
        ),
        c!(
            "MQCNO_ACTIVITY_TRACE_ENABLED",
            0x8000000,
            "activity trace on for this connection"
        ),
        c!(
            "MQCNO_ACTIVITY_TRACE_DISABLED",
            0x10000000,
            "activity trace off for this connection"
        ),
    ],
};

/// Every options field, for look-ups by structure or label.
pub static FIELDS: &[&OptionsField] = &[&PMO, &GMO, &OO, &CO, &CNO];

/// Event reason qualifiers (`MQIACF_REASON_QUALIFIER`).
pub static QUALIFIERS: &[Constant] = &[
    c!(
        "MQRQ_CONN_NOT_AUTHORIZED",
        1,
        "connection not authorised (Not Authorized type 1)"
    ),
    c!(
        "MQRQ_OPEN_NOT_AUTHORIZED",
        2,
        "open not authorised (Not Authorized type 2)"
    ),
    c!(
        "MQRQ_CLOSE_NOT_AUTHORIZED",
        3,
        "close not authorised (Not Authorized type 3)"
    ),
    c!(
        "MQRQ_CMD_NOT_AUTHORIZED",
        4,
        "command not authorised (Not Authorized type 4)"
    ),
    c!("MQRQ_Q_MGR_STOPPING", 5, "queue manager stopping"),
    c!("MQRQ_Q_MGR_QUIESCING", 6, "queue manager quiescing"),
    c!("MQRQ_CHANNEL_STOPPED_OK", 7, "channel stopped normally"),
    c!(
        "MQRQ_CHANNEL_STOPPED_ERROR",
        8,
        "channel stopped by an error"
    ),
    c!(
        "MQRQ_CHANNEL_STOPPED_RETRY",
        9,
        "channel stopped and will retry"
    ),
    c!(
        "MQRQ_CHANNEL_STOPPED_DISABLED",
        10,
        "channel stopped and disabled"
    ),
    c!("MQRQ_BRIDGE_STOPPED_OK", 11, "bridge stopped normally"),
    c!(
        "MQRQ_BRIDGE_STOPPED_ERROR",
        12,
        "bridge stopped by an error"
    ),
    c!("MQRQ_SSL_HANDSHAKE_ERROR", 13, "TLS handshake failed"),
    c!(
        "MQRQ_SSL_CIPHER_SPEC_ERROR",
        14,
        "TLS cipher specs of the two ends do not match"
    ),
    c!(
        "MQRQ_SSL_CLIENT_AUTH_ERROR",
        15,
        "TLS client authentication failed (no certificate sent)"
    ),
    c!(
        "MQRQ_SSL_PEER_NAME_ERROR",
        16,
        "the peer's certificate does not match SSLPEER"
    ),
    c!(
        "MQRQ_SUB_NOT_AUTHORIZED",
        17,
        "subscribe not authorised (Not Authorized type 5)"
    ),
    c!(
        "MQRQ_SUB_DEST_NOT_AUTHORIZED",
        18,
        "subscription destination not authorised (Not Authorized type 6)"
    ),
    c!(
        "MQRQ_SSL_UNKNOWN_REVOCATION",
        19,
        "certificate revocation status unknown"
    ),
    c!(
        "MQRQ_SYS_CONN_NOT_AUTHORIZED",
        20,
        "system connection not authorised (Not Authorized type 1)"
    ),
    c!(
        "MQRQ_CHANNEL_BLOCKED_ADDRESS",
        21,
        "channel blocked by a CHLAUTH BLOCKADDR rule"
    ),
    c!(
        "MQRQ_CHANNEL_BLOCKED_USERID",
        22,
        "channel blocked by a CHLAUTH BLOCKUSER rule"
    ),
    c!(
        "MQRQ_CHANNEL_BLOCKED_NOACCESS",
        23,
        "channel mapped to USERSRC(NOACCESS) by a CHLAUTH rule"
    ),
    c!("MQRQ_MAX_ACTIVE_CHANNELS", 24, "MaxActiveChannels reached"),
    c!("MQRQ_MAX_CHANNELS", 25, "MaxChannels reached"),
    c!(
        "MQRQ_SVRCONN_INST_LIMIT",
        26,
        "the channel's MAXINST reached"
    ),
    c!(
        "MQRQ_CLIENT_INST_LIMIT",
        27,
        "the channel's MAXINSTC reached for this client"
    ),
    c!("MQRQ_CAF_NOT_INSTALLED", 28, "CAF not installed"),
    c!(
        "MQRQ_CSP_NOT_AUTHORIZED",
        29,
        "user id and password check failed (Not Authorized type 1, CONNAUTH)"
    ),
    c!("MQRQ_FAILOVER_PERMITTED", 30, "failover permitted"),
    c!("MQRQ_FAILOVER_NOT_PERMITTED", 31, "failover not permitted"),
    c!("MQRQ_STANDBY_ACTIVATED", 32, "standby activated"),
];

/// The reason qualifier with this number.
pub fn qualifier(value: u32) -> Option<&'static Constant> {
    QUALIFIERS.iter().find(|c| c.value == value)
}

/// The reason qualifier called `name` (`MQRQ_` optional, any case, spaces
/// or underscores: `Conn Not Authorized` as amqsevt's text prints it).
pub fn qualifier_named(name: &str) -> Option<&'static Constant> {
    let want = squash(name.strip_prefix("MQRQ_").unwrap_or(name));
    QUALIFIERS
        .iter()
        .find(|c| squash(&c.name[5..]) == want || squash(c.name) == want)
}

/// Whether two words are the same up to case, spaces and underscores.
pub fn squash_eq(a: &str, b: &str) -> bool {
    squash(a) == squash(b)
}

/// Letters and digits, lower case: `Conn Not Authorized` and
/// `CONN_NOT_AUTHORIZED` are the same.
fn squash(s: &str) -> String {
    s.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// The options field a label names: `Put Options`, `PutOptions`,
/// `MQPMO.Options`, `MQGMO`, `gmo` (any case).
pub fn field(label: &str) -> Option<&'static OptionsField> {
    let l = label.trim();
    let l = l
        .strip_suffix(".Options")
        .or_else(|| l.strip_suffix(".options"))
        .unwrap_or(l);
    // Squashed on the stack: every field of every activity-trace
    // operation is asked, and no label is longer than this.
    let mut buf = [0u8; 24];
    let mut n = 0;
    for b in l.bytes().filter(u8::is_ascii_alphanumeric) {
        if n == buf.len() {
            return None;
        }
        buf[n] = b.to_ascii_lowercase();
        n += 1;
    }
    let sq = &buf[..n];
    // Every label is `...options` or a structure's short name.
    if !(sq.ends_with(b"options") || sq.len() <= 5) {
        return None;
    }
    FIELDS.iter().copied().find(|f| {
        squashes_to(f.structure, sq)
            || f.labels.iter().any(|x| squashes_to(x, sq))
            || squashes_to(&f.structure[2..], sq)
    })
}

/// Whether `s` squashed (as `squash`) is `sq`, without building it.
fn squashes_to(s: &str, sq: &[u8]) -> bool {
    let mut it = s
        .bytes()
        .filter(u8::is_ascii_alphanumeric)
        .map(|b| b.to_ascii_lowercase());
    sq.iter().all(|b| it.next() == Some(*b)) && it.next().is_none()
}

/// `value` as the names of its bits, joined by `+`, in the table's order;
/// bits no name covers as `0x...`. 0 is the field's `zero` name.
pub fn decode(f: &OptionsField, value: u32) -> String {
    if value == 0 {
        return f.zero.to_string();
    }
    let mut out = String::new();
    let mut rest = value;
    for c in f.bits {
        if c.value != 0 && value & c.value == c.value {
            if !out.is_empty() {
                out.push('+');
            }
            out.push_str(c.name);
            rest &= !c.value;
        }
    }
    if rest != 0 {
        if !out.is_empty() {
            out.push('+');
        }
        out.push_str(&format!("0x{rest:X}"));
    }
    out
}

/// The constants `value` sets, with their meanings (for `explain`).
pub fn bits_of(f: &OptionsField, value: u32) -> Vec<&'static Constant> {
    f.bits
        .iter()
        .filter(|c| c.value != 0 && value & c.value == c.value)
        .collect()
}

/// The first options field a free text line prints with its value
/// (`MQGMO.Options = 8260`, `Put Options: 0x2044`, as formatted trace data
/// lines and pasted dumps show them), as its structure and the value's
/// names: `("MQGMO", "MQGMO_NO_SYNCPOINT+...")`. `options:0` with no
/// structure before it (a trace's `component:24 ... options:0`) is none.
/// Shapes: SupportPac MH06's `mqtrcfrmt` prints `MQGMO.Options = 1`
/// (IBM support page node 712513); activity trace labels them `Put
/// Options`, `Open_options`. No public .FMT excerpt with such a line was
/// found.
pub fn in_text(text: &str) -> Option<(&'static str, String)> {
    // Asked of every trace data line: one vectorised search says most
    // name no options at all.
    static PTIONS: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b"ptions"));
    let mut from = 0;
    while let Some(at) = PTIONS.find(&text.as_bytes()[from..]).map(|i| i + from) {
        from = at + "ptions".len();
        if at == 0 || !matches!(text.as_bytes()[at - 1], b'O' | b'o') {
            continue;
        }
        let Some(value) = value_after(&text[from..]) else {
            continue;
        };
        // The label: the word before (`MQGMO.Options`) or two (`Put Options`).
        let head = text[..from].trim_end();
        let word_start = |s: &str| s.rfind([' ', '\t']).map_or(0, |i| i + 1);
        let one = &head[word_start(head)..];
        let before = head[..head.len() - one.len()].trim_end();
        let two = (!before.is_empty()).then(|| &head[word_start(before)..]);
        let f = [Some(one), two]
            .into_iter()
            .flatten()
            .filter(|l| !l.eq_ignore_ascii_case("options"))
            .find_map(field);
        if let Some(f) = f {
            return Some((f.structure, decode(f, value)));
        }
    }
    None
}

/// The number after ` = ` or `: ` (decimal, or hex with `0x`).
fn value_after(s: &str) -> Option<u32> {
    let s = s.trim_start_matches([' ', '\t']);
    let s = s.strip_prefix(['=', ':'])?.trim_start_matches([' ', '\t']);
    let (neg, s) = match s.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, s),
    };
    let (digits, radix) = match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(h) => (h, 16),
        None => (s, 10),
    };
    let end = digits
        .find(|c: char| !c.is_digit(radix))
        .unwrap_or(digits.len());
    let n = i64::from_str_radix(&digits[..end], radix).ok()?;
    let n = if neg { -n } else { n };
    Some(n as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_options_by_name_and_keeps_unknown_bits() {
        assert_eq!(
            decode(&PMO, 8260),
            "MQPMO_NO_SYNCPOINT+MQPMO_NEW_MSG_ID+MQPMO_FAIL_IF_QUIESCING"
        );
        assert_eq!(
            decode(&GMO, 8260),
            "MQGMO_NO_SYNCPOINT+MQGMO_ACCEPT_TRUNCATED_MSG+MQGMO_FAIL_IF_QUIESCING"
        );
        assert_eq!(decode(&GMO, 0), "MQGMO_NO_WAIT");
        assert_eq!(decode(&CO, 0x40 | 0x1), "MQCO_DELETE+0x40");
        assert_eq!(decode(&OO, 0x2010), "MQOO_OUTPUT+MQOO_FAIL_IF_QUIESCING");
    }

    #[test]
    fn options_in_free_text() {
        assert_eq!(
            in_text("  MQGMO.Options = 8260"),
            Some(("MQGMO", decode(&GMO, 8260)))
        );
        assert_eq!(
            in_text("Put Options: 0x2044 (from the MQPMO)"),
            Some(("MQPMO", decode(&PMO, 0x2044)))
        );
        assert_eq!(
            in_text("OpenOptions=-1").map(|o| o.0),
            Some("MQOO"),
            "negative values are the bits of their u32"
        );
        assert_eq!(
            in_text("component:24 function:176 options:0 cbmindex:-1"),
            None
        );
        assert_eq!(in_text("Report Options = 0"), None);
        assert_eq!(in_text("MQGMO.Options"), None);
        assert_eq!(in_text("Options"), None);
        assert_eq!(
            in_text("é  Get\t Options =\t1").map(|o| o.1),
            Some("MQGMO_WAIT".to_string())
        );
    }

    #[test]
    fn fields_by_label_and_structure() {
        assert_eq!(field("Put Options").map(|f| f.structure), Some("MQPMO"));
        assert_eq!(field("MQGMO.Options").map(|f| f.structure), Some("MQGMO"));
        assert_eq!(field("Open_options").map(|f| f.structure), Some("MQOO"));
        assert_eq!(field("cno").map(|f| f.structure), Some("MQCNO"));
        assert!(field("Report Options").is_none());
    }

    #[test]
    fn qualifiers_by_number_and_by_name() {
        assert_eq!(
            qualifier(24).map(|c| c.name),
            Some("MQRQ_MAX_ACTIVE_CHANNELS")
        );
        assert_eq!(
            qualifier_named("Conn Not Authorized").map(|c| c.value),
            Some(1)
        );
        assert_eq!(
            qualifier_named("MQRQ_CHANNEL_BLOCKED_NOACCESS").map(|c| c.value),
            Some(23)
        );
        assert!(qualifier_named("nothing").is_none());
        // Every name and value once.
        let mut v: Vec<u32> = QUALIFIERS.iter().map(|c| c.value).collect();
        v.dedup();
        assert_eq!(v.len(), QUALIFIERS.len());
        for f in FIELDS {
            let mut seen = 0u32;
            for c in f.bits {
                assert!(c.name.starts_with(f.structure), "{}", c.name);
                assert_eq!(seen & c.value, 0, "{} overlaps", c.name);
                seen |= c.value;
            }
        }
    }
}
