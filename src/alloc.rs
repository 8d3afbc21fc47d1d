//! The allocator's settings. The binary allocates with mimalloc (v2, no
//! transparent huge pages): events are built on reader threads and freed on
//! others, and a run allocates per thread, per file and per record, where
//! glibc's malloc spent a fifth to a third of the CPU time of runs over many
//! processes or many files in its own bookkeeping (`malloc_consolidate`,
//! `_int_free`); a 1 GB FDC took 12 CPU seconds with it, 4.5 with mimalloc.
//! Two of mimalloc's defaults are changed, both for resident memory (the
//! run budget is 256 MB): see `tune`.

use mimalloc as _;
use std::ffi::{c_int, c_long};

unsafe extern "C" {
    /// mimalloc.h: `void mi_option_set(mi_option_t option, long value)`.
    fn mi_option_set(option: c_int, value: c_long);
    /// mimalloc.h: `long mi_option_get(mi_option_t option)`.
    #[cfg_attr(not(test), allow(dead_code))]
    fn mi_option_get(option: c_int) -> c_long;
}

/// `mi_option_arena_eager_commit` in mimalloc.h's `mi_option_e` (v2).
const ARENA_EAGER_COMMIT: c_int = 4;
/// `mi_option_purge_delay` (v2): milliseconds before freed pages go back.
const PURGE_DELAY: c_int = 15;

/// Arenas committed on demand (eagerly they kept 10-20 MB more resident
/// for nothing), and freed pages returned after 2 ms instead of 10: with
/// 50,000 small error logs waiting in the merge at once, the default left
/// 248-258 MB resident, 2 ms 246 MB (glibc 243); returning them at once
/// (0) cost a million-process trace 1.5 s of system time.
pub fn tune() {
    // SAFETY: plain setters of process-wide options, called before any
    // thread is started; mimalloc reads its options atomically.
    unsafe {
        mi_option_set(ARENA_EAGER_COMMIT, 0);
        mi_option_set(PURGE_DELAY, 2);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn option_numbers_are_the_ones_of_mimalloc_h() {
        // A wrong number would quietly set another option: each is told
        // by its documented default (and its neighbour's), read before
        // `tune` runs in this test binary. mimalloc reads MIMALLOC_*
        // from the environment, so where one is set the test runs again
        // in a process without them.
        const CHILD: &str = "MQDIAG_ALLOC_TEST_CHILD";
        let set: Vec<String> = std::env::vars()
            .map(|(k, _)| k)
            .filter(|k| k.starts_with("MIMALLOC_"))
            .collect();
        if !set.is_empty() {
            assert!(std::env::var_os(CHILD).is_none(), "{set:?} still set");
            let mut child = std::process::Command::new(std::env::current_exe().unwrap());
            child
                .args([
                    "--exact",
                    "alloc::tests::option_numbers_are_the_ones_of_mimalloc_h",
                ])
                .env(CHILD, "1");
            for k in &set {
                child.env_remove(k);
            }
            let out = child.output().unwrap();
            let text = String::from_utf8_lossy(&out.stdout);
            assert!(out.status.success() && text.contains("1 passed"), "{text}");
            return;
        }
        // SAFETY: plain getters.
        let get = |o| unsafe { mi_option_get(o) };
        assert_eq!(
            get(ARENA_EAGER_COMMIT),
            2,
            "arena_eager_commit defaults to 2"
        );
        assert_eq!(get(PURGE_DELAY), 10, "purge_delay defaults to 10 ms");
        assert_eq!(get(PURGE_DELAY - 1), 1, "eager_commit_delay defaults to 1");
        assert_eq!(get(PURGE_DELAY + 1), 0, "use_numa_nodes defaults to 0");
    }
}
