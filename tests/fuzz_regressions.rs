//! Inputs the fuzzers crashed on, replayed through the same entry points
//! as the fuzz targets (`mqdiag::fuzzing::run`), on stable, in `cargo
//! test`. Each file under `tests/fuzz_regressions/<target>/` is one input
//! (minimised with `cargo fuzz tmin`); a directory that names no target is
//! an error, so an input cannot sit there untested.

use std::path::Path;

#[test]
fn every_committed_crash_input_now_runs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz_regressions");
    let mut ran = 0;
    for dir in std::fs::read_dir(&root).expect("tests/fuzz_regressions") {
        let dir = dir.unwrap().path();
        if !dir.is_dir() {
            continue;
        }
        let target = dir.file_name().unwrap().to_string_lossy().into_owned();
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|f| f.unwrap().path())
            .collect();
        files.sort();
        for f in files {
            let data = std::fs::read(&f).unwrap();
            eprintln!("{target}: {}", f.display());
            assert!(
                mqdiag::fuzzing::run(&target, &data),
                "{}: no fuzz target `{target}`",
                f.display()
            );
            ran += 1;
        }
    }
    eprintln!("{ran} inputs replayed");
}
