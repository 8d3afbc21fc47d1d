//! An offline `DISPLAY CHLAUTH(chl) MATCH(RUNCHECK)`: given a queue
//! manager's channel authentication (CHLAUTH) records, as an MQSC dump
//! (`dmpmqcfg`) has them, and the values an AMQ9776E/AMQ9777E error-log
//! record prints for a refused channel, find the record MQ applies, say
//! why it wins, and suggest (never run) a narrow fix. Pure: no I/O.
//!
//! # What MQ does, and where that is written
//!
//! Each fact with its source; "not re-read" marks what this module takes
//! from IBM's pages without the passage being at hand when it was written.
//!
//! 1. **Order of the checks.** BLOCKADDR first, at the listener, before
//!    the channel name is known: the Channel Blocked event carries no
//!    channel name when its reason qualifier is MQRQ_CHANNEL_BLOCKED_ADDRESS
//!    (IBM "Channel Blocked",
//!    <https://www.ibm.com/docs/en/SSFKSJ_9.2.0/com.ibm.mq.ref.doc/q049730_.html>);
//!    the listener reads `blockaddr.ini`, a copy of the BLOCKADDR records
//!    ("Temporarily blocking specific IP addresses if the queue manager is
//!    not running", <http://setgetweb.com/p/MQ92/sec/q013800_.htm>). Then
//!    one mapping record (SSLPEERMAP, USERMAP, QMGRMAP, ADDRESSMAP) decides
//!    USERSRC: NOACCESS blocks, MAP sets MCAUSER, CHANNEL keeps the
//!    channel's user. Last, BLOCKUSER against the user id the channel would
//!    run as: the event's MQRQ_CHANNEL_BLOCKED_USERID is "its asserted or
//!    mapped user ID being in the list" (same page), and AMQ9776E says "the
//!    active values of the channel were mapped to a userid which should be
//!    blocked" (quoted in <https://github.com/ibm-messaging/mq-container/issues/70>).
//!    This module checks the user the channel would run as (after MAP, or
//!    the channel's MCAUSER, or else the client's user id).
//! 2. **BLOCKADDR** records have the profile `*` and nothing else (SET
//!    CHLAUTH note 1,
//!    <https://www.ibm.com/docs/SSFKSJ_9.4.0/refadmin/q086630_.html>;
//!    RC3349 MQRCCF_CHLAUTH_NAME_ERROR,
//!    <https://www.ibm.com/docs/en/SSFKSJ_latest/reference/q048150_.html>;
//!    "Channel authentication records troubleshooting",
//!    <https://setgetweb.com/p/MQ92/tro/q039490_.htm>: "block access from
//!    the specified addresses using any channel name").
//! 3. **Generic channel profiles**: `*` anywhere in the name, any number
//!    (Set Channel Authentication Record, ProfileName,
//!    <https://www.ibm.com/docs/en/ibm-mq/9.1.x?topic=formats-set-channel-authentication-record>).
//!    The most specific profile wins: IBM's own example is the third default
//!    record, "more specific, and therefore takes precedence" over `SYSTEM.*`
//!    for SYSTEM.ADMIN.SVRCONN ("Resolving CHLAUTH access issues",
//!    <https://www.ibm.com/docs/en/ibm-mq/9.4.x?topic=records-resolving-chlauth-access-issues>).
//!    Which of two generic names is more specific is decided as IBM
//!    documents for OAM generic profiles: compare from the left; where they
//!    differ, a non-generic character beats a generic one ("Profile
//!    priorities",
//!    <https://www.ibm.com/docs/en/ibm-mq/8.0?topic=systems-profile-priorities>);
//!    that CHLAUTH uses the same comparison is our reading, not a quote.
//! 4. **Only records that match compete.** A more specific profile whose
//!    record does not match the connection (another user, another address)
//!    does not shadow a less specific one that does: IBM's "block all users
//!    but allow specific users" needs an explicit ADDRESSMAP `*` NOACCESS
//!    on the channel beside the USERMAP for johndoe, and the back-stop
//!    `CHLAUTH('*') ADDRESSMAP ADDRESS('*') NOACCESS` still catches what
//!    the channel's own records do not ("Creating new CHLAUTH rules for
//!    channels",
//!    <https://ibm.com/support/knowledgecenter/SSFKSJ_9.2.0/com.ibm.mq.sec.doc/q132580_.htm>;
//!    Morag Hughson's comments under IBM's "WebSphere MQ CHLAUTH – the back
//!    stop rule",
//!    <https://www.ibm.com/developerworks/community/blogs/aimsupport/entry/websphere_mq_chlauth_the_back_stop_rule>).
//! 5. **Rule types within a profile**: SSLPEERMAP, then USERMAP (server
//!    connections) or QMGRMAP (queue manager channels), then ADDRESSMAP.
//!    USERMAP over ADDRESSMAP is shown by the johndoe example above (same
//!    profile: the USERMAP lets johndoe in despite ADDRESSMAP `*`
//!    NOACCESS). SSLPEERMAP first is from IBM's "Channel authentication
//!    records" page (<https://www.ibm.com/docs/SSFKSJ_9.4.0/secure/q010250_.html>,
//!    not re-read).
//! 6. **Within one type**, the more specific attributes win: an address
//!    range over `*` (APP2.CHAN: `ADDRESS('9.95.100.1-5')` MAP over
//!    `ADDRESS('*')` NOACCESS, same page as 4). Beyond IBM's examples the
//!    order is ours: a record with ADDRESS over one without; addresses by
//!    number of whole parts given, then ranges, then narrower ranges; IP
//!    patterns over host names with as many fixed parts; SSLPEER by number
//!    of attributes, then literal characters; QMNAME like channel profiles.
//!    Equal records: the first in the dump.
//! 7. **Generic IP addresses**: IPv4 or IPv6, `*` standing for one or more
//!    whole parts, `-` a range; `192.0.2` (too few parts), `192.0*` (`*`
//!    not a whole part), `192.0.*.*` (`*` beside `*`) and `2001::*` are
//!    invalid ("Generic IP addresses for channel authentication records",
//!    <https://www.ibm.com/docs/en/SSFKSJ_9.2.0/com.ibm.mq.ref.adm.doc/q086080_.html>,
//!    and its 7.5 copy for the invalid forms,
//!    <https://www.ibm.com/support/knowledgecenter/zh/SSFKSJ_7.5.0/com.ibm.mq.ref.adm.doc/q086080_.html>);
//!    IPv4-mapped IPv6 addresses are recognised (same page). A host name
//!    in ADDRESS matches only with reverse DNS on (REVDNS): RUNCHECK warns
//!    that such records were not matched when it is disabled (RC3366
//!    MQRCCF_REVDNS_DISABLED,
//!    <https://www.ibm.com/docs/en/SSFKSJ_latest/reference/q113230_.html>).
//! 8. **BLOCKUSER** applies to server-connection channels only, not queue
//!    manager channels; `*MQADMIN` means the privileged users ("Blocking
//!    specific user IDs",
//!    <https://www.ibm.com/docs/en/ibm-mq/10.0.x?topic=manager-blocking-specific-user-ids>):
//!    on UNIX and Linux the members of group mqm, on Windows also
//!    Administrators and SYSTEM ("Privileged users",
//!    <https://www.ibm.com/docs/SSFKSJ_9.4.0/secure/q013300_.html>). A dump
//!    does not say who is in those groups: only `mqm` itself is taken as
//!    privileged unless the caller knows (`Active::privileged`). A BLOCKUSER
//!    record on a more specific profile replaces the `*` one: `USERLIST('nobody')`
//!    on ADMIN.CHAN "overrides the *MQADMIN BLOCKUSER" ("Creating new
//!    CHLAUTH rules for users",
//!    <https://www.ibm.com/docs/en/ibm-mq/9.1.x?topic=issues-creating-new-chlauth-rules-users>),
//!    so only the BLOCKUSER records of the most specific matching profile
//!    count. A `*` in a user list other than `*MQADMIN` is refused here:
//!    user ids are not generic (CLNTUSER: RC3348
//!    MQRCCF_CHLAUTH_CLNTUSER_ERROR, "contains a wildcard character, which
//!    is not allowed",
//!    <https://www.ibm.com/docs/en/SSFKSJ_latest/reference/q048140_.html>;
//!    for USERLIST, SET CHLAUTH, not re-read).
//! 9. **USERMAP** applies to server-connection channels only ("Blocking
//!    access for a client asserted user ID",
//!    <http://www-01.ibm.com/support/knowledgecenter/SSFKSJ_8.0.0/com.ibm.mq.sec.doc/q013860_.html>),
//!    **QMGRMAP** to queue manager channels only ("Mapping a remote queue
//!    manager to an MCAUSER user ID",
//!    <http://setgetweb.com/p/MQ92/sec/q013820_.htm>). Here that falls out
//!    of the values: a USERMAP needs the client's user id, a QMGRMAP the
//!    partner's queue manager name.
//! 10. **WARN(YES)** records let the connection in and only report it:
//!     "temporary access has been granted to the channel because the
//!     channel authentication record is defined with WARN set to YES"
//!     (MQRC_CHANNEL_BLOCKED_WARNING, Channel Blocked page above; RC2578,
//!     "the rule was defined with WARN(YES) so the rule did not block the
//!     connection",
//!     <https://www.ibm.com/docs/en/SSFKSJ_latest/reference/q114940_.html>).
//! 11. **No record matches**: nothing is refused by CHLAUTH (the reason
//!     IBM's scenarios add a NOACCESS back-stop, point 4).
//! 12. **Case**: channel names are case-sensitive ("uppercase and lowercase
//!     are significant", "Channel name (CHANNEL)",
//!     <https://www.ibm.com/support/knowledgecenter/en/SSFKSJ_8.0.0/com.ibm.mq.ref.con.doc/q081720_.html>);
//!     CHLAUTH rules applied before user adoption compare user ids
//!     case-sensitively (AMQ9557E text quoted in
//!     <https://community.ibm.com/community/user/discussion/how-can-a-rcvr-channel-with-no-access-go-to-running>;
//!     APAR IT22990, <https://www.ibm.com/support/pages/apar/IT22990>), an
//!     MQ 9.2 option can ignore case (IBM techdoc "CHLAUTH Made Simple" rev4,
//!     <https://www.ibm.com/support/pages/chlauth-made-simple-common-scenarios-and-examples-and-how-verify-them-runcheck-rev4>,
//!     not modelled); SSLPEER values match regardless of case, `,` or `;`
//!     separate, spaces around them are ignored, types are written
//!     upper-case ("IBM MQ rules for SSLPEER values",
//!     <https://ibm.com/docs/SSFKSJ_9.3.0/reference/q049310_.html>; its
//!     wildcard rule, a `*` at the start or end of a value, not re-read).
//! 13. **The three default records** ("Resolving CHLAUTH access issues",
//!     point 3): no access for MQ-admin users on any channel, no access to
//!     `SYSTEM.*` channels, access to SYSTEM.ADMIN.SVRCONN for non-admin
//!     users. Their MQSC shapes (`defaults()`) are as dumps show them
//!     (`CHLAUTH('*') TYPE(BLOCKUSER) USERLIST('*MQADMIN')`,
//!     `CHLAUTH('SYSTEM.*') TYPE(ADDRESSMAP) ADDRESS('*') USERSRC(NOACCESS)`,
//!     `CHLAUTH('SYSTEM.ADMIN.SVRCONN') TYPE(ADDRESSMAP) ADDRESS('*')
//!     USERSRC(CHANNEL)`; /work/shared/formats/config-events.md §2).
//! 14. **The inputs of RUNCHECK**: channel name, ADDRESS (an address, not a
//!     host name, not generic), CLNTUSER or QMNAME, SSLPEER and SSLCERTI;
//!     the channel name must not be generic ("DISPLAY CHLAUTH",
//!     <https://www.ibm.com/docs/en/SSFKSJ_9.2.0/com.ibm.mq.ref.adm.doc/q086070_.html>;
//!     RC3350 MQRCCF_CHLAUTH_RUNCHECK_ERROR,
//!     <https://www.ibm.com/docs/en/SSFKSJ_latest/reference/q048160_.html>).
//!     AMQ9777E prints them as "The active values of the channel were
//!     'CLNTUSER(jochen)'", the address as its own insert, sometimes with
//!     the host name: `'_gateway (172.17.0.1)'`
//!     (<https://github.com/ibm-messaging/mq-rfhutil/issues/9>,
//!     <https://github.com/ibm-messaging/mq-container/issues/581>); AMQ9776E
//!     adds MCAUSER: `'MCAUSER(app) CLNTUSER(michael)'` (mq-container#70);
//!     an APAR quotes `'CLNTUSER(xyz) ADDRESS(abc)'` with the address insert
//!     `'abc (xxx.xxx.xxx.xxx)'`: ADDRESS there is the host name
//!     (<https://www.ibm.com/support/pages/node/4706301>). Which other
//!     messages (AMQ9778, AMQ9779, AMQ9643, AMQ9795) print active values was
//!     not found.
//!
//! # Use
//!
//! `rule(profile, attrs, line)` for each SET CHLAUTH command (an error for
//! a malformed one, which the caller reports and leaves out); `defaults()`
//! when the dump has no CHLAUTH records but the queue manager's own are
//! assumed; `active(channel, values)` (and `with_address`) from the error
//! record; `run_check` for the verdict; `fix` for advice.

