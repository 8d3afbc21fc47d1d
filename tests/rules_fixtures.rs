//! Every rule on the trace fixtures: where it must fire, with the numbers
//! the fixture lines imply, and the near misses and healthy inputs where
//! nothing may fire.

mod common;
use common::*;

const SDR: &str = "fixtures/trace/sdr-channel/AMQ9306238.0.FMT";
const RCVR: &str = "fixtures/trace/rcvr-channel/AMQ7340416.0.FMT";

/// Seed 004's sender channel: four rules, each with the numbers its lines
/// carry.
#[test]
fn seed_004_sender_channel() {
    let v = analyze_json(&[SDR]);
    let rules: Vec<&str> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["rule"].as_str().unwrap())
        .collect();
    assert_eq!(
        rules,
        vec![
            "tls-handshake-slow",
            "tcp-send-stall",
            "socket-buffer-size",
            "qtime-growth"
        ]
    );

    // gsk_environment_init: input at 11:42:20.621675, output (flagged `*`)
    // at 11:42:38.527643 on the same thread: 17.905968 s.
    let f = one(&v, "tls-handshake-slow");
    assert_eq!(f["severity"], "error");
    assert_eq!(f["metrics"]["function"], "gsk_environment_init");
    assert_eq!(num(f, "max_ms"), 17905.968);
    assert_eq!(num(f, "calls"), 1.0);
    assert_eq!(evidence_lines(f), vec![34, 35]);
    assert_eq!(f["first"], "2012-05-04T11:42:20.621675-04:00");
    assert_eq!(f["last"], "2012-05-04T11:42:38.527643-04:00");
    assert!(
        f["evidence"][1]["text"]
            .as_str()
            .unwrap()
            .starts_with("*11:42:38.527643")
    );

    // Twelve `send rc=Unknown(B)` (errno 11 on AIX), each followed by a
    // select and a good send; waits from the EAGAIN exit to the good exit.
    let f = one(&v, "tcp-send-stall");
    assert_eq!(f["subject"]["pid"], 9306238);
    assert_eq!(f["subject"]["tid"], 433);
    assert_eq!(f["subject"]["ident"], "RSESS:00011e");
    assert_eq!(num(f, "stalls"), 12.0);
    assert_eq!(f["count"], 12);
    assert_eq!(num(f, "max_wait_ms"), 212.178);
    assert_eq!(num(f, "total_wait_ms"), 2430.3);
    assert_eq!(num(f, "p95_wait_ms"), 212.178);
    assert_eq!(num(f, "delayed_ack_share"), 1.0);
    assert_eq!(f["metrics"]["errno"], "EAGAIN (11)");
    assert_eq!(f["metrics"]["platform"], "AIX");
    // The first EAGAIN (the seed's own line), then the worst stall.
    assert_eq!(evidence_lines(f), vec![85, 173, 175, 177]);
    assert!(
        f["evidence"][0]["text"]
            .as_str()
            .unwrap()
            .ends_with("-}! send rc=Unknown(B)")
    );
    let advice = f["advice"].as_str().unwrap();
    assert!(advice.contains("NoDelayAck=Y") && advice.contains("MQ_SET_NODELAYACK"));

    // Current 262088/262088, asked 32766 send / 2048 receive, final
    // 2048 / 32766: a sender whose send buffer is 12.5 % of the offer.
    let f = one(&v, "socket-buffer-size");
    let m = &f["metrics"];
    assert_eq!(
        (
            m["send_current"].as_u64(),
            m["send_requested"].as_u64(),
            m["send_final"].as_u64()
        ),
        (Some(262088), Some(32766), Some(32766))
    );
    assert_eq!(
        (
            m["recv_current"].as_u64(),
            m["recv_requested"].as_u64(),
            m["recv_final"].as_u64()
        ),
        (Some(262088), Some(2048), Some(2048))
    );
    assert_eq!(m["side"], "sender");
    assert_eq!(m["data_direction"], "send");
    assert_eq!(num(f, "ceiling_bytes_per_s"), 3_276_600.0);
    assert_eq!(evidence_lines(f), vec![22, 23, 24, 25, 26, 27]);
    assert!(f["advice"].as_str().unwrap().contains("SndBuffSize"));
    assert!(f["advice"].as_str().unwrap().contains("819 KB/s at 40 ms"));

    // 34 QTime samples from 5829 µs to 11.7 s in 17.3 s.
    let f = one(&v, "qtime-growth");
    assert_eq!(num(f, "samples"), 34.0);
    assert_eq!(num(f, "first_us"), 5829.0);
    assert_eq!(num(f, "max_us"), 11_701_686.0);
    assert_eq!(num(f, "last_us"), 11_696_105.0);
    // The robust slope agrees with the end points within 1 %.
    let span = 17.302325;
    let ends = (11_696_105.0 - 5829.0) / span;
    let slope = num(f, "slope_us_per_s");
    assert!(
        (slope - ends).abs() / ends < 0.01,
        "slope {slope} vs {ends}"
    );
    assert!(num(f, "rank_correlation") > 0.95);
    assert_eq!(f["first"], "2012-05-04T11:42:45.012377-04:00");
    assert_eq!(f["last"], "2012-05-04T11:43:02.314702-04:00");
    assert_eq!(evidence_lines(f), vec![42, 253, 263]);
    assert_eq!(
        f["title"],
        "Queue time grew from 5.8 ms to 11.7 s over 34 messages"
    );
}

