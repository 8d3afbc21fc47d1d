//! What a row means beyond its columns: the shared attribute names the
//! analysis passes read (see the table in `event`), and a one-line summary
//! for people.

use super::row::Row;
use mqdiag_model::event::{Attrs, Key};
use mqdiag_model::timefmt::human_us;
use std::fmt::Write;

/// Every attribute name `derive` sets, and the reader's own two. Rows
/// keep the CSV cells of these names too when they keep only some
/// columns, so that a lookup by such a name finds what it always found.
pub(crate) const NAMES: &[&str] = &[
    "record",
    "qmgr",
    "task",
    "queue",
    "qtime_avg_us",
    "qtime_max_us",
    "qtime_long_us",
    "oldest_msg_age_us",
    "channel",
    "conname",
    "user",
    "dns_us",
    "dns_avg_us",
    "dns_max_us",
    "tls_avg_us",
    "tls_max_us",
    "ts_from",
    "clock_offset_s",
];

/// Every column read by name: here, to place a row (`timing`, `tasks`,
/// the clock anchors) and to list a file's queue managers. A row is split
/// only up to the last of these and of the columns kept (`fit_prefix`);
/// a column read that is missing here is still found, only slower (and
/// debug builds stop on it, so that tests find it).
pub(crate) const READ: &[&str] = &[
    // Every row, and the clocks.
    "Date",
    "Time",
    "LPAR",
    "QMgr",
    "MQ_Version",
    "Interval_Start (DATE)",
    "Interval_Start (TIME)",
    "Interval_Duration",
    "WTAS_Interval_Start (DATE)",
    "WTAS_Interval_Start (TIME)",
    "WTAS_Interval_End (DATE)",
    "WTAS_Interval_End (TIME)",
    "Collection_Time (DATE)",
    "Collection_Time (TIME)",
    "Start (DATE)",
    "Start (TIME)",
    "Stop (DATE)",
    "Stop (TIME)",
    "Close (DATE)",
    "Close (TIME)",
    // WQ
    "Correlation",
    "Base_Name",
    "Open_Name",
    "Total_Valid_Gets",
    "Get_Count",
    "Put_Count",
    "Put1_Count",
    "Total_Time_On_Queue(S)",
    "Total_Time_On_Queue(US)",
    "Max_Time_On_Queue(S)",
    "Max_Time_On_Queue(US)",
    "Max_Depth",
    // WTAS
    "Correl",
    "Commit_Count",
    "Backout_Count",
    "Other_MQI_Count",
    "Max_Latch_Wait_Time(S)",
    "Max_Latch_Wait_Time(US)",
    "Max_Latch_Wait_ID",
    // WTID
    "WTAS_Correlator",
    "Appl_Type",
    "Connection_Name",
    "Channel_Name",
    "Channel_Connection_Name",
    "MVS_UserId",
    // QMAC
    "Application_Type",
    "Authorisation_ID",
    "CPU_Time(S)",
    "CPU_Time(US)",
    "Puts_Len_0to99",
    "Puts_Len_100to999",
    "Puts_Len_1000to9999",
    "Puts_Len_10000",
    "Gets_Len_0to99",
    "Gets_Len_100to999",
    "Gets_Len_1000to9999",
    "Gets_Len_10000",
    // QCST
    "Chl_Name",
    "Type",
    "Status",
    "Remote_QMgr_Or_App",
    "Msg_All_Count",
    "Bytes_Sent",
    "Bytes_Received",
    "Batches",
    "Full_Batches",
    "Net_Time_Avg",
    "Net_Time_Max",
    "DNS_Resolution_Time",
    // QQST
    "Queue",
    "Record",
    "Current_Depth",
    "Queue_Depth_High_Water",
    "Put",
    "Put1",
    "Get",
    "QTime_Short",
    "QTime_Long",
    "Max_Age",
    // QCTDSP, QCTADP, QCTSSL, QCTDNS
    "Task_Index",
    "Request_Count",
    "Task_Elapsed_Time(S)",
    "Task_Elapsed_Time(US)",
    "Task_CPU_Time(S)",
    "Task_CPU_Time(US)",
    "Task_Channel_Count",
    "Max_DNS_Request_Duration(S)",
    "Max_DNS_Request_Duration(US)",
    "Max_DNS_Request_Time (DATE)",
    "Max_DNS_Request_Time (TIME)",
    "Max_SSL_Request_Duration(S)",
    "Max_SSL_Request_Duration(US)",
    "Max_SSL_Request_Time (DATE)",
    "Max_SSL_Request_Time (TIME)",
    // QPST
    "BufferPool",
    "Buffer_Count",
    "Lowest_Stealable",
    "Defer_Write_THold_Reached",
    "Sync_Write_THold_Reached",
    "Suspend_No_Buffers",
    // QMST
    "Open",
    "Close",
    "Inq",
    "Set",
];

