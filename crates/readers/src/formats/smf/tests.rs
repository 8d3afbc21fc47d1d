use super::*;
use crate::testkit;
use mqdiag_model::timefmt::rfc3339;

fn read(name: &str, text: &str, tz: Option<&str>) -> (Vec<Event>, FileInfo) {
    let input = Input::from_bytes(name, text.as_bytes().to_vec());
    let opts = ReadOptions {
        tz: tz.and_then(mqdiag_model::timefmt::parse_offset),
        ..ReadOptions::default()
    };
    let (evs, mut infos) = testkit::read_inputs(&SmfCsvReader, vec![input], &opts);
    (evs, infos.remove(0))
}

fn messages(fi: &FileInfo) -> Vec<(Option<u64>, String)> {
    fi.problems
        .iter()
        .map(|p| (p.line, p.message.clone()))
        .collect()
}

fn ts(e: &Event) -> String {
    rfc3339(&e.ts)
}

fn end(e: &Event) -> String {
    e.end.as_ref().map(rfc3339).unwrap_or_default()
}

const QCST: &str = "Date,Time,LPAR,QMgr,QSG,MQ_Version,Collection_Time (DATE),Collection_Time (TIME),Chl_Name,Status,Connection_Name,Start (DATE),Start (TIME),Stop (DATE),Stop (TIME),Msg_All_Count,DNS_Resolution_Time,\n";

#[test]
fn qcst_counts_start_at_the_previous_collection() {
    // The LPAR runs 4 h behind the formatter's zone (TESTCHL's shape).
    let text = format!(
        "{QCST}\
\"2016/02/27\",\"18:08:01,800000\",\"MPX1\",\"QML1\",\"....\",=\"800\",\"2016/02/27\",\"22:08:01,809383\",\"SVR.A\",\"Running\",\"10.1.1.1  \",\"2016/02/27\",\"22:07:35,837696\",\"\",\"\",102,0,\n\
\"2016/02/27\",\"18:08:47,560000\",\"MPX1\",\"QML1\",\"....\",=\"800\",\"2016/02/27\",\"22:08:47,562586\",\"SVR.A\",\"Inactive\",\"10.1.1.1  \",\"2016/02/27\",\"22:07:35,837696\",\"2016/02/27\",\"22:08:04,149248\",3,2500,\n"
    );
    let (evs, fi) = read("SMF-QCST.csv", &text, Some("-04:00"));
    assert_eq!(evs.len(), 2);
    // First report of a running instance: from its start to the collection.
    assert_eq!(ts(&evs[0]), "2016-02-27T18:07:35.837696-04:00");
    assert_eq!(end(&evs[0]), "2016-02-27T18:08:01.809383-04:00");
    // Second: its counts restarted at the previous collection; it ended
    // at Stop.
    assert_eq!(ts(&evs[1]), "2016-02-27T18:08:01.809383-04:00");
    assert_eq!(end(&evs[1]), "2016-02-27T18:08:04.149248-04:00");
    assert_eq!(evs[1].attr("clock_offset_s"), Some("14400"));
    assert_eq!(evs[0].attr("ts_from"), Some("Start"));
    assert_eq!(evs[1].attr("ts_from"), Some("previous collection"));
    assert_eq!(evs[1].attr("dns_us"), Some("2500"));
    assert_eq!(evs[1].attr("conname"), Some("10.1.1.1"));
    assert_eq!(evs[1].attr("channel"), Some("SVR.A"));
    // Raw STCK columns stay as written.
    assert_eq!(evs[1].attr("Stop (TIME)"), Some("22:08:04,149248"));
    assert_eq!(fi.utc_offset.as_deref(), Some("-04:00"));
    assert!(messages(&fi).is_empty());
    assert_eq!(
        fi.notes,
        vec!["STCK timestamps read +04:00 against the LPAR-local Date/Time (estimated from `Collection_Time`: 2 of 2 rows agree): their times moved onto the LPAR clock".to_string()]
    );
}

const WTAS: &str = "Date,Time,LPAR,QMgr,MQ_Version,Correl,WTAS_Interval_Start (DATE),WTAS_Interval_Start (TIME),WTAS_Interval_End (DATE),WTAS_Interval_End (TIME),Commit_Count,\n";

fn wtas_row(date: &str, rec: &str, start: &str, end: &str) -> String {
    format!(
        "\"{date}\",\"{rec}\",\"SYSB\",\"MQTB\",=\"920\",=\"D9A1\",\"{date}\",\"{start}\",\"{date}\",\"{end}\",1,\n"
    )
}

