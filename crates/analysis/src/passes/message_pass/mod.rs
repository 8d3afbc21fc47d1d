//! The pass behind the `channel-error` and `tls-error` rules. Which
//! messages they report, how severe each is, what it means and what to do
//! is data in the one message catalogue, `mqdiag_readers::catalog`.
//!
//! Records MQ writes together for one failure are first joined into one
//! story (`super::stories`) and counted once, under their cause. Stories
//! are tallied per message, queue manager, channel, remote end and return
//! code (a `breakdown` row); at the end the rows become findings: one per
//! channel of a queue manager, or per remote end where no channel is known
//! (a name and an address are one end when any record pairs them), and one
//! per address that tried many channel names this queue manager does not
//! define (a scan).
//!
//! Event messages join in (`mq-events`): a Channel SSL Error (2371) stands
//! for the message its reason qualifier implies (cipher spec AMQ9631, peer
//! name AMQ9636, client authentication AMQ9637; a handshake error is a TLS
//! failure of its own), a Channel Stopped (2283) by an error for the AMQ
//! message its `ErrorIdentifier` names. An event of a failure an error-log
//! story already counts (the same channel, within a second) is cited beside
//! it and not counted again; others are failures of their own.

use super::builder::FindingBuilder;
use super::parts_index::{self, PartsIndex};
use super::stories::{Joiner, Member, Story};
use super::{RuleInfo, Settings};
use mqdiag_model::event::Key;
use mqdiag_model::event::{Event, Kind, Ts};
use mqdiag_model::fileinfo::FileInfo;
use mqdiag_model::findings::{
    Breakdown, EventRef, Evidence, EvidenceSet, Finding, Metric, thousands,
};
use mqdiag_model::problem::Severity;
use rustc_hash::FxHashMap;
use std::collections::{BTreeMap, BTreeSet, HashMap};

pub(crate) use mqdiag_readers::catalog::Family;

/// Rows kept per rule; past this, further rows lose their remote end (and
/// past twice this, their channel) so that they join a row that exists.
const MAX_ROWS: usize = 2000;
/// The name of the end (or channel) of rows past the cap.
const OTHER: &str = "(other)";
/// Breakdown rows shown per finding, busiest first.
const MAX_BREAKDOWN: usize = 20;
/// Hosts named in the `busiest_hosts` metric.
const HOSTS_NAMED: usize = 5;
/// Channel names named in a scan finding's title.
const NAMES_IN_TITLE: usize = 4;

/// A pass's thresholds, read once.
pub(crate) struct Config {
    pub(crate) min_occurrences: u64,
    /// Groups with at least this many occurrences keep their severity
    /// however old they are.
    pub(crate) frequent: u64,
    /// Groups seen within this many days of the newest record keep their
    /// severity however rare they are.
    pub(crate) recent_days: f64,
    /// Fewest undefined channel names from one address that make a scan;
    /// `None`: this rule does not look for scans.
    pub(crate) scan_min_channels: Option<usize>,
}

impl Config {
    pub(crate) fn from(s: &Settings, scans: bool) -> Config {
        Config {
            min_occurrences: s.get("min_occurrences").max(1.0) as u64,
            frequent: s.get("frequent_occurrences").max(1.0) as u64,
            recent_days: s.get("recent_days").max(0.0),
            scan_min_channels: scans.then(|| s.get("scan_min_channels").max(2.0) as usize),
        }
    }
}

/// One breakdown row's key: what a story's cause and its records say.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct RowKey {
    id: String,
    qmgr: String,
    channel: String,
    name: String,
    address: String,
    reason: String,
}

struct Row {
    msgid: String,
    severity: Severity,
    /// The catalogue's meaning and advice, or the record's own words.
    meaning: String,
    advice: String,
    occurrences: u64,
    first: Ts,
    last: Ts,
    /// The records of the first story, and the cause of the latest one.
    evidence: Vec<Evidence>,
    last_ev: Option<EventRef>,
    /// Other records of the stories (AMQ9999, AMQ9780), by id as written.
    companions: BTreeMap<String, u64>,
}

/// What both message rules say of how records become occurrences and
/// findings (their `trigger` texts differ before and after it).
macro_rules! story_trigger {
    () => {
        "informational ones excluded). Records MQ writes together for one failure (the same file, process and thread, within a \
        second, not naming different channels or remote ends: AMQ9209 + AMQ9999 + AMQ9780, \
        CSQX209E + CSQX599E, ...) are one occurrence, counted under the most specific message \
        (AMQ9780 and the generic AMQ9999/CSQX599 only when nothing else says why), the others kept \
        as evidence (`also_written`); identical records (same time, process, thread, message and \
        text) in rotated or copied logs count once. Occurrences are grouped by queue manager and \
        channel, or by remote end where no channel is known (a host name and an address are one \
        end when any record pairs them; `????` counts as unknown), else by message; a group with \
        at least `min_occurrences` occurrences is a finding with its count, first and last time, \
        the message ids most frequent first, and a `breakdown` per message, channel, remote end and \
        return code. Severity is the highest of the group's messages in the catalogue, lowered to \
        info when the group has fewer than `frequent_occurrences` occurrences and its last one is \
        more than `recent_days` days before the newest channel or TLS record of its queue \
        manager: a long log then \
        reads as the failures that recur or are current."
    };
}
pub(crate) use story_trigger;

