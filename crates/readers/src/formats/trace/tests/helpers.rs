//! Blocks read by helper threads that the source gives up on: blocks
//! that keep failing, and files where most lines become events.

use super::*;

/// A file whose every block holds a title line: each is read again,
/// until the source gives up on the helpers and reads on alone.
#[test]
fn blocks_that_keep_failing_end_the_helpers() {
    let mut body = linux_head();
    for i in 0..3_000u32 {
        let l = if i % 4 == 3 {
            "Timestamp        Process.Thread  Trace Ident  Trace Data\n".to_string()
        } else {
            format!(
                " 11:22:{:02}.{:06}     4711.1      RSESS:000001 {}  fn{}\n",
                i / 100 % 60,
                i % 100 * 1000,
                if i % 4 == 0 { "{" } else { "}" },
                i % 4
            )
        };
        body.extend(l.bytes());
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("AMQ4711.0.FMT");
    std::fs::write(&path, &body).unwrap();
    let set = [path];
    let (a, _, fa) = fast(inputs_of(&set));
    let (ea, efa, _) = events_with(inputs_of(&set), ReadOptions::default());
    let (b, _, fb, counts, calls) = fast_with(inputs_of(&set), par(2, 300));
    assert!(calls == calls_of(inputs_of(&set)));
    assert_eq!(show(&a), show(&b));
    assert_eq!(fa, fb);
    assert_eq!(counts.1, u64::from(blocks::GIVE_UP), "{counts:?}");
    let (eb, efb, counts) = events_with(inputs_of(&set), par(2, 300));
    assert!(ea == eb);
    assert_eq!(efa, efb);
    assert_eq!(counts.1, u64::from(blocks::GIVE_UP), "{counts:?}");
}

/// A trace of `n` records in pairs of entry and exit, one pair in
/// `mqi_every` of MQCONNX and the others of a function no pass asks for.
fn pairs_trace(n: u32, mqi_every: u32) -> Vec<u8> {
    let mut body = linux_head();
    for i in 0..n {
        let f = if i / 2 % mqi_every == 0 {
            "MQCONNX"
        } else {
            "xcsGetMem"
        };
        let l = format!(
            " 11:22:{:02}.{:06}     4711.1      RSESS:000001 {}  {f}\n",
            i / 1000 % 60,
            i % 1000 * 1000,
            if i % 2 == 0 { "{" } else { "}" },
        );
        body.extend(l.bytes());
    }
    body
}

/// Where most lines become events, the helpers stop once the first
/// blocks have shown it and the file is read on alone, with the events
/// of one reader; where few lines do, they go on to the end.
#[test]
fn dense_files_are_read_on_alone() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("AMQ4711.0.FMT");
    let after = 4;
    let opts = |base: ReadOptions, dense_after| ReadOptions {
        parallel: crate::source::Parallel {
            dense_after,
            ..par(2, 300).parallel
        },
        ..base
    };
    // Every line an event (nothing filtered), then one line in two, five
    // and twenty of interest.
    for (mqi_every, base, dense) in [
        (1, ReadOptions::default(), true),
        (2, interest(), true),
        (5, interest(), true),
        (20, interest(), false),
    ] {
        std::fs::write(&path, pairs_trace(4_000, mqi_every)).unwrap();
        let set = [path.clone()];
        let (ea, fa, _) = events_with(inputs_of(&set), base.clone());
        let (eb, fb, counts) = events_with(inputs_of(&set), opts(base.clone(), after));
        assert!(ea == eb, "events differ, one MQI pair in {mqi_every}");
        assert_eq!(fa, fb);
        if dense {
            assert_eq!(counts.0, after, "one MQI pair in {mqi_every}: {counts:?}");
        } else {
            assert!(
                counts.0 > 10 * after,
                "one MQI pair in {mqi_every}: {counts:?}"
            );
        }
        // With no sample asked for, the helpers go on whatever the density.
        let (ec, _, counts) = events_with(inputs_of(&set), opts(base, 0));
        assert!(ea == ec);
        assert!(counts.0 > 10 * after, "{counts:?}");
    }
}