#[test]
fn offset_change_mid_file_is_followed_and_reported() {
    // US daylight saving starts: the LPAR clock jumps from UTC-5 to
    // UTC-4; the formatter ran in UTC.
    let text = format!(
        "{WTAS}{}{}{}",
        wtas_row(
            "2024/03/10",
            "01:59:00,010000",
            "06:58:00,000000",
            "06:59:00,005000"
        ),
        wtas_row(
            "2024/03/10",
            "01:59:30,010000",
            "06:59:10,000000",
            "06:59:30,005000"
        ),
        wtas_row(
            "2024/03/10",
            "03:00:30,010000",
            "07:00:10,000000",
            "07:00:30,005000"
        ),
    );
    let (evs, fi) = read("SMF-WTAS.csv", &text, None);
    assert_eq!(
        messages(&fi),
        vec![(
            Some(4),
            "STCK timestamps read +04:00 against the LPAR-local Date/Time from here (before: +05:00): daylight saving change, or output of runs in different zones joined".to_string()
        )]
    );
    assert_eq!(
        fi.notes,
        vec!["STCK columns read as UTC; LPAR offset -05:00 from 2 rows. STCK timestamps read +05:00 against the LPAR-local Date/Time (estimated from `WTAS_Interval_End`: 2 of 3 rows agree): their times moved onto the LPAR clock; if mqsmfcsv did not run in UTC (TZ=UTC or -g yes), give its zone with --smf-stck-tz".to_string()]
    );
    assert_eq!(fi.utc_offset.as_deref(), Some("-05:00"));
    assert_eq!(fi.utc_offset_source.as_deref(), Some("data"));
    // Each row in the LPAR's offset of its time, at the true instant: the
    // clock went from 01:59:59 EST to 03:00:00 EDT.
    assert_eq!(ts(&evs[0]), "2024-03-10T01:58:00.000000-05:00");
    assert_eq!(evs[1].attr("clock_offset_s"), Some("18000"));
    assert_eq!(ts(&evs[2]), "2024-03-10T03:00:10.000000-04:00");
    assert_eq!(evs[2].attr("clock_offset_s"), Some("14400"));
    assert_eq!(end(&evs[2]), "2024-03-10T03:00:30.005000-04:00");
    // The same with --tz: the LPAR clock read as that zone, whatever the
    // STCK columns say.
    let (evs, fi) = read("SMF-WTAS.csv", &text, Some("+01:00"));
    assert_eq!(ts(&evs[0]), "2024-03-10T01:58:00.000000+01:00");
    assert_eq!(ts(&evs[2]), "2024-03-10T03:00:10.000000+01:00");
    assert_eq!(fi.utc_offset_source.as_deref(), Some("--tz"));
    assert_eq!(
        fi.notes,
        vec!["STCK timestamps read +05:00 against the LPAR-local Date/Time (estimated from `WTAS_Interval_End`: 2 of 3 rows agree): their times moved onto the LPAR clock".to_string()]
    );
}

const WQ: &str = "Date,Time,LPAR,QMgr,QSG,MQ_Version,Correlation,Open_Name,Base_Name,Open (DATE),Open (TIME),Close (DATE),Close (TIME),Get_Count,Total_Valid_Gets,Max_Time_On_Queue(S),Max_Time_On_Queue(US),Total_Time_On_Queue(S),Total_Time_On_Queue(US),Put_Min_Msg_Size,\n";

#[test]
fn wq_without_a_usable_anchor_stays_at_its_record_time() {
    // The queue was closed 40 minutes before the record: says nothing
    // about the zones.
    let text = format!(
        "{WQ}\"2016/02/27\",\"18:03:46,890000\",\"MPX1\",\"QML1\",\"....\",=\"800\",=\"D05D\",\"Q1   \",\"Q1   \",\"2016/02/27\",\"21:20:00,000000\",\"2016/02/27\",\"21:23:00,000000\",4,4,2, 500000 ,4, 0 ,-1,\n"
    );
    let (evs, fi) = read("SMF-WQ.csv", &text, Some("+00:00"));
    assert_eq!(ts(&evs[0]), "2016-02-27T18:03:46.890000+00:00");
    assert_eq!(evs[0].end, None);
    assert_eq!(evs[0].attr("clock_offset_s"), None);
    assert_eq!(evs[0].attr("ts_from"), Some("Date/Time"));
    assert_eq!(evs[0].attr("qtime_avg_us"), Some("1000000"));
    assert_eq!(evs[0].attr("qtime_max_us"), Some("2500000"));
    assert_eq!(evs[0].attr("task"), Some("MPX1/QML1/D05D"));
    // `-1` is the "no puts" dummy: dropped. `....` QSG: dropped.
    assert_eq!(evs[0].attr("Put_Min_Msg_Size"), None);
    assert_eq!(evs[0].attr("QSG"), None);
    assert_eq!(
        messages(&fi),
        vec![(None, "offset between STCK timestamps and the LPAR-local Date/Time could not be estimated from `Close`: rows placed at their record time, STCK columns kept as written".to_string())]
    );
}

/// Every input as an SMF file of one run.
fn siblings(inputs: &[Input]) -> crate::formats::Siblings<'_> {
    crate::formats::Siblings::new(inputs.iter().map(|i| (FORMAT, i)).collect())
}

