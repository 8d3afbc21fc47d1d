use super::*;

#[test]
fn labels_drop_the_unit_the_value_carries() {
    assert_eq!(Metric::Int(17_900).label_named("max_ms"), "max");
    assert_eq!(Metric::num(1.5).label_named("slope_us_per_s"), "slope");
    assert_eq!(Metric::Int(9).label_named("ceiling_bytes_per_s"), "ceiling");
    assert_eq!(Metric::num(90.0).label_named("span_s"), "span");
    assert_eq!(Metric::Int(2).label_named("max_seconds"), "max");
    assert_eq!(Metric::Int(3).label_named("stalls"), "stalls");
    assert_eq!(Metric::num(0.25).label_named("per_second"), "per_second");
    assert_eq!(Metric::Int(2048).label_named("send_final"), "send_final");
    // Not converted, so the unit still says what the value is.
    assert_eq!(Metric::Null.label_named("max_us"), "max_us");
    assert_eq!(Metric::Str("x".into()).label_named("max_ms"), "max_ms");
}

#[test]
fn metrics_in_human_units() {
    assert_eq!(Metric::Int(11_701_686).display_named("max_us"), "11.7 s");
    assert_eq!(Metric::Int(5829).display_named("first_us"), "5.8 ms");
    assert_eq!(
        Metric::num(1200.5).display_named("slope_us_per_s"),
        "1.2 ms/s"
    );
    assert_eq!(
        Metric::num(-1200.5).display_named("slope_us_per_s"),
        "-1.2 ms/s"
    );
    assert_eq!(Metric::Int(212).display_named("max_wait_ms"), "212 ms");
    assert_eq!(Metric::Int(17_900).display_named("max_ms"), "17.9 s");
    assert_eq!(Metric::num(2.5).display_named("max_seconds"), "2.5 s");
    assert_eq!(Metric::num(90.0).display_named("span_s"), "90.0 s");
    assert_eq!(Metric::Int(32_768).display_named("send_current"), "32 KiB");
    assert_eq!(Metric::Int(3).display_named("stalls"), "3");
    assert_eq!(Metric::Int(123_456).display_named("connects"), "123,456");
    assert_eq!(Metric::num(0.25).display_named("per_second"), "0.25");
    assert_eq!(
        Metric::Int(3_276_600).display_named("ceiling_bytes_per_s"),
        "3.3 MB/s"
    );
    assert_eq!(Metric::Int(2048).display_named("send_final"), "2,048 B");
    // Text for people shows no `null` (issue 41); JSON keeps null.
    assert_eq!(Metric::Null.display_named("max_us"), "unknown");
    assert_eq!(
        Metric::Str("AMQ9209".into()).display_named("message_id"),
        "AMQ9209"
    );
}

#[test]
fn number_formats() {
    assert_eq!(thousands(0), "0");
    assert_eq!(thousands(999), "999");
    assert_eq!(thousands(1000), "1,000");
    assert_eq!(thousands(1234567), "1,234,567");
    assert_eq!(human_ms(0.5), "500 µs");
    assert_eq!(human_ms(5.829), "5.8 ms");
    assert_eq!(human_ms(212.0), "212 ms");
    assert_eq!(human_ms(11701.686), "11.7 s");
    assert_eq!(human_bytes(2048), "2,048 B");
    assert_eq!(human_bytes(32766), "32 KiB");
    assert_eq!(human_bytes(262088), "256 KiB");
    assert_eq!(human_rate(819150.0), "819 KB/s");
    assert_eq!(human_rate(32_766_000.0), "32.8 MB/s");
}

