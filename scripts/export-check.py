#!/usr/bin/env python3
"""Exports read by the engines they are for (issue 29).

Usage: export-check.py MQDIAG [INPUT]   (INPUT: default fixtures/)

- DuckDB reads `timeline --format ecs` (read_json) with as many rows as
  `--format jsonl` has, and sampled rows agree on `@timestamp`,
  `log.file.path`, `error.code` and `ibmmq.errorlog.qmgr`; their
  `log.offset` is where their line (`mqdiag.line`) starts in the file.
- Every line of `timeline --format otlp` parses as an
  ExportLogsServiceRequest of the OpenTelemetry proto definitions (unknown
  fields refused), and its records' times are the rows' instants.
- With a binary built with `--features parquet`: DuckDB reads
  `timeline --format parquet` with the same row count and values.

Needs the `duckdb` and `opentelemetry-proto` packages (.ci/run installs
them in a throw-away virtual environment).
"""
import datetime
import json
import os
import subprocess
import sys
import tempfile

import duckdb
from google.protobuf import json_format
from opentelemetry.proto.collector.logs.v1.logs_service_pb2 import ExportLogsServiceRequest


def run(mqdiag, args, out):
    subprocess.run([mqdiag, *args, "-q", "-o", out], check=True)


def nanos(ts):
    """RFC 3339 with microseconds to UTC nanoseconds, exactly."""
    t = datetime.datetime.fromisoformat(ts)
    epoch = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
    d = t - epoch
    return (d.days * 86400 + d.seconds) * 1_000_000_000 + d.microseconds * 1000


LINE_STARTS = {}


def line_start(path, no):
    """Offset of line `no` (1-based) of a file: after the `no - 1`th LF."""
    if path not in LINE_STARTS:
        with open(path, "rb") as f:
            data = f.read()
        starts = [0]
        i = data.find(b"\n")
        while i >= 0:
            starts.append(i + 1)
            i = data.find(b"\n", i + 1)
        LINE_STARTS[path] = (starts, data)
    starts, data = LINE_STARTS[path]
    return starts[no - 1], data


