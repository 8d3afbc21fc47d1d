//! `config`: the configuration found in a case, per queue manager (then
//! the installation's, clients', and files that name no queue manager),
//! each fact with its file and line: what mqdiag believed when it
//! explained a finding.

use mqdiag_model::config::{ConfigFile, Fact, Scope};
use mqdiag_model::fileinfo::FileInfo;
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::{self, Write};

/// The configuration files of `files`, grouped by whose they are, only
/// those of `qmgr` (and the installation's) when given.
fn grouped<'a>(
    files: &'a [FileInfo],
    qmgr: Option<&str>,
) -> BTreeMap<&'a Scope, Vec<(&'a FileInfo, &'a ConfigFile)>> {
    let mut by: BTreeMap<&Scope, Vec<(&FileInfo, &ConfigFile)>> = BTreeMap::new();
    for f in files {
        let Some(c) = f.config.as_deref() else {
            continue;
        };
        if let Some(q) = qmgr
            && !matches!(&c.scope, Scope::Qmgr(s) if s == q)
            && c.scope != Scope::System
        {
            continue;
        }
        by.entry(&c.scope).or_default().push((f, c));
    }
    by
}

#[derive(Serialize)]
struct Doc<'a> {
    schema_version: u32,
    scopes: Vec<ScopeDoc<'a>>,
}

#[derive(Serialize)]
struct ScopeDoc<'a> {
    #[serde(flatten)]
    scope: &'a Scope,
    files: Vec<FileDoc<'a>>,
}

#[derive(Serialize)]
struct FileDoc<'a> {
    path: &'a str,
    format: &'a str,
    source: &'a str,
    facts: &'a [Fact],
    /// Facts past the reader's cap, not kept.
    dropped: u64,
    problem_count: u64,
}

pub fn write_json(out: &mut dyn Write, files: &[FileInfo], qmgr: Option<&str>) -> io::Result<()> {
    let scopes = grouped(files, qmgr)
        .into_iter()
        .map(|(scope, fs)| ScopeDoc {
            scope,
            files: fs
                .into_iter()
                .map(|(f, c)| FileDoc {
                    path: &f.path,
                    format: f.format.info().name,
                    source: &c.source,
                    facts: &c.facts,
                    dropped: c.dropped,
                    problem_count: f.problem_count,
                })
                .collect(),
        })
        .collect();
    let mut w = mqdiag_model::text::JsonControlEscaper::new(&mut *out);
    serde_json::to_writer_pretty(
        &mut w,
        &Doc {
            schema_version: 1,
            scopes,
        },
    )?;
    w.finish()?;
    out.write_all(b"\n")
}

pub fn write_text(out: &mut dyn Write, files: &[FileInfo], qmgr: Option<&str>) -> io::Result<()> {
    use super::inventory::put;
    let groups = grouped(files, qmgr);
    if groups.is_empty() {
        let what = match qmgr {
            Some(q) => format!(" for queue manager {q}"),
            None => String::new(),
        };
        put(
            out,
            &format!(
                "No configuration found{what} (qm.ini, mqs.ini, mqclient.ini, MQSC dumps, config maps, CCDTs)."
            ),
        )?;
        return Ok(());
    }
    let nfiles: usize = groups.values().map(Vec::len).sum();
    let nfacts: usize = groups.values().flatten().map(|(_, c)| c.facts.len()).sum();
    let nq = groups.keys().filter(|s| s.qmgr().is_some()).count();
    put(
        out,
        &format!(
            "{nfacts} configuration fact{} in {nfiles} file{}, {} queue manager{}",
            if nfacts == 1 { "" } else { "s" },
            if nfiles == 1 { "" } else { "s" },
            nq,
            if nq == 1 { "" } else { "s" }
        ),
    )?;
    for (scope, fs) in groups {
        writeln!(out)?;
        put(out, &scope.describe())?;
        for (f, c) in fs {
            put(
                out,
                &format!(
                    "  {} ({}, {} fact{})",
                    f.path,
                    c.source,
                    c.facts.len(),
                    if c.facts.len() == 1 { "" } else { "s" }
                ),
            )?;
            let width = c.facts.last().map_or(1, |x| x.line.to_string().len());
            let mut stanza: Option<&str> = None;
            for fact in &c.facts {
                // Settings under their stanza, as the file has them.
                if let mqdiag_model::config::Item::Setting { stanza: s, .. } = &fact.item
                    && stanza != Some(s.as_str())
                {
                    stanza = Some(s);
                    writeln!(out, "    {:>width$}  {s}:", "")?;
                }
                let indent = if matches!(fact.item, mqdiag_model::config::Item::Setting { .. }) {
                    "  "
                } else {
                    ""
                };
                let lead = format!("    {:>width$}  {indent}", fact.line);
                // Continuations line up under the text.
                let pad = " ".repeat(lead.len());
                for (i, l) in crate::layout::wrap(&fact.text, 80, &pad)
                    .into_iter()
                    .enumerate()
                {
                    if i == 0 {
                        writeln!(out, "{lead}{}", &l[pad.len()..])?;
                    } else {
                        writeln!(out, "{l}")?;
                    }
                }
            }
            if c.dropped > 0 {
                put(out, &format!("    ... and {} more not kept", c.dropped))?;
            }
            if f.problem_count > 0 {
                put(
                    out,
                    &format!(
                        "    {} problem(s): `mqdiag inventory` lists them",
                        f.problem_count
                    ),
                )?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use mqdiag_model::config::Item;
    use std::sync::Arc;

    fn input(path: &str, scope: Scope) -> FileInfo {
        let mut c = ConfigFile::new(scope, "qm.ini");
        c.push(
            27,
            "MaxChannels=50",
            Item::Setting {
                stanza: "Channels".into(),
                key: "MaxChannels".into(),
                value: "50".into(),
            },
        );
        let mut f = FileInfo::new(path, mqdiag_model::event::Format::UNKNOWN, 10);
        f.config = Some(Arc::new(c));
        f
    }

    #[test]
    fn text_and_json_by_queue_manager() {
        let files = vec![
            input("a/qmgrs/QM1/qm.ini", Scope::Qmgr("QM1".into())),
            input("b/qmgrs/QM2/qm.ini", Scope::Qmgr("QM2".into())),
            FileInfo::new("trace.FMT", mqdiag_model::event::Format::UNKNOWN, 10),
        ];
        let mut out = Vec::new();
        write_text(&mut out, &files, Some("QM2")).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(
            text,
            "1 configuration fact in 1 file, 1 queue manager\n\nqueue manager QM2\n  b/qmgrs/QM2/qm.ini (qm.ini, 1 fact)\n        Channels:\n    27    MaxChannels=50\n"
        );
        let mut out = Vec::new();
        write_json(&mut out, &files, None).unwrap();
        let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(v["scopes"][0]["scope"], "qmgr");
        assert_eq!(v["scopes"][0]["name"], "QM1");
        let fact = &v["scopes"][1]["files"][0]["facts"][0];
        assert_eq!(fact["line"], 27);
        assert_eq!(fact["kind"], "setting");
        assert_eq!(fact["key"], "MaxChannels");
        let mut out = Vec::new();
        write_text(&mut out, &files, Some("QM9")).unwrap();
        assert!(
            String::from_utf8(out)
                .unwrap()
                .starts_with("No configuration found for queue manager QM9")
        );
    }
}
