//! Redaction that holds everywhere (issue 41): values planted in every
//! format mqdiag reads (traces of UNIX and Windows, binary trace, text and
//! JSON error logs, FDC, FFST summary, z/OS JES2 job log and dated
//! console, SMF CSV, container console, configuration files, event
//! messages and activity trace), in file and directory names
//! too, are found in no output of any verb and format under `--redact`,
//! neither on standard output nor on standard error; two files never
//! print as one path; the `--redact-map` file is private (0600).

mod common;

use aho_corasick::AhoCorasick;
use std::fs;
use std::path::Path;
use std::process::Command;

/// A fixture copied under `to`, each real value replaced by its planted
/// one (in the text and in the file's name).
struct Copy {
    from: &'static str,
    to: &'static str,
    replace: &'static [(&'static str, &'static str)],
}

const COPIES: &[Copy] = &[
    Copy {
        from: "fixtures/access/paired/client/trace/AMQ4711.0.FMT",
        to: "client/trace/AMQ4711.0.FMT",
        replace: &[("appsrv07", "zplhost71")],
    },
    Copy {
        from: "fixtures/trace/windows/AMQ4996.0.TRC",
        to: "win/AMQ4996.0.TRC",
        replace: &[("WINCLI07", "ZPLWIN77")],
    },
    Copy {
        from: "fixtures/unreadable/AMQ4711.0.TRC",
        to: "qmgrs/ZPLBINQ/trace/AMQ4711.0.TRC",
        replace: &[],
    },
    Copy {
        from: "fixtures/errlog/qmgrs/QM1/errors/AMQERR01.LOG",
        to: "qmgrs/ZPLQMA1/errors/AMQERR01.LOG",
        replace: &[
            ("mqprod1", "zplprod1"),
            ("QM1", "ZPLQMA1"),
            ("10.20.30.77", "10.99.1.77"),
        ],
    },
    Copy {
        from: "fixtures/errlog/qmgrs/QM2/errors/AMQERR01.json",
        to: "qmgrs/ZPLQMB2/errors/AMQERR01.json",
        replace: &[("mqcont2", "zplcont2"), ("QM2", "ZPLQMB2")],
    },
    Copy {
        from: "fixtures/fdc/AMQ3321.0.FDC",
        to: "errors/AMQ3321.0.FDC",
        replace: &[("mqlin2", "zpllin2")],
    },
    Copy {
        from: "fixtures/fdc-burst/summary/FFST.output",
        to: "zplffsthost/FFST.output",
        replace: &[],
    },
    Copy {
        from: "fixtures/zos/MQ1ACHIN.JESMSGLG.txt",
        to: "zos/MQ1ACHIN.JESMSGLG.txt",
        replace: &[("MQ1A", "ZPQ7"), ("S 0 W 1", "Z P S 7")],
    },
    Copy {
        from: "fixtures/zos-julian/SYSA.yyddd.txt",
        to: "syslog/SYSA.yyddd.txt",
        replace: &[("SYSA", "ZPLPAR8"), ("MQ1A", "ZPQ8")],
    },
    Copy {
        from: "fixtures/zos-julian/SYSA.yyyyddd.txt",
        to: "syslog/SYSA.yyyyddd.txt",
        replace: &[("SYSA", "ZPLPAR8"), ("MQ1A", "ZPQ8")],
    },
    Copy {
        from: "fixtures/smf/mqsmfcsv-5.7/SMF-QMST.csv",
        to: "smf/SMF-QMST.csv",
        replace: &[("SYSA", "ZPLPAR9"), ("MQPR", "ZPQ9")],
    },
    Copy {
        from: "fixtures/container-mirrored/json/console.log",
        to: "container/console.log",
        replace: &[("mq-0", "zplpod-0"), ("QM1", "ZPLQMD4")],
    },
    Copy {
        from: "fixtures/config/runmqras/var/mqm/qmgrs/QMAPP1/qm.ini",
        to: "qmgrs/QMAPP1/qm.ini",
        replace: &[("QMAPP1", "ZPLQMC5")],
    },
    Copy {
        from: "fixtures/config/runmqras/defs/QMAPP1.mqsc",
        to: "defs/QMAPP1.mqsc",
        replace: &[("QMAPP1", "ZPLQMC5"), ("ordapp", "zplgrp5")],
    },
    Copy {
        from: "fixtures/config/must-gather/configmaps/qmpod-config.yaml",
        to: "configmaps/qmpod-config.yaml",
        replace: &[("QMPOD", "ZPLQME6"), ("batchsvc", "zplusr6")],
    },
    Copy {
        from: "fixtures/config/client/ccdt.json",
        to: "client/ccdt.json",
        replace: &[("mqapp1.example.com", "zplccdt7.example.com")],
    },
    Copy {
        from: "fixtures/events/text/QM1.events.txt",
        to: "events/QM1.events.txt",
        replace: &[("QM1", "ZPLQMG9"), (": bob", ": zplbob9")],
    },
    Copy {
        from: "fixtures/activity/amqsact.txt",
        to: "activity/amqsact.txt",
        replace: &[("apphost", "zplact8"), ("'app1'", "'zplusr8'")],
    },
    // A queue manager named by its directory alone: the JSON log's UTC
    // offset comes from the text log beside it, whose path it names.
    Copy {
        from: "fixtures/errlog/qmgrs/QM1/errors/AMQERR01.LOG",
        to: "case/qmgrs/QMSECP/errors/AMQERR01.LOG",
        replace: &[],
    },
    Copy {
        from: "fixtures/errlog/qmgrs/QM2/errors/AMQERR01.json",
        to: "case/qmgrs/QMSECP/errors/AMQERR01.json",
        replace: &[],
    },
];

