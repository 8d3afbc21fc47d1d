//! Benchmark: generate a realistic set of formatted traces (many processes
//! and threads, every line kind, files overlapping in time) or a whole case,
//! then time what users run today against mqdiag on the same files, in one
//! run.
//!
//! ```text
//! cargo build --release && cargo run --release --example bench -- --size-mb 1024
//! ```
//!
//! Options: `--size-mb N` (total size, default 1024), `--files N` (default
//! 16), `--dir DIR` (default: a folder under the system temp dir), `--keep`
//! (leave the files), `--bin PATH` (default `target/release/mqdiag`),
//! `--only-generate`, `--zip` (also time `analyze` of the input zipped,
//! against `unzip` and `analyze` of the folder, what users do today),
//! `--mix` (instead of traces alone, a whole case: traces, error logs in
//! text and JSON, SMF CSV and a nested `runmqras` zip; run from the
//! repository's root, as the SMF rows come from `fixtures/`),
//! `--kind container` (an MQ container's console, half `basic` lines and
//! half JSON lines, with `kubectl --timestamps`), `--kind joblog` (a z/OS
//! channel initiator's job log), each to time one reader alone;
//! `--mqdiag-arg ARG` (passed on to mqdiag, e.g. `-j`). Wall time and peak
//! RSS come from `/usr/bin/time`.
//!
//! `--speed` measures each reader alone: for every kind (traces, text and
//! JSON error logs, SMF WQ and QCST CSV, container console basic and JSON,
//! z/OS job log, amqsevt events, amqsact activity trace, MQSC dumps) it generates `--size-mb` of it and prints `analyze`'s
//! MB/s and peak RSS and, where valgrind is installed, the instructions of
//! `analyze -j 1` on `--valgrind-mb` of the same kind (a count that does
//! not drift with the machine's load); `--against OLD` puts another
//! binary's figures and the ratios beside them.

mod announced;

use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A small deterministic generator (xorshift64*), so every run writes the
/// same bytes.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Component prefixes and verbs of MQ's internal function names; combined
/// they give a realistic vocabulary (a real trace names hundreds of
/// functions, and the network calls the rules read are a small share).
const PREFIXES: [&str; 20] = [
    "xcs", "zst", "kpi", "aqh", "aqm", "atx", "zsq", "zut", "rri", "rrx", "cci", "ccx", "xll",
    "xtr", "apl", "alm", "adh", "zfu", "zlu", "kqi",
];
const VERBS: [&str; 10] = [
    "GetMem",
    "FreeMem",
    "RequestMutexSem",
    "ReleaseMutexSem",
    "GetMessage",
    "PutMessage",
    "Lookup",
    "Process",
    "Commit",
    "Check",
];
/// Network calls, drawn 1 time in 50.
const NET: [&str; 4] = ["cciTcpSend", "cciTcpReceive", "ccxSend", "ccxReceive"];
/// MQI calls for `mqdiag calls`: one call name in `MQI_SHARE` becomes an
/// API verb at one of its layers (so layers nest as in real traces). They
/// are drawn from a second generator, so the rest of each file (times,
/// nesting, sizes) is the same bytes as before they were added.
const MQI_SHARE: u64 = 40;
const MQI_LAYERS: [&str; 3] = ["", "zst", "trmzst"];
const MQI_VERBS: [&str; 8] = [
    "MQGET", "MQPUT", "MQPUT1", "MQOPEN", "MQCLOSE", "MQINQ", "MQCMIT", "MQCONNX",
];

/// An MQI name, or `None` to keep the drawn name.
fn mqi_name(mqi: &mut Rng) -> Option<String> {
    (mqi.below(MQI_SHARE) == 0).then(|| {
        let l = MQI_LAYERS[mqi.below(MQI_LAYERS.len() as u64) as usize];
        let v = MQI_VERBS[mqi.below(MQI_VERBS.len() as u64) as usize];
        format!("{l}{v}")
    })
}

/// The `rc=` of an MQI exit: mostly OK, some empty gets and refusals.
fn mqi_rc(f: &str, mqi: &mut Rng) -> &'static str {
    match mqi.below(100) {
        0..=5 if f.ends_with("MQGET") => "MQRC_NO_MSG_AVAILABLE",
        6 => "2035",
        _ => "OK",
    }
}

fn call_name(rng: &mut Rng) -> String {
    if rng.below(50) == 0 {
        return NET[rng.below(NET.len() as u64) as usize].to_string();
    }
    let p = PREFIXES[rng.below(PREFIXES.len() as u64) as usize];
    let v = VERBS[rng.below(VERBS.len() as u64) as usize];
    format!("{p}{v}")
}

fn line(out: &mut impl Write, tod_us: u64, pid: u32, tid: u32, ident: &str, data: &str) {
    let t = tod_us % 86_400_000_000;
    let (h, m, s, us) = (
        t / 3_600_000_000,
        t / 60_000_000 % 60,
        t / 1_000_000 % 60,
        t % 1_000_000,
    );
    let pt = format!("{pid}.{tid}");
    let _ = writeln!(out, " {h:02}:{m:02}:{s:02}.{us:06} {pt:>10} {ident} {data}");
}