use std::cmp::Ordering;
use std::fmt::Write as _;

mod fix;
mod pattern;
pub(crate) use fix::fix;
#[cfg(test)]
mod tests;

pub(crate) use pattern::AddressPattern;
use pattern::{Ip, dn_matches, dn_specificity, dn_valid, glob, profile_cmp};

/// The six kinds of record (SET CHLAUTH TYPE).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RuleType {
    BlockUser,
    BlockAddr,
    AddressMap,
    UserMap,
    SslPeerMap,
    QmgrMap,
}

impl RuleType {
    fn parse(s: &str) -> Option<RuleType> {
        Some(match s.to_ascii_uppercase().as_str() {
            "BLOCKUSER" => RuleType::BlockUser,
            "BLOCKADDR" => RuleType::BlockAddr,
            "ADDRESSMAP" => RuleType::AddressMap,
            "USERMAP" => RuleType::UserMap,
            "SSLPEERMAP" => RuleType::SslPeerMap,
            "QMGRMAP" => RuleType::QmgrMap,
            _ => return None,
        })
    }

    /// The MQSC keyword.
    pub(crate) fn keyword(self) -> &'static str {
        match self {
            RuleType::BlockUser => "BLOCKUSER",
            RuleType::BlockAddr => "BLOCKADDR",
            RuleType::AddressMap => "ADDRESSMAP",
            RuleType::UserMap => "USERMAP",
            RuleType::SslPeerMap => "SSLPEERMAP",
            RuleType::QmgrMap => "QMGRMAP",
        }
    }

    /// Precedence among the mapping types of one profile (fact 5); 0 for
    /// the blocking types, which are not mapping records.
    fn rank(self) -> u8 {
        match self {
            RuleType::SslPeerMap => 3,
            RuleType::UserMap | RuleType::QmgrMap => 2,
            RuleType::AddressMap => 1,
            RuleType::BlockUser | RuleType::BlockAddr => 0,
        }
    }

    fn is_map(self) -> bool {
        self.rank() > 0
    }
}

