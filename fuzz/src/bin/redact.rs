#![no_main]
// The entry point is shared with tests/fuzz_regressions.rs.
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    assert!(mqdiag::fuzzing::run("redact", data));
});
