// mimalloc, set up by `mqdiag::alloc` (why, and its settings).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    mqdiag::alloc::tune();
    mqdiag::app::process_ends_after_verb();
    let code = mqdiag::app::main_with(std::env::args_os());
    std::process::exit(code);
}
