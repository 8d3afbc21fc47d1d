//! `access-refused` findings told with the configuration that refused:
//! the CHLAUTH record that matched (replayed offline, `chlauth`), the
//! connection-authentication settings (`ALTER QMGR CONNAUTH(...)` and its
//! `AUTHINFO` object: `AUTHTYPE`, `CHCKCLNT`, `CHCKLOCL`, `ADOPTCTX`; IBM
//! "DEFINE AUTHINFO"), and the authority records (`SET AUTHREC`) of the
//! principal and object an OAM refusal names. The fix is filled in as
//! advice, never run. When the case holds a queue manager's files but
//! not its MQSC definitions, the finding says which collection would.

use super::{Cited, ConfigSet, Explained};
use mqdiag_model::config::Item;
use mqdiag_model::findings::{Finding, Metric};

fn str_metric(f: &Finding, name: &str) -> Option<String> {
    match f.metrics.get(name) {
        Some(Metric::Str(s)) if !s.is_empty() => Some(s.clone()),
        _ => None,
    }
}

pub(crate) fn explain(f: &mut Finding, set: &ConfigSet) {
    let Some(mech) = str_metric(f, "mechanism") else {
        return;
    };
    let qm = set.qmgr_of(f);
    let qm = qm.as_deref();
    if !matches!(mech.as_str(), "chlauth" | "connauth" | "authority") {
        return;
    }
    if !set.has_definitions(qm) {
        // Another queue manager's collection says nothing of this one.
        if !set.knows(qm) {
            return;
        }
        let who = qm.unwrap_or("the queue manager");
        let what = match mech.as_str() {
            "chlauth" => "the CHLAUTH rule that blocked it",
            "connauth" => "the CONNAUTH setting and AUTHINFO object that checked it",
            _ => "the authority records that apply",
        };
        let mut e = Explained::new(f);
        e.metric(
            "missing_configuration",
            Metric::Str("MQSC definitions".into()),
        );
        e.say(format!(
            "it holds no MQSC definitions of {who}, so {what} cannot be shown: collect them with `runmqras -section defs` (or `dmpmqcfg -m {who} -a`) and run mqdiag again."
        ));
        return;
    }
    match mech.as_str() {
        "chlauth" => chlauth(f, set, qm),
        "connauth" => connauth(f, set, qm),
        _ => authority(f, set, qm),
    }
}

/// The CHLAUTH records of `qmgr`, in the order written, with where.
fn chlauth_rules<'a>(set: &ConfigSet<'a>, qm: Option<&str>) -> Vec<Cited<'a>> {
    set.facts(qm)
        .filter(|c| matches!(&c.fact.item, Item::Command { verb, object, .. } if (verb == "SET" || verb == "DISPLAY") && object == "CHLAUTH"))
        .collect()
}

