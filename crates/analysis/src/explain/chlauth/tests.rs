//! The examples IBM's CHLAUTH pages give, each row citing its page, then
//! edge cases. Records are written as MQSC, parsed by `set` below.

use super::*;

/// `SET CHLAUTH('X') KEY(value) ...` as (profile, attributes), quotes kept
/// (as `rule` accepts them), parentheses inside quotes respected.
fn set(line: &str) -> (String, Vec<(String, String)>) {
    let rest = line
        .trim()
        .strip_prefix("SET CHLAUTH")
        .expect("a SET CHLAUTH command");
    let mut pairs = Vec::new();
    let b: Vec<char> = rest.chars().collect();
    let mut i = 0;
    let mut profile = None;
    while i < b.len() {
        while i < b.len() && b[i] == ' ' {
            i += 1;
        }
        let start = i;
        while i < b.len() && b[i].is_ascii_alphabetic() {
            i += 1;
        }
        let key: String = b[start..i].iter().collect();
        // MQSC allows a blank before the parenthesis: TYPE (USERMAP).
        while i < b.len() && b[i] == ' ' {
            i += 1;
        }
        if i >= b.len() || b[i] != '(' {
            // Not KEY(value): skip a character and go on.
            i += usize::from(key.is_empty());
            continue;
        }
        let mut depth = 0;
        let mut quoted = false;
        let open = i + 1;
        while i < b.len() {
            match b[i] {
                '\'' => quoted = !quoted,
                '(' if !quoted => depth += 1,
                ')' if !quoted => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                _ => {}
            }
            i += 1;
        }
        let value: String = b[open..i.min(b.len())].iter().collect();
        if key.is_empty() && profile.is_none() {
            profile = Some(value);
        } else {
            pairs.push((key, value));
        }
        i += 1;
    }
    (profile.expect("a profile"), pairs)
}

/// The records of a case: its lines numbered from 1, then (if asked) the
/// three defaults.
fn records(lines: &[&str], with_defaults: bool) -> Vec<Rule> {
    let mut out: Vec<Rule> = lines
        .iter()
        .enumerate()
        .map(|(n, l)| {
            let (p, a) = set(l);
            rule(&p, &a, n + 1).unwrap_or_else(|e| panic!("{l}: {e}"))
        })
        .collect();
    if with_defaults {
        out.extend(defaults());
    }
    out
}

/// A verdict in a few characters: outcome, then `@line` (or `@d0`..`@d2`
/// for the defaults, in `defaults()` order).
fn summary(rules: &[Rule], v: &Verdict) -> String {
    let at = match v.rule {
        Some(i) if rules[i].assumed => {
            let first = rules.iter().position(|r| r.assumed).unwrap_or(0);
            format!("@d{}", i - first)
        }
        Some(i) => format!("@{}", rules[i].line),
        None => String::new(),
    };
    let what = match &v.outcome {
        Outcome::BlockedAddress => "blockaddr".to_string(),
        Outcome::BlockedUser {
            user,
            mqadmin: true,
        } => format!("blockuser:{user}:*MQADMIN"),
        Outcome::BlockedUser { user, .. } => format!("blockuser:{user}"),
        Outcome::NoAccess => "noaccess".to_string(),
        Outcome::Mapped { user } => format!("map:{user}"),
        Outcome::Channel => format!("channel:{}", v.user.as_deref().unwrap_or("?")),
        Outcome::NoMatch => "nomatch".to_string(),
        Outcome::Undecided => "undecided".to_string(),
    };
    format!("{what}{at}")
}

struct Case {
    /// Where the records (and what they should do) come from.
    source: &'static str,
    lines: &'static [&'static str],
    defaults: bool,
    channel: &'static str,
    /// The active values, as AMQ9777E prints them.
    values: &'static str,
    /// The address insert.
    address: &'static str,
    expect: &'static str,
}

const IBM_APP2: &[&str] = &[
    "SET CHLAUTH('APP2.CHAN') TYPE(ADDRESSMAP) ADDRESS('*') USERSRC(NOACCESS) WARN(NO) ACTION(ADD)",
    "SET CHLAUTH('APP2.CHAN') TYPE(ADDRESSMAP) ADDRESS('9.95.100.1-5') USERSRC(MAP) MCAUSER('mqapp2') ACTION(ADD)",
];

const IBM_MY_SVRCONN: &[&str] = &[
    "SET CHLAUTH('MY.SVRCONN') TYPE(ADDRESSMAP) ADDRESS('*') USERSRC(NOACCESS) DESCR('block all') WARN(NO) ACTION(ADD)",
    "SET CHLAUTH('MY.SVRCONN') TYPE(BLOCKUSER) USERLIST('nobody') DESCR('override no mqm admin rule') WARN(NO) ACTION(ADD)",
    "SET CHLAUTH('MY.SVRCONN') TYPE(USERMAP) CLNTUSER('johndoe') USERSRC(CHANNEL) DESCR('allow johndoe userid') ACTION(ADD)",
];

const IBM_ADMIN_CHAN: &[&str] = &[
    "SET CHLAUTH(ADMIN.CHAN) TYPE(ADDRESSMAP) ADDRESS('*') USERSRC(NOACCESS)",
    "SET CHLAUTH('ADMIN.CHAN') TYPE(BLOCKUSER) DESCR('Rule to override *MQADMIN blockuser on this channel') USERLIST('nobody') ACTION(replace)",
];

const MQ_CONTAINER_DEV: &[&str] = &[
    "SET CHLAUTH('*') TYPE(ADDRESSMAP) ADDRESS('*') USERSRC(NOACCESS) DESCR('Back-stop rule - Blocks everyone') ACTION(REPLACE)",
    "SET CHLAUTH('DEV.APP.SVRCONN') TYPE(ADDRESSMAP) ADDRESS('*') USERSRC(CHANNEL) CHCKCLNT(ASQMGR) DESCR('Allows connection via APP channel') ACTION(REPLACE)",
];

