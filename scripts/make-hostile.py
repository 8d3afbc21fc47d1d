#!/usr/bin/env python3
"""Inputs sized to break the run budget (issue 43, class 1), written at any
scale, for measuring peak memory, time and output size by hand:

    scripts/make-hostile.py pids    DIR N [REASON]  # N processes, one failed MQCONNX each
    scripts/make-hostile.py threads DIR N           # one process, N threads, one MQPUT each
    scripts/make-hostile.py fdcs    DIR N           # N small FDC files, N distinct probes
    scripts/make-hostile.py bigfdc  DIR MB          # one FDC file of repeated reports
    scripts/make-hostile.py small   DIR N           # N small error logs, one record each
    scripts/make-hostile.py far     DIR N           # N error-log records dated past 2262
    scripts/make-hostile.py addresses DIR N         # N error-log records, N hosts and addresses

then for example

    /usr/bin/time -v target/release/mqdiag analyze DIR -q -o out.json --format json

The shapes are those of the fixtures (fixtures/trace, fixtures/fdc,
fixtures/errlog); the end-to-end tests build the same inputs smaller
(tests/hostile_tables.rs).
"""

import os
import sys

TRACE_HEAD = """Timestamp        Process.Thread  Trace Ident  Trace Data
===========================================================
 09:29:59.900000 {pid:>8}.1           :       Header.v02:9.3:Linux 5.14.0:64:-1:1:CET
 09:29:59.900013 {pid:>8}.1           :       Version : 9.3.0.10    Level : p930-010-230816
 09:29:59.900026 {pid:>8}.1           :       UTC   Date : 03/12/24  Time : 08:29:59.900001
 09:29:59.900039 {pid:>8}.1           :       Local Date : 03/12/24  Time : 09:29:59.900001  CET
 09:29:59.900052 {pid:>8}.1           :       PID : {pid} Process : ordersvc (64-bit)
 09:29:59.900065 {pid:>8}.1           :       Host : appsrv07
 09:29:59.900104 {pid:>8}.1           :       --------------------------------
"""


def usec(i):
    """A time of day for the i-th call, moving forward within a day."""
    us = 10 * 3600 * 1_000_000 + i * 37
    s, us = divmod(us, 1_000_000)
    m, s = divmod(s, 60)
    h, m = divmod(m, 60)
    return f"{h:02}:{m:02}:{s:02}.{us:06}"


def pids(d, n, reason="2035"):
    """One trace whose lines belong to `n` processes, each failing MQCONNX
    once (a merged trace of a connection storm)."""
    with open(os.path.join(d, "AMQ1000.0.FMT"), "w") as f:
        f.write(TRACE_HEAD.format(pid=1000))
        for i in range(n):
            pid = 100_000 + i
            t = usec(i)
            f.write(f" {t} {pid:>8}.1           :       {{  MQCONNX\n")
            f.write(f" {t} {pid:>8}.1      RSESS:{i % 0xFFFFFF:06x}      CompCode=2 Reason={reason}\n")
            f.write(f" {t} {pid:>8}.1      RSESS:{i % 0xFFFFFF:06x} }}! MQCONNX rc={reason} FunctionTime=21510\n")


def threads(d, n):
    """One process whose `n` threads each put one message."""
    with open(os.path.join(d, "AMQ1000.0.FMT"), "w") as f:
        f.write(TRACE_HEAD.format(pid=1000))
        for i in range(n):
            t = usec(i)
            tid = i + 2
            f.write(f" {t} {1000:>8}.{tid:<10}:       {{  MQPUT\n")
            f.write(f" {t} {1000:>8}.{tid:<10}RSESS:000001 }}  MQPUT rc=OK FunctionTime=12\n")


