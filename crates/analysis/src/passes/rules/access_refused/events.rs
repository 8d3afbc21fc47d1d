//! Event messages of refusals (Not Authorized, Channel Blocked): kept to
//! the end of the run, then each cited beside the error-log story of the
//! same refusal or counted as a refusal of its own.

use super::*;

/// A refusal an event message told, kept to the end: the error-log
/// record of the same refusal may come just after it.
pub(super) struct EventRefusal {
    mech: Mechanism,
    id: String,
    facts: Facts,
    at: Ts,
    path: Arc<str>,
    evidence: Evidence,
}

/// Event refusals kept (each is small); past this they are counted as
/// refusals of their own at once.
const MAX_EVENT_REFUSALS: usize = 100_000;

impl AccessRefused {
    /// An event message of a refusal: Not Authorized or Channel Blocked.
    pub(super) fn event(&mut self, e: &Event) {
        // Paired by time with records: one without a time cannot be.
        let Some((mech, id)) = event_refusal(e).filter(|_| !e.is_undated()) else {
            return;
        };
        let mut facts = Facts::default();
        fill(&mut facts.qmgr, e.get(Key::Qmgr));
        fill(&mut facts.channel, e.get(Key::Channel));
        fill(&mut facts.user, e.get(Key::ClientUser));
        fill(&mut facts.appl, e.get(Key::Appl));
        fill(&mut facts.address, e.get(Key::Address));
        fill(&mut facts.reason, e.get(Key::Reason));
        fill(&mut facts.options, e.get(Key::Options));
        if mech != Mechanism::Chlauth {
            // A channel event's object is its channel, said already.
            fill(&mut facts.object, e.get(Key::Object));
            fill(&mut facts.object_type, e.get(Key::ObjectType));
        }
        facts.check = e.get(Key::Qualifier).map(|q| check_of(q).to_string());
        let r = EventRefusal {
            mech,
            id,
            facts,
            at: e.ts,
            path: e.origin.path.clone(),
            evidence: Evidence::from_event(e),
        };
        if self.events.len() >= MAX_EVENT_REFUSALS {
            self.close(r.into_open());
        } else {
            self.events.push(r);
        }
    }

    /// Each event refusal either joins the record-told refusal it is
    /// another view of (counted once, citing both) or is one of its own.
    pub(super) fn place_events(&mut self) {
        let events = std::mem::take(&mut self.events);
        if events.is_empty() {
            return;
        }
        // The refusals the records told, per story and sorted: an event's
        // twin is one of these, never an event placed before it.
        let told: Vec<Vec<Ts>> = self
            .stories
            .iter()
            .map(|s| {
                let mut t = s.times.clone();
                t.sort_unstable();
                t
            })
            .collect();
        let join = chrono::Duration::milliseconds(JOIN_MS);
        for r in events {
            // The record times of story `i` within the join of the event,
            // not yet matched with another event.
            // The nearest record time of story `i` within the join of the
            // event, not yet matched with another event.
            let nearest = |i: usize, s: &Story| {
                let t = &told[i];
                let from = t.partition_point(|t| *t <= r.at - join);
                t[from..]
                    .iter()
                    .take_while(|t| **t < r.at + join)
                    .filter(|t| !s.matched.contains(t))
                    .min_by_key(|t| (**t - r.at).abs())
                    .copied()
            };
            let twin = (0..told.len()).find_map(|i| {
                let s = &self.stories[i];
                if s.mech != r.mech || told[i].is_empty() || !s.facts.agrees(&r.facts) {
                    return None;
                }
                Some((i, nearest(i, s)?))
            });
            match twin {
                Some((i, t)) => {
                    let s = &mut self.stories[i];
                    s.matched.push(t);
                    s.events += 1;
                    s.facts.merge(&r.facts);
                    *s.ids.entry(r.id).or_default() += 1;
                    if s.event_evidence.len() < 2 {
                        s.event_evidence.push(r.evidence);
                    }
                    if s.files.len() < MAX_FILES {
                        s.files.insert(r.path);
                    }
                }
                None => self.close(r.into_open()),
            }
        }
    }
}

impl EventRefusal {
    fn into_open(self) -> Open {
        Open {
            path: self.path,
            first: self.at,
            last: self.at,
            mech: self.mech,
            ids: vec![self.id],
            facts: self.facts,
            evidence: vec![self.evidence],
            permissions: BTreeSet::new(),
        }
    }
}

/// The mechanism and the id (its reason qualifier, else its reason's
/// name) of an event message that tells a refusal: Not Authorized (2035;
/// type 1 by the password check is CONNAUTH, the others the OAM's) and
/// Channel Blocked (2577; not the warning 2578, which let the channel in).
fn event_refusal(e: &Event) -> Option<(Mechanism, String)> {
    let reason = e.get(Key::Reason)?;
    let q = e.get(Key::Qualifier);
    let mech = match reason {
        "2035" => match q {
            Some("MQRQ_CSP_NOT_AUTHORIZED") => Mechanism::Connauth,
            _ => Mechanism::Authority,
        },
        "2577" => Mechanism::Chlauth,
        _ => return None,
    };
    let id = q
        .or(e.get(Key::ReasonName))
        .unwrap_or(reason)
        .to_string();
    Some((mech, id))
}
