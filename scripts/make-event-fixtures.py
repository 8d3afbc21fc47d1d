#!/usr/bin/env python3
"""Writes the three forms of one scenario of event messages (ours, from the
documented shapes: see crates/readers/src/formats/mq_events.rs): amqsevt text
(text/), amqsevt -o json (json/) and -o json_compact (compact/). Each
directory also holds the queue manager's error log of the same minutes.
The error log is written by hand in text/ and copied to the others.
Run from the repository's root: python3 scripts/make-event-fixtures.py"""
import json, os, datetime

QM = "QM1"
# (time, type name, type no, reason name, reason no, fields, extra top-level)
EVENTS = [
  ("2026-03-02 10:00:05.12", "Queue Mgr Event", 44, "Not Authorized", 2035, [
    ("Queue Mgr Name", QM), ("Reason Qualifier", ("Conn Not Authorized", 1)),
    ("User Identifier", "bob"), ("Appl Type", ("Unix", 6)), ("Appl Name", "amqsput")], {}),
  ("2026-03-02 10:00:20.40", "Queue Mgr Event", 44, "Not Authorized", 2035, [
    ("Queue Mgr Name", QM), ("Reason Qualifier", ("Open Not Authorized", 2)),
    ("Options", 8208), ("User Identifier", "bob"), ("Appl Type", ("Unix", 6)),
    ("Appl Name", "amqsput"), ("Object Name", "PAYROLL.IN")], {}),
  ("2026-03-02 10:01:00.02", "Channel Event", 46, "Channel Blocked", 2577, [
    ("Queue Mgr Name", QM), ("Reason Qualifier", ("Channel Blocked Noaccess", 23)),
    ("Channel Name", "APP.SVRCONN"), ("Connection Name", "10.1.2.3"),
    ("Client User Identifier", "mallory")], {}),
  ("2026-03-02 10:02:00.00", "Perfm Event", 45, "Queue Full", 2053, [
    ("Queue Mgr Name", QM), ("Base Object Name", "ORDERS.IN"), ("Time Since Reset", 120),
    ("High Queue Depth", 5000), ("Msg Enq Count", 5000), ("Msg Deq Count", 0)], {}),
  ("2026-03-02 10:03:00.00", "Perfm Event", 45, "Queue Service Interval High", 2226, [
    ("Queue Mgr Name", QM), ("Base Object Name", "ORDERS.IN"), ("Time Since Reset", 180),
    ("High Queue Depth", 5000), ("Msg Enq Count", 5000), ("Msg Deq Count", 0)], {}),
  ("2026-03-02 10:04:00.00", "Channel Event", 46, "Channel Not Available", 2537, [
    ("Queue Mgr Name", QM), ("Reason Qualifier", ("Svrconn Inst Limit", 26)),
    ("Channel Name", "APP.SVRCONN"), ("Connection Name", "10.1.2.7"),
    ("Maximum Instances", 10)], {}),
  ("2026-03-02 10:10:00.00", "Config Event", 43, "Config Change Object", 2368, [
    ("Event User Id", "admin"), ("Event Origin", ("Console", 1)), ("Event Q Mgr", QM),
    ("Event Appl Type", ("Unix", 6)), ("Event Appl Name", "runmqsc"),
    ("Object Type", ("Channel", 6)), ("Channel Name", "TO.QM2"),
    ("Channel Type", ("Sender", 1)), ("SSL Cipher Spec", "TLS_RSA_WITH_AES_256_GCM_SHA384"),
    ("Connection Name", "qm2.example.com(1414)")],
    {"Object state": "Before Change", "Correlation ID": "414D5120514D3120202020202020202065E2B1C420001A03"}),
  ("2026-03-02 10:10:00.00", "Config Event", 43, "Config Change Object", 2368, [
    ("Event User Id", "admin"), ("Event Origin", ("Console", 1)), ("Event Q Mgr", QM),
    ("Event Appl Type", ("Unix", 6)), ("Event Appl Name", "runmqsc"),
    ("Object Type", ("Channel", 6)), ("Channel Name", "TO.QM2"),
    ("Channel Type", ("Sender", 1)), ("SSL Cipher Spec", "TLS_AES_128_GCM_SHA256"),
    ("Connection Name", "qm2.example.com(1414)")],
    {"Object state": "After Change", "Correlation ID": "414D5120514D3120202020202020202065E2B1C420001A03"}),
  ("2026-03-02 10:10:00.00", "Command Event", 99, "Command MQSC", 2412, [
    ("Event User Id", "admin"), ("Event Origin", ("Console", 1)), ("Event Q Mgr", QM),
    ("Event Appl Type", ("Unix", 6)), ("Event Appl Name", "runmqsc"),
    ("Command", ("Change Channel", 1005)), ("Channel Name", "TO.QM2"),
    ("Channel Type", ("Sender", 1)), ("SSL Cipher Spec", "TLS_AES_128_GCM_SHA256")], {}),
  ("2026-03-02 10:14:02.31", "Channel Event", 46, "Channel SSL Error", 2371, [
    ("Queue Mgr Name", QM), ("Reason Qualifier", ("SSL Cipher Spec Error", 14)),
    ("Channel Name", "TO.QM2"), ("Connection Name", "10.9.9.9"),
    ("SSL Handshake Stage", ("Handshake", 1)), ("SSL Return Code", 0)], {}),
  ("2026-03-02 10:14:02.35", "Channel Event", 46, "Channel Stopped", 2283, [
    ("Queue Mgr Name", QM), ("Reason Qualifier", ("Channel Stopped Retry", 9)),
    ("Channel Name", "TO.QM2"), ("Error Identifier", 536909361),
    ("Aux Error Data Int 1", 0), ("Aux Error Data Int 2", 0),
    ("Aux Error Data Str 1", "TO.QM2"), ("Aux Error Data Str 2", "TLS_AES_128_GCM_SHA256"),
    ("Aux Error Data Str 3", "TLS_RSA_WITH_AES_256_GCM_SHA384"), ("Connection Name", "10.9.9.9"),
    ("Xmit Q Name", "QM2")], {}),
]

