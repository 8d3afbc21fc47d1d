//! The real `mqsmfcsv` output in `../shared/smf-real/` (v5.7 run with
//! TZ=UTC on IBM's sample SMF dumps): every row of every file is read, with
//! no problem at all (the clock estimate of files with STCK columns is a note),
//! and the values that matter come out right. Ignored by default (the folder
//! is beside the crate on CI, which runs them with `--include-ignored`);
//! run without the folder, they fail.

mod common;
use common::{instant, jsonl, mqdiag};
use serde_json::Value;
use std::collections::HashSet;
use std::path::{Path, PathBuf};

fn real_dir() -> PathBuf {
    let d = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/smf-real");
    assert!(d.is_dir(), "{} is absent: these tests need it", d.display());
    d
}

/// The offset each sample's STCK columns read against its LPAR clock: the
/// formatter ran in UTC, so this is minus the LPAR's UTC offset.
const SAMPLES: [(&str, &str); 3] = [
    ("TESTCHL", "+04:00"),
    ("TEST116", "+06:00"),
    ("SMF_MQ1000", "-01:00"),
];

/// Files whose rows are placed by STCK columns, and the column the offset
/// is estimated from.
fn anchor(file: &str) -> Option<&'static str> {
    match file {
        "SMF-WQ.csv" => Some("Close"),
        "SMF-WTAS.csv" => Some("WTAS_Interval_End"),
        "SMF-QCST.csv" => Some("Collection_Time"),
        _ => None,
    }
}