/// Read `name` of `files` with the run's survey (as `analyze` does).
fn read_in_run(files: &[(&str, &str)], name: &str, tz: Option<&str>) -> (Vec<Event>, FileInfo) {
    let inputs: Vec<Input> = files.iter().map(|(n, t)| mem(n, t)).collect();
    let opts = ReadOptions {
        tz: tz.and_then(mqdiag_model::timefmt::parse_offset),
        ..ReadOptions::default()
    };
    let prepared = SmfCsvReader.prepare(&siblings(&inputs), &opts);
    let input = inputs.iter().find(|i| &*i.display == name).unwrap().clone();
    let (evs, mut infos) = testkit::drain(SmfCsvReader.open_with(vec![input], &opts, prepared));
    (evs, infos.remove(0))
}

/// A long-lived handle: the queue was opened three days before these
/// records. Each WQ row covers its task's WTAS interval (joined on
/// correlator, LPAR, queue manager and record time), not the open time.
fn long_lived_handle() -> (String, String) {
    let wq = |rec: &str, gets: u32| {
        format!(
            "\"2025/03/14\",\"{rec}\",\"SYSA\",\"MQPR\",\"PRDG\",=\"100000\",=\"DC39\",\"Q1\",\"Q1\",\"2025/03/11\",\"05:02:12,100411\",\"2025/03/14\",\"{rec}\",{gets},{gets},0, 10 ,0, 100 ,-1,\n"
        )
    };
    let wtas = |rec: &str, start: &str| {
        format!(
            "\"2025/03/14\",\"{rec}\",\"SYSA\",\"MQPR\",=\"100000\",=\"DC39\",\"2025/03/14\",\"{start}\",\"2025/03/14\",\"{rec}\",1,\n"
        )
    };
    (
        format!(
            "{WQ}{}{}",
            wq("10:15:00,050000", 10),
            wq("10:30:00,050000", 20)
        ),
        format!(
            "{WTAS}{}{}",
            wtas("10:15:00,050000", "10:00:00,040000"),
            wtas("10:30:00,050000", "10:15:00,050000")
        ),
    )
}

#[test]
fn wq_rows_cover_their_tasks_wtas_interval_not_the_open_time() {
    let (wq, wtas) = long_lived_handle();
    let files = [("SMF-WQ.csv", wq.as_str()), ("SMF-WTAS.csv", wtas.as_str())];
    let (evs, _) = read_in_run(&files, "SMF-WQ.csv", Some("+00:00"));
    assert_eq!(ts(&evs[0]), "2025-03-14T10:00:00.040000+00:00");
    assert_eq!(end(&evs[0]), "2025-03-14T10:15:00.050000+00:00");
    assert_eq!(ts(&evs[1]), "2025-03-14T10:15:00.050000+00:00");
    assert_eq!(end(&evs[1]), "2025-03-14T10:30:00.050000+00:00");
    assert_eq!(evs[0].attr("ts_from"), Some("WTAS_Interval_Start"));
    // The open time stays an attribute.
    assert_eq!(evs[0].attr("Open (DATE)"), Some("2025/03/11"));
    // Another task's WTAS row (other correlator) does not place them.
    let other = wtas
        .replace("D\"DC39\"", "D\"DC40\"")
        .replace("=\"DC39\"", "=\"DC40\"");
    let files = [
        ("SMF-WQ.csv", wq.as_str()),
        ("SMF-WTAS.csv", other.as_str()),
    ];
    let (evs, _) = read_in_run(&files, "SMF-WQ.csv", Some("+00:00"));
    assert_eq!(ts(&evs[0]), "2025-03-14T10:15:00.050000+00:00");
    assert_eq!(evs[0].attr("ts_from"), Some("Date/Time"));
}

#[test]
fn wq_rows_without_their_wtas_row_are_at_their_record_time() {
    let (wq, _) = long_lived_handle();
    let (evs, _) = read_in_run(&[("SMF-WQ.csv", wq.as_str())], "SMF-WQ.csv", Some("+00:00"));
    assert_eq!(ts(&evs[0]), "2025-03-14T10:15:00.050000+00:00");
    assert_eq!(evs[0].end, None);
    assert_eq!(evs[0].attr("ts_from"), Some("Date/Time"));
    assert_eq!(ts(&evs[1]), "2025-03-14T10:30:00.050000+00:00");
    // Read alone (no survey): the same.
    let (evs, _) = read("SMF-WQ.csv", &wq, Some("+00:00"));
    assert_eq!(ts(&evs[0]), "2025-03-14T10:15:00.050000+00:00");
}

const QMST: &str = "Date,Time,LPAR,QMgr,QSG,MQ_Version,Interval_Start (DATE),Interval_Start (TIME),Interval_Duration,Get,Put,Inql,\n";