/// Where a mapping record takes the channel's user id from (USERSRC).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum UserSrc {
    /// MCAUSER of the record.
    Map,
    /// Refused.
    NoAccess,
    /// The channel's own MCAUSER, or the user the client flowed.
    Channel,
}

impl UserSrc {
    fn keyword(self) -> &'static str {
        match self {
            UserSrc::Map => "MAP",
            UserSrc::NoAccess => "NOACCESS",
            UserSrc::Channel => "CHANNEL",
        }
    }
}

/// One CHLAUTH record, from a SET CHLAUTH command's attributes.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Rule {
    /// SET CHLAUTH('profile'): a channel name, `*` anywhere for generic.
    pub(crate) profile: String,
    pub(crate) kind: RuleType,
    pub(crate) address: Option<AddressPattern>,
    pub(crate) clntuser: Option<String>,
    pub(crate) sslpeer: Option<String>,
    pub(crate) sslcerti: Option<String>,
    pub(crate) qmname: Option<String>,
    /// Mapping records only (MAP when the command leaves it out).
    pub(crate) usersrc: Option<UserSrc>,
    pub(crate) mcauser: Option<String>,
    /// BLOCKUSER: user ids, `*MQADMIN` for the privileged users.
    pub(crate) userlist: Vec<String>,
    /// BLOCKADDR: generic addresses.
    pub(crate) addrlist: Vec<AddressPattern>,
    pub(crate) warn: bool,
    pub(crate) chckclnt: Option<String>,
    pub(crate) descr: Option<String>,
    /// The caller's line (or index), carried through to messages.
    pub(crate) line: usize,
    /// One of the queue manager's default records assumed by `defaults()`,
    /// not read from a dump.
    pub(crate) assumed: bool,
}

