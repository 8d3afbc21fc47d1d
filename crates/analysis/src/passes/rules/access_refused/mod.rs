//! `access-refused`: connections and operations the queue manager refused,
//! one story per who (user id, client address, application) and where
//! (channel, queue manager, object), told by its cause: a CHLAUTH block,
//! a connection-authentication failure, a user id that could not be set
//! up, a missing authority. The messages and where their facts come from
//! are data in `mqdiag_readers::catalog::access`.
//!
//! The client's side of a refusal is an MQI call failing with 2035 (or
//! 2063, 2217) in its trace. When a queue manager record names the
//! channel the trace connected through, within `pair_window_s` of the
//! failure, the two are one story citing both files; a trace failure no
//! record explains is a story of its own that says where to look.
//!
//! An application activity trace's MQI calls refused with those reasons
//! are the client's side as a trace's are.
//!
//! Event messages tell refusals too (`mq-events`): Not Authorized (2035,
//! types 1 to 6 by their reason qualifier) and Channel Blocked (2577). An
//! event and an error-log record of the same refusal (same mechanism,
//! agreeing queue manager, channel, user and address, within a second) are
//! one occurrence citing both; an event no record matches is a refusal of
//! its own.
//!
//! Records without a time (message text pasted without its date, after
//! every dated event in the merge) are refusals too, apart: one story per
//! group of its own, never joined to a dated one, never paired with a
//! trace or an event message by time, titled "time unknown" with `first`
//! and `last` null. Consecutive undated records of one file that agree
//! and do not repeat a message id are one refusal (AMQ5534 and AMQ5542).

mod advice;
mod clients;
mod events;
#[cfg(test)]
mod tests;

use mqdiag_model::runhash::RunMap;
use mqdiag_model::findings::Part;
use crate::passes::{Pass, RuleInfo, Settings, Threshold};
use advice::*;
use clients::{Failure, failure};
use events::EventRefusal;
use mqdiag_model::event::Key;
use mqdiag_model::event::{Event, Kind, Ts};
use mqdiag_model::fileinfo::FileInfo;
use mqdiag_model::findings::{Evidence, EventRef, Finding, MAX_EVIDENCE, Metric, Subject};
use mqdiag_model::mqrc::{self, Outcome};
use mqdiag_model::problem::Severity;
use mqdiag_readers::catalog::access::{Mechanism, access_of};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;

pub(crate) static RULE: RuleInfo = RuleInfo {
    id: "access-refused",
    severity: Severity::Error,
    summary: "Connections and operations the queue manager refused (CHLAUTH, CONNAUTH, user id, authority), told with the client's 2035 when a trace shows it",
    trigger: "Every error-log, JSON-log, container-log or job-log record of AMQ9777 or, on z/OS, \
        CSQX777E (channel blocked by a CHLAUTH record), AMQ5534, AMQ5540, AMQ5541, AMQ5542 \
        (connection authentication), AMQ9557 (user id initialisation failed), AMQ8077 \
        (insufficient authority) or, in a z/OS job log, RACF's ICH408I (a refused resource), \
        and every MQI call in a trace failing with 2035 MQRC_NOT_AUTHORIZED, 2063 MQRC_SECURITY_ERROR or 2217 \
        MQRC_CONNECTION_NOT_AUTHORIZED (the call counted once across its layers). Records one \
        process thread writes within a second are one refusal, told by its cause (CHLAUTH, then \
        CONNAUTH, authority, user id). Refusals are grouped by queue manager, channel, user id \
        (or application), address and object; a group with at least `min_occurrences` \
        refusals is a finding with the mechanism, the rule or check that refused, the count, \
        first and last time and the commands to look further. A trace's failures on a channel \
        are told with the group of that channel whose refusals fall within `pair_window_s` of \
        them (the client's host, where the record names one, must agree); failures no record \
        explains are a finding of their own (mechanism `unknown`). Severity error, info when \
        the group's last refusal is more than `recent_days` days before the last record of \
        the files that show it. Event messages are refusals too: Not Authorized (2035, types \
        1 to 6 by reason qualifier; MQRQ_CSP_NOT_AUTHORIZED is CONNAUTH, the others the \
        OAM's) and Channel Blocked (2577, CHLAUTH); an event and a record of the same \
        mechanism whose queue manager, channel, user, address and object agree, within a \
        second, are one refusal citing both.",
    thresholds: &[
        Threshold::new(
            "min_occurrences",
            1.0,
            "refusals",
            "fewest refusals of one group to report",
        )
        .range(1.0, crate::passes::THRESHOLD_MAX),
        Threshold::new(
            "pair_window_s",
            5.0,
            "seconds",
            "how far apart a client's failure and the queue manager's record may be to be one refusal",
        ),
        Threshold::new(
            "recent_days",
            7.0,
            "days",
            "a group whose last refusal is this long before the end of its files is info",
        ),
    ],
    advice: "Each finding names the mechanism that refused and the runmqsc or OAM commands, \
        filled with the channel, address and user id from the evidence, that show the rule or \
        check involved.",
    fingerprint: &[Part::Qmgr, Part::Channel, Part::Host, Part::Address, Part::Queue, Part::Program, Part::Key("mechanism, user or application, object")],
    metrics: &["mechanism", "occurrences", "user", "address", "channel"],
    functions: &[],
    keywords: &["ChlName"],
    mqi_calls: true,
    smf_columns: &[],
    make: |s| Box::new(AccessRefused::new(s)),
    explain: Some(crate::explain::access_refused::explain),
    ..RuleInfo::BASE
};

