//! Trace lines `analyze` and `inventory` skip unread (issue 43): one whose
//! `PID.TID` cannot be read is the same located `bad-line` problem as when
//! the line is read in full, at `-j 1` and `-j 2`, and is not counted as
//! a record.

mod common;

use common::{Scratch, analyze_json, findings, inventory_row};

/// The Linux fixture's header, then 2,000 lines no rule reads, one of
/// them with a process number that is not one. Returns the folder and
/// the damaged line.
fn trace() -> (Scratch, u64) {
    let fixture = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/trace/linux/AMQ4711.0.FMT"
    );
    let text = std::fs::read_to_string(fixture).unwrap();
    let mut body: String = text.split_inclusive('\n').take(11).collect();
    let mut damaged = 0;
    for i in 0..2_000u64 {
        let us = (11 * 3600 + 30 * 60) * 1_000_000 + i * 100_000;
        let (s, frac) = (us / 1_000_000, us % 1_000_000);
        let tid = 1 + i % 3;
        let mut l = format!(
            " {:02}:{:02}:{:02}.{frac:06}     4711.{tid:<5}  RSESS:{tid:06x}       nothing {i}\n",
            s / 3600,
            s / 60 % 60,
            s % 60
        );
        if i == 1_234 {
            l = l.replacen("4711.", "47x1.", 1);
            damaged = 11 + i + 1;
        }
        body.push_str(&l);
    }
    let d = Scratch::new("trace-skip");
    d.write("AMQ4711.0.FMT", body.as_bytes());
    (d, damaged)
}

#[test]
fn a_skipped_line_without_a_pid_tid_is_a_located_problem() {
    let (d, line) = trace();
    let file = d.path().join("AMQ4711.0.FMT");
    let path = file.to_str().unwrap();
    for jobs in ["1", "2"] {
        let v = analyze_json(&[path, "-j", jobs]);
        let bad = findings(&v, "unreadable-input");
        assert_eq!(bad.len(), 1, "{v}");
        let title = bad[0]["title"].as_str().unwrap();
        assert!(
            title.contains("not a trace record: `11:32:03.400000     47x1.2"),
            "{title}"
        );
        assert_eq!(bad[0]["evidence"][0]["line"], line, "{}", bad[0]);
    }
    let row = inventory_row(path);
    assert_eq!(row["problem_count"], 1, "{row}");
    assert_eq!(row["problems"][0]["line"], line, "{row}");
    assert_eq!(row["problems"][0]["code"], "bad-line", "{row}");
    // Nine header records and the 1,999 good lines.
    assert_eq!(row["events"], 2_008, "{row}");
}