#[test]
fn metrics_keep_order_and_round() {
    let mut m = Metrics::default();
    m.set("b", Metric::int(2));
    m.set("a", Metric::num(1.23456));
    m.set("b", Metric::int(3));
    let j = serde_json::to_string(&m).unwrap();
    assert_eq!(j, r#"{"b":3,"a":1.235}"#);
    assert_eq!(Metric::num(f64::NAN), Metric::Null);
    assert_eq!(Metric::num(12.0).display(), "12");
}

#[test]
fn fingerprint_is_identity_not_incarnation() {
    const PARTS: &[Part] = &[Part::Host, Part::Program, Part::Key("verb and reason")];
    let mut a = Finding::new("mqi-failures", Severity::Warning, "t1");
    a.subject.pid = Some(1);
    a.subject.program = Some("ordersvc".into());
    a.key = "MQCONNX:2035".into();
    a.evidence.push(Evidence {
        path: "x/AMQ1.0.FMT".into(),
        line: 3,
        text: "one".into(),
        offset: None,
    });
    // A restart: another pid, thread, handle, file, line and title.
    let mut b = a.clone();
    b.title = "another title".into();
    b.subject.pid = Some(2);
    b.subject.tid = Some(9);
    b.subject.ident = Some("RSESS:000002".into());
    b.evidence[0].path = "y/AMQ2.0.FMT".into();
    b.evidence[0].line = 9;
    a.seal(PARTS);
    b.seal(PARTS);
    assert_eq!(a.fingerprint, b.fingerprint);
    assert!(a.fingerprint.starts_with("mqi-failures:"));
    assert_eq!(a.fingerprint.len(), "mqi-failures:".len() + 16);
    // Each part of the identity tells findings apart.
    let mut c = a.clone();
    c.subject.program = Some("billing".into());
    c.seal(PARTS);
    assert_ne!(a.fingerprint, c.fingerprint);
    let mut d = a.clone();
    d.key = "MQCONNX:2059".into();
    d.seal(PARTS);
    assert_ne!(a.fingerprint, d.fingerprint);
    // A value moved from one part to another is another identity.
    let mut e = a.clone();
    e.subject.host = e.subject.program.take();
    e.seal(PARTS);
    assert_ne!(a.fingerprint, e.fingerprint);
    // A subject field the rule does not name is not part of it.
    let mut g = a.clone();
    g.subject.queue = Some("Q1".into());
    g.seal(PARTS);
    assert_eq!(a.fingerprint, g.fingerprint);
}

/// A reference re-pointed at event after event is the reference made
/// afresh from the last: across files, kinds, idents and flags.
#[test]
fn an_assigned_reference_is_the_one_made_afresh() {
    use crate::event::{Event, Format, Kind, Origin};
    let (a, b) = (
        Origin::new(Arc::from("a/AMQ1.0.FMT"), Format::UNKNOWN),
        Origin::new(Arc::from("b/AMQERR01.LOG"), Format::UNKNOWN),
    );
    let ts = chrono::DateTime::parse_from_rfc3339("2024-03-12T10:00:00+01:00").unwrap();
    let (i1, i2): (Arc<str>, Arc<str>) = (Arc::from("RSESS:000001"), Arc::from("RSESS:000002"));
    let mut events = Vec::new();
    for (n, (o, kind, ident, flag)) in [
        (&a, Kind::Entry, Some(&i1), false),
        (&a, Kind::Text, Some(&i1), true),
        (&a, Kind::Exit, Some(&i2), false),
        (&b, Kind::LogRecord, Some(&i2), false),
        (&b, Kind::LogRecord, None, false),
        (&a, Kind::Text, None, true),
        (&a, Kind::Exit, Some(&i1), false),
    ]
    .into_iter()
    .enumerate()
    {
        let mut e = Event::new(ts, o.clone(), n as u64 + 1, kind, format!("line {n}"));
        e.offset = 100 * n as u64;
        if kind != Kind::LogRecord {
            (e.pid, e.tid) = (Some(7), Some(n as u32));
        }
        e.ident = ident.cloned();
        if flag {
            e.set_attr("flag", "*");
        }
        events.push(e);
    }
    let mut r = EventRef::of(&events[0]);
    for e in &events {
        r.assign(e);
        let fresh = EventRef::of(e);
        assert_eq!(format!("{r:?}"), format!("{fresh:?}"));
        assert_eq!(r.evidence(), fresh.evidence());
    }
}