/// What must never be printed under `--redact`.
const PLANTED: &[&str] = &[
    "zplhost71",
    "ZPLWIN77",
    "ZPLBINQ",
    "zplprod1",
    "ZPLQMA1",
    "10.99.1.77",
    "zplcont2",
    "ZPLQMB2",
    "zpllin2",
    "ZPQ7",
    "ZPS7",
    "Z P S 7",
    "ZPLPAR8",
    "ZPQ8",
    "ZPLPAR9",
    "ZPQ9",
    "zplpod-0",
    "ZPLQMD4",
    "ZPLQMC5",
    "zplgrp5",
    "ZPLQME6",
    "zplusr6",
    "zplccdt7",
    "ZPLQMG9",
    "zplbob9",
    "zplact8",
    "zplusr8",
    "QMSECP",
];

/// The planted case written at `root`: every copy, renamed as its values.
fn case(root: &Path) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR"));
    for c in COPIES {
        let bytes = fs::read(src.join(c.from)).unwrap();
        let mut to = c.to.to_string();
        let bytes = if c.replace.is_empty() {
            bytes
        } else {
            let mut text = String::from_utf8_lossy(&bytes).into_owned();
            for (real, planted) in c.replace {
                assert!(text.contains(real), "{}: no `{real}`", c.from);
                text = text.replace(real, planted);
                to = to.replace(real, planted);
            }
            text.into_bytes()
        };
        let p = root.join(&to);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, bytes).unwrap();
    }
}

/// `VERB . --redact --redact-map MAP` in `root`.
fn with_map(root: &Path, verb: &str, map: &str) -> (i32, String, String) {
    run(root, &[verb, ".", "--redact", "--redact-map", map])
}

fn run(root: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_mqdiag"))
        .args(args)
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
    &["analyze", ".", "--format", "text"],
    &["analyze", ".", "--format", "json"],
    &["analyze", ".", "--format", "markdown"],
    &["analyze", ".", "--format", "html"],
    &["analyze", ".", "--format", "sarif"],
    &["analyze", ".", "--format", "ecs"],
    &["timeline", ".", "--format", "text"],
    &["timeline", ".", "--format", "csv"],
    &["timeline", ".", "--format", "jsonl"],
    &["timeline", ".", "--format", "ecs"],
    &["timeline", ".", "--format", "otlp"],
    &["inventory", ".", "--format", "text"],
    &["inventory", ".", "--format", "json"],
    &["calls", ".", "--format", "text"],
    &["calls", ".", "--format", "csv"],
    &["calls", ".", "--format", "json"],
    &["calls", ".", "--format", "markdown"],
    &["config", ".", "--format", "text"],
    &["config", ".", "--format", "json"],
    &["compare", "zos", "syslog", "--format", "text"],
    &["compare", "zos", "syslog", "--format", "json"],
    &["compare", "qmgrs", "container", "--format", "markdown"],
    &["compare", "qmgrs", "smf", "--format", "html"],
];