/// Write one process's trace of about `bytes` bytes, starting at `start_us`
/// (time of day), and return the number of lines.
fn write_trace(path: &Path, pid: u32, start_us: u64, bytes: u64, rng: &mut Rng) -> u64 {
    let f = File::create(path).expect("create trace");
    let mut out = BufWriter::with_capacity(1 << 20, f);
    let _ = writeln!(
        out,
        "Timestamp        Process.Thread  Trace Ident  Trace Data"
    );
    let _ = writeln!(out, "{}", "=".repeat(59));
    let blank = format!("{:>10}:{:<6}", "", "");
    let hdr = [
        "Header.v02:9.3:Linux 5.14.0-70.13.1.el9_0.x86_64:64:-1:1:UTC".to_string(),
        "Version : 9.3.0.5    Level : p935-L230308".to_string(),
        format!("UTC   Date : 03/14/24  Time : {}", tod(start_us)),
        format!("Local Date : 03/14/24  Time : {}  UTC", tod(start_us)),
        format!("PID : {pid} Process : amqrmppa (64-bit)"),
        "Host : benchhost".to_string(),
        "Operating System : Linux 5.14.0-70.13.1.el9_0.x86_64".to_string(),
        "Product Long Name : IBM MQ for Linux (x86-64 platform)".to_string(),
        "-".repeat(32),
    ];
    for h in &hdr {
        line(&mut out, start_us, pid, 1, &blank, h);
    }
    let threads = 8u32;
    let mut now = start_us;
    let mut written = 0u64;
    let mut lines = 0u64;
    let mut depth = [0usize; 8];
    let mut stacks: Vec<Vec<String>> = vec![Vec::new(); 8];
    let mut qtime = 5_000u64;
    let mut mqi = Rng(0xD1B5_4A32_D192_ED03 ^ u64::from(pid));
    while written < bytes {
        let t = rng.below(threads as u64) as usize;
        let tid = t as u32 + 1;
        let ident = format!("{:>10}:{:<6}", "RSESS", format!("{:06x}", tid * 7));
        now += rng.below(40) + 1;
        // Threads write into one buffer: a few µs of disorder.
        let ts = now.saturating_sub(rng.below(5));
        let kind = rng.below(100);
        let data = if kind < 35 && depth[t] < 12 {
            let f = call_name(rng);
            let f = mqi_name(&mut mqi).unwrap_or(f);
            depth[t] += 1;
            let line = format!("{}{{  {f}", "-".repeat(depth[t]));
            stacks[t].push(f);
            line
        } else if kind < 70 && depth[t] > 0 {
            let f = stacks[t].pop().unwrap_or_else(|| "unknown".to_string());
            let d = depth[t];
            depth[t] -= 1;
            if f == "cciTcpSend" && rng.below(20) == 0 {
                format!("{}}}! send rc=Unknown(B)", "-".repeat(d))
            } else if f.contains("MQ") {
                let rc = mqi_rc(&f, &mut mqi);
                format!(
                    "{}}}{} {f} rc={rc} FunctionTime={}",
                    "-".repeat(d),
                    if rc == "OK" { " " } else { "!" },
                    rng.below(900)
                )
            } else {
                format!(
                    "{}}}  {f} rc=OK FunctionTime={}",
                    "-".repeat(d),
                    rng.below(900)
                )
            }
        } else if kind < 80 {
            let off = rng.below(16) * 16;
            format!(
                "     0x{off:04x}:  {:08x} {:08x} {:08x} {:08x}  |................|",
                rng.next() as u32,
                rng.next() as u32,
                rng.next() as u32,
                rng.next() as u32
            )
        } else if kind < 85 {
            qtime += rng.below(2_000);
            format!("     Empty(FALSE) Inherited(FALSE) QTime({qtime})")
        } else if kind < 88 {
            format!(
                "     hmtx is 0x{:012x}, Timeout is -1",
                rng.next() & 0xffff_ffff_ffff
            )
        } else {
            format!(
                "     component:{} function:{} length:{} options:0 cbmindex:-1 *pointer:{:x}",
                rng.below(40),
                rng.below(400),
                rng.below(65_536),
                rng.next() & 0xffff_ffff
            )
        };
        line(&mut out, ts, pid, tid, &ident, &data);
        written += 48 + data.len() as u64;
        lines += 1;
    }
    out.flush().expect("write trace");
    lines
}

/// Date and time of day (`us` since 2024-03-14 00:00 UTC) as
/// (`YYYY-MM-DD`, `HH:MM:SS.ffffff`).
fn date_tod(us: u64) -> (String, String) {
    (day_of(us).format("%Y-%m-%d").to_string(), tod(us))
}

/// The calendar day of `us` since 2024-03-14 00:00 (inputs of a GB span
/// weeks or months of record time).
fn day_of(us: u64) -> chrono::NaiveDate {
    let start = chrono::NaiveDate::from_ymd_opt(2024, 3, 14).expect("start day");
    start + chrono::Days::new(us / 86_400_000_000)
}

/// An error log of about `bytes` bytes: records every few seconds from
/// `start_us`, a mix of channel and connection messages. Returns the time
/// of the last record.
fn write_errlog_text(path: &Path, start_us: u64, bytes: u64, rng: &mut Rng) -> u64 {
    let mut out = BufWriter::new(File::create(path).expect("create error log"));
    let (mut now, mut written) = (start_us, 0u64);
    while written < bytes {
        now += 1_000_000 + rng.below(4_000_000);
        let (date, t) = date_tod(now);
        let (y, mo, d) = (&date[0..4], &date[5..7], &date[8..10]);
        let h: u32 = t[0..2].parse().unwrap_or(0);
        let (h12, ampm) = match h {
            0 => (12, "AM"),
            1..=11 => (h, "AM"),
            12 => (12, "PM"),
            _ => (h - 12, "PM"),
        };
        let host = format!("10.20.{}.{}", rng.below(4), 1 + rng.below(250));
        let pid = 3000 + rng.below(40);
        let (inserts, body, probe) = match rng.below(3) {
            0 => (
                format!(
                    "CommentInsert1(app ({host}))\n                    CommentInsert2(TCP/IP)\n                    CommentInsert3(APP.SVRCONN)"
                ),
                format!(
                    "AMQ9209E: Connection to host 'app ({host})' for channel 'APP.SVRCONN'\nclosed.\n\nEXPLANATION:\nAn error occurred receiving data from 'app ({host})' over TCP/IP. The\nconnection to the remote host has unexpectedly terminated.\nACTION:\nTell the systems administrator. "
                ),
                "amqccita.c : 4486",
            ),
            1 => (
                format!(
                    "ArithInsert1(104) ArithInsert2(104)\n                    CommentInsert1(qm2host ({host})(1414))\n                    CommentInsert2(TCP/IP)\n                    CommentInsert3((send))"
                ),
                format!(
                    "AMQ9206E: Error sending data to host 'qm2host ({host})(1414)'.\n\nEXPLANATION:\nAn error occurred sending data over TCP/IP to 'qm2host ({host})(1414)'.\nThis may be due to a communications failure.\nACTION:\nThe return code from the TCP/IP (send) call was 104 (X'68'). Record these\nvalues and tell your systems administrator. "
                ),
                "amqccita.c : 3980",
            ),
            _ => (
                format!(
                    "ArithInsert1(1) CommentInsert1(APP.SVRCONN)\n                    CommentInsert2({host})"
                ),
                format!(
                    "AMQ9999E: Channel 'APP.SVRCONN' to host '{host}' ended abnormally.\n\nEXPLANATION:\nThe channel program running under process ID {pid} for channel\n'APP.SVRCONN' ended abnormally. The host name is '{host}'.\nACTION:\nLook at previous error messages for the channel program in the error logs to\ndetermine the cause of the failure. "
                ),
                "amqrmrsa.c : 938",
            ),
        };
        let rec = format!(
            "{mo}/{d}/{y} {h12:02}:{}:{} {ampm} - Process({pid}.{}) User(mqm) Program(amqrmppa)\n                    Host(mqprod1) Installation(Installation1)\n                    VRMF(9.3.0.15) QMgr(QM1)\n                    Time({date}T{}Z)\n                    {inserts}\n\n{body}\n----- {probe} {}\n",
            &t[3..5],
            &t[6..8],
            1 + rng.below(60),
            &t[..12],
            "-".repeat(55)
        );
        let _ = out.write_all(rec.as_bytes());
        written += rec.len() as u64;
    }
    out.flush().expect("write error log");
    now
}

