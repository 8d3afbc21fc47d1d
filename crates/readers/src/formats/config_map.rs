//! Kubernetes config maps that carry a queue manager's MQSC and INI
//! configuration, as IBM's container must-gather collects them
//! (`configmaps/<name>.yaml`; github.com/ibm-messaging/mq-container-inspector,
//! `docs/MustGatherUsage.md`) and as the MQ Operator's `QueueManager`
//! resource points to them (`spec.queueManager.mqsc` / `ini`):
//!
//! ```text
//! apiVersion: v1
//! kind: ConfigMap
//! metadata:
//!   name: qm1-mqsc
//! data:
//!   config.mqsc: |
//!     DEFINE QLOCAL('APP.Q') MAXDEPTH(5000) REPLACE
//!   qm.ini: |-
//!     Channels:
//!       MaxChannels=500
//! ```
//!
//! Only what config maps hold is read, not YAML at large: the `data:`
//! keys whose values are block scalars (`|`, `|-`, `|+`), each read by
//! the MQSC reader (keys ending `.mqsc`) or the stanza-file reader (keys
//! ending `.ini`), with the YAML file's own line numbers. Other keys are
//! counted in a reading note.

use super::line_source::{FileCtx, LineFormat, Standalone};
use super::mq_ini::IniLines;
use super::mqsc::MqscLines;
use crate::input::Input;
use crate::input::qmgr_of_path;
use crate::lines::LineMeta;
use mqdiag_model::config::{ConfigFile, Scope};
use mqdiag_model::event::Format;
use mqdiag_model::problem::{ProblemCode, Severity};
use mqdiag_model::text::{decode_line, looks_like_text};
use std::sync::Arc;

/// Config maps: configuration, no events.
pub static FORMAT: Format = Format::of(&mqdiag_model::event::FormatInfo {
    name: "config-map",
    family: mqdiag_model::event::FormatFamily::Config,
    states_local_time: false,
    dataset: "ibmmq.config",
    host_is_writer: false,
});

/// The block being read.
enum Block {
    Mqsc(MqscLines),
    Ini(IniLines),
    /// A block scalar of some other key: its lines are stepped over.
    Skip,
}

/// Where the reading is in the YAML.
pub(crate) struct MapFile {
    config: ConfigFile,
    /// Indentation of the `data:` key, once seen.
    data_indent: Option<usize>,
    /// The open block scalar: its key's indentation, its content's
    /// (decided by its first non-blank line), and its reader.
    block: Option<(usize, Option<usize>, Block)>,
    /// `metadata.name`.
    name: Option<String>,
    keys_read: Vec<String>,
    keys_skipped: Vec<String>,
    /// Lines inside `data:` that are no `key: value`.
    bad: u64,
    first_bad: Option<u64>,
    /// What the MQSC blocks said of themselves (the queue manager named
    /// in a dump's header), and their problems.
    qmgr: Option<String>,
    mqsc_bad: u64,
    first_mqsc_bad: Option<u64>,
    cut: Option<u64>,
}

