//! `--redact` holds (issue 17): a generated case plants a few hundred
//! secrets of every kind (host names, addresses in every written form,
//! user ids and queue-manager names in attributes and only in message
//! text, distinguished names, CHLAUTH maps, FDC environment secrets) and
//! 10,000 distinct host names; every verb in every format runs with
//! `--redact` and no output holds any of them. Channel names stay whole
//! unless `--redact-names`.

mod common;

use aho_corasick::AhoCorasick;
use std::fmt::Write as _;
use std::fs;
use std::path::Path;
use std::process::Command;

/// Records with planted secrets (each kind this many times).
const N: usize = 300;
/// Records that only add another distinct host name.
const HOSTS: usize = 10_000;

/// The secrets planted, and the channel names that must stay whole.
struct Planted {
    secrets: Vec<String>,
    channels: Vec<String>,
}

fn record(out: &mut String, ts: (u32, u32), pid: usize, hdr: &[(&str, String)], msg: &str) {
    let (min, sec) = ts;
    let _ = writeln!(
        out,
        "03/05/2024 04:{min:02}:{sec:02} PM - Process({pid}.1) {} Program(amqrmppa)",
        hdr.iter()
            .find(|(k, _)| *k == "User")
            .map(|(_, v)| format!("User({v})"))
            .unwrap_or_default()
    );
    for (k, v) in hdr.iter().filter(|(k, _)| *k != "User") {
        let _ = writeln!(out, "                    {k}({v})");
    }
    let _ = writeln!(
        out,
        "                    Time(2024-03-05T15:{min:02}:{sec:02}.000Z)"
    );
    let _ = writeln!(
        out,
        "\n{msg}\n\nEXPLANATION:\nThe connection ended.\nACTION:\nTell the systems administrator."
    );
    let _ = writeln!(
        out,
        "----- amqccita.c : 4486 -------------------------------------------------------"
    );
}

