use clap::Parser;

fn main() {
    let code = mqdiag::cli::run(mqdiag::cli::Cli::parse());
    std::process::exit(code);
}
