//! The fields every AMQ or CSQ message may carry, after its own (the
//! catalogue's rows are in `table.rs`), and the builders the rows are
//! written with.

use super::{Field, Shape, Src};

/// A value read from the text by a regular expression.
pub(super) const fn t(attr: &'static str, re: &'static str) -> Field {
    Field {
        attr,
        src: Src::Text(re),
    }
}

/// A value from a named insert (`CommentInsert1`, `RemoteHost`).
pub(super) const fn ins(attr: &'static str, name: &'static str) -> Field {
    Field {
        attr,
        src: Src::Insert(name),
    }
}

/// A value by its place in the English wording, or by shape in another
/// language.
pub(super) const fn loc(attr: &'static str, english: &'static str, shape: Shape) -> Field {
    Field {
        attr,
        src: Src::Localised { english, shape },
    }
}

/// The peer address MQ recorded itself is the authoritative one: it goes
/// before any address read from the text.
pub(super) static REMOTE_HOST: &[Field] = &[ins("address", "RemoteHost")];

/// Applies to every AMQ message after its own fields. Channel and host
/// keywords also in French and German, for localised logs without inserts.
pub(crate) static GENERIC_AMQ: &[Field] = &[
    t(
        "channel",
        r"\b(?:[Cc]hannel|CHANNEL|[Cc]anal|[Cc]anale|Kanal)(?: name is| program)?\s+'([^']+)'",
    ),
    t(
        "hostspec",
        r"\b(?:[Hh]ost|hôte(?: éloigné)?|Hostsystem)(?: is| name is)?\s+'([^']+)'",
    ),
    t(
        "function",
        r"return code from (?:the )?(?:TCP/IP ?)?(?:\((\w+)\)|(\w+)\(\))",
    ),
    t("reason", r"return code from [^.]*? (?:is|was) (-?\d+)"),
    t(
        "reason_hex",
        r"return code from [^.]*? (?:is|was) -?\d+ \(X'([0-9A-Fa-f]+)'\)",
    ),
];

/// Applies to every CSQ message after its own fields. z/OS writes names
/// unquoted; the channel name is upper case, which keeps `Channel
/// initiator` out.
pub(crate) static GENERIC_CSQ: &[Field] = &[
    t("channel", r"\b[Cc]hannel ([A-Z0-9][A-Z0-9._/%]*)"),
    t(
        "hostspec",
        r"\bconnection :?([A-Za-z0-9][A-Za-z0-9.:_-]*(?: \([^)]*\))*)",
    ),
    t("trptype", r"\bTRPTYPE=(\w+)"),
    t("rc_hex", r"\bRC=([0-9A-Fa-f]+)"),
    t("qmgr", r"\(queue manager ([^)\s]+)\)"),
];