def sample(n, count=40):
    step = max(1, n // count)
    return list(range(0, n, step)) + [n - 1]


def main(tmp):
    mqdiag = os.path.abspath(sys.argv[1])
    src = sys.argv[2] if len(sys.argv) > 2 else "fixtures/"
    rows_path = os.path.join(tmp, "rows.jsonl")
    ecs_path = os.path.join(tmp, "rows.ecs.ndjson")
    otlp_path = os.path.join(tmp, "rows.otlp.jsonl")
    run(mqdiag, ["timeline", src, "--format", "jsonl"], rows_path)
    run(mqdiag, ["timeline", src, "--format", "ecs"], ecs_path)
    run(mqdiag, ["timeline", src, "--format", "otlp"], otlp_path)
    with open(rows_path, encoding="utf-8") as f:
        rows = [json.loads(l) for l in f]
    n = len(rows)
    assert n > 0, "no rows"
    # Records without a time (`ts` null) come after every dated row.
    dated = [r for r in rows if r["ts"] is not None]
    assert rows[: len(dated)] == dated, "an undated row before a dated one"

    db = duckdb.connect()
    # Row numbers are file order: read_json keeps it with preserve order.
    db.execute("SET preserve_insertion_order = true")
    ecs_count = db.execute(
        "SELECT count(*) FROM read_json(?, format = 'newline_delimited')", [ecs_path]
    ).fetchone()[0]
    assert ecs_count == n, f"DuckDB read {ecs_count} ECS documents, jsonl has {n} rows"
    got = db.execute(
        """SELECT CAST("@timestamp" AS VARCHAR), "log".file.path,
                  "error".code, ibmmq.errorlog.qmgr, "log"."offset", mqdiag.line
           FROM read_json(?, format = 'newline_delimited',
                          columns = {'@timestamp': 'VARCHAR',
                                     'log': 'STRUCT(file STRUCT(path VARCHAR), "offset" UBIGINT)',
                                     'mqdiag': 'STRUCT(line UBIGINT)',
                                     'error': 'STRUCT(code VARCHAR)',
                                     'ibmmq': 'STRUCT(errorlog STRUCT(qmgr VARCHAR))'})""",
        [ecs_path],
    ).fetchall()
    checked = qmgrs = offsets = 0
    for i in sample(n, 400):
        r = rows[i]
        attrs = r.get("attrs") or {}
        ts, path, code, qmgr, offset, line = got[i]
        assert line == r["line"], (i, line, r["line"])
        assert offset is not None, (i, path, line)
        if os.path.isfile(path):
            # The bytes at the offset are the event's first line.
            start, data = line_start(path, line)
            assert offset == start, (i, path, line, offset, start)
            end = data.find(b"\n", offset)
            assert data[offset : end if end >= 0 else len(data)].strip(b"\r"), (i, path, line)
            offsets += 1
        assert ts == r["ts"], (i, ts, r["ts"])
        assert path == r["path"], (i, path, r["path"])
        msgid = attrs.get("msgid")
        want_code = msgid or (r.get("rc") if r.get("rc") not in (None, "", "OK") else None)
        want_code = msgid or attrs.get("reason") or want_code
        assert code == want_code, (i, code, want_code)
        want_qmgr = attrs.get("qmgr") if msgid else None
        assert qmgr == want_qmgr, (i, qmgr, want_qmgr)
        qmgrs += qmgr is not None
        checked += 1
    assert offsets > 0, "no sampled row's file to check its offset in"
    print(
        f"ecs: DuckDB read {ecs_count} documents; {checked} sampled rows agree "
        f"({qmgrs} with a queue manager, {offsets} offsets checked in their files)"
    )

    count = 0
    with open(otlp_path, encoding="utf-8") as f:
        for i, line in enumerate(f):
            req = json_format.Parse(line, ExportLogsServiceRequest())
            recs = [lr for rl in req.resource_logs for sl in rl.scope_logs for lr in sl.log_records]
            assert len(recs) == 1, (i, len(recs))
            if rows[i]["ts"] is None:
                # OTLP's "unknown or missing" time.
                assert recs[0].time_unix_nano == 0, (i, recs[0].time_unix_nano)
            else:
                want = nanos(rows[i]["ts"])
                # Records keep nanoseconds the rows give to the microsecond.
                assert recs[0].time_unix_nano // 1000 == want // 1000, (i, recs[0].time_unix_nano, want)
            count += 1
    assert count == n, f"{count} OTLP requests, {n} rows"
    print(f"otlp: {count} requests parse as ExportLogsServiceRequest; times are the rows' instants")

    parquet_path = os.path.join(tmp, "rows.parquet")
    p = subprocess.run(
        [mqdiag, "timeline", src, "--format", "parquet", "-q", "-o", parquet_path],
        capture_output=True,
        text=True,
    )
    if p.returncode != 0:
        print("parquet: skipped, this binary was built without the parquet feature")
        return
    pq_count = db.execute("SELECT count(*) FROM read_parquet(?)", [parquet_path]).fetchone()[0]
    # Parquet's `ts` is required: rows without a time are left out.
    assert pq_count == len(dated), f"DuckDB read {pq_count} Parquet rows, jsonl has {len(dated)} dated"
    got = db.execute(
        """SELECT epoch_us(ts), path, line, format, kind, pid, tid, msgid, function, text,
                  attrs['qmgr']
           FROM read_parquet(?)""",
        [parquet_path],
    ).fetchall()
    for i in sample(len(dated), 400):
        r = dated[i]
        us, path, line, fmt, kind, pid, tid, msgid, function, text, qmgr = got[i]
        assert us == nanos(r["ts"]) // 1000, (i, us, r["ts"])
        assert (path, line, fmt, kind) == (r["path"], r["line"], r["format"], r["kind"]), i
        assert (pid, tid, function) == (r.get("pid"), r.get("tid"), r.get("function")), i
        assert text == r["text"], i
        attrs = r.get("attrs") or {}
        assert msgid == attrs.get("msgid"), i
        assert qmgr == attrs.get("qmgr"), (i, qmgr)
    print(f"parquet: DuckDB read {pq_count} rows; sampled rows agree")


if __name__ == "__main__":
    with tempfile.TemporaryDirectory(prefix="mqdiag-export-") as tmp:
        main(tmp)
