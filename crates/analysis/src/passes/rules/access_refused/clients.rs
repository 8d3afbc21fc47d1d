//! A trace's failed call counted on its client: the client of its
//! process and channel, or the shared one past `MAX_CLIENTS`.

use super::{Client, MAX_CLIENTS, MAX_TIMES, SIDE_EVIDENCE};
use mqdiag_model::runhash::RunMap;
use mqdiag_model::event::Event;
use mqdiag_model::findings::{EventRef, Evidence};
use std::collections::BTreeMap;

/// What `failure` counts of a failed call.
pub(super) struct Failure {
    pub(super) verb: Option<&'static str>,
    pub(super) reason: u32,
    pub(super) channel: Option<String>,
    pub(super) conname: Option<String>,
}

/// A trace's failed call, counted on its client (made if new): the client
/// it went to, as `Thread::client` keeps it; `None` when not counted.
pub(super) fn failure(
    clients: &mut Vec<Client>,
    client_index: &mut RunMap<(u32, Option<u32>, Option<String>), usize>,
    dir: u32,
    e: &Event,
    f: Failure,
) -> Option<Option<usize>> {
    let Failure {
        verb,
        reason,
        channel,
        conname,
    } = f;
    // Only records are read without a time (`reads_undated`): a
    // client's failure without one could pair with nothing. Asked
    // here, of the few failures, not of every trace line.
    if e.is_undated() {
        return None;
    }
    let mut k = (dir, e.pid, channel.clone());
    let mut other = None;
    let found = client_index.get(&k).copied();
    if found.is_none() && clients.len() >= MAX_CLIENTS {
        other = e.pid;
        k.1 = None;
    }
    // Its process's own client, or the one of the processes past the cap.
    let own = k.1.is_some();
    let i = match found.or_else(|| client_index.get(&k).copied()) {
        Some(i) => i,
        None => {
            clients.push(Client {
                path: e.origin.path.clone(),
                pid: k.1,
                channel,
                conname,
                verbs: BTreeMap::new(),
                reasons: BTreeMap::new(),
                failures: 0,
                first: e.ts,
                last: e.ts,
                times: Vec::new(),
                evidence: Vec::new(),
                latest: None,
                paired: false,
                others: Default::default(),
            });
            client_index.insert(k, clients.len() - 1);
            clients.len() - 1
        }
    };
    let c = &mut clients[i];
    if let Some(p) = other {
        c.others.insert(p);
    }
    if let Some(v) = verb {
        *c.verbs.entry(v).or_default() += 1;
    }
    *c.reasons.entry(reason).or_default() += 1;
    c.failures += 1;
    c.first = c.first.min(e.ts);
    c.last = c.last.max(e.ts);
    if c.times.len() < MAX_TIMES {
        c.times.push(e.ts);
    }
    if c.evidence.len() < SIDE_EVIDENCE - 1 {
        c.evidence.push(Evidence::from_event(e));
    } else {
        match &mut c.latest {
            Some(l) => l.assign(e),
            None => c.latest = Some(EventRef::of(e)),
        }
    }
    Some(own.then_some(i))
}