/// The case, with `hosts` more records that each name one more host.
fn case(root: &Path, hosts: usize) -> Planted {
    let mut secrets = Vec::new();
    let mut channels = Vec::new();
    let qmgr_dir = "ZQPATHQMX";
    secrets.push(qmgr_dir.to_string());
    let dir = root.join("qmgrs").join(qmgr_dir).join("errors");
    fs::create_dir_all(&dir).unwrap();
    let mut log = String::new();
    for i in 0..N {
        let host = format!("zqhost{i}x");
        let fq = format!("zqfq{i}x.corp.example");
        let user = format!("zqusr{i}x");
        let qmgr = format!("ZQQM{i}X");
        let text_user = format!("zqtxtusr{i}x");
        let text_qmgr = format!("ZQTXTQM{i}X");
        let text_host = format!("zqtxthost{i}x");
        let ip = format!("198.51.{}.{}", i / 200, i % 200 + 20);
        let ip_ver = format!("203.0.113.{}", i % 250 + 1);
        let ip_zero = format!("010.{:03}.009.010", i % 250);
        let mapped = format!("10.66.{}.{}", i / 200, i % 200 + 1);
        let v6 = format!("2001:db8:77::{:x}", i + 1);
        let cn = format!("zqperson{i}x");
        let ou = format!("zqunit{i}x");
        let amap = format!("10.{}.zq{i}x.*", i % 200);
        let mcauser = format!("zqmcau{i}x");
        let token = format!("zqtok{i}x");
        let channel = format!("APP{i}.TO.ZQ");
        channels.push(channel.clone());
        let hdr = [
            ("User", user.clone()),
            ("Host", host.clone()),
            ("QMgr", qmgr.clone()),
            ("RemoteHost", ip.clone()),
            ("CommentInsert1", format!("{fq} ({ip})(1414)")),
            ("CommentInsert3", channel.clone()),
        ];
        let msg = format!(
            "AMQ9209E: Connection to host '{fq} ({ip})' for channel '{channel}' closed. \
             User ID '{text_user}' on queue manager '{text_qmgr}' from host '{text_host}'. \
             Peer at {ip}:1414, level of the peer at {ip_ver}, ::ffff:{mapped}, {ip_zero}, \
             [{v6}]:1414. SSLPEER CN={cn},OU={ou},O=ZqOrg{i}x,C=GB. \
             SET CHLAUTH('{channel}') TYPE(ADDRESSMAP) ADDRESSMAP('{amap}') MCAUSER('{mcauser}') \
             API_TOKEN={token}"
        );
        record(
            &mut log,
            ((i / 60) as u32, (i % 60) as u32),
            3000 + i,
            &hdr,
            &msg,
        );
        secrets.extend([
            host,
            fq,
            user,
            qmgr,
            text_user,
            text_qmgr,
            text_host,
            ip,
            ip_ver,
            ip_zero,
            mapped,
            v6,
            cn,
            ou,
            format!("ZqOrg{i}x"),
            format!("zq{i}x.*"),
            mcauser,
            token,
        ]);
    }
    fs::write(dir.join("AMQERR01.LOG"), &log).unwrap();

    // 10,000 distinct host names, one per record.
    let mut many = String::new();
    for i in 0..hosts {
        let h = format!("zqmany{i}x");
        let hdr = [
            ("User", "mqm".to_string()),
            ("Host", "mqprod1".to_string()),
            ("CommentInsert1", format!("{h} (192.0.2.7)(1414)")),
        ];
        let msg = format!(
            "AMQ9209E: Connection to host '{h} (192.0.2.7)' for channel 'SYSTEM.DEF.SVRCONN' closed."
        );
        record(
            &mut many,
            (10 + (i / 3600) as u32, ((i / 60) % 60) as u32),
            9000,
            &hdr,
            &msg,
        );
        secrets.push(h);
    }
    secrets.push("mqprod1".to_string());
    secrets.push("192.0.2.7".to_string());
    let sys = root.join("errors");
    fs::create_dir_all(&sys).unwrap();
    fs::write(sys.join("AMQERR01.LOG"), &many).unwrap();

    // FDCs: a secret in the environment and in a comment.
    let fdc_src = fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/fdc/AMQ3321.0.FDC"),
    )
    .unwrap();
    for i in 0..20 {
        let pw = format!("zqpw{i}x");
        let env_pw = format!("zqenvpw{i}x");
        let fdc_host = format!("zqfdchost{i}x");
        let mut t = fdc_src.replace("mqlin2.example.com", &fdc_host);
        t = t.replace(
            "| Probe Description :-",
            &format!(
                "| Comment1          :- MQ_ADMIN_PASSWORD={pw} from {fdc_host}\n| Probe Description :-"
            ),
        );
        t.push_str(&format!(
            "\nEnvironment variables:\n MQ_ADMIN_PASSWORD={env_pw}\n MQ_APP_SECRET_KEY=zqkey{i}x\n"
        ));
        fs::write(root.join(format!("AMQ{}.0.FDC", 3400 + i)), t).unwrap();
        secrets.extend([pw, env_pw, fdc_host, format!("zqkey{i}x")]);
    }

    // A trace with addresses in its lines.
    let mut tr = String::from(
        "Timestamp        Process.Thread  Trace Ident  Trace Data\n\
         ===========================================================\n \
         16:39:00.901122     7703.1           :           Header.v02:9.1:Linux 4.15.0-36-generic:64:-1:1:BST\n \
         16:39:00.901153     7703.1           :           Version : 9.1.0.0    Level : p910-L180705\n \
         16:39:00.901184     7703.1           :           UTC   Date : 10/06/18  Time : 15:39:00.901015\n \
         16:39:00.901246     7703.1           :           PID : 7703 Process : connc (64-bit)\n \
         16:39:00.901277     7703.1           :           Host : zqtracehostx\n",
    );
    secrets.push("zqtracehostx".to_string());
    for i in 0..N {
        let ip = format!("192.0.{}.{}", 100 + i / 200, i % 200 + 3);
        let v6 = format!("fd00:{:x}::5", i + 1);
        let _ = writeln!(
            tr,
            " 16:39:01.{:06}     7703.1      RSESS:000001           Connecting to {ip}:1414 and [{v6}] and ::ffff:{ip}",
            i * 10
        );
        secrets.extend([ip, v6]);
    }
    fs::write(root.join("AMQ7703.0.FMT"), tr).unwrap();
    Planted { secrets, channels }
}