QUEUES = {43: "SYSTEM.ADMIN.CONFIG.EVENT", 44: "SYSTEM.ADMIN.QMGR.EVENT",
          45: "SYSTEM.ADMIN.PERFM.EVENT", 46: "SYSTEM.ADMIN.CHANNEL.EVENT",
          99: "SYSTEM.ADMIN.COMMAND.EVENT"}

def camel(label):
    w = label.replace("_", " ").split()
    return w[0].lower() + "".join(x[:1].upper() + x[1:] for x in w[1:])

def text():
    out = []
    for i, (t, tn, tv, rn, rv, fields, top) in enumerate(EVENTS, 1):
        d = datetime.datetime.strptime(t, "%Y-%m-%d %H:%M:%S.%f")
        size = 200 + 40 * len(fields)
        out.append(f"**** Message #{i} ({size} Bytes) on Queue {QUEUES[tv]} ****")
        out.append(f"{'Event Type':<31}: {tn} [{tv}]")
        out.append(f"{'Reason':<31}: {rn} [{rv}]")
        out.append(f"{'Event created':<31}: {d:%Y/%m/%d %H:%M:%S}.{d.microsecond // 10000:02d} GMT")
        for k, v in top.items():
            out.append(f"{k:<31}: {v}")
        for k, v in fields:
            if isinstance(v, tuple):
                v = f"{v[0]} [{v[1]}]"
            out.append(f"  {k:<29}: {v}")
        out.append("")
    return "\n".join(out) + "\n"

def objs():
    for t, tn, tv, rn, rv, fields, top in EVENTS:
        d = datetime.datetime.strptime(t, "%Y-%m-%d %H:%M:%S.%f").replace(tzinfo=datetime.timezone.utc)
        o = {"eventSource": {"objectName": QUEUES[tv], "objectType": "Queue", "queueMgr": QM},
             "eventType": {"name": tn, "value": tv},
             "eventReason": {"name": rn, "value": rv},
             "eventCreation": {"timeStamp": d.strftime("%Y-%m-%dT%H:%M:%SZ"), "epoch": int(d.timestamp())}}
        for k, v in top.items():
            o["objectState" if k == "Object state" else "correlationID"] = v
        data = {}
        for k, v in fields:
            # Names of values as the MQ constants (MQRQ_...), as JSON tools print them.
            if k == "Reason Qualifier":
                v = "MQRQ_" + v[0].upper().replace(" ", "_")
            elif isinstance(v, tuple):
                v = v[0]
            data[camel(k)] = v
        o["eventData"] = data
        yield o

def main():
    os.chdir("fixtures/events")
    log = open("text/qmgrs/QM1/errors/AMQERR01.LOG").read()
    for d in ("json", "compact"):
        os.makedirs(f"{d}/qmgrs/QM1/errors", exist_ok=True)
        open(f"{d}/qmgrs/QM1/errors/AMQERR01.LOG", "w").write(log)
    open("text/QM1.events.txt", "w").write(text())
    open("json/QM1.events.json", "w").write("".join(json.dumps(o, indent=2) + "\n" for o in objs()))
    open("compact/QM1.events.json", "w").write("".join(json.dumps(o, separators=(",", ":")) + "\n" for o in objs()))

main()
