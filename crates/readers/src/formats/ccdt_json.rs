//! The JSON client channel definition table (MQ 9.1.2 and later; IBM
//! documentation, "Configuring a JSON format CCDT"): a `channel` array,
//! each entry a client channel with `name`, `type`, `clientConnection`
//! (`connection` hosts and ports, `queueManager`), `transmissionSecurity`
//! (`cipherSpecification`, `certificatePeerName`, `certificateLabel`) and
//! `connectionManagement` (`sharingConversations`, `heartbeatInterval`,
//! ...).
//!
//! Each channel is a configuration fact, told in MQSC's words
//! (`CHLTYPE(CLNTCONN) CONNAME(host(1414)) QMNAME(QM1) SSLCIPH(...)`) so
//! the rules compare it with the queue manager's definitions, at the line
//! of its `name`. The file is parsed whole, so it is read up to a cap.

use super::line_source::{FileCtx, LineFormat, Standalone};
use crate::input::Input;
use crate::lines::LineMeta;
use mqdiag_model::config::{ConfigFile, Item, Scope};
use mqdiag_model::event::Format;
use mqdiag_model::problem::{ProblemCode, Severity};
use mqdiag_model::text::{decode_line, looks_like_text};
use serde_json::Value;
use std::sync::Arc;

/// JSON CCDTs: configuration, no events.
pub static FORMAT: Format = Format::of(&mqdiag_model::event::FormatInfo {
    name: "ccdt-json",
    family: mqdiag_model::event::FormatFamily::Config,
    states_local_time: false,
    dataset: "ibmmq.config",
    host_is_writer: false,
});

/// Largest CCDT parsed: thousands of channels fit in a few MB.
const MAX_BYTES: usize = 8 << 20;

/// JSON fields and the MQSC keywords they are (IBM's CCDT attribute
/// table), by their path inside a channel entry.
const FIELDS: &[(&[&str], &str)] = &[
    (&["clientConnection", "queueManager"], "QMNAME"),
    (&["transmissionSecurity", "cipherSpecification"], "SSLCIPH"),
    (&["transmissionSecurity", "certificatePeerName"], "SSLPEER"),
    (&["transmissionSecurity", "certificateLabel"], "CERTLABL"),
    (
        &["connectionManagement", "sharingConversations"],
        "SHARECNV",
    ),
    (&["connectionManagement", "heartbeatInterval"], "HBINT"),
    (&["connectionManagement", "keepAliveInterval"], "KAINT"),
    (&["connectionManagement", "clientWeight"], "CLNTWGHT"),
    (&["connectionManagement", "affinity"], "AFFINITY"),
    (&["general", "maximumMessageLength"], "MAXMSGL"),
    (&["description"], "DESCR"),
];

