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
//! here. Data, not code: add a message here.
//!
//! Message texts are from IBM's message reference and real logs as quoted in
//! `shared/formats/error-log.md`; where the notes mark a text unverified, the
//! patterns are kept loose (a quoted channel, a quoted host).

mod extract;
mod localised;
mod net;

pub use extract::{Extracted, extract, normalise, normalise_cow, normalise_parts};
pub use net::{HostSpec, is_ip, split_host};

use crate::source::Severity;
use std::collections::HashMap;
use std::sync::OnceLock;

/// Where a value comes from.
#[derive(Debug, Clone, Copy)]
pub enum Src {
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
pub enum Shape {
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
}

/// One value of a message. `attr` is an event attribute name, or one of the
/// compound names `hostspec` (a host as messages write it: `name (ip)
/// (port)` and its variants, split into `host`, `address`, `port`) and
/// `rc_hex` (a z/OS hexadecimal return code, kept as `reason_hex` and
/// converted to decimal `reason`).
#[derive(Debug, Clone, Copy)]
pub struct Field {
    pub attr: &'static str,
    pub src: Src,
}

#[derive(Debug)]
pub struct Entry {
    /// Message id without the severity letter: `AMQ9788`, `CSQX209`.
    pub id: &'static str,
    /// `I`, `W`, `E`, `S`, `T`.
    pub severity: char,
    pub family: Family,
    pub fields: &'static [Field],
    /// What the rules say, for a message a rule reports.
    pub rule: Option<RuleText>,
}

/// The kind of a message: the readers mark records with it (attribute
/// `family`) and the rules pick theirs by it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    Dns,
    Channel,
    Tls,
    Security,
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
            Family::Internal => "internal",
            Family::Info => "info",
        }
    }
}

/// What a rule says about a message it reports.
#[derive(Debug)]
pub struct RuleText {
    /// The finding's severity (the row's `severity` is the message's own).
    pub severity: Severity,
    pub meaning: &'static str,
    pub advice: &'static str,
    /// The wording was seen in a real log or an IBM document.
    pub verified: bool,
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
    pub verified: bool,
}

const fn t(attr: &'static str, re: &'static str) -> Field {
    Field {
        attr,
        src: Src::Text(re),
    }
}

const fn ins(attr: &'static str, name: &'static str) -> Field {
    Field {
        attr,
        src: Src::Insert(name),
    }
}

const fn loc(attr: &'static str, english: &'static str, shape: Shape) -> Field {
    Field {
        attr,
        src: Src::Localised { english, shape },
    }
}

/// The English wording of the messages with localised fallbacks.
const EN_9208: &str = "receive from host";
const EN_9209: &str = "onnection to host";
const EN_9788: &str = "Slow DNS lookup";
const EN_9999: &str = "ended abnormally";