/// MQI reasons that say the queue manager refused.
const REFUSED: &[u32] = &[2035, 2063, 2217];
/// Groups kept; past this, new groups join one per mechanism.
const MAX_STORIES: usize = 2000;
/// Refusal times kept per group for pairing.
const MAX_TIMES: usize = 10_000;
/// Evidence lines from each side of a paired story.
const SIDE_EVIDENCE: usize = MAX_EVIDENCE / 2;
/// Records of one thread this close together are one refusal.
const JOIN_MS: i64 = 1000;
const OTHER: &str = "(other)";
/// Files remembered per group (to tell whether it is still going on).
const MAX_FILES: usize = 16;
/// The thread an undated record without one is read on: its file's
/// records in order (`record`).
const UNDATED_THREAD: (u32, u32) = (u32::MAX, u32::MAX);
/// What a story of records without a time says in its title.
const TIME_UNKNOWN: &str = " (time unknown)";

/// The values a refusal's records state, first one kept.
#[derive(Debug, Clone, Default)]
struct Facts {
    qmgr: Option<String>,
    channel: Option<String>,
    user: Option<String>,
    appl: Option<String>,
    address: Option<String>,
    host: Option<String>,
    object: Option<String>,
    object_type: Option<String>,
    /// The CHLAUTH record or CONNAUTH check that refused.
    check: Option<String>,
    /// The channel's values the CHLAUTH record matched (`CLNTUSER(x)`).
    values: Option<String>,
    reason: Option<String>,
    /// RACF's access intent (`UPDATE`, `READ`) of a refused profile.
    intent: Option<String>,
    /// Told by RACF (ICH408I): the commands are RACF's, not the OAM's.
    racf: bool,
    /// The refused call's options, by name (an event's `Options`).
    options: Option<String>,
}

fn fill(slot: &mut Option<String>, v: Option<&str>) {
    if slot.is_none()
        && let Some(v) = v.map(str::trim).filter(|v| !v.is_empty() && *v != "????")
    {
        *slot = Some(v.to_string());
    }
}

impl Facts {
    fn take(&mut self, e: &Event) {
        fill(&mut self.qmgr, e.get(Key::Qmgr));
        fill(&mut self.channel, e.get(Key::Channel));
        fill(&mut self.user, e.get(Key::ClientUser));
        fill(&mut self.appl, e.get(Key::Appl));
        fill(&mut self.address, e.get(Key::Address));
        fill(&mut self.host, e.get(Key::Host));
        fill(&mut self.object, e.get(Key::Object));
        fill(&mut self.object_type, e.get(Key::ObjectType));
        fill(&mut self.check, e.get(Key::ChlauthMatch));
        fill(&mut self.check, e.get(Key::ConnauthCheck));
        fill(&mut self.values, e.get(Key::ChlauthValues));
        fill(&mut self.reason, e.get(Key::Reason));
        fill(&mut self.check, e.get(Key::RacfCheck));
        fill(&mut self.intent, e.get(Key::AccessIntent));
        self.racf |= e.get(Key::Msgid).is_some_and(|m| m.starts_with("ICH"));
        // A record without its explanation (JSON logs carry the summary
        // only) still has the matched values insert: `CLNTUSER(x)`.
        if self.user.is_none() {
            let user = self
                .values
                .as_deref()
                .and_then(|v| paren_value(v, "CLNTUSER("));
            fill(&mut self.user, user.as_deref());
        }
    }

    fn merge(&mut self, o: &Facts) {
        fill(&mut self.qmgr, o.qmgr.as_deref());
        fill(&mut self.channel, o.channel.as_deref());
        fill(&mut self.user, o.user.as_deref());
        fill(&mut self.appl, o.appl.as_deref());
        fill(&mut self.address, o.address.as_deref());
        fill(&mut self.host, o.host.as_deref());
        fill(&mut self.object, o.object.as_deref());
        fill(&mut self.object_type, o.object_type.as_deref());
        fill(&mut self.check, o.check.as_deref());
        fill(&mut self.values, o.values.as_deref());
        fill(&mut self.reason, o.reason.as_deref());
        fill(&mut self.options, o.options.as_deref());
    }

    /// Whether `o` may tell the same refusal: no field both state differs.
    fn agrees(&self, o: &Facts) -> bool {
        let same = |a: &Option<String>, b: &Option<String>| match (a, b) {
            (Some(a), Some(b)) => a.eq_ignore_ascii_case(b),
            _ => true,
        };
        same(&self.qmgr, &o.qmgr)
            && same(&self.channel, &o.channel)
            && same(&self.user, &o.user)
            && same(&self.address, &o.address)
            && same(&self.object, &o.object)
    }

    /// The remote end: its address when known, else its name.
    fn end(&self) -> Option<&str> {
        self.address.as_deref().or(self.host.as_deref())
    }
}

/// One refusal being read: the records one thread wrote together.
struct Open {
    path: Arc<str>,
    first: Ts,
    last: Ts,
    mech: Mechanism,
    ids: Vec<String>,
    facts: Facts,
    evidence: Vec<Evidence>,
    permissions: BTreeSet<String>,
}