/// At most this many attributes are added to a row's cells.
pub(crate) const MAX_DERIVED: usize = 10;

/// Derived attributes (appended to `attrs`, when given) and the summary
/// text.
pub(crate) fn derive(row: &Row, mut attrs: Option<&mut Attrs>) -> String {
    let l = row.layout;
    let s = l.structure.as_str();
    let mut set = |k: Key, v: &str| {
        debug_assert!(
            NAMES.contains(&k.as_str()),
            "{k} missing from derive::NAMES"
        );
        if let Some(a) = attrs.as_deref_mut() {
            a.push_key(k, v);
        }
    };
    set(Key::Record, s);
    let qmgr = row.get("QMgr");
    if let Some(q) = &qmgr {
        set(Key::Qmgr, q);
    }
    let mut t = mqdiag_model::event::spare_text(160);
    t.push_str(s);
    if let Some(q) = &qmgr {
        push_all(&mut t, &[" ", q]);
    }
    match s {
        "WQ" => wq(row, &mut set, &mut t),
        "WTAS" => wtas(row, &mut set, &mut t),
        "WTID" => wtid(row, &mut set, &mut t),
        "QMAC" => qmac(row, &mut t),
        "QCST" => qcst(row, &mut set, &mut t),
        "QQST" => qqst(row, &mut set, &mut t),
        "QCTDNS" => task_stats(row, "DNS", "dns", &mut set, &mut t),
        "QCTSSL" => task_stats(row, "SSL", "tls", &mut set, &mut t),
        "QCTDSP" | "QCTADP" => task_stats(row, "", "", &mut set, &mut t),
        "QPST" => qpst(row, &mut t),
        "QMST" => qmst(row, &mut t),
        _ => {}
    }
    if let Some(d) = row.int("Interval_Duration") {
        let _ = write!(t, ", {d} s interval");
    }
    t
}

type Set<'s> = dyn FnMut(Key, &str) + 's;

/// `LPAR/QMgr/correlator`: the correlator repeats for every interval
/// record of a long-running task, so it names the task; the queue manager
/// and LPAR keep equal correlators of different queue managers apart.
fn task_key(row: &Row, correl_col: &str) -> Option<String> {
    let c = row.get(correl_col)?;
    let mut k = String::new();
    for p in ["LPAR", "QMgr"] {
        if let Some(v) = row.get(p) {
            k.push_str(&v);
            k.push('/');
        }
    }
    k.push_str(&c);
    Some(k)
}

fn n(row: &Row, name: &str) -> i64 {
    row.int(name).unwrap_or(0)
}

fn us(v: i64) -> String {
    human_us(v.max(0) as u64)
}