/// The thresholds both message rules group by, then a rule's own.
macro_rules! message_thresholds {
    ($($extra:expr),* $(,)?) => {
        &[
            $crate::passes::Threshold::new(
                "min_occurrences",
                1.0,
                "occurrences",
                "fewest occurrences of one group (channel, remote end) to report",
            )
            .range(1.0, $crate::passes::THRESHOLD_MAX),
            $crate::passes::Threshold::new(
                "frequent_occurrences",
                10.0,
                "occurrences",
                "a group with at least this many occurrences keeps its severity however old",
            )
            .range(1.0, $crate::passes::THRESHOLD_MAX),
            $crate::passes::Threshold::new(
                "recent_days",
                7.0,
                "days",
                "a group seen within this many days of the newest record keeps its severity however rare",
            ),
            $($extra),*
        ]
    };
}
pub(crate) use message_thresholds;

/// The pass behind `channel-error` and `tls-error`: when both rules run,
/// one pass serves both (`absorb`), so that records are joined into
/// stories once; each story is tallied by the rule of its cause's family.
pub(crate) struct MessagePass {
    rules: Vec<RuleRows>,
    joiner: Joiner,
    /// The newest record of either family per queue manager (`""` for
    /// records that name none): "recent" is measured from it, so that the
    /// logs of several queue managers analysed together do not age each
    /// other.
    newest: FxHashMap<String, Ts>,
    /// Event messages of failures, kept to the end: the error log's
    /// record of the same failure may come just after.
    events: Vec<(Member, u32)>,
    /// The row (rule, row) and second of each error-log story of a
    /// channel counted, for the events of the same failures: plain
    /// numbers, repeats of the last one not kept, so that logs without
    /// events pay next to nothing for it.
    told: Vec<Told>,
    /// The stories closed by a record, tallied then emptied (its buffer
    /// reused).
    closed: Vec<Story>,
}

/// Event failures and told stories kept at most.
const MAX_EVENTS: usize = 100_000;

/// A story counted: its rule's and row's places and its cause's second.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Told {
    sec: i64,
    rule: u32,
    row: u32,
}

/// One rule's part of the pass: its settings and breakdown rows.
struct RuleRows {
    rule: &'static RuleInfo,
    family: Family,
    config: Config,
    rows: Rows,
}

/// The breakdown rows, found by their key's parts without building it
/// (a key is six strings; most stories add to a row that exists).
#[derive(Default)]
struct Rows {
    /// The rows by their key's parts.
    index: PartsIndex,
    rows: Vec<(RowKey, Row)>,
}

impl RowKey {
    fn is(&self, parts: &[&str; 6]) -> bool {
        let [id, qmgr, channel, name, address, reason] = parts;
        self.address == *address
            && self.channel == *channel
            && self.id == *id
            && self.name == *name
            && self.reason == *reason
            && self.qmgr == *qmgr
    }
}

impl Rows {
    fn len(&self) -> usize {
        self.rows.len()
    }

    fn find(&self, parts: &[&str; 6]) -> Option<usize> {
        let rows = &self.rows;
        self.index
            .find(parts_index::hash(parts), |i| rows[i].0.is(parts))
    }

    /// Add `row` under `parts` (not there yet).
    fn insert(&mut self, parts: &[&str; 6], row: Row) -> usize {
        self.index.insert(parts_index::hash(parts), self.rows.len());
        let [id, qmgr, channel, name, address, reason] = parts.map(str::to_string);
        let key = RowKey {
            id,
            qmgr,
            channel,
            name,
            address,
            reason,
        };
        let i = self.rows.len();
        self.rows.push((key, row));
        i
    }
}

impl MessagePass {
    pub(crate) fn new(rule: &'static RuleInfo, family: Family, config: Config) -> Self {
        MessagePass {
            rules: vec![RuleRows {
                rule,
                family,
                config,
                rows: Rows::default(),
            }],
            joiner: Joiner::default(),
            newest: FxHashMap::default(),
            events: Vec::new(),
            told: Vec::new(),
            closed: Vec::new(),
        }
    }

    /// An event message of a channel or TLS failure, as the member the
    /// error-log message it implies would be.
    fn event(&mut self, e: &Event) {
        let Some((msgid, family)) = implied_message(e) else {
            return;
        };
        let mut c = e.clone();
        c.set(Key::Msgid, &msgid);
        if let Some(f) = family {
            c.set(Key::Family, f);
            c.set(Key::Severity, "E");
        }
        let Some(m) = Member::of(&c, mqdiag_readers::catalog::reported_of(&c)) else {
            return;
        };
        if self.events.len() < MAX_EVENTS {
            let reason = e.get(Key::Reason).and_then(|r| r.parse().ok()).unwrap_or(0);
            self.events.push((m, reason));
        } else {
            self.tally(Story { members: vec![m] });
        }
    }