/// Every catalogued message.
pub static CATALOG: &[Entry] = &[
    // DNS. The insert mapping of AMQ9788 is not documented: the text comes
    // first, the inserts (numbers are ArithInserts, text CommentInserts by
    // IBM's convention) only when the text did not match.
    Entry {
        id: "AMQ9788",
        severity: 'W',
        family: Family::Dns,
        fields: &[
            t("address", r"Slow DNS lookup for address '([^']*)'"),
            t("address", r"resolve address '([^']*)'"),
            ins("address", "CommentInsert1"),
            t("function", r"using the '(\w+)' function"),
            ins("function", "CommentInsert2"),
            t("seconds", r"took (\d+) seconds"),
            ins("seconds", "ArithInsert1"),
            loc("address", EN_9788, Shape::Host),
            loc("function", EN_9788, Shape::Function),
            loc("seconds", EN_9788, Shape::Number),
        ],
        rule: None,
    },
    // Network and channel errors.
    Entry {
        id: "AMQ9202",
        severity: 'E',
        family: Family::Channel,
        fields: &[],
        rule: Some(RuleText {
            severity: Severity::Error,
            meaning: "Remote host not available: the TCP connect failed",
            advice: "Check that the listener runs on the remote host and port, that the CONNAME is right, and that no firewall drops the connect; the TCP/IP return code in the message says refused, timed out or unreachable. A full listener backlog gives the same error (ListenerBacklog in the TCP stanza).",
            verified: true,
        }),
    },
    Entry {
        id: "AMQ9203",
        severity: 'E',
        family: Family::Channel,
        fields: &[],
        rule: Some(RuleText {
            severity: Severity::Error,
            meaning: "TCP/IP configuration error, usually a host name that cannot be resolved",
            advice: "Check the host name in the CONNAME and the resolver (see slow-dns); use a dotted IP address if the name is not needed.",
            verified: false,
        }),
    },
    Entry {
        id: "AMQ9206",
        severity: 'E',
        family: Family::Channel,
        fields: &[],
        rule: Some(RuleText {
            severity: Severity::Error,
            meaning: "Error sending data to the host (the connection broke)",
            advice: "The connection was reset while sending: look for a firewall or load balancer that drops idle or long connections, and set heartbeats (HBINT) and TCP KeepAlive below its idle timeout.",
            verified: false,
        }),
    },
    Entry {
        id: "AMQ9207",
        severity: 'E',
        family: Family::Channel,
        fields: &[
            t("hostspec", r"received from host '([^']*)'"),
            ins("hostspec", "CommentInsert1"),
        ],
        rule: Some(RuleText {
            severity: Severity::Warning,
            meaning: "Data received from the host is not valid (port scanner, TLS/plain mismatch, non-MQ traffic)",
            advice: "If the address is a scanner or monitoring probe, ask for it to be excluded or block it with CHLAUTH; if it is a real client, check that both ends agree on TLS.",
            verified: true,
        }),
    },
    Entry {
        id: "AMQ9208",
        severity: 'E',
        family: Family::Channel,
        // Inserts as MQ 9.3 writes them: ArithInsert1 the return code,
        // CommentInsert1 the host, 2 the transport, 3 the call. Older
        // releases write the host unquoted.
        fields: &[
            ins("hostspec", "CommentInsert1"),
            ins("function", "CommentInsert3"),
            ins("reason", "ArithInsert1"),
            t("hostspec", r"receive from host ([^\s']+(?: \([^)]*\))*)"),
            loc("hostspec", EN_9208, Shape::Host),
            loc("channel", EN_9208, Shape::Channel),
            loc("function", EN_9208, Shape::Function),
            loc("reason", EN_9208, Shape::ReturnCode),
        ],
        rule: Some(RuleText {
            severity: Severity::Error,
            meaning: "Error on receive from the host (connection reset by peer)",
            advice: "The peer or a device in between reset the connection (ECONNRESET: 104 Linux, 73 AIX, 10054 Windows): check firewall idle timeouts, set heartbeats (HBINT) and KeepAlive, and look at the other end's error log at the same time.",
            verified: true,
        }),
    },
    Entry {
        id: "AMQ9209",
        severity: 'E',
        family: Family::Channel,
        fields: &[
            ins("hostspec", "CommentInsert1"),
            ins("channel", "CommentInsert3"),
            t(
                "hostspec",
                r"[Cc]onnection to host ([^\s']+(?: \([^)]*\))*) closed",
            ),
            loc("hostspec", EN_9209, Shape::Host),
            loc("channel", EN_9209, Shape::Channel),
        ],
        rule: Some(RuleText {
            severity: Severity::Warning,
            meaning: "Connection to the host closed by the other end",
            advice: "Bursts from one address are usually a port scanner or load-balancer health check connecting to the listener; otherwise look at the other end's error log at the same time.",
            verified: true,
        }),
    },
    Entry {
        id: "AMQ9213",
        severity: 'E',
        family: Family::Channel,
        fields: &[],
        rule: Some(RuleText {
            severity: Severity::Error,
            meaning: "A TCP/IP call (socket, bind, listen, ...) failed",
            advice: "The message names the failing call and its return code: a port already in use, missing permissions or exhausted file descriptors are the usual causes.",
            verified: false,
        }),
    },
    Entry {
        id: "AMQ9259",
        severity: 'E',
        family: Family::Channel,
        fields: &[],
        rule: Some(RuleText {
            severity: Severity::Error,
            meaning: "Connection timed out from the host",
            advice: "The client could not connect in time: check the network path, the listener, and the connect timeout.",
            verified: false,
        }),
    },
    Entry {
        id: "AMQ9271",
        severity: 'E',
        family: Family::Channel,
        fields: &[
            t(
                "hostspec",
                r"address of the remote end of the connection was '([^']*)'",
            ),
            t("seconds", r"\[TIMEOUT\] (\d+) seconds"),
        ],
        rule: Some(RuleText {
            severity: Severity::Error,
            meaning: "Channel timed out: no data or heartbeat within the expected time",
            advice: "The network stalled or the partner stopped responding: compare HBINT and the receive timeout on both ends, and check the network at that time.",
            verified: true,
        }),
    },
    Entry {
        id: "AMQ9503",
        severity: 'E',
        family: Family::Channel,
        fields: &[],
        rule: Some(RuleText {
            severity: Severity::Error,
            meaning: "Channel negotiation failed",
            advice: "The two ends disagree on an attribute (channel type, sequence wrap, TLS cipher); the other end's error log names it.",
            verified: false,
        }),
    },
    Entry {
        id: "AMQ9507",
        severity: 'E',
        family: Family::Channel,
        fields: &[],
        rule: Some(RuleText {
            severity: Severity::Error,
            meaning: "Channel is in doubt",
            advice: "Resolve the in-doubt batch with RESOLVE CHANNEL after checking the partner; it usually follows a network break during a batch.",
            verified: false,
        }),
    },
    Entry {
        id: "AMQ9508",
        severity: 'E',
        family: Family::Channel,
        fields: &[],
        rule: None,
    },
    Entry {
        id: "AMQ9513",
        severity: 'E',
        family: Family::Channel,
        fields: &[],
        rule: Some(RuleText {
            severity: Severity::Error,
            meaning: "Maximum number of channels reached",
            advice: "MaxChannels / MaxActiveChannels in the CHANNELS stanza are exhausted: look for connection churn or leaking clients before raising the limits.",
            verified: false,
        }),
    },
    Entry {
        id: "AMQ9519",
        severity: 'E',
        family: Family::Channel,
        fields: &[t("channel", r"Channel '([^']*)' not found")],
        rule: Some(RuleText {
            severity: Severity::Warning,
            meaning: "Channel not found: the partner or client asked for a channel this queue manager does not define",
            advice: "Check the channel name on the other end (CONNAME, client channel table, MQSERVER) against DISPLAY CHANNEL here; many different names from one address are a scan of the listener (block it with CHLAUTH or a firewall).",
            verified: true,
        }),
    },
    Entry {
        id: "AMQ9520",
        severity: 'E',
        family: Family::Channel,
        fields: &[t("channel", r"channel '([^']*)'")],
        rule: Some(RuleText {
            severity: Severity::Warning,
            meaning: "Channel not defined remotely: the other end has no channel of this name",
            advice: "Define the partner channel (same name, matching type) on the remote queue manager, or correct the channel name on this end.",
            verified: false,
        }),
    },
    Entry {
        id: "AMQ9524",
        severity: 'E',
        family: Family::Channel,
        fields: &[],
        rule: None,
    },
    Entry {
        id: "AMQ9526",
        severity: 'E',
        family: Family::Channel,
        fields: &[],
        rule: Some(RuleText {
            severity: Severity::Error,
            meaning: "Message sequence number error",
            advice: "The two ends disagree on the sequence number: RESET CHANNEL on the sending end after checking no messages are lost.",
            verified: false,
        }),
    },
    Entry {
        id: "AMQ9544",
        severity: 'E',
        family: Family::Channel,
        fields: &[],
        rule: Some(RuleText {
            severity: Severity::Error,
            meaning: "Messages could not be put to the destination queue (dead-letter queue used)",
            advice: "Check the dead-letter queue and its reason codes (queue full, put inhibited, unknown queue).",
            verified: false,
        }),
    },
    Entry {
        id: "AMQ9558",
        severity: 'E',
        family: Family::Channel,
        fields: &[],
        rule: Some(RuleText {
            severity: Severity::Error,
            meaning: "Remote channel is not available",
            advice: "The partner channel is stopped or not defined on the remote queue manager.",
            verified: false,
        }),
    },
    Entry {
        id: "AMQ9999",
        severity: 'E',
        family: Family::Channel,
        fields: &[
            ins("channel", "CommentInsert1"),
            ins("hostspec", "CommentInsert3"),
            loc("channel", EN_9999, Shape::Channel),
            loc("hostspec", EN_9999, Shape::Host),
        ],
        rule: Some(RuleText {
            severity: Severity::Error,
            meaning: "Channel ended abnormally",
            advice: "A generic end: the record just before it from the same process (pid.tid) says why.",
            verified: true,
        }),
    },
    // Written after the error that ended a channel, naming only the remote
    // end: evidence for that error, not an error of its own.
    Entry {
        id: "AMQ9780",
        severity: 'E',
        family: Family::Channel,
        fields: &[t("hostspec", r"remote machine '([^']*)'")],
        rule: None,
    },
    // TLS.
    Entry {
        id: "AMQ9631",
        severity: 'E',
        family: Family::Tls,
        fields: &[],
        rule: Some(RuleText {
            severity: Severity::Error,
            meaning: "CipherSpec negotiated does not match the channel's required CipherSpec",
            advice: "Set the same SSLCIPH on both channel definitions (or ANY_TLS12_OR_HIGHER where supported) and restart both ends.",
            verified: false,
        }),
    },
    Entry {
        id: "AMQ9633",
        severity: 'E',
        family: Family::Tls,
        fields: &[
            ins("channel", "CommentInsert1"),
            ins("peer", "CommentInsert2"),
            ins("hostspec", "CommentInsert3"),
            ins("reason", "ArithInsert1"),
        ],
        rule: Some(RuleText {
            severity: Severity::Error,
            meaning: "Bad TLS certificate for the channel",
            advice: "The peer's certificate failed validation (expired, untrusted issuer, revoked); the inserts hold the GSKit reason: fix the certificate or the trust store.",
            verified: true,
        }),
    },
    Entry {
        id: "AMQ9635",
        severity: 'E',
        family: Family::Tls,
        fields: &[],
        rule: Some(RuleText {
            severity: Severity::Error,
            meaning: "Channel did not specify a valid CipherSpec",
            advice: "Set a CipherSpec that both ends support.",
            verified: false,
        }),
    },
    Entry {
        id: "AMQ9636",
        severity: 'E',
        family: Family::Tls,
        fields: &[
            ins("channel", "CommentInsert1"),
            ins("peer", "CommentInsert2"),
            ins("hostspec", "CommentInsert3"),
        ],
        rule: Some(RuleText {
            severity: Severity::Error,
            meaning: "TLS distinguished name does not match the peer name (SSLPEER)",
            advice: "Correct SSLPEER on the channel or the matching CHLAUTH SSLPEERMAP rule to the partner certificate's DN.",
            verified: true,
        }),
    },
    Entry {
        id: "AMQ9637",
        severity: 'E',
        family: Family::Tls,
        fields: &[],
        rule: Some(RuleText {
            severity: Severity::Error,
            meaning: "Channel is lacking a certificate",
            advice: "The queue manager or client has no personal certificate under the expected label (CERTLABL, ibmwebspheremq<qmgr>): add it to the key repository and REFRESH SECURITY TYPE(SSL).",
            verified: false,
        }),
    },
    Entry {
        id: "AMQ9638",
        severity: 'E',
        family: Family::Tls,
        fields: &[],
        rule: Some(RuleText {
            severity: Severity::Error,
            meaning: "TLS communications error for the channel",
            advice: "The handshake or a TLS read/write failed; the paired message on the other end usually says why (cipher, certificate, protocol version).",
            verified: true,
        }),
    },
    Entry {
        id: "AMQ9639",
        severity: 'E',
        family: Family::Tls,
        fields: &[],
        rule: Some(RuleText {
            severity: Severity::Error,
            meaning: "Remote channel did not specify a CipherSpec",
            advice: "Set SSLCIPH on the partner channel, or remove it here: both ends must agree.",
            verified: true,
        }),
    },
    Entry {
        id: "AMQ9641",
        severity: 'E',
        family: Family::Tls,
        fields: &[],
        rule: Some(RuleText {
            severity: Severity::Error,
            meaning: "Remote CipherSpec error for the channel",
            advice: "The partner rejected the CipherSpec: align SSLCIPH on both ends.",
            verified: false,
        }),
    },
    Entry {
        id: "AMQ9642",
        severity: 'E',
        family: Family::Tls,
        fields: &[],
        rule: Some(RuleText {
            severity: Severity::Error,
            meaning: "No TLS certificate for the channel",
            advice: "Add the personal certificate to the key repository under the expected label and refresh security.",
            verified: true,
        }),
    },
    Entry {
        id: "AMQ9643",
        severity: 'E',
        family: Family::Tls,
        fields: &[],
        rule: None,
    },
    Entry {
        id: "AMQ9660",
        severity: 'E',
        family: Family::Tls,
        fields: &[],
        rule: Some(RuleText {
            severity: Severity::Error,
            meaning: "TLS key repository: password stash file missing or unusable",
            advice: "Recreate the .sth stash file for the key repository (or set the key repository password) and REFRESH SECURITY TYPE(SSL).",
            verified: true,
        }),
    },
    Entry {
        id: "AMQ9665",
        severity: 'E',
        family: Family::Tls,
        fields: &[],
        rule: Some(RuleText {
            severity: Severity::Error,
            meaning: "TLS connection closed by the remote end of the channel",
            advice: "The partner ended the handshake: its error log has the real reason (certificate, cipher, SSLPEER).",
            verified: false,
        }),
    },
    // Channel authentication.
    Entry {
        id: "AMQ9776",
        severity: 'E',
        family: Family::Security,
        fields: &[],
        rule: None,
    },
    Entry {
        id: "AMQ9777",
        severity: 'E',
        family: Family::Security,
        fields: &[],
        rule: None,
    },
    // Internal errors (an FDC was written).
    Entry {
        id: "AMQ6184",
        severity: 'W',
        family: Family::Internal,
        fields: &[],
        rule: None,
    },
    Entry {
        id: "AMQ6118",
        severity: 'S',
        family: Family::Internal,
        fields: &[],
        rule: None,
    },
    Entry {
        id: "AMQ6119",
        severity: 'S',
        family: Family::Internal,
        fields: &[],
        rule: None,
    },
    Entry {
        id: "AMQ6125",
        severity: 'S',
        family: Family::Internal,
        fields: &[],
        rule: None,
    },
    // Informational.
    Entry {
        id: "AMQ5037",
        severity: 'I',
        family: Family::Info,
        fields: &[ins("task", "CommentInsert1")],
        rule: None,
    },
    Entry {
        id: "AMQ5041",
        severity: 'I',
        family: Family::Info,
        fields: &[ins("task", "CommentInsert1")],
        rule: None,
    },
    Entry {
        id: "AMQ5051",
        severity: 'I',
        family: Family::Info,
        fields: &[
            ins("task", "CommentInsert1"),
            t("task", r"(?i)\btask '([^']+)'"),
        ],
        rule: None,
    },
    Entry {
        id: "AMQ5806",
        severity: 'I',
        family: Family::Info,
        fields: &[],
        rule: None,
    },
    Entry {
        id: "AMQ6287",
        severity: 'I',
        family: Family::Info,
        fields: &[],
        rule: None,
    },
    Entry {
        id: "AMQ7467",
        severity: 'I',
        family: Family::Info,
        fields: &[],
        rule: None,
    },
    Entry {
        id: "AMQ7468",
        severity: 'I',
        family: Family::Info,
        fields: &[],
        rule: None,
    },
    Entry {
        id: "AMQ8003",
        severity: 'I',
        family: Family::Info,
        fields: &[],
        rule: None,
    },
    Entry {
        id: "AMQ8004",
        severity: 'I',
        family: Family::Info,
        fields: &[],
        rule: None,
    },
    Entry {
        id: "AMQ9001",
        severity: 'I',
        family: Family::Info,
        fields: &[],
        rule: None,
    },
    Entry {
        id: "AMQ9002",
        severity: 'I',
        family: Family::Info,
        fields: &[],
        rule: None,
    },
    Entry {
        id: "AMQ9542",
        severity: 'I',
        family: Family::Info,
        fields: &[],
        rule: None,
    },
    // z/OS channel initiator. z/OS letters: I information, E eventual
    // action (an error), A action, D decision.
    Entry {
        id: "CSQX500",
        severity: 'I',
        family: Family::Info,
        fields: &[],
        rule: None,
    },
    Entry {
        id: "CSQX501",
        severity: 'I',
        family: Family::Info,
        fields: &[],
        rule: None,
    },
    Entry {
        id: "CSQX511",
        severity: 'I',
        family: Family::Info,
        fields: &[],
        rule: None,
    },
    Entry {
        id: "CSQX512",
        severity: 'I',
        family: Family::Info,
        fields: &[],
        rule: None,
    },
    Entry {
        id: "CSQX053",
        severity: 'E',
        family: Family::Internal,
        fields: &[],
        rule: None,
    },
    Entry {
        id: "CSQX201",
        severity: 'E',
        family: Family::Channel,
        fields: &[],
        rule: None,
    },
    Entry {
        id: "CSQX202",
        severity: 'E',
        family: Family::Channel,
        fields: &[],
        rule: None,
    },
    Entry {
        id: "CSQX206",
        severity: 'E',
        family: Family::Channel,
        fields: &[],
        rule: None,
    },
    Entry {
        id: "CSQX207",
        severity: 'E',
        family: Family::Channel,
        fields: &[],
        rule: Some(RuleText {
            severity: Severity::Warning,
            meaning: "Invalid data received (z/OS)",
            advice: "A non-MQ or wrong-protocol connection reached the channel initiator: identify the address.",
            verified: false,
        }),
    },
    Entry {
        id: "CSQX208",
        severity: 'E',
        family: Family::Channel,
        fields: &[],
        rule: None,
    },
    Entry {
        id: "CSQX209",
        severity: 'E',
        family: Family::Channel,
        fields: &[],
        rule: Some(RuleText {
            severity: Severity::Error,
            meaning: "Connection unexpectedly terminated (z/OS)",
            advice: "The partner or the network ended the connection: check the partner's logs and firewalls at that time.",
            verified: true,
        }),
    },
    // "Maximum instance limit n, exceeded" (MAXINST) and the client form
    // (MAXINSTC): wording from APAR PI08703 and the seed case.
    Entry {
        id: "CSQX489",
        severity: 'E',
        family: Family::Channel,
        fields: &[t("limit", r"instance limit (\d+)")],
        rule: Some(RuleText {
            severity: Severity::Error,
            meaning: "Maximum instances or retries exceeded (z/OS)",
            advice: "MAXINST/MAXINSTC or retry limits were reached: look for connection churn or clients that do not disconnect.",
            verified: false,
        }),
    },
    Entry {
        id: "CSQX490",
        severity: 'E',
        family: Family::Channel,
        fields: &[t("limit", r"instance limit (\d+)")],
        rule: None,
    },
    Entry {
        id: "CSQX504",
        severity: 'E',
        family: Family::Channel,
        fields: &[],
        rule: Some(RuleText {
            severity: Severity::Error,
            meaning: "Local protocol error (z/OS)",
            advice: "A client used an invalid protocol: identify the address (CSQSNAP has the data).",
            verified: false,
        }),
    },
    Entry {
        id: "CSQX513",
        severity: 'E',
        family: Family::Channel,
        fields: &[],
        rule: None,
    },
    Entry {
        id: "CSQX599",
        severity: 'E',
        family: Family::Channel,
        fields: &[],
        rule: Some(RuleText {
            severity: Severity::Error,
            meaning: "Channel ended abnormally (z/OS)",
            advice: "See the preceding channel-initiator messages for the cause.",
            verified: false,
        }),
    },
    // CSQX777: the readers had it as `security`, the rules as a channel
    // error. It is the channel initiator refusing an inbound connection
    // (a CHLAUTH block) before any channel runs: what the operator has is a
    // refused connection from an address, the same network-side view as
    // CSQX207/AMQ9207 (a scanner or a client that should not connect), and
    // `channel-error` reports it as such, as a warning. So it is `channel`.
    Entry {
        id: "CSQX777",
        severity: 'E',
        family: Family::Channel,
        fields: &[t(
            "hostspec",
            r"\bfrom ([0-9A-Za-z][0-9A-Za-z.:_-]*(?: \([^)]*\))?) has been blocked",
        )],
        rule: Some(RuleText {
            severity: Severity::Warning,
            meaning: "Channel blocked by a CHLAUTH rule (z/OS)",
            advice: "A connection was refused by channel authentication: intended for blocked clients; otherwise review the CHLAUTH rules.",
            verified: false,
        }),
    },
    Entry {
        id: "CSQX620",
        severity: 'E',
        family: Family::Tls,
        fields: &[],
        rule: Some(RuleText {
            severity: Severity::Error,
            meaning: "System SSL error (z/OS)",
            advice: "The System SSL return code in the message says why: check the key ring and certificates.",
            verified: false,
        }),
    },
    Entry {
        id: "CSQX631",
        severity: 'E',
        family: Family::Tls,
        fields: &[],
        rule: Some(RuleText {
            severity: Severity::Error,
            meaning: "Cipher specifications differ (z/OS)",
            advice: "Align SSLCIPH on both ends.",
            verified: false,
        }),
    },
    Entry {
        id: "CSQX633",
        severity: 'E',
        family: Family::Tls,
        fields: &[],
        rule: Some(RuleText {
            severity: Severity::Error,
            meaning: "Invalid remote certificate (z/OS)",
            advice: "Check the partner certificate and the trusted CAs on the key ring.",
            verified: false,
        }),
    },
    Entry {
        id: "CSQX634",
        severity: 'E',
        family: Family::Tls,
        fields: &[],
        rule: Some(RuleText {
            severity: Severity::Error,
            meaning: "Certificate expired or not yet valid (z/OS)",
            advice: "Renew the certificate.",
            verified: false,
        }),
    },
    Entry {
        id: "CSQX636",
        severity: 'E',
        family: Family::Tls,
        fields: &[],
        rule: Some(RuleText {
            severity: Severity::Error,
            meaning: "Distinguished name does not match the peer name (z/OS)",
            advice: "Correct SSLPEER or the CHLAUTH SSLPEERMAP rule.",
            verified: false,
        }),
    },
    Entry {
        id: "CSQX637",
        severity: 'E',
        family: Family::Tls,
        fields: &[],
        rule: Some(RuleText {
            severity: Severity::Error,
            meaning: "No TLS certificate for the remote channel (z/OS)",
            advice: "The partner sent no certificate: give it one or set SSLCAUTH(OPTIONAL) if that is intended.",
            verified: false,
        }),
    },
    Entry {
        id: "CSQX638",
        severity: 'E',
        family: Family::Tls,
        fields: &[],
        rule: Some(RuleText {
            severity: Severity::Error,
            meaning: "TLS communications error (z/OS)",
            advice: "See the partner's messages for the cause.",
            verified: false,
        }),
    },
];

