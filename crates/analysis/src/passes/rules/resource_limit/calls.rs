//! The limits an application meets as a reason code: MQI calls in traces
//! failing with a reason of `catalog::limits::REASONS` (a full queue, the
//! handle, connection and unit-of-work limits, storage). Read from the
//! run's calls table, which counts each call once; one story per limit and
//! process, whatever verbs met it.

use super::RULE;
use crate::calls::Row;
use crate::passes::builder::FindingBuilder;
use mqdiag_model::event::Ts;
use mqdiag_model::findings::{EvidenceSet, Finding, Metric};
use mqdiag_readers::catalog::limits::{Limit, ReasonLimit, reason_limit};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Stories kept; further processes' failures are counted in none.
const MAX_STORIES: usize = 2000;

/// One limit met by one process.
pub(super) struct CallStory {
    info: &'static ReasonLimit,
    place: Option<Arc<str>>,
    pid: Option<u32>,
    who: String,
    host: Option<String>,
    program: Option<String>,
    /// Failures per verb.
    verbs: BTreeMap<&'static str, u64>,
    failures: u64,
    first: Option<Ts>,
    last: Option<Ts>,
    evidence: EvidenceSet,
}

/// A story's key: the limit, and the process (its trace group and pid).
type StoryKey = (Limit, Option<Arc<str>>, Option<u32>);

/// The stories the table's rows tell, in a stable order.
pub(super) fn stories(rows: &[Row]) -> Vec<CallStory> {
    let mut by: BTreeMap<StoryKey, CallStory> = BTreeMap::new();
    for row in rows {
        for (reason, stat) in &row.stats.reasons {
            let Some(info) = reason.parse::<u32>().ok().and_then(reason_limit) else {
                continue;
            };
            let key = (info.limit, row.key.place.clone(), row.key.pid);
            if !by.contains_key(&key) && by.len() >= MAX_STORIES {
                continue;
            }
            let s = by.entry(key).or_insert_with(|| CallStory {
                info,
                place: row.key.place.clone(),
                pid: row.key.pid,
                who: crate::calls::process_text(row),
                host: row.host.clone(),
                program: row.process.clone(),
                verbs: BTreeMap::new(),
                failures: 0,
                first: None,
                last: None,
                evidence: EvidenceSet::default(),
            });
            *s.verbs.entry(row.key.verb).or_insert(0) += stat.count;
            s.failures += stat.count;
            s.first = s.first.into_iter().chain(stat.first).min();
            s.last = s.last.into_iter().chain(stat.last).max();
            for ev in &stat.evidence {
                s.evidence.push(ev.clone());
            }
        }
    }
    by.into_values().collect()
}

impl CallStory {
    pub(super) fn failures(&self) -> u64 {
        self.failures
    }

    pub(super) fn finding(&self) -> Finding {
        let info = self.info;
        let code = info.reason;
        let name = mqdiag_model::mqrc::name(code).unwrap_or_else(|| code.to_string());
        let verbs: Vec<&str> = self.verbs.keys().copied().collect();
        let n = self.failures;
        let title = format!(
            "{}: {} failed {n} time{} with {code} {name} in process {}",
            headline(info.limit),
            verbs.join(", "),
            if n == 1 { "" } else { "s" },
            self.who,
        );
        // The limit of a task or connection is the process's; a queue's or
        // a storage's is not named by the call.
        let object = match info.limit {
            Limit::Handles | Limit::UncommittedMessages | Limit::Connections | Limit::Storage => {
                Some(self.who.as_str())
            }
            _ => None,
        };
        FindingBuilder::new(&RULE, RULE.severity, title)
            .span(self.first, self.last, n)
            .subject(|s| {
                s.pid = self.pid;
                s.host = self.host.clone();
                s.program = self.program.clone();
            })
            .key(format!(
                "{}/{}",
                info.limit.as_str(),
                self.place.as_deref().unwrap_or("")
            ))
            .metrics([
                ("limit", Metric::Str(info.limit.as_str().to_string())),
                ("occurrences", Metric::int(n)),
                ("object", Metric::opt_str(object)),
                ("reason", Metric::int(u64::from(code))),
                ("reason_name", Metric::Str(name.clone())),
                ("verbs", Metric::Str(verbs.join(", "))),
                ("setting", Metric::Str(info.setting.to_string())),
            ])
            .evidence(self.evidence.clone().into_sorted())
            .advice(advice(info, &name))
            .build()
    }
}

