//! What the `access-refused` rule knows of each message it reports: the
//! refusal mechanism, what the message says, and where those facts were
//! checked. Data, not behaviour: the rule is `passes::access_refused`.
//! Each id also has its `CATALOG` row (severity, family `security`, the
//! fields it carries).

/// How a connection or an operation was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Mechanism {
    /// A channel authentication (CHLAUTH) record blocked the channel.
    Chlauth,
    /// Connection authentication (CONNAUTH): user id and password missing
    /// or wrong.
    Connauth,
    /// The user id the channel would run under could not be set up.
    Userid,
    /// The object authority manager refused an operation.
    Authority,
    /// Only the application saw it (an MQI reason in a trace): the queue
    /// manager's record of why is not in the capture.
    Unknown,
}

impl Mechanism {
    /// The value of the `mechanism` metric (the contract's names).
    pub fn as_str(self) -> &'static str {
        match self {
            Mechanism::Chlauth => "chlauth",
            Mechanism::Connauth => "connauth",
            Mechanism::Userid => "userid",
            Mechanism::Authority => "authority",
            Mechanism::Unknown => "unknown",
        }
    }

    /// A story told with records of several mechanisms is told by its
    /// cause: a CHLAUTH block or a failed password check comes before the
    /// user-id failure it leads to.
    pub fn rank(self) -> u8 {
        match self {
            Mechanism::Chlauth => 0,
            Mechanism::Connauth => 1,
            Mechanism::Authority => 2,
            Mechanism::Userid => 3,
            Mechanism::Unknown => 4,
        }
    }
}

/// One message `access-refused` reports.
#[derive(Debug)]
pub struct AccessMessage {
    /// Message number without its severity letter.
    pub(crate) id: &'static str,
    pub mechanism: Mechanism,
    /// What it says, in a few words.
    #[cfg_attr(
        not(test),
        expect(dead_code, reason = "the row's record, held to by the tests")
    )]
    pub(crate) meaning: &'static str,
    /// Where the id's meaning, severity letter and inserts were checked.
    #[cfg_attr(
        not(test),
        expect(dead_code, reason = "the row's record, held to by the tests")
    )]
    pub(crate) source: &'static str,
}

