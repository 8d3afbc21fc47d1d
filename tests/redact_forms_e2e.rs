//! `--redact` holds for the less common written forms (issue 30 item 15):
//! each form is planted in six input formats (trace, text and JSON error
//! log, FDC, z/OS job log, container console), and no planted value
//! survives any verb in any format. A domain name and its short name share
//! one token, and MQ levels (`VRMF`, `Version :-`) stay as they are.

mod common;

use aho_corasick::AhoCorasick;
use std::fmt::Write as _;
use std::fs;
use std::path::Path;
use std::process::Command;

/// One planted form: the text a line carries and the values it hides.
struct Form {
    text: String,
    secrets: Vec<String>,
}

/// Every form, with values unique to the format tagged `t`; `n` (1-6)
/// numbers the format where a value must be numeric.
fn forms(t: &str, n: u32) -> Vec<Form> {
    let f = |text: String, secrets: &[String]| Form {
        text,
        secrets: secrets.to_vec(),
    };
    vec![
        // The z/OS CSQX777E form: no parentheses, no quotes.
        f(
            format!("Channel blocked, Detail: ADDRESSMAP 10.77.{n}.*"),
            &[format!("10.77.{n}.")],
        ),
        f(
            format!("connecting to amqp://zqau{t}:zqapw{t}@zqah{t}.example.net:5672/vh"),
            &[format!("zqau{t}"), format!("zqapw{t}"), format!("zqah{t}")],
        ),
        f(
            format!("channel defined with conname('zqcna{t}(1414),zqcnb{t}(1415)')"),
            &[format!("zqcna{t}"), format!("zqcnb{t}")],
        ),
        f(
            format!(
                "The distinguished name 'CN=Zqlast{t}\\, Zqfirst{t},OU=Zqou{t},C=GB' was refused"
            ),
            &[
                format!("Zqlast{t}"),
                format!("Zqfirst{t}"),
                format!("Zqou{t}"),
            ],
        ),
        f(
            format!("peer name CN=\"Zqqa{t}, Zqqb{t}\",O=Zqorg{t},C=GB"),
            &[format!("Zqqa{t}"), format!("Zqqb{t}"), format!("Zqorg{t}")],
        ),
        f(
            format!("certificate E=zqmail{t}@example.org,SERIALNUMBER=ZQSN{t}77,CN=Zqcn{t}"),
            &[
                format!("zqmail{t}"),
                format!("ZQSN{t}77"),
                format!("Zqcn{t}"),
            ],
        ),
        f(
            format!("DEFINE AUTHINFO Password(zqpwp{t}) done"),
            &[format!("zqpwp{t}")],
        ),
        f(
            format!("connection string server=x;uid=app;pwd=zqpwd{t}"),
            &[format!("zqpwd{t}")],
        ),
        f(
            format!("keystore passphrase=zqpph{t}"),
            &[format!("zqpph{t}")],
        ),
        f(
            format!("login failed, User: zqcu{t}"),
            &[format!("zqcu{t}")],
        ),
        f(
            format!("container hostname zqhn{t}-0 ready"),
            &[format!("zqhn{t}-0")],
        ),
        f(
            format!("resolving host name: zqhnc{t}"),
            &[format!("zqhnc{t}")],
        ),
        // A domain name stated, then its short name alone.
        f(
            format!("remote host 'zqfq{t}.example.com' accepted; zqfq{t} is up"),
            &[format!("zqfq{t}")],
        ),
        // A queue manager named after its host.
        f(
            format!("queue manager 'zqsame{t}' on host 'zqsame{t}.example.com'"),
            &[format!("zqsame{t}")],
        ),
    ]
}

/// MQ levels written beside the planted forms, which stay readable.
const LEVELS: &[&str] = &["VRMF :- 9.3.0.15", "Version:      9.4.0.7"];

