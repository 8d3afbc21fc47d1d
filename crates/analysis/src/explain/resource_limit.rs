//! `resource-limit` findings told with the setting that sets the limit:
//! `MaxChannels`/`MaxActiveChannels` (qm.ini `Channels:`; IBM "Channels
//! stanza of the qm.ini file": both default to 100 on Multiplatforms, and
//! `MaxActiveChannels` to `MaxChannels`), a server-connection channel's
//! `MAXINST`/`MAXINSTC`, a queue's `MAXDEPTH`, the queue manager's `DEADQ`,
//! `MAXHANDS`, `MAXUMSGS`, and the `Log:` stanza's file counts.

use super::{Cited, ConfigSet, Explained};
use mqdiag_model::findings::{Finding, Metric};

fn str_metric<'a>(f: &'a Finding, name: &str) -> Option<&'a str> {
    match f.metrics.get(name) {
        Some(Metric::Str(s)) if !s.is_empty() => Some(s),
        _ => None,
    }
}

/// Cite `c` and set the metrics that name it.
fn cite(e: &mut Explained, c: &Cited, shown: &str) {
    e.cite(c);
    e.metric("configured", Metric::Str(shown.to_string()));
    e.metric(
        "configured_at",
        Metric::Str(format!("{}:{}", c.path, c.fact.line)),
    );
}