#[test]
fn no_planted_value_survives_any_verb_or_format() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    case(root);
    let find = AhoCorasick::builder()
        .ascii_case_insensitive(true)
        .build(PLANTED)
        .unwrap();
    // Every planted value is in the unredacted output: the case is read
    // (the binary trace's and the summary's only in their paths).
    let (code, plain, err) = run(root, &["inventory", ".", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let (_, rows, _) = run(root, &["timeline", ".", "--format", "jsonl"]);
    let (_, config, _) = run(root, &["config", ".", "--format", "json"]);
    let all = format!("{plain}{rows}{config}");
    for p in PLANTED {
        if *p == "Z P S 7" {
            continue;
        }
        assert!(
            find.find_iter(&all)
                .any(|m| PLANTED[m.pattern().as_usize()] == *p),
            "`{p}` is not in the plain output: the case is not read"
        );
    }
    let mut leaks = Vec::new();
    for args in RUNS {
        let mut a = args.to_vec();
        a.push("--redact");
        let (code, out, err) = run(root, &a);
        assert!(code == 0 || code == 1, "{a:?}: exit {code}: {err}");
        assert!(!out.is_empty(), "{a:?}: no output");
        for (what, text) in [("stdout", &out), ("stderr", &err)] {
            for m in find.find_iter(text) {
                let b = text.as_bytes();
                let around = &b[m.start().saturating_sub(60)..(m.end() + 20).min(b.len())];
                leaks.push(format!(
                    "{a:?} {what}: {:?} in {:?}",
                    &text[m.start()..m.end()],
                    String::from_utf8_lossy(around)
                ));
            }
        }
    }
    leaks.dedup();
    assert!(leaks.is_empty(), "{} leaks: {:#?}", leaks.len(), leaks);
}

#[test]
fn two_files_never_print_as_one_path() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    case(root);
    let paths = |extra: &[&str]| {
        let mut a = vec!["inventory", ".", "--format", "json"];
        a.extend_from_slice(extra);
        let (code, out, err) = run(root, &a);
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        let mut p: Vec<String> = v["files"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["path"].as_str().unwrap().to_string())
            .collect();
        p.sort();
        p
    };
    let plain = paths(&[]);
    let mut redacted = paths(&["--redact"]);
    assert_eq!(plain.len(), redacted.len());
    redacted.dedup();
    assert_eq!(plain.len(), redacted.len(), "{redacted:#?}");
    // The same holds for the repository's own z/OS fixtures.
    let (code, out, _) = run(
        Path::new(env!("CARGO_MANIFEST_DIR")),
        &[
            "inventory",
            "fixtures/zos-julian",
            "fixtures/zos",
            "--redact",
            "--format",
            "json",
        ],
    );
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let mut p: Vec<&str> = v["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    let n = p.len();
    p.sort();
    p.dedup();
    assert_eq!(p.len(), n, "{p:?}");
    assert!(
        p.iter().all(|x| !x.contains("SYSA") && !x.contains("MQ1A")),
        "{p:?}"
    );
}

#[cfg(unix)]
#[test]
fn the_redact_map_is_private_and_never_inside_an_input() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("case");
    fs::create_dir_all(&root).unwrap();
    case(&root);
    let map = tmp.path().join("names.map");
    // Even replacing a map someone made world-readable.
    fs::write(&map, "").unwrap();
    fs::set_permissions(&map, fs::Permissions::from_mode(0o644)).unwrap();
    fs::remove_file(&map).unwrap();
    let (code, _, err) = with_map(&root, "inventory", map.to_str().unwrap());
    assert_eq!(code, 0, "{err}");
    let mode = fs::metadata(&map).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600, "{mode:o}");
    fs::set_permissions(&map, fs::Permissions::from_mode(0o644)).unwrap();
    let (code, _, err) = with_map(&root, "timeline", map.to_str().unwrap());
    assert_eq!(code, 0, "{err}");
    let mode = fs::metadata(&map).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600, "rewritten: {mode:o}");
    let (code, _, err) = with_map(&root, "inventory", "zos/names.map");
    assert_eq!(code, 2);
    assert!(err.contains("inside the input directory"), "{err}");
}

/// The map is a file of secrets: a regular file only (a FIFO is refused,
/// not waited on; a directory and a device too), never the `-o` file (of
/// any verb, `compare` too, through a link too), and left as it was when
/// refused.
#[cfg(unix)]
#[test]
fn the_redact_map_is_a_regular_file_apart_from_the_output() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("case");
    fs::create_dir_all(&root).unwrap();
    case(&root);
    let map = tmp.path().join("names");
    let (code, _, err) = with_map(&root, "inventory", map.to_str().unwrap());
    assert_eq!(code, 0, "{err}");
    let saved = fs::read(&map).unwrap();
    assert!(String::from_utf8_lossy(&saved).contains("qmsecp"));
    let fifo = tmp.path().join("names.fifo");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success(),
        "mkfifo"
    );
    let link = tmp.path().join("link");
    std::os::unix::fs::symlink(&map, &link).unwrap();
    let (m, o) = (map.to_str().unwrap(), link.to_str().unwrap());
    let refused: &[(&[&str], &str)] = &[
        (
            &["inventory", ".", "--redact-map", fifo.to_str().unwrap()],
            "a FIFO",
        ),
        (&["inventory", ".", "--redact-map", "/dev/null"], "a device"),
        (&["inventory", ".", "--redact-map", "/tmp"], "a directory"),
        (
            &["inventory", ".", "--redact-map", m, "-o", m],
            "the same file",
        ),
        (
            &["timeline", ".", "--redact-map", m, "-o", o],
            "the same file",
        ),
        (
            &["analyze", ".", "--redact-map", o, "-o", m],
            "the same file",
        ),
        (
            &["compare", "qmgrs", "container", "--redact-map", m, "-o", m],
            "the same file",
        ),
    ];
    for (args, says) in refused {
        let mut a = args.to_vec();
        a.push("--redact");
        // A FIFO without a writer would block an open for reading: the
        // run must end by itself.
        let start = std::time::Instant::now();
        let (code, out, err) = run(&root, &a);
        assert!(start.elapsed().as_secs() < 30, "{a:?} took too long");
        assert_eq!(code, 2, "{a:?}: {err}");
        assert!(
            err.contains(says) && err.contains("--redact-map"),
            "{a:?}: {err}"
        );
        assert!(out.is_empty(), "{a:?}: {out}");
        assert_eq!(fs::read(&map).unwrap(), saved, "{a:?}: the map changed");
    }
}
