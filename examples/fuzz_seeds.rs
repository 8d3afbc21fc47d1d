//! Copy the fixtures into the fuzz corpora: each file into
//! `<corpus>/<target>/` of the reader that takes it, and a small file of
//! each reader's into `<corpus>/analyze/` (`mqdiag::fuzzing::seeds`).
//! `scripts/fuzz-seeds.sh` runs it, then adds the archive target's seeds.
//!
//! ```text
//! cargo run --example fuzz_seeds -- fixtures fuzz/corpus
//! ```

use std::path::PathBuf;

fn main() {
    let args: Vec<PathBuf> = std::env::args_os().skip(1).map(PathBuf::from).collect();
    let [fixtures, corpus] = &args[..] else {
        eprintln!("usage: fuzz_seeds FIXTURES CORPUS");
        std::process::exit(2);
    };
    for (target, path) in mqdiag::fuzzing::seeds(fixtures) {
        let dir = corpus.join(target);
        std::fs::create_dir_all(&dir).expect("corpus directory");
        // The path as the file's name (`fixtures_trace_AMQ1.0.FMT`).
        let name = path.to_string_lossy().replace(['/', '\\'], "_");
        std::fs::copy(&path, dir.join(name)).expect("copy a seed");
    }
}