/// Replay the case's CHLAUTH records with the values the refusal printed
/// (an offline `DISPLAY CHLAUTH ... MATCH(RUNCHECK)`): the record that
/// decided, why it won, and a narrower record to consider.
fn chlauth(f: &mut Finding, set: &ConfigSet, qm: Option<&str>) {
    use super::chlauth::{self, Outcome};
    let Some(channel) = str_metric(f, "channel").or_else(|| f.subject.channel.clone()) else {
        return;
    };
    let values = str_metric(f, "matched_values").unwrap_or_default();
    let mut active = chlauth::active(&channel, &values);
    if active.address.is_none()
        && let Some(a) = str_metric(f, "address")
    {
        active = active.with_address(&a);
    }
    if active.clntuser.is_none() {
        active.clntuser = str_metric(f, "user");
    }
    let cited = chlauth_rules(set, qm);
    // Records carry their file line (the verdict's reason names it);
    // `from` maps each back to its fact.
    let mut rules = Vec::new();
    let mut from = Vec::new();
    let mut unreadable = 0;
    for (i, c) in cited.iter().enumerate() {
        if let Item::Command { name, attrs, .. } = &c.fact.item {
            match chlauth::rule(name, attrs, c.fact.line as usize) {
                Ok(r) => {
                    rules.push(r);
                    from.push(i);
                }
                Err(_) => unreadable += 1,
            }
        }
    }
    let assumed = rules.is_empty();
    if assumed {
        rules = chlauth::defaults();
    }
    let verdict = chlauth::run_check(&rules, &active);
    let mut e = Explained::new(f);
    let mut text = Vec::new();
    let decided = verdict.rule.and_then(|i| Some((rules.get(i)?, i)));
    match decided {
        Some((r, i)) if !r.assumed => {
            let c = &cited[from[i]];
            e.cite(c);
            e.metric("chlauth_rule", Metric::Str(c.fact.text.clone()));
            e.metric(
                "chlauth_rule_at",
                Metric::Str(format!("{}:{}", c.path, c.fact.line)),
            );
            text.push(format!(
                "replaying the {} CHLAUTH records of {} with the refused values, the record at {} decides: {}",
                cited.len(),
                qm.unwrap_or("the queue manager"),
                c.at(),
                verdict.reason
            ));
        }
        Some((r, _)) => {
            e.metric("chlauth_rule", Metric::Str(r.mqsc()));
            text.push(format!(
                "the case holds no CHLAUTH records of {}; with MQ's default records, {}",
                qm.unwrap_or("the queue manager"),
                verdict.reason
            ));
        }
        None => text.push(format!(
            "replaying the {} CHLAUTH records of the case with the refused values gives: {}",
            cited.len(),
            verdict.reason
        )),
    }
    if !verdict.blocked() && !matches!(verdict.outcome, Outcome::Undecided) {
        text.push(
            "these records do not refuse the values the log printed: the definitions were changed after the refusal, or belong to another queue manager"
                .to_string(),
        );
    }
    for w in &verdict.warned {
        if rules.get(*w).is_some_and(|r| !r.assumed) {
            text.push(format!(
                "the WARN(YES) record at {} would also have refused it",
                cited[from[*w]].at()
            ));
        }
    }
    if unreadable > 0 {
        text.push(format!(
            "{unreadable} CHLAUTH record(s) could not be read and were left out"
        ));
    }
    if verdict.blocked()
        && let Some(fix) = chlauth::fix(&rules, &active, &verdict)
    {
        e.metric("chlauth_fix", Metric::Str(fix.clone()));
        text.push(format!(
            "a narrower record to consider (mqdiag runs nothing): `{fix}`"
        ));
    }
    e.say(format!("{}.", text.join("; ")));
}

fn connauth(f: &mut Finding, set: &ConfigSet, qm: Option<&str>) {
    let mut e = Explained::new(f);
    let Some((q, name)) = set.object_attr(qm, &["QMGR"], None, "CONNAUTH") else {
        e.say("The queue manager's definitions set no CONNAUTH: connection authentication uses the default AUTHINFO object SYSTEM.DEFAULT.AUTHINFO.IDPWOS.".to_string());
        return;
    };
    e.cite(&q);
    let name = name.trim().to_string();
    if name.is_empty() {
        e.say(format!(
            "{} sets CONNAUTH(' '): connection authentication is off.",
            q.at()
        ));
        return;
    }
    let mut text = format!("{} sets CONNAUTH('{name}')", q.at());
    let defs = set.object(qm, &["AUTHINFO"], Some(&name));
    if let Some(d) = defs.last() {
        e.cite(d);
        let mut vals = Vec::new();
        for k in ["AUTHTYPE", "CHCKCLNT", "CHCKLOCL", "ADOPTCTX"] {
            if let Some(v) = defs.iter().rev().find_map(|c| c.attr(k)) {
                vals.push(format!("{k}({v})"));
            }
        }
        e.metric(
            "connauth",
            Metric::Str(format!("{name} {}", vals.join(" ")).trim().to_string()),
        );
        text.push_str(&format!(
            "; AUTHINFO('{name}') at {} has {}",
            d.at(),
            vals.join(" ")
        ));
        let chck = defs
            .iter()
            .rev()
            .find_map(|c| c.attr("CHCKCLNT"))
            .unwrap_or("");
        match chck {
            "REQDADM" => text.push_str(
                ". CHCKCLNT(REQDADM): a client that asserts a privileged user id (mqm, or a member of mqm) must give a valid password; others need none",
            ),
            "REQUIRED" => text.push_str(". CHCKCLNT(REQUIRED): every client must give a valid user id and password"),
            "OPTIONAL" => text.push_str(". CHCKCLNT(OPTIONAL): a password, when given, must be right"),
            _ => {}
        }
        if defs.iter().rev().find_map(|c| c.attr("ADOPTCTX")) == Some("NO") {
            text.push_str(". ADOPTCTX(NO): the checked user is not the one authority checks use");
        }
    } else {
        text.push_str(&format!(", and the definitions hold no AUTHINFO('{name}')"));
    }
    e.say(format!("{text}."));
}