/// The JSON form of an error log, one record per line.
fn write_errlog_json(path: &Path, start_us: u64, bytes: u64, rng: &mut Rng) {
    let mut out = BufWriter::new(File::create(path).expect("create json log"));
    let (mut now, mut written, mut seq) = (start_us, 0u64, 0u64);
    while written < bytes {
        now += 1_000_000 + rng.below(4_000_000);
        seq += 1;
        let (date, t) = date_tod(now);
        let host = format!("172.17.0.{}", 1 + rng.below(250));
        let rec = format!(
            "{{\"ibm_messageId\":\"AMQ9209E\",\"ibm_commentInsert1\":\"app ({host})\",\"ibm_commentInsert2\":\"TCP/IP\",\"ibm_commentInsert3\":\"APP.SVRCONN\",\"ibm_datetime\":\"{date}T{}Z\",\"ibm_serverName\":\"QM2\",\"type\":\"mq_log\",\"host\":\"mqcont2\",\"loglevel\":\"ERROR\",\"module\":\"amqccita.c:4486\",\"ibm_sequence\":\"1710400000_{seq:09}\",\"ibm_remoteHost\":\"{host}\",\"ibm_qmgrId\":\"QM2_2024-01-01_08.14.52\",\"ibm_processId\":{},\"ibm_threadId\":{},\"ibm_version\":\"9.3.0.15\",\"ibm_processName\":\"amqrmppa\",\"ibm_userName\":\"mqm\",\"ibm_installationName\":\"Installation1\",\"ibm_installationDir\":\"/opt/mqm\",\"message\":\"AMQ9209E: Connection to host 'app ({host})' for channel 'APP.SVRCONN' closed.\"}}\n",
            &t[..12],
            600 + rng.below(20),
            1 + rng.below(40)
        );
        let _ = out.write_all(rec.as_bytes());
        written += rec.len() as u64;
    }
    out.flush().expect("write json log");
}

/// An SMF CSV file of about `bytes` bytes: the data rows of our fixture
/// `fixture` (as IBM's formatter writes them), repeated with the record's
/// date and time (its first two fields) moving on 15 minutes per round.
fn write_smf_csv(path: &Path, fixture: &Path, start_us: u64, bytes: u64) {
    let text = fs::read_to_string(fixture).expect("read the SMF fixture (run from the repo root)");
    let mut lines = text.lines();
    let header = lines.next().expect("SMF fixture header");
    let rows: Vec<&str> = lines.filter(|l| l.starts_with('"')).collect();
    let mut out = BufWriter::new(File::create(path).expect("create SMF CSV"));
    let _ = writeln!(out, "{header}");
    let (mut now, mut written) = (start_us, 0u64);
    while written < bytes {
        let (date, t) = date_tod(now);
        for r in &rows {
            // Skip `"date","hh:mm:ss,ffffff",` (a comma inside the time)
            // and put this round's in its place.
            let rest = r.splitn(4, ',').nth(3).unwrap_or("");
            let row = format!(
                "\"{}\",\"{},{}\",{rest}\n",
                date.replace('-', "/"),
                &t[..8],
                &t[9..15]
            );
            let _ = out.write_all(row.as_bytes());
            written += row.len() as u64;
        }
        now += 900_000_000;
    }
    out.flush().expect("write SMF CSV");
}