impl Rule {
    /// The record as one MQSC command (ACTION(REPLACE)), for reports.
    pub(crate) fn mqsc(&self) -> String {
        let mut out = format!(
            "SET CHLAUTH({}) TYPE({})",
            q(&self.profile),
            self.kind.keyword()
        );
        let list = |items: Vec<&str>| items.iter().map(|i| q(i)).collect::<Vec<_>>().join(",");
        if !self.userlist.is_empty() {
            let _ = write!(
                out,
                " USERLIST({})",
                list(self.userlist.iter().map(String::as_str).collect())
            );
        }
        if !self.addrlist.is_empty() {
            let _ = write!(
                out,
                " ADDRLIST({})",
                list(self.addrlist.iter().map(|p| p.text.as_str()).collect())
            );
        }
        let single = [
            ("SSLPEER", self.sslpeer.as_deref()),
            ("SSLCERTI", self.sslcerti.as_deref()),
            ("CLNTUSER", self.clntuser.as_deref()),
            ("QMNAME", self.qmname.as_deref()),
            ("ADDRESS", self.address.as_ref().map(|p| p.text.as_str())),
        ];
        for (k, v) in single {
            if let Some(v) = v {
                let _ = write!(out, " {k}({})", q(v));
            }
        }
        if let Some(src) = self.usersrc {
            let _ = write!(out, " USERSRC({})", src.keyword());
        }
        if let Some(u) = &self.mcauser {
            let _ = write!(out, " MCAUSER({})", q(u));
        }
        if let Some(c) = &self.chckclnt {
            let _ = write!(out, " CHCKCLNT({c})");
        }
        if let Some(d) = &self.descr {
            let _ = write!(out, " DESCR({})", q(d));
        }
        let _ = write!(
            out,
            " WARN({}) ACTION(REPLACE)",
            if self.warn { "YES" } else { "NO" }
        );
        out
    }
}

/// Strip one level of MQSC single quotes ('' inside is one quote).
fn unquote(s: &str) -> String {
    let t = s.trim();
    match t.strip_prefix('\'').and_then(|t| t.strip_suffix('\'')) {
        Some(inner) => inner.replace("''", "'"),
        None => t.to_string(),
    }
}

/// A parenthesised list as written inside the parentheses
/// (`'*MQADMIN','bob'` or `*MQADMIN, bob`): split at commas outside quotes.
fn split_list(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    for c in s.chars() {
        match c {
            '\'' => {
                quoted = !quoted;
                cur.push(c);
            }
            ',' if !quoted => out.push(std::mem::take(&mut cur)),
            _ => cur.push(c),
        }
    }
    out.push(cur);
    out.iter()
        .map(|v| unquote(v))
        .filter(|v| !v.is_empty())
        .collect()
}

/// One record from a SET CHLAUTH command. `profile` is the value of
/// CHLAUTH(...); `attrs` are its other keyword/value pairs as an MQSC
/// tokenizer gives them: keyword (any case), value with or without its
/// single quotes; for USERLIST and ADDRLIST the text inside the
/// parentheses as written (`'*MQADMIN','bob'`), or the pair repeated once
/// per entry. Keywords that do not change the match (ACTION(ADD|REPLACE),
/// CUSTOM, CMDSCOPE, ALTDATE, ALTTIME) are accepted and ignored. Errors
/// (never a panic) name what MQ itself would refuse, or an ACTION that
/// removes records.
pub(crate) fn rule(profile: &str, attrs: &[(String, String)], line: usize) -> Result<Rule, String> {
    let profile = unquote(profile);
    if profile.is_empty() {
        return Err("empty channel profile".into());
    }
    if profile.chars().count() > 20 {
        return Err(format!(
            "channel profile '{profile}' is longer than 20 characters"
        ));
    }
    let mut kind = None;
    let mut r = Rule {
        profile,
        kind: RuleType::AddressMap,
        address: None,
        clntuser: None,
        sslpeer: None,
        sslcerti: None,
        qmname: None,
        usersrc: None,
        mcauser: None,
        userlist: Vec::new(),
        addrlist: Vec::new(),
        warn: false,
        chckclnt: None,
        descr: None,
        line,
        assumed: false,
    };
    for (key, value) in attrs {
        let key = key.trim().to_ascii_uppercase();
        let v = unquote(value);
        match key.as_str() {
            "TYPE" => {
                kind = Some(RuleType::parse(&v).ok_or_else(|| format!("unknown TYPE({v})"))?);
            }
            "ADDRESS" => r.address = Some(AddressPattern::parse(&v)?),
            "CLNTUSER" => r.clntuser = Some(v),
            "SSLPEER" => r.sslpeer = Some(v),
            "SSLCERTI" => r.sslcerti = Some(v),
            "QMNAME" => r.qmname = Some(v),
            "MCAUSER" => r.mcauser = Some(v),
            "USERSRC" => {
                r.usersrc = Some(match v.to_ascii_uppercase().as_str() {
                    "MAP" => UserSrc::Map,
                    "NOACCESS" => UserSrc::NoAccess,
                    "CHANNEL" => UserSrc::Channel,
                    _ => return Err(format!("unknown USERSRC({v})")),
                })
            }
            "USERLIST" => r.userlist.extend(split_list(value)),
            "ADDRLIST" => {
                for a in split_list(value) {
                    r.addrlist.push(AddressPattern::parse(&a)?);
                }
            }
            "WARN" => {
                r.warn = match v.to_ascii_uppercase().as_str() {
                    "YES" => true,
                    "NO" => false,
                    _ => return Err(format!("WARN({v}) is neither YES nor NO")),
                }
            }
            "CHCKCLNT" => r.chckclnt = Some(v),
            "DESCR" => r.descr = Some(v),
            "ACTION" => match v.to_ascii_uppercase().as_str() {
                "ADD" | "REPLACE" => {}
                "REMOVE" | "REMOVEALL" => {
                    return Err(format!("ACTION({v}) deletes records, it does not set one"));
                }
                _ => return Err(format!("unknown ACTION({v})")),
            },
            _ => {}
        }
    }
    r.kind = kind.ok_or("no TYPE")?;
    check(&mut r)?;
    Ok(r)
}