    /// Each event either is cited beside the error-log story of the same
    /// failure (the same channel within a second), or beside the event of
    /// another type that told the same failure just before it (a Channel
    /// SSL Error and the Channel Stopped it caused), or counts as a
    /// failure of its own.
    fn place_events(&mut self) {
        let events = std::mem::take(&mut self.events);
        if events.is_empty() {
            return;
        }
        let mut told = std::mem::take(&mut self.told);
        told.sort_unstable();
        // Events counted alone, in time order, with their event reason.
        let mut alone: Vec<(Told, u32)> = Vec::new();
        for (m, reason) in events {
            if m.channel().is_empty() {
                self.tally(Story { members: vec![m] });
                continue;
            }
            if self.cite(&told, &m) {
                continue;
            }
            let sec = m.ts.timestamp();
            let from = alone.partition_point(|(t, _)| t.sec < sec.saturating_sub(1));
            let sibling: Vec<Told> = alone[from..]
                .iter()
                .filter(|(_, r)| *r != reason)
                .map(|(t, _)| *t)
                .collect();
            if self.cite(&sibling, &m) {
                continue;
            }
            let before = self.told.len();
            self.tally(Story { members: vec![m] });
            if let Some(t) = self.told.get(before) {
                alone.push((*t, reason));
            }
        }
    }

    /// Cite an event beside the row of a story of its channel counted
    /// within a second of it; whether one was.
    fn cite(&mut self, told: &[Told], m: &Member) -> bool {
        let sec = m.ts.timestamp();
        let from = told.partition_point(|t| t.sec < sec.saturating_sub(1));
        let found = told[from..]
            .iter()
            .take_while(|t| t.sec <= sec.saturating_add(1))
            .find(|t| {
                self.rules[t.rule as usize].rows.rows[t.row as usize]
                    .0
                    .channel
                    .eq_ignore_ascii_case(m.channel())
            });
        let Some(t) = found else {
            return false;
        };
        let row = &mut self.rules[t.rule as usize].rows.rows[t.row as usize].1;
        if row.evidence.len() < 5 {
            row.evidence.push(m.evidence());
        }
        *row.companions
            .entry(format!("{} (event)", m.msgid()))
            .or_default() += 1;
        true
    }

    /// Count one story under the rule of its cause's family, if it runs.
    fn tally(&mut self, s: Story) {
        let cause = s.cause();
        let Some(rule) = self.rules.iter().position(|r| r.family == cause.family) else {
            return;
        };
        let row = self.rules[rule].tally(&s);
        if !cause.channel().is_empty() && self.told.len() < MAX_EVENTS {
            let t = Told {
                sec: cause.ts.timestamp(),
                rule: rule as u32,
                row: row as u32,
            };
            if self.told.last() != Some(&t) {
                self.told.push(t);
            }
        }
    }
}

impl RuleRows {
    /// Count `s`; the index of its row.
    fn tally(&mut self, s: &Story) -> usize {
        let cause = s.cause();
        let mut parts = [
            cause.id(),
            s.qmgr(),
            s.channel(),
            s.name(),
            s.address(),
            s.reason(),
        ];
        let mut found = self.rows.find(&parts);
        // Past the cap a new row keeps its message and channel (findings
        // are per channel) and loses its end and return code; past twice
        // the cap, its channel too.
        if found.is_none() && self.rows.len() >= MAX_ROWS {
            parts[3] = OTHER;
            parts[4] = "";
            parts[5] = "";
            found = self.rows.find(&parts);
            if found.is_none() && self.rows.len() >= 2 * MAX_ROWS {
                parts[2] = OTHER;
                found = self.rows.find(&parts);
            }
        }
        let first_ts = s.members.iter().map(|m| m.ts).min().unwrap_or(cause.ts);
        let i = found.unwrap_or_else(|| {
            let (meaning, advice) = words(cause);
            let row = Row {
                msgid: cause.msgid().to_string(),
                severity: cause.severity(),
                meaning,
                advice,
                occurrences: 0,
                first: first_ts,
                last: first_ts,
                evidence: s.members.iter().take(3).map(Member::evidence).collect(),
                last_ev: None,
                companions: BTreeMap::new(),
            };
            self.rows.insert(&parts, row)
        });
        let row = &mut self.rows.rows[i].1;
        row.occurrences += 1;
        for m in &s.members {
            row.first = row.first.min(m.ts);
            row.last = row.last.max(m.ts);
        }
        if row.occurrences > 1 {
            cause.refer(&mut row.last_ev);
        }
        let cause_at = (cause.line(), cause.id());
        for m in &s.members {
            if (m.line(), m.id()) != cause_at {
                // Found without a copy of the id: most rows have met it.
                match row.companions.get_mut(m.msgid()) {
                    Some(n) => *n += 1,
                    None => {
                        row.companions.insert(m.msgid().to_string(), 1);
                    }
                }
            }
        }
        i
    }
}

impl Row {
    /// Add another row of the same message, channel and end.
    fn merge(&mut self, o: Row) {
        if o.first < self.first {
            self.evidence = o.evidence;
        }
        if o.last > self.last || self.last_ev.is_none() {
            self.last_ev = o.last_ev.or(self.last_ev.take());
        }
        self.occurrences += o.occurrences;
        self.first = self.first.min(o.first);
        self.last = self.last.max(o.last);
        self.severity = self.severity.max(o.severity);
        for (c, n) in o.companions {
            *self.companions.entry(c).or_default() += n;
        }
    }
}

