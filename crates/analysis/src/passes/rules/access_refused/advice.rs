//! What an `access-refused` finding says: the commands to look further
//! (CHLAUTH, CONNAUTH, OAM, RACF) with the evidence's values filled in,
//! and the words and counts of its title.

use super::*;

pub(super) fn quoted(v: Option<&str>, placeholder: &str) -> String {
    match v {
        Some(v) => format!("'{v}'"),
        None => format!("'<{placeholder}>'"),
    }
}

/// `dspmqaut -t` for an object type as AMQ8077 writes it.
pub(super) fn oam_type(t: Option<&str>) -> &'static str {
    match t.map(str::to_ascii_lowercase).as_deref() {
        Some("queue") | Some("q") => "q",
        Some("qmgr") => "qmgr",
        Some("topic") => "topic",
        Some("channel") => "chl",
        Some("process") => "prcs",
        Some("namelist") => "nl",
        _ => "<type>",
    }
}

/// The commands that show the rule or check, filled from the evidence.
pub(super) fn advice(mech: Mechanism, f: &Facts, permissions: &BTreeSet<String>) -> String {
    let qm = f.qmgr.as_deref().unwrap_or("<qmgr>");
    let chl = quoted(f.channel.as_deref(), "channel");
    let addr = quoted(f.end(), "client address");
    let user = quoted(f.user.as_deref(), "client user id");
    let runcheck =
        format!("DISPLAY CHLAUTH({chl}) MATCH(RUNCHECK) ADDRESS({addr}) CLNTUSER({user})");
    match mech {
        Mechanism::Chlauth => format!(
            "A channel authentication record refused the channel{}. In runmqsc {qm}: `{runcheck}` \
             shows the record that matches these values, and `DISPLAY CHLAUTH({chl}) ALL` every \
             record of the channel. Change or remove the record (SET CHLAUTH ... ACTION(REMOVE)), \
             map the client to an allowed MCAUSER (TYPE(USERMAP), ADDRESSMAP), or stop the client \
             if the block is intended; `ALTER QMGR CHLAUTH` switches the records on and off.",
            f.check
                .as_deref()
                .map(|c| format!(" ({c})"))
                .unwrap_or_default()
        ),
        Mechanism::Connauth => format!(
            "Connection authentication refused the connection{}. In runmqsc {qm}: `DISPLAY QMGR \
             CONNAUTH` names the AUTHINFO object; `DISPLAY AUTHINFO(<that name>) ALL` shows \
             CHCKCLNT, CHCKLOCL and ADOPTCTX{}. The application must send a valid user id and \
             password (MQCSP; for Java and JMS clients without compatibility mode), or the check \
             relaxed; after a change, `REFRESH SECURITY TYPE(CONNAUTH)`.",
            f.check
                .as_deref()
                .map(|c| format!(" ({c})"))
                .unwrap_or_default(),
            if f.channel.is_some() {
                format!(
                    "; `{runcheck}` shows a CHLAUTH record that overrides CHCKCLNT for this channel"
                )
            } else {
                String::new()
            }
        ),
        Mechanism::Userid => format!(
            "The queue manager could not set up the user id {user} the connection would run under{}: \
             check that it exists on the queue manager's host (`id {}` on UNIX; at most 12 \
             characters for the OAM), is not a privileged user a CHLAUTH record blocks, and which \
             user id the client asserts or sends in MQCSP (ADOPTCTX in `DISPLAY QMGR CONNAUTH` \
             and the AUTHINFO object); in runmqsc {qm}: `{runcheck}`.",
            f.reason
                .as_deref()
                .map(|r| format!(" (reason {r})"))
                .unwrap_or_default(),
            f.user.as_deref().unwrap_or("<user>")
        ),
        Mechanism::Authority if f.racf => racf_advice(f),
        Mechanism::Authority => {
            let obj = f.object.as_deref().unwrap_or("<object>");
            let t = oam_type(f.object_type.as_deref());
            let u = f.user.as_deref().unwrap_or("<user>");
            let perms: Vec<String> = permissions.iter().map(|p| format!("+{p}")).collect();
            let perms = if perms.is_empty() {
                "+<authority>".to_string()
            } else {
                perms.join(" ")
            };
            format!(
                "The object authority manager refused {} on '{obj}' to '{u}'. Show what it \
                 holds: `dspmqaut -m {qm} -n '{obj}' -t {t} -p {u}` (or in runmqsc `DISPLAY \
                 AUTHREC PROFILE('{obj}') PRINCIPAL('{u}')`); grant what the application needs, \
                 to a group rather than the user: `setmqaut -m {qm} -n '{obj}' -t {t} -g <group> \
                 {perms}`.",
                if permissions.is_empty() {
                    "an operation".to_string()
                } else {
                    permissions.iter().cloned().collect::<Vec<_>>().join(", ")
                },
            )
        }
        Mechanism::Unknown => format!(
            "Only the application's side is in the capture. Read the queue manager's error log \
             (AMQERR01.LOG) at the same time: AMQ9777 names a CHLAUTH block, AMQ5534/AMQ5540 a \
             connection-authentication failure, AMQ9557 a user id that could not be set up, \
             AMQ8077 a missing authority. In runmqsc on the queue manager: `{runcheck}` and \
             `DISPLAY QMGR CONNAUTH`; for 2035 on MQOPEN, MQPUT or MQGET, `dspmqaut` for the \
             application's user id on the object."
        ),
    }
}

