//! A process is a host and a pid (issue 28 item 2): two hosts' traces with
//! the same pid are two processes in `calls` and in analyze's MQI table;
//! traces that name no host stand for themselves.

mod common;

use common::{Scratch, mqdiag};
use std::fs;

const TRACE: &str = "fixtures/calls/client/AMQ30512.0.FMT";

/// The client trace twice, as if taken on two hosts (`host` per copy;
/// `None` drops the header's host line).
fn case(hosts: [Option<&str>; 2]) -> Scratch {
    let tmp = Scratch::new("calls-hosts");
    let src =
        fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(TRACE)).unwrap();
    for (i, h) in hosts.iter().enumerate() {
        let t: String = src
            .lines()
            .filter_map(|l| match (l.contains("Host : appsrv07"), h) {
                (true, Some(h)) => Some(l.replace("appsrv07", h)),
                (true, None) => None,
                _ => Some(l.to_string()),
            })
            .map(|l| l + "\n")
            .collect();
        tmp.write(&format!("node{i}/AMQ30512.0.FMT"), t.as_bytes());
    }
    tmp
}

fn rows(dir: &str) -> Vec<serde_json::Value> {
    let r = mqdiag(&["calls", dir, "--format", "json", "-q"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    v["rows"].as_array().unwrap().clone()
}

#[test]
fn two_hosts_with_one_pid_are_two_processes() {
    let tmp = case([Some("alpha01"), Some("beta02")]);
    let rows = rows(&tmp.str());
    let get: Vec<_> = rows.iter().filter(|r| r["verb"] == "MQGET").collect();
    assert_eq!(get.len(), 2, "{rows:#?}");
    let hosts: Vec<&str> = get.iter().map(|r| r["host"].as_str().unwrap()).collect();
    assert!(
        hosts.contains(&"alpha01") && hosts.contains(&"beta02"),
        "{hosts:?}"
    );
    for r in &get {
        assert_eq!(r["pid"], 30512);
        assert_eq!(r["calls"], 4, "each host's own calls, not the sum");
    }
    let text = common::stdout_of(&["calls", &tmp.str(), "-q"]);
    assert!(text.contains("alpha01:30512 ordersvc"), "{text}");
    assert!(text.contains("beta02:30512 ordersvc"), "{text}");
    // analyze's MQI table too.
    let md = common::stdout_of(&["analyze", &tmp.str(), "--format", "markdown", "-q"]);
    assert!(
        md.contains("alpha01:30512") && md.contains("beta02:30512"),
        "{md}"
    );
}

#[test]
fn one_host_and_pid_in_two_files_is_one_process() {
    let tmp = case([Some("alpha01"), Some("alpha01")]);
    // The two files are identical, so read once; make the second differ.
    let p = tmp.0.join("node1/AMQ30512.0.FMT");
    let t = fs::read_to_string(&p).unwrap();
    fs::write(&p, t + " \n").unwrap();
    let rows = rows(&tmp.str());
    let get: Vec<_> = rows.iter().filter(|r| r["verb"] == "MQGET").collect();
    assert_eq!(get.len(), 1, "{rows:#?}");
    assert_eq!(get[0]["calls"], 8);
}

#[test]
fn traces_naming_no_host_stand_for_themselves() {
    let tmp = case([None, None]);
    let p = tmp.0.join("node1/AMQ30512.0.FMT");
    let t = fs::read_to_string(&p).unwrap();
    fs::write(&p, t + " \n").unwrap();
    let rows = rows(&tmp.str());
    let get: Vec<_> = rows.iter().filter(|r| r["verb"] == "MQGET").collect();
    assert_eq!(get.len(), 2, "{rows:#?}");
    for r in &get {
        assert!(r["host"].is_null());
        assert!(r["trace"].as_str().unwrap().ends_with("AMQ30512.0"), "{r}");
    }
}