fn inventory(dir: &Path) -> Vec<Value> {
    let r = mqdiag(&[
        "inventory",
        dir.to_str().unwrap(),
        "--format",
        "json",
        "--tz",
        "+00:00",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    v["files"].as_array().unwrap().clone()
}

fn timeline(path: &Path) -> Vec<Value> {
    let r = mqdiag(&[
        "timeline",
        path.to_str().unwrap(),
        "--format",
        "jsonl",
        "--tz",
        "+00:00",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    jsonl(&r.stdout)
}

#[test]
#[ignore = "needs ../shared (present on CI)"]
fn every_real_file_reads_every_row_without_problems() {
    let root = real_dir();
    let mut checked = 0;
    for (sample, offset) in SAMPLES {
        let dir = root.join(sample);
        let rows = inventory(&dir);
        let mut csvs: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "csv"))
            .collect();
        csvs.sort();
        assert_eq!(rows.len(), csvs.len(), "{sample}");
        for (row, path) in rows.iter().zip(&csvs) {
            let name = path.file_name().unwrap().to_str().unwrap();
            assert!(row["path"].as_str().unwrap().ends_with(name));
            // Counted without any CSV parsing: mqsmfcsv writes one record a
            // line, the header first.
            let text = std::fs::read(path).unwrap();
            let lines = text
                .split(|&b| b == b'\n')
                .filter(|l| !l.is_empty())
                .count();
            assert_eq!(row["format"], "smf-csv", "{name}");
            assert_eq!(row["lines"], lines as u64, "{name}");
            assert_eq!(row["events"], (lines - 1) as u64, "{name}: every data row");
            let structure = name.trim_start_matches("SMF-").trim_end_matches(".csv");
            // Identified from the header alone, in agreement with the name.
            assert_eq!(row["variant"], structure, "{name}");
            assert_eq!(row["platform"], "z/OS");
            assert_eq!(row["problem_count"], 0, "{name}: {}", row["problems"]);
            let notes: Vec<String> = row["notes"]
                .as_array()
                .map(|a| a.iter().map(|n| n.as_str().unwrap().to_string()).collect())
                .unwrap_or_default();
            let expected: Vec<String> = match anchor(name) {
                Some(col) => vec![format!(
                    "STCK timestamps read {offset} against the LPAR-local Date/Time (estimated from `{col}`: {n} of {n} rows agree): their times moved onto the LPAR clock",
                    n = lines - 1
                )],
                None => vec![],
            };
            assert_eq!(notes, expected, "{name}");
            checked += 1;
        }
    }
    assert_eq!(checked, 45);
}

#[test]
#[ignore = "needs ../shared (present on CI)"]
fn inventory_facts() {
    let root = real_dir();
    let rows = inventory(&root);
    let by_path = |p: &str| {
        rows.iter()
            .find(|r| r["path"].as_str().unwrap().ends_with(p))
            .unwrap_or_else(|| panic!("{p}"))
    };
    let q = by_path("TESTCHL/SMF-QCST.csv");
    assert_eq!(q["mq_version"], "8.0.0");
    assert_eq!(q["qmgr"], "QML1");
    assert_eq!(q["host"], "MPX1");
    assert_eq!(q["utc_offset"], "+00:00");
    assert_eq!(q["utc_offset_source"], "--tz");
    assert_eq!(q["first"], "2016-02-27T18:03:04.256512+00:00");
    assert_eq!(q["last"], "2016-02-27T18:10:24.658432+00:00");
    let m = by_path("SMF_MQ1000/SMF-QMST.csv");
    assert_eq!(m["mq_version"], "10.0.0");
    assert_eq!(m["qmgr"], "MQ1A, MQ1O, MQ31, MQ51, MQ52, MQ53");
}

fn find(rows: &[Value], line: u64) -> &Value {
    rows.iter()
        .find(|r| r["line"] == line)
        .unwrap_or_else(|| panic!("no row for line {line}"))
}

#[test]
#[ignore = "needs ../shared (present on CI)"]
fn testchl_class3_task_rows_link_and_carry_time_on_queue() {
    let root = real_dir();
    // The sample as a run: WQ rows take their task's WTAS interval.
    let all = timeline(&root.join("TESTCHL"));
    let of = |f: &str| -> Vec<Value> {
        all.iter()
            .filter(|r| r["path"].as_str().unwrap().ends_with(f))
            .cloned()
            .collect()
    };
    let (wq, wtas, wtid) = (of("/SMF-WQ.csv"), of("/SMF-WTAS.csv"), of("/SMF-WTID.csv"));
    assert_eq!((wq.len(), wtas.len(), wtid.len()), (22, 200, 200));
    // The client getter of the format notes: 102 gets, 100 valid, max
    // 13.751955 s and 1352.231110 s in total on the queue.
    let g = wq
        .iter()
        .find(|r| r["attrs"]["qtime_max_us"] == "13751955")
        .expect("getter row");
    let a = &g["attrs"];
    assert_eq!(a["record"], "WQ");
    assert_eq!(a["queue"], "ELKINSC.CLIENT.TEST");
    assert_eq!(a["qtime_avg_us"], "13522311");
    assert_eq!(a["Get_Count"], "102");
    assert_eq!(a["Total_Valid_Gets"], "100");
    assert_eq!(a["Max_Depth"], "99");
    assert_eq!(a["Pageset_ID"], "4");
    assert_eq!(a["clock_offset_s"], "14400");
    // `Streamed_Msgs` is -1 (no such field in an MQ 8 record): dropped.
    assert!(a.get("Streamed_Msgs").is_none());
    let task = a["task"].as_str().unwrap();
    assert_eq!(task, "MPX1/QML1/D05D7DE0A9BD83145BBA10405BB83820");
    // Its task's accounting interval (WTAS, below), not the open time
    // (22:03:19 in the formatter's zone, 4 h ahead), which is kept.
    assert_eq!(g["ts"], "2016-02-27T18:03:18.583256+00:00");
    assert_eq!(g["end"], "2016-02-27T18:03:46.895223+00:00");
    assert_eq!(a["ts_from"], "WTAS_Interval_Start");
    assert_eq!(a["Open (TIME)"], "22:03:19,279249");
    assert!(
        g["text"]
            .as_str()
            .unwrap()
            .contains("time on queue avg 13.522 s max 13.752 s")
    );
    // Its task record and identity.
    let t = wtas
        .iter()
        .find(|r| r["attrs"]["task"] == task && r["attrs"]["Time"] == "18:03:46,890000")
        .unwrap();
    assert_eq!(t["ts"], "2016-02-27T18:03:18.583256+00:00");
    assert_eq!(t["end"], "2016-02-27T18:03:46.895223+00:00");
    assert_eq!(t["attrs"]["Other_MQI_Count"], "5");
    let i = wtid
        .iter()
        .find(|r| r["attrs"]["task"] == task && r["attrs"]["Time"] == "18:03:46,890000")
        .unwrap();
    assert_eq!(i["attrs"]["channel"], "ELKINSC.TEST.SVRCONN");
    assert_eq!(i["attrs"]["conname"], "192.168.0.112");
    assert_eq!(i["attrs"]["user"], "MQUSER");
    assert_eq!(i["attrs"]["Appl_Type"], "CHIN");
    // Every WQ row has its task record: same task, same record time.
    let keys: HashSet<(String, String)> = wtas
        .iter()
        .map(|r| {
            (
                r["attrs"]["task"].as_str().unwrap().to_string(),
                r["attrs"]["Time"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    for r in &wq {
        let k = (
            r["attrs"]["task"].as_str().unwrap().to_string(),
            r["attrs"]["Time"].as_str().unwrap().to_string(),
        );
        assert!(keys.contains(&k), "{k:?}");
    }
}

#[test]
#[ignore = "needs ../shared (present on CI)"]
fn testchl_channel_instances() {
    let root = real_dir();
    let rows = timeline(&root.join("TESTCHL/SMF-QCST.csv"));
    assert_eq!(rows.len(), 23);
    let first = find(&rows, 2);
    assert_eq!(first["ts"], "2016-02-27T18:03:17.888000+00:00");
    assert_eq!(first["end"], "2016-02-27T18:03:46.199552+00:00");
    let a = &first["attrs"];
    assert_eq!(a["channel"], "ELKINSC.TEST.SVRCONN");
    assert_eq!(a["conname"], "192.168.0.112");
    assert_eq!(a["Msg_All_Count"], "105");
    assert_eq!(a["Remote_QMgr_Or_App"], "Sphere MQ.bin64.amqsgetc.exe");
    assert_eq!(a["dns_us"], "0");
    assert_eq!(a["Type"], "SvrConn");
    // `Remote_Product_*` are `.....` in an MQ 8 record: dropped.
    assert!(a.get("Remote_Product_ID").is_none());
    // A running instance, then its last 3 messages at the next collection:
    // those counts cover the time since that collection.
    let running = rows
        .iter()
        .find(|r| r["attrs"]["Status"] == "Running")
        .unwrap();
    assert_eq!(running["ts"], "2016-02-27T18:07:35.837696+00:00");
    assert_eq!(running["end"], "2016-02-27T18:08:01.809383+00:00");
    let tail = rows
        .iter()
        .find(|r| r["attrs"]["Msg_All_Count"] == "3")
        .unwrap();
    assert_eq!(tail["ts"], "2016-02-27T18:08:01.809383+00:00");
    assert_eq!(tail["end"], "2016-02-27T18:08:04.149248+00:00");
}

#[test]
#[ignore = "needs ../shared (present on CI)"]
fn mq1000_chinit_dns_and_tls_tasks() {
    let root = real_dir();
    let dns = timeline(&root.join("SMF_MQ1000/SMF-QCTDNS.csv"));
    assert_eq!(dns.len(), 21);
    let slow = find(&dns, 19);
    assert_eq!(slow["ts"], "2026-05-21T16:43:20.819235+00:00");
    // 117 s (truncated) after the start; the record at 16:45:18.55 ends it.
    assert_eq!(slow["end"], "2026-05-21T16:45:18.550000+00:00");
    assert_eq!(slow["attrs"]["qmgr"], "MQ1A");
    assert_eq!(slow["attrs"]["QSG"], "SQ29");
    assert_eq!(slow["attrs"]["dns_max_us"], "119");
    assert_eq!(slow["attrs"]["dns_avg_us"], "17");
    assert_eq!(
        slow["attrs"]["Max_DNS_Request_Time (TIME)"],
        "16:44:26,713456"
    );
    assert!(
        slow["text"]
            .as_str()
            .unwrap()
            .contains("at 16:44:26.713456")
    );
    // A blank QSG (`="    "`) is no value.
    assert!(find(&dns, 2)["attrs"].get("QSG").is_none());
    let tls = timeline(&root.join("SMF_MQ1000/SMF-QCTSSL.csv"));
    assert_eq!(tls.len(), 2);
    assert_eq!(tls[0]["attrs"]["tls_max_us"], "0");
    // No requests: no average.
    assert!(tls[0]["attrs"].get("tls_avg_us").is_none());
}

#[test]
#[ignore = "needs ../shared (present on CI)"]
fn mq1000_queue_rows_take_their_task_interval() {
    let root = real_dir();
    let all = timeline(&root.join("SMF_MQ1000"));
    let of = |f: &str| -> Vec<Value> {
        all.iter()
            .filter(|r| r["path"].as_str().unwrap().ends_with(f))
            .cloned()
            .collect()
    };
    let (wq, wtas) = (of("/SMF-WQ.csv"), of("/SMF-WTAS.csv"));
    assert_eq!(wq.len(), 15);
    // Every WQ row lies in the interval of its task's WTAS row of the same
    // record; the queue's open time (15:34:39.256076 in the formatter's
    // zone, one hour behind) stays an attribute.
    for r in &wq {
        let a = &r["attrs"];
        let t = wtas
            .iter()
            .find(|t| t["attrs"]["task"] == a["task"] && t["attrs"]["Time"] == a["Time"])
            .expect("its WTAS row");
        assert_eq!(r["ts"], t["ts"], "{}", r["line"]);
        assert_eq!(r["end"], t["end"], "{}", r["line"]);
        assert_eq!(a["ts_from"], "WTAS_Interval_Start");
        assert_eq!(a["clock_offset_s"], "-3600");
    }
    assert_eq!(find(&wq, 2)["attrs"]["Open (TIME)"], "15:34:39,256076");
}

#[test]
#[ignore = "needs ../shared (present on CI)"]
fn statistics_and_class1_values() {
    let root = real_dir();
    let qmst = timeline(&root.join("SMF_MQ1000/SMF-QMST.csv"));
    let m = find(&qmst, 2);
    assert_eq!(m["ts"], "2026-05-21T16:00:00.000931+00:00");
    assert_eq!(m["end"], "2026-05-21T16:30:00.000000+00:00");
    assert_eq!(m["attrs"]["Get"], "123");
    assert_eq!(m["attrs"]["Interval_Duration"], "1799");
    let qmac = timeline(&root.join("TEST116/SMF-QMAC.csv"));
    let c = find(&qmac, 2);
    assert_eq!(c["ts"], "2015-11-23T11:00:00.020000+00:00");
    assert!(c["end"].is_null());
    assert_eq!(c["attrs"]["Application_Type"], "IMS MPP/BMP");
    assert_eq!(c["attrs"]["CPU_Time(US)"], "529");
    assert_eq!(c["attrs"]["Puts_Len_100to999"], "2");
    assert_eq!(c["attrs"]["Operator_ID"], "PLN1231");
    let qpst = timeline(&root.join("SMF_MQ1000/SMF-QPST.csv"));
    let p = find(&qpst, 2);
    assert_eq!(p["attrs"]["Buffer_Count"], "2001");
    assert_eq!(p["attrs"]["Lowest_Stealable"], "1994");
    assert_eq!(p["attrs"]["LOC"], "Below");
}

#[test]
#[ignore = "needs ../shared (present on CI)"]
fn timelines_are_in_time_order() {
    let root = real_dir();
    for (sample, _) in SAMPLES {
        let rows = timeline(&root.join(sample));
        let mut last = i64::MIN;
        for r in &rows {
            let t = instant(r["ts"].as_str().unwrap());
            assert!(t >= last, "{sample}: out of order: {}", r["line"]);
            last = t;
            if let Some(end) = r["end"].as_str() {
                assert!(instant(end) >= t, "{sample}: ends before it starts: {r}");
            }
            // Rows with STCK intervals are placed by them, never by the
            // record time alone.
            let a = &r["attrs"];
            if ["WQ", "WTAS", "QCST"].contains(&a["record"].as_str().unwrap()) {
                assert_ne!(a["ts_from"], "Date/Time", "{sample}: {r}");
                assert!(a["clock_offset_s"].is_string(), "{sample}: {r}");
            }
        }
        assert!(rows.len() > 5, "{sample}");
    }
}

/// Without `--tz`, every file's LPAR offset comes from the clocks of its
/// sample (the formatter ran in UTC, so it is minus the STCK offset), files
/// without STCK columns included: no "UTC assumed", no problem at all.
#[test]
#[ignore = "needs ../shared (present on CI)"]
fn every_real_file_gets_its_lpar_offset_from_the_clocks() {
    let root = real_dir();
    let mut checked = 0;
    for (sample, stck) in SAMPLES {
        let lpar = if let Some(east) = stck.strip_prefix('+') {
            format!("-{east}")
        } else {
            format!("+{}", &stck[1..])
        };
        let r = mqdiag(&[
            "inventory",
            root.join(sample).to_str().unwrap(),
            "--format",
            "json",
        ]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        let v: Value = serde_json::from_str(&r.stdout).unwrap();
        for f in v["files"].as_array().unwrap() {
            let path = f["path"].as_str().unwrap();
            assert_eq!(f["problem_count"], 0, "{path}: {}", f["problems"]);
            assert_eq!(f["utc_offset"], lpar.as_str(), "{path}");
            assert_eq!(f["utc_offset_source"], "data", "{path}");
            let first = f["notes"][0].as_str().unwrap();
            assert!(
                first.starts_with(&format!(
                    "STCK columns read as UTC; LPAR offset {lpar} from "
                )),
                "{path}: {first}"
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 45);
    // The same instants as with --tz +00:00, shifted by the LPAR offset:
    // the first channel instance of TESTCHL began at 18:03:17.888 on the
    // LPAR clock, 22:03:17.888 UTC.
    let r = mqdiag(&[
        "timeline",
        root.join("TESTCHL/SMF-QCST.csv").to_str().unwrap(),
        "--format",
        "jsonl",
    ]);
    let rows = jsonl(&r.stdout);
    assert_eq!(find(&rows, 2)["ts"], "2016-02-27T18:03:17.888000-04:00");
    assert_eq!(
        instant(find(&rows, 2)["ts"].as_str().unwrap()),
        instant("2016-02-27T22:03:17.888Z")
    );
}
