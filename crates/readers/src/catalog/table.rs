//! The catalogue's rows, as data: one `Entry` per message (severity,
//! family, where each value sits, and what the rules say of it). The
//! fields every AMQ or CSQ message may carry are in `generic.rs`, the
//! types and the look-ups in `catalog/mod.rs`.

use super::generic::{ins, loc, t};
use super::{Entry, Family, Role, RuleText, Shape, UNVERIFIED};
use mqdiag_model::problem::Severity;

/// The English wording of the messages with localised fallbacks.
const EN_9208: &str = "receive from host";
const EN_9209: &str = "onnection to host";
const EN_9788: &str = "Slow DNS lookup";
const EN_9999: &str = "ended abnormally";
const EN_9544: &str = "processing of channel";
const EN_9207: &str = "data received from host";
const EN_9271: &str = "timed out";
const EN_9519: &str = "not found";
const EN_9520: &str = "not defined remotely";
const EN_9780: &str = "remote machine";
const EN_9633: &str = "certificate for channel";
const EN_9636: &str = "distinguished name";
const EN_9777: &str = "was blocked";
const EN_5534: &str = "authentication failed";
const EN_5540: &str = "did not supply a user ID";
const EN_5541: &str = "failed authentication check";
const EN_9557: &str = "initialization failed";
const EN_8077: &str = "insufficient authority";
const EN_7463: &str = "is full";
const EN_9202: &str = "not available";
const EN_9503: &str = "negotiation failed";
const EN_9526: &str = "sequence number";
const EN_TASK: &str = "queue manager task";
const EN_8003: &str = "started using";
const EN_8004: &str = "ended.";
const EN_9001: &str = "ended normally";
const EN_9002: &str = "is starting";

