//! End-to-end: MQ output in every version's shape and as people paste it
//! (fixtures/pasted): `ffstsummary` listings of 7.5 to 9.4, alone and
//! inside a container's console.

mod common;
use common::*;

const DIR: &str = "fixtures/pasted";

/// Each FDC row of a file: its instant, FDC file, line and probe.
fn fdcs(file: &str) -> Vec<(String, String, u64, String)> {
    timeline_rows(&format!("{DIR}/{file}"))
        .iter()
        .filter(|e| e["kind"] == "fdc")
        .map(|e| {
            (
                e["ts"].as_str().unwrap().to_string(),
                e["attrs"]["fdc_file"].as_str().unwrap().to_string(),
                e["line"].as_u64().unwrap(),
                e["attrs"]["probe"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn row(file: &str) -> serde_json::Value {
    inventory_row(&format!("{DIR}/{file}"))
}

#[test]
fn ffstsummary_of_each_version_alone() {
    for (file, offset) in [
        ("ffstsummary/ffst-7.5.txt", "-05:00"),
        ("ffstsummary/ffst-9.2.txt", "+00:00"),
        ("ffstsummary/ffst-9.3.txt", "+00:00"),
    ] {
        let inv = row(file);
        assert_eq!(inv["format"], "fdc", "{file}");
        assert_eq!(inv["variant"], "ffstsummary", "{file}");
        assert_eq!(inv["events"], 3, "{file}");
        assert_eq!(inv["problem_count"], 0, "{file}: {inv}");
        assert_eq!(inv["utc_offset"], offset, "{file}");
    }
    assert_eq!(
        fdcs("ffstsummary/ffst-7.5.txt")[0],
        (
            "2015-03-02T14:05:11.402117-05:00".into(),
            "AMQ20871.0.FDC".into(),
            1,
            "XC130003".into()
        )
    );
    let r = timeline_rows(&format!("{DIR}/ffstsummary/ffst-9.3.txt"));
    assert_eq!(r[0]["attrs"]["vrmf"], "9.3.2.0");
    assert_eq!(r[0]["attrs"]["summary_component"], "ProcessInit");
    assert_eq!(r[0]["attrs"]["program"], "crtmqdir");
    assert_eq!(r[0]["attrs"]["component"], "xufOpenIniEdit");
    assert_eq!(r[0]["attrs"]["major_rc"], "xecU_W_INI_ACCESS_DENIED");
    assert_eq!(
        (r[0]["pid"].as_u64(), r[0]["tid"].as_u64()),
        (Some(45), Some(1))
    );
    assert_eq!(r[2]["attrs"]["vrmf"], "9.4.0.0");
    let r = timeline_rows(&format!("{DIR}/ffstsummary/ffst-9.2.txt"));
    assert_eq!(r[2]["attrs"]["installation"], "Installation1");
    assert_eq!(r[2]["attrs"]["probe"], "XC035040");
    assert!(r[2]["attrs"].get("vrmf").is_none());
}

/// The listing under a timed `DEBUG: ffstsummary:` line of a basic
/// console: one FDC per listing line, in the console's `Z` offset.
#[test]
fn ffstsummary_in_a_basic_console() {
    let inv = row("ffstsummary/console-basic.log");
    assert_eq!(inv["format"], "container-log");
    assert_eq!(inv["variant"], "basic");
    assert_eq!(inv["utc_offset_source"], "data");
    assert_eq!(inv["problem_count"], 0, "{inv}");
    assert_eq!(inv["events"], 8);
    let got = fdcs("ffstsummary/console-basic.log");
    let want: Vec<(String, String, u64, String)> = [
        ("2023-04-18T07:41:09.230558+00:00", "AMQ45.0.FDC", 4),
        ("2023-04-18T07:41:10.876012+00:00", "AMQ46.0.FDC", 5),
        ("2023-04-18T07:41:29.440391+00:00", "AMQ47.0.FDC", 6),
    ]
    .into_iter()
    .map(|(t, f, l)| (t.into(), f.into(), l, "XY019009".into()))
    .collect();
    assert_eq!(got, want);
    let v = analyze_json(&[&format!("{DIR}/ffstsummary/console-basic.log")]);
    assert!(!findings(&v, "fdc").is_empty(), "{v}");
}

/// A JSON console record's message, under any header wording.
#[test]
fn ffstsummary_in_a_json_console_record() {
    let inv = row("ffstsummary/console-json.log");
    assert_eq!(inv["format"], "container-log");
    assert_eq!(inv["variant"], "json");
    let got = fdcs("ffstsummary/console-json.log");
    let files: Vec<(&str, u64)> = got.iter().map(|g| (g.1.as_str(), g.2)).collect();
    assert_eq!(
        files,
        vec![("AMQ45.0.FDC", 2), ("AMQ46.0.FDC", 2), ("AMQ47.0.FDC", 3)]
    );
    assert_eq!(got[0].0, "2023-04-18T07:41:09.230558+00:00");
}

/// The inventory rows of every file under a scratch directory, by name.
fn rows_of(dir: &Scratch) -> Vec<serde_json::Value> {
    let out = stdout_of(&["inventory", &dir.str(), "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    v["files"].as_array().unwrap().clone()
}

fn row_named<'a>(rows: &'a [serde_json::Value], name: &str) -> &'a serde_json::Value {
    rows.iter()
        .find(|r| r["path"].as_str().unwrap().ends_with(name))
        .unwrap_or_else(|| panic!("{name}: {rows:?}"))
}

const ERRLOG: &str = "fixtures/errlog/qmgrs/QM1/errors/AMQERR01.LOG";

/// A UTF-8 BOM and CRLF line ends before an error log's first header: the
/// first record is read like the others.
#[test]
fn bom_and_crlf_error_log_keeps_its_first_record() {
    let plain = std::fs::read_to_string(ERRLOG).unwrap();
    let mut bytes = b"\xEF\xBB\xBF".to_vec();
    bytes.extend(plain.replace('\n', "\r\n").into_bytes());
    let dir = Scratch::new("bom");
    dir.write("AMQERR01.LOG", &bytes);
    let rows = rows_of(&dir);
    let r = row_named(&rows, "AMQERR01.LOG");
    let want = inventory_row(ERRLOG);
    assert_eq!(r["format"], "errlog-text");
    assert_eq!(r["events"], want["events"]);
    assert_eq!(r["problem_count"], 0, "{r}");
    let t = timeline_rows(&format!("{}/AMQERR01.LOG", dir.str()));
    assert_eq!(t[0]["line"], 1);
    assert_eq!(t[0]["ts"], timeline_rows(ERRLOG)[0]["ts"]);
}

/// A first line of a megabyte before an error log, a basic console and
/// compose and kubectl consoles: each recognised, every record after it
/// read, the long line a located problem.
#[test]
fn an_over_long_first_line_hides_nothing() {
    let long = "x".repeat(1 << 20);
    let dir = Scratch::new("longline");
    let cases = [
        ("AMQERR01.LOG", ERRLOG, "errlog-text"),
        (
            "compose.log",
            "fixtures/container-wrappers/compose/compose-v2.log",
            "container-log",
        ),
        (
            "kubectl.log",
            "fixtures/container-wrappers/kubectl/prefix-timestamps-json.log",
            "container-log",
        ),
        (
            "console.log",
            "fixtures/pasted/ffstsummary/console-basic.log",
            "container-log",
        ),
    ];
    for (name, src, _) in cases {
        let text = std::fs::read_to_string(src).unwrap();
        dir.write(name, format!("{long}\n{text}").as_bytes());
    }
    let rows = rows_of(&dir);
    for (name, src, format) in cases {
        let r = row_named(&rows, name);
        assert_eq!(r["format"], format, "{name}");
        assert_eq!(r["events"], inventory_row(src)["events"], "{name}: {r}");
        let first = &r["problems"][0];
        assert_eq!(first["line"], 1, "{name}: {r}");
        assert_eq!(first["code"], "line-too-long", "{name}: {r}");
    }
}

/// The findings of a report, as rule and title: what a pasted copy of an
/// input must give as the input itself.
fn stories(path: &str) -> Vec<(String, String)> {
    let v = analyze_json(&[path]);
    v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["rule"].to_string(), f["title"].to_string()))
        .collect()
}

/// Every line indented alike (tabs, spaces): the indentation comes off, the
/// row says so, and the records and stories are the unindented file's.
#[test]
fn common_indentation_is_taken_off_and_stated() {
    for (file, like, what) in [
        ("indented/AMQERR01.LOG", ERRLOG, "a tab"),
        (
            "indented/console-spaces.log",
            "fixtures/access/container/mq-console.log",
            "4 spaces",
        ),
    ] {
        let path = format!("{DIR}/{file}");
        let inv = inventory_row(&path);
        let orig = inventory_row(like);
        assert_eq!(inv["format"], orig["format"], "{file}");
        assert_eq!(inv["problem_count"], 0, "{file}: {inv}");
        assert!(
            inv["variant"].as_str().unwrap().ends_with("indented"),
            "{inv}"
        );
        let note = format!("every line was indented by {what}: taken off before reading");
        assert_eq!(inv["notes"][0], note, "{inv}");
        let rows = timeline_rows(&path);
        let want = timeline_rows(like);
        let texts = |r: &[serde_json::Value]| -> Vec<(String, String)> {
            r.iter()
                .map(|e| (e["ts"].to_string(), e["text"].to_string()))
                .collect()
        };
        assert_eq!(texts(&rows), texts(&want[..rows.len()]), "{file}");
    }
    let want = stories("fixtures/access/container/mq-console.log");
    assert!(!want.is_empty());
    assert_eq!(stories(&format!("{DIR}/indented/console-spaces.log")), want);
}

/// A console whose first line lost its stamp, an error log after a line of
/// prose: the format is the body's, every record after the first line is
/// read, the first line a located problem.
#[test]
fn a_cut_or_prose_first_line_hides_nothing() {
    for (file, format, events) in [
        ("cut/console-first-line-cut.log", "container-log", 7),
        ("cut/errlog-prose.LOG", "errlog-text", 3),
    ] {
        let inv = row(file);
        assert_eq!(inv["format"], format, "{file}");
        assert_eq!(inv["events"], events, "{file}");
        assert_eq!(inv["problems"][0]["line"], 1, "{inv}");
    }
}