const CASES: &[Case] = &[
    // "Resolving CHLAUTH access issues" (9.4),
    // https://www.ibm.com/docs/en/ibm-mq/9.4.x?topic=records-resolving-chlauth-access-issues:
    // the three default rules; SYSTEM.ADMIN.SVRCONN "is more specific" and
    // lets non-admin users in.
    Case {
        source: "Resolving CHLAUTH access issues: ALLOW SYSTEM.ADMIN.SVRCONN",
        lines: &[],
        defaults: true,
        channel: "SYSTEM.ADMIN.SVRCONN",
        values: "CLNTUSER(alice)",
        address: "10.0.0.5",
        expect: "channel:alice@d2",
    },
    Case {
        source: "Resolving CHLAUTH access issues: NO ACCESS to SYSTEM.* channels",
        lines: &[],
        defaults: true,
        channel: "SYSTEM.DEF.SVRCONN",
        values: "CLNTUSER(alice)",
        address: "10.0.0.5",
        expect: "noaccess@d1",
    },
    Case {
        source: "Resolving CHLAUTH access issues: NO ACCESS by MQ-admin users, any channel",
        lines: &[],
        defaults: true,
        channel: "APP.SVRCONN",
        values: "CLNTUSER(mqm)",
        address: "10.0.0.5",
        expect: "blockuser:mqm:*MQADMIN@d0",
    },
    Case {
        source: "Resolving CHLAUTH access issues: SYSTEM.ADMIN.SVRCONN is for non MQ-admin users",
        lines: &[],
        defaults: true,
        channel: "SYSTEM.ADMIN.SVRCONN",
        values: "CLNTUSER(mqm)",
        address: "10.0.0.5",
        expect: "blockuser:mqm:*MQADMIN@d0",
    },
    Case {
        source: "Resolving CHLAUTH access issues: no default rule maps APP.SVRCONN",
        lines: &[],
        defaults: true,
        channel: "APP.SVRCONN",
        values: "CLNTUSER(alice)",
        address: "10.0.0.5",
        expect: "nomatch",
    },
    // "Creating new CHLAUTH rules for channels" (9.2),
    // https://ibm.com/support/knowledgecenter/SSFKSJ_9.2.0/com.ibm.mq.sec.doc/q132580_.htm:
    // APP2.CHAN only from 9.95.100.1-5, mapped to mqapp2.
    Case {
        source: "Creating new CHLAUTH rules for channels: APP2.CHAN from the range",
        lines: IBM_APP2,
        defaults: true,
        channel: "APP2.CHAN",
        values: "CLNTUSER(bob)",
        address: "9.95.100.3",
        expect: "map:mqapp2@2",
    },
    Case {
        source: "Creating new CHLAUTH rules for channels: APP2.CHAN from elsewhere",
        lines: IBM_APP2,
        defaults: true,
        channel: "APP2.CHAN",
        values: "CLNTUSER(bob)",
        address: "9.95.100.6",
        expect: "noaccess@1",
    },
    // Same page: MY.SVRCONN blocks all users but johndoe.
    Case {
        source: "Creating new CHLAUTH rules for channels: MY.SVRCONN lets johndoe in",
        lines: IBM_MY_SVRCONN,
        defaults: true,
        channel: "MY.SVRCONN",
        values: "CLNTUSER(johndoe)",
        address: "192.0.2.10",
        expect: "channel:johndoe@3",
    },
    Case {
        source: "Creating new CHLAUTH rules for channels: MY.SVRCONN blocks everyone else",
        lines: IBM_MY_SVRCONN,
        defaults: true,
        channel: "MY.SVRCONN",
        values: "CLNTUSER(alice)",
        address: "192.0.2.10",
        expect: "noaccess@1",
    },
    // "Creating new CHLAUTH rules for users" (9.1),
    // https://www.ibm.com/docs/en/ibm-mq/9.1.x?topic=issues-creating-new-chlauth-rules-users:
    // ADMIN.CHAN: NOACCESS from anywhere and a BLOCKUSER that overrides
    // *MQADMIN. (The page's third record, the one letting mqadm in, is cut
    // off in our copy: see `admin_chan_override_lets_a_privileged_user_in`.)
    Case {
        source: "Creating new CHLAUTH rules for users: ADMIN.CHAN, mqm from anywhere",
        lines: IBM_ADMIN_CHAN,
        defaults: true,
        channel: "ADMIN.CHAN",
        values: "CLNTUSER(mqm)",
        address: "192.0.2.10",
        expect: "noaccess@1",
    },
    // "Blocking specific user IDs",
    // https://www.ibm.com/docs/en/ibm-mq/10.0.x?topic=manager-blocking-specific-user-ids
    Case {
        source: "Blocking specific user IDs",
        lines: &["SET CHLAUTH('APP.*') TYPE(BLOCKUSER) USERLIST(userID1, userID2)"],
        defaults: false,
        channel: "APP.SVRCONN",
        values: "CLNTUSER(userID2)",
        address: "192.0.2.10",
        expect: "blockuser:userID2@1",
    },
    // "Blocking access for a client user ID",
    // https://www.ibm.com/support/knowledgecenter/SSFKSJ_9.2.0/com.ibm.mq.sec.doc/q013860_.html
    Case {
        source: "Blocking access for a client user ID",
        lines: &["SET CHLAUTH('APP.*') TYPE(USERMAP) CLNTUSER('guest') USERSRC(NOACCESS)"],
        defaults: false,
        channel: "APP.SVRCONN",
        values: "CLNTUSER(guest)",
        address: "192.0.2.10",
        expect: "noaccess@1",
    },
    // "Mapping a client user ID to an MCAUSER user ID",
    // https://www.ibm.com/docs/en/SSFKSJ_9.2.0/com.ibm.mq.sec.doc/q013830_.html
    Case {
        source: "Mapping a client user ID to an MCAUSER user ID",
        lines: &[
            "SET CHLAUTH('APP.*') TYPE (USERMAP) CLNTUSER(jochen) USERSRC(MAP) MCAUSER(appuser)",
        ],
        defaults: true,
        channel: "APP.SVRCONN",
        values: "CLNTUSER(jochen)",
        address: "192.0.2.10",
        expect: "map:appuser@1",
    },
    // "Mapping an IP address to an MCAUSER user ID",
    // https://www.ibm.com/docs/en/SSFKSJ_9.2.0/com.ibm.mq.sec.doc/q013880_.html
    Case {
        source: "Mapping an IP address to an MCAUSER user ID",
        lines: &[
            "SET CHLAUTH('APP.*') TYPE(ADDRESSMAP) ADDRESS('192.0.2.*') USERSRC(MAP) MCAUSER(appuser)",
        ],
        defaults: true,
        channel: "APP.SVRCONN",
        values: "CLNTUSER(mqm)",
        address: "192.0.2.99",
        expect: "map:appuser@1",
    },
    // "Mapping a remote queue manager to an MCAUSER user ID", with ADDRESS,
    // http://setgetweb.com/p/MQ92/sec/q013820_.htm
    Case {
        source: "Mapping a remote queue manager to an MCAUSER user ID, in the range",
        lines: &[
            "SET CHLAUTH('QM*.TO.HUB') TYPE (QMGRMAP) QMNAME(QM*) USERSRC(MAP) MCAUSER(qmuser) ADDRESS(192.0.2.1-8)",
        ],
        defaults: true,
        channel: "QMA.TO.HUB",
        values: "QMNAME(QMA)",
        address: "192.0.2.3",
        expect: "map:qmuser@1",
    },
    Case {
        source: "Mapping a remote queue manager to an MCAUSER user ID, out of the range",
        lines: &[
            "SET CHLAUTH('QM*.TO.HUB') TYPE (QMGRMAP) QMNAME(QM*) USERSRC(MAP) MCAUSER(qmuser) ADDRESS(192.0.2.1-8)",
        ],
        defaults: true,
        channel: "QMA.TO.HUB",
        values: "QMNAME(QMA)",
        address: "192.0.2.9",
        expect: "nomatch",
    },
    // "Blocking access from a remote queue manager",
    // https://www.ibm.com/docs/en/SSFKSJ_9.2.0/com.ibm.mq.sec.doc/q013850_.html
    Case {
        source: "Blocking access from a remote queue manager",
        lines: &["SET CHLAUTH('*.TO.HUB') TYPE(QMGRMAP) QMNAME('ROGUE*') USERSRC(NOACCESS)"],
        defaults: true,
        channel: "ROGUE1.TO.HUB",
        values: "QMNAME(ROGUE1)",
        address: "192.0.2.3",
        expect: "noaccess@1",
    },
    // "Mapping an SSL or TLS Distinguished Name to an MCAUSER user ID",
    // https://www.ibm.com/support/knowledgecenter/SSFKSJ_9.2.0/com.ibm.mq.sec.doc/q013840_.html
    Case {
        source: "Mapping an SSL or TLS Distinguished Name to an MCAUSER user ID",
        lines: &[
            "SET CHLAUTH('TLS.SVRCONN') TYPE (SSLPEERMAP) SSLPEER('CN=app1,O=Example') SSLCERTI('CN=Example CA') USERSRC(MAP) MCAUSER(app1)",
        ],
        defaults: true,
        channel: "TLS.SVRCONN",
        values: "SSLPEER(CN=app1,OU=Payments,O=Example,C=GB) SSLCERTI(CN=Example CA,O=Example) CLNTUSER(root)",
        address: "192.0.2.3",
        expect: "map:app1@1",
    },
    // "Blocking access for an SSL or TLS Distinguished Name",
    // https://www.ibm.com/docs/en/ibm-mq/9.3.x?topic=manager-blocking-access-ssl-tls-distinguished-name
    Case {
        source: "Blocking access for an SSL or TLS Distinguished Name",
        lines: &["SET CHLAUTH('TLS.*') TYPE(SSLPEERMAP) SSLPEER('O=Rogue*') USERSRC(NOACCESS)"],
        defaults: true,
        channel: "TLS.SVRCONN",
        values: "SSLPEER(CN=x,O=Rogue Corp)",
        address: "192.0.2.3",
        expect: "noaccess@1",
    },
    // mq-container's developer configuration (IBM's repository; quoted in
    // /work/shared/formats/config-events.md §2): the back-stop and the APP
    // channel.
    Case {
        source: "mq-container dev config: DEV.APP.SVRCONN allowed",
        lines: MQ_CONTAINER_DEV,
        defaults: true,
        channel: "DEV.APP.SVRCONN",
        values: "CLNTUSER(app)",
        address: "172.17.0.1",
        expect: "channel:app@2",
    },
    Case {
        source: "mq-container dev config: anything else hits the back-stop",
        lines: MQ_CONTAINER_DEV,
        defaults: true,
        channel: "DEV.OTHER.SVRCONN",
        values: "CLNTUSER(app)",
        address: "172.17.0.1",
        expect: "noaccess@1",
    },
    // The AMQ9777E quoted in https://github.com/ibm-messaging/mq-rfhutil/issues/9
    // against that back-stop.
    Case {
        source: "AMQ9777E of mq-rfhutil#9 under a back-stop",
        lines: MQ_CONTAINER_DEV,
        defaults: true,
        channel: "PSB.SRV.APP.01",
        values: "'CLNTUSER(jochen)'",
        address: "10.176.172.212",
        expect: "noaccess@1",
    },
];