/// One group of refusals.
struct Story {
    mech: Mechanism,
    facts: Facts,
    ids: BTreeMap<String, u64>,
    permissions: BTreeSet<String>,
    occurrences: u64,
    first: Ts,
    last: Ts,
    /// The first refusal's records, then the latest refusal's first one.
    evidence: Vec<Evidence>,
    latest: Option<Evidence>,
    times: Vec<Ts>,
    /// The files its records are in (a few).
    files: BTreeSet<Arc<str>>,
    clients: Vec<usize>,
    /// Event messages of refusals already counted from a record.
    events: u64,
    event_evidence: Vec<Evidence>,
    /// Times in `times` an event has been matched with.
    matched: Vec<Ts>,
    /// The addresses, users and channels of its refusals.
    who: crate::passes::who::Who,
}

/// The trace state of one thread: the channel it connects through and the
/// MQI call open on it.
#[derive(Default)]
struct Thread {
    /// The channel and connection a data line named, boxed: most threads
    /// never name one, and a table of 16,384 threads is read whole by
    /// every trim.
    names: Option<Box<(Option<String>, Option<String>)>>,
    depth: u32,
    counted: bool,
    /// When it was last seen (`AccessRefused::clock`).
    seen: u64,
    /// The client its counted failure went to, on its current channel:
    /// `Some(Some(i))` its process's own, `Some(None)` the client of the
    /// processes past `MAX_CLIENTS` (its process will never have one of
    /// its own: clients only grow), `None` not known (asked by key).
    client: Option<Option<usize>>,
}

impl Thread {
    fn channel(&self) -> Option<&String> {
        self.names.as_ref().and_then(|n| n.0.as_ref())
    }

    fn conname(&self) -> Option<&String> {
        self.names.as_ref().and_then(|n| n.1.as_ref())
    }
}

/// A trace's failed calls on one channel.
struct Client {
    path: Arc<str>,
    pid: Option<u32>,
    channel: Option<String>,
    conname: Option<String>,
    verbs: BTreeMap<&'static str, u64>,
    reasons: BTreeMap<u32, u64>,
    failures: u64,
    first: Ts,
    last: Ts,
    times: Vec<Ts>,
    evidence: Vec<Evidence>,
    /// The latest failure, quoted only when a finding shows it: a client
    /// past `MAX_CLIENTS` has a new latest on every failure.
    latest: Option<EventRef>,
    paired: bool,
    /// For the client of the processes past `MAX_CLIENTS` (pid `None`):
    /// the processes it counts.
    others: crate::passes::pid_set::PidSet,
}

/// Clients (a trace's process on one channel) told apart; the failures of
/// processes past this are one client per trace directory and channel,
/// which says how many processes it holds (a trace of a million processes
/// each refused once is one story, not a million).
const MAX_CLIENTS: usize = 10_000;

// Built once: `str::contains` builds a searcher per call, a fifth of this
// rule's cost per process on a trace of a million failing processes.
static CHLNAME: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
    std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b"ChlName("));
static REASON: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
    std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b"Reason"));

pub(crate) struct AccessRefused {
    min_occurrences: u64,
    window: chrono::Duration,
    recent: chrono::Duration,
    /// Keyed by what the input says (paths, pids, names): every map here
    /// is keyed per run (the std keyed hasher, or `RunMap` for numbers),
    /// so no crafted input collides.
    open: HashMap<(Arc<str>, u32, u32), Open>,
    stories: Vec<Story>,
    index: HashMap<String, usize>,
    /// By trace path (its index in `paths`), PID and TID.
    threads: RunMap<(u32, u32, u32), Thread>,
    /// Trace events met on threads so far.
    clock: u64,
    clients: Vec<Client>,
    /// By directory (its index in `dirs`), PID and channel.
    client_index: RunMap<(u32, Option<u32>, Option<String>), usize>,
    /// Each trace path's index and its directory's, worked out once per
    /// file (the last path asked spares the look-up): a thread or client
    /// is found by numbers, not by a path string per event.
    paths: HashMap<Arc<str>, (u32, u32)>,
    dirs: HashMap<String, u32>,
    last_path: Option<(Arc<str>, (u32, u32))>,
    events: Vec<EventRefusal>,
    /// The verb of each traced function name, remembered.
    verb_memo: crate::passes::name_memo::NameMemo<Option<&'static str>>,
}

impl AccessRefused {
    pub(crate) fn new(s: &Settings) -> AccessRefused {
        let secs = |v: f64| chrono::Duration::milliseconds((v * 1000.0).round() as i64);
        AccessRefused {
            min_occurrences: s.get("min_occurrences").max(1.0) as u64,
            window: secs(s.get("pair_window_s").max(0.0)),
            recent: secs(s.get("recent_days").max(0.0) * 86_400.0),
            open: HashMap::new(),
            stories: Vec::new(),
            index: HashMap::new(),
            threads: RunMap::default(),
            clock: 0,
            clients: Vec::new(),
            client_index: RunMap::default(),
            paths: HashMap::new(),
            dirs: HashMap::new(),
            last_path: None,
            events: Vec::new(),
            verb_memo: Default::default(),
        }
    }

    /// An MQI call of an activity trace refused with 2035, 2063 or 2217:
    /// the application's side, as a trace's failed call is.
    fn activity(&mut self, e: &Event) {
        let Some(Outcome::Reason(r)) = e.get(Key::Reason).map(mqrc::decode_rc) else {
            return;
        };
        if !REFUSED.contains(&r) {
            return;
        }
        let verb = e
            .get(Key::Verb)
            .and_then(|v| crate::calls::VERBS.iter().find(|x| **x == v).copied());
        let channel = e.get(Key::Channel).map(str::to_string);
        let conname = e.get(Key::Address).map(str::to_string);
        self.failure(e, verb, r, channel, conname);
    }