/// The peer address MQ recorded itself is the authoritative one: it goes
/// before any address read from the text.
static REMOTE_HOST: &[Field] = &[ins("address", "RemoteHost")];

/// Applies to every AMQ message after its own fields. Channel and host
/// keywords also in French and German, for localised logs without inserts.
pub static GENERIC_AMQ: &[Field] = &[
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
pub static GENERIC_CSQ: &[Field] = &[
    t("channel", r"\b[Cc]hannel ([A-Z0-9][A-Z0-9._/%]*)"),
    t(
        "hostspec",
        r"\bconnection :?([A-Za-z0-9][A-Za-z0-9.:_-]*(?: \([^)]*\))*)",
    ),
    t("trptype", r"\bTRPTYPE=(\w+)"),
    t("rc_hex", r"\bRC=([0-9A-Fa-f]+)"),
    t("qmgr", r"\(queue manager ([^)\s]+)\)"),
];

/// The catalogue row of a message id (with or without its letter,
/// surrounding blanks ignored).
pub fn lookup(id: &str) -> Option<&'static Entry> {
    static BY_ID: OnceLock<HashMap<&'static str, &'static Entry>> = OnceLock::new();
    let map = BY_ID.get_or_init(|| CATALOG.iter().map(|e| (e.id, e)).collect());
    map.get(base_id(id.trim())).copied()
}

