//! End-to-end: `inventory` and `timeline` on the SMF fixtures (our own
//! files in `mqsmfcsv`'s shape: `mqsmfcsv-5.7/` is the current formatter
//! on an MQ 10 queue manager whose LPAR runs at UTC+1, `mqsmfcsv-5.4/` an
//! older build without the QSG column and with old column names, on an LPAR
//! at UTC-5; both formatted with TZ=UTC). `--tz +00:00` keeps the output
//! independent of the machine.

mod common;
use common::stdout_of as run;
use common::{instant, jsonl};
use serde_json::Value;

#[test]
fn inventory_json_snapshot() {
    let out = run(&[
        "inventory",
        "fixtures/smf",
        "--format",
        "json",
        "--tz",
        "+00:00",
    ]);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["schema_version"], 1);
    assert_eq!(v["files"].as_array().unwrap().len(), 16);
    insta::assert_json_snapshot!(v);
}

#[test]
fn timeline_jsonl_snapshot_is_time_ordered() {
    let out = run(&[
        "timeline",
        "fixtures/smf",
        "--format",
        "jsonl",
        "--tz",
        "+00:00",
    ]);
    let rows = jsonl(&out);
    assert_eq!(rows.len(), 68);
    let mut last = i64::MIN;
    for r in &rows {
        for k in ["ts", "path", "line", "format", "kind", "text"] {
            assert!(!r[k].is_null(), "{k} missing in {r}");
        }
        assert_eq!(r["kind"], "smf-record");
        assert_eq!(r["format"], "smf-csv");
        let t = instant(r["ts"].as_str().unwrap());
        assert!(t >= last, "out of order: {r}");
        last = t;
    }
    insta::assert_snapshot!(out);
}

#[test]
fn timeline_text_snapshot() {
    insta::assert_snapshot!(run(&["timeline", "fixtures/smf", "--tz", "+00:00"]));
}

fn rows(path: &str) -> Vec<Value> {
    jsonl(&run(&[
        "timeline", path, "--format", "jsonl", "--tz", "+01:00",
    ]))
}

fn at(rows: &[Value], line: u64) -> &Value {
    rows.iter()
        .find(|r| r["line"] == line)
        .unwrap_or_else(|| panic!("no row for line {line}"))
}