#[test]
fn statistics_intervals_end_at_the_record_time() {
    let text = format!(
        "{QMST}\
\"2026/05/21\",\"16:30:10,000000\",\"MV4A\",\"MQ1O\",\"SQ13\",=\"100000\",\"2026/05/21\",\"16:29:10,006824\",59,5,6,0,\n\
\"2026/05/21\",\"16:31:10,000000\",\"MV4A\",\"MQ1O\",\"SQ13\",=\"100000\",7,8,0,\n"
    );
    let (evs, fi) = read("SMF-QMST.csv", &text, Some("+01:00"));
    // 59 s is truncated: the record at 16:30:10 ends the interval.
    assert_eq!(ts(&evs[0]), "2026-05-21T16:29:10.006824+01:00");
    assert_eq!(end(&evs[0]), "2026-05-21T16:30:10.000000+01:00");
    assert_eq!(evs[0].attr("clock_offset_s"), None);
    assert_eq!(evs[1].attr("Get"), Some("7"));
    assert_eq!(ts(&evs[1]), "2026-05-21T16:31:10.000000+01:00");
    assert_eq!(
        messages(&fi),
        vec![(Some(3), "row lacks the 3 Interval_Start/Interval_Duration columns (115 record without interval header): read without them, placed at its record time".to_string())]
    );
}

/// Three WTAS rows a minute apart; the second is of a task that began
/// hours before the records around it.
fn task_began_hours_before() -> String {
    let row = |rec: &str, start: &str, end: &str| wtas_row("2016/02/27", rec, start, end);
    format!(
        "{WTAS}{}{}{}",
        row("18:03:00,000000", "18:02:50,000000", "18:03:00,004000"),
        row("18:04:00,000000", "14:06:41,000000", "18:04:00,004000"),
        row("18:05:00,000000", "18:04:58,000000", "18:05:00,004000"),
    )
}

#[test]
fn rows_come_out_in_time_order_of_their_intervals() {
    let text = task_began_hours_before();
    let (evs, _) = read("SMF-WTAS.csv", &text, Some("+00:00"));
    let lines: Vec<u64> = evs.iter().map(|e| e.line).collect();
    assert_eq!(lines, vec![3, 2, 4]);
}

#[test]
fn a_full_hold_budget_lets_the_earliest_rows_go() {
    let text = task_began_hours_before();
    let lines = |budget: usize| -> Vec<u64> {
        let input = Input::from_bytes("SMF-WTAS.csv", text.as_bytes().to_vec());
        let opts = ReadOptions {
            tz: mqdiag_model::timefmt::parse_offset("+00:00"),
            ..ReadOptions::default()
        };
        let run = SmfRun {
            clocks: None,
            hold_budget: budget,
        };
        let mut src = SmfCsvReader.open_with(vec![input], &opts, Some(Arc::new(run)));
        let mut v = Vec::new();
        while let Some(e) = src.next_event() {
            v.push(e.line);
        }
        v
    };
    // Room for all three: put in order. Room for one: each row goes as
    // soon as the next comes, in file order.
    assert_eq!(lines(1 << 20), vec![3, 2, 4]);
    assert_eq!(lines(1), vec![2, 3, 4]);
    assert_eq!(hold_budget_for(1), BUDGET);
    assert_eq!(hold_budget_for(4), 8 << 20);
    assert_eq!(hold_budget_for(100), MIN_BUDGET);
}

/// Rows of every SMF fixture through `next_rows` (text rows: no
/// attributes built) against rows rendered from full events.
#[test]
fn text_rows_without_attributes_are_the_rows_of_full_events() {
    use mqdiag_model::sink::{RowRenderer, TimelineFormat};
    use mqdiag_model::sink::{RowSink, RowSpec};
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/smf");
    let mut files = Vec::new();
    for sub in std::fs::read_dir(&dir).unwrap() {
        for f in std::fs::read_dir(sub.unwrap().path()).unwrap() {
            files.push(f.unwrap().path());
        }
    }
    assert!(files.len() >= 10);
    let mut attrs_seen = 0;
    for path in files {
        let bytes = std::fs::read(&path).unwrap();
        let name = path.file_name().unwrap().to_str().unwrap();
        let open = || {
            let input = Input::from_bytes(name, bytes.clone());
            SmfCsvReader.open(vec![input], &ReadOptions::default())
        };
        let mut full = Vec::new();
        let mut renderer = RowRenderer::default();
        let mut src = open();
        while let Some(e) = src.next_event() {
            attrs_seen += e.attrs.len();
            renderer.render(TimelineFormat::Text, &e, &mut full);
        }
        let mut sink = RowSink::new(Arc::new(RowSpec::new(TimelineFormat::Text)));
        let mut rows = Vec::new();
        let mut src = open();
        while src.next_rows(&mut sink, &mut rows, 3, usize::MAX, &mut |_, _, _| {}) {}
        assert_eq!(
            String::from_utf8_lossy(&rows),
            String::from_utf8_lossy(&full),
            "{name}"
        );
        assert!(!rows.is_empty(), "{name}");
    }
    assert!(attrs_seen > 1000);
}

