//! Tests of the pass beside them.

use super::*;

#[test]
fn channel_groups_are_told_apart_whatever_their_names_hold() {
    let mut c = ConnectionChurn::new(&Settings::defaults(&RULE));
    c.channel_group("log", "QM1", "A\0B", "C").unwrap().connects = 1;
    c.channel_group("log", "QM1", "A", "B\0C").unwrap().connects = 2;
    // Values are trimmed, as before the groups were indexed.
    c.channel_group("log", "QM1 ", " A", "B\0C")
        .unwrap()
        .connects += 1;
    let n: Vec<u64> = c.groups.iter().map(|(_, g)| g.connects).collect();
    assert_eq!(n, [1, 3]);
}

#[test]
fn chart_buckets_of_all_groups_stay_within_the_budget() {
    let mut c = ConnectionChurn::new(&Settings::defaults(&RULE));
    let e = crate::passes::testutil::smf("SMF-QCST.csv", 2, "2024-03-14T10:00:00+00:00", &[]);
    let base = e.ts;
    // 2,500 groups of 200 connects, each in its own second: 500,000
    // buckets unbounded, more than the budget.
    let (groups, per) = (2_500u32, 200i64);
    for k in 0..per {
        for g in 0..groups {
            let at = base + chrono::Duration::seconds(k * 7 + i64::from(g % 5));
            let cap = c.chart_cap;
            let name = format!("CH{g}");
            let grp = c.channel_group("log", "QM1", &name, "10.0.0.1").unwrap();
            let d = grp.connect(at, &e, cap);
            c.charted(d);
        }
    }
    let held: usize = c
        .groups
        .iter()
        .filter_map(|(_, g)| g.per_bucket.as_ref())
        .map(ClockCounts::buckets)
        .sum();
    assert_eq!(held, c.chart_buckets);
    assert!(held <= CHART_BUDGET, "{held}");
    assert!(c.chart_cap < CHART_BUCKETS);
    // Wider buckets, the same connects.
    for (_, g) in std::mem::take(&mut c.groups) {
        let chart = g.per_bucket.unwrap().chart("t", "y", "other").unwrap();
        let n: f64 = chart
            .series
            .iter()
            .flat_map(|s| &s.points)
            .map(|p| p.1)
            .sum();
        assert_eq!(n, per as f64);
    }
}

#[test]
fn smf_time_by_hand_agrees_with_chrono() {
    let chrono_way = |d: &str, t: &str| -> Option<NaiveDateTime> {
        let d = d.trim();
        let t = t.trim();
        if d.is_empty() || t.is_empty() {
            return None;
        }
        let d = NaiveDate::parse_from_str(d, "%Y/%m/%d")
            .or_else(|_| NaiveDate::parse_from_str(d, "%Y-%m-%d"))
            .ok()?;
        if d.year() <= 1970 {
            return None;
        }
        let t = NaiveTime::parse_from_str(&t.replace(',', "."), "%H:%M:%S%.f").ok()?;
        Some(d.and_time(t))
    };
    let dates = [
        "2016/02/27",
        "2016-02-27",
        "2016/02/30",
        "1970/01/01",
        "2016/2/27",
        "2016/02-27",
        " 2016/02/27 ",
        "20a6/02/27",
        "2024/02/29",
        "2023/02/29",
        "",
    ];
    let times = [
        "22:03:17,888000",
        "22:03:17.888000",
        "23:59:60,000000",
        "24:00:00,000000",
        "22:60:17,888000",
        "22:03:17,8880000",
        "22:03:17,88800",
        "22:03:17",
        "2:03:17,888000",
        "22:03:1x,888000",
        "00:00:00,000000",
        "",
    ];
    for d in dates {
        for t in times {
            assert_eq!(smf_time(Some(d), Some(t)), chrono_way(d, t), "{d} {t}");
        }
    }
}
use crate::passes::testutil::*;