fn wq(row: &Row, set: &mut Set, t: &mut String) {
    if let Some(k) = task_key(row, "Correlation") {
        set(Key::Task, &k);
    }
    // Aggregate on the base queue: the opened name may be an alias or a
    // remote queue (then the base is the transmission queue).
    let queue = row.get("Base_Name").or_else(|| row.get("Open_Name"));
    if let Some(q) = &queue {
        set(Key::Queue, q);
        let _ = write!(t, " queue {q}");
    }
    if let (Some(o), Some(q)) = (row.get("Open_Name"), &queue)
        && o != *q
    {
        let _ = write!(t, " (opened as {o})");
    }
    let valid = n(row, "Total_Valid_Gets");
    let _ = write!(
        t,
        " gets {} ({valid} valid) puts {} put1s {}",
        n(row, "Get_Count"),
        n(row, "Put_Count"),
        n(row, "Put1_Count")
    );
    // Only rows with valid gets carry time on queue (the getter side).
    if valid > 0
        && let Some(total) = row.dur_us("Total_Time_On_Queue")
    {
        let avg = total / valid;
        set(Key::QtimeAvgUs, &avg.to_string());
        let _ = write!(t, ", time on queue avg {}", us(avg));
        if let Some(max) = row.dur_us("Max_Time_On_Queue") {
            set(Key::QtimeMaxUs, &max.to_string());
            let _ = write!(t, " max {}", us(max));
        }
    }
    if let Some(d) = row.int("Max_Depth") {
        let _ = write!(t, ", max depth {d}");
    }
}

fn wtas(row: &Row, set: &mut Set, t: &mut String) {
    if let Some(k) = task_key(row, "Correl") {
        set(Key::Task, &k);
    }
    if let Some(c) = row.get("Correl") {
        let _ = write!(t, " task {c}");
    }
    let _ = write!(
        t,
        " commits {} backouts {} other MQI {}",
        n(row, "Commit_Count"),
        n(row, "Backout_Count"),
        n(row, "Other_MQI_Count")
    );
    if let Some(w) = row.dur_us("Max_Latch_Wait_Time").filter(|w| *w > 0) {
        let _ = write!(t, ", longest latch wait {}", us(w));
        if let Some(id) = row.get("Max_Latch_Wait_ID") {
            let _ = write!(t, " (latch {id})");
        }
    }
}

fn wtid(row: &Row, set: &mut Set, t: &mut String) {
    if let Some(k) = task_key(row, "WTAS_Correlator") {
        set(Key::Task, &k);
    }
    if let Some(a) = row.get("Appl_Type") {
        let _ = write!(t, " {a}");
    }
    if let Some(c) = row.get("Connection_Name") {
        let _ = write!(t, " {c}");
    }
    if let Some(c) = row.get("Channel_Name") {
        set(Key::Channel, &c);
        let _ = write!(t, " channel {c}");
    }
    if let Some(c) = row.get("Channel_Connection_Name") {
        set(Key::Conname, &c);
        let _ = write!(t, " conn {c}");
    }
    if let Some(u) = row.get("MVS_UserId") {
        set(Key::User, &u);
        let _ = write!(t, " user {u}");
    }
}

fn qmac(row: &Row, t: &mut String) {
    if let Some(a) = row.get("Application_Type") {
        let _ = write!(t, " {a}");
    }
    if let Some(c) = row.get("Connection_Name") {
        let _ = write!(t, " {c}");
    }
    if let Some(u) = row.get("Authorisation_ID") {
        let _ = write!(t, " user {u}");
    }
    if let Some(c) = row.dur_us("CPU_Time") {
        let _ = write!(t, " CPU {}", us(c));
    }
    let sum = |p: &str| -> i64 {
        ["0to99", "100to999", "1000to9999", "10000"]
            .iter()
            .map(|b| n(row, &format!("{p}_Len_{b}")))
            .fold(0i64, i64::saturating_add)
    };
    let _ = write!(t, " puts {} gets {}", sum("Puts"), sum("Gets"));
}