#[test]
fn repeated_header_renames_the_columns_from_there() {
    let text = format!(
        "{QMST}\"2026/05/21\",\"16:30:10,000000\",\"MV4A\",\"MQ1O\",\"SQ13\",=\"100000\",\"2026/05/21\",\"16:29:10,006824\",59,5,6,0,\n\
Date,Time,LPAR,QMgr,MQ_Version,Interval_Start (DATE),Interval_Start (TIME),Interval_Duration,Put,Get,Inql,\n\
\"2026/05/21\",\"16:31:10,000000\",\"MV4A\",\"MQ1O\",=\"100000\",\"2026/05/21\",\"16:30:10,006775\",59,9,4,0,\n"
    );
    let (evs, fi) = read("SMF-QMST.csv", &text, Some("+00:00"));
    assert_eq!(evs.len(), 2);
    assert_eq!(evs[1].attr("Get"), Some("4"));
    assert_eq!(evs[1].attr("Put"), Some("9"));
    assert_eq!(
        messages(&fi),
        vec![(
            Some(3),
            "header row repeated (files joined?): columns named again from here".to_string()
        )]
    );
    assert_eq!(
        fi.variant.as_deref(),
        Some("QMST, no QSG column (mqsmfcsv before 5.6)")
    );
}

#[test]
fn raw_field_names_of_2016_builds_are_renamed() {
    let text = "Date,Time,LPAR,QMgr,MQ_Version,CORREL ,OBJNAME,BASENAME,GETN   ,VALIDGET,MAXLATNT(S),MAXLATNT(US),TOTLATNT(S),TOTLATNT(US),\n\
\"2016/02/27\",\"18:03:46,890000\",\"MPX1\",\"QML1\",=\"800\",=\"D05D\",\"ALIAS.Q \",\"BASE.Q  \",102,100,13, 751955 ,1352, 231110 ,\n";
    let (evs, fi) = read("whatever.csv", text, Some("+00:00"));
    assert_eq!(
        fi.variant.as_deref(),
        Some("WQ, old column names, no QSG column (mqsmfcsv before 5.6)")
    );
    let e = &evs[0];
    assert_eq!(e.attr("record"), Some("WQ"));
    assert_eq!(e.attr("Open_Name"), Some("ALIAS.Q"));
    assert_eq!(e.attr("queue"), Some("BASE.Q"));
    assert_eq!(e.attr("Get_Count"), Some("102"));
    assert_eq!(e.attr("Max_Time_On_Queue(US)"), Some("751955"));
    assert_eq!(e.attr("qtime_max_us"), Some("13751955"));
    assert_eq!(e.attr("qtime_avg_us"), Some("13522311"));
    assert_eq!(e.attr("task"), Some("MPX1/QML1/D05D"));
}

#[test]
fn placeholders_and_signed_columns() {
    let text = "Date,Time,LPAR,QMgr,QSG,MQ_Version,Interval_Start (DATE),Interval_Start (TIME),Interval_Duration,Queue,Queue_Disp,Record,Pageset,BufferPool,Current_Depth,Max_Age,QTime_Short,QTime_Long,Last_Get (DATE),Last_Get (TIME),Last_Put (DATE),Last_Put (TIME),\n\
\"2026/05/21\",\"16:30:00,000000\",\"MV4A\",\"MQ1A\",\"SQ29\",=\"100000\",\"2026/05/21\",\"16:00:00,000931\",1799,\"SHARED.Q        \",\"SHARED\",\"PARTIAL\",-1,-1,0,0,41022,39811,\"1970/01/01\",\"00:00:00,000000\",\"\",\"\",\n";
    let (evs, fi) = read("SMF-QQST.csv", text, Some("+00:00"));
    assert!(fi.problems.is_empty(), "{:?}", fi.problems);
    let e = &evs[0];
    // -1 is data here: a shared queue has no page set.
    assert_eq!(e.attr("Pageset"), Some("-1"));
    assert_eq!(e.attr("BufferPool"), Some("-1"));
    assert_eq!(e.attr("Last_Get (DATE)"), None);
    assert_eq!(e.attr("Last_Get (TIME)"), None);
    assert_eq!(e.attr("Last_Put (DATE)"), None);
    assert_eq!(e.attr("qtime_avg_us"), Some("41022"));
    assert_eq!(e.attr("qtime_long_us"), Some("39811"));
    // A partial record's age is zero-filled, not data.
    assert_eq!(e.attr("oldest_msg_age_us"), None);
    assert!(e.text.contains("(partial record)"), "{}", e.text);
}

