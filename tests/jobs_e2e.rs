//! The worker count changes the speed, never the output: every verb gives
//! byte-identical output with `-j 1` and `-j 2` (and more) on the fixtures.

mod common;
use common::mqdiag;

/// The output without the command line a JSON report records (`run`,
/// SARIF `invocations`): it names the `-j` given, which is the point here.
fn without_command(out: String) -> String {
    let Ok(mut v) = serde_json::from_str::<serde_json::Value>(&out) else {
        return out;
    };
    // (The calls document's `run` records no command line.)
    let calls = v.get("rows").is_some();
    if let Some(run) = v.get_mut("run").and_then(|r| r.as_object_mut()) {
        assert!(run.remove("command").is_some() || calls);
    }
    if let Some(runs) = v.get_mut("runs").and_then(|r| r.as_array_mut()) {
        for r in runs {
            r.as_object_mut().unwrap().remove("invocations");
        }
    }
    v.to_string()
}

fn same_for_all_jobs(args: &[&str]) {
    let run = |j: &str| {
        let mut a = args.to_vec();
        a.extend_from_slice(&["-j", j, "--date", "2024-02-29", "--tz", "+00:00"]);
        let r = mqdiag(&a);
        assert!(r.code == 0 || r.code == 1, "{args:?}: {}", r.stderr);
        without_command(r.stdout)
    };
    let one = run("1");
    assert!(one.len() > 1000, "{args:?} wrote only {} bytes", one.len());
    for j in ["2", "3", "8"] {
        assert!(one == run(j), "{args:?} differs between -j 1 and -j {j}");
    }
}

#[test]
fn timeline_is_identical_for_any_worker_count() {
    same_for_all_jobs(&["timeline", "fixtures", "--format", "jsonl"]);
    same_for_all_jobs(&["timeline", "fixtures"]);
}

#[test]
fn inventory_is_identical_for_any_worker_count() {
    same_for_all_jobs(&["inventory", "fixtures", "--format", "json"]);
}

#[test]
fn reports_are_identical_for_any_worker_count() {
    same_for_all_jobs(&["analyze", "fixtures", "--format", "json"]);
    same_for_all_jobs(&["analyze", "fixtures", "--format", "text"]);
}

/// A trace of 66 MB (larger than the 64 MB from which a file gets helper
/// threads when there are more workers than large files): the threads
/// read it in blocks, across midnight and with calls open over many
/// blocks, and every verb still writes what one worker writes.
#[test]
fn one_large_trace_is_identical_for_any_worker_count() {
    use std::io::Write;
    let dir = common::Scratch::new("large");
    let path = dir.path().join("AMQ4711.0.FMT");
    let head = std::fs::read("fixtures/trace/linux/AMQ4711.0.FMT").unwrap();
    let mut f = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    for l in head.split_inclusive(|&c| c == b'\n').take(11) {
        f.write_all(l).unwrap();
    }
    // From 22:50 (the header's date) to past midnight; 8 threads, each
    // inside a call that stays open for the whole trace.
    let mut us: u64 = (22 * 3600 + 50 * 60) * 1_000_000;
    let mut written = 0u64;
    let mut i = 0u64;
    let mut depth = [0u32; 8];
    for t in 0..8 {
        writeln!(
            f,
            " 22:50:00.000000     4711.{t}      RSESS:00000{t} {{  outer{t}"
        )
        .unwrap();
    }
    while written < 66 << 20 {
        i += 1;
        us += i % 13 * 700;
        let t = (i * 7 % 8) as usize;
        let s = us / 1_000_000 % 86_400;
        let time = format!(
            "{:02}:{:02}:{:02}.{:06}",
            s / 3600,
            s / 60 % 60,
            s % 60,
            us % 1_000_000
        );
        let data = match i % 10 {
            0..=3 if depth[t] < 6 => {
                depth[t] += 1;
                format!("{}{{  fn{}", "-".repeat(depth[t] as usize), depth[t])
            }
            0..=5 if depth[t] > 0 => {
                depth[t] -= 1;
                format!(
                    "{}}}  fn{} rc=OK",
                    "-".repeat(depth[t] as usize + 1),
                    depth[t] + 1
                )
            }
            // Queue time growing by 3 µs a line: a qtime-growth finding.
            6 => format!("Empty(FALSE) Inherited(FALSE) QTime({})", i * 3),
            7 => "      0x0000:  00000000 11111111  |........|".to_string(),
            _ => format!("component:8 function:{} length:52850", i % 977),
        };
        let line = format!(" {time}     4711.{t}      RSESS:00000{t} {data}\n");
        written += line.len() as u64;
        f.write_all(line.as_bytes()).unwrap();
    }
    for t in 0..8 {
        writeln!(
            f,
            " 00:30:00.000000     4711.{t}      RSESS:00000{t} }}  outer{t} rc=OK"
        )
        .unwrap();
    }
    drop(f);
    let p = path.to_str().unwrap();
    for (args, jobs) in [
        (&["timeline", p][..], ["1", "2"]),
        (&["analyze", p, "--format", "json"][..], ["1", "3"]),
        (&["inventory", p, "--format", "json"][..], ["1", "2"]),
    ] {
        let out: Vec<String> = jobs
            .iter()
            .map(|j| {
                let mut a = args.to_vec();
                a.extend_from_slice(&["-j", j, "-q"]);
                let r = mqdiag(&a);
                assert!(r.code == 0 || r.code == 1, "{a:?}: {}", r.stderr);
                without_command(r.stdout)
            })
            .collect();
        assert!(out[0].len() > 400, "{args:?} wrote {} bytes", out[0].len());
        if args[0] == "analyze" {
            assert!(out[0].contains("qtime-growth"), "{}", out[0]);
        }
        assert!(
            out[0] == out[1],
            "{args:?} differs between -j {} and -j {}",
            jobs[0],
            jobs[1]
        );
    }
}

#[test]
fn calls_are_identical_for_any_worker_count() {
    same_for_all_jobs(&["calls", "fixtures", "--format", "json"]);
    same_for_all_jobs(&["calls", "fixtures", "--by", "connection"]);
}