FDC = """+-----------------------------------------------------------------------------+
|                                                                             |
| IBM MQ First Failure Symptom Report                                         |
| ===================================                                         |
|                                                                             |
| Date/Time         :- Fri October 20 2023 {hms} EDT                       |
| UTC Time          :- {utc}.104000                                      |
| UTC Time Offset   :- -240 (EDT)                                             |
| Host Name         :- mqlin2.example.com                                     |
| Operating System  :- Linux 4.18.0-477.27.1.el8_8.x86_64                     |
| LVLS              :- 9.2.0.10                                               |
| Probe Id          :- {probe}                                                |
| Component         :- cciInvalidDataReceived                                 |
| Program Name      :- amqrmppa                                               |
| Process           :- {pid}                                                   |
| Thread            :- 4    RemoteResponder                                   |
| Major Errorcode   :- rrcE_BAD_DATA_RECEIVED                                 |
| Minor Errorcode   :- OK                                                     |
| Probe Type        :- MSGAMQ9207                                             |
| Probe Description :- AMQ9207E: The data received from host '192.0.2.15' on  |
|   channel '????' is not valid.                                              |
| Comment1          :- 192.0.2.15                                             |
|                                                                             |
+-----------------------------------------------------------------------------+

MQM Function Stack
amqrmppa
ccxResponder
cciInvalidDataReceived
xcsFFST

"""


def fdc_report(i, probe):
    utc = 1697806812 + i
    s = 9 * 3600 + i % 36000
    hms = f"{s // 3600:02}:{s // 60 % 60:02}:{s % 60:02}"
    return FDC.format(hms=hms, utc=utc, probe=probe, pid=3000 + i)


def fdcs(d, n):
    """`n` FDC files, each a probe of its own (nothing to group)."""
    for i in range(n):
        sub = os.path.join(d, f"{i // 1000:04}")
        os.makedirs(sub, exist_ok=True)
        with open(os.path.join(sub, f"AMQ{3000 + i}.0.FDC"), "w") as f:
            f.write(fdc_report(i, f"XY{i:06}"))


def bigfdc(d, mb):
    """One FDC file of `mb` MB: the same probe reported again and again,
    one second apart (each a burst of its own past the burst gap)."""
    with open(os.path.join(d, "AMQ3000.0.FDC"), "w") as f:
        i = 0
        while f.tell() < mb << 20:
            f.write(fdc_report(i * 600, f"XY{i % 50_000:06}"))
            i += 1


ERRLOG = """----- amqxfdcx.c : 1041 -------------------------------------------------------
{date} {hms} - Process({pid}.1) User(mqm) Program(amqrmppa)
                    Host(mqhost) Installation(Installation1)
                    VRMF(9.3.0.0) QMgr(QM1)
                    Time({iso})
                    ArithInsert1(2) ArithInsert2(0)
                    CommentInsert1({chan})

AMQ9999E: Channel '{chan}' to host '192.0.2.{a}' ended abnormally.

EXPLANATION:
The channel program running under process ID {pid} for channel '{chan}' ended
abnormally.
ACTION:
Look at previous error messages for the channel program in the error logs.
"""


def errlog_record(i, year=2024):
    s = i % 86400
    hms = f"{s // 3600:02}:{s // 60 % 60:02}:{s % 60:02}"
    return ERRLOG.format(
        date=f"03/12/{year % 100:02}",
        hms=hms,
        pid=4000 + i,
        iso=f"{year:04}-03-12T{hms}.000Z",
        chan=f"CH.{i:07}",
        a=i % 250 + 1,
    )


def small(d, n):
    """`n` error logs of one record each, each naming a channel of its own."""
    for i in range(n):
        sub = os.path.join(d, f"{i // 1000:04}", f"{i:07}", "errors")
        os.makedirs(sub, exist_ok=True)
        with open(os.path.join(sub, "AMQERR01.LOG"), "w") as f:
            f.write(errlog_record(i))


def addresses(d, n):
    """One error log of `n` records, each from an address and a host name
    of its own (`--redact` learns and replaces every one)."""
    with open(os.path.join(d, "AMQERR01.LOG"), "w") as f:
        for i in range(n):
            r = errlog_record(i)
            a = f"10.{i >> 16 & 255}.{i >> 8 & 255}.{i & 255}"
            f.write(r.replace(f"'192.0.2.{i % 250 + 1}'", f"'app{i:07}.example.com ({a})'"))


def far(d, n):
    """One error log of `n` records dated in 2300 (past the nanosecond
    range of 64-bit instants)."""
    with open(os.path.join(d, "AMQERR01.LOG"), "w") as f:
        for i in range(n):
            f.write(errlog_record(i, 2300))


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    what, d, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    os.makedirs(d, exist_ok=True)
    make = {"pids": pids, "threads": threads, "fdcs": fdcs, "bigfdc": bigfdc, "small": small, "far": far,
            "addresses": addresses}
    make[what](d, n, *sys.argv[4:])


if __name__ == "__main__":
    main()