pub(crate) fn explain(f: &mut Finding, set: &ConfigSet) {
    let Some(limit) = str_metric(f, "limit").map(str::to_string) else {
        return;
    };
    let qm = set.qmgr_of(f);
    let qm = qm.as_deref();
    let object = str_metric(f, "object")
        .map(str::to_string)
        .or_else(|| f.subject.channel.clone())
        .or_else(|| f.subject.queue.clone());
    let mut e = Explained::new(f);
    match limit.as_str() {
        "max-channels" => {
            let max = set.setting(qm, "Channels", "MaxChannels");
            let active = set.setting(qm, "Channels", "MaxActiveChannels");
            let zos = set.object_attr(qm, &["QMGR"], None, "MAXCHL");
            let mut said = Vec::new();
            for c in [max, active].into_iter().flatten() {
                e.cite(&c);
                said.push(format!("{} sets {}", c.at(), c.fact.text));
            }
            if let Some((c, v)) = zos {
                e.cite(&c);
                said.push(format!("{} sets MAXCHL({v})", c.at()));
            }
            match (max, active) {
                (Some(m), _) => {
                    let shown = m.fact.text.clone();
                    cite(&mut e, &m, &shown);
                }
                (None, Some(a)) => {
                    let shown = a.fact.text.clone();
                    cite(&mut e, &a, &shown);
                }
                (None, None) if zos.is_none() && set.has_source(qm, "qm.ini") => {
                    e.metric(
                        "configured",
                        Metric::Str("MaxChannels not set (default 100)".into()),
                    );
                    said.push(
                        "its qm.ini sets neither MaxChannels nor MaxActiveChannels in a `Channels:` stanza, so the default of 100 channels applies"
                            .to_string(),
                    );
                }
                _ => {}
            }
            if !said.is_empty() {
                let who = qm.map(|q| format!("for {q}, ")).unwrap_or_default();
                e.say(format!("{who}{}.", said.join("; ")));
            }
        }
        "max-instances" => {
            let Some(ch) = object.or_else(|| e.finding().subject.channel.clone()) else {
                return;
            };
            if !set.has_definitions(qm) {
                if !set.knows(qm) {
                    return;
                }
                e.metric(
                    "missing_configuration",
                    Metric::Str("MQSC definitions".into()),
                );
                e.say(format!(
                    "it holds no MQSC definitions of {}, so channel '{ch}''s MAXINST and MAXINSTC cannot be shown: collect them with `runmqras -section defs`.",
                    qm.unwrap_or("the queue manager")
                ));
                return;
            }
            let defs = set.object(qm, &["CHANNEL"], Some(&ch));
            let inst = set.object_attr(qm, &["CHANNEL"], Some(&ch), "MAXINST");
            let instc = set.object_attr(qm, &["CHANNEL"], Some(&ch), "MAXINSTC");
            let mut said = Vec::new();
            for (c, v, k) in [
                inst.map(|(c, v)| (c, v, "MAXINST")),
                instc.map(|(c, v)| (c, v, "MAXINSTC")),
            ]
            .into_iter()
            .flatten()
            {
                cite(&mut e, &c, &format!("{k}({v})"));
                said.push(format!("{k}({v})"));
            }
            match (said.is_empty(), defs.first()) {
                (false, Some(d)) => e.say(format!(
                    "Channel '{ch}' is defined at {} with {}: {}.",
                    d.at(),
                    said.join(" and "),
                    "MAXINST caps its instances from all clients, MAXINSTC those from one client address"
                )),
                (true, Some(d)) => {
                    e.cite(d);
                    e.say(format!(
                        "Channel '{ch}' is defined at {} without MAXINST or MAXINSTC (both default to 999999999): the limit reached is not the channel's.",
                        d.at()
                    ));
                }
                _ => {}
            }
        }
        "queue-full" | "dead-letter" => {
            let mut said = Vec::new();
            if let Some(q) = &object
                && let Some((c, v)) =
                    set.object_attr(qm, &["QLOCAL", "QMODEL"], Some(q), "MAXDEPTH")
            {
                cite(&mut e, &c, &format!("MAXDEPTH({v})"));
                said.push(format!("queue '{q}' has MAXDEPTH({v}) at {}", c.at()));
            }
            if limit == "dead-letter" {
                match set.object_attr(qm, &["QMGR"], None, "DEADQ") {
                    Some((c, v)) if !v.trim().is_empty() => {
                        e.cite(&c);
                        e.metric("dead_letter_queue_name", Metric::Str(v.to_string()));
                        said.push(format!(
                            "the queue manager's dead-letter queue is DEADQ('{v}') at {}",
                            c.at()
                        ));
                        if let Some((d, depth)) =
                            set.object_attr(qm, &["QLOCAL"], Some(v), "MAXDEPTH")
                        {
                            e.cite(&d);
                            said.push(format!(
                                "it holds at most MAXDEPTH({depth}) messages ({})",
                                d.at()
                            ));
                        }
                    }
                    Some((c, _)) => {
                        e.cite(&c);
                        said.push(format!(
                            "the queue manager has no dead-letter queue (DEADQ is blank at {})",
                            c.at()
                        ));
                    }
                    None => {}
                }
            }
            if !said.is_empty() {
                e.say(format!("{}.", said.join("; ")));
            }
        }
        "queue-depth-high" => {
            // The event carries the depth, not the threshold: the
            // definition has it, as a percentage of MAXDEPTH.
            let Some(q) = &object else { return };
            let hi = set.object_attr(qm, &["QLOCAL", "QMODEL"], Some(q), "QDEPTHHI");
            let max = set.object_attr(qm, &["QLOCAL", "QMODEL"], Some(q), "MAXDEPTH");
            let mut shown = Vec::new();
            for (c, v, k) in [
                hi.as_ref().map(|(c, v)| (c, v, "QDEPTHHI")),
                max.as_ref().map(|(c, v)| (c, v, "MAXDEPTH")),
            ]
            .into_iter()
            .flatten()
            {
                e.cite(c);
                shown.push(format!("{k}({v})"));
            }
            if shown.is_empty() {
                return;
            }
            e.metric("configured", Metric::Str(shown.join(" ")));
            let at = hi
                .as_ref()
                .or(max.as_ref())
                .map(|(c, _)| c.at())
                .unwrap_or_default();
            let pct = hi.as_ref().and_then(|(_, v)| v.trim().parse::<u64>().ok());
            let depth = max.as_ref().and_then(|(_, v)| v.trim().parse::<u64>().ok());
            match (pct, depth) {
                (Some(p), Some(d)) => e.say(format!(
                    "Queue '{q}' is defined at {at} with {}: Queue Depth High fires at {p}% of {d}, {} messages.",
                    shown.join(" and "),
                    d * p / 100
                )),
                _ => e.say(format!(
                    "Queue '{q}' is defined at {at} with {} (QDEPTHHI is a percentage of MAXDEPTH; they default to 80 and 5000).",
                    shown.join(" and ")
                )),
            }
        }
        "log-full" => {
            let mut said = Vec::new();
            for k in [
                "LogPrimaryFiles",
                "LogSecondaryFiles",
                "LogFilePages",
                "LogType",
            ] {
                if let Some(c) = set.setting(qm, "Log", k) {
                    e.cite(&c);
                    said.push(c.fact.text.clone());
                }
            }
            if !said.is_empty() {
                e.metric("configured", Metric::Str(said.join(", ")));
                e.say(format!(
                    "Its qm.ini `Log:` stanza sets {}: the active log holds at most primary plus secondary files of LogFilePages 4 KB pages.",
                    said.join(", ")
                ));
            }
        }
        "handles" | "uncommitted-messages" => {
            let key = if limit == "handles" {
                "MAXHANDS"
            } else {
                "MAXUMSGS"
            };
            if let Some((c, v)) = set.object_attr(qm, &["QMGR"], None, key) {
                cite(&mut e, &c, &format!("{key}({v})"));
                e.say(format!("The queue manager has {key}({v}) at {}.", c.at()));
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::*;
    use super::*;
    use mqdiag_model::config::Scope;
    use mqdiag_model::problem::Severity;

    fn finding(limit: &str, object: Option<&str>) -> Finding {
        let mut f = Finding::new("resource-limit", Severity::Error, "x");
        f.metrics.set("limit", Metric::Str(limit.into()));
        f.metrics.set("object", Metric::opt_str(object));
        f.advice = "Raise the limit.".into();
        f
    }

    #[test]
    fn max_channels_cites_the_channels_stanza() {
        let inputs = vec![config_input(
            "case/qmgrs/QM1/qm.ini",
            Scope::Qmgr("QM1".into()),
            &[
                (
                    12,
                    "MaxChannels=200",
                    setting("Channels", "MaxChannels", "200"),
                ),
                (
                    13,
                    "MaxActiveChannels=100",
                    setting("Channels", "MaxActiveChannels", "100"),
                ),
            ],
        )];
        let set = ConfigSet::from_inputs(&inputs);
        let mut f = finding("max-channels", Some("QM1"));
        explain(&mut f, &set);
        assert_eq!(f.evidence.len(), 2);
        assert_eq!(
            (f.evidence[0].path.as_str(), f.evidence[0].line),
            ("case/qmgrs/QM1/qm.ini", 12)
        );
        assert_eq!(
            f.metrics.get("configured"),
            Some(&Metric::Str("MaxChannels=200".into()))
        );
        assert_eq!(
            f.metrics.get("configured_at"),
            Some(&Metric::Str("case/qmgrs/QM1/qm.ini:12".into()))
        );
        assert!(
            f.advice.contains("for QM1, qm.ini line 12 sets MaxChannels=200; qm.ini line 13 sets MaxActiveChannels=100."),
            "{}",
            f.advice
        );
    }

    #[test]
    fn instances_and_depths_from_definitions() {
        let inputs = vec![config_input(
            "defs.mqsc",
            Scope::Qmgr("QM1".into()),
            &[
                (
                    5,
                    "DEFINE CHANNEL('APP.SVRCONN') CHLTYPE(SVRCONN) MAXINSTC(5)",
                    command(
                        "DEFINE",
                        "CHANNEL",
                        "APP.SVRCONN",
                        &[("CHLTYPE", "SVRCONN"), ("MAXINSTC", "5")],
                    ),
                ),
                (
                    9,
                    "ALTER QMGR DEADQ(' ')",
                    command("ALTER", "QMGR", "", &[("DEADQ", " ")]),
                ),
                (
                    11,
                    "DEFINE QLOCAL('APP.Q') MAXDEPTH(5000)",
                    command("DEFINE", "QLOCAL", "APP.Q", &[("MAXDEPTH", "5000")]),
                ),
                (
                    12,
                    "DEFINE QLOCAL('B.Q') MAXDEPTH(2000) QDEPTHHI(75)",
                    command(
                        "DEFINE",
                        "QLOCAL",
                        "B.Q",
                        &[("MAXDEPTH", "2000"), ("QDEPTHHI", "75")],
                    ),
                ),
            ],
        )];
        let set = ConfigSet::from_inputs(&inputs);
        let mut f = finding("max-instances", Some("APP.SVRCONN"));
        explain(&mut f, &set);
        assert_eq!(
            f.metrics.get("configured"),
            Some(&Metric::Str("MAXINSTC(5)".into()))
        );
        assert!(
            f.advice
                .contains("defined at defs.mqsc line 5 with MAXINSTC(5)"),
            "{}",
            f.advice
        );
        let mut f = finding("dead-letter", Some("APP.Q"));
        explain(&mut f, &set);
        assert!(
            f.advice.contains("queue 'APP.Q' has MAXDEPTH(5000)"),
            "{}",
            f.advice
        );
        assert!(f.advice.contains("no dead-letter queue"), "{}", f.advice);
        let mut f = finding("queue-depth-high", Some("APP.Q"));
        explain(&mut f, &set);
        assert!(
            f.advice.contains(
                "Queue 'APP.Q' is defined at defs.mqsc line 11 with MAXDEPTH(5000) (QDEPTHHI is a percentage"
            ),
            "{}",
            f.advice
        );
        let mut f = finding("queue-depth-high", Some("B.Q"));
        explain(&mut f, &set);
        assert!(
            f.advice.contains("QDEPTHHI(75) and MAXDEPTH(2000): Queue Depth High fires at 75% of 2000, 1500 messages."),
            "{}",
            f.advice
        );
        assert_eq!(
            f.metrics.get("configured"),
            Some(&Metric::Str("QDEPTHHI(75) MAXDEPTH(2000)".into()))
        );
        // Nothing known: nothing said.
        let mut f = finding("storage", None);
        explain(&mut f, &set);
        assert_eq!(f.advice, "Raise the limit.");
        assert!(f.evidence.is_empty());
    }
}