    fn record(&mut self, e: &Event) {
        let Some(m) = access_of(e) else {
            return;
        };
        let Some(id) = e.get(Key::Msgid) else {
            return;
        };
        let permissions: BTreeSet<String> = e
            .get(Key::Permissions)
            .map(|p| {
                p.split(',')
                    .map(|s| s.trim().to_string())
                    .filter(|s| !s.is_empty())
                    .collect()
            })
            .unwrap_or_default();
        let undated = e.is_undated();
        let key = e
            .pid
            .zip(e.tid)
            .or(undated.then_some(UNDATED_THREAD))
            .map(|(p, t)| (e.origin.path.clone(), p, t));
        let mut facts = Facts::default();
        facts.take(e);
        if let Some(k) = &key
            && let Some(o) = self.open.get_mut(k)
        {
            // A record naming another address, user, channel or object is
            // the next refusal, even within the second (a thread refusing
            // 20 addresses in turn is 20 refusals). Records without a time
            // join by order in their file: the next record, unless it says
            // a message of the refusal again (a second failure).
            let together = if undated {
                !o.ids.iter().any(|i| i == id)
            } else {
                (e.ts - o.last).num_milliseconds().abs() <= JOIN_MS
            };
            if together && o.facts.agrees(&facts) {
                o.last = e.ts;
                if m.mechanism.rank() < o.mech.rank() {
                    o.mech = m.mechanism;
                }
                o.ids.push(id.to_string());
                o.facts.take(e);
                o.permissions.extend(permissions);
                if o.evidence.len() < SIDE_EVIDENCE {
                    o.evidence.push(Evidence::from_event(e));
                }
                return;
            }
            let done = self.open.remove(k).expect("open refusal");
            self.close(done);
        }
        let o = Open {
            path: e.origin.path.clone(),
            first: e.ts,
            last: e.ts,
            mech: m.mechanism,
            ids: vec![id.to_string()],
            facts,
            evidence: vec![Evidence::from_event(e)],
            permissions,
        };
        match key {
            Some(k) => {
                self.open.insert(k, o);
            }
            None => self.close(o),
        }
        if self.open.len() > mqdiag_model::budget::MAX_THREADS {
            // Those whose last message is oldest are closed first: the
            // messages that could still join them are newer still.
            let mut open = std::mem::take(&mut self.open);
            let mut closed = Vec::new();
            mqdiag_model::budget::trim_oldest(
                &mut open,
                mqdiag_model::budget::MAX_THREADS,
                |o| o.last.timestamp_nanos_opt().unwrap_or(i64::MIN) as u64 ^ (1 << 63),
                |_, o| closed.push(o),
            );
            self.open = open;
            for o in closed {
                self.close(o);
            }
        }
    }

    /// A refusal whose records are all read joins its group.
    fn close(&mut self, o: Open) {
        let f = &o.facts;
        let who = f.user.as_deref().or(f.appl.as_deref()).unwrap_or("");
        let mut key = String::new();
        // Refusals without a time are stories of their own.
        let undated = mqdiag_model::event::is_undated(&o.first);
        crate::passes::parts_key(
            &mut key,
            &[
                if undated { "undated" } else { "" },
                o.mech.as_str(),
                f.qmgr.as_deref().unwrap_or(""),
                f.channel.as_deref().unwrap_or(""),
                who,
                f.end().unwrap_or(""),
                f.object.as_deref().unwrap_or(""),
            ],
        );
        let i = match self.index.get(&key) {
            Some(i) => *i,
            None if self.stories.len() >= MAX_STORIES => {
                let mut other = String::new();
                let when = if undated { "undated" } else { "" };
                crate::passes::parts_key(&mut other, &[when, o.mech.as_str(), OTHER]);
                match self.index.get(&other) {
                    Some(i) => *i,
                    None => {
                        let facts = Facts {
                            user: Some(OTHER.to_string()),
                            ..Default::default()
                        };
                        self.new_story(other, o.mech, facts, o.first)
                    }
                }
            }
            None => self.new_story(key, o.mech, o.facts.clone(), o.first),
        };
        let s = &mut self.stories[i];
        s.who.addresses.add(o.facts.end().unwrap_or_default(), 1);
        s.who.users.add(who, 1);
        s.who.channels.add(o.facts.channel.as_deref().unwrap_or_default(), 1);
        s.facts.merge(&o.facts);
        if o.mech.rank() < s.mech.rank() {
            s.mech = o.mech;
        }
        for id in &o.ids {
            *s.ids.entry(id.clone()).or_default() += 1;
        }
        s.permissions.extend(o.permissions);
        s.occurrences += 1;
        s.first = s.first.min(o.first);
        s.last = s.last.max(o.first);
        if s.evidence.is_empty() {
            s.evidence = o.evidence;
        } else {
            s.latest = o.evidence.into_iter().next();
        }
        // Pairing with traces and event messages goes by these times: an
        // undated refusal has none.
        if s.times.len() < MAX_TIMES && !undated {
            s.times.push(o.first);
        }
        if s.files.len() < MAX_FILES {
            s.files.insert(o.path);
        }
    }

