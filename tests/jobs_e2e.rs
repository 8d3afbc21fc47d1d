//! The worker count changes the speed, never the output: every verb gives
//! byte-identical output with `-j 1` and `-j 2` (and more) on the fixtures.

mod util;
use util::mqdiag;

fn same_for_all_jobs(args: &[&str]) {
    let run = |j: &str| {
        let mut a = args.to_vec();
        a.extend_from_slice(&["-j", j, "--date", "2024-02-29", "--tz", "+00:00"]);
        let r = mqdiag(&a);
        assert!(r.code == 0 || r.code == 1, "{args:?}: {}", r.stderr);
        r.stdout
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