fn verdict_of(c: &Case) -> (Vec<Rule>, Active, Verdict) {
    let rules = records(c.lines, c.defaults);
    let a = active(c.channel, c.values).with_address(c.address);
    let v = run_check(&rules, &a);
    (rules, a, v)
}

#[test]
fn ibm_examples() {
    let mut failed = Vec::new();
    for c in CASES {
        let (rules, _, v) = verdict_of(c);
        let got = summary(&rules, &v);
        if got != c.expect {
            failed.push(format!(
                "{}: expected {}, got {} ({})",
                c.source, c.expect, got, v.reason
            ));
        }
    }
    assert!(failed.is_empty(), "\n{}", failed.join("\n"));
}

#[test]
fn every_refusal_has_a_reason_and_every_verdict_a_line() {
    for c in CASES {
        let (_, _, v) = verdict_of(c);
        assert!(!v.reason.is_empty(), "{}", c.source);
        assert!(!v.reason.contains('\n'), "{}", c.source);
    }
}

fn check_one(
    lines: &[&str],
    defaults: bool,
    channel: &str,
    values: &str,
    address: &str,
) -> (Vec<Rule>, Verdict) {
    let rules = records(lines, defaults);
    let a = active(channel, values).with_address(address);
    let v = run_check(&rules, &a);
    (rules, v)
}