/// A case as support receives it, of about `size_mb`: traces of several
/// processes, a queue manager's three error logs (text) and another's JSON
/// log, SMF CSV from z/OS, and a `runmqras` zip nested in the case holding
/// one more trace and a copy of the error logs.
fn write_mix(root: &Path, size_mb: u64, rng: &mut Rng) {
    let total = size_mb * 1024 * 1024;
    // MQ 9.0.4 and later let an error log grow to 32 MB before it rolls.
    let errlog = (total / 40).min(32 << 20);
    let smf = total / 10;
    let zipped = total / 20;
    let traces = total - 4 * errlog - smf - zipped;
    let start = 10 * 3_600_000_000;
    let tdir = root.join("trace");
    fs::create_dir_all(&tdir).expect("create trace dir");
    for i in 0..8u32 {
        let pid = 200_000 + i * 41;
        let s = start + rng.below(5_000_000);
        write_trace(
            &tdir.join(format!("AMQ{pid}.0.FMT")),
            pid,
            s,
            traces / 8,
            rng,
        );
    }
    let edir = root.join("qmgrs/QM1/errors");
    fs::create_dir_all(&edir).expect("create errors dir");
    // AMQERR03 is the oldest: each file starts where the older one ended.
    let mut s = start;
    for n in [3, 2, 1] {
        s = write_errlog_text(&edir.join(format!("AMQERR0{n}.LOG")), s, errlog, rng);
    }
    let jdir = root.join("qmgrs/QM2/errors");
    fs::create_dir_all(&jdir).expect("create json errors dir");
    write_errlog_json(&jdir.join("AMQERR01.json"), start, errlog, rng);
    let sdir = root.join("smf");
    fs::create_dir_all(&sdir).expect("create smf dir");
    for name in ["SMF-WQ.csv", "SMF-QCST.csv"] {
        let fixture = Path::new("fixtures/smf/mqsmfcsv-5.7").join(name);
        write_smf_csv(&sdir.join(name), &fixture, start, smf / 2);
    }
    // The nested runmqras zip, made from a folder that is then removed.
    let ras = root.join("runmqras-QM1");
    let rtrace = ras.join("var/mqm/trace");
    fs::create_dir_all(&rtrace).expect("create runmqras dir");
    write_trace(&rtrace.join("AMQ300001.0.FMT"), 300_001, start, zipped, rng);
    let rerr = ras.join("var/mqm/qmgrs/QM1/errors");
    fs::create_dir_all(&rerr).expect("create runmqras errors");
    for n in 1..=3 {
        let name = format!("AMQERR0{n}.LOG");
        fs::copy(edir.join(&name), rerr.join(&name)).expect("copy error log");
    }
    zip_dir(&ras, &root.join("runmqras-QM1.zip"));
    fs::remove_dir_all(&ras).expect("remove runmqras dir");
}

/// A container console of about `bytes` bytes, `basic` variant: MQ
/// messages with their insert trailers, the container programs' lines and
/// now and then a Go panic's stack (continuation lines).
fn write_container_basic(path: &Path, start_us: u64, bytes: u64, rng: &mut Rng) {
    let mut out = BufWriter::with_capacity(1 << 20, File::create(path).expect("create console"));
    let (mut now, mut written) = (start_us, 0u64);
    let mut rec = String::new();
    while written < bytes {
        now += 1_000 + rng.below(200_000);
        let (date, t) = date_tod(now);
        let host = format!("10.1.{}.{}", rng.below(4), 1 + rng.below(250));
        rec.clear();
        let stamp = format!("{date}T{t}Z");
        let body = match rng.below(10) {
            0..=3 => format!(
                "AMQ9209E: Connection to host 'app{0} ({host})' for channel 'APP{0}.SVRCONN' closed. [ArithInsert1(10054), CommentInsert1(app{0} ({host})), CommentInsert3(APP{0}.SVRCONN)]",
                rng.below(8)
            ),
            4 => format!(
                "AMQ9999E: Channel 'APP1.SVRCONN' to host '{host}' ended abnormally. [ArithInsert1({}), CommentInsert1(APP1.SVRCONN), CommentInsert2({}(12000)), CommentInsert3({host})]",
                rng.below(100),
                300 + rng.below(100)
            ),
            5 => format!("AMQ9788: Slow DNS lookup for address 'host{}'.", rng.below(20)),
            6 => format!(
                "AMQ5026I: The listener 'SYSTEM.LISTENER.TCP.1' has started. ProcessId({}). [ArithInsert1({0}), CommentInsert1(SYSTEM.LISTENER.TCP.1)]",
                200 + rng.below(100)
            ),
            7 => "runmqserver: Metrics: publishing queue manager statistics".to_string(),
            8 => format!("mqhtpass: MQStart options=Secondary qmgr=mqpoc{}", rng.below(3)),
            _ => "runmqserver: panic: runtime error: invalid memory address\ngoroutine 1 [running]:\nmain.main()\n\t/go/src/runmqserver/main.go:42 +0x1d".to_string(),
        };
        rec.push_str(&stamp);
        rec.push(' ');
        rec.push_str(&body);
        rec.push('\n');
        let _ = out.write_all(rec.as_bytes());
        written += rec.len() as u64;
    }
    out.flush().expect("write console");
}

/// The JSON variant with `kubectl logs --timestamps`: the container
/// programs' `mq_containerlog` lines and the error log's `mq_log` ones.
fn write_container_json(path: &Path, start_us: u64, bytes: u64, rng: &mut Rng) {
    let mut out = BufWriter::with_capacity(1 << 20, File::create(path).expect("create console"));
    let (mut now, mut written, mut seq) = (start_us, 0u64, 0u64);
    while written < bytes {
        now += 1_000 + rng.below(200_000);
        seq += 1;
        let (date, t) = date_tod(now);
        let host = format!("10.1.{}.{}", rng.below(4), 1 + rng.below(250));
        let rec = if rng.below(5) == 0 {
            format!(
                "{date}T{t}Z {{\"ibm_datetime\":\"{date}T{}Z\",\"type\":\"mq_containerlog\",\"host\":\"mqpoc1-ibm-mq-0\",\"ibm_processName\":\"runmqserver\",\"ibm_processId\":\"1\",\"ibm_serverName\":\"mqpoc1\",\"loglevel\":\"INFO\",\"message\":\"Metrics: publishing queue manager statistics\"}}\n",
                &t[..12]
            )
        } else {
            format!(
                "{date}T{t}Z {{\"ibm_messageId\":\"AMQ9209E\",\"ibm_arithInsert1\":10054,\"ibm_commentInsert1\":\"app ({host})\",\"ibm_commentInsert3\":\"APP.SVRCONN\",\"ibm_datetime\":\"{date}T{}Z\",\"ibm_serverName\":\"mqpoc1\",\"type\":\"mq_log\",\"host\":\"mqpoc1-ibm-mq-0\",\"loglevel\":\"ERROR\",\"module\":\"amqccita.c:4214\",\"ibm_sequence\":\"1710400000_{seq:09}\",\"ibm_remoteHost\":\"{host}\",\"ibm_processId\":{},\"ibm_threadId\":{},\"ibm_version\":\"9.2.4.0\",\"ibm_processName\":\"amqrmppa\",\"ibm_userName\":\"1001\",\"message\":\"AMQ9209E: Connection to host 'app ({host})' for channel 'APP.SVRCONN' closed.\"}}\n",
                &t[..12],
                400 + rng.below(20),
                1 + rng.below(40)
            )
        };
        let _ = out.write_all(rec.as_bytes());
        written += rec.len() as u64;
    }
    out.flush().expect("write console");
}