#[test]
fn queue_time_grows_in_statistics_and_task_records() {
    let q = rows("fixtures/smf/mqsmfcsv-5.7/SMF-QQST.csv");
    let orders: Vec<(&str, &str)> = q
        .iter()
        .filter(|r| r["attrs"]["queue"] == "ORDERS.REQUEST")
        .map(|r| {
            (
                r["ts"].as_str().unwrap(),
                r["attrs"]["qtime_avg_us"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        orders,
        vec![
            ("2025-03-14T10:00:00.001503+01:00", "180000"),
            ("2025-03-14T10:15:00.001488+01:00", "2976000"),
            ("2025-03-14T10:30:00.001521+01:00", "6120000"),
        ]
    );
    let last = at(&q, 8);
    assert_eq!(last["end"], "2025-03-14T10:45:00.000000+01:00");
    assert_eq!(last["attrs"]["qtime_long_us"], "3050000");
    assert_eq!(last["attrs"]["oldest_msg_age_us"], "58000000");
    // The shared queue's -1 page set is data; its partial record has no age.
    let partial = at(&q, 7);
    assert_eq!(partial["attrs"]["Pageset"], "-1");
    assert_eq!(partial["attrs"]["Record"], "PARTIAL");
    assert!(partial["attrs"].get("oldest_msg_age_us").is_none());

    let wq = rows("fixtures/smf/mqsmfcsv-5.7/SMF-WQ.csv");
    let getters: Vec<(u64, &str, &str)> = wq
        .iter()
        .filter(|r| {
            r["attrs"]["queue"] == "ORDERS.REQUEST" && r["attrs"].get("qtime_avg_us").is_some()
        })
        .map(|r| {
            (
                r["line"].as_u64().unwrap(),
                r["attrs"]["qtime_avg_us"].as_str().unwrap(),
                r["attrs"]["qtime_max_us"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        getters,
        vec![
            (2, "160266", "210441"),
            (3, "200000", "1802331"),
            (6, "3000000", "6120447"),
            (8, "8145035", "9120334"),
        ]
    );
}

#[test]
fn long_running_task_records_cover_their_wtas_intervals() {
    // With the task's WTAS rows in the run (the directory).
    let dir = rows("fixtures/smf/mqsmfcsv-5.7");
    let wq: Vec<Value> = dir
        .iter()
        .filter(|r| r["path"].as_str().unwrap().ends_with("SMF-WQ.csv"))
        .cloned()
        .collect();
    let first = at(&wq, 3);
    let second = at(&wq, 6);
    assert_eq!(first["attrs"]["task"], second["attrs"]["task"]);
    assert_eq!(
        first["attrs"]["task"],
        "SYSA/MQPR/DC39C20A11F3B2A07E6E93F05C019920"
    );
    // The first record covers the task's first accounting interval (from
    // 06:02, STCK 05:02 in the formatter's UTC), as its WTAS row says.
    assert_eq!(first["ts"], "2025-03-14T06:02:11.004512+01:00");
    assert_eq!(first["end"], "2025-03-14T10:15:00.041220+01:00");
    assert_eq!(first["attrs"]["clock_offset_s"], "-3600");
    assert_eq!(first["attrs"]["ts_from"], "WTAS_Interval_Start");
    // The second one its next interval.
    assert_eq!(second["ts"], "2025-03-14T10:15:00.041220+01:00");
    assert_eq!(second["end"], "2025-03-14T10:30:00.039871+01:00");
    // Read alone (no WTAS row in the run): at the record time.
    let alone = rows("fixtures/smf/mqsmfcsv-5.7/SMF-WQ.csv");
    assert_eq!(at(&alone, 3)["ts"], "2025-03-14T10:15:00.050000+01:00");
    assert_eq!(at(&alone, 3)["attrs"]["ts_from"], "Date/Time");
    // The alias is kept, the queue is its base.
    let alias = at(&alone, 4);
    assert_eq!(alias["attrs"]["Open_Name"], "ORDERS.REPLY.ALIAS");
    assert_eq!(alias["attrs"]["queue"], "ORDERS.REPLY");
    assert_eq!(alias["attrs"]["Queue"], "Alias");

    let wtas = rows("fixtures/smf/mqsmfcsv-5.7/SMF-WTAS.csv");
    let t = at(&wtas, 5);
    assert_eq!(t["attrs"]["task"], first["attrs"]["task"]);
    assert_eq!(t["ts"], "2025-03-14T10:15:00.041220+01:00");
    assert_eq!(t["end"], "2025-03-14T10:30:00.039871+01:00");
    assert_eq!(t["attrs"]["Max_Latch_Wait_ID"], "24");
    let wtid = rows("fixtures/smf/mqsmfcsv-5.7/SMF-WTID.csv");
    let i = at(&wtid, 5);
    assert_eq!(i["attrs"]["task"], first["attrs"]["task"]);
    assert_eq!(i["attrs"]["Connection_Name"], "CICSPRD1");
    // Dots are "no channel".
    assert!(i["attrs"].get("channel").is_none());
    assert!(i["attrs"].get("Channel_Name").is_none());
}

#[test]
fn slow_dns_and_tls_show_in_chinit_and_channel_records() {
    let dns = rows("fixtures/smf/mqsmfcsv-5.7/SMF-QCTDNS.csv");
    let slow = at(&dns, 3);
    assert_eq!(slow["attrs"]["dns_max_us"], "5120431");
    assert_eq!(slow["attrs"]["dns_avg_us"], "823568");
    assert_eq!(
        slow["attrs"]["Max_DNS_Request_Time (TIME)"],
        "10:22:41,902115"
    );
    assert!(at(&dns, 4)["attrs"].get("dns_avg_us").is_none());
    let tls = rows("fixtures/smf/mqsmfcsv-5.7/SMF-QCTSSL.csv");
    assert_eq!(at(&tls, 4)["attrs"]["tls_max_us"], "912004");
    assert_eq!(at(&tls, 4)["attrs"]["tls_avg_us"], "4642");
    let qcst = rows("fixtures/smf/mqsmfcsv-5.7/SMF-QCST.csv");
    let c = at(&qcst, 5);
    assert_eq!(c["attrs"]["dns_us"], "5120431");
    assert_eq!(c["attrs"]["conname"], "10.20.30.40");
    assert_eq!(c["attrs"]["SSL_CipherSuite"], "9D");
    assert_eq!(c["ts"], "2025-03-14T10:22:36.781000+01:00");
    assert_eq!(c["end"], "2025-03-14T10:22:44.121000+01:00");
    // Churn: six short instances of one client on one channel.
    let short = qcst
        .iter()
        .filter(|r| r["attrs"]["channel"] == "ORDERS.SVRCONN")
        .count();
    assert_eq!(short, 7);
}

#[test]
fn old_formatter_columns_are_renamed() {
    let wq: Vec<Value> = rows("fixtures/smf/mqsmfcsv-5.4")
        .into_iter()
        .filter(|r| r["path"].as_str().unwrap().ends_with("SMF-WQ.csv"))
        .collect();
    let g = at(&wq, 3);
    // Written as `Get_Pageset_Suspend_*` by builds before 5.4.3.
    assert_eq!(g["attrs"]["Get_Suspend_Count"], "0");
    assert!(g["attrs"].get("Get_Pageset_Suspend_Count").is_none());
    assert_eq!(g["attrs"]["qtime_avg_us"], "1141174");
    assert_eq!(g["attrs"]["clock_offset_s"], "18000");
    assert!(g["attrs"].get("QSG").is_none());
    let qcct = rows("fixtures/smf/mqsmfcsv-5.4/SMF-QCCT.csv");
    assert_eq!(at(&qcct, 2)["attrs"]["Storage_Usage_31"], "41");
}