    fn new_story(&mut self, key: String, mech: Mechanism, facts: Facts, at: Ts) -> usize {
        self.stories.push(Story {
            mech,
            facts,
            ids: BTreeMap::new(),
            permissions: BTreeSet::new(),
            occurrences: 0,
            first: at,
            last: at,
            evidence: Vec::new(),
            latest: None,
            times: Vec::new(),
            files: BTreeSet::new(),
            clients: Vec::new(),
            events: 0,
            event_evidence: Vec::new(),
            matched: Vec::new(),
            who: Default::default(),
        });
        self.index.insert(key, self.stories.len() - 1);
        self.stories.len() - 1
    }

    fn trace(&mut self, e: &Event) {
        let (Some(pid), Some(tid)) = (e.pid, e.tid) else {
            return;
        };
        // Most trace lines concern no MQI call: decided before any key is
        // built.
        let function_verb = match &e.function {
            Some(f) => self.verb_memo.get(f, crate::calls::verb_of),
            None => None,
        };
        let names_channel = e.kind == Kind::Text && CHLNAME.find(e.text.as_bytes()).is_some();
        match e.kind {
            // Without `Reason` a text line states no outcome.
            Kind::Text
                if !names_channel
                    && (self.threads.is_empty() || REASON.find(e.text.as_bytes()).is_none()) =>
            {
                return;
            }
            Kind::Entry | Kind::Exit | Kind::ErrorExit if function_verb.is_none() => return,
            _ => {}
        }
        let (path, dir) = self.path_ids(&e.origin.path);
        let key = (path, pid, tid);
        mqdiag_model::budget::forget_oldest_threads(&mut self.threads, |t| t.seen);
        self.clock += 1;
        // Each branch marks the thread seen as it finds it (one look-up).
        let clock = self.clock;
        match e.kind {
            Kind::Text => {
                if names_channel {
                    let th = self.threads.entry(key).or_default();
                    th.seen = clock;
                    th.names = Some(Box::new((
                        paren_value(&e.text, "ChlName("),
                        paren_value(&e.text, "ConnName("),
                    )));
                    th.client = None;
                    return;
                }
                let Some(th) = self.threads.get_mut(&key) else {
                    return;
                };
                th.seen = clock;
                if th.depth == 0 || th.counted {
                    return;
                }
                if let Some(Outcome::Reason(r)) = crate::calls::text_outcome(&e.text)
                    && REFUSED.contains(&r)
                {
                    th.counted = true;
                    // The verb is the one the call's exit names; the text
                    // line is the evidence.
                    let f = Failure {
                        verb: None,
                        reason: r,
                        channel: th.channel().cloned(),
                        conname: th.conname().cloned(),
                    };
                    th.client = failure(&mut self.clients, &mut self.client_index, dir, e, f);
                }
            }
            Kind::Entry => {
                let th = self.threads.entry(key).or_default();
                th.seen = clock;
                if th.depth == 0 {
                    th.counted = false;
                }
                th.depth = th.depth.saturating_add(1);
            }
            Kind::Exit | Kind::ErrorExit => {
                let Some(verb) = function_verb else {
                    return;
                };
                let th = self.threads.entry(key).or_default();
                th.seen = clock;
                th.depth = th.depth.saturating_sub(1);
                let reason = match e.rc.as_deref().map(mqrc::decode_rc) {
                    Some(Outcome::Reason(r)) if REFUSED.contains(&r) => r,
                    _ => return,
                };
                if th.counted {
                    // The outer layer of a call already counted: it names
                    // the verb. Its client is known unless the failure went
                    // uncounted or the thread was forgotten since.
                    let c = match th.client {
                        Some(Some(i)) => self.clients.get_mut(i),
                        Some(None) => None,
                        None => {
                            let chl = th.channel().cloned();
                            self.last_client(e, pid, chl.as_deref())
                        }
                    };
                    if let Some(c) = c {
                        c.verbs.entry(verb).or_insert(0);
                    }
                    return;
                }
                th.counted = true;
                let f = Failure {
                    verb: Some(verb),
                    reason,
                    channel: th.channel().cloned(),
                    conname: th.conname().cloned(),
                };
                th.client = failure(&mut self.clients, &mut self.client_index, dir, e, f);
            }
            _ => {}
        }
    }

    /// The indexes of a trace path and of its directory.
    fn path_ids(&mut self, path: &Arc<str>) -> (u32, u32) {
        if let Some((p, ids)) = &self.last_path
            && Arc::ptr_eq(p, path)
        {
            return *ids;
        }
        let ids = match self.paths.get(path) {
            Some(ids) => *ids,
            None => {
                let n = self.dirs.len() as u32;
                let dir = *self.dirs.entry(dir_of(path).to_string()).or_insert(n);
                let ids = (self.paths.len() as u32, dir);
                self.paths.insert(path.clone(), ids);
                ids
            }
        };
        self.last_path = Some((path.clone(), ids));
        ids
    }

    fn last_client(&mut self, e: &Event, pid: u32, chl: Option<&str>) -> Option<&mut Client> {
        let k = (
            self.path_ids(&e.origin.path).1,
            Some(pid),
            chl.map(str::to_string),
        );
        let i = *self.client_index.get(&k)?;
        Some(&mut self.clients[i])
    }

    fn failure(
        &mut self,
        e: &Event,
        verb: Option<&'static str>,
        reason: u32,
        channel: Option<String>,
        conname: Option<String>,
    ) -> Option<Option<usize>> {
        let dir = self.path_ids(&e.origin.path).1;
        let f = Failure {
            verb,
            reason,
            channel,
            conname,
        };
        failure(&mut self.clients, &mut self.client_index, dir, e, f)
    }

