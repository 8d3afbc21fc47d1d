//! Timeline rows for other engines: Elastic Common Schema documents
//! (`ecs`) and OpenTelemetry log records in OTLP/JSON (`otlp`). Both read
//! the same facts off an event (`Facts`), so the two cannot disagree on
//! which attribute is the queue manager or the level; the Parquet writer
//! (`parquet`, feature `parquet`) uses them too. The rows are rendered by
//! the workers that read the events: the binary hands `ecs::render` or
//! `otlp::render` to the model's row sink (`sink::TimelineFormat::Event`).

pub mod ecs;
pub mod otlp;

use mqdiag_model::event::{Event, Format, Key, Kind};

/// What both exports name with standard fields, picked from an event's
/// common fields and its attributes (names as in `event`'s table).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Facts<'a> {
    /// The machine that wrote the record (not a peer).
    pub(crate) host: Option<&'a str>,
    pub(crate) user: Option<&'a str>,
    pub(crate) qmgr: Option<&'a str>,
    pub(crate) channel: Option<&'a str>,
    pub(crate) queue: Option<&'a str>,
    pub(crate) program: Option<&'a str>,
    /// The message id (`AMQ9788W`, `CSQX209E`).
    pub(crate) msgid: Option<&'a str>,
    /// The peer the record names: `RemoteHost`, else the address.
    pub(crate) remote: Option<&'a str>,
    /// The MQI verb of a trace entry or exit (`MQPUT`).
    pub(crate) verb: Option<&'a str>,
    /// A reason or return code other than OK: the message's, or a trace
    /// exit's `rc=` as written.
    pub(crate) reason: Option<&'a str>,
    pub(crate) level: Option<Level>,
}

/// A record's severity, from MQ's letter, a JSON log's `loglevel`, or an
/// error exit or FDC.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Level {
    Info,
    Warning,
    Error,
    /// MQ `S`: a severe error.
    Severe,
    /// MQ `T`: the program is ending.
    Terminating,
}

impl Level {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Level::Info => "info",
            Level::Warning => "warning",
            Level::Error => "error",
            Level::Severe => "severe",
            Level::Terminating => "terminating",
        }
    }

    /// OpenTelemetry `SeverityNumber`: INFO 9, WARN 13, ERROR 17, ERROR2
    /// 18, FATAL 21.
    pub(crate) fn otel_number(self) -> u8 {
        match self {
            Level::Info => 9,
            Level::Warning => 13,
            Level::Error => 17,
            Level::Severe => 18,
            Level::Terminating => 21,
        }
    }

    fn of_letter(s: &str) -> Option<Level> {
        Some(match s.trim() {
            "I" => Level::Info,
            "W" => Level::Warning,
            "E" => Level::Error,
            "S" => Level::Severe,
            "T" => Level::Terminating,
            _ => return None,
        })
    }

    fn of_word(s: &str) -> Option<Level> {
        let s = s.trim().to_ascii_lowercase();
        Some(match s.as_str() {
            "info" | "information" | "informational" | "debug" | "audit" => Level::Info,
            "warn" | "warning" => Level::Warning,
            "error" | "err" => Level::Error,
            "severe" | "critical" => Level::Severe,
            "fatal" | "terminating" => Level::Terminating,
            _ => return None,
        })
    }
}

/// An MQI verb as traced: `MQ` and capitals or digits (`MQPUT1`), not a
/// layer (`zstMQPUT`) or a helper (`MQIsomething`).
fn mqi_verb(f: &str) -> Option<&str> {
    let rest = f.strip_prefix("MQ")?;
    (rest.len() >= 2
        && rest
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit()))
    .then_some(f)
}