#[test]
fn default_admin_user_is_flagged_when_privilege_is_unknown() {
    let (rules, v) = check_one(&[], true, "APP.SVRCONN", "CLNTUSER(alice)", "10.0.0.5");
    assert!(!v.blocked());
    let i = v.if_privileged.expect("the *MQADMIN record");
    assert!(rules[i].assumed && rules[i].kind == RuleType::BlockUser);
    assert!(v.reason.contains("if it is a privileged"), "{}", v.reason);
    // Told it is privileged, the record blocks.
    let mut a = active("APP.SVRCONN", "CLNTUSER(alice)").with_address("10.0.0.5");
    a.privileged = Some(true);
    assert_eq!(
        summary(&rules, &run_check(&rules, &a)),
        "blockuser:alice:*MQADMIN@d0"
    );
    a.privileged = Some(false);
    assert!(!run_check(&rules, &a).blocked());
}

#[test]
fn admin_chan_override_lets_a_privileged_user_in() {
    // IBM's ADMIN.CHAN records, completed with a USERMAP of our own for
    // the subnet the page speaks of: the BLOCKUSER 'nobody' on ADMIN.CHAN
    // replaces the default *MQADMIN one, so mqm mapped to mqm gets in.
    let mut lines = IBM_ADMIN_CHAN.to_vec();
    lines.push("SET CHLAUTH('ADMIN.CHAN') TYPE(USERMAP) CLNTUSER('mqm') ADDRESS('192.0.2.*') USERSRC(MAP) MCAUSER('mqm')");
    let (rules, v) = check_one(&lines, true, "ADMIN.CHAN", "CLNTUSER(mqm)", "192.0.2.10");
    assert_eq!(summary(&rules, &v), "map:mqm@3", "{}", v.reason);
    assert!(v.reason.contains("USERMAP over ADDRESSMAP"), "{}", v.reason);
    // The same user on another channel is still blocked by the default.
    let (rules, v) = check_one(&lines, true, "APP.SVRCONN", "CLNTUSER(mqm)", "192.0.2.10");
    assert_eq!(summary(&rules, &v), "blockuser:mqm:*MQADMIN@d0");
}

#[test]
fn no_rule_matches_means_allowed() {
    let (_, v) = check_one(&[], false, "ANY.SVRCONN", "CLNTUSER(bob)", "10.0.0.1");
    assert_eq!(v.outcome, Outcome::NoMatch);
    assert!(!v.blocked());
    assert_eq!(v.rule, None);
    assert!(
        v.reason.contains("lets the connection through"),
        "{}",
        v.reason
    );
    assert_eq!(fix(&[], &active("ANY.SVRCONN", ""), &v), None);
}

#[test]
fn warn_records_only_warn() {
    let lines = [
        "SET CHLAUTH('*') TYPE(ADDRESSMAP) ADDRESS('*') USERSRC(NOACCESS) WARN(YES)",
        "SET CHLAUTH('*') TYPE(BLOCKUSER) USERLIST('bob') WARN(YES)",
        "SET CHLAUTH('*') TYPE(BLOCKADDR) ADDRLIST('10.0.0.*') WARN(YES)",
    ];
    let (rules, v) = check_one(&lines, false, "APP.SVRCONN", "CLNTUSER(bob)", "10.0.0.1");
    assert!(!v.blocked(), "{}", v.reason);
    assert_eq!(summary(&rules, &v), "channel:bob@1");
    let mut warned = v.warned.clone();
    warned.sort_unstable();
    assert_eq!(warned, vec![0, 1, 2]);
    assert!(v.reason.contains("WARN(YES)"), "{}", v.reason);
}

#[test]
fn blockaddr_range_blocks_any_channel_at_the_listener() {
    let lines = [
        "SET CHLAUTH('*') TYPE(BLOCKADDR) ADDRLIST('10.1.1.1-20','192.0.2.*')",
        "SET CHLAUTH('APP.SVRCONN') TYPE(ADDRESSMAP) ADDRESS('*') USERSRC(CHANNEL)",
    ];
    for channel in ["APP.SVRCONN", "SYSTEM.ADMIN.SVRCONN", "whatever"] {
        let (rules, v) = check_one(&lines, true, channel, "CLNTUSER(bob)", "10.1.1.7");
        assert_eq!(summary(&rules, &v), "blockaddr@1", "{channel}");
        assert!(
            v.reason.contains("before the channel name is known"),
            "{}",
            v.reason
        );
    }
    // Outside the range, the mapping records decide.
    let (rules, v) = check_one(&lines, true, "APP.SVRCONN", "CLNTUSER(bob)", "10.1.1.21");
    assert_eq!(summary(&rules, &v), "channel:bob@2");
    // The fix takes the entry out of the list.
    let a = active("APP.SVRCONN", "CLNTUSER(bob)").with_address("10.1.1.7");
    let rules = records(&lines, true);
    let v = run_check(&rules, &a);
    assert_eq!(
        fix(&rules, &a, &v).as_deref(),
        Some("SET CHLAUTH('*') TYPE(BLOCKADDR) ADDRLIST('192.0.2.*') ACTION(REPLACE)")
    );
    // A one-entry list: remove the record.
    let lines = ["SET CHLAUTH('*') TYPE(BLOCKADDR) ADDRLIST('10.1.1.1-20')"];
    let rules = records(&lines, false);
    let v = run_check(&rules, &a);
    assert_eq!(
        fix(&rules, &a, &v).as_deref(),
        Some("SET CHLAUTH('*') TYPE(BLOCKADDR) ADDRLIST('10.1.1.1-20') ACTION(REMOVE)")
    );
}

