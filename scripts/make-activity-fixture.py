#!/usr/bin/env python3
"""Writes fixtures/activity/amqsact.txt: `amqsact -v` output (ours, in the
layout of the sample's source, see crates/readers/src/formats/activity_trace.rs)
of a putting application, one MQPUT slow (250 ms in the queue manager) and
one refused with 2053 MQRC_Q_FULL, and a getting application whose last
MQGET waits in vain (2033). Run from the repository's root."""
import datetime

T0 = datetime.datetime(2026, 3, 2, 10, 20, 0, tzinfo=datetime.timezone.utc)
CONN = {"orderput": "414D5143514D312020202020202020206B576B5420000701",
        "orderget": "414D5143514D312020202020202020206B576B5420000702"}

def dump(hexs):
    out = []
    b = bytes.fromhex(hexs)
    for i in range(0, len(b), 16):
        chunk = b[i:i + 16]
        words = " ".join(chunk[j:j + 2].hex().upper() for j in range(0, len(chunk), 2))
        text = "".join(chr(c) if 32 <= c < 127 else "." for c in chunk)
        out.append(f"{i:08X}:  {words:<39}  '{text:<16}'")
    return out

def message(appl, pid, ops):
    lines = ["MonitoringType: MQI Activity Trace", "Correl_id:"] + dump(CONN[appl])
    first, last = ops[0][0], ops[-1][0]
    lines += [
        "QueueManager: 'QM1'", "Host Name: 'apphost'",
        f"IntervalStartDate: '{first:%Y-%m-%d}'", f"IntervalStartTime: '{first:%H:%M:%S}'",
        f"IntervalEndDate: '{last:%Y-%m-%d}'", f"IntervalEndTime: '{last:%H:%M:%S}'",
        "CommandLevel: 930", "SeqNumber: 0", f"ApplicationName: '{appl}'",
        "Application Type: MQAT_UNIX", f"ApplicationPid: {pid}", "UserId: 'app1'",
        "API Caller Type: MQXACT_EXTERNAL", "API Environment: MQXE_OTHER",
        "Channel Name: 'APP.SVRCONN'", "ConnName: '10.1.2.9'",
        "Application Function: ''", "Appl Function Type: MQFUN_TYPE_UNKNOWN",
        "Trace Detail Level: 2", "Trace Data Length: 0", "Pointer size: 8", "Platform: MQPL_UNIX",
    ]
    for n, (at, op, extra, cc, rc, dur) in enumerate(ops):
        lines += [f"MQI Operation: {n}", f"  Operation Id: MQXF_{op}", "  ApplicationTid: 1",
                  f"  OperationDate: '{at:%Y-%m-%d}'", f"  OperationTime: '{at:%H:%M:%S}'",
                  f"  High Res Time: {int(at.timestamp() * 1_000_000)}",
                  f"  Completion Code: {cc}", f"  Reason Code: {rc}"]
        lines += [f"  {k}: {v}" for k, v in extra]
        lines.append(f"  QMgr Operation Duration: {dur}")
    lines += ["=" * 77, ""]
    return lines

def main():
    us = lambda n: datetime.timedelta(microseconds=n)
    put = [(T0, "CONNX", [], "MQCC_OK", 0, 310),
           (T0 + us(900), "OPEN", [("Object_type", "MQOT_Q"), ("Object_name", "'ORDERS.IN'"),
                                   ("Open_options", 8208), ("Hobj", 2)], "MQCC_OK", 0, 95)]
    t = T0 + us(2000)
    for i in range(20):
        dur = 250000 if i == 12 else 110 + (i * 37) % 90
        cc, rc = ("MQCC_FAILED", 2053) if i == 19 else ("MQCC_OK", 0)
        put.append((t, "PUT", [("Hobj", 2), ("Put Options", 8260), ("Msg length", 512),
                               ("Object_name", "'ORDERS.IN'")], cc, rc, dur))
        t += us(50000)
    put += [(t, "CLOSE", [("Hobj", 2), ("Close Options", 0)], "MQCC_OK", 0, 40),
            (t + us(500), "DISC", [], "MQCC_OK", 0, 60)]
    get = [(T0 + us(300), "CONNX", [], "MQCC_OK", 0, 290),
           (T0 + us(1200), "OPEN", [("Object_type", "MQOT_Q"), ("Object_name", "'ORDERS.IN'"),
                                    ("Open_options", 8194), ("Hobj", 3)], "MQCC_OK", 0, 80)]
    t = T0 + us(60000)
    for i in range(15):
        cc, rc = ("MQCC_FAILED", 2033) if i == 14 else ("MQCC_OK", 0)
        get.append((t, "GET", [("Hobj", 3), ("Get Options", 8261), ("Buffer Length", 4096),
                               ("Msg length", 512 if rc == 0 else 0),
                               ("Object_name", "'ORDERS.IN'")], cc, rc, 70 + (i * 13) % 40))
        t += us(70000)
    get += [(t, "CLOSE", [("Hobj", 3), ("Close Options", 0)], "MQCC_OK", 0, 35),
            (t + us(400), "DISC", [], "MQCC_OK", 0, 50)]
    out = []
    # amqsact prints a message per batch of operations: two per application.
    out += message("orderput", 4711, put[:12])
    out += message("orderget", 5120, get[:9])
    out += message("orderput", 4711, put[12:])
    out += message("orderget", 5120, get[9:])
    out.append("4 Records Processed.")
    open("fixtures/activity/amqsact.txt", "w").write("\n".join(out) + "\n")

main()
