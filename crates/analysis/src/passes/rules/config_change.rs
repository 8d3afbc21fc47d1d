//! `config-change`: who changed what, and when, as the queue manager's
//! configuration and command event messages tell it (IBM MQ documentation,
//! "Configuration events" and "Command events": a change puts two messages,
//! the object's attributes before and after, joined by one correlation id;
//! a create or delete puts one; each MQSC or PCF command puts a Command
//! event with its user and application).
//!
//! One story per object changed (queue manager, object type and name): the
//! attributes before → after, the user and application, the command. A
//! hook then tells every other rule's finding that starts within
//! `window_min` after a change to its channel, queue or queue manager that
//! the change came first ("SSLCIPH of TO.QM2 changed from A to B by user
//! admin 4 min before the first AMQ9631E"), and the change's story which
//! failures followed it.

use crate::passes::builder::FindingBuilder;
use crate::passes::{Pass, RuleInfo, Settings, Threshold};
use mqdiag_model::event::{Event, Key, Kind, Ts};
use mqdiag_model::fileinfo::FileInfo;
use mqdiag_model::findings::Part;
use mqdiag_model::findings::{Evidence, EvidenceSet, Finding, Metric};
use mqdiag_model::problem::Severity;
use std::collections::{BTreeMap, HashMap};

pub(crate) static RULE: RuleInfo = RuleInfo {
    id: "config-change",
    severity: Severity::Info,
    summary: "Configuration changes and commands from event messages: who changed what, before and after, and the failures that followed",
    trigger: "Every configuration event message (2367 create, 2368 change, 2369 delete, 2370 \
        refresh; a change's Before Change and After Change messages joined by correlation id) \
        and every command event message (2412 MQSC, 2413 PCF; joined to the change of the \
        same object, user and second). One finding per queue manager, object type and object, \
        naming each attribute's value before and after, the user and the application. Every \
        other finding about the same channel, queue or queue manager that starts within \
        `window_min` minutes after a change says so in its title and metric \
        `changed_before`; the change's finding lists them in `followed_by`.",
    thresholds: &[Threshold::new(
        "window_min",
        60.0,
        "minutes",
        "how long after a change a finding about the same object is told as following it",
    )],
    advice: "Compare the change with what failed after it: undo it (`ALTER` back to the \
        value before) or change the other end to match.",
    metrics: &["object", "object_type", "user", "changes", "occurrences"],
    functions: &[],
    keywords: &[],
    mqi_calls: false,
    smf_columns: &[],
    make: |s| Box::new(ConfigChange::new(s)),
    hook: Some(|plan| Box::new(Linker::new(window_min(plan)))),
    fingerprint: &[Part::Qmgr, Part::Channel, Part::Queue, Part::Key("object type and name")],
    ..RuleInfo::BASE
};

/// Changes kept (each a few strings).
const MAX_CHANGES: usize = 10_000;

fn window_min(plan: &crate::passes::Plan) -> f64 {
    plan.rules
        .iter()
        .find(|(r, _)| r.id == RULE.id)
        .map(|(_, s)| s.get("window_min"))
        .unwrap_or_else(|| Settings::defaults(&RULE).get("window_min"))
}

/// Fields of an event message that are about the event, not the object.
const META: &[&str] = &[
    "eventtype",
    "eventcreated",
    "eventcreation",
    "objectstate",
    "correlationid",
    "eventuserid",
    "eventorigin",
    "eventqmgr",
    "eventappltype",
    "eventapplname",
    "eventapplidentity",
    "eventapplorigin",
    "eventaccountingtoken",
    "sourcequeuemgr",
    "event_queue",
    "alterationdate",
    "alterationtime",
    "command",
    "objecttype",
    "queuemgrname",
];