/// The error-log message an event message stands for, and the family to
/// give it when the catalogue does not know it (`RC2371`: a TLS handshake
/// error the qualifier says no more of).
fn implied_message(e: &Event) -> Option<(String, Option<&'static str>)> {
    let q = e.get(Key::Qualifier).unwrap_or("");
    match e.get(Key::Reason)? {
        "2371" => Some(match q {
            "MQRQ_SSL_CIPHER_SPEC_ERROR" => ("AMQ9631E".to_string(), None),
            "MQRQ_SSL_PEER_NAME_ERROR" => ("AMQ9636E".to_string(), None),
            "MQRQ_SSL_CLIENT_AUTH_ERROR" => ("AMQ9637E".to_string(), None),
            _ => ("RC2371".to_string(), Some("tls")),
        }),
        "2283" if q != "MQRQ_CHANNEL_STOPPED_OK" => {
            let id = e.get(Key::ErrorId).filter(|i| i.starts_with("AMQ"));
            Some(match id {
                Some(i) => (format!("{i}E"), None),
                None => ("RC2283".to_string(), Some("channel")),
            })
        }
        _ => None,
    }
}

/// A message's short meaning (for titles) and its advice.
fn words(m: &Member) -> (String, String) {
    match (&m.known, m.fallback()) {
        (Some(k), _) => {
            let short = k.meaning.split(" (").next().unwrap_or(k.meaning);
            let short = short.split(':').next().unwrap_or(short).to_string();
            (short, format!("{}. {}", k.meaning, k.advice))
        }
        (None, Some((text, _))) => (
            text.to_string(),
            format!(
                "{text}. mqdiag has no specific advice for {}: read the message's EXPLANATION \
                 and ACTION in the log, and the other end's log at the same time.",
                m.id()
            ),
        ),
        (None, None) => (m.msgid().to_string(), String::new()),
    }
}

impl super::Pass for MessagePass {
    fn absorb(&mut self, other: &mut dyn super::Pass) -> bool {
        let other: &mut dyn std::any::Any = other;
        match other.downcast_mut::<MessagePass>() {
            Some(o) => {
                self.rules.append(&mut o.rules);
                true
            }
            None => false,
        }
    }

    fn kinds(&self) -> crate::passes::Kinds {
        crate::passes::Kinds::of(&[Kind::LogRecord, Kind::MqEvent])
    }

    fn observe(&mut self, e: &Event) {
        if e.kind != Kind::LogRecord {
            if e.kind == Kind::MqEvent {
                self.event(e);
            }
            return;
        }
        if e.get(Key::Msgid).is_none() {
            return;
        }
        let Some(m) = Member::of(e, mqdiag_readers::catalog::reported_of(e)) else {
            return;
        };
        if self.joiner.seen_before(e) {
            return;
        }
        match self.newest.get_mut(m.qmgr()) {
            Some(n) => *n = (*n).max(e.ts),
            None => {
                self.newest.insert(m.qmgr().to_string(), e.ts);
            }
        }
        self.joiner.push(e, m);
        let mut closed = std::mem::take(&mut self.closed);
        self.joiner.swap_closed(&mut closed);
        for s in closed.drain(..) {
            self.tally(s);
        }
        self.closed = closed;
    }

    fn finish(&mut self, _inputs: &[FileInfo]) -> Vec<Finding> {
        for s in self.joiner.finish() {
            self.tally(s);
        }
        self.place_events();
        let mut out = Vec::new();
        for r in &mut self.rules {
            out.extend(r.findings(&self.newest));
        }
        out
    }
}