#[test]
fn several_generic_profiles_most_specific_wins() {
    let lines = [
        "SET CHLAUTH('*') TYPE(ADDRESSMAP) ADDRESS('*') USERSRC(NOACCESS)",
        "SET CHLAUTH('DEV.*') TYPE(ADDRESSMAP) ADDRESS('*') USERSRC(MAP) MCAUSER('dev')",
        "SET CHLAUTH('DEV.APP.*') TYPE(ADDRESSMAP) ADDRESS('10.0.0.*') USERSRC(MAP) MCAUSER('devapp')",
        "SET CHLAUTH('DEV.APP.SVRCONN') TYPE(ADDRESSMAP) ADDRESS('10.9.9.9') USERSRC(MAP) MCAUSER('exact')",
        "SET CHLAUTH('*.SVRCONN') TYPE(ADDRESSMAP) ADDRESS('*') USERSRC(MAP) MCAUSER('svrconn')",
    ];
    // DEV.APP.SVRCONN's own record is for another address: DEV.APP.* wins.
    let (rules, v) = check_one(
        &lines,
        false,
        "DEV.APP.SVRCONN",
        "CLNTUSER(bob)",
        "10.0.0.5",
    );
    assert_eq!(summary(&rules, &v), "map:devapp@3");
    assert!(
        v.reason
            .contains("most specific channel profile 'DEV.APP.*' of 4 that match"),
        "{}",
        v.reason
    );
    // From its address, the exact profile wins.
    let (rules, v) = check_one(
        &lines,
        false,
        "DEV.APP.SVRCONN",
        "CLNTUSER(bob)",
        "10.9.9.9",
    );
    assert_eq!(summary(&rules, &v), "map:exact@4");
    // From elsewhere, DEV.* beats *.SVRCONN: 'D' over '*' at the first
    // character.
    let (rules, v) = check_one(
        &lines,
        false,
        "DEV.APP.SVRCONN",
        "CLNTUSER(bob)",
        "172.16.0.1",
    );
    assert_eq!(summary(&rules, &v), "map:dev@2");
    let (rules, v) = check_one(&lines, false, "PROD.SVRCONN", "CLNTUSER(bob)", "172.16.0.1");
    assert_eq!(summary(&rules, &v), "map:svrconn@5");
}

#[test]
fn within_a_profile_types_then_addresses() {
    let lines = [
        "SET CHLAUTH('APP.SVRCONN') TYPE(ADDRESSMAP) ADDRESS('10.0.0.*') USERSRC(NOACCESS)",
        "SET CHLAUTH('APP.SVRCONN') TYPE(ADDRESSMAP) ADDRESS('10.0.0.5') USERSRC(CHANNEL)",
        "SET CHLAUTH('APP.SVRCONN') TYPE(USERMAP) CLNTUSER('bob') USERSRC(MAP) MCAUSER('bobapp')",
        "SET CHLAUTH('APP.SVRCONN') TYPE(SSLPEERMAP) SSLPEER('CN=bob') USERSRC(MAP) MCAUSER('bobtls')",
        "SET CHLAUTH('*') TYPE(SSLPEERMAP) SSLPEER('CN=*') USERSRC(NOACCESS)",
    ];
    let (rules, v) = check_one(&lines, false, "APP.SVRCONN", "CLNTUSER(eve)", "10.0.0.5");
    assert_eq!(summary(&rules, &v), "channel:eve@2");
    assert!(
        v.reason.contains("address 10.0.0.5 over address 10.0.0.*"),
        "{}",
        v.reason
    );
    let (rules, v) = check_one(&lines, false, "APP.SVRCONN", "CLNTUSER(eve)", "10.0.0.6");
    assert_eq!(summary(&rules, &v), "noaccess@1");
    let (rules, v) = check_one(&lines, false, "APP.SVRCONN", "CLNTUSER(bob)", "10.0.0.6");
    assert_eq!(summary(&rules, &v), "map:bobapp@3");
    assert!(v.reason.contains("USERMAP over ADDRESSMAP"), "{}", v.reason);
    let (rules, v) = check_one(
        &lines,
        false,
        "APP.SVRCONN",
        "CLNTUSER(bob) SSLPEER(CN=bob,O=x)",
        "10.0.0.6",
    );
    assert_eq!(summary(&rules, &v), "map:bobtls@4");
    assert!(v.reason.contains("SSLPEERMAP over USERMAP"), "{}", v.reason);
    // The profile comes first: APP.SVRCONN's ADDRESSMAP over the '*'
    // SSLPEERMAP.
    let (rules, v) = check_one(
        &lines,
        false,
        "APP.SVRCONN",
        "CLNTUSER(eve) SSLPEER(CN=eve)",
        "10.0.0.5",
    );
    assert_eq!(summary(&rules, &v), "channel:eve@2");
}

#[test]
fn equal_records_first_in_the_dump_wins() {
    let lines = [
        "SET CHLAUTH('A.*') TYPE(ADDRESSMAP) ADDRESS('10.0.0.*') USERSRC(MAP) MCAUSER('one')",
        "SET CHLAUTH('A.*') TYPE(ADDRESSMAP) ADDRESS('10.0.*.1') USERSRC(MAP) MCAUSER('two')",
    ];
    let (rules, v) = check_one(&lines, false, "A.B", "", "10.0.0.1");
    assert_eq!(summary(&rules, &v), "map:one@1");
    assert!(v.reason.contains("first of equal records"), "{}", v.reason);
}

#[test]
fn names_are_case_sensitive_dns_are_not() {
    let lines = [
        "SET CHLAUTH('DEV.APP.SVRCONN') TYPE(USERMAP) CLNTUSER('bob') USERSRC(MAP) MCAUSER('app')",
        "SET CHLAUTH('TLS.SVRCONN') TYPE(SSLPEERMAP) SSLPEER('CN=Bob,O=Example') USERSRC(MAP) MCAUSER('tls')",
    ];
    let (_, v) = check_one(
        &lines,
        false,
        "dev.app.svrconn",
        "CLNTUSER(bob)",
        "10.0.0.1",
    );
    assert_eq!(v.outcome, Outcome::NoMatch);
    let (_, v) = check_one(
        &lines,
        false,
        "DEV.APP.SVRCONN",
        "CLNTUSER(Bob)",
        "10.0.0.1",
    );
    assert_eq!(v.outcome, Outcome::NoMatch);
    let (rules, v) = check_one(
        &lines,
        false,
        "TLS.SVRCONN",
        "SSLPEER(cn=BOB, o=example)",
        "10.0.0.1",
    );
    assert_eq!(summary(&rules, &v), "map:tls@2");
}

#[test]
fn host_name_records_need_the_host_name() {
    let lines = [
        "SET CHLAUTH('*') TYPE(ADDRESSMAP) ADDRESS('*') USERSRC(NOACCESS)",
        "SET CHLAUTH('APP.SVRCONN') TYPE(ADDRESSMAP) ADDRESS('*.example.com') USERSRC(CHANNEL)",
    ];
    let (rules, v) = check_one(
        &lines,
        false,
        "APP.SVRCONN",
        "CLNTUSER(bob)",
        "app1.example.com (10.0.0.1)",
    );
    assert_eq!(summary(&rules, &v), "channel:bob@2");
    let (rules, v) = check_one(&lines, false, "APP.SVRCONN", "CLNTUSER(bob)", "10.0.0.1");
    assert_eq!(summary(&rules, &v), "noaccess@1");
}