pub(crate) static ACCESS: &[AccessMessage] = &[
    AccessMessage {
        id: "AMQ9777",
        mechanism: Mechanism::Chlauth,
        meaning: "Channel was blocked by a channel authentication record",
        source: concat!(
            "Wording and letter E from a 9.1 queue manager's log quoted in ",
            "https://github.com/ibm-messaging/mq-rfhutil/issues/9 (CommentInsert1 the channel, ",
            "CommentInsert2 the address, CommentInsert3 the active values `CLNTUSER(...)`, ",
            "RemoteHost) and IBM APAR text https://www.ibm.com/support/pages/node/4706301; ",
            "the block reasons (address, user id, NOACCESS map) from IBM's Channel Blocked event ",
            "https://www.ibm.com/docs/en/SSFKSJ_9.2.0/com.ibm.mq.ref.doc/q049730_.html"
        ),
    },
    AccessMessage {
        id: "CSQX777",
        mechanism: Mechanism::Chlauth,
        meaning: "Channel blocked by a channel authentication record (z/OS channel initiator)",
        source: concat!(
            "Id, letter E and meaning ('CSQX777E \"Channel SYSTEM.DEF.SVRCONN has been blocked\"', ",
            "written for connections refused by CHLAUTH rules) from IBM's MQ for z/OS performance ",
            "blog on the cost of client connections (shared/seeds/001_88807c0b1590429f.txt); the ",
            "block reasons from IBM's Channel Blocked event ",
            "https://www.ibm.com/docs/en/SSFKSJ_9.2.0/com.ibm.mq.ref.doc/q049730_.html. The address ",
            "and the `due to` record are read loosely: their exact wording is not verified"
        ),
    },
    AccessMessage {
        id: "ICH408",
        mechanism: Mechanism::Authority,
        meaning: "RACF refused a resource (z/OS security violation)",
        source: concat!(
            "Id, letter I and layout ('ICH408I USER(...) GROUP(...) NAME(...)', then the profile ",
            "and its class 'MQS1.PAYROLL.REQUEST CL(MQQUEUE)', 'INSUFFICIENT ACCESS AUTHORITY' or ",
            "'PROFILE NOT FOUND - REQUIRED FOR AUTHORITY CHECKING', 'ACCESS INTENT(UPDATE ) ACCESS ",
            "ALLOWED(NONE )'; the JOB(...) STEP(...) form for a blank alternate user id; written in ",
            "the queue manager's job log for a refused MQ resource) from IBM MQ's 'Security ",
            "violation messages on z/OS' topic (q012130_), as copied at ",
            "http://setgetweb.com/p/MQ90/sec/q012130_.htm and in the WebSphere MQ 6 copy ",
            "http://setgetweb.com/p/WAS60/MQ/com.ibm.mq.csqsav.doc/csqsav04118.htm"
        ),
    },
    AccessMessage {
        id: "AMQ5534",
        mechanism: Mechanism::Connauth,
        meaning: "User id authentication failed (wrong user id or password)",
        source: concat!(
            "Letter E from IBM's MQ 9.3.4 changed-messages list (",
            "https://www.ibm.com/docs/en/ibm-mq/9.3.x?topic=934-new-changed-removed-messages-in-mq",
            "); wording ('User ID '<user>' authentication failed', 'supplied by the '<program>' ",
            "program') from a 9.0.1 log quoted in https://github.com/mqlight/nodejs-mqlight/issues/6"
        ),
    },
    AccessMessage {
        id: "AMQ5540",
        mechanism: Mechanism::Connauth,
        meaning: "The application did not supply a user id and password",
        source: concat!(
            "Wording from IBM technote https://www.ibm.com/support/docview.wss?uid=swg21680930; ",
            "letter E from the MQ 9.3.4 changed-messages list"
        ),
    },
    AccessMessage {
        id: "AMQ5541",
        mechanism: Mechanism::Connauth,
        meaning: "The failed authentication check was caused by the CONNAUTH configuration",
        source: concat!(
            "Wording ('caused by the queue manager CONNAUTH CHCKCLNT(REQDADM) configuration') ",
            "from IBM technote https://www.ibm.com/support/docview.wss?uid=swg21680930; its ",
            "severity letter is not shown there: E is assumed, as AMQ5540E it follows"
        ),
    },
    AccessMessage {
        id: "AMQ5542",
        mechanism: Mechanism::Connauth,
        meaning: "The failed authentication check was caused by the CONNAUTH configuration",
        source: concat!(
            "Named in IBM technote https://www.ibm.com/support/docview.wss?uid=swg21680930; ",
            "wording after AMQ5534 in a 9.0.1 log quoted in ",
            "https://github.com/mqlight/nodejs-mqlight/issues/6; severity letter not shown: ",
            "E is assumed, as AMQ5534E it follows"
        ),
    },
    AccessMessage {
        id: "AMQ9557",
        mechanism: Mechanism::Userid,
        meaning: "Queue manager user id initialisation failed",
        source: concat!(
            "Wording and letter E from logs quoted in ",
            "https://github.com/ibm-messaging/mq-jms-spring/issues/81 and IBM community thread ",
            "https://community.ibm.com/community/user/discussion/how-can-a-rcvr-channel-with-no-access-go-to-running ",
            "(ArithInsert1 the completion code, ArithInsert2 the reason, CommentInsert1 the user ",
            "id, CommentInsert2 the MQCSP user id, CommentInsert3 the user id flowed); listed as ",
            "AMQ9557E in the MQ 9.3.4 changed-messages list"
        ),
    },
    AccessMessage {
        id: "AMQ8077",
        mechanism: Mechanism::Authority,
        meaning: "Entity has insufficient authority to access the object",
        source: concat!(
            "Wording ('Entity '<e>' has insufficient authority to access object '<o>'', 'The ",
            "following requested permissions are unauthorized: put') from the queue manager log ",
            "quoted in IBM documentation https://www.ibm.com/docs/en/iis/11.3?topic=authorization-troubleshooting; ",
            "the letter W is not shown there: it is that of AMQ8009 (insufficient authority to a ",
            "topic), 10: Warning in IBM's AMQ8xxx reference"
        ),
    },
];

/// The row of a log record, by its catalogue row (`super::entry_of`):
/// every row here is catalogued in the `Security` family, so a record of any
/// other is passed over without a search.
pub fn access_of(e: &mqdiag_model::event::Event) -> Option<&'static AccessMessage> {
    let x = super::entry_of(e)?;
    if x.family != super::Family::Security {
        return None;
    }
    ACCESS.iter().find(|m| m.id == x.id)
}

/// The row of a message id (with or without its severity letter).
#[cfg(test)]
fn access(id: &str) -> Option<&'static AccessMessage> {
    let base = super::base_id(id.trim());
    ACCESS.iter().find(|m| m.id == base)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A record's row by its catalogue row is its row by its id.
    #[test]
    fn by_record_is_by_id() {
        super::super::assert_by_record_is_by_id(
            ACCESS,
            |m: &AccessMessage| m.id,
            access_of,
            access,
        );
    }

    #[test]
    fn every_row_is_catalogued_with_its_source() {
        for m in ACCESS {
            let e = super::super::lookup(m.id).unwrap_or_else(|| panic!("{} not in CATALOG", m.id));
            assert_eq!(e.family, super::super::Family::Security, "{}", m.id);
            assert!(m.source.contains("http"), "{} has no source", m.id);
            assert!(!m.meaning.is_empty());
            assert_eq!(
                access(&format!("{}{}", m.id, e.severity)).map(|x| x.id),
                Some(m.id)
            );
        }
        assert!(access("AMQ9208E").is_none());
    }
}
