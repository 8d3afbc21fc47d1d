//! What the `resource-limit` rule knows of each message it reports: which
//! limit was reached, the setting that governs it, what to look at, and
//! where those facts were checked. Data, not behaviour: the rule is
//! `passes::resource_limit`. Each id also has its `CATALOG` row (family
//! `limit`, the fields it carries).
//!
//! The limits an application meets as a reason code (a full queue, the
//! handle, connection and unit-of-work limits, storage) are `REASONS`:
//! the rule reads them from the MQI calls a trace shows.
//!
//! Left out because their ids, letters or texts could not be checked
//! against IBM documentation or a real log: the distributed MAXINST and
//! MAXINSTC messages, MaxActiveChannels, the z/OS active-log and page-set
//! full messages (CSQJ, CSQP, CSQI), and file-system full (AMQ6708).

/// A limit a queue manager can reach.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Limit {
    /// The queue manager's channel count (`MaxChannels`, z/OS `MAXCHL`).
    MaxChannels,
    /// A server-connection channel's instances (`MAXINST`/`MAXINSTC`).
    MaxInstances,
    /// Messages a channel could not put to their destination queue went to
    /// a dead-letter queue.
    DeadLetter,
    /// The recovery log has no room left.
    LogFull,
    /// A queue held its MAXDEPTH messages.
    QueueFull,
    /// A unit of work reached MAXUMSGS uncommitted messages.
    UncommittedMessages,
    /// The queue manager's (or connection pool's) connection limit.
    Connections,
    /// A task's open handles reached MAXHANDS.
    Handles,
    /// No disk space for the queue.
    QueueSpace,
    /// z/OS: a page set, coupling-facility structure or SMDS is full.
    StorageMedium,
    /// Main storage (memory) ran out.
    Storage,
    /// A queue's depth rose past its QDEPTHHI (a Queue Depth High event).
    QueueDepthHigh,
    /// The queue manager's active channel count (`MaxActiveChannels`).
    MaxActiveChannels,
}

impl Limit {
    /// The value of the `limit` metric.
    pub fn as_str(self) -> &'static str {
        match self {
            Limit::MaxChannels => "max-channels",
            Limit::MaxInstances => "max-instances",
            Limit::DeadLetter => "dead-letter",
            Limit::LogFull => "log-full",
            Limit::QueueFull => "queue-full",
            Limit::UncommittedMessages => "uncommitted-messages",
            Limit::Connections => "connections",
            Limit::Handles => "handles",
            Limit::QueueSpace => "queue-space",
            Limit::StorageMedium => "storage-medium",
            Limit::Storage => "storage",
            Limit::QueueDepthHigh => "queue-depth-high",
            Limit::MaxActiveChannels => "max-active-channels",
        }
    }
}

/// One message `resource-limit` reports.
#[derive(Debug)]
pub struct LimitMessage {
    /// Message number without its severity letter.
    pub id: &'static str,
    pub limit: Limit,
    /// What it says, in a few words.
    pub meaning: &'static str,
    /// The setting that governs the limit.
    pub setting: &'static str,
    /// Where the id's meaning, severity letter and values were checked.
    #[cfg_attr(
        not(test),
        expect(dead_code, reason = "the row's record, held to by the tests")
    )]
    pub(crate) source: &'static str,
}