fn authority(f: &mut Finding, set: &ConfigSet, qm: Option<&str>) {
    let user = str_metric(f, "user");
    let object = str_metric(f, "object").or_else(|| f.subject.queue.clone());
    let perms = str_metric(f, "permissions");
    let recs: Vec<Cited> = set
        .facts(qm)
        .filter(|c| matches!(&c.fact.item, Item::Command { verb, object, .. } if verb == "SET" && object == "AUTHREC"))
        .collect();
    let for_user: Vec<&Cited> = recs
        .iter()
        .filter(|c| {
            user.as_deref().is_some_and(|u| {
                c.attr("PRINCIPAL")
                    .is_some_and(|p| p.eq_ignore_ascii_case(u))
            })
        })
        .collect();
    let on_object: Vec<&Cited> = recs
        .iter()
        .filter(|c| {
            object
                .as_deref()
                .is_some_and(|o| profile_matches(c.attr("PROFILE").unwrap_or(""), o))
        })
        .collect();
    let mut e = Explained::new(f);
    let mut text = Vec::new();
    for c in for_user.iter().chain(on_object.iter()).take(3) {
        e.cite(c);
    }
    let describe = |c: &Cited| {
        format!(
            "{} grants {} on '{}' to {}",
            c.at(),
            c.attr("AUTHADD").unwrap_or("nothing"),
            c.attr("PROFILE").unwrap_or(""),
            c.attr("PRINCIPAL")
                .map(|p| format!("principal '{p}'"))
                .or_else(|| c.attr("GROUP").map(|g| format!("group '{g}'")))
                .unwrap_or_default()
        )
    };
    match (&user, for_user.is_empty()) {
        (Some(u), true) => text.push(format!(
            "no authority record names principal '{u}' (records by group may still apply)"
        )),
        (_, false) => text.extend(for_user.iter().map(|c| describe(c))),
        _ => {}
    }
    if let Some(o) = &object {
        if on_object.is_empty() {
            text.push(format!("no authority record covers '{o}'"));
        } else {
            text.extend(
                on_object
                    .iter()
                    .filter(|c| {
                        !for_user
                            .iter()
                            .any(|u| u.fact.line == c.fact.line && u.path == c.path)
                    })
                    .map(|c| describe(c)),
            );
        }
    }
    if text.is_empty() {
        return;
    }
    let mut s = format!("{}.", text.join("; "));
    if let (Some(o), Some(p)) = (&object, &perms) {
        let grant = p.replace(' ', "");
        let who = user.as_deref().unwrap_or("the user");
        let plus: Vec<String> = grant
            .split(',')
            .filter(|g| !g.is_empty())
            .map(|g| format!("+{}", g.to_ascii_lowercase()))
            .collect();
        s.push_str(&format!(
            " To grant what was refused (mqdiag runs nothing): `SET AUTHREC PROFILE('{o}') OBJTYPE(QUEUE) GROUP('<group of {who}>') AUTHADD({grant})`, or `setmqaut -m {} -n '{o}' -t queue -g <group of {who}> {}` (on Linux and UNIX authorities are held by groups).",
            qm.unwrap_or("<qmgr>"),
            plus.join(" ")
        ));
    }
    e.say(s);
}