#[test]
fn blockuser_checks_the_user_after_mapping_on_server_connections_only() {
    let lines = [
        "SET CHLAUTH('*') TYPE(BLOCKUSER) USERLIST('app','nobody')",
        "SET CHLAUTH('APP.SVRCONN') TYPE(USERMAP) CLNTUSER('bob') USERSRC(MAP) MCAUSER('app')",
        "SET CHLAUTH('QM*') TYPE(QMGRMAP) QMNAME('QM*') USERSRC(MAP) MCAUSER('app')",
    ];
    // bob is mapped to app, which is listed (AMQ9776E's "mapped to a userid
    // which should be blocked").
    let (rules, v) = check_one(&lines, false, "APP.SVRCONN", "CLNTUSER(bob)", "10.0.0.1");
    assert_eq!(summary(&rules, &v), "blockuser:app@1");
    // The channel's own MCAUSER, as AMQ9776E prints it.
    let (rules, v) = check_one(
        &lines,
        false,
        "OTHER.SVRCONN",
        "MCAUSER(app) CLNTUSER(michael)",
        "10.0.0.1",
    );
    assert_eq!(summary(&rules, &v), "blockuser:app@1");
    // A queue manager channel is not subject to BLOCKUSER.
    let (rules, v) = check_one(&lines, false, "QMA.TO.HUB", "QMNAME(QMA)", "10.0.0.1");
    assert_eq!(summary(&rules, &v), "map:app@3");
    // No user in the values: said, not guessed.
    let (_, v) = check_one(&lines, false, "OTHER.SVRCONN", "", "10.0.0.1");
    assert!(v.reason.contains("BLOCKUSER not checked"), "{}", v.reason);
}

#[test]
fn generic_or_empty_channel_is_undecided() {
    let (_, v) = check_one(&[], true, "APP.*", "CLNTUSER(bob)", "10.0.0.1");
    assert_eq!(v.outcome, Outcome::Undecided);
    let (_, v) = check_one(&[], true, "", "CLNTUSER(bob)", "10.0.0.1");
    assert_eq!(v.outcome, Outcome::Undecided);
}

#[test]
fn malformed_rules_are_errors() {
    let bad = [
        ("*", vec![]),                   // no TYPE
        ("*", vec![("TYPE", "FOOMAP")]), // unknown TYPE
        (
            "APP.*",
            vec![("TYPE", "BLOCKADDR"), ("ADDRLIST", "10.0.0.1")],
        ), // BLOCKADDR not '*'
        ("*", vec![("TYPE", "BLOCKADDR")]), // no ADDRLIST
        ("*", vec![("TYPE", "BLOCKADDR"), ("ADDRLIST", "'10.0.0'")]), // too few parts
        ("*", vec![("TYPE", "BLOCKUSER")]), // no USERLIST
        ("*", vec![("TYPE", "BLOCKUSER"), ("USERLIST", "'*'")]), // generic user id
        ("*", vec![("TYPE", "BLOCKUSER"), ("USERLIST", "'bob*'")]),
        ("*", vec![("TYPE", "ADDRESSMAP"), ("USERSRC", "CHANNEL")]), // no ADDRESS
        (
            "*",
            vec![
                ("TYPE", "ADDRESSMAP"),
                ("ADDRESS", "192.0*"),
                ("USERSRC", "CHANNEL"),
            ],
        ),
        (
            "*",
            vec![
                ("TYPE", "ADDRESSMAP"),
                ("ADDRESS", "192.0.*.*"),
                ("USERSRC", "CHANNEL"),
            ],
        ),
        (
            "*",
            vec![
                ("TYPE", "ADDRESSMAP"),
                ("ADDRESS", "2001::*"),
                ("USERSRC", "CHANNEL"),
            ],
        ),
        (
            "*",
            vec![
                ("TYPE", "ADDRESSMAP"),
                ("ADDRESS", "10.0.0.300"),
                ("USERSRC", "CHANNEL"),
            ],
        ),
        (
            "*",
            vec![
                ("TYPE", "ADDRESSMAP"),
                ("ADDRESS", "10.0.0.9-1"),
                ("USERSRC", "CHANNEL"),
            ],
        ),
        (
            "*",
            vec![("TYPE", "ADDRESSMAP"), ("ADDRESS", "*"), ("USERSRC", "MAP")],
        ), // MAP, no MCAUSER
        (
            "*",
            vec![
                ("TYPE", "ADDRESSMAP"),
                ("ADDRESS", "*"),
                ("USERSRC", "SOMETIMES"),
            ],
        ),
        ("*", vec![("TYPE", "USERMAP"), ("USERSRC", "CHANNEL")]), // no CLNTUSER
        (
            "*",
            vec![
                ("TYPE", "USERMAP"),
                ("CLNTUSER", "bob*"),
                ("USERSRC", "CHANNEL"),
            ],
        ),
        ("*", vec![("TYPE", "SSLPEERMAP"), ("USERSRC", "CHANNEL")]), // no SSLPEER
        (
            "*",
            vec![
                ("TYPE", "SSLPEERMAP"),
                ("SSLPEER", "not a dn"),
                ("USERSRC", "CHANNEL"),
            ],
        ),
        (
            "*",
            vec![
                ("TYPE", "SSLPEERMAP"),
                ("SSLPEER", "cn=lower"),
                ("USERSRC", "CHANNEL"),
            ],
        ),
        ("*", vec![("TYPE", "QMGRMAP"), ("USERSRC", "CHANNEL")]), // no QMNAME
        (
            "*",
            vec![
                ("TYPE", "ADDRESSMAP"),
                ("ADDRESS", "*"),
                ("USERSRC", "CHANNEL"),
                ("WARN", "MAYBE"),
            ],
        ),
        (
            "*",
            vec![
                ("TYPE", "ADDRESSMAP"),
                ("ADDRESS", "*"),
                ("ACTION", "REMOVE"),
            ],
        ),
        (
            "",
            vec![
                ("TYPE", "ADDRESSMAP"),
                ("ADDRESS", "*"),
                ("USERSRC", "CHANNEL"),
            ],
        ),
        (
            "A.CHANNEL.NAME.TOO.LONG",
            vec![
                ("TYPE", "ADDRESSMAP"),
                ("ADDRESS", "*"),
                ("USERSRC", "CHANNEL"),
            ],
        ),
    ];
    for (profile, pairs) in bad {
        let pairs: Vec<(String, String)> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        assert!(rule(profile, &pairs, 7).is_err(), "{profile} {pairs:?}");
    }
}