fn run(root: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_mqdiag"))
        .args(args)
        .arg("-q")
        .current_dir(root)
        .output()
        .expect("run mqdiag");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Run each of `runs` with `--redact` on the case at `root`: no secret in
/// any output; in the timeline, channel names whole.
fn no_leaks(root: &Path, planted: &Planted, runs: &[&[&str]]) {
    let find = AhoCorasick::builder()
        .ascii_case_insensitive(true)
        .build(&planted.secrets)
        .unwrap();
    // The case is seen: without `--redact` the secrets are there.
    let (_, plain, _) = run(root, &["timeline", "--format", "jsonl", "."]);
    let seen = find.find_iter(&plain).count();
    assert!(
        seen > planted.secrets.len(),
        "only {seen} secrets in the plain timeline"
    );
    for args in runs {
        let mut a = args.to_vec();
        a.extend([".", "--redact"]);
        let (code, out, err) = run(root, &a);
        assert!(code == 0 || code == 1, "{a:?}: exit {code}: {err}");
        assert!(!out.is_empty(), "{a:?}: no output");
        let leaks: Vec<String> = find
            .find_iter(&out)
            .take(5)
            .map(|m| {
                let b = out.as_bytes();
                let around = &b[m.start().saturating_sub(40)..(m.end() + 20).min(b.len())];
                format!(
                    "{:?} in {:?}",
                    &out[m.start()..m.end()],
                    String::from_utf8_lossy(around)
                )
            })
            .collect();
        assert!(leaks.is_empty(), "{a:?} leaks: {leaks:#?}");
        if args[0] == "timeline" {
            // Channel names are kept whole, not rewritten in part.
            for c in planted.channels.iter().take(20) {
                assert!(out.contains(c.as_str()), "{a:?}: channel {c} lost");
            }
            assert!(out.contains("host-") && out.contains("ip-") && out.contains("user-"));
        }
    }
}

/// Every verb and format, on the case with a few hundred secrets of each
/// kind.
#[test]
fn no_secret_survives_any_verb_or_format() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    let planted = case(root, 50);
    let runs: &[&[&str]] = &[
        &["analyze", "--format", "text"],
        &["analyze", "--format", "json"],
        &["analyze", "--format", "markdown"],
        &["analyze", "--format", "html"],
        &["analyze", "--format", "sarif"],
        &["timeline", "--format", "text"],
        &["timeline", "--format", "csv"],
        &["timeline", "--format", "jsonl"],
        &["inventory", "--format", "text"],
        &["inventory", "--format", "json"],
        &["calls", "--format", "text"],
        &["calls", "--format", "csv"],
        &["calls", "--format", "json"],
    ];
    no_leaks(root, &planted, runs);
    // `--redact-names` replaces whole channel names too.
    let (code, out, err) = run(
        root,
        &[
            "timeline",
            "--format",
            "csv",
            ".",
            "--redact",
            "--redact-names",
        ],
    );
    assert_eq!(code, 0, "{err}");
    for c in &planted.channels {
        assert!(!out.contains(c.as_str()), "channel {c} left");
    }
    assert!(out.contains("chl-1"));
    // The report's `run.command` shows the paths given: redacted too.
    let (code, out, err) = run(
        root,
        &["analyze", "--format", "json", "qmgrs/ZQPATHQMX", "--redact"],
    );
    assert!(code == 0 || code == 1, "{err}");
    assert!(!out.contains("ZQPATHQMX"), "{out}");
    assert!(out.contains("qmgrs/qmgr-"), "{out}");
}

/// 10,000 distinct host names: the scan scales and nothing is dropped (a
/// report, a streamed timeline, the inventory; the scan is the same in
/// every format).
#[test]
fn ten_thousand_hosts_are_all_replaced() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    let planted = case(root, HOSTS);
    let runs: &[&[&str]] = &[
        &["analyze", "--format", "markdown"],
        &["timeline", "--format", "csv"],
        &["inventory", "--format", "json"],
    ];
    no_leaks(root, &planted, runs);
}

#[test]
fn tokens_are_stable_across_runs_and_jobs() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    case(root, 50);
    let one = run(
        root,
        &["timeline", "--format", "csv", ".", "--redact", "-j", "1"],
    );
    let two = run(
        root,
        &["timeline", "--format", "csv", ".", "--redact", "-j", "2"],
    );
    assert_eq!(one.0, 0, "{}", one.2);
    assert!(one.1 == two.1, "tokens depend on the worker count");
}

#[test]
fn redact_names_needs_redact() {
    let r = common::mqdiag(&["timeline", "fixtures/errlog", "--redact-names"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
}