/// The RACF commands for a profile ICH408I names, filled from the record.
pub(super) fn racf_advice(f: &Facts) -> String {
    let prof = f.object.as_deref().unwrap_or("<profile>");
    let class = f.object_type.as_deref().unwrap_or("<class>");
    let user = f.user.as_deref().unwrap_or("<user>");
    let intent = f.intent.as_deref().unwrap_or("<access>");
    let qm = f.qmgr.as_deref().unwrap_or("<qmgr>");
    let grant = format!(
        "grant what the application needs, to a group rather than the user: `PERMIT {prof} \
         CLASS({class}) ID({user}) ACCESS({intent})`, then `SETROPTS RACLIST({class}) REFRESH` \
         and `REFRESH SECURITY({class})` on queue manager {qm}."
    );
    let missing = f
        .check
        .as_deref()
        .is_some_and(|c| c.contains("PROFILE NOT FOUND"));
    let mut out = format!(
        "RACF refused {intent} access to profile {prof} in class {class} for user {user}{}. \
         Show the profile that protects it and its access list: `RLIST {class} {prof} \
         AUTHUSER` (TSO). ",
        f.check
            .as_deref()
            .map(|c| format!(" ({c})"))
            .unwrap_or_default()
    );
    if missing {
        out.push_str(&format!(
            "No profile covers it: define one (`RDEFINE {class} {prof} UACC(NONE)`), then {grant}"
        ));
    } else {
        out.push('G');
        out.push_str(&grant[1..]);
    }
    if f.user.is_none() {
        // The JOB(...) STEP(...) form: the queue manager's own job name.
        out.push_str(&format!(
            " A job name in place of the user is a blank alternate user id: who may use one \
             is in profile {qm}.ALTERNATE.USER.-BLANK- of class MQADMIN."
        ));
    }
    out
}

pub(super) fn mech_words(m: Mechanism) -> &'static str {
    match m {
        Mechanism::Chlauth => "CHLAUTH blocked",
        Mechanism::Connauth => "Connection authentication failed",
        Mechanism::Userid => "User id could not be initialised",
        Mechanism::Authority => "Not authorised",
        Mechanism::Unknown => "Refused",
    }
}

pub(super) fn times(n: u64) -> String {
    if n == 1 {
        "once".to_string()
    } else {
        format!("{} times", mqdiag_model::findings::thousands(n))
    }
}

pub(super) fn counts<K: std::fmt::Display>(m: &BTreeMap<K, u64>) -> String {
    let mut v: Vec<(&K, &u64)> = m.iter().collect();
    v.sort_by(|a, b| b.1.cmp(a.1));
    v.iter()
        .map(|(k, n)| format!("{k} x{n}"))
        .collect::<Vec<_>>()
        .join(", ")
}

pub(super) fn reason_text(reasons: &BTreeMap<u32, u64>) -> String {
    let top = reasons
        .iter()
        .max_by_key(|(_, n)| **n)
        .map(|(r, _)| *r)
        .unwrap_or(2035);
    match mqrc::name(top) {
        Some(n) => format!("{top} {n}"),
        None => top.to_string(),
    }
}

pub(super) fn verbs_text(verbs: &BTreeMap<&'static str, u64>) -> String {
    if verbs.is_empty() {
        return "an MQI call".to_string();
    }
    verbs.keys().copied().collect::<Vec<_>>().join("/")
}
