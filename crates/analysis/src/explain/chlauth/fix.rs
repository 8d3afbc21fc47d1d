//! The narrow fix `fix` suggests (advice, never run): a record that lets
//! the refused connection in, checked by replaying the rules with it.

use super::*;

fn attrs(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs
        .iter()
        .map(|(k, v)| ((*k).to_string(), (*v).to_string()))
        .collect()
}

/// A candidate fix: the MQSC command, and the rule list as it would be.
struct Candidate {
    mqsc: String,
    rules: Vec<Rule>,
}

/// A record's identity for ACTION(ADD) versus REPLACE: MQ refuses ADD for
/// an existing record (RC3337 MQRCCF_CHLAUTH_ALREADY_EXISTS).
fn same_key(a: &Rule, b: &Rule) -> bool {
    a.profile == b.profile
        && a.kind == b.kind
        && a.address.as_ref().map(|p| &p.text) == b.address.as_ref().map(|p| &p.text)
        && a.clntuser == b.clntuser
        && a.sslpeer == b.sslpeer
        && a.qmname == b.qmname
}

/// A new mapping record letting the connection in, ADD or REPLACE.
fn allow(rules: &[Rule], channel: &str, kind: &str, pairs: &[(&str, &str)]) -> Option<Candidate> {
    let mut all = vec![("TYPE", kind)];
    all.extend_from_slice(pairs);
    all.push(("USERSRC", "CHANNEL"));
    let new = rule(channel, &attrs(&all), 0).ok()?;
    let mut next = rules.to_vec();
    let action = match next.iter().position(|r| same_key(r, &new)) {
        Some(i) => {
            next[i] = new;
            "REPLACE"
        }
        None => {
            next.push(new);
            "ADD"
        }
    };
    let mut mqsc = format!("SET CHLAUTH({}) TYPE({kind})", q(channel));
    for (k, v) in pairs {
        let _ = write!(mqsc, " {k}({})", q(v));
    }
    let _ = write!(mqsc, " USERSRC(CHANNEL) ACTION({action})");
    Some(Candidate { mqsc, rules: next })
}

/// A narrow fix to suggest as advice (never run): the one MQSC command
/// that lets this connection in and changes as little as possible, checked
/// by running `run_check` again with it. For a NOACCESS record: a record
/// for this channel and this address (or client user, peer DN, partner
/// queue manager) with USERSRC(CHANNEL). For BLOCKUSER: the list without
/// that user; for `*MQADMIN`, IBM's per-channel override
/// (`USERLIST('nobody')` on this channel), which lets privileged users in
/// on that channel and should be weighed as such. For BLOCKADDR: the list
/// without the entry. `None` when the connection is not refused or no
/// narrow command would let it in.
pub(crate) fn fix(rules: &[Rule], active: &Active, verdict: &Verdict) -> Option<String> {
    let i = verdict.rule?;
    let r = rules.get(i)?;
    let channel = active.channel.as_str();
    let mut candidates: Vec<Candidate> = Vec::new();
    match &verdict.outcome {
        Outcome::BlockedAddress => {
            let ip = active.ip();
            let keep: Vec<&AddressPattern> = r
                .addrlist
                .iter()
                .filter(|p| !p.matches(ip, active.host.as_deref()))
                .collect();
            let mut next = rules.to_vec();
            let mqsc = if keep.is_empty() {
                let list: Vec<String> = r.addrlist.iter().map(|p| q(&p.text)).collect();
                next.remove(i);
                format!(
                    "SET CHLAUTH('*') TYPE(BLOCKADDR) ADDRLIST({}) ACTION(REMOVE)",
                    list.join(",")
                )
            } else {
                let list: Vec<String> = keep.iter().map(|p| q(&p.text)).collect();
                next[i].addrlist = keep.into_iter().cloned().collect();
                format!(
                    "SET CHLAUTH('*') TYPE(BLOCKADDR) ADDRLIST({}) ACTION(REPLACE)",
                    list.join(",")
                )
            };
            candidates.push(Candidate { mqsc, rules: next });
        }
        Outcome::BlockedUser { user, mqadmin } => {
            let keep: Vec<String> = r
                .userlist
                .iter()
                .filter(|u| {
                    if *mqadmin {
                        !u.eq_ignore_ascii_case("*MQADMIN")
                    } else {
                        *u != user
                    }
                })
                .cloned()
                .collect();
            if r.profile == channel || !keep.is_empty() && !r.assumed {
                // Edit this record's list; an empty list becomes IBM's
                // placeholder 'nobody', which keeps the record overriding
                // less specific ones.
                let list = if keep.is_empty() {
                    vec!["nobody".to_string()]
                } else {
                    keep
                };
                let mut next = rules.to_vec();
                next[i].userlist = list.clone();
                let shown: Vec<String> = list.iter().map(|u| q(u)).collect();
                candidates.push(Candidate {
                    mqsc: format!(
                        "SET CHLAUTH({}) TYPE(BLOCKUSER) USERLIST({}) ACTION(REPLACE)",
                        q(&r.profile),
                        shown.join(",")
                    ),
                    rules: next,
                });
            }
            // A record for this channel alone overrides the generic one.
            let new = rule(
                channel,
                &attrs(&[("TYPE", "BLOCKUSER"), ("USERLIST", "nobody")]),
                0,
            )
            .ok()?;
            let mut next = rules.to_vec();
            let action = match next
                .iter()
                .position(|x| x.kind == RuleType::BlockUser && x.profile == channel)
            {
                Some(j) => {
                    next[j] = new;
                    "REPLACE"
                }
                None => {
                    next.push(new);
                    "ADD"
                }
            };
            candidates.push(Candidate {
                mqsc: format!(
                    "SET CHLAUTH({}) TYPE(BLOCKUSER) USERLIST('nobody') ACTION({action})",
                    q(channel)
                ),
                rules: next,
            });
        }
        Outcome::NoAccess => {
            if let Some(a) = active.address.as_deref().filter(|a| Ip::parse(a).is_some()) {
                candidates.extend(allow(rules, channel, "ADDRESSMAP", &[("ADDRESS", a)]));
            }
            if let Some(u) = active.clntuser.as_deref() {
                let mut pairs = vec![("CLNTUSER", u)];
                if let Some(a) = active.address.as_deref() {
                    pairs.push(("ADDRESS", a));
                }
                candidates.extend(allow(rules, channel, "USERMAP", &pairs));
            }
            if let Some(dn) = active.sslpeer.as_deref() {
                candidates.extend(allow(rules, channel, "SSLPEERMAP", &[("SSLPEER", dn)]));
            }
            if let Some(qm) = active.qmname.as_deref() {
                candidates.extend(allow(rules, channel, "QMGRMAP", &[("QMNAME", qm)]));
            }
        }
        _ => return None,
    }
    candidates
        .into_iter()
        .find(|c| !run_check(&c.rules, active).blocked())
        .map(|c| c.mqsc)
}