/// Every catalogued message.
pub static CATALOG: &[Entry] = &[
    // DNS. The insert mapping of AMQ9788 is not documented: the text comes
    // first, the inserts (numbers are ArithInserts, text CommentInserts by
    // IBM's convention) only when the text did not match.
    Entry {
        id: "AMQ9788",
        severity: 'W',
        family: Family::Dns,
        role: Role::None,
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
        role: Role::None,
        // The generic fields read the English text; these a localised one.
        fields: &[
            loc("hostspec", EN_9202, Shape::Host),
            loc("channel", EN_9202, Shape::Channel),
            loc("function", EN_9202, Shape::Function),
            loc("reason", EN_9202, Shape::ReturnCode),
        ],
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
        role: Role::None,
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
        role: Role::None,
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
        role: Role::None,
        fields: &[
            t("hostspec", r"received from host '([^']*)'"),
            ins("hostspec", "CommentInsert1"),
            loc("hostspec", EN_9207, Shape::Host),
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
        role: Role::None,
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
        role: Role::None,
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
        role: Role::None,
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
        role: Role::None,
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
        role: Role::None,
        fields: &[
            t(
                "hostspec",
                r"address of the remote end of the connection was '([^']*)'",
            ),
            t("seconds", r"\[TIMEOUT\] (\d+) seconds"),
            loc("hostspec", EN_9271, Shape::Host),
            loc("seconds", EN_9271, Shape::Number),
            loc("channel", EN_9271, Shape::Channel),
            loc("function", EN_9271, Shape::Function),
            loc("reason", EN_9271, Shape::ReturnCode),
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
        role: Role::None,
        fields: &[
            t("hostspec", r"remote machine '([^']*)'"),
            loc("channel", EN_9503, Shape::Channel),
            loc("hostspec", EN_9503, Shape::Host),
        ],
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
        role: Role::None,
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
        role: Role::None,
        fields: &[],
        rule: None,
    },
    // Limits (the `resource-limit` rule; sources in `limits::LIMITS`).
    Entry {
        id: "AMQ9513",
        severity: 'E',
        family: Family::Limit,
        role: Role::None,
        fields: &[],
        rule: None,
    },
    Entry {
        id: "AMQ9519",
        severity: 'E',
        family: Family::Channel,
        role: Role::UndefinedChannel,
        fields: &[
            t("channel", r"Channel '([^']*)' not found"),
            loc("channel", EN_9519, Shape::Channel),
        ],
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
        role: Role::UndefinedChannel,
        fields: &[
            t("channel", r"channel '([^']*)'"),
            loc("channel", EN_9520, Shape::Channel),
        ],
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
        role: Role::None,
        fields: &[],
        rule: None,
    },
    Entry {
        id: "AMQ9526",
        severity: 'E',
        family: Family::Channel,
        role: Role::None,
        fields: &[
            loc("channel", EN_9526, Shape::Channel),
            loc("hostspec", EN_9526, Shape::Host),
        ],
        rule: Some(RuleText {
            severity: Severity::Error,
            meaning: "Message sequence number error",
            advice: "The two ends disagree on the sequence number: RESET CHANNEL on the sending end after checking no messages are lost.",
            verified: false,
        }),
    },
    // The letter E is the catalogue's earlier one, not verified (see
    // `limits::LIMITS`).
    Entry {
        id: "AMQ9544",
        severity: 'E',
        family: Family::Limit,
        role: Role::None,
        fields: &[
            t("channel", r"processing of channel '([^']*)'"),
            t("dlq_location", r"location of the queue is (\d)"),
            loc("channel", EN_9544, Shape::Channel),
            loc("dlq_location", EN_9544, Shape::Number),
        ],
        rule: None,
    },
    // No letter: the catalogue adds none (`limits::LIMITS`).
    Entry {
        id: "AMQ7463",
        severity: UNVERIFIED,
        family: Family::Limit,
        role: Role::None,
        fields: &[
            t("qmgr", r"log for queue manager '?([^'\s]+?)'? is full"),
            loc("qmgr", EN_7463, Shape::Name),
        ],
        rule: None,
    },
    Entry {
        id: "AMQ9558",
        severity: 'E',
        family: Family::Channel,
        role: Role::None,
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
        role: Role::GenericEnd,
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
        role: Role::EndNotice,
        fields: &[
            t("hostspec", r"remote machine '([^']*)'"),
            loc("hostspec", EN_9780, Shape::Host),
        ],
        rule: None,
    },
    // TLS.
    Entry {
        id: "AMQ9631",
        severity: 'E',
        family: Family::Tls,
        role: Role::None,
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
        role: Role::None,
        fields: &[
            ins("channel", "CommentInsert1"),
            ins("peer", "CommentInsert2"),
            ins("hostspec", "CommentInsert3"),
            ins("reason", "ArithInsert1"),
            loc("channel", EN_9633, Shape::Channel),
            loc("hostspec", EN_9633, Shape::Host),
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
        role: Role::None,
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
        role: Role::None,
        fields: &[
            ins("channel", "CommentInsert1"),
            ins("peer", "CommentInsert2"),
            ins("hostspec", "CommentInsert3"),
            loc("channel", EN_9636, Shape::Channel),
            loc("hostspec", EN_9636, Shape::Host),
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
        role: Role::None,
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
        role: Role::None,
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
        role: Role::None,
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
        role: Role::None,
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
        role: Role::None,
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
        role: Role::None,
        fields: &[],
        rule: None,
    },
    Entry {
        id: "AMQ9660",
        severity: 'E',
        family: Family::Tls,
        role: Role::None,
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
        role: Role::None,
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
        role: Role::None,
        fields: &[],
        rule: None,
    },
    // AMQ9777 inserts as a 9.1 log writes them: CommentInsert1 the
    // channel, 2 the address, 3 the channel's active values
    // (`CLNTUSER(jochen)`). Where its facts come from: `access::ACCESS`.
    Entry {
        id: "AMQ9777",
        severity: 'E',
        family: Family::Security,
        role: Role::None,
        fields: &[
            ins("channel", "CommentInsert1"),
            ins("hostspec", "CommentInsert2"),
            ins("chlauth_values", "CommentInsert3"),
            t("channel", r"inbound channel '([^']*)' was blocked"),
            t("hostspec", r"blocked from address '([^']*)'"),
            t(
                "chlauth_values",
                r"active values of the channel were '([^']*)'",
            ),
            t(
                "chlauth_match",
                r"matched a record configured with ([A-Z]+\([A-Z]+\))",
            ),
            t("client_user", r"\bCLNTUSER\(([^)]+)\)"),
            loc("channel", EN_9777, Shape::Channel),
            loc("hostspec", EN_9777, Shape::Host),
        ],
        rule: None,
    },
    // RACF's violation message, in the job log of the queue manager whose
    // resource was refused (z/OS): the `access-refused` rule's, sources in
    // `access::ACCESS`. Profiles of the MQ classes start with the queue
    // manager or queue-sharing group name (1 to 4 characters).
    Entry {
        id: "ICH408",
        severity: 'I',
        family: Family::Security,
        role: Role::None,
        fields: &[
            t("client_user", r"\bUSER\((\S+?) *\)"),
            t("object", r"(\S+) CL\(\w+ *\)"),
            t("object_type", r"\bCL\((\w+) *\)"),
            t(
                "qmgr",
                r"(?:^|\s)([A-Z0-9@#$]{1,4})\.\S* CL\((?:MQ|MX)\w+ *\)",
            ),
            t("access_intent", r"ACCESS INTENT\((\w+) *\)"),
            t(
                "racf_check",
                r"(INSUFFICIENT ACCESS AUTHORITY|PROFILE NOT FOUND|NOT RACF-DEFINED)",
            ),
        ],
        rule: None,
    },
    // Connection authentication, user-id initialisation and authority
    // (the `access-refused` rule; sources in `access::ACCESS`).
    Entry {
        id: "AMQ5534",
        severity: 'E',
        family: Family::Security,
        role: Role::None,
        fields: &[
            t("client_user", r"User ID '([^']*)' authentication failed"),
            t("appl", r"supplied by the '([^']*)' program"),
            loc("client_user", EN_5534, Shape::Name),
            loc("appl", EN_5534, Shape::Program),
        ],
        rule: None,
    },
    Entry {
        id: "AMQ5540",
        severity: 'E',
        family: Family::Security,
        role: Role::None,
        fields: &[
            t(
                "appl",
                r"Application '([^']*)' did not supply a user ID and password",
            ),
            loc("appl", EN_5540, Shape::Program),
        ],
        rule: None,
    },
    Entry {
        id: "AMQ5541",
        severity: 'E',
        family: Family::Security,
        role: Role::None,
        fields: &[
            t("connauth_check", r"CONNAUTH ((?:CHCKCLNT|CHCKLOCL)\(\w+\))"),
            t("client_user", r"The user ID '([^']*)'"),
            loc("client_user", EN_5541, Shape::Name),
        ],
        rule: None,
    },
    Entry {
        id: "AMQ5542",
        severity: 'E',
        family: Family::Security,
        role: Role::None,
        fields: &[
            t("connauth_check", r"CONNAUTH ((?:CHCKCLNT|CHCKLOCL)\(\w+\))"),
            t("client_user", r"The user ID '([^']*)'"),
            loc("client_user", EN_5541, Shape::Name),
        ],
        rule: None,
    },
    Entry {
        id: "AMQ9557",
        severity: 'E',
        family: Family::Security,
        role: Role::None,
        fields: &[
            ins("client_user", "CommentInsert1"),
            ins("csp_user", "CommentInsert2"),
            ins("reason", "ArithInsert2"),
            t("client_user", r"initialization failed for '([^']*)'"),
            t("csp_user", r"MQCSP block was '([^']+)'"),
            t("reason", r"CompCode \d+ and Reason (\d+)"),
            loc("client_user", EN_9557, Shape::Name),
        ],
        rule: None,
    },
    Entry {
        id: "AMQ8077",
        severity: 'W',
        family: Family::Security,
        role: Role::None,
        fields: &[
            t(
                "client_user",
                r"Entity '([^']*)' has insufficient authority",
            ),
            t("object", r"to access object '([^']*)'"),
            t("object_type", r"to access object '[^']*' \[(\w+)\]"),
            t("permissions", r"unauthorized: ([a-z]+(?:, ?[a-z]+)*)"),
            loc("client_user", EN_8077, Shape::Name),
            loc("object", EN_8077, Shape::Name),
        ],
        rule: None,
    },
    // Internal errors (an FDC was written).
    Entry {
        id: "AMQ6184",
        severity: 'W',
        family: Family::Internal,
        role: Role::None,
        // "An internal IBM MQ error has occurred on queue manager QM1. ...
        // The failing process is process 8480." (elastic/beats,
        // x-pack/filebeat/module/ibmmq/errorlog/test/AMQERR01.LOG: a system
        // log record with no QMgr(), the inserts CommentInsert1 and
        // ArithInsert1): the queue manager and the failing process.
        fields: &[
            t("qmgr", r"on queue manager ([^\s']+?)\.?(?:\s|$)"),
            ins("qmgr", "CommentInsert1"),
            t("failing_pid", r"failing process is process (\d+)"),
            ins("failing_pid", "ArithInsert1"),
        ],
        rule: None,
    },
    Entry {
        id: "AMQ6118",
        severity: 'S',
        family: Family::Internal,
        role: Role::None,
        fields: &[],
        rule: None,
    },
    Entry {
        id: "AMQ6119",
        severity: 'S',
        family: Family::Internal,
        role: Role::None,
        fields: &[],
        rule: None,
    },
    Entry {
        id: "AMQ6125",
        severity: 'S',
        family: Family::Internal,
        role: Role::None,
        fields: &[],
        rule: None,
    },
    // Informational.
    Entry {
        id: "AMQ5037",
        severity: 'I',
        family: Family::Info,
        role: Role::None,
        fields: &[
            ins("task", "CommentInsert1"),
            t("task", r"(?i)\btask '([^']+)'"),
            loc("task", EN_TASK, Shape::Name),
        ],
        rule: None,
    },
    Entry {
        id: "AMQ5041",
        severity: 'I',
        family: Family::Info,
        role: Role::None,
        fields: &[
            ins("task", "CommentInsert1"),
            t("task", r"(?i)\btask '([^']+)'"),
            loc("task", EN_TASK, Shape::Name),
        ],
        rule: None,
    },
    Entry {
        id: "AMQ5051",
        severity: 'I',
        family: Family::Info,
        role: Role::None,
        fields: &[
            ins("task", "CommentInsert1"),
            t("task", r"(?i)\btask '([^']+)'"),
            loc("task", EN_TASK, Shape::Name),
        ],
        rule: None,
    },
    Entry {
        id: "AMQ5806",
        severity: 'I',
        family: Family::Info,
        role: Role::None,
        fields: &[],
        rule: None,
    },
    Entry {
        id: "AMQ6287",
        severity: 'I',
        family: Family::Info,
        role: Role::None,
        fields: &[],
        rule: None,
    },
    Entry {
        id: "AMQ7467",
        severity: 'I',
        family: Family::Info,
        role: Role::None,
        fields: &[],
        rule: None,
    },
    Entry {
        id: "AMQ7468",
        severity: 'I',
        family: Family::Info,
        role: Role::None,
        fields: &[],
        rule: None,
    },
    Entry {
        id: "AMQ8003",
        severity: 'I',
        family: Family::Info,
        role: Role::None,
        // `<insert_5>` of IBM's text, the third comment insert.
        fields: &[
            ins("qmgr", "CommentInsert3"),
            t("qmgr", r"queue manager '([^']+)'"),
            loc("qmgr", EN_8003, Shape::Name),
        ],
        rule: None,
    },
    Entry {
        id: "AMQ8004",
        severity: 'I',
        family: Family::Info,
        role: Role::None,
        // `<insert_5>` of IBM's text, the third comment insert.
        fields: &[
            ins("qmgr", "CommentInsert3"),
            t("qmgr", r"queue manager '([^']+)'"),
            loc("qmgr", EN_8004, Shape::Name),
        ],
        rule: None,
    },
    Entry {
        id: "AMQ9001",
        severity: 'I',
        family: Family::Info,
        role: Role::ChannelStop,
        // `<insert_3>` the channel, `<insert_5>` the host.
        fields: &[
            ins("channel", "CommentInsert1"),
            ins("hostspec", "CommentInsert3"),
            loc("channel", EN_9001, Shape::Channel),
            loc("hostspec", EN_9001, Shape::Host),
        ],
        rule: None,
    },
    Entry {
        id: "AMQ9002",
        severity: 'I',
        family: Family::Info,
        role: Role::ChannelStart,
        fields: &[
            ins("channel", "CommentInsert1"),
            loc("channel", EN_9002, Shape::Channel),
        ],
        rule: None,
    },
    Entry {
        id: "AMQ9542",
        severity: 'I',
        family: Family::Info,
        role: Role::None,
        fields: &[],
        rule: None,
    },
    // z/OS channel initiator. z/OS letters: I information, E eventual
    // action (an error), A action, D decision.
    Entry {
        id: "CSQX500",
        severity: 'I',
        family: Family::Info,
        role: Role::None,
        fields: &[],
        rule: None,
    },
    Entry {
        id: "CSQX501",
        severity: 'I',
        family: Family::Info,
        role: Role::None,
        fields: &[],
        rule: None,
    },
    Entry {
        id: "CSQX511",
        severity: 'I',
        family: Family::Info,
        role: Role::ChannelStart,
        fields: &[],
        rule: None,
    },
    Entry {
        id: "CSQX512",
        severity: 'I',
        family: Family::Info,
        role: Role::ChannelStop,
        fields: &[],
        rule: None,
    },
    Entry {
        id: "CSQX053",
        severity: 'E',
        family: Family::Internal,
        role: Role::None,
        fields: &[],
        rule: None,
    },
    Entry {
        id: "CSQX201",
        severity: 'E',
        family: Family::Channel,
        role: Role::None,
        fields: &[],
        rule: None,
    },
    Entry {
        id: "CSQX202",
        severity: 'E',
        family: Family::Channel,
        role: Role::None,
        fields: &[],
        rule: None,
    },
    Entry {
        id: "CSQX206",
        severity: 'E',
        family: Family::Channel,
        role: Role::None,
        fields: &[],
        rule: None,
    },
    Entry {
        id: "CSQX207",
        severity: 'E',
        family: Family::Channel,
        role: Role::None,
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
        role: Role::None,
        fields: &[],
        rule: None,
    },
    Entry {
        id: "CSQX209",
        severity: 'E',
        family: Family::Channel,
        role: Role::None,
        fields: &[],
        rule: Some(RuleText {
            severity: Severity::Error,
            meaning: "Connection unexpectedly terminated (z/OS)",
            advice: "The partner or the network ended the connection: check the partner's logs and firewalls at that time.",
            verified: true,
        }),
    },
    // "Maximum instance limit n, exceeded" (MAXINST/MAXINSTC): the
    // `resource-limit` rule's, sources in `limits::LIMITS`.
    Entry {
        id: "CSQX489",
        severity: 'E',
        family: Family::Limit,
        role: Role::None,
        fields: &[t("limit", r"instance limit (\d+)")],
        rule: None,
    },
    // "Messages sent to local dead-letter queue, channel <c>, reason=<r>":
    // the `resource-limit` rule's, sources in `limits::LIMITS`.
    Entry {
        id: "CSQX548",
        severity: 'E',
        family: Family::Limit,
        role: Role::None,
        fields: &[
            t("channel", r"channel ([^\s,]+)"),
            t("reason", r"reason=(\d+)"),
            t("dlq_location", r"sent to (local) dead-letter"),
        ],
        rule: None,
    },
    Entry {
        id: "CSQX490",
        severity: 'E',
        family: Family::Channel,
        role: Role::None,
        fields: &[t("limit", r"instance limit (\d+)")],
        rule: None,
    },
    Entry {
        id: "CSQX504",
        severity: 'E',
        family: Family::Channel,
        role: Role::None,
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
        role: Role::None,
        fields: &[],
        rule: None,
    },
    Entry {
        id: "CSQX599",
        severity: 'E',
        family: Family::Channel,
        role: Role::GenericEnd,
        fields: &[],
        rule: Some(RuleText {
            severity: Severity::Error,
            meaning: "Channel ended abnormally (z/OS)",
            advice: "See the preceding channel-initiator messages for the cause.",
            verified: false,
        }),
    },
    // CSQX777: the channel initiator refusing an inbound channel by a
    // CHLAUTH record, the z/OS form of AMQ9777 (the `access-refused`
    // rule; sources in `access::ACCESS`).
    Entry {
        id: "CSQX777",
        severity: 'E',
        family: Family::Security,
        role: Role::None,
        fields: &[
            t(
                "hostspec",
                r"\bfrom ([0-9A-Za-z][0-9A-Za-z.:_-]*(?: \([^)]*\))?) has been blocked",
            ),
            t("chlauth_match", r"blocked due to ([A-Z]+\([A-Z]+\))"),
        ],
        rule: None,
    },
    Entry {
        id: "CSQX620",
        severity: 'E',
        family: Family::Tls,
        role: Role::None,
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
        role: Role::None,
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
        role: Role::None,
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
        role: Role::None,
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
        role: Role::None,
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
        role: Role::None,
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
        role: Role::None,
        fields: &[],
        rule: Some(RuleText {
            severity: Severity::Error,
            meaning: "TLS communications error (z/OS)",
            advice: "See the partner's messages for the cause.",
            verified: false,
        }),
    },
];