impl<'a> Facts<'a> {
    pub(crate) fn of(e: &'a Event) -> Facts<'a> {
        let a = |k: Key| e.get(k).filter(|v| !v.is_empty());
        let host = if e.format().info().host_is_writer {
            a(Key::LocalHost).or_else(|| a(Key::Host))
        } else {
            a(Key::LocalHost)
        };
        let msgid = a(Key::Msgid);
        let level = a(Key::Severity)
            .and_then(Level::of_letter)
            .or_else(|| a(Key::Loglevel).and_then(Level::of_word))
            .or_else(|| msgid.and_then(|m| Level::of_letter(&m[m.len().saturating_sub(1)..])))
            .or(match e.kind {
                Kind::ErrorExit | Kind::Fdc => Some(Level::Error),
                _ => None,
            });
        let verb = match e.kind {
            Kind::Entry | Kind::Exit | Kind::ErrorExit => e.function.as_deref().and_then(mqi_verb),
            _ => None,
        };
        let rc =
            e.rc.as_deref()
                .filter(|r| !r.is_empty() && !r.eq_ignore_ascii_case("OK"));
        Facts {
            host,
            user: a(Key::User),
            qmgr: a(Key::Qmgr),
            channel: a(Key::Channel),
            queue: a(Key::Queue),
            program: a(Key::Program),
            msgid,
            remote: a(Key::RemoteHost).or_else(|| a(Key::Address)),
            verb,
            reason: a(Key::Reason).or(rc),
            level,
        }
    }
}

/// The attributes as one map: sorted by name, the first of equal names
/// kept (as `timeline --format jsonl` writes them).
pub(crate) fn attr_pairs(e: &Event) -> Vec<(&str, &str)> {
    let mut v: Vec<(&str, &str)> = e.attrs.iter().collect();
    v.sort_by(|a, b| a.0.cmp(b.0));
    v.dedup_by(|later, first| later.0 == first.0);
    v
}

/// `event.dataset` of a format (`FormatInfo::dataset`): Elastic's
/// `ibmmq.errorlog` for error logs, ours beside it for the rest.
pub(crate) fn dataset(f: Format) -> &'static str {
    f.dataset()
}

#[cfg(test)]
mod tests {
    use super::*;
    use mqdiag_model::event::{FormatFamily, FormatInfo, Origin};
    use std::sync::Arc;

    /// The facts the readers declare for these formats (the model cannot
    /// see the readers).
    pub(crate) static ERRLOG_TEXT: Format = Format::of(&FormatInfo {
        name: "errlog-text",
        family: FormatFamily::ErrorLog,
        states_local_time: true,
        dataset: "ibmmq.errorlog",
        host_is_writer: false,
    });
    pub(crate) static FDC: Format = Format::of(&FormatInfo {
        name: "fdc",
        family: FormatFamily::Fdc,
        states_local_time: false,
        dataset: "ibmmq.fdc",
        host_is_writer: true,
    });
    pub(crate) static FMT_TRACE: Format = Format::of(&FormatInfo {
        name: "fmt-trace",
        family: FormatFamily::Trace,
        states_local_time: true,
        dataset: "ibmmq.trace",
        host_is_writer: false,
    });

    pub(crate) fn event(
        format: Format,
        kind: Kind,
        text: &str,
        attrs: &[(&'static str, &str)],
    ) -> Event {
        let origin = Arc::new(Origin {
            path: Arc::from("case/AMQERR01.LOG"),
            format,
        });
        let at = chrono::DateTime::parse_from_rfc3339("2025-03-14T11:22:44.512+01:00").unwrap();
        let mut e = Event::new(at, origin, 7, kind, text.to_string());
        for (k, v) in attrs {
            e.set_attr(k, *v);
        }
        e
    }

    #[test]
    fn facts_pick_the_writer_not_the_peer() {
        let e = event(
            ERRLOG_TEXT,
            Kind::LogRecord,
            "AMQ9202E: Remote host not available",
            &[
                ("msgid", "AMQ9202E"),
                ("host", "10.40.1.17"),
                ("local_host", "gw1"),
                ("qmgr", "GW1"),
                ("remote_host", "10.40.1.17 (1414)"),
            ],
        );
        let f = Facts::of(&e);
        assert_eq!(f.host, Some("gw1"));
        assert_eq!(f.remote, Some("10.40.1.17 (1414)"));
        assert_eq!(f.qmgr, Some("GW1"));
        // No severity letter of its own: the message id's.
        assert_eq!(f.level, Some(Level::Error));
        let fdc = event(FDC, Kind::Fdc, "probe", &[("host", "mq1")]);
        assert_eq!(Facts::of(&fdc).host, Some("mq1"));
        assert_eq!(Facts::of(&fdc).level, Some(Level::Error));
    }

    #[test]
    fn verbs_and_reasons_of_trace_exits() {
        let mut e = event(FMT_TRACE, Kind::Exit, "}  MQPUT rc=2035", &[]);
        e.function = Some(Arc::from("MQPUT"));
        e.rc = Some("2035".into());
        let f = Facts::of(&e);
        assert_eq!((f.verb, f.reason), (Some("MQPUT"), Some("2035")));
        e.function = Some(Arc::from("zstMQPUT"));
        e.rc = Some("OK".into());
        let f = Facts::of(&e);
        assert_eq!((f.verb, f.reason), (None, None));
        e.function = Some(Arc::from("MQIsomething"));
        assert_eq!(Facts::of(&e).verb, None);
    }
}