fn cycle(ev: &mut Vec<Event>, at_ms: u64, life_ms: u64, nested: bool) {
    let tod = |ms: u64| format!("10:00:{:02}.{:06}", ms / 1000, (ms % 1000) * 1000);
    let mut push = |mut e: Event, depth: u32| {
        e.depth = Some(depth);
        e.line = ev.len() as u64 + 1;
        ev.push(e);
    };
    push(entry("c.FMT", 0, &tod(at_ms), 42, 1, "MQCONNX"), 0);
    if nested {
        push(entry("c.FMT", 0, &tod(at_ms), 42, 1, "zstMQCONNX"), 1);
        push(
            exit("c.FMT", 0, &tod(at_ms + 1), 42, 1, "zstMQCONNX", "OK", 900),
            1,
        );
    }
    push(
        exit("c.FMT", 0, &tod(at_ms + 2), 42, 1, "MQCONNX", "OK", 2000),
        0,
    );
    push(
        entry("c.FMT", 0, &tod(at_ms + life_ms - 1), 42, 1, "MQDISC"),
        0,
    );
    push(
        exit(
            "c.FMT",
            0,
            &tod(at_ms + life_ms),
            42,
            1,
            "MQDISC",
            "OK",
            1000,
        ),
        0,
    );
}

#[test]
fn rates_for_people() {
    assert_eq!(human_rate_of(20.446), "20.4/s");
    assert_eq!(human_rate_of(22.0 / 428.9), "3.1/min");
    assert_eq!(human_rate_of(0.0005), "1.8/h");
}

#[test]
fn connect_per_message() {
    let mut ev = Vec::new();
    for i in 0..20 {
        cycle(&mut ev, i * 100, 40, i % 2 == 0);
    }
    let out = run(&RULE, &[], &ev);
    assert_eq!(out.len(), 1);
    let f = &out[0];
    assert_eq!(metric(f, "connects"), Metric::Int(20));
    // 19 intervals of 100 ms between the first and last connect.
    assert_eq!(metric(f, "per_second"), Metric::num(10.0));
    assert_eq!(metric(f, "mean_connection_ms"), Metric::num(40.0));
    assert_eq!(metric(f, "disconnects"), Metric::Int(20));
    assert_eq!(f.subject.pid, Some(42));
    assert!(f.advice.contains("connection pool"));
    // The chart counts every connect, in buckets of whole seconds.
    let c = f.chart.as_ref().unwrap();
    let total: f64 = c.series.iter().flat_map(|s| &s.points).map(|p| p.1).sum();
    assert_eq!(total, 20.0);
    assert_eq!(c.bucket_s, 1);
}

/// MQ 8.0 and later: the start (AMQ9002I) names no host, the stop
/// (AMQ9001I) does; a sender flapping 120 times 0.7 s apart is churn.
#[test]
fn starts_without_a_host_pair_with_stops_that_name_one() {
    let at = |ms: u64| {
        format!(
            "2023-02-07T10:{:02}:{:02}.{:03}+00:00",
            ms / 60_000,
            ms / 1000 % 60,
            ms % 1000
        )
    };
    let mut ev = Vec::new();
    for i in 0..120u64 {
        let t = i * 700;
        let mut attrs = vec![("channel", "QM1.TO.QM2"), ("qmgr", "QM1"), ("msgid", "AMQ9002I")];
        ev.push(log("AMQERR01.LOG", i * 2 + 1, &at(t), "AMQ9002I: Channel 'QM1.TO.QM2' is starting.", &attrs));
        attrs[2] = ("msgid", "AMQ9001I");
        attrs.push(("host", "mqhost2(1414)"));
        ev.push(log(
            "AMQERR01.LOG",
            i * 2 + 2,
            &at(t + 300),
            "AMQ9001I: Channel 'QM1.TO.QM2' to host 'mqhost2(1414)' ended normally.",
            &attrs,
        ));
    }
    let out = run(&RULE, &[], &ev);
    assert_eq!(out.len(), 1, "{out:#?}");
    let f = &out[0];
    assert_eq!(f.subject.channel.as_deref(), Some("QM1.TO.QM2"));
    assert_eq!(f.metrics.get("connects"), Some(&Metric::int(120)));
    assert_eq!(f.metrics.get("mean_connection_ms"), Some(&Metric::num(300.0)), "{f:#?}");
}

#[test]
fn long_lived_or_few_connections_are_not_churn() {
    let mut ev = Vec::new();
    for i in 0..5 {
        cycle(&mut ev, i * 100, 40, false);
    }
    assert!(run(&RULE, &[], &ev).is_empty());
    let mut ev = Vec::new();
    for i in 0..12 {
        cycle(&mut ev, i * 5000, 4990, false);
    }
    // 12 connects at 0.2/s: below the rate.
    assert!(run(&RULE, &[], &ev).is_empty());
}

