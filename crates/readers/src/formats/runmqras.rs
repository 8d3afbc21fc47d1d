//! The members of a `runmqras` collection that MQ's collector wrote from
//! commands (`dspmqinst`, `datafiles_<QM>`, `amqldmpa_<section>_<QM>.out`,
//! ...), named by what wrote them rather than `unknown`. The sections and
//! output names are those of runmqras's section file as IBM's container
//! must-gather publishes it (github.com/ibm-messaging/mq-container-inspector,
//! `pkg/runmqras/custom-isa.xml`). They give no events: the inventory says
//! what each is, which section wrote it and for which queue manager.
//! Members a reader of their own takes (`qm.ini`, error logs, FDCs) are
//! not this format's: its sniff score is the lowest any reader gives.

use super::line_source::{FileCtx, LineFormat, Standalone};
use crate::input::Input;
use crate::lines::LineMeta;
use mqdiag_model::event::Format;

/// Command outputs of a runmqras collection: no events.
pub static FORMAT: Format = Format::of(&mqdiag_model::event::FormatInfo {
    name: "runmqras-output",
    family: mqdiag_model::event::FormatFamily::Other,
    states_local_time: false,
    dataset: "ibmmq.collection",
    host_is_writer: false,
});

/// A member's name: how it starts (or is), whether a queue manager's name
/// follows after `_`, the section and what it holds.
struct Member {
    stem: &'static str,
    per_qmgr: bool,
    section: &'static str,
    what: &'static str,
}

const fn m(
    stem: &'static str,
    per_qmgr: bool,
    section: &'static str,
    what: &'static str,
) -> Member {
    Member {
        stem,
        per_qmgr,
        section,
        what,
    }
}

/// Longest stems first where one starts another (`amqrfdm_h_` before
/// `amqrfdm_`, `datafiles_` before `datafiles`).
const MEMBERS: &[Member] = &[
    m("dspmqinst", false, "default", "installations (dspmqinst)"),
    m(
        "dspmqver",
        false,
        "default",
        "MQ version and fix level (dspmqver)",
    ),
    m(
        "dspmq",
        false,
        "default",
        "queue managers and their states (dspmq)",
    ),
    m(
        "datafiles_",
        true,
        "default",
        "listing of the queue manager's data directory (ls -iaRlL)",
    ),
    m(
        "datafiles",
        false,
        "default",
        "listing of the MQ data directories (ls -iaRlL)",
    ),
    m(
        "logfiles_",
        true,
        "default",
        "listing of the queue manager's log directory",
    ),
    m(
        "dfiqm_",
        true,
        "default",
        "file system use of the queue manager's directories (df -i)",
    ),
    m(
        "idmqm",
        false,
        "default",
        "the mqm user and its groups (id mqm)",
    ),
    m("cpuinfo", false, "default", "processor information"),
    m(
        "errors",
        false,
        "default",
        "listing of the errors directory",
    ),
    m("mqpatch.dat", false, "default", "fix packs applied"),
    m("mqpatch.log", false, "default", "fix pack installation log"),
    m(
        "amqhlctl.lfh",
        false,
        "default",
        "log control file (binary; for IBM)",
    ),
    m("dspmqtrn_", true, "dap", "transactions in doubt (dspmqtrn)"),
    m(
        "amqrfdm_h_",
        true,
        "cluster",
        "cluster repository cache dump, history (amqrfdm)",
    ),
    m(
        "amqrfdm_",
        true,
        "cluster",
        "cluster repository cache dump (amqrfdm)",
    ),
    m(
        "SCRQ_",
        true,
        "cluster",
        "SYSTEM.CLUSTER.REPOSITORY.QUEUE dump",
    ),
    m(
        "SCCQ_",
        true,
        "cluster",
        "SYSTEM.CLUSTER.COMMAND.QUEUE dump",
    ),
    m(
        "SCTQ_",
        true,
        "cluster",
        "SYSTEM.CLUSTER.TRANSMIT.QUEUE dump",
    ),
    m(
        "SCHQ_",
        true,
        "cluster",
        "SYSTEM.CLUSTER.HISTORY.QUEUE dump",
    ),
];