fn indent(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

impl MapFile {
    fn new() -> MapFile {
        MapFile {
            config: ConfigFile::new(Scope::Unknown, "config map"),
            data_indent: None,
            block: None,
            name: None,
            keys_read: Vec::new(),
            keys_skipped: Vec::new(),
            bad: 0,
            first_bad: None,
            qmgr: None,
            mqsc_bad: 0,
            first_mqsc_bad: None,
            cut: None,
        }
    }

    fn line(&mut self, no: u64, line: &str) {
        let line = line.trim_end_matches('\r');
        let ind = indent(line);
        let blank = line.trim().is_empty();
        if let Some((key_ind, content, block)) = &mut self.block {
            if blank {
                return;
            }
            if ind > *key_ind {
                let c = *content.get_or_insert(ind);
                let text = line.get(c.min(ind)..).unwrap_or("");
                match block {
                    Block::Mqsc(m) => m.line(no, text, &mut self.config),
                    Block::Ini(i) => i.line(no, text, &mut self.config),
                    Block::Skip => {}
                }
                return;
            }
            self.close_block();
        }
        if blank || line.trim_start().starts_with('#') {
            return;
        }
        let t = line.trim();
        if ind == 0 {
            self.data_indent = (t == "data:").then_some(0);
            return;
        }
        if let Some(n) = t.strip_prefix("name:")
            && self.name.is_none()
            && self.data_indent.is_none()
        {
            self.name = Some(n.trim().trim_matches(['"', '\'']).to_string());
            return;
        }
        let Some(d) = self.data_indent else {
            return;
        };
        if ind <= d {
            return;
        }
        let Some((key, value)) = t.split_once(':') else {
            self.bad += 1;
            self.first_bad.get_or_insert(no);
            return;
        };
        let key = key.trim().trim_matches(['"', '\'']).to_string();
        let value = value.trim();
        let lower = key.to_ascii_lowercase();
        let is_block = value.starts_with('|') || value.starts_with('>');
        let block = match (is_block, lower.rsplit('.').next()) {
            (true, Some("mqsc")) => Block::Mqsc(MqscLines::default()),
            (true, Some("ini")) => Block::Ini(IniLines::default()),
            _ => {
                self.keys_skipped.push(key);
                if is_block {
                    self.block = Some((ind, None, Block::Skip));
                }
                return;
            }
        };
        self.keys_read.push(key);
        self.block = Some((ind, None, block));
    }

    fn close_block(&mut self) {
        let Some((_, _, block)) = self.block.take() else {
            return;
        };
        match block {
            Block::Mqsc(mut m) => {
                if let Some(no) = m.finish(&mut self.config) {
                    self.cut.get_or_insert(no);
                }
                self.mqsc_bad += m.bad;
                if let Some(f) = m.first_bad {
                    self.first_mqsc_bad.get_or_insert(f);
                }
                if self.qmgr.is_none() {
                    self.qmgr = m.qmgr;
                }
            }
            Block::Ini(i) => {
                self.mqsc_bad += i.bad;
                if let Some(f) = i.first_bad {
                    self.first_mqsc_bad.get_or_insert(f);
                }
            }
            Block::Skip => {}
        }
    }
}

/// The format's specifics: `LineReader<ConfigMap>` is its reader.
pub(crate) struct ConfigMap;

impl Standalone for ConfigMap {
    const FORMAT: Format = FORMAT;
    const FUZZ: super::Fuzz = super::Fuzz {
        target: "config_map",
        names: &["qm1-mqsc.yaml"],
    };
    /// As high as an MQSC script's (a map's blocks are MQSC): listed
    /// before it in `READERS`, the map wins the tie.
    const SNIFF_CEILING: u8 = 95;

    fn sniff(_name: &str, head: &[u8]) -> u8 {
        // Most files are not maps: a byte search says so before any line
        // is looked at.
        if memchr::memmem::find(head, b"kind: ConfigMap").is_none() || !looks_like_text(head) {
            return 0;
        }
        let text = mqdiag_model::text::utf8_lossy(head);
        let kind = text
            .lines()
            .take(40)
            .any(|l| l.trim_end() == "kind: ConfigMap");
        let data = text.lines().any(|l| l.trim_end() == "data:");
        if kind && data { 95 } else { 0 }
    }

    fn new(_: super::Prepared) -> ConfigMap {
        ConfigMap
    }
}

impl LineFormat for ConfigMap {
    type File = MapFile;

    fn open_file(&mut self, _input: &Input, _ctx: &mut FileCtx) -> MapFile {
        MapFile::new()
    }

    fn line(&mut self, f: &mut MapFile, _ctx: &mut FileCtx, meta: LineMeta, bytes: &[u8]) {
        let text = decode_line(bytes).0;
        f.line(meta.no, &text);
    }

    fn finish_file(&mut self, mut f: MapFile, ctx: &mut FileCtx) {
        f.close_block();
        let bad = f.bad + f.mqsc_bad;
        if bad > 0 {
            ctx.info.problem(
                ProblemCode::BadLine,
                f.first_bad.into_iter().chain(f.first_mqsc_bad).min(),
                Severity::Warning,
                bad,
                format!("{bad} line(s) of the config map's data could not be read as MQSC or INI: skipped"),
            );
        }
        if let Some(no) = f.cut {
            ctx.info.problem(
                ProblemCode::CutRecord,
                Some(no),
                Severity::Warning,
                1,
                "an MQSC block ends with a continuation: what it has is kept",
            );
        }
        let qmgr = f.qmgr.clone().or_else(|| qmgr_of_path(&ctx.info.path));
        f.config.scope = qmgr.clone().map_or(Scope::Unknown, Scope::Qmgr);
        f.config.source = match &f.name {
            Some(n) => format!("config map {n}"),
            None => "config map".to_string(),
        };
        ctx.info.variant = Some(if f.keys_read.is_empty() {
            "config map without MQSC or INI data".to_string()
        } else {
            format!("config map ({})", f.keys_read.join(", "))
        });
        if !f.keys_skipped.is_empty() {
            ctx.info.notes.push(format!(
                "data keys not read (neither .mqsc nor .ini): {}",
                f.keys_skipped.join(", ")
            ));
        }
        if ctx.info.qmgr.is_none() {
            ctx.info.qmgr = qmgr;
        }
        ctx.info.config = Some(Arc::new(f.config));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::line_source::LineReader;
    use crate::testkit;
    use mqdiag_model::config::Item;

    const MAP: &str = "\
apiVersion: v1
kind: ConfigMap
metadata:
  name: qm1-config
  namespace: mq
data:
  config.mqsc: |
    * Queue manager name: QM1
    DEFINE CHANNEL('APP.SVRCONN') CHLTYPE(SVRCONN) +
      MAXINSTC(5) REPLACE

    SET CHLAUTH('APP.SVRCONN') TYPE(ADDRESSMAP) ADDRESS('*') USERSRC(CHANNEL)
  qm.ini: |-
    Channels:
      MaxChannels=50
  README: plain
  other.sh: |
    echo DEFINE nothing
";

    #[test]
    fn mqsc_and_ini_blocks_with_their_lines() {
        assert_eq!(ConfigMap::sniff("x.yaml", MAP.as_bytes()), 95);
        assert_eq!(ConfigMap::sniff("x.yaml", b"kind: Pod\ndata:\n"), 0);
        let reader = LineReader::<ConfigMap>::new();
        let (evs, infos) = testkit::read(
            &reader,
            "configmaps/qm1-config.yaml",
            MAP,
            &Default::default(),
        );
        assert!(evs.is_empty());
        let i = &infos[0];
        let c = i.config.as_ref().unwrap();
        assert_eq!(c.scope, Scope::Qmgr("QM1".into()));
        assert_eq!(c.source, "config map qm1-config");
        let lines: Vec<u64> = c.facts.iter().map(|f| f.line).collect();
        assert_eq!(lines, vec![9, 12, 15], "{:#?}", c.facts);
        assert_eq!(c.facts[0].item.attr("MAXINSTC"), Some("5"));
        assert!(matches!(&c.facts[2].item, Item::Setting { stanza, .. } if stanza == "Channels"));
        assert_eq!(i.problem_count, 0, "{:?}", i.problems);
        assert_eq!(
            i.notes,
            vec!["data keys not read (neither .mqsc nor .ini): README, other.sh".to_string()]
        );
    }
}