/// A z/OS channel initiator's JES job log of about `bytes` bytes: CSQX
/// messages, some wrapped onto continuation lines, and other components'.
fn write_joblog(path: &Path, start_us: u64, bytes: u64, rng: &mut Rng) {
    let mut out = BufWriter::with_capacity(1 << 20, File::create(path).expect("create job log"));
    let head = "1                    J E S 2  J O B  L O G  --  S Y S T E M  S 0 W 1  --  N O D E  N 1\n0\n 09.00.01 STC04321 ---- TUESDAY,   05 MAR 2024 ----\n";
    let _ = out.write_all(head.as_bytes());
    let (mut now, mut written) = (start_us, head.len() as u64);
    let pad = " ".repeat(20);
    // The log starts on 2024-03-05 (nine days before `day_of`'s start);
    // each new day gets its date line.
    let mut day = now / 86_400_000_000;
    while written < bytes {
        now += 1_000 + rng.below(50_000);
        if now / 86_400_000_000 != day {
            day = now / 86_400_000_000;
            let d = day_of(now) - chrono::Days::new(9);
            let name = format!("{},", d.format("%A").to_string().to_uppercase());
            let line = format!(
                " 00.00.00 STC04321 ---- {name:<11}{} ----\n",
                d.format("%d %b %Y").to_string().to_uppercase()
            );
            let _ = out.write_all(line.as_bytes());
            written += line.len() as u64;
        }
        let t = tod(now);
        let hms = format!("{}.{}.{}", &t[0..2], &t[3..5], &t[6..8]);
        let ip = format!("10.1.{}.{}", rng.below(4), 1 + rng.below(250));
        let ch = format!("APP{}.SVRCONN", rng.below(8));
        let rec = match rng.below(6) {
            0 | 1 => format!(
                " {hms} STC04321  CSQX511I %MQ1A CSQXRESP Channel {ch} started\n{pad}connection {ip}\n"
            ),
            2 => format!(
                " {hms} STC04321  CSQX209E %MQ1A CSQXRESP Connection unexpectedly terminated,\n{pad}channel {ch}\n{pad}connection {ip} ({ip})\n{pad}(queue manager MQ1A)\n{pad}TRPTYPE=TCP RC=00000468\n"
            ),
            3 => format!(
                " {hms} STC04321  CSQX512I %MQ1A CSQXRESP Channel {ch} no longer active\n{pad}connection {ip}\n"
            ),
            4 => format!(
                " {hms} STC04321  CSQX599E %MQ1A CSQXRESP Channel {ch} ended abnormally\n{pad}connection {ip}\n"
            ),
            _ => format!(" {hms} STC04321  IEF196I IEF237I JES2 ALLOCATED TO SYSOUT\n"),
        };
        let _ = out.write_all(rec.as_bytes());
        written += rec.len() as u64;
    }
    out.flush().expect("write job log");
}

/// `zip -1 -r` of a folder's contents (the `zip` command must be there).
fn zip_dir(dir: &Path, zip: &Path) {
    let ok = Command::new("sh")
        .args([
            "-c",
            &format!("cd {} && zip -q -1 -r {} .", dir.display(), zip.display()),
        ])
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok, "`zip` failed: the benchmark needs the zip command");
}

fn tod(us: u64) -> String {
    let t = us % 86_400_000_000;
    format!(
        "{:02}:{:02}:{:02}.{:06}",
        t / 3_600_000_000,
        t / 60_000_000 % 60,
        t / 1_000_000 % 60,
        t % 1_000_000
    )
}

/// How many files are under `dir` (the marker aside), and their bytes.
fn sizes(dir: &Path) -> (u64, u64) {
    let (mut n, mut bytes) = (0, 0);
    for e in fs::read_dir(dir).expect("read bench dir").flatten() {
        let Ok(m) = e.metadata() else { continue };
        if m.is_dir() {
            let (a, b) = sizes(&e.path());
            n += a;
            bytes += b;
        } else if e.file_name() != "done" {
            n += 1;
            bytes += m.len();
        }
    }
    (n, bytes)
}

#[derive(Clone)]
struct Measured {
    what: String,
    wall: f64,
    rss_mb: f64,
}

/// Run a shell command under `/usr/bin/time`, output to /dev/null.
fn measure(what: &str, shell: &str) -> Measured {
    let out = Command::new("/usr/bin/time")
        .args(["-f", "%e %M", "sh", "-c", shell])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .expect("run /usr/bin/time");
    let err = String::from_utf8_lossy(&out.stderr);
    let last = err.lines().last().unwrap_or("");
    let mut it = last.split_whitespace();
    let wall: f64 = it.next().and_then(|v| v.parse().ok()).unwrap_or(f64::NAN);
    let kb: f64 = it.next().and_then(|v| v.parse().ok()).unwrap_or(f64::NAN);
    if !out.status.success() {
        eprintln!("warning: `{shell}` exited with {}: {err}", out.status);
    }
    Measured {
        what: what.to_string(),
        wall,
        rss_mb: kb / 1024.0,
    }
}