/// Starts that never stop are held up to the budget of all groups,
/// and a stop still pairs with its group's oldest start held.
#[test]
fn unmatched_starts_are_held_within_the_budget() {
    let mut c = ConnectionChurn::new(&Settings::defaults(&RULE));
    let at = |s: u64| {
        format!(
            "2019-11-13T{:02}:{:02}:{:02}+00:00",
            s / 3600,
            s / 60 % 60,
            s % 60
        )
    };
    let ev = |i: u64, id: &str, conname: &str| {
        let attrs = [
            ("channel", "APP.SVRCONN"),
            ("conname", conname),
            ("qmgr", "M9AD"),
            ("msgid", id),
        ];
        log("JESMSGLG", i + 1, &at(i / 100), id, &attrs)
    };
    let groups = 500;
    for i in 0..(MAX_OPEN_TOTAL as u64 + 20_000) {
        c.observe(&ev(
            i,
            "CSQX511I",
            &format!("10.0.{}.{}", i % groups / 250, i % groups % 250),
        ));
    }
    let held: usize = c.groups.iter().map(|(_, g)| g.open.len()).sum();
    assert_eq!(held, c.open_total);
    assert!(held <= MAX_OPEN_TOTAL, "{held}");
    // A stop takes one from its group; the count follows.
    c.observe(&ev(1_000_000, "CSQX512I", "10.0.0.7"));
    let after: usize = c.groups.iter().map(|(_, g)| g.open.len()).sum();
    assert_eq!((after, c.open_total), (held - 1, held - 1));
}

#[test]
fn csqx_message_storm() {
    let mut ev = Vec::new();
    for i in 0..30u64 {
        let at = |s: u64| format!("2019-11-13T09:{:02}:{:02}+00:00", s / 60, s % 60);
        let attrs = [
            ("channel", "SYSTEM.DEF.SVRCONN"),
            ("conname", "9.68.254.236"),
            ("qmgr", "M9AD"),
        ];
        let mut a = attrs.to_vec();
        a.push(("msgid", "CSQX511I"));
        ev.push(log(
            "JESMSGLG",
            1 + i * 3,
            &at(i * 2),
            "CSQX511I M9AD CSQXRESP Channel SYSTEM.DEF.SVRCONN started",
            &a,
        ));
        let mut b = attrs.to_vec();
        b.push(("msgid", "CSQX512I"));
        ev.push(log(
            "JESMSGLG",
            2 + i * 3,
            &at(i * 2 + 1),
            "CSQX512I M9AD CSQXRESP Channel SYSTEM.DEF.SVRCONN no longer active",
            &b,
        ));
    }
    let out = run(&RULE, &[], &ev);
    assert_eq!(out.len(), 1);
    let f = &out[0];
    assert_eq!(metric(f, "connects"), Metric::Int(30));
    assert_eq!(metric(f, "per_second"), Metric::num(0.5));
    assert_eq!(metric(f, "mean_connection_ms"), Metric::num(1000.0));
    assert_eq!(f.subject.channel.as_deref(), Some("SYSTEM.DEF.SVRCONN"));
    assert!(f.advice.contains("EXCLMSG(X511,X512)"));
}

#[test]
fn smf_qcst_instances() {
    let mut ev = Vec::new();
    // 22 SVRCONN instances from one address in ~8 minutes, 13-29 s each
    // (the shape of the TESTCHL sample), each reported once.
    for i in 0..22u32 {
        let start_s = i * 22;
        let life = 13 + (i % 17);
        let hms = |s: u32| format!("22:{:02}:{:02},888000", s / 60, s % 60);
        let stop = hms(start_s + life);
        let at = format!(
            "2016-02-27T18:{:02}:{:02}+00:00",
            (start_s + life + 1) / 60,
            (start_s + life + 1) % 60
        );
        let start = hms(start_s);
        let row = smf(
            "SMF-QCST.csv",
            2 + i as u64,
            &at,
            &[
                ("record", "QCST"),
                ("channel", "ELKINSC.TEST.SVRCONN"),
                ("conname", "192.168.0.112"),
                ("Start (DATE)", "2016/02/27"),
                ("Start (TIME)", &start),
                ("Stop (DATE)", "2016/02/27"),
                ("Stop (TIME)", &stop),
            ],
        );
        ev.push(row.clone());
        if i == 3 {
            ev.push(row); // the same instance reported again
        }
    }
    ev.sort_by_key(|e| e.ts);
    let out = run(
        &RULE,
        &[("min_per_second", 0.01), ("max_mean_ms", 60_000.0)],
        &ev,
    );
    assert_eq!(out.len(), 1, "{out:#?}");
    assert_eq!(metric(&out[0], "connects"), Metric::Int(22));
    assert_eq!(metric(&out[0], "disconnects"), Metric::Int(22));
    let Metric::Num(mean) = metric(&out[0], "mean_connection_ms") else {
        panic!()
    };
    let want: f64 = (0..22)
        .map(|i| (13 + (i % 17)) as f64 * 1000.0)
        .sum::<f64>()
        / 22.0;
    assert!((mean - want).abs() < 0.01, "{mean} vs {want}");
    // With the default rate (0.5/s) 22 instances in 8 minutes are not churn.
    assert!(run(&RULE, &[], &ev).is_empty());
}

