// mimalloc (v2, no transparent huge pages, arenas committed on demand):
// events are built on reader threads and freed on others, and a run
// allocates per thread, per file and per record; glibc's malloc spent a
// fifth to a third of the CPU time of the many-process and many-file runs
// in its own bookkeeping (`malloc_consolidate`, `_int_free`). Committing
// arenas eagerly kept 10-20 MB more resident for nothing.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

unsafe extern "C" {
    /// mimalloc's `mi_option_set` (mimalloc.h).
    fn mi_option_set(option: std::ffi::c_int, value: std::ffi::c_long);
}

/// `mi_option_arena_eager_commit` in mimalloc.h's `mi_option_e` (v2).
const MI_OPTION_ARENA_EAGER_COMMIT: std::ffi::c_int = 4;

fn main() {
    // SAFETY: sets a process-wide option before any thread is started;
    // mimalloc reads options atomically.
    unsafe { mi_option_set(MI_OPTION_ARENA_EAGER_COMMIT, 0) };
    mqdiag::app::process_ends_after_verb();
    let code = mqdiag::app::main_with(std::env::args_os());
    std::process::exit(code);
}
