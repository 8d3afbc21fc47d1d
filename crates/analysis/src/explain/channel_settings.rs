//! Findings about one channel told with its definition: `tls-error` with
//! the cipher specs of both ends (`SSLCIPH` must match on the two
//! definitions of a channel; IBM "SSLCIPH") and the peer name filter
//! (`SSLPEER`); `connection-churn` of a channel that stops and starts with
//! its disconnect and heartbeat intervals (`DISCINT`, `HBINT`, `KAINT`)
//! and, for client channels, `SHARECNV`.

use super::{Cited, ConfigSet, Explained};
use mqdiag_model::findings::{Finding, Metric};

/// The channel a finding is about.
fn channel(f: &Finding) -> Option<String> {
    f.subject
        .channel
        .clone()
        .or_else(|| match f.metrics.get("channel") {
            Some(Metric::Str(s)) if !s.is_empty() => Some(s.clone()),
            _ => None,
        })
}

/// Where a definition is and of which queue manager (or client).
fn whose(c: &Cited) -> String {
    format!("{} ({})", c.at(), c.file.scope.describe())
}

pub(crate) fn explain_tls(f: &mut Finding, set: &ConfigSet) {
    let Some(ch) = channel(f) else {
        return;
    };
    let defs = set.channel_everywhere(&ch);
    if defs.is_empty() {
        return;
    }
    // The last value of each definition file (an ALTER after a DEFINE).
    let mut ends: Vec<(Cited, Option<&str>, Option<&str>)> = Vec::new();
    for c in &defs {
        let ciph = c.attr("SSLCIPH");
        let peer = c.attr("SSLPEER");
        match ends.iter_mut().find(|(d, _, _)| d.path == c.path) {
            Some(slot) => {
                slot.0 = *c;
                slot.1 = ciph.or(slot.1);
                slot.2 = peer.or(slot.2);
            }
            None => ends.push((*c, ciph, peer)),
        }
    }
    let mut e = Explained::new(f);
    let mut said = Vec::new();
    for (c, ciph, peer) in &ends {
        e.cite(c);
        let mut s = format!(
            "{} defines '{ch}' with SSLCIPH({})",
            whose(c),
            ciph.unwrap_or("").trim()
        );
        if let Some(p) = peer.filter(|p| !p.trim().is_empty()) {
            s.push_str(&format!(" SSLPEER('{p}')"));
        }
        said.push(s);
    }
    let ciphers: Vec<&str> = ends
        .iter()
        .map(|(_, c, _)| c.unwrap_or("").trim())
        .collect();
    e.metric("sslciph", Metric::Str(ciphers.join(" / ")));
    let mut text = format!("{}.", said.join("; "));
    if ends.len() >= 2 {
        let mut distinct = ciphers.clone();
        distinct.sort();
        distinct.dedup();
        if distinct.len() > 1 {
            e.metric("sslciph_mismatch", Metric::Str("true".into()));
            text.push_str(
                " The two ends name different cipher specs: that mismatch is the cause; give both definitions the same SSLCIPH (or ANY_TLS12_OR_HIGHER on both) and restart the channel.",
            );
        }
    } else if ciphers.first().is_some_and(|c| c.is_empty()) {
        text.push_str(
            " This end has no cipher spec: the other end expects TLS, or the other way round.",
        );
    }
    e.say(text);
}

pub(crate) fn explain_churn(f: &mut Finding, set: &ConfigSet) {
    let Some(ch) = channel(f) else {
        return;
    };
    let defs = set.channel_everywhere(&ch);
    let Some(last) = defs.last().copied() else {
        return;
    };
    let mut shown = Vec::new();
    for k in ["CHLTYPE", "DISCINT", "HBINT", "KAINT", "SHARECNV"] {
        if let Some(v) = defs.iter().rev().find_map(|c| c.attr(k)) {
            shown.push(format!("{k}({v})"));
        }
    }
    if shown.is_empty() {
        return;
    }
    let mut e = Explained::new(f);
    for c in defs.iter().take(2) {
        e.cite(c);
    }
    e.metric("channel_settings", Metric::Str(shown.join(" ")));
    let mut text = format!(
        "Channel '{ch}' is defined at {} with {}.",
        whose(&last),
        shown.join(" ")
    );
    let discint = defs
        .iter()
        .rev()
        .find_map(|c| c.attr("DISCINT"))
        .and_then(|v| v.trim().parse::<u64>().ok());
    if let Some(d) = discint.filter(|d| *d > 0 && *d < 300) {
        text.push_str(&format!(
            " A DISCINT of {d} s ends the channel after {d} s without messages, and the next message starts it again: raise it (or set 0) if messages arrive in bursts further apart."
        ));
    }
    e.say(text);
}

#[cfg(test)]
mod tests {
    use super::super::testutil::*;
    use super::*;
    use mqdiag_model::config::Scope;
    use mqdiag_model::problem::Severity;

    #[test]
    fn both_ends_cipher_specs_and_a_mismatch() {
        let inputs = vec![
            config_input(
                "qm1.mqsc",
                Scope::Qmgr("QM1".into()),
                &[(
                    3,
                    "DEFINE CHANNEL('QM1.TO.QM2') CHLTYPE(SDR) SSLCIPH(TLS_RSA_WITH_AES_128_CBC_SHA256) DISCINT(60)",
                    command(
                        "DEFINE",
                        "CHANNEL",
                        "QM1.TO.QM2",
                        &[
                            ("CHLTYPE", "SDR"),
                            ("SSLCIPH", "TLS_RSA_WITH_AES_128_CBC_SHA256"),
                            ("DISCINT", "60"),
                        ],
                    ),
                )],
            ),
            config_input(
                "qm2.mqsc",
                Scope::Qmgr("QM2".into()),
                &[(
                    8,
                    "DEFINE CHANNEL('QM1.TO.QM2') CHLTYPE(RCVR) SSLCIPH(TLS_AES_256_GCM_SHA384)",
                    command(
                        "DEFINE",
                        "CHANNEL",
                        "QM1.TO.QM2",
                        &[("CHLTYPE", "RCVR"), ("SSLCIPH", "TLS_AES_256_GCM_SHA384")],
                    ),
                )],
            ),
        ];
        let set = ConfigSet::from_inputs(&inputs);
        let mut f = Finding::new("tls-error", Severity::Error, "x");
        f.subject.channel = Some("QM1.TO.QM2".into());
        explain_tls(&mut f, &set);
        assert_eq!(f.evidence.len(), 2);
        assert_eq!(
            f.metrics.get("sslciph_mismatch"),
            Some(&Metric::Str("true".into()))
        );
        assert!(f.advice.contains("qm1.mqsc line 3 (queue manager QM1) defines 'QM1.TO.QM2' with SSLCIPH(TLS_RSA_WITH_AES_128_CBC_SHA256)"), "{}", f.advice);
        let mut f = Finding::new("connection-churn", Severity::Warning, "x");
        f.subject.channel = Some("QM1.TO.QM2".into());
        explain_churn(&mut f, &set);
        assert!(f.advice.contains("A DISCINT of 60 s"), "{}", f.advice);
        // A channel nobody defined: nothing said.
        let mut f = Finding::new("tls-error", Severity::Error, "x");
        f.subject.channel = Some("OTHER".into());
        explain_tls(&mut f, &set);
        assert!(f.evidence.is_empty() && f.advice.is_empty());
    }
}