pub(crate) static LIMITS: &[LimitMessage] = &[
    LimitMessage {
        id: "AMQ9513",
        limit: Limit::MaxChannels,
        meaning: "Maximum number of channels reached",
        setting: "MaxChannels in the CHANNELS stanza of qm.ini",
        source: concat!(
            "Wording and letter E ('AMQ9513E: Maximum number of channels reached', written when a ",
            "client starts a channel instance while MaxChannels are in use; the client gets 2537 ",
            "MQRC_CHANNEL_NOT_AVAILABLE) from IBM technote https://www.ibm.com/support/pages/node/236995; ",
            "the same text without the letter in a queue manager log quoted in IBM's WebSphere ",
            "Application Server 5.0 support documents ",
            "(https://public.dhe.ibm.com/software/webserver/appserv/library/v50/com.ibm.support.was50.doc.zip)"
        ),
    },
    LimitMessage {
        id: "AMQ9544",
        limit: Limit::DeadLetter,
        meaning: "Messages not put to the destination queue: put to a dead-letter queue",
        setting: "the destination queue's MAXDEPTH and PUT, and the queue manager's DEADQ",
        source: concat!(
            "Wording ('AMQ9544: Messages not put to destination queue.', 'During the processing of ",
            "channel '<channel>' one or more messages could not be put to the destination queue and ",
            "attempts were made to put them to a dead-letter queue. The location of the queue is ",
            "<n>, where 1 is the local dead-letter queue and 2 is the remote dead-letter queue.') ",
            "from a queue manager log quoted in ",
            "https://stackoverflow.com/questions/12407759/how-does-wmq-exchange-dlq-information-between-remote-and-local-queue-managers; ",
            "the channel in the explanation also in the MQSeries Perl module's message table ",
            "(thorstenhirsch/MQSeries, MQSeries/ErrorLog/descriptions.pl). The severity letter is ",
            "not shown in either: the catalogue's E is not verified"
        ),
    },
    LimitMessage {
        id: "AMQ7463",
        limit: Limit::LogFull,
        meaning: "The log for the queue manager is full",
        setting: "LogPrimaryFiles, LogSecondaryFiles and LogFilePages in the Log stanza of qm.ini",
        source: concat!(
            "Wording ('AMQ7463: The log for queue manager 'QueueManagerName' is full.', with an FDC ",
            "of probe HL010004 hrcE_LOG_FULL naming AMQ6709) from IBM APAR IT15913 ",
            "https://www.ibm.com/support/docview.wss?uid=swg1IT15913; the queue manager insert also ",
            "in the MQSeries Perl module's message table. The severity letter is not shown: the ",
            "catalogue adds none"
        ),
    },
    LimitMessage {
        id: "CSQX489",
        limit: Limit::MaxInstances,
        meaning: "Maximum instance limit exceeded (MAXINST or MAXINSTC, z/OS)",
        setting: "the server-connection channel's MAXINST and MAXINSTC",
        source: concat!(
            "Wording and letter ('CSQX489E Maximum instance limit n, exceeded', logged with CSQX599E ",
            "for channels refused by MAXINST or MAXINSTC) from IBM's MQ for z/OS performance blog ",
            "on the cost of client connections (shared/seeds/001_88807c0b1590429f.txt); the ",
            "channel and connection are read as the channel initiator's other messages write ",
            "them (the catalogue's generic CSQ fields)"
        ),
    },
    LimitMessage {
        id: "CSQX548",
        limit: Limit::DeadLetter,
        meaning: "Messages sent to the local dead-letter queue (z/OS), with the reason",
        setting: "the destination queue's MAXDEPTH and PUT, and the queue manager's DEADQ",
        source: concat!(
            "Wording and letter ('CSQX548E Messages sent to local dead-letter queue, channel ",
            "<channel-name>, reason=2192', beside 2192 MQRC_STORAGE_MEDIUM_FULL when a page set ",
            "could not expand) from IBM technote ",
            "https://www.ibm.com/support/pages/csqp014e-expansion-failed-page-set-and-iec070i-034014-202"
        ),
    },
];

/// A limit an MQI call meets, told by its reason code.
#[derive(Debug)]
pub struct ReasonLimit {
    pub reason: u32,
    pub limit: Limit,
    /// What it says, in a few words.
    pub meaning: &'static str,
    /// The setting that governs the limit.
    pub setting: &'static str,
    /// Where the reason's meaning was checked.
    #[cfg_attr(
        not(test),
        expect(dead_code, reason = "the row's record, held to by the tests")
    )]
    pub(crate) source: &'static str,
}

/// IBM's reason-code pages, one per code: `<base><page>.html`.
macro_rules! rc_page {
    ($page:literal) => {
        concat!(
            "https://www.ibm.com/docs/en/SSFKSJ_latest/reference/",
            $page,
            ".html"
        )
    };
}