/// What each TYPE needs (SET CHLAUTH's syntax diagram and the RC33xx
/// reason codes cited in the module docs).
fn check(r: &mut Rule) -> Result<(), String> {
    let kind = r.kind.keyword();
    let need = |have: bool, what: &str| {
        if have {
            Ok(())
        } else {
            Err(format!("TYPE({kind}) needs {what}"))
        }
    };
    match r.kind {
        RuleType::BlockAddr => {
            if r.profile != "*" {
                return Err(format!(
                    "TYPE(BLOCKADDR) needs CHLAUTH('*'), not '{}'",
                    r.profile
                ));
            }
            need(!r.addrlist.is_empty(), "ADDRLIST")?;
        }
        RuleType::BlockUser => {
            need(!r.userlist.is_empty(), "USERLIST")?;
            if let Some(u) = r
                .userlist
                .iter()
                .find(|u| u.contains('*') && !u.eq_ignore_ascii_case("*MQADMIN"))
            {
                return Err(format!("USERLIST entry '{u}': user ids are not generic"));
            }
        }
        RuleType::AddressMap => need(r.address.is_some(), "ADDRESS")?,
        RuleType::UserMap => {
            need(r.clntuser.is_some(), "CLNTUSER")?;
            if r.clntuser.as_deref().is_some_and(|u| u.contains('*')) {
                return Err("CLNTUSER must not contain a wildcard".into());
            }
        }
        RuleType::SslPeerMap => {
            need(r.sslpeer.is_some(), "SSLPEER")?;
            for dn in [&r.sslpeer, &r.sslcerti].into_iter().flatten() {
                if !dn_valid(dn) {
                    return Err(format!("'{dn}' is not a distinguished name pattern"));
                }
            }
        }
        RuleType::QmgrMap => need(r.qmname.is_some(), "QMNAME")?,
    }
    if r.kind.is_map() {
        let src = *r.usersrc.get_or_insert(UserSrc::Map);
        if src == UserSrc::Map && r.mcauser.as_deref().is_none_or(str::is_empty) {
            return Err("USERSRC(MAP) needs MCAUSER".into());
        }
    }
    Ok(())
}

/// The queue manager's three default records (fact 13), marked `assumed`,
/// for a bundle without a dump of its CHLAUTH records.
pub(crate) fn defaults() -> Vec<Rule> {
    let rec = |profile: &str, attrs: &[(&str, &str)]| {
        let attrs: Vec<(String, String)> = attrs
            .iter()
            .map(|(k, v)| ((*k).to_string(), (*v).to_string()))
            .collect();
        let mut r = rule(profile, &attrs, 0).expect("the default records are well-formed");
        r.assumed = true;
        r
    };
    vec![
        rec("*", &[("TYPE", "BLOCKUSER"), ("USERLIST", "*MQADMIN")]),
        rec(
            "SYSTEM.*",
            &[
                ("TYPE", "ADDRESSMAP"),
                ("ADDRESS", "*"),
                ("USERSRC", "NOACCESS"),
            ],
        ),
        rec(
            "SYSTEM.ADMIN.SVRCONN",
            &[
                ("TYPE", "ADDRESSMAP"),
                ("ADDRESS", "*"),
                ("USERSRC", "CHANNEL"),
            ],
        ),
    ]
}

/// What an error-log record says of the refused connection: the inputs of
/// DISPLAY CHLAUTH MATCH(RUNCHECK), plus the channel's MCAUSER when
/// AMQ9776E prints it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Active {
    pub(crate) channel: String,
    /// The partner's IP address.
    pub(crate) address: Option<String>,
    /// Its host name, when the log gives one (`'_gateway (172.17.0.1)'`).
    pub(crate) host: Option<String>,
    /// The user id the client flowed (server-connection channels).
    pub(crate) clntuser: Option<String>,
    /// The channel's MCAUSER as the log prints it.
    pub(crate) mcauser: Option<String>,
    /// The partner queue manager (queue manager channels).
    pub(crate) qmname: Option<String>,
    pub(crate) sslpeer: Option<String>,
    pub(crate) sslcerti: Option<String>,
    /// Whether the channel's user is privileged (`*MQADMIN`), when the
    /// caller knows; `None` takes only `mqm` as privileged.
    pub(crate) privileged: Option<bool>,
    /// Other KEY(value) pairs of the text, kept for messages.
    pub(crate) other: Vec<(String, String)>,
}