#[test]
fn smf_wtid_tasks_with_wtas_lifetimes() {
    let mut ev = Vec::new();
    for i in 0..15u32 {
        let at = format!("2016-02-27T18:03:{:02}+00:00", 10 + i);
        let task = format!("T{i}");
        let start = format!("22:03:{:02},100000", 10 + i);
        let end = format!("22:03:{:02},400000", 10 + i);
        ev.push(smf(
            "SMF-WTAS.csv",
            2 + i as u64,
            &at,
            &[
                ("record", "WTAS"),
                ("task", &task),
                ("Start_Time (DATE)", "2016/02/27"),
                ("Start_Time (TIME)", &start),
                ("WTAS_Interval_End (DATE)", "2016/02/27"),
                ("WTAS_Interval_End (TIME)", &end),
            ],
        ));
        ev.push(smf(
            "SMF-WTID.csv",
            2 + i as u64,
            &at,
            &[
                ("record", "WTID"),
                ("task", &task),
                ("Channel_Name", "APP.SVRCONN"),
                ("Channel_Connection_Name", "10.1.1.1"),
            ],
        ));
    }
    let out = run(&RULE, &[], &ev);
    assert_eq!(out.len(), 1);
    assert_eq!(metric(&out[0], "connects"), Metric::Int(15));
    assert_eq!(metric(&out[0], "mean_connection_ms"), Metric::num(300.0));
    assert_eq!(out[0].subject.address.as_deref(), Some("10.1.1.1"));
}

/// Processes that each fail one connect leave no thread behind, while a
/// thread connected (or in a call) is kept until its disconnect; a
/// process's threads in two files are two processes.
#[test]
fn failed_connects_keep_no_thread_and_open_connections_are_kept() {
    let mut c = ConnectionChurn::new(&Settings::defaults(&RULE));
    for pid in 0..1_000 {
        let mut e = entry("p.FMT", 0, "10:00:00.000000", pid, 1, "MQCONNX");
        e.depth = Some(0);
        c.observe(&e);
        assert_eq!(c.threads.len(), 1, "inside the connect");
        let mut x = exit("p.FMT", 0, "10:00:00.000100", pid, 1, "MQCONNX", "2035", 100);
        x.depth = Some(0);
        c.observe(&x);
        assert!(c.threads.is_empty(), "a failed connect leaves nothing");
    }
    assert_eq!(c.groups.len(), 1_000);
    // Connected in two files under one pid: two threads, two groups.
    let mut ev = Vec::new();
    cycle(&mut ev, 0, 40, false);
    for path in ["a.FMT", "b.FMT"] {
        for e in &ev[..2] {
            let mut e = e.clone();
            e.origin = origin(path, mqdiag_readers::formats::trace::FORMAT);
            c.observe(&e);
        }
    }
    assert_eq!(c.threads.len(), 2, "connected threads are kept");
    assert_eq!(c.file_ids.len(), 3);
    assert_eq!(c.groups.len(), 1_002);
    for path in ["a.FMT", "b.FMT"] {
        for e in &ev[2..] {
            let mut e = e.clone();
            e.origin = origin(path, mqdiag_readers::formats::trace::FORMAT);
            c.observe(&e);
        }
    }
    assert!(c.threads.is_empty(), "disconnected");
    let ended: u64 = c.groups.iter().map(|(_, g)| g.lifetimes.count()).sum();
    assert_eq!(ended, 2);
}