/// Every planted value, and the case written at `root`.
fn case(root: &Path) -> Vec<String> {
    let mut secrets = Vec::new();
    let take = |secrets: &mut Vec<String>, fs: &[Form]| {
        for f in fs {
            secrets.extend(f.secrets.iter().cloned());
        }
    };

    // Trace: one line per form.
    let tr_forms = forms("tr", 1);
    let mut tr = String::from(
        "Timestamp        Process.Thread  Trace Ident  Trace Data\n\
         ===========================================================\n \
         16:39:00.901122     7703.1           :           Header.v02:9.1:Linux 4.15.0-36-generic:64:-1:1:BST\n \
         16:39:00.901153     7703.1           :           Version : 9.1.0.0    Level : p910-L180705\n \
         16:39:00.901184     7703.1           :           UTC   Date : 10/06/18  Time : 15:39:00.901015\n \
         16:39:00.901246     7703.1           :           PID : 7703 Process : connc (64-bit)\n \
         16:39:00.901277     7703.1           :           Host : mqtracehost\n",
    );
    for (i, f) in tr_forms
        .iter()
        .map(|f| f.text.as_str())
        .chain(LEVELS.iter().copied())
        .enumerate()
    {
        let _ = writeln!(
            tr,
            " 16:39:01.{:06}     7703.1      RSESS:000001           {f}",
            i * 10
        );
    }
    fs::write(root.join("AMQ7703.0.FMT"), tr).unwrap();
    take(&mut secrets, &tr_forms);

    // Text error log of queue manager `QM.ZQDOT`, in its mangled directory.
    let el_forms = forms("el", 2);
    let dir = root.join("qmgrs").join("QM!ZQDOT").join("errors");
    fs::create_dir_all(&dir).unwrap();
    let mut log = String::new();
    let texts: Vec<String> = el_forms
        .iter()
        .map(|f| f.text.clone())
        .chain(LEVELS.iter().map(|s| s.to_string()))
        .chain(["queue manager 'QM.ZQDOT' started".to_string()])
        .collect();
    for (i, text) in texts.iter().enumerate() {
        let _ = writeln!(
            log,
            "03/05/2024 04:{i:02}:10 PM - Process(3012.1) User(mqm) Program(amqrmppa)\n\
             \x20                   Host(mqprod1) Installation(Installation1)\n\
             \x20                   VRMF(9.3.0.15) QMgr(QM.ZQDOT)\n\
             \x20                   Time(2024-03-05T15:{i:02}:10.000Z)\n\n\
             AMQ9999E: {text}\n\n\
             EXPLANATION:\nThe channel program ended.\nACTION:\nTell the systems administrator.\n\
             ----- amqrmrsa.c : 938 --------------------------------------------------------"
        );
    }
    fs::write(dir.join("AMQERR01.LOG"), log).unwrap();
    take(&mut secrets, &el_forms);
    secrets.push("ZQDOT".to_string());

    // JSON error log, the form in the message and in an insert.
    let js_forms = forms("js", 3);
    let jdir = root.join("json/qmgrs/QMJ!ZQJDOT/errors");
    fs::create_dir_all(&jdir).unwrap();
    let mut js = String::new();
    let texts: Vec<String> = js_forms
        .iter()
        .map(|f| f.text.clone())
        .chain(LEVELS.iter().map(|s| s.to_string()))
        .collect();
    for (i, text) in texts.iter().enumerate() {
        let rec = serde_json::json!({
            "ibm_messageId": "AMQ9999E",
            "ibm_commentInsert1": text,
            "ibm_datetime": format!("2024-06-03T06:{i:02}:44.518Z"),
            "ibm_serverName": "QMJ.ZQJDOT",
            "type": "mq_log",
            "host": "mqcontj",
            "loglevel": "ERROR",
            "module": "amqrmrsa.c:945",
            "ibm_processId": 611,
            "ibm_threadId": 23,
            "ibm_version": "9.3.0.10",
            "ibm_processName": "amqrmppa",
            "ibm_userName": "mqm",
            "message": format!("AMQ9999E: {text}"),
        });
        js.push_str(&rec.to_string());
        js.push('\n');
    }
    fs::write(jdir.join("AMQERR01.json"), js).unwrap();
    take(&mut secrets, &js_forms);
    secrets.push("ZQJDOT".to_string());

    // FDCs: the form in a comment, one file each.
    let fd_forms = forms("fd", 4);
    let fdc_src = fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/fdc/AMQ3321.0.FDC"),
    )
    .unwrap();
    let texts: Vec<String> = fd_forms
        .iter()
        .map(|f| f.text.clone())
        .chain(LEVELS.iter().map(|s| s.to_string()))
        .collect();
    for (i, text) in texts.iter().enumerate() {
        let t = fdc_src.replace(
            "| Comment2          :- TCP/IP                                                 |",
            &format!("| Comment2          :- {text:<55}|"),
        );
        assert_ne!(t, fdc_src, "the FDC fixture changed shape");
        fs::write(root.join(format!("AMQ{}.0.FDC", 5400 + i)), t).unwrap();
    }
    take(&mut secrets, &fd_forms);

    // z/OS channel-initiator job log: the form on a continuation line.
    let jl_forms = forms("jl", 5);
    let mut jl = String::from(
        "1                    J E S 2  J O B  L O G  --  S Y S T E M  S 0 W 1  --  N O D E  N 1\n\
         0\n \
         09.00.01 STC04321 ---- TUESDAY,   05 MAR 2024 ----\n \
         09.00.02 STC04321  CSQX000I %MQ1A IBM MQ for z/OS V9.3.0\n",
    );
    let texts: Vec<String> = jl_forms
        .iter()
        .map(|f| f.text.clone())
        .chain(LEVELS.iter().map(|s| s.to_string()))
        .collect();
    for (i, text) in texts.iter().enumerate() {
        let _ = write!(
            jl,
            " 10.{i:02}.40 STC04321  CSQX777E %MQ1A CSQXRESP Channel APP1.SVRCONN from 192.0.2.50\n\
             \x20                   has been blocked due to USERSRC(NOACCESS),\n\
             \x20                   {text}\n"
        );
    }
    fs::create_dir_all(root.join("zos")).unwrap();
    fs::write(root.join("zos/MQ1ACHIN.JESMSGLG.txt"), jl).unwrap();
    take(&mut secrets, &jl_forms);

    // Container console.
    let co_forms = forms("co", 6);
    let mut co =
        String::from("2024-07-09T08:15:02.118Z runmqserver: Using queue manager name: QMC1\n");
    let texts: Vec<String> = co_forms
        .iter()
        .map(|f| f.text.clone())
        .chain(LEVELS.iter().map(|s| s.to_string()))
        .collect();
    for (i, text) in texts.iter().enumerate() {
        let _ = writeln!(co, "2024-07-09T08:{:02}:44.501Z AMQ9999E: {text}", 20 + i);
    }
    fs::create_dir_all(root.join("container")).unwrap();
    fs::write(root.join("container/mq-console.log"), co).unwrap();
    take(&mut secrets, &co_forms);
    secrets
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