/// `--help`: the options of the module docs.
const USAGE: &str = "\
usage: cargo run --release --example bench -- [OPTIONS]
Generates a realistic input set, then times what users run today against
mqdiag on the same files (wall time and peak RSS from /usr/bin/time).

  --size-mb N        total size (default 1024)
  --files N          trace files (default 16)
  --dir DIR          where to write them (default: under the temp dir)
  --keep             leave the files
  --only-generate    write the files, time nothing
  --bin PATH         the mqdiag to time (default target/release/mqdiag)
  --zip              also time analyze of the input zipped
  --mix              a whole case (traces, error logs, SMF, a nested zip);
                     run from the repository's root
  --kind KIND        traces (default), mix, container or joblog
  --mqdiag-arg ARG   passed on to mqdiag (e.g. -j)

  --speed            per-format reading speed instead: for each kind of
                     --kinds, generate --size-mb (a comma list: 64,1024)
                     of it and time `analyze` (best wall of --runs, peak
                     RSS); where valgrind is installed, count the
                     instructions of `analyze -j 1` on --valgrind-mb of it
  --kinds LIST       default: traces,errlog-text,errlog-json,smf-wq,
                     smf-qcst,container-basic,container-json,joblog,
                     events,activity,mqsc;
                     also container-compose, -kubectl, -docker and -cri
                     (the container-basic console wrapped by collectors)
  --runs N           timed runs per input (default 3)
  --valgrind-mb N    size of the counted inputs (default 8; 0: no counts)
  --against PATH     also count (and time) this mqdiag, and the ratio
";

fn main() {
    let mut args = std::env::args().skip(1);
    let mut size_mb = 1024u64;
    let mut files = 16u32;
    let mut dir = std::env::temp_dir().join("mqdiag-bench");
    let mut keep = false;
    let mut only_generate = false;
    let mut with_zip = false;
    let mut mix = false;
    let mut kind = String::from("traces");
    let mut bin = PathBuf::from("target/release/mqdiag");
    let mut extra: Vec<String> = Vec::new();
    let mut speed = Speed::default();
    let mut size_list = String::new();
    while let Some(a) = args.next() {
        match a.as_str() {
            "--size-mb" => {
                size_list = args.next().expect("--size-mb N");
                size_mb = size_list
                    .split(',')
                    .next()
                    .and_then(|v| v.parse().ok())
                    .expect("--size-mb N")
            }
            "--speed" => speed.on = true,
            "--kinds" => {
                speed.kinds = args
                    .next()
                    .expect("--kinds LIST")
                    .split(',')
                    .map(str::to_string)
                    .collect()
            }
            "--runs" => speed.runs = args.next().and_then(|v| v.parse().ok()).expect("--runs N"),
            "--valgrind-mb" => {
                speed.valgrind_mb = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .expect("--valgrind-mb N")
            }
            "--against" => {
                speed.against = Some(PathBuf::from(args.next().expect("--against PATH")))
            }
            "--files" => files = args.next().and_then(|v| v.parse().ok()).expect("--files N"),
            "--dir" => dir = PathBuf::from(args.next().expect("--dir DIR")),
            "--bin" => bin = PathBuf::from(args.next().expect("--bin PATH")),
            "--keep" => keep = true,
            "--only-generate" => only_generate = true,
            "--zip" => with_zip = true,
            "--mix" => mix = true,
            "--kind" => kind = args.next().expect("--kind traces|mix|container|joblog"),
            "--mqdiag-arg" => extra.push(args.next().expect("--mqdiag-arg ARG")),
            "-h" | "--help" => {
                print!("{USAGE}");
                return;
            }
            _ => {
                eprint!("unknown argument {a}\n\n{USAGE}");
                std::process::exit(2);
            }
        }
    }
    if speed.on {
        speed.sizes = if size_list.is_empty() {
            vec![64]
        } else {
            size_list
                .split(',')
                .map(|v| v.parse().expect("--size-mb N[,N...]"))
                .collect()
        };
        run_speed(&speed, &dir, &bin, files, keep, only_generate, &extra);
        return;
    }
    if kind == "mix" {
        mix = true;
    }
    // The input: `files` generated traces, (`--mix`) a whole case, or one
    // reader's format.
    let name = if mix {
        format!("case-mix-{size_mb}mb")
    } else if kind != "traces" {
        format!("{kind}-{size_mb}mb")
    } else {
        format!("traces-{size_mb}mb-{files}f")
    };
    let input = dir.join(&name);
    if !input.join("done").exists() {
        let _ = fs::remove_dir_all(&input);
        fs::create_dir_all(&input).expect("create bench dir");
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let bytes = size_mb * 1024 * 1024;
        let start = 10 * 3_600_000_000;
        if mix {
            write_mix(&input, size_mb, &mut rng);
        } else if kind == "container" {
            let b = input.join("mqpoc1-basic.log");
            write_container_basic(&b, start, bytes / 2, &mut rng);
            let j = input.join("mqpoc1-json.log");
            write_container_json(&j, start, bytes / 2, &mut rng);
        } else if kind == "joblog" {
            write_joblog(&input.join("MQ1ACHIN.JESMSGLG.txt"), start, bytes, &mut rng);
        } else if kind != "traces" {
            eprintln!("unknown --kind {kind}: traces, mix, container or joblog");
            std::process::exit(2);
        } else {
            let per_file = size_mb * 1024 * 1024 / files as u64;
            for i in 0..files {
                let pid = 100_000 + i * 37;
                // Processes start within a few seconds of each other and overlap.
                let start = 10 * 3_600_000_000 + rng.below(5_000_000);
                let p = input.join(format!("AMQ{pid}.0.FMT"));
                write_trace(&p, pid, start, per_file, &mut rng);
            }
        }
        fs::write(input.join("done"), "").expect("marker");
    }
    let (count, total) = sizes(&input);
    let mb = total as f64 / 1_048_576.0;
    println!("input: {count} files, {mb:.0} MB in {}", input.display());
    if only_generate {
        return;
    }
    assert!(
        bin.is_file(),
        "{} is missing: run `cargo build --release` first",
        bin.display()
    );
    let d = input.display();
    let bin = bin.display();
    let extra = extra.join(" ");
    // Every file for cat and grep; the traces for sort, as users sort them.
    let (all, traces) = if kind == "container" || kind == "joblog" {
        (format!("{d}/*"), format!("{d}/*"))
    } else if mix {
        (
            format!("$(find {d} -type f ! -name done)"),
            format!("{d}/trace/*.FMT"),
        )
    } else {
        (format!("{d}/*.FMT"), format!("{d}/*.FMT"))
    };
    let runs = [
        measure("cat (I/O floor)", &format!("cat {all}")),
        measure(
            "LC_ALL=C grep -c",
            // Piped: GNU grep stops at the first match when writing to /dev/null.
            &format!("LC_ALL=C grep -c QTime {all} | cat"),
        ),
        measure(
            "LC_ALL=C sort -k1.2,1",
            &format!("LC_ALL=C sort -k1.2,1 {traces}"),
        ),
        measure(
            "mqdiag timeline --format text",
            &format!("{bin} timeline {d} --format text -q {extra}"),
        ),
        measure("mqdiag analyze", &format!("{bin} analyze {d} -q {extra}")),
        measure("mqdiag calls", &format!("{bin} calls {d} -q {extra}")),
    ];
    let mut runs = runs.to_vec();
    if with_zip {
        // What users do today with a case archive, against reading it in place.
        let zip = dir.join(format!("{name}.zip"));
        if !zip.exists() {
            zip_dir(&input, &zip);
        }
        let unz = dir.join("unzipped");
        let z = zip.display();
        let u = unz.display();
        runs.push(measure(
            "unzip + mqdiag analyze",
            &format!("rm -rf {u} && unzip -q {z} -d {u} && {bin} analyze {u} -q {extra}"),
        ));
        runs.push(measure(
            "mqdiag analyze case.zip",
            &format!("{bin} analyze {z} -q {extra}"),
        ));
        let _ = fs::remove_dir_all(&unz);
    }
    let sort = runs[2].wall;
    println!(
        "{:<32} {:>9} {:>10} {:>12} {:>14}",
        "command", "wall (s)", "MB/s", "peak RSS MB", "vs sort (x)"
    );
    for r in &runs {
        println!(
            "{:<32} {:>9.2} {:>10.0} {:>12.1} {:>14.2}",
            r.what,
            r.wall,
            mb / r.wall,
            r.rss_mb,
            sort / r.wall
        );
    }
    if !keep {
        let _ = fs::remove_dir_all(&input);
    }
}

