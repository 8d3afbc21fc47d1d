//! Every command in README.md is run (issue 41): each line of a ```sh
//! block and each `$ ` line of a ```console block, from a scratch
//! directory that sees the repository's `fixtures/`, with the `mqdiag`
//! built for the tests first on PATH. A console block's output lines (but
//! `...`) must be lines of what the command prints. The few commands that
//! cannot run here are listed below with why; each must still be in the
//! README, so the list cannot outlive them.

mod common;

use common::Scratch;
use std::path::Path;
use std::process::Command;

/// Commands not run, and why.
const NOT_RUN: &[(&str, &str)] = &[
    (
        "cargo run --release -- analyze fixtures/",
        "builds a release binary (minutes); the same analysis is run below as `mqdiag analyze fixtures/`",
    ),
    ("cargo test", "would run this test inside itself"),
    (
        "cargo install --locked --path .",
        "installs into the user's ~/.cargo/bin; it builds what `cargo test` built",
    ),
];

/// One command of the README, and the output lines it shows (console).
struct Shown {
    line: usize,
    cmd: String,
    output: Vec<String>,
}

fn commands(readme: &str) -> Vec<Shown> {
    let mut out = Vec::new();
    let mut block: Option<&str> = None;
    for (i, l) in readme.lines().enumerate() {
        if let Some(kind) = block {
            if l.starts_with("```") {
                block = None;
                continue;
            }
            match kind {
                "sh" => {
                    let cmd = l.split(" # ").next().unwrap().trim();
                    if !cmd.is_empty() && !cmd.starts_with('#') {
                        out.push(Shown {
                            line: i + 1,
                            cmd: cmd.to_string(),
                            output: Vec::new(),
                        });
                    }
                }
                "console" => {
                    if let Some(cmd) = l.strip_prefix("$ ") {
                        out.push(Shown {
                            line: i + 1,
                            cmd: cmd.to_string(),
                            output: Vec::new(),
                        });
                    } else if l != "..." && !l.is_empty() {
                        out.last_mut()
                            .expect("output before a command")
                            .output
                            .push(l.to_string());
                    }
                }
                _ => {}
            }
        } else if let Some(kind) = l.strip_prefix("```") {
            block = Some(match kind {
                "sh" => "sh",
                "console" => "console",
                _ => "other",
            });
        }
    }
    out
}

#[test]
fn every_readme_command_runs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let shown = commands(&readme);
    assert!(shown.len() >= 15, "{} commands found", shown.len());
    for (cmd, why) in NOT_RUN {
        assert!(
            shown.iter().any(|s| s.cmd == *cmd),
            "`{cmd}` is listed as not run ({why}) but is no longer in README"
        );
    }
    let s = Scratch::new("readme");
    #[cfg(unix)]
    std::os::unix::fs::symlink(root.join("fixtures"), s.path().join("fixtures")).unwrap();
    #[cfg(not(unix))]
    return;
    let bin = Path::new(env!("CARGO_BIN_EXE_mqdiag")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut ran = 0;
    for sh in &shown {
        let cmd = match NOT_RUN.iter().find(|(c, _)| *c == sh.cmd) {
            Some(_) if sh.cmd.starts_with("cargo run --release -- ") => {
                sh.cmd.replacen("cargo run --release -- ", "mqdiag ", 1)
            }
            Some(_) => continue,
            None => sh.cmd.clone(),
        };
        let out = Command::new("sh")
            .arg("-c")
            .arg(&cmd)
            .current_dir(s.path())
            .env("PATH", &path)
            .env("COLUMNS", "80")
            .output()
            .expect("run sh");
        let code = out.status.code().unwrap_or(-1);
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        // A gate may fail (1); nothing else may.
        let ok = code == 0 || (code == 1 && cmd.contains("--fail-on"));
        assert!(ok, "README.md:{}: `{cmd}` exited {code}: {stderr}", sh.line);
        let lines: Vec<&str> = stdout.lines().collect();
        for want in &sh.output {
            assert!(
                lines.contains(&want.as_str()),
                "README.md:{}: `{cmd}` does not print\n{want}\nit prints:\n{stdout}",
                sh.line
            );
        }
        ran += 1;
    }
    // All but the two cargo commands that cannot run here.
    assert_eq!(ran, shown.len() - (NOT_RUN.len() - 1));
}
