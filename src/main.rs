// The system allocator: timeline rows are rendered into reused batches and
// few events cross threads, so mimalloc no longer paid for itself; it kept
// ~100 MB resident where the system allocator keeps ~30 MB (measured with
// examples/bench/main.rs).

fn main() {
    mqdiag::app::process_ends_after_verb();
    let code = mqdiag::app::main_with(std::env::args_os());
    std::process::exit(code);
}