pub static REASONS: &[ReasonLimit] = &[
    ReasonLimit {
        reason: 2053,
        limit: Limit::QueueFull,
        meaning: "the queue already holds MaxQDepth messages",
        setting: "the queue's MAXDEPTH",
        source: concat!(
            "2053 (0805) MQRC_Q_FULL: an MQPUT or MQPUT1 call, or a command, failed because the ",
            "queue is full, as specified by the MaxQDepth queue attribute; also the Queue Full ",
            "event's reason. ",
            rc_page!("q041240_")
        ),
    },
    ReasonLimit {
        reason: 2024,
        limit: Limit::UncommittedMessages,
        meaning: "the unit of work would exceed MaxUncommittedMsgs",
        setting: "the queue manager's MAXUMSGS",
        source: concat!(
            "2024 (07E8) MQRC_SYNCPOINT_LIMIT_REACHED: an MQGET, MQPUT or MQPUT1 call would have ",
            "taken the uncommitted messages of the unit of work past the queue manager's ",
            "MaxUncommittedMsgs. ",
            rc_page!("q040970_")
        ),
    },
    ReasonLimit {
        reason: 2025,
        limit: Limit::Connections,
        meaning: "the maximum number of concurrent connections was exceeded",
        setting: "the connection limit (z/OS: 32767 for TSO and batch; Java: the connection pool's)",
        source: concat!(
            "2025 (07E9) MQRC_MAX_CONNS_LIMIT_REACHED: MQCONN or MQCONNX (on Multiplatforms also ",
            "MQOPEN) rejected because the maximum number of concurrent connections was exceeded; ",
            "on z/OS the limits are 32767 for TSO and batch; a Java connection manager may define ",
            "its own. ",
            rc_page!("q040980_")
        ),
    },
    ReasonLimit {
        reason: 2017,
        limit: Limit::Handles,
        meaning: "the task already has MaxHandles open handles",
        setting: "the queue manager's MAXHANDS",
        source: concat!(
            "2017 (07E1) MQRC_HANDLE_NOT_AVAILABLE: an MQOPEN, MQPUT1 or MQSUB call when the ",
            "task already has the maximum number of open handles, given by the MaxHandles queue ",
            "manager attribute (each queue of a distribution list takes one; MQSUB without an ",
            "object handle takes two). ",
            rc_page!("q040900_")
        ),
    },
    ReasonLimit {
        reason: 2056,
        limit: Limit::QueueSpace,
        meaning: "no space is available for the queue on disk",
        setting: "the file system that holds the queue manager's data",
        source: concat!(
            "2056 (0808) MQRC_Q_SPACE_NOT_AVAILABLE: an MQPUT or MQPUT1 call found no space for ",
            "the queue on disk or other storage device (not on z/OS). ",
            rc_page!("q041260_")
        ),
    },
    ReasonLimit {
        reason: 2192,
        limit: Limit::StorageMedium,
        meaning: "a page set, coupling-facility structure or SMDS is full (z/OS)",
        setting: "the page set or structure the queue's storage class maps to",
        source: concat!(
            "2192 (0890) MQRC_STORAGE_MEDIUM_FULL (formerly MQRC_PAGESET_FULL): the external ",
            "storage medium is full: a page set (nonshared queues), a coupling-facility ",
            "structure or the coupling facility (shared queues), or the SMDS; z/OS only. ",
            rc_page!("q042350_")
        ),
    },
    ReasonLimit {
        reason: 2071,
        limit: Limit::Storage,
        meaning: "insufficient main storage",
        setting: "the memory available to the process (ulimit; z/OS: the region size)",
        source: concat!(
            "2071 (0817) MQRC_STORAGE_NOT_AVAILABLE: the call failed because there is ",
            "insufficient main storage available. ",
            rc_page!("q041390_")
        ),
    },
];

/// The limit a reason code tells, if it tells one.
pub fn reason_limit(reason: u32) -> Option<&'static ReasonLimit> {
    REASONS.iter().find(|r| r.reason == reason)
}

/// The row of a log record, by its catalogue row (`super::entry_of`):
/// every row here is catalogued in the `Limit` family, so a record of any
/// other is passed over without a search.
pub fn limit_of(e: &mqdiag_model::event::Event) -> Option<&'static LimitMessage> {
    let x = super::entry_of(e)?;
    if x.family != super::Family::Limit {
        return None;
    }
    LIMITS.iter().find(|m| m.id == x.id)
}

/// IBM's event pages: `<base><page>.html` (MQ 9.1 reference).
macro_rules! event_page {
    ($page:literal) => {
        concat!(
            "https://www.ibm.com/support/knowledgecenter/en/SSFKSJ_9.1.0/com.ibm.mq.ref.doc/",
            $page,
            ".html"
        )
    };
}