#[test]
fn rule_accepts_lists_written_or_split_and_ignores_other_keywords() {
    let (p, a) = set(
        "SET CHLAUTH('*') TYPE(BLOCKUSER) USERLIST('*MQADMIN','bob', eve) CUSTOM(' ') ALTDATE(2024-01-01) ACTION(REPLACE)",
    );
    let r = rule(&p, &a, 3).unwrap();
    assert_eq!(r.userlist, vec!["*MQADMIN", "bob", "eve"]);
    assert_eq!(r.line, 3);
    let split = [
        ("TYPE".to_string(), "BLOCKADDR".to_string()),
        ("ADDRLIST".to_string(), "10.0.0.1".to_string()),
        ("addrlist".to_string(), "'10.0.1.*'".to_string()),
    ];
    let r = rule("'*'", &split, 1).unwrap();
    let texts: Vec<&str> = r.addrlist.iter().map(|p| p.text.as_str()).collect();
    assert_eq!(texts, vec!["10.0.0.1", "10.0.1.*"]);
    // A DESCR with a quote doubled, as MQSC writes it.
    let (p, a) = set(
        "SET CHLAUTH('X') TYPE(ADDRESSMAP) ADDRESS('*') USERSRC(CHANNEL) DESCR('Bob''s (test) rule')",
    );
    assert_eq!(
        rule(&p, &a, 1).unwrap().descr.as_deref(),
        Some("Bob's (test) rule")
    );
}

#[test]
fn rule_never_panics_on_junk() {
    let junk = [
        "",
        "(",
        ")",
        "'",
        "''",
        "*",
        ",,,",
        "'a','",
        "1.2.3.4.5.6",
        "::::",
        "-",
        "*-*",
        "\u{0}",
        "ÿÿ",
    ];
    let keys = [
        "TYPE", "ADDRESS", "ADDRLIST", "USERLIST", "SSLPEER", "USERSRC", "QMNAME", "WARN",
        "MCAUSER", "X",
    ];
    for profile in junk {
        for key in keys {
            for value in junk {
                for kind in [
                    "BLOCKADDR",
                    "BLOCKUSER",
                    "ADDRESSMAP",
                    "USERMAP",
                    "SSLPEERMAP",
                    "QMGRMAP",
                ] {
                    let attrs = vec![
                        ("TYPE".to_string(), kind.to_string()),
                        (key.to_string(), value.to_string()),
                    ];
                    if let Ok(r) = rule(profile, &attrs, 0) {
                        let a = active(profile, value).with_address(value);
                        let v = run_check(std::slice::from_ref(&r), &a);
                        let _ = fix(&[r], &a, &v);
                    }
                }
            }
        }
    }
}

#[test]
fn active_values_parse() {
    let a = active("'PSB.SRV.APP.01'", "'CLNTUSER(jochen)'").with_address("10.176.172.212");
    assert_eq!(a.channel, "PSB.SRV.APP.01");
    assert_eq!(a.clntuser.as_deref(), Some("jochen"));
    assert_eq!(a.address.as_deref(), Some("10.176.172.212"));
    let a = active("DEV.APP.SVRCONN", "MCAUSER(app) CLNTUSER(michael)");
    assert_eq!(
        (a.mcauser.as_deref(), a.clntuser.as_deref()),
        (Some("app"), Some("michael"))
    );
    let a = active(
        "X",
        "SSLPEER(CN=a (b),O=c) SSLCERTI(CN=ca) QMNAME(QM1) ADDRESS(10.1.2.3) FOO(bar) junk ",
    );
    assert_eq!(a.sslpeer.as_deref(), Some("CN=a (b),O=c"));
    assert_eq!(a.sslcerti.as_deref(), Some("CN=ca"));
    assert_eq!(a.qmname.as_deref(), Some("QM1"));
    assert_eq!(a.address.as_deref(), Some("10.1.2.3"));
    assert_eq!(a.other, vec![("FOO".to_string(), "bar".to_string())]);
    // Unbalanced or empty: no panic, nothing invented.
    let a = active("X", "CLNTUSER(");
    assert_eq!(a.clntuser, None);
    let a = active("X", "CLNTUSER()");
    assert_eq!(a.clntuser, None);
    // APAR text (https://www.ibm.com/support/pages/node/4706301): the
    // address insert 'abc (xxx.xxx.xxx.xxx)', the values with ADDRESS(abc),
    // the host name.
    let a = active("A.TO.B", "'CLNTUSER(xyz) ADDRESS(abc)'").with_address("abc (192.0.2.1)");
    assert_eq!(
        (
            a.clntuser.as_deref(),
            a.host.as_deref(),
            a.address.as_deref()
        ),
        (Some("xyz"), Some("abc"), Some("192.0.2.1"))
    );
    // Address inserts.
    let a = Active::default().with_address("'_gateway (172.17.0.1)'");
    assert_eq!(
        (a.host.as_deref(), a.address.as_deref()),
        (Some("_gateway"), Some("172.17.0.1"))
    );
    let a = Active::default().with_address("10.0.0.1(1414)");
    assert_eq!((a.host, a.address.as_deref()), (None, Some("10.0.0.1")));
    let a = Active::default().with_address("client.example.com");
    assert_eq!(
        (a.host.as_deref(), a.address),
        (Some("client.example.com"), None)
    );
}

#[test]
fn fix_for_a_back_stop_adds_a_narrow_record_that_works() {
    let c = &CASES
        .iter()
        .find(|c| c.source.starts_with("AMQ9777E"))
        .unwrap();
    let (rules, a, v) = verdict_of(c);
    let f = fix(&rules, &a, &v).expect("a fix");
    assert_eq!(
        f,
        "SET CHLAUTH('PSB.SRV.APP.01') TYPE(ADDRESSMAP) ADDRESS('10.176.172.212') USERSRC(CHANNEL) ACTION(ADD)"
    );
    // The suggestion, read back as a record, lets the connection in.
    let (p, at) = set(&f);
    let mut next = rules.clone();
    next.push(rule(&p, &at, 99).unwrap());
    assert!(!run_check(&next, &a).blocked());
}