    /// The story of the client's channel whose refusals fall nearest its
    /// failures in time, if any is within the window.
    fn pair(&self, c: &Client, inputs: &[FileInfo]) -> Option<usize> {
        let chl = c.channel.as_deref()?;
        let client_host = info(inputs, &c.path).and_then(|i| i.host.as_deref());
        let mut best: Option<(usize, usize)> = None;
        for (i, s) in self.stories.iter().enumerate() {
            if s.facts.channel.as_deref() != Some(chl) {
                continue;
            }
            if let (Some(h), Some(sh)) = (client_host, s.facts.host.as_deref())
                && !mqdiag_readers::catalog::is_ip(sh)
                && !same_host(h, sh)
            {
                continue;
            }
            let matched = c
                .times
                .iter()
                .filter(|t| near(&s.times, **t, self.window))
                .count();
            if matched > 0 && best.is_none_or(|(_, n)| matched > n) {
                best = Some((i, matched));
            }
        }
        best.map(|(i, _)| i)
    }

    /// Error while the refusals go on until the end of the files that
    /// show them; info when the last one is `recent_days` before that end.
    fn severity<'a>(
        &self,
        last: Ts,
        files: impl Iterator<Item = &'a str>,
        inputs: &[FileInfo],
    ) -> (Severity, Option<String>) {
        let end = files
            .filter_map(|p| info(inputs, p).and_then(|i| i.last))
            .max();
        match end {
            // Lowered: the title says why (issue: a severity that changes
            // without a reason reads as a contradiction).
            Some(n) if n - last > self.recent => (
                Severity::Info,
                Some(format!(
                    " (info, not error: last refused {} before the end of its files)",
                    age(n - last)
                )),
            ),
            _ => (Severity::Error, None),
        }
    }
}

/// A span for a title: `3 days`, `5 hours`, `12 minutes`.
fn age(d: chrono::Duration) -> String {
    let (n, unit) = if d.num_days() >= 2 {
        (d.num_days(), "day")
    } else if d.num_hours() >= 2 {
        (d.num_hours(), "hour")
    } else {
        (d.num_minutes().max(0), "minute")
    };
    format!("{n} {unit}{}", if n == 1 { "" } else { "s" })
}

impl Pass for AccessRefused {
    fn kinds(&self) -> crate::passes::Kinds {
        crate::passes::Kinds::of(&[Kind::LogRecord, Kind::MqEvent, Kind::MqiCall, Kind::Text, Kind::Entry, Kind::Exit, Kind::ErrorExit])
    }

    /// Undated records are stories apart (see the module docs).
    fn reads_undated(&self) -> bool {
        true
    }

    fn observe(&mut self, e: &Event) {
        match e.kind {
            Kind::LogRecord => self.record(e),
            Kind::MqEvent => self.event(e),
            Kind::MqiCall => self.activity(e),
            Kind::Text | Kind::Entry | Kind::Exit | Kind::ErrorExit => self.trace(e),
            _ => {}
        }
    }

    fn finish(&mut self, inputs: &[FileInfo]) -> Vec<Finding> {
        let mut open: Vec<_> = std::mem::take(&mut self.open).into_iter().collect();
        open.sort_by(|a, b| a.1.first.cmp(&b.1.first).then(a.0.cmp(&b.0)));
        for (_, o) in open {
            self.close(o);
        }
        self.place_events();
        for ci in 0..self.clients.len() {
            if let Some(si) = self.pair(&self.clients[ci], inputs) {
                self.stories[si].clients.push(ci);
                self.clients[ci].paired = true;
            }
        }
        let mut out = Vec::new();
        for s in &self.stories {
            if s.occurrences < self.min_occurrences {
                continue;
            }
            out.push(self.story_finding(s, inputs));
        }
        for c in self.clients.iter().filter(|c| !c.paired) {
            if c.failures < self.min_occurrences {
                continue;
            }
            out.push(self.client_finding(c, inputs));
        }
        out.sort_by(|a, b| a.first.cmp(&b.first).then(a.title.cmp(&b.title)));
        out
    }
}