/// Parse the active values an AMQ9776E/AMQ9777E record prints
/// (`CLNTUSER(jochen)`, `MCAUSER(app) CLNTUSER(michael)`, and ADDRESS,
/// QMNAME, SSLPEER, SSLCERTI in the same KEY(value) form). The text may
/// keep its surrounding quotes; a value may hold balanced parentheses.
/// Text that is not KEY(value) is skipped.
pub(crate) fn active(channel: &str, values: &str) -> Active {
    let mut a = Active {
        channel: unquote(channel),
        ..Active::default()
    };
    let text = values.trim();
    let text = text
        .strip_prefix('\'')
        .and_then(|t| t.strip_suffix('\''))
        .unwrap_or(text);
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if !b[i].is_ascii_alphabetic() {
            i += 1;
            continue;
        }
        let start = i;
        while i < b.len() && b[i].is_ascii_alphanumeric() {
            i += 1;
        }
        if i >= b.len() || b[i] != b'(' {
            continue;
        }
        let key = text[start..i].to_ascii_uppercase();
        let open = i + 1;
        let mut depth = 1;
        i = open;
        while i < b.len() && depth > 0 {
            match b[i] {
                b'(' => depth += 1,
                b')' => depth -= 1,
                _ => {}
            }
            i += 1;
        }
        let end = if depth == 0 { i - 1 } else { i };
        let value = text[open..end].trim().to_string();
        let slot = match key.as_str() {
            "CLNTUSER" => &mut a.clntuser,
            "MCAUSER" => &mut a.mcauser,
            "QMNAME" => &mut a.qmname,
            "SSLPEER" => &mut a.sslpeer,
            "SSLCERTI" => &mut a.sslcerti,
            "ADDRESS" => {
                a = a.with_address(&value);
                continue;
            }
            _ => {
                a.other.push((key, value));
                continue;
            }
        };
        *slot = (!value.is_empty()).then_some(value);
    }
    a
}

impl Active {
    /// Set the address from an error log's address insert: `10.1.2.3`,
    /// `host (10.1.2.3)`, `10.1.2.3(1414)` or a bare host name.
    pub(crate) fn with_address(mut self, text: &str) -> Active {
        let t = unquote(text);
        let (before, inside) = match t.split_once('(') {
            Some((b, rest)) => (b.trim(), rest.split(')').next().map(str::trim)),
            None => (t.trim(), None),
        };
        if Ip::parse(before).is_some() {
            self.address = Some(before.to_string());
        } else if let Some(ip) = inside.filter(|i| Ip::parse(i).is_some()) {
            self.address = Some(ip.to_string());
            if !before.is_empty() {
                self.host = Some(before.to_string());
            }
        } else if !before.is_empty() {
            self.host = Some(before.to_string());
        }
        self
    }

    /// A queue manager channel: the partner named its queue manager and no
    /// client user id.
    fn qmgr_channel(&self) -> bool {
        self.qmname.is_some() && self.clntuser.is_none()
    }

    fn ip(&self) -> Option<Ip> {
        self.address.as_deref().and_then(Ip::parse)
    }

    /// Where the connection came from, for messages.
    fn from(&self) -> String {
        match (&self.address, &self.host) {
            (Some(a), Some(h)) => format!("{h} ({a})"),
            (Some(a), None) => a.clone(),
            (None, Some(h)) => h.clone(),
            (None, None) => "an unknown address".into(),
        }
    }
}

/// How the connection fared under CHLAUTH.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// BLOCKADDR: refused at the listener (reason MQRQ_CHANNEL_BLOCKED_ADDRESS).
    BlockedAddress,
    /// BLOCKUSER: the user the channel would run as is listed
    /// (MQRQ_CHANNEL_BLOCKED_USERID, AMQ9776E); `mqadmin` when by `*MQADMIN`.
    BlockedUser { user: String, mqadmin: bool },
    /// USERSRC(NOACCESS) (MQRQ_CHANNEL_BLOCKED_NOACCESS, AMQ9777E).
    NoAccess,
    /// USERSRC(MAP): runs as the record's MCAUSER.
    Mapped { user: String },
    /// USERSRC(CHANNEL): runs as the channel's MCAUSER or the flowed user.
    Channel,
    /// No record matched: CHLAUTH lets it through (fact 11).
    NoMatch,
    /// RUNCHECK cannot answer: the channel name is empty or generic.
    Undecided,
}

/// The verdict of `run_check`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Verdict {
    /// The record that decided, an index into the `rules` given (its
    /// `assumed` says whether it is one of the defaults).
    pub(crate) rule: Option<usize>,
    pub(crate) outcome: Outcome,
    /// WARN(YES) records that would have refused the connection: MQ let it
    /// in and reported it.
    pub(crate) warned: Vec<usize>,
    /// The user id the channel would run as, when the values say.
    pub(crate) user: Option<String>,
    /// A BLOCKUSER `*MQADMIN` record that refuses the connection if that
    /// user is privileged, which the values do not say.
    pub(crate) if_privileged: Option<usize>,
    /// One line: which record and why it won.
    pub(crate) reason: String,
}

impl Verdict {
    /// Whether CHLAUTH refuses the connection.
    pub(crate) fn blocked(&self) -> bool {
        matches!(
            self.outcome,
            Outcome::BlockedAddress | Outcome::BlockedUser { .. } | Outcome::NoAccess
        )
    }
}

/// How a record is named in messages.
fn name(rules: &[Rule], i: usize) -> String {
    let r = &rules[i];
    let what = format!("{}('{}')", r.kind.keyword(), r.profile);
    if r.assumed {
        format!("the default record {what}")
    } else {
        format!("{what} at line {}", r.line)
    }
}