#[test]
fn buffer_pool_rows_written_twice_are_read_once() {
    let head = "Date,Time,LPAR,QMgr,QSG,MQ_Version,Interval_Start (DATE),Interval_Start (TIME),Interval_Duration,BufferPool,Buffer_Count,Lowest_Stealable,\n";
    let row = |rec: &str, bp: u32, low: u32| {
        format!(
            "\"2026/05/21\",\"{rec}\",\"MV4A\",\"MQ51\",=\"    \",=\"100000\",\"2026/05/21\",\"16:00:00,000931\",1799,{bp},2001,{low},\n"
        )
    };
    let text = format!(
        "{head}{}{}{}{}{}",
        row("16:30:00,000000", 0, 1994),
        row("16:30:00,000000", 1, 1990),
        row("16:30:00,000000", 0, 1994),
        // Same key, other values: not a copy, kept.
        row("16:30:00,000000", 1, 1500),
        // Next record: the same pool again is new data.
        row("17:00:00,000000", 0, 1994),
    );
    let (evs, fi) = read("SMF-QPST.csv", &text, Some("+00:00"));
    let lines: Vec<u64> = evs.iter().map(|e| e.line).collect();
    assert_eq!(lines, vec![2, 3, 5, 6]);
    assert_eq!(
        messages(&fi),
        vec![(
            Some(4),
            "same QPST row as line 2 (statistics written for two SMF 115 subtypes): skipped"
                .to_string()
        )]
    );
    assert_eq!(evs[0].attr("ts_from"), Some("Interval_Start"));
}

#[test]
fn extreme_values_in_every_cell_do_not_panic() {
    // Every structure's signature columns plus the columns the reader
    // computes with, all holding values at and beyond the integer range.
    let mut names: Vec<&str> = vec![
        "Date",
        "Time",
        "LPAR",
        "QMgr",
        "QSG",
        "MQ_Version",
        "Interval_Start (DATE)",
        "Interval_Start (TIME)",
        "Interval_Duration",
    ];
    let extra = [
        "Request_Count",
        "Task_Index",
        "Task_Elapsed_Time(S)",
        "Task_Elapsed_Time(US)",
        "Task_CPU_Time(S)",
        "Task_CPU_Time(US)",
        "Buffer_Count",
        "Lowest_Stealable",
        "Current_Depth",
        "Max_Age",
        "QTime_Short",
        "QTime_Long",
        "Put",
        "Put1",
        "Get",
        "Total_Valid_Gets",
        "Total_Time_On_Queue(S)",
        "Total_Time_On_Queue(US)",
        "Max_Time_On_Queue(S)",
        "Max_Time_On_Queue(US)",
        "Puts_Len_0to99",
        "Puts_Len_10000",
        "Batches",
        "Net_Time_Avg",
        "DNS_Resolution_Time",
        "Max_Latch_Wait_Time(S)",
        "Max_Latch_Wait_Time(US)",
        "Max_DNS_Request_Duration(S)",
        "Max_DNS_Request_Duration(US)",
    ];
    names.extend(extra);
    for (s, cols) in columns::tests::signatures() {
        for v in [
            "9223372036854775807",
            "-9223372036854775808",
            "99999999999999999999",
            "-1",
        ] {
            let mut head: Vec<&str> = names.clone();
            head.extend(cols.iter().copied());
            let mut cells = vec![
                "\"2016/02/27\"".to_string(),
                "\"18:03:46,890000\"".to_string(),
                "\"MPX1\"".into(),
                "\"QML1\"".into(),
                "\"....\"".into(),
                "=\"800\"".into(),
                "\"2016/02/27\"".into(),
                "\"18:00:00,000000\"".into(),
            ];
            while cells.len() < head.len() {
                cells.push(v.to_string());
            }
            let text = format!("{},\n{},\n", head.join(","), cells.join(","));
            let (evs, _) = read(&format!("SMF-{s}.csv"), &text, Some("+00:00"));
            assert_eq!(evs.len(), 1, "{s} {v}");
        }
    }
}

#[test]
fn sniff_by_content_with_the_name_as_tie_break() {
    let r = SmfCsvReader;
    let qcst = QCST.as_bytes();
    assert_eq!(r.sniff("x.csv", qcst), 95);
    assert_eq!(r.sniff("SMF-QCST.csv", qcst), 96);
    assert_eq!(
        r.sniff("x.csv", b"Date,Time,LPAR,QMgr,MQ_Version,Foo,\n"),
        90
    );
    assert_eq!(
        r.sniff(
            "x.csv",
            b"\xEF\xBB\xBFDate,Time,LPAR,QMgr,QSG,MQ_Version,\n"
        ),
        90
    );
    let row = b"\"2016/02/27\",\"18:03:47,230000\",\"MPX1\",\"QML1\",\"....\",=\"800\",1,\n";
    assert_eq!(r.sniff("SMF-QCST.csv", row), 40);
    assert_eq!(r.sniff("data.csv", row), 0);
    assert_eq!(r.sniff("SMF-QCST.csv", b""), 5);
    assert_eq!(r.sniff("AMQERR01.LOG", b"Date,Time,Other\n"), 0);
}