const RUNS: &[&[&str]] = &[
    &["analyze", "--format", "text"],
    &["analyze", "--format", "json"],
    &["analyze", "--format", "markdown"],
    &["analyze", "--format", "html"],
    &["analyze", "--format", "sarif"],
    &["analyze", "--format", "ecs"],
    &["timeline", "--format", "text"],
    &["timeline", "--format", "csv"],
    &["timeline", "--format", "jsonl"],
    &["timeline", "--format", "ecs"],
    &["timeline", "--format", "otlp"],
    &["inventory", "--format", "text"],
    &["inventory", "--format", "json"],
    &["calls", "--format", "text"],
    &["calls", "--format", "csv"],
    &["calls", "--format", "json"],
    &["calls", "--format", "markdown"],
];

#[test]
fn every_written_form_is_redacted_in_every_format() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    let secrets = case(root);
    let find = AhoCorasick::builder()
        .ascii_case_insensitive(true)
        .build(&secrets)
        .unwrap();
    // Each planted value is in the plain output: the case is read.
    let (code, plain, err) = run(root, &["timeline", "--format", "jsonl", "."]);
    assert_eq!(code, 0, "{err}");
    let mut seen = vec![false; secrets.len()];
    for m in find.find_iter(&plain) {
        seen[m.pattern().as_usize()] = true;
    }
    let unseen: Vec<&String> = secrets
        .iter()
        .zip(&seen)
        .filter(|(_, s)| !**s)
        .map(|(v, _)| v)
        .collect();
    assert!(unseen.is_empty(), "not in the plain timeline: {unseen:?}");

    let mut leaks = Vec::new();
    for args in RUNS {
        let mut a = args.to_vec();
        a.extend([".", "--redact"]);
        let (code, out, err) = run(root, &a);
        assert!(code == 0 || code == 1, "{a:?}: exit {code}: {err}");
        assert!(!out.is_empty(), "{a:?}: no output");
        for m in find.find_iter(&out) {
            let b = out.as_bytes();
            let around = &b[m.start().saturating_sub(50)..(m.end() + 20).min(b.len())];
            leaks.push(format!(
                "{a:?}: {:?} in {:?}",
                &out[m.start()..m.end()],
                String::from_utf8_lossy(around)
            ));
        }
        if args[0] == "timeline" {
            // MQ levels are not addresses.
            for level in ["9.3.0.15", "9.4.0.7"] {
                assert!(out.contains(level), "{a:?}: level {level} replaced");
            }
        }
    }
    leaks.dedup();
    assert!(leaks.is_empty(), "{} leaks: {:#?}", leaks.len(), leaks);
}