/// Whether a mapping record's attributes match the connection.
fn map_matches(r: &Rule, a: &Active, ip: Option<Ip>) -> bool {
    let addr_ok = r
        .address
        .as_ref()
        .is_none_or(|p| p.matches(ip, a.host.as_deref()));
    addr_ok
        && match r.kind {
            RuleType::AddressMap => true,
            RuleType::UserMap => r.clntuser.is_some() && r.clntuser == a.clntuser,
            RuleType::QmgrMap => match (&r.qmname, &a.qmname) {
                (Some(p), Some(q)) => glob(p, q),
                _ => false,
            },
            RuleType::SslPeerMap => {
                let peer_ok = match (&r.sslpeer, &a.sslpeer) {
                    (Some(p), Some(dn)) => dn_matches(p, dn),
                    _ => false,
                };
                let issuer_ok = match (&r.sslcerti, &a.sslcerti) {
                    (None, _) => true,
                    (Some(p), Some(dn)) => dn_matches(p, dn),
                    (Some(_), None) => false,
                };
                peer_ok && issuer_ok
            }
            RuleType::BlockUser | RuleType::BlockAddr => false,
        }
}

fn addr_cmp(a: &Rule, b: &Rule) -> Ordering {
    match (&a.address, &b.address) {
        (Some(x), Some(y)) => x.specificity().cmp(&y.specificity()),
        (Some(_), None) => Ordering::Greater,
        (None, Some(_)) => Ordering::Less,
        (None, None) => Ordering::Equal,
    }
}

/// Within one type, the more specific attributes (fact 6).
fn attr_cmp(a: &Rule, b: &Rule) -> Ordering {
    let own = match (a.kind, b.kind) {
        (RuleType::SslPeerMap, RuleType::SslPeerMap) => {
            let spec = |r: &Rule| r.sslpeer.as_deref().map(dn_specificity);
            spec(a)
                .cmp(&spec(b))
                .then(a.sslcerti.is_some().cmp(&b.sslcerti.is_some()))
        }
        (RuleType::QmgrMap, RuleType::QmgrMap) => match (&a.qmname, &b.qmname) {
            (Some(x), Some(y)) => profile_cmp(x, y),
            _ => Ordering::Equal,
        },
        _ => Ordering::Equal,
    };
    own.then_with(|| addr_cmp(a, b))
}

/// What made `best` win over `other`, a record of the same profile, in
/// words.
fn why_over(best: &Rule, other: &Rule) -> String {
    if best.kind.rank() > other.kind.rank() {
        return format!("{} over {}", best.kind.keyword(), other.kind.keyword());
    }
    let address = |r: &Rule| match &r.address {
        Some(p) => format!("address {}", p.text),
        None => "no ADDRESS".into(),
    };
    let show = |r: &Rule| -> String {
        match r.kind {
            RuleType::SslPeerMap if r.sslpeer != best.sslpeer || r.sslpeer != other.sslpeer => {
                format!("SSLPEER '{}'", r.sslpeer.as_deref().unwrap_or(""))
            }
            RuleType::QmgrMap if best.qmname != other.qmname => {
                format!("QMNAME '{}'", r.qmname.as_deref().unwrap_or(""))
            }
            _ => address(r),
        }
    };
    match attr_cmp(best, other) {
        Ordering::Greater => format!("{} over {}", show(best), show(other)),
        _ => format!(
            "the first of equal records (line {} before {})",
            best.line, other.line
        ),
    }
}