/// Limits event messages tell (`mq-events`), by reason and, for Channel
/// Not Available (2537), reason qualifier. `id` is what the finding's
/// `message_id` shows: the qualifier, or the reason's name.
pub static EVENT_LIMITS: &[(u32, Option<&str>, LimitMessage)] = &[
    (
        2053,
        None,
        LimitMessage {
            id: "MQRC_Q_FULL",
            limit: Limit::QueueFull,
            meaning: "Queue Full: a put was refused, the queue holds MAXDEPTH messages",
            setting: "the queue's MAXDEPTH",
            source: event_page!("q049380_"),
        },
    ),
    (
        2224,
        None,
        LimitMessage {
            id: "MQRC_Q_DEPTH_HIGH",
            limit: Limit::QueueDepthHigh,
            meaning: "Queue Depth High: the depth reached the queue's high threshold",
            setting: "the queue's QDEPTHHI (percent of MAXDEPTH) with QDPHIEV(ENABLED)",
            source: event_page!("q049360_"),
        },
    ),
    (
        2537,
        Some("MQRQ_MAX_ACTIVE_CHANNELS"),
        LimitMessage {
            id: "MQRQ_MAX_ACTIVE_CHANNELS",
            limit: Limit::MaxActiveChannels,
            meaning: "Channel Not Available: MaxActiveChannels reached",
            setting: "MaxActiveChannels in the CHANNELS stanza of qm.ini",
            source: event_page!("q049760_"),
        },
    ),
    (
        2296,
        None,
        LimitMessage {
            id: "MQRC_CHANNEL_NOT_ACTIVATED",
            limit: Limit::MaxActiveChannels,
            meaning: "Channel Not Activated: MaxActiveChannels reached, the channel waits",
            setting: "MaxActiveChannels in the CHANNELS stanza of qm.ini",
            source: event_page!("q049750_"),
        },
    ),
    (
        2537,
        Some("MQRQ_MAX_CHANNELS"),
        LimitMessage {
            id: "MQRQ_MAX_CHANNELS",
            limit: Limit::MaxChannels,
            meaning: "Channel Not Available: MaxChannels reached",
            setting: "MaxChannels in the CHANNELS stanza of qm.ini",
            source: event_page!("q049760_"),
        },
    ),
    (
        2537,
        Some("MQRQ_SVRCONN_INST_LIMIT"),
        LimitMessage {
            id: "MQRQ_SVRCONN_INST_LIMIT",
            limit: Limit::MaxInstances,
            meaning: "Channel Not Available: the channel's MAXINST reached",
            setting: "the server-connection channel's MAXINST",
            source: event_page!("q049760_"),
        },
    ),
    (
        2537,
        Some("MQRQ_CLIENT_INST_LIMIT"),
        LimitMessage {
            id: "MQRQ_CLIENT_INST_LIMIT",
            limit: Limit::MaxInstances,
            meaning: "Channel Not Available: the channel's MAXINSTC reached for one client",
            setting: "the server-connection channel's MAXINSTC",
            source: event_page!("q049760_"),
        },
    ),
];

/// The limit an event message tells, if any (its `reason` and
/// `qualifier` attributes).
pub fn event_limit_of(e: &mqdiag_model::event::Event) -> Option<&'static LimitMessage> {
    use mqdiag_model::event::Key;
    let reason: u32 = e.get(Key::Reason)?.parse().ok()?;
    let q = e.get(Key::Qualifier);
    EVENT_LIMITS
        .iter()
        .find(|(r, rq, _)| *r == reason && (rq.is_none() || *rq == q))
        .map(|(_, _, m)| m)
}

/// The row of a message id (with or without its severity letter).
#[cfg(test)]
fn limit(id: &str) -> Option<&'static LimitMessage> {
    let base = super::base_id(id.trim());
    LIMITS.iter().find(|m| m.id == base)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A record's row by its catalogue row is its row by its id.
    #[test]
    fn by_record_is_by_id() {
        super::super::assert_by_record_is_by_id(LIMITS, |m: &LimitMessage| m.id, limit_of, limit);
    }

    #[test]
    fn every_row_is_catalogued_with_its_source() {
        for m in LIMITS {
            let e = super::super::lookup(m.id).unwrap_or_else(|| panic!("{} not in CATALOG", m.id));
            assert_eq!(e.family, super::super::Family::Limit, "{}", m.id);
            // The channel-error rule reports rows with rule words: a limit
            // is told by resource-limit alone.
            assert!(e.rule.is_none(), "{}", m.id);
            assert!(m.source.contains("https://") || m.source.contains("shared/seeds/"));
            assert!(!m.meaning.is_empty() && !m.setting.is_empty());
            assert_eq!(limit(&format!("{}E", m.id)).map(|x| x.id), Some(m.id));
        }
        assert!(limit("AMQ9208E").is_none());
        for r in REASONS {
            assert!(r.source.starts_with(&r.reason.to_string()), "{}", r.reason);
            assert!(
                r.source.contains("https://www.ibm.com/docs/"),
                "{}",
                r.reason
            );
            assert_eq!(reason_limit(r.reason).map(|x| x.limit), Some(r.limit));
        }
        assert!(reason_limit(2035).is_none());
        // Every catalogued limit message is reported.
        for e in super::super::CATALOG {
            if e.family == super::super::Family::Limit {
                assert!(limit(e.id).is_some(), "{}", e.id);
            }
        }
    }
}