/// The rule's words for a message some rule reports: `None` for ids the
/// catalogue does not know and for rows no rule reports.
pub fn reported(id: &str) -> Option<Reported> {
    let e = lookup(id)?;
    let r = e.rule.as_ref()?;
    Some(Reported {
        id: e.id,
        family: e.family,
        severity: r.severity,
        meaning: r.meaning,
        advice: r.advice,
        verified: r.verified,
    })
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pattern_compiles_and_ids_are_unique() {
        let mut seen = std::collections::HashSet::new();
        for e in CATALOG {
            assert!(seen.insert(e.id), "duplicate {}", e.id);
            assert!("IWEST".contains(e.severity), "{}", e.id);
            for f in e.fields {
                if let Src::Text(p) = f.src {
                    let _ = extract::regex(p);
                }
            }
        }
        for f in GENERIC_AMQ.iter().chain(GENERIC_CSQ) {
            if let Src::Text(p) = f.src {
                let _ = extract::regex(p);
            }
        }
    }

    /// `AMQ` + 4 digits or `CSQ` + a letter + 3 digits, then optionally
    /// the severity letters each family of ids uses.
    fn well_shaped(id: &str, letters: &str) -> bool {
        let b = id.as_bytes();
        let (head, digits) = match id.get(..3) {
            Some("AMQ") => (3, 4),
            Some("CSQ") if b.get(3).is_some_and(u8::is_ascii_uppercase) => (4, 3),
            _ => return false,
        };
        let end = head + digits;
        b.len() >= end
            && b[head..end].iter().all(u8::is_ascii_digit)
            && match &b[end..] {
                [] => true,
                [c] => letters.contains(*c as char),
                _ => false,
            }
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
    }

    #[test]
    fn every_row_is_well_formed() {
        for e in CATALOG {
            let letters = if e.id.starts_with("AMQ") {
                "IWEST"
            } else {
                "IWEDS"
            };
            // The table's id is the bare message number.
            assert!(well_shaped(e.id, ""), "{}", e.id);
            let with_letter = format!("{}{}", e.id, e.severity);
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
    fn every_id_a_rule_names_is_in_the_table() {
        let rules = [
            &crate::passes::channel_error::RULE,
            &crate::passes::tls_error::RULE,
            &crate::passes::slow_dns::RULE,
        ];
        for r in rules {
            let text = r.trigger_text();
            for w in text.split(|c: char| !c.is_ascii_alphanumeric()) {
                if w.starts_with("AMQ") || w.starts_with("CSQ") {
                    assert!(lookup(w).is_some(), "{} names {w}", r.id);
                }
            }
        }
        for (family, n) in [(Family::Channel, 24), (Family::Tls, 18)] {
            let listed = reported_ids(family);
            assert_eq!(
                CATALOG
                    .iter()
                    .filter(|e| e.family == family && e.rule.is_some())
                    .count(),
                n
            );
            assert_eq!(
                listed.matches(", ").count() + listed.matches(" and ").count() + 1,
                n
            );
        }
    }

    #[test]
    fn one_family_per_message() {
        assert_eq!(lookup("CSQX777E").unwrap().family, Family::Channel);
        assert_eq!(reported("CSQX777E").unwrap().family, Family::Channel);
        for id in [
            "CSQX620", "CSQX631", "CSQX633", "CSQX634", "CSQX636", "CSQX637", "CSQX638",
        ] {
            assert_eq!(lookup(id).unwrap().family, Family::Tls, "{id}");
            assert_eq!(reported(id).unwrap().family, Family::Tls, "{id}");
        }
        assert_eq!(extract("CSQX777E", "", &[]).family, Some("channel"));
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
        assert!(
            ch.ends_with(" and CSQX207, 209, 489, 504, 599, 777"),
            "{ch}"
        );
        assert_eq!(
            warning_ids(Family::Channel),
            "AMQ9207, AMQ9209, AMQ9519, AMQ9520, CSQX207, CSQX777"
        );
        assert!(reported_ids(Family::Dns).is_empty());
    }
}