impl AccessRefused {
    fn story_finding(&self, s: &Story, inputs: &[FileInfo]) -> Finding {
        let f = &s.facts;
        let mut parts = Vec::new();
        if let Some(u) = &f.user {
            parts.push(format!("user '{u}'"));
        } else if let Some(a) = &f.appl {
            parts.push(format!("application '{a}'"));
        }
        if let Some(o) = &f.object {
            parts.push(format!("object '{o}'"));
        }
        if let Some(c) = &f.channel {
            parts.push(format!("channel '{c}'"));
        }
        match (&f.host, &f.address) {
            (Some(h), Some(a)) if h != a => parts.push(format!("from {h} ({a})")),
            (_, Some(a)) => parts.push(format!("from {a}")),
            (Some(h), None) => parts.push(format!("from {h}")),
            _ => {}
        }
        if let Some(q) = &f.qmgr {
            parts.push(format!("queue manager {q}"));
        }
        let mut how = String::new();
        if let Some(c) = &f.check {
            how = format!(" by {c}");
        }
        if s.mech == Mechanism::Authority && !s.permissions.is_empty() {
            how = format!(
                " for {}",
                s.permissions.iter().cloned().collect::<Vec<_>>().join(", ")
            );
        }
        if s.mech == Mechanism::Userid
            && let Some(r) = &f.reason
        {
            how = format!(" with reason {r}");
        }
        if let Some(o) = &f.options {
            how.push_str(&format!(" (options {o})"));
        }
        let clients: Vec<&Client> = s.clients.iter().map(|i| &self.clients[*i]).collect();
        let client_failures: u64 = clients.iter().map(|c| c.failures).sum();
        let undated = mqdiag_model::event::is_undated(&s.first);
        let mut title = format!(
            "{}{}: {}, {}{}",
            mech_words(s.mech),
            how,
            parts.join(", "),
            times(s.occurrences),
            if undated { TIME_UNKNOWN } else { "" }
        );
        let mut subject = Subject {
            channel: f.channel.clone(),
            host: f.host.clone().filter(|h| Some(h) != f.address.as_ref()),
            address: f.address.clone(),
            user: f.user.clone(),
            qmgr: f.qmgr.clone(),
            queue: f
                .object
                .clone()
                .filter(|_| oam_type(f.object_type.as_deref()) == "q"),
            program: f.appl.clone(),
            ..Default::default()
        };
        let files = s
            .files
            .iter()
            .map(|p| &**p)
            .chain(s.clients.iter().map(|i| &*self.clients[*i].path));
        // How long ago an undated refusal was cannot be told: an error.
        let (severity, lowered) = if undated {
            (Severity::Error, None)
        } else {
            self.severity(s.last, files, inputs)
        };
        let mut fd = Finding::new(RULE.id, severity, String::new());
        fd.count = s.occurrences;
        fd.saw(&s.first);
        fd.saw(&s.last);
        let mut evidence: Vec<Evidence> = s.evidence.iter().take(SIDE_EVIDENCE).cloned().collect();
        if let Some(l) = &s.latest
            && !evidence.contains(l)
        {
            if evidence.len() >= SIDE_EVIDENCE {
                evidence.pop();
            }
            evidence.push(l.clone());
        }
        // The event messages of refusals a record told: both are cited.
        for ev in &s.event_evidence {
            if evidence.len() >= SIDE_EVIDENCE {
                evidence.pop();
            }
            evidence.push(ev.clone());
        }
        let mut client_reason = None;
        let mut program = None;
        if let Some(c) = clients.first() {
            let i = info(inputs, &c.path);
            program = i.and_then(|i| i.process.clone());
            let who = match (&program, c.pid) {
                (Some(p), Some(pid)) => format!("{p} pid {pid}"),
                (None, Some(pid)) => format!("pid {pid}"),
                (Some(p), None) => p.clone(),
                (None, None) => c.path.to_string(),
            };
            let reasons = clients.iter().fold(BTreeMap::new(), |mut m, c| {
                for (r, n) in &c.reasons {
                    *m.entry(*r).or_default() += n;
                }
                m
            });
            let rt = reason_text(&reasons);
            title.push_str(&format!(
                "; the client saw {} fail with {rt} {} ({who})",
                verbs_text(&c.verbs),
                times(client_failures)
            ));
            client_reason = Some(rt);
            subject.pid = c.pid;
            if subject.program.is_none() {
                subject.program = program.clone();
            }
            for c in &clients {
                fd.saw(&c.first);
                fd.saw(&c.last);
                let mut side: Vec<Evidence> = c.evidence.clone();
                if let Some(l) = &c.latest {
                    side.push(l.evidence());
                }
                for ev in side {
                    if evidence.len() < MAX_EVIDENCE && !evidence.contains(&ev) {
                        evidence.push(ev);
                    }
                }
            }
        }
        title.push_str(lowered.as_deref().unwrap_or_default());
        fd.title = title;
        fd.subject = subject;
        fd.evidence = evidence;
        let m = &mut fd.metrics;
        m.set("mechanism", Metric::Str(s.mech.as_str().to_string()));
        m.set("occurrences", Metric::int(s.occurrences));
        m.set("user", Metric::opt_str(f.user.as_deref()));
        m.set("address", Metric::opt_str(f.end()));
        m.set("channel", Metric::opt_str(f.channel.as_deref()));
        s.who.set_metrics(m);
        m.set("message_id", Metric::Str(counts(&s.ids)));
        m.set("check", Metric::opt_str(f.check.as_deref()));
        if f.values.is_some() {
            m.set("matched_values", Metric::opt_str(f.values.as_deref()));
        }
        if f.object.is_some() {
            m.set("object", Metric::opt_str(f.object.as_deref()));
        }
        if !s.permissions.is_empty() {
            m.set(
                "permissions",
                Metric::Str(s.permissions.iter().cloned().collect::<Vec<_>>().join(", ")),
            );
        }
        if s.events > 0 {
            m.set("event_messages", Metric::int(s.events));
        }
        if let Some(o) = &f.options {
            m.set("options", Metric::Str(o.clone()));
        }
        if undated {
            // `first` and `last` are null: this says why.
            m.set("time", Metric::Str("unknown".to_string()));
        }
        if client_failures > 0 {
            m.set("client_failures", Metric::int(client_failures));
            m.set("client_reason", Metric::opt_str(client_reason.as_deref()));
            m.set("client_program", Metric::opt_str(program.as_deref()));
        }
        fd.advice = advice(s.mech, f, &s.permissions);
        fd.key = format!(
            "{}:{}:{}",
            s.mech.as_str(),
            f.user.as_deref().or(f.appl.as_deref()).unwrap_or(""),
            f.object.as_deref().unwrap_or("")
        );
        fd
    }

