use clap::Parser;

// Events are built on worker threads and freed on the merging thread; the
// system allocator handles such cross-thread frees poorly (it was a third of
// the run time with -j 2), mimalloc handles them well.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let code = mqdiag::cli::run(mqdiag::cli::Cli::parse());
    std::process::exit(code);
}