impl RuleRows {
    fn findings(&mut self, newest: &FxHashMap<String, Ts>) -> Vec<Finding> {
        let rows = super::by_key(std::mem::take(&mut self.rows).rows);
        let ends = Ends::of(&rows);
        let rows = ends.complete(rows);
        // Scans first: their rows are not reported again per channel.
        let mut taken = vec![false; rows.len()];
        let mut groups: Vec<(GroupKind, Vec<usize>)> = Vec::new();
        if let Some(min) = self.config.scan_min_channels {
            let mut by_end: BTreeMap<(&str, usize), Vec<usize>> = BTreeMap::new();
            for (i, (k, _)) in rows.iter().enumerate() {
                // Many undefined names from one address are a scan.
                if mqdiag_readers::catalog::role(&k.id)
                    == mqdiag_readers::catalog::Role::UndefinedChannel
                    && !k.channel.is_empty()
                    && let Some(end) = ends.of_row(k)
                {
                    by_end.entry((&k.qmgr, end)).or_default().push(i);
                }
            }
            for (_, idx) in by_end {
                let names: BTreeSet<&str> =
                    idx.iter().map(|&i| rows[i].0.channel.as_str()).collect();
                if names.len() >= min {
                    for &i in &idx {
                        taken[i] = true;
                    }
                    groups.push((GroupKind::Scan, idx));
                }
            }
        }
        // The rest: per channel of a queue manager, else per remote end,
        // else per message.
        let mut rest: BTreeMap<(String, GroupKind, String), Vec<usize>> = BTreeMap::new();
        for (i, (k, _)) in rows.iter().enumerate() {
            if taken[i] {
                continue;
            }
            let (kind, what) = if !k.channel.is_empty() {
                (GroupKind::Channel, k.channel.clone())
            } else if let Some(end) = ends.of_row(k) {
                (GroupKind::End, format!("{end:020}"))
            } else {
                (GroupKind::Message, k.id.clone())
            };
            rest.entry((k.qmgr.clone(), kind, what))
                .or_default()
                .push(i);
        }
        groups.extend(rest.into_iter().map(|((_, kind, _), idx)| (kind, idx)));
        let mut out = Vec::new();
        for (kind, idx) in groups {
            let members: Vec<(&RowKey, &Row)> =
                idx.iter().map(|&i| (&rows[i].0, &rows[i].1)).collect();
            if let Some(f) = self.finding(newest, kind, &members, &ends) {
                out.push(f);
            }
        }
        out
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum GroupKind {
    Scan,
    Channel,
    End,
    Message,
}

/// Remote ends: a name and an address are one end when any story pairs
/// them, and so are all the names and addresses linked through such pairs.
struct Ends {
    index: HashMap<String, usize>,
    parent: Vec<usize>,
}

impl Ends {
    fn of(rows: &[(RowKey, Row)]) -> Ends {
        let mut ends = Ends {
            index: HashMap::new(),
            parent: Vec::new(),
        };
        for (k, _) in rows {
            let a = ends.id(&k.name);
            let b = ends.id(&k.address);
            if let (Some(a), Some(b)) = (a, b) {
                let (ra, rb) = (ends.root(a), ends.root(b));
                // The smaller index is the root: the same end whatever the
                // order rows are linked in.
                let (lo, hi) = (ra.min(rb), ra.max(rb));
                ends.parent[hi] = lo;
            }
        }
        ends
    }

    /// Rows with the end's busiest name and address filled in where a
    /// record gave only one of them, and rows that then agree merged: a
    /// record naming `10.44.1.20` and one naming `mqus01 (10.44.1.20)` are
    /// about the same end.
    fn complete(&self, mut rows: Vec<(RowKey, Row)>) -> Vec<(RowKey, Row)> {
        // Each end's busiest name and address, found before any key is
        // filled in (the counts borrow the keys).
        let mut best: HashMap<usize, (String, String)> = HashMap::new();
        {
            let mut names: HashMap<usize, BTreeMap<&str, u64>> = HashMap::new();
            let mut addresses: HashMap<usize, BTreeMap<&str, u64>> = HashMap::new();
            for (k, r) in &rows {
                if let Some(end) = self.of_row(k) {
                    for (map, v) in [(&mut names, &k.name), (&mut addresses, &k.address)] {
                        if !v.is_empty() {
                            *map.entry(end).or_default().entry(v.as_str()).or_default() +=
                                r.occurrences;
                        }
                    }
                }
            }
            let busiest = |m: &HashMap<usize, BTreeMap<&str, u64>>, end: usize| -> String {
                let mut best: Option<(&str, u64)> = None;
                for (v, c) in m.get(&end).into_iter().flatten() {
                    if best.is_none_or(|(_, b)| *c > b) {
                        best = Some((v, *c));
                    }
                }
                best.map_or(String::new(), |(v, _)| v.to_string())
            };
            for (k, _) in &rows {
                if let Some(end) = self.of_row(k)
                    && (k.name.is_empty() || k.address.is_empty())
                {
                    best.entry(end)
                        .or_insert_with(|| (busiest(&names, end), busiest(&addresses, end)));
                }
            }
        }
        for (k, _) in &mut rows {
            if k.name.is_empty() || k.address.is_empty() {
                let Some((name, address)) = self.of_row(k).and_then(|end| best.get(&end)) else {
                    continue;
                };
                if k.name.is_empty() {
                    k.name = name.clone();
                }
                if k.address.is_empty() {
                    k.address = address.clone();
                }
            }
        }
        let filled = rows;
        // In key order, equal keys in the order they came: each merged
        // into the first, as a map keyed by them would, without moving
        // rows around a tree.
        let mut merged: Vec<(RowKey, Row)> = Vec::with_capacity(filled.len());
        for (k, r) in super::by_key(filled) {
            match merged.last_mut() {
                Some((mk, m)) if *mk == k => m.merge(r),
                _ => merged.push((k, r)),
            }
        }
        merged
    }

    fn id(&mut self, s: &str) -> Option<usize> {
        if s.is_empty() || s == OTHER {
            return None;
        }
        let n = self.parent.len();
        let i = *self.index.entry(s.to_string()).or_insert(n);
        if i == n {
            self.parent.push(n);
        }
        Some(i)
    }

    fn root(&self, mut i: usize) -> usize {
        while self.parent[i] != i {
            i = self.parent[i];
        }
        i
    }

    /// The end a row names, by its address else its name.
    fn of_row(&self, k: &RowKey) -> Option<usize> {
        [&k.address, &k.name]
            .into_iter()
            .find_map(|s| self.index.get(s.as_str()))
            .map(|&i| self.root(i))
    }
}

/// The most frequent non-empty value among rows, by occurrences; ties go
/// to the first in key order.
fn busiest<'a>(
    members: &[(&'a RowKey, &Row)],
    f: impl Fn(&'a RowKey) -> &'a str,
) -> Option<&'a str> {
    let mut n: BTreeMap<&str, u64> = BTreeMap::new();
    for (k, r) in members {
        let v = f(k);
        if !v.is_empty() {
            *n.entry(v).or_default() += r.occurrences;
        }
    }
    let mut best: Option<(&str, u64)> = None;
    for (v, c) in n {
        if best.is_none_or(|(_, b)| c > b) {
            best = Some((v, c));
        }
    }
    best.map(|(v, _)| v)
}

fn end_text(name: Option<&str>, address: Option<&str>) -> String {
    match (name, address) {
        (Some(n), Some(a)) => format!("{n} ({a})"),
        (Some(v), None) | (None, Some(v)) => v.to_string(),
        (None, None) => String::new(),
    }
}

fn non_empty(s: &str) -> Option<&str> {
    (!s.is_empty()).then_some(s)
}

/// Counts of a string per key, most frequent first: `A x3, B x1`.
fn ranked(counts: BTreeMap<String, u64>) -> Vec<(String, u64)> {
    let mut v: Vec<(String, u64)> = counts.into_iter().collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    v
}

impl RuleRows {
    fn finding(
        &self,
        newest: &FxHashMap<String, Ts>,
        kind: GroupKind,
        members: &[(&RowKey, &Row)],
        ends: &Ends,
    ) -> Option<Finding> {
        let occurrences: u64 = members.iter().map(|(_, r)| r.occurrences).sum();
        if occurrences < self.config.min_occurrences {
            return None;
        }
        let g = Summary::of(members, ends, occurrences)?;
        let worst = members.iter().map(|(_, r)| r.severity).max()?;
        let words = if kind == GroupKind::Scan {
            g.scan()
        } else {
            g.messages(kind)
        };
        // A raised severity says why too, like a lowered one.
        let raised = words
            .severity
            .filter(|s| *s > worst)
            .map(|s| (s, words.raised_because.as_str()));
        let (severity, why) = self.severity(words.severity.unwrap_or(worst), &g, newest);
        let reason = match (&why, raised) {
            (Some(why), _) => why.trim_matches(['(', ')']).to_string(),
            (None, Some((s, because))) => {
                format!("{}, not {}: {because}", s.as_str(), worst.as_str())
            }
            (None, None) => format!("{}: the worst of its messages", severity.as_str()),
        };
        let title = match (why, raised) {
            (Some(why), _) => format!("{} {why}", words.title),
            (None, Some((s, because))) => format!(
                "{} ({}, not {}: {because})",
                words.title,
                s.as_str(),
                worst.as_str()
            ),
            (None, None) => words.title,
        };
        let f = FindingBuilder::new(self.rule, severity, title)
            .span(Some(g.first), Some(g.last), occurrences)
            .key(words.key)
            .subject(|s| {
                s.channel = words.channel;
                if !g.qmgr.is_empty() {
                    s.qmgr = Some(g.qmgr.to_string());
                }
                if g.one_end {
                    s.host = g.name.map(str::to_string);
                    s.address = g.address.map(str::to_string);
                }
            })
            .metrics(words.metrics)
            .metrics(g.metrics(kind))
            .kept_evidence(g.evidence())
            .advice(words.advice)
            .with(|f| {
                f.severity_reason = reason;
                if members.len() > 1 {
                    f.breakdown = g.breakdown();
                }
            });
        Some(f.build())
    }

    /// Rare and old: kept, but below the errors someone should act on.
    /// A lowered severity comes with why, said in the title, so two
    /// findings of one message at two severities are not read as a
    /// contradiction.
    fn severity(
        &self,
        severity: Severity,
        g: &Summary,
        newest: &FxHashMap<String, Ts>,
    ) -> (Severity, Option<String>) {
        let last = g.last;
        let newest = newest.get(g.qmgr).copied().unwrap_or(last).max(last);
        let recent = (newest - last).num_seconds() as f64 <= self.config.recent_days * 86_400.0;
        if g.occurrences >= self.config.frequent || recent {
            return (severity, None);
        }
        let why = (severity > Severity::Info).then(|| {
            let days = (newest - last).num_days();
            format!(
                "(info, not {}: last seen {} day{} before the newest record of its queue \
                 manager, and fewer than {} times)",
                severity.as_str(),
                thousands(days.max(0) as u64),
                if days == 1 { "" } else { "s" },
                self.config.frequent
            )
        });
        (Severity::Info, why)
    }
}

/// What a group's rows add up to.
struct Summary<'a> {
    occurrences: u64,
    first: Ts,
    last: Ts,
    /// Message ids (as written) by occurrences.
    ids: Vec<(String, u64)>,
    companions: BTreeMap<String, u64>,
    reasons: BTreeMap<String, u64>,
    /// The rows, busiest first.
    by_count: Vec<&'a (&'a RowKey, &'a Row)>,
    /// The busiest row of the most frequent message: its words are the
    /// finding's.
    top_row: &'a Row,
    qmgr: &'a str,
    /// The known remote ends; records that name none may be any of them.
    roots: BTreeSet<usize>,
    /// Rows past the cap lost their end: it may be any other.
    overflow: bool,
    one_end: bool,
    name: Option<&'a str>,
    address: Option<&'a str>,
    channels: BTreeSet<&'a str>,
}

/// The parts of a finding that differ between a scan and a group of
/// messages.
struct Words {
    /// Set when the kind overrides the rows' own severity.
    severity: Option<Severity>,
    /// Why, said in the title when the override raises it.
    raised_because: String,
    title: String,
    key: String,
    channel: Option<String>,
    /// Metrics that come before the common ones.
    metrics: Vec<(&'static str, Metric)>,
    advice: String,
}

impl<'a> Summary<'a> {
    fn of(
        members: &'a [(&'a RowKey, &'a Row)],
        ends: &Ends,
        occurrences: u64,
    ) -> Option<Summary<'a>> {
        let first = members.iter().map(|(_, r)| r.first).min()?;
        let last = members.iter().map(|(_, r)| r.last).max()?;
        let mut ids: BTreeMap<String, u64> = BTreeMap::new();
        let mut companions: BTreeMap<String, u64> = BTreeMap::new();
        let mut reasons: BTreeMap<String, u64> = BTreeMap::new();
        // Found without a copy of the key: most rows repeat one.
        fn add(map: &mut BTreeMap<String, u64>, k: &str, n: u64) {
            match map.get_mut(k) {
                Some(v) => *v += n,
                None => {
                    map.insert(k.to_string(), n);
                }
            }
        }
        for (k, r) in members {
            add(&mut ids, &r.msgid, r.occurrences);
            for (c, n) in &r.companions {
                add(&mut companions, c, *n);
            }
            if !k.reason.is_empty() {
                add(&mut reasons, &k.reason, r.occurrences);
            }
        }
        let ids = ranked(ids);
        let mut by_count: Vec<&(&RowKey, &Row)> = members.iter().collect();
        by_count.sort_by(|a, b| b.1.occurrences.cmp(&a.1.occurrences).then(a.0.cmp(b.0)));
        let top = by_count[0].1;
        let top_id = &ids[0].0;
        let top_row = by_count
            .iter()
            .find(|(_, r)| &r.msgid == top_id)
            .map_or(top, |(_, r)| *r);
        let roots: BTreeSet<usize> = members.iter().filter_map(|(k, _)| ends.of_row(k)).collect();
        let overflow = members.iter().any(|(k, _)| k.name == OTHER);
        Some(Summary {
            occurrences,
            first,
            last,
            ids,
            companions,
            reasons,
            by_count,
            top_row,
            qmgr: &members[0].0.qmgr,
            one_end: roots.len() == 1 && !overflow,
            roots,
            overflow,
            name: busiest(members, |k| k.name.as_str()).filter(|n| *n != OTHER),
            address: busiest(members, |k| k.address.as_str()),
            channels: members
                .iter()
                .map(|(k, _)| k.channel.as_str())
                .filter(|c| !c.is_empty())
                .collect(),
        })
    }

    /// Someone tries names until one is defined: worth an error whatever
    /// the single message's own severity.
    fn scan(&self) -> Words {
        let mut names: Vec<(String, u64)> = Vec::new();
        for (k, r) in self.by_count.iter().copied() {
            match names.iter_mut().find(|(n, _)| *n == k.channel) {
                Some(slot) => slot.1 += r.occurrences,
                None => names.push((k.channel.clone(), r.occurrences)),
            }
        }
        names.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let mut shown: Vec<String> = names
            .iter()
            .take(NAMES_IN_TITLE)
            .map(|(n, _)| format!("'{n}'"))
            .collect();
        if names.len() > NAMES_IN_TITLE {
            shown.push(format!("{} more", names.len() - NAMES_IN_TITLE));
        }
        Words {
            severity: Some(Severity::Error),
            raised_because: "many undefined names from one address are a scan".to_string(),
            title: format!(
                "Undefined channel names tried from {}: {} names ({}), {} times",
                end_text(self.name, self.address),
                names.len(),
                shown.join(", "),
                thousands(self.occurrences)
            ),
            key: "channel-scan".to_string(),
            channel: None,
            metrics: vec![("channels_tried", Metric::int(names.len() as u64))],
            advice: format!(
                "One address asked for {} channel names this queue manager does not define: a \
                 scanner or a misconfigured client trying names. If the address is not one of \
                 yours, block it (CHLAUTH ADDRESSMAP with USERSRC(NOACCESS), or a firewall); if \
                 it is, correct its channel name. {}",
                names.len(),
                self.top_row.advice
            ),
        }
    }

    /// A group of messages: by message, channel or remote end.
    fn messages(&self, kind: GroupKind) -> Words {
        let top_id = &self.ids[0].0;
        let mut at = Vec::new();
        if let Some(c) = self
            .channels
            .iter()
            .next()
            .filter(|_| self.channels.len() == 1)
        {
            at.push(format!("channel '{c}'"));
        }
        if self.one_end {
            at.push(format!("host '{}'", end_text(self.name, self.address)));
        } else if self.overflow {
            // Some rows lost their end past the cap: at least one more.
            at.push(format!("{}+ hosts", thousands(self.roots.len() as u64 + 1)));
        } else if self.roots.len() > 1 {
            at.push(format!("{} hosts", thousands(self.roots.len() as u64)));
        }
        let mut t = format!("{top_id} {}", self.top_row.meaning);
        if self.ids.len() > 1 {
            let n = self.ids.len() - 1;
            let s = if n == 1 { "" } else { "s" };
            t.push_str(&format!(" and {n} other message{s}"));
        }
        if !at.is_empty() {
            t.push_str(&format!(", {}", at.join(", ")));
        }
        if self.occurrences > 1 {
            t.push_str(&format!(": {} times", thousands(self.occurrences)));
        }
        let mut advice = self.top_row.advice.clone();
        let mut seen: BTreeSet<&str> = BTreeSet::from([self.top_row.msgid.as_str()]);
        for (_, r) in &self.by_count {
            if seen.insert(r.msgid.as_str()) && seen.len() <= 4 {
                advice.push_str(&format!(" {}: {}.", r.msgid, r.meaning));
            }
        }
        Words {
            severity: None,
            raised_because: String::new(),
            title: t,
            key: match kind {
                GroupKind::Message => top_id.clone(),
                _ => String::new(),
            },
            channel: self
                .channels
                .iter()
                .next()
                .filter(|_| kind == GroupKind::Channel)
                .map(|c| c.to_string()),
            metrics: Vec::new(),
            advice,
        }
    }

    fn metrics(&self, kind: GroupKind) -> Vec<(&'static str, Metric)> {
        let id_list: Vec<&str> = self.ids.iter().map(|(i, _)| i.as_str()).collect();
        let mut m = vec![
            ("message_id", Metric::Str(id_list.join(", "))),
            ("occurrences", Metric::int(self.occurrences)),
        ];
        if !self.reasons.is_empty() {
            let r: Vec<String> = ranked(self.reasons.clone())
                .into_iter()
                .take(8)
                .map(|(r, n)| format!("{r} x{n}"))
                .collect();
            m.push(("reasons", Metric::Str(r.join(", "))));
        }
        if !self.companions.is_empty() {
            let c: Vec<String> = ranked(self.companions.clone())
                .into_iter()
                .map(|(c, n)| format!("{c} x{n}"))
                .collect();
            m.push(("also_written", Metric::Str(c.join(", "))));
        }
        if self.roots.len() > 1 && kind != GroupKind::Scan {
            // Counted by name and address first, each pair written once.
            let mut pairs: HashMap<(&str, &str), u64> = HashMap::new();
            for (k, r) in self.by_count.iter().copied() {
                *pairs.entry((&k.name, &k.address)).or_default() += r.occurrences;
            }
            let mut hosts: BTreeMap<String, u64> = BTreeMap::new();
            for ((name, address), n) in pairs {
                let h = end_text(non_empty(name), non_empty(address));
                if !h.is_empty() {
                    *hosts.entry(h).or_default() += n;
                }
            }
            m.push(("hosts", Metric::int(self.roots.len() as u64)));
            let h: Vec<String> = ranked(hosts)
                .into_iter()
                .take(HOSTS_NAMED)
                .map(|(h, c)| format!("{h} x{c}"))
                .collect();
            m.push(("busiest_hosts", Metric::Str(h.join(", "))));
        }
        m
    }

    /// The first story of the busiest row, the first record of the next
    /// rows, then the newest cause seen.
    fn evidence(&self) -> Vec<Evidence> {
        let mut ev = EvidenceSet::default();
        for e in &self.by_count[0].1.evidence {
            ev.push(e.clone());
        }
        for (_, r) in self.by_count.iter().skip(1) {
            if ev.lines.len() >= 5 {
                break;
            }
            if let Some(e) = r.evidence.first() {
                ev.push(e.clone());
            }
        }
        let latest = self
            .by_count
            .iter()
            .filter(|(_, r)| r.last_ev.is_some())
            .max_by_key(|(_, r)| r.last);
        if let Some(e) = latest.and_then(|(_, r)| r.last_ev.as_ref().map(EventRef::evidence)) {
            if ev.is_full() {
                ev.lines.pop();
            }
            ev.push(e);
        }
        ev.into_sorted()
    }

    fn breakdown(&self) -> Vec<Breakdown> {
        self.by_count
            .iter()
            .take(MAX_BREAKDOWN)
            .map(|(k, r)| Breakdown {
                message_id: Some(r.msgid.clone()),
                channel: Some(k.channel.clone()).filter(|s| !s.is_empty()),
                host: Some(k.name.clone()).filter(|s| !s.is_empty()),
                address: Some(k.address.clone()).filter(|s| !s.is_empty()),
                return_code: Some(k.reason.clone()).filter(|s| !s.is_empty()),
                occurrences: r.occurrences,
                first: Some(r.first),
                last: Some(r.last),
            })
            .collect()
    }
}
#[cfg(test)]
mod tests;
