//! Inputs of the readers of what a queue manager announced and how it is
//! configured: `amqsevt` event messages, `amqsact -v` activity trace and
//! `dmpmqcfg` MQSC dumps, in the shapes of the fixtures (`fixtures/events`,
//! `fixtures/activity`, `fixtures/config`), about `bytes` bytes of each.

use super::{Rng, tod};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

/// `amqsevt` text: refusals, blocks, limits, TLS failures, service
/// intervals and configuration changes of a few queue managers, one event
/// every 10–200 ms.
pub(crate) fn write_events(path: &Path, start_us: u64, bytes: u64, rng: &mut Rng) {
    let mut out = BufWriter::with_capacity(1 << 20, File::create(path).expect("create events"));
    let (mut now, mut written, mut n) = (start_us, 0u64, 0u64);
    while written < bytes {
        now += 10_000 + rng.below(190_000);
        n += 1;
        let t = tod(now);
        let at = format!("2024/03/14 {}.{} GMT", &t[..8], &t[9..11]);
        let qm = format!("QM{}", 1 + rng.below(3));
        let ch = format!("APP{}.SVRCONN", rng.below(8));
        let ip = format!("10.1.{}.{}", rng.below(4), 1 + rng.below(250));
        let q = format!("ORDERS.Q{}", rng.below(20));
        let (queue, ty, reason, body) = match rng.below(8) {
            0 => (
                "QMGR",
                "Queue Mgr Event [44]",
                "Not Authorized [2035]",
                format!(
                    "  Reason Qualifier             : Conn Not Authorized [1]\n  User Identifier              : app{}\n  Appl Type                    : Unix [6]\n  Appl Name                    : amqsput\n",
                    rng.below(50)
                ),
            ),
            1 => (
                "QMGR",
                "Queue Mgr Event [44]",
                "Not Authorized [2035]",
                format!(
                    "  Reason Qualifier             : Open Not Authorized [2]\n  Options                      : 8208\n  User Identifier              : app{}\n  Appl Type                    : Unix [6]\n  Appl Name                    : amqsput\n  Object Name                  : {q}\n",
                    rng.below(50)
                ),
            ),
            2 => (
                "CHANNEL",
                "Channel Event [46]",
                "Channel Blocked [2577]",
                format!(
                    "  Reason Qualifier             : Channel Blocked Address [22]\n  Channel Name                 : {ch}\n  Connection Name              : {ip}\n"
                ),
            ),
            3 => (
                "PERFM",
                "Perfm Event [45]",
                "Queue Full [2053]",
                format!(
                    "  Base Object Name             : {q}\n  Time Since Reset             : {}\n  High Queue Depth             : 5000\n  Msg Enq Count                : 5000\n  Msg Deq Count                : 0\n",
                    rng.below(600)
                ),
            ),
            4 => (
                "PERFM",
                "Perfm Event [45]",
                if rng.below(2) == 0 {
                    "Queue Service Interval High [2226]"
                } else {
                    "Queue Service Interval OK [2227]"
                },
                format!(
                    "  Base Object Name             : {q}\n  Time Since Reset             : {}\n  High Queue Depth             : {}\n  Msg Enq Count                : 120\n  Msg Deq Count                : 80\n",
                    rng.below(600),
                    rng.below(5000)
                ),
            ),
            5 => (
                "CHANNEL",
                "Channel Event [46]",
                "Channel SSL Error [2371]",
                format!(
                    "  Reason Qualifier             : Channel SSL Error [31]\n  Channel Name                 : {ch}\n  Connection Name              : {ip}\n  SSL Handshake Stage          : gsk_secure_soc_init\n  SSL Return Code              : 420\n"
                ),
            ),
            6 => (
                "CHANNEL",
                "Channel Event [46]",
                "Channel Stopped [2283]",
                format!(
                    "  Reason Qualifier             : Channel Stopped Error [30]\n  Error Identifier             : 536909361\n  Channel Name                 : {ch}\n  Connection Name              : {ip}\n"
                ),
            ),
            _ => (
                "CONFIG",
                "Config Event [43]",
                "Config Change Object [2368]",
                format!(
                    "Object state                   : {} Change\nCorrelation ID                 : 414D5120514D3120202020202020202065E2B1C4{n:08X}\n  Event User Id                : admin\n  Event Origin                 : Console [1]\n  Object Type                  : Channel [5]\n  Channel Name                 : {ch}\n  SSL Cipher Specification     : TLS_AES_128_GCM_SHA256\n",
                    if n % 2 == 0 { "Before" } else { "After" }
                ),
            ),
        };
        let rec = format!(
            "**** Message #{n} ({} Bytes) on Queue SYSTEM.ADMIN.{queue}.EVENT ****\nEvent Type                     : {ty}\nReason                         : {reason}\nEvent created                  : {at}\n  Queue Mgr Name               : {qm}\n{body}\n",
            300 + body.len()
        );
        let _ = out.write_all(rec.as_bytes());
        written += rec.len() as u64;
    }
    out.flush().expect("write events");
}