/// The offline RUNCHECK: which record MQ applies to this connection, by
/// MQ's precedence (module docs), and what follows from it.
pub(crate) fn run_check(rules: &[Rule], active: &Active) -> Verdict {
    let ip = active.ip();
    let mut v = Verdict {
        rule: None,
        outcome: Outcome::NoMatch,
        warned: Vec::new(),
        user: None,
        if_privileged: None,
        reason: String::new(),
    };

    // 1. BLOCKADDR, at the listener, whatever the channel.
    for (i, r) in rules.iter().enumerate() {
        if r.kind != RuleType::BlockAddr {
            continue;
        }
        let Some(p) = r
            .addrlist
            .iter()
            .find(|p| p.matches(ip, active.host.as_deref()))
        else {
            continue;
        };
        if r.warn {
            v.warned.push(i);
            continue;
        }
        v.rule = Some(i);
        v.outcome = Outcome::BlockedAddress;
        v.reason = format!(
            "{}: entry '{}' matches {}, refused at the listener before the channel name is known",
            name(rules, i),
            p.text,
            active.from()
        );
        return v;
    }

    let channel = active.channel.as_str();
    if channel.is_empty() || channel.contains('*') {
        v.outcome = Outcome::Undecided;
        v.reason =
            format!("channel name '{channel}' is empty or generic: RUNCHECK needs one channel");
        return v;
    }

    // 2. The mapping record: only records that match compete (fact 4).
    let candidates: Vec<usize> = (0..rules.len())
        .filter(|&i| {
            let r = &rules[i];
            r.kind.is_map() && glob(&r.profile, channel) && map_matches(r, active, ip)
        })
        .collect();
    let precedence = |a: &Rule, b: &Rule| {
        profile_cmp(&a.profile, &b.profile)
            .then(a.kind.rank().cmp(&b.kind.rank()))
            .then_with(|| attr_cmp(a, b))
    };
    let mut order = candidates.clone();
    // Most specific first; equal records keep dump order (stable sort).
    order.sort_by(|&a, &b| precedence(&rules[b], &rules[a]));
    let mut reason = String::new();
    let mut src = None;
    if let Some(&best) = order.first() {
        let r = &rules[best];
        v.rule = Some(best);
        src = r.usersrc;
        let mut profiles: Vec<&str> = candidates
            .iter()
            .map(|&i| rules[i].profile.as_str())
            .collect();
        profiles.sort_unstable();
        profiles.dedup();
        let _ = write!(reason, "{} applies", name(rules, best));
        if profiles.len() > 1 {
            let _ = write!(
                reason,
                ": most specific channel profile '{}' of {} that match",
                r.profile,
                profiles.len()
            );
        }
        // When the runner-up has the same profile, say what else decided.
        if let Some(&second) = order.get(1).filter(|&&j| rules[j].profile == r.profile) {
            let sep = if profiles.len() > 1 { "; " } else { ": " };
            let _ = write!(reason, "{sep}{}", why_over(r, &rules[second]));
        }
    } else {
        reason.push_str("no mapping record matches");
    }
    // Where "CHLAUTH lets it through" goes if nothing refuses it after all.
    let no_match_at = reason.len();

    // What the mapping record does, and the user the channel runs as.
    let channel_user = || {
        active
            .mcauser
            .clone()
            .filter(|u| !u.trim().is_empty())
            .or_else(|| active.clntuser.clone())
    };
    let runs_as = |user: &Option<String>| match user {
        Some(u) => format!(" runs the channel as '{u}'"),
        None => String::new(),
    };
    let src_kw = src.map(UserSrc::keyword).unwrap_or_default();
    match src {
        Some(UserSrc::NoAccess) => {
            let i = v.rule.unwrap_or_default();
            if rules[i].warn {
                v.warned.push(i);
                v.outcome = Outcome::Channel;
                v.user = channel_user();
                let _ = write!(
                    reason,
                    "; USERSRC({src_kw}) with WARN(YES) only warns, and{}",
                    runs_as(&v.user)
                );
            } else {
                v.outcome = Outcome::NoAccess;
                let _ = write!(reason, "; USERSRC({src_kw}) refuses the channel");
                v.reason = reason;
                return v;
            }
        }
        Some(UserSrc::Map) => {
            let i = v.rule.unwrap_or_default();
            let user = rules[i].mcauser.clone().unwrap_or_default();
            v.user = Some(user.clone());
            let _ = write!(reason, "; USERSRC({src_kw}){}", runs_as(&v.user));
            v.outcome = Outcome::Mapped { user };
        }
        Some(UserSrc::Channel) => {
            v.outcome = Outcome::Channel;
            v.user = channel_user();
            let _ = write!(reason, "; USERSRC({src_kw}){}", runs_as(&v.user));
        }
        None => {
            v.outcome = Outcome::NoMatch;
            v.user = channel_user();
        }
    }

    // 3. BLOCKUSER: server connections only; the most specific profile's
    // records replace the others (fact 8).
    if !active.qmgr_channel() {
        let blockers: Vec<usize> = (0..rules.len())
            .filter(|&i| rules[i].kind == RuleType::BlockUser && glob(&rules[i].profile, channel))
            .collect();
        let top = blockers
            .iter()
            .map(|&i| rules[i].profile.as_str())
            .max_by(|a, b| profile_cmp(a, b));
        match (top, v.user.clone()) {
            (Some(top), Some(user)) => {
                for &i in blockers.iter().filter(|&&i| rules[i].profile == top) {
                    let r = &rules[i];
                    let listed = r.userlist.contains(&user);
                    let admin_entry = r
                        .userlist
                        .iter()
                        .any(|u| u.eq_ignore_ascii_case("*MQADMIN"));
                    let privileged = active.privileged.or((user == "mqm").then_some(true));
                    let blocked_by_admin = admin_entry && privileged == Some(true);
                    if listed || blocked_by_admin {
                        if r.warn {
                            v.warned.push(i);
                            continue;
                        }
                        let mqadmin = !listed;
                        let _ = write!(
                            reason,
                            "; then {} blocks user '{user}'{}",
                            name(rules, i),
                            if mqadmin {
                                " as a privileged (*MQADMIN) user"
                            } else {
                                ""
                            }
                        );
                        v.rule = Some(i);
                        v.outcome = Outcome::BlockedUser { user, mqadmin };
                        v.reason = reason;
                        return v;
                    }
                    // IBM says both "if asserted" and "asserted or mapped"
                    // (fact 1): when the client's own id is listed but the
                    // channel runs as another, say so rather than guess.
                    if let Some(asserted) = active
                        .clntuser
                        .as_deref()
                        .filter(|c| *c != user && r.userlist.iter().any(|u| u == c))
                    {
                        let _ = write!(
                            reason,
                            "; {} lists the client's user '{asserted}', not checked: the channel runs as '{user}'",
                            name(rules, i)
                        );
                    }
                    if admin_entry && privileged.is_none() {
                        v.if_privileged = Some(i);
                        let _ = write!(
                            reason,
                            "; {} blocks '{user}' too if it is a privileged (MQ-admin) user",
                            name(rules, i)
                        );
                    }
                }
            }
            (Some(_), None) => {
                let _ = write!(reason, "; BLOCKUSER not checked: the values name no user");
            }
            (None, _) => {}
        }
    }
    if v.outcome == Outcome::NoMatch {
        reason.insert_str(no_match_at, ", so CHLAUTH lets the connection through");
    }
    if !v.warned.is_empty() {
        let names: Vec<String> = v.warned.iter().map(|&i| name(rules, i)).collect();
        let _ = write!(reason, "; WARN(YES) only reported by {}", names.join(", "));
    }
    v.reason = reason;
    v
}

/// An MQSC string literal.
fn q(s: &str) -> String {
    format!("'{}'", s.replace('\'', "''"))
}