#[test]
fn seed_004_receiver_channel() {
    let v = analyze_json(&[RCVR]);
    assert_eq!(v["findings"].as_array().unwrap().len(), 1);
    let f = one(&v, "socket-buffer-size");
    let m = &f["metrics"];
    assert_eq!(m["side"], "receiver");
    assert_eq!(m["data_direction"], "receive");
    assert_eq!(m["recv_current"], 262088);
    assert_eq!(m["recv_requested"], 32766);
    assert_eq!(m["recv_final"], 32766);
    assert_eq!(m["send_final"], 2048);
    assert_eq!(f["subject"]["program"], "amqrmppa");
    assert_eq!(evidence_lines(f), vec![18, 19, 20, 21, 22, 23]);
    assert!(f["advice"].as_str().unwrap().contains("RcvRcvBuffSize"));
    // The receiver's 212 ms environment init and 143 ms handshake are fast.
    assert!(findings(&v, "tls-handshake-slow").is_empty());
}

#[test]
fn client_five_second_dns_lookup() {
    let v = analyze_json(&["fixtures/trace/client-dns"]);
    assert_eq!(v["findings"].as_array().unwrap().len(), 1);
    let f = one(&v, "slow-dns");
    assert_eq!(f["metrics"]["function"], "getaddrinfo");
    assert_eq!(num(f, "max_seconds"), 5.004);
    assert_eq!(num(f, "occurrences"), 1.0);
    // A trace does not say which name was looked up.
    assert!(f["metrics"]["address"].is_null());
    assert_eq!(f["subject"]["pid"], 7703);
    // The getaddrinfo exit and the MQCONN around it, one incident.
    assert_eq!(evidence_lines(f), vec![47, 51]);
    // From the MQCONN entry (16:39:01.000100) to its exit.
    assert_eq!(f["first"], "2018-10-06T16:39:01.000100+01:00");
    assert_eq!(f["last"], "2018-10-06T16:39:06.010087+01:00");
}

#[test]
fn connect_per_message_churn() {
    let v = analyze_json(&["fixtures/trace/churn"]);
    assert_eq!(v["findings"].as_array().unwrap().len(), 1);
    let f = one(&v, "connection-churn");
    assert_eq!(num(f, "connects"), 24.0);
    assert_eq!(num(f, "per_second"), 20.446);
    assert_eq!(num(f, "mean_connection_ms"), 18.246);
    assert_eq!(num(f, "max_connection_ms"), 19.043);
    assert_eq!(f["subject"]["program"], "orderfeed");
    assert_eq!(f["subject"]["pid"], 24611);
    assert!(f["advice"].as_str().unwrap().contains("connection pool"));
}

