//! `socket-buffer-size` findings told with what the configuration asked
//! for: the `TCP:` stanza of qm.ini (IBM "TCP stanza of the qm.ini file":
//! `SndBuffSize`/`RcvBuffSize` for the sending end of channels,
//! `RcvSndBuffSize`/`RcvRcvBuffSize` for the receiving end,
//! `SvrSndBuffSize`/`SvrRcvBuffSize` for server-connection channels) and
//! of mqclient.ini (`ClntSndBuffSize`/`ClntRcvBuffSize`, the client end),
//! beside what the operating system gave.

use super::{ConfigSet, Explained};
use mqdiag_model::findings::{Finding, Metric};

/// The keys that set this end's buffers, by the side the finding names.
fn keys(side: &str) -> &'static [&'static str] {
    match side {
        "sender" => &["SndBuffSize", "RcvBuffSize"],
        "receiver" => &["RcvSndBuffSize", "RcvRcvBuffSize"],
        _ => &[
            "SndBuffSize",
            "RcvBuffSize",
            "RcvSndBuffSize",
            "RcvRcvBuffSize",
            "SvrSndBuffSize",
            "SvrRcvBuffSize",
        ],
    }
}

pub(crate) fn explain(f: &mut Finding, set: &ConfigSet) {
    let side = match f.metrics.get("side") {
        Some(Metric::Str(s)) => s.clone(),
        _ => String::new(),
    };
    let qm = set.qmgr_of(f);
    let mut asked = Vec::new();
    let mut cited = Vec::new();
    for k in keys(&side) {
        if let Some(c) = set.setting(qm.as_deref(), "TCP", k) {
            asked.push(format!("{} ({})", c.fact.text, c.at()));
            cited.push(c);
        }
    }
    for c in set.client_facts_for(f) {
        if let mqdiag_model::config::Item::Setting { stanza, key, .. } = &c.fact.item
            && stanza.eq_ignore_ascii_case("TCP")
            && (key.eq_ignore_ascii_case("ClntSndBuffSize")
                || key.eq_ignore_ascii_case("ClntRcvBuffSize"))
        {
            asked.push(format!("{} ({})", c.fact.text, c.at()));
            cited.push(c);
        }
    }
    if asked.is_empty() {
        if set.has_source(qm.as_deref(), "qm.ini") {
            let mut e = Explained::new(f);
            e.metric("configured", Metric::Str("no TCP buffer keys".into()));
            e.say(format!(
                "The queue manager's qm.ini sets none of {} in a `TCP:` stanza: MQ asked for its defaults, so the small buffer is MQ's default or the operating system's limit.",
                keys(&side).join(", ")
            ));
        }
        return;
    }
    let mut e = Explained::new(f);
    for c in &cited {
        e.cite(c);
    }
    e.metric("configured", Metric::Str(asked.join(", ")));
    e.say(format!(
        "{} is what MQ was told to ask for: the requested sizes above come from it, the final ones are what the operating system granted (0 leaves the choice to the operating system).",
        asked.join(", ")
    ));
}

#[cfg(test)]
mod tests {
    use super::super::testutil::*;
    use super::*;
    use mqdiag_model::config::Scope;
    use mqdiag_model::problem::Severity;

    #[test]
    fn the_tcp_stanza_of_the_sending_end() {
        let inputs = vec![
            config_input(
                "qmgrs/QM1/qm.ini",
                Scope::Qmgr("QM1".into()),
                &[
                    (
                        20,
                        "SndBuffSize=2048",
                        setting("TCP", "SndBuffSize", "2048"),
                    ),
                    (
                        21,
                        "RcvRcvBuffSize=0",
                        setting("TCP", "RcvRcvBuffSize", "0"),
                    ),
                ],
            ),
            config_input(
                "mqclient.ini",
                Scope::Client,
                &[(
                    4,
                    "ClntSndBuffSize=32768",
                    setting("TCP", "ClntSndBuffSize", "32768"),
                )],
            ),
        ];
        let set = ConfigSet::from_inputs(&inputs);
        let mut f = Finding::new("socket-buffer-size", Severity::Warning, "x");
        f.metrics.set("side", Metric::Str("sender".into()));
        f.subject.program = Some("amqsputc".into());
        f.evidence.push(mqdiag_model::findings::Evidence {
            path: "trace/AMQ1.0.FMT".into(),
            line: 9,
            text: String::new(),
            offset: None,
        });
        let mut channel = f.clone();
        explain(&mut f, &set);
        assert_eq!(
            f.metrics.get("configured"),
            Some(&Metric::Str(
                "SndBuffSize=2048 (qm.ini line 20), ClntSndBuffSize=32768 (mqclient.ini line 4)"
                    .into()
            ))
        );
        assert_eq!(f.evidence.len(), 3);
        // A channel process is not a client: mqclient.ini is not its.
        channel.subject.program = Some("amqrmppa".into());
        explain(&mut channel, &set);
        assert_eq!(
            channel.metrics.get("configured"),
            Some(&Metric::Str("SndBuffSize=2048 (qm.ini line 20)".into()))
        );
        let mut f = Finding::new("socket-buffer-size", Severity::Warning, "x");
        f.metrics.set("side", Metric::Str("receiver".into()));
        explain(&mut f, &set);
        assert!(
            f.advice.contains("RcvRcvBuffSize=0 (qm.ini line 21)"),
            "{}",
            f.advice
        );
    }
}