/// MQSC names of the attributes people change most, by the squashed PCF
/// label the reader keeps; others show as that label.
const MQSC: &[(&str, &str)] = &[
    ("sslcipherspec", "SSLCIPH"),
    ("sslpeername", "SSLPEER"),
    ("sslclientauth", "SSLCAUTH"),
    ("certificatelabel", "CERTLABL"),
    ("connectionname", "CONNAME"),
    ("mcauserid", "MCAUSER"),
    ("maxinstances", "MAXINST"),
    ("maxinstancesperclient", "MAXINSTC"),
    ("sharingconversations", "SHARECNV"),
    ("heartbeatinterval", "HBINT"),
    ("disconnectinterval", "DISCINT"),
    ("xmitqname", "XMITQ"),
    ("maxmsglength", "MAXMSGL"),
    ("maxqdepth", "MAXDEPTH"),
    ("inhibitput", "PUT"),
    ("inhibitget", "GET"),
    ("qdepthhighlimit", "QDEPTHHI"),
    ("qserviceinterval", "QSVCINT"),
    ("channelautodef", "CHAD"),
    ("chlauthrecords", "CHLAUTH"),
    ("connauth", "CONNAUTH"),
    ("sslkeyrepository", "SSLKEYR"),
    ("description", "DESCR"),
];

fn mqsc(label: &str) -> String {
    MQSC.iter()
        .find(|(l, _)| *l == label)
        .map_or_else(|| label.to_string(), |(_, m)| m.to_string())
}

/// One change to one object.
#[derive(Debug, Clone)]
struct Change {
    at: Ts,
    qmgr: String,
    object: String,
    object_type: String,
    user: Option<String>,
    appl: Option<String>,
    /// `changed`, `created`, `deleted`, `refreshed` or `command`.
    what: &'static str,
    command: Option<String>,
    /// Attribute, before, after.
    diffs: Vec<(String, String, String)>,
    evidence: Vec<Evidence>,
}

impl Change {
    /// `SSLCIPH of TO.QM2 changed from A to B by user admin`.
    fn describe(&self) -> String {
        let by = match (&self.user, &self.appl) {
            (Some(u), Some(a)) => format!(" by user {u} ({a})"),
            (Some(u), None) => format!(" by user {u}"),
            (None, Some(a)) => format!(" by {a}"),
            (None, None) => String::new(),
        };
        match self.diffs.as_slice() {
            [(a, b, c), rest @ ..] => {
                let more = if rest.is_empty() {
                    String::new()
                } else {
                    format!(" (and {} more)", rest.len())
                };
                format!("{a} of {} changed from {b} to {c}{more}{by}", self.object)
            }
            [] => match &self.command {
                Some(c) if self.what == "command" => {
                    format!("command '{c}' on {}{by}", self.object)
                }
                _ => format!("{} {} {}{by}", self.object_type_words(), self.object, self.what),
            },
        }
    }

    fn object_type_words(&self) -> &str {
        if self.object_type.is_empty() {
            "object"
        } else {
            &self.object_type
        }
    }

    fn diffs_text(&self) -> String {
        self.diffs
            .iter()
            .map(|(a, b, c)| format!("{a}: {b} -> {c}"))
            .collect::<Vec<_>>()
            .join("; ")
    }
}