#[test]
fn damaged_inputs_are_unreadable_input_findings() {
    let v = analyze_json(&["fixtures/unreadable"]);
    let f = findings(&v, "unreadable-input");
    assert_eq!(f.len(), 2);
    let bin = f
        .iter()
        .find(|f| f["evidence"][0]["path"] == "fixtures/unreadable/AMQ4711.0.TRC")
        .unwrap();
    assert_eq!(bin["severity"], "warning");
    assert!(bin["advice"].as_str().unwrap().contains("dspmqtrc"));
    let fmt = f
        .iter()
        .find(|f| f["evidence"][0]["path"] == "fixtures/unreadable/AMQ4712.0.FMT")
        .unwrap();
    assert_eq!(fmt["severity"], "warning");
    assert_eq!(num(fmt, "lines_skipped"), 1.0);
    // The last line without its line end is a reading note, not a problem.
    assert_eq!(num(fmt, "problems"), 1.0);
    assert_eq!(evidence_lines(fmt), vec![18]);
    // The rest of the damaged trace was still read.
    let input = v["inputs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["path"] == "fixtures/unreadable/AMQ4712.0.FMT")
        .unwrap();
    assert_eq!(input["lines"], 25);
    assert!(input["events"].as_u64().unwrap() >= 9);
}

/// Each near miss on its own: nothing fires at any severity.
#[test]
fn near_misses_fire_nothing() {
    for dir in [
        "fixtures/nearmiss/send-stall",
        "fixtures/nearmiss/qtime-noise",
        "fixtures/nearmiss/tls-fast",
        "fixtures/nearmiss/client-fast",
    ] {
        let v = analyze_json(&[dir]);
        assert_eq!(
            v["findings"].as_array().unwrap().len(),
            0,
            "{dir}: {:#}",
            v["findings"]
        );
        // ... and they were read: each near miss has the lines it is about.
        assert!(v["inputs"][0]["events"].as_u64().unwrap() > 10, "{dir}");
    }
}

/// The near misses are near: lowered thresholds make them fire.
#[test]
fn near_misses_fire_when_thresholds_are_lowered() {
    let v = analyze_json(&[
        "fixtures/nearmiss/send-stall",
        "--set",
        "tcp-send-stall.min_wait_ms=0.5",
    ]);
    let f = one(&v, "tcp-send-stall");
    assert_eq!(num(f, "stalls"), 1.0);
    assert_eq!(num(f, "max_wait_ms"), 0.977);
    assert!(!f["title"].as_str().unwrap().contains("delayed-ACK"));

    let v = analyze_json(&[
        "fixtures/nearmiss/tls-fast",
        "--set",
        "tls-handshake-slow.min_ms=30",
    ]);
    let f = one(&v, "tls-handshake-slow");
    assert_eq!(f["metrics"]["function"], "gsk_secure_soc_init");
    assert_eq!(num(f, "max_ms"), 40.214);
    assert_eq!(f["severity"], "info");

    let v = analyze_json(&[
        "fixtures/nearmiss/client-fast",
        "--set",
        "slow-dns.min_ms=40",
    ]);
    assert_eq!(num(one(&v, "slow-dns"), "occurrences"), 8.0);

    // Noise stays noise however small the rise asked for.
    let v = analyze_json(&[
        "fixtures/nearmiss/qtime-noise",
        "--set",
        "qtime-growth.min_rise_ms=0",
    ]);
    assert!(findings(&v, "qtime-growth").is_empty());
}

/// Busy, healthy traces: clean input and no finding of warning or above
/// (in fact none at all).
#[test]
fn healthy_set_is_quiet() {
    let v = analyze_json(&["fixtures/healthy", "fixtures/trace/AMQ622742.0.FMT"]);
    let worse: Vec<_> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["severity"] != "info")
        .collect();
    assert!(worse.is_empty(), "{worse:#?}");
    assert_eq!(v["findings"].as_array().unwrap().len(), 0);
    assert_eq!(v["inputs"].as_array().unwrap().len(), 3);
    let inv = mqdiag(&["inventory", "--format", "json", "fixtures/healthy"]);
    let inv: serde_json::Value = serde_json::from_str(&inv.stdout).unwrap();
    for f in inv["files"].as_array().unwrap() {
        assert_eq!(f["problem_count"], 0, "{f:#}");
        assert!(f["events"].as_u64().unwrap() > 50);
    }
}