    fn client_finding(&self, c: &Client, inputs: &[FileInfo]) -> Finding {
        let i = info(inputs, &c.path);
        let program = i.and_then(|i| i.process.clone());
        let host = i.and_then(|i| i.host.clone());
        let who = match (&program, c.pid) {
            _ if !c.others.is_empty() => format!(
                "{}{} more processes (past the run budget of {} told apart)",
                if c.others.untold() { "at least " } else { "" },
                mqdiag_model::findings::thousands(c.others.len()),
                mqdiag_model::findings::thousands(MAX_CLIENTS as u64)
            ),
            (Some(p), Some(pid)) => format!("{p} (pid {pid})"),
            (None, Some(pid)) => format!("pid {pid}"),
            (Some(p), None) => p.clone(),
            (None, None) => c.path.to_string(),
        };
        let mut where_ = String::new();
        if let Some(ch) = &c.channel {
            where_.push_str(&format!(" on channel '{ch}'"));
        }
        if let Some(cn) = &c.conname {
            where_.push_str(&format!(" to {cn}"));
        }
        let (severity, lowered) = self.severity(c.last, std::iter::once(&*c.path), inputs);
        let mut fd = Finding::new(
            RULE.id,
            severity,
            format!(
                "{} refused with {} for {who}{where_}, {}; no queue manager record in the capture says why{}",
                verbs_text(&c.verbs),
                reason_text(&c.reasons),
                times(c.failures),
                lowered.as_deref().unwrap_or_default()
            ),
        );
        fd.count = c.failures;
        fd.saw(&c.first);
        fd.saw(&c.last);
        fd.subject = Subject {
            pid: c.pid,
            program: program.clone(),
            channel: c.channel.clone(),
            host,
            ..Default::default()
        };
        let mut ev = c.evidence.clone();
        if let Some(l) = &c.latest {
            ev.push(l.evidence());
        }
        fd.evidence = ev;
        let m = &mut fd.metrics;
        m.set(
            "mechanism",
            Metric::Str(Mechanism::Unknown.as_str().to_string()),
        );
        m.set("occurrences", Metric::int(c.failures));
        m.set("user", Metric::Null);
        m.set("address", Metric::Null);
        m.set("channel", Metric::opt_str(c.channel.as_deref()));
        m.set("client_failures", Metric::int(c.failures));
        m.set("client_reason", Metric::Str(reason_text(&c.reasons)));
        m.set("client_program", Metric::opt_str(program.as_deref()));
        if !c.others.is_empty() {
            m.set("processes", Metric::int(c.others.len()));
        }
        if let Some(cn) = &c.conname {
            m.set("conname", Metric::Str(cn.clone()));
        }
        let facts = Facts {
            channel: c.channel.clone(),
            ..Default::default()
        };
        fd.advice = advice(Mechanism::Unknown, &facts, &BTreeSet::new());
        fd.key = format!("unknown:{}", verbs_text(&c.verbs));
        fd
    }
}

/// What refused, as a reason qualifier says it (IBM, "Not Authorized
/// (type 1)" to "(type 6)" and "Channel Blocked" event pages).
fn check_of(q: &str) -> &str {
    match q {
        "MQRQ_CONN_NOT_AUTHORIZED" => "the connect check (Not Authorized type 1)",
        "MQRQ_SYS_CONN_NOT_AUTHORIZED" => "the system connect check (Not Authorized type 1)",
        "MQRQ_CSP_NOT_AUTHORIZED" => "the user id and password check (Not Authorized type 1)",
        "MQRQ_OPEN_NOT_AUTHORIZED" => "the open check (Not Authorized type 2)",
        "MQRQ_CLOSE_NOT_AUTHORIZED" => "the close check (Not Authorized type 3)",
        "MQRQ_CMD_NOT_AUTHORIZED" => "the command check (Not Authorized type 4)",
        "MQRQ_SUB_NOT_AUTHORIZED" => "the subscribe check (Not Authorized type 5)",
        "MQRQ_SUB_DEST_NOT_AUTHORIZED" => {
            "the subscription destination check (Not Authorized type 6)"
        }
        "MQRQ_CHANNEL_BLOCKED_ADDRESS" => "a BLOCKADDR record",
        "MQRQ_CHANNEL_BLOCKED_USERID" => "a BLOCKUSER record",
        "MQRQ_CHANNEL_BLOCKED_NOACCESS" => "USERSRC(NOACCESS)",
        other => other,
    }
}

/// `X` of `Name(X)`, the parentheses inside it kept (`ConnName(host(1414))`).
fn paren_value(text: &str, open: &str) -> Option<String> {
    let start = text.find(open)? + open.len();
    let mut depth = 1usize;
    for (i, ch) in text[start..].char_indices() {
        match ch {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    let v = text[start..start + i].trim();
                    return (!v.is_empty()).then(|| v.to_string());
                }
            }
            _ => {}
        }
    }
    None
}

fn dir_of(path: &str) -> &str {
    path.rfind(['/', '\\', '!']).map_or("", |i| &path[..i])
}

fn info<'a>(inputs: &'a [FileInfo], path: &str) -> Option<&'a FileInfo> {
    inputs.iter().find(|i| i.path == path)
}

/// Host names equal up to case and domain.
fn same_host(a: &str, b: &str) -> bool {
    let short = |s: &str| s.split('.').next().unwrap_or(s).to_ascii_lowercase();
    short(a) == short(b)
}

/// Whether a time in `times` (unsorted) is within `w` of `t`.
fn near(times: &[Ts], t: Ts, w: chrono::Duration) -> bool {
    times.iter().any(|s| (*s - t).abs() <= w)
}