pub(super) fn headline(limit: Limit) -> &'static str {
    match limit {
        Limit::QueueFull => "Queue full (MAXDEPTH)",
        Limit::UncommittedMessages => "Unit of work past MAXUMSGS",
        Limit::Connections => "Connection limit reached",
        Limit::Handles => "Open-handle limit (MAXHANDS) reached",
        Limit::QueueSpace => "No disk space for a queue",
        Limit::StorageMedium => "Page set or coupling-facility structure full",
        Limit::Storage => "Out of main storage",
        Limit::MaxChannels => "Maximum number of channels reached",
        Limit::MaxInstances => "Maximum channel instances exceeded",
        Limit::DeadLetter => "Messages put to a dead-letter queue",
        Limit::LogFull => "Recovery log full",
        Limit::QueueDepthHigh => "Queue depth high",
        Limit::MaxActiveChannels => "Maximum number of active channels reached",
    }
}

/// What the reason says, and the commands that show the limit (the
/// queue manager is not in a client's call: `<qmgr>`).
fn advice(info: &ReasonLimit, name: &str) -> String {
    let code = info.reason;
    let why = format!("{code} {name}: {}.", info.meaning);
    let look = match info.limit {
        Limit::QueueFull => {
            "The consumers of the queue stopped or fall behind. Find the full queue and whether \
             anything reads it: `echo \"DISPLAY QLOCAL(*) WHERE(CURDEPTH GT 0) CURDEPTH MAXDEPTH \
             IPPROCS\" | runmqsc <qmgr>` (CURDEPTH at MAXDEPTH with IPPROCS 0: no consumer). \
             Start or fix the consumer before raising MAXDEPTH; with QDEPTHMAXEV(ENABLED) the \
             queue manager puts a Queue Full event naming the queue on \
             SYSTEM.ADMIN.PERFM.EVENT."
        }
        Limit::UncommittedMessages => {
            "One unit of work got or put more messages under syncpoint than the queue manager \
             allows. Check the application commits (MQCMIT) often enough and is not looping; \
             `DISPLAY QMGR MAXUMSGS` shows the limit, `ALTER QMGR MAXUMSGS(n)` raises it when \
             the units of work are meant to be that large."
        }
        Limit::Connections => {
            "See who holds connections: `echo \"DISPLAY CONN(*) TYPE(CONN) APPLTAG CONNAME \
             USERID\" | runmqsc <qmgr>`; applications that connect per message or never \
             disconnect (see connection-churn) exhaust it. For Java applications, the \
             connection pool of the framework or application server may set the limit."
        }
        Limit::Handles => {
            "The application opens objects without closing them (MQOPEN or MQSUB without \
             MQCLOSE), or uses a large distribution list. `DISPLAY QMGR MAXHANDS` shows the \
             limit and `DISPLAY CONN(*) TYPE(ALL) APPLTAG OBJNAME` the handles held; close \
             handles when done before raising MAXHANDS."
        }
        Limit::QueueSpace => {
            "The file system that holds the queue files is full: check it on the queue \
             manager's host (`df -h /var/mqm/qmgrs/<qmgr>`, or the data path of `dspmqinf \
             <qmgr>`), and look for an application putting in a loop or a queue nobody reads \
             (`DISPLAY QLOCAL(*) WHERE(CURDEPTH GT 0) CURDEPTH`)."
        }
        Limit::StorageMedium => {
            "On z/OS: `DISPLAY USAGE PSID(*)` shows page-set use, and for shared queues \
             `DISPLAY CFSTATUS(*) TYPE(SUMMARY)` the structures; the queue that filled the page \
             set need not be the one the failing call named. Look for queues that fill because \
             their consumers stopped, and let page sets expand (EXPAND on DEFINE PSID)."
        }
        Limit::Storage => {
            "The process ran out of memory: look for very large messages, a leak or a memory \
             limit (ulimit -v, container limits; on z/OS the region size), and read the FDCs \
             and error log of the same time."
        }
        Limit::MaxChannels
        | Limit::MaxInstances
        | Limit::DeadLetter
        | Limit::LogFull
        | Limit::QueueDepthHigh
        | Limit::MaxActiveChannels => "",
    };
    format!("{why} {look}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_reason_limit_has_a_headline_and_advice() {
        for r in mqdiag_readers::catalog::limits::REASONS {
            assert!(!headline(r.limit).is_empty());
            let a = advice(r, "NAME");
            assert!(a.len() > 80, "{}: {a}", r.reason);
            assert!(a.starts_with(&format!("{} NAME: ", r.reason)));
        }
    }
}