/// A domain name and its short name get one token, in whichever order they
/// are met; the saved map says so.
#[test]
fn a_domain_name_and_its_short_name_share_a_token() {
    let tmp = tempfile::tempdir().unwrap();
    let root = &tmp.path().join("case");
    fs::create_dir(root).unwrap();
    case(root);
    // Outside the case: evidence is not written to.
    let map = tmp.path().join("map.json");
    let (code, _, err) = run(
        root,
        &[
            "timeline",
            ".",
            "--redact",
            "--redact-map",
            map.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&fs::read_to_string(&map).unwrap()).unwrap();
    let token = |value: &str| -> Vec<String> {
        v["tokens"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["value"].as_str().unwrap().eq_ignore_ascii_case(value))
            .map(|e| e["token"].as_str().unwrap().to_string())
            .collect()
    };
    for t in ["tr", "el", "js", "fd", "jl", "co"] {
        for name in ["zqfq", "zqsame"] {
            let full = token(&format!("{name}{t}.example.com"));
            let short = token(&format!("{name}{t}"));
            assert!(!short.is_empty(), "{name}{t} has no token");
            for f in &full {
                assert!(short.contains(f), "{name}{t}: {full:?} against {short:?}");
            }
        }
    }
    // The queue manager of a mangled directory is the one its logs name.
    let dotted = token("qm.zqdot");
    assert_eq!(dotted.len(), 1, "{dotted:?}");
    for part in ["qm!zqdot", "zqdot", "qm"] {
        assert!(token(part).is_empty(), "{part}: {:?}", token(part));
    }
}

/// `compare --redact`: both captures share one mapping, and no planted
/// value survives in any of its formats.
#[test]
fn compare_redacts_both_captures() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    fs::create_dir_all(root.join("bad")).unwrap();
    let secrets = case(&root.join("bad"));
    fs::create_dir_all(root.join("good")).unwrap();
    fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/trace/AMQ622742.0.FMT"),
        root.join("good/AMQ622742.0.FMT"),
    )
    .unwrap();
    let find = AhoCorasick::builder()
        .ascii_case_insensitive(true)
        .build(&secrets)
        .unwrap();
    let (code, plain, err) = run(root, &["compare", "good", "bad", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let seen = find.find_iter(&plain).count();
    assert!(
        seen >= 20,
        "only {seen} planted values in the plain comparison"
    );
    let mut leaks = Vec::new();
    for format in ["text", "json", "markdown", "html"] {
        let a = ["compare", "good", "bad", "--format", format, "--redact"];
        let (code, out, err) = run(root, &a);
        assert_eq!(code, 0, "{a:?}: {err}");
        assert!(
            out.contains("host-") || out.contains("addr-"),
            "{a:?}: {out}"
        );
        for m in find.find_iter(&out) {
            let b = out.as_bytes();
            let around = &b[m.start().saturating_sub(50)..(m.end() + 20).min(b.len())];
            leaks.push(format!(
                "{a:?}: {:?} in {:?}",
                &out[m.start()..m.end()],
                String::from_utf8_lossy(around)
            ));
        }
    }
    assert!(leaks.is_empty(), "{} leaks: {:#?}", leaks.len(), leaks);
}