/// What `--speed` measures.
struct Speed {
    on: bool,
    kinds: Vec<String>,
    sizes: Vec<u64>,
    runs: u32,
    valgrind_mb: u64,
    against: Option<PathBuf>,
}

impl Default for Speed {
    fn default() -> Self {
        Speed {
            on: false,
            kinds: SPEED_KINDS.iter().map(|k| k.to_string()).collect(),
            sizes: vec![64],
            runs: 3,
            valgrind_mb: 8,
            against: None,
        }
    }
}

/// One input kind per reader, in the order of the Speed table.
const SPEED_KINDS: [&str; 11] = [
    "traces",
    "errlog-text",
    "errlog-json",
    "smf-wq",
    "smf-qcst",
    "container-basic",
    "container-json",
    "joblog",
    "events",
    "activity",
    "mqsc",
];

/// The `container-basic` console as log collectors wrap it (not in the
/// default kinds): `docker compose` service prefixes, `kubectl logs
/// --timestamps`, Docker's json-file driver and the CRI format of
/// `/var/log/containers`.
const WRAPPED_KINDS: [&str; 4] = [
    "container-compose",
    "container-kubectl",
    "container-docker",
    "container-cri",
];

/// Each line of the console at `from` wrapped as `kind` says, into `to`.
/// The collector's time is the line's own with nanoseconds (lines without
/// one, a stack dump's, take the last one seen).
fn wrap_console(from: &Path, to: &Path, kind: &str) {
    use std::io::BufRead;
    let input = std::io::BufReader::new(File::open(from).expect("open console"));
    let mut out = BufWriter::with_capacity(1 << 20, File::create(to).expect("create wrapped"));
    let mut outer = String::from("2024-03-14T10:00:00.000000000Z");
    for line in input.lines() {
        let line = line.expect("read console");
        // `2024-03-14T10:00:00.013410Z ...`: 27 bytes of stamp.
        if line.len() > 27 && line.as_bytes()[26] == b'Z' && line.as_bytes()[10] == b'T' {
            outer = format!("{}123Z", &line[..26]);
        }
        let _ = match kind {
            "container-compose" => writeln!(out, "mq_1       | {line}"),
            "container-kubectl" => writeln!(out, "{outer} {line}"),
            "container-docker" => writeln!(
                out,
                "{{\"log\":{},\"stream\":\"stdout\",\"time\":\"{outer}\"}}",
                serde_json::to_string(&format!("{line}\n")).expect("json string")
            ),
            _ => writeln!(out, "{outer} stdout F {line}"),
        };
    }
    out.flush().expect("write wrapped");
}

/// Write `mb` MB of one kind into `dir` (deterministic: the same bytes on
/// every run), unless a finished copy is there.
fn generate_kind(kind: &str, mb: u64, files: u32, dir: &Path) {
    if dir.join("done").exists() {
        return;
    }
    let _ = fs::remove_dir_all(dir);
    fs::create_dir_all(dir).expect("create bench dir");
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let bytes = mb * 1024 * 1024;
    let start = 10 * 3_600_000_000;
    let smf = Path::new("fixtures/smf/mqsmfcsv-5.7");
    match kind {
        "traces" => {
            for i in 0..files {
                let pid = 100_000 + i * 37;
                let s = start + rng.below(5_000_000);
                let p = dir.join(format!("AMQ{pid}.0.FMT"));
                write_trace(&p, pid, s, bytes / files as u64, &mut rng);
            }
        }
        "errlog-text" => {
            write_errlog_text(&dir.join("AMQERR01.LOG"), start, bytes, &mut rng);
        }
        "errlog-json" => write_errlog_json(&dir.join("AMQERR01.json"), start, bytes, &mut rng),
        "smf-wq" => write_smf_csv(
            &dir.join("SMF-WQ.csv"),
            &smf.join("SMF-WQ.csv"),
            start,
            bytes,
        ),
        "smf-qcst" => write_smf_csv(
            &dir.join("SMF-QCST.csv"),
            &smf.join("SMF-QCST.csv"),
            start,
            bytes,
        ),
        "container-basic" => {
            write_container_basic(&dir.join("mqpoc1-basic.log"), start, bytes, &mut rng)
        }
        "container-json" => {
            write_container_json(&dir.join("mqpoc1-json.log"), start, bytes, &mut rng)
        }
        "joblog" => write_joblog(&dir.join("MQ1ACHIN.JESMSGLG.txt"), start, bytes, &mut rng),
        "events" => announced::write_events(&dir.join("QM1.events.txt"), start, bytes, &mut rng),
        "activity" => announced::write_activity(&dir.join("amqsact.txt"), start, bytes, &mut rng),
        "mqsc" => announced::write_mqsc(dir, bytes, files, &mut rng),
        wrapped if WRAPPED_KINDS.contains(&wrapped) => {
            // The very console of `container-basic`, then wrapped: the
            // two read side by side measure the unwrapping alone.
            let basic = dir.join("basic.tmp");
            write_container_basic(&basic, start, bytes, &mut rng);
            let name = format!("mqpoc1-{}.log", &wrapped["container-".len()..]);
            wrap_console(&basic, &dir.join(name), wrapped);
            fs::remove_file(&basic).expect("remove the unwrapped console");
        }
        other => {
            eprintln!(
                "unknown kind {other}: one of {}, {}",
                SPEED_KINDS.join(", "),
                WRAPPED_KINDS.join(", ")
            );
            std::process::exit(2);
        }
    }
    fs::write(dir.join("done"), "").expect("marker");
}