/// The attributes of a configuration message, by label.
fn attributes(e: &Event) -> BTreeMap<String, String> {
    e.attrs
        .iter()
        .filter(|(k, _)| Key::from_name(k).is_none() && !META.contains(k))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// What one run's configuration and command events make: changes.
#[derive(Default)]
struct Changes {
    /// Before Change messages waiting for their After Change.
    before: BTreeMap<String, (Event, BTreeMap<String, String>)>,
    changes: Vec<Change>,
    commands: Vec<Change>,
}

fn base(e: &Event, what: &'static str) -> Change {
    Change {
        at: e.ts,
        qmgr: e
            .get(Key::Qmgr)
            .or(e.attr("eventqmgr"))
            .unwrap_or("")
            .to_string(),
        object: e.get(Key::Object).unwrap_or("").to_string(),
        object_type: e.attr("objecttype").unwrap_or("").to_string(),
        user: e.attr("eventuserid").map(str::to_string),
        appl: e.attr("eventapplname").map(str::to_string),
        what,
        command: None,
        diffs: Vec::new(),
        evidence: vec![Evidence::from_event(e)],
    }
}

impl Changes {
    fn observe(&mut self, e: &Event) {
        if e.kind != Kind::MqEvent {
            return;
        }
        let what = match e.get(Key::Reason) {
            Some("2367") => "created",
            Some("2368") => "changed",
            Some("2369") => "deleted",
            Some("2370") => "refreshed",
            Some("2412" | "2413") => "command",
            _ => return,
        };
        if self.changes.len() + self.commands.len() >= MAX_CHANGES {
            return;
        }
        if what == "command" {
            let mut c = base(e, what);
            c.command = e.attr("command").map(str::to_string);
            self.commands.push(c);
            return;
        }
        let state = e.get(Key::ObjectState).unwrap_or("");
        let correl = e.get(Key::CorrelId).unwrap_or("");
        if what == "changed" && state.starts_with("Before") && !correl.is_empty() {
            if self.before.len() < MAX_CHANGES {
                self.before
                    .insert(correl.to_string(), (e.clone(), attributes(e)));
            }
            return;
        }
        let mut c = base(e, what);
        if what == "changed"
            && let Some((b, before)) = self.before.remove(correl)
        {
            let after = attributes(e);
            for (k, v) in &after {
                match before.get(k) {
                    Some(old) if old != v => c.diffs.push((mqsc(k), old.clone(), v.clone())),
                    None => c.diffs.push((mqsc(k), "(none)".into(), v.clone())),
                    _ => {}
                }
            }
            c.evidence.insert(0, Evidence::from_event(&b));
        }
        self.changes.push(c);
    }

    /// The changes, each with the command of the same object, user and
    /// second; commands no change explains are changes of their own.
    fn finish(&mut self) -> Vec<Change> {
        // A Before Change whose After Change never came: still a change.
        for (_, (b, _)) in std::mem::take(&mut self.before) {
            self.changes.push(base(&b, "changed"));
        }
        let mut out = std::mem::take(&mut self.changes);
        for cmd in std::mem::take(&mut self.commands) {
            let same = out.iter_mut().find(|c| {
                c.object.eq_ignore_ascii_case(&cmd.object)
                    && c.user == cmd.user
                    && (c.at - cmd.at).num_seconds().abs() <= 2
            });
            match same {
                Some(c) => {
                    c.command = cmd.command.clone();
                    c.evidence.extend(cmd.evidence);
                }
                None => out.push(cmd),
            }
        }
        out.sort_by_key(|c| c.at);
        out
    }
}

pub(crate) struct ConfigChange {
    changes: Changes,
}

impl ConfigChange {
    fn new(_: &Settings) -> Self {
        ConfigChange {
            changes: Changes::default(),
        }
    }
}

impl Pass for ConfigChange {
    fn kinds(&self) -> crate::passes::Kinds {
        crate::passes::Kinds::of(&[Kind::MqEvent])
    }

    fn observe(&mut self, e: &Event) {
        self.changes.observe(e);
    }

    fn finish(&mut self, _inputs: &[FileInfo]) -> Vec<Finding> {
        let mut by_object: BTreeMap<(String, String, String), Vec<Change>> = BTreeMap::new();
        for c in self.changes.finish() {
            by_object
                .entry((
                    c.qmgr.clone(),
                    c.object_type.clone(),
                    c.object.to_ascii_uppercase(),
                ))
                .or_default()
                .push(c);
        }
        by_object
            .into_iter()
            .map(|((qmgr, object_type, _), cs)| finding(&qmgr, &object_type, &cs))
            .collect()
    }
}

fn finding(qmgr: &str, object_type: &str, cs: &[Change]) -> Finding {
    let last = &cs[cs.len() - 1];
    let n = cs.len() as u64;
    let on = if qmgr.is_empty() {
        String::new()
    } else {
        format!(" on {qmgr}")
    };
    let title = if n == 1 {
        format!("{}{on}", last.describe())
    } else {
        format!("{} changes to {}{on}; the last: {}", n, last.object, last.describe())
    };
    let mut ev = EvidenceSet::default();
    for c in cs.iter().rev() {
        for e in &c.evidence {
            ev.push(e.clone());
        }
    }
    let users: Vec<&str> = {
        let mut u: Vec<&str> = cs.iter().filter_map(|c| c.user.as_deref()).collect();
        u.sort_unstable();
        u.dedup();
        u
    };
    let changes: Vec<String> = cs
        .iter()
        .map(|c| {
            let d = c.diffs_text();
            if d.is_empty() {
                c.describe()
            } else {
                d
            }
        })
        .collect();
    let is_channel = object_type.to_ascii_lowercase().contains("channel");
    let is_queue = object_type.to_ascii_lowercase().contains("queue")
        && !object_type.to_ascii_lowercase().contains("manager");
    FindingBuilder::new(&RULE, RULE.severity, title)
        .span(cs.first().map(|c| c.at), Some(last.at), n)
        .subject(|s| {
            s.qmgr = (!qmgr.is_empty()).then(|| qmgr.to_string());
            if is_channel {
                s.channel = Some(last.object.clone());
            } else if is_queue {
                s.queue = Some(last.object.clone());
            }
        })
        .key(format!("{qmgr}/{object_type}/{}", last.object))
        .metrics([
            ("object", Metric::Str(last.object.clone())),
            (
                "object_type",
                Metric::opt_str(Some(object_type).filter(|t| !t.is_empty())),
            ),
            ("user", Metric::opt_str(Some(users.join(", ")).as_deref().filter(|u| !u.is_empty()))),
            ("application", Metric::opt_str(last.appl.as_deref())),
            ("command", Metric::opt_str(last.command.as_deref())),
            ("changes", Metric::Str(changes.join(" | "))),
            ("occurrences", Metric::int(n)),
        ])
        .evidence(ev.into_sorted())
        .advice(format!(
            "{} on {}: if a failure followed, compare the values before and after with the \
             other end and undo the change (`ALTER` back to the value before) or change the \
             other end to match. `DISPLAY {} ({}) ALL` on {} shows the values now.",
            last.describe(),
            if qmgr.is_empty() { "<qmgr>" } else { qmgr },
            if is_channel {
                "CHANNEL"
            } else if is_queue {
                "QUEUE"
            } else {
                "<type>"
            },
            last.object,
            if qmgr.is_empty() { "<qmgr>" } else { qmgr },
        ))
        .build()
}

/// The hook: other findings about an object changed shortly before them
/// say so, and the change's finding says what followed.
struct Linker {
    changes: Changes,
    window: chrono::Duration,
    done: Vec<Change>,
}

impl Linker {
    fn new(window_min: f64) -> Linker {
        Linker {
            changes: Changes::default(),
            window: chrono::Duration::seconds((window_min.max(0.0) * 60.0).round() as i64),
            done: Vec::new(),
        }
    }
}

/// A delay for people: `35 s`, `4 min`, `2 h 5 min`.
fn delay(d: chrono::Duration) -> String {
    let s = d.num_seconds().max(0);
    if s < 60 {
        format!("{s} s")
    } else if s < 3600 {
        format!("{} min", s / 60)
    } else {
        format!("{} h {} min", s / 3600, (s % 3600) / 60)
    }
}

/// Whether a finding is about the object a change changed: its channel,
/// its queue, or (a change of the queue manager, its CHLAUTH or AUTHINFO
/// records) its queue manager.
fn about(f: &Finding, c: &Change, qmgr_wide: bool) -> bool {
    let same = |v: &Option<String>| v.as_deref().is_some_and(|v| v.eq_ignore_ascii_case(&c.object));
    if same(&f.subject.channel) || same(&f.subject.queue) {
        return true;
    }
    qmgr_wide
        && !c.qmgr.is_empty()
        && f.subject
            .qmgr
            .as_deref()
            .is_some_and(|q| q.eq_ignore_ascii_case(&c.qmgr))
}

/// Whether a change to an object of this type concerns every finding of
/// its queue manager (the queue manager itself, authority, CHLAUTH).
fn qmgr_wide(object_type: &str) -> bool {
    let t = object_type.to_ascii_lowercase();
    t.contains("manager") || t.contains("auth")
}

/// What a finding's first failure was called: its message id, else its
/// rule.
fn first_of(f: &Finding) -> String {
    match f.metrics.get("message_id") {
        Some(Metric::Str(s)) if !s.is_empty() => s
            .split([',', ' '])
            .next()
            .unwrap_or(s)
            .to_string(),
        _ => f.rule.clone(),
    }
}

impl crate::passes::Hook for Linker {
    fn kinds(&self) -> crate::passes::Kinds {
        crate::passes::Kinds::of(&[Kind::MqEvent])
    }

    fn observe(&mut self, e: &Event) {
        self.changes.observe(e);
    }

    fn redact(&mut self, r: &mqdiag_model::redact::Redactor) {
        let mut done = self.changes.finish();
        for c in &mut done {
            c.object = r.apply(&c.object);
            c.qmgr = r.apply(&c.qmgr);
            c.user = c.user.as_deref().map(|u| r.apply(u));
            c.appl = c.appl.as_deref().map(|u| r.apply(u));
            for d in &mut c.diffs {
                d.1 = r.apply(&d.1);
                d.2 = r.apply(&d.2);
            }
        }
        self.done = done;
    }

    fn sealed(&mut self, findings: &mut [Finding]) {
        if self.done.is_empty() {
            self.done = self.changes.finish();
        }
        if self.done.is_empty() {
            return;
        }
        let mut followed: Vec<Vec<String>> = vec![Vec::new(); self.done.len()];
        let wide: Vec<bool> = self.done.iter().map(|c| qmgr_wide(&c.object_type)).collect();
        // The changes in time order (a stable sort: of two at the same
        // instant the later one in the run counts as the latest).
        let mut by_time: Vec<usize> = (0..self.done.len()).collect();
        by_time.sort_by_key(|&i| self.done[i].at);
        for f in findings.iter_mut() {
            if f.rule == RULE.id {
                continue;
            }
            let Some(first) = f.first else {
                continue;
            };
            // The latest change to its object before it, within the window.
            let upto = by_time.partition_point(|&i| self.done[i].at <= first);
            let hit = by_time[..upto]
                .iter()
                .rev()
                .take_while(|&&i| first - self.done[i].at <= self.window)
                .find(|&&i| about(f, &self.done[i], wide[i]))
                .map(|&i| (i, &self.done[i]));
            let Some((i, c)) = hit else {
                continue;
            };
            let said = format!(
                "{} {} before the first {}",
                c.describe(),
                delay(first - c.at),
                first_of(f)
            );
            f.title = format!("{}; {said}", f.title);
            f.metrics.set("changed_before", Metric::Str(said));
            followed[i].push(format!(
                "{} ({}) {} later",
                f.rule,
                first_of(f),
                delay(first - c.at)
            ));
        }
        // What followed the changes, by their object (case ignored).
        let mut by_object: HashMap<String, Vec<&String>> = HashMap::new();
        for (c, fl) in self.done.iter().zip(&followed) {
            if !fl.is_empty() {
                by_object
                    .entry(c.object.to_ascii_uppercase())
                    .or_default()
                    .extend(fl);
            }
        }
        for f in findings.iter_mut().filter(|f| f.rule == RULE.id) {
            let mut after: Vec<String> = match f.metrics.get("object") {
                Some(Metric::Str(o)) => by_object
                    .get(&o.to_ascii_uppercase())
                    .map(|v| v.iter().map(|s| s.to_string()).collect())
                    .unwrap_or_default(),
                _ => Vec::new(),
            };
            if !after.is_empty() {
                after.sort();
                after.dedup();
                f.title = format!("{}; followed by {}", f.title, after.join(", "));
                f.metrics.set("followed_by", Metric::Str(after.join(", ")));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::passes::Hook;
    use crate::passes::testutil::*;

    fn cfg(line: u64, at: &str, state: &str, ciph: &str) -> Event {
        let mut e = log(
            "QM1.events.txt",
            line,
            at,
            "config event",
            &[
                ("reason", "2368"),
                ("object", "TO.QM2"),
                ("objecttype", "Channel"),
                ("eventuserid", "admin"),
                ("eventapplname", "runmqsc"),
                ("eventqmgr", "QM1"),
                ("object_state", state),
                ("correl_id", "414D51"),
                ("channelname", "TO.QM2"),
                ("sslcipherspec", ciph),
            ],
        );
        e.kind = Kind::MqEvent;
        e
    }

    fn command(line: u64, at: &str) -> Event {
        let mut e = log(
            "QM1.events.txt",
            line,
            at,
            "command event",
            &[
                ("reason", "2412"),
                ("object", "TO.QM2"),
                ("eventuserid", "admin"),
                ("command", "Change Channel"),
            ],
        );
        e.kind = Kind::MqEvent;
        e
    }

    fn events() -> Vec<Event> {
        vec![
            cfg(1, "2026-03-02T10:10:00+00:00", "Before Change", "OLD_CIPHER"),
            cfg(9, "2026-03-02T10:10:00+00:00", "After Change", "NEW_CIPHER"),
            command(17, "2026-03-02T10:10:00+00:00"),
        ]
    }

    #[test]
    fn before_and_after_joined_with_their_command() {
        let out = run(&RULE, &[], &events());
        assert_eq!(out.len(), 1, "{out:#?}");
        let f = &out[0];
        assert_eq!(
            f.title,
            "SSLCIPH of TO.QM2 changed from OLD_CIPHER to NEW_CIPHER by user admin (runmqsc) on QM1"
        );
        assert_eq!(f.subject.channel.as_deref(), Some("TO.QM2"));
        assert_eq!(metric(f, "user"), Metric::Str("admin".into()));
        assert_eq!(metric(f, "command"), Metric::Str("Change Channel".into()));
        assert_eq!(
            metric(f, "changes"),
            Metric::Str("SSLCIPH: OLD_CIPHER -> NEW_CIPHER".into())
        );
        assert_eq!(f.evidence.len(), 3);
    }

    #[test]
    fn a_failure_after_the_change_says_so_and_the_change_what_followed() {
        let mut hook = Linker::new(60.0);
        for e in events() {
            hook.observe(&e);
        }
        let mut failure = Finding::new("tls-error", Severity::Error, "AMQ9631E CipherSpec mismatch");
        failure.subject.channel = Some("TO.QM2".into());
        failure.first = Some(ts("2026-03-02T10:14:02+00:00"));
        failure
            .metrics
            .set("message_id", Metric::Str("AMQ9631E".into()));
        // Too late for the window: nothing said.
        let mut late = failure.clone();
        late.first = Some(ts("2026-03-02T12:00:00+00:00"));
        let mut change = run(&RULE, &[], &events()).remove(0);
        let mut all = vec![failure, late, change.clone()];
        hook.sealed(&mut all);
        assert!(
            all[0].title.ends_with(
                "; SSLCIPH of TO.QM2 changed from OLD_CIPHER to NEW_CIPHER by user admin (runmqsc) 4 min before the first AMQ9631E"
            ),
            "{}",
            all[0].title
        );
        assert!(all[0].metrics.get("changed_before").is_some());
        assert!(all[1].metrics.get("changed_before").is_none());
        change = all.remove(2);
        assert_eq!(
            metric(&change, "followed_by"),
            Metric::Str("tls-error (AMQ9631E) 4 min later".into())
        );
    }
}