/// QCST rows of `lpar`/`qmgr` whose collection time reads `stck` against
/// the record time 18:08:01.80.
fn qcst_rows(lpar: &str, qmgr: &str, stck: &str, n: usize) -> String {
    let mut t = QCST.to_string();
    for _ in 0..n {
        t.push_str(&format!(
            "\"2016/02/27\",\"18:08:01,800000\",\"{lpar}\",\"{qmgr}\",\"....\",=\"800\",\"2016/02/27\",\"{stck}\",\"SVR.A\",\"Running\",\"10.1.1.1  \",\"2016/02/27\",\"{stck}\",\"\",\"\",1,0,\n"
        ));
    }
    t
}

/// Class 1 accounting (no STCK column) of `lpar`/`qmgr`, recorded at
/// 18:10:00 LPAR time.
fn qmac_rows(lpar: &str, qmgr: &str) -> String {
    format!(
        "Date,Time,LPAR,QMgr,QSG,MQ_Version,Authorisation_ID,Connection_Name,\n\"2016/02/27\",\"18:10:00,000000\",\"{lpar}\",\"{qmgr}\",\"....\",=\"800\",\"USER1   \",\"BATCH1  \",\n"
    )
}

fn mem(name: &str, text: &str) -> Input {
    Input::from_bytes(name, text.as_bytes().to_vec())
}

#[test]
fn survey_collects_each_queue_managers_clock_evidence() {
    let a = mem(
        "a/SMF-QCST.csv",
        &qcst_rows("MPX1", "QML1", "22:08:01,809383", 3),
    );
    let b = mem(
        "b/SMF-QCST.csv",
        &qcst_rows("MPX2", "QML2", "18:08:01,809383", 2),
    );
    let c = mem("c/SMF-QMAC.csv", &qmac_rows("MPX3", "QML3"));
    let junk = mem("d/SMF-QCST.csv", "not a header\n");
    let clocks = survey(&[&c, &junk, &b, &a], false);
    let mpx1 = clocks.get("MPX1", "QML1").unwrap();
    assert_eq!(mpx1.stck_minus_local, 4 * 3600);
    assert_eq!((mpx1.rows, mpx1.path.as_str()), (3, "a/SMF-QCST.csv"));
    // Families that agree are evidence too (of an unknown zone).
    assert_eq!(clocks.get("MPX2", "QML2").unwrap().stck_minus_local, 0);
    assert!(clocks.get("MPX3", "QML3").is_none());
    // Another queue manager of an LPAR shares its clock.
    assert_eq!(clocks.get("MPX1", "QML9").unwrap().rows, 3);
    assert!(clocks.get("MPX9", "QML1").is_none());
    // Each LPAR whose zone stays unknown is told about by its first file
    // in path order.
    let first: Vec<(&str, &str)> = clocks
        .first_file
        .iter()
        .map(|(l, p)| (l.as_str(), p.as_str()))
        .collect();
    assert_eq!(
        first,
        [("MPX2", "b/SMF-QCST.csv"), ("MPX3", "c/SMF-QMAC.csv")]
    );
    // With the formatter's zone given, agreeing families tell it too.
    let clocks = survey(&[&c, &b, &a], true);
    assert_eq!(clocks.first_file.len(), 1);
}

#[test]
fn queue_managers_of_one_lpar_that_disagree_lend_nothing_to_others() {
    let mut clocks = LparClocks::default();
    for (q, off) in [("QM1", 3600), ("QM2", 7200)] {
        clocks.by_qmgr.insert(
            ("L".to_string(), q.to_string()),
            LparClock {
                stck_minus_local: off,
                rows: 1,
                path: "x".to_string(),
            },
        );
    }
    assert_eq!(clocks.get("L", "QM2").unwrap().stck_minus_local, 7200);
    assert!(clocks.get("L", "QM3").is_none());
}

/// Read `inputs` as `open_all` does: surveyed first, one source each.
fn read_all(inputs: Vec<Input>, opts: ReadOptions) -> Vec<(Vec<Event>, FileInfo)> {
    let prepared = SmfCsvReader.prepare(&siblings(&inputs), &opts);
    inputs
        .into_iter()
        .map(|i| {
            let src = SmfCsvReader.open_with(vec![i], &opts, prepared.clone());
            let (evs, mut infos) = testkit::drain(src);
            (evs, infos.remove(0))
        })
        .collect()
}