/// Instructions of `bin analyze dir -j 1` under cachegrind, or `None` when
/// valgrind is not installed (or the run failed).
fn instructions(bin: &Path, dir: &Path, out: &Path) -> Option<u64> {
    let run = Command::new("valgrind")
        .args([
            "--tool=cachegrind",
            "--cache-sim=no",
            "--cachegrind-out-file=/dev/null",
        ])
        .arg(bin)
        .arg("analyze")
        .arg(dir)
        .args(["-j", "1", "-q", "-o"])
        .arg(out)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .ok()?;
    let err = String::from_utf8_lossy(&run.stderr);
    let line = err
        .lines()
        .find(|l| l.contains("I refs:") || l.contains("I   refs:"))?;
    let n: String = line
        .rsplit(':')
        .next()?
        .chars()
        .filter(char::is_ascii_digit)
        .collect();
    n.parse().ok()
}

fn valgrind_installed() -> bool {
    Command::new("valgrind")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Best wall time and peak RSS of `runs` runs of `analyze`.
fn time_analyze(bin: &Path, dir: &Path, out: &Path, runs: u32, extra: &str) -> Measured {
    let cmd = format!(
        "{} analyze {} -q -o {} {extra}",
        bin.display(),
        dir.display(),
        out.display()
    );
    let mut best: Option<Measured> = None;
    for _ in 0..runs.max(1) {
        let m = measure("analyze", &cmd);
        best = Some(match best {
            None => m,
            Some(b) => Measured {
                what: b.what,
                wall: b.wall.min(m.wall),
                rss_mb: b.rss_mb.max(m.rss_mb),
            },
        });
    }
    best.expect("one run")
}

fn millions(n: Option<u64>) -> String {
    n.map(|n| format!("{:.1} M", n as f64 / 1e6))
        .unwrap_or_else(|| "-".to_string())
}

/// `--speed`: every kind at every size, one row each.
fn run_speed(
    sp: &Speed,
    dir: &Path,
    bin: &Path,
    files: u32,
    keep: bool,
    only_generate: bool,
    extra: &[String],
) {
    let extra = extra.join(" ");
    let counting = sp.valgrind_mb > 0 && !only_generate && valgrind_installed();
    if !only_generate {
        assert!(
            bin.is_file(),
            "{} is missing: run `cargo build --release` first",
            bin.display()
        );
    }
    let out = dir.join("speed-out.json");
    fs::create_dir_all(dir).expect("create bench dir");
    println!(
        "{:<16} {:>7} {:>9} {:>8} {:>12} {:>16}{}",
        "format",
        "MB",
        "wall (s)",
        "MB/s",
        "peak RSS MB",
        format!("instr ({} MB)", sp.valgrind_mb),
        if sp.against.is_some() {
            format!(
                " {:>10} {:>7} {:>16} {:>7}",
                "wall then", "ratio", "instr then", "ratio"
            )
        } else {
            String::new()
        }
    );
    for kind in &sp.kinds {
        let counted = counting.then(|| {
            let d = dir.join(format!("speed-{kind}-{}mb", sp.valgrind_mb));
            generate_kind(kind, sp.valgrind_mb, files, &d);
            let now = instructions(bin, &d, &out);
            let then = sp
                .against
                .as_deref()
                .and_then(|b| instructions(b, &d, &out));
            if !keep {
                let _ = fs::remove_dir_all(&d);
            }
            (now, then)
        });
        for &mb in &sp.sizes {
            let d = dir.join(format!("speed-{kind}-{mb}mb"));
            generate_kind(kind, mb, files, &d);
            if only_generate {
                println!("{kind}: {}", d.display());
                continue;
            }
            let (_, bytes) = sizes(&d);
            let real_mb = bytes as f64 / 1_048_576.0;
            let m = time_analyze(bin, &d, &out, sp.runs, &extra);
            let (now, then) = counted.unwrap_or((None, None));
            let mut row = format!(
                "{kind:<16} {real_mb:>7.0} {:>9.2} {:>8.0} {:>12.1} {:>16}",
                m.wall,
                real_mb / m.wall,
                m.rss_mb,
                millions(now)
            );
            if let Some(b) = &sp.against {
                let t = time_analyze(b, &d, &out, sp.runs, &extra);
                let ratio = match (now, then) {
                    (Some(n), Some(t)) if t > 0 => format!("{:.2}", n as f64 / t as f64),
                    _ => "-".to_string(),
                };
                row.push_str(&format!(
                    " {:>10.2} {:>7.2} {:>16} {ratio:>7}",
                    t.wall,
                    m.wall / t.wall,
                    millions(then)
                ));
            }
            println!("{row}");
            if !keep {
                let _ = fs::remove_dir_all(&d);
            }
        }
    }
    let _ = fs::remove_file(&out);
}