fn qcst(row: &Row, set: &mut Set, t: &mut String) {
    // Pieces pushed, not `write!`: every channel instance is a row, and
    // formatting went through `fmt` a dozen times for each.
    if let Some(c) = row.get("Chl_Name") {
        set(Key::Channel, &c);
        push_all(t, &[" channel ", &c]);
    }
    match (row.get("Type"), row.get("Status")) {
        (Some(a), Some(b)) => push_all(t, &[" (", &a, ", ", &b, ")"]),
        (Some(a), None) | (None, Some(a)) => push_all(t, &[" (", &a, ")"]),
        (None, None) => {}
    }
    if let Some(c) = row.get("Connection_Name") {
        set(Key::Conname, &c);
        push_all(t, &[" conn ", &c]);
    }
    if let Some(r) = row.get("Remote_QMgr_Or_App") {
        push_all(t, &[" remote ", &r]);
    }
    t.push_str(" msgs ");
    push_int(t, n(row, "Msg_All_Count"));
    t.push_str(" bytes sent ");
    push_int(t, n(row, "Bytes_Sent"));
    t.push_str(" received ");
    push_int(t, n(row, "Bytes_Received"));
    let batches = n(row, "Batches");
    if batches > 0 {
        t.push_str(" batches ");
        push_int(t, batches);
        t.push_str(" (");
        push_int(t, n(row, "Full_Batches"));
        t.push_str(" full)");
    }
    if let Some(a) = row.int("Net_Time_Avg").filter(|a| *a > 0) {
        let _ = write!(
            t,
            " net time avg {} max {}",
            us(a),
            us(n(row, "Net_Time_Max"))
        );
    }
    if let Some(d) = row.int("DNS_Resolution_Time") {
        let mut v = String::new();
        push_int(&mut v, d);
        set(Key::DnsUs, &v);
        if d > 0 {
            let _ = write!(t, " DNS {}", us(d));
        }
    }
}

/// Strings one after another.
fn push_all(t: &mut String, parts: &[&str]) {
    for p in parts {
        t.push_str(p);
    }
}

/// `v` in decimal, as `{}` writes it.
fn push_int(t: &mut String, v: i64) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    let mut u = v.unsigned_abs();
    loop {
        i -= 1;
        buf[i] = b'0' + (u % 10) as u8;
        u /= 10;
        if u == 0 {
            break;
        }
    }
    if v < 0 {
        t.push('-');
    }
    // Only ASCII digits were written.
    t.push_str(std::str::from_utf8(&buf[i..]).unwrap_or_default());
}

fn qqst(row: &Row, set: &mut Set, t: &mut String) {
    if let Some(q) = row.get("Queue") {
        set(Key::Queue, &q);
        let _ = write!(t, " queue {q}");
    }
    let full = row.get("Record").is_none_or(|r| r != "PARTIAL");
    if full {
        if let Some(d) = row.int("Current_Depth") {
            let _ = write!(t, " depth {d}");
        }
    } else {
        // A partial record carries zeros for depth and age.
        t.push_str(" (partial record)");
    }
    if let Some(h) = row.int("Queue_Depth_High_Water") {
        let _ = write!(t, " high {h}");
    }
    if row.has_any(&["Put", "Get"]) {
        let _ = write!(
            t,
            " puts {} gets {}",
            n(row, "Put").saturating_add(n(row, "Put1")),
            n(row, "Get")
        );
    }
    if let Some(q) = row.int("QTime_Short") {
        set(Key::QtimeAvgUs, &q.to_string());
        let _ = write!(t, ", qtime short {}", us(q));
    }
    if let Some(q) = row.int("QTime_Long") {
        set(Key::QtimeLongUs, &q.to_string());
        let _ = write!(t, " long {}", us(q));
    }
    if full && let Some(a) = row.int("Max_Age") {
        set(
            Key::OldestMsgAgeUs,
            &a.max(0).saturating_mul(1_000_000).to_string(),
        );
        let _ = write!(t, ", oldest message {a} s");
    }
}