/// Whether an OAM generic profile (`APP.*`, `APP.**`, `?`) covers `name`.
fn profile_matches(profile: &str, name: &str) -> bool {
    fn go(p: &[u8], n: &[u8]) -> bool {
        match (p.first(), n.first()) {
            (None, None) => true,
            (Some(b'*'), _) => {
                // `**` matches across qualifiers, `*` within one.
                let (rest, deep) = if p.get(1) == Some(&b'*') {
                    (&p[2..], true)
                } else {
                    (&p[1..], false)
                };
                (0..=n.len()).any(|k| (deep || !n[..k].contains(&b'.')) && go(rest, &n[k..]))
            }
            (Some(b'?'), Some(c)) if *c != b'.' => go(&p[1..], &n[1..]),
            (Some(a), Some(b)) if a == b => go(&p[1..], &n[1..]),
            _ => false,
        }
    }
    if profile.len() > 128 || name.len() > 128 {
        return profile == name;
    }
    go(profile.as_bytes(), name.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::super::testutil::*;
    use super::*;
    use mqdiag_model::config::Scope;
    use mqdiag_model::problem::Severity;

    fn refused(mech: &str) -> Finding {
        let mut f = Finding::new("access-refused", Severity::Error, "x");
        f.metrics.set("mechanism", Metric::Str(mech.into()));
        f.metrics.set("user", Metric::Str("app".into()));
        f.subject.qmgr = Some("QM1".into());
        f
    }

    #[test]
    fn connauth_cites_qmgr_and_authinfo() {
        let inputs = vec![config_input(
            "QM1.dmp",
            Scope::Qmgr("QM1".into()),
            &[
                (
                    7,
                    "ALTER QMGR CONNAUTH('USE.OS')",
                    command("ALTER", "QMGR", "", &[("CONNAUTH", "USE.OS")]),
                ),
                (
                    12,
                    "DEFINE AUTHINFO('USE.OS') AUTHTYPE(IDPWOS) CHCKCLNT(REQDADM) ADOPTCTX(YES)",
                    command(
                        "DEFINE",
                        "AUTHINFO",
                        "USE.OS",
                        &[
                            ("AUTHTYPE", "IDPWOS"),
                            ("CHCKCLNT", "REQDADM"),
                            ("ADOPTCTX", "YES"),
                        ],
                    ),
                ),
            ],
        )];
        let set = ConfigSet::from_inputs(&inputs);
        let mut f = refused("connauth");
        explain(&mut f, &set);
        assert_eq!(
            f.evidence.iter().map(|e| e.line).collect::<Vec<_>>(),
            vec![7, 12]
        );
        assert_eq!(
            f.metrics.get("connauth"),
            Some(&Metric::Str(
                "USE.OS AUTHTYPE(IDPWOS) CHCKCLNT(REQDADM) ADOPTCTX(YES)".into()
            ))
        );
        assert!(
            f.advice
                .contains("CHCKCLNT(REQDADM): a client that asserts a privileged user id"),
            "{}",
            f.advice
        );
    }

    /// runmqsc's `DISPLAY CHLAUTH` replies replay like a dump's records.
    #[test]
    fn chlauth_records_from_display_replies() {
        let inputs = vec![config_input(
            "dis.txt",
            Scope::Qmgr("QM1".into()),
            &[
                (
                    6,
                    "CHLAUTH(*) TYPE(ADDRESSMAP) ADDRESS(*) USERSRC(NOACCESS)",
                    command(
                        "DISPLAY",
                        "CHLAUTH",
                        "*",
                        &[
                            ("TYPE", "ADDRESSMAP"),
                            ("ADDRESS", "*"),
                            ("USERSRC", "NOACCESS"),
                            ("WARN", "NO"),
                        ],
                    ),
                ),
                (
                    9,
                    "CHLAUTH(APP.SVRCONN) TYPE(ADDRESSMAP) ADDRESS(10.1.*) USERSRC(CHANNEL)",
                    command(
                        "DISPLAY",
                        "CHLAUTH",
                        "APP.SVRCONN",
                        &[
                            ("TYPE", "ADDRESSMAP"),
                            ("ADDRESS", "10.1.*"),
                            ("USERSRC", "CHANNEL"),
                        ],
                    ),
                ),
            ],
        )];
        let set = ConfigSet::from_inputs(&inputs);
        let mut f = refused("chlauth");
        f.metrics.set("channel", Metric::Str("APP.SVRCONN".into()));
        f.metrics
            .set("matched_values", Metric::Str("ADDRESS(192.0.2.9)".into()));
        explain(&mut f, &set);
        assert_eq!(
            f.metrics.get("chlauth_rule_at"),
            Some(&Metric::Str("dis.txt:6".into())),
            "{}",
            f.advice
        );
        let mut f = refused("chlauth");
        f.metrics.set("channel", Metric::Str("APP.SVRCONN".into()));
        f.metrics
            .set("matched_values", Metric::Str("ADDRESS(10.1.2.3)".into()));
        explain(&mut f, &set);
        assert!(
            f.advice
                .contains("do not refuse the values the log printed"),
            "{}",
            f.advice
        );
    }

    #[test]
    fn without_definitions_the_collection_is_named() {
        let inputs = vec![config_input(
            "qmgrs/QM1/qm.ini",
            Scope::Qmgr("QM1".into()),
            &[(
                3,
                "MaxChannels=10",
                setting("Channels", "MaxChannels", "10"),
            )],
        )];
        let set = ConfigSet::from_inputs(&inputs);
        let mut f = refused("chlauth");
        explain(&mut f, &set);
        assert!(
            f.advice.contains("`runmqras -section defs`"),
            "{}",
            f.advice
        );
        // Not a mechanism configuration explains: nothing said.
        let mut f = refused("userid");
        explain(&mut f, &set);
        assert!(f.advice.is_empty());
        // Another queue manager's collection: nothing said of this one.
        let mut f = refused("chlauth");
        f.subject.qmgr = Some("QM2".into());
        explain(&mut f, &set);
        assert!(f.advice.is_empty(), "{}", f.advice);
    }

    #[test]
    fn authority_records_of_the_user_and_object() {
        let inputs = vec![config_input(
            "QM1.dmp",
            Scope::Qmgr("QM1".into()),
            &[(
                30,
                "SET AUTHREC PROFILE('APP.**') GROUP('apps') OBJTYPE(QUEUE) AUTHADD(GET,INQ)",
                command(
                    "SET",
                    "AUTHREC",
                    "APP.**",
                    &[
                        ("PROFILE", "APP.**"),
                        ("GROUP", "apps"),
                        ("OBJTYPE", "QUEUE"),
                        ("AUTHADD", "GET,INQ"),
                    ],
                ),
            )],
        )];
        let set = ConfigSet::from_inputs(&inputs);
        let mut f = refused("authority");
        f.metrics.set("object", Metric::Str("APP.IN.Q".into()));
        f.metrics.set("permissions", Metric::Str("put".into()));
        explain(&mut f, &set);
        assert!(
            f.advice
                .contains("no authority record names principal 'app'"),
            "{}",
            f.advice
        );
        assert!(
            f.advice
                .contains("grants GET,INQ on 'APP.**' to group 'apps'"),
            "{}",
            f.advice
        );
        assert!(f.advice.contains("AUTHADD(put)"), "{}", f.advice);
        assert!(
            f.advice
                .contains("`setmqaut -m QM1 -n 'APP.IN.Q' -t queue -g <group of app> +put`"),
            "{}",
            f.advice
        );
        assert!(profile_matches("APP.*", "APP.Q"));
        assert!(!profile_matches("APP.*", "APP.Q.X"));
        assert!(profile_matches("APP.**", "APP.Q.X"));
        assert!(profile_matches("A?P", "AXP"));
    }
}