/// A QCST file (two rows, STCK `Start` at `stck`) and a QMAC file of one
/// LPAR and queue manager, read together; `stck_tz`: `--smf-stck-tz`.
fn lpar_files(stck: &str, stck_tz: Option<&str>) -> Vec<(Vec<Event>, FileInfo)> {
    let files = vec![
        mem("SMF-QCST.csv", &qcst_rows("MPX1", "QML1", stck, 2)),
        mem("SMF-QMAC.csv", &qmac_rows("MPX1", "QML1")),
    ];
    let opts = ReadOptions::default().with_format_options(SmfOptions {
        stck_tz: stck_tz.and_then(mqdiag_model::timefmt::parse_offset),
    });
    read_all(files, opts)
}

#[test]
fn a_file_without_stck_columns_takes_its_lpars_offset_from_another() {
    let files = lpar_files("22:08:01,809383", None);
    let (evs, fi) = &files[1];
    assert_eq!(ts(&evs[0]), "2016-02-27T18:10:00.000000-04:00");
    assert_eq!(fi.utc_offset.as_deref(), Some("-04:00"));
    assert_eq!(fi.utc_offset_source.as_deref(), Some("data"));
    assert!(messages(fi).is_empty());
    assert_eq!(
        fi.notes,
        ["STCK columns read as UTC; LPAR offset -04:00 from 2 rows of SMF-QCST.csv"]
    );
    // The formatter ran at UTC-5: STCK 22:08 was 03:08 UTC next day, and
    // the LPAR clock 18:08 is at UTC-9.
    let files = lpar_files("22:08:01,809383", Some("-05:00"));
    assert_eq!(ts(&files[1].0[0]), "2016-02-27T18:10:00.000000-09:00");
    assert_eq!(ts(&files[0].0[0]), "2016-02-27T18:08:01.809383-09:00");
    // Families that agree, with the formatter's zone given: that zone is
    // the LPAR's.
    let files = lpar_files("18:08:01,809383", Some("+02:00"));
    assert_eq!(ts(&files[1].0[0]), "2016-02-27T18:10:00.000000+02:00");
    assert!(files.iter().all(|(_, fi)| messages(fi).is_empty()));
}

#[test]
fn an_unknown_zone_is_said_once_per_lpar() {
    let files = read_all(
        vec![
            mem("SMF-QMAC.csv", &qmac_rows("MPX1", "QML1")),
            mem(
                "SMF-QCST.csv",
                &qcst_rows("MPX1", "QML1", "18:08:01,809383", 2),
            ),
            mem("x/SMF-QMAC.csv", &qmac_rows("MPX2", "QML2")),
        ],
        ReadOptions::default(),
    );
    let said: Vec<(usize, String)> = files
        .iter()
        .enumerate()
        .flat_map(|(i, (_, fi))| fi.notes.iter().map(move |m| (i, m.clone())))
        .filter(|(_, m)| m.starts_with("no UTC offset"))
        .collect();
    // By the first file of the LPAR in path order (SMF-QCST.csv), whatever
    // the order the files are read in.
    assert_eq!(
        said,
        [
            (1, "no UTC offset for LPAR `MPX1` in its SMF clocks (STCK columns agree with Date/Time, or there are none) and no --tz given: UTC assumed, in all its files".to_string()),
            (2, "no UTC offset for LPAR `MPX2` in its SMF clocks (STCK columns agree with Date/Time, or there are none) and no --tz given: UTC assumed, in all its files".to_string()),
        ]
    );
    for (evs, fi) in &files {
        assert_eq!(fi.utc_offset_source.as_deref(), Some("assumed-utc"));
        assert!(ts(&evs[0]).ends_with("+00:00"));
    }
    // Two queue managers of one LPAR disagree: the one whose families
    // agree says it, though a file of the other comes first.
    let files = read_all(
        vec![
            mem("a/SMF-QMAC.csv", &qmac_rows("MPX1", "QML1")),
            mem(
                "b/SMF-QCST.csv",
                &qcst_rows("MPX1", "QML1", "22:08:01,809383", 2),
            ),
            mem(
                "c/SMF-QCST.csv",
                &qcst_rows("MPX1", "QML2", "18:08:01,809383", 2),
            ),
        ],
        ReadOptions::default(),
    );
    let said: Vec<usize> = files
        .iter()
        .enumerate()
        .filter(|(_, (_, fi))| fi.notes.iter().any(|n| n.starts_with("no UTC offset")))
        .map(|(i, _)| i)
        .collect();
    assert_eq!(said, [2]);
    assert_eq!(ts(&files[0].0[0]), "2016-02-27T18:10:00.000000-04:00");
    // --tz: nothing to say.
    let files = read_all(
        vec![mem("SMF-QMAC.csv", &qmac_rows("MPX1", "QML1"))],
        ReadOptions {
            tz: mqdiag_model::timefmt::parse_offset("+03:00"),
            ..ReadOptions::default()
        },
    );
    assert!(messages(&files[0].1).is_empty());
    assert!(
        !files[0]
            .1
            .notes
            .iter()
            .any(|n| n.starts_with("no UTC offset"))
    );
    assert_eq!(ts(&files[0].0[0]), "2016-02-27T18:10:00.000000+03:00");
}