/// QCTDSP, QCTADP, QCTSSL, QCTDNS: one CHINIT task each.
fn task_stats(row: &Row, what: &str, prefix: &str, set: &mut Set, t: &mut String) {
    if let Some(i) = row.int("Task_Index") {
        let _ = write!(t, " task {i}");
    }
    let reqs = n(row, "Request_Count");
    let _ = write!(t, " requests {reqs}");
    let elapsed = row.dur_us("Task_Elapsed_Time");
    if let Some(c) = row.dur_us("Task_CPU_Time") {
        let _ = write!(t, " CPU {}", us(c));
    }
    if let Some(e) = elapsed {
        let _ = write!(t, " elapsed {}", us(e));
    }
    if prefix.is_empty() {
        if let Some(c) = row.int("Task_Channel_Count") {
            let _ = write!(t, " channels {c}");
        }
        return;
    }
    if reqs > 0
        && let Some(e) = elapsed
    {
        let avg = e / reqs;
        if let Some(k) = derived(prefix, "avg") {
            set(k, &avg.to_string());
        }
        let _ = write!(t, ", avg {}", us(avg));
    }
    if let Some(m) = row.dur_us(&format!("Max_{what}_Request_Duration")) {
        if let Some(k) = derived(prefix, "max") {
            set(k, &m.to_string());
        }
        let _ = write!(t, ", longest {}", us(m));
    }
    if let Ok(Some(at)) = row.datetime(&format!("Max_{what}_Request_Time")) {
        let _ = write!(t, " at {}", at.format("%H:%M:%S%.6f"));
    }
}

/// The key of a task's average or longest request (`dns`, `avg`).
fn derived(prefix: &str, what: &str) -> Option<Key> {
    match (prefix, what) {
        ("dns", "avg") => Some(Key::DnsAvgUs),
        ("dns", "max") => Some(Key::DnsMaxUs),
        ("tls", "avg") => Some(Key::TlsAvgUs),
        ("tls", "max") => Some(Key::TlsMaxUs),
        _ => None,
    }
}

fn qpst(row: &Row, t: &mut String) {
    if let Some(b) = row.int("BufferPool") {
        let _ = write!(t, " buffer pool {b}");
    }
    let count = n(row, "Buffer_Count");
    let _ = write!(t, " buffers {count}");
    if let Some(low) = row.int("Lowest_Stealable") {
        let _ = write!(t, " lowest stealable {low}");
        if count > 0 {
            let used = (count as f64 - low as f64) * 100.0 / count as f64;
            let _ = write!(t, " ({used:.1}% used at peak)");
        }
    }
    let _ = write!(
        t,
        " DWT {} DMC {} SOS {}",
        n(row, "Defer_Write_THold_Reached"),
        n(row, "Sync_Write_THold_Reached"),
        n(row, "Suspend_No_Buffers")
    );
}

fn qmst(row: &Row, t: &mut String) {
    for (label, col) in [
        ("opens", "Open"),
        ("closes", "Close"),
        ("gets", "Get"),
        ("puts", "Put"),
        ("put1s", "Put1"),
        ("inqs", "Inq"),
        ("sets", "Set"),
    ] {
        let _ = write!(t, " {label} {}", n(row, col));
    }
}

impl Row<'_> {
    fn has_any(&self, names: &[&str]) -> bool {
        names.iter().any(|n| self.layout.has(n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_are_written_as_format_writes_them() {
        let mut rng = mqdiag_model::testrng::Rng::new(0x5eed_1e55);
        let mut vs = vec![0, 1, -1, 9, 10, -10, 99, 100, 12345, i64::MIN, i64::MAX];
        vs.extend((0..2000).map(|i| (rng.next() as i64) >> (i % 64)));
        for v in vs {
            let mut t = String::from("x");
            push_int(&mut t, v);
            assert_eq!(t, format!("x{v}"));
        }
    }
}