fn scalar(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// One channel entry in MQSC's words; `None` without a name.
fn channel(v: &Value) -> Option<(String, Vec<(String, String)>)> {
    let name = v.get("name")?.as_str()?.to_string();
    let mut attrs = Vec::new();
    let kind = match v.get("type").and_then(Value::as_str) {
        Some("clientConnection") | None => "CLNTCONN".to_string(),
        Some(other) => other.to_string(),
    };
    attrs.push(("CHLTYPE".to_string(), kind));
    if let Some(conns) = v
        .pointer("/clientConnection/connection")
        .and_then(Value::as_array)
    {
        let list: Vec<String> = conns
            .iter()
            .filter_map(|c| {
                let host = c.get("host").and_then(scalar)?;
                Some(match c.get("port").and_then(scalar) {
                    Some(p) => format!("{host}({p})"),
                    None => host,
                })
            })
            .collect();
        if !list.is_empty() {
            attrs.push(("CONNAME".to_string(), list.join(",")));
        }
    }
    for (path, key) in FIELDS {
        let mut at = v;
        let mut found = true;
        for p in *path {
            match at.get(p) {
                Some(n) => at = n,
                None => {
                    found = false;
                    break;
                }
            }
        }
        if found && let Some(s) = scalar(at) {
            attrs.push((key.to_string(), s));
        }
    }
    Some((name, attrs))
}

/// The format's specifics: `LineReader<CcdtJson>` is its reader.
pub(crate) struct CcdtJson;

#[derive(Default)]
pub(crate) struct CcdtFile {
    text: String,
    /// Lines that hold `"name"`: where each channel is said.
    names: Vec<(u64, String)>,
    over: bool,
}

impl Standalone for CcdtJson {
    const FORMAT: Format = FORMAT;
    const FUZZ: super::Fuzz = super::Fuzz {
        target: "ccdt_json",
        names: &["ccdt.json"],
    };
    const SNIFF_CEILING: u8 = 90;

    fn sniff(_name: &str, head: &[u8]) -> u8 {
        if head.is_empty() || !looks_like_text(head) {
            return 0;
        }
        let text = mqdiag_model::text::utf8_lossy(head);
        let t = text.trim_start_matches('\u{feff}').trim_start();
        if t.starts_with('{')
            && t.contains("\"channel\"")
            && (t.contains("\"clientConnection\"") || t.contains("\"transmissionSecurity\""))
        {
            90
        } else {
            0
        }
    }

    fn new(_: super::Prepared) -> CcdtJson {
        CcdtJson
    }
}

impl LineFormat for CcdtJson {
    type File = CcdtFile;

    fn open_file(&mut self, _input: &Input, _ctx: &mut FileCtx) -> CcdtFile {
        CcdtFile::default()
    }

    fn line(&mut self, f: &mut CcdtFile, _ctx: &mut FileCtx, meta: LineMeta, bytes: &[u8]) {
        if f.over {
            return;
        }
        let text = decode_line(bytes).0;
        if f.text.len() + text.len() > MAX_BYTES {
            f.over = true;
            return;
        }
        if let Some(i) = text.find("\"name\"") {
            let rest = text[i + 6..]
                .trim_start()
                .trim_start_matches(':')
                .trim_start();
            if let Some(v) = rest.strip_prefix('"').and_then(|r| r.split('"').next()) {
                f.names.push((meta.no, v.to_string()));
            }
        }
        f.text.push_str(&text);
        f.text.push('\n');
    }

    fn finish_file(&mut self, f: CcdtFile, ctx: &mut FileCtx) {
        let mut config = ConfigFile::new(Scope::Client, "JSON CCDT");
        if f.over {
            ctx.info.problem(
                ProblemCode::BadLine,
                None,
                Severity::Warning,
                1,
                format!("a CCDT larger than {} MB is not read", MAX_BYTES >> 20),
            );
        } else {
            // A string escape that is no character (`\ud800`) is replaced
            // by U+FFFD: the channels are read, and the line says so.
            let parsed = super::flat_json::from_str_repairing::<Value>(&f.text);
            if let Ok((_, Some(r))) = &parsed {
                ctx.info.problem(
                    ProblemCode::Encoding,
                    Some(r.line_in(&f.text, 1)),
                    Severity::Warning,
                    0,
                    r.message(),
                );
            }
            match parsed.map(|(v, _)| v) {
                Err(e) => ctx.info.problem(
                    ProblemCode::BadLine,
                    Some(e.line() as u64),
                    Severity::Warning,
                    1,
                    format!("not valid JSON: {e}"),
                ),
                Ok(v) => {
                    let mut from = 0;
                    for c in v
                        .get("channel")
                        .and_then(Value::as_array)
                        .map(Vec::as_slice)
                        .unwrap_or_default()
                    {
                        let Some((name, attrs)) = channel(c) else {
                            continue;
                        };
                        let at = f.names[from..].iter().position(|(_, n)| *n == name);
                        let line = match at {
                            Some(k) => {
                                from += k + 1;
                                f.names[from - 1].0
                            }
                            None => 1,
                        };
                        let text = format!(
                            "CHANNEL('{name}') {}",
                            attrs
                                .iter()
                                .map(|(k, v)| format!("{k}({v})"))
                                .collect::<Vec<_>>()
                                .join(" ")
                        );
                        config.push(
                            line,
                            &text,
                            Item::Command {
                                verb: "DEFINE".to_string(),
                                object: "CHANNEL".to_string(),
                                name,
                                attrs,
                            },
                        );
                    }
                }
            }
        }
        ctx.info.variant = Some(format!("{} client channel(s)", config.facts.len()));
        ctx.info.config = Some(Arc::new(config));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::line_source::LineReader;
    use crate::testkit;

    const CCDT: &str = r#"{
  "channel": [
    {
      "name": "QM1.APP",
      "clientConnection": {
        "connection": [ { "host": "mq1.example.com", "port": 1414 }, { "host": "mq2.example.com", "port": 1414 } ],
        "queueManager": "QM1"
      },
      "transmissionSecurity": { "cipherSpecification": "ANY_TLS12_OR_HIGHER" },
      "connectionManagement": { "sharingConversations": 0 },
      "type": "clientConnection"
    }
  ]
}
"#;

    #[test]
    fn channels_in_mqsc_words() {
        assert_eq!(CcdtJson::sniff("ccdt.json", CCDT.as_bytes()), 90);
        assert_eq!(CcdtJson::sniff("x.json", b"{\"loglevel\":\"INFO\"}"), 0);
        let reader = LineReader::<CcdtJson>::new();
        let (_, infos) = testkit::read(&reader, "ccdt.json", CCDT, &Default::default());
        let c = infos[0].config.as_ref().unwrap();
        assert_eq!(c.scope, Scope::Client);
        assert_eq!(c.facts.len(), 1);
        let f = &c.facts[0];
        assert_eq!(f.line, 4);
        assert_eq!(
            f.item.attr("CONNAME"),
            Some("mq1.example.com(1414),mq2.example.com(1414)")
        );
        assert_eq!(f.item.attr("SSLCIPH"), Some("ANY_TLS12_OR_HIGHER"));
        assert_eq!(f.item.attr("SHARECNV"), Some("0"));
        let (_, infos) =
            testkit::read(&reader, "ccdt.json", "{\"channel\": [", &Default::default());
        assert_eq!(infos[0].problem_count, 1);
    }
}
