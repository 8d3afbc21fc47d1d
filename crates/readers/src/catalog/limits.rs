//! What the `resource-limit` rule knows of each message it reports: which
//! limit was reached, the setting that governs it, what to look at, and
//! where those facts were checked. Data, not behaviour: the rule is
//! `passes::resource_limit`. Each id also has its `CATALOG` row (family
//! `limit`, the fields it carries).
//!
//! Left out because their ids, letters or texts could not be checked
//! against IBM documentation or a real log: the distributed MAXINST and
//! MAXINSTC messages, MaxActiveChannels, the z/OS active-log and page-set
//! full messages (CSQJ, CSQP, CSQI), file-system full (AMQ6708), and
//! connection or handle limits.

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
}

impl Limit {
    /// The value of the `limit` metric.
    pub fn as_str(self) -> &'static str {
        match self {
            Limit::MaxChannels => "max-channels",
            Limit::MaxInstances => "max-instances",
            Limit::DeadLetter => "dead-letter",
            Limit::LogFull => "log-full",
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
    pub source: &'static str,
}

pub static LIMITS: &[LimitMessage] = &[
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
];

/// The row of a log record, by its catalogue row (`super::entry_of`):
/// every row here is catalogued in the `Limit` family, so a record of any
/// other is passed over without a search.
pub fn limit_of(e: &crate::event::Event) -> Option<&'static LimitMessage> {
    let x = super::entry_of(e)?;
    if x.family != super::Family::Limit {
        return None;
    }
    LIMITS.iter().find(|m| m.id == x.id)
}

/// The row of a message id (with or without its severity letter).
pub fn limit(id: &str) -> Option<&'static LimitMessage> {
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
        // Every catalogued limit message is reported.
        for e in super::super::CATALOG {
            if e.family == super::super::Family::Limit {
                assert!(limit(e.id).is_some(), "{}", e.id);
            }
        }
    }
}