#[test]
fn fix_for_noaccess_on_the_same_key_replaces() {
    let lines =
        ["SET CHLAUTH('APP.SVRCONN') TYPE(ADDRESSMAP) ADDRESS('10.0.0.1') USERSRC(NOACCESS)"];
    let rules = records(&lines, false);
    let a = active("APP.SVRCONN", "CLNTUSER(bob)").with_address("10.0.0.1");
    let v = run_check(&rules, &a);
    assert_eq!(
        fix(&rules, &a, &v).as_deref(),
        Some(
            "SET CHLAUTH('APP.SVRCONN') TYPE(ADDRESSMAP) ADDRESS('10.0.0.1') USERSRC(CHANNEL) ACTION(REPLACE)"
        )
    );
}

#[test]
fn fix_for_a_user_block_when_an_address_record_cannot_win() {
    // A USERMAP NOACCESS outranks any ADDRESSMAP of the same profile: the
    // fix must be a USERMAP.
    let lines = ["SET CHLAUTH('APP.SVRCONN') TYPE(USERMAP) CLNTUSER('bob') USERSRC(NOACCESS)"];
    let rules = records(&lines, false);
    let a = active("APP.SVRCONN", "CLNTUSER(bob)").with_address("10.0.0.1");
    let v = run_check(&rules, &a);
    assert_eq!(
        fix(&rules, &a, &v).as_deref(),
        Some(
            "SET CHLAUTH('APP.SVRCONN') TYPE(USERMAP) CLNTUSER('bob') ADDRESS('10.0.0.1') USERSRC(CHANNEL) ACTION(ADD)"
        )
    );
}

#[test]
fn fix_for_blockuser() {
    // An explicit entry: the list without it.
    let lines = ["SET CHLAUTH('*') TYPE(BLOCKUSER) USERLIST('bob','eve')"];
    let rules = records(&lines, false);
    let a = active("APP.SVRCONN", "CLNTUSER(bob)").with_address("10.0.0.1");
    let v = run_check(&rules, &a);
    assert_eq!(
        fix(&rules, &a, &v).as_deref(),
        Some("SET CHLAUTH('*') TYPE(BLOCKUSER) USERLIST('eve') ACTION(REPLACE)")
    );
    // *MQADMIN by default: IBM's per-channel override.
    let rules = defaults();
    let a = active("APP.SVRCONN", "CLNTUSER(mqm)").with_address("10.0.0.1");
    let v = run_check(&rules, &a);
    assert_eq!(
        fix(&rules, &a, &v).as_deref(),
        Some("SET CHLAUTH('APP.SVRCONN') TYPE(BLOCKUSER) USERLIST('nobody') ACTION(ADD)")
    );
}

#[test]
fn no_fix_for_what_is_allowed_or_unfixable() {
    let rules = defaults();
    let a = active("SYSTEM.ADMIN.SVRCONN", "CLNTUSER(alice)").with_address("10.0.0.1");
    let v = run_check(&rules, &a);
    assert_eq!(fix(&rules, &a, &v), None);
    // Blocked by NOACCESS with nothing known to map on.
    let a = active("SYSTEM.DEF.SVRCONN", "");
    let v = run_check(&rules, &a);
    assert!(v.blocked());
    assert_eq!(fix(&rules, &a, &v), None);
}

#[test]
fn defaults_are_the_three_documented_records() {
    let d = defaults();
    assert_eq!(d.len(), 3);
    assert!(d.iter().all(|r| r.assumed));
    assert_eq!(
        (d[0].profile.as_str(), d[0].kind, d[0].userlist.as_slice()),
        ("*", RuleType::BlockUser, &["*MQADMIN".to_string()][..])
    );
    assert_eq!(
        (d[1].profile.as_str(), d[1].kind, d[1].usersrc),
        ("SYSTEM.*", RuleType::AddressMap, Some(UserSrc::NoAccess))
    );
    assert_eq!(
        (d[2].profile.as_str(), d[2].kind, d[2].usersrc),
        (
            "SYSTEM.ADMIN.SVRCONN",
            RuleType::AddressMap,
            Some(UserSrc::Channel)
        )
    );
}

#[test]
fn listed_asserted_user_under_a_mapping_is_reported_not_blocked() {
    let lines = [
        "SET CHLAUTH('*') TYPE(BLOCKUSER) USERLIST('bob')",
        "SET CHLAUTH('APP.SVRCONN') TYPE(USERMAP) CLNTUSER('bob') USERSRC(MAP) MCAUSER('app')",
    ];
    let (rules, v) = check_one(&lines, false, "APP.SVRCONN", "CLNTUSER(bob)", "10.0.0.1");
    assert_eq!(summary(&rules, &v), "map:app@2");
    assert!(
        v.reason.contains("lists the client's user 'bob'"),
        "{}",
        v.reason
    );
}

#[test]
fn mqsc_of_a_rule_reads_back_as_the_same_rule() {
    let mut lines: Vec<&str> = CASES.iter().flat_map(|c| c.lines.iter().copied()).collect();
    lines.extend([
        "SET CHLAUTH('*') TYPE(BLOCKADDR) ADDRLIST('10.1.1.1-20','192.0.2.*') WARN(YES)",
        "SET CHLAUTH('X') TYPE(ADDRESSMAP) ADDRESS('*') USERSRC(CHANNEL) DESCR('Bob''s rule')",
    ]);
    for line in lines {
        let (p, a) = set(line);
        let r = rule(&p, &a, 1).unwrap();
        let text = r.mqsc();
        let (p2, a2) = set(&text);
        assert_eq!(rule(&p2, &a2, 1).unwrap(), r, "{line} -> {text}");
    }
    let d = &defaults()[1];
    assert_eq!(
        d.mqsc(),
        "SET CHLAUTH('SYSTEM.*') TYPE(ADDRESSMAP) ADDRESS('*') USERSRC(NOACCESS) WARN(NO) ACTION(REPLACE)"
    );
}