/// `amqsact -v`: applications that connect, open, put or get a few
/// hundred times, close and disconnect; a 2053 or 2033 now and then.
pub(crate) fn write_activity(path: &Path, start_us: u64, bytes: u64, rng: &mut Rng) {
    let mut out = BufWriter::with_capacity(1 << 20, File::create(path).expect("create activity"));
    // `High Res Time` counts microseconds since 1970: 2024-03-14 00:00 UTC.
    let epoch_day: u64 = 1_710_374_400_000_000;
    let (mut now, mut written, mut app) = (start_us, 0u64, 0u64);
    while written < bytes {
        app += 1;
        let pid = 4000 + app;
        let (name, put) = if app % 2 == 0 {
            ("orderput", true)
        } else {
            ("orderget", false)
        };
        let t = tod(now);
        let head = format!(
            "MonitoringType: MQI Activity Trace\nQueueManager: 'QM1'\nHost Name: 'apphost'\nIntervalStartDate: '2024-03-14'\nIntervalStartTime: '{}'\nCommandLevel: 930\nSeqNumber: 0\nApplicationName: '{name}'\nApplication Type: MQAT_UNIX\nApplicationPid: {pid}\nUserId: 'app1'\nAPI Caller Type: MQXACT_EXTERNAL\nChannel Name: 'APP.SVRCONN'\nConnName: '10.1.2.{}'\nTrace Detail Level: 2\nPlatform: MQPL_UNIX\n",
            &t[..8],
            1 + app % 250
        );
        let _ = out.write_all(head.as_bytes());
        written += head.len() as u64;
        let ops = 100 + rng.below(400);
        for i in 0..ops {
            now += 200 + rng.below(5_000);
            let t = tod(now);
            let (op, reason, extra) = match i {
                0 => ("MQXF_CONNX", 0, String::new()),
                1 => (
                    "MQXF_OPEN",
                    0,
                    format!(
                        "  Object_type: MQOT_Q\n  Object_name: 'ORDERS.Q{}'\n  Open_options: {}\n  Hobj: 2\n",
                        app % 20,
                        if put { 8208 } else { 8193 }
                    ),
                ),
                _ if i == ops - 1 => ("MQXF_DISC", 0, String::new()),
                _ if i == ops - 2 => ("MQXF_CLOSE", 0, "  Hobj: 2\n".to_string()),
                _ if put => (
                    "MQXF_PUT",
                    if rng.below(200) == 0 { 2053 } else { 0 },
                    format!(
                        "  Hobj: 2\n  Put Options: 8260\n  Msg length: {}\n  Object_name: 'ORDERS.Q{}'\n",
                        100 + rng.below(4000),
                        app % 20
                    ),
                ),
                _ => (
                    "MQXF_GET",
                    if rng.below(20) == 0 { 2033 } else { 0 },
                    format!(
                        "  Hobj: 2\n  Get Options: 8261\n  Msg length: {}\n",
                        100 + rng.below(4000)
                    ),
                ),
            };
            let rec = format!(
                "MQI Operation: {i}\n  Operation Id: {op}\n  ApplicationTid: 1\n  OperationDate: '2024-03-14'\n  OperationTime: '{}'\n  High Res Time: {}\n  Completion Code: {}\n  Reason Code: {reason}\n{extra}  QMgr Operation Duration: {}\n",
                &t[..8],
                epoch_day + now,
                if reason == 0 {
                    "MQCC_OK"
                } else {
                    "MQCC_FAILED"
                },
                20 + rng.below(2_000)
            );
            let _ = out.write_all(rec.as_bytes());
            written += rec.len() as u64;
        }
        let _ = out.write_all(b"\n");
        written += 1;
    }
    out.flush().expect("write activity");
}

/// `dmpmqcfg` dumps of `files` queue managers, about `bytes` in all:
/// queues, channels, CHLAUTH rules and authority records with `+`
/// continuations, as `fixtures/config/runmqras` holds one.
pub(crate) fn write_mqsc(dir: &Path, bytes: u64, files: u32, rng: &mut Rng) {
    let each = bytes / u64::from(files.max(1));
    for f in 0..files.max(1) {
        let qm = format!("QMBENCH{f}");
        let path = dir.join(format!("{qm}.mqsc"));
        let mut out = BufWriter::with_capacity(1 << 20, File::create(&path).expect("create mqsc"));
        let head = format!(
            "* Script generated on 2024-03-14   at 09.30.12\n* Queue manager name: {qm}\n* Queue manager platform: UNIX\n* Command issued: dmpmqcfg -m {qm} -a\nALTER QMGR +\n   CHLAUTH(ENABLED) +\n   CONNAUTH('SYSTEM.DEFAULT.AUTHINFO.IDPWOS') +\n   DEADQ('SYSTEM.DEAD.LETTER.QUEUE') +\n   MAXHANDS(256) +\n   FORCE\n"
        );
        let _ = out.write_all(head.as_bytes());
        let (mut written, mut n) = (head.len() as u64, 0u64);
        while written < each {
            n += 1;
            let rec = match rng.below(4) {
                0 | 1 => format!(
                    "DEFINE QLOCAL('APP.Q{n}') +\n   DESCR('Queue {n} of the order flow') +\n   MAXDEPTH({}) +\n   QDEPTHHI(80) +\n   DEFPSIST(YES) +\n   REPLACE\n",
                    5000 * (1 + rng.below(20))
                ),
                2 => format!(
                    "DEFINE CHANNEL('APP{n}.SVRCONN') +\n   CHLTYPE(SVRCONN) +\n   HBINT(300) +\n   MAXINST({}) +\n   MAXINSTC(10) +\n   SHARECNV(10) +\n   SSLCIPH('TLS_AES_128_GCM_SHA256') +\n   REPLACE\nSET CHLAUTH('APP{n}.SVRCONN') TYPE(ADDRESSMAP) ADDRESS('10.1.{}.*') USERSRC(CHANNEL) ACTION(REPLACE)\n",
                    100 + rng.below(900),
                    rng.below(250)
                ),
                _ => format!(
                    "SET AUTHREC PROFILE('APP.Q{n}') PRINCIPAL('app{}') OBJTYPE(QUEUE) AUTHADD(GET,PUT,INQ,BROWSE)\n",
                    rng.below(50)
                ),
            };
            let _ = out.write_all(rec.as_bytes());
            written += rec.len() as u64;
        }
        out.flush().expect("write mqsc");
    }
}