/// What a member is, by its name: its section, what it holds and the
/// queue manager it is of.
fn member_of(name: &str) -> Option<(&'static Member, Option<String>)> {
    // `amqldmpa_<section>_<QM>.out`: the section is in the name.
    if let Some(rest) = name.strip_prefix("amqldmpa_") {
        let rest = rest.strip_suffix(".out").unwrap_or(rest);
        let qm = rest.split_once('_').map(|(_, q)| q.to_string());
        static DUMP: Member = m(
            "amqldmpa_",
            true,
            "(named in the file name)",
            "queue manager internal dump (amqldmpa)",
        );
        return Some((&DUMP, qm));
    }
    for mem in MEMBERS {
        if mem.per_qmgr {
            if let Some(q) = name.strip_prefix(mem.stem) {
                let q = q.strip_suffix(".out").unwrap_or(q);
                if !q.is_empty() {
                    return Some((mem, Some(q.replace('!', "."))));
                }
            }
        } else if name == mem.stem || name.strip_suffix(".out") == Some(mem.stem) {
            return Some((mem, None));
        }
    }
    None
}

/// The format's specifics: `LineReader<Runmqras>` is its reader.
pub(crate) struct Runmqras;

impl Standalone for Runmqras {
    const FORMAT: Format = FORMAT;
    const FUZZ: super::Fuzz = super::Fuzz {
        target: "runmqras",
        names: &["dspmqinst", "datafiles_QM1"],
    };
    /// A name only: any reader that knows the content wins.
    const SNIFF_CEILING: u8 = 5;

    fn sniff(name: &str, _head: &[u8]) -> u8 {
        if member_of(name).is_some() { 5 } else { 0 }
    }

    fn new(_: super::Prepared) -> Runmqras {
        Runmqras
    }
}

impl LineFormat for Runmqras {
    type File = String;

    fn open_file(&mut self, input: &Input, _ctx: &mut FileCtx) -> String {
        input.name.clone()
    }

    fn line(&mut self, _f: &mut String, _ctx: &mut FileCtx, _meta: LineMeta, _bytes: &[u8]) {}

    fn finish_file(&mut self, name: String, ctx: &mut FileCtx) {
        if let Some((mem, qm)) = member_of(&name) {
            let section = if mem.stem == "amqldmpa_" {
                name.trim_start_matches("amqldmpa_")
                    .split('_')
                    .next()
                    .unwrap_or("")
                    .to_string()
            } else {
                mem.section.to_string()
            };
            ctx.info.variant = Some(format!("runmqras section '{section}': {}", mem.what));
            if ctx.info.qmgr.is_none() {
                ctx.info.qmgr = qm;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::line_source::LineReader;
    use crate::testkit;

    #[test]
    fn members_by_name() {
        assert_eq!(
            Runmqras::sniff("dspmqinst", b"InstName: Installation1\n"),
            5
        );
        assert_eq!(Runmqras::sniff("qm.ini", b""), 0);
        assert_eq!(Runmqras::sniff("datafiles", b""), 5);
        let (m, q) = member_of("datafiles_QM!1").unwrap();
        assert_eq!((m.section, q.as_deref()), ("default", Some("QM.1")));
        let (m, q) = member_of("amqrfdm_h_QM2").unwrap();
        assert_eq!((m.stem, q.as_deref()), ("amqrfdm_h_", Some("QM2")));
        assert!(member_of("datafiles_").is_none_or(|(m, _)| m.stem == "datafiles"));
        let reader = LineReader::<Runmqras>::new();
        let (evs, infos) = testkit::read(
            &reader,
            "amqldmpa_kernel_QM1.out",
            "dump\n",
            &Default::default(),
        );
        assert!(evs.is_empty());
        assert_eq!(
            infos[0].variant.as_deref(),
            Some("runmqras section 'kernel': queue manager internal dump (amqldmpa)")
        );
        assert_eq!(infos[0].qmgr.as_deref(), Some("QM1"));
        assert_eq!(infos[0].lines, 1);
    }
}