/// The README demo on all of `fixtures/`: this suite's cases fire, the
/// near misses and the healthy set stay quiet. (The readers' fixtures
/// elsewhere under `fixtures/` may add findings of their own.)
#[test]
fn demo_on_all_fixtures() {
    let v = analyze_json(&["fixtures/"]);
    let all = v["findings"].as_array().unwrap();
    let in_dir = |f: &serde_json::Value, dir: &str| {
        f["evidence"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["path"].as_str().unwrap().starts_with(dir))
    };
    for (dir, rule, severity) in [
        ("fixtures/trace/sdr-channel/", "tls-handshake-slow", "error"),
        ("fixtures/trace/sdr-channel/", "tcp-send-stall", "warning"),
        (
            "fixtures/trace/sdr-channel/",
            "socket-buffer-size",
            "warning",
        ),
        ("fixtures/trace/sdr-channel/", "qtime-growth", "warning"),
        (
            "fixtures/trace/rcvr-channel/",
            "socket-buffer-size",
            "warning",
        ),
        ("fixtures/trace/client-dns/", "slow-dns", "warning"),
        ("fixtures/trace/churn/", "connection-churn", "warning"),
        ("fixtures/unreadable/", "unreadable-input", "warning"),
    ] {
        let hit: Vec<_> = all
            .iter()
            .filter(|f| f["rule"] == rule && in_dir(f, dir))
            .collect();
        assert_eq!(
            hit.len(),
            if dir == "fixtures/unreadable/" { 2 } else { 1 },
            "{rule} in {dir}"
        );
        assert!(
            hit.iter().all(|f| f["severity"] == severity),
            "{rule} in {dir}"
        );
    }
    for quiet in ["fixtures/nearmiss/", "fixtures/healthy/"] {
        let noisy: Vec<_> = all.iter().filter(|f| in_dir(f, quiet)).collect();
        assert!(noisy.is_empty(), "{quiet}: {noisy:#?}");
    }
}

/// `--since` limits what the passes see: the GSKit call began before it.
#[test]
fn time_window_limits_the_analysis() {
    let v = analyze_json(&[SDR, "--since", "11:42:40"]);
    assert!(findings(&v, "tls-handshake-slow").is_empty());
    assert!(findings(&v, "socket-buffer-size").is_empty());
    assert_eq!(num(one(&v, "qtime-growth"), "samples"), 34.0);
    let v = analyze_json(&[SDR, "--until", "11:42:50"]);
    // The seed's stall and those after the first three bursts.
    assert_eq!(num(one(&v, "tcp-send-stall"), "stalls"), 4.0);
}

#[test]
fn only_skip_and_set() {
    let v = analyze_json(&[SDR, "--only", "qtime-growth,tcp-send-stall"]);
    let n = v["findings"].as_array().unwrap().len();
    assert_eq!(n, 2);
    let v = analyze_json(&[SDR, "--skip", "qtime-growth"]);
    assert!(findings(&v, "qtime-growth").is_empty());
    assert_eq!(v["findings"].as_array().unwrap().len(), 3);
    // A wider delayed-ACK window does not change the count; a stricter
    // minimum wait drops the finding.
    let v = analyze_json(&[
        SDR,
        "--set",
        "tcp-send-stall.min_wait_ms=250",
        "--set",
        "tcp-send-stall.min_total_wait_ms=5000",
    ]);
    assert!(findings(&v, "tcp-send-stall").is_empty());
    let v = analyze_json(&[SDR, "--set", "socket-buffer-size.rtt_ms=40"]);
    assert_eq!(
        num(one(&v, "socket-buffer-size"), "ceiling_bytes_per_s"),
        819_150.0
    );
}

/// Seed 000: the client's AMQ9788W and the 5 s look-up in its trace are
/// one incident, one finding citing both files.
#[test]
fn error_log_and_trace_of_one_lookup_are_one_finding() {
    let inv = mqdiag(&["inventory", "--format", "json", "fixtures/client-errors"]);
    let inv: serde_json::Value = serde_json::from_str(&inv.stdout).unwrap();
    assert_eq!(inv["files"][0]["format"], "errlog-text", "{inv:#}");
    let v = analyze_json(&["fixtures/trace/client-dns", "fixtures/client-errors"]);
    let f = one(&v, "slow-dns");
    assert_eq!(f["metrics"]["address"], "LOCALHOST");
    assert_eq!(f["metrics"]["function"], "getaddrinfo");
    assert_eq!(num(f, "max_seconds"), 5.004);
    assert_eq!(num(f, "occurrences"), 1.0);
    assert_eq!(num(f, "corroborated"), 1.0);
    assert_eq!(f["metrics"]["sources"], "error log, trace");
    let paths: Vec<&str> = f["evidence"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["path"].as_str().unwrap())
        .collect();
    assert_eq!(
        paths,
        vec![
            "fixtures/client-errors/AMQERR01.LOG",
            "fixtures/trace/client-dns/AMQ7703.0.FMT",
            "fixtures/trace/client-dns/AMQ7703.0.FMT"
        ]
    );
    assert_eq!(evidence_lines(f), vec![1, 47, 51]);
}
